/* fate.c - STUB: replaced by the real module. */
#include "towers_int.h"

fray_status ft_flip(ft_run *r, int who, int n, ft_flip_purpose purpose, int shift, int against, fray_flip *out, int *out_shift) {
    (void)r;
    (void)who;
    (void)n;
    (void)purpose;
    (void)shift;
    (void)against;
    (void)out;
    (void)out_shift;
    return FRAY_ERR_INVALID;
}

fray_status ft_flip_plain(ft_run *r, int deck, int n, fray_flip *out) {
    (void)r;
    (void)deck;
    (void)n;
    (void)out;
    return FRAY_ERR_INVALID;
}

fray_status ft_fate_deal(ft_run *r) {
    (void)r;
    return FRAY_ERR_INVALID;
}
