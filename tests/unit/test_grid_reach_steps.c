/* test_grid_reach_steps.c - the move search with one-space steps weighed
 * from a per-map table of their fixed part (fray__grid_step_table and
 * fray__grid_reach_steps, what the 99 Towers engine and policies use)
 * gives exactly what the search weighing every step from the map gives
 * (fray__grid_reach_occ): seed 000 "Counting Squares" (1-2-1 diagonals),
 * difficult terrain, low walls and walls on edges, "Cutting Corners" and
 * "Moving Through Spaces". Issue 4 "Speed" must not change a move; a wrong
 * table entry (a wall, a low wall, difficult terrain or a corner) changes
 * a cost, a parity or a path here. */
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
