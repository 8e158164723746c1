/*
 * The server's calls without HTTP (src/server/api.c; docs/server.md): the
 * GM's token, a refused command that writes nothing, a fight that cannot
 * be resumed said and not dropped, the live stream's wake-ups, the JSON
 * text the answers are written with. tests/server/run_serve.sh runs the
 * same calls over real HTTP.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, strdup */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "fray/fray.h"
#include "store.h"
#include "text.h"

static char dir[64];

/* A data folder whose encounters/ holds the 99 Towers duel and the files
 * it names, at their paths in the source tree. */
static void make_data(void) {
    snprintf(dir, sizeof dir, "/tmp/fray-api-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s/encounters/examples/towers' "
             "'%s/encounters/data/towers' && "
             "cp '%s/examples/towers/duel.yaml' "
             "'%s/examples/towers/statblocks.yaml' "
             "'%s/encounters/examples/towers/' && "
             "cp '%s/data/towers/equipment.yaml' '%s/encounters/data/towers/'",
             dir, dir, FRAY_SOURCE_DIR, FRAY_SOURCE_DIR, dir, FRAY_SOURCE_DIR,
             dir);
    cr_assert_eq(system(cmd), 0);
}

static void remove_data(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

static fsv_server *open_server(bool new_token, FILE *log) {
    fsv_server *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fsv_open(dir, new_token, log, &s, &d), FRAY_OK, "%s",
                 d.message);
    return s;
}

static void close_server(fsv_server *s) {
    fray_diag d;
    cr_assert_eq(fsv_close(s, &d), FRAY_OK, "%s", d.message);
}

/* A request as the GM (or with `token`); the answer's body in *body
 * (malloc'd), its status returned. */
static int ask(fsv_server *s, const char *token, const char *method,
               const char *path, const char *body, char **out) {
    char auth[160];
    snprintf(auth, sizeof auth, "Bearer %s", token ? token : fsv_gm_token(s));
    fsv_response r;
    fsv_request(s, method, path, auth, body, body ? strlen(body) : 0, &r);
    if (out) {
        *out = malloc(r.len + 1);
        cr_assert_not_null(*out);
        memcpy(*out, r.body, r.len);
        (*out)[r.len] = '\0';
    }
    int st = r.status;
    fsv_response_free(&r);
    return st;
}

static char *journal(fsv_server *s, int64_t id) {
    char path[64], *body = NULL;
    snprintf(path, sizeof path, "/api/fights/%lld/journal", (long long)id);
    cr_assert_eq(ask(s, NULL, "GET", path, NULL, &body), 200);
    return body;
}

static int lines_of(const char *text) {
    int n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    return n;
}

static int64_t new_duel(fsv_server *s) {
    char *body = NULL;
    cr_assert_eq(ask(s, NULL, "POST", "/api/fights",
                     "{\"encounter\":\"examples/towers/duel.yaml\",\"seed\":9}",
                     &body),
                 201, "%s", body);
    const char *p = strstr(body, "\"id\":");
    cr_assert_not_null(p);
    int64_t id = strtoll(p + 5, NULL, 10);
    free(body);
    return id;
}

Test(server_api, the_gm_token_is_made_once_and_anew_when_asked) {
    make_data();
    fsv_server *s = open_server(false, NULL);
    char first[80];
    snprintf(first, sizeof first, "%s", fsv_gm_token(s));
    cr_assert_eq(strlen(first), 64);
    cr_assert_eq(strspn(first, "0123456789abcdef"), 64);
    close_server(s);
    s = open_server(false, NULL);
    cr_assert_str_eq(fsv_gm_token(s), first, "kept in the store");
    close_server(s);
    s = open_server(true, NULL);
    cr_assert_str_neq(fsv_gm_token(s), first, "--new-gm-token");
    /* The old token opens nothing now. */
    char *body = NULL;
    cr_assert_eq(ask(s, first, "GET", "/api/fights", NULL, &body), 401);
    free(body);
    close_server(s);
    remove_data();
}

/* docs/server.md "Nothing acknowledged is lost": a command the rules
 * refuse changes nothing and writes nothing; one they allow is one more
 * line, committed before the answer. */
Test(server_api, a_refused_command_writes_nothing) {
    make_data();
    fsv_server *s = open_server(false, NULL);
    int64_t id = new_duel(s);
    char *j0 = journal(s, id);
    cr_assert_eq(lines_of(j0), 1, "line 0: the begin event");
    char path[64], *body = NULL;
    snprintf(path, sizeof path, "/api/fights/%lld/command", (long long)id);
    cr_assert_eq(ask(s, NULL, "POST", path, "{\"text\":\"aldric fly away\"}",
                     &body),
                 422);
    cr_assert_not_null(strstr(body, "\"error\""), "%s", body);
    free(body);
    char *j1 = journal(s, id);
    cr_assert_str_eq(j0, j1);
    cr_assert_eq(ask(s, NULL, "POST", path, "{\"text\":\"next\"}", &body), 200,
                 "%s", body);
    free(body);
    char *j2 = journal(s, id);
    cr_assert_gt(lines_of(j2), 1);
    cr_assert_eq(strncmp(j0, j2, strlen(j0)), 0, "appended, not rewritten");
    free(j0);
    free(j1);
    free(j2);
    close_server(s);
    remove_data();
}

/* Step 3 of the brief: a fight that cannot be resumed is said on the log
 * and listed with its problem, not silently dropped. */
Test(server_api, a_fight_that_cannot_be_resumed_is_said) {
    make_data();
    fsv_server *s = open_server(false, NULL);
    int64_t id = new_duel(s);
    close_server(s);
    /* A line that does not replay. */
    char db[128];
    snprintf(db, sizeof db, "%s/fray.sqlite", dir);
    fs_store *st = NULL;
    fray_diag d;
    cr_assert_eq(fs_open(db, &st, &d), FRAY_OK, "%s", d.message);
    cr_assert_eq(fs_line_add(st, id, 1, "{\"event\":7}", 11, &d), FRAY_OK);
    cr_assert_eq(fs_close(st, &d), FRAY_OK);
    char logpath[128];
    snprintf(logpath, sizeof logpath, "%s/log.txt", dir);
    FILE *log = fopen(logpath, "w+");
    cr_assert_not_null(log);
    s = open_server(false, log);
    int failed = 0;
    cr_assert_eq(fsv_resumed(s, &failed), 0);
    cr_assert_eq(failed, 1);
    char text[1024] = "";
    rewind(log);
    size_t n = fread(text, 1, sizeof text - 1, log);
    text[n] = '\0';
    cr_assert_not_null(strstr(text, "cannot be resumed"), "%s", text);
    char *body = NULL;
    cr_assert_eq(ask(s, NULL, "GET", "/api/fights", NULL, &body), 200);
    cr_assert_not_null(strstr(body, "\"problem\""), "%s", body);
    free(body);
    char path[64];
    snprintf(path, sizeof path, "/api/fights/%lld", (long long)id);
    cr_assert_eq(ask(s, NULL, "GET", path, NULL, &body), 409);
    free(body);
    close_server(s);
    fclose(log);
    remove_data();
}

/* The live stream: the state at once, nothing until a change (a
 * keep-alive), the state after a change, the end at a stop. */
Test(server_api, the_live_stream_wakes_on_a_change) {
    make_data();
    fsv_server *s = open_server(false, NULL);
    int64_t id = new_duel(s);
    char path[64], auth[160];
    snprintf(path, sizeof path, "/api/fights/%lld/live", (long long)id);
    snprintf(auth, sizeof auth, "Bearer %s", fsv_gm_token(s));
    cr_assert(fsv_is_live("GET", path));
    cr_assert(!fsv_is_live("POST", path));
    fsv_live *l = NULL;
    fsv_response refusal;
    fsv_live_open(s, path, "Bearer nope", &l, &refusal);
    cr_assert_null(l);
    cr_assert_eq(refusal.status, 401);
    fsv_response_free(&refusal);
    fsv_live_open(s, path, auth, &l, &refusal);
    cr_assert_not_null(l);
    char *text = NULL;
    size_t len = 0;
    cr_assert_eq(fsv_live_next(l, 50, &text, &len), 1);
    cr_assert_eq(strncmp(text, "event: state\ndata: {", 20), 0, "%s", text);
    cr_assert_eq(strcmp(text + len - 2, "\n\n"), 0);
    cr_assert_null(memchr(text + 19, '\n', len - 21), "one data line");
    free(text);
    cr_assert_eq(fsv_live_next(l, 50, &text, &len), 0, "no change yet");
    char cmd[64], *body = NULL;
    snprintf(cmd, sizeof cmd, "/api/fights/%lld/step", (long long)id);
    cr_assert_eq(ask(s, NULL, "POST", cmd, NULL, &body), 200);
    free(body);
    cr_assert_eq(fsv_live_next(l, 50, &text, &len), 1, "the step");
    cr_assert_not_null(strstr(text, "\"events\":"), "%s", text);
    free(text);
    fsv_stop(s);
    cr_assert_eq(fsv_live_next(l, 5000, &text, &len), -1, "the stop");
    fsv_live_close(l);
    close_server(s);
    remove_data();
}

/* The answers' JSON: quotes, control characters and bytes that are not
 * UTF-8 never break a string. */
Test(server_api, json_text_escapes) {
    fsv_text t = {0};
    fsv_text_json(&t, "a\"b\\c\nd\x01" "e\xff" "f\xc3\xa9");
    cr_assert(!t.failed);
    cr_assert_str_eq(t.p, "\"a\\\"b\\\\c\\nd\\u0001e\xef\xbf\xbd" "f\xc3\xa9\"");
    fsv_text_free(&t);
    fsv_text_json(&t, NULL);
    cr_assert_str_eq(t.p, "null");
    fsv_text_free(&t);
}
