/*
 * fuzz_dice.c - libFuzzer target for dice expressions (fray/dice.h).
 *
 * Input: an expression, then optionally '\n' and the weapon text that W
 * stands for. Whatever parses is formatted, read back, bounded, rolled
 * and, when that is cheap, counted exactly, in 128 bits and with GMP
 * (fray_dice_bigdist); every result is checked against the others, and
 * everything is freed (ASan finds leaks). Issue 15's notation (!, r, dl,
 * dh, dF, d%, counts, *, /, parentheses, comparisons) has seed inputs in
 * corpus/dice (21 to 40).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fray/dice.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Counting the outcomes is exponential in the dice; the library refuses
 * past 2^127, but below that a 30d100 is still slow to count. */
static bool cheap_to_count(const char *canon) {
    long dice = 0, sides_max = 0, ops = 0, products = 0;
    for (const char *p = canon; *p;) {
        if (*p == '*' || *p == '/' || *p == '!' || *p == '(')
            ops++;
        /* a product of products spans millions of totals: slow, if
         * bounded (dice_big.c's WORK_MAX) */
        if ((*p == '*' || *p == '/') && ++products > 2)
            return false;
        if (*p == '!' && p[1] >= '0' && p[1] <= '9' && strtol(p + 1, NULL, 10) > 4)
            return false; /* deep explosions: big counts */
        if (*p >= '0' && *p <= '9') {
            long n = strtol(p, (char **)&p, 10);
            if (*p == 'd') {
                long s = strtol(p + 1, (char **)&p, 10);
                dice += n;
                sides_max = s > sides_max ? s : sides_max;
            } else if (*p == 'D') {
                dice += n;
                sides_max = 6 > sides_max ? 6 : sides_max;
            } else if (*p == '{') {
                dice += 8 * n; /* a weapon multiple: be careful */
            }
        } else {
            p++;
        }
    }
    return dice <= 30 && sides_max <= 100 && ops <= 4 &&
           (ops == 0 || dice <= 12);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 4096)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *weapon = strchr(text, '\n');
    if (weapon)
        *weapon++ = '\0';

    fray_dice *d = NULL;
    /* Fill the message with non-zero bytes first: a parse error must write
     * a terminated, non-empty message of its own. */
    fray_diag diag;
    memset(&diag, 'x', sizeof diag);
    diag.file = NULL;
    fray_status st = fray_dice_parse(text, weapon, NULL, &d, &diag);
    if (st != FRAY_OK) {
        if (d || diag.column < 0)
            abort();
        if (st == FRAY_ERR_PARSE &&
            (memchr(diag.message, '\0', sizeof diag.message) == NULL ||
             diag.message[0] == 'x' || diag.message[0] == '\0'))
            abort();
        free(text);
        return 0;
    }

    /* The canonical text reads back as the same expression. */
    char canon[2048], again[2048];
    size_t len = fray_dice_format(d, canon, sizeof canon);
    if (len < sizeof canon) {
        fray_dice *d2 = NULL;
        if (fray_dice_parse(canon, weapon, NULL, &d2, &diag) != FRAY_OK)
            abort();
        if (fray_dice_format(d2, again, sizeof again) != len ||
            strcmp(canon, again) != 0 || fray_dice_min(d2) != fray_dice_min(d))
            abort();
        fray_dice_free(d2);
    }

    int64_t lo = fray_dice_min(d), hi = 0;
    bool bounded = fray_dice_max(d, &hi);
    if (bounded == fray_dice_has_wild(d) || (bounded && hi < lo))
        abort();

    /* Rolls stay in bounds and both rollers agree. */
    fray_rng a, b;
    fray_rng_seed(&a, 12345u, 1u);
    fray_rng_seed(&b, 12345u, 1u);
    fray_roll r;
    fray_roll_init(&r, NULL);
    for (int i = 0; i < 4; i++) {
        if (fray_dice_roll(d, &a, &r) != FRAY_OK)
            abort();
        if (r.total != fray_dice_roll_total(d, &b) || r.total < lo ||
            (bounded && r.total > hi))
            abort();
        if (fray_dice_is_d20(d) && (r.natural < 1 || r.natural > 20))
            abort();
    }
    fray_roll_free(&r);

    if (len < sizeof canon && cheap_to_count(canon)) {
        fray_dist dist;
        st = fray_dice_dist(d, lo + 10, NULL, &dist);
        if (st == FRAY_OK) {
            uint64_t hi_sum = 0, lo_sum = 0, carry;
            for (size_t i = 0; i < dist.n; i++) {
                lo_sum += dist.count[i].lo;
                carry = lo_sum < dist.count[i].lo;
                hi_sum += dist.count[i].hi + carry;
            }
            if (hi_sum != dist.den.hi || lo_sum != dist.den.lo)
                abort(); /* the counts add up to den */
            /* Bounds are reached except where a comparison or a count
             * cannot go both ways ("(1d6)>9" is always 0). */
            if (dist.lo < lo || dist.tail != !bounded ||
                (bounded && dist.lo + (int64_t)dist.n - 1 > hi))
                abort();
            if (!strpbrk(canon, "<>=") && !(weapon && strpbrk(weapon, "<>=")) &&
                (dist.lo != lo || (bounded && dist.lo + (int64_t)dist.n - 1 != hi) ) &&
                !strchr(canon, '!'))
                abort();
            /* The GMP path agrees with the 128-bit one. */
            fray_bigdist *big = NULL;
            st = fray_dice_bigdist(d, lo + 10, NULL, &big);
            if (st != FRAY_OK || fray_bigdist_lo(big) != dist.lo ||
                fray_bigdist_n(big) != dist.n)
                abort();
            for (size_t i = 0; i < dist.n; i++) {
                double p1 = fray_ratio_to_double(fray_dist_eq(&dist, dist.lo + (int64_t)i));
                double p2 = fray_bigdist_p(big, FRAY_DIST_EQ, dist.lo + (int64_t)i);
                if (p1 - p2 > 1e-12 || p2 - p1 > 1e-12)
                    abort();
            }
            fray_bigratio m;
            if (fray_bigdist_mean(big, &m) != FRAY_OK)
                abort();
            double mean_big = m.value;
            fray_bigratio_free(&m);
            double mean_small = fray_ratio_to_double(dist.mean);
            if (mean_big - mean_small > 1e-9 * (1 + (mean_small < 0 ? -mean_small : mean_small)) ||
                mean_small - mean_big > 1e-9 * (1 + (mean_small < 0 ? -mean_small : mean_small)))
                abort();
            fray_bigdist_free(big);
            double mean = fray_ratio_to_double(dist.mean);
            if (mean < (double)lo - 1e-9 || (bounded && mean > (double)hi + 1e-9))
                abort();
            (void)fray_dist_at_least(&dist, lo + 1);
            (void)fray_dist_eq(&dist, lo + 2);
            if (bounded && !fray_dice_has_wild(d)) {
                fray_d20_attack_query q = {3, 12, 0, d, NULL};
                fray_d20_attack_odds o;
                if (fray_odds_d20_attack(&q, NULL, &o) == FRAY_OK)
                    fray_d20_attack_odds_free(&o);
            }
            fray_dist_free(&dist);
        } else if (st != FRAY_ERR_TOO_LARGE) {
            abort();
        }
    }

    fray_dice_free(d);
    free(text);
    return 0;
}
