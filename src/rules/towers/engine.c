/* engine.c - STUB */
#include "towers_int.h"

const ft_action_info ft_actions[FT_ACTION_COUNT] = {0};

void ft_emit(ft_run *r, ft_fact_kind kind, int who, int target, int v0, int v1, int v2, int v3) {
    (void)r;
    (void)kind;
    (void)who;
    (void)target;
    (void)v0;
    (void)v1;
    (void)v2;
    (void)v3;

}

ft_fact *ft_emit_fact(ft_run *r, ft_fact_kind kind, int who, int target) {
    (void)r;
    (void)kind;
    (void)who;
    (void)target;
    return NULL;
}

bool ft_allies(const ft_setup *s, int a, int b) {
    (void)s;
    (void)a;
    (void)b;
    return false;
}

fray_footprint ft_footprint(const ft_setup *s, const ft_state *st, int c) {
    (void)s;
    (void)st;
    (void)c;
    fray_footprint fp = {{0, 0}, 1};
    return fp;
}

int ft_next_actor(const ft_state *st) {
    (void)st;
    return 0;
}

void ft_state_reset(const ft_setup *s, ft_state *st, uint64_t seed) {
    (void)s;
    (void)st;
    (void)seed;

}

fray_status ft_apply(ft_run *r) {
    (void)r;
    return FRAY_ERR_INVALID;
}

fray_status ft_check_command(const ft_setup *s, const ft_state *st, const ft_command *cmd, fray_diag *diag) {
    (void)s;
    (void)st;
    (void)cmd;
    (void)diag;
    return FRAY_ERR_INVALID;
}
