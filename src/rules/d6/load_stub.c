/*
 * load_stub.c - placeholders for the D6 files (load.c, written beside
 * the engine) until load.c lands: the integrator deletes this file when
 * merging it. Loading and checking refuse in words; a setup built in C
 * (tests/unit/d6_fixture.h) is copied and freed with malloc.
 */
#include "d6_int.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"

fray_status d6_load(const char *path, const fray_allocator *alloc,
                    d6_setup **out, fray_diag *diag) {
    (void)alloc;
    *out = NULL;
    return fray__diag_set(diag, FRAY_ERR_PARSE, 1,
                          "%s: this fray cannot read D6 files yet", path);
}

fray_status d6_check(const char *path, fray_diag *diag) {
    return fray__diag_set(diag, FRAY_ERR_PARSE, 1,
                          "%s: this fray cannot read D6 files yet", path);
}

void d6_setup_free(d6_setup *s) { free(s); }

fray_status d6_setup_copy(const d6_setup *s, const fray_allocator *alloc,
                          d6_setup **out) {
    (void)alloc;
    *out = NULL;
    d6_setup *c = malloc(sizeof *c);
    if (!c)
        return FRAY_ERR_NOMEM;
    memcpy(c, s, sizeof *c);
    *out = c;
    return FRAY_OK;
}

fray_status d6_vary(d6_setup *s, const char *key, const char *value,
                    fray_diag *diag) {
    (void)s;
    (void)value;
    return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                          "no key '%s' to vary in a D6 encounter yet", key);
}
