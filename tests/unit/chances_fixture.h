/*
 * chances_fixture.h - set-up shared by the tests of the odds at the table
 * (issue 19; tests/unit/test_chances_*.c): an encounter from a file, a
 * fight with the journal, a command through the fight API, one outcome of
 * a fray_chances by name, and the tolerance of a share of N trials.
 */
#ifndef CHANCES_FIXTURE_H
#define CHANCES_FIXTURE_H

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fray/chances.h"
#include "fray/fray.h"

static inline fray_setup *cf_load(const char *path) {
    fray_setup *s = NULL;
    fray_diag d;
    fray_status rc = fray_setup_load(path, NULL, &s, &d);
    cr_assert_eq(rc, FRAY_OK, "%s: %s", path, d.message);
    return s;
}

static inline fray_fight *cf_start(const fray_setup *s, uint64_t seed) {
    fray_fight *f = NULL;
    fray_fight_options o = {.journal = true, .facts = true};
    cr_assert_eq(fray_fight_new(s, seed, &o, NULL, NULL, &f), FRAY_OK);
    return f;
}

static inline void cf_command(fray_fight *f, const char *words) {
    fray_diag d;
    cr_assert_eq(fray_fight_command(f, words, NULL, &d), FRAY_OK, "%s: %s",
                 words, d.message);
}

static inline int cf_who(const fray_fight *f, const char *id) {
    int i = fray_fight_combatant_index(f, id);
    cr_assert(i >= 0, "no combatant '%s'", id);
    return i;
}

static inline const fray_chance_outcome *
cf_outcome(const fray_chance_outcome *oc, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (strcmp(oc[i].name, name) == 0)
            return &oc[i];
    cr_assert_fail("no outcome '%s'", name);
    return NULL;
}

/* A share of n trials against its chance p: 4.5 standard errors. */
static inline double cf_tolerance(double p, int n) {
    return 4.5 * sqrt(p * (1 - p) / n) + 1e-9;
}

#endif
