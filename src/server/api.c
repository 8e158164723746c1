/*
 * api.c - the server's fights and calls (api.h; docs/server.md).
 *
 * A fight in memory is the store's, applied: every change is written to
 * the store and committed before it is answered, and when the store
 * cannot keep it the fight is rebuilt from the store (the change is taken
 * back) and the caller is told it was not kept.
 */
#define _XOPEN_SOURCE 700 /* pthread, lstat, clock_gettime, realpath */
#include "api.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fray/chances.h"
#include "fray/fray.h"
#include "fray/view.h"
#include "store.h"
#include "text.h"

enum {
    TOKEN_BYTES = 32,
    TOKEN_HEX = 2 * TOKEN_BYTES,
    CONTROLS_MAX = 32,      /* combatants one player's token controls */
    LOG_MAX = 30,           /* narrated events a view carries */
    SCAN_DEPTH = 8,         /* folders deep under encounters/ */
    SCAN_FILES = 2000,      /* files under encounters/ */
    STEP_GUARD = 100000,    /* clock moves in one turn of the tactics */
    TEXTS_MAX = 8           /* state events kept per fight (scopes) */
};
/* The bytes of every file under encounters/ together. */
#define SCAN_BYTES ((size_t)64 << 20)

typedef struct player {
    char token[TOKEN_HEX + 1];
    int64_t fight;
    char name[64];
    char ids[1024];        /* the combatants' ids, separated by spaces */
    int n_controls;
    int controls[CONTROLS_MAX];
    bool enemy_numbers;
    bool show_unnoticed;
} player;

typedef struct fight_entry {
    int64_t id;
    pthread_mutex_t mu;
    pthread_cond_t cond;   /* broadcast on every change (live streams) */
    uint64_t change;       /* counts the changes */
    bool stopping;         /* the server stops: live streams end */
    /* Under mu: */
    fray_setup *setup;     /* NULL when archived or not resumed */
    fray_fight *fight;
    int64_t lines;         /* journal lines in the store */
    char title[128];
    char rules[16];
    char encounter[256];
    uint64_t seed;
    bool archived;
    bool players_play;
    char problem[300];     /* why it could not be resumed ("" none) */
    /* What every page's state is made of, read once per change: the
     * view and the last events narrated (cache_ok and cached == change:
     * they are the fight's now). Each page then writes it for its own
     * scope. */
    bool cache_ok;
    uint64_t cached;
    fray_fight_view *view;
    int log_from, log_n;
    char *log[LOG_MAX];
    /* Whom each of those events names (fray_event_names): names_n
     * combatants a row, log_n rows; names_known[k] false when the
     * ruleset does not say (the words alone then decide). */
    bool *names;
    int names_n;
    bool names_known[LOG_MAX];
    /* The state events last written, by whom they were for (the GM, or
     * a player's token: its scope), with the change they were of: the
     * live pages of one scope share one (written once per change). */
    struct {
        char key[TOKEN_HEX + 1];
        uint64_t change;
        char *text;
        size_t len;
    } texts[TEXTS_MAX];
    int texts_next;
    /* Issue 19 (the odds at the table): the GM lets players see the
     * forecast; the forecast of the last change, run in the background
     * (NULL: none asked since). */
    bool players_forecast;
    struct fc_run *fc;
} fight_entry;

/* Issue 19: the forecast's background run (below, "At the table, the
 * odds"): stopped by the next change; freed with the fight. */
struct fc_run;
static void fc_cancel(struct fc_run *r);
static void fc_free(struct fc_run *r);
static void fc_changed(fight_entry *f);
static void call_settings_forecast(fsv_server *s, fight_entry *f, json_t *j,
                                   fsv_response *out);

struct fsv_server {
    char *data;
    char *enc_dir;
    char *enc_real;         /* enc_dir's real path (links resolved) */
    char *fights_dir;
    FILE *log;
    char gm[TOKEN_HEX + 1];
    pthread_mutex_t store_mu;
    fs_store *store;
    pthread_mutex_t reg_mu; /* fights[] and players[] */
    fight_entry **fights;
    int n_fights, cap_fights;
    player *players;
    int n_players, cap_players;
    int resumed, failed;
};

/* Who asks. */
typedef struct who {
    bool gm;
    player p; /* when !gm */
} who;

/* Copies src into dst (size bytes), cut to fit. */
static void copy_str(char *dst, size_t size, const char *src) {
    size_t n = strlen(src);
    if (n >= size)
        n = size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* ---- Answers ------------------------------------------------------------------ */

static const char NOMEM_BODY[] = "{\"error\":\"out of memory\"}";

void fsv_response_free(fsv_response *r) {
    if (r->body != NOMEM_BODY)
        free(r->body);
    r->body = NULL;
    r->len = 0;
}

static void answer_nomem(fsv_response *out) {
    out->status = 500;
    out->type = "application/json";
    out->body = (char *)NOMEM_BODY;
    out->len = sizeof NOMEM_BODY - 1;
}

/* Gives t's text to out (t is emptied). */
static void answer_text(fsv_response *out, int status, const char *type,
                        fsv_text *t) {
    if (t->failed) {
        fsv_text_free(t);
        answer_nomem(out);
        return;
    }
    if (!t->p && !fsv_text_reserve(t, 0)) {
        answer_nomem(out);
        return;
    }
    out->status = status;
    out->type = type;
    out->body = t->p;
    out->len = t->len;
    t->p = NULL;
    t->len = t->cap = 0;
}

static void answer_json(fsv_response *out, int status, fsv_text *t) {
    fsv_text_add(t, "\n", 1);
    answer_text(out, status, "application/json", t);
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void answer_error(fsv_response *out, int status, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fsv_text t = {0};
    fsv_text_str(&t, "{\"error\":");
    fsv_text_json(&t, msg);
    fsv_text_str(&t, "}");
    answer_json(out, status, &t);
}

/* ---- Tokens --------------------------------------------------------------------- */

static fray_status make_token(char out[TOKEN_HEX + 1], fray_diag *diag) {
    unsigned char b[TOKEN_BYTES];
    size_t got = 0;
    while (got < sizeof b) {
        ssize_t r = getrandom(b + got, sizeof b - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (diag)
                snprintf(diag->message, sizeof diag->message,
                         "getrandom: %s", strerror(errno));
            return FRAY_ERR_IO;
        }
        got += (size_t)r;
    }
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < sizeof b; i++) {
        out[2 * i] = hex[b[i] >> 4];
        out[2 * i + 1] = hex[b[i] & 15];
    }
    out[TOKEN_HEX] = '\0';
    return FRAY_OK;
}

static bool random_seed(uint64_t *out) {
    unsigned char b[8];
    size_t got = 0;
    while (got < sizeof b) {
        ssize_t r = getrandom(b + got, sizeof b - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        got += (size_t)r;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < sizeof b; i++)
        v = (v << 8) | b[i];
    *out = v;
    return true;
}

/* Two tokens compared in a time that does not depend on where they
 * differ. */
static bool token_eq(const char *a, const char *b) {
    size_t n = strlen(a);
    if (n != strlen(b) || n == 0)
        return false;
    unsigned diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0;
}

/* The token of "Bearer TOKEN" (NULL when the header is not that). */
static const char *bearer(const char *header, char *buf, size_t size) {
    if (!header)
        return NULL;
    while (*header == ' ')
        header++;
    if (strncasecmp(header, "bearer ", 7) != 0)
        return NULL;
    const char *p = header + 7;
    while (*p == ' ')
        p++;
    size_t n = 0;
    while (p[n] && p[n] != ' ')
        n++;
    if (n == 0 || n >= size)
        return NULL;
    memcpy(buf, p, n);
    buf[n] = '\0';
    return buf;
}

typedef enum auth {
    AUTH_MISSING,  /* no Authorization: Bearer */
    AUTH_UNKNOWN,  /* a token nobody has */
    AUTH_OTHER,    /* a player's token of another fight */
    AUTH_GM,
    AUTH_PLAYER
} auth;

/* Who the header names, for fight `fight` (0: for no fight). */
static auth authorize(fsv_server *s, const char *header, int64_t fight,
                      who *w) {
    char buf[128];
    const char *tok = bearer(header, buf, sizeof buf);
    memset(w, 0, sizeof *w);
    if (!tok)
        return AUTH_MISSING;
    if (token_eq(tok, s->gm)) {
        w->gm = true;
        return AUTH_GM;
    }
    auth a = AUTH_UNKNOWN;
    pthread_mutex_lock(&s->reg_mu);
    for (int i = 0; i < s->n_players; i++) {
        if (!token_eq(tok, s->players[i].token))
            continue;
        if (s->players[i].fight == fight) {
            w->p = s->players[i];
            a = AUTH_PLAYER;
        } else {
            a = AUTH_OTHER;
        }
        break;
    }
    pthread_mutex_unlock(&s->reg_mu);
    return a;
}

/* Answers a request whose token does not open what it asks; false when
 * the caller may go on (the GM, or a player when players are let). */
static bool refuse(auth a, bool players_too, fsv_response *out) {
    switch (a) {
    case AUTH_GM:
        return false;
    case AUTH_PLAYER:
        if (players_too)
            return false;
        answer_error(out, 403, "only the GM's token may do this");
        return true;
    case AUTH_MISSING:
        answer_error(out, 401,
                     "this call needs a token: Authorization: Bearer TOKEN");
        return true;
    case AUTH_OTHER:
        answer_error(out, 403, "a player's token opens only its own fight's "
                     "view and commands, not this");
        return true;
    case AUTH_UNKNOWN:
    default:
        answer_error(out, 401, "this token opens nothing on this server");
        return true;
    }
}

/* ---- The list of fights ------------------------------------------------------------ */

static fight_entry *entry_new(int64_t id) {
    fight_entry *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->id = id;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    if (pthread_mutex_init(&f->mu, NULL) != 0) {
        pthread_condattr_destroy(&ca);
        free(f);
        return NULL;
    }
    if (pthread_cond_init(&f->cond, &ca) != 0) {
        pthread_condattr_destroy(&ca);
        pthread_mutex_destroy(&f->mu);
        free(f);
        return NULL;
    }
    pthread_condattr_destroy(&ca);
    return f;
}

static void cache_clear(fight_entry *f) {
    fray_fight_view_free(f->view);
    f->view = NULL;
    free(f->names);
    f->names = NULL;
    f->names_n = 0;
    for (int i = 0; i < f->log_n; i++)
        free(f->log[i]);
    f->log_n = 0;
    f->cache_ok = false;
}

static void entry_free(fight_entry *f) {
    if (!f)
        return;
    cache_clear(f);
    for (int i = 0; i < TEXTS_MAX; i++)
        free(f->texts[i].text);
    fc_free(f->fc); /* issue 19 */
    fray_fight_free(f->fight);
    fray_setup_free(f->setup);
    pthread_cond_destroy(&f->cond);
    pthread_mutex_destroy(&f->mu);
    free(f);
}

static bool entry_add(fsv_server *s, fight_entry *f) {
    pthread_mutex_lock(&s->reg_mu);
    bool ok = true;
    if (s->n_fights == s->cap_fights) {
        int cap = s->cap_fights ? 2 * s->cap_fights : 16;
        fight_entry **p = realloc(s->fights, (size_t)cap * sizeof *p);
        if (!p)
            ok = false;
        else {
            s->fights = p;
            s->cap_fights = cap;
        }
    }
    if (ok)
        s->fights[s->n_fights++] = f;
    pthread_mutex_unlock(&s->reg_mu);
    return ok;
}

/* Entries live until fsv_close: the pointer stays valid without the
 * registry's lock. */
static fight_entry *entry_get(fsv_server *s, int64_t id) {
    fight_entry *f = NULL;
    pthread_mutex_lock(&s->reg_mu);
    for (int i = 0; i < s->n_fights; i++)
        if (s->fights[i]->id == id)
            f = s->fights[i];
    pthread_mutex_unlock(&s->reg_mu);
    return f;
}

/* A change of fight f (under f->mu): every live stream wakes. */
static void changed(fight_entry *f) {
    fc_cancel(f->fc); /* issue 19: the forecast under way is stale */
    f->change++;
    pthread_cond_broadcast(&f->cond);
    fc_changed(f);    /* ... and the next one starts, if one was asked */
}

/* Rebuilds f from the store (under f->mu), after a change that could
 * not be kept or a step that failed. */
static void rebuild(fsv_server *s, fight_entry *f) {
    fray_setup *setup = NULL;
    fray_fight *fight = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    pthread_mutex_lock(&s->store_mu);
    fray_status st = fs_resume(s->store, f->id, s->fights_dir, &setup,
                               &fight, &d);
    int64_t lines = 0;
    if (st == FRAY_OK) {
        fs_fight_row *rows = NULL;
        int n = 0;
        st = fs_fights(s->store, &rows, &n, &d);
        for (int i = 0; st == FRAY_OK && i < n; i++)
            if (rows[i].id == f->id)
                lines = rows[i].lines;
        free(rows);
    }
    pthread_mutex_unlock(&s->store_mu);
    cache_clear(f);
    fray_fight_free(f->fight);
    fray_setup_free(f->setup);
    f->fight = NULL;
    f->setup = NULL;
    if (st != FRAY_OK) {
        fray_fight_free(fight);
        fray_setup_free(setup);
        snprintf(f->problem, sizeof f->problem,
                 "it could not be rebuilt from the store: %s",
                 d.message[0] ? d.message : fray_strerror(st));
        if (s->log)
            fprintf(s->log, "fray serve: fight %" PRId64 ": %s\n", f->id,
                    f->problem);
    } else {
        f->setup = setup;
        f->fight = fight;
        f->lines = lines;
    }
    changed(f);
}

/* ---- Files under encounters/ ---------------------------------------------------------- */

typedef struct scan {
    fs_file *files;
    int n, cap;
    size_t bytes;
    char why[300];
} scan;

static void scan_free(scan *sc) {
    fs_files_free(sc->files, sc->n);
    memset(sc, 0, sizeof *sc);
}

static bool read_whole(const char *path, size_t limit, char **out,
                       size_t *out_len, char *why, size_t why_size) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, why_size, "%.200s: %s", path, strerror(errno));
        return false;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    bool ok = buf != NULL;
    while (ok) {
        if (n + 1 >= cap) {
            char *p = realloc(buf, cap * 2);
            if (!p) {
                ok = false;
                break;
            }
            buf = p;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (n > limit) {
            snprintf(why, why_size,
                     "the files under encounters/ pass %zu MiB together",
                     SCAN_BYTES >> 20);
            ok = false;
            break;
        }
        if (r == 0) {
            if (ferror(f)) {
                snprintf(why, why_size, "%.200s: cannot be read", path);
                ok = false;
            }
            break;
        }
    }
    if (fclose(f) != 0 && ok) {
        snprintf(why, why_size, "%.200s: %s", path, strerror(errno));
        ok = false;
    }
    if (!ok) {
        if (!why[0])
            snprintf(why, why_size, "out of memory");
        free(buf);
        return false;
    }
    buf[n] = '\0';
    *out = buf;
    *out_len = n;
    return true;
}

/* Every regular file under root/rel (no links followed, no dotfiles),
 * by its path from root. */
static bool scan_dir(scan *sc, const char *root, const char *rel, int depth) {
    char path[4096];
    snprintf(path, sizeof path, "%s%s%s", root, rel[0] ? "/" : "", rel);
    DIR *d = opendir(path);
    if (!d) {
        snprintf(sc->why, sizeof sc->why, "%.200s: %s", path, strerror(errno));
        return false;
    }
    bool ok = true;
    struct dirent *e;
    while (ok && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char sub[4096], full[4096 + 256];
        int k = snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "",
                         e->d_name);
        if (k < 0 || (size_t)k >= sizeof sub)
            continue;
        snprintf(full, sizeof full, "%s/%s", root, sub);
        struct stat st;
        if (lstat(full, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (depth < SCAN_DEPTH)
                ok = scan_dir(sc, root, sub, depth + 1);
            continue;
        }
        if (!S_ISREG(st.st_mode))
            continue;
        if (sc->n >= SCAN_FILES) {
            snprintf(sc->why, sizeof sc->why,
                     "more than %d files under encounters/", SCAN_FILES);
            ok = false;
            break;
        }
        if (sc->n == sc->cap) {
            int cap = sc->cap ? 2 * sc->cap : 32;
            fs_file *p = realloc(sc->files, (size_t)cap * sizeof *p);
            if (!p) {
                snprintf(sc->why, sizeof sc->why, "out of memory");
                ok = false;
                break;
            }
            sc->files = p;
            sc->cap = cap;
        }
        fs_file *x = &sc->files[sc->n];
        memset(x, 0, sizeof *x);
        x->name = strdup(sub);
        if (!x->name) {
            snprintf(sc->why, sizeof sc->why, "out of memory");
            ok = false;
            break;
        }
        if (!read_whole(full, SCAN_BYTES - sc->bytes, &x->text, &x->len,
                        sc->why, sizeof sc->why)) {
            free(x->name);
            ok = false;
            break;
        }
        sc->bytes += x->len;
        sc->n++;
    }
    closedir(d);
    return ok;
}

static int file_cmp(const void *a, const void *b) {
    return strcmp(((const fs_file *)a)->name, ((const fs_file *)b)->name);
}

/* Adds the file at path (a real path) to sc by its path under
 * encounters/; false with why when it is not under encounters/. */
static bool scan_add(fsv_server *s, scan *sc, const char *path) {
    size_t n = strlen(s->enc_real);
    if (strncmp(path, s->enc_real, n) != 0 || path[n] != '/') {
        snprintf(sc->why, sizeof sc->why, "the encounter reads %.200s, which "
                 "is not under encounters/ (a fight keeps only files there)",
                 path);
        return false;
    }
    if (sc->n >= SCAN_FILES) {
        snprintf(sc->why, sizeof sc->why, "the encounter reads more than %d "
                 "files", SCAN_FILES);
        return false;
    }
    if (sc->n == sc->cap) {
        int cap = sc->cap ? 2 * sc->cap : 8;
        fs_file *p = realloc(sc->files, (size_t)cap * sizeof *p);
        if (!p) {
            snprintf(sc->why, sizeof sc->why, "out of memory");
            return false;
        }
        sc->files = p;
        sc->cap = cap;
    }
    fs_file *x = &sc->files[sc->n];
    memset(x, 0, sizeof *x);
    x->name = strdup(path + n + 1);
    if (!x->name) {
        snprintf(sc->why, sizeof sc->why, "out of memory");
        return false;
    }
    if (!read_whole(path, SCAN_BYTES - sc->bytes, &x->text, &x->len, sc->why,
                    sizeof sc->why)) {
        free(x->name);
        return false;
    }
    sc->bytes += x->len;
    sc->n++;
    return true;
}

/* The files setup's load read (fray_setup_file_path), the encounter
 * first, each by its path under encounters/. *listed false when the
 * setup's ruleset does not say which (the caller keeps every file). */
static bool setup_files(fsv_server *s, const fray_setup *setup, scan *sc,
                        bool *listed) {
    memset(sc, 0, sizeof *sc);
    int n = fray_setup_file_count(setup);
    *listed = n >= 0;
    for (int i = 0; i < n; i++)
        if (!scan_add(s, sc, fray_setup_file_path(setup, i))) {
            char why[sizeof sc->why];
            memcpy(why, sc->why, sizeof why);
            scan_free(sc);
            memcpy(sc->why, why, sizeof why);
            return false;
        }
    return true;
}

static bool scan_encounters(fsv_server *s, scan *sc) {
    memset(sc, 0, sizeof *sc);
    if (!scan_dir(sc, s->enc_dir, "", 0)) {
        scan_free(sc);
        return false;
    }
    if (sc->n > 1)
        qsort(sc->files, (size_t)sc->n, sizeof *sc->files, file_cmp);
    return true;
}

/* An encounter file: .yaml or .yml whose line "fray: encounter" says so
 * (docs/file-formats.md). */
static bool is_encounter(const fs_file *f) {
    size_t n = strlen(f->name);
    if (!((n > 5 && strcmp(f->name + n - 5, ".yaml") == 0) ||
          (n > 4 && strcmp(f->name + n - 4, ".yml") == 0)))
        return false;
    for (const char *p = f->text; p && *p;) {
        if (strncmp(p, "fray:", 5) == 0) {
            const char *v = p + 5;
            while (*v == ' ' || *v == '\t')
                v++;
            return strncmp(v, "encounter", 9) == 0;
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return false;
}

/* ---- Opening and closing ----------------------------------------------------------------- */

static char *join(const char *a, const char *b) {
    size_t n = strlen(a) + strlen(b) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", a, b);
    return p;
}

static fray_status make_dir(const char *path, fray_diag *diag) {
    if (mkdir(path, 0755) == 0 || errno == EEXIST) {
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            return FRAY_OK;
        snprintf(diag->message, sizeof diag->message, "%s: not a folder",
                 path);
        return FRAY_ERR_IO;
    }
    snprintf(diag->message, sizeof diag->message, "%s: %s", path,
             strerror(errno));
    return FRAY_ERR_IO;
}

/* "0 2 3" from the ids "tony ana bob" of fight f's setup; false (with
 * why) when an id is not one of its combatants. */
static bool controls_of(const fray_setup *setup, const char *ids,
                        int *controls, int *n, char *why, size_t why_size) {
    *n = 0;
    char buf[1024];
    copy_str(buf, sizeof buf, ids);
    char *save = NULL;
    for (char *w = strtok_r(buf, " ", &save); w;
         w = strtok_r(NULL, " ", &save)) {
        int k = -1;
        for (int i = 0; i < fray_setup_combatants(setup); i++) {
            const char *id = fray_setup_combatant_id(setup, i);
            if (id && strcmp(id, w) == 0)
                k = i;
        }
        if (k < 0) {
            snprintf(why, why_size, "no combatant '%s' in this fight", w);
            return false;
        }
        bool have = false;
        for (int i = 0; i < *n; i++)
            have |= controls[i] == k;
        if (!have && *n < CONTROLS_MAX)
            controls[(*n)++] = k;
    }
    return true;
}

static fray_status load_players(fsv_server *s, fray_diag *diag) {
    fs_player_row *rows = NULL;
    int n = 0;
    fray_status st = fs_players(s->store, &rows, &n, diag);
    if (st != FRAY_OK)
        return st;
    for (int i = 0; i < n; i++) {
        fight_entry *f = entry_get(s, rows[i].fight);
        if (!f || !f->setup)
            continue; /* (an archived or broken fight's: nothing to open) */
        player p;
        memset(&p, 0, sizeof p);
        copy_str(p.token, sizeof p.token, rows[i].token);
        p.fight = rows[i].fight;
        copy_str(p.name, sizeof p.name, rows[i].name);
        copy_str(p.ids, sizeof p.ids, rows[i].combatants);
        p.enemy_numbers = rows[i].enemy_numbers;
        p.show_unnoticed = rows[i].show_unnoticed;
        char why[300];
        if (!controls_of(f->setup, p.ids, p.controls, &p.n_controls, why,
                         sizeof why)) {
            if (s->log)
                fprintf(s->log, "fray serve: fight %" PRId64 ": the player "
                        "%s's token is left out: %s\n", p.fight, p.name, why);
            continue;
        }
        if (s->n_players == s->cap_players) {
            int cap = s->cap_players ? 2 * s->cap_players : 16;
            player *np = realloc(s->players, (size_t)cap * sizeof *np);
            if (!np) {
                free(rows);
                snprintf(diag->message, sizeof diag->message, "out of memory");
                return FRAY_ERR_NOMEM;
            }
            s->players = np;
            s->cap_players = cap;
        }
        s->players[s->n_players++] = p;
    }
    free(rows);
    return FRAY_OK;
}

/* Every fight of the store in memory: those not archived resumed. */
static fray_status resume_all(fsv_server *s, fray_diag *diag) {
    fs_fight_row *rows = NULL;
    int n = 0;
    fray_status st = fs_fights(s->store, &rows, &n, diag);
    if (st != FRAY_OK)
        return st;
    /* Oldest first, as they were made. */
    for (int i = n - 1; i >= 0 && st == FRAY_OK; i--) {
        fight_entry *f = entry_new(rows[i].id);
        if (!f) {
            st = FRAY_ERR_NOMEM;
            snprintf(diag->message, sizeof diag->message, "out of memory");
            break;
        }
        copy_str(f->title, sizeof f->title, rows[i].title);
        copy_str(f->rules, sizeof f->rules, rows[i].rules);
        copy_str(f->encounter, sizeof f->encounter, rows[i].encounter);
        f->seed = rows[i].seed;
        f->archived = rows[i].archived;
        f->players_play = rows[i].players_play;
        f->players_forecast = rows[i].players_forecast; /* issue 19 */
        f->lines = rows[i].lines;
        if (!f->archived) {
            fray_diag d;
            memset(&d, 0, sizeof d);
            fray_status rs = fs_resume(s->store, f->id, s->fights_dir,
                                       &f->setup, &f->fight, &d);
            if (rs == FRAY_OK && f->lines < 1)
                snprintf(d.message, sizeof d.message,
                         "it has no journal line (not even its begin)");
            if (rs != FRAY_OK || f->lines < 1) {
                fray_fight_free(f->fight);
                fray_setup_free(f->setup);
                f->fight = NULL;
                f->setup = NULL;
                snprintf(f->problem, sizeof f->problem, "%s",
                         d.message[0] ? d.message : fray_strerror(rs));
                fprintf(s->log ? s->log : stderr,
                        "fray serve: fight %" PRId64 " (%s) cannot be "
                        "resumed: %s; it is left out (its files and journal "
                        "stay in the store)\n",
                        f->id, f->title, f->problem);
                s->failed++;
            } else {
                s->resumed++;
            }
        }
        if (!entry_add(s, f)) {
            entry_free(f);
            st = FRAY_ERR_NOMEM;
            snprintf(diag->message, sizeof diag->message, "out of memory");
        }
    }
    free(rows);
    return st;
}

fray_status fsv_open(const char *data, bool new_gm_token, FILE *log,
                     fsv_server **out, fray_diag *diag) {
    fray_diag ignored;
    if (!diag)
        diag = &ignored;
    memset(diag, 0, sizeof *diag);
    *out = NULL;
    fsv_server *s = calloc(1, sizeof *s);
    if (!s)
        return FRAY_ERR_NOMEM;
    s->log = log;
    if (pthread_mutex_init(&s->store_mu, NULL) != 0) {
        free(s);
        return FRAY_ERR_NOMEM;
    }
    if (pthread_mutex_init(&s->reg_mu, NULL) != 0) {
        pthread_mutex_destroy(&s->store_mu);
        free(s);
        return FRAY_ERR_NOMEM;
    }
    s->data = strdup(data);
    s->enc_dir = join(data, "encounters");
    s->fights_dir = join(data, "fights");
    char *db = join(data, "fray.sqlite");
    char real[PATH_MAX];
    fray_status st = FRAY_OK;
    if (!s->data || !s->enc_dir || !s->fights_dir || !db) {
        st = FRAY_ERR_NOMEM;
        snprintf(diag->message, sizeof diag->message, "out of memory");
    }
    if (st == FRAY_OK)
        st = make_dir(data, diag);
    if (st == FRAY_OK)
        st = make_dir(s->enc_dir, diag);
    if (st == FRAY_OK)
        st = make_dir(s->fights_dir, diag);
    char *uploads = st == FRAY_OK ? join(s->enc_dir, "uploads") : NULL;
    if (st == FRAY_OK && !uploads) {
        snprintf(diag->message, sizeof diag->message, "out of memory");
        st = FRAY_ERR_NOMEM;
    }
    if (st == FRAY_OK)
        st = make_dir(uploads, diag);
    free(uploads);
    if (st == FRAY_OK && !realpath(s->enc_dir, real)) {
        snprintf(diag->message, sizeof diag->message, "%s: %s", s->enc_dir,
                 strerror(errno));
        st = FRAY_ERR_IO;
    }
    if (st == FRAY_OK && !(s->enc_real = strdup(real))) {
        snprintf(diag->message, sizeof diag->message, "out of memory");
        st = FRAY_ERR_NOMEM;
    }
    if (st == FRAY_OK)
        st = fs_open(db, &s->store, diag);
    free(db);
    bool found = false;
    if (st == FRAY_OK)
        st = fs_meta_get(s->store, "gm-token", s->gm, sizeof s->gm, &found,
                         diag);
    if (st == FRAY_OK && (!found || new_gm_token || strlen(s->gm) != TOKEN_HEX)) {
        st = make_token(s->gm, diag);
        if (st == FRAY_OK)
            st = fs_meta_set(s->store, "gm-token", s->gm, diag);
    }
    if (st == FRAY_OK)
        st = resume_all(s, diag);
    if (st == FRAY_OK)
        st = load_players(s, diag);
    if (st != FRAY_OK) {
        fray_diag d2;
        if (fsv_close(s, &d2) != FRAY_OK && log)
            fprintf(log, "fray serve: %s\n", d2.message);
        return st;
    }
    *out = s;
    return FRAY_OK;
}

void fsv_stop(fsv_server *s) {
    pthread_mutex_lock(&s->reg_mu);
    int n = s->n_fights;
    fight_entry **copy = n ? malloc((size_t)n * sizeof *copy) : NULL;
    if (copy)
        memcpy(copy, s->fights, (size_t)n * sizeof *copy);
    pthread_mutex_unlock(&s->reg_mu);
    for (int i = 0; copy && i < n; i++) {
        pthread_mutex_lock(&copy[i]->mu);
        copy[i]->stopping = true;
        pthread_cond_broadcast(&copy[i]->cond);
        pthread_mutex_unlock(&copy[i]->mu);
    }
    free(copy);
}

fray_status fsv_close(fsv_server *s, fray_diag *diag) {
    if (!s)
        return FRAY_OK;
    fray_status st = fs_close(s->store, diag);
    for (int i = 0; i < s->n_fights; i++)
        entry_free(s->fights[i]);
    free(s->fights);
    free(s->players);
    free(s->data);
    free(s->enc_dir);
    free(s->enc_real);
    free(s->fights_dir);
    pthread_mutex_destroy(&s->store_mu);
    pthread_mutex_destroy(&s->reg_mu);
    free(s);
    return st;
}

const char *fsv_gm_token(const fsv_server *s) { return s->gm; }

int fsv_resumed(const fsv_server *s, int *out_failed) {
    if (out_failed)
        *out_failed = s->failed;
    return s->resumed;
}

/* ---- Narration ----------------------------------------------------------------------- */

/* Event i narrated (malloc'd; NULL when out of memory). A move of the
 * clock alone narrates as nothing in the library: said here. */
static char *narrate(const fray_fight *fight, int i, bool say_clock) {
    size_t n = fray_event_narrate(fight, i, NULL, 0);
    char *p = malloc(n + 1);
    if (!p)
        return NULL;
    fray_event_narrate(fight, i, p, n + 1);
    if (n == 0 && say_clock) {
        free(p);
        char line[128];
        snprintf(line, sizeof line, "The clock moves on to %s %d.\n",
                 fray_setup_time_unit(fray_fight_setup(fight)),
                 fray_fight_now(fight));
        p = strdup(line);
    }
    return p;
}

/* Whether logged event k (of f's cache) tells of a combatant the scope
 * does not see: by whom its data names (fray_event_names), and, as well,
 * by the names and ids in its words. */
static bool mentions_hidden(const fight_entry *f, int k,
                            const fray_view_scope *scope, const char *text) {
    const fray_fight_view *v = f->view;
    for (int c = 0; f->names_known[k] && c < v->n_combatants; c++) {
        if (c < f->names_n && f->names[k * f->names_n + c] &&
            !fray_view_sees_combatant(v, scope, c))
            return true;
    }
    for (int c = 0; c < v->n_combatants; c++) {
        if (fray_view_sees_combatant(v, scope, c))
            continue;
        const fray_view_combatant *x = &v->combatants[c];
        if ((x->name && x->name[0] && strstr(text, x->name)) ||
            (x->id && x->id[0] && strstr(text, x->id)))
            return true;
    }
    return false;
}

/* Whether logged event k (of f's cache) tells only of combatants of the
 * player's own sides (those of the combatants its token controls): by
 * whom its data names, and no other combatant's name or id in its words.
 * false when the ruleset does not say whom its events name. */
static bool own_sides_only(const fight_entry *f, int k, const who *w,
                           const char *text) {
    const fray_fight_view *v = f->view;
    if (!f->names_known[k])
        return false;
    uint64_t own = 0;
    for (int i = 0; i < w->p.n_controls; i++) {
        int c = w->p.controls[i];
        if (c >= 0 && c < v->n_combatants && v->combatants[c].side >= 0 &&
            v->combatants[c].side < 64)
            own |= (uint64_t)1 << v->combatants[c].side;
    }
    for (int c = 0; c < v->n_combatants; c++) {
        int side = v->combatants[c].side;
        if (side >= 0 && side < 64 && ((own >> side) & 1))
            continue;
        if (c < f->names_n && f->names[k * f->names_n + c])
            return false;
        const fray_view_combatant *x = &v->combatants[c];
        if ((x->name && x->name[0] && strstr(text, x->name)) ||
            (x->id && x->id[0] && strstr(text, x->id)))
            return false;
    }
    return true;
}

/* "attack: Tony, Bandit 1 (numbers kept by the GM)": logged event k's
 * action word and the names of the combatants it names (every one the
 * scope sees: the caller has checked), with no number, into buf. */
static const char *brief_of(const fight_entry *f, int k,
                            const fray_view_scope *sc, char *buf,
                            size_t size) {
    const fray_fight_view *v = f->view;
    const char *act = fray_event_action(f->fight, f->log_from + k);
    int n = snprintf(buf, size, "%s:", act ? act : "event");
    bool any = false;
    for (int c = 0; c < v->n_combatants && n > 0 && (size_t)n < size; c++) {
        if (c >= f->names_n || !f->names[k * f->names_n + c] ||
            !fray_view_sees_combatant(v, sc, c))
            continue;
        n += snprintf(buf + n, size - (size_t)n, "%s %s", any ? "," : "",
                      v->combatants[c].name);
        any = true;
    }
    if (n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, " (numbers kept by the GM)");
    return buf;
}

/* Logged event k narrated for the scope (fray_event_narrate_for), as
 * {"event", "text"} after a comma unless first; false, with nothing
 * written, when the library cannot (a ruleset without it) or memory ran
 * out (the caller falls back to brief_of). */
static bool told_for(const fight_entry *f, int k, const fray_view_scope *sc,
                     fsv_text *t, bool first) {
    int i = f->log_from + k;
    size_t n = 0;
    if (fray_event_narrate_for(f->fight, i, sc, NULL, 0, &n, NULL) != FRAY_OK)
        return false;
    char *s = malloc(n + 1);
    if (!s)
        return false;
    size_t m = 0;
    if (fray_event_narrate_for(f->fight, i, sc, s, n + 1, &m, NULL) != FRAY_OK ||
        m != n) {
        free(s);
        return false;
    }
    fsv_text_printf(t, "%s{\"event\":%d,\"text\":", first ? "" : ",", i);
    fsv_text_json(t, s);
    fsv_text_str(t, "}");
    free(s);
    return true;
}

static fray_view_scope scope_of(const who *w) {
    if (w->gm)
        return fray_view_scope_gm();
    fray_view_scope sc = fray_view_scope_player(w->p.controls,
                                                w->p.n_controls);
    sc.enemy_numbers = w->p.enemy_numbers;
    sc.show_unnoticed = w->p.show_unnoticed;
    return sc;
}

/* The fight as `w` sees it (under f->mu; f->fight not NULL):
 * {"fight", "title", "rules", "seed", "events", "change",
 *  "players_play", "you", "view", "log"}. */
static bool cache_fill(fight_entry *f) {
    if (f->cache_ok && f->cached == f->change)
        return true;
    cache_clear(f);
    if (fray_fight_view_new(f->fight, NULL, &f->view) != FRAY_OK)
        return false;
    int n = fray_fight_events(f->fight);
    f->log_from = n > LOG_MAX ? n - LOG_MAX : 0;
    int nc = fray_setup_combatants(f->setup);
    f->names_n = nc > 0 ? nc : 1;
    f->names = calloc((size_t)LOG_MAX * (size_t)f->names_n, sizeof *f->names);
    if (!f->names) {
        cache_clear(f);
        return false;
    }
    for (int i = f->log_from; i < n; i++) {
        char *s = narrate(f->fight, i, false);
        if (!s) {
            cache_clear(f);
            return false;
        }
        int k = f->log_n;
        f->names_known[k] = fray_event_names(f->fight, i,
                                             f->names + k * f->names_n,
                                             f->names_n) >= 0;
        f->log[f->log_n++] = s;
    }
    f->cached = f->change;
    f->cache_ok = true;
    return true;
}

static bool write_state(fight_entry *f, const who *w, fsv_text *t) {
    if (!cache_fill(f))
        return false;
    const fray_fight_view *v = f->view;
    fray_view_scope sc = scope_of(w);
    size_t need = fray_fight_view_json(v, &sc, NULL, 0);
    int n = fray_fight_events(f->fight);
    fsv_text_printf(t, "{\"fight\":%" PRId64 ",\"title\":", f->id);
    fsv_text_json(t, f->title);
    fsv_text_str(t, ",\"rules\":");
    fsv_text_json(t, f->rules);
    fsv_text_printf(t, ",\"seed\":\"%" PRIu64 "\",\"events\":%d,"
                    "\"change\":%" PRIu64 ",\"players_play\":%s,\"you\":",
                    f->seed, n, f->change, f->players_play ? "true" : "false");
    if (w->gm) {
        fsv_text_str(t, "{\"gm\":true}");
    } else {
        fsv_text_str(t, "{\"gm\":false,\"player\":");
        fsv_text_json(t, w->p.name);
        fsv_text_str(t, ",\"combatants\":[");
        for (int i = 0; i < w->p.n_controls; i++) {
            if (i)
                fsv_text_str(t, ",");
            fsv_text_printf(t, "%d", w->p.controls[i]);
        }
        fsv_text_str(t, "]}");
    }
    fsv_text_str(t, ",\"view\":");
    if (fsv_text_reserve(t, need)) {
        fray_fight_view_json(v, &sc, t->p + t->len, need + 1);
        t->len += need;
    }
    /* The log: the last narrated events. A player's leaves out any that
     * names a combatant it does not see; when the GM hides the enemies'
     * numbers, the library tells the others with descriptors instead
     * (fray_event_narrate_for), or, for a ruleset that cannot, briefly. */
    fsv_text_str(t, ",\"log\":[");
    bool first = true;
    {
        for (int k = 0; k < f->log_n; k++) {
            const char *s = f->log[k];
            if (!s[0] || (!w->gm && mentions_hidden(f, k, &sc, s)))
                continue;
            if (w->gm || w->p.enemy_numbers || own_sides_only(f, k, w, s)) {
                fsv_text_printf(t, "%s{\"event\":%d,\"text\":", first ? "" : ",",
                                f->log_from + k);
                fsv_text_json(t, s);
                fsv_text_str(t, "}");
                first = false;
            } else if (told_for(f, k, &sc, t, first)) {
                /* Told for the scope by the library (issue 14): every
                 * card, die, hit and miss, the enemies' numbers as the
                 * view's descriptors. */
                first = false;
            } else if (f->names_known[k]) {
                /* A ruleset that cannot narrate without the numbers: what
                 * was done and whom it named, no numbers. */
                fsv_text_printf(t, "%s{\"event\":%d,\"brief\":true,\"text\":",
                                first ? "" : ",", f->log_from + k);
                char brief[1024];
                fsv_text_json(t, brief_of(f, k, &sc, brief, sizeof brief));
                fsv_text_str(t, "}");
                first = false;
            }
        }
    }
    fsv_text_str(t, "]}");
    return !t->failed;
}

/* ---- Requests: helpers ---------------------------------------------------------------- */

/* The body as a JSON object (an empty body: an empty object when
 * empty_ok). NULL with the 400 answered. */
static json_t *body_object(const char *body, size_t len, bool empty_ok,
                           fsv_response *out) {
    if (len == 0 && empty_ok)
        return json_object();
    if (len == 0) {
        answer_error(out, 400, "this call needs a JSON object as its body");
        return NULL;
    }
    json_error_t e;
    json_t *j = json_loadb(body, len, JSON_REJECT_DUPLICATES, &e);
    if (!j) {
        answer_error(out, 400, "the body is not JSON: %s (line %d, column %d)",
                     e.text, e.line, e.column);
        return NULL;
    }
    if (!json_is_object(j)) {
        json_decref(j);
        answer_error(out, 400, "the body must be a JSON object ({...})");
        return NULL;
    }
    return j;
}

/* Refuses keys the call does not know (a typo is not silently ignored). */
static bool only_keys(json_t *j, const char *const *keys, int n,
                      fsv_response *out) {
    const char *k;
    json_t *v;
    json_object_foreach(j, k, v) {
        bool known = false;
        for (int i = 0; i < n; i++)
            known |= strcmp(k, keys[i]) == 0;
        if (!known) {
            char list[256] = "";
            for (int i = 0; i < n; i++) {
                strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
                strncat(list, keys[i], sizeof list - strlen(list) - 1);
            }
            answer_error(out, 400, "unknown key '%s' (this call takes: %s)",
                         k, n ? list : "nothing");
            return false;
        }
    }
    return true;
}

/* Lines of events [from, to) of f's fight, kept in the store (under f->mu). */
static fray_status keep_events(fsv_server *s, fight_entry *f, int from, int to,
                               fray_diag *d) {
    if (from >= to)
        return FRAY_OK;
    int count = to - from;
    char **lines = calloc((size_t)count, sizeof *lines);
    size_t *lens = calloc((size_t)count, sizeof *lens);
    fray_status st = lines && lens ? FRAY_OK : FRAY_ERR_NOMEM;
    for (int i = 0; i < count && st == FRAY_OK; i++) {
        size_t n = fray_event_json(f->fight, from + i, NULL, 0);
        lines[i] = malloc(n + 1);
        if (!lines[i]) {
            st = FRAY_ERR_NOMEM;
            break;
        }
        fray_event_json(f->fight, from + i, lines[i], n + 1);
        lens[i] = n;
    }
    if (st == FRAY_OK) {
        pthread_mutex_lock(&s->store_mu);
        st = fs_lines_add(s->store, f->id, f->lines,
                          (const char *const *)lines, lens, count, d);
        pthread_mutex_unlock(&s->store_mu);
        if (st == FRAY_OK)
            f->lines += count;
    } else {
        snprintf(d->message, sizeof d->message, "out of memory");
    }
    for (int i = 0; lines && i < count; i++)
        free(lines[i]);
    free(lines);
    free(lens);
    return st;
}

static fray_status keep_mark(fsv_server *s, fight_entry *f, fray_mark m,
                             int k, fray_diag *d) {
    char line[128];
    size_t len = fray_journal_mark(m, k, line, sizeof line);
    if (len >= sizeof line) {
        snprintf(d->message, sizeof d->message, "the mark does not fit");
        return FRAY_ERR_RANGE;
    }
    const char *p = line;
    pthread_mutex_lock(&s->store_mu);
    fray_status st = fs_lines_add(s->store, f->id, f->lines, &p, &len, 1, d);
    pthread_mutex_unlock(&s->store_mu);
    if (st == FRAY_OK)
        f->lines++;
    return st;
}

/* Narrations of events [from, to) as "events":[...] plus where the fight
 * now is. */
static void write_told(fight_entry *f, int from, int to, fsv_text *t) {
    bool first = true;
    fsv_text_str(t, "\"events\":[");
    for (int i = from; i < to; i++) {
        char *s = narrate(f->fight, i, i == to - 1);
        if (!s) {
            t->failed = true;
            break;
        }
        if (s[0]) {
            /* (a move of the clock before an action says nothing) */
            fsv_text_printf(t, "%s{\"event\":%d,\"text\":",
                            first ? "" : ",", i);
            fsv_text_json(t, s);
            fsv_text_str(t, "}");
            first = false;
        }
        free(s);
    }
    char when[64] = "";
    const char *turn = fray_fight_turn(f->fight, when, sizeof when);
    fsv_text_printf(t, "],\"%s\":%d,\"over\":%s,\"winner\":%d,\"turn\":",
                    fray_setup_time_unit(f->setup), fray_fight_now(f->fight),
                    fray_fight_over(f->fight) ? "true" : "false",
                    fray_fight_winner(f->fight));
    fsv_text_json(t, turn);
    fsv_text_str(t, ",\"when\":");
    fsv_text_json(t, when);
}

/* The fight is here and can be changed or seen (under f->mu); false with
 * the answer given. */
static bool usable(fight_entry *f, fsv_response *out) {
    if (f->archived) {
        answer_error(out, 410, "fight %" PRId64 " is archived", f->id);
        return false;
    }
    if (!f->fight) {
        answer_error(out, 409, "fight %" PRId64 " could not be resumed: %s",
                     f->id, f->problem);
        return false;
    }
    return true;
}

static bool refusal(fray_status st) {
    return st == FRAY_ERR_PARSE || st == FRAY_ERR_INVALID ||
           st == FRAY_ERR_RANGE || st == FRAY_ERR_DECK_EMPTY ||
           st == FRAY_ERR_CARD_UNAVAILABLE;
}

/* ---- The calls ------------------------------------------------------------------------- */

static const char INDEX_PAGE[] =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width\">\n"
    "<title>fray serve</title></head><body>\n"
    "<h1>fray serve</h1>\n"
    "<p>The GM's and the players' pages were not found (fray serve --web\n"
    "DIR names their folder, web/ in the source tree). The HTTP\n"
    "interface is (docs/server.md); every call but the health check takes\n"
    "<code>Authorization: Bearer TOKEN</code>.</p>\n<ul>\n"
    "<li><code>GET /api/health</code></li>\n"
    "<li><code>GET /api/encounters</code> (GM)</li>\n"
    "<li><code>GET /api/fights</code>, <code>POST /api/fights</code> "
    "<code>{\"encounter\", \"seed\"}</code> (GM)</li>\n"
    "<li><code>GET /api/fights/ID</code> (GM, player)</li>\n"
    "<li><code>POST /api/fights/ID/command</code> <code>{\"text\", \"cards\", "
    "\"dice\"}</code></li>\n"
    "<li><code>POST /api/fights/ID/step</code>, <code>/undo</code>, "
    "<code>/redo</code>, <code>/archive</code> (GM)</li>\n"
    "<li><code>POST /api/fights/ID/players</code> <code>{\"name\", "
    "\"combatants\"}</code>, <code>POST /api/fights/ID/settings</code> "
    "<code>{\"players_play\"}</code> (GM)</li>\n"
    "<li><code>GET /api/fights/ID/odds?who=ID</code>, "
    "<code>GET /api/fights/ID/forecast</code> (GM, player)</li>\n"
    "<li><code>GET /api/fights/ID/journal</code> (GM, JSON Lines)</li>\n"
    "<li><code>GET /api/fights/ID/live</code> (GM, player; "
    "text/event-stream)</li>\n"
    "</ul></body></html>\n";

static void call_index(fsv_response *out) {
    fsv_text t = {0};
    fsv_text_str(&t, INDEX_PAGE);
    answer_text(out, 200, "text/html; charset=utf-8", &t);
}

static void call_health(fsv_server *s, fsv_response *out) {
    pthread_mutex_lock(&s->reg_mu);
    int n = s->n_fights;
    pthread_mutex_unlock(&s->reg_mu);
    fsv_text t = {0};
    fsv_text_printf(&t, "{\"ok\":true,\"version\":");
    fsv_text_json(&t, fray_version());
    fsv_text_printf(&t, ",\"fights\":%d}", n);
    answer_json(out, 200, &t);
}

static void call_encounters(fsv_server *s, fsv_response *out) {
    scan sc;
    if (!scan_encounters(s, &sc)) {
        answer_error(out, 500, "the encounters cannot be listed: %s", sc.why);
        return;
    }
    fsv_text t = {0};
    fsv_text_str(&t, "{\"encounters\":[");
    bool first = true;
    for (int i = 0; i < sc.n; i++) {
        if (!is_encounter(&sc.files[i]))
            continue;
        fsv_text_str(&t, first ? "{\"name\":" : ",{\"name\":");
        fsv_text_json(&t, sc.files[i].name);
        fsv_text_str(&t, "}");
        first = false;
    }
    fsv_text_str(&t, "]}");
    scan_free(&sc);
    answer_json(out, 200, &t);
}

static void call_fights(fsv_server *s, fsv_response *out) {
    pthread_mutex_lock(&s->reg_mu);
    int n = s->n_fights;
    fight_entry **copy = n ? malloc((size_t)n * sizeof *copy) : NULL;
    if (copy)
        memcpy(copy, s->fights, (size_t)n * sizeof *copy);
    pthread_mutex_unlock(&s->reg_mu);
    if (n && !copy) {
        answer_nomem(out);
        return;
    }
    fsv_text t = {0};
    fsv_text_str(&t, "{\"fights\":[");
    for (int i = n - 1; i >= 0; i--) {
        fight_entry *f = copy[i];
        pthread_mutex_lock(&f->mu);
        fsv_text_printf(&t, "%s{\"id\":%" PRId64 ",\"title\":",
                        i < n - 1 ? "," : "", f->id);
        fsv_text_json(&t, f->title);
        fsv_text_str(&t, ",\"rules\":");
        fsv_text_json(&t, f->rules);
        fsv_text_str(&t, ",\"encounter\":");
        fsv_text_json(&t, f->encounter);
        fsv_text_printf(&t, ",\"seed\":\"%" PRIu64 "\",\"archived\":%s,"
                        "\"lines\":%" PRId64 ",\"players_play\":%s",
                        f->seed, f->archived ? "true" : "false", f->lines,
                        f->players_play ? "true" : "false");
        if (f->fight) {
            char when[64] = "";
            const char *turn = fray_fight_turn(f->fight, when, sizeof when);
            fsv_text_printf(&t, ",\"%s\":%d,\"over\":%s,\"winner\":%d,"
                            "\"turn\":",
                            fray_setup_time_unit(f->setup),
                            fray_fight_now(f->fight),
                            fray_fight_over(f->fight) ? "true" : "false",
                            fray_fight_winner(f->fight));
            fsv_text_json(&t, turn);
            fsv_text_str(&t, ",\"when\":");
            fsv_text_json(&t, when);
        } else if (!f->archived) {
            fsv_text_str(&t, ",\"problem\":");
            fsv_text_json(&t, f->problem);
        }
        fsv_text_str(&t, "}");
        pthread_mutex_unlock(&f->mu);
    }
    free(copy);
    fsv_text_str(&t, "]}");
    answer_json(out, 200, &t);
}

/* The seed of {"seed": N} or {"seed": "N"} (0 .. 2^64 - 1). */
static bool read_seed(json_t *v, uint64_t *out, fsv_response *resp) {
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *out = (uint64_t)json_integer_value(v);
        return true;
    }
    if (json_is_string(v)) {
        const char *p = json_string_value(v);
        if (p[0] && strspn(p, "0123456789") == strlen(p) && strlen(p) <= 20) {
            errno = 0;
            unsigned long long x = strtoull(p, NULL, 10);
            if (errno == 0) {
                *out = (uint64_t)x;
                return true;
            }
        }
    }
    answer_error(resp, 400,
                 "seed: expected a whole number from 0 to 2^64 - 1 (a number, "
                 "or its digits in a string)");
    return false;
}

/* ---- Uploads ------------------------------------------------------------------------- */

/* The file a diag blames, named under encounters/ (an upload's temporary
 * file by the upload's name). */
static const char *blamed(const fsv_server *s, const fray_diag *d,
                          const char *tmp, const char *name) {
    const char *f = fray_diag_file(d);
    if (!f)
        return name;
    if (tmp && strcmp(f, tmp) == 0)
        return name;
    size_t n = strlen(s->enc_dir);
    if (strncmp(f, s->enc_dir, n) == 0 && f[n] == '/')
        return f + n + 1;
    n = strlen(s->enc_real);
    if (strncmp(f, s->enc_real, n) == 0 && f[n] == '/')
        return f + n + 1;
    return f;
}

/* A load's refusal as a 422: file:line:column: message. */
static void answer_load_error(fsv_server *s, fsv_response *out,
                              const fray_diag *d, fray_status st,
                              const char *tmp, const char *name) {
    const char *msg = d->message[0] ? d->message : fray_strerror(st);
    if (d->line > 0)
        answer_error(out, 422, "%s:%d:%d: %s", blamed(s, d, tmp, name),
                     d->line, d->column > 0 ? d->column : 1, msg);
    else
        answer_error(out, 422, "%s: %s", blamed(s, d, tmp, name), msg);
}

/* An upload's name: letters, digits, '.', '-', '_', not first a '.',
 * ending in .yaml or .yml, at most 100 bytes. */
static bool upload_name_ok(const char *n) {
    size_t len = strlen(n);
    if (len < 5 || len > 100 || n[0] == '.')
        return false;
    for (const char *p = n; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr(".-_", *p))
            return false;
    return (len > 5 && strcmp(n + len - 5, ".yaml") == 0) ||
           strcmp(n + len - 4, ".yml") == 0;
}

/* Whether the file at path holds exactly text (len bytes). */
static bool same_text(const char *path, const char *text, size_t len) {
    char *have = NULL;
    size_t have_len = 0;
    char why[300] = "";
    if (!read_whole(path, FSV_BODY_MAX, &have, &have_len, why, sizeof why))
        return false;
    bool same = have_len == len && memcmp(have, text, len) == 0;
    free(have);
    return same;
}

/* fsync of a folder (after a name was made in it). */
static bool sync_dir(const char *dir, char *why, size_t size) {
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, size, "%s: %s", dir, strerror(errno));
        return false;
    }
    bool ok = fsync(fd) == 0;
    if (!ok)
        snprintf(why, size, "%s: %s", dir, strerror(errno));
    if (close(fd) != 0 && ok) {
        snprintf(why, size, "%s: %s", dir, strerror(errno));
        ok = false;
    }
    return ok;
}

/* Writes text to a new temporary file in dir (a dot file: no list shows
 * it), synced to the disk; its path in tmp. */
static bool write_temp(const char *dir, const char *text, size_t len,
                       char *tmp, size_t size, char *why, size_t why_size) {
    snprintf(tmp, size, "%s/.upload-XXXXXX", dir);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(why, why_size, "%.400s: %.150s", dir, strerror(errno));
        return false;
    }
    bool ok = true;
    for (size_t done = 0; ok && done < len;) {
        ssize_t w = write(fd, text + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            ok = false;
        else
            done += (size_t)w;
    }
    if (ok && fsync(fd) != 0)
        ok = false;
    if (!ok)
        snprintf(why, why_size, "%.400s: %.150s", tmp, strerror(errno));
    if (close(fd) != 0 && ok) {
        snprintf(why, why_size, "%.400s: %.150s", tmp, strerror(errno));
        ok = false;
    }
    if (!ok)
        unlink(tmp);
    return ok;
}

/* {"name": "my.yaml", "text": "..."}: written to encounters/uploads/NAME
 * (atomically: a temporary file synced, linked to its name, the folder
 * synced) once the rules have loaded it; *out_name its name under
 * encounters/. false with the answer given (400 a bad name or text, 409
 * another text under that name, 422 a file the rules refuse: nothing is
 * left behind). */
static bool upload(fsv_server *s, json_t *up, char *out_name, size_t size,
                   fsv_response *out) {
    static const char *const keys[] = {"name", "text"};
    if (!json_is_object(up)) {
        answer_error(out, 400, "upload: expected {\"name\": \"my.yaml\", "
                     "\"text\": \"...\"}");
        return false;
    }
    if (!only_keys(up, keys, 2, out))
        return false;
    json_t *nv = json_object_get(up, "name");
    json_t *tv = json_object_get(up, "text");
    if (!json_is_string(nv) || !upload_name_ok(json_string_value(nv))) {
        answer_error(out, 400, "upload: name: expected a file's name of "
                     "letters, digits, '.', '-' and '_' (not first a '.'), "
                     "ending in .yaml or .yml, at most 100 bytes, like "
                     "\"my-fight.yaml\"");
        return false;
    }
    if (!json_is_string(tv)) {
        answer_error(out, 400, "upload: text: expected the file's text (a "
                     "string)");
        return false;
    }
    const char *name = json_string_value(nv);
    const char *text = json_string_value(tv);
    size_t len = json_string_length(tv);
    if (strlen(text) != len) {
        answer_error(out, 400, "upload: text: a NUL character is not text");
        return false;
    }
    snprintf(out_name, size, "uploads/%s", name);
    fs_file probe = {out_name, (char *)text, len};
    if (!is_encounter(&probe)) {
        answer_error(out, 422, "%s:1:1: not an encounter file: it has no "
                     "line 'fray: encounter' (docs/file-formats.md)",
                     out_name);
        return false;
    }
    char *dir = join(s->enc_dir, "uploads");
    char *final = dir ? join(dir, name) : NULL;
    char tmp[4096 + 64], why[600] = "";
    bool ok = dir && final;
    if (!ok) {
        free(dir);
        answer_nomem(out);
        return false;
    }
    struct stat st;
    if (lstat(final, &st) == 0) {
        /* Already there: the same text is that file again. */
        ok = S_ISREG(st.st_mode) && same_text(final, text, len);
        if (!ok)
            answer_error(out, 409, "%s is there already with another text "
                         "(upload it under another name)", out_name);
        free(dir);
        free(final);
        return ok;
    }
    if (!write_temp(dir, text, len, tmp, sizeof tmp, why, sizeof why)) {
        answer_error(out, 500, "the upload was not written: %s", why);
        free(dir);
        free(final);
        return false;
    }
    /* The rules load it where it will be (the files it names are found
     * from encounters/uploads/), before it has its name. */
    fray_setup *check = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status ls = fray_setup_load(tmp, NULL, &check, &d);
    if (ls != FRAY_OK) {
        answer_load_error(s, out, &d, ls, tmp, out_name);
        unlink(tmp);
        free(dir);
        free(final);
        return false;
    }
    /* Every file it reads must be under encounters/ (a fight keeps only
     * those). */
    scan used;
    bool listed = false;
    ok = setup_files(s, check, &used, &listed);
    fray_setup_free(check);
    if (ok)
        scan_free(&used); /* (a refusal has freed it, keeping why) */
    if (!ok) {
        answer_error(out, 422, "%s: %s", out_name, used.why);
        unlink(tmp);
        free(dir);
        free(final);
        return false;
    }
    /* link() never replaces a file: another upload of the same name at
     * the same moment wins, and this one is compared with it. */
    if (link(tmp, final) != 0) {
        int e = errno;
        if (e == EEXIST) {
            ok = same_text(final, text, len);
            if (!ok)
                answer_error(out, 409, "%s is there already with another "
                             "text (upload it under another name)", out_name);
        } else {
            ok = false;
            answer_error(out, 500, "the upload was not written: %s: %s",
                         final, strerror(e));
        }
        unlink(tmp);
        free(dir);
        free(final);
        return ok;
    }
    if (unlink(tmp) != 0 || !sync_dir(dir, why, sizeof why)) {
        if (!why[0])
            snprintf(why, sizeof why, "%.400s: %s", tmp, strerror(errno));
        unlink(final);
        answer_error(out, 500, "the upload was not written: %s", why);
        ok = false;
    }
    free(dir);
    free(final);
    return ok;
}

static void call_new_fight(fsv_server *s, const char *body, size_t len,
                           fsv_response *out) {
    json_t *j = body_object(body, len, false, out);
    if (!j)
        return;
    static const char *const keys[] = {"encounter", "seed", "upload"};
    if (!only_keys(j, keys, 3, out)) {
        json_decref(j);
        return;
    }
    json_t *enc = json_object_get(j, "encounter");
    json_t *up = json_object_get(j, "upload");
    if ((enc && up) || (!json_is_string(enc) && !up)) {
        json_decref(j);
        answer_error(out, 400, "encounter: expected the name of an encounter "
                     "file, as GET /api/encounters lists them (or upload: "
                     "{\"name\", \"text\"}, one or the other)");
        return;
    }
    uint64_t seed = 0;
    json_t *sv = json_object_get(j, "seed");
    if (sv && !read_seed(sv, &seed, out)) {
        json_decref(j);
        return;
    }
    if (!sv && !random_seed(&seed)) {
        json_decref(j);
        answer_error(out, 500, "getrandom: %s", strerror(errno));
        return;
    }
    char uploaded[160];
    if (up) {
        if (!upload(s, up, uploaded, sizeof uploaded, out)) {
            json_decref(j);
            return;
        }
        enc = NULL;
    }
    const char *enc_name = enc ? json_string_value(enc) : uploaded;
    scan sc;
    if (!scan_encounters(s, &sc)) {
        json_decref(j);
        answer_error(out, 500, "the encounters cannot be listed: %s", sc.why);
        return;
    }
    /* The name is matched against the list: nothing a request says is
     * used as a path. */
    int k = -1;
    for (int i = 0; i < sc.n; i++)
        if (strcmp(sc.files[i].name, enc_name) == 0 &&
            is_encounter(&sc.files[i]))
            k = i;
    if (k < 0) {
        answer_error(out, 404, "no encounter '%s' under encounters/ (GET "
                     "/api/encounters lists them)", enc_name);
        json_decref(j);
        scan_free(&sc);
        return;
    }
    json_decref(j);
    /* Checked where it is first, so a file that does not load is told
     * with its line and column and nothing is kept. */
    char *path = join(s->enc_dir, sc.files[k].name);
    fray_setup *check = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status st = path ? fray_setup_load(path, NULL, &check, &d)
                          : FRAY_ERR_NOMEM;
    if (st != FRAY_OK) {
        /* (d.file may be path: told before path is freed) */
        answer_load_error(s, out, &d, st, NULL, sc.files[k].name);
        free(path);
        scan_free(&sc);
        return;
    }
    free(path);
    char title[128], rules[16];
    snprintf(title, sizeof title, "%s",
             fray_setup_name(check) && fray_setup_name(check)[0]
                 ? fray_setup_name(check)
                 : sc.files[k].name);
    copy_str(rules, sizeof rules, fray_setup_rules(check));
    /* The files the encounter's load read, the encounter first (when
     * its ruleset does not say which: every file under encounters/). */
    scan used;
    bool listed = false;
    bool used_ok = setup_files(s, check, &used, &listed);
    fray_setup_free(check);
    if (!used_ok) {
        answer_error(out, 422, "%s", used.why);
        scan_free(&sc);
        return;
    }
    if (listed) {
        scan_free(&sc);
        sc = used;
        k = 0;
    }
    if (k > 0) {
        fs_file x = sc.files[k];
        memmove(sc.files + 1, sc.files, (size_t)k * sizeof *sc.files);
        sc.files[0] = x;
    }
    fight_entry *f = NULL;
    int64_t id = 0;
    pthread_mutex_lock(&s->store_mu);
    st = fs_fight_add(s->store, title, rules, seed, sc.files, sc.n, &id, &d);
    if (st == FRAY_OK) {
        f = entry_new(id);
        if (!f)
            st = FRAY_ERR_NOMEM;
    }
    if (st == FRAY_OK)
        st = fs_resume(s->store, id, s->fights_dir, &f->setup, &f->fight, &d);
    pthread_mutex_unlock(&s->store_mu);
    if (st == FRAY_OK) {
        copy_str(f->title, sizeof f->title, title);
        copy_str(f->rules, sizeof f->rules, rules);
        copy_str(f->encounter, sizeof f->encounter, sc.files[0].name);
        f->seed = seed;
        pthread_mutex_lock(&f->mu);
        st = keep_events(s, f, 0, fray_fight_events(f->fight), &d);
        pthread_mutex_unlock(&f->mu);
    }
    scan_free(&sc);
    if (st != FRAY_OK) {
        if (id > 0) {
            /* Kept as archived, not resumed: the store keeps what it has. */
            fray_diag d2;
            pthread_mutex_lock(&s->store_mu);
            if (fs_archive(s->store, id, &d2) != FRAY_OK && s->log)
                fprintf(s->log, "fray serve: fight %" PRId64 " could not be "
                        "archived: %s\n", id, d2.message);
            pthread_mutex_unlock(&s->store_mu);
        }
        entry_free(f);
        answer_error(out, st == FRAY_ERR_NOMEM ? 500 : 422,
                     "the fight cannot begin: %s",
                     d.message[0] ? d.message : fray_strerror(st));
        return;
    }
    if (!entry_add(s, f)) {
        entry_free(f);
        answer_nomem(out);
        return;
    }
    fsv_text t = {0};
    pthread_mutex_lock(&f->mu);
    fsv_text_printf(&t, "{\"id\":%" PRId64 ",\"title\":", id);
    fsv_text_json(&t, f->title);
    fsv_text_str(&t, ",\"rules\":");
    fsv_text_json(&t, f->rules);
    fsv_text_printf(&t, ",\"seed\":\"%" PRIu64 "\",", seed);
    write_told(f, 0, fray_fight_events(f->fight), &t);
    fsv_text_str(&t, "}");
    pthread_mutex_unlock(&f->mu);
    answer_json(out, 201, &t);
}

static void call_state(fight_entry *f, const who *w, fsv_response *out) {
    pthread_mutex_lock(&f->mu);
    if (!usable(f, out)) {
        pthread_mutex_unlock(&f->mu);
        return;
    }
    fsv_text t = {0};
    bool ok = write_state(f, w, &t);
    pthread_mutex_unlock(&f->mu);
    if (!ok) {
        fsv_text_free(&t);
        answer_nomem(out);
        return;
    }
    answer_json(out, 200, &t);
}

/* cards: "KH 7C" or ["KH", "7C"]; dice: [14, 6]. */
static bool read_given(json_t *j, fray_card *cards, size_t cap_cards,
                       size_t *n_cards, int *dice, size_t cap_dice,
                       size_t *n_dice, fsv_response *out) {
    *n_cards = *n_dice = 0;
    json_t *c = json_object_get(j, "cards");
    if (c && !json_is_null(c)) {
        char text[1024] = "";
        if (json_is_string(c)) {
            copy_str(text, sizeof text, json_string_value(c));
        } else if (json_is_array(c)) {
            for (size_t i = 0; i < json_array_size(c); i++) {
                json_t *x = json_array_get(c, i);
                if (!json_is_string(x)) {
                    answer_error(out, 400, "cards: expected cards like "
                                 "[\"KH\", \"7C\"] (item %zu is not a string)",
                                 i + 1);
                    return false;
                }
                strncat(text, i ? " " : "", sizeof text - strlen(text) - 1);
                strncat(text, json_string_value(x),
                        sizeof text - strlen(text) - 1);
            }
        } else {
            answer_error(out, 400, "cards: expected cards like [\"KH\", \"7C\"]");
            return false;
        }
        fray_diag d;
        memset(&d, 0, sizeof d);
        if (fray_card_parse_list(text, cards, cap_cards, n_cards, &d) !=
            FRAY_OK) {
            answer_error(out, 422, "cards: %s", d.message);
            return false;
        }
    }
    json_t *dv = json_object_get(j, "dice");
    if (dv && !json_is_null(dv)) {
        if (!json_is_array(dv) || json_array_size(dv) > cap_dice) {
            answer_error(out, 400, "dice: expected the dice rolled by hand, "
                         "like [14, 6, 3] (at most %zu)", cap_dice);
            return false;
        }
        for (size_t i = 0; i < json_array_size(dv); i++) {
            json_t *x = json_array_get(dv, i);
            if (!json_is_integer(x) || json_integer_value(x) < 1 ||
                json_integer_value(x) > 1000) {
                answer_error(out, 400, "dice: item %zu is not a die rolled by "
                             "hand (a whole number, like 14)", i + 1);
                return false;
            }
            dice[(*n_dice)++] = (int)json_integer_value(x);
        }
    }
    return true;
}

/* A player's command: its first word names a combatant it controls whose
 * turn it is (or who holds), the GM lets players play, and no cards or
 * dice are given (the GM's). */
static bool player_may(fight_entry *f, const who *w, const char *text,
                       bool given, fsv_response *out) {
    if (!f->players_play) {
        answer_error(out, 403, "the GM has not let players play their own "
                     "turns in this fight");
        return false;
    }
    if (given) {
        answer_error(out, 403, "only the GM gives cards or dice by hand");
        return false;
    }
    char word[128];
    size_t i = 0;
    while (*text == ' ')
        text++;
    while (text[i] && text[i] != ' ' && i + 1 < sizeof word) {
        word[i] = text[i];
        i++;
    }
    word[i] = '\0';
    fray_fight_view *v = NULL;
    if (fray_fight_view_new(f->fight, NULL, &v) != FRAY_OK) {
        answer_nomem(out);
        return false;
    }
    bool ok = false;
    for (int k = 0; k < v->n_combatants && !ok; k++) {
        const fray_view_combatant *c = &v->combatants[k];
        if (!c->id || strcasecmp(c->id, word) != 0)
            continue;
        bool mine = false;
        for (int m = 0; m < w->p.n_controls; m++)
            mine |= w->p.controls[m] == c->index;
        ok = mine && (v->turn == c->index || c->holding);
    }
    fray_fight_view_free(v);
    if (!ok)
        answer_error(out, 403, "a player commands only its own combatants, "
                     "on their turn: '%s' is not one of %s's now", word,
                     w->p.name);
    return ok;
}

static void call_command(fsv_server *s, fight_entry *f, const who *w,
                         const char *body, size_t len, fsv_response *out) {
    json_t *j = body_object(body, len, false, out);
    if (!j)
        return;
    static const char *const keys[] = {"text", "cards", "dice"};
    if (!only_keys(j, keys, 3, out)) {
        json_decref(j);
        return;
    }
    json_t *tv = json_object_get(j, "text");
    if (!json_is_string(tv) || !json_string_value(tv)[0] ||
        strlen(json_string_value(tv)) > 4096 ||
        strchr(json_string_value(tv), '\n')) {
        json_decref(j);
        answer_error(out, 400, "text: expected a command in rules words, one "
                     "line (like \"tony attack bandit-1\")");
        return;
    }
    fray_card cards[128];
    int dice[128];
    size_t n_cards = 0, n_dice = 0;
    if (!read_given(j, cards, 128, &n_cards, dice, 128, &n_dice, out)) {
        json_decref(j);
        return;
    }
    char text[4097];
    copy_str(text, sizeof text, json_string_value(tv));
    json_decref(j);
    bool given = n_cards || n_dice;

    pthread_mutex_lock(&f->mu);
    if (!usable(f, out) || (!w->gm && !player_may(f, w, text, given, out))) {
        pthread_mutex_unlock(&f->mu);
        return;
    }
    int before = fray_fight_events(f->fight);
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_given hand = {n_cards ? cards : NULL, n_cards, n_dice ? dice : NULL,
                       n_dice, NULL};
    fray_status st = fray_fight_command(f->fight, text, given ? &hand : NULL,
                                        &d);
    if (st != FRAY_OK && refusal(st)) {
        pthread_mutex_unlock(&f->mu);
        fsv_text t = {0};
        fsv_text_str(&t, "{\"error\":");
        fsv_text_json(&t, d.message[0] ? d.message : fray_strerror(st));
        if (st == FRAY_ERR_PARSE && d.column > 0)
            fsv_text_printf(&t, ",\"column\":%d", d.column);
        fsv_text_str(&t, "}");
        answer_json(out, 422, &t);
        return;
    }
    if (st != FRAY_OK) {
        rebuild(s, f);
        pthread_mutex_unlock(&f->mu);
        answer_error(out, 500, "the command could not be applied (%s); the "
                     "fight is as it was", fray_strerror(st));
        return;
    }
    int after = fray_fight_events(f->fight);
    st = keep_events(s, f, before, after, &d);
    if (st != FRAY_OK) {
        rebuild(s, f);
        pthread_mutex_unlock(&f->mu);
        answer_error(out, 500, "the command was not kept (the store: %s); "
                     "the fight is as it was", d.message);
        return;
    }
    changed(f);
    fsv_text t = {0};
    fsv_text_str(&t, "{");
    write_told(f, before, after, &t);
    fsv_text_str(&t, "}");
    pthread_mutex_unlock(&f->mu);
    answer_json(out, 200, &t);
}

/* One turn of the tactics (the table's `auto`): steps until someone acted
 * (a step that only moves the clock is followed by the next). */
static void call_step(fsv_server *s, fight_entry *f, const char *body,
                      size_t len, fsv_response *out) {
    json_t *j = body_object(body, len, true, out);
    if (!j)
        return;
    bool ok = only_keys(j, NULL, 0, out);
    json_decref(j);
    if (!ok)
        return;
    pthread_mutex_lock(&f->mu);
    if (!usable(f, out)) {
        pthread_mutex_unlock(&f->mu);
        return;
    }
    if (fray_fight_over(f->fight)) {
        pthread_mutex_unlock(&f->mu);
        answer_error(out, 409, "the fight is over");
        return;
    }
    int first = fray_fight_events(f->fight);
    fray_status st = FRAY_OK;
    for (int guard = 0; guard < STEP_GUARD; guard++) {
        if (fray_fight_over(f->fight))
            break;
        int before = fray_fight_events(f->fight);
        st = fray_fight_step(f->fight);
        if (st != FRAY_OK)
            break;
        int after = fray_fight_events(f->fight);
        const char *action =
            after > before ? fray_event_action(f->fight, after - 1) : NULL;
        if (after > before && !(action && strcmp(action, "phase") == 0))
            break;
    }
    if (st != FRAY_OK) {
        char why[256] = "";
        if (fray_fight_failure(f->fight, why, sizeof why) == 0)
            copy_str(why, sizeof why, fray_strerror(st));
        rebuild(s, f);
        pthread_mutex_unlock(&f->mu);
        answer_error(out, 500, "the tactics' step failed: %s; the fight is as "
                     "it was", why);
        return;
    }
    int last = fray_fight_events(f->fight);
    fray_diag d;
    memset(&d, 0, sizeof d);
    st = keep_events(s, f, first, last, &d);
    if (st != FRAY_OK) {
        rebuild(s, f);
        pthread_mutex_unlock(&f->mu);
        answer_error(out, 500, "the step was not kept (the store: %s); the "
                     "fight is as it was", d.message);
        return;
    }
    changed(f);
    fsv_text t = {0};
    fsv_text_str(&t, "{");
    write_told(f, first, last, &t);
    fsv_text_str(&t, "}");
    pthread_mutex_unlock(&f->mu);
    answer_json(out, 200, &t);
}

static void call_undo(fsv_server *s, fight_entry *f, bool redo,
                      const char *body, size_t len, fsv_response *out) {
    json_t *j = body_object(body, len, true, out);
    if (!j)
        return;
    bool ok = only_keys(j, NULL, 0, out);
    json_decref(j);
    if (!ok)
        return;
    pthread_mutex_lock(&f->mu);
    if (!usable(f, out)) {
        pthread_mutex_unlock(&f->mu);
        return;
    }
    int n = fray_fight_events(f->fight);
    fray_status st;
    if (redo) {
        if (fray_fight_redo(f->fight) != FRAY_OK) {
            pthread_mutex_unlock(&f->mu);
            answer_error(out, 409, "nothing to redo");
            return;
        }
        n = fray_fight_events(f->fight);
    } else if (n <= 1) {
        pthread_mutex_unlock(&f->mu);
        answer_error(out, 409, "nothing to undo: this is the start of the "
                     "fight");
        return;
    }
    char *told = narrate(f->fight, n - 1, true);
    fray_diag d;
    memset(&d, 0, sizeof d);
    if (!redo) {
        st = fray_fight_undo(f->fight);
        if (st != FRAY_OK) {
            free(told);
            rebuild(s, f);
            pthread_mutex_unlock(&f->mu);
            answer_error(out, 500, "the undo failed (%s); the fight is as it "
                         "was", fray_strerror(st));
            return;
        }
    }
    /* (The mark names the event taken back or played again:
     * docs/journal.md "Marks".) */
    st = keep_mark(s, f, redo ? FRAY_MARK_REDO : FRAY_MARK_UNDO, n - 1, &d);
    if (st != FRAY_OK) {
        free(told);
        rebuild(s, f);
        pthread_mutex_unlock(&f->mu);
        answer_error(out, 500, "the %s was not kept (the store: %s); the "
                     "fight is as it was", redo ? "redo" : "undo", d.message);
        return;
    }
    changed(f);
    fsv_text t = {0};
    fsv_text_printf(&t, "{\"%s\":{\"event\":%d,\"text\":",
                    redo ? "redone" : "undone", n - 1);
    fsv_text_json(&t, told ? told : "");
    fsv_text_printf(&t, "},\"events\":%d}", fray_fight_events(f->fight));
    free(told);
    pthread_mutex_unlock(&f->mu);
    answer_json(out, 200, &t);
}

static void call_archive(fsv_server *s, fight_entry *f, fsv_response *out) {
    pthread_mutex_lock(&f->mu);
    if (f->archived) {
        pthread_mutex_unlock(&f->mu);
        answer_error(out, 410, "fight %" PRId64 " is archived", f->id);
        return;
    }
    fray_diag d;
    memset(&d, 0, sizeof d);
    pthread_mutex_lock(&s->store_mu);
    fray_status st = fs_archive(s->store, f->id, &d);
    pthread_mutex_unlock(&s->store_mu);
    if (st != FRAY_OK) {
        pthread_mutex_unlock(&f->mu);
        answer_error(out, 500, "the fight was not archived (the store: %s)",
                     d.message);
        return;
    }
    f->archived = true;
    cache_clear(f);
    fray_fight_free(f->fight);
    fray_setup_free(f->setup);
    f->fight = NULL;
    f->setup = NULL;
    changed(f);
    pthread_mutex_unlock(&f->mu);
    fsv_text t = {0};
    fsv_text_printf(&t, "{\"archived\":%" PRId64 "}", f->id);
    answer_json(out, 200, &t);
}

static void call_settings(fsv_server *s, fight_entry *f, const char *body,
                          size_t len, fsv_response *out) {
    json_t *j = body_object(body, len, false, out);
    if (!j)
        return;
    static const char *const keys[] = {"players_play", "players_forecast"};
    if (!only_keys(j, keys, 2, out)) {
        json_decref(j);
        return;
    }
    if (json_object_get(j, "players_forecast")) { /* issue 19 */
        call_settings_forecast(s, f, j, out);
        json_decref(j);
        return;
    }
    json_t *v = json_object_get(j, "players_play");
    if (!json_is_boolean(v)) {
        json_decref(j);
        answer_error(out, 400, "players_play: expected true or false");
        return;
    }
    bool allow = json_is_true(v);
    json_decref(j);
    pthread_mutex_lock(&f->mu);
    if (!usable(f, out)) {
        pthread_mutex_unlock(&f->mu);
        return;
    }
    fray_diag d;
    memset(&d, 0, sizeof d);
    pthread_mutex_lock(&s->store_mu);
    fray_status st = fs_players_play_set(s->store, f->id, allow, &d);
    pthread_mutex_unlock(&s->store_mu);
    if (st != FRAY_OK) {
        pthread_mutex_unlock(&f->mu);
        answer_error(out, 500, "not kept (the store: %s)", d.message);
        return;
    }
    f->players_play = allow;
    changed(f);
    pthread_mutex_unlock(&f->mu);
    fsv_text t = {0};
    fsv_text_printf(&t, "{\"players_play\":%s}", allow ? "true" : "false");
    answer_json(out, 200, &t);
}

static void call_players(fsv_server *s, fight_entry *f, const char *body,
                         size_t len, fsv_response *out) {
    json_t *j = body_object(body, len, false, out);
    if (!j)
        return;
    static const char *const keys[] = {"name", "combatants", "enemy_numbers",
                                       "show_unnoticed"};
    if (!only_keys(j, keys, 4, out)) {
        json_decref(j);
        return;
    }
    player p;
    memset(&p, 0, sizeof p);
    p.fight = f->id;
    p.enemy_numbers = true;
    json_t *name = json_object_get(j, "name");
    json_t *list = json_object_get(j, "combatants");
    json_t *en = json_object_get(j, "enemy_numbers");
    json_t *su = json_object_get(j, "show_unnoticed");
    const char *bad = NULL;
    if (!json_is_string(name) || !json_string_value(name)[0] ||
        strlen(json_string_value(name)) >= sizeof p.name)
        bad = "name: expected the player's name (1 to 63 bytes)";
    else if (!json_is_array(list) || json_array_size(list) < 1 ||
             json_array_size(list) > CONTROLS_MAX)
        bad = "combatants: expected the ids of the combatants the player "
              "controls, like [\"tony\"]";
    else if ((en && !json_is_boolean(en)) || (su && !json_is_boolean(su)))
        bad = "enemy_numbers, show_unnoticed: expected true or false";
    for (const char *c = json_is_string(name) ? json_string_value(name) : "";
         !bad && *c; c++)
        if ((unsigned char)*c < 0x20)
            bad = "name: no control characters";
    for (size_t i = 0; !bad && i < json_array_size(list); i++) {
        json_t *x = json_array_get(list, i);
        const char *id = json_is_string(x) ? json_string_value(x) : NULL;
        if (!id || !id[0] || strchr(id, ' ') ||
            strlen(p.ids) + strlen(id) + 2 > sizeof p.ids)
            bad = "combatants: each is a combatant's id (a string, no spaces)";
        else {
            strncat(p.ids, i ? " " : "", sizeof p.ids - strlen(p.ids) - 1);
            strncat(p.ids, id, sizeof p.ids - strlen(p.ids) - 1);
        }
    }
    if (bad) {
        json_decref(j);
        answer_error(out, 400, "%s", bad);
        return;
    }
    copy_str(p.name, sizeof p.name, json_string_value(name));
    if (en)
        p.enemy_numbers = json_is_true(en);
    if (su)
        p.show_unnoticed = json_is_true(su);
    json_decref(j);

    pthread_mutex_lock(&f->mu);
    if (!usable(f, out)) {
        pthread_mutex_unlock(&f->mu);
        return;
    }
    char why[300];
    if (!controls_of(f->setup, p.ids, p.controls, &p.n_controls, why,
                     sizeof why)) {
        pthread_mutex_unlock(&f->mu);
        answer_error(out, 422, "combatants: %s", why);
        return;
    }
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status st = make_token(p.token, &d);
    fs_player_row row;
    memset(&row, 0, sizeof row);
    copy_str(row.token, sizeof row.token, p.token);
    row.fight = p.fight;
    copy_str(row.name, sizeof row.name, p.name);
    copy_str(row.combatants, sizeof row.combatants, p.ids);
    row.enemy_numbers = p.enemy_numbers;
    row.show_unnoticed = p.show_unnoticed;
    if (st == FRAY_OK) {
        pthread_mutex_lock(&s->store_mu);
        st = fs_player_add(s->store, &row, &d);
        pthread_mutex_unlock(&s->store_mu);
    }
    pthread_mutex_unlock(&f->mu);
    if (st != FRAY_OK) {
        answer_error(out, 500, "the player's token was not kept: %s",
                     d.message);
        return;
    }
    pthread_mutex_lock(&s->reg_mu);
    bool ok = true;
    if (s->n_players == s->cap_players) {
        int cap = s->cap_players ? 2 * s->cap_players : 16;
        player *np = realloc(s->players, (size_t)cap * sizeof *np);
        if (!np)
            ok = false;
        else {
            s->players = np;
            s->cap_players = cap;
        }
    }
    if (ok)
        s->players[s->n_players++] = p;
    pthread_mutex_unlock(&s->reg_mu);
    if (!ok) {
        answer_nomem(out);
        return;
    }
    fsv_text t = {0};
    fsv_text_str(&t, "{\"token\":");
    fsv_text_json(&t, p.token);
    fsv_text_str(&t, ",\"name\":");
    fsv_text_json(&t, p.name);
    fsv_text_printf(&t, ",\"fight\":%" PRId64 ",\"link\":\"/#fight=%" PRId64
                    "&player=%s\",\"combatants\":[",
                    f->id, f->id, p.token);
    for (int i = 0; i < p.n_controls; i++)
        fsv_text_printf(&t, "%s%d", i ? "," : "", p.controls[i]);
    fsv_text_str(&t, "]}");
    answer_json(out, 201, &t);
}

static void call_journal(fsv_server *s, fight_entry *f, fsv_response *out) {
    char *text = NULL;
    size_t len = 0;
    int64_t n = 0;
    fray_diag d;
    memset(&d, 0, sizeof d);
    /* Under the fight's lock: the lines of one moment. */
    pthread_mutex_lock(&f->mu);
    pthread_mutex_lock(&s->store_mu);
    fray_status st = fs_lines(s->store, f->id, &text, &len, &n, &d);
    pthread_mutex_unlock(&s->store_mu);
    pthread_mutex_unlock(&f->mu);
    if (st != FRAY_OK) {
        answer_error(out, 500, "the journal cannot be read: %s", d.message);
        return;
    }
    fsv_text t = {text, len, len, false};
    if (!text)
        fsv_text_reserve(&t, 0);
    answer_text(out, 200, "application/jsonl", &t);
}

/* "/api/fights/12/undo": 12 and "undo" ("" for "/api/fights/12"); false
 * when the path is not a fight's. */
static bool fight_path(const char *path, int64_t *id, char *what,
                       size_t size) {
    static const char pre[] = "/api/fights/";
    if (strncmp(path, pre, sizeof pre - 1) != 0)
        return false;
    const char *p = path + sizeof pre - 1;
    size_t digits = strspn(p, "0123456789");
    if (digits == 0 || digits > 18 || p[0] == '0')
        return false;
    *id = strtoll(p, NULL, 10);
    p += digits;
    what[0] = '\0';
    if (*p == '\0')
        return true;
    if (*p != '/')
        return false;
    p++;
    if (strlen(p) >= size || strchr(p, '/'))
        return false;
    snprintf(what, size, "%s", p);
    return true;
}

/* ---- At the table, the odds (issue 19; include/fray/chances.h) -------------------------- */

/* Trials of a forecast the server runs. */
enum { FC_TRIALS = 4000, FC_SEED = 19 };

/* The forecast of one change of a fight, run by its own thread. Its
 * numbers and status under mu (the thread never takes the fight's mu, so
 * that a change may stop it and wait for it while holding that). */
struct fc_run {
    pthread_mutex_t mu;
    pthread_t thread;
    bool started;            /* a thread to join */
    atomic_bool cancel;
    uint64_t change;         /* the fight's change it forecasts */
    fray_forecast_start *start;
    bool have;               /* result holds numbers (partial or whole) */
    bool finished;
    fray_forecast result;
    fray_status status;
    char why[256];
};

static void fc_cancel(struct fc_run *r) {
    if (r)
        atomic_store(&r->cancel, true);
}

static void fc_free(struct fc_run *r) {
    if (!r)
        return;
    atomic_store(&r->cancel, true);
    if (r->started)
        pthread_join(r->thread, NULL);
    fray_forecast_start_free(r->start);
    pthread_mutex_destroy(&r->mu);
    free(r);
}

static void fc_partial(void *ctx, const fray_forecast *so_far) {
    struct fc_run *r = ctx;
    pthread_mutex_lock(&r->mu);
    r->result = *so_far;
    r->have = true;
    pthread_mutex_unlock(&r->mu);
}

static void *fc_main(void *arg) {
    struct fc_run *r = arg;
    fray_forecast_opts o;
    memset(&o, 0, sizeof o);
    o.trials = FC_TRIALS;
    o.seed = FC_SEED;
    o.cancel = &r->cancel;
    o.partial = fc_partial;
    o.progress_ctx = r;
    fray_forecast *out = malloc(sizeof *out);
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status st = out ? fray_forecast_start_run(r->start, &o, out, &d)
                         : FRAY_ERR_NOMEM;
    pthread_mutex_lock(&r->mu);
    if (st == FRAY_OK) {
        r->result = *out;
        r->have = true;
    }
    r->status = st;
    copy_str(r->why, sizeof r->why, d.message[0] ? d.message : fray_strerror(st));
    r->finished = true;
    pthread_mutex_unlock(&r->mu);
    free(out);
    return NULL;
}

/* The forecast of the fight as it is now (under f->mu): the one under way
 * or done for this change, else a new one started (the old one stopped
 * and waited for). NULL with *st set when it cannot start (*diag says
 * why). */
static struct fc_run *fc_now(fight_entry *f, fray_status *st, fray_diag *diag) {
    if (f->fc && f->fc->change == f->change) {
        *st = FRAY_OK;
        return f->fc;
    }
    fc_free(f->fc);
    f->fc = NULL;
    struct fc_run *r = calloc(1, sizeof *r);
    if (!r) {
        *st = FRAY_ERR_NOMEM;
        return NULL;
    }
    if (pthread_mutex_init(&r->mu, NULL) != 0) {
        free(r);
        *st = FRAY_ERR_NOMEM;
        return NULL;
    }
    atomic_init(&r->cancel, false);
    r->change = f->change;
    *st = fray_forecast_start_new(f->fight, &r->start, diag);
    if (*st == FRAY_OK && pthread_create(&r->thread, NULL, fc_main, r) != 0)
        *st = FRAY_ERR_NOMEM;
    if (*st != FRAY_OK) {
        fray_forecast_start_free(r->start);
        pthread_mutex_destroy(&r->mu);
        free(r);
        return NULL;
    }
    r->started = true;
    f->fc = r;
    return r;
}

/* After a change (under f->mu): a fight whose forecast was asked for
 * gets the forecast of its new state at once, in the background. */
static void fc_changed(fight_entry *f) {
    if (!f->fc)
        return; /* nobody asked: nothing to keep up to date */
    if (!f->fight || f->archived || fray_fight_over(f->fight)) {
        fc_free(f->fc);
        f->fc = NULL;
        return;
    }
    fray_status st;
    fray_diag d;
    memset(&d, 0, sizeof d);
    if (!fc_now(f, &st, &d))
        return; /* (f->fc is NULL: the next GET starts it and says why) */
}

static bool controls(const who *w, int c) {
    if (w->gm)
        return true;
    for (int i = 0; i < w->p.n_controls; i++)
        if (w->p.controls[i] == c)
            return true;
    return false;
}

static void write_ratio(fsv_text *t, fray_ratio p, double share) {
    char buf[84];
    fsv_text_printf(t, "\"p\":%.17g,\"exact\":", share);
    fsv_text_json(t, fray_ratio_format(p, buf));
}

/* An area's creatures caught (issue 19, chances2): ,"area":{...}. */
static void write_chances_area(fsv_text *t, const fray_chances *c) {
    if (c->n_area <= 0)
        return;
    fsv_text_str(t, ",\"area\":{\"caught\":[");
    for (int i = 0; i < c->n_area; i++) {
        const fray_chance_target *a = &c->area[i];
        fsv_text_printf(t, "%s{\"target\":%d,\"outcomes\":[", i ? "," : "",
                        a->target);
        for (int k = 0; k < a->n_outcomes; k++) {
            fsv_text_str(t, k ? ",{\"name\":" : "{\"name\":");
            fsv_text_json(t, a->outcomes[k].name);
            fsv_text_str(t, ",");
            write_ratio(t, a->outcomes[k].p, a->outcomes[k].share);
            fsv_text_str(t, "}");
        }
        fsv_text_str(t, "],\"amounts\":[");
        for (int k = 0; k < a->n_damage; k++) {
            fsv_text_str(t, k ? ",{\"amount\":[" : "{\"amount\":[");
            for (int j = 0; j < c->n_tracks; j++)
                fsv_text_printf(t, "%s%d", j ? "," : "", a->damage[k].amount[j]);
            fsv_text_str(t, "],");
            write_ratio(t, a->damage[k].p, a->damage[k].share);
            fsv_text_str(t, "}");
        }
        fsv_text_str(t, "],\"expected\":[");
        for (int j = 0; j < c->n_tracks; j++)
            fsv_text_printf(t, "%s%.17g", j ? "," : "", a->expected[j]);
        fsv_text_printf(t, "],\"p_drop\":%.17g,\"modifiers\":", a->p_drop);
        fsv_text_json(t, a->modifiers);
        fsv_text_str(t, "}");
    }
    fsv_text_str(t, "],\"dropped\":");
    if (c->area_dropped[0] < 0) {
        fsv_text_str(t, "null");
    } else {
        for (int k = 0; k <= c->n_area; k++)
            fsv_text_printf(t, "%s%.17g", k ? "," : "[", c->area_dropped[k]);
        fsv_text_str(t, "]");
    }
    fsv_text_printf(t, ",\"expected_dropped\":%.17g}", c->area_expected_dropped);
}

static void write_chances(fsv_text *t, const fray_chances *c) {
    fsv_text_str(t, "{\"command\":");
    fsv_text_json(t, c->command);
    fsv_text_printf(t, ",\"target\":%d,\"title\":", c->target);
    fsv_text_json(t, c->title);
    fsv_text_str(t, ",\"outcomes\":[");
    for (int i = 0; i < c->n_outcomes; i++) {
        fsv_text_str(t, i ? ",{\"name\":" : "{\"name\":");
        fsv_text_json(t, c->outcomes[i].name);
        fsv_text_str(t, ",");
        write_ratio(t, c->outcomes[i].p, c->outcomes[i].share);
        fsv_text_str(t, "}");
    }
    fsv_text_str(t, "],\"damage\":{\"tracks\":[");
    for (int k = 0; k < c->n_tracks; k++) {
        fsv_text_str(t, k ? "," : "");
        fsv_text_json(t, c->tracks[k]);
    }
    fsv_text_str(t, "],\"amounts\":[");
    for (int i = 0; i < c->n_damage; i++) {
        fsv_text_str(t, i ? ",{\"amount\":[" : "{\"amount\":[");
        for (int k = 0; k < c->n_tracks; k++)
            fsv_text_printf(t, "%s%d", k ? "," : "", c->damage[i].amount[k]);
        fsv_text_str(t, "],");
        write_ratio(t, c->damage[i].p, c->damage[i].share);
        fsv_text_str(t, "}");
    }
    fsv_text_str(t, "],\"expected\":[");
    for (int k = 0; k < c->n_tracks; k++)
        fsv_text_printf(t, "%s%.17g", k ? "," : "", c->expected[k]);
    fsv_text_printf(t, "],\"p_drop\":%.17g},\"modifiers\":", c->p_drop);
    fsv_text_json(t, c->modifiers);
    fsv_text_str(t, ",\"assumed\":");
    fsv_text_json(t, c->assumed);
    /* An action that deals no damage: its chance of success (issue 19),
     * null when not counted. */
    if (c->p_success >= 0)
        fsv_text_printf(t, ",\"p_success\":%.17g", c->p_success);
    else
        fsv_text_str(t, ",\"p_success\":null");
    write_chances_area(t, c);
    fsv_text_str(t, "}");
}

/* GET /api/fights/ID/odds?who=CID: every option of combatant CID ranked
 * (the GM: any combatant; a player: only its own). */
static void call_odds(fight_entry *f, const who *w, const char *query,
                      fsv_response *out) {
    char id[128] = "";
    if (strncmp(query, "who=", 4) != 0 || !query[4] || strlen(query + 4) >= sizeof id ||
        strchr(query + 4, '&')) {
        answer_error(out, 400, "expected ?who=ID: whose options");
        return;
    }
    copy_str(id, sizeof id, query + 4);
    pthread_mutex_lock(&f->mu);
    if (!usable(f, out)) {
        pthread_mutex_unlock(&f->mu);
        return;
    }
    int c = fray_fight_combatant_index(f->fight, id);
    if (c < 0) {
        pthread_mutex_unlock(&f->mu);
        answer_error(out, 404, "'%s' is no combatant of this fight", id);
        return;
    }
    if (!controls(w, c)) {
        pthread_mutex_unlock(&f->mu);
        answer_error(out, 403, "a player sees the odds of its own combatants "
                     "only");
        return;
    }
    fray_chances_list l;
    fray_diag d;
    fray_status st = fray_chances_all(f->fight, c, NULL, &l, &d);
    pthread_mutex_unlock(&f->mu);
    if (st == FRAY_ERR_NOMEM) {
        answer_nomem(out);
        return;
    }
    if (st != FRAY_OK) {
        answer_error(out, 409, "%s", d.message[0] ? d.message : fray_strerror(st));
        return;
    }
    fsv_text t = {0};
    fsv_text_str(&t, "{\"who\":");
    fsv_text_json(&t, id);
    fsv_text_str(&t, ",\"actions\":[");
    for (int i = 0; i < l.n; i++) {
        fsv_text_str(&t, i ? "," : "");
        write_chances(&t, &l.items[i]);
    }
    fsv_text_str(&t, "]}");
    fray_chances_list_free(&l);
    if (t.failed) {
        fsv_text_free(&t);
        answer_nomem(out);
        return;
    }
    answer_json(out, 200, &t);
}

/* GET /api/fights/ID/forecast: who wins from here, from the forecast of
 * this change (started now if none is), done false with the numbers so
 * far while it runs. A player: only when the GM allows it. */
static void call_forecast(fight_entry *f, const who *w, fsv_response *out) {
    pthread_mutex_lock(&f->mu);
    if (!usable(f, out)) {
        pthread_mutex_unlock(&f->mu);
        return;
    }
    if (!w->gm && !f->players_forecast) {
        pthread_mutex_unlock(&f->mu);
        answer_error(out, 403, "the GM has not let players see the forecast");
        return;
    }
    fray_status st;
    fray_diag d;
    memset(&d, 0, sizeof d);
    struct fc_run *r = fc_now(f, &st, &d);
    if (!r) {
        pthread_mutex_unlock(&f->mu);
        if (st == FRAY_ERR_NOMEM)
            answer_nomem(out);
        else
            answer_error(out, 409, "%s", d.message[0] ? d.message : fray_strerror(st));
        return;
    }
    fray_forecast *fc = malloc(sizeof *fc);
    if (!fc) {
        pthread_mutex_unlock(&f->mu);
        answer_nomem(out);
        return;
    }
    pthread_mutex_lock(&r->mu);
    bool have = r->have, finished = r->finished;
    fray_status rst = r->status;
    char why[256];
    copy_str(why, sizeof why, r->why);
    *fc = r->result;
    pthread_mutex_unlock(&r->mu);
    /* Names from the fight's own setup (the forecast's copy is its run's). */
    fsv_text t = {0};
    if (finished && rst != FRAY_OK && rst != FRAY_ERR_CANCELED) {
        pthread_mutex_unlock(&f->mu);
        free(fc);
        answer_error(out, 500, "the forecast could not go on: %s", why);
        return;
    }
    const fray_setup *s = fray_fight_setup(f->fight);
    fsv_text_str(&t, "{\"sides\":[");
    for (int i = 0; have && i < fc->n_sides; i++) {
        fsv_text_str(&t, i ? ",{\"name\":" : "{\"name\":");
        fsv_text_json(&t, fray_setup_side_name(s, i));
        fsv_text_printf(&t, ",\"p\":%.17g,\"low\":%.17g,\"high\":%.17g}",
                        fc->sides[i].p, fc->sides[i].low, fc->sides[i].high);
    }
    fsv_text_str(&t, "],\"combatants\":[");
    for (int i = 0; have && i < fc->n_combatants; i++) {
        fsv_text_str(&t, i ? ",{\"id\":" : "{\"id\":");
        fsv_text_json(&t, fray_setup_combatant_id(s, i));
        fsv_text_printf(&t, ",\"standing\":%.17g}", fc->standing[i]);
    }
    fsv_text_str(&t, "],\"length\":{\"unit\":");
    fsv_text_json(&t, fray_setup_time_unit(s));
    fsv_text_printf(&t, ",\"from\":%d,\"mean\":%.17g,\"sd\":%.17g},"
                    "\"no_winner\":%.17g,\"trials\":%" PRIu64 ",\"of\":%d,"
                    "\"seed\":%d,\"done\":%s}",
                    fray_fight_now(f->fight), have ? fc->length : 0,
                    have ? fc->length_sd : 0, have ? fc->p_none : 0,
                    have ? fc->trials : 0, (int)FC_TRIALS, (int)FC_SEED,
                    have && fc->done ? "true" : "false");
    pthread_mutex_unlock(&f->mu);
    free(fc);
    if (t.failed) {
        fsv_text_free(&t);
        answer_nomem(out);
        return;
    }
    answer_json(out, 200, &t);
}

/* POST .../settings {"players_forecast": true|false} (the GM). */
static void call_settings_forecast(fsv_server *s, fight_entry *f, json_t *j,
                                   fsv_response *out) {
    json_t *v = json_object_get(j, "players_forecast");
    if (!json_is_boolean(v) || json_object_size(j) != 1) {
        answer_error(out, 400, "players_forecast: expected true or false, "
                     "alone");
        return;
    }
    bool allow = json_is_true(v);
    pthread_mutex_lock(&f->mu);
    if (!usable(f, out)) {
        pthread_mutex_unlock(&f->mu);
        return;
    }
    fray_diag d;
    memset(&d, 0, sizeof d);
    pthread_mutex_lock(&s->store_mu);
    fray_status st = fs_players_forecast_set(s->store, f->id, allow, &d);
    pthread_mutex_unlock(&s->store_mu);
    if (st != FRAY_OK) {
        pthread_mutex_unlock(&f->mu);
        answer_error(out, 500, "not kept (the store: %s)", d.message);
        return;
    }
    f->players_forecast = allow;
    pthread_mutex_unlock(&f->mu);
    fsv_text t = {0};
    fsv_text_printf(&t, "{\"players_forecast\":%s}", allow ? "true" : "false");
    answer_json(out, 200, &t);
}

void fsv_request(fsv_server *s, const char *method, const char *path,
                 const char *authorization, const char *body, size_t len,
                 fsv_response *out) {
    memset(out, 0, sizeof *out);
    /* Issue 19: a query (odds?who=ID) is the call's; the path is the rest. */
    char bare[256];
    const char *query = "";
    const char *qm = strchr(path, '?');
    if (qm && (size_t)(qm - path) < sizeof bare) {
        memcpy(bare, path, (size_t)(qm - path));
        bare[qm - path] = '\0';
        query = qm + 1;
        path = bare;
    }
    bool get = strcmp(method, "GET") == 0;
    bool post = strcmp(method, "POST") == 0;
    if (len > FSV_BODY_MAX) {
        answer_error(out, 413, "the body is larger than 1 MiB");
        return;
    }
    if (strcmp(path, "/") == 0 || strcmp(path, "/index.html") == 0) {
        if (!get)
            answer_error(out, 405, "%s %s: only GET", method, path);
        else
            call_index(out);
        return;
    }
    if (strcmp(path, "/api/health") == 0) {
        if (!get)
            answer_error(out, 405, "%s %s: only GET", method, path);
        else
            call_health(s, out);
        return;
    }
    who w;
    if (strcmp(path, "/api/encounters") == 0 || strcmp(path, "/api/fights") == 0) {
        bool fights = strcmp(path, "/api/fights") == 0;
        if (!get && !(post && fights)) {
            answer_error(out, 405, "%s %s: only %s", method, path,
                         fights ? "GET and POST" : "GET");
            return;
        }
        if (refuse(authorize(s, authorization, 0, &w), false, out))
            return;
        if (!fights)
            call_encounters(s, out);
        else if (get)
            call_fights(s, out);
        else
            call_new_fight(s, body, len, out);
        return;
    }
    int64_t id = 0;
    char what[32];
    if (!fight_path(path, &id, what, sizeof what)) {
        answer_error(out, 404, "no such call: %s %s (GET / lists them)",
                     method, path);
        return;
    }
    static const char *const posts[] = {"command", "step",     "undo",
                                        "redo",    "archive",  "players",
                                        "settings"};
    bool known_post = false;
    for (size_t i = 0; i < sizeof posts / sizeof posts[0]; i++)
        known_post |= strcmp(what, posts[i]) == 0;
    bool known_get = what[0] == '\0' || strcmp(what, "journal") == 0 ||
                     strcmp(what, "live") == 0;
    known_get |= strcmp(what, "odds") == 0 || strcmp(what, "forecast") == 0; /* issue 19 */
    if (!known_post && !known_get) {
        answer_error(out, 404, "no such call: %s %s (GET / lists them)",
                     method, path);
        return;
    }
    if ((known_post && !post) || (known_get && !get)) {
        answer_error(out, 405, "%s %s: only %s", method, path,
                     known_post ? "POST" : "GET");
        return;
    }
    auth a = authorize(s, authorization, id, &w);
    bool players_too = what[0] == '\0' || strcmp(what, "command") == 0 ||
                       strcmp(what, "live") == 0;
    players_too |= strcmp(what, "odds") == 0 || strcmp(what, "forecast") == 0;
    if (refuse(a, players_too, out))
        return;
    fight_entry *f = entry_get(s, id);
    if (!f) {
        answer_error(out, 404, "there is no fight %" PRId64, id);
        return;
    }
    if (what[0] == '\0')
        call_state(f, &w, out);
    else if (strcmp(what, "odds") == 0) /* issue 19 */
        call_odds(f, &w, query, out);
    else if (strcmp(what, "forecast") == 0)
        call_forecast(f, &w, out);
    else if (strcmp(what, "journal") == 0)
        call_journal(s, f, out);
    else if (strcmp(what, "live") == 0)
        answer_error(out, 400, "the live stream is read as text/event-stream");
    else if (strcmp(what, "command") == 0)
        call_command(s, f, &w, body, len, out);
    else if (strcmp(what, "step") == 0)
        call_step(s, f, body, len, out);
    else if (strcmp(what, "undo") == 0 || strcmp(what, "redo") == 0)
        call_undo(s, f, strcmp(what, "redo") == 0, body, len, out);
    else if (strcmp(what, "archive") == 0)
        call_archive(s, f, out);
    else if (strcmp(what, "players") == 0)
        call_players(s, f, body, len, out);
    else
        call_settings(s, f, body, len, out);
}

/* ---- Live streams ------------------------------------------------------------------------- */

struct fsv_live {
    fsv_server *s;
    fight_entry *f;
    who w;
    uint64_t seen;
    bool first;
};

bool fsv_is_live(const char *method, const char *path) {
    int64_t id;
    char what[32];
    return strcmp(method, "GET") == 0 &&
           fight_path(path, &id, what, sizeof what) &&
           strcmp(what, "live") == 0;
}

void fsv_live_open(fsv_server *s, const char *path, const char *authorization,
                   fsv_live **out, fsv_response *refusal_out) {
    *out = NULL;
    memset(refusal_out, 0, sizeof *refusal_out);
    int64_t id = 0;
    char what[32];
    if (!fight_path(path, &id, what, sizeof what)) {
        answer_error(refusal_out, 404, "no such call: GET %s", path);
        return;
    }
    who w;
    if (refuse(authorize(s, authorization, id, &w), true, refusal_out))
        return;
    fight_entry *f = entry_get(s, id);
    if (!f) {
        answer_error(refusal_out, 404, "there is no fight %" PRId64, id);
        return;
    }
    pthread_mutex_lock(&f->mu);
    bool ok = usable(f, refusal_out);
    pthread_mutex_unlock(&f->mu);
    if (!ok)
        return;
    fsv_live *l = calloc(1, sizeof *l);
    if (!l) {
        answer_nomem(refusal_out);
        return;
    }
    l->s = s;
    l->f = f;
    l->w = w;
    l->first = true;
    *out = l;
}

int fsv_live_next(fsv_live *l, int timeout_ms, char **out, size_t *out_len) {
    fight_entry *f = l->f;
    *out = NULL;
    *out_len = 0;
    pthread_mutex_lock(&f->mu);
    if (!l->first) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_sec += timeout_ms / 1000;
        until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        while (f->change == l->seen && !f->stopping) {
            int rc = pthread_cond_timedwait(&f->cond, &f->mu, &until);
            if (rc == ETIMEDOUT && f->change == l->seen && !f->stopping) {
                pthread_mutex_unlock(&f->mu);
                return 0;
            }
        }
    }
    if (f->stopping || !f->fight) {
        pthread_mutex_unlock(&f->mu);
        return -1;
    }
    l->first = false;
    l->seen = f->change;
    /* The state event of this change for this scope: written by the
     * first page of the scope to wake, copied by the others. */
    const char *key = l->w.gm ? "gm" : l->w.p.token;
    int k = -1;
    for (int i = 0; i < TEXTS_MAX; i++)
        if (f->texts[i].text && f->texts[i].change == f->change &&
            strcmp(f->texts[i].key, key) == 0)
            k = i;
    if (k < 0) {
        fsv_text t = {0};
        fsv_text_str(&t, "event: state\ndata: ");
        bool ok = write_state(f, &l->w, &t);
        fsv_text_str(&t, "\n\n");
        if (!ok || t.failed) {
            pthread_mutex_unlock(&f->mu);
            fsv_text_free(&t);
            return -1;
        }
        k = f->texts_next;
        f->texts_next = (f->texts_next + 1) % TEXTS_MAX;
        free(f->texts[k].text);
        copy_str(f->texts[k].key, sizeof f->texts[k].key, key);
        f->texts[k].change = f->change;
        f->texts[k].text = t.p;
        f->texts[k].len = t.len;
    }
    char *copy = malloc(f->texts[k].len + 1);
    if (copy) {
        memcpy(copy, f->texts[k].text, f->texts[k].len);
        copy[f->texts[k].len] = '\0';
    }
    size_t len = f->texts[k].len;
    pthread_mutex_unlock(&f->mu);
    if (!copy)
        return -1;
    *out = copy;
    *out_len = len;
    return 1;
}

void fsv_live_close(fsv_live *l) { free(l); }
