/*
 * winter.c - Silent Winter's table of functions for the shared layer
 * (src/encounter/ruleset.h): a fight's state, its scratch event, the
 * table's commands applied on a copy and kept on success, packed events,
 * replay, the simulation's counts.
 */
#include "winter_int.h"
#include "winter_quick.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jread.h"
#include "ruleset.h"

_Static_assert((int)SW_EV_KINDS - (int)SW_EV_ENGAGE <= (int)FRAY_SIM_ACTION_KINDS,
               "the counts hold every kind of Silent Winter action");
_Static_assert((int)FRAY_SIM_MAX_COMBATANTS >= (int)SW_MAX_C, "the counts hold every combatant");
_Static_assert((int)FRAY_SIM_MAX_SIDES >= (int)SW_MAX_SIDES, "the counts hold every side");
_Static_assert((int)SW_MAX_C <= (int)FRAY__TRACK_MAX, "the track holds every combatant");

typedef struct sw_fight {
    const sw_setup *s;
    fray_allocator alloc;
    bool has_alloc;
    bool facts;
    int until;
    const atomic_bool *cancel;
    uint64_t seed, trial;
    int32_t n_events;
    sw_state st, backup;
    sw_event ev, replay_ev;
    bool has_event;
    char why[320];
    int32_t dealt[SW_MAX_C], taken[SW_MAX_C], actions[SW_MAX_C];
    uint16_t by_kind[SW_MAX_C][SW_EV_KINDS];
    /* The simulation's shortcuts (quick.c): whether the setup qualifies
     * for the melee duel's schedule (run_quick) and for the loop of
     * melee fights (sw_quick_run), made once per simulation fight; the
     * tests' switches to the long way and to the loop for a duel too. */
    bool quick, quick_off, quick_loop;
    sw_quick qp;
} sw_fight;

static const fray_allocator *alloc_of(const sw_fight *f) {
    return f->has_alloc ? &f->alloc : NULL;
}

enum { SW_PACKED_HEAD = offsetof(sw_event, dice) };
#define SW_PACKED_MAX                                                          \
    (SW_PACKED_HEAD + SW_EV_DICE * sizeof(sw_die) + SW_EV_FACTS * sizeof(sw_fact))

static size_t pack(const sw_event *ev, uint8_t *out) {
    uint8_t *p = out;
    memcpy(p, ev, SW_PACKED_HEAD);
    p += SW_PACKED_HEAD;
    memcpy(p, ev->dice, (size_t)ev->n_dice * sizeof(sw_die));
    p += (size_t)ev->n_dice * sizeof(sw_die);
    memcpy(p, ev->facts, (size_t)ev->n_facts * sizeof(sw_fact));
    p += (size_t)ev->n_facts * sizeof(sw_fact);
    return (size_t)(p - out);
}

static fray_status unpack(const uint8_t *in, size_t len, sw_event *ev) {
    if (len < SW_PACKED_HEAD)
        return FRAY_ERR_INVALID;
    memcpy(ev, in, SW_PACKED_HEAD);
    if (ev->n_dice > SW_EV_DICE || ev->n_facts > SW_EV_FACTS ||
        ev->kind >= SW_EV_KINDS ||
        len != SW_PACKED_HEAD + (size_t)ev->n_dice * sizeof(sw_die) +
                   (size_t)ev->n_facts * sizeof(sw_fact))
        return FRAY_ERR_INVALID;
    memcpy(ev->dice, in + SW_PACKED_HEAD, (size_t)ev->n_dice * sizeof(sw_die));
    memcpy(ev->facts, in + SW_PACKED_HEAD + (size_t)ev->n_dice * sizeof(sw_die),
           (size_t)ev->n_facts * sizeof(sw_fact));
    return FRAY_OK;
}

static void event_start(sw_fight *f, const sw_event *cmd) {
    sw_event *ev = &f->ev;
    if (cmd != ev)
        memcpy(ev, cmd, SW_PACKED_HEAD);
    ev->number = f->n_events;
    ev->seg = f->st.seg;
    ev->given = 0;
    ev->n_dice = ev->n_facts = 0;
}

static void run_init(sw_fight *f, sw_run *r) {
    memset(r, 0, sizeof *r);
    r->s = f->s;
    r->st = &f->st;
    r->ev = &f->ev;
    r->facts = f->facts;
    r->failed = FRAY_OK;
}

static int limit_of(const sw_fight *f) {
    return f->until > 0 ? f->until : f->s->segment_limit;
}

static void counts_reset(sw_fight *f) {
    memset(f->dealt, 0, sizeof f->dealt);
    memset(f->taken, 0, sizeof f->taken);
    memset(f->actions, 0, sizeof f->actions);
    memset(f->by_kind, 0, sizeof f->by_kind);
}

static void count_event(sw_fight *f, const int16_t *before) {
    const sw_event *ev = &f->ev;
    int a = ev->actor;
    if (a >= 0 && ev->kind >= SW_EV_ENGAGE && ev->kind != SW_EV_WAIT) {
        f->actions[a]++;
        if (f->by_kind[a][ev->kind - SW_EV_ENGAGE] < UINT16_MAX)
            f->by_kind[a][ev->kind - SW_EV_ENGAGE]++;
    }
    for (int i = 0; i < f->st.n; i++) {
        int lost = before[i] - f->st.c[i].health;
        if (lost <= 0)
            continue;
        f->taken[i] += lost;
        if (ev->kind == SW_EV_ATTACK && a >= 0)
            f->dealt[a] += lost;
    }
}

/* ---- Setup members -------------------------------------------------------- */

static fray_status rs_load(const char *path, const fray_allocator *alloc,
                           void **out, fray_diag *diag) {
    sw_setup *s = NULL;
    fray_status rc = sw_load(path, alloc, &s, diag);
    *out = rc == FRAY_OK ? s : NULL;
    return rc;
}
static void rs_setup_free(void *setup) { sw_setup_free(setup); }
static fray_status rs_setup_copy(const void *setup, const fray_allocator *alloc,
                                 void **out) {
    sw_setup *s = NULL;
    fray_status rc = sw_setup_copy(setup, alloc, &s);
    *out = rc == FRAY_OK ? s : NULL;
    return rc;
}
static fray_status rs_vary(void *setup, const char *key, const char *value,
                           fray_diag *diag) {
    return sw_vary(setup, key, value, diag);
}
static fray_status rs_vary_scope(const void *setup, const char *key, char *buf,
                                 size_t size, fray_diag *diag) {
    return sw_vary_scope(setup, key, buf, size, diag);
}
static const char *rs_setup_name(const void *setup) {
    return ((const sw_setup *)setup)->name;
}
static bool rs_setup_seed(const void *setup, uint64_t *out) {
    const sw_setup *s = setup;
    if (s->has_seed && out)
        *out = s->seed;
    return s->has_seed;
}
static int rs_sides(const void *setup) { return ((const sw_setup *)setup)->n_sides; }
static const char *rs_side_name(const void *setup, int side) {
    const sw_setup *s = setup;
    return side >= 0 && side < s->n_sides ? s->side_name[side] : NULL;
}
static int rs_combatants(const void *setup) { return ((const sw_setup *)setup)->n; }
static const char *rs_combatant_name(const void *setup, int i) {
    const sw_setup *s = setup;
    return i >= 0 && i < s->n ? s->c[i].name : NULL;
}
static const char *rs_combatant_id(const void *setup, int i) {
    const sw_setup *s = setup;
    return i >= 0 && i < s->n ? s->c[i].id : NULL;
}
static int rs_combatant_side(const void *setup, int i) {
    const sw_setup *s = setup;
    return i >= 0 && i < s->n ? s->c[i].side : -1;
}

/* ---- Fights ---------------------------------------------------------------- */

static fray_status fight_make(const void *setup, bool facts, int until,
                              const atomic_bool *cancel,
                              const fray_allocator *alloc, void **out) {
    *out = NULL;
    if (!setup)
        return FRAY_ERR_INVALID;
    sw_fight *f = fray__alloc(alloc, sizeof *f);
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
    sw_fight *f = rfight;
    if (f)
        fray__free(alloc_of(f), f, sizeof *f);
}

static fray_status begin_with(sw_fight *f, uint64_t seed, uint64_t trial,
                              const int *dice, size_t n_dice) {
    f->has_event = false;
    f->seed = seed;
    f->trial = trial;
    f->n_events = 0;
    sw_state_init(f->s, &f->st, seed, trial);
    memset(&f->ev, 0, SW_PACKED_HEAD);
    event_start(f, &f->ev);
    sw_run r;
    run_init(f, &r);
    r.given = dice;
    r.n_given = dice ? n_dice : 0;
    fray_status rc = sw_begin(&r);
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
    sw_fight *f = rfight;
    if (given && given->n_cards > 0)
        return FRAY_ERR_INVALID; /* Silent Winter rolls dice */
    fray_status rc = begin_with(f, seed, trial, given ? given->dice : NULL,
                                given ? given->n_dice : 0);
    if (rc != FRAY_OK && given && given->dice && given->diag)
        fray__diag_set(given->diag, rc, 0,
                       "the opening takes one d6 (1 to 6) for each combatant "
                       "but %s (%d), in the encounter's order",
                       f->s->c[f->s->initiator].name, f->s->n - 1);
    return rc;
}

static bool rs_over(const void *rfight) {
    const sw_fight *f = rfight;
    return f->st.over || f->st.stopped;
}
static int rs_winner(const void *rfight) {
    const sw_fight *f = rfight;
    return f->st.over ? f->st.winner : -1;
}
static int rs_now(const void *rfight) { return ((const sw_fight *)rfight)->st.seg; }

static const char *rs_turn(const void *rfight, char *when, size_t size) {
    const sw_fight *f = rfight;
    if (when && size)
        when[0] = '\0';
    if (rs_over(f) || !f->st.started)
        return NULL;
    int a = sw_actor(f->s, &f->st);
    if (a < 0)
        return NULL;
    if (when && size)
        snprintf(when, size, "segment %d", (int)f->st.seg);
    return f->s->c[a].name;
}

static fray_status check_cancel(const sw_fight *f) {
    return f->cancel && atomic_load_explicit(f->cancel, memory_order_relaxed)
               ? FRAY_ERR_CANCELED
               : FRAY_OK;
}

static fray_status step(sw_fight *f) {
    f->has_event = false;
    f->why[0] = '\0';
    if (!f->st.started || rs_over(f))
        return FRAY_ERR_INVALID;
    sw_event cmd;
    sw_choose(f->s, &f->st, &cmd);
    int lim = limit_of(f);
    if (cmd.kind == SW_EV_NEXT && lim > 0 && f->st.seg >= lim) {
        f->st.stopped = true; /* the segment limit: stop before the next */
        return FRAY_OK;
    }
    if (cmd.kind == SW_EV_NEXT && lim > 0 && f->st.seg + 1 + cmd.arg > lim)
        cmd.arg = (uint8_t)(lim - f->st.seg - 1); /* no further than the limit */
    int16_t hp[SW_MAX_C];
    for (int i = 0; i < f->st.n; i++)
        hp[i] = f->st.c[i].health;
    bool keep = f->facts;
    if (keep)
        f->backup = f->st;
    event_start(f, &cmd);
    sw_run r;
    run_init(f, &r);
    r.trusted = true;
    fray_status rc = sw_apply(&r);
    if (rc != FRAY_OK) {
        char why[200] = "";
        if (keep)
            f->st = f->backup;
        if (sw_check(f->s, &f->st, &cmd, why, sizeof why) != FRAY_OK)
            snprintf(f->why, sizeof f->why,
                     "%.40s's tactics chose %.24s, which the rules refuse: %.150s",
                     cmd.actor >= 0 ? f->s->c[cmd.actor].name : "the GM",
                     sw_kind_title(cmd.kind), why);
        return rc;
    }
    f->n_events++;
    f->has_event = true;
    count_event(f, hp);
    return FRAY_OK;
}

static fray_status rs_step(void *rfight) { return step(rfight); }

static size_t rs_failure(const void *rfight, char *buf, size_t size) {
    const sw_fight *f = rfight;
    if (!f->why[0])
        return 0;
    int n = snprintf(buf, size, "%s", f->why);
    return n < 0 ? 0 : (size_t)n;
}

static fray_status rs_command(void *rfight, const char *text,
                              const fray_given *given, fray_diag *diag) {
    sw_fight *f = rfight;
    f->has_event = false;
    if (!f->st.started)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "the fight has not begun");
    if (rs_over(f))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "the fight is over");
    if (given && given->n_cards > 0)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "Silent Winter rolls dice: cards cannot be given");
    sw_event cmd;
    fray_status rc = sw_parse(f->s, &f->st, text, &cmd, diag);
    if (rc != FRAY_OK)
        return rc;
    int lim = limit_of(f);
    if (cmd.kind == SW_EV_NEXT && lim > 0 && f->st.seg >= lim) {
        f->st.stopped = true; /* the segment limit: the fight stops here */
        return FRAY_OK;
    }
    char why[200] = "";
    rc = sw_check(f->s, &f->st, &cmd, why, sizeof why);
    if (rc != FRAY_OK)
        return fray__diag_set(diag, rc, 0, "%s", why[0] ? why : "not allowed now");
    f->backup = f->st;
    const int *dice = given ? given->dice : NULL;
    size_t n_dice = dice ? given->n_dice : 0;
    int16_t hp[SW_MAX_C];
    for (int i = 0; i < f->st.n; i++)
        hp[i] = f->st.c[i].health;
    event_start(f, &cmd);
    sw_run r;
    run_init(f, &r);
    r.given = dice;
    r.n_given = n_dice;
    rc = sw_apply(&r);
    const char *title = sw_kind_title(cmd.kind);
    if (rc == FRAY_OK && dice && r.used_given < n_dice) {
        f->st = f->backup;
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%zu dice were given but the %s rolled %zu",
                              n_dice, title, r.used_given);
    }
    if (rc != FRAY_OK) {
        f->st = f->backup;
        if (dice && r.bad_sides > 0)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "die %zu given, %d, is not a roll of the d%d "
                                  "the %s asks for there (1 to %d)",
                                  r.used_given + 1, dice[r.used_given],
                                  r.bad_sides, title, r.bad_sides);
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
    const sw_fight *f = rfight;
    return f->has_event ? pack(&f->ev, out) : 0;
}

static fray_status rs_replay(void *rfight, const uint8_t *evb, size_t len,
                             bool is_begin, uint64_t seed, uint64_t trial,
                             fray_diag *diag) {
    sw_fight *f = rfight;
    f->has_event = false;
    sw_event *rec = &f->replay_ev;
    if (unpack(evb, len, rec) != FRAY_OK)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "not a Silent Winter event");
    if (is_begin != (rec->kind == SW_EV_BEGIN))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              is_begin ? "a fight begins with the opening, not with %s"
                                       : "the %s comes only at the start",
                              sw_kind_title(rec->kind));
    if (!is_begin && (!f->st.started || rs_over(f)))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              f->st.started ? "the fight is over" : "the fight has not begun");
    f->backup = f->st;
    int32_t n_events = f->n_events;
    if (is_begin) {
        f->seed = seed;
        f->trial = trial;
        f->n_events = 0;
        sw_state_init(f->s, &f->st, seed, trial);
    }
    int16_t hp[SW_MAX_C];
    for (int i = 0; i < f->st.n; i++)
        hp[i] = f->st.c[i].health;
    event_start(f, rec);
    sw_run r;
    run_init(f, &r);
    r.replay = rec;
    fray_status rc = is_begin ? sw_begin(&r) : sw_apply(&r);
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
                              sw_kind_title(rec->kind), why);
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

static bool same_c(const sw_cstate *a, const sw_cstate *b) {
    return a->health == b->health && a->pain == b->pain && a->ready == b->ready &&
           a->decl_seg == b->decl_seg && a->busy_until == b->busy_until &&
           a->pend_at == b->pend_at && a->pend_decl == b->pend_decl &&
           a->chased == b->chased && a->engages == b->engages &&
           a->pend_kind == b->pend_kind && a->pend_target == b->pend_target &&
           a->cover == b->cover && a->flags == b->flags &&
           a->init_roll == b->init_roll && a->eng_more == b->eng_more &&
           a->saddle_at == b->saddle_at;
}

static bool rs_same(const void *pa, const void *pb) {
    const sw_state *a = &((const sw_fight *)pa)->st, *b = &((const sw_fight *)pb)->st;
    /* (stopped, the segment limit reached, is the run's, not the journal's) */
    if (a->seg != b->seg || a->started != b->started || a->over != b->over ||
        a->winner != b->winner || a->n != b->n ||
        a->rng.state != b->rng.state || a->rng.inc != b->rng.inc ||
        a->track.n != b->track.n)
        return false;
    for (int k = 0; k < a->track.n; k++)
        if (a->track.e[k].who != b->track.e[k].who ||
            a->track.e[k].key != b->track.e[k].key ||
            a->track.e[k].tie != b->track.e[k].tie)
            return false;
    for (int i = 0; i < a->n; i++)
        if (!same_c(&a->c[i], &b->c[i]))
            return false;
    return true;
}

/* ---- Telling ------------------------------------------------------------------- */

static const char *rs_event_action(const void *setup, const uint8_t *ev, size_t len) {
    (void)setup;
    if (len < SW_PACKED_HEAD)
        return NULL;
    return sw_kind_word(ev[offsetof(sw_event, kind)]);
}

static size_t rs_event_narrate(const void *setup, const uint8_t *ev, size_t len,
                               char *buf, size_t size) {
    sw_event *e = malloc(sizeof *e);
    size_t n = 0;
    if (e && unpack(ev, len, e) == FRAY_OK)
        n = sw_narrate(setup, e, buf, size);
    else if (buf && size)
        buf[0] = '\0';
    free(e);
    return n;
}

static size_t rs_event_narrate_hidden(const void *setup, const uint8_t *ev,
                                      size_t len, const bool *hide, char *buf,
                                      size_t size) {
    sw_event *e = malloc(sizeof *e);
    size_t n = 0;
    if (e && unpack(ev, len, e) == FRAY_OK)
        n = sw_narrate_hidden(setup, e, hide, buf, size);
    else if (buf && size)
        buf[0] = '\0';
    free(e);
    return n;
}

static size_t rs_event_json(const void *setup, const uint8_t *ev, size_t len,
                            char *buf, size_t size) {
    sw_event *e = malloc(sizeof *e);
    size_t n = 0;
    if (e && unpack(ev, len, e) == FRAY_OK)
        n = sw_event_json(setup, e, buf, size);
    else if (buf && size)
        buf[0] = '\0';
    free(e);
    return n;
}

static fray_status rs_event_read(const void *setup, const struct fray__jline *l,
                                 const void *json_object, uint8_t *out,
                                 size_t *out_len, fray_diag *diag) {
    sw_event *e = malloc(sizeof *e);
    if (!e)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    char field[96] = "", why[200] = "";
    fray_status rc = sw_event_from_json(setup, json_object, e, field,
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
    const sw_fight *f = rfight;
    return sw_draw_time(f->s, &f->st, buf, size);
}
static size_t rs_draw_map(const void *rfight, char *buf, size_t size) {
    const sw_fight *f = rfight;
    return sw_draw_graph(f->s, &f->st, buf, size);
}
static size_t rs_summary(const void *rfight, char *buf, size_t size) {
    const sw_fight *f = rfight;
    return sw_summary(f->s, &f->st, buf, size);
}

/* ---- Simulation ------------------------------------------------------------------ */

static bool quick_plan(const sw_fight *f);

static fray_status rs_sim_fight_new(const void *setup, uint64_t seed, int until,
                                    const atomic_bool *cancel,
                                    const fray_allocator *alloc, void **out) {
    fray_status rc = fight_make(setup, false, until, cancel, alloc, out);
    if (rc == FRAY_OK) {
        sw_fight *f = *out;
        f->seed = seed;
        sw_quick_prepare(setup, &f->qp);
        f->quick = quick_plan(f);
    }
    return rc;
}

static fray_status rs_reset_trial(void *rfight, uint64_t seed, uint64_t trial) {
    return begin_with(rfight, seed, trial, NULL, 0);
}

/* ---- The simulation's shortcut: a melee duel ------------------------------
 *
 * Two melee combatants of quick.c's class: what the tactics do is fixed
 * by the opening d6 (odds.c says how: Engage, Reciprocal Engage, then an
 * attack every 1 + delay segments), so the fight is the attacks in order
 * with the same dice from the same stream as the long way, and the same
 * counts (tests/unit/test_winter_layer.c holds it to the long way). The
 * attack is quick.c's, which the loop of melee fights shares. */
static bool quick_plan(const sw_fight *f) {
    const sw_setup *s = f->s;
    if (!f->qp.ok || s->n != 2 || s->c[0].side == s->c[1].side)
        return false;
    /* (a stat block with no Pain would Avoid the first Engage: the loop's) */
    for (int i = 0; i < 2; i++)
        if (s->c[i].b.pain <= 0 || s->c[i].b.capacity < s->c[1 - i].b.size)
            return false;
    return true;
}

static fray_status run_quick(sw_fight *f) {
    const sw_setup *s = f->s;
    sw_state *st = &f->st;
    int I = s->initiator, O = 1 - I;
    int v = st->c[O].init_roll, d = s->opt.engage_delay;
    int lim = limit_of(f);
    if (lim <= 0)
        lim = INT32_MAX / 2;
    bool recip = s->c[O].reciprocal;
    const sw_tally tally = {f->dealt, f->taken, f->actions, f->by_kind};
    int next[2], per[2];
    for (int i = 0; i < 2; i++) {
        const sw_weapon *w = &s->w[s->c[i].b.weapon];
        per[i] = 1 + (w->delay ? w->delay : s->opt.attack_delay);
    }
    next[I] = 2 + d;
    bool o_engages = !recip || 1 + v <= 1 + d;
    next[O] = o_engages ? 2 + v + d : 1 + v;
    int undef_o = recip ? 0 : 1 + v + d; /* O Undefended against I through it */
    f->actions[I]++;
    f->by_kind[I][SW_EV_ENGAGE - SW_EV_ENGAGE]++;
    if (o_engages && 1 + v <= lim) {
        f->actions[O]++;
        f->by_kind[O][SW_EV_ENGAGE - SW_EV_ENGAGE]++;
    }
    int64_t ti[2];
    for (int i = 0; i < 2; i++)
        ti[i] = s->opt.order_file ? 63 - i
                                  : (int64_t)(s->c[i].b.agility + 64) * 4096 +
                                        (int64_t)(7 - (i == I ? 0 : v)) * 64 + (63 - i);
    int lead = ti[0] > ti[1] ? 0 : 1;
    for (;;) {
        int t = next[0] < next[1] ? next[0] : next[1];
        if (t > lim) {
            st->seg = lim;
            st->stopped = true;
            return FRAY_OK;
        }
        for (int k = 0; k < 2; k++) {
            int a = k == 0 ? lead : 1 - lead;
            if (next[a] != t)
                continue;
            next[a] += per[a];
            bool undef = a == I && t <= undef_o;
            if (sw_quick_attack(&f->qp, st, a, 1 - a, undef, &tally)) {
                st->seg = t;
                st->over = true;
                st->winner = s->c[a].side;
                return FRAY_OK;
            }
        }
    }
}

void sw_quick_set_off(void *rfight, bool off) { ((sw_fight *)rfight)->quick_off = off; }
bool sw_quick_eligible(const void *rfight) { return ((const sw_fight *)rfight)->quick; }
void sw_quick_loop_for_duel(void *rfight, bool on) { ((sw_fight *)rfight)->quick_loop = on; }
bool sw_quick_loop_eligible(const void *rfight) {
    const sw_fight *f = rfight;
    return f->qp.ok && sw_quick_state_ok(&f->qp, &f->st);
}

static fray_status rs_run(void *rfight) {
    sw_fight *f = rfight;
    if (f->quick && !f->quick_off && !f->quick_loop && f->n_events == 1 && f->st.started &&
        !f->st.over && f->st.seg == 1)
        return run_quick(f);
    if (f->qp.ok && !f->quick_off && sw_quick_state_ok(&f->qp, &f->st)) {
        const sw_tally tally = {f->dealt, f->taken, f->actions, f->by_kind};
        return sw_quick_run(&f->qp, &f->st, limit_of(f), f->cancel, &tally);
    }
    for (uint32_t n = 0; !rs_over(f); n++) {
        if ((n & 1023u) == 0) {
            fray_status rc = check_cancel(f);
            if (rc != FRAY_OK)
                return rc;
        }
        fray_status rc = step(f);
        if (rc != FRAY_OK)
            return rc;
    }
    return FRAY_OK;
}

static void rs_count(const void *rfight, fray_sim_counts *c) {
    const sw_fight *f = rfight;
    const sw_state *st = &f->st;
    c->trials++;
    if (st->over && st->winner >= 0)
        c->wins[st->winner]++;
    else if (st->over && st->winner == -2)
        c->all_out++;
    else
        c->unfinished++;
    uint64_t len = st->seg > 0 ? (uint64_t)st->seg : 0;
    c->length_sum += len;
    c->length_sq_sum += len * len;
    c->length[len < FRAY_SIM_LENGTH_BINS - 1 ? len : FRAY_SIM_LENGTH_BINS - 1]++;
    for (int i = 0; i < st->n; i++) {
        const sw_cstate *cs = &st->c[i];
        fray_sim_combatant_counts *cc = &c->c[i];
        if (cs->flags & SW_F_DEAD)
            cc->dead++;
        else if (cs->flags & SW_F_UNCONSCIOUS)
            cc->unconscious++;
        else if (sw_out(cs))
            cc->dying++;
        else
            cc->standing++;
        cc->dealt[0] += (uint64_t)f->dealt[i];
        cc->taken[0] += (uint64_t)f->taken[i];
        cc->actions += (uint64_t)f->actions[i];
        for (int k = 0; k < SW_EV_KINDS - SW_EV_ENGAGE; k++)
            cc->by_kind[k] += f->by_kind[i][k];
    }
}

static const char *rs_action_name(int kind) {
    return kind >= 0 && kind < SW_EV_KINDS - SW_EV_ENGAGE
               ? sw_kind_title(kind + SW_EV_ENGAGE)
               : NULL;
}
static const char *rs_harm_name(int k) { return k == 0 ? "Health" : NULL; }
static const char *rs_spent_name(int k) {
    (void)k;
    return NULL;
}
static const char *rs_state_meaning(int k) {
    static const char *const m[FRAY_SIM_STATES] = {
        "still able to take combat actions at the end",
        "Wounded while out of Pain: Unconscious (002:39, 105)",
        "out of the fight but conscious: Blown (negative Pain equal to its Pain, 002:37) or Wounded",
        "Health 0 or less (002:33)",
        "none in Silent Winter: nobody leaves the fight"};
    return k >= 0 && k < FRAY_SIM_STATES ? m[k] : NULL;
}

static fray_status rs_duel_odds(const void *setup, int a, int b, long max_states,
                                fray_duel_odds *out, fray_diag *diag) {
    return sw_duel_odds(setup, a, b, max_states, out, diag);
}
static fray_status rs_duel_estimate(const void *setup, int a, int b,
                                    double *out_states, fray_diag *diag) {
    return sw_duel_estimate(setup, a, b, out_states, diag);
}

static fray_status rs_view(const void *rfight, struct fray_fight_view *v) {
    const sw_fight *f = rfight;
    int turn = rs_over(f) || !f->st.started ? -1 : sw_actor(f->s, &f->st);
    return sw_view(f->s, &f->st, turn, v);
}

/* ---- At the table: chances and forecasts (issue 19) ------------------------ */

static fray_status rs_chances(const void *rfight, int who, const char *command,
                              struct fray_chances *out, int max, int *n,
                              fray_diag *diag) {
    const sw_fight *f = rfight;
    return sw_chances(f->s, &f->st, who, command, out, max, n, diag);
}

/* The simulation fight in the state of `from`, every die still to come
 * from the trial's stream: Silent Winter hides nothing but the dice. */
static fray_status rs_sim_from(void *rfight, const void *from, uint64_t seed,
                               uint64_t trial) {
    sw_fight *f = rfight;
    const sw_fight *src = from;
    f->st = src->st;
    fray_rng_for_trial(&f->st.rng, seed, trial);
    f->seed = seed;
    f->trial = trial;
    f->has_event = false;
    f->why[0] = '\0';
    /* The duel's shortcut starts from the opening: taken only when
     * nothing has happened since (n_events 1, segment 1). */
    f->n_events = src->n_events > 0 ? src->n_events : 1;
    counts_reset(f);
    return FRAY_OK;
}

const fray__ruleset fray__winter_ruleset = {
    .name = "silent-winter",
    .title = "Silent Winter",
    .time_unit = "segment",
    .randomness = "dice",
    .load = rs_load,
    .check = sw_check_file,
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
    .event_max = SW_PACKED_MAX,
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
    .duel_odds = rs_duel_odds,
    .duel_estimate = rs_duel_estimate,
    .duel_assumed =
        "the two Engage as the tactics do (the initiator on segment 1, the "
        "other on its first segment or by the Reciprocal Engage), then "
        "attack every 1 + delay segments; the fight ends when one is dead "
        "or Blown",
    .view = rs_view,
    .state_meaning = rs_state_meaning,
    .vary_scope = rs_vary_scope,
    .chances = rs_chances,
    .sim_from = rs_sim_from,
    .event_narrate_hidden = rs_event_narrate_hidden, /* issue 14 */
};

/* For tests: the state and setup of the ruleset's part of a fight
 * (fray__fight_rf). */
sw_state *sw_fight_state(void *rfight) { return &((sw_fight *)rfight)->st; }
const sw_setup *sw_fight_setup(const void *rfight) {
    return ((const sw_fight *)rfight)->s;
}
