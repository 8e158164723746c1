/*
 * fray/chances.h - at the table, the odds (issue 19): the exact chances of
 * one action before it is taken, every option of a combatant ranked, and
 * "who wins from here", a forecast by simulation from the fight's current
 * state (docs/rules/odds-at-the-table.md).
 *
 * The chances of an action read the fight as it stands: the modifiers are
 * the ones the engine would apply to that command now (position, cover,
 * range, size, outnumbering, conditions, stance), the damage the one the
 * engine deals. What a ruleset cannot count exactly is left out and said
 * so, in rules words, in `assumed`.
 *
 * A forecast plays trials from the current state by the tactics `fray sim`
 * uses, each trial with its own stream (fray_rng_for_trial(seed, trial)),
 * with the hidden randomness drawn anew in every trial (99 Towers: the
 * cards not yet turned, shuffled again; Alloy: every die still to come).
 *
 * Thread-safety: the calls read the fight and change nothing; one thread
 * per fight, as always. A forecast runs its own worker threads over copies.
 */
#ifndef FRAY_CHANCES_H
#define FRAY_CHANCES_H

#include <stdatomic.h>

#include "fray/common.h"
#include "fray/fight.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    FRAY_CHANCES_OUTCOMES = 4,   /* miss, hit, critical ... */
    FRAY_CHANCES_DAMAGE = 160,   /* distinct amounts of damage at most */
    FRAY_CHANCES_TEXT = 96,
    FRAY_CHANCES_ASSUMED = 512,
    FRAY_CHANCES_LIST = 64       /* options of one combatant at most */
};

enum {
    FRAY_CHANCES_AREA = 16,        /* creatures caught in an area at most */
    FRAY_CHANCES_AREA_DAMAGE = 48  /* amounts of damage of one creature caught */
};

/* One outcome of the action ("miss", "hit", "critical") and its chance. */
typedef struct fray_chance_outcome {
    char name[24];
    fray_ratio p;            /* exact, in lowest terms */
    double share;            /* the same as a double */
} fray_chance_outcome;

/* One amount of damage dealt (a miss deals 0) and its chance: amount[k]
 * on track k of fray_chances.tracks (99 Towers: STUN, LETHAL; Alloy: hit
 * points). */
typedef struct fray_chance_damage {
    int amount[2];
    fray_ratio p;
    double share;
} fray_chance_damage;

/* One creature caught in an area: its own chances. */
typedef struct fray_chance_target {
    int target;              /* fight index */
    int n_outcomes;
    fray_chance_outcome outcomes[FRAY_CHANCES_OUTCOMES];
    int n_damage;            /* amounts, smallest total first */
    fray_chance_damage damage[FRAY_CHANCES_AREA_DAMAGE];
    double expected[2];
    double p_drop;           /* out of the fight after it; -1 not counted */
    char modifiers[FRAY_CHANCES_TEXT];   /* its defense's, in rules words */
} fray_chance_target;

typedef struct fray_chances {
    int who;                 /* the combatant acting (fight index) */
    int target;              /* the combatant it acts on; -1 none */
    char command[FRAY_CHANCES_TEXT];   /* the command, without the actor: "attack bandit-1" */
    char title[FRAY_CHANCES_TEXT];     /* in rules words: "Power Attack on bandit 1 with Longsword" */
    int n_outcomes;
    fray_chance_outcome outcomes[FRAY_CHANCES_OUTCOMES];
    int n_tracks;            /* 2 (STUN, LETHAL), 1 (hit points) */
    const char *tracks[2];   /* static text */
    int n_damage;            /* amounts, smallest total first */
    fray_chance_damage damage[FRAY_CHANCES_DAMAGE];
    double expected[2];      /* the mean damage on each track */
    /* The chance the target is out of the fight after it (at or below
     * zero hit points; 99 Towers: STUN or LETHAL down to 0); -1 when not
     * counted. */
    double p_drop;
    /* The modifiers the engine applies now, in rules words
     * ("flat-footed (flip+1); outnumbered (shift-1)"). */
    char modifiers[FRAY_CHANCES_ASSUMED];
    /* What the numbers leave out or take as given, in rules words ("each
     * flip from a full shuffled deck; no Hand of Fate card played"). */
    char assumed[FRAY_CHANCES_ASSUMED];
    /* An attack with an area (99 Towers: one attack flip against every
     * creature caught, each with its own defense flip; Alloy: an area
     * power, one attack roll against each): n_area creatures caught, the
     * chances of each (0: the action has no area). The fields above are
     * then the first creature's (the one aimed at when it is caught). */
    int n_area;
    fray_chance_target area[FRAY_CHANCES_AREA];
    /* The joint outcome of an area: area_dropped[k] the chance that
     * exactly k of the creatures caught are out of the fight after it
     * (k = 0 .. n_area); area_dropped[0] -1 when not counted. */
    double area_dropped[FRAY_CHANCES_AREA + 1];
    double area_expected_dropped;   /* the mean number out after it */
    /* (issue 19) The chance the action succeeds, for an action
     * that deals no damage (p_drop -1) and is ranked by it: Alloy's trip,
     * grapple, bull rush, disarm, feint, escape, aid another and a skill
     * used alone; 99 Towers' Grapple Tests, grappling moves and skill
     * flips; Silent Winter's contests (the chance of the outcome that
     * succeeds). D6 gives it for its attacks too (the chance the attack
     * does not miss); they are ranked by p_drop first, as every attack
     * is. -1 when not counted (0 in a struct zeroed by other means:
     * fray_chances_all lists no action ranked by it that cannot succeed). */
    double p_success;
} fray_chances;

/*
 * The exact chances of `command` (the ruleset's table words without the
 * actor: "attack bandit-1", "power-attack bandit-1 with dagger") taken by
 * combatant `who` now (or, when it is not its turn, as if its turn came
 * now). Errors: FRAY_ERR_INVALID (no such combatant, a fight over, a
 * ruleset without chances, a command whose chances are not counted, an
 * action the rules refuse now: each said in rules words in diag),
 * FRAY_ERR_PARSE (the command's words, with the token).
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_action_chances(const fray_fight *fight,
                                                         int who,
                                                         const char *command,
                                                         fray_chances *out,
                                                         fray_diag *diag);

typedef struct fray_chances_list {
    int n;
    fray_chances *items;     /* n of them, best first; freed by fray_chances_list_free */
    fray_allocator alloc;
    /* The room items was allocated with (fray_chances_all: 32, or 64 for
     * a list that fills 32); 0: FRAY_CHANCES_LIST. */
    int capacity;
} fray_chances_list;

/*
 * Every action of `who` whose chances the ruleset counts (99 Towers: an
 * Attack, a Power Attack and an Aim then Attack on each foe it can reach,
 * with the weapon in hand, a spell with an area aimed at each foe, Squeeze
 * and Slam on the one it holds, a Charge on each foe it can charge, a
 * Shift Position then Attack on each foe the Attack cannot reach, an area
 * aimed at the space that catches the most foes;
 * Alloy's basic attack and each attack power
 * on each foe, an area burst centred on its square, a Charge on each foe
 * it can charge, a coup de grace on each helpless foe; then what deals no
 * damage: Alloy's trip, grapple, bull rush, disarm and feint on each foe
 * the rules allow them on now, an escape when grappled, aid to each
 * adjacent ally against each foe next to it; 99 Towers' Initiate a
 * Grapple on each foe and an Escape when held; Silent Winter's Avoid of
 * an Engage declared now, Switch Targets, Disengage, Medicine on one who
 * bleeds), ranked best first: by the chance to drop the
 * target where it is counted, then by the expected damage (both tracks
 * added); the actions that deal no damage after those, by their chance
 * of success (p_success); then by the command's words. Errors as fray_action_chances,
 * FRAY_ERR_NOMEM. An empty list is not an error. The list is allocated
 * with room for 32 (a list that fills it: counted again with room for
 * FRAY_CHANCES_LIST), not cut to n: see `capacity`.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_chances_all(const fray_fight *fight,
                                                      int who,
                                                      const fray_allocator *alloc,
                                                      fray_chances_list *out,
                                                      fray_diag *diag);
FRAY_API void fray_chances_list_free(fray_chances_list *list);

/* The combatant whose id (or name) is `word`, -1 none. */
FRAY_API int fray_fight_combatant_index(const fray_fight *fight,
                                        const char *word);

/* ---- Who wins from here ---------------------------------------------------- */

struct fray_forecast;

typedef struct fray_forecast_opts {
    uint64_t trials;         /* 0: 2000 */
    int threads;             /* 0: every core */
    uint64_t seed;           /* the forecast's master seed */
    /* Called from the calling thread about ten times a second with the
     * trials done so far (may be NULL). */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
    const atomic_bool *cancel;   /* set: stop (FRAY_ERR_CANCELED); may be NULL */
    /* Called from the calling thread with the numbers so far (whole
     * chunks of trials; done false), as often as progress (may be NULL). */
    void (*partial)(void *ctx, const struct fray_forecast *so_far);
} fray_forecast_opts;

enum { FRAY_FORECAST_SIDES = 8, FRAY_FORECAST_COMBATANTS = 64 };

typedef struct fray_forecast_side {
    const char *name;        /* borrowed from the fight's setup
                                (fray_forecast_start_run: from the start's) */
    double p;                /* share of trials this side won */
    double low, high;        /* its 95% Wilson interval */
    uint64_t wins;
} fray_forecast_side;

typedef struct fray_forecast {
    uint64_t trials;         /* trials played */
    bool done;               /* every trial asked for was played */
    int n_sides;
    fray_forecast_side sides[FRAY_FORECAST_SIDES];
    double p_none;           /* no winner: every side out, or the time limit */
    int n_combatants;
    double standing[FRAY_FORECAST_COMBATANTS];  /* share still standing at the end */
    const char *time_unit;   /* "phase", "round" */
    int now;                 /* the fight's time when the forecast began */
    double length;           /* the mean time the fight ends at */
    double length_sd;        /* its standard deviation */
    double trials_per_second;
} fray_forecast;

/*
 * Who wins from here: trials played from the fight's current state to
 * their end by the tactics `fray sim` uses, trial t with its stream
 * fray_rng_for_trial(seed, t) and the hidden randomness drawn anew (the
 * fight's own hidden order of cards is never read: two fights that differ
 * only in it give the same forecast, bit for bit, for one seed and number
 * of trials). Errors: FRAY_ERR_INVALID (the fight is over, a ruleset
 * without forecasts, more sides or combatants than the counts hold),
 * FRAY_ERR_CANCELED (out then holds the trials played so far, done false),
 * FRAY_ERR_NOMEM, or the error of a trial that could not go on.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_forecast_run(const fray_fight *fight,
                                                       const fray_forecast_opts *opts,
                                                       fray_forecast *out,
                                                       fray_diag *diag);

/*
 * A forecast's start taken apart from its run, for a caller that runs it
 * in the background (the browser server): fray_forecast_start_new copies
 * what the forecast needs of the fight now (its setup and its state, the
 * hidden part already drawn away), so that the fight can change or be
 * freed while fray_forecast_start_run runs. fray_forecast_run is the two
 * together. Errors of new: as fray_forecast_run's refusals, FRAY_ERR_NOMEM.
 */
typedef struct fray_forecast_start fray_forecast_start;
FRAY_API FRAY_MUST_CHECK fray_status fray_forecast_start_new(
    const fray_fight *fight, fray_forecast_start **out, fray_diag *diag);
/* (The side names of out are the start's: valid while it lives.) */
FRAY_API FRAY_MUST_CHECK fray_status fray_forecast_start_run(
    const fray_forecast_start *start, const fray_forecast_opts *opts,
    fray_forecast *out, fray_diag *diag);
FRAY_API void fray_forecast_start_free(fray_forecast_start *start);

/* Wilson's 95% interval of k successes in n trials. */
FRAY_API void fray_wilson95(uint64_t k, uint64_t n, double *low, double *high);

#ifdef __cplusplus
}
#endif
#endif
