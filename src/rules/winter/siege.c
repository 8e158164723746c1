/*
 * siege.c - Silent Winter: siege weapons and the Siege talent (002:57:
 * "They are not normally usable in standard combat, only in mass combat,
 * however should the situation arise where a siege weapon can be used in
 * a standard combat (GM's discretion or you have the Siege talent and can
 * override the GM), they work like normal ranged attacks except that they
 * have a chance to hit multiple opponents simultaneously and you take a
 * -10 to the accuracy of your attacks with them"; docs/rules/silent-winter.md
 * rulings 25, 41, 42).
 *
 * The -10 and the attacks on the cluster are rules.c's attack (ruling
 * 25); here: who may use one, and how many of the cluster it reaches.
 */
#include "winter_int.h"

bool sw_siege_talent(const sw_setup *s, int a) {
    if (a < 0 || a >= s->n)
        return false;
    uint32_t tb = s->c[a].b.talents;
    for (int k = 0; tb && k < s->n_talents; k++)
        if ((tb & (1u << k)) && s->tl[k].effect == SW_TE_SIEGE)
            return true;
    return false;
}

bool sw_siege_allowed(const sw_setup *s, int a) {
    return !s->scene_no_siege || sw_siege_talent(s, a); /* 002:57 */
}

int sw_siege_draws(const sw_setup *s, const sw_weapon *w, int others) {
    if (!s->opt.siege_spread_weapon || !w->targets || others <= w->targets - 1)
        return 0; /* every other member of the cluster (ruling 25) */
    return w->targets - 1; /* ruling 42: up to N of the cluster, the target one */
}
