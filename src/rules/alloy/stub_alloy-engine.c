/*
 * stub_alloy-engine.c - stand-ins for attack.c's functions that turn.c
 * and act.c call, so that the alloy-engine branch links on its own.
 * stub: alloy-attack provides them; the integrator deletes this file.
 */
#include "alloy_int.h"

fray_status fa_attack(fa_run *r, const fa_command *cmd, bool charge) {
    (void)r; (void)cmd; (void)charge;
    return FRAY_ERR_INVALID; /* stub: alloy-attack provides it */
}

fray_status fa_opportunity_attack(fa_run *r, int who, int target) {
    (void)r; (void)who; (void)target;
    return FRAY_ERR_INVALID; /* stub: alloy-attack provides it */
}

fray_status fa_damage(fa_run *r, int who, int target, int amount) {
    (void)r; (void)who; (void)target; (void)amount;
    return FRAY_ERR_INVALID; /* stub: alloy-attack provides it */
}

bool fa_check_vs(fa_run *r, int who, int bonus, int defense_value) {
    (void)r; (void)who; (void)bonus; (void)defense_value;
    return false; /* stub: alloy-attack provides it */
}

fray_status fa_second_wind(fa_run *r, int who) {
    (void)r; (void)who;
    return FRAY_ERR_INVALID; /* stub: alloy-attack provides it */
}

int fa_defense_value(const fa_setup *s, const fa_state *st, int target,
                     fa_defense d, int attacker, bool ranged) {
    (void)s; (void)st; (void)target; (void)d; (void)attacker; (void)ranged;
    return 0; /* stub: alloy-attack provides it */
}
