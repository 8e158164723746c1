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
    for (int i = 0; i < st->n && amount > 0; i++) {
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
