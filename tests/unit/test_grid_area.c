/* test_grid_area.c - line of effect, areas of effect and flanking on the
 * tactical map (seed 004 "Close Attacks", "Area Attacks", "Area Types",
 * "Flanking", "Degree of Cover"; seed 000 "Line of Sight", "Areas";
 * rulesets-checklists L5 "Areas", "Flanking", L6 items 1-2, L7 item 9). */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "fray/grid.h"

static fray_pos Q(int x, int y) {
    fray_pos p = {(int16_t)x, (int16_t)y};
    return p;
}

static fray_footprint F(int x, int y, int side) {
    fray_footprint f = {Q(x, y), (int8_t)side};
    return f;
}

/* ---- Line of effect ---------------------------------------------------------- */

/* Seed 000 "Line of Sight" (windows do not block sight) and seed 004 "Area
 * Attacks" (line of effect, not sight): a window blocks the effect while
 * sight passes; a pit blocks neither; a wall blocks both; a low wall
 * neither (it gives cover). */
Test(grid_area, effect_window_blocks_sight_passes) {
    fray_grid g;
    fray_grid_init(&g, 7, 3);
    cr_expect(fray_grid_effect(&g, Q(0, 1), Q(6, 1)), "open ground");
    g.terrain[1][3] = FRAY_TERRAIN_WINDOW;
    cr_expect(fray_grid_sight(&g, Q(0, 1), Q(6, 1)), "sight through a window");
    cr_expect(!fray_grid_effect(&g, Q(0, 1), Q(6, 1)), "no effect through it");
    cr_expect(!fray_grid_effect(&g, Q(6, 1), Q(0, 1)), "either way");
    cr_expect(fray_grid_effect(&g, Q(0, 1), Q(3, 1)), "into the window space itself");
    g.terrain[1][3] = FRAY_TERRAIN_PIT;
    cr_expect(fray_grid_effect(&g, Q(0, 1), Q(6, 1)), "over a pit");
    g.terrain[1][3] = FRAY_TERRAIN_WALL;
    cr_expect(!fray_grid_effect(&g, Q(0, 1), Q(6, 1)), "a wall");
    cr_expect(!fray_grid_sight(&g, Q(0, 1), Q(6, 1)));
    g.terrain[1][3] = FRAY_TERRAIN_DIFFICULT;
    cr_expect(fray_grid_effect(&g, Q(0, 1), Q(6, 1)), "difficult ground");
    g.terrain[1][3] = FRAY_TERRAIN_OPEN;
    cr_assert_eq(fray_grid_set_edge(&g, Q(4, 1), Q(5, 1), FRAY_EDGE_LOW), FRAY_OK);
    cr_expect(fray_grid_effect(&g, Q(0, 1), Q(6, 1)), "a low wall");
    cr_assert_eq(fray_grid_set_edge(&g, Q(4, 1), Q(5, 1), FRAY_EDGE_WALL), FRAY_OK);
    cr_expect(!fray_grid_effect(&g, Q(0, 1), Q(6, 1)), "a wall edge");
    cr_expect(!fray_grid_effect(&g, Q(0, 1), Q(7, 1)), "off the map");
    cr_expect(fray_grid_effect(&g, Q(2, 2), Q(2, 2)));
}

/* Seed 000 "Line of Sight" corner ruling carries over: two windows meeting
 * diagonally close the corner point for effects, not for sight. */
Test(grid_area, effect_corner_points_and_footprints) {
    fray_grid g;
    fray_grid_init(&g, 5, 5);
    g.terrain[0][1] = FRAY_TERRAIN_WINDOW;
    cr_expect(fray_grid_effect(&g, Q(0, 0), Q(2, 2)), "grazing one window's corner");
    g.terrain[1][0] = FRAY_TERRAIN_WINDOW;
    cr_expect(!fray_grid_effect(&g, Q(0, 0), Q(2, 2)), "between two windows");
    cr_expect(fray_grid_sight(&g, Q(0, 0), Q(2, 2)), "sight still passes");
    /* A Large creature at (0,0)-(1,1) behind a window at (2,0) reaches
     * (4,0) from its lower row only. */
    fray_grid_init(&g, 6, 4);
    g.terrain[0][2] = FRAY_TERRAIN_WINDOW;
    cr_expect(!fray_grid_effect_fp(&g, F(0, 0, 1), F(4, 0, 1)));
    cr_expect(fray_grid_effect_fp(&g, F(0, 0, 2), F(4, 0, 1)));
    cr_expect(fray_grid_effect_fp(&g, F(4, 0, 1), F(0, 0, 2)));
    /* Any line holding for effect holds for sight on random maps. */
    srand(12);
    for (int trial = 0; trial < 200; trial++) {
        fray_grid_init(&g, 8, 8);
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 8; x++)
                g.terrain[y][x] = (uint8_t)(rand() % 5 == 0 ? rand() % FRAY_TERRAIN_COUNT : 0);
        fray_pos a = Q(rand() % 8, rand() % 8), b = Q(rand() % 8, rand() % 8);
        if (fray_grid_effect(&g, a, b))
            cr_assert(fray_grid_sight(&g, a, b), "effect without sight, trial %d", trial);
        bool windows = false;
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 8; x++)
                windows |= g.terrain[y][x] == FRAY_TERRAIN_WINDOW;
        if (!windows)
            cr_assert_eq(fray_grid_effect(&g, a, b), fray_grid_sight(&g, a, b),
                         "no windows: effect is sight, trial %d", trial);
    }
}
