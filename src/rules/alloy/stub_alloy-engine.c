/*
 * stub_alloy-engine.c - stand-ins for attack.c's functions that turn.c
 * and act.c call, so that the alloy-engine branch links on its own.
 * stub: alloy-attack provides them; the integrator deletes this file.
 */
#include "alloy_int.h"

#include <string.h>

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

fa_attack_line fa_attack_line_of(const fa_setup *s, const fa_state *st,
                                 int who, int power, int weapon, bool melee) {
    (void)s; (void)st; (void)who; (void)power; (void)weapon; (void)melee;
    fa_attack_line line;
    memset(&line, 0, sizeof line);
    return line; /* stub: alloy-attack provides it */
}

void fa_attack_mods(const fa_setup *s, const fa_state *st, int who,
                    int target, const fa_attack_line *line, bool charge,
                    fray_pos origin, fa_mods *out) {
    (void)s; (void)st; (void)who; (void)target; (void)line; (void)charge;
    (void)origin;
    memset(out, 0, sizeof *out); /* stub: alloy-attack provides it */
}

fray_status fa_suppress_turn_end(fa_run *r, int who, bool took_standard_or_none) {
    (void)r; (void)who; (void)took_standard_or_none;
    return FRAY_ERR_INVALID; /* stub: alloy-attack provides it */
}
