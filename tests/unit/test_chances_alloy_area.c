/*
 * test_chances_alloy_area.c - issue 19, Alloy's attack powers beyond the
 * basic attack (seed 004 "Areas": an area burst makes an attack roll
 * against each creature in it and one damage roll for all, 004:100, 111;
 * a critical deals the dice's most, L7.14): each creature caught has the
 * chances `fray odds roll d20+B --attack --vs D --damage X` gives for its
 * own roll (fray_odds_d20_attack), the modifiers named; the grenade
 * thrown many times through the ordinary fight API with the dice drawn
 * drops as many as often as the joint count says and deals each amount
 * to one caught as the chances say; `odds ID` ranks the powers.
 */
#include <stdlib.h>

#include "alloy_int.h"
#include "chances_fixture.h"
#include "fray/dice.h"
#include "fray/view.h"
#include "layer.h"

#define EX FRAY_SOURCE_DIR "/examples/alloy/"

/* The skirmish with initiative by hand: Sgt. Oduya (the trooper) first,
 * the round begun. */
static fray_fight *oduya_to_act(const fray_setup *s, uint64_t seed) {
    static const int init[9] = {10, 20, 9, 8, 7, 6, 5, 4, 3};
    fray_given g;
    memset(&g, 0, sizeof g);
    g.dice = init;
    g.n_dice = 9;
    fray_fight *f = NULL;
    fray_fight_options o = {.journal = true};
    cr_assert_eq(fray_fight_new(s, seed, &o, &g, NULL, &f), FRAY_OK);
    cf_command(f, "next");
    return f;
}

static void hps(const fray_fight *f, int *hp, int n) {
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    for (int k = 0; k < v->n_combatants; k++)
        if (v->combatants[k].index >= 0 && v->combatants[k].index < n)
            hp[v->combatants[k].index] = v->combatants[k].tracks[0].value;
    fray_fight_view_free(v);
}

#define GRENADE "attack at 14,4 with grenade"

/* Each creature caught: its roll is fray_odds_d20_attack's for the
 * grenade's line (Dex vs Reflex, 4d6+2) against its Reflex. */
Test(chances_alloy_area, each_creature_equals_fray_odds_roll_attack) {
    fray_setup *s = cf_load(EX "skirmish.yaml");
    fray_fight *f = oduya_to_act(s, 1);
    int a = cf_who(f, "trooper");
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, a, GRENADE, c, &d), FRAY_OK, "%s",
                 d.message);
    cr_expect_eq(c->n_area, 5, "%d caught", c->n_area);
    cr_expect(strstr(c->assumed, "one damage roll for all") != NULL, "%s",
                c->assumed);
    const fa_setup *fs = fray_setup_ruleset_data(s);
    int p = -1;
    const fa_statblock *b = &fs->sb[fs->c[a].sb];
    for (int i = 0; i < b->n_powers; i++)
        if (strcmp(b->powers[i].name, "Grenade") == 0)
            p = i;
    cr_assert(p >= 0);
    fray_dice *dmg = NULL;
    cr_assert_eq(fray_dice_parse("4d6+2", NULL, NULL, &dmg, &d), FRAY_OK);
    for (int i = 0; i < c->n_area; i++) {
        const fray_chance_target *t = &c->area[i];
        cr_expect_str_eq(t->modifiers, "none");
        const fa_statblock *tb = &fs->sb[fs->c[t->target].sb];
        /* Sgt. Oduya: Dex 14 (+2) and the block's attack 2. */
        fray_d20_attack_query q = {.bonus = 4,
                                   .defense = tb->defense[FA_DEF_REFLEX],
                                   .crit_min = 20, .damage = dmg};
        fray_d20_attack_odds ao;
        cr_assert_eq(fray_odds_d20_attack(&q, NULL, &ao), FRAY_OK);
        cr_expect(fray_ratio_equal(cf_outcome(t->outcomes, 3, "miss")->p,
                                   fray_ratio_one_minus(ao.p_hit)));
        cr_expect(fray_ratio_equal(cf_outcome(t->outcomes, 3, "critical")->p,
                                   ao.p_crit));
        for (int k = 0; k < t->n_damage; k++)
            cr_expect(fray_ratio_equal(t->damage[k].p,
                                       fray_dist_eq(&ao.damage,
                                                    t->damage[k].amount[0])));
        fray_d20_attack_odds_free(&ao);
    }
    double sum = 0, mean = 0, each = 0;
    for (int k = 0; k <= c->n_area; k++) {
        sum += c->area_dropped[k];
        mean += k * c->area_dropped[k];
    }
    for (int i = 0; i < c->n_area; i++)
        each += c->area[i].p_drop;
    cr_expect(fabs(sum - 1) < 1e-12);
    cr_expect(fabs(mean - each) < 1e-12, "%.15f against %.15f", mean, each);
    fray_dice_free(dmg);

    /* Ranked: the grenade centred on a foe's square, among the powers
     * (Sgt. Oduya put within its range of the thugs by the GM). */
    cf_command(f, "gm place trooper 9,4");
    fray_chances_list l;
    cr_assert_eq(fray_chances_all(f, a, NULL, &l, &d), FRAY_OK, "%s", d.message);
    int grenades = 0;
    for (int i = 0; i < l.n; i++)
        grenades += strstr(l.items[i].command, "with grenade") != NULL;
    cr_expect(grenades >= 1, "no grenade among %d options", l.n);
    fray_chances_list_free(&l);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The grenade thrown N times through fray_fight_command, the dice drawn
 * from seeds 1000..: how many drop, and what Big Sal (32 hit points: none
 * of it cut off) takes, within 4.5 standard errors of the chances. */
Test(chances_alloy_area, monte_carlo_of_the_grenade_through_the_fight_api) {
    fray_setup *s = cf_load(EX "skirmish.yaml");
    fray_fight *f = oduya_to_act(s, 1);
    int a = cf_who(f, "trooper"), sal = cf_who(f, "boss");
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, a, GRENADE, c, &d), FRAY_OK, "%s",
                 d.message);
    int hp0[32];
    hps(f, hp0, 32);
    fray_fight_free(f);
    int js = -1;
    for (int i = 0; i < c->n_area; i++)
        if (c->area[i].target == sal)
            js = i;
    cr_assert(js >= 0, "Big Sal is in the area");
    const fray_chance_target *bs = &c->area[js];
    enum { N = 3000 };
    static int dropped[FRAY_CHANCES_AREA + 1], amounts[FRAY_CHANCES_AREA_DAMAGE];
    for (int i = 0; i < N; i++) {
        fray_fight *g = oduya_to_act(s, 1000 + (uint64_t)i);
        cr_assert_eq(fray_fight_command(g, "trooper " GRENADE, NULL, &d),
                     FRAY_OK, "%s", d.message);
        int hp[32];
        hps(g, hp, 32);
        int out = 0;
        for (int k = 0; k < c->n_area; k++)
            out += hp[c->area[k].target] <= 0;
        dropped[out]++;
        int dealt = hp0[sal] - hp[sal];
        int k = 0;
        while (k < bs->n_damage && bs->damage[k].amount[0] != dealt)
            k++;
        cr_assert(k < bs->n_damage, "Big Sal took %d, not listed", dealt);
        amounts[k]++;
        fray_fight_free(g);
    }
    for (int k = 0; k <= c->n_area; k++) {
        double p = c->area_dropped[k], share = (double)dropped[k] / N;
        cr_expect(fabs(share - p) <= cf_tolerance(p, N),
                  "%d out of the fight: %.4f of %d throws, the chances say "
                  "%.4f", k, share, N, p);
    }
    for (int k = 0; k < bs->n_damage; k++) {
        double p = bs->damage[k].share, share = (double)amounts[k] / N;
        cr_expect(fabs(share - p) <= cf_tolerance(p, N),
                  "Big Sal %d HP: %.4f of %d throws, the chances say %.4f",
                  bs->damage[k].amount[0], share, N, p);
    }
    free(c);
    fray_setup_free(s);
}

/* A power on several targets without an area (004:75): an attack and a
 * damage roll each, so each target's chances are those of the power on
 * it alone, and how many drop is the count of independent rolls. */
Test(chances_alloy_area, a_power_on_two_targets) {
    fray_setup *s = cf_load(EX "skirmish.yaml");
    fray_fight *f = oduya_to_act(s, 1);
    cf_command(f, "gm place merc 15,5");
    int a = cf_who(f, "merc");
    fray_chances *c = malloc(3 * sizeof *c);
    cr_assert(c);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, a, "attack thug-1 thug-2 with "
                                     "stunning-blow", &c[0], &d),
                 FRAY_OK, "%s", d.message);
    cr_assert_eq(fray_action_chances(f, a, "attack thug-1 with stunning-blow",
                                     &c[1], &d),
                 FRAY_OK, "%s", d.message);
    cr_assert_eq(fray_action_chances(f, a, "attack thug-2 with stunning-blow",
                                     &c[2], &d),
                 FRAY_OK, "%s", d.message);
    cr_assert_eq(c[0].n_area, 2);
    for (int i = 0; i < 2; i++) {
        const fray_chance_target *t = &c[0].area[i];
        const fray_chances *one = &c[1 + i];
        cr_expect_eq(t->target, one->target);
        for (int k = 0; k < 3; k++)
            cr_expect(fray_ratio_equal(t->outcomes[k].p, one->outcomes[k].p));
        cr_expect_eq(t->n_damage, one->n_damage);
        cr_expect(fabs(t->p_drop - one->p_drop) < 1e-15);
    }
    double p1 = c[1].p_drop, p2 = c[2].p_drop;
    cr_expect(fabs(c[0].area_dropped[2] - p1 * p2) < 1e-12);
    cr_expect(fabs(c[0].area_dropped[0] - (1 - p1) * (1 - p2)) < 1e-12);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}
