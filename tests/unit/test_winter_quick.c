/* test_winter_quick.c - Silent Winter's simulation loop of melee fights
 * (src/rules/winter/quick.c; issue 17 "Speed": the brawl within 3x of
 * its bare loop): every fight it takes is the long way's, trial by trial,
 * with the same stream: the same dice in the same order (the stream's
 * state at the end), the same tactics' choices (002:17-31: Engage, the
 * Reciprocal Engage, Avoid, Disengage, waiting for room on a Fully
 * Engaged foe), the same end state (rs->same: the segment, the track,
 * Health, Pain, statuses, who engages whom, what is pending) and the
 * same counts. */
#include "winter_fixture.h"

#include "fray/sim.h"
#include "ruleset.h"
#include "winter_quick.h"

extern const fray__ruleset fray__winter_ruleset;

#define EX "examples/silent-winter/"
#define TD "tests/data/winter/"

/* The fights of one setup both ways for `trials` trials: the state after
 * each and the counts of all. `loop_for_duel`: a duel runs the loop, not
 * the duel's schedule. The counts of the loop are left in *out. */
static void both_ways(const char *rel, uint64_t seed, uint64_t trials, int until,
                      bool loop_for_duel, fray_sim_counts *out) {
    const fray__ruleset *rs = &fray__winter_ruleset;
    fray_setup *s = sw_t_load(rel);
    fray_sim_counts *c[2] = {calloc(1, sizeof *c[0]), calloc(1, sizeof *c[1])};
    cr_assert(c[0] && c[1]);
    void *quick = NULL, *slow = NULL;
    cr_assert_eq(rs->sim_fight_new(sw_t_setup(s), seed, until, NULL, NULL, &quick), FRAY_OK);
    cr_assert_eq(rs->sim_fight_new(sw_t_setup(s), seed, until, NULL, NULL, &slow), FRAY_OK);
    sw_quick_loop_for_duel(quick, loop_for_duel);
    sw_quick_set_off(slow, true);
    for (uint64_t t = 0; t < trials; t++) {
        cr_assert_eq(rs->reset_trial(quick, seed, t), FRAY_OK);
        cr_assert(sw_quick_loop_eligible(quick), "%s takes the loop", rel);
        cr_assert_eq(rs->run(quick), FRAY_OK);
        rs->count(quick, c[0]);
        cr_assert_eq(rs->reset_trial(slow, seed, t), FRAY_OK);
        cr_assert_eq(rs->run(slow), FRAY_OK);
        rs->count(slow, c[1]);
        cr_assert(rs->same(quick, slow), "%s trial %llu: not the long way's end", rel,
                  (unsigned long long)t);
        cr_assert_eq(rs->over(quick), rs->over(slow));
        cr_assert_eq(rs->winner(quick), rs->winner(slow));
    }
    cr_assert_eq(memcmp(c[0], c[1], sizeof *c[0]), 0, "%s: the counts differ", rel);
    cr_assert_eq(c[0]->trials, trials);
    if (out)
        *out = *c[0];
    rs->fight_free(quick);
    rs->fight_free(slow);
    free(c[0]);
    free(c[1]);
    fray_setup_free(s);
}

static uint64_t kind_sum(const fray_sim_counts *c, int n, int kind) {
    uint64_t k = 0;
    for (int i = 0; i < n; i++)
        k += c->c[i].by_kind[kind - SW_EV_ENGAGE];
    return k;
}

/* Issue 17 "Speed": the brawl of the examples (3 bandits against a
 * warrior and a rogue, 002:27-31) takes the loop and is the long way,
 * 5000 trials. */
Test(winter_quick, the_brawl_is_the_long_way) {
    fray_sim_counts *c = calloc(1, sizeof *c);
    cr_assert(c);
    both_ways(EX "brawl.yaml", 7, 5000, 0, false, c);
    cr_assert_gt(kind_sum(c, 5, SW_EV_ATTACK), 0);
    cr_assert_gt(kind_sum(c, 5, SW_EV_ENGAGE), 5000, "an Engage each and more");
    free(c);
}

/* Varied melee fights (tests/data/winter/quick_*.yaml): three against
 * two with two weapons and slow and quick weapons; four against four
 * with a big one (size 2, 002:27) and a narrow one (room for one), one
 * without the Reciprocal Engage (002:21) and Winded ones who Avoid
 * (002:23); every option the loop takes off its default (ties: actor,
 * pain-on-any-hit: yes, order: file, fallen-release: no, engage-delay 5,
 * attack-delay 2); three sides with no room to Avoid and a segment limit.
 * Between them the tactics Avoid and Disengage (002:31) at times, and the
 * test says so: a loop that never did would not be tested on them. */
Test(winter_quick, varied_melee_fights_are_the_long_way) {
    const char *files[] = {TD "quick_3v2.yaml", TD "quick_4v4.yaml", TD "quick_rulings.yaml",
                           TD "quick_sides.yaml"};
    const int sizes[] = {5, 8, 6, 6};
    uint64_t avoid = 0, disengage = 0, unfinished = 0, avoid_sides = 0;
    fray_sim_counts *c = calloc(1, sizeof *c);
    cr_assert(c);
    for (int k = 0; k < 4; k++) {
        both_ways(files[k], 11, 3000, 0, false, c);
        avoid += kind_sum(c, sizes[k], SW_EV_AVOID);
        disengage += kind_sum(c, sizes[k], SW_EV_DISENGAGE);
        unfinished += c->unfinished;
        if (k == 3)
            avoid_sides = kind_sum(c, sizes[k], SW_EV_AVOID);
    }
    cr_assert_gt(avoid, 0, "the Winded Avoid an Engage at times (002:23)");
    cr_assert_gt(disengage, 0, "the tactics Disengage from the fallen at times (002:31)");
    cr_assert_gt(unfinished, 0, "the segment limit cuts some fights short");
    cr_assert_eq(avoid_sides, 0, "scene: avoid: false: nobody Avoids");
    free(c);
}

/* A segment limit given to the simulation (fray sim --segments, the
 * fight's `until`) cuts the brawl short the same way both ways. */
Test(winter_quick, a_segment_limit_cuts_the_same_fights) {
    fray_sim_counts *c = calloc(1, sizeof *c);
    cr_assert(c);
    both_ways(EX "brawl.yaml", 5, 2000, 30, false, c);
    cr_assert_gt(c->unfinished, 0);
    cr_assert_lt(c->unfinished, 2000);
    free(c);
}

/* The duel is a case of the loop: run through it (not the duel's own
 * schedule) the duel of the examples, with engage-delay 5 and without
 * the Reciprocal Engage, is the long way too, state and counts. */
Test(winter_quick, a_duel_through_the_loop_is_the_long_way) {
    both_ways(EX "duel.yaml", 3, 3000, 0, true, NULL);
    both_ways(TD "lothaire5.yaml", 3, 3000, 0, true, NULL);
    both_ways(TD "noreply.yaml", 3, 3000, 0, true, NULL);
}

/* What the loop does not model goes the long way: a ranged weapon, a
 * sniper, spells, talents, mounts, weapons to switch to, an obstacle,
 * an option off its default that the loop does not take. */
Test(winter_quick, what_the_loop_does_not_model_goes_the_long_way) {
    const fray__ruleset *rs = &fray__winter_ruleset;
    const char *no[] = {EX "sniper.yaml", EX "witch.yaml", EX "storm.yaml",
                        EX "cavalry.yaml", EX "huntress.yaml", EX "knight.yaml",
                        EX "siege.yaml", TD "options.yaml"};
    for (size_t k = 0; k < sizeof no / sizeof no[0]; k++) {
        fray_setup *s = sw_t_load(no[k]);
        void *f = NULL;
        cr_assert_eq(rs->sim_fight_new(sw_t_setup(s), 1, 0, NULL, NULL, &f), FRAY_OK);
        cr_assert_eq(rs->reset_trial(f, 1, 0), FRAY_OK);
        cr_assert_not(sw_quick_loop_eligible(f), "%s", no[k]);
        cr_assert_not(sw_quick_eligible(f), "%s", no[k]);
        rs->fight_free(f);
        fray_setup_free(s);
    }
    fray_setup *s = sw_t_load(EX "brawl.yaml");
    sw_quick q;
    sw_quick_prepare(sw_t_setup(s), &q);
    cr_assert(q.ok);
    sw_setup *sd = sw_t_setup(s);
    sd->opt.friendly_fire = false; /* nothing to do in melee: taken */
    sw_quick_prepare(sd, &q);
    cr_assert(q.ok);
    sd->opt.stun_add = true; /* an option the loop does not know */
    sw_quick_prepare(sd, &q);
    cr_assert_not(q.ok);
    sd->opt.stun_add = false;
    sd->obstacle = 3; /* 002:25 */
    sw_quick_prepare(sd, &q);
    cr_assert_not(q.ok);
    sd->obstacle = 0;
    for (int i = 0; i < sd->n; i++)
        sd->c[i].side = 0; /* one side: no fight */
    sw_quick_prepare(sd, &q);
    cr_assert_not(q.ok);
    fray_setup_free(s);
}

/* Issue 19's forecast (sim_from) from a brawl at the table, a few
 * declarations in, takes the loop: trial by trial it is the long way
 * from that state (the same state and counts). */
Test(winter_quick, a_forecast_from_the_table_takes_the_loop) {
    const fray__ruleset *rs = &fray__winter_ruleset;
    fray_setup *s = sw_t_load(EX "brawl.yaml");
    fray__fight_opts o = {.facts = true};
    int taken = 0;
    for (int steps = 0; steps < 40; steps += 3) {
        void *table = NULL, *quick = NULL, *slow = NULL;
        cr_assert_eq(rs->fight_new(sw_t_setup(s), &o, NULL, &table), FRAY_OK);
        cr_assert_eq(rs->begin(table, 9, 1, NULL), FRAY_OK);
        for (int k = 0; k < steps && !rs->over(table); k++)
            cr_assert_eq(rs->step(table), FRAY_OK);
        cr_assert_eq(rs->sim_fight_new(sw_t_setup(s), 9, 0, NULL, NULL, &quick), FRAY_OK);
        cr_assert_eq(rs->sim_fight_new(sw_t_setup(s), 9, 0, NULL, NULL, &slow), FRAY_OK);
        sw_quick_set_off(slow, true);
        fray_sim_counts *c[2] = {calloc(1, sizeof *c[0]), calloc(1, sizeof *c[1])};
        cr_assert(c[0] && c[1]);
        for (uint64_t t = 0; t < 500 && !rs->over(table); t++) {
            cr_assert_eq(rs->sim_from(quick, table, 9, t), FRAY_OK);
            cr_assert(sw_quick_loop_eligible(quick));
            cr_assert_eq(rs->run(quick), FRAY_OK);
            rs->count(quick, c[0]);
            cr_assert_eq(rs->sim_from(slow, table, 9, t), FRAY_OK);
            cr_assert_eq(rs->run(slow), FRAY_OK);
            rs->count(slow, c[1]);
            cr_assert(rs->same(quick, slow), "after %d steps, trial %llu", steps,
                      (unsigned long long)t);
            taken++;
        }
        cr_assert_eq(memcmp(c[0], c[1], sizeof *c[0]), 0, "after %d steps", steps);
        free(c[0]);
        free(c[1]);
        rs->fight_free(quick);
        rs->fight_free(slow);
        rs->fight_free(table);
    }
    cr_assert_gt(taken, 5000);
    fray_setup_free(s);
}

/* 300 melee fights made at random from the brawl's setup (2 to 9
 * combatants on 2 to 4 sides; Agility, attack, defence, resistance,
 * Health, Pain, size, room for engagers, weapons and off hands of the
 * catalog's melee ones; the Reciprocal Engage or not; every option the
 * loop takes, and the scene's room to Avoid, at random), each 150
 * trials both ways: the same state and counts trial by trial. */
Test(winter_quick, random_melee_fights_are_the_long_way) {
    const fray__ruleset *rs = &fray__winter_ruleset;
    fray_setup *s = sw_t_load(EX "brawl.yaml");
    sw_setup *sd = sw_t_setup(s);
    const sw_combatant proto = sd->c[0];
    int melee[SW_MAX_WEAPONS], n_melee = 0;
    for (int k = 0; k < sd->n_weapons; k++)
        if (!sd->w[k].ranged && !sd->w[k].area && !sd->w[k].siege)
            melee[n_melee++] = k;
    cr_assert_gt(n_melee, 2);
    fray_rng g;
    fray_rng_for_trial(&g, 2024, 17);
#define R(lo, hi) ((int)fray_rng_range(&g, (lo), (hi)))
    uint64_t kinds[SW_EV_KINDS] = {0};
    for (int m = 0; m < 300; m++) {
        int n = R(2, 9), sides = R(2, n < 4 ? n : 4);
        sd->n = n;
        sd->n_sides = sides;
        sd->initiator = (int8_t)R(0, n - 1);
        for (int i = 0; i < n; i++) {
            sw_combatant *c = &sd->c[i];
            *c = proto;
            snprintf(c->id, sizeof c->id, "c%d", i);
            c->side = (int8_t)(i < sides ? i : R(0, sides - 1));
            c->reciprocal = R(0, 3) > 0;
            sw_block *b = &c->b;
            b->agility = (int16_t)R(-1, 6);
            b->physical_attack = (int16_t)R(2, 8);
            b->physical_defense = (int16_t)R(1, 6);
            b->defense_bonus = (int16_t)R(0, 3);
            b->physical_resistance = (int16_t)R(0, 3);
            b->armour = R(0, 1) ? sd->c[0].b.armour : -1;
            b->health = (int16_t)R(6, 40);
            b->pain = (int16_t)R(1, 6);
            b->size = (int8_t)R(1, 3) == 3 ? 2 : 1;
            b->capacity = (int8_t)(R(0, 3) == 0 ? R(1, 2) : 4);
            b->weapon = (int8_t)melee[R(0, n_melee - 1)];
            b->off_hand = (int8_t)(R(0, 3) == 0 ? melee[R(0, n_melee - 1)] : -1);
        }
        sd->opt.ties = (uint8_t)R(0, 1);
        sd->opt.pain_on_any_hit = R(0, 1);
        sd->opt.order_file = R(0, 1);
        sd->opt.keep_fallen = R(0, 1);
        sd->opt.engage_delay = (uint8_t)R(1, 6);
        sd->opt.attack_delay = (uint8_t)R(1, 5);
        sd->scene_avoid = R(0, 1);
        sd->segment_limit = R(0, 2) == 0 ? R(10, 80) : 300;
        void *quick = NULL, *slow = NULL;
        cr_assert_eq(rs->sim_fight_new(sd, 5, 0, NULL, NULL, &quick), FRAY_OK);
        cr_assert_eq(rs->sim_fight_new(sd, 5, 0, NULL, NULL, &slow), FRAY_OK);
        bool loop = R(0, 1);
        sw_quick_loop_for_duel(quick, loop);
        sw_quick_set_off(slow, true);
        fray_sim_counts *c[2] = {calloc(1, sizeof *c[0]), calloc(1, sizeof *c[1])};
        cr_assert(c[0] && c[1]);
        for (uint64_t t = 0; t < 150; t++) {
            cr_assert_eq(rs->reset_trial(quick, 5, t), FRAY_OK);
            cr_assert(sw_quick_loop_eligible(quick), "fight %d", m);
            cr_assert_eq(rs->run(quick), FRAY_OK);
            rs->count(quick, c[0]);
            cr_assert_eq(rs->reset_trial(slow, 5, t), FRAY_OK);
            cr_assert_eq(rs->run(slow), FRAY_OK);
            rs->count(slow, c[1]);
            if (loop || !sw_quick_eligible(quick)) /* (the duel's schedule: the counts) */
                cr_assert(rs->same(quick, slow), "fight %d (%d combatants) trial %llu", m, n,
                          (unsigned long long)t);
        }
        cr_assert_eq(memcmp(c[0], c[1], sizeof *c[0]), 0, "fight %d: the counts", m);
        for (int i = 0; i < n; i++)
            for (int k = 0; k < SW_EV_KINDS - SW_EV_ENGAGE; k++)
                kinds[k + SW_EV_ENGAGE] += c[0]->c[i].by_kind[k];
        free(c[0]);
        free(c[1]);
        rs->fight_free(quick);
        rs->fight_free(slow);
    }
#undef R
    cr_assert_gt(kinds[SW_EV_AVOID], 0);
    cr_assert_gt(kinds[SW_EV_DISENGAGE], 0);
    fray_setup_free(s);
}

/* 002:83: one busy with an item is Undefended against every melee foe
 * meanwhile. A forecast from the table just after the Rogue, engaged by
 * a bandit, uses an item on himself (delay 2: busy through 2 segments
 * more) takes the loop, which counts him Undefended as the long way
 * does: trial by trial the same. */
Test(winter_quick, a_forecast_while_one_is_busy_takes_the_loop) {
    const fray__ruleset *rs = &fray__winter_ruleset;
    fray_setup *s = sw_t_load(EX "brawl.yaml");
    const sw_setup *sd = sw_t_setup(s);
    int rogue = sw_find_combatant(sd, "rogue");
    cr_assert_geq(rogue, 0);
    fray__fight_opts o = {.facts = true};
    int found = 0;
    for (uint64_t seed = 1; seed < 60 && found < 3; seed++) {
        void *table = NULL;
        cr_assert_eq(rs->fight_new(sd, &o, NULL, &table), FRAY_OK);
        cr_assert_eq(rs->begin(table, seed, 0, NULL), FRAY_OK);
        sw_state *st = sw_fight_state(table);
        bool ready = false;
        while (!rs->over(table) && !ready) {
            bool engaged = false;
            for (int j = 0; j < st->n; j++)
                engaged |= st->c[j].engages == rogue;
            ready = engaged && sw_actor(sd, st) == rogue;
            if (!ready)
                cr_assert_eq(rs->step(table), FRAY_OK);
        }
        if (!ready) {
            rs->fight_free(table);
            continue;
        }
        fray_diag d;
        memset(&d, 0, sizeof d);
        cr_assert_eq(rs->command(table, "rogue item rogue", NULL, &d), FRAY_OK, "%s", d.message);
        cr_assert_geq(st->c[rogue].busy_until, st->seg + 1, "busy: Undefended (002:83)");
        void *quick = NULL, *slow = NULL;
        cr_assert_eq(rs->sim_fight_new(sd, 9, 0, NULL, NULL, &quick), FRAY_OK);
        cr_assert_eq(rs->sim_fight_new(sd, 9, 0, NULL, NULL, &slow), FRAY_OK);
        sw_quick_set_off(slow, true);
        for (uint64_t t = 0; t < 400; t++) {
            cr_assert_eq(rs->sim_from(quick, table, 9, t), FRAY_OK);
            cr_assert(sw_quick_loop_eligible(quick));
            cr_assert_eq(rs->run(quick), FRAY_OK);
            cr_assert_eq(rs->sim_from(slow, table, 9, t), FRAY_OK);
            cr_assert_eq(rs->run(slow), FRAY_OK);
            cr_assert(rs->same(quick, slow), "seed %llu trial %llu", (unsigned long long)seed,
                      (unsigned long long)t);
        }
        found++;
        rs->fight_free(quick);
        rs->fight_free(slow);
        rs->fight_free(table);
    }
    cr_assert_eq(found, 3);
    fray_setup_free(s);
}
