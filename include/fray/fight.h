/*
 * fray/fight.h - encounters of any ruleset: load a setup, run a fight,
 * journal, replay, undo and redo (docs/architecture.md "Rulesets").
 *
 * A data file names its ruleset (`rules: towers`, `rules: alloy`; a file
 * without the key is 99 Towers). Everything here works the same for every
 * ruleset; what only one ruleset has stays in its own header
 * (fray/encounter.h for 99 Towers' Hand of Fate and Combat Clock).
 *
 * Two objects:
 *   fray_setup  what the files say. Immutable once loaded; may be shared
 *               by any number of fights (and threads).
 *   fray_fight  one fight: its state, and (when asked for) its journal of
 *               events. Not thread-safe: one thread per fight.
 *
 * A fight changes only by events. Each event is a command (an action by
 * the combatant whose turn it is, or a step of the clock or round)
 * together with every card turned, every die rolled and every choice made
 * while it was applied, so that the journal replays to the identical
 * state.
 *
 * Built in src/encounter/ (issue 12's shared layer); 99 Towers is its
 * first ruleset (docs/architecture.md "Rulesets").
 */
#ifndef FRAY_FIGHT_H
#define FRAY_FIGHT_H

#include "fray/cards.h"
#include "fray/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fray_setup fray_setup;
typedef struct fray_fight fray_fight;

/* ---- Setups --------------------------------------------------------------- */

/* Loads an encounter file and every file it names, with the ruleset its
 * `rules:` says. Errors as fray_towers_load: FRAY_ERR_PARSE (file:line:
 * column in diag; an unknown ruleset is named, with the ones there are),
 * FRAY_ERR_RANGE, FRAY_ERR_NOMEM; *out is NULL on error. */
FRAY_API FRAY_MUST_CHECK fray_status fray_setup_load(const char *path,
                                                     const fray_allocator *alloc,
                                                     fray_setup **out,
                                                     fray_diag *diag);
/* Checks any fray file of any ruleset without keeping it; on success
 * diag->message holds a one-line summary that names the ruleset. */
FRAY_API FRAY_MUST_CHECK fray_status fray_setup_check(const char *path,
                                                      fray_diag *diag);
FRAY_API void fray_setup_free(fray_setup *setup);
/* A copy that fray_setup_vary may change (sweeps). */
FRAY_API FRAY_MUST_CHECK fray_status fray_setup_copy(const fray_setup *src,
                                                     const fray_allocator *alloc,
                                                     fray_setup **out);
/* One number or preset changed; the keys are the ruleset's (fray sim
 * --vary); an unknown key is refused and the keys there are listed. */
FRAY_API FRAY_MUST_CHECK fray_status fray_setup_vary(fray_setup *setup,
                                                     const char *key,
                                                     const char *value,
                                                     fray_diag *diag);

FRAY_API const char *fray_setup_rules(const fray_setup *setup);  /* "alloy" */
FRAY_API const char *fray_setup_title(const fray_setup *setup);  /* "Alloy" */
/* What the ruleset's time counts in: "phase" (99 Towers), "round" (Alloy). */
FRAY_API const char *fray_setup_time_unit(const fray_setup *setup);
/* What a seed draws from, in rules words: "decks" (99 Towers), "dice"
 * (Alloy). */
FRAY_API const char *fray_setup_randomness(const fray_setup *setup);
/* What the ruleset's exact duel odds assume, in rules words; "" when it
 * has none. */
FRAY_API const char *fray_setup_duel_assumed(const fray_setup *setup);
FRAY_API const char *fray_setup_name(const fray_setup *setup);
FRAY_API bool fray_setup_seed(const fray_setup *setup, uint64_t *out_seed);
FRAY_API int fray_setup_sides(const fray_setup *setup);
FRAY_API const char *fray_setup_side_name(const fray_setup *setup, int side);
FRAY_API int fray_setup_combatants(const fray_setup *setup);
FRAY_API const char *fray_setup_combatant_name(const fray_setup *setup, int i);
FRAY_API const char *fray_setup_combatant_id(const fray_setup *setup, int i);
FRAY_API int fray_setup_combatant_side(const fray_setup *setup, int i);
/* The ruleset's own setup (a fray_towers_setup * when rules is "towers"),
 * for what only that ruleset has. */
FRAY_API const void *fray_setup_ruleset_data(const fray_setup *setup);

/* ---- Exact duel odds (include/fray/duel.h), when the ruleset has them --------- */

struct fray_duel_odds;
/* The exact chance each of combatants a and b wins toe to toe, as
 * fray_towers_duel_odds_max says, with at most max_states chain states
 * (0: FRAY_DUEL_MAX_STATES). FRAY_ERR_INVALID, "exact duel odds are not
 * built for <title>", for a ruleset without them; otherwise the
 * ruleset's errors. */
FRAY_API FRAY_MUST_CHECK fray_status fray_setup_duel_odds(
    const fray_setup *setup, int a, int b, long max_states,
    struct fray_duel_odds *out, fray_diag *diag);
struct fray_duel_exact;
/* fray_setup_duel_odds, and the same odds as exact fractions (include/
 * fray/duel.h fray_duel_exact: release with fray_duel_exact_free), with
 * at most max_states states (0: FRAY_DUEL_EXACT_MAX_STATES); "not built"
 * as fray_setup_duel_odds. */
FRAY_API FRAY_MUST_CHECK fray_status fray_setup_duel_exact(
    const fray_setup *setup, int a, int b, long max_states,
    struct fray_duel_odds *out, struct fray_duel_exact *exact,
    fray_diag *diag);
/* A duel setup of two stat blocks from two files (fray odds duel A.yaml
 * B.yaml), of the ruleset the first file's `rules:` names; NULL names: the
 * file's only stat block; NULL tactics: each block's own. Errors as
 * fray_setup_load, and the "not built" of fray_setup_duel_odds. */
FRAY_API FRAY_MUST_CHECK fray_status fray_setup_duel(
    const char *path_a, const char *name_a, const char *path_b,
    const char *name_b, const char *tactics_a, const char *tactics_b,
    const fray_allocator *alloc, fray_setup **out, fray_diag *diag);

/* ---- Fights ---------------------------------------------------------------- */

typedef struct fray_fight_options {
    bool journal;   /* keep every event (replay, undo, narration) */
    bool facts;     /* record what happened (narration, JSON) */
    int until;      /* stop at this phase or round (0: the encounter's limit) */
} fray_fight_options;

/* Randomness made by hand at the table: cards flipped and dice rolled, in
 * the order the rules ask for them; the engine draws what is not given.
 * A die given must fit the die asked for (1..sides). */
typedef struct fray_given {
    const fray_card *cards;
    size_t n_cards;
    const int *dice;
    size_t n_dice;
    fray_diag *diag;    /* may be NULL: why the cards or dice given to begin
                           a fight do not fit (fray_fight_new), in rules words */
} fray_given;

/* A new fight of the setup (borrowed: it must outlive the fight), begun
 * with `seed`: initiative is drawn (or, with `given`, taken from the
 * players' cards or dice: 99 Towers' initiative flips and the opening
 * Hand of Fate deal, Alloy's initiative dice; given->diag says why they
 * do not fit). Errors: FRAY_ERR_NOMEM, or the begin event's. */
FRAY_API FRAY_MUST_CHECK fray_status fray_fight_new(const fray_setup *setup,
                                                    uint64_t seed,
                                                    const fray_fight_options *opts,
                                                    const fray_given *given,
                                                    const fray_allocator *alloc,
                                                    fray_fight **out);
FRAY_API FRAY_MUST_CHECK fray_status fray_fight_reset(fray_fight *fight,
                                                      uint64_t seed);
/* Begins the fight again as trial `trial` of a simulation with master
 * seed `seed` (its stream fray_rng_for_trial(seed, trial)), to see one
 * trial told (fray fight --trial); the journal's first line says both. */
FRAY_API FRAY_MUST_CHECK fray_status fray_fight_reset_trial(fray_fight *fight,
                                                            uint64_t seed,
                                                            uint64_t trial);
FRAY_API void fray_fight_free(fray_fight *fight);

FRAY_API const fray_setup *fray_fight_setup(const fray_fight *fight);
FRAY_API bool fray_fight_over(const fray_fight *fight);
/* The winning side, -1 when none, -2 when every side is out. */
FRAY_API int fray_fight_winner(const fray_fight *fight);
/* The current phase (99 Towers) or round (Alloy). */
FRAY_API int fray_fight_now(const fray_fight *fight);
FRAY_API uint64_t fray_fight_seed(const fray_fight *fight);
/* Who acts next (display name) and, in when (may be NULL), when in
 * words ("phase 12", "round 2, initiative 17"); NULL when nobody can. */
FRAY_API const char *fray_fight_turn(const fray_fight *fight, char *when,
                                     size_t size);

/* One step by the tactics policies. FRAY_ERR_INVALID when the fight is
 * over; a failed step stops the fight: every later step and command
 * returns the same error until an undo or a reset. */
FRAY_API FRAY_MUST_CHECK fray_status fray_fight_step(fray_fight *fight);
FRAY_API FRAY_MUST_CHECK fray_status fray_fight_run(fray_fight *fight);
/* After a failed step: what went wrong in the ruleset's words (e.g. the
 * command a combatant's tactics chose and why the rules refuse it),
 * snprintf-style; 0 (and "") when the status says it all. */
FRAY_API size_t fray_fight_failure(const fray_fight *fight, char *buf,
                                   size_t size);
/* A command in the ruleset's words (docs/file-formats.md "Commands"),
 * with the randomness made by hand (given may be NULL). Errors, after
 * which the fight is unchanged: FRAY_ERR_PARSE (diag names the token),
 * FRAY_ERR_INVALID (not allowed now, said in rules words), and the
 * errors of given cards or dice that do not fit. */
FRAY_API FRAY_MUST_CHECK fray_status fray_fight_command(fray_fight *fight,
                                                        const char *command,
                                                        const fray_given *given,
                                                        fray_diag *diag);

/* ---- The journal ------------------------------------------------------------ */

FRAY_API int fray_fight_events(const fray_fight *fight);
/* fray_fight_events: the events applied (0 when the fight keeps no
 * journal). fray_fight_recorded: those plus the undone kept for redo. */
FRAY_API int fray_fight_recorded(const fray_fight *fight);
FRAY_API FRAY_MUST_CHECK fray_status fray_fight_undo(fray_fight *fight);
FRAY_API FRAY_MUST_CHECK fray_status fray_fight_redo(fray_fight *fight);

/* Renderings, snprintf-style (the length needed; buf may be NULL when
 * size is 0). Event i counts from 0, up to fray_fight_recorded() - 1. */
FRAY_API const char *fray_event_action(const fray_fight *fight, int i);
FRAY_API size_t fray_event_narrate(const fray_fight *fight, int i, char *buf,
                                   size_t size);
FRAY_API size_t fray_event_json(const fray_fight *fight, int i, char *buf,
                                size_t size);
/* The time track (99 Towers' Combat Clock; Alloy's initiative order and
 * round), the map, and who stands. */
FRAY_API size_t fray_fight_draw_time(const fray_fight *fight, char *buf,
                                     size_t size);
FRAY_API size_t fray_fight_draw_map(const fray_fight *fight, char *buf,
                                    size_t size);
FRAY_API size_t fray_fight_summary(const fray_fight *fight, char *buf,
                                   size_t size);

/* The journal's lines besides events (docs/journal.md "Marks"). */
typedef enum fray_mark { FRAY_MARK_UNDO, FRAY_MARK_REDO, FRAY_MARK_END } fray_mark;
FRAY_API size_t fray_journal_mark(fray_mark mark, int n, char *buf,
                                  size_t size);

typedef struct fray_replay_info {
    int lines;  /* lines read */
    bool ended; /* the end mark was read: the journal is whole */
    bool torn;  /* its last line was cut in the middle of its writing */
} fray_replay_info;

/* Replays a JSON Lines journal onto the fight (which must keep a
 * journal), from the start; the journal's ruleset must be the fight's.
 * Errors as fray_towers_fight_replay_journal. */
FRAY_API FRAY_MUST_CHECK fray_status fray_fight_replay_journal(
    fray_fight *fight, const char *text, size_t len,
    fray_replay_info *out_info, fray_diag *diag);

/* true when two fights are in the identical state. */
FRAY_API bool fray_fight_same(const fray_fight *a, const fray_fight *b);

/* The files loading the setup read from the disk (issue 14: what a
 * server keeps of a fight): the file it was loaded from first, then every
 * file that file named (catalogs, stat blocks), each once, by its real
 * path (absolute, links resolved). fray_setup_file_count is -1 when the
 * setup's ruleset does not say; fray_setup_file_path NULL past the last.
 * Copies of a setup list the same files. */
FRAY_API int fray_setup_file_count(const fray_setup *setup);
FRAY_API const char *fray_setup_file_path(const fray_setup *setup, int i);

/* Whom event i (0 <= i < fray_fight_events) names, as data (issue 14: a
 * player's log leaves out an event about a combatant the player does not
 * see, whatever words its narration uses): named[k] is set true for each
 * combatant k it points at (its actor, its targets, anyone it tells of),
 * false for the others; size must be at least fray_setup_combatants.
 * Returns how many it names; -1 when the ruleset does not say, size is
 * too small or there is no event i (named then untouched). */
FRAY_API int fray_event_names(const fray_fight *fight, int i, bool *named,
                              int size);

struct fray_view_scope; /* fray/view.h */
/* Event i (0 <= i < fray_fight_events) narrated for a scope (issue 14
 * "never GM-only data"): as fray_event_narrate, byte for byte, when the
 * scope sees every number (the GM, or enemy_numbers true); otherwise the
 * exact STUN, LETHAL, HP, Health and Pain numbers (and resources) of the
 * combatants outside the scope's own sides are told as the view's
 * descriptors ("unhurt", "hurt", "badly hurt", "out"), and every card,
 * die, hit and miss as fray_event_narrate tells them. Which events a
 * scope may read at all (one naming a combatant it does not see) is the
 * caller's to decide (fray_event_names). snprintf-style into buf, the
 * length needed in *out_len. Errors: FRAY_ERR_INVALID for a NULL
 * argument, no event i, or a ruleset that cannot narrate without the
 * numbers (diag may be NULL). */
FRAY_API FRAY_MUST_CHECK fray_status fray_event_narrate_for(
    const fray_fight *fight, int i, const struct fray_view_scope *scope,
    char *buf, size_t size, size_t *out_len, fray_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
