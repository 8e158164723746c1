/*
 * ruleset.c - 99 Towers' table for the shared encounter layer
 * (src/encounter/ruleset.h; docs/architecture.md "Rulesets"): every
 * member, over fray_towers_setup and fray_towers_fight. The functions
 * live with what they do: fight.c (fights, commands, packed events,
 * journal lines), sim.c (a simulation's counts), load.c, vary.c,
 * render.c, duel_odds.c.
 */
#include "towers_int.h"

#include <stdio.h>
#include <string.h>

#include "ruleset.h"

/* ---- Setups ---------------------------------------------------------------- */

static fray_status rs_load(const char *path, const fray_allocator *alloc,
                           void **out, fray_diag *diag) {
    fray_towers_setup *s = NULL;
    fray_status rc = fray_towers_load(path, alloc, &s, diag);
    *out = s;
    return rc;
}

static fray_status rs_load_files(const char *path, const fray_allocator *alloc,
                                 void **out, struct fray__files *files,
                                 fray_diag *diag) {
    fray_towers_setup *s = NULL;
    fray_status rc = ft_load_listing(path, alloc, &s, files, diag);
    *out = s;
    return rc;
}

static void rs_setup_free(void *setup) { fray_towers_setup_free(setup); }

static fray_status rs_setup_copy(const void *setup,
                                 const fray_allocator *alloc, void **out) {
    fray_towers_setup *s = NULL;
    fray_status rc = fray_towers_setup_copy(setup, alloc, &s);
    *out = s;
    return rc;
}

static fray_status rs_vary(void *setup, const char *key, const char *value,
                           fray_diag *diag) {
    return fray_towers_setup_vary(setup, key, value, diag);
}

static const char *rs_setup_name(const void *setup) {
    return fray_towers_setup_name(setup);
}

static bool rs_setup_seed(const void *setup, uint64_t *out) {
    return fray_towers_setup_seed(setup, out);
}

static int rs_sides(const void *setup) {
    return fray_towers_setup_sides(setup);
}

static const char *rs_side_name(const void *setup, int side) {
    return fray_towers_setup_side_name(setup, side);
}

static int rs_combatants(const void *setup) {
    return fray_towers_setup_combatants(setup);
}

static const char *rs_combatant_name(const void *setup, int i) {
    return fray_towers_setup_combatant_name(setup, i);
}

static const char *rs_combatant_id(const void *setup, int i) {
    return fray_towers_setup_combatant_id(setup, i);
}

static int rs_combatant_side(const void *setup, int i) {
    return fray_towers_setup_combatant_side(setup, i);
}

/* ---- Fights -------------------------------------------------------------------- */

/* (issue 7: the tactics' Hand of Fate exchanges come after the
 * fight; fight.c ft_rf_over.) */
static bool rs_over(const void *rf) { return ft_rf_over(rf); }

static int rs_winner(const void *rf) { return fray_towers_fight_winner(rf); }

static int rs_now(const void *rf) { return fray_towers_fight_phase(rf); }

static const char *rs_turn(const void *rf, char *when, size_t size) {
    int phase = 0;
    const char *who = fray_towers_fight_turn(rf, &phase);
    if (who && when && size)
        snprintf(when, size, "phase %d", phase);
    return who;
}

/* ---- Telling ---------------------------------------------------------------------- */

static const char *rs_event_action(const void *setup, const uint8_t *ev,
                                   size_t len) {
    (void)setup;
    (void)len;
    /* The command sits in the packed header, as in ft_event. */
    ft_command cmd;
    memcpy(&cmd, ev + offsetof(ft_event, cmd), sizeof cmd);
    switch (cmd.action) {
    case FT_CMD_BEGIN:
        return "begin";
    case FT_CMD_PHASE:
        return "phase";
    default:
        return cmd.action < FT_ACTION_COUNT ? ft_actions[cmd.action].name
                                            : NULL;
    }
}

static size_t rs_event_narrate(const void *setup, const uint8_t *ev,
                               size_t len, char *buf, size_t size) {
    ft_event *e = malloc(sizeof *e);
    if (!e) {
        if (size)
            buf[0] = '\0';
        return 0;
    }
    ft_event_unpack(ev, len, e);
    size_t n = ft_render_event(&((const fray_towers_setup *)setup)->s, e, buf,
                               size);
    free(e);
    return n;
}

static size_t rs_event_narrate_hidden(const void *setup, const uint8_t *ev,
                                      size_t len, const bool *hide, char *buf,
                                      size_t size) {
    ft_event *e = malloc(sizeof *e);
    if (!e) {
        if (size)
            buf[0] = '\0';
        return 0;
    }
    ft_event_unpack(ev, len, e);
    size_t n = ft_render_event_hidden(&((const fray_towers_setup *)setup)->s,
                                      e, hide, buf, size);
    free(e);
    return n;
}

static int rs_event_names(const void *setup, const uint8_t *ev, size_t len,
                          bool *named) {
    ft_event *e = malloc(sizeof *e);
    if (!e)
        return -1;
    ft_event_unpack(ev, len, e);
    int n = ft_event_names(&((const fray_towers_setup *)setup)->s, e, named);
    free(e);
    return n;
}

static size_t rs_event_json(const void *setup, const uint8_t *ev, size_t len,
                            char *buf, size_t size) {
    ft_event *e = malloc(sizeof *e);
    if (!e) {
        if (size)
            buf[0] = '\0';
        return 0;
    }
    ft_event_unpack(ev, len, e);
    size_t n = ft_render_event_json(&((const fray_towers_setup *)setup)->s,
                                    e, buf, size);
    free(e);
    return n;
}

static size_t rs_draw_time(const void *rf, char *buf, size_t size) {
    return fray_towers_draw_clock(rf, buf, size);
}

static size_t rs_draw_map(const void *rf, char *buf, size_t size) {
    return fray_towers_draw_map(rf, buf, size);
}

static size_t rs_summary(const void *rf, char *buf, size_t size) {
    return fray_towers_summary(rf, buf, size);
}

/* ---- Simulation ------------------------------------------------------------------- */

static const char *rs_harm_name(int k) {
    static const char *const names[] = {"STUN", "LETHAL"};
    return k >= 0 && k < 2 ? names[k] : NULL;
}

static const char *rs_spent_name(int k) {
    static const char *const names[] = {"Hand of Fate cards", "chips"};
    return k >= 0 && k < 2 ? names[k] : NULL;
}

static fray_status rs_vary_scope(const void *setup, const char *key,
                                 char *buf, size_t size, fray_diag *diag) {
    return fray_towers_setup_vary_scope(setup, key, buf, size, diag);
}

/* fray_sim_state: what each way a fight ends means in 99 Towers (harm.c;
 * seed 000 "STUN Damage", "LETHAL Damage"; RULINGS 16, 17). */
static const char *rs_state_meaning(int k) {
    static const char *const m[FRAY_SIM_STATES] = {
        "still in the fight at the end: STUN above 0, LETHAL above 0 (or "
        "0 with disabled-unconscious off)",
        "0 STUN, or 0 LETHAL with disabled-unconscious on; not dying",
        "LETHAL below 0, not dead",
        "LETHAL down to minus dead-at x [[E]] (2 x [[E]] unless the options "
        "say otherwise)",
        "off the map: fled (or had not yet joined when the fight ended)"};
    return k >= 0 && k < FRAY_SIM_STATES ? m[k] : NULL;
}

/* ---- Exact odds ------------------------------------------------------------------- */

static fray_status rs_duel_odds(const void *setup, int a, int b,
                                long max_states, fray_duel_odds *out,
                                fray_diag *diag) {
    return fray_towers_duel_odds_max(setup, a, b, max_states, out, diag);
}

static fray_status rs_duel_exact(const void *setup, int a, int b,
                                 long max_states, fray_duel_odds *out,
                                 struct fray_duel_exact *exact, fray_diag *diag) {
    return fray_towers_duel_odds_exact(setup, a, b, max_states, 0, out, exact,
                                       diag);
}

static fray_status rs_duel_estimate(const void *setup, int a, int b,
                                    double *out_states, fray_diag *diag) {
    return fray_towers_duel_estimate(setup, a, b, out_states, diag);
}

static fray_status rs_duel_setup(const char *path_a, const char *name_a,
                                 const char *path_b, const char *name_b,
                                 const char *tactics_a, const char *tactics_b,
                                 const fray_allocator *alloc, void **out,
                                 fray_diag *diag) {
    fray_towers_setup *s = NULL;
    fray_status rc = fray_towers_duel_setup(path_a, name_a, path_b, name_b,
                                            tactics_a, tactics_b, alloc, &s,
                                            diag);
    *out = s;
    return rc;
}

const fray__ruleset fray__towers_ruleset = {
    .name = "towers",
    .title = "99 Towers",
    .time_unit = "phase",
    .randomness = "decks",
    .load = rs_load,
    .check = fray_towers_check,
    .setup_free = rs_setup_free,
    .setup_copy = rs_setup_copy,
    .vary = rs_vary,
    .setup_name = rs_setup_name,
    .setup_seed = rs_setup_seed,
    .sides = rs_sides,
    .side_name = rs_side_name,
    .combatants = rs_combatants,
    .combatant_name = rs_combatant_name,
    .combatant_id = rs_combatant_id,
    .combatant_side = rs_combatant_side,
    /* ft_event_packed_max(), as a constant */
    .event_max = offsetof(ft_event, cards) + 2 * (size_t)FT_EVENT_CARDS +
                 2 * sizeof(int16_t) + FT_EVENT_CHOICES * sizeof(ft_choice) +
                 FT_EVENT_FACTS * sizeof(ft_fact),
    .fight_new = ft_rf_new,
    .fight_free = ft_rf_free,
    .begin = ft_rf_begin,
    .over = rs_over,
    .winner = rs_winner,
    .now = rs_now,
    .turn = rs_turn,
    .step = ft_rf_step,
    .command = ft_rf_command,
    .event_pack = ft_rf_event_pack,
    .replay = ft_rf_replay,
    .run_quiet = ft_rf_run_quiet,
    .same = ft_rf_same,
    .event_action = rs_event_action,
    .event_narrate = rs_event_narrate,
    .event_json = rs_event_json,
    .event_read = ft_rf_event_read,
    .draw_time = rs_draw_time,
    .draw_map = rs_draw_map,
    .summary = rs_summary,
    .sim_fight_new = ft_rf_sim_new,
    .reset_trial = ft_rf_reset_trial,
    .run = ft_rf_run,
    .count = ft_rf_count,
    .action_name = fray_towers_action_name,
    .harm_name = rs_harm_name,
    .spent_name = rs_spent_name,
    .duel_odds = rs_duel_odds,
    .duel_estimate = rs_duel_estimate,
    .duel_exact = rs_duel_exact,
    .duel_assumed =
        "each flip from a fresh deck; no Hand of Fate; no chips; no movement",
    .duel_setup = rs_duel_setup,
    .view = ft_view,
    .state_meaning = rs_state_meaning,
    .vary_scope = rs_vary_scope,
    .load_files = rs_load_files,
    .event_names = rs_event_names,
    .chances = ft_rf_chances, /* chances.c (issue 19) */
    .sim_from = ft_rf_sim_from,
    .event_narrate_hidden = rs_event_narrate_hidden, /* issue 14 */
};
