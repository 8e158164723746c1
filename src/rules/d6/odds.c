/*
 * odds.c - exact odds of D6 rolls (d6_odds.h; issue 18; seed 003 and the
 * core it presupposes, rulesets-checklists D-0, D1, D7).
 *
 * How a Wild Die's unbounded total is kept exactly. The Wild Die's first
 * toss f is 1..6 with chance 1/6 each. For f = 6 it adds 6 and goes on as
 * an exploding die E: E is 6 K + R where R (the first toss that is not a
 * 6) is uniform on 1..5 and K (the 6s before it) is independent of R,
 * P(K = k) = (5/6)(1/6)^k, since P(E = 6k + r) = (1/6)^(k+1) = (1/5) *
 * (5/6)(1/6)^k. So a code's total is a mixture of a bounded part (first
 * toss 1..5: the Wild Die's 1 cancelling the highest die or adding 1,
 * 2..5 adding itself) and a bounded part to which 6 K is added (first toss
 * 6: 6 + R plus the other dice). Sums and differences of such totals are
 * mixtures of bounded parts plus 6 Z, Z being 0, K, -K, K1 + K2,
 * -(K1 + K2) or K1 - K2 (independent K's). P(Z >= j) has a closed form
 * for each (with q = 1/6):
 *   K:       q^j                          (j >= 1)
 *   K1 + K2: q^j (j (1 - q) + 1)          (j >= 1; P(K1+K2 = s) = (s+1)(1-q)^2 q^s)
 *   K1 - K2: q^j / (1 + q)                (j >= 1; P(K1-K2 = d) = (1-q)/(1+q) q^|d|)
 * and 1 for j <= 0, the negated forms by 1 - P(Z >= 1 - j). So P(total >= t)
 * is a finite sum over the bounded parts' totals x of
 * count(x) / den * P(Z >= ceil((t - x) / 6)): exact, with no cut-off.
 */
#include "d6_odds.h"

#include <gmp.h>
#include <string.h>

#include "bigq.h"
#include "internal.h"

/* ---- Parts --------------------------------------------------------------- */

/* What is added to a part's totals: 6 Z, Z made of `ups` K's added and
 * `downs` K's subtracted. */
enum { ZK_NONE, ZK_UP, ZK_DOWN, ZK_UP2, ZK_DOWN2, ZK_DIFF, ZK_N };
static const int ZK_UPS[ZK_N] = {0, 1, 0, 2, 0, 1};
static const int ZK_DOWNS[ZK_N] = {0, 0, 1, 0, 2, 1};

static int zk_of(int ups, int downs) {
    for (int k = 0; k < ZK_N; k++)
        if (ZK_UPS[k] == ups && ZK_DOWNS[k] == downs)
            return k;
    return -1;
}

/* count c[i] of bounded totals lo + i (n == 0: no such part). */
typedef struct part {
    int64_t lo;
    size_t n;
    mpz_t *c;
} part;

struct d6_dist {
    const fray_allocator *alloc;
    mpz_t den;
    part p[ZK_N];
};

static fray_status part_make(const fray_allocator *alloc, part *w, int64_t lo, size_t n) {
    w->lo = lo;
    w->n = 0;
    w->c = NULL;
    if (n == 0)
        return FRAY_OK;
    w->c = fray__alloc(alloc, n * sizeof *w->c);
    if (!w->c)
        return FRAY_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        mpz_init(w->c[i]);
    w->n = n;
    return FRAY_OK;
}

static void part_free(const fray_allocator *alloc, part *w) {
    if (w->c) {
        for (size_t i = 0; i < w->n; i++)
            mpz_clear(w->c[i]);
        fray__free(alloc, w->c, w->n * sizeof *w->c);
    }
    w->c = NULL;
    w->n = 0;
}

static int64_t part_hi(const part *w) { return w->lo + (int64_t)w->n - 1; }

/* dst[x + shift] += mult * src[x] for every total x of src (dst covers them). */
static void part_add_shift(part *dst, const part *src, int64_t shift, unsigned long mult) {
    for (size_t i = 0; i < src->n; i++) {
        size_t at = (size_t)(src->lo + (int64_t)i + shift - dst->lo);
        mpz_addmul_ui(dst->c[at], src->c[i], mult);
    }
}

/* Drops zero counts at both ends (an all-zero part becomes empty). */
static fray_status part_trim(const fray_allocator *alloc, part *w) {
    size_t a = 0, b = w->n;
    while (a < b && mpz_sgn(w->c[a]) == 0)
        a++;
    while (b > a && mpz_sgn(w->c[b - 1]) == 0)
        b--;
    if (a == 0 && b == w->n)
        return FRAY_OK;
    part t;
    fray_status st = part_make(alloc, &t, w->lo + (int64_t)a, b - a);
    if (st != FRAY_OK)
        return st;
    for (size_t i = a; i < b; i++)
        mpz_swap(t.c[i - a], w->c[i]);
    part_free(alloc, w);
    *w = t;
    return FRAY_OK;
}

static d6_dist *dist_new(const fray_allocator *alloc) {
    d6_dist *d = fray__alloc(alloc, sizeof *d);
    if (!d)
        return NULL;
    memset(d, 0, sizeof *d);
    d->alloc = alloc;
    mpz_init_set_ui(d->den, 1);
    return d;
}

void d6_dist_free(d6_dist *d) {
    if (!d)
        return;
    for (int k = 0; k < ZK_N; k++)
        part_free(d->alloc, &d->p[k]);
    mpz_clear(d->den);
    fray__free(d->alloc, d, sizeof *d);
}

static fray_status dist_trim(d6_dist *d) {
    for (int k = 0; k < ZK_N; k++) {
        fray_status st = part_trim(d->alloc, &d->p[k]);
        if (st != FRAY_OK)
            return st;
    }
    return FRAY_OK;
}

/* ---- Plain dice ------------------------------------------------------------ */

/* The outcomes of m dice each uniform on 1..h, by total (a sliding window
 * over the previous die's counts); m = 0 is the single total 0. */
static fray_status dice_counts(const fray_allocator *alloc, int m, int h, part *out) {
    fray_status st = part_make(alloc, out, 0, 1);
    if (st != FRAY_OK)
        return st;
    mpz_set_ui(out->c[0], 1);
    mpz_t win;
    mpz_init(win);
    for (int d = 0; d < m && st == FRAY_OK; d++) {
        part next;
        st = part_make(alloc, &next, out->lo + 1, out->n + (size_t)h - 1);
        if (st != FRAY_OK)
            break;
        mpz_set_ui(win, 0);
        for (size_t i = 0; i < next.n; i++) { /* next[i] = sum out[i-h+1 .. i] */
            if (i < out->n)
                mpz_add(win, win, out->c[i]);
            if (i >= (size_t)h)
                mpz_sub(win, win, out->c[i - (size_t)h]);
            mpz_set(next.c[i], win);
        }
        part_free(alloc, out);
        *out = next;
    }
    mpz_clear(win);
    if (st != FRAY_OK)
        part_free(alloc, out);
    return st;
}

/* The outcomes of m d6 by their sum less their highest die (what a Wild
 * Die's first 1 leaves under cancel-highest): for each highest h, the
 * rolls of dice in 1..h less those in 1..h-1 have their highest at h. */
static fray_status minus_high(const fray_allocator *alloc, int m, part *out) {
    if (m == 0)
        return dice_counts(alloc, 0, 6, out);
    fray_status st = part_make(alloc, out, m - 1, (size_t)(5 * m - 4));
    if (st != FRAY_OK)
        return st;
    part prev = {0, 0, NULL}, cur = {0, 0, NULL};
    mpz_t exact;
    mpz_init(exact);
    for (int h = 1; h <= 6 && st == FRAY_OK; h++) {
        if ((st = dice_counts(alloc, m, h, &cur)) != FRAY_OK)
            break;
        for (size_t i = 0; i < cur.n; i++) {
            int64_t s = cur.lo + (int64_t)i;
            if (prev.n > 0 && s <= part_hi(&prev))
                mpz_sub(exact, cur.c[i], prev.c[(size_t)(s - prev.lo)]);
            else
                mpz_set(exact, cur.c[i]);
            if (mpz_sgn(exact) != 0)
                mpz_add(out->c[(size_t)(s - h - out->lo)], out->c[(size_t)(s - h - out->lo)],
                        exact);
        }
        part_free(alloc, &prev);
        prev = cur;
        cur.c = NULL;
        cur.n = 0;
    }
    mpz_clear(exact);
    part_free(alloc, &prev);
    part_free(alloc, &cur);
    if (st != FRAY_OK)
        part_free(alloc, out);
    return st;
}

fray_status d6_dist_const(int64_t v, const fray_allocator *alloc, d6_dist **out) {
    if (!out)
        return FRAY_ERR_INVALID;
    *out = NULL;
    d6_dist *d = dist_new(alloc);
    if (!d)
        return FRAY_ERR_NOMEM;
    fray_status st = part_make(alloc, &d->p[ZK_NONE], v, 1);
    if (st != FRAY_OK) {
        d6_dist_free(d);
        return st;
    }
    mpz_set_ui(d->p[ZK_NONE].c[0], 1);
    *out = d;
    return FRAY_OK;
}

fray_status d6_dist_code(d6_code code, bool wild, d6_wild_one rule,
                         const fray_allocator *alloc, d6_dist **out) {
    if (!out)
        return FRAY_ERR_INVALID;
    *out = NULL;
    if (code.dice > D6_ODDS_DICE_MAX)
        return FRAY_ERR_INVALID;
    if (code.dice <= 0)
        return d6_dist_const(code.pips, alloc, out);
    d6_dist *d = dist_new(alloc);
    if (!d)
        return FRAY_ERR_NOMEM;
    int n = code.dice;
    fray_status st = FRAY_OK;
    part plain = {0, 0, NULL}, mh = {0, 0, NULL};
    if (!wild) {
        st = dice_counts(alloc, n, 6, &d->p[ZK_NONE]);
        if (st == FRAY_OK) {
            d->p[ZK_NONE].lo += code.pips;
            mpz_ui_pow_ui(d->den, 6, (unsigned long)n);
        }
        goto done;
    }
    /* den = 30 * 6^(n-1): the first toss (1/6 = 5/30), R (1/5 of 1/6). */
    int m = n - 1;
    if ((st = dice_counts(alloc, m, 6, &plain)) != FRAY_OK)
        goto done;
    if (rule == D6_WILD_ONE_CANCEL_HIGHEST && (st = minus_high(alloc, m, &mh)) != FRAY_OK)
        goto done;
    mpz_ui_pow_ui(d->den, 6, (unsigned long)m);
    mpz_mul_ui(d->den, d->den, 30);
    int64_t p = code.pips;
    part *none = &d->p[ZK_NONE], *up = &d->p[ZK_UP];
    int64_t none_lo = (rule == D6_WILD_ONE_CANCEL_HIGHEST ? mh.lo : plain.lo + 1) + p;
    if ((st = part_make(alloc, none, none_lo, (size_t)(part_hi(&plain) + 5 + p - none_lo + 1))) !=
        FRAY_OK)
        goto done;
    for (int v = rule == D6_WILD_ONE_CANCEL_HIGHEST ? 2 : 1; v <= 5; v++)
        part_add_shift(none, &plain, v + p, 5);
    if (rule == D6_WILD_ONE_CANCEL_HIGHEST)
        part_add_shift(none, &mh, p, 5);
    /* First toss 6: 6 + R (1..5), then 6 K. */
    if ((st = part_make(alloc, up, plain.lo + 7 + p, plain.n + 4)) != FRAY_OK)
        goto done;
    for (int r = 1; r <= 5; r++)
        part_add_shift(up, &plain, 6 + r + p, 1);
done:
    part_free(alloc, &plain);
    part_free(alloc, &mh);
    if (st == FRAY_OK)
        st = dist_trim(d);
    if (st != FRAY_OK) {
        d6_dist_free(d);
        return st;
    }
    *out = d;
    return FRAY_OK;
}

fray_status d6_dist_add(const d6_dist *a, const d6_dist *b, int sign_b, d6_dist **out) {
    if (!out)
        return FRAY_ERR_INVALID;
    *out = NULL;
    if (!a || !b || sign_b == 0)
        return FRAY_ERR_INVALID;
    bool neg = sign_b < 0;
    /* First the range of each resulting part, then the counts. */
    int64_t lo[ZK_N], hi[ZK_N];
    bool used[ZK_N] = {false};
    for (int ka = 0; ka < ZK_N; ka++) {
        for (int kb = 0; kb < ZK_N; kb++) {
            const part *x = &a->p[ka], *y = &b->p[kb];
            if (x->n == 0 || y->n == 0)
                continue;
            int k = zk_of(ZK_UPS[ka] + (neg ? ZK_DOWNS[kb] : ZK_UPS[kb]),
                          ZK_DOWNS[ka] + (neg ? ZK_UPS[kb] : ZK_DOWNS[kb]));
            if (k < 0)
                return FRAY_ERR_RANGE;
            int64_t l = neg ? x->lo - part_hi(y) : x->lo + y->lo;
            int64_t h = neg ? part_hi(x) - y->lo : part_hi(x) + part_hi(y);
            if (!used[k] || l < lo[k])
                lo[k] = l;
            if (!used[k] || h > hi[k])
                hi[k] = h;
            used[k] = true;
        }
    }
    d6_dist *d = dist_new(a->alloc);
    if (!d)
        return FRAY_ERR_NOMEM;
    mpz_mul(d->den, a->den, b->den);
    fray_status st = FRAY_OK;
    for (int k = 0; k < ZK_N && st == FRAY_OK; k++)
        if (used[k])
            st = part_make(a->alloc, &d->p[k], lo[k], (size_t)(hi[k] - lo[k] + 1));
    for (int ka = 0; ka < ZK_N && st == FRAY_OK; ka++) {
        for (int kb = 0; kb < ZK_N; kb++) {
            const part *x = &a->p[ka], *y = &b->p[kb];
            if (x->n == 0 || y->n == 0)
                continue;
            int k = zk_of(ZK_UPS[ka] + (neg ? ZK_DOWNS[kb] : ZK_UPS[kb]),
                          ZK_DOWNS[ka] + (neg ? ZK_UPS[kb] : ZK_DOWNS[kb]));
            part *z = &d->p[k];
            for (size_t i = 0; i < x->n; i++) {
                if (mpz_sgn(x->c[i]) == 0)
                    continue;
                int64_t xv = x->lo + (int64_t)i;
                for (size_t j = 0; j < y->n; j++) {
                    int64_t yv = y->lo + (int64_t)j;
                    int64_t v = neg ? xv - yv : xv + yv;
                    mpz_addmul(z->c[(size_t)(v - z->lo)], x->c[i], y->c[j]);
                }
            }
        }
    }
    if (st == FRAY_OK)
        st = dist_trim(d);
    if (st != FRAY_OK) {
        d6_dist_free(d);
        return st;
    }
    *out = d;
    return FRAY_OK;
}

/* ---- Probabilities ------------------------------------------------------------ */

/* 1 / 6^e into q (e >= 0). */
static void q_inv6(mpq_t q, int64_t e) {
    mpz_set_ui(mpq_numref(q), 1);
    mpz_ui_pow_ui(mpq_denref(q), 6, (unsigned long)e);
}

/* P(Z >= j) for the kind k (closed forms in the header comment). */
static void z_at_least(mpq_t out, int k, int64_t j) {
    switch (k) {
    case ZK_UP:
        if (j <= 0)
            mpq_set_ui(out, 1, 1);
        else
            q_inv6(out, j);
        return;
    case ZK_UP2:
        if (j <= 0) {
            mpq_set_ui(out, 1, 1);
        } else { /* q^j (5j + 6) / 6 = (5j + 6) / 6^(j+1) */
            mpz_set_ui(mpq_numref(out), (unsigned long)(5 * j + 6));
            mpz_ui_pow_ui(mpq_denref(out), 6, (unsigned long)(j + 1));
            mpq_canonicalize(out);
        }
        return;
    case ZK_DIFF:
        if (j >= 1) { /* 6 / (7 6^j) */
            mpz_set_ui(mpq_numref(out), 6);
            mpz_ui_pow_ui(mpq_denref(out), 6, (unsigned long)j);
            mpz_mul_ui(mpq_denref(out), mpq_denref(out), 7);
            mpq_canonicalize(out);
        } else {
            z_at_least(out, ZK_DIFF, 1 - j); /* by symmetry */
            mpq_t one;
            mpq_init(one);
            mpq_set_ui(one, 1, 1);
            mpq_sub(out, one, out);
            mpq_clear(one);
        }
        return;
    case ZK_DOWN:
    case ZK_DOWN2:
        if (j >= 1) {
            mpq_set_ui(out, 0, 1);
        } else { /* P(-Z' >= j) = 1 - P(Z' >= 1 - j) */
            z_at_least(out, k == ZK_DOWN ? ZK_UP : ZK_UP2, 1 - j);
            mpq_t one;
            mpq_init(one);
            mpq_set_ui(one, 1, 1);
            mpq_sub(out, one, out);
            mpq_clear(one);
        }
        return;
    case ZK_NONE:
    default:
        mpq_set_ui(out, j <= 0 ? 1 : 0, 1);
        return;
    }
}

/* ceil(a / 6) */
static int64_t ceil6(int64_t a) { return a >= 0 ? (a + 5) / 6 : -((-a) / 6); }

/* P(total >= t) into out. */
static void at_least_q(const d6_dist *d, int64_t t, mpq_t out) {
    mpq_set_ui(out, 0, 1);
    mpz_t acc;
    mpz_init(acc);
    mpq_t pz, term;
    mpq_inits(pz, term, NULL);
    for (int k = 0; k < ZK_N; k++) {
        const part *w = &d->p[k];
        int64_t run_j = 0;
        mpz_set_ui(acc, 0);
        for (size_t i = 0; i <= w->n; i++) {
            int64_t j = i < w->n ? ceil6(t - (w->lo + (int64_t)i)) : INT64_MIN;
            if (i > 0 && j != run_j && mpz_sgn(acc) != 0) { /* flush the run */
                z_at_least(pz, k, run_j);
                mpq_set_z(term, acc);
                mpq_mul(term, term, pz);
                mpq_add(out, out, term);
                mpz_set_ui(acc, 0);
            }
            if (i == w->n)
                break;
            run_j = j;
            mpz_add(acc, acc, w->c[i]);
        }
    }
    mpq_set_z(term, d->den);
    mpq_div(out, out, term);
    mpz_clear(acc);
    mpq_clears(pz, term, NULL);
}

static fray_status ratio_out(const d6_dist *d, mpq_t q, fray_bigratio *out) {
    fray_status st = fray__bigratio_set(d->alloc, q, out);
    mpq_clear(q);
    return st;
}

fray_status d6_dist_at_least(const d6_dist *d, int64_t t, fray_bigratio *out) {
    if (!out)
        return FRAY_ERR_INVALID;
    memset(out, 0, sizeof *out);
    if (!d)
        return FRAY_ERR_INVALID;
    mpq_t q;
    mpq_init(q);
    at_least_q(d, t, q);
    return ratio_out(d, q, out);
}

fray_status d6_dist_eq(const d6_dist *d, int64_t t, fray_bigratio *out) {
    if (!out)
        return FRAY_ERR_INVALID;
    memset(out, 0, sizeof *out);
    if (!d)
        return FRAY_ERR_INVALID;
    mpq_t q, r;
    mpq_inits(q, r, NULL);
    at_least_q(d, t, q);
    at_least_q(d, t + 1, r);
    mpq_sub(q, q, r);
    mpq_clear(r);
    return ratio_out(d, q, out);
}

fray_status d6_dist_at_most(const d6_dist *d, int64_t t, fray_bigratio *out) {
    if (!out)
        return FRAY_ERR_INVALID;
    memset(out, 0, sizeof *out);
    if (!d)
        return FRAY_ERR_INVALID;
    mpq_t q, one;
    mpq_inits(q, one, NULL);
    at_least_q(d, t + 1, q);
    mpq_set_ui(one, 1, 1);
    mpq_sub(q, one, q);
    mpq_clear(one);
    return ratio_out(d, q, out);
}

/* E[total]: each part's counted mean, plus 6 E[Z] = 6 (ups - downs) / 5
 * (E[K] = q / (1 - q) = 1/5) times the part's weight. */
static void mean_q(const d6_dist *d, mpq_t out) {
    mpz_t sum, w, x;
    mpz_inits(sum, w, x, NULL);
    mpq_t term;
    mpq_init(term);
    mpq_set_ui(out, 0, 1);
    for (int k = 0; k < ZK_N; k++) {
        const part *p = &d->p[k];
        mpz_set_ui(sum, 0);
        mpz_set_ui(w, 0);
        for (size_t i = 0; i < p->n; i++) {
            mpz_set_si(x, (long)(p->lo + (int64_t)i));
            mpz_addmul(sum, p->c[i], x);
            mpz_add(w, w, p->c[i]);
        }
        mpz_mul_ui(sum, sum, 5);
        mpz_mul_si(w, w, 6L * (ZK_UPS[k] - ZK_DOWNS[k]));
        mpz_add(sum, sum, w);
        mpq_set_z(term, sum);
        mpq_add(out, out, term);
    }
    mpz_mul_ui(x, d->den, 5);
    mpq_set_z(term, x);
    mpq_div(out, out, term);
    mpz_clears(sum, w, x, NULL);
    mpq_clear(term);
}

fray_status d6_dist_mean(const d6_dist *d, fray_bigratio *out) {
    if (!out)
        return FRAY_ERR_INVALID;
    memset(out, 0, sizeof *out);
    if (!d)
        return FRAY_ERR_INVALID;
    mpq_t q;
    mpq_init(q);
    mean_q(d, q);
    return ratio_out(d, q, out);
}

double d6_dist_p_at_least(const d6_dist *d, int64_t t) {
    mpq_t q;
    mpq_init(q);
    at_least_q(d, t, q);
    double v = mpq_get_d(q);
    mpq_clear(q);
    return v;
}

double d6_dist_p_eq(const d6_dist *d, int64_t t) {
    mpq_t q, r;
    mpq_inits(q, r, NULL);
    at_least_q(d, t, q);
    at_least_q(d, t + 1, r);
    mpq_sub(q, q, r);
    double v = mpq_get_d(q);
    mpq_clears(q, r, NULL);
    return v;
}

bool d6_dist_lo(const d6_dist *d, int64_t *out) {
    bool any = false;
    int64_t lo = 0;
    for (int k = 0; k < ZK_N; k++) {
        if (d->p[k].n == 0)
            continue;
        if (ZK_DOWNS[k] > 0)
            return false;
        if (!any || d->p[k].lo < lo)
            lo = d->p[k].lo;
        any = true;
    }
    if (out)
        *out = lo;
    return any;
}

bool d6_dist_hi(const d6_dist *d, int64_t *out) {
    bool any = false;
    int64_t hi = 0;
    for (int k = 0; k < ZK_N; k++) {
        if (d->p[k].n == 0)
            continue;
        if (ZK_UPS[k] > 0)
            return false;
        if (!any || part_hi(&d->p[k]) > hi)
            hi = part_hi(&d->p[k]);
        any = true;
    }
    if (out)
        *out = hi;
    return any;
}

/* E[max(0, x + 6 Z)] for one bounded total x and the kind k, added times
 * `weight` into out. For Z bounded below (0, K, K1 + K2) through
 * E[Y] + E[max(0, -Y)], the second a finite sum; for Z bounded above
 * (-K, -(K1 + K2)) a finite sum; for K1 - K2 the finite negative side and
 * the geometric positive side, sum over d >= d0 of c q^d (x + 6d) =
 * c q^d0 ((x + 6 d0) / (1 - q) + 6 q / (1 - q)^2), c = (1 - q)/(1 + q). */
static void excess_add(mpq_t out, int k, int64_t x, const mpz_t weight) {
    mpq_t e, t, pz;
    mpq_inits(e, t, pz, NULL);
    int ups = ZK_UPS[k], downs = ZK_DOWNS[k];
    if (k == ZK_DIFF) {
        int64_t d0 = x >= 0 ? 0 : ceil6(-x);
        /* positive side: (5/7) 6^-d0 ((x + 6 d0) 6/5 + 36/25) */
        mpq_set_si(e, (long)(x + 6 * d0) * 30 + 36, 25);
        mpq_canonicalize(e);
        mpq_set_ui(t, 5, 7);
        mpq_mul(e, e, t);
        q_inv6(t, d0);
        mpq_mul(e, e, t);
        /* negative side: d = -1, -2, ... while x + 6 d > 0 */
        for (int64_t d = 1; x - 6 * d > 0; d++) {
            q_inv6(t, d);
            mpq_set_si(pz, (long)(x - 6 * d) * 5, 7);
            mpq_canonicalize(pz);
            mpq_mul(t, t, pz);
            mpq_add(e, e, t);
        }
    } else if (downs == 0) {
        /* E[Y] = x + 6 ups / 5, plus E[max(0, -x - 6Z)] over Z < -x/6 */
        mpq_set_si(e, (long)x * 5 + 6 * ups, 5);
        mpq_canonicalize(e);
        for (int64_t z = 0; -x - 6 * z > 0; z++) {
            /* P(Z = z): 1 (none), (5/6) 6^-z, or (z + 1) (25/36) 6^-z */
            if (ups == 0)
                mpq_set_ui(pz, 1, 1);
            else {
                q_inv6(pz, z);
                mpq_set_ui(t, ups == 1 ? 5 : 25 * (unsigned long)(z + 1), ups == 1 ? 6 : 36);
                mpq_canonicalize(t);
                mpq_mul(pz, pz, t);
            }
            mpq_set_si(t, (long)(-x - 6 * z), 1);
            mpq_mul(t, t, pz);
            mpq_add(e, e, t);
            if (ups == 0)
                break;
        }
    } else {
        for (int64_t z = 0; x - 6 * z > 0; z++) { /* Z = -z */
            q_inv6(pz, z);
            mpq_set_ui(t, downs == 1 ? 5 : 25 * (unsigned long)(z + 1), downs == 1 ? 6 : 36);
            mpq_canonicalize(t);
            mpq_mul(pz, pz, t);
            mpq_set_si(t, (long)(x - 6 * z), 1);
            mpq_mul(t, t, pz);
            mpq_add(e, e, t);
        }
    }
    mpq_set_z(t, weight);
    mpq_mul(e, e, t);
    mpq_add(out, out, e);
    mpq_clears(e, t, pz, NULL);
}

/* E[max(0, total)]. */
static void excess_mean_q(const d6_dist *d, mpq_t out) {
    mpq_set_ui(out, 0, 1);
    for (int k = 0; k < ZK_N; k++)
        for (size_t i = 0; i < d->p[k].n; i++)
            if (mpz_sgn(d->p[k].c[i]) != 0)
                excess_add(out, k, d->p[k].lo + (int64_t)i, d->p[k].c[i]);
    mpq_t den;
    mpq_init(den);
    mpq_set_z(den, d->den);
    mpq_div(out, out, den);
    mpq_clear(den);
}

fray_status d6_dist_mean_positive(const d6_dist *d, fray_bigratio *out) {
    if (!out)
        return FRAY_ERR_INVALID;
    memset(out, 0, sizeof *out);
    if (!d)
        return FRAY_ERR_INVALID;
    mpq_t q;
    mpq_init(q);
    excess_mean_q(d, q);
    return ratio_out(d, q, out);
}

/* ---- Success ------------------------------------------------------------------ */

/* *acc = *acc + sign * the roll of `c` (its dice with the sign of
 * c.dice, its pips as written). */
static fray_status add_code(d6_dist **acc, d6_code c, bool wild, d6_wild_one rule,
                            const fray_allocator *alloc) {
    d6_code mag = {c.dice < 0 ? -c.dice : c.dice, 0};
    d6_dist *roll = NULL, *pips = NULL, *t = NULL, *u = NULL;
    fray_status st = d6_dist_code(mag, wild, rule, alloc, &roll);
    if (st == FRAY_OK)
        st = d6_dist_const(c.pips, alloc, &pips);
    if (st == FRAY_OK)
        st = d6_dist_add(*acc, roll, c.dice < 0 ? -1 : 1, &t);
    if (st == FRAY_OK)
        st = d6_dist_add(t, pips, 1, &u);
    d6_dist_free(roll);
    d6_dist_free(pips);
    d6_dist_free(t);
    if (st == FRAY_OK) {
        d6_dist_free(*acc);
        *acc = u;
    }
    return st;
}

fray_status d6_success_difficulty(const d6_success_query *q, const fray_allocator *alloc, d6_dist **out) {
    if (!out)
        return FRAY_ERR_INVALID;
    *out = NULL;
    if (!q || (q->n_modifiers > 0 && !q->modifiers))
        return FRAY_ERR_INVALID;
    d6_dist *y = NULL;
    fray_status st;
    if (q->defense_roll) {
        st = d6_dist_const(q->defense_bonus, alloc, &y);
        if (st == FRAY_OK)
            st = add_code(&y, q->defense, !q->defense_no_wild, q->wild_one, alloc);
    } else {
        st = d6_dist_const(q->difficulty, alloc, &y);
    }
    for (size_t i = 0; i < q->n_modifiers && st == FRAY_OK; i++) {
        if (q->modifiers[i].dice > D6_ODDS_DICE_MAX || q->modifiers[i].dice < -D6_ODDS_DICE_MAX)
            st = FRAY_ERR_INVALID;
        else
            st = add_code(&y, q->modifiers[i], q->modifier_wild, q->wild_one, alloc);
    }
    if (st != FRAY_OK) {
        d6_dist_free(y);
        return st;
    }
    *out = y;
    return FRAY_OK;
}

/*
 * P(S >= max(f, Y)) = P(S - Y >= 0) - P(S - Y >= 0 and S < f)
 *                   = P(S - Y >= 0) - sum over s < f of P(S = s) P(Y <= s),
 * S bounded below (a skill roll), so the sum is finite. Strictly greater:
 * S >= max(f, Y) + 1 = max(f + 1, Y + 1).
 */
fray_status d6_odds_check(const d6_success_query *q, const fray_allocator *alloc, fray_bigratio *out) {
    if (!out)
        return FRAY_ERR_INVALID;
    memset(out, 0, sizeof *out);
    if (!q)
        return FRAY_ERR_INVALID;
    d6_dist *s = NULL, *y = NULL, *diff = NULL;
    fray_status st = d6_dist_code(q->skill, !q->no_wild, q->wild_one, alloc, &s);
    if (st == FRAY_OK)
        st = d6_success_difficulty(q, alloc, &y);
    if (st == FRAY_OK)
        st = d6_dist_add(s, y, -1, &diff);
    if (st != FRAY_OK)
        goto done;
    {
        int64_t strict = q->tie == D6_TIE_BEATS ? 1 : 0;
        mpq_t p, ps, py, one;
        mpq_inits(p, ps, py, one, NULL);
        mpq_set_ui(one, 1, 1);
        at_least_q(diff, strict, p);
        int64_t s_lo = 0, y_lo = 0;
        if (q->floor > 0 && d6_dist_lo(s, &s_lo)) {
            int64_t f = (int64_t)q->floor + strict;
            /* Only totals the difficulty can be at or under count. */
            if (d6_dist_lo(y, &y_lo) && y_lo + strict > s_lo)
                s_lo = y_lo + strict;
            for (int64_t v = s_lo; v < f; v++) {
                /* P(S = v) * P(Y + strict <= v) */
                at_least_q(s, v, ps);
                at_least_q(s, v + 1, py);
                mpq_sub(ps, ps, py);
                if (mpq_sgn(ps) == 0)
                    continue;
                at_least_q(y, v - strict + 1, py);
                mpq_sub(py, one, py);
                mpq_mul(ps, ps, py);
                mpq_sub(p, p, ps);
            }
        }
        st = fray__bigratio_set(alloc, p, out);
        mpq_clears(p, ps, py, one, NULL);
    }
done:
    d6_dist_free(s);
    d6_dist_free(y);
    d6_dist_free(diff);
    return st;
}

/* ---- Damage ------------------------------------------------------------------- */

d6_odds_wound d6_odds_wound_of(int64_t excess) {
    if (excess <= 0)
        return D6_ODDS_NO_WOUND;
    if (excess <= 3)
        return D6_ODDS_STUNNED;
    if (excess <= 8)
        return D6_ODDS_WOUNDED;
    if (excess <= 12)
        return D6_ODDS_INCAPACITATED;
    if (excess <= 15)
        return D6_ODDS_MORTALLY_WOUNDED;
    return D6_ODDS_DEAD;
}

void d6_damage_odds_free(d6_damage_odds *o) {
    if (!o)
        return;
    for (int k = 0; k < D6_ODDS_WOUND_LEVELS; k++)
        fray_bigratio_free(&o->level[k]);
    if (o->body) {
        for (size_t i = 0; i < o->n_body; i++)
            fray_bigratio_free(&o->body[i]);
        fray__free(o->alloc, o->body, o->n_body * sizeof *o->body);
    }
    fray_bigratio_free(&o->mean_excess);
    fray_bigratio_free(&o->mean_body);
    o->body = NULL;
    o->n_body = 0;
}

enum { BODY_ROWS_MAX = 200 };

fray_status d6_odds_damage(const d6_damage_query *q, const fray_allocator *alloc,
                           d6_damage_odds *out) {
    if (!out)
        return FRAY_ERR_INVALID;
    memset(out, 0, sizeof *out);
    out->alloc = alloc;
    if (!q || q->body_rows < 0 || q->body_rows > BODY_ROWS_MAX)
        return FRAY_ERR_INVALID;
    d6_dist *dmg = NULL, *res = NULL, *x = NULL;
    fray_status st = d6_dist_code(q->damage, q->damage_wild, q->wild_one, alloc, &dmg);
    if (st == FRAY_OK)
        st = d6_dist_code(q->resistance, q->resistance_wild, q->wild_one, alloc, &res);
    if (st == FRAY_OK)
        st = d6_dist_add(dmg, res, -1, &x);
    if (st != FRAY_OK)
        goto done;
    {
        /* The ladder's first excess of each level, and past the last. */
        static const int64_t from[D6_ODDS_WOUND_LEVELS] = {INT64_MIN, 1, 4, 9, 13, 16};
        mpq_t a, b, one;
        mpq_inits(a, b, one, NULL);
        mpq_set_ui(one, 1, 1);
        for (int k = 0; k < D6_ODDS_WOUND_LEVELS && st == FRAY_OK; k++) {
            if (k == 0)
                mpq_set_ui(a, 1, 1);
            else
                at_least_q(x, from[k], a);
            if (k + 1 < D6_ODDS_WOUND_LEVELS) {
                at_least_q(x, from[k + 1], b);
                mpq_sub(a, a, b);
            }
            st = fray__bigratio_set(alloc, a, &out->level[k]);
        }
        /* Body Points lost: max(0, excess). */
        size_t rows = (size_t)q->body_rows;
        if (rows == 0) {
            rows = 2;
            while (rows < BODY_ROWS_MAX && d6_dist_p_at_least(x, (int64_t)rows) >= 1e-6)
                rows++;
        }
        if (rows < 2)
            rows = 2;
        if (st == FRAY_OK) {
            out->body = fray__alloc(alloc, rows * sizeof *out->body);
            if (!out->body)
                st = FRAY_ERR_NOMEM;
            else
                memset(out->body, 0, rows * sizeof *out->body);
        }
        if (st == FRAY_OK)
            out->n_body = rows;
        for (size_t i = 0; i < rows && st == FRAY_OK; i++) {
            if (i == 0 && rows > 1) { /* P(excess <= 0) */
                at_least_q(x, 1, a);
                mpq_sub(a, one, a);
            } else {
                at_least_q(x, (int64_t)i, a);
                if (i + 1 < rows) {
                    at_least_q(x, (int64_t)i + 1, b);
                    mpq_sub(a, a, b);
                }
            }
            st = fray__bigratio_set(alloc, a, &out->body[i]);
        }
        if (st == FRAY_OK) {
            mean_q(x, a);
            st = fray__bigratio_set(alloc, a, &out->mean_excess);
        }
        if (st == FRAY_OK) {
            excess_mean_q(x, a);
            st = fray__bigratio_set(alloc, a, &out->mean_body);
        }
        mpq_clears(a, b, one, NULL);
    }
done:
    d6_dist_free(dmg);
    d6_dist_free(res);
    d6_dist_free(x);
    if (st != FRAY_OK)
        d6_damage_odds_free(out);
    return st;
}
