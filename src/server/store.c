/*
 * store.c - the server's store in SQLite (store.h; docs/server.md).
 */
#define _POSIX_C_SOURCE 200809L /* open flags, fsync, mkdir */
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct fs_store {
    sqlite3 *db;
};

static bool safe_name(const char *name);

/* The store's format: a store of another version is refused. */
enum { FS_VERSION = 2 };

static const char SCHEMA[] =
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS fights ("
    " id INTEGER PRIMARY KEY, title TEXT NOT NULL, rules TEXT NOT NULL,"
    " seed TEXT NOT NULL, created INTEGER NOT NULL,"
    " archived INTEGER NOT NULL DEFAULT 0,"
    " players_play INTEGER NOT NULL DEFAULT 0,"
    " players_forecast INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE IF NOT EXISTS files ("
    " fight INTEGER NOT NULL REFERENCES fights(id), n INTEGER NOT NULL,"
    " name TEXT NOT NULL, text BLOB NOT NULL, PRIMARY KEY (fight, n));"
    "CREATE TABLE IF NOT EXISTS lines ("
    " fight INTEGER NOT NULL REFERENCES fights(id), n INTEGER NOT NULL,"
    " line TEXT NOT NULL, PRIMARY KEY (fight, n));"
    "CREATE TABLE IF NOT EXISTS players ("
    " token TEXT PRIMARY KEY, fight INTEGER NOT NULL REFERENCES fights(id),"
    " name TEXT NOT NULL, combatants TEXT NOT NULL,"
    " enemy_numbers INTEGER NOT NULL, show_unnoticed INTEGER NOT NULL);";

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static fray_status fail(fray_diag *diag, fray_status st, sqlite3 *db,
                        const char *fmt, ...) {
    if (diag) {
        memset(diag, 0, sizeof *diag);
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(diag->message, sizeof diag->message, fmt, ap);
        va_end(ap);
        if (db && n >= 0 && (size_t)n < sizeof diag->message)
            snprintf(diag->message + n, sizeof diag->message - (size_t)n,
                     ": %s", sqlite3_errmsg(db));
    }
    return st;
}

/* FRAY_ERR_NOMEM for SQLite's out of memory, else FRAY_ERR_IO. */
static fray_status sq_status(int rc) {
    return (rc & 0xff) == SQLITE_NOMEM ? FRAY_ERR_NOMEM : FRAY_ERR_IO;
}

static fray_status exec(fs_store *s, const char *sql, fray_diag *diag) {
    char *err = NULL;
    int rc = sqlite3_exec(s->db, sql, NULL, NULL, &err);
    if (rc != SQLITE_OK) {
        fray_status st = fail(diag, sq_status(rc), NULL, "the store: %s",
                              err ? err : sqlite3_errstr(rc));
        sqlite3_free(err);
        return st;
    }
    return FRAY_OK;
}

static fray_status prepare(fs_store *s, const char *sql, sqlite3_stmt **out,
                           fray_diag *diag) {
    int rc = sqlite3_prepare_v2(s->db, sql, -1, out, NULL);
    if (rc != SQLITE_OK)
        return fail(diag, sq_status(rc), s->db, "the store");
    return FRAY_OK;
}

/* Finishes a statement whose last step gave rc (SQLITE_DONE or
 * SQLITE_ROW is fine). */
static fray_status finish(fs_store *s, sqlite3_stmt *q, int rc,
                          fray_diag *diag) {
    fray_status st = FRAY_OK;
    if (rc != SQLITE_DONE && rc != SQLITE_ROW && rc != SQLITE_OK)
        st = fail(diag, sq_status(rc), s->db, "the store");
    int frc = sqlite3_finalize(q);
    if (st == FRAY_OK && frc != SQLITE_OK)
        st = fail(diag, sq_status(frc), s->db, "the store");
    return st;
}

/* Ends a transaction: COMMIT when st is FRAY_OK, else ROLLBACK (keeping
 * st). */
static fray_status end_tx(fs_store *s, fray_status st, fray_diag *diag) {
    if (st == FRAY_OK)
        return exec(s, "COMMIT", diag);
    fray_diag ignored;
    /* (The rollback's own failure cannot make it worse: the first error
     * is the one to tell; SQLite rolls back an open transaction when the
     * connection closes.) */
    if (exec(s, "ROLLBACK", &ignored) != FRAY_OK && diag)
        strncat(diag->message, " (and the rollback failed)",
                sizeof diag->message - strlen(diag->message) - 1);
    return st;
}

/* Issue 19: the GM lets players see the forecast (fights.players_forecast),
 * a column added to a store made before it (same format otherwise). */
static fray_status forecast_column(fs_store *s, fray_diag *diag) {
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(s->db, "SELECT players_forecast FROM fights "
                                "LIMIT 0", -1, &q, NULL);
    sqlite3_finalize(q);
    if (rc == SQLITE_OK)
        return FRAY_OK;
    return exec(s, "ALTER TABLE fights ADD COLUMN players_forecast INTEGER "
                "NOT NULL DEFAULT 0", diag);
}

static fray_status check_version(fs_store *s, fray_diag *diag) {
    char v[32];
    bool found;
    fray_status st = fs_meta_get(s, "version", v, sizeof v, &found, diag);
    if (st != FRAY_OK)
        return st;
    if (!found) {
        char want[16];
        snprintf(want, sizeof want, "%d", FS_VERSION);
        return fs_meta_set(s, "version", want, diag);
    }
    if (atoi(v) == 1) {
        /* Format 1 (no players, no players_play): the schema above has
         * made the players table; the column is added. */
        fray_status m = exec(s,
                             "ALTER TABLE fights ADD COLUMN players_play "
                             "INTEGER NOT NULL DEFAULT 0",
                             diag);
        if (m != FRAY_OK)
            return m;
        char want[16];
        snprintf(want, sizeof want, "%d", FS_VERSION);
        return fs_meta_set(s, "version", want, diag);
    }
    if (atoi(v) != FS_VERSION)
        return fail(diag, FRAY_ERR_INVALID, NULL,
                    "the store is of format %s, this fray reads format %d",
                    v, FS_VERSION);
    return FRAY_OK;
}

fray_status fs_open(const char *path, fs_store **out, fray_diag *diag) {
    *out = NULL;
    fs_store *s = calloc(1, sizeof *s);
    if (!s)
        return fail(diag, FRAY_ERR_NOMEM, NULL, "out of memory");
    int rc = sqlite3_open_v2(path, &s->db,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                 SQLITE_OPEN_FULLMUTEX,
                             NULL);
    fray_status st = FRAY_OK;
    if (rc != SQLITE_OK) {
        st = fail(diag, sq_status(rc), s->db, "%s: cannot open the store",
                  path);
    } else {
        /* WAL with synchronous=FULL: every commit is on disk when it
         * returns (docs/server.md). A busy store waits up to 5 s. */
        sqlite3_busy_timeout(s->db, 5000);
        st = exec(s, "PRAGMA journal_mode=WAL", diag);
        if (st == FRAY_OK)
            st = exec(s, "PRAGMA synchronous=FULL", diag);
        if (st == FRAY_OK)
            st = exec(s, "PRAGMA foreign_keys=ON", diag);
        if (st == FRAY_OK)
            st = exec(s, SCHEMA, diag);
        if (st == FRAY_OK)
            st = check_version(s, diag);
        if (st == FRAY_OK)
            st = forecast_column(s, diag); /* issue 19 */
    }
    if (st != FRAY_OK) {
        fray_diag ignored;
        /* (The first error is the one to tell.) */
        if (fs_close(s, &ignored) != FRAY_OK && diag)
            strncat(diag->message, " (and the store could not be closed)",
                    sizeof diag->message - strlen(diag->message) - 1);
        return st;
    }
    *out = s;
    return FRAY_OK;
}

fray_status fs_close(fs_store *s, fray_diag *diag) {
    if (!s)
        return FRAY_OK;
    int rc = sqlite3_close(s->db);
    free(s);
    if (rc != SQLITE_OK)
        return fail(diag, FRAY_ERR_IO, NULL, "the store could not be closed: %s",
                    sqlite3_errstr(rc));
    return FRAY_OK;
}

fray_status fs_fight_add(fs_store *s, const char *title, const char *rules,
                         uint64_t seed, const fs_file *files, int n_files,
                         int64_t *out_id, fray_diag *diag) {
    *out_id = 0;
    if (n_files < 1 || !files)
        return fail(diag, FRAY_ERR_INVALID, NULL,
                    "a fight needs its encounter file");
    fray_status st = exec(s, "BEGIN IMMEDIATE", diag);
    if (st != FRAY_OK)
        return st;
    sqlite3_stmt *q = NULL;
    char seed_text[24];
    snprintf(seed_text, sizeof seed_text, "%" PRIu64, seed);
    st = prepare(s,
                 "INSERT INTO fights (title, rules, seed, created) "
                 "VALUES (?1, ?2, ?3, strftime('%s','now'))",
                 &q, diag);
    if (st == FRAY_OK) {
        sqlite3_bind_text(q, 1, title, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(q, 2, rules, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(q, 3, seed_text, -1, SQLITE_TRANSIENT);
        st = finish(s, q, sqlite3_step(q), diag);
    }
    int64_t id = sqlite3_last_insert_rowid(s->db);
    for (int i = 0; i < n_files && st == FRAY_OK; i++) {
        if (!safe_name(files[i].name)) {
            st = fail(diag, FRAY_ERR_INVALID, NULL,
                      "'%s' is not a file's name inside the fight's folder "
                      "(a relative path without '..')",
                      files[i].name ? files[i].name : "");
            break;
        }
        if (files[i].len > INT_MAX) {
            st = fail(diag, FRAY_ERR_RANGE, NULL, "%s is too large",
                      files[i].name);
            break;
        }
        st = prepare(s,
                     "INSERT INTO files (fight, n, name, text) "
                     "VALUES (?1, ?2, ?3, ?4)",
                     &q, diag);
        if (st != FRAY_OK)
            break;
        sqlite3_bind_int64(q, 1, id);
        sqlite3_bind_int(q, 2, i);
        sqlite3_bind_text(q, 3, files[i].name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_blob(q, 4, files[i].text, (int)files[i].len,
                          SQLITE_TRANSIENT);
        st = finish(s, q, sqlite3_step(q), diag);
    }
    st = end_tx(s, st, diag);
    if (st == FRAY_OK)
        *out_id = id;
    return st;
}

/* The number of lines fight id has (-1 when there is no such fight). */
static fray_status count_lines(fs_store *s, int64_t id, int64_t *out,
                               fray_diag *diag) {
    sqlite3_stmt *q = NULL;
    fray_status st = prepare(
        s,
        "SELECT (SELECT count(*) FROM fights WHERE id = ?1),"
        " (SELECT count(*) FROM lines WHERE fight = ?1)",
        &q, diag);
    if (st != FRAY_OK)
        return st;
    sqlite3_bind_int64(q, 1, id);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(q, 0) ? sqlite3_column_int64(q, 1) : -1;
    return finish(s, q, rc, diag);
}

fray_status fs_line_add(fs_store *s, int64_t id, int64_t n, const char *line,
                        size_t len, fray_diag *diag) {
    return fs_lines_add(s, id, n, &line, &len, 1, diag);
}

fray_status fs_lines_add(fs_store *s, int64_t id, int64_t n,
                         const char *const *lines, const size_t *lens,
                         int count, fray_diag *diag) {
    for (int i = 0; i < count; i++) {
        if (lens[i] > INT_MAX)
            return fail(diag, FRAY_ERR_RANGE, NULL, "the line is too long");
        if (memchr(lines[i], '\n', lens[i]))
            return fail(diag, FRAY_ERR_INVALID, NULL,
                        "a journal line holds no newline");
    }
    fray_status st = exec(s, "BEGIN IMMEDIATE", diag);
    if (st != FRAY_OK)
        return st;
    int64_t have = -1;
    st = count_lines(s, id, &have, diag);
    if (st == FRAY_OK && have < 0)
        st = fail(diag, FRAY_ERR_INVALID, NULL, "there is no fight %" PRId64,
                  id);
    else if (st == FRAY_OK && have != n)
        st = fail(diag, FRAY_ERR_INVALID, NULL,
                  "fight %" PRId64 " has %" PRId64 " lines: the next is %" PRId64
                  ", not %" PRId64,
                  id, have, have, n);
    for (int i = 0; i < count && st == FRAY_OK; i++) {
        sqlite3_stmt *q = NULL;
        st = prepare(s, "INSERT INTO lines (fight, n, line) VALUES (?1, ?2, ?3)",
                     &q, diag);
        if (st != FRAY_OK)
            break;
        sqlite3_bind_int64(q, 1, id);
        sqlite3_bind_int64(q, 2, n + i);
        sqlite3_bind_text(q, 3, lines[i], (int)lens[i], SQLITE_TRANSIENT);
        st = finish(s, q, sqlite3_step(q), diag);
    }
    return end_tx(s, st, diag);
}

fray_status fs_lines(fs_store *s, int64_t id, char **out, size_t *out_len,
                     int64_t *out_n, fray_diag *diag) {
    *out = NULL;
    *out_len = 0;
    *out_n = 0;
    sqlite3_stmt *q = NULL;
    fray_status st = prepare(
        s, "SELECT line FROM lines WHERE fight = ?1 ORDER BY n", &q, diag);
    if (st != FRAY_OK)
        return st;
    sqlite3_bind_int64(q, 1, id);
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int64_t n = 0;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(q, 0);
        size_t k = (size_t)sqlite3_column_bytes(q, 0);
        if (!t) {
            st = fail(diag, FRAY_ERR_NOMEM, NULL, "out of memory");
            break;
        }
        if (len + k + 2 > cap) {
            size_t nc = cap ? cap : 4096;
            while (nc < len + k + 2)
                nc *= 2;
            char *nb = realloc(buf, nc);
            if (!nb) {
                st = fail(diag, FRAY_ERR_NOMEM, NULL, "out of memory");
                break;
            }
            buf = nb;
            cap = nc;
        }
        memcpy(buf + len, t, k);
        len += k;
        buf[len++] = '\n';
        buf[len] = '\0';
        n++;
    }
    fray_status fst = finish(s, q, st == FRAY_OK ? rc : SQLITE_DONE, diag);
    if (st == FRAY_OK)
        st = fst;
    if (st != FRAY_OK) {
        free(buf);
        return st;
    }
    *out = buf;
    *out_len = len;
    *out_n = n;
    return FRAY_OK;
}

void fs_files_free(fs_file *files, int n) {
    if (!files)
        return;
    for (int i = 0; i < n; i++) {
        free(files[i].name);
        free(files[i].text);
    }
    free(files);
}

static char *dup_bytes(const void *p, size_t n) {
    char *d = malloc(n + 1);
    if (d) {
        if (n)
            memcpy(d, p, n);
        d[n] = '\0';
    }
    return d;
}

fray_status fs_files(fs_store *s, int64_t id, fs_file **out, int *out_n,
                     fray_diag *diag) {
    *out = NULL;
    *out_n = 0;
    sqlite3_stmt *q = NULL;
    fray_status st = prepare(
        s, "SELECT name, text FROM files WHERE fight = ?1 ORDER BY n", &q, diag);
    if (st != FRAY_OK)
        return st;
    sqlite3_bind_int64(q, 1, id);
    fs_file *f = NULL;
    int n = 0;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        fs_file *nf = realloc(f, (size_t)(n + 1) * sizeof *f);
        if (!nf) {
            st = fail(diag, FRAY_ERR_NOMEM, NULL, "out of memory");
            break;
        }
        f = nf;
        const void *name = sqlite3_column_text(q, 0);
        size_t name_len = (size_t)sqlite3_column_bytes(q, 0);
        const void *text = sqlite3_column_blob(q, 1);
        size_t text_len = (size_t)sqlite3_column_bytes(q, 1);
        f[n].name = name ? dup_bytes(name, name_len) : NULL;
        f[n].text = dup_bytes(text ? text : "", text ? text_len : 0);
        f[n].len = text ? text_len : 0;
        n++;
        if (!f[n - 1].name || !f[n - 1].text) {
            st = fail(diag, FRAY_ERR_NOMEM, NULL, "out of memory");
            break;
        }
    }
    fray_status fst = finish(s, q, st == FRAY_OK ? rc : SQLITE_DONE, diag);
    if (st == FRAY_OK)
        st = fst;
    if (st != FRAY_OK) {
        fs_files_free(f, n);
        return st;
    }
    *out = f;
    *out_n = n;
    return FRAY_OK;
}

static void copy_col(char *dst, size_t size, sqlite3_stmt *q, int col) {
    const unsigned char *t = sqlite3_column_text(q, col);
    snprintf(dst, size, "%s", t ? (const char *)t : "");
}

fray_status fs_fights(fs_store *s, fs_fight_row **out, int *out_n,
                      fray_diag *diag) {
    *out = NULL;
    *out_n = 0;
    sqlite3_stmt *q = NULL;
    fray_status st = prepare(
        s,
        "SELECT id, title, rules, seed, archived,"
        " (SELECT name FROM files WHERE fight = fights.id AND n = 0),"
        " (SELECT count(*) FROM lines WHERE fight = fights.id), players_play,"
        " players_forecast"
        " FROM fights ORDER BY id DESC",
        &q, diag);
    if (st != FRAY_OK)
        return st;
    fs_fight_row *r = NULL;
    int n = 0;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        fs_fight_row *nr = realloc(r, (size_t)(n + 1) * sizeof *r);
        if (!nr) {
            st = fail(diag, FRAY_ERR_NOMEM, NULL, "out of memory");
            break;
        }
        r = nr;
        fs_fight_row *x = &r[n++];
        memset(x, 0, sizeof *x);
        x->id = sqlite3_column_int64(q, 0);
        copy_col(x->title, sizeof x->title, q, 1);
        copy_col(x->rules, sizeof x->rules, q, 2);
        const unsigned char *seed = sqlite3_column_text(q, 3);
        x->seed = seed ? strtoull((const char *)seed, NULL, 10) : 0;
        x->archived = sqlite3_column_int(q, 4) != 0;
        copy_col(x->encounter, sizeof x->encounter, q, 5);
        x->lines = sqlite3_column_int64(q, 6);
        x->players_play = sqlite3_column_int(q, 7) != 0;
        x->players_forecast = sqlite3_column_int(q, 8) != 0; /* issue 19 */
    }
    fray_status fst = finish(s, q, st == FRAY_OK ? rc : SQLITE_DONE, diag);
    if (st == FRAY_OK)
        st = fst;
    if (st != FRAY_OK) {
        free(r);
        return st;
    }
    *out = r;
    *out_n = n;
    return FRAY_OK;
}

fray_status fs_archive(fs_store *s, int64_t id, fray_diag *diag) {
    sqlite3_stmt *q = NULL;
    fray_status st =
        prepare(s, "UPDATE fights SET archived = 1 WHERE id = ?1", &q, diag);
    if (st != FRAY_OK)
        return st;
    sqlite3_bind_int64(q, 1, id);
    st = finish(s, q, sqlite3_step(q), diag);
    if (st == FRAY_OK && sqlite3_changes(s->db) == 0)
        return fail(diag, FRAY_ERR_INVALID, NULL, "there is no fight %" PRId64,
                    id);
    return st;
}

fray_status fs_meta_get(fs_store *s, const char *key, char *buf, size_t size,
                        bool *found, fray_diag *diag) {
    *found = false;
    if (size)
        buf[0] = '\0';
    sqlite3_stmt *q = NULL;
    fray_status st =
        prepare(s, "SELECT value FROM meta WHERE key = ?1", &q, diag);
    if (st != FRAY_OK)
        return st;
    sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        *found = true;
        copy_col(buf, size, q, 0);
    }
    return finish(s, q, rc, diag);
}

fray_status fs_meta_set(fs_store *s, const char *key, const char *value,
                        fray_diag *diag) {
    sqlite3_stmt *q = NULL;
    fray_status st = prepare(
        s, "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)", &q, diag);
    if (st != FRAY_OK)
        return st;
    sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 2, value, -1, SQLITE_TRANSIENT);
    return finish(s, q, sqlite3_step(q), diag);
}

/* One of a fight's flags the GM sets (sql: the UPDATE, ?1 the fight, ?2
 * the value). */
static fray_status flag_set(fs_store *s, const char *sql, int64_t id,
                            bool allow, fray_diag *diag) {
    sqlite3_stmt *q = NULL;
    fray_status st = prepare(s, sql, &q, diag);
    if (st != FRAY_OK)
        return st;
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_int(q, 2, allow ? 1 : 0);
    st = finish(s, q, sqlite3_step(q), diag);
    if (st == FRAY_OK && sqlite3_changes(s->db) == 0)
        return fail(diag, FRAY_ERR_INVALID, NULL, "there is no fight %" PRId64,
                    id);
    return st;
}

fray_status fs_players_play_set(fs_store *s, int64_t id, bool allow,
                                fray_diag *diag) {
    return flag_set(s, "UPDATE fights SET players_play = ?2 WHERE id = ?1",
                    id, allow, diag);
}

fray_status fs_players_forecast_set(fs_store *s, int64_t id, bool allow,
                                    fray_diag *diag) {
    return flag_set(s, "UPDATE fights SET players_forecast = ?2 WHERE id = ?1",
                    id, allow, diag);
}

fray_status fs_player_add(fs_store *s, const fs_player_row *p,
                          fray_diag *diag) {
    sqlite3_stmt *q = NULL;
    fray_status st = prepare(
        s,
        "INSERT INTO players (token, fight, name, combatants, enemy_numbers,"
        " show_unnoticed) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        &q, diag);
    if (st != FRAY_OK)
        return st;
    sqlite3_bind_text(q, 1, p->token, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 2, p->fight);
    sqlite3_bind_text(q, 3, p->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 4, p->combatants, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(q, 5, p->enemy_numbers ? 1 : 0);
    sqlite3_bind_int(q, 6, p->show_unnoticed ? 1 : 0);
    return finish(s, q, sqlite3_step(q), diag);
}

fray_status fs_players(fs_store *s, fs_player_row **out, int *out_n,
                       fray_diag *diag) {
    *out = NULL;
    *out_n = 0;
    sqlite3_stmt *q = NULL;
    fray_status st = prepare(
        s,
        "SELECT token, fight, name, combatants, enemy_numbers, show_unnoticed"
        " FROM players ORDER BY rowid",
        &q, diag);
    if (st != FRAY_OK)
        return st;
    fs_player_row *r = NULL;
    int n = 0;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        fs_player_row *nr = realloc(r, (size_t)(n + 1) * sizeof *r);
        if (!nr) {
            st = fail(diag, FRAY_ERR_NOMEM, NULL, "out of memory");
            break;
        }
        r = nr;
        fs_player_row *x = &r[n++];
        memset(x, 0, sizeof *x);
        copy_col(x->token, sizeof x->token, q, 0);
        x->fight = sqlite3_column_int64(q, 1);
        copy_col(x->name, sizeof x->name, q, 2);
        copy_col(x->combatants, sizeof x->combatants, q, 3);
        x->enemy_numbers = sqlite3_column_int(q, 4) != 0;
        x->show_unnoticed = sqlite3_column_int(q, 5) != 0;
    }
    fray_status fst = finish(s, q, st == FRAY_OK ? rc : SQLITE_DONE, diag);
    if (st == FRAY_OK)
        st = fst;
    if (st != FRAY_OK) {
        free(r);
        return st;
    }
    *out = r;
    *out_n = n;
    return FRAY_OK;
}

/* ---- Resuming a fight ------------------------------------------------------ */

/* A file's name as stored: a relative path ("examples/towers/duel.yaml")
 * whose parts are neither empty, "." nor "..": it cannot leave the
 * fight's folder. */
static bool safe_name(const char *name) {
    if (!name || !name[0] || name[0] == '/')
        return false;
    for (const char *p = name;;) {
        const char *e = strchr(p, '/');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == 0 || (n == 1 && p[0] == '.') ||
            (n == 2 && p[0] == '.' && p[1] == '.'))
            return false;
        if (!e)
            return true;
        p = e + 1;
    }
}

/* Makes the folders of path's parts before its last (path is writable
 * scratch). */
static fray_status make_parents(char *path, fray_diag *diag) {
    for (char *p = strchr(path, '/'); p; p = strchr(p + 1, '/')) {
        if (p == path)
            continue;
        *p = '\0';
        int rc = mkdir(path, 0755);
        int e = errno;
        *p = '/';
        if (rc != 0 && e != EEXIST)
            return fail(diag, FRAY_ERR_IO, NULL, "%.*s: %s", (int)(p - path),
                        path, strerror(e));
    }
    return FRAY_OK;
}

/* Writes text to path whole (fsync'd), checking every step. */
static fray_status write_file(const char *path, const char *text, size_t len,
                              fray_diag *diag) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return fail(diag, FRAY_ERR_IO, NULL, "%s: %s", path, strerror(errno));
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, text + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : EIO;
            close(fd); /* (the write's error is the one to tell) */
            return fail(diag, FRAY_ERR_IO, NULL, "%s: %s", path, strerror(e));
        }
        done += (size_t)w;
    }
    if (fsync(fd) != 0) {
        int e = errno;
        close(fd);
        return fail(diag, FRAY_ERR_IO, NULL, "%s: %s", path, strerror(e));
    }
    if (close(fd) != 0)
        return fail(diag, FRAY_ERR_IO, NULL, "%s: %s", path, strerror(errno));
    return FRAY_OK;
}

static fray_status fight_seed(fs_store *s, int64_t id, uint64_t *out,
                              fray_diag *diag) {
    sqlite3_stmt *q = NULL;
    fray_status st =
        prepare(s, "SELECT seed FROM fights WHERE id = ?1", &q, diag);
    if (st != FRAY_OK)
        return st;
    sqlite3_bind_int64(q, 1, id);
    int rc = sqlite3_step(q);
    bool found = rc == SQLITE_ROW;
    if (found) {
        const unsigned char *t = sqlite3_column_text(q, 0);
        *out = t ? strtoull((const char *)t, NULL, 10) : 0;
    }
    st = finish(s, q, rc, diag);
    if (st == FRAY_OK && !found)
        return fail(diag, FRAY_ERR_INVALID, NULL, "there is no fight %" PRId64,
                    id);
    return st;
}

fray_status fs_resume(fs_store *s, int64_t id, const char *dir,
                      fray_setup **out_setup, fray_fight **out_fight,
                      fray_diag *diag) {
    *out_setup = NULL;
    *out_fight = NULL;
    uint64_t seed = 0;
    fray_status st = fight_seed(s, id, &seed, diag);
    if (st != FRAY_OK)
        return st;
    fs_file *files = NULL;
    int n_files = 0;
    if ((st = fs_files(s, id, &files, &n_files, diag)) != FRAY_OK)
        return st;
    char folder[4096], path[4096 + 256];
    int k = snprintf(folder, sizeof folder, "%s/%" PRId64, dir, id);
    if (k < 0 || (size_t)k >= sizeof folder)
        st = fail(diag, FRAY_ERR_RANGE, NULL, "the folder's name is too long");
    else if (n_files < 1)
        st = fail(diag, FRAY_ERR_INVALID, NULL,
                  "fight %" PRId64 " has no encounter file", id);
    else if (mkdir(folder, 0755) != 0 && errno != EEXIST)
        st = fail(diag, FRAY_ERR_IO, NULL, "%s: %s", folder, strerror(errno));
    for (int i = 0; i < n_files && st == FRAY_OK; i++) {
        if (!safe_name(files[i].name)) {
            st = fail(diag, FRAY_ERR_INVALID, NULL,
                      "fight %" PRId64 ": '%s' is not a file's name inside "
                      "its folder", id, files[i].name ? files[i].name : "");
            break;
        }
        k = snprintf(path, sizeof path, "%s/%s", folder, files[i].name);
        if (k < 0 || (size_t)k >= sizeof path)
            st = fail(diag, FRAY_ERR_RANGE, NULL, "%s: the name is too long",
                      files[i].name);
        if (st == FRAY_OK)
            st = make_parents(path, diag);
        if (st == FRAY_OK)
            st = write_file(path, files[i].text, files[i].len, diag);
    }
    fray_setup *setup = NULL;
    if (st == FRAY_OK) {
        snprintf(path, sizeof path, "%s/%s", folder, files[0].name);
        st = fray_setup_load(path, NULL, &setup, diag);
    }
    fs_files_free(files, n_files);
    fray_fight *fight = NULL;
    if (st == FRAY_OK) {
        fray_fight_options fo = {.journal = true, .facts = true, .until = 0};
        st = fray_fight_new(setup, seed, &fo, NULL, NULL, &fight);
        if (st != FRAY_OK)
            st = fail(diag, st, NULL, "fight %" PRId64 " cannot begin: %s",
                      id, fray_strerror(st));
    }
    char *text = NULL;
    size_t len = 0;
    int64_t n_lines = 0;
    if (st == FRAY_OK)
        st = fs_lines(s, id, &text, &len, &n_lines, diag);
    if (st == FRAY_OK && n_lines > 0) {
        fray_replay_info info;
        st = fray_fight_replay_journal(fight, text, len, &info, diag);
    }
    free(text);
    if (st != FRAY_OK) {
        fray_fight_free(fight);
        fray_setup_free(setup);
        return st;
    }
    *out_setup = setup;
    *out_fight = fight;
    return FRAY_OK;
}
