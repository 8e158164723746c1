/*
 * grapple.c - what a 99 Towers grapple does after the Grapple Test (seed
 * 000 "Grappling": Restrain, Squeeze, Slam, Throw, Reverse the Grapple),
 * Knockback, falling (seed 000 "Falling", "Combined Damage") and the
 * strength limit of improvised weapons (seed 000 "Improvised Weapons").
 *
 * The Initiate Grapple and Escape actions, the victim's restricted options
 * and the grapple's end when the two part are engine.c's; the Grapple
 * Test is attack.c's (ft_grapple_test, which also spends Restrain's
 * (shift+1)).
 *
 * The grappler's moves and the victim's Reverse are the Attack action
 * (5 phases) with ft_command.grapple_move set: "During your next action,
 * you may choose to do one of the following using the Attack action".
 * fray's reading: any Attack of the grappler on his victim while the
 * grapple holds may be one of them (docs: rulings-towers-grapple).
 */
#include "towers_int.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const move_names[FT_GM_COUNT] = {
    NULL, "restrain", "squeeze", "slam", "throw", "reverse"};

const char *ft_grapple_move_name(int move) {
    return move > 0 && move < FT_GM_COUNT ? move_names[move] : NULL;
}

int ft_grapple_victim(const ft_state *st, int c) {
    for (int v = 0; v < st->n; v++)
        if (st->c[v].grappled_by == c && v != c)
            return v;
    return -1;
}

int ft_throw_range(const ft_setup *s, int c) {
    /* "The maximum range for a thrown object is discussed in the section
     * on Aspects" (not in our seeds): fray's ruling, option throw-range,
     * 2 x Hard Strength spaces by default, at least 1. */
    int r = s->opt.throw_range > 0
                ? s->opt.throw_range
                : 2 * s->c[c].sb.aspects[FT_ASPECT_HS];
    return r > 0 ? r : 1;
}

void ft_grapple_end(ft_run *r, int v) {
    ft_state *st = r->st;
    if (v < 0 || v >= st->n || st->c[v].grappled_by < 0)
        return;
    int g = st->c[v].grappled_by;
    if (g >= 0 && g < st->n && st->c[g].restrain_vs == v + 1)
        st->c[g].restrain_vs = 0;
    st->c[v].grappled_by = -1;
    ft_cond_remove(r, v, FT_COND_GRAPPLED);
}

static void note(ft_run *r, int who, int target, const char *fmt, ...) {
    ft_fact *f = ft_emit_fact(r, FT_FACT_NOTE, who, target);
    if (!f)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->text, sizeof f->text, fmt, ap);
    va_end(ap);
}

/* ---- Places ------------------------------------------------------------- */

static bool overlap(fray_footprint a, fray_footprint b) {
    int as = a.side < 1 ? 1 : a.side, bs = b.side < 1 ? 1 : b.side;
    return a.at.x < b.at.x + bs && b.at.x < a.at.x + as &&
           a.at.y < b.at.y + bs && b.at.y < a.at.y + as;
}

/* Who (not fled, not dead, not `except`) stands in any space of fp; -1
 * nobody. */
static int who_in(const ft_setup *s, const ft_state *st, fray_footprint fp,
                  int except) {
    for (int i = 0; i < st->n; i++) {
        if (i == except || (st->c[i].flags & (FT_F_FLED | FT_F_DEAD)))
            continue;
        if (overlap(fp, ft_footprint(s, st, i)))
            return i;
    }
    return -1;
}

/* Ground a footprint can stand on: on the map, open or difficult. *elev:
 * its highest elevation. */
static bool ground(const fray_grid *g, fray_footprint fp, int *elev) {
    int side = fp.side < 1 ? 1 : fp.side, hi = INT_MIN;
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++) {
            fray_pos q = {(int16_t)(fp.at.x + x), (int16_t)(fp.at.y + y)};
            if (!fray_grid_in(g, q))
                return false;
            int t = g->terrain[q.y][q.x];
            if (t != FRAY_TERRAIN_OPEN && t != FRAY_TERRAIN_DIFFICULT)
                return false;
            if (g->elevation[q.y][q.x] > hi)
                hi = g->elevation[q.y][q.x];
        }
    *elev = hi;
    return true;
}

/* A place with a pit in it (and no wall, window or edge of the map): one
 * pushed there falls in. */
static bool pit_in(const fray_grid *g, fray_footprint fp) {
    int side = fp.side < 1 ? 1 : fp.side;
    bool pit = false;
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++) {
            fray_pos q = {(int16_t)(fp.at.x + x), (int16_t)(fp.at.y + y)};
            if (!fray_grid_in(g, q))
                return false;
            int t = g->terrain[q.y][q.x];
            if (t == FRAY_TERRAIN_WALL || t == FRAY_TERRAIN_WINDOW)
                return false;
            pit = pit || t == FRAY_TERRAIN_PIT;
        }
    return pit;
}

static int elevation_of(const fray_grid *g, fray_footprint fp) {
    int side = fp.side < 1 ? 1 : fp.side, hi = 0;
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++) {
            fray_pos q = {(int16_t)(fp.at.x + x), (int16_t)(fp.at.y + y)};
            if (fray_grid_in(g, q) && g->elevation[q.y][q.x] > hi)
                hi = g->elevation[q.y][q.x];
        }
    return hi;
}

static void moved(ft_run *r, int c, fray_pos from, int spaces) {
    ft_fact *f = ft_emit_fact(r, FT_FACT_MOVE, c, -1);
    if (f) {
        f->v[0] = from.x;
        f->v[1] = from.y;
        f->v[2] = r->st->c[c].pos.x;
        f->v[3] = r->st->c[c].pos.y;
        f->v[4] = spaces;
    }
}

/* Grapples that hold c or that c holds end when the two are no longer
 * next to each other. */
static void loosen(ft_run *r, int c) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    for (int v = 0; v < st->n; v++) {
        int g = st->c[v].grappled_by;
        if (g < 0 || (v != c && g != c))
            continue;
        if (!fray_grid_within(ft_footprint(s, st, g), ft_footprint(s, st, v),
                              1))
            ft_grapple_end(r, v);
    }
}

static const int8_t dir8[8][2] = {{0, -1}, {1, -1}, {1, 0},  {1, 1},
                                  {0, 1},  {-1, 1}, {-1, 0}, {-1, -1}};
static const char *const dir_names[8] = {"north", "north-east", "east",
                                         "south-east", "south", "south-west",
                                         "west", "north-west"};

static const char *const dir_short[8] = {"n", "ne", "e", "se",
                                         "s", "sw", "w", "nw"};

const char *ft_direction_name(int d) {
    return d >= 0 && d < 8 ? dir_names[d] : NULL;
}

int ft_direction_of(const char *word) {
    for (int d = 0; d < 8; d++)
        if (strcasecmp(word, dir_names[d]) == 0 ||
            strcasecmp(word, dir_short[d]) == 0)
            return d;
    return -1;
}

/* ---- Falling (seed 000 "Falling", "Combined Damage") -------------------- */

fray_status ft_fall(ft_run *r, int c, int levels) {
    if (c < 0 || c >= r->st->n || levels <= 0)
        return FRAY_OK;
    int per = r->setup->opt.level_feet > 0 ? r->setup->opt.level_feet : 5;
    int feet = levels * per;
    /* "5 Physical STUN and 2 damage flips per 5 feet": a fall shorter than
     * five feet does nothing; the rest of a part of five is dropped. */
    int fives = feet / 5;
    note(r, -1, c, "falls %d feet", feet);
    if (fives <= 0)
        return FRAY_OK;
    return ft_harm_combined(r, c, 5 * fives, 2 * fives, FT_CAT_PHYSICAL,
                            FT_DMG_NONE);
}

/* ---- Knockback ---------------------------------------------------------- */

static int sign(int v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }

/* Pushes c up to n spaces by (sx, sy): each step onto ground where nobody
 * stands, not up a ledge, not through a wall edge; a step down a ledge
 * ends the push in a fall, and so does a step into a pit (its depth:
 * option pit-depth). *out_spaces: the spaces moved. */
static fray_status push(ft_run *r, int c, int sx, int sy, int n,
                        int *out_spaces) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    *out_spaces = 0;
    if (!s->has_map || (!sx && !sy))
        return FRAY_OK;
    fray_pos from = st->c[c].pos;
    int fell = 0;
    for (int i = 0; i < n; i++) {
        fray_footprint fp = ft_footprint(s, st, c);
        fray_footprint to = fp;
        to.at.x = (int16_t)(fp.at.x + sx);
        to.at.y = (int16_t)(fp.at.y + sy);
        int e_to = 0, e_at = elevation_of(&s->map, fp);
        bool pit = pit_in(&s->map, to);
        if ((!pit && (!ground(&s->map, to, &e_to) || e_to > e_at)) ||
            ft_share_blocker(s, st, c, to, -1, FT_F_DEAD, true) >= 0) /* tumble.c */
            break;
        if ((!sx || !sy) &&
            fray_grid_edge(&s->map, fp.at, to.at) == FRAY_EDGE_WALL)
            break;
        st->c[c].pos = to.at;
        ft_threat_touch_one(st, c); /* (issue 16: the kept threats) */
        (*out_spaces)++;
        if (pit) {
            fell = s->opt.pit_depth;
            break;
        }
        if (e_to < e_at) {
            fell = e_at - e_to; /* off the high ground: it falls */
            break;
        }
    }
    if (*out_spaces == 0)
        return FRAY_OK;
    moved(r, c, from, *out_spaces);
    if (fell)
        return ft_fall(r, c, fell);
    return FRAY_OK;
}

fray_status ft_knockback(ft_run *r, int a, int t, int spaces) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    if (!s->has_map || spaces <= 0 || (st->c[t].flags & (FT_F_DEAD | FT_F_FLED)))
        return FRAY_OK;
    fray_footprint fa = ft_footprint(s, st, a), ft = ft_footprint(s, st, t);
    /* "Straight away from the attacker": centre to centre (doubled). */
    int sx = sign((2 * ft.at.x + ft.side) - (2 * fa.at.x + fa.side));
    int sy = sign((2 * ft.at.y + ft.side) - (2 * fa.at.y + fa.side));
    fray_status rc;
    /* Seed 000 "Grappling": "If the attacker is hit by any attack with
     * Knockback ... another Grapple Test must be made to hold onto his
     * target while being thrown about." Won: the victim is thrown about
     * with him (pushed the same way). */
    int v = ft_grapple_victim(st, t);
    if (v >= 0) {
        bool hold;
        rc = ft_grapple_test(r, t, v, 0, &hold);
        if (rc != FRAY_OK)
            return rc;
        if (!hold) {
            note(r, t, v, "loses his hold");
            ft_grapple_end(r, v);
            v = -1;
        }
    }
    note(r, a, t, "Knockback: %d space%s", spaces > 99 ? 99 : spaces,
         spaces == 1 ? "" : "s");
    int n;
    rc = push(r, t, sx, sy, spaces, &n);
    if (rc != FRAY_OK)
        return rc;
    if (v >= 0 && n > 0 && st->c[v].grappled_by == t) {
        int m;
        rc = push(r, v, sx, sy, n, &m);
        if (rc != FRAY_OK)
            return rc;
    }
    loosen(r, t);
    return FRAY_OK;
}

/* ---- Checking a grapple move ---------------------------------------------- */

static fray_status bad(fray_diag *diag, const char *fmt, const char *a,
                       const char *b) {
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0, fmt, a, b);
}

fray_status ft_grapple_check(const ft_setup *s, const ft_state *st,
                             const ft_command *cmd, fray_diag *diag) {
    int a = cmd->actor, t = cmd->target;
    const char *name = s->c[a].name;
    const char *move = ft_grapple_move_name(cmd->grapple_move);
    if (!move)
        return bad(diag, "no such grapple move%s%s", "", "");
    if (cmd->action != FT_ACT_ATTACK)
        return bad(diag, "%s is done with the Attack action%s", move, "");
    if (cmd->shift_first)
        return bad(diag, "no Shift Position with %s%s", move, "");
    if (t < 0 || t >= st->n)
        return bad(diag, "%s needs a target%s", move, "");
    const char *tname = s->c[t].name;
    if (st->c[t].flags & (FT_F_DEAD | FT_F_FLED))
        return bad(diag, "%s is %s", tname,
                   (st->c[t].flags & FT_F_DEAD) ? "dead" : "gone");
    if (cmd->grapple_move == FT_GM_REVERSE) {
        if (st->c[a].grappled_by != t)
            return bad(diag, "%s can reverse only the grapple %s is held "
                       "in: %s does not hold him", name, tname);
        return FRAY_OK;
    }
    if (st->c[t].grappled_by != a)
        return bad(diag, "%s does not hold %s in a grapple", name, tname);
    if (cmd->grapple_move != FT_GM_THROW)
        return FRAY_OK;
    /* Throw: a space within range (and in sight), not his own nor his
     * victim's, and no ally of his in it. */
    if (!s->has_map)
        return bad(diag, "there is no map to throw on%s%s", "", "");
    fray_pos d = cmd->dest;
    if (!fray_grid_in(&s->map, d) ||
        s->map.terrain[d.y][d.x] == FRAY_TERRAIN_WALL)
        return bad(diag, "%s cannot throw %s there: not a space of the map",
                   name, tname);
    fray_footprint one = {d, 1};
    if (overlap(one, ft_footprint(s, st, a)) ||
        overlap(one, ft_footprint(s, st, t)))
        return bad(diag, "%s must throw %s at another space", name, tname);
    int range = ft_throw_range(s, a), dist = fray_grid_count(st->c[a].pos, d);
    if (dist > range)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "that space is out of range: %d spaces, %s "
                              "throws up to %d", dist, name, range);
    if (!fray_grid_sight(&s->map, st->c[a].pos, d))
        return bad(diag, "%s has no line of sight to that space%s", name, "");
    int o = who_in(s, st, one, -1);
    if (o >= 0 && ft_allies(s, a, o))
        return bad(diag, "%s will not throw %s at an ally", name, tname);
    if (cmd->throw_land) {
        /* "If you are throwing a willing person (usually a teammate) and
         * you hit, you may choose not to knock your target prone ... You
         * can choose a space adjacent to the target". */
        int dir = cmd->throw_land - 1;
        if (dir >= 8)
            return bad(diag, "no such direction%s%s", "", "");
        if (!ft_allies(s, a, t))
            return bad(diag, "only a willing ally lands where %s chooses: "
                       "%s is a foe", name, tname);
        if (o < 0)
            return bad(diag, "a landing place is chosen next to someone "
                       "thrown at: nobody stands there%s%s", "", "");
        fray_footprint to = ft_footprint(s, st, t);
        to.at.x = (int16_t)(d.x + dir8[dir][0]);
        to.at.y = (int16_t)(d.y + dir8[dir][1]);
        int e;
        if (!ground(&s->map, to, &e) ||
            ft_share_blocker(s, st, t, to, -1, FT_F_DEAD, true) >= 0) /* tumble.c */
            return bad(diag, "%s cannot land %s of that space: no room",
                       tname, dir_names[dir]);
    }
    return FRAY_OK;
}

/* ---- Doing it ----------------------------------------------------------- */

/* Squeeze and Slam: "a damage flip with base Damage equal to your Hard
 * Strength plus your size modifier minus the victim's size modifier (for
 * character's less than medium treat them as size zero)". fray's reading:
 * a flip of squeeze-flips cards (1) whose Hearts add STUN and LETHAL, as a
 * weapon's damage: Physical, less <ER>, at least 1 STUN. */
int ft_squeeze_base(const ft_setup *s, int a, int v) {
    int sa = s->c[a].sb.size_rank, sv = s->c[v].sb.size_rank;
    return s->c[a].sb.aspects[FT_ASPECT_HS] + (sa > 0 ? sa : 0) -
           (sv > 0 ? sv : 0);
}

static fray_status squeeze(ft_run *r, int a, int v) {
    const ft_setup *s = r->setup;
    int base = ft_squeeze_base(s, a, v);
    fray_flip f;
    memset(&f, 0, sizeof f);
    int before = r->ev ? r->ev->n_facts : 0;
    int n = s->opt.squeeze_flips;
    /* Talents' (flip+N) `on: damage` (talent.c; issue 7). */
    if (s->c[a].sb.tsum.any) {
        n += ft_talent_damage_flips(r, a, v);
        if (n < 0)
            n = 0;
    }
    fray_status rc = ft_flip_plain(r, s->c[a].deck, n, &f);
    if (rc != FRAY_OK)
        return rc;
    if (r->facts && r->ev && r->ev->n_facts > before &&
        r->ev->facts[before].kind == FT_FACT_FLIP)
        r->ev->facts[before].who = (int8_t)a;
    ft_weapon w;
    memset(&w, 0, sizeof w);
    w.damage = base;
    w.category = FT_CAT_PHYSICAL;
    w.type = FT_DMG_NONE;
    fray_towers_hit h = ft_harm_hit(r, a, v, &w, 0, f.hearts);
    ft_harm_apply(r, v, h.stun, h.lethal, a);
    return FRAY_OK;
}

/* A card of the thrower's deck says where the thrown lands ("Randomly
 * determine which direction from the target"): its value modulo 8 names a
 * direction (0 north, clockwise); the first space from there, clockwise,
 * where the thrown can stand. *out false: nowhere. */
static fray_status landing(ft_run *r, int a, int v, fray_pos at,
                           fray_pos *out, bool *out_found) {
    const ft_setup *s = r->setup;
    const ft_state *st = r->st;
    *out_found = false;
    fray_flip f;
    memset(&f, 0, sizeof f);
    int before = r->ev ? r->ev->n_facts : 0;
    fray_status rc = ft_flip_plain(r, s->c[a].deck, 1, &f);
    if (rc != FRAY_OK)
        return rc;
    if (r->facts && r->ev && r->ev->n_facts > before &&
        r->ev->facts[before].kind == FT_FACT_FLIP) {
        ft_fact *x = &r->ev->facts[before];
        x->who = (int8_t)a;
        x->v[0] = FT_FLIP_CHECK; /* a card for a direction, not damage */
        x->v[1] = x->v[3];       /* its total: the kept value */
        x->v[4] = 0;
    }
    int first = (f.kept_value % 8 + 8) % 8;
    fray_footprint fp = ft_footprint(s, st, v);
    for (int k = 0; k < 8; k++) {
        int d = (first + k) % 8;
        fray_footprint to = fp;
        to.at.x = (int16_t)(at.x + dir8[d][0]);
        to.at.y = (int16_t)(at.y + dir8[d][1]);
        int e;
        if (ground(&s->map, to, &e) &&
            ft_share_blocker(s, st, v, to, -1, FT_F_DEAD, true) < 0) { /* tumble.c */
            *out = to.at;
            *out_found = true;
            note(r, a, v, "lands %s", dir_names[d]);
            return FRAY_OK;
        }
    }
    return FRAY_OK;
}

static void range_mod(int inc, int *flip, int *shift) {
    /* Seed 000 "Range Modifiers", as attack.c reads them. */
    if (inc == 2)
        *shift -= 1;
    else if (inc == 3)
        *flip -= 1;
    else if (inc >= 4) {
        *flip -= 1;
        *shift -= 1;
    }
}

static fray_status throw_foe(ft_run *r, int a, int v, fray_pos d,
                             int land_dir) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    fray_footprint one = {d, 1};
    int o = who_in(s, st, one, v);
    int range = ft_throw_range(s, a);
    int ri = range / 4 > 0 ? range / 4 : 1;
    int dist = fray_grid_count(st->c[a].pos, d);
    int inc = dist <= ri ? 1 : (dist + ri - 1) / ri;
    int flip = 0, shift = 0;
    range_mod(inc, &flip, &shift);
    if (flip || shift) {
        ft_fact *f = ft_emit_fact(r, FT_FACT_MODIFIER, a, -1);
        if (f) {
            f->v[0] = shift;
            f->v[1] = flip;
            snprintf(f->text, sizeof f->text, "range increment %c",
                     (char)('0' + (inc > 9 ? 9 : inc < 0 ? 0 : inc)));
        }
    }
    int fm = 0, sh = 0;
    ft_cond_mods(st, a, FT_FLIP_ATTACK, false, &fm, &sh);
    flip += fm;
    shift += sh;
    const ft_statblock *asb = &s->c[a].sb;
    bool hit;
    int att, def;
    if (o >= 0) {
        /* "If the space is occupied, make a Physical Attack <PA> roll
         * against the Physical Defense <PD> of the person in the space." */
        ft_opposed of;
        memset(&of, 0, sizeof of);
        of.a = a;
        of.t = o;
        of.ap = FT_FLIP_ATTACK;
        of.dp = FT_FLIP_DEFENSE;
        int dfm = 0, dsh = 0;
        ft_cond_mods(st, o, FT_FLIP_DEFENSE, false, &dfm, &dsh);
        of.an = asb->cv[FT_CV_PA] + flip;
        of.dn = s->c[o].sb.cv[FT_CV_PD] + dfm;
        of.ash = shift;
        of.dsh = dsh;
        fray_status rc = ft_flip_opposed(r, &of);
        if (rc != FRAY_OK)
            return rc;
        att = of.af.kept_value + of.ash;
        def = of.df.kept_value + of.dsh;
    } else {
        /* "If the square is unoccupied, treat the Defense as 0." */
        fray_flip f;
        int fsh = shift;
        fray_status rc = ft_flip(r, a, asb->cv[FT_CV_PA] + flip,
                                 FT_FLIP_ATTACK, shift, 0, &f, &fsh);
        if (rc != FRAY_OK)
            return rc;
        att = f.kept_value + fsh;
        def = 0;
    }
    hit = att >= def; /* as an attack hits on a tie */
    ft_fact *hf = ft_emit_fact(r, hit ? FT_FACT_HIT : FT_FACT_MISS, a,
                               o >= 0 ? o : v);
    if (hf) {
        hf->v[0] = att;
        hf->v[1] = def;
        hf->v[4] = -1; /* a hit that does no damage (as Aid's) */
    }
    ft_grapple_end(r, v); /* the throw lets go */
    fray_pos from = st->c[v].pos;
    fray_pos land = d;
    bool found = true;
    bool gentle = hit && o >= 0 && land_dir >= 0;
    if (gentle) {
        /* The willing ally lands where chosen, nobody prone. */
        land.x = (int16_t)(d.x + dir8[land_dir][0]);
        land.y = (int16_t)(d.y + dir8[land_dir][1]);
        note(r, a, v, "lands %s", dir_names[land_dir]);
    } else if (o >= 0 || !hit) {
        /* "Randomly determine which direction from the target the thrown
         * character lands"; a miss: "a random adjacent space". */
        fray_status rc = landing(r, a, v, d, &land, &found);
        if (rc != FRAY_OK)
            return rc;
    } else {
        fray_footprint to = ft_footprint(s, st, v);
        to.at = d;
        int e;
        found = ground(&s->map, to, &e) &&
                ft_share_blocker(s, st, v, to, -1, FT_F_DEAD, true) < 0; /* tumble.c */
    }
    if (found && (land.x != from.x || land.y != from.y)) {
        st->c[v].pos = land;
        ft_threat_touch_one(st, v); /* (issue 16: the kept threats) */
        moved(r, v, from, fray_grid_count(from, land));
    }
    /* Hit: "both the thrown opponent and the target are knocked prone";
     * miss: "the thrown opponent is prone. The target is unharmed." */
    if (!gentle && !(st->c[v].flags & FT_F_DEAD))
        ft_cond_add(r, v, FT_COND_PRONE, 0, FT_UNTIL_REMOVED, -1, 0, a);
    if (!gentle && hit && o >= 0 && !(st->c[o].flags & FT_F_DEAD))
        ft_cond_add(r, o, FT_COND_PRONE, 0, FT_UNTIL_REMOVED, -1, 0, a);
    loosen(r, v);
    return FRAY_OK;
}

/* "Reverse the Grapple": Hard Strength plus size versus Hard Strength plus
 * size, raw Aspect checks (seed 000 "Skill, Aspect, and Attribute Checks":
 * "You only take the value of the flip"), the reverser at (flip-1); size
 * as in the Grapple Test (RULINGS 21: cards, or shifts). Success (ties to
 * the reverser, as the one making the check): the roles swap. */
static fray_status reverse(ft_run *r, int a, int g) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    const ft_statblock *asb = &s->c[a].sb, *gsb = &s->c[g].sb;
    bool cards = s->opt.grapple_size_cards;
    ft_opposed of;
    memset(&of, 0, sizeof of);
    of.a = a;
    of.t = g;
    of.ap = FT_FLIP_CHECK;
    of.dp = FT_FLIP_CHECK;
    int afm = 0, ash = 0, gfm = 0, gsh = 0;
    ft_cond_mods(st, a, FT_FLIP_GRAPPLE, true, &afm, &ash);
    ft_cond_mods(st, g, FT_FLIP_GRAPPLE, true, &gfm, &gsh);
    ft_fact *mf = ft_emit_fact(r, FT_FACT_MODIFIER, a, -1);
    if (mf) {
        mf->v[1] = -1;
        snprintf(mf->text, sizeof mf->text, "Reverse the Grapple");
    }
    of.an = asb->aspects[FT_ASPECT_HS] + (cards ? asb->size_rank : 0) - 1 + afm;
    of.ash = (cards ? 0 : asb->size_rank) + ash;
    of.dn = gsb->aspects[FT_ASPECT_HS] + (cards ? gsb->size_rank : 0) + gfm;
    of.dsh = (cards ? 0 : gsb->size_rank) + gsh;
    fray_status rc = ft_flip_opposed(r, &of);
    if (rc != FRAY_OK)
        return rc;
    int at = of.af.kept_value + of.ash, gt = of.df.kept_value + of.dsh;
    bool win = at >= gt;
    note(r, a, g, win ? "reverses the grapple" : "fails to reverse");
    if (!win)
        return FRAY_OK;
    ft_grapple_end(r, a);
    ft_grapple_end(r, ft_grapple_victim(st, a)); /* (he held nobody else) */
    st->c[g].grappled_by = (int8_t)a;
    ft_cond_add(r, g, FT_COND_GRAPPLED, 0, FT_UNTIL_REMOVED, -1, 0, a);
    return FRAY_OK;
}

fray_status ft_grapple_apply(ft_run *r, const ft_command *cmd) {
    ft_state *st = r->st;
    int a = cmd->actor, t = cmd->target;
    st->c[a].aim = 0;
    st->c[a].aim_spell = 0;
    switch ((ft_grapple_move)cmd->grapple_move) {
    case FT_GM_RESTRAIN:
        /* "a positive flip shift on your next Grapple Test during this
         * grapple. These bonuses are not cumulative." */
        st->c[a].restrain_vs = (int8_t)(t + 1);
        note(r, a, t, "keeps a hold: Restrain");
        return FRAY_OK;
    case FT_GM_SQUEEZE:
        note(r, a, t, "squeezes");
        return squeeze(r, a, t);
    case FT_GM_SLAM: {
        /* "the same damage as Squeezing but your foe is knocked down and
         * you break the grapple". */
        note(r, a, t, "slams");
        fray_status rc = squeeze(r, a, t);
        if (rc != FRAY_OK)
            return rc;
        ft_grapple_end(r, t);
        if (!(st->c[t].flags & FT_F_DEAD))
            ft_cond_add(r, t, FT_COND_PRONE, 0, FT_UNTIL_REMOVED, -1, 0, a);
        return FRAY_OK;
    }
    case FT_GM_THROW:
        note(r, a, t, "throws");
        return throw_foe(r, a, t, cmd->dest, cmd->throw_land - 1);
    case FT_GM_REVERSE:
        return reverse(r, a, t);
    case FT_GM_NONE:
    case FT_GM_COUNT:
        break;
    }
    return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0, "no such grapple move");
}

/* ---- Tactics: the preset `grapple` (policy.c) ----------------------------- */


static int strength(const ft_setup *s, int c) {
    return s->c[c].sb.aspects[FT_ASPECT_HS] + s->c[c].sb.size_rank;
}

int ft_grapple_policy(const ft_setup *s, const ft_state *st, int me,
                      ft_command *out, int n_max) {
    int n = 0;
    const ft_cstate *c = &st->c[me];
    if (c->grappled_by >= 0) {
        /* Held: reverse the grapple when he is at least as strong. */
        if (n < n_max && strength(s, me) - 1 >= strength(s, c->grappled_by)) {
            ft_cmd_init(&out[n], me, FT_ACT_ATTACK);
            out[n].target = c->grappled_by;
            out[n++].grapple_move = FT_GM_REVERSE;
        }
        return n;
    }
    int v = ft_grapple_victim(st, me);
    fray_footprint fme = ft_footprint(s, st, me);
    if (v >= 0 && ft_in_fight(st, v)) {
        /* Throw him at another foe (both prone): one within half the
         * range, or any in range once the victim is worn down to half his
         * STUN or when a Squeeze would do him little (under 3 STUN after
         * <ER>); squeezing till then. */
        int range = ft_throw_range(s, me);
        const ft_statblock *vsb = &s->c[v].sb;
        int sa = s->c[me].sb.size_rank, sv = vsb->size_rank;
        int er = vsb->cv[FT_CV_ER] + (vsb->has_armor ? vsb->armor.er : 0);
        int squeeze_net = s->c[me].sb.aspects[FT_ASPECT_HS] +
                          (sa > 0 ? sa : 0) - (sv > 0 ? sv : 0) - er;
        /* (Worn down, or too well armoured to be worth squeezing.) */
        bool worn = 2 * st->c[v].stun <= ft_max_stun(s, v) || squeeze_net < 3;
        bool other_near = false;
        for (int e = 0; e < st->n && s->has_map; e++) {
            if (e == v || e == me || ft_allies(s, me, e) || !ft_in_fight(st, e))
                continue;
            fray_footprint fe = ft_footprint(s, st, e);
            if (fray_grid_within(fme, fe, 1))
                other_near = true;
            int dist = fray_grid_count(c->pos, fe.at);
            if (n < n_max && (dist * 2 <= range || (worn && dist <= range))) {
                ft_cmd_init(&out[n], me, FT_ACT_ATTACK);
                out[n].target = (int8_t)v;
                out[n].grapple_move = FT_GM_THROW;
                out[n++].dest = fe.at;
            }
        }
        /* Another foe at his side: slam (and be free); else squeeze. */
        if (n < n_max) {
            ft_cmd_init(&out[n], me, FT_ACT_ATTACK);
            out[n].target = (int8_t)v;
            out[n++].grapple_move = other_near ? FT_GM_SLAM : FT_GM_SQUEEZE;
        }
        return n;
    }
    /* Nobody held: grapple the weakest foe next to him. */
    int best = -1;
    for (int e = 0; e < st->n; e++) {
        if (e == me || ft_allies(s, me, e) || !ft_in_fight(st, e) ||
            st->c[e].grappled_by >= 0)
            continue;
        if (s->has_map && !fray_grid_within(fme, ft_footprint(s, st, e), 1))
            continue;
        if (best < 0 || st->c[e].stun < st->c[best].stun)
            best = e;
    }
    if (best >= 0 && n < n_max) {
        ft_cmd_init(&out[n], me, FT_ACT_GRAPPLE);
        out[n++].target = (int8_t)best;
    }
    return n;
}
