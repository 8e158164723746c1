/*
 * test_chances_alloy.c - issue 19, "the chances of an action, exactly" for
 * Alloy (include/fray/chances.h): equal to `fray odds roll d20+B --attack
 * --vs D --damage X` (fray_odds_d20_attack) for the attack line and the
 * modifiers the encounter odds give (fray_alloy_attack_from); the attack
 * played from that state many times through the ordinary fight API, with
 * the dice drawn, deals each amount as often as the chances say (seed 004
 * "Critical Hits": a natural 20 that hits deals the dice's most); a
 * command whose chances are not counted is refused in rules words.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fray/chances.h"
#include "fray/dice.h"
#include "fray/duel.h"
#include "fray/fray.h"
#include "fray/view.h"

#define EX FRAY_SOURCE_DIR "/examples/alloy/"

static fray_setup *load(const char *path) {
    fray_setup *s = NULL;
    fray_diag d;
    fray_status rc = fray_setup_load(path, NULL, &s, &d);
    cr_assert_eq(rc, FRAY_OK, "%s: %s", path, d.message);
    return s;
}

/* The duel with initiative by hand (Vance 13, Lyra 8) and the round
 * begun: Vance's turn, the same state for every seed. */
static fray_fight *vance_to_act(const fray_setup *s, uint64_t seed) {
    static const int init[2] = {13, 8};
    fray_given g;
    memset(&g, 0, sizeof g);
    g.dice = init;
    g.n_dice = 2;
    fray_fight *f = NULL;
    fray_fight_options o = {.journal = true};
    cr_assert_eq(fray_fight_new(s, seed, &o, &g, NULL, &f), FRAY_OK);
    fray_diag d;
    cr_assert_eq(fray_fight_command(f, "next", NULL, &d), FRAY_OK, "%s", d.message);
    return f;
}

static int hp_of(const fray_fight *f, int who) {
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    int hp = -1;
    for (int k = 0; k < v->n_combatants; k++)
        if (v->combatants[k].index == who)
            hp = v->combatants[k].tracks[0].value;
    fray_fight_view_free(v);
    return hp;
}

Test(chances_alloy, equal_fray_odds_roll_attack_for_the_same_roll) {
    fray_setup *s = load(EX "duel.yaml");
    fray_fight *f = vance_to_act(s, 1);
    int a = fray_fight_combatant_index(f, "vance");
    int t = fray_fight_combatant_index(f, "lyra");
    cr_assert(a >= 0 && t >= 0);
    fray_alloy_enc_attack e;
    fray_diag d;
    cr_assert_eq(fray_alloy_attack_from(fray_setup_ruleset_data(s), a, t, -1,
                                        &e, &d),
                 FRAY_OK, "%s", d.message);
    fray_dice *dmg = NULL, *crit = NULL;
    cr_assert_eq(fray_dice_parse(e.damage, NULL, NULL, &dmg, &d), FRAY_OK);
    if (e.crit_dice[0])
        cr_assert_eq(fray_dice_parse(e.crit_dice, NULL, NULL, &crit, &d), FRAY_OK);
    fray_d20_attack_query q = {.bonus = e.bonus, .defense = e.defense,
                               .crit_min = e.crit_min, .damage = dmg,
                               .crit_dice = crit};
    fray_d20_attack_odds ao;
    cr_assert_eq(fray_odds_d20_attack(&q, NULL, &ao), FRAY_OK);
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    cr_assert_eq(fray_action_chances(f, a, "attack lyra", c, &d), FRAY_OK, "%s",
                 d.message);
    cr_assert_eq(c->n_outcomes, 3);
    cr_expect(fray_ratio_equal(c->outcomes[0].p, fray_ratio_one_minus(ao.p_hit)));
    cr_expect(fray_ratio_equal(c->outcomes[2].p, ao.p_crit));
    cr_expect_eq(c->n_tracks, 1);
    cr_expect_str_eq(c->tracks[0], "HP");
    double total = 0;
    for (int i = 0; i < c->n_damage; i++) {
        total += c->damage[i].share;
        cr_expect(fray_ratio_equal(c->damage[i].p,
                                   fray_dist_eq(&ao.damage, c->damage[i].amount[0])));
    }
    cr_expect(fabs(total - 1) < 1e-12);
    cr_expect(fabs(c->expected[0] - fray_ratio_to_double(ao.damage.mean)) < 1e-9);
    fray_d20_attack_odds_free(&ao);
    fray_dice_free(dmg);
    fray_dice_free(crit);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The attack played N times from Vance's turn, through fray_fight_command
 * with the dice drawn from seeds 1000..: the damage Lyra takes, amount by
 * amount, within 4.5 standard errors of what the chances say. */
Test(chances_alloy, monte_carlo_of_the_attack_through_the_fight_api) {
    fray_setup *s = load(EX "duel.yaml");
    fray_fight *f = vance_to_act(s, 1);
    int a = fray_fight_combatant_index(f, "vance");
    int t = fray_fight_combatant_index(f, "lyra");
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, a, "attack lyra", c, &d), FRAY_OK);
    int hp0 = hp_of(f, t);
    fray_fight_free(f);
    enum { N = 4000 };
    int counts[FRAY_CHANCES_DAMAGE] = {0};
    for (int i = 0; i < N; i++) {
        fray_fight *g = vance_to_act(s, 1000 + (uint64_t)i);
        cr_assert_eq(fray_fight_command(g, "vance attack lyra", NULL, &d),
                     FRAY_OK, "%s", d.message);
        int dealt = hp0 - hp_of(g, t);
        int k = 0;
        while (k < c->n_damage && c->damage[k].amount[0] != dealt)
            k++;
        cr_assert(k < c->n_damage, "trial %d dealt %d, not listed", i, dealt);
        counts[k]++;
        fray_fight_free(g);
    }
    for (int k = 0; k < c->n_damage; k++) {
        double p = c->damage[k].share, share = (double)counts[k] / N;
        double tol = 4.5 * sqrt(p * (1 - p) / N) + 1e-9;
        cr_expect(fabs(share - p) <= tol, "%d HP: %.4f of %d trials, the "
                  "chances say %.4f (tolerance %.4f)", c->damage[k].amount[0],
                  share, N, p, tol);
    }
    free(c);
    fray_setup_free(s);
}

Test(chances_alloy, options_ranked_and_refusals) {
    fray_setup *s = load(EX "skirmish.yaml");
    fray_fight *f = NULL;
    fray_fight_options o = {.journal = true};
    cr_assert_eq(fray_fight_new(s, 3, &o, NULL, NULL, &f), FRAY_OK);
    int a = fray_fight_combatant_index(f, "merc");
    fray_chances_list l;
    fray_diag d;
    cr_assert_eq(fray_chances_all(f, a, NULL, &l, &d), FRAY_OK, "%s", d.message);
    cr_expect(l.n >= 1);
    for (int i = 0; i < l.n; i++) {
        /* The attacks, powers and Charges odds ID ranks (Charges only
         * once the fight has begun and a charge is possible), by the
         * chance to drop; then what deals no damage (issue 19:
         * the merc's pistol may disarm at range), by its chance of
         * success. */
        const fray_chances *c = &l.items[i];
        if (c->p_drop < 0) {
            cr_expect(strncmp(c->command, "disarm ", 7) == 0, "ranked: %s",
                      c->command);
            cr_expect(c->p_success > 0 && c->p_success <= 1);
            cr_expect(i + 1 == l.n || l.items[i + 1].p_drop < 0,
                      "what deals no damage comes last");
            continue;
        }
        cr_expect(strncmp(c->command, "attack ", 7) == 0 ||
                      strncmp(c->command, "charge ", 7) == 0,
                  "ranked: %s", c->command);
        cr_expect(c->p_drop <= 1);
        cr_expect_eq(c->p_success, -1, "an attack is ranked by its damage");
        if (i)
            cr_expect(l.items[i - 1].p_drop >= c->p_drop);
    }
    fray_chances_list_free(&l);
    fray_chances c;
    cr_expect_eq(fray_action_chances(f, a, "walk 3,3", &c, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "Walk") != NULL, "%s", d.message);
    cr_expect_eq(fray_action_chances(f, a, "attack duelist", &c, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "ally") != NULL, "%s", d.message);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Seed 004 (attack.c "battle superiority"): a melee attack on a Prone
 * target is made at +2. Lyra drops prone on her turn; Vance's chances of
 * a miss fall by exactly 2/20 and the modifier is named. */
Test(chances_alloy, a_prone_target_changes_the_chances_as_the_rule_says) {
    fray_setup *s = load(EX "duel.yaml");
    static const int init[2] = {8, 13}; /* Lyra first */
    fray_given g;
    memset(&g, 0, sizeof g);
    g.dice = init;
    g.n_dice = 2;
    fray_fight *f = NULL;
    fray_fight_options o = {.journal = true};
    cr_assert_eq(fray_fight_new(s, 1, &o, &g, NULL, &f), FRAY_OK);
    int a = fray_fight_combatant_index(f, "vance");
    fray_diag d;
    fray_chances before, after;
    cr_assert_eq(fray_action_chances(f, a, "attack lyra", &before, &d), FRAY_OK,
                 "%s", d.message);
    cr_assert_eq(fray_fight_command(f, "next", NULL, &d), FRAY_OK, "%s", d.message);
    cr_assert_eq(fray_fight_command(f, "lyra drop-prone", NULL, &d), FRAY_OK,
                 "%s", d.message);
    cr_assert_eq(fray_action_chances(f, a, "attack lyra", &after, &d), FRAY_OK,
                 "%s", d.message);
    cr_expect(strstr(after.modifiers, "+2") != NULL, "%s", after.modifiers);
    cr_expect(strstr(before.modifiers, "+2") == NULL, "%s", before.modifiers);
    double drop = before.outcomes[0].share - after.outcomes[0].share;
    cr_expect(fabs(drop - 0.1) < 1e-12, "the miss fell by %.4f, not 2/20", drop);
    fray_fight_free(f);
    fray_setup_free(s);
}
