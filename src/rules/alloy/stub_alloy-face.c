/*
 * stub_alloy-face.c - stand-ins for what alloy-face's files call and other
 * helpers provide (the integrator deletes this file at merge). Each
 * refuses: FRAY_ERR_INVALID, false, -1 or nothing.
 */
#include "alloy_int.h"

#include <string.h>

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

/* stub: alloy-engine provides it (act.c) */
fray_status fa_check(const fa_setup *s, const fa_state *st,
                     const fa_command *cmd, char *why, size_t why_size) {
    (void)s;
    (void)st;
    (void)cmd;
    if (why && why_size)
        why[0] = '\0';
    return FRAY_ERR_INVALID;
}

/* stub: alloy-engine provides it (act.c) */
fray_status fa_apply(fa_run *r, const fa_command *cmd) {
    (void)r;
    (void)cmd;
    return FRAY_ERR_INVALID;
}

/* stub: alloy-engine provides it (act.c) */
void fa_reach(const fa_setup *s, const fa_state *st, int who, int max_cost,
              fray_reach_map *out) {
    (void)s;
    (void)st;
    (void)who;
    (void)max_cost;
    memset(out, 0, sizeof *out);
}

/* stub: alloy-tactics provides it (policy.c) */
fray_status fa_choose_command(const fa_setup *s, const fa_state *st, int who,
                              fa_command *out) {
    (void)s;
    (void)st;
    (void)who;
    (void)out;
    return FRAY_ERR_INVALID;
}

/* stub: alloy-tactics provides it (odds.c) */
fray_status fa_duel_odds(const fa_setup *setup, int a, int b, long max_states,
                         struct fray_duel_odds *out, fray_diag *diag) {
    (void)setup;
    (void)a;
    (void)b;
    (void)max_states;
    (void)out;
    (void)diag;
    return FRAY_ERR_INVALID;
}

/* stub: alloy-tactics provides it (odds.c) */
fray_status fa_duel_estimate(const fa_setup *setup, int a, int b,
                             double *out_states, fray_diag *diag) {
    (void)setup;
    (void)a;
    (void)b;
    (void)out_states;
    (void)diag;
    return FRAY_ERR_INVALID;
}

/* stub: alloy-tactics provides it (odds.c) */
fray_status fa_duel_setup(const char *path_a, const char *name_a,
                          const char *path_b, const char *name_b,
                          const char *tactics_a, const char *tactics_b,
                          const fray_allocator *alloc, void **out,
                          fray_diag *diag) {
    (void)path_a;
    (void)name_a;
    (void)path_b;
    (void)name_b;
    (void)tactics_a;
    (void)tactics_b;
    (void)alloc;
    (void)diag;
    *out = NULL;
    return FRAY_ERR_INVALID;
}

/* Marks that this branch runs on stubs (tests/unit/alloy_face_fixture.h
 * skips the fight tests while it is linked); deleted with this file. */
extern const int fa__face_stubs;
const int fa__face_stubs = 1;
