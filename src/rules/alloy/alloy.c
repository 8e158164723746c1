/*
 * alloy.c - Alloy's table of functions for the shared layer
 * (src/encounter/ruleset.h) and the fight glue: a fight's state, its
 * scratch event, the table's commands applied on a copy and committed on
 * success, packed events, replay, the simulation's counts.
 */
#include "alloy_int.h"

#include <assert.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jread.h"
#include "ruleset.h"

_Static_assert((int)FA_CMD_KINDS - (int)FA_CMD_ATTACK <= (int)FRAY_SIM_ACTION_KINDS,
               "the counts hold every kind of Alloy action (action kind k is "
               "fa_cmd_kind k + FA_CMD_ATTACK)");
_Static_assert((int)FRAY_SIM_MAX_COMBATANTS >= (int)FA_MAX_COMBATANTS,
               "the counts hold every combatant");
_Static_assert((int)FRAY_SIM_MAX_SIDES >= (int)FA_MAX_SIDES, "the counts hold every side");

/* ---- The fight ------------------------------------------------------------------ */

typedef struct fa_fight {
    const fa_setup *s;         /* borrowed: outlives the fight */
    fray_allocator alloc;
    bool has_alloc;
    bool facts;                /* record facts */
    int until;                 /* the round it stops after (0: the setup's limit) */
    const atomic_bool *cancel;
    uint64_t seed, trial;
    int32_t n_events;          /* events applied since begin (numbers them) */
    fa_state st;
    fa_state backup;           /* the state before a table command */
    fa_hooks hooks;            /* the table's words (decline) */
    uint32_t decline;          /* of the command under way */
    fa_event ev;               /* the scratch event: the last one applied */
    fa_event replay_ev;        /* a recorded event being applied again */
    bool has_event;            /* the last begin, step, command or replay made ev */
    bool stopped;              /* the round limit came: the fight stopped there */
    char why[320];             /* why the last step failed, in rules words ("": no more to say) */
    /* The simulation's counts of this fight (from begin). */
    int32_t dealt[FA_MAX_COMBATANTS], taken[FA_MAX_COMBATANTS];
    int32_t actions[FA_MAX_COMBATANTS];
    uint16_t by_kind[FA_MAX_COMBATANTS][FRAY_SIM_ACTION_KINDS];
    int8_t ap0[FA_MAX_COMBATANTS], surges0[FA_MAX_COMBATANTS];
    /* The shortcut (quick.c): the setup's verdict, made once when a
     * simulation's fight is made (never for a table's or a journal's), and
     * the tests' switch to the long way. */
    fa_quick quick;
    bool quick_off;
    bool quick_ran;            /* this fight's counts are the shortcut's (ATTACK, SECOND_WIND, SPEND_AP, END_TURN only) */
    /* Speed (issue 16): the reach map the tactics built in the step under
     * way, for its command's check (fa_reach_kept; step). Last: not
     * cleared when the fight is made (valid is; the map is written before
     * it is read). */
    fa_reach_kept reach_kept;
} fa_fight;

static const fray_allocator *alloc_of(const fa_fight *f) {
    return f->has_alloc ? &f->alloc : NULL;
}

/* The table's words: an opportunity attack is taken unless declined. */
static bool table_opportunity(void *ctx, const fa_run *r, int who,
                              int target) {
    (void)r;
    (void)target;
    const fa_fight *f = ctx;
    return who < 0 || who >= 32 || !(f->decline & (1u << who));
}

static void event_start(fa_fight *f, fa_event *ev, const fa_command *cmd) {
    ev->number = f->n_events;
    ev->round = f->st.round;
    ev->cmd = *cmd;
    ev->dice_given = false;
    ev->facts_untold = 0;
    ev->n_dice = 0;
    ev->n_choices = 0;
    ev->n_facts = 0;
}

static void run_init(fa_fight *f, fa_run *r, fa_event *ev) {
    memset(r, 0, offsetof(fa_run, walk_cost)); /* (walk_cost: written before read) */
    r->s = f->s;
    r->st = &f->st;
    r->ev = ev;
    r->facts = f->facts;
    r->failed = FRAY_OK;
}

static int limit_of(const fa_fight *f) {
    return f->until > 0 ? f->until : f->s->round_limit;
}

static bool limit_reached(const fa_fight *f) {
    int lim = limit_of(f);
    return f->stopped || (lim > 0 && f->st.round > lim);
}

/* true when the engine's step could start the round past the limit: the
 * step is then tried on a copy (step), and dropped if it does. */
static bool limit_near(const fa_fight *f) {
    int lim = limit_of(f);
    return lim > 0 && f->st.round >= lim;
}

/* The numbers of the event just applied (quietly: from hit points and
 * the command; facts may be off), counting the losses of the combatants
 * whose bit is set in `who` (hit points before in hp_before). Damage a
 * combatant takes in an event is dealt by the event's actor, or, when
 * the actor itself is hurt, by the first who took an opportunity attack
 * on it; ongoing damage is nobody's. */
static inline void count_event_of(fa_fight *f, const int16_t *hp_before,
                           uint32_t who) {
    const fa_event *ev = &f->ev;
    int actor = ev->cmd.actor;
    if (actor >= 0 && actor < f->st.n && ev->cmd.kind >= FA_CMD_ATTACK &&
        ev->cmd.kind < FA_CMD_KINDS) {
        f->actions[actor]++;
        uint16_t *k = &f->by_kind[actor][ev->cmd.kind - FA_CMD_ATTACK];
        if (*k < UINT16_MAX)
            (*k)++;
    }
    if (who == 0)
        return;
    int oa = -1;
    for (int i = 0; i < ev->n_choices; i++)
        if (ev->choices[i].kind == FA_CH_OPPORTUNITY &&
            ev->choices[i].value && ev->choices[i].other == actor) {
            oa = ev->choices[i].who;
            break;
        }
    for (int i = 0; i < f->st.n; i++) {
        if (!((who >> i) & 1u))
            continue;
        int lost = hp_before[i] - f->st.c[i].hp;
        if (lost <= 0)
            continue;
        f->taken[i] += lost;
        int by = i == actor ? oa : actor;
        if (ev->cmd.kind == FA_CMD_NEXT)
            by = -1;
        if (by >= 0 && by < f->st.n)
            f->dealt[by] += lost;
    }
}

/* The numbers of the event just applied, every combatant's hit points
 * before in hp_before. */
static void count_event(fa_fight *f, const int16_t *hp_before) {
    _Static_assert(FA_MAX_COMBATANTS == 32, "one bit a combatant");
    count_event_of(f, hp_before, UINT32_MAX);
}

/* count_event with only those whose hit points the event set looked at
 * (fa_run.hp_changed, their hit points before in hp_was; speed, issue
 * 16): the others lost nothing, and count_event passes over them. The
 * same sums in the same order. */
static void count_event_hp(fa_fight *f, const fa_run *r) {
    count_event_of(f, r->hp_was, r->hp_changed);
}

static void counts_reset(fa_fight *f) {
    /* Only the rows of the setup's combatants (those joining later too,
     * 004:241): every reader stops there. */
    size_t n = (size_t)(f->s->n > 0 ? f->s->n : 0);
    f->quick_ran = false;
    memset(f->dealt, 0, n * sizeof f->dealt[0]);
    memset(f->taken, 0, n * sizeof f->taken[0]);
    memset(f->actions, 0, n * sizeof f->actions[0]);
    memset(f->by_kind, 0, n * sizeof f->by_kind[0]);
    for (int i = 0; i < f->s->n && i < FA_MAX_COMBATANTS; i++) {
        f->ap0[i] = f->st.c[i].ap;
        f->surges0[i] = f->st.c[i].surges;
    }
}

/* ---- Setup members ------------------------------------------------------------------ */

static fray_status rs_load(const char *path, const fray_allocator *alloc,
                           void **out, fray_diag *diag) {
    fa_setup *s = NULL;
    fray_status rc = fa_load(path, alloc, &s, diag);
    *out = rc == FRAY_OK ? s : NULL;
    return rc;
}

static fray_status rs_load_files(const char *path, const fray_allocator *alloc,
                                 void **out, struct fray__files *files,
                                 fray_diag *diag) {
    fa_setup *s = NULL;
    fray_status rc = fa_load_files(path, alloc, &s, files, diag);
    *out = rc == FRAY_OK ? s : NULL;
    return rc;
}

static void rs_setup_free(void *setup) { fa_setup_free(setup); }

static fray_status rs_setup_copy(const void *setup, const fray_allocator *alloc,
                                 void **out) {
    fa_setup *s = NULL;
    fray_status rc = fa_setup_copy(setup, alloc, &s);
    *out = rc == FRAY_OK ? s : NULL;
    return rc;
}

static fray_status rs_vary(void *setup, const char *key, const char *value,
                           fray_diag *diag) {
    return fa_setup_vary(setup, key, value, diag);
}

static fray_status rs_vary_scope(const void *setup, const char *key,
                                 char *buf, size_t size, fray_diag *diag) {
    return fa_setup_vary_scope(setup, key, buf, size, diag);
}

static const char *rs_setup_name(const void *setup) {
    return ((const fa_setup *)setup)->name;
}

static bool rs_setup_seed(const void *setup, uint64_t *out) {
    const fa_setup *s = setup;
    if (s->has_seed && out)
        *out = s->seed;
    return s->has_seed;
}

static int rs_sides(const void *setup) {
    return ((const fa_setup *)setup)->n_sides;
}

static const char *rs_side_name(const void *setup, int side) {
    const fa_setup *s = setup;
    return side >= 0 && side < s->n_sides ? s->side_name[side] : NULL;
}

static int rs_combatants(const void *setup) {
    return ((const fa_setup *)setup)->n;
}

static const char *rs_combatant_name(const void *setup, int i) {
    const fa_setup *s = setup;
    return i >= 0 && i < s->n ? s->c[i].name : NULL;
}

static const char *rs_combatant_id(const void *setup, int i) {
    const fa_setup *s = setup;
    return i >= 0 && i < s->n ? s->c[i].id : NULL;
}

static int rs_combatant_side(const void *setup, int i) {
    const fa_setup *s = setup;
    return i >= 0 && i < s->n ? s->c[i].side : -1;
}

/* ---- Fights ---------------------------------------------------------------------------- */

/* Packed: the event's head (number, round, command, dice_given,
 * facts_untold, n_dice), the dice used, n_choices and the choices,
 * n_facts and the facts. */
enum { FA_PACKED_HEAD = offsetof(fa_event, dice) };

#define FA_PACKED_MAX                                                          \
    (FA_PACKED_HEAD + FA_EVENT_DICE * sizeof(fa_die) + 2 * sizeof(int16_t) +   \
     FA_EVENT_CHOICES * sizeof(fa_choice) + FA_EVENT_FACTS * sizeof(fa_fact))

static size_t pack(const fa_event *ev, uint8_t *out) {
    uint8_t *p = out;
    memcpy(p, ev, FA_PACKED_HEAD);
    p += FA_PACKED_HEAD;
    memcpy(p, ev->dice, (size_t)ev->n_dice * sizeof(fa_die));
    p += (size_t)ev->n_dice * sizeof(fa_die);
    memcpy(p, &ev->n_choices, sizeof ev->n_choices);
    p += sizeof ev->n_choices;
    memcpy(p, ev->choices, (size_t)ev->n_choices * sizeof(fa_choice));
    p += (size_t)ev->n_choices * sizeof(fa_choice);
    memcpy(p, &ev->n_facts, sizeof ev->n_facts);
    p += sizeof ev->n_facts;
    memcpy(p, ev->facts, (size_t)ev->n_facts * sizeof(fa_fact));
    p += (size_t)ev->n_facts * sizeof(fa_fact);
    return (size_t)(p - out);
}

/* FRAY_ERR_INVALID when the bytes are not one packed event. */
static fray_status unpack(const uint8_t *in, size_t len, fa_event *ev) {
    const uint8_t *p = in, *end = in + len;
    if (len < FA_PACKED_HEAD + 2 * sizeof(int16_t))
        return FRAY_ERR_INVALID;
    memcpy(ev, p, FA_PACKED_HEAD);
    p += FA_PACKED_HEAD;
    if (ev->n_dice < 0 || ev->n_dice > FA_EVENT_DICE ||
        (size_t)(end - p) < (size_t)ev->n_dice * sizeof(fa_die) + sizeof(int16_t))
        return FRAY_ERR_INVALID;
    memcpy(ev->dice, p, (size_t)ev->n_dice * sizeof(fa_die));
    p += (size_t)ev->n_dice * sizeof(fa_die);
    memcpy(&ev->n_choices, p, sizeof ev->n_choices);
    p += sizeof ev->n_choices;
    if (ev->n_choices < 0 || ev->n_choices > FA_EVENT_CHOICES ||
        (size_t)(end - p) <
            (size_t)ev->n_choices * sizeof(fa_choice) + sizeof(int16_t))
        return FRAY_ERR_INVALID;
    memcpy(ev->choices, p, (size_t)ev->n_choices * sizeof(fa_choice));
    p += (size_t)ev->n_choices * sizeof(fa_choice);
    memcpy(&ev->n_facts, p, sizeof ev->n_facts);
    p += sizeof ev->n_facts;
    if (ev->n_facts < 0 || ev->n_facts > FA_EVENT_FACTS ||
        (size_t)(end - p) != (size_t)ev->n_facts * sizeof(fa_fact))
        return FRAY_ERR_INVALID;
    memcpy(ev->facts, p, (size_t)ev->n_facts * sizeof(fa_fact));
    if (ev->cmd.kind >= FA_CMD_KINDS)
        return FRAY_ERR_INVALID;
    return FRAY_OK;
}

static fray_status fight_make(const void *setup, bool facts, int until,
                              const atomic_bool *cancel,
                              const fray_allocator *alloc, void **out) {
    *out = NULL;
    if (!setup)
        return FRAY_ERR_INVALID;
    fa_fight *f = fray__alloc(alloc, sizeof *f);
    if (!f)
        return FRAY_ERR_NOMEM;
    memset(f, 0, offsetof(fa_fight, reach_kept));
    f->reach_kept.valid = false;
    f->s = setup;
    if (alloc) {
        f->alloc = *alloc;
        f->has_alloc = true;
    }
    f->facts = facts;
    f->until = until;
    f->cancel = cancel;
    f->hooks.opportunity = table_opportunity;
    f->hooks.ctx = f;
    *out = f;
    return FRAY_OK;
}

static fray_status rs_fight_new(const void *setup, const fray__fight_opts *o,
                                const fray_allocator *alloc, void **out) {
    /* A journal needs whole events: facts on when recording. */
    return fight_make(setup, o ? (o->facts || o->record) : true,
                      o ? o->until : 0,
                      o ? o->cancel : NULL, alloc, out);
}

static void rs_fight_free(void *rfight) {
    fa_fight *f = rfight;
    if (f)
        fray__free(alloc_of(f), f, sizeof *f);
}

static fray_status begin_with(fa_fight *f, uint64_t seed, uint64_t trial,
                              const int *dice, size_t n_dice) {
    f->has_event = false;
    f->stopped = false;
    f->seed = seed;
    f->trial = trial;
    f->n_events = 0;
    fa_state_init(f->s, &f->st, seed, trial);
    fa_command cmd;
    memset(&cmd, 0, sizeof cmd);
    cmd.kind = FA_CMD_BEGIN;
    cmd.actor = -1;
    cmd.slot = FA_ACT_NONE;
    cmd.power = cmd.weapon = -1;
    cmd.origin.x = cmd.origin.y = -1;
    cmd.ready.who = cmd.ready.power = cmd.ready.target = -1;
    cmd.ready.kind = FA_CMD_ATTACK;
    event_start(f, &f->ev, &cmd);
    fa_run r;
    run_init(f, &r, &f->ev);
    r.given = dice;
    r.n_given = dice ? n_dice : 0;
    fray_status rc = fa_begin(&r);
    if (rc == FRAY_OK)
        rc = r.failed;
    if (rc == FRAY_OK && dice && r.used_given != n_dice)
        rc = FRAY_ERR_INVALID; /* more dice given than initiative rolls */
    if (rc != FRAY_OK)
        return rc;
    f->n_events = 1;
    f->has_event = true;
    counts_reset(f);
    return FRAY_OK;
}

static fray_status rs_begin(void *rfight, uint64_t seed, uint64_t trial,
                            const fray_given *given) {
    fa_fight *f = rfight;
    if (given && given->n_cards > 0)
        return FRAY_ERR_INVALID; /* Alloy rolls dice; it turns no cards */
    return begin_with(f, seed, trial, given ? given->dice : NULL,
                      given ? given->n_dice : 0);
}

static bool rs_over(const void *rfight) {
    const fa_fight *f = rfight;
    return f->st.over || limit_reached(f);
}

static int rs_winner(const void *rfight) {
    const fa_fight *f = rfight;
    return f->st.over ? f->st.winner : -1;
}

static int rs_now(const void *rfight) {
    return ((const fa_fight *)rfight)->st.round;
}

/* Who acts now, or next when the engine must step first. */
static int next_actor(const fa_fight *f) {
    int a = fa_actor(f->s, &f->st);
    if (a >= 0)
        return a;
    const fa_state *st = &f->st;
    if (st->n_order == 0)
        return -1;
    for (int k = 1; k <= st->n_order; k++) {
        int pos = (st->cur_pos + k) % st->n_order;
        if (st->cur < 0 && k == 1)
            pos = st->cur_pos >= 0 ? st->cur_pos % st->n_order : 0;
        int i = st->order[pos];
        if (i >= 0 && i < st->n && !(st->c[i].flags & FA_F_OUT))
            return i;
    }
    return -1;
}

static const char *rs_turn(const void *rfight, char *when, size_t size) {
    const fa_fight *f = rfight;
    if (when && size)
        when[0] = '\0';
    if (rs_over(f) || !f->st.started)
        return NULL;
    int a = next_actor(f);
    if (a < 0)
        return NULL;
    if (when && size) {
        if (f->st.round == 0)
            snprintf(when, size, "surprise round, initiative %d",
                     f->st.c[a].init);
        else
            snprintf(when, size, "round %d, initiative %d", f->st.round,
                     f->st.c[a].init);
    }
    return f->s->c[a].name;
}

static fray_status check_cancel(const fa_fight *f) {
    return f->cancel && atomic_load_explicit(f->cancel, memory_order_relaxed)
               ? FRAY_ERR_CANCELED
               : FRAY_OK;
}

/* One step by the policies, into the scratch event. A failed step
 * leaves a state the layer must not go on from (fight.h). */
static fray_status step(fa_fight *f, bool count) {
    f->has_event = false;
    f->why[0] = '\0';
    if (!f->st.started || rs_over(f))
        return FRAY_ERR_INVALID;
    fa_command cmd;
    /* Speed (issue 16): the reach map the tactics build, kept for the
     * check of their command (fa_reach_kept), this step only. */
    fa_reach_kept *kept = &f->reach_kept;
    kept->valid = false;
    int a = fa_actor(f->s, &f->st);
    if (a < 0) {
        memset(&cmd, 0, sizeof cmd);
        cmd.kind = FA_CMD_NEXT;
        cmd.actor = -1;
        cmd.slot = FA_ACT_NONE;
        cmd.power = cmd.weapon = -1;
        cmd.origin.x = cmd.origin.y = -1;
        cmd.ready.who = cmd.ready.power = cmd.ready.target = -1;
        cmd.ready.kind = FA_CMD_ATTACK;
    } else {
        fray_status rc = fa_choose_command_kept(f->s, &f->st, a, &cmd, kept);
        if (rc != FRAY_OK)
            return rc;
    }
#ifndef NDEBUG
    /* Hit points before, for the counts' long way (count_event; the step
     * counts those whose hit points it set, fa_run.hp_changed). */
    int16_t hp[FA_MAX_COMBATANTS];
    if (count)   /* every combatant: one may join during the step (004:241) */
        for (int i = 0; i < f->s->n && i < FA_MAX_COMBATANTS; i++)
            hp[i] = f->st.c[i].hp;
#endif
    /* A fight that tells (a table's, a journal's) keeps the state before
     * the step, so that a failed step changes nothing; the simulation's
     * quiet fights go without the copy. */
    bool keep = f->facts || (a < 0 && limit_near(f));
    if (keep)
        f->backup = f->st;
    event_start(f, &f->ev, &cmd);
    fa_run r;
    run_init(f, &r, &f->ev);
    f->decline = 0;
    r.reach_kept = kept->valid ? kept : NULL;
    fray_status rc = fa_apply(&r, &cmd);
    if (rc == FRAY_OK)
        rc = r.failed;
    if (rc != FRAY_OK) {
        if (keep)
            f->st = f->backup;
        /* fa_apply refuses before it changes anything: the reason is the
         * check's, asked again of the state as it was. */
        char why[200] = "";
        if (rc == FRAY_ERR_INVALID && a >= 0 &&
            fa_check(f->s, &f->st, &cmd, why, sizeof why) != FRAY_OK)
            snprintf(f->why, sizeof f->why,
                     "%.40s's tactics chose %.24s, which the rules refuse: %.150s",
                     f->s->c[a].name, fa_cmd_title(cmd.kind), why);
        return rc;
    }
    if (a < 0 && !f->st.over && limit_reached(f)) {
        /* The round after the last: the fight stops before it begins (no
         * event; event_pack gives 0). */
        f->st = f->backup;
        f->stopped = true;
        return FRAY_OK;
    }
    f->n_events++;
    f->has_event = true;
    if (count) {
#ifndef NDEBUG
        /* (the long way: every combatant's hit points before and after) */
        for (int i = 0; i < f->st.n; i++)
            assert(((r.hp_changed >> i) & 1u) ? r.hp_was[i] == hp[i]
                                              : f->st.c[i].hp == hp[i]);
#endif
        count_event_hp(f, &r);
    }
    return FRAY_OK;
}

static fray_status rs_step(void *rfight) { return step(rfight, true); }

static size_t rs_failure(const void *rfight, char *buf, size_t size) {
    const fa_fight *f = rfight;
    if (!f->why[0])
        return 0;
    int n = snprintf(buf, size, "%s", f->why);
    return n < 0 ? 0 : (size_t)n;
}

static fray_status rs_command(void *rfight, const char *text,
                              const fray_given *given, fray_diag *diag) {
    fa_fight *f = rfight;
    f->has_event = false;
    if (!f->st.started)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "the fight has not begun (no initiative yet)");
    if (rs_over(f))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "the fight is over");
    if (given && given->n_cards > 0)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "Alloy rolls dice: cards cannot be given");
    fa_command cmd;
    fray_status rc = fa_parse(f->s, &f->st, text, &cmd, diag);
    if (rc != FRAY_OK)
        return rc;
    char why[200] = "";
    if (cmd.kind != FA_CMD_NEXT) {
        rc = fa_check(f->s, &f->st, &cmd, why, sizeof why);
        if (rc != FRAY_OK)
            return fray__diag_set(diag, rc, 0, "%s",
                                  why[0] ? why : "not allowed now");
    }
    /* Applied on the state as it is, with a copy to go back to: a
     * refusal (or dice given that do not fit) leaves the fight as it was. */
    f->backup = f->st;
    const int *dice = given ? given->dice : NULL;
    size_t n_dice = given && given->dice ? given->n_dice : 0;
    int16_t hp[FA_MAX_COMBATANTS];
    for (int i = 0; i < f->s->n && i < FA_MAX_COMBATANTS; i++)   /* joiners too (004:241) */
        hp[i] = f->st.c[i].hp;
    event_start(f, &f->ev, &cmd);
    fa_run r;
    run_init(f, &r, &f->ev);
    r.given = dice;
    r.n_given = n_dice;
    r.hooks = &f->hooks;
    f->decline = cmd.decline;
    rc = fa_apply(&r, &cmd);
    if (rc == FRAY_OK)
        rc = r.failed;
    f->decline = 0;
    if (rc == FRAY_OK && dice && r.used_given < n_dice) {
        f->st = f->backup;
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%zu dice were given but the %s rolled %zu",
                              n_dice, fa_cmd_title(cmd.kind), r.used_given);
    }
    if (rc != FRAY_OK) {
        f->st = f->backup;
        if (dice && r.used_given >= n_dice && rc == FRAY_ERR_INVALID)
            return fray__diag_set(diag, rc, 0,
                                  "the %s needs more dice than the %zu given",
                                  fa_cmd_title(cmd.kind), n_dice);
        if (dice && rc == FRAY_ERR_INVALID && r.bad_sides > 0 &&
            r.used_given < n_dice)
            return fray__diag_set(diag, rc, 0,
                                  "die %zu given, %d, is not a roll of the "
                                  "d%d the %s asks for there (1 to %d)",
                                  r.used_given + 1, dice[r.used_given],
                                  r.bad_sides, fa_cmd_title(cmd.kind),
                                  r.bad_sides);
        if (dice && rc == FRAY_ERR_INVALID)
            return fray__diag_set(diag, rc, 0,
                                  "die %zu given does not fit the die rolled "
                                  "(1 to its sides)", r.used_given + 1);
        return fray__diag_set(diag, rc, 0, "the %s could not be applied: %s",
                              fa_cmd_title(cmd.kind), fray_strerror(rc));
    }
    if (cmd.kind == FA_CMD_NEXT && !f->st.over && limit_reached(f)) {
        /* The round after the last: the fight stops before it begins. */
        f->st = f->backup;
        f->stopped = true;
        return FRAY_OK;
    }
    f->n_events++;
    f->has_event = true;
    /* The counts (a fight at the table counts too). */
    count_event(f, hp);
    return FRAY_OK;
}

static size_t rs_event_pack(const void *rfight, uint8_t *out) {
    const fa_fight *f = rfight;
    return f->has_event ? pack(&f->ev, out) : 0;
}

static fray_status rs_replay(void *rfight, const uint8_t *evb, size_t len,
                             bool is_begin, uint64_t seed, uint64_t trial,
                             fray_diag *diag) {
    fa_fight *f = rfight;
    f->has_event = false;
    fa_event *rec = &f->replay_ev;
    fray_status rc = unpack(evb, len, rec);
    if (rc != FRAY_OK)
        return fray__diag_set(diag, rc, 0, "not an Alloy event");
    if (is_begin != (rec->cmd.kind == FA_CMD_BEGIN))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              is_begin ? "a fight begins with initiative, "
                                         "not with the %s"
                                       : "the %s comes only at the start",
                              fa_cmd_title(rec->cmd.kind));
    if (!is_begin && (!f->st.started || rs_over(f)))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              f->st.started ? "the fight is over"
                                            : "the fight has not begun");
    f->backup = f->st;
    int32_t n_events = f->n_events;
    if (is_begin) {
        f->stopped = false;
        f->seed = seed;
        f->trial = trial;
        f->n_events = 0;
        fa_state_init(f->s, &f->st, seed, trial);
    }
    event_start(f, &f->ev, &rec->cmd);
    fa_run r;
    run_init(f, &r, &f->ev);
    r.replay = rec;
    rc = is_begin ? fa_begin(&r) : fa_apply(&r, &rec->cmd);
    if (rc == FRAY_OK)
        rc = r.failed;
    const char *why = NULL;
    if (rc != FRAY_OK)
        why = rec->dice_given ? "it does not apply to the fight as it stands "
                                "(a die or choice recorded does not fit)"
                              : "it does not apply to the fight as it stands "
                                "(the dice drawn again differ from those "
                                "recorded, or a choice does not fit)";
    /* Every recorded die and choice used, no more. */
    else if (r.replay_die != rec->n_dice)
        why = "it recorded more dice than the action rolls";
    else if (r.replay_choice != rec->n_choices)
        why = "it recorded more choices than the action makes";
    if (why) {
        f->st = f->backup;
        f->n_events = n_events;
        return fray__diag_set(diag, rc != FRAY_OK ? rc : FRAY_ERR_INVALID, 0,
                              "event %ld (%s): %s", (long)rec->number,
                              fa_cmd_title(rec->cmd.kind), why);
    }
    f->ev.number = rec->number;
    f->ev.dice_given = rec->dice_given;
    f->n_events = is_begin ? 1 : f->n_events + 1;
    f->has_event = true;
    if (is_begin)
        counts_reset(f);
    return FRAY_OK;
}

/* true when two fights are in the identical state (field by field: the
 * structs' padding is not compared). */
static bool same_cond(const fa_cond *a, const fa_cond *b) {
    return a->kind == b->kind && a->ends == b->ends && a->whose == b->whose &&
           a->count == b->count &&
           a->other == b->other && a->value == b->value &&
           a->source == b->source && a->round == b->round &&
           a->at.x == b->at.x && a->at.y == b->at.y;
}

static bool same_c(const fa_cstate *a, const fa_cstate *b) {
    if (a->hp != b->hp || a->surges != b->surges || a->ap != b->ap ||
        a->fp.at.x != b->fp.at.x || a->fp.at.y != b->fp.at.y ||
        a->fp.side != b->fp.side || a->init != b->init ||
        a->init_tie != b->init_tie || a->has != b->has ||
        a->n_cond != b->n_cond || a->flags != b->flags ||
        a->slots != b->slots || a->moved != b->moved ||
        a->ap_spent != b->ap_spent || a->oa_turn != b->oa_turn ||
        a->grappling != b->grappling || a->wield != b->wield ||
        a->powers_used != b->powers_used ||
        a->ready.trigger != b->ready.trigger || a->ready.who != b->ready.who ||
        a->ready.kind != b->ready.kind || a->ready.power != b->ready.power ||
        a->ready.target != b->ready.target ||
        a->extra_standard != b->extra_standard || a->acted != b->acted ||
        a->death_fails != b->death_fails || a->absent != b->absent)
        return false;
    for (int k = 0; k < FA_MAX_SIDES; k++)
        if (a->seen[k].x != b->seen[k].x || a->seen[k].y != b->seen[k].y)
            return false;
    for (int k = 0; k < FA_SB_WEAPONS; k++)
        if (a->ammo[k] != b->ammo[k] || a->spare[k] != b->spare[k])
            return false;
    /* objects in hand (alloy-objects) */
    if (a->away != b->away || a->taken_owner1 != b->taken_owner1 ||
        a->taken_slot != b->taken_slot || a->item_hand1 != b->item_hand1)
        return false;
    for (int k = 0; k < FA_SB_ITEMS; k++)
        if (a->items_used[k] != b->items_used[k])
            return false;
    for (int k = 0; k < a->n_cond && k < FA_MAX_CONDS; k++)
        if (!same_cond(&a->cond[k], &b->cond[k]))
            return false;
    return true;
}

static bool same_state(const fa_state *a, const fa_state *b) {
    if (a->round != b->round || a->started != b->started ||
        a->over != b->over || a->winner != b->winner || a->n != b->n ||
        a->n_order != b->n_order || a->cur != b->cur ||
        a->cur_pos != b->cur_pos || a->turn_serial != b->turn_serial ||
        a->rng.state != b->rng.state || a->rng.inc != b->rng.inc ||
        a->between != b->between || a->track.dir != b->track.dir ||
        a->track.n != b->track.n)
        return false;
    for (int k = 0; k < a->n_order && k < FA_MAX_COMBATANTS; k++)
        if (a->order[k] != b->order[k])
            return false;
    for (int k = 0; k < a->track.n && k < FRAY__TRACK_MAX; k++)
        if (a->track.e[k].who != b->track.e[k].who ||
            a->track.e[k].key != b->track.e[k].key ||
            a->track.e[k].tie != b->track.e[k].tie)
            return false;
    for (int i = 0; i < a->n && i < FA_MAX_COMBATANTS; i++)
        if (!same_c(&a->c[i], &b->c[i]))
            return false;
    /* objects on the floor (alloy-objects) */
    if (a->n_floor != b->n_floor)
        return false;
    for (int i = 0; i < a->n_floor && i < FA_MAX_FLOOR; i++)
        if (a->floor[i].owner != b->floor[i].owner || a->floor[i].slot != b->floor[i].slot ||
            a->floor[i].count != b->floor[i].count || a->floor[i].at.x != b->floor[i].at.x ||
            a->floor[i].at.y != b->floor[i].at.y)
            return false;
    return true;
}

static bool rs_same(const void *a, const void *b) {
    return same_state(&((const fa_fight *)a)->st, &((const fa_fight *)b)->st);
}

/* ---- Telling ------------------------------------------------------------------------- */

static const char *rs_event_action(const void *setup, const uint8_t *ev,
                                   size_t len) {
    (void)setup;
    size_t at = offsetof(fa_event, cmd) + offsetof(fa_command, kind);
    if (len < FA_PACKED_HEAD)
        return NULL;
    return ev[at] < FA_CMD_KINDS ? fa_cmd_name(ev[at]) : NULL;
}

static size_t rs_event_narrate(const void *setup, const uint8_t *ev, size_t len,
                               char *buf, size_t size) {
    fa_event e;
    if (unpack(ev, len, &e) != FRAY_OK) {
        if (buf && size)
            buf[0] = '\0';
        return 0;
    }
    return fa_narrate(setup, &e, buf, size);
}

static size_t rs_event_narrate_hidden(const void *setup, const uint8_t *ev,
                                      size_t len, const bool *hide, char *buf,
                                      size_t size) {
    fa_event e;
    if (unpack(ev, len, &e) != FRAY_OK) {
        if (buf && size)
            buf[0] = '\0';
        return 0;
    }
    return fa_narrate_hidden(setup, &e, hide, buf, size);
}

static int rs_event_names(const void *setup, const uint8_t *ev, size_t len,
                          bool *named) {
    fa_event e;
    if (unpack(ev, len, &e) != FRAY_OK)
        return -1;
    return fa_event_names(setup, &e, named);
}

static size_t rs_event_json(const void *setup, const uint8_t *ev, size_t len,
                            char *buf, size_t size) {
    fa_event e;
    if (unpack(ev, len, &e) != FRAY_OK) {
        if (buf && size)
            buf[0] = '\0';
        return 0;
    }
    return fa_event_json(setup, &e, buf, size);
}

/* The field's path ("command.targets[1]", "facts[0].to") as the layer's
 * path segments, for the column of the message. */
static int path_of(char *field, fray__jseg *path) {
    int depth = 0;
    char *p = field;
    while (*p && depth < FRAY__JPATH_MAX) {
        if (*p == '[') {
            path[depth].key = NULL;
            path[depth].index = (int)strtol(p + 1, &p, 10);
            depth++;
            if (*p == ']')
                p++;
            if (*p == '.')
                p++;
            continue;
        }
        path[depth].key = p;
        path[depth].index = 0;
        depth++;
        while (*p && *p != '.' && *p != '[')
            p++;
        if (*p == '.')
            *p++ = '\0';
        else if (*p == '[') {
            /* the key ends here: keep '[' for the next step */
            memmove(p + 1, p, strlen(p) + 1);
            *p++ = '\0';
        }
    }
    return depth;
}

static fray_status rs_event_read(const void *setup, const struct fray__jline *l,
                                 const void *json_object, uint8_t *out,
                                 size_t *out_len, fray_diag *diag) {
    const fa_setup *sd = setup;
    fa_event *e = fray__alloc(&sd->alloc, sizeof *e);
    if (!e)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    char field[128] = "", why[200] = "";
    fray_status rc = fa_event_from_json(setup, json_object, e, field, 96,
                                        why, sizeof why);
    if (rc == FRAY_OK)
        *out_len = pack(e, out);
    fray__free(&sd->alloc, e, sizeof *e);
    if (rc == FRAY_OK)
        return FRAY_OK;
    char shown[128];
    snprintf(shown, sizeof shown, "%s", field);
    fray__jseg path[FRAY__JPATH_MAX];
    int depth = path_of(field, path);
    if (l && depth > 0)
        return fray__jfield_error(l, path, depth, "%s", why);
    return fray__diag_set(diag, rc, 0, "%s: %s", shown, why);
}

static size_t rs_draw_time(const void *rfight, char *buf, size_t size) {
    const fa_fight *f = rfight;
    return fa_draw_order(f->s, &f->st, buf, size);
}

static size_t rs_draw_map(const void *rfight, char *buf, size_t size) {
    const fa_fight *f = rfight;
    return fa_draw_map(f->s, &f->st, buf, size);
}

static size_t rs_summary(const void *rfight, char *buf, size_t size) {
    const fa_fight *f = rfight;
    return fa_summary(f->s, &f->st, buf, size);
}

/* ---- Simulation ----------------------------------------------------------------------- */

static fray_status rs_sim_fight_new(const void *setup, uint64_t seed, int until,
                                    const atomic_bool *cancel,
                                    const fray_allocator *alloc, void **out) {
    fray_status rc = fight_make(setup, false, until, cancel, alloc, out);
    if (rc == FRAY_OK) {
        fa_fight *f = *out;
        f->seed = seed;
        /* The shortcut's whitelist, once per setup (quick.c). */
        f->quick.ok = fa_quick_plan(setup, &f->quick, NULL, 0);
    }
    return rc;
}

static bool quick_on(const fa_fight *f) {
    return f->quick.ok && !f->quick_off;
}

bool fa_quick_eligible(const void *rfight) {
    return ((const fa_fight *)rfight)->quick.ok;
}

void fa_quick_set_off(void *rfight, bool off) {
    ((fa_fight *)rfight)->quick_off = off;
}

static fray_status rs_reset_trial(void *rfight, uint64_t seed, uint64_t trial) {
    fa_fight *f = rfight;
    if (!quick_on(f))
        return begin_with(f, seed, trial, NULL, 0);
    /* The shortcut's begin event: the state begin_with leaves. */
    f->has_event = false; /* (the scratch event is not written) */
    f->stopped = false;
    f->seed = seed;
    f->trial = trial;
    f->n_events = 0;
    fray_status rc = fa_quick_begin(f->s, &f->quick, &f->st, seed, trial);
    if (rc != FRAY_OK)
        return rc;
    f->n_events = 1;
    counts_reset(f);
    return FRAY_OK;
}

/* The whole fight by the shortcut, from the begin event. */
static fray_status run_quick(fa_fight *f) {
    fray_status rc = check_cancel(f);
    if (rc != FRAY_OK)
        return rc;
    fa_quick_counts qc;
    rc = fa_quick_run(f->s, &f->quick, &f->st, f->until, f->cancel, &qc);
    if (rc != FRAY_OK)
        return rc;
    f->has_event = false;
    f->quick_ran = true;
    f->stopped = qc.stopped;
    f->n_events += qc.n_events;
    for (int i = 0; i < 2; i++) {
        f->dealt[i] += qc.dealt[i];
        f->taken[i] += qc.taken[i];
        f->actions[i] += qc.actions[i];
        uint16_t *k = f->by_kind[i];
        int32_t a = k[FA_CMD_ATTACK - FA_CMD_ATTACK] + qc.attacks[i];
        int32_t e = k[FA_CMD_END_TURN - FA_CMD_ATTACK] + qc.end_turns[i];
        int32_t w = k[FA_CMD_SECOND_WIND - FA_CMD_ATTACK] + qc.winds[i];
        k[FA_CMD_SECOND_WIND - FA_CMD_ATTACK] = (uint16_t)(w < UINT16_MAX ? w : UINT16_MAX);
        int32_t p = k[FA_CMD_SPEND_AP - FA_CMD_ATTACK] + qc.aps[i];
        k[FA_CMD_SPEND_AP - FA_CMD_ATTACK] = (uint16_t)(p < UINT16_MAX ? p : UINT16_MAX);
        k[FA_CMD_ATTACK - FA_CMD_ATTACK] = (uint16_t)(a < UINT16_MAX ? a : UINT16_MAX);
        k[FA_CMD_END_TURN - FA_CMD_ATTACK] = (uint16_t)(e < UINT16_MAX ? e : UINT16_MAX);
    }
    return FRAY_OK;
}

static fray_status rs_run(void *rfight) {
    fa_fight *f = rfight;
    /* The shortcut takes a qualifying simulation fight from its begin
     * event (nothing applied since: n_events 1) to its end. */
    if (quick_on(f) && f->n_events == 1 && f->st.started && !f->st.over &&
        !f->stopped && f->st.round == 1 && f->st.cur < 0)
        return run_quick(f);
    for (uint32_t n = 0; !rs_over(f); n++) {
        if ((n & 1023u) == 0) {
            fray_status rc = check_cancel(f);
            if (rc != FRAY_OK)
                return rc;
        }
        fray_status rc = step(f, true);
        if (rc != FRAY_OK)
            return rc;
    }
    return FRAY_OK;
}

/* Every action kind has its place in the counts (kind k: command kind
 * k + FA_CMD_ATTACK). */
_Static_assert(FA_CMD_KINDS - FA_CMD_ATTACK <= FRAY_SIM_ACTION_KINDS,
               "Alloy's actions fit fray_sim_counts.by_kind");

/* A finished fight's numbers: damage is harm kind 0 (rs_harm_name),
 * action points and heroic surges spent kinds 0 and 1 (rs_spent_name). */
static void rs_count(const void *rfight, fray_sim_counts *c) {
    const fa_fight *f = rfight;
    const fa_state *st = &f->st;
    c->trials++;
    if (st->over && st->winner >= 0 && st->winner < FRAY_SIM_MAX_SIDES)
        c->wins[st->winner]++;
    else if (st->over && st->winner == -2)
        c->all_out++;
    else
        c->unfinished++;
    uint64_t len = st->round > 0 ? (uint64_t)st->round : 0;
    c->length_sum += len;
    c->length_sq_sum += len * len;
    c->length[len < FRAY_SIM_LENGTH_BINS - 1 ? len : FRAY_SIM_LENGTH_BINS - 1]++;
    for (int i = 0; i < st->n && i < FRAY_SIM_MAX_COMBATANTS; i++) {
        const fa_cstate *cs = &st->c[i];
        fray_sim_combatant_counts *cc = &c->c[i];
        if (!(cs->flags & FA_F_OUT))
            cc->standing++;
        if (fa_has(cs, FA_C_DEAD))
            cc->dead++;
        /* Dying is out of the fight; unconscious without dying (a power)
         * is still in it, so it counts as standing (the partition of
         * fray_sim_combatant_counts: the states add up to the trials). */
        else if (fa_has(cs, FA_C_DYING) || (cs->flags & FA_F_OUT))
            cc->dying++;
        cc->dealt[0] += (uint64_t)f->dealt[i];
        cc->taken[0] += (uint64_t)f->taken[i];
        cc->actions += (uint64_t)f->actions[i];
        int ap = f->ap0[i] - cs->ap, sg = f->surges0[i] - cs->surges;
        cc->spent[0] += ap > 0 ? (uint64_t)ap : 0;
        cc->spent[1] += sg > 0 ? (uint64_t)sg : 0;
        if (f->quick_ran) {
            /* the shortcut's fights have four kinds of action, the rest 0 */
            cc->by_kind[FA_CMD_ATTACK - FA_CMD_ATTACK] +=
                f->by_kind[i][FA_CMD_ATTACK - FA_CMD_ATTACK];
            cc->by_kind[FA_CMD_SECOND_WIND - FA_CMD_ATTACK] +=
                f->by_kind[i][FA_CMD_SECOND_WIND - FA_CMD_ATTACK];
            cc->by_kind[FA_CMD_SPEND_AP - FA_CMD_ATTACK] +=
                f->by_kind[i][FA_CMD_SPEND_AP - FA_CMD_ATTACK];
            cc->by_kind[FA_CMD_END_TURN - FA_CMD_ATTACK] +=
                f->by_kind[i][FA_CMD_END_TURN - FA_CMD_ATTACK];
            continue;
        }
        for (int k = 0; k < FRAY_SIM_ACTION_KINDS; k++)
            cc->by_kind[k] += f->by_kind[i][k];
    }
}

static const char *rs_action_name(int kind) {
    return kind >= 0 && kind < FA_CMD_KINDS - FA_CMD_ATTACK
               ? fa_cmd_title(kind + FA_CMD_ATTACK)
               : NULL;
}

static const char *rs_harm_name(int k) { return k == 0 ? "damage" : NULL; }

/* fray_sim_state: what each way a fight ends means in Alloy. */
static const char *rs_state_meaning(int k) {
    static const char *const m[FRAY_SIM_STATES] = {
        "not dying or dead at the end (one knocked unconscious by a power is "
        "still in the fight and counts here)",
        "none in Alloy: at 0 hit points or fewer a creature is dying "
        "(004:211)",
        "0 hit points or fewer, not dead: Unconscious, Helpless and prone, "
        "out of the fight (option dying)",
        "hit points down to minus half the maximum (004:211), or three "
        "failed death saves (dying: death-saves)",
        "none in Alloy: nobody leaves the battle"};
    return k >= 0 && k < FRAY_SIM_STATES ? m[k] : NULL;
}

static const char *rs_spent_name(int k) {
    return k == 0 ? "action points" : k == 1 ? "heroic surges" : NULL;
}

/* ---- Exact odds (odds.c) ------------------------------------------------------------- */

static fray_status rs_duel_odds(const void *setup, int a, int b,
                                long max_states, fray_duel_odds *out,
                                fray_diag *diag) {
    return fa_duel_odds(setup, a, b, max_states, out, diag);
}

static fray_status rs_duel_exact(const void *setup, int a, int b,
                                 long max_states, fray_duel_odds *out,
                                 struct fray_duel_exact *exact, fray_diag *diag) {
    return fa_duel_exact(setup, a, b, max_states, out, exact, diag);
}

static fray_status rs_duel_estimate(const void *setup, int a, int b,
                                    double *out_states, fray_diag *diag) {
    return fa_duel_estimate(setup, a, b, out_states, diag);
}

/* ---- A fight as data (view.c) ------------------------------------------------------- */

static fray_status rs_view(const void *rfight, struct fray_fight_view *v) {
    const fa_fight *f = rfight;
    int turn = rs_over(f) || !f->st.started ? -1 : next_actor(f);
    return fa_view(f->s, &f->st, turn, v);
}

/* ---- At the table (issue 19; chances.c) ------------------------------------------- */

static fray_status rs_chances(const void *rfight, int who, const char *command,
                              struct fray_chances *out, int max, int *n,
                              fray_diag *diag) {
    const fa_fight *f = rfight;
    int turn = rs_over(f) || !f->st.started ? -1 : next_actor(f);
    return fa_chances(f->s, &f->st, turn, who, command, out, max, n, diag);
}

/* The fight `from`'s state with the dice still to come from (seed, trial):
 * nothing else of Alloy's is hidden. */
static fray_status rs_sim_from(void *rfight, const void *from, uint64_t seed,
                               uint64_t trial) {
    fa_fight *f = rfight;
    const fa_fight *src = from;
    memcpy(&f->st, &src->st, sizeof f->st);
    fray_rng_for_trial(&f->st.rng, seed, trial);
    f->seed = seed;
    f->trial = trial;
    f->has_event = false;
    f->stopped = src->stopped;
    f->why[0] = '\0';
    /* Past the begin event: the shortcut (which starts from it) is not
     * taken unless nothing has happened since. */
    f->n_events = src->n_events > 0 ? src->n_events : 1;
    counts_reset(f);
    return FRAY_OK;
}

const fray__ruleset fray__alloy_ruleset = {
    .name = "alloy",
    .title = "Alloy",
    .time_unit = "round",
    .randomness = "dice",
    .load = rs_load,
    .check = fa_check_file,
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
    .event_max = FA_PACKED_MAX,
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
    .run_quiet = rs_run, /* the same steps, nothing told */
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
    .duel_exact = rs_duel_exact,
    .duel_estimate = rs_duel_estimate,
    .duel_assumed =
        "toe to toe from the start, no movement; each turn what the tactics "
        "do in a duel: their best attack, second wind once bloodied, an "
        "action point for one more attack when the enemy is low",
    .duel_setup = fa_duel_setup,
    .view = rs_view,
    .state_meaning = rs_state_meaning,
    .vary_scope = rs_vary_scope,
    .load_files = rs_load_files,
    .event_names = rs_event_names,
    .chances = rs_chances, /* issue 19 */
    .sim_from = rs_sim_from,
    .event_narrate_hidden = rs_event_narrate_hidden, /* issue 14 */
};
