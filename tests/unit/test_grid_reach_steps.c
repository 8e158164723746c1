/* test_grid_reach_steps.c - the move search with one-space steps weighed
 * from a per-map table of their fixed part (fray__grid_step_table and
 * fray__grid_reach_steps, what the 99 Towers engine and policies use)
 * gives exactly what the search weighing every step from the map gives
 * (fray__grid_reach_occ): seed 000 "Counting Squares" (1-2-1 diagonals),
 * difficult terrain, low walls and walls on edges, "Cutting Corners" and
 * "Moving Through Spaces". Issue 4 "Speed" must not change a move; a wrong
 * table entry (a wall, a low wall, difficult terrain or a corner) changes
 * a cost, a parity or a path here. And the same search run in steps
 * (fray__grid_run_start / fray__grid_run_until, the tactics policy's step
 * 5): stopped at a cost limit, or resumed to larger ones, it shows what a
 * fresh search with that limit shows. */
#include <criterion/criterion.h>

#include <string.h>

#include "fray/grid.h"
#include "fray/rng.h"
#include "grid_random.h"
#include "towers_int.h"

Test(grid_reach_steps, same_as_search_from_the_map) {
    static fray_grid g;
    static fray_reach_map a, b;
    static uint8_t steps[FRAY_GRID_MAX][FRAY_GRID_MAX][8];
    fray_rng rng;
    fray_rng_seed(&rng, 4, 7);
    for (int trial = 0; trial < 600; trial++) {
        grid_random_map(&g, &rng, true, 5);
        fray__grid_step_table(&g, steps);
        int n = 1 + (int)fray_rng_below(&rng, 7);
        fray_footprint fp[8];
        uint8_t kind[8];
        for (int i = 0; i < n; i++) {
            /* The mover is one space (the table's case) in most trials. */
            int side = fray_rng_below(&rng, i == 0 ? 6 : 4) == 0 ? 2 : 1;
            fp[i] = grid_random_fp(&g, &rng, side);
            kind[i] = (uint8_t)(i == 0 ? FRAY_OCC_SELF
                                       : 1 + fray_rng_below(&rng, 3));
        }
        int cost = (int)fray_rng_below(&rng, 40);
        int parity = (int)fray_rng_below(&rng, 2);
        fray_pos whole = {-1, -1};
        fray__grid_reach_occ(&g, fp[0], parity, cost, fp, kind, n, whole, &a);
        fray__grid_reach_steps(&g, (const uint8_t (*)[FRAY_GRID_MAX][8])steps,
                               fp[0], parity, cost, fp, kind, n, whole, &b);
        grid_same_reach(&a, &b, whole, trial);
        fray_pos to = {(int16_t)fray_rng_below(&rng, (uint32_t)g.w),
                       (int16_t)fray_rng_below(&rng, (uint32_t)g.h)};
        fray__grid_reach_occ(&g, fp[0], parity, cost, fp, kind, n, to, &a);
        fray__grid_reach_steps(&g, (const uint8_t (*)[FRAY_GRID_MAX][8])steps,
                               fp[0], parity, cost, fp, kind, n, to, &b);
        grid_same_reach(&a, &b, to, trial);
    }
}

/* ---- The search run in steps (fray__grid_run_start / _run_until) ---------
 * Issue 4 "Speed": step 5 of the tactics policy (policy.c move_step,
 * move_toward) runs the map search only as far as it looks, then goes on.
 * That must not change a move: a run stopped at a cost limit L shows what
 * a fresh search with max_cost L shows, and going on to a larger limit
 * shows what a fresh search with that limit shows. */

/* One random setup for a run: map, step table, who stands where (the
 * mover first, as SELF; n 0: no list at all), start parity and the run's
 * own max_cost. */
typedef struct run_case {
    fray_grid g;
    uint8_t steps[FRAY_GRID_MAX][FRAY_GRID_MAX][8];
    fray_footprint fp[8];
    uint8_t kind[8];
    int n, parity, max;
} run_case;

/* What the run tests counted (to show they are not vacuous). */
typedef struct run_counts {
    long maps, compared, stopped_short, resumed_more, over_early;
} run_counts;

/* A setup: a big map (40-64 spaces a side) in one in 32 (trial % 4 == 0
 * and grid_random_map's one in 8); the mover two spaces a side in every
 * third map (trial % 3 == 2), one space otherwise; in one map in 8 no
 * occupant list; the run's limit the policy's whole map, 2 * (w + h), in
 * half the maps, else 0..44. The step table only when it is used. */
static void run_case_draw(run_case *c, fray_rng *rng, int trial,
                          bool table) {
    grid_random_map(&c->g, rng, trial % 4 == 0, 5);
    if (table)
        fray__grid_step_table(&c->g, c->steps);
    int side = trial % 3 == 2 ? 2 : 1;
    c->fp[0] = grid_random_fp(&c->g, rng, side);
    c->kind[0] = FRAY_OCC_SELF;
    c->n = trial % 8 == 7 ? 0 : 1 + (int)fray_rng_below(rng, 8);
    for (int i = 1; i < c->n; i++) {
        c->fp[i] = grid_random_fp(&c->g, rng, fray_rng_below(rng, 4) == 0 ? 2 : 1);
        c->kind[i] = (uint8_t)(1 + fray_rng_below(rng, 3));
    }
    c->parity = (int)fray_rng_below(rng, 2);
    c->max = fray_rng_below(rng, 2) ? 2 * (c->g.w + c->g.h)
                                    : (int)fray_rng_below(rng, 45);
}

/* The step table the run and the fresh search use: the setup's, or none
 * (every step weighed from the map). */
static const uint8_t (*run_table(const run_case *c, bool table))[FRAY_GRID_MAX][8] {
    return table ? (const uint8_t (*)[FRAY_GRID_MAX][8])c->steps : NULL;
}

/* A fresh whole search of the setup with max_cost `cost`. */
static void run_fresh(const run_case *c, bool table, int cost,
                      fray_reach_map *out) {
    fray_pos whole = {-1, -1};
    fray__grid_reach_steps(&c->g, run_table(c, table), c->fp[0], c->parity,
                           cost, c->n ? c->fp : NULL, c->n ? c->kind : NULL,
                           c->n, whole, out);
}

/* Starts a run of the setup in storage holding garbage (the policy's run
 * lives uninitialised on the stack), and checks that no space is finished
 * yet. */
static void run_begin(const run_case *c, bool table, fray__reach_run *run,
                      fray_reach_map *out, int trial) {
    memset(run, 0x5a ^ (trial & 0xff), sizeof *run);
    memset(out, 0xa5 ^ (trial & 0xff), sizeof *out);
    fray__grid_run_start(run, &c->g, run_table(c, table), c->fp[0], c->parity,
                         c->max, c->n ? c->fp : NULL, c->n ? c->kind : NULL,
                         c->n, out);
    cr_assert_eq(out->w, c->g.w, "trial %d", trial);
    cr_assert_eq(out->h, c->g.h, "trial %d", trial);
    for (int y = 0; y < c->g.h; y++)
        for (int x = 0; x < c->g.w; x++)
            cr_assert_eq(out->cost[y][x], -1, "trial %d (%d,%d) finished at start",
                         trial, x, y);
}

/* Asserts that a run's map is a fresh search's: the same start, size,
 * and on every space the same cost, and on the finished ones (cost >= 0)
 * the same parity, can_stop and previous step, so the same path to each
 * (fray_grid_path follows the previous steps from `from`; checked on the
 * farthest space with the shared grid_same_reach, paths included). Plain
 * tests, one assertion on a difference: a whole 64 x 64 map is compared
 * thousands of times. */
static void same_map(const fray_reach_map *fresh, const fray_reach_map *run,
                     int trial) {
    fray_pos far = {0, 0};
    cr_assert(fresh->from.at.x == run->from.at.x &&
                  fresh->from.at.y == run->from.at.y &&
                  fresh->from.side == run->from.side,
              "trial %d: start differs", trial);
    cr_assert(fresh->w == run->w && fresh->h == run->h,
              "trial %d: size differs", trial);
    for (int y = 0; y < fresh->h; y++)
        for (int x = 0; x < fresh->w; x++) {
            int c = fresh->cost[y][x];
            if (c != run->cost[y][x] ||
                (c >= 0 && (fresh->parity[y][x] != run->parity[y][x] ||
                            fresh->can_stop[y][x] != run->can_stop[y][x] ||
                            fresh->prev_x[y][x] != run->prev_x[y][x] ||
                            fresh->prev_y[y][x] != run->prev_y[y][x])))
                cr_assert_fail("trial %d (%d,%d): fresh cost %d parity %d "
                               "stop %d prev (%d,%d), run cost %d parity %d "
                               "stop %d prev (%d,%d)",
                               trial, x, y, c, fresh->parity[y][x],
                               fresh->can_stop[y][x], fresh->prev_x[y][x],
                               fresh->prev_y[y][x], run->cost[y][x],
                               run->parity[y][x], run->can_stop[y][x],
                               run->prev_x[y][x], run->prev_y[y][x]);
            if (c > fresh->cost[far.y][far.x])
                far = (fray_pos){(int16_t)x, (int16_t)y};
        }
    grid_same_reach(fresh, run, far, trial);
}

/* The spaces a map has finished (cost >= 0). */
static int finished_spaces(const fray_reach_map *m) {
    int k = 0;
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++)
            k += m->cost[y][x] >= 0;
    return k;
}

/* One run of a setup under test: its storage, the fresh search it is
 * compared with, and what has been seen. */
typedef struct run_test {
    const run_case *c;
    bool table;
    int trial;
    fray__reach_run *run;
    fray_reach_map *out, *fresh;
    bool over; /* the run has said the search is over */
    run_counts *n;
} run_test;

/* The run goes on to `cost` (<= the run's max); its map must then be the
 * fresh search's with max_cost `shown` (the highest cost asked so far;
 * `again`: t->fresh holds it already). When it first says the search is
 * over (false; it must at the run's own limit), the fresh search with the
 * run's limit must show the same: nothing lies past (policy.c move_step
 * skips its whole-map round on that answer). Returns the spaces
 * finished. */
static int run_stage(run_test *t, int cost, int shown, bool again) {
    const run_case *c = t->c;
    bool more = fray__grid_run_until(t->run, cost);
    if (!again)
        run_fresh(c, t->table, shown, t->fresh);
    same_map(t->fresh, t->out, t->trial);
    t->n->compared++;
    if (shown >= c->max)
        cr_assert(!more, "trial %d: search not over at the run's limit %d",
                  t->trial, c->max);
    cr_assert(!(t->over && more), "trial %d: search over, then not",
              t->trial);
    if (!more && !t->over && shown < c->max) {
        /* (fresh then holds the fresh search with the run's limit, the
         * same map as with `shown`.) */
        run_fresh(c, t->table, c->max, t->fresh);
        same_map(t->fresh, t->out, t->trial);
        t->n->compared++;
        t->n->over_early++;
    }
    t->over = !more;
    if (more)
        t->n->stopped_short++;
    return finished_spaces(t->out);
}

/* Limits drawn where the costs of a map lie: 0 .. min(max, w + h). */
static int run_limit(const run_case *c, fray_rng *rng) {
    int top = c->g.w + c->g.h < c->max ? c->g.w + c->g.h : c->max;
    return (int)fray_rng_below(rng, (uint32_t)top + 1);
}

/* 2000 random maps (one in 32 of 40-64 spaces a side), seed (4, 13);
 * on each, with the step table or without, two runs of the search: one
 * stopped at a limit and resumed once, one stopped and resumed twice,
 * then asked a lower limit. Every stage's map is compared with a fresh
 * search's (run_stage). */
static void run_trials(bool table) {
    static run_case c;
    static fray__reach_run run;
    static fray_reach_map out, fresh;
    run_counts n = {0};
    fray_rng rng;
    fray_rng_seed(&rng, 4, 13);
    const int maps = 2000;
    for (int trial = 0; trial < maps; trial++) {
        run_case_draw(&c, &rng, trial, table);
        n.maps++;
        /* Two and three stages, each its own run; its first stage is a
         * run stopped at a limit. */
        for (int stages = 2; stages <= 3; stages++) {
            int lim[3];
            for (int i = 0; i < stages; i++)
                lim[i] = run_limit(&c, &rng);
            for (int i = 1; i < stages; i++) /* ascending */
                for (int j = i; j > 0 && lim[j - 1] > lim[j]; j--) {
                    int tmp = lim[j];
                    lim[j] = lim[j - 1];
                    lim[j - 1] = tmp;
                }
            if (fray_rng_below(&rng, 3) == 0)
                lim[stages - 1] = c.max; /* the policy's last round */
            run_test t = {&c, table, trial, &run, &out, &fresh, false, &n};
            run_begin(&c, table, &run, &out, trial);
            int before = 0;
            for (int i = 0; i < stages; i++) {
                int done = run_stage(&t, lim[i], lim[i], false);
                if (i > 0 && done > before)
                    n.resumed_more++;
                before = done;
            }
            if (stages == 3) {
                /* A lower limit asked afterwards (move_toward asks
                 * several): the map stays the highest limit's. */
                int low = (int)fray_rng_below(&rng, (uint32_t)lim[2] + 1);
                run_stage(&t, low, lim[2], true);
            }
        }
    }
    /* Not vacuous: many runs stopped with spaces left past their limit,
     * many resumptions finished more spaces, and some runs were over
     * before their own limit. */
    cr_assert_gt(n.stopped_short, maps);
    cr_assert_gt(n.resumed_more, maps);
    cr_assert_gt(n.over_early, maps / 4);
    cr_log_info("run (%s step table): %ld maps, %ld comparisons, %ld stopped "
                "short, %ld resumed with more spaces, %ld over before the "
                "run's limit",
                table ? "with" : "without", n.maps, n.compared,
                n.stopped_short, n.resumed_more, n.over_early);
}

/* Issue 4 "Speed": the resumable search (fray__grid_run_start /
 * fray__grid_run_until) with the per-setup step table (what policy.c
 * move_step runs, ft_steps) stopped at a cost limit L shows exactly what
 * a fresh fray__grid_reach_steps with the table and max_cost L shows
 * (every space's cost, parity, can_stop, previous step and path); going
 * on to larger limits, in two and in three stages (sometimes the run's own
 * limit last), shows at each stage exactly what a fresh search with that
 * limit shows; asking a lower limit afterwards changes nothing; it says
 * the search is over only when nothing lies past, and always at its own
 * limit. One-space movers (the table's steps) and two-space movers, among
 * occupants (and with no list), both start parities. */
Test(grid_reach_run, with_step_table_same_as_fresh_search) {
    run_trials(true);
}

/* Issue 4 "Speed": the same claim for the resumable search without a step
 * table (every step weighed from the map, search_map), against a fresh
 * fray__grid_reach_steps without one (fray__grid_reach_occ's search), on
 * the same maps and limits. */
Test(grid_reach_run, without_step_table_same_as_fresh_search) {
    run_trials(false);
}

/* ---- A cost shown without its steps (fray__grid_run_show) -------------
 * Issue 16: the tactics' move (policy.c move_toward) asks the search cost
 * after cost for a space to strike from, and stops at the first cost that
 * holds one; the spaces of that last cost, the widest ring, need not take
 * their steps. fray__grid_run_show writes them out without: afterwards the
 * map must be exactly what finishing them gives, and the run must go on
 * as if they had been finished. */

/* What the show tests counted. */
typedef struct show_counts {
    long maps, compared, shown, ring_left, until_after, over_said;
} show_counts;

/* 2000 random maps (seed (4, 16)), with the step table or without: on
 * each, a run asked a rising series of costs (0 to the map's width and
 * height, some repeated, some lower, now and then the run's own limit),
 * each by fray__grid_run_show or fray__grid_run_until at random (three in
 * four shown). After each call the map is the fresh search's with
 * max_cost the highest cost asked so far (every space's cost, parity,
 * can_stop and previous step); when a call says the search is over, the
 * fresh search with the run's own limit shows the same map; a run_until
 * asked a cost already shown (the steps of that ring now taken) keeps the
 * map and says over exactly when the fresh search to the run's limit shows
 * nothing more. */
static void show_trials(bool table) {
    static run_case c;
    static fray__reach_run run;
    static fray_reach_map out, fresh, whole;
    show_counts n = {0};
    fray_rng rng;
    fray_rng_seed(&rng, 4, 16);
    const int maps = 2000;
    for (int trial = 0; trial < maps; trial++) {
        run_case_draw(&c, &rng, trial, table);
        n.maps++;
        run_begin(&c, table, &run, &out, trial);
        run_fresh(&c, table, c.max, &whole);
        int top = c.g.w + c.g.h < c.max ? c.g.w + c.g.h : c.max;
        int asked = -1, cost = 0;
        while (cost <= c.max) {
            int ask = cost;
            if (fray_rng_below(&rng, 8) == 0)
                ask = (int)fray_rng_below(&rng, (uint32_t)cost + 1); /* lower */
            else if (fray_rng_below(&rng, 16) == 0)
                ask = c.max; /* the policy's last round */
            bool show = fray_rng_below(&rng, 4) != 0;
            bool was_shown = ask <= asked;
            bool more = show ? fray__grid_run_show(&run, ask)
                             : fray__grid_run_until(&run, ask);
            if (show && ask > asked) {
                n.shown++;
                /* (the ring of `ask` left without its steps) */
                if (run.queued > 0 && run.k <= 2 * ask + 1)
                    n.ring_left++;
            }
            if (!show && was_shown)
                n.until_after++;
            asked = ask > asked ? ask : asked;
            run_fresh(&c, table, asked, &fresh);
            same_map(&fresh, &out, trial);
            n.compared++;
            if (!more) {
                /* Over: nothing lies past. */
                same_map(&whole, &out, trial);
                n.over_said++;
            }
            if (!show) {
                /* run_until is exact: over exactly when the search to
                 * the run's limit shows nothing past what it shows. */
                cr_assert_eq(more, finished_spaces(&whole) != finished_spaces(&out),
                             "trial %d: run_until(%d) says more %d", trial, ask,
                             more);
            }
            if (asked >= c.max)
                break;
            cost += 1 + (int)fray_rng_below(&rng, 3);
            if (cost > top && cost < c.max)
                cost = fray_rng_below(&rng, 2) ? c.max : top + 1;
        }
    }
    /* Not vacuous: most shows left a ring without its steps, and many
     * run_until calls asked a cost asked before (a ring shown takes its
     * steps then). */
    cr_assert_gt(n.ring_left, maps);
    cr_assert_gt(n.until_after, maps / 8);
    cr_assert_gt(n.over_said, maps / 2);
    cr_log_info("show (%s step table): %ld maps, %ld comparisons, %ld costs "
                "shown, %ld with a ring left without its steps, %ld run_until "
                "of a cost asked before, %ld said over",
                table ? "with" : "without", n.maps, n.compared, n.shown,
                n.ring_left, n.until_after, n.over_said);
}

/* Issue 16: fray__grid_run_show shows what fray__grid_run_until shows, in
 * any mix with it, with the step table (policy.c move_toward's run)... */
Test(grid_reach_run, show_same_as_fresh_search_with_step_table) {
    show_trials(true);
}

/* ...and without one (every step weighed from the map). */
Test(grid_reach_run, show_same_as_fresh_search_without_step_table) {
    show_trials(false);
}
