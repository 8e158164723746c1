/* test_winter_enchant.c - enchant-weapon spells (seed 002:35: "a couple of
 * abilities (namely the 'enchant weapon' spells), that have you using a
 * Physical Attack and Physical Defense to do some Physical damage AND some
 * Magical damage. When this happens the magical damage is ALWAYS applied
 * against Magic Resistance while the physical damage is applied against
 * Physical Resistance"; docs/rules/silent-winter.md 31): the split, one
 * point of Pain for the hit (002:37), the release (002:73), the chances,
 * the tactics and the journal, the file's errors. */
#include "winter_fixture.h"

#include <stdlib.h>

#include "fray/chances.h"

#define ENCHANT "tests/data/winter/enchant.yaml"

/* The mage lays the flame on Lothaire's sword (delay 2: from the end of
 * segment 3); then Lothaire and the warded knight engage each other. */
static fray_fight *flame_fight(fray_setup *s) {
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    sw_t_do(f, "mage cast flame-blade lothaire", NULL, 0);
    sw_t_to(f, 3);
    sw_t_do(f, "next", NULL, 0);
    int lo = sw_t_who(f, "lothaire"), kn = sw_t_who(f, "knight");
    sw_t_ready(f, lo, kn);
    sw_t_ready(f, kn, lo);
    return f;
}

/* 002:35: sword 2d6 = 6 less Physical Resistance 2; the flame's 1d6 and
 * the mage's spell power 1d6 = 8 less Magic Resistance 3 (warded mail
 * protects both); one hit, one point of Pain (002:37). */
Test(winter_enchant, physical_and_magical_each_against_its_resistance_002_35) {
    fray_setup *s = sw_t_load(ENCHANT);
    fray_fight *f = flame_fight(s);
    sw_state *st = sw_t_st(f);
    int kn = sw_t_who(f, "knight"), ma = sw_t_who(f, "mage");
    cr_assert_eq(st->c[ma].n_maint, 1, "Maintained (002:73)");
    sw_t_do(f, "lothaire attack knight", (int[]){20, 1, 3, 3, 4, 4}, 6);
    cr_assert_eq(st->c[kn].health, 30 - (6 - 2) - (8 - 3));
    cr_assert_eq(st->c[kn].pain, 5 - 1, "one hit, one point of Pain");
    char buf[4096];
    sw_t_told(f, buf, sizeof buf);
    cr_assert(strstr(buf, "Warded Knight takes 5 Magical damage from the enchantment (8 rolled"),
              "%s", buf);
    /* released (002:73): the sword's Physical damage alone */
    sw_t_do(f, "mage release flame-blade", NULL, 0);
    sw_t_ready(f, sw_t_who(f, "lothaire"), kn);
    sw_t_do(f, "lothaire attack knight", (int[]){20, 1, 3, 3}, 4);
    cr_assert_eq(st->c[kn].health, 21 - 4);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The chances at the table (issue 19) count the Magical part: the expected
 * Health lost is P(hit) * (E[2d6 - 2 at least 0] + E[2d6 - 3 at least 0]). */
Test(winter_enchant, chances_count_both_parts) {
    fray_setup *s = sw_t_load(ENCHANT);
    fray_fight *f = flame_fight(s);
    fray_chances *c = malloc(sizeof *c);
    cr_assert_not_null(c);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_action_chances(f, sw_t_who(f, "lothaire"), "attack knight", c, &d),
                 FRAY_OK, "%s", d.message);
    int wins = 0; /* d20 + 6 against d20 + 3 + 2 */
    for (int x = 1; x <= 20; x++)
        for (int y = 1; y <= 20; y++)
            wins += x + 6 > y + 5;
    double e = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++)
            e += ((a + b > 2 ? a + b - 2 : 0) + (a + b > 3 ? a + b - 3 : 0)) / 36.0;
    cr_assert_float_eq(c->outcomes[1].share, wins / 400.0, 1e-12, "the hit");
    cr_assert_float_eq(c->expected[0], wins / 400.0 * e, 1e-9, "%f", c->expected[0]);
    cr_assert(strstr(c->modifiers, "flame-blade: Magical damage 2d6+0 against Magic Resistance"),
              "%s", c->modifiers);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The tactics lay the flame on an ally's weapon, its hits deal Magical
 * damage, and each journal reads back to the same fight. */
Test(winter_enchant, tactics_and_journal) {
    fray_setup *s = sw_t_load(ENCHANT);
    int magical = sw_t_count_in_plays(s, 10, "\"magical\":true");
    cr_assert_geq(magical, 5, "%d enchanted hits in 10 fights", magical);
    fray_setup_free(s);
}

/* fray check: an enchant spell is Maintained, and personal or beneficial,
 * each at its line and column. */
Test(winter_enchant, spell_file_errors) {
    static const struct { const char *file; const char *words; } bad[] = {
        {"tests/data/winter/bad_enchant.yaml", "lasts while Maintained"},
        {"tests/data/winter/bad_enchant_kind.yaml", "personal or beneficial"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        sw_t_refused_file(bad[i].file, 5, bad[i].words);
}
