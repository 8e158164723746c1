/*
 * cond.c - conditions with durations (cond.h).
 */
#include "cond.h"

#include <string.h>

int fray__cond_find(const fray__cond *c, int n, int kind, int other) {
    for (int i = 0; i < n; i++)
        if (c[i].kind == kind && (other < 0 || c[i].other == other))
            return i;
    return -1;
}

uint32_t fray__cond_mask(const fray__cond *c, int n) {
    uint32_t has = 0;
    for (int i = 0; i < n; i++)
        has |= 1u << (c[i].kind & 31u);
    return has;
}

fray_status fray__cond_append(fray__cond *c, uint8_t *n, int cap,
                              fray__cond x) {
    if (*n >= cap)
        return FRAY_ERR_RANGE;
    c[(*n)++] = x;
    return FRAY_OK;
}

int fray__cond_drop(fray__cond *c, uint8_t *n, int i) {
    if (i < 0 || i >= *n)
        return -1;
    int kind = c[i].kind;
    memmove(c + i, c + i + 1, (size_t)(*n - i - 1) * sizeof c[0]);
    (*n)--;
    memset(&c[*n], 0, sizeof c[0]);
    return kind;
}

int fray__cond_tick(fray__cond *c, uint8_t *n, int whose, bool at_end,
                    uint8_t *ended) {
    uint8_t when = (uint8_t)(at_end ? FRAY__ENDS_END_OF_TURN
                                    : FRAY__ENDS_START_OF_TURN);
    int k = 0;
    for (int i = 0; i < *n;) {
        fray__cond *x = &c[i];
        if (x->ends == when && x->whose == whose && --x->count <= 0) {
            ended[k++] = x->kind;
            fray__cond_drop(c, n, i);
            continue;
        }
        i++;
    }
    return k;
}
