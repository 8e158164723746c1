/*
 * defense.c - Silent Winter: talents on a defence (seed 002:27 "she no
 * longer adds her Agility attribute or any bonuses from Skills or Talents
 * to her Physical Defense (other bonuses, say from Spells or those
 * granted by other characters, still apply)"; 002:69; docs/rules/
 * silent-winter.md 48).
 *
 * A passive talent `defense: N` adds N to its holder's Physical Defense
 * as the stat block's defense bonus does: lost when Undefended
 * (rules.c sw_attack_terms). With talent-defense: both it adds N to Magic
 * Defense too (a Magic Attack roll against it; 002:27 strips only
 * Physical Defense, so that part is kept).
 */
#include "winter_int.h"

int sw_talent_defense(const sw_setup *s, int t) {
    uint32_t tb = s->c[t].b.talents;
    int n = 0;
    for (int k = 0; tb && k < s->n_talents; k++)
        if ((tb & (1u << k)) && s->tl[k].effect == SW_TE_DEFENSE)
            n += s->tl[k].amount;
    return n;
}

int sw_talent_magic_defense(const sw_setup *s, int t) {
    return s->opt.talent_defense_both ? sw_talent_defense(s, t) : 0;
}
