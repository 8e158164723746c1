/*
 * sim.c - 99 Towers in the shared simulation runner (src/encounter/sim.c):
 * its fights as the runner asks for them, and what a finished fight adds
 * to the counts (include/fray/sim.h; docs/architecture.md "Simulation").
 */
#include "towers_int.h"

#include <stdatomic.h>
#include <string.h>

#include "ruleset.h"

extern const fray__ruleset fray__towers_ruleset;

_Static_assert((int)FRAY_SIM_ACTION_KINDS >= (int)FT_ACTION_COUNT,
               "fray_sim_combatant_counts.by_kind holds every action kind");
_Static_assert((int)FRAY_SIM_MAX_COMBATANTS >= (int)FT_MAX_COMBATANTS,
               "the counts hold every combatant");
_Static_assert((int)FRAY_SIM_MAX_SIDES >= (int)FT_MAX_SIDES,
               "the counts hold every side");
/* ---- One trial ---------------------------------------------------------- */

/* Adds the finished fight's numbers to c. */
static void count_fight(const fray_towers_fight *f, fray_sim_counts *c) {
    const ft_state *st = &f->st;
    c->trials++;
    if (st->winner >= 0 && st->winner < FRAY_SIM_MAX_SIDES)
        c->wins[st->winner]++;
    else if (st->winner == -2)
        c->all_out++;
    else
        c->unfinished++;
    uint64_t len = st->phase > 0 ? (uint64_t)st->phase : 0;
    c->length_sum += len;
    c->length_sq_sum += len * len;
    c->length[len < FRAY_SIM_LENGTH_BINS - 1 ? len : FRAY_SIM_LENGTH_BINS - 1]++;
    /* Seed 000 "Dueling" (duel.c): how the duel ended. */
    c->duel_first_blood += st->duel_end == FT_DUEL_END_FIRST_BLOOD;
    c->duel_destiny += st->duel_end == FT_DUEL_END_DRAW;
    c->duel_conceded += st->duel_end == FT_DUEL_END_CONCEDED;
    for (int i = 0; i < st->n; i++) {
        const ft_cstate *cs = &st->c[i];
        fray_sim_combatant_counts *cc = &c->c[i];
        if (ft_in_fight(st, i))
            cc->standing++;
        if (cs->flags & FT_F_DEAD)
            cc->dead++;
        /* The rest of how it ended (harm.c's status_change: dead, dying
         * and disabled exclude each other; unconscious comes with dying
         * and dead), so that the five shares add up to every trial. */
        else if (cs->flags & FT_F_DYING)
            cc->dying++;
        else if (cs->flags & FT_F_UNCONSCIOUS)
            cc->unconscious++;
        else if (cs->flags & FT_F_FLED)
            cc->fled++;
        /* In the order of the table's harm_name and spent_name
         * (ruleset.c). */
        cc->dealt[0] += (uint64_t)cs->stun_dealt;
        cc->taken[0] += (uint64_t)cs->stun_taken;
        cc->dealt[1] += (uint64_t)cs->lethal_dealt;
        cc->taken[1] += (uint64_t)cs->lethal_taken;
        cc->actions += (uint64_t)cs->actions;
        cc->spent[0] += (uint64_t)cs->fate_used;
        cc->spent[1] += (uint64_t)cs->chips_used;
        for (int k = 0; k < FT_ACTION_COUNT; k++)
            cc->by_kind[k] += cs->by_kind[k];
    }
}

/* ---- The ruleset's part of a simulation ------------------------------------ */

fray_status ft_rf_sim_new(const void *setup, uint64_t seed, int until,
                          const atomic_bool *cancel,
                          const fray_allocator *alloc, void **out) {
    fray__fight_opts fo;
    memset(&fo, 0, sizeof fo);
    fo.until = until;
    fo.cancel = cancel;
    fray_status rc = ft_rf_new(setup, &fo, alloc, out);
    /* The duel shortcut's whitelist, once per setup (quick.c): its
     * verdict is the table of remembered choices, or none. */
    if (rc == FRAY_OK &&
        ft_quick_plan(&((const fray_towers_setup *)setup)->s, NULL, 0)) {
        fray_towers_fight *f = *out;
        rc = ft_quick_new(&f->alloc, &f->quick);
    }
    if (rc == FRAY_OK)
        rc = ft_rf_begin(*out, seed, 0, NULL);
    if (rc != FRAY_OK) {
        ft_rf_free(*out);
        *out = NULL;
    }
    return rc;
}

fray_status ft_rf_reset_trial(void *rf, uint64_t seed, uint64_t trial) {
    return ft_rf_begin(rf, seed, trial, NULL);
}

void ft_rf_count(const void *rf, fray_sim_counts *c) { count_fight(rf, c); }

FRAY_API fray_status fray_towers_sim(const fray_towers_setup *setup,
                                     const fray_sim_options *opts,
                                     const fray_allocator *alloc,
                                     fray_sim_counts *out) {
    return fray__sim_run(&fray__towers_ruleset, setup, opts, alloc, out);
}

/* ---- The setup, for reports ---------------------------------------------------- */

FRAY_API int fray_towers_setup_sides(const fray_towers_setup *s) {
    return s->s.n_sides;
}

FRAY_API const char *fray_towers_setup_side_name(const fray_towers_setup *s,
                                                 int side) {
    return side >= 0 && side < s->s.n_sides ? s->s.sides[side] : NULL;
}

FRAY_API int fray_towers_setup_combatants(const fray_towers_setup *s) {
    return s->s.n_combatants;
}

FRAY_API const char *fray_towers_setup_combatant_name(
    const fray_towers_setup *s, int i) {
    return i >= 0 && i < s->s.n_combatants ? s->s.c[i].name : NULL;
}

FRAY_API const char *fray_towers_setup_combatant_id(
    const fray_towers_setup *s, int i) {
    return i >= 0 && i < s->s.n_combatants ? s->s.c[i].id : NULL;
}

FRAY_API int fray_towers_setup_combatant_side(const fray_towers_setup *s,
                                              int i) {
    return i >= 0 && i < s->s.n_combatants ? s->s.c[i].side : -1;
}

FRAY_API const char *fray_towers_action_name(int kind) {
    return kind >= 0 && kind < FT_ACTION_COUNT ? ft_actions[kind].text : NULL;
}
