/*
 * grid_random.h - random maps for the tests that compare the move
 * searches with each other (test_grid_reach_occ.c, test_grid_reach_steps.c):
 * walls, pits, windows and difficult ground, and walls and low walls on
 * edges, all drawn from a fixed-seed stream.
 */
#ifndef FRAY_TESTS_GRID_RANDOM_H
#define FRAY_TESTS_GRID_RANDOM_H

#include <stdbool.h>

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
        if (fray_grid_in(g, b))
            fray_grid_set_edge(g, a, b, fray_rng_below(rng, 2) ? FRAY_EDGE_WALL
                                                               : FRAY_EDGE_LOW);
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

#endif
