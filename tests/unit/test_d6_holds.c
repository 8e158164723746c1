/* test_d6_holds.c - the arm pin (003:17-24), the slam or throw (003:15-16)
 * and the disarm (003:61) of src/rules/d6/holds.c, and the one state for
 * being on the ground (003:8, 13, 93; checklist D7.7), through the fight
 * API with the dice given by hand. The duel of d6_fixture.h: the knight
 * (Agility 3D+1, so fighting 3D+1; Physique 3D+1, so Strength Damage 2D;
 * Coordination 2D+2; melee 5D with a sword, STR+1D+1) and the brigand
 * (Agility 3D, Physique 3D, leather 1D, a club), health: body-points (the
 * resistance is the leather's 1D; the brigand has 29 Body Points). Dice
 * given by hand: the Wild Die first (and its re-rolls while it shows 6),
 * then the others. */
#include "d6_fixture.h"
#include "fray/view.h"

static d6_setup S;

static bool has_condition(fray_fight *f, int who, const char *name) {
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    const fray_view_combatant *c = &v->combatants[who];
    bool found = false;
    for (int k = 0; k < c->n_conditions; k++)
        found |= strcmp(c->conditions[k].name, name) == 0;
    fray_fight_view_free(v);
    return found;
}

/* The knight first (initiative 15 and 6), moved to 1 m of the brigand. */
/* Round 1: the knight pins the brigand's arm (a grab, +2D: fighting
 * [5,5,5]+1 = 16 against 16; no damage on the first round, 003:17); the
 * brigand waits; round 2 begins with the knight first again. */
static fray_fight *pinned_duel(fray_setup *fs) {
    fray_fight *f = d6_fx_close_duel(&S, fs);
    d6_fx_ok(f, "knight attack brigand grab arm-pin", (const int[]){5, 5, 5}, 3);
    d6_fx_ok(f, "brigand wait", NULL, 0);
    d6_fx_ok(f, "next", (const int[]){5, 5, 5, 2, 2}, 5);
    return f;
}

/* 003:17, 30: an arm pin is a grab (+2D), holds the arm and does no damage
 * on its first round; its options come after that round. */
Test(d6_holds, arm_pin_grab_first_round_003_17) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    fray_diag diag;
    cr_assert_eq(d6_fx_try(f, "knight attack brigand grab arm-pin", (const int[]){5, 5, 4}, 3,
                         &diag), FRAY_OK, "%s", diag.message);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"grab\":\"arm-pin\"");
    d6_fx_has(j, "\"total\":15,\"difficulty\":16,\"result\":\"miss\"");
    fray_fight_free(f);
    f = d6_fx_close_duel(&S, &fs);
    d6_fx_ok(f, "knight attack brigand grab arm-pin", (const int[]){5, 5, 5}, 3);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"grab\":\"arm-pin\"");
    cr_assert(!strstr(j, "\"damage\""), "no damage on the first round: %s", j);
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(d6_holder(st, 1), 0);
    cr_assert_eq(st->c[1].hold_kind, D6_GRAB_ARM_PIN);
    cr_assert_eq(st->c[1].bp, S.c[1].b.body_points);
    cr_assert(has_condition(f, 1, "arm pinned by Sir Aldo"), "the view shows the pin");
    /* the options come after the first round (003:17) */
    d6_event cmd;
    memset(&cmd, 0, sizeof cmd);
    cmd.kind = D6_EV_PIN;
    cmd.actor = 0;
    cmd.target = -1;
    cmd.pin_op = D6_PIN_BREAK;
    char why[256];
    cr_assert_eq(d6_holds_check(&S, st, &cmd, why, sizeof why), FRAY_ERR_INVALID);
    d6_fx_has(why, "after the first round");
    cmd.kind = D6_EV_SQUEEZE;
    cr_assert_eq(d6_holds_check(&S, st, &cmd, why, sizeof why), FRAY_ERR_INVALID);
    fray_fight_free(f);
}

/* 003:18: option 1, the Strength Damage only (2D [5,4] = 9 against the
 * leather's [2]: 7 Body Points). */
Test(d6_holds, pin_damage_003_18) {
    fray_setup fs;
    fray_fight *f = pinned_duel(&fs);
    d6_fx_ok(f, "knight pin damage", (const int[]){5, 4, 2}, 3);
    char j[4096], w[1024];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"action\":\"pin\"");
    d6_fx_has(j, "\"pin\":\"damage\"");
    d6_fx_has(j, "\"damage\":9,\"resistance\":2");
    d6_fx_last_words(f, w, sizeof w);
    d6_fx_has(w, "Sir Aldo, pinning Brigand's arm, does its Strength Damage.");
    cr_assert_eq(d6_fx_st(f)->c[1].bp, S.c[1].b.body_points - 7);
    fray_fight_free(f);
}

/* 003:19-20, D7.12: breaking, not resisted: Physique 3D+1 against 2 x 3
 * (dice) + 0 (pips) + the leather's 1D (3) = 9. [3,3,2]+1 = 9 meets it
 * (D7.13): the arm breaks (ruling 44: the arm's effect, -1 to the hands'
 * rolls, and the Strength Damage [5,4] against [2]). [2,2,2]+1 = 7 fails:
 * the Strength Damage as option 1 (003:20), no broken arm. */
Test(d6_holds, break_not_resisted_003_20) {
    fray_setup fs;
    fray_fight *f = pinned_duel(&fs);
    d6_fx_ok(f, "knight pin break", (const int[]){3, 3, 2, 5, 4, 2}, 6);
    char j[4096], w[1024];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"pin\":\"break\",\"total\":9,\"difficulty\":9,\"result\":\"broken\"");
    d6_fx_has(j, "\"location\":\"arm\"");
    d6_fx_last_words(f, w, sizeof w);
    d6_fx_has(w, "tries to break the arm: 9 against 9, the arm breaks");
    d6_state *st = d6_fx_st(f);
    cr_assert(st->c[1].parts & D6_PART_HAND, "the arm's lasting effect (003:84)");
    cr_assert_eq(st->c[1].bp, S.c[1].b.body_points - 7);
    cr_assert_eq(d6_holder(st, 1), 0, "the pin is kept");
    fray_fight_free(f);
    f = pinned_duel(&fs);
    d6_fx_ok(f, "knight pin break", (const int[]){2, 2, 2, 5, 4, 2}, 6);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":7,\"difficulty\":9,\"result\":\"failed\"");
    st = d6_fx_st(f);
    cr_assert_eq(st->c[1].parts, 0, "no broken arm");
    cr_assert_eq(st->c[1].bp, S.c[1].b.body_points - 7, "damage as option 1");
    fray_fight_free(f);
}

/* 003:21: breaking, resisted: the brigand moves its turn up and rolls
 * Physique 3D + the leather 1D, + 5: [3,3,3,3] = 12 + 5 = 17. The knight
 * [5,5,5]+1 = 16 fails: the brigand escapes, and its turn is spent (the
 * round is over). With [2,2,2,2] = 13 the knight's 16 breaks the arm. */
Test(d6_holds, break_resisted_turn_moved_up_003_21) {
    fray_setup fs;
    fray_fight *f = pinned_duel(&fs);
    cr_assert(d6_turn_can_move_up(d6_fx_st(f), 1));
    d6_fx_ok(f, "knight pin break resisted", (const int[]){5, 5, 5, 3, 3, 3, 3}, 7);
    char j[4096], w[1024];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"resisted\":true");
    d6_fx_has(j, "\"total\":16,\"difficulty\":17,\"result\":\"escaped\"");
    d6_fx_last_words(f, w, sizeof w);
    d6_fx_has(w, "(resisted: its turn moved up), it fails and the arm slips free");
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(d6_holder(st, 1), -1, "escaped (003:21)");
    cr_assert_eq(st->c[1].bp, S.c[1].b.body_points, "no damage when resisted");
    cr_assert_eq(d6_actor(st), -1, "the brigand's turn was spent resisting");
    fray_fight_free(f);
    f = pinned_duel(&fs);
    d6_fx_ok(f, "knight pin break resisted", (const int[]){5, 5, 5, 2, 2, 2, 2, 5, 4, 2}, 10);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":16,\"difficulty\":13,\"result\":\"broken\"");
    cr_assert(d6_fx_st(f)->c[1].parts & D6_PART_HAND);
    fray_fight_free(f);
}

/* 003:21, 24: a target that has had its turn this round cannot move it
 * up to resist (ruling 43); the brigand first in round 2 tries to escape
 * (12 against 12: held, D7.14) and the knight's resisted break is
 * refused in words; `pin damage resisted` is refused at the words. */
Test(d6_holds, resist_needs_its_turn_to_come) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    d6_fx_ok(f, "knight attack brigand grab arm-pin", (const int[]){5, 5, 5}, 3);
    d6_fx_ok(f, "brigand wait", NULL, 0);
    d6_fx_ok(f, "next", (const int[]){2, 2, 2, 5, 5}, 5); /* 6 and 12: the brigand first */
    d6_fx_ok(f, "brigand escape", (const int[]){4, 4, 4, 3, 4, 4}, 6);
    fray_diag diag;
    cr_assert_eq(d6_fx_try(f, "knight pin break resisted", NULL, 0, &diag), FRAY_ERR_INVALID);
    d6_fx_has(diag.message, "cannot move its turn up to resist");
    cr_assert_eq(d6_fx_try(f, "knight pin damage resisted", NULL, 0, &diag), FRAY_ERR_PARSE);
    cr_assert_eq(d6_fx_try(f, "knight pin strangle", NULL, 0, &diag), FRAY_ERR_PARSE);
    d6_fx_has(diag.message, "expected damage, break or submit");
    cr_assert_eq(d6_fx_try(f, "brigand pin damage", NULL, 0, &diag), FRAY_ERR_INVALID);
    fray_fight_free(f);
}

/* 003:22-23, D7.4: submission, not resisted: fighting 3D+1 against 2 x
 * the brigand's Agility dice, 3 (pips dropped) = 6. [2,2,2]+1 = 7: forced
 * to the ground, it submits (ruling 45: out of the fight; the fight ends).
 * [2,1,1]+1 = 5 fails: the Strength Damage (003:23). */
Test(d6_holds, submit_not_resisted_003_23) {
    fray_setup fs;
    fray_fight *f = pinned_duel(&fs);
    d6_fx_ok(f, "knight pin submit", (const int[]){2, 2, 2}, 3);
    char j[4096], w[1024];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"pin\":\"submit\",\"total\":7,\"difficulty\":6,\"result\":\"submits\"");
    d6_fx_has(j, "\"fact\":\"end\"");
    d6_fx_last_words(f, w, sizeof w);
    d6_fx_has(w, "forced to the ground, it submits: out of the fight");
    d6_state *st = d6_fx_st(f);
    cr_assert(d6_out(&st->c[1]));
    cr_assert(st->over);
    cr_assert_eq(st->winner, 0);
    char sum[2048];
    fray_fight_summary(f, sum, sizeof sum);
    d6_fx_has(sum, "out of the fight (submitted to an arm pin)");
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    cr_assert_str_eq(v->combatants[1].status, "fled", "yielded: out, alive (ruling 45)");
    fray_fight_view_free(v);
    fray_fight_free(f);
    f = pinned_duel(&fs);
    d6_fx_ok(f, "knight pin submit", (const int[]){2, 1, 1, 5, 4, 2}, 6);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":5,\"difficulty\":6,\"result\":\"failed\"");
    st = d6_fx_st(f);
    cr_assert(!d6_out(&st->c[1]));
    cr_assert_eq(st->c[1].bp, S.c[1].b.body_points - 7);
    fray_fight_free(f);
}

/* 003:24: submission, resisted: Agility 3D [4,4,4] = 12 + 5 = 17; the
 * knight's [5,5,5]+1 = 16 fails, the brigand escapes; a tie ([4,4,3] + 5
 * = 16 against 16) forces the submission (meet or beat, D7.13). */
Test(d6_holds, submit_resisted_003_24) {
    fray_setup fs;
    fray_fight *f = pinned_duel(&fs);
    d6_fx_ok(f, "knight pin submit resisted", (const int[]){5, 5, 5, 4, 4, 4}, 6);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":16,\"difficulty\":17,\"result\":\"escaped\"");
    cr_assert_eq(d6_holder(d6_fx_st(f), 1), -1);
    fray_fight_free(f);
    f = pinned_duel(&fs);
    d6_fx_ok(f, "knight pin submit resisted", (const int[]){5, 5, 5, 4, 4, 3}, 6);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":16,\"difficulty\":16,\"result\":\"submits\"");
    fray_fight_free(f);
}

/* 003:15-16, D7.18: slam into a wall: two actions (-1D each): lifting
 * (Physique 3D+1 - 1D = 2D+1) [6,4 | 5]+1 = 16 against 15; throwing
 * (Coordination 2D+2 - 1D = 1D+2) [6,3]+2 = 11 against 10; the wall (a
 * brick wall, Sturdy 3D, no Wild Die) [3,3,3] = 9 + the Strength Damage
 * [5,4] = 9: 18 against the leather's [2]: 16 Body Points. The hold ends
 * and the brigand is on the ground, an action to stand (003:93). */
Test(d6_holds, slam_into_a_wall_003_15_16) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    d6_fx_ok(f, "knight attack brigand grab choke", (const int[]){5, 5, 5, 5, 4, 2}, 6);
    d6_fx_ok(f, "brigand wait", NULL, 0);
    d6_fx_ok(f, "next", (const int[]){5, 5, 5, 2, 2}, 5);
    d6_state *st = d6_fx_st(f);
    int bp = st->c[1].bp;
    d6_fx_ok(f, "knight slam into wall",
             (const int[]){6, 4, 5, 6, 3, 3, 3, 3, 5, 4, 2}, 11);
    char j[4096], w[1024];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"action\":\"slam\"");
    d6_fx_has(j, "\"into\":\"wall\"");
    d6_fx_has(j, "\"total\":16,\"difficulty\":15,\"result\":\"lifted\"");
    d6_fx_has(j, "\"total\":11,\"difficulty\":10,\"result\":\"hit\"");
    d6_fx_has(j, "\"damage\":18,\"resistance\":2");
    d6_fx_last_words(f, w, sizeof w);
    d6_fx_has(w, "Sir Aldo lifts Brigand (lifting 16 against 15) and slams it into a wall (3D).");
    cr_assert_eq(st->c[1].bp, bp - 16);
    cr_assert_eq(d6_holder(st, 1), -1, "hurled: the hold ends");
    cr_assert_eq(st->c[1].down, D6_GROUND_STAND, "thrown down: an action to stand (003:93)");
    cr_assert(has_condition(f, 1, "on the ground"));
    fray_fight_free(f);
}

/* 003:15: not lifted (2D+1 [2,2]+1 = 5 against 15): the hold is kept, the
 * turn spent; one not strong enough (a lower Physique, D7.18) is refused;
 * one who holds nobody is refused; a bad object is refused at its word. */
Test(d6_holds, slam_not_lifted_and_refusals_003_15) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    fray_diag diag;
    cr_assert_eq(d6_fx_try(f, "knight slam", NULL, 0, &diag), FRAY_ERR_INVALID);
    d6_fx_has(diag.message, "holds nobody to lift");
    cr_assert_eq(d6_fx_try(f, "knight slam into cloud", NULL, 0, &diag), FRAY_ERR_PARSE);
    d6_fx_has(diag.message, "expected ground, wall");
    d6_fx_ok(f, "knight attack brigand grab choke", (const int[]){5, 5, 5, 5, 4, 2}, 6);
    d6_fx_ok(f, "brigand wait", NULL, 0);
    d6_fx_ok(f, "next", (const int[]){5, 5, 5, 2, 2}, 5);
    d6_fx_ok(f, "knight slam", (const int[]){2, 2}, 2);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"into\":\"ground\"");
    d6_fx_has(j, "\"total\":5,\"difficulty\":15,\"result\":\"not lifted\"");
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(d6_holder(st, 1), 0, "the hold kept");
    /* the brigand (Physique 3D) holding the knight (3D+1) may not lift him */
    st->c[1].held_by = 0;
    st->c[0].held_by = 2;
    st->c[0].hold_kind = D6_GRAB_HOLD;
    d6_event cmd;
    memset(&cmd, 0, sizeof cmd);
    cmd.kind = D6_EV_SLAM;
    cmd.actor = 1;
    char why[256];
    cr_assert_eq(d6_holds_check(&S, st, &cmd, why, sizeof why), FRAY_ERR_INVALID);
    d6_fx_has(why, "not strong enough");
    fray_fight_free(f);
}

/* 003:61: a disarm is a called shot at the item (the club, no length
 * given: 10 to 50 cm, +1D = 13, ruling 46); melee 5D [5,5,5,5,5] hits;
 * the damage total is the sword's STR+1D+1 = 3D+1 [3,3,3]+1 = 10 (no
 * called-shot +1D, D7.19). The brigand has not acted: it moves its action
 * up and rolls Physique 3D: [4,4,3] = 11 > 10 keeps the club; [4,3,3] =
 * 10, a tie, drops it (less or equal). No Body damage either way. */
Test(d6_holds, disarm_greater_keeps_tie_drops_003_61) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    d6_fx_ok(f, "knight attack brigand disarm", (const int[]){5, 5, 5, 5, 5, 3, 3, 3, 4, 4, 3},
             11);
    char j[4096], w[2048];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"disarm\":true");
    d6_fx_has(j, "\"called\":\"large\"");
    d6_fx_has(j, "\"total\":25,\"difficulty\":13,\"result\":\"hit\"");
    d6_fx_has(j, "\"fact\":\"disarm\",\"who\":\"brigand\",\"other\":\"knight\",\"weapon\":\"club\","
           "\"total\":11,\"damage\":10,\"result\":\"kept\"");
    d6_fx_last_words(f, w, sizeof w);
    d6_fx_has(w, "Brigand moves its action up to keep its club: 11 against the damage 10, it keeps it.");
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(d6_weapon_now(&S, st, 1), D6_FX_CLUB);
    cr_assert_eq(st->c[1].bp, S.c[1].b.body_points, "no Body damage");
    cr_assert_eq(d6_actor(st), -1, "its action was moved up: the round is over");
    fray_fight_free(f);
    f = d6_fx_close_duel(&S, &fs);
    d6_fx_ok(f, "knight attack brigand disarm", (const int[]){5, 5, 5, 5, 5, 3, 3, 3, 4, 3, 3},
             11);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":10,\"damage\":10,\"result\":\"dropped\"");
    st = d6_fx_st(f);
    cr_assert_eq(d6_weapon_now(&S, st, 1), -1, "bare-handed");
    cr_assert_eq(st->c[1].bp, S.c[1].b.body_points, "no Body damage");
    cr_assert(has_condition(f, 1, "disarmed: its club on the ground"));
    d6_fx_ok(f, "next", (const int[]){2, 2, 2, 5, 5}, 5); /* the brigand first */
    fray_diag diag;
    cr_assert_eq(d6_fx_try(f, "brigand attack knight with club", NULL, 0, &diag),
                 FRAY_ERR_INVALID);
    d6_fx_has(diag.message, "lies on the ground");
    /* bare-handed, it fights with fighting (Agility 3D, not the club's
     * melee 4D) for its Strength Damage (2D, not the club's 3D) */
    d6_fx_ok(f, "brigand attack knight", (const int[]){4, 4, 4, 3, 3, 2, 2}, 7);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":12,\"difficulty\":10,\"result\":\"hit\"");
    d6_fx_has(j, "\"damage\":6,\"resistance\":4");
    fray_fight_free(f);
}

/* 003:61, D7.19: a holder that has already acted this round drops the
 * item with no roll. The brigand first in round 2 defends; the knight's
 * disarm that hits drops the club: the dice are the attack and the
 * damage only. A disarm with another option, of one bare-handed, or of
 * two attacks, is refused in words. */
Test(d6_holds, disarm_after_acting_drops_no_roll_D7_19) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    d6_fx_ok(f, "knight wait", NULL, 0);
    d6_fx_ok(f, "brigand wait", NULL, 0);
    d6_fx_ok(f, "next", (const int[]){2, 2, 2, 5, 5}, 5); /* the brigand first */
    d6_fx_ok(f, "brigand defend", (const int[]){3, 3, 3}, 3); /* dodge 3D+2: 11 */
    fray_diag diag;
    cr_assert_eq(d6_fx_try(f, "knight attack brigand disarm all-out", NULL, 0, &diag),
                 FRAY_ERR_INVALID);
    d6_fx_has(diag.message, "no other attack option");
    cr_assert_eq(d6_fx_try(f, "knight attack brigand disarm actions 2", NULL, 0, &diag),
                 FRAY_ERR_INVALID);
    d6_fx_has(diag.message, "one disarm attack at a time");
    d6_fx_ok(f, "knight attack brigand disarm", (const int[]){5, 5, 5, 5, 5, 3, 3, 3}, 8);
    char j[4096], w[2048];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"weapon\":\"club\",\"damage\":10,\"result\":\"dropped\"");
    d6_fx_last_words(f, w, sizeof w);
    d6_fx_has(w, "Brigand has acted this round: its club drops (damage 10).");
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(d6_weapon_now(&S, st, 1), -1);
    d6_fx_ok(f, "next", (const int[]){5, 5, 5, 2, 2}, 5);
    cr_assert_eq(d6_fx_try(f, "knight attack brigand disarm", NULL, 0, &diag), FRAY_ERR_INVALID);
    d6_fx_has(diag.message, "holds no weapon");
    fray_fight_free(f);
}

/* The journal: a pin, a resisted submission, a disarm and a slam written as
 * JSON, read back and replayed to the same fight (undo and redo too). */
Test(d6_holds, journal_round_trip_undo_redo) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    d6_fx_ok(f, "knight attack brigand disarm", (const int[]){5, 5, 5, 5, 5, 3, 3, 3, 4, 3, 3},
             11);
    d6_fx_ok(f, "next", (const int[]){5, 5, 5, 2, 2}, 5);
    d6_fx_ok(f, "knight attack brigand grab arm-pin", (const int[]){5, 5, 5}, 3);
    d6_fx_ok(f, "brigand wait", NULL, 0);
    d6_fx_ok(f, "next", (const int[]){5, 5, 5, 2, 2}, 5);
    d6_fx_ok(f, "knight pin break resisted", (const int[]){5, 5, 5, 2, 2, 2, 2, 5, 4, 2}, 10);
    d6_fx_ok(f, "next", (const int[]){5, 5, 5, 2, 2}, 5);
    d6_fx_ok(f, "knight slam into tough", (const int[]){6, 4, 5, 6, 3, 3, 3, 5, 4, 2}, 10);
    size_t n;
    char *text = fx_journal(f, 1 << 16, &n);
    d6_fx_has(text, "\"pin\":\"break\",\"resisted\":true");
    d6_fx_has(text, "\"into\":\"tough\"");
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *g = NULL;
    cr_assert_eq(fray_fight_new(&fs, 99, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_fight_replay_journal(g, text, n, NULL, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_assert(fray_fight_same(f, g));
    cr_assert_eq(d6_weapon_now(&S, d6_fx_st(g), 1), -1);
    cr_assert_eq(d6_fx_st(g)->c[1].down, D6_GROUND_STAND);
    /* undo the slam, redo it: the same fight */
    cr_assert_eq(fray_fight_undo(g), FRAY_OK);
    cr_assert_eq(d6_holder(d6_fx_st(g), 1), 0, "undone: held again");
    cr_assert_eq(d6_fx_st(g)->c[1].down, D6_GROUND_NO);
    cr_assert_eq(fray_fight_redo(g), FRAY_OK);
    cr_assert(fray_fight_same(f, g));
    free(text);
    fray_fight_free(f);
    fray_fight_free(g);
}

/* One state for being on the ground (D7.7): a flip's ends with the whole
 * next turn (`get-up` or `stand`), a knockdown's with one action (`stand`
 * or `get-up`); both words of old journals replay. */
Test(d6_holds, on_the_ground_one_state_old_words_replay_D7_7) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    d6_fx_ok(f, "knight attack brigand grab flip", (const int[]){5, 5, 5, 3, 3, 3, 2}, 7);
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(st->c[1].down, D6_GROUND_FLIP);
    cr_assert(has_condition(f, 1, "on the ground"));
    fray_diag diag;
    cr_assert_eq(d6_fx_try(f, "brigand defend", NULL, 0, &diag), FRAY_ERR_INVALID);
    d6_fx_has(diag.message, "getting up");
    d6_fx_ok(f, "brigand stand", NULL, 0); /* the flip's whole turn */
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"posture\":\"stand\"");
    d6_fx_has(j, "\"fact\":\"get-up\"");
    cr_assert_eq(st->c[1].down, D6_GROUND_NO);
    cr_assert_eq(d6_actor(st), -1, "its turn spent");
    d6_fx_ok(f, "next", (const int[]){5, 5, 5, 2, 2}, 5);
    S.c[0].b.weapon = -1; /* fighting: a knockdown needs it (003:8) */
    d6_fx_ok(f, "knight attack brigand knockdown", (const int[]){5, 5, 5}, 3);
    cr_assert_eq(st->c[1].down, D6_GROUND_STAND);
    cr_assert(has_condition(f, 1, "on the ground"));
    d6_fx_ok(f, "brigand get-up", NULL, 0); /* a knockdown's action */
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"action\":\"get-up\"");
    d6_fx_has(j, "\"fact\":\"stand\"");
    cr_assert_eq(st->c[1].down, D6_GROUND_NO);
    d6_fx_ok(f, "next", (const int[]){5, 5, 5, 2, 2}, 5);
    d6_fx_ok(f, "knight attack brigand grab flip", (const int[]){5, 5, 5, 3, 3, 3, 2}, 7);
    d6_fx_ok(f, "brigand get-up", NULL, 0);
    size_t n;
    char *text = fx_journal(f, 1 << 16, &n);
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *g = NULL;
    cr_assert_eq(fray_fight_new(&fs, 99, &o, NULL, NULL, &g), FRAY_OK);
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_fight_replay_journal(g, text, n, NULL, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_assert(fray_fight_same(f, g));
    free(text);
    fray_fight_free(f);
    fray_fight_free(g);
}

/* The tactics (tactics: wrestle): bare-handed, it knocks an armed foe's
 * weapon away (a called shot), pins an unarmed foe's arm, and forces a
 * submission, resisted when the one pinned still can move its turn up;
 * the default tactics never do any of it. */
Test(d6_holds, tactics_wrestle) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    d6_state *st = d6_fx_st(f);
    d6_event cmd;
    d6_choose(&S, st, &cmd);
    cr_assert(cmd.kind != D6_EV_ATTACK || (!cmd.disarm && !cmd.grab), "melee: a blow");
    S.c[0].tactics = D6_TAC_WRESTLE;
    S.c[0].b.weapon = -1;
    d6_choose(&S, st, &cmd);
    cr_assert_eq(cmd.kind, D6_EV_ATTACK);
    cr_assert(cmd.disarm);
    cr_assert_eq(cmd.called, 1);
    st->c[1].dropped = 1u << D6_FX_CLUB;
    d6_choose(&S, st, &cmd);
    cr_assert_eq(cmd.grab, D6_GRAB_ARM_PIN);
    fray_fight_free(f);
    f = pinned_duel(&fs);
    S.c[0].tactics = D6_TAC_WRESTLE;
    st = d6_fx_st(f);
    d6_choose(&S, st, &cmd);
    cr_assert_eq(cmd.kind, D6_EV_PIN);
    cr_assert_eq(cmd.pin_op, D6_PIN_SUBMIT);
    cr_assert(cmd.resisted, "the brigand's turn is still to come");
    fray_fight_free(f);
}

/* ---- At the table: the chances (issue 19) -------------------------------- */

#include "fray/chances.h"

enum { TOT = 400 };

/* The distribution of a code of `dice` dice and `pips` with the Wild Die
 * (the core: a 6 adds and rolls again; a first 1 cancels itself and the
 * highest other die), by brute force over the other dice and the Wild
 * Die's explosions (truncated after 14 sixes: under 1e-10). */
static void wild_dist(int dice, int pips, double *p) {
    memset(p, 0, TOT * sizeof *p);
    int n = dice - 1, combos = 1;
    for (int k = 0; k < n; k++)
        combos *= 6;
    for (int c = 0; c < combos; c++) {
        int sum = 0, mx = 0, x = c;
        for (int k = 0; k < n; k++) {
            int d = x % 6 + 1;
            x /= 6;
            sum += d;
            mx = d > mx ? d : mx;
        }
        double pc = 1.0 / combos / 6.0;
        p[sum - mx + pips] += pc; /* a first 1: it and the highest count nothing */
        for (int v = 2; v <= 5; v++)
            p[sum + v + pips] += pc;
        double pk = pc; /* a first 6: 6 + 6K + R */
        for (int k = 0; k < 14; k++) {
            pk /= 6.0;
            for (int r = 1; r <= 5; r++)
                if (sum + 6 + 6 * k + r + pips < TOT)
                    p[sum + 6 + 6 * k + r + pips] += pk;
        }
    }
}

static double at_least(const double *p, int t) {
    double q = 0;
    for (int v = t < 0 ? 0 : t; v < TOT; v++)
        q += p[v];
    return q;
}

/* 003:23: a submission not resisted: fighting 3D+1 against 6; 003:21: a
 * break resisted: Physique 3D+1 against the brigand's Physique 3D and
 * leather 1D (4D, its own Wild Die) + 5. Both against brute force. */
Test(d6_holds, chances_of_the_arm_pin_exact_003_21_23) {
    fray_setup fs;
    fray_fight *f = pinned_duel(&fs);
    fray_chances c;
    double k[TOT], b[TOT];
    wild_dist(3, 1, k);
    d6_fx_chances(f, 0, "pin submit", &c);
    double want = at_least(k, 6);
    cr_assert_float_eq(c.p_success, want, 1e-9, "%.12f against %.12f", c.p_success, want);
    cr_assert_eq(c.n_outcomes, 2);
    cr_assert_str_eq(c.outcomes[0].name, "submits");
    cr_assert_float_eq(c.outcomes[1].share, 1 - want, 1e-9);
    wild_dist(4, 0, b);
    want = 0;
    for (int y = 0; y < TOT; y++)
        want += b[y] * at_least(k, y + 5);
    d6_fx_chances(f, 0, "pin break resisted", &c);
    cr_assert_float_eq(c.p_success, want, 1e-9, "%.12f against %.12f", c.p_success, want);
    cr_assert_str_eq(c.outcomes[1].name, "escapes");
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    /* 003:18: counted now, the Strength Damage with no roll to hit */
    d6_fx_chances(f, 0, "pin damage", &c);
    cr_assert_float_eq(c.p_success, 1, 1e-12, "no roll to hit (003:18)");
    d6_fx_has(c.title, "Strength Damage to Brigand (arm pin)");
    memset(&diag, 0, sizeof diag);
    d6_fx_chances(f, 0, "slam", &c); /* 003:15-16: counted now */
    d6_fx_has(c.title, "Slam or throw Brigand into the ground");
    fray_fight_free(f);
}

/* 003:61: a disarm: P(melee 5D >= 10 + 3) x P(Physique 3D is not greater
 * than the damage 3D+1); once the brigand has acted (it waited), P(hit)
 * alone. */
Test(d6_holds, chances_of_a_disarm_exact_003_61) {
    fray_setup fs;
    fray_fight *f = d6_fx_close_duel(&S, &fs);
    double a[TOT], g[TOT], d[TOT];
    wild_dist(5, 0, a);
    wild_dist(3, 0, g);
    wild_dist(3, 1, d);
    double hit = at_least(a, 13), keep = 0;
    for (int y = 0; y < TOT; y++)
        keep += d[y] * at_least(g, y + 1);
    fray_chances c;
    d6_fx_chances(f, 0, "attack brigand disarm", &c);
    cr_assert_float_eq(c.p_success, hit * (1 - keep), 1e-9, "%.12f against %.12f", c.p_success,
                       hit * (1 - keep));
    cr_assert_eq(c.n_outcomes, 3);
    cr_assert_float_eq(c.outcomes[0].share, 1 - hit, 1e-9);
    cr_assert_str_eq(c.outcomes[0].name, "misses");
    cr_assert_str_eq(c.outcomes[1].name, "item dropped");
    cr_assert_float_eq(c.outcomes[2].share, hit * keep, 1e-9);
    cr_assert_eq(c.p_drop, -1);
    d6_fx_ok(f, "knight wait", NULL, 0);
    d6_fx_ok(f, "brigand wait", NULL, 0);
    d6_fx_ok(f, "next", (const int[]){2, 2, 2, 5, 5}, 5); /* the brigand first */
    d6_fx_ok(f, "brigand wait", NULL, 0);
    d6_fx_chances(f, 0, "attack brigand disarm", &c);
    cr_assert_float_eq(c.p_success, hit, 1e-9, "it has acted: the item drops on a hit");
    fray_fight_free(f);
}

/* A journal's bad words are refused by their field: an arm pin's option,
 * a slam's object and a disarm that is not true or false. */
Test(d6_holds, journal_bad_words_refused) {
    fray_setup fs;
    fray_fight *f = pinned_duel(&fs);
    d6_fx_ok(f, "knight pin submit", (const int[]){2, 1, 1, 5, 4, 2}, 6);
    size_t cap = 1 << 16, n;
    char *text = fx_journal(f, cap, &n);
    static const struct {
        const char *from, *to, *field;
    } bad[] = {{"\"pin\":\"submit\"", "\"pin\":\"sideways\"", "command.pin"},
               {"\"pin\":\"submit\"", "\"pin\":\"submit\",\"into\":\"wall\"", "command.into"},
               {"\"grab\":\"arm-pin\"", "\"grab\":\"arm-pin\",\"disarm\":3", "command.disarm"},
               {"\"pin\":\"submit\"", "\"pin\":\"submit\",\"resisted\":\"yes\"",
                "command.resisted"}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char *copy = malloc(cap + 64);
        cr_assert_not_null(copy);
        const char *at = strstr(text, bad[k].from);
        cr_assert_not_null(at, "%s", bad[k].from);
        size_t head = (size_t)(at - text);
        snprintf(copy, cap + 64, "%.*s%s%s", (int)head, text, bad[k].to,
                 at + strlen(bad[k].from));
        fray_fight_options o = {.journal = true, .facts = true, .until = 0};
        fray_fight *g = NULL;
        cr_assert_eq(fray_fight_new(&fs, 99, &o, NULL, NULL, &g), FRAY_OK);
        fray_diag diag;
        memset(&diag, 0, sizeof diag);
        cr_assert_neq(fray_fight_replay_journal(g, copy, strlen(copy), NULL, &diag), FRAY_OK,
                      "case %zu", k);
        d6_fx_has(diag.message, bad[k].field);
        fray_fight_free(g);
        free(copy);
    }
    free(text);
    fray_fight_free(f);
}
