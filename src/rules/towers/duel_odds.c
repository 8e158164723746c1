/*
 * duel_odds.c - exact odds of a 99 Towers duel (include/fray/duel.h;
 * docs/rules/towers.md "Exact duel odds"; issue 4, section 3).
 *
 * A Markov chain over what changes in a toe-to-toe duel: each combatant's
 * STUN, LETHAL, temporary points, its phase on the Combat Clock and its
 * flags (flat-footed until its first action; Power Attack and Full Defense
 * until its next activation; the status flags harm.c sets). The tie order
 * of a phase (RULINGS 9) is fixed at the start, so it is one bit: who
 * ranks first.
 *
 * The rules are the engine's own, not written again: for each chain state
 * the code builds an ft_state, asks the tactics policy (ft_policy_choose)
 * what the combatant whose turn it is does, asks attack.c for the attack's
 * modifiers (ft_attack_mods) and harm.c for the damage (ft_harm_hit) and
 * its effect (ft_harm_apply, ft_harm_heal: temporary points, unconscious
 * at 0 STUN or 0 LETHAL, ...). Only the bookkeeping of one activation in
 * engine.c (apply_action: flags cleared at its start, the clock move, the
 * end of the fight) is repeated here, marked; the damage and initiative
 * advantages come from ft_damage_advantage and ft_advantage_mods. The
 * chances are
 * exact odds of flips from fresh decks (fray_odds_flip, fray_odds_attack).
 *
 * Probability flows forward in time: states are kept in buckets by the
 * phase of the next action (and whether both act in it), each bucket is
 * worked through once, and every outcome of the action goes to a later
 * bucket or ends the fight. Equal states merge, so the work is the number
 * of distinct states, not of paths.
 */
#include "towers_int.h"

#include "fray/duel.h"
#include "fray/odds.h"

#include "bigq.h"

#include <assert.h>
#include <libfyaml.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The chain's state --------------------------------------------------- */

/* What differs between two moments of a duel. Zeroed before filling, so
 * that it hashes and compares as bytes. */
typedef struct dkey {
    int32_t phase[2];        /* next activation of combatant 0 / 1 */
    int16_t stun[2], lethal[2];
    int16_t temp_stun[2], temp_lethal[2];
    uint16_t flags[2];       /* FT_F_*: ACTED, POWER, FULL_DEFENSE, status */
    uint8_t first;           /* the combatant first in the tie order */
    uint8_t pad[3];
} dkey;

/* A state as a bucket keeps it: 24 bytes, its phases counted from the
 * bucket's phase (the earlier of the two), so that a state and its
 * probability fill half a cache line and a look-up touches one. */
typedef struct pkey {
    int16_t stun[2], lethal[2];
    int16_t temp_stun[2], temp_lethal[2];
    uint16_t flags[2];
    uint8_t ahead[2];        /* phase - the bucket's phase */
    uint8_t first;
    uint8_t used;            /* 1: the slot holds a state */
} pkey;

#define DUEL_TAG_MASK ((uint64_t)0xffffffff << 32)

typedef struct dslot {
    pkey k;
    double mass;
} dslot;

/* The states of one bucket, in the order they came (worked through in
 * that order: states made one after the other are alike, and their
 * outcomes meet the same states while those are in the cache), and an
 * open-addressing index of them (linear probing): each entry the state's
 * number + 1 (0: empty) and 32 bits of its hash above, so that a probe
 * reads a state only when its hash matches. A state and its probability
 * share half a cache line. */
typedef struct dbucket {
    int n, cap;              /* states, room */
    dslot *slot;
    uint64_t *index;
    int index_cap;           /* a power of two */
    mpq_t *ex;               /* exact mode: each state's probability */
} dbucket;

/* One attack's outcome distribution, cached by its flips and shifts. */
typedef struct dattack {
    int an, dn, ash, dsh;
    int max_hearts;
    double p_hit[FRAY_HEARTS_MAX + 1];
    fray_u128 hit[FRAY_HEARTS_MAX + 1], den; /* the counts (exact mode) */
} dattack;

enum { DUEL_ATTACK_CACHE = 64, DUEL_NO_LIMIT_CAP = 100000 };
/* The chain stops when less probability than this is left in it. */
#define DUEL_CUT 1e-15

/* A compensated (Neumaier) sum. */
typedef struct ksum {
    double s, c;
} ksum;

static void kadd(ksum *k, double x) {
    double t = k->s + x;
    if (fabs(k->s) >= fabs(x))
        k->c += (k->s - t) + x;
    else
        k->c += (x - t) + k->s;
    k->s = t;
}

static double kval(const ksum *k) { return k->s + k->c; }

typedef struct duel {
    const ft_setup *s;
    const fray_allocator *alloc;
    ft_state *st;            /* scratch, built from each key */
    ft_run run;
    dbucket **buckets;       /* by 2 * phase + (0: both act in it, 1: one) */
    long n_buckets;
    int limit;               /* phase limit (0: none) */
    int horizon;             /* the last phase the chain follows */
    int n_attack;
    dattack attack[DUEL_ATTACK_CACHE];
    /* Results, by setup index 0 / 1, summed with compensation (millions
     * of small terms). */
    ksum win[2], both_out, unfinished, ended, dropped;
    ksum len_sum, len_sq;
    double *length;          /* FRAY_DUEL_LENGTH_BINS */
    long states, transitions;
    long created, max_states; /* entries ever made, and their bound */
    fray_diag *diag;
    /* Activations worked out (see "One activation"). */
    struct mentry *memo;
    int n_memo, cap_memo;
    int32_t *memo_index;
    int memo_index_cap;
    struct moutcome *outs;
    int n_outs, cap_outs;
    struct dbatch *pipe;     /* DUEL_PIPE batches (duel_count) */
    /* Exact mode (fray_towers_duel_odds_exact): every probability also as
     * a GMP rational, beside the doubles; no cut-off. */
    bool exact;
    mpq_t *outs_ex;          /* beside outs */
    int cap_outs_ex;
    mpq_t ex_win[2], ex_both, ex_unfinished, ex_len, ex_q, ex_t, ex_p, ex_s;
    size_t ex_digits;        /* the longest denominator met, in bits */
} duel;

static uint64_t words_hash(const void *p, size_t n);
static uint64_t mix64(uint64_t h);

static void bucket_free(const duel *d, dbucket *b) {
    if (!b)
        return;
    if (b->ex) {
        for (int i = 0; i < b->n; i++)
            mpq_clear(b->ex[i]);
        fray__free(d->alloc, b->ex, (size_t)b->cap * sizeof *b->ex);
    }
    fray__free(d->alloc, b->slot, (size_t)b->cap * sizeof *b->slot);
    fray__free(d->alloc, b->index, (size_t)b->index_cap * sizeof *b->index);
    fray__free(d->alloc, b, sizeof *b);
}

static inline uint64_t pkey_hash(const pkey *k) {
    uint64_t w[3];
    memcpy(w, k, sizeof w);
    uint64_t h = w[0] * 0x9e3779b97f4a7c15ull;
    h ^= (w[1] * 0xc2b2ae3d27d4eb4full) >> 7;
    h += w[2] * 0x165667b19e3779f9ull;
    return mix64(h);
}

static inline bool pkey_same(const pkey *a, const pkey *b) {
    uint64_t x[3], y[3];
    memcpy(x, a, sizeof x);
    memcpy(y, b, sizeof y);
    return ((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2])) == 0;
}

static bool bucket_reindex(const duel *d, dbucket *b, int cap) {
    uint64_t *ix = fray__alloc(d->alloc, (size_t)cap * sizeof *ix);
    if (!ix)
        return false;
    memset(ix, 0, (size_t)cap * sizeof *ix);
    for (int i = 0; i < b->n; i++) {
        uint64_t hv = pkey_hash(&b->slot[i].k);
        uint64_t h = hv & (uint64_t)(cap - 1);
        while (ix[h])
            h = (h + 1) & (uint64_t)(cap - 1);
        ix[h] = (hv & DUEL_TAG_MASK) | (uint64_t)(i + 1);
    }
    fray__free(d->alloc, b->index, (size_t)b->index_cap * sizeof *b->index);
    b->index = ix;
    b->index_cap = cap;
    return true;
}

/* The bucket of a state: 2 * its earlier phase + (0: both act then). */
static inline long bucket_of(const dkey *k, int32_t *lo) {
    *lo = k->phase[0] < k->phase[1] ? k->phase[0] : k->phase[1];
    return 2L * *lo + (k->phase[0] == k->phase[1] ? 0 : 1);
}

static void pkey_unpack(const pkey *p, int32_t lo, dkey *k) {
    memset(k, 0, sizeof *k);
    for (int i = 0; i < 2; i++) {
        k->phase[i] = lo + p->ahead[i];
        k->stun[i] = p->stun[i];
        k->lethal[i] = p->lethal[i];
        k->temp_stun[i] = p->temp_stun[i];
        k->temp_lethal[i] = p->temp_lethal[i];
        k->flags[i] = p->flags[i];
    }
    k->first = p->first;
}

/* A state as its bucket keeps it; FRAY_ERR_RANGE past what the chain
 * follows. */
static fray_status pack(const duel *d, const dkey *k, long *out_bi, pkey *pk) {
    int32_t lo;
    long bi = bucket_of(k, &lo);
    if (bi < 0 || bi >= d->n_buckets)
        return fray__diag_set(d->diag, FRAY_ERR_RANGE, 0,
                              "the duel runs past phase %ld", d->n_buckets / 2);
    memset(pk, 0, sizeof *pk);
    for (int i = 0; i < 2; i++) {
        int32_t ahead = k->phase[i] - lo;
        if (ahead > UINT8_MAX)
            return fray__diag_set(d->diag, FRAY_ERR_RANGE, 0,
                                  "a combatant's next action is %d phases "
                                  "after the other's, more than exact duel "
                                  "odds follow", (int)ahead);
        pk->ahead[i] = (uint8_t)ahead;
        pk->stun[i] = k->stun[i];
        pk->lethal[i] = k->lethal[i];
        pk->temp_stun[i] = k->temp_stun[i];
        pk->temp_lethal[i] = k->temp_lethal[i];
        pk->flags[i] = k->flags[i];
    }
    pk->first = k->first;
    pk->used = 1;
    *out_bi = bi;
    return FRAY_OK;
}

/* Bucket bi, made when missing, with room in its index for `more` states. */
static fray_status bucket_room(duel *d, long bi, int more, dbucket **out) {
    dbucket *b = d->buckets[bi];
    if (!b) {
        b = fray__alloc(d->alloc, sizeof *b);
        if (!b)
            return FRAY_ERR_NOMEM;
        memset(b, 0, sizeof *b);
        d->buckets[bi] = b;
    }
    int cap = b->index_cap ? b->index_cap : 32;
    while (2 * (b->n + more) > cap)
        cap *= 2;
    if (cap != b->index_cap && !bucket_reindex(d, b, cap))
        return FRAY_ERR_NOMEM;
    *out = b;
    return FRAY_OK;
}

/* Adds probability p (exactly: pe, NULL when not exact) to state pk of
 * bucket b (with room: bucket_room), whose hash is hv. */
static fray_status bucket_add(duel *d, dbucket *b, const pkey *pk, uint64_t hv,
                              double p, mpq_srcptr pe) {
    uint64_t tag = hv & DUEL_TAG_MASK;
    uint64_t mask = (uint64_t)(b->index_cap - 1), h = hv & mask;
    for (uint64_t e; (e = b->index[h]) != 0; h = (h + 1) & mask) {
        if ((e & DUEL_TAG_MASK) != tag)
            continue;
        dslot *sl = &b->slot[(uint32_t)e - 1];
        if (pkey_same(&sl->k, pk)) {
            sl->mass += p;
            if (pe)
                mpq_add(b->ex[(uint32_t)e - 1], b->ex[(uint32_t)e - 1], pe);
            return FRAY_OK;
        }
    }
    /* A new state: the chain's size is bounded here, whatever the
     * estimate said (time and memory both follow it). */
    if (d->created >= d->max_states)
        return fray__diag_set(d->diag, FRAY_ERR_TOO_LARGE, 0,
                              "the duel's chain passed %ld states, more than "
                              "the %ld fray computes exactly; simulate it "
                              "instead (fray sim)",
                              d->created, d->max_states);
    if (b->n == b->cap) {
        int cap = b->cap ? 2 * b->cap : 32;
        dslot *ns = fray__realloc(d->alloc, b->slot, (size_t)b->cap * sizeof *ns,
                                  (size_t)cap * sizeof *ns);
        if (!ns)
            return FRAY_ERR_NOMEM;
        b->slot = ns;
        if (d->exact) {
            mpq_t *nx = fray__realloc(d->alloc, b->ex,
                                      (size_t)b->cap * sizeof *nx,
                                      (size_t)cap * sizeof *nx);
            if (!nx) {
                /* (the slots grew; the old room stays the bound) */
                return FRAY_ERR_NOMEM;
            }
            b->ex = nx;
        }
        b->cap = cap;
    }
    b->slot[b->n].k = *pk;
    b->slot[b->n].mass = p;
    if (pe) {
        mpq_init(b->ex[b->n]);
        mpq_set(b->ex[b->n], pe);
    }
    b->n++;
    b->index[h] = tag | (uint64_t)b->n;
    d->created++;
    return FRAY_OK;
}

/* Adds probability p (exactly: pe, or NULL) to state k. */
static fray_status add_mass(duel *d, const dkey *k, double p, mpq_srcptr pe) {
    long bi;
    pkey pk;
    dbucket *b;
    fray_status rc = pack(d, k, &bi, &pk);
    if (rc == FRAY_OK)
        rc = bucket_room(d, bi, 1, &b);
    if (rc == FRAY_OK)
        rc = bucket_add(d, b, &pk, pkey_hash(&pk), p, pe);
    return rc;
}

#if defined(__GNUC__)
#define DUEL_PREFETCH(p) __builtin_prefetch(p)
#else
#define DUEL_PREFETCH(p) ((void)(p))
#endif

/* ---- Ends ------------------------------------------------------------------ */

/* The fight ends at phase with probability p (exactly: pe, or NULL), in
 * the exact sum *sum. */
static void end_at(duel *d, double p, int phase, mpq_srcptr pe, mpq_ptr sum) {
    if (pe) {
        mpq_add(sum, sum, pe);
        mpq_set_si(d->ex_t, phase, 1);
        mpq_mul(d->ex_t, d->ex_t, pe);
        mpq_add(d->ex_len, d->ex_len, d->ex_t);
    }
    kadd(&d->ended, p);
    kadd(&d->len_sum, p * phase);
    kadd(&d->len_sq, p * (double)phase * phase);
    int bin = phase < FRAY_DUEL_LENGTH_BINS - 1 ? phase : FRAY_DUEL_LENGTH_BINS - 1;
    if (bin < 0)
        bin = 0;
    d->length[bin] += p;
}

/* ---- Scratch state -------------------------------------------------------- */



/* ---- Exact odds of flips ---------------------------------------------------- */

static double u128_double(fray_u128 v) {
    return (double)v.hi * 18446744073709551616.0 + (double)v.lo;
}

static fray_status attack_odds(duel *d, int an, int dn, int ash, int dsh,
                               const dattack **out) {
    for (int i = 0; i < d->n_attack; i++) {
        const dattack *x = &d->attack[i];
        if (x->an == an && x->dn == dn && x->ash == ash && x->dsh == dsh) {
            *out = x;
            return FRAY_OK;
        }
    }
    fray_attack_query q;
    fray_attack_query_init(&q, an, dn);
    q.attack_shift = ash;
    q.defense_shift = dsh;
    q.shared_deck = false; /* fresh decks: every flip from a full deck */
    q.deck = d->s->opt.deck;
    q.rules = d->s->opt.flip;
    fray_attack_odds o;
    fray_status rc = fray_odds_attack(&q, &o);
    if (rc != FRAY_OK)
        return fray__diag_set(d->diag, rc, 0,
                              "the odds of an attack flip of %d cards against "
                              "a defense flip of %d cards cannot be counted",
                              an, dn);
    dattack *x = &d->attack[d->n_attack < DUEL_ATTACK_CACHE ? d->n_attack++
                                                            : DUEL_ATTACK_CACHE - 1];
    x->an = an;
    x->dn = dn;
    x->ash = ash;
    x->dsh = dsh;
    x->max_hearts = 0;
    double den = u128_double(o.den);
    x->den = o.den;
    for (int k = 0; k <= FRAY_HEARTS_MAX; k++) {
        x->hit[k] = o.hit[k];
        x->p_hit[k] = den > 0 ? u128_double(o.hit[k]) / den : 0;
        if (x->p_hit[k] > 0)
            x->max_hearts = k;
    }
    *out = x;
    return FRAY_OK;
}

/* ---- One activation ------------------------------------------------------------ */

/*
 * What an activation does does not depend on the phase it happens in
 * (nothing the policy, the modifiers or the damage read is a time), so it
 * is worked out once per (actor, STUN, LETHAL, temporary points, flags)
 * and kept: its cost in phases and its outcomes, each with its chance and
 * the two combatants' numbers after it, or the end of the fight.
 */
typedef struct mkey {
    int16_t stun[2], lethal[2];
    int16_t temp_stun[2], temp_lethal[2];
    uint16_t flags[2];
    uint8_t actor;
    uint8_t pad[3];
} mkey;

enum { END_NONE = -1, END_BOTH = 2 };

typedef struct moutcome {
    double p;
    int16_t stun[2], lethal[2];
    int16_t temp_stun[2], temp_lethal[2];
    uint16_t flags[2];
    int8_t end;              /* END_NONE, the winner 0 / 1, or END_BOTH */
} moutcome;

typedef struct mentry {
    mkey key;
    int cost;
    int first_out, n_out;    /* in duel_memo.outs */
} mentry;

static uint64_t mix64(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

static uint64_t words_hash(const void *p, size_t n) {
    const unsigned char *b = p;
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = mix64(h ^ w);
    }
    if (n % 8) {
        uint64_t w = 0;
        memcpy(&w, b + n - n % 8, n % 8);
        h = mix64(h ^ w);
    }
    return h;
}

/* Grows an array of `size`-byte items to hold at least `need`. */
static bool grow(const duel *d, void **p, int *cap, int need, size_t size) {
    if (need <= *cap)
        return true;
    int nc = *cap ? *cap : 64;
    while (nc < need)
        nc *= 2;
    void *np = fray__realloc(d->alloc, *p, (size_t)*cap * size, (size_t)nc * size);
    if (!np)
        return false;
    *p = np;
    *cap = nc;
    return true;
}

static bool memo_reindex(duel *d, int cap) {
    int32_t *ix = fray__alloc(d->alloc, (size_t)cap * sizeof *ix);
    if (!ix)
        return false;
    memset(ix, 0, (size_t)cap * sizeof *ix);
    for (int i = 0; i < d->n_memo; i++) {
        uint64_t h = words_hash(&d->memo[i].key, sizeof(mkey)) & (uint64_t)(cap - 1);
        while (ix[h])
            h = (h + 1) & (uint64_t)(cap - 1);
        ix[h] = i + 1;
    }
    fray__free(d->alloc, d->memo_index, (size_t)d->memo_index_cap * sizeof *ix);
    d->memo_index = ix;
    d->memo_index_cap = cap;
    return true;
}

/* Records the scratch state after one outcome of the activation, of
 * probability p (exactly: pe, or NULL). */
static fray_status add_outcome(duel *d, double p, mpq_srcptr pe) {
    const ft_state *st = d->st;
    if (!grow(d, (void **)&d->outs, &d->cap_outs, d->n_outs + 1, sizeof *d->outs))
        return FRAY_ERR_NOMEM;
    if (pe) {
        if (d->n_outs + 1 > d->cap_outs_ex) {
            int cap = d->cap_outs;
            mpq_t *nx = fray__realloc(d->alloc, d->outs_ex,
                                      (size_t)d->cap_outs_ex * sizeof *nx,
                                      (size_t)cap * sizeof *nx);
            if (!nx)
                return FRAY_ERR_NOMEM;
            d->outs_ex = nx;
            d->cap_outs_ex = cap;
        }
        mpq_init(d->outs_ex[d->n_outs]);
        mpq_set(d->outs_ex[d->n_outs], pe);
    }
    moutcome *o = &d->outs[d->n_outs++];
    memset(o, 0, sizeof *o);
    o->p = p;
    bool in0 = ft_in_fight(st, 0), in1 = ft_in_fight(st, 1);
    /* engine.c check_over: the fight ends when one side is out. */
    o->end = (int8_t)(in0 && in1 ? END_NONE : !in0 && !in1 ? END_BOTH : in0 ? 0 : 1);
    for (int i = 0; i < 2; i++) {
        const ft_cstate *c = &st->c[i];
        /* Conditions would need their durations in the state: none of the
         * actions the chain allows gives one to a combatant still in the
         * fight (falling unconscious makes it prone: the fight is over). */
        if (c->n_cond > 0 && o->end == END_NONE)
            return fray__diag_set(d->diag, FRAY_ERR_INVALID, 0,
                                  "%s gained a condition: exact duel odds do "
                                  "not model conditions", d->s->c[i].name);
        o->stun[i] = c->stun;
        o->lethal[i] = c->lethal;
        o->temp_stun[i] = c->temp_stun;
        o->temp_lethal[i] = c->temp_lethal;
        o->flags[i] = c->flags;
    }
    return FRAY_OK;
}

static bool modelled_action(int a) {
    return a == FT_ACT_ATTACK || a == FT_ACT_POWER_ATTACK ||
           a == FT_ACT_FULL_DEFENSE || a == FT_ACT_RECOVER ||
           a == FT_ACT_DELAY;
}

/* Works out the activation of mk.actor with the engine's functions. */
static fray_status activation(duel *d, const mkey *mk, mentry *e) {
    const ft_setup *s = d->s;
    ft_state *st = d->st;
    ft_run *r = &d->run;
    int x = mk->actor, y = 1 - x;
    /* The scratch state: x acts now (phase 0), y later. */
    st->phase = 0;
    st->round = 1;
    st->over = false;
    st->winner = -1;
    st->active = -1;
    for (int i = 0; i < 2; i++) {
        ft_cstate *c = &st->c[i];
        c->stun = mk->stun[i];
        c->lethal = mk->lethal[i];
        c->temp_stun = mk->temp_stun[i];
        c->temp_lethal = mk->temp_lethal[i];
        c->flags = mk->flags[i];
        c->phase = i == x ? 0 : 1;
        c->init_rank = (int16_t)(i == x ? 0 : 1);
        c->slot = ft_base_slot(c->init_rank);
        c->n_cond = 0;
        memset(c->cond, 0, sizeof c->cond);
        c->aim = 0;
        c->aided_vs = -1;
    }
    ft_clock_sync(st);
    ft_command cmd;
    ft_policy_choose(s, st, x, &cmd);
    if (!modelled_action(cmd.action))
        return fray__diag_set(d->diag, FRAY_ERR_INVALID, 0,
                              "the tactics of %s choose %s, which exact duel "
                              "odds do not model (only Attack, Power Attack, "
                              "Full Defense, Recover and Forced Delay)",
                              s->c[x].name, ft_actions[cmd.action].text);
    bool attack = cmd.action == FT_ACT_ATTACK || cmd.action == FT_ACT_POWER_ATTACK;
    if (attack && cmd.target != y)
        return fray__diag_set(d->diag, FRAY_ERR_INVALID, 0,
                              "%s attacks an unexpected target", s->c[x].name);
    e->cost = ft_actions[cmd.action].cost;
    e->first_out = d->n_outs;
    e->n_out = 0;

    /* engine.c apply_action / start_activation: Power Attack, Reckless
     * Move and Full Defense end at the start of the next activation
     * (RULINGS 12); durations that end then; Bleeding and Burning. */
    st->active = (int8_t)x;
    st->c[x].flags &= (uint16_t)~(FT_F_FULL_DEFENSE | FT_F_RECKLESS | FT_F_POWER);
    ft_cond_activation(r, x, false);
    ft_cond_on_action(r, x, cmd.action);
    /* The attack's modifiers, as ft_attack counts them: now, after the
     * activation started and before anything else changes. */
    ft_mods m;
    memset(&m, 0, sizeof m);
    ft_attack_opts o;
    memset(&o, 0, sizeof o);
    int wi = st->c[x].wielded[0];
    o.weapon = wi;
    o.power = cmd.action == FT_ACT_POWER_ATTACK;
    if (attack)
        ft_attack_mods(r, x, y, &o, &m);
    ft_cstate *c = &st->c[x];
    switch ((ft_action)cmd.action) {
    case FT_ACT_FULL_DEFENSE:
        c->flags |= FT_F_FULL_DEFENSE;
        break;
    case FT_ACT_RECOVER: {
        int heal = s->opt.recover_stun > 0 ? s->opt.recover_stun
                                           : s->c[x].sb.endurance;
        ft_cond_remove(r, x, FT_COND_BLEEDING);
        ft_harm_heal(r, x, heal, 0);
        break;
    }
    case FT_ACT_POWER_ATTACK:
        c->flags |= FT_F_POWER;
        break;
    default:
        break;
    }
    /* The rest of apply_action: no longer flat-footed; the clock move
     * (the chain adds the cost to the phase); durations that end with
     * the activation. */
    c->flags |= FT_F_ACTED;
    ft_cond_activation(r, x, true);
    st->active = -1;
    fray_status rc;
    if (!attack) {
        if (d->exact)
            mpq_set_ui(d->ex_q, 1, 1);
        rc = add_outcome(d, 1.0, d->exact ? d->ex_q : NULL);
        e->n_out = d->n_outs - e->first_out;
        return rc;
    }
    if (m.impossible)
        return fray__diag_set(d->diag, FRAY_ERR_INVALID, 0, "%s", m.why);
    const ft_statblock *asb = &s->c[x].sb, *tsb = &s->c[y].sb;
    const ft_weapon *w = &asb->weapons[wi];
    const dattack *odds = NULL;
    rc = attack_odds(d, asb->cv[FT_CV_PA] + m.flip,
                     tsb->cv[FT_CV_PD] + m.def_flip, m.shift, m.def_shift,
                     &odds);
    if (rc != FRAY_OK)
        return rc;
    int bonus = ft_damage_advantage(asb) + (o.power ? 2 : 0);
    ft_cstate keep[2] = {st->c[0], st->c[1]};
    double miss = 1;
    mpq_ptr qe = d->exact ? d->ex_q : NULL;
    if (qe)
        mpq_set_ui(d->ex_t, 1, 1); /* the miss, exactly */
    for (int h = 0; h <= odds->max_hearts && rc == FRAY_OK; h++) {
        double q = odds->p_hit[h];
        if (q <= 0)
            continue;
        miss -= q;
        if (qe) {
            fray__mpq_set_u128(qe, odds->hit[h], odds->den);
            mpq_sub(d->ex_t, d->ex_t, qe);
        }
        /* harm.c: Resilience, susceptibility and immunity, at least 1
         * STUN, LETHAL per Heart; then temporary points, unconscious at 0
         * STUN or 0 LETHAL, dying, dead. */
        fray_towers_hit dealt = ft_harm_hit(r, x, y, w, bonus, h);
        ft_harm_apply(r, y, dealt.stun, dealt.lethal, x);
        rc = add_outcome(d, q, qe);
        st->c[0] = keep[0];
        st->c[1] = keep[1];
    }
    if (rc == FRAY_OK && (qe ? mpq_sgn(d->ex_t) > 0 : miss > 0)) {
        if (qe)
            mpq_set(qe, d->ex_t);
        rc = add_outcome(d, miss > 0 ? miss : 0, qe);
    }
    e->n_out = d->n_outs - e->first_out;
    return rc;
}

static fray_status memo_get(duel *d, const mkey *mk, const mentry **out) {
    if (2 * (d->n_memo + 1) > d->memo_index_cap &&
        !memo_reindex(d, d->memo_index_cap ? 2 * d->memo_index_cap : 1024))
        return FRAY_ERR_NOMEM;
    uint64_t h = words_hash(mk, sizeof *mk) & (uint64_t)(d->memo_index_cap - 1);
    while (d->memo_index[h]) {
        const mentry *e = &d->memo[d->memo_index[h] - 1];
        if (memcmp(&e->key, mk, sizeof *mk) == 0) {
            *out = e;
            return FRAY_OK;
        }
        h = (h + 1) & (uint64_t)(d->memo_index_cap - 1);
    }
    if (!grow(d, (void **)&d->memo, &d->cap_memo, d->n_memo + 1, sizeof *d->memo))
        return FRAY_ERR_NOMEM;
    mentry *e = &d->memo[d->n_memo];
    memset(e, 0, sizeof *e);
    e->key = *mk;
    fray_status rc = activation(d, mk, e);
    if (rc != FRAY_OK)
        return rc;
    d->n_memo++;
    d->memo_index[h] = d->n_memo;
    *out = e;
    return FRAY_OK;
}

/* One chain state: whoever acts next acts; each outcome ends the fight,
 * meets the phase limit before the next action (fight.c
 * phase_limit_reached), or is a later state. */
/* The outcomes of one state that go on: all to one bucket (the actor's
 * phase moves by the action's cost), packed, with their hashes. */
enum { DUEL_BATCH = 16, DUEL_PIPE = 3 };
typedef struct dbatch {
    int m;
    long bi;
    pkey pk[DUEL_BATCH];
    uint64_t hv[DUEL_BATCH];
    double q[DUEL_BATCH];
} dbatch;

/* (exact mode: the state's exact probability is d->ex_p) */
static fray_status step(duel *d, const dkey *k, double p, dbatch *out) {
    int now = k->phase[0] < k->phase[1] ? k->phase[0] : k->phase[1];
    /* engine.c ft_next_actor: the earlier phase, then the tie order. */
    int x = k->phase[0] < k->phase[1]   ? 0
            : k->phase[1] < k->phase[0] ? 1
                                        : k->first;
    mkey mk;
    memset(&mk, 0, sizeof mk);
    for (int i = 0; i < 2; i++) {
        mk.stun[i] = k->stun[i];
        mk.lethal[i] = k->lethal[i];
        mk.temp_stun[i] = k->temp_stun[i];
        mk.temp_lethal[i] = k->temp_lethal[i];
        mk.flags[i] = k->flags[i];
    }
    mk.actor = (uint8_t)x;
    const mentry *e = NULL;
    fray_status rc = memo_get(d, &mk, &e);
    if (rc != FRAY_OK)
        return rc;
    int cost = e->cost, first_out = e->first_out, n_out = e->n_out;
    /* Speed: the outcomes that go on are packed here and added later
     * (duel_count's pipeline), their index entries fetched from memory
     * meanwhile: the look-ups wait on memory, so they wait together. */
    int m = 0;
    long bi = -1;
    out->m = 0;
    for (int j = 0; j < n_out; j++) {
        const moutcome *o = &d->outs[first_out + j];
        double q = p * o->p;
        mpq_ptr qe = NULL;
        if (d->exact) {
            qe = d->ex_s;
            mpq_mul(qe, d->ex_p, d->outs_ex[first_out + j]);
        }
        d->transitions++;
        if (o->end != END_NONE) {
            if (o->end == END_BOTH)
                kadd(&d->both_out, q);
            else
                kadd(&d->win[o->end], q);
            end_at(d, q, now, qe,
                   qe ? (o->end == END_BOTH ? d->ex_both : d->ex_win[o->end]) : NULL);
            continue;
        }
        dkey n;
        memset(&n, 0, sizeof n);
        n.first = k->first;
        for (int i = 0; i < 2; i++) {
            n.stun[i] = o->stun[i];
            n.lethal[i] = o->lethal[i];
            n.temp_stun[i] = o->temp_stun[i];
            n.temp_lethal[i] = o->temp_lethal[i];
            n.flags[i] = o->flags[i];
            n.phase[i] = k->phase[i];
        }
        /* engine.c clock_move: cost phases on from now. */
        n.phase[x] = now + cost;
        int next = n.phase[0] < n.phase[1] ? n.phase[0] : n.phase[1];
        if ((d->limit > 0 && next > d->limit) || next > d->horizon) {
            kadd(&d->unfinished, q);
            end_at(d, q, now, qe, qe ? d->ex_unfinished : NULL);
            continue;
        }
        /* Exact mode adds at once (no pipeline); and past a full batch
         * (never: at most 13 Hearts and a miss). */
        if (qe || m == DUEL_BATCH) {
            if ((rc = add_mass(d, &n, q, qe)) != FRAY_OK)
                return rc;
            continue;
        }
        long nbi;
        if ((rc = pack(d, &n, &nbi, &out->pk[m])) != FRAY_OK)
            return rc;
        assert(bi < 0 || nbi == bi);
        bi = nbi;
        out->hv[m] = pkey_hash(&out->pk[m]);
        out->q[m++] = q;
    }
    out->m = m;
    out->bi = bi;
    if (m == 0)
        return FRAY_OK;
    /* Room for this batch and the two still in the pipeline. */
    dbucket *b;
    if ((rc = bucket_room(d, bi, DUEL_PIPE * DUEL_BATCH, &b)) != FRAY_OK)
        return rc;
    uint64_t mask = (uint64_t)(b->index_cap - 1);
    for (int j = 0; j < m; j++)
        DUEL_PREFETCH(&b->index[out->hv[j] & mask]);
    return FRAY_OK;
}

/* The pipeline's second stage: the states the index entries point to,
 * fetched ahead. */
static void batch_fetch(const duel *d, const dbatch *t) {
    if (t->m == 0)
        return;
    const dbucket *b = d->buckets[t->bi];
    uint64_t mask = (uint64_t)(b->index_cap - 1);
    for (int j = 0; j < t->m; j++) {
        uint64_t ent = b->index[t->hv[j] & mask];
        if (ent && (ent & DUEL_TAG_MASK) == (t->hv[j] & DUEL_TAG_MASK))
            DUEL_PREFETCH(&b->slot[(uint32_t)ent - 1]);
    }
}

/* The last stage: the batch's probabilities added, in order. */
static fray_status batch_add(duel *d, const dbatch *t) {
    fray_status rc = FRAY_OK;
    dbucket *b = t->m ? d->buckets[t->bi] : NULL;
    for (int j = 0; j < t->m && rc == FRAY_OK; j++)
        rc = bucket_add(d, b, &t->pk[j], t->hv[j], t->q[j], NULL);
    return rc;
}

/* ---- What the chain does not model -------------------------------------------- */

static fray_status refuse(fray_diag *diag, const char *fmt, const char *who) {
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0, fmt, who);
}

static fray_status check_duel(const ft_setup *s, int a, int b,
                              fray_diag *diag) {
    if (s->n_combatants != 2 || a < 0 || b < 0 || a > 1 || b > 1 || a == b)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "exact duel odds need an encounter of exactly "
                              "two combatants (this one has %d)",
                              s->n_combatants);
    if (s->c[0].side == s->c[1].side)
        return refuse(diag, "the two combatants are on the same side (%s): "
                            "there is no duel", s->sides[s->c[0].side]);
    /* Seed 000 "Dueling": the chain is a plain fight (Initiative, blows
     * that land at once, the end when one side is out), not a formal
     * duel's stages. */
    if (s->duel.to != FT_DUEL_NONE)
        return refuse(diag, "exact duel odds do not model a formal duel "
                            "(the file's duel: key, to %s): its Showdown, the "
                            "Focus check instead of Initiative, blows that "
                            "land at once and its end; simulate it (fray "
                            "sim)",
                      s->duel.to == FT_DUEL_FIRST_BLOOD      ? "first-blood"
                      : s->duel.to == FT_DUEL_INCAPACITATION ? "incapacitation"
                                                             : "death");
    if (s->opt.hand_of_fate > 0) {
        /* Exactly, the chain would follow every hand each side could
         * hold: C(deck, cards) of them each, times its states. */
        int size = fray_deck_options_size(&s->opt.deck), k = s->opt.hand_of_fate;
        double hands = 1;
        for (int i = 0; i < k && i < size; i++)
            hands = hands * (size - i) / (i + 1);
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "exact duel odds cannot count the Hand of Fate: "
                              "each side could hold any of %.0f hands of %d "
                              "cards, and the chain would follow every pair "
                              "of them (%.2g times its states); turn it off "
                              "with options: {hand-of-fate: 0}",
                              hands, k, hands * hands);
    }
    for (int i = 0; i < 2; i++) {
        const ft_combatant *c = &s->c[i];
        const ft_statblock *sb = &c->sb;
        if (c->tactics.use_chips &&
            sb->chips[0] + sb->chips[1] + sb->chips[2] > 0)
            return refuse(diag, "exact duel odds do not model chips: %s holds "
                                "some; turn them off with tactics: {chips: "
                                "false}", c->name);
        if (c->unaware_of)
            return refuse(diag, "exact duel odds do not model surprise: %s is "
                                "unaware of its foe", c->name);
        int wi = sb->wielded[0];
        if (wi < 0 || wi >= sb->n_weapons)
            return refuse(diag, "%s holds no weapon in its main hand: exact "
                                "duel odds do not model Draw a Weapon", c->name);
        const ft_weapon *w = &sb->weapons[wi];
        if (w->spell || w->range_increment > 0 || w->shots > 0)
            return refuse(diag, "exact duel odds model melee weapons only: %s "
                                "fights with a ranged weapon or a spell",
                          c->name);
        if (w->keywords & (FT_KW(CRIT_BLEED) | FT_KW(CRIT_PRONE) |
                           FT_KW(CRIT_SLOWED) | FT_KW(CRIT_STUN)))
            return refuse(diag, "exact duel odds do not model \"Crit:\" "
                                "keywords (the conditions they give): %s's "
                                "weapon has one", c->name);
        if (sb->temp_stun < 0 || sb->temp_lethal < 0)
            return refuse(diag, "%s starts with negative temporary points", c->name);
        if (sb->tsum.state || sb->tsum.cost || sb->tsum.extra_oa ||
            sb->tsum.once_damage)
            return refuse(diag, "exact duel odds do not model talents that "
                                "change an action's cost or count only in "
                                "some moments: %s has one", c->name);
    }
    return FRAY_OK;
}

/* ---- Initiative (seed "Entering Combat and Initiative"; RULINGS 9) ---------- */

typedef struct init_dist {
    double p[FRAY_CARD_VALUE_MAX + 1]; /* P(kept card = v) */
    int n, shift;
    fray_flip_odds odds;               /* the counts (exact mode) */
} init_dist;

/* Exact mode: out = P(the flip's kept card is worth v). */
static void value_exact(mpq_t out, const fray_flip_odds *o, int v) {
    mpq_t t;
    mpq_init(t);
    mpq_set_ui(out, 0, 1);
    for (int h = 0; h <= FRAY_HEARTS_MAX; h++) {
        fray__mpq_set_u128(t, o->count[v][h], o->den);
        mpq_add(out, out, t);
    }
    mpq_clear(t);
}

static fray_status init_flip(const ft_setup *s, int i, init_dist *out,
                             fray_diag *diag) {
    const ft_statblock *sb = &s->c[i].sb;
    int flip = 0, shift = 0;
    ft_advantage_mods(sb, FT_APPLIES_INITIATIVE, &flip, &shift);
    out->n = sb->cv[FT_CV_N];
    out->shift = shift;
    fray_flip_odds o;
    fray_status rc = fray_odds_flip(&s->opt.deck, out->n + flip, &s->opt.flip, &o);
    if (rc != FRAY_OK)
        return fray__diag_set(diag, rc, 0,
                              "the odds of %s's Initiative flip cannot be counted",
                              s->c[i].name);
    out->odds = o;
    double den = u128_double(o.den);
    for (int v = 0; v <= FRAY_CARD_VALUE_MAX; v++) {
        double c = 0;
        for (int h = 0; h <= FRAY_HEARTS_MAX; h++)
            c += u128_double(o.count[v][h]);
        out->p[v] = den > 0 ? c / den : 0;
    }
    return FRAY_OK;
}

/* P(combatant 0 ranks first | equal CI, [N] and [SS]): engine.c begin's
 * flip-off, one card each from a fresh deck, again on a tie, at most 8
 * times; after 8 ties the setup's order stands (combatant 0 first). */
static fray_status flipoff_first(const ft_setup *s, double *out,
                                 mpq_ptr exact, fray_diag *diag) {
    fray_flip_odds o;
    fray_status rc = fray_odds_flip(&s->opt.deck, 1, &s->opt.flip, &o);
    if (rc != FRAY_OK)
        return fray__diag_set(diag, rc, 0, "the odds of a tie-break flip "
                                           "cannot be counted");
    double den = u128_double(o.den), p[FRAY_CARD_VALUE_MAX + 1];
    for (int v = 0; v <= FRAY_CARD_VALUE_MAX; v++) {
        double c = 0;
        for (int h = 0; h <= FRAY_HEARTS_MAX; h++)
            c += u128_double(o.count[v][h]);
        p[v] = c / den;
    }
    double tie = 0, win = 0;
    for (int u = 0; u <= FRAY_CARD_VALUE_MAX; u++)
        for (int v = 0; v <= FRAY_CARD_VALUE_MAX; v++) {
            if (u == v)
                tie += p[u] * p[v];
            else if (u > v)
                win += p[u] * p[v];
        }
    double first = 0, go = 1;
    for (int round = 0; round < 8; round++) {
        first += go * win;
        go *= tie;
    }
    *out = first + go;
    if (exact) { /* the same sums, exactly */
        mpq_t pu, pv, t, etie, ewin, ego;
        mpq_inits(pu, pv, t, etie, ewin, ego, NULL);
        for (int u = 0; u <= FRAY_CARD_VALUE_MAX; u++) {
            value_exact(pu, &o, u);
            for (int v = 0; v <= u; v++) {
                value_exact(pv, &o, v);
                mpq_mul(t, pu, pv);
                mpq_add(u == v ? etie : ewin, u == v ? etie : ewin, t);
            }
        }
        mpq_set_ui(exact, 0, 1);
        mpq_set_ui(ego, 1, 1);
        for (int round = 0; round < 8; round++) {
            mpq_mul(t, ego, ewin);
            mpq_add(exact, exact, t);
            mpq_mul(ego, ego, etie);
        }
        mpq_add(exact, exact, ego);
        mpq_clears(pu, pv, t, etie, ewin, ego, NULL);
    }
    return FRAY_OK;
}

static fray_status start_states(duel *d) {
    const ft_setup *s = d->s;
    init_dist in[2];
    fray_status rc;
    for (int i = 0; i < 2; i++)
        if ((rc = init_flip(s, i, &in[i], d->diag)) != FRAY_OK)
            return rc;
    double p_flipoff = 0;
    mpq_t e_flipoff, e0, e1, ep, ef;
    if (d->exact)
        mpq_inits(e_flipoff, e0, e1, ep, ef, NULL);
    if ((rc = flipoff_first(s, &p_flipoff, d->exact ? e_flipoff : NULL,
                            d->diag)) != FRAY_OK)
        goto done;
    const ft_statblock *sb0 = &s->c[0].sb, *sb1 = &s->c[1].sb;
    for (int v0 = 0; v0 <= FRAY_CARD_VALUE_MAX; v0++)
        for (int v1 = 0; v1 <= FRAY_CARD_VALUE_MAX; v1++) {
            double p = in[0].p[v0] * in[1].p[v1];
            if (p <= 0)
                continue;
            if (d->exact) {
                value_exact(e0, &in[0].odds, v0);
                value_exact(e1, &in[1].odds, v1);
                mpq_mul(ep, e0, e1);
            }
            /* Calculated Initiative: kept card + [N] + shifts; the first
             * place is 20 - CI, CI counting at most 20. */
            int ci[2] = {v0 + in[0].n + in[0].shift, v1 + in[1].n + in[1].shift};
            int cmp = ci[0] - ci[1];
            if (!cmp)
                cmp = sb0->cv[FT_CV_N] - sb1->cv[FT_CV_N];
            if (!cmp)
                cmp = sb0->aspects[FT_ASPECT_SS] - sb1->aspects[FT_ASPECT_SS];
            double p_first0 = cmp > 0 ? 1 : cmp < 0 ? 0 : p_flipoff;
            for (int f = 0; f < 2; f++) {
                double q = p * (f == 0 ? p_first0 : 1 - p_first0);
                if (q <= 0)
                    continue;
                mpq_ptr qe = NULL;
                if (d->exact) { /* ef = the chance f ranks first */
                    qe = d->ex_s;
                    if (cmp)
                        mpq_set_ui(ef, (cmp > 0) == (f == 0), 1);
                    else if (f == 0)
                        mpq_set(ef, e_flipoff);
                    else {
                        mpq_set_ui(ef, 1, 1);
                        mpq_sub(ef, ef, e_flipoff);
                    }
                    mpq_mul(qe, ep, ef);
                }
                dkey k;
                memset(&k, 0, sizeof k);
                k.first = (uint8_t)f;
                for (int i = 0; i < 2; i++) {
                    const ft_cstate *c = &d->st->c[i];
                    k.phase[i] = 20 - (ci[i] > 20 ? 20 : ci[i]);
                    k.stun[i] = c->stun;
                    k.lethal[i] = c->lethal;
                    k.temp_stun[i] = c->temp_stun;
                    k.temp_lethal[i] = c->temp_lethal;
                    k.flags[i] = c->flags;
                }
                int next = k.phase[0] < k.phase[1] ? k.phase[0] : k.phase[1];
                if (d->limit > 0 && next > d->limit) {
                    kadd(&d->unfinished, q);
                    end_at(d, q, 0, qe, qe ? d->ex_unfinished : NULL);
                    continue;
                }
                if ((rc = add_mass(d, &k, q, qe)) != FRAY_OK)
                    goto done;
            }
        }
done:
    if (d->exact)
        mpq_clears(e_flipoff, e0, e1, ep, ef, NULL);
    return rc;
}

/* P(combatant 0 acts first) of the start states: read back from them
 * (exact mode: into ex[2] too). */
static void first_odds(const duel *d, double out[2], mpq_t ex[2]) {
    out[0] = out[1] = 0;
    for (long bi = 0; bi < d->n_buckets; bi++) {
        const dbucket *b = d->buckets[bi];
        for (int i = 0; b && i < b->n; i++) {
            const pkey *k = &b->slot[i].k;
            int x = k->ahead[0] < k->ahead[1]   ? 0
                    : k->ahead[1] < k->ahead[0] ? 1
                                                : k->first;
            out[x] += b->slot[i].mass;
            if (ex)
                mpq_add(ex[x], ex[x], b->ex[i]);
        }
    }
}

/* ---- The chain's size, before it is built ------------------------------------------ */

/* Chain states per unit of the estimate below, fitted to ten measured
 * duels (docs/rules/towers.md "Exact duel odds", "Cost"): the knights of
 * tests/data/towers/duel_knights.yaml, five pairings of the example stat
 * blocks with their tactics, and a Knight of Areast with 24, 32 and 48
 * STUN and 11 or 16 LETHAL. Their states / estimate run from 0.27 (a
 * Bandit against the Black Knight: the Bandit falls early) to 2.0 (two
 * defensive knights who Recover), 0.6 for the knights. */
#define DUEL_STATES_PER_UNIT 180.0

/*
 * About how many states the chain of this duel makes (issue 11: a duel
 * of large STUN ran for minutes and ran out of memory). What grows it:
 * each state pairs a STUN of one combatant with a STUN of the other, and
 * the pairs come again for every phase the fight can still be going on,
 * about as many as the blows it takes to fell both. So: the STUN values
 * each combatant can reach (all of them, or what the blows before the
 * phase limit can take away), times the blows to fell both (or that fit
 * before the limit), times a little for LETHAL (hit only by Hearts).
 * Good to a factor of about 2; add_mass bounds the real count.
 */
static double chain_estimate(const duel *d) {
    const ft_setup *s = d->s;
    const ft_state *st = d->st;
    int cost = ft_actions[FT_ACT_ATTACK].cost > 0 ? ft_actions[FT_ACT_ATTACK].cost : 1;
    double reach[2], blows[2], lethal = 1;
    for (int i = 0; i < 2; i++) {
        int j = 1 - i;
        const ft_statblock *sb = &s->c[j].sb;
        const ft_weapon *w = &sb->weapons[st->c[j].wielded[0]];
        int bonus = ft_damage_advantage(sb);
        /* The least a hit of j takes from i, and a good hit (3 Hearts). */
        int low = ft_harm_hit(&d->run, j, i, w, bonus, 0).stun;
        int high = ft_harm_hit(&d->run, j, i, w, bonus, 3).stun;
        low = low > 1 ? low : 1;
        high = high > low ? high : low;
        reach[i] = (double)st->c[i].stun + st->c[i].temp_stun + 1.0;
        blows[i] = reach[i] / low;
        if (d->limit > 0) {
            /* What fits before the phase limit. */
            double fit = (double)d->limit / cost + 1.0;
            if (fit * high + 1.0 < reach[i])
                reach[i] = fit * high + 1.0;
            if (fit < blows[i])
                blows[i] = fit;
        }
        lethal *= (double)st->c[i].lethal + st->c[i].temp_lethal + 1.0;
    }
    return DUEL_STATES_PER_UNIT * reach[0] * reach[1] * (blows[0] + blows[1]) *
           sqrt(sqrt(lethal));
}

/* ---- The public function ---------------------------------------------------------- */

/* Exact mode: the sums as fractions in *x (a, b as fray_duel_odds). */
static fray_status exact_results(duel *d, int a, int b, mpq_t first[2],
                                 fray_duel_exact *x) {
    const fray_allocator *al = d->alloc;
    int who[2] = {a, b};
    fray_status rc = FRAY_OK;
    for (int k = 0; k < 2 && rc == FRAY_OK; k++) {
        rc = fray__bigratio_set(al, first[who[k]], &x->p_first[k]);
        if (rc == FRAY_OK)
            rc = fray__bigratio_set(al, d->ex_win[who[k]], &x->p_win[k]);
    }
    if (rc == FRAY_OK)
        rc = fray__bigratio_set(al, d->ex_both, &x->p_both_out);
    if (rc == FRAY_OK)
        rc = fray__bigratio_set(al, d->ex_unfinished, &x->p_unfinished);
    /* Every fight ends (the phase limit at the latest): the mean over all
     * of them is the sum of phase x probability. */
    if (rc == FRAY_OK)
        rc = fray__bigratio_set(al, d->ex_len, &x->mean_length);
    x->digits = (long)((double)d->ex_digits * 0.30103) + 1;
    return rc;
}

/* The chain of the duel: its estimate only (out NULL), or the odds. */
static fray_status duel_count(const fray_towers_setup *setup, int a, int b,
                              long max_states, double *out_estimate,
                              fray_duel_odds *out, fray_duel_exact *exact,
                              fray_diag *diag) {
    if (diag)
        memset(diag, 0, sizeof *diag);
    if (out_estimate)
        *out_estimate = 0;
    if (!setup || (!out && !out_estimate))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no duel to count");
    if (out)
        memset(out, 0, sizeof *out);
    if (max_states < 0)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "a negative bound on the chain's states");
    const ft_setup *s = &setup->s;
    fray_status rc = check_duel(s, a, b, diag);
    if (rc != FRAY_OK)
        return rc;
    const fray_allocator *alloc = setup->alloc.realloc ? &setup->alloc : NULL;
    duel *d = fray__alloc(alloc, sizeof *d);
    if (!d)
        return FRAY_ERR_NOMEM;
    memset(d, 0, sizeof *d);
    d->s = s;
    d->alloc = alloc;
    d->diag = diag;
    d->max_states = max_states > 0 ? max_states
                    : exact       ? FRAY_DUEL_EXACT_MAX_STATES
                                  : FRAY_DUEL_MAX_STATES;
    d->limit = s->opt.max_phase;
    if (exact) {
        memset(exact, 0, sizeof *exact);
        d->exact = true;
        mpq_inits(d->ex_win[0], d->ex_win[1], d->ex_both, d->ex_unfinished,
                  d->ex_len, d->ex_q, d->ex_t, d->ex_p, d->ex_s, NULL);
        if (d->limit <= 0) {
            rc = fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                "exact fractions need a phase limit "
                                "(options: {phase-limit: N}): without one "
                                "the duel could go on forever with some "
                                "chance, and the sum never ends");
            goto done;
        }
    }
    int horizon = d->limit > 0 ? d->limit : DUEL_NO_LIMIT_CAP;
    d->horizon = horizon;
    d->st = fray__alloc(alloc, sizeof *d->st);
    d->length = fray__alloc(alloc, FRAY_DUEL_LENGTH_BINS * sizeof *d->length);
    d->pipe = fray__alloc(alloc, DUEL_PIPE * sizeof *d->pipe);
    if (!d->st || !d->length || !d->pipe) {
        rc = FRAY_ERR_NOMEM;
        goto done;
    }
    memset(d->length, 0, FRAY_DUEL_LENGTH_BINS * sizeof *d->length);
    ft_state_reset(s, d->st, 0);
    ft_run_clear(&d->run);
    d->run.setup = s;
    d->run.st = d->st;
    d->run.facts = false;
    d->run.diag = diag;

    /* Both must be able to strike the other where they stand. */
    for (int i = 0; i < 2; i++) {
        ft_attack_opts o;
        memset(&o, 0, sizeof o);
        o.weapon = d->st->c[i].wielded[0];
        ft_mods m;
        ft_attack_mods(&d->run, i, 1 - i, &o, &m);
        if (m.impossible) {
            rc = fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                "exact duel odds are for combatants toe to toe, "
                                "without movement: %s cannot strike now (%s)",
                                s->c[i].name, m.why);
            goto done;
        }
    }
    /* Too big to count: refused before anything is built. */
    double estimate = chain_estimate(d);
    if (out_estimate)
        *out_estimate = estimate;
    if (!out)
        goto done;
    /* (exact mode: the estimate overshoots small chains, so only a
     * hopeless one is refused here; the count itself is bounded below) */
    if (estimate > (double)d->max_states * (d->exact ? 20.0 : 1.0)) {
        rc = d->exact
                 ? fray__diag_set(diag, FRAY_ERR_TOO_LARGE, 0,
                                  "the duel has about %.2g chain states; "
                                  "exact fractions are counted up to %ld "
                                  "(their denominators grow with every "
                                  "blow)", estimate, d->max_states)
                 : fray__diag_set(diag, FRAY_ERR_TOO_LARGE, 0,
                                  "the duel has about %.2g states (%s: %d STUN, "
                                  "%s: %d STUN), more than the %ld fray computes "
                                  "exactly; simulate it instead (fray sim)",
                                  estimate, s->c[0].name, d->st->c[0].stun,
                                  s->c[1].name, d->st->c[1].stun, d->max_states);
        goto done;
    }
    /* Phases to come: the limit, plus the longest action (10) and the
     * latest first place (20 + surprise, refused). */
    d->n_buckets = 2L * (horizon + 64);
    d->buckets = fray__alloc(alloc, (size_t)d->n_buckets * sizeof *d->buckets);
    if (!d->buckets) {
        rc = FRAY_ERR_NOMEM;
        goto done;
    }
    memset(d->buckets, 0, (size_t)d->n_buckets * sizeof *d->buckets);
    if ((rc = start_states(d)) != FRAY_OK)
        goto done;
    mpq_t ex_first[2];
    if (d->exact)
        mpq_inits(ex_first[0], ex_first[1], NULL);
    first_odds(d, out->p_first, d->exact ? ex_first : NULL);
    for (long bi = 0; bi < d->n_buckets && rc == FRAY_OK; bi++) {
        dbucket *bk = d->buckets[bi];
        if (!bk)
            continue;
        if (!d->exact && 1.0 - kval(&d->ended) < DUEL_CUT) {
            /* What is left cannot change a double's digits: stop. */
            ksum left = {0, 0};
            for (long bj = bi; bj < d->n_buckets; bj++)
                for (int i = 0; d->buckets[bj] && i < d->buckets[bj]->n; i++)
                    kadd(&left, d->buckets[bj]->slot[i].mass);
            d->dropped = left;
            break;
        }
        int32_t lo = (int32_t)(bi / 2);
        /* A pipeline of three: state i's outcomes packed (their index
         * entries fetched), state i-1's states fetched, state i-2's
         * added; the same additions in the same order as one by one. */
        int n = bk->n;
        for (int i = 0; i < n && rc == FRAY_OK; i++) {
            const dslot *sl = &bk->slot[i];
            d->states++;
            dkey k;
            pkey_unpack(&sl->k, lo, &k);
            if (d->exact) {
                mpq_set(d->ex_p, bk->ex[i]);
                size_t bits = mpz_sizeinbase(mpq_denref(d->ex_p), 2);
                d->ex_digits = bits > d->ex_digits ? bits : d->ex_digits;
            }
            rc = step(d, &k, sl->mass, &d->pipe[i % DUEL_PIPE]);
            if (rc == FRAY_OK && i >= 1)
                batch_fetch(d, &d->pipe[(i - 1) % DUEL_PIPE]);
            if (rc == FRAY_OK && i >= 2)
                rc = batch_add(d, &d->pipe[(i - 2) % DUEL_PIPE]);
        }
        if (rc == FRAY_OK && n >= 2)
            rc = batch_add(d, &d->pipe[(n - 2) % DUEL_PIPE]);
        if (rc == FRAY_OK && n >= 1)
            rc = batch_add(d, &d->pipe[(n - 1) % DUEL_PIPE]);
        bucket_free(d, bk);
        d->buckets[bi] = NULL;
    }
    if (d->exact) {
        if (rc == FRAY_OK)
            rc = exact_results(d, a, b, ex_first, exact);
        mpq_clears(ex_first[0], ex_first[1], NULL);
    }
    if (rc != FRAY_OK)
        goto done;
    out->a = a;
    out->b = b;
    double f0 = out->p_first[0], f1 = out->p_first[1];
    out->p_first[0] = a == 0 ? f0 : f1;
    out->p_first[1] = a == 0 ? f1 : f0;
    out->p_win[0] = kval(&d->win[a]);
    out->p_win[1] = kval(&d->win[b]);
    out->p_both_out = kval(&d->both_out);
    out->p_unfinished = kval(&d->unfinished);
    out->p_left = kval(&d->dropped);
    double ended = kval(&d->ended);
    out->mean_length = ended > 0 ? kval(&d->len_sum) / ended : 0;
    double var = ended > 0 ? kval(&d->len_sq) / ended -
                                 out->mean_length * out->mean_length
                           : 0;
    out->sd_length = var > 0 ? sqrt(var) : 0;
    memcpy(out->length, d->length, FRAY_DUEL_LENGTH_BINS * sizeof *d->length);
    out->phase_limit = d->limit;
    out->states = d->states;
    out->transitions = d->transitions;
    out->mass_error = fabs(1.0 - (out->p_win[0] + out->p_win[1] +
                                  out->p_both_out + out->p_unfinished +
                                  out->p_left));
done:
    if (d->buckets) {
        for (long bi = 0; bi < d->n_buckets; bi++)
            bucket_free(d, d->buckets[bi]);
        fray__free(alloc, d->buckets, (size_t)d->n_buckets * sizeof *d->buckets);
    }
    fray__free(alloc, d->st, sizeof *d->st);
    fray__free(alloc, d->memo, (size_t)d->cap_memo * sizeof *d->memo);
    fray__free(alloc, d->memo_index, (size_t)d->memo_index_cap * sizeof *d->memo_index);
    fray__free(alloc, d->outs, (size_t)d->cap_outs * sizeof *d->outs);
    if (d->exact) {
        for (int i = 0; i < d->n_outs && i < d->cap_outs_ex; i++)
            mpq_clear(d->outs_ex[i]);
        fray__free(alloc, d->outs_ex, (size_t)d->cap_outs_ex * sizeof *d->outs_ex);
        mpq_clears(d->ex_win[0], d->ex_win[1], d->ex_both, d->ex_unfinished,
                   d->ex_len, d->ex_q, d->ex_t, d->ex_p, d->ex_s, NULL);
        if (rc != FRAY_OK)
            fray_duel_exact_free(exact);
    }
    fray__free(alloc, d->length, FRAY_DUEL_LENGTH_BINS * sizeof *d->length);
    fray__free(alloc, d->pipe, DUEL_PIPE * sizeof *d->pipe);
    fray__free(alloc, d, sizeof *d);
    return rc;
}

FRAY_API fray_status fray_towers_duel_odds(const fray_towers_setup *setup,
                                           int a, int b, fray_duel_odds *out,
                                           fray_diag *diag) {
    return duel_count(setup, a, b, 0, NULL, out, NULL, diag);
}

FRAY_API fray_status fray_towers_duel_odds_max(const fray_towers_setup *setup,
                                               int a, int b, long max_states,
                                               fray_duel_odds *out,
                                               fray_diag *diag) {
    if (!out)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no duel to count");
    return duel_count(setup, a, b, max_states, NULL, out, NULL, diag);
}

static fray_status leaving(const fray_towers_setup *setup, int a, int b,
                           long max_states, unsigned leave_out,
                           fray_duel_odds *out, fray_duel_exact *exact,
                           fray_diag *diag) {
    if (!out || !setup)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no duel to count");
    if (!leave_out)
        return duel_count(setup, a, b, max_states, NULL, out, exact, diag);
    const fray_allocator *alloc = setup->alloc.realloc ? &setup->alloc : NULL;
    fray_towers_setup *cp = NULL;
    fray_status rc = fray_towers_setup_copy(setup, alloc, &cp);
    if (rc != FRAY_OK)
        return rc;
    if (leave_out & FRAY_DUEL_LEAVE_HAND_OF_FATE)
        cp->s.opt.hand_of_fate = 0;
    for (int i = 0; i < cp->s.n_combatants; i++) {
        if (leave_out & FRAY_DUEL_LEAVE_HAND_OF_FATE)
            cp->s.c[i].tactics.use_hand_of_fate = false;
        if (leave_out & FRAY_DUEL_LEAVE_CHIPS)
            cp->s.c[i].tactics.use_chips = false;
    }
    /* (as vary.c after a change: the tactics' caches again) */
    ft_policy_prepare(&cp->s);
    rc = duel_count(cp, a, b, max_states, NULL, out, exact, diag);
    fray_towers_setup_free(cp);
    return rc;
}

FRAY_API fray_status fray_towers_duel_odds_leaving(
    const fray_towers_setup *setup, int a, int b, long max_states,
    unsigned leave_out, fray_duel_odds *out, fray_diag *diag) {
    return leaving(setup, a, b, max_states, leave_out, out, NULL, diag);
}

FRAY_API fray_status fray_towers_duel_odds_exact(
    const fray_towers_setup *setup, int a, int b, long max_states,
    unsigned leave_out, fray_duel_odds *out, fray_duel_exact *exact,
    fray_diag *diag) {
    if (!exact)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "nowhere to put it");
    return leaving(setup, a, b, max_states, leave_out, out, exact, diag);
}

FRAY_API void fray_duel_exact_free(fray_duel_exact *x) {
    if (!x)
        return;
    for (int k = 0; k < 2; k++) {
        fray_bigratio_free(&x->p_first[k]);
        fray_bigratio_free(&x->p_win[k]);
    }
    fray_bigratio_free(&x->p_both_out);
    fray_bigratio_free(&x->p_unfinished);
    fray_bigratio_free(&x->mean_length);
}

FRAY_API fray_status fray_towers_duel_estimate(const fray_towers_setup *setup,
                                               int a, int b,
                                               double *out_states,
                                               fray_diag *diag) {
    if (!out_states)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "nowhere to put it");
    return duel_count(setup, a, b, 0, out_states, NULL, NULL, diag);
}

/* ---- A duel from two stat-block files ----------------------------------------------- */

/* The names of the stat blocks a file holds (its `statblocks:` list);
 * the loader has already read the file without error. */
static int statblock_names(const char *path, char names[][FT_NAME], int max) {
    struct fy_document *doc = fy_document_build_from_file(NULL, path);
    if (!doc)
        return -1;
    int n = 0;
    struct fy_node *list = fy_node_mapping_lookup_by_string(
        fy_document_root(doc), "statblocks", FY_NT);
    void *it = NULL;
    struct fy_node *item;
    while (list && (item = fy_node_sequence_iterate(list, &it)) != NULL) {
        struct fy_node *nm = fy_node_mapping_lookup_by_string(item, "name", FY_NT);
        size_t len = 0;
        const char *t = nm ? fy_node_get_scalar(nm, &len) : NULL;
        if (!t)
            continue;
        if (n < max) {
            size_t k = len < FT_NAME - 1 ? len : FT_NAME - 1;
            memcpy(names[n], t, k);
            names[n][k] = '\0';
        }
        n++;
    }
    fy_document_destroy(doc);
    return n;
}

/* Appends s to the buffer as a double-quoted YAML scalar. */
static void yaml_quoted(char *buf, size_t size, size_t *at, const char *s) {
    if (*at + 2 >= size)
        return;
    buf[(*at)++] = '"';
    for (; *s && *at + 3 < size; s++) {
        if (*s == '"' || *s == '\\')
            buf[(*at)++] = '\\';
        buf[(*at)++] = *s;
    }
    buf[(*at)++] = '"';
    buf[*at] = '\0';
}

static void append(char *buf, size_t size, size_t *at, const char *s) {
    size_t n = strlen(s);
    if (*at + n >= size)
        n = size - *at - 1;
    memcpy(buf + *at, s, n);
    *at += n;
    buf[*at] = '\0';
}

static const char *const preset_names[FT_TACTICS_COUNT] = {
#define FT__E(id, name) name,
    FT_TACTICS_LIST(FT__E)
#undef FT__E
};

static fray_status pick_name(const char *path, const char *name,
                             char out[FT_NAME], fray_diag *diag) {
    fray_status rc = fray_towers_check(path, diag);
    if (rc != FRAY_OK)
        return rc;
    if (name) {
        snprintf(out, FT_NAME, "%s", name);
        return FRAY_OK;
    }
    char names[8][FT_NAME];
    int n = statblock_names(path, names, 8);
    if (n == 1) {
        memcpy(out, names[0], FT_NAME);
        return FRAY_OK;
    }
    if (diag) {
        memset(diag, 0, sizeof *diag);
        diag->file = path;
    }
    if (n < 0) /* it loaded a moment ago: memory, or the file changed */
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0,
                              "cannot read the stat blocks' names again");
    if (n == 0)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "this file holds no stat block");
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                          "this file holds %d stat blocks (%s, %s%s): name "
                          "the one to fight", n, names[0], names[1],
                          n > 2 ? ", ..." : "");
}

FRAY_API fray_status fray_towers_duel_setup(const char *path_a,
                                            const char *name_a,
                                            const char *path_b,
                                            const char *name_b,
                                            const char *tactics_a,
                                            const char *tactics_b,
                                            const fray_allocator *alloc,
                                            fray_towers_setup **out,
                                            fray_diag *diag) {
    if (diag)
        memset(diag, 0, sizeof *diag);
    if (out)
        *out = NULL;
    if (!path_a || !path_b || !out)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "a duel needs two stat-block files");
    const char *tac[2] = {tactics_a ? tactics_a : "attack",
                          tactics_b ? tactics_b : "attack"};
    for (int i = 0; i < 2; i++) {
        bool known = false;
        for (int k = 0; k < FT_TACTICS_COUNT; k++)
            known = known || strcmp(tac[i], preset_names[k]) == 0;
        if (!known)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "unknown tactics preset '%.40s' (default, "
                                  "attack, power-attack, aim, defensive, "
                                  "ranged, hold-ground, idle)",
                                  tac[i]);
    }
    char name[2][FT_NAME];
    fray_status rc = pick_name(path_a, name_a, name[0], diag);
    if (rc == FRAY_OK)
        rc = pick_name(path_b, name_b, name[1], diag);
    if (rc != FRAY_OK)
        return rc;
    /* Two of the same stat block: the second is told apart. */
    char shown[2][FT_NAME + 8];
    snprintf(shown[0], sizeof shown[0], "%s", name[0]);
    if (strcmp(name[0], name[1]) == 0)
        snprintf(shown[1], sizeof shown[1], "%.28s 2", name[1]);
    else
        snprintf(shown[1], sizeof shown[1], "%s", name[1]);
    char text[4096];
    size_t at = 0;
    append(text, sizeof text, &at,
           "fray: encounter\nname: Duel\nstatblocks: [");
    yaml_quoted(text, sizeof text, &at, path_a);
    append(text, sizeof text, &at, ", ");
    yaml_quoted(text, sizeof text, &at, path_b);
    append(text, sizeof text, &at,
           "]\noptions: {fresh-decks: true, hand-of-fate: 0}\nsides: [");
    yaml_quoted(text, sizeof text, &at, shown[0]);
    append(text, sizeof text, &at, ", ");
    yaml_quoted(text, sizeof text, &at, shown[1]);
    append(text, sizeof text, &at, "]\ncombatants:\n");
    for (int i = 0; i < 2; i++) {
        append(text, sizeof text, &at, i == 0 ? "  - {id: a, name: " : "  - {id: b, name: ");
        yaml_quoted(text, sizeof text, &at, shown[i]);
        append(text, sizeof text, &at, ", statblock: ");
        yaml_quoted(text, sizeof text, &at, name[i]);
        append(text, sizeof text, &at, ", side: ");
        yaml_quoted(text, sizeof text, &at, shown[i]);
        append(text, sizeof text, &at, i == 0 ? ", at: [0, 0]" : ", at: [1, 0]");
        append(text, sizeof text, &at, ", tactics: {preset: ");
        append(text, sizeof text, &at, tac[i]);
        append(text, sizeof text, &at,
               ", hand-of-fate: false, chips: false}}\n");
    }
    if (at + 1 >= sizeof text)
        return fray__diag_set(diag, FRAY_ERR_RANGE, 0,
                              "the stat-block paths are too long");
    fray_towers_setup *setup = fray__alloc(alloc, sizeof *setup);
    if (!setup)
        return FRAY_ERR_NOMEM;
    memset(setup, 0, sizeof *setup);
    if (alloc)
        setup->alloc = *alloc;
    /* A path without a directory: the stat-block paths are read as given. */
    rc = ft_load_text(text, at, "duel", alloc, &setup->s, diag);
    if (rc != FRAY_OK) {
        fray__free(alloc, setup, sizeof *setup);
        return rc;
    }
    *out = setup;
    return FRAY_OK;
}
