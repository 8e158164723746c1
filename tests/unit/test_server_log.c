/*
 * test_server_log.c - the log a player reads, from data, not words
 * (issue 14 "never GM-only data: hidden or not-yet-noticed combatants";
 * docs/server.md "The log a player reads"): fray_event_names says whom
 * each event points at, for 99 Towers and Alloy, and the server's player
 * log leaves out an event that names a combatant the player's scope does
 * not see, even when its narration never says that combatant's name.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "fray/fray.h"

/* ---- The library: fray_event_names ------------------------------------------ */

static fray_setup *load(const char *rel) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, rel);
    fray_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_setup_load(path, NULL, &s, &d), FRAY_OK, "%s: %s", path,
                 d.message);
    return s;
}

static fray_fight *begin(const fray_setup *s, uint64_t seed) {
    fray_fight_options fo = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(s, seed, &fo, NULL, NULL, &f), FRAY_OK);
    return f;
}

/* Every combatant whose id the event's journal line holds (as a JSON
 * string: "actor": "tony", "targets": ["thug-1"], "decline": ["boss"]) is
 * one the event names: what the journal tells, the names say. */
static void names_cover_the_journal_line(const fray_fight *f, int i) {
    const fray_setup *s = fray_fight_setup(f);
    int n = fray_setup_combatants(s);
    bool named[64];
    cr_assert_leq(n, 64);
    memset(named, 0, sizeof named);
    int k = fray_event_names(f, i, named, n);
    cr_assert_geq(k, 0, "event %d: the ruleset says whom it names", i);
    int count = 0;
    for (int c = 0; c < n; c++)
        count += named[c];
    cr_assert_eq(k, count, "event %d: the count is of those set", i);
    size_t len = fray_event_json(f, i, NULL, 0);
    char *line = malloc(len + 1);
    cr_assert_not_null(line);
    fray_event_json(f, i, line, len + 1);
    for (int c = 0; c < n; c++) {
        char quoted[80];
        snprintf(quoted, sizeof quoted, "\"%s\"", fray_setup_combatant_id(s, c));
        if (strstr(line, quoted))
            cr_assert(named[c], "event %d tells of %s but does not name it: %s",
                      i, quoted, line);
    }
    free(line);
}

/* 99 Towers: a whole skirmish by the tactics; every event's names cover
 * its journal line, and the begin event names every combatant (each
 * flips for initiative). */
Test(server_log, towers_event_names_cover_every_journal_line) {
    fray_setup *s = load("examples/towers/skirmish.yaml");
    fray_fight *f = begin(s, 5);
    for (int guard = 0; guard < 400 && !fray_fight_over(f); guard++)
        cr_assert_eq(fray_fight_step(f), FRAY_OK);
    cr_assert_gt(fray_fight_events(f), 10);
    for (int i = 0; i < fray_fight_events(f); i++)
        names_cover_the_journal_line(f, i);
    bool named[64];
    cr_assert_eq(fray_event_names(f, 0, named, 64), fray_setup_combatants(s),
                 "the begin event names everyone");
    cr_assert_eq(fray_event_names(f, 0, named, 1), -1, "no room: -1");
    cr_assert_eq(fray_event_names(f, fray_fight_events(f), named, 64), -1,
                 "no such event: -1");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Alloy: the reinforcements by the tactics to the end (Big Sal joins in
 * round 3): every event's names cover its journal line. */
Test(server_log, alloy_event_names_cover_every_journal_line) {
    fray_setup *s = load("examples/alloy/reinforcements.yaml");
    fray_fight *f = begin(s, 3);
    for (int guard = 0; guard < 2000 && !fray_fight_over(f); guard++)
        cr_assert_eq(fray_fight_step(f), FRAY_OK);
    cr_assert_gt(fray_fight_events(f), 10);
    for (int i = 0; i < fray_fight_events(f); i++)
        names_cover_the_journal_line(f, i);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Alloy: a walk that declines the opportunity attack of one not yet in
 * the fight names it (the command's `decline boss`), though its
 * narration says only "Vance: Walk to 4,2". */
Test(server_log, alloy_a_decline_names_whom_it_declines) {
    fray_setup *s = load("examples/alloy/reinforcements.yaml");
    fray_fight *f = begin(s, 3);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_fight_command(f, "next", NULL, &d), FRAY_OK, "%s",
                 d.message);
    cr_assert_eq(fray_fight_command(f, "merc walk 4,2 decline boss", NULL, &d),
                 FRAY_OK, "%s", d.message);
    int i = fray_fight_events(f) - 1;
    char text[512];
    fray_event_narrate(f, i, text, sizeof text);
    cr_assert_null(strstr(text, "Big Sal"), "%s", text);
    cr_assert_null(strstr(text, "boss"), "%s", text);
    bool named[64];
    cr_assert_eq(fray_event_names(f, i, named, 64), 1 + 1);
    cr_assert(named[0] && named[4], "Vance (0) and Big Sal (4)");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* ---- The server's player log ----------------------------------------------------- */

static char dir[64];

static void make_data(void) {
    snprintf(dir, sizeof dir, "/tmp/fray-log-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s/encounters/examples' '%s/encounters/data' && "
             "cp -r '%s/examples/alloy' '%s/examples/towers' "
             "'%s/encounters/examples/' && "
             "cp -r '%s/data/alloy' '%s/data/towers' '%s/encounters/data/'",
             dir, dir, FRAY_SOURCE_DIR, FRAY_SOURCE_DIR, dir, FRAY_SOURCE_DIR,
             FRAY_SOURCE_DIR, dir);
    cr_assert_eq(system(cmd), 0);
}

static void remove_data(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

static int ask(fsv_server *s, const char *token, const char *method,
               const char *path, const char *body, char **out) {
    char auth[160];
    snprintf(auth, sizeof auth, "Bearer %s", token ? token : fsv_gm_token(s));
    fsv_response r;
    fsv_request(s, method, path, auth, body, body ? strlen(body) : 0, &r);
    *out = malloc(r.len + 1);
    cr_assert_not_null(*out);
    memcpy(*out, r.body, r.len);
    (*out)[r.len] = '\0';
    int st = r.status;
    fsv_response_free(&r);
    return st;
}

/* A string value of the answer ("token": "..."). */
static void value_of(const char *body, const char *key, char *out, size_t n) {
    char k[64];
    snprintf(k, sizeof k, "\"%s\":\"", key);
    const char *p = strstr(body, k);
    cr_assert_not_null(p, "%s in %s", key, body);
    p += strlen(k);
    size_t len = strcspn(p, "\"");
    cr_assert_lt(len, n);
    memcpy(out, p, len);
    out[len] = '\0';
}

/* The "log" of a state answer holds event number i. */
static bool log_has(const char *state, int i) {
    const char *log = strstr(state, "\"log\":[");
    cr_assert_not_null(log);
    char k[32];
    snprintf(k, sizeof k, "{\"event\":%d,", i);
    return strstr(log, k) != NULL;
}

/* Issue 14 "never GM-only data" and "exact numbers of enemies the GM
 * keeps hidden": Vance's player does not see Big Sal
 * (not yet in the fight); Vance's walk that declines Big Sal's
 * opportunity attack never says Big Sal's name or id, yet its journal
 * line does: the player's log leaves it out, by whom the event names,
 * and keeps the next walk, which names only Vance. The GM reads both. */
Test(server_log, player_log_drops_an_event_naming_a_hidden_one_only_in_its_data) {
    make_data();
    fsv_server *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fsv_open(dir, false, NULL, &s, &d), FRAY_OK, "%s", d.message);
    char *body = NULL;
    cr_assert_eq(ask(s, NULL, "POST", "/api/fights",
                     "{\"encounter\":\"examples/alloy/reinforcements.yaml\","
                     "\"seed\":3}", &body), 201, "%s", body);
    int id = atoi(strstr(body, "\"id\":") + 5);
    free(body);
    char path[96], token[80];
    snprintf(path, sizeof path, "/api/fights/%d/players", id);
    cr_assert_eq(ask(s, NULL, "POST", path,
                     "{\"name\":\"Ann\",\"combatants\":[\"merc\"]}", &body),
                 201, "%s", body);
    value_of(body, "token", token, sizeof token);
    free(body);
    snprintf(path, sizeof path, "/api/fights/%d/command", id);
    static const char *const cmds[] = {"next", "merc walk 4,2 decline boss",
                                       "merc walk 5,2"};
    for (int i = 0; i < 3; i++) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "{\"text\":\"%s\"}", cmds[i]);
        cr_assert_eq(ask(s, NULL, "POST", path, cmd, &body), 200, "%s", body);
        free(body);
    }
    snprintf(path, sizeof path, "/api/fights/%d", id);
    cr_assert_eq(ask(s, token, "GET", path, NULL, &body), 200, "%s", body);
    cr_assert(log_has(body, 0) && log_has(body, 1), "the begin and next: %s",
              body);
    cr_assert(!log_has(body, 2), "the walk declining Big Sal is left out");
    cr_assert(log_has(body, 3), "the walk naming only Vance is kept");
    cr_assert_null(strstr(body, "Big Sal"));
    cr_assert_null(strstr(body, "\"boss\""));
    free(body);
    cr_assert_eq(ask(s, NULL, "GET", path, NULL, &body), 200, "%s", body);
    cr_assert(log_has(body, 2) && log_has(body, 3), "the GM reads both");
    free(body);
    /* A player whose scope hides the enemies' numbers (enemy_numbers
     * false) reads every event it may see told in full, the enemies' HP
     * in words (issue 14; fray_event_narrate_for): the begin event with
     * the thugs' initiative rolls (dice, not numbers of their health),
     * and the walk of its own side. */
    snprintf(path, sizeof path, "/api/fights/%d/players", id);
    cr_assert_eq(ask(s, NULL, "POST", path,
                     "{\"name\":\"Bo\",\"combatants\":[\"merc\"],"
                     "\"enemy_numbers\":false}", &body),
                 201, "%s", body);
    char hidden[80];
    value_of(body, "token", hidden, sizeof hidden);
    free(body);
    snprintf(path, sizeof path, "/api/fights/%d", id);
    cr_assert_eq(ask(s, hidden, "GET", path, NULL, &body), 200, "%s", body);
    const char *log = strstr(body, "\"log\":[");
    cr_assert_not_null(strstr(log, "{\"event\":0,\"text\":\"Initiative."),
                       "the begin event told in full: %s", log);
    cr_assert_not_null(strstr(log, "Thug 1 rolls initiative: d20 "),
                       "the thugs' rolls told: %s", log);
    cr_assert_null(strstr(log, "\"brief\""), "nothing told briefly: %s", log);
    cr_assert_null(strstr(log, "hit point"), "no HP told: %s", log);
    cr_assert(!log_has(body, 2), "not the walk declining Big Sal");
    cr_assert(log_has(body, 3), "the walk of Vance alone is kept: %s", body);
    cr_assert_not_null(strstr(log, "Vance moves from 4,2 to 5,2"), "%s", log);
    free(body);
    cr_assert_eq(fsv_close(s, &d), FRAY_OK, "%s", d.message);
    remove_data();
}

/* Issue 14 "never GM-only data", live: the pages of one scope share one
 * state event per change, but a player's stream never gets the GM's (nor
 * the GM's stream a player's), whichever wakes first. */
Test(server_log, live_streams_share_a_state_only_within_one_scope) {
    make_data();
    fsv_server *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fsv_open(dir, false, NULL, &s, &d), FRAY_OK, "%s", d.message);
    char *body = NULL;
    cr_assert_eq(ask(s, NULL, "POST", "/api/fights",
                     "{\"encounter\":\"examples/alloy/reinforcements.yaml\","
                     "\"seed\":3}", &body), 201, "%s", body);
    int id = atoi(strstr(body, "\"id\":") + 5);
    free(body);
    char path[96], token[80], auth_gm[160], auth_p[160];
    snprintf(path, sizeof path, "/api/fights/%d/players", id);
    cr_assert_eq(ask(s, NULL, "POST", path,
                     "{\"name\":\"Ann\",\"combatants\":[\"merc\"]}", &body),
                 201, "%s", body);
    value_of(body, "token", token, sizeof token);
    free(body);
    snprintf(auth_gm, sizeof auth_gm, "Bearer %s", fsv_gm_token(s));
    snprintf(auth_p, sizeof auth_p, "Bearer %s", token);
    snprintf(path, sizeof path, "/api/fights/%d/live", id);
    fsv_live *gm[2], *pl[2];
    fsv_response r;
    for (int i = 0; i < 2; i++) {
        fsv_live_open(s, path, auth_gm, &gm[i], &r);
        cr_assert_not_null(gm[i]);
        fsv_live_open(s, path, auth_p, &pl[i], &r);
        cr_assert_not_null(pl[i]);
    }
    snprintf(path, sizeof path, "/api/fights/%d/step", id);
    for (int round = 0; round < 3; round++) {
        /* The first state at once, then one per step; who reads first
         * changes each round. */
        char *g[2], *p[2];
        size_t gl[2], pll[2];
        for (int i = 0; i < 2; i++) {
            bool player_first = (round + i) % 2 == 1;
            if (player_first)
                cr_assert_eq(fsv_live_next(pl[i], 2000, &p[i], &pll[i]), 1);
            cr_assert_eq(fsv_live_next(gm[i], 2000, &g[i], &gl[i]), 1);
            if (!player_first)
                cr_assert_eq(fsv_live_next(pl[i], 2000, &p[i], &pll[i]), 1);
        }
        cr_assert_str_eq(g[0], g[1], "one scope, one state");
        cr_assert_str_eq(p[0], p[1], "one scope, one state");
        cr_assert_not_null(strstr(g[0], "\"gm\":true"));
        cr_assert_not_null(strstr(g[0], "Big Sal"), "the GM sees Big Sal");
        cr_assert_not_null(strstr(p[0], "\"gm\":false"));
        cr_assert_null(strstr(p[0], "Big Sal"), "the player never does");
        cr_assert_null(strstr(p[0], "\"boss\""));
        for (int i = 0; i < 2; i++) {
            free(g[i]);
            free(p[i]);
        }
        cr_assert_eq(ask(s, NULL, "POST", path, NULL, &body), 200, "%s", body);
        free(body);
    }
    for (int i = 0; i < 2; i++) {
        fsv_live_close(gm[i]);
        fsv_live_close(pl[i]);
    }
    cr_assert_eq(fsv_close(s, &d), FRAY_OK, "%s", d.message);
    remove_data();
}
