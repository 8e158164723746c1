/*
 * d6_code.h - the D6 ruleset's die codes (seed 003 and the core it
 * presupposes, rulesets-checklists D-0): a number of dice and pips, 3 pips
 * making 1D ("4D+2"), one die of every roll being the Wild Die.
 *
 * This header is the contract between the D6 engine (code.c implements
 * the value type and the roll) and its exact odds (odds.c). It is the
 * first file of src/rules/d6/; the engine's own header (d6_int.h) includes
 * it.
 */
#ifndef FRAY_D6_CODE_H
#define FRAY_D6_CODE_H

#include <stdbool.h>
#include <stddef.h>

#include "fray/common.h"
#include "fray/rng.h"

/* A die code: `dice` six-sided dice plus `pips` (a constant). A code in
 * normal form has 0 <= pips <= 2 (3 pips make 1D) and dice >= 0; a
 * modifier may be negative ("-1D", "-2"). */
typedef struct d6_code {
    int dice;
    int pips;
} d6_code;

/* What a Wild Die's 1 on its first toss does (core "Critical Failure";
 * rulings option `wild-one`). */
typedef enum d6_wild_one {
    D6_WILD_ONE_CANCEL_HIGHEST = 0, /* the 1 and the highest other die count 0 */
    D6_WILD_ONE_COMPLICATION = 1    /* the 1 adds normally; a complication
                                       follows (told, no number changes) */
} d6_wild_one;

/* Value type (code.c). */
d6_code d6_code_make(int dice, int pips);            /* in normal form */
d6_code d6_code_norm(d6_code c);                     /* pips into 0..2 */
d6_code d6_code_add(d6_code a, d6_code b);           /* normal form */
/* Parses "4D", "4D+2", "3d-1", "+1D", "-2D", "2" (pips only). Returns
 * false on anything else (the caller names the token). */
bool d6_code_parse(const char *text, d6_code *out);
/* "4D+2", "3D", "0D+1", "-1D". Returns the length it needs (snprintf). */
size_t d6_code_format(d6_code c, char *buf, size_t cap);
/* Strength Damage (core, Character Basics): ceil(dice / 2) D, pips
 * dropped: 3D -> 2D, 6D+2 -> 3D. */
d6_code d6_strength_damage(d6_code physique);

/* One roll of a code with (wild true) or without a Wild Die. Every die
 * is drawn from `rng` (or, at the table, given by hand: the engine's
 * own layer). */
typedef struct d6_roll {
    int total;
    int wild_first;   /* the Wild Die's first toss, 0 without one */
    int explosions;   /* how many times the Wild Die showed 6 again */
    bool wild_one;    /* the first toss was a 1 */
} d6_roll;
/* Rolls `c` (dice below 0 roll nothing; the pips still add). */
d6_roll d6_code_roll(d6_code c, bool wild, d6_wild_one rule, fray_rng *rng);

#endif
