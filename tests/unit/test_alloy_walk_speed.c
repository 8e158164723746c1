/*
 * test_alloy_walk_speed.c - a walk's step costs kept from the check
 * (issue 16) held to the long way.
 *
 * fa_apply checks a walk (fa_check: every step weighed, 004:410-417,
 * 818-820) and then moves along it (act.c move_steps), which weighed every
 * step again; now it takes the costs the check found (fa_run.walk_cost)
 * while nobody but the walker has moved or changed (no opportunity attack
 * taken, 004:457; no readied action fired, 004:651; no grapple ended).
 * Here whole fights are stepped twice side by side, the same commands
 * applied to two states, one of them with every step weighed again
 * (fa_run.walk_long): after every step the two states are the same byte
 * for byte, and the fights walk, diagonally too (the second diagonal of
 * two costs 2), with opportunity attacks taken on walkers. Debug builds
 * also weigh every kept step again (act.c move_steps).
 */
#include "alloy_fixture.h"

#include "alloy_side_by_side.h"

typedef struct met {
    long steps, walks, walk_squares, interrupted;
} met;

static void run_both(const char *file, int trials, met *m) {
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
            asbs_command(s, st, step, &cmd);
            asbs_command(s, lw, step, &cmd2);
            cr_assert(memcmp(&cmd, &cmd2, sizeof cmd) == 0,
                      "%s, trial %d, step %ld: the tactics chose differently", file, t, step);
            fa_run r;
            asbs_apply(s, st, ev, &cmd, step, false, &r, file, t);
            uint32_t ints = r.interrupts;
            asbs_apply(s, lw, ev2, &cmd, step, true, &r, file, t);
            cr_assert(memcmp(st, lw, sizeof *st) == 0,
                      "%s, trial %d, step %ld: the walk's kept costs left another state "
                      "than the long way (command %d)",
                      file, t, step, cmd.kind);
            m->steps++;
            if (cmd.kind == FA_CMD_WALK) {
                m->walks++;
                m->walk_squares += cmd.n_path;
                m->interrupted += ints > 0;
            }
        }
        cr_assert(st->over, "%s, trial %d: not over after %ld steps", file, t, step);
    }
    free(ev2);
    free(ev);
    free(lw);
    free(st);
    fray__alloy_ruleset.setup_free(setup);
}

/* Issue 16 (004:410-417, 457, 651, 818-820): whole fights of the crowds
 * and the examples, the two ways side by side. */
Test(alloy_walk_speed, kept_step_costs_over_whole_fights_issue16) {
    met m;
    memset(&m, 0, sizeof m);
    for (size_t i = 0; i < ASBS_FILES; i++)
        run_both(asbs_files[i], 10, &m);
    cr_log_info("%ld steps: %ld walks of %ld squares, %ld of them interrupted", m.steps,
                m.walks, m.walk_squares, m.interrupted);
    cr_assert_gt(m.steps, 3000);
    cr_assert_gt(m.walks, 300, "walks: %ld", m.walks);
    cr_assert_gt(m.walk_squares, 2 * m.walks, "walks of more than two squares");
    cr_assert_gt(m.interrupted, 0, "a walk interrupted by an opportunity attack (004:457)");
}
