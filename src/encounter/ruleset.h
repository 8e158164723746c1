/*
 * ruleset.h - what a ruleset gives the shared encounter layer, and what
 * that layer does with it (docs/architecture.md "Rulesets").
 *
 * A ruleset fills one fray__ruleset, a table of functions over its own
 * opaque setup and fight, as SQLite's sqlite3_vfs does for a platform;
 * the layer (src/encounter/) never names a ruleset, and a ruleset never
 * reaches into the layer. Internal to the library for now: the table
 * grows as the layer takes over the journal, the table session, sweeps
 * and reports; the public API (fray_towers_sim ...) stays as it is.
 *
 * Built so far: the simulation runner (sim.c).
 */
#ifndef FRAY_RULESET_H
#define FRAY_RULESET_H

#include <stdatomic.h>

#include "fray/sim.h"

typedef struct fray__ruleset {
    const char *name; /* the word in files: "towers" */

    /* ---- Simulation (sim.c) ----
     * A fight for one worker thread: no journal, no facts, stopping at
     * until_phase (0: the encounter's limit); it reads *cancel now and
     * then while it runs and returns FRAY_ERR_CANCELED once it is set. */
    int (*sides)(const void *setup);
    int (*combatants)(const void *setup);
    fray_status (*sim_fight_new)(const void *setup, uint64_t seed,
                                 int until_phase, const atomic_bool *cancel,
                                 const fray_allocator *alloc, void **out);
    void (*fight_free)(void *fight);
    /* Trial `trial` of `seed`: its stream fray_rng_for_trial(seed, trial);
     * nothing allocated. */
    fray_status (*reset_trial)(void *fight, uint64_t seed, uint64_t trial);
    /* To the end of the fight (or its phase limit). */
    fray_status (*run)(void *fight);
    /* The finished fight's numbers, added into c (c->trials included). */
    void (*count)(const void *fight, fray_sim_counts *c);
} fray__ruleset;

/*
 * Runs trials first_trial .. first_trial + trials - 1 of the setup on
 * worker threads, as fray_sim.h says of fray_towers_sim: one fight per
 * thread made before any trial, chunks of trial indices from an atomic
 * counter, counts that are sums of integers (the same for any number of
 * threads), progress about ten times a second from the calling thread,
 * a stop that reaches fights under way. Errors: FRAY_ERR_INVALID (no
 * trials, threads < 0, more sides or combatants than the counts hold),
 * FRAY_ERR_NOMEM, or the error of a fight that could not go on (the
 * counts are then zero).
 */
FRAY_MUST_CHECK fray_status fray__sim_run(const fray__ruleset *rs,
                                          const void *setup,
                                          const fray_sim_options *opts,
                                          const fray_allocator *alloc,
                                          fray_sim_counts *out);

#endif
