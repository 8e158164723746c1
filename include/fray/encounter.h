/*
 * fray/encounter.h - 99 Towers encounters: load stat blocks, a catalog and
 * an encounter from files, run the fight on the Combat Clock and the
 * tactical map, record every step as an event, replay, undo and redo
 * (seed 000; docs/architecture.md "Encounters"; docs/file-formats.md).
 *
 * What every ruleset does is in fray/fight.h (fray_setup, fray_fight),
 * the shared layer that keeps the journal, undo, redo and replay; the
 * fray_towers_fight_* functions are 99 Towers' API over it (a
 * fray_towers_fight is held by a fray_fight, and each call goes through
 * it), kept for what only 99 Towers has and for callers written before.
 *
 * Two objects:
 *   fray_towers_setup  what the files say. Immutable once loaded; may be
 *                      shared by any number of fights (and threads).
 *   fray_towers_fight  one fight: its state, and (when asked for) its
 *                      journal of events. Not thread-safe: one thread per
 *                      fight.
 *
 * A fight changes only by events. Each event is a command (an action by
 * the combatant whose turn it is, or a step of the clock) together with
 * every card turned over and every choice made while it was applied, so
 * that the journal replays to the identical state.
 */
#ifndef FRAY_ENCOUNTER_H
#define FRAY_ENCOUNTER_H

#include "fray/cards.h"
#include "fray/common.h"
#include "fray/grid.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fray_towers_setup fray_towers_setup;
typedef struct fray_towers_fight fray_towers_fight;

/* ---- Loading ------------------------------------------------------------ */

/*
 * Loads an encounter file (YAML or JSON) and every file it names (stat
 * blocks, catalogs), or stat-block / catalog files alone (for checking).
 * The first path must be the encounter. The caller owns *out and frees it
 * with fray_towers_setup_free. Errors: FRAY_ERR_PARSE (diag has
 * file:line:column and what was expected), FRAY_ERR_RANGE, FRAY_ERR_NOMEM.
 * Nothing is half-loaded: on error *out is NULL. When the error is in a
 * file the encounter named, diag->file points into *diag itself (the
 * path is kept after the message), so it is valid as long as that diag
 * struct, not a copy of it.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_load(const char *path,
                                      const fray_allocator *alloc,
                                      fray_towers_setup **out,
                                      fray_diag *diag);
/* Checks any fray file (encounter, stat blocks, catalog) without keeping
 * it. Same errors as fray_towers_load; on success diag->message holds a
 * one-line summary ("encounter \"Duel at the Bridge\": 2 combatants, ..."). */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_check(const char *path, fray_diag *diag);
FRAY_API void fray_towers_setup_free(fray_towers_setup *setup);

/* The encounter's seed when its file gives one. */
FRAY_API bool fray_towers_setup_seed(const fray_towers_setup *setup,
                                     uint64_t *out_seed);
FRAY_API const char *fray_towers_setup_name(const fray_towers_setup *setup);

/* ---- Fights -------------------------------------------------------------- */

typedef struct fray_towers_fight_options {
    bool journal;       /* keep every event (replay, undo, narration) */
    bool facts;         /* record what happened (narration, JSON); off in simulation */
    int until_phase;    /* stop at this phase (0: the encounter's limit) */
} fray_towers_fight_options;

/*
 * A new fight of the setup (borrowed: it must outlive the fight), with the
 * initiative flipped from decks shuffled by `seed`. The caller frees it
 * with fray_towers_fight_free. Errors: FRAY_ERR_NOMEM, or the error of the
 * begin event (the Hand of Fate and initiative flips) when the fight
 * cannot start (*out is then NULL).
 *
 * Memory: the fight itself, the journal when asked for, and, for a fight
 * with neither journal nor facts (a simulation's) of up to four
 * combatants, about 0.7 MB in which it remembers its tactics' decisions
 * from trial to trial (docs/architecture.md "Speed without changing a
 * fight"); without the room for that the fight is only slower, not
 * different.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_fight_new(const fray_towers_setup *setup,
                                           uint64_t seed,
                                           const fray_towers_fight_options *opts,
                                           const fray_allocator *alloc,
                                           fray_towers_fight **out);
/* Starts the fight again with a new seed: no parsing, no allocation
 * (the journal, if any, is emptied but keeps its memory). Returns the
 * error of the begin event when the fight cannot start (its initiative
 * flips failed); the fight then refuses every step (with that error)
 * until it is reset again. */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_fight_reset(fray_towers_fight *fight,
                                             uint64_t seed);
FRAY_API void fray_towers_fight_free(fray_towers_fight *fight);

/* true when one side is out of the fight or the phase limit is reached. */
FRAY_API bool fray_towers_fight_over(const fray_towers_fight *fight);
/* The winning side's index, -1 when none (not over, or the phase limit),
 * -2 when every side is out. */
FRAY_API int fray_towers_fight_winner(const fray_towers_fight *fight);
FRAY_API int fray_towers_fight_phase(const fray_towers_fight *fight);
/* The seed the fight's decks were shuffled with (after a replay: the
 * journal's). */
FRAY_API uint64_t fray_towers_fight_seed(const fray_towers_fight *fight);
/*
 * Whose turn it is: the display name of the combatant who acts next
 * (borrowed from the setup), and in *out_phase (may be NULL) the phase it
 * acts in (later than fray_towers_fight_phase when the clock must move on
 * first). NULL when the fight is over or nobody can act.
 */
FRAY_API const char *fray_towers_fight_turn(const fray_towers_fight *fight,
                                            int *out_phase);

/*
 * One step driven by the tactics policies: the clock moves to the next
 * activation, or the combatant whose turn it is acts as its tactics say.
 * Returns FRAY_OK, FRAY_ERR_INVALID when the fight is over, or the error
 * of a step that failed (FRAY_ERR_NOMEM: the journal could not grow;
 * FRAY_ERR_RANGE: more cards than one event holds; ...). A fight never
 * goes on after a failed step: every later step, run and table command
 * returns the same error, until fray_towers_fight_reset or an undo (which
 * then takes back the failed step: the state before it).
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_fight_step(fray_towers_fight *fight);
/* Steps until the fight is over; errors as fray_towers_fight_step (and
 * FRAY_ERR_CANCELED when fray_towers_fight_options.cancel was set). */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_fight_run(fray_towers_fight *fight);

/*
 * A command from the table, in the words of docs/file-formats.md
 * "Commands", e.g. "tony attack bandit-1", "tony move 4,5",
 * "tony shift 3,3 then attack bandit-1", "tony hold until 25 after ana",
 * "next" (let the clock move on). The players' choices come as words of
 * the command: "fate QH for 4D" (a Hand of Fate card replaces a flipped
 * card), "fate QH reflip", "chip tony shift" / "chip tony flip red",
 * "decline bandit-1" (no opportunity attack); without them nobody uses
 * the Hand of Fate or chips, and every opportunity attack is taken.
 * `cards`, when not NULL, are the cards the
 * players flipped by hand, in order; when NULL the engine flips. Errors,
 * after which the fight is unchanged: FRAY_ERR_PARSE (bad command: diag
 * names the token), FRAY_ERR_INVALID (not allowed now: out of turn, out of
 * range, a choice word that fits no flip ...; diag says why in rules
 * words), FRAY_ERR_DECK_EMPTY /
 * FRAY_ERR_CARD_UNAVAILABLE (bad hand-flipped cards).
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_fight_command(fray_towers_fight *fight,
                                               const char *command,
                                               const fray_card *cards,
                                               size_t n_cards,
                                               fray_diag *diag);

/*
 * The Hand of Fate of the deck combatant `id` flips from (its player's, or
 * the GM's: RULINGS 2), for the table to see: writes up to cap cards,
 * returns how many are held (0 for an unknown id).
 */
FRAY_API size_t fray_towers_fight_hand(const fray_towers_fight *fight,
                                       const char *id, fray_card *out,
                                       size_t cap);

/* ---- The journal ---------------------------------------------------------- */

FRAY_API int fray_towers_fight_events(const fray_towers_fight *fight);
/* Undoes the last event (the clock, durations and decks included), or,
 * after a failed step, that step (the journal keeps its events);
 * FRAY_ERR_INVALID when there is nothing to undo (the start of the fight). */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_fight_undo(fray_towers_fight *fight);
/* Applies the last undone event again; FRAY_ERR_INVALID when none. */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_fight_redo(fray_towers_fight *fight);

/*
 * Renderings, snprintf-style (return the length needed; buf may be NULL
 * when size is 0). Event i counts from 0.
 *   narrate: text for a GM ("Phase 5 - Tony attacks bandit 1: ...").
 *   json:    one JSON object on one line (docs/file-formats.md "Journal").
 *   clock:   the 10x10 Combat Clock of the current round with who sits where.
 *   map:     the tactical map with each combatant's symbol and a legend.
 *   summary: who is standing, STUN/LETHAL, the winner.
 */
/* The action of event i, in the words of the journal: "begin", "phase"
 * (the clock moved on), or an action's name ("attack", "move", ...);
 * NULL when there is no such event. */
FRAY_API const char *fray_towers_event_action(const fray_towers_fight *fight,
                                              int i);
FRAY_API size_t fray_towers_event_narrate(const fray_towers_fight *fight,
                                          int i, char *buf, size_t size);
FRAY_API size_t fray_towers_event_json(const fray_towers_fight *fight, int i,
                                       char *buf, size_t size);
FRAY_API size_t fray_towers_draw_clock(const fray_towers_fight *fight,
                                       char *buf, size_t size);
FRAY_API size_t fray_towers_draw_map(const fray_towers_fight *fight,
                                     char *buf, size_t size);
FRAY_API size_t fray_towers_summary(const fray_towers_fight *fight, char *buf,
                                    size_t size);

/*
 * The journal's lines besides events (docs/journal.md "Marks"), one JSON
 * object, snprintf-style (buf may be NULL when size is 0):
 *   UNDO  {"undo":{"event":N}}   event N, the last, was taken back
 *   REDO  {"redo":{"event":N}}   event N, undone last, was played again
 *   END   {"end":{"events":N}}   the journal is whole: N events
 * A table writes them as it goes, so that the file always replays to the
 * state the game master was last told. Thread-safe (no state).
 */
typedef enum fray_towers_mark {
    FRAY_TOWERS_MARK_UNDO,
    FRAY_TOWERS_MARK_REDO,
    FRAY_TOWERS_MARK_END
} fray_towers_mark;
FRAY_API size_t fray_towers_journal_mark(fray_towers_mark mark, int n,
                                         char *buf, size_t size);

/* The events recorded: fray_towers_fight_events() and, after undos, the
 * undone events kept for redo (fray_towers_event_json renders those too,
 * i up to fray_towers_fight_recorded() - 1). */
FRAY_API int fray_towers_fight_recorded(const fray_towers_fight *fight);

/* What a replay found besides the events. */
typedef struct fray_towers_replay_info {
    int lines;  /* lines read */
    bool ended; /* the journal's end mark (or the summary line of `fray
                   fight --json`) was read: the journal is whole */
    bool torn;  /* its last line was cut in the middle of its writing (no
                   newline, not JSON) and was left out */
} fray_towers_replay_info;

/*
 * Replays a journal written as JSON Lines (fray_towers_event_json and the
 * marks above) onto the fight (which must keep a journal), from the start:
 * every command with its recorded cards and choices, undo and redo as
 * marked; the first line's seed (any unsigned 64-bit number) replaces the
 * fight's. `text` is len bytes (need not be NUL-terminated; a NUL byte in
 * it is an error). Every field is checked (combatants, cards, decks,
 * choices, spaces on the map, numbers in range). out_info (may be NULL)
 * says whether the journal was whole. Errors: FRAY_ERR_PARSE (a line that
 * is not JSON, or a field that cannot be read: diag has the line, the
 * column and the field's name), FRAY_ERR_INVALID (an event or mark does
 * not apply: the journal belongs to another encounter or was edited; a
 * line after the end mark; or the journal is empty), FRAY_ERR_NOMEM. After
 * an error the fight holds the events before the bad line. Not
 * thread-safe for one fight (the fight changes).
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_fight_replay_journal(
    fray_towers_fight *fight, const char *text, size_t len,
    fray_towers_replay_info *out_info, fray_diag *diag);
/* fray_towers_fight_replay_journal of a NUL-terminated journal, without
 * the info. */
FRAY_API FRAY_MUST_CHECK fray_status fray_towers_fight_replay(fray_towers_fight *fight,
                                              const char *jsonl,
                                              fray_diag *diag);

/* The 99 Towers fight inside a fight of the shared layer
 * (include/fray/fight.h) whose setup is of rules towers, for what only 99
 * Towers has (fray_towers_fight_hand, ...); NULL for another ruleset's.
 * Borrowed: it lives as long as that fight. */
struct fray_fight;
FRAY_API fray_towers_fight *fray_towers_fight_of(struct fray_fight *fight);

/* true when two fights are in the identical state (clock, combatants,
 * conditions, decks), for replay checks. */
FRAY_API bool fray_towers_fight_same(const fray_towers_fight *a,
                                     const fray_towers_fight *b);

#ifdef __cplusplus
}
#endif
#endif
