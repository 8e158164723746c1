/*
 * fight.c - the public face of 99 Towers encounters (include/fray/
 * encounter.h): fights, the journal, undo and redo, table commands and
 * replay of JSON Lines journals.
 */
#include "towers_int.h"

#include <assert.h>
#include <ctype.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- The journal ---------------------------------------------------------
 *
 * An event is applied in the fight's scratch ft_event, which is sized for
 * the largest event there can be (the begin event of 32 combatants: a few
 * thousand cards, hundreds of facts; about 27 KB). Most events use a few
 * of its cards and facts, so the journal keeps each one packed: its header
 * (up to ft_event.cards), then as many cards, card decks, choices and facts
 * as it has. A Forced Delay costs about 110 bytes, a clock step about 170
 * (issue 11: an idle fight kept 3.3 KB per event, 1.9 GB over a long
 * phase limit); a quiet stretch of phases costs nothing (one clock step
 * passes them all). docs/architecture.md "The journal and its memory"
 * has the bound. The room for one more event of any size is reserved
 * before a command is applied, so that a journal that cannot grow fails
 * the step before anything changed.
 */

enum { FT_PACKED_HEAD = offsetof(ft_event, cards) };

static size_t packed_size(const ft_event *ev) {
    return FT_PACKED_HEAD + 2 * (size_t)ev->n_cards + 2 * sizeof(int16_t) +
           (size_t)ev->n_choices * sizeof(ft_choice) +
           (size_t)ev->n_facts * sizeof(ft_fact);
}

/* The most one packed event can take. */
static size_t packed_max(void) {
    return FT_PACKED_HEAD + 2 * (size_t)FT_EVENT_CARDS + 2 * sizeof(int16_t) +
           FT_EVENT_CHOICES * sizeof(ft_choice) +
           FT_EVENT_FACTS * sizeof(ft_fact);
}

/* Room for event f->n_events (forgetting any undone ones), of any size:
 * FRAY_ERR_NOMEM when the journal cannot grow (nothing changed then). */
static fray_status journal_reserve(fray_towers_fight *f) {
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
    size_t need = f->joff[f->n_events] + packed_max();
    if (need > f->jcap) {
        size_t cap = f->jcap ? f->jcap : packed_max();
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

/* Appends ev, just applied, as event f->n_events: room was reserved
 * (journal_reserve), so this cannot fail. A new event forgets what was
 * undone. */
static void journal_push(fray_towers_fight *f, const ft_event *ev) {
    uint8_t *p = f->jbuf + f->joff[f->n_events];
    assert(f->n_events < f->cap_events &&
           f->joff[f->n_events] + packed_size(ev) <= f->jcap);
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
    f->joff[f->n_events + 1] = f->joff[f->n_events] + packed_size(ev);
    assert(f->joff[f->n_events + 1] == (size_t)(p - f->jbuf));
    f->n_events++;
    f->n_recorded = f->n_events;
}

const ft_event *ft_fight_event(const fray_towers_fight *f, int i,
                               ft_event *buf) {
    if (!f->opt.journal || i < 0 || i >= f->n_recorded)
        return NULL;
    const uint8_t *p = f->jbuf + f->joff[i];
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
    assert(p + (size_t)buf->n_facts * sizeof(ft_fact) ==
           f->jbuf + f->joff[i + 1]);
    return buf;
}

/* Where the next event is applied: the scratch event, after making room
 * in the journal for it when the fight keeps one (NULL: no room). */
static ft_event *next_slot(fray_towers_fight *f) {
    if (f->opt.journal && journal_reserve(f) != FRAY_OK)
        return NULL;
    return &f->scratch;
}

/* Recorded event i (0 <= i < n_recorded), unpacked into the scratch event
 * to be applied again. */
static ft_event *unpack(fray_towers_fight *f, int i) {
    const ft_event *ev = ft_fight_event(f, i, &f->scratch);
    assert(ev == &f->scratch);
    (void)ev; /* (only checked) */
    return &f->scratch;
}

/* The event next_slot gave, applied: into the journal (when kept). */
static void journal_commit(fray_towers_fight *f, const ft_event *ev) {
    if (f->opt.journal)
        journal_push(f, ev);
}

static void run_init(fray_towers_fight *f, ft_run *r, ft_event *ev,
                     fray_diag *diag, ft_hooks *table_hooks) {
    memset(r, 0, sizeof *r);
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
    fray_status rc = ft_apply_next(&r, next);
    f->memo.valid = false;
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
    if (rc != FRAY_OK && backup)
        f->st = *backup;
    if (backup)
        fray__free(&f->alloc, backup, sizeof *backup);
    if (rc != FRAY_OK)
        return rc;
    if (cards)
        ev->n_cards = (int16_t)r.card_i;
    journal_commit(f, ev);
    return FRAY_OK;
}

fray_status ft_fight_apply(fray_towers_fight *f, const ft_command *cmd,
                           const fray_card *cards, size_t n_cards,
                           fray_diag *diag) {
    return apply_cmd(f, cmd, cards, n_cards, diag, false, FT_NEXT_UNKNOWN);
}

static bool phase_limit_reached(const fray_towers_fight *f, int next) {
    int limit = f->opt.until_phase > 0 ? f->opt.until_phase
                                       : f->setup->s.opt.max_phase;
    return limit > 0 && f->st.c[next].phase > limit;
}

/* ---- Fights ------------------------------------------------------------------ */

FRAY_API fray_status fray_towers_fight_new(const fray_towers_setup *setup,
                                           uint64_t seed,
                                           const fray_towers_fight_options *opts,
                                           const fray_allocator *alloc,
                                           fray_towers_fight **out) {
    *out = NULL;
    fray_towers_fight *f = fray__alloc(alloc, sizeof *f);
    if (!f)
        return FRAY_ERR_NOMEM;
    memset(f, 0, sizeof *f);
    if (alloc)
        f->alloc = *alloc;
    f->setup = setup;
    if (opts)
        f->opt = *opts;
    if (f->opt.journal && journal_reserve(f) != FRAY_OK) {
        fray_towers_fight_free(f);
        return FRAY_ERR_NOMEM;
    }
    /* A quiet fight of a few combatants remembers its decisions (without
     * the room for them it is only slower). */
    if (!f->opt.journal && !f->opt.facts &&
        setup->s.n_combatants <= FT_DECIDE_MAX_N) {
        f->decide = fray__alloc(&f->alloc, sizeof *f->decide);
        if (f->decide)
            memset(f->decide, 0, sizeof *f->decide);
    }
    fray_status rc = fray_towers_fight_reset(f, seed);
    if (rc != FRAY_OK) {
        fray_towers_fight_free(f);
        return rc;
    }
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
    f->seed = seed;
    f->trial = trial;
    f->n_events = 0;
    f->n_recorded = 0;
    f->paths.valid = false;
    f->memo.valid = false;
    ft_state_reset_trial(&f->setup->s, &f->st, seed, trial);
    ft_command begin;
    memset(&begin, 0, sizeof begin);
    begin.action = FT_CMD_BEGIN;
    begin.actor = -1;
    begin.target = -1;
    /* The journal has room for its first event, but the initiative flips
     * may still fail (a deck too small for them, say): then the fight
     * cannot start, and says so (issue 11: it went on without initiative).
     * (Without journal or table, as fray_towers_fight_step applies.) */
    fray_status rc = !f->opt.journal && !f->table
                         ? apply_quiet(f, &begin, false, FT_NEXT_UNKNOWN)
                         : ft_fight_apply(f, &begin, NULL, 0, NULL);
    f->failed = rc;
    return rc;
}

FRAY_API void fray_towers_fight_free(fray_towers_fight *f) {
    if (!f)
        return;
    fray_allocator a = f->alloc;
    fray__free(&a, f->jbuf, f->jcap);
    fray__free(&a, f->joff,
               f->joff ? ((size_t)f->cap_events + 1) * sizeof *f->joff : 0);
    fray__free(&a, f->decide, sizeof *f->decide);
    fray__free(&a, f, sizeof *f);
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

FRAY_API fray_status fray_towers_fight_step(fray_towers_fight *f) {
    ft_state *st = &f->st;
    if (f->failed != FRAY_OK)
        return f->failed;
    if (st->over)
        return FRAY_ERR_INVALID;
    int next = ft_next_actor(st);
    if (next < 0 || phase_limit_reached(f, next)) {
        /* Nobody can act any more, or the phase limit: no winner. */
        st->over = true;
        st->winner = -1;
        return FRAY_OK;
    }
    ft_command cmd;
    bool checked = false;
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
                return ft_fight_apply(f, cmd, NULL, 0, NULL);
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
        memset(cmd, 0, sizeof *cmd);
        cmd->action = FT_ACT_DELAY;
        cmd->actor = (int8_t)next;
        cmd->target = cmd->weapon = cmd->ally = cmd->condition = -1;
        cmd->hold_who = cmd->skill = cmd->chip = -1;
        rc = ft_fight_apply(f, cmd, NULL, 0, NULL);
        if (rc == FRAY_ERR_INVALID) {
            /* No Forced Delay after a free action this phase: Full
             * Defense then. */
            cmd->action = FT_ACT_FULL_DEFENSE;
            rc = ft_fight_apply(f, cmd, NULL, 0, NULL);
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

FRAY_API fray_status fray_towers_fight_run(fray_towers_fight *f) {
    if (f->failed != FRAY_OK)
        return f->failed;
    if (!f->opt.journal && !f->opt.facts && !f->table)
        return run_quiet(f);
    for (int k = 1; !f->st.over; k++) {
        if (k % FT_CANCEL_EVERY == 0 && f->cancel &&
            atomic_load_explicit(f->cancel, memory_order_relaxed))
            return FRAY_ERR_CANCELED;
        fray_status rc = fray_towers_fight_step(f);
        if (rc != FRAY_OK)
            return rc;
    }
    return FRAY_OK;
}

/* ---- Undo and redo ------------------------------------------------------------ */

FRAY_API int fray_towers_fight_events(const fray_towers_fight *f) {
    return f->opt.journal ? f->n_events : (int)f->st.n_events;
}

/* Rebuilds the state from the seed and the first n events. */
static fray_status rebuild(fray_towers_fight *f, int n) {
    ft_state_reset_trial(&f->setup->s, &f->st, f->seed, f->trial);
    for (int i = 0; i < n; i++) {
        fray_status rc = reapply(f, unpack(f, i), NULL);
        if (rc != FRAY_OK)
            return rc;
    }
    return FRAY_OK;
}

FRAY_API fray_status fray_towers_fight_undo(fray_towers_fight *f) {
    /* After a failed step, undo takes back that step (which the journal
     * never got): the state before it, the journal as it is. */
    int keep = f->failed != FRAY_OK ? f->n_events : f->n_events - 1;
    if (!f->opt.journal || keep < 1)
        return FRAY_ERR_INVALID;
    /* Replaying from the start restores everything the event changed: the
     * clock, durations, decks and the random stream. */
    fray_status rc = rebuild(f, keep);
    if (rc == FRAY_OK) {
        f->n_events = keep;
        f->failed = FRAY_OK; /* a state the journal gives, whole again */
    } else {
        f->failed = rc;
    }
    return rc;
}

FRAY_API fray_status fray_towers_fight_redo(fray_towers_fight *f) {
    if (!f->opt.journal || f->n_events >= f->n_recorded)
        return FRAY_ERR_INVALID;
    fray_status rc = reapply(f, unpack(f, f->n_events), NULL);
    if (rc == FRAY_OK)
        f->n_events++;
    else
        f->failed = rc;
    return rc;
}

/* ---- Table commands ------------------------------------------------------------ */

typedef struct lexer {
    const char *text;
    const char *p;
    char tok[64];
    int col; /* 1-based column of tok */
} lexer;

static bool lex_next(lexer *lx) {
    while (*lx->p && isspace((unsigned char)*lx->p))
        lx->p++;
    if (!*lx->p) {
        lx->tok[0] = '\0';
        return false;
    }
    lx->col = (int)(lx->p - lx->text) + 1;
    size_t n = 0;
    while (*lx->p && !isspace((unsigned char)*lx->p)) {
        if (n + 1 < sizeof lx->tok)
            lx->tok[n++] = *lx->p;
        lx->p++;
    }
    lx->tok[n] = '\0';
    return true;
}

static bool same_word(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

/* A combatant by id or by name with '-' for spaces. */
static int find_combatant(const ft_setup *s, const char *tok) {
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

static bool parse_pos(const char *tok, fray_pos *out) {
    int x, y;
    char tail;
    if (sscanf(tok, "%d,%d%c", &x, &y, &tail) != 2 || x < 0 || y < 0 ||
        x >= FRAY_GRID_MAX || y >= FRAY_GRID_MAX)
        return false;
    out->x = (int16_t)x;
    out->y = (int16_t)y;
    return true;
}

static bool parse_int(const char *tok, int lo, int hi, int *out) {
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
            (d->who = (int8_t)find_combatant(s, lx->tok)) < 0)
            return lex_error(lx, diag, "expected who declines ('all' or an "
                             "id)");
    } else { /* chip ID shift|flip [colour] */
        if (!lex_next(lx) || (d->who = (int8_t)find_combatant(s, lx->tok)) < 0)
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
    return lex_next(&peek) && find_combatant(s, peek.tok) >= 0;
}

static fray_status parse_command(const ft_setup *s, const char *text,
                                 ft_command *cmd, struct ft_table *table,
                                 fray_diag *diag) {
    table->n = 0;
    lexer lx = {text, text, "", 1};
    memset(cmd, 0, sizeof *cmd);
    cmd->target = cmd->weapon = cmd->ally = cmd->condition = -1;
    cmd->hold_who = cmd->skill = cmd->chip = -1;
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
    int actor = find_combatant(s, lx.tok);
    if (actor < 0)
        return lex_error(&lx, diag, "expected a combatant's id");
    cmd->actor = (int8_t)actor;
    const ft_statblock *sb = &s->c[actor].sb;
    if (!lex_next(&lx))
        return lex_error(&lx, diag, "expected an action");
    if (same_word(lx.tok, "shift")) {
        /* "shift X,Y" alone, or "shift X,Y then ACTION ...". */
        if (!lex_next(&lx) || !parse_pos(lx.tok, &cmd->shift_to))
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
    int action = -1;
    for (int i = 0; i < FT_ACTION_COUNT; i++)
        if (same_word(ft_actions[i].name, lx.tok))
            action = i;
    if (action < 0)
        return lex_error(&lx, diag, "expected an action (attack, move, aim, "
                         "power-attack, recover, hold, ...; see "
                         "docs/file-formats.md \"Commands\")");
    cmd->action = (uint8_t)action;
    const ft_action_info *info = &ft_actions[action];
    while (lex_next(&lx)) {
        int v;
        fray_pos p;
        if (same_word(lx.tok, "with") || same_word(lx.tok, "weapon")) {
            if (!lex_next(&lx) || (v = find_weapon(sb, lx.tok)) < 0)
                return lex_error(&lx, diag, "expected one of the combatant's "
                                 "weapons");
            cmd->weapon = (int8_t)v;
        } else if (same_word(lx.tok, "off-hand")) {
            cmd->off_hand = true;
        } else if (same_word(lx.tok, "lethal")) {
            cmd->heal_lethal = true;
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
            if (!lex_next(&lx) || (v = find_combatant(s, lx.tok)) < 0)
                return lex_error(&lx, diag, "expected the ally's id");
            cmd->ally = (int8_t)v;
        } else if (same_word(lx.tok, "cost")) {
            if (!lex_next(&lx) || !parse_int(lx.tok, 0, 100, &v))
                return lex_error(&lx, diag, "expected a cost of 0-100 phases");
            cmd->cost = (int16_t)v;
        } else if (same_word(lx.tok, "dtn")) {
            if (!lex_next(&lx) || !parse_int(lx.tok, 1, 100, &v))
                return lex_error(&lx, diag, "expected a DTN of 1-100");
            cmd->dtn = (int16_t)v;
        } else if (same_word(lx.tok, "until")) {
            if (!lex_next(&lx))
                return lex_error(&lx, diag, "expected a phase, a combatant "
                                 "or 'enemy-in-reach'");
            if (parse_int(lx.tok, 0, 1000000, &v)) {
                cmd->hold_kind = FT_HOLD_PHASE;
                cmd->hold_phase = v;
            } else if (same_word(lx.tok, "enemy-in-reach")) {
                cmd->hold_kind = FT_HOLD_ENEMY_IN_REACH;
            } else if ((v = find_combatant(s, lx.tok)) >= 0) {
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
            if (!lex_next(&lx) || (v = find_combatant(s, lx.tok)) < 0)
                return lex_error(&lx, diag, "expected a combatant's id");
            cmd->hold_who = (int8_t)v;
        } else if (parse_pos(lx.tok, &p)) {
            cmd->dest = p;
        } else if ((v = find_combatant(s, lx.tok)) >= 0) {
            cmd->target = (int8_t)v;
        } else if (action == FT_ACT_DRAW_WEAPON &&
                   (v = find_weapon(sb, lx.tok)) >= 0) {
            cmd->weapon = (int8_t)v;
        } else if (action == FT_ACT_USE_SKILL) {
            int k = -1;
            for (int i = 0; i < sb->n_skills; i++)
                if (same_word(sb->skills[i].name, lx.tok))
                    k = i;
            if (k < 0)
                return lex_error(&lx, diag, "expected one of the combatant's "
                                 "skills");
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
    if ((info->flags & FT_AF_TARGET) && cmd->target < 0)
        return lex_error(&lx, diag, "expected a target's id");
    if (action == FT_ACT_CHIP_HEAL && cmd->chip < 0)
        cmd->chip = 1;
    return FRAY_OK;
}

FRAY_API fray_status fray_towers_fight_command(fray_towers_fight *f,
                                               const char *command,
                                               const fray_card *cards,
                                               size_t n_cards,
                                               fray_diag *diag) {
    if (f->failed != FRAY_OK)
        return fray__diag_set(diag, f->failed, 0,
                              "the fight cannot go on after a failed step: "
                              "undo it, or start again");
    ft_command cmd;
    struct ft_table table;
    fray_status rc = parse_command(&f->setup->s, command, &cmd, &table, diag);
    if (rc != FRAY_OK)
        return rc;
    fray_diag local;
    if (!diag)
        diag = &local;
    f->table = &table;
    rc = ft_fight_apply(f, &cmd, cards, n_cards, diag);
    f->table = NULL;
    return rc;
}

FRAY_API size_t fray_towers_fight_hand(const fray_towers_fight *f,
                                      const char *id, fray_card *out,
                                      size_t cap) {
    int c = find_combatant(&f->setup->s, id);
    if (c < 0)
        return 0;
    return fray_deck_held(&f->st.decks[f->setup->s.c[c].deck], out, cap);
}

/* ---- Renderings ---------------------------------------------------------------- */

/* Event i of those applied, unpacked into *buf (NULL: none). */
static const ft_event *event_at(const fray_towers_fight *f, int i,
                                ft_event *buf) {
    if (i >= f->n_events)
        return NULL;
    return ft_fight_event(f, i, buf);
}

FRAY_API const char *fray_towers_event_action(const fray_towers_fight *f,
                                              int i) {
    ft_event one;
    const ft_event *ev = event_at(f, i, &one);
    if (!ev)
        return NULL;
    switch (ev->cmd.action) {
    case FT_CMD_BEGIN:
        return "begin";
    case FT_CMD_PHASE:
        return "phase";
    default:
        return ev->cmd.action < FT_ACTION_COUNT ? ft_actions[ev->cmd.action].name
                                                : NULL;
    }
}

FRAY_API size_t fray_towers_event_narrate(const fray_towers_fight *f, int i,
                                          char *buf, size_t size) {
    ft_event one;
    const ft_event *ev = event_at(f, i, &one);
    if (!ev) {
        if (size)
            buf[0] = '\0';
        return 0;
    }
    return ft_render_event(&f->setup->s, ev, buf, size);
}

FRAY_API int fray_towers_fight_recorded(const fray_towers_fight *f) {
    return f->opt.journal ? f->n_recorded : fray_towers_fight_events(f);
}

FRAY_API size_t fray_towers_event_json(const fray_towers_fight *f, int i,
                                       char *buf, size_t size) {
    /* The events undone and kept for redo too (a journal that keeps them
     * writes them, then its undo marks). */
    ft_event one;
    const ft_event *ev = ft_fight_event(f, i, &one);
    if (!ev) {
        if (size)
            buf[0] = '\0';
        return 0;
    }
    if (i != 0)
        return ft_render_event_json(&f->setup->s, ev, buf, size);
    /* The first line also carries the seed the decks were shuffled with
     * (docs/journal.md): "{" + "\"seed\":N," + the rest. */
    char head[80];
    int hn = f->trial == 0
                 ? snprintf(head, sizeof head, "\"seed\":%llu,",
                            (unsigned long long)f->seed)
                 : snprintf(head, sizeof head, "\"seed\":%llu,\"trial\":%llu,",
                            (unsigned long long)f->seed,
                            (unsigned long long)f->trial);
    size_t n = ft_render_event_json(&f->setup->s, ev, NULL, 0);
    size_t total = n + (size_t)hn;
    if (size == 0)
        return total;
    if (size > total) {
        ft_render_event_json(&f->setup->s, ev, buf + hn, n + 1);
        /* buf+hn starts with '{': move it to the front, the seed after. */
        buf[0] = '{';
        memcpy(buf + 1, head, (size_t)hn);
        return total;
    }
    /* Too small: write what fits, snprintf-style. */
    char *tmp = fray__alloc(&f->alloc, total + 1);
    if (!tmp) {
        buf[0] = '\0';
        return total;
    }
    ft_render_event_json(&f->setup->s, ev, tmp + hn, n + 1);
    tmp[0] = '{';
    memcpy(tmp + 1, head, (size_t)hn);
    memcpy(buf, tmp, size - 1);
    buf[size - 1] = '\0';
    fray__free(&f->alloc, tmp, total + 1);
    return total;
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
    return ft_render_summary(&f->setup->s, &f->st, f->failed, buf, size);
}

/* ---- Replay of a JSON Lines journal --------------------------------------------- */

/*
 * A journal line is read twice: jansson reads the values, and a small scan
 * of the text itself finds what jansson cannot give: where a value sits
 * (the column of a message) and seeds past 2^63 (jansson's integers are
 * signed 64-bit; a seed is any unsigned 64-bit number, written in full).
 */

/* A step of a path to a value: an object's key, or (key NULL) an array's
 * element. */
typedef struct jseg {
    const char *key;
    int index;
} jseg;

enum { JPATH_MAX = 4 };

/* The line being read: its text as written (no NUL inside, not
 * terminated), the encounter it replays on, and the diag for errors. */
typedef struct jline {
    const ft_setup *s;
    const char *text;
    size_t len;
    fray_diag *diag;
} jline;

static size_t js_ws(const char *p, size_t i, size_t n) {
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r'))
        i++;
    return i;
}

/* Just past the string that opens at p[i] ('"'). */
static size_t js_string_end(const char *p, size_t i, size_t n) {
    for (i++; i < n; i++) {
        if (p[i] == '\\')
            i++;
        else if (p[i] == '"')
            return i + 1;
    }
    return n;
}

/* Just past the value that starts at p[i]. */
static size_t js_skip(const char *p, size_t i, size_t n) {
    if (i >= n)
        return n;
    if (p[i] == '"')
        return js_string_end(p, i, n);
    if (p[i] == '{' || p[i] == '[') {
        int depth = 0;
        while (i < n) {
            if (p[i] == '"') {
                i = js_string_end(p, i, n);
                continue;
            }
            if (p[i] == '{' || p[i] == '[')
                depth++;
            else if ((p[i] == '}' || p[i] == ']') && --depth == 0)
                return i + 1;
            i++;
        }
        return n;
    }
    while (i < n && p[i] != ',' && p[i] != '}' && p[i] != ']' &&
           p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
        i++;
    return i;
}

/* The 1-based column of the value at path[0..depth) in the line (a line
 * jansson has read, so well formed), 0 when it is not there. Of a key
 * given twice the last counts, as for jansson. */
static int js_column(const jline *l, const jseg *path, int depth) {
    const char *p = l->text;
    size_t n = l->len;
    size_t i = js_ws(p, 0, n);
    for (int k = 0; k < depth; k++) {
        if (i >= n)
            return 0;
        if (path[k].key) {
            if (p[i] != '{')
                return 0;
            size_t klen = strlen(path[k].key);
            size_t found = SIZE_MAX;
            i = js_ws(p, i + 1, n);
            while (i < n && p[i] == '"') {
                size_t kend = js_string_end(p, i, n);
                bool match = kend - i == klen + 2 &&
                             memcmp(p + i + 1, path[k].key, klen) == 0;
                i = js_ws(p, kend, n);
                if (i < n && p[i] == ':')
                    i = js_ws(p, i + 1, n);
                if (match)
                    found = i;
                i = js_ws(p, js_skip(p, i, n), n);
                if (i < n && p[i] == ',')
                    i = js_ws(p, i + 1, n);
            }
            if (found == SIZE_MAX)
                return 0;
            i = found;
        } else {
            if (p[i] != '[')
                return 0;
            i = js_ws(p, i + 1, n);
            for (int e = 0; e < path[k].index; e++) {
                i = js_ws(p, js_skip(p, i, n), n);
                if (i >= n || p[i] != ',')
                    return 0;
                i = js_ws(p, i + 1, n);
            }
        }
    }
    return i < n && i < INT_MAX ? (int)i + 1 : 0;
}

/* "command.actor", "cards[2][1]", "choices[0].kind". */
static void js_path_name(const jseg *path, int depth, char *out, size_t size) {
    size_t len = 0;
    out[0] = '\0';
    for (int k = 0; k < depth && len < size; k++) {
        int w = path[k].key ? snprintf(out + len, size - len, "%s%s",
                                       k ? "." : "", path[k].key)
                            : snprintf(out + len, size - len, "[%d]",
                                       path[k].index);
        if (w < 0)
            break;
        len += (size_t)w;
    }
}

/* A field that cannot be read: "FIELD: message" at the value's column. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static fray_status field_error(const jline *l, const jseg *path, int depth,
                               const char *fmt, ...) {
    char name[96], msg[200];
    js_path_name(path, depth, name, sizeof name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return fray__diag_set(l->diag, FRAY_ERR_PARSE, js_column(l, path, depth),
                          "%s: %s", name, msg);
}

/* The value at the end of path, under its parent `parent`: an object's
 * member, or an array's element. */
static json_t *js_at(json_t *parent, const jseg *last) {
    return last->key ? json_object_get(parent, last->key)
                     : json_array_get(parent, (size_t)last->index);
}

/* An integer in [lo, hi]; def when absent. `what` (may be NULL) says
 * what the number is, in rules words, for the message. */
static fray_status read_int(const jline *l, json_t *parent, const jseg *path,
                            int depth, long long lo, long long hi,
                            long long def, const char *what,
                            long long *out) {
    json_t *v = js_at(parent, &path[depth - 1]);
    *out = def;
    if (!v && (def < lo || def > hi))
        return field_error(l, path, depth, "missing: expected an integer "
                           "from %lld to %lld", lo, hi);
    if (!v)
        return FRAY_OK;
    if (!json_is_integer(v))
        return field_error(l, path, depth, "expected an integer from %lld to "
                           "%lld", lo, hi);
    long long x = json_integer_value(v);
    if ((x < lo || x > hi) && what)
        return field_error(l, path, depth, "%lld is not %s", x, what);
    if (x < lo || x > hi)
        return field_error(l, path, depth, "%lld is out of range: from %lld "
                           "to %lld", x, lo, hi);
    *out = x;
    return FRAY_OK;
}

/* true or false; false when absent. */
static fray_status read_bool(const jline *l, json_t *parent, const jseg *path,
                             int depth, bool *out) {
    json_t *v = js_at(parent, &path[depth - 1]);
    *out = json_is_true(v);
    if (v && !json_is_boolean(v))
        return field_error(l, path, depth, "expected true or false");
    return FRAY_OK;
}

/* A combatant: its id (or display name), or its index; -1 when absent or
 * null. */
static fray_status read_combatant(const jline *l, json_t *parent,
                                  const jseg *path, int depth, int *out) {
    json_t *v = js_at(parent, &path[depth - 1]);
    const ft_setup *s = l->s;
    *out = -1;
    if (!v || json_is_null(v))
        return FRAY_OK;
    if (json_is_string(v)) {
        *out = find_combatant(s, json_string_value(v));
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
        return fray__diag_set(l->diag, FRAY_ERR_PARSE, 0,
                              "each journal line needs a \"command\" object");
    path[1].key = "action";
    json_t *av = json_object_get(c, "action");
    const char *action = json_string_value(av);
    if (!action)
        return av ? field_error(l, path, 2, "expected an action's name")
                  : fray__diag_set(l->diag, FRAY_ERR_PARSE,
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
        {"hold_kind", FT_HOLD_PHASE, FT_HOLD_ACTS, FT_HOLD_PHASE,
         "a kind of Hold (0 until a phase, 1 until an enemy comes within "
         "reach, 2 until a combatant acts)"},
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
    path[1].key = "shift_to";
    if ((rc = read_pos(l, c, path, 2, &cmd->shift_to)) != FRAY_OK)
        return rc;
    path[1].key = "dest";
    return read_pos(l, c, path, 2, &cmd->dest);
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
typedef struct jseed {
    bool has_seed, has_trial;
    uint64_t seed, trial;
} jseed;

static fray_status scan_seeds(const jline *l, char *copy, jseed *out) {
    const char *p = l->text;
    size_t n = l->len;
    int depth = 0;
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n;) {
        char c = p[i];
        if (c == '{' || c == '[') {
            depth++;
            i++;
            continue;
        }
        if (c == '}' || c == ']') {
            depth--;
            i++;
            continue;
        }
        if (c != '"') {
            i++;
            continue;
        }
        size_t end = js_string_end(p, i, n);
        bool seed = end - i == 6 && memcmp(p + i, "\"seed\"", 6) == 0;
        bool trial = end - i == 7 && memcmp(p + i, "\"trial\"", 7) == 0;
        i = end;
        if (!seed && !trial)
            continue;
        size_t v = js_ws(p, i, n);
        if (v >= n || p[v] != ':')
            continue;
        v = js_ws(p, v + 1, n);
        size_t e = v;
        while (e < n && p[e] >= '0' && p[e] <= '9')
            e++;
        /* Not a plain whole number (a sign, a fraction, a leading zero):
         * left to jansson, and refused below if it is the line's own. */
        if (e == v || (e < n && (p[e] == '.' || p[e] == 'e' || p[e] == 'E')) ||
            (p[v] == '0' && e - v > 1))
            continue;
        uint64_t x = 0;
        for (size_t k = v; k < e; k++) {
            unsigned d = (unsigned)(p[k] - '0');
            if (x > (UINT64_MAX - d) / 10)
                return fray__diag_set(l->diag, FRAY_ERR_PARSE,
                                      v < INT_MAX ? (int)v + 1 : 0,
                                      "%s: %.*s is past the largest %s, "
                                      "18446744073709551615",
                                      seed ? "seed" : "trial",
                                      (int)(e - v > 40 ? 40 : e - v), p + v,
                                      seed ? "seed" : "trial");
            x = x * 10 + d;
        }
        copy[v] = '0';
        memset(copy + v + 1, ' ', e - v - 1);
        if (depth == 1 && seed) {
            out->has_seed = true;
            out->seed = x;
        } else if (depth == 1) {
            out->has_trial = true;
            out->trial = x;
        }
        i = e;
    }
    return FRAY_OK;
}

/* An event line: read, checked and applied. */
static fray_status replay_event(fray_towers_fight *f, const jline *l,
                                json_t *o, const jseed *sd) {
    ft_event *ev = next_slot(f);
    if (!ev)
        return fray__diag_set(l->diag, FRAY_ERR_NOMEM, 0, "out of memory");
    fray_status rc = read_event(l, o, ev);
    if (rc != FRAY_OK)
        return rc;
    bool begin = ev->cmd.action == FT_CMD_BEGIN;
    if (begin != (f->n_events == 0)) {
        jseg path[] = {{"command", 0}, {"action", 0}};
        return fray__diag_set(l->diag, FRAY_ERR_INVALID,
                              js_column(l, path, 2),
                              "a journal starts with its \"begin\" event, "
                              "and only there");
    }
    if (begin) {
        jseg path[] = {{"seed", 0}};
        if (json_object_get(o, "seed") && !sd->has_seed)
            return field_error(l, path, 1, "expected a whole number from 0 "
                               "to 18446744073709551615");
        path[0].key = "trial";
        if (json_object_get(o, "trial") && !sd->has_trial)
            return field_error(l, path, 1, "expected a whole number from 0 "
                               "to 18446744073709551615");
        if (sd->has_seed) {
            f->seed = sd->seed;
            f->trial = sd->has_trial ? sd->trial : 0;
            ft_state_reset_trial(&f->setup->s, &f->st, f->seed, f->trial);
        }
    }
    rc = reapply(f, ev, l->diag);
    if (rc != FRAY_OK)
        return rc;
    journal_commit(f, ev);
    return FRAY_OK;
}

/* {"undo": {"event": K}}, {"redo": {"event": K}}, {"end": {"events": N}}
 * (docs/journal.md "Marks"). */
static fray_status replay_mark(fray_towers_fight *f, const jline *l,
                               json_t *o, fray_towers_mark mark) {
    const char *key = mark == FRAY_TOWERS_MARK_UNDO   ? "undo"
                      : mark == FRAY_TOWERS_MARK_REDO ? "redo"
                                                      : "end";
    const char *field = mark == FRAY_TOWERS_MARK_END ? "events" : "event";
    jseg path[] = {{key, 0}, {field, 0}};
    json_t *m = json_object_get(o, key);
    if (!json_is_object(m))
        return field_error(l, path, 1, "expected {\"%s\": N}", field);
    long long k;
    fray_status rc = read_int(l, m, path, 2, 0, INT_MAX, -1, NULL, &k);
    if (rc != FRAY_OK)
        return rc;
    int col = js_column(l, path, 2);
    int n = f->n_events;
    switch (mark) {
    case FRAY_TOWERS_MARK_UNDO:
        if (n <= 1)
            return fray__diag_set(l->diag, FRAY_ERR_INVALID, col,
                                  "nothing to undo: the journal is at the "
                                  "start of the fight");
        if (k != n - 1)
            return fray__diag_set(l->diag, FRAY_ERR_INVALID, col,
                                  "the undo takes back event %lld, but the "
                                  "last event is %d", k, n - 1);
        rc = fray_towers_fight_undo(f);
        break;
    case FRAY_TOWERS_MARK_REDO:
        if (n >= f->n_recorded)
            return fray__diag_set(l->diag, FRAY_ERR_INVALID, col,
                                  "nothing to redo: no event was undone "
                                  "here");
        if (k != n)
            return fray__diag_set(l->diag, FRAY_ERR_INVALID, col,
                                  "the redo plays event %lld again, but the "
                                  "event undone last is %d", k, n);
        rc = fray_towers_fight_redo(f);
        break;
    case FRAY_TOWERS_MARK_END:
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

FRAY_API size_t fray_towers_journal_mark(fray_towers_mark mark, int n,
                                         char *buf, size_t size) {
    const char *key = mark == FRAY_TOWERS_MARK_UNDO   ? "undo"
                      : mark == FRAY_TOWERS_MARK_REDO ? "redo"
                                                      : "end";
    int w = snprintf(buf, size, "{\"%s\":{\"%s\":%d}}", key,
                     mark == FRAY_TOWERS_MARK_END ? "events" : "event", n);
    return w < 0 ? 0 : (size_t)w;
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
    fray_towers_replay_info local;
    fray_towers_replay_info *info = out_info ? out_info : &local;
    memset(info, 0, sizeof *info);
    if (!f->opt.journal)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "replay needs a fight that keeps a journal");
    f->n_events = 0;
    f->n_recorded = 0;
    f->failed = FRAY_OK;
    ft_state_reset_trial(&f->setup->s, &f->st, f->seed, f->trial);
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
        jline l = {&f->setup->s, p, n, diag};
        jseed sd;
        rc = scan_seeds(&l, copy, &sd);
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
            rc = replay_mark(f, &l, o, FRAY_TOWERS_MARK_UNDO);
        else if (json_object_get(o, "redo"))
            rc = replay_mark(f, &l, o, FRAY_TOWERS_MARK_REDO);
        else if (json_object_get(o, "end") || json_object_get(o, "summary")) {
            /* The end mark; or the summary line of `fray fight --json`,
             * which ends a journal too. */
            if (json_object_get(o, "end"))
                rc = replay_mark(f, &l, o, FRAY_TOWERS_MARK_END);
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
        fray_status rr = fray_towers_fight_reset_trial(f, f->seed, f->trial);
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

FRAY_API bool fray_towers_fight_same(const fray_towers_fight *a,
                                     const fray_towers_fight *b) {
    const ft_state *x = &a->st, *y = &b->st;
    if (x->phase != y->phase || x->n != y->n || x->over != y->over ||
        x->winner != y->winner || x->n_decks != y->n_decks ||
        x->n_events != y->n_events || x->rng.state != y->rng.state ||
        x->rng.inc != y->rng.inc)
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
    return true;
}
