/*
 * test_alloy_json.c - Alloy's events as JSON and back (json.c): the
 * layout (docs/journal.md's, mirrored), the round trip json -> event ->
 * json for events of every command kind with dice, choices and facts of
 * every kind, and every field checked on the way in, the error naming
 * the field's path and what was expected.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "alloy_face_fixture.h"

static fa_setup *S;
static fa_state *ST;
static fa_event *EV, *BACK;
static char J1[65536], J2[65536];

static void setup(void) {
    S = fx_setup();
    ST = fx_state(S);
    EV = calloc(1, sizeof *EV);
    BACK = calloc(1, sizeof *BACK);
}

static void teardown(void) {
    free(BACK);
    free(EV);
    free(ST);
    free(S);
}

TestSuite(alloy_json, .init = setup, .fini = teardown);

static void add_fact(int kind, int who, int target, int v0, int v1, int v2,
                     int v3, int v4, int v5) {
    fa_fact *f = &EV->facts[EV->n_facts++];
    memset(f, 0, sizeof *f);
    f->kind = (uint8_t)kind;
    f->who = (int8_t)who;
    f->target = (int8_t)target;
    f->v[0] = v0;
    f->v[1] = v1;
    f->v[2] = v2;
    f->v[3] = v3;
    f->v[4] = v4;
    f->v[5] = v5;
}

static void add_die(int sides, int value, int purpose, int who) {
    fa_die *d = &EV->dice[EV->n_dice++];
    d->sides = (uint8_t)sides;
    d->value = (uint8_t)value;
    d->purpose = (uint8_t)purpose;
    d->who = (int8_t)who;
}

/* Reads J1 back into BACK; returns the status, with field and why. */
static fray_status read_back(const char *text, char *field, char *why) {
    json_error_t err;
    json_t *o = json_loads(text, 0, &err);
    cr_assert_not_null(o, "not JSON: %s\n%s", err.text, text);
    field[0] = why[0] = '\0';
    fray_status rc = fa_event_from_json(S, o, BACK, field, 96, why, 200);
    json_decref(o);
    return rc;
}

static void round_trip(void) {
    size_t n = fa_event_json(S, EV, J1, sizeof J1);
    cr_assert_lt(n, sizeof J1);
    cr_assert_null(strchr(J1, '\n'), "one line");
    char field[96], why[200];
    fray_status rc = read_back(J1, field, why);
    cr_assert_eq(rc, FRAY_OK, "%s: %s\n%s", field, why, J1);
    fa_event_json(S, BACK, J2, sizeof J2);
    cr_assert_str_eq(J2, J1);
    /* The event itself, not only its text. */
    cr_assert_eq(BACK->cmd.kind, EV->cmd.kind);
    cr_assert_eq(BACK->cmd.actor, EV->cmd.actor);
    cr_assert_eq(BACK->cmd.n_targets, EV->cmd.n_targets);
    cr_assert_eq(BACK->cmd.n_path, EV->cmd.n_path);
    cr_assert_eq(BACK->cmd.decline, EV->cmd.decline);
    cr_assert_eq(BACK->n_dice, EV->n_dice);
    cr_assert_eq(BACK->n_choices, EV->n_choices);
    cr_assert_eq(BACK->n_facts, EV->n_facts);
    for (int i = 0; i < EV->n_facts; i++)
        cr_assert_eq(memcmp(&BACK->facts[i], &EV->facts[i], sizeof(fa_fact)), 0,
                     "fact %d", i);
    for (int i = 0; i < EV->n_dice; i++)
        cr_assert_eq(memcmp(&BACK->dice[i], &EV->dice[i], sizeof(fa_die)), 0,
                     "die %d", i);
}

static void event_of(const char *command) {
    memset(EV, 0, sizeof *EV);
    fray_diag d;
    cr_assert_eq(fa_parse(S, ST, command, &EV->cmd, &d), FRAY_OK, "%s: %s",
                 command, d.message);
    EV->number = 7;
    EV->round = 2;
}

/* docs/journal.md's layout: the dice as {"d","v","for","by"}. */
Test(alloy_json, layout_of_an_attack) {
    event_of("tony attack orc-1 with pistol");
    add_die(20, 14, FA_DIE_ATTACK, FX_TONY);
    add_die(6, 5, FA_DIE_DAMAGE, FX_TONY);
    add_fact(FA_FACT_ATTACK, FX_TONY, FX_ORC1, 14, 6, 20, FA_DEF_DEFENSE, 16, FA_HIT);
    fa_event_json(S, EV, J1, sizeof J1);
    cr_assert(strstr(J1, "{\"event\":7,\"round\":2,\"command\":{\"action\":\"attack\","
                         "\"actor\":\"tony\",\"weapon\":\"pistol\",\"targets\":[\"orc-1\"]}"),
              "%s", J1);
    cr_assert(strstr(J1, "\"dice\":[{\"d\":20,\"v\":14,\"for\":\"attack\",\"by\":\"tony\"},"
                         "{\"d\":6,\"v\":5,\"for\":\"damage\",\"by\":\"tony\"}]"), "%s", J1);
    cr_assert(strstr(J1, "{\"fact\":\"attack\",\"who\":\"tony\",\"target\":\"orc-1\","
                         "\"d20\":14,\"bonus\":6,\"total\":20,\"defense\":\"Defense\","
                         "\"defense_value\":16,\"result\":\"hit\"}"), "%s", J1);
    cr_assert_null(strstr(J1, "dice_given"), "%s", J1);
    EV->dice_given = true;
    fa_event_json(S, EV, J1, sizeof J1);
    cr_assert(strstr(J1, "\"dice_given\":true"), "%s", J1);
    round_trip();
}

/* Every command kind, with the words each takes, back and forth. */
Test(alloy_json, round_trip_every_command_kind) {
    static const char *const commands[] = {
        "next",
        "tony attack orc-1 orc-2 with burst-fire decline orc-1",
        "tony attack at 8,6 with burst-fire slot standard",
        "tony attack at 6,-3",
        "ana charge orc-1 3,2 4,3",
        "ana coup orc-1",
        "ana bull-rush orc-1 9,6",
        "ana charge orc-2 bull-rush",
        "ana trip orc-2",
        "ana grapple orc-2",
        "ana move-grappled 2,2 2,3",
        "tony disarm orc-1 with pistol",
        "ana aid tony defense against orc-1",
        "tony spray at 8,6 with pistol",
        "tony suppress at 7,5",
        "tony total-defense",
        "tony second-wind",
        "tony walk 1,2 2,3 decline all",
        "tony shift 2,2",
        "tony run 1,2 1,3 1,4",
        "tony crawl 1,2",
        "tony squeeze 1,2",
        "tony stand 1,2",
        "tony escape athletics 1,2",
        "tony drop-prone slot move",
        "tony draw knife",
        "tony reload pistol",
        "tony sustain",
        "tony action-point",
        "tony end-grab",
        "ana ready attack orc-1 when orc-1 moves-adjacent",
        "tony ready attack with burst-fire when any attacks",
        "tony delay",
        "tony resume",
        "tony end",
        /* (alloy-skills) feint, skills, aid on a check (004:307, 313, 325, 429) */
        "ana feint orc-1",
        "tony skill notice move",
        "tony skill bluff",
        "ana aid tony athletics",
        "ana attack orc-1 at 3,2",      /* the square guessed (L7.16) */
        /* (alloygm) the GM's overrides (issue 14), every one */
        "gm set orc-1 hp 3",
        "gm adjust orc-1 hp -4",
        "gm condition ana dazed save-ends",
        "gm condition ana prone off",
        "gm join orc-2 4,4",
        "gm flee orc-1",
        "gm place tony 2,2",
    };
    bool seen[FA_CMD_KINDS] = {false};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        event_of(commands[i]);
        seen[EV->cmd.kind] = true;
        add_die(20, 11, FA_DIE_ATTACK, EV->cmd.actor);
        add_die(8, 8, FA_DIE_DAMAGE, EV->cmd.actor);
        round_trip();
    }
    /* The begin event: initiative dice by nobody's hand. */
    memset(EV, 0, sizeof *EV);
    EV->cmd.kind = FA_CMD_BEGIN;
    EV->cmd.actor = -1;
    EV->cmd.slot = FA_ACT_NONE;
    EV->cmd.power = EV->cmd.weapon = -1;
    EV->cmd.origin.x = EV->cmd.origin.y = -1;
    EV->cmd.ready.who = EV->cmd.ready.target = EV->cmd.ready.power = -1;
    seen[FA_CMD_BEGIN] = true;
    for (int c = 0; c < FX_N; c++)
        add_die(20, 3 + c, FA_DIE_INITIATIVE, c);
    add_die(6, 2, FA_DIE_TIE, FX_ORC1);
    round_trip();
    for (int k = 0; k < FA_CMD_KINDS; k++)
        cr_assert(seen[k], "no event of kind %s", fa_cmd_name(k));
}

/* Facts of every kind and choices of every kind, back and forth. */
Test(alloy_json, round_trip_every_fact_and_choice) {
    event_of("tony walk 1,2 2,3");
    add_fact(FA_FACT_INITIATIVE, FX_TONY, -1, 16, 1, 17, 0, 0, 0);
    add_fact(FA_FACT_TIE, FX_ORC1, -1, 4, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_ORDER, FX_TONY, -1, 0, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_SURPRISE, FX_ORC2, -1, 0, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_ROUND, -1, -1, 2, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_TURN, FX_TONY, -1, 0, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_ONGOING, FX_ANA, -1, 5, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_SAVE, FX_ANA, -1, 12, 10, 1, FA_C_DAZED, 0, 0);
    add_fact(FA_FACT_COND_ON, FX_ORC1, FX_ANA, FA_C_ONGOING, FA_ENDS_SAVE, 5, 0, 0, 0);
    add_fact(FA_FACT_COND_OFF, FX_ORC1, -1, FA_C_PRONE, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_ACTION, FX_TONY, -1, FA_CMD_WALK, FA_ACT_STANDARD, 0, 0, 0, 0);
    add_fact(FA_FACT_ATTACK, FX_ORC1, FX_TONY, 1, 4, 5, FA_DEF_WILL, 12, FA_MISS);
    add_fact(FA_FACT_MODIFIER, FX_ORC1, FX_TONY, FA_MOD_FLANKING, 2, 0, 0, 0, 0);
    add_fact(FA_FACT_DAMAGE, FX_ORC1, FX_TONY, 3, 21, 7, 0, 0, 0);
    add_fact(FA_FACT_DYING, -1, FX_ORC2, -1, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_DEAD, -1, FX_ORC2, -8, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_HEAL, FX_ANA, -1, 7, 20, 0, 0, 0, 0);
    add_fact(FA_FACT_MOVE, FX_TONY, -1, 1, 1, 2, 3, 2, 0);
    add_fact(FA_FACT_PROVOKE, FX_TONY, FX_ORC1, FA_CMD_WALK, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_OPPORTUNITY, FX_ORC1, FX_TONY, 1, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_PUSH, FX_ANA, FX_ORC1, 9, 6, 0, 0, 0, 0);
    add_fact(FA_FACT_AMMO, FX_TONY, -1, 1, 14, 0, 0, 0, 0);
    add_fact(FA_FACT_AP, FX_TONY, -1, 0, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_DELAY, FX_ANA, -1, 0, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_READY, FX_ANA, FX_ORC1, FA_TRIG_ENTERS_REACH, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_READY_FIRES, FX_ANA, -1, 1, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_LOST, FX_ANA, -1, 1, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_NO_EFFECT, FX_ANA, -1, 0, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_NO_EFFECT, FX_ANA, FX_ORC1, FA_NOTE_NO_ROOM, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_NO_EFFECT, FX_ANA, FX_ORC1, FA_NOTE_WRONG_SQUARE, 4, 5, 0, 0, 0);
    add_fact(FA_FACT_OVER, -1, -1, 1, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_OVER, -1, -1, -2, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_OVER, -1, -1, -1, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_CHECK, FX_ANA, -1, 9, 5, 14, 13, 1, 0);
    add_fact(FA_FACT_COVER_STRUCK, FX_TONY, FX_ANA, FX_ORC1, 14, 1, 0, 0, 0);
    add_fact(FA_FACT_DROP, FX_TONY, FX_ORC1, 0, 0, 0, 0, 0, 0);
    /* alloy-objects: objects on the floor and in hand */
    add_fact(FA_FACT_LANDS, FX_TONY, FX_TONY, 1, 4, 5, 0, 0, 0);
    add_fact(FA_FACT_PICK_UP, FX_ORC1, FX_TONY, 1, 4, 5, 0, 0, 0);
    add_fact(FA_FACT_TAKE, FX_ORC1, FX_TONY, 0, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_CONSUME, FX_ANA, -1, 0, 1, 0, 0, 0, 0);
    add_fact(FA_FACT_MODIFIER, FX_ORC1, FX_TONY, FA_MOD_NOT_PROFICIENT, 0, 0, 2, 0, 0);
    add_fact(FA_FACT_SKILL, FX_ANA, FX_ORC1, 12, 4, 16, 14, 1, FA_SKILL_BLUFF);
    add_fact(FA_FACT_DEATH_SAVE, FX_ANA, -1, 7, 10, 0, 2, 0, 0);
    add_fact(FA_FACT_JOIN, FX_ORC2, -1, 11, 2, 13, 3, 0, 0);
    add_fact(FA_FACT_CHOSEN, FX_ORC2, FX_ANA, 0, 0, 0, 0, 0, 0);
    add_fact(FA_FACT_GM, FX_ORC1, -1, FA_GM_SET_HP, 12, 3, 4, 5, 0);   /* (alloygm) */
    /* A value the fact does not name is kept as "vK". */
    add_fact(FA_FACT_TURN, FX_ANA, -1, 0, 0, 0, 9, 0, 0);
    bool kinds[FA_FACT_KINDS] = {false};
    for (int i = 0; i < EV->n_facts; i++)
        kinds[EV->facts[i].kind] = true;
    for (int k = 0; k < FA_FACT_KINDS; k++)
        cr_assert(kinds[k], "no fact of kind %d", k);
    for (int k = 0; k < FA_CH_KINDS; k++) {
        fa_choice *c = &EV->choices[EV->n_choices++];
        c->kind = (uint8_t)k;
        c->who = (int8_t)(k % FX_N);
        c->other = (int8_t)(k == 2 ? -1 : FX_ORC1);
        c->value = (int8_t)(k & 1);
    }
    EV->facts_untold = 3;
    round_trip();
    cr_assert(strstr(J1, "\"v3\":9"), "%s", J1);
    cr_assert(strstr(J1, "\"aimed_at\":\"orc-1\""), "%s", J1);
    cr_assert(strstr(J1, "\"winner\":\"orcs\""), "%s", J1);
    cr_assert(strstr(J1, "\"winner\":\"all-out\""), "%s", J1);
    cr_assert(strstr(J1, "\"from\":[1,1],\"to\":[2,3],\"squares\":2"), "%s", J1);
    cr_assert(strstr(J1, "\"facts_untold\":3"), "%s", J1);
    /* Why an action had no effect, in words (a bull rush with no room, a
     * guess at the wrong square and the square guessed). */
    cr_assert(strstr(J1, "\"reason\":\"none\""), "%s", J1);
    cr_assert(strstr(J1, "\"reason\":\"no-room\""), "%s", J1);
    cr_assert(strstr(J1, "\"reason\":\"wrong-square\",\"v1\":4,\"v2\":5"), "%s", J1);
}

static void expect_bad(const char *text, const char *field, const char *why_part) {
    char f[96], w[200];
    fray_status rc = read_back(text, f, w);
    cr_assert_eq(rc, FRAY_ERR_PARSE, "read: %s", text);
    cr_assert_str_eq(f, field, "%s: %s", text, w);
    cr_assert(strstr(w, why_part), "%s: '%s' has no '%s'", text, w, why_part);
}

/* Every field checked: combatants exist, dice in range, squares on the
 * map, words known; the error names the field's path. */
Test(alloy_json, every_field_checked) {
    expect_bad("{\"command\":{\"action\":\"dance\",\"actor\":\"tony\"},\"dice\":[],\"choices\":[]}",
               "command.action", "not an action");
    expect_bad("{\"command\":{\"action\":\"attack\",\"actor\":\"nobody\"},\"dice\":[],\"choices\":[]}",
               "command.actor", "not a combatant");
    expect_bad("{\"command\":{\"action\":\"attack\",\"actor\":9},\"dice\":[],\"choices\":[]}",
               "command.actor", "0 to 3");
    expect_bad("{\"command\":{\"action\":\"attack\"},\"dice\":[],\"choices\":[]}",
               "command.actor", "who acts");
    expect_bad("{\"command\":{\"action\":\"attack\",\"actor\":\"tony\",\"targets\":[\"orc-1\",\"orc-9\"]},"
               "\"dice\":[],\"choices\":[]}",
               "command.targets[1]", "'orc-9' is not a combatant");
    expect_bad("{\"command\":{\"action\":\"walk\",\"actor\":\"tony\",\"path\":[[1,1],[12,3]]},"
               "\"dice\":[],\"choices\":[]}",
               "command.path[1]", "not a square of the map");
    expect_bad("{\"command\":{\"action\":\"attack\",\"actor\":\"tony\",\"origin\":[6,-70]},"
               "\"dice\":[],\"choices\":[]}",
               "command.origin[1]", "out of range");
    expect_bad("{\"command\":{\"action\":\"attack\",\"actor\":\"tony\",\"weapon\":\"axe\"},"
               "\"dice\":[],\"choices\":[]}",
               "command.weapon", "not one of Tony's weapons");
    expect_bad("{\"command\":{\"action\":\"attack\",\"actor\":\"tony\",\"power\":\"fireball\"},"
               "\"dice\":[],\"choices\":[]}",
               "command.power", "not one of Tony's powers");
    expect_bad("{\"command\":{\"action\":\"walk\",\"actor\":\"tony\",\"slot\":\"big\"},"
               "\"dice\":[],\"choices\":[]}",
               "command.slot", "action slot");
    expect_bad("{\"command\":{\"action\":\"ready\",\"actor\":\"tony\",\"ready\":{\"action\":\"attack\","
               "\"trigger\":\"sneezes\"}},\"dice\":[],\"choices\":[]}",
               "command.ready.trigger", "a trigger");
    expect_bad("{\"command\":{\"action\":\"next\"},\"dice\":[{\"d\":20,\"v\":21,\"for\":\"attack\"}],"
               "\"choices\":[]}",
               "dice[0].v", "out of range (1 to 20)");
    expect_bad("{\"command\":{\"action\":\"next\"},\"dice\":[{\"d\":1,\"v\":1,\"for\":\"attack\"}],"
               "\"choices\":[]}",
               "dice[0].d", "2 to 100");
    expect_bad("{\"command\":{\"action\":\"next\"},\"dice\":[{\"d\":6,\"v\":1,\"for\":\"luck\"}],"
               "\"choices\":[]}",
               "dice[0].for", "purpose");
    expect_bad("{\"command\":{\"action\":\"next\"},\"dice\":[{\"d\":6,\"v\":1,\"for\":\"damage\",\"by\":\"zed\"}],"
               "\"choices\":[]}",
               "dice[0].by", "not a combatant");
    expect_bad("{\"command\":{\"action\":\"next\"},\"dice\":[],"
               "\"choices\":[{\"choice\":\"opportunity\",\"who\":\"tony\"}]}",
               "choices[0].value", "whole number");
    expect_bad("{\"command\":{\"action\":\"next\"},\"dice\":[],"
               "\"choices\":[{\"choice\":\"bribe\",\"value\":1}]}",
               "choices[0].choice", "kind of choice");
    expect_bad("{\"command\":{\"action\":\"next\"},\"dice\":[],\"choices\":[],"
               "\"facts\":[{\"fact\":\"turn\"},{\"fact\":\"gloat\"}]}",
               "facts[1].fact", "kind of fact");
    expect_bad("{\"command\":{\"action\":\"next\"},\"dice\":[],\"choices\":[],"
               "\"facts\":[{\"fact\":\"condition-on\",\"who\":\"tony\",\"condition\":\"sleepy\","
               "\"ends\":\"save\",\"value\":0}]}",
               "facts[0].condition", "a condition");
    expect_bad("{\"command\":{\"action\":\"next\"},\"dice\":[],\"choices\":[],"
               "\"facts\":[{\"fact\":\"move\",\"who\":\"tony\",\"from\":[1,1],\"to\":[40,1],"
               "\"squares\":1}]}",
               "facts[0].to", "not a square of the map");
    expect_bad("{\"command\":{\"action\":\"next\"},\"dice\":[],\"choices\":[],"
               "\"facts\":[{\"fact\":\"attack\",\"who\":\"tony\",\"target\":\"orc-1\",\"d20\":3}]}",
               "facts[0].bonus", "bonus");
    expect_bad("{\"command\":{\"action\":\"next\"},\"choices\":[]}", "dice", "dice");
    expect_bad("[1,2]", "", "an object");
}

/* A journal written before the reasons were words (a number) still reads. */
Test(alloy_json, no_effect_reason_as_a_number_still_reads) {
    event_of("tony walk 1,2 2,3");
    add_fact(FA_FACT_NO_EFFECT, FX_ANA, FX_ORC1, FA_NOTE_SNARED, 0, 0, 0, 0, 0);
    fa_event_json(S, EV, J1, sizeof J1);
    char *p = strstr(J1, "\"snared\"");
    cr_assert_not_null(p, "%s", J1);
    char old[sizeof J1];
    snprintf(old, sizeof old, "%.*s%d%s", (int)(p - J1), J1, FA_NOTE_SNARED,
             p + strlen("\"snared\""));
    char field[96], why[200];
    cr_assert_eq(read_back(old, field, why), FRAY_OK, "%s: %s", field, why);
    cr_assert_eq(BACK->facts[0].v[0], FA_NOTE_SNARED);
    expect_bad("{\"event\":1,\"round\":1,\"command\":{\"action\":\"walk\",\"actor\":\"tony\",\"path\":[[1,2]]},"
               "\"dice\":[],\"choices\":[],\"facts\":[{\"fact\":\"no-effect\",\"who\":\"ana\",\"reason\":\"tired\"}]}",
               "facts[0].reason", "why the action had no effect");
}
