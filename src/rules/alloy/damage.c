/*
 * damage.c - Alloy's damage, hit points, dying and death, and second wind
 * (seed 004 "Damage" 149-169, "Hit Points" 203-211, Coup de Grace
 * 541-549, Second Wind 673-681, Withered 1035-1038).
 *
 * Rulings (docs/rules/alloy.md):
 *   - dying (option dying, default stable, RULINGS/L7.8): at 0 hit points
 *     or fewer a combatant is Dying, Unconscious, Helpless and prone, out
 *     of the fight, and does not bleed out; with option death-saves it
 *     makes a death save at the end of each of its turns (skills.c);
 *   - death at hp <= -(max / 2), the half rounded down (004:211);
 *   - Withered halves the damage a combatant deals, rounded down, after
 *     the minimum of 0; ongoing damage (who -1) is never halved (004:1038);
 *   - a combatant that falls (dying or dead) lets go of a grapple, is let
 *     go of, and its suppressing fire ends (it can no longer take
 *     opportunity or immediate actions, 004:615);
 *   - second wind heals a surge's value (the block's surge_value, else
 *     floor(max hp / 4), L7.8), never above the maximum.
 */
#include "alloy_int.h"

static fray_status bad(fa_run *r) {
    if (r->failed == FRAY_OK)
        r->failed = FRAY_ERR_INVALID;
    return FRAY_ERR_INVALID;
}

static int max_hp(const fa_run *r, int who) {
    return r->s->sb[r->s->c[who].sb].hp;
}

/* Lets go of every grapple who is in, and ends its suppressing fire. */
static void let_go(fa_run *r, int who) {
    fa_state *st = r->st;
    fa_cstate *c = &st->c[who];
    if (c->grappling >= 0 && c->grappling < st->n)
        fa_cond_remove(r, c->grappling, FA_C_GRAPPLED, who);
    c->grappling = -1;
    for (int i = 0; i < st->n; i++)
        if (i != who && st->c[i].grappling == who) {
            fa_cond_remove(r, who, FA_C_GRAPPLED, i);
            st->c[i].grappling = -1;
        }
    fa_cond_remove(r, who, FA_C_SUPPRESSING, -1);
}

static fray_status add_cond(fa_run *r, int who, fa_cond_kind kind) {
    fa_cond c = {.kind = (uint8_t)kind, .ends = FA_ENDS_EVENT, .whose = -1,
                 .other = -1, .source = -1};
    return fa_cond_add(r, who, c);
}

fray_status fa__kill(fa_run *r, int target) {
    fa_cstate *c = &r->st->c[target];
    if (fa_has(c, FA_C_DEAD))
        return r->failed;
    c->flags |= FA_F_OUT;
    fa_fact_add(r, FA_FACT_DEAD, -1, target, c->hp, 0, 0, 0);
    fray_status e = add_cond(r, target, FA_C_DEAD);
    if (e != FRAY_OK)
        return e;
    let_go(r, target);
    return r->failed;
}

/* Dying (RULINGS/L7.8, option dying: stable): Unconscious, Helpless and
 * prone (004:1025-1031), out of the fight. */
static fray_status fall_dying(fa_run *r, int target) {
    fa_cstate *c = &r->st->c[target];
    c->flags |= FA_F_OUT;
    fa_fact_add(r, FA_FACT_DYING, -1, target, c->hp, 0, 0, 0);
    static const fa_cond_kind kinds[] = {FA_C_DYING, FA_C_UNCONSCIOUS,
                                         FA_C_HELPLESS, FA_C_PRONE};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        fray_status e = add_cond(r, target, kinds[i]);
        if (e != FRAY_OK)
            return e;
    }
    let_go(r, target);
    return r->failed;
}

fray_status fa__deal(fa_run *r, int who, int target, int amount, int rolled) {
    if (r->failed != FRAY_OK)
        return r->failed;
    if (target < 0 || target >= r->st->n || who >= r->st->n)
        return bad(r);
    fa_cstate *c = &r->st->c[target];
    if (fa_has(c, FA_C_DEAD))
        return bad(r);
    if (amount < 0)
        amount = 0;        /* 004:155 */
    if (who >= 0 && fa_has(&r->st->c[who], FA_C_WITHERED))
        amount /= 2;       /* 004:1037 */
    int hp = c->hp - amount;
    if (hp < -30000)
        hp = -30000;
    fa_hp_mark(r, target, c->hp);
    c->hp = (int16_t)hp;
    if (who >= 0)
        fa_fact_add(r, FA_FACT_DAMAGE, who, target, amount, hp, rolled, 0);
    int max = max_hp(r, target);
    if (hp <= -(max / 2))
        return fa__kill(r, target);   /* 004:211 */
    if (hp <= 0 && !fa_has(c, FA_C_DYING))
        return fall_dying(r, target);
    return r->failed;
}

fray_status fa_damage(fa_run *r, int who, int target, int amount) {
    return fa__deal(r, who, target, amount, amount);
}

fray_status fa_second_wind(fa_run *r, int who) {
    if (r->failed != FRAY_OK)
        return r->failed;
    if (who < 0 || who >= r->st->n)
        return bad(r);
    fa_cstate *c = &r->st->c[who];
    const fa_statblock *b = &r->s->sb[r->s->c[who].sb];
    /* Once per encounter, a surge left (004:677, 681). */
    if ((c->flags & (FA_F_SECOND_WIND | FA_F_OUT)) || c->surges <= 0)
        return bad(r);
    int value = b->surge_value > 0 ? b->surge_value : b->hp / 4;
    int before = c->hp;
    int hp = before + value;
    if (hp > b->hp)
        hp = b->hp;
    fa_hp_mark(r, who, c->hp);
    c->hp = (int16_t)hp;
    c->surges--;
    c->flags |= FA_F_SECOND_WIND;
    fa_fact_add(r, FA_FACT_HEAL, who, -1, hp - before, hp, 0, 0);
    fa_cond cond = {.kind = FA_C_SECOND_WIND, .ends = FA_ENDS_START_OF_TURN,
                    .whose = (int8_t)who, .other = -1, .value = 2,
                    .source = (int8_t)who, .round = r->st->round};
    return fa_cond_add(r, who, cond);   /* +2 to all defenses (004:680) */
}
