/*
 * area.c - areas of effect in 99 Towers (seed 000 "Area of Effects",
 * "Areas": Aura X, Burst X, Cone X, Line X; issue 13).
 *
 * A weapon or spell profile with an area (ft_weapon.area, "area: burst 2"
 * in a catalog) makes one attack flip against every creature in the area:
 * "The attacker performs a single Attack Flip using the standard
 * modifiers. Each defender in the area of effect gets a Defensive Flip.
 * The attack hits each potential target if the Attacker's flip is equal to
 * or higher than the individual target's Defensive flip ... Only one
 * damage flip is used to determine the severity of the damage. Each
 * target applies his Resilience individually." In fray the damage of a
 * hit is the profile's plus the Hearts of the attacker's combat flip
 * (seed 000 "STUN Damage"): the one attack flip gives one damage for all,
 * which each target's Resilience, immunity and susceptibility then
 * change (ft_harm_hit).
 *
 * The shapes are the core's (include/fray/grid.h, fray_area_*), counted
 * with diagonals 1, 2, 1, 2 (Burst 1 is 9 spaces, Burst 2 is 21), and
 * only spaces the effect reaches from its origin count
 * (fray_area_keep_effect).
 *
 * Where the area lies (ft_area_place):
 *   Burst X  centred on the space aimed at ("cast fireball at 5,6"), or on
 *            a square the target creature is in ("cast fireball goblin-1":
 *            for a creature of more than one square, the first of its
 *            squares in reading order that the attacker sees). The centre
 *            must be within the weapon's range (a spell's maximum range)
 *            and in sight.
 *   Aura X   around the attacker; its own squares only with "aura X self"
 *            ("Unless specified, an aura does not include the square
 *            containing the source").
 *   Cone X   from the attacker's square nearest the aim, toward the space
 *            or creature aimed at.
 *   Line X   "The target square is at one end of the line": it starts on
 *            the square aimed at and goes on away from the attacker (option
 *            area-line: from-target); from-caster starts it beside the
 *            attacker, toward the square aimed at. The square aimed at must
 *            be in range and in sight (from-target).
 * The attacker's own squares are never in a burst's, cone's or line's...
 * unless it stands in the burst: a burst catches everyone in it, allies and
 * the attacker too.
 *
 * Order of the flips (cards given by hand come in this order): the
 * attacker's attack flip, then each defender's defense flip, nearest the
 * centre first (the aura's: its user; the cone's and line's: the square
 * they start from), ties by combatant order (the encounter's order of
 * combatants). No damage flip: the Hearts of the attack flip.
 *
 * The option area-centre-shift k (default 0, none) gives a defender at
 * distance d < k from the centre (shift-(k-d)) on its defense flip: with 1,
 * the one on the centre square flips at (shift-1).
 */
#include "towers_int.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static const char *const shape_names[FT_AREA_COUNT] = {
#define FT__E(id, name, text) name,
    FT_AREA_LIST(FT__E)
#undef FT__E
};

static bool word_is(const char *a, size_t n, const char *b) {
    size_t m = strlen(b);
    if (n != m)
        return false;
    for (size_t i = 0; i < n; i++) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z')
            x = (char)(x - 'A' + 'a');
        if (x != y)
            return false;
    }
    return true;
}

bool ft_area_parse(const char *text, ft_weapon *w, char *why,
                   size_t why_size) {
    const char *p = text;
    const char *word[4];
    size_t len[4];
    int n = 0;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        if (n == 4) {
            snprintf(why, why_size, "too many words in the area '%.40s'", text);
            return false;
        }
        word[n] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        len[n] = (size_t)(p - word[n]);
        n++;
    }
    int shape = -1;
    for (int i = 1; n > 0 && i < FT_AREA_COUNT; i++)
        if (word_is(word[0], len[0], shape_names[i]))
            shape = i;
    if (shape < 0) {
        snprintf(why, why_size,
                 "unknown area '%.40s': expected burst, aura, cone or line "
                 "and its size, like 'burst 2'",
                 text);
        return false;
    }
    int size = 0;
    bool digits = n >= 2 && len[1] > 0 && len[1] <= 2;
    for (size_t i = 0; digits && i < len[1]; i++) {
        if (word[1][i] < '0' || word[1][i] > '9')
            digits = false;
        else
            size = size * 10 + (word[1][i] - '0');
    }
    if (!digits || size < 1 || size > 20) {
        snprintf(why, why_size,
                 "the %s needs a size of 1 to 20 spaces, like '%s 2'",
                 shape_names[shape], shape_names[shape]);
        return false;
    }
    bool self = false;
    if (n == 3) {
        if (shape != FT_AREA_AURA || !word_is(word[2], len[2], "self")) {
            snprintf(why, why_size,
                     "only an aura takes a third word, 'self' (it then "
                     "includes its source's squares)");
            return false;
        }
        self = true;
    } else if (n > 3) {
        snprintf(why, why_size, "too many words in the area '%.40s'", text);
        return false;
    }
    w->area = (uint8_t)shape;
    w->area_size = (int8_t)size;
    w->area_self = self;
    return true;
}

const ft_weapon *ft_area_weapon(const ft_setup *s, const ft_state *st,
                                const ft_command *cmd) {
    int a = cmd->actor;
    if (a < 0 || a >= st->n)
        return NULL;
    const ft_statblock *sb = &s->c[a].sb;
    int wi = cmd->weapon >= 0 ? cmd->weapon
                              : st->c[a].wielded[cmd->off_hand ? 1 : 0];
    if (wi < 0 || wi >= sb->n_weapons || !sb->weapons[wi].area)
        return NULL;
    return &sb->weapons[wi];
}

static fray_status no(fray_diag *diag, const char *fmt, const char *a) {
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0, fmt, a);
}

/* The space of fp nearest p (p itself when inside). */
static fray_pos nearest_in(fray_footprint fp, fray_pos p) {
    int side = fp.side < 1 ? 1 : fp.side > 5 ? 5 : fp.side;
    fray_pos q = p;
    if (q.x < fp.at.x)
        q.x = fp.at.x;
    if (q.x > fp.at.x + side - 1)
        q.x = (int16_t)(fp.at.x + side - 1);
    if (q.y < fp.at.y)
        q.y = fp.at.y;
    if (q.y > fp.at.y + side - 1)
        q.y = (int16_t)(fp.at.y + side - 1);
    return q;
}

static fray_footprint one_square(fray_pos p) {
    fray_footprint f;
    f.at = p;
    f.side = 1;
    return f;
}

/* How far the weapon reaches a space: a spell's maximum range, four range
 * increments, or a melee weapon's reach. */
static int weapon_max_range(const ft_weapon *w) {
    if (w->spell)
        return w->max_range > 0 ? w->max_range : w->range_increment;
    if (w->range_increment > 0)
        return 4 * w->range_increment;
    return w->reach > 0 ? w->reach : 1;
}

fray_status ft_area_place(const ft_setup *s, const ft_state *st,
                          const ft_command *cmd, const ft_weapon *w,
                          fray_area *out, fray_footprint *out_centre,
                          fray_footprint *out_origin, fray_diag *diag) {
    fray_area_clear(out);
    int a = cmd->actor;
    if (!s->has_map)
        return no(diag, "an area of effect needs the map%s", "");
    const fray_grid *g = &s->map;
    fray_footprint fa = ft_fp(s, st, a);
    bool blinded = st->c[a].n_cond > 0 && ft_cond_has(st, a, FT_COND_BLINDED);
    int n = w->area_size;
    if (w->area == FT_AREA_AURA) {
        fray_area_aura(g, fa, n, FRAY_AREA_COUNTED, w->area_self, out);
        fray_area_keep_effect(g, fa, out);
        *out_centre = fa;
        *out_origin = fa;
        return FRAY_OK;
    }
    /* The space aimed at: the one named, or a square of the target. */
    fray_pos aim;
    if (cmd->at_space) {
        aim = cmd->dest;
        if (!fray_grid_in(g, aim))
            return no(diag, "that space is not on the map%s", "");
    } else {
        int t = cmd->target;
        if (t < 0 || t >= st->n)
            return no(diag, "the %s needs a target or a space ('at X,Y')",
                      w->name);
        if (st->c[t].flags & (FT_F_DEAD | FT_F_FLED))
            return no(diag, "%s is out of the fight", s->c[t].name);
        fray_footprint ft = ft_fp(s, st, t);
        aim = ft.at;
        bool found = false;
        for (int y = 0; y < ft.side && !found; y++)
            for (int x = 0; x < ft.side && !found; x++) {
                fray_pos p = {(int16_t)(ft.at.x + x), (int16_t)(ft.at.y + y)};
                if (fray_grid_in(g, p) &&
                    fray_grid_sight_fp(g, fa, one_square(p))) {
                    aim = p;
                    found = true;
                }
            }
    }
    fray_pos from = nearest_in(fa, aim);
    bool aim_checked = w->area == FT_AREA_BURST ||
                       (w->area == FT_AREA_LINE && !s->opt.area_line_from_caster);
    if (aim_checked) {
        int dist = ft_range(fa, one_square(aim));
        int max = weapon_max_range(w);
        if (dist > max) {
            char b[96];
            snprintf(b, sizeof b, "%d spaces, the %s reaches %d", dist,
                     w->name, max);
            return no(diag, "the space aimed at is out of range: %s", b);
        }
        if (!blinded && !fray_grid_sight_fp(g, fa, one_square(aim)))
            return no(diag, "no line of sight to the space aimed at%s", "");
    }
    switch ((ft_area_shape)w->area) {
    case FT_AREA_BURST:
        fray_area_burst(g, aim, n, FRAY_AREA_COUNTED, out);
        *out_centre = one_square(aim);
        *out_origin = one_square(aim);
        break;
    case FT_AREA_CONE:
        if (from.x == aim.x && from.y == aim.y)
            return no(diag, "aim the %s away from its user", w->name);
        fray_area_cone(g, from, aim, n, FRAY_AREA_COUNTED, out);
        fray_area_remove_fp(out, fa);
        *out_centre = one_square(from);
        *out_origin = fa;
        break;
    case FT_AREA_LINE:
        if (from.x == aim.x && from.y == aim.y)
            return no(diag, "aim the %s away from its user", w->name);
        if (s->opt.area_line_from_caster) {
            fray_area_line(g, from, aim, n, false, out);
            *out_centre = one_square(from);
            *out_origin = fa;
        } else {
            fray_pos beyond = {(int16_t)(2 * aim.x - from.x),
                               (int16_t)(2 * aim.y - from.y)};
            fray_area_line(g, aim, beyond, n, true, out);
            *out_centre = one_square(aim);
            *out_origin = one_square(aim);
        }
        fray_area_remove_fp(out, fa);
        break;
    case FT_AREA_NONE:
    case FT_AREA_AURA:
    case FT_AREA_COUNT:
        return no(diag, "the %s has no area", w->name);
    }
    fray_area_keep_effect(g, *out_origin, out);
    return FRAY_OK;
}

int ft_area_victims(const ft_setup *s, const ft_state *st,
                    const fray_area *area, fray_footprint centre,
                    fray_footprint origin, int *out) {
    (void)origin; /* the area was already cut to the spaces it reaches */
    int n = 0;
    int dist[FT_MAX_COMBATANTS];
    for (int i = 0; i < st->n && i < FT_MAX_COMBATANTS; i++) {
        if (st->c[i].flags & (FT_F_DEAD | FT_F_FLED))
            continue;
        fray_footprint fp = ft_fp(s, st, i);
        if (!fray_area_has_fp(area, fp))
            continue;
        int d = ft_range(centre, fp);
        /* Insertion: nearest first, then combatant order (i grows). */
        int k = n;
        while (k > 0 && dist[k - 1] > d) {
            dist[k] = dist[k - 1];
            out[k] = out[k - 1];
            k--;
        }
        dist[k] = d;
        out[k] = i;
        n++;
    }
    return n;
}

fray_status ft_area_check(const ft_setup *s, const ft_state *st,
                          const ft_command *cmd, const ft_weapon *w,
                          fray_diag *diag) {
    int a = cmd->actor;
    const char *name = s->c[a].name;
    if (cmd->action != FT_ACT_ATTACK && cmd->action != FT_ACT_CAST)
        return no(diag, "the %s has an area: use it with Attack or Cast a "
                  "Spell, not Power Attack or Aid", w->name);
    if (cmd->shift_first)
        return no(diag, "Shift Position cannot be added to an attack with "
                  "an area%s", "");
    int wi = cmd->weapon >= 0 ? cmd->weapon
                              : st->c[a].wielded[cmd->off_hand ? 1 : 0];
    if (w->shots > 0 && wi >= 0 && wi < FT_MAX_WEAPONS &&
        st->c[a].ammo[wi] <= 0)
        return no(diag, "the %s is empty: Reload a Weapon", w->name);
    if (w->spell && w->mana_cost > 0 &&
        ((unsigned)w->element >= FT_ELEMENT_COUNT ||
         w->mana_cost > st->c[a].mana[w->element]))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s has not enough mana for the %s", name,
                              w->name);
    if (!cmd->at_space && w->area != FT_AREA_AURA) {
        int t = cmd->target;
        if (t < 0 || t >= st->n)
            return no(diag, "the %s needs a target or a space ('at X,Y')",
                      w->name);
        if (ft_allies(s, a, t) || t == a)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "%s will not aim at an ally (%s): aim at a "
                                  "space instead",
                                  name, s->c[t].name);
    }
    fray_area area;
    fray_footprint centre, origin;
    return ft_area_place(s, st, cmd, w, &area, &centre, &origin, diag);
}

fray_status ft_area_attack(ft_run *r, const ft_command *cmd,
                           const ft_weapon *w, int wi) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    int a = cmd->actor;
    ft_cstate *as = &st->c[a];
    const ft_statblock *asb = &s->c[a].sb;
    fray_area area;
    fray_footprint centre, origin;
    fray_status rc = ft_area_place(s, st, cmd, w, &area, &centre, &origin,
                                   r->diag);
    if (rc != FRAY_OK)
        return rc;
    int who[FT_MAX_COMBATANTS];
    int n = ft_area_victims(s, st, &area, centre, origin, who);

    /* Shots and mana are spent on the attempt, hit or miss (rules-facts
     * "Magic"). */
    if (w->shots > 0 && wi >= 0 && wi < FT_MAX_WEAPONS) {
        as->ammo[wi]--;
        ft_emit(r, FT_FACT_AMMO, a, -1, wi, as->ammo[wi], 0, 0);
    }
    if (w->spell && w->mana_cost > 0) {
        as->mana[w->element] = (int8_t)(as->mana[w->element] - w->mana_cost);
        ft_emit(r, FT_FACT_MANA, a, -1, (int)w->element, as->mana[w->element],
                0, 0);
    }
    ft_fact *af_fact = ft_emit_fact(r, FT_FACT_AREA, a, -1);
    if (af_fact) {
        uint32_t bits = 0;
        for (int i = 0; i < n; i++)
            bits |= 1u << who[i];
        af_fact->v[0] = w->area;
        af_fact->v[1] = w->area_size;
        af_fact->v[2] = w->area == FT_AREA_AURA ? -1 : centre.at.x;
        af_fact->v[3] = w->area == FT_AREA_AURA ? -1 : centre.at.y;
        af_fact->v[4] = (int32_t)bits;
    }

    /* Blinded (as a single attack, attack.c): a Hard (15+) [SP] check
     * first, else the whole area misses. */
    if (as->n_cond > 0 && ft_cond_has(st, a, FT_COND_BLINDED)) {
        int total;
        rc = ft_blinded_check(r, a, &total);
        if (rc != FRAY_OK)
            return rc;
        if (total < 15) {
            ft_fact *nf = ft_emit_fact(r, FT_FACT_NOTE, a, -1);
            if (nf)
                snprintf(nf->text, sizeof nf->text, "blinded: cannot aim");
            as->aim = 0;
            as->aim_spell = 0;
            return FRAY_OK;
        }
    }

    /* The one attack flip. */
    ft_mods m;
    ft_area_mods(r, a, -1, w, &m);
    int rank = w->spell ? asb->cv[FT_CV_SA] : asb->cv[FT_CV_PA];
    fray_flip af;
    int ash = m.shift;
    rc = ft_flip(r, a, rank + m.flip, FT_FLIP_ATTACK, m.shift, INT_MIN, &af,
                 &ash);
    if (rc != FRAY_OK)
        return rc;
    as->aim = 0;
    as->aim_spell = 0;
    int attack_total = af.kept_value + ash;

    /* Each defender's flip against it. */
    bool hit[FT_MAX_COMBATANTS];
    int n_hit = 0;
    int k = s->opt.area_centre_shift;
    for (int i = 0; i < n; i++) {
        int t = who[i];
        const ft_statblock *tsb = &s->c[t].sb;
        ft_mods dm;
        ft_area_mods(r, a, t, w, &dm);
        int dsh = dm.def_shift;
        int d = ft_range(centre, ft_fp(s, st, t));
        if (k > 0 && d < k) {
            dsh -= k - d;
            ft_fact *mf = ft_emit_fact(r, FT_FACT_MODIFIER, t, a);
            if (mf) {
                mf->v[0] = -(k - d);
                mf->v[1] = 0;
                snprintf(mf->text, sizeof mf->text, "%s",
                         d == 0 ? "area's centre" : "near area's centre");
            }
        }
        int drank = w->spell ? tsb->cv[FT_CV_ID] : tsb->cv[FT_CV_PD];
        fray_flip df;
        int dsh_out = dsh;
        rc = ft_flip(r, t, drank + dm.def_flip, FT_FLIP_DEFENSE, dsh,
                     attack_total, &df, &dsh_out);
        if (rc != FRAY_OK)
            return rc;
        fray_combat_result res = fray__combat_resolve(&af, ash, &df, dsh_out);
        hit[i] = res.hit;
        n_hit += res.hit;
        ft_emit(r, FT_FACT_AREA_HIT, a, t, res.attack_total,
                res.defense_total, res.hit, 0);
    }

    /* One damage for all: the profile's and the Hearts of the one attack
     * flip; each target's Resilience, immunity and susceptibility. */
    int bonus = ft_damage_advantage(asb);
    int hearts = af.hearts;
    ft_emit(r, FT_FACT_AREA_DAMAGE, a, -1,
            w->damage + bonus + (w->adds_px ? asb->cv[FT_CV_PX] : 0), hearts,
            n_hit, 0);
    bool crit = (n_hit > 0 && hearts >= 1) || !s->opt.crit_needs_heart;
    const uint32_t crit_kw = FT_KW(CRIT_BLEED) | FT_KW(CRIT_PRONE) |
                             FT_KW(CRIT_SLOWED) | FT_KW(CRIT_STUN);
    for (int i = 0; i < n; i++) {
        if (!hit[i])
            continue;
        int t = who[i];
        fray_towers_hit h = ft_harm_hit(r, a, t, w, bonus, hearts);
        ft_harm_apply(r, t, h.stun, h.lethal, a);
        if (crit && (w->keywords & crit_kw) && !(st->c[t].flags & FT_F_DEAD))
            ft_crit_conditions(r, a, t, w);
    }
    return FRAY_OK;
}

/* ---- Tactics -------------------------------------------------------------- */

static bool out_of_it(const ft_cstate *c) {
    return (c->flags & (FT_F_UNCONSCIOUS | FT_F_DISABLED | FT_F_DYING |
                        FT_F_DEAD | FT_F_FLED)) != 0;
}

/* Enemies (standing) and allies (the user too, unless dead) caught. */
static void count_caught(const ft_setup *s, const ft_state *st,
                         const ft_command *c, const ft_weapon *w,
                         int *enemies, int *allies) {
    *enemies = *allies = 0;
    fray_area area;
    fray_footprint centre, origin;
    if (ft_area_place(s, st, c, w, &area, &centre, &origin, NULL) != FRAY_OK)
        return;
    int who[FT_MAX_COMBATANTS];
    int n = ft_area_victims(s, st, &area, centre, origin, who);
    int side = s->c[c->actor].side;
    for (int i = 0; i < n; i++) {
        if (s->c[who[i]].side == side)
            (*allies)++;
        else if (!out_of_it(&st->c[who[i]]))
            (*enemies)++;
    }
}

bool ft_area_policy(const ft_setup *s, const ft_state *st, int actor,
                    ft_path_cache *paths, ft_command *out) {
    if (!s->has_map || actor < 0 || actor >= st->n)
        return false;
    const ft_statblock *sb = &s->c[actor].sb;
    int best_enemies = 1; /* at least two */
    bool found = false;
    for (int wi = 0; wi < sb->n_weapons; wi++) {
        const ft_weapon *w = &sb->weapons[wi];
        if (!w->area)
            continue;
        ft_command c;
        memset(&c, 0, sizeof c);
        c.action = (uint8_t)(w->spell ? FT_ACT_CAST : FT_ACT_ATTACK);
        c.actor = (int8_t)actor;
        c.target = c.ally = c.condition = c.hold_who = c.skill = c.chip = -1;
        c.weapon = (int8_t)wi;
        if (w->spell)
            c.element = (int8_t)w->element;
        int first = 0, last = st->n;
        if (w->area == FT_AREA_AURA) {
            c.at_space = true;
            last = 1; /* one place: around the user */
        }
        for (int e = first; e < last; e++) {
            if (w->area != FT_AREA_AURA) {
                if (s->c[e].side == s->c[actor].side || out_of_it(&st->c[e]))
                    continue;
                c.target = (int8_t)e;
            }
            int enemies, allies;
            count_caught(s, st, &c, w, &enemies, &allies);
            if (allies > 0 || enemies <= best_enemies)
                continue;
            if (ft_check_command_paths(s, st, &c, NULL, paths) != FRAY_OK)
                continue;
            best_enemies = enemies;
            *out = c;
            found = true;
        }
    }
    return found;
}

