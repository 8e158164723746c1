/*
 * track.h - the time track: who acts in what order, for any ruleset
 * (docs/architecture.md "Rulesets": a core piece two rulesets share).
 *
 * A track is a small ordered list of entries (who, key, tie): the
 * combatants of one fight placed in the order they act. It serves
 *   - Alloy's initiative order (seed 004:235): key = the initiative check,
 *     highest first (FRAY__TRACK_DESCENDING), tie = the tie-break (the
 *     initiative modifier, then a die); Delay takes an entry out of the
 *     order and puts it back before another (004:565-579); Ready moves an
 *     entry to just before the one that triggered it (004:656);
 *   - the Combat Clock of 99 Towers (key = the phase, lowest first:
 *     FRAY__TRACK_ASCENDING; tie = minus (the slot in the phase's order
 *     times 32, plus the index), so the lower slot goes first): every
 *     combatant on the clock, kept in place by fray__track_set as its
 *     phase changes and dropped when it falls or holds
 *     (src/rules/towers/engine.c ft_clock_place);
 *   - later, Silent Winter's segments (key = the segment).
 *
 * Order: entries are kept sorted by key (direction per track) and, for
 * equal keys, by tie, higher first; entries with equal key and tie keep
 * the order they were put in (a new one goes after the old ones). Moving
 * an entry before another (fray__track_move_before) places it by position
 * and gives it the other's key and tie, so the order stays sorted.
 *
 * A round is one pass over the track: fray__track_next gives the place
 * after a given place and says when it wraps around to the first.
 *
 * A plain value with a fixed capacity (no allocation): copy it to keep
 * it. Nothing here is thread-safe for one track; different tracks may be
 * used from different threads.
 */
#ifndef FRAY_TRACK_H
#define FRAY_TRACK_H

#include <stdbool.h>
#include <stdint.h>

#include "fray/common.h"

#include <assert.h>

enum { FRAY__TRACK_MAX = 32 };

typedef enum fray__track_dir {
    FRAY__TRACK_DESCENDING, /* the highest key first (initiative) */
    FRAY__TRACK_ASCENDING   /* the lowest key first (phases, segments) */
} fray__track_dir;

typedef struct fray__track_entry {
    int16_t who;   /* the ruleset's combatant index (>= 0) */
    int32_t key;   /* initiative, phase, segment ... */
    int64_t tie;   /* for equal keys: the higher first (wide enough for a
                      ruleset's own order within a key times the combatants) */
} fray__track_entry;

typedef struct fray__track {
    uint8_t dir;   /* fray__track_dir */
    uint8_t n;     /* entries in use: e[0 .. n-1], in order */
    fray__track_entry e[FRAY__TRACK_MAX];
} fray__track;

/* An empty track ordered by dir. */
void fray__track_init(fray__track *t, fray__track_dir dir);

/* Puts `who` in its place by (key, tie). FRAY_ERR_RANGE when the track
 * is full; FRAY_ERR_INVALID when who < 0 or who is already on it. The
 * track is unchanged on error. *out_place (may be NULL) gets the place. */
FRAY_MUST_CHECK fray_status fray__track_insert(fray__track *t, int who,
                                               int32_t key, int64_t tie,
                                               int *out_place);

/* Takes `who` off the track (Delay). FRAY_ERR_INVALID when it is not on. */
FRAY_MUST_CHECK fray_status fray__track_remove(fray__track *t, int who);

/* The place of `who` (0 is first), -1 when it is not on the track. */
int fray__track_find(const fray__track *t, int who);

/* Who is at `place`, -1 when place is out of 0 .. n-1. */
int fray__track_who(const fray__track *t, int place);

/* Moves `who` (on the track or not) to the place just before `before`
 * (which must be on it and differ from who), with before's key and tie
 * (Ready: "directly before the creature that triggered"; Delay: coming
 * back before the next one). FRAY_ERR_INVALID when before is not on the
 * track or equals who; FRAY_ERR_RANGE when who is new and the track is
 * full. *out_place (may be NULL) gets who's new place. */
FRAY_MUST_CHECK fray_status fray__track_move_before(fray__track *t, int who,
                                                    int before,
                                                    int *out_place);

/* Sets the key and tie of `who` and puts it in its new place (a
 * ruleset's "your initiative changes"). FRAY_ERR_INVALID when not on. */
FRAY_MUST_CHECK fray_status fray__track_rekey(fray__track *t, int who,
                                              int32_t key, int64_t tie);

/* true when an entry (key, tie) goes strictly before entry e. */
static inline bool fray__track_goes_before(const fray__track *t, int32_t key,
                                           int64_t tie,
                                           const fray__track_entry *e) {
    if (key != e->key)
        return t->dir == FRAY__TRACK_ASCENDING ? key < e->key : key > e->key;
    return tie > e->tie;
}

/* true when the track's order holds: every entry in order by (key, tie)
 * and no combatant twice (tests and journal checks). */
bool fray__track_valid(const fray__track *t);

/* fray__track_set the long way, one step of an insertion sort: the entry
 * moves from where it was (or the end) toward its place one entry at a
 * time, the others shift by one; a new or moved entry goes after those
 * equal to it. fray__track_set must give the same track (checked at each
 * call in Debug builds and side by side in tests/unit/test_track.c). */
static inline void fray__track_set_stepwise(fray__track *t, int who,
                                            int32_t key, int64_t tie) {
    assert(who >= 0 && who < FRAY__TRACK_MAX);
    int w = 0;
    while (w < t->n && t->e[w].who != who)
        w++;
    if (w == t->n) {
        assert(t->n < FRAY__TRACK_MAX);
        t->n++;
    }
    while (w > 0 && fray__track_goes_before(t, key, tie, &t->e[w - 1])) {
        t->e[w] = t->e[w - 1];
        w--;
    }
    while (w + 1 < t->n &&
           !fray__track_goes_before(t, key, tie, &t->e[w + 1])) {
        t->e[w] = t->e[w + 1];
        w++;
    }
    t->e[w] = (fray__track_entry){(int16_t)who, key, tie};
}

/* fray__track_set on a track of more than FRAY__TRACK_FEW entries
 * (track.c): the same track as fray__track_set_stepwise, but the entry's
 * neighbour before it says which way it moves, its place is found by
 * halving that side (the entries there are in order, so "goes before
 * e[i]" is false up to some place and true from there on) and the ones it
 * passes shift by one in a single move. */
void fray__track_set_halving(fray__track *t, int who, int32_t key,
                             int64_t tie);

/* Puts `who` at its place by (key, tie), whether it is on the track or
 * not (the Combat Clock after any change of a combatant's phase). It
 * cannot fail: who must be 0 .. FRAY__TRACK_MAX - 1, so that at most
 * FRAY__TRACK_MAX different entries exist (asserted). Inline: the Combat
 * Clock calls it at every activation.
 *
 * Issue 16: a small track (a duel) takes the insertion step inline; a
 * larger one (a crowd, where the actor moves from the front past many)
 * is placed by fray__track_set_halving. Both give the same track, ties
 * included: a new or moved entry goes after those equal to it. */
enum { FRAY__TRACK_FEW = 4 };

static inline void fray__track_set(fray__track *t, int who, int32_t key,
                                   int64_t tie) {
    assert(who >= 0 && who < FRAY__TRACK_MAX);
#ifndef NDEBUG
    assert(fray__track_valid(t));
    fray__track slow = *t;
    fray__track_set_stepwise(&slow, who, key, tie);
#endif
    if (t->n > FRAY__TRACK_FEW)
        fray__track_set_halving(t, who, key, tie);
    else
        fray__track_set_stepwise(t, who, key, tie);
#ifndef NDEBUG
    assert(slow.n == t->n);
    for (int i = 0; i < t->n; i++)
        assert(slow.e[i].who == t->e[i].who && slow.e[i].key == t->e[i].key &&
               slow.e[i].tie == t->e[i].tie);
#endif
}

/* Takes `who` off the track if it is on; true when it was (one who
 * leaves the clock: out of the fight, or holding). */
bool fray__track_drop(fray__track *t, int who);

/* The place after `place` (place -1: the first). When it runs past the
 * last it wraps to 0 and *out_wrapped (may be NULL) is set true: a new
 * round. -1 on an empty track. */
int fray__track_next(const fray__track *t, int place, bool *out_wrapped);

#endif
