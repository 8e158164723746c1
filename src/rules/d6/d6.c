/*
 * d6.c - D6's table of functions for the shared layer
 * (src/encounter/ruleset.h): a fight's state, its scratch event, the
 * table's commands applied on a copy and kept on success, packed events,
 * replay, the simulation's counts.
 */
#include "d6_int.h"
#include "d6_odds.h"
#include "d6_quick.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/duel.h"
#include "internal.h"
#include "jread.h"
#include "ruleset.h"

_Static_assert((int)D6_EV_KINDS - (int)D6_EV_ATTACK <= (int)FRAY_SIM_ACTION_KINDS,
               "the counts hold every kind of D6 action");
_Static_assert((int)FRAY_SIM_MAX_COMBATANTS >= (int)D6_MAX_C, "the counts hold every combatant");
_Static_assert((int)FRAY_SIM_MAX_SIDES >= (int)D6_MAX_SIDES, "the counts hold every side");

typedef struct d6_fight {
    const d6_setup *s;
    fray_allocator alloc;
    bool has_alloc;
    bool facts;
    int until;
    const atomic_bool *cancel;
    uint64_t seed, trial;
    int32_t n_events;
    d6_state st, backup;
    d6_event ev, replay_ev;
    bool has_event;
    char why[320];
    int32_t dealt[D6_MAX_C], taken[D6_MAX_C], actions[D6_MAX_C];
    uint16_t by_kind[D6_MAX_C][D6_EV_KINDS];
    /* The simulation's loop (quick.c, issue 18): the setup's constants,
     * made once per simulation fight; quick_off: the long way (tests). */
    bool quick_off;
    d6_loop qp;
} d6_fight;

/* What i has lost so far: Wound levels (health: wounds) or Body Points
 * (the simulation's harm track). */
static int harm_of(const d6_setup *s, const d6_state *st, int i) {
    if (s->o.health == D6_HEALTH_WOUNDS)
        return st->c[i].wound;
    return s->c[i].b.body_points - st->c[i].bp;
}

static const fray_allocator *alloc_of(const d6_fight *f) {
    return f->has_alloc ? &f->alloc : NULL;
}

enum { D6_PACKED_HEAD = offsetof(d6_event, dice) };
#define D6_PACKED_MAX                                                          \
    (D6_PACKED_HEAD + D6_EV_DICE * sizeof(uint8_t) + D6_EV_FACTS * sizeof(d6_fact))

static size_t pack(const d6_event *ev, uint8_t *out) {
    uint8_t *p = out;
    memcpy(p, ev, D6_PACKED_HEAD);
    p += D6_PACKED_HEAD;
    memcpy(p, ev->dice, (size_t)ev->n_dice * sizeof(uint8_t));
    p += (size_t)ev->n_dice * sizeof(uint8_t);
    memcpy(p, ev->facts, (size_t)ev->n_facts * sizeof(d6_fact));
    p += (size_t)ev->n_facts * sizeof(d6_fact);
    return (size_t)(p - out);
}

static fray_status unpack(const uint8_t *in, size_t len, d6_event *ev) {
    if (len < D6_PACKED_HEAD)
        return FRAY_ERR_INVALID;
    memcpy(ev, in, D6_PACKED_HEAD);
    if (ev->n_dice > D6_EV_DICE || ev->n_facts > D6_EV_FACTS ||
        ev->kind >= D6_EV_KINDS ||
        len != D6_PACKED_HEAD + (size_t)ev->n_dice * sizeof(uint8_t) +
                   (size_t)ev->n_facts * sizeof(d6_fact))
        return FRAY_ERR_INVALID;
    memcpy(ev->dice, in + D6_PACKED_HEAD, (size_t)ev->n_dice * sizeof(uint8_t));
    memcpy(ev->facts, in + D6_PACKED_HEAD + (size_t)ev->n_dice * sizeof(uint8_t),
           (size_t)ev->n_facts * sizeof(d6_fact));
    return FRAY_OK;
}

static void event_start(d6_fight *f, const d6_event *cmd) {
    d6_event *ev = &f->ev;
    if (cmd != ev)
        memcpy(ev, cmd, D6_PACKED_HEAD);
    ev->number = f->n_events;
    ev->round = f->st.round;
    ev->given = 0;
    ev->n_dice = ev->n_facts = 0;
}

static void run_init(d6_fight *f, d6_run *r) {
    memset(r, 0, sizeof *r);
    r->s = f->s;
    r->st = &f->st;
    r->ev = &f->ev;
    r->facts = f->facts;
    r->failed = FRAY_OK;
}

static int limit_of(const d6_fight *f) {
    return f->until > 0 ? f->until : f->s->rounds;
}

static void counts_reset(d6_fight *f) {
    memset(f->dealt, 0, sizeof f->dealt);
    memset(f->taken, 0, sizeof f->taken);
    memset(f->actions, 0, sizeof f->actions);
    memset(f->by_kind, 0, sizeof f->by_kind);
}

static void count_event(d6_fight *f, const int16_t *before) {
    const d6_event *ev = &f->ev;
    int a = ev->actor;
    if (a >= 0 && ev->kind >= D6_EV_ATTACK && ev->kind != D6_EV_WAIT &&
        ev->kind != D6_EV_QUICK_DRAW) { /* announced, not an action */
        f->actions[a]++;
        if (f->by_kind[a][ev->kind - D6_EV_ATTACK] < UINT16_MAX)
            f->by_kind[a][ev->kind - D6_EV_ATTACK]++;
    }
    for (int i = 0; i < f->st.n; i++) {
        int lost = harm_of(f->s, &f->st, i) - before[i];
        if (lost <= 0)
            continue;
        f->taken[i] += lost;
        if (ev->kind == D6_EV_ATTACK && a >= 0)
            f->dealt[a] += lost;
    }
}

/* ---- Setup members -------------------------------------------------------- */

static fray_status rs_load(const char *path, const fray_allocator *alloc,
                           void **out, fray_diag *diag) {
    d6_setup *s = NULL;
    fray_status rc = d6_load(path, alloc, &s, diag);
    *out = rc == FRAY_OK ? s : NULL;
    return rc;
}
static void rs_setup_free(void *setup) { d6_setup_free(setup); }
static fray_status rs_setup_copy(const void *setup, const fray_allocator *alloc,
                                 void **out) {
    d6_setup *s = NULL;
    fray_status rc = d6_setup_copy(setup, alloc, &s);
    *out = rc == FRAY_OK ? s : NULL;
    return rc;
}
static fray_status rs_vary(void *setup, const char *key, const char *value,
                           fray_diag *diag) {
    return d6_vary(setup, key, value, diag);
}
static fray_status rs_vary_scope(const void *setup, const char *key, char *buf,
                                 size_t size, fray_diag *diag) {
    return d6_vary_scope(setup, key, buf, size, diag);
}
static fray_status rs_load_files(const char *path, const fray_allocator *alloc,
                                 void **out, struct fray__files *files,
                                 fray_diag *diag) {
    d6_setup *s = NULL;
    fray_status rc = d6_load_files(path, alloc, &s, files, diag);
    *out = rc == FRAY_OK ? s : NULL;
    return rc;
}
static const char *rs_setup_name(const void *setup) {
    return ((const d6_setup *)setup)->name;
}
static bool rs_setup_seed(const void *setup, uint64_t *out) {
    const d6_setup *s = setup;
    if (s->has_seed && out)
        *out = s->seed;
    return s->has_seed;
}
static int rs_sides(const void *setup) { return ((const d6_setup *)setup)->n_sides; }
static const char *rs_side_name(const void *setup, int side) {
    const d6_setup *s = setup;
    return side >= 0 && side < s->n_sides ? s->side_name[side] : NULL;
}
static int rs_combatants(const void *setup) { return ((const d6_setup *)setup)->n; }
static const char *rs_combatant_name(const void *setup, int i) {
    const d6_setup *s = setup;
    return i >= 0 && i < s->n ? s->c[i].name : NULL;
}
static const char *rs_combatant_id(const void *setup, int i) {
    const d6_setup *s = setup;
    return i >= 0 && i < s->n ? s->c[i].id : NULL;
}
static int rs_combatant_side(const void *setup, int i) {
    const d6_setup *s = setup;
    return i >= 0 && i < s->n ? s->c[i].side : -1;
}

/* ---- Fights ---------------------------------------------------------------- */

static fray_status fight_make(const void *setup, bool facts, int until,
                              const atomic_bool *cancel,
                              const fray_allocator *alloc, void **out) {
    *out = NULL;
    if (!setup)
        return FRAY_ERR_INVALID;
    d6_fight *f = fray__alloc(alloc, sizeof *f);
    if (!f)
        return FRAY_ERR_NOMEM;
    memset(f, 0, sizeof *f);
    f->s = setup;
    if (alloc) {
        f->alloc = *alloc;
        f->has_alloc = true;
    }
    f->facts = facts;
    f->until = until;
    f->cancel = cancel;
    *out = f;
    return FRAY_OK;
}

static fray_status rs_fight_new(const void *setup, const fray__fight_opts *o,
                                const fray_allocator *alloc, void **out) {
    return fight_make(setup, o ? (o->facts || o->record) : true,
                      o ? o->until : 0, o ? o->cancel : NULL, alloc, out);
}

static void rs_fight_free(void *rfight) {
    d6_fight *f = rfight;
    if (f)
        fray__free(alloc_of(f), f, sizeof *f);
}

static fray_status begin_with(d6_fight *f, uint64_t seed, uint64_t trial,
                              const int *dice, size_t n_dice) {
    f->has_event = false;
    f->seed = seed;
    f->trial = trial;
    f->n_events = 0;
    d6_state_init(f->s, &f->st, seed, trial);
    memset(&f->ev, 0, D6_PACKED_HEAD);
    event_start(f, &f->ev);
    d6_run r;
    run_init(f, &r);
    r.given = dice;
    r.n_given = dice ? n_dice : 0;
    fray_status rc = d6_begin(&r);
    if (rc == FRAY_OK && dice && r.used_given != n_dice)
        rc = FRAY_ERR_INVALID; /* more dice given than opening rolls */
    if (rc != FRAY_OK)
        return rc;
    f->n_events = 1;
    f->has_event = true;
    counts_reset(f);
    return FRAY_OK;
}

static fray_status rs_begin(void *rfight, uint64_t seed, uint64_t trial,
                            const fray_given *given) {
    d6_fight *f = rfight;
    if (given && given->n_cards > 0)
        return FRAY_ERR_INVALID; /* D6 rolls dice */
    fray_status rc = begin_with(f, seed, trial, given ? given->dice : NULL,
                                given ? given->n_dice : 0);
    if (rc != FRAY_OK && given && given->dice && given->diag)
        fray__diag_set(given->diag, rc, 0,
                       "the opening takes the initiative rolls: each "
                       "combatant's Acumen with the Wild Die (1 to 6 a die; "
                       "the Wild Die and its re-rolls on a 6 first), in the "
                       "encounter's order");
    return rc;
}

static bool rs_over(const void *rfight) {
    const d6_fight *f = rfight;
    return f->st.over || f->st.stopped;
}
static int rs_winner(const void *rfight) {
    const d6_fight *f = rfight;
    return f->st.over ? f->st.winner : -1;
}
static int rs_now(const void *rfight) { return ((const d6_fight *)rfight)->st.round; }

static const char *rs_turn(const void *rfight, char *when, size_t size) {
    const d6_fight *f = rfight;
    if (when && size)
        when[0] = '\0';
    if (rs_over(f) || !f->st.started)
        return NULL;
    int a = d6_actor(&f->st);
    if (a < 0)
        return NULL;
    if (when && size)
        snprintf(when, size, "round %d", (int)f->st.round);
    return f->s->c[a].name;
}

static fray_status check_cancel(const d6_fight *f) {
    return f->cancel && atomic_load_explicit(f->cancel, memory_order_relaxed)
               ? FRAY_ERR_CANCELED
               : FRAY_OK;
}

static fray_status step(d6_fight *f) {
    f->has_event = false;
    f->why[0] = '\0';
    if (!f->st.started || rs_over(f))
        return FRAY_ERR_INVALID;
    d6_event cmd;
    d6_choose(f->s, &f->st, &cmd);
    int lim = limit_of(f);
    if (cmd.kind == D6_EV_ROUND && lim > 0 && f->st.round >= lim) {
        f->st.stopped = true; /* the round limit: stop before the next */
        return FRAY_OK;
    }
    int16_t hp[D6_MAX_C];
    for (int i = 0; i < f->st.n; i++)
        hp[i] = (int16_t)harm_of(f->s, &f->st, i);
    bool keep = f->facts;
    if (keep)
        f->backup = f->st;
    event_start(f, &cmd);
    d6_run r;
    run_init(f, &r);
    fray_status rc = d6_apply(&r);
    if (rc != FRAY_OK) {
        char why[200] = "";
        if (keep)
            f->st = f->backup;
        if (d6_check_cmd(f->s, &f->st, &cmd, why, sizeof why) != FRAY_OK)
            snprintf(f->why, sizeof f->why,
                     "%.40s's tactics chose %.24s, which the rules refuse: %.150s",
                     cmd.actor >= 0 ? f->s->c[cmd.actor].name : "the GM",
                     d6_kind_title(cmd.kind), why);
        return rc;
    }
    f->n_events++;
    f->has_event = true;
    count_event(f, hp);
    return FRAY_OK;
}

static fray_status rs_step(void *rfight) { return step(rfight); }

static size_t rs_failure(const void *rfight, char *buf, size_t size) {
    const d6_fight *f = rfight;
    if (!f->why[0])
        return 0;
    int n = snprintf(buf, size, "%s", f->why);
    return n < 0 ? 0 : (size_t)n;
}

static fray_status rs_command(void *rfight, const char *text,
                              const fray_given *given, fray_diag *diag) {
    d6_fight *f = rfight;
    f->has_event = false;
    if (!f->st.started)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "the fight has not begun");
    if (rs_over(f))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "the fight is over");
    if (given && given->n_cards > 0)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "D6 rolls dice: cards cannot be given");
    d6_event cmd;
    fray_status rc = d6_parse(f->s, &f->st, text, &cmd, diag);
    if (rc != FRAY_OK)
        return rc;
    int lim = limit_of(f);
    if (cmd.kind == D6_EV_ROUND && lim > 0 && f->st.round >= lim) {
        f->st.stopped = true; /* the round limit: the fight stops here */
        return FRAY_OK;
    }
    char why[200] = "";
    rc = d6_check_cmd(f->s, &f->st, &cmd, why, sizeof why);
    if (rc != FRAY_OK)
        return fray__diag_set(diag, rc, 0, "%s", why[0] ? why : "not allowed now");
    f->backup = f->st;
    const int *dice = given ? given->dice : NULL;
    size_t n_dice = dice ? given->n_dice : 0;
    int16_t hp[D6_MAX_C];
    for (int i = 0; i < f->st.n; i++)
        hp[i] = (int16_t)harm_of(f->s, &f->st, i);
    event_start(f, &cmd);
    d6_run r;
    run_init(f, &r);
    r.given = dice;
    r.n_given = n_dice;
    rc = d6_apply(&r);
    const char *title = d6_kind_title(cmd.kind);
    if (rc == FRAY_OK && dice && r.used_given < n_dice) {
        f->st = f->backup;
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%zu dice were given but the %s rolled %zu",
                              n_dice, title, r.used_given);
    }
    if (rc != FRAY_OK) {
        f->st = f->backup;
        if (dice && r.bad_die)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "die %zu given, %d, is not a roll of a d6 "
                                  "(1 to 6)",
                                  r.used_given + 1, dice[r.used_given]);
        if (dice && r.used_given >= n_dice)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "the %s needs more dice than the %zu given",
                                  title, n_dice);
        return fray__diag_set(diag, rc, 0, "the %s could not be applied: %s",
                              title, fray_strerror(rc));
    }
    f->n_events++;
    f->has_event = true;
    count_event(f, hp);
    return FRAY_OK;
}

static size_t rs_event_pack(const void *rfight, uint8_t *out) {
    const d6_fight *f = rfight;
    return f->has_event ? pack(&f->ev, out) : 0;
}

static fray_status rs_replay(void *rfight, const uint8_t *evb, size_t len,
                             bool is_begin, uint64_t seed, uint64_t trial,
                             fray_diag *diag) {
    d6_fight *f = rfight;
    f->has_event = false;
    d6_event *rec = &f->replay_ev;
    if (unpack(evb, len, rec) != FRAY_OK)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "not a D6 event");
    if (is_begin != (rec->kind == D6_EV_BEGIN))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              is_begin ? "a fight begins with the opening, not with %s"
                                       : "the %s comes only at the start",
                              d6_kind_title(rec->kind));
    if (!is_begin && (!f->st.started || rs_over(f)))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              f->st.started ? "the fight is over" : "the fight has not begun");
    if (!is_begin) { /* a recorded command the rules refuse now does not apply */
        char why[200] = "";
        if (d6_check_cmd(f->s, &f->st, rec, why, sizeof why) != FRAY_OK)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "event %ld (%s): %s",
                                  (long)rec->number, d6_kind_title(rec->kind), why);
    }
    f->backup = f->st;
    int32_t n_events = f->n_events;
    if (is_begin) {
        f->seed = seed;
        f->trial = trial;
        f->n_events = 0;
        d6_state_init(f->s, &f->st, seed, trial);
    }
    int16_t hp[D6_MAX_C];
    for (int i = 0; i < f->st.n; i++)
        hp[i] = (int16_t)harm_of(f->s, &f->st, i);
    event_start(f, rec);
    d6_run r;
    run_init(f, &r);
    r.replay = rec;
    fray_status rc = is_begin ? d6_begin(&r) : d6_apply(&r);
    const char *why = NULL;
    if (rc != FRAY_OK)
        why = rec->given ? "it does not apply to the fight as it stands "
                           "(a die recorded does not fit)"
                         : "it does not apply to the fight as it stands "
                           "(the dice drawn again differ from those recorded)";
    else if (r.replay_die != rec->n_dice)
        why = "it recorded more dice than the action rolls";
    if (why) {
        f->st = f->backup;
        f->n_events = n_events;
        return fray__diag_set(diag, rc != FRAY_OK ? rc : FRAY_ERR_INVALID, 0,
                              "event %ld (%s): %s", (long)rec->number,
                              d6_kind_title(rec->kind), why);
    }
    f->ev.number = rec->number;
    f->ev.given = rec->given;
    f->n_events = is_begin ? 1 : f->n_events + 1;
    f->has_event = true;
    if (is_begin)
        counts_reset(f);
    else
        count_event(f, hp);
    return FRAY_OK;
}

static bool same_c(const d6_cstate *a, const d6_cstate *b) {
    return a->x == b->x && a->y == b->y && a->bp == b->bp && a->wound == b->wound &&
           a->flags == b->flags && a->defense == b->defense &&
           a->def_total == b->def_total && a->stun_round == b->stun_round &&
           a->init == b->init && a->def_parry == b->def_parry &&
           a->aim_target == b->aim_target && a->aim_dice == b->aim_dice &&
           a->held_by == b->held_by && a->hold_kind == b->hold_kind &&
           a->tangle == b->tangle && a->down == b->down &&
           a->dropped == b->dropped && a->hold_round == b->hold_round &&
           a->submitted == b->submitted;
}

static bool rs_same(const void *pa, const void *pb) {
    const d6_state *a = &((const d6_fight *)pa)->st, *b = &((const d6_fight *)pb)->st;
    /* (stopped, the round limit reached, is the run's, not the journal's) */
    if (a->round != b->round || a->started != b->started || a->over != b->over ||
        a->winner != b->winner || a->n != b->n || a->n_order != b->n_order ||
        a->pos != b->pos || a->rng.state != b->rng.state || a->rng.inc != b->rng.inc)
        return false;
    for (int k = 0; k < a->n_order; k++)
        if (a->order[k] != b->order[k])
            return false;
    for (int i = 0; i < a->n; i++)
        if (!same_c(&a->c[i], &b->c[i]))
            return false;
    return true;
}

/* ---- Telling ------------------------------------------------------------------- */

static const char *rs_event_action(const void *setup, const uint8_t *ev, size_t len) {
    (void)setup;
    if (len < D6_PACKED_HEAD)
        return NULL;
    return d6_kind_word(ev[offsetof(d6_event, kind)]);
}

static size_t rs_event_narrate(const void *setup, const uint8_t *ev, size_t len,
                               char *buf, size_t size) {
    d6_event *e = malloc(sizeof *e);
    size_t n = 0;
    if (e && unpack(ev, len, e) == FRAY_OK)
        n = d6_narrate(setup, e, buf, size);
    else if (buf && size)
        buf[0] = '\0';
    free(e);
    return n;
}

static size_t rs_event_json(const void *setup, const uint8_t *ev, size_t len,
                            char *buf, size_t size) {
    d6_event *e = malloc(sizeof *e);
    size_t n = 0;
    if (e && unpack(ev, len, e) == FRAY_OK)
        n = d6_event_json(setup, e, buf, size);
    else if (buf && size)
        buf[0] = '\0';
    free(e);
    return n;
}

static fray_status rs_event_read(const void *setup, const struct fray__jline *l,
                                 const void *json_object, uint8_t *out,
                                 size_t *out_len, fray_diag *diag) {
    d6_event *e = malloc(sizeof *e);
    if (!e)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    char field[96] = "", why[200] = "";
    fray_status rc = d6_event_from_json(setup, json_object, e, field,
                                        sizeof field, why, sizeof why);
    if (rc == FRAY_OK) {
        e->n_facts = 0; /* told again when applied */
        *out_len = pack(e, out);
    }
    free(e);
    if (rc == FRAY_OK)
        return FRAY_OK;
    /* "command.action", "dice[2]": the path for the column */
    fray__jseg path[FRAY__JPATH_MAX];
    int depth = 0;
    char *p = field;
    while (*p && depth < FRAY__JPATH_MAX) {
        char *br = strchr(p, '['), *dot = strchr(p, '.');
        char *end = br && (!dot || br < dot) ? br : dot;
        path[depth].key = p;
        path[depth].index = 0;
        depth++;
        if (!end)
            break;
        if (end == br) {
            *br = '\0';
            if (depth < FRAY__JPATH_MAX) {
                path[depth].key = NULL;
                path[depth].index = atoi(br + 1);
                depth++;
            }
            break;
        }
        *dot = '\0';
        p = dot + 1;
    }
    if (l && depth > 0)
        return fray__jfield_error(l, path, depth, "%s", why);
    return fray__diag_set(diag, rc, 0, "%s", why);
}

static size_t rs_draw_time(const void *rfight, char *buf, size_t size) {
    const d6_fight *f = rfight;
    return d6_draw_time(f->s, &f->st, buf, size);
}
static size_t rs_draw_map(const void *rfight, char *buf, size_t size) {
    const d6_fight *f = rfight;
    return d6_draw_map(f->s, &f->st, buf, size);
}
static size_t rs_summary(const void *rfight, char *buf, size_t size) {
    const d6_fight *f = rfight;
    return d6_summary(f->s, &f->st, buf, size);
}

/* Whom an event names (issue 14): its actor, its target, and everyone
 * its facts tell of. */
static int rs_event_names(const void *setup, const uint8_t *ev, size_t len,
                          bool *named) {
    const d6_setup *s = setup;
    d6_event *e = malloc(sizeof *e);
    if (!e)
        return -1;
    int n = -1;
    if (unpack(ev, len, e) == FRAY_OK) {
        memset(named, 0, (size_t)s->n * sizeof *named);
        int who[2 + 2 * D6_EV_FACTS], k = 0;
        who[k++] = e->actor;
        who[k++] = e->target;
        for (int i = 0; i < e->n_facts; i++) {
            who[k++] = e->facts[i].who;
            who[k++] = e->facts[i].other;
        }
        n = 0;
        for (int i = 0; i < k; i++)
            if (who[i] >= 0 && who[i] < s->n && !named[who[i]]) {
                named[who[i]] = true;
                n++;
            }
    }
    free(e);
    return n;
}

static fray_status rs_view(const void *rfight, struct fray_fight_view *v) {
    const d6_fight *f = rfight;
    int turn = rs_over(f) || !f->st.started ? -1 : d6_actor(&f->st);
    return d6_view(f->s, &f->st, turn, v);
}

/* ---- Simulation ------------------------------------------------------------ */

static fray_status rs_sim_fight_new(const void *setup, uint64_t seed, int until,
                                    const atomic_bool *cancel,
                                    const fray_allocator *alloc, void **out) {
    fray_status rc = fight_make(setup, false, until, cancel, alloc, out);
    if (rc == FRAY_OK) {
        d6_fight *f = *out;
        f->seed = seed;
        d6_loop_prepare(setup, &f->qp);
    }
    return rc;
}

static fray_status rs_reset_trial(void *rfight, uint64_t seed, uint64_t trial) {
    return begin_with(rfight, seed, trial, NULL, 0);
}

/* An encounter without a round limit stops after this many rounds (the
 * tactics never stall, but a fight of two full defenses could be long). */
enum { D6_ROUNDS_CAP = 1000 };

void d6_loop_set_off(void *rfight, bool off) { ((d6_fight *)rfight)->quick_off = off; }
bool d6_loop_eligible(const void *rfight) {
    const d6_fight *f = rfight;
    return !f->facts && !f->quick_off && d6_loop_state_ok(&f->qp, &f->st);
}

static fray_status rs_run(void *rfight) {
    d6_fight *f = rfight;
    if (d6_loop_eligible(f)) { /* quick.c: the same fight, no events */
        d6_tally t = {f->dealt, f->taken, f->actions, f->by_kind};
        f->has_event = false;
        f->why[0] = '\0';
        fray_status rc = d6_loop_run(&f->qp, &f->st, limit_of(f), D6_ROUNDS_CAP, f->cancel,
                                     &t, &f->n_events);
        if (rc == FRAY_ERR_INVALID) /* never reached: quick.c refuses what it cannot count */
            snprintf(f->why, sizeof f->why,
                     "round %d: the simulation's quick loop met a turn it does not model; "
                     "the fight stops here (a fault in the engine: please report it)",
                     (int)f->st.round);
        return rc;
    }
    for (uint32_t n = 0; !rs_over(f); n++) {
        if ((n & 1023u) == 0) {
            fray_status rc = check_cancel(f);
            if (rc != FRAY_OK)
                return rc;
        }
        if (limit_of(f) <= 0 && f->st.round >= D6_ROUNDS_CAP && d6_actor(&f->st) < 0) {
            f->st.stopped = true;
            break;
        }
        fray_status rc = step(f);
        if (rc != FRAY_OK)
            return rc;
    }
    return FRAY_OK;
}

bool d6_dead_at_zero_bp(const d6_setup *s, const d6_cstate *c) {
    return s->o.health == D6_HEALTH_BODY_POINTS && !s->o.zero_bp_unconscious &&
           d6_out(c) && !c->submitted && c->bp <= 0;
}

static void rs_count(const void *rfight, fray_sim_counts *c) {
    const d6_fight *f = rfight;
    const d6_state *st = &f->st;
    c->trials++;
    if (st->over && st->winner >= 0)
        c->wins[st->winner]++;
    else if (st->over && st->winner == -2)
        c->all_out++;
    else
        c->unfinished++;
    uint64_t len = st->round > 0 ? (uint64_t)st->round : 0;
    c->length_sum += len;
    c->length_sq_sum += len * len;
    c->length[len < FRAY_SIM_LENGTH_BINS - 1 ? len : FRAY_SIM_LENGTH_BINS - 1]++;
    for (int i = 0; i < st->n; i++) {
        const d6_cstate *cs = &st->c[i];
        fray_sim_combatant_counts *cc = &c->c[i];
        if (cs->submitted) /* holds.c: yielded to an arm pin (003:22-24) */
            cc->fled++;
        else if (cs->wound == D6_W_DEAD || d6_dead_at_zero_bp(f->s, cs))
            cc->dead++; /* Dead (core); 0 Body Points (ruling 70) */
        else if (d6_out(cs) && cs->wound == D6_W_MORTAL)
            cc->dying++;
        else if (d6_out(cs)) /* down at Incapacitated, knocked out, 0 Body */
            cc->unconscious++; /* Points when unconscious (003:87, ruling 70) */
        else
            cc->standing++;
        cc->dealt[0] += (uint64_t)f->dealt[i];
        cc->taken[0] += (uint64_t)f->taken[i];
        cc->actions += (uint64_t)f->actions[i];
        for (int k = 0; k < D6_EV_KINDS - D6_EV_ATTACK; k++)
            cc->by_kind[k] += f->by_kind[i][k];
    }
}

static const char *rs_action_name(int kind) {
    return kind >= 0 && kind < D6_EV_KINDS - D6_EV_ATTACK
               ? d6_kind_title(kind + D6_EV_ATTACK)
               : NULL;
}
static const char *rs_harm_name(int k) {
    return k == 0 ? "Wound levels or Body Points" : NULL;
}
static const char *rs_spent_name(int k) {
    (void)k;
    return NULL;
}
static const char *rs_state_meaning(int k) {
    static const char *const m[FRAY_SIM_STATES] = {
        "still in the fight at the end",
        "out of the fight alive: Incapacitated and down (a failed stamina or "
        "mettle roll, core), or knocked out (003:87)",
        "Mortally Wounded (core): out of the fight",
        "Dead: 16 or more over the resistance, raised past Mortally Wounded, or "
        "a failed roll to live (mortal-rolls) (core)",
        "none in D6: nobody leaves the fight"};
    return k >= 0 && k < FRAY_SIM_STATES ? m[k] : NULL;
}

/* In an encounter where a combatant plays `tactics: wrestle`, the one
 * forced to submit by an arm pin (holds.c, 003:22-24) leaves the fight
 * alive: "fled" counts it. */
static const char *rs_state_meaning_of(const void *data, int k) {
    const d6_setup *s = data;
    bool wrestle = false;
    for (int i = 0; s && i < s->n; i++)
        wrestle |= s->c[i].tactics == D6_TAC_WRESTLE;
    if (wrestle && k == FRAY_SIM_FLED)
        return "yielded: forced to submit by an arm pin (003:22-24), out of the fight";
    if (s && s->o.health == D6_HEALTH_BODY_POINTS) { /* ruling 70 */
        bool dead = !s->o.zero_bp_unconscious; /* zero-body-points: dead */
        if (k == FRAY_SIM_UNCONSCIOUS)
            return dead ? "out of the fight alive: knocked out (003:87) with Body Points "
                          "left"
                        : "out of the fight alive: no Body Points left (core), or knocked "
                          "out (003:87)";
        if (k == FRAY_SIM_DYING)
            return "none under Body Points: there is no Mortally Wounded level";
        if (k == FRAY_SIM_DEAD)
            return dead ? "no Body Points left (core)"
                        : "none under Body Points: 0 Body Points is out, not dead";
    }
    return rs_state_meaning(k);
}

/* The simulation fight in the state of `from`, every die still to come
 * from the trial's stream: D6 hides nothing but the dice (forecasts,
 * issue 19). */
static fray_status rs_sim_from(void *rfight, const void *from, uint64_t seed,
                               uint64_t trial) {
    d6_fight *f = rfight;
    const d6_fight *src = from;
    f->st = src->st;
    fray_rng_for_trial(&f->st.rng, seed, trial);
    f->seed = seed;
    f->trial = trial;
    f->has_event = false;
    f->why[0] = '\0';
    f->n_events = src->n_events > 0 ? src->n_events : 1;
    counts_reset(f);
    return FRAY_OK;
}

/* The exact duel (duel.c, issue 18). */
static fray_status rs_duel_odds(const void *setup, int a, int b, long max_states,
                                fray_duel_odds *out, fray_diag *diag) {
    return d6_duel_odds(setup, a, b, max_states, out, diag);
}
static fray_status rs_duel_estimate(const void *setup, int a, int b, double *out_states,
                                    fray_diag *diag) {
    return d6_duel_estimate(setup, a, b, out_states, diag);
}

/* At the table: the exact chances of an attack (chances.c, issue 19). */
static fray_status rs_chances(const void *rfight, int who, const char *command,
                              struct fray_chances *out, int max, int *n,
                              fray_diag *diag) {
    const d6_fight *f = rfight;
    return d6_chances(f->s, &f->st, who, command, out, max, n, diag);
}

const fray__ruleset fray__d6_ruleset = {
    .name = "d6",
    .title = "D6",
    .time_unit = "round",
    .randomness = "dice",
    .load = rs_load,
    .check = d6_check,
    .setup_free = rs_setup_free,
    .setup_copy = rs_setup_copy,
    .vary = rs_vary,
    .setup_name = rs_setup_name,
    .setup_seed = rs_setup_seed,
    .sides = rs_sides,
    .side_name = rs_side_name,
    .combatants = rs_combatants,
    .combatant_name = rs_combatant_name,
    .combatant_id = rs_combatant_id,
    .combatant_side = rs_combatant_side,
    .event_max = D6_PACKED_MAX,
    .fight_new = rs_fight_new,
    .fight_free = rs_fight_free,
    .begin = rs_begin,
    .over = rs_over,
    .winner = rs_winner,
    .now = rs_now,
    .turn = rs_turn,
    .step = rs_step,
    .command = rs_command,
    .event_pack = rs_event_pack,
    .replay = rs_replay,
    .run_quiet = rs_run,
    .same = rs_same,
    .failure = rs_failure,
    .event_action = rs_event_action,
    .event_narrate = rs_event_narrate,
    .event_json = rs_event_json,
    .event_read = rs_event_read,
    .draw_time = rs_draw_time,
    .draw_map = rs_draw_map,
    .summary = rs_summary,
    .sim_fight_new = rs_sim_fight_new,
    .reset_trial = rs_reset_trial,
    .run = rs_run,
    .count = rs_count,
    .action_name = rs_action_name,
    .harm_name = rs_harm_name,
    .spent_name = rs_spent_name,
    .state_meaning = rs_state_meaning,
    .state_meaning_of = rs_state_meaning_of,
    .view = rs_view,
    .event_names = rs_event_names,
    .sim_from = rs_sim_from,
    .vary_scope = rs_vary_scope,
    .load_files = rs_load_files,
    .chances = rs_chances,
    .duel_odds = rs_duel_odds,
    .duel_estimate = rs_duel_estimate,
    .duel_setup = d6_duel_setup,
    .duel_assumed =
        "where the encounter puts them, no movement; each turn what the tactics "
        "do: an attack, or a parry (or dodge) and an attack at -1D each once "
        "Wounded or under half its Body Points",
};

/* For tests: the state of the ruleset's part of a fight (fray__fight_rf). */
d6_state *d6_fight_state(void *rfight) { return &((d6_fight *)rfight)->st; }
