/*
 * bonus.c - Silent Winter's spells that grant bonus Health or Pain (seed
 * 002:75: "For spells that have effects that are 'used up' (such as ones
 * that ... grant extra health points), the mage does immediately regain
 * the Maintain cost if the spell is ended by an outside agency (the bonus
 * health is used up ...). Bonus health or pain points are used up before
 * regular health or pain points"; docs/rules/silent-winter.md 33).
 *
 * A bonus spell is Personal or Beneficial and lasts while Maintained: its
 * points left are kept beside the caster's Maintained spell
 * (sw_cstate.maint_left), so they end with it (released, dropped on a
 * failed Endurance roll, the caster's death).
 */
#include <string.h>

#include "winter_int.h"

bool sw_bonus_effect(int effect) {
    return effect == SW_SPELL_BONUS_HEALTH || effect == SW_SPELL_BONUS_PAIN;
}

static int effect_of(int which) {
    return which == SW_BONUS_PAIN ? SW_SPELL_BONUS_PAIN : SW_SPELL_BONUS_HEALTH;
}

int sw_bonus_left(const sw_setup *s, const sw_state *st, int t, int which) {
    int e = effect_of(which), n = 0;
    for (int i = 0; i < st->n; i++)
        for (int k = 0; k < st->c[i].n_maint; k++)
            if (st->c[i].maint_target[k] == t && s->sp[st->c[i].maint_spell[k]].effect == e)
                n += st->c[i].maint_left[k];
    return n;
}

int sw_bonus_take(sw_run *r, int t, int which, int amount) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    int e = effect_of(which);
    for (int i = 0; i < st->n && amount > 0 && st->maintained; i++) {
        sw_cstate *c = &st->c[i];
        for (int k = 0; k < c->n_maint && amount > 0;) {
            int sp = c->maint_spell[k];
            if (c->maint_target[k] != t || s->sp[sp].effect != e || c->maint_left[k] <= 0) {
                k++;
                continue;
            }
            int used = amount < c->maint_left[k] ? amount : c->maint_left[k];
            c->maint_left[k] = (int16_t)(c->maint_left[k] - used);
            amount -= used;
            sw_fact_put(r, SW_FACT_BONUS, t, i, sp, used, c->maint_left[k], which);
            if (c->maint_left[k] == 0)
                sw_maint_end(r, i, k, SW_SF_USED_UP); /* 002:75: the Maintain back */
            else
                k++;
        }
    }
    return amount;
}

/* ---- Talents' bonuses to other rolls (ruling 34) ------------------------- */

static const char *const roll_words[SW_ROLLS] = {"avoid", "switch", "disengage", "chase",
                                                 "endurance"};

const char *sw_roll_word(int roll) {
    return roll >= 0 && roll < SW_ROLLS ? roll_words[roll] : "?";
}

int sw_roll_of_kind(int kind) {
    switch (kind) {
    case SW_EV_AVOID: return SW_ROLL_AVOID;         /* 002:23 */
    case SW_EV_SWITCH: return SW_ROLL_SWITCH;       /* 002:29 */
    case SW_EV_DISENGAGE: return SW_ROLL_DISENGAGE; /* 002:31 */
    case SW_EV_CHASE: return SW_ROLL_CHASE;         /* 002:47 */
    case SW_EV_CAST:                                /* 002:73, 77: keep casting */
    case SW_EV_RELEASE:                             /* keep Maintaining */
    case SW_EV_WAIT:                                /* 002:39: wake */
        return SW_ROLL_ENDURANCE;
    default: return -1;
    }
}

int sw_talent_roll(const sw_setup *s, int i, int roll, bool actor) {
    if (i < 0 || i >= s->n || roll < 0 || (!actor && !s->opt.talent_rolls_all))
        return 0;
    uint32_t tb = s->c[i].b.talents;
    int n = 0;
    for (int k = 0; tb && k < s->n_talents; k++)
        if ((tb & (1u << k)) && s->tl[k].effect == SW_TE_ROLL_BONUS &&
            (s->tl[k].rolls & (1u << roll)))
            n += s->tl[k].amount;
    return n;
}

/* ---- Spells that animate a creature (002:75; ruling 36) ------------------ */

void sw_animate_rise(sw_run *r, int a, int t) {
    sw_state *st = r->st;
    sw_cstate *c = &st->c[t];
    c->inanimate = false;
    sw_fact_put(r, SW_FACT_STATUS, t, a, SW_ST_ANIMATED, 1, 0, 0);
    sw_ready_at(r, t, st->seg + 1); /* it declares from the next segment */
}

void sw_animate_slot_ended(sw_run *r, int t, int spell, int why) {
    if (r->s->sp[spell].effect != SW_SPELL_ANIMATE || why == SW_SF_USED_UP || t < 0)
        return;
    sw_cstate *c = &r->st->c[t];
    if (c->inanimate || (c->flags & SW_F_DEAD))
        return;
    c->inanimate = true; /* the spell ends: the creature falls lifeless */
    sw_fact_put(r, SW_FACT_STATUS, t, -1, SW_ST_ANIMATED, 0, 0, 0);
    sw_fall(r, t);
}

void sw_animate_fallen(sw_run *r, int t) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    for (int i = 0; i < st->n; i++) {
        sw_cstate *c = &st->c[i];
        for (int k = 0; k < c->n_maint; k++)
            if (c->maint_target[k] == t && s->sp[c->maint_spell[k]].effect == SW_SPELL_ANIMATE &&
                !st->c[t].inanimate) {
                sw_maint_end(r, i, k, SW_SF_USED_UP); /* killed: the Maintain back (002:75) */
                return;
            }
    }
}

bool sw_animate_choice(const sw_setup *s, const sw_state *st, int a, sw_event *cmd) {
    if (!s->c[a].b.spells || st->c[a].pend_kind != SW_PEND_NONE)
        return false;
    for (int k = 0; k < s->n_spells; k++) {
        if (!(s->c[a].b.spells & (1u << k)) || s->sp[k].effect != SW_SPELL_ANIMATE)
            continue;
        for (int t = 0; t < st->n; t++) {
            if (!st->c[t].inanimate || (st->c[t].flags & SW_F_DEAD) ||
                s->c[t].side != s->c[a].side)
                continue;
            bool raising = false; /* another caster's spell under way on it */
            for (int j = 0; j < st->n; j++)
                raising |= st->c[j].pend_kind == SW_PEND_SPELL && st->c[j].pend_target == t;
            if (raising)
                continue;
            memset(cmd, 0, offsetof(sw_event, dice));
            cmd->kind = SW_EV_CAST;
            cmd->actor = (int8_t)a;
            cmd->target = (int8_t)t;
            cmd->arg = (uint8_t)k;
            if (sw_check(s, st, cmd, NULL, 0) == FRAY_OK)
                return true;
        }
    }
    return false;
}
