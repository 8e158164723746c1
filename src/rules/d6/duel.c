/*
 * duel.c - the exact odds of a D6 duel (`fray odds duel`, issue 18;
 * include/fray/duel.h; docs/rules/d6.md "The exact duel"): two combatants
 * where the encounter puts them, each doing on its turn what the tactics
 * do (rules.c d6_choose, asked for every state), worked out as a Markov
 * chain over the fight between turns.
 *
 * The chain's state: each side's Wound level (Incapacitated meaning it
 * stayed up) or Body Points left; whether a Stunned side still has its
 * -1D this round, or this round and the next (core); the round's order
 * (kept with `initiative: scene`); and each side's active defense, which
 * lasts until its own next turn (core) and so can face two attacks of the
 * other (one later in the round it was made, one early in the next).
 * Surprise (003:129) changes round 1 only: who acts first, or +1D on the
 * rolls of one side's turn.
 *
 * The defense total has a Wild Die and no upper bound, so the chain does
 * not hold it as a number: it holds which code rolled it and what the one
 * attack that met it so far did (hit or miss, and that attack's code).
 * The attacks are independent given the total, so the chance a second
 * attack hits is E[P1(D) P2(D)] / E[P1(D)] after a hit (and likewise after
 * a miss), D the total, Pk(d) the chance attack k meets max(3, d + mods).
 * Those sums run over every total a table holds; each table keeps a
 * code's totals to 28 sixes of the Wild Die past its dice (what lies
 * beyond is under 1e-18 and dropped: DU_CUT checks it), and every other
 * chance is odds.c's exact closed form, rounded to a double.
 *
 * The round limit is counted: the chain stops at it (with none, at the
 * 1000 rounds a simulated fight stops at, d6.c), or once less than 1e-15
 * is still in play (p_left).
 */
#include "d6_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d6_odds.h"
#include "fray/duel.h"
#include "internal.h"

enum {
    /* dice off a roll, from -1 (surprise's +1D) to 4 (wounds 3, a second
     * action 1); the tables' index is the dice + 1 */
    DU_PENS = 6,
    DU_DEF_ROLLED = 1,          /* + index: a defense rolled, not met yet */
    DU_DEF_FACED = 1 + DU_PENS, /* + (index * DU_PENS + x) * 2 + hit: met once */
    DU_DEF_SPENT = DU_DEF_FACED + DU_PENS * DU_PENS * 2, /* met twice */
    DU_TAIL = 6 * 28,           /* totals kept past a code's dice */
    DU_ROUNDS_CAP = 1000        /* d6.c D6_ROUNDS_CAP: a simulated fight
                                   with no round limit stops there */
};
static const double DU_CUT = 1e-18;   /* the most a table may drop */
static const double DU_LEFT = 1e-15;  /* stop once less is in play */

/* P(total >= t) for t in [lo, lo + n), 1 below, 0 above. */
typedef struct du_sf {
    int lo, n;
    double *sf;
} du_sf;

/* What side i does on its turn at health h, stun s (d6_choose). */
typedef struct du_choice {
    uint8_t pen;  /* dice off its defense and attack rolls (before surprise) */
    bool full;    /* a defense (parry or dodge) before the attack */
} du_choice;

typedef struct du_map {
    uint64_t *key; /* bit 63: taken */
    double *p;
    size_t cap, n;
} du_map;

typedef struct du_ctx {
    const d6_setup *s;
    const fray_allocator *al;
    bool wounds;
    int hmax[2];               /* wounds: Incapacitated; BP: the maximum */
    du_choice *ch[2];          /* [h * 3 + stun] */
    du_sf att[2][DU_PENS];     /* i's attack roll at index x (x - 1 dice off) */
    du_sf dfn[2][DU_PENS];     /* i's defense roll at index x (pmf from sf) */
    bool parry[2];             /* i's defense is a parry (else a dodge) */
    bool def_counts[2];        /* i's defense stands against the other's attack */
    int doff[2], aoff[2];      /* i's attack: to the difficulty, to the total */
    double passive[2][DU_PENS];
    double e1[2][DU_PENS][DU_PENS];          /* [attacker][def index][att index] */
    double e2[2][DU_PENS][DU_PENS][DU_PENS]; /* [attacker][def index][y][x] */
    bool bonus[2];             /* surprise: bonus: +1D on its round-1 turn (003:129) */
    int first;                 /* surprise: first: who acts first in round 1; -1 */
    double cat[2][6];          /* wounds: i's hit on the other, excess class */
    double *sfex[2];           /* BP: P(excess of i's hit >= k), k 0..hmax+1 */
    double up[2];              /* i stays up when Incapacitated */
    double q1;                 /* P(combatant 1 acts first) */
    int init_mode;
    /* results */
    double win[2], len_sum, len_sq;
    double *length;
    long states, transitions, max_states;
    bool too_big, third;
} du_ctx;

static fray_status refuse(fray_diag *diag, const char *what, const char *a,
                          const char *b) {
    char msg[400];
    snprintf(msg, sizeof msg, what, a, b);
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                          "the exact D6 duel does not model %s", msg);
}

/* ---- Tables ---------------------------------------------------------------- */

static double sf_at(const du_sf *t, long v) {
    if (v <= t->lo)
        return 1.0;
    if (v >= (long)t->lo + t->n)
        return 0.0;
    return t->sf[v - t->lo];
}

/* P(the code's roll >= t) for every t from its lowest total to DU_TAIL
 * past its dice; *cut: the most dropped above. */
static fray_status sf_make(const du_ctx *C, d6_code c, du_sf *out, double *cut) {
    d6_dist *d = NULL;
    fray_status rc = d6_dist_code(c, c.dice > 0, (d6_wild_one)C->s->o.wild_one, C->al, &d);
    if (rc != FRAY_OK)
        return rc;
    int64_t lo = 0;
    if (!d6_dist_lo(d, &lo))
        lo = 0;
    long hi = (long)(c.dice > 0 ? c.dice : 0) * 6 + c.pips + 6 + DU_TAIL;
    if (hi < lo)
        hi = (long)lo;
    out->lo = (int)lo;
    out->n = (int)(hi - lo + 2);
    out->sf = fray__alloc(C->al, (size_t)out->n * sizeof *out->sf);
    if (!out->sf) {
        d6_dist_free(d);
        return FRAY_ERR_NOMEM;
    }
    for (int k = 0; k < out->n; k++)
        out->sf[k] = d6_dist_p_at_least(d, lo + k);
    if (out->sf[out->n - 1] > *cut)
        *cut = out->sf[out->n - 1];
    d6_dist_free(d);
    return FRAY_OK;
}

static d6_code less_dice(d6_code c, int pen) {
    d6_code p = {-pen, 0};
    return d6_code_add(c, p);
}

/* The chance i's attack at index x meets a defense total d. */
static double p_meets(const du_ctx *C, int i, int x, long d) {
    long diff = d + C->doff[i];
    if (diff < D6_DIFFICULTY_FLOOR)
        diff = D6_DIFFICULTY_FLOOR; /* 003:2 */
    return sf_at(&C->att[i][x], diff - C->aoff[i]);
}

/* A scratch state where i acts at health h and stun s. */
static void scratch(const du_ctx *C, const d6_state *st0, int i, int h, int stun,
                    d6_state *st) {
    *st = *st0;
    d6_cstate *c = &st->c[i];
    if (C->wounds) {
        c->wound = (uint8_t)h;
        if (h == D6_W_INCAP)
            c->flags |= D6_F_UP;
        c->stun_round = stun == 2 ? st->round + 1 : stun == 1 ? st->round : 0;
    } else {
        c->bp = (int16_t)h;
    }
}

/* What the tactics do at every health of i: an attack on the other, with
 * a defense first or not; anything else is refused in words. */
static fray_status choices(du_ctx *C, const d6_state *st0, int i, fray_diag *diag) {
    const d6_setup *s = C->s;
    int n = (C->hmax[i] + 1) * 3;
    C->ch[i] = fray__alloc(C->al, (size_t)n * sizeof *C->ch[i]);
    d6_event *cmd = fray__alloc(C->al, sizeof *cmd);
    d6_state *st = fray__alloc(C->al, sizeof *st);
    fray_status rc = C->ch[i] && cmd && st ? FRAY_OK : FRAY_ERR_NOMEM;
    for (int h = C->wounds ? 0 : 1; h <= C->hmax[i] && rc == FRAY_OK; h++)
        for (int stun = 0; stun < 3 && rc == FRAY_OK; stun++) {
            if (stun > 0 && (!C->wounds || h != D6_W_STUNNED))
                continue;
            scratch(C, st0, i, h, stun, st);
            d6_choose(s, st, cmd);
            int pen = d6_wound_penalty(s, st, i) + cmd->actions - 1;
            if (cmd->kind != D6_EV_ATTACK || cmd->target != 1 - i) {
                char who[D6_NAME + 48];
                if (C->wounds)
                    snprintf(who, sizeof who, "%s, %s", s->c[i].name, d6_wound_name(h));
                else
                    snprintf(who, sizeof who, "%s at %d Body Points", s->c[i].name, h);
                rc = refuse(diag, "a turn other than an attack: %s would %s", who,
                            d6_kind_word(cmd->kind));
            } else if (cmd->option || cmd->grab || cmd->called || cmd->location ||
                       cmd->sight || cmd->trick || cmd->disarm || cmd->weapon != -1) {
                rc = refuse(diag, "the attack options %s's tactics would take (%s)",
                            s->c[i].name,
                            cmd->disarm ? "a disarm, 003:61" : "knockdown, tactics-knockdown: yes, 003:8");
            } else if (cmd->actions != 1 + (cmd->full ? 1 : 0) || pen + 1 >= DU_PENS) {
                rc = refuse(diag, "%s's turn of %s actions", s->c[i].name,
                            cmd->actions > 2 ? "three or more" : "two");
            } else {
                du_choice *c = &C->ch[i][h * 3 + stun];
                c->pen = (uint8_t)pen;
                c->full = cmd->full != 0;
                if (c->full)
                    C->parry[i] = cmd->parry != 0; /* the same at every health */
            }
        }
    fray__free(C->al, cmd, sizeof *cmd);
    fray__free(C->al, st, sizeof *st);
    return rc;
}

static const du_choice *choice_of(const du_ctx *C, int i, int h, int stun) {
    return &C->ch[i][h * 3 + (C->wounds && h == D6_W_STUNNED ? stun : 0)];
}

/* P(X >= t) of damage less resistance, with the constant shifts. */
static fray_status excess_make(du_ctx *C, const d6_attack_terms_t *T, int i) {
    const d6_setup *s = C->s;
    d6_code dc = T->damage;
    if (dc.dice < 0 || (dc.dice == 0 && dc.pips < 0))
        dc = (d6_code){0, 0}; /* rules.c: damage never below none */
    d6_dist *dd = NULL, *rd = NULL, *x = NULL;
    d6_wild_one rule = (d6_wild_one)s->o.wild_one;
    fray_status rc = d6_dist_code(dc, true, rule, C->al, &dd);
    if (rc == FRAY_OK)
        rc = d6_dist_code(T->resistance, true, rule, C->al, &rd);
    if (rc == FRAY_OK)
        rc = d6_dist_add(dd, rd, -1, &x);
    if (rc == FRAY_OK) {
        long shift = T->scale_damage - T->scale_resistance; /* scale.c (003:105) */
        if (C->wounds) {
            static const long edge[6] = {1, 4, 9, 13, 16, 0};
            double ge[6];
            for (int k = 0; k < 5; k++)
                ge[k] = d6_dist_p_at_least(x, edge[k] - shift);
            C->cat[i][0] = 1.0 - ge[0];
            for (int k = 1; k < 5; k++)
                C->cat[i][k] = ge[k - 1] - ge[k];
            C->cat[i][5] = ge[4];
        } else {
            int m = C->hmax[1 - i];
            C->sfex[i] = fray__alloc(C->al, (size_t)(m + 2) * sizeof(double));
            if (!C->sfex[i])
                rc = FRAY_ERR_NOMEM;
            for (int k = 0; rc == FRAY_OK && k <= m + 1; k++)
                C->sfex[i][k] = d6_dist_p_at_least(x, k - shift);
        }
    }
    d6_dist_free(dd);
    d6_dist_free(rd);
    d6_dist_free(x);
    return rc;
}

static fray_status stay_up_make(du_ctx *C, d6_code c, int i) {
    d6_dist *d = NULL;
    fray_status rc = d6_dist_code(c, true, (d6_wild_one)C->s->o.wild_one, C->al, &d);
    if (rc == FRAY_OK)
        C->up[i] = d6_dist_p_at_least(d, 15); /* a Moderate (15) roll (core) */
    d6_dist_free(d);
    return rc;
}

/* P(combatant 1 acts first): initiative totals, then rules.c's ties
 * (Acumen, search, Agility, dodge codes; then the encounter's order). */
static fray_status first_make(du_ctx *C, const d6_state *st0) {
    const d6_setup *s = C->s;
    if (s->o.initiative == D6_INIT_FIRST_ACTION) {
        C->q1 = 0.0; /* the encounter's order */
        return FRAY_OK;
    }
    long key[2][4];
    for (int i = 0; i < 2; i++) {
        const d6_code k[4] = {s->c[i].b.attr[D6_ACUMEN], d6_skill_code(s, i, D6_SK_SEARCH),
                              s->c[i].b.attr[D6_AGILITY], d6_skill_code(s, i, D6_SK_DODGE)};
        for (int q = 0; q < 4; q++)
            key[i][q] = (long)k[q].dice * 3 + k[q].pips;
    }
    bool tie1 = false;
    for (int q = 0; q < 4; q++)
        if (key[0][q] != key[1][q]) {
            tie1 = key[1][q] > key[0][q];
            break;
        }
    d6_dist *i0 = NULL, *i1 = NULL, *x = NULL;
    d6_wild_one rule = (d6_wild_one)s->o.wild_one;
    fray_status rc = d6_dist_code(d6_quick_initiative(s, st0, 0), true, rule, C->al, &i0);
    if (rc == FRAY_OK)
        rc = d6_dist_code(d6_quick_initiative(s, st0, 1), true, rule, C->al, &i1);
    if (rc == FRAY_OK)
        rc = d6_dist_add(i1, i0, -1, &x);
    if (rc == FRAY_OK)
        C->q1 = d6_dist_p_at_least(x, 1) + (tie1 ? d6_dist_p_eq(x, 0) : 0.0);
    d6_dist_free(i0);
    d6_dist_free(i1);
    d6_dist_free(x);
    return rc;
}

/* ---- The chain's states ------------------------------------------------------ */

typedef struct du_st {
    int h[2], stun[2], def[2], order;
} du_st;

static uint64_t pack(const du_st *S) {
    uint64_t k = 0;
    for (int i = 0; i < 2; i++)
        k |= ((uint64_t)S->h[i] | (uint64_t)S->stun[i] << 16 | (uint64_t)S->def[i] << 18)
             << (25 * i);
    return k | (uint64_t)S->order << 50;
}

static void unpack(uint64_t k, du_st *S) {
    for (int i = 0; i < 2; i++) {
        uint64_t v = k >> (25 * i);
        S->h[i] = (int)(v & 0xffff);
        S->stun[i] = (int)((v >> 16) & 3);
        S->def[i] = (int)((v >> 18) & 0x7f);
    }
    S->order = (int)((k >> 50) & 1);
}

static uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static const uint64_t TAKEN = 1ull << 63;

static void map_free(const du_ctx *C, du_map *m) {
    fray__free(C->al, m->key, m->cap * sizeof *m->key);
    fray__free(C->al, m->p, m->cap * sizeof *m->p);
    memset(m, 0, sizeof *m);
}

static fray_status map_init(const du_ctx *C, du_map *m, size_t cap) {
    m->key = fray__alloc(C->al, cap * sizeof *m->key);
    m->p = fray__alloc(C->al, cap * sizeof *m->p);
    m->cap = cap;
    m->n = 0;
    if (!m->key || !m->p) {
        map_free(C, m);
        return FRAY_ERR_NOMEM;
    }
    memset(m->key, 0, cap * sizeof *m->key);
    return FRAY_OK;
}

static void map_clear(du_map *m) {
    memset(m->key, 0, m->cap * sizeof *m->key);
    m->n = 0;
}

static void map_put(du_map *m, uint64_t key, double p, du_ctx *C) {
    size_t mask = m->cap - 1, at = (size_t)mix(key) & mask;
    while (m->key[at] & TAKEN) {
        if (m->key[at] == (key | TAKEN)) {
            m->p[at] += p;
            return;
        }
        at = (at + 1) & mask;
    }
    m->key[at] = key | TAKEN;
    m->p[at] = p;
    m->n++;
    C->states++;
}

static fray_status map_add(du_ctx *C, du_map *m, uint64_t key, double p) {
    C->transitions++;
    if (p <= 0.0)
        return FRAY_OK;
    if ((m->n + 1) * 2 > m->cap) {
        du_map g;
        fray_status rc = map_init(C, &g, m->cap * 2);
        if (rc != FRAY_OK)
            return rc;
        long states = C->states;
        for (size_t k = 0; k < m->cap; k++)
            if (m->key[k] & TAKEN)
                map_put(&g, m->key[k] & ~TAKEN, m->p[k], C);
        C->states = states;
        map_free(C, m);
        *m = g;
    }
    map_put(m, key, p, C);
    if (C->states > C->max_states)
        C->too_big = true;
    return FRAY_OK;
}

/* The fight ends in round r, won by i's side. */
static void won(du_ctx *C, int i, int r, double p) {
    if (p <= 0.0)
        return;
    C->transitions++;
    C->win[i] += p;
    C->len_sum += p * r;
    C->len_sq += p * (double)r * r;
    C->length[r < FRAY_DUEL_LENGTH_BINS - 1 ? r : FRAY_DUEL_LENGTH_BINS - 1] += p;
}

/* The chance a's attack at index x hits b, whose defense is `def`. */
static double hit_chance(const du_ctx *C, int a, int def, int x) {
    if (def == 0)
        return C->passive[a][x];
    if (def < DU_DEF_FACED)
        return C->e1[a][def - DU_DEF_ROLLED][x];
    int f = def - DU_DEF_FACED, hit = f & 1, k = f / 2 / DU_PENS, y = f / 2 % DU_PENS;
    double py = C->e1[a][k][y], both = C->e2[a][k][y][x];
    double num = hit ? both : C->e1[a][k][x] - both, den = hit ? py : 1.0 - py;
    if (den <= 0.0)
        return 0.0;
    double p = num / den;
    return p < 0.0 ? 0.0 : p > 1.0 ? 1.0 : p;
}

/* a's turn in round r from state `key` with mass m: into out, or won. */
static fray_status turn(du_ctx *C, uint64_t key, double m, int a, int r, du_map *out) {
    du_st S;
    unpack(key, &S);
    int b = 1 - a;
    const du_choice *ch = choice_of(C, a, S.h[a], S.stun[a]);
    /* its rolls' index: the dice off, less the +1D of a surprise (003:129) */
    int pen = ch->pen + 1 - (r == 1 && C->bonus[a] ? 1 : 0);
    /* an active defense lasts to its maker's next turn (core) */
    S.def[a] = ch->full && C->def_counts[a] ? DU_DEF_ROLLED + pen : 0;
    int def = S.def[b];
    if (def == DU_DEF_SPENT) { /* a third attack on one defense: not in a duel */
        C->third = true;
        return FRAY_ERR_INVALID;
    }
    double p = hit_chance(C, a, def, pen);
    int after_miss = def, after_hit = def;
    if (def >= DU_DEF_FACED) {
        after_miss = after_hit = DU_DEF_SPENT; /* its history matters no more */
    } else if (def >= DU_DEF_ROLLED) {
        after_miss = DU_DEF_FACED + ((def - DU_DEF_ROLLED) * DU_PENS + pen) * 2;
        after_hit = after_miss + 1;
    }
    S.def[b] = after_miss;
    fray_status rc = map_add(C, out, pack(&S), m * (1.0 - p));
    if (rc != FRAY_OK)
        return rc;
    S.def[b] = after_hit;
    double mh = m * p;
    if (mh <= 0.0)
        return FRAY_OK;
    int before = S.h[b];
    if (C->wounds) {
        static const int rep[6] = {0, 1, 4, 9, 13, 16}; /* each class of excess */
        for (int c = 0; c < 6 && rc == FRAY_OK; c++) {
            double pc = mh * C->cat[a][c];
            if (pc <= 0.0)
                continue;
            int now = d6_wound_after(before, rep[c]);
            if (now >= D6_W_MORTAL) {
                won(C, a, r, pc);
                continue;
            }
            du_st T = S;
            T.h[b] = now;
            if (now != D6_W_STUNNED)
                T.stun[b] = 0;
            else if (rep[c] > 0)
                T.stun[b] = 2; /* this round and the next (core) */
            if (now == D6_W_INCAP && before != D6_W_INCAP) {
                won(C, a, r, pc * (1.0 - C->up[b]));
                pc *= C->up[b];
            }
            rc = map_add(C, out, pack(&T), pc);
        }
        return rc;
    }
    const double *sf = C->sfex[a];
    rc = map_add(C, out, pack(&S), mh * (1.0 - sf[1]));
    for (int k = 1; k < before && rc == FRAY_OK; k++) {
        du_st T = S;
        T.h[b] = before - k;
        rc = map_add(C, out, pack(&T), mh * (sf[k] - sf[k + 1]));
    }
    won(C, a, r, mh * sf[before]);
    return rc;
}

/* ---- The duel ------------------------------------------------------------------ */

/* Each reaches the other from where it stands: nobody moves. */
static fray_status reach(const d6_setup *s, const d6_state *st0, fray_diag *diag) {
    for (int i = 0; i < 2; i++) {
        int m = d6_distance(st0, i, 1 - i);
        if (d6_band(s, d6_weapon_of(s, i), m) != D6_BAND_BEYOND)
            continue;
        char dist[32];
        snprintf(dist, sizeof dist, "%d m away", m);
        return refuse(diag, "movement: %s cannot reach its foe from where it stands, %s",
                      s->c[i].name, dist);
    }
    return FRAY_OK;
}

static fray_status check(const d6_setup *s, int a, int b, fray_diag *diag) {
    if (s->n != 2 || a < 0 || b < 0 || a > 1 || b > 1 || a == b)
        return refuse(diag, "an encounter of other than two combatants%s%s", "", "");
    if (s->c[0].side == s->c[1].side)
        return refuse(diag, "two combatants of one side%s%s", "", "");
    if (s->o.uncalled_chest)
        return refuse(diag, "hits landing on the chest (uncalled-location: chest: passive "
                            "defense only in the next round, 003:82)%s%s", "", "");
    if (s->o.damage_bonus)
        return refuse(diag, "the damage bonus (damage-bonus: yes: the damage grows with "
                            "the attack's margin)%s%s", "", "");
    for (int i = 0; i < 2; i++) {
        const d6_combatant *c = &s->c[i];
        const char *n = c->name;
        if (c->tactics == D6_TAC_GRAPPLE)
            return refuse(diag, "grabs (%s's tactics: grapple; 003:10-14)%s", n, "");
        if (c->tactics == D6_TAC_WRESTLE)
            return refuse(diag, "disarms and arm pins (%s's tactics: wrestle; 003:17-24, %s)", n,
                          "61");
        if (c->cover == D6_COVER_FULL)
            return refuse(diag, "full cover (%s cannot be attacked directly)%s", n, "");
        if (s->o.health == D6_HEALTH_BODY_POINTS && c->b.body_points <= 0)
            return refuse(diag, "%s with no Body Points%s", n, "");
        int w = d6_weapon_of(s, i);
        if (w >= 0 && s->w[w].entangling)
            return refuse(diag, "an entangling weapon (003:63: %s's %s)", n, s->w[w].name);
    }
    return FRAY_OK;
}

static void ctx_free(du_ctx *C) {
    for (int i = 0; i < 2; i++) {
        if (C->ch[i])
            fray__free(C->al, C->ch[i], (size_t)(C->hmax[i] + 1) * 3 * sizeof *C->ch[i]);
        if (C->sfex[i])
            fray__free(C->al, C->sfex[i], (size_t)(C->hmax[1 - i] + 2) * sizeof(double));
        for (int p = 0; p < DU_PENS; p++) {
            if (C->att[i][p].sf)
                fray__free(C->al, C->att[i][p].sf, (size_t)C->att[i][p].n * sizeof(double));
            if (C->dfn[i][p].sf)
                fray__free(C->al, C->dfn[i][p].sf, (size_t)C->dfn[i][p].n * sizeof(double));
        }
    }
    if (C->length)
        fray__free(C->al, C->length, FRAY_DUEL_LENGTH_BINS * sizeof(double));
}

/* Every table the chain reads. */
static fray_status tables(du_ctx *C, const d6_state *st0, fray_diag *diag) {
    const d6_setup *s = C->s;
    double cut = 0.0;
    fray_status rc = FRAY_OK;
    for (int i = 0; i < 2 && rc == FRAY_OK; i++) {
        int j = 1 - i, w = d6_weapon_of(s, i);
        d6_attack_terms_t T;
        d6_attack_terms(s, st0, i, j, w, &T);
        /* blindness (003:45-46) and the target's posture (003:91-92): the
         * standard values of their rows, as rules.c's attack adds them */
        d6_event *ev0 = fray__alloc(C->al, sizeof *ev0);
        if (!ev0)
            return FRAY_ERR_NOMEM;
        memset(ev0, 0, sizeof *ev0);
        int op = 0, om = 0, ostd = 0, odmg = 0;
        d6_attack_mods(ev0, d6_sight_of(s, ev0, i, j), &op, &om, &ostd, &odmg);
        fray__free(C->al, ev0, sizeof *ev0);
        const d6_modifier_row *pr =
            d6_posture_row(st0, j, T.ranged ? T.band : D6_BAND_POINT_BLANK);
        if (s->o.modifiers_roll && (T.cover_dice + T.light_dice + op + om > 0 || pr))
            return refuse(diag, "modifier dice the GM rolls (modifiers: roll) for %s's "
                                "attack%s", s->c[i].name, "");
        C->doff[i] = T.band_mod + T.scale_difficulty + 3 * (T.cover_dice + T.light_dice) +
                     ostd + (pr ? pr->standard : 0) +
                     (w >= 0 ? s->w[w].unwieldy : 0); /* 003:131 */
        C->aoff[i] = T.scale_attack;
        /* a parry stands against melee attacks only (rules.c defense_of) */
        int wj = d6_weapon_of(s, j);
        C->def_counts[i] = !(C->parry[i] && wj >= 0 && s->w[wj].range[2] > 0);
        d6_code dcode = d6_skill_code(s, i, C->parry[i] ? d6_parry_skill(s, i) : D6_SK_DODGE);
        for (int p = 0; p < DU_PENS && rc == FRAY_OK; p++) {
            rc = sf_make(C, less_dice(T.skill, p - 1), &C->att[i][p], &cut);
            if (rc == FRAY_OK)
                rc = sf_make(C, less_dice(dcode, p - 1), &C->dfn[i][p], &cut);
        }
        if (rc == FRAY_OK)
            rc = excess_make(C, &T, i);
        if (rc == FRAY_OK)
            rc = stay_up_make(C, T.stay_up, j);
    }
    if (rc != FRAY_OK)
        return rc;
    if (cut > DU_CUT)
        return fray__diag_set(diag, FRAY_ERR_RANGE, 0,
                              "the exact D6 duel would drop %.3g of a roll's chances", cut);
    /* the sums over the defense totals */
    for (int i = 0; i < 2; i++) {
        int j = 1 - i;
        for (int x = 0; x < DU_PENS; x++)
            C->passive[i][x] = p_meets(C, i, x, 10); /* passive defense (core) */
        for (int k = 0; k < DU_PENS; k++) {
            const du_sf *D = &C->dfn[j][k];
            for (int t = 0; t + 1 < D->n; t++) {
                double pd = D->sf[t] - D->sf[t + 1];
                if (pd <= 0.0)
                    continue;
                long d = (long)D->lo + t;
                double px[DU_PENS];
                for (int x = 0; x < DU_PENS; x++)
                    px[x] = p_meets(C, i, x, d);
                for (int x = 0; x < DU_PENS; x++) {
                    C->e1[i][k][x] += pd * px[x];
                    for (int y = 0; y < DU_PENS; y++)
                        C->e2[i][k][y][x] += pd * px[y] * px[x];
                }
            }
        }
    }
    return first_make(C, st0);
}

static fray_status run(du_ctx *C, int limit, double *left, double *unfinished) {
    du_map cur = {0}, mid = {0}, nxt = {0};
    fray_status rc = map_init(C, &cur, 1024);
    if (rc == FRAY_OK)
        rc = map_init(C, &mid, 1024);
    if (rc == FRAY_OK)
        rc = map_init(C, &nxt, 1024);
    du_st S0;
    memset(&S0, 0, sizeof S0);
    for (int i = 0; i < 2; i++)
        S0.h[i] = C->wounds ? D6_W_NONE : C->hmax[i];
    if (rc == FRAY_OK)
        rc = map_add(C, &cur, pack(&S0), 1.0);
    *left = *unfinished = 0.0;
    for (int r = 1; rc == FRAY_OK; r++) {
        /* the order: rolled every round, or once (scene, first-action) */
        map_clear(&mid);
        for (size_t k = 0; k < cur.cap && rc == FRAY_OK; k++) {
            if (!(cur.key[k] & TAKEN))
                continue;
            du_st S;
            unpack(cur.key[k] & ~TAKEN, &S);
            int kept = S.order;
            for (int o = 0; o < 2 && rc == FRAY_OK; o++) {
                double q = o ? C->q1 : 1.0 - C->q1;
                if (r > 1 && C->init_mode != D6_INIT_ROUND)
                    q = kept == o ? 1.0 : 0.0;
                S.order = o;
                rc = map_add(C, &mid, pack(&S), cur.p[k] * q);
            }
        }
        /* the two turns */
        for (int t = 0; t < 2 && rc == FRAY_OK; t++) {
            map_clear(&nxt);
            for (size_t k = 0; k < mid.cap && rc == FRAY_OK; k++) {
                if (!(mid.key[k] & TAKEN))
                    continue;
                uint64_t key = mid.key[k] & ~TAKEN;
                int order = (int)((key >> 50) & 1); /* order 1: combatant 1 first */
                if (r == 1 && C->first >= 0)
                    order = C->first; /* surprise: it acts first (003:129) */
                int a = t == 0 ? order : 1 - order;
                rc = turn(C, key, mid.p[k], a, r, &nxt);
            }
            du_map tmp = mid;
            mid = nxt;
            nxt = tmp;
        }
        /* the round's end: a Stunned -1D runs out */
        map_clear(&cur);
        double mass = 0.0;
        for (size_t k = 0; k < mid.cap && rc == FRAY_OK; k++) {
            if (!(mid.key[k] & TAKEN))
                continue;
            du_st S;
            unpack(mid.key[k] & ~TAKEN, &S);
            for (int i = 0; i < 2; i++)
                if (S.stun[i] > 0)
                    S.stun[i]--;
            if (C->init_mode == D6_INIT_ROUND)
                S.order = 0;
            mass += mid.p[k];
            rc = map_add(C, &cur, pack(&S), mid.p[k]);
        }
        if (rc == FRAY_OK && C->too_big)
            rc = FRAY_ERR_TOO_LARGE;
        if (rc != FRAY_OK)
            break;
        if (r >= limit) {
            *unfinished = mass;
            break;
        }
        if (mass < DU_LEFT) {
            *left = mass;
            break;
        }
    }
    map_free(C, &cur);
    map_free(C, &mid);
    map_free(C, &nxt);
    return rc;
}

fray_status d6_duel_odds(const d6_setup *s, int a, int b, long max_states,
                         fray_duel_odds *out, fray_diag *diag) {
    if (!s || !out)
        return FRAY_ERR_INVALID;
    memset(out, 0, sizeof *out);
    fray_status rc = check(s, a, b, diag);
    if (rc != FRAY_OK)
        return rc;
    const fray_allocator *al = s->alloc.realloc ? &s->alloc : NULL;
    du_ctx *C = fray__alloc(al, sizeof *C);
    d6_state *st0 = fray__alloc(al, sizeof *st0);
    if (!C || !st0) {
        fray__free(al, C, sizeof *C);
        fray__free(al, st0, sizeof *st0);
        return FRAY_ERR_NOMEM;
    }
    memset(C, 0, sizeof *C);
    C->s = s;
    C->al = al;
    C->wounds = s->o.health == D6_HEALTH_WOUNDS;
    C->init_mode = s->o.initiative;
    C->max_states = max_states > 0 ? max_states : FRAY_DUEL_MAX_STATES;
    int firsts = 0, who = -1;
    for (int i = 0; i < 2; i++) {
        C->hmax[i] = C->wounds ? D6_W_INCAP : s->c[i].b.body_points;
        C->bonus[i] = s->c[i].surprise == D6_SURPRISE_BONUS;
        if (s->c[i].surprise == D6_SURPRISE_FIRST) {
            firsts++;
            who = i;
        }
    }
    C->first = firsts == 1 ? who : -1; /* both first: initiative orders them (draw.c) */
    /* the fight as it stands before round 1, and for the tactics a round
     * in play (d6_choose reads whose turn it is) */
    d6_state_init(s, st0, 0, 0);
    st0->started = true;
    st0->round = 2;
    st0->n_order = 2;
    C->length = fray__alloc(C->al, FRAY_DUEL_LENGTH_BINS * sizeof(double));
    rc = C->length ? FRAY_OK : FRAY_ERR_NOMEM;
    if (rc == FRAY_OK)
        memset(C->length, 0, FRAY_DUEL_LENGTH_BINS * sizeof(double));
    if (rc == FRAY_OK)
        rc = reach(s, st0, diag);
    for (int i = 0; i < 2 && rc == FRAY_OK; i++) {
        st0->order[0] = (int8_t)i;
        st0->order[1] = (int8_t)(1 - i);
        rc = choices(C, st0, i, diag);
    }
    if (rc == FRAY_OK)
        rc = tables(C, st0, diag);
    int limit = s->rounds > 0 ? s->rounds : DU_ROUNDS_CAP;
    double left = 0.0, unfinished = 0.0;
    if (rc == FRAY_OK)
        rc = run(C, limit, &left, &unfinished);
    if (rc == FRAY_ERR_TOO_LARGE)
        fray__diag_set(diag, rc, 0, "the chain passed %ld states", C->max_states);
    else if (rc == FRAY_ERR_INVALID && C->third)
        refuse(diag, "a defense met by a third attack%s%s", "", "");
    if (rc == FRAY_OK) {
        int sw = a == 1; /* out's [0] is a */
        out->a = a;
        out->b = b;
        double q1 = C->first >= 0 ? C->first : C->q1;
        out->p_first[sw] = 1.0 - q1;
        out->p_first[!sw] = q1;
        out->p_win[sw] = C->win[0];
        out->p_win[!sw] = C->win[1];
        out->p_unfinished = unfinished;
        out->p_left = left;
        double ended = C->win[0] + C->win[1];
        if (ended > 0) {
            out->mean_length = C->len_sum / ended;
            double v = C->len_sq / ended - out->mean_length * out->mean_length;
            out->sd_length = v > 0 ? sqrt(v) : 0.0;
        }
        memcpy(out->length, C->length, sizeof out->length);
        out->phase_limit = s->rounds;
        out->states = C->states;
        out->transitions = C->transitions;
        out->mass_error = fabs(1.0 - (ended + unfinished + left));
    }
    ctx_free(C);
    fray__free(al, C, sizeof *C);
    fray__free(al, st0, sizeof *st0);
    return rc;
}

fray_status d6_duel_estimate(const d6_setup *s, int a, int b, double *out_states,
                             fray_diag *diag) {
    if (!out_states)
        return FRAY_ERR_INVALID;
    *out_states = 0;
    fray_duel_odds *o = calloc(1, sizeof *o);
    if (!o)
        return FRAY_ERR_NOMEM;
    fray_status rc = d6_duel_odds(s, a, b, 0, o, diag);
    *out_states = (double)o->states;
    free(o);
    return rc;
}
