/*
 * fray/sim.h - Monte Carlo simulation of whole encounters of any ruleset
 * (fray_sim over a fray_setup; fray_towers_sim for a 99 Towers setup),
 * for designers balancing rules (docs/architecture.md "Simulation").
 *
 * A simulation runs trials 0..n-1 of an encounter with the tactics
 * policies choosing every action, exactly as `fray fight` does, with
 * narration and journal off. Trial i's decks (Alloy: dice) come from the
 * stream fray_rng_for_trial(seed, i), so any trial can be replayed narrated
 * (fray_towers_fight_reset_trial) and the results do not depend on how the
 * trials are spread over threads or processes: everything a simulation
 * counts is a sum of integers over trials (fray_sim_counts), and sums do
 * not care about order. Means, intervals and quantiles are computed from
 * the counts at the end.
 *
 * Nothing is allocated inside the trial loop: each thread makes its fight
 * once and resets it per trial.
 *
 * Thread-safety: fray_towers_sim may run on any number of threads at once
 * for the same setup (the setup is only read).
 */
#ifndef FRAY_SIM_H
#define FRAY_SIM_H

#include "fray/common.h"
#include "fray/encounter.h"
#include "fray/fight.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    FRAY_SIM_MAX_SIDES = 4,
    FRAY_SIM_MAX_COMBATANTS = 32,
    /* The fight-length histogram: one bin per unit of the ruleset's time
     * (phase, round) 0..FRAY_SIM_LENGTH_BINS-2; the last bin counts every
     * fight that ended at that time or later. */
    FRAY_SIM_LENGTH_BINS = 1000,
    /* Kinds of action, in the order of fray_sim_action_name. */
    /* room for every ruleset's kinds (99 Towers 37 of which 5 are the
     * GM's, never counted; Alloy 32), with room for more: each ruleset
     * asserts its kinds fit (towers sim.c, alloy.c) */
    FRAY_SIM_ACTION_KINDS = 64,
    /* Kinds of harm (99 Towers: STUN, LETHAL) and of resources spent (99
     * Towers: Hand of Fate cards, chips), named by fray_sim_harm_name and
     * fray_sim_spent_name; a ruleset uses as many as it has. */
    FRAY_SIM_HARM_KINDS = 4,
    FRAY_SIM_SPENT_KINDS = 4
};

/* What one combatant did, summed over trials. */
typedef struct fray_sim_combatant_counts {
    uint64_t standing;      /* trials it ended still in the fight */
    uint64_t dead;          /* trials it ended dead */
    /* Harm dealt and taken, and resources spent, by kind (the ruleset's
     * words: fray_sim_harm_name, fray_sim_spent_name). The named members
     * are 99 Towers' kinds 0 and 1 under their older names, for callers
     * written before the counts served every ruleset. */
    union {
        uint64_t dealt[FRAY_SIM_HARM_KINDS];
        struct { uint64_t stun_dealt, lethal_dealt; };
    };
    union {
        uint64_t taken[FRAY_SIM_HARM_KINDS];
        struct { uint64_t stun_taken, lethal_taken; };
    };
    uint64_t actions;       /* actions taken (every kind) */
    union {
        uint64_t spent[FRAY_SIM_SPENT_KINDS];
        struct { uint64_t fate_cards, chips; };
    };
    uint64_t by_kind[FRAY_SIM_ACTION_KINDS];
    /* How it ended, besides standing and dead (fray_sim_state_meaning
     * says what each word means in the ruleset): unconscious (not dying
     * or dead), dying (not dead), fled (off the map, not unconscious,
     * dying or dead). standing + unconscious + dying + dead + fled =
     * trials. */
    uint64_t unconscious, dying, fled;
} fray_sim_combatant_counts;

/*
 * Everything a simulation counts. Only uint64_t fields, so that two
 * results merge by adding field by field (fray_sim_counts_add), and a
 * whole struct reduces as an array of FRAY_SIM_COUNTS_WORDS integers
 * (MPI_UINT64_T, MPI_SUM).
 */
typedef struct fray_sim_counts {
    uint64_t trials;
    uint64_t wins[FRAY_SIM_MAX_SIDES];   /* by side, in the encounter's order */
    uint64_t all_out;        /* every side out at once: nobody won */
    uint64_t unfinished;     /* the time limit came first: nobody won */
    uint64_t length_sum;     /* the fight's length in the ruleset's time
                                (phases, rounds: its last one) */
    uint64_t length_sq_sum;
    uint64_t length[FRAY_SIM_LENGTH_BINS];
    fray_sim_combatant_counts c[FRAY_SIM_MAX_COMBATANTS];
    /* How formal duels ended (99 Towers, seed 000 "Dueling"; all 0 for a
     * fight that is no duel): won by first blood, dropped when both were
     * wounded in one phase ("destiny has intervened"), won by a
     * concession. */
    uint64_t duel_first_blood, duel_destiny, duel_conceded;
} fray_sim_counts;

#define FRAY_SIM_COUNTS_WORDS (sizeof(fray_sim_counts) / sizeof(uint64_t))

/* Called about ten times a second from the thread that called
 * fray_towers_sim, with the trials finished so far; return false to stop
 * early. A stop reaches the fights under way too (each looks every few
 * thousand events), so fray_towers_sim returns within milliseconds of
 * the next call even when one fight lasts minutes; the counts then hold
 * only the trials that finished (fray_sim_counts.trials, fewer than
 * asked). */
typedef bool (*fray_sim_progress_fn)(void *ctx, uint64_t done,
                                     uint64_t total);

typedef struct fray_sim_options {
    uint64_t seed;          /* the master seed */
    uint64_t first_trial;   /* run trials first_trial .. first_trial+trials-1 */
    uint64_t trials;
    int threads;            /* 0: one per online core */
    int until_phase;        /* stop each fight at this phase or round (0:
                               the encounter's limit) */
    fray_sim_progress_fn progress;   /* may be NULL */
    void *progress_ctx;
    /* May be NULL. When a fight cannot go on, its message says which
     * trial and, when the ruleset can tell, why in rules words (e.g. the
     * command a combatant's tactics chose and why the rules refuse it). */
    fray_diag *diag;
} fray_sim_options;

/*
 * Runs the trials and writes their counts to *out (zeroed first).
 * alloc (NULL: malloc) makes one fight per thread before any trial runs;
 * the trials themselves allocate nothing. Errors: FRAY_ERR_NOMEM (also
 * when a thread cannot start), FRAY_ERR_INVALID (no trials, threads < 0,
 * more sides or combatants than the counts hold), or the error of a
 * fight that could not go on (the counts are then zero).
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_sim(const fray_towers_setup *setup,
                                     const fray_sim_options *opts,
                                     const fray_allocator *alloc,
                                     fray_sim_counts *out);

/* fray_towers_sim for a setup of any ruleset (include/fray/fight.h):
 * the same runner, the same guarantees, the counts in the ruleset's
 * terms (fray_sim_harm_name, ...). */
FRAY_API FRAY_MUST_CHECK fray_status fray_sim(const fray_setup *setup,
                                              const fray_sim_options *opts,
                                              const fray_allocator *alloc,
                                              fray_sim_counts *out);

/* The rules names of what the counts of the setup's ruleset hold: action
 * kind k ("Power Attack"), harm kind k ("STUN", "LETHAL"), resource k
 * ("Hand of Fate cards", "chips"); NULL for a kind the ruleset does not
 * have. */
FRAY_API const char *fray_sim_action_name(const fray_setup *setup, int k);
FRAY_API const char *fray_sim_harm_name(const fray_setup *setup, int k);
FRAY_API const char *fray_sim_spent_name(const fray_setup *setup, int k);

/* How a combatant ends a fight, in the order the reports show them. */
typedef enum fray_sim_state {
    FRAY_SIM_STANDING,     /* still in the fight */
    FRAY_SIM_UNCONSCIOUS,
    FRAY_SIM_DYING,
    FRAY_SIM_DEAD,
    FRAY_SIM_FLED,
    FRAY_SIM_STATES
} fray_sim_state;

/* The word of state k ("standing", "unconscious", "dying", "dead",
 * "fled"), NULL outside 0..FRAY_SIM_STATES-1. */
FRAY_API const char *fray_sim_state_name(int k);
/* What state k means in the setup's ruleset, for a report's legend
 * ("LETHAL below 0, not dead"); NULL outside 0..FRAY_SIM_STATES-1. */
FRAY_API const char *fray_sim_state_meaning(const fray_setup *setup, int k);
/* The trials a combatant ended in state k (0 outside the states). */
FRAY_API uint64_t fray_sim_state_count(const fray_sim_combatant_counts *cc,
                                       int k);

/* Adds src's counts to dst, field by field. */
FRAY_API void fray_sim_counts_add(fray_sim_counts *dst,
                                  const fray_sim_counts *src);

/* ---- Reading the counts ------------------------------------------------ */

/* The 95% Wilson score interval of a proportion k/n (0..1 each; [0, 1]
 * when n is 0). */
FRAY_API void fray_sim_interval95(uint64_t k, uint64_t n, double *lo,
                                  double *hi);
/* The mean fight length in phases and its standard deviation. */
FRAY_API double fray_sim_length_mean(const fray_sim_counts *c);
FRAY_API double fray_sim_length_sd(const fray_sim_counts *c);
/* The smallest length L with P(length <= L) >= q (0 < q <= 1), from the
 * histogram (q = 1: the longest fight); -1 when there are no trials. */
FRAY_API int fray_sim_length_quantile(const fray_sim_counts *c, double q);

/* A share (0..1) as a percentage with `decimals` decimals (0..3) and a
 * '.' point whatever the C locale: "25.3%". Only an exact 1 reads
 * "100.0%" and only an exact 0 "0.0%": a share that would round to
 * either reads "> 99.9%" or "< 0.1%" (with 2 decimals "> 99.99%" and
 * "< 0.01%"). A share outside 0..1 (or not a number) is written as
 * 0 or 1. The text and the report of `fray sim` both round through it.
 * Writes at most size bytes, NUL included; returns out. Thread-safe. */
FRAY_API const char *fray_sim_percent(double share, int decimals, char *out,
                                      size_t size);
/* The share k/n (0 when n is 0) as fray_sim_percent writes it, rounded
 * exactly from the integers: a half rounds up (217 of 2000 is "10.9%",
 * where printf's "%.1f" of the double 10.85 gives "10.8"). */
FRAY_API const char *fray_sim_share_percent(uint64_t k, uint64_t n,
                                            int decimals, char *out,
                                            size_t size);

/* ---- The setup, for reports -------------------------------------------- */

FRAY_API int fray_towers_setup_sides(const fray_towers_setup *setup);
FRAY_API const char *fray_towers_setup_side_name(const fray_towers_setup *setup,
                                                 int side);
FRAY_API int fray_towers_setup_combatants(const fray_towers_setup *setup);
/* Display name ("bandit 2"), command id ("bandit-2") and side of
 * combatant i; NULL / -1 when there is no such combatant. */
FRAY_API const char *fray_towers_setup_combatant_name(
    const fray_towers_setup *setup, int i);
FRAY_API const char *fray_towers_setup_combatant_id(
    const fray_towers_setup *setup, int i);
FRAY_API int fray_towers_setup_combatant_side(const fray_towers_setup *setup,
                                              int i);
/* The rules name of action kind k ("Attack", "Power Attack", "Combat
 * Move", ...), NULL outside 0..FRAY_SIM_ACTION_KINDS-1. */
FRAY_API const char *fray_towers_action_name(int kind);

/* ---- Sweeps --------------------------------------------------------------- */

/* A copy of a setup that can be changed (fray_towers_setup_vary) without
 * touching the original. Errors: FRAY_ERR_NOMEM. */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_setup_copy(const fray_towers_setup *src,
                                           const fray_allocator *alloc,
                                           fray_towers_setup **out);

/*
 * Changes one number or choice of a setup, for a sweep. key is WHO.FIELD
 * or ITEM.FIELD (docs/file-formats.md "Sweeps"):
 *   WHO   a combatant id ("tony", "bandit-2"), a group of counted
 *         combatants ("bandit": bandit-1, bandit-2, ...), or a stat block
 *         name ("Black Knight"): every combatant it names
 *   FIELD a Combat Value (N PA PD SA ID PX ER IR SPD), an Aspect (HS SS EE
 *         IE SP IP AI II PC), E ([[E]]: maximum STUN and LETHAL follow
 *         when they are [[E]] x 8 and [[E]] + 8), STUN or LETHAL (maximums),
 *         tactics (a preset name), chips (white chips held)
 *   ITEM  a catalog weapon ("longblade"), with FIELD damage, attack,
 *         reach or shots; or armor, with FIELD ER, IR, PD or SPD
 * value is an integer (an optional sign and decimal digits only), or a
 * preset name for tactics. Errors (the setup is
 * unchanged): FRAY_ERR_PARSE (diag names the token that matches nothing
 * or is ambiguous), FRAY_ERR_RANGE (a value the loader would refuse).
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_setup_vary(fray_towers_setup *setup,
                                           const char *key,
                                           const char *value,
                                           fray_diag *diag);

/*
 * Whom a sweep's key changes, in rules words, for the report (issue 15):
 * "the combatant Sir Aldric", "every combatant of the group bandit:
 * bandit 1, bandit 2", "every combatant carrying a longblade: Sir Aldric,
 * bandit 1", "the whole encounter (an option)". Written snprintf-style
 * into buf (cut at size - 1 characters). Errors: FRAY_ERR_PARSE for a key
 * that names nothing here (diag: which part, and "did you mean" the
 * nearest key there is), FRAY_ERR_INVALID. The setup is only read;
 * thread-safe.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_setup_vary_scope(
    const fray_towers_setup *setup, const char *key, char *buf, size_t size,
    fray_diag *diag);
/* The same for a setup of any ruleset (include/fray/fight.h); a ruleset
 * that cannot tell writes "" and returns FRAY_OK. */
FRAY_API FRAY_MUST_CHECK fray_status fray_setup_vary_scope(
    const fray_setup *setup, const char *key, char *buf, size_t size,
    fray_diag *diag);

/* A sweep's LIST, expanded: at most FRAY_VARY_MAX_VALUES values of
 * fewer than FRAY_VARY_VALUE_SIZE bytes each. */
enum { FRAY_VARY_MAX_VALUES = 200, FRAY_VARY_VALUE_SIZE = 32 };

typedef struct fray_vary_list {
    int n;
    char value[FRAY_VARY_MAX_VALUES][FRAY_VARY_VALUE_SIZE];
} fray_vary_list;

/*
 * Expands the LIST of `--vary KEY=LIST` (docs/file-formats.md "Sweeps"):
 * comma-separated items, each a range LO..HI of whole numbers (an
 * optional sign and decimal digits, no spaces; every value of
 * -2^63 .. 2^63 - 1 is read exactly, LO <= HI) or one value as written (a
 * number or a word such as a tactics preset; fray_towers_setup_vary reads
 * it). Ranges are counted before they are expanded, so a range of more
 * values than a sweep holds is refused with its size, never walked.
 * Errors (out->n is then 0, diag->message says which item and why):
 * FRAY_ERR_PARSE (an empty or too long item, a range that is not two
 * whole numbers), FRAY_ERR_RANGE (a range that runs backwards, more than
 * FRAY_VARY_MAX_VALUES values in all). No allocation; thread-safe.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_vary_list(const char *list,
                                           fray_vary_list *out,
                                           fray_diag *diag);

/*
 * Starts a fight again as trial `trial` of a simulation with master seed
 * `seed`: the same decks and cards as that trial of fray_towers_sim (the
 * fight's own seed, fray_towers_fight_seed, stays `seed`). No allocation.
 * Errors as fray_towers_fight_reset.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_fight_reset_trial(fray_towers_fight *fight,
                                                   uint64_t seed,
                                                   uint64_t trial);

#ifdef __cplusplus
}
#endif
#endif
