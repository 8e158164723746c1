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

/* ---- The set of spaces ----------------------------------------------------------- */

static fray_grid open_map(int w, int h) {
    fray_grid g;
    fray_grid_init(&g, w, h);
    return g;
}

/* Helpers: adding, removing, counting and walking in reading order. */
Test(grid_area, set_helpers) {
    fray_area a;
    fray_area_clear(&a);
    cr_expect_eq(fray_area_count(&a), 0);
    fray_area_add(&a, Q(63, 0));
    fray_area_add(&a, Q(2, 5));
    fray_area_add(&a, Q(0, 5));
    fray_area_add(&a, Q(63, 63));
    fray_area_add(&a, Q(64, 1)); /* outside the 64x64 range: ignored */
    fray_area_add(&a, Q(-1, 1));
    cr_expect_eq(fray_area_count(&a), 4);
    cr_expect(fray_area_has(&a, Q(63, 0)));
    cr_expect(!fray_area_has(&a, Q(64, 0)));
    cr_expect(!fray_area_has(&a, Q(1, 5)));
    fray_pos want[] = {{63, 0}, {0, 5}, {2, 5}, {63, 63}}, p;
    int cur = 0, n = 0;
    while (fray_area_next(&a, &cur, &p)) {
        cr_assert_lt(n, 4);
        cr_expect(p.x == want[n].x && p.y == want[n].y, "space %d is (%d,%d)", n, p.x, p.y);
        n++;
    }
    cr_expect_eq(n, 4);
    cr_expect(!fray_area_next(&a, &cur, &p), "stays at the end");
    fray_area_add_fp(&a, F(10, 10, 2));
    cr_expect_eq(fray_area_count(&a), 8);
    cr_expect(fray_area_has_fp(&a, F(11, 11, 3)));
    fray_area_remove_fp(&a, F(10, 10, 2));
    fray_area_remove(&a, Q(63, 63));
    cr_expect_eq(fray_area_count(&a), 3);
    cr_expect(!fray_area_has_fp(&a, F(10, 10, 2)));
}

/* ---- Bursts ------------------------------------------------------------------------ */

/* Seed 000 "Burst X": "Burst 1, for example, would be the target square and
 * the 8 adjacent. Burst 2 would be the 21 squares"; counted with the
 * 1-2-1-2 diagonals (seed 000 "Counting Spaces"). Square bursts are the
 * option `burst: square` (rulesets-checklists L7 item 9). */
Test(grid_area, burst_1_is_9_and_burst_2_is_21) {
    fray_grid g = open_map(20, 20);
    fray_area a;
    fray_area_burst(&g, Q(10, 10), 0, FRAY_AREA_COUNTED, &a);
    cr_expect_eq(fray_area_count(&a), 1, "Burst 0: the origin");
    fray_area_burst(&g, Q(10, 10), 1, FRAY_AREA_COUNTED, &a);
    cr_expect_eq(fray_area_count(&a), 9, "Burst 1");
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            cr_expect(fray_area_has(&a, Q(10 + dx, 10 + dy)));
    fray_area_burst(&g, Q(10, 10), 2, FRAY_AREA_COUNTED, &a);
    cr_expect_eq(fray_area_count(&a), 21, "Burst 2");
    /* The 5x5 square less its four corners. */
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++)
            cr_expect_eq(fray_area_has(&a, Q(10 + dx, 10 + dy)), abs(dx) + abs(dy) < 4,
                         "(%d,%d)", dx, dy);
    fray_area_burst(&g, Q(10, 10), 2, FRAY_AREA_SQUARE, &a);
    cr_expect_eq(fray_area_count(&a), 25, "square Burst 2");
    fray_area_burst(&g, Q(10, 10), -1, FRAY_AREA_COUNTED, &a);
    cr_expect_eq(fray_area_count(&a), 0);
    /* Clipped to the map: Burst 2 in a corner. */
    fray_area_burst(&g, Q(0, 0), 2, FRAY_AREA_COUNTED, &a);
    cr_expect_eq(fray_area_count(&a), 8);
    cr_expect(!fray_area_has(&a, Q(2, 2)));
    fray_area_burst(&g, Q(19, 19), 100000, FRAY_AREA_COUNTED, &a);
    cr_expect_eq(fray_area_count(&a), 400, "a huge burst fills the map");
}

/* Seed 004 "Burst Areas", the fragmentation grenade (rulesets-checklists
 * L6 item 2): "a burst 25 ft with a range of 60 ft ... lands in a space up
 * to 60 feet from you and explodes out to effect every space within 25
 * feet of it": origin within 12 squares, every space within 5 squares of
 * it by the counted metric, origin included; an area burst affects its
 * thrower when inside, a close burst does not affect its user. */
Test(grid_area, fragmentation_grenade_burst_25_ft_range_60_ft) {
    fray_grid g = open_map(40, 30);
    fray_footprint thrower = F(10, 10, 1);
    fray_pos origin = Q(13, 12);
    cr_assert_leq(fray_grid_range(thrower, F(origin.x, origin.y, 1)), 12,
                  "within 60 ft");
    cr_expect_gt(fray_grid_range(thrower, F(23, 10, 1)), 12, "13 squares is too far");
    cr_assert(fray_grid_effect(&g, thrower.at, origin),
              "line of effect to the origin space");
    fray_area a;
    fray_area_burst(&g, origin, 5, FRAY_AREA_COUNTED, &a);
    for (int y = 0; y < 30; y++)
        for (int x = 0; x < 40; x++)
            cr_assert_eq(fray_area_has(&a, Q(x, y)), fray_grid_count(origin, Q(x, y)) <= 5,
                         "(%d,%d)", x, y);
    cr_expect_eq(fray_area_count(&a), 89);
    cr_expect(fray_area_has(&a, origin), "the origin is in the burst");
    cr_expect(fray_area_has(&a, Q(18, 12)) && fray_area_has(&a, Q(16, 16)),
              "5 straight, 3 + 4 counts 5");
    cr_expect(!fray_area_has(&a, Q(17, 16)), "4 + 4 counts 6");
    fray_area_burst(&g, origin, 5, FRAY_AREA_SQUARE, &a);
    cr_expect_eq(fray_area_count(&a), 121, "burst: square");

    /* Who is hit: the area burst's origin decides line of effect. */
    fray_area_burst(&g, origin, 5, FRAY_AREA_COUNTED, &a);
    fray_footprint at_origin = F(origin.x, origin.y, 1);
    cr_expect(fray_area_affects(&g, &a, at_origin, thrower),
              "an area burst affects its thrower inside it");
    g.terrain[12][15] = FRAY_TERRAIN_WALL;
    cr_expect(!fray_area_affects(&g, &a, at_origin, F(17, 12, 1)),
              "behind a wall from the origin");
    cr_expect(fray_area_affects(&g, &a, at_origin, F(13, 16, 1)));
    fray_area kept = a;
    fray_area_keep_effect(&g, at_origin, &kept);
    cr_expect(!fray_area_has(&kept, Q(17, 12)) && !fray_area_has(&kept, Q(16, 12)));
    cr_expect(fray_area_has(&kept, Q(15, 12)), "the wall space itself is reached");
    cr_expect(fray_area_has(&kept, origin));
    g.terrain[12][15] = FRAY_TERRAIN_OPEN;

    /* A close burst 5 from the user's own space leaves the user out. */
    fray_area_burst(&g, thrower.at, 5, FRAY_AREA_COUNTED, &a);
    fray_area_remove_fp(&a, thrower);
    cr_expect_eq(fray_area_count(&a), 88);
    cr_expect(!fray_area_affects(&g, &a, thrower, thrower));
    cr_expect(fray_area_affects(&g, &a, thrower, F(14, 12, 1)));
}

/* ---- Auras ---------------------------------------------------------------------- */

/* Seed 000 "Aura X": "The number of spaces encompassed by an aura varies
 * depending on the size of the creature ... Unless specified, an aura does
 * not include the square containing the source". */
Test(grid_area, aura_1_and_2_around_medium_and_large) {
    fray_grid g = open_map(20, 20);
    fray_area a, b;
    fray_area_aura(&g, F(8, 8, 1), 1, FRAY_AREA_COUNTED, false, &a);
    cr_expect_eq(fray_area_count(&a), 8, "Medium, Aura 1");
    cr_expect(!fray_area_has(&a, Q(8, 8)), "not the source's square");
    fray_area_aura(&g, F(8, 8, 1), 1, FRAY_AREA_COUNTED, true, &a);
    cr_expect_eq(fray_area_count(&a), 9, "with the source");
    fray_area_aura(&g, F(8, 8, 1), 2, FRAY_AREA_COUNTED, false, &a);
    cr_expect_eq(fray_area_count(&a), 20, "Medium, Aura 2");
    fray_area_aura(&g, F(8, 8, 1), 2, FRAY_AREA_COUNTED, true, &a);
    fray_area_burst(&g, Q(8, 8), 2, FRAY_AREA_COUNTED, &b);
    cr_expect_eq(memcmp(&a, &b, sizeof a), 0, "Burst 2 is the Aura 2 shape");

    /* Large at (8,8)-(9,9). */
    fray_area_aura(&g, F(8, 8, 2), 1, FRAY_AREA_COUNTED, false, &a);
    cr_expect_eq(fray_area_count(&a), 12, "Large, Aura 1: the ring");
    cr_expect(fray_area_has(&a, Q(7, 7)) && fray_area_has(&a, Q(10, 10)));
    cr_expect(!fray_area_has(&a, Q(9, 9)));
    fray_area_aura(&g, F(8, 8, 2), 2, FRAY_AREA_COUNTED, false, &a);
    cr_expect_eq(fray_area_count(&a), 28, "Large, Aura 2: 6x6 less corners and source");
    cr_expect(!fray_area_has(&a, Q(6, 6)) && !fray_area_has(&a, Q(11, 11)),
              "two diagonals count 3");
    cr_expect(fray_area_has(&a, Q(6, 7)) && fray_area_has(&a, Q(11, 10)));
    fray_area_aura(&g, F(8, 8, 2), 2, FRAY_AREA_SQUARE, true, &a);
    cr_expect_eq(fray_area_count(&a), 36, "square, with the source");
    /* Every space is in Aura n exactly when its range to the creature is at
     * most n (seed 000 "Determining Ranges"). */
    fray_area_aura(&g, F(3, 4, 3), 4, FRAY_AREA_COUNTED, true, &a);
    for (int y = 0; y < 20; y++)
        for (int x = 0; x < 20; x++)
            cr_assert_eq(fray_area_has(&a, Q(x, y)),
                         fray_grid_range(F(x, y, 1), F(3, 4, 3)) <= 4, "(%d,%d)", x, y);
}

/* ---- Blasts ------------------------------------------------------------------------ */

/* The brute-force reading of seed 004 "Blast Areas": the n x n square does
 * not hold a space of the origin and holds a space beside one. */
static bool blast_touches(fray_footprint o, int n, int cx, int cy) {
    bool touch = false;
    for (int y = cy; y < cy + n; y++)
        for (int x = cx; x < cx + n; x++)
            for (int oy = o.at.y; oy < o.at.y + o.side; oy++)
                for (int ox = o.at.x; ox < o.at.x + o.side; ox++) {
                    int dx = abs(x - ox), dy = abs(y - oy);
                    if (dx == 0 && dy == 0)
                        return false;
                    if (dx <= 1 && dy <= 1)
                        touch = true;
                }
    return touch;
}

/* Seed 004 "Blast Areas", the flamethrower (rulesets-checklists L6 item 1):
 * "a blast 25 ft ... a 25 feet-by-25 feet are[a] adjacent to you ... The
 * origin space is not affected by the blast": 5x5 squares touching the
 * user's square at a side or a corner; around a 1x1 user there are exactly
 * 24 placements (7 along each side, the 4 corner ones shared). */
Test(grid_area, flamethrower_blast_placements) {
    fray_footprint user = F(20, 20, 1);
    fray_pos corners[64];
    int n = fray_area_blast_placements(NULL, user, 5, corners, 64);
    cr_assert_eq(n, 24, "every placement of a 5x5 blast around a 1x1 user");
    /* The same set as a brute-force search, each once. */
    int found = 0;
    for (int cy = 10; cy < 30; cy++)
        for (int cx = 10; cx < 30; cx++) {
            bool legal = blast_touches(user, 5, cx, cy);
            int hits = 0;
            for (int i = 0; i < n; i++)
                hits += corners[i].x == cx && corners[i].y == cy;
            cr_assert_eq(hits, legal ? 1 : 0, "corner (%d,%d)", cx, cy);
            found += legal;
        }
    cr_expect_eq(found, 24);
    /* Reading order of the corners. */
    for (int i = 1; i < n; i++)
        cr_expect(corners[i - 1].y < corners[i].y ||
                  (corners[i - 1].y == corners[i].y && corners[i - 1].x < corners[i].x));
    /* Each placement: 25 spaces, the user's square excluded. */
    fray_grid g = open_map(40, 40);
    for (int i = 0; i < n; i++) {
        fray_area a;
        cr_assert_eq(fray_area_blast(&g, user, 5, corners[i], &a), FRAY_OK);
        cr_expect_eq(fray_area_count(&a), 25);
        cr_expect(!fray_area_has(&a, user.at), "the origin space is not affected");
        cr_expect(fray_area_has(&a, corners[i]));
    }
    cr_expect_eq(fray_area_blast_placements(NULL, user, 5, NULL, 0), 24, "count only");
    cr_expect_eq(fray_area_blast_placements(NULL, user, 1, NULL, 0), 8, "1x1: the 8 neighbours");
    cr_expect_eq(fray_area_blast_placements(NULL, F(20, 20, 2), 5, NULL, 0), 28,
                 "4 (n + side) around a Large user");
    cr_expect_eq(fray_area_blast_placements(NULL, user, 0, NULL, 0), 0);

    /* Illegal placements. */
    fray_area a;
    cr_expect_eq(fray_area_blast(&g, user, 5, Q(18, 18), &a), FRAY_ERR_INVALID,
                 "over the user");
    cr_expect_eq(fray_area_count(&a), 0);
    cr_expect_eq(fray_area_blast(&g, user, 5, Q(22, 20), &a), FRAY_ERR_INVALID,
                 "a space away");
    cr_expect_eq(fray_area_blast(&g, user, 5, Q(21, 21), &a), FRAY_OK, "corner to corner");
    cr_expect_eq(fray_area_blast(&g, user, 5, Q(15, 15), &a), FRAY_OK);
    cr_expect_eq(fray_area_blast(&g, user, 0, Q(21, 21), &a), FRAY_ERR_INVALID);

    /* At the map's edge: placements with no space on the map are left out;
     * the rest are clipped. */
    fray_footprint edge = F(0, 0, 1);
    int on_map = fray_area_blast_placements(&g, edge, 5, corners, 64);
    int want = 0;
    for (int cy = -6; cy < 7; cy++)
        for (int cx = -6; cx < 7; cx++)
            want += blast_touches(edge, 5, cx, cy) && cx + 5 > 0 && cy + 5 > 0;
    cr_expect_eq(on_map, want);
    cr_expect_eq(on_map, 11, "east and south sides, 6 each, (1,1) shared");
    cr_assert_eq(fray_area_blast(&g, edge, 5, Q(-4, 1), &a), FRAY_OK);
    cr_expect_eq(fray_area_count(&a), 5, "clipped to one column");
}

/* Seed 004 "Blast Areas": "A blast affects a target only if the target is
 * in the blast's area and if there is line of effect from the origin to
 * the target" (rulesets-checklists L6 item 1: a target behind a wall inside
 * the square is not affected). */
Test(grid_area, flamethrower_blast_line_of_effect) {
    fray_grid g = open_map(16, 12);
    fray_footprint user = F(5, 5, 1);
    fray_area a;
    cr_assert_eq(fray_area_blast(&g, user, 5, Q(6, 3), &a), FRAY_OK); /* x 6-10, y 3-7 */
    g.terrain[5][8] = FRAY_TERRAIN_WALL;
    fray_footprint behind = F(9, 5, 1), before = F(7, 5, 1), outside = F(11, 5, 1);
    cr_expect(fray_area_has_fp(&a, behind), "inside the square");
    cr_expect(!fray_area_affects(&g, &a, user, behind), "but behind the wall");
    cr_expect(fray_area_affects(&g, &a, user, before));
    cr_expect(!fray_area_affects(&g, &a, user, outside), "outside the blast");
    cr_expect(!fray_area_affects(&g, &a, user, user), "the user is not in its blast");
    /* A window: seen through, not burnt through. */
    g.terrain[5][8] = FRAY_TERRAIN_WINDOW;
    cr_expect(fray_grid_sight(&g, user.at, behind.at));
    cr_expect(!fray_area_affects(&g, &a, user, behind));
    g.terrain[5][8] = FRAY_TERRAIN_PIT;
    cr_expect(fray_area_affects(&g, &a, user, behind), "over a pit");
    g.terrain[5][8] = FRAY_TERRAIN_WALL;
    /* A Large target with one space out of the wall's shadow is affected. */
    cr_expect(fray_area_affects(&g, &a, user, F(9, 5, 2)));
    /* The filter: what the flames reach. */
    fray_area_keep_effect(&g, user, &a);
    cr_expect(!fray_area_has(&a, Q(9, 5)) && !fray_area_has(&a, Q(10, 5)));
    cr_expect(fray_area_has(&a, Q(8, 5)) && fray_area_has(&a, Q(10, 7)));
    int reached = fray_area_count(&a);
    cr_expect_lt(reached, 25);
    for (int y = 3; y <= 7; y++)
        for (int x = 6; x <= 10; x++)
            cr_expect_eq(fray_area_has(&a, Q(x, y)), fray_grid_effect(&g, user.at, Q(x, y)),
                         "(%d,%d)", x, y);
}

/* ---- Walls -------------------------------------------------------------------------- */

/* Seed 004 "Wall Areas": "contiguous spaces ... Each space must be fully
 * adjacent to at least one other space (... share a side, not just a
 * corner). Generally, wall spaces only have two adjacent spaces occupied by
 * the same wall." */
Test(grid_area, walls_valid_and_invalid) {
    fray_grid g = open_map(12, 12);
    int at = 99;
    fray_area a;
    fray_pos straight[] = {{2, 2}, {3, 2}, {4, 2}, {5, 2}, {6, 2}};
    cr_expect_eq(fray_area_wall_check(&g, straight, 5, 5, &at, &a), FRAY_WALL_OK);
    cr_expect_eq(at, -1);
    cr_expect_eq(fray_area_count(&a), 5);
    fray_pos bent[] = {{6, 6}, {2, 4}, {2, 5}, {3, 6}, {2, 6}, {4, 6}, {5, 6}};
    cr_expect_eq(fray_area_wall_check(&g, bent, 7, 7, &at, NULL), FRAY_WALL_OK,
                 "an L, listed in any order");
    fray_pos one[] = {{0, 0}};
    cr_expect_eq(fray_area_wall_check(&g, one, 1, 1, NULL, NULL), FRAY_WALL_OK);
    fray_pos ring[] = {{1, 1}, {2, 1}, {2, 2}, {1, 2}};
    cr_expect_eq(fray_area_wall_check(&g, ring, 4, 4, NULL, NULL), FRAY_WALL_OK,
                 "a closed ring: two neighbours each");

    cr_expect_eq(fray_area_wall_check(&g, straight, 5, 6, &at, NULL), FRAY_WALL_LENGTH);
    cr_expect_eq(at, -1);
    cr_expect_eq(fray_area_wall_check(&g, straight, 0, 0, &at, NULL), FRAY_WALL_LENGTH);
    fray_pos off[] = {{10, 2}, {11, 2}, {12, 2}};
    cr_expect_eq(fray_area_wall_check(&g, off, 3, 3, &at, NULL), FRAY_WALL_OFF_MAP);
    cr_expect_eq(at, 2);
    cr_expect_eq(fray_area_wall_check(NULL, off, 3, 3, &at, NULL), FRAY_WALL_OK,
                 "no map: only the 64x64 range");
    fray_pos twice[] = {{1, 1}, {2, 1}, {1, 1}};
    cr_expect_eq(fray_area_wall_check(&g, twice, 3, 3, &at, NULL), FRAY_WALL_REPEATED);
    cr_expect_eq(at, 2);
    fray_pos diagonal[] = {{1, 1}, {2, 1}, {3, 2}};
    cr_expect_eq(fray_area_wall_check(&g, diagonal, 3, 3, &at, NULL), FRAY_WALL_DETACHED,
                 "a corner is not enough");
    cr_expect_eq(at, 2);
    fray_pos tee[] = {{0, 1}, {1, 1}, {2, 1}, {1, 0}};
    cr_expect_eq(fray_area_wall_check(&g, tee, 4, 4, &at, NULL), FRAY_WALL_BRANCHED);
    cr_expect_eq(at, 1);
    fray_pos block[] = {{1, 1}, {2, 1}, {3, 1}, {1, 2}, {2, 2}, {3, 2}};
    cr_expect_eq(fray_area_wall_check(&g, block, 6, 6, &at, NULL), FRAY_WALL_BRANCHED,
                 "a 3x2 block");
    cr_expect_eq(at, 1);
    fray_pos split[] = {{0, 0}, {1, 0}, {5, 5}, {6, 5}};
    cr_expect_eq(fray_area_wall_check(&g, split, 4, 4, &at, NULL), FRAY_WALL_SPLIT);
    cr_expect_eq(at, -1);
    for (int f = FRAY_WALL_OK; f <= FRAY_WALL_SPLIT; f++)
        cr_expect_str_neq(fray_wall_fault_name((fray_wall_fault)f), "?");
    cr_expect_str_eq(fray_wall_fault_name((fray_wall_fault)99), "?");
}

/* ---- Lines and cones (seed 000 "Line X", "Cone X") ------------------------------------- */

/* Seed 000 "Line X": "a sequence of spaces adjacent either orthogonally or
 * diagonally. The target square is at one end of the line". */
Test(grid_area, lines) {
    fray_grid g = open_map(12, 12);
    fray_area a;
    cr_expect_eq(fray_area_line(&g, Q(5, 5), Q(10, 5), 3, false, &a), 3);
    cr_expect(fray_area_has(&a, Q(6, 5)) && fray_area_has(&a, Q(8, 5)));
    cr_expect(!fray_area_has(&a, Q(5, 5)));
    cr_expect_eq(fray_area_line(&g, Q(5, 5), Q(6, 6), 3, false, &a), 3, "past the target");
    cr_expect(fray_area_has(&a, Q(6, 6)) && fray_area_has(&a, Q(7, 7)) &&
              fray_area_has(&a, Q(8, 8)));
    /* (0,0) towards (2,1): the centre line passes (1, 0.5) exactly; a tie
     * keeps the origin's row. */
    cr_expect_eq(fray_area_line(&g, Q(0, 0), Q(2, 1), 4, true, &a), 4);
    fray_pos want[] = {{0, 0}, {1, 0}, {2, 1}, {3, 1}};
    for (int i = 0; i < 4; i++)
        cr_expect(fray_area_has(&a, want[i]), "(%d,%d)", want[i].x, want[i].y);
    cr_expect_eq(fray_area_line(&g, Q(5, 5), Q(9, 5), 10, false, &a), 6,
                 "stops at the map's edge");
    cr_expect_eq(fray_area_line(&g, Q(5, 5), Q(5, 5), 3, true, &a), 1);
    cr_expect_eq(fray_area_line(&g, Q(5, 5), Q(5, 5), 3, false, &a), 0);
    cr_expect_eq(fray_area_line(&g, Q(5, 5), Q(9, 5), 0, true, &a), 0);
    /* Any direction: n spaces, each beside the last, one per step along
     * the longer axis. */
    for (int ty = 0; ty < 12; ty++)
        for (int tx = 0; tx < 12; tx++) {
            if (tx == 6 && ty == 6)
                continue;
            int n = fray_area_line(&g, Q(6, 6), Q(tx, ty), 5, true, &a);
            cr_assert_eq(n, fray_area_count(&a));
            int adx = abs(tx - 6), ady = abs(ty - 6);
            int major = adx > ady ? adx : ady;
            /* Every space of the line at distance i (Chebyshev) is unique. */
            int per_ring[8] = {0};
            int cur = 0;
            fray_pos p;
            while (fray_area_next(&a, &cur, &p)) {
                int dx = abs(p.x - 6), dy = abs(p.y - 6);
                int ring = dx > dy ? dx : dy;
                cr_assert_lt(ring, 8);
                per_ring[ring]++;
            }
            for (int r = 0; r < n; r++)
                cr_assert_eq(per_ring[r], 1, "towards (%d,%d) ring %d", tx, ty, r);
            cr_assert(fray_area_has(&a, Q(tx, ty)) || major >= n,
                      "the target is on its line");
        }
}

/* Seed 000 "Cone X" gives no shape; fray's reading (grid.h): the spaces
 * within X whose direction lies within 45 degrees of the aim. */
Test(grid_area, cones) {
    fray_grid g = open_map(20, 20);
    fray_area a;
    fray_area_cone(&g, Q(10, 10), Q(15, 10), 3, FRAY_AREA_COUNTED, &a);
    cr_expect_eq(fray_area_count(&a), 11, "3 + 5 + 3");
    cr_expect(!fray_area_has(&a, Q(10, 10)), "not the origin");
    cr_expect(fray_area_has(&a, Q(11, 11)) && fray_area_has(&a, Q(12, 8)),
              "the 45-degree edges are in");
    cr_expect(!fray_area_has(&a, Q(11, 12)) && !fray_area_has(&a, Q(13, 12)));
    cr_expect(!fray_area_has(&a, Q(9, 10)), "not behind");
    fray_area_cone(&g, Q(10, 10), Q(15, 10), 3, FRAY_AREA_SQUARE, &a);
    cr_expect_eq(fray_area_count(&a), 15, "3 + 5 + 7 with square counting");
    fray_area_cone(&g, Q(10, 10), Q(11, 11), 3, FRAY_AREA_COUNTED, &a);
    cr_expect_eq(fray_area_count(&a), 12, "diagonal: the quarter of Burst 3");
    fray_area_cone(&g, Q(10, 10), Q(12, 11), 2, FRAY_AREA_COUNTED, &a);
    /* Aim (2,1): within 45 degrees are (1,0), (2,0), (1,1), (2,1), but
     * (0,1)... at 63 degrees is out, and (1,-1) at 71 degrees too. */
    cr_expect(fray_area_has(&a, Q(11, 10)) && fray_area_has(&a, Q(12, 11)) &&
              fray_area_has(&a, Q(11, 11)));
    cr_expect(!fray_area_has(&a, Q(10, 11)) && !fray_area_has(&a, Q(11, 9)));
    fray_area_cone(&g, Q(10, 10), Q(10, 10), 3, FRAY_AREA_COUNTED, &a);
    cr_expect_eq(fray_area_count(&a), 0);
}

/* ---- Flanking ---------------------------------------------------------------------- */

/* Seed 004 "Flanking": "you and an ally must be adjacent to the enemy and
 * on opposite sides or corners of the enemy's space ... trace an imaginary
 * line between the centers of the characters' squares". */
Test(grid_area, flanking_opposite_sides_and_corners) {
    fray_grid g = open_map(12, 12);
    fray_footprint e = F(5, 5, 1);
    cr_expect(fray_grid_flanks(&g, e, F(4, 5, 1), F(6, 5, 1)), "west and east");
    cr_expect(fray_grid_flanks(&g, e, F(5, 4, 1), F(5, 6, 1)), "north and south");
    cr_expect(fray_grid_flanks(&g, e, F(4, 4, 1), F(6, 6, 1)), "opposite corners");
    cr_expect(fray_grid_flanks(&g, e, F(6, 4, 1), F(4, 6, 1)), "the other corners");
    cr_expect(!fray_grid_flanks(&g, e, F(5, 4, 1), F(6, 5, 1)), "at right angles");
    cr_expect(!fray_grid_flanks(&g, e, F(4, 4, 1), F(6, 4, 1)), "two corners of one side");
    cr_expect(!fray_grid_flanks(&g, e, F(4, 4, 1), F(6, 5, 1)), "corner and side");
    cr_expect(!fray_grid_flanks(&g, e, F(3, 5, 1), F(6, 5, 1)), "one not adjacent");
    /* Around a Medium enemy exactly the four opposite pairs flank, in
     * either order. */
    int pairs = 0;
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++) {
            if (i == 4 || j == 4 || i == j)
                continue;
            fray_footprint a = F(4 + i % 3, 4 + i / 3, 1), b = F(4 + j % 3, 4 + j / 3, 1);
            bool f = fray_grid_flanks(&g, e, a, b);
            cr_assert_eq(f, fray_grid_flanks(&g, e, b, a));
            cr_assert_eq(f, i + j == 8, "pair %d %d", i, j);
            pairs += f;
        }
    cr_expect_eq(pairs, 8, "4 unordered pairs");
}

/* Seed 004 "Flanking", "Able to Attack": "If there's no line of effect
 * between your enemy and either you or your ally, you don't flank." */
Test(grid_area, flanking_needs_line_of_effect) {
    fray_grid g = open_map(12, 12);
    fray_footprint e = F(5, 5, 1);
    cr_assert_eq(fray_grid_set_edge(&g, Q(4, 5), Q(5, 5), FRAY_EDGE_WALL), FRAY_OK);
    cr_expect(!fray_grid_flanks(&g, e, F(4, 5, 1), F(6, 5, 1)), "a wall between");
    cr_assert_eq(fray_grid_set_edge(&g, Q(4, 5), Q(5, 5), FRAY_EDGE_LOW), FRAY_OK);
    cr_expect(fray_grid_flanks(&g, e, F(4, 5, 1), F(6, 5, 1)), "a low wall does not stop it");
    /* Between two diagonal windows the corner is closed to effects. */
    g.terrain[4][5] = FRAY_TERRAIN_WINDOW;
    g.terrain[5][4] = FRAY_TERRAIN_WINDOW;
    cr_expect(!fray_grid_flanks(&g, e, F(4, 4, 1), F(6, 6, 1)));
    cr_expect(fray_grid_sight(&g, Q(4, 4), Q(5, 5)), "though it sees the enemy");
}

/* Seed 004 "Flanking", "Big Opponents: If an opponent takes up an
 * unusually large area, all the area it takes up counts for flanking." */
Test(grid_area, flanking_a_large_enemy) {
    fray_grid g = open_map(12, 12);
    fray_footprint e = F(5, 5, 2); /* (5,5)-(6,6) */
    cr_expect(fray_grid_flanks(&g, e, F(4, 5, 1), F(7, 5, 1)), "west and east, one row");
    cr_expect(fray_grid_flanks(&g, e, F(4, 5, 1), F(7, 6, 1)), "west and east, other rows");
    cr_expect(fray_grid_flanks(&g, e, F(5, 4, 1), F(6, 7, 1)), "north and south");
    cr_expect(fray_grid_flanks(&g, e, F(4, 4, 1), F(7, 7, 1)), "opposite corners");
    cr_expect(fray_grid_flanks(&g, e, F(7, 4, 1), F(4, 7, 1)));
    cr_expect(!fray_grid_flanks(&g, e, F(5, 4, 1), F(7, 5, 1)), "at right angles");
    cr_expect(!fray_grid_flanks(&g, e, F(4, 4, 1), F(7, 6, 1)),
              "a corner and the far side: in by the top, out by the east");
    cr_expect(!fray_grid_flanks(&g, e, F(4, 4, 1), F(4, 7, 1)), "both on the west");
    /* A Huge enemy, allies in its middle rows. */
    cr_expect(fray_grid_flanks(&g, F(4, 4, 3), F(3, 5, 1), F(7, 5, 1)));
    /* Big allies: a Large ally beside a Medium enemy flanks with one
     * across from one of its squares. */
    cr_expect(fray_grid_flanks(&g, F(5, 5, 1), F(3, 5, 2), F(6, 5, 1)));
    cr_expect(fray_grid_flanks(&g, F(5, 5, 1), F(3, 5, 2), F(6, 4, 1)),
              "from the Large ally's lower square, corner to corner");
    cr_expect(!fray_grid_flanks(&g, F(5, 5, 1), F(3, 5, 2), F(6, 7, 1)), "not adjacent");
    cr_expect(!fray_grid_flanks(&g, F(5, 5, 1), F(5, 5, 1), F(6, 5, 1)), "overlapping");
}

/* A second reading of "passes through opposite sides or corners", for a
 * check: the centre segment meets both west and east sides of the enemy's
 * square (closed segments, corners included), or both north and south
 * ones. A straight segment meets a square's outline at most twice, so
 * that is entering by one and leaving by the other. Orientation tests in
 * half spaces. */
static long orient(long ax, long ay, long bx, long by, long cx, long cy) {
    long v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    return (v > 0) - (v < 0);
}

static bool meets(const long p[4], long qx0, long qy0, long qx1, long qy1) {
    long o1 = orient(p[0], p[1], p[2], p[3], qx0, qy0);
    long o2 = orient(p[0], p[1], p[2], p[3], qx1, qy1);
    long o3 = orient(qx0, qy0, qx1, qy1, p[0], p[1]);
    long o4 = orient(qx0, qy0, qx1, qy1, p[2], p[3]);
    return o1 * o2 <= 0 && o3 * o4 <= 0;
}

Test(grid_area, flanking_matches_a_second_reading) {
    fray_grid g = open_map(20, 20);
    for (int n = 1; n <= 4; n++) {
        fray_footprint e = F(8, 8, n);
        long L = 16, R = 2 * (8 + n), T = 16, B = 2 * (8 + n);
        int flanking = 0;
        for (int ay = 7; ay <= 8 + n; ay++)
            for (int ax = 7; ax <= 8 + n; ax++)
                for (int by = 7; by <= 8 + n; by++)
                    for (int bx = 7; bx <= 8 + n; bx++) {
                        bool a_in = ax >= 8 && ax < 8 + n && ay >= 8 && ay < 8 + n;
                        bool b_in = bx >= 8 && bx < 8 + n && by >= 8 && by < 8 + n;
                        if (a_in || b_in || (ax == bx && ay == by))
                            continue;
                        long seg[4] = {2 * ax + 1, 2 * ay + 1, 2 * bx + 1, 2 * by + 1};
                        bool want = (meets(seg, L, T, L, B) && meets(seg, R, T, R, B)) ||
                                    (meets(seg, L, T, R, T) && meets(seg, L, B, R, B));
                        cr_assert_eq(fray_grid_flanks(&g, e, F(ax, ay, 1), F(bx, by, 1)),
                                     want, "side %d: (%d,%d) and (%d,%d)", n, ax, ay, bx, by);
                        flanking += want;
                    }
        if (n == 1)
            cr_expect_eq(flanking, 8);
    }
}
