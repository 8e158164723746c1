/* test_d6_rules.c - the D6 core's round (src/rules/d6/rules.c) through
 * the fight API with the dice given by hand: initiative under each
 * `initiative` setting, declared actions and their penalty, passive and
 * active defense, range bands, cover and light (standard and rolled
 * modifiers), the floor of 3, damage with Strength Damage against
 * resistance, the Wound ladder and Body Points, the damage bonus
 * (rulesets-checklists D-0, D1, D4, D5, D7.11, D7.23; seed 003:2-3;
 * docs/rules/d6.md). */
#include "d6_fixture.h"

static d6_setup S;

/* Every fact of the last event of kind `kind` as JSON (for the numbers). */
/* core "Initiative", initiative: round (default): Acumen with the Wild
 * Die; the higher total goes first. Knight 3D [4,3,2] = 9, brigand
 * 2D+2 [5,5] = 12. */
Test(d6_rules, initiative_round_rolls_acumen) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    const int d[] = {4, 3, 2, 5, 5};
    fray_fight *f = d6_fx_start(&fs, d, 5);
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(st->c[0].init, 9);
    cr_assert_eq(st->c[1].init, 12);
    cr_assert_eq(st->order[0], 1, "the brigand first");
    cr_assert_str_eq(fray_fight_turn(f, NULL, 0), "Brigand");
    fray_fight_free(f);
}

/* core: ties go to the better Acumen code (3D over 2D+2): 9 and 9. */
Test(d6_rules, initiative_tie_by_acumen_code) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    const int d[] = {3, 3, 3, 4, 3};
    fray_fight *f = d6_fx_start(&fs, d, 5);
    cr_assert_eq(d6_fx_st(f)->order[0], 0, "the knight's 3D Acumen beats 2D+2");
    fray_fight_free(f);
}

/* initiative: first-action: no roll, the encounter's order; giving
 * initiative dice is refused. */
Test(d6_rules, initiative_first_action) {
    d6_fx_duel(&S);
    S.o.initiative = D6_INIT_FIRST_ACTION;
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = d6_fx_start(&fs, NULL, 0);
    cr_assert_eq(d6_fx_st(f)->order[0], 0);
    cr_assert_eq(d6_fx_st(f)->c[0].init, 0, "no roll");
    fray_fight_free(f);
    fray_fight_options o = {.journal = true, .facts = true};
    const int d[] = {4};
    fray_given g = {NULL, 0, d, 1, NULL};
    fray_fight *f2 = NULL;
    cr_assert_neq(fray_fight_new(&fs, 1, &o, &g, NULL, &f2), FRAY_OK);
    fray_fight_free(f2);
}

/* initiative: scene rolls once; round rolls again at `next` (003:96). */
Test(d6_rules, initiative_scene_and_round_next) {
    for (int scene = 0; scene < 2; scene++) {
        d6_fx_duel(&S);
        S.o.initiative = scene ? D6_INIT_SCENE : D6_INIT_ROUND;
        fray_setup fs = d6_fx_setup(&S);
        const int d[] = {4, 3, 2, 5, 5};
        fray_fight *f = d6_fx_start(&fs, d, 5);
        d6_fx_ok(f, "brigand wait", NULL, 0);
        d6_fx_ok(f, "knight wait", NULL, 0);
        const int again[] = {2, 2, 2, 6, 1, 1};
        fray_diag diag;
        memset(&diag, 0, sizeof diag);
        fray_status rc = d6_fx_cmd(f, "next", again, 6, &diag);
        if (scene) {
            cr_assert_neq(rc, FRAY_OK, "scene: no dice are rolled at next");
            d6_fx_ok(f, "next", NULL, 0);
            cr_assert_eq(d6_fx_st(f)->order[0], 1, "the order kept");
        } else {
            cr_assert_eq(rc, FRAY_OK, "%s", diag.message);
            cr_assert_eq(d6_fx_st(f)->c[0].init, 6);
            cr_assert_eq(d6_fx_st(f)->c[1].init, 6 + 1 + 1 + 2, "the Wild Die's 6 rolls again");
            cr_assert_eq(d6_fx_st(f)->order[0], 1);
        }
        cr_assert_eq(fray_fight_now(f), 2);
        fray_fight_free(f);
    }
}

static fray_fight *knight_first(fray_setup *fs) {
    const int d[] = {5, 5, 5, 2, 2}; /* 15 and 6 */
    fray_fight *f = d6_fx_start(fs, d, 5);
    cr_assert_eq(d6_fx_st(f)->order[0], 0);
    return f;
}

/* core: melee reaches Point Blank only; the refusal names who and why;
 * a move of half the Move or less is free and the turn goes on. */
Test(d6_rules, reach_and_free_move) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = knight_first(&fs);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "knight attack brigand", NULL, 0, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "Brigand is out of reach of Sir Aldo"), "%s", diag.message);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    cr_assert_str_eq(fray_fight_turn(f, NULL, 0), "Sir Aldo", "a free move: the turn goes on");
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "knight move 4,0", NULL, 0, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "already moved"), "%s", diag.message);
    fray_fight_free(f);
}

/* core: moving more than half the Move is the turn's action; more than
 * the Move is refused (running is not built). */
Test(d6_rules, long_move_is_an_action) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = knight_first(&fs);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "knight move 0,11", NULL, 0, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "at most 10 m"), "%s", diag.message);
    d6_fx_ok(f, "knight move 0,8", NULL, 0);
    cr_assert_str_eq(fray_fight_turn(f, NULL, 0), "Brigand");
    fray_fight_free(f);
}

/* core: the attack against passive defense 10; the hit's damage is the
 * sword's 1D+1 plus Strength Damage (Physique 3D+1: 2D) = 3D+1 against
 * Physique 3D + leather 1D; 11 over gives Incapacitated, and a Moderate
 * (15) stamina roll (Physique 3D) keeps the brigand up at -3D. */
Test(d6_rules, hit_damage_resistance_and_staying_up) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = knight_first(&fs);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int d[] = {4, 4, 4, 4, 4, /* melee 5D: 20 */
                     5, 5, 5,       /* damage 3D+1: 16 */
                     2, 1, 1, 1,    /* resistance 4D: 5 */
                     6, 2, 5, 5};   /* stamina 3D: 6+2, 5, 5 = 18 */
    d6_fx_ok(f, "knight attack brigand", d, sizeof d / sizeof d[0]);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"fact\":\"attack\",\"who\":\"knight\",\"other\":\"brigand\",\"total\":20,\"difficulty\":10,\"result\":\"hit\"");
    d6_fx_has(j, "\"damage\":16,\"resistance\":5,\"wound\":\"Incapacitated\"");
    d6_fx_has(j, "\"fact\":\"stay-up\",\"who\":\"brigand\",\"total\":18,\"difficulty\":15,\"result\":\"up\"");
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(st->c[1].wound, D6_W_INCAP);
    cr_assert(st->c[1].flags & D6_F_UP);
    cr_assert_eq(d6_wound_penalty(&S, st, 1), 3, "-3D while up");
    cr_assert_not(fray_fight_over(f));
    fray_fight_free(f);
}

/* core: the Wound ladder and "damage no worse than the current level
 * raises it one level" */
Test(d6_rules, wound_ladder) {
    cr_assert_eq(d6_wound_after(D6_W_NONE, 0), D6_W_NONE);
    cr_assert_eq(d6_wound_after(D6_W_NONE, 1), D6_W_STUNNED);
    cr_assert_eq(d6_wound_after(D6_W_NONE, 3), D6_W_STUNNED);
    cr_assert_eq(d6_wound_after(D6_W_NONE, 4), D6_W_WOUNDED);
    cr_assert_eq(d6_wound_after(D6_W_NONE, 8), D6_W_WOUNDED);
    cr_assert_eq(d6_wound_after(D6_W_WOUNDED, 6), D6_W_SEVERE);
    cr_assert_eq(d6_wound_after(D6_W_NONE, 9), D6_W_INCAP);
    cr_assert_eq(d6_wound_after(D6_W_NONE, 12), D6_W_INCAP);
    cr_assert_eq(d6_wound_after(D6_W_NONE, 13), D6_W_MORTAL);
    cr_assert_eq(d6_wound_after(D6_W_NONE, 15), D6_W_MORTAL);
    cr_assert_eq(d6_wound_after(D6_W_NONE, 16), D6_W_DEAD);
    cr_assert_eq(d6_wound_after(D6_W_STUNNED, 2), D6_W_WOUNDED);
    cr_assert_eq(d6_wound_after(D6_W_SEVERE, 2), D6_W_INCAP);
    cr_assert_eq(d6_wound_after(D6_W_WOUNDED, 13), D6_W_MORTAL);
    cr_assert_eq(d6_wound_after(D6_W_MORTAL, 1), D6_W_DEAD);
    cr_assert_eq(d6_wound_after(D6_W_WOUNDED, -2), D6_W_WOUNDED, "no damage, no change");
}

/* core "Actions": two actions declared: each attack rolls 5D - 1D = 4D
 * (the dice given must be exactly 2 x 4; 2 x 5 would be refused). */
Test(d6_rules, multi_action_penalty) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = knight_first(&fs);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int ten[] = {2, 1, 1, 1, 1, 2, 1, 1, 1, 1};
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_neq(d6_fx_cmd(f, "knight attack brigand actions 2", ten, 10, &diag), FRAY_OK);
    cr_assert(strstr(diag.message, "10 dice were given but the Attack rolled 8"), "%s",
              diag.message);
    d6_fx_ok(f, "knight attack brigand actions 2", ten, 8);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":5,\"difficulty\":10,\"result\":\"miss\"");
    fray_fight_free(f);
}

/* core "Active defense": partial: the dodge roll replaces 10 even when
 * lower; full: the roll + 10; both last to the defender's next turn. */
Test(d6_rules, active_defense_partial_and_full) {
    for (int full = 0; full < 2; full++) {
        d6_fx_duel(&S);
        fray_setup fs = d6_fx_setup(&S);
        const int d[] = {4, 3, 2, 5, 5}; /* the brigand first */
        fray_fight *f = d6_fx_start(&fs, d, 5);
        const int dodge[] = {3, 1, 1}; /* 3D+2: 7 */
        d6_fx_ok(f, full ? "brigand defend full" : "brigand defend", dodge, 3);
        cr_assert_eq(d6_fx_st(f)->c[1].def_total, full ? 17 : 7);
        d6_fx_ok(f, "knight move 5,0", NULL, 0);
        const int miss[] = {2, 1, 1, 1, 1};
        d6_fx_ok(f, "knight attack brigand", miss, 5);
        char j[4096];
        d6_fx_last_json(f, j, sizeof j);
        d6_fx_has(j, full ? "\"total\":6,\"difficulty\":17" : "\"total\":6,\"difficulty\":7,\"result\":\"miss\"");
        fray_fight_free(f);
    }
}

/* core range bands, from the weapon's three ranges (short bow 10/100/250):
 * Point Blank up to 3 m, then Short, Medium, Long; beyond Long no attack;
 * melee reaches Point Blank only. */
Test(d6_rules, range_bands) {
    d6_fx_duel(&S);
    cr_assert_eq(d6_band(&S, D6_FX_BOW, 3), D6_BAND_POINT_BLANK);
    cr_assert_eq(d6_band(&S, D6_FX_BOW, 10), D6_BAND_SHORT);
    cr_assert_eq(d6_band(&S, D6_FX_BOW, 40), D6_BAND_MEDIUM);
    cr_assert_eq(d6_band(&S, D6_FX_BOW, 250), D6_BAND_LONG);
    cr_assert_eq(d6_band(&S, D6_FX_BOW, 251), D6_BAND_BEYOND);
    cr_assert_eq(d6_band(&S, D6_FX_SWORD, 3), D6_BAND_POINT_BLANK);
    cr_assert_eq(d6_band(&S, D6_FX_SWORD, 4), D6_BAND_BEYOND);
    cr_assert_eq(d6_band(&S, -1, 2), D6_BAND_POINT_BLANK, "unarmed");
}

/* 003:2: the difficulty never below 3: a dodge of 4 at Point Blank (-5). */
Test(d6_rules, floor_of_three) {
    d6_fx_firefight(&S);
    S.light = 0;
    d6_state st;
    d6_state_init(&S, &st, 1, 0);
    st.c[0].defense = D6_DEF_PARTIAL;
    st.c[0].def_total = 4;
    S.c[0].cover = D6_COVER_NONE;
    cr_assert_eq(d6_difficulty_standard(&S, &st, 0, D6_BAND_POINT_BLANK, true), 3);
    cr_assert_eq(d6_difficulty_standard(&S, &st, 0, D6_BAND_LONG, true), 14);
    cr_assert_eq(d6_difficulty_standard(&S, &st, 0, D6_BAND_POINT_BLANK, false), 4,
                 "melee takes no range modifier");
}

static fray_fight *crossbow_turn(fray_setup *fs) {
    S.o.initiative = D6_INIT_FIRST_ACTION;
    fray_fight *f = d6_fx_start(fs, NULL, 0);
    d6_fx_ok(f, "archer-1 wait", NULL, 0);
    d6_fx_ok(f, "archer-2 wait", NULL, 0);
    return f;
}

/* core cover and light, modifiers: standard (003:3, default): half cover
 * +2D (+6), mist 1D (+3), Medium +5: 10 + 5 + 6 + 3 = 24. */
Test(d6_rules, cover_standard) {
    d6_fx_firefight(&S);
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = crossbow_turn(&fs);
    const int d[] = {2, 2, 2, 2};
    d6_fx_ok(f, "xbow-1 attack archer-1", d, 4);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":8,\"difficulty\":24,\"result\":\"miss\",\"range\":\"Medium\"");
    fray_fight_free(f);
}

/* modifiers: roll (003:3): the GM rolls the 3D of modifiers; with
 * modifier-wild-die: no (default, D7.11) a 6 does not roll again; with
 * yes it does. */
Test(d6_rules, cover_rolled) {
    for (int wild = 0; wild < 2; wild++) {
        d6_fx_firefight(&S);
        S.o.modifiers_roll = true;
        S.o.modifier_wild = wild;
        fray_setup fs = d6_fx_setup(&S);
        fray_fight *f = crossbow_turn(&fs);
        const int plain[] = {2, 2, 2, 2, 6, 6, 6};
        const int wildd[] = {2, 2, 2, 2, 6, 1, 1, 1};
        d6_fx_ok(f, "xbow-1 attack archer-1", wild ? wildd : plain, wild ? 8 : 7);
        char j[4096];
        d6_fx_last_json(f, j, sizeof j);
        d6_fx_has(j, wild ? "\"difficulty\":24" : "\"difficulty\":33");
        fray_fight_free(f);
    }
}

/* core: full cover: no direct attack, said in words. */
Test(d6_rules, full_cover_refused) {
    d6_fx_firefight(&S);
    S.c[0].cover = D6_COVER_FULL;
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = crossbow_turn(&fs);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "xbow-1 attack archer-1", NULL, 0, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "full cover"), "%s", diag.message);
    fray_fight_free(f);
}

/* health: body-points (D4): resistance is the armour (leather 1D) and
 * special dice only; the excess comes off Body Points (29 - 13 = 16). */
Test(d6_rules, body_points) {
    d6_fx_duel(&S);
    S.o.health = D6_HEALTH_BODY_POINTS;
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = knight_first(&fs);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int d[] = {4, 4, 4, 4, 4, 5, 5, 5, 3};
    d6_fx_ok(f, "knight attack brigand", d, 9);
    cr_assert_eq(d6_fx_st(f)->c[1].bp, 29 - 13);
    cr_assert_eq(d6_wound_penalty(&S, d6_fx_st(f), 1), 0);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"damage\":16,\"resistance\":3,\"body_points\":16");
    fray_fight_free(f);
}

/* damage-bonus: yes (core's optional rule): (20 - 10) / 5 = +2 damage;
 * no (default): none. */
Test(d6_rules, damage_bonus) {
    for (int on = 0; on < 2; on++) {
        d6_fx_duel(&S);
        S.o.health = D6_HEALTH_BODY_POINTS;
        S.o.damage_bonus = on;
        fray_setup fs = d6_fx_setup(&S);
        fray_fight *f = knight_first(&fs);
        d6_fx_ok(f, "knight move 5,0", NULL, 0);
        const int d[] = {4, 4, 4, 4, 4, 5, 5, 5, 3};
        d6_fx_ok(f, "knight attack brigand", d, 9);
        char j[4096];
        d6_fx_last_json(f, j, sizeof j);
        d6_fx_has(j, on ? "\"damage\":18" : "\"damage\":16");
        fray_fight_free(f);
    }
}

/* core: Stunned is -1D this round and the next, then nothing. */
Test(d6_rules, stunned_two_rounds) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = knight_first(&fs);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int d[] = {4, 4, 4, 4, 4, /* hit */ 2, 2, 2, /* 7 */ 2, 1, 1, 1 /* 5 */};
    d6_fx_ok(f, "knight attack brigand", d, 12);
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(st->c[1].wound, D6_W_STUNNED);
    cr_assert_eq(d6_wound_penalty(&S, st, 1), 1);
    d6_fx_ok(f, "brigand wait", NULL, 0);
    d6_fx_ok(f, "next", NULL, 0);
    cr_assert_eq(d6_wound_penalty(&S, st, 1), 1, "the next round too");
    d6_fx_ok(f, "knight wait", NULL, 0);
    d6_fx_ok(f, "brigand wait", NULL, 0);
    d6_fx_ok(f, "next", NULL, 0);
    cr_assert_eq(d6_wound_penalty(&S, st, 1), 0, "then no more");
    fray_fight_free(f);
}

/* wild-one (D-0 R?, D7.23) in a fight: cancel-highest (default): the
 * Wild Die's 1 and the highest other die count nothing (5D [1,4,4,4,4]:
 * 12); complication: the 1 adds (17) and the narration says a
 * complication follows. */
Test(d6_rules, wild_one_in_a_fight) {
    for (int comp = 0; comp < 2; comp++) {
        d6_fx_duel(&S);
        S.o.wild_one = comp ? D6_WILD_ONE_COMPLICATION : D6_WILD_ONE_CANCEL_HIGHEST;
        S.o.health = D6_HEALTH_BODY_POINTS;
        fray_setup fs = d6_fx_setup(&S);
        fray_fight *f = knight_first(&fs);
        d6_fx_ok(f, "knight move 5,0", NULL, 0);
        const int d[] = {1, 4, 4, 4, 4, /* damage 3D+1 */ 2, 2, 2, /* leather */ 2};
        d6_fx_ok(f, "knight attack brigand", d, 9);
        char j[4096];
        d6_fx_last_json(f, j, sizeof j);
        d6_fx_has(j, comp ? "\"total\":17" : "\"total\":12");
        d6_fx_has(j, comp ? "\"roll\":\"attack\",\"result\":\"complication\""
                    : "\"roll\":\"attack\",\"result\":\"cancel-highest\"");
        char t[2048];
        fray_event_narrate(f, fray_fight_events(f) - 1, t, sizeof t);
        cr_assert(strstr(t, comp ? "a complication (the GM says what)"
                                 : "it and the highest die count nothing"),
                  "%s", t);
        fray_fight_free(f);
    }
}

/* core "Active defense": a parry (melee combat with a melee weapon,
 * fighting without one) replaces 10 against melee attacks; against a
 * shot it counts nothing (passive 10 stands). */
Test(d6_rules, parry_melee_only) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    const int d[] = {4, 3, 2, 5, 5}; /* the brigand first */
    fray_fight *f = d6_fx_start(&fs, d, 5);
    const int parry[] = {3, 1, 1, 1}; /* melee 4D: 6 */
    d6_fx_ok(f, "brigand defend parry", parry, 4);
    cr_assert(d6_fx_st(f)->c[1].def_parry);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int miss[] = {2, 1, 1, 1, 1};
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_neq(d6_fx_cmd(f, "knight attack brigand", miss, 5, &diag), FRAY_OK,
                  "6 meets the parry's 6: a hit, which rolls damage");
    cr_assert(strstr(diag.message, "needs more dice"), "%s", diag.message);
    fray_fight_free(f);

    d6_fx_firefight(&S);
    S.o.initiative = D6_INIT_FIRST_ACTION;
    fs = d6_fx_setup(&S);
    f = d6_fx_start(&fs, NULL, 0);
    const int p3[] = {3, 1, 1}; /* fighting (Agility 3D): 5 */
    d6_fx_ok(f, "archer-1 defend full parry", p3, 3);
    cr_assert_eq(d6_fx_st(f)->c[0].def_total, 15);
    d6_fx_ok(f, "archer-2 wait", NULL, 0);
    const int shot[] = {2, 2, 2, 2};
    d6_fx_ok(f, "xbow-1 attack archer-1", shot, 4);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"difficulty\":24");
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "xbow-2 defend twice", NULL, 0, &diag), FRAY_ERR_PARSE);
    cr_assert(strstr(diag.message, "'twice': expected `full`, `parry` or nothing"), "%s",
              diag.message);
    fray_fight_free(f);
}

/* core "Aiming": +1D a round of aiming to the next attack on the one
 * aimed at, up to +3D; any other action spends it. Four rounds of aiming
 * give the crossbowman 4D + 3D = 7 dice (the dice given must be 7). */
Test(d6_rules, aiming) {
    d6_fx_firefight(&S);
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = crossbow_turn(&fs);
    for (int r = 0; r < 4; r++) {
        d6_fx_ok(f, "xbow-1 aim archer-1", NULL, 0);
        d6_fx_ok(f, "xbow-2 wait", NULL, 0);
        d6_fx_ok(f, "xbow-3 wait", NULL, 0);
        d6_fx_ok(f, "next", NULL, 0);
        d6_fx_ok(f, "archer-1 wait", NULL, 0);
        d6_fx_ok(f, "archer-2 wait", NULL, 0);
    }
    cr_assert_eq(d6_fx_st(f)->c[2].aim_dice, 3, "at most +3D");
    const int seven[] = {2, 2, 2, 2, 2, 2, 2};
    d6_fx_ok(f, "xbow-1 attack archer-1", seven, 7);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":14,\"difficulty\":24");
    cr_assert_eq(d6_fx_st(f)->c[2].aim_dice, 0, "spent");
    fray_fight_free(f);
}

/* core "Waiting": waiting counts as an action; one who waited may
 * interrupt later in the round, its action at -1D (a second action):
 * the knight waits, then dodges as the brigand's turn comes, rolling 4D
 * - 1D = 3D (the dice given must be 3); one who did not wait may not act
 * out of turn; a wait not used is lost at the next round. */
Test(d6_rules, waiting_and_interrupting) {
    d6_fx_duel(&S);
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = knight_first(&fs);
    d6_fx_ok(f, "knight wait", NULL, 0);
    cr_assert_str_eq(fray_fight_turn(f, NULL, 0), "Brigand");
    const int three[] = {4, 4, 4};
    d6_fx_ok(f, "knight defend", three, 3);
    cr_assert_eq(d6_fx_st(f)->c[0].def_total, 12);
    cr_assert_str_eq(fray_fight_turn(f, NULL, 0), "Brigand", "still the brigand's turn");
    char t[1024];
    fray_event_narrate(f, fray_fight_events(f) - 1, t, sizeof t);
    cr_assert(strstr(t, "Sir Aldo interrupts, having waited"), "%s", t);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_fx_cmd(f, "knight defend", NULL, 0, &diag), FRAY_ERR_INVALID,
                 "the wait is used");
    cr_assert(strstr(diag.message, "it is Brigand's turn, not Sir Aldo's"), "%s", diag.message);
    d6_fx_ok(f, "brigand wait", NULL, 0);
    d6_fx_ok(f, "next", NULL, 0);
    cr_assert_eq(d6_fx_st(f)->c[1].flags & D6_F_WAITING, 0, "lost at the next round");
    fray_fight_free(f);
}

/* core: ties past Acumen go to search, then Agility, then dodge: two
 * brigands alike but the second's dodge (4D over 3D+2) roll 8 each. */
Test(d6_rules, initiative_tie_past_acumen) {
    d6_fx_duel(&S);
    S.c[0].b = S.c[1].b;
    S.c[1].b.skill[D6_SK_DODGE] = d6_fx_code("4D");
    fray_setup fs = d6_fx_setup(&S);
    const int d[] = {3, 3, 3, 3}; /* 2D+2 each: 8 */
    fray_fight *f = d6_fx_start(&fs, d, 4);
    cr_assert_eq(d6_fx_st(f)->order[0], 1, "the better dodge first");
    fray_fight_free(f);
}
