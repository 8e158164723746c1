/*
 * test_alloy_area.c - Alloy's close and area attacks (seed 004 "Close
 * Attacks" 94-102, "Area Attacks" 104-112, "Area Types" 115-137, autofire
 * 685-701; checklist L1 several targets, L5 areas, L6 worked examples 1
 * and 2, L7.6, L7.14): the flamethrower's blast 25 ft, the fragmentation
 * grenade's burst 25 ft within 60 ft, close bursts, walls, one damage roll
 * for all, crits in an area, spray and suppressing fire.
 */
#include "alloy_attack_fixture.h"

enum { SLOT_GRENADE = 3 };

/* 004:125 "a flamethrower is a blast 25 ft, which means it affects a 25
 * feet-by-25 feet are adjacent to you ... The origin space is not affected
 * by the blast": every legal placement is 5 x 5 squares touching the
 * user's square, never holding it. */
Test(alloy_area, flamethrower_blast_every_placement_004_125) {
    afx *f = afx_new(30, 30);
    int a = afx_add(f, 0, 10, 10, SLOT_FLAMER);
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, false);
    cr_assert(L.area);
    cr_assert_eq(L.area_kind, FA_AREA_BLAST);
    cr_assert_eq(L.area_size, 5);
    fray_pos corners[64];
    int n = fray_area_blast_placements(&f->s.map, f->st.c[a].fp, 5, corners, 64);
    cr_assert_eq(n, 24);
    for (int i = 0; i < n; i++) {
        fray_area area;
        cr_assert_eq(fray_area_blast(&f->s.map, f->st.c[a].fp, 5, corners[i], &area), FRAY_OK);
        cr_assert_eq(fray_area_count(&area), 25);
        cr_assert(!fray_area_has(&area, (fray_pos){10, 10}));
        bool touches = false;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                touches |= fray_area_has(&area, (fray_pos){(int16_t)(10 + dx), (int16_t)(10 + dy)});
        cr_assert(touches);
        /* the attack takes every legal placement: an empty one has no targets */
        fa_command c = afx_cmd(FA_CMD_ATTACK, a, -1);
        c.origin = corners[i];
        f->st.c[a].ammo[SLOT_FLAMER] = 10;
        fa_run *r = afx_run(f, NULL, 0);
        cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
        cr_assert_eq(afx_fact(f, FA_FACT_NO_EFFECT, 0)->v[0], FA_NOTE_NO_TARGETS);
    }
    /* a placement holding the user's square is refused */
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, -1);
    c.origin = (fray_pos){8, 8};
    fa_run *r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    /* one too far away is refused too */
    c.origin = (fray_pos){12, 10};
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    free(f);
}

/* 004:125, 100: every creature in the blast with line of effect from the
 * user is attacked (allies too), one damage roll for all; a target behind
 * a wall inside the square is not affected. */
Test(alloy_area, flamethrower_blast_targets_and_one_damage_roll_004_100_125) {
    afx *f = afx_new(30, 30);
    int a = afx_add(f, 0, 10, 10, SLOT_FLAMER);
    int e1 = afx_add(f, 1, 12, 10, SLOT_SWORD);
    int e2 = afx_add(f, 1, 12, 12, SLOT_SWORD);
    int friend_ = afx_add(f, 0, 11, 8, SLOT_SWORD);
    int hidden = afx_add(f, 1, 14, 10, SLOT_SWORD);
    int outside = afx_add(f, 1, 16, 10, SLOT_SWORD);
    for (int y = 8; y <= 12; y++)
        f->s.map.terrain[y][13] = FRAY_TERRAIN_WALL;
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, -1);
    c.origin = (fray_pos){11, 8};     /* squares 11..15 x 8..12 */
    /* Dex 3 + 2 = +5 vs Reflex 14: 9 hits, 8 misses, 15 hits; 3d6 once */
    fa_run *r = AFX_DICE(f, 9, 8, 15, 2, 3, 4);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_count(f, FA_FACT_ATTACK), 3);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->target, e1);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[3], FA_DEF_REFLEX);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 1)->target, e2);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 2)->target, friend_);
    cr_assert_eq(afx_count(f, FA_FACT_DAMAGE), 2);
    cr_assert_eq(f->st.c[e1].hp, 30 - 12);      /* 2 + 3 + 4 + Dex 3 */
    cr_assert_eq(f->st.c[e2].hp, 30);
    cr_assert_eq(f->st.c[friend_].hp, 30 - 12);
    cr_assert_eq(f->st.c[hidden].hp, 30);
    cr_assert_eq(f->st.c[outside].hp, 30);
    cr_assert_eq(f->st.c[a].hp, 30);
    cr_assert_eq(f->ev.n_dice, 6, "three attack rolls and ONE damage roll");
    /* a round of fuel per target (004:101) */
    cr_assert_eq(f->st.c[a].ammo[SLOT_FLAMER], 7);
    free(f);
}

/* 004:131 "a fragmentation grenade is a burst 25 ft with a range of 60 ft,
 * which means that the grenade lands in a space up to 60 feet from you and
 * explodes out to effect every space within 25 feet of it"; "an area burst
 * affects you if you are inside it". */
Test(alloy_area, fragmentation_grenade_burst_004_131) {
    afx *f = afx_new(40, 30);
    f->s.sb[SB_SOLDIER].weapons[SLOT_GRENADE].weapon = W_GRENADE;
    int a = afx_add(f, 0, 5, 10, SLOT_GRENADE);
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, false);
    cr_assert_eq(L.area_kind, FA_AREA_BURST);
    cr_assert_eq(L.area_size, 5);
    /* 13 squares away (65 ft): refused; 12 (60 ft): thrown */
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, -1);
    c.origin = (fray_pos){18, 10};
    fa_run *r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    c.origin = (fray_pos){17, 10};
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    /* within 5 counted squares (diagonals 1-2-1-2): (4, 2) away is 5, (4, 4) is 6 */
    int in1 = afx_add(f, 1, 17, 10, SLOT_SWORD);     /* the origin itself */
    int in2 = afx_add(f, 1, 21, 12, SLOT_SWORD);
    int outd = afx_add(f, 1, 21, 14, SLOT_SWORD);
    int in3 = afx_add(f, 1, 12, 10, SLOT_SWORD);     /* 5 straight */
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_count(f, FA_FACT_ATTACK), 3);
    int seen[FA_MAX_COMBATANTS] = {0};
    for (int i = 0; i < 3; i++)
        seen[afx_fact(f, FA_FACT_ATTACK, i)->target] = 1;
    cr_assert(seen[in1] && seen[in2] && seen[in3] && !seen[outd] && !seen[a]);
    /* the square metric (option burst: square) takes (4, 4) in */
    f->s.opt.burst = FRAY_AREA_SQUARE;
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_count(f, FA_FACT_ATTACK), 4);
    /* the thrower inside its own burst is attacked too */
    f->s.opt.burst = FRAY_AREA_COUNTED;
    c.origin = (fray_pos){8, 10};
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    bool thrower = false;
    for (int i = 0; i < afx_count(f, FA_FACT_ATTACK); i++)
        thrower |= afx_fact(f, FA_FACT_ATTACK, i)->target == a;
    cr_assert(thrower);
    free(f);
}

/* 004:110: line of effect to the origin; the origin decides line of effect
 * and cover to each target. */
Test(alloy_area, burst_origin_decides_effect_and_cover_004_110) {
    afx *f = afx_new(40, 30);
    f->s.sb[SB_SOLDIER].weapons[SLOT_GRENADE].weapon = W_GRENADE;
    int a = afx_add(f, 0, 5, 10, SLOT_GRENADE);
    int t = afx_add(f, 1, 14, 10, SLOT_SWORD);
    /* a wall between the thrower and the origin: refused */
    for (int y = 0; y < 30; y++)
        f->s.map.terrain[y][8] = FRAY_TERRAIN_WALL;
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, -1);
    c.origin = (fray_pos){12, 10};
    fa_run *r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    /* the wall on the far side of the target from the thrower no longer
     * matters: the origin sees the target */
    for (int y = 0; y < 30; y++)
        f->s.map.terrain[y][8] = FRAY_TERRAIN_OPEN;
    f->s.map.terrain[10][13] = FRAY_TERRAIN_WALL;  /* between origin and target */
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_count(f, FA_FACT_ATTACK), 0, "no line of effect from the origin");
    /* concealment never applies to an area attack (004:843-844) */
    f->s.map.terrain[10][13] = FRAY_TERRAIN_OPEN;
    fray_area_add(&f->s.dark, (fray_pos){14, 10});
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_count(f, FA_FACT_ATTACK), 1);
    bool found;
    afx_mod(f, FA_MOD_TOTAL_CONCEALMENT, &found);
    cr_assert(!found);
    (void)t;
    free(f);
}

/* 004:131 "a close burst you create does not affect you". */
Test(alloy_area, close_burst_spares_the_user_004_131) {
    afx *f = afx_new(20, 20);
    fa_power *p = afx_power(f, SB_SOLDIER, 0);
    p->area = FA_AREA_CLOSE_BURST;
    p->area_size = 1;
    p->defense = FA_DEF_REFLEX;
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int e1 = afx_add(f, 1, 4, 4, SLOT_SWORD);
    int e2 = afx_add(f, 1, 6, 6, SLOT_SWORD);
    int far = afx_add(f, 1, 7, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, -1);
    c.power = 0;
    fa_run *r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_count(f, FA_FACT_ATTACK), 2);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->target, e1);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 1)->target, e2);
    (void)far;
    free(f);
}

/* 004:137: a wall of contiguous squares sharing sides, within range. */
Test(alloy_area, wall_squares_and_faults_004_137) {
    afx *f = afx_new(20, 20);
    fa_power *p = afx_power(f, SB_SOLDIER, 0);
    p->area = FA_AREA_WALL;
    p->area_size = 4;
    p->range = 6;
    p->weapon = -1;
    p->dice = (fa_dice){1, 6};
    int a = afx_add(f, 0, 5, 8, SLOT_SWORD);
    int e1 = afx_add(f, 1, 6, 3, SLOT_SWORD);
    int e2 = afx_add(f, 1, 8, 4, SLOT_SWORD);
    int off = afx_add(f, 1, 8, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, -1);
    c.power = 0;
    fray_pos wall[4] = {{6, 3}, {7, 3}, {8, 3}, {8, 4}};
    c.n_path = 4;
    memcpy(c.path, wall, sizeof wall);
    fa_run *r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_count(f, FA_FACT_ATTACK), 2);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->target, e1);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 1)->target, e2);
    /* squares that touch only at a corner are not a wall */
    c.path[3] = (fray_pos){9, 4};
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    /* the wrong length */
    c.n_path = 3;
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    /* out of range */
    fray_pos far_wall[4] = {{6, 0}, {7, 0}, {8, 0}, {9, 0}};
    c.n_path = 4;
    memcpy(c.path, far_wall, sizeof far_wall);
    f->st.c[a].fp.at = (fray_pos){5, 12};
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    (void)off;
    free(f);
}

/* L7.14 (004:100 vs 179): a critted target of an area takes the maximum
 * (area_crit_max true) or the shared roll (false); crit dice are added. */
static void area_crit(bool crit_max, int want_crit, int want_hit) {
    afx *f = afx_new(30, 30);
    f->s.opt.area_crit_max = crit_max;
    f->s.weapons[W_FLAMER].crit = (fa_dice){1, 4};
    int a = afx_add(f, 0, 10, 10, SLOT_FLAMER);
    int e1 = afx_add(f, 1, 12, 10, SLOT_SWORD);
    int e2 = afx_add(f, 1, 12, 12, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, -1);
    c.origin = (fray_pos){11, 8};
    fa_run *r = crit_max ? AFX_DICE(f, 20, 12, 1, 1, 1, 2)
                         : AFX_DICE(f, 20, 12, 1, 1, 1, 2);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[5], FA_CRIT);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 1)->v[5], FA_HIT);
    cr_assert_eq(30 - f->st.c[e1].hp, want_crit);
    cr_assert_eq(30 - f->st.c[e2].hp, want_hit);
    free(f);
}

Test(alloy_area, area_crit_takes_the_maximum_option_area_crit_max_L7_14) {
    area_crit(true, 18 + 3 + 2, 3 + 3);   /* max 3d6 + Dex, crit 1d4 = 2 */
    area_crit(false, 3 + 3 + 2, 3 + 3);   /* the roll for both, crit dice added */
}

/* 004:693-697: spray, a 5-ft burst: Dex vs Reflex each, 1{W} with no
 * ability bonus, one damage roll, a round per target. */
Test(alloy_area, autofire_spray_004_693_697) {
    afx *f = afx_new(30, 30);
    int a = afx_add(f, 0, 5, 5, SLOT_RIFLE);
    int e1 = afx_add(f, 1, 12, 5, SLOT_SWORD);
    int e2 = afx_add(f, 1, 13, 6, SLOT_SWORD);
    int e3 = afx_add(f, 1, 14, 5, SLOT_SWORD);   /* 2 from the centre */
    fa_command c = afx_cmd(FA_CMD_SPRAY, a, -1);
    c.origin = (fray_pos){12, 5};
    /* +7 (Dex 3 + 2 + rifle 2) vs Reflex 14: 7 hits, 6 misses; 2d8 = 3 + 4 */
    fa_run *r = AFX_DICE(f, 7, 6, 3, 4);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_count(f, FA_FACT_ATTACK), 2);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[1], 7);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[3], FA_DEF_REFLEX);
    cr_assert_eq(f->st.c[e1].hp, 30 - 7, "no ability bonus");
    cr_assert_eq(f->st.c[e2].hp, 30);
    cr_assert_eq(f->st.c[e3].hp, 30);
    cr_assert_eq(f->st.c[a].ammo[SLOT_RIFLE], 28);
    /* not an autofire weapon: refused */
    f->st.c[a].wield = SLOT_PISTOL;
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    /* not enough rounds for every target: refused */
    f->st.c[a].wield = SLOT_RIFLE;
    f->st.c[a].ammo[SLOT_RIFLE] = 1;
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    free(f);
}

/* 004:698-701, L7.6: suppressing fire, a 30-ft burst: 10 rounds; anyone in
 * it who takes a standard action or none draws a basic ranged attack (an
 * immediate action, one per round unless suppress_unlimited), a round each. */
Test(alloy_area, autofire_suppressing_fire_004_698_701_L7_6) {
    afx *f = afx_new(40, 30);
    int a = afx_add(f, 0, 5, 5, SLOT_RIFLE);
    int e1 = afx_add(f, 1, 15, 5, SLOT_SWORD);
    int e2 = afx_add(f, 1, 16, 7, SLOT_SWORD);
    int far = afx_add(f, 1, 25, 5, SLOT_SWORD);   /* 7 from the centre */
    fa_command c = afx_cmd(FA_CMD_SUPPRESS, a, -1);
    c.origin = (fray_pos){18, 5};
    fa_run *r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(f->st.c[a].ammo[SLOT_RIFLE], 20, "ten rounds with no attack");
    const fa_cond *sup = fa_cond_find(&f->st.c[a], FA_C_SUPPRESSING, -1);
    cr_assert_not_null(sup);
    cr_assert_eq(sup->ends, FA_ENDS_START_OF_TURN);
    cr_assert_eq(sup->whose, a);
    cr_assert_eq(sup->value, 6);
    /* e1 only moved: nothing */
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_suppress_turn_end(r, e1, false), FRAY_OK);
    cr_assert_eq(afx_count(f, FA_FACT_ATTACK), 0);
    /* outside the burst: nothing */
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_suppress_turn_end(r, far, true), FRAY_OK);
    cr_assert_eq(afx_count(f, FA_FACT_ATTACK), 0);
    /* e1 took a standard action: a basic ranged attack, one round */
    r = AFX_DICE(f, 10, 1, 1);
    cr_assert_eq(fa_suppress_turn_end(r, e1, true), FRAY_OK);
    cr_assert_eq(afx_count(f, FA_FACT_ATTACK), 1);
    cr_assert_eq(f->ev.choices[0].kind, FA_CH_SUPPRESS_FIRES);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[3], FA_DEF_DEFENSE);
    cr_assert_eq(f->st.c[a].ammo[SLOT_RIFLE], 19);
    cr_assert(f->st.c[a].flags & FA_F_IMMEDIATE);
    /* one per round: e2 goes free */
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_suppress_turn_end(r, e2, true), FRAY_OK);
    cr_assert_eq(afx_count(f, FA_FACT_ATTACK), 0);
    /* suppress_unlimited: e2 draws one too */
    f->s.opt.suppress_unlimited = true;
    r = AFX_DICE(f, 10, 1, 1);
    cr_assert_eq(fa_suppress_turn_end(r, e2, true), FRAY_OK);
    cr_assert_eq(afx_count(f, FA_FACT_ATTACK), 1);
    cr_assert_eq(f->st.c[a].ammo[SLOT_RIFLE], 18);
    /* fewer than ten rounds: no suppressing fire */
    f->st.c[a].ammo[SLOT_RIFLE] = 9;
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    free(f);
}

/* 004:89, 143 with 004:110: an area burst placed beyond short range takes
 * the long-range -2 on every attack roll; beyond long range it is refused. */
Test(alloy_area, spray_at_long_range_minus_2_004_89_143) {
    afx *f = afx_new(64, 20);
    int a = afx_add(f, 0, 2, 5, SLOT_RIFLE);
    int e = afx_add(f, 1, 22, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_SPRAY, a, -1);
    c.origin = (fray_pos){22, 5};              /* 20 squares: long range */
    fa_run *r = AFX_DICE(f, 10, 1, 1);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    bool found;
    cr_assert_eq(afx_mod(f, FA_MOD_LONG_RANGE, &found), -2);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[1], 5);
    c.origin = (fray_pos){51, 5};              /* 49 squares: beyond 48 */
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    (void)e;
    free(f);
}
