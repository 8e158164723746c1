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
