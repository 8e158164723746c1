/*
 * test_alloy_attack_speed.c - the attack's flanking test (attack.c
 * fa_flanking, issue 16: only an ally on the square straight across a
 * one-square target from a one-square attacker is looked at) held to the
 * long way (fa_flanking_long: fray_grid_flanks asked of every ally that
 * can flank, 004:794-804):
 *   - every placement of attacker, ally and target about a target of
 *     side 1 or 2, the attacker of side 1 or 2, the ally of side 1 to 3,
 *     on a map with walls, a window and low walls, the ally able to flank
 *     or Dazed;
 *   - every attacker and target of a crowd with a Large and a Huge
 *     creature, the dead, the prone and the helpless, before and after
 *     moves;
 *   - the rule itself: +2 for flanking in fa_attack_mods for an ally
 *     straight across (sides and corners), none for one at a right angle,
 *     one Dazed, or one without line of effect to the target.
 */
#include "alloy_fixture.h"

enum { MAP = 11 };

/* Walls, a window, low walls and a wall edge about the middle. */
static void walls(fixture *f) {
    fray_grid *g = &f->s.map;
    g->terrain[2][5] = FRAY_TERRAIN_WALL;
    g->terrain[3][7] = FRAY_TERRAIN_WINDOW;
    g->terrain[7][3] = FRAY_TERRAIN_WALL;
    g->edge_e[5][6] = FRAY_EDGE_LOW;
    g->edge_s[6][4] = FRAY_EDGE_WALL;
    g->edge_e[4][3] = FRAY_EDGE_WALL;
    fa_setup_steps(&f->s);
}

static fray_footprint fp_at(int x, int y, int side) {
    fray_footprint fp;
    memset(&fp, 0, sizeof fp);
    fp.at.x = (int16_t)x;
    fp.at.y = (int16_t)y;
    fp.side = (int8_t)side;
    return fp;
}

/* Issue 16, 004:794-804: for every placement the quick way gives the long
 * way's answer, and both answers occur (with and without the walls). */
Test(alloy_attack_speed, flanking_matches_long_way_every_placement_issue16_004_794) {
    for (int walled = 0; walled < 2; walled++)
        for (int dazed = 0; dazed < 2; dazed++) {
            fixture *f = af_new(MAP, MAP);
            if (walled)
                walls(f);
            int sb = af_block(f, "trooper", 6, 0, 20);
            int who = af_add(f, "who", sb, 0, 1, 1);
            int ally = af_add(f, "ally", sb, 0, 2, 2);
            int target = af_add(f, "target", sb, 1, 4, 4);
            af_go(f);
            if (dazed)
                af_cond(f, ally, FA_C_DAZED, FA_ENDS_SAVE, -1, 0);
            long yes = 0, no = 0;
            for (int ts = 1; ts <= 2; ts++) {
                f->st.c[target].fp = fp_at(4, 4, ts);
                for (int as = 1; as <= 2; as++)
                    for (int ay = 1; ay <= 7; ay++)
                        for (int ax = 1; ax <= 7; ax++) {
                            f->st.c[who].fp = fp_at(ax, ay, as);
                            for (int bs = 1; bs <= 3; bs++)
                                for (int by = 1; by + bs <= MAP - 1; by++)
                                    for (int bx = 1; bx + bs <= MAP - 1; bx++) {
                                        f->st.c[ally].fp = fp_at(bx, by, bs);
                                        bool quick = fa_flanking(&f->s, &f->st, who, target);
                                        bool slow = fa_flanking_long(&f->s, &f->st, who, target);
                                        cr_assert_eq(quick, slow,
                                                     "walls %d dazed %d target %d side %d, "
                                                     "attacker (%d,%d) side %d, ally "
                                                     "(%d,%d) side %d: %d, long way %d",
                                                     walled, dazed, 4, ts, ax, ay, as, bx,
                                                     by, bs, quick, slow);
                                        if (slow)
                                            yes++;
                                        else
                                            no++;
                                    }
                        }
            }
            cr_assert_gt(no, 0);
            if (dazed)
                cr_assert_eq(yes, 0, "a Dazed ally cannot flank (004:800, 948)");
            else
                cr_assert_gt(yes, 100);
            free(f);
        }
}

/* A crowd on the walled map: a Large and a Huge creature, the dead, the
 * prone, the helpless; every attacker against every target, then after
 * each of a run of moves. */
Test(alloy_attack_speed, flanking_matches_long_way_in_a_crowd_issue16) {
    fixture *f = af_new(MAP, MAP);
    int med = af_block(f, "trooper", 6, 0, 20);
    int large = af_block(f, "ogre", 6, 0, 40);
    f->s.sb[large].size = FA_SIZE_LARGE;
    int huge = af_block(f, "giant", 6, 0, 60);
    f->s.sb[huge].size = FA_SIZE_HUGE;
    enum { N = 20 };   /* (af_go gives initiative d20s of 20 down to 1) */
    for (int i = 0; i < N; i++) {
        int sb = i == 5 ? large : i == 10 ? huge : med;
        char name[16];
        snprintf(name, sizeof name, "c%d", i);
        af_add(f, name, sb, i % 3 == 0 ? 1 : 0, 1 + i % 8, 1 + 2 * (i / 8));
    }
    af_go(f);
    walls(f);   /* (after the start: the walls may stand on someone) */
    /* The big ones grow where they stand (over others: the test only
     * weighs places). */
    f->st.c[5].fp.side = 2;
    f->st.c[10].fp.side = 3;
    for (int i = 0; i < N; i++) {
        if (i % 6 == 1)
            af_cond(f, i, FA_C_PRONE, FA_ENDS_SAVE, -1, 0);
        if (i % 7 == 3)
            af_cond(f, i, FA_C_HELPLESS, FA_ENDS_SAVE, -1, 0);
        if (i % 11 == 7)
            af_cond(f, i, FA_C_DEAD, FA_ENDS_SAVE, -1, 0);
    }
    unsigned seq = 1234u;
    long yes = 0;
    for (int round = 0; round < 200; round++) {
        for (int a = 0; a < N; a++)
            for (int t = 0; t < N; t++) {
                if (a == t)
                    continue;
                bool slow = fa_flanking_long(&f->s, &f->st, a, t);
                cr_assert_eq(fa_flanking(&f->s, &f->st, a, t), slow,
                             "move %d: c%d against c%d", round, a, t);
                yes += slow;
            }
        /* Someone moves (anywhere on the map, over others or not). */
        seq = seq * 1103515245u + 12345u;
        int who = (int)((seq >> 16) % N);
        int side = f->st.c[who].fp.side > 0 ? f->st.c[who].fp.side : 1;
        seq = seq * 1103515245u + 12345u;
        f->st.c[who].fp.at.x = (int16_t)((seq >> 16) % (unsigned)(MAP - side + 1));
        seq = seq * 1103515245u + 12345u;
        f->st.c[who].fp.at.y = (int16_t)((seq >> 16) % (unsigned)(MAP - side + 1));
    }
    cr_assert_gt(yes, 50);
    free(f);
}

static int flank_mod(fixture *f, int who, int target) {
    fa_attack_line line;
    memset(&line, 0, sizeof line);
    line.reach = 1;
    fa_mods m;
    fa_attack_mods(&f->s, &f->st, who, target, &line, false, f->st.c[who].fp.at, &m);
    cr_assert(!m.impossible);
    for (int i = 0; i < m.n; i++)
        if (m.m[i].reason == FA_MOD_FLANKING)
            return m.m[i].value;
    return 0;
}

/* 004:794-804: an ally straight across the target (a side or a corner)
 * flanks, +2; one at a right angle does not; nor one Dazed (004:800, 948),
 * nor one with a wall between it and the target (line of effect). */
Test(alloy_attack_speed, flanking_is_straight_across_004_794) {
    fixture *f = af_new(MAP, MAP);
    int sb = af_block(f, "trooper", 6, 0, 20);
    int who = af_add(f, "who", sb, 0, 3, 5);
    int ally = af_add(f, "ally", sb, 0, 5, 5);
    int target = af_add(f, "target", sb, 1, 4, 5);
    af_go(f);
    cr_assert_eq(flank_mod(f, who, target), 2, "across a side");
    f->st.c[who].fp.at = (fray_pos){3, 4};
    f->st.c[ally].fp.at = (fray_pos){5, 6};
    cr_assert_eq(flank_mod(f, who, target), 2, "across a corner");
    f->st.c[ally].fp.at = (fray_pos){5, 4};
    cr_assert_eq(flank_mod(f, who, target), 0, "at a right angle");
    f->st.c[who].fp.at = (fray_pos){3, 5};
    f->st.c[ally].fp.at = (fray_pos){5, 5};
    f->s.map.edge_e[5][4] = FRAY_EDGE_WALL;   /* between target and ally */
    fa_setup_steps(&f->s);
    cr_assert_eq(flank_mod(f, who, target), 0, "no line of effect");
    f->s.map.edge_e[5][4] = FRAY_EDGE_NONE;
    fa_setup_steps(&f->s);
    cr_assert_eq(flank_mod(f, who, target), 2, "the wall gone");
    af_cond(f, ally, FA_C_DAZED, FA_ENDS_SAVE, -1, 0);
    cr_assert_eq(flank_mod(f, who, target), 0, "the ally Dazed");
    free(f);
}
