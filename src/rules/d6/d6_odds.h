/*
 * d6_odds.h - exact odds of D6 rolls (seed 003 and the core it presupposes,
 * rulesets-checklists D-0, D1, D7): a die code rolled with or without a
 * Wild Die under either `wild-one` setting, success against a fixed, a
 * GM-rolled or an active-defense difficulty, and damage against
 * resistance mapped to Body Points and Wound levels.
 *
 * Every answer is an exact fraction. A Wild Die makes a total unbounded,
 * but its tail is geometric: after the first toss of 6 the die adds
 * 6 K + R, where R is uniform on 1..5 and K (the further 6s) is
 * independent of R with P(K = k) = (5/6)(1/6)^k. A distribution here is
 * therefore kept as a few bounded parts, each with 0, 1 or 2 such K
 * added or subtracted (times 6), and every probability is a finite sum of
 * closed forms (docs/rules/dice.md, "D6 odds"). Exact fractions use GMP;
 * fray_bigratio carries them out as decimal text with the nearest double.
 *
 * No globals; no randomness. Errors are fray_status: FRAY_ERR_INVALID
 * (a NULL argument, a code over D6_ODDS_DICE_MAX dice), FRAY_ERR_RANGE
 * (more than two Wild Dice meeting in one sum: not computed),
 * FRAY_ERR_NOMEM. Outputs are zeroed (safe to free) on every error.
 */
#ifndef FRAY_D6_ODDS_H
#define FRAY_D6_ODDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fray/common.h"
#include "fray/dice.h"

#include "d6_code.h"

enum {
    D6_ODDS_DICE_MAX = 200,     /* dice in one code */
    D6_DIFFICULTY_FLOOR = 3     /* 003:2 and the core: never below 3 */
};

/* ---- Distributions -------------------------------------------------------- */

typedef struct d6_dist d6_dist;

/* The total of `code` (dice below 1 roll nothing: the pips alone) with a
 * Wild Die when `wild`, its first 1 treated by `rule`. */
FRAY_MUST_CHECK fray_status d6_dist_code(d6_code code, bool wild, d6_wild_one rule,
                                         const fray_allocator *alloc, d6_dist **out);
/* A constant. */
FRAY_MUST_CHECK fray_status d6_dist_const(int64_t v, const fray_allocator *alloc,
                                          d6_dist **out);
/* a + b (sign_b > 0) or a - b (sign_b < 0), a and b independent.
 * FRAY_ERR_RANGE when the sum would hold more than two Wild Dice' tails
 * in one part (e.g. three Wild Dice, or two on the same side). */
FRAY_MUST_CHECK fray_status d6_dist_add(const d6_dist *a, const d6_dist *b, int sign_b,
                                        d6_dist **out);
void d6_dist_free(d6_dist *d);

/* Exact P(total >= t), P(total == t), P(total <= t), the mean. */
FRAY_MUST_CHECK fray_status d6_dist_at_least(const d6_dist *d, int64_t t,
                                             fray_bigratio *out);
FRAY_MUST_CHECK fray_status d6_dist_eq(const d6_dist *d, int64_t t, fray_bigratio *out);
FRAY_MUST_CHECK fray_status d6_dist_at_most(const d6_dist *d, int64_t t,
                                            fray_bigratio *out);
FRAY_MUST_CHECK fray_status d6_dist_mean(const d6_dist *d, fray_bigratio *out);
/* E[max(0, total)] (Body Points lost, when the total is damage less
 * resistance), exact in closed form. */
FRAY_MUST_CHECK fray_status d6_dist_mean_positive(const d6_dist *d, fray_bigratio *out);
/* The same as doubles (nearest), for choosing what to show. */
double d6_dist_p_at_least(const d6_dist *d, int64_t t);
double d6_dist_p_eq(const d6_dist *d, int64_t t);
/* The lowest and highest totals; false when unbounded that way (a Wild
 * Die: upward; a subtracted Wild Die: downward). */
bool d6_dist_lo(const d6_dist *d, int64_t *out);
bool d6_dist_hi(const d6_dist *d, int64_t *out);

/* ---- Success against a difficulty (D-0 "Success", "Combat difficulty") ------ */

/* Ties: meet-or-beat (the core, checklist D7.13) or strictly greater
 * (Disarm, 003:61). */
typedef enum d6_tie {
    D6_TIE_MEETS = 0,
    D6_TIE_BEATS = 1
} d6_tie;

typedef struct d6_success_query {
    d6_code skill;          /* the roll, flat bonuses in its pips */
    bool no_wild;           /* roll the skill without a Wild Die */
    d6_wild_one wild_one;   /* for every Wild Die in the check */
    /* The difficulty: `difficulty` (a number), or with defense_roll the
     * defender's roll of `defense` (+ its pips) replacing it (partial
     * defense); full defense is the roll + 10 (put 10 in
     * defense_bonus). */
    int difficulty;
    bool defense_roll;
    d6_code defense;
    bool defense_no_wild;
    int defense_bonus;
    /* Difficulty modifiers in dice, rolled by the GM (003:3); flat ones
     * ("+6", the standard values) are codes of 0 dice. Each is its own
     * roll; with modifier_wild each that has dice has a Wild Die (option
     * modifier-wild-die, default no: checklist D7.11). */
    const d6_code *modifiers;
    size_t n_modifiers;
    bool modifier_wild;
    /* The difficulty never goes below `floor` (D6_DIFFICULTY_FLOOR for a
     * combat difficulty, 003:2); 0 or less: no floor. */
    int floor;
    d6_tie tie;
} d6_success_query;

/* P(the skill total succeeds): P(S >= max(floor, Y)) (or > with
 * D6_TIE_BEATS), Y the difficulty total. */
FRAY_MUST_CHECK fray_status d6_odds_check(const d6_success_query *q, const fray_allocator *alloc,
                                          fray_bigratio *out);
/* The difficulty's own distribution (floor not applied), for showing. */
FRAY_MUST_CHECK fray_status d6_success_difficulty(const d6_success_query *q,
                                                const fray_allocator *alloc,
                                                d6_dist **out);

/* ---- Damage against resistance (D-0 "Resistance and health") -------------- */

typedef enum d6_odds_wound {
    D6_ODDS_NO_WOUND = 0,      /* excess 0 or less */
    D6_ODDS_STUNNED,           /* 1-3 */
    D6_ODDS_WOUNDED,           /* 4-8 */
    D6_ODDS_INCAPACITATED,     /* 9-12 */
    D6_ODDS_MORTALLY_WOUNDED,  /* 13-15 */
    D6_ODDS_DEAD,              /* 16+ */
    D6_ODDS_WOUND_LEVELS
} d6_odds_wound;

/* The Wound level of an excess of damage over resistance (the core's
 * ladder, from an unhurt target). */
d6_odds_wound d6_odds_wound_of(int64_t excess);

typedef struct d6_damage_query {
    d6_code damage;          /* Strength Damage already added by the caller */
    bool damage_wild;
    d6_code resistance;      /* Physique + armour (Wounds) or armour (Body Points) */
    bool resistance_wild;
    d6_wild_one wild_one;
    int body_rows;           /* Body Points lost 0 .. body_rows - 2 exactly (at least 2 rows), the
                                last row "or more"; 0: up to where what is
                                left is under 1 in 10^6, at most 200 rows */
} d6_damage_query;

typedef struct d6_damage_odds {
    fray_bigratio level[D6_ODDS_WOUND_LEVELS];
    size_t n_body;           /* rows of body[] */
    fray_bigratio *body;     /* body[i] = P(lost == i); body[n_body-1] = P(lost >= it) */
    fray_bigratio mean_excess; /* E[damage - resistance] (may be negative) */
    fray_bigratio mean_body;   /* E[Body Points lost] = E[max(0, excess)] */
    const fray_allocator *alloc;
} d6_damage_odds;

FRAY_MUST_CHECK fray_status d6_odds_damage(const d6_damage_query *q,
                                           const fray_allocator *alloc,
                                           d6_damage_odds *out);
void d6_damage_odds_free(d6_damage_odds *o);

/* ---- The exact duel (duel.c; docs/rules/d6.md "The exact duel") ----------- */

struct d6_setup;
struct fray_duel_odds;
/* The exact odds of the duel between combatants a and b of the setup (the
 * encounter holds exactly these two, on two sides), as `fray sim` fights
 * it: the tactics' turns, initiative and its ties, the active defense to
 * its maker's next turn, Stunned, the stay-up roll, Body Points, scale,
 * surprise, blindness, postures, the round limit (include/fray/duel.h:
 * lengths in rounds). At most
 * max_states chain states (0: FRAY_DUEL_MAX_STATES). Errors:
 * FRAY_ERR_INVALID with diag in rules words for what the chain does not
 * model (movement, full cover, grabs, an entangling weapon, the damage
 * bonus, modifier dice the GM rolls, the tactics' attack options, any
 * turn but an attack; docs/rules/d6.md ruling 62);
 * FRAY_ERR_TOO_LARGE; FRAY_ERR_NOMEM. Reads the setup only:
 * thread-safe on a shared setup. */
FRAY_MUST_CHECK fray_status d6_duel_odds(const struct d6_setup *s, int a, int b,
                                         long max_states, struct fray_duel_odds *out,
                                         fray_diag *diag);
/* The states d6_duel_odds makes (it runs the chain: well under a second
 * for the example duels). */
FRAY_MUST_CHECK fray_status d6_duel_estimate(const struct d6_setup *s, int a, int b,
                                             double *out_states, fray_diag *diag);

#endif
