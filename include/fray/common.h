/*
 * fray/common.h - things every part of the fray API shares: the export
 * macro, status codes, diagnostics, the allocator hook and exact numbers.
 *
 * Thread-safety: everything declared here is pure or works only on the
 * objects passed in; fray keeps no global state.
 */
#ifndef FRAY_COMMON_H
#define FRAY_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(FRAY_BUILDING) && defined(__GNUC__)
#define FRAY_API __attribute__((visibility("default")))
#else
#define FRAY_API
#endif

/* A status that must be looked at: the compiler warns when a caller drops
 * it (GCC and Clang also warn when it is cast to void), so that no error
 * goes unseen (docs/reliability.md). */
#if defined(__GNUC__)
#define FRAY_MUST_CHECK __attribute__((warn_unused_result))
#else
#define FRAY_MUST_CHECK
#endif

/* Status codes: one X-macro list feeds the enum and fray_strerror(). */
#define FRAY_STATUS_LIST(X)                                                   \
    X(FRAY_OK, "success")                                                     \
    X(FRAY_ERR_NOMEM, "out of memory")                                        \
    X(FRAY_ERR_INVALID, "invalid argument")                                   \
    X(FRAY_ERR_PARSE, "the text could not be read")                           \
    X(FRAY_ERR_RANGE, "a number is out of the allowed range")                 \
    X(FRAY_ERR_DECK_EMPTY, "not enough cards left in the deck")               \
    X(FRAY_ERR_CARD_UNAVAILABLE, "that card is not available in the deck")    \
    X(FRAY_ERR_TOO_LARGE, "too many outcomes to count exactly")             \
    X(FRAY_ERR_CANCELED, "stopped on request")                               \
    X(FRAY_ERR_IO, "a file or the disk could not be used")

typedef enum fray_status {
#define FRAY__STATUS_ENUM(name, text) name,
    FRAY_STATUS_LIST(FRAY__STATUS_ENUM)
#undef FRAY__STATUS_ENUM
} fray_status;

/* A static English description of a status code; never NULL. */
FRAY_API const char *fray_strerror(fray_status status);

/*
 * Details of an error in user input. line and column are 1-based, 0 when
 * not known. `message` is always NUL-terminated.
 *
 * The file at fault: read it with fray_diag_file(). An error may lie in a
 * file the caller did not name (a stat-block file or a catalog that an
 * encounter names), whose path exists only while loading: `file_name`
 * then holds a copy of it (cut at its start, after "...", when longer than
 * 255 bytes) and `file` is NULL. Otherwise `file_name` is empty and `file`
 * is the caller's own string, borrowed (NULL for command-line text). So a
 * copy of a fray_diag is as valid as the original: nothing in it points
 * into the struct itself. (`file_name` is new in 0.1.0: code that reads
 * only `file` misses the files the caller did not name.)
 */
typedef struct fray_diag {
    const char *file;
    int line;
    int column;
    char message[256];
    char file_name[256];
} fray_diag;

/* The file at fault: file_name when it is set, else file (NULL when the
 * error is in no file, and for a NULL diag). Valid as long as the diag
 * (or a copy of it) and, for a path the caller passed, the caller's
 * string. */
FRAY_API const char *fray_diag_file(const fray_diag *diag);

/*
 * The allocation hook, in the manner of lua_Alloc: every allocation fray
 * makes goes through it. realloc(ud, NULL, 0, n) allocates; realloc(ud, p,
 * old, 0) frees and returns NULL; otherwise it resizes. A NULL allocator
 * pointer anywhere in the API means the C library's malloc/free.
 */
typedef void *(*fray_realloc_fn)(void *ud, void *ptr, size_t old_size,
                                 size_t new_size);
typedef struct fray_allocator {
    fray_realloc_fn realloc;
    void *ud;
} fray_allocator;

/*
 * Exact numbers. Counts of outcomes can pass 2^64 (two 10-card flips from
 * 54-card decks have about 5.7e20 outcomes), so fray counts in unsigned
 * 128-bit integers; the public form is this portable pair of halves.
 */
typedef struct fray_u128 {
    uint64_t hi;
    uint64_t lo;
} fray_u128;

/* An exact rational number num/den in lowest terms, den > 0. Probabilities
 * are never negative; a mean may be. */
typedef struct fray_ratio {
    fray_u128 num;
    fray_u128 den;
    bool negative;
} fray_ratio;

/* Nearest double to the ratio. */
FRAY_API double fray_ratio_to_double(fray_ratio r);
/* Writes the decimal digits of v into buf (40 bytes always suffice);
 * returns buf. */
FRAY_API char *fray_u128_format(fray_u128 v, char buf[40]);
/* Writes "num/den" (or "-num/den", or just "num" when den is 1) into buf
 * (84 bytes always suffice); returns buf. */
FRAY_API char *fray_ratio_format(fray_ratio r, char buf[84]);
/* 1 - p for a probability p (0 <= p <= 1). */
FRAY_API fray_ratio fray_ratio_one_minus(fray_ratio p);
/* true when a and b are the same number. */
FRAY_API bool fray_ratio_equal(fray_ratio a, fray_ratio b);

#ifdef __cplusplus
}
#endif
#endif
