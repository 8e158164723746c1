/*
 * fray/odds.h - exact odds of card flips (99 Towers). Everything is counted
 * with integers over equally likely sets of cards and reported as exact
 * ratios in lowest terms; nothing is sampled.
 *
 * A flip's cards are a uniformly random set drawn from a freshly shuffled
 * deck with the given options. With separate decks each side flips from
 * its own fresh deck; with a shared deck the defender (or opponent) flips
 * from what the first flip left.
 *
 * Cost: one query takes a few microseconds and no heap; it keeps a table
 * of binomial coefficients and scratch (about 80 KB) on the stack for the
 * call.
 *
 * Thread-safety: pure functions of their arguments.
 */
#ifndef FRAY_ODDS_H
#define FRAY_ODDS_H

#include "fray/flip.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { FRAY_HEARTS_MAX = 13 };

/* The joint distribution of one flip's kept card and Hearts. */
typedef struct fray_flip_odds {
    int n;            /* rank + flip mods */
    int n_cards;      /* cards turned over (RULINGS 3) */
    bool keep_lowest;
    fray_u128 den;    /* number of equally likely sets of n_cards cards */
    /* count[v][h]: sets whose kept card is worth v with h Hearts */
    fray_u128 count[FRAY_CARD_VALUE_MAX + 1][FRAY_HEARTS_MAX + 1];
} fray_flip_odds;

/*
 * The odds of a flip of n (rank + flip mods) cards (RULINGS 3 decides how
 * many and which is kept). opts/rules NULL mean the defaults. Hearts are
 * counted over every card (RULINGS 5). FRAY_ERR_RANGE when the flip needs
 * more cards than the deck has or the options are bad.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_odds_flip(const fray_deck_options *opts, int n,
                                    const fray_flip_rules *rules,
                                    fray_flip_odds *out);
/* The accessors return exact ratios in lowest terms; a value or Hearts
 * count out of range has probability 0/1. */
/* P(kept card is worth exactly `value`). */
FRAY_API fray_ratio fray_flip_odds_value(const fray_flip_odds *odds, int value);
/* P(exactly `hearts` Hearts among the flipped cards). */
FRAY_API fray_ratio fray_flip_odds_hearts(const fray_flip_odds *odds, int hearts);
/* P(kept card worth `value` and exactly `hearts` Hearts). */
FRAY_API fray_ratio fray_flip_odds_joint(const fray_flip_odds *odds, int value,
                                         int hearts);
/* P(kept value + bonus >= dtn): an unopposed flip's chance of success,
 * where bonus is the Aspect (for a skill) plus shifts. */
FRAY_API fray_ratio fray_flip_odds_success(const fray_flip_odds *odds,
                                           int bonus, int dtn);

/* ---- Attack against defense ---------------------------------------- */

typedef struct fray_attack_query {
    int attack_n;      /* PA or SA rank + flip mods */
    int defense_n;     /* PD or ID rank + flip mods */
    int attack_shift;
    int defense_shift;
    bool shared_deck;  /* defender flips from what the attack left */
    fray_deck_options deck;
    fray_flip_rules rules;
} fray_attack_query;

/* Fills a query with defaults: no shifts, separate decks, RULINGS 1/3. */
FRAY_API void fray_attack_query_init(fray_attack_query *q, int attack_n,
                                     int defense_n);

typedef struct fray_attack_odds {
    fray_u128 den;                       /* equally likely outcomes */
    fray_u128 hit[FRAY_HEARTS_MAX + 1];  /* hits with exactly k Hearts */
} fray_attack_odds;

/* Counts hits (attack kept + shift >= defense kept + shift) by the Hearts
 * of the attacker's whole flip. With a shared deck den is
 * C(N, a) * C(N - a, d), otherwise C(N, a) * C(N, d).
 * Errors: FRAY_ERR_RANGE (bad options; a flip needs more cards than the
 * deck has or, shared, than the attack left). */
FRAY_API FRAY_MUST_CHECK fray_status fray_odds_attack(const fray_attack_query *q,
                                      fray_attack_odds *out);
FRAY_API fray_ratio fray_attack_odds_hit(const fray_attack_odds *odds);
/* P(hit with at least one Heart): a critical hit. */
FRAY_API fray_ratio fray_attack_odds_crit(const fray_attack_odds *odds);
/* P(hit with exactly k Hearts). */
FRAY_API fray_ratio fray_attack_odds_hit_hearts(const fray_attack_odds *odds,
                                                int k);
/* P(exactly k Hearts | hit); 0/1 when the attack can never hit. */
FRAY_API fray_ratio fray_attack_odds_hearts_given_hit(
    const fray_attack_odds *odds, int k);

/* ---- Opposed skill flips (seed 001) --------------------------------- */

/* No init function: zero the struct, then set deck with
 * fray_deck_options_default and the fields you need. */
typedef struct fray_opposed_query {
    int initiator_n;       /* skill rank + flip mods */
    int opponent_n;
    int initiator_bonus;   /* added to the kept card: Aspect + shifts */
    int opponent_bonus;
    int initiator_aspect;  /* compared on a tie */
    int opponent_aspect;
    bool shared_deck;      /* opponent flips from what the initiator left */
    fray_deck_options deck;
    fray_flip_rules rules;
} fray_opposed_query;

typedef struct fray_opposed_odds {
    fray_u128 den;
    fray_u128 initiator_wins;  /* including ties the tie rules give it */
    fray_u128 ties;            /* totals equal (decided by the tie rules) */
} fray_opposed_odds;

/* Errors: FRAY_ERR_RANGE, as for fray_odds_attack. */
FRAY_API FRAY_MUST_CHECK fray_status fray_odds_opposed(const fray_opposed_query *q,
                                       fray_opposed_odds *out);
FRAY_API fray_ratio fray_opposed_odds_initiator(const fray_opposed_odds *odds);
FRAY_API fray_ratio fray_opposed_odds_opponent(const fray_opposed_odds *odds);
FRAY_API fray_ratio fray_opposed_odds_tie(const fray_opposed_odds *odds);

#ifdef __cplusplus
}
#endif
#endif
