/*
 * view_reach.c - the spaces a 99 Towers combatant's melee threatens, for
 * the fight's view (include/fray/view.h fray_view_combatant.reach; issue
 * 14 "the map with tokens, reach"): every space within its threat reach
 * (ft_threat_now: its weapons' reach as opportunity attacks read it,
 * seed 000 "Reach"), measured as ft_threatens measures it, with no wall
 * in between, that a creature could stand in.
 */
#include "towers_int.h"

#include "view_build.h"

/* What fray__view_reach asks (view_build.h): within the threat reach as
 * ft_threatens measures it, no wall in between. */
typedef struct reach_ctx {
    const ft_setup *s;
    int reach;
} reach_ctx;

static bool reaches(const void *ctx, fray_footprint from, fray_footprint to) {
    const reach_ctx *r = ctx;
    return ft_range(from, to) <= r->reach &&
           ft_geo_cover(r->s, from, to) != FRAY_COVER_TOTAL;
}

fray_status ft_view_reach(fray_fight_view *v, const ft_setup *s,
                          const ft_state *st, int c, fray_view_combatant *o) {
    o->n_reach = 0;
    o->reach = NULL;
    if (!s->has_map)
        return FRAY_OK;
    reach_ctx r = {s, ft_threat_now(s, st, c)};
    return fray__view_reach(v, &s->map, ft_fp(s, st, c), r.reach, reaches, &r, o);
}
