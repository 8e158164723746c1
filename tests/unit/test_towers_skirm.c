/*
 * test_towers_skirm.c - the skirmish's tactics cut short (issue 16,
 * docs/architecture.md "This round: the skirmish's tactics").
 *
 * Three shortcuts in the tactics (policy.c), each taken only in a prepared
 * setup (ft_setup.eng.ready; a setup not prepared goes the long way):
 *
 *  - step 4 ranks a target before asking its attack's modifiers, and asks
 *    none for a target ranked no better than the best so far (it could not
 *    be taken whatever they are);
 *  - step 5's search for a space to strike from, going one cost at a time,
 *    looks at each space once (only those costing the cost reached or
 *    more: the cheaper ones were looked at already and none could strike);
 *  - a shooter's firing positions are scored term by term and left as
 *    soon as the score cannot beat the best so far (the range and least
 *    cover terms before sight, the cover before the threat).
 *
 * None may change a choice: in the example skirmish (a rifle, a pistol and
 * a Bolt of Fire among swords, round walls, a window and a low wall), the
 * ambush and the duel, after every step of the fight every combatant still
 * able to act chooses the same command with the shortcuts as without. The
 * counts asserted show the cases the shortcuts serve occur there: shooters
 * moving (step 5's firing positions) and attacks chosen among two or more
 * enemies in range (step 4's ranking). Debug builds also check every use
 * against the long way (policy.c strike_space_from, strike_space_from's
 * firing scores).
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "towers_fixture.h"
#include "towers_int.h"

typedef struct counts {
    long choices;
    long shooter_moves; /* a shooter's Move or Charge */
    long attacks_among; /* an attack with two or more enemies standing */
} counts;

static bool shooter(const ft_setup *s, const ft_state *st, int c) {
    int wi = st->c[c].wielded[0];
    if (wi < 0 || wi >= s->c[c].sb.n_weapons)
        return false;
    const ft_weapon *w = &s->c[c].sb.weapons[wi];
    return w->spell || w->range_increment > 0 || w->max_range > 0;
}

/* Plays `trials` fights of s step by step; after every step every
 * combatant able to act chooses with the setup as prepared and with a
 * copy not prepared: the same command. */
static void same_choices(fray_towers_setup *s, int trials, counts *n) {
    fray_towers_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fray_towers_fight *f = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 0, &fo, NULL, &f), FRAY_OK);
    const ft_setup *ready = &f->setup->s;
    cr_assert(ready->eng.ready, "the loaded setup is prepared");
    ft_setup *plain = malloc(sizeof *plain);
    cr_assert_not_null(plain);
    memcpy(plain, ready, sizeof *plain);
    plain->eng.ready = false;
    for (int trial = 0; trial < trials; trial++) {
        cr_assert_eq(fray_towers_fight_reset_trial(f, 16, (uint64_t)trial), FRAY_OK);
        for (int step = 0; step < 5000 && !fray_towers_fight_over(f); step++) {
            const ft_state *st = &f->st;
            for (int c = 0; c < st->n; c++) {
                if (!ft_can_act(st, c))
                    continue;
                ft_command a, b;
                memset(&a, 0, sizeof a);
                memset(&b, 0, sizeof b);
                ft_policy_choose(ready, st, c, &a);
                ft_policy_choose(plain, st, c, &b);
                cr_assert(memcmp(&a, &b, sizeof a) == 0,
                          "trial %d, step %d, combatant %d: action %d (target %d) "
                          "to (%d,%d) with the shortcuts, %d (target %d) to "
                          "(%d,%d) without",
                          trial, step, c, a.action, a.target, a.dest.x, a.dest.y,
                          b.action, b.target, b.dest.x, b.dest.y);
                n->choices++;
                if ((a.action == FT_ACT_MOVE || a.action == FT_ACT_CHARGE) &&
                    shooter(ready, st, c))
                    n->shooter_moves++;
                if (a.action == FT_ACT_ATTACK || a.action == FT_ACT_CAST) {
                    int foes = 0;
                    for (int e = 0; e < st->n; e++)
                        foes += ready->c[e].side != ready->c[c].side &&
                                ft_can_act(st, e);
                    n->attacks_among += foes >= 2;
                }
            }
            cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
        }
        cr_assert(fray_towers_fight_over(f), "trial %d ends", trial);
    }
    free(plain);
    fray_towers_fight_free(f);
}

/* Issue 16: the example skirmish, 60 fights. */
Test(towers_skirm, skirmish_same_choices, .timeout = 600) {
    fray_towers_setup *s = tf_load_example("skirmish.yaml");
    counts n = {0, 0, 0};
    same_choices(s, 60, &n);
    cr_expect_gt(n.shooter_moves, 100, "%ld shooters' moves of %ld choices",
                 n.shooter_moves, n.choices);
    cr_expect_gt(n.attacks_among, 400, "%ld attacks among several of %ld choices",
                 n.attacks_among, n.choices);
    fray_towers_setup_free(s);
}

/* The example ambush (a shooter among melee fighters), 60 fights. */
Test(towers_skirm, ambush_same_choices, .timeout = 600) {
    fray_towers_setup *s = tf_load_example("ambush.yaml");
    counts n = {0, 0, 0};
    same_choices(s, 60, &n);
    cr_expect_gt(n.attacks_among, 500, "%ld attacks among several of %ld choices",
                 n.attacks_among, n.choices);
    fray_towers_setup_free(s);
}

/* The example duel (one target: nothing to skip, still the same), 60
 * fights. */
Test(towers_skirm, duel_same_choices, .timeout = 600) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    counts n = {0, 0, 0};
    same_choices(s, 60, &n);
    cr_expect_gt(n.choices, 1000, "%ld choices", n.choices);
    fray_towers_setup_free(s);
}
