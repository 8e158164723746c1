/*
 * fight.c - fray_fight (include/fray/fight.h): a fight of any ruleset, its
 * journal, undo and redo, and the replay of JSON Lines journals
 * (docs/journal.md). The ruleset applies events (its table, ruleset.h);
 * this file keeps them.
 *
 * The journal keeps each event packed (the ruleset's event_pack): events
 * one after another in jbuf, event i at bytes [joff[i], joff[i + 1]);
 * events [0..n_events) applied, [n_events..n_recorded) undone and kept
 * for redo. The room for one more event of any size (event_max) is
 * reserved before each step, so that a journal that cannot grow fails the
 * step before anything changed (docs/architecture.md "The journal and its
 * memory"). Undo rebuilds: the first event (begin) and those after it
 * applied again, which restores everything an event changed, the random
 * stream included.
 */
#include "layer.h"

#include <assert.h>
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "jread.h"

/* Events between two looks at the stop flag in a stepped run (the
 * ruleset's own quiet run looks as often). */
enum { CANCEL_EVERY = 4096 };

struct fray_fight {
    const fray__ruleset *rs;
    const fray_setup *setup;
    fray_setup own;          /* the setup, when made over a ruleset's own */
    void *rf;                /* the ruleset's part */
    fray_allocator alloc;
    fray_fight_options opt;
    const atomic_bool *cancel;
    uint64_t seed, trial;
    uint8_t *jbuf;
    size_t jcap;             /* bytes of jbuf */
    size_t *joff;            /* cap_events + 1 offsets */
    int n_events, n_recorded, cap_events;
    /* FRAY_OK, or the error of the step (or the start) that failed: a
     * fight never goes on after a failed step; undo takes it back. */
    fray_status failed;
};

/* ---- The journal ------------------------------------------------------------- */

/* Room for event f->n_events (forgetting any undone ones), of any size:
 * FRAY_ERR_NOMEM when the journal cannot grow (nothing changed then). */
static fray_status journal_reserve(fray_fight *f) {
    if (f->n_events + 1 > f->cap_events) {
        int cap = f->cap_events ? f->cap_events * 2 : 64;
        size_t *o = fray__realloc(&f->alloc, f->joff,
                                  f->joff ? ((size_t)f->cap_events + 1) *
                                                sizeof *o
                                          : 0,
                                  ((size_t)cap + 1) * sizeof *o);
        if (!o)
            return FRAY_ERR_NOMEM;
        if (!f->joff)
            o[0] = 0;
        f->joff = o;
        f->cap_events = cap;
    }
    size_t need = f->joff[f->n_events] + f->rs->event_max;
    if (need > f->jcap) {
        size_t cap = f->jcap ? f->jcap : f->rs->event_max;
        while (cap < need)
            cap *= 2;
        uint8_t *b = fray__realloc(&f->alloc, f->jbuf, f->jcap, cap);
        if (!b)
            return FRAY_ERR_NOMEM;
        f->jbuf = b;
        f->jcap = cap;
    }
    return FRAY_OK;
}

/* The event the ruleset just applied, packed as event f->n_events into
 * the room reserved (none when the step made no event: a time limit). A
 * new event forgets what was undone. */
static void journal_push(fray_fight *f) {
    size_t n = f->rs->event_pack(f->rf, f->jbuf + f->joff[f->n_events]);
    if (n == 0)
        return;
    assert(n <= f->rs->event_max);
    f->joff[f->n_events + 1] = f->joff[f->n_events] + n;
    f->n_events++;
    f->n_recorded = f->n_events;
}

const uint8_t *fray__fight_event(const fray_fight *f, int i,
                                 size_t *out_len) {
    if (!f->opt.journal || i < 0 || i >= f->n_recorded)
        return NULL;
    *out_len = f->joff[i + 1] - f->joff[i];
    return f->jbuf + f->joff[i];
}

void *fray__fight_rf(const fray_fight *f) { return f->rf; }

uint64_t fray__fight_trial(const fray_fight *f) { return f->trial; }

fray_status fray__fight_failed(const fray_fight *f) { return f->failed; }

size_t fray_fight_failure(const fray_fight *f, char *buf, size_t size) {
    if (buf && size)
        buf[0] = '\0';
    if (!f || f->failed == FRAY_OK || !f->rs->failure)
        return 0;
    return f->rs->failure(f->rf, buf, size);
}

/* ---- Fights -------------------------------------------------------------------- */

fray_status fray__fight_reset_trial(fray_fight *f, uint64_t seed,
                                    uint64_t trial) {
    f->seed = seed;
    f->trial = trial;
    f->n_events = 0;
    f->n_recorded = 0;
    fray_status rc = f->opt.journal ? journal_reserve(f) : FRAY_OK;
    if (rc == FRAY_OK)
        rc = f->rs->begin(f->rf, seed, trial, NULL);
    if (rc == FRAY_OK && f->opt.journal)
        journal_push(f);
    f->failed = rc;
    return rc;
}

static fray_status fight_make(const fray__ruleset *rs, const fray_setup *setup,
                              bool own, const void *data, uint64_t seed,
                              uint64_t trial, const fray_fight_options *opts,
                              const fray_given *given,
                              const atomic_bool *cancel,
                              const fray_allocator *alloc, fray_fight **out) {
    *out = NULL;
    fray_fight *f = fray__alloc(alloc, sizeof *f);
    if (!f)
        return FRAY_ERR_NOMEM;
    memset(f, 0, sizeof *f);
    if (alloc)
        f->alloc = *alloc;
    f->rs = rs;
    if (own) {
        fray__setup_borrow(&f->own, rs, data);
        f->setup = &f->own;
    } else {
        f->setup = setup;
    }
    if (opts)
        f->opt = *opts;
    f->cancel = cancel;
    fray__fight_opts fo;
    memset(&fo, 0, sizeof fo);
    fo.facts = f->opt.facts;
    fo.record = f->opt.journal;
    fo.until = f->opt.until;
    fo.cancel = cancel;
    fo.owner = f;
    fray_status rc = rs->fight_new(f->setup->data, &fo, &f->alloc, &f->rf);
    if (rc == FRAY_OK && given) {
        f->seed = seed;
        f->trial = trial;
        rc = f->opt.journal ? journal_reserve(f) : FRAY_OK;
        if (rc == FRAY_OK)
            rc = rs->begin(f->rf, seed, trial, given);
        if (rc == FRAY_OK && f->opt.journal)
            journal_push(f);
    } else if (rc == FRAY_OK) {
        rc = fray__fight_reset_trial(f, seed, trial);
    }
    if (rc != FRAY_OK) {
        fray_fight_free(f);
        return rc;
    }
    *out = f;
    return FRAY_OK;
}

fray_status fray__fight_new_on(const fray__ruleset *rs, const void *data,
                               uint64_t seed, uint64_t trial,
                               const fray_fight_options *opts,
                               const atomic_bool *cancel,
                               const fray_allocator *alloc, fray_fight **out) {
    return fight_make(rs, NULL, true, data, seed, trial, opts, NULL, cancel,
                      alloc, out);
}

FRAY_API fray_status fray_fight_new(const fray_setup *setup, uint64_t seed,
                                    const fray_fight_options *opts,
                                    const fray_given *given,
                                    const fray_allocator *alloc,
                                    fray_fight **out) {
    return fight_make(setup->rs, setup, false, NULL, seed, 0, opts, given,
                      NULL, alloc, out);
}

FRAY_API fray_status fray_fight_reset(fray_fight *f, uint64_t seed) {
    return fray__fight_reset_trial(f, seed, 0);
}

FRAY_API fray_status fray_fight_reset_trial(fray_fight *f, uint64_t seed,
                                            uint64_t trial) {
    return fray__fight_reset_trial(f, seed, trial);
}

FRAY_API void fray_fight_free(fray_fight *f) {
    if (!f)
        return;
    fray_allocator a = f->alloc;
    if (f->rf)
        f->rs->fight_free(f->rf);
    fray__free(&a, f->jbuf, f->jcap);
    fray__free(&a, f->joff,
               f->joff ? ((size_t)f->cap_events + 1) * sizeof *f->joff : 0);
    fray__free(&a, f, sizeof *f);
}

FRAY_API const fray_setup *fray_fight_setup(const fray_fight *f) {
    return f->setup;
}

FRAY_API bool fray_fight_over(const fray_fight *f) {
    return f->rs->over(f->rf);
}

FRAY_API int fray_fight_winner(const fray_fight *f) {
    return f->rs->winner(f->rf);
}

FRAY_API int fray_fight_now(const fray_fight *f) { return f->rs->now(f->rf); }

FRAY_API uint64_t fray_fight_seed(const fray_fight *f) { return f->seed; }

FRAY_API const char *fray_fight_turn(const fray_fight *f, char *when,
                                     size_t size) {
    return f->rs->turn(f->rf, when, size);
}

FRAY_API fray_status fray_fight_step(fray_fight *f) {
    if (f->failed != FRAY_OK)
        return f->failed;
    if (f->rs->over(f->rf))
        return FRAY_ERR_INVALID;
    fray_status rc = f->opt.journal ? journal_reserve(f) : FRAY_OK;
    if (rc == FRAY_OK)
        rc = f->rs->step(f->rf);
    if (rc == FRAY_OK && f->opt.journal)
        journal_push(f);
    f->failed = rc;
    return rc;
}

FRAY_API fray_status fray_fight_run(fray_fight *f) {
    if (f->failed != FRAY_OK)
        return f->failed;
    if (!f->opt.journal && !f->opt.facts && f->rs->run_quiet) {
        /* Nothing recorded: the ruleset's fast path, the same steps. */
        fray_status rc = f->rs->run_quiet(f->rf);
        if (rc != FRAY_OK && rc != FRAY_ERR_CANCELED)
            f->failed = rc;
        return rc;
    }
    for (int k = 1; !f->rs->over(f->rf); k++) {
        if (k % CANCEL_EVERY == 0 && f->cancel &&
            atomic_load_explicit(f->cancel, memory_order_relaxed))
            return FRAY_ERR_CANCELED;
        fray_status rc = fray_fight_step(f);
        if (rc != FRAY_OK)
            return rc;
    }
    return FRAY_OK;
}

FRAY_API fray_status fray_fight_command(fray_fight *f, const char *command,
                                        const fray_given *given,
                                        fray_diag *diag) {
    if (f->failed != FRAY_OK)
        return fray__diag_set(diag, f->failed, 0,
                              "the fight cannot go on after a failed step: "
                              "undo it, or start again");
    fray_status rc = f->opt.journal ? journal_reserve(f) : FRAY_OK;
    if (rc != FRAY_OK)
        return fray__diag_set(diag, rc, 0, "out of memory");
    fray_diag local;
    if (!diag)
        diag = &local;
    rc = f->rs->command(f->rf, command, given, diag);
    if (rc == FRAY_OK && f->opt.journal)
        journal_push(f);
    return rc;
}

fray_status fray__fight_apply(fray_fight *f,
                              fray_status (*apply)(void *rf, void *ctx),
                              void *ctx) {
    if (f->failed != FRAY_OK)
        return f->failed;
    fray_status rc = f->opt.journal ? journal_reserve(f) : FRAY_OK;
    if (rc == FRAY_OK)
        rc = apply(f->rf, ctx);
    if (rc == FRAY_OK && f->opt.journal)
        journal_push(f);
    return rc;
}

FRAY_API bool fray_fight_same(const fray_fight *a, const fray_fight *b) {
    return a->rs == b->rs && a->rs->same(a->rf, b->rf);
}

/* ---- Undo and redo ------------------------------------------------------------ */

FRAY_API int fray_fight_events(const fray_fight *f) {
    return f->opt.journal ? f->n_events : 0;
}

FRAY_API int fray_fight_recorded(const fray_fight *f) {
    return f->opt.journal ? f->n_recorded : 0;
}

/* Recorded event i applied again (i = 0: the fight begins again). */
static fray_status replay_at(fray_fight *f, int i, fray_diag *diag) {
    return f->rs->replay(f->rf, f->jbuf + f->joff[i],
                         f->joff[i + 1] - f->joff[i], i == 0, f->seed,
                         f->trial, diag);
}

FRAY_API fray_status fray_fight_undo(fray_fight *f) {
    /* After a failed step, undo takes back that step (which the journal
     * never got): the state before it, the journal as it is. */
    int keep = f->failed != FRAY_OK ? f->n_events : f->n_events - 1;
    if (!f->opt.journal || keep < 1)
        return FRAY_ERR_INVALID;
    fray_status rc = FRAY_OK;
    for (int i = 0; i < keep && rc == FRAY_OK; i++)
        rc = replay_at(f, i, NULL);
    if (rc == FRAY_OK)
        f->n_events = keep;
    f->failed = rc; /* OK: a state the journal gives, whole again */
    return rc;
}

FRAY_API fray_status fray_fight_redo(fray_fight *f) {
    if (!f->opt.journal || f->n_events >= f->n_recorded || f->n_events < 1)
        return FRAY_ERR_INVALID;
    fray_status rc = replay_at(f, f->n_events, NULL);
    if (rc == FRAY_OK)
        f->n_events++;
    else
        f->failed = rc;
    return rc;
}

/* ---- Renderings ------------------------------------------------------------------ */

/* Event i of those applied; NULL when none. */
static const uint8_t *applied(const fray_fight *f, int i, size_t *len) {
    return i < f->n_events ? fray__fight_event(f, i, len) : NULL;
}

FRAY_API const char *fray_event_action(const fray_fight *f, int i) {
    size_t len = 0;
    const uint8_t *ev = applied(f, i, &len);
    return ev ? f->rs->event_action(f->setup->data, ev, len) : NULL;
}

FRAY_API size_t fray_event_narrate(const fray_fight *f, int i, char *buf,
                                   size_t size) {
    size_t len = 0;
    const uint8_t *ev = applied(f, i, &len);
    if (!ev) {
        if (size)
            buf[0] = '\0';
        return 0;
    }
    return f->rs->event_narrate(f->setup->data, ev, len, buf, size);
}

FRAY_API size_t fray_event_json(const fray_fight *f, int i, char *buf,
                                size_t size) {
    /* The events undone and kept for redo too (a journal that keeps them
     * writes them, then its undo marks). */
    size_t len = 0;
    const uint8_t *ev = fray__fight_event(f, i, &len);
    if (!ev) {
        if (size)
            buf[0] = '\0';
        return 0;
    }
    const void *sd = f->setup->data;
    if (i != 0)
        return f->rs->event_json(sd, ev, len, buf, size);
    /* The first line also carries the seed the fight began with and the
     * ruleset (docs/journal.md): "{" + "\"seed\":N,...," + the rest. */
    char head[160];
    int hn = f->trial == 0
                 ? snprintf(head, sizeof head, "\"seed\":%llu,\"rules\":\"%s\",",
                            (unsigned long long)f->seed, f->rs->name)
                 : snprintf(head, sizeof head,
                            "\"seed\":%llu,\"trial\":%llu,\"rules\":\"%s\",",
                            (unsigned long long)f->seed,
                            (unsigned long long)f->trial, f->rs->name);
    if (hn < 0 || (size_t)hn >= sizeof head)
        hn = 0;
    size_t n = f->rs->event_json(sd, ev, len, NULL, 0);
    size_t total = n + (size_t)hn;
    if (size == 0)
        return total;
    char *tmp = size > total ? buf : fray__alloc(&f->alloc, total + 1);
    if (!tmp) {
        buf[0] = '\0';
        return total;
    }
    f->rs->event_json(sd, ev, len, tmp + hn, n + 1);
    /* tmp+hn starts with '{': move it to the front, the head after. */
    tmp[0] = '{';
    memcpy(tmp + 1, head, (size_t)hn);
    if (tmp != buf) {
        /* Too small: what fits, snprintf-style. */
        memcpy(buf, tmp, size - 1);
        buf[size - 1] = '\0';
        fray__free(&f->alloc, tmp, total + 1);
    }
    return total;
}

FRAY_API size_t fray_fight_draw_time(const fray_fight *f, char *buf,
                                     size_t size) {
    return f->rs->draw_time(f->rf, buf, size);
}

FRAY_API size_t fray_fight_draw_map(const fray_fight *f, char *buf,
                                    size_t size) {
    return f->rs->draw_map(f->rf, buf, size);
}

FRAY_API size_t fray_fight_summary(const fray_fight *f, char *buf,
                                   size_t size) {
    return f->rs->summary(f->rf, buf, size);
}

FRAY_API size_t fray_journal_mark(fray_mark mark, int n, char *buf,
                                  size_t size) {
    const char *key = mark == FRAY_MARK_UNDO   ? "undo"
                      : mark == FRAY_MARK_REDO ? "redo"
                                               : "end";
    int w = snprintf(buf, size, "{\"%s\":{\"%s\":%d}}", key,
                     mark == FRAY_MARK_END ? "events" : "event", n);
    return w < 0 ? 0 : (size_t)w;
}

/* ---- Replay of a JSON Lines journal --------------------------------------------- */

/* An event line: read by the ruleset, checked and applied. */
static fray_status replay_event(fray_fight *f, const fray__jline *l,
                                json_t *o, const fray__jseed *sd) {
    if (journal_reserve(f) != FRAY_OK)
        return fray__diag_set(l->diag, FRAY_ERR_NOMEM, 0, "out of memory");
    if (f->n_events == 0) {
        /* A journal names its ruleset on its first line; without the key
         * it is of the first ruleset fray ran (journals before the key).
         * Asked before the ruleset reads the line: another ruleset's
         * event is not this one's to judge. */
        fray__jseg path[] = {{"rules", 0}};
        json_t *r = json_object_get(o, "rules");
        const char *word = r ? json_string_value(r) : fray__rulesets[0]->name;
        if (!word)
            return fray__jfield_error(l, path, 1, "expected the name of a "
                                      "ruleset");
        if (strcmp(word, f->rs->name) != 0)
            return r ? fray__jfield_error(l, path, 1, "this journal is of "
                                          "rules %.40s, the fight of %s",
                                          word, f->rs->name)
                     : fray__diag_set(l->diag, FRAY_ERR_INVALID, 1,
                                      "this journal names no rules (so it is "
                                      "of rules %s), the fight is of %s",
                                      word, f->rs->name);
    }
    uint8_t *slot = f->jbuf + f->joff[f->n_events];
    size_t len = 0;
    fray_status rc =
        f->rs->event_read(f->setup->data, l, o, slot, &len, l->diag);
    if (rc != FRAY_OK)
        return rc;
    const char *action = f->rs->event_action(f->setup->data, slot, len);
    bool begin = action && strcmp(action, "begin") == 0;
    if (begin != (f->n_events == 0)) {
        fray__jseg path[] = {{"command", 0}, {"action", 0}};
        return fray__diag_set(l->diag, FRAY_ERR_INVALID,
                              fray__js_column(l, path, 2),
                              "a journal starts with its \"begin\" event, "
                              "and only there");
    }
    if (begin) {
        fray__jseg path[] = {{"seed", 0}};
        if (json_object_get(o, "seed") && !sd->has_seed)
            return fray__jfield_error(l, path, 1, "expected a whole number "
                                      "from 0 to 18446744073709551615");
        path[0].key = "trial";
        if (json_object_get(o, "trial") && !sd->has_trial)
            return fray__jfield_error(l, path, 1, "expected a whole number "
                                      "from 0 to 18446744073709551615");
        if (sd->has_seed) {
            f->seed = sd->seed;
            f->trial = sd->has_trial ? sd->trial : 0;
        }
    }
    rc = f->rs->replay(f->rf, slot, len, begin, f->seed, f->trial, l->diag);
    if (rc != FRAY_OK)
        return rc;
    /* Kept as applied again (with what it told), in the same room. */
    journal_push(f);
    return FRAY_OK;
}

/* {"undo": {"event": K}}, {"redo": {"event": K}}, {"end": {"events": N}}
 * (docs/journal.md "Marks"). */
static fray_status replay_mark(fray_fight *f, const fray__jline *l, json_t *o,
                               fray_mark mark) {
    const char *key = mark == FRAY_MARK_UNDO   ? "undo"
                      : mark == FRAY_MARK_REDO ? "redo"
                                               : "end";
    const char *field = mark == FRAY_MARK_END ? "events" : "event";
    fray__jseg path[] = {{key, 0}, {field, 0}};
    json_t *m = json_object_get(o, key);
    if (!json_is_object(m))
        return fray__jfield_error(l, path, 1, "expected {\"%s\": N}", field);
    long long k;
    fray_status rc =
        fray__jread_int(l, m, path, 2, 0, INT_MAX, -1, NULL, &k);
    if (rc != FRAY_OK)
        return rc;
    int col = fray__js_column(l, path, 2);
    int n = f->n_events;
    switch (mark) {
    case FRAY_MARK_UNDO:
        if (n <= 1)
            return fray__diag_set(l->diag, FRAY_ERR_INVALID, col,
                                  "nothing to undo: the journal is at the "
                                  "start of the fight");
        if (k != n - 1)
            return fray__diag_set(l->diag, FRAY_ERR_INVALID, col,
                                  "the undo takes back event %lld, but the "
                                  "last event is %d", k, n - 1);
        rc = fray_fight_undo(f);
        break;
    case FRAY_MARK_REDO:
        if (n >= f->n_recorded)
            return fray__diag_set(l->diag, FRAY_ERR_INVALID, col,
                                  "nothing to redo: no event was undone "
                                  "here");
        if (k != n)
            return fray__diag_set(l->diag, FRAY_ERR_INVALID, col,
                                  "the redo plays event %lld again, but the "
                                  "event undone last is %d", k, n);
        rc = fray_fight_redo(f);
        break;
    case FRAY_MARK_END:
        if (k != n)
            return fray__diag_set(l->diag, FRAY_ERR_INVALID, col,
                                  "the end mark counts %lld events, but the "
                                  "journal has %d", k, n);
        break;
    }
    if (rc != FRAY_OK)
        return fray__diag_set(l->diag, rc, col, "the %s does not replay: %s",
                              key, fray_strerror(rc));
    return FRAY_OK;
}

FRAY_API fray_status fray_fight_replay_journal(fray_fight *f,
                                               const char *text, size_t len,
                                               fray_replay_info *out_info,
                                               fray_diag *diag) {
    fray_replay_info local;
    fray_replay_info *info = out_info ? out_info : &local;
    memset(info, 0, sizeof *info);
    if (!f->opt.journal)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "replay needs a fight that keeps a journal");
    f->n_events = 0;
    f->n_recorded = 0;
    f->failed = FRAY_OK;
    int line = 0, end_line = 0;
    char *copy = NULL;
    size_t copy_cap = 0;
    fray_status rc = FRAY_OK;
    for (size_t at = 0; at < len && rc == FRAY_OK;) {
        const char *p = text + at;
        const char *nl = memchr(p, '\n', len - at);
        size_t n = nl ? (size_t)(nl - p) : len - at;
        at += n + (nl ? 1 : 0);
        line = line < INT_MAX ? line + 1 : line;
        info->lines = line;
        bool blank = true;
        for (size_t k = 0; k < n && blank; k++)
            blank = isspace((unsigned char)p[k]) != 0;
        if (blank)
            continue;
        const char *nul = memchr(p, '\0', n);
        if (nul) {
            size_t col = (size_t)(nul - p) + 1;
            rc = fray__diag_set(diag, FRAY_ERR_PARSE,
                                col < INT_MAX ? (int)col : 0,
                                "a NUL byte: a journal is text");
            break;
        }
        if (end_line) {
            rc = fray__diag_set(diag, FRAY_ERR_INVALID, 1,
                                "the journal goes on after its end (line "
                                "%d)", end_line);
            break;
        }
        if (n + 1 > copy_cap) {
            char *c = fray__realloc(&f->alloc, copy, copy_cap, n + 1);
            if (!c) {
                rc = fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
                break;
            }
            copy = c;
            copy_cap = n + 1;
        }
        memcpy(copy, p, n);
        copy[n] = '\0';
        fray__jline l = {p, n, diag};
        fray__jseed sd;
        rc = fray__jscan_seeds(&l, copy, &sd);
        if (rc != FRAY_OK)
            break;
        json_error_t err;
        json_t *o = json_loadb(copy, n, JSON_REJECT_DUPLICATES, &err);
        if (!o && !nl) {
            /* The last line, cut in the middle of its writing (it has no
             * newline and is not JSON): the journal was cut short. */
            info->torn = true;
            break;
        }
        if (!o)
            rc = fray__diag_set(diag, FRAY_ERR_PARSE, err.column, "%s",
                                err.text);
        else if (!json_is_object(o))
            rc = fray__diag_set(diag, FRAY_ERR_PARSE, 1,
                                "a journal line is a JSON object {...}");
        else if (json_object_get(o, "command"))
            rc = replay_event(f, &l, o, &sd);
        else if (json_object_get(o, "undo"))
            rc = replay_mark(f, &l, o, FRAY_MARK_UNDO);
        else if (json_object_get(o, "redo"))
            rc = replay_mark(f, &l, o, FRAY_MARK_REDO);
        else if (json_object_get(o, "end") || json_object_get(o, "summary")) {
            /* The end mark; or the summary line of `fray fight --json`,
             * which ends a journal too. */
            if (json_object_get(o, "end"))
                rc = replay_mark(f, &l, o, FRAY_MARK_END);
            end_line = line;
            info->ended = rc == FRAY_OK;
        } else
            rc = fray__diag_set(diag, FRAY_ERR_PARSE, 1,
                                "each journal line needs a \"command\" "
                                "object (or is an undo, redo or end mark)");
        json_decref(o);
    }
    fray__free(&f->alloc, copy, copy_cap);
    if (rc != FRAY_OK) {
        f->failed = rc; /* the state is the journal's up to here */
        if (diag)
            diag->line = line;
        return rc;
    }
    if (f->n_events == 0) {
        /* Leave a fight that can go on: the start of the fight again. */
        fray_status rr = fray__fight_reset_trial(f, f->seed, f->trial);
        if (rr != FRAY_OK)
            return rr;
        fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                       "the journal is empty: it has no \"begin\" event");
        if (diag)
            diag->line = 1; /* where the "begin" event belongs */
        return FRAY_ERR_INVALID;
    }
    return FRAY_OK;
}

FRAY_API int fray_event_names(const fray_fight *f, int i, bool *named,
                              int size) {
    if (!f->rs->event_names || !named ||
        size < f->rs->combatants(f->setup->data))
        return -1;
    size_t len = 0;
    const uint8_t *ev = applied(f, i, &len);
    if (!ev)
        return -1;
    return f->rs->event_names(f->setup->data, ev, len, named);
}
