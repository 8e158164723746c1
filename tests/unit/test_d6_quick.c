/* test_d6_quick.c - D6's simulation loop (src/rules/d6/quick.c; issue 18
 * "Speed": the brawl within 3x of its bare loop): every fight it takes
 * is the long way's, trial by trial, with the same stream: the same dice
 * in the same order (the stream's state at the end), the same tactics'
 * choices (attack, attack and dodge or parry, full defense, close, wait),
 * the same end state byte for byte (Wound levels or Body Points, the
 * defenses standing, the order, the round) and the same counts. What it
 * does not model goes the long way. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/rng.h"
#include "fray/sim.h"
#include "ruleset.h"
#include "d6_int.h"
#include "d6_quick.h"

extern const fray__ruleset fray__d6_ruleset;

#define EX FRAY_SOURCE_DIR "/examples/d6/"
#define TD FRAY_SOURCE_DIR "/tests/data/d6/"

static d6_setup *load(const char *path) {
    d6_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(d6_load(path, NULL, &s, &d), FRAY_OK, "%s:%d:%d: %s", path, d.line,
                 d.column, d.message);
    return s;
}

/* The two fights of a setup: `quick` takes the loop, `slow` the long way. */
static void pair(const d6_setup *s, uint64_t seed, int until, void **quick, void **slow) {
    const fray__ruleset *rs = &fray__d6_ruleset;
    cr_assert_eq(rs->sim_fight_new(s, seed, until, NULL, NULL, quick), FRAY_OK);
    cr_assert_eq(rs->sim_fight_new(s, seed, until, NULL, NULL, slow), FRAY_OK);
    d6_loop_set_off(*slow, true);
}

/* Both fights as they stand now (reset or taken from the table): the loop
 * must take `quick`; the state after, byte for byte, and the counts. */
static void run_both(void *quick, void *slow, fray_sim_counts *cq, fray_sim_counts *cs,
                     const char *what, uint64_t trial) {
    const fray__ruleset *rs = &fray__d6_ruleset;
    cr_assert(d6_loop_eligible(quick), "%s takes the loop", what);
    cr_assert_not(d6_loop_eligible(slow));
    cr_assert_eq(rs->run(quick), FRAY_OK);
    rs->count(quick, cq);
    cr_assert_eq(rs->run(slow), FRAY_OK);
    rs->count(slow, cs);
    cr_assert(rs->same(quick, slow), "%s trial %llu: not the long way's end", what,
              (unsigned long long)trial);
    cr_assert_eq(memcmp(d6_fight_state(quick), d6_fight_state(slow), sizeof(d6_state)), 0,
                 "%s trial %llu: not the long way's state, byte for byte", what,
                 (unsigned long long)trial);
    cr_assert_eq(memcmp(cq, cs, sizeof *cq), 0, "%s trial %llu: the counts differ", what,
                 (unsigned long long)trial);
}

/* A setup both ways for `trials` trials; the counts of the loop in *out. */
static void both_ways_setup(const d6_setup *s, const char *what, uint64_t seed,
                            uint64_t trials, int until, fray_sim_counts *out) {
    const fray__ruleset *rs = &fray__d6_ruleset;
    fray_sim_counts *c[2] = {calloc(1, sizeof *c[0]), calloc(1, sizeof *c[1])};
    cr_assert(c[0] && c[1]);
    void *quick = NULL, *slow = NULL;
    pair(s, seed, until, &quick, &slow);
    for (uint64_t t = 0; t < trials; t++) {
        cr_assert_eq(rs->reset_trial(quick, seed, t), FRAY_OK);
        cr_assert_eq(rs->reset_trial(slow, seed, t), FRAY_OK);
        run_both(quick, slow, c[0], c[1], what, t);
    }
    cr_assert_eq(c[0]->trials, trials);
    if (out)
        *out = *c[0];
    rs->fight_free(quick);
    rs->fight_free(slow);
    free(c[0]);
    free(c[1]);
}

static void both_ways(const char *path, uint64_t seed, uint64_t trials, int until,
                      fray_sim_counts *out) {
    d6_setup *s = load(path);
    both_ways_setup(s, path, seed, trials, until, out);
    d6_setup_free(s);
}

static uint64_t kind_sum(const fray_sim_counts *c, int n, int kind) {
    uint64_t k = 0;
    for (int i = 0; i < n; i++)
        k += c->c[i].by_kind[kind - D6_EV_ATTACK];
    return k;
}

/* Issue 18: the examples it models (the duel, the brawl in Body Points,
 * the firefight's shots in poor light from cover) take the loop and are
 * the long way, 2000 trials each. Between them the tactics attack, dodge
 * or parry with an attack when two foes are in reach, defend in full
 * when badly hurt (core) and close on a foe out of reach. */
Test(d6_quick, the_examples_are_the_long_way) {
    const char *files[] = {EX "duel.yaml", EX "brawl.yaml", EX "firefight.yaml"};
    const int sizes[] = {2, 6, 5};
    uint64_t attacks = 0, defends = 0, moves = 0;
    fray_sim_counts *c = calloc(1, sizeof *c);
    cr_assert(c);
    for (int k = 0; k < 3; k++) {
        both_ways(files[k], 7, 2000, 0, c);
        attacks += kind_sum(c, sizes[k], D6_EV_ATTACK);
        defends += kind_sum(c, sizes[k], D6_EV_DEFEND);
        moves += kind_sum(c, sizes[k], D6_EV_MOVE);
    }
    cr_assert_gt(attacks, 0);
    cr_assert_gt(defends, 0, "the badly hurt defend in full at times");
    cr_assert_gt(moves, 0, "someone closes on a foe at times");
    free(c);
}

/* Fights of its own (tests/data/d6/quick_*.yaml): Wound levels with the
 * Stunned round and the stay-up roll, a Wild Die's 1 a complication, foes
 * out of reach who close; shots at every band in moonlight against every
 * cover (full: not a target), Body Points, a round limit of 8; three sides
 * with an archer (so nobody parries), a round limit of 6. */
Test(d6_quick, fights_of_its_own_are_the_long_way) {
    const char *files[] = {TD "quick_wounds.yaml", TD "quick_ranged.yaml",
                           TD "quick_sides.yaml"};
    uint64_t unfinished = 0, finished = 0;
    fray_sim_counts *c = calloc(1, sizeof *c);
    cr_assert(c);
    for (int k = 0; k < 3; k++) {
        both_ways(files[k], 11, 1500, 0, c);
        unfinished += c->unfinished;
        finished += c->trials - c->unfinished;
    }
    cr_assert_gt(unfinished, 0, "the round limit cuts some fights short");
    cr_assert_gt(finished, 0);
    free(c);
}

/* A round limit given to the simulation (fray sim --rounds: the fight's
 * `until`) cuts the brawl short the same way both ways. */
Test(d6_quick, a_round_limit_cuts_the_same_fights) {
    fray_sim_counts *c = calloc(1, sizeof *c);
    cr_assert(c);
    both_ways(EX "brawl.yaml", 5, 2000, 6, c);
    cr_assert_gt(c->unfinished, 0);
    cr_assert_lt(c->unfinished, 2000);
    free(c);
}

/* Random fights: 2 to 10 combatants drawn from the stat blocks of
 * quick_ranged.yaml (archer, crossbowman, fighter, bandit, ranger,
 * brawler) on 2 or 3 sides, anywhere within 60 m, any cover, either
 * health system and either Wild Die rule, any light, a round limit of 1
 * to 30. Between them every choice of the tactics comes up. */
Test(d6_quick, random_fights_are_the_long_way) {
    d6_setup *base = load(TD "quick_ranged.yaml");
    d6_setup *s = malloc(sizeof *s);
    cr_assert(s);
    fray_sim_counts *c = calloc(1, sizeof *c);
    cr_assert(c);
    uint64_t kinds[3] = {0, 0, 0}; /* attack, defend, move (d6_kind order) */
    fray_rng rng;
    fray_rng_seed(&rng, 18, 1);
    int taken = 0;
    for (int f = 0; f < 60; f++) {
        *s = *base;
        s->n = 2 + (int)fray_rng_below(&rng, 9);
        s->n_sides = 2 + (int)fray_rng_below(&rng, 2);
        unsigned seen = 0;
        for (int i = 0; i < s->n; i++) {
            s->c[i] = base->c[fray_rng_below(&rng, (uint32_t)base->n)];
            s->c[i].side = (int8_t)(i < 2 ? i : (int)fray_rng_below(&rng, (uint32_t)s->n_sides));
            s->c[i].x = (int16_t)((int)fray_rng_below(&rng, 121) - 60);
            s->c[i].y = (int16_t)((int)fray_rng_below(&rng, 121) - 60);
            s->c[i].cover = (uint8_t)fray_rng_below(&rng, D6_COVER_FULL + 1);
            seen |= 1u << s->c[i].side;
        }
        cr_assert_gt(seen & (seen - 1), 0u);
        s->o.health = (uint8_t)fray_rng_below(&rng, 2);
        s->o.wild_one = (uint8_t)fray_rng_below(&rng, 2);
        s->light = (uint8_t)fray_rng_below(&rng, 5);
        s->rounds = 1 + (int)fray_rng_below(&rng, 30);
        d6_loop q;
        d6_loop_prepare(s, &q);
        cr_assert(q.ok, "random fight %d is one the loop models", f);
        char what[40];
        snprintf(what, sizeof what, "random fight %d", f);
        both_ways_setup(s, what, (uint64_t)f, 100, 0, c);
        for (int k = 0; k < 3; k++)
            kinds[k] += kind_sum(c, s->n, D6_EV_ATTACK + k);
        taken++;
    }
    cr_assert_eq(taken, 60);
    cr_assert_gt(kinds[0], 0, "attacks");
    cr_assert_gt(kinds[1], 0, "full defenses");
    cr_assert_gt(kinds[2], 0, "moves");
    free(c);
    free(s);
    d6_setup_free(base);
}

/* Issue 19's forecast (sim_from) from a fight at the table some steps in
 * (a defense standing, someone's turn half done after a free move, the
 * hurt): trial by trial the loop is the long way from that state. */
Test(d6_quick, forecasts_from_the_table_are_the_long_way) {
    const fray__ruleset *rs = &fray__d6_ruleset;
    const char *files[] = {EX "brawl.yaml", TD "quick_wounds.yaml"};
    int taken = 0;
    for (int k = 0; k < 2; k++) {
        d6_setup *s = load(files[k]);
        fray__fight_opts o = {.facts = true};
        for (int steps = 0; steps < 60; steps += 7) {
            void *table = NULL, *quick = NULL, *slow = NULL;
            cr_assert_eq(rs->fight_new(s, &o, NULL, &table), FRAY_OK);
            cr_assert_eq(rs->begin(table, 9, 1, NULL), FRAY_OK);
            for (int j = 0; j < steps && !rs->over(table); j++)
                cr_assert_eq(rs->step(table), FRAY_OK);
            if (rs->over(table)) {
                rs->fight_free(table);
                break;
            }
            cr_assert_not(d6_loop_eligible(table), "a fight at the table tells its events");
            pair(s, 9, 0, &quick, &slow);
            fray_sim_counts *c[2] = {calloc(1, sizeof *c[0]), calloc(1, sizeof *c[1])};
            cr_assert(c[0] && c[1]);
            for (uint64_t t = 0; t < 300; t++) {
                cr_assert_eq(rs->sim_from(quick, table, 9, t), FRAY_OK);
                cr_assert_eq(rs->sim_from(slow, table, 9, t), FRAY_OK);
                run_both(quick, slow, c[0], c[1], files[k], t);
                taken++;
            }
            free(c[0]);
            free(c[1]);
            rs->fight_free(quick);
            rs->fight_free(slow);
            rs->fight_free(table);
        }
        d6_setup_free(s);
    }
    cr_assert_gt(taken, 3000);
}

/* What the loop does not model goes the long way: grabs (tactics:
 * grapple, 003:10-24), scale (the Centaur and the rats, 003:106), a blind
 * fighter (003:45-46), every option off its default but health and
 * wild-one (modifiers: roll, 003:3; tactics-knockdown, 003:8; initiative:
 * scene), surprise (003:129), posture (003:91), an unwieldy or entangling
 * weapon (003:131, 63); and a state the loop does not keep up: aiming, a
 * hit in the chest (003:82), down (003:8), a hurt hand (003:84), a hold. */
Test(d6_quick, what_the_loop_does_not_model_goes_the_long_way) {
    const fray__ruleset *rs = &fray__d6_ruleset;
    const char *no[] = {EX "grapple.yaml", EX "centaur.yaml", EX "blindfold.yaml"};
    for (size_t k = 0; k < sizeof no / sizeof no[0]; k++) {
        d6_setup *s = load(no[k]);
        void *f = NULL;
        cr_assert_eq(rs->sim_fight_new(s, 1, 0, NULL, NULL, &f), FRAY_OK);
        cr_assert_eq(rs->reset_trial(f, 1, 0), FRAY_OK);
        cr_assert_not(d6_loop_eligible(f), "%s", no[k]);
        rs->fight_free(f);
        d6_setup_free(s);
    }
    d6_setup *s = load(EX "brawl.yaml");
    d6_loop q;
    d6_loop_prepare(s, &q);
    cr_assert(q.ok);
    s->o.modifiers_roll = true;
    d6_loop_prepare(s, &q);
    cr_assert_not(q.ok, "modifiers: roll (003:3)");
    s->o.modifiers_roll = false;
    s->o.tactics_knockdown = true;
    d6_loop_prepare(s, &q);
    cr_assert_not(q.ok, "tactics-knockdown: yes (003:8)");
    s->o.tactics_knockdown = false;
    s->o.initiative = D6_INIT_SCENE;
    d6_loop_prepare(s, &q);
    cr_assert_not(q.ok, "initiative: scene");
    s->o.initiative = D6_INIT_ROUND;
    s->c[2].surprise = D6_SURPRISE_BONUS;
    d6_loop_prepare(s, &q);
    cr_assert_not(q.ok, "surprise (003:129)");
    s->c[2].surprise = D6_SURPRISE_NONE;
    s->c[4].posture = D6_POSTURE_CROUCHING;
    d6_loop_prepare(s, &q);
    cr_assert_not(q.ok, "crouching (003:91)");
    s->c[4].posture = D6_POSTURE_STANDING;
    int w = s->c[0].b.weapon;
    cr_assert_geq(w, 0);
    s->w[w].unwieldy = 1;
    d6_loop_prepare(s, &q);
    cr_assert_not(q.ok, "an unwieldy weapon (003:131)");
    s->w[w].unwieldy = 0;
    s->w[w].entangling = true;
    d6_loop_prepare(s, &q);
    cr_assert_not(q.ok, "an entangling weapon (003:63)");
    s->w[w].entangling = false;
    for (int i = 0; i < s->n; i++)
        s->c[i].side = 0;
    d6_loop_prepare(s, &q);
    cr_assert_not(q.ok, "one side: no fight");
    d6_setup_free(s);

    /* states */
    s = load(EX "brawl.yaml");
    void *f = NULL;
    cr_assert_eq(rs->sim_fight_new(s, 1, 0, NULL, NULL, &f), FRAY_OK);
    d6_state *st = d6_fight_state(f);
    const char *const cases[] = {"aiming", "a chest hit (003:82)", "down (003:8)",
                                 "a hurt hand (003:84)", "held (003:10)"};
    for (int k = 0; k < 5; k++) {
        cr_assert_eq(rs->reset_trial(f, 1, 0), FRAY_OK);
        cr_assert(d6_loop_eligible(f));
        d6_cstate *c = &st->c[3];
        switch (k) {
        case 0: c->aim_dice = 1; c->aim_target = 0; break;
        case 1: c->passive_round = st->round; break;
        case 2: c->down = true; break;
        case 3: c->parts = 1; break;
        default: c->held_by = 1; break;
        }
        cr_assert_not(d6_loop_eligible(f), "%s", cases[k]);
    }
    rs->fight_free(f);
    d6_setup_free(s);
}

/* Ruling 69 (close.c): a fighter whose step toward the nearest foe finds
 * every point on the line taken waits. Four of North in a row, (0, 0) to
 * (3, 0), two of South at (4, 0) and (5, 0): fighter 1's foe is 4 m away
 * and its friends stand on each meter between. The loop waits as the long
 * way does, trial by trial. */
Test(d6_quick, a_step_with_no_free_point_waits_both_ways_ruling_69) {
    d6_setup *s = load(TD "quick_wounds.yaml");
    cr_assert_eq(s->n, 6);
    for (int i = 0; i < 6; i++) {
        s->c[i].side = (int8_t)(i < 4 ? 0 : 1);
        s->c[i].x = (int16_t)i;
        s->c[i].y = 0;
    }
    d6_state st;
    d6_state_init(s, &st, 1, 0);
    st.started = true;
    st.round = 1;
    st.n_order = 6;
    for (int i = 0; i < 6; i++)
        st.order[i] = (int8_t)i;
    d6_event cmd;
    d6_choose(s, &st, &cmd);
    cr_assert_eq(cmd.kind, D6_EV_WAIT, "fighter 1 is boxed in: it waits (kind %d)", cmd.kind);
    d6_loop q;
    d6_loop_prepare(s, &q);
    cr_assert(q.ok, "the loop models this fight");
    both_ways_setup(s, "boxed in", 69, 300, 0, NULL);
    d6_setup_free(s);
}
