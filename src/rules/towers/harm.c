/* harm.c - STUB: replaced by the real module. */
#include "towers_int.h"

int ft_max_stun(const ft_setup *s, int c) {
    (void)s;
    (void)c;
    return 0;
}

int ft_max_lethal(const ft_setup *s, int c) {
    (void)s;
    (void)c;
    return 0;
}

void ft_harm_apply(ft_run *r, int target, int stun, int lethal, int source) {
    (void)r;
    (void)target;
    (void)stun;
    (void)lethal;
    (void)source;

}

void ft_harm_heal(ft_run *r, int target, int stun, int lethal) {
    (void)r;
    (void)target;
    (void)stun;
    (void)lethal;

}

fray_towers_hit ft_harm_hit(const ft_run *r, int attacker, int target, const ft_weapon *w, int bonus, int hearts) {
    (void)r;
    (void)attacker;
    (void)target;
    (void)w;
    (void)bonus;
    (void)hearts;
    fray_towers_hit h = {0, 0};
    return h;
}

fray_status ft_harm_combined(ft_run *r, int target, int stun, int flips, ft_category cat, ft_damage_type type) {
    (void)r;
    (void)target;
    (void)stun;
    (void)flips;
    (void)cat;
    (void)type;
    return FRAY_ERR_INVALID;
}

bool ft_cond_has(const ft_state *st, int c, ft_condition k) {
    (void)st;
    (void)c;
    (void)k;
    return false;
}

void ft_cond_add(ft_run *r, int c, ft_condition k, int x, ft_until until, int who, int count, int source) {
    (void)r;
    (void)c;
    (void)k;
    (void)x;
    (void)until;
    (void)who;
    (void)count;
    (void)source;

}

void ft_cond_remove(ft_run *r, int c, ft_condition k) {
    (void)r;
    (void)c;
    (void)k;

}

void ft_cond_activation(ft_run *r, int who, bool at_end) {
    (void)r;
    (void)who;
    (void)at_end;

}

void ft_cond_mods(const ft_state *st, int c, ft_flip_purpose purpose, bool melee, int *flip_mod, int *shift) {
    (void)st;
    (void)c;
    (void)purpose;
    (void)melee;
    (void)flip_mod;
    (void)shift;

}

bool ft_can_act(const ft_state *st, int c) {
    (void)st;
    (void)c;
    return false;
}

bool ft_in_fight(const ft_state *st, int c) {
    (void)st;
    (void)c;
    return false;
}
