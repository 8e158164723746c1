/*
 * effects.c - Silent Winter's items and skills with their effects from
 * data (seed 002:86-90: "Use a Magical or Alchemical Item on Yourself: 2
 * ... on Another: 4 ... Use any other skill: 15"; the checklist's ruling
 * 13: "effects come from data (item or skill entries)";
 * docs/rules/silent-winter.md 35).
 *
 * A catalog's `items:` and `skills:` entries each say what they do: heal
 * N Health, restore N Pain, stop the bleeding, end Stunned and Paralyzed.
 * A stat block names the items it carries and the skills it has. An item
 * is used up when used (one use for each one carried); a skill is not.
 * `item` and `skill` without an entry keep the GM's way (the effect is
 * the GM's call).
 */
#include <string.h>
#include <ctype.h>
#include <stdio.h>

#include "winter_int.h"

int sw_item_find(const sw_setup *s, const char *w, size_t n, bool skill) {
    for (int k = 0; k < s->n_items; k++) {
        const char *x = s->it[k].name;
        if (s->it[k].skill != skill || strlen(x) != n)
            continue;
        size_t i = 0; /* any case; '-' for a space, as the command gives it */
        while (i < n && (tolower((unsigned char)x[i]) == tolower((unsigned char)w[i]) ||
                         (x[i] == ' ' && w[i] == '-')))
            i++;
        if (i == n)
            return k;
    }
    return -1;
}

fray_status sw_item_check(const sw_setup *s, const sw_state *st, int a, int t, int k,
                          char *why, size_t size) {
    const sw_item *it = &s->it[k];
    const sw_block *b = &s->c[a].b;
    if (!((it->skill ? b->skills : b->items) & (1u << k))) {
        if (why)
            snprintf(why, size, "%s has no %s %s", s->c[a].name, it->skill ? "skill" : "item",
                     it->name);
        return FRAY_ERR_INVALID;
    }
    if (!it->skill && !s->opt.items_unlimited && (st->c[a].items_used & (1u << k))) {
        if (why)
            snprintf(why, size, "%s has used up the %s already", s->c[a].name, it->name);
        return FRAY_ERR_INVALID;
    }
    if (t >= 0 && (st->c[t].flags & SW_F_DEAD)) {
        if (why)
            snprintf(why, size, "%s is dead", s->c[t].name);
        return FRAY_ERR_INVALID;
    }
    return FRAY_OK;
}

void sw_item_apply(sw_run *r, int a, int t, int k) {
    const sw_setup *s = r->s;
    sw_state *st = r->st;
    const sw_item *it = &s->it[k];
    if (t < 0)
        t = a;
    sw_cstate *c = &st->c[t];
    if (!it->skill && !s->opt.items_unlimited)
        st->c[a].items_used |= 1u << k; /* used up (ruling item-uses: once) */
    bool any = false;
    if (it->heal) {
        int max = s->c[t].b.health, h = c->health + it->heal;
        c->health = (int16_t)(h > max ? max : h);
        sw_fact_put(r, SW_FACT_EFFECT, t, a, k, SW_EF_HEAL, c->health, 0);
        any = true;
    }
    if (it->pain) {
        bool winded = c->pain <= 0;
        int max = s->c[t].b.pain, p = c->pain + it->pain;
        c->pain = (int16_t)(p > max ? max : p);
        sw_fact_put(r, SW_FACT_EFFECT, t, a, k, SW_EF_PAIN, c->pain, 0);
        if (winded && c->pain > 0) /* Blown and Wounded stay (rulings 14) */
            sw_fact_put(r, SW_FACT_STATUS, t, -1, SW_ST_WINDED, 0, 0, 0);
        any = true;
    }
    if (it->stop_bleeding && (c->flags & SW_F_BLEEDING)) {
        c->flags &= (uint8_t)~SW_F_BLEEDING; /* as Medicine (002:88-89) */
        sw_fact_put(r, SW_FACT_STATUS, t, a, SW_ST_BLEEDING, 0, 0, 0);
        any = true;
    }
    if (it->unstun && (sw_stunned(st, t) || sw_paralyzed(st, t))) {
        int32_t was = c->stun_until;
        bool para = sw_paralyzed(st, t);
        c->stun_until = c->para_until = st->seg - 1; /* ends now (002:98-99) */
        if (para)
            sw_fact_put(r, SW_FACT_STATUS, t, -1, SW_ST_PARALYZED, 0, 0, 0);
        sw_fact_put(r, SW_FACT_STATUS, t, -1, SW_ST_STUNNED, 0, 0, 0);
        if (c->ready == was + 1 && c->ready > st->seg + 1)
            sw_ready_at(r, t, st->seg + 1); /* the Stun's wait, no more */
        any = true;
    }
    if (!any)
        sw_fact_put(r, SW_FACT_EFFECT, t, a, k, SW_EF_NONE, 0, 0);
}

/* One of a's side (a too) whom entry k would help now: bleeding (and the
 * entry stops it), or below half its Health (and the entry heals). */
static bool helps(const sw_setup *s, const sw_state *st, int k, int j) {
    const sw_item *it = &s->it[k];
    const sw_cstate *c = &st->c[j];
    if (c->flags & SW_F_DEAD)
        return false;
    if (it->stop_bleeding && (c->flags & SW_F_BLEEDING))
        return true;
    return it->heal && c->health * 2 < s->c[j].b.health;
}

bool sw_item_choice(const sw_setup *s, const sw_state *st, int a, sw_event *cmd) {
    const sw_block *b = &s->c[a].b;
    if (!(b->items | b->skills) || st->c[a].engages >= 0)
        return false;
    for (int j = 0; j < st->n; j++)
        if (st->c[j].engages == a && s->c[j].side != s->c[a].side)
            return false; /* engaged: Undefended while busy (002:83) */
    for (int k = 0; k < s->n_items; k++) {
        if (!((s->it[k].skill ? b->skills : b->items) & (1u << k)))
            continue;
        for (int j = 0; j < st->n; j++) {
            if (s->c[j].side != s->c[a].side || !helps(s, st, k, j))
                continue;
            memset(cmd, 0, offsetof(sw_event, dice));
            cmd->kind = s->it[k].skill ? SW_EV_SKILL : SW_EV_ITEM;
            cmd->actor = (int8_t)a;
            cmd->target = (int8_t)j;
            cmd->arg = (uint8_t)(k + 1);
            if (sw_check(s, st, cmd, NULL, 0) == FRAY_OK)
                return true;
        }
    }
    return false;
}
