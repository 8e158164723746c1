/*
 * d6_quick.h - D6's simulation loop for the fights its tactics fight
 * with blows and shots alone (quick.c; issue 18 "Speed";
 * docs/rules/d6.md "Speed").
 *
 * The loop plays a fight as d6.c's step does (the tactics' choice, then
 * rules.c's d6_apply) on the fight's own state, with no events and no
 * narration: the same dice from the same stream in the same order, the
 * same choices, the same end state and the same counts. It takes only
 * setups and states it models (d6_loop_prepare, d6_loop_state_ok);
 * everything else goes the long way.
 */
#ifndef FRAY_D6_QUICK_H
#define FRAY_D6_QUICK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "d6_int.h"

/* What the loop needs of one combatant, taken from the setup once. */
enum { D6_LOOP_PEN = 5 };    /* penalties the loop meets: 0 to 3 for wounds, +1 */

typedef struct d6_loop_c {
    /* less 0 to 4 dice (rules.c penalised): its weapon's skill (fighting
     * unarmed), dodge, its parry skill (rules.c d6_parry_skill) */
    d6_code attack[D6_LOOP_PEN], dodge[D6_LOOP_PEN], parry[D6_LOOP_PEN];
    d6_code damage;           /* the weapon's damage with Strength Damage */
    d6_code resist;           /* armour with Physique (wounds) or resistance */
    d6_code stay;             /* the better of stamina and mettle */
    d6_code init;             /* Acumen */
    long tie[4];              /* initiative ties: Acumen, search, Agility, dodge */
    bool parry_better;        /* its parry's code beats its dodge's */
    bool ranged;              /* its weapon shoots (a Long range) */
    int8_t weapon;            /* setup index, -1 unarmed */
    int8_t side;
    uint8_t cover_dice;       /* its cover's dice against attacks on it */
    bool full_cover;          /* nobody may attack it */
    int16_t body_points;
} d6_loop_c;

typedef struct d6_loop {
    bool ok;                  /* the setup is one the loop models */
    const d6_setup *s;
    int n;
    bool wounds;              /* health: wounds (else Body Points) */
    d6_wild_one wild_one;
    int light;                /* the scene's dice on ranged difficulties */
    d6_loop_c c[D6_MAX_C];
} d6_loop;

/* The simulation's counts of a trial (d6.c's fight keeps them). */
typedef struct d6_tally {
    int32_t *dealt, *taken, *actions;
    uint16_t (*by_kind)[D6_EV_KINDS];
} d6_tally;

/* Whether the setup is one the loop models (q->ok), and its constants. */
void d6_loop_prepare(const d6_setup *s, d6_loop *q);
/* Whether a fight's state (a begun trial, or a fight at the table for a
 * forecast) is one the loop takes up. */
bool d6_loop_state_ok(const d6_loop *q, const d6_state *st);
/* The fight to its end, or to the round limit lim (0: none; then it
 * stops at round cap), as d6.c's run does it; *events counts the events
 * the long way would have made. FRAY_ERR_CANCELED when cancel is set. */
fray_status d6_loop_run(const d6_loop *q, d6_state *st, int lim, int cap,
                         const atomic_bool *cancel, const d6_tally *tally,
                         int32_t *events);

/* d6.c, for tests: keep a simulation fight on the long way (off), and
 * whether its fight as it stands would take the loop. */
void d6_loop_set_off(void *rfight, bool off);
bool d6_loop_eligible(const void *rfight);

#endif
