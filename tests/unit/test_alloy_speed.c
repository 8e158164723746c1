/*
 * test_alloy_speed.c - the speed work on Alloy's tactics and moves
 * (issues 16 and 19) held to the long way, in crowds on a map with walls,
 * low walls, windows, difficult ground and narrow squares:
 *   - the box a scan for the squares within reach of a target looks in
 *     (space.c fa_within_box) holds every top-left within reach, by either
 *     diagonal rule, for every size and reach (policy.c's target and
 *     charge scans);
 *   - a step weighed alone (act.c step_cost) costs what the search of the
 *     squares about its start gave (fa_step_cost_long), from every square,
 *     in every direction, with either diagonal parity, squeezing or not;
 *   - a small map's lines of effect and sight tabled at load answer as
 *     grid.c's for every pair of squares;
 *   - the movement search with who stands where handed over as a list
 *     and the map's steps tabled (act.c fa_reach, fa_setup_steps) gives
 *     every square the cost, path step and may-end of the search that asks
 *     every combatant for every square (004:818-820 passing, 004:713
 *     narrow squares, 004:824 ending).
 */
#define AF_FAKE_ATTACKS
#include "alloy_fixture.h"

#include "alloy_crowd.h"
#include "alloy_longway.h"

enum { MAP = 14 };

/* 20 combatants on two sides at scattered squares of a 14x14 map (a fixed
 * sequence), one Large and one Huge among them, some dead, prone,
 * helpless or unconscious, two sharing a square; the map with a wall
 * line and a window, low walls, difficult ground and narrow squares. */
static fixture *crowd(void) {
    fixture *f = af_new(MAP, MAP);
    ac_features(f);
    ac_place(f, MAP, 4242u);
    f->s.c[16].at = f->s.c[9].at;   /* an ally on a standing enemy */
    f->s.c[17].at = f->s.c[3].at;   /* an enemy on a standing one */
    af_go(f);
    for (int i = 0; i < 20; i++) {
        if (i % 6 == 1)
            af_cond(f, i, FA_C_PRONE, FA_ENDS_SAVE, -1, 0);
        if (i % 7 == 3)
            af_cond(f, i, FA_C_HELPLESS, FA_ENDS_SAVE, -1, 0);
        if (i % 11 == 7)
            af_cond(f, i, FA_C_DEAD, FA_ENDS_SAVE, -1, 0);
        if (i == 4)
            af_cond(f, i, FA_C_SQUEEZING, FA_ENDS_SAVE, -1, 0);
    }
    return f;
}

/* Issue 16: a footprint within reach of a target always has its top-left
 * inside fa_within_box (so the tactics' scans of that box find every
 * square the whole map's scan would), by either diagonal rule, for the
 * mover's and the target's sizes and reaches 0 to 8; and the box is no
 * bigger than the reach and sizes make it. */
Test(alloy_speed, within_box_holds_every_square_in_reach_issue16) {
    fa_setup *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    int inside = 0;
    for (int diag = 0; diag < 2; diag++) {
        s->opt.diagonals = (uint8_t)(diag ? FRAY_AREA_SQUARE : FRAY_AREA_COUNTED);
        for (int ts = 1; ts <= 3; ts++)
            for (int ms = 1; ms <= 3; ms++)
                for (int reach = 0; reach <= 8; reach++)
                    for (int tx = 0; tx < 20; tx += 7) {
                        fray_footprint tf = {{(int16_t)tx, (int16_t)(19 - tx)}, (int8_t)ts};
                        int x0, y0, x1, y1;
                        fa_within_box(tf, ms, reach, &x0, &y0, &x1, &y1);
                        cr_assert_leq(x1 - x0 + 1, 2 * reach + ms + ts - 1);
                        cr_assert_leq(y1 - y0 + 1, 2 * reach + ms + ts - 1);
                        for (int y = -12; y < 32; y++)
                            for (int x = -12; x < 32; x++) {
                                fray_footprint f = {{(int16_t)x, (int16_t)y}, (int8_t)ms};
                                if (!fa_within(s, f, tf, reach))
                                    continue;
                                inside++;
                                cr_assert(x >= x0 && x <= x1 && y >= y0 && y <= y1,
                                          "diagonals %d, target %d at (%d, %d), mover %d, "
                                          "reach %d: (%d, %d) is within reach, outside "
                                          "the box [%d, %d] x [%d, %d]",
                                          diag, ts, tf.at.x, tf.at.y, ms, reach, x, y, x0,
                                          x1, y0, y1);
                            }
                    }
    }
    cr_assert_gt(inside, 10000);
    free(s);
}

/* Issue 16/19: every step of every mover, from every square of the map,
 * in each of the 8 directions, after a straight or a diagonal step
 * (the counted diagonals' parity), squeezing or not: the step weighed
 * alone costs what the search about its start gave, allowed or not. */
Test(alloy_speed, step_alone_matches_search_issue16) {
    fixture *f = crowd();
    int allowed = 0, refused = 0, dear = 0;
    for (int diag = 0; diag < 2; diag++) {
        f->s.opt.diagonals = (uint8_t)(diag ? FRAY_AREA_SQUARE : FRAY_AREA_COUNTED);
        for (int who = 0; who < f->st.n; who++) {
            fray_footprint from = f->st.c[who].fp;
            for (int y = 0; y < MAP; y++)
                for (int x = 0; x < MAP; x++) {
                    from.at = (fray_pos){(int16_t)x, (int16_t)y};
                    for (int d = 0; d < 9; d++) {
                        if (d == 4)
                            continue;
                        fray_pos to = {(int16_t)(x + d % 3 - 1), (int16_t)(y + d / 3 - 1)};
                        for (int k = 0; k < 4; k++) {
                            int parity = k & 1;
                            bool squeeze = (k & 2) != 0;
                            int fast = fa_step_cost(&f->s, &f->st, who, from, to, parity,
                                                    squeeze);
                            int slow = fa_step_cost_long(&f->s, &f->st, who, from, to,
                                                         parity, squeeze);
                            cr_assert_neq(slow, -2);
                            cr_assert_eq(fast, slow,
                                         "diagonals %d, mover %d from (%d, %d) to (%d, %d), "
                                         "parity %d, squeeze %d: %d, the search %d",
                                         diag, who, x, y, to.x, to.y, parity, squeeze,
                                         fast, slow);
                            if (fast < 0)
                                refused++;
                            else
                                allowed++;
                            if (fast > 1)
                                dear++;
                        }
                    }
                }
        }
    }
    /* A real test: steps allowed, refused, and dearer than one square. */
    cr_assert_gt(allowed, 1000);
    cr_assert_gt(refused, 1000);
    cr_assert_gt(dear, 100);
    free(f);
}

/* fa_reach against the search that asks every combatant for every square,
 * for every mover of f. */
static void check_reach(fixture *f, int max_cost) {
    fray_reach_map *m = malloc(sizeof *m), *l = malloc(sizeof *l);
    cr_assert(m && l);
    int reached = 0, stops = 0, no_stops = 0;
    for (int who = 0; who < f->st.n; who++) {
        fa_reach(&f->s, &f->st, who, max_cost, m);
        long_way lw = {f, who};
        fray_grid_reach_m(&f->s.map, f->st.c[who].fp, 0, max_cost, long_occ, &lw,
                          (fray_area_metric)f->s.opt.diagonals, l);
        cr_assert_eq(m->w, l->w);
        cr_assert_eq(m->h, l->h);
        for (int y = 0; y < m->h; y++)
            for (int x = 0; x < m->w; x++) {
                cr_assert_eq(m->cost[y][x], l->cost[y][x], "mover %d, square (%d, %d): cost",
                             who, x, y);
                if (l->cost[y][x] < 0)
                    continue;
                reached++;
                cr_assert_eq(m->parity[y][x], l->parity[y][x]);
                cr_assert_eq(m->prev_x[y][x], l->prev_x[y][x], "mover %d, (%d, %d): path",
                             who, x, y);
                cr_assert_eq(m->prev_y[y][x], l->prev_y[y][x]);
                fray_footprint fp = {{(int16_t)x, (int16_t)y}, f->st.c[who].fp.side};
                bool end = long_may_end(f, who, fp);
                cr_assert_eq(m->can_stop[y][x], end, "mover %d, (%d, %d): may end there",
                             who, x, y);
                if (end)
                    stops++;
                else
                    no_stops++;
            }
    }
    cr_assert_gt(reached, 100);
    cr_assert_gt(stops, 0);
    cr_assert_gt(no_stops, 0);
    free(m);
    free(l);
}

/* Issue 16/19: the search with the occupants listed and the map's steps
 * tabled (as a loaded encounter has them) answers as the long way, with
 * and without the table, each diagonal rule, short and long searches, and
 * again after combatants move and fall (nothing kept from before). */
Test(alloy_speed, listed_search_matches_long_way_issue16_004_713_818_824) {
    for (int tabled = 0; tabled < 2; tabled++)
        for (int diag = 0; diag < 2; diag++) {
            fixture *f = crowd();
            f->s.opt.diagonals = (uint8_t)(diag ? FRAY_AREA_SQUARE : FRAY_AREA_COUNTED);
            if (tabled)
                fa_setup_steps(&f->s);
            check_reach(f, 3);
            check_reach(f, 30);
            for (int i = 0; i < 20; i += 3) {
                fa_cstate *c = &f->st.c[i];
                int side = c->fp.side > 0 ? c->fp.side : 1;
                c->fp.at.y = (int16_t)((c->fp.at.y + 5) % (MAP - side + 1));
                if (i % 6 == 0)
                    af_cond(f, i, FA_C_DEAD, FA_ENDS_SAVE, -1, 0);
            }
            check_reach(f, 30);
            free(f);
        }
}

/* Issue 19: a small map's lines tabled at load (fa_setup_steps) answer
 * as grid.c's line of effect (004:110, 866) and sight for every pair of
 * single squares (walls, a window, low walls), and larger footprints or a
 * map without the table are asked of grid.c. */
Test(alloy_speed, lines_table_matches_grid_issue19) {
    fixture *f = crowd();
    fray_footprint big = {{1, 1}, 2}, one = {{12, 12}, 1};
    cr_assert(!f->s.has_lines);
    cr_assert_eq(fa_effect_fp(&f->s, big, one), fray_grid_effect_fp(&f->s.map, big, one));
    fa_setup_steps(&f->s);
    cr_assert(f->s.has_lines);
    int effect = 0, no_effect = 0, sight = 0, no_sight = 0;
    for (int a = 0; a < MAP * MAP; a++)
        for (int b = 0; b < MAP * MAP; b++) {
            fray_footprint fa = {{(int16_t)(a % MAP), (int16_t)(a / MAP)}, 1};
            fray_footprint fb = {{(int16_t)(b % MAP), (int16_t)(b / MAP)}, 1};
            bool e = fray_grid_effect_fp(&f->s.map, fa, fb);
            bool v = fray_grid_sight_fp(&f->s.map, fa, fb);
            cr_assert_eq(fa_effect_fp(&f->s, fa, fb), e, "effect (%d, %d) to (%d, %d)",
                         fa.at.x, fa.at.y, fb.at.x, fb.at.y);
            cr_assert_eq(fa_sight_fp(&f->s, fa, fb), v, "sight (%d, %d) to (%d, %d)",
                         fa.at.x, fa.at.y, fb.at.x, fb.at.y);
            effect += e;
            no_effect += !e;
            sight += v;
            no_sight += !v;
        }
    /* a real test: lines open and blocked of both kinds */
    cr_assert_gt(effect, 0);
    cr_assert_gt(no_effect, 0);
    cr_assert_gt(sight, 0);
    cr_assert_gt(no_sight, 0);
    for (int k = 0; k < 12; k++) {
        fray_footprint a = {{(int16_t)k, 0}, 2}, b = {{13, (int16_t)k}, 1};
        cr_assert_eq(fa_effect_fp(&f->s, a, b), fray_grid_effect_fp(&f->s.map, a, b));
        cr_assert_eq(fa_sight_fp(&f->s, b, a), fray_grid_sight_fp(&f->s.map, b, a));
    }
    free(f);
}

/* A map too big for the lines' table keeps none (and asks grid.c). */
Test(alloy_speed, lines_table_only_small_maps_issue19) {
    fixture *f = af_new(20, 20);
    fa_setup_steps(&f->s);
    cr_assert(f->s.has_steps);
    cr_assert(!f->s.has_lines);
    fray_footprint a = {{0, 0}, 1}, b = {{19, 19}, 1};
    cr_assert(fa_effect_fp(&f->s, a, b));
    free(f);
}

/* The table is the map's: fa_setup_steps fills it and says so. */
Test(alloy_speed, setup_steps_filled_issue16) {
    fixture *f = crowd();
    cr_assert(!f->s.has_steps);
    fa_setup_steps(&f->s);
    cr_assert(f->s.has_steps);
    /* east from (0, 0) on open ground: 2 half-squares; into the wall: none */
    cr_assert_eq(f->s.steps[0][0][0], 2);
    cr_assert_eq(f->s.steps[3][5][0], 0xff);
    free(f);
}
