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

/* What fray__view_reach asks (view_build.h): within the melee's reach as
 * fa_threatens measures it, no wall in between. */
typedef struct reach_ctx {
    const fa_setup *s;
    int reach;
} reach_ctx;

static bool reaches(const void *ctx, fray_footprint from, fray_footprint to) {
    const reach_ctx *r = ctx;
    return fa_within(r->s, from, to, r->reach) &&
           fray_grid_cover(&r->s->map, from, to) != FRAY_COVER_TOTAL;
}

fray_status fa_view_reach(fray_fight_view *v, const fa_setup *s,
                          const fa_state *st, int a, fray_view_combatant *o) {
    o->n_reach = 0;
    o->reach = NULL;
    if (!s->has_map)
        return FRAY_OK;
    reach_ctx r = {s, fa_strike_reach(s, st, a)};
    return fray__view_reach(v, &s->map, st->c[a].fp, r.reach, reaches, &r, o);
}
