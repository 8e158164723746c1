/*
 * harm.c - STUN, LETHAL, status and conditions of 99 Towers combatants
 * (seed 000 "Damage", "STUN Damage", "LETHAL Damage", "Combined Damage",
 * "Temporary STUN and LETHAL", "Damage Types", "Healing", "Grappling";
 * rules-facts.md "Conditions"; RULINGS 16-20, 22).
 *
 * Status is worked out from the numbers after every change (update_status):
 *   STUN 0                      -> unconscious, and falls prone;
 *   LETHAL (+ temporary) 0      -> disabled; also unconscious when the
 *                                  option disabled_unconscious is on
 *                                  (RULINGS 17, the default);
 *   LETHAL (+ temporary) < 0    -> dying and unconscious;
 *   LETHAL <= -k x [[E]] (< 0)  -> dead (k = dead_at_multiple, RULINGS 16).
 * Whoever falls unconscious falls prone. Waking up needs STUN above 0 and
 * LETHAL above 0 (or at 0 with disabled_unconscious off). The dead stay
 * dead: healing does nothing to them.
 */
#include "towers_int.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

enum { FT_HARM_CLAMP = 30000 }; /* STUN and LETHAL are int16_t */

static int clamp16(long v) {
    if (v > FT_HARM_CLAMP)
        return FT_HARM_CLAMP;
    if (v < -FT_HARM_CLAMP)
        return -FT_HARM_CLAMP;
    return (int)v;
}

int ft_max_stun(const ft_setup *s, int c) {
    const ft_statblock *sb = &s->c[c].sb;
    return (sb->max_stun > 0 ? sb->max_stun : sb->endurance * 8) +
           sb->tsum.max_stun;
}

int ft_max_lethal(const ft_setup *s, int c) {
    const ft_statblock *sb = &s->c[c].sb;
    return (sb->max_lethal > 0 ? sb->max_lethal : sb->endurance + 8) +
           sb->tsum.max_lethal;
}

/* ---- Damage ------------------------------------------------------------- */

static int resilience(const ft_setup *s, int c, ft_category cat) {
    const ft_statblock *sb = &s->c[c].sb;
    switch (cat) {
    case FT_CAT_PHYSICAL:
        return sb->cv[FT_CV_ER] + (sb->has_armor ? sb->armor.er : 0);
    case FT_CAT_ARCANE:
        return sb->cv[FT_CV_IR] + (sb->has_armor ? sb->armor.ir : 0);
    case FT_CAT_NONE:
    default:
        return 0;
    }
}

static fray_towers_affinity affinity(const ft_setup *s, int c,
                                     ft_damage_type type) {
    const ft_statblock *sb = &s->c[c].sb;
    if (type == FT_DMG_NONE || (unsigned)type >= 32u)
        return FRAY_TOWERS_NORMAL;
    if (sb->immune & (1u << type))
        return FRAY_TOWERS_IMMUNE;
    if (sb->susceptible & (1u << type))
        return FRAY_TOWERS_SUSCEPTIBLE;
    return FRAY_TOWERS_NORMAL;
}

fray_towers_hit ft_harm_hit(const ft_run *r, int attacker, int target,
                            const ft_weapon *w, int bonus, int hearts) {
    /* An improvised weapon the data gives no strength limit: the GM's
     * call (gm.c; one test here, the rest out of the way). */
    if (__builtin_expect(w->strength_limit == FT_GM_LIMIT_ASK, 0))
        return ft_gm_harm_hit(r, attacker, target, w, bonus, hearts);
    const ft_setup *s = r->setup;
    int damage = w->damage + bonus;
    if (w->adds_px && attacker >= 0)
        damage += ft_px_used(w, s->c[attacker].sb.cv[FT_CV_PX]);
    fray_towers_hit h = fray_towers_hit_damage(
        damage, hearts, resilience(s, target, w->category),
        affinity(s, target, w->type));
    /* Seed 000 "STUN Damage": one at 0 STUN is unconscious, "and anyone
     * who chooses to continue to attack you will get bonuses to inflict
     * LETHAL damage": fray's reading, the whole hit is LETHAL (its STUN,
     * after Resilience and affinity), not only one per Heart; the same
     * for a Helpless defender (option unconscious-bonus). */
    if ((s->opt.unconscious_bonus & FT_UB_LETHAL) && target >= 0 &&
        target < r->st->n &&
        ((r->st->c[target].flags & FT_F_UNCONSCIOUS) ||
         ft_cond_has(r->st, target, FT_COND_HELPLESS)))
        h.lethal = h.stun;
    return h;
}

/* update_status when something may change. */
FT_NOINLINE static void status_change(ft_run *r, int c) {
    const ft_setup *s = r->setup;
    ft_cstate *cs = &r->st->c[c];
    uint16_t old = cs->flags;
    uint16_t f = (uint16_t)(old & ~(FT_F_UNCONSCIOUS | FT_F_DISABLED |
                                    FT_F_DYING));
    int lethal = cs->lethal + cs->temp_lethal;
    int k = s->opt.dead_at_multiple > 0 ? s->opt.dead_at_multiple : 2;
    if (!(f & FT_F_DEAD) && lethal < 0 &&
        lethal <= -k * s->c[c].sb.endurance)
        f |= FT_F_DEAD;
    if (!(f & FT_F_DEAD)) {
        if (lethal == 0)
            f |= FT_F_DISABLED;
        else if (lethal < 0)
            f |= FT_F_DYING;
    }
    if (cs->stun <= 0 || (f & (FT_F_DYING | FT_F_DEAD)) ||
        ((f & FT_F_DISABLED) && s->opt.disabled_unconscious))
        f |= FT_F_UNCONSCIOUS;
    cs->flags = f;
    /* In the fight or out of it (what the kept threats read), or
     * Disabled (what the tactics' kept look reads, policy.c look_kept). */
    if ((f ^ old) & (FT_F_UNCONSCIOUS | FT_F_DISABLED | FT_F_DYING |
                     FT_F_DEAD | FT_F_FLED))
        ft_threat_touch_one(r->st, c);
    uint16_t set = (uint16_t)(f & ~old), cleared = (uint16_t)(old & ~f);
    /* Out of the fight, or back in it: off or on the Combat Clock. */
    if ((set | cleared) & (FT_F_UNCONSCIOUS | FT_F_DYING | FT_F_DEAD))
        ft_clock_place(r->st, c);
    /* v[0] what is newly set, v[1] what ended; a fact with nothing set
     * reads "back in the fight", so only when consciousness returns. */
    if (set || (cleared & FT_F_UNCONSCIOUS))
        ft_emit(r, FT_FACT_STATUS, -1, c, set, cleared, 0, 0);
    /* "When you reach 0 STUN, you fall to the ground prone". */
    if (set & FT_F_UNCONSCIOUS)
        ft_cond_add(r, c, FT_COND_PRONE, 0, FT_UNTIL_REMOVED, -1, 0, -1);
    /* Seed "Grappling": the grapple breaks when the grappler drops to 0
     * STUN or LETHAL. */
    if (cs->stun <= 0 || lethal <= 0) {
        for (int i = 0; i < r->st->n; i++) {
            if (r->st->c[i].grappled_by == c) {
                r->st->c[i].grappled_by = -1;
                ft_cond_remove(r, i, FT_COND_GRAPPLED);
            }
        }
    }
}

void ft_harm_status(ft_run *r, int c) {
    if (c >= 0 && c < r->st->n)
        status_change(r, c);
}

/* Works out the status flags from STUN and LETHAL; emits what changed. */
static inline void update_status(ft_run *r, int c) {
    const ft_cstate *cs = &r->st->c[c];
    /* Most blows leave a conscious, living combatant as it was: nothing
     * in status_change would change a flag, emit a fact or break a
     * grapple. */
    if (cs->stun > 0 && cs->lethal + cs->temp_lethal > 0 &&
        !(cs->flags &
          (FT_F_UNCONSCIOUS | FT_F_DISABLED | FT_F_DYING | FT_F_DEAD)))
        return;
    status_change(r, c);
}

void ft_harm_apply(ft_run *r, int target, int stun, int lethal, int source) {
    ft_state *st = r->st;
    if (target < 0 || target >= st->n)
        return;
    ft_cstate *cs = &st->c[target];
    if (stun < 0)
        stun = 0;
    if (lethal < 0)
        lethal = 0;
    if (stun == 0 && lethal == 0)
        return;
    /* Temporary points go first (seed "Temporary STUN and LETHAL"). With
     * none (the usual case) none are taken: stun and lethal are >= 0. */
    int ts = 0, tl = 0;
    if (cs->temp_stun != 0 || cs->temp_lethal != 0) {
        ts = stun < cs->temp_stun ? stun : cs->temp_stun;
        tl = lethal < cs->temp_lethal ? lethal : cs->temp_lethal;
        cs->temp_stun = (int16_t)(cs->temp_stun - ts);
        cs->temp_lethal = (int16_t)(cs->temp_lethal - tl);
    }
    /* "STUN cannot drop lower than 0." LETHAL can. */
    int left = cs->stun - (stun - ts);
    cs->stun = (int16_t)(left < 0 ? 0 : left);
    cs->lethal = (int16_t)clamp16((long)cs->lethal - (lethal - tl));
    /* Statistics count what the blow dealt, temporary points included. */
    cs->stun_taken += stun;
    cs->lethal_taken += lethal;
    if (source >= 0 && source < st->n) {
        st->c[source].stun_dealt += stun;
        st->c[source].lethal_dealt += lethal;
    }
    if (r->facts) /* (ft_emit records nothing without facts) */
        ft_emit(r, FT_FACT_DAMAGE, source, target, stun, lethal,
                cs->stun + cs->temp_stun, cs->lethal + cs->temp_lethal);
    update_status(r, target);
}

void ft_harm_heal(ft_run *r, int target, int stun, int lethal) {
    if (target < 0 || target >= r->st->n)
        return;
    ft_cstate *cs = &r->st->c[target];
    if (cs->flags & FT_F_DEAD)
        return;
    /* Never above the maximum, and temporary points are not healed. */
    int ms = ft_max_stun(r->setup, target), ml = ft_max_lethal(r->setup, target);
    int gs = stun > 0 ? stun : 0, gl = lethal > 0 ? lethal : 0;
    if (gs > ms - cs->stun)
        gs = ms - cs->stun > 0 ? ms - cs->stun : 0;
    if (gl > ml - cs->lethal)
        gl = ml - cs->lethal > 0 ? ml - cs->lethal : 0;
    if (gs == 0 && gl == 0)
        return;
    cs->stun = (int16_t)(cs->stun + gs);
    cs->lethal = (int16_t)(cs->lethal + gl);
    ft_emit(r, FT_FACT_HEAL, -1, target, gs, gl, 0, 0);
    update_status(r, target);
}

void ft_harm_temp(ft_run *r, int c, int stun, int lethal) {
    if (c < 0 || c >= r->st->n)
        return;
    ft_cstate *cs = &r->st->c[c];
    int gs = 0, gl = 0;
    /* Temporary points do not add up: the larger grant stays. */
    if (stun > cs->temp_stun) {
        gs = stun - cs->temp_stun;
        cs->temp_stun = (int16_t)clamp16(stun);
    }
    if (lethal > cs->temp_lethal) {
        gl = lethal - cs->temp_lethal;
        cs->temp_lethal = (int16_t)clamp16(lethal);
    }
    if (gs == 0 && gl == 0)
        return;
    /* v[2] = 1: temporary points. */
    ft_emit(r, FT_FACT_HEAL, -1, c, gs, gl, 1, 0);
    update_status(r, c);
}

fray_status ft_harm_combined(ft_run *r, int target, int stun, int flips,
                             ft_category cat, ft_damage_type type) {
    if (target < 0 || target >= r->st->n)
        return FRAY_ERR_INVALID;
    /* The victim's own deck turns the damage flips over. */
    fray_flip f;
    int before = r->ev ? r->ev->n_facts : 0;
    fray_status rc = ft_flip_plain(r, r->setup->c[target].deck, flips, &f);
    if (rc != FRAY_OK)
        return rc;
    if (r->facts && r->ev && r->ev->n_facts > before &&
        r->ev->facts[before].kind == FT_FACT_FLIP)
        r->ev->facts[before].who = (int8_t)target;
    if (stun <= 0 && f.hearts == 0)
        return FRAY_OK;
    /* "X STUN and Y damage flips": each Heart adds 1 STUN and 1 LETHAL;
     * Resilience by category, at least 1 STUN, LETHAL <= STUN. */
    fray_towers_hit h = fray_towers_hit_damage(
        stun, f.hearts, resilience(r->setup, target, cat),
        affinity(r->setup, target, type));
    ft_harm_apply(r, target, h.stun, h.lethal, -1);
    return FRAY_OK;
}

/* ---- Conditions (the core's lists with durations, src/core/cond.h) -------- */

_Static_assert((int)FT_MAX_CONDITIONS >= (int)FT_CONDITION_COUNT,
               "one entry per kind and room for every kind: a list is never full");

static int cond_find(const ft_cstate *cs, ft_condition k) {
    return fray__cond_find(cs->cond, cs->n_cond, (int)k, -1);
}

bool ft_cond_has(const ft_state *st, int c, ft_condition k) {
    if (c < 0 || c >= st->n)
        return false;
    return cond_find(&st->c[c], k) >= 0;
}

/* How long a duration lasts, to keep the longer one: until removed is the
 * longest; otherwise activations to go, the end of one being later than
 * its start. Durations tied to different combatants compare by that count
 * too (fray's choice: the rules do not say). */
static int duration_key(int until, int count) {
    if (until == FT_UNTIL_REMOVED)
        return 1 << 20;
    return count * 2 + (until == FT_UNTIL_END_OF);
}

/* The conditions the kept threats read (attack.c threat_sig: Stunned and
 * Helpless threaten nobody, the Blinded are out of the melee chains):
 * putting one on or taking it off counts a change of its holder alone
 * (ft_threat_touch_one). */
static inline bool threat_kind(int k) {
    return k == FT_COND_STUNNED || k == FT_COND_HELPLESS || k == FT_COND_BLINDED;
}

void ft_cond_add(ft_run *r, int c, ft_condition k, int x, ft_until until,
                 int who, int count, int source) {
    if (c < 0 || c >= r->st->n || (unsigned)k >= FT_CONDITION_COUNT)
        return;
    ft_cstate *cs = &r->st->c[c];
    if (until != FT_UNTIL_REMOVED) {
        if (count < 1)
            count = 1;
        /* "Until the end of its next activation" given during that
         * combatant's own activation: the one under way does not count. */
        if (until == FT_UNTIL_END_OF && who >= 0 && who == r->st->active)
            count++;
        if (count > 127)
            count = 127;
        if (c < 32) /* (the upkeep's list: ft_state.cond_timed) */
            r->st->cond_timed |= 1u << c;
    } else {
        who = -1;
        count = 0;
    }
    if (x < 0)
        x = 0;
    if (x > 127)
        x = 127;
    int i = cond_find(cs, k);
    if (i >= 0) {
        /* The same condition does not stack: the larger X and the longer
         * duration stay. */
        ft_cond *o = &cs->cond[i];
        bool changed = false;
        if (x > o->value) {
            o->value = (int8_t)x;
            changed = true;
        }
        if (duration_key((int)until, count) > duration_key(o->ends, o->count)) {
            o->ends = (uint8_t)until;
            o->whose = (int8_t)who;
            o->count = (int8_t)count;
            changed = true;
        }
        if (changed)
            ft_emit(r, FT_FACT_CONDITION_ON, source, c, (int)k, o->value, 0, 0);
        return;
    }
    /* A kind not on the list, and room for every kind (the static
     * assertion above): it goes at the end. */
    if (threat_kind((int)k))
        ft_threat_touch_one(r->st, c);
    cs->cond[cs->n_cond++] = (ft_cond){.kind = (uint8_t)k,
                                       .ends = (uint8_t)until,
                                       .whose = (int8_t)who,
                                       .count = (int8_t)count,
                                       .other = -1,
                                       .value = (int8_t)x,
                                       .source = (int8_t)source};
    ft_emit(r, FT_FACT_CONDITION_ON, source, c, (int)k, x, 0, 0);
}

void ft_cond_remove(ft_run *r, int c, ft_condition k) {
    if (c < 0 || c >= r->st->n)
        return;
    ft_cstate *cs = &r->st->c[c];
    int kind = fray__cond_drop(cs->cond, &cs->n_cond, cond_find(cs, k));
    if (kind >= 0 && threat_kind(kind))
        ft_threat_touch_one(r->st, c);
    if (kind >= 0)
        ft_emit(r, FT_FACT_CONDITION_OFF, -1, c, kind, 0, 0, 0);
}

/* ft_cond_activation for combatants `first` to `last` - 1. */
FT_NOINLINE static void cond_activation_from(ft_run *r, int first, int last,
                                             int who, bool at_end) {
    for (int c = first; c < last; c++) {
        ft_cstate *cs = &r->st->c[c];
        /* Speed (issue 16): nothing to end for one without conditions
         * (fray__cond_tick would look at none): skipped, the order of
         * what ends unchanged. */
        if (cs->n_cond == 0)
            continue;
        /* Nor for one whose conditions none end with who's activation
         * (fray__cond_tick counts down only those: ends now, whose who). */
        uint8_t when = (uint8_t)(at_end ? FRAY__ENDS_END_OF_TURN
                                        : FRAY__ENDS_START_OF_TURN);
        bool due = false;
        for (int i = 0; i < cs->n_cond && !due; i++)
            due = cs->cond[i].ends == when && cs->cond[i].whose == who;
        if (!due)
            continue;
        uint8_t ended[FT_MAX_CONDITIONS];
        int n = fray__cond_tick(cs->cond, &cs->n_cond, who, at_end, ended);
        for (int i = 0; i < n; i++)
            if (threat_kind(ended[i]))
                ft_threat_touch_one(r->st, c);
        for (int i = 0; i < n; i++)
            ft_emit(r, FT_FACT_CONDITION_OFF, -1, c, ended[i], 0, 0, 0);
    }
}

/* Whether cs holds a condition that ends at the start or end of an
 * activation (the upkeep's list, ft_state.cond_timed). */
static inline bool cond_timed(const ft_cstate *cs) {
    for (int i = 0; i < cs->n_cond && i < FT_MAX_CONDITIONS; i++)
        if (cs->cond[i].ends == (uint8_t)FT_UNTIL_START_OF ||
            cs->cond[i].ends == (uint8_t)FT_UNTIL_END_OF)
            return true;
    return false;
}

/* cond_activation_from for the combatants of the list alone (those that
 * may hold a timed condition: the others have none that ends now), in the
 * same order; the list loses those found to hold none (issue 16, "This
 * round: the conditions' upkeep"). */
static void cond_activation_listed(ft_run *r, int who, bool at_end) {
    ft_state *st = r->st;
#ifndef NDEBUG
    /* Nobody with a timed condition is left off the list. */
    for (int c = 0; c < st->n; c++)
        assert(!cond_timed(&st->c[c]) || (st->cond_timed >> c & 1u));
#endif
    uint32_t todo = st->cond_timed;
    if (st->n < 32)
        todo &= (1u << st->n) - 1u;
    while (todo) {
        int c = __builtin_ctz(todo);
        todo &= todo - 1u;
        cond_activation_from(r, c, c + 1, who, at_end);
        if (!cond_timed(&st->c[c]))
            st->cond_timed &= ~(1u << c);
    }
}

void ft_cond_activation(ft_run *r, int who, bool at_end) {
    if (r->st->n <= 32) {
        cond_activation_listed(r, who, at_end);
        return;
    }
    /* Most activations begin and end with nobody under a condition: only
     * from the first one who has some is there anything to look at. */
    const ft_state *st = r->st;
    int c = 0;
    while (c < st->n && st->c[c].n_cond == 0)
        c++;
    if (c < st->n)
        cond_activation_from(r, c, st->n, who, at_end);
}

void ft_cond_mod_one(ft_condition k, ft_flip_purpose purpose, bool melee,
                     int *flip_mod, int *shift) {
    (void)shift;
    bool attack = purpose == FT_FLIP_ATTACK;
    bool opposed = attack || purpose == FT_FLIP_DEFENSE ||
                   purpose == FT_FLIP_GRAPPLE;
    switch (k) {
    case FT_COND_DAZED:
        /* (flip-1) on everything turned over for the combatant's own
         * doing; damage flips and tie-breaks are not "its" flips. */
        if (purpose != FT_FLIP_DAMAGE && purpose != FT_FLIP_TIEBREAK)
            *flip_mod -= 1;
        break;
    case FT_COND_ENTANGLED:
        /* Attack, defense and skill flips (a Grapple Test is both). */
        if (opposed || purpose == FT_FLIP_SKILL)
            *flip_mod -= 1;
        break;
    case FT_COND_FRIGHTENED:
        if (attack)
            *flip_mod -= 1;
        break;
    case FT_COND_PRONE:
        /* fray's ruling: fighting from the ground, (flip-1) on melee
         * attacks. What a prone target gives its attacker is in
         * attack.c. */
        if (attack && melee)
            *flip_mod -= 1;
        break;
    default:
        break;
    }
}

void ft_cond_mods(const ft_state *st, int c, ft_flip_purpose purpose,
                  bool melee, int *flip_mod, int *shift) {
    if (c < 0 || c >= st->n)
        return;
    const ft_cstate *cs = &st->c[c];
    for (int i = 0; i < cs->n_cond; i++)
        ft_cond_mod_one((ft_condition)cs->cond[i].kind, purpose, melee,
                        flip_mod, shift);
}

int ft_speed(const ft_setup *s, const ft_state *st, int c) {
    const ft_statblock *sb = &s->c[c].sb;
    int spd = sb->cv[FT_CV_SPD] + (sb->has_armor ? sb->armor.spd : 0);
    if (spd < 0)
        spd = 0;
    /* Entangled and Slowed: <SPD> halved, rounded down (once, even with
     * both: the same effect does not stack). */
    if (ft_cond_has(st, c, FT_COND_ENTANGLED) || ft_cond_has(st, c, FT_COND_SLOWED))
        spd /= 2;
    return spd;
}

/* ft_cond_on_action for a combatant with conditions. */
FT_NOINLINE static void cond_on_action(ft_run *r, int c, int action) {
    const ft_cstate *cs = &r->st->c[c];
    int bi = cond_find(cs, FT_COND_BLEEDING);
    int ui = cond_find(cs, FT_COND_BURNING);
    int bleed = bi >= 0 ? cs->cond[bi].value : 0, bsrc = bi >= 0 ? cs->cond[bi].source : -1;
    int burn = ui >= 0 ? cs->cond[ui].value : 0, usrc = ui >= 0 ? cs->cond[ui].source : -1;
    /* Bleeding X: any action other than Recover costs X LETHAL; Recover
     * removes it. */
    if (bi >= 0) {
        if (action == FT_ACT_RECOVER)
            ft_cond_remove(r, c, FT_COND_BLEEDING);
        else if (bleed > 0)
            ft_harm_apply(r, c, 0, bleed, bsrc);
    }
    /* Burning X: any action other than Shake Minor Condition costs X
     * STUN. */
    if (ui >= 0 && action != FT_ACT_SHAKE && burn > 0)
        ft_harm_apply(r, c, burn, 0, usrc);
}

void ft_cond_on_action(ft_run *r, int c, int action) {
    if (c < 0 || c >= r->st->n || r->st->c[c].n_cond == 0)
        return;
    cond_on_action(r, c, action);
}

bool ft_can_act(const ft_state *st, int c) {
    if (c < 0 || c >= st->n)
        return false;
    /* Stunned and Helpless combatants keep their place on the clock (so
     * that "until the end of its next activation" can end): the engine
     * turns their turn into a Forced Delay. */
    return !(st->c[c].flags &
             (FT_F_UNCONSCIOUS | FT_F_DYING | FT_F_DEAD | FT_F_FLED));
}

bool ft_in_fight(const ft_state *st, int c) {
    if (c < 0 || c >= st->n)
        return false;
    return !(st->c[c].flags &
             (FT_F_UNCONSCIOUS | FT_F_DYING | FT_F_DEAD | FT_F_FLED));
}
