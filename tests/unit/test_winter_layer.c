/* test_winter_layer.c - Silent Winter through the shared layer (issue 17
 * "Everywhere the other rulesets are"): its files' errors with
 * file:line:column, the journal's round trip (drawn dice and dice given
 * by hand), undo, the tactics a GM would recognise, the simulation. */
#include "winter_fixture.h"

#include <stdlib.h>

#include "fray/duel.h"
#include "fray/sim.h"
#include "fray/view.h"
#include "ruleset.h"

#include <math.h>

static void load_fails(const char *rel, int line, const char *words) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, rel);
    fray_setup *s = NULL;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_neq(fray_setup_load(path, NULL, &s, &diag), FRAY_OK, "%s loaded", rel);
    cr_assert_eq(diag.line, line, "%s: line %d: %s", rel, diag.line, diag.message);
    cr_assert_gt(diag.column, 0);
    cr_assert(strstr(diag.message, words), "%s: %s", rel, diag.message);
}

/* Bad files say where and what (docs/file-formats.md "Silent Winter
 * files"). */
Test(winter_layer, file_errors_in_rules_words) {
    load_fails("tests/data/winter/bad_key.yaml", 4, "did you mean 'engage-delay'");
    load_fails("tests/data/winter/bad_weapon.yaml", 8, "unknown weapon 'lance'");
    load_fails("tests/data/winter/bad_dice.yaml", 4, "damage dice are d6");
    load_fails("tests/data/winter/bad_cover.yaml", 6, "offers no cover");
    /* ruling check-die: d20 is the only die built (docs/rules/silent-winter.md 1) */
    load_fails("tests/data/winter/bad_check_die.yaml", 6, "expected one of d20");
}

/* A whole fight by the tactics, written as JSON Lines and read back onto a
 * new fight: the same state (dice drawn again must match), and a journal
 * with dice given by hand replays with them. */
Test(winter_layer, journal_round_trip) {
    const char *files[] = {"examples/silent-winter/duel.yaml",
                           "examples/silent-winter/brawl.yaml",
                           "examples/silent-winter/sniper.yaml"};
    for (int k = 0; k < 3; k++) {
        fray_setup *s = sw_t_load(files[k]);
        fray_fight_options o = {.journal = true, .facts = true, .until = 0};
        fray_fight *f = NULL, *g = NULL;
        cr_assert_eq(fray_fight_new(s, 11, &o, NULL, NULL, &f), FRAY_OK);
        if (k == 0) {
            sw_t_do(f, "lothaire engage corpse", NULL, 0);
            sw_t_do(f, "next", NULL, 0);
        }
        while (!fray_fight_over(f))
            cr_assert_eq(fray_fight_step(f), FRAY_OK);
        cr_assert_geq(fray_fight_winner(f), 0, "%s ends with a winner", files[k]);
        size_t len;
        char *text = fx_journal(f, 1 << 20, &len);
        cr_assert_eq(fray_fight_new(s, 11, &o, NULL, NULL, &g), FRAY_OK);
        fray_diag diag;
        memset(&diag, 0, sizeof diag);
        cr_assert_eq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK,
                     "%s: %s", files[k], diag.message);
        cr_assert(fray_fight_same(f, g), "%s", files[k]);
        free(text);
        fray_fight_free(f);
        fray_fight_free(g);
        fray_setup_free(s);
    }
    /* dice by hand */
    fray_setup *s = sw_t_load("examples/silent-winter/duel.yaml");
    fray_fight *f = sw_t_start(s, (int[]){1}, 1), *g = NULL;
    sw_t_do(f, "lothaire wait", NULL, 0);
    sw_t_do(f, "next", NULL, 0);
    sw_t_do(f, "lothaire engage corpse", NULL, 0);
    sw_t_do(f, "corpse avoid lothaire", (int[]){2, 17}, 2);
    for (int i = 0; i < 5; i++)
        sw_t_do(f, "next", NULL, 0);
    sw_t_do(f, "lothaire attack corpse", (int[]){18, 2, 6, 6}, 4);
    size_t len;
    char *text = fx_journal(f, 1 << 20, &len);
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    cr_assert_eq(fray_fight_new(s, 99, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK,
                 "%s", diag.message);
    cr_assert(fray_fight_same(f, g));
    cr_assert_eq(sw_t_st(g)->c[sw_t_who(g, "corpse")].health, 44 - 12);
    /* undo takes back the attack */
    cr_assert_eq(fray_fight_undo(f), FRAY_OK);
    cr_assert_eq(sw_t_st(f)->c[sw_t_who(f, "corpse")].health, 44);
    free(text);
    fray_fight_free(f);
    fray_fight_free(g);
    fray_setup_free(s);
}

/* A recorded die edited by hand no longer fits the drawn stream: refused
 * with the event named. */
Test(winter_layer, edited_journal_refused) {
    fray_setup *s = sw_t_load("examples/silent-winter/duel.yaml");
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL, *g = NULL;
    cr_assert_eq(fray_fight_new(s, 5, &o, NULL, NULL, &f), FRAY_OK);
    size_t len;
    char *text = fx_journal(f, 1 << 20, &len);
    char *v = strstr(text, "\"v\":");
    cr_assert_not_null(v);
    v[4] = v[4] == '1' ? '2' : '1';
    cr_assert_eq(fray_fight_new(s, 5, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_neq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK);
    cr_assert(strstr(diag.message, "dice drawn again differ"), "%s", diag.message);
    free(text);
    fray_fight_free(f);
    fray_fight_free(g);
    fray_setup_free(s);
}

/* Tactics a GM would recognise: the archer sets up Sniping and cover and
 * never Engages; no bandit Engages her before chasing her down (002:47);
 * melee fighters Engage before they attack (002:17). */
Test(winter_layer, tactics_snipe_from_cover_and_chase) {
    fray_setup *s = sw_t_load("examples/silent-winter/sniper.yaml");
    for (uint64_t seed = 1; seed <= 20; seed++) {
        fray_fight_options o = {.journal = true, .facts = true, .until = 0};
        fray_fight *f = NULL;
        cr_assert_eq(fray_fight_new(s, seed, &o, NULL, NULL, &f), FRAY_OK);
        int ar = sw_t_who(f, "archer");
        bool chased[SW_MAX_C] = {false};
        while (!fray_fight_over(f)) {
            sw_event cmd;
            sw_choose(sw_fight_setup(fray__fight_rf(f)), sw_t_st(f), &cmd);
            if (cmd.kind == SW_EV_CHASE)
                chased[cmd.actor] = true;
            if (cmd.kind == SW_EV_ENGAGE && cmd.target == ar)
                cr_assert(chased[cmd.actor], "seed %llu: Engage before a chase",
                          (unsigned long long)seed);
            cr_assert_not(cmd.kind == SW_EV_ENGAGE && cmd.actor == ar);
            cr_assert_eq(fray_fight_step(f), FRAY_OK);
        }
        fray_fight_free(f);
    }
    fray_setup_free(s);
}

/* The simulation runs every example with the same counts for any number
 * of threads (fray_sim's promise). */
Test(winter_layer, sim_same_for_any_threads) {
    fray_setup *s = sw_t_load("examples/silent-winter/brawl.yaml");
    fray_sim_counts *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    cr_assert(a && b);
    fray_sim_options o;
    memset(&o, 0, sizeof o);
    o.seed = 7;
    o.trials = 400;
    o.threads = 1;
    cr_assert_eq(fray_sim(s, &o, NULL, a), FRAY_OK);
    o.threads = 2;
    cr_assert_eq(fray_sim(s, &o, NULL, b), FRAY_OK);
    cr_assert_eq(memcmp(a, b, sizeof *a), 0);
    cr_assert_eq(a->trials, 400);
    cr_assert_eq(a->wins[0] + a->wins[1] + a->all_out + a->unfinished, 400);
    free(a);
    free(b);
    fray_setup_free(s);
}

/* `fray odds duel` (issue 17): the exact odds agree with 20000 simulated
 * fights within 4 standard errors, for the example, the example with
 * engage-delay: 5 and a corpse without the Reciprocal Engage (Undefended
 * until its own Engage lands, 002:27); a sniper's duel is refused. */
Test(winter_layer, exact_duel_matches_simulation) {
    const char *files[] = {"examples/silent-winter/duel.yaml",
                           "tests/data/winter/lothaire5.yaml",
                           "tests/data/winter/noreply.yaml"};
    for (int k = 0; k < 3; k++) {
        fray_setup *s = sw_t_load(files[k]);
        fray_duel_odds *o = calloc(1, sizeof *o);
        fray_sim_counts *c = calloc(1, sizeof *c);
        cr_assert(o && c);
        fray_diag diag;
        memset(&diag, 0, sizeof diag);
        cr_assert_eq(fray_setup_duel_odds(s, 0, 1, 0, o, &diag), FRAY_OK, "%s", diag.message);
        cr_assert_lt(o->mass_error, 1e-9);
        fray_sim_options so;
        memset(&so, 0, sizeof so);
        so.seed = 17;
        so.trials = 20000;
        so.threads = 1;
        cr_assert_eq(fray_sim(s, &so, NULL, c), FRAY_OK);
        double p = o->p_win[0], got = (double)c->wins[0] / 20000.0;
        double se = sqrt(p * (1 - p) / 20000.0);
        cr_assert_lt(fabs(got - p), 4 * se + 1e-9, "%s: exact %.4f, simulated %.4f",
                     files[k], p, got);
        double mean = (double)c->length_sum / 20000.0;
        cr_assert_lt(fabs(mean - o->mean_length), 4 * o->sd_length / sqrt(20000.0) + 1e-9,
                     "%s: mean length exact %.2f, simulated %.2f", files[k],
                     o->mean_length, mean);
        free(o);
        free(c);
        fray_setup_free(s);
    }
    fray_setup *s = sw_t_load("examples/silent-winter/sniper.yaml");
    fray_duel_odds *o = calloc(1, sizeof *o);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_neq(fray_setup_duel_odds(s, 0, 2, 0, o, &diag), FRAY_OK);
    cr_assert(strstr(diag.message, "does not model"), "%s", diag.message);
    free(o);
    fray_setup_free(s);
}

extern const fray__ruleset fray__winter_ruleset;

/* The simulation's shortcut for a melee duel (winter.c run_quick) gives
 * the very counts of the long way, trial by trial, for the example, the
 * example with engage-delay: 5, a corpse without the Reciprocal Engage,
 * and a segment limit that cuts fights short. */
Test(winter_layer, quick_duel_is_the_long_way) {
    const char *files[] = {"examples/silent-winter/duel.yaml",
                           "tests/data/winter/lothaire5.yaml",
                           "tests/data/winter/noreply.yaml"};
    const fray__ruleset *rs = &fray__winter_ruleset;
    for (int k = 0; k < 4; k++) {
        fray_setup *s = sw_t_load(files[k < 3 ? k : 0]);
        fray_sim_counts *c[2];
        for (int q = 0; q < 2; q++) {
            c[q] = calloc(1, sizeof *c[q]);
            void *f = NULL;
            cr_assert_eq(rs->sim_fight_new(sw_t_setup(s), 3, k == 3 ? 20 : 0, NULL,
                                           NULL, &f), FRAY_OK);
            cr_assert(sw_quick_eligible(f), "the duel takes the shortcut");
            sw_quick_set_off(f, q == 1);
            for (uint64_t t = 0; t < 3000; t++) {
                cr_assert_eq(rs->reset_trial(f, 3, t), FRAY_OK);
                cr_assert_eq(rs->run(f), FRAY_OK);
                rs->count(f, c[q]);
            }
            rs->fight_free(f);
        }
        cr_assert_eq(memcmp(c[0], c[1], sizeof *c[0]), 0, "case %d", k);
        cr_assert_eq(c[0]->trials, 3000);
        if (k == 3)
            cr_assert_gt(c[0]->unfinished, 0, "segment-limit 20 cuts fights short");
        free(c[0]);
        free(c[1]);
        fray_setup_free(s);
    }
}

/* The fight as data (include/fray/view.h; issue 17 step 6): Health and
 * Pain as tracks, the segment as time, statuses as conditions (engages,
 * Undefended against, 002:27), the actions allowed now with targets. */
Test(winter_layer, view_of_a_fight) {
    fray_setup *s = sw_t_load("tests/data/winter/noreply.yaml");
    fray_fight *f = sw_t_start(s, (int[]){4}, 1);
    sw_t_do(f, "lothaire engage corpse", NULL, 0);
    sw_t_to(f, 7);
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    cr_assert_str_eq(v->time_unit, "segment");
    cr_assert_eq(v->now, 7);
    const fray_view_combatant *lo = &v->combatants[0], *co = &v->combatants[1];
    cr_assert_eq(lo->n_tracks, 2);
    cr_assert_str_eq(lo->tracks[0].name, "Health");
    cr_assert_str_eq(lo->tracks[1].name, "Pain");
    cr_assert_eq(lo->tracks[1].max, 6);
    bool engages = false, undefended = false;
    for (int k = 0; k < lo->n_conditions; k++)
        engages |= strcmp(lo->conditions[k].name, "engages Walking Corpse") == 0;
    for (int k = 0; k < co->n_conditions; k++)
        undefended |= strcmp(co->conditions[k].name, "Undefended against Lothaire") == 0;
    cr_assert(engages && undefended);
    cr_assert_eq(v->turn, 0, "Lothaire declares now");
    bool attack = false;
    for (int k = 0; k < lo->n_actions; k++)
        if (strcmp(lo->actions[k].word, "attack") == 0)
            attack = lo->actions[k].n_targets == 1 && lo->actions[k].targets[0] == 1;
    cr_assert(attack);
    cr_assert_str_eq(co->time_words, "may declare now (segment 7)"); /* it has not declared */
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}
