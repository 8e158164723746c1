/*
 * The server's store (src/server/store.c; docs/server.md "Nothing
 * acknowledged is lost"): what was committed is there after the store is
 * closed and opened again, and a fight rebuilt from it is the identical
 * fight (state, decks, stream), undo marks included.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, strdup */
#include <criterion/criterion.h>

#include <sqlite3.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fray/fray.h"
#include "store.h"

static char dir[64];

static void make_dir(void) {
    snprintf(dir, sizeof dir, "/tmp/fray-store-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

static fs_store *open_store(void) {
    char path[128];
    snprintf(path, sizeof path, "%s/fray.sqlite", dir);
    fs_store *s = NULL;
    fray_diag d;
    fray_status st = fs_open(path, &s, &d);
    cr_assert_eq(st, FRAY_OK, "%s", d.message);
    return s;
}

static void close_store(fs_store *s) {
    fray_diag d;
    cr_assert_eq(fs_close(s, &d), FRAY_OK, "%s", d.message);
}

/* A file of the source tree as the store keeps it: by its path from the
 * tree's root. */
static fs_file source_file(const char *rel) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, rel);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    cr_assert_eq(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    cr_assert_geq(n, 0);
    cr_assert_eq(fseek(f, 0, SEEK_SET), 0);
    fs_file x;
    x.name = strdup(rel);
    x.text = malloc((size_t)n + 1);
    cr_assert(x.name && x.text);
    cr_assert_eq(fread(x.text, 1, (size_t)n, f), (size_t)n);
    x.text[n] = '\0';
    x.len = (size_t)n;
    cr_assert_eq(fclose(f), 0);
    return x;
}

Test(server_store, meta_and_version_survive_a_reopen) {
    make_dir();
    fs_store *s = open_store();
    fray_diag d;
    cr_assert_eq(fs_meta_set(s, "gm-token", "abc123", &d), FRAY_OK);
    close_store(s);
    s = open_store();
    char buf[64];
    bool found;
    cr_assert_eq(fs_meta_get(s, "gm-token", buf, sizeof buf, &found, &d),
                 FRAY_OK);
    cr_assert(found);
    cr_assert_str_eq(buf, "abc123");
    cr_assert_eq(fs_meta_get(s, "nothing", buf, sizeof buf, &found, &d),
                 FRAY_OK);
    cr_assert(!found);
    /* A store of another format is refused, in words. */
    cr_assert_eq(fs_meta_set(s, "version", "99", &d), FRAY_OK);
    close_store(s);
    char path[128];
    snprintf(path, sizeof path, "%s/fray.sqlite", dir);
    fs_store *t = NULL;
    cr_assert_eq(fs_open(path, &t, &d), FRAY_ERR_INVALID);
    cr_assert_null(t);
    cr_assert_not_null(strstr(d.message, "format 99"), "%s", d.message);
    remove_dir();
}

Test(server_store, lines_are_kept_in_order_and_numbered) {
    make_dir();
    fs_store *s = open_store();
    fray_diag d;
    fs_file f = {"a.yaml", "fray: encounter\n", 15};
    int64_t id = 0;
    cr_assert_eq(fs_fight_add(s, "Test", "towers", 7, &f, 1, &id, &d),
                 FRAY_OK, "%s", d.message);
    cr_assert_gt(id, 0);
    cr_assert_eq(fs_line_add(s, id, 0, "{\"a\":1}", 7, &d), FRAY_OK);
    cr_assert_eq(fs_line_add(s, id, 1, "{\"b\":2}", 7, &d), FRAY_OK);
    /* A gap, a line given twice, a newline inside, no such fight: refused,
     * and nothing written. */
    cr_assert_eq(fs_line_add(s, id, 3, "{}", 2, &d), FRAY_ERR_INVALID);
    cr_assert_not_null(strstr(d.message, "the next is 2"), "%s", d.message);
    cr_assert_eq(fs_line_add(s, id, 1, "{}", 2, &d), FRAY_ERR_INVALID);
    cr_assert_eq(fs_line_add(s, id, 2, "{}\n{}", 5, &d), FRAY_ERR_INVALID);
    cr_assert_eq(fs_line_add(s, id + 1, 0, "{}", 2, &d), FRAY_ERR_INVALID);
    /* A file's name that would leave the fight's folder. */
    fs_file bad = {"../x.yaml", "x", 1};
    int64_t id2 = 0;
    cr_assert_eq(fs_fight_add(s, "Bad", "towers", 1, &bad, 1, &id2, &d),
                 FRAY_ERR_INVALID);
    close_store(s);

    s = open_store();
    char *text = NULL;
    size_t len = 0;
    int64_t n = 0;
    cr_assert_eq(fs_lines(s, id, &text, &len, &n, &d), FRAY_OK);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(text, "{\"a\":1}\n{\"b\":2}\n");
    free(text);
    fs_fight_row *rows = NULL;
    int nr = 0;
    cr_assert_eq(fs_fights(s, &rows, &nr, &d), FRAY_OK);
    cr_assert_eq(nr, 1); /* (the refused one was not kept) */
    cr_assert_eq(rows[0].id, id);
    cr_assert_str_eq(rows[0].title, "Test");
    cr_assert_str_eq(rows[0].rules, "towers");
    cr_assert_str_eq(rows[0].encounter, "a.yaml");
    cr_assert_eq(rows[0].seed, 7u);
    cr_assert_eq(rows[0].lines, 2);
    cr_assert(!rows[0].archived);
    free(rows);
    cr_assert_eq(fs_archive(s, id, &d), FRAY_OK);
    cr_assert_eq(fs_archive(s, id + 5, &d), FRAY_ERR_INVALID);
    cr_assert_eq(fs_fights(s, &rows, &nr, &d), FRAY_OK);
    cr_assert(rows[0].archived);
    free(rows);
    close_store(s);
    remove_dir();
}

/* Keeps event i of fight f in the store as its journal line. */
static void keep_event(fs_store *s, int64_t id, int64_t *n, fray_fight *f,
                       int i) {
    size_t need = fray_event_json(f, i, NULL, 0);
    char *line = malloc(need + 1);
    cr_assert_not_null(line);
    cr_assert_eq(fray_event_json(f, i, line, need + 1), need);
    fray_diag d;
    cr_assert_eq(fs_line_add(s, id, (*n)++, line, need, &d), FRAY_OK, "%s",
                 d.message);
    free(line);
}

static void keep_mark(fs_store *s, int64_t id, int64_t *n, fray_mark m,
                      int k) {
    char line[128];
    size_t len = fray_journal_mark(m, k, line, sizeof line);
    cr_assert_lt(len, sizeof line);
    fray_diag d;
    cr_assert_eq(fs_line_add(s, id, (*n)++, line, len, &d), FRAY_OK, "%s",
                 d.message);
}

/* docs/server.md: after a stop, a fight resumes at its last kept line with
 * the same state, decks and stream: it goes on exactly as the fight that
 * never stopped. Both rulesets. */
static void resume_case(const char *const *rel, int n_rel) {
    make_dir();
    fs_store *s = open_store();
    fs_file files[4];
    for (int i = 0; i < n_rel; i++)
        files[i] = source_file(rel[i]);
    char enc[512];
    snprintf(enc, sizeof enc, "%s/%s", FRAY_SOURCE_DIR, rel[0]);
    fray_setup *setup = NULL;
    fray_diag d;
    cr_assert_eq(fray_setup_load(enc, NULL, &setup, &d), FRAY_OK, "%s",
                 d.message);
    fray_fight_options fo = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(setup, 11, &fo, NULL, NULL, &f), FRAY_OK);
    int64_t id = 0;
    cr_assert_eq(fs_fight_add(s, fray_setup_name(setup),
                              fray_setup_rules(setup), 11, files, n_rel, &id,
                              &d),
                 FRAY_OK, "%s", d.message);
    int64_t n = 0;
    keep_event(s, id, &n, f, 0); /* the begin event */
    /* Six steps, one taken back, then two more. */
    for (int k = 0; k < 6 && !fray_fight_over(f); k++) {
        cr_assert_eq(fray_fight_step(f), FRAY_OK);
        keep_event(s, id, &n, f, fray_fight_events(f) - 1);
    }
    cr_assert_eq(fray_fight_undo(f), FRAY_OK);
    /* (The mark names the event taken back: docs/journal.md "Marks".) */
    keep_mark(s, id, &n, FRAY_MARK_UNDO, fray_fight_events(f));
    for (int k = 0; k < 2 && !fray_fight_over(f); k++) {
        cr_assert_eq(fray_fight_step(f), FRAY_OK);
        keep_event(s, id, &n, f, fray_fight_events(f) - 1);
    }
    close_store(s);

    s = open_store();
    fray_setup *setup2 = NULL;
    fray_fight *g = NULL;
    cr_assert_eq(fs_resume(s, id, dir, &setup2, &g, &d), FRAY_OK, "%s",
                 d.message);
    cr_assert(fray_fight_same(f, g), "the resumed fight differs");
    cr_assert_eq(fray_fight_events(f), fray_fight_events(g));
    /* The same stream: both go on to the same end. */
    while (!fray_fight_over(f)) {
        cr_assert_eq(fray_fight_step(f), FRAY_OK);
        cr_assert_eq(fray_fight_step(g), FRAY_OK);
    }
    cr_assert(fray_fight_over(g));
    cr_assert(fray_fight_same(f, g));
    cr_assert_eq(fray_fight_winner(f), fray_fight_winner(g));
    /* A fight that is not there. */
    fray_setup *x = NULL;
    fray_fight *y = NULL;
    cr_assert_eq(fs_resume(s, id + 1, dir, &x, &y, &d), FRAY_ERR_INVALID);
    cr_assert_null(y);
    fray_fight_free(g);
    fray_setup_free(setup2);
    fray_fight_free(f);
    fray_setup_free(setup);
    for (int i = 0; i < n_rel; i++) {
        free(files[i].name);
        free(files[i].text);
    }
    close_store(s);
    remove_dir();
}

Test(server_store, a_towers_fight_resumes_exactly) {
    const char *rel[] = {"examples/towers/duel.yaml",
                         "examples/towers/statblocks.yaml",
                         "data/towers/equipment.yaml"};
    resume_case(rel, 3);
}

Test(server_store, an_alloy_fight_resumes_exactly) {
    const char *rel[] = {"examples/alloy/duel.yaml",
                         "examples/alloy/statblocks.yaml",
                         "data/alloy/weapons.yaml"};
    resume_case(rel, 3);
}

/* Players' tokens and the GM's "players may play" are kept (docs/server.md
 * "players"); a store of format 1 (before them) is brought to format 2 as
 * it opens, its fights kept. */
Test(server_store, players_kept_and_format_1_upgraded) {
    make_dir();
    fs_store *s = open_store();
    fray_diag d;
    fs_file f = {"a.yaml", "fray: encounter\n", 15};
    int64_t id = 0;
    cr_assert_eq(fs_fight_add(s, "Test", "towers", 7, &f, 1, &id, &d), FRAY_OK);
    close_store(s);
    /* Back to format 1: no players table, no players_play column. */
    char path[128];
    snprintf(path, sizeof path, "%s/fray.sqlite", dir);
    sqlite3 *db = NULL;
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db,
                              "ALTER TABLE fights DROP COLUMN players_play;"
                              "DROP TABLE players;"
                              "UPDATE meta SET value = '1' WHERE key = 'version'",
                              NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(db));
    cr_assert_eq(sqlite3_close(db), SQLITE_OK);

    s = open_store();
    char v[16];
    bool found = false;
    cr_assert_eq(fs_meta_get(s, "version", v, sizeof v, &found, &d), FRAY_OK);
    cr_assert_str_eq(v, "2");
    fs_fight_row *rows = NULL;
    int nr = 0;
    cr_assert_eq(fs_fights(s, &rows, &nr, &d), FRAY_OK);
    cr_assert_eq(nr, 1);
    cr_assert(!rows[0].players_play);
    free(rows);
    cr_assert_eq(fs_players_play_set(s, id, true, &d), FRAY_OK);
    cr_assert_eq(fs_players_play_set(s, id + 1, true, &d), FRAY_ERR_INVALID);
    fs_player_row p;
    memset(&p, 0, sizeof p);
    snprintf(p.token, sizeof p.token, "%s", "abcd");
    p.fight = id;
    snprintf(p.name, sizeof p.name, "%s", "Ann");
    snprintf(p.combatants, sizeof p.combatants, "%s", "tony ana");
    p.enemy_numbers = false;
    p.show_unnoticed = true;
    cr_assert_eq(fs_player_add(s, &p, &d), FRAY_OK, "%s", d.message);
    /* A token is one player's. */
    cr_assert_eq(fs_player_add(s, &p, &d), FRAY_ERR_IO);
    close_store(s);

    s = open_store();
    cr_assert_eq(fs_fights(s, &rows, &nr, &d), FRAY_OK);
    cr_assert(rows[0].players_play);
    free(rows);
    fs_player_row *pl = NULL;
    int np = 0;
    cr_assert_eq(fs_players(s, &pl, &np, &d), FRAY_OK);
    cr_assert_eq(np, 1);
    cr_assert_str_eq(pl[0].token, "abcd");
    cr_assert_eq(pl[0].fight, id);
    cr_assert_str_eq(pl[0].name, "Ann");
    cr_assert_str_eq(pl[0].combatants, "tony ana");
    cr_assert(!pl[0].enemy_numbers);
    cr_assert(pl[0].show_unnoticed);
    free(pl);
    /* Lines in one transaction: all or none. */
    const char *two[] = {"{\"a\":1}", "{\"b\":\n2}"};
    size_t lens[] = {7, 8};
    cr_assert_eq(fs_lines_add(s, id, 0, two, lens, 2, &d), FRAY_ERR_INVALID);
    char *text = NULL;
    size_t len = 0;
    int64_t n = 0;
    cr_assert_eq(fs_lines(s, id, &text, &len, &n, &d), FRAY_OK);
    cr_assert_eq(n, 0, "the first line was not kept alone");
    free(text);
    two[1] = "{\"b\":2}";
    lens[1] = 7;
    cr_assert_eq(fs_lines_add(s, id, 0, two, lens, 2, &d), FRAY_OK);
    cr_assert_eq(fs_lines(s, id, &text, &len, &n, &d), FRAY_OK);
    cr_assert_eq(n, 2);
    free(text);
    close_store(s);
    remove_dir();
}
