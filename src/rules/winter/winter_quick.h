/*
 * winter_quick.h - Silent Winter's simulation shortcut for melee fights
 * (quick.c; issue 17 "Speed"; docs/rules/silent-winter.md "Speed").
 *
 * A fight of melee combatants only, on two sides or more, with none of
 * what the shortcut does not model (quick.c sw_quick_prepare lists it),
 * runs in a tight loop on the fight's own state: the same dice from the
 * same stream in the same order as the long way (winter.c step: the
 * tactics' choice, the rules' check, the event), the same choices, the
 * same end state and the same counts, and nothing else (no events, no
 * facts, no checks of what the tactics chose).
 */
#ifndef FRAY_WINTER_QUICK_H
#define FRAY_WINTER_QUICK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "winter_int.h"

/* What the loop needs of one combatant, taken from the setup once per
 * simulation fight. */
typedef struct sw_quick_c {
    int16_t atk;              /* Physical Attack, -5 with two weapons (002:41) */
    int16_t def_bare;         /* Physical Defense: kept when Undefended (002:27) */
    int16_t def_full;         /* ... plus Agility and the defence bonus */
    int16_t res;              /* Physical Resistance with armour that protects (002:33) */
    int16_t agility, pain;
    int16_t per;              /* 1 + the attack's delay */
    uint8_t dice[2];          /* the weapon's and the off hand's d6 (0: none) */
    int8_t bonus[2];
    bool two;                 /* an off hand */
    int8_t side, size, capacity;
    bool reciprocal;
} sw_quick_c;

typedef struct sw_quick {
    bool ok;                  /* the setup is one the loop models */
    int n;
    int engage_delay;
    bool ties_actor, pain_on_any_hit, keep_fallen, order_file, avoid;
    sw_quick_c c[SW_MAX_C];
} sw_quick;

/* The simulation's counts of a trial (winter.c's sw_fight keeps them). */
typedef struct sw_tally {
    int32_t *dealt, *taken, *actions;
    uint16_t (*by_kind)[SW_EV_KINDS];
} sw_tally;

/* Whether the setup is one the loop models (q->ok), and its constants. */
void sw_quick_prepare(const sw_setup *s, sw_quick *q);
/* Whether a fight's state (a begun trial, or a table's fight for a
 * forecast, sim_from) holds nothing the loop does not model. */
bool sw_quick_state_ok(const sw_quick *q, const sw_state *st);
/* The fight to its end (or the segment limit lim, 0: none), as
 * winter.c's run does it the long way. */
fray_status sw_quick_run(const sw_quick *q, sw_state *st, int lim,
                         const atomic_bool *cancel, const sw_tally *tally);
/* One melee attack of a on t (rules.c attack for the class): the dice,
 * the damage, Pain and who drops out, and the counts; true when t drops
 * out. The duel's loop (winter.c run_quick) and sw_quick_run share it. */
bool sw_quick_attack(const sw_quick *q, sw_state *st, int a, int t, bool undefended,
                     const sw_tally *tally);

/* winter.c, for tests: run the loop for a duel too (not the duel's
 * schedule, run_quick), and whether the fight's setup and state take the
 * loop now. */
void sw_quick_loop_for_duel(void *rfight, bool on);
bool sw_quick_loop_eligible(const void *rfight);

#endif
