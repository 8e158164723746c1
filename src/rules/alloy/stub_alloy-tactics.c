/*
 * stub_alloy-tactics.c - stand-ins for what other helpers provide, so
 * that policy.c and odds.c build and link on their own (the integrator
 * deletes this file at merge).
 */
#include "alloy_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* stub: alloy-load provides it (load.c) */
fray_status fa_load(const char *path, const fray_allocator *alloc,
                    fa_setup **out, fray_diag *diag) {
    (void)path;
    (void)alloc;
    *out = NULL;
    if (diag)
        snprintf(diag->message, sizeof diag->message,
                 "stub: alloy-load provides fa_load");
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

/* stub: alloy-engine provides it (act.c). Says "stub:" so that the
 * tactics test knows to skip its engine run. */
fray_status fa_check(const fa_setup *s, const fa_state *st,
                     const fa_command *cmd, char *why, size_t why_size) {
    (void)s;
    (void)st;
    (void)cmd;
    if (why && why_size > 0) {
        strncpy(why, "stub: alloy-engine provides fa_check", why_size - 1);
        why[why_size - 1] = '\0';
    }
    return FRAY_ERR_INVALID;
}

/* stub: alloy-engine provides it (act.c) */
fray_status fa_apply(fa_run *r, const fa_command *cmd) {
    (void)r;
    (void)cmd;
    return FRAY_ERR_INVALID;
}

/* stub: alloy-engine provides it (turn.c) */
void fa_state_init(const fa_setup *s, fa_state *st, uint64_t seed,
                   uint64_t trial) {
    (void)s;
    (void)seed;
    (void)trial;
    memset(st, 0, sizeof *st);
}

/* stub: alloy-engine provides it (turn.c) */
fray_status fa_begin(fa_run *r) {
    (void)r;
    return FRAY_ERR_INVALID;
}

/* stub: alloy-engine provides it (turn.c) */
int fa_actor(const fa_setup *s, const fa_state *st) {
    (void)s;
    (void)st;
    return -1;
}

/* stub: alloy-engine provides it (turn.c) */
fray_status fa_next(fa_run *r) {
    (void)r;
    return FRAY_ERR_INVALID;
}

/* stub: alloy-face provides it (render.c) */
const char *fa_cmd_name(int kind) {
    (void)kind;
    return "?";
}

/* stub: alloy-engine provides it (turn.c). This stand-in reads only the
 * three slot bits (a slot pays for its own type or a later one), so that
 * the tactics tests can run before the engine is merged. */
bool fa_can_pay(const fa_state *st, int who, fa_action_type type,
                fa_action_type slot) {
    if (type == FA_ACT_FREE || type == FA_ACT_NONE)
        return true;
    if (type > FA_ACT_SWIFT || who < 0 || who >= st->n)
        return false;
    const fa_cstate *c = &st->c[who];
    if (slot != FA_ACT_NONE)
        return slot <= type && (c->slots & (1u << slot));
    for (int k = (int)type; k >= FA_ACT_STANDARD; k--)
        if (c->slots & (1u << k))
            return true;
    return false;
}

/* stub: alloy-engine provides it (act.c). This stand-in lets allies be
 * passed, nobody be stood on, so that the tactics tests can run before
 * the engine is merged. */
static fray_occupant stub_occupant(void *ctx, fray_pos at) {
    const void *const *c = ctx;
    const fa_setup *s = c[0];
    const fa_state *st = c[1];
    int who = *(const int *)c[2];
    fray_footprint one = {at, 1};
    for (int i = 0; i < st->n; i++) {
        if (fray_grid_range(st->c[i].fp, one) != 0 || fa_has(&st->c[i], FA_C_DEAD))
            continue;
        if (i == who)
            return FRAY_OCC_SELF;
        return s->c[i].side == s->c[who].side ? FRAY_OCC_ALLY : FRAY_OCC_ENEMY;
    }
    return FRAY_OCC_EMPTY;
}

void fa_reach(const fa_setup *s, const fa_state *st, int who, int max_cost,
              fray_reach_map *out) {
    const void *ctx[3] = {s, st, &who};
    fray_grid_reach(&s->map, st->c[who].fp, 0, max_cost, stub_occupant,
                    (void *)ctx, out);
}
