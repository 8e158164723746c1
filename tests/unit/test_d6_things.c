/* test_d6_things.c - the rest of D6's rules (src/rules/d6/things.c,
 * docs/rules/d6.md "Things, tricks, running, the dying"), through the
 * fight API with the dice given by hand: breaking things against the
 * object's Toughness (003:51-59, checklist D7.6) and the cover a broken
 * object stops giving, acrobatic tricks (003:5, D7.17), running (core,
 * checklist D-0), the Mortally Wounded's Physique rolls (core, D-0), the
 * long weapon's Short reach (core, D-0), where an uncalled hit lands
 * (D7.10) and a location's threshold (D7.9), and each new command's
 * journal round trip, undo and redo.
 *
 * The duel (d6_fixture.h): the knight (melee 5D, Physique 3D+1 so
 * Strength Damage 2D, the sword STR+1D+1: damage 3D+1; Agility 3D+1 so
 * acrobatics 3D+1; running under Physique: 3D+1) and the brigand
 * (Physique 3D, leather 1D: resistance 4D), 6 m apart; the knight acts
 * first (initiative dice 5 5 5 | 2 2). */
#include <unistd.h>

#include "d6_fixture.h"
#include "fray/chances.h"
#include "fray/view.h"

static d6_setup S;

static const int INIT[] = {5, 5, 5, 2, 2};

static fray_fight *duel(fray_setup *fs) {
    *fs = d6_fx_setup(&S);
    fray_fight *f = d6_fx_start(fs, INIT, 5);
    cr_assert_eq(d6_fx_st(f)->order[0], 0, "the knight acts first");
    return f;
}

/* The journal written, read back into a new fight and replayed: the same
 * fight; then undo and redo of the last event. */
static void round_trip(fray_fight *f, const fray_setup *fs) {
    size_t n;
    char *text = fx_journal(f, 1 << 17, &n);
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *g = NULL;
    cr_assert_eq(fray_fight_new(fs, 99, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_fight_replay_journal(g, text, n, NULL, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_assert(fray_fight_same(f, g), "the journal replays the same fight");
    d6_state before = *d6_fx_st(f);
    cr_assert_eq(fray_fight_undo(f), FRAY_OK);
    cr_assert_eq(fray_fight_redo(f), FRAY_OK);
    cr_assert(memcmp(&before, d6_fx_st(f), sizeof before) == 0, "undo then redo");
    cr_assert(fray_fight_same(f, g));
    free(text);
    fray_fight_free(g);
}

/* ---- Breaking things (003:51-59) ------------------------------------------ */

/* A door (Tough, 2D: 003:57) 1 m from the knight that gives the brigand
 * half cover. */
static void with_door(void) {
    d6_fx_duel(&S);
    S.n_objects = 1;
    snprintf(S.obj[0].id, sizeof S.obj[0].id, "door");
    snprintf(S.obj[0].name, sizeof S.obj[0].name, "oak door");
    S.obj[0].toughness = d6_fx_code("2D");
    S.obj[0].has_at = true;
    S.obj[0].x = 1;
    S.obj[0].y = 0;
    S.c[1].cover = D6_COVER_HALF;
    S.c[1].cover_object = 1;
}

/* 003:55-59: the Object Toughness table's words. */
Test(d6_things, toughness_table_003_55_59) {
    const char *w[] = {"Flimsy", "tough", "sturdy", "very sturdy", "reinforced"};
    const int dice[] = {1, 2, 3, 4, 6};
    for (int k = 0; k < 5; k++) {
        d6_code c = {0, 0};
        cr_assert(d6_toughness_word(w[k], &c), "%s", w[k]);
        cr_assert_eq(c.dice, dice[k], "003:%d: %s is %dD", 55 + k, w[k], dice[k]);
        cr_assert_eq(c.pips, 0);
    }
    d6_code c;
    cr_assert(!d6_toughness_word("sturdyish", &c));
}

/* 003:51, D7.6: the damage total (3D+1 [5,5,5]+1 = 16) against the
 * Toughness roll (2D [2,2] = 4): 12, at least 10 over: destroyed; the
 * brigand's half cover (+2D, +6) goes with it: 16 to hit, then 10. */
Test(d6_things, ten_over_destroys_and_ends_the_cover_003_51) {
    with_door();
    fray_setup fs;
    fray_fight *f = duel(&fs);
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(d6_difficulty_standard(&S, st, 1, D6_BAND_POINT_BLANK, false), 16);
    d6_fx_ok(f, "knight break door", (const int[]){5, 5, 5, 2, 2}, 5);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"command\":{\"action\":\"break\",\"actor\":\"knight\",\"object\":\"door\"}");
    d6_fx_has(j, "\"object\":\"door\",\"damage\":16,\"toughness\":4,\"result\":\"destroyed\"");
    cr_assert_eq(st->obj_broken, 1u);
    cr_assert_eq(d6_cover_of(&S, st, 1), D6_COVER_NONE);
    cr_assert_eq(d6_difficulty_standard(&S, st, 1, D6_BAND_POINT_BLANK, false), 10,
                 "no cover once the door is destroyed");
    char words[1024];
    fray_event_narrate(f, fray_fight_events(f) - 1, words, sizeof words);
    d6_fx_has(words, "Sir Aldo tries to break the oak door: 16 damage against a Toughness of 4: "
               "destroyed.");
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    for (int k = 0; k < v->combatants[1].n_conditions; k++)
        cr_assert(!strstr(v->combatants[1].conditions[k].name, "cover"),
                  "the view shows no cover");
    fray_fight_view_free(v);
    d6_fx_ok(f, "brigand wait", NULL, 0);
    d6_fx_ok(f, "next", INIT, 5);
    d6_fx_refused(f, "knight break door", FRAY_ERR_INVALID, "destroyed already");
    round_trip(f, &fs);
    fray_fight_free(f);
}

/* 003:51 and ruling 52: less than 10 over weakens (-1D Toughness each
 * time) and another try may follow; not over at all does nothing.
 * [2,2,2]+1 = 7 against [4,4] = 8: holds; [3,3,3]+1 = 10 against [2,2]
 * = 4: weakened to 1D; 10 against [2]: weakened to 0D; 10 against
 * nothing: 10 over, destroyed. */
Test(d6_things, weakened_then_destroyed_003_51) {
    with_door();
    fray_setup fs;
    fray_fight *f = duel(&fs);
    d6_state *st = d6_fx_st(f);
    char j[4096];
    d6_fx_ok(f, "knight break door with sword", (const int[]){2, 2, 2, 4, 4}, 5);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"weapon\":\"sword\"");
    d6_fx_has(j, "\"damage\":7,\"toughness\":8,\"result\":\"holds\"");
    cr_assert_eq(st->obj_weak[0], 0);
    d6_fx_ok(f, "brigand wait", NULL, 0);
    d6_fx_ok(f, "next", INIT, 5);
    d6_fx_ok(f, "knight break door", (const int[]){3, 3, 3, 2, 2}, 5);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"damage\":10,\"toughness\":4,\"result\":\"weakened\"");
    cr_assert_eq(st->obj_weak[0], 1, "-1D");
    d6_fx_ok(f, "brigand wait", NULL, 0);
    d6_fx_ok(f, "next", INIT, 5);
    fray_diag diag;
    cr_assert_neq(d6_fx_try(f, "knight break door", (const int[]){3, 3, 3, 2, 2}, 5, &diag),
                  FRAY_OK, "a 1D Toughness rolls one die, not two");
    d6_fx_ok(f, "knight break door", (const int[]){3, 3, 3, 2}, 4);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"damage\":10,\"toughness\":2,\"result\":\"weakened\"");
    cr_assert_eq(d6_cover_of(&S, st, 1), D6_COVER_HALF, "weakened still covers");
    d6_fx_ok(f, "brigand wait", NULL, 0);
    d6_fx_ok(f, "next", INIT, 5);
    d6_fx_ok(f, "knight break door", (const int[]){3, 3, 3}, 3);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"damage\":10,\"toughness\":0,\"result\":\"destroyed\"");
    cr_assert_eq(st->obj_broken, 1u);
    char sum[2048];
    d6_summary(&S, st, sum, sizeof sum);
    d6_fx_has(sum, "oak door");
    d6_fx_has(sum, "destroyed");
    round_trip(f, &fs);
    fray_fight_free(f);
}

/* The reach: an object with a position must be in the weapon's reach
 * (melee: Point Blank, 3 m); a weapon carried is readied first; an
 * object without a position is the GM's to place (in reach). */
Test(d6_things, break_reach_and_weapon) {
    with_door();
    S.obj[0].x = 5;
    S.n_objects = 2;
    snprintf(S.obj[1].id, sizeof S.obj[1].id, "rope");
    snprintf(S.obj[1].name, sizeof S.obj[1].name, "rope");
    S.obj[1].toughness = d6_fx_code("1D");
    fray_setup fs;
    fray_fight *f = duel(&fs);
    d6_fx_refused(f, "knight break door", FRAY_ERR_INVALID,
                  "the oak door is out of Sir Aldo's reach");
    d6_fx_refused(f, "knight break door with club", FRAY_ERR_INVALID, "does not hold the club");
    fray_diag diag;
    cr_assert_eq(d6_fx_try(f, "knight break gate", NULL, 0, &diag), FRAY_ERR_PARSE);
    cr_assert(strstr(diag.message, "no object of that id"), "%s", diag.message);
    d6_fx_ok(f, "knight break rope", (const int[]){3, 3, 3, 3}, 4);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"damage\":10,\"toughness\":3,\"result\":\"weakened\"");
    fray_fight_free(f);
}

/* The odds at the table count attacks on foes: a break is refused in
 * words, never counted. */
Test(d6_things, chances_refuse_a_break_and_a_trick) {
    with_door();
    fray_setup fs;
    fray_fight *f = duel(&fs);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    fray_chances c;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_action_chances(f, 0, "break door", &c, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "no chances to count"), "%s", diag.message);
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_action_chances(f, 0, "attack brigand trick", &c, &diag),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "acrobatic trick are not counted"), "%s", diag.message);
    fray_fight_free(f);
}

/* ---- Acrobatic tricks (003:5) ---------------------------------------------- */

/* 003:5: the trick and the attack in the same turn: two actions, each
 * roll at -1D (core). Acrobatics 3D+1 - 1D = 2D+1 [4,4]+1 = 9 against 6:
 * half of 3, rounded up: +2 to the damage (not to the attack). Melee 5D
 * - 1D = 4D [5,5,5,5] = 20 against 10; damage 3D+1 [3,3,3]+1 = 10 + 2 =
 * 12 against [2,2,2,2] = 8. */
Test(d6_things, trick_adds_half_the_margin_rounded_up_003_5) {
    d6_fx_duel(&S);
    fray_setup fs;
    fray_fight *f = duel(&fs);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    d6_fx_ok(f, "knight attack brigand trick 6",
             (const int[]){4, 4, 5, 5, 5, 5, 3, 3, 3, 2, 2, 2, 2}, 13);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"actions\":2");
    d6_fx_has(j, "\"trick\":6");
    d6_fx_has(j, "\"fact\":\"trick\",\"who\":\"knight\",\"total\":9,\"difficulty\":6,\"damage\":2,"
           "\"result\":\"success\"");
    d6_fx_has(j, "\"total\":20,\"difficulty\":10,\"result\":\"hit\"");
    d6_fx_has(j, "\"damage\":12,\"resistance\":8");
    char words[2048];
    fray_event_narrate(f, fray_fight_events(f) - 1, words, sizeof words);
    d6_fx_has(words, "Sir Aldo's acrobatic trick: 9 against 6, +2 to the damage of the attack.");
    round_trip(f, &fs);
    fray_fight_free(f);
}

/* A failed trick adds nothing ([2,2]+1 = 5 against the default 10:
 * D7.17); the attack still comes ([5,5,5,5] = 20; damage [3,3,3]+1 = 10
 * against 8). One trick affects one attack only (003:5): with three
 * actions (the trick and two attacks, each roll at -2D) acrobatics 1D+1
 * [5]+1 = 6 against 5 adds 1 (half of 1, rounded up) to the first
 * attack's damage (10 + 1 = 11 against [2,1,1,1] = 5) and nothing to the
 * second's (10). */
Test(d6_things, failed_trick_and_one_attack_only_003_5) {
    d6_fx_duel(&S);
    fray_setup fs;
    fray_fight *f = duel(&fs);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    d6_fx_ok(f, "knight attack brigand trick",
             (const int[]){2, 2, 5, 5, 5, 5, 3, 3, 3, 2, 2, 2, 2}, 13);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"trick\":10");
    d6_fx_has(j, "\"total\":5,\"difficulty\":10,\"damage\":0,\"result\":\"failure\"");
    d6_fx_has(j, "\"damage\":10,\"resistance\":8");
    fray_fight_free(f);

    d6_fx_duel(&S);
    S.c[1].b.body_points = 60;
    f = duel(&fs);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    d6_fx_ok(f, "knight attack brigand trick 5 actions 3",
             (const int[]){5, 5, 5, 5, 3, 3, 3, 2, 1, 1, 1, 5, 5, 5, 3, 3, 3, 2, 1, 1, 1},
             21);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":6,\"difficulty\":5,\"damage\":1,\"result\":\"success\"");
    d6_fx_has(j, "\"damage\":11,\"resistance\":5");
    cr_assert(strstr(strstr(j, "\"damage\":11,\"resistance\":5") + 1,
                     "\"damage\":10,\"resistance\":5"),
              "the second attack has no trick: %s", j);
    fray_fight_free(f);
}

/* D7.17: the default difficulty is 10, the encounter's trick-difficulty
 * changes it, and N overrides both; the trick is refused for a ranged
 * attack, a grab, an all-out attack and with too few actions. */
Test(d6_things, trick_difficulty_and_refusals_D7_17) {
    d6_fx_duel(&S);
    d6_state st;
    d6_state_init(&S, &st, 1, 0);
    d6_event cmd;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_parse(&S, &st, "knight attack brigand trick", &cmd, &diag), FRAY_OK);
    cr_assert_eq(cmd.trick, 10, "D7.17: 10 by default");
    cr_assert_eq(cmd.actions, 2, "the trick is an action");
    S.o.trick_difficulty = 14;
    cr_assert_eq(d6_parse(&S, &st, "knight attack brigand trick", &cmd, &diag), FRAY_OK);
    cr_assert_eq(cmd.trick, 14, "the encounter's trick-difficulty");
    cr_assert_eq(d6_parse(&S, &st, "knight attack brigand trick 7 defend", &cmd, &diag),
                 FRAY_OK);
    cr_assert_eq(cmd.trick, 7);
    cr_assert_eq(cmd.actions, 3, "trick, attack and dodge");
    fray_setup fs;
    fray_fight *f = duel(&fs);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    d6_fx_refused(f, "knight attack brigand trick grab", FRAY_ERR_INVALID, "not a grab's");
    d6_fx_refused(f, "knight attack brigand trick all-out", FRAY_ERR_INVALID, "no other action");
    d6_fx_refused(f, "knight attack brigand trick with crossbow", FRAY_ERR_INVALID,
                  "not a ranged one");
    d6_event c;
    memset(&c, 0, sizeof c);
    c.kind = D6_EV_ATTACK;
    c.actor = 0;
    c.target = 1;
    c.weapon = -1;
    c.actions = 1;
    c.trick = 10;
    char why[256];
    cr_assert_eq(d6_check_cmd(&S, d6_fx_st(f), &c, why, sizeof why), FRAY_ERR_INVALID);
    cr_assert(strstr(why, "declare `actions 2`"), "%s", why);
    fray_fight_free(f);
}

/* ---- Running (core) ---------------------------------------------------------- */

/* Core: beyond the Move (10 m) a combatant runs: a running roll (Physique
 * 3D+1 here) against 10 for up to twice the Move (ruling 53); 13 makes 15
 * m; failing ([2,2,2]+1 = 7) covers the Move only, on the line (ruling
 * 54). A walk is `move`; more than four times the Move is refused. */
Test(d6_things, running_core) {
    d6_fx_duel(&S);
    S.c[1].x = 40;
    fray_setup fs;
    fray_fight *f = duel(&fs);
    d6_fx_refused(f, "knight run 5,0", FRAY_ERR_INVALID, "walks that far");
    d6_fx_refused(f, "knight run 41,0", FRAY_ERR_INVALID, "at most 40 m");
    d6_fx_ok(f, "knight run 15,0", (const int[]){4, 4, 4}, 3);
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(st->c[0].x, 15);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"command\":{\"action\":\"run\",\"actor\":\"knight\",\"x\":15,\"y\":0}");
    d6_fx_has(j, "\"fact\":\"run\",\"who\":\"knight\",\"total\":13,\"difficulty\":10,\"meters\":15,"
           "\"result\":\"success\"");
    d6_fx_ok(f, "brigand run 20,0", (const int[]){2, 2, 2}, 3); /* 3D: 6 against 10 */
    cr_assert_eq(st->c[1].x, 30, "a failed run covers its Move");
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"meters\":10,\"result\":\"failure\"");
    d6_fx_ok(f, "next", INIT, 5);
    /* 25 m: three Moves: 10 + 5 (ruling 53) */
    d6_fx_ok(f, "knight run 40,0", (const int[]){5, 5, 5}, 3);
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":16,\"difficulty\":15");
    round_trip(f, &fs);
    fray_fight_free(f);
}

/* tactics-run (ruling 56): with `yes` a melee fighter whose walk would not
 * reach runs (twice its Move); with `no` (the default) it walks its Move,
 * as before. */
Test(d6_things, tactics_run_option_both_settings) {
    for (int k = 0; k < 2; k++) {
        d6_fx_duel(&S);
        S.c[1].x = 40;
        S.o.tactics_run = k == 1;
        d6_state st;
        d6_state_init(&S, &st, 1, 0);
        st.started = true;
        st.round = 1;
        st.n_order = 2;
        st.order[0] = 0;
        st.order[1] = 1;
        d6_event cmd;
        d6_choose(&S, &st, &cmd);
        cr_assert_eq(cmd.kind, k ? D6_EV_RUN : D6_EV_MOVE, "tactics-run %s", k ? "yes" : "no");
        cr_assert_eq(cmd.x, k ? 20 : 10);
        cr_assert_eq(d6_check_cmd(&S, &st, &cmd, NULL, 0), FRAY_OK);
    }
}

/* ---- The Mortally Wounded (core) ---------------------------------------------- */

/* A run over st with the dice given, for d6_mortal_rolls. */
static bool mortal_with(d6_state *st, d6_event *ev, const int *d, size_t n) {
    d6_run r;
    memset(&r, 0, sizeof r);
    memset(ev, 0, offsetof(d6_event, dice));
    r.s = &S;
    r.st = st;
    r.ev = ev;
    r.facts = true;
    r.given = d;
    r.n_given = n;
    return d6_mortal_rolls(&r);
}

/* Core: a Mortally Wounded character rolls Physique each round and dies
 * if the total is below the time spent at that level. It fell in round
 * 1; in round 20 that is 19 rounds, 1 whole minute (ruling 55: 12 rounds
 * a minute). Physique 3D [2,2,2] = 6: `rounds` it dies (6 < 19);
 * `minutes` it lives (6 >= 1); `no` (the default) rolls nothing. */
Test(d6_things, mortal_rolls_option_core) {
    const int d[] = {2, 2, 2};
    for (int k = 0; k < 3; k++) {
        d6_fx_duel(&S);
        S.o.mortal_rolls = (uint8_t)k;
        d6_state st;
        d6_state_init(&S, &st, 1, 0);
        st.round = 20;
        st.c[1].wound = D6_W_MORTAL;
        st.c[1].flags = D6_F_OUT;
        st.c[1].mortal_round = 1;
        d6_event *ev = malloc(sizeof *ev);
        cr_assert_not_null(ev);
        cr_assert(mortal_with(&st, ev, d, 3));
        if (k == D6_MORTAL_NO) {
            cr_assert_eq(ev->n_dice, 0, "no: no roll");
            cr_assert_eq(st.c[1].wound, D6_W_MORTAL);
        } else {
            cr_assert_eq(ev->n_dice, 3);
            cr_assert_eq(ev->n_facts, 1);
            cr_assert_eq(ev->facts[0].kind, D6_FACT_MORTAL);
            cr_assert_eq(ev->facts[0].a, 6);
            cr_assert_eq(ev->facts[0].b, k == D6_MORTAL_ROUNDS ? 19 : 1);
            cr_assert_eq(st.c[1].wound, k == D6_MORTAL_ROUNDS ? D6_W_DEAD : D6_W_MORTAL,
                         "core: dies if the roll is below the count");
        }
        free(ev);
    }
}

/* Through a fight: the brawl's thug 1 Mortally Wounded in round 1 rolls
 * at the start of round 2 (1 round at that level); the summary says who
 * lived. */
Test(d6_things, mortal_rolls_in_a_fight_and_the_end_says_who_lived) {
    d6_fx_brawl(&S);
    S.o.mortal_rolls = D6_MORTAL_ROUNDS;
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = d6_fx_start(&fs, NULL, 0);
    d6_state *st = d6_fx_st(f);
    st->c[2].wound = D6_W_MORTAL;
    st->c[2].flags |= D6_F_OUT;
    while (st->round < 2) {
        fray_status rc = fray_fight_step(f);
        cr_assert_eq(rc, FRAY_OK);
    }
    bool seen = false;
    for (int i = 0; i < fray_fight_events(f); i++) {
        char j[8192];
        fray_event_json(f, i, j, sizeof j);
        if (strstr(j, "\"fact\":\"mortal\",\"who\":\"thug-1\"")) {
            seen = true;
            d6_fx_has(j, "\"count\":1");
        }
    }
    cr_assert(seen, "the Mortally Wounded rolled at the round's start");
    char sum[2048];
    d6_summary(&S, st, sum, sizeof sum);
    d6_fx_has(sum, "Alive: ");
    fray_fight_free(f);
}

/* ---- The long weapon (core) ---------------------------------------------------- */

/* Core: unarmed and most melee attacks reach Point Blank only; weapons over
 * 2 m reach Short (ruling 50: to 3 m plus the length). A pike of 500 cm
 * strikes at 8 m, not 9; the sword (no length) at 3 m, not 4. */
Test(d6_things, long_weapon_reaches_short_core) {
    d6_fx_duel(&S);
    d6_weapon *p = &S.w[S.n_weapons];
    snprintf(p->name, sizeof p->name, "pike");
    p->skill = D6_SK_MELEE;
    p->damage = d6_fx_code("1D+2");
    p->strength = true;
    p->length_cm = 500;
    p->hands = 2;
    int pike = S.n_weapons++;
    cr_assert_eq(d6_band(&S, pike, 3), D6_BAND_POINT_BLANK);
    cr_assert_eq(d6_band(&S, pike, 8), D6_BAND_SHORT);
    cr_assert_eq(d6_band(&S, pike, 9), D6_BAND_BEYOND);
    cr_assert_eq(d6_band(&S, D6_FX_SWORD, 4), D6_BAND_BEYOND);
    cr_assert_eq(d6_band(&S, -1, 4), D6_BAND_BEYOND, "unarmed: Point Blank only");
    S.c[0].b.weapon = (int8_t)pike;
    fray_setup fs;
    fray_fight *f = duel(&fs);
    /* 6 m: Short; melee 5D [4,4,4,4,4] = 20 against passive 10, no range
     * modifier */
    d6_fx_ok(f, "knight attack brigand", (const int[]){4, 4, 4, 4, 4, 1, 1, 1, 1, 1, 1, 1}, 12);
    char j[4096];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"total\":20,\"difficulty\":10,\"result\":\"hit\"");
    fray_fight_free(f);
    d6_fx_duel(&S);
    f = duel(&fs);
    d6_fx_refused(f, "knight attack brigand", FRAY_ERR_INVALID, "out of reach");
    fray_fight_free(f);
    /* data/d6 has one: the pike */
    d6_setup *s = NULL;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_load(FRAY_SOURCE_DIR "/examples/d6/tavern.yaml", NULL, &s, &diag), FRAY_OK,
                 "%s", diag.message);
    int w = s->c[0].b.weapon;
    cr_assert_str_eq(s->w[w].name, "pike");
    cr_assert_eq(d6_melee_reach(s, w), 8);
    cr_assert_eq(s->n_objects, 4);
    cr_assert_eq(s->c[0].cover, D6_COVER_HALF, "the table covers the pikeman");
    cr_assert_eq(s->c[0].cover_object, 1);
    cr_assert(s->o.tactics_run);
    cr_assert_eq(s->o.mortal_rolls, D6_MORTAL_ROUNDS);
    d6_setup_free(s);
}

/* ---- Rulings 33 and 34 (D7.10, D7.9) -------------------------------------------- */

/* Ruling 33, uncalled-location: an uncalled hit that injures (melee 5D
 * [5,5,5,5,5] = 25; damage [4,4,4]+1 = 13 against [2,2,2,2] = 8:
 * Wounded) lands nowhere with `none` (the default) and on the chest with
 * `chest`: passive defense only next round (003:82). */
Test(d6_things, uncalled_location_both_settings_D7_10) {
    for (int k = 0; k < 2; k++) {
        d6_fx_duel(&S);
        S.o.uncalled_chest = k == 1;
        fray_setup fs;
        fray_fight *f = duel(&fs);
        d6_fx_ok(f, "knight move 5,0", NULL, 0);
        d6_fx_ok(f, "knight attack brigand",
                 (const int[]){5, 5, 5, 5, 5, 4, 4, 4, 2, 2, 2, 2}, 12);
        d6_state *st = d6_fx_st(f);
        cr_assert_eq(st->c[1].wound, D6_W_WOUNDED);
        char j[4096];
        d6_fx_last_json(f, j, sizeof j);
        if (k) {
            d6_fx_has(j, "\"fact\":\"location\",\"who\":\"brigand\",\"other\":\"knight\","
                   "\"location\":\"chest\"");
            cr_assert_eq(st->c[1].passive_round, 2, "passive defense only in round 2");
        } else {
            cr_assert(!strstr(j, "\"location\""), "%s", j);
            cr_assert_eq(st->c[1].passive_round, 0);
        }
        fray_fight_free(f);
    }
}

/* Ruling 34, location-threshold: a called arm (+1D, +5: 15 to hit; -2 to
 * the damage) that Stuns (damage [4,4,4]+1-2 = 11 against 8: 3) hurts the
 * arm with `any` (the default) and not with `wounded`; a Wounded result
 * ([5,5,5]+1-2 = 14 against [2,2,2,1] = 7) hurts it under both. */
Test(d6_things, location_threshold_both_settings_D7_9) {
    for (int k = 0; k < 2; k++) {
        for (int hard = 0; hard < 2; hard++) {
            d6_fx_duel(&S);
            S.o.location_wounded = k == 1;
            fray_setup fs;
            fray_fight *f = duel(&fs);
            d6_fx_ok(f, "knight move 5,0", NULL, 0);
            const int stun[] = {5, 5, 5, 5, 5, 4, 4, 4, 2, 2, 2, 2};
            const int wound[] = {5, 5, 5, 5, 5, 5, 5, 5, 2, 2, 2, 1};
            d6_fx_ok(f, "knight attack brigand at arm", hard ? wound : stun, 12);
            d6_state *st = d6_fx_st(f);
            cr_assert_eq(st->c[1].wound, hard ? D6_W_WOUNDED : D6_W_STUNNED);
            bool arm = (st->c[1].parts & D6_PART_HAND) != 0;
            cr_assert_eq(arm, hard || !k, "threshold %s, %s", k ? "wounded" : "any",
                         hard ? "Wounded" : "Stunned");
            fray_fight_free(f);
        }
    }
}

/* Ruling 34 with Body Points: 20% of the maximum (29: 6 is enough, 5 is
 * not). */
Test(d6_things, location_threshold_body_points_D7_9) {
    d6_fx_duel(&S);
    S.o.health = D6_HEALTH_BODY_POINTS;
    S.o.location_wounded = true;
    cr_assert_eq(S.c[1].b.body_points, 29);
    d6_state st;
    d6_state_init(&S, &st, 1, 0);
    d6_event ev;
    memset(&ev, 0, offsetof(d6_event, dice));
    ev.kind = D6_EV_ATTACK;
    ev.location = D6_LOC_LEG;
    cr_assert_eq(d6_lasting_location(&S, &st, 1, &ev, 5, 0, 5), 0);
    cr_assert_eq(d6_lasting_location(&S, &st, 1, &ev, 6, 0, 6), D6_LOC_LEG);
    S.o.location_wounded = false;
    cr_assert_eq(d6_lasting_location(&S, &st, 1, &ev, 1, 0, 1), D6_LOC_LEG, "any injury");
}

/* The options load by their words (load.c), and their bad values are
 * refused at their line:column (test_d6_load_bad.c has the table). */
Test(d6_things, options_load) {
    const char *path = "/tmp/fray_d6_things_opts.yaml";
    FILE *fp = fopen(path, "w");
    cr_assert_not_null(fp);
    fprintf(fp, "fray: encounter\nrules: d6\nname: t\nstatblocks: [%s/data/d6/statblocks.yaml]\n"
                "options: {mortal-rolls: minutes, tactics-run: yes, uncalled-location: chest,\n"
                "          location-threshold: wounded, trick-difficulty: 15}\n"
                "combatants:\n  - {id: a, statblock: Fighter, at: [0, 0], side: A}\n"
                "  - {id: b, statblock: Fighter, at: [2, 0], side: B}\n"
                "objects:\n  - {id: gate, toughness: very sturdy, covers: [b], cover: "
                "three-quarters}\n  - {id: wall, toughness: 6D+2}\n",
            FRAY_SOURCE_DIR);
    cr_assert_eq(fclose(fp), 0);
    d6_setup *s = NULL;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(d6_load(path, NULL, &s, &diag), FRAY_OK, "%s", diag.message);
    cr_assert_eq(s->o.mortal_rolls, D6_MORTAL_MINUTES);
    cr_assert(s->o.tactics_run && s->o.uncalled_chest && s->o.location_wounded);
    cr_assert_eq(s->o.trick_difficulty, 15);
    cr_assert_eq(s->n_objects, 2);
    cr_assert_eq(s->obj[0].toughness.dice, 4, "very sturdy: 4D (003:58)");
    cr_assert_eq(s->obj[1].toughness.dice, 6);
    cr_assert_eq(s->obj[1].toughness.pips, 2);
    cr_assert_eq(s->c[1].cover, D6_COVER_THREE_QUARTERS);
    cr_assert_eq(s->c[1].cover_object, 1);
    d6_setup_free(s);
    unlink(path);
}

/* The Mortally Wounded's roll in the journal: guard 1 (club 4D+1, damage
 * 1D + Strength Damage 2D = 3D) hits thug 1 (Physique 3D) 1 m away:
 * [5,5,5,5]+1 = 21 against 10; damage [6,6,4 | 6,6] = 28 against
 * [5,5,5] = 15: 13 over, Mortally Wounded (core). At the next round
 * (`mortal-rolls: rounds`) it rolls Physique first, [2,2,2] = 6 against 1
 * round: it lives; then the initiative of the four still in the fight.
 * The journal replays it; undo and redo. */
Test(d6_things, mortal_roll_journal_round_trip) {
    d6_fx_brawl(&S);
    S.o.mortal_rolls = D6_MORTAL_ROUNDS;
    S.c[2].x = 1;
    S.c[2].y = 0;
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 4, 4, 4, 2, 2, 2, 2, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 12);
    d6_state *st = d6_fx_st(f);
    cr_assert_eq(st->order[0], 0);
    d6_fx_ok(f, "guard-1 attack thug-1",
             (const int[]){5, 5, 5, 5, 6, 6, 4, 6, 6, 5, 5, 5}, 12);
    cr_assert_eq(st->c[2].wound, D6_W_MORTAL);
    d6_fx_ok(f, "guard-2 wait", NULL, 0);
    d6_fx_ok(f, "thug-2 wait", NULL, 0);
    d6_fx_ok(f, "thug-3 wait", NULL, 0);
    d6_fx_ok(f, "next", (const int[]){2, 2, 2, 5, 5, 5, 4, 4, 4, 2, 2, 2, 2}, 13);
    char j[8192];
    d6_fx_last_json(f, j, sizeof j);
    d6_fx_has(j, "\"fact\":\"mortal\",\"who\":\"thug-1\",\"total\":6,\"count\":1,\"result\":\"lives\"");
    cr_assert_eq(st->c[2].mortal_round, 1);
    cr_assert_eq(st->c[2].wound, D6_W_MORTAL);
    char words[2048];
    fray_event_narrate(f, fray_fight_events(f) - 1, words, sizeof words);
    d6_fx_has(words, "thug 1, Mortally Wounded, rolls Physique: 6 against 1 round: lives on.");
    round_trip(f, &fs);
    fray_fight_free(f);
}
