/*
 * jread.h - reading a journal line (JSON Lines, docs/journal.md), for the
 * layer (fight.c: seeds, marks) and for a ruleset's event_read: where a
 * value sits (the column of a message), fields checked with their names.
 *
 * A journal line is read twice: jansson reads the values, and a small
 * scan of the text itself finds what jansson cannot give: where a value
 * sits and seeds past 2^63 (jansson's integers are signed 64-bit; a seed
 * is any unsigned 64-bit number, written in full).
 */
#ifndef FRAY_JREAD_H
#define FRAY_JREAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fray/common.h"

/* A step of a path to a value: an object's key, or (key NULL) an array's
 * element. */
typedef struct fray__jseg {
    const char *key;
    int index;
} fray__jseg;

enum { FRAY__JPATH_MAX = 4 };

/* The line being read: its text as written (no NUL inside, not
 * terminated) and the diag for errors. */
typedef struct fray__jline {
    const char *text;
    size_t len;
    fray_diag *diag;
} fray__jline;

/* The 1-based column of the value at path[0..depth) in the line (a line
 * jansson has read, so well formed), 0 when it is not there. Of a key
 * given twice the last counts, as for jansson. */
int fray__js_column(const fray__jline *l, const fray__jseg *path, int depth);

/* A field that cannot be read: "FIELD: message" at the value's column
 * (FRAY_ERR_PARSE). */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
fray_status fray__jfield_error(const fray__jline *l, const fray__jseg *path,
                               int depth, const char *fmt, ...);

/* The value at the end of path under its parent: an object's member, or an
 * array's element. */
json_t *fray__js_at(json_t *parent, const fray__jseg *last);

/* An integer in [lo, hi]; def when absent (an error when def is out of
 * range: the field is required). `what` (may be NULL) says what the
 * number is, in rules words. */
fray_status fray__jread_int(const fray__jline *l, json_t *parent,
                            const fray__jseg *path, int depth, long long lo,
                            long long hi, long long def, const char *what,
                            long long *out);
/* true or false; false when absent. */
fray_status fray__jread_bool(const fray__jline *l, json_t *parent,
                             const fray__jseg *path, int depth, bool *out);

/* The seed and trial of a line, read from its text (any unsigned 64-bit
 * number). In `copy` (the line jansson then reads) each such number of a
 * key "seed" or "trial", at any depth, becomes a 0 padded with spaces so
 * that columns stay; those of the line's own object are kept. */
typedef struct fray__jseed {
    bool has_seed, has_trial;
    uint64_t seed, trial;
} fray__jseed;
fray_status fray__jscan_seeds(const fray__jline *l, char *copy,
                              fray__jseed *out);

#endif
