/*
 * narrate_scope.c - an event narrated for a scope (include/fray/fight.h
 * fray_event_narrate_for; issue 14 "never GM-only data ... exact numbers
 * of enemies the GM keeps hidden (descriptors instead)").
 *
 * The layer decides whose numbers are hidden, as the view does
 * (view.c sees_numbers): for a player's scope with enemy_numbers false,
 * every combatant outside the sides of the combatants it controls. The
 * ruleset's event_narrate_hidden hook tells the event with those
 * combatants' numbers as descriptors.
 */
#include "layer.h"

#include <stdlib.h>
#include <string.h>

#include "fray/view.h"
#include "internal.h"

static bool controls(const fray_view_scope *sc, int k) {
    for (int j = 0; j < sc->n_controls; j++)
        if (sc->controls && sc->controls[j] == k)
            return true;
    return false;
}

FRAY_API fray_status fray_event_narrate_for(const fray_fight *fight, int i,
                                            const fray_view_scope *scope,
                                            char *buf, size_t size,
                                            size_t *out_len, fray_diag *diag) {
    if (size && buf)
        buf[0] = '\0';
    if (!fight || !scope || !out_len || (size && !buf))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "fray_event_narrate_for: a NULL argument");
    *out_len = 0;
    if (i < 0 || i >= fray_fight_events(fight))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "there is no event %d (the fight has %d)", i,
                              fray_fight_events(fight));
    if (scope->gm || scope->enemy_numbers) {
        *out_len = fray_event_narrate(fight, i, buf, size);
        return FRAY_OK;
    }
    const fray_setup *setup = fray_fight_setup(fight);
    const fray__ruleset *rs = setup->rs;
    if (!rs->event_narrate_hidden)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s cannot yet narrate an event without the "
                              "enemies' numbers",
                              rs->title);
    int n = rs->combatants(setup->data);
    bool *hide = calloc(n > 0 ? (size_t)n : 1, sizeof *hide);
    if (!hide)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    /* The sides of the scope's own combatants: their numbers stay. */
    for (int k = 0; k < n; k++) {
        int side = rs->combatant_side(setup->data, k);
        bool own = false;
        for (int j = 0; j < n && !own; j++)
            own = controls(scope, j) &&
                  rs->combatant_side(setup->data, j) == side;
        hide[k] = !own;
    }
    size_t len = 0;
    const uint8_t *ev = fray__fight_event(fight, i, &len);
    if (!ev) {
        free(hide);
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "there is no event %d", i);
    }
    *out_len = rs->event_narrate_hidden(setup->data, ev, len, hide, buf, size);
    free(hide);
    return FRAY_OK;
}
