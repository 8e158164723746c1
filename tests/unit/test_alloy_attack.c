/*
 * test_alloy_attack.c - Alloy's attack rolls (seed 004 "Attacks" 47-61,
 * "Critical Hits" 171-183, "Combat Modifiers" 832-898, the attack actions
 * 422-549, 606-618, 732-739; checklist L1, L3, L5): the attack line, the
 * roll, crits, X{W}, every modifier, range, cover, concealment, several
 * targets, ammunition, striking the cover, aid another, held objects,
 * coup de grace, bull rush, trip, grapple, checks, and the hit and crit
 * chances over many seeded rolls against fray_odds_d20_attack.
 */
#include <math.h>

#include "alloy_attack_fixture.h"
#include "fray/dice.h"

/* Soldier: melee +7 (Str 2 + level 2 + sword 3), 1d8+2; ranged +7
 * (Dex 3 + 2 + pistol 2), 2d6+3. */

Test(alloy_attack, line_basic_melee_and_ranged_004_474_500) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, true);
    cr_assert_eq(L.ability, FA_STR);
    cr_assert_eq(L.defense, FA_DEF_DEFENSE);
    cr_assert_eq(L.attack_bonus, 2 + 2 + 3);
    cr_assert_eq(L.dice.n, 1);
    cr_assert_eq(L.dice.sides, 8);
    cr_assert_eq(L.damage_bonus, 2);       /* 1{W} + Str (004:484) */
    cr_assert(!L.ranged);
    L = fa_attack_line_of(&f->s, &f->st, a, -1, SLOT_PISTOL, false);
    cr_assert_eq(L.ability, FA_DEX);
    cr_assert_eq(L.attack_bonus, 3 + 2 + 2);
    cr_assert_eq(L.damage_bonus, 3);       /* 1{W} + Dex (004:498) */
    cr_assert(L.ranged);
    cr_assert_eq(L.range_short, 6);
    cr_assert_eq(L.range_long, 24);
    free(f);
}

Test(alloy_attack, not_proficient_loses_the_bonus_004_57) {
    afx *f = afx_new(20, 20);
    f->s.sb[SB_SOLDIER].weapons[SLOT_SWORD].proficient = false;
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, -1);
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, true);
    cr_assert_eq(L.attack_bonus, 2 + 2);
    cr_assert_eq(L.proficiency_lost, 3);
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, t);
    fa_run *r = AFX_DICE(f, 10, 5);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    const fa_fact *at = afx_fact(f, FA_FACT_ATTACK, 0);
    cr_assert_eq(at->v[1], 4);
    bool found;
    afx_mod(f, FA_MOD_NOT_PROFICIENT, &found);
    cr_assert(found, "the narration is told the bonus not had");
    free(f);
}

/* 004:57, docs/rules/alloy.md "Unarmed": 1d4 with nothing in hand. */
Test(alloy_attack, unarmed_when_nothing_in_hand_ruling) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, -1);
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, true);
    cr_assert_eq(L.weapon, -1);
    cr_assert_eq(L.dice.n, 1);
    cr_assert_eq(L.dice.sides, 4);          /* the built-in unarmed strike */
    cr_assert_eq(L.attack_bonus, 4);
    /* a block carrying the catalog's "unarmed" weapon strikes with it */
    fa_statblock *b = &f->s.sb[SB_SOLDIER];
    b->weapons[SLOT_FLAMER].weapon = W_UNARMED;   /* the block's four slots are full */
    b->weapons[SLOT_FLAMER].proficient = true;
    L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, true);
    cr_assert_eq(L.dice.sides, 3);
    /* a melee basic attack with a pistol in hand is unarmed */
    f->st.c[a].wield = SLOT_PISTOL;
    L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, true);
    cr_assert_eq(L.dice.sides, 3);
    free(f);
}

Test(alloy_attack, hit_when_total_meets_defense_004_49) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, t);
    /* 8 + 7 = 15 vs Defense 15: hit, 1d8 = 4, + 2 */
    fa_run *r = AFX_DICE(f, 8, 4);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    const fa_fact *at = afx_fact(f, FA_FACT_ATTACK, 0);
    cr_assert_eq(at->v[0], 8);
    cr_assert_eq(at->v[2], 15);
    cr_assert_eq(at->v[3], FA_DEF_DEFENSE);
    cr_assert_eq(at->v[4], 15);
    cr_assert_eq(at->v[5], FA_HIT);
    const fa_fact *d = afx_fact(f, FA_FACT_DAMAGE, 0);
    cr_assert_not_null(d);
    cr_assert_eq(d->v[0], 6);
    cr_assert_eq(d->v[1], 24);
    cr_assert_eq(f->st.c[t].hp, 24);
    /* 7 + 7 = 14: a miss, no damage die rolled */
    r = AFX_DICE(f, 7);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[5], FA_MISS);
    cr_assert_eq(afx_count(f, FA_FACT_DAMAGE), 0);
    cr_assert_eq(f->ev.n_dice, 1);
    free(f);
}

Test(alloy_attack, natural_1_misses_natural_20_hits_004_51_53) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, t);
    f->s.sb[SB_SOLDIER].defense[FA_DEF_DEFENSE] = 5;  /* 1 + 7 = 8 would hit */
    fa_run *r = AFX_DICE(f, 1);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[5], FA_MISS);
    /* natural 20 against Defense 40: a hit, not a crit (would not hit) */
    f->s.sb[SB_SOLDIER].defense[FA_DEF_DEFENSE] = 40;
    r = AFX_DICE(f, 20, 3);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[5], FA_HIT);
    cr_assert_eq(afx_fact(f, FA_FACT_DAMAGE, 0)->v[0], 5);   /* rolled, not max */
    free(f);
}

Test(alloy_attack, crit_maximum_damage_004_175_183) {
    afx *f = afx_new(20, 20);
    f->s.weapons[W_SWORD].crit = (fa_dice){1, 6};
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, t);
    /* natural 20 that would hit: max 8 + 2, plus 1d6 rolled (4) */
    fa_run *r = AFX_DICE(f, 20, 4);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[5], FA_CRIT);
    const fa_fact *d = afx_fact(f, FA_FACT_DAMAGE, 0);
    cr_assert_eq(d->v[0], 14);
    cr_assert_eq(d->v[2], 10);
    cr_assert_eq(f->ev.dice[1].purpose, FA_DIE_CRIT);
    /* crit_min 19 (a feat): 19 that would hit crits, 19 that would not only misses */
    f->s.sb[SB_SOLDIER].crit_min = 19;
    r = AFX_DICE(f, 19, 1);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[5], FA_CRIT);
    f->s.sb[SB_SOLDIER].defense[FA_DEF_DEFENSE] = 30;
    r = AFX_DICE(f, 19);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[5], FA_MISS);
    free(f);
}

Test(alloy_attack, multiplied_damage_2W_plus_3_worked_example_004_169) {
    afx *f = afx_new(20, 20);
    f->s.sb[SB_SOLDIER].score[FA_STR] = 16;
    f->s.sb[SB_SOLDIER].mod[FA_STR] = 3;
    f->s.weapons[W_SWORD].crit = (fa_dice){1, 6};
    fa_power *p = afx_power(f, SB_SOLDIER, 0);   /* Str vs Defense; 2{W} */
    p->mult = 2;
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    f->s.sb[SB_SOLDIER].hp = 100;
    f->st.c[t].hp = 100;
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, t);
    c.power = 0;
    fa_run *r = AFX_DICE(f, 15, 1, 1);           /* the least: 1 + 1 + 3 */
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_DAMAGE, 0)->v[0], 5);
    cr_assert_eq(f->ev.n_dice, 3, "the weapon die is rolled twice");
    r = AFX_DICE(f, 15, 8, 8);                   /* the most: 8 + 8 + 3 */
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_DAMAGE, 0)->v[0], 19);
    r = AFX_DICE(f, 20, 5);                      /* a crit: 19 + 1d6 rolled */
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_DAMAGE, 0)->v[0], 24);
    cr_assert_eq(afx_fact(f, FA_FACT_DAMAGE, 0)->v[2], 19);
    /* every total of 2{1d8}+3 lies in 5..19 */
    for (int i = 0; i < 200; i++) {
        f->st.c[t].hp = 100;
        r = afx_run(f, NULL, 0);
        cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
        const fa_fact *d = afx_fact(f, FA_FACT_DAMAGE, 0);
        if (d && afx_fact(f, FA_FACT_ATTACK, 0)->v[5] == FA_HIT)
            cr_assert(d->v[0] >= 5 && d->v[0] <= 19);
    }
    free(f);
}

Test(alloy_attack, damage_never_below_zero_004_155) {
    afx *f = afx_new(20, 20);
    fa_power *p = afx_power(f, SB_SOLDIER, 0);
    p->damage_bonus = -20;
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, t);
    c.power = 0;
    fa_run *r = AFX_DICE(f, 15, 3);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_DAMAGE, 0)->v[0], 0);
    cr_assert_eq(f->st.c[t].hp, 30);
    free(f);
}

Test(alloy_attack, attacker_modifiers_table_004_836_846_962) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, true);
    fa_mods m;
    bool found;
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    cr_assert_eq(m.total, 0);
    cr_assert_eq(m.n, 0);
    static const struct { int cond, reason, value; } rows[] = {
        {FA_C_PRONE, FA_MOD_PRONE_ATTACKER, -2},       /* 004:839 */
        {FA_C_SNARED, FA_MOD_SNARED_ATTACKER, -2},     /* 004:840 */
        {FA_C_GRAPPLED, FA_MOD_GRAPPLED_ATTACKER, -2}, /* 004:962 */
        {FA_C_RUNNING, FA_MOD_RUNNING, -5},            /* 004:667 */
        {FA_C_SQUEEZING, FA_MOD_SQUEEZING, -5},        /* 004:715 */
    };
    int sum = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        afx_cond(f, a, rows[i].cond);
        fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
        cr_assert_eq(mods_value(&m, rows[i].reason, &found), rows[i].value);
        cr_assert(found);
        sum += rows[i].value;
        cr_assert_eq(m.total, sum);
    }
    /* charge: +1 on a melee attack only (004:846) */
    f->st.c[a].n_cond = 0;
    f->st.c[a].has = 0;
    fa_attack_mods(&f->s, &f->st, a, t, &L, true, f->st.c[a].fp.at, &m);
    cr_assert_eq(mods_value(&m, FA_MOD_CHARGE, &found), 1);
    fa_attack_line R = fa_attack_line_of(&f->s, &f->st, a, -1, SLOT_PISTOL, false);
    fa_attack_mods(&f->s, &f->st, a, t, &R, true, f->st.c[a].fp.at, &m);
    mods_value(&m, FA_MOD_CHARGE, &found);
    cr_assert(!found);
    free(f);
}

Test(alloy_attack, battle_superiority_from_the_target_004_907_1031) {
    static const int grants[] = {FA_C_BLINDED, FA_C_DAZED, FA_C_HELPLESS,
                                 FA_C_STUNNED, FA_C_SURPRISED, FA_C_UNCONSCIOUS,
                                 FA_C_SNARED, FA_C_RUNNING, FA_C_GRANTS_BS};
    for (size_t i = 0; i < sizeof grants / sizeof grants[0]; i++) {
        afx *f = afx_new(20, 20);
        int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
        int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
        afx_cond(f, t, grants[i]);
        fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, true);
        fa_mods m;
        bool found;
        fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
        cr_assert_eq(mods_value(&m, FA_MOD_BATTLE_SUPERIORITY, &found), 2,
                     "condition %d", grants[i]);
        free(f);
    }
}

Test(alloy_attack, prone_target_melee_bs_ranged_plus_2_004_985_986) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    afx_cond(f, t, FA_C_PRONE);
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, true);
    fa_mods m;
    bool found;
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    cr_assert_eq(mods_value(&m, FA_MOD_BATTLE_SUPERIORITY, &found), 2);
    cr_assert_eq(m.def_total, 0);
    fa_attack_line R = fa_attack_line_of(&f->s, &f->st, a, -1, SLOT_PISTOL, false);
    fa_attack_mods(&f->s, &f->st, a, t, &R, false, f->st.c[a].fp.at, &m);
    mods_value(&m, FA_MOD_BATTLE_SUPERIORITY, &found);
    cr_assert(!found);
    cr_assert_eq(mods_value(&m, FA_MOD_PRONE_VS_RANGED, &found), 2);
    cr_assert_eq(fa_defense_value(&f->s, &f->st, t, FA_DEF_DEFENSE, a, true), 17);
    cr_assert_eq(fa_defense_value(&f->s, &f->st, t, FA_DEF_DEFENSE, a, false), 15);
    free(f);
}

Test(alloy_attack, defense_bonuses_stack_by_kind_L7_15_004_1028) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    afx_cond(f, t, FA_C_TOTAL_DEFENSE);
    cr_assert_eq(fa_defense_value(&f->s, &f->st, t, FA_DEF_REFLEX, a, false), 16);
    afx_cond(f, t, FA_C_SECOND_WIND);       /* a different bonus: stacks */
    cr_assert_eq(fa_defense_value(&f->s, &f->st, t, FA_DEF_REFLEX, a, false), 18);
    /* the same bonus twice (two sources) counts once: one condition bit */
    fa_run *r = afx_run(f, NULL, 0);
    fa_cond c = {.kind = FA_C_TOTAL_DEFENSE, .ends = FA_ENDS_EVENT, .whose = -1,
                 .other = -1, .source = 0};
    cr_assert_eq(fa_cond_add(r, t, c), FRAY_OK);
    cr_assert_eq(fa_defense_value(&f->s, &f->st, t, FA_DEF_REFLEX, a, false), 18);
    afx_cond(f, t, FA_C_UNCONSCIOUS);       /* -5 to all defenses */
    cr_assert_eq(fa_defense_value(&f->s, &f->st, t, FA_DEF_REFLEX, a, false), 13);
    free(f);
}

Test(alloy_attack, flanking_gives_battle_superiority_once_004_794_804) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 4, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 5, 5, SLOT_SWORD);
    int b = afx_add(f, 0, 7, 5, SLOT_SWORD);    /* not adjacent yet */
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, true);
    fa_mods m;
    bool found;
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    mods_value(&m, FA_MOD_FLANKING, &found);
    cr_assert(!found);
    f->st.c[b].fp.at = (fray_pos){6, 5};        /* the opposite side */
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    cr_assert_eq(mods_value(&m, FA_MOD_FLANKING, &found), 2);
    cr_assert_eq(m.total, 2);
    /* an ally who cannot take opportunity actions does not flank (004:800) */
    afx_cond(f, b, FA_C_DAZED);
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    cr_assert_eq(m.total, 0);
    /* battle superiority from two sources is one state: +2 (L7.15) */
    f->st.c[b].n_cond = 0;
    f->st.c[b].has = 0;
    afx_cond(f, t, FA_C_STUNNED);
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    cr_assert_eq(m.total, 2);
    free(f);
}

Test(alloy_attack, range_short_long_beyond_004_89_141_143) {
    afx *f = afx_new(40, 20);
    int a = afx_add(f, 0, 0, 5, SLOT_PISTOL);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, false);
    fa_mods m;
    bool found;
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    cr_assert(!m.impossible);
    mods_value(&m, FA_MOD_LONG_RANGE, &found);
    cr_assert(!found, "6 squares is short range");
    f->st.c[t].fp.at.x = 7;
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    cr_assert_eq(mods_value(&m, FA_MOD_LONG_RANGE, &found), -2);
    f->st.c[t].fp.at.x = 24;
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    cr_assert(!m.impossible);
    f->st.c[t].fp.at.x = 25;
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    cr_assert(m.impossible);
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, t);
    fa_run *r = AFX_DICE(f, 10);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID, "beyond long range");
    /* melee: reach */
    f->st.c[a].wield = SLOT_SWORD;
    f->st.c[t].fp.at.x = 2;
    c = afx_cmd(FA_CMD_ATTACK, a, t);
    r = AFX_DICE(f, 10);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID, "out of reach");
    free(f);
}

Test(alloy_attack, cover_from_terrain_004_860_866) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 2, 5, SLOT_PISTOL);
    int t = afx_add(f, 1, 8, 5, SLOT_SWORD);
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, false);
    fa_mods m;
    bool found;
    /* a low wall right in front of the target: improved cover */
    cr_assert_eq(fray_grid_set_edge(&f->s.map, (fray_pos){7, 5}, (fray_pos){8, 5},
                                    FRAY_EDGE_LOW), FRAY_OK);
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    cr_assert_eq(fray_grid_cover(&f->s.map, f->st.c[a].fp, f->st.c[t].fp), FRAY_COVER_HARD);
    cr_assert_eq(mods_value(&m, FA_MOD_IMPROVED_COVER, &found), -5);
    cr_assert_eq(fray_grid_set_edge(&f->s.map, (fray_pos){7, 5}, (fray_pos){8, 5},
                                    FRAY_EDGE_NONE), FRAY_OK);
    /* a wall between: total cover, no attack */
    for (int y = 0; y < 20; y++)
        f->s.map.terrain[y][5] = FRAY_TERRAIN_WALL;
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    cr_assert(m.impossible);
    cr_assert_eq(m.why_impossible, FA_NOTE_TOTAL_COVER);
    free(f);
}

Test(alloy_attack, soft_cover_corner_is_minus_2_004_864) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 2, 2, SLOT_PISTOL);
    int t = afx_add(f, 1, 6, 4, SLOT_SWORD);
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, false);
    fa_mods m;
    bool found;
    /* find a wall square or a low wall giving cover (the grid's "soft") */
    bool tested = false;
    for (int x = 0; x <= 10 && !tested; x++)
        for (int y = 0; y <= 10 && !tested; y++)
            for (int kind = 0; kind < 3 && !tested; kind++) {
                fray_pos p = {(int16_t)x, (int16_t)y};
                fray_pos q = kind == 1 ? (fray_pos){(int16_t)(x + 1), (int16_t)y}
                                       : (fray_pos){(int16_t)x, (int16_t)(y + 1)};
                if ((x == 2 && y == 2) || (x == 6 && y == 4))
                    continue;
                if (kind == 0)
                    f->s.map.terrain[y][x] = FRAY_TERRAIN_WALL;
                else
                    cr_assert_eq(fray_grid_set_edge(&f->s.map, p, q, FRAY_EDGE_LOW), FRAY_OK);
                if (fray_grid_cover(&f->s.map, f->st.c[a].fp, f->st.c[t].fp) == FRAY_COVER_SOFT) {
                    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
                    cr_assert_eq(mods_value(&m, FA_MOD_COVER, &found), -2);
                    cr_assert_eq(m.cover_value, 2);
                    cr_assert(!m.impossible);
                    tested = true;
                }
                f->s.map.terrain[y][x] = FRAY_TERRAIN_OPEN;
                if (kind != 0)
                    cr_assert_eq(fray_grid_set_edge(&f->s.map, p, q, FRAY_EDGE_NONE), FRAY_OK);
            }
    cr_assert(tested);
    free(f);
}

Test(alloy_attack, creatures_in_the_way_give_cover_L7_20) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 2, 5, SLOT_PISTOL);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    int k = afx_add(f, 1, 4, 5, SLOT_SWORD);   /* an enemy of a, in the way */
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, false);
    fa_mods m;
    bool found;
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    cr_assert_eq(mods_value(&m, FA_MOD_CREATURE_COVER, &found), -2);
    cr_assert_eq(m.cover_by, k);
    /* an ally of the attacker in the way gives none */
    f->s.c[k].side = 0;
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    mods_value(&m, FA_MOD_CREATURE_COVER, &found);
    cr_assert(!found);
    /* option creature_cover 0: none */
    f->s.c[k].side = 1;
    f->s.opt.creature_cover = 0;
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    mods_value(&m, FA_MOD_CREATURE_COVER, &found);
    cr_assert(!found);
    free(f);
}

Test(alloy_attack, cover_struck_when_a_creature_is_the_cover_004_870_878) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 2, 5, SLOT_PISTOL);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    int k = afx_add(f, 1, 4, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, t);
    /* 7 + 7 - 2 = 12 vs 15: a miss; 14 without cover would not hit either */
    fa_run *r = AFX_DICE(f, 7);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_count(f, FA_FACT_COVER_STRUCK), 0);
    /* 9 + 7 - 2 = 14: missed only because of the cover; 16 hits the
     * covering creature (Defense 15): it takes the damage */
    r = AFX_DICE(f, 9, 2, 3);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    const fa_fact *cs = afx_fact(f, FA_FACT_COVER_STRUCK, 0);
    cr_assert_not_null(cs);
    cr_assert_eq(cs->target, k);
    cr_assert_eq(cs->v[0], t);
    cr_assert_eq(cs->v[2], 1);
    cr_assert_eq(f->st.c[k].hp, 30 - 8);
    cr_assert_eq(f->st.c[t].hp, 30);
    /* the covering creature with a higher defense is missed: the original
     * target is struck (it dodges), unless it chooses to take the hit */
    f->s.sb[SB_OGRE] = f->s.sb[SB_SOLDIER];
    f->s.sb[SB_OGRE].defense[FA_DEF_DEFENSE] = 20;
    f->s.c[k].sb = SB_OGRE;
    r = AFX_DICE(f, 9, 2, 3);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cs = afx_fact(f, FA_FACT_COVER_STRUCK, 0);
    cr_assert_eq(cs->v[2], 0);
    cr_assert_eq(cs->v[3], 0);
    cr_assert_eq(f->ev.n_choices, 1);
    cr_assert_eq(f->ev.choices[0].kind, FA_CH_COVER_TAKES_HIT);
    cr_assert_eq(f->st.c[t].hp, 30 - 8);
    free(f);
}

Test(alloy_attack, concealment_and_total_concealment_004_882_898) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 2, 5, SLOT_PISTOL);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, false);
    fa_mods m;
    bool found;
    fray_area_add(&f->s.obscured, (fray_pos){6, 5});
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    cr_assert_eq(mods_value(&m, FA_MOD_CONCEALMENT, &found), -2);
    fray_area_add(&f->s.dark, (fray_pos){6, 5});
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    cr_assert_eq(mods_value(&m, FA_MOD_TOTAL_CONCEALMENT, &found), -5);
    mods_value(&m, FA_MOD_CONCEALMENT, &found);
    cr_assert(!found, "the worse one only");
    /* a blinded attacker: everything has total concealment (004:917) */
    fray_area_clear(&f->s.dark);
    fray_area_clear(&f->s.obscured);
    afx_cond(f, a, FA_C_BLINDED);
    fa_attack_mods(&f->s, &f->st, a, t, &L, false, f->st.c[a].fp.at, &m);
    cr_assert_eq(mods_value(&m, FA_MOD_TOTAL_CONCEALMENT, &found), -5);
    free(f);
}

Test(alloy_attack, several_targets_attack_and_damage_each_004_75_87) {
    afx *f = afx_new(20, 20);
    fa_power *p = afx_power(f, SB_SOLDIER, 0);
    p->weapon = SLOT_PISTOL;
    p->ability = FA_DEX;
    p->ranged = true;
    int a = afx_add(f, 0, 2, 5, SLOT_PISTOL);
    int t1 = afx_add(f, 1, 6, 5, SLOT_SWORD);
    int t2 = afx_add(f, 1, 6, 8, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, t1);
    c.power = 0;
    c.n_targets = 2;
    c.targets[1] = (int8_t)t2;
    fa_run *r = AFX_DICE(f, 12, 1, 2, 13, 3, 4);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_count(f, FA_FACT_ATTACK), 2);
    cr_assert_eq(afx_count(f, FA_FACT_DAMAGE), 2);
    cr_assert_eq(f->st.c[t1].hp, 30 - 6);
    cr_assert_eq(f->st.c[t2].hp, 30 - 10);
    /* one round of ammunition per target */
    cr_assert_eq(f->st.c[a].ammo[SLOT_PISTOL], 13);
    cr_assert_eq(afx_fact(f, FA_FACT_AMMO, 0)->v[0], 2);
    /* a basic attack has one target */
    c.power = -1;
    r = AFX_DICE(f, 12, 1, 2, 13, 3, 4);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    free(f);
}

Test(alloy_attack, ammunition_runs_out_004_87) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 2, 5, SLOT_PISTOL);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    f->st.c[a].ammo[SLOT_PISTOL] = 0;
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, t);
    fa_run *r = AFX_DICE(f, 12, 1, 2);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    free(f);
}

Test(alloy_attack, charge_plus_1_melee_004_524_846) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_CHARGE, a, t);
    fa_run *r = AFX_DICE(f, 7, 1);   /* 7 + 7 + 1 = 15 hits Defense 15 */
    cr_assert_eq(fa_attack(r, &c, true), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[5], FA_HIT);
    bool found;
    cr_assert_eq(afx_mod(f, FA_MOD_CHARGE, &found), 1);
    free(f);
}

Test(alloy_attack, aid_another_attack_plus_2_used_once_004_428) {
    afx *f = afx_new(20, 20);
    int helper = afx_add(f, 0, 4, 4, SLOT_SWORD);   /* helper and ally do not flank */
    int ally = afx_add(f, 0, 5, 6, SLOT_SWORD);
    int t = afx_add(f, 1, 5, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_AID, helper, t);
    c.n_targets = 2;
    c.targets[1] = (int8_t)ally;
    c.option = FA_AID_ATTACK;
    /* vs Defense 10: 2 + 7 = 9 misses */
    fa_run *r = AFX_DICE(f, 2);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[4], 10);
    cr_assert(!fa_has(&f->st.c[ally], FA_C_AID_ATTACK));
    r = AFX_DICE(f, 3);               /* 10: hits, no damage */
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_count(f, FA_FACT_DAMAGE), 0);
    cr_assert(fa_has(&f->st.c[ally], FA_C_AID_ATTACK));
    const fa_cond *ac = fa_cond_find(&f->st.c[ally], FA_C_AID_ATTACK, t);
    cr_assert_eq(ac->value, 2);
    cr_assert_eq(ac->ends, FA_ENDS_USED);
    cr_assert_eq(ac->whose, helper);
    /* the ally's next attack on t: +2, then gone */
    fa_command atk = afx_cmd(FA_CMD_ATTACK, ally, t);
    r = AFX_DICE(f, 6, 1);            /* 6 + 7 + 2 = 15 hits */
    cr_assert_eq(fa_attack(r, &atk, false), FRAY_OK);
    bool found;
    cr_assert_eq(afx_mod(f, FA_MOD_AID, &found), 2);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[5], FA_HIT);
    cr_assert(!fa_has(&f->st.c[ally], FA_C_AID_ATTACK));
    free(f);
}

Test(alloy_attack, aid_another_defense_and_four_aiders_004_428_430) {
    afx *f = afx_new(20, 20);
    int ally = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    int helpers[5];
    fray_pos spots[5] = {{7, 4}, {7, 5}, {7, 6}, {6, 4}, {6, 6}};
    for (int i = 0; i < 5; i++)
        helpers[i] = afx_add(f, 0, spots[i].x, spots[i].y, SLOT_SWORD);
    for (int i = 0; i < 5; i++) {
        fa_command c = afx_cmd(FA_CMD_AID, helpers[i], t);
        c.n_targets = 2;
        c.targets[1] = (int8_t)ally;
        c.option = FA_AID_DEFENSE;
        fa_run *r = AFX_DICE(f, 15);
        cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
        if (i == 4) {
            const fa_fact *ne = afx_fact(f, FA_FACT_NO_EFFECT, 0);
            cr_assert_not_null(ne, "a fifth aider gives nothing");
            cr_assert_eq(ne->v[0], FA_NOTE_AID_LIMIT);
        }
    }
    /* four aiders: +8 to all defenses against t's next attack */
    cr_assert_eq(fa_defense_value(&f->s, &f->st, ally, FA_DEF_DEFENSE, t, false), 23);
    cr_assert_eq(fa_defense_value(&f->s, &f->st, ally, FA_DEF_DEFENSE, helpers[0], false), 15);
    fa_command atk = afx_cmd(FA_CMD_ATTACK, t, ally);
    fa_run *r = AFX_DICE(f, 2);
    cr_assert_eq(fa_attack(r, &atk, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[4], 23);
    cr_assert_eq(fa_defense_value(&f->s, &f->st, ally, FA_DEF_DEFENSE, t, false), 15,
                 "used by that attack");
    free(f);
}

Test(alloy_attack, held_object_vs_fortitude_drops_004_434_444) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_PISTOL);
    fa_command c = afx_cmd(FA_CMD_HELD_OBJECT, a, t);
    fa_run *r = AFX_DICE(f, 5);        /* 12 vs Fortitude 13: miss */
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[3], FA_DEF_FORTITUDE);
    cr_assert_eq(f->st.c[t].wield, SLOT_PISTOL);
    r = AFX_DICE(f, 6);                /* 13: hit, no damage */
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(f->st.c[t].wield, -1);
    cr_assert_eq(afx_fact(f, FA_FACT_DROP, 0)->v[0], SLOT_PISTOL);
    cr_assert_eq(afx_count(f, FA_FACT_DAMAGE), 0);
    cr_assert_eq(f->st.c[t].hp, 30);
    /* nothing left in hand: refused */
    r = AFX_DICE(f, 6);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    free(f);
}

Test(alloy_attack, coup_de_grace_crit_and_death_004_541_549) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_COUP, a, t);
    fa_run *r = AFX_DICE(f, 10);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID, "not helpless");
    afx_cond(f, t, FA_C_HELPLESS);
    /* 2 + 7 + 2 (battle superiority) = 11 vs 15: a miss */
    r = AFX_DICE(f, 2);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[5], FA_MISS);
    /* 6 + 9 = 15 hits: a crit, 8 + 2 = 10 < 15 (half of 30): not dead */
    r = AFX_DICE(f, 6);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[5], FA_CRIT);
    cr_assert_eq(f->st.c[t].hp, 20);
    cr_assert(!fa_has(&f->st.c[t], FA_C_DEAD));
    /* 2{W}+3+2 = 21 >= 15: dies though its hit points stay above -15 */
    fa_power *p = afx_power(f, SB_SOLDIER, 0);
    p->mult = 2;
    p->damage_bonus = 3;
    c.power = 0;
    r = AFX_DICE(f, 6);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(f->st.c[t].hp, -1);
    cr_assert(fa_has(&f->st.c[t], FA_C_DEAD));
    cr_assert_not_null(afx_fact(f, FA_FACT_DEAD, 0));
    cr_assert(f->st.c[t].flags & FA_F_OUT);
    free(f);
}

Test(alloy_attack, coup_de_grace_without_a_roll_option_coup_rolls_L7_18) {
    afx *f = afx_new(20, 20);
    f->s.opt.coup_rolls = false;
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    afx_cond(f, t, FA_C_HELPLESS);
    fa_command c = afx_cmd(FA_CMD_COUP, a, t);
    fa_run *r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(f->ev.n_dice, 0, "no die: the hit is a crit");
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[5], FA_CRIT);
    cr_assert_eq(f->st.c[t].hp, 20);
    free(f);
}

Test(alloy_attack, bull_rush_push_and_slip_004_504_513) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_BULL_RUSH, a, t);
    /* Str vs Fortitude: 2 + 2 = +4, no weapon: 8 + 4 = 12 vs 13 misses */
    fa_run *r = AFX_DICE(f, 8);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    const fa_fact *at = afx_fact(f, FA_FACT_ATTACK, 0);
    cr_assert_eq(at->v[1], 4);
    cr_assert_eq(at->v[3], FA_DEF_FORTITUDE);
    cr_assert_eq(f->st.c[t].fp.at.x, 6);
    r = AFX_DICE(f, 9);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(f->st.c[t].fp.at.x, 7, "pushed 5 ft straight away");
    cr_assert_eq(f->st.c[t].fp.at.y, 5);
    cr_assert_eq(f->st.c[a].fp.at.x, 6, "the attacker slips into the vacated space");
    cr_assert_not_null(afx_fact(f, FA_FACT_PUSH, 0));
    cr_assert_eq(afx_count(f, FA_FACT_DAMAGE), 0);
    /* no room: walls all around the far side */
    for (int y = 4; y <= 6; y++)
        f->s.map.terrain[y][8] = FRAY_TERRAIN_WALL;
    f->s.map.terrain[4][7] = FRAY_TERRAIN_WALL;
    f->s.map.terrain[6][7] = FRAY_TERRAIN_WALL;
    r = AFX_DICE(f, 15);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_NO_EFFECT, 0)->v[0], FA_NOTE_NO_ROOM);
    cr_assert_eq(f->st.c[t].fp.at.x, 7);
    free(f);
}

Test(alloy_attack, bull_rush_named_square_and_size_004_508) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_BULL_RUSH, a, t);
    c.origin = (fray_pos){7, 6};
    fa_run *r = AFX_DICE(f, 15);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(f->st.c[t].fp.at.x, 7);
    cr_assert_eq(f->st.c[t].fp.at.y, 6);
    /* a square toward the attacker is not a push */
    c.origin = (fray_pos){6, 5};
    r = AFX_DICE(f, 15);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    /* more than one size category apart: refused */
    int tiny = afx_add_sb(f, SB_TINY, 1, 5, 6, -1);
    c = afx_cmd(FA_CMD_BULL_RUSH, a, tiny);
    r = AFX_DICE(f, 15);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    free(f);
}

Test(alloy_attack, trip_unarmed_vs_reflex_prone_004_732_739) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_TRIP, a, t);
    /* unarmed: Str 2 + 2 = +4 (no sword proficiency) vs Reflex 14 */
    fa_run *r = AFX_DICE(f, 9);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[1], 4);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[3], FA_DEF_REFLEX);
    cr_assert(!fa_has(&f->st.c[t], FA_C_PRONE));
    r = AFX_DICE(f, 10);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert(fa_has(&f->st.c[t], FA_C_PRONE));
    cr_assert_eq(afx_count(f, FA_FACT_DAMAGE), 0);
    free(f);
}

Test(alloy_attack, grapple_unarmed_str_vs_reflex_004_606_618) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_GRAPPLE, a, t);
    fa_run *r = AFX_DICE(f, 10);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    const fa_cond *g = fa_cond_find(&f->st.c[t], FA_C_GRAPPLED, a);
    cr_assert_not_null(g);
    cr_assert_eq(g->ends, FA_ENDS_SUSTAIN);
    cr_assert_eq(g->whose, a);
    cr_assert_eq(f->st.c[a].grappling, t);
    /* the grappled target attacks at -2 (004:962) */
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, t, -1, -1, true);
    fa_mods m;
    bool found;
    fa_attack_mods(&f->s, &f->st, t, a, &L, false, f->st.c[t].fp.at, &m);
    cr_assert_eq(mods_value(&m, FA_MOD_GRAPPLED_ATTACKER, &found), -2);
    free(f);
}

Test(alloy_attack, grapple_needs_a_free_hand_and_one_size_004_611) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_RIFLE);   /* two-handed */
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_GRAPPLE, a, t);
    fa_run *r = AFX_DICE(f, 10);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    f->st.c[a].wield = SLOT_SWORD;
    int tiny = afx_add_sb(f, SB_TINY, 1, 4, 5, -1);
    c = afx_cmd(FA_CMD_GRAPPLE, a, tiny);
    r = AFX_DICE(f, 10);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    free(f);
}

/* 004:599 checks against a defense: no natural 1 or 20 (fray's reading). */
Test(alloy_attack, check_vs_defense_no_automatic_results) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    fa_run *r = AFX_DICE(f, 10);
    cr_assert(fa_check_vs(r, a, 4, 14));
    cr_assert_eq(afx_fact(f, FA_FACT_CHECK, 0)->v[4], 1);
    r = AFX_DICE(f, 9);
    cr_assert(!fa_check_vs(r, a, 4, 14));
    r = AFX_DICE(f, 20);
    cr_assert(!fa_check_vs(r, a, 0, 21), "a natural 20 is not a success");
    r = AFX_DICE(f, 1);
    cr_assert(fa_check_vs(r, a, 10, 11), "a natural 1 is not a failure");
    cr_assert_eq(f->ev.dice[0].purpose, FA_DIE_CHECK);
    free(f);
}

Test(alloy_attack, opportunity_attack_is_a_melee_basic_attack_004_453) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_PISTOL);
    fa_run *r = AFX_DICE(f, 8, 4);
    cr_assert_eq(fa_opportunity_attack(r, a, t), FRAY_OK);
    cr_assert_eq(afx_fact(f, FA_FACT_ATTACK, 0)->v[1], 7);
    cr_assert_eq(f->st.c[t].hp, 24);
    free(f);
}

Test(alloy_attack, given_dice_replay_the_same_event) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_state before = f->st;
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, t);
    fa_run *r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    fa_event *rec = malloc(sizeof *rec);
    *rec = f->ev;
    fa_state after = f->st;
    f->st = before;
    r = afx_run(f, NULL, 0);
    r->replay = rec;
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(f->st.c[t].hp, after.c[t].hp);
    cr_assert_eq(f->ev.n_facts, rec->n_facts);
    free(rec);
    free(f);
}

/* 004:49-53, 175: hits and crits over many seeded rolls agree with
 * fray_odds_d20_attack within 5 standard errors of the sample. */
static void odds_case(int bonus_extra, int defense, int crit_min) {
    afx *f = afx_new(20, 20);
    f->s.sb[SB_SOLDIER].crit_min = (int8_t)crit_min;
    f->s.sb[SB_SOLDIER].attack_bonus = (int8_t)(2 + bonus_extra);
    f->s.sb[SB_SOLDIER].hp = 30000;
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    f->s.sb[SB_SOLDIER].defense[FA_DEF_DEFENSE] = (int8_t)defense;
    fray_rng_seed(&f->st.rng, 20261125, (uint64_t)defense);
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, t);
    const int N = 20000;
    int hits = 0, crits = 0;
    for (int i = 0; i < N; i++) {
        fa_run *r = afx_run(f, NULL, 0);
        r->facts = true;
        cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
        int res = afx_fact(f, FA_FACT_ATTACK, 0)->v[5];
        hits += res != FA_MISS;
        crits += res == FA_CRIT;
        f->st.c[t].hp = 30000;
    }
    fray_d20_attack_query q = {.bonus = 7 + bonus_extra, .defense = defense,
                               .crit_min = crit_min};
    fray_d20_attack_odds o;
    cr_assert_eq(fray_odds_d20_attack(&q, NULL, &o), FRAY_OK);
    double ph = fray_ratio_to_double(o.p_hit), pc = fray_ratio_to_double(o.p_crit);
    fray_d20_attack_odds_free(&o);
    double tol_h = 5 * sqrt(ph * (1 - ph) / N) + 1e-9;
    double tol_c = 5 * sqrt(pc * (1 - pc) / N) + 1e-9;
    cr_assert(fabs((double)hits / N - ph) <= tol_h, "hits %d/%d vs %f", hits, N, ph);
    cr_assert(fabs((double)crits / N - pc) <= tol_c, "crits %d/%d vs %f", crits, N, pc);
    free(f);
}

Test(alloy_attack, hit_and_crit_chances_match_exact_odds_004_49_175) {
    odds_case(0, 15, 20);    /* +7 vs 15: 13/20 hit, 1/20 crit */
    odds_case(0, 27, 20);    /* only natural 20 hits, never a crit */
    odds_case(3, 12, 18);    /* widened crit range */
    odds_case(-8, 3, 19);    /* natural 1 still misses */
}

/* 004:763-769 special abilities; rulesets-checklists L8. */
Test(alloy_attack, power_effects_on_hit_and_usage_L8) {
    afx *f = afx_new(20, 20);
    fa_power *p = afx_power(f, SB_SOLDIER, 0);
    p->usage = FA_ENCOUNTER;
    p->n_effects = 1;
    p->effects[0] = (fa_effect_def){FA_C_DAZED, FA_ENDS_SAVE, 0};
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, t);
    c.power = 0;
    fa_run *r = AFX_DICE(f, 3);                   /* a miss: no effect */
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert(!fa_has(&f->st.c[t], FA_C_DAZED));
    cr_assert(f->st.c[a].powers_used & 1u, "an encounter power is spent");
    r = AFX_DICE(f, 15, 2);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    const fa_cond *d = fa_cond_find(&f->st.c[t], FA_C_DAZED, -1);
    cr_assert_not_null(d);
    cr_assert_eq(d->ends, FA_ENDS_SAVE);
    cr_assert_eq(d->source, a);
    free(f);
}

Test(alloy_attack, power_without_damage_dice_deals_none) {
    afx *f = afx_new(20, 20);
    fa_power *p = afx_power(f, SB_SOLDIER, 0);
    p->weapon = -1;
    p->dice = (fa_dice){0, 0};
    p->n_effects = 1;
    p->effects[0] = (fa_effect_def){FA_C_SLOWED, FA_ENDS_END_OF_TURN, 0};
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, t);
    c.power = 0;
    fa_run *r = AFX_DICE(f, 15);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(f->st.c[t].hp, 30);
    cr_assert_eq(afx_count(f, FA_FACT_DAMAGE), 0);
    cr_assert(fa_has(&f->st.c[t], FA_C_SLOWED));
    free(f);
}

Test(alloy_attack, several_targets_all_checked_before_any_roll_004_75) {
    afx *f = afx_new(20, 20);
    afx_power(f, SB_SOLDIER, 0);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t1 = afx_add(f, 1, 6, 5, SLOT_SWORD);
    int t2 = afx_add(f, 1, 9, 5, SLOT_SWORD);   /* out of reach */
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, t1);
    c.power = 0;
    c.n_targets = 2;
    c.targets[1] = (int8_t)t2;
    fa_run *r = AFX_DICE(f, 15, 3, 15, 3);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    cr_assert_eq(f->ev.n_dice, 0);
    cr_assert_eq(f->st.c[t1].hp, 30);
    free(f);
}

/* 004:155-183: the damage an attack deals (misses 0, crits the maximum +
 * crit dice) has the exact mean fray_odds_d20_attack gives, within 5
 * standard errors of a seeded sample. */
Test(alloy_attack, damage_mean_matches_exact_odds_004_155_183) {
    afx *f = afx_new(20, 20);
    f->s.weapons[W_SWORD].crit = (fa_dice){1, 6};
    f->s.sb[SB_SOLDIER].hp = 30000;
    f->s.sb[SB_SOLDIER].crit_min = 19;
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fray_rng_seed(&f->st.rng, 7, 7);
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, t);
    const int N = 20000;
    double sum = 0, sum2 = 0;
    for (int i = 0; i < N; i++) {
        fa_run *r = afx_run(f, NULL, 0);
        cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
        const fa_fact *d = afx_fact(f, FA_FACT_DAMAGE, 0);
        double x = d ? d->v[0] : 0;
        sum += x;
        sum2 += x * x;
        f->st.c[t].hp = 30000;
    }
    fray_dice *dmg = NULL, *crit = NULL;
    fray_diag diag;
    cr_assert_eq(fray_dice_parse("1d8+2", NULL, NULL, &dmg, &diag), FRAY_OK);
    cr_assert_eq(fray_dice_parse("1d6", NULL, NULL, &crit, &diag), FRAY_OK);
    fray_d20_attack_query q = {.bonus = 7, .defense = 15, .crit_min = 19,
                               .damage = dmg, .crit_dice = crit};
    fray_d20_attack_odds o;
    cr_assert_eq(fray_odds_d20_attack(&q, NULL, &o), FRAY_OK);
    double mean = fray_ratio_to_double(o.damage.mean);
    fray_d20_attack_odds_free(&o);
    fray_dice_free(dmg);
    fray_dice_free(crit);
    double m = sum / N, var = sum2 / N - m * m;
    cr_assert(fabs(m - mean) <= 5 * sqrt(var / N), "mean %f vs exact %f", m, mean);
    free(f);
}

Test(alloy_attack, bull_rush_large_target_one_size_up_004_508) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 4, 5, SLOT_SWORD);
    int o = afx_add_sb(f, SB_OGRE, 1, 5, 5, 0);     /* 2x2 at 5..6 x 5..6 */
    cr_assert_eq(f->st.c[o].fp.side, 2);
    fa_command c = afx_cmd(FA_CMD_BULL_RUSH, a, o);
    fa_run *r = AFX_DICE(f, 15);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert_eq(f->st.c[o].fp.at.x, 6, "pushed one square away");
    cr_assert_eq(f->st.c[a].fp.at.x, 5, "the attacker steps into the freed place");
    free(f);
}
