/*
 * test_chances_alloy_trip.c - issue 19, the chances of an Alloy trip
 * (004:735: the unarmed attack against Reflex; a hit knocks the target
 * prone) and grapple (004:611: the unarmed attack with Strength against
 * Reflex; a hit grabs it): equal to `fray odds roll d20+B --attack --vs
 * D` (fray_odds_d20_attack) for the statblocks' numbers; the trip played
 * many times through the ordinary fight API with the dice drawn knocks
 * Lyra prone as often as the chances say; a feint (004:307, skills.c:
 * d20 + Bluff against the target's Will, no natural 1 or 20) equal to
 * `fray odds roll d20+5 --vs 12` and played many times; a disarm
 * (004:440: the basic attack against Fortitude) likewise; refusals in
 * rules words.
 */
#include <stdlib.h>

#include "chances_fixture.h"
#include "fray/dice.h"
#include "fray/duel.h"
#include "fray/view.h"

#define DUEL FRAY_SOURCE_DIR "/examples/alloy/duel.yaml"

/* Vance first (13 + 2 against 8 + 3), Lyra first (8 + 3 against 13 + 2). */
static const int vance_first[2] = {13, 8}, lyra_first[2] = {8, 13};

/* examples/alloy/statblocks.yaml: the Mercenary (Vance) Str 14 (+2),
 * attack 3, Reflex 15; the Duelist (Lyra) Str 12 (+1), Dex 16, attack 3,
 * Reflex 16. An unarmed strike has no proficiency bonus. Vance's trip
 * and grapple: d20+5 against 16; Lyra's on Vance (before her turn, as if
 * it came now): d20+4 against 15, her Dexterity not counted. */
Test(chances_alloy_trip, trip_and_grapple_equal_fray_odds_roll_attack) {
    fray_setup *s = cf_load(DUEL);
    fray_fight *f = cf_given(s, 1, vance_first, 2);
    int v = cf_who(f, "vance"), l = cf_who(f, "lyra");
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    fray_diag d;
    static const struct {
        const char *command, *success;
        int actor_is_lyra, bonus, defense;
    } cases[] = {
        {"trip lyra", "knocked prone", 0, 5, 16},
        {"grapple lyra", "grabbed", 0, 5, 16},
        {"trip vance", "knocked prone", 1, 4, 15},
        {"grapple vance", "grabbed", 1, 4, 15},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int who = cases[i].actor_is_lyra ? l : v;
        cr_assert_eq(fray_action_chances(f, who, cases[i].command, c, &d),
                     FRAY_OK, "%s: %s", cases[i].command, d.message);
        fray_ratio hit = cf_odds_hit(cases[i].bonus, cases[i].defense);
        cr_expect(fray_ratio_equal(
                      cf_outcome(c->outcomes, c->n_outcomes, cases[i].success)->p,
                      hit),
                  "%s", cases[i].command);
        cr_expect(fray_ratio_equal(cf_outcome(c->outcomes, c->n_outcomes, "fails")->p,
                                   fray_ratio_one_minus(hit)));
        cr_expect_eq(c->n_damage, 1);
        cr_expect_eq(c->damage[0].amount[0], 0, "no damage");
        cr_expect(c->p_drop < 0, "not an attack: not ranked");
    }
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Vance's trip played N times through fray_fight_command, seeds 1000..:
 * Lyra prone after it as often as the chances say (4.5 standard errors). */
Test(chances_alloy_trip, monte_carlo_of_the_trip_through_the_fight_api) {
    fray_setup *s = cf_load(DUEL);
    fray_fight *f = cf_given(s, 1, vance_first, 2);
    int v = cf_who(f, "vance"), l = cf_who(f, "lyra");
    fray_chances c;
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, v, "trip lyra", &c, &d), FRAY_OK, "%s",
                 d.message);
    double p = cf_outcome(c.outcomes, c.n_outcomes, "knocked prone")->share;
    fray_fight_free(f);
    enum { N = 4000 };
    int prone = 0;
    for (int i = 0; i < N; i++) {
        fray_fight *g = cf_given(s, 1000 + (uint64_t)i, vance_first, 2);
        cr_assert(!cf_has_condition(g, l, "prone"));
        cf_command(g, "vance trip lyra");
        prone += cf_has_condition(g, l, "prone");
        fray_fight_free(g);
    }
    double share = (double)prone / N, tol = cf_tolerance(p, N);
    cr_expect(fabs(share - p) <= tol, "prone after %.4f of %d trips, the "
              "chances say %.4f (tolerance %.4f)", share, N, p, tol);
    fray_setup_free(s);
}

/* A disarm (004:440): Vance's basic attack, his pistol (Dex 14: +2,
 * attack 3, proficiency +2), against Lyra's Fortitude 13: d20+7 at least
 * 13 (`fray odds roll d20+7 --attack --vs 13`), no damage; played N times
 * through the fight API, Lyra holds no weapon after it as often. */
Test(chances_alloy_trip, disarm_equals_fray_odds_roll_and_the_fight_api) {
    fray_setup *s = cf_load(DUEL);
    fray_fight *f = cf_given(s, 1, vance_first, 2);
    int v = cf_who(f, "vance"), l = cf_who(f, "lyra");
    fray_chances c;
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, v, "disarm lyra", &c, &d), FRAY_OK, "%s",
                 d.message);
    fray_ratio hit = cf_odds_hit(7, 13);
    const fray_chance_outcome *ok = cf_outcome(c.outcomes, c.n_outcomes, "disarmed");
    cr_expect(fray_ratio_equal(ok->p, hit), "%f", ok->share);
    cr_expect_eq(c.n_damage, 1);
    cr_expect_eq(c.damage[0].amount[0], 0, "no damage");
    cr_expect(c.p_drop < 0, "not an attack: not ranked");
    double p = ok->share;
    fray_fight_free(f);
    enum { N = 4000 };
    int bare = 0;
    for (int i = 0; i < N; i++) {
        fray_fight *g = cf_given(s, 1000 + (uint64_t)i, vance_first, 2);
        cf_command(g, "vance disarm lyra");
        fray_fight_view *vw = NULL;
        cr_assert_eq(fray_fight_view_new(g, NULL, &vw), FRAY_OK);
        bare += cf_view_of(vw, l)->n_weapons == 0;
        fray_fight_view_free(vw);
        fray_fight_free(g);
    }
    double share = (double)bare / N, tol = cf_tolerance(p, N);
    cr_expect(fabs(share - p) <= tol, "disarmed after %.4f of %d tries, the "
              "chances say %.4f (tolerance %.4f)", share, N, p, tol);
    fray_setup_free(s);
}

/* A trip of someone out of reach, a bull rush on someone not adjacent:
 * refused in words. */
Test(chances_alloy_trip, refusals) {
    fray_setup *s = cf_load(FRAY_SOURCE_DIR "/tests/data/alloy/charge_yard.yaml");
    fray_fight *f = cf_start(s, 1);
    cf_command(f, "next");
    int v = cf_who(f, "vance");
    fray_chances c;
    fray_diag d;
    cr_expect_eq(fray_action_chances(f, v, "trip lyra", &c, &d), FRAY_ERR_INVALID);
    cr_expect(d.message[0] != '\0');
    cr_expect_eq(fray_action_chances(f, v, "bull-rush lyra", &c, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "not adjacent") != NULL, "%s", d.message);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Lyra (Bluff 5) feints at Vance (Will 12): d20+5 at least 12, 14/20 =
 * 7/10 (`fray odds roll d20+5 --vs 12`); played N times through the fight
 * API, Lyra has the feint's battle superiority as often. */
Test(chances_alloy_trip, feint_equals_fray_odds_roll_and_the_fight_api) {
    fray_setup *s = cf_load(DUEL);
    fray_fight *f = cf_given(s, 1, lyra_first, 2);
    int v = cf_who(f, "vance"), l = cf_who(f, "lyra");
    fray_chances c;
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, l, "feint vance", &c, &d), FRAY_OK,
                 "%s", d.message);
    fray_dice *dd = NULL;
    cr_assert_eq(fray_dice_parse("d20+5", NULL, NULL, &dd, &d), FRAY_OK);
    fray_dist D;
    cr_assert_eq(fray_dice_dist(dd, 0, NULL, &D), FRAY_OK);
    fray_ratio want = fray_dist_at_least(&D, 12);
    fray_dist_free(&D);
    fray_dice_free(dd);
    const fray_chance_outcome *ok = cf_outcome(c.outcomes, c.n_outcomes, "succeeds");
    cr_expect(fray_ratio_equal(ok->p, want));
    cr_expect(fabs(ok->share - 0.7) < 1e-12, "%.4f", ok->share);
    cr_expect(c.p_drop < 0);
    /* Vance's feint before his turn: Bluff not listed, his Charisma's
     * modifier (Cha 8: -1), against Will 14 */
    fray_chances cv;
    cr_assert_eq(fray_action_chances(f, v, "feint lyra", &cv, &d), FRAY_OK,
                 "%s", d.message);
    cr_expect(fabs(cf_outcome(cv.outcomes, cv.n_outcomes, "succeeds")->share -
                   0.3) < 1e-12, "d20-1 at least 14: 6/20");
    fray_fight_free(f);
    enum { N = 4000 };
    int feinted = 0;
    for (int i = 0; i < N; i++) {
        fray_fight *g = cf_given(s, 1000 + (uint64_t)i, lyra_first, 2);
        cf_command(g, "lyra feint vance");
        feinted += cf_has_condition(g, l, "feint");
        fray_fight_free(g);
    }
    double share = (double)feinted / N, tol = cf_tolerance(ok->share, N);
    cr_expect(fabs(share - ok->share) <= tol, "a feint's battle superiority "
              "after %.4f of %d feints, the chances say %.4f (tolerance %.4f)",
              share, N, ok->share, tol);
    fray_setup_free(s);
}
