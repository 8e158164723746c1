/*
 * fray/towers.h - the 99 Towers ruleset. So far: the damage of a hit (seed
 * 000 "Damage", "Damage Types"; RULINGS 18) and its exact odds.
 *
 * Thread-safety: pure functions of their arguments.
 */
#ifndef FRAY_TOWERS_H
#define FRAY_TOWERS_H

#include "fray/odds.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a target takes a damage type (seed 000 "Damage Types"). */
typedef enum fray_towers_affinity {
    FRAY_TOWERS_NORMAL,
    FRAY_TOWERS_IMMUNE,      /* no STUN, no LETHAL */
    FRAY_TOWERS_SUSCEPTIBLE  /* double STUN (after Resilience) and LETHAL */
} fray_towers_affinity;

typedef struct fray_towers_hit {
    int stun;
    int lethal;
} fray_towers_hit;

/*
 * The STUN and LETHAL one hit deals: STUN = damage + Hearts - Resilience,
 * at least 1; LETHAL = Hearts, never more than the STUN dealt; then
 * susceptibility doubles both, immunity removes both. `damage` is the
 * weapon's damage with PX and bonuses added; `resilience` is ER or IR
 * (0 for damage of no category). Negative hearts count as 0; results
 * saturate at INT_MAX instead of overflowing.
 */
FRAY_API fray_towers_hit fray_towers_hit_damage(int damage, int hearts,
                                                int resilience,
                                                fray_towers_affinity affinity);

/*
 * The exact distribution of what an attack deals. Row 0 is always the miss
 * (0/0, hit false; its count may be 0). Then one row per distinct
 * (STUN, LETHAL) that a hit with some possible number of Hearts deals
 * (Hearts counts of probability 0 make no row; equal outcomes merge),
 * sorted by STUN then LETHAL. Means are over all outcomes, misses as 0;
 * they are exact, except that for damage in the billions with flips of 20+
 * cards from separate decks, whose exact numerator cannot fit 128 bits,
 * the fraction part is rounded down to a multiple of 2^-64.
 */
typedef struct fray_towers_damage_odds {
    int n_rows;
    struct {
        fray_towers_hit dealt;
        bool hit;
        fray_u128 count;
    } rows[FRAY_HEARTS_MAX + 2];  /* sorted: miss first, then by STUN */
    fray_u128 den;
    fray_ratio mean_stun;
    fray_ratio mean_lethal;
} fray_towers_damage_odds;

FRAY_API void fray_odds_towers_damage(const fray_attack_odds *attack,
                                     int damage, int resilience,
                                     fray_towers_affinity affinity,
                                     fray_towers_damage_odds *out);
/* P(row i). */
FRAY_API fray_ratio fray_towers_damage_odds_row(
    const fray_towers_damage_odds *odds, int i);

#ifdef __cplusplus
}
#endif
#endif
