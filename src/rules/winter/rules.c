/*
 * rules.c - Silent Winter's combat (seed 002): the segment count and its
 * declarations, pending actions (Engage, 002:9), the engagement graph
 * (Engage, Reciprocal Engage, Avoid, Switching Targets, Bugging Out,
 * 002:17-31), attacks and defence (002:33-57), Pain, Winded, Blown,
 * Wounded and bleeding (002:37-39, 92-106), and the tactics a GM would
 * recognise. docs/rules/silent-winter.md gives every ruling.
 */
#include "winter_int.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

static const char *const words[SW_EV_KINDS] = {
    "begin", "next", "engage", "attack", "avoid", "switch", "disengage",
    "chase", "snipe", "cover", "medicine", "wait", "item", "skill", "wield",
    "cast", "release", "surmount", "talent", "dismount", "mount", "ride"};
static const char *const titles[SW_EV_KINDS] = {
    "Begin", "Next segment", "Engage", "Attack", "Avoid", "Switch Targets",
    "Disengage", "Chase a Sniper", "Establish Sniping", "Take Cover",
    "Medicine", "Wait", "Use an Item", "Use a Skill", "Switch Weapons",
    "Cast a Spell", "Release a Spell", "Surmount the Obstacle", "Use a Talent",
    "Dismount", "Get into the Saddle", "Ride Check"};
static const char *const status_names[SW_ST_WORDS] = {
    "Winded", "Blown", "Wounded", "Unconscious", "Dead", "bleeding",
    "Sniping", "Partial Cover", "Full Cover", "Undefended", "avoided",
    "disengaged", "switched", "chased", "surmounted", "Stunned", "Paralyzed", "unhorsed",
    "animated"};

const char *sw_kind_word(int kind) {
    return kind >= 0 && kind < SW_EV_KINDS ? words[kind] : NULL;
}
const char *sw_kind_title(int kind) {
    return kind >= 0 && kind < SW_EV_KINDS ? titles[kind] : NULL;
}
const char *sw_status_name(int w) {
    return w >= 0 && w < SW_ST_WORDS ? status_names[w] : "?";
}

bool sw_can_act(const sw_cstate *c) {
    return !(c->flags & (SW_F_DEAD | SW_F_WOUNDED | SW_F_BLOWN | SW_F_UNCONSCIOUS)) &&
           !c->inanimate; /* ruling 36 */
}
bool sw_out(const sw_cstate *c) { return !sw_can_act(c); }

/* Stunned and Paralyzed (002:98-99): through the segment they last. */
bool sw_stunned(const sw_state *st, int i) {
    return st->c[i].stun_until >= st->seg && !(st->c[i].flags & SW_F_DEAD);
}
bool sw_paralyzed(const sw_state *st, int i) {
    return st->c[i].para_until >= st->seg && !(st->c[i].flags & SW_F_DEAD);
}

/* Mounted combat (002:59-67; ruling 28): mounted while in the saddle and
 * both rider and mount can act. */
int sw_mount_of(const sw_setup *s, const sw_state *st, int r) {
    if (!s->any_mount || r < 0 || r >= s->n || !s->c[r].mount)
        return -1;
    int m = s->c[r].mount - 1;
    if (st->c[r].unhorsed || !sw_can_act(&st->c[r]) || !sw_can_act(&st->c[m]))
        return -1;
    return m;
}
int sw_rider_of(const sw_setup *s, const sw_state *st, int m) {
    if (!s->any_mount)
        return -1;
    int r = m >= 0 && m < s->n ? s->ridden_by[m] - 1 : -1;
    return r >= 0 && sw_mount_of(s, st, r) == m ? r : -1;
}
int sw_unit(const sw_setup *s, const sw_state *st, int i) {
    if (!s->any_mount)
        return i;
    int r = i >= 0 ? sw_rider_of(s, st, i) : -1;
    return r >= 0 ? r : i;
}

/* The quick ways past mounts and Stuns where there are none (the
 * simulation's hot path). */
static inline int unit_(const sw_setup *s, const sw_state *st, int i) {
    return s->any_mount ? sw_unit(s, st, i) : i;
}
static inline bool stunned_(const sw_state *st, int i) {
    return st->stun_max >= st->seg && sw_stunned(st, i);
}
static inline bool paralyzed_(const sw_state *st, int i) {
    return st->stun_max >= st->seg && sw_paralyzed(st, i);
}

/* The engage slots on t (002:27), 2 more on a mounted one (002:67). */
static int capacity_of(const sw_setup *s, const sw_state *st, int t) {
    return s->c[t].b.capacity + (s->any_mount && sw_mount_of(s, st, t) >= 0 ? 2 : 0);
}

/* 002:67: +5 to a mounted combatant's rolls of moving around (ruling
 * mounted-bonus: as the one moving, and, with all, as its opponent). */
int sw_moving_bonus(const sw_setup *s, const sw_state *st, int i, bool actor) {
    if (i < 0 || (!actor && s->opt.mounted_bonus_actor))
        return 0;
    return sw_mount_of(s, st, i) >= 0 || sw_rider_of(s, st, i) >= 0 ? 5 : 0;
}

int sw_hand_index(const sw_setup *s, const sw_state *st, int i) {
    int h = st->c[i].hand;
    return h > 0 ? h - 1 : s->c[i].b.weapon;
}
const sw_weapon *sw_hand(const sw_setup *s, const sw_state *st, int i) {
    return &s->w[sw_hand_index(s, st, i)];
}

/* The order of declarations inside a segment (ruling `order`): higher
 * Agility first, then the lower opening roll, then the file's order. */
static int64_t tie_of(const sw_setup *s, const sw_state *st, int i) {
    if (s->opt.order_file)
        return 63 - i; /* order: file */
    return (int64_t)(s->c[i].b.agility + 64) * 4096 +
           (int64_t)(7 - st->c[i].init_roll) * 64 + (63 - i);
}

static void place(const sw_setup *s, sw_state *st, int i) {
    if (sw_out(&st->c[i]))
        fray__track_drop(&st->track, i); /* off the track (it returns whether
                                            it was on: no status, nothing to fail) */
    else
        fray__track_set(&st->track, i, st->c[i].ready, tie_of(s, st, i));
}

void sw_state_init(const sw_setup *s, sw_state *st, uint64_t seed,
                   uint64_t trial) {
    memset(st, 0, sizeof *st);
    st->seg = 1;
    st->winner = -1;
    st->n = s->n;
    fray_rng_for_trial(&st->rng, seed, trial);
    fray__track_init(&st->track, FRAY__TRACK_ASCENDING);
    for (int i = 0; i < s->n; i++) {
        sw_cstate *c = &st->c[i];
        c->health = s->c[i].b.health;
        c->pain = s->c[i].b.pain;
        c->magic = s->c[i].b.magic;
        c->engages = c->pend_target = -1;
        c->cover = s->c[i].cover;
        c->ready = 1;
        c->inanimate = s->c[i].inanimate; /* ruling 36 */
        if (s->c[i].sniping)
            c->flags |= SW_F_SNIPING;
    }
}

/* ---- Dice and facts ------------------------------------------------------ */

static int roll(sw_run *r, int sides) {
    if (r->failed != FRAY_OK)
        return 1;
    int v;
    if (r->replay) {
        if (r->replay_die >= r->replay->n_dice) {
            r->failed = FRAY_ERR_INVALID;
            return 1;
        }
        sw_die d = r->replay->dice[r->replay_die++];
        if (d.sides != sides) {
            r->failed = FRAY_ERR_INVALID;
            return 1;
        }
        if (r->replay->given)
            v = d.value;
        else
            v = (int)fray_rng_range(&r->st->rng, 1, sides);
        if (v != d.value || v < 1 || v > sides) {
            r->failed = FRAY_ERR_INVALID;
            return 1;
        }
    } else if (r->given) {
        if (r->used_given >= r->n_given) {
            r->failed = FRAY_ERR_INVALID;
            return 1;
        }
        v = r->given[r->used_given];
        if (v < 1 || v > sides) {
            r->bad_sides = sides;
            r->failed = FRAY_ERR_INVALID;
            return 1;
        }
        r->used_given++;
    } else {
        v = (int)fray_rng_range(&r->st->rng, 1, sides);
    }
    sw_event *ev = r->ev;
    if (ev->n_dice >= SW_EV_DICE) {
        r->failed = FRAY_ERR_RANGE;
        return 1;
    }
    ev->dice[ev->n_dice++] = (sw_die){(uint8_t)sides, (uint8_t)v};
    return v;
}

static void fact(sw_run *r, int kind, int who, int other, int a, int b, int c,
                 int d) {
    if (!r->facts)
        return;
    sw_event *ev = r->ev;
    if (ev->n_facts >= SW_EV_FACTS) {
        r->failed = FRAY_ERR_RANGE;
        return;
    }
    ev->facts[ev->n_facts++] = (sw_fact){(uint8_t)kind, (int8_t)who,
                                         (int8_t)other, (int8_t)d, (int16_t)a,
                                         (int16_t)b, (int16_t)c};
}

/* An opposed check (002:33): d20 + mine against d20 + theirs (ruling
 * check-die); `theirs` for a flat roll is 0 (002:39 "no bonus to the
 * GM"). The actor wins a tie only with ties: actor. */
static bool contest(sw_run *r, int who, int other, int mine, int theirs,
                    int what) {
    int tr = sw_roll_of_kind(what); /* talents' bonuses to the roll (ruling 34) */
    mine += sw_talent_roll(r->s, who, tr, true);
    theirs += sw_talent_roll(r->s, other, tr, false);
    int a = roll(r, SW_CHECK_SIDES) + mine;
    int b = roll(r, SW_CHECK_SIDES) + theirs;
    bool won = a > b || (a == b && r->s->opt.ties == SW_TIES_ACTOR);
    fact(r, SW_FACT_CONTEST, who, other, a, b, won, what);
    return won;
}

/* ---- The fight's end and who is out --------------------------------------- */

static void check_over(sw_run *r) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    int alive = -1, sides = 0;
    bool seen[SW_MAX_SIDES] = {false};
    for (int i = 0; i < st->n; i++)
        if (sw_can_act(&st->c[i]) && !seen[s->c[i].side]) {
            seen[s->c[i].side] = true;
            sides++;
            alive = s->c[i].side;
        }
    if (sides <= 1) {
        st->over = true;
        st->winner = (int8_t)(sides == 1 ? alive : -2);
        fact(r, SW_FACT_END, -1, -1, st->winner, 0, 0, 0);
    }
}

/* One who cannot act holds nobody and is held by nobody (ruling
 * fallen-release): its engagers may Engage another at once. */
static void fallen(sw_run *r, int t) {
    sw_state *st = r->st;
    r->fell = true;
    sw_animate_fallen(r, t); /* an animated creature killed (002:75) */
    if (r->s->opt.keep_fallen && !(st->c[t].flags & SW_F_DEAD)) {
        place(r->s, st, t); /* fallen-release: no: the edges stay */
        return;
    }
    sw_eng_clear(st, t);
    for (int j = 0; j < st->n; j++)
        sw_eng_drop(st, j, t); /* (each of a multi-engager's edges, ruling 40) */
    place(r->s, st, t);
}

static void check_dead(sw_run *r, int t) {
    sw_cstate *c = &r->st->c[t];
    if (c->health <= 0 && !(c->flags & SW_F_DEAD)) {
        c->flags |= SW_F_DEAD; /* 002:33 "If you reach 0 health, you are dead" */
        c->flags &= (uint8_t)~SW_F_BLEEDING;
        for (int k = 0; k < c->n_maint; k++) /* what it animated falls (ruling 36) */
            sw_animate_slot_ended(r, c->maint_target[k], c->maint_spell[k], SW_SF_DROPPED);
        c->n_maint = 0; /* the dead Maintain nothing */
        if (c->pend_kind == SW_PEND_SPELL)
            c->pend_kind = SW_PEND_NONE;
        fact(r, SW_FACT_STATUS, t, -1, SW_ST_DEAD, 1, 0, 0);
        fallen(r, t);
    }
}

/* ---- Spells: Maintain and interruptions (002:73-77) ---------------------- */

/* The Magical damage the enchantments Maintained on a's weapon add to a
 * hit (002:35; ruling 31): each one's dice and its caster's spell power
 * in d6 (002:79 "spells which deal or add damage"); -1: none. */
static int enchant_damage(sw_run *r, int a) {
    const sw_setup *s = r->s;
    const sw_state *st = r->st;
    int total = -1;
    for (int i = 0; i < st->n && st->maintained; i++)
        for (int k = 0; k < st->c[i].n_maint; k++) {
            const sw_spell *sp = &s->sp[st->c[i].maint_spell[k]];
            if (st->c[i].maint_target[k] != a || sp->effect != SW_SPELL_ENCHANT)
                continue;
            int d = sp->bonus;
            for (int j = 0; j < sp->dice + s->c[i].b.spell_power; j++)
                d += roll(r, 6);
            total = (total < 0 ? 0 : total) + (d < 0 ? 0 : d);
        }
    return total;
}

/* The Physical Defense that Maintained spells give t (002:27, 96: kept
 * when Undefended). */
static int spell_defense(const sw_setup *s, const sw_state *st, int t) {
    int d = 0;
    for (int i = 0; i < st->n && st->maintained; i++)
        for (int k = 0; k < st->c[i].n_maint; k++)
            if (st->c[i].maint_target[k] == t &&
                s->sp[st->c[i].maint_spell[k]].effect == SW_SPELL_DEFENSE)
                d += s->sp[st->c[i].maint_spell[k]].amount;
    return d;
}

/* i stops Maintaining its k-th spell and has its Maintain back (002:73:
 * released; a failed roll likewise, ruling spells 24). */
static void maint_end(sw_run *r, int i, int k, int why) {
    sw_cstate *c = &r->st->c[i];
    int sp = c->maint_spell[k], t = c->maint_target[k];
    if (why != SW_SF_DROPPED || !r->s->opt.dropped_maint_lost)
        c->magic = (int16_t)(c->magic + r->s->sp[sp].maintain); /* ruling dropped-maintain */
    for (int j = k; j + 1 < c->n_maint; j++) {
        c->maint_spell[j] = c->maint_spell[j + 1];
        c->maint_target[j] = c->maint_target[j + 1];
        c->maint_left[j] = c->maint_left[j + 1];
    }
    c->n_maint--;
    fact(r, SW_FACT_SPELL, i, t, sp, why, c->magic, 0);
    sw_animate_slot_ended(r, t, sp, why); /* the creature falls lifeless (ruling 36) */
}

/* 002:73, 77: a caster who loses Pain while casting or Maintaining makes
 * a flat Endurance roll; a failure interrupts the casting (it may declare
 * again on the next segment, the cost unpaid) and ends one Maintained
 * spell (the latest: fray's choice), then it rolls again until it
 * succeeds or Maintains nothing. The first roll serves both (002:77). */
static void spell_concentration(sw_run *r, int t) {
    const sw_setup *s = r->s;
    sw_cstate *c = &r->st->c[t];
    bool casting = c->pend_kind == SW_PEND_SPELL;
    if (!casting && c->n_maint == 0)
        return;
    bool ok = contest(r, t, -1, s->c[t].b.endurance, 0, SW_EV_CAST);
    if (ok)
        return;
    if (casting) {
        fact(r, SW_FACT_SPELL, t, c->pend_target, c->pend_spell, SW_SF_INTERRUPTED,
             c->magic, 0);
        c->pend_kind = SW_PEND_NONE;
        c->pend_target = -1;
        if (c->ready > r->st->seg + 1) {
            c->ready = r->st->seg + 1; /* "casting again on the next segment" */
            place(s, r->st, t);
        }
    }
    while (!ok && c->n_maint > 0) {
        maint_end(r, t, c->n_maint - 1, SW_SF_DROPPED);
        if (c->n_maint > 0)
            ok = contest(r, t, -1, s->c[t].b.endurance, 0, SW_EV_RELEASE);
    }
}

/* A point of Pain lost (002:37, 103-104; rulings A7.3, A7.4). */
static void lose_pain(sw_run *r, int t) {
    const sw_block *b = &r->s->c[t].b;
    sw_cstate *c = &r->st->c[t];
    if (c->flags & SW_F_DEAD)
        return;
    if (sw_bonus_take(r, t, SW_BONUS_PAIN, 1) == 0) {
        /* a point of bonus Pain used up instead (002:75): no regular Pain
         * lost; the Endurance roll of 002:73, 77 only with
         * bonus-pain-roll: yes (ruling 33) */
        if (r->s->opt.bonus_pain_roll)
            spell_concentration(r, t);
        return;
    }
    bool was_blown = c->flags & SW_F_BLOWN;
    c->pain--;
    int extra = 0;
    if (c->pain < 0) {
        extra = roll(r, 6); /* 1d6 Health per point of negative Pain */
        c->health = (int16_t)(c->health - sw_bonus_take(r, t, SW_BONUS_HEALTH, extra));
    }
    fact(r, SW_FACT_PAIN, t, -1, c->pain, extra, c->health, 0);
    if (c->pain == 0)
        fact(r, SW_FACT_STATUS, t, -1, SW_ST_WINDED, 1, 0, 0);
    if (!was_blown && c->pain <= -b->pain) {
        c->flags |= SW_F_BLOWN;
        fact(r, SW_FACT_STATUS, t, -1, SW_ST_BLOWN, 1, 0, 0);
        fallen(r, t);
    } else if (was_blown && !(c->flags & SW_F_WOUNDED)) {
        c->flags |= SW_F_WOUNDED | SW_F_BLEEDING;
        fact(r, SW_FACT_STATUS, t, -1, SW_ST_WOUNDED, 1, 0, 0);
        fallen(r, t);
    }
    if ((c->flags & SW_F_WOUNDED) && c->pain <= 0 &&
        !(c->flags & SW_F_UNCONSCIOUS)) {
        c->flags |= SW_F_UNCONSCIOUS; /* 002:39 */
        fact(r, SW_FACT_STATUS, t, -1, SW_ST_UNCONSCIOUS, 1, 0, 0);
    }
    check_dead(r, t);
    if (!(c->flags & SW_F_DEAD))
        spell_concentration(r, t);
}

/* ---- Undefended and the graph ------------------------------------------- */

bool sw_undefended(const sw_setup *s, const sw_state *st, int who, int by,
                   bool ranged) {
    const sw_cstate *c = &st->c[who];
    if (c->flags & SW_F_UNCONSCIOUS)                 /* 002:55 */
        return true;
    if (paralyzed_(st, who))                       /* 002:55, 99 */
        return true;
    if ((c->flags & SW_F_BLOWN) && (!ranged || !s->opt.blown_melee_only))
        return true;                                 /* 002:55, 104 (002:37: melee) */
    if (ranged)
        return s->opt.busy_at_range && c->busy_until >= st->seg; /* 002:55 */
    if (c->flags & SW_F_WOUNDED)                     /* 002:98, 102 */
        return true;
    if (stunned_(st, who))                         /* 002:98: all melee foes */
        return true;
    if (c->busy_until >= st->seg)                    /* 002:83 */
        return true;
    return by >= 0 && sw_eng(st, by, unit_(s, st, who)) &&
           !sw_eng(st, who, unit_(s, st, by)); /* 002:27 (002:63: a pair is one target) */
}

static int slots_on(const sw_setup *s, const sw_state *st, int t, int except) {
    int n = 0;
    for (int j = 0; j < st->n; j++)
        if (j != except && sw_eng(st, j, t) &&
            (!s->any_mount || sw_rider_of(s, st, j) < 0))
            n += s->c[j].b.size;
    return n;
}

static bool engaged_at_all(const sw_state *st, int i) {
    if (st->c[i].engages >= 0)
        return true;
    for (int j = 0; j < st->n; j++)
        if (sw_eng(st, j, i))
            return true;
    return false;
}

int sw_delay_of(const sw_setup *s, const sw_state *st, int kind, int actor,
                int target) {
    switch (kind) {
    case SW_EV_ENGAGE: {                         /* 002:19 (002:15: 5) */
        int d = s->opt.engage_delay;
        /* 002:19 "Only Talents can change how long it takes to Engage"
         * (ruling 32): a passive talent's engage-delay; the shortest, or
         * (engage-talents: add) each one's change added, at least 1 (002:11). */
        uint32_t tb = actor >= 0 && actor < s->n ? s->c[actor].b.talents : 0;
        bool set = false;
        int sum = d;
        for (int k = 0; tb && k < s->n_talents; k++)
            if ((tb & (1u << k)) && s->tl[k].effect == SW_TE_ENGAGE_DELAY) {
                sum += s->tl[k].amount - s->opt.engage_delay;
                if (!set || s->tl[k].amount < d)
                    d = s->tl[k].amount;
                set = true;
            }
        if (set && s->opt.engage_talents_add)
            d = sum < 1 ? 1 : sum;
        return d;
    }
    case SW_EV_ATTACK: {
        const sw_weapon *w = sw_hand(s, st, actor);
        return w->delay ? w->delay : s->opt.attack_delay; /* ruling attack-delay */
    }
    case SW_EV_AVOID:
        return 0;                                /* 002:23 */
    case SW_EV_SWITCH:
    case SW_EV_DISENGAGE:
    case SW_EV_CHASE:
    case SW_EV_COVER:
        return 1;                                /* 002:31, 47, 49 */
    case SW_EV_SNIPE:
        return 3;                                /* 002:47 */
    case SW_EV_MEDICINE:
        return target == actor ? 15 : 10;        /* 002:88-89 */
    case SW_EV_ITEM:
        return target == actor ? 2 : 4;          /* 002:86-87 */
    case SW_EV_SKILL:
        return 15;                               /* 002:90 */
    case SW_EV_SURMOUNT:                         /* 002:25: the GM's, the same for all */
        return target > 0 && target <= s->n_obstacles ? s->ob[target - 1].time : s->obstacle;
    case SW_EV_MOUNT:
        return sw_mount_delay(s);                /* 002:65: the circumstances (ruling 43) */
    case SW_EV_CAST:                             /* 002:77 (target: the spell) */
        return target >= 0 && target < s->n_spells ? s->sp[target].delay : 1;
    case SW_EV_TALENT:                           /* ruling 27 (target: the talent) */
        if (target >= 0 && target < s->n_talents && s->tl[target].delay)
            return s->tl[target].delay;
        return sw_delay_of(s, st, SW_EV_ATTACK, actor, -1); /* 002:69: it modifies the attack */
    case SW_EV_WIELD:                            /* 002:85 (target: the weapon) */
        return target >= 0 && target < 32 && (s->c[actor].b.nearby & (1u << target)) ? 5 : 2;
    default:
        return 0;
    }
}

/* How many segments after this one pass with nothing to do in them: no
 * one free to declare, no pending action ending, nobody bleeding (the
 * tactics' `next` skips them in one event; at most 255). */
int sw_quiet_segments(const sw_setup *s, const sw_state *st) {
    (void)s;
    int32_t next = st->seg + 256;
    for (int i = 0; i < st->n; i++) {
        const sw_cstate *c = &st->c[i];
        if (c->flags & SW_F_BLEEDING)
            return 0;
        if (c->pend_kind != SW_PEND_NONE && c->pend_at > st->seg && c->pend_at < next)
            next = c->pend_at;
        if (st->stun_max > st->seg) {
            if (c->stun_until > st->seg && c->stun_until < next)
                next = c->stun_until; /* its end is told (002:98) */
            if (c->para_until > st->seg && c->para_until < next)
                next = c->para_until;
        }
        if (sw_can_act(c)) {
            int32_t r = c->ready > st->seg ? c->ready : st->seg + 1;
            if (r < next)
                next = r;
        }
    }
    return (int)(next - st->seg - 1);
}

/* ---- Checks --------------------------------------------------------------- */

#define WHY(...)                                                              \
    do {                                                                      \
        if (why && size)                                                      \
            snprintf(why, size, __VA_ARGS__);                                 \
        return FRAY_ERR_INVALID;                                              \
    } while (0)

/* Actions on the engagement graph fall on the pair's rider (002:63). */
static bool on_the_graph(int kind) {
    return kind == SW_EV_ENGAGE || kind == SW_EV_DISENGAGE || kind == SW_EV_SWITCH ||
           kind == SW_EV_CHASE || kind == SW_EV_AVOID;
}

static bool avoid_open(const sw_setup *s, const sw_state *st, int b, int a) {
    const sw_cstate *cb = &st->c[b], *ca = &st->c[a];
    return s->scene_avoid && sw_can_act(cb) && !stunned_(st, b) &&
           ca->pend_kind == SW_PEND_ENGAGE &&
           ca->pend_target == b && ca->pend_decl == st->seg &&
           cb->ready <= st->seg &&
           (cb->decl_seg != st->seg || (cb->flags & SW_F_WAITED)) &&
           !engaged_at_all(st, b);
}

fray_status sw_check(const sw_setup *s, const sw_state *st,
                     const sw_event *cmd, char *why, size_t size) {
    int a = cmd->actor, t = cmd->target;
    if (cmd->kind == SW_EV_NEXT) {
        if (cmd->arg > sw_quiet_segments(s, st))
            WHY("something happens before segment %d: the segments end one "
                "at a time", (int)st->seg + 1 + cmd->arg);
        return FRAY_OK;
    }
    if (a < 0 || a >= st->n)
        WHY("nobody to act");
    const sw_cstate *c = &st->c[a];
    const char *an = s->c[a].name;
    if (!sw_can_act(c))
        WHY("%s cannot take combat actions (%s)", an,
            c->flags & SW_F_DEAD ? "dead" : c->flags & SW_F_UNCONSCIOUS ? "Unconscious"
            : c->flags & SW_F_WOUNDED ? "Wounded" : "Blown");
    if (t >= st->n)
        WHY("no such target");
    if (t >= 0 && on_the_graph(cmd->kind))
        t = unit_(s, st, t); /* 002:63 */
    if (stunned_(st, a) && cmd->kind != SW_EV_RELEASE && cmd->kind != SW_EV_DISMOUNT &&
        cmd->kind != SW_EV_RIDE)
        WHY("%s is %s through segment %d: no combat actions (002:%s)", an,
            paralyzed_(st, a) ? "Paralyzed" : "Stunned",
            (int)(paralyzed_(st, a) ? c->para_until : c->stun_until),
            paralyzed_(st, a) ? "99" : "98");
    const char *tn = t >= 0 ? s->c[t].name : "";
    if (cmd->kind == SW_EV_AVOID) {
        if (t < 0)
            WHY("Avoid whom? name the one Engaging %s", an);
        if (!s->scene_avoid)
            WHY("there is no room to Avoid here (the scene, 002:23)");
        if (engaged_at_all(st, a))
            WHY("%s is Engaged already and may not Avoid (002:23)", an);
        if (!avoid_open(s, st, a, t))
            WHY("an Avoid must be declared on the segment %s declares an Engage "
                "on %s, by one free to declare then (002:23)", tn, an);
        return FRAY_OK;
    }
    if (cmd->kind == SW_EV_DISMOUNT) {
        if (sw_mount_of(s, st, a) < 0)
            WHY("%s is not in the saddle", an);
        return FRAY_OK; /* the GM's word, at any time (002:65) */
    }
    if (cmd->kind == SW_EV_RIDE) { /* 002:61 "at the GM's discretion" (ruling 45) */
        if (sw_mount_of(s, st, a) < 0 && sw_rider_of(s, st, a) < 0)
            WHY("%s is not in the saddle, nor ridden", an);
        return FRAY_OK;
    }
    if (sw_rider_of(s, st, a) >= 0 && cmd->kind != SW_EV_ATTACK && cmd->kind != SW_EV_TALENT &&
        cmd->kind != SW_EV_WAIT && cmd->kind != SW_EV_RELEASE)
        WHY("%s is ridden by %s: it attacks the one its rider engages, or waits (002:61, 63)",
            an, s->c[sw_rider_of(s, st, a)].name);
    if (cmd->kind == SW_EV_RELEASE) {
        for (int k = 0; k < c->n_maint; k++)
            if (c->maint_spell[k] == cmd->arg)
                return FRAY_OK; /* "at any time" (002:73) */
        WHY("%s Maintains no %s", an, cmd->arg < s->n_spells ? s->sp[cmd->arg].name : "such spell");
    }
    if (c->ready > st->seg)
        WHY("%s may declare again on segment %d (now %d)", an, c->ready, st->seg);
    if (c->decl_seg == st->seg)
        WHY("%s has %s on segment %d already", an,
            c->flags & SW_F_WAITED ? "waited" : "declared", st->seg);
    if (cmd->kind == SW_EV_MOUNT)
        return sw_saddle_check(s, st, a, t, why, size); /* 002:65 (ruling 43) */
    const sw_weapon *w = sw_hand(s, st, a);
    if (cmd->kind == SW_EV_WIELD) {
        int wi = cmd->arg;
        const sw_block *b = &s->c[a].b;
        if (wi >= s->n_weapons)
            WHY("no such weapon");
        if (wi == sw_hand_index(s, st, a))
            WHY("%s has %s in hand already", an, s->w[wi].name);
        if (wi != b->weapon && !((b->carried | b->nearby) & (1u << wi)))
            WHY("%s has no %s on their person or nearby (the stat block's "
                "weapon, carried and nearby)", an, s->w[wi].name);
        return FRAY_OK;
    }
    if (cmd->kind == SW_EV_CAST) {
        int k = cmd->arg;
        if (k >= s->n_spells || !(s->c[a].b.spells & (1u << k)))
            WHY("%s knows no such spell", an);
        const sw_spell *sp = &s->sp[k];
        if (c->pend_kind != SW_PEND_NONE)
            WHY("%s's %s is under way", an, c->pend_kind == SW_PEND_SPELL ? "spell" : "action");
        if (c->magic < sp->cost + sp->maintain)
            WHY("%s has %d Magic: %s needs %d%s (002:71, 73)", an, c->magic, sp->name,
                sp->cost + sp->maintain, sp->maintain ? " with its Maintain" : "");
        if (sp->maintain && c->n_maint >= SW_MAX_MAINT)
            WHY("%s Maintains %d spells already", an, SW_MAX_MAINT);
        if (sp->kind == SW_SPELL_PERSONAL && t >= 0 && t != a)
            WHY("%s is a Personal spell: on the mage only (002:71)", sp->name);
        if (sp->kind != SW_SPELL_PERSONAL && t < 0)
            WHY("%s needs a target", sp->name);
        if (sp->kind == SW_SPELL_BENEFICIAL && t == a)
            WHY("%s is a Beneficial spell: it cannot be cast on the mage (002:71)", sp->name);
        if (sp->kind == SW_SPELL_RANGED && t == a)
            WHY("%s cannot be cast at %sself", sp->name, "them");
        if (t >= 0 && t != a && (st->c[t].flags & SW_F_DEAD))
            WHY("%s is dead", tn);
        if (sp->kind == SW_SPELL_RANGED && st->c[t].cover == SW_COVER_FULL)
            WHY("%s is in Full Cover: no ranged attack can reach (002:49)", tn);
        if (sp->effect == SW_SPELL_ANIMATE && (t < 0 || !st->c[t].inanimate))
            WHY("%s animates a lifeless creature: %s is not one (002:75)", sp->name,
                t >= 0 ? tn : "nobody");
        return FRAY_OK;
    }
    if (cmd->kind == SW_EV_SURMOUNT && cmd->arg > 0) /* a named one (ruling 46) */
        return sw_surmount_check(s, st, a, cmd->arg - 1, why, size);
    if (cmd->kind == SW_EV_SURMOUNT) {
        if (!s->obstacle)
            WHY("there is no obstacle here (the scene, 002:25)");
        if (c->flags & SW_F_SURMOUNTED)
            WHY("%s is past the obstacle already", an);
        return FRAY_OK;
    }
    bool needs_target = cmd->kind != SW_EV_SNIPE && cmd->kind != SW_EV_COVER &&
                        cmd->kind != SW_EV_WAIT && cmd->kind != SW_EV_SKILL;
    if (needs_target && t < 0)
        WHY("%s needs a target", titles[cmd->kind]);
    if (needs_target && cmd->kind != SW_EV_MEDICINE && cmd->kind != SW_EV_ITEM && t == a)
        WHY("%s cannot %s %sself", an, words[cmd->kind], "them");
    if (needs_target && (st->c[t].flags & SW_F_DEAD) && cmd->kind != SW_EV_DISENGAGE)
        WHY("%s is dead", tn);
    switch (cmd->kind) {
    case SW_EV_ENGAGE:
        if (w->ranged)
            WHY("%s wields a ranged weapon (%s) and cannot Engage (002:47)", an, w->name);
        if (s->c[t].side == s->c[a].side)
            WHY("%s and %s are on the same side", an, tn);
        if (unit_(s, st, t) != t) {
            t = unit_(s, st, t); /* 002:63: rider and mount are one target */
            tn = s->c[t].name;
        }
        if (sw_eng(st, a, t))
            WHY("%s engages %s already", an, tn);
        if (c->engages >= 0 && sw_eng_room(s, a) == 1)
            WHY("%s engages %s: one opponent at a time (002:27); Switch Targets "
                "or Disengage first", an, s->c[c->engages].name);
        if (sw_eng_count(st, a) >= sw_eng_room(s, a)) /* ruling 40 */
            WHY("%s engages %d opponents, as many as its talent allows (002:63); "
                "Disengage first", an, sw_eng_count(st, a));
        if (c->pend_kind == SW_PEND_ENGAGE)
            WHY("%s's Engage on %s is under way", an, s->c[c->pend_target].name);
        if ((st->c[t].flags & SW_F_SNIPING) && !(c->chased & (1u << t)))
            WHY("%s is Sniping: Chase a Sniper first (an Agility roll, 002:47)", tn);
        if (s->obstacle && !((c->flags | st->c[t].flags) & SW_F_SURMOUNTED))
            WHY("an obstacle stands between %s and %s: surmount it first (002:25)", an, tn);
        if (sw_obstacle_between(s, st, a, t) >= 0) /* ruling 46 */
            WHY("the %s stands between %s and %s: surmount it first (002:25)",
                s->ob[sw_obstacle_between(s, st, a, t)].name, an, tn);
        if (slots_on(s, st, t, a) + s->c[a].b.size > capacity_of(s, st, t))
            WHY("%s is Fully Engaged (%d may Engage one of that size, 002:27%s)", tn,
                capacity_of(s, st, t), sw_mount_of(s, st, t) >= 0 ? ", 67" : "");
        return FRAY_OK;
    case SW_EV_TALENT: {
        if (w->siege && !sw_siege_allowed(s, a)) /* 002:57; ruling 41 */
            WHY("the GM allows no siege weapon here: only one with the Siege talent "
                "may use %s (002:57)", w->name);
        int k = cmd->arg;
        if (k >= s->n_talents || !(s->c[a].b.talents & (1u << k)))
            WHY("%s has no such talent", an);
        const sw_talent *tl = &s->tl[k];
        if (tl->resolve == SW_TR_PASSIVE)
            WHY("%s is always at work for %s: it is not declared (ruling 32)", tl->name, an);
        if (tl->pain && c->pain <= 0)
            WHY("%s is Winded and cannot use %s: it needs Pain (002:37)", an, tl->name);
        if (c->pain < tl->pain)
            WHY("%s has %d Pain: %s needs %d (002:37)", an, c->pain, tl->name, tl->pain);
        if (s->c[t].side == s->c[a].side)
            WHY("%s and %s are on the same side", an, tn);
        if (!w->ranged && !sw_eng(st, a, unit_(s, st, t)))
            WHY("%s must Engage %s before %s, a melee talent (002:17)", an, tn, tl->name);
        if (w->ranged && st->c[t].cover == SW_COVER_FULL)
            WHY("%s is in Full Cover: no ranged attack can reach (002:49)", tn);
        return FRAY_OK;
    }
    case SW_EV_ATTACK:
        if (st->c[t].flags & SW_F_DEAD)
            WHY("%s is dead", tn);
        if (w->siege && !sw_siege_allowed(s, a)) /* 002:57; ruling 41 */
            WHY("the GM allows no siege weapon here: only one with the Siege talent "
                "may use %s (002:57)", w->name);
        if (!w->ranged && !sw_eng(st, a, unit_(s, st, t)))
            WHY("%s must Engage %s before a melee attack (002:17)", an, tn);
        if (w->ranged && st->c[t].cover == SW_COVER_FULL)
            WHY("%s is in Full Cover: no ranged attack can reach (002:49)", tn);
        return FRAY_OK;
    case SW_EV_SWITCH:
        if (c->engages < 0)
            WHY("%s engages nobody: Engage instead", an);
        if (sw_eng(st, a, t))
            WHY("%s engages %s already", an, tn);
        if (!sw_eng(st, t, a))
            WHY("%s may switch only to an opponent Engaging them (002:29)", an);
        return FRAY_OK;
    case SW_EV_DISENGAGE:
        if (!sw_eng(st, a, t) && !sw_eng(st, t, a))
            WHY("%s and %s are not Engaged", an, tn);
        return FRAY_OK;
    case SW_EV_CHASE:
        if (!(st->c[t].flags & SW_F_SNIPING))
            WHY("%s is not Sniping", tn);
        if (w->ranged)
            WHY("%s wields a ranged weapon and cannot Engage (002:47)", an);
        if (c->chased & (1u << t))
            WHY("%s has chased %s down already: Engage", an, tn);
        return FRAY_OK;
    case SW_EV_SNIPE:
        if (!s->scene_sniping)
            WHY("no Sniping position can be set up here (the scene, 002:47)");
        if (c->flags & SW_F_SNIPING)
            WHY("%s is Sniping already", an);
        if (engaged_at_all(st, a))
            WHY("%s is Engaged in melee and cannot stay at range", an);
        return FRAY_OK;
    case SW_EV_COVER:
        if (cmd->arg < SW_COVER_PARTIAL || cmd->arg > SW_COVER_FULL)
            WHY("cover is partial or full");
        if (cmd->arg > s->scene_cover)
            WHY("the scene offers %s cover at best (002:49)",
                s->scene_cover == SW_COVER_NONE ? "no" : "partial");
        if (c->cover == cmd->arg)
            WHY("%s is in that cover already", an);
        if (sw_mount_of(s, st, a) >= 0)
            WHY("%s is mounted and cannot take cover (002:67)", an);
        return FRAY_OK;
    case SW_EV_MEDICINE:
        if (!(st->c[t].flags & SW_F_BLEEDING))
            WHY("%s is not bleeding", tn);
        return FRAY_OK;
    case SW_EV_ITEM:
    case SW_EV_SKILL:
        if (cmd->arg) /* an entry with its effects (ruling 35) */
            return cmd->arg - 1 < s->n_items
                       ? sw_item_check(s, st, a, t, cmd->arg - 1, why, size)
                       : FRAY_ERR_INVALID;
        return FRAY_OK;
    case SW_EV_WAIT:
        return FRAY_OK;
    default:
        WHY("not an action");
    }
}

/* ---- Applying ------------------------------------------------------------- */

static void leave_cover(sw_run *r, int a) {
    sw_cstate *c = &r->st->c[a];
    if (c->cover != SW_COVER_NONE) {
        fact(r, SW_FACT_STATUS, a, -1,
             c->cover == SW_COVER_FULL ? SW_ST_FULL : SW_ST_PARTIAL, 0, 0, 0);
        c->cover = SW_COVER_NONE; /* ruling A7.11: leaving cover is free */
    }
}

static int damage_roll(sw_run *r, const sw_weapon *w) {
    int d = w->bonus;
    for (int k = 0; k < w->dice; k++)
        d += roll(r, 6);
    return d;
}

static void harm(sw_run *r, int a, int t, const sw_weapon *w, bool two);
static void saddle(sw_run *r, int t);

void sw_attack_terms(const sw_setup *s, const sw_state *st, int a, int t,
                     sw_attack_terms_t *o) {
    const sw_block *ab = &s->c[a].b, *tb = &s->c[t].b;
    memset(o, 0, sizeof *o);
    o->w = sw_hand(s, st, a);
    o->ranged = o->w->ranged;
    o->two = ab->off_hand >= 0 && !o->ranged; /* the off hand with a melee weapon */
    o->siege = o->w->siege;
    o->sniping = (st->c[a].flags & SW_F_SNIPING) != 0;
    o->partial_cover = o->ranged && st->c[t].cover == SW_COVER_PARTIAL;
    o->atk = ab->physical_attack;
    if (o->siege)
        o->atk -= 10;                                   /* 002:57 */
    if (o->two)
        o->atk -= 5;                                    /* 002:41 */
    if (o->sniping)
        o->atk -= 5;                                    /* 002:47 */
    if (o->partial_cover)
        o->atk -= 5;                                    /* 002:49 */
    o->undefended = sw_undefended(s, st, t, a, o->ranged);
    o->spell_defense = spell_defense(s, st, t);
    o->talent_defense = s->c[t].b.talents ? sw_talent_defense(s, t) : 0; /* ruling 48 */
    o->def = tb->physical_defense + o->spell_defense +
             (o->undefended ? 0 : tb->agility + tb->defense_bonus + o->talent_defense);
}

/* 002:51: a miss into an Engaged cluster may hit anyone engaged with or
 * by the target, not the shooter (ruling friendly-fire: one drawn with a
 * die the size of the cluster); -1 when nobody is there. A weapon's miss
 * and a Ranged spell's miss draw alike. */
static int friendly_pick(sw_run *r, int a, int t) {
    const sw_state *st = r->st;
    int list[SW_MAX_C], n = 0;
    for (int j = 0; j < st->n; j++)
        if (j != t && j != a && !(st->c[j].flags & SW_F_DEAD) &&
            (sw_eng(st, j, t) || sw_eng(st, t, j)))
            list[n++] = j;
    if (n == 0)
        return -1;
    int pick = n == 1 ? 1 : roll(r, n);
    fact(r, SW_FACT_FRIENDLY, a, t, pick, n, 0, list[pick - 1]);
    return list[pick - 1];
}

/* mode: 0 an attack, 1 friendly fire (002:51), 2 a siege weapon's spread
 * (002:57) */
static void talent_effect(sw_run *r, int a, int t, int k);
static void spend_pain(sw_run *r, int a, int k);
static void area_attack(sw_run *r, int a, int t, const sw_weapon *w, bool two,
                        int talent);
static int area_cluster(const sw_state *st, int t, int *list);

static void attack(sw_run *r, int a, int t, int mode, int talent) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    sw_attack_terms_t at;
    sw_attack_terms(s, st, a, t, &at);
    const sw_weapon *w = at.w;
    bool ranged = at.ranged, two = at.two;
    bool friendly = mode != 0;
    if ((w->area || (talent >= 0 && s->tl[talent].area)) && mode == 0) {
        area_attack(r, a, t, w, two, talent); /* 002:53: no roll (an area talent: ruling 49) */
        return;
    }
    int atk = at.atk, def = at.def;
    if (talent >= 0 && s->tl[talent].effect == SW_TE_BONUS)
        atk += s->tl[talent].amount;                    /* ruling 27: its bonus */
    int bits = mode == 1 ? 4 : mode == 2 ? 16 : 0;
    if (at.undefended)
        bits |= 2;
    int ra = roll(r, SW_CHECK_SIDES) + atk;
    int rb = roll(r, SW_CHECK_SIDES) + def;
    bool hit = ra > rb || (ra == rb && s->opt.ties == SW_TIES_ACTOR);
    fact(r, SW_FACT_ATTACK, a, t, ra, rb, hit, bits);
    if (w->siege && mode == 0 && !s->opt.siege_target_only) {
        /* 002:57 "a chance to hit multiple opponents simultaneously"
         * (ruling siege-spread: cluster): an attack on each other member
         * of the target's Engaged cluster (002:51), after this one. */
        int list[SW_MAX_C], n = 0;
        for (int j = 0; j < st->n; j++)
            if (j != t && j != a && !(st->c[j].flags & SW_F_DEAD) &&
                (sw_eng(st, j, t) || sw_eng(st, t, j)))
                list[n++] = j;
        if (hit && talent >= 0 && s->opt.talent_pain_on_hit)
            spend_pain(r, a, talent);
        if (hit)
            harm(r, a, t, w, two);
        if (hit && talent >= 0)
            talent_effect(r, a, t, talent);
        int draws = sw_siege_draws(s, w, n); /* ruling 42: up to N of the cluster */
        for (int k = 0; k < draws; k++) {
            int pick = k + roll(r, n - k) - 1; /* one of those not drawn yet */
            fact(r, SW_FACT_FRIENDLY, a, t, pick - k + 1, n - k, 1, list[pick]);
            int keep = list[k];
            list[k] = list[pick];
            list[pick] = keep;
        }
        if (draws)
            n = draws;
        for (int k = 0; k < n && !(st->c[a].flags & SW_F_DEAD); k++)
            attack(r, a, list[k], 2, -1);
        return;
    }
    if (!hit) {
        if (!ranged || friendly || !s->opt.friendly_fire)
            return;
        int m = friendly_pick(r, a, t);
        if (m >= 0)
            attack(r, a, m, 1, -1); /* 002:51: talents negated by the miss */
        return;
    }
    if (talent >= 0 && s->opt.talent_pain_on_hit)
        spend_pain(r, a, talent);               /* ruling talent-miss: kept */
    harm(r, a, t, w, two);
    if (talent >= 0)
        talent_effect(r, a, t, talent);
}

/* A weapon's damage roll (002:33), both weapons' with two (002:41). */
static int weapon_damage(sw_run *r, int a, const sw_weapon *w, bool two) {
    int dmg = damage_roll(r, w);
    if (two)
        dmg += damage_roll(r, &r->s->w[r->s->c[a].b.off_hand]); /* 002:41 */
    return dmg < 0 ? 0 : dmg;
}

static void physical_harm(sw_run *r, int a, int t, int dmg);
static void enchanted_harm(sw_run *r, int a, int t, int dmg, int magic);

static int enchant_damage(sw_run *r, int a);

/* A hit's damage (002:33) and its Pain (002:37); with a weapon enchanted
 * (002:35; ruling 31) its Magical part too, against Magic Resistance. */
static void harm(sw_run *r, int a, int t, const sw_weapon *w, bool two) {
    int dmg = weapon_damage(r, a, w, two);
    int magic = enchant_damage(r, a);
    if (magic < 0) {
        physical_harm(r, a, t, dmg);
        return;
    }
    enchanted_harm(r, a, t, dmg, magic);
}

/* Physical damage dmg on t: less Physical Resistance with armour that
 * protects (002:33), a point of Pain (002:37), the saddle (002:61). */
static void physical_harm(sw_run *r, int a, int t, int dmg) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    const sw_block *tb = &s->c[t].b;
    int res = 0;
    if (tb->armour >= 0 && (s->a[tb->armour].protects == SW_PROT_PHYSICAL ||
                            s->a[tb->armour].protects == SW_PROT_BOTH))
        res = tb->physical_resistance;                  /* 002:33 */
    int after = dmg > res ? dmg - res : 0;
    sw_cstate *c = &st->c[t];
    c->health = (int16_t)(c->health - sw_bonus_take(r, t, SW_BONUS_HEALTH, after)); /* 002:75 */
    fact(r, SW_FACT_DAMAGE, t, a, dmg, after, c->health, 0);
    if (after > 0 || s->opt.pain_on_any_hit)
        lose_pain(r, t);                                /* 002:37 */
    check_dead(r, t);
    saddle(r, t);                                       /* 002:61 */
}

/* An enchanted weapon's hit (002:35): "the magical damage is ALWAYS
 * applied against Magic Resistance while the physical damage is applied
 * against Physical Resistance", each with armour that protects (002:33);
 * one hit, so one point of Pain (002:37) when either part gets through. */
static void enchanted_harm(sw_run *r, int a, int t, int dmg, int magic) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    const sw_block *tb = &s->c[t].b;
    int prot = tb->armour >= 0 ? s->a[tb->armour].protects : SW_PROT_NONE;
    int pres = prot == SW_PROT_PHYSICAL || prot == SW_PROT_BOTH ? tb->physical_resistance : 0;
    int mres = prot == SW_PROT_MAGICAL || prot == SW_PROT_BOTH ? tb->magic_resistance : 0;
    int pa = dmg > pres ? dmg - pres : 0, ma = magic > mres ? magic - mres : 0;
    sw_cstate *c = &st->c[t];
    c->health = (int16_t)(c->health - sw_bonus_take(r, t, SW_BONUS_HEALTH, pa)); /* 002:75 */
    fact(r, SW_FACT_DAMAGE, t, a, dmg, pa, c->health, 0);
    c->health = (int16_t)(c->health - sw_bonus_take(r, t, SW_BONUS_HEALTH, ma));
    fact(r, SW_FACT_DAMAGE, t, a, magic, ma, c->health, 2);
    if (s->opt.enchant_pain_each) {
        /* enchant-pain: each (ruling 31): a point for each part that gets
         * through, one at least with pain-on-any-hit */
        int n = (pa > 0) + (ma > 0);
        if (n == 0 && s->opt.pain_on_any_hit)
            n = 1;
        for (int i = 0; i < n; i++)
            lose_pain(r, t);                            /* 002:37 */
    } else if (pa + ma > 0 || s->opt.pain_on_any_hit)
        lose_pain(r, t);                                /* 002:37 */
    check_dead(r, t);
    saddle(r, t);                                       /* 002:61 */
}

/* ---- Mounted combat (002:59-67; ruling 28) --------------------------------- */

/* 002:63 "When you Engage a target, the mount also Engages that target". */
static void mounts_follow(const sw_setup *s, sw_state *st) {
    if (!s->any_mount)
        return;
    for (int r = 0; r < st->n; r++) {
        int m = sw_mount_of(s, st, r);
        if (m >= 0) {
            st->c[m].engages = st->c[r].engages;
            st->c[m].eng_more = 0; /* 002:63: not the rider's other targets */
        }
    }
}

static void stun(sw_run *r, int t, int n, bool para);

/* 002:61 "You must also roll Ride when you are hit in combat or when the
 * mount is hit in order to stay in the saddle": a flat Ride roll; a fall
 * Stuns the rider 1d6 segments (002:65 "probably ... some Stun at the very
 * least"; ruling fall-stun). */
static void saddle(sw_run *r, int t) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    if (!s->any_mount)
        return;
    int rider = sw_mount_of(s, st, t) >= 0 ? t : sw_rider_of(s, st, t);
    if (rider < 0 || sw_mount_of(s, st, rider) < 0)
        return;
    int m = sw_mount_of(s, st, rider);
    if (contest(r, rider, -1, s->c[rider].b.ride, 0, SW_EV_DISMOUNT))
        return;
    st->c[rider].unhorsed = true;
    fact(r, SW_FACT_STATUS, rider, m, SW_ST_UNHORSED, 1, 0, 0);
    if (!s->opt.fall_no_stun)
        stun(r, rider, roll(r, 6), false);
}

/* ---- Talents and the statuses they bring (ruling 27) ----------------------- */

/* a spends its talent k's Pain (002:37 "most talents require you to spend
 * pain"); Pain spent is Pain lost, so a caster rolls as 002:73, 77 say. */
static void spend_pain(sw_run *r, int a, int k) {
    sw_cstate *c = &r->st->c[a];
    int cost = r->s->tl[k].pain;
    int regular = sw_bonus_take(r, a, SW_BONUS_PAIN, cost); /* bonus Pain first (002:75) */
    c->pain = (int16_t)(c->pain - regular);
    fact(r, SW_FACT_TALENT, a, -1, k, c->pain, cost, 0);
    if (regular > 0 && c->pain == 0)
        fact(r, SW_FACT_STATUS, a, -1, SW_ST_WINDED, 1, 0, 0);
    int rolls = r->s->opt.bonus_pain_roll ? cost : regular; /* ruling bonus-pain-roll */
    for (int i = 0; i < rolls && !(c->flags & SW_F_DEAD); i++)
        spell_concentration(r, a);
}

/* Stunned (or Paralyzed, as Stunned and unable to move) through segment
 * `until` (002:98-99): no combat actions (it declares again after), all
 * cover lost, its Engages kept; what it had under way ends (ruling
 * stun-interrupts) and its Maintained spells hold (ruling stun-maintain). */
static void stun(sw_run *r, int t, int n, bool para) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    sw_cstate *c = &st->c[t];
    int32_t *u = para ? &c->para_until : &c->stun_until;
    bool already = *u >= st->seg;
    int32_t until = st->seg + n;
    if (already && s->opt.stun_add)
        until = *u + n;                      /* stun-stacking: add */
    else if (already && *u > until)
        until = *u;                          /* stun-stacking: longer */
    *u = until;
    if (para && c->stun_until < until)
        c->stun_until = until;               /* 002:99 "As Stunned" */
    if (st->stun_max < c->stun_until)
        st->stun_max = c->stun_until;
    fact(r, SW_FACT_STATUS, t, -1, para ? SW_ST_PARALYZED : SW_ST_STUNNED, 1, (int)until, 0);
    leave_cover(r, t);                       /* 002:98 "You also lose all cover" */
    if (!s->opt.stun_keeps_pending && c->pend_kind != SW_PEND_NONE) {
        if (c->pend_kind == SW_PEND_ENGAGE)
            fact(r, SW_FACT_ENGAGED, t, c->pend_target, 0, 6, 0, 0);
        else if (c->pend_kind == SW_PEND_SPELL)
            fact(r, SW_FACT_SPELL, t, c->pend_target, c->pend_spell, SW_SF_INTERRUPTED,
                 c->magic, 0);
        c->pend_kind = SW_PEND_NONE;         /* stun-interrupts: yes */
        c->pend_target = -1;
    }
    sw_saddle_stunned(r, t);                 /* stun-interrupts: the saddle too (ruling 43) */
    if (s->opt.stun_maint_roll && c->n_maint > 0) {
        /* stun-maintain: roll: as for Pain lost (002:73) */
        bool ok = contest(r, t, -1, s->c[t].b.endurance, 0, SW_EV_RELEASE);
        while (!ok && c->n_maint > 0) {
            maint_end(r, t, c->n_maint - 1, SW_SF_DROPPED);
            if (c->n_maint > 0)
                ok = contest(r, t, -1, s->c[t].b.endurance, 0, SW_EV_RELEASE);
        }
    }
    if (c->ready <= c->stun_until) {
        c->ready = c->stun_until + 1;        /* declares once it ends */
        place(s, st, t);
    }
}

/* Wounded by a talent (002:39): no combat actions, bleeding. */
static void wound(sw_run *r, int t) {
    sw_cstate *c = &r->st->c[t];
    if (c->flags & (SW_F_WOUNDED | SW_F_DEAD))
        return;
    c->flags |= SW_F_WOUNDED | SW_F_BLEEDING;
    fact(r, SW_FACT_STATUS, t, -1, SW_ST_WOUNDED, 1, 0, 0);
    if (c->pain <= 0 && !(c->flags & SW_F_UNCONSCIOUS)) {
        c->flags |= SW_F_UNCONSCIOUS; /* 002:39 */
        fact(r, SW_FACT_STATUS, t, -1, SW_ST_UNCONSCIOUS, 1, 0, 0);
    }
    fallen(r, t);
}

static void talent_effect(sw_run *r, int a, int t, int k) {
    (void)a;
    const sw_talent *tl = &r->s->tl[k];
    if (r->st->c[t].flags & SW_F_DEAD)
        return;
    switch (tl->effect) {
    case SW_TE_STUN:
        stun(r, t, tl->amount, false);
        break;
    case SW_TE_PARALYZE:
        stun(r, t, tl->amount, true);
        break;
    case SW_TE_WOUND:
        wound(r, t);
        break;
    default:
        break; /* a bonus: counted in the roll */
    }
}

static void resolve_engage(sw_run *r, int a) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    sw_cstate *c = &st->c[a];
    int t = c->pend_target;
    c->pend_kind = SW_PEND_NONE;
    c->pend_target = -1;
    int why = 0;
    if (!sw_can_act(c))
        why = 1;
    else if (st->c[t].flags & SW_F_DEAD)
        why = 2;
    else if ((st->c[t].flags & SW_F_SNIPING) && !(c->chased & (1u << t)))
        why = 3;
    else if (sw_eng(st, a, t))
        why = 4;
    else if (slots_on(s, st, t, a) + s->c[a].b.size > capacity_of(s, st, t))
        why = 5;
    if (why) {
        fact(r, SW_FACT_ENGAGED, a, t, 0, why, 0, 0);
        return;
    }
    if (sw_eng_count(st, a) < sw_eng_room(s, a))
        sw_eng_add(st, a, t); /* one more (a talent's engages: N, ruling 40) */
    else
        c->engages = (int8_t)t; /* replaces any other (one at a time, 002:27) */
    int held = sw_eng_count(st, a);
    fact(r, SW_FACT_ENGAGED, a, t, 1, 0, held > 1 ? held : 0, 0);
    sw_cstate *ct = &st->c[t];
    if (ct->flags & SW_F_SNIPING) {
        ct->flags &= (uint8_t)~SW_F_SNIPING; /* ruling A7.10 */
        fact(r, SW_FACT_STATUS, t, -1, SW_ST_SNIPING, 0, 0, 0);
    }
    /* 002:21: Reciprocal Engage, if it engages nobody (a pending Engage
     * does not count, ruling A7.16). */
    bool open = ct->engages < 0 ||
                (s->opt.multi_recip_room && !sw_eng(st, t, a) &&
                 sw_eng_count(st, t) < sw_eng_room(s, t)); /* ruling 40 */
    if (open && sw_can_act(ct) && !stunned_(st, t) && s->c[t].reciprocal &&
        !sw_hand(s, st, t)->ranged) {
        sw_eng_add(st, t, a);
        fact(r, SW_FACT_RECIP, t, a, 0, 0, 0, 0);
    }
}

/* A spell takes effect at the end of its delay (002:77): the Magic paid
 * then (with the Maintain set aside, 002:73), and its effect. */
static void area_spell(sw_run *r, int a, int t, int k);
static void spell_status(sw_run *r, int t, const sw_spell *sp);
static int spell_damage(sw_run *r, int a, const sw_spell *sp);
static void magic_harm(sw_run *r, int a, int t, int dmg);
static void ranged_spell(sw_run *r, int a, int t, int k, bool friendly);

static void resolve_spell(sw_run *r, int a) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    sw_cstate *c = &st->c[a];
    int k = c->pend_spell, t = c->pend_target < 0 ? a : c->pend_target;
    const sw_spell *sp = &s->sp[k];
    c->pend_kind = SW_PEND_NONE;
    c->pend_target = -1;
    if (!sw_can_act(c) || (st->c[t].flags & SW_F_DEAD) ||
        c->magic < sp->cost + sp->maintain ||
        (sp->kind == SW_SPELL_RANGED && st->c[t].cover == SW_COVER_FULL)) {
        fact(r, SW_FACT_SPELL, a, t, k, SW_SF_FIZZLE, c->magic, 0);
        return;
    }
    c->magic = (int16_t)(c->magic - sp->cost - sp->maintain);
    fact(r, SW_FACT_SPELL, a, t, k, SW_SF_EFFECT, c->magic, 0);
    if (sp->maintain && c->n_maint < SW_MAX_MAINT) {
        c->maint_spell[c->n_maint] = (int8_t)k;
        c->maint_target[c->n_maint] = (int8_t)t;
        c->maint_left[c->n_maint] = sw_bonus_effect(sp->effect) ? sp->amount : 0; /* 002:75 */
        c->n_maint++;
        st->maintained = true; /* (the loops over Maintained spells look from now on) */
        fact(r, SW_FACT_SPELL, a, t, k, SW_SF_MAINTAINED, c->magic, 0);
    }
    if (sp->effect == SW_SPELL_HEAL) {
        sw_cstate *ct = &st->c[t];
        int max = s->c[t].b.health;
        int h = ct->health + sp->amount;
        ct->health = (int16_t)(h > max ? max : h);
        fact(r, SW_FACT_DAMAGE, t, a, -sp->amount, 0, ct->health, 1);
        return;
    }
    if (sp->kind == SW_SPELL_AREA) {
        area_spell(r, a, t, k); /* 002:53: no roll */
        return;
    }
    if (sp->effect == SW_SPELL_ANIMATE) {
        sw_animate_rise(r, a, t); /* ruling 36 */
        return;
    }
    if (sp->effect == SW_SPELL_DEFENSE || sp->effect == SW_SPELL_ENCHANT ||
        sw_bonus_effect(sp->effect))
        return; /* they last while Maintained (ruling 24, 31, 33) */
    ranged_spell(r, a, t, k, false);
}

/* A Ranged spell's Magic Attack roll against Magic Defense (002:33, 71)
 * and its effect on a hit; a miss into an Engaged cluster may strike one
 * of it (002:51 "if you miss with a ranged attack ... Spells are not"
 * negated; ruling friendly-fire, as a weapon's miss: one drawn, and the
 * spell's effect whole). friendly: this roll is that second one. */
static void ranged_spell(sw_run *r, int a, int t, int k, bool friendly) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    const sw_spell *sp = &s->sp[k];
    const sw_block *ab = &s->c[a].b, *tb = &s->c[t].b;
    int atk = ab->magic_attack;
    if (st->c[a].flags & SW_F_SNIPING)
        atk -= 5;                                        /* 002:47 */
    if (st->c[t].cover == SW_COVER_PARTIAL)
        atk -= 5;                                        /* 002:49 */
    int ra = roll(r, SW_CHECK_SIDES) + atk;
    int rb = roll(r, SW_CHECK_SIDES) + tb->magic_defense +
             sw_talent_magic_defense(s, t); /* talent-defense: both (ruling 48) */
    bool hit = ra > rb || (ra == rb && s->opt.ties == SW_TIES_ACTOR);
    fact(r, SW_FACT_ATTACK, a, t, ra, rb, hit, friendly ? 8 | 4 : 8);
    if (!hit) {
        if (friendly || !s->opt.friendly_fire)
            return;
        int m = friendly_pick(r, a, t);
        if (m >= 0)
            ranged_spell(r, a, m, k, true);
        return;
    }
    if (sp->effect != SW_SPELL_DAMAGE) {
        spell_status(r, t, sp); /* ruling 29 */
        return;
    }
    magic_harm(r, a, t, spell_damage(r, a, sp));
}

/* A spell's damage: its dice and the caster's spell power in d6 (002:79). */
static int spell_damage(sw_run *r, int a, const sw_spell *sp) {
    int dmg = sp->bonus;
    for (int i = 0; i < sp->dice + r->s->c[a].b.spell_power; i++)
        dmg += roll(r, 6);                               /* 002:79 */
    return dmg < 0 ? 0 : dmg;
}

/* Magical damage on t (002:33: less Magic Resistance with armour that
 * protects; 002:37 a point of Pain; 002:61 the saddle). */
static void magic_harm(sw_run *r, int a, int t, int dmg) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    const sw_block *tb = &s->c[t].b;
    int res = 0;
    if (tb->armour >= 0 && (s->a[tb->armour].protects == SW_PROT_MAGICAL ||
                            s->a[tb->armour].protects == SW_PROT_BOTH))
        res = tb->magic_resistance;                      /* 002:33 */
    int after = dmg > res ? dmg - res : 0;
    sw_cstate *ct = &st->c[t];
    ct->health = (int16_t)(ct->health - sw_bonus_take(r, t, SW_BONUS_HEALTH, after)); /* 002:75 */
    fact(r, SW_FACT_DAMAGE, t, a, dmg, after, ct->health, 0);
    if (after > 0 || s->opt.pain_on_any_hit)
        lose_pain(r, t);                                 /* 002:37 "physical OR magical" */
    check_dead(r, t);
    saddle(r, t);                                        /* 002:61 */
}

/* A spell's Stun, Paralysis or Wound (ruling 29; 002:53 "If an area effect
 * causes Wounds or Stun"). */
static void spell_status(sw_run *r, int t, const sw_spell *sp) {
    if (r->st->c[t].flags & SW_F_DEAD)
        return;
    if (sp->effect == SW_SPELL_WOUND)
        wound(r, t);
    else if (sp->effect == SW_SPELL_STUN || sp->effect == SW_SPELL_PARALYZE)
        stun(r, t, sp->amount, sp->effect == SW_SPELL_PARALYZE);
}

/* The Engaged cluster an area effect falls on (002:51, 53): the target
 * first, then everyone engaged with or by it (one hop), not the dead. */
static int area_cluster(const sw_state *st, int t, int *list) {
    int n = 0;
    list[n++] = t;
    for (int j = 0; j < st->n; j++)
        if (j != t && !(st->c[j].flags & SW_F_DEAD) &&
            (sw_eng(st, j, t) || sw_eng(st, t, j)))
            list[n++] = j;
    return n;
}

/* An area attack with a weapon (002:53 "Area spells and attacks ... you
 * don't have to roll to hit with them"): as an area spell (ruling 29),
 * physical damage on everyone in the target's cluster, the attacker
 * spared (ruling area-attacker) or not; rolled once for all or for each (area-damage);
 * those in Full Cover spared from a ranged one (area-full-cover). A talent
 * used with it spends its Pain and brings its effect on the target. */
static void area_attack(sw_run *r, int a, int t, const sw_weapon *w, bool two,
                        int talent) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    int list[SW_MAX_C];
    int n = area_cluster(st, t, list);
    /* an area talent (ruling 49): its effect on the whole cluster; an
     * automatic one brings no weapon damage, its Pain spent already */
    bool tarea = talent >= 0 && s->tl[talent].area;
    bool tauto = tarea && s->tl[talent].resolve == SW_TR_AUTOMATIC;
    int once = s->opt.area_damage_each || tauto ? 0 : weapon_damage(r, a, w, two);
    int fell[SW_MAX_C], n_fell = 0; /* whom it fell on (area-talent: cluster) */
    for (int i = 0; i < n; i++) {
        int m = list[i];
        if (st->c[m].flags & SW_F_DEAD)
            continue;
        if (m == a && !s->opt.area_hits_attacker)
            continue; /* area-attacker: spared (ruling 30) */
        if (w->ranged && st->c[m].cover == SW_COVER_FULL && !s->opt.area_hits_full_cover)
            continue; /* area-full-cover: spared (002:49) */
        fact(r, SW_FACT_AREA, a, m, (int)(w - s->w), tarea ? talent + 1 : 0, 0, 0);
        if (!tauto)
            physical_harm(r, a, m, s->opt.area_damage_each ? weapon_damage(r, a, w, two) : once);
        fell[n_fell++] = m;
    }
    if (talent >= 0 && !(st->c[a].flags & SW_F_DEAD)) {
        if (s->opt.talent_pain_on_hit && !tauto)
            spend_pain(r, a, talent);           /* ruling talent-miss: kept */
        if (!s->opt.area_talent_cluster && !tarea)
            talent_effect(r, a, t, talent);     /* area-talent: target (ruling 30) */
        else
            for (int i = 0; i < n_fell; i++)    /* area-talent: cluster */
                talent_effect(r, a, fell[i], talent);
    }
}

/* 002:53 "Area spells ... automatically affect everyone in a given Engaged
 * cluster. If an area effect causes Wounds or Stun, it works just as well
 * on allies as it does on foes": the target and everyone engaged with or
 * by it (one hop, 002:51), the caster too if it is among them; no roll;
 * damage rolled once for all (ruling area-damage), those in Full Cover
 * spared (ruling area-full-cover). */
static void area_spell(sw_run *r, int a, int t, int k) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    const sw_spell *sp = &s->sp[k];
    int list[SW_MAX_C];
    int n = area_cluster(st, t, list);
    int once = sp->effect == SW_SPELL_DAMAGE && !s->opt.area_damage_each ? spell_damage(r, a, sp) : 0;
    for (int i = 0; i < n; i++) {
        int m = list[i];
        if (st->c[m].flags & SW_F_DEAD)
            continue;
        if (st->c[m].cover == SW_COVER_FULL && !s->opt.area_hits_full_cover)
            continue; /* area-full-cover: spared (002:49) */
        fact(r, SW_FACT_SPELL, a, m, k, SW_SF_AREA, st->c[a].magic, 0);
        if (sp->effect == SW_SPELL_DAMAGE)
            magic_harm(r, a, m, s->opt.area_damage_each ? spell_damage(r, a, sp) : once);
        else
            spell_status(r, m, sp);
    }
}

/* The end of the segment: pending actions whose delay ends now, then
 * bleeding and the stop-bleeding rolls; then the next segment. */
static void segment_end(sw_run *r) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    /* in the order of declarations (the track's order); the order only
     * when something pending ends now (a simulation's quiet segment end
     * skips it: issue 17 "Speed") */
    int order[SW_MAX_C], n = 0;
    bool ends = false;
    for (int i = 0; i < st->n && !ends; i++)
        ends = st->c[i].pend_kind != SW_PEND_NONE && st->c[i].pend_at == st->seg;
    if (ends) {
        uint32_t on = 0;
        for (int k = 0; k < st->track.n; k++) {
            order[n++] = st->track.e[k].who;
            on |= 1u << st->track.e[k].who;
        }
        for (int i = 0; i < st->n; i++)
            if (!(on & (1u << i)))
                order[n++] = i;
    }
    for (int k = 0; k < n && !st->over; k++) {
        int i = order[k];
        sw_cstate *c = &st->c[i];
        if (c->pend_kind == SW_PEND_NONE || c->pend_at != st->seg)
            continue;
        if (c->pend_kind == SW_PEND_ENGAGE) {
            resolve_engage(r, i);
        } else if (c->pend_kind == SW_PEND_SPELL) {
            resolve_spell(r, i);
        } else {
            c->pend_kind = SW_PEND_NONE;
            if (sw_can_act(c) && !engaged_at_all(st, i)) {
                c->flags |= SW_F_SNIPING;
                fact(r, SW_FACT_STATUS, i, -1, SW_ST_SNIPING, 1, 0, 0);
            }
        }
    }
    for (int i = 0; i < st->n; i++) {
        sw_cstate *c = &st->c[i];
        if (!(c->flags & SW_F_BLEEDING) || (c->flags & SW_F_DEAD))
            continue;
        int d = roll(r, 6); /* 002:39, 102 */
        c->health = (int16_t)(c->health - sw_bonus_take(r, i, SW_BONUS_HEALTH, d)); /* 002:75 */
        fact(r, SW_FACT_BLEED, i, -1, d, 0, c->health, 0);
        lose_pain(r, i);
        if ((c->flags & SW_F_DEAD) || !s->opt.stop_bleeding)
            continue;
        if (contest(r, i, -1, s->c[i].b.endurance + sw_talent_roll(s, i, SW_ROLL_ENDURANCE, true),
                    0, SW_EV_MEDICINE)) { /* stop the bleeding (002:39; ruling 34) */
            c->flags &= (uint8_t)~SW_F_BLEEDING;
            fact(r, SW_FACT_STATUS, i, -1, SW_ST_BLEEDING, 0, 0, 0);
            if ((c->flags & SW_F_UNCONSCIOUS) &&
                contest(r, i, -1, s->c[i].b.endurance, 0, SW_EV_WAIT)) {
                c->flags &= (uint8_t)~SW_F_UNCONSCIOUS;
                fact(r, SW_FACT_STATUS, i, -1, SW_ST_UNCONSCIOUS, 0, 0, 0);
            }
        } else {
            int e = roll(r, 6);
            c->health = (int16_t)(c->health - sw_bonus_take(r, i, SW_BONUS_HEALTH, e));
            fact(r, SW_FACT_BLEED, i, -1, e, 1, c->health, 0);
            check_dead(r, i);
        }
    }
    for (int i = 0; i < st->n && st->stun_max >= st->seg; i++) {
        const sw_cstate *c = &st->c[i];
        if (c->flags & SW_F_DEAD)
            continue;
        if (c->para_until == st->seg)
            fact(r, SW_FACT_STATUS, i, -1, SW_ST_PARALYZED, 0, 0, 0); /* 002:99 */
        if (c->stun_until == st->seg)
            fact(r, SW_FACT_STATUS, i, -1, SW_ST_STUNNED, 0, 0, 0);   /* 002:98 */
    }
    sw_saddle_end(r); /* ruling 43 */
    mounts_follow(s, st);
    if (!st->over && r->fell)
        check_over(r);
    st->seg++;
    fact(r, SW_FACT_SEGMENT, -1, -1, st->seg, 0, 0, 0);
}

fray_status sw_begin(sw_run *r) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    sw_event *ev = r->ev;
    ev->kind = SW_EV_BEGIN;
    ev->actor = ev->target = -1;
    ev->seg = 1;
    ev->given = r->given != NULL;
    for (int i = 0; i < s->n; i++) {
        sw_cstate *c = &st->c[i];
        if (i == s->initiator) {
            c->ready = 1; /* 002:13: the one who starts declares on 1 */
            c->init_roll = 0;
        } else {
            int d = roll(r, 6);
            c->init_roll = (int8_t)d;
            c->ready = 1 + d; /* 002:15: a roll of 4 declares on segment 5 */
        }
        fact(r, SW_FACT_INIT, i, -1, c->init_roll, c->ready, 0, 0);
    }
    for (int i = 0; i < s->n; i++)
        place(s, st, i);
    st->started = true;
    return r->failed;
}

#ifndef NDEBUG
/* sw_state.maintained is up whenever anyone Maintains a spell (the loops
 * over Maintained spells are passed while it is down). */
static bool maintained_holds(const sw_state *st) {
    for (int i = 0; i < st->n; i++)
        if (st->c[i].n_maint > 0 && !st->maintained)
            return false;
    return true;
}
#endif

fray_status sw_apply(sw_run *r) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    sw_event *ev = r->ev;
    ev->given = r->replay ? r->replay->given : r->given != NULL;
    ev->seg = st->seg;
    int a = ev->actor, t = ev->target;
    /* The tactics' commands were checked as they were chosen (sw_choose
     * gives only what sw_check allows; asserted in debug builds). */
    assert(!r->trusted || sw_check(s, st, ev, NULL, 0) == FRAY_OK);
    assert(maintained_holds(st));
    if (!r->trusted && sw_check(s, st, ev, NULL, 0) != FRAY_OK)
        return FRAY_ERR_INVALID;
    if (ev->kind == SW_EV_NEXT) {
        segment_end(r);
        if (!st->over && ev->arg > 0) {
            st->seg += ev->arg; /* quiet segments: nothing happens in them */
            fact(r, SW_FACT_SEGMENT, -1, -1, st->seg, ev->arg, 0, 0);
        }
        return r->failed;
    }
    sw_cstate *c = &st->c[a];
    if (t >= 0 && on_the_graph(ev->kind))
        ev->target = (int8_t)(t = unit_(s, st, t)); /* 002:63: one target */
    if (ev->kind == SW_EV_RIDE) {
        saddle(r, a); /* 002:61: a flat Ride roll; a failure is a fall (ruling 45) */
        return r->failed;
    }
    if (ev->kind == SW_EV_DISMOUNT) {
        c->unhorsed = true; /* the GM's word (002:65) */
        fact(r, SW_FACT_STATUS, a, s->c[a].mount - 1, SW_ST_UNHORSED, 1, 0, 0);
        return r->failed;
    }
    if (ev->kind == SW_EV_RELEASE) {
        for (int k = 0; k < c->n_maint; k++)
            if (c->maint_spell[k] == ev->arg) {
                maint_end(r, a, k, SW_SF_RELEASED); /* 002:73: its Maintain back */
                break;
            }
        return r->failed;
    }
    if (ev->kind == SW_EV_WAIT) {
        c->decl_seg = st->seg; /* ruling waiting: passing costs nothing */
        c->flags |= SW_F_WAITED;
        fact(r, SW_FACT_DECLARE, a, -1, SW_EV_WAIT, c->ready, 0, 0);
        return r->failed;
    }
    int d = sw_delay_of(s, st, ev->kind, a,
                        ev->kind == SW_EV_WIELD || ev->kind == SW_EV_CAST ||
                                ev->kind == SW_EV_TALENT || ev->kind == SW_EV_SURMOUNT
                            ? ev->arg
                            : t);
    c->decl_seg = st->seg;
    c->flags &= (uint8_t)~SW_F_WAITED;
    c->ready = st->seg + 1 + d; /* 002:9: 1 to declare, then the delay */
    fact(r, SW_FACT_DECLARE, a, t, ev->kind, c->ready, ev->arg, 0);
    switch (ev->kind) {
    case SW_EV_ENGAGE:
        leave_cover(r, a);
        if (sw_mount_of(s, st, a) >= 0) {
            /* 002:61: a Ride roll against the mount's Willfulness first */
            int m = sw_mount_of(s, st, a);
            if (!contest(r, a, m, s->c[a].b.ride, s->c[m].b.willfulness, SW_EV_DISMOUNT))
                break;
        }
        c->pend_kind = SW_PEND_ENGAGE; /* takes effect at the end (002:9) */
        c->pend_target = (int8_t)t;
        c->pend_at = st->seg + d;
        c->pend_decl = st->seg;
        st->engage_decl = st->seg; /* (an Avoid is looked for now) */
        break;
    case SW_EV_ATTACK:
        if (sw_hand(s, st, a)->ranged && c->cover == SW_COVER_FULL)
            leave_cover(r, a);
        attack(r, a, t, 0, -1);
        break;
    case SW_EV_TALENT: {
        const sw_talent *tl = &s->tl[ev->arg];
        if (sw_hand(s, st, a)->ranged && c->cover == SW_COVER_FULL)
            leave_cover(r, a);
        bool auto_ = tl->resolve == SW_TR_AUTOMATIC;
        if (auto_ || !s->opt.talent_pain_on_hit)
            spend_pain(r, a, ev->arg); /* 002:37: talents spend Pain */
        if (st->c[a].flags & SW_F_DEAD)
            break;
        if (auto_ && tl->area)
            area_attack(r, a, t, sw_hand(s, st, a), false, ev->arg); /* ruling 49 */
        else if (auto_)
            talent_effect(r, a, t, ev->arg); /* no roll (ruling 27) */
        else
            attack(r, a, t, 0, ev->arg);
        break;
    }
    case SW_EV_AVOID: {
        sw_cstate *ct = &st->c[t];
        if (contest(r, a, t, s->c[a].b.agility + sw_moving_bonus(s, st, a, true),
                    s->c[t].b.agility + sw_moving_bonus(s, st, t, false), SW_EV_AVOID)) {
            ct->pend_kind = SW_PEND_NONE; /* "you manage to scramble away" */
            ct->pend_target = -1;
            fact(r, SW_FACT_STATUS, a, t, SW_ST_AVOIDED, 1, 0, 0);
        }
        break;
    }
    case SW_EV_SWITCH: {
        int cur = c->engages;
        if (contest(r, a, cur, s->c[a].b.agility + sw_moving_bonus(s, st, a, true),
                    s->c[cur].b.agility + sw_moving_bonus(s, st, cur, false), SW_EV_SWITCH)) {
            if (s->opt.multi_switch_add && sw_eng_count(st, a) < sw_eng_room(s, a))
                sw_eng_add(st, a, t); /* ruling 40: multi-switch: add */
            else
                c->engages = (int8_t)t; /* 002:29 */
            fact(r, SW_FACT_STATUS, a, t, SW_ST_SWITCHED, 1, 0, 0);
        }
        break;
    }
    case SW_EV_DISENGAGE:
        if (contest(r, a, t, s->c[a].b.agility + sw_moving_bonus(s, st, a, true),
                    s->c[t].b.agility + sw_moving_bonus(s, st, t, false), SW_EV_DISENGAGE)) {
            sw_eng_drop(st, a, t); /* 002:31 (one edge of several, ruling 40) */
            sw_eng_drop(st, t, a);
            fact(r, SW_FACT_STATUS, a, t, SW_ST_DISENGAGED, 1, 0, 0);
        }
        break;
    case SW_EV_CHASE:
        if (contest(r, a, t, s->c[a].b.agility + sw_moving_bonus(s, st, a, true),
                    s->c[t].b.agility + sw_moving_bonus(s, st, t, false), SW_EV_CHASE)) {
            c->chased |= 1u << t; /* 002:47 */
            fact(r, SW_FACT_STATUS, a, t, SW_ST_CHASED, 1, 0, 0);
        }
        break;
    case SW_EV_SNIPE:
        if (s->opt.sniping_at_end) {
            c->pend_kind = SW_PEND_SNIPE;
            c->pend_at = st->seg + d;
            c->pend_decl = st->seg;
        } else {
            c->flags |= SW_F_SNIPING;
            fact(r, SW_FACT_STATUS, a, -1, SW_ST_SNIPING, 1, 0, 0);
        }
        break;
    case SW_EV_COVER:
        c->cover = ev->arg;
        fact(r, SW_FACT_STATUS, a, -1,
             ev->arg == SW_COVER_FULL ? SW_ST_FULL : SW_ST_PARTIAL, 1, 0, 0);
        break;
    case SW_EV_MEDICINE:
        c->busy_until = st->seg + d; /* Undefended meanwhile (002:83) */
        if (contest(r, a, -1, s->c[a].b.medicine, 0, SW_EV_MEDICINE)) {
            st->c[t].flags &= (uint8_t)~SW_F_BLEEDING;
            fact(r, SW_FACT_STATUS, t, a, SW_ST_BLEEDING, 0, 0, 0);
        }
        break;
    case SW_EV_MOUNT:
        c->busy_until = st->seg + d; /* Undefended meanwhile (002:83) */
        c->saddle_at = st->seg + d;  /* in the saddle when it ends (ruling 43) */
        break;
    case SW_EV_ITEM:
    case SW_EV_SKILL:
        c->busy_until = st->seg + d; /* Undefended meanwhile (002:83); the
                                        effect is the GM's (ruling 17) */
        if (ev->arg)
            sw_item_apply(r, a, t, ev->arg - 1); /* or the entry's (ruling 35) */
        break;
    case SW_EV_SURMOUNT:
        if (ev->arg > 0) {
            sw_surmount(r, a, ev->arg - 1); /* a named obstacle (ruling 46) */
            break;
        }
        if (!s->obstacle_roll || contest(r, a, -1, s->c[a].b.agility, 0, SW_EV_SURMOUNT)) {
            c->flags |= SW_F_SURMOUNTED;
            fact(r, SW_FACT_STATUS, a, -1, SW_ST_SURMOUNTED, 1, 0, 0);
        }
        break;
    case SW_EV_CAST:
        c->pend_kind = SW_PEND_SPELL; /* takes effect at the end (002:77) */
        c->pend_spell = (int8_t)ev->arg;
        c->pend_target = (int8_t)t;
        c->pend_at = st->seg + d;
        c->pend_decl = st->seg;
        break;
    case SW_EV_WIELD: {
        int wi = ev->arg;
        c->busy_until = st->seg + d; /* Undefended meanwhile (002:83) */
        /* 002:85: a weapon in the vicinity needs a flat Agility roll */
        bool got = !(s->c[a].b.nearby & (1u << wi)) ||
                   contest(r, a, -1, s->c[a].b.agility, 0, SW_EV_WIELD);
        if (got)
            c->hand = (int8_t)(wi == s->c[a].b.weapon ? 0 : wi + 1);
        fact(r, SW_FACT_WIELD, a, -1, wi, got, 0, 0);
        break;
    }
    default:
        return FRAY_ERR_INVALID;
    }
    mounts_follow(s, st);
    place(s, st, a);
    if (!st->over && r->fell)
        check_over(r);
    return r->failed;
}

/* ---- Who declares, and the tactics ----------------------------------------- */

int sw_actor(const sw_setup *s, const sw_state *st) {
    if (st->over || !st->started)
        return -1;
    int best = -1;
    int64_t bt = 0;
    for (int i = 0; i < st->n; i++) {
        const sw_cstate *c = &st->c[i];
        if (c->ready > st->seg || c->decl_seg == st->seg || !sw_can_act(c))
            continue;
        int64_t t = tie_of(s, st, i);
        if (best < 0 || t > bt) {
            best = i;
            bt = t;
        }
    }
    return best;
}

static bool enemy_of(const sw_setup *s, int a, int j) {
    return s->c[a].side != s->c[j].side;
}

/* Someone free to Avoid now, who wants to (the sniper, or one Winded),
 * with the one Engaging them in *from. */
static bool fresh_engage(const sw_state *st) {
    for (int a = 0; a < st->n; a++)
        if (st->c[a].pend_kind == SW_PEND_ENGAGE && st->c[a].pend_decl == st->seg)
            return true;
    return false;
}

static int avoider(const sw_setup *s, const sw_state *st, int *from) {
    if (!s->scene_avoid)
        return -1;
    /* an Engage declared in this segment (sw_state.engage_decl: none, and
     * the search is passed) */
    bool fresh = st->engage_decl == st->seg && fresh_engage(st);
    assert(fresh == fresh_engage(st));
    if (!fresh)
        return -1;
    for (int b = 0; b < st->n; b++) {
        bool wants = s->c[b].tactics == SW_TAC_SNIPER || st->c[b].pain <= 0 ||
                     sw_talent_roll(s, b, SW_ROLL_AVOID, true) > 0; /* ruling 34 */
        if (!wants)
            continue;
        for (int a = 0; a < st->n; a++)
            if (a != b && avoid_open(s, st, b, a)) {
                *from = a;
                return b;
            }
    }
    return -1;
}

static void cmd_set(sw_event *cmd, int kind, int a, int t, int arg) {
    memset(cmd, 0, offsetof(sw_event, dice));
    cmd->kind = (uint8_t)kind;
    cmd->actor = (int8_t)a;
    cmd->target = (int8_t)t;
    cmd->arg = (uint8_t)arg;
}

static bool ok(const sw_setup *s, const sw_state *st, sw_event *cmd) {
    return sw_check(s, st, cmd, NULL, 0) == FRAY_OK;
}

/* The weapon a's tactics would switch to for a melee (or ranged) one: the
 * stat block's own first, then one carried, then one nearby (002:85:
 * the quicker switch first), the most damage among equals; -1 none. */
static int switch_to(const sw_setup *s, const sw_state *st, int a, bool ranged) {
    const sw_block *b = &s->c[a].b;
    int hand = sw_hand_index(s, st, a);
    if (b->weapon != hand && s->w[b->weapon].ranged == ranged)
        return b->weapon;
    int best = -1, best_score = -1;
    for (int i = 0; i < s->n_weapons && i < 32; i++) {
        if (i == hand || s->w[i].ranged != ranged || !((b->carried | b->nearby) & (1u << i)))
            continue;
        int score = (b->nearby & (1u << i) ? 0 : 1000) + s->w[i].dice * 7 + s->w[i].bonus + 20;
        if (score > best_score) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

static bool engaged_by_foe(const sw_setup *s, const sw_state *st, int a) {
    for (int j = 0; j < st->n; j++)
        if (sw_eng(st, j, a) && s->c[j].side != s->c[a].side && !sw_out(&st->c[j]))
            return true;
    return false;
}

/* A caster not engaged casts its best spell (docs/rules/silent-winter.md
 * "Tactics"): a defense it does not Maintain yet on itself, a heal on an
 * ally below half Health, else the ranged spell with the most dice at the
 * weakest foe it can reach. */
static bool cast_choice(const sw_setup *s, const sw_state *st, int a, sw_event *cmd) {
    const sw_block *b = &s->c[a].b;
    if (!b->spells)
        return false;
    /* An area spell (002:53) on the cluster (centred on anyone, the caster
     * too) that holds at least two foes and more foes than allies; never a
     * Stun, Paralysis or Wound on the caster itself. */
    int abest = -1, ak = -1, anet = 0;
    for (int k = 0; k < s->n_spells; k++) {
        const sw_spell *sp = &s->sp[k];
        if (!(b->spells & (1u << k)) || sp->kind != SW_SPELL_AREA)
            continue;
        for (int j = 0; j < st->n; j++) { /* centred on anyone: an ally's cluster too */
            if (sw_out(&st->c[j]))
                continue;
            int foes = 0, allies = 0;
            bool self = false;
            for (int m = 0; m < st->n; m++)
                if ((m == j || sw_eng(st, m, j) || sw_eng(st, j, m)) &&
                    !sw_out(&st->c[m])) {
                    self |= m == a;
                    if (enemy_of(s, a, m))
                        foes++;
                    else
                        allies++;
                }
            cmd_set(cmd, SW_EV_CAST, a, j, k);
            if (self && sp->effect != SW_SPELL_DAMAGE)
                continue;
            if (foes >= 2 && foes - allies > anet && ok(s, st, cmd)) {
                abest = j;
                ak = k;
                anet = foes - allies;
            }
        }
    }
    if (abest >= 0) { /* engaged or not: the gamble of 002:77 */
        cmd_set(cmd, SW_EV_CAST, a, abest, ak);
        return true;
    }
    if (engaged_at_all(st, a))
        return false;
    const sw_cstate *c = &st->c[a];
    for (int k = 0; k < s->n_spells; k++) {
        const sw_spell *sp = &s->sp[k];
        if (!(b->spells & (1u << k)) || sp->effect != SW_SPELL_DEFENSE)
            continue;
        bool have = false;
        for (int m = 0; m < c->n_maint; m++)
            have |= c->maint_spell[m] == k;
        if (have)
            continue;
        cmd_set(cmd, SW_EV_CAST, a, sp->kind == SW_SPELL_PERSONAL ? -1 : a, k);
        if (sp->kind == SW_SPELL_PERSONAL && ok(s, st, cmd))
            return true;
    }
    for (int k = 0; k < s->n_spells; k++) { /* ruling 31: enchant an ally's weapon */
        const sw_spell *sp = &s->sp[k];
        if (!(b->spells & (1u << k)) ||
            (sp->effect != SW_SPELL_ENCHANT && !sw_bonus_effect(sp->effect)))
            continue; /* and a bonus of Health or Pain (ruling 33) */
        for (int m = 0; m < st->n; m++) {
            int t = sp->kind == SW_SPELL_PERSONAL ? a : m;
            if ((sp->kind == SW_SPELL_PERSONAL && m != a) ||
                (sp->kind == SW_SPELL_BENEFICIAL && (m == a || s->c[m].side != s->c[a].side)) ||
                sw_out(&st->c[m]))
                continue;
            bool have = false;
            for (int i = 0; i < st->n; i++)
                for (int j = 0; j < st->c[i].n_maint; j++)
                    have |= st->c[i].maint_spell[j] == k && st->c[i].maint_target[j] == t;
            if (have)
                continue;
            cmd_set(cmd, SW_EV_CAST, a, sp->kind == SW_SPELL_PERSONAL ? -1 : t, k);
            if (ok(s, st, cmd))
                return true;
        }
    }
    for (int k = 0; k < s->n_spells; k++) {
        const sw_spell *sp = &s->sp[k];
        if (!(b->spells & (1u << k)) || sp->effect != SW_SPELL_HEAL ||
            sp->kind != SW_SPELL_BENEFICIAL)
            continue;
        for (int j = 0; j < st->n; j++) {
            if (j == a || enemy_of(s, a, j) || sw_out(&st->c[j]) ||
                st->c[j].health * 2 >= s->c[j].b.health)
                continue;
            cmd_set(cmd, SW_EV_CAST, a, j, k);
            if (ok(s, st, cmd))
                return true;
        }
    }
    int best = -1, best_k = -1;
    for (int k = 0; k < s->n_spells; k++) {
        const sw_spell *sp = &s->sp[k];
        if (!(b->spells & (1u << k)) || sp->effect != SW_SPELL_DAMAGE ||
            sp->kind != SW_SPELL_RANGED ||
            (best_k >= 0 && sp->dice <= s->sp[best_k].dice))
            continue;
        int bj = -1;
        for (int j = 0; j < st->n; j++) {
            if (!enemy_of(s, a, j) || sw_out(&st->c[j]))
                continue;
            cmd_set(cmd, SW_EV_CAST, a, j, k);
            if (ok(s, st, cmd) && (bj < 0 || st->c[j].health < st->c[bj].health))
                bj = j;
        }
        if (bj >= 0) {
            best = bj;
            best_k = k;
        }
    }
    if (best < 0) {
        /* An area caster not engaged waits for a cluster to form while an
         * ally still fights (002:53). */
        bool area = false, ally = false;
        for (int k = 0; k < s->n_spells; k++)
            area |= (b->spells & (1u << k)) && s->sp[k].kind == SW_SPELL_AREA &&
                    st->c[a].magic >= s->sp[k].cost;
        for (int j = 0; j < st->n; j++)
            ally |= j != a && !enemy_of(s, a, j) && !sw_out(&st->c[j]);
        cmd_set(cmd, SW_EV_WAIT, a, -1, 0);
        return area && ally && ok(s, st, cmd);
    }
    cmd_set(cmd, SW_EV_CAST, a, best, best_k);
    return true;
}

/* Would a's talent, with the area weapon in its hand and area-talent:
 * cluster (ruling 30), fall on one of its own side in t's cluster? */
static bool area_talent_on_ally(const sw_setup *s, const sw_state *st, int a, int t) {
    if (!s->opt.area_talent_cluster || !sw_hand(s, st, a)->area)
        return false;
    int list[SW_MAX_C];
    int n = area_cluster(st, t, list);
    for (int i = 0; i < n; i++)
        if (s->c[list[i]].side == s->c[a].side && (list[i] != a || s->opt.area_hits_attacker))
            return true;
    return false;
}

/* A talent that pays against t (docs/rules/silent-winter.md "Tactics"):
 * Wound, then Paralyze, then Stun, then a bonus, each only while the
 * attacker keeps a point of Pain after it and the effect is not wasted
 * (a foe Wounded already, or Stunned through the talent's delay). */
static bool talent_choice(const sw_setup *s, const sw_state *st, int a, int t,
                          sw_event *cmd) {
    const sw_block *b = &s->c[a].b;
    if (!b->talents)
        return false;
    static const int pref[] = {SW_TE_WOUND, SW_TE_PARALYZE, SW_TE_STUN, SW_TE_BONUS};
    const sw_cstate *ct = &st->c[t];
    for (int p = 0; p < 4; p++)
        for (int k = 0; k < s->n_talents; k++) {
            const sw_talent *tl = &s->tl[k];
            if (!(b->talents & (1u << k)) || tl->effect != pref[p] ||
                st->c[a].pain - tl->pain < 1)
                continue;
            int d = sw_delay_of(s, st, SW_EV_TALENT, a, k);
            if (tl->effect == SW_TE_WOUND && (ct->flags & SW_F_WOUNDED))
                continue;
            if ((tl->effect == SW_TE_STUN && ct->stun_until > st->seg + d) ||
                (tl->effect == SW_TE_PARALYZE && ct->para_until > st->seg + d))
                continue;
            if (tl->effect != SW_TE_BONUS && area_talent_on_ally(s, st, a, t))
                continue; /* area-talent: cluster (ruling 30): not on its own side */
            if (!sw_tac_area_talent_ok(s, st, a, t, k))
                continue; /* an area talent (ruling 49): likewise */
            cmd_set(cmd, SW_EV_TALENT, a, t, k);
            if (ok(s, st, cmd))
                return true;
        }
    return false;
}

void sw_choose(const sw_setup *s, const sw_state *st, sw_event *cmd) {
    int from = -1;
    int b = avoider(s, st, &from);
    if (b >= 0) {
        cmd_set(cmd, SW_EV_AVOID, b, from, 0);
        return;
    }
    int a = sw_actor(s, st);
    if (a < 0) {
        int q = sw_quiet_segments(s, st);
        cmd_set(cmd, SW_EV_NEXT, -1, -1, q > 255 ? 255 : q);
        return;
    }
    const sw_cstate *c = &st->c[a];
    const sw_weapon *w = sw_hand(s, st, a);
    if (sw_animate_choice(s, st, a, cmd)) /* raise its dead first (ruling 36) */
        return;
    if (cast_choice(s, st, a, cmd))
        return;
    if (sw_item_choice(s, st, a, cmd)) /* items and skills (ruling 35) */
        return;
    if (w->ranged && engaged_by_foe(s, st, a)) {
        /* A bow once engaged: take up a melee weapon (002:85) to engage
         * back and defend. */
        int wi = switch_to(s, st, a, false);
        if (wi >= 0) {
            cmd_set(cmd, SW_EV_WIELD, a, -1, wi);
            if (ok(s, st, cmd))
                return;
        }
    }
    if (w->ranged) {
        /* Snipe from cover: set up Sniping, take partial cover, shoot the
         * weakest foe that cover does not hide. */
        if (!(c->flags & SW_F_SNIPING) && s->c[a].tactics == SW_TAC_SNIPER) {
            cmd_set(cmd, SW_EV_SNIPE, a, -1, 0);
            if (ok(s, st, cmd))
                return;
        }
        if (c->cover == SW_COVER_NONE && s->scene_cover >= SW_COVER_PARTIAL &&
            s->c[a].tactics == SW_TAC_SNIPER) {
            cmd_set(cmd, SW_EV_COVER, a, -1, SW_COVER_PARTIAL);
            if (ok(s, st, cmd))
                return;
        }
        int best = -1;
        for (int j = 0; j < st->n; j++) {
            if (!enemy_of(s, a, j) || sw_out(&st->c[j]))
                continue;
            cmd_set(cmd, SW_EV_ATTACK, a, j, 0);
            if (ok(s, st, cmd) && (best < 0 || st->c[j].health < st->c[best].health) &&
                sw_tac_cluster_ok(s, st, a, j)) /* ruling 47: its own side spared */
                best = j;
        }
        if (best >= 0 && talent_choice(s, st, a, best, cmd))
            return;
        cmd_set(cmd, best >= 0 ? SW_EV_ATTACK : SW_EV_WAIT, a, best, 0);
        return;
    }
    /* Melee: hit the one engaged; else switch to whoever hits us
     * Undefended when our own target is fine; else engage the one
     * engaging us, else the foe with the fewest engagers. */
    if (sw_saddle_tactics(s, st, a, cmd)) /* ruling 43: back into the saddle */
        return;
    if (sw_eng_tactics(s, st, a, cmd)) /* ruling 40: one more, if it has room */
        return;
    if (c->engages >= 0 && !sw_out(&st->c[c->engages])) {
        /* 002:63: at a mounted foe, the rider or the mount, whichever has
         * less Health; of several targets (ruling 40) the weakest, its own
         * side spared (ruling 47; tactics2.c) */
        int tg = sw_tac_melee_target(s, st, a);
        if (tg < 0) {
            cmd_set(cmd, SW_EV_WAIT, a, -1, 0);
            return;
        }
        if (talent_choice(s, st, a, tg, cmd))
            return;
        cmd_set(cmd, SW_EV_ATTACK, a, tg, 0);
        if (ok(s, st, cmd))
            return;
    }
    if (c->engages >= 0 && sw_out(&st->c[c->engages])) {
        /* fallen-release: no: leave the fallen for a foe still standing */
        cmd_set(cmd, SW_EV_DISENGAGE, a, c->engages, 0);
        if (ok(s, st, cmd))
            return;
    }
    if (c->engages < 0 && c->pend_kind != SW_PEND_ENGAGE) {
        int best = -1, best_n = 99;
        for (int j = 0; j < st->n; j++) {
            if (!enemy_of(s, a, j) || sw_out(&st->c[j]) || sw_rider_of(s, st, j) >= 0)
                continue; /* (a ridden mount: its rider is the target, 002:63) */
            int n = sw_eng(st, j, a) ? -1 : slots_on(s, st, j, -1);
            if (n < best_n) {
                sw_event t;
                cmd_set(&t, SW_EV_ENGAGE, a, j, 0);
                bool can = ok(s, st, &t);
                if (!can && (st->c[j].flags & SW_F_SNIPING)) {
                    cmd_set(&t, SW_EV_CHASE, a, j, 0);
                    can = ok(s, st, &t);
                }
                if (can) {
                    best = j;
                    best_n = n;
                    memcpy(cmd, &t, offsetof(sw_event, dice)); /* the command only */
                }
            }
        }
        if (best >= 0)
            return;
        /* An obstacle in the way: surmount it (002:25). */
        cmd_set(cmd, SW_EV_SURMOUNT, a, -1, 0);
        if (s->obstacle && ok(s, st, cmd))
            return;
        if (sw_obstacle_tactics(s, st, a, cmd)) /* ruling 46 */
            return;
        /* Nobody to Engage or chase: a ranged weapon, if it has one. */
        int wi = engaged_by_foe(s, st, a) ? -1 : switch_to(s, st, a, true);
        if (wi >= 0) {
            cmd_set(cmd, SW_EV_WIELD, a, -1, wi);
            if (ok(s, st, cmd))
                return;
        }
    }
    cmd_set(cmd, SW_EV_WAIT, a, -1, 0);
}

/* For bonus.c (002:75; ruling 33): a fact, and a Maintained spell ended. */
void sw_fact_put(sw_run *r, int kind, int who, int other, int a, int b, int c, int d) {
    fact(r, kind, who, other, a, b, c, d);
}

bool sw_contest(sw_run *r, int who, int other, int mine, int theirs, int what) {
    return contest(r, who, other, mine, theirs, what);
}

void sw_maint_end(sw_run *r, int i, int k, int why) { maint_end(r, i, k, why); }

void sw_ready_at(sw_run *r, int i, int32_t seg) {
    r->st->c[i].ready = seg;
    place(r->s, r->st, i);
}

void sw_fall(sw_run *r, int t) { fallen(r, t); }

int sw_area_cluster(const sw_state *st, int t, int *list) { return area_cluster(st, t, list); }
