/*
 * test_alloy_turn.c - Alloy's time (turn.c): the state at the start,
 * initiative and its ties (004:235), the surprise round (004:40,
 * 245-259), the three parts of a turn (004:277-279), action slots and
 * trading (004:278-293), action points (004:291), Dazed (004:927),
 * Delay (004:565-579), the end of the fight. Checklist L2.
 */
#define AF_FAKE_ATTACKS
#include "alloy_fixture.h"

/* Two (or more) troopers: speed 6 squares (30 ft), 20 hit points. */
static fixture *two(int *a, int *b, int mod_a, int mod_b) {
    fixture *f = af_new(12, 12);
    int sa = af_block(f, "trooper", 6, mod_a, 20);
    int sb = af_block(f, "raider", 6, mod_b, 20);
    *a = af_add(f, "Tony", sa, 0, 2, 2);
    *b = af_add(f, "orc 1", sb, 1, 8, 8);
    return f;
}

Test(alloy_turn, state_init_fills_hp_ammo_ap_places) {
    int a, b;
    fixture *f = two(&a, &b, 0, 0);
    int pistol = af_weapon(f, "pistol", FA_WK_RANGED, 6, 1, 15);
    af_give(f, f->s.c[a].sb, pistol, 30);
    f->s.c[a].wield = 0;
    af_start(f);
    cr_assert_eq(f->st.n, 2);
    cr_assert_eq(f->st.c[a].hp, 20);
    cr_assert_eq(f->st.c[a].ap, 1);
    cr_assert_eq(f->st.c[a].surges, 2);
    cr_assert_eq(f->st.c[a].ammo[0], 15, "a full magazine");
    cr_assert_eq(f->st.c[a].spare[0], 30, "spare rounds from the block");
    cr_assert_eq(f->st.c[a].wield, 0);
    cr_assert_eq(f->st.c[b].wield, -1);
    cr_assert_eq(f->st.c[b].fp.at.x, 8);
    cr_assert_eq(f->st.c[a].oa_turn, -1);
    cr_assert_eq(f->st.cur, -1);
    cr_assert_not(f->st.started);
    free(f);
}

/* 004:235: d20 + modifier, highest first. */
Test(alloy_turn, initiative_highest_first_004_235) {
    fixture *f = af_new(12, 12);
    int s1 = af_block(f, "a", 6, 2, 20), s2 = af_block(f, "b", 6, 0, 20),
        s3 = af_block(f, "c", 6, 5, 20);
    int a = af_add(f, "A", s1, 0, 1, 1), b = af_add(f, "B", s2, 1, 5, 5),
        c = af_add(f, "C", s3, 0, 1, 3);
    af_start(f);
    cr_assert_eq(af_begin(f, (int[]){10, 15, 3}, 3), FRAY_OK);
    cr_assert_eq(f->st.n_order, 3);
    cr_assert_eq(f->st.order[0], b); /* 15 */
    cr_assert_eq(f->st.order[1], a); /* 12 */
    cr_assert_eq(f->st.order[2], c); /* 8 */
    const fa_fact *fi = af_fact(f, FA_FACT_INITIATIVE, a);
    cr_assert_not_null(fi);
    cr_assert_eq(fi->v[0], 10);
    cr_assert_eq(fi->v[1], 2);
    cr_assert_eq(fi->v[2], 12);
    cr_assert_eq(af_count_facts(f, FA_FACT_ORDER), 3);
    cr_assert_eq(f->st.round, 1, "everyone aware: no surprise round");
    cr_assert_eq(f->st.c[c].init, 8);
    cr_assert(fray__track_valid(&f->st.track));
    cr_assert_eq(f->st.track.e[0].who, b, "order[] mirrors the track");
    free(f);
}

/* 004:235: tied results go by the total modifier, then a die (L7.23: a
 * seeded roll-off; option init_ties). */
Test(alloy_turn, initiative_ties_modifier_then_die_004_235) {
    fixture *f = af_new(12, 12);
    int s2 = af_block(f, "two", 6, 2, 20), s4 = af_block(f, "four", 6, 4, 20),
        s0 = af_block(f, "zero", 6, 0, 20);
    int a = af_add(f, "A", s2, 0, 1, 1), b = af_add(f, "B", s4, 1, 5, 5),
        c = af_add(f, "C", s2, 0, 1, 3), d = af_add(f, "D", s0, 1, 7, 7);
    af_start(f);
    /* A 10+2, B 8+4, C 10+2: all 12; B has the higher modifier; A and C
     * roll off 5 and 5 (tied again), then 3 and 9. */
    cr_assert_eq(af_begin(f, (int[]){10, 8, 10, 1, 5, 5, 3, 9}, 8), FRAY_OK);
    cr_assert_eq(f->st.order[0], b);
    cr_assert_eq(f->st.order[1], c);
    cr_assert_eq(f->st.order[2], a);
    cr_assert_eq(f->st.order[3], d);
    cr_assert_eq(af_count_facts(f, FA_FACT_TIE), 4);
    cr_assert_eq(f->ev.n_dice, 8);
    cr_assert_eq(f->ev.dice[4].purpose, FA_DIE_TIE);
    cr_assert(fray__track_valid(&f->st.track));
    free(f);
}

/* init_ties: listed keeps the encounter's order for a full tie. */
/* 004:235, rulesets-checklists L7.23: option initiative-ties: listed. */
Test(alloy_turn, initiative_ties_listed_option) {
    fixture *f = af_new(12, 12);
    f->s.opt.init_ties = FA_TIES_LISTED;
    int s2 = af_block(f, "two", 6, 2, 20);
    int a = af_add(f, "A", s2, 0, 1, 1), b = af_add(f, "B", s2, 1, 5, 5);
    af_start(f);
    cr_assert_eq(af_begin(f, (int[]){10, 10}, 2), FRAY_OK);
    cr_assert_eq(f->st.order[0], a);
    cr_assert_eq(f->st.order[1], b);
    cr_assert_eq(af_count_facts(f, FA_FACT_TIE), 0);
    cr_assert_eq(f->ev.n_dice, 2);
    free(f);
}

/* 004:40, 245-259 (L7.2): some unaware: round 0, the unaware are
 * Surprised and their turns pass; the aware take one standard OR one
 * move action, no swift, no action point; then round 1 for all. */
Test(alloy_turn, surprise_round_004_40_245_259) {
    int a, b;
    fixture *f = two(&a, &b, 0, 0);
    f->s.c[b].aware = false;
    af_start(f);
    cr_assert_eq(af_begin(f, (int[]){5, 15}, 2), FRAY_OK);
    cr_assert_eq(f->st.round, 0);
    cr_assert(fa_has(&f->st.c[b], FA_C_SURPRISED));
    cr_assert_not_null(af_fact(f, FA_FACT_SURPRISE, b));
    cr_assert_eq(f->st.order[0], b);
    cr_assert_eq(af_next(f), FRAY_OK);
    /* the surprised one's turn began and passed: Tony acts */
    cr_assert_not_null(af_fact(f, FA_FACT_TURN, b));
    cr_assert_eq(f->st.cur, a);
    cr_assert_eq(fa_actor(&f->s, &f->st), a);
    cr_assert_eq(f->st.c[a].slots, FA_SLOT_STANDARD | FA_SLOT_MOVE, "no swift action");
    fa_command sp = af_cmd(FA_CMD_SPEND_AP, a);
    cr_assert_eq(af_do(f, &sp), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "no action points can be spent in the surprise round");
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 2, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK);
    /* one action only: the standard slot is gone too */
    fa_command td = af_cmd(FA_CMD_TOTAL_DEFENSE, a);
    cr_assert_eq(af_do(f, &td), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony has taken its one action of the surprise round");
    cr_assert_eq(fa_actor(&f->s, &f->st), -1);
    cr_assert_eq(af_next(f), FRAY_OK);
    const fa_fact *rf = af_fact(f, FA_FACT_ROUND, -1);
    cr_assert_not_null(rf);
    cr_assert_eq(rf->v[0], 1);
    cr_assert_not(fa_has(&f->st.c[b], FA_C_SURPRISED), "Surprised ends with the surprise round");
    cr_assert_eq(f->st.cur, b);
    cr_assert_eq(f->st.c[b].slots, FA_SLOT_STANDARD | FA_SLOT_MOVE | FA_SLOT_SWIFT);
    free(f);
}

/* surprise_action: standard-and-move lets the aware take both. */
/* 004:40, 253, L7.2: option surprise-action: standard-and-move. */
Test(alloy_turn, surprise_round_standard_and_move_option) {
    int a, b;
    fixture *f = two(&a, &b, 0, 0);
    f->s.opt.surprise_action = FA_SURPRISE_STANDARD_AND_MOVE;
    f->s.c[b].aware = false;
    af_start(f);
    cr_assert_eq(af_begin(f, (int[]){15, 5}, 2), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_eq(f->st.cur, a);
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 1, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK);
    fa_command td = af_cmd(FA_CMD_TOTAL_DEFENSE, a);
    cr_assert_eq(af_do(f, &td), FRAY_OK, "%s", f->why);
    free(f);
}

/* 004:40 "If no one, or everyone starts the battle aware then there is
 * no surprise round". */
Test(alloy_turn, no_surprise_round_when_all_unaware) {
    int a, b;
    fixture *f = two(&a, &b, 0, 0);
    f->s.c[a].aware = false;
    f->s.c[b].aware = false;
    af_start(f);
    cr_assert_eq(af_begin(f, (int[]){15, 5}, 2), FRAY_OK);
    cr_assert_eq(f->st.round, 1);
    cr_assert_not(fa_has(&f->st.c[a], FA_C_SURPRISED));
    cr_assert_null(af_fact(f, FA_FACT_SURPRISE, -1));
    free(f);
}

static fixture *started(int *a, int *b) {
    fixture *f = two(a, b, 0, 0);
    af_start(f);
    cr_assert_eq(af_begin(f, (int[]){15, 5}, 2), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_eq(f->st.cur, *a);
    return f;
}

/* 004:278, 289: standard + move + swift; a move may replace the
 * standard, a swift the move. */
Test(alloy_turn, action_trading_004_289) {
    int a, b;
    fixture *f = started(&a, &b);
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 1, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK);
    const fa_fact *act = af_fact(f, FA_FACT_ACTION, a);
    cr_assert_eq(act->v[0], FA_CMD_WALK);
    cr_assert_eq(act->v[1], FA_ACT_MOVE);
    w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 1, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK);
    cr_assert_eq(af_fact(f, FA_FACT_ACTION, a)->v[1], FA_ACT_STANDARD,
                 "the second move is bought with the standard action");
    w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 1, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony has no move action left");
    fa_command dp = af_cmd(FA_CMD_DROP_PRONE, a);
    cr_assert_eq(af_do(f, &dp), FRAY_OK);
    cr_assert_eq(af_fact(f, FA_FACT_ACTION, a)->v[1], FA_ACT_SWIFT);
    cr_assert_eq(f->st.c[a].slots, 0);
    free(f);
}

/* cmd.slot: the slot asked for pays, when it may (a swift in place of a
 * move), and a smaller slot never pays for a bigger action. */
/* 004:278-289: the slot a command asks to spend. */
Test(alloy_turn, action_slot_asked_for) {
    int a, b;
    fixture *f = started(&a, &b);
    fa_command td = af_cmd(FA_CMD_TOTAL_DEFENSE, a);
    td.slot = FA_ACT_MOVE;
    cr_assert_eq(af_do(f, &td), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "a standard action cannot be taken in place of a move action");
    fa_command dp = af_cmd(FA_CMD_DROP_PRONE, a);
    dp.slot = FA_ACT_MOVE;
    cr_assert_eq(af_do(f, &dp), FRAY_OK);
    cr_assert_eq(af_fact(f, FA_FACT_ACTION, a)->v[1], FA_ACT_MOVE);
    cr_assert_eq(f->st.c[a].slots, FA_SLOT_STANDARD | FA_SLOT_SWIFT);
    free(f);
}

/* 004:291, 349 (L7.12): an action point, a free action, gives an extra
 * standard action (tradable); at most ap_per_turn a turn; none in the
 * surprise round (above). */
Test(alloy_turn, action_point_extra_standard_004_291) {
    int a, b;
    fixture *f = two(&a, &b, 0, 0);
    f->s.sb[f->s.c[a].sb].action_points = 2;
    af_start(f);
    cr_assert_eq(af_begin(f, (int[]){15, 5}, 2), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    fa_command td = af_cmd(FA_CMD_TOTAL_DEFENSE, a);
    cr_assert_eq(af_do(f, &td), FRAY_OK);
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 1, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK);
    fa_command dp = af_cmd(FA_CMD_DRAW, a);
    cr_assert_eq(af_do(f, &dp), FRAY_ERR_INVALID, "no weapon to draw");
    fa_command sp = af_cmd(FA_CMD_SPEND_AP, a);
    cr_assert_eq(af_do(f, &sp), FRAY_OK);
    const fa_fact *ap = af_fact(f, FA_FACT_AP, a);
    cr_assert_not_null(ap);
    cr_assert_eq(ap->v[0], 1);
    cr_assert_eq(af_fact(f, FA_FACT_ACTION, a)->v[1], FA_ACT_FREE);
    cr_assert_eq(f->st.c[a].extra_standard, 1);
    cr_assert_eq(af_do(f, &sp), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony has already spent an action point this turn");
    /* the extra standard action traded for a move */
    w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 1, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_fact(f, FA_FACT_ACTION, a)->v[1], FA_ACT_STANDARD);
    cr_assert_eq(f->st.c[a].extra_standard, 0);
    free(f);
}

/* 004:291, L7.12: no action point left, no extra standard action. */
Test(alloy_turn, action_point_none_left) {
    int a, b;
    fixture *f = started(&a, &b);
    f->st.c[a].ap = 0;
    fa_command sp = af_cmd(FA_CMD_SPEND_AP, a);
    cr_assert_eq(af_do(f, &sp), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony has no action points left");
    free(f);
}

/* 004:927: Dazed, one action a round (swift, move or standard), no
 * immediate actions. */
Test(alloy_turn, dazed_one_action_004_927) {
    int a, b;
    fixture *f = started(&a, &b);
    af_cond(f, a, FA_C_DAZED, FA_ENDS_SAVE, -1, 0);
    cr_assert_eq(fa_can_pay(&f->st, a, FA_ACT_SWIFT, FA_ACT_NONE), true);
    fa_command dp = af_cmd(FA_CMD_DROP_PRONE, a);
    cr_assert_eq(af_do(f, &dp), FRAY_OK);
    fa_command td = af_cmd(FA_CMD_TOTAL_DEFENSE, a);
    cr_assert_eq(af_do(f, &td), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Dazed: Tony has already taken its one action this round");
    cr_assert_not(fa_can_pay(&f->st, b, FA_ACT_IMMEDIATE, FA_ACT_NONE) &&
                  fa_has(&f->st.c[b], FA_C_DAZED));
    af_cond(f, b, FA_C_DAZED, FA_ENDS_SAVE, -1, 0);
    cr_assert_not(fa_can_pay(&f->st, b, FA_ACT_IMMEDIATE, FA_ACT_NONE),
                  "no immediate actions when Dazed");
    free(f);
}

/* 004:277: the start of the turn: ongoing damage, then effects ending at
 * the start of its turn; 004:279 the end: saving throws (d20 >= 10,
 * L7.8). */
Test(alloy_turn, turn_start_ongoing_and_end_saves_004_277_279) {
    int a, b;
    fixture *f = two(&a, &b, 0, 0);
    af_start(f);
    cr_assert_eq(af_begin(f, (int[]){15, 5}, 2), FRAY_OK);
    af_cond(f, a, FA_C_ONGOING, FA_ENDS_SAVE, b, 5);
    af_cond(f, a, FA_C_TOTAL_DEFENSE, FA_ENDS_START_OF_TURN, a, 2);
    f->st.c[a].flags |= FA_F_IMMEDIATE;
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_eq(f->fake.damage_total, 5);
    cr_assert_eq(f->st.c[a].hp, 15);
    const fa_fact *on = af_fact(f, FA_FACT_ONGOING, a);
    cr_assert_not_null(on);
    cr_assert_eq(on->v[0], 5);
    cr_assert_not(fa_has(&f->st.c[a], FA_C_TOTAL_DEFENSE), "ends at the start of its turn");
    cr_assert_not(f->st.c[a].flags & FA_F_IMMEDIATE, "L7.13: immediate action again");
    fa_command et = af_cmd(FA_CMD_END_TURN, a);
    cr_assert_eq(af_do(f, &et), FRAY_OK);
    cr_assert_eq(af_next_dice(f, (int[]){9}, 1), FRAY_OK);
    const fa_fact *sv = af_fact(f, FA_FACT_SAVE, a);
    cr_assert_not_null(sv);
    cr_assert_eq(sv->v[0], 9);
    cr_assert_eq(sv->v[1], 10);
    cr_assert_eq(sv->v[2], 0);
    cr_assert(fa_has(&f->st.c[a], FA_C_ONGOING), "9 does not save");
    cr_assert_eq(f->st.cur, b);
    et = af_cmd(FA_CMD_END_TURN, b);
    cr_assert_eq(af_do(f, &et), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_eq(f->st.round, 2);
    cr_assert_eq(f->st.c[a].hp, 10);
    et = af_cmd(FA_CMD_END_TURN, a);
    cr_assert_eq(af_do(f, &et), FRAY_OK);
    cr_assert_eq(af_next_dice(f, (int[]){10}, 1), FRAY_OK);
    cr_assert_eq(af_fact(f, FA_FACT_SAVE, a)->v[2], 1);
    cr_assert_not(fa_has(&f->st.c[a], FA_C_ONGOING), "10 saves");
    free(f);
}

/* "until the end of <who>'s next turn": it ends at the end of who's turn
 * in a round after the one it was put on (cond.round), so one put on
 * during who's own turn lasts until the end of its next one (004:428). */
Test(alloy_turn, end_of_next_turn_effects_004_428) {
    int a, b;
    fixture *f = started(&a, &b);
    af_cond(f, b, FA_C_AID_DEFENSE, FA_ENDS_END_OF_TURN, a, 2);
    fa_cond c;
    memset(&c, 0, sizeof c);
    c.kind = FA_C_AID_ATTACK;
    c.ends = FA_ENDS_END_OF_TURN;
    c.whose = (int8_t)a;
    c.other = -1;
    c.source = (int8_t)a;
    c.round = f->st.round;
    cr_assert_eq(fa_cond_add(&f->r, a, c), FRAY_OK);
    fa_command et = af_cmd(FA_CMD_END_TURN, a);
    cr_assert_eq(af_do(f, &et), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_not(fa_has(&f->st.c[b], FA_C_AID_DEFENSE));
    cr_assert(fa_has(&f->st.c[a], FA_C_AID_ATTACK), "made this turn: lasts to the next");
    et = af_cmd(FA_CMD_END_TURN, b);
    cr_assert_eq(af_do(f, &et), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    et = af_cmd(FA_CMD_END_TURN, a);
    cr_assert_eq(af_do(f, &et), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_not(fa_has(&f->st.c[a], FA_C_AID_ATTACK));
    free(f);
}

/* 004:1012: a Stunned combatant's turn passes; its start and end still
 * happen (a save at the end). */
Test(alloy_turn, stunned_turn_passes_004_1012) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 20);
    int a = af_add(f, "Tony", s, 0, 1, 1), b = af_add(f, "orc 1", s, 1, 5, 5),
        c = af_add(f, "orc 2", s, 1, 7, 7);
    af_start(f);
    cr_assert_eq(af_begin(f, (int[]){15, 10, 5}, 3), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    af_cond(f, b, FA_C_STUNNED, FA_ENDS_SAVE, a, 0);
    fa_command et = af_cmd(FA_CMD_END_TURN, a);
    cr_assert_eq(af_do(f, &et), FRAY_OK);
    cr_assert_eq(af_next_dice(f, (int[]){3}, 1), FRAY_OK);
    cr_assert_not_null(af_fact(f, FA_FACT_TURN, b));
    cr_assert_not_null(af_fact(f, FA_FACT_SAVE, b));
    cr_assert_eq(f->st.cur, c);
    cr_assert(fa_has(&f->st.c[b], FA_C_STUNNED));
    free(f);
}

/* 004:565-579 Delay: no action; back after another's turn with its
 * initiative just before the next; beneficial effects ending at the end
 * of its turn end when it delays, harmful ones after it acts. */
Test(alloy_turn, delay_and_come_back_004_565_579) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 20);
    int a = af_add(f, "Tony", s, 0, 1, 1), b = af_add(f, "orc 1", s, 1, 8, 8),
        c = af_add(f, "Sue", s, 0, 1, 3);
    af_start(f);
    cr_assert_eq(af_begin(f, (int[]){18, 12, 6}, 3), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_eq(f->st.cur, a);
    af_cond(f, b, FA_C_DAZED, FA_ENDS_END_OF_TURN, a, 0);       /* good for Tony's side */
    af_cond(f, c, FA_C_AID_ATTACK, FA_ENDS_END_OF_TURN, a, 2);  /* good for Tony's side */
    af_cond(f, a, FA_C_SLOWED, FA_ENDS_END_OF_TURN, a, 0);      /* bad for Tony */
    fa_command d = af_cmd(FA_CMD_DELAY, a);
    cr_assert_eq(af_do(f, &d), FRAY_OK, "%s", f->why);
    cr_assert_not_null(af_fact(f, FA_FACT_DELAY, a));
    cr_assert(fa_has(&f->st.c[a], FA_C_DELAYING));
    cr_assert_not(fa_has(&f->st.c[b], FA_C_DAZED), "004:576");
    cr_assert_not(fa_has(&f->st.c[c], FA_C_AID_ATTACK), "004:576");
    cr_assert(fa_has(&f->st.c[a], FA_C_SLOWED), "004:578: after it acts");
    cr_assert_eq(fa_actor(&f->s, &f->st), -1);
    fa_command rs = af_cmd(FA_CMD_RESUME, a);
    cr_assert_eq(af_do(f, &rs), FRAY_ERR_INVALID);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_eq(f->st.cur, b, "no pause after its own delayed turn");
    fa_command et = af_cmd(FA_CMD_END_TURN, b);
    cr_assert_eq(af_do(f, &et), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert(f->st.between);
    cr_assert_eq(f->st.cur, -1);
    cr_assert_eq(fa_actor(&f->s, &f->st), a, "the delaying one may come back");
    cr_assert_eq(af_do(f, &rs), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.cur, a);
    cr_assert_eq(f->st.order[0], b);
    cr_assert_eq(f->st.order[1], a);
    cr_assert_eq(f->st.order[2], c);
    cr_assert_eq(f->st.c[a].init, f->st.c[c].init, "initiative just before the next");
    cr_assert_not(fa_has(&f->st.c[a], FA_C_DELAYING));
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 1, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    et = af_cmd(FA_CMD_END_TURN, a);
    cr_assert_eq(af_do(f, &et), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_not(fa_has(&f->st.c[a], FA_C_SLOWED), "harmful effect ends after it acts");
    cr_assert_eq(f->st.cur, c);
    cr_assert(fray__track_valid(&f->st.track));
    free(f);
}

/* 004:574: a delayed turn not used before its initiative comes round
 * again is lost; it keeps its place and takes its turn. */
Test(alloy_turn, delay_lost_004_574) {
    int a, b;
    fixture *f = started(&a, &b);
    fa_command d = af_cmd(FA_CMD_DELAY, a);
    cr_assert_eq(af_do(f, &d), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    fa_command et = af_cmd(FA_CMD_END_TURN, b);
    cr_assert_eq(af_do(f, &et), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_eq(fa_actor(&f->s, &f->st), a);
    cr_assert_eq(af_next(f), FRAY_OK); /* it does not come back */
    const fa_fact *lost = af_fact(f, FA_FACT_LOST, a);
    cr_assert_not_null(lost);
    cr_assert_eq(lost->v[0], 0);
    cr_assert_eq(f->st.round, 2);
    cr_assert_eq(f->st.cur, a);
    cr_assert_eq(f->st.order[0], a, "its initiative remains where it was");
    cr_assert_not(fa_has(&f->st.c[a], FA_C_DELAYING));
    free(f);
}

/* 004:572: no delay after acting, nor when Dazed. */
Test(alloy_turn, delay_refused_after_acting_004_572) {
    int a, b;
    fixture *f = started(&a, &b);
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_line(f, &w, a, 1, 1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK);
    fa_command d = af_cmd(FA_CMD_DELAY, a);
    cr_assert_eq(af_do(f, &d), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony has already acted this turn and cannot delay");
    free(f);
}

/* The fight is over when one side has nobody standing (FACT OVER). */
/* 004:211: a side whose every combatant is dying or dead is out. */
Test(alloy_turn, over_when_one_side_falls) {
    int a, b;
    fixture *f = started(&a, &b);
    f->st.c[b].hp = 3;
    af_cond(f, b, FA_C_ONGOING, FA_ENDS_SAVE, a, 5);
    fa_command et = af_cmd(FA_CMD_END_TURN, a);
    cr_assert_eq(af_do(f, &et), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert(f->st.over);
    cr_assert_eq(f->st.winner, 0);
    const fa_fact *o = af_fact(f, FA_FACT_OVER, -1);
    cr_assert_not_null(o);
    cr_assert_eq(o->v[0], 0);
    cr_assert_eq(fa_actor(&f->s, &f->st), -1);
    cr_assert_eq(af_next(f), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "the fight is over");
    free(f);
}

/* The round limit: no winner. */
Test(alloy_turn, over_at_the_round_limit) {
    int a, b;
    fixture *f = two(&a, &b, 0, 0);
    f->s.round_limit = 1;
    af_start(f);
    cr_assert_eq(af_begin(f, (int[]){15, 5}, 2), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    fa_command et = af_cmd(FA_CMD_END_TURN, a);
    cr_assert_eq(af_do(f, &et), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    et = af_cmd(FA_CMD_END_TURN, b);
    cr_assert_eq(af_do(f, &et), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert(f->st.over);
    cr_assert_eq(f->st.winner, -1);
    free(f);
}

/* 004:615, L7.17: a grapple not sustained (swift) by the end of the
 * grappler's turn ends; sustained, it holds. */
Test(alloy_turn, grapple_sustain_004_615) {
    int a, b;
    fixture *f = started(&a, &b);
    f->st.c[b].fp.at = (fray_pos){3, 2};
    f->st.c[a].grappling = (int8_t)b;
    fa_cond g;
    memset(&g, 0, sizeof g);
    g.kind = FA_C_GRAPPLED;
    g.ends = FA_ENDS_EVENT;
    g.whose = (int8_t)a;
    g.other = (int8_t)a;
    g.source = (int8_t)a;
    cr_assert_eq(fa_cond_add(&f->r, b, g), FRAY_OK);
    fa_command su = af_cmd(FA_CMD_SUSTAIN, a);
    cr_assert_eq(af_do(f, &su), FRAY_OK, "%s", f->why);
    fa_command et = af_cmd(FA_CMD_END_TURN, a);
    cr_assert_eq(af_do(f, &et), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert(fa_has(&f->st.c[b], FA_C_GRAPPLED), "sustained");
    et = af_cmd(FA_CMD_END_TURN, b);
    cr_assert_eq(af_do(f, &et), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    et = af_cmd(FA_CMD_END_TURN, a);
    cr_assert_eq(af_do(f, &et), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_not(fa_has(&f->st.c[b], FA_C_GRAPPLED), "not sustained: it ends");
    cr_assert_eq(f->st.c[a].grappling, -1);
    free(f);
}

/* fa_actor: the one whose turn it is while it can still do something
 * (an action point counts); -1 when the engine must step. */
Test(alloy_turn, actor_until_nothing_is_left) {
    int a, b;
    fixture *f = started(&a, &b);
    cr_assert_eq(fa_actor(&f->s, &f->st), a);
    f->st.c[a].slots = 0;
    cr_assert_eq(fa_actor(&f->s, &f->st), a, "it may still spend its action point");
    f->st.c[a].ap = 0;
    cr_assert_eq(fa_actor(&f->s, &f->st), -1);
    fa_command w = af_cmd(FA_CMD_WALK, b);
    af_line(f, &w, b, 1, -1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "it is not orc 1's turn");
    free(f);
}

/* Drawn dice replay: the same seed gives the same initiative. */
Test(alloy_turn, initiative_drawn_is_seeded) {
    int a, b;
    fixture *f = two(&a, &b, 0, 0);
    af_start(f);
    cr_assert_eq(af_begin(f, NULL, 0), FRAY_OK);
    int first = f->st.order[0];
    int16_t ia = f->st.c[a].init;
    fixture *g = two(&a, &b, 0, 0);
    af_start(g);
    cr_assert_eq(af_begin(g, NULL, 0), FRAY_OK);
    cr_assert_eq(g->st.order[0], first);
    cr_assert_eq(g->st.c[a].init, ia);
    cr_assert_eq(af_begin(g, NULL, 0), FRAY_ERR_INVALID, "only once");
    free(f);
    free(g);
}

/* Turns that pass (everyone Stunned for good) are bounded per event: a
 * step ends with nobody's turn (fa_actor -1) and the next goes on, until
 * the round limit ends the fight with no winner. */
Test(alloy_turn, passing_turns_are_bounded_per_step) {
    int a, b;
    fixture *f = two(&a, &b, 0, 0);
    f->s.round_limit = 5;
    af_start(f);
    cr_assert_eq(af_begin(f, (int[]){15, 5}, 2), FRAY_OK);
    af_cond(f, a, FA_C_STUNNED, FA_ENDS_EVENT, -1, 0);
    af_cond(f, b, FA_C_STUNNED, FA_ENDS_EVENT, -1, 0);
    int steps = 0;
    while (!f->st.over && steps < 50) {
        cr_assert_eq(fa_actor(&f->s, &f->st), -1);
        cr_assert_eq(af_next(f), FRAY_OK);
        steps++;
    }
    cr_assert(f->st.over);
    cr_assert_eq(f->st.winner, -1);
    cr_assert_gt(steps, 1, "more than one step");
    free(f);
}

/* 004:577: "You can't sustain effects when you delay": a grapple that
 * needs sustaining lapses when the grappler delays. */
Test(alloy_turn, delay_lets_sustained_effects_lapse_004_577) {
    int a, b;
    fixture *f = started(&a, &b);
    f->st.c[b].fp.at = (fray_pos){3, 2};
    f->st.c[a].grappling = (int8_t)b;
    fa_cond g;
    memset(&g, 0, sizeof g);
    g.kind = FA_C_GRAPPLED;
    g.whose = (int8_t)a;
    g.other = (int8_t)a;
    g.source = (int8_t)a;
    cr_assert_eq(fa_cond_add(&f->r, b, g), FRAY_OK);
    af_cond(f, b, FA_C_SLOWED, FA_ENDS_SUSTAIN, a, 0);
    fa_command d = af_cmd(FA_CMD_DELAY, a);
    cr_assert_eq(af_do(f, &d), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].grappling, -1);
    cr_assert_not(fa_has(&f->st.c[b], FA_C_GRAPPLED));
    cr_assert_not(fa_has(&f->st.c[b], FA_C_SLOWED));
    free(f);
}
