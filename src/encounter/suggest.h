/*
 * suggest.h - "did you mean": the nearest of a set of names to a word a
 * user typed, by edit distance (insertions, deletions, substitutions),
 * without case and with a space and a hyphen alike (`--vary` keys match
 * so: "black-knight.E" names the stat block "Black Knight").
 *
 * Feed the names one at a time (they may be made on the fly, e.g. every
 * WHO.FIELD of an encounter); the nearest is kept as a copy. Nothing is
 * allocated; no globals.
 */
#ifndef FRAY_SUGGEST_H
#define FRAY_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

enum { FRAY__NEAR_MAX = 96 }; /* longer names and words are never near */

typedef struct fray__near {
    char word[FRAY__NEAR_MAX];
    char best[FRAY__NEAR_MAX];
    int best_d;      /* its distance; larger than any when none yet */
    bool usable;     /* the word fits */
} fray__near;

void fray__near_init(fray__near *n, const char *word);
/* Considers one name; the first of equally near names is kept. */
void fray__near_try(fray__near *n, const char *name);
/* The nearest name when it is near enough to suggest (at most 3 edits,
 * and at most a third of its length: "aldrc" -> "aldric", not "PA" ->
 * "SA"), else NULL. A name equal to the word is no suggestion. The
 * pointer is into n. */
const char *fray__near_best(const fray__near *n);
/* Puts " (did you mean 'BEST'?)" into an error message after its first
 * clause (before "; ...", so that a long list after it cannot cut the
 * hint off), bounded by size (the message's room). Nothing when best is
 * NULL. */
void fray__near_hint(char *msg, size_t size, const char *best);
/* The distance the helper uses (exposed for tests): -1 when either is
 * longer than FRAY__NEAR_MAX - 1. */
int fray__near_distance(const char *a, const char *b);

#endif
