/*
 * code.c - the D6 ruleset's die codes (d6_code.h): a number of dice and
 * pips (3 pips make 1D), the Strength Damage of a code, and one roll of a
 * code with the Wild Die (rulesets-checklists D-0; docs/rules/d6.md
 * "Die codes").
 */
#include "d6_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The attribute each skill falls under (core, Character Basics). */
const uint8_t d6_skill_attr[D6_SKILLS] = {
    [D6_SK_FIGHTING] = D6_AGILITY,        [D6_SK_MELEE] = D6_AGILITY,
    [D6_SK_DODGE] = D6_AGILITY,           [D6_SK_ACROBATICS] = D6_AGILITY,
    [D6_SK_MARKSMANSHIP] = D6_COORDINATION, [D6_SK_THROWING] = D6_COORDINATION,
    [D6_SK_LIFTING] = D6_PHYSIQUE,        [D6_SK_RUNNING] = D6_PHYSIQUE,
    [D6_SK_STAMINA] = D6_PHYSIQUE,        [D6_SK_METTLE] = D6_CHARISMA,
    [D6_SK_SEARCH] = D6_ACUMEN,           [D6_SK_COMMAND] = D6_CHARISMA,
};

/* A code's value in pips (1D = 3), the one number every sum is made in. */
static long code_pips(d6_code c) { return (long)c.dice * 3 + c.pips; }

/* From pips back to a code: dice and pips share the sign of the whole
 * ("-2" stays -2 pips, "-4" is -1D-1), so a positive code has pips 0..2. */
static d6_code from_pips(long p) {
    long a = p < 0 ? -p : p;
    d6_code c = {(int)(a / 3), (int)(a % 3)};
    if (p < 0) {
        c.dice = -c.dice;
        c.pips = -c.pips;
    }
    return c;
}

d6_code d6_code_make(int dice, int pips) {
    return from_pips((long)dice * 3 + pips);
}

d6_code d6_code_norm(d6_code c) { return from_pips(code_pips(c)); }

d6_code d6_code_add(d6_code a, d6_code b) {
    return from_pips(code_pips(a) + code_pips(b));
}

enum { D6_CODE_MAX = 999 }; /* no code or modifier reaches this many dice */

static bool read_number(const char **p, long *out) {
    const char *s = *p;
    long v = 0;
    if (*s < '0' || *s > '9')
        return false;
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + (*s - '0');
        if (v > D6_CODE_MAX * 3)
            return false;
        s++;
    }
    *p = s;
    *out = v;
    return true;
}

bool d6_code_parse(const char *text, d6_code *out) {
    if (!text || !out)
        return false;
    const char *p = text;
    int sign = 1;
    if (*p == '+' || *p == '-') {
        sign = *p == '-' ? -1 : 1;
        p++;
    }
    long n = 0;
    if (!read_number(&p, &n))
        return false;
    if (*p != 'D' && *p != 'd') {
        if (*p != '\0')
            return false;
        *out = from_pips(sign * n); /* pips only: "2", "-1" */
        return true;
    }
    p++;
    if (n > D6_CODE_MAX)
        return false;
    long pips = 0;
    if (*p == '+' || *p == '-') {
        int ps = *p == '-' ? -1 : 1;
        p++;
        if (!read_number(&p, &pips) || pips > D6_CODE_MAX)
            return false;
        pips *= ps;
    }
    if (*p != '\0')
        return false;
    *out = from_pips(sign * n * 3 + pips);
    return true;
}

size_t d6_code_format(d6_code c, char *buf, size_t cap) {
    d6_code n = d6_code_norm(c);
    int w;
    if (n.pips == 0)
        w = snprintf(buf, cap, "%dD", n.dice);
    else if (n.dice == 0 && n.pips < 0)
        w = snprintf(buf, cap, "0D%d", n.pips);
    else
        w = snprintf(buf, cap, "%dD%+d", n.dice, n.pips);
    return w < 0 ? 0 : (size_t)w;
}

d6_code d6_strength_damage(d6_code physique) {
    d6_code n = d6_code_norm(physique);
    d6_code out = {n.dice > 0 ? (n.dice + 1) / 2 : 0, 0};
    return out;
}

/* ---- Rolling ------------------------------------------------------------ */

/* The roll, inlined into both callers: d6_code_roll's die is then a
 * direct draw from the stream (the simulation's loop, quick.c). */
static inline bool roll_code(d6_code c, bool wild, d6_wild_one rule, d6_die_fn die,
                             void *ctx, d6_roll *out) {
    d6_code n = d6_code_norm(c);
    d6_roll r = {0, 0, 0, false};
    int total = n.pips, highest = 0;
    int others = n.dice - (wild && n.dice > 0 ? 1 : 0);
    if (wild && n.dice > 0) {
        int v = die(ctx);
        if (v < 1 || v > 6)
            return false;
        r.wild_first = v;
        r.wild_one = v == 1;
        int w = v;
        while (v == 6) { /* Critical Success: a 6 adds and rolls again */
            v = die(ctx);
            if (v < 1 || v > 6)
                return false;
            r.explosions++;
            w += v;
        }
        total += w;
    }
    for (int k = 0; k < others; k++) {
        int v = die(ctx);
        if (v < 1 || v > 6)
            return false;
        total += v;
        if (v > highest)
            highest = v;
    }
    /* Critical Failure, cancel-highest: the 1 and the highest other die
     * count nothing; complication: the 1 adds as rolled. */
    if (r.wild_one && rule == D6_WILD_ONE_CANCEL_HIGHEST)
        total -= 1 + highest;
    r.total = total;
    *out = r;
    return true;
}

bool d6_roll_with(d6_code c, bool wild, d6_wild_one rule, d6_die_fn die,
                  void *ctx, d6_roll *out) {
    return roll_code(c, wild, rule, die, ctx, out);
}

/* fray_rng_range(ctx, 1, 6), which is this */
static int rng_die(void *ctx) { return (int)fray_rng_below(ctx, 6) + 1; }

d6_roll d6_code_roll(d6_code c, bool wild, d6_wild_one rule, fray_rng *rng) {
    d6_roll r = {0, 0, 0, false};
    if (!roll_code(c, wild, rule, rng_die, rng, &r))
        r.total = 0; /* not reached: a drawn die is always 1..6 */
    return r;
}
