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
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "winter_int.h"

static bool bit(unsigned m, int i) { return ((m >> i) & 1u) != 0; }

bool sw_eng(const sw_state *st, int a, int b) {
    if (a < 0 || b < 0 || a >= st->n || b >= st->n)
        return false;
    return st->c[a].engages == b || bit(st->c[a].eng_more, b);
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
        if (bit(c->eng_more, j)) {
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

/* ---- Getting into the saddle (002:65; rulings 43-45) --------------------- */

int sw_mount_delay(const sw_setup *s) {
    return s->opt.mount_delay ? s->opt.mount_delay : 5; /* ruling 43: mount-delay */
}

fray_status sw_saddle_check(const sw_setup *s, const sw_state *st, int a, int t,
                            char *why, size_t size) {
    const char *an = s->c[a].name;
    int m = s->c[a].mount - 1;
    const char *msg = NULL;
    char buf[160];
    if (m < 0) {
        snprintf(buf, sizeof buf, "%s has no mount to get into the saddle of (rides: in "
                 "the encounter, 002:59)", an);
        msg = buf;
    } else if (t >= 0 && t != m) {
        snprintf(buf, sizeof buf, "%s rides %s, not %s", an, s->c[m].name, s->c[t].name);
        msg = buf;
    } else if (!st->c[a].unhorsed) {
        snprintf(buf, sizeof buf, "%s is in %s's saddle already", an, s->c[m].name);
        msg = buf;
    } else if (st->c[a].saddle_at >= st->seg) {
        snprintf(buf, sizeof buf, "%s is getting into the saddle already (until the end of "
                 "segment %d)", an, (int)st->c[a].saddle_at);
        msg = buf;
    } else if (!sw_can_act(&st->c[m]) || sw_stunned(st, m)) {
        snprintf(buf, sizeof buf, "%s cannot carry a rider now", s->c[m].name);
        msg = buf;
    } else if (st->c[a].cover != SW_COVER_NONE) {
        snprintf(buf, sizeof buf, "%s must leave cover first: no cover in the saddle (002:67)",
                 an);
        msg = buf;
    }
    if (!msg)
        return FRAY_OK;
    if (why && size)
        snprintf(why, size, "%s", msg);
    return FRAY_ERR_INVALID;
}

void sw_saddle_end(sw_run *r) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    if (!s->any_mount)
        return;
    for (int i = 0; i < st->n; i++) {
        sw_cstate *c = &st->c[i];
        if (c->saddle_at != st->seg)
            continue;
        c->saddle_at = 0;
        int m = s->c[i].mount - 1;
        if (m < 0 || !c->unhorsed || !sw_can_act(c) || !sw_can_act(&st->c[m]))
            continue; /* out of the fight meanwhile, or its mount is */
        /* mount-roll: ride: a flat Ride roll (ruling 44, as ruling 28's) */
        if (s->opt.mount_roll && !sw_contest(r, i, -1, s->c[i].b.ride, 0, SW_EV_MOUNT))
            continue;
        c->unhorsed = false;
        sw_fact_put(r, SW_FACT_STATUS, i, m, SW_ST_UNHORSED, 0, 0, 0);
    }
}

void sw_saddle_stunned(sw_run *r, int t) {
    sw_cstate *c = &r->st->c[t];
    if (r->s->opt.stun_keeps_pending || c->saddle_at < r->st->seg)
        return; /* stun-interrupts: no, or not getting up */
    c->saddle_at = 0;
    c->busy_until = r->st->seg; /* no longer busy with it past this segment */
    sw_fact_put(r, SW_FACT_STATUS, t, r->s->c[t].mount - 1, SW_ST_UNHORSED, 2, 0, 0);
}

bool sw_saddle_tactics(const sw_setup *s, const sw_state *st, int a, sw_event *cmd) {
    if (!s->any_mount || !s->c[a].mount || !s->c[a].remount || !st->c[a].unhorsed ||
        st->c[a].engages >= 0)
        return false;
    for (int j = 0; j < st->n; j++)
        if (sw_eng(st, j, a) && !sw_out(&st->c[j]))
            return false; /* engaged by a foe: fight on foot */
    memset(cmd, 0, offsetof(sw_event, dice));
    cmd->kind = SW_EV_MOUNT;
    cmd->actor = (int8_t)a;
    cmd->target = -1;
    return sw_check(s, st, cmd, NULL, 0) == FRAY_OK;
}

/* ---- Obstacles between some combatants only (002:25; ruling 46) ---------- */

static bool across(const sw_obstacle *o, int a, int t) {
    return (bit(o->a, a) && bit(o->b, t)) || (bit(o->b, a) && bit(o->a, t));
}

int sw_obstacle_between(const sw_setup *s, const sw_state *st, int a, int t) {
    for (int k = 0; k < s->n_obstacles; k++)
        if (across(&s->ob[k], a, t) && !bit((unsigned)(st->c[a].past | st->c[t].past), k))
            return k; /* 002:25: "enemies you cannot Engage ... (and likewise, they
                         cannot Engage your character)" */
    return -1;
}

int sw_find_obstacle(const sw_setup *s, const char *name, size_t len) {
    for (int k = 0; k < s->n_obstacles; k++) {
        const char *o = s->ob[k].name;
        size_t i = 0;
        for (; i < len && o[i]; i++) { /* any case; '-' for a space */
            char x = name[i] == '-' ? ' ' : name[i], y = o[i];
            if (tolower((unsigned char)x) != tolower((unsigned char)y))
                break;
        }
        if (i == len && !o[i])
            return k;
    }
    return -1;
}

fray_status sw_surmount_check(const sw_setup *s, const sw_state *st, int a, int k,
                              char *why, size_t size) {
    char buf[200];
    const char *msg = NULL;
    if (k < 0 || k >= s->n_obstacles) {
        snprintf(buf, sizeof buf, "no such obstacle");
        msg = buf;
    } else if (!bit((unsigned)(s->ob[k].a | s->ob[k].b), a)) {
        snprintf(buf, sizeof buf, "the %s stands between others: %s is on neither side of it",
                 s->ob[k].name, s->c[a].name);
        msg = buf;
    } else if (bit(st->c[a].past, k)) {
        snprintf(buf, sizeof buf, "%s is past the %s already", s->c[a].name, s->ob[k].name);
        msg = buf;
    }
    if (!msg)
        return FRAY_OK;
    if (why && size)
        snprintf(why, size, "%s", msg);
    return FRAY_ERR_INVALID;
}

void sw_surmount(sw_run *r, int a, int k) {
    const sw_setup *s = r->s;
    const sw_obstacle *o = &s->ob[k];
    /* 002:25 "which may require a successful skill or attribute roll" */
    if (o->roll && !sw_contest(r, a, -1, s->c[a].b.agility, 0, SW_EV_SURMOUNT))
        return;
    r->st->c[a].past = (uint8_t)(r->st->c[a].past | (1u << k));
    sw_fact_put(r, SW_FACT_STATUS, a, -1, SW_ST_SURMOUNTED, 1, k + 1, 0);
}

bool sw_obstacle_tactics(const sw_setup *s, const sw_state *st, int a, sw_event *cmd) {
    for (int k = 0; k < s->n_obstacles; k++) {
        if (bit(st->c[a].past, k))
            continue;
        for (int j = 0; j < st->n; j++) {
            if (s->c[j].side == s->c[a].side || sw_out(&st->c[j]) ||
                sw_obstacle_between(s, st, a, j) != k)
                continue;
            memset(cmd, 0, offsetof(sw_event, dice));
            cmd->kind = SW_EV_SURMOUNT;
            cmd->actor = (int8_t)a;
            cmd->target = -1;
            cmd->arg = (uint8_t)(k + 1);
            if (sw_check(s, st, cmd, NULL, 0) == FRAY_OK)
                return true;
        }
    }
    return false;
}
