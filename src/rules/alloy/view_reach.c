/*
 * view_reach.c - the squares an Alloy combatant's melee reaches, for the
 * fight's view (include/fray/view.h fray_view_combatant.reach; issue 14
 * "the map with tokens, reach"): every square within the reach of its
 * melee basic attack (fa_strike_reach: its natural reach, or its melee
 * weapon's in hand, 004:77), measured as fa_threatens measures it
 * (fa_within), with no wall in between, that a creature could stand in.
 */
#include "alloy_int.h"

#include "view_build.h"

/* A square a creature could stand in (not a wall, a window or a pit). */
static bool standable(const fray_grid *g, int x, int y) {
    unsigned t = g->terrain[y][x];
    return t == FRAY_TERRAIN_OPEN || t == FRAY_TERRAIN_DIFFICULT;
}

fray_status fa_view_reach(fray_fight_view *v, const fa_setup *s,
                          const fa_state *st, int a, fray_view_combatant *o) {
    o->n_reach = 0;
    o->reach = NULL;
    if (!s->has_map)
        return FRAY_OK;
    int reach = fa_strike_reach(s, st, a);
    if (reach <= 0)
        return FRAY_OK;
    fray_footprint fc = st->c[a].fp;
    int side = fc.side < 1 ? 1 : fc.side;
    int x0 = fc.at.x - reach, x1 = fc.at.x + side - 1 + reach;
    int y0 = fc.at.y - reach, y1 = fc.at.y + side - 1 + reach;
    if (x0 < 0)
        x0 = 0;
    if (y0 < 0)
        y0 = 0;
    if (x1 >= s->map.w)
        x1 = s->map.w - 1;
    if (y1 >= s->map.h)
        y1 = s->map.h - 1;
    if (x1 < x0 || y1 < y0)
        return FRAY_OK;
    size_t cap = (size_t)(x1 - x0 + 1) * (size_t)(y1 - y0 + 1);
    fray_view_seen *sp = fray__view_alloc(v, cap * sizeof *sp);
    if (!sp)
        return FRAY_ERR_NOMEM;
    int n = 0;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            if (x >= fc.at.x && x < fc.at.x + side && y >= fc.at.y &&
                y < fc.at.y + side)
                continue; /* its own squares */
            if (!standable(&s->map, x, y))
                continue;
            fray_footprint p = {{(int16_t)x, (int16_t)y}, 1};
            if (!fa_within(s, fc, p, reach) ||
                fray_grid_cover(&s->map, fc, p) == FRAY_COVER_TOTAL)
                continue;
            sp[n++] = (fray_view_seen){x, y};
        }
    o->n_reach = n;
    o->reach = sp;
    return FRAY_OK;
}
