/*
 * damage.c - the STUN and LETHAL of a 99 Towers hit and their exact odds
 * (seed 000 "Damage", "STUN Damage", "LETHAL Damage", "Damage Types";
 * RULINGS 18).
 */
#include "internal.h"

#include <limits.h>
#include <string.h>

#include "fray/towers.h"

static int clamp_int(long long v) {
    if (v > INT_MAX)
        return INT_MAX;
    if (v < INT_MIN)
        return INT_MIN;
    return (int)v;
}

fray_towers_hit fray_towers_hit_damage(int damage, int hearts, int resilience,
                                       fray_towers_affinity affinity) {
    fray_towers_hit r = {0, 0};
    /* Immunity: "cannot take STUN or LETHAL damage" of that type. */
    if (affinity == FRAY_TOWERS_IMMUNE)
        return r;
    if (hearts < 0)
        hearts = 0;
    /* "damage listed ... plus the amount of Hearts", less Resilience, but
     * "a hit will still do a minimum of one STUN". */
    long long stun = (long long)damage + hearts - (long long)resilience;
    if (stun < 1)
        stun = 1;
    /* One LETHAL per Heart, not reduced by Resilience; "a target cannot take
     * more LETHAL damage than he takes STUN damage". */
    long long lethal = hearts < stun ? hearts : stun;
    /* Susceptibility: "double STUN (after resilience reductions) and
     * LETHAL"; doubling both keeps LETHAL <= STUN. */
    if (affinity == FRAY_TOWERS_SUSCEPTIBLE) {
        stun *= 2;
        lethal *= 2;
    }
    r.stun = clamp_int(stun);
    r.lethal = clamp_int(lethal);
    return r;
}

/*
 * Adds count * value to the mixed number q + r/den (0 <= r < den) without
 * overflow: value is added bit by bit, doubling modulo den. den is at most
 * C(54,27)^2 < 2^102 (see odds.c), so 2 * den never overflows.
 */
static void add_product(fray__u128 *q, fray__u128 *r, fray__u128 count,
                        unsigned value, fray__u128 den) {
    fray__u128 pq = 0, pr = 0;
    for (int bit = 31; bit >= 0; bit--) {
        pq *= 2;
        pr *= 2;
        if (pr >= den) {
            pr -= den;
            pq++;
        }
        if ((value >> bit) & 1u) {
            pr += count % den;
            pq += count / den;
            if (pr >= den) {
                pr -= den;
                pq++;
            }
        }
    }
    *q += pq;
    *r += pr;
    if (*r >= den) {
        *r -= den;
        (*q)++;
    }
}

/* The exact mean q + r/den in lowest terms. Only when the reduced
 * denominator passes 2^96 AND the mean passes 2^32 (flips of 20+ cards
 * from separate decks and damage in the billions) can the exact numerator
 * not fit 128 bits; then the fraction part is rounded down to 64 bits. */
static fray_ratio mixed_to_ratio(fray__u128 q, fray__u128 r, fray__u128 den) {
    if (den == 0)
        return fray__ratio(0, 1, false);
    fray__u128 g = fray__u128_gcd(r, den); /* gcd(0, den) = den */
    fray__u128 d = den / g, num;
    if (fray__u128_mul(q, d, &num) && fray__u128_add(num, r / g, &num))
        return fray__ratio(num, d, false);
    fray__u128 frac = 0;
    for (int i = 0; i < 64; i++) {
        frac *= 2;
        r *= 2;
        if (r >= den) {
            r -= den;
            frac++;
        }
    }
    return fray__ratio((q << 64) | frac, (fray__u128)1 << 64, false);
}

void fray_odds_towers_damage(const fray_attack_odds *attack, int damage,
                             int resilience, fray_towers_affinity affinity,
                             fray_towers_damage_odds *out) {
    memset(out, 0, sizeof *out);
    fray__u128 den = fray__u128_from(attack->den);
    fray__u128 hits = 0;
    int n = 1;
    /* STUN = max(1, damage + k - resilience) and LETHAL = min(k, STUN) never
     * decrease as k grows (nor after doubling or clamping), so walking k
     * upwards yields the rows already sorted by (STUN, LETHAL), and equal
     * rows are neighbours: merging with the last row is enough. */
    for (int k = 0; k <= FRAY_HEARTS_MAX; k++) {
        fray__u128 c = fray__u128_from(attack->hit[k]);
        if (c == 0)
            continue;
        hits += c;
        fray_towers_hit dealt =
            fray_towers_hit_damage(damage, k, resilience, affinity);
        if (n > 1 && out->rows[n - 1].dealt.stun == dealt.stun &&
            out->rows[n - 1].dealt.lethal == dealt.lethal) {
            out->rows[n - 1].count =
                fray__u128_to(fray__u128_from(out->rows[n - 1].count) + c);
        } else {
            out->rows[n].dealt = dealt;
            out->rows[n].hit = true;
            out->rows[n].count = fray__u128_to(c);
            n++;
        }
    }
    /* Row 0: the miss, always present (its count may be 0). */
    out->rows[0].dealt.stun = 0;
    out->rows[0].dealt.lethal = 0;
    out->rows[0].hit = false;
    out->rows[0].count = fray__u128_to(den - hits);
    out->n_rows = n;
    out->den = attack->den;

    fray__u128 sq = 0, sr = 0, lq = 0, lr = 0;
    for (int i = 1; i < n && den != 0; i++) {
        fray__u128 c = fray__u128_from(out->rows[i].count);
        add_product(&sq, &sr, c, (unsigned)out->rows[i].dealt.stun, den);
        add_product(&lq, &lr, c, (unsigned)out->rows[i].dealt.lethal, den);
    }
    out->mean_stun = mixed_to_ratio(sq, sr, den);
    out->mean_lethal = mixed_to_ratio(lq, lr, den);
}

fray_ratio fray_towers_damage_odds_row(const fray_towers_damage_odds *odds,
                                       int i) {
    if (i < 0 || i >= odds->n_rows)
        return fray__ratio(0, 1, false);
    return fray__ratio(fray__u128_from(odds->rows[i].count),
                       fray__u128_from(odds->den), false);
}
