/*
 * fight.c - 99 Towers' fights for the shared encounter layer
 * (src/encounter/ruleset.h; docs/architecture.md "Rulesets"): events
 * applied, packed for the layer's journal and applied again, table
 * commands, journal lines read back; and the public face of 99 Towers
 * encounters (include/fray/encounter.h), thin wrappers over fray_fight
 * (src/encounter/fight.c keeps the journal, undo, redo and replay).
 */
#include "towers_int.h"
#include "words.h"

#include <assert.h>
#include <ctype.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jread.h"
#include "layer.h"

extern const fray__ruleset fray__towers_ruleset;
/* ---- The table's choices ----------------------------------------------------
 *
 * At the table the players decide on Hand of Fate cards, chips and
 * opportunity attacks. A command carries those decisions as words
 * (docs/file-formats.md "Commands"): "fate QH for 4D", "fate QH reflip",
 * "chip tony shift", "decline bandit-1". While the command is applied, the
 * hooks below hand each one to the first flip it fits; a word that fitted
 * no flip is an error and the command is undone.
 */
enum { FT_TABLE_MAX = 8 };

typedef struct ft_directive {
    uint8_t kind;       /* FT_CHOICE_* (OPPORTUNITY: a declined one) */
    int8_t who;         /* chips, decline: the combatant (-1: everyone) */
    int8_t colour;      /* chips: 0 white, 1 red, 2 blue, -1 the cheapest */
    fray_card held;     /* fate: the Hand of Fate card */
    fray_card replaced; /* swap: the flipped card it replaces */
    bool used;
    char word[24];      /* as written, for messages */
} ft_directive;

struct ft_table {
    int n;
    ft_directive d[FT_TABLE_MAX];
};

/* The cheapest chip that pays for the effect (rules-facts.md: a higher
 * chip may pay for a lower effect), -1 none. */
static int cheapest_chip(const ft_cstate *c, bool flip, int colour) {
    if (colour >= 0)
        return c->chips[colour] > 0 && (!flip || colour >= 1) ? colour : -1;
    for (int k = flip ? 1 : 0; k < 3; k++)
        if (c->chips[k] > 0)
            return k;
    return -1;
}

static ft_choice table_fate(void *ctx, const ft_run *r,
                            const ft_flip_view *v) {
    struct ft_table *t = ctx;
    ft_choice none = {FT_CHOICE_NONE, (int8_t)v->who, 0, 0};
    const fray_deck *deck = &r->st->decks[r->setup->c[v->who].deck];
    for (int i = 0; i < t->n; i++) {
        ft_directive *d = &t->d[i];
        if (d->used)
            continue;
        ft_choice c = {d->kind, (int8_t)v->who, 0, 0};
        if (d->kind == FT_CHOICE_FATE_SWAP || d->kind == FT_CHOICE_FATE_REFLIP) {
            if (fray_deck_place(deck, d->held) != FRAY_PLACE_HELD)
                continue;
            c.b = (int8_t)d->held;
            if (d->kind == FT_CHOICE_FATE_SWAP) {
                int at = -1;
                for (int k = 0; k < v->flip->n_cards && at < 0; k++)
                    if (v->flip->cards[k] == d->replaced)
                        at = k;
                if (at < 0)
                    continue;
                c.a = (int8_t)at;
            }
        } else if (d->kind == FT_CHOICE_CHIP_SHIFT ||
                   d->kind == FT_CHOICE_CHIP_FLIP) {
            if (d->who != v->who)
                continue;
            int colour = cheapest_chip(&r->st->c[v->who],
                                       d->kind == FT_CHOICE_CHIP_FLIP,
                                       d->colour);
            if (colour < 0)
                continue;
            c.b = (int8_t)colour;
        } else {
            continue;
        }
        d->used = true;
        return c;
    }
    return none;
}

static bool table_opportunity(void *ctx, const ft_run *r, int reactor,
                              int provoker) {
    struct ft_table *t = ctx;
    (void)r;
    (void)provoker;
    for (int i = 0; i < t->n; i++) {
        ft_directive *d = &t->d[i];
        if (d->kind == FT_CHOICE_OPPORTUNITY &&
            (d->who < 0 || d->who == reactor)) {
            d->used = true;
            return false;
        }
    }
    return true;
}

/* ---- Applying events ------------------------------------------------------ */

/* ---- Packed events ---------------------------------------------------------
 *
 * An event is applied in the fight's scratch ft_event, which is sized for
 * the largest event there can be (the begin event of 32 combatants: a few
 * thousand cards, hundreds of facts; about 27 KB). Most events use a few
 * of its cards and facts, so the layer's journal keeps each one packed:
 * its header (up to ft_event.cards), then as many cards, card decks,
 * choices and facts as it has. A Forced Delay costs about 110 bytes, a
 * clock step about 170 (issue 11: an idle fight kept 3.3 KB per event,
 * 1.9 GB over a long phase limit); a quiet stretch of phases costs
 * nothing (one clock step passes them all). docs/architecture.md "The
 * journal and its memory" has the bound.
 */

enum { FT_PACKED_HEAD = offsetof(ft_event, cards) };

static size_t packed_size(const ft_event *ev) {
    return FT_PACKED_HEAD + 2 * (size_t)ev->n_cards + 2 * sizeof(int16_t) +
           (size_t)ev->n_choices * sizeof(ft_choice) +
           (size_t)ev->n_facts * sizeof(ft_fact);
}

size_t ft_event_packed_max(void) {
    return FT_PACKED_HEAD + 2 * (size_t)FT_EVENT_CARDS + 2 * sizeof(int16_t) +
           FT_EVENT_CHOICES * sizeof(ft_choice) +
           FT_EVENT_FACTS * sizeof(ft_fact);
}

size_t ft_event_pack(const ft_event *ev, uint8_t *out) {
    uint8_t *p = out;
    memcpy(p, ev, FT_PACKED_HEAD);
    p += FT_PACKED_HEAD;
    memcpy(p, ev->cards, (size_t)ev->n_cards);
    p += ev->n_cards;
    memcpy(p, ev->card_deck, (size_t)ev->n_cards);
    p += ev->n_cards;
    memcpy(p, &ev->n_choices, sizeof ev->n_choices);
    p += sizeof ev->n_choices;
    memcpy(p, ev->choices, (size_t)ev->n_choices * sizeof(ft_choice));
    p += (size_t)ev->n_choices * sizeof(ft_choice);
    memcpy(p, &ev->n_facts, sizeof ev->n_facts);
    p += sizeof ev->n_facts;
    memcpy(p, ev->facts, (size_t)ev->n_facts * sizeof(ft_fact));
    p += (size_t)ev->n_facts * sizeof(ft_fact);
    size_t n = packed_size(ev);
    assert((size_t)(p - out) == n);
    return n;
}

void ft_event_unpack(const uint8_t *p, size_t len, ft_event *buf) {
    const uint8_t *start = p;
    memcpy(buf, p, FT_PACKED_HEAD);
    p += FT_PACKED_HEAD;
    memcpy(buf->cards, p, (size_t)buf->n_cards);
    p += buf->n_cards;
    memcpy(buf->card_deck, p, (size_t)buf->n_cards);
    p += buf->n_cards;
    memcpy(&buf->n_choices, p, sizeof buf->n_choices);
    p += sizeof buf->n_choices;
    memcpy(buf->choices, p, (size_t)buf->n_choices * sizeof(ft_choice));
    p += (size_t)buf->n_choices * sizeof(ft_choice);
    memcpy(&buf->n_facts, p, sizeof buf->n_facts);
    p += sizeof buf->n_facts;
    memcpy(buf->facts, p, (size_t)buf->n_facts * sizeof(ft_fact));
    assert(p + (size_t)buf->n_facts * sizeof(ft_fact) == start + len);
    (void)start; /* (only checked) */
    (void)len;
}

const ft_event *ft_fight_event(const fray_towers_fight *f, int i,
                               ft_event *buf) {
    size_t len = 0;
    const uint8_t *p =
        f->jf && f->opt.journal ? fray__fight_event(f->jf, i, &len) : NULL;
    if (!p)
        return NULL;
    ft_event_unpack(p, len, buf);
    return buf;
}

/* Where the next event is applied: the scratch event (the layer made room
 * in its journal before the step). */
static ft_event *next_slot(fray_towers_fight *f) { return &f->scratch; }

/* The event next_slot gave, applied: the layer packs it (event_pack). */
static void journal_commit(fray_towers_fight *f, const ft_event *ev) {
    (void)ev; /* (it is the scratch event) */
    f->made = true;
}

static void run_init(fray_towers_fight *f, ft_run *r, ft_event *ev,
                     fray_diag *diag, ft_hooks *table_hooks) {
    ft_run_clear(r);
    r->setup = &f->setup->s;
    r->st = &f->st;
    r->ev = ev;
    r->hooks = &ft_policy_hooks;
    if (f->table && table_hooks) {
        table_hooks->ctx = f->table;
        table_hooks->fate = table_fate;
        table_hooks->opportunity = table_opportunity;
        r->hooks = table_hooks;
    }
    r->facts = f->opt.facts || f->opt.journal;
    r->diag = diag;
    r->paths = &f->paths;
}

/* Re-applies a recorded event (undo's replay, redo, journal replay). */
static fray_status reapply(fray_towers_fight *f, ft_event *ev,
                           fray_diag *diag) {
    ft_run r;
    run_init(f, &r, ev, diag, NULL);
    r.replay = true;
    r.cards_given = ev->cards_given;
    ev->n_facts = 0;
    ev->facts_untold = 0;
    return ft_apply(&r);
}

/* The event's header before its command is applied: no cards, choices
 * or facts yet. */
static void event_start(ft_event *ev, const ft_command *cmd) {
    memset(ev, 0, offsetof(ft_event, cards));
    ev->n_choices = 0;
    ev->n_facts = 0;
    ev->cmd = *cmd;
}

/* apply_cmd for a policy's command with no journal (into the scratch
 * event) and no table: nothing to back up, no cards or words to account
 * for, no journal to extend. */
static fray_status apply_quiet(fray_towers_fight *f, const ft_command *cmd,
                               bool checked, int next) {
    ft_event *ev = &f->scratch;
    event_start(ev, cmd);
    ft_run r;
    run_init(f, &r, ev, NULL, NULL);
    r.checked = checked;
    r.memo = checked ? &f->memo : NULL;
    fray_status rc = ft_apply_next(&r, next);
    f->memo.valid = false;
    return rc;
}

/* ft_fight_apply; `checked`: the command passed ft_check_command on the
 * fight's state as it is now (the policy checked it), so ft_apply need not
 * check it again; `next`: ft_next_actor of that state when the caller just
 * asked it (else FT_NEXT_UNKNOWN). */
static fray_status apply_cmd(fray_towers_fight *f, const ft_command *cmd,
                             const fray_card *cards, size_t n_cards,
                             fray_diag *diag, bool checked, int next) {
    ft_event *ev = next_slot(f);
    if (!ev)
        return FRAY_ERR_NOMEM;
    if (n_cards > FT_EVENT_CARDS)
        return fray__diag_set(diag, FRAY_ERR_RANGE, 0,
                              "at most %d cards for one action",
                              FT_EVENT_CARDS);
    event_start(ev, cmd);
    /* Table commands must leave the fight unchanged when they fail; the
     * policies only make legal commands, so they skip the copy. */
    bool careful = cards != NULL || diag != NULL || f->table != NULL;
    ft_run r;
    ft_hooks table_hooks;
    run_init(f, &r, ev, diag, &table_hooks);
    ft_state *backup = NULL;
    if (careful) {
        backup = fray__alloc(&f->alloc, sizeof *backup);
        if (!backup)
            return FRAY_ERR_NOMEM;
        *backup = f->st;
    }
    if (cards) {
        ev->cards_given = true;
        ev->n_cards = (int16_t)n_cards;
        for (size_t i = 0; i < n_cards; i++)
            ev->cards[i] = cards[i];
        r.cards_given = true; /* choices still come from the hooks */
    }
    r.checked = checked;
    /* The policy's attack modifiers: only for the command it just chose
     * on this state. */
    r.memo = checked && !careful ? &f->memo : NULL;
    /* A table command may meet a GM's call it does not answer (gm.c). */
    ft_ask ask = {FT_GMQ_NONE, -1, -1, 0, NULL};
    if (f->table)
        r.ask = &ask;
    fray_status rc = ft_apply_next(&r, next);
    f->memo.valid = false;
    if (rc == FRAY_OK && ask.kind != FT_GMQ_NONE)
        rc = ft_gm_question(r.setup, &ask, diag);
    if (rc == FRAY_OK && cards && r.card_i < ev->n_cards) {
        rc = fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                            "%d card(s) more than this action turns over",
                            ev->n_cards - r.card_i);
    }
    for (int i = 0; rc == FRAY_OK && f->table && i < f->table->n; i++)
        if (!f->table->d[i].used)
            rc = fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                "'%s' fits no flip or choice of this action",
                                f->table->d[i].word);
    if (rc != FRAY_OK && backup) {
        f->st = *backup;
        ft_threat_forget(&f->paths.threat); /* (issue 16) */
    }
    if (backup)
        fray__free(&f->alloc, backup, sizeof *backup);
    if (rc != FRAY_OK)
        return rc;
    if (cards)
        ev->n_cards = (int16_t)r.card_i;
    journal_commit(f, ev);
    return FRAY_OK;
}

/* A command as one new event (begin, a step's Forced Delay, a table
 * command): the layer packs it after. */
static fray_status apply_one(fray_towers_fight *f, const ft_command *cmd,
                             const fray_card *cards, size_t n_cards,
                             fray_diag *diag) {
    return apply_cmd(f, cmd, cards, n_cards, diag, false, FT_NEXT_UNKNOWN);
}

typedef struct apply_args {
    const ft_command *cmd;
    const fray_card *cards;
    size_t n_cards;
    fray_diag *diag;
} apply_args;

static fray_status apply_cb(void *rf, void *ctx) {
    fray_towers_fight *f = rf;
    const apply_args *a = ctx;
    f->made = false;
    return apply_one(f, a->cmd, a->cards, a->n_cards, a->diag);
}

fray_status ft_fight_apply(fray_towers_fight *f, const ft_command *cmd,
                           const fray_card *cards, size_t n_cards,
                           fray_diag *diag) {
    /* (For tests and fuzz targets: the command into the layer's journal
     * when the fight keeps one, as a table command goes.) */
    apply_args a = {cmd, cards, n_cards, diag};
    if (!f->jf)
        return apply_cb(f, &a);
    fray_status rc = fray__fight_apply(f->jf, apply_cb, &a);
    f->n_events = fray_fight_events(f->jf);
    return rc;
}

static bool phase_limit_reached(const fray_towers_fight *f, int next) {
    int limit = f->opt.until_phase > 0 ? f->opt.until_phase
                                       : f->setup->s.opt.max_phase;
    return limit > 0 && f->st.c[next].phase > limit;
}

/* ---- Fights (the layer's table: ruleset.c) ------------------------------------- */

fray_status ft_rf_new(const void *setup_, const fray__fight_opts *o,
                      const fray_allocator *alloc, void **out) {
    const fray_towers_setup *setup = setup_;
    *out = NULL;
    fray_towers_fight *f = fray__alloc(alloc, sizeof *f);
    if (!f)
        return FRAY_ERR_NOMEM;
    memset(f, 0, sizeof *f);
    if (alloc)
        f->alloc = *alloc;
    f->setup = setup;
    f->opt.journal = o->record;
    f->opt.facts = o->facts;
    f->opt.until_phase = o->until;
    f->cancel = o->cancel;
    f->jf = o->owner;
    f->failed = FRAY_ERR_INVALID; /* not begun yet */
    /* A quiet fight of a few combatants remembers its decisions (without
     * the room for them it is only slower). */
    if (!f->opt.journal && !f->opt.facts &&
        setup->s.n_combatants <= FT_DECIDE_MAX_N) {
        f->decide = fray__alloc(&f->alloc, sizeof *f->decide);
        if (f->decide)
            memset(f->decide, 0, sizeof *f->decide);
    }
    *out = f;
    return FRAY_OK;
}

void ft_rf_free(void *rf) {
    fray_towers_fight *f = rf;
    if (!f)
        return;
    fray_allocator a = f->alloc;
    fray__free(&a, f->decide, sizeof *f->decide);
    ft_quick_free(&a, f->quick);
    fray__free(&a, f, sizeof *f);
}

fray_status ft_rf_begin(void *rf, uint64_t seed, uint64_t trial,
                        const fray_given *given) {
    fray_towers_fight *f = rf;
    if (given && given->n_dice) {
        if (given->diag)
            fray__diag_set(given->diag, FRAY_ERR_INVALID, 0,
                           "99 Towers flips cards: no dice");
        f->failed = FRAY_ERR_INVALID;
        return FRAY_ERR_INVALID;
    }
    f->seed = seed;
    f->trial = trial;
    f->made = false;
    f->paths.valid = false;
    f->memo.valid = false;
    /* The duel shortcut's start (quick.c), when nothing is recorded. */
    if (f->quick && !(given && given->n_cards) &&
        ft_quick_begin(f, seed, trial)) {
        f->failed = FRAY_OK;
        return FRAY_OK;
    }
    ft_state_reset_trial(&f->setup->s, &f->st, seed, trial);
    ft_command begin;
    memset(&begin, 0, sizeof begin);
    begin.action = FT_CMD_BEGIN;
    begin.actor = -1;
    begin.target = -1;
    /* The initiative flips may fail (a deck too small for them, say):
     * then the fight cannot start, and says so (issue 11: it went on
     * without initiative). (Without journal or table, as a step
     * applies.) */
    fray_status rc;
    if (given && given->n_cards) {
        /* The initiative flips and the opening Hand of Fate deal flipped
         * by hand (issue 13), in the order the engine asks for them. */
        fray_diag d;
        memset(&d, 0, sizeof d);
        rc = apply_one(f, &begin, given->cards, given->n_cards, &d);
        if (rc != FRAY_OK && given->diag)
            *given->diag = d;
    } else {
        rc = !f->opt.journal && !f->table
                 ? apply_quiet(f, &begin, false, FT_NEXT_UNKNOWN)
                 : apply_one(f, &begin, NULL, 0, NULL);
    }
    f->failed = rc;
    return rc;
}

size_t ft_rf_event_pack(const void *rf, uint8_t *out) {
    const fray_towers_fight *f = rf;
    return f->made ? ft_event_pack(&f->scratch, out) : 0;
}

fray_status ft_rf_replay(void *rf, const uint8_t *ev, size_t len,
                         bool is_begin, uint64_t seed, uint64_t trial,
                         fray_diag *diag) {
    fray_towers_fight *f = rf;
    if (is_begin) {
        f->seed = seed;
        f->trial = trial;
        f->failed = FRAY_OK;
        f->paths.valid = false;
        f->memo.valid = false;
        ft_state_reset_trial(&f->setup->s, &f->st, seed, trial);
    }
    if (ev != (const uint8_t *)&f->scratch)
        ft_event_unpack(ev, len, &f->scratch);
    fray_status rc = reapply(f, &f->scratch, diag);
    f->made = rc == FRAY_OK;
    return rc;
}

/* ---- The public fights: wrappers over fray_fight ------------------------------- */

/* The layer's count, for code that reads the field. */
static void sync(fray_towers_fight *f) {
    f->n_events = f->jf ? fray_fight_events(f->jf) : 0;
}

FRAY_API fray_status fray_towers_fight_new(const fray_towers_setup *setup,
                                           uint64_t seed,
                                           const fray_towers_fight_options *opts,
                                           const fray_allocator *alloc,
                                           fray_towers_fight **out) {
    *out = NULL;
    fray_fight_options o;
    memset(&o, 0, sizeof o);
    if (opts) {
        o.journal = opts->journal;
        o.facts = opts->facts;
        o.until = opts->until_phase;
    }
    fray_fight *jf = NULL;
    fray_status rc = fray__fight_new_on(&fray__towers_ruleset, setup, seed, 0,
                                        &o, NULL, alloc, &jf);
    if (rc != FRAY_OK)
        return rc;
    fray_towers_fight *f = fray__fight_rf(jf);
    sync(f);
    *out = f;
    return FRAY_OK;
}

FRAY_API fray_status fray_towers_fight_reset(fray_towers_fight *f,
                                             uint64_t seed) {
    return fray_towers_fight_reset_trial(f, seed, 0);
}

FRAY_API fray_status fray_towers_fight_reset_trial(fray_towers_fight *f,
                                                   uint64_t seed,
                                                   uint64_t trial) {
    fray_status rc = f->jf ? fray__fight_reset_trial(f->jf, seed, trial)
                           : ft_rf_begin(f, seed, trial, NULL);
    sync(f);
    return rc;
}

FRAY_API void fray_towers_fight_free(fray_towers_fight *f) {
    if (!f)
        return;
    if (f->jf)
        fray_fight_free(f->jf); /* (which frees f) */
    else
        ft_rf_free(f);
}

FRAY_API bool fray_towers_fight_over(const fray_towers_fight *f) {
    return f->st.over;
}

FRAY_API int fray_towers_fight_winner(const fray_towers_fight *f) {
    return f->st.over ? f->st.winner : -1;
}

FRAY_API uint64_t fray_towers_fight_seed(const fray_towers_fight *f) {
    return f->seed;
}

FRAY_API int fray_towers_fight_phase(const fray_towers_fight *f) {
    return (int)f->st.phase;
}

FRAY_API const char *fray_towers_fight_turn(const fray_towers_fight *f,
                                            int *out_phase) {
    int next = ft_next_actor(&f->st);
    if (next < 0)
        return NULL;
    if (out_phase)
        *out_phase = (int)f->st.c[next].phase;
    return f->setup->s.c[next].name;
}

static fray_status step_done(fray_towers_fight *f, ft_command *cmd, int next,
                             fray_status rc);

/* issue 7: after the fight, the tactics' next Hand of Fate
 * exchange (rules-facts.md "Hand of Fate"), in a fight the tactics run
 * with its steps recorded (never at the table: the players say theirs;
 * never in a quiet run: a simulation's results cannot depend on it). */
static bool ft_rf_exchange_pending(const fray_towers_fight *f,
                                   ft_command *cmd) {
    const ft_setup *s = &f->setup->s;
    /* A run stopped by --until-phase is not the end of the encounter. */
    if (f->opt.until_phase > 0 && f->st.winner == -1)
        return false;
    return !f->table && s->opt.fate_exchange_below > 0 &&
           ft_exchange_choose(s, &f->st, s->opt.fate_exchange_below, cmd);
}

bool ft_rf_over(const void *rf) {
    const fray_towers_fight *f = rf;
    ft_command cmd;
    return f->st.over && !ft_rf_exchange_pending(f, &cmd);
}

/* The policy's command for `next`, ft_next_actor of the fight's state:
 * its checks are told whose turn it is (ft_path_cache.turn_st) while it
 * weighs the turn, and only then. */
static void choose(fray_towers_fight *f, int next, ft_command *cmd,
                   bool *checked) {
    ft_state *st = &f->st;
    f->paths.turn_st = st;
    f->paths.turn_events = st->n_events;
    f->paths.turn_actor = next;
    ft_policy_choose_remembered(&f->setup->s, st, next, cmd, checked,
                                &f->paths, &f->memo, f->decide);
    f->paths.turn_st = NULL;
}

/* The clock's step: everything else -1 or 0. */
static const ft_command phase_cmd = {
    .action = FT_CMD_PHASE, .actor = -1, .target = -1, .weapon = -1,
    .hold_who = -1, .skill = -1, .chip = -1, .condition = -1, .ally = -1};

fray_status ft_rf_step(void *rf) {
    fray_towers_fight *f = rf;
    ft_state *st = &f->st;
    f->made = false;
    if (f->failed != FRAY_OK)
        return f->failed;
    if (st->over) {
        /* issue 7: the tactics' Hand of Fate exchanges at the end
         * of the encounter (option fate-exchange-below; talent.c). */
        ft_command ex;
        if (!ft_rf_exchange_pending(f, &ex))
            return FRAY_ERR_INVALID;
        f->failed = apply_cmd(f, &ex, NULL, 0, NULL, false, FT_NEXT_UNKNOWN);
        return f->failed;
    }
    int next = ft_next_actor(st);
    if (next < 0 || phase_limit_reached(f, next)) {
        /* Nobody can act any more, or the phase limit: no winner. */
        st->over = true;
        st->winner = -1;
        return FRAY_OK;
    }
    ft_command cmd;
    bool checked = false;
    if (__builtin_expect(f->setup->s.any_joins_later, 0) &&
        ft_gm_reinforce(&f->setup->s, st, &cmd)) {
        /* A side stands only by combatants waiting to join: nobody at a
         * table brings them in, so the fight does (gm.c). */
        fray_status jr = !f->opt.journal && !f->table
                             ? apply_quiet(f, &cmd, false, FT_NEXT_UNKNOWN)
                             : apply_cmd(f, &cmd, NULL, 0, NULL, false,
                                         FT_NEXT_UNKNOWN);
        f->failed = jr;
        return jr;
    }
    if (st->c[next].phase > st->phase)
        cmd = phase_cmd;
    else /* (the policy fills the whole command) */
        choose(f, next, &cmd, &checked);
    /* A command the policy checked on this very state is not checked again
     * (nothing changes the state in between); nor is whose turn it is. */
    fray_status rc = !f->opt.journal && !f->table
                         ? apply_quiet(f, &cmd, checked, next)
                         : apply_cmd(f, &cmd, NULL, 0, NULL, checked, next);
    rc = step_done(f, &cmd, next, rc);
    f->failed = rc;
    return rc;
}

/* `next` is between the two halves of a Running Leap (a table command
 * began it; the tactics policies never do) and must leap: the leap's
 * second half to the first space, in reading order, where it may land
 * (found by asking the rules' check). FRAY_ERR_INVALID when there is
 * none: the fight cannot go on. (Found by fuzz_towers_fight: the policies'
 * turn was refused, and so were its Forced Delay and Full Defense.) */
static fray_status finish_leap(fray_towers_fight *f, ft_command *cmd,
                               int next) {
    const ft_setup *s = &f->setup->s;
    const ft_state *st = &f->st;
    int spd = ft_speed(s, st, next);
    fray_pos at = st->c[next].pos;
    cmd->action = FT_ACT_RUNNING_LEAP;
    for (int y = at.y - spd; y <= at.y + spd; y++)
        for (int x = at.x - spd; x <= at.x + spd; x++) {
            if (x < 0 || y < 0 || x >= FRAY_GRID_MAX || y >= FRAY_GRID_MAX)
                continue;
            cmd->dest.x = (int16_t)x;
            cmd->dest.y = (int16_t)y;
            if (ft_check_command(s, st, cmd, NULL) == FRAY_OK)
                return apply_one(f, cmd, NULL, 0, NULL);
        }
    return FRAY_ERR_INVALID;
}

/* The end of a fight step that applied cmd for `next` with result rc. */
static fray_status step_done(fray_towers_fight *f, ft_command *cmd, int next,
                             fray_status rc) {
    ft_state *st = &f->st;
    if (rc == FRAY_ERR_INVALID && cmd->action < FT_ACTION_COUNT) {
        /* The policy asked for something the rules refuse (it checks, so
         * this is a policy bug): the command was refused before it changed
         * anything, and the turn becomes a Forced Delay, always legal. */
        ft_cmd_init(cmd, next, FT_ACT_DELAY);
        rc = apply_one(f, cmd, NULL, 0, NULL);
        if (rc == FRAY_ERR_INVALID) {
            /* No Forced Delay after a free action this phase: Full
             * Defense then. */
            cmd->action = FT_ACT_FULL_DEFENSE;
            rc = apply_one(f, cmd, NULL, 0, NULL);
        }
        if (rc == FRAY_ERR_INVALID && (st->c[next].flags & FT_F_LEAPING))
            rc = finish_leap(f, cmd, next);
    }
    if (rc == FRAY_ERR_DECK_EMPTY) {
        /* Every card of a deck is held or in play: nothing can be flipped.
         * Only possible with absurd options; end without a winner. */
        st->over = true;
        st->winner = -1;
        return FRAY_OK;
    }
    return rc;
}

/*
 * fray_towers_fight_run when nothing is recorded (no journal, no facts, no
 * table): the same steps as fray_towers_fight_step, in the same order,
 * with one ft_run for the whole fight and the clock's step folded into the
 * action that follows it. A clock's step moves nobody on the clock, so the
 * actor it was made for still acts next and the phase limit, passed for
 * that actor before the step, needs no second test.
 */
static fray_status run_quiet(fray_towers_fight *f) {
    ft_state *st = &f->st;
    if (f->failed != FRAY_OK)
        return f->failed;
    if (__builtin_expect(f->setup->s.any_joins_later, 0)) {
        /* Reinforcements join by ft_rf_step's steps (gm.c). */
        for (int k = 1; !st->over; k++) {
            if (k % FT_CANCEL_EVERY == 0 && f->cancel &&
                atomic_load_explicit(f->cancel, memory_order_relaxed))
                return FRAY_ERR_CANCELED;
            fray_status rc = ft_rf_step(f);
            if (rc != FRAY_OK)
                return rc;
        }
        return FRAY_OK;
    }
    const ft_setup *s = &f->setup->s;
    int limit = f->opt.until_phase > 0 ? f->opt.until_phase : s->opt.max_phase;
    ft_event *ev = &f->scratch;
    ft_run r;
    run_init(f, &r, ev, NULL, NULL);
    bool going = false; /* the last event was an action applied (ft_phase_quiet) */
    int next = FT_NEXT_UNKNOWN; /* whose turn, when the last event told */
    /* Each event's command is chosen straight into the scratch event, and
     * of the rest of its header (event_start) only the counts that the
     * applying reads are cleared: its number and phase are not written
     * (ft_apply_next: nothing is recorded) and nobody reads them back. */
    ft_command *cmd = &ev->cmd;
    ev->cards_given = false;
    int until_look = FT_CANCEL_EVERY; /* events until cancel is read */
    /* The duel shortcut (quick.c), from the begin event only. */
    if (f->quick && !f->quick_off && st->n_events == 1 && !st->over) {
        ft_command refused;
        fray_status rc = ft_quick_run(f, &r, limit, &refused, &next, &going);
        if (rc == FRAY_ERR_CANCELED)
            return rc;
        if (rc != FRAY_OK &&
            (rc = step_done(f, &refused, refused.actor, rc)) != FRAY_OK) {
            f->failed = rc;
            return rc;
        }
    }
    while (!st->over) {
        if (--until_look == 0) {
            until_look = FT_CANCEL_EVERY;
            if (f->cancel &&
                atomic_load_explicit(f->cancel, memory_order_relaxed))
                return FRAY_ERR_CANCELED;
        }
        if (next == FT_NEXT_UNKNOWN)
            next = ft_next_actor(st);
        assert(next == ft_next_actor(st));
        if (next < 0 || (limit > 0 && st->c[next].phase > limit)) {
            st->over = true;
            st->winner = -1;
            return FRAY_OK;
        }
        if (st->c[next].phase > st->phase) {
            next = ft_phase_quiet(&r, next, going);
            if (next < 0)
                continue; /* over */
        }
        bool checked = false;
        choose(f, next, cmd, &checked);
        ev->n_cards = 0;
        ev->n_choices = 0;
        ev->n_facts = 0;
        /* What run_init leaves in a fresh run, for this event. */
        r.card_i = r.choice_i = r.round_i = 0;
        r.checked = checked;
        r.memo = checked ? &f->memo : NULL;
        fray_status rc = ft_apply_next(&r, next);
        f->memo.valid = false;
        going = rc == FRAY_OK;
        if (rc != FRAY_OK) {
            /* (A copy: step_done applies its Forced Delay through the
             * scratch event, whose header event_start clears first.) */
            ft_command refused = *cmd;
            rc = step_done(f, &refused, next, rc);
            if (rc != FRAY_OK) {
                f->failed = rc;
                return rc;
            }
        }
        next = going ? r.next_after : FT_NEXT_UNKNOWN;
    }
    return FRAY_OK;
}

fray_status ft_rf_run_quiet(void *rf) { return run_quiet(rf); }

/* A worker's fight with no layer (sim.c): the quiet run, or steps. */
fray_status ft_rf_run(void *rf) {
    fray_towers_fight *f = rf;
    if (f->failed != FRAY_OK)
        return f->failed;
    if (!f->opt.journal && !f->opt.facts && !f->table)
        return run_quiet(f);
    for (int k = 1; !f->st.over; k++) {
        if (k % FT_CANCEL_EVERY == 0 && f->cancel &&
            atomic_load_explicit(f->cancel, memory_order_relaxed))
            return FRAY_ERR_CANCELED;
        fray_status rc = ft_rf_step(f);
        if (rc != FRAY_OK)
            return rc;
    }
    return FRAY_OK;
}

FRAY_API fray_status fray_towers_fight_step(fray_towers_fight *f) {
    fray_status rc = f->jf ? fray_fight_step(f->jf) : ft_rf_step(f);
    sync(f);
    return rc;
}

FRAY_API fray_status fray_towers_fight_run(fray_towers_fight *f) {
    fray_status rc = f->jf ? fray_fight_run(f->jf) : ft_rf_run(f);
    sync(f);
    return rc;
}

/* ---- Undo and redo (the layer's) ----------------------------------------------- */

FRAY_API int fray_towers_fight_events(const fray_towers_fight *f) {
    return f->opt.journal && f->jf ? fray_fight_events(f->jf)
                                   : (int)f->st.n_events;
}

FRAY_API fray_status fray_towers_fight_undo(fray_towers_fight *f) {
    if (!f->jf)
        return FRAY_ERR_INVALID;
    fray_status rc = fray_fight_undo(f->jf);
    sync(f);
    return rc;
}

FRAY_API fray_status fray_towers_fight_redo(fray_towers_fight *f) {
    if (!f->jf)
        return FRAY_ERR_INVALID;
    fray_status rc = fray_fight_redo(f->jf);
    sync(f);
    return rc;
}

/* ---- Table commands ------------------------------------------------------------ */

typedef fray__words lexer;

static bool lex_next(lexer *lx) { return fray__words_next(lx); }

static bool same_word(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

/* A combatant by id or by name with '-' for spaces. */
int ft_word_combatant(const ft_setup *s, const char *tok) {
    for (int i = 0; i < s->n_combatants; i++) {
        if (same_word(s->c[i].id, tok) || same_word(s->c[i].name, tok))
            return i;
    }
    return -1;
}

static fray_status lex_error(lexer *lx, fray_diag *diag, const char *what) {
    if (diag) {
        fray__diag_set(diag, FRAY_ERR_PARSE, lx->col, "%s, got '%s'", what,
                       lx->tok[0] ? lx->tok : "the end of the command");
    }
    return FRAY_ERR_PARSE;
}

static const char *id_of(const void *ctx, int i) {
    return ((const ft_setup *)ctx)->c[i].id;
}

/* lex_error for a word that is no combatant: the ids it could have been
 * (issue 13: "an unknown id is an error that lists the ids"). */
static fray_status who_error(lexer *lx, const ft_setup *s, fray_diag *diag,
                             const char *what) {
    char ids[160], msg[256];
    fray__words_join(ids, sizeof ids, id_of, s, s->n_combatants);
    snprintf(msg, sizeof msg, "%s (%s)", what, ids);
    return lex_error(lx, diag, msg);
}

bool ft_word_pos(const char *tok, fray_pos *out) {
    int x, y;
    char tail;
    if (sscanf(tok, "%d,%d%c", &x, &y, &tail) != 2 || x < 0 || y < 0 ||
        x >= FRAY_GRID_MAX || y >= FRAY_GRID_MAX)
        return false;
    out->x = (int16_t)x;
    out->y = (int16_t)y;
    return true;
}

bool ft_word_int(const char *tok, int lo, int hi, int *out) {
    char *end;
    long v = strtol(tok, &end, 10);
    if (end == tok || *end || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

static int find_weapon(const ft_statblock *sb, const char *tok) {
    for (int i = 0; i < sb->n_weapons; i++) {
        char name[FT_NAME];
        size_t k = 0;
        for (const char *p = sb->weapons[i].name; *p && k + 1 < sizeof name;
             p++)
            name[k++] = *p == ' ' ? '-' : *p;
        name[k] = '\0';
        if (same_word(name, tok) || same_word(sb->weapons[i].name, tok))
            return i;
    }
    return -1;
}

/* "fate HELD for CARD", "fate HELD reflip", "chip ID shift|flip
 * [white|red|blue]", "decline ID|all" (lx is on the first word). */
static fray_status parse_directive(const ft_setup *s, lexer *lx,
                                   struct ft_table *t, fray_diag *diag) {
    if (t->n >= FT_TABLE_MAX)
        return lex_error(lx, diag, "at most 8 Hand of Fate, chip and "
                         "opportunity words in one command");
    ft_directive *d = &t->d[t->n];
    memset(d, 0, sizeof *d);
    d->who = -1;
    d->colour = -1;
    int start = lx->col;
    if (same_word(lx->tok, "fate")) {
        if (!lex_next(lx) || fray_card_parse(lx->tok, &d->held, NULL) != FRAY_OK)
            return lex_error(lx, diag, "expected the Hand of Fate card "
                             "(e.g. QH)");
        if (!lex_next(lx))
            return lex_error(lx, diag, "expected 'for CARD' or 'reflip'");
        if (same_word(lx->tok, "reflip")) {
            d->kind = FT_CHOICE_FATE_REFLIP;
        } else if (same_word(lx->tok, "for")) {
            d->kind = FT_CHOICE_FATE_SWAP;
            if (!lex_next(lx) ||
                fray_card_parse(lx->tok, &d->replaced, NULL) != FRAY_OK)
                return lex_error(lx, diag, "expected the flipped card it "
                                 "replaces (e.g. 4D)");
        } else {
            return lex_error(lx, diag, "expected 'for CARD' or 'reflip'");
        }
    } else if (same_word(lx->tok, "decline")) {
        d->kind = FT_CHOICE_OPPORTUNITY;
        d->used = true; /* declining may find nobody to decline */
        if (!lex_next(lx))
            return lex_error(lx, diag, "expected who declines ('all' or an "
                             "id)");
        if (!same_word(lx->tok, "all") &&
            (d->who = (int8_t)ft_word_combatant(s, lx->tok)) < 0)
            return lex_error(lx, diag, "expected who declines ('all' or an "
                             "id)");
    } else { /* chip ID shift|flip [colour] */
        if (!lex_next(lx) || (d->who = (int8_t)ft_word_combatant(s, lx->tok)) < 0)
            return lex_error(lx, diag, "expected whose chip");
        if (!lex_next(lx) ||
            !(same_word(lx->tok, "shift") || same_word(lx->tok, "flip")))
            return lex_error(lx, diag, "expected 'shift' or 'flip'");
        d->kind = same_word(lx->tok, "flip") ? FT_CHOICE_CHIP_FLIP
                                             : FT_CHOICE_CHIP_SHIFT;
        lexer save = *lx;
        if (lex_next(lx) && (same_word(lx->tok, "white") ||
                             same_word(lx->tok, "red") ||
                             same_word(lx->tok, "blue")))
            d->colour = (int8_t)(same_word(lx->tok, "white") ? 0
                                 : same_word(lx->tok, "red") ? 1
                                                             : 2);
        else
            *lx = save;
    }
    size_t len = (size_t)(lx->p - lx->text) - (size_t)(start - 1);
    if (len >= sizeof d->word)
        len = sizeof d->word - 1;
    memcpy(d->word, lx->text + start - 1, len);
    d->word[len] = '\0';
    t->n++;
    return FRAY_OK;
}

/* "chip" followed by a combatant's id is a chip word for a flip; else it
 * is the chip of Discard Chip to Heal or Shake Minor Condition. */
static bool chip_word_follows(const ft_setup *s, const lexer *lx) {
    lexer peek = *lx;
    return lex_next(&peek) && ft_word_combatant(s, peek.tok) >= 0;
}

/* A talent's name as a word: case aside, '-' for a space, apostrophes
 * left out ("hunters-quarry" is "Hunter's Quarry"). */
static bool talent_word(const char *name, const char *tok) {
    for (;;) {
        while (*name == '\'')
            name++;
        while (*tok == '\'')
            tok++;
        if (!*name || !*tok)
            return !*name && !*tok;
        char a = *name == ' ' ? '-' : *name, b = *tok == ' ' ? '-' : *tok;
        if (tolower((unsigned char)a) != tolower((unsigned char)b))
            return false;
        name++;
        tok++;
    }
}

/* issue 7 (talent.c): "tony talent "Lucky Strike" spending 7H",
 * "ranger talent hunters-mark goblin", "tony exchange 4C" (lx is on the
 * action word). A talent by its name, or with '-' for spaces. */
static fray_status parse_talent_words(const ft_setup *s, lexer *lx,
                                      ft_command *cmd, fray_diag *diag) {
    const ft_statblock *sb = &s->c[cmd->actor].sb;
    bool talent = cmd->action == FT_ACT_TALENT;
    while (lex_next(lx)) {
        int v = -1;
        fray_card card;
        if (talent && !cmd->talent) {
            for (int i = 0; i < sb->n_talents && v < 0; i++)
                if (talent_word(sb->talents[i].name, lx->tok))
                    v = i;
            if (v >= 0) {
                cmd->talent = (int8_t)(v + 1);
                continue;
            }
        }
        if (same_word(lx->tok, "spending")) {
            if (!lex_next(lx) || fray_card_parse(lx->tok, &card, NULL) != FRAY_OK)
                return lex_error(lx, diag, "expected the Hand of Fate card "
                                 "it spends (e.g. 7H)");
            cmd->card = (uint8_t)(card + 1);
        } else if (!cmd->card &&
                   fray_card_parse(lx->tok, &card, NULL) == FRAY_OK) {
            cmd->card = (uint8_t)(card + 1);
        } else if (talent && cmd->target < 0 &&
                   (v = ft_word_combatant(s, lx->tok)) >= 0) {
            cmd->target = (int8_t)v; /* the marked target (spend: mark) */
        } else if (talent && !cmd->talent) {
            char names[160] = "";
            for (int i = 0; i < sb->n_talents; i++) {
                size_t len = strlen(names);
                snprintf(names + len, sizeof names - len, "%s\"%s\"",
                         i ? ", " : "", sb->talents[i].name);
            }
            char what[400];
            snprintf(what, sizeof what, "expected one of %s's talents (%s): "
                     "talent NAME [TARGET] [spending CARD]",
                     s->c[cmd->actor].name,
                     sb->n_talents ? names : "it has none");
            return lex_error(lx, diag, what);
        } else {
            return lex_error(lx, diag, talent
                             ? "unexpected word: talent NAME [TARGET] "
                               "[spending CARD]"
                             : "unexpected word: exchange CARD (a held card "
                               "of its deck's Hand of Fate)");
        }
    }
    if (talent && !cmd->talent)
        return lex_error(lx, diag, "expected the talent's name: talent NAME "
                         "[TARGET] [spending CARD]");
    if (!talent && !cmd->card)
        return lex_error(lx, diag, "expected the held card to discard: "
                         "exchange CARD (e.g. exchange 4C)");
    return FRAY_OK;
}

static fray_status parse_command(const ft_setup *s, const char *text,
                                 ft_command *cmd, struct ft_table *table,
                                 fray_diag *diag) {
    table->n = 0;
    lexer lx = {text, text, "", 1};
    ft_cmd_init(cmd, -1, 0);
    if (!lex_next(&lx))
        return lex_error(&lx, diag, "expected a combatant and an action, or "
                         "'next'");
    if (same_word(lx.tok, "next")) {
        cmd->action = FT_CMD_PHASE;
        cmd->actor = -1;
        return lex_next(&lx) ? lex_error(&lx, diag, "expected nothing after "
                                         "'next'")
                             : FRAY_OK;
    }
    if (same_word(lx.tok, "gm"))
        return ft_gm_parse(s, &lx, cmd, diag); /* the GM's word (gm.c) */
    int actor = ft_word_combatant(s, lx.tok);
    if (actor < 0)
        return who_error(&lx, s, diag, "expected a combatant's id");
    cmd->actor = (int8_t)actor;
    const ft_statblock *sb = &s->c[actor].sb;
    if (!lex_next(&lx))
        return lex_error(&lx, diag, "expected an action");
    if (same_word(lx.tok, "shift")) {
        /* "shift X,Y" alone, or "shift X,Y then ACTION ...". */
        if (!lex_next(&lx) || !ft_word_pos(lx.tok, &cmd->shift_to))
            return lex_error(&lx, diag, "expected a space as X,Y");
        if (!lex_next(&lx)) {
            cmd->action = FT_ACT_SHIFT;
            cmd->dest = cmd->shift_to;
            return FRAY_OK;
        }
        if (!same_word(lx.tok, "then"))
            return lex_error(&lx, diag, "expected 'then' and an action");
        cmd->shift_first = true;
        if (!lex_next(&lx))
            return lex_error(&lx, diag, "expected an action after 'then'");
    }
    /* "ranger defensive attack goblin": the stance first (seed 000
     * "Off-Hand Weapons and Dual-Wielding": at the start of the action). */
    if (same_word(lx.tok, "aggressive") || same_word(lx.tok, "defensive")) {
        cmd->stance = (int8_t)(same_word(lx.tok, "aggressive")
                                   ? FT_STANCE_AGGRESSIVE
                                   : FT_STANCE_DEFENSIVE);
        if (!lex_next(&lx))
            return lex_error(&lx, diag, "expected an action after the stance");
    }
    int action = -1;
    for (int i = 0; i < FT_ACTION_COUNT; i++)
        if (same_word(ft_actions[i].name, lx.tok))
            action = i;
    if (action < 0)
        return lex_error(&lx, diag, "expected an action (attack, move, aim, "
                         "power-attack, recover, hold, ...; see "
                         "docs/file-formats.md \"Commands\")");
    cmd->action = (uint8_t)action;
    if (action == FT_ACT_TALENT || action == FT_ACT_EXCHANGE)
        return parse_talent_words(s, &lx, cmd, diag); /* issue 7 */
    const ft_action_info *info = &ft_actions[action];
    bool dtn_said = false, cost_said = false;
    bool until = false;
    while (lex_next(&lx)) {
        int v;
        fray_pos p;
        /* The GM's answers given on the command (gm.c: "high-ground yes",
         * "all-hold first", "strength-limit 2"). */
        bool gm_taken;
        fray_status grc = ft_gm_word(s, &lx, cmd, &gm_taken, diag);
        if (grc != FRAY_OK)
            return grc;
        if (gm_taken)
            continue;
        if (same_word(lx.tok, "with") || same_word(lx.tok, "weapon")) {
            if (!lex_next(&lx) || (v = find_weapon(sb, lx.tok)) < 0)
                return lex_error(&lx, diag, "expected one of the combatant's "
                                 "weapons");
            cmd->weapon = (int8_t)v;
        } else if (same_word(lx.tok, "off-hand")) {
            cmd->off_hand = true;
        } else if (same_word(lx.tok, "aggressive") ||
                   same_word(lx.tok, "defensive")) {
            /* Seed 000 "Off-Hand Weapons and Dual-Wielding": the stance
             * taken at the start of this action (it stays until changed). */
            cmd->stance = (int8_t)(same_word(lx.tok, "aggressive")
                                       ? FT_STANCE_AGGRESSIVE
                                       : FT_STANCE_DEFENSIVE);
        } else if (same_word(lx.tok, "and")) {
            /* "ranger move 3,4 and falcon 5,6": the companion (or the
             * master) moves too, once the first is done (seed 000
             * "Companions and Minions"). */
            if (!lex_next(&lx) || (v = ft_word_combatant(s, lx.tok)) < 0)
                return who_error(&lx, s, diag, "expected the companion's (or "
                                 "master's) id after 'and'");
            cmd->also = (int8_t)(v + 1);
            if (!lex_next(&lx) || !ft_word_pos(lx.tok, &cmd->also_dest))
                return lex_error(&lx, diag, "expected the space X,Y it moves "
                                 "to");
        } else if (same_word(lx.tok, "lethal")) {
            cmd->heal_lethal = true;
        } else if (action == FT_ACT_ATTACK && !cmd->grapple_move &&
                   (same_word(lx.tok, "restrain") ||
                    same_word(lx.tok, "squeeze") || same_word(lx.tok, "slam") ||
                    same_word(lx.tok, "throw") ||
                    same_word(lx.tok, "reverse"))) {
            /* Seed 000 "Grappling": "tony attack bandit squeeze", "... throw
             * 4,5" (grapple.c). */
            for (int g = 1; g < FT_GM_COUNT; g++)
                if (same_word(ft_grapple_move_name(g), lx.tok))
                    cmd->grapple_move = (uint8_t)g;
            if (cmd->grapple_move == FT_GM_THROW &&
                (!lex_next(&lx) || !ft_word_pos(lx.tok, &cmd->dest)))
                return lex_error(&lx, diag, "expected the space to throw at "
                                 "as X,Y (attack T throw X,Y)");
        } else if (cmd->grapple_move == FT_GM_THROW && !cmd->throw_land &&
                   same_word(lx.tok, "land")) {
            /* A willing ally: "attack ally throw 5,5 land north-east". */
            if (!lex_next(&lx) || (v = ft_direction_of(lx.tok)) < 0)
                return lex_error(&lx, diag, "expected a direction (north, "
                                 "north-east, ... or n, ne, e, se, s, sw, "
                                 "w, nw)");
            cmd->throw_land = (uint8_t)(v + 1);
        } else if (action == FT_ACT_MOVE && (same_word(lx.tok, "prone") ||
                                             same_word(lx.tok, "drop-prone"))) {
            /* "tony move 3,4 prone": Drop Prone at the end, for free. */
            cmd->drop_prone = true;
        } else if ((action == FT_ACT_MOVE || action == FT_ACT_RECKLESS_MOVE) &&
                   same_word(lx.tok, "tumble")) {
            /* "tony move 6,2 tumble dtn 12": through non-allies' spaces
             * with Acrobatics (seed 000 "Moving Through Spaces";
             * tumble.c). */
            cmd->tumble = true;
        } else if (same_word(lx.tok, "fate") ||
                   same_word(lx.tok, "decline") ||
                   (same_word(lx.tok, "chip") &&
                    chip_word_follows(s, &lx))) {
            fray_status rc = parse_directive(s, &lx, table, diag);
            if (rc != FRAY_OK)
                return rc;
        } else if (same_word(lx.tok, "white") || same_word(lx.tok, "red") ||
                   same_word(lx.tok, "blue") || same_word(lx.tok, "chip")) {
            cmd->chip = (int8_t)(same_word(lx.tok, "red")    ? 1
                                 : same_word(lx.tok, "blue") ? 2
                                                             : 0);
        } else if (same_word(lx.tok, "for") || same_word(lx.tok, "helping")) {
            if (!lex_next(&lx) || (v = ft_word_combatant(s, lx.tok)) < 0)
                return who_error(&lx, s, diag, "expected the ally's id");
            cmd->ally = (int8_t)v;
        } else if (same_word(lx.tok, "cost")) {
            if (!lex_next(&lx) || !ft_word_int(lx.tok, 0, 100, &v))
                return lex_error(&lx, diag, "expected a cost of 0-100 phases");
            cmd->cost = (int16_t)v;
            cost_said = true;
        } else if (same_word(lx.tok, "dtn")) {
            dtn_said = true;
            if (lex_next(&lx) && same_word(lx.tok, "none"))
                continue; /* the GM's answer: no DTN (gm.c) */
            if (!lx.tok[0] || !ft_word_int(lx.tok, 1, 100, &v))
                return lex_error(&lx, diag, "expected a DTN of 1-100 (or "
                                 "none)");
            cmd->dtn = (int16_t)v;
        } else if (same_word(lx.tok, "until")) {
            until = true;
            if (!lex_next(&lx))
                return lex_error(&lx, diag, "expected a phase, a combatant "
                                 "or 'enemy-in-reach'");
            if (ft_word_int(lx.tok, 0, 1000000, &v)) {
                cmd->hold_kind = FT_HOLD_PHASE;
                cmd->hold_phase = v;
            } else if (same_word(lx.tok, "enemy-in-reach")) {
                cmd->hold_kind = FT_HOLD_ENEMY_IN_REACH;
            } else if ((v = ft_word_combatant(s, lx.tok)) >= 0) {
                cmd->hold_kind = FT_HOLD_ACTS;
                cmd->hold_who = (int8_t)v;
                cmd->hold_after = true;
                if (lex_next(&lx) && !same_word(lx.tok, "acts"))
                    return lex_error(&lx, diag, "expected 'acts'");
            } else {
                return lex_error(&lx, diag, "expected a phase, a combatant "
                                 "or 'enemy-in-reach'");
            }
        } else if (same_word(lx.tok, "before") || same_word(lx.tok, "after")) {
            cmd->hold_after = same_word(lx.tok, "after");
            if (!lex_next(&lx) || (v = ft_word_combatant(s, lx.tok)) < 0)
                return who_error(&lx, s, diag, "expected a combatant's id");
            cmd->hold_who = (int8_t)v;
        } else if (action == FT_ACT_CHARGE && same_word(lx.tok, "via")) {
            /* "charge goblin 6,2 via 3,2": the straight run of the last
             * three spaces begins there (seed 000 "Charge"). */
            if (!lex_next(&lx) || !ft_word_pos(lx.tok, &p))
                return lex_error(&lx, diag, "expected the space where the "
                                 "Charge's straight run begins, as X,Y");
            cmd->charge_via = true;
            cmd->via = p;
        } else if (same_word(lx.tok, "at") &&
                   (action == FT_ACT_ATTACK || action == FT_ACT_CAST)) {
            /* "mage cast fireball at 5,6": an area aimed at a space
             * (seed 000 "Area of Effects"; area.c). */
            if (!lex_next(&lx) || !ft_word_pos(lx.tok, &p))
                return lex_error(&lx, diag, "expected the space aimed at as "
                                 "X,Y");
            cmd->dest = p;
            cmd->at_space = true;
        } else if (ft_word_pos(lx.tok, &p)) {
            cmd->dest = p;
            if (action == FT_ACT_MARK)
                cmd->mark_space = 1; /* "ranger mark 3,4" */
        } else if ((v = ft_word_combatant(s, lx.tok)) >= 0) {
            cmd->target = (int8_t)v;
        } else if ((action == FT_ACT_DROP_OBJECT ||
                    action == FT_ACT_PICK_UP || action == FT_ACT_ATTACK ||
                    action == FT_ACT_CAST) &&
                   cmd->weapon < 0 && (v = find_weapon(sb, lx.tok)) >= 0) {
            /* "tony drop-object dagger", "tony pick-up dagger"; "mage cast
             * fireball goblin-1": the spell or weapon named. */
            cmd->weapon = (int8_t)v;
        } else if (action == FT_ACT_DRAW_WEAPON &&
                   (v = find_weapon(sb, lx.tok)) >= 0) {
            /* "draw sword dagger": the second into the off hand (seed
             * 000 "Draw a Weapon"). */
            if (cmd->weapon < 0)
                cmd->weapon = (int8_t)v;
            else if (!cmd->draw_also)
                cmd->draw_also = (int8_t)(v + 1);
            else
                return lex_error(&lx, diag, "Draw a Weapon draws at most "
                                 "two weapons");
        } else if (action == FT_ACT_USE_SKILL &&
                   (same_word(lx.tok, "flip") || same_word(lx.tok, "shift"))) {
            /* The GM's flip mods and shifts (seed 001): "flip +1",
             * "shift -2". */
            bool is_flip = same_word(lx.tok, "flip");
            if (!lex_next(&lx) || !ft_word_int(lx.tok, -10, 10, &v))
                return lex_error(&lx, diag, "expected the GM's mods, -10 to "
                                 "+10");
            if (is_flip)
                cmd->gm_flip = (int8_t)v;
            else
                cmd->gm_shift = (int8_t)v;
        } else if (action == FT_ACT_USE_SKILL &&
                   same_word(lx.tok, "against")) {
            /* "aldric use-skill intimidate against knight [discipline]
             * [frightened]": an opposed skill flip (seed 001), and the
             * condition its win puts on the target (seed 000 "Skill,
             * Aspect, and Attribute Checks"). */
            if (!lex_next(&lx) || (v = ft_word_combatant(s, lx.tok)) < 0)
                return who_error(&lx, s, diag,
                                 "expected the id of who opposes the flip");
            cmd->target = (int8_t)v;
            cmd->opposed = true;
            while (lex_next(&lx)) {
                const ft_statblock *tsb = &s->c[v].sb;
                int k = -1;
                for (int i = 0; i < tsb->n_skills; i++)
                    if (same_word(tsb->skills[i].name, lx.tok))
                        k = i;
                int cnd = -1;
#define FT__E(id, nm, mj, hx)                                                  \
    if (same_word(nm, lx.tok))                                                 \
        cnd = FT_COND_##id;
                FT_CONDITION_LIST(FT__E)
#undef FT__E
                if (k >= 0 && !cmd->opp_skill && cmd->condition < 0) {
                    cmd->opp_skill = (int8_t)(k + 1);
                } else if (cnd >= 0 && cmd->condition < 0) {
                    cmd->condition = (int8_t)cnd;
                } else if (same_word(lx.tok, "cost")) {
                    if (!lex_next(&lx) || !ft_word_int(lx.tok, 0, 100, &k))
                        return lex_error(&lx, diag,
                                         "expected a cost of 0-100 phases");
                    cmd->cost = (int16_t)k;
                } else if (same_word(lx.tok, "aspect")) {
                    /* "... against T aspect EE": a raw Aspect resists. */
                    static const char *const codes[FT_ASPECT_COUNT] = {
#define FT__E(id, code, name) code,
                        FT_ASPECT_LIST(FT__E)
#undef FT__E
                    };
                    k = -1;
                    if (lex_next(&lx))
                        for (int i = 0; i < FT_ASPECT_COUNT; i++)
                            if (same_word(codes[i], lx.tok))
                                k = i;
                    if (k < 0)
                        return lex_error(&lx, diag,
                                         "expected an Aspect (HS, SS, EE, "
                                         "IE, SP, IP, AI, II, PC)");
                    cmd->opp_aspect = (int8_t)(k + 1);
                } else if (same_word(lx.tok, "high") ||
                           same_word(lx.tok, "low")) {
                    /* "... against T high endurance": an Attribute
                     * check, the better or the lower of its two. */
                    static const char *const attrs[FT_ATTR_COUNT] = {
                        "strength", "endurance", "perception", "intellect"};
                    bool low = same_word(lx.tok, "low");
                    k = -1;
                    if (lex_next(&lx))
                        for (int i = 0; i < FT_ATTR_COUNT; i++)
                            if (same_word(attrs[i], lx.tok))
                                k = i;
                    if (k < 0)
                        return lex_error(&lx, diag,
                                         "expected an Attribute (strength, "
                                         "endurance, perception, intellect)");
                    cmd->opp_attribute = (int8_t)(1 + 2 * k + (low ? 1 : 0));
                } else {
                    return lex_error(&lx, diag,
                                     "expected the opposing skill of the "
                                     "target, 'aspect XX', 'high' or 'low' "
                                     "and an Attribute, a condition its win "
                                     "inflicts, or 'cost N'");
                }
            }
            break;
        } else if (action == FT_ACT_USE_SKILL) {
            int k = -1;
            for (int i = 0; i < sb->n_skills; i++)
                if (same_word(sb->skills[i].name, lx.tok))
                    k = i;
            /* After the skill, one of its specializations that applies
             * ("tony use-skill firearms rifles": (flip+1), seed 001). */
            int sp = -1;
            if (k < 0 && cmd->skill >= 0 && cmd->skill < sb->n_skills)
                for (int i = 0; i < sb->skills[cmd->skill].n_specs; i++)
                    if (same_word(sb->skills[cmd->skill].specs[i], lx.tok))
                        sp = i;
            if (sp >= 0 && !cmd->skill_spec) {
                cmd->skill_spec = (int8_t)(sp + 1);
                continue;
            }
            if (k < 0 || cmd->skill >= 0)
                return lex_error(&lx, diag, cmd->skill >= 0
                                 ? "expected one of the skill's specializations"
                                 : "expected one of the combatant's skills");
            cmd->skill = (int8_t)k;
        } else if (action == FT_ACT_SHAKE) {
            int k = -1;
#define FT__E(id, nm, mj, hx)                                                  \
    if (same_word(nm, lx.tok))                                                 \
        k = FT_COND_##id;
            FT_CONDITION_LIST(FT__E)
#undef FT__E
            if (k < 0)
                return lex_error(&lx, diag, "expected a condition");
            cmd->condition = (int8_t)k;
        } else {
            return lex_error(&lx, diag, "unexpected word");
        }
    }
    /* An aura centres on its user: no target (area.c). */
    if (cmd->target < 0 && cmd->weapon >= 0 && cmd->weapon < sb->n_weapons &&
        sb->weapons[cmd->weapon].area == FT_AREA_AURA &&
        (action == FT_ACT_ATTACK || action == FT_ACT_CAST))
        cmd->at_space = true;
    if ((info->flags & FT_AF_TARGET) && cmd->target < 0 && !cmd->at_space)
        return lex_error(&lx, diag, "expected a target's id (or, for an "
                         "area, 'at X,Y')");
    if (action == FT_ACT_CHIP_HEAL && cmd->chip < 0)
        cmd->chip = 1;
    if (action == FT_ACT_MARK && !cmd->mark_space && cmd->target < 0)
        return lex_error(&lx, diag, "expected what to mark: a combatant's id "
                         "or a space X,Y");
    if (action == FT_ACT_MARK && cmd->mark_space && cmd->target >= 0)
        return lex_error(&lx, diag, "a Mark is on a combatant or on a space, "
                         "not both");
    /* The DTN is the GM's call (seed 001): asked when not given. */
    if (action == FT_ACT_USE_SKILL && !dtn_said && !cmd->opposed) {
        fray_status q = ft_gm_ask_dtn(s, cmd, diag); /* (opposed: no DTN) */
        if (q != FRAY_OK)
            return q;
    }
    if (cmd->tumble && !dtn_said) /* tumble.c: the Acrobatics DTN */
        return ft_tumble_ask_dtn(s, cmd, diag);
    /* A non-standard action's time (000 "Action List": "the GM and player
     * can attempt to gauge the amount of time"): asked when not given. */
    if (action == FT_ACT_USE_SKILL && !cost_said && !cmd->opposed)
        return ft_gm_ask_time(s, cmd, diag);
    /* "tony hold": until he chooses to act (seed 000 "Hold": "He does not
     * have to announce what he is waiting for"). */
    if (action == FT_ACT_HOLD && !until && cmd->hold_who < 0)
        cmd->hold_kind = FT_HOLD_CHOOSE;
    return FRAY_OK;
}

fray_status ft_rf_command(void *rf, const char *command,
                          const fray_given *given, fray_diag *diag) {
    fray_towers_fight *f = rf;
    f->made = false;
    if (f->failed != FRAY_OK)
        return fray__diag_set(diag, f->failed, 0,
                              "the fight cannot go on after a failed step: "
                              "undo it, or start again");
    if (given && given->n_dice)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "99 Towers rolls no dice: its flips are cards "
                              "(cards KH 7C ...)");
    ft_command cmd;
    struct ft_table table;
    fray_diag local;
    if (!diag)
        diag = &local;
    /* "answer N": the GM answers the question that refused the last
     * command (gm.c). */
    char answered[FT_ASKED_MAX + 32];
    fray_status rc = ft_gm_answer_kind(f->asked, f->asked_kind, command,
                                       answered, sizeof answered, &command,
                                       diag);
    if (rc != FRAY_OK)
        return rc;
    rc = parse_command(&f->setup->s, command, &cmd, &table, diag);
    if (rc == FRAY_OK) {
        f->table = &table;
        rc = apply_one(f, &cmd, given && given->n_cards ? given->cards : NULL,
                       given ? given->n_cards : 0, diag);
        f->table = NULL;
    }
    /* A GM's question (at the words, or met while applying: gm.c) waits
     * for "answer X"; anything else forgets it. */
    f->asked[0] = '\0';
    f->asked_kind = rc != FRAY_OK ? ft_gm_question_kind(diag) : FT_GMQ_NONE;
    if (f->asked_kind != FT_GMQ_NONE && strlen(command) < sizeof f->asked)
        memcpy(f->asked, command, strlen(command) + 1);
    else
        f->asked_kind = FT_GMQ_NONE;
    return rc;
}

FRAY_API fray_status fray_towers_fight_command(fray_towers_fight *f,
                                               const char *command,
                                               const fray_card *cards,
                                               size_t n_cards,
                                               fray_diag *diag) {
    fray_given g = {cards, n_cards, NULL, 0, NULL};
    fray_status rc = f->jf ? fray_fight_command(f->jf, command, &g, diag)
                           : ft_rf_command(f, command, &g, diag);
    sync(f);
    return rc;
}
FRAY_API size_t fray_towers_fight_hand(const fray_towers_fight *f,
                                      const char *id, fray_card *out,
                                      size_t cap) {
    int c = ft_word_combatant(&f->setup->s, id);
    if (c < 0)
        return 0;
    return fray_deck_held(&f->st.decks[f->setup->s.c[c].deck], out, cap);
}

/* ---- Renderings ---------------------------------------------------------------- */

FRAY_API const char *fray_towers_event_action(const fray_towers_fight *f,
                                              int i) {
    return f->jf ? fray_event_action(f->jf, i) : NULL;
}

FRAY_API size_t fray_towers_event_narrate(const fray_towers_fight *f, int i,
                                          char *buf, size_t size) {
    if (f->jf)
        return fray_event_narrate(f->jf, i, buf, size);
    if (size)
        buf[0] = '\0';
    return 0;
}

FRAY_API int fray_towers_fight_recorded(const fray_towers_fight *f) {
    return f->opt.journal && f->jf ? fray_fight_recorded(f->jf)
                                   : fray_towers_fight_events(f);
}

FRAY_API size_t fray_towers_event_json(const fray_towers_fight *f, int i,
                                       char *buf, size_t size) {
    if (f->jf)
        return fray_event_json(f->jf, i, buf, size);
    if (size)
        buf[0] = '\0';
    return 0;
}

FRAY_API size_t fray_towers_draw_clock(const fray_towers_fight *f, char *buf,
                                       size_t size) {
    return ft_render_clock(&f->setup->s, &f->st, buf, size);
}

FRAY_API size_t fray_towers_draw_map(const fray_towers_fight *f, char *buf,
                                     size_t size) {
    return ft_render_map(&f->setup->s, &f->st, buf, size);
}

FRAY_API size_t fray_towers_summary(const fray_towers_fight *f, char *buf,
                                    size_t size) {
    /* (The layer's status: a step can fail there too, when its journal
     * cannot grow.) */
    fray_status failed = f->jf ? fray__fight_failed(f->jf) : f->failed;
    return ft_render_summary(&f->setup->s, &f->st, failed, buf, size);
}

/* ---- Reading journal lines (the layer reads the line: jread.h) ----------------- */

typedef fray__jseg jseg;
enum { JPATH_MAX = FRAY__JPATH_MAX };

/* A line being read, with the encounter it replays on. */
typedef struct jline {
    fray__jline j;
    const ft_setup *s;
} jline;

#define field_error(l, ...) fray__jfield_error(&(l)->j, __VA_ARGS__)
#define read_int(l, ...) fray__jread_int(&(l)->j, __VA_ARGS__)
#define read_bool(l, ...) fray__jread_bool(&(l)->j, __VA_ARGS__)
#define js_column(l, ...) fray__js_column(&(l)->j, __VA_ARGS__)
#define js_at fray__js_at

static fray_status read_combatant(const jline *l, json_t *parent,
                                  const jseg *path, int depth, int *out) {
    json_t *v = js_at(parent, &path[depth - 1]);
    const ft_setup *s = l->s;
    *out = -1;
    if (!v || json_is_null(v))
        return FRAY_OK;
    if (json_is_string(v)) {
        *out = ft_word_combatant(s, json_string_value(v));
        if (*out < 0)
            return field_error(l, path, depth, "no combatant '%.40s' in this "
                               "encounter", json_string_value(v));
        return FRAY_OK;
    }
    if (json_is_integer(v)) {
        long long x = json_integer_value(v);
        if (x < 0 || x >= s->n_combatants)
            return field_error(l, path, depth, "%lld is not a combatant of "
                               "this encounter (its %d combatants are 0 to "
                               "%d)", x, s->n_combatants,
                               s->n_combatants - 1);
        *out = (int)x;
        return FRAY_OK;
    }
    return field_error(l, path, depth, "expected a combatant's id");
}

/* A space [x, y] on the encounter's map; unchanged when absent. */
static fray_status read_pos(const jline *l, json_t *parent, const jseg *path,
                            int depth, fray_pos *out) {
    json_t *v = js_at(parent, &path[depth - 1]);
    if (!v)
        return FRAY_OK;
    const ft_setup *s = l->s;
    int w = s->has_map ? s->map.w : FRAY_GRID_MAX;
    int h = s->has_map ? s->map.h : FRAY_GRID_MAX;
    json_t *x = json_array_get(v, 0), *y = json_array_get(v, 1);
    if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_integer(x) ||
        !json_is_integer(y))
        return field_error(l, path, depth, "expected a space [x, y]");
    long long xv = json_integer_value(x), yv = json_integer_value(y);
    if (xv < 0 || yv < 0 || xv >= w || yv >= h)
        return field_error(l, path, depth, "[%lld, %lld] is not a space of "
                           "the map (%d by %d)", xv, yv, w, h);
    out->x = (int16_t)xv;
    out->y = (int16_t)yv;
    return FRAY_OK;
}

/* The engine's own steps: nothing but the action. */
static const ft_command no_command = {
    .action = FT_CMD_PHASE, .actor = -1, .target = -1, .weapon = -1,
    .hold_who = -1, .skill = -1, .chip = -1, .condition = -1, .ally = -1};

/* The command of an event line (docs/journal.md "command"). */
static fray_status read_command(const jline *l, json_t *c, ft_command *cmd) {
    const ft_setup *s = l->s;
    jseg path[JPATH_MAX] = {{"command", 0}, {NULL, 0}};
    *cmd = no_command;
    if (!json_is_object(c))
        return fray__diag_set(l->j.diag, FRAY_ERR_PARSE, 0,
                              "each journal line needs a \"command\" object");
    path[1].key = "action";
    json_t *av = json_object_get(c, "action");
    const char *action = json_string_value(av);
    if (!action)
        return av ? field_error(l, path, 2, "expected an action's name")
                  : fray__diag_set(l->j.diag, FRAY_ERR_PARSE,
                                   js_column(l, path, 1),
                                   "the command has no \"action\"");
    int a = -1;
    if (strcmp(action, "begin") == 0)
        a = FT_CMD_BEGIN;
    else if (strcmp(action, "phase") == 0 || strcmp(action, "next") == 0)
        a = FT_CMD_PHASE;
    for (int i = 0; i < FT_ACTION_COUNT && a < 0; i++)
        if (strcmp(ft_actions[i].name, action) == 0)
            a = i;
    if (a < 0)
        return field_error(l, path, 2, "unknown action \"%.40s\"", action);
    cmd->action = (uint8_t)a;
    if (a >= FT_ACTION_COUNT)
        return FRAY_OK; /* the engine's own steps read nothing else */

    fray_status rc;
    int who;
    bool b;
    path[1].key = "actor";
    if ((rc = read_combatant(l, c, path, 2, &who)) != FRAY_OK)
        return rc;
    if (who < 0)
        return field_error(l, path, 2, "an action needs the combatant who "
                           "acts");
    cmd->actor = (int8_t)who;
    const ft_statblock *sb = &s->c[who].sb;
    path[1].key = "target";
    if ((rc = read_combatant(l, c, path, 2, &who)) != FRAY_OK)
        return rc;
    cmd->target = (int8_t)who;
    path[1].key = "ally";
    if ((rc = read_combatant(l, c, path, 2, &who)) != FRAY_OK)
        return rc;
    cmd->ally = (int8_t)who;
    path[1].key = "hold_who";
    if ((rc = read_combatant(l, c, path, 2, &who)) != FRAY_OK)
        return rc;
    cmd->hold_who = (int8_t)who;
    /* Integers: key, range, default, where. */
    struct {
        const char *key;
        long long lo, hi, def;
        const char *what;
    } ints[] = {
        {"weapon", -1, sb->n_weapons - 1, -1,
         "one of the actor's weapons (-1 the one in the main hand, else "
         "its index)"},
        {"hold_kind", FT_HOLD_PHASE, FT_HOLD_CHOOSE, FT_HOLD_PHASE,
         "a kind of Hold (0 until a phase, 1 until an enemy comes within "
         "reach, 2 until a combatant acts, 3 until it chooses)"},
        {"hold_after", 0, 1, 0, "0 (before) or 1 (after)"},
        {"hold_phase", 0, INT32_MAX, 0, NULL},
        {"cost", 0, INT16_MAX, 0, NULL},
        {"skill", -1, sb->n_skills - 1, -1,
         "one of the actor's skills (its index)"},
        {"chip", -1, 2, -1, "a chip (0 white, 1 red, 2 blue; -1 none)"},
        {"condition", -1, FT_CONDITION_COUNT - 1, -1,
         "a condition (0 prone to 12 grappled; -1 any minor)"},
        {"element", 0, FT_ELEMENT_COUNT - 1, 0,
         "a mana element (0 neutral to 6 dark)"},
        {"dtn", 0, INT16_MAX, 0, NULL},
        {"off_weapon", -1, sb->n_weapons - 1, -1,
         "one of the actor's weapons drawn into the off hand (its index; "
         "-1 none)"},
        {"specialization", -1, FT_MAX_SPECS - 1, -1,
         "one of the skill's specializations (its index; -1 none)"},
        {"grapple_move", 0, FT_GM_COUNT - 1, 0,
         "a grapple move (0 none, 1 restrain, 2 squeeze, 3 slam, 4 throw, "
         "5 reverse)"},
        {"throw_land", 0, 8, 0,
         "where a thrown ally lands (0 as any throw, 1 north to 8 "
         "north-west)"},
        /* The GM's commands (gm.c) */
        {"gm_track", 0, FT_GM_TRACK_COUNT - 1, 0,
         "what the GM sets (1 STUN, 2 LETHAL, 3 temporary STUN, 4 "
         "temporary LETHAL)"},
        {"gm_value", -30000, 30000, 0, NULL},
        {"gm_condition", -1, FT_CONDITION_COUNT - 1, -1,
         "a condition (0 prone to 12 grappled; -1 none)"},
        {"gm_count", 0, 100, 0, NULL},
        {"gm_phase", -1, INT32_MAX - 1, -1, NULL},
        {"gm_flip", -10, 10, 0, NULL},
        {"gm_shift", -10, 10, 0, NULL},
        /* The GM's answers on the command (gm.c) */
        {"gm_high_ground", 0, 2, 0,
         "the GM's answer on high ground (1 yes, 2 no)"},
        {"gm_all_hold", 0, 2, 0,
         "the GM's answer when all hold (1 forced Delay, 2 the first acts)"},
        {"gm_strength_limit", -1, 31, 0,
         "the GM's strength limit (-1 none, else 1 + the most <PX>)"},
    };
    long long got[sizeof ints / sizeof ints[0]];
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
        path[1].key = ints[k].key;
        if ((rc = read_int(l, c, path, 2, ints[k].lo, ints[k].hi, ints[k].def,
                           ints[k].what, &got[k])) != FRAY_OK)
            return rc;
    }
    cmd->weapon = (int8_t)got[0];
    cmd->hold_kind = (int8_t)got[1];
    cmd->hold_after = (int8_t)got[2];
    cmd->hold_phase = (int32_t)got[3];
    cmd->cost = (int16_t)got[4];
    cmd->skill = (int8_t)got[5];
    cmd->chip = (int8_t)got[6];
    cmd->condition = (int8_t)got[7];
    cmd->element = (int8_t)got[8];
    cmd->dtn = (int16_t)got[9];
    cmd->draw_also = (int8_t)(got[10] + 1);
    cmd->skill_spec = (int8_t)(got[11] + 1);
    cmd->gm_track = (int8_t)got[14];
    cmd->gm_value = (int16_t)got[15];
    cmd->gm_cond = (int8_t)(got[16] + 1);
    cmd->gm_count = (int8_t)got[17];
    cmd->gm_phase = (int32_t)(got[18] + 1);
    cmd->gm_flip = (int8_t)got[19];
    cmd->gm_shift = (int8_t)got[20];
    cmd->gm_high = (int8_t)got[21];
    cmd->gm_all_hold = (int8_t)got[22];
    cmd->gm_limit = (int8_t)got[23];
    path[1].key = "gm_adjust";
    if ((rc = read_bool(l, c, path, 2, &b)) != FRAY_OK)
        return rc;
    cmd->gm_adjust = b;
    path[1].key = "gm_off";
    if ((rc = read_bool(l, c, path, 2, &b)) != FRAY_OK)
        return rc;
    cmd->gm_off = b;
    /* Seed 001 (duel.c): an opposed Use a Skill. */
    path[1].key = "target_skill";
    long long tsk;
    if ((rc = read_int(l, c, path, 2, -1,
                       cmd->target >= 0 ? s->c[cmd->target].sb.n_skills - 1
                                        : -1,
                       -1, "one of the target's skills (its index)", &tsk)) !=
        FRAY_OK)
        return rc;
    cmd->opp_skill = (int8_t)(tsk + 1);
    path[1].key = "target_aspect";
    if ((rc = read_int(l, c, path, 2, -1, FT_ASPECT_COUNT - 1, -1,
                       "an Aspect (0 HS to 8 PC)", &tsk)) != FRAY_OK)
        return rc;
    cmd->opp_aspect = (int8_t)(tsk + 1);
    path[1].key = "target_attribute";
    if ((rc = read_int(l, c, path, 2, -1, 2 * FT_ATTR_COUNT - 1, -1,
                       "an Attribute check (0 High Strength, 1 Low Strength, "
                       "... 7 Low Intellect)",
                       &tsk)) != FRAY_OK)
        return rc;
    cmd->opp_attribute = (int8_t)(tsk + 1);
    path[1].key = "opposed";
    if ((rc = read_bool(l, c, path, 2, &b)) != FRAY_OK)
        return rc;
    cmd->opposed = b;
    cmd->grapple_move = (uint8_t)got[12];
    cmd->throw_land = (uint8_t)got[13];
    path[1].key = "off_hand";
    if ((rc = read_bool(l, c, path, 2, &b)) != FRAY_OK)
        return rc;
    cmd->off_hand = b;
    path[1].key = "shift_first";
    if ((rc = read_bool(l, c, path, 2, &b)) != FRAY_OK)
        return rc;
    cmd->shift_first = b;
    path[1].key = "heal_lethal";
    if ((rc = read_bool(l, c, path, 2, &b)) != FRAY_OK)
        return rc;
    cmd->heal_lethal = b;
    path[1].key = "drop_prone";
    if ((rc = read_bool(l, c, path, 2, &b)) != FRAY_OK)
        return rc;
    cmd->drop_prone = b;
    path[1].key = "at_space";
    if ((rc = read_bool(l, c, path, 2, &b)) != FRAY_OK)
        return rc;
    cmd->at_space = b;
    path[1].key = "tumble"; /* tumble.c */
    if ((rc = read_bool(l, c, path, 2, &b)) != FRAY_OK)
        return rc;
    if (b && cmd->action != FT_ACT_MOVE && cmd->action != FT_ACT_RECKLESS_MOVE)
        return field_error(l, path, 2, "only a Combat Move or a Reckless "
                           "Move tumbles");
    cmd->tumble = b;
    path[1].key = "shift_to";
    if ((rc = read_pos(l, c, path, 2, &cmd->shift_to)) != FRAY_OK)
        return rc;
    path[1].key = "via";
    cmd->via = (fray_pos){-1, -1};
    if ((rc = read_pos(l, c, path, 2, &cmd->via)) != FRAY_OK)
        return rc;
    cmd->charge_via = cmd->via.x >= 0;
    if (!cmd->charge_via)
        cmd->via = (fray_pos){0, 0};
    path[1].key = "dest";
    if ((rc = read_pos(l, c, path, 2, &cmd->dest)) != FRAY_OK)
        return rc;
    /* towers-companion: stance, the second mover, a marked space. */
    path[1].key = "stance";
    json_t *sv = json_object_get(c, "stance");
    if (sv) {
        const char *st = json_string_value(sv);
        if (st && strcmp(st, "aggressive") == 0)
            cmd->stance = FT_STANCE_AGGRESSIVE;
        else if (st && strcmp(st, "defensive") == 0)
            cmd->stance = FT_STANCE_DEFENSIVE;
        else
            return field_error(l, path, 2, "expected \"aggressive\" or "
                               "\"defensive\"");
    }
    path[1].key = "also";
    if ((rc = read_combatant(l, c, path, 2, &who)) != FRAY_OK)
        return rc;
    cmd->also = (int8_t)(who + 1);
    path[1].key = "also_dest";
    if ((rc = read_pos(l, c, path, 2, &cmd->also_dest)) != FRAY_OK)
        return rc;
    path[1].key = "mark_space";
    if ((rc = read_bool(l, c, path, 2, &b)) != FRAY_OK)
        return rc;
    cmd->mark_space = b;
    /* issue 7: Use a Talent and the Hand of Fate exchange. */
    path[1].key = "talent";
    long long tl;
    if ((rc = read_int(l, c, path, 2, -1,
                       cmd->actor >= 0 ? s->c[cmd->actor].sb.n_talents - 1 : -1,
                       -1, "one of the actor's talents (its index)", &tl)) !=
        FRAY_OK)
        return rc;
    cmd->talent = (int8_t)(tl + 1);
    json_t *cv = json_object_get(c, "card");
    if (cv) {
        path[1].key = "card";
        fray_card card;
        const char *txt = json_string_value(cv);
        if (!txt || fray_card_parse(txt, &card, NULL) != FRAY_OK)
            return field_error(l, path, 2, "expected a card (like \"KH\", "
                               "\"10S\", \"JK\")");
        cmd->card = (uint8_t)(card + 1);
    }
    return FRAY_OK;
}

/* Reads one event line into ev (docs/journal.md). */
static fray_status read_event(const jline *l, json_t *o, ft_event *ev) {
    const ft_setup *s = l->s;
    memset(ev, 0, offsetof(ft_event, cards));
    ev->n_choices = 0;
    ev->n_facts = 0;
    fray_status rc = read_command(l, json_object_get(o, "command"), &ev->cmd);
    if (rc != FRAY_OK)
        return rc;
    jseg path[JPATH_MAX] = {{"cards_given", 0}};
    bool given;
    if ((rc = read_bool(l, o, path, 1, &given)) != FRAY_OK)
        return rc;
    ev->cards_given = given;
    /* A begin event whose tie flip-off went the fair way of issue 11 says
     * so; without the key it replays the pairwise way of before. */
    path[0].key = "flip_off_rounds";
    if ((rc = read_bool(l, o, path, 1, &given)) != FRAY_OK)
        return rc;
    ev->flip_off_rounds = given;

    path[0].key = "cards";
    json_t *cards = json_object_get(o, "cards");
    if (cards && !json_is_array(cards))
        return field_error(l, path, 1, "expected a list of [card, deck]");
    size_t i;
    json_t *v;
    json_array_foreach(cards, i, v) {
        path[1] = (jseg){NULL, (int)i};
        if (i >= FT_EVENT_CARDS)
            return field_error(l, path, 2, "more than %d cards in one event",
                               FT_EVENT_CARDS);
        const char *txt = json_string_value(json_array_get(v, 0));
        if (!json_is_array(v) || json_array_size(v) != 2)
            return field_error(l, path, 2, "expected [card, deck]");
        path[2] = (jseg){NULL, 0};
        fray_card card;
        if (!txt || fray_card_parse(txt, &card, NULL) != FRAY_OK)
            return field_error(l, path, 3, "expected a card (like \"KH\", "
                               "\"10S\", \"JK\")");
        path[2].index = 1;
        long long deck;
        if ((rc = read_int(l, v, path, 3, 0, s->n_decks - 1, -1,
                           "one of the encounter's decks", &deck)) !=
            FRAY_OK)
            return rc;
        ev->cards[i] = card;
        ev->card_deck[i] = (uint8_t)deck;
        ev->n_cards = (int16_t)(i + 1);
    }

    path[0].key = "choices";
    json_t *choices = json_object_get(o, "choices");
    if (choices && !json_is_array(choices))
        return field_error(l, path, 1, "expected a list of choices");
    json_array_foreach(choices, i, v) {
        path[1] = (jseg){NULL, (int)i};
        if (i >= FT_EVENT_CHOICES)
            return field_error(l, path, 2, "more than %d choices in one "
                               "event", FT_EVENT_CHOICES);
        if (!json_is_object(v))
            return field_error(l, path, 2, "expected a choice {\"kind\": "
                               "..., \"who\": ..., \"a\": ..., \"b\": ...}");
        long long kind, a, b;
        int who;
        path[2] = (jseg){"kind", 0};
        if ((rc = read_int(l, v, path, 3, FT_CHOICE_FATE_SWAP, FT_CHOICE_NONE,
                           FT_CHOICE_NONE,
                           "a kind of choice (0 fate-swap, 1 fate-reflip, 2 "
                           "chip-shift, 3 chip-flip, 4 opportunity, 5 a "
                           "round of choices)", &kind)) != FRAY_OK)
            return rc;
        path[2].key = "who";
        if ((rc = read_combatant(l, v, path, 3, &who)) != FRAY_OK)
            return rc;
        /* a and b by kind (docs/journal.md "choices"). */
        long long alo = INT8_MIN, ahi = INT8_MAX, blo = INT8_MIN,
                  bhi = INT8_MAX;
        const char *awhat = NULL, *bwhat = NULL;
        switch (kind) {
        case FT_CHOICE_FATE_SWAP:
            alo = 0;
            ahi = FT_EVENT_CARDS - 1 < INT8_MAX ? FT_EVENT_CARDS - 1 : INT8_MAX;
            awhat = "a place in the flip (from 0)";
            blo = 0;
            bhi = FRAY_CARDS_MAX - 1;
            bwhat = "a card's id (0 to 53: suit * 13 + rank - 2, Jokers 52 "
                    "and 53)";
            break;
        case FT_CHOICE_FATE_REFLIP:
            blo = 0;
            bhi = FRAY_CARDS_MAX - 1;
            bwhat = "a card's id (0 to 53: suit * 13 + rank - 2, Jokers 52 "
                    "and 53)";
            break;
        case FT_CHOICE_CHIP_SHIFT:
        case FT_CHOICE_CHIP_FLIP:
            blo = 0;
            bhi = 2;
            bwhat = "a chip (0 white, 1 red, 2 blue)";
            break;
        case FT_CHOICE_OPPORTUNITY:
            alo = 0;
            ahi = s->n_combatants - 1;
            awhat = "a combatant of this encounter (the one who reacts)";
            blo = 0;
            bhi = 1;
            bwhat = "1 (taken) or 0 (declined)";
            break;
        default:
            break;
        }
        path[2].key = "a";
        if ((rc = read_int(l, v, path, 3, alo, ahi, 0, awhat, &a)) != FRAY_OK)
            return rc;
        path[2].key = "b";
        if ((rc = read_int(l, v, path, 3, blo, bhi, 0, bwhat, &b)) != FRAY_OK)
            return rc;
        ft_choice *ch = &ev->choices[i];
        ch->kind = (uint8_t)kind;
        ch->who = (int8_t)who;
        ch->a = (int8_t)a;
        ch->b = (int8_t)b;
        ev->n_choices = (int16_t)(i + 1);
    }
    return FRAY_OK;
}

/* The seed and trial of a line, read from its text: any unsigned 64-bit
 * number (jansson's integers stop at 2^63 - 1). In `copy`, the line
 * jansson reads, each such number of a key "seed" or "trial" (at any
 * depth: the summary line has its seed too) becomes a 0 padded with
 * spaces, so that the columns stay; those of the line's own object are
 * kept in *out. */
fray_status ft_rf_event_read(const void *setup, const fray__jline *l,
                             const void *json_object, uint8_t *out,
                             size_t *out_len, fray_diag *diag) {
    const fray_towers_setup *ts = setup;
    jline tl = {*l, &ts->s};
    tl.j.diag = diag;
    ft_event *ev = malloc(sizeof *ev);
    if (!ev)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    fray_status rc = read_event(&tl, (json_t *)(uintptr_t)json_object, ev);
    if (rc == FRAY_OK)
        *out_len = ft_event_pack(ev, out);
    free(ev);
    return rc;
}

/* ---- Journals (the layer's) ------------------------------------------------------ */

FRAY_API size_t fray_towers_journal_mark(fray_towers_mark mark, int n,
                                         char *buf, size_t size) {
    return fray_journal_mark(mark == FRAY_TOWERS_MARK_UNDO   ? FRAY_MARK_UNDO
                             : mark == FRAY_TOWERS_MARK_REDO ? FRAY_MARK_REDO
                                                             : FRAY_MARK_END,
                             n, buf, size);
}

FRAY_API fray_status fray_towers_fight_replay(fray_towers_fight *f,
                                              const char *jsonl,
                                              fray_diag *diag) {
    return fray_towers_fight_replay_journal(f, jsonl, strlen(jsonl), NULL,
                                            diag);
}

FRAY_API fray_status fray_towers_fight_replay_journal(
    fray_towers_fight *f, const char *text, size_t len,
    fray_towers_replay_info *out_info, fray_diag *diag) {
    fray_replay_info info;
    memset(&info, 0, sizeof info);
    fray_status rc =
        f->jf ? fray_fight_replay_journal(f->jf, text, len, &info, diag)
              : fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                               "replay needs a fight that keeps a journal");
    if (out_info) {
        out_info->lines = info.lines;
        out_info->ended = info.ended;
        out_info->torn = info.torn;
    }
    sync(f);
    return rc;
}

bool ft_rf_same(const void *a_, const void *b_) {
    const fray_towers_fight *a = a_, *b = b_;
    const ft_state *x = &a->st, *y = &b->st;
    if (x->phase != y->phase || x->n != y->n || x->over != y->over ||
        x->winner != y->winner || x->n_decks != y->n_decks ||
        x->n_events != y->n_events || x->rng.state != y->rng.state ||
        x->rng.inc != y->rng.inc || x->companion_alone != y->companion_alone ||
        x->pairs != y->pairs || x->stance_chosen != y->stance_chosen ||
        x->fate_exchanged != y->fate_exchanged)
        return false;
    if (memcmp(x->c, y->c, (size_t)x->n * sizeof x->c[0]) != 0)
        return false;
    for (int d = 0; d < x->n_decks; d++) {
        const fray_deck *p = &x->decks[d], *q = &y->decks[d];
        if (p->n_draw != q->n_draw || p->n_discard != q->n_discard ||
            memcmp(p->place, q->place, sizeof p->place) != 0 ||
            memcmp(p->draw, q->draw, p->n_draw) != 0 ||
            memcmp(p->discard, q->discard, p->n_discard) != 0)
            return false;
    }
    /* Seed 000 "Dueling" (duel.c). */
    if (memcmp(x->duel_margin, y->duel_margin, sizeof x->duel_margin) != 0 ||
        x->duel_end != y->duel_end || x->duel_blood != y->duel_blood ||
        memcmp(x->duel_held_stun, y->duel_held_stun,
               sizeof x->duel_held_stun) != 0 ||
        memcmp(x->duel_held_lethal, y->duel_held_lethal,
               sizeof x->duel_held_lethal) != 0 ||
        memcmp(x->duel_held_src, y->duel_held_src,
               sizeof x->duel_held_src) != 0 ||
        x->duel_held_phase != y->duel_held_phase)
        return false;
    return true;
}

FRAY_API fray_towers_fight *fray_towers_fight_of(fray_fight *f) {
    return fray_setup_ruleset_data(fray_fight_setup(f)) &&
                   strcmp(fray_setup_rules(fray_fight_setup(f)),
                          fray__towers_ruleset.name) == 0
               ? fray__fight_rf(f)
               : NULL;
}

FRAY_API bool fray_towers_fight_same(const fray_towers_fight *a,
                                     const fray_towers_fight *b) {
    return ft_rf_same(a, b);
}

/* Issue 19 (chances.c): a table command read as ft_rf_command reads it,
 * with the number of its Hand of Fate, chip and opportunity words. */
fray_status ft_table_parse(const ft_setup *s, const char *text,
                           ft_command *cmd, int *n_words, fray_diag *diag) {
    struct ft_table table;
    fray_status rc = parse_command(s, text, cmd, &table, diag);
    *n_words = rc == FRAY_OK ? table.n : 0;
    return rc;
}

/* duelquick (quick.c): run_quiet's choice, for the duel shortcut. */
void ft_fight_choose(fray_towers_fight *f, int next, ft_command *cmd,
                     bool *checked) {
    choose(f, next, cmd, checked);
}
