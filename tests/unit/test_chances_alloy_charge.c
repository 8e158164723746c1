/*
 * test_chances_alloy_charge.c - issue 19, the chances of an Alloy Charge
 * (seed 004:523-525: a move, then a melee basic attack at +1 from where
 * the move ends): equal to `fray odds roll d20+B --attack --vs D --damage
 * X` (fray_odds_d20_attack) for the attack line and modifiers attack.c
 * gives from the end square with the charge's +1 (fa_attack_line_of,
 * fa_attack_mods); the charge played many times through the ordinary
 * fight API with the dice drawn deals each amount as often as the chances
 * say; `odds ID` ranks a Charge; a charge the rules refuse is refused in
 * their words.
 */
#include <stdlib.h>

#include "chances_fixture.h"
#include "fray/dice.h"
#include "fray/duel.h"
#include "fray/view.h"

#define YARD FRAY_SOURCE_DIR "/tests/data/alloy/charge_yard.yaml"
#define CHARGE "charge lyra 5,1"
#define DUEL FRAY_SOURCE_DIR "/examples/alloy/duel.yaml"

/* Vance first (13 + 2 against 8 + 3). */
static const int vance_first[2] = {13, 8};

/* 004:525: the charge's attack is the melee basic attack at +1 from the
 * square it ends on. The encounter odds' line (fray_alloy_attack_from:
 * bonus, defense, damage) with one more to hit, counted by
 * fray_odds_d20_attack (`fray odds roll d20+B+1 --attack --vs D --damage
 * X`), gives the same fractions; and the same attack after a walk to that
 * square (no charge) misses exactly 1/20 more often. */
Test(chances_alloy_charge, equal_fray_odds_roll_attack_from_the_end_square) {
    fray_setup *s = cf_load(YARD);
    fray_fight *f = cf_given(s, 1, vance_first, 2);
    int a = cf_who(f, "vance"), t = cf_who(f, "lyra");
    fray_chances *c = malloc(sizeof *c), *walked = malloc(sizeof *walked);
    cr_assert(c && walked);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, a, CHARGE, c, &d), FRAY_OK, "%s",
                 d.message);
    cr_expect(strstr(c->title, "Charge to 5,1") != NULL, "%s", c->title);
    cr_expect(strstr(c->modifiers, "+1") != NULL, "%s", c->modifiers);
    cr_expect(strstr(c->assumed, "where the charge ends") != NULL, "%s",
              c->assumed);
    /* the same two, toe to toe on open ground (examples/alloy/duel.yaml) */
    fray_setup *duel = cf_load(DUEL);
    fray_alloy_enc_attack e;
    cr_assert_eq(fray_alloy_attack_from(fray_setup_ruleset_data(duel), a, t, -1,
                                        &e, &d),
                 FRAY_OK, "%s", d.message);
    fray_setup_free(duel);
    fray_dice *dmg = NULL, *crit = NULL;
    cr_assert_eq(fray_dice_parse(e.damage, NULL, NULL, &dmg, &d), FRAY_OK);
    if (e.crit_dice[0])
        cr_assert_eq(fray_dice_parse(e.crit_dice, NULL, NULL, &crit, &d), FRAY_OK);
    fray_d20_attack_query q = {.bonus = e.bonus + 1, .defense = e.defense,
                               .crit_min = e.crit_min, .damage = dmg,
                               .crit_dice = crit};
    fray_d20_attack_odds ao;
    cr_assert_eq(fray_odds_d20_attack(&q, NULL, &ao), FRAY_OK);
    cr_expect(fray_ratio_equal(cf_outcome(c->outcomes, c->n_outcomes, "miss")->p,
                               fray_ratio_one_minus(ao.p_hit)));
    cr_expect(fray_ratio_equal(
        cf_outcome(c->outcomes, c->n_outcomes, "critical")->p, ao.p_crit));
    double total = 0;
    for (int i = 0; i < c->n_damage; i++) {
        total += c->damage[i].share;
        cr_expect(fray_ratio_equal(c->damage[i].p,
                                   fray_dist_eq(&ao.damage, c->damage[i].amount[0])));
    }
    cr_expect(fabs(total - 1) < 1e-12);
    /* a walk to 5,1, then the attack: no +1 */
    cf_command(f, "vance walk 5,1");
    cr_assert_eq(fray_action_chances(f, a, "attack lyra", walked, &d), FRAY_OK,
                 "%s", d.message);
    double more = cf_outcome(walked->outcomes, walked->n_outcomes, "miss")->share -
                  cf_outcome(c->outcomes, c->n_outcomes, "miss")->share;
    cr_expect(fabs(more - 0.05) < 1e-12, "the charge's +1 is 1/20: %.4f", more);
    fray_d20_attack_odds_free(&ao);
    fray_dice_free(dmg);
    fray_dice_free(crit);
    free(walked);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The charge played N times from Vance's turn through fray_fight_command
 * with the dice drawn from seeds 1000..: the damage Lyra takes, amount by
 * amount, within 4.5 standard errors of the chances. */
Test(chances_alloy_charge, monte_carlo_of_the_charge_through_the_fight_api) {
    fray_setup *s = cf_load(YARD);
    fray_fight *f = cf_given(s, 1, vance_first, 2);
    int a = cf_who(f, "vance"), t = cf_who(f, "lyra");
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, a, CHARGE, c, &d), FRAY_OK, "%s",
                 d.message);
    int hp0 = cf_hp_of(f, t);
    fray_fight_free(f);
    enum { N = 4000 };
    int counts[FRAY_CHANCES_DAMAGE] = {0};
    for (int i = 0; i < N; i++) {
        fray_fight *g = cf_given(s, 1000 + (uint64_t)i, vance_first, 2);
        cf_command(g, "vance " CHARGE);
        int dealt = hp0 - cf_hp_of(g, t);
        int k = 0;
        while (k < c->n_damage && c->damage[k].amount[0] != dealt)
            k++;
        cr_assert(k < c->n_damage, "trial %d dealt %d, not listed", i, dealt);
        counts[k]++;
        fray_fight_free(g);
    }
    for (int k = 0; k < c->n_damage; k++) {
        double p = c->damage[k].share, share = (double)counts[k] / N;
        double tol = cf_tolerance(p, N);
        cr_expect(fabs(share - p) <= tol, "%d HP: %.4f of %d charges, the "
                  "chances say %.4f (tolerance %.4f)", c->damage[k].amount[0],
                  share, N, p, tol);
    }
    free(c);
    fray_setup_free(s);
}

/* `odds vance`: the basic attack is out of reach, the charge is ranked,
 * to a square next to Lyra nearest Vance (x 5). When it is not Vance's
 * turn the charge is counted as if it came now; a charge too short (004:
 * 523: at least 10 feet) is refused in words; one ending in a bull rush is
 * counted (test_chances_alloy_moves.c holds its numbers). */
Test(chances_alloy_charge, ranked_and_refusals) {
    fray_setup *s = cf_load(YARD);
    fray_fight *f = cf_given(s, 1, vance_first, 2);
    int a = cf_who(f, "vance"), t = cf_who(f, "lyra");
    fray_chances_list l;
    fray_diag d;
    cr_assert_eq(fray_chances_all(f, a, NULL, &l, &d), FRAY_OK, "%s", d.message);
    cr_assert_eq(l.n, 1, "the basic attack is out of reach: %d", l.n);
    cr_expect(strncmp(l.items[0].command, "charge lyra 5,", 14) == 0, "%s",
              l.items[0].command);
    cr_expect(l.items[0].p_drop >= 0);
    fray_chances_list_free(&l);
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    cr_expect_eq(fray_action_chances(f, a, "charge lyra 2,1", c, &d),
                 FRAY_ERR_INVALID);
    cr_expect_eq(fray_action_chances(f, a, CHARGE " bull-rush", c, &d),
                 FRAY_OK, "%s", d.message);
    cr_expect(strstr(c->title, "bull rush") != NULL, "%s", c->title);
    /* Lyra's chances of a charge on Vance, before her turn */
    cr_expect_eq(fray_action_chances(f, t, "charge vance 2,1", c, &d), FRAY_OK,
                 "%s", d.message);
    cr_expect_eq(fray_action_chances(f, t, "charge vance 3,1", c, &d),
                 FRAY_ERR_INVALID, "not adjacent to Vance");
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}
