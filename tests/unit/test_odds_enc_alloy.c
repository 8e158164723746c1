/*
 * test_odds_enc_alloy.c - Alloy: one attack's numbers from an encounter
 * file (include/fray/duel.h fray_alloy_attack_from; issue 15, section 2;
 * `fray odds attack --encounter` of an Alloy file). Seed 004: the attack
 * bonus (ability modifier + the block's attack + the weapon's proficiency,
 * 004:49, 57), long range -2 (004:89, 143), the damage [W] + ability
 * modifier; each worked out by hand here from examples/alloy.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "fray/duel.h"
#include "fray/fray.h"

#define ALLOY FRAY_SOURCE_DIR "/examples/alloy/"

static fray_setup *load(const char *path) {
    fray_setup *s = NULL;
    fray_diag d;
    cr_assert_eq(fray_setup_load(path, NULL, &s, &d), FRAY_OK, "%s", d.message);
    return s;
}

/* 004:49, 57: Vance (Mercenary: Str 14, +2; attack 3) with a Baton
 * (proficiency +2, 1d6) against Lyra's Defense 17: d20+7, 1d6+2; no
 * modifier at the start toe to toe. Hit on 10..20: 11/20 (independent
 * count of the d20's faces, natural 1 a miss, natural 20 a hit). */
Test(odds_enc_alloy, vance_baton_on_lyra_by_hand) {
    fray_setup *s = load(ALLOY "duel.yaml");
    const void *as = fray_setup_ruleset_data(s);
    fray_alloy_enc_attack e;
    fray_diag d;
    cr_assert_eq(fray_alloy_attack_from(as, 0, 1, -1, &e, &d), FRAY_OK, "%s",
                 d.message);
    cr_expect_str_eq(e.weapon_name, "Baton");
    cr_expect_eq(e.line_bonus, 2 + 3 + 2);
    cr_expect_eq(e.bonus, 7);
    cr_expect_eq(e.defense, 17);
    cr_expect_str_eq(e.defense_name, "Defense");
    cr_expect_str_eq(e.damage, "1d6+2");
    cr_expect_eq(e.crit_min, 20);
    int hits = 0;
    for (int face = 1; face <= 20; face++)
        hits += face == 20 || (face != 1 && face + e.bonus >= e.defense);
    cr_expect_eq(hits, 11);
    fray_d20_attack_query q = {.bonus = e.bonus, .defense = e.defense,
                               .crit_min = e.crit_min};
    fray_d20_attack_odds o;
    cr_assert_eq(fray_odds_d20_attack(&q, NULL, &o), FRAY_OK);
    cr_expect_eq(o.p_hit.num.lo, 11);
    cr_expect_eq(o.p_hit.den.lo, 20);
    fray_d20_attack_odds_free(&o);
    cr_expect_eq(fray_alloy_enc_weapon(as, 0, "pistol"), 0);
    cr_expect_eq(fray_alloy_enc_weapon(as, 0, "halberd"), -1);
    fray_setup_free(s);
}

/* 004:89, 143: the Pistol across the warehouse at long range, -2, named. */
Test(odds_enc_alloy, long_range_named) {
    fray_setup *s = load(ALLOY "skirmish.yaml");
    const void *as = fray_setup_ruleset_data(s);
    int merc = -1, thug = -1;
    for (int i = 0; i < fray_setup_combatants(s); i++) {
        if (strcmp(fray_setup_combatant_id(s, i), "merc") == 0)
            merc = i;
        if (strcmp(fray_setup_combatant_id(s, i), "thug-1") == 0)
            thug = i;
    }
    cr_assert(merc >= 0 && thug >= 0);
    fray_alloy_enc_attack e;
    fray_diag d;
    cr_assert_eq(fray_alloy_attack_from(as, merc, thug, -1, &e, &d), FRAY_OK,
                 "%s", d.message);
    bool named = false;
    for (int i = 0; i < e.n_mods; i++)
        if (!e.mods[i].defense && strcmp(e.mods[i].why, "long range") == 0 &&
            e.mods[i].value == -2)
            named = true;
    cr_expect(named, "no long range -2");
    cr_expect_eq(e.bonus, e.line_bonus - 2);
    cr_expect_eq(fray_alloy_attack_from(as, merc, merc, -1, &e, &d),
                 FRAY_ERR_INVALID);
    fray_setup_free(s);
}
