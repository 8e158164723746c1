/*
 * suggest.c - "did you mean" over names fed one at a time (suggest.h).
 */
#include "suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Lower case, a space as a hyphen. */
static int fold(char c) {
    int x = tolower((unsigned char)c);
    return x == ' ' ? '-' : x;
}

int fray__near_distance(const char *a, const char *b) {
    size_t n = strlen(a), m = strlen(b);
    if (n >= FRAY__NEAR_MAX || m >= FRAY__NEAR_MAX)
        return -1;
    int row[FRAY__NEAR_MAX];
    for (size_t j = 0; j <= m; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int up = row[j];
            int best = diag + (fold(a[i - 1]) != fold(b[j - 1]));
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[m];
}

void fray__near_init(fray__near *n, const char *word) {
    memset(n, 0, sizeof *n);
    n->best_d = FRAY__NEAR_MAX * 2;
    n->usable = word && strlen(word) < FRAY__NEAR_MAX;
    if (n->usable)
        snprintf(n->word, sizeof n->word, "%s", word);
}

void fray__near_try(fray__near *n, const char *name) {
    if (!n->usable || !name)
        return;
    int d = fray__near_distance(n->word, name);
    if (d < 0 || d >= n->best_d)
        return;
    n->best_d = d;
    snprintf(n->best, sizeof n->best, "%s", name);
}

const char *fray__near_best(const fray__near *n) {
    if (!n->usable || !n->best[0] || n->best_d == 0 || n->best_d > 3 ||
        (size_t)n->best_d * 3 > strlen(n->best))
        return NULL;
    return n->best;
}

void fray__near_hint(char *msg, size_t size, const char *best) {
    if (!best || !msg || size == 0)
        return;
    const char *end = memchr(msg, '\0', size);
    if (!end)
        return; /* (not a string) */
    size_t len = (size_t)(end - msg);
    const char *at = strstr(msg, "; ");
    size_t cut = at ? (size_t)(at - msg) : len;
    char rest[512];
    snprintf(rest, sizeof rest, "%s", msg + cut);
    snprintf(msg + cut, size - cut, " (did you mean '%s'?)%s", best, rest);
}
