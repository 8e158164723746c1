/*
 * test_alloy_gm.c - gm.c: the GM's overrides in an Alloy fight (issue 14
 * "the GM's overrides": adjust damage, add or remove a condition, add or
 * remove a combatant, move a token). Each test names the issue item and
 * the seed 004 line of the rule it leans on: dying at 0 hit points or
 * fewer and death at -(max / 2) (004:211), joining a battle under way
 * (004:241), opportunity attacks on leaving a threatened square (004:609),
 * "save ends" (004:277 ongoing effects' saves).
 *
 * The engine is the real one (damage.c, turn.c, skills.c): no stand-ins.
 */
#include "alloy_fixture.h"

#include "fray/fight.h"

#ifndef FRAY_SOURCE_DIR
#define FRAY_SOURCE_DIR "."
#endif

enum { TONY, ORC, ORC2 };

/* Tony (side 0, 20 hp) at (2,2), an orc (side 1, 20 hp) adjacent at (3,2),
 * on a 12x12 map with a wall at (6,6); swords in hand; Tony's turn. With
 * `late`, orc2 joins at the start of round 3 at (8,8) (listed last). */
static fixture *arena(bool late) {
    fixture *f = af_new(12, 12);
    f->s.map.terrain[6][6] = FRAY_TERRAIN_WALL;
    int sword = af_weapon(f, "sword", FA_WK_MELEE, 8, 1, 0);
    int hero = af_block(f, "hero", 6, 0, 20);
    int orc = af_block(f, "orc", 6, 0, 20);
    af_give(f, hero, sword, -1);
    af_give(f, orc, sword, -1);
    af_add(f, "Tony", hero, 0, 2, 2);
    af_add(f, "orc", orc, 1, 3, 2);
    if (late) {
        int o2 = af_add(f, "orc2", orc, 1, 8, 8);
        f->s.c[o2].joins = 3;
    }
    for (int i = 0; i < f->s.n; i++)
        f->s.c[i].wield = 0;
    af_start(f);
    cr_assert_eq(af_begin(f, (int[]){20, 10}, 2), FRAY_OK);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_eq(f->st.cur, TONY);
    return f;
}

/* The table's words -> a command (parse.c hands "gm ..." to gm.c). */
static fa_command words(fixture *f, const char *text) {
    fa_command c;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fa_parse(&f->s, &f->st, text, &c, &d), FRAY_OK, "%s: %s", text,
                 d.message);
    cr_assert_eq(c.kind, FA_CMD_GM);
    return c;
}

static fray_status say(fixture *f, const char *text) {
    fa_command c = words(f, text);
    return af_do(f, &c);
}

static fray_status say_dice(fixture *f, const char *text, const int *dice, int n) {
    fa_command c = words(f, text);
    return af_do_dice(f, &c, dice, n);
}

static fray_diag parse_fails(fixture *f, const char *text) {
    fa_command c;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fa_parse(&f->s, &f->st, text, &c, &d), FRAY_ERR_PARSE, "%s", text);
    return d;
}

/* ---- Hit points: the thresholds of 004:211 by damage.c's own code ------------- */

/* Issue 14 "adjust damage"; 004:211 "When a character's hit point total
 * drops to 0 or fewer, he or she is dying": gm set to 0 makes the orc
 * Dying, Unconscious, Helpless and prone, out of the fight, as a blow would. */
Test(alloy_gm, set_hp_to_zero_falls_dying_004_211) {
    fixture *f = arena(false);
    cr_assert_eq(say(f, "gm set orc hp 7"), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[ORC].hp, 7);
    cr_assert_not(f->st.c[ORC].flags & FA_F_OUT);
    const fa_fact *g = af_fact(f, FA_FACT_GM, ORC);
    cr_assert_not_null(g);
    cr_assert_eq(g->v[0], FA_GM_SET_HP);
    cr_assert_eq(g->v[1], 20);
    cr_assert_eq(g->v[2], 7);
    cr_assert_eq(say(f, "gm set orc hp 0"), FRAY_OK, "%s", f->why);
    const fa_cstate *c = &f->st.c[ORC];
    cr_assert(fa_has(c, FA_C_DYING));
    cr_assert(fa_has(c, FA_C_UNCONSCIOUS));
    cr_assert(fa_has(c, FA_C_HELPLESS));
    cr_assert(fa_has(c, FA_C_PRONE));
    cr_assert(c->flags & FA_F_OUT);
    cr_assert_not_null(af_fact(f, FA_FACT_DYING, -1));
    /* the last of its side down: the fight is over, Tony's side wins */
    cr_assert(f->st.over);
    cr_assert_eq(f->st.winner, 0);
    free(f);
}

/* 004:211 "A character dies if his or her hit point total drops to a
 * negative number equal to half their maximum": 20 hp, adjusted by -30
 * to -10 = -(20 / 2): dead. At -9 it is only dying. */
Test(alloy_gm, adjust_hp_to_minus_half_dies_004_211) {
    fixture *f = arena(false);
    cr_assert_eq(say(f, "gm adjust orc hp -29"), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[ORC].hp, -9);
    cr_assert(fa_has(&f->st.c[ORC], FA_C_DYING));
    cr_assert_not(fa_has(&f->st.c[ORC], FA_C_DEAD));
    fixture *g = arena(false);
    cr_assert_eq(say(g, "gm adjust orc hp -30"), FRAY_OK, "%s", g->why);
    cr_assert_eq(g->st.c[ORC].hp, -10);
    cr_assert(fa_has(&g->st.c[ORC], FA_C_DEAD));
    cr_assert_not_null(af_fact(g, FA_FACT_DEAD, -1));
    free(f);
    free(g);
}

/* 004:211 read the other way: above 0 hit points nobody is dying. A gm
 * set above 0 wakes the dying orc (no longer Dying, Unconscious or
 * Helpless; prone it stays, as after a death save's 20) and brings the
 * dead back; a set between 0 and -half leaves the dead one dying. */
Test(alloy_gm, set_hp_above_zero_wakes_the_dying_004_211) {
    fixture *f = arena(true);   /* orc2 to come: the fight goes on */
    cr_assert_eq(say(f, "gm set orc hp -3"), FRAY_OK, "%s", f->why);
    cr_assert(fa_has(&f->st.c[ORC], FA_C_DYING));
    cr_assert_eq(say(f, "gm adjust orc hp +8"), FRAY_OK, "%s", f->why);
    const fa_cstate *c = &f->st.c[ORC];
    cr_assert_eq(c->hp, 5);
    cr_assert_not(fa_has(c, FA_C_DYING));
    cr_assert_not(fa_has(c, FA_C_UNCONSCIOUS));
    cr_assert_not(fa_has(c, FA_C_HELPLESS));
    cr_assert(fa_has(c, FA_C_PRONE));
    cr_assert_not(c->flags & FA_F_OUT);
    cr_assert_eq(say(f, "gm set orc hp -15"), FRAY_OK, "%s", f->why);
    cr_assert(fa_has(c, FA_C_DEAD));
    cr_assert_eq(say(f, "gm set orc hp -2"), FRAY_OK, "%s", f->why);
    cr_assert_not(fa_has(c, FA_C_DEAD));
    cr_assert(fa_has(c, FA_C_DYING));
    cr_assert(c->flags & FA_F_OUT);
    cr_assert_eq(say(f, "gm set orc hp 20"), FRAY_OK, "%s", f->why);
    cr_assert_not(fa_has(c, FA_C_DYING));
    cr_assert_not(c->flags & FA_F_OUT);
    free(f);
}

/* Issue 14: refusals in rules words, the state unchanged: more than the
 * stat block's maximum; a change without its sign; no such combatant. */
Test(alloy_gm, hp_refusals_in_rules_words_issue_14) {
    fixture *f = arena(false);
    fa_state before = f->st;
    cr_assert_eq(say(f, "gm set orc hp 21"), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "orc has at most 20 hit points (21 asked)"), "%s", f->why);
    cr_assert_eq(say(f, "gm adjust tony hp +1"), FRAY_ERR_INVALID);
    cr_assert(memcmp(&before, &f->st, sizeof before) == 0);
    fray_diag d = parse_fails(f, "gm adjust orc hp 3");
    cr_assert(strstr(d.message, "+N or -N"), "%s", d.message);
    cr_assert_eq(d.column, 18);
    d = parse_fails(f, "gm set ogre hp 3");
    cr_assert(strstr(d.message, "combatant"), "%s", d.message);
    cr_assert_eq(d.column, 8);
    d = parse_fails(f, "gm set orc stun 3");
    cr_assert(strstr(d.message, "hit points"), "%s", d.message);
    d = parse_fails(f, "gm heal orc");
    cr_assert(strstr(d.message, "set, adjust, condition, join, flee, place"), "%s",
              d.message);
    free(f);
}

/* ---- Conditions -------------------------------------------------------------- */

/* Issue 14 "add or remove a condition": on with its ending (save ends:
 * the bearer's save at the end of its turn, 004:277), off again; off when
 * not had, and a word that is no condition, refused. */
Test(alloy_gm, condition_on_and_off_issue_14) {
    fixture *f = arena(false);
    cr_assert_eq(say(f, "gm condition orc dazed save-ends"), FRAY_OK, "%s", f->why);
    const fa_cond *k = fa_cond_find(&f->st.c[ORC], FA_C_DAZED, -1);
    cr_assert_not_null(k);
    cr_assert_eq(k->ends, FA_ENDS_SAVE);
    cr_assert_not_null(af_fact(f, FA_FACT_COND_ON, ORC));
    cr_assert_eq(say(f, "gm condition orc prone"), FRAY_OK, "%s", f->why);
    cr_assert_eq(fa_cond_find(&f->st.c[ORC], FA_C_PRONE, -1)->ends, FA_ENDS_EVENT);
    cr_assert_eq(say(f, "gm condition orc dazed off"), FRAY_OK, "%s", f->why);
    cr_assert_not(fa_has(&f->st.c[ORC], FA_C_DAZED));
    cr_assert_not_null(af_fact(f, FA_FACT_COND_OFF, ORC));
    cr_assert_eq(say(f, "gm condition orc dazed off"), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "orc is not dazed"), "%s", f->why);
    fray_diag d = parse_fails(f, "gm condition orc on-fire");
    cr_assert(strstr(d.message, "blinded, dazed"), "%s", d.message);
    cr_assert_eq(d.column, 18);
    d = parse_fails(f, "gm condition orc dying");   /* hit points say dying */
    cr_assert(strstr(d.message, "condition"), "%s", d.message);
    free(f);
}

/* An end-of-turn condition given by the GM ends at the end of the
 * bearer's next turn (the core's FA_ENDS_END_OF_TURN, whose = the bearer). */
Test(alloy_gm, condition_end_of_turn_ends_with_its_turn) {
    fixture *f = arena(false);
    cr_assert_eq(say(f, "gm condition orc slowed end-of-turn"), FRAY_OK, "%s", f->why);
    af_end_turn(f);              /* Tony's ends; the orc's starts */
    cr_assert_eq(f->st.cur, ORC);
    cr_assert(fa_has(&f->st.c[ORC], FA_C_SLOWED));
    af_end_turn(f);              /* the orc's ends */
    cr_assert_not(fa_has(&f->st.c[ORC], FA_C_SLOWED));
    free(f);
}

/* ---- Placing a token ----------------------------------------------------------- */

/* Issue 14 "move a token": the GM's word is not a move: Tony leaves the
 * orc's reach without the opportunity attack a move out of a threatened
 * square provokes (004:609), and no action of his is spent; a square off
 * the map, a wall, or one taken is refused. */
Test(alloy_gm, place_moves_without_movement_rules_004_609) {
    fixture *f = arena(false);
    uint8_t slots = f->st.c[TONY].slots;
    cr_assert_eq(say(f, "gm place tony 9,9"), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[TONY].fp.at.x, 9);
    cr_assert_eq(f->st.c[TONY].fp.at.y, 9);
    cr_assert_eq(f->fake.hook_calls, 0, "nobody was asked about an opportunity attack");
    cr_assert_null(af_fact(f, FA_FACT_OPPORTUNITY, -1));
    cr_assert_null(af_fact(f, FA_FACT_ACTION, -1));
    cr_assert_eq(f->st.c[TONY].slots, slots);
    cr_assert_eq(say(f, "gm place tony at 9,8"), FRAY_OK, "%s", f->why);   /* 99 Towers' 'at' */
    cr_assert_eq(f->st.c[TONY].fp.at.y, 8);
    cr_assert_eq(say(f, "gm place tony 12,3"), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "off the map"), "%s", f->why);
    cr_assert_eq(say(f, "gm place tony 6,6"), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "wall"), "%s", f->why);
    cr_assert_eq(say(f, "gm place tony 3,2"), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "orc is there"), "%s", f->why);
    fray_diag d = parse_fails(f, "gm place tony");
    cr_assert(strstr(d.message, "X,Y"), "%s", d.message);
    free(f);
}

/* The GM's word comes at any time: on the orc during Tony's turn (not
 * the orc's), and the turn stays Tony's. */
Test(alloy_gm, override_at_any_time_not_a_turn) {
    fixture *f = arena(false);
    cr_assert_eq(say(f, "gm place orc 5,5"), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.cur, TONY);
    cr_assert_eq(fa_actor(&f->s, &f->st), TONY);
    free(f);
}

/* ---- Taking one out, bringing one in ---------------------------------------------- */

/* Issue 14 "remove a combatant": the orc flees: out of the fight, off the
 * map (its square free for another), the fight over for its side; gm
 * join puts it back at a square the GM names (none: refused). */
Test(alloy_gm, flee_and_join_back_issue_14) {
    fixture *f = arena(true);
    cr_assert_eq(say(f, "gm flee orc"), FRAY_OK, "%s", f->why);
    const fa_cstate *c = &f->st.c[ORC];
    cr_assert(c->flags & FA_F_OUT);
    cr_assert(c->absent);
    const fa_fact *g = af_fact(f, FA_FACT_GM, ORC);
    cr_assert_not_null(g);
    cr_assert_eq(g->v[0], FA_GM_FLEE);
    cr_assert_eq(g->v[3], 3);   /* the square it left */
    cr_assert_eq(g->v[4], 2);
    cr_assert_not(f->st.over, "orc2 is still to come");
    cr_assert_eq(say(f, "gm place tony 3,2"), FRAY_OK, "%s", f->why);
    cr_assert_eq(say(f, "gm set orc hp 3"), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "orc has left the fight"), "%s", f->why);
    cr_assert_eq(say(f, "gm flee orc"), FRAY_ERR_INVALID);
    cr_assert_eq(say(f, "gm join orc"), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "say where orc comes back"), "%s", f->why);
    cr_assert_eq(say(f, "gm join orc 3,2"), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "Tony is there"), "%s", f->why);
    cr_assert_eq(say(f, "gm join orc 4,2"), FRAY_OK, "%s", f->why);
    cr_assert_not(c->absent);
    cr_assert_not(c->flags & FA_F_OUT);
    cr_assert_eq(c->fp.at.x, 4);
    cr_assert(fray__track_find(&f->st.track, ORC) >= 0, "its place in the order kept");
    free(f);
}

/* Fleeing the last of its side ends the fight (nobody standing there). */
Test(alloy_gm, flee_of_the_last_ends_the_fight) {
    fixture *f = arena(false);
    cr_assert_eq(say(f, "gm flee orc"), FRAY_OK, "%s", f->why);
    cr_assert(f->st.over);
    cr_assert_eq(f->st.winner, 0);
    cr_assert_not_null(af_fact(f, FA_FACT_OVER, -1));
    free(f);
}

/* Issue 14 "add a combatant", 004:241 "roll initiative at that time":
 * orc2 (joins: 3) brought in in round 1 rolls its d20 now (11 by hand:
 * 11 + 0) and takes its place in the order; at its file square or the
 * one the GM names. */
Test(alloy_gm, join_early_rolls_initiative_004_241) {
    fixture *f = arena(true);
    cr_assert_eq(f->st.n, 2);
    cr_assert_eq(say_dice(f, "gm join orc2 7,7", (int[]){11}, 1), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.n, 3);
    const fa_cstate *c = &f->st.c[ORC2];
    cr_assert_not(c->absent);
    cr_assert_eq(c->fp.at.x, 7);
    cr_assert_eq(c->init, 11);
    cr_assert_eq(f->st.n_order, 3);
    const fa_fact *j = af_fact(f, FA_FACT_JOIN, ORC2);
    cr_assert_not_null(j);
    cr_assert_eq(j->v[0], 11);
    cr_assert_eq(f->st.cur, TONY, "the turn under way keeps its place");
    cr_assert_eq(say(f, "gm join orc2"), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "already in the fight"), "%s", f->why);
    free(f);
}

Test(alloy_gm, join_at_its_file_square_when_none_named_004_241) {
    fixture *f = arena(true);
    cr_assert_eq(say_dice(f, "gm join orc2", (int[]){5}, 1), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[ORC2].fp.at.x, 8);
    cr_assert_eq(f->st.c[ORC2].fp.at.y, 8);
    free(f);
}

/* ---- Through the public API: journal, replay, undo -------------------------- */

static fray_fight *table_fight(fray_setup **out_s) {
    char path[512];
    snprintf(path, sizeof path, "%s/examples/alloy/reinforcements.yaml", FRAY_SOURCE_DIR);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_setup_load(path, NULL, out_s, &diag), FRAY_OK, "%s", diag.message);
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(*out_s, 3, &o, NULL, NULL, &f), FRAY_OK);
    return f;
}

static void cmd_ok(fray_fight *f, const char *text) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_fight_command(f, text, NULL, &d), FRAY_OK, "%s: %s", text,
                 d.message);
}

/* Issue 14: each override is an event: its JSON line replays into a fresh
 * fight to the identical state, told the same way; undo takes it back to
 * the state before, redo plays it again. */
Test(alloy_gm, journal_replay_and_undo_issue_14) {
    fray_setup *s = NULL;
    fray_fight *f = table_fight(&s);
    static const char *const cmds[] = {
        "gm set thug-1 hp 5", "gm adjust thug-1 hp -8", "gm condition duelist prone save-ends",
        "gm condition duelist prone off", "gm place merc 5,3", "gm join boss 6,5",
        "gm flee thug-2", "gm join thug-2 9,3", "gm set thug-1 hp 4"};
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
        cmd_ok(f, cmds[i]);
    int n = fray_fight_events(f);
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    cr_assert_not_null(text);
    for (int i = 0; i < n; i++) {
        size_t k = fray_event_json(f, i, text + len, cap - len - 1);
        cr_assert(len + k + 2 < cap);
        len += k;
        text[len++] = '\n';
    }
    text[len] = '\0';
    fray_fight *g = NULL;
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    cr_assert_eq(fray_fight_new(s, 99, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_fight_replay_journal(g, text, len, NULL, &d), FRAY_OK,
                 "line %d: %s", d.line, d.message);
    cr_assert(fray_fight_same(f, g));
    for (int i = 0; i < n; i++) {
        char a[4096], b[4096];
        fray_event_narrate(f, i, a, sizeof a);
        fray_event_narrate(g, i, b, sizeof b);
        cr_assert_str_eq(a, b);
    }
    /* undo the last (thug-1 up to 4 from dying) and the one before */
    char sum_before[4096], sum[4096];
    fray_fight *h = NULL;
    cr_assert_eq(fray_fight_new(s, 3, &o, NULL, NULL, &h), FRAY_OK);
    for (size_t i = 0; i + 1 < sizeof cmds / sizeof *cmds; i++)
        cmd_ok(h, cmds[i]);
    fray_fight_summary(h, sum_before, sizeof sum_before);
    cr_assert(strstr(sum_before, "dying"), "%s", sum_before);
    cr_assert_eq(fray_fight_undo(f), FRAY_OK);
    cr_assert(fray_fight_same(f, h));
    fray_fight_summary(f, sum, sizeof sum);
    cr_assert_str_eq(sum, sum_before);
    cr_assert_eq(fray_fight_redo(f), FRAY_OK);
    cr_assert(fray_fight_same(f, g));
    free(text);
    fray_fight_free(f);
    fray_fight_free(g);
    fray_fight_free(h);
    fray_setup_free(s);
}

/* A journal line with an override it does not know is refused, with the
 * field named (json.c checks every field). */
Test(alloy_gm, journal_refuses_an_unknown_override) {
    fray_setup *s = NULL;
    fray_fight *f = table_fight(&s);
    cmd_ok(f, "gm place merc 5,3");
    char line[4096];
    fray_event_json(f, 0, line, sizeof line);
    char text[8200];
    char ev[4096];
    fray_event_json(f, 1, ev, sizeof ev);
    char *at = strstr(ev, "\"place\"");
    cr_assert_not_null(at);
    memcpy(at, "\"hover\"", 7);
    snprintf(text, sizeof text, "%s\n%s\n", line, ev);
    fray_fight *g = NULL;
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    cr_assert_eq(fray_fight_new(s, 3, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_neq(fray_fight_replay_journal(g, text, strlen(text), NULL, &d), FRAY_OK);
    cr_assert(strstr(d.message, "command.gm"), "%s", d.message);
    fray_fight_free(f);
    fray_fight_free(g);
    fray_setup_free(s);
}

/* The same word during the bearer's own turn: "its next turn" is the one
 * after this (turn.c's convention for effects made in one's own turn). */
Test(alloy_gm, condition_end_of_turn_given_in_its_own_turn_lasts_to_the_next) {
    fixture *f = arena(false);
    cr_assert_eq(say(f, "gm condition tony slowed end-of-turn"), FRAY_OK, "%s", f->why);
    af_end_turn(f);              /* Tony's turn (round 1) ends */
    cr_assert(fa_has(&f->st.c[TONY], FA_C_SLOWED));
    af_end_turn(f);              /* the orc's */
    af_end_turn(f);              /* Tony's round-2 turn ends */
    cr_assert_not(fa_has(&f->st.c[TONY], FA_C_SLOWED));
    free(f);
}
