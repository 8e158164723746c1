/*
 * test_alloy_crowd_speed.c - this round's speed work on Alloy's crowds
 * (issue 16) held to the long way, in the crowd of
 * alloy_crowd.h (a Large and a Huge creature, the dead, the prone, the
 * helpless, one squeezing, one Slowed; walls, a window, low walls,
 * difficult ground, narrow squares):
 *   - a range answered from the gaps (space.c fa_within) is fa_range's;
 *   - a shift's one square asked of its step alone (act.c
 *     fa_one_step_ok) is the reach map's square at cost 1 that the mover
 *     may stop on, every mover, every neighbour, either diagonal rule,
 *     with the map's tables and without;
 *   - whether an attack is possible asked alone (attack.c
 *     fa_attack_possible) is fa_attack_mods' answer, melee, reach and
 *     ranged, from every attacker to every target;
 *   - the creature in the way (L7.20, attack.c creature_in_way, its
 *     candidates listed once) is the first non-ally on the line found the
 *     long way, over 100 moves;
 *   - the tactics' flanking shortcut (policy.c flanks_at): with a mover
 *     and a target of one square each, an ally flanks with it
 *     (fray_grid_flanks, 004:794-804) only from the square straight
 *     across;
 *   - the tactics of every combatant in the crowd before and after moves
 *     give commands the engine accepts or a turn's end (debug builds hold
 *     flanks_at, best_option, the adjacency test and the shift's step to
 *     their long ways on every call there).
 */
#include "alloy_fixture.h"

#include "alloy_crowd.h"
#include "alloy_longway.h"

enum { MAP = 14 };

/* The crowd: conditions as test_alloy_speed.c's, c4 squeezing, c8 Slowed
 * with its 10 ft moved (nothing left, 004:995-996). */
static fixture *crowd(unsigned seq) {
    fixture *f = af_new(MAP, MAP);
    ac_features(f);
    ac_place(f, MAP, seq);
    af_go(f);
    for (int i = 0; i < 20; i++) {
        if (i % 6 == 1)
            af_cond(f, i, FA_C_PRONE, FA_ENDS_SAVE, -1, 0);
        if (i % 7 == 3)
            af_cond(f, i, FA_C_HELPLESS, FA_ENDS_SAVE, -1, 0);
        if (i % 11 == 7)
            af_cond(f, i, FA_C_DEAD, FA_ENDS_SAVE, -1, 0);
    }
    af_cond(f, 4, FA_C_SQUEEZING, FA_ENDS_SAVE, -1, 0);
    af_cond(f, 8, FA_C_SLOWED, FA_ENDS_SAVE, -1, 0);
    f->st.c[8].moved = 2;
    return f;
}

/* Someone moves to a square drawn from *seq (anywhere on the map, over
 * others or not: the tests weigh places). */
static void shuffle_one(fixture *f, unsigned *seq) {
    *seq = *seq * 1103515245u + 12345u;
    int who = (int)((*seq >> 16) % (unsigned)f->st.n);
    int side = f->st.c[who].fp.side > 0 ? f->st.c[who].fp.side : 1;
    *seq = *seq * 1103515245u + 12345u;
    f->st.c[who].fp.at.x = (int16_t)((*seq >> 16) % (unsigned)(MAP - side + 1));
    *seq = *seq * 1103515245u + 12345u;
    f->st.c[who].fp.at.y = (int16_t)((*seq >> 16) % (unsigned)(MAP - side + 1));
}

/* Issue 16 (L7.9): fa_within answers fa_range <= reach for every pair of
 * footprints of sides 0 to 6 (read as 1 to 5), gaps up to 9 each way, and
 * reaches -1 to 8, by either diagonal rule; both answers occur. */
Test(alloy_crowd_speed, within_from_gaps_matches_range_issue16) {
    fa_setup *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    long in = 0, out = 0;
    for (int diag = 0; diag < 2; diag++) {
        s->opt.diagonals = (uint8_t)(diag ? FRAY_AREA_SQUARE : FRAY_AREA_COUNTED);
        for (int sa = 0; sa <= 6; sa++)
            for (int sb = 0; sb <= 6; sb++)
                for (int y = 0; y < 20; y++)
                    for (int x = 0; x < 20; x++) {
                        fray_footprint a = {{(int16_t)x, (int16_t)y}, (int8_t)sa};
                        fray_footprint b = {{10, 10}, (int8_t)sb};
                        int range = fa_range(s, a, b);
                        for (int reach = -1; reach <= 8; reach++) {
                            bool v = fa_within(s, a, b, reach);
                            cr_assert_eq(v, range <= reach,
                                         "diagonals %d, (%d, %d) side %d to (10, 10) side "
                                         "%d, reach %d: %d, range %d",
                                         diag, x, y, sa, sb, reach, v, range);
                            in += v;
                            out += !v;
                        }
                    }
    }
    cr_assert_gt(in, 10000);
    cr_assert_gt(out, 10000);
    free(s);
}

/* Issue 16, 004:409-418 (a shift: one square), 004:818-824 (passing and
 * ending), 004:713 (narrow squares), 004:995-996 (Slowed): the step alone
 * answers as the reach map of cost 1, for every mover of two crowds and
 * every square about it (and off the map), with either diagonal rule,
 * the map's steps tabled or not, before and after moves. */
Test(alloy_crowd_speed, one_step_matches_reach_map_issue16_004_409) {
    fray_reach_map *m = malloc(sizeof *m);
    cr_assert_not_null(m);
    long yes = 0, no = 0;
    for (int k = 0; k < 8; k++) {
        unsigned seq = k < 4 ? 4242u : 777u;
        fixture *f = crowd(seq);
        f->s.opt.diagonals = (uint8_t)(k & 1 ? FRAY_AREA_SQUARE : FRAY_AREA_COUNTED);
        if (k & 2)
            fa_setup_steps(&f->s);
        for (int round = 0; round < 6; round++) {
            for (int who = 0; who < f->st.n; who++) {
                fa_reach(&f->s, &f->st, who, 1, m);
                fray_pos at = f->st.c[who].fp.at;
                for (int dy = -2; dy <= 2; dy++)
                    for (int dx = -2; dx <= 2; dx++) {
                        fray_pos to = {(int16_t)(at.x + dx), (int16_t)(at.y + dy)};
                        bool in = to.x >= 0 && to.y >= 0 && to.x < m->w && to.y < m->h;
                        bool slow = in && m->cost[to.y][to.x] == 1 && m->can_stop[to.y][to.x];
                        bool quick = fa_one_step_ok(&f->s, &f->st, who, to);
                        cr_assert_eq(quick, slow,
                                     "case %d, move %d: c%d from (%d, %d) to (%d, %d): %d, "
                                     "the reach map %d",
                                     k, round, who, at.x, at.y, to.x, to.y, quick, slow);
                        yes += slow;
                        no += !slow;
                    }
            }
            shuffle_one(f, &seq);
            shuffle_one(f, &seq);
        }
        free(f);
    }
    cr_assert_gt(yes, 1000);
    cr_assert_gt(no, 1000);
    free(m);
}

/* Issue 16, 004:76, 89, 141-143 (reach and range), 004:860-866 (total
 * cover): the range, reach and cover tests alone answer as
 * fa_attack_mods, for melee at reach 1 and 2 and a ranged line, every
 * attacker and target of the crowd, before and after moves. */
Test(alloy_crowd_speed, attack_possible_matches_mods_issue16_004_76_860) {
    fixture *f = crowd(4242u);
    fa_setup_steps(&f->s);
    unsigned seq = 99u;
    long possible = 0, impossible = 0;
    for (int round = 0; round < 30; round++) {
        for (int kind = 0; kind < 3; kind++) {
            fa_attack_line line;
            memset(&line, 0, sizeof line);
            line.reach = kind == 1 ? 2 : 1;
            if (kind == 2) {
                line.ranged = true;
                line.range_short = 5;
                line.range_long = 10;
            }
            for (int a = 0; a < f->st.n; a++)
                for (int t = 0; t < f->st.n; t++) {
                    if (a == t)
                        continue;
                    fa_mods mods;
                    fa_attack_mods(&f->s, &f->st, a, t, &line, false, f->st.c[a].fp.at,
                                   &mods);
                    bool quick = fa_attack_possible(&f->s, &f->st, a, t, &line,
                                                    f->st.c[a].fp.at);
                    cr_assert_eq(quick, !mods.impossible,
                                 "move %d, line %d: c%d on c%d: %d, the modifiers %d", round,
                                 kind, a, t, quick, !mods.impossible);
                    possible += quick;
                    impossible += !quick;
                }
        }
        shuffle_one(f, &seq);
    }
    cr_assert_gt(possible, 1000);
    cr_assert_gt(impossible, 1000);
    free(f);
}

/* L7.20, the long way: the first non-ally of who (alive, not who or the
 * target) on the line between the nearest squares of who and target,
 * the line's squares in order and for each the combatants in order. */
static int long_in_way(const fixture *f, int who, int target) {
    fray_footprint a = f->st.c[who].fp, t = f->st.c[target].fp;
    int sa = a.side > 0 ? a.side : 1, st = t.side > 0 ? t.side : 1;
    fray_pos best_a = a.at, best_t = t.at;
    int best = 1 << 20;
    for (int ay = 0; ay < sa; ay++)
        for (int ax = 0; ax < sa; ax++)
            for (int ty = 0; ty < st; ty++)
                for (int tx = 0; tx < st; tx++) {
                    fray_pos pa = {(int16_t)(a.at.x + ax), (int16_t)(a.at.y + ay)};
                    fray_pos pt = {(int16_t)(t.at.x + tx), (int16_t)(t.at.y + ty)};
                    int c = fray_grid_count(pa, pt);
                    if (c < best) {
                        best = c;
                        best_a = pa;
                        best_t = pt;
                    }
                }
    fray_pos line[2 * FRAY_GRID_MAX];
    int n = fray_grid_line_spaces(best_a, best_t, line, 2 * FRAY_GRID_MAX);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < f->st.n; k++) {
            if (k == who || k == target || fa_has(&f->st.c[k], FA_C_DEAD) ||
                f->s.c[k].side == f->s.c[who].side)
                continue;
            fray_footprint fp = f->st.c[k].fp;
            if (line[i].x >= fp.at.x && line[i].x < fp.at.x + fp.side &&
                line[i].y >= fp.at.y && line[i].y < fp.at.y + fp.side)
                return k;
        }
    return -1;
}

/* L7.20 (a creature in the way gives cover, option creature-cover): on
 * open ground (no other cover), the creature fa_attack_mods names is the
 * long way's for a ranged attack from every attacker on every target,
 * over 100 moves; some lines have one in the way, some none. */
Test(alloy_crowd_speed, creature_in_way_matches_long_way_L7_20) {
    fixture *f = af_new(MAP, MAP);
    ac_place(f, MAP, 31337u);
    af_go(f);
    for (int i = 0; i < 20; i += 9)
        af_cond(f, i, FA_C_DEAD, FA_ENDS_SAVE, -1, 0);
    cr_assert_eq(f->s.opt.creature_cover, 2);
    fa_attack_line line;
    memset(&line, 0, sizeof line);
    line.ranged = true;
    line.range_short = 20;
    line.range_long = 30;
    unsigned seq = 5u;
    long some = 0, none = 0;
    for (int round = 0; round < 100; round++) {
        for (int a = 0; a < f->st.n; a++)
            for (int t = 0; t < f->st.n; t++) {
                if (a == t)
                    continue;
                fa_mods mods;
                fa_attack_mods(&f->s, &f->st, a, t, &line, false, f->st.c[a].fp.at, &mods);
                int slow = long_in_way(f, a, t);
                cr_assert_eq(mods.cover_by, slow, "move %d: c%d on c%d: c%d, long way c%d",
                             round, a, t, mods.cover_by, slow);
                cr_assert_eq(mods.cover_value, slow >= 0 ? 2 : 0);
                some += slow >= 0;
                none += slow < 0;
            }
        shuffle_one(f, &seq);
    }
    cr_assert_gt(some, 1000);
    cr_assert_gt(none, 1000);
    free(f);
}

/* Issue 16, 004:794-804: the premise of the tactics' flanking shortcut.
 * A one-square mover next to a one-square target flanks it with an ally
 * (of side 1 to 3, anywhere about, on the walled map or open ground) only
 * when the ally holds the square straight across the target from the
 * mover; and it does flank from there (with line of effect). */
Test(alloy_crowd_speed, flanks_only_from_across_issue16_004_794) {
    long flanks = 0, across_not = 0;
    for (int walled = 0; walled < 2; walled++) {
        fixture *f = af_new(MAP, MAP);
        if (walled)
            ac_features(f);
        for (int ty = 1; ty < MAP - 1; ty++)
            for (int tx = 1; tx < MAP - 1; tx++) {
                fray_footprint t = {{(int16_t)tx, (int16_t)ty}, 1};
                for (int d = 0; d < 9; d++) {
                    if (d == 4)
                        continue;
                    int dx = d % 3 - 1, dy = d / 3 - 1;
                    fray_footprint a = {{(int16_t)(tx - dx), (int16_t)(ty - dy)}, 1};
                    fray_pos across = {(int16_t)(tx + dx), (int16_t)(ty + dy)};
                    for (int bs = 1; bs <= 3; bs++)
                        for (int by = ty - 4; by <= ty + 2; by++)
                            for (int bx = tx - 4; bx <= tx + 2; bx++) {
                                fray_footprint b = {{(int16_t)bx, (int16_t)by}, (int8_t)bs};
                                bool holds = t_covers(b, across);
                                bool fl = fray_grid_flanks(&f->s.map, t, a, b);
                                cr_assert(!fl || holds,
                                          "target (%d, %d), mover (%d, %d), ally (%d, %d) "
                                          "side %d flanks without the square across",
                                          tx, ty, a.at.x, a.at.y, bx, by, bs);
                                flanks += fl;
                                across_not += holds && !fl;
                            }
                }
            }
        free(f);
    }
    cr_assert_gt(flanks, 1000);
    cr_assert_gt(across_not, 0); /* (walls and overlaps: holding it is not enough) */
}

/* Issue 16: the tactics of every combatant in the crowd, armed (a club,
 * a spear of reach 2, a pistol), before and after moves and falls: each
 * gives a command the engine accepts, or ends its turn. Debug builds
 * check the tactics' shortcuts against their long ways on every call
 * (policy.c flanks_at, best_option, next_to; act.c fa_one_step_ok). */
Test(alloy_crowd_speed, tactics_in_a_crowd_issue16) {
    for (int k = 0; k < 4; k++) {
        fixture *f = af_new(MAP, MAP);
        ac_features(f);
        int club = af_weapon(f, "club", FA_WK_MELEE, 6, 1, 0);
        int spear = af_weapon(f, "spear", FA_WK_MELEE, 8, 2, 0);
        int pistol = af_weapon(f, "pistol", FA_WK_RANGED, 6, 1, 6);
        ac_place(f, MAP, k < 2 ? 4242u : 2024u);
        af_give(f, 0, club, 0);
        af_give(f, 1, spear, 0);
        af_give(f, 2, pistol, 12);
        for (int i = 0; i < f->s.n; i++)
            f->s.c[i].wield = 0;
        f->s.opt.diagonals = (uint8_t)(k & 1 ? FRAY_AREA_SQUARE : FRAY_AREA_COUNTED);
        fa_setup_steps(&f->s);
        af_go(f);
        for (int i = 1; i < 20; i += 6)
            af_cond(f, i, FA_C_PRONE, FA_ENDS_SAVE, -1, 0);
        unsigned seq = 11u + (unsigned)k;
        long acts = 0, ends = 0;
        for (int round = 0; round < 40; round++) {
            for (int who = 0; who < f->st.n; who++) {
                /* its turn, its actions all left (turn.c turn_start) */
                f->st.cur = (int8_t)who;
                f->st.c[who].slots = FA_SLOT_STANDARD | FA_SLOT_MOVE | FA_SLOT_SWIFT;
                f->st.c[who].flags &= (uint8_t)~FA_F_DONE;
                f->st.c[who].moved = 0;
                fa_command cmd;
                cr_assert_eq(fa_choose_command(&f->s, &f->st, who, &cmd), FRAY_OK);
                cr_assert_eq(cmd.actor, who);
                if (cmd.kind == FA_CMD_END_TURN) {
                    ends++;
                    continue;
                }
                char why[200];
                cr_assert_eq(fa_check(&f->s, &f->st, &cmd, why, sizeof why), FRAY_OK,
                             "case %d, move %d: c%d's command %d refused: %s", k, round, who,
                             cmd.kind, why);
                acts++;
            }
            shuffle_one(f, &seq);
            if (round % 10 == 9)
                af_cond(f, round % 20, FA_C_DEAD, FA_ENDS_SAVE, -1, 0);
        }
        cr_assert_gt(acts + ends, 100);
        free(f);
    }
}
