/*
 * cond.h - conditions with durations, for any ruleset
 * (docs/architecture.md "Core pieces two rulesets share").
 *
 * A combatant's conditions are a short list of entries (fray__cond) the
 * ruleset keeps in its own per-combatant state, with its own capacity:
 * 99 Towers' Bleeding 2 until removed or Stunned until the end of its own
 * next activation (seed 000 "Conditions"), Alloy's dazed until the end of
 * the attacker's next turn, "save ends", sustained grapples and the
 * surprise round's Surprised (seed 004:904-1038). The kinds are the
 * ruleset's; what is shared is the entry, how one ends, and the list's
 * operations: find, put, drop (keeping the order of the rest), the mask
 * of kinds present, and the tick at the start or end of someone's turn
 * that counts durations down and takes off those that run out.
 *
 * How the same condition put twice combines is the ruleset's rule:
 * 99 Towers keeps the larger value and the longer duration of one entry
 * per kind; Alloy keeps one entry per kind, source and target, the new
 * replacing the old. Each does it with find and its own few lines.
 *
 * Plain values, no allocation; nothing here is thread-safe for one list.
 */
#ifndef FRAY_COND_H
#define FRAY_COND_H

#include <stdbool.h>
#include <stdint.h>

#include "fray/common.h"
#include "fray/grid.h"

/* How a condition ends. The first three are every ruleset's; the rest
 * are Alloy's words (a save, a sustain, the end of a round, a use). */
typedef enum fray__ends {
    FRAY__ENDS_EVENT,         /* when something ends it (an action, a rule) */
    FRAY__ENDS_START_OF_TURN, /* at the start of `whose` turn, `count` turns from now */
    FRAY__ENDS_END_OF_TURN,   /* at the end of `whose` turn, `count` turns from now */
    FRAY__ENDS_SAVE,          /* a saving throw ends it */
    FRAY__ENDS_SUSTAIN,       /* while `whose` sustains it */
    FRAY__ENDS_ROUND_END,     /* at the end of round `round` */
    FRAY__ENDS_USED           /* when used once, or at the end of `whose` next turn */
} fray__ends;

typedef struct fray__cond {
    uint8_t kind;      /* the ruleset's condition kind */
    uint8_t ends;      /* fray__ends */
    int8_t whose;      /* START/END_OF_TURN, SUSTAIN, USED: whose turn (-1 none) */
    int8_t count;      /* START/END_OF_TURN: turns of `whose` to go (1: the next) */
    int8_t other;      /* the combatant it concerns (Alloy: the grappler, the
                          enemy an aid is against), -1 none */
    int8_t value;      /* Bleeding X, ongoing damage, a bonus */
    int8_t source;     /* who put it there (-1: nobody, or itself) */
    uint8_t spare;     /* 0: fills what would be padding, so that states
                          holding conditions compare byte by byte */
    int16_t round;     /* ROUND_END: the round it ends with */
    fray_pos at;       /* a place it holds (Alloy's suppressing fire) */
} fray__cond;

_Static_assert(sizeof(fray__cond) == 14, "fray__cond has no padding");

/* The index of the first entry of `kind` (and, when other >= 0, that
 * `other`) among c[0 .. n-1]; -1 when there is none. */
int fray__cond_find(const fray__cond *c, int n, int kind, int other);

/* Bit (1u << kind) for every kind present (kinds 0 .. 31). */
uint32_t fray__cond_mask(const fray__cond *c, int n);

/* Adds x at the end of c[0 .. *n-1]. FRAY_ERR_RANGE when the list holds
 * `cap` entries already (the list is unchanged): a ruleset must say so,
 * never drop a condition silently. */
FRAY_MUST_CHECK fray_status fray__cond_append(fray__cond *c, uint8_t *n,
                                              int cap, fray__cond x);

/* Takes entry i off, the later ones moving up one (their order kept);
 * the freed entry is zeroed. Returns its kind, -1 when i is out of
 * range. */
int fray__cond_drop(fray__cond *c, uint8_t *n, int i);

/* The start (at_end false) or the end (at_end true) of `whose` turn: each
 * entry that ends then (START_OF_TURN or END_OF_TURN of `whose`) counts
 * one turn down, and those that reach 0 come off, in list order. Their
 * kinds go to ended[0 ..] (room for `cap` entries: a list's capacity);
 * returns how many came off. */
int fray__cond_tick(fray__cond *c, uint8_t *n, int whose, bool at_end,
                    uint8_t *ended);

#endif
