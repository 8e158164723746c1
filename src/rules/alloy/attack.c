/*
 * attack.c - Alloy's attacks (seed 004 "Attacks", "Attack Types", "Area
 * Types", "Critical Hits", "Combat Modifiers", the attack actions): the
 * attack line, every modifier, the roll, several targets, areas (blast,
 * burst, wall), autofire, crits, coup de grace, bull rush, trip, grapple,
 * attacking a held object, aid another and checks against a defense.
 * Damage, dying and second wind are in damage.c.
 *
 * Rulings where the seed is silent (docs/rules/alloy.md):
 *   - unarmed: with no weapon in hand a combatant strikes unarmed: the
 *     stat block's weapon whose id is "unarmed" when it carries one, else
 *     an unarmed strike of 1d4 (melee, reach of the block, no proficiency);
 *     a melee basic attack with a ranged weapon in hand is unarmed too;
 *   - a thrown weapon is a melee weapon against a target in reach, else a
 *     ranged one; a ranged power's range is all short range;
 *   - an area's origin (area burst, wall) may be as far as the weapon's
 *     long range; beyond short range every attack of it takes -2;
 *   - creatures that are out (dying or dead) are not targets of areas;
 *   - creatures in the way give cover only against melee and ranged
 *     attacks (not areas: the origin decides cover), and only non-allies
 *     of the attacker (L7.20);
 *   - concealment: the target's squares in the setup's obscured area give
 *     concealment, all of them in the dark (or no line of sight, or a
 *     Blinded attacker) total concealment (004:882-898);
 *   - prone's +2 against ranged and battle superiority against melee:
 *     area attacks are neither;
 *   - aid another stacks up to four aiders (004:430), each +2;
 *   - area attacks: one damage roll for every target hit; a critted target
 *     takes the maximum (option area_crit_max, L7.14) or the roll, and the
 *     crit dice are rolled once for all critted targets;
 *   - ammunition: one round per target (004:87, 101, 112), at least one
 *     for an area with nobody in it; spray needs a round for each target;
 *     suppressing fire spends 10 at once and one per attack (004:701);
 *   - bull rush, trip and grapple deal no damage; a bull rush pushes one
 *     square farther from the attacker (range grows) into a free square,
 *     and the attacker then moves into the target's old place when it
 *     fits there (neither move provokes);
 *   - grapple needs a free hand: no two-handed weapon in hand; one grapple
 *     at a time;
 *   - checks (fa_check_vs) have no automatic success or failure: natural 1
 *     and 20 are for attack rolls (004:51);
 *   - flanking counts for any melee or ranged attack made by a flanker
 *     (fray_grid_flanks needs both adjacent), not for areas;
 *   - suppressing fire shoots only at enemies of the shooter, and only
 *     while its autofire weapon is in hand with a round left;
 *   - a power without damage dice deals no damage (its effects only); a
 *     power with several targets and no area rolls for each (004:75);
 *   - thrown weapons are used up (objects.c): one per target leaves the
 *     hand and lands in the target's square; an area one (a grenade) is
 *     gone;
 *   - a coup de grace kills when the damage it deals (after Withered) is
 *     at least half the target's maximum (004:549), whatever the hit
 *     points left.
 */
#include "alloy_int.h"

#include <assert.h>
#include <string.h>

/* ---- Small helpers --------------------------------------------------------- */

static const fa_weapon UNARMED = {
    .id = "unarmed", .name = "unarmed strike", .kind = FA_WK_MELEE,
    .w = {1, 4}, .reach = 1, .hands = 0, .area_defense = FA_DEF_REFLEX,
    .area_ability = FA_DEX};

static fray_status bad(fa_run *r) {
    if (r->failed == FRAY_OK)
        r->failed = FRAY_ERR_INVALID;
    return FRAY_ERR_INVALID;
}

static const fa_statblock *block(const fa_setup *s, int who) {
    return &s->sb[s->c[who].sb];
}

/* fa_allies without calling act.c: the same side. */
static bool allied(const fa_setup *s, int a, int b) {
    return s->c[a].side == s->c[b].side;
}

static bool dead(const fa_state *st, int i) {
    return fa_has(&st->c[i], FA_C_DEAD);
}

static bool out(const fa_state *st, int i) {
    return (st->c[i].flags & FA_F_OUT) != 0 || dead(st, i);
}

static int imax(int a, int b) { return a > b ? a : b; }
static int imin(int a, int b) { return a < b ? a : b; }

/* Able to take opportunity actions, and so to flank (004:800, and the
 * conditions that say "cannot flank": 913-1031). */
static bool can_flank(const fa_state *st, int i) {
    const fa_cstate *c = &st->c[i];
    return !out(st, i) && !fa_has(c, FA_C_BLINDED) && !fa_has(c, FA_C_DAZED) &&
           !fa_has(c, FA_C_DOMINATED) &&   /* Dominated is Dazed (004:948) */
           !fa_has(c, FA_C_HELPLESS) && !fa_has(c, FA_C_STUNNED) &&
           !fa_has(c, FA_C_SURPRISED) && !fa_has(c, FA_C_UNCONSCIOUS) &&
           !fa_has(c, FA_C_DYING);
}

/* The target grants battle superiority by its state (004:907-1031; Run
 * 004:668; prone only against melee, 004:985). */
static bool grants_bs(const fa_cstate *t, bool melee) {
    enum {
        BS_ANY = 1u << FA_C_BLINDED | 1u << FA_C_DAZED | 1u << FA_C_HELPLESS |
                 1u << FA_C_STUNNED | 1u << FA_C_SURPRISED |
                 1u << FA_C_UNCONSCIOUS | 1u << FA_C_SNARED |
                 1u << FA_C_RUNNING | 1u << FA_C_GRANTS_BS | 1u << FA_C_DYING |
                 1u << FA_C_DOMINATED   /* Dazed (004:948) */
    };
    if (t->has & (uint32_t)BS_ANY)
        return true;
    return melee && fa_has(t, FA_C_PRONE);
}

/* The slot of the block's own unarmed weapon, -1 when it has none. */
static int unarmed_slot(const fa_setup *s, int who) {
    const fa_statblock *b = block(s, who);
    for (int i = 0; i < b->n_weapons; i++) {
        int w = b->weapons[i].weapon;
        if (w >= 0 && w < s->n_weapons && strcmp(s->weapons[w].id, "unarmed") == 0)
            return i;
    }
    return -1;
}

/* The weapon in a slot (-1: unarmed). */
static const fa_weapon *weapon_in(const fa_setup *s, int who, int slot) {
    const fa_statblock *b = block(s, who);
    if (slot < 0 || slot >= b->n_weapons)
        slot = unarmed_slot(s, who);
    if (slot < 0)
        return &UNARMED;
    int w = b->weapons[slot].weapon;
    if (w < 0 || w >= s->n_weapons)
        return &UNARMED;
    return &s->weapons[w];
}

static bool proficient(const fa_setup *s, int who, int slot) {
    const fa_statblock *b = block(s, who);
    return slot >= 0 && slot < b->n_weapons && b->weapons[slot].proficient;
}

static bool square_free(const fa_setup *s, const fa_state *st, fray_pos p,
                        int skip_a, int skip_b) {
    if (!fray_grid_in(&s->map, p))
        return false;
    uint8_t t = s->map.terrain[p.y][p.x];
    if (t == FRAY_TERRAIN_WALL || t == FRAY_TERRAIN_WINDOW || t == FRAY_TERRAIN_PIT)
        return false;
    for (int i = 0; i < st->n; i++) {
        if (i == skip_a || i == skip_b || dead(st, i))
            continue;
        fray_footprint f = st->c[i].fp;
        if (p.x >= f.at.x && p.x < f.at.x + f.side && p.y >= f.at.y &&
            p.y < f.at.y + f.side)
            return false;
    }
    return true;
}

/* A footprint may stand at `to` (every square free but for skip_a and
 * skip_b's). */
static bool fits(const fa_setup *s, const fa_state *st, fray_footprint fp,
                 int skip_a, int skip_b) {
    for (int dy = 0; dy < fp.side; dy++)
        for (int dx = 0; dx < fp.side; dx++) {
            fray_pos p = {(int16_t)(fp.at.x + dx), (int16_t)(fp.at.y + dy)};
            if (!square_free(s, st, p, skip_a, skip_b))
                return false;
        }
    return true;
}

/* One square of the footprint steps by (dx, dy) without crossing a wall
 * edge (a diagonal needs one of its two L-shaped routes open). */
static bool step_open(const fray_grid *g, fray_pos p, int dx, int dy) {
    fray_pos q = {(int16_t)(p.x + dx), (int16_t)(p.y + dy)};
    if (dx == 0 || dy == 0)
        return fray_grid_edge(g, p, q) != FRAY_EDGE_WALL;
    fray_pos m1 = {q.x, p.y}, m2 = {p.x, q.y};
    bool r1 = fray_grid_in(g, m1) && g->terrain[m1.y][m1.x] != FRAY_TERRAIN_WALL &&
              fray_grid_edge(g, p, m1) != FRAY_EDGE_WALL &&
              fray_grid_edge(g, m1, q) != FRAY_EDGE_WALL;
    bool r2 = fray_grid_in(g, m2) && g->terrain[m2.y][m2.x] != FRAY_TERRAIN_WALL &&
              fray_grid_edge(g, p, m2) != FRAY_EDGE_WALL &&
              fray_grid_edge(g, m2, q) != FRAY_EDGE_WALL;
    return r1 || r2;
}

static bool fp_steps_open(const fray_grid *g, fray_footprint fp, int dx, int dy) {
    for (int y = 0; y < fp.side; y++)
        for (int x = 0; x < fp.side; x++) {
            fray_pos p = {(int16_t)(fp.at.x + x), (int16_t)(fp.at.y + y)};
            if (!step_open(g, p, dx, dy))
                return false;
        }
    return true;
}

/* ---- The attack line ------------------------------------------------------- */

/* A basic attack with weapon w (in slot, -1: none) into *L (004:474-500). */
static void weapon_line(const fa_setup *s, int who, const fa_weapon *w, int slot,
                        bool melee, fa_attack_line *L) {
    const fa_statblock *b = block(s, who);
    L->weapon = (int8_t)slot;
    if (!melee && w->area != FA_AREA_NONE) {
        L->area = true;
        L->area_kind = w->area;
        L->area_size = w->area_size;
        L->ability = w->area_ability;
        L->defense = w->area_defense;
    } else {
        L->ranged = !melee;
        L->ability = melee ? FA_STR : FA_DEX;   /* 004:482, 496 */
        L->defense = FA_DEF_DEFENSE;
    }
    L->dice = w->w;
    L->crit_dice = w->crit;
    L->damage_bonus = b->mod[L->ability];
    int prof = 0;
    if (w->proficiency != 0) {
        if (proficient(s, who, slot))
            prof = w->proficiency;
        else
            L->proficiency_lost = w->proficiency;
    }
    L->attack_bonus = (int16_t)(b->mod[L->ability] + b->attack_bonus + prof);
    L->reach = (int8_t)imax(b->reach, w->reach);
    if (L->reach < 1)
        L->reach = 1;
    L->range_short = w->range_short;
    L->range_long = w->range_long;
}

fa_attack_line fa_attack_line_of(const fa_setup *s, const fa_state *st,
                                 int who, int power, int weapon, bool melee) {
    fa_attack_line L;
    memset(&L, 0, sizeof L);
    const fa_statblock *b = block(s, who);
    int slot = weapon >= 0 ? weapon : st->c[who].wield;
    L.power = -1;
    L.crit_min = (int8_t)(b->crit_min > 0 ? b->crit_min : 20);
    L.mult = 1;
    if (power >= 0 && power < b->n_powers) {
        const fa_power *p = &b->powers[power];
        L.power = (int8_t)power;
        slot = p->weapon;
        const fa_weapon *w = slot >= 0 ? weapon_in(s, who, slot) : NULL;
        L.weapon = (int8_t)(w ? slot : -1);
        L.ability = p->ability;
        L.defense = p->defense;
        L.ranged = p->ranged;
        L.area = p->area != FA_AREA_NONE;
        L.area_kind = p->area;
        L.area_size = p->area_size;
        L.mult = (int8_t)(p->mult > 0 ? p->mult : 1);
        L.dice = w ? w->w : p->dice;
        L.crit_dice = w ? w->crit : (fa_dice){0, 0};
        L.damage_bonus = (int16_t)(b->mod[p->ability] + p->damage_bonus);
        int prof = 0;
        if (w && w->proficiency != 0) {
            if (proficient(s, who, slot))
                prof = w->proficiency;
            else
                L.proficiency_lost = w->proficiency;
        }
        L.attack_bonus = (int16_t)(b->mod[p->ability] + b->attack_bonus + prof +
                                   p->attack_bonus);
        L.reach = (int8_t)imax(b->reach, w ? w->reach : 1);
        if (p->range > 0) {
            L.range_short = p->range;
        } else if (w && L.ranged) {
            L.range_short = w->range_short;
            L.range_long = w->range_long;
        }
        return L;
    }
    const fa_weapon *taken = slot < 0 && melee ? fa_obj_taken_melee(s, st, who) : NULL;
    if (taken) {
        /* another's weapon in hand (004:445, objects.c): its dice, its
         * proficiency only when the taker's block has it for its group */
        weapon_line(s, who, taken, -1, true, &L);
        if (L.proficiency_lost && fa_obj_taken_proficient(s, st, who)) {
            L.attack_bonus = (int16_t)(L.attack_bonus + L.proficiency_lost);
            L.proficiency_lost = 0;
        }
        return L;
    }
    const fa_weapon *w = weapon_in(s, who, slot);
    if (melee && w->kind == FA_WK_RANGED) {
        slot = unarmed_slot(s, who);
        w = weapon_in(s, who, slot);
    }
    if (w == &UNARMED || slot >= b->n_weapons)
        slot = -1;
    weapon_line(s, who, w, slot, melee, &L);
    return L;
}

/* Is the basic attack with the weapon in a slot a melee one against
 * target? Ranged weapons shoot; thrown ones strike in reach. */
static bool basic_is_melee(const fa_setup *s, const fa_state *st, int who,
                           int target, int slot) {
    const fa_weapon *w = weapon_in(s, who, slot >= 0 ? slot : st->c[who].wield);
    if (w->area != FA_AREA_NONE)
        return false;
    if (w->kind == FA_WK_MELEE)
        return true;
    if (w->kind == FA_WK_RANGED)
        return false;
    int reach = imax(block(s, who)->reach, w->reach);
    return target < 0 || fa_range(s, st->c[who].fp, st->c[target].fp) <= imax(reach, 1);
}

/* ---- Modifiers -------------------------------------------------------------- */

static void add_mod(fa_mods *m, fa_mod reason, int value) {
    if (m->n < (int)(sizeof m->m / sizeof m->m[0])) {
        m->m[m->n].reason = (uint8_t)reason;
        m->m[m->n].value = (int8_t)value;
        m->n++;
        m->total += value;
    }
}

static void add_def(fa_mods *m, fa_mod reason, int value) {
    if (m->n_def < (int)(sizeof m->d / sizeof m->d[0])) {
        m->d[m->n_def].reason = (uint8_t)reason;
        m->d[m->n_def].value = (int8_t)value;
        m->n_def++;
        m->def_total += value;
    }
}

/* Sum of up to four aid bonuses of a kind against `other` (004:430). */
static int aid_sum(const fa_cstate *c, fa_cond_kind kind, int other) {
    int sum = 0, n = 0;
    for (int i = 0; i < c->n_cond && n < 4; i++)
        if (c->cond[i].kind == kind && c->cond[i].other == other) {
            sum += c->cond[i].value;
            n++;
        }
    return sum;
}

/* The target's defense modifiers against attacker (L7.15: different
 * bonuses stack; Total Defense and Second Wind are two). */
static void defense_mods(const fa_state *st, int target, int attacker,
                         bool ranged, fa_mods *m) {
    const fa_cstate *t = &st->c[target];
    if (fa_has(t, FA_C_TOTAL_DEFENSE))
        add_def(m, FA_MOD_TOTAL_DEFENSE, 2);      /* 004:749 */
    if (fa_has(t, FA_C_SECOND_WIND))
        add_def(m, FA_MOD_SECOND_WIND, 2);        /* 004:680 */
    if (ranged && fa_has(t, FA_C_PRONE))
        add_def(m, FA_MOD_PRONE_VS_RANGED, 2);    /* 004:986 */
    if (fa_has(t, FA_C_UNCONSCIOUS))
        add_def(m, FA_MOD_UNCONSCIOUS, -5);       /* 004:1028 */
    if (attacker >= 0) {
        int aid = aid_sum(t, FA_C_AID_DEFENSE, attacker);
        if (aid != 0)
            add_def(m, FA_MOD_AID_DEFENSE, aid);  /* 004:428 */
    }
}

int fa_defense_value(const fa_setup *s, const fa_state *st, int target,
                     fa_defense d, int attacker, bool ranged) {
    fa_mods m;
    memset(&m, 0, sizeof m);
    defense_mods(st, target, attacker, ranged, &m);
    return block(s, target)->defense[d] + m.def_total;
}

/* The first non-ally of who standing between who and target (L7.20), on
 * the centre line between their nearest squares; -1 none. */
static int creature_in_way(const fa_setup *s, const fa_state *st, int who,
                           int target) {
    /* Nobody who could stand in the way (a duel, the last two standing):
     * no line to draw. */
    bool someone = false;
    for (int k = 0; k < st->n && !someone; k++)
        someone = k != who && k != target && !dead(st, k) && !allied(s, who, k);
    if (!someone)
        return -1;
    fray_footprint a = st->c[who].fp, t = st->c[target].fp;
    fray_pos best_a = a.at, best_t = t.at;
    int best = 1 << 20;
    for (int ay = 0; ay < imax(a.side, 1); ay++)
        for (int ax = 0; ax < imax(a.side, 1); ax++)
            for (int ty = 0; ty < imax(t.side, 1); ty++)
                for (int tx = 0; tx < imax(t.side, 1); tx++) {
                    fray_pos pa = {(int16_t)(a.at.x + ax), (int16_t)(a.at.y + ay)};
                    fray_pos pt = {(int16_t)(t.at.x + tx), (int16_t)(t.at.y + ty)};
                    int c = fray_grid_count(pa, pt);
                    if (c < best) {
                        best = c;
                        best_a = pa;
                        best_t = pt;
                    }
                }
    fray_pos line[2 * FRAY_GRID_MAX];
    int n = fray_grid_line_spaces(best_a, best_t, line, 2 * FRAY_GRID_MAX);
    /* Speed (issue 16): the ones who could stand in the way
     * listed once, and of those only the ones whose footprints meet the
     * line's box; then, as the long way, the line's squares in order and
     * for each the combatants in order. */
    int x0 = 1 << 20, y0 = 1 << 20, x1 = -(1 << 20), y1 = -(1 << 20);
    for (int i = 0; i < n; i++) {
        x0 = imin(x0, line[i].x);
        y0 = imin(y0, line[i].y);
        x1 = imax(x1, line[i].x);
        y1 = imax(y1, line[i].y);
    }
    int8_t cand[FA_MAX_COMBATANTS];
    int nc = 0;
    for (int k = 0; k < st->n; k++) {
        fray_footprint f = st->c[k].fp;
        if (f.at.x > x1 || f.at.x + f.side <= x0 || f.at.y > y1 || f.at.y + f.side <= y0 ||
            k == who || k == target || dead(st, k) || allied(s, who, k))
            continue;
        cand[nc++] = (int8_t)k;
    }
    int found = -1;
    for (int i = 0; i < n && found < 0; i++)
        for (int c = 0; c < nc && found < 0; c++) {
            fray_footprint f = st->c[cand[c]].fp;
            if (line[i].x >= f.at.x && line[i].x < f.at.x + f.side &&
                line[i].y >= f.at.y && line[i].y < f.at.y + f.side)
                found = cand[c];
        }
#ifndef NDEBUG
    int slow = -1; /* (the long way) */
    for (int i = 0; i < n && slow < 0; i++)
        for (int k = 0; k < st->n && slow < 0; k++) {
            if (k == who || k == target || dead(st, k) || allied(s, who, k))
                continue;
            fray_footprint f = st->c[k].fp;
            if (line[i].x >= f.at.x && line[i].x < f.at.x + f.side &&
                line[i].y >= f.at.y && line[i].y < f.at.y + f.side)
                slow = k;
        }
    assert(found == slow);
#endif
    return found;
}

/* A footprint's side as the map reads it (grid.c side_of: 1 to 5). */
static int fp_side(fray_footprint fp) {
    return fp.side < 1 ? 1 : fp.side > 5 ? 5 : fp.side;
}

static bool fp_covers(fray_footprint fp, fray_pos p) {
    int n = fp_side(fp);
    return p.x >= fp.at.x && p.x < fp.at.x + n && p.y >= fp.at.y &&
           p.y < fp.at.y + n;
}

/* Does who flank target with some ally (004:794-804)? The long way asks
 * fray_grid_flanks of every ally that can flank (fa_flanking_long). The
 * same answer, sooner (issue 16): fray_grid_flanks needs who next to the
 * target, asked once; and when who and the target fill one square each,
 * the line between the two flankers' centres crosses the target's square
 * from one side to the opposite one only when the other flanker holds the
 * square straight across (test_alloy_attack_speed.c holds this to
 * fray_grid_flanks), so only an ally covering that square is looked at,
 * and the lines of effect to the target (both needed) are read from the
 * map's table (fa_effect_fp) for that ally and who alone. */
static bool flanking(const fa_setup *s, const fa_state *st, int who, int target) {
    if (!can_flank(st, who))
        return false;
    const fray_footprint *t = &st->c[target].fp, *a = &st->c[who].fp;
    if (fp_side(*t) == 1 && fp_side(*a) == 1) {
        /* Next to it: one square apart along one axis or both. */
        int dx = t->at.x - a->at.x, dy = t->at.y - a->at.y;
        if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0))
            return false;
        fray_pos across = {(int16_t)(t->at.x + dx), (int16_t)(t->at.y + dy)};
        for (int k = 0; k < st->n; k++) {
            if (k == who || k == target || !fp_covers(st->c[k].fp, across) ||
                !allied(s, who, k) || !can_flank(st, k))
                continue;
            if (fray_grid_adjacent(st->c[k].fp, *t) && fa_effect_fp(s, st->c[k].fp, *t))
                return fa_effect_fp(s, *a, *t);
        }
        return false;
    }
    if (!fray_grid_adjacent(*a, *t))
        return false;
    for (int k = 0; k < st->n; k++) {
        if (k == who || k == target || !allied(s, who, k) || !can_flank(st, k))
            continue;
        if (fray_grid_flanks(&s->map, *t, *a, st->c[k].fp))
            return true;
    }
    return false;
}

bool fa_flanking_long(const fa_setup *s, const fa_state *st, int who, int target) {
    if (!can_flank(st, who))
        return false;
    for (int k = 0; k < st->n; k++) {
        if (k == who || k == target || !allied(s, who, k) || !can_flank(st, k))
            continue;
        if (fray_grid_flanks(&s->map, st->c[target].fp, st->c[who].fp, st->c[k].fp))
            return true;
    }
    return false;
}

bool fa_flanking(const fa_setup *s, const fa_state *st, int who, int target) {
    bool v = flanking(s, st, who, target);
    assert(v == fa_flanking_long(s, st, who, target)); /* (the long way) */
    return v;
}

static bool fp_all_in(const fray_area *a, fray_footprint fp) {
    for (int y = 0; y < imax(fp.side, 1); y++)
        for (int x = 0; x < imax(fp.side, 1); x++) {
            fray_pos p = {(int16_t)(fp.at.x + x), (int16_t)(fp.at.y + y)};
            if (!fray_area_has(a, p))
                return false;
        }
    return true;
}


/* Whether fa_attack_mods would call the attack impossible (its range,
 * reach and total-cover tests alone; keep the two in step), for the
 * checks before any roll that need no modifier. */
static bool attack_possible(const fa_setup *s, const fa_state *st, int who,
                            int target, const fa_attack_line *line,
                            fray_pos origin) {
    const fa_cstate *a = &st->c[who], *t = &st->c[target];
    bool melee = !line->ranged && !line->area;
    bool placed = line->area && (line->area_kind == FA_AREA_BURST ||
                                 line->area_kind == FA_AREA_WALL);
    fray_footprint from = placed ? (fray_footprint){origin, 1} : a->fp;
    if ((line->ranged && !line->area) || placed) {
        int range = line->area ? fa_range(s, a->fp, from)
                               : fa_range(s, a->fp, t->fp);
        if (range > imax(line->range_short, line->range_long))
            return false;
    } else if (melee && fa_range(s, a->fp, t->fp) > imax(line->reach, 1)) {
        return false;
    }
    return fa_open_neighbours(&s->map, from, t->fp) ||
           fray_grid_cover(&s->map, from, t->fp) != FRAY_COVER_TOTAL;
}

bool fa_attack_possible(const fa_setup *s, const fa_state *st, int who, int target,
                        const fa_attack_line *line, fray_pos origin) {
    return attack_possible(s, st, who, target, line, origin);
}

void fa_attack_mods(const fa_setup *s, const fa_state *st, int who,
                    int target, const fa_attack_line *line, bool charge,
                    fray_pos origin, fa_mods *out) {
    memset(out, 0, sizeof *out);
    out->cover_by = -1;
    const fa_cstate *a = &st->c[who], *t = &st->c[target];
    bool melee = !line->ranged && !line->area;
    fray_footprint from = a->fp;
    if (line->area && (line->area_kind == FA_AREA_BURST || line->area_kind == FA_AREA_WALL))
        from = (fray_footprint){origin, 1};

    /* Range: short free, long -2, beyond long impossible (004:89, 141-143);
     * melee within reach (004:76). An area burst's or wall's origin counts. */
    bool placed = line->area && (line->area_kind == FA_AREA_BURST ||
                                 line->area_kind == FA_AREA_WALL);
    if ((line->ranged && !line->area) || placed) {
        int range = line->area ? fa_range(s, a->fp, from)
                               : fa_range(s, a->fp, t->fp);
        int limit = imax(line->range_short, line->range_long);
        if (range > limit) {
            out->impossible = true;
            out->why_impossible = FA_NOTE_OUT_OF_RANGE;
        } else if (range > line->range_short) {
            add_mod(out, FA_MOD_LONG_RANGE, -2);
        }
    } else if (melee && fa_range(s, a->fp, t->fp) > imax(line->reach, 1)) {
        out->impossible = true;
        out->why_impossible = FA_NOTE_OUT_OF_RANGE;
    }

    /* The attacker (004:839-840, 668, 715, 846, 962). */
    if (fa_has(a, FA_C_PRONE))
        add_mod(out, FA_MOD_PRONE_ATTACKER, -2);
    if (fa_has(a, FA_C_SNARED))
        add_mod(out, FA_MOD_SNARED_ATTACKER, -2);
    if (fa_has(a, FA_C_GRAPPLED))
        add_mod(out, FA_MOD_GRAPPLED_ATTACKER, -2);
    if (fa_has(a, FA_C_RUNNING))
        add_mod(out, FA_MOD_RUNNING, -5);
    if (fa_has(a, FA_C_SQUEEZING))
        add_mod(out, FA_MOD_SQUEEZING, -5);
    if (charge && melee)
        add_mod(out, FA_MOD_CHARGE, 1);

    /* Battle superiority: one state, +2 once (L7.15). */
    if (grants_bs(t, melee) || fa_cond_find(a, FA_C_FEINTED, target))
        add_mod(out, FA_MOD_BATTLE_SUPERIORITY, 2);   /* a feint too (skills.c, 004:307) */
    else if (!line->area && fa_flanking(s, st, who, target))
        add_mod(out, FA_MOD_FLANKING, 2);

    /* Cover from line of effect (004:860-866), creatures in the way (L7.20). */
    bool near_open = fa_open_neighbours(&s->map, from, t->fp);
    fray_cover cover = near_open ? FRAY_COVER_NONE
                                 : fray_grid_cover(&s->map, from, t->fp);
    if (cover == FRAY_COVER_TOTAL) {
        out->impossible = true;
        out->why_impossible = FA_NOTE_TOTAL_COVER;
    } else if (cover == FRAY_COVER_HARD) {
        add_mod(out, FA_MOD_IMPROVED_COVER, -5);
        out->cover_value = 5;
    } else if (cover == FRAY_COVER_SOFT) {
        add_mod(out, FA_MOD_COVER, -2);
        out->cover_value = 2;
    } else if (!line->area && s->opt.creature_cover > 0) {
        int k = creature_in_way(s, st, who, target);
        if (k >= 0) {
            add_mod(out, FA_MOD_CREATURE_COVER, -s->opt.creature_cover);
            out->cover_by = (int8_t)k;
            out->cover_value = s->opt.creature_cover;
        }
    }

    /* Concealment from sight, melee and ranged only (004:843-844, 882-898). */
    if (!line->area) {
        bool total = fa_has(a, FA_C_BLINDED) ||
                     !((near_open && from.at.x == a->fp.at.x &&
                        from.at.y == a->fp.at.y && from.side == a->fp.side) ||
                       fray_grid_sight_fp(&s->map, a->fp, t->fp)) ||
                     fp_all_in(&s->dark, t->fp);
        if (total)
            add_mod(out, FA_MOD_TOTAL_CONCEALMENT, -5);
        else if (fray_area_has_fp(&s->obscured, t->fp) || fray_area_has_fp(&s->dark, t->fp))
            add_mod(out, FA_MOD_CONCEALMENT, -2);
    }

    /* Aid another on the attacker against this target (004:428). */
    int aid = aid_sum(a, FA_C_AID_ATTACK, target);
    if (aid != 0)
        add_mod(out, FA_MOD_AID, aid);

    defense_mods(st, target, who, line->ranged && !line->area, out);
}

/* ---- The roll ---------------------------------------------------------------- */

static void tell_mods(fa_run *r, int who, int target, const fa_attack_line *L,
                      const fa_mods *m) {
    for (int i = 0; i < m->n; i++)
        fa_fact_add(r, FA_FACT_MODIFIER, who, target, m->m[i].reason,
                    m->m[i].value, 0, 0);
    for (int i = 0; i < m->n_def; i++)
        fa_fact_add(r, FA_FACT_MODIFIER, who, target, m->d[i].reason,
                    m->d[i].value, 1, 0);
    if (L->proficiency_lost != 0)
        fa_fact_add(r, FA_FACT_MODIFIER, who, target, FA_MOD_NOT_PROFICIENT, 0,
                    0, L->proficiency_lost);
}

typedef struct roll_result {
    int d20, total, def, result;
} roll_result;

/* d20 + bonus >= defense (004:49); natural 1 misses, natural 20 hits, a
 * natural >= crit_min that would hit is a crit (004:53, 175-177). coup: a
 * hit is a crit (004:548); coup without a roll (coup_rolls false): a crit
 * with no die. def < 0: the target's own defense. */
static roll_result roll_attack(fa_run *r, int who, int target,
                               const fa_attack_line *L, const fa_mods *m,
                               fa_defense d, int def, bool coup) {
    roll_result rr = {0, 0, def, FA_MISS};
    int bonus = L->attack_bonus + m->total;
    if (def < 0)
        rr.def = block(r->s, target)->defense[d] + m->def_total;
    if (coup && !r->s->opt.coup_rolls) {
        rr.result = FA_CRIT;
        rr.total = 0;
    } else {
        rr.d20 = fa_roll(r, 20, FA_DIE_ATTACK, who);
        rr.total = rr.d20 + bonus;
        bool would = rr.total >= rr.def;
        bool hit = rr.d20 == 20 || (rr.d20 != 1 && would);
        if (hit)
            rr.result = (coup || (rr.d20 >= L->crit_min && would)) ? FA_CRIT : FA_HIT;
    }
    fa_fact_add(r, FA_FACT_ATTACK, who, target, rr.d20, bonus, rr.total, (int32_t)d);
    fa_fact_more(r, rr.def, rr.result);
    tell_mods(r, who, target, L, m);
    return rr;
}

static int damage_max(const fa_attack_line *L) {
    return L->mult * L->dice.n * L->dice.sides + L->damage_bonus;
}

/* X{W}: the weapon's dice X times, then the static modifiers (004:169). */
static int damage_roll(fa_run *r, int who, const fa_attack_line *L) {
    int sum = 0;
    for (int i = 0; i < L->mult; i++)
        sum += fa_roll_dice(r, L->dice, FA_DIE_DAMAGE, who);
    return sum + L->damage_bonus;
}

/* Hit effects of a power (conditions with their durations). */
static fray_status power_effects(fa_run *r, int who, int target,
                                 const fa_attack_line *L) {
    if (L->power < 0 || out(r->st, target))
        return FRAY_OK;
    const fa_power *p = &block(r->s, who)->powers[L->power];
    for (int i = 0; i < p->n_effects && i < FA_POWER_EFFECTS; i++) {
        fa_cond c;
        memset(&c, 0, sizeof c);
        c.kind = p->effects[i].cond;
        c.ends = p->effects[i].ends;
        c.whose = (int8_t)who;
        c.other = (int8_t)(c.kind == FA_C_GRAPPLED ? who : -1);
        c.value = p->effects[i].value;
        c.source = (int8_t)who;
        c.round = r->st->round;
        fray_status e = fa_cond_add(r, target, c);
        if (e != FRAY_OK)
            return e;
    }
    /* (alloy-space) push, pull or slide (space.c) */
    if (p->forced != FA_FORCED_NONE && p->forced_n > 0)
        return fa_forced_move(r, who, target, p->forced, p->forced_n);
    return FRAY_OK;
}

/* Aid used: the attacker's bonus against target, the target's against
 * the attacker (004:428: "next attack"). */
static void aid_used(fa_run *r, int who, int target) {
    fa_cond_remove(r, who, FA_C_AID_ATTACK, target);
    fa_cond_remove(r, target, FA_C_AID_DEFENSE, who);
    fa_cond_remove(r, who, FA_C_FEINTED, target);   /* a feint's next attack (skills.c) */
}

/* Ammunition: n rounds from the magazine of a counted ranged weapon. */
static fray_status spend_ammo(fa_run *r, int who, int slot, int n) {
    if (slot < 0)
        return FRAY_OK;
    const fa_weapon *w = weapon_in(r->s, who, slot);
    if (w->magazine <= 0 || w->kind == FA_WK_MELEE)
        return FRAY_OK;
    fa_cstate *c = &r->st->c[who];
    if (c->ammo[slot] < n)
        return bad(r);
    c->ammo[slot] = (int16_t)(c->ammo[slot] - n);
    fa_fact_add(r, FA_FACT_AMMO, who, -1, n, c->ammo[slot], 0, 0);
    return FRAY_OK;
}

static bool valid_target(const fa_state *st, int who, int t) {
    return t >= 0 && t < st->n && t != who && !dead(st, t);
}

static void mark_power(fa_run *r, int who, int power) {
    if (power < 0)
        return;
    const fa_power *p = &block(r->s, who)->powers[power];
    if (p->usage != FA_AT_WILL)
        r->st->c[who].powers_used |= (uint8_t)(1u << power);
}

/* ---- One target, one attack and one damage roll ---------------------------- */

static fray_status deal(fa_run *r, int who, int target, int amount, int rolled) {
    return fa__deal(r, who, target, amount, rolled);
}

typedef enum { ONE_DAMAGE, ONE_COUP } one_mode;

static fray_status attack_one(fa_run *r, int who, int target,
                              const fa_attack_line *L, bool charge,
                              one_mode mode) {
    fa_mods m;
    fa_attack_mods(r->s, r->st, who, target, L, charge, r->st->c[who].fp.at, &m);
    if (m.impossible)
        return bad(r);
    /* Total concealment: the attacker names a square (L7.16, 004:898; the
     * command's guess, else where its side last saw the target); a wrong
     * one misses with nothing rolled (skills.c). */
    for (int i = 0; i < m.n; i++) {
        if (m.m[i].reason != FA_MOD_TOTAL_CONCEALMENT)
            continue;
        fray_pos g = fa_guess_of(r, who, target);
        fray_footprint tf = r->st->c[target].fp;
        int ts = tf.side > 0 ? tf.side : 1;
        if (g.x < tf.at.x || g.x >= tf.at.x + ts || g.y < tf.at.y || g.y >= tf.at.y + ts) {
            fa_fact_add(r, FA_FACT_NO_EFFECT, who, target, FA_NOTE_WRONG_SQUARE, g.x, g.y, 0);
            aid_used(r, who, target);
            return r->failed;
        }
        break;
    }
    roll_result rr = roll_attack(r, who, target, L, &m, (fa_defense)L->defense,
                                 -1, mode == ONE_COUP);
    aid_used(r, who, target);
    if (r->failed != FRAY_OK)
        return r->failed;
    int struck = target;
    if (rr.result == FA_MISS && m.cover_by >= 0 && rr.d20 != 1 &&
        rr.total + m.cover_value >= rr.def) {
        /* Missed only because of a creature's cover (004:870-878). */
        int k = m.cover_by;
        int defk = fa_defense_value(r->s, r->st, k, (fa_defense)L->defense, who,
                                    L->ranged);
        bool hits_k = rr.total + m.cover_value >= defk;
        int took = 0;
        if (!hits_k)
            took = fa_choose(r, FA_CH_COVER_TAKES_HIT, k, target, 0);
        struck = (hits_k || took) ? k : target;
        fa_fact_add(r, FA_FACT_COVER_STRUCK, who, k, target, defk, hits_k, took);
        rr.result = FA_HIT;
    }
    if (rr.result == FA_MISS)
        return r->failed;
    if (L->dice.n <= 0)    /* a power with no damage: its effects only */
        return power_effects(r, who, struck, L);
    int rolled, amount;
    if (rr.result == FA_CRIT) {
        rolled = damage_max(L);
        amount = rolled + fa_roll_dice(r, L->crit_dice, FA_DIE_CRIT, who);
    } else {
        rolled = damage_roll(r, who, L);
        amount = rolled;
    }
    if (r->failed != FRAY_OK)
        return r->failed;
    int hp_before = r->st->c[struck].hp;
    fray_status e = deal(r, who, struck, amount, rolled);
    if (e != FRAY_OK)
        return e;
    if (mode == ONE_COUP && !dead(r->st, struck)) {
        /* 004:549: damage >= half the maximum kills. */
        int dealt = hp_before - r->st->c[struck].hp;
        if (2 * dealt >= block(r->s, struck)->hp) {
            e = fa__kill(r, struck);
            if (e != FRAY_OK)
                return e;
        }
    }
    return power_effects(r, who, struck, L);
}

/* ---- Areas (004:94-137) ------------------------------------------------------ */

/* The area's spaces and where its effect comes from; FRAY_ERR_INVALID for
 * a placement the rules refuse. */
static fray_status area_of(fa_run *r, int who, const fa_command *cmd,
                           const fa_attack_line *L, fray_area *area,
                           fray_footprint *from) {
    const fa_setup *s = r->s;
    fray_footprint me = r->st->c[who].fp;
    fray_area_clear(area);
    *from = me;
    int metric = s->opt.burst;
    switch (L->area_kind) {
    case FA_AREA_BLAST:      /* 004:125: adjacent n x n, not the user's space */
        if (fray_area_blast(&s->map, me, L->area_size, cmd->origin, area) != FRAY_OK)
            return bad(r);
        return FRAY_OK;
    case FA_AREA_CLOSE_BURST: /* around the user, not affecting it (004:131) */
        fray_area_aura(&s->map, me, L->area_size, (fray_area_metric)metric, false, area);
        return FRAY_OK;
    case FA_AREA_BURST: {    /* within range, line of effect to the origin (004:110) */
        fray_footprint o = {cmd->origin, 1};
        if (!fray_grid_in(&s->map, cmd->origin) || !fray_grid_effect_fp(&s->map, me, o))
            return bad(r);
        if (fa_range(s, me, o) > imax(L->range_short, L->range_long))
            return bad(r);
        fray_area_burst(&s->map, cmd->origin, L->area_size, (fray_area_metric)metric, area);
        *from = o;
        return FRAY_OK;
    }
    case FA_AREA_WALL: {     /* 004:137: contiguous, within range */
        if (fray_area_wall_check(&s->map, cmd->path, cmd->n_path, L->area_size,
                                 NULL, area) != FRAY_WALL_OK)
            return bad(r);
        int limit = imax(L->range_short, L->range_long);
        for (int i = 0; i < cmd->n_path; i++)
            if (fa_range(s, me, (fray_footprint){cmd->path[i], 1}) > limit)
                return bad(r);
        fray_footprint o = {cmd->path[0], 1};
        if (!fray_grid_effect_fp(&s->map, me, o))
            return bad(r);
        *from = o;
        return FRAY_OK;
    }
    default:
        return bad(r);
    }
}

/* Several targets of one area: an attack roll each, one damage roll for
 * all (004:100, 111); a critted target takes the maximum (L7.14). */
static fray_status attack_area(fa_run *r, int who, const fa_attack_line *L,
                               const fray_area *area, fray_footprint from,
                               fray_pos origin, int ammo_slot, int min_ammo) {
    fa_state *st = r->st;
    int targets[FA_MAX_COMBATANTS], n = 0;
    for (int i = 0; i < st->n; i++) {
        if (out(st, i))
            continue;
        if (i == who && L->area_kind != FA_AREA_BURST)
            continue;   /* blasts and close bursts never affect the user */
        if (fray_area_affects(&r->s->map, area, from, st->c[i].fp))
            targets[n++] = i;
    }
    fray_status e = spend_ammo(r, who, ammo_slot, imax(n, min_ammo));
    if (e != FRAY_OK)
        return e;
    if (n == 0) {
        fa_fact_add(r, FA_FACT_NO_EFFECT, who, -1, FA_NOTE_NO_TARGETS, 0, 0, 0);
        return r->failed;
    }
    int result[FA_MAX_COMBATANTS];
    bool any_hit = false, any_crit = false;
    for (int k = 0; k < n; k++) {
        fa_mods m;
        fa_attack_mods(r->s, st, who, targets[k], L, false, origin, &m);
        result[k] = FA_MISS;
        if (m.impossible)
            continue;   /* out of range or no line of effect from the origin */
        roll_result rr = roll_attack(r, who, targets[k], L, &m,
                                     (fa_defense)L->defense, -1, false);
        aid_used(r, who, targets[k]);
        result[k] = rr.result;
        any_hit |= rr.result == FA_HIT || (rr.result == FA_CRIT && !r->s->opt.area_crit_max);
        any_crit |= rr.result == FA_CRIT;
    }
    if (r->failed != FRAY_OK)
        return r->failed;
    bool damages = L->dice.n > 0;
    int rolled = any_hit && damages ? damage_roll(r, who, L) : 0;
    int extra = any_crit && damages ? fa_roll_dice(r, L->crit_dice, FA_DIE_CRIT, who) : 0;
    if (r->failed != FRAY_OK)
        return r->failed;
    for (int k = 0; k < n; k++) {
        if (result[k] == FA_MISS)
            continue;
        if (L->dice.n <= 0) {  /* a power with no damage: its effects only */
            e = power_effects(r, who, targets[k], L);
            if (e != FRAY_OK)
                return e;
            continue;
        }
        int base = rolled;
        if (result[k] == FA_CRIT && r->s->opt.area_crit_max)
            base = damage_max(L);
        int amount = base + (result[k] == FA_CRIT ? extra : 0);
        e = deal(r, who, targets[k], amount, base);
        if (e != FRAY_OK)
            return e;
        e = power_effects(r, who, targets[k], L);
        if (e != FRAY_OK)
            return e;
    }
    return FRAY_OK;
}

/* ---- The attack actions ------------------------------------------------------- */

static fray_status basic_or_power(fa_run *r, const fa_command *cmd, bool charge) {
    const fa_setup *s = r->s;
    int who = cmd->actor;
    const fa_statblock *b = block(s, who);
    if (cmd->power >= b->n_powers)
        return bad(r);
    int first = cmd->n_targets > 0 ? cmd->targets[0] : -1;
    bool melee = cmd->power >= 0 ? false
                 : charge || basic_is_melee(s, r->st, who, first, cmd->weapon);
    fa_attack_line L = fa_attack_line_of(s, r->st, who, cmd->power, cmd->weapon, melee);
    if (charge && (L.ranged || L.area))
        return bad(r);     /* a charge ends in a melee attack (004:523) */
    if (L.area) {
        fray_area area;
        fray_footprint from;
        fray_status e = area_of(r, who, cmd, &L, &area, &from);
        if (e != FRAY_OK)
            return e;
        fray_pos origin = cmd->origin;
        if (L.area_kind == FA_AREA_WALL)
            origin = cmd->path[0];
        if (fa_obj_throws(s, r->st, &L, who) &&   /* a grenade: used up (objects.c) */
            (e = fa_obj_thrown(r, who, L.weapon, cmd->targets, 1, true)) != FRAY_OK)
            return e;
        e = attack_area(r, who, &L, &area, from, origin, L.weapon, 1);
        if (e == FRAY_OK)
            mark_power(r, who, cmd->power);
        return e;
    }
    if (cmd->n_targets < 1 || cmd->n_targets > FA_MAX_TARGETS)
        return bad(r);
    if (cmd->power < 0 && cmd->n_targets != 1)
        return bad(r);     /* a basic attack has one target (004:482) */
    for (int i = 0; i < cmd->n_targets; i++) {
        if (!valid_target(r->st, who, cmd->targets[i]))
            return bad(r);
        /* every target in reach or range, with line of effect, before any roll */
        if (!attack_possible(s, r->st, who, cmd->targets[i], &L,
                             r->st->c[who].fp.at))
            return bad(r);
    }
    if (L.ranged) {        /* one round per target (004:87) */
        fray_status e = spend_ammo(r, who, L.weapon, cmd->n_targets);
        if (e != FRAY_OK)
            return e;
    }
    bool throws = fa_obj_throws(s, r->st, &L, who);
    mark_power(r, who, cmd->power);
    for (int i = 0; i < cmd->n_targets; i++) {
        /* A separate attack and damage roll for each (004:75, 87). */
        fray_status e = attack_one(r, who, cmd->targets[i], &L, charge, ONE_DAMAGE);
        if (e != FRAY_OK)
            return e;
        if (out(r->st, who))
            break;
    }
    /* one thrown weapon per target, each landing in its target's square,
     * hit or miss (004:87; objects.c) */
    if (throws && r->failed == FRAY_OK)
        return fa_obj_thrown(r, who, L.weapon, cmd->targets, cmd->n_targets, false);
    return r->failed;
}

static int size_of(const fa_setup *s, int who) { return block(s, who)->size; }

static bool within_one_size(const fa_setup *s, int a, int b) {
    int d = size_of(s, a) - size_of(s, b);
    return d >= -1 && d <= 1;
}

/* A single-target roll with no damage (trip, grapple, bull rush, held
 * object, aid): returns FA_MISS/HIT/CRIT or -1 after bad(). */
static int special_roll(fa_run *r, int who, int target, fa_attack_line *L,
                        bool charge, int fixed_def) {
    fa_mods m;
    fa_attack_mods(r->s, r->st, who, target, L, charge, r->st->c[who].fp.at, &m);
    if (m.impossible) {
        bad(r);
        return -1;
    }
    if (fixed_def >= 0) {  /* aid another: Defense 10, the target's bonuses do not count */
        m.n_def = 0;
        m.def_total = 0;
    }
    roll_result rr = roll_attack(r, who, target, L, &m, (fa_defense)L->defense,
                                 fixed_def, false);
    aid_used(r, who, target);
    if (r->failed != FRAY_OK)
        return -1;
    return rr.result;
}

/* The unarmed attack of trip and grapple (004:735, 611). */
static fa_attack_line unarmed_line(const fa_setup *s, const fa_state *st, int who,
                                   fa_defense d) {
    (void)st;
    fa_attack_line L;
    memset(&L, 0, sizeof L);
    const fa_statblock *b = block(s, who);
    L.power = -1;
    L.mult = 1;
    L.crit_min = (int8_t)(b->crit_min > 0 ? b->crit_min : 20);
    int slot = unarmed_slot(s, who);
    weapon_line(s, who, weapon_in(s, who, slot), slot, true, &L);
    L.defense = (uint8_t)d;
    return L;
}

/* A free square for a bull rush push (004:510-512): the one asked
 * (must be one step of the target, farther from the attacker), else the
 * straight step away first, then any. false: no room. */
static bool push_square(fa_run *r, int who, int target, fray_pos asked,
                        fray_pos *out_at) {
    const fa_state *st = r->st;
    fray_footprint a = st->c[who].fp, t = st->c[target].fp;
    int sx = (t.at.x > a.at.x) - (t.at.x < a.at.x);
    int sy = (t.at.y > a.at.y) - (t.at.y < a.at.y);
    int dirs[9][2] = {{sx, sy}, {-1, -1}, {0, -1}, {1, -1}, {-1, 0},
                      {1, 0},   {-1, 1},  {0, 1},  {1, 1}};
    int first = 0, last = 9;
    if (asked.x >= 0) {
        dirs[0][0] = asked.x - t.at.x;
        dirs[0][1] = asked.y - t.at.y;
        last = 1;
    }
    for (int i = first; i < last; i++) {
        int dx = dirs[i][0], dy = dirs[i][1];
        if ((dx == 0 && dy == 0) || dx < -1 || dx > 1 || dy < -1 || dy > 1)
            continue;
        fray_footprint n = {{(int16_t)(t.at.x + dx), (int16_t)(t.at.y + dy)}, t.side};
        if (fa_range(r->s, a, n) <= fa_range(r->s, a, t))
            continue;   /* a push moves it away */
        if (!fits(r->s, st, n, target, -1) || !fp_steps_open(&r->s->map, t, dx, dy))
            continue;
        *out_at = n.at;
        return true;
    }
    return false;
}

static fray_status bull_rush(fa_run *r, const fa_command *cmd, bool charge) {
    const fa_setup *s = r->s;
    fa_state *st = r->st;
    int who = cmd->actor;
    if (cmd->n_targets != 1 || !valid_target(st, who, cmd->targets[0]))
        return bad(r);
    int t = cmd->targets[0];
    if (!fray_grid_adjacent(st->c[who].fp, st->c[t].fp) || !within_one_size(s, who, t))
        return bad(r);
    if (cmd->origin.x >= 0) {
        int dx = cmd->origin.x - st->c[t].fp.at.x, dy = cmd->origin.y - st->c[t].fp.at.y;
        fray_footprint n = {cmd->origin, st->c[t].fp.side};
        if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0) ||
            fa_range(s, st->c[who].fp, n) <= 1)
            return bad(r);
    }
    /* Strength vs Fortitude (004:509): no weapon, no proficiency. */
    fa_attack_line L = fa_bull_rush_line(s, st, who);
    int res = special_roll(r, who, t, &L, charge, -1);
    if (res < 0)
        return r->failed;
    if (res == FA_MISS)
        return FRAY_OK;
    fray_pos to;
    if (!push_square(r, who, t, cmd->origin, &to)) {
        fa_fact_add(r, FA_FACT_NO_EFFECT, who, t, FA_NOTE_NO_ROOM, 0, 0, 0);
        return r->failed;
    }
    fray_pos vacated = st->c[t].fp.at;
    st->c[t].fp.at = to;
    fa_fact_add(r, FA_FACT_PUSH, who, t, to.x, to.y, 0, 0);
    /* "slip into the vacated space" when the attacker fits there */
    fray_footprint me = {vacated, st->c[who].fp.side};
    if (fits(s, st, me, who, -1)) {
        fray_pos from = st->c[who].fp.at;
        st->c[who].fp.at = vacated;
        fa_fact_add(r, FA_FACT_MOVE, who, -1, from.x, from.y, vacated.x, vacated.y);
        fa_fact_more(r, 1, 0);
    }
    return r->failed;
}

static fray_status trip(fa_run *r, const fa_command *cmd) {
    int who = cmd->actor;
    if (cmd->n_targets != 1 || !valid_target(r->st, who, cmd->targets[0]))
        return bad(r);
    int t = cmd->targets[0];
    fa_attack_line L = fa_special_line(r->s, r->st, who, FA_CMD_TRIP); /* 004:735 */
    int res = special_roll(r, who, t, &L, false, -1);
    if (res < 0)
        return r->failed;
    if (res == FA_MISS)
        return FRAY_OK;
    if (fa_has(&r->st->c[t], FA_C_PRONE)) {
        fa_fact_add(r, FA_FACT_NO_EFFECT, who, t, FA_NOTE_ALREADY_PRONE, 0, 0, 0);
        return r->failed;
    }
    fa_cond c = {.kind = FA_C_PRONE, .ends = FA_ENDS_EVENT, .whose = -1,
                 .other = -1, .source = (int8_t)who};
    return fa_cond_add(r, t, c);
}

static fray_status grapple(fa_run *r, const fa_command *cmd) {
    const fa_setup *s = r->s;
    fa_state *st = r->st;
    int who = cmd->actor;
    if (cmd->n_targets != 1 || !valid_target(st, who, cmd->targets[0]))
        return bad(r);
    int t = cmd->targets[0];
    if (!within_one_size(s, who, t))
        return bad(r);
    if (st->c[who].grappling >= 0 && st->c[who].grappling != t)
        return bad(r);
    if (st->c[who].wield >= 0 && weapon_in(s, who, st->c[who].wield)->hands >= 2)
        return bad(r);    /* no free hand (004:611) */
    fa_attack_line L = fa_special_line(s, st, who, FA_CMD_GRAPPLE);
    int res = special_roll(r, who, t, &L, false, -1);
    if (res < 0)
        return r->failed;
    if (res == FA_MISS)
        return FRAY_OK;
    fa_cond c = {.kind = FA_C_GRAPPLED, .ends = FA_ENDS_SUSTAIN,
                 .whose = (int8_t)who, .other = (int8_t)who, .source = (int8_t)who};
    fray_status e = fa_cond_add(r, t, c);
    if (e == FRAY_OK) {
        st->c[who].grappling = (int8_t)t;
        st->grapple_begun = true; /* turn.c fa_grapple_upkeep */
    }
    return e;
}

static fray_status held_object(fa_run *r, const fa_command *cmd) {
    fa_state *st = r->st;
    int who = cmd->actor;
    if (cmd->n_targets != 1 || !valid_target(st, who, cmd->targets[0]))
        return bad(r);
    int t = cmd->targets[0];
    if (st->c[t].wield < 0 && st->c[t].taken_owner1 == 0)
        return bad(r);    /* nothing held */
    fa_attack_line L;
    if (!fa_disarm_line(r->s, st, who, t, cmd->weapon, &L))
        return bad(r);
    if (L.ranged) {
        fray_status e = spend_ammo(r, who, L.weapon, 1);
        if (e != FRAY_OK)
            return e;
    }
    bool throws = fa_obj_throws(r->s, st, &L, who);
    int res = special_roll(r, who, t, &L, false, -1);
    if (res < 0)
        return r->failed;
    if (throws) {  /* a thrown weapon leaves the hand, lands by the target (objects.c) */
        fray_status e = fa_obj_thrown(r, who, L.weapon, cmd->targets, 1, false);
        if (e != FRAY_OK)
            return e;
    }
    if (res == FA_MISS)
        return FRAY_OK;
    /* dropped in its space (004:441), or taken by an unarmed attacker
     * (004:445, option 1): objects.c */
    return fa_obj_knocked(r, who, t, cmd->option == 1);
}

static fray_status aid(fa_run *r, const fa_command *cmd) {
    const fa_setup *s = r->s;
    fa_state *st = r->st;
    int who = cmd->actor;
    if (cmd->n_targets != 2 || !valid_target(st, who, cmd->targets[0]))
        return bad(r);
    int enemy = cmd->targets[0], ally = cmd->targets[1];
    if (ally < 0 || ally >= st->n || ally == who || !allied(s, who, ally) ||
        allied(s, who, enemy) || out(st, ally))
        return bad(r);
    if (cmd->option != FA_AID_ATTACK && cmd->option != FA_AID_DEFENSE)
        return bad(r);
    bool melee = basic_is_melee(s, st, who, enemy, cmd->weapon);
    fa_attack_line L = fa_attack_line_of(s, st, who, -1, cmd->weapon, melee);
    if (L.area)
        return bad(r);
    if (L.ranged) {
        fray_status e = spend_ammo(r, who, L.weapon, 1);
        if (e != FRAY_OK)
            return e;
    }
    int res = special_roll(r, who, enemy, &L, false, 10);   /* 004:428 */
    if (res < 0)
        return r->failed;
    if (res == FA_MISS)
        return FRAY_OK;
    /* At most four aiders (004:430). */
    if (fa_aid_attack_sources(st, who, ally) >= 4) {
        fa_fact_add(r, FA_FACT_NO_EFFECT, who, ally, FA_NOTE_AID_LIMIT, 0, 0, 0);
        return r->failed;
    }
    fa_cond c = {.kind = cmd->option == FA_AID_ATTACK ? FA_C_AID_ATTACK : FA_C_AID_DEFENSE,
                 .ends = FA_ENDS_USED, .whose = (int8_t)who, .other = (int8_t)enemy,
                 .value = 2, .source = (int8_t)who, .round = st->round};
    return fa_cond_add(r, ally, c);
}

static fray_status coup(fa_run *r, const fa_command *cmd) {
    fa_state *st = r->st;
    int who = cmd->actor;
    if (cmd->n_targets != 1 || !valid_target(st, who, cmd->targets[0]))
        return bad(r);
    int t = cmd->targets[0];
    /* A helpless target adjacent to you (004:546). */
    if (!fa_has(&st->c[t], FA_C_HELPLESS) || !fray_grid_adjacent(st->c[who].fp, st->c[t].fp))
        return bad(r);
    if (cmd->power >= block(r->s, who)->n_powers)
        return bad(r);
    bool melee = cmd->power >= 0 ? false : basic_is_melee(r->s, st, who, t, cmd->weapon);
    fa_attack_line L = fa_attack_line_of(r->s, st, who, cmd->power, cmd->weapon, melee);
    if (L.area)
        return bad(r);
    fa_mods m;
    fa_attack_mods(r->s, st, who, t, &L, false, st->c[who].fp.at, &m);
    if (m.impossible)
        return bad(r);
    if (L.ranged) {
        fray_status e = spend_ammo(r, who, L.weapon, 1);
        if (e != FRAY_OK)
            return e;
    }
    mark_power(r, who, cmd->power);
    return attack_one(r, who, t, &L, false, ONE_COUP);
}

/* The autofire weapon in hand, or NULL. */
static const fa_weapon *autofire_in_hand(const fa_setup *s, const fa_state *st, int who) {
    int slot = st->c[who].wield;
    if (slot < 0)
        return NULL;
    const fa_weapon *w = weapon_in(s, who, slot);
    return w->autofire ? w : NULL;
}

static fray_status spray(fa_run *r, const fa_command *cmd) {
    const fa_setup *s = r->s;
    int who = cmd->actor;
    const fa_weapon *w = autofire_in_hand(s, r->st, who);
    if (!w)
        return bad(r);
    /* 004:693-697: a 5-ft burst in range, Dex vs Reflex, 1{W} with no ability. */
    fa_attack_line L = fa_attack_line_of(s, r->st, who, -1, -1, false);
    L.area = true;
    L.ranged = false;
    L.area_kind = FA_AREA_BURST;
    L.area_size = 1;
    L.ability = FA_DEX;
    L.defense = FA_DEF_REFLEX;
    L.damage_bonus = 0;
    fray_area area;
    fray_footprint from;
    fray_status e = area_of(r, who, cmd, &L, &area, &from);
    if (e != FRAY_OK)
        return e;
    return attack_area(r, who, &L, &area, from, cmd->origin, r->st->c[who].wield, 1);
}

static fray_status suppress(fa_run *r, const fa_command *cmd) {
    const fa_setup *s = r->s;
    fa_state *st = r->st;
    int who = cmd->actor;
    const fa_weapon *w = autofire_in_hand(s, st, who);
    if (!w)
        return bad(r);
    fray_footprint me = st->c[who].fp, o = {cmd->origin, 1};
    if (!fray_grid_in(&s->map, cmd->origin) || !fray_grid_effect_fp(&s->map, me, o) ||
        fa_range(s, me, o) > imax(w->range_short, w->range_long))
        return bad(r);
    /* Ten rounds even with no attack (004:701). */
    fray_status e = spend_ammo(r, who, st->c[who].wield, 10);
    if (e != FRAY_OK)
        return e;
    fa_cond c = {.kind = FA_C_SUPPRESSING, .ends = FA_ENDS_START_OF_TURN,
                 .whose = (int8_t)who, .other = -1, .value = 6,
                 .source = (int8_t)who, .round = st->round, .at = cmd->origin};
    return fa_cond_add(r, who, c);
}

fray_status fa_attack(fa_run *r, const fa_command *cmd, bool charge) {
    if (r->failed != FRAY_OK)
        return r->failed;
    int who = cmd->actor;
    if (who < 0 || who >= r->st->n || out(r->st, who))
        return bad(r);
    switch (cmd->kind) {
    case FA_CMD_ATTACK:
        return basic_or_power(r, cmd, charge);
    case FA_CMD_CHARGE:
        if (cmd->option == FA_CHARGE_BULL_RUSH)
            return bull_rush(r, cmd, true);
        if (cmd->power >= 0)
            return bad(r);  /* a melee basic attack or a bull rush (004:523) */
        return basic_or_power(r, cmd, true);
    case FA_CMD_COUP:
        return coup(r, cmd);
    case FA_CMD_BULL_RUSH:
        return bull_rush(r, cmd, charge);
    case FA_CMD_TRIP:
        return trip(r, cmd);
    case FA_CMD_GRAPPLE:
        return grapple(r, cmd);
    case FA_CMD_HELD_OBJECT:
        return held_object(r, cmd);
    case FA_CMD_AID:
        return aid(r, cmd);
    case FA_CMD_SPRAY:
        return spray(r, cmd);
    case FA_CMD_SUPPRESS:
        return suppress(r, cmd);
    default:
        return bad(r);
    }
}

fray_status fa_opportunity_attack(fa_run *r, int who, int target) {
    if (r->failed != FRAY_OK)
        return r->failed;
    if (who < 0 || who >= r->st->n || !valid_target(r->st, who, target) || out(r->st, who))
        return bad(r);
    /* A melee basic attack (004:453). */
    fa_attack_line L = fa_attack_line_of(r->s, r->st, who, -1, -1, true);
    return attack_one(r, who, target, &L, false, ONE_DAMAGE);
}

bool fa_check_vs(fa_run *r, int who, int bonus, int defense_value) {
    int d20 = fa_roll(r, 20, FA_DIE_CHECK, who);
    if (r->failed != FRAY_OK)
        return false;
    bool ok = d20 + bonus >= defense_value;
    fa_fact_add(r, FA_FACT_CHECK, who, -1, d20, bonus, d20 + bonus, defense_value);
    fa_fact_more(r, ok ? 1 : 0, 0);
    return ok;
}

/* ---- Suppressing fire (004:698-701) ------------------------------------------ */

fray_status fa_suppress_turn_end(fa_run *r, int who, bool took_standard_or_none) {
    if (r->failed != FRAY_OK)
        return r->failed;
    if (!took_standard_or_none || who < 0 || who >= r->st->n)
        return FRAY_OK;
    const fa_setup *s = r->s;
    fa_state *st = r->st;
    /* (speed, issue 16: nobody suppresses, by turn.c's count; debug
     * builds look at everyone's bits below all the same) */
#ifdef NDEBUG
    if (st->n_suppressing == 0)
        return FRAY_OK;
#endif
    for (int k = 0; k < st->n && !out(st, who); k++) {
        fa_cstate *c = &st->c[k];
        assert(st->n_suppressing > 0 || !fa_has(c, FA_C_SUPPRESSING));
        /* (speed, issue 16: the conditions' bits first; most of a
         * crowd suppresses nothing) */
        if (!fa_has(c, FA_C_SUPPRESSING)) {
            assert(!fa_cond_find(c, FA_C_SUPPRESSING, -1)); /* (the long way) */
            continue;
        }
        if (k == who || allied(s, k, who) || out(st, k))
            continue;
        const fa_cond *sup = fa_cond_find(c, FA_C_SUPPRESSING, -1);
        if (!sup)
            continue;
        /* An immediate action: one per round (L7.6) unless the option. */
        if (fa_has(c, FA_C_DAZED) || fa_has(c, FA_C_STUNNED) ||
            fa_has(c, FA_C_SURPRISED) || fa_has(c, FA_C_UNCONSCIOUS))
            continue;
        if (!s->opt.suppress_unlimited && (c->flags & FA_F_IMMEDIATE))
            continue;
        fray_area area;
        fray_area_burst(&s->map, sup->at, sup->value, (fray_area_metric)s->opt.burst, &area);
        if (!fray_area_affects(&s->map, &area, (fray_footprint){sup->at, 1}, st->c[who].fp))
            continue;
        const fa_weapon *w = autofire_in_hand(s, st, k);
        if (!w || (w->magazine > 0 && c->ammo[c->wield] < 1))
            continue;
        fa_attack_line L = fa_attack_line_of(s, st, k, -1, -1, false);
        fa_mods m;
        fa_attack_mods(s, st, k, who, &L, false, c->fp.at, &m);
        if (m.impossible)
            continue;
        if (!fa_choose(r, FA_CH_SUPPRESS_FIRES, k, who, 1))
            continue;
        if (s->opt.suppress_unlimited)
            c->flags |= FA_F_SUPPRESS_FIRED;
        else
            c->flags |= FA_F_IMMEDIATE | FA_F_SUPPRESS_FIRED;
        fray_status e = spend_ammo(r, k, c->wield, 1);
        if (e != FRAY_OK)
            return e;
        e = attack_one(r, k, who, &L, false, ONE_DAMAGE);
        if (e != FRAY_OK)
            return e;
    }
    return r->failed;
}

/* ---- The chances of an area (issue 19; chances.c) ------------------------- */

fray_status fa_area_targets(const fa_setup *s, const fa_state *st, int who,
                            const fa_command *cmd, const fa_attack_line *L,
                            int *targets, int *n, fray_pos *origin) {
    fa_run r;
    memset(&r, 0, sizeof r);
    r.s = s;
    r.st = (fa_state *)st; /* area_of only reads it */
    *n = 0;
    fray_area area;
    fray_footprint from;
    fray_status e = area_of(&r, who, cmd, L, &area, &from);
    if (e != FRAY_OK)
        return e;
    *origin = L->area_kind == FA_AREA_WALL ? cmd->path[0] : cmd->origin;
    /* As attack_area picks them. */
    for (int i = 0; i < st->n; i++) {
        if (out(st, i))
            continue;
        if (i == who && L->area_kind != FA_AREA_BURST)
            continue;
        if (fray_area_affects(&s->map, &area, from, st->c[i].fp))
            targets[(*n)++] = i;
    }
    return FRAY_OK;
}

/* (added by tablechances, issue 19) The roll of a trip (FA_CMD_TRIP:
 * the unarmed attack against Reflex, 004:735) or a grapple
 * (FA_CMD_GRAPPLE: the unarmed attack with Strength against Reflex,
 * 004:611), as trip() and grapple() make it; the chances at the table
 * (chances.c) count the same line. */
fa_attack_line fa_special_line(const fa_setup *s, const fa_state *st, int who,
                               int kind) {
    fa_attack_line L = unarmed_line(s, st, who, FA_DEF_REFLEX);
    if (kind == FA_CMD_GRAPPLE)
        L.ability = FA_STR;
    return L;
}

/* For bull_rush(), aid() and the chances at the table (chances.c): a
 * bull rush's roll (004:509: Strength against Fortitude, no weapon, no
 * proficiency); the square the push would put the target on (push_square:
 * the one asked, else straight away first), false when there is no room;
 * whether a basic attack with a slot is a melee one (basic_is_melee), as
 * coup() and aid() ask it; the others aiding ally's attack or defenses
 * (aid(): at most four, 004:430). They read the state only. */
fa_attack_line fa_bull_rush_line(const fa_setup *s, const fa_state *st, int who) {
    fa_attack_line L = unarmed_line(s, st, who, FA_DEF_FORTITUDE);
    L.attack_bonus = (int16_t)(block(s, who)->mod[FA_STR] + block(s, who)->attack_bonus);
    L.proficiency_lost = 0;
    L.reach = 1;
    return L;
}

bool fa_bull_rush_square(const fa_setup *s, const fa_state *st, int who, int t,
                         fray_pos asked, fray_pos *to) {
    fa_run r;
    memset(&r, 0, sizeof r);
    r.s = s;
    r.st = (fa_state *)st; /* push_square only reads it */
    return push_square(&r, who, t, asked, to);
}

bool fa_basic_melee(const fa_setup *s, const fa_state *st, int who, int target,
                    int slot) {
    return basic_is_melee(s, st, who, target, slot);
}

int fa_aid_attack_sources(const fa_state *st, int who, int ally) {
    const fa_cstate *a = &st->c[ally];
    int sources[FA_MAX_CONDS], n = 0;
    for (int i = 0; i < a->n_cond; i++) {
        const fa_cond *c = &a->cond[i];
        if ((c->kind != FA_C_AID_ATTACK && c->kind != FA_C_AID_DEFENSE) || c->source == who)
            continue;
        bool seen = false;
        for (int j = 0; j < n; j++)
            seen |= sources[j] == c->source;
        if (!seen)
            sources[n++] = c->source;
    }
    return n;
}

/* A disarm's roll (004:440), for held_object() and the chances at the
 * table: the basic attack with the slot (melee or ranged, as
 * basic_is_melee says) against Fortitude; false: an area weapon, which
 * cannot disarm. */
bool fa_disarm_line(const fa_setup *s, const fa_state *st, int who, int t, int slot,
                    fa_attack_line *L) {
    bool melee = basic_is_melee(s, st, who, t, slot);
    *L = fa_attack_line_of(s, st, who, -1, slot, melee);
    if (L->area)
        return false;
    L->defense = FA_DEF_FORTITUDE; /* 004:440 */
    return true;
}
