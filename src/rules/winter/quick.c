/*
 * quick.c - Silent Winter's simulation shortcut for melee fights of two
 * or more combatants (winter_quick.h; issue 17 "Speed";
 * docs/rules/silent-winter.md "Speed").
 *
 * A fight qualifies when every combatant fights in melee with its stat
 * block's weapon (an off hand allowed), with no Sniping, spells, talents,
 * items or skills, weapons to switch to, mounts, obstacles or lifeless
 * creatures, and every option the loop does not take at its default
 * (sw_quick_prepare). In such a fight the tactics (rules.c sw_choose) do
 * only this, and the loop does the same, in the same order, on the
 * fight's own state:
 *
 *   - one who wants to (Winded: Pain 0 or less) Avoids an Engage
 *     declared on it in this segment, if it is free to (002:23);
 *   - whoever declares next (the highest Agility, then the lower opening
 *     roll, then the file's order) attacks the one it engages (002:33);
 *     Disengages from one out of the fight it still engages (002:31: an
 *     Engage that ended on one who fell meanwhile); Engages the foe
 *     engaging it, else the foe with the fewest engagers who has room
 *     (002:17-19, 27); else waits;
 *   - a segment's end resolves the Engages that end then in the order of
 *     declarations, with the Reciprocal Engage (002:21), and passes the
 *     quiet segments after it as one.
 *
 * The attack (sw_quick_attack) is rules.c's for a melee weapon: d20 +
 * attack against d20 + defense (Undefended: Physical Defense alone), the
 * weapons' dice less resistance, a point of Pain and 1d6 Health per point
 * below 0, Blown and dead. One who drops out holds nobody and is held by
 * nobody (fallen-release). Nobody out is attacked again, so nobody is
 * ever Wounded or bleeding here (asserted).
 *
 * The time track (who declares when) is not kept up during the loop: its
 * order is that of the Agility, roll and file among those who can act,
 * by the segment they are ready on, and the loop rebuilds it at the end
 * (debug builds check it at the start). tests/unit/test_winter_quick.c
 * holds the loop to the long way trial by trial: the state and the
 * counts.
 */
#include "winter_quick.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

/* Fields the loop knows. A new field in one of these structs is a rule
 * the shortcut has not been taught: the build stops here until its
 * author (or the integrator) decides whether sw_quick_prepare must refuse
 * it, or sw_quick_state_ok, or the loop must keep it up; then updates the
 * size. (Sizes on the 64-bit targets fray builds for.) */
_Static_assert(sizeof(void *) != 8 || sizeof(sw_options) == 35,
               "quick.c: a new Silent Winter option: copy it in option_ok if the "
               "loop takes it or it changes nothing in a melee fight, else leave it "
               "to refuse a setup off its default; then update this size");
_Static_assert(sizeof(void *) != 8 || sizeof(sw_block) == 112,
               "quick.c: a new stat-block field: refuse it in sw_quick_prepare "
               "unless it changes nothing in a melee fight, then update this size");
_Static_assert(sizeof(void *) != 8 || sizeof(sw_combatant) == 220,
               "quick.c: a new combatant field: refuse it in sw_quick_prepare "
               "unless it changes nothing in a melee fight, then update this size");
_Static_assert(sizeof(void *) != 8 || sizeof(sw_weapon) == 55,
               "quick.c: a new weapon field: refuse it in sw_quick_prepare unless "
               "it changes nothing in a melee attack, then update this size");
_Static_assert(sizeof(void *) != 8 || sizeof(sw_setup) == 9664,
               "quick.c: a new setup field: refuse it in sw_quick_prepare unless "
               "it changes nothing in a melee fight, then update this size");
_Static_assert(sizeof(void *) != 8 || sizeof(sw_cstate) == 84,
               "quick.c: a new combatant state field: refuse it in sw_quick_state_ok "
               "or keep it up in the loop as rules.c does, then update this size");
_Static_assert(sizeof(void *) != 8 || sizeof(sw_state) == 1912,
               "quick.c: a new field in the fight's state: if rules.c keeps it up "
               "in a melee fight, do the same in sw_quick_run; then update this size");

/* ---- The class ------------------------------------------------------------ */

/* Every option the loop neither takes nor can meet at its default. */
static bool option_ok(const sw_options *o) {
    sw_options d, c;
    sw_options_default(&d);
    c = *o;
    /* taken by the loop */
    c.engage_delay = d.engage_delay;
    c.attack_delay = d.attack_delay;
    c.ties = d.ties;
    c.pain_on_any_hit = d.pain_on_any_hit;
    c.order_file = d.order_file;
    c.keep_fallen = d.keep_fallen;
    /* nothing to do in a melee fight of the class: ranged attacks'
     * (friendly-fire, undefended-busy, blown-undefended), Sniping's, the
     * bleeding's (nobody bleeds here), a second engager's (nobody may
     * Engage two: multi-reciprocal), the saddle's */
    c.friendly_fire = d.friendly_fire;
    c.busy_at_range = d.busy_at_range;
    c.blown_melee_only = d.blown_melee_only;
    c.sniping_at_end = d.sniping_at_end;
    c.stop_bleeding = d.stop_bleeding;
    c.multi_recip_room = d.multi_recip_room;
    c.mount_delay = d.mount_delay;
    /* (options load into a zeroed struct and are copied whole: a field
     * named nowhere above is caught here) */
    return memcmp(&c, &d, sizeof d) == 0;
}

static bool melee_weapon_ok(const sw_weapon *w) {
    return !w->ranged && !w->area && !w->siege;
}

void sw_quick_prepare(const sw_setup *s, sw_quick *q) {
    memset(q, 0, sizeof *q);
    if (s->n < 2 || s->n > SW_MAX_C || s->obstacle || s->n_obstacles || s->any_mount ||
        !option_ok(&s->opt))
        return;
    bool side_seen[SW_MAX_SIDES] = {false};
    int sides = 0;
    for (int i = 0; i < s->n; i++) {
        const sw_combatant *c = &s->c[i];
        const sw_block *b = &c->b;
        if (c->side < 0 || c->side >= SW_MAX_SIDES || c->tactics != SW_TAC_MELEE ||
            c->sniping || c->mount || c->inanimate || s->ridden_by[i] || b->carried ||
            b->nearby || b->spells || b->talents || b->items || b->skills ||
            b->weapon < 0 || b->weapon >= s->n_weapons || !melee_weapon_ok(&s->w[b->weapon]) ||
            b->off_hand >= s->n_weapons || b->armour >= s->n_armour)
            return;
        if (b->off_hand >= 0 && !melee_weapon_ok(&s->w[b->off_hand]))
            return;
        if (!side_seen[c->side]) {
            side_seen[c->side] = true;
            sides++;
        }
        const sw_weapon *w = &s->w[b->weapon];
        sw_quick_c *k = &q->c[i];
        k->two = b->off_hand >= 0;
        k->atk = (int16_t)(b->physical_attack - (k->two ? 5 : 0));
        k->def_bare = b->physical_defense;
        k->def_full = (int16_t)(b->physical_defense + b->agility + b->defense_bonus);
        k->res = b->armour >= 0 && (s->a[b->armour].protects == SW_PROT_PHYSICAL ||
                                    s->a[b->armour].protects == SW_PROT_BOTH)
                     ? b->physical_resistance
                     : 0;
        k->agility = b->agility;
        k->pain = b->pain;
        k->per = (int16_t)(1 + (w->delay ? w->delay : s->opt.attack_delay));
        k->dice[0] = w->dice;
        k->bonus[0] = w->bonus;
        if (k->two) {
            k->dice[1] = s->w[b->off_hand].dice;
            k->bonus[1] = s->w[b->off_hand].bonus;
        }
        k->side = c->side;
        k->size = b->size;
        k->capacity = b->capacity;
        k->reciprocal = c->reciprocal;
    }
    if (sides < 2)
        return;
    q->n = s->n;
    q->engage_delay = s->opt.engage_delay;
    q->ties_actor = s->opt.ties == SW_TIES_ACTOR;
    q->pain_on_any_hit = s->opt.pain_on_any_hit;
    q->keep_fallen = s->opt.keep_fallen;
    q->order_file = s->opt.order_file;
    q->avoid = s->scene_avoid;
    q->ok = true;
}

enum { OUT = SW_F_DEAD | SW_F_WOUNDED | SW_F_BLOWN | SW_F_UNCONSCIOUS };

static inline bool up(const sw_cstate *c) { return !(c->flags & OUT); }

bool sw_quick_state_ok(const sw_quick *q, const sw_state *st) {
    if (!q->ok || !st->started || st->over || st->stopped || st->n != q->n ||
        st->maintained || st->stun_max >= st->seg)
        return false;
    for (int i = 0; i < st->n; i++) {
        const sw_cstate *c = &st->c[i];
        if ((c->flags & (SW_F_SNIPING | SW_F_BLEEDING)) || c->inanimate || c->n_maint ||
            c->hand || c->eng_more || c->saddle_at || c->unhorsed ||
            (c->pend_kind != SW_PEND_NONE && c->pend_kind != SW_PEND_ENGAGE) ||
            (c->pend_kind == SW_PEND_ENGAGE &&
             (c->pend_target < 0 || c->pend_target >= st->n)) ||
            c->engages >= st->n)
            return false;
    }
    return true;
}

/* ---- The attack -------------------------------------------------------------- */

/* rules.c roll: fray_rng_range(rng, 1, sides), which is this. */
static inline int die(fray_rng *rng, int sides) {
    return (int)fray_rng_below(rng, (uint32_t)sides) + 1;
}

bool sw_quick_attack(const sw_quick *q, sw_state *st, int a, int t, bool undefended,
                     const sw_tally *tally) {
    const sw_quick_c *ka = &q->c[a], *kt = &q->c[t];
    int ra = die(&st->rng, SW_CHECK_SIDES) + ka->atk;
    int rb = die(&st->rng, SW_CHECK_SIDES) + (undefended ? kt->def_bare : kt->def_full);
    tally->actions[a]++;
    tally->by_kind[a][SW_EV_ATTACK - SW_EV_ENGAGE]++;
    if (!(ra > rb || (ra == rb && q->ties_actor)))
        return false;
    int dmg = ka->bonus[0];
    for (int k = 0; k < ka->dice[0]; k++)
        dmg += die(&st->rng, 6);
    if (ka->two) {
        int off = ka->bonus[1];
        for (int k = 0; k < ka->dice[1]; k++)
            off += die(&st->rng, 6);
        dmg += off;
    }
    if (dmg < 0)
        dmg = 0;
    int after = dmg > kt->res ? dmg - kt->res : 0;
    sw_cstate *c = &st->c[t];
    int before = c->health;
    c->health = (int16_t)(c->health - after);
    if (after > 0 || q->pain_on_any_hit) {
        c->pain--;
        if (c->pain < 0)
            c->health = (int16_t)(c->health - die(&st->rng, 6));
        if (c->pain <= -kt->pain)
            c->flags |= SW_F_BLOWN;
    }
    tally->taken[t] += before - c->health;
    tally->dealt[a] += before - c->health;
    if (c->health <= 0)
        c->flags = (uint8_t)((c->flags | SW_F_DEAD) & ~SW_F_BLEEDING);
    return !up(c);
}

/* ---- The loop ------------------------------------------------------------------ */

/* rules.c tie_of: the order of declarations inside a segment. */
static int64_t tie_of(const sw_quick *q, const sw_state *st, int i) {
    if (q->order_file)
        return 63 - i;
    return (int64_t)(q->c[i].agility + 64) * 4096 +
           (int64_t)(7 - st->c[i].init_roll) * 64 + (63 - i);
}

/* The track as rules.c keeps it: everyone who can act, by the segment
 * they may declare on, then by tie_of. */
static void track_build(const sw_quick *q, const sw_state *st, fray__track *tr) {
    fray__track_init(tr, FRAY__TRACK_ASCENDING);
    for (int i = 0; i < st->n; i++)
        if (up(&st->c[i]))
            fray__track_set(tr, i, st->c[i].ready, tie_of(q, st, i));
}

#ifndef NDEBUG
static bool track_same(const fray__track *a, const fray__track *b) {
    if (a->n != b->n)
        return false;
    for (int k = 0; k < a->n; k++)
        if (a->e[k].who != b->e[k].who || a->e[k].key != b->e[k].key ||
            a->e[k].tie != b->e[k].tie)
            return false;
    return true;
}
#endif

/* The engage slots taken on t (rules.c slots_on, nobody riding). */
static int slots_on(const sw_quick *q, const sw_state *st, int t, int except) {
    int n = 0;
    for (int j = 0; j < st->n; j++)
        if (j != except && st->c[j].engages == t)
            n += q->c[j].size;
    return n;
}

static bool engaged_at_all(const sw_state *st, int i) {
    if (st->c[i].engages >= 0)
        return true;
    for (int j = 0; j < st->n; j++)
        if (st->c[j].engages == i)
            return true;
    return false;
}

/* rules.c fallen (and check_dead's): one out holds nobody and is held by
 * nobody, but one Blown with fallen-release: no. */
static void fallen(const sw_quick *q, sw_state *st, int t) {
    if (q->keep_fallen && !(st->c[t].flags & SW_F_DEAD))
        return;
    st->c[t].engages = -1;
    for (int j = 0; j < st->n; j++)
        if (st->c[j].engages == t)
            st->c[j].engages = -1;
}

/* rules.c check_over. */
static void check_over(const sw_quick *q, sw_state *st) {
    int alive = -1, sides = 0;
    unsigned seen = 0;
    for (int i = 0; i < st->n; i++)
        if (up(&st->c[i]) && !(seen & (1u << q->c[i].side))) {
            seen |= 1u << q->c[i].side;
            sides++;
            alive = q->c[i].side;
        }
    if (sides <= 1) {
        st->over = true;
        st->winner = (int8_t)(sides == 1 ? alive : -2);
    }
}

/* An opposed Agility roll of a against t (002:23, 31): a wins. */
static bool agility_roll(const sw_quick *q, sw_state *st, int a, int t) {
    int ra = die(&st->rng, SW_CHECK_SIDES) + q->c[a].agility;
    int rb = die(&st->rng, SW_CHECK_SIDES) + q->c[t].agility;
    return ra > rb || (ra == rb && q->ties_actor);
}

/* a declares an action with this delay (rules.c sw_apply): ready again
 * after 1 + delay segments. */
static inline void declare(sw_state *st, sw_cstate *c, int delay) {
    c->decl_seg = st->seg;
    c->flags &= (uint8_t)~SW_F_WAITED;
    c->ready = st->seg + 1 + delay;
}

static inline void count(const sw_tally *tally, int a, int kind) {
    tally->actions[a]++;
    tally->by_kind[a][kind - SW_EV_ENGAGE]++;
}

/* rules.c resolve_engage, for the class. */
static void resolve_engage(const sw_quick *q, sw_state *st, int a) {
    sw_cstate *c = &st->c[a];
    int t = c->pend_target;
    c->pend_kind = SW_PEND_NONE;
    c->pend_target = -1;
    sw_cstate *ct = &st->c[t];
    if (!up(c) || (ct->flags & SW_F_DEAD) || c->engages == t ||
        slots_on(q, st, t, a) + q->c[a].size > q->c[t].capacity)
        return;
    c->engages = (int8_t)t; /* (replaces any other: one at a time, 002:27) */
    if (ct->engages < 0 && up(ct) && q->c[t].reciprocal)
        ct->engages = (int8_t)a; /* 002:21 */
}

#ifndef NDEBUG
/* rules.c sw_quiet_segments (nobody bleeds or is Stunned here): the
 * loop's own count, from its pass over who declares, is checked
 * against it. */
static int quiet_segments(const sw_state *st) {
    int32_t next = st->seg + 256;
    for (int i = 0; i < st->n; i++) {
        const sw_cstate *c = &st->c[i];
        if (c->pend_kind != SW_PEND_NONE && c->pend_at > st->seg && c->pend_at < next)
            next = c->pend_at;
        if (up(c)) {
            int32_t r = c->ready > st->seg ? c->ready : st->seg + 1;
            if (r < next)
                next = r;
        }
    }
    return (int)(next - st->seg - 1);
}
#endif

/* rules.c segment_end, for the class, when something pending ends now
 * (the segment's count is the caller's): the Engages that end now, in the
 * order of declarations (the track's: those who can act by ready segment
 * and tie, then the others by the file's order). */
static void segment_end(const sw_quick *q, sw_state *st, const int64_t *tie) {
    int order[SW_MAX_C], n = 0;
    for (int i = 0; i < st->n; i++) {
        const sw_cstate *c = &st->c[i];
        assert(!(c->flags & SW_F_BLEEDING));
        if (c->pend_kind == SW_PEND_NONE || c->pend_at != st->seg)
            continue;
        /* insertion: i goes after every one it does not go before */
        int k = n++;
        for (; k > 0; k--) {
            const sw_cstate *p = &st->c[order[k - 1]];
            bool before;
            if (!up(p))
                before = up(c); /* (the others by index: i is later) */
            else if (!up(c))
                before = false;
            else
                before = c->ready != p->ready ? c->ready < p->ready : tie[i] > tie[order[k - 1]];
            if (!before)
                break;
            order[k] = order[k - 1];
        }
        order[k] = i;
    }
    for (int k = 0; k < n; k++)
        resolve_engage(q, st, order[k]);
}

fray_status sw_quick_run(const sw_quick *q, sw_state *st, int lim,
                         const atomic_bool *cancel, const sw_tally *tally) {
    int n = st->n;
    int64_t tie[SW_MAX_C];
    for (int i = 0; i < n; i++)
        tie[i] = tie_of(q, st, i);
#ifndef NDEBUG
    {
        fray__track tr;
        track_build(q, st, &tr);
        assert(track_same(&tr, &st->track));
    }
#endif
    uint32_t segments = 0;
    for (;;) {
        int32_t seg = st->seg;
        /* An Avoid (rules.c avoider): one Winded, free to declare and
         * engaged with nobody, at an Engage declared on it now. */
        if (q->avoid && st->engage_decl == seg) {
            int b = -1, from = -1;
            for (int i = 0; i < n && b < 0; i++) {
                const sw_cstate *c = &st->c[i];
                if (c->pain > 0 || !up(c) || c->ready > seg ||
                    (c->decl_seg == seg && !(c->flags & SW_F_WAITED)) ||
                    engaged_at_all(st, i))
                    continue;
                for (int a = 0; a < n; a++) {
                    const sw_cstate *ca = &st->c[a];
                    if (a != i && ca->pend_kind == SW_PEND_ENGAGE && ca->pend_target == i &&
                        ca->pend_decl == seg) {
                        b = i;
                        from = a;
                        break;
                    }
                }
            }
            if (b >= 0) {
                count(tally, b, SW_EV_AVOID);
                declare(st, &st->c[b], 0); /* 002:23: no delay */
                if (agility_roll(q, st, b, from)) {
                    st->c[from].pend_kind = SW_PEND_NONE;
                    st->c[from].pend_target = -1;
                }
                continue;
            }
        }
        /* Who declares now (rules.c sw_actor); with nobody, the quiet
         * segments after this one (sw_quiet_segments: the next segment
         * someone may declare on or something pending ends) and whether
         * something pending ends now, from the same pass. */
        int a = -1;
        int32_t next = seg + 256;
        bool ends = false;
        for (int i = 0; i < n; i++) {
            const sw_cstate *c = &st->c[i];
            if (c->pend_kind != SW_PEND_NONE) {
                if (c->pend_at == seg)
                    ends = true;
                else if (c->pend_at > seg && c->pend_at < next)
                    next = c->pend_at;
            }
            if (!up(c))
                continue;
            if (c->ready > seg) {
                if (c->ready < next)
                    next = c->ready;
                continue;
            }
            if (seg + 1 < next)
                next = seg + 1;
            if (c->decl_seg != seg && (a < 0 || tie[i] > tie[a]))
                a = i;
        }
        if (a < 0) {
            /* The segment's end and the quiet ones after it (winter.c
             * step, with the segment limit). */
            int qs = (int)(next - seg - 1);
            assert(qs == quiet_segments(st));
            if (lim > 0 && seg >= lim) {
                st->stopped = true;
                break;
            }
            if (lim > 0 && seg + 1 + qs > lim)
                qs = lim - seg - 1;
            if (ends)
                segment_end(q, st, tie);
            st->seg += 1 + qs;
            if ((++segments & 1023u) == 0 && cancel &&
                atomic_load_explicit(cancel, memory_order_relaxed))
                return FRAY_ERR_CANCELED;
            continue;
        }
        /* The melee tactics (rules.c sw_choose). */
        sw_cstate *c = &st->c[a];
        int t = c->engages;
        if (t >= 0 && up(&st->c[t])) {
            declare(st, c, q->c[a].per - 1);
            bool undef = st->c[t].engages != a || st->c[t].busy_until >= seg; /* 002:27, 83 */
            if (sw_quick_attack(q, st, a, t, undef, tally)) {
                fallen(q, st, t);
                check_over(q, st);
                if (st->over)
                    break;
            }
            continue;
        }
        if (t >= 0) {
            /* one who fell after the Engage was declared on it */
            count(tally, a, SW_EV_DISENGAGE);
            declare(st, c, 1); /* 002:31 */
            if (agility_roll(q, st, a, t)) {
                c->engages = -1;
                if (st->c[t].engages == a)
                    st->c[t].engages = -1;
            }
            continue;
        }
        if (c->pend_kind != SW_PEND_ENGAGE) {
            int best = -1, best_n = 99;
            for (int j = 0; j < n; j++) {
                if (q->c[j].side == q->c[a].side || !up(&st->c[j]))
                    continue;
                int slots = slots_on(q, st, j, -1);
                int v = st->c[j].engages == a ? -1 : slots;
                if (v < best_n && slots + q->c[a].size <= q->c[j].capacity) {
                    best = j;
                    best_n = v;
                }
            }
            if (best >= 0) {
                count(tally, a, SW_EV_ENGAGE);
                declare(st, c, q->engage_delay); /* 002:19 */
                c->cover = SW_COVER_NONE;        /* ruling A7.11: leaving cover is free */
                c->pend_kind = SW_PEND_ENGAGE;
                c->pend_target = (int8_t)best;
                c->pend_at = seg + q->engage_delay;
                c->pend_decl = seg;
                st->engage_decl = seg;
                continue;
            }
        }
        c->decl_seg = seg; /* waits: passing costs nothing */
        c->flags |= SW_F_WAITED;
    }
    track_build(q, st, &st->track);
    return FRAY_OK;
}
