/*
 * engage.c - Silent Winter: talents that engage several targets at once
 * (002:63 "talents that enable you to engage multiple targets
 * simultaneously do not affect your mount"; docs/rules/silent-winter.md
 * ruling 40).
 *
 * A combatant's first target is its `engages`; a passive talent with
 * `engages: N` lets it hold N - 1 more, kept as a bitmask (`eng_more`).
 * Every rule that asks who engages whom (Undefended per pair, clusters,
 * slots, switching, disengaging, the graph, the view) asks sw_eng. The
 * mount follows only the first (rules.c mounts_follow).
 */
#include <string.h>

#include "winter_int.h"

bool sw_eng(const sw_state *st, int a, int b) {
    if (a < 0 || b < 0 || a >= st->n || b >= st->n)
        return false;
    return st->c[a].engages == b || ((st->c[a].eng_more >> b) & 1u);
}

int sw_eng_count(const sw_state *st, int a) {
    if (st->c[a].engages < 0)
        return 0;
    int n = 1;
    for (uint16_t m = st->c[a].eng_more; m; m = (uint16_t)(m & (m - 1)))
        n++;
    return n;
}

int sw_eng_room(const sw_setup *s, int a) {
    int room = 1; /* 002:27 "only Engage one melee opponent at a time" */
    if (a < 0 || a >= s->n)
        return room;
    uint32_t tb = s->c[a].b.talents;
    for (int k = 0; tb && k < s->n_talents; k++)
        if ((tb & (1u << k)) && s->tl[k].effect == SW_TE_ENGAGES && s->tl[k].amount > room)
            room = s->tl[k].amount;
    return room;
}

void sw_eng_add(sw_state *st, int a, int b) {
    sw_cstate *c = &st->c[a];
    if (sw_eng(st, a, b))
        return;
    if (c->engages < 0)
        c->engages = (int8_t)b;
    else
        c->eng_more = (uint16_t)(c->eng_more | (1u << b));
}

void sw_eng_drop(sw_state *st, int a, int b) {
    sw_cstate *c = &st->c[a];
    if (b < 0)
        return;
    c->eng_more = (uint16_t)(c->eng_more & ~(1u << b));
    if (c->engages != b)
        return;
    c->engages = -1;
    for (int j = 0; j < st->n; j++)
        if ((c->eng_more >> j) & 1u) {
            c->engages = (int8_t)j; /* the next becomes the first */
            c->eng_more = (uint16_t)(c->eng_more & ~(1u << j));
            break;
        }
}

void sw_eng_clear(sw_state *st, int a) {
    st->c[a].engages = -1;
    st->c[a].eng_more = 0;
}

bool sw_eng_tactics(const sw_setup *s, const sw_state *st, int a, sw_event *cmd) {
    const sw_cstate *c = &st->c[a];
    if (c->pend_kind != SW_PEND_NONE || c->engages < 0 ||
        sw_eng_count(st, a) >= sw_eng_room(s, a))
        return false;
    for (int j = 0; j < st->n; j++) {
        if (j == a || s->c[j].side == s->c[a].side || sw_out(&st->c[j]) ||
            !sw_eng(st, j, a) || sw_eng(st, a, j) || sw_rider_of(s, st, j) >= 0)
            continue;
        memset(cmd, 0, offsetof(sw_event, dice));
        cmd->kind = SW_EV_ENGAGE;
        cmd->actor = (int8_t)a;
        cmd->target = (int8_t)j;
        if (sw_check(s, st, cmd, NULL, 0) == FRAY_OK)
            return true;
    }
    return false;
}
