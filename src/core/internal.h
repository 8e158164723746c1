/*
 * internal.h - shared by the modules of libfray, not part of the public API.
 * Double-underscore names are internal but shared between modules.
 */
#ifndef FRAY_INTERNAL_H
#define FRAY_INTERNAL_H

#include "fray/common.h"

#include <stdarg.h>

/* Native 128-bit counts. GCC and Clang provide the type; __extension__
 * keeps -Wpedantic quiet about it. */
__extension__ typedef unsigned __int128 fray__u128;

#define FRAY__U128_MAX (~(fray__u128)0)

static inline fray__u128 fray__u128_from(fray_u128 v) {
    return ((fray__u128)v.hi << 64) | v.lo;
}

static inline fray_u128 fray__u128_to(fray__u128 v) {
    fray_u128 r;
    r.hi = (uint64_t)(v >> 64);
    r.lo = (uint64_t)v;
    return r;
}

/* a * b, false on overflow. */
static inline bool fray__u128_mul(fray__u128 a, fray__u128 b, fray__u128 *out) {
    if (a != 0 && b > FRAY__U128_MAX / a)
        return false;
    *out = a * b;
    return true;
}

/* a + b, false on overflow. */
static inline bool fray__u128_add(fray__u128 a, fray__u128 b, fray__u128 *out) {
    if (b > FRAY__U128_MAX - a)
        return false;
    *out = a + b;
    return true;
}

fray__u128 fray__u128_gcd(fray__u128 a, fray__u128 b);

/* num/den reduced to lowest terms (den 0 is treated as 0/1). */
fray_ratio fray__ratio(fray__u128 num, fray__u128 den, bool negative);

/*
 * Binomial coefficients C(n, k) for n <= FRAY__BINOM_N, k any int (0 when
 * k < 0 or k > n). The table is built on the caller's stack or inside a
 * longer-lived object: no global state.
 */
enum { FRAY__BINOM_N = 64 };
typedef struct fray__binom {
    fray__u128 c[FRAY__BINOM_N + 1][FRAY__BINOM_N + 1];
} fray__binom;
void fray__binom_init(fray__binom *b);
static inline fray__u128 fray__binom_get(const fray__binom *b, int n, int k) {
    if (n < 0 || k < 0 || k > n || n > FRAY__BINOM_N)
        return 0;
    return b->c[n][k];
}

/* Allocation through the fray_allocator hook (NULL = malloc/free). */
void *fray__alloc(const fray_allocator *a, size_t size);
void *fray__realloc(const fray_allocator *a, void *p, size_t old_size,
                    size_t new_size);
void fray__free(const fray_allocator *a, void *p, size_t size);

/* Works out the kept card and the Hearts of flip->cards[0..n_cards) under
 * opts: the first card of the best value is kept (RULINGS 4, 5); an empty
 * flip keeps value 0 (flip.c). */
struct fray_flip;
struct fray_deck_options;
void fray__flip_evaluate(struct fray_flip *flip,
                         const struct fray_deck_options *opts);

/* Writes a message into diag (when not NULL); returns `status`. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
fray_status fray__diag_set(fray_diag *diag, fray_status status, int column,
                           const char *fmt, ...);

/* A bounded text builder, snprintf-style: writes what fits into buf (always
 * terminated when size > 0) and counts in len what the whole text needs,
 * so that a caller can report the size to ask for. buf NULL: only counts. */
typedef struct fray__text {
    char *buf;
    size_t size;
    size_t len;
} fray__text;

void fray__text_init(fray__text *t, char *buf, size_t size);
/* n bytes of s. */
void fray__text_put(fray__text *t, const char *s, size_t n);
void fray__text_s(fray__text *t, const char *s);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void fray__text_f(fray__text *t, const char *fmt, ...);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 0)))
#endif
void fray__text_vf(fray__text *t, const char *fmt, va_list ap);

#endif
