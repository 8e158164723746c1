/* attack.c - STUB: replaced by the real module. */
#include "towers_int.h"

void ft_attack_mods(const ft_run *r, int attacker, int target, const ft_attack_opts *o, ft_mods *out) {
    (void)r;
    (void)attacker;
    (void)target;
    (void)o;
    (void)out;

}

fray_status ft_attack(ft_run *r, int attacker, int target, const ft_attack_opts *o, bool *out_hit) {
    (void)r;
    (void)attacker;
    (void)target;
    (void)o;
    (void)out_hit;
    return FRAY_ERR_INVALID;
}

bool ft_threatens(const ft_run *r, int c, int target) {
    (void)r;
    (void)c;
    (void)target;
    return false;
}

fray_status ft_grapple_test(ft_run *r, int attacker, int defender, int attacker_flip_mod, bool *out_win) {
    (void)r;
    (void)attacker;
    (void)defender;
    (void)attacker_flip_mod;
    (void)out_win;
    return FRAY_ERR_INVALID;
}
