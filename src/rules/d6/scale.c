/*
 * scale.c - the scale modifier (seed 003:103-127; rulesets-checklists
 * D4, D5, D7.2, D7.3; docs/rules/d6.md "Scale, quick draw, surprise").
 *
 * Each combatant has a signed scale (Human 0, Horse 3, Rat -9); the
 * modifier between two is |a - b| (D7.2: the same-side subtraction, the
 * across-sides addition and the example's 12). A larger attacker adds it
 * to the combat difficulty and to the damage total; a smaller one to its
 * attack total and to the defender's damage resistance total (none when
 * the defender is lightly built, 003:107). A weapon with its own scale
 * uses it for the damage it does (003:108); with `weapon-scale: all` for
 * hitting too.
 */
#include "d6_int.h"

int d6_scale_mod(int a, int b) { return a > b ? a - b : b - a; }

/* The scale of a's side of the exchange: its stat block's, or the
 * weapon's own (damage, or everything with weapon-scale: all). */
static int scale_of(const d6_setup *s, int a, int w, bool damage) {
    if (w >= 0 && w < s->n_weapons && s->w[w].has_scale &&
        (damage || s->o.weapon_scale == D6_WSCALE_ALL))
        return s->w[w].scale;
    return s->c[a].b.scale;
}

void d6_scale_attack(const d6_setup *s, int a, int t, int w, d6_scale_adj *out) {
    d6_scale_adj z = {0, 0, 0, 0, 0, 0};
    int ta = s->c[t].b.scale;
    int sa = scale_of(s, a, w, false), sd = scale_of(s, a, w, true);
    z.hit_mod = d6_scale_mod(sa, ta);
    if (sa > ta)
        z.difficulty = z.hit_mod;
    else
        z.attack = z.hit_mod;
    z.damage_mod = d6_scale_mod(sd, ta);
    if (sd > ta)
        z.damage = z.damage_mod;
    else if (!s->c[t].b.lightly_built)
        z.resistance = z.damage_mod;
    *out = z;
}
