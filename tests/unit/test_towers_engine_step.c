/*
 * test_towers_engine_step.c - the engine's step in a crowd held to the
 * long way (issue 16, "This round: the crowd's engine step" in
 * docs/architecture.md).
 *
 * - The walk's look (attack.c ft_walk_look_at) measures only those whose
 *   places are near enough the target's to reach it (its reach plus the
 *   wider footprint's side less one, across or along): at every space
 *   round the next actor, for everyone else, the look is ft_threatens
 *   with the target standing there (seed 000 "Threatened Areas"), among
 *   footprints of one to three spaces and reaches of 1 and 2.
 * - A walk of a prepared setup (the look, the mask of who may react) and
 *   of one not prepared (ft_threatens asked of each in turn) side by
 *   side: the same states byte for byte, cards and choices, to the end
 *   of every fight (seed 000:175-183, opportunity attacks as one leaves a
 *   threatened space).
 * - A walk asks first whether the mover holds anyone in a grapple (four at
 *   a time): the one held is let go when the grappler ends its move away
 *   from it (seed 000 "Grappling"), whatever the held one's index.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "towers_fixture.h"
#include "towers_int.h"

/* A run reading state st of setup s (no caches). */
static ft_run run_on(const ft_setup *s, ft_state *st) {
    ft_run r;
    ft_run_clear(&r);
    r.setup = s;
    r.st = st;
    return r;
}

/* After every step of `trials` fights of s: the next actor as the target
 * at every space within 6 of where it stands, everyone else looked at.
 * Counts the looks compared, the threats found and those ruled out by
 * the places alone. */
static void look_same(fray_towers_setup *s, int trials, long *looks,
                      long *threats, long *ruled_out) {
    fray_towers_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fray_towers_fight *f = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 0, &fo, NULL, &f), FRAY_OK);
    const ft_setup *setup = &f->setup->s;
    ft_state *moved = malloc(sizeof *moved);
    cr_assert_not_null(moved);
    for (int trial = 0; trial < trials; trial++) {
        cr_assert_eq(fray_towers_fight_reset_trial(f, 16, (uint64_t)trial), FRAY_OK);
        for (int step = 0; step < 5000 && !fray_towers_fight_over(f); step++) {
            ft_state *st = &f->st;
            int t = ft_next_actor(st);
            if (t >= 0 && t < st->n && st->n <= 32) {
                ft_run r = run_on(setup, st);
                ft_walk_look look;
                ft_walk_look_init(&r, ~0u, t, &look);
                *moved = *st;
                ft_run rm = run_on(setup, moved);
                fray_pos at0 = st->c[t].pos;
                for (int dy = -6; dy <= 6; dy++)
                    for (int dx = -6; dx <= 6; dx++) {
                        fray_pos at = {(int16_t)(at0.x + dx), (int16_t)(at0.y + dy)};
                        if (!fray_grid_in(&setup->map, at))
                            continue;
                        uint32_t got = ft_walk_look_at(&r, &look, at);
                        moved->c[t].pos = at;
                        uint32_t want = 0;
                        for (int e = 0; e < st->n; e++)
                            if (ft_threatens(&rm, e, t))
                                want |= 1u << e;
                        cr_assert_eq(got, want,
                                     "trial %d, step %d: who threatens %d at "
                                     "(%d,%d): the look %#x, ft_threatens %#x",
                                     trial, step, t, at.x, at.y, got, want);
                        (*looks)++;
                        for (int e = 0; e < st->n; e++) {
                            if (!((look.who >> e) & 1u))
                                continue;
                            int ax = look.at_x[e] - at.x, ay = look.at_y[e] - at.y;
                            ax = ax < 0 ? -ax : ax;
                            ay = ay < 0 ? -ay : ay;
                            *ruled_out += (ax > ay ? ax : ay) > look.lim[e];
                        }
                        *threats += __builtin_popcount(want);
                    }
                moved->c[t].pos = at0;
            }
            cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
        }
        cr_assert(fray_towers_fight_over(f), "trial %d ends", trial);
    }
    free(moved);
    fray_towers_fight_free(f);
}

/* Seed 000 "Threatened Areas" (a Spear's reach of 2; Large and Huge
 * footprints, wide_crowd.yaml) in the wide crowd and the bench's 16v16. */
Test(towers_engine_step, walk_look_same_as_threatens, .timeout = 600) {
    long looks = 0, threats = 0, ruled_out = 0;
    fray_towers_setup *s = tf_load_data("wide_crowd.yaml");
    look_same(s, 10, &looks, &threats, &ruled_out);
    fray_towers_setup_free(s);
    s = tf_load_data("column_crowd_16.yaml");
    look_same(s, 1, &looks, &threats, &ruled_out);
    fray_towers_setup_free(s);
    cr_log_info("%ld looks, %ld threats, %ld ruled out by the places", looks,
                threats, ruled_out);
    cr_expect_gt(threats, 1000, "threats are found (%ld)", threats);
    cr_expect_gt(ruled_out, looks, "the places rule many out (%ld in %ld "
                 "looks)", ruled_out, looks);
}

/* The same fight with the setup as loaded and with a copy not prepared
 * (eng.ready false: every walk the long way), after every step the same
 * states, cards and choices. Returns the opportunity attacks offered in
 * moves. */
static long walks_side_by_side(const char *file, int trials) {
    fray_towers_setup *sa = tf_load_data(file);
    fray_towers_setup *sb = tf_load_data(file);
    cr_assert(sa->s.eng.ready && sb->s.eng.ready, "loaded setups are prepared");
    sb->s.eng.ready = false;
    fray_towers_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fray_towers_fight *a = NULL, *b = NULL;
    cr_assert_eq(fray_towers_fight_new(sa, 0, &fo, NULL, &a), FRAY_OK);
    cr_assert_eq(fray_towers_fight_new(sb, 0, &fo, NULL, &b), FRAY_OK);
    long offered = 0;
    for (int trial = 0; trial < trials; trial++) {
        cr_assert_eq(fray_towers_fight_reset_trial(a, 16, (uint64_t)trial), FRAY_OK);
        cr_assert_eq(fray_towers_fight_reset_trial(b, 16, (uint64_t)trial), FRAY_OK);
        for (int step = 0; step < 5000 && !fray_towers_fight_over(a); step++) {
            cr_assert_eq(fray_towers_fight_step(a), FRAY_OK);
            cr_assert_eq(fray_towers_fight_step(b), FRAY_OK);
            int act = a->scratch.cmd.action;
            if (act == FT_ACT_MOVE || act == FT_ACT_CHARGE)
                for (int k = 0; k < a->scratch.n_choices; k++)
                    offered += a->scratch.choices[k].kind == FT_CHOICE_OPPORTUNITY;
            cr_assert(memcmp(&a->st, &b->st, sizeof a->st) == 0,
                      "%s trial %d, step %d: the states differ", file, trial,
                      step);
            const ft_event *ea = &a->scratch, *eb = &b->scratch;
            cr_assert(ea->n_cards == eb->n_cards &&
                          memcmp(ea->cards, eb->cards, (size_t)ea->n_cards) == 0 &&
                          ea->n_choices == eb->n_choices &&
                          memcmp(ea->choices, eb->choices,
                                 (size_t)ea->n_choices * sizeof ea->choices[0]) == 0,
                      "%s trial %d, step %d: the cards or choices differ",
                      file, trial, step);
        }
        cr_assert(fray_towers_fight_over(a) && fray_towers_fight_over(b),
                  "%s trial %d ends both ways", file, trial);
    }
    fray_towers_fight_free(a);
    fray_towers_fight_free(b);
    fray_towers_setup_free(sa);
    fray_towers_setup_free(sb);
    return offered;
}

/* Seed 000:175-183 in the wide crowd (reaches of 2, wide footprints) and
 * the bench's 16v16. */
Test(towers_engine_step, walks_same_as_the_long_way, .timeout = 600) {
    long ow = walks_side_by_side("wide_crowd.yaml", 30);
    long oc = walks_side_by_side("column_crowd_16.yaml", 3);
    cr_log_info("opportunity attacks offered in moves: wide %ld, 16v16 %ld",
                ow, oc);
    cr_expect_gt(ow + oc, 20, "walks met opportunity attacks (%ld, %ld)", ow,
                 oc);
}

/* Seed 000 "Grappling": "a grappler who moves away from his victim lets
 * go". In the 6v6 melee crowd, each combatant in turn is held (grappled_by
 * alone, set by hand) by the next actor before each step, until a step is
 * that actor's move: ending more than a space away from the held one, it
 * has let go, else it still holds. Counted by the held one's index
 * modulo 4 (the look is four at a time). */
Test(towers_engine_step, grappler_moving_away_lets_go) {
    fray_towers_setup *s = tf_load_data("melee_crowd.yaml");
    fray_towers_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fray_towers_fight *f = NULL;
    cr_assert_eq(fray_towers_fight_new(s, 0, &fo, NULL, &f), FRAY_OK);
    const ft_setup *setup = &f->setup->s;
    long let_go[4] = {0}, kept = 0;
    for (int trial = 0; trial < 30; trial++) {
        cr_assert_eq(fray_towers_fight_reset_trial(f, 16, (uint64_t)trial), FRAY_OK);
        int n = f->st.n;
        for (int v = 0; v < n; v++) {
            cr_assert_eq(fray_towers_fight_reset_trial(f, 16, (uint64_t)trial), FRAY_OK);
            for (int step = 0; step < 300 && !fray_towers_fight_over(f); step++) {
                int a = ft_next_actor(&f->st);
                bool hold = a >= 0 && a != v && a < n;
                if (hold)
                    f->st.c[v].grappled_by = (int8_t)a;
                cr_assert_eq(fray_towers_fight_step(f), FRAY_OK);
                int act = f->scratch.cmd.action;
                if (!hold)
                    continue;
                if (f->scratch.cmd.actor != a ||
                    (act != FT_ACT_MOVE && act != FT_ACT_CHARGE)) {
                    /* not a move: held no longer (by hand, as set) */
                    f->st.c[v].grappled_by = -1;
                    continue;
                }
                bool near = fray_grid_within(ft_footprint(setup, &f->st, a),
                                             ft_footprint(setup, &f->st, v), 1);
                if (near) {
                    cr_expect_eq(f->st.c[v].grappled_by, a,
                                 "trial %d: %d still next to %d: still held",
                                 trial, v, a);
                    kept++;
                } else {
                    cr_expect_eq(f->st.c[v].grappled_by, -1,
                                 "trial %d: %d moved away from %d, who is "
                                 "let go", trial, a, v);
                    let_go[v % 4]++;
                }
                break;
            }
        }
    }
    cr_log_info("let go %ld, %ld, %ld, %ld (index mod 4); still held %ld",
                let_go[0], let_go[1], let_go[2], let_go[3], kept);
    for (int k = 0; k < 4; k++)
        cr_expect_gt(let_go[k], 0, "some held at an index %d mod 4 let go", k);
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}
