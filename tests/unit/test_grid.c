/* test_grid.c - the tactical map (99 Towers, seed 000 "Tactical Map":
 * "Counting Spaces", "Creature Sizes", "Moving Through Spaces", "Cutting
 * Corners", "Terrain Types", "Line of Sight", "Determining Ranges"; "Cover";
 * "Opportunity Attacks"). */
#include <criterion/criterion.h>

#include <stdio.h>
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

/* ---- Maps drawn in the tests ------------------------------------------------- */

/* Creatures in the art: '@' the mover, 'A' an ally, 'E' a non-ally, 'P' an
 * incapacitated non-ally. */
enum { ID_SELF = 1, ID_ALLY, ID_ENEMY, ID_PASSABLE };

typedef struct world {
    fray_grid g;
    fray_occupant occ[FRAY_GRID_MAX][FRAY_GRID_MAX];
    fray_pos self;
    fray_reach_map reach;
} world;

static fray_occupant world_occ(void *ctx, fray_pos p) {
    const world *w = ctx;
    cr_assert(fray_grid_in(&w->g, p), "the callback only sees spaces of the map");
    return w->occ[p.y][p.x];
}

/* The caller frees the world. */
static world *world_parse(const char *art) {
    static const fray_grid_legend_entry legend[] = {
        {'@', true, ID_SELF, FRAY_TERRAIN_OPEN, 0},
        {'A', true, ID_ALLY, FRAY_TERRAIN_OPEN, 0},
        {'E', true, ID_ENEMY, FRAY_TERRAIN_OPEN, 0},
        {'P', true, ID_PASSABLE, FRAY_TERRAIN_OPEN, 0},
    };
    world *w = calloc(1, sizeof *w);
    cr_assert(w);
    fray_grid_placement pl[64];
    int n = -1;
    fray_diag diag = {0};
    cr_assert_eq(fray_grid_parse(art, legend, 4, &w->g, pl, 64, &n, &diag),
                 FRAY_OK, "%s", diag.message);
    for (int i = 0; i < n; i++) {
        fray_occupant o = FRAY_OCC_EMPTY;
        switch (pl[i].placement_id) {
        case ID_SELF:
            o = FRAY_OCC_SELF;
            w->self = pl[i].at;
            break;
        case ID_ALLY:
            o = FRAY_OCC_ALLY;
            break;
        case ID_ENEMY:
            o = FRAY_OCC_ENEMY;
            break;
        case ID_PASSABLE:
            o = FRAY_OCC_PASSABLE;
            break;
        }
        w->occ[pl[i].at.y][pl[i].at.x] = o;
    }
    return w;
}

/* Cost from the '@' (a 1x1 mover) to (x, y), exploring up to max_cost. */
static int cost_to(world *w, int max_cost, int x, int y) {
    fray_grid_reach(&w->g, F(w->self.x, w->self.y, 1), 0, max_cost, world_occ, w,
                    &w->reach);
    return w->reach.cost[y][x];
}

/* ---- Counting spaces, ranges, adjacency --------------------------------------------- */

/* Seed "Counting Spaces": the first diagonal counts 1, the next 2, and so
 * on; orthogonal spaces count 1. */
Test(grid, count_diagonals_alternate_1_2) {
    int want[] = {0, 1, 3, 4, 6, 7, 9};
    for (int d = 0; d <= 6; d++) {
        cr_expect_eq(fray_grid_count(Q(0, 0), Q(d, d)), want[d], "%d diagonals", d);
        cr_expect_eq(fray_grid_count(Q(10, 10), Q(10 - d, 10 + d)), want[d],
                     "any diagonal direction");
    }
    cr_expect_eq(fray_grid_count(Q(3, 4), Q(3, 9)), 5, "orthogonal spaces count 1");
    cr_expect_eq(fray_grid_count(Q(0, 0), Q(5, 2)), 6, "5 across and 2 down: 3 + 1 + 2");
    cr_expect_eq(fray_grid_count(Q(0, 0), Q(2, 5)), 6);
    cr_expect_eq(fray_grid_count(Q(7, 1), Q(7, 1)), 0);
}

/* Seed "Counting Spaces", its example: after two straight spaces (count 2)
 * the first diagonal takes the count from 2 to 3; after one more straight
 * space (4) the next diagonal costs 2 and takes it from 4 to 6; the next
 * goes back to 1 (6 to 7). The parity carries across straight steps. A
 * corridor forces that path; the '~' beside each diagonal keeps it legal
 * (seed "Cutting Corners") without offering a cheaper way. */
Test(grid, seed_counting_example_path) {
    world *w = world_parse("@..~###\n"
                           "###..~#\n"
                           "#####.~\n"
                           "######.\n");
    fray_grid_reach(&w->g, F(0, 0, 1), 0, 20, world_occ, w, &w->reach);
    struct {
        int x, y, cost, parity;
    } along[] = {{1, 0, 1, 0}, {2, 0, 2, 0}, {3, 1, 3, 1},
                 {4, 1, 4, 1}, {5, 2, 6, 0}, {6, 3, 7, 1}};
    for (size_t i = 0; i < sizeof along / sizeof along[0]; i++) {
        cr_expect_eq(w->reach.cost[along[i].y][along[i].x], along[i].cost,
                     "(%d,%d)", along[i].x, along[i].y);
        cr_expect_eq(w->reach.parity[along[i].y][along[i].x], along[i].parity,
                     "(%d,%d)", along[i].x, along[i].y);
    }
    fray_pos path[16];
    cr_assert_eq(fray_grid_path(&w->reach, Q(6, 3), path, 16), 6);
    for (int i = 0; i < 6; i++) {
        cr_expect_eq(path[i].x, along[i].x, "step %d", i);
        cr_expect_eq(path[i].y, along[i].y, "step %d", i);
    }
    /* Seed "Shift Position": a shift combined with a move is one move, so
     * a caller whose shift was diagonal starts at parity 1. */
    fray_grid_reach(&w->g, F(0, 0, 1), 1, 20, world_occ, w, &w->reach);
    cr_expect_eq(w->reach.cost[1][3], 4, "the first diagonal now costs 2");
    cr_expect_eq(w->reach.cost[2][5], 6);
    cr_expect_eq(w->reach.cost[3][6], 8);
    free(w);
}

/* Seed "Creature Sizes". */
Test(grid, side_for_size) {
    int want[] = {1, 1, 1, 1, 1, 2, 3, 4, 5};
    for (int rank = -4; rank <= 4; rank++)
        cr_expect_eq(fray_grid_side_for_size(rank), want[rank + 4], "rank %d", rank);
    cr_expect_eq(fray_grid_side_for_size(9), 5);
    cr_expect_eq(fray_grid_side_for_size(-9), 1);
}

/* Seed "Tactical Map" (spaces are adjacent if a side or corner touches) and
 * "Determining Ranges" (counting from a space adjacent to the attacker to
 * one of the target's spaces: adjacent creatures are at range 1). */
Test(grid, adjacency_and_range) {
    cr_expect(fray_grid_adjacent(F(3, 3, 1), F(4, 3, 1)), "a side touches");
    cr_expect(fray_grid_adjacent(F(3, 3, 1), F(2, 2, 1)), "a corner touches");
    cr_expect(!fray_grid_adjacent(F(3, 3, 1), F(5, 3, 1)));
    cr_expect(!fray_grid_adjacent(F(3, 3, 1), F(3, 3, 1)), "the same space");
    cr_expect_eq(fray_grid_range(F(3, 3, 1), F(2, 2, 1)), 1);

    /* A Large (2x2) creature at (0,0)-(1,1). */
    cr_expect(fray_grid_adjacent(F(0, 0, 2), F(2, 2, 1)), "its corner touches");
    cr_expect_eq(fray_grid_range(F(0, 0, 2), F(2, 2, 1)), 1);
    cr_expect_eq(fray_grid_range(F(2, 2, 1), F(0, 0, 2)), 1, "range is symmetric");
    cr_expect(fray_grid_adjacent(F(0, 0, 2), F(2, 1, 2)));
    cr_expect_eq(fray_grid_range(F(0, 0, 2), F(2, 1, 2)), 1, "two Large creatures");
    cr_expect_eq(fray_grid_range(F(0, 0, 2), F(5, 1, 2)), 4);
    cr_expect_eq(fray_grid_range(F(0, 0, 2), F(3, 3, 1)), 3, "2 diagonals: 1 + 2");
    cr_expect(!fray_grid_adjacent(F(0, 0, 2), F(3, 3, 1)));
    cr_expect(!fray_grid_adjacent(F(0, 0, 2), F(1, 1, 1)), "overlapping");
    cr_expect_eq(fray_grid_range(F(0, 0, 2), F(1, 1, 1)), 0);
    /* A Huge (3x3) creature around a Medium one's corner. */
    cr_expect_eq(fray_grid_range(F(4, 4, 3), F(3, 7, 1)), 1);

    /* Seed "Opportunity Attacks": a creature threatens the spaces adjacent
     * to it (reach 1); a Reach weapon one further. */
    cr_expect(fray_grid_within(F(0, 0, 2), F(2, 2, 1), 1));
    cr_expect(!fray_grid_within(F(0, 0, 1), F(2, 2, 1), 1));
    cr_expect(fray_grid_within(F(0, 0, 1), F(2, 0, 1), 2));
    cr_expect(!fray_grid_within(F(0, 0, 1), F(2, 2, 1), 2), "2 diagonals count 3");
}

/* ---- Line of sight ----------------------------------------------------------------- */

/* Seed "Line of Sight" and "Terrain Types": blocking terrain blocks the
 * line; windows and portcullises (gaps to see through) do not. */
Test(grid, sight_walls_block_windows_do_not) {
    fray_grid g;
    fray_grid_init(&g, 6, 3);
    cr_expect(fray_grid_sight(&g, Q(0, 1), Q(5, 1)));
    g.terrain[1][2] = FRAY_TERRAIN_WALL;
    cr_expect(!fray_grid_sight(&g, Q(0, 1), Q(5, 1)), "a wall in between");
    cr_expect(!fray_grid_sight(&g, Q(5, 1), Q(0, 1)), "both ways");
    g.terrain[1][2] = FRAY_TERRAIN_WINDOW;
    cr_expect(fray_grid_sight(&g, Q(0, 1), Q(5, 1)), "a window");
    g.terrain[1][2] = FRAY_TERRAIN_PIT;
    cr_expect(fray_grid_sight(&g, Q(0, 1), Q(5, 1)), "a pit");
    g.terrain[1][2] = FRAY_TERRAIN_OPEN;

    cr_assert_eq(fray_grid_set_edge(&g, Q(3, 1), Q(4, 1), FRAY_EDGE_WALL), FRAY_OK);
    cr_expect(!fray_grid_sight(&g, Q(0, 1), Q(5, 1)), "a wall between spaces");
    cr_expect(fray_grid_sight(&g, Q(0, 1), Q(3, 1)), "short of the wall edge");
    cr_assert_eq(fray_grid_set_edge(&g, Q(4, 1), Q(3, 1), FRAY_EDGE_LOW), FRAY_OK);
    cr_expect(fray_grid_sight(&g, Q(0, 1), Q(5, 1)), "a low wall does not block");

    /* The spaces at the two ends never block. */
    g.terrain[1][5] = FRAY_TERRAIN_WALL;
    cr_expect(fray_grid_sight(&g, Q(0, 1), Q(5, 1)));
    cr_expect(!fray_grid_sight(&g, Q(0, 1), Q(6, 1)), "off the map");
    cr_expect(fray_grid_sight(&g, Q(2, 2), Q(2, 2)));
}

/* Seed "Line of Sight": the line runs centre to centre; fray's corner
 * ruling (grid.h): touching a single wall's corner does not block, passing
 * between two blocking things that meet at the point does. */
Test(grid, sight_through_corner_points) {
    fray_grid g;
    fray_grid_init(&g, 5, 5);
    /* (0,0) -> (2,2) passes exactly through the corner points (1,1) and (2,2). */
    g.terrain[0][1] = FRAY_TERRAIN_WALL;
    cr_expect(fray_grid_sight(&g, Q(0, 0), Q(2, 2)), "grazing one wall's corner");
    g.terrain[1][0] = FRAY_TERRAIN_WALL;
    cr_expect(!fray_grid_sight(&g, Q(0, 0), Q(2, 2)), "between two diagonal walls");
    g.terrain[0][1] = FRAY_TERRAIN_OPEN;
    g.terrain[1][0] = FRAY_TERRAIN_OPEN;

    /* Wall edges meeting at the corner point (2,2) in space units. */
    cr_assert_eq(fray_grid_set_edge(&g, Q(1, 1), Q(2, 1), FRAY_EDGE_WALL), FRAY_OK);
    cr_expect(fray_grid_sight(&g, Q(0, 0), Q(3, 3)), "the end of one wall edge");
    cr_assert_eq(fray_grid_set_edge(&g, Q(1, 2), Q(2, 2), FRAY_EDGE_WALL), FRAY_OK);
    cr_expect(!fray_grid_sight(&g, Q(0, 0), Q(3, 3)), "a straight run of wall edges");
    cr_expect(!fray_grid_sight(&g, Q(3, 3), Q(0, 0)));
    cr_assert_eq(fray_grid_set_edge(&g, Q(1, 2), Q(2, 2), FRAY_EDGE_NONE), FRAY_OK);
    cr_assert_eq(fray_grid_set_edge(&g, Q(1, 1), Q(1, 2), FRAY_EDGE_WALL), FRAY_OK);
    cr_expect(!fray_grid_sight(&g, Q(0, 0), Q(3, 3)),
              "out through the corner where a space's two walls meet");
}

/* Seed "Line of Sight": a creature taking up several spaces traces sight
 * from the centre of any space it occupies. */
Test(grid, sight_from_any_space_of_a_large_creature) {
    fray_grid g;
    fray_grid_init(&g, 6, 4);
    g.terrain[0][2] = FRAY_TERRAIN_WALL;
    /* A Large creature at (0,0)-(1,1); a target at (4,0) behind the wall. */
    cr_expect(!fray_grid_sight(&g, Q(0, 0), Q(4, 0)));
    cr_expect(!fray_grid_sight(&g, Q(1, 0), Q(4, 0)));
    cr_expect(!fray_grid_sight(&g, Q(0, 1), Q(4, 0)));
    cr_expect(fray_grid_sight(&g, Q(1, 1), Q(4, 0)), "past the wall's corner");
    cr_expect(fray_grid_sight_fp(&g, F(0, 0, 2), F(4, 0, 1)));
    cr_expect(fray_grid_sight_fp(&g, F(4, 0, 1), F(0, 0, 2)), "and back");
    cr_expect(!fray_grid_sight_fp(&g, F(0, 0, 1), F(4, 0, 1)), "a Medium one cannot");
    cr_expect(!fray_grid_sight_fp(&g, F(0, 0, 1), F(3, 0, 1)));
}

/* Seed "Cover" (intervening characters): the spaces a line passes through. */
Test(grid, line_spaces) {
    fray_pos out[8];
    cr_assert_eq(fray_grid_line_spaces(Q(0, 0), Q(4, 0), out, 8), 3);
    for (int i = 0; i < 3; i++) {
        cr_expect_eq(out[i].x, i + 1);
        cr_expect_eq(out[i].y, 0);
    }
    /* A diagonal only touches the spaces beside it at corner points. */
    cr_assert_eq(fray_grid_line_spaces(Q(3, 3), Q(0, 0), out, 8), 2);
    cr_expect(out[0].x == 2 && out[0].y == 2);
    cr_expect(out[1].x == 1 && out[1].y == 1);
    /* (0.5,0.5) -> (2.5,1.5) crosses x=1 at y=0.75, y=1 at x=1.5. */
    cr_assert_eq(fray_grid_line_spaces(Q(0, 0), Q(2, 1), out, 8), 2);
    cr_expect(out[0].x == 1 && out[0].y == 0);
    cr_expect(out[1].x == 1 && out[1].y == 1);
    cr_expect_eq(fray_grid_line_spaces(Q(0, 0), Q(1, 1), out, 8), 0, "adjacent");
    cr_expect_eq(fray_grid_line_spaces(Q(0, 0), Q(9, 0), out, 4), 4, "at most max");
    cr_expect_eq(fray_grid_line_spaces(Q(-1, 0), Q(9, 0), out, 4), 0);
}

/* ---- Cover ---------------------------------------------------------------------- */

/* Seed "Cover": soft when part of the target is hidden, hard when more than
 * half, total when no line can be drawn (fray's ruling, grid.h). */
Test(grid, cover_behind_walls) {
    fray_grid g;
    fray_grid_init(&g, 8, 8);
    cr_expect_eq(fray_grid_cover(&g, F(0, 0, 1), F(3, 5, 1)), FRAY_COVER_NONE);

    /* Each wall alone hides one side of the target from (0,0): soft. */
    g.terrain[5][2] = FRAY_TERRAIN_WALL;
    cr_expect_eq(fray_grid_cover(&g, F(0, 0, 1), F(3, 5, 1)), FRAY_COVER_SOFT);
    g.terrain[5][2] = FRAY_TERRAIN_OPEN;
    g.terrain[2][2] = FRAY_TERRAIN_WALL;
    cr_expect_eq(fray_grid_cover(&g, F(0, 0, 1), F(3, 5, 1)), FRAY_COVER_SOFT);
    /* Both: the target is seen only through the gap between them. */
    g.terrain[5][2] = FRAY_TERRAIN_WALL;
    cr_expect(fray_grid_sight(&g, Q(0, 0), Q(3, 5)));
    cr_expect_eq(fray_grid_cover(&g, F(0, 0, 1), F(3, 5, 1)), FRAY_COVER_HARD);

    /* Peeking past a wall's corner (the centre line grazes the corner). */
    fray_grid_init(&g, 6, 6);
    g.terrain[1][2] = FRAY_TERRAIN_WALL;
    cr_expect_eq(fray_grid_cover(&g, F(0, 0, 1), F(3, 3, 1)), FRAY_COVER_SOFT);

    /* Fully behind a wall. */
    fray_grid_init(&g, 6, 5);
    g.terrain[2][2] = FRAY_TERRAIN_WALL;
    cr_expect_eq(fray_grid_cover(&g, F(0, 2, 1), F(4, 2, 1)), FRAY_COVER_TOTAL);
    /* A Large attacker at (0,2)-(1,3) looks past it from its lower spaces. */
    cr_expect_eq(fray_grid_cover(&g, F(0, 2, 2), F(4, 2, 1)), FRAY_COVER_SOFT);
    /* A window hides nothing. */
    g.terrain[2][2] = FRAY_TERRAIN_WINDOW;
    cr_expect_eq(fray_grid_cover(&g, F(0, 2, 1), F(4, 2, 1)), FRAY_COVER_NONE);
    cr_expect_eq(fray_grid_cover(&g, F(4, 2, 1), F(4, 2, 1)), FRAY_COVER_NONE);
    cr_expect_str_eq(fray_cover_name(FRAY_COVER_HARD), "hard");
}

/* Seed "Cover" and "Terrain Types" (short walls): a low wall right in front
 * of the target hides more than half of it; one in front of the attacker
 * does not (it shoots over it). */
Test(grid, cover_behind_a_low_wall) {
    fray_grid g;
    fray_grid_init(&g, 6, 5);
    cr_assert_eq(fray_grid_set_edge(&g, Q(3, 2), Q(4, 2), FRAY_EDGE_LOW), FRAY_OK);
    cr_expect(fray_grid_sight(&g, Q(0, 2), Q(4, 2)));
    cr_expect_eq(fray_grid_cover(&g, F(0, 2, 1), F(4, 2, 1)), FRAY_COVER_HARD);
    cr_expect_eq(fray_grid_cover(&g, F(4, 2, 1), F(0, 2, 1)), FRAY_COVER_NONE,
                 "the one behind the wall shoots over it");
    cr_expect_eq(fray_grid_cover(&g, F(3, 2, 1), F(4, 2, 1)), FRAY_COVER_NONE,
                 "both at the wall");
    cr_assert_eq(fray_grid_set_edge(&g, Q(3, 2), Q(4, 2), FRAY_EDGE_WALL), FRAY_OK);
    cr_expect_eq(fray_grid_cover(&g, F(0, 2, 1), F(4, 2, 1)), FRAY_COVER_TOTAL);
}

/* ---- Movement ------------------------------------------------------------------- */

/* Seed "Tactical Map" (movement uses SPD): a 5-SPD creature cannot reach a
 * space 6 away; the path to one 5 away is rebuilt step by step. */
Test(grid, reach_limit_and_path) {
    world *w = world_parse("@.........\n"
                           "..........\n"
                           "..........\n");
    cr_expect_eq(cost_to(w, 5, 6, 0), -1, "6 away");
    cr_expect_eq(w->reach.cost[0][5], 5);
    cr_expect_eq(w->reach.cost[2][5], -1, "5 across, 2 down: 3 + 1 + 2");
    cr_expect_eq(w->reach.cost[0][0], 0);
    cr_expect(w->reach.can_stop[0][0]);
    cr_expect_eq(w->reach.cost[2][4], 5, "4 across, 2 down: 1 + 2 + 2");
    cr_expect_eq(w->reach.cost[2][7], -1, "7 across, 2 down: 8");
    fray_pos path[8];
    cr_assert_eq(fray_grid_path(&w->reach, Q(5, 0), path, 8), 5);
    for (int i = 0; i < 5; i++)
        cr_expect(path[i].x == i + 1 && path[i].y == 0, "step %d", i);
    cr_expect_eq(fray_grid_path(&w->reach, Q(5, 0), path, 2), 2, "the first two");
    cr_expect(path[1].x == 2 && path[1].y == 0);
    cr_expect_eq(fray_grid_path(&w->reach, Q(6, 0), path, 8), 0, "out of reach");
    cr_expect_eq(fray_grid_path(&w->reach, Q(0, 0), path, 8), 0, "the start");
    cr_expect_eq(fray_grid_path(&w->reach, Q(40, 0), path, 8), 0, "off the map");
    /* The path's steps add up to the cost. */
    cr_assert_eq(fray_grid_path(&w->reach, Q(4, 2), path, 8), 4);
    cr_expect(path[3].x == 4 && path[3].y == 2);
    free(w);
}

/* Seed "Cutting Corners": a wall and a non-ally diagonal to each other stop
 * the move from 1 to 2; two diagonal non-allies stop it from 1 to 3; as
 * allies, or incapacitated non-allies, they do not. */
Test(grid, cutting_corners_wall_and_non_ally) {
    world *w = world_parse(".E.\n"
                           ".@#\n");
    cr_expect_eq(cost_to(w, 10, 2, 0), -1, "wall + non-ally");
    w->occ[0][1] = FRAY_OCC_ALLY;
    cr_expect_eq(cost_to(w, 10, 2, 0), 1, "wall + ally");
    w->occ[0][1] = FRAY_OCC_PASSABLE;
    cr_expect_eq(cost_to(w, 10, 2, 0), 1, "wall + incapacitated non-ally");
    w->occ[0][1] = FRAY_OCC_EMPTY;
    w->g.terrain[0][1] = FRAY_TERRAIN_WINDOW;
    cr_expect_eq(cost_to(w, 10, 2, 0), -1, "a window is impassable too");
    w->g.terrain[0][1] = FRAY_TERRAIN_OPEN;
    cr_expect_eq(cost_to(w, 10, 2, 0), 1, "a single wall can be cut past");
    free(w);
}

Test(grid, cutting_corners_two_non_allies) {
    world *w = world_parse(".E.\n"
                           "E@.\n"
                           "...\n");
    cr_expect_eq(cost_to(w, 10, 0, 0), -1, "two diagonal non-allies");
    cr_expect_eq(w->reach.cost[2][0], 1, "other diagonals are free");
    w->occ[0][1] = FRAY_OCC_ALLY;
    w->occ[1][0] = FRAY_OCC_ALLY;
    cr_expect_eq(cost_to(w, 10, 0, 0), 1, "two allies");
    w->occ[0][1] = FRAY_OCC_ENEMY;
    w->occ[1][0] = FRAY_OCC_PASSABLE;
    cr_expect_eq(cost_to(w, 10, 0, 0), 1, "one of them incapacitated");
    free(w);
}

/* Seed "Cutting Corners" with walls along the sides of spaces: a straight
 * wall through the corner stops the diagonal, the end of a wall does not. */
Test(grid, cutting_corners_wall_edges) {
    world *w = world_parse("...\n"
                           ".@.\n"
                           "...\n");
    cr_assert_eq(fray_grid_set_edge(&w->g, Q(1, 1), Q(2, 1), FRAY_EDGE_WALL), FRAY_OK);
    cr_expect_eq(cost_to(w, 10, 2, 1), 2, "round the wall edge: a diagonal, a step");
    cr_expect_eq(w->reach.cost[0][2], 1, "diagonally past the end of the wall edge");
    cr_expect_eq(w->reach.cost[2][2], 1);
    cr_assert_eq(fray_grid_set_edge(&w->g, Q(1, 0), Q(2, 0), FRAY_EDGE_WALL), FRAY_OK);
    cr_expect_eq(cost_to(w, 10, 2, 0), 3,
                 "the wall runs through the corner: round by (2,2) and (2,1)");
    cr_expect_eq(w->reach.cost[2][2], 1, "the other corner is still open");
    free(w);
}

/* Seed "Terrain Types": difficult terrain costs 1 more to enter; a short
 * wall between two spaces costs 1 more to cross. */
Test(grid, difficult_terrain_and_low_walls) {
    world *w = world_parse("@~.\n"
                           "...\n");
    cr_expect_eq(cost_to(w, 10, 1, 0), 2, "into difficult terrain");
    cr_expect_eq(w->reach.cost[0][2], 3, "through it or round it: 3");
    cr_expect_eq(w->reach.cost[1][1], 1, "a diagonal beside it");
    free(w);

    w = world_parse("@.\n"
                    "..\n");
    cr_assert_eq(fray_grid_set_edge(&w->g, Q(0, 0), Q(1, 0), FRAY_EDGE_LOW), FRAY_OK);
    cr_assert_eq(fray_grid_set_edge(&w->g, Q(0, 1), Q(1, 1), FRAY_EDGE_LOW), FRAY_OK);
    cr_expect_eq(cost_to(w, 10, 1, 0), 2, "over the low wall");
    cr_expect_eq(w->reach.cost[1][1], 2, "diagonally over it");
    cr_expect_eq(w->reach.cost[1][0], 1, "along it");
    free(w);
}

/* Seed "Terrain Types": a Large or larger creature counts difficult ground
 * once per step, however many of its spaces move into it. */
Test(grid, large_creature_pays_difficult_once) {
    world *w = world_parse("@@~...\n"
                           "@@~...\n"
                           "......\n");
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 2; x++)
            w->occ[y][x] = FRAY_OCC_SELF;
    fray_grid_reach(&w->g, F(0, 0, 2), 0, 10, world_occ, w, &w->reach);
    cr_expect_eq(w->reach.cost[0][1], 2, "two difficult spaces in one step: +1");
    cr_expect_eq(w->reach.cost[0][2], 4, "its rear half moves into them next: +1");
    cr_expect_eq(w->reach.cost[0][3], 5, "clear of them");
    cr_expect_eq(w->reach.cost[0][4], 6);
    cr_expect_eq(w->reach.cost[0][5], -1, "the footprint must fit on the map");
    cr_expect(w->reach.can_stop[0][1], "its own start spaces are no obstacle");
    free(w);
}

/* Seed "Moving Through Spaces": allies and incapacitated non-allies can be
 * passed through, not stopped on; non-allies cannot be entered (without
 * Acrobatics); impassable terrain cannot be entered. */
Test(grid, moving_through_spaces) {
    world *w = world_parse("@AP.\n"
                           "####\n");
    cr_expect_eq(cost_to(w, 10, 3, 0), 3);
    cr_expect(w->reach.can_stop[0][3]);
    cr_expect_eq(w->reach.cost[0][1], 1, "through the ally");
    cr_expect(!w->reach.can_stop[0][1], "but not stopping there");
    cr_expect(!w->reach.can_stop[0][2], "nor on the incapacitated non-ally");
    cr_expect(!w->reach.can_stop[1][0]);
    cr_expect_eq(w->reach.cost[1][0], -1, "walls");
    w->occ[0][2] = FRAY_OCC_ENEMY;
    cr_expect_eq(cost_to(w, 10, 3, 0), -1, "a standing non-ally bars the way");
    w->occ[0][2] = FRAY_OCC_EMPTY;
    w->g.terrain[0][2] = FRAY_TERRAIN_PIT;
    cr_expect_eq(cost_to(w, 10, 3, 0), -1, "a pit");
    free(w);
}

/* Seed "Creature Sizes": a Large creature cannot squeeze through a gap one
 * space wide, nor stand across a wall. */
Test(grid, large_creature_needs_room) {
    world *w = world_parse("......\n"
                           "......\n"
                           "###.##\n"
                           "......\n"
                           "......\n");
    fray_grid_reach(&w->g, F(0, 0, 2), 0, 30, NULL, NULL, &w->reach);
    cr_expect_eq(w->reach.cost[3][0], -1, "too narrow for 2x2");
    cr_expect_eq(w->reach.cost[0][4], 4);
    fray_grid_reach(&w->g, F(0, 0, 1), 0, 30, NULL, NULL, &w->reach);
    cr_expect_eq(w->reach.cost[3][3], 5, "a Medium one slips through");
    free(w);

    w = world_parse("....\n"
                    "....\n");
    cr_assert_eq(fray_grid_set_edge(&w->g, Q(1, 0), Q(1, 1), FRAY_EDGE_WALL), FRAY_OK);
    fray_grid_reach(&w->g, F(2, 0, 2), 0, 10, NULL, NULL, &w->reach);
    cr_expect_eq(w->reach.cost[0][1], -1, "astride a wall");
    cr_expect_eq(w->reach.cost[0][0], -1);
    free(w);
}

/* ---- ASCII art ------------------------------------------------------------------ */

Test(grid, parse_symbols_and_placements) {
    fray_grid_legend_entry legend[] = {
        {'G', true, 7, FRAY_TERRAIN_OPEN, 0},
        {'^', false, 0, FRAY_TERRAIN_OPEN, 2},
        {'v', false, 0, FRAY_TERRAIN_DIFFICULT, 0}, /* overrides the pit */
    };
    fray_grid g;
    fray_grid_placement pl[4];
    int n = -1;
    fray_diag diag = {0};
    cr_assert_eq(fray_grid_parse("G.#\n~^\n=v 3G\n", legend, 3, &g, pl, 4, &n, &diag),
                 FRAY_OK, "%s", diag.message);
    cr_expect_eq(g.w, 5, "the longest line");
    cr_expect_eq(g.h, 3, "the final newline adds no row");
    cr_expect_eq(g.terrain[0][2], FRAY_TERRAIN_WALL);
    cr_expect_eq(g.terrain[0][4], FRAY_TERRAIN_OPEN, "a short line ends in open floor");
    cr_expect_eq(g.terrain[1][0], FRAY_TERRAIN_DIFFICULT);
    cr_expect_eq(g.elevation[1][1], 2);
    cr_expect_eq(g.terrain[2][0], FRAY_TERRAIN_WINDOW);
    cr_expect_eq(g.terrain[2][1], FRAY_TERRAIN_DIFFICULT, "the legend comes first");
    cr_expect_eq(g.terrain[2][2], FRAY_TERRAIN_OPEN);
    cr_expect_eq(g.elevation[2][3], 3);
    cr_assert_eq(n, 2);
    cr_expect(pl[0].placement_id == 7 && pl[0].at.x == 0 && pl[0].at.y == 0);
    cr_expect(pl[1].placement_id == 7 && pl[1].at.x == 4 && pl[1].at.y == 2);
    cr_expect_eq(fray_grid_parse("..\r\n.#\r\n", NULL, 0, &g, NULL, 0, NULL, NULL),
                 FRAY_OK, "CRLF lines");
    cr_expect(g.w == 2 && g.h == 2 && g.terrain[1][1] == FRAY_TERRAIN_WALL);
    cr_expect_eq(fray_grid_parse("G", legend, 3, &g, pl, 0, &n, &diag), FRAY_ERR_RANGE,
                 "no room for the placement");
}

/* Map files report line:column and name the character. */
Test(grid, parse_errors) {
    fray_grid g;
    fray_diag diag = {0};
    cr_expect_eq(fray_grid_parse("...\n.#.\n..Q.\n", NULL, 0, &g, NULL, 0, NULL, &diag),
                 FRAY_ERR_PARSE);
    cr_expect_eq(diag.line, 3);
    cr_expect_eq(diag.column, 3);
    cr_expect_str_eq(diag.message, "unknown map symbol 'Q' (not in the legend)");
    cr_expect_eq(fray_grid_parse("..\t", NULL, 0, &g, NULL, 0, NULL, &diag),
                 FRAY_ERR_PARSE);
    cr_expect(strstr(diag.message, "0x09") != NULL, "%s", diag.message);
    cr_expect_eq(fray_grid_parse("", NULL, 0, &g, NULL, 0, NULL, &diag), FRAY_ERR_PARSE);
    cr_expect_eq(fray_grid_parse("\n\n", NULL, 0, &g, NULL, 0, NULL, &diag),
                 FRAY_ERR_PARSE);
    cr_expect(strstr(diag.message, "empty") != NULL, "%s", diag.message);
    cr_expect_eq(fray_grid_parse(NULL, NULL, 0, &g, NULL, 0, NULL, &diag),
                 FRAY_ERR_INVALID);
}

Test(grid, parse_oversize) {
    char art[80 * 72];
    fray_grid g;
    fray_diag diag = {0};
    /* 3 rows, the second 70 wide. */
    snprintf(art, sizeof art, "...\n%070d\n...", 0);
    for (char *p = art; *p; p++)
        if (*p == '0')
            *p = '.';
    cr_expect_eq(fray_grid_parse(art, NULL, 0, &g, NULL, 0, NULL, &diag), FRAY_ERR_RANGE);
    cr_expect_str_eq(diag.message, "the map is 70 spaces wide; at most 64");
    cr_expect_eq(diag.line, 2);
    cr_expect_eq(diag.column, 65);
    /* 65 rows. */
    art[0] = '\0';
    for (int i = 0; i < 65; i++)
        strcat(art, "..\n");
    cr_expect_eq(fray_grid_parse(art, NULL, 0, &g, NULL, 0, NULL, &diag), FRAY_ERR_RANGE);
    cr_expect_str_eq(diag.message, "the map is 65 rows tall; at most 64");
    cr_expect_eq(diag.line, 65);
    /* 64 x 64 is fine. */
    art[0] = '\0';
    for (int i = 0; i < 64; i++)
        strcat(art, "................................................................\n");
    cr_expect_eq(fray_grid_parse(art, NULL, 0, &g, NULL, 0, NULL, &diag), FRAY_OK);
    cr_expect(g.w == 64 && g.h == 64);
}

Test(grid, draw_small_map) {
    fray_grid g;
    cr_assert_eq(fray_grid_parse("2...=\n..#..\n.~..v\n", NULL, 0, &g, NULL, 0, NULL,
                                 NULL),
                 FRAY_OK);
    fray_grid_token tok[] = {{F(1, 2, 1), 'A'}, {F(3, 0, 2), 'L'}};
    char buf[256];
    const char *want = "  01234\n"
                       "0 2..LL\n"
                       "1 ..#LL\n"
                       "2 .A..v\n";
    size_t len = fray_grid_draw(&g, tok, 2, buf, sizeof buf);
    cr_expect_str_eq(buf, want);
    cr_expect_eq(len, strlen(want));
    /* snprintf-style: the length it needs, a truncated NUL-ended text. */
    char small[10];
    cr_expect_eq(fray_grid_draw(&g, tok, 2, small, sizeof small), strlen(want));
    cr_expect_str_eq(small, "  01234\n0");
    cr_expect_eq(fray_grid_draw(&g, NULL, 0, NULL, 0), strlen(want));
}

Test(grid, draw_two_digit_numbers) {
    fray_grid g;
    fray_grid_init(&g, 12, 11);
    g.terrain[10][11] = FRAY_TERRAIN_WALL;
    char buf[512];
    fray_grid_draw(&g, NULL, 0, buf, sizeof buf);
    const char *head = "             11\n"
                       "   012345678901\n"
                       " 0 ............\n";
    cr_expect(strncmp(buf, head, strlen(head)) == 0, "%s", buf);
    cr_expect(strstr(buf, "\n10 ...........#\n") != NULL, "%s", buf);
}

/* ---- The map itself ------------------------------------------------------------- */

Test(grid, init_edges_and_names) {
    fray_grid g;
    fray_grid_init(&g, 100, 0);
    cr_expect(g.w == 64 && g.h == 1, "clamped to 1..64");
    cr_expect(fray_grid_in(&g, Q(63, 0)));
    cr_expect(!fray_grid_in(&g, Q(0, 1)));
    cr_expect(!fray_grid_in(&g, Q(-1, 0)));
    fray_grid_init(&g, 4, 4);
    cr_expect_eq(fray_grid_set_edge(&g, Q(1, 1), Q(2, 2), FRAY_EDGE_WALL), FRAY_ERR_INVALID);
    cr_expect_eq(fray_grid_set_edge(&g, Q(3, 1), Q(4, 1), FRAY_EDGE_WALL), FRAY_ERR_INVALID);
    cr_expect_eq(fray_grid_set_edge(&g, Q(1, 1), Q(1, 1), FRAY_EDGE_WALL), FRAY_ERR_INVALID);
    cr_expect_eq(fray_grid_set_edge(&g, Q(1, 1), Q(1, 2), (fray_edge)7), FRAY_ERR_INVALID);
    cr_expect_eq(fray_grid_set_edge(&g, Q(1, 2), Q(1, 1), FRAY_EDGE_LOW), FRAY_OK);
    cr_expect_eq(g.edge_s[1][1], FRAY_EDGE_LOW);
    cr_expect_eq(fray_grid_edge(&g, Q(1, 1), Q(1, 2)), FRAY_EDGE_LOW);
    cr_expect_eq(fray_grid_edge(&g, Q(1, 1), Q(2, 2)), FRAY_EDGE_NONE);
    cr_expect_str_eq(fray_terrain_name(FRAY_TERRAIN_WINDOW), "window");
    fray_terrain t;
    cr_expect_eq(fray_terrain_parse("pit", &t), FRAY_OK);
    cr_expect_eq(t, FRAY_TERRAIN_PIT);
    cr_expect_eq(fray_terrain_parse("lava", &t), FRAY_ERR_PARSE);
}

/* ---- Cross-checks against plain reference versions ----------------------------- */

static uint32_t rnd(uint64_t *s) {
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(*s >> 33);
}

/* The spaces whose open square the segment from centre a to centre b meets,
 * by solving for the parameter interval inside each square (exact
 * fractions), sorted by where the segment enters them. */
static int brute_line_spaces(fray_pos a, fray_pos b, fray_pos *out) {
    int ax = 2 * a.x + 1, ay = 2 * a.y + 1, dx = 2 * (b.x - a.x), dy = 2 * (b.y - a.y);
    /* t = num / den with den = |dx| * |dy| (or the nonzero one, or 1). */
    long den = (long)(dx ? abs(dx) : 1) * (dy ? abs(dy) : 1);
    long enter[64];
    int n = 0;
    int x0 = a.x < b.x ? a.x : b.x, x1 = a.x < b.x ? b.x : a.x;
    int y0 = a.y < b.y ? a.y : b.y, y1 = a.y < b.y ? b.y : a.y;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            if ((x == a.x && y == a.y) || (x == b.x && y == b.y))
                continue;
            long lo = 0, hi = den;
            int lims[2][3] = {{ax, dx, 2 * x}, {ay, dy, 2 * y}};
            for (int k = 0; k < 2; k++) {
                int p = lims[k][0], d = lims[k][1], e = lims[k][2];
                if (d == 0) {
                    if (!(p > e && p < e + 2))
                        lo = hi;
                    continue;
                }
                long t0 = (long)(e - p) * den / d, t1 = (long)(e + 2 - p) * den / d;
                if (t0 > t1) {
                    long t = t0;
                    t0 = t1;
                    t1 = t;
                }
                if (t0 > lo)
                    lo = t0;
                if (t1 < hi)
                    hi = t1;
            }
            if (lo < hi) {
                int i = n++;
                while (i > 0 && enter[i - 1] > lo) {
                    enter[i] = enter[i - 1];
                    out[i] = out[i - 1];
                    i--;
                }
                enter[i] = lo;
                out[i] = Q(x, y);
            }
        }
    return n;
}

/* Seed "Cover" (the spaces a line crosses): the walk along the line agrees
 * with solving each square separately. */
Test(grid, line_spaces_match_brute_force) {
    uint64_t s = 42;
    for (int i = 0; i < 3000; i++) {
        fray_pos a = Q((int)(rnd(&s) % 20), (int)(rnd(&s) % 20));
        fray_pos b = Q((int)(rnd(&s) % 20), (int)(rnd(&s) % 20));
        fray_pos got[64], want[64];
        int ng = fray_grid_line_spaces(a, b, got, 64);
        int nw = brute_line_spaces(a, b, want);
        cr_assert_eq(ng, nw, "(%d,%d)->(%d,%d)", a.x, a.y, b.x, b.y);
        for (int k = 0; k < ng; k++)
            cr_assert(got[k].x == want[k].x && got[k].y == want[k].y,
                      "(%d,%d)->(%d,%d) space %d", a.x, a.y, b.x, b.y, k);
    }
}

static bool ref_impassable(const world *w, int x, int y) {
    unsigned t = w->g.terrain[y][x];
    return t == FRAY_TERRAIN_WALL || t == FRAY_TERRAIN_WINDOW || t == FRAY_TERRAIN_PIT ||
           w->occ[y][x] == FRAY_OCC_ENEMY;
}

/* One step of a Medium creature, written straight from the seed's words:
 * the added cost (on top of the 1 or 2 of the step), or -1. */
static int ref_step_extra(const world *w, int x, int y, int dx, int dy) {
    int tx = x + dx, ty = y + dy;
    if (!fray_grid_in(&w->g, Q(tx, ty)) || ref_impassable(w, tx, ty))
        return -1;
    int extra = w->g.terrain[ty][tx] == FRAY_TERRAIN_DIFFICULT;
    if (!dx || !dy) {
        fray_edge e = fray_grid_edge(&w->g, Q(x, y), Q(tx, ty));
        if (e == FRAY_EDGE_WALL)
            return -1;
        return extra + (e == FRAY_EDGE_LOW);
    }
    bool blocked[2], low[2];
    fray_pos mid[2] = {Q(tx, y), Q(x, ty)};
    for (int r = 0; r < 2; r++) {
        fray_edge e1 = fray_grid_edge(&w->g, Q(x, y), mid[r]);
        fray_edge e2 = fray_grid_edge(&w->g, mid[r], Q(tx, ty));
        blocked[r] = ref_impassable(w, mid[r].x, mid[r].y) || e1 == FRAY_EDGE_WALL ||
                     e2 == FRAY_EDGE_WALL;
        low[r] = e1 == FRAY_EDGE_LOW || e2 == FRAY_EDGE_LOW;
    }
    if (blocked[0] && blocked[1])
        return -1;
    return extra + ((blocked[0] || low[0]) && (blocked[1] || low[1]));
}

/* Seed "Counting Spaces", "Cutting Corners", "Terrain Types", "Moving
 * Through Spaces": fray_grid_reach agrees with a plain Bellman-Ford over
 * (space, diagonal parity) on random maps, and its paths add up. */
Test(grid, reach_matches_reference_search) {
    uint64_t s = 7;
    world *w = calloc(1, sizeof *w);
    cr_assert(w);
    for (int iter = 0; iter < 300; iter++) {
        int W = 4 + (int)(rnd(&s) % 12), H = 4 + (int)(rnd(&s) % 10);
        fray_grid_init(&w->g, W, H);
        memset(w->occ, 0, sizeof w->occ);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                uint32_t r = rnd(&s) % 20;
                w->g.terrain[y][x] = (uint8_t)(r < 2 ? FRAY_TERRAIN_WALL
                                              : r < 4 ? FRAY_TERRAIN_DIFFICULT
                                              : r == 4 ? FRAY_TERRAIN_WINDOW
                                              : r == 5 ? FRAY_TERRAIN_PIT
                                                       : FRAY_TERRAIN_OPEN);
                r = rnd(&s) % 20;
                w->occ[y][x] = r == 0   ? FRAY_OCC_ENEMY
                               : r == 1 ? FRAY_OCC_ALLY
                               : r == 2 ? FRAY_OCC_PASSABLE
                                        : FRAY_OCC_EMPTY;
                r = rnd(&s) % 16;
                if (x + 1 < W && r < 2)
                    cr_assert_eq(fray_grid_set_edge(&w->g, Q(x, y), Q(x + 1, y),
                                                    r ? FRAY_EDGE_WALL
                                                      : FRAY_EDGE_LOW),
                                 FRAY_OK);
                r = rnd(&s) % 16;
                if (y + 1 < H && r < 2)
                    cr_assert_eq(fray_grid_set_edge(&w->g, Q(x, y), Q(x, y + 1),
                                                    r ? FRAY_EDGE_WALL
                                                      : FRAY_EDGE_LOW),
                                 FRAY_OK);
            }
        int sx = (int)(rnd(&s) % (unsigned)W), sy = (int)(rnd(&s) % (unsigned)H);
        w->g.terrain[sy][sx] = FRAY_TERRAIN_OPEN;
        w->occ[sy][sx] = FRAY_OCC_SELF;
        int max_cost = (int)(rnd(&s) % 14), p0 = (int)(rnd(&s) % 2);

        static int dist[2][FRAY_GRID_MAX][FRAY_GRID_MAX];
        for (int p = 0; p < 2; p++)
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++)
                    dist[p][y][x] = 1 << 20;
        dist[p0][sy][sx] = 0;
        for (bool changed = true; changed;) {
            changed = false;
            for (int p = 0; p < 2; p++)
                for (int y = 0; y < H; y++)
                    for (int x = 0; x < W; x++) {
                        if (dist[p][y][x] > max_cost)
                            continue;
                        for (int dy = -1; dy <= 1; dy++)
                            for (int dx = -1; dx <= 1; dx++) {
                                if (!dx && !dy)
                                    continue;
                                int extra = ref_step_extra(w, x, y, dx, dy);
                                if (extra < 0)
                                    continue;
                                bool diag = dx && dy;
                                int c = dist[p][y][x] + (diag ? 1 + p : 1) + extra;
                                int np = diag ? 1 - p : p;
                                if (c < dist[np][y + dy][x + dx]) {
                                    dist[np][y + dy][x + dx] = c;
                                    changed = true;
                                }
                            }
                    }
        }
        fray_grid_reach(&w->g, F(sx, sy, 1), p0, max_cost, world_occ, w, &w->reach);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int best = dist[0][y][x] < dist[1][y][x] ? dist[0][y][x] : dist[1][y][x];
                int want = best <= max_cost ? best : -1;
                cr_assert_eq(w->reach.cost[y][x], want, "map %d: (%d,%d) from (%d,%d)",
                             iter, x, y, sx, sy);
                if (want < 0) {
                    cr_assert(!w->reach.can_stop[y][x]);
                    continue;
                }
                cr_assert_eq(w->reach.parity[y][x], dist[0][y][x] == best ? 0 : 1);
                fray_occupant o = w->occ[y][x];
                cr_assert_eq(w->reach.can_stop[y][x],
                             o == FRAY_OCC_EMPTY || o == FRAY_OCC_SELF);
                /* Walk the path, adding up the steps. */
                fray_pos path[FRAY_GRID_MAX * FRAY_GRID_MAX];
                int n = fray_grid_path(&w->reach, Q(x, y), path, FRAY_GRID_MAX * FRAY_GRID_MAX);
                int px = sx, py = sy, p = p0, c = 0;
                for (int k = 0; k < n; k++) {
                    int dx = path[k].x - px, dy = path[k].y - py;
                    cr_assert(abs(dx) <= 1 && abs(dy) <= 1 && (dx || dy));
                    int extra = ref_step_extra(w, px, py, dx, dy);
                    cr_assert(extra >= 0, "a legal step");
                    bool diag = dx && dy;
                    c += (diag ? 1 + p : 1) + extra;
                    p = diag ? 1 - p : p;
                    px = path[k].x;
                    py = path[k].y;
                }
                cr_assert(px == x && py == y);
                cr_assert_eq(c, want, "the path costs what the map says");
                cr_assert_eq(p, w->reach.parity[y][x]);
            }
    }
    free(w);
}
