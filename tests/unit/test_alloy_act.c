/*
 * test_alloy_act.c - Alloy's actions but the attack rolls (act.c):
 * moving (walk, run, adjust, crawl, stand, squeeze; Slowed, difficult
 * terrain, occupied squares), opportunity attacks (004:449-462), charge
 * (004:517-527), ready (004:643-656), total defense, second wind,
 * draw, reload, drop prone, escape, move grappled target, and the
 * refusals' words. Checklist L3, L5. The attack rolls are attack.c's:
 * here fa_attack and the rest are stand-ins that record their calls
 * (alloy_fixture.h AF_FAKE_ATTACKS).
 */
#define AF_FAKE_ATTACKS
#include "alloy_fixture.h"

/* Tony (side 0, speed 6 = 30 ft) and orc 1 (side 1), Tony first. */
static fixture *pair(int *a, int *b, int ax, int ay, int bx, int by) {
    fixture *f = af_new(12, 12);
    int sa = af_block(f, "trooper", 6, 0, 20);
    int sb = af_block(f, "orc", 6, 0, 20);
    *a = af_add(f, "Tony", sa, 0, ax, ay);
    *b = af_add(f, "orc 1", sb, 1, bx, by);
    return f;
}

/* 004:666 "If your speed is normally 30 feet, you can move up to 40
 * feet"; -5 and battle superiority until the start of your next turn
 * (FA_C_RUNNING, 004:667-668). */
Test(alloy_act, run_30_ft_moves_40_ft_004_666) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 1, 10, 10);
    af_go(f);
    fa_command r = af_cmd(FA_CMD_RUN, a);
    af_line(f, &r, a, 9, 1, 0);
    cr_assert_eq(af_do(f, &r), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony can move only 40 feet with this action, not 45");
    r = af_cmd(FA_CMD_RUN, a);
    af_line(f, &r, a, 8, 1, 0);
    cr_assert_eq(af_do(f, &r), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].fp.at.x, 9);
    const fa_fact *mv = af_fact(f, FA_FACT_MOVE, a);
    cr_assert_not_null(mv);
    cr_assert_eq(mv->v[4], 8);
    const fa_cond *run = fa_cond_find(&f->st.c[a], FA_C_RUNNING, -1);
    cr_assert_not_null(run);
    cr_assert_eq(run->ends, FA_ENDS_START_OF_TURN);
    cr_assert_eq(run->whose, a);
    af_end_turn(f);
    cr_assert(fa_has(&f->st.c[a], FA_C_RUNNING), "through the others' turns");
    af_end_turn(f);
    cr_assert_eq(f->st.cur, a);
    cr_assert_not(fa_has(&f->st.c[a], FA_C_RUNNING), "until the start of its next turn");
    free(f);
}

/* 004:779 walk up to your speed. */
Test(alloy_act, walk_up_to_speed_004_779) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 1, 10, 10);
    af_go(f);
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 7, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony can move only 30 feet with this action, not 35");
    w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 6, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK);
    cr_assert_eq(f->st.c[a].moved, 6);
    fa_command bad = af_cmd(FA_CMD_WALK, a);
    af_path(&bad, 1, 9, 3);
    cr_assert_eq(af_do(f, &bad), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony cannot move from square (7, 1) to square (9, 3)");
    free(f);
}

/* 004:993-997 Slowed: speed 10 ft at most (no running past it), and no
 * more once 10 ft are covered this turn. */
Test(alloy_act, slowed_10_ft_004_993_997) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 1, 10, 10);
    af_go(f);
    af_cond(f, a, FA_C_SLOWED, FA_ENDS_SAVE, b, 0);
    fa_command r = af_cmd(FA_CMD_RUN, a);
    af_line(f, &r, a, 3, 1, 0);
    cr_assert_eq(af_do(f, &r), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony can move only 10 feet with this action, not 15");
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 2, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK);
    w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 1, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Slowed: Tony has already moved 10 feet this turn");
    free(f);
}

/* L7.9 diagonals: counted 1-2-1 (three diagonals cost 20 ft), or one. */
Test(alloy_act, diagonals_counted_or_one_option) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 1, 10, 10);
    f->s.sb[f->s.c[a].sb].speed = 3;
    af_go(f);
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 3, 1, 1);
    cr_assert_eq(af_do(f, &w), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony can move only 15 feet with this action, not 20");
    f->s.opt.diagonals = FRAY_AREA_SQUARE;
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    free(f);
}

/* 004:417 difficult terrain costs 1 extra; adjusting into it is not
 * allowed (004:417). */
Test(alloy_act, difficult_terrain_004_417) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 1, 10, 10);
    f->s.sb[f->s.c[a].sb].speed = 3;
    f->s.map.terrain[1][2] = FRAY_TERRAIN_DIFFICULT;
    af_go(f);
    fa_command s = af_cmd(FA_CMD_SHIFT, a);
    af_path(&s, 1, 2, 1);
    cr_assert_eq(af_do(f, &s), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony cannot adjust into difficult terrain (2, 1)");
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 3, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony can move only 15 feet with this action, not 20");
    w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 2, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK);
    cr_assert_eq(f->st.c[a].moved, 3);
    free(f);
}

/* 004:416, 459: adjusting out of a threatened square provokes nothing;
 * walking out provokes, and the attack comes BEFORE the step (004:461). */
Test(alloy_act, adjust_no_oa_walk_provokes_before_the_step_004_459_461) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 3, 5);
    af_go(f);
    fa_command s = af_cmd(FA_CMD_SHIFT, a);
    af_path(&s, 1, 1, 5);
    cr_assert_eq(af_do(f, &s), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->fake.hook_calls, 0);
    cr_assert_null(af_fact(f, FA_FACT_PROVOKE, -1));
    f->st.c[a].fp.at = (fray_pos){2, 5};
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_path(&w, 2, 1, 5, 0, 5);
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->fake.hook_calls, 1);
    cr_assert_eq(f->fake.hook_who[0], b);
    cr_assert_eq(f->fake.oas, 1);
    cr_assert_eq(f->fake.oa_target_at[0].x, 2, "the opportunity attack before the step");
    const fa_fact *p = af_fact(f, FA_FACT_PROVOKE, a);
    cr_assert_not_null(p);
    cr_assert_eq(p->target, b);
    cr_assert_eq(af_fact(f, FA_FACT_OPPORTUNITY, b)->v[0], 1);
    cr_assert_eq(f->ev.n_choices, 1);
    cr_assert_eq(f->ev.choices[0].kind, FA_CH_OPPORTUNITY);
    cr_assert_eq(f->st.c[a].fp.at.x, 0);
    cr_assert_eq(f->st.c[b].oa_turn, f->st.turn_serial);
    free(f);
}

/* 004:461: the move step does not happen when the mover drops. */
Test(alloy_act, oa_that_drops_stops_the_move_004_461) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 3, 5);
    af_go(f);
    f->fake.oa_drops = true;
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_path(&w, 2, 1, 5, 0, 5);
    cr_assert_eq(af_do(f, &w), FRAY_OK);
    cr_assert_eq(f->st.c[a].fp.at.x, 2);
    cr_assert_null(af_fact(f, FA_FACT_MOVE, a));
    cr_assert(f->st.over, "Tony's side has nobody standing");
    free(f);
}

/* 004:455: one opportunity attack per attacker on each combatant's turn;
 * another on a later turn. A declined one (the table's word through the
 * hook) is recorded as a choice and leaves the attack available. */
Test(alloy_act, one_oa_per_turn_004_455) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 3, 5);
    af_go(f);
    f->fake.hook_declines = true;
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_path(&w, 1, 2, 4);
    cr_assert_eq(af_do(f, &w), FRAY_OK);
    cr_assert_eq(f->fake.hook_calls, 1);
    cr_assert_eq(f->fake.oas, 0);
    cr_assert_eq(af_fact(f, FA_FACT_OPPORTUNITY, b)->v[0], 0);
    f->fake.hook_declines = false;
    w = af_cmd(FA_CMD_WALK, a);
    af_path(&w, 1, 2, 3);  /* (2,4) is still adjacent to orc 1 at (3,5) */
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->fake.oas, 1, "the second leaving is attacked (none taken yet)");
    f->st.c[a].fp.at = (fray_pos){2, 5};
    w = af_cmd(FA_CMD_DROP_PRONE, a);
    cr_assert_eq(af_do(f, &w), FRAY_OK);
    /* the same turn: orc 1 has made its attack */
    cr_assert_eq(fa_provoke(&f->r, a, FA_CMD_WALK), FRAY_OK);
    cr_assert_eq(f->fake.hook_calls, 2);
    cr_assert_eq(f->fake.oas, 1);
    /* never on its own turn: orc 1's turn */
    af_end_turn(f);
    cr_assert_eq(f->st.cur, b);
    cr_assert_eq(fa_provoke(&f->r, a, FA_CMD_WALK), FRAY_OK);
    cr_assert_eq(f->fake.hook_calls, 2);
    af_end_turn(f);
    cr_assert_eq(f->st.cur, a);
    cr_assert_eq(fa_provoke(&f->r, a, FA_CMD_WALK), FRAY_OK);
    cr_assert_eq(f->fake.oas, 2, "a new turn, a new opportunity attack");
    free(f);
}

/* 004:90, 460: a ranged attack made while adjacent to an enemy provokes;
 * a melee one does not (004:302-303). */
Test(alloy_act, ranged_attack_adjacent_provokes_004_460) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 3, 5);
    int pistol = af_weapon(f, "pistol", FA_WK_RANGED, 6, 1, 15);
    af_give(f, f->s.c[a].sb, pistol, 0);
    f->s.c[a].wield = 0;
    af_go(f);
    fa_command at = af_target(FA_CMD_ATTACK, a, b);
    cr_assert_eq(af_do(f, &at), FRAY_OK, "%s", f->why);
    const fa_fact *p = af_fact(f, FA_FACT_PROVOKE, a);
    cr_assert_not_null(p);
    cr_assert_eq(p->v[0], FA_CMD_ATTACK);
    cr_assert_eq(f->fake.oas, 1);
    cr_assert_eq(f->fake.attacks, 1);
    cr_assert_eq(f->fake.attack_target, b);
    free(f);
}

Test(alloy_act, melee_attack_does_not_provoke_004_302) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 3, 5);
    af_go(f);
    fa_command at = af_target(FA_CMD_ATTACK, a, b);
    cr_assert_eq(af_do(f, &at), FRAY_OK, "%s", f->why);
    cr_assert_null(af_fact(f, FA_FACT_PROVOKE, -1));
    cr_assert_eq(f->fake.attacks, 1);
    cr_assert_eq(f->fake.attack_charge, false);
    const fa_fact *act = af_fact(f, FA_FACT_ACTION, a);
    cr_assert_eq(act->v[0], FA_CMD_ATTACK);
    cr_assert_eq(act->v[1], FA_ACT_STANDARD);
    free(f);
}

/* A melee basic attack needs the target in reach. */
/* 004:77, 457: a melee attack reaches adjacent squares (5 ft) only. */
Test(alloy_act, melee_attack_refused_out_of_reach) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 5, 5);
    f->s.c[b].name[0] = '\0';
    snprintf(f->s.c[b].name, FA_NAME_MAX, "orc 2");
    af_go(f);
    fa_command at = af_target(FA_CMD_ATTACK, a, b);
    cr_assert_eq(af_do(f, &at), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "orc 2 is not adjacent to Tony");
    cr_assert_eq(f->fake.attacks, 0);
    fa_command cg = af_target(FA_CMD_COUP, a, b);
    cr_assert_eq(af_do(f, &cg), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "orc 2 is not helpless");
    free(f);
}

/* 004:457, 462, 927: who threatens. */
Test(alloy_act, threatens_004_457_462) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 3, 5);
    int pike = af_weapon(f, "pike", FA_WK_MELEE, 8, 2, 0);
    int pistol = af_weapon(f, "pistol", FA_WK_RANGED, 6, 1, 15);
    int sb = f->s.c[b].sb;
    af_give(f, sb, pike, 0);
    af_give(f, sb, pistol, 0);
    af_go(f);
    cr_assert(fa_threatens(&f->s, &f->st, b, a), "adjacent and unarmed");
    f->st.c[b].wield = 1;
    cr_assert_not(fa_threatens(&f->s, &f->st, b, a), "a firearm in hand is no melee attack");
    f->st.c[b].wield = 0;
    f->st.c[b].fp.at = (fray_pos){4, 5};
    cr_assert_not(fa_threatens(&f->s, &f->st, b, a), "reach does not threaten (004:462)");
    f->s.sb[sb].threatening_reach = true;
    cr_assert(fa_threatens(&f->s, &f->st, b, a), "threatening reach");
    af_cond(f, b, FA_C_DAZED, FA_ENDS_SAVE, a, 0);
    cr_assert_not(fa_threatens(&f->s, &f->st, b, a), "Dazed: no opportunity attacks (004:927)");
    free(f);
}

/* 004:818-826: through allies, not through enemies unless helpless; end
 * in an ally's square only if it is prone. */
Test(alloy_act, occupied_squares_004_818_826) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 20);
    int a = af_add(f, "Tony", s, 0, 1, 1);
    int c = af_add(f, "Sue", s, 0, 3, 1);
    int b = af_add(f, "orc 1", s, 1, 3, 3);
    af_go(f);
    cr_assert_eq(f->st.cur, a);
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 2, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony cannot end its move in square (3, 1): it is occupied");
    af_cond(f, c, FA_C_PRONE, FA_ENDS_EVENT, c, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    f->st.c[a].fp.at = (fray_pos){1, 3};
    w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 3, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony cannot move from square (2, 3) to square (3, 3)");
    af_cond(f, b, FA_C_UNCONSCIOUS, FA_ENDS_EVENT, -1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK, "a helpless enemy may be passed: %s", f->why);
    cr_assert_eq(f->st.c[a].fp.at.x, 4);
    free(f);
}

/* 004:961, 976, 1003: Grappled, Immobilized, Snared: no leaving the
 * square; 004:555-560, 988: prone, only crawl (half speed) or stand. */
Test(alloy_act, immobile_and_prone_004_555_976) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 1, 10, 10);
    af_go(f);
    af_cond(f, a, FA_C_IMMOBILIZED, FA_ENDS_SAVE, b, 0);
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 1, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony is immobilized and cannot leave its square");
    fa_cond_remove(&f->r, a, FA_C_IMMOBILIZED, -1);
    fa_command st = af_cmd(FA_CMD_STAND, a);
    cr_assert_eq(af_do(f, &st), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony is not prone");
    af_cond(f, a, FA_C_PRONE, FA_ENDS_EVENT, a, 0);
    cr_assert_eq(af_do(f, &w), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony is prone: it can only crawl or stand up");
    fa_command cr = af_cmd(FA_CMD_CRAWL, a);
    af_line(f, &cr, a, 4, 1, 0);
    cr_assert_eq(af_do(f, &cr), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony can move only 15 feet with this action, not 20");
    cr = af_cmd(FA_CMD_CRAWL, a);
    af_line(f, &cr, a, 3, 1, 0);
    cr_assert_eq(af_do(f, &cr), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_do(f, &st), FRAY_OK, "%s", f->why);
    cr_assert_not(fa_has(&f->st.c[a], FA_C_PRONE));
    free(f);
}

/* 004:728: standing up where someone stands: adjust 5 ft as part of it. */
Test(alloy_act, stand_up_in_an_occupied_square_004_728) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 20);
    int a = af_add(f, "Tony", s, 0, 2, 2);
    (void)af_add(f, "Sue", s, 0, 2, 2);
    (void)af_add(f, "orc 1", s, 1, 9, 9);
    af_go(f);
    af_cond(f, a, FA_C_PRONE, FA_ENDS_EVENT, a, 0);
    fa_command st = af_cmd(FA_CMD_STAND, a);
    af_path(&st, 2, 2, 3, 2, 4);
    cr_assert_eq(af_do(f, &st), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "someone stands where Tony lies: Tony must adjust 5 feet as it stands");
    st.n_path = 0;
    af_path(&st, 1, 2, 3);
    cr_assert_eq(af_do(f, &st), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].fp.at.y, 3);
    cr_assert_not(fa_has(&f->st.c[a], FA_C_PRONE));
    free(f);
}

/* With no square named, the engine picks the first free one, north
 * first (a ruling: the seed lets the stander choose). */
Test(alloy_act, stand_up_picks_a_square_004_728) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 20);
    int a = af_add(f, "Tony", s, 0, 2, 2);
    (void)af_add(f, "Sue", s, 0, 2, 2);
    (void)af_add(f, "orc 1", s, 1, 9, 9);
    f->s.map.terrain[1][2] = FRAY_TERRAIN_WALL;
    af_go(f);
    af_cond(f, a, FA_C_PRONE, FA_ENDS_EVENT, a, 0);
    fa_command st = af_cmd(FA_CMD_STAND, a);
    cr_assert_eq(af_do(f, &st), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].fp.at.x, 3, "north is a wall: east");
    cr_assert_eq(f->st.c[a].fp.at.y, 2);
    free(f);
}

/* 004:517-527 Charge: at least 10 ft, to the nearest square to attack
 * from, then the attack with charge = true (the +1 is attack.c's); it
 * ends the actions unless an action point is spent. */
Test(alloy_act, charge_004_517_527) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 6, 5);
    af_go(f);
    fa_command c = af_target(FA_CMD_CHARGE, a, b);
    af_path(&c, 5, 2, 6, 3, 7, 4, 7, 5, 7, 6, 6);
    cr_assert_eq(af_do(f, &c), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony must charge to the nearest square from which it can attack orc 1");
    c = af_target(FA_CMD_CHARGE, a, b);
    af_line(f, &c, a, 4, 1, 0);
    cr_assert_eq(af_do(f, &c), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].fp.at.x, 5);
    cr_assert_eq(f->fake.attacks, 1);
    cr_assert(f->fake.attack_charge, "charge passes charge = true");
    cr_assert_eq(f->fake.attack_kind, FA_CMD_CHARGE);
    cr_assert_eq(f->st.c[a].slots, 0, "charge ends the actions (004:527)");
    cr_assert_eq(fa_actor(&f->s, &f->st), a, "unless it spends an action point");
    fa_command sp = af_cmd(FA_CMD_SPEND_AP, a);
    cr_assert_eq(af_do(f, &sp), FRAY_OK);
    fa_command td = af_cmd(FA_CMD_TOTAL_DEFENSE, a);
    cr_assert_eq(af_do(f, &td), FRAY_OK, "%s", f->why);
    free(f);
}

Test(alloy_act, charge_needs_10_ft_004_525) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 3, 5);
    af_go(f);
    fa_command c = af_target(FA_CMD_CHARGE, a, b);
    af_path(&c, 1, 2, 4);
    cr_assert_eq(af_do(f, &c), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony must move at least 10 feet to charge");
    cr_assert_eq(f->fake.attacks, 0);
    free(f);
}

/* 004:526: leaving a square adjacent to an enemy on the way provokes. */
Test(alloy_act, charge_leaving_adjacency_provokes_004_526) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 20);
    int a = af_add(f, "Tony", s, 0, 1, 5);
    int b = af_add(f, "orc 1", s, 1, 6, 5);
    int c = af_add(f, "orc 2", s, 1, 1, 6);
    af_go(f);
    fa_command ch = af_target(FA_CMD_CHARGE, a, b);
    af_line(f, &ch, a, 4, 1, 0);
    cr_assert_eq(af_do(f, &ch), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->fake.oas, 1);
    cr_assert_eq(f->fake.oa_who[0], c);
    cr_assert_eq(f->fake.attacks, 1);
    free(f);
}

/* 004:643-656 Ready: one action, a target, a trigger; it ends the
 * actions; it fires right after the trigger as an immediate action and
 * the readier's initiative moves to just before the trigger's. */
Test(alloy_act, ready_fires_and_moves_initiative_004_643_656) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 20);
    int a = af_add(f, "Tony", s, 0, 1, 5);
    int c = af_add(f, "orc 2", s, 1, 10, 10);
    int b = af_add(f, "orc 1", s, 1, 8, 5);
    af_go(f);
    cr_assert_eq(f->st.cur, a);
    fa_command rd = af_cmd(FA_CMD_READY, a);
    rd.ready.trigger = FA_TRIG_MOVES_ADJACENT;
    rd.ready.who = (int8_t)b;
    rd.ready.kind = FA_CMD_ATTACK;
    rd.ready.power = -1;
    rd.ready.target = -1;
    cr_assert_eq(af_do(f, &rd), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_fact(f, FA_FACT_ACTION, a)->v[1], FA_ACT_STANDARD,
                 "readying a standard action is a standard action (004:649)");
    cr_assert_not_null(af_fact(f, FA_FACT_READY, a));
    cr_assert_eq(fa_actor(&f->s, &f->st), -1, "ready ends its actions (004:653)");
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_eq(f->st.cur, c);
    af_end_turn(f);
    cr_assert_eq(f->st.cur, b);
    fa_command w = af_cmd(FA_CMD_WALK, b);
    af_path(&w, 6, 7, 5, 6, 5, 5, 5, 4, 5, 3, 5, 2, 4);
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->fake.attacks, 1);
    cr_assert_eq(f->fake.attack_actor, a);
    cr_assert_eq(f->fake.attack_target, b);
    const fa_fact *fire = af_fact(f, FA_FACT_READY_FIRES, a);
    cr_assert_not_null(fire);
    cr_assert_eq(fire->target, b);
    cr_assert_eq(f->ev.choices[0].kind, FA_CH_READY_FIRES);
    cr_assert_not(fa_has(&f->st.c[a], FA_C_READY));
    cr_assert(f->st.c[a].flags & FA_F_IMMEDIATE);
    cr_assert_eq(f->st.order[0], c);
    cr_assert_eq(f->st.order[1], a);
    cr_assert_eq(f->st.order[2], b);
    cr_assert_eq(f->st.order[f->st.cur_pos], b, "the turn under way stays orc 1's");
    cr_assert_eq(f->st.c[b].fp.at.x, 2, "the mover goes on after the readied action");
    cr_assert(fray__track_valid(&f->st.track));
    free(f);
}

/* 004:651: not triggered before its next turn, a readied action is
 * wasted. */
Test(alloy_act, ready_wasted_004_651) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 10, 10);
    af_go(f);
    fa_command rd = af_cmd(FA_CMD_READY, a);
    rd.ready.trigger = FA_TRIG_ATTACKS;
    rd.ready.who = -1;
    rd.ready.kind = FA_CMD_TOTAL_DEFENSE;
    cr_assert_eq(af_do(f, &rd), FRAY_OK, "%s", f->why);
    af_end_turn(f);
    af_end_turn(f);
    cr_assert_eq(f->st.cur, a);
    const fa_fact *lost = af_fact(f, FA_FACT_LOST, a);
    cr_assert_not_null(lost);
    cr_assert_eq(lost->v[0], 1);
    cr_assert_not(fa_has(&f->st.c[a], FA_C_READY));
    fa_command bad = af_cmd(FA_CMD_READY, a);
    bad.ready.trigger = FA_TRIG_ATTACKS;
    bad.ready.kind = FA_CMD_MOVE_GRAPPLED; /* (a walk can be readied now: space.c) */
    cr_assert_eq(af_do(f, &bad), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony cannot ready that action");
    free(f);
}

/* A readied action on FA_TRIG_ATTACKS fires after the attack (L7.5). */
Test(alloy_act, ready_on_an_attack_fires_after_it_l7_5) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 20);
    int a = af_add(f, "Tony", s, 0, 2, 5);
    int b = af_add(f, "orc 1", s, 1, 3, 5);
    af_go(f);
    fa_command rd = af_cmd(FA_CMD_READY, a);
    rd.ready.trigger = FA_TRIG_ATTACKS;
    rd.ready.kind = FA_CMD_TRIP;
    cr_assert_eq(af_do(f, &rd), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_next(f), FRAY_OK);
    fa_command at = af_target(FA_CMD_ATTACK, b, a);
    cr_assert_eq(af_do(f, &at), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->fake.attacks, 2);
    cr_assert_eq(f->fake.attack_actor, a, "the readied trip comes last");
    cr_assert_eq(f->fake.attack_kind, FA_CMD_TRIP);
    free(f);
}

/* 004:749 total defense +2 until the start of the next turn; 004:675-681
 * second wind once per encounter. */
Test(alloy_act, total_defense_and_second_wind_004_681_749) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 10, 10);
    af_go(f);
    fa_command td = af_cmd(FA_CMD_TOTAL_DEFENSE, a);
    cr_assert_eq(af_do(f, &td), FRAY_OK);
    const fa_cond *k = fa_cond_find(&f->st.c[a], FA_C_TOTAL_DEFENSE, -1);
    cr_assert_not_null(k);
    cr_assert_eq(k->value, 2);
    cr_assert_eq(k->ends, FA_ENDS_START_OF_TURN);
    fa_command sw = af_cmd(FA_CMD_SECOND_WIND, a);
    cr_assert_eq(af_do(f, &sw), FRAY_ERR_INVALID, "a second standard action");
    af_end_turn(f);
    af_end_turn(f);
    cr_assert_eq(af_do(f, &sw), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->fake.second_winds, 1);
    af_end_turn(f);
    af_end_turn(f);
    cr_assert_eq(af_do(f, &sw), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony has already used its second wind this encounter");
    free(f);
}

/* 004:331, 334: draw and reload are swift actions; reload fills the
 * magazine from the spare rounds. */
Test(alloy_act, draw_and_reload_004_331_334) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 10, 10);
    int pistol = af_weapon(f, "pistol", FA_WK_RANGED, 6, 1, 6);
    af_give(f, f->s.c[a].sb, pistol, 10);
    af_go(f);
    fa_command dr = af_cmd(FA_CMD_DRAW, a);
    dr.weapon = 0;
    cr_assert_eq(af_do(f, &dr), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].wield, 0);
    cr_assert_eq(af_fact(f, FA_FACT_ACTION, a)->v[1], FA_ACT_SWIFT);
    fa_command rl = af_cmd(FA_CMD_RELOAD, a);
    cr_assert_eq(af_do(f, &rl), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony's pistol is fully loaded");
    f->st.c[a].ammo[0] = 1;
    cr_assert_eq(af_do(f, &rl), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].ammo[0], 6);
    cr_assert_eq(f->st.c[a].spare[0], 5);
    cr_assert_eq(af_fact(f, FA_FACT_AMMO, a)->v[0], -5);
    free(f);
}

/* L7.1: drop prone is a swift action by default, free by option. */
Test(alloy_act, drop_prone_swift_or_free_l7_1) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 10, 10);
    f->s.opt.drop_prone = FA_ACT_FREE;
    af_go(f);
    fa_command dp = af_cmd(FA_CMD_DROP_PRONE, a);
    cr_assert_eq(af_do(f, &dp), FRAY_OK);
    cr_assert_eq(af_fact(f, FA_FACT_ACTION, a)->v[1], FA_ACT_FREE);
    cr_assert_eq(f->st.c[a].slots, FA_SLOT_STANDARD | FA_SLOT_MOVE | FA_SLOT_SWIFT);
    cr_assert(fa_has(&f->st.c[a], FA_C_PRONE));
    cr_assert_eq(af_do(f, &dp), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony is already prone");
    free(f);
}

static void grapple(fixture *f, int grappler, int target) {
    f->st.c[grappler].grappling = (int8_t)target;
    fa_cond g;
    memset(&g, 0, sizeof g);
    g.kind = FA_C_GRAPPLED;
    g.ends = FA_ENDS_EVENT;
    g.whose = (int8_t)grappler;
    g.other = (int8_t)grappler;
    g.source = (int8_t)grappler;
    cr_assert_eq(fa_cond_add(&f->r, target, g), FRAY_OK);
}

/* 004:599-600: escape, Acrobatics vs Reflex or Athletics vs Fortitude
 * (the better); a success ends the grapple. */
Test(alloy_act, escape_004_599) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 3, 5);
    fa_statblock *ta = &f->s.sb[f->s.c[a].sb], *tb = &f->s.sb[f->s.c[b].sb];
    ta->skill[FA_SKILL_ACROBATICS] = 5;
    ta->skill[FA_SKILL_ATHLETICS] = 8;
    tb->defense[FA_DEF_REFLEX] = 15;
    tb->defense[FA_DEF_FORTITUDE] = 12;
    af_go(f);
    grapple(f, b, a);
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 1, -1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony is grappled and cannot leave its square");
    fa_command es = af_cmd(FA_CMD_ESCAPE, a);
    f->fake.check_result = false;
    cr_assert_eq(af_do(f, &es), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->fake.check_bonus, 8, "Athletics vs Fortitude is the better");
    cr_assert_eq(f->fake.check_defense, 12);
    cr_assert(fa_has(&f->st.c[a], FA_C_GRAPPLED));
    f->fake.check_result = true;
    af_path(&es, 1, 3, 5);
    cr_assert_eq(af_do(f, &es), FRAY_ERR_INVALID, "not into orc 1's square");
    es.n_path = 0;
    af_path(&es, 1, 1, 4);
    cr_assert_eq(af_do(f, &es), FRAY_OK, "%s", f->why);
    cr_assert_not(fa_has(&f->st.c[a], FA_C_GRAPPLED));
    cr_assert_eq(f->st.c[b].grappling, -1);
    cr_assert_eq(f->st.c[a].fp.at.x, 1, "and adjusts (004:600)");
    cr_assert_eq(f->fake.hook_calls, 0, "an adjust provokes nothing");
    free(f);
}

/* 004:630-639: move a grappled target: Str vs Fortitude, then half speed
 * pulling it; the mover's leaving provokes others, not the dragged one. */
Test(alloy_act, move_grappled_target_004_630_639) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 20);
    int a = af_add(f, "Tony", s, 0, 4, 5);
    int b = af_add(f, "orc 1", s, 1, 5, 5);
    int c = af_add(f, "orc 2", s, 1, 4, 6);
    af_go(f);
    grapple(f, a, b);
    f->fake.check_result = true;
    fa_command m = af_cmd(FA_CMD_MOVE_GRAPPLED, a);
    af_path(&m, 4, 3, 5, 2, 5, 1, 5, 0, 5);
    cr_assert_eq(af_do(f, &m), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony can move only 15 feet with this action, not 20");
    m.n_path = 3;
    cr_assert_eq(af_do(f, &m), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->fake.checks, 1);
    cr_assert_eq(f->fake.check_defense, 15, "orc 1's Fortitude");
    cr_assert_eq(f->st.c[a].fp.at.x, 1);
    cr_assert_eq(f->st.c[b].fp.at.x, 2, "dragged along");
    cr_assert_eq(f->fake.hook_calls, 1);
    cr_assert_eq(f->fake.hook_who[0], c);
    cr_assert(fa_has(&f->st.c[b], FA_C_GRAPPLED));
    free(f);
}

/* 004:618: the grapple ends when the target is no longer within the
 * grappler's unarmed reach. */
Test(alloy_act, walking_away_ends_the_grapple_004_618) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 3, 5);
    af_go(f);
    grapple(f, a, b);
    f->fake.hook_declines = true;
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 2, -1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].grappling, -1);
    cr_assert_not(fa_has(&f->st.c[b], FA_C_GRAPPLED));
    free(f);
}

/* Squeeze (004:711-717): half speed, -5 until ended (free, with room). */
Test(alloy_act, squeeze_004_714_717) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 10, 10);
    af_go(f);
    fa_command q = af_cmd(FA_CMD_SQUEEZE, a);
    af_line(f, &q, a, 4, 1, 0);
    cr_assert_eq(af_do(f, &q), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony can move only 15 feet with this action, not 20");
    q.n_path = 3;
    cr_assert_eq(af_do(f, &q), FRAY_OK, "%s", f->why);
    cr_assert(fa_has(&f->st.c[a], FA_C_SQUEEZING));
    fa_command e = af_cmd(FA_CMD_SQUEEZE, a);
    cr_assert_eq(af_do(f, &e), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_fact(f, FA_FACT_ACTION, a)->v[1], FA_ACT_FREE);
    cr_assert_not(fa_has(&f->st.c[a], FA_C_SQUEEZING));
    free(f);
}

/* fa_reach: the cost map, with Slowed's cap and where a move may end. */
Test(alloy_act, reach_map_caps_and_stops) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 20);
    int a = af_add(f, "Tony", s, 0, 1, 1);
    (void)af_add(f, "Sue", s, 0, 2, 1);
    (void)af_add(f, "orc 1", s, 1, 9, 9);
    af_go(f);
    fray_reach_map *m = malloc(sizeof *m);
    cr_assert_not_null(m);
    fa_reach(&f->s, &f->st, a, 6, m);
    cr_assert_eq(m->cost[1][2], 1);
    cr_assert_not(m->can_stop[1][2], "a standing ally's square");
    cr_assert_eq(m->cost[1][7], 6);
    af_cond(f, a, FA_C_SLOWED, FA_ENDS_SAVE, -1, 0);
    fa_reach(&f->s, &f->st, a, 6, m);
    cr_assert_eq(m->cost[1][4], -1, "Slowed: 10 ft");
    cr_assert_eq(m->cost[1][3], 2);
    free(m);
    free(f);
}

/* A replayed event makes the recorded choices (fa_choose): a declined
 * opportunity attack stays declined, and the table is not asked again. */
Test(alloy_act, replay_takes_the_recorded_choice) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 3, 5);
    af_go(f);
    fa_state *before = malloc(sizeof *before);
    fa_event *rec = malloc(sizeof *rec);
    cr_assert(before && rec);
    *before = f->st;
    f->fake.hook_declines = true;
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_path(&w, 2, 1, 5, 0, 5);
    cr_assert_eq(af_do(f, &w), FRAY_OK);
    cr_assert_eq(f->fake.hook_calls, 1);
    cr_assert_eq(f->ev.n_choices, 1);
    cr_assert_eq(f->ev.choices[0].value, 0);
    *rec = f->ev;
    f->st = *before;
    af_event(f);
    f->r.replay = rec;
    f->r.replay_die = 0;
    f->r.replay_choice = 0;
    f->fake.hook_declines = false; /* the table would now say yes */
    cr_assert_eq(fa_apply(&f->r, &w), FRAY_OK);
    cr_assert_eq(f->fake.hook_calls, 1, "not asked on replay");
    cr_assert_eq(f->fake.oas, 0, "declined again");
    cr_assert_eq(f->st.c[a].fp.at.x, 0);
    cr_assert_eq(f->ev.n_facts, rec->n_facts);
    free(before);
    free(rec);
    free(f);
}

/* 004:617: a grappler that can no longer make opportunity attacks (here
 * Dazed) lets go at once. */
Test(alloy_act, dazed_grappler_lets_go_004_617) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 3, 5);
    af_go(f);
    grapple(f, a, b);
    af_cond(f, a, FA_C_DAZED, FA_ENDS_SAVE, b, 0);
    fa_command dp = af_cmd(FA_CMD_DROP_PRONE, a);
    cr_assert_eq(af_do(f, &dp), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].grappling, -1);
    cr_assert_not(fa_has(&f->st.c[b], FA_C_GRAPPLED));
    free(f);
}

/* FA_TRIG_ENTERS_REACH: the readied attack fires when the enemy enters a
 * square it reaches (a pike's 10 ft here), before it comes adjacent. */
Test(alloy_act, ready_on_entering_reach_004_650) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 20);
    int pike = af_weapon(f, "pike", FA_WK_MELEE, 8, 2, 0);
    int sa = af_block(f, "pikeman", 6, 0, 20);
    af_give(f, sa, pike, 0);
    int a = af_add(f, "Tony", sa, 0, 1, 5);
    f->s.c[a].wield = 0;
    int b = af_add(f, "orc 1", s, 1, 8, 5);
    af_go(f);
    fa_command rd = af_cmd(FA_CMD_READY, a);
    rd.ready.trigger = FA_TRIG_ENTERS_REACH;
    rd.ready.kind = FA_CMD_ATTACK;
    cr_assert_eq(af_do(f, &rd), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_next(f), FRAY_OK);
    fa_command w = af_cmd(FA_CMD_WALK, b);
    af_line(f, &w, b, 5, -1, 0); /* to (3, 5): two squares from Tony */
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->fake.attacks, 1);
    cr_assert_eq(f->fake.attack_actor, a);
    cr_assert_not_null(af_fact(f, FA_FACT_READY_FIRES, a));
    free(f);
}

/* A readied action is an immediate action: not when Dazed (004:927). */
Test(alloy_act, dazed_readier_cannot_fire_004_927) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 20);
    int a = af_add(f, "Tony", s, 0, 2, 5);
    int b = af_add(f, "orc 1", s, 1, 3, 5);
    af_go(f);
    fa_command rd = af_cmd(FA_CMD_READY, a);
    rd.ready.trigger = FA_TRIG_ATTACKS;
    rd.ready.kind = FA_CMD_ATTACK;
    cr_assert_eq(af_do(f, &rd), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_next(f), FRAY_OK);
    af_cond(f, a, FA_C_DAZED, FA_ENDS_SAVE, b, 0);
    fa_command at = af_target(FA_CMD_ATTACK, b, a);
    cr_assert_eq(af_do(f, &at), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->fake.attacks, 1, "only orc 1's attack");
    cr_assert(fa_has(&f->st.c[a], FA_C_READY));
    free(f);
}

/* 004:455: each enemy gets its own opportunity attack, in initiative
 * order. */
Test(alloy_act, each_enemy_its_own_oa_in_order_004_455) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 20);
    int a = af_add(f, "Tony", s, 0, 2, 5);
    int b = af_add(f, "orc 1", s, 1, 3, 5);
    int c = af_add(f, "orc 2", s, 1, 2, 6);
    af_go(f);
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_path(&w, 2, 1, 4, 0, 3);
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->fake.oas, 2);
    cr_assert_eq(f->fake.oa_who[0], b);
    cr_assert_eq(f->fake.oa_who[1], c);
    cr_assert_eq(af_count_facts(f, FA_FACT_PROVOKE), 2);
    free(f);
}

/* 004:824: a move may end in a helpless enemy's square. */
Test(alloy_act, end_in_a_helpless_enemys_square_004_824) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 20);
    int a = af_add(f, "Tony", s, 0, 1, 1);
    int b = af_add(f, "orc 1", s, 1, 3, 1);
    (void)af_add(f, "orc 2", s, 1, 9, 9);
    af_go(f);
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 2, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_ERR_INVALID);
    af_cond(f, b, FA_C_HELPLESS, FA_ENDS_EVENT, -1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].fp.at.x, 3);
    free(f);
}

/* 004:810: no sight, half speed (Blind-Fight: three quarters). */
Test(alloy_act, darkness_half_speed_004_810) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 1, 10, 10);
    fray_area_add(&f->s.dark, (fray_pos){1, 1});
    af_go(f);
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 4, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony can move only 15 feet with this action, not 20");
    f->s.sb[f->s.c[a].sb].blind_fight = true;
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    free(f);
}

/* 004:824: a Tiny creature may end its move in a larger one's square. */
Test(alloy_act, tiny_ends_in_a_larger_square_004_824) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 1, 3, 1);
    f->s.sb[f->s.c[a].sb].size = FA_SIZE_TINY;
    af_go(f);
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 2, 1, 0);
    f->fake.hook_declines = true;
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].fp.at.x, 3);
    free(f);
}

/* Robustness: random commands (every field random) are refused in words
 * or applied; the order stays a valid track mirrored by order[], nothing
 * fails, and the fight goes on (run under ASan/UBSan too). */
Test(alloy_act, random_commands_keep_the_state_sound) {
    fray_rng rng;
    fray_rng_seed(&rng, 2026, 4);
    int applied = 0, kinds_seen = 0;
    bool seen[FA_CMD_KINDS] = {false};
    for (int fight = 0; fight < 6; fight++) {
        fixture *f = af_new(10, 10);
        int s = af_block(f, "t", 6, 1, 30);
        int pistol = af_weapon(f, "pistol", FA_WK_RANGED, 6, 1, 6);
        int knife = af_weapon(f, "knife", FA_WK_THROWN, 4, 1, 0);
        af_give(f, s, pistol, 12);
        af_give(f, s, knife, 0);
        f->s.sb[s].n_powers = 1;
        snprintf(f->s.sb[s].powers[0].name, FA_NAME_MAX, "blast");
        f->s.sb[s].powers[0].usage = FA_ENCOUNTER;
        f->s.sb[s].powers[0].ranged = true;
        f->s.map.terrain[4][4] = FRAY_TERRAIN_WALL;
        f->s.map.terrain[5][2] = FRAY_TERRAIN_DIFFICULT;
        for (int i = 0; i < 5; i++)
            af_add(f, i % 2 ? "orc" : "hero", s, i % 2, 1 + 2 * i, 1 + i);
        f->s.c[1].aware = fight % 2 == 0;
        af_go(f);
        for (int step = 0; step < 1500 && !f->st.over; step++) {
            int who = fa_actor(&f->s, &f->st);
            fa_command c = af_cmd((int)fray_rng_below(&rng, FA_CMD_KINDS + 1),
                                  who >= 0 ? who : (int)fray_rng_below(&rng, 6) - 1);
            c.slot = (uint8_t)fray_rng_below(&rng, 7);
            c.power = (int8_t)((int)fray_rng_below(&rng, 4) - 2);
            c.weapon = (int8_t)((int)fray_rng_below(&rng, 5) - 2);
            c.option = (int8_t)((int)fray_rng_below(&rng, 4) - 1);
            c.n_targets = (uint8_t)fray_rng_below(&rng, 3);
            for (int k = 0; k < c.n_targets; k++)
                c.targets[k] = (int8_t)((int)fray_rng_below(&rng, 7) - 1);
            c.n_path = (uint8_t)fray_rng_below(&rng, 6);
            fray_pos p = who >= 0 ? f->st.c[who].fp.at : (fray_pos){0, 0};
            for (int k = 0; k < c.n_path; k++) {
                p.x = (int16_t)(p.x + (int)fray_rng_below(&rng, 3) - 1);
                p.y = (int16_t)(p.y + (int)fray_rng_below(&rng, 3) - 1);
                c.path[k] = p;
            }
            c.ready.trigger = (uint8_t)fray_rng_below(&rng, FA_TRIG_KINDS + 1);
            c.ready.kind = (uint8_t)fray_rng_below(&rng, FA_CMD_KINDS);
            c.ready.who = (int8_t)((int)fray_rng_below(&rng, 6) - 1);
            c.ready.target = (int8_t)((int)fray_rng_below(&rng, 6) - 1);
            f->fake.check_result = fray_rng_below(&rng, 2) == 1;
            f->fake.oa_drops = fray_rng_below(&rng, 20) == 0;
            fray_status st = af_do(f, &c);
            if (st == FRAY_OK && c.kind < FA_CMD_KINDS) {
                applied++;
                if (!seen[c.kind]) {
                    seen[c.kind] = true;
                    kinds_seen++;
                }
            }
            if (st != FRAY_OK) {
                cr_assert_eq(st, FRAY_ERR_INVALID);
                cr_assert_neq(f->why[0], '\0', "a refusal says why");
                cr_assert_eq(f->r.failed, FRAY_OK);
                if (fa_actor(&f->s, &f->st) < 0 && !f->st.over)
                    cr_assert_eq(af_next(f), FRAY_OK);
            }
            cr_assert_eq(f->r.failed, FRAY_OK);
            cr_assert(fray__track_valid(&f->st.track));
            cr_assert_eq(f->st.n_order, f->st.track.n);
            for (int k = 0; k < f->st.n_order; k++)
                cr_assert_eq(f->st.order[k], f->st.track.e[k].who);
            for (int k = 0; k < f->st.n; k++)
                cr_assert(fray_grid_in(&f->s.map, f->st.c[k].fp.at));
        }
        free(f);
    }
    cr_log_info("random commands applied: %d, kinds %d", applied, kinds_seen);
    cr_assert_gt(applied, 500, "the commands reach the rules, not only the refusals");
    cr_assert_gt(kinds_seen, 15);
}

/* 004:651 "or you choose to ignore it": the table may hold a readied
 * action (the choice is recorded); it waits for the next trigger. */
Test(alloy_act, ready_held_waits_for_the_next_trigger_004_651) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 20);
    int a = af_add(f, "Tony", s, 0, 2, 5);
    int b = af_add(f, "orc 1", s, 1, 3, 5);
    af_go(f);
    fa_command rd = af_cmd(FA_CMD_READY, a);
    rd.ready.trigger = FA_TRIG_ATTACKS;
    rd.ready.kind = FA_CMD_ATTACK;
    cr_assert_eq(af_do(f, &rd), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_next(f), FRAY_OK);
    f->fake.ready_holds = true;
    fa_command at = af_target(FA_CMD_ATTACK, b, a);
    cr_assert_eq(af_do(f, &at), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->fake.ready_calls, 1);
    cr_assert_eq(f->fake.attacks, 1);
    cr_assert_eq(f->ev.choices[0].kind, FA_CH_READY_FIRES);
    cr_assert_eq(f->ev.choices[0].value, 0);
    cr_assert(fa_has(&f->st.c[a], FA_C_READY));
    f->fake.ready_holds = false;
    fa_command sp = af_cmd(FA_CMD_SPEND_AP, b);
    cr_assert_eq(af_do(f, &sp), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_do(f, &at), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->fake.attacks, 3, "fires on the second attack");
    cr_assert_not(fa_has(&f->st.c[a], FA_C_READY));
    free(f);
}

/* What attack.c would fail on is refused here in words, with nothing
 * spent: no line to the target, an empty magazine, two targets for a
 * basic attack, a grapple with both hands full, a held object not held,
 * aid without an ally, a charge ending in a power, a blast not placed
 * against the user. */
Test(alloy_act, attack_refusals_in_words) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 8, 5);
    int pistol = af_weapon(f, "pistol", FA_WK_RANGED, 6, 1, 6);
    int rifle = af_weapon(f, "rifle", FA_WK_RANGED, 10, 1, 0);
    int flamer = af_weapon(f, "flamethrower", FA_WK_RANGED, 6, 1, 0);
    f->s.weapons[rifle].hands = 2;
    f->s.weapons[flamer].area = FA_AREA_BLAST;
    f->s.weapons[flamer].area_size = 5;
    int sa = f->s.c[a].sb;
    af_give(f, sa, pistol, 0);
    af_give(f, sa, rifle, 0);
    af_give(f, sa, flamer, 0);
    f->s.sb[sa].n_powers = 1;
    snprintf(f->s.sb[sa].powers[0].name, FA_NAME_MAX, "smash");
    f->s.c[a].wield = 0;
    af_go(f);
    fa_command at = af_target(FA_CMD_ATTACK, a, b);
    f->fake.impossible = true;
    cr_assert_eq(af_do(f, &at), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony cannot attack orc 1 from where it stands");
    f->fake.impossible = false;
    f->st.c[a].ammo[0] = 0;
    cr_assert_eq(af_do(f, &at), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony's pistol is empty");
    f->st.c[a].ammo[0] = 6;
    at.n_targets = 2;
    at.targets[1] = (int8_t)b;
    cr_assert_eq(af_do(f, &at), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "a basic attack has one target (004:482)");
    f->st.c[b].fp.at = (fray_pos){3, 5};
    f->st.c[a].wield = 1;
    fa_command g = af_target(FA_CMD_GRAPPLE, a, b);
    cr_assert_eq(af_do(f, &g), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony has no free hand to grapple with");
    fa_command h = af_target(FA_CMD_HELD_OBJECT, a, b);
    cr_assert_eq(af_do(f, &h), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "orc 1 holds nothing");
    fa_command ai = af_target(FA_CMD_AID, a, b);
    ai.option = FA_AID_ATTACK;
    cr_assert_eq(af_do(f, &ai), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony must name an enemy and the ally it aids");
    f->st.c[a].wield = 2;
    fa_command fl = af_cmd(FA_CMD_ATTACK, a);
    fl.origin = (fray_pos){8, 8};
    cr_assert_eq(af_do(f, &fl), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "a blast must be placed against Tony's space");
    fl.origin = (fray_pos){3, 3};
    cr_assert_eq(af_do(f, &fl), FRAY_OK, "%s", f->why);
    cr_assert_not_null(af_fact(f, FA_FACT_PROVOKE, a), "an area attack provokes (004:113)");
    free(f);
}

Test(alloy_act, charge_ends_in_a_basic_attack_or_bull_rush_004_523) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 6, 5);
    f->s.sb[f->s.c[a].sb].n_powers = 1;
    af_go(f);
    fa_command c = af_target(FA_CMD_CHARGE, a, b);
    af_line(f, &c, a, 4, 1, 0);
    c.power = 0;
    cr_assert_eq(af_do(f, &c), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "a charge ends in a melee basic attack or a bull rush (004:523)");
    cr_assert_eq(f->st.c[a].fp.at.x, 1, "nothing moved");
    free(f);
}

/* 004:701: at the end of each turn attack.c is told whether the one
 * ending it took a standard action or none (suppressing fire). */
Test(alloy_act, suppressing_fire_told_at_turn_end_004_701) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 10, 10);
    af_go(f);
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 1, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK);
    af_end_turn(f);
    cr_assert_eq(f->fake.suppress_calls, 1);
    cr_assert_eq(f->fake.suppress_who, a);
    cr_assert_not(f->fake.suppress_took, "a move action only");
    af_end_turn(f);
    cr_assert_eq(f->fake.suppress_who, b);
    cr_assert(f->fake.suppress_took, "no action at all");
    fa_command td = af_cmd(FA_CMD_TOTAL_DEFENSE, a);
    cr_assert_eq(af_do(f, &td), FRAY_OK);
    af_end_turn(f);
    cr_assert(f->fake.suppress_took, "a standard action");
    free(f);
}

/* A wall between two adjacent squares: no trip through it, and no
 * threat (grid.h: a melee attack needs cover short of total). */
/* 004:860-866: total cover (a wall) blocks the attack. */
Test(alloy_act, no_reach_through_a_wall) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 3, 5);
    f->s.map.edge_e[5][2] = FRAY_EDGE_WALL;
    af_go(f);
    fa_command tr = af_target(FA_CMD_TRIP, a, b);
    cr_assert_eq(af_do(f, &tr), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony cannot reach orc 1 through the wall");
    cr_assert_not(fa_threatens(&f->s, &f->st, b, a));
    free(f);
}

/* 004:512: a bull rush's push square, when named, is next to the target
 * and away from the pusher; one target only. */
Test(alloy_act, bull_rush_push_square_004_512) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 3, 5);
    af_go(f);
    fa_command br = af_target(FA_CMD_BULL_RUSH, a, b);
    br.origin = (fray_pos){2, 4};
    cr_assert_eq(af_do(f, &br), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony cannot push into square (2, 4): it must be next to the "
                             "target and away from Tony");
    br.n_targets = 2;
    br.targets[1] = (int8_t)b;
    cr_assert_eq(af_do(f, &br), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony must name one target");
    br.n_targets = 1;
    br.origin = (fray_pos){4, 5};
    cr_assert_eq(af_do(f, &br), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->fake.attack_kind, FA_CMD_BULL_RUSH);
    free(f);
}

/* 004:87, 101, 112, 694: an area attack needs a round for each creature
 * it affects; spray counts the creatures in its 5-ft burst. */
Test(alloy_act, area_ammunition_per_target_004_101_694) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 20);
    int smg = af_weapon(f, "submachine gun", FA_WK_RANGED, 6, 1, 30);
    f->s.weapons[smg].autofire = true;
    af_give(f, s, smg, 0);
    int a = af_add(f, "Tony", s, 0, 1, 1);
    f->s.c[a].wield = 0;
    (void)af_add(f, "orc 1", s, 1, 6, 6);
    (void)af_add(f, "orc 2", s, 1, 7, 6);
    (void)af_add(f, "orc 3", s, 1, 6, 7);
    af_go(f);
    f->st.c[a].ammo[0] = 2;
    fa_command sp = af_cmd(FA_CMD_SPRAY, a);
    sp.origin = (fray_pos){6, 6};
    cr_assert_eq(af_do(f, &sp), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony's submachine gun has 2 rounds, not the 3 this attack needs");
    f->st.c[a].ammo[0] = 3;
    cr_assert_eq(af_do(f, &sp), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->fake.attack_kind, FA_CMD_SPRAY);
    free(f);
}
