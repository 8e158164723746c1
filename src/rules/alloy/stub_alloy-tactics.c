/*
 * stub_alloy-tactics.c - stand-ins for what other helpers provide, so
 * that policy.c and odds.c build and link on their own (the integrator
 * deletes this file at merge).
 */
#include "alloy_int.h"

#include <stdlib.h>
#include <string.h>

/* stub: alloy-load provides it (load.c) */
fray_status fa_load(const char *path, const fray_allocator *alloc,
                    fa_setup **out, fray_diag *diag) {
    (void)path;
    (void)alloc;
    (void)diag;
    *out = NULL;
    return FRAY_ERR_INVALID;
}

/* stub: alloy-load provides it (load.c) */
void fa_setup_free(fa_setup *s) {
    (void)s;
}

/* stub: alloy-load provides it (load.c); the defaults of RULINGS and
 * rulesets-checklists L7 so that a setup built in code is sensible. */
void fa_options_default(fa_options *o) {
    memset(o, 0, sizeof *o);
    o->save_target = 10;
    o->drop_prone = FA_ACT_SWIFT;
    o->ap_per_turn = 1;
    o->area_crit_max = true;
    o->coup_rolls = true;
    o->aid_ranged_provokes = true;
    o->creature_cover = 2;
}
