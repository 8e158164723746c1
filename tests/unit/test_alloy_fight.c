/*
 * test_alloy_fight.c - Alloy through its table of functions
 * (fray__alloy_ruleset, src/encounter/ruleset.h): the table filled; events
 * packed, read from JSON and told; and, with the engine, a fight begun,
 * stepped, a command with dice rolled by hand, a journal of packed events
 * replayed to the same state, refused commands that change nothing.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "alloy_face_fixture.h"
#include "jread.h"
#include "ruleset.h"

static const fray__ruleset *RS = &fray__alloy_ruleset;
static fa_setup *S;

static void setup(void) { S = fx_setup(); }
static void teardown(void) { free(S); }

TestSuite(alloy_fight, .init = setup, .fini = teardown);

Test(alloy_fight, the_table_is_filled) {
    cr_assert_str_eq(RS->name, "alloy");
    cr_assert_str_eq(RS->title, "Alloy");
    cr_assert_str_eq(RS->time_unit, "round");
    cr_assert(RS->load && RS->check && RS->setup_free && RS->setup_copy &&
              RS->vary && RS->setup_name && RS->setup_seed && RS->sides &&
              RS->side_name && RS->combatants && RS->combatant_name &&
              RS->combatant_id && RS->combatant_side);
    cr_assert(RS->fight_new && RS->fight_free && RS->begin && RS->over &&
              RS->winner && RS->now && RS->turn && RS->step && RS->command &&
              RS->event_pack && RS->replay && RS->same);
    cr_assert(RS->event_action && RS->event_narrate && RS->event_json &&
              RS->event_read && RS->draw_time && RS->draw_map && RS->summary);
    cr_assert(RS->sim_fight_new && RS->reset_trial && RS->run && RS->count &&
              RS->action_name && RS->harm_name && RS->spent_name);
    cr_assert(RS->duel_odds && RS->duel_estimate && RS->duel_setup);
    cr_assert_geq(RS->event_max, sizeof(fa_command) + FA_EVENT_DICE * sizeof(fa_die));
    /* The setup's words. */
    cr_assert_str_eq(RS->setup_name(S), "Alley fight");
    cr_assert_eq(RS->sides(S), 2);
    cr_assert_str_eq(RS->side_name(S, 1), "orcs");
    cr_assert_null(RS->side_name(S, 2));
    cr_assert_eq(RS->combatants(S), FX_N);
    cr_assert_str_eq(RS->combatant_name(S, FX_ORC1), "orc 1");
    cr_assert_str_eq(RS->combatant_id(S, FX_ORC1), "orc-1");
    cr_assert_eq(RS->combatant_side(S, FX_ORC1), 1);
    uint64_t seed = 0;
    cr_assert(!RS->setup_seed(S, &seed));
    /* The simulation's names: actions in fa_cmd_title order. */
    cr_assert_str_eq(RS->action_name(0), "Attack");
    cr_assert_str_eq(RS->action_name(FA_CMD_WALK - FA_CMD_ATTACK), "Walk");
    cr_assert_str_eq(RS->action_name(FA_CMD_END_TURN - FA_CMD_ATTACK), "End Turn");
    cr_assert_str_eq(RS->action_name(FA_CMD_SKILL - FA_CMD_ATTACK), "Use a Skill");
    cr_assert_str_eq(RS->action_name(FA_CMD_KINDS - FA_CMD_ATTACK - 1), "GM's override");
    cr_assert_null(RS->action_name(FA_CMD_KINDS - FA_CMD_ATTACK));
    cr_assert_null(RS->action_name(FRAY_SIM_ACTION_KINDS));
    cr_assert_str_eq(RS->harm_name(0), "damage");
    cr_assert_null(RS->harm_name(1));
    cr_assert_str_eq(RS->spent_name(0), "action points");
    cr_assert_str_eq(RS->spent_name(1), "heroic surges");
    cr_assert_null(RS->spent_name(2));
}

/* A journal line read into a packed event and written again: the same
 * line; its action and narration from the packed bytes. */
Test(alloy_fight, packed_events_from_json_and_back) {
    static const char line[] =
        "{\"event\":4,\"round\":2,\"command\":{\"action\":\"attack\",\"actor\":\"tony\","
        "\"weapon\":\"pistol\",\"targets\":[\"orc-1\"]},\"dice_given\":true,"
        "\"dice\":[{\"d\":20,\"v\":19,\"for\":\"attack\",\"by\":\"tony\"},"
        "{\"d\":6,\"v\":3,\"for\":\"damage\",\"by\":\"tony\"}],\"choices\":[],"
        "\"facts\":[{\"fact\":\"attack\",\"who\":\"tony\",\"target\":\"orc-1\",\"d20\":19,"
        "\"bonus\":4,\"total\":23,\"defense\":\"Defense\",\"defense_value\":15,"
        "\"result\":\"hit\"},{\"fact\":\"damage\",\"who\":\"tony\",\"target\":\"orc-1\","
        "\"damage\":8,\"hp_left\":7,\"rolled\":8}]}";
    json_error_t err;
    json_t *o = json_loads(line, 0, &err);
    cr_assert_not_null(o);
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray__jline l = {line, strlen(line), &d};
    uint8_t *ev = malloc(RS->event_max);
    size_t len = 0;
    cr_assert_eq(RS->event_read(S, &l, o, ev, &len, &d), FRAY_OK, "%s", d.message);
    json_decref(o);
    cr_assert_gt(len, 0);
    cr_assert_leq(len, RS->event_max);
    char out[4096];
    RS->event_json(S, ev, len, out, sizeof out);
    cr_assert_str_eq(out, line);
    cr_assert_str_eq(RS->event_action(S, ev, len), "attack");
    RS->event_narrate(S, ev, len, out, sizeof out);
    cr_assert(strstr(out, "Round 2 - Tony: Attack on orc 1 with the Pistol (dice "
                          "rolled at the table)."), "%s", out);
    cr_assert(strstr(out, "orc 1 takes 8 damage from Tony (d6 3 + 5 = 8): 7 hit points left."),
              "%s", out);
    /* A cut packed event is not read as one. */
    RS->event_narrate(S, ev, len - 1, out, sizeof out);
    cr_assert_str_eq(out, "");
    free(ev);
}

/* A field that cannot be read is named with its column in the line. */
Test(alloy_fight, event_read_names_field_and_column) {
    static const char line[] =
        "{\"command\":{\"action\":\"attack\",\"actor\":\"tony\",\"targets\":[\"orc-1\",\"orc-7\"]},"
        "\"dice\":[],\"choices\":[]}";
    json_error_t err;
    json_t *o = json_loads(line, 0, &err);
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray__jline l = {line, strlen(line), &d};
    uint8_t *ev = malloc(RS->event_max);
    size_t len = 0;
    cr_assert_eq(RS->event_read(S, &l, o, ev, &len, &d), FRAY_ERR_PARSE);
    json_decref(o);
    cr_assert(strstr(d.message, "command.targets[1]: 'orc-7' is not a combatant"), "%s",
              d.message);
    cr_assert_eq(d.column, (int)(strstr(line, "\"orc-7\"") - line) + 1, "%d: %s",
                 d.column, d.message);
    free(ev);
}

/* ---- With the engine --------------------------------------------------------- */


typedef struct journal {
    uint8_t *buf;
    size_t off[512];
    int n;
} journal;

static void *new_fight(void) {
    fray__fight_opts o = {.facts = true, .record = true};
    void *f = NULL;
    cr_assert_eq(RS->fight_new(S, &o, NULL, &f), FRAY_OK);
    return f;
}

static void keep(journal *j, const void *f) {
    cr_assert_lt(j->n, 511);
    size_t n = RS->event_pack(f, j->buf + j->off[j->n]);
    cr_assert_gt(n, 0);
    j->off[j->n + 1] = j->off[j->n] + n;
    j->n++;
}

/* The journal replayed on a new fight: the same state as f. */
static void *replayed(const journal *j, uint64_t seed) {
    void *g = new_fight();
    for (int i = 0; i < j->n; i++) {
        fray_diag d;
        memset(&d, 0, sizeof d);
        fray_status rc = RS->replay(g, j->buf + j->off[i], j->off[i + 1] - j->off[i],
                                    i == 0, seed, 0, &d);
        cr_assert_eq(rc, FRAY_OK, "event %d: %s", i, d.message);
    }
    return g;
}

/* 004:235 initiative at the start; rounds; the table's commands with dice
 * rolled by hand; the journal replays to the same state; refused commands
 * change nothing. */
Test(alloy_fight, begin_steps_command_replay_refusal_004_235) {
    journal j;
    j.buf = malloc(RS->event_max * 512);
    j.off[0] = 0;
    j.n = 0;
    void *f = new_fight();
    cr_assert_eq(RS->begin(f, 42, 0, NULL), FRAY_OK);
    keep(&j, f);
    cr_assert_str_eq(RS->event_action(S, j.buf, j.off[1]), "begin");
    char text[8192];
    RS->event_narrate(S, j.buf, j.off[1], text, sizeof text);
    cr_assert(strstr(text, "rolls initiative: d20"), "%s", text);
    cr_assert(!RS->over(f));
    cr_assert_eq(RS->now(f), 1); /* everyone aware: no surprise round */
    char when[64];
    const char *who = RS->turn(f, when, sizeof when);
    cr_assert_not_null(who);
    cr_assert(strstr(when, "round 1, initiative "), "%s", when);

    /* The table steps the engine until Tony's turn, then Tony fires his
     * pistol at orc 1 (7 squares: short range) with dice rolled by hand. */
    const int dice[] = {19, 3, 4};
    fray_given given = {.dice = dice, .n_dice = 3};
    bool fired = false;
    for (int k = 0; k < 40 && !fired && !RS->over(f); k++) {
        fray_diag d;
        who = RS->turn(f, NULL, 0);
        if (who && strcmp(who, "Tony") == 0 &&
            RS->command(f, "tony attack orc-1 with pistol", &given, &d) == FRAY_OK) {
            keep(&j, f);
            fired = true;
            break;
        }
        cr_assert_eq(RS->command(f, "next", NULL, &d), FRAY_OK, "%s", d.message);
        keep(&j, f);
    }
    cr_assert(fired, "Tony never got to fire");
    size_t last = j.off[j.n] - j.off[j.n - 1];
    RS->event_json(S, j.buf + j.off[j.n - 1], last, text, sizeof text);
    cr_assert(strstr(text, "\"dice_given\":true"), "%s", text);
    cr_assert(strstr(text, "{\"d\":20,\"v\":19,\"for\":\"attack\",\"by\":\"tony\"}"), "%s", text);

    /* Steps by the policies. */
    for (int k = 0; k < 6 && !RS->over(f); k++) {
        cr_assert_eq(RS->step(f), FRAY_OK);
        keep(&j, f);
    }

    /* The journal replays to the same state. */
    void *g = replayed(&j, 42);
    cr_assert(RS->same(f, g));

    /* Refused: not its turn, a bad word, dice that do not fit: nothing
     * changes (the fight is still the replayed one's twin). */
    fray_diag d;
    who = RS->turn(f, NULL, 0);
    const char *other = who && strcmp(who, "orc 2") == 0 ? "orc-1" : "orc-2";
    char cmd[64];
    snprintf(cmd, sizeof cmd, "%s total-defense", other);
    if (!RS->over(f)) {
        cr_assert_eq(RS->command(f, cmd, NULL, &d), FRAY_ERR_INVALID, "%s", cmd);
        cr_assert(RS->same(f, g));
        cr_assert_eq(RS->command(f, "tony dance", NULL, &d), FRAY_ERR_PARSE);
        cr_assert_eq(d.column, 6);
        cr_assert(RS->same(f, g));
        const int bad[] = {25};
        fray_given bg = {.dice = bad, .n_dice = 1};
        cr_assert_neq(RS->command(f, "next", &bg, &d), FRAY_OK);
        cr_assert(RS->same(f, g));
        /* An event applied where it does not fit is refused, and changes
         * nothing: the begin event again in the middle. */
        cr_assert_neq(RS->replay(f, j.buf, j.off[1], false, 42, 0, &d), FRAY_OK);
        cr_assert(RS->same(f, g));
    }
    RS->fight_free(g);
    RS->fight_free(f);
    free(j.buf);
}

/* The simulation's loop: a whole fight quietly, its numbers counted;
 * the same trial twice gives the same fight. */
Test(alloy_fight, simulation_counts_a_trial) {
    void *f = NULL;
    cr_assert_eq(RS->sim_fight_new(S, 7, 0, NULL, NULL, &f), FRAY_OK);
    cr_assert_eq(RS->reset_trial(f, 7, 3), FRAY_OK);
    cr_assert_eq(RS->run(f), FRAY_OK);
    cr_assert(RS->over(f));
    fray_sim_counts *c = calloc(1, sizeof *c);
    RS->count(f, c);
    cr_assert_eq(c->trials, 1);
    cr_assert_eq(c->wins[0] + c->wins[1] + c->all_out + c->unfinished, 1);
    uint64_t dealt = 0, taken = 0, acts = 0;
    for (int i = 0; i < FX_N; i++) {
        dealt += c->c[i].stun_dealt;
        taken += c->c[i].stun_taken;
        acts += c->c[i].actions;
    }
    cr_assert_gt(taken, 0);
    cr_assert_leq(dealt, taken);
    cr_assert_gt(acts, 0);
    void *g = NULL;
    cr_assert_eq(RS->sim_fight_new(S, 7, 0, NULL, NULL, &g), FRAY_OK);
    cr_assert_eq(RS->reset_trial(g, 7, 3), FRAY_OK);
    cr_assert_eq(RS->run(g), FRAY_OK);
    cr_assert(RS->same(f, g));
    free(c);
    RS->fight_free(g);
    RS->fight_free(f);
}

/* Without the engine too: a command before the fight begins is refused. */
Test(alloy_fight, command_before_begin_refused) {
    fray__fight_opts o = {.facts = true};
    void *f = NULL;
    cr_assert_eq(RS->fight_new(S, &o, NULL, &f), FRAY_OK);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(RS->command(f, "tony attack orc-1", NULL, &d), FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "not begun"), "%s", d.message);
    cr_assert_eq(RS->event_pack(f, NULL), 0);
    cr_assert_null(RS->turn(f, NULL, 0));
    RS->fight_free(f);
}

/* 004:453-461 the table declines an opportunity attack: `decline ID`
 * becomes the choice "not taken", told, and replayed as made. */
Test(alloy_fight, table_declines_an_opportunity_attack_004_453) {
    /* orc 1 next to Tony (1,1): Tony walking away provokes. */
    S->c[FX_ORC1].at.x = 2;
    S->c[FX_ORC1].at.y = 2;
    void *f = new_fight();
    cr_assert_eq(RS->begin(f, 5, 0, NULL), FRAY_OK);
    fray_diag d;
    bool walked = false;
    for (int k = 0; k < 20 && !walked; k++) {
        const char *who = RS->turn(f, NULL, 0);
        if (who && strcmp(who, "Tony") == 0 &&
            RS->command(f, "tony walk 0,1 0,0 decline orc-1", NULL, &d) == FRAY_OK) {
            walked = true;
            break;
        }
        cr_assert_eq(RS->command(f, "next", NULL, &d), FRAY_OK, "%s", d.message);
    }
    cr_assert(walked, "Tony never got to walk");
    uint8_t *ev = malloc(RS->event_max);
    size_t len = RS->event_pack(f, ev);
    char text[8192];
    RS->event_json(S, ev, len, text, sizeof text);
    cr_assert(strstr(text, "\"decline\":[\"orc-1\"]"), "%s", text);
    cr_assert(strstr(text, "{\"choice\":\"opportunity\",\"who\":\"orc-1\",\"other\":\"tony\",\"value\":0}"),
              "%s", text);
    RS->event_narrate(S, ev, len, text, sizeof text);
    cr_assert(strstr(text, "orc 1 declines its opportunity attack on Tony."), "%s", text);
    cr_assert_null(strstr(text, "orc 1 attacks Tony"), "%s", text);
    free(ev);
    RS->fight_free(f);
}

/* The fight's round limit (`until`): the fight stops before the round
 * after it begins; nobody wins; the step that found it makes no event. */
Test(alloy_fight, round_limit_stops_before_the_next_round) {
    fray__fight_opts o = {.facts = true, .record = true, .until = 1};
    void *f = NULL;
    cr_assert_eq(RS->fight_new(S, &o, NULL, &f), FRAY_OK);
    cr_assert_eq(RS->begin(f, 11, 0, NULL), FRAY_OK);
    uint8_t *ev = malloc(RS->event_max);
    int k = 0;
    for (; k < 200 && !RS->over(f); k++) {
        cr_assert_eq(RS->step(f), FRAY_OK);
        if (!RS->over(f))
            cr_assert_gt(RS->event_pack(f, ev), 0);
    }
    cr_assert(RS->over(f));
    cr_assert_eq(RS->now(f), 1);
    if (RS->winner(f) == -1)
        cr_assert_eq(RS->event_pack(f, ev), 0); /* stopped, not won */
    cr_assert_null(RS->turn(f, NULL, 0));
    cr_assert_eq(RS->step(f), FRAY_ERR_INVALID);
    free(ev);
    RS->fight_free(f);
}
