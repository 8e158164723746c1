/*
 * view_build.h - what a ruleset uses to fill a fight's view
 * (include/fray/view.h; docs/architecture.md "A fight as data"). The
 * layer (view.c) makes the view, fills what every ruleset has (the
 * fight's ruleset, time, winner, sides, each combatant's index, id, name
 * and side) and calls the ruleset's `view` hook (ruleset.h) for the
 * rest. Memory comes from the view's own blocks: zeroed, freed with the
 * view; NULL when the allocator fails (the hook returns FRAY_ERR_NOMEM).
 * Not public.
 */
#ifndef FRAY_VIEW_BUILD_H
#define FRAY_VIEW_BUILD_H

#include "fray/grid.h"
#include "fray/view.h"

void *fray__view_alloc(fray_fight_view *v, size_t size);
/* A copy of s in the view ("" for NULL). */
const char *fray__view_str(fray_fight_view *v, const char *s);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
const char *fray__view_strf(fray_fight_view *v, const char *fmt, ...);
/* A name as a command word: a copy with '-' for each space ("Long Sword"
 * -> "Long-Sword"; the commands read names so, without regard to case).
 * NULL when memory runs out. */
const char *fray__view_word(fray_fight_view *v, const char *name);
/* Appends an option to action a (room for `cap` options, allocated on the
 * first): its title a copy of `name`, its word `word` (the view's memory
 * or static text; NULL: fray__view_word of the name), its targets
 * `targets` (the view's memory; needs_target when n_targets > 0). NULL
 * when memory runs out. */
fray_view_option *fray__view_option(fray_fight_view *v, fray_view_action *a,
                                    int cap, const char *word,
                                    const char *name, const int *targets,
                                    int n_targets);
/* Combatant i of the view, to fill (i < n_combatants). */
static inline fray_view_combatant *fray__view_c(fray_fight_view *v, int i) {
    return (fray_view_combatant *)&v->combatants[i];
}
/* The map from a grid: terrain codes '.', '#', '~', '=', 'v' and high
 * ground '1'..'9' (open spaces above level 0), with the legend of the
 * codes it holds. */
fray_status fray__view_map_grid(fray_fight_view *v, const fray_grid *g);
/* Adds the spaces of `area` inside the map as the map's area `name`
 * (static text); nothing when it has none. After fray__view_map_grid. */
fray_status fray__view_map_area(fray_fight_view *v, const char *name,
                                const fray_area *area);
/* A health track's words from what is left of it (value of max):
 * "unhurt", "hurt", "badly hurt" (half or less), "out" (0 or less). */
const char *fray__view_descriptor(int value, int max);

/* The spaces a combatant's melee reaches, into o->reach (issue 14 "the
 * map with tokens, reach"), the same for every ruleset on a grid: every
 * space of the map within `reach` spaces of the footprint `from` (not its
 * own) that a creature could stand in (open or difficult ground) and that
 * the ruleset's reaches(ctx, from, space) says its melee reaches (its own
 * distance and line rules: within the reach, no wall in between). Nothing
 * when reach <= 0. FRAY_ERR_NOMEM. */
typedef bool (*fray__reaches_fn)(const void *ctx, fray_footprint from,
                                 fray_footprint to);
fray_status fray__view_reach(fray_fight_view *v, const fray_grid *map,
                             fray_footprint from, int reach,
                             fray__reaches_fn reaches, const void *ctx,
                             fray_view_combatant *o);

#endif
