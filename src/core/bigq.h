/*
 * bigq.h - GMP rationals to and from the library's types, for the exact
 * counts past 128 bits (dice_big.c) and the exact duel odds
 * (src/rules/towers/duel_odds.c). Internal: needs <gmp.h>.
 */
#ifndef FRAY_BIGQ_H
#define FRAY_BIGQ_H

#include <gmp.h>

#include "fray/common.h"
#include "fray/dice.h"

/* q = num / den (den > 0), canonical. */
void fray__mpq_set_u128(mpq_t q, fray_u128 num, fray_u128 den);

/* q (canonicalised) as decimal text in *out, allocated with alloc (NULL:
 * the default); release with fray_bigratio_free. FRAY_ERR_NOMEM. */
fray_status fray__bigratio_set(const fray_allocator *alloc, mpq_t q,
                               fray_bigratio *out);

#endif
