/*
 * tactics2.c - Silent Winter: the tactics' additions (issue 17; seed 002;
 * docs/rules/silent-winter.md "Tactics" and ruling 47):
 *
 *   - a multi-engager (002:63; ruling 40) strikes the weakest of the
 *     targets it engages, not only its first;
 *   - an area weapon (002:53) and a siege weapon's spread (002:57) are
 *     not aimed at a cluster that holds more of the attacker's own side
 *     than of its foes (option tactics-cluster: ignore | weigh, default ignore:
 *     the examples play as before);
 *   - an area talent (002:53; ruling 49) is never used on a cluster
 *     holding one of the user's own side.
 *
 * The tactics only choose; every command they choose is checked by the
 * rules as a player's is (sw_check).
 */
#include "winter_int.h"

/* The one of t's side a melee attacker strikes at a mounted foe: the
 * rider or the mount, whichever has less Health (002:63). */
static int rider_or_mount(const sw_setup *s, const sw_state *st, int t) {
    int m = sw_mount_of(s, st, t);
    return m >= 0 && st->c[m].health < st->c[t].health ? m : t;
}

bool sw_tac_cluster_ok(const sw_setup *s, const sw_state *st, int a, int t) {
    if (!s->opt.tactics_cluster_weigh)
        return true;
    const sw_weapon *w = sw_hand(s, st, a);
    bool spread = w->siege && !s->opt.siege_target_only;
    if (!w->area && !spread)
        return true;
    int list[SW_MAX_C];
    int n = sw_area_cluster(st, t, list);
    int own = 0, foes = 0;
    for (int i = 0; i < n; i++) {
        int m = list[i];
        if (m == a && (spread || !s->opt.area_hits_attacker))
            continue; /* the attacker spared (ruling 30's area-attacker) */
        if (w->area && w->ranged && st->c[m].cover == SW_COVER_FULL &&
            !s->opt.area_hits_full_cover)
            continue; /* area-full-cover: spared (ruling 29) */
        if (s->c[m].side == s->c[a].side)
            own++;
        else
            foes++;
    }
    return own <= foes;
}

int sw_tac_melee_target(const sw_setup *s, const sw_state *st, int a) {
    const sw_cstate *c = &st->c[a];
    if (c->engages < 0 || sw_out(&st->c[c->engages]))
        return -1;
    int best = rider_or_mount(s, st, c->engages);
    if (!sw_tac_cluster_ok(s, st, a, best))
        best = -1;
    if (sw_eng_count(st, a) < 2)
        return best;
    for (int j = 0; j < st->n; j++) {
        if (j == c->engages || !sw_eng(st, a, j) || sw_out(&st->c[j]))
            continue;
        int tg = rider_or_mount(s, st, j);
        if (!sw_tac_cluster_ok(s, st, a, tg))
            continue;
        if (best < 0 || st->c[tg].health < st->c[best].health)
            best = tg;
    }
    return best;
}

bool sw_tac_area_talent_ok(const sw_setup *s, const sw_state *st, int a, int t, int k) {
    if (!s->tl[k].area)
        return true;
    int list[SW_MAX_C];
    int n = sw_area_cluster(st, t, list);
    for (int i = 0; i < n; i++) {
        int m = list[i];
        if (m == a && !s->opt.area_hits_attacker)
            continue; /* area-attacker: spared (ruling 30) */
        if (s->c[m].side == s->c[a].side)
            return false; /* 002:53 "works just as well on allies as it does on foes" */
    }
    return true;
}
