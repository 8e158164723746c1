/*
 * ruleset.h - what a ruleset gives the shared encounter layer, and what
 * that layer does with it (docs/architecture.md "Rulesets").
 *
 * A ruleset fills one fray__ruleset, a table of functions over its own
 * opaque setup and fight, as SQLite's sqlite3_vfs does for a platform;
 * the layer (src/encounter/) never names a ruleset, and a ruleset never
 * reaches into the layer. The registry (rulesets.c) lists the tables; the
 * public API (include/fray/fight.h: fray_setup, fray_fight, fray_sim)
 * finds a file's ruleset by its `rules:` word and calls through the table.
 *
 * Words used below:
 *   setup   the ruleset's immutable loaded files (void *, its own type)
 *   rfight  the ruleset's part of one fight: its flat state, its random
 *           stream, its scratch event (the event being applied) and any
 *           caches. The journal is NOT in it: the layer keeps the journal
 *           (src/encounter/fight.c) as packed events, byte strings the
 *           ruleset packs and reads back.
 *   event   one command with every die rolled or card turned, every choice
 *           and every fact: applying it again to the state before it gives
 *           the identical state after it.
 *   given   randomness the players made by hand (cards flipped, dice
 *           rolled), used in order instead of drawing.
 *
 * Every function returning fray_status refuses without changing anything
 * it was given, unless it says otherwise. Nothing here is thread-safe for
 * one rfight; a setup is read by any number of threads.
 */
#ifndef FRAY_RULESET_H
#define FRAY_RULESET_H

#include <stdatomic.h>

#include "fray/duel.h"
#include "fray/fight.h"
#include "fray/sim.h"

struct fray__jline; /* jread.h: a journal line being read */
struct fray_fight_view; /* fray/view.h: a fight as data */
struct fray__files; /* yaml_read.h: the files a load read */
struct fray_chances;    /* fray/chances.h: the odds at the table */

/* How a fight is made (fray_fight_options, plus what only the layer
 * asks). */
typedef struct fray__fight_opts {
    bool facts;              /* record facts (narration, JSON); off in simulation */
    bool record;             /* the layer keeps a journal: every event must
                                pack whole (event_pack), facts included */
    int until;               /* stop at this time (phase, round; 0: the encounter's limit) */
    const atomic_bool *cancel; /* looked at now and then while running: FRAY_ERR_CANCELED */
    /* The layer's fight that holds this one (layer.h), for a ruleset
     * that keeps an older API of its own over the layer (99 Towers'
     * fray_towers_fight_*); never NULL here (simulation fights are made by
     * sim_fight_new). */
    struct fray_fight *owner;
} fray__fight_opts;

typedef struct fray__ruleset {
    const char *name;   /* the word in files: "towers", "alloy" */
    const char *title;  /* the name users read: "99 Towers", "Alloy" */
    const char *time_unit;   /* "phase", "round": what `until` and lengths count */
    const char *randomness;  /* "decks", "dice": what a seed shuffles or rolls */

    /* ---- Setup -------------------------------------------------------- */
    /* Loads the file at path (an encounter, or for check a stat-block or
     * catalog file) with every file it names. Errors with file:line:column
     * in diag (FRAY_ERR_PARSE, FRAY_ERR_RANGE, FRAY_ERR_NOMEM). */
    fray_status (*load)(const char *path, const fray_allocator *alloc,
                        void **out, fray_diag *diag);
    /* Checks any file of the ruleset without keeping it; on success
     * diag->message holds a one-line summary. */
    fray_status (*check)(const char *path, fray_diag *diag);
    void (*setup_free)(void *setup);
    fray_status (*setup_copy)(const void *setup, const fray_allocator *alloc,
                              void **out);
    /* One number or preset changed (sweeps); unknown keys are refused with
     * the key named and the keys there are listed. */
    fray_status (*vary)(void *setup, const char *key, const char *value,
                        fray_diag *diag);
    const char *(*setup_name)(const void *setup);
    bool (*setup_seed)(const void *setup, uint64_t *out);
    int (*sides)(const void *setup);
    const char *(*side_name)(const void *setup, int side);
    int (*combatants)(const void *setup);
    const char *(*combatant_name)(const void *setup, int i); /* "bandit 2" */
    const char *(*combatant_id)(const void *setup, int i);   /* "bandit-2" */
    int (*combatant_side)(const void *setup, int i);

    /* ---- Fights --------------------------------------------------------- */
    /* The most bytes one packed event can take (the layer reserves room
     * for one before each step, so a journal that cannot grow fails the
     * step before anything changed). */
    size_t event_max;
    fray_status (*fight_new)(const void *setup, const fray__fight_opts *o,
                             const fray_allocator *alloc, void **out);
    void (*fight_free)(void *rfight);
    /* The start of a fight: the state from the setup, the stream from
     * (seed, trial) (fray_rng_for_trial; trial 0 for fray fight), and the
     * begin event (initiative) applied into the scratch event. No
     * allocation. */
    fray_status (*begin)(void *rfight, uint64_t seed, uint64_t trial,
                         const fray_given *given);
    bool (*over)(const void *rfight);
    /* The winning side, -1 when none (not over, or the time limit), -2
     * when every side is out. */
    int (*winner)(const void *rfight);
    int (*now)(const void *rfight);   /* the current phase or round */
    /* Whose turn it is (display name, borrowed from the setup) and, in
     * when (may be NULL), the time in words ("phase 12", "round 2, count
     * 17"); NULL when over or nobody can act. */
    const char *(*turn)(const void *rfight, char *when, size_t size);
    /* One step by the tactics policies (the clock or round moves on, or
     * whoever's turn it is acts), into the scratch event. */
    fray_status (*step)(void *rfight);
    /* One table command in rules words (docs/file-formats.md "Commands"),
     * with the randomness given by hand, into the scratch event. Errors:
     * FRAY_ERR_PARSE (diag names the token), FRAY_ERR_INVALID (not allowed
     * now, said in rules words), given randomness that does not fit. */
    fray_status (*command)(void *rfight, const char *text,
                           const fray_given *given, fray_diag *diag);
    /* The event the last begin, step or command made, packed into out
     * (at most event_max bytes); returns its length, 0 when that call
     * made no event (a step that found the time limit, say). */
    size_t (*event_pack)(const void *rfight, uint8_t *out);
    /* Applies a recorded (packed) event again: with is_begin, the begin
     * event to the fight started afresh from (seed, trial) (the state
     * reset, the stream fray_rng_for_trial, any failed status cleared);
     * any other after the events before it. Drawn randomness is drawn
     * again and must match; given randomness is used as recorded; the
     * event is left as the one just made (event_pack packs it with what
     * it told). FRAY_ERR_INVALID when it does not apply (diag, may be
     * NULL, says why in rules words). */
    fray_status (*replay)(void *rfight, const uint8_t *ev, size_t len,
                          bool is_begin, uint64_t seed, uint64_t trial,
                          fray_diag *diag);
    /* A whole fight by the policies with nothing recorded (the
     * simulation's fast path); NULL: the layer steps. */
    fray_status (*run_quiet)(void *rfight);
    /* true when two fights are in the identical state. */
    bool (*same)(const void *a, const void *b);
    /* Why the last step failed, in rules words (a tactics command the
     * rules refused, and why), snprintf-style; NULL or 0: nothing to add
     * to the status. */
    size_t (*failure)(const void *rfight, char *buf, size_t size);

    /* ---- Telling (packed events; the setup for names) ----------------- */
    const char *(*event_action)(const void *setup, const uint8_t *ev,
                                size_t len);   /* "begin", "attack", ... */
    size_t (*event_narrate)(const void *setup, const uint8_t *ev, size_t len,
                            char *buf, size_t size);
    /* One JSON object on one line (docs/journal.md), snprintf-style. */
    size_t (*event_json)(const void *setup, const uint8_t *ev, size_t len,
                         char *buf, size_t size);
    /* A journal line's JSON object (a jansson json_t *, as void * so that
     * this header needs no jansson) back into a packed event; every field
     * checked; errors name the field (fray__jfield_error, jread.h). */
    fray_status (*event_read)(const void *setup, const struct fray__jline *l,
                              const void *json_object, uint8_t *out,
                              size_t *out_len, fray_diag *diag);
    size_t (*draw_time)(const void *rfight, char *buf, size_t size);
    size_t (*draw_map)(const void *rfight, char *buf, size_t size);
    size_t (*summary)(const void *rfight, char *buf, size_t size);

    /* ---- Simulation (sim.c) -------------------------------------------- */
    /* A fight for one worker thread: no journal, no facts. */
    fray_status (*sim_fight_new)(const void *setup, uint64_t seed,
                                 int until, const atomic_bool *cancel,
                                 const fray_allocator *alloc, void **out);
    /* Trial `trial` of `seed`: its stream fray_rng_for_trial(seed, trial);
     * nothing allocated. */
    fray_status (*reset_trial)(void *rfight, uint64_t seed, uint64_t trial);
    /* To the end of the fight (or its time limit). */
    fray_status (*run)(void *rfight);
    /* The finished fight's numbers, added into c (c->trials included). */
    void (*count)(const void *rfight, fray_sim_counts *c);
    /* The rules name of action kind k (< FRAY_SIM_ACTION_KINDS), NULL past
     * the last; of harm track k (< FRAY_SIM_HARM_KINDS: "STUN", "LETHAL";
     * "damage"), NULL when the ruleset has no such track; of spent
     * resource k (< FRAY_SIM_SPENT_KINDS: "Hand of Fate cards", "chips";
     * "action points", "healing surges"), NULL likewise. */
    const char *(*action_name)(int kind);
    const char *(*harm_name)(int k);
    const char *(*spent_name)(int k);

    /* ---- Exact odds (optional: NULL) ----------------------------------- */
    /* The exact chance each of combatants a and b wins toe to toe, as
     * fray_duel_odds says (include/fray/duel.h), with at most max_states
     * chain states; estimate: the states it would take. */
    fray_status (*duel_odds)(const void *setup, int a, int b, long max_states,
                             fray_duel_odds *out, fray_diag *diag);
    /* What the exact duel assumes, in rules words ("each flip from a
     * fresh deck; no Hand of Fate ..."), for its report. */
    const char *duel_assumed;
    fray_status (*duel_estimate)(const void *setup, int a, int b,
                                 double *out_states, fray_diag *diag);
    /* A duel of two stat blocks from two files (fray odds duel A.yaml a
     * B.yaml b), with their tactics (NULL: each block's own). */
    fray_status (*duel_setup)(const char *path_a, const char *name_a,
                              const char *path_b, const char *name_b,
                              const char *tactics_a, const char *tactics_b,
                              const fray_allocator *alloc, void **out,
                              fray_diag *diag);

    /* ---- A fight as data (include/fray/view.h; optional: NULL) ------- */
    /* Fills the view the layer made (view_build.h): the layer has set the
     * fight's ruleset, time, winner, turn words, sides, and each
     * combatant's index, id, name and side; the ruleset sets the rest
     * (whose turn, health, time track, map, conditions, resources,
     * weapons, hands, actions) from its state, changing nothing.
     * FRAY_ERR_NOMEM when the view's memory runs out. */
    fray_status (*view)(const void *rfight, struct fray_fight_view *out);
    /* ---- Simulation reports (issue 15; optional: NULL) ------------------ */
    /* What how-it-ended state k (fray_sim_state) means in this ruleset,
     * for the report's legend; NULL: the plain word. */
    const char *(*state_meaning)(int k);
    /* Whom a sweep's key changes, in rules words ("every combatant
     * carrying a longblade: Sir Aldric, bandit 1"; "the whole
     * encounter"), snprintf-style into buf; an unknown key is
     * FRAY_ERR_PARSE with a "did you mean" for a near name. */
    fray_status (*vary_scope)(const void *setup, const char *key, char *buf,
                              size_t size, fray_diag *diag);
    /* ---- Exact fractions of a duel (issue 15; optional: NULL) ----------- */
    /* duel_odds, and the same odds as fractions (include/fray/duel.h
     * fray_duel_exact), with at most max_states states (0:
     * FRAY_DUEL_EXACT_MAX_STATES). */
    fray_status (*duel_exact)(const void *setup, int a, int b, long max_states,
                              fray_duel_odds *out, struct fray_duel_exact *exact,
                              fray_diag *diag);
    /* ---- The files a setup read (issue 14; optional: NULL) ------------ */
    /* load, adding every file it read from the disk to files (the file at
     * path first; yr.files does it for a loader on yaml_read.h): what
     * fray_setup_file_path lists. NULL: the layer uses load and says it
     * does not know (fray_setup_file_count -1). */
    fray_status (*load_files)(const char *path, const fray_allocator *alloc,
                              void **out, struct fray__files *files,
                              fray_diag *diag);
    /* ---- Whom an event names (issue 14; optional: NULL) --------------- */
    /* Sets named[k] (room for the setup's combatants; the rest false)
     * for every combatant the packed event points at: its actor, its
     * targets, anyone its choices or facts tell of; returns how many.
     * NULL: fray_event_names says it does not know (-1). */
    int (*event_names)(const void *setup, const uint8_t *ev, size_t len,
                       bool *named);
    /* ---- At the table: chances and forecasts (issue 19; optional) ------ */
    /* The exact chances (include/fray/chances.h) of `command` (table
     * words without the actor) taken by combatant `who` now, into out[0]
     * (*n = 1); with command NULL, every option of `who` the ruleset
     * counts, at most max of them, into out[0 .. *n - 1], unranked (an
     * empty list is no error). Reads the fight, changes nothing. */
    fray_status (*chances)(const void *rfight, int who, const char *command,
                           struct fray_chances *out, int max, int *n,
                           fray_diag *diag);
    /* A simulation fight (made by sim_fight_new over the same setup) put
     * in the state of fight `from` (any fight of the setup), with the
     * randomness the table has not seen drawn anew from (seed, trial)
     * (fray_rng_for_trial): nothing of `from`'s hidden order is kept, so
     * two fights that differ only in it give the same state. Then run
     * and count go on from there. No allocation. */
    fray_status (*sim_from)(void *rfight, const void *from, uint64_t seed,
                            uint64_t trial);
    /* ---- Narration for a scope (issue 14; optional: NULL) ------------- */
    /* event_narrate, with the exact STUN, LETHAL, HP, Health and Pain
     * numbers (and resources) of every combatant k with hide[k] told as
     * the view's descriptors ("hurt", "badly hurt") instead; every card,
     * die, hit and miss as event_narrate tells them. hide has room for
     * the setup's combatants. NULL: fray_event_narrate_for refuses. */
    size_t (*event_narrate_hidden)(const void *setup, const uint8_t *ev,
                                   size_t len, const bool *hide, char *buf,
                                   size_t size);
    /* state_meaning for one encounter (its loaded data), when the
     * meaning depends on it; NULL: state_meaning. */
    const char *(*state_meaning_of)(const void *data, int k);
} fray__ruleset;

/* The registry (rulesets.c): every ruleset built, NULL-terminated. */
extern const fray__ruleset *const fray__rulesets[];
/* The table for a `rules:` word; NULL when none (the caller says which
 * there are). */
const fray__ruleset *fray__ruleset_find(const char *name);

/*
 * Runs trials first_trial .. first_trial + trials - 1 of the setup on
 * worker threads, as fray_sim.h says of fray_sim: one fight per
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
