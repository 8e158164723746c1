/*
 * grid_random.h - random maps for the tests that compare the move
 * searches with each other (test_grid_reach_occ.c, test_grid_reach_steps.c):
 * walls, pits, windows and difficult ground, and walls and low walls on
 * edges, all drawn from a fixed-seed stream; and the comparison itself.
 */
#ifndef FRAY_TESTS_GRID_RANDOM_H
#define FRAY_TESTS_GRID_RANDOM_H

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fray/grid.h"
#include "fray/rng.h"

/* A w x h map (6-19 by 6-15; with `big`, one map in 8 is 40-64 on a side)
 * with about one edge in `edge_every` spaces walled or low-walled. */
static inline void grid_random_map(fray_grid *g, fray_rng *rng, bool big_ok,
                                   int edge_every) {
    bool big = big_ok && fray_rng_below(rng, 8) == 0;
    int w = big ? 40 + (int)fray_rng_below(rng, 25) : 6 + (int)fray_rng_below(rng, 14);
    int h = big ? 40 + (int)fray_rng_below(rng, 25) : 6 + (int)fray_rng_below(rng, 10);
    fray_grid_init(g, w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t t = fray_rng_below(rng, 20);
            g->terrain[y][x] = t < 2   ? FRAY_TERRAIN_WALL
                               : t < 3 ? FRAY_TERRAIN_PIT
                               : t < 4 ? FRAY_TERRAIN_WINDOW
                               : t < 7 ? FRAY_TERRAIN_DIFFICULT
                                       : FRAY_TERRAIN_OPEN;
        }
    for (int k = 0; k < w * h / edge_every; k++) {
        fray_pos a = {(int16_t)fray_rng_below(rng, (uint32_t)w),
                      (int16_t)fray_rng_below(rng, (uint32_t)h)};
        fray_pos b = a;
        if (fray_rng_below(rng, 2))
            b.x++;
        else
            b.y++;
        if (fray_grid_in(g, b) &&
            fray_grid_set_edge(g, a, b, fray_rng_below(rng, 2) ? FRAY_EDGE_WALL
                                                               : FRAY_EDGE_LOW) !=
                FRAY_OK)
            abort(); /* (neighbours on the map: cannot fail) */
    }
}

/* A footprint of `side` spaces a side, somewhere on the map. */
static inline fray_footprint grid_random_fp(const fray_grid *g, fray_rng *rng,
                                            int side) {
    fray_footprint f;
    f.side = (int8_t)side;
    f.at.x = (int16_t)fray_rng_below(rng, (uint32_t)(g->w - f.side + 1));
    f.at.y = (int16_t)fray_rng_below(rng, (uint32_t)(g->h - f.side + 1));
    return f;
}

/* Asserts that two searches agree on every space (only.x < 0) or on the
 * space `only`: cost, parity, whether the mover can stop there, the step
 * it came from and the whole path to it. */
static inline void grid_same_reach(const fray_reach_map *a,
                                   const fray_reach_map *b, fray_pos only,
                                   int trial) {
    cr_assert_eq(a->w, b->w);
    cr_assert_eq(a->h, b->h);
    for (int y = 0; y < a->h; y++)
        for (int x = 0; x < a->w; x++) {
            if (only.x >= 0 && (x != only.x || y != only.y))
                continue;
            cr_assert_eq(a->cost[y][x], b->cost[y][x], "trial %d (%d,%d)",
                         trial, x, y);
            if (a->cost[y][x] < 0)
                continue;
            cr_assert_eq(a->parity[y][x], b->parity[y][x], "trial %d", trial);
            cr_assert_eq(a->can_stop[y][x], b->can_stop[y][x], "trial %d",
                         trial);
            cr_assert_eq(a->prev_x[y][x], b->prev_x[y][x], "trial %d", trial);
            cr_assert_eq(a->prev_y[y][x], b->prev_y[y][x], "trial %d", trial);
            fray_pos pa[128], pb[128];
            fray_pos at = {(int16_t)x, (int16_t)y};
            int na = fray_grid_path(a, at, pa, 128);
            int nb = fray_grid_path(b, at, pb, 128);
            cr_assert_eq(na, nb, "trial %d", trial);
            cr_assert(memcmp(pa, pb, (size_t)na * sizeof pa[0]) == 0,
                      "trial %d: paths differ", trial);
        }
}

#endif
