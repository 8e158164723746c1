/*
 * test_alloy_parse.c - Alloy's table commands (parse.c): every action of
 * the action table (004:300-354) in rules words, targets, squares, weapons
 * and powers, aid, ready, slot and decline words, and errors that name the
 * token, its column and a near name.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "alloy_face_fixture.h"

static fa_setup *S;
static fa_state *ST;

static void setup(void) {
    S = fx_setup();
    ST = fx_state(S);
}

static void teardown(void) {
    free(ST);
    free(S);
}

TestSuite(alloy_parse, .init = setup, .fini = teardown);

static fa_command parse_ok(const char *text) {
    fa_command c;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = fa_parse(S, ST, text, &c, &d);
    cr_assert_eq(rc, FRAY_OK, "'%s': %s", text, d.message);
    return c;
}

static fray_diag parse_bad(const char *text) {
    fa_command c;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = fa_parse(S, ST, text, &c, &d);
    cr_assert_eq(rc, FRAY_ERR_PARSE, "'%s' was read", text);
    return d;
}

Test(alloy_parse, next_steps_the_engine) {
    fa_command c = parse_ok("next");
    cr_assert_eq(c.kind, FA_CMD_NEXT);
    cr_assert_eq(c.actor, -1);
    c = parse_ok("  NEXT ");
    cr_assert_eq(c.kind, FA_CMD_NEXT);
}

/* 004:302-303 melee and ranged basic attacks: with a weapon of the block. */
Test(alloy_parse, attack_with_weapon_004_302) {
    fa_command c = parse_ok("tony attack orc-1 with pistol");
    cr_assert_eq(c.kind, FA_CMD_ATTACK);
    cr_assert_eq(c.actor, FX_TONY);
    cr_assert_eq(c.n_targets, 1);
    cr_assert_eq(c.targets[0], FX_ORC1);
    cr_assert_eq(c.weapon, 0);
    cr_assert_eq(c.power, -1);
    cr_assert_eq(c.slot, FA_ACT_NONE);
    cr_assert_eq(c.origin.x, -1);
    c = parse_ok("Tony ATTACK orc_1 with Combat-Knife");
    cr_assert_eq(c.targets[0], FX_ORC1);
    cr_assert_eq(c.weapon, 1);
}

Test(alloy_parse, names_by_id_or_display_name_any_case) {
    fa_command c = parse_ok("TONY attack ORC-2");
    cr_assert_eq(c.targets[0], FX_ORC2);
    c = parse_ok("ana attack orc-1");
    cr_assert_eq(c.actor, FX_ANA);
}

Test(alloy_parse, attack_several_targets) {
    fa_command c = parse_ok("tony attack orc-1 orc-2 with burst-fire");
    cr_assert_eq(c.n_targets, 2);
    cr_assert_eq(c.targets[0], FX_ORC1);
    cr_assert_eq(c.targets[1], FX_ORC2);
    cr_assert_eq(c.power, 0);
    cr_assert_eq(c.weapon, -1);
}

/* 004:131 an area burst lands at a square within range: its origin. */
Test(alloy_parse, attack_at_area_origin_004_131) {
    fa_command c = parse_ok("tony attack at 8,6 with burst-fire");
    cr_assert_eq(c.origin.x, 8);
    cr_assert_eq(c.origin.y, 6);
    cr_assert_eq(c.power, 0);
    cr_assert_eq(c.n_targets, 0);
    /* A close blast's corner may lie off the map (004:125). */
    c = parse_ok("tony attack at 6,-3");
    cr_assert_eq(c.origin.y, -3);
}

/* 004:773-780 Walk: a path square by square. */
Test(alloy_parse, walk_path_004_773) {
    fa_command c = parse_ok("tony walk 1,2 2,3 3,3");
    cr_assert_eq(c.kind, FA_CMD_WALK);
    cr_assert_eq(c.n_path, 3);
    cr_assert_eq(c.path[0].x, 1);
    cr_assert_eq(c.path[0].y, 2);
    cr_assert_eq(c.path[2].x, 3);
    cr_assert_eq(c.path[2].y, 3);
    /* One step: kept as given (no path search). */
    c = parse_ok("tony walk 2,2");
    cr_assert_eq(c.n_path, 1);
}

/* 004:409-418 Adjust ("shift") 5 ft; 004:660 run; 004:553 crawl; 004:707 squeeze. */
Test(alloy_parse, other_moves_004_409) {
    cr_assert_eq(parse_ok("tony shift 2,2").kind, FA_CMD_SHIFT);
    cr_assert_eq(parse_ok("tony adjust 2,2").kind, FA_CMD_SHIFT);
    cr_assert_eq(parse_ok("tony run 1,2 1,3").kind, FA_CMD_RUN);
    cr_assert_eq(parse_ok("tony crawl 1,2").kind, FA_CMD_CRAWL);
    cr_assert_eq(parse_ok("tony squeeze 1,2").kind, FA_CMD_SQUEEZE);
    fa_command c = parse_ok("tony stand");
    cr_assert_eq(c.kind, FA_CMD_STAND);
    cr_assert_eq(c.n_path, 0);
    c = parse_ok("tony stand 1,2");
    cr_assert_eq(c.n_path, 1);
    c = parse_ok("tony move-grappled 1,2 1,3");
    cr_assert_eq(c.kind, FA_CMD_MOVE_GRAPPLED);
    cr_assert_eq(c.n_path, 2);
}

/* 004:593-602 Escape: Acrobatics vs Reflex or Athletics vs Fortitude;
 * no skill named leaves the choice to the engine (the better margin). */
Test(alloy_parse, escape_skill_004_593) {
    fa_command c = parse_ok("tony escape");
    cr_assert_eq(c.kind, FA_CMD_ESCAPE);
    cr_assert_eq(c.option, -1);
    c = parse_ok("tony escape acrobatics");
    cr_assert_eq(c.option, FA_SKILL_ACROBATICS);
    c = parse_ok("tony escape athletics 1,2");
    cr_assert_eq(c.option, FA_SKILL_ATHLETICS);
    cr_assert_eq(c.n_path, 1);
}

/* 004:304-311 the standard actions against one target. */
Test(alloy_parse, one_target_actions_004_304) {
    static const struct { const char *word; int kind; } rows[] = {
        {"charge", FA_CMD_CHARGE},   {"coup", FA_CMD_COUP},
        {"coup-de-grace", FA_CMD_COUP},
        {"bull-rush", FA_CMD_BULL_RUSH}, {"trip", FA_CMD_TRIP},
        {"grapple", FA_CMD_GRAPPLE}, {"disarm", FA_CMD_HELD_OBJECT},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char text[64];
        snprintf(text, sizeof text, "ana %s orc-2", rows[i].word);
        fa_command c = parse_ok(text);
        cr_assert_eq(c.kind, rows[i].kind, "%s", text);
        cr_assert_eq(c.n_targets, 1, "%s", text);
        cr_assert_eq(c.targets[0], FX_ORC2, "%s", text);
        /* and a target is needed */
        snprintf(text, sizeof text, "ana %s", rows[i].word);
        fray_diag d = parse_bad(text);
        cr_assert(strstr(d.message, "expected the"), "%s: %s", text, d.message);
        /* only one */
        snprintf(text, sizeof text, "ana %s orc-1 orc-2", rows[i].word);
        d = parse_bad(text);
        cr_assert(strstr(d.message, "one target only"), "%s: %s", text,
                  d.message);
    }
    fa_command c = parse_ok("ana charge orc-1 3,2 4,3");
    cr_assert_eq(c.n_path, 2);
    cr_assert_eq(c.option, FA_CHARGE_ATTACK);
    /* 004:523 a charge may end in a bull rush; 004:504-513 the push's square. */
    c = parse_ok("ana charge orc-1 bull-rush");
    cr_assert_eq(c.option, FA_CHARGE_BULL_RUSH);
    c = parse_ok("ana bull-rush orc-1 9,6");
    cr_assert_eq(c.origin.x, 9);
    cr_assert_eq(c.origin.y, 6);
}

/* 004:422-430 Aid Another: +2 to an ally's next attack on the target or
 * to its defenses against the target. Targets: [enemy, ally]. */
Test(alloy_parse, aid_another_004_422) {
    fa_command c = parse_ok("ana aid tony attack against orc-1");
    cr_assert_eq(c.kind, FA_CMD_AID);
    cr_assert_eq(c.option, FA_AID_ATTACK);
    cr_assert_eq(c.n_targets, 2);
    cr_assert_eq(c.targets[0], FX_ORC1);
    cr_assert_eq(c.targets[1], FX_TONY);
    c = parse_ok("ana aid tony defense against orc-2");
    cr_assert_eq(c.option, FA_AID_DEFENSE);
    cr_assert_eq(c.targets[0], FX_ORC2);
    fray_diag d = parse_bad("ana aid tony healing against orc-2");
    cr_assert_eq(d.column, 14);
    d = parse_bad("ana aid tony attack orc-2");
    cr_assert(strstr(d.message, "'against'"), "%s", d.message);
}

/* 004:685-701 autofire: spray and suppressing fire at a square. */
Test(alloy_parse, autofire_at_square_004_685) {
    fa_command c = parse_ok("tony spray at 8,6 with pistol");
    cr_assert_eq(c.kind, FA_CMD_SPRAY);
    cr_assert_eq(c.origin.x, 8);
    cr_assert_eq(c.weapon, 0);
    c = parse_ok("tony suppress at 5,5");
    cr_assert_eq(c.kind, FA_CMD_SUPPRESS);
    cr_assert_eq(c.origin.y, 5);
    fray_diag d = parse_bad("tony spray");
    cr_assert(strstr(d.message, "'at X,Y'"), "%s", d.message);
}

/* The actions without words: 004:312, 673, 332, 334, 346-354. */
Test(alloy_parse, bare_actions) {
    static const struct { const char *word; int kind; } rows[] = {
        {"total-defense", FA_CMD_TOTAL_DEFENSE},
        {"second-wind", FA_CMD_SECOND_WIND},
        {"drop-prone", FA_CMD_DROP_PRONE},
        {"reload", FA_CMD_RELOAD},
        {"sustain", FA_CMD_SUSTAIN},
        {"end-grab", FA_CMD_END_GRAB},
        {"action-point", FA_CMD_SPEND_AP},
        {"delay", FA_CMD_DELAY},
        {"resume", FA_CMD_RESUME},
        {"end", FA_CMD_END_TURN},
        {"end-turn", FA_CMD_END_TURN},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char text[64];
        snprintf(text, sizeof text, "tony %s", rows[i].word);
        cr_assert_eq(parse_ok(text).kind, rows[i].kind, "%s", text);
        snprintf(text, sizeof text, "tony %s orc-1", rows[i].word);
        if (rows[i].kind != FA_CMD_RELOAD) {
            fray_diag d = parse_bad(text);
            cr_assert(strstr(d.message, "expected nothing after"), "%s: %s",
                      text, d.message);
        }
    }
}

/* 004:583-589 Draw or Holster: which weapon. */
Test(alloy_parse, draw_weapon_004_583) {
    fa_command c = parse_ok("tony draw knife");
    cr_assert_eq(c.kind, FA_CMD_DRAW);
    cr_assert_eq(c.weapon, 1);
    c = parse_ok("tony reload pistol");
    cr_assert_eq(c.weapon, 0);
    fray_diag d = parse_bad("tony draw");
    cr_assert(strstr(d.message, "one of its weapons"), "%s", d.message);
    d = parse_bad("tony draw knive");
    cr_assert(strstr(d.message, "did you mean 'knife'"), "%s", d.message);
}

/* 004:643-656 Ready an Action: the action, its target and the trigger. */
Test(alloy_parse, ready_an_action_004_643) {
    fa_command c =
        parse_ok("ana ready attack orc-1 when orc-1 moves-adjacent");
    cr_assert_eq(c.kind, FA_CMD_READY);
    cr_assert_eq(c.ready.kind, FA_CMD_ATTACK);
    cr_assert_eq(c.ready.target, FX_ORC1);
    cr_assert_eq(c.ready.who, FX_ORC1);
    cr_assert_eq(c.ready.trigger, FA_TRIG_MOVES_ADJACENT);
    c = parse_ok("tony ready attack with burst-fire when any attacks");
    cr_assert_eq(c.ready.who, -1);
    cr_assert_eq(c.ready.target, -1);
    cr_assert_eq(c.ready.power, 0);
    cr_assert_eq(c.ready.trigger, FA_TRIG_ATTACKS);
    c = parse_ok("ana ready trip when orc-2 enters-reach");
    cr_assert_eq(c.ready.kind, FA_CMD_TRIP);
    cr_assert_eq(c.ready.trigger, FA_TRIG_ENTERS_REACH);
    fray_diag d = parse_bad("ana ready attack orc-1");
    cr_assert(strstr(d.message, "'when'"), "%s", d.message);
    d = parse_bad("ana ready attack when orc-1 sneezes");
    cr_assert(strstr(d.message, "moves-adjacent"), "%s", d.message);
    cr_assert_eq(d.column, 29);
}

/* 004:291, 363-403 a move bought with the standard action: slot words. */
Test(alloy_parse, slot_words_004_363) {
    fa_command c = parse_ok("tony walk 1,2 slot standard");
    cr_assert_eq(c.slot, FA_ACT_STANDARD);
    c = parse_ok("tony draw knife slot move");
    cr_assert_eq(c.slot, FA_ACT_MOVE);
    fray_diag d = parse_bad("tony walk 1,2 slot free");
    cr_assert_eq(d.column, 20);
}

/* 004:453-461 opportunity attacks: the table may decline them. */
Test(alloy_parse, decline_words_004_453) {
    fa_command c = parse_ok("tony walk 1,2 decline orc-1");
    cr_assert_eq(c.decline, 1u << FX_ORC1);
    c = parse_ok("tony walk 1,2 decline orc-1 decline orc-2");
    cr_assert_eq(c.decline, (1u << FX_ORC1) | (1u << FX_ORC2));
    c = parse_ok("tony attack orc-1 decline all");
    cr_assert_eq(c.decline, (1u << FX_N) - 1u);
    c = parse_ok("ana aid tony attack against orc-1 decline orc-1");
    cr_assert_eq(c.decline, 1u << FX_ORC1);
    fray_diag d = parse_bad("tony walk 1,2 decline orx-1");
    cr_assert(strstr(d.message, "did you mean 'orc-1'"), "%s", d.message);
}

/* Errors: FRAY_ERR_PARSE with the token, its column (byte offset + 1)
 * and a near name. */
Test(alloy_parse, errors_name_token_and_column) {
    fray_diag d = parse_bad("tony dance");
    cr_assert_eq(d.column, 6);
    cr_assert(strstr(d.message, "got 'dance'"), "%s", d.message);
    d = parse_bad("tony atack orc-1");
    cr_assert(strstr(d.message, "did you mean 'attack'"), "%s", d.message);
    d = parse_bad("tony attack orcc-1");
    cr_assert_eq(d.column, 13);
    cr_assert(strstr(d.message, "did you mean 'orc-1'"), "%s", d.message);
    d = parse_bad("tny attack orc-1");
    cr_assert_eq(d.column, 1);
    cr_assert(strstr(d.message, "did you mean 'tony'"), "%s", d.message);
    d = parse_bad("tony attack orc-1 with pistl");
    cr_assert_eq(d.column, 24);
    cr_assert(strstr(d.message, "did you mean 'pistol'"), "%s", d.message);
    d = parse_bad("tony attack orc-1 with axe");
    cr_assert(strstr(d.message, "weapons or powers"), "%s", d.message);
    d = parse_bad("tony walk");
    cr_assert(strstr(d.message, "the end of the command"), "%s", d.message);
    cr_assert_eq(d.column, 10);
    d = parse_bad("tony walk 30,3");
    cr_assert(strstr(d.message, "on the map"), "%s", d.message);
    d = parse_bad("tony walk 3;3");
    cr_assert_eq(d.column, 11);
    d = parse_bad("");
    cr_assert(strstr(d.message, "'next'"), "%s", d.message);
    d = parse_bad("next tony");
    cr_assert_eq(d.column, 6);
    d = parse_bad("tony");
    cr_assert(strstr(d.message, "expected an action"), "%s", d.message);
    d = parse_bad("tony attack orc-1 orc-2 orc-1 orc-2 orc-1 orc-2 orc-1 orc-2 orc-1");
    cr_assert(strstr(d.message, "at most 8 targets"), "%s", d.message);
}

/* Every journal word of an action is a word of the table. */
Test(alloy_parse, every_action_word_reads) {
    for (int k = FA_CMD_ATTACK; k < FA_CMD_KINDS; k++) {
        fa_command c;
        fray_diag d;
        char text[80];
        snprintf(text, sizeof text, "tony %s", fa_cmd_name(k));
        fray_status rc = fa_parse(S, ST, text, &c, &d);
        /* Either read, or refused for a missing word, never "expected an
         * action". */
        if (rc != FRAY_OK)
            cr_assert(!strstr(d.message, "expected an action ("), "%s: %s",
                      text, d.message);
        else
            cr_assert_eq(c.kind, k, "%s", text);
    }
}

/* The example encounter as the loader reads it (load.c): ids, names with
 * spaces and dots, a group numbered by the loader, weapons and powers of
 * the blocks; 004:131 a grenade's burst at a square. */
Test(alloy_parse, commands_for_a_loaded_encounter_004_131) {
    fa_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = fa_load(FRAY_SOURCE_DIR "/examples/alloy/skirmish.yaml",
                             NULL, &s, &d);
    cr_assert_eq(rc, FRAY_OK, "%s:%d:%d: %s", d.file ? d.file : "", d.line,
                 d.column, d.message);
    int trooper = -1, boss = -1, thug2 = -1;
    for (int i = 0; i < s->n; i++) {
        if (strcmp(s->c[i].id, "trooper") == 0)
            trooper = i;
        if (strcmp(s->c[i].id, "boss") == 0)
            boss = i;
        if (strcmp(s->c[i].id, "thug-2") == 0)
            thug2 = i;
    }
    cr_assert(trooper >= 0 && boss >= 0 && thug2 >= 0);
    fa_command c;
    rc = fa_parse(s, NULL, "trooper attack thug-2 with rifle", &c, &d);
    cr_assert_eq(rc, FRAY_OK, "%s", d.message);
    cr_assert_eq(c.actor, trooper);
    cr_assert_eq(c.targets[0], thug2);
    cr_assert_eq(c.weapon, 0);
    rc = fa_parse(s, NULL, "Sgt.-Oduya attack at 14,6 with grenade", &c, &d);
    cr_assert_eq(rc, FRAY_OK, "%s", d.message);
    cr_assert_eq(c.actor, trooper);
    cr_assert_eq(c.power, 0);
    cr_assert_eq(c.origin.x, 14);
    rc = fa_parse(s, NULL, "trooper attack big-sal", &c, &d);
    cr_assert_eq(rc, FRAY_OK, "%s", d.message);
    cr_assert_eq(c.targets[0], boss);
    rc = fa_parse(s, NULL, "trooper attack thug-9", &c, &d);
    cr_assert_eq(rc, FRAY_ERR_PARSE);
    cr_assert(strstr(d.message, "did you mean 'thug-"), "%s", d.message);
    /* Off this map (18 x 10). */
    rc = fa_parse(s, NULL, "trooper walk 3,12", &c, &d);
    cr_assert_eq(rc, FRAY_ERR_PARSE);
    cr_assert(strstr(d.message, "on the map"), "%s", d.message);
    fa_setup_free(s);
}

/* 004:773-780 Walk to one square further than a step: the cheapest path
 * there as the engine counts it (fa_reach, act.c), square by square. */
Test(alloy_parse, walk_to_a_far_square_takes_the_cheapest_path_004_773) {
    fa_command c = parse_ok("tony walk 5,1");
    cr_assert_eq(c.n_path, 4);
    cr_assert_eq(c.path[3].x, 5);
    cr_assert_eq(c.path[3].y, 1);
    for (int i = 0; i < c.n_path; i++) {
        fray_pos from = i ? c.path[i - 1] : ST->c[FX_TONY].fp.at;
        cr_assert_leq(abs(c.path[i].x - from.x), 1);
        cr_assert_leq(abs(c.path[i].y - from.y), 1);
    }
    /* Through Ana (an ally at 2,1) or round her: the engine's choice;
     * a square nobody can reach is an error naming it. */
    ST->c[FX_ORC1].fp.at.x = 11;
    ST->c[FX_ORC1].fp.at.y = 0;
    fray_grid_init(&S->map, 12, 10);
    S->map.terrain[0][10] = FRAY_TERRAIN_WALL;
    S->map.terrain[1][10] = FRAY_TERRAIN_WALL;
    S->map.terrain[1][11] = FRAY_TERRAIN_WALL;
    fa_command d2;
    fray_diag d;
    fray_status rc = fa_parse(S, ST, "tony walk 11,0", &d2, &d);
    cr_assert_eq(rc, FRAY_ERR_PARSE);
    cr_assert(strstr(d.message, "cannot get to 11,0"), "%s", d.message);
    cr_assert_eq(d.column, 11);
}
