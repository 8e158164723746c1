/*
 * engine.c - the 99 Towers Combat Clock and the Action List (seed 000 "Time
 * Scales" to "Use an Item", "Opportunity Attacks", "Tactical Map"; RULINGS
 * 8-15). Every change goes through ft_apply, one event at a time.
 */
#include "towers_int.h"

#include <assert.h>
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const ft_action_info ft_actions[FT_ACTION_COUNT] = {
#define FT__E(id, name, text, cost, flags) {name, text, cost, flags},
    FT_ACTION_LIST(FT__E)
#undef FT__E
};

/* A phase far beyond any fight: where event holds wait. */
#define FT_NEVER (INT32_MAX / 2)
/* Slots (towers_int.h FT_SLOT_STEP); zero-cost actions go behind. */
/* An action that placed the actor on the clock itself (Hold). */
#define FT_COST_SET (-3)

/* ---- Facts -------------------------------------------------------------- */

ft_fact *ft_emit_fact(ft_run *r, ft_fact_kind kind, int who, int target) {
    if (!r->facts || !r->ev)
        return NULL;
    if (r->ev->n_facts >= FT_EVENT_FACTS) {
        if (r->ev->facts_untold < INT16_MAX)
            r->ev->facts_untold++;
        return NULL;
    }
    ft_fact *f = &r->ev->facts[r->ev->n_facts++];
    memset(f, 0, sizeof *f);
    f->kind = (uint8_t)kind;
    f->who = (int8_t)who;
    f->target = (int8_t)target;
    return f;
}

void ft_emit(ft_run *r, ft_fact_kind kind, int who, int target, int v0,
             int v1, int v2, int v3) {
    ft_fact *f = ft_emit_fact(r, kind, who, target);
    if (f) {
        f->v[0] = v0;
        f->v[1] = v1;
        f->v[2] = v2;
        f->v[3] = v3;
    }
}

/* ft_emit for the fight loop's own facts: with facts off (simulation)
 * it would record nothing, so it is not called. */
static inline void emit(ft_run *r, ft_fact_kind kind, int who, int target,
                        int v0, int v1, int v2, int v3) {
    if (r->facts)
        ft_emit(r, kind, who, target, v0, v1, v2, v3);
}

/* ---- Small queries ------------------------------------------------------ */

bool ft_allies(const ft_setup *s, int a, int b) {
    return s->c[a].side == s->c[b].side;
}

fray_footprint ft_footprint(const ft_setup *s, const ft_state *st, int c) {
    fray_footprint fp;
    fp.at = st->c[c].pos;
    /* fray_grid_side_for_size, inlined: this is asked very often. */
    int rank = s->c[c].sb.size_rank;
    fp.side = (int8_t)(rank <= 0 ? 1 : rank >= 4 ? 5 : rank + 1);
    return fp;
}

/* ft_can_act and not holding, in one test of the flags (c is a valid
 * index: ft_next_actor asks each combatant in turn). */
static bool on_clock(const ft_state *st, int c) {
    return !(st->c[c].flags & (FT_F_UNCONSCIOUS | FT_F_DYING | FT_F_DEAD |
                               FT_F_FLED | FT_F_HOLDING | FT_F_RIDING));
}

/* ft_can_act for a valid index c, as one test of the flags without a
 * call (builds without NDEBUG compare it with harm.c's). */
static inline bool can_act(const ft_state *st, int c) {
    bool yes = !(st->c[c].flags &
                 (FT_F_UNCONSCIOUS | FT_F_DYING | FT_F_DEAD | FT_F_FLED));
    assert(yes == ft_can_act(st, c));
    return yes;
}

/* The scan the clock track stands for: the earliest phase, then the
 * lowest slot, then the lowest index, among those on the clock (builds
 * without NDEBUG check the track against it). */
#ifndef NDEBUG
static int next_actor_scan(const ft_state *st) {
    int best = -1;
    int32_t best_phase = 0, best_slot = 0; /* st->c[best]'s, kept at hand */
    for (int i = 0; i < st->n; i++) {
        if (!on_clock(st, i))
            continue;
        const ft_cstate *c = &st->c[i];
        if (best < 0 || c->phase < best_phase ||
            (c->phase == best_phase && c->slot < best_slot)) {
            best = i;
            best_phase = c->phase;
            best_slot = c->slot;
        }
    }
    return best;
}
#endif

int ft_next_actor(const ft_state *st) {
    if (st->over)
        return -1;
    int best = st->clock.n > 0 ? st->clock.e[0].who : -1;
    assert(best == next_actor_scan(st));
    return best;
}

/* ft_clock_place, inline in this file's hot paths. */
static FT_ALWAYS_INLINE void clock_place(ft_state *st, int c) {
    if (!on_clock(st, c)) {
        fray__track_drop(&st->clock, c);
        /* A master who goes down lets his riding companions go
         * (companion.c; seed 000 "Companions and Minions"). */
        if (st->pairs && !can_act(st, c))
            ft_companions_release(st, c);
        return;
    }
    const ft_cstate *cs = &st->c[c];
    /* Lower slots first, then lower indexes: the track puts higher ties
     * first. */
    fray__track_set(&st->clock, c, cs->phase,
                    -((int64_t)cs->slot * FT_MAX_COMBATANTS + c));
}

void ft_clock_place(ft_state *st, int c) { clock_place(st, c); }

void ft_clock_sync(ft_state *st) {
    fray__track_init(&st->clock, FRAY__TRACK_ASCENDING);
    for (int i = 0; i < st->n; i++)
        clock_place(st, i);
}

static int base_slot(const ft_cstate *c) { return ft_base_slot(c->init_rank); }

/* Moves a combatant `cost` phases on from the current phase. */
static void clock_move(ft_state *st, int c, int cost) {
    ft_cstate *cs = &st->c[c];
    if (cost == 0) {
        /* Zero-cost: to the bottom of this phase's order (seed "Free and
         * Zero-Cost Actions"); later zero-cost actions go behind it. */
        cs->slot = FT_SLOT_BOTTOM + (++st->next_slot) * FT_SLOT_STEP;
        clock_place(st, c);
        return;
    }
    cs->phase = st->phase + cost;
    cs->slot = base_slot(cs);
    clock_place(st, c);
}

/* ---- The end of the fight ------------------------------------------------ */

/* The end of the fight when `standing` holds one bit for each side with
 * someone still in the fight (and st->over is false): two or more bits
 * and the fight goes on. */
static void over_from(ft_run *r, unsigned standing) {
    ft_state *st = r->st;
    if (standing & (standing - 1))
        return;
    int last = -2; /* nobody standing: a draw */
    for (int side = 0; side < FT_MAX_SIDES && last < 0; side++)
        if (standing >> side & 1u)
            last = side;
    st->over = true;
    st->winner = (int8_t)last;
    ft_emit(r, FT_FACT_END, -1, -1, st->winner, st->phase, 0, 0);
}

static void check_over(ft_run *r) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    if (st->over)
        return;
    if (s->duel.to) {
        ft_duel_check_over(r); /* seed 000 "Dueling" */
        return;
    }
    /* The sides with someone still in the fight, one bit each (the search
     * stops as soon as a second one shows). */
    unsigned standing = 0;
    for (int i = 0; i < st->n; i++)
        if (!(st->c[i].flags & (FT_F_UNCONSCIOUS | FT_F_DYING | FT_F_DEAD |
                                FT_F_FLED)) || /* ft_in_fight, inlined */
            (st->c[i].flags & FT_F_WAITING)) { /* joins later: its side is
                                                  still in (gm.c) */
            standing |= 1u << s->c[i].side;
            if (standing & (standing - 1))
                return;
        }
    over_from(r, standing);
}

/* ---- The map ------------------------------------------------------------- */

/* Who stands where, as the mover sees them: worked out once per search
 * (the search asks about each space it looks at). */
typedef struct occ_ctx {
    int n;                           /* combatants still on the map */
    int8_t who[FT_MAX_COMBATANTS];   /* in index order */
    uint8_t kind[FT_MAX_COMBATANTS]; /* fray_occupant */
    fray_footprint fp[FT_MAX_COMBATANTS];
} occ_ctx;

static void occ_init(occ_ctx *o, const ft_setup *s, const ft_state *st,
                     int mover) {
    o->n = 0;
    for (int i = 0; i < st->n; i++) {
        if (st->c[i].flags & FT_F_FLED)
            continue;
        fray_occupant k;
        if (i == mover)
            k = FRAY_OCC_SELF;
        else if (ft_allies(s, i, mover))
            k = FRAY_OCC_ALLY;
        else if (!ft_can_act(st, i))
            k = FRAY_OCC_PASSABLE;
        else
            k = FRAY_OCC_ENEMY;
        o->who[o->n] = (int8_t)i;
        o->kind[o->n] = (uint8_t)k;
        o->fp[o->n] = ft_fp(s, st, i);
        o->n++;
    }
    /* Seed 000 "Creature Sizes": Tiny or smaller creatures share spaces
     * (tumble.c). */
    if (!s->eng.no_tiny)
        ft_share_kinds(s, mover, o->n, o->who, o->fp, o->kind);
}

/* The mover itself wins over anyone sharing the space; otherwise the
 * strongest: enemy, passable, ally. */
static fray_occupant occupant(void *ctx, fray_pos p) {
    const occ_ctx *o = ctx;
    fray_occupant best = FRAY_OCC_EMPTY;
    for (int j = 0; j < o->n; j++) {
        const fray_footprint *fp = &o->fp[j];
        if (p.x < fp->at.x || p.y < fp->at.y || p.x >= fp->at.x + fp->side ||
            p.y >= fp->at.y + fp->side)
            continue;
        fray_occupant k = (fray_occupant)o->kind[j];
        if (k == FRAY_OCC_SELF)
            return FRAY_OCC_SELF;
        if (k > best)
            best = k;
    }
    return best;
}

static bool threatens_at(ft_run *r, int e, int mover, fray_pos at) {
    ft_cstate *m = &r->st->c[mover];
    fray_pos keep = m->pos;
    uint64_t gen = r->st->threat_gen; /* (a trial place: ft_threat_touch) */
    m->pos = at;
    r->st->threat_gen = 0;
    bool t = ft_threatens(r, e, mover);
    m->pos = keep;
    r->st->threat_gen = gen;
    return t;
}

/* ---- Opportunity attacks (seed "Opportunity Attacks"; RULINGS 14) -------- */

static bool may_react(ft_run *r, int e, int provoker) {
    const ft_state *st = r->st;
    if (ft_allies(r->setup, e, provoker) || !ft_can_act(st, e))
        return false;
    /* "You also cannot make Opportunity Attacks while Flat-Footed." */
    if (!(st->c[e].flags & FT_F_ACTED))
        return false;
    /* Seed "Full Defense": "He may take no other actions during this
     * time", and an opportunity attack is an action. */
    if (st->c[e].flags & FT_F_FULL_DEFENSE)
        return false;
    return true;
}

/* may_react of every combatant (up to 32), a bit each: its tests on the
 * flags read once per combatant, without a call (issue 16, "This round:
 * a crowd's decision and turn"; debug builds check it against
 * may_react). */
static uint32_t reactors(ft_run *r, int provoker) {
    const ft_setup *s = r->setup;
    const ft_state *st = r->st;
    int n = st->n < 32 ? st->n : 32;
    int side = s->c[provoker].side;
    uint32_t m = 0;
    for (int e = 0; e < n; e++) {
        unsigned f = st->c[e].flags;
        bool yes = s->c[e].side != side &&
                   !(f & (FT_F_UNCONSCIOUS | FT_F_DYING | FT_F_DEAD |
                          FT_F_FLED | FT_F_FULL_DEFENSE)) &&
                   (f & FT_F_ACTED);
        m |= (uint32_t)yes << e;
    }
#ifndef NDEBUG
    for (int e = 0; e < n; e++)
        assert(((m >> e) & 1u) == (may_react(r, e, provoker) ? 1u : 0u));
#endif
    return m;
}

/* Offers one opportunity attack by e on the provoker; records the choice.
 * Returns false when the provoker can no longer act. */
static fray_status offer_opportunity(ft_run *r, int e, int provoker) {
    bool take;
    if (r->replay) {
        if (r->choice_i >= r->ev->n_choices ||
            r->ev->choices[r->choice_i].kind != FT_CHOICE_OPPORTUNITY)
            return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0,
                                  "the journal does not match this fight "
                                  "(an opportunity attack was expected)");
        take = r->ev->choices[r->choice_i++].b != 0;
    } else {
        take = r->hooks && r->hooks->opportunity
                   ? r->hooks->opportunity(r->hooks->ctx, r, e, provoker)
                   : true;
        if (r->ev->n_choices < FT_EVENT_CHOICES) {
            ft_choice ch = {FT_CHOICE_OPPORTUNITY, (int8_t)e, (int8_t)e,
                            (int8_t)(take ? 1 : 0)};
            r->ev->choices[r->ev->n_choices++] = ch;
        }
    }
    if (!take)
        return FRAY_OK;
    /* The state changes before the provoker's own attack, if any. */
    if (r->memo)
        r->memo->valid = false;
    int delay = r->setup->opt.opportunity_delay;
    if (r->setup->c[e].sb.tsum.extra_oa) /* talent.c */
        delay = ft_talent_oa_delay(r, e, delay);
    ft_emit(r, FT_FACT_OPPORTUNITY, e, provoker, delay, 0, 0, 0);
    r->st->c[e].reacted_event = r->st->n_events;
    ft_attack_opts o;
    memset(&o, 0, sizeof o);
    o.opportunity = true;
    o.weapon = -1;
    bool hit;
    fray_status rc = ft_attack(r, e, provoker, &o, &hit);
    if (rc != FRAY_OK && rc != FRAY_ERR_INVALID)
        return rc;
    /* The attacker moves back on the clock from wherever it is. */
    r->st->c[e].phase += delay;
    clock_place(r->st, e);
    return FRAY_OK;
}

/* Actions that provoke while in a threatened space (the seed's list).
 * Who may react (may_react) is asked of everyone at once (reactors), and
 * again after each opportunity attack, the only thing here that changes
 * the state (issue 16, "This round: a crowd's decision and turn"); in a
 * prepared setup only (ft_setup.eng.ready), so that one not prepared goes
 * the long way (test_towers_skirm's provoke_mask_same_as_the_long_way). */
static fray_status provoke(ft_run *r, int mover) {
    const ft_state *st = r->st;
    bool masked = st->n <= 32 && r->setup->eng.ready;
    uint32_t reacts = masked ? reactors(r, mover) : 0;
    for (int e = 0; e < st->n; e++) {
        if (!can_act(st, mover))
            break;
        if (!(masked ? (reacts >> e & 1u) != 0 : may_react(r, e, mover)) ||
            st->c[e].reacted_event == st->n_events ||
            !ft_threatens(r, e, mover))
            continue;
        fray_status rc = offer_opportunity(r, e, mover);
        if (rc != FRAY_OK)
            return rc;
        if (masked)
            reacts = reactors(r, mover);
    }
    return FRAY_OK;
}

/* Walks a path step by step; leaving a space an enemy threatens offers it
 * one opportunity attack for the whole move (seed: "you can make an
 * Opportunity Attack only once"). `provokes` false: Shift Position alone,
 * or a leap. */
/* Debug builds: the mask of who may react (reactors) is may_react for
 * every combatant from `from` on not yet offered an opportunity attack
 * (the long way, which the walk asked at every step before issue 16). */
static void reacts_check(ft_run *r, int mover, uint32_t reacts,
                         uint32_t offered, int from) {
#ifndef NDEBUG
    for (int e = from; e < r->st->n && e < 32; e++)
        assert(((offered >> e) & 1u) ||
               (bool)((reacts >> e) & 1u) == may_react(r, e, mover));
#else
    (void)r;
    (void)mover;
    (void)reacts;
    (void)offered;
    (void)from;
#endif
}

/* Debug builds: the walk's look (ft_walk_look, kept from one
 * step to the next) is ft_threatens where the mover stands and at the next
 * space (threatens_at) for every combatant in todo, the long way. */
static void walk_look_check(ft_run *r, int mover, uint32_t todo,
                            uint32_t thr, uint32_t next, fray_pos to) {
#ifndef NDEBUG
    for (int e = 0; e < r->st->n && e < 32; e++) {
        if (!((todo >> e) & 1u))
            continue;
        assert((bool)((thr >> e) & 1u) == ft_threatens(r, e, mover));
        assert((bool)((next >> e) & 1u) == threatens_at(r, e, mover, to));
    }
#else
    (void)r;
    (void)mover;
    (void)todo;
    (void)thr;
    (void)next;
    (void)to;
#endif
}

static fray_status walk(ft_run *r, int mover, const fray_pos *path, int n,
                        bool provokes) {
    ft_cstate *m = &r->st->c[mover];
    fray_pos from = m->pos;
    uint32_t offered = 0;
    /* Seed 000 "Moving Through Spaces": a tumble's Acrobatics flips
     * (tumble.c), as it steps into a non-ally's space. */
    bool tumbling = r->ev->cmd.tumble && mover == r->ev->cmd.actor && provokes;
    uint32_t tumbled = 0;
    /* Speed (issue 16, "This round: the crowds' search kept"): who may
     * react (may_react) is asked once, not at every step: between two
     * opportunity attacks a step changes only the mover's place, which it
     * does not read. Asked again after each opportunity attack and each
     * tumble's step (flips, falls). Up to 32 combatants: a bit each. */
    bool masked = provokes && r->st->n <= 32;
    uint32_t reacts = masked ? reactors(r, mover) : 0;
    /* who threatens the mover where it stands (thr_ok: thr and look hold
     * the state as it is but for the mover's place) */
    uint32_t thr = 0;
    bool thr_ok = false;
    ft_walk_look look;
    look.who = 0;
    for (int i = 0; i < n; i++) {
        if (__builtin_expect(tumbling, 0)) {
            int end;
            fray_status rc = ft_tumble_step(r, mover, path, i, &tumbled,
                                            &offered, &end);
            if (rc != FRAY_OK)
                return rc;
            if (end != -2) {
                m->pos = end < 0 ? from : path[end];
                ft_threat_touch_one(r->st, mover);
                goto stop;
            }
            if (masked)
                reacts = reactors(r, mover);
            thr_ok = false;
        }
        if (provokes && masked && r->setup->eng.ready) {
            /* Only those who may react and have not been offered, in
             * index order (issue 16: a bit each, not a loop over
             * everyone); after an opportunity attack the mask is asked
             * again and the walk goes on past e, as the loop below (the
             * long way, which a setup not prepared takes). */
            reacts_check(r, mover, reacts, offered, 0);
            uint32_t todo = reacts & ~offered;
            /* Speed (issue 16, "This round: the crowd's walk and
             * attack"): who threatens the mover where it stands and who
             * would at the next space, a bit each (ft_walk_look);
             * the next space's look is the following step's look where it
             * stands, kept while no opportunity attack or tumble changed
             * the state. */
            if (!thr_ok) {
                ft_walk_look_init(r, todo, mover, &look);
                thr = ft_walk_look_at(r, &look, m->pos);
            }
            uint32_t next = ft_walk_look_at(r, &look, path[i]);
            walk_look_check(r, mover, todo, thr, next, path[i]);
            thr_ok = true;
            uint32_t go = todo & thr & ~next;
            while (go) {
                int e = __builtin_ctz(go);
                offered |= 1u << e;
                fray_status rc = offer_opportunity(r, e, mover);
                if (rc != FRAY_OK)
                    return rc;
                if (!ft_can_act(r->st, mover))
                    goto stop;
                reacts = reactors(r, mover);
                reacts_check(r, mover, reacts, offered, e + 1);
                todo = reacts & ~offered & (e < 31 ? ~0u << (e + 1) : 0u);
                ft_walk_look_init(r, todo, mover, &look);
                thr = ft_walk_look_at(r, &look, m->pos);
                next = ft_walk_look_at(r, &look, path[i]);
                walk_look_check(r, mover, todo, thr, next, path[i]);
                go = todo & thr & ~next;
                thr_ok = false; /* the next step looks again at everyone */
            }
            if (thr_ok)
                thr = next;
        } else if (provokes) {
            for (int e = 0; e < r->st->n; e++) {
                if ((offered >> e) & 1u)
                    continue;
                if (!may_react(r, e, mover))
                    continue;
                if (ft_threatens(r, e, mover) &&
                    !threatens_at(r, e, mover, path[i])) {
                    offered |= 1u << e;
                    fray_status rc = offer_opportunity(r, e, mover);
                    if (rc != FRAY_OK)
                        return rc;
                    if (!ft_can_act(r->st, mover))
                        goto stop;
                }
            }
        }
        m->pos = path[i];
        ft_threat_touch_one(r->st, mover);
    }
stop:;
    /* Spaces moved, counted the seed's way (diagonals 1, 2, 1, ...). */
    int spaces = 0, diagonals = 0;
    fray_pos prev = from;
    for (int i = 0; i < n && (prev.x != m->pos.x || prev.y != m->pos.y); i++) {
        if (path[i].x != prev.x && path[i].y != prev.y)
            spaces += (diagonals++ % 2) ? 2 : 1;
        else
            spaces++;
        prev = path[i];
    }
    ft_fact *f = ft_emit_fact(r, FT_FACT_MOVE, mover, -1);
    if (f) {
        f->v[0] = from.x;
        f->v[1] = from.y;
        f->v[2] = m->pos.x;
        f->v[3] = m->pos.y;
        f->v[4] = spaces;
    }
    if (!r->setup->eng.no_tiny && r->facts) /* tumble.c */
        ft_share_note(r, mover);
    /* Seed 000 "Grappling": a grapple holds a foe within reach; a
     * grappler who moves away from his victim lets go (the victim cannot
     * move: ft_check_command). Speed (issue 16, "This round: the crowd's
     * engine step"): first whether anyone is held by the mover at all,
     * four at a time; most walks have nobody to let go. */
    const ft_state *gst = r->st;
    unsigned held = 0;
    int gv = 0;
    for (; gv + 4 <= gst->n; gv += 4)
        held |= (unsigned)(gst->c[gv].grappled_by == mover) |
                (unsigned)(gst->c[gv + 1].grappled_by == mover) |
                (unsigned)(gst->c[gv + 2].grappled_by == mover) |
                (unsigned)(gst->c[gv + 3].grappled_by == mover);
    for (; gv < gst->n; gv++)
        held |= (unsigned)(gst->c[gv].grappled_by == mover);
#ifndef NDEBUG
    bool any_held = false;
    for (int v = 0; v < gst->n; v++)
        any_held = any_held || gst->c[v].grappled_by == mover;
    assert(any_held == (held != 0));
#endif
    for (int v = 0; held && v < r->st->n; v++) {
        if (r->st->c[v].grappled_by != mover ||
            fray_grid_within(ft_footprint(r->setup, r->st, mover),
                             ft_footprint(r->setup, r->st, v), 1))
            continue;
        r->st->c[v].grappled_by = -1;
        ft_cond_remove(r, v, FT_COND_GRAPPLED);
    }
    return FRAY_OK;
}

/* ---- Initiative (seed "Entering Combat and Initiative"; RULINGS 9) ------- */

/* Standard ranks (rules-facts.md): 1 shift, 2 flip, 3 both; not
 * cumulative, so only the best advantage and the worst disadvantage. */
static void rank_mods(int best, int worst, int *flip, int *shift) {
    int ranks[2] = {best, worst};
    for (int k = 0; k < 2; k++) {
        int rk = ranks[k] < 0 ? -ranks[k] : ranks[k];
        int sign = ranks[k] < 0 ? -1 : 1;
        if (rk == 1 || rk >= 3)
            *shift += sign;
        if (rk >= 2)
            *flip += sign;
    }
}

/* The best advantage and the worst disadvantage (ranks) that apply to
 * `what`, or, with `skill`, to a check of that skill (`applies: skill`
 * naming it); those that apply to all flips count for both. */
static FT_ALWAYS_INLINE int advantage_ranks(const ft_statblock *sb, ft_applies what,
                           const char *skill, int *flip, int *shift) {
    int best = 0, worst = 0;
    for (int i = 0; i < sb->n_advantages; i++) {
        const ft_advantage *a = &sb->advantages[i];
        bool fits = a->applies == FT_APPLIES_ALL ||
                    (a->applies == what &&
                     (!skill || strcasecmp(a->skill, skill) == 0));
        if (!fits)
            continue;
        if (a->rank > best)
            best = a->rank;
        if (a->rank < worst)
            worst = a->rank;
    }
    rank_mods(best, worst, flip, shift);
    return best - worst;
}

void ft_use_skill_mods(ft_run *r, const ft_command *cmd, int *flip,
                       int *shift) {
    const ft_statblock *sb = &r->setup->c[cmd->actor].sb;
    const ft_skill *sk = &sb->skills[cmd->skill];
    ft_cond_mods(r->st, cmd->actor, FT_FLIP_SKILL, false, flip, shift);
    /* Seed 001: the skill's advantages and talents count, and a
     * specialization that applies gives (flip+1). */
    ft_skill_mods(sb, sk->name, flip, shift);
    if (cmd->skill_spec > 0)
        *flip += 1;
    if (cmd->gm_flip || cmd->gm_shift) /* the GM's call (gm.c) */
        ft_gm_skill_mods(r, cmd, flip, shift);
}

void ft_skill_mods(const ft_statblock *sb, const char *skill, int *flip,
                   int *shift) {
    advantage_ranks(sb, FT_APPLIES_SKILL, skill, flip, shift);
    if (sb->tsum.any)
        ft_talent_flip_mods(sb, FT_APPLIES_SKILL, skill, flip, shift);
}

int ft_advantage_mods(const ft_statblock *sb, ft_applies what, int *flip,
                      int *shift) {
    int d = advantage_ranks(sb, what, NULL, flip, shift);
    if (sb->tsum.any) /* talents (talent.c) */
        ft_talent_flip_mods(sb, what, NULL, flip, shift);
    return d;
}

/*
 * The flip-off of RULINGS 9 for the m combatants in grp (listing order),
 * tied in CI, [N] and [SS]: each flips one card, in order; they are ranked
 * by their cards, and those still tied flip again among themselves, until
 * everyone has a place of their own. That is a fair order (each of m tied
 * combatants is first with chance 1/m: the deck does not know who flips)
 * and a consistent one, which pairwise flip-offs, counting wins, were not
 * for three or more (a beats b, b beats c, c beats a). Two tied combatants
 * flip exactly as the pairwise flip-off did: the first, then the second,
 * again while their cards tie. Sorts grp best first. The flip-offs of one
 * begin event turn over cards up to r->card_i = budget (FT_TIE_CARDS in
 * all); past that, those still tied keep their listing order.
 */
static fray_status flip_off(ft_run *r, int *grp, int m, int budget) {
    /* Ranges of grp still to settle, a stack: the best run on top. */
    int lo[FT_MAX_COMBATANTS], len[FT_MAX_COMBATANTS], top = 0;
    int val[FT_MAX_COMBATANTS];
    lo[top] = 0;
    len[top++] = m;
    int rounds = 0;
    while (top > 0) {
        /* (The old pairwise flip-off gave up after eight tied rounds.) */
        if (++rounds > 8 && !r->replay)
            r->ev->flip_off_rounds = true;
        top--;
        int *g = grp + lo[top], n = len[top];
        if (r->card_i + n > budget)
            continue; /* (never in practice: see FT_TIE_CARDS) */
        for (int k = 0; k < n; k++) {
            fray_flip f;
            int sh = 0;
            fray_status rc =
                ft_flip(r, g[k], 1, FT_FLIP_TIEBREAK, 0, INT_MIN, &f, &sh);
            if (rc != FRAY_OK)
                return rc;
            val[g[k]] = f.kept_value + sh;
        }
        /* Best card first; stable, so a run of equal cards keeps the
         * listing order. */
        for (int k = 1; k < n; k++) {
            int v = g[k], j = k;
            while (j > 0 && val[g[j - 1]] < val[v]) {
                g[j] = g[j - 1];
                j--;
            }
            g[j] = v;
        }
        /* Runs of equal cards flip again, the best run first (pushed
         * last). The ranges on the stack are disjoint parts of grp of two
         * or more each: never more than m / 2 of them. */
        for (int end = n; end > 0;) {
            int start = end - 1;
            while (start > 0 && val[g[start - 1]] == val[g[end - 1]])
                start--;
            if (end - start > 1) {
                lo[top] = (int)(g - grp) + start;
                len[top++] = end - start;
            }
            end = start;
        }
    }
    return FRAY_OK;
}

/* Whether combatants i and j are tied in everything before the flip-off
 * (RULINGS 9: CI, [N], [SS]). */
static bool tied(const ft_run *r, int i, int j) {
    const ft_statblock *a = &r->setup->c[i].sb, *b = &r->setup->c[j].sb;
    /* One who joins later (gm.c) flips when the GM brings it in. */
    if ((r->st->c[i].flags | r->st->c[j].flags) & FT_F_WAITING)
        return false;
    return r->st->c[i].ci == r->st->c[j].ci &&
           a->cv[FT_CV_N] == b->cv[FT_CV_N] &&
           a->aspects[FT_ASPECT_SS] == b->aspects[FT_ASPECT_SS] &&
           /* A companion flips no initiative: it is never tied. */
           r->setup->c[i].master == 0 && r->setup->c[j].master == 0;
}

/* The flip-offs of every group of tied combatants (flip_off), in the
 * order of each group's first member; flipoff[i] (0 before) becomes i's
 * place from the end of its group: the higher, the earlier. */
static fray_status tie_order(ft_run *r, int *flipoff) {
    const int n = r->st->n;
    bool grouped[FT_MAX_COMBATANTS];
    for (int i = 0; i < n; i++)
        grouped[i] = false;
    int tie_budget = r->card_i + FT_TIE_CARDS;
    for (int i = 0; i < n; i++) {
        if (grouped[i])
            continue;
        int grp[FT_MAX_COMBATANTS], m = 1;
        grp[0] = i;
        for (int j = i + 1; j < n; j++) {
            if (!grouped[j] && tied(r, i, j)) {
                grouped[j] = true;
                grp[m++] = j;
            }
        }
        if (m == 1)
            continue;
        if (m > 2 && !r->replay)
            r->ev->flip_off_rounds = true; /* the old way drew otherwise */
        fray_status rc = flip_off(r, grp, m, tie_budget);
        if (rc != FRAY_OK)
            return rc;
        /* grp is now best first. */
        for (int k = 0; k < m; k++)
            flipoff[grp[k]] = m - k;
    }
    return FRAY_OK;
}

/* The flip-off of fray before issue 11, kept only to replay the journals
 * it wrote: every tied pair in turn flips one card each until the cards
 * differ (at most eight times), and flipoff[] counts the wins. For two
 * tied it is flip_off exactly; for three or more it draws other cards. */
static fray_status tie_order_pairwise(ft_run *r, int *flipoff) {
    for (int i = 0; i < r->st->n; i++)
        for (int j = i + 1; j < r->st->n; j++) {
            if (!tied(r, i, j))
                continue;
            for (int guard = 0; guard < 8; guard++) {
                fray_flip fa, fb;
                int sa = 0, sb = 0;
                fray_status rc = ft_flip(r, i, 1, FT_FLIP_TIEBREAK, 0,
                                         INT_MIN, &fa, &sa);
                if (rc == FRAY_OK)
                    rc = ft_flip(r, j, 1, FT_FLIP_TIEBREAK, 0, INT_MIN, &fb,
                                 &sb);
                if (rc != FRAY_OK)
                    return rc;
                if (fa.kept_value + sa != fb.kept_value + sb) {
                    flipoff[fa.kept_value + sa > fb.kept_value + sb ? i
                                                                    : j]++;
                    break;
                }
            }
        }
    return FRAY_OK;
}

static fray_status begin(ft_run *r) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    fray_status rc = ft_fate_deal(r);
    if (rc != FRAY_OK)
        return rc;
    int order[FT_MAX_COMBATANTS], flipoff[FT_MAX_COMBATANTS];
    /* Seed 000 "Dueling" (duel.c): the Showdown first; a concession there
     * ends the duel before Stage Three. */
    if (s->duel.to) {
        bool conceded;
        rc = ft_duel_begin(r, &conceded);
        if (rc != FRAY_OK || conceded) {
            ft_clock_sync(st);
            return rc;
        }
    }
    for (int i = 0; i < st->n; i++) {
        const ft_statblock *sb = &s->c[i].sb;
        order[i] = i; /* (for the tie order below) */
        flipoff[i] = 0;
        if (st->c[i].flags & FT_F_WAITING)
            continue; /* joins later: flips when the GM brings it in (gm.c) */
        /* Seed 000 "Companions and Minions": a companion activates with
         * its master; it flips no initiative (its place is his). */
        if (s->c[i].master > 0 &&
            (s->opt.companion_initiative == FT_CI_NONE || s->duel.to))
            continue;
        if (s->duel.to) {
            /* Stage Three, Focus: a Dueling check instead of the
             * Initiative [N] flip. */
            int dci;
            rc = ft_duel_initiative(r, i, &dci);
            if (rc != FRAY_OK)
                return rc;
            st->c[i].ci = (int16_t)dci;
            st->c[i].phase = 20 - (dci > 20 ? 20 : dci);
            emit(r, FT_FACT_INITIATIVE, i, -1, dci, st->c[i].phase, 0, 0);
            continue;
        }
        int flip = 0, shift = 0;
        ft_advantage_mods(sb, FT_APPLIES_INITIATIVE, &flip, &shift);
        int n = sb->cv[FT_CV_N];
        fray_flip f;
        int total_shift = shift;
        rc = ft_flip(r, i, n + flip, FT_FLIP_INITIATIVE, shift, INT_MIN, &f,
                     &total_shift);
        if (rc != FRAY_OK)
            return rc;
        /* Calculated Initiative: the kept card plus [N]. */
        int ci = f.kept_value + n + total_shift;
        st->c[i].ci = (int16_t)ci;
        int start = 20 - (ci > 20 ? 20 : ci);
        bool surprised = s->c[i].unaware_of != 0;
        if (surprised) {
            start += s->opt.surprise_delay;
            st->c[i].flags |= FT_F_SURPRISED;
        }
        st->c[i].phase = start;
        emit(r, FT_FACT_INITIATIVE, i, -1, ci, start, surprised, 0);
    }
    /* Option companion-initiative better (issue 7): the pair acts at
     * the better of the two flips: the master takes the companion's CI
     * and place when they are better. */
    if (s->opt.companion_initiative == FT_CI_BETTER && !s->duel.to)
        for (int i = 0; i < st->n; i++) {
            int m = s->c[i].master - 1;
            if (m < 0 || m >= st->n || (st->c[i].flags & FT_F_WAITING) ||
                (st->c[m].flags & FT_F_WAITING))
                continue;
            if (st->c[i].ci > st->c[m].ci)
                st->c[m].ci = st->c[i].ci;
            if (st->c[i].phase < st->c[m].phase)
                st->c[m].phase = st->c[i].phase;
        }
    /* Tie order for the whole encounter: CI, then [N], then [SS], then a
     * flip-off whose result holds for the encounter (flip_off). */
    /* A journal of fray before issue 11 flipped off pairwise: a begin
     * event recorded since says when its flip-offs drew otherwise
     * (ft_event.flip_off_rounds); replaying one without it, the old way
     * draws exactly the recorded cards. */
    rc = r->replay && !r->ev->flip_off_rounds ? tie_order_pairwise(r, flipoff)
                                              : tie_order(r, flipoff);
    if (rc != FRAY_OK)
        return rc;
    /* Insertion sort: best first. */
    for (int i = 1; i < st->n; i++) {
        int v = order[i], k = i;
        while (k > 0) {
            int u = order[k - 1];
            const ft_statblock *a = &s->c[v].sb, *b = &s->c[u].sb;
            int d = st->c[v].ci - st->c[u].ci;
            if (!d)
                d = a->cv[FT_CV_N] - b->cv[FT_CV_N];
            if (!d)
                d = a->aspects[FT_ASPECT_SS] - b->aspects[FT_ASPECT_SS];
            if (!d)
                d = flipoff[v] - flipoff[u];
            if (d <= 0)
                break;
            order[k] = u;
            k--;
        }
        order[k] = v;
    }
    for (int k = 0; k < st->n; k++) {
        ft_cstate *c = &st->c[order[k]];
        c->init_rank = (int16_t)k;
        c->slot = base_slot(c);
    }
    for (int i = 0; i < st->n; i++)
        if (s->c[i].master > 0)
            st->c[i].phase = st->c[s->c[i].master - 1].phase;
    st->phase = 0;
    st->round = 1;
    ft_clock_sync(st);
    return FRAY_OK;
}

/* ---- The clock moves on (seed "Start of Phase Activities", "Zero Phases";
 * RULINGS 15) ------------------------------------------------------------ */

/* Returns whether it harmed anyone (only harm can end the fight). */
static bool zero_phase(ft_run *r, int phase) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    bool harmed = false;
    emit(r, FT_FACT_PHASE, -1, -1, phase, 1, 0, 0);
    /* (Read once: nothing in a fight changes the setup or the count.) */
    const bool dying_loses = s->opt.dying_loses_lethal;
    const bool no_pool_known = s->eng.ready;
    const int n = st->n;
    for (int i = 0; i < n; i++) {
        ft_cstate *c = &st->c[i];
        if (c->flags & FT_F_DEAD)
            continue;
        /* Mana recovery, up to the pool the stat block gives (with no
         * pool, none: s->eng says so without looking at each element). */
        int regen = 0;
        if (!no_pool_known || s->eng.mana_pool[i])
            regen = s->c[i].sb.mana_regen >= 0 ? s->c[i].sb.mana_regen
                                               : s->opt.mana_regen;
        for (int e = 0; e < FT_ELEMENT_COUNT && regen > 0; e++) {
            int cap = s->c[i].sb.mana[e];
            if (s->opt.mana_element_cap > 0 && cap > s->opt.mana_element_cap)
                cap = s->opt.mana_element_cap; /* rules-facts "Magic" */
            while (regen > 0 && c->mana[e] < cap) {
                c->mana[e]++;
                regen--;
                ft_emit(r, FT_FACT_MANA, i, -1, e, c->mana[e], 0, 0);
            }
        }
        /* Anyone below 0 LETHAL loses one more. */
        if (dying_loses && c->lethal + c->temp_lethal < 0) {
            ft_harm_apply(r, i, 0, 1, -1);
            harmed = true;
        }
    }
    return harmed;
}

/* `going`: the fight was found not over after the last change of anyone's
 * status (check_over), so that only harm in a zero phase could end it. */
/* The zero phases first, first + 10, ... up to `to`, in turn (advance);
 * true when one of them harmed someone. (Most clock steps of a quiet fight
 * that come to advance have a zero phase on the way: ft_phase_quiet takes
 * the others.) */
static inline bool zero_phases(ft_run *r, int first, int to) {
    bool harmed = false;
    for (int p = first; p <= to; p += 10) {
        if (zero_phase(r, p))
            harmed = true;
        r->st->phase = p;
    }
    return harmed;
}

/* The first zero phase (a multiple of 10) after `phase`. */
static inline int first_zero_after(int phase) {
    int first = phase + 1, m = first % 10;
    if (m != 0)
        first += m > 0 ? 10 - m : -m;
    return first;
}

/* Whether a clock moving on from phase `from` to `to` (q = to / 10) passes
 * a zero phase (first_zero_after(from) <= to), and then the first one in
 * *first. With to >= 0 the zero phases up to `to` are 10 * q, 10 * (q - 1),
 * ...: the answer comes from the quotient the clock needs anyway (for
 * st->round), and the first is found from the top (a step passes one zero
 * phase at most, as a rule) without dividing `from`. */
static inline bool zero_on_way(int from, int to, int q, int *first) {
    if (to < 0) {
        *first = first_zero_after(from);
        return *first <= to;
    }
    int z = 10 * q;
    if (z <= from)
        return false;
    while (z - 10 > from)
        z -= 10;
    *first = z;
    assert(z == first_zero_after(from));
    return true;
}

static inline void advance(ft_run *r, int to, bool going) {
    ft_state *st = r->st;
    /* Each zero phase after the current one, up to `to`, without testing
     * the phases in between. */
    int q = to / 10, first;
    if (zero_on_way(st->phase, to, q, &first) && zero_phases(r, first, to))
        going = false;
    st->phase = to; /* the clock at `to` */
    st->round = q + 1;
    emit(r, FT_FACT_PHASE, -1, -1, to, to - 10 * q == 0, 0, 0);
    if (!going)
        check_over(r);
    else
        assert(!st->over && (check_over(r), !st->over));
}

/* ---- Holds (seed "Hold") -------------------------------------------------- */

static void release(ft_run *r, int h, int phase, int slot) {
    ft_cstate *c = &r->st->c[h];
    c->flags &= (uint16_t)~FT_F_HOLDING;
    /* Never in the phase the Hold was declared. */
    if (phase <= c->hold_phase) {
        phase = c->hold_phase + 1;
        slot = base_slot(c);
    }
    c->phase = phase;
    c->slot = slot;
    clock_place(r->st, h);
    ft_emit(r, FT_FACT_RELEASE, h, -1, phase, 0, 0, 0);
}

/* Holders in the order they began to hold (seed 000 "Hold": "the person
 * who first started to Hold chooses who will go first": fray's reading,
 * docs/rules/towers.md: he goes first, and so on down): writes them to
 * out, returns how many. */
static int holders_in_order(const ft_state *st, const bool *pick, int *out) {
    int n = 0;
    for (int h = 0; h < st->n; h++) {
        if (!pick[h])
            continue;
        int i = n++;
        while (i > 0 && st->c[out[i - 1]].hold_event > st->c[h].hold_event) {
            out[i] = out[i - 1];
            i--;
        }
        out[i] = h;
    }
    return n;
}

/* After an event: holds waiting for something that now happened, in the
 * order their holders began to hold. When nobody is left on the clock but
 * some still hold, they are all forced to take the Delay action (seed 000
 * "Hold": "If ... no one wants to be the first to act, they can all be
 * forced to take the Delay action"): they come out 5 phases on, in the
 * same order. */
static void check_holds(ft_run *r, int actor) {
    ft_state *st = r->st;
    bool go[FT_MAX_COMBATANTS] = {false};
    bool any = false, holding = false;
    for (int h = 0; h < st->n; h++) {
        ft_cstate *c = &st->c[h];
        if (!(c->flags & FT_F_HOLDING) || !ft_can_act(st, h))
            continue;
        holding = true;
        if (c->hold_kind == FT_HOLD_ENEMY_IN_REACH) {
            for (int e = 0; e < st->n && !go[h]; e++)
                go[h] = !ft_allies(r->setup, e, h) && ft_in_fight(st, e) &&
                        ft_threatens(r, h, e);
        } else if (c->hold_kind == FT_HOLD_ACTS) {
            go[h] = actor == c->hold_who;
        }
        any |= go[h];
    }
    if (!holding)
        return;
    int order[FT_MAX_COMBATANTS];
    if (any) {
        int n = holders_in_order(st, go, order);
        for (int i = 0; i < n; i++) {
            int h = order[i];
            int slot = actor >= 0 ? st->c[actor].slot + 1 + i
                                  : base_slot(&st->c[h]);
            release(r, h, st->phase, slot);
        }
    }
    if (st->clock.n > 0 || st->over)
        return;
    check_over(r);
    if (st->over)
        return;
    for (int h = 0; h < st->n; h++)
        go[h] = (st->c[h].flags & FT_F_HOLDING) && ft_can_act(st, h);
    int n = holders_in_order(st, go, order);
    /* "This is up to the GM's discretion" (gm.c): 5, a forced Delay, or
     * 0, the first to hold acts first. */
    int later = n > 0 ? ft_gm_all_hold_phases(r) : 5;
    ft_fact *nf = n > 0 ? ft_emit_fact(r, FT_FACT_NOTE, -1, -1) : NULL;
    if (nf) {
        static const char note[] = "all hold: forced Delay";
        static const char first[] = "all hold: first acts";
        _Static_assert(sizeof note <= sizeof nf->text, "a note's room");
        _Static_assert(sizeof first <= sizeof nf->text, "a note's room");
        if (later)
            memcpy(nf->text, note, sizeof note);
        else
            memcpy(nf->text, first, sizeof first);
    }
    for (int i = 0; i < n; i++)
        release(r, order[i], st->phase + later,
                FT_SLOT_BOTTOM + (++st->next_slot) * FT_SLOT_STEP);
}

/* ---- Checking a command ---------------------------------------------------- */

/* Major or minor (rules-facts.md "Conditions"). */
static bool cond_is_major(int k) {
    switch (k) {
#define FT__E(id, nm, mj, hx)                                                  \
    case FT_COND_##id:                                                         \
        return mj;
        FT_CONDITION_LIST(FT__E)
#undef FT__E
    default:
        return false;
    }
}

static const ft_weapon *weapon_of(const ft_setup *s, const ft_state *st,
                                  int c, int w, bool off_hand) {
    const ft_statblock *sb = &s->c[c].sb;
    if (w < 0)
        w = st->c[c].wielded[off_hand ? 1 : 0];
    if (w < 0 || w >= sb->n_weapons)
        return NULL;
    return &sb->weapons[w];
}

static int weapon_index(const ft_setup *s, const ft_state *st,
                        const ft_command *cmd) {
    int w = cmd->weapon;
    if (w < 0)
        w = st->c[cmd->actor].wielded[cmd->off_hand ? 1 : 0];
    (void)s;
    return w;
}

/* "it is not X's turn: it is Ranger's turn (or his falcon's)". */
static fray_status diag_pair(fray_diag *diag, const char *name,
                             const char *master, const char *comp) {
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                          "it is not %s's turn: it is %s's turn (or %s's)",
                          name, master, comp);
}

static fray_status bad(fray_diag *diag, const char *fmt, const char *a,
                       const char *b) {
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0, fmt, a, b);
}

static bool same_fp(fray_footprint a, fray_footprint b) {
    return a.at.x == b.at.x && a.at.y == b.at.y && a.side == b.side;
}

/* The search kept in *k is from `from` to dest within max_cost, at that
 * parity (its occupants aside). */
static bool path_key_same(const ft_path_cache *k, const ft_setup *s,
                          fray_footprint from, int max_cost, int parity,
                          fray_pos dest) {
    return k->valid && k->setup == s && same_fp(k->from, from) &&
           k->max_cost == max_cost && k->parity == parity &&
           k->dest.x == dest.x && k->dest.y == dest.y;
}

/* Is the search find_path would make the one kept in *k? */
static bool path_cached(const ft_path_cache *k, const ft_setup *s,
                        fray_footprint from, int max_cost, int parity,
                        fray_pos dest, const occ_ctx *o) {
    if (!path_key_same(k, s, from, max_cost, parity, dest) || k->n_occ != o->n)
        return false;
    for (int j = 0; j < o->n; j++)
        if (k->occ_who[j] != o->who[j] || k->occ_kind[j] != o->kind[j] ||
            !same_fp(k->occ_fp[j], o->fp[j]))
            return false;
    return true;
}

/* A path for the mover to dest within max_cost; writes the path. With
 * `paths`, the same search as the last one is answered from it. */
static int find_path(const ft_setup *s, const ft_state *st, int c,
                     fray_pos dest, int max_cost, int parity, fray_pos *path,
                     int max, bool *out_can_stop, ft_path_cache *paths) {
    fray_reach_map m;
    occ_ctx o;
    fray_footprint from = ft_fp(s, st, c);
    if (paths && max <= FT_PATH_CACHE_MAX) {
        /* Speed (issue 16): the kept path's occupants were found to be
         * this mover's view of this state at this count of changes
         * (ft_threat_cache.path_st): nobody moved, fell or got up since,
         * so they are not listed and compared again. A check's trial
         * place sets the count to 0: listed then, as before. */
        ft_threat_cache *tc = &paths->threat;
        uint64_t gen = st->threat_gen;
        bool same_occ = gen != 0 && tc->path_st == st &&
                        tc->path_gen == gen && tc->path_mover == c;
        bool kept;
        if (same_occ) {
            kept = path_key_same(paths, s, from, max_cost, parity, dest);
#ifndef NDEBUG
            /* The long way: the occupants listed and compared. */
            occ_init(&o, s, st, c);
            assert(kept == path_cached(paths, s, from, max_cost, parity,
                                       dest, &o));
#endif
            if (!kept)
                occ_init(&o, s, st, c);
        } else {
            occ_init(&o, s, st, c);
            kept = path_cached(paths, s, from, max_cost, parity, dest, &o);
        }
        if (!kept) {
            /* The search, kept for FT_PATH_CACHE_MAX steps of path. */
            paths->valid = false;
            paths->n = find_path(s, st, c, dest, max_cost, parity, paths->path,
                                 FT_PATH_CACHE_MAX, &paths->can_stop, NULL);
            paths->setup = s;
            paths->from = from;
            paths->max_cost = max_cost;
            paths->parity = parity;
            paths->dest = dest;
            paths->n_occ = o.n;
            for (int j = 0; j < o.n; j++) {
                paths->occ_who[j] = o.who[j];
                paths->occ_kind[j] = o.kind[j];
                paths->occ_fp[j] = o.fp[j];
            }
            paths->valid = true;
        }
        /* The kept path's occupants are now this mover's view (compared
         * or listed just now). */
        tc->path_st = gen != 0 ? st : NULL;
        tc->path_gen = gen;
        tc->path_mover = c;
        /* fray_grid_path writes the first min(len, max) steps. */
        *out_can_stop = paths->can_stop;
        int n = paths->n < max ? paths->n : max;
        for (int i = 0; i < n; i++)
            path[i] = paths->path[i];
        return n;
    }
    occ_init(&o, s, st, c);
    int dx = dest.x - from.at.x, dy = dest.y - from.at.y;
    if (s->eng.ready && max_cost <= 1 && (dx || dy) && dx >= -1 && dx <= 1 &&
        dy >= -1 && dy <= 1) {
        /* Speed (issue 16, "This round: the crowds' search kept"): a move
         * of at most 1 to a neighbouring space (a Shift Position) can only
         * be the direct step: a step weighs at least 2 half-units and the
         * search goes to 2 * max_cost + 1, so two steps are past it. The
         * step weighed alone (fray__grid_step_key, the search's own
         * rules) gives the search's answer. */
        bool stop = false;
        int wgt = fray__grid_step_key(&s->map, from, dx, dy, o.fp, o.kind,
                                      o.n, &stop);
        bool in = wgt >= 0 && parity + wgt <= 2 * max_cost + 1;
#ifndef NDEBUG
        fray__grid_reach_steps(&s->map, ft_steps(s), from, parity, max_cost,
                               o.fp, o.kind, o.n, dest, &m);
        assert(in == (fray_grid_in(&s->map, dest) &&
                      m.cost[dest.y][dest.x] >= 0));
        fray_pos one[1];
        assert(!in || (m.can_stop[dest.y][dest.x] == stop &&
                       fray_grid_path(&m, dest, one, 1) == 1 &&
                       one[0].x == dest.x && one[0].y == dest.y));
#endif
        *out_can_stop = in && stop;
        if (!in)
            return -1;
        /* (fray_grid_path writes and counts at most max steps) */
        if (max < 1)
            return 0;
        path[0] = dest;
        return 1;
    }
    /* Only dest and its path are asked for: the search stops there. */
    fray__grid_reach_steps(&s->map, ft_steps(s), from, parity, max_cost, o.fp,
                           o.kind, o.n, dest, &m);
    *out_can_stop = false;
    if (!fray_grid_in(&s->map, dest) || m.cost[dest.y][dest.x] < 0)
        return -1;
    *out_can_stop = m.can_stop[dest.y][dest.x];
    return fray_grid_path(&m, dest, path, max);
}

bool ft_is_sure_footed(const char *name) {
    static const char want[] = "surefooted";
    size_t k = 0;
    for (const char *p = name; *p; p++) {
        if (*p == '-' || *p == ' ')
            continue;
        if (k >= sizeof want - 1 || tolower((unsigned char)*p) != want[k])
            return false;
        k++;
    }
    return k == sizeof want - 1;
}

/* The stat block has the Sure-Footed advantage. */
static bool sure_footed(const ft_statblock *sb) {
    for (int i = 0; i < sb->n_advantages; i++)
        if (sb->advantages[i].rank > 0 &&
            ft_is_sure_footed(sb->advantages[i].name))
            return true;
    return false;
}

static bool straight(fray_pos from, const fray_pos *path, int n) {
    int dx = 0, dy = 0;
    fray_pos prev = from;
    for (int i = 0; i < n; i++) {
        int sx = path[i].x - prev.x, sy = path[i].y - prev.y;
        if (i > 0 && (sx != dx || sy != dy))
            return false;
        dx = sx;
        dy = sy;
        prev = path[i];
    }
    return true;
}

/* A weapon of c's lying on the floor within its reach to pick up (seed
 * 000 "Pick up an Object": its space or an adjacent one): weapon w if
 * w >= 0, else the first such; -1 none. */
static int dropped_near(const ft_setup *s, const ft_state *st, int c, int w) {
    const ft_cstate *cs = &st->c[c];
    if (!s->has_map)
        return -1;
    for (int i = 0; i < s->c[c].sb.n_weapons && i < FT_MAX_WEAPONS; i++)
        if ((w < 0 || i == w) && (cs->dropped >> i & 1u) &&
            fray_grid_count(cs->pos, cs->dropped_at[i]) <= 1)
            return i;
    return -1;
}

static fray_status check(const ft_setup *s, ft_state *st,
                         const ft_command *cmd, fray_diag *diag,
                         ft_path_cache *paths, const ft_attack_memo *memo);

/*
 * The path of a Charge to dest (seed 000 "Charge": "The last three spaces
 * of the move must be in a straight line if the character moves that
 * far"): the mover chooses the path, so any path within max_cost whose
 * last three steps go one way is legal, not only the one find_path
 * happens to find. The cheapest such path (the path find_path found when
 * it qualifies; else the cheapest of the eight ways in, in the search's
 * order of directions on a tie); with a `via` space (cmd->charge_via: the
 * GM or the player names where the straight run begins), that way only.
 * A charge whose cheapest path is shorter than three steps needs no
 * straight run. Returns the number of steps written to path, -1 when dest
 * cannot be reached or ended on, -2 when it can, but not with a straight
 * run of three (or not by way of `via`).
 */
static int charge_path(const ft_setup *s, const ft_state *st, int c,
                       const ft_command *cmd, int max_cost, int parity,
                       fray_pos *path, int max, ft_path_cache *paths) {
    static const int8_t dirs[8][2] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1},
                                      {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    fray_pos dest = cmd->dest;
    fray_pos start = st->c[c].pos;
    bool stop = false;
    int n = find_path(s, st, c, dest, max_cost, parity, path, max, &stop, paths);
    if (!cmd->charge_via && n >= 0 && stop) {
        fray_pos before = n >= 4 ? path[n - 4] : start;
        if (n < 3 || straight(before, path + n - 3, 3))
            return n;
    }
    if (n < 0 && !cmd->charge_via)
        return -1;
    occ_ctx o;
    occ_init(&o, s, st, c);
    fray_footprint from = ft_fp(s, st, c);
    fray_reach_map m;
    fray__grid_reach_steps(&s->map, ft_steps(s), from, parity, max_cost, o.fp,
                           o.kind, o.n, (fray_pos){-1, -1}, &m);
    int best = -1, best_key = 2 * max_cost + 2;
    bool reachable = false;
    for (int d = 0; d < 8; d++) {
        fray_pos p = {(int16_t)(dest.x - 3 * dirs[d][0]),
                      (int16_t)(dest.y - 3 * dirs[d][1])};
        if (cmd->charge_via && (p.x != cmd->via.x || p.y != cmd->via.y))
            continue;
        if (!fray_grid_in(&s->map, p) || m.cost[p.y][p.x] < 0)
            continue;
        int key = 2 * m.cost[p.y][p.x] + m.parity[p.y][p.x];
        fray_footprint f = from;
        f.at = p;
        bool can_stop = false;
        for (int i = 0; i < 3 && key >= 0; i++) {
            int w = fray__grid_step_key(&s->map, f, dirs[d][0], dirs[d][1],
                                        o.fp, o.kind, o.n, &can_stop);
            key = w < 0 ? -1 : key + w;
            f.at.x = (int16_t)(f.at.x + dirs[d][0]);
            f.at.y = (int16_t)(f.at.y + dirs[d][1]);
        }
        if (key < 0 || !can_stop)
            continue;
        reachable = true;
        if (key <= 2 * max_cost + 1 && key < best_key) {
            best = d;
            best_key = key;
        }
    }
    if (best < 0)
        return n >= 0 || reachable ? -2 : -1;
    fray_pos p = {(int16_t)(dest.x - 3 * dirs[best][0]),
                  (int16_t)(dest.y - 3 * dirs[best][1])};
    int k = fray_grid_path(&m, p, path, max);
    if (k > max - 3)
        return -1;
    for (int i = 1; i <= 3; i++)
        path[k++] = (fray_pos){(int16_t)(p.x + i * dirs[best][0]),
                               (int16_t)(p.y + i * dirs[best][1])};
    return k;
}


/*
 * The state is not changed: to judge an action that starts with Shift
 * Position (or a Charge's blow), the actor is put on the space it would
 * stand on and put back before returning. No copy of the state is made:
 * the policies call this for every decision of millions of fights.
 */
/*
 * The leap of a Running Leap (seed "Running Leap"): a straight line
 * (orthogonal or diagonal) of up to SPD spaces, every space of it
 * unoccupied and not a wall (pits and difficult ground are flown over),
 * landing on solid ground (open or difficult). Writes the spaces, returns
 * their number, or -1.
 */
static int leap_path(const ft_setup *s, const ft_state *st, int c,
                     fray_pos dest, int spd, fray_pos *path, int max) {
    fray_footprint fp = ft_footprint(s, st, c);
    int dx = dest.x - fp.at.x, dy = dest.y - fp.at.y;
    int n = abs(dx) > abs(dy) ? abs(dx) : abs(dy);
    if (n == 0 || n > max || (dx && dy && abs(dx) != abs(dy)) ||
        fray_grid_count(fp.at, dest) > spd)
        return -1;
    int sx = dx > 0 ? 1 : dx < 0 ? -1 : 0, sy = dy > 0 ? 1 : dy < 0 ? -1 : 0;
    occ_ctx o;
    occ_init(&o, s, st, c);
    fray_pos prev = fp.at;
    for (int i = 1; i <= n; i++) {
        fray_pos at = {(int16_t)(fp.at.x + sx * i), (int16_t)(fp.at.y + sy * i)};
        for (int y = 0; y < fp.side; y++)
            for (int x = 0; x < fp.side; x++) {
                fray_pos q = {(int16_t)(at.x + x), (int16_t)(at.y + y)};
                if (!fray_grid_in(&s->map, q))
                    return -1;
                int t = s->map.terrain[q.y][q.x];
                if (t == FRAY_TERRAIN_WALL || t == FRAY_TERRAIN_WINDOW)
                    return -1;
                /* Landing in a pit: it falls (seed 000 "Falling";
                 * do_action), else on solid ground. */
                if (i == n && t != FRAY_TERRAIN_OPEN &&
                    t != FRAY_TERRAIN_DIFFICULT && t != FRAY_TERRAIN_PIT)
                    return -1; /* must land on solid ground */
                fray_occupant k = occupant(&o, q);
                if (k != FRAY_OCC_EMPTY && k != FRAY_OCC_SELF)
                    return -1;
            }
        if (!(sx && sy) && fray_grid_edge(&s->map, prev, at) == FRAY_EDGE_WALL)
            return -1;
        path[i - 1] = at;
        prev = at;
    }
    return n;
}

fray_status ft_check_command(const ft_setup *s, const ft_state *st,
                             const ft_command *cmd, fray_diag *diag) {
    return ft_check_command_paths(s, st, cmd, diag, NULL);
}

fray_status ft_check_command_paths(const ft_setup *s, const ft_state *st,
                                   const ft_command *cmd, fray_diag *diag,
                                   ft_path_cache *paths) {
    return ft_check_command_memo(s, st, cmd, diag, paths, NULL);
}

fray_status ft_check_command_memo(const ft_setup *s, const ft_state *st,
                                  const ft_command *cmd, fray_diag *diag,
                                  ft_path_cache *paths,
                                  const ft_attack_memo *memo) {
    ft_state *mst = (ft_state *)st;
    if (cmd->action >= FT_ACTION_COUNT || cmd->actor < 0 ||
        cmd->actor >= st->n)
        return check(s, mst, cmd, diag, paths, memo);
    fray_pos keep = st->c[cmd->actor].pos;
    /* check may put the actor on a trial place (a Shift first, a
     * Charge's end), setting threat_gen to 0: both put back. */
    uint64_t gen = st->threat_gen;
    fray_status rc = check(s, mst, cmd, diag, paths, memo);
    mst->c[cmd->actor].pos = keep;
    mst->threat_gen = gen;
    return rc;
}

/* The read-only run and the options with which check asks attack.c
 * whether the attack of cmd (weapon wi) can be made. */
static void attack_check_init(const ft_setup *s, ft_state *st,
                              const ft_command *cmd, int wi, ft_run *r,
                              ft_attack_opts *o) {
    ft_run_clear(r);
    r->setup = s;
    r->st = st; /* read only: ft_attack_possible does not write */
    memset(o, 0, sizeof *o);
    o->weapon = wi;
    o->off_hand = cmd->off_hand;
    o->power = cmd->action == FT_ACT_POWER_ATTACK;
    o->aid = cmd->action == FT_ACT_AID;
    if (cmd->action == FT_ACT_AID)
        o->aid_ally = cmd->ally;
}

static fray_status check(const ft_setup *s, ft_state *st,
                         const ft_command *cmd, fray_diag *diag,
                         ft_path_cache *paths, const ft_attack_memo *memo) {
    if (cmd->action >= FT_ACTION_COUNT)
        return FRAY_OK; /* the engine's own steps */
    if (ft_actions[cmd->action].flags & FT_AF_GM)
        return ft_gm_check(s, st, cmd, diag); /* any time: no turn */
    int a = cmd->actor;
    if (a < 0 || a >= st->n)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no such combatant");
    if (cmd->action == FT_ACT_CONCEDE) /* not on its turn (duel.c) */
        return ft_duel_check_concede(s, st, cmd, diag);
    const char *name = s->c[a].name;
    const ft_cstate *c = &st->c[a];
    const ft_action_info *info = &ft_actions[cmd->action];
    /* The actor whose turn it is is on the clock, so it can act, and the
     * fight is not over (ft_next_actor says -1 then): ask that first. The
     * fight's loop may just have asked it on this very state (paths
     * ->turn_st: told only while the policy weighs that turn, in which
     * nothing but the places checks put back changes). */
    int next = paths && paths->turn_st == st &&
                       paths->turn_events == st->n_events
                   ? paths->turn_actor
                   : ft_next_actor(st);
    assert(next == ft_next_actor(st));
    /* A companion riding with its master acts at his turn (seed 000
     * "Companions and Minions"): the pair's turn is the master's. */
    int turn = ft_turn_of(st, a);
    /* Seed 000 "Hold": "When he chooses to act, he moves into that phase
     * ahead of ... whoever is normally scheduled to go"; "You cannot act
     * in the same phase in which you chose to Hold." */
    bool chooses = (c->flags & FT_F_HOLDING) && !st->over && ft_can_act(st, a);
    if (chooses && st->phase <= c->hold_phase)
        return bad(diag, "%s chose to Hold in this phase: it can act from the "
                   "next phase on%s", name, "");
    if (chooses && cmd->action == FT_ACT_HOLD)
        return bad(diag, "%s is holding already%s", name, "");
    if (next != turn && !chooses) {
        if (st->over)
            return bad(diag, "the fight is over%s%s", "", "");
        if (!ft_can_act(st, a))
            return bad(diag, "%s cannot act%s", name, "");
        int comp = next >= 0 ? ft_companion_riding(st, next) : -1;
        if (comp >= 0)
            return diag_pair(diag, name, s->c[next].name, s->c[comp].name);
        return bad(diag, "it is not %s's turn: %s acts next", name,
                   next >= 0 ? s->c[next].name : "nobody");
    }
    if (turn != a && !ft_can_act(st, turn) )
        return bad(diag, "%s cannot act%s", s->c[turn].name, "");
    if (st->c[turn].phase > st->phase && !chooses)
        return bad(diag, "%s acts in a later phase: the clock must move on "
                   "first%s", name, "");
    if ((c->flags & FT_F_LEAPING) && cmd->action != FT_ACT_RUNNING_LEAP)
        return bad(diag, "%s is in the middle of a Running Leap and must "
                   "leap%s", name, "");
    /* Seed "Forced Delay": no free or zero-cost actions in the same phase
     * as the Delay (after it, the turn is over anyway). */
    if (cmd->action == FT_ACT_DELAY && c->free_phase == st->phase)
        return bad(diag, "%s took a free or zero-cost action this phase: no "
                   "Forced Delay now%s", name, "");
    /* fray's ruling: a Stunned or Helpless combatant's turn is a Forced
     * Delay (its durations still run out with its activations). */
    /* (n_cond first: most combatants have no condition at all.) */
    if (c->n_cond > 0 &&
        (ft_cond_has(st, a, FT_COND_STUNNED) ||
         ft_cond_has(st, a, FT_COND_HELPLESS)) &&
        cmd->action != FT_ACT_DELAY)
        return bad(diag, "%s is %s: its turn is a Forced Delay", name,
                   ft_cond_has(st, a, FT_COND_STUNNED) ? "stunned"
                                                       : "helpless");
    if (cmd->drop_prone && cmd->action != FT_ACT_MOVE)
        return bad(diag, "only a Combat Move ends with a free Drop Prone%s%s",
                   "", "");
    if (cmd->shift_first && (info->flags & FT_AF_NO_SHIFT))
        return bad(diag, "Shift Position cannot be added to %s%s", info->text,
                   "");
    bool prone = c->n_cond > 0 && ft_cond_has(st, a, FT_COND_PRONE);
    if (prone && ((info->flags & FT_AF_MOVE_RELATED) || cmd->shift_first ||
                  cmd->action == FT_ACT_SHIFT))
        return bad(diag, "%s is prone: Stand from Prone first%s", name, "");
    if ((info->flags & FT_AF_TARGET) && cmd->at_space && cmd->target < 0 &&
        !ft_area_weapon(s, st, cmd))
        return bad(diag, "only an area of effect is aimed at a space: %s "
                   "needs a target%s", info->text, "");
    if ((info->flags & FT_AF_TARGET) &&
        !(cmd->at_space && ft_area_weapon(s, st, cmd)) &&
        (cmd->target < 0 || cmd->target >= st->n))
        return bad(diag, "%s needs a target%s", info->text, "");
    /* Seed 000 "Grappling": Restrain, Squeeze, Slam, Throw, Reverse the
     * Grapple (grapple.c). */
    if (cmd->grapple_move)
        return ft_grapple_check(s, st, cmd, diag);
    /* Seed 000 "Grappling": "When grappled, during his turn your opponent
     * only has a few options": Escape, Reverse the Grapple (grapple.c,
     * above), or a restricted melee attack "against either his grappler or
     * another opponent he is adjacent to". fray's reading: a Forced Delay
     * when he does none of them, and free actions, which are no turn. */
    if (c->grappled_by >= 0) {
        int act = cmd->action;
        if (cmd->shift_first)
            return bad(diag, "%s is grappled: no Shift Position%s", name, "");
        if (act != FT_ACT_ESCAPE && act != FT_ACT_ATTACK &&
            act != FT_ACT_DELAY && info->cost != FT_COST_FREE)
            return bad(diag, "%s is grappled: Escape, a restricted melee "
                       "attack on an adjacent foe, or a Forced Delay%s", name,
                       "");
        if (act == FT_ACT_ATTACK) {
            const ft_statblock *sb = &s->c[a].sb;
            int wi = cmd->weapon >= 0 ? cmd->weapon
                                      : c->wielded[cmd->off_hand ? 1 : 0];
            const ft_weapon *w =
                wi >= 0 && wi < sb->n_weapons ? &sb->weapons[wi] : NULL;
            if (w && (w->range_increment > 0 || w->spell || w->area))
                return bad(diag, "%s is grappled: only a melee attack%s", name,
                           "");
            if (s->has_map &&
                !fray_grid_within(ft_footprint(s, st, a),
                                  ft_footprint(s, st, cmd->target), 1))
                return bad(diag, "%s is grappled: only a foe next to %s",
                           name, "him");
        }
    }
    if (cmd->shift_first || cmd->action == FT_ACT_SHIFT) {
        fray_pos to = cmd->action == FT_ACT_SHIFT ? cmd->dest : cmd->shift_to;
        if (!s->has_map)
            return bad(diag, "there is no map to move on%s%s", "", "");
        fray_pos path[4];
        bool stop;
        /* Seed "Shift Position": "This square cannot be into difficult
         * terrain unless the character has the Sure-Footed advantage" (the
         * step into it then costs its 2). */
        bool difficult = fray_grid_in(&s->map, to) &&
                         s->map.terrain[to.y][to.x] == FRAY_TERRAIN_DIFFICULT;
        bool sure = difficult && sure_footed(&s->c[a].sb);
        int n = find_path(s, st, a, to, sure ? 2 : 1, 0, path, 4, &stop, paths);
        if (n != 1 || !stop || (difficult && !sure))
            return bad(diag, "%s cannot Shift Position there: one open space "
                       "next to it, not difficult terrain (unless "
                       "Sure-Footed)%s", name, "");
    }
    const ft_weapon *w = weapon_of(s, st, a, cmd->weapon, cmd->off_hand);
    switch ((ft_action)cmd->action) {
    case FT_ACT_ATTACK:
    case FT_ACT_POWER_ATTACK:
    case FT_ACT_CAST:
    case FT_ACT_AID: {
        if (!w)
            return bad(diag, "%s holds no weapon: Draw a Weapon first%s", name,
                       "");
        if (cmd->action == FT_ACT_CAST && !w->spell)
            return bad(diag, "the %s is not a spell%s", w->name, "");
        if (w->area) /* seed 000 "Area of Effects" (area.c) */
            return ft_area_check(s, st, cmd, w, diag);
        if (ft_allies(s, a, cmd->target) && cmd->action != FT_ACT_AID)
            return bad(diag, "%s will not attack an ally (%s)", name,
                       s->c[cmd->target].name);
        /* (Dead is out of the fight: ft_in_fight need not be asked.) */
        if (st->c[cmd->target].flags & FT_F_DEAD)
            return bad(diag, "%s is dead%s", s->c[cmd->target].name, "");
        int wi = weapon_index(s, st, cmd);
        if (w->shots > 0 && st->c[a].ammo[wi] <= 0)
            return bad(diag, "the %s is empty: Reload a Weapon%s", w->name,
                       "");
        if (w->spell && w->mana_cost > st->c[a].mana[w->element])
            return bad(diag, "%s has not enough mana for the %s", name,
                       w->name);
        int tgt = cmd->target;
        if (cmd->action == FT_ACT_AID &&
            (cmd->ally < 0 || cmd->ally >= st->n ||
             !ft_allies(s, a, cmd->ally) || cmd->ally == a))
            return bad(diag, "Aid needs an ally to help%s%s", "", "");
        /* Range, sight and cover: the attack's own check, without flips. */
        ft_run r;
        ft_attack_opts o;
        /* The policy just found this attack possible on this very state
         * (only the weapon, the hand and the places decide it, not Power
         * Attack or Aid). */
        if (memo && memo->valid && memo->st == st &&
            memo->n_events == st->n_events && memo->attacker == a &&
            memo->target == tgt && memo->weapon == wi && !cmd->off_hand &&
            !cmd->shift_first) {
#ifndef NDEBUG
            ft_mods mm;
            attack_check_init(s, st, cmd, wi, &r, &o);
            ft_attack_possible(&r, a, tgt, &o, &mm);
            assert(!mm.impossible);
#endif
            break;
        }
        attack_check_init(s, st, cmd, wi, &r, &o);
        ft_mods m;
        if (cmd->shift_first) {
            st->c[a].pos = cmd->shift_to; /* put back by ft_check_command */
            st->threat_gen = 0;
        }
        ft_attack_mods_quiet(&r, a, tgt, &o, true, &m);
        if (m.impossible && diag)
            ft_attack_possible(&r, a, tgt, &o, &m); /* for its words */
        if (m.impossible)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s",
                                  m.why[0] ? m.why : "that attack is impossible");
        break;
    }
    case FT_ACT_AIM: {
        const ft_statblock *sb = &s->c[a].sb;
        int cap = (w && w->spell ? sb->cv[FT_CV_SA] : sb->cv[FT_CV_PA]) / 2;
        if (c->aim >= cap)
            return bad(diag, "%s cannot Aim again: at most half the attack "
                       "value in a row%s", name, "");
        break;
    }
    case FT_ACT_MOVE:
    case FT_ACT_RECKLESS_MOVE:
    case FT_ACT_CHARGE:
    case FT_ACT_RUNNING_LEAP: {
        if (!s->has_map)
            return bad(diag, "there is no map to move on%s%s", "", "");
        if (st->c[a].grappled_by >= 0 || ft_cond_has(st, a, FT_COND_GRAPPLED))
            return bad(diag, "%s is grappled: Escape first%s", name, "");
        int spd = ft_speed(s, st, a);
        if (cmd->action == FT_ACT_RECKLESS_MOVE)
            spd *= 2;
        if (cmd->chip >= 0) { /* a white chip: <SPD> doubled (talent.c) */
            if (ft_chip_speed_colour(&st->c[a], cmd->chip) < 0)
                return bad(diag, "%s holds no chip of that colour or higher "
                           "to double its Speed%s", name, "");
            spd *= 2;
        }
        fray_pos path[2 * FRAY_GRID_MAX];
        bool stop;
        /* A diagonal Shift first: one move with it for diagonals (seed
         * "Shift Position"). */
        int parity = cmd->shift_first && cmd->shift_to.x != st->c[a].pos.x &&
                     cmd->shift_to.y != st->c[a].pos.y;
        if (cmd->shift_first) {
            st->c[a].pos = cmd->shift_to; /* put back by ft_check_command */
            st->threat_gen = 0;
        }
        fray_pos start = st->c[a].pos;
        int n;
        if (cmd->action == FT_ACT_RUNNING_LEAP && (st->c[a].flags & FT_F_LEAPING)) {
            n = leap_path(s, st, a, cmd->dest, spd, path, 2 * FRAY_GRID_MAX);
            if (n < 0)
                return bad(diag, "%s cannot leap there: a straight line of up "
                           "to its Speed over empty spaces, landing on solid "
                           "ground%s", name, "");
            break;
        }
        if (cmd->action == FT_ACT_CHARGE) {
            n = charge_path(s, st, a, cmd, spd, parity, path,
                            2 * FRAY_GRID_MAX, paths);
            stop = n >= 0;
            if (n == -2)
                return bad(diag, cmd->charge_via
                                     ? "%s cannot charge there by way of that "
                                       "space: the last three spaces of a "
                                       "Charge go in a straight line, within "
                                       "its Speed%s"
                                     : "%s cannot charge there: no path within "
                                       "its Speed ends with three spaces in a "
                                       "straight line%s",
                           name, "");
        } else {
            n = find_path(s, st, a, cmd->dest, spd, parity, path,
                          2 * FRAY_GRID_MAX, &stop, paths);
        }
        if (cmd->tumble) {
            /* Seed 000 "Moving Through Spaces" (tumble.c): through the
             * spaces of non-allies only when no other way is open. */
            char why[160];
            const char *no = ft_tumble_refusal(s, st, cmd, why, sizeof why);
            if (no)
                return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s", no);
            if (n < 0 || !stop)
                n = ft_tumble_path(s, st, a, cmd->dest, spd, parity, path,
                                   2 * FRAY_GRID_MAX, &stop);
        }
        if (n < 0)
            return bad(diag, "%s cannot reach that space with this move%s",
                       name, "");
        if (!stop)
            return bad(diag, "%s cannot end a move there: it is occupied%s",
                       name, "");
        if (cmd->action == FT_ACT_CHARGE) {
            if (n < 1)
                return bad(diag, "a Charge must move at least one space%s%s",
                           "", "");
            if (!w || w->range_increment > 0 || w->spell)
                return bad(diag, "a Charge ends in a melee attack: %s holds "
                           "no melee weapon%s", name, "");
            st->c[a].pos = cmd->dest; /* put back by ft_check_command */
            st->threat_gen = 0;
            ft_run r;
            ft_run_clear(&r);
            r.setup = s;
            r.st = st;
            ft_attack_opts o;
            memset(&o, 0, sizeof o);
            o.weapon = weapon_index(s, st, cmd);
            o.charge = true;
            ft_mods m;
            ft_attack_possible(&r, a, cmd->target, &o, &m);
            if (m.impossible)
                return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s",
                                      m.why[0] ? m.why : "that Charge cannot reach its target");
        }
        if (cmd->action == FT_ACT_RUNNING_LEAP && !straight(start, path, n))
            return bad(diag, "a Running Leap goes in a straight line%s%s", "",
                       "");
        /* Seed "Running Leap": "the player must move in a straight line a
         * distance equal to his Speed <SPD>" (the run; the leap is "up
         * to"). */
        if (cmd->action == FT_ACT_RUNNING_LEAP &&
            fray_grid_count(start, cmd->dest) != spd)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "the run of a Running Leap is a straight "
                                  "line of exactly %s's Speed (%d spaces)",
                                  name, spd);
        break;
    }
    case FT_ACT_STAND:
        if (!prone)
            return bad(diag, "%s is not prone%s", name, "");
        break;
    case FT_ACT_DROP_PRONE:
        if (prone)
            return bad(diag, "%s is already prone%s", name, "");
        break;
    case FT_ACT_RELOAD:
        if (!w || w->shots <= 0)
            return bad(diag, "%s holds nothing to reload%s", name, "");
        break;
    case FT_ACT_ESCAPE:
        if (c->grappled_by < 0)
            return bad(diag, "%s is not grappled%s", name, "");
        break;
    case FT_ACT_GRAPPLE:
        if (cmd->target == a)
            return bad(diag, "%s cannot grapple itself%s", name, "");
        if (!fray_grid_within(ft_footprint(s, st, a),
                              ft_footprint(s, st, cmd->target), 1))
            return bad(diag, "%s must be next to %s to grapple", name,
                       s->c[cmd->target].name);
        break;
    case FT_ACT_CHIP_HEAL:
        if (cmd->chip < 1 || cmd->chip > 2 || c->chips[cmd->chip] <= 0)
            return bad(diag, "%s has no red or blue chip to heal with%s", name,
                       "");
        break;
    case FT_ACT_DRAW_WEAPON:
        if (cmd->weapon < 0 || cmd->weapon >= s->c[a].sb.n_weapons)
            return bad(diag, "%s has no such weapon%s", name, "");
        if ((c->dropped >> cmd->weapon & 1u) ||
            (cmd->draw_also > 0 && (c->dropped >> (cmd->draw_also - 1) & 1u)))
            return bad(diag, "that weapon lies on the floor: %s must Pick up "
                       "an Object%s", name, "");
        if (cmd->draw_also) {
            /* Seed 000 "Draw a Weapon": "If both hands are free and you
             * wish to draw two different one-handed weapons, you may do
             * so with the same action". */
            const ft_statblock *sb = &s->c[a].sb;
            int w2 = cmd->draw_also - 1;
            if (w2 < 0 || w2 >= sb->n_weapons)
                return bad(diag, "%s has no such weapon%s", name, "");
            if (w2 == cmd->weapon)
                return bad(diag, "two weapons drawn at once must be two "
                                 "different ones%s%s", "", "");
            if ((sb->weapons[cmd->weapon].keywords |
                 sb->weapons[w2].keywords) & FT_KW(TWO_HANDED))
                return bad(diag, "only two one-handed weapons can be drawn "
                                 "at once%s%s", "", "");
            if (c->wielded[0] >= 0 || c->wielded[1] >= 0)
                return bad(diag, "%s needs both hands free to draw two "
                                 "weapons at once%s", name, "");
        }
        break;
    case FT_ACT_DROP_OBJECT:
        if (c->wielded[0] < 0 && c->wielded[1] < 0)
            return bad(diag, "%s holds nothing%s", name, "");
        if (cmd->weapon >= 0 && c->wielded[0] != cmd->weapon &&
            c->wielded[1] != cmd->weapon)
            return bad(diag, "%s does not hold that weapon%s", name, "");
        break;
    case FT_ACT_PICK_UP: {
        int dw = dropped_near(s, st, a, cmd->weapon);
        if (dw < 0)
            return bad(diag, cmd->weapon >= 0
                                 ? "that weapon of %s's does not lie here%s"
                                 : "there is nothing of %s's to pick up "
                                   "here%s",
                       name, "");
        const ft_statblock *wsb = &s->c[a].sb;
        bool two = wsb->weapons[dw].keywords & FT_KW(TWO_HANDED);
        bool main_two = c->wielded[0] >= 0 &&
                        (wsb->weapons[c->wielded[0]].keywords & FT_KW(TWO_HANDED));
        if (two || main_two ? c->wielded[0] >= 0 || c->wielded[1] >= 0
                            : c->wielded[0] >= 0 && c->wielded[1] >= 0)
            return bad(diag, "%s's hands are not free to pick it up: Drop "
                       "Object first%s", name, "");
        break;
    }
    case FT_ACT_HOLD:
        if (turn != a)
            return bad(diag, "%s rides with %s: only the master can Hold for "
                       "the pair", name, s->c[turn].name);
        if (cmd->hold_kind == FT_HOLD_PHASE && cmd->hold_phase <= st->phase)
            return bad(diag, "a Hold must end in a later phase%s%s", "", "");
        if (cmd->hold_kind == FT_HOLD_ACTS &&
            (cmd->hold_who < 0 || cmd->hold_who >= st->n || cmd->hold_who == a))
            return bad(diag, "Hold until whom?%s%s", "", "");
        break;
    case FT_ACT_SHAKE: {
        if (cmd->chip >= 1) { /* a red or blue chip (talent.c) */
            const char *why = ft_red_shake_refusal(st, cmd);
            if (why)
                return bad(diag, "%s %s", name, why);
            break;
        }
        bool any = false;
        for (int i = 0; i < c->n_cond; i++) {
            int k = c->cond[i].kind;
            bool major = cond_is_major(k);
            if (!major && (cmd->condition < 0 || cmd->condition == k))
                any = true;
        }
        if (!any)
            return bad(diag, "%s has no minor condition to shake%s", name, "");
        if (cmd->chip == 0 && c->chips[0] + c->chips[1] + c->chips[2] <= 0)
            return bad(diag, "%s has no chip to spend%s", name, "");
        break;
    }
    case FT_ACT_USE_SKILL:
        if (cmd->cost < 0)
            return bad(diag, "Use a Skill needs its cost in phases%s%s", "", "");
        if (cmd->skill < 0 || cmd->skill >= s->c[a].sb.n_skills)
            return bad(diag, "%s has no such skill%s", name, "");
        if (cmd->skill_spec > s->c[a].sb.skills[cmd->skill].n_specs)
            return bad(diag, "%s has no such specialization of that skill%s",
                       name, "");
        if (cmd->opposed) {
            /* Seed 001 "Opposed Skill Flips": someone else opposes. */
            if (cmd->target < 0 || cmd->target >= st->n || cmd->target == a)
                return bad(diag, "an opposed skill flip needs someone else "
                           "to oppose it%s%s", "", "");
            if (!ft_in_fight(st, cmd->target))
                return bad(diag, "%s is out of the fight and opposes "
                           "nothing%s", s->c[cmd->target].name, "");
            if (cmd->opp_skill > s->c[cmd->target].sb.n_skills)
                return bad(diag, "%s has no such skill%s",
                           s->c[cmd->target].name, "");
            if (cmd->opp_aspect < 0 || cmd->opp_aspect > FT_ASPECT_COUNT ||
                cmd->opp_attribute < 0 ||
                cmd->opp_attribute > 2 * FT_ATTR_COUNT ||
                (cmd->opp_skill > 0) + (cmd->opp_aspect > 0) +
                        (cmd->opp_attribute > 0) > 1)
                return bad(diag, "the target resists with one skill, "
                           "Aspect or Attribute%s%s", "", "");
        }
        break;
    case FT_ACT_TALENT: { /* issue 7 (talent.c) */
        const char *why = ft_talent_use_refusal(s, st, cmd);
        if (why)
            return bad(diag, "%s: %s", name, why);
        break;
    }
    case FT_ACT_MARK:
        if (cmd->mark_space) {
            if (!s->has_map || !fray_grid_in(&s->map, cmd->dest))
                return bad(diag, "%s can only mark a space of the map%s", name,
                           "");
        } else if (cmd->target < 0 || cmd->target >= st->n || cmd->target == a) {
            return bad(diag, "%s marks a combatant (not itself) or a space "
                       "X,Y%s", name, "");
        }
        break;
    default:
        break;
    }
    if (cmd->also)
        return ft_companion_check_also(s, st, cmd, diag);
    return FRAY_OK;
}

/* ---- Applying a command ------------------------------------------------------ */

/* Whether anyone has a condition. With none, ft_cond_activation has no
 * duration to end (it only looks at conditions): it need not be asked. */
static bool any_condition(const ft_state *st) {
    for (int i = 0; i < st->n; i++)
        if (st->c[i].n_cond > 0)
            return true;
    return false;
}

/* Whether the upkeep (ft_cond_activation) may have anything to do: with
 * 32 combatants or fewer it looks only at those on its list
 * (ft_state.cond_timed), so an empty list says it has not (issue 16,
 * "This round: a crowd's decision and turn"); else any condition. */
static inline bool upkeep_due(const ft_state *st) {
    return (st->n > 32 || st->cond_timed != 0) && any_condition(st);
}

static FT_ALWAYS_INLINE void start_activation(ft_run *r, int a) {
    ft_state *st = r->st;
    st->active = (int8_t)a;
    /* RULINGS 12: Power Attack, Reckless Move and Full Defense last until
     * the start of the next activation. */
    st->c[a].flags &= (uint16_t)~(FT_F_FULL_DEFENSE | FT_F_RECKLESS |
                                   FT_F_POWER | FT_F_TALENT);
    if (upkeep_due(st))
        ft_cond_activation(r, a, false);
}

static void end_activation(ft_run *r, int a) {
    if (upkeep_due(r->st))
        ft_cond_activation(r, a, true);
    r->st->active = -1;
}

/* The start of an action of a master or a companion (seed 000 "The player
 * and their companion activate simultaneously"): the first action of the
 * pair's turn starts the activation of the master and of every companion
 * riding with him; returns whose place the action moves. */
FT_NOINLINE static int pair_start(ft_run *r, int a) {
    ft_state *st = r->st;
    int turn = ft_turn_of(st, a);
    if (st->active == a || (st->active >= 0 && ft_turn_of(st, st->active) == turn))
        return turn;
    if (turn == a && ft_companion_riding(st, a) < 0) {
        start_activation(r, a);
        return turn;
    }
    start_activation(r, turn);
    for (int i = 0; i < st->n; i++)
        if (i != turn && ft_turn_of(st, i) == turn)
            start_activation(r, i);
    st->active = (int8_t)a;
    return turn;
}


/*
 * check_over when nobody holds, rides or waits to join (and no duel):
 * then the Combat Clock holds exactly those still in the fight
 * (ft_clock_place), and the sides standing are those of its entries, the
 * second found after a few as a rule where check_over's look at everyone
 * goes through the first side's whole list (issue 16, "This round: a
 * crowd's decision and turn"). Debug builds check it against the look.
 */
static void over_by_clock(ft_run *r) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    assert(!st->over && !s->duel.to);
    unsigned standing = 0;
    if (st->clock.n > 0) {
        int first = s->c[st->clock.e[0].who].side;
        standing = 1u << first;
        for (int k = 1; k < st->clock.n; k++)
            if (s->c[st->clock.e[k].who].side != first) {
                standing |= 1u << s->c[st->clock.e[k].who].side;
                break;
            }
    }
#ifndef NDEBUG
    unsigned all = 0;
    for (int i = 0; i < st->n; i++) {
        assert(!(st->c[i].flags & (FT_F_HOLDING | FT_F_RIDING | FT_F_WAITING)));
        assert(on_clock(st, i) == (fray__track_find(&st->clock, i) >= 0));
        if (on_clock(st, i))
            all |= 1u << s->c[i].side;
    }
    assert((standing == all) ||
           ((standing & (standing - 1)) && (all & (all - 1))));
#endif
    over_from(r, standing);
}

/*
 * The end of an action that ended the actor's turn, when nothing is
 * recorded: end_activation, check_holds and check_over, with one look at
 * everyone's flags. When nobody may hold a condition that ends with an
 * activation and nobody holds, the first two change nothing but
 * st->active (end_activation only ends conditions' durations, check_holds
 * only releases holds), and whoever is first on the clock is
 * ft_next_actor's answer (kept in r->next_after). Otherwise the long way.
 *
 * Speed (issue 16, "This round: a crowd's decision and turn"): with 32
 * combatants or fewer, the upkeep's list (ft_state.cond_timed, harm.c)
 * says who may hold such a condition: an empty list lets the upkeep do
 * nothing even when the fallen lie Prone (a condition until removed),
 * where any condition at all sent every turn's end the long way before.
 * The sides still standing are read from the Combat Clock
 * (over_by_clock; check_over when someone waits to join), the next actor
 * is the clock's first.
 */
static void turn_end_quiet(ft_run *r, int a) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    /* Everyone's flags, four at a time (issue 16, "This round: the
     * crowd's engine step"): four chains of ORs, not one. */
    unsigned f0 = 0, f1 = 0, f2 = 0, f3 = 0;
    int i = 0;
    for (; i + 4 <= st->n; i += 4) {
        f0 |= st->c[i].flags;
        f1 |= st->c[i + 1].flags;
        f2 |= st->c[i + 2].flags;
        f3 |= st->c[i + 3].flags;
    }
    for (; i < st->n; i++)
        f0 |= st->c[i].flags;
    unsigned flags = f0 | f1 | f2 | f3;
#ifndef NDEBUG
    unsigned all_flags = 0;
    for (int k = 0; k < st->n; k++)
        all_flags |= st->c[k].flags;
    assert(flags == all_flags);
#endif
    bool timed = st->n <= 32 ? st->cond_timed != 0 : any_condition(st);
    if (timed || (flags & (FT_F_HOLDING | FT_F_RIDING)) || st->over ||
        s->duel.to) {
        end_activation(r, a);
        check_holds(r, a);
        check_over(r);
        return;
    }
    st->active = -1;
    if (flags & FT_F_WAITING)
        check_over(r);
    else
        over_by_clock(r);
    r->next_after = ft_next_actor(st);
}

static int heal_half(int max) { return (max + 1) / 2; }

/* The actions that are one attack (Aid, Attack, Power Attack, Cast a
 * Spell): none of them has FT_AF_PROVOKES, and each costs its table cost. */
static inline bool is_attack_action(int action) {
    return action == FT_ACT_AID || action == FT_ACT_ATTACK ||
           action == FT_ACT_POWER_ATTACK || action == FT_ACT_CAST;
}

/* do_action's part for an attack action (is_attack_action): apart, so that
 * apply_action makes the usual action of a fight without a call to
 * do_action (kept out of line with its many other cases). */
static FT_ALWAYS_INLINE fray_status do_attack(ft_run *r, const ft_command *cmd) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    int a = cmd->actor;
    ft_cstate *c = &st->c[a];
    fray_status rc;
    if (cmd->grapple_move) /* seed 000 "Grappling" (grapple.c) */
        return ft_grapple_apply(r, cmd);
    int wi = weapon_index(s, st, cmd);
    const ft_weapon *w = weapon_of(s, st, a, cmd->weapon, cmd->off_hand);
    if (w && (w->range_increment > 0 || w->spell || w->area)) {
        /* Attacking with a ranged weapon provokes in a threatened space. */
        if (w->range_increment > 0 || w->spell) {
            rc = provoke(r, a);
            if (rc != FRAY_OK || !ft_can_act(st, a))
                return rc;
        }
        if (w->area) /* seed 000 "Area of Effects" (area.c) */
            return ft_area_attack(r, cmd, w, wi);
    }
    ft_attack_opts o;
    memset(&o, 0, sizeof o);
    o.weapon = wi;
    o.off_hand = cmd->off_hand;
    o.power = cmd->action == FT_ACT_POWER_ATTACK;
    o.aid = cmd->action == FT_ACT_AID;
    o.aid_ally = cmd->ally;
    bool hit;
    rc = ft_attack(r, a, cmd->target, &o, &hit);
    if (o.power)
        c->flags |= FT_F_POWER;
    c->aim = 0;
    return rc;
}

/* The companion (or master) who moves second in a Combat or Reckless
 * Move (check_also): its own move, within its own Speed, once the first
 * mover is done; opportunity attacks as usual. */
static fray_status move_also(ft_run *r, const ft_command *cmd) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    int o = cmd->also - 1;
    if (!ft_can_act(st, o))
        return FRAY_OK; /* went down while the first one moved */
    int spd = ft_speed(s, st, o);
    if (cmd->action == FT_ACT_RECKLESS_MOVE)
        spd *= 2;
    fray_pos path[2 * FRAY_GRID_MAX];
    bool stop;
    int n = find_path(s, st, o, cmd->also_dest, spd, 0, path,
                      2 * FRAY_GRID_MAX, &stop, NULL);
    if (n < 0 || !stop)
        return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0,
                              "%s cannot reach that space with this move",
                              s->c[o].name);
    fray_status rc = walk(r, o, path, n, true);
    if (rc == FRAY_OK && cmd->action == FT_ACT_RECKLESS_MOVE)
        st->c[o].flags |= FT_F_RECKLESS;
    return rc;
}

FT_NOINLINE static fray_status do_action(ft_run *r, const ft_command *cmd,
                                         int *cost) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    int a = cmd->actor;
    ft_cstate *c = &st->c[a];
    fray_status rc = FRAY_OK;
    const ft_action_info *info = &ft_actions[cmd->action];
    *cost = info->cost;
    int wi = weapon_index(s, st, cmd);
    const ft_weapon *w = weapon_of(s, st, a, cmd->weapon, cmd->off_hand);

    if (info->flags & FT_AF_PROVOKES) {
        rc = provoke(r, a);
        if (rc != FRAY_OK || !ft_can_act(st, a))
            return rc;
    }
    switch ((ft_action)cmd->action) {
    case FT_ACT_AID:
    case FT_ACT_ATTACK:
    case FT_ACT_POWER_ATTACK:
    case FT_ACT_CAST:
        return do_attack(r, cmd);
    case FT_ACT_AIM:
        c->aim++;
        c->aim_spell = (int8_t)(w && w->spell);
        return FRAY_OK;
    case FT_ACT_CHARGE:
    case FT_ACT_MOVE:
    case FT_ACT_RECKLESS_MOVE:
    case FT_ACT_RUNNING_LEAP: {
        int spd = ft_speed(s, st, a);
        if (cmd->action == FT_ACT_RECKLESS_MOVE)
            spd *= 2;
        if (cmd->chip >= 0) { /* a white chip: <SPD> doubled (talent.c) */
            ft_chip_speed_spend(r, a, cmd->chip);
            spd *= 2;
        }
        fray_pos path[2 * FRAY_GRID_MAX];
        bool stop;
        bool leap = cmd->action == FT_ACT_RUNNING_LEAP;
        int n = leap && (c->flags & FT_F_LEAPING)
                    ? leap_path(s, st, a, cmd->dest, spd, path,
                                2 * FRAY_GRID_MAX)
                : cmd->action == FT_ACT_CHARGE
                    ? charge_path(s, st, a, cmd, spd, r->move_parity, path,
                                  2 * FRAY_GRID_MAX, r->paths)
                    : find_path(s, st, a, cmd->dest, spd, r->move_parity,
                                path, 2 * FRAY_GRID_MAX, &stop, r->paths);
        if (cmd->tumble && (n < 0 || !stop)) /* tumble.c */
            n = ft_tumble_path(s, st, a, cmd->dest, spd, r->move_parity, path,
                               2 * FRAY_GRID_MAX, &stop);
        if (n < 0)
            return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0,
                                  "that space cannot be reached");
        rc = walk(r, a, path, n, !(leap && (c->flags & FT_F_LEAPING)));
        if (rc != FRAY_OK)
            return rc;
        if (cmd->action == FT_ACT_RECKLESS_MOVE)
            c->flags |= FT_F_RECKLESS;
        /* Option pair-second-move if-first-stands: the second stays
         * when the first went down on the way (issue 7). */
        if (cmd->also && (s->opt.pair_second_move == FT_PSM_ALWAYS ||
                          can_act(st, a))) {
            rc = move_also(r, cmd);
            if (rc != FRAY_OK)
                return rc;
        }
        /* Seed 000 "Combat Move": "He may also use the Drop Prone action
         * as part of this move and incurs no additional time penalties". */
        if (cmd->drop_prone && cmd->action == FT_ACT_MOVE && ft_can_act(st, a))
            ft_cond_add(r, a, FT_COND_PRONE, 0, FT_UNTIL_REMOVED, -1, 0, a);
        if (leap) {
            /* Two halves of 5 phases each: the run, then the leap. */
            c->flags ^= FT_F_LEAPING;
            *cost = 5;
            /* A leap that lands in a pit (not solid ground) falls its
             * depth (option pit-depth; grapple.c ft_fall). */
            if (!(c->flags & FT_F_LEAPING) && s->has_map &&
                fray_grid_in(&s->map, c->pos) &&
                s->map.terrain[c->pos.y][c->pos.x] == FRAY_TERRAIN_PIT) {
                rc = ft_fall(r, a, s->opt.pit_depth);
                if (rc != FRAY_OK)
                    return rc;
            }
        }
        if (cmd->action == FT_ACT_CHARGE && ft_can_act(st, a)) {
            ft_attack_opts o;
            memset(&o, 0, sizeof o);
            o.weapon = wi;
            o.charge = true;
            bool hit;
            rc = ft_attack(r, a, cmd->target, &o, &hit);
            c->aim = 0;
            if (rc == FRAY_ERR_INVALID)
                rc = FRAY_OK; /* the move happened; the blow could not land */
        }
        return rc;
    }
    case FT_ACT_CONCENTRATE:
        c->flags |= FT_F_CONCENTRATING;
        return FRAY_OK;
    case FT_ACT_CHIP_HEAL: {
        c->chips[cmd->chip]--;
        c->chips_used++;
        ft_emit(r, FT_FACT_CHIP, a, -1, cmd->chip, FT_CHIP_FOR_HEAL, 0, 0);
        if (cmd->heal_lethal)
            ft_harm_heal(r, a, 0, heal_half(ft_max_lethal(s, a)));
        else
            ft_harm_heal(r, a, heal_half(ft_max_stun(s, a)), 0);
        return FRAY_OK;
    }
    case FT_ACT_DROP_OBJECT: {
        int hand = cmd->weapon >= 0 ? (c->wielded[0] == cmd->weapon ? 0 : 1)
                   : c->wielded[0] >= 0 ? 0
                                        : 1;
        int dw = c->wielded[hand];
        c->dropped = (uint8_t)(c->dropped | 1u << dw);
        c->dropped_at[dw] = c->pos;
        c->wielded[hand] = -1;
        ft_threat_touch_one(st, a);
        return FRAY_OK;
    }
    case FT_ACT_DROP_PRONE:
        ft_cond_add(r, a, FT_COND_PRONE, 0, FT_UNTIL_REMOVED, -1, 0, a);
        return FRAY_OK;
    case FT_ACT_DRAW_WEAPON: {
        const ft_weapon *nw = &s->c[a].sb.weapons[cmd->weapon];
        c->wielded[0] = cmd->weapon;
        if (nw->keywords & FT_KW(TWO_HANDED))
            c->wielded[1] = -1;
        if (cmd->draw_also)
            c->wielded[1] = (int8_t)(cmd->draw_also - 1);
        ft_threat_touch_one(st, a);
        return FRAY_OK;
    }
    case FT_ACT_ESCAPE: {
        bool win;
        /* The victim makes the Grapple Test, still as the defender: it
         * escapes when the grappler's test fails. */
        rc = ft_grapple_test(r, c->grappled_by, a, 0, &win);
        if (rc == FRAY_OK && !win) {
            c->grappled_by = -1;
            ft_cond_remove(r, a, FT_COND_GRAPPLED);
        }
        return rc;
    }
    case FT_ACT_DELAY:
        return FRAY_OK;
    case FT_ACT_FULL_DEFENSE:
        c->flags |= FT_F_FULL_DEFENSE;
        return FRAY_OK;
    case FT_ACT_HOLD:
        c->hold_kind = cmd->hold_kind;
        c->hold_who = cmd->hold_who;
        c->hold_after = cmd->hold_after;
        c->hold_phase = st->phase;
        c->hold_event = st->n_events;
        if (cmd->hold_kind == FT_HOLD_PHASE) {
            int slot = base_slot(c);
            if (cmd->hold_who >= 0 && cmd->hold_who < st->n)
                slot = st->c[cmd->hold_who].slot + (cmd->hold_after ? 1 : -1);
            c->phase = cmd->hold_phase;
            c->slot = slot;
        } else {
            c->flags |= FT_F_HOLDING;
            c->phase = FT_NEVER;
        }
        clock_place(st, a);
        ft_emit(r, FT_FACT_HOLD, a, cmd->hold_who, cmd->hold_kind,
                cmd->hold_phase, cmd->hold_after, 0);
        *cost = FT_COST_SET;
        return FRAY_OK;
    case FT_ACT_GRAPPLE: {
        bool win;
        rc = ft_grapple_test(r, a, cmd->target, 0, &win);
        if (rc == FRAY_OK && win) {
            c->restrain_vs = 0; /* a new grapple: no Restrain yet */
            st->c[cmd->target].grappled_by = (int8_t)a;
            ft_cond_add(r, cmd->target, FT_COND_GRAPPLED, 0, FT_UNTIL_REMOVED,
                        -1, 0, a);
        }
        return rc;
    }
    case FT_ACT_RECOVER: {
        int heal = s->opt.recover_stun > 0 ? s->opt.recover_stun
                                           : s->c[a].sb.endurance;
        ft_cond_remove(r, a, FT_COND_BLEEDING);
        ft_harm_heal(r, a, heal, 0);
        return FRAY_OK;
    }
    case FT_ACT_RELOAD:
        c->ammo[wi] = (int8_t)w->shots;
        ft_emit(r, FT_FACT_AMMO, a, -1, wi, w->shots, 0, 0);
        return FRAY_OK;
    case FT_ACT_SHAKE:
        if (cmd->chip >= 1) { /* a red or blue chip: free (talent.c) */
            ft_red_shake(r, cmd);
            *cost = FT_COST_FREE;
            return FRAY_OK;
        }
        for (int i = 0; i < c->n_cond; i++) {
            int k = c->cond[i].kind;
            bool major = cond_is_major(k);
            if (!major && (cmd->condition < 0 || cmd->condition == k)) {
                ft_cond_remove(r, a, (ft_condition)k);
                break;
            }
        }
        if (cmd->chip == 0) {
            /* A white chip (or a higher one): a free action. */
            int colour = c->chips[0] > 0 ? 0 : c->chips[1] > 0 ? 1 : 2;
            c->chips[colour]--;
            c->chips_used++;
            ft_emit(r, FT_FACT_CHIP, a, -1, colour, FT_CHIP_FOR_SHAKE, 0, 0);
            *cost = FT_COST_FREE;
        }
        return FRAY_OK;
    case FT_ACT_SHIFT: {
        fray_pos to = cmd->dest;
        rc = walk(r, a, &to, 1, false);
        return rc;
    }
    case FT_ACT_STAND:
        /* The Acrobatics flip first (talent.c): a flip short of cards
         * leaves the combatant as it was. */
        if (s->opt.quick_stand_dtn > 0 && (rc = ft_quick_stand(r, a, cost)) != FRAY_OK)
            return rc;
        ft_cond_remove(r, a, FT_COND_PRONE);
        return FRAY_OK;
    case FT_ACT_PICK_UP: {
        int dw = dropped_near(s, st, a, cmd->weapon);
        int hand = c->wielded[0] < 0 ? 0 : 1;
        c->wielded[hand] = (int8_t)dw;
        c->dropped = (uint8_t)(c->dropped & ~(1u << dw));
        ft_threat_touch_one(st, a);
        return FRAY_OK;
    }
    case FT_ACT_USE_SKILL: {
        *cost = cmd->cost;
        if (cmd->opposed)
            return ft_opposed_skill(r, cmd); /* seed 001 (duel.c) */
        const ft_statblock *sb = &s->c[a].sb;
        const ft_skill *sk = &sb->skills[cmd->skill];
        int flip = 0, shift = 0;
        ft_use_skill_mods(r, cmd, &flip, &shift);
        fray_flip f;
        int total_shift = shift;
        rc = ft_flip(r, a, sk->rank + flip, FT_FLIP_SKILL, shift,
                     cmd->dtn > 0 ? cmd->dtn : INT_MIN, &f, &total_shift);
        if (rc != FRAY_OK)
            return rc;
        /* "you do get to use specialization bonuses and also add in the
         * matching Aspect score" (seed 000 "Combat Modifiers"): the total
         * told with its Aspect. */
        int aspect = sb->aspects[sk->aspect];
        int total = f.kept_value + aspect + total_shift;
        if (r->facts) {
            static const char *const codes[FT_ASPECT_COUNT] = {
#define FT__E(id, code, nm) code,
                FT_ASPECT_LIST(FT__E)
#undef FT__E
            };
            int k = (int)sk->aspect;
            /* (a fact's text holds 23 characters: "= 12 (SP 3), succeeds";
             * the numbers are kept within what fits) */
            char note[48];
            int shown = total < -99 ? -99 : total > 999 ? 999 : total;
            int asp = aspect < -9 ? -9 : aspect > 99 ? 99 : aspect;
            int len = snprintf(note, sizeof note, "= %d (%s %d)%s", shown,
                               k >= 0 && k < FT_ASPECT_COUNT ? codes[k] : "?",
                               asp,
                               cmd->dtn > 0 ? (total >= cmd->dtn ? ", succeeds"
                                                                 : ", fails")
                                            : "");
            ft_fact *nf = ft_emit_fact(r, FT_FACT_NOTE, a, -1);
            assert(len > 0 && (size_t)len < sizeof nf->text);
            if (nf && len > 0 && (size_t)len < sizeof nf->text)
                memcpy(nf->text, note, (size_t)len + 1);
        }
        return FRAY_OK;
    }
    case FT_ACT_MARK: {
        /* Seed 000 "Marked Targets": no cost given (option mark-cost). */
        *cost = s->opt.mark_cost;
        int t = cmd->mark_space ? -1 : cmd->target;
        ft_mark_set(s, st, a, t, cmd->dest);
        emit(r, FT_FACT_MARK, a, t, cmd->dest.x, cmd->dest.y,
             t < 0 ? 3 : ft_allies(s, a, t) ? 1 : 2, 0);
        return FRAY_OK;
    }
    case FT_ACT_TALENT: /* issue 7: a free action (talent.c) */
        return ft_talent_use(r);
    case FT_ACT_INTERACT:
    case FT_ACT_INVENTORY:
    case FT_ACT_SPEAK:
    case FT_ACT_USE_ITEM:
    default:
        return FRAY_OK;
    }
}

static fray_status apply_action(ft_run *r) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    const ft_command *cmd = &r->ev->cmd;
    int a = cmd->actor;
    fray_status rc = FRAY_OK;
    if (!r->checked || r->replay) {
        rc = ft_check_command_paths(s, st, cmd, r->diag, r->paths);
        if (rc != FRAY_OK)
            return rc;
    } else {
        /* The policy checked this command on this very state (ft_run
         * .checked): the same check again must pass. */
        assert(ft_check_command(s, st, cmd, NULL) == FRAY_OK);
    }
    /* The rare rules below in one test each (ft_engine_fast.plain: no
     * duel, no companions, no talent that changes a cost). */
    const bool plain = s->eng.plain;
    if (!plain && cmd->action == FT_ACT_CONCEDE)
        return ft_duel_concede(r); /* seed 000 "Dueling": not a turn */
    ft_cstate *c = &st->c[a];
    const ft_action_info *info = &ft_actions[cmd->action];
    if (c->flags & FT_F_HOLDING) {
        /* A holder acts when he chooses (checked: a later phase than his
         * Hold's): into this phase, ahead of whoever is scheduled next in
         * it (seed 000 "Hold"). */
        int next = ft_next_actor(st);
        int slot = next >= 0 && st->c[next].phase == st->phase
                       ? st->c[next].slot - 1
                       : base_slot(c);
        release(r, a, st->phase, slot);
    }
    /* Whose place the action moves: the pair's (the master's) when a
     * companion rides with him (companion.c). */
    int turn = a;
    if (!plain && (s->c[a].master > 0 || s->c[a].n_companions > 0))
        turn = pair_start(r, a);
    else if (st->active != a)
        start_activation(r, a);
    /* Seed 000 "Off-Hand Weapons and Dual-Wielding": "He may change his
     * style at the start of each of his actions". */
    if (cmd->stance) {
        c->stance = cmd->stance;
        st->stance_chosen = 1;
        if (r->memo)
            r->memo->valid = false; /* weighed without the new stance */
    }
    /* Bleeding X and Burning X charge on the actor's turn (an actor with
     * no condition has neither). */
    if (c->n_cond > 0 && info->cost != FT_COST_FREE)
        ft_cond_on_action(r, a, cmd->action);
    if (!can_act(st, a)) {
        end_activation(r, a);
        if (!plain && s->duel.to)
            ft_duel_after_action(r);
        check_over(r);
        return FRAY_OK;
    }
    int extra = 0;
    /* Whether the actor can still act (it could a moment ago: only the
     * Shift's opportunity attacks can change that). */
    bool acts = true;
    r->move_parity = 0;
    if (cmd->shift_first) {
        if (r->memo)
            r->memo->valid = false;
        /* Shift first, then the action: 2 + its cost; no longer free of
         * opportunity attacks (seed "Shift Position"); a diagonal Shift
         * makes the move's first diagonal cost 2 (one move for
         * diagonals). */
        fray_pos to = cmd->shift_to;
        r->move_parity = to.x != st->c[a].pos.x && to.y != st->c[a].pos.y;
        rc = walk(r, a, &to, 1, true);
        if (rc != FRAY_OK)
            return rc;
        extra = 2;
        acts = can_act(st, a);
    }
    emit(r, FT_FACT_ACT, a, cmd->target, cmd->action, st->phase, 0, 0);
    assert(acts == can_act(st, a));
    int cost = 0;
    if (acts) {
        if (is_attack_action(cmd->action)) {
            assert(!(info->flags & FT_AF_PROVOKES));
            cost = info->cost; /* (do_action's answer for it) */
            rc = do_attack(r, cmd);
        } else {
            rc = do_action(r, cmd, &cost);
        }
    }
    if (rc != FRAY_OK)
        return rc;
    /* Talents that change what an action costs (talent.c). */
    if (!plain && !s->eng.no_talent_cost && s->c[a].sb.tsum.cost)
        cost = ft_talent_action_cost(r, a, (ft_action)cmd->action, cost);
    c->flags |= FT_F_ACTED;
    c->actions++;
    c->by_kind[cmd->action]++;
    if (cost != FT_COST_FREE) {
        /* Aim ends with any other non-free action (RULINGS 13). */
        if (cmd->action != FT_ACT_AIM &&
            !(info->flags & FT_AF_ATTACK_RELATED) && cmd->action != FT_ACT_CAST)
            c->aim = 0;
        if (cmd->action != FT_ACT_CONCENTRATE)
            c->flags &= (uint16_t)~FT_F_CONCENTRATING;
    }
    if (cost == FT_COST_FREE || cost == 0)
        c->free_phase = st->phase;
    if (cost == FT_COST_FREE) {
        /* Free actions do not end the turn. */
    } else {
        if (cost >= 0)
            clock_move(st, turn, cost + extra);
        if (!plain) {
            if (turn != a || s->c[a].n_companions > 0)
                ft_pair_end(r, a, turn);
            if (s->duel.to)
                ft_duel_after_action(r); /* seed 000 "Dueling": held damage */
        }
        if (!r->facts) {
            turn_end_quiet(r, a); /* (no ACT fact to finish) */
            return FRAY_OK;
        }
        end_activation(r, a);
    }
    ft_fact *last = NULL;
    for (int i = r->ev->n_facts - 1; i >= 0 && r->facts; i--)
        if (r->ev->facts[i].kind == FT_FACT_ACT && r->ev->facts[i].who == a) {
            last = &r->ev->facts[i];
            break;
        }
    if (last) {
        last->v[2] = st->c[turn].phase;
        if (turn != a)
            last->v[3] = turn + 1; /* a companion at its master's turn */
    }
    check_holds(r, a);
    check_over(r);
    return FRAY_OK;
}

void ft_check_over(ft_run *r) { check_over(r); }

void ft_check_holds(ft_run *r) { check_holds(r, -1); }

fray_status ft_apply(ft_run *r) {
    return ft_apply_next(r, FT_NEXT_UNKNOWN);
}

fray_status ft_apply_next(ft_run *r, int next) {
    ft_state *st = r->st;
    /* Where the event stands in the fight: read only from recorded events
     * (journal, narration, JSON Lines), which have facts on. */
    if (r->facts) {
        r->ev->number = st->n_events;
        r->ev->phase = st->phase;
    }
    r->next_after = FT_NEXT_UNKNOWN;
    fray_status rc;
    switch (r->ev->cmd.action) {
    case FT_CMD_BEGIN:
        rc = begin(r);
        break;
    case FT_CMD_PHASE: {
        if (next == FT_NEXT_UNKNOWN)
            next = ft_next_actor(st);
        assert(next == ft_next_actor(st));
        if (next < 0)
            return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0,
                                  "nobody is left to act");
        if (st->c[next].phase <= st->phase)
            return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0,
                                  "%s still acts in phase %d",
                                  r->setup->c[next].name, (int)st->phase);
        advance(r, st->c[next].phase, false);
        rc = FRAY_OK;
        break;
    }
    default:
        if (r->ev->cmd.action >= FT_ACTION_COUNT)
            return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0,
                                  "unknown command");
        /* The GM's actions are the last of the list (towers_int.h). */
        assert(((ft_actions[r->ev->cmd.action].flags & FT_AF_GM) != 0) ==
               (r->ev->cmd.action >= FT_ACT_GM_SET));
        if (r->ev->cmd.action >= FT_ACT_GM_SET)
            rc = ft_gm_apply(r); /* the GM's word: no turn (gm.c) */
        else
            rc = apply_action(r);
        break;
    }
    if (rc == FRAY_OK)
        st->n_events++;
    return rc;
}

/* ft_phase_quiet through advance (a zero phase on the way, or the end of
 * the fight to ask). */
FT_NOINLINE static int phase_quiet_long(ft_run *r, int next, bool going) {
    ft_state *st = r->st;
    advance(r, st->c[next].phase, going);
    st->n_events++;
    if (st->over)
        return -1;
    /* Nobody's phase or slot changes in a clock's step, and its harm
     * (RULINGS 15: the dying lose LETHAL) only takes people off the
     * clock: `next` still acts next unless it left the clock itself. */
    if (!on_clock(st, next))
        next = ft_next_actor(st);
    else if (__builtin_expect(st->clock.n > 0 && st->clock.e[0].who != next, 0))
        next = ft_next_actor(st); /* a companion let go in a zero phase
                                     (companion.c) may come first */
    assert(next == ft_next_actor(st));
    return next;
}

int ft_phase_quiet(ft_run *r, int next, bool going) {
    ft_state *st = r->st;
    assert(!r->facts && next >= 0 && next == ft_next_actor(st) &&
           st->c[next].phase > st->phase);
    int to = st->c[next].phase;
    /* A zero phase on the way (zero_on_way; with to >= 0 the last
     * multiple of 10 up to `to` is 10 * q). */
    int q = to / 10;
    bool zero = to >= 0 ? 10 * q > st->phase
                        : first_zero_after(st->phase) <= to;
    assert(zero == (first_zero_after(st->phase) <= to));
    if (!going || zero)
        return phase_quiet_long(r, next, going);
    /* No zero phase on the way and the fight known to go on: advance would
     * only move the clock (it records nothing here), and `next` acts
     * next. */
    st->phase = to;
    st->round = q + 1;
    st->n_events++;
    assert(!st->over && (check_over(r), !st->over));
    return next;
}

/* ---- Reset ---------------------------------------------------------------- */

void ft_state_reset(const ft_setup *s, ft_state *st, uint64_t seed) {
    st->threat_gen = 0; /* (a new state: reset_trial counts from here) */
    ft_state_reset_trial(s, st, seed, 0);
}

void ft_state_reset_trial(const ft_setup *s, ft_state *st, uint64_t seed,
                          uint64_t trial) {
    ft_state_trial_head(st, s->n_combatants, seed, trial);
    for (int i = 0; i < st->n; i++) {
        const ft_statblock *sb = &s->c[i].sb;
        ft_cstate *c = &st->c[i];
        memset(c, 0, sizeof *c);
        c->stun = (int16_t)ft_max_stun(s, i);
        c->lethal = (int16_t)ft_max_lethal(s, i);
        c->temp_stun = (int16_t)sb->temp_stun;
        c->temp_lethal = (int16_t)sb->temp_lethal;
        /* Talents' temporary points: the larger grant (RULINGS 19). */
        if (sb->tsum.any) {
            if (sb->tsum.temp_stun > c->temp_stun)
                c->temp_stun = (int16_t)sb->tsum.temp_stun;
            if (sb->tsum.temp_lethal > c->temp_lethal)
                c->temp_lethal = (int16_t)sb->tsum.temp_lethal;
        }
        c->pos = s->c[i].start;
        c->aided_vs = -1;
        c->wielded[0] = (int8_t)sb->wielded[0];
        c->wielded[1] = (int8_t)sb->wielded[1];
        for (int w = 0; w < sb->n_weapons && w < FT_MAX_WEAPONS; w++)
            c->ammo[w] = (int8_t)sb->weapons[w].shots;
        for (int k = 0; k < 3; k++)
            c->chips[k] = (int8_t)sb->chips[k];
        for (int e = 0; e < FT_ELEMENT_COUNT; e++)
            c->mana[e] = (int8_t)sb->mana[e];
        if (s->opt.mana_element_cap > 0) /* rules-facts "Magic" */
            for (int e = 0; e < FT_ELEMENT_COUNT; e++)
                if (c->mana[e] > s->opt.mana_element_cap)
                    c->mana[e] = (int8_t)s->opt.mana_element_cap;
        c->grappled_by = -1;
        c->hold_who = -1;
        c->reacted_event = -1;
        c->free_phase = -1;
        c->dropped = 0;
        c->master = (int8_t)s->c[i].master;
        if (c->master > 0)
            c->flags |= FT_F_RIDING;
        if (s->c[i].joins_later) /* "joins: later" (gm.c) */
            c->flags |= FT_F_WAITING | FT_F_FLED;
    }
    st->companion_alone = s->opt.companion_alone;
    st->pairs = !s->eng.no_pairs;
    st->stance_chosen = 0;
    st->n_decks = s->n_decks;
    for (int d = 0; d < s->n_decks; d++) {
        fray__deck_init(&st->decks[d], &s->opt.deck);
        fray_deck_shuffle(&st->decks[d], &st->rng);
    }
    ft_clock_sync(st);
    ft_threat_touch(st); /* every combatant placed anew */
}
