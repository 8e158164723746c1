/*
 * test_alloy_reach_kept.c - the tactics' reach map kept for their
 * command's check (issue 16) held to the long way.
 *
 * A charge must end on the nearest square from which the charger can
 * attack its target (004:510-513; act.c charge_check), which the check
 * finds on the charger's reach map (fa_reach: 004:410-417, 818-824). The
 * tactics built that same map a moment before, choosing the charge; it is
 * now kept (fa_reach_kept, policy.c reach_of) and the step's check takes
 * it (fa_run.reach_kept) instead of building it again. Here whole fights
 * are stepped twice side by side, the same commands applied to two
 * states, one with the tactics' map kept and handed to the check, one
 * without (every map built afresh): the tactics choose the same command
 * and after every step the two states are the same byte for byte; before
 * every charge, the kept map is the one fa_reach builds for the charger
 * with the charge's allowance. Debug builds also build the map again at
 * each use (act.c reach_or_kept).
 */
#include "alloy_fixture.h"

#include "alloy_side_by_side.h"

typedef struct met {
    long steps, charges, kept_used;
} met;

/* spoil (0: none): before every charge whose kept map the check would
 * take, the map is made wrong (every square of it reached at cost 0, so
 * that a check taking it would refuse the charge as not to the nearest
 * square) and kept for another: 1 another mover, 2 another cost, 3
 * another state; the check must build its own. */
static void run_both(const char *file, int trials, met *m, fa_reach_kept *kept,
                     fray_reach_map *fresh, int spoil) {
    void *setup = asbs_load(file);
    const fa_setup *s = setup;
    /* (zeroed: the two states are compared byte for byte, padding too) */
    fa_state *st = calloc(1, sizeof *st), *lw = calloc(1, sizeof *lw);
    fa_event *ev = malloc(sizeof *ev), *ev2 = malloc(sizeof *ev2);
    cr_assert(st && lw && ev && ev2);
    for (int t = 0; t < trials; t++) {
        fa_state_init(s, st, 7, (uint64_t)t);
        fa_state_init(s, lw, 7, (uint64_t)t);
        long step = 0;
        for (; step < 20000 && !st->over; step++) {
            fa_command cmd, cmd2;
            kept->valid = false;
            int a = step == 0 ? -1 : fa_actor(s, st);
            if (a >= 0)
                cr_assert_eq(fa_choose_command_kept(s, st, a, &cmd, kept), FRAY_OK);
            else
                asbs_command(s, st, step, &cmd);
            asbs_command(s, lw, step, &cmd2);
            cr_assert(memcmp(&cmd, &cmd2, sizeof cmd) == 0,
                      "%s, trial %d, step %ld: the tactics chose differently", file, t, step);
            if (cmd.kind == FA_CMD_CHARGE) {
                m->charges++;
                int allow = fa_move_allowance(s, st, cmd.actor, FA_CMD_CHARGE);
                if (kept->valid && kept->st == st && kept->who == cmd.actor &&
                    kept->max_cost == allow) {
                    /* 004:510-513: the map the check takes is the charger's
                     * reach map with the charge's allowance. */
                    fa_reach(s, st, cmd.actor, allow, fresh);
                    cr_assert(fa_reach_same(fresh, &kept->m),
                              "%s, trial %d, step %ld: the kept reach map is not the "
                              "charger's", file, t, step);
                    m->kept_used++;
                    if (spoil) {
                        for (int y = 0; y < kept->m.h; y++)
                            for (int x = 0; x < kept->m.w; x++) {
                                kept->m.cost[y][x] = 0;
                                kept->m.can_stop[y][x] = true;
                            }
                        if (spoil == 1)
                            kept->who = (cmd.actor + 1) % st->n;
                        else if (spoil == 2)
                            kept->max_cost = allow + 1;
                        else
                            kept->st = lw;
                    }
                }
            }
            fa_run r;
            asbs_apply_kept(s, st, ev, &cmd, step, false, kept->valid ? kept : NULL, &r, file,
                            t);
            asbs_apply(s, lw, ev2, &cmd, step, false, &r, file, t);
            cr_assert(memcmp(st, lw, sizeof *st) == 0,
                      "%s, trial %d, step %ld: the kept reach map left another state "
                      "than the long way (command %d)",
                      file, t, step, cmd.kind);
            m->steps++;
        }
        cr_assert(st->over, "%s, trial %d: not over after %ld steps", file, t, step);
    }
    free(ev2);
    free(ev);
    free(lw);
    free(st);
    fray__alloy_ruleset.setup_free(setup);
}

/* Issue 16 (004:510-513, 818-824): whole fights of the crowds and the
 * examples, the two ways side by side, with charges checked on the kept
 * map. */
Test(alloy_reach_kept, kept_map_for_the_charge_over_whole_fights_issue16) {
    met m;
    memset(&m, 0, sizeof m);
    fa_reach_kept *kept = malloc(sizeof *kept);
    fray_reach_map *fresh = malloc(sizeof *fresh);
    cr_assert(kept && fresh);
    for (size_t i = 0; i < ASBS_FILES; i++)
        run_both(asbs_files[i], 10, &m, kept, fresh, 0);
    free(fresh);
    free(kept);
    cr_log_info("%ld steps: %ld charges, %ld checked on the kept map", m.steps, m.charges,
                m.kept_used);
    cr_assert_gt(m.steps, 3000);
    cr_assert_gt(m.kept_used, 10, "charges checked on the kept map: %ld", m.kept_used);
}

/* Issue 16: a map kept for another mover, another cost or another state
 * is not the one the check asks for; the check builds its own, and the
 * charge is judged as without it (004:510-513: no charge refused, the
 * same end states). */
Test(alloy_reach_kept, a_map_kept_for_another_is_not_taken_issue16) {
    fa_reach_kept *kept = malloc(sizeof *kept);
    fray_reach_map *fresh = malloc(sizeof *fresh);
    cr_assert(kept && fresh);
    for (int spoil = 1; spoil <= 3; spoil++) {
        met m;
        memset(&m, 0, sizeof m);
        run_both("examples/alloy/duel.yaml", 10, &m, kept, fresh, spoil);
        run_both("bench/alloy-crowds/mixed-default.yaml", 3, &m, kept, fresh, spoil);
        cr_assert_gt(m.kept_used, 5, "spoil %d: charges %ld", spoil, m.kept_used);
    }
    free(fresh);
    free(kept);
}
