/* fuzz_towers_vary.c - libFuzzer target for sweeps (fray_towers_vary_list
 * and fray_towers_setup_vary, src/rules/towers/vary.c; `fray sim --vary`) on
 * examples/towers/ambush.yaml (a counted group, armor, ranged weapons,
 * surprise): each line of the input is KEY=LIST, as --vary takes it. The
 * list is expanded or refused with a message and no values; an expanded
 * list holds 1 to FRAY_VARY_MAX_VALUES values, each non-empty and within
 * its slot, and a single range LO..HI holds exactly HI - LO + 1 values
 * counting up by one (issue 11: ranges near 2^63 overflowed, which UBSan
 * here aborts on). Each of the first values is applied or refused with a
 * message; then a fight of the changed encounter
 * runs to its end. Any value the vary API accepts must give a fight that
 * ends, never a crash, a hang or a leak. */
#define _POSIX_C_SOURCE 200809L /* strnlen */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_TOWERS_EXAMPLE "ambush.yaml"
#include "fuzz_towers.h"

enum { MAX_INPUT = 1024, MAX_LINES = 8, MAX_APPLIED = 3 };

/* A whole number as the list reads a range's ends: an optional sign and
 * decimal digits; false for anything else or past the long long range. */
static bool read_end(const char *p, size_t n, long long *out) {
    char buf[32];
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, p, n);
    buf[n] = '\0';
    size_t i = buf[0] == '-' || buf[0] == '+';
    if (buf[i] == '\0')
        return false;
    for (; buf[i]; i++)
        if (buf[i] < '0' || buf[i] > '9')
            return false;
    errno = 0;
    *out = strtoll(buf, NULL, 10);
    return errno == 0;
}

/* What every expansion of a list must be (see the top of the file). */
static void check_list(const char *text, const fray_vary_list *list,
                       fray_status st, const fray_diag *diag) {
    if (st != FRAY_OK) {
        if (list->n != 0 || diag->message[0] == '\0')
            abort(); /* a refusal keeps no values and says why */
        return;
    }
    if (list->n < 1 || list->n > FRAY_VARY_MAX_VALUES)
        abort();
    for (int i = 0; i < list->n; i++) {
        size_t len = strnlen(list->value[i], FRAY_VARY_VALUE_SIZE);
        if (len == 0 || len == FRAY_VARY_VALUE_SIZE)
            abort();
    }
    /* A single range: exactly its values, in order. */
    const char *dots = strstr(text, "..");
    long long lo, hi;
    if (!strchr(text, ',') && dots &&
        read_end(text, (size_t)(dots - text), &lo) &&
        read_end(dots + 2, strlen(dots + 2), &hi)) {
        if (hi < lo || (unsigned long long)hi - (unsigned long long)lo !=
                           (unsigned long long)list->n - 1)
            abort();
        for (int i = 0; i < list->n; i++)
            if (strtoll(list->value[i], NULL, 10) !=
                (long long)((unsigned long long)lo + (unsigned long long)i))
                abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > MAX_INPUT)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    fray_towers_setup *s = NULL;
    if (fray_towers_setup_copy(setup, &fuzz_alloc, &s) != FRAY_OK) {
        free(text);
        return 0;
    }
    fray_vary_list *list = malloc(sizeof *list); /* 6 KB: off the stack */
    if (!list) {
        fray_towers_setup_free(s);
        free(text);
        return 0;
    }
    char *line = text;
    for (int n = 0; line && n < MAX_LINES; n++) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        char *eq = strchr(line, '=');
        if (eq) {
            *eq = '\0';
            fray_diag diag;
            memset(&diag, 0, sizeof diag);
            fray_status st = fray_towers_vary_list(eq + 1, list, &diag);
            check_list(eq + 1, list, st, &diag);
            for (int v = 0; st == FRAY_OK && v < list->n && v < MAX_APPLIED;
                 v++) {
                memset(&diag, 0, sizeof diag);
                if (fray_towers_setup_vary(s, line, list->value[v], &diag) !=
                        FRAY_OK &&
                    diag.message[0] == '\0')
                    abort(); /* a refusal always says why */
            }
        }
        line = end ? end + 1 : NULL;
    }
    fray_towers_fight_options opts = {.journal = false, .facts = false,
                                      .until_phase = 400};
    fray_towers_fight *fight = NULL;
    if (fray_towers_fight_new(s, 3, &opts, &fuzz_alloc, &fight) == FRAY_OK) {
        fray_status st = fray_towers_fight_run(fight);
        if (st != FRAY_OK && st != FRAY_ERR_NOMEM)
            abort(); /* a varied encounter still plays to its end */
        if (!fray_towers_fight_over(fight))
            abort();
        fray_towers_fight_free(fight);
    }
    fray_towers_setup_free(s);
    free(list);
    free(text);
    return 0;
}
