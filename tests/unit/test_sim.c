/*
 * test_sim.c - Monte Carlo simulation of whole encounters (issue 4
 * sections 1 and 5; include/fray/sim.h; docs/architecture.md
 * "Simulation"): thread-count independence, seed reproducibility, trials
 * that replay one by one, slices that add up (what MPI ranks do), the
 * allocation-free trial loop, the statistics, and sweeps.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fail_alloc.h"
#include "fray/report.h"
#include "xml_check.h"
#include "towers_fixture.h"

static fray_sim_counts *sim(const fray_towers_setup *s, uint64_t seed,
                            uint64_t first, uint64_t n, int threads) {
    fray_sim_counts *c = calloc(1, sizeof *c);
    cr_assert(c);
    fray_sim_options o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.first_trial = first;
    o.trials = n;
    o.threads = threads;
    cr_assert_eq(fray_towers_sim(s, &o, NULL, c), FRAY_OK);
    return c;
}

/* Issue 4 section 1: "results are bit-identical for any thread count". */
Test(sim, any_thread_count_gives_identical_counts) {
    const char *files[] = {"duel.yaml", "skirmish.yaml"};
    const uint64_t n[] = {3000, 700};
    for (int k = 0; k < 2; k++) {
        fray_towers_setup *s = tf_load_example(files[k]);
        fray_sim_counts *one = sim(s, 11, 0, n[k], 1);
        for (int t = 2; t <= 3; t++) {
            fray_sim_counts *many = sim(s, 11, 0, n[k], t);
            cr_expect_eq(memcmp(one, many, sizeof *one), 0,
                         "%s: %d threads differ from one", files[k], t);
            free(many);
        }
        cr_expect_eq(one->trials, n[k]);
        free(one);
        fray_towers_setup_free(s);
    }
}

/* Issue 4 section 1: "... and for the same seed on any run"; another seed
 * gives other fights. */
Test(sim, same_seed_same_counts) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_sim_counts *a = sim(s, 5, 0, 2000, 2);
    fray_sim_counts *b = sim(s, 5, 0, 2000, 2);
    fray_sim_counts *c = sim(s, 6, 0, 2000, 2);
    cr_expect_eq(memcmp(a, b, sizeof *a), 0);
    cr_expect_neq(memcmp(a, c, sizeof *a), 0);
    free(a);
    free(b);
    free(c);
    fray_towers_setup_free(s);
}

/* Trial i of a simulation is the fight reset as (seed, i): the counts of a
 * one-trial simulation match that fight, so any trial can be told
 * narrated (docs/architecture.md "Simulation"). Trial 0 is `fray fight
 * --seed S`. */
Test(sim, each_trial_is_a_fight_that_can_be_replayed) {
    fray_towers_setup *s = tf_load_example("skirmish.yaml");
    fray_towers_fight *f = tf_fight(s, 3);
    for (uint64_t t = 0; t < 6; t++) {
        fray_sim_counts *c = sim(s, 3, t, 1, 1);
        if (t == 0)
            cr_assert_eq(fray_towers_fight_reset(f, 3), FRAY_OK);
        else
            cr_assert_eq(fray_towers_fight_reset_trial(f, 3, t), FRAY_OK);
        cr_assert_eq(fray_towers_fight_run(f), FRAY_OK);
        int w = fray_towers_fight_winner(f);
        cr_expect_eq(c->trials, 1);
        if (w >= 0)
            cr_expect_eq(c->wins[w], 1, "trial %d", (int)t);
        cr_expect_eq(c->length_sum, (uint64_t)fray_towers_fight_phase(f));
        for (int i = 0; i < f->st.n; i++) {
            cr_expect_eq(c->c[i].stun_taken, (uint64_t)f->st.c[i].stun_taken);
            cr_expect_eq(c->c[i].actions, (uint64_t)f->st.c[i].actions);
            cr_expect_eq(c->c[i].standing, ft_in_fight(&f->st, i) ? 1u : 0u);
        }
        free(c);
    }
    fray_towers_fight_free(f);
    fray_towers_setup_free(s);
}

/* Issue 4 section 4: ranks that each run a slice of the trial indices add
 * up to the single-process answer. */
Test(sim, slices_add_up_to_the_whole) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_sim_counts *whole = sim(s, 9, 0, 1500, 2);
    fray_sim_counts *a = sim(s, 9, 0, 600, 1);
    fray_sim_counts *b = sim(s, 9, 600, 899, 2);
    fray_sim_counts *c = sim(s, 9, 1499, 1, 1);
    fray_sim_counts_add(a, b);
    fray_sim_counts_add(a, c);
    cr_expect_eq(memcmp(a, whole, sizeof *a), 0);
    free(whole);
    free(a);
    free(b);
    free(c);
    fray_towers_setup_free(s);
}

/* Issue 4 section 5: the trial loop allocates nothing: a simulation of
 * 3000 fights makes exactly as many allocations as one of 600 (one fight
 * per thread and the workers' table), and frees them all. */
Test(sim, trial_loop_does_not_allocate) {
    fray_towers_setup *s = tf_load_example("skirmish.yaml");
    long calls[2];
    const uint64_t n[2] = {600, 3000}; /* both at least one chunk per thread */
    for (int k = 0; k < 2; k++) {
        fail_alloc fa;
        memset(&fa, 0, sizeof fa);
        fray_allocator al = {fail_realloc, &fa};
        fray_sim_counts c;
        fray_sim_options o;
        memset(&o, 0, sizeof o);
        o.seed = 1;
        o.trials = n[k];
        o.threads = 2;
        cr_assert_eq(fray_towers_sim(s, &o, &al, &c), FRAY_OK);
        cr_expect_eq(c.trials, n[k]);
        cr_expect_eq(fa.live, 0, "everything freed");
        calls[k] = fa.calls;
    }
    cr_expect_eq(calls[0], calls[1], "%ld allocations for 600 fights, %ld "
                                     "for 3000", calls[0], calls[1]);
    cr_expect_gt(calls[0], 0, "the fights come from the given allocator");
    /* Out of memory while setting up: an error, nothing leaked. */
    for (long fail = 1; fail <= calls[0]; fail++) {
        fail_alloc fa;
        memset(&fa, 0, sizeof fa);
        fa.fail_at = fail;
        fray_allocator al = {fail_realloc, &fa};
        fray_sim_counts c;
        fray_sim_options o;
        memset(&o, 0, sizeof o);
        o.trials = 600;
        o.threads = 2;
        cr_expect_eq(fray_towers_sim(s, &o, &al, &c), FRAY_ERR_NOMEM);
        cr_expect_eq(fa.live, 0);
        cr_expect_eq(c.trials, 0);
    }
    fray_towers_setup_free(s);
}

/* The counts are consistent: every fight ends one way, the histogram holds
 * every fight, and in a duel without a phase limit the winner's combatant
 * is the one standing. */
Test(sim, counts_are_consistent) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_sim_counts *c = sim(s, 2, 0, 4000, 2);
    cr_expect_eq(c->wins[0] + c->wins[1] + c->all_out + c->unfinished, 4000);
    uint64_t sum = 0, len = 0;
    for (int i = 0; i < FRAY_SIM_LENGTH_BINS; i++) {
        sum += c->length[i];
        len += (uint64_t)i * c->length[i];
    }
    cr_expect_eq(sum, 4000);
    cr_expect_eq(len, c->length_sum);
    cr_expect_eq(c->unfinished, 0);
    for (int i = 0; i < 2; i++) {
        int side = fray_towers_setup_combatant_side(s, i);
        cr_expect_eq(c->c[i].standing, c->wins[side]);
        cr_expect_leq(c->c[i].dead, 4000 - c->c[i].standing);
        uint64_t kinds = 0;
        for (int k = 0; k < FRAY_SIM_ACTION_KINDS; k++)
            kinds += c->c[i].by_kind[k];
        cr_expect_eq(kinds, c->c[i].actions);
        cr_expect_eq(c->c[i].stun_dealt, c->c[1 - i].stun_taken,
                     "in a duel one's STUN dealt is the other's taken");
    }
    cr_expect(c->c[0].fate_cards > 0, "Sir Aldric's tactics use the Hand of Fate");
    free(c);
    fray_towers_setup_free(s);
}

/* Issue 4 section 1: "win rate per side with a 95% confidence interval"
 * (Wilson score interval; values from its formula). */
Test(sim, interval95) {
    double lo, hi;
    fray_sim_interval95(50, 100, &lo, &hi);
    cr_expect(fabs(lo - 0.40383) < 1e-4 && fabs(hi - 0.59617) < 1e-4,
              "%f %f", lo, hi);
    fray_sim_interval95(0, 10, &lo, &hi);
    cr_expect(lo == 0.0 && fabs(hi - 0.27753) < 1e-4, "%f", hi);
    fray_sim_interval95(10, 10, &lo, &hi);
    cr_expect(hi == 1.0 && fabs(lo - 0.72247) < 1e-4, "%f", lo);
    fray_sim_interval95(0, 0, &lo, &hi);
    cr_expect(lo == 0.0 && hi == 1.0);
}

Test(sim, length_statistics) {
    fray_sim_counts c;
    memset(&c, 0, sizeof c);
    /* fights of 10, 20, 20, 30 phases */
    c.trials = 4;
    c.length[10] = 1;
    c.length[20] = 2;
    c.length[30] = 1;
    c.length_sum = 80;
    c.length_sq_sum = 100 + 800 + 900;
    cr_expect_eq(fray_sim_length_mean(&c), 20.0);
    cr_expect(fabs(fray_sim_length_sd(&c) - sqrt(200.0 / 3.0)) < 1e-9);
    cr_expect_eq(fray_sim_length_quantile(&c, 0.25), 10);
    cr_expect_eq(fray_sim_length_quantile(&c, 0.5), 20);
    cr_expect_eq(fray_sim_length_quantile(&c, 0.75), 20);
    cr_expect_eq(fray_sim_length_quantile(&c, 0.9), 30);
    cr_expect_eq(fray_sim_length_quantile(&c, 1.0), 30);
}

Test(sim, bad_options) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_sim_counts c;
    fray_sim_options o;
    memset(&o, 0, sizeof o);
    cr_expect_eq(fray_towers_sim(s, &o, NULL, &c), FRAY_ERR_INVALID, "no trials");
    o.trials = 5;
    o.threads = -1;
    cr_expect_eq(fray_towers_sim(s, &o, NULL, &c), FRAY_ERR_INVALID);
    fray_towers_setup_free(s);
}

/* The progress callback is called, and returning false stops early with
 * the finished fights counted. */
static bool stop_at_once(void *ctx, uint64_t done, uint64_t total) {
    (void)done;
    (void)total;
    ++*(int *)ctx;
    return false;
}

Test(sim, progress_can_stop) {
    fray_towers_setup *s = tf_load_example("skirmish.yaml");
    fray_sim_counts c;
    fray_sim_options o;
    memset(&o, 0, sizeof o);
    o.trials = 200000;
    o.threads = 2;
    int calls = 0;
    o.progress = stop_at_once;
    o.progress_ctx = &calls;
    cr_assert_eq(fray_towers_sim(s, &o, NULL, &c), FRAY_OK);
    cr_expect_geq(calls, 1);
    cr_expect_lt(c.trials, 200000);
    /* Only finished fights are counted (since issue 11 a stop also ends
     * the fights under way, so not always whole chunks). */
    uint64_t ended = c.all_out + c.unfinished;
    for (int k = 0; k < FRAY_SIM_MAX_SIDES; k++)
        ended += c.wins[k];
    cr_expect_eq(ended, c.trials);
    fray_towers_setup_free(s);
}

/* Issue 11, "fray sim answers Ctrl-C only between fights": two bandits
 * who never hurt each other (tests/data/towers/idle_pair.yaml), each
 * fight to phase 200 million (some 18 s each, and the old loop finished
 * its fight first: 4.1 s to stop at phase 50 million). The progress
 * callback says stop at once: fray_towers_sim returns within a second
 * (measured: 0.2 ms after the callback), with no trial counted (none
 * finished). */
static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

Test(sim, issue11_stop_reaches_a_fight_under_way, .timeout = 60) {
    fray_towers_setup *s = tf_load_data("idle_pair.yaml");
    fray_sim_counts c;
    fray_sim_options o;
    memset(&o, 0, sizeof o);
    o.trials = 4;
    o.threads = 2;
    o.until_phase = 200000000;
    int calls = 0;
    o.progress = stop_at_once;
    o.progress_ctx = &calls;
    double t0 = now_s();
    cr_assert_eq(fray_towers_sim(s, &o, NULL, &c), FRAY_OK);
    double dt = now_s() - t0;
    cr_expect_lt(dt, 1.0, "stopped after %.3f s", dt);
    cr_expect_geq(calls, 1);
    cr_expect_eq(c.trials, 0);
    cr_expect_eq(c.unfinished, 0);
    fray_towers_setup_free(s);
}

/* Seed 000 "Entering Combat and Initiative" with RULINGS 2 (a deck
 * reshuffles its discards) and 9 (ties flip off), for any legal encounter.
 * Issue 11, "Initiative past the deck's 128-card cap": sixteen identical
 * knights against sixteen (tests/data/towers/mirror_16.yaml) is a mirror
 * match, so side 0 wins half the decided fights. With the initiative
 * failing it won 63%. 4000 fights, a fixed seed: 0.5 must lie in the 95%
 * interval of side 0's share (half-width about 1.6 points). */
Test(sim, issue11_mirror_match_is_even) {
    fray_towers_setup *s = tf_load_data("mirror_16.yaml");
    fray_sim_counts *c = sim(s, 11, 0, 4000, 2);
    uint64_t decided = c->wins[0] + c->wins[1];
    cr_assert_gt(decided, 3900);
    double lo, hi;
    fray_sim_interval95(c->wins[0], decided, &lo, &hi);
    cr_expect(lo <= 0.5 && 0.5 <= hi, "side 0 won %llu of %llu: [%.4f, %.4f]",
              (unsigned long long)c->wins[0], (unsigned long long)decided, lo,
              hi);
    free(c);
    fray_towers_setup_free(s);
}

/* ---- Sweeps (fray_towers_setup_vary) ---------------------------------------- */

static fray_status vary(fray_towers_setup *s, const char *key,
                        const char *value, char *msg) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = fray_towers_setup_vary(s, key, value, &d);
    if (msg)
        strcpy(msg, d.message);
    return rc;
}

static const ft_combatant *who(const fray_towers_setup *s, const char *id) {
    for (int i = 0; i < s->s.n_combatants; i++)
        if (strcmp(s->s.c[i].id, id) == 0)
            return &s->s.c[i];
    cr_assert_fail("no combatant %s", id);
    return NULL;
}

/* Issue 4 section 1: --vary "bandit.PA=1..5": a group of counted
 * combatants, one combatant, a stat block by name. */
Test(sim, vary_combatant_values) {
    fray_towers_setup *base = tf_load_example("ambush.yaml");
    fray_towers_setup *s = NULL;
    cr_assert_eq(fray_towers_setup_copy(base, NULL, &s), FRAY_OK);
    cr_expect_eq(vary(s, "bandit.PA", "5", NULL), FRAY_OK);
    int bandits = 0;
    for (int i = 0; i < s->s.n_combatants; i++)
        if (strncmp(s->s.c[i].id, "bandit-", 7) == 0) {
            cr_expect_eq(s->s.c[i].sb.cv[FT_CV_PA], 5);
            bandits++;
        }
    cr_expect_eq(bandits, 3);
    cr_expect_neq(who(s, "archer")->sb.cv[FT_CV_PA], 5, "not a bandit");
    /* The original is untouched. */
    cr_expect_neq(who(base, "bandit-1")->sb.cv[FT_CV_PA], 5);
    cr_expect_eq(vary(s, "tony.tactics", "power-attack", NULL), FRAY_OK);
    cr_expect_eq(who(s, "tony")->tactics.preset, FT_TAC_POWER_ATTACK);
    /* [[E]]: derived maximums follow it (rules-facts.md: STUN = [[E]] x 8,
     * LETHAL = [[E]] + 8). */
    cr_expect_eq(vary(s, "tony.E", "5", NULL), FRAY_OK);
    cr_expect_eq(who(s, "tony")->sb.max_stun, 40);
    cr_expect_eq(who(s, "tony")->sb.max_lethal, 13);
    cr_expect_eq(vary(s, "tony.SP", "4", NULL), FRAY_OK);
    cr_expect_eq(who(s, "tony")->sb.aspects[FT_ASPECT_SP], 4);
    fray_towers_setup_free(s);
    fray_towers_setup_free(base);
}

/* --vary "longblade.damage=4,5,6": the catalog row and every copy a stat
 * block carries. */
Test(sim, vary_weapon_damage) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    cr_expect_eq(vary(s, "longblade.damage", "6", NULL), FRAY_OK);
    int copies = 0;
    for (int i = 0; i < s->s.n_combatants; i++)
        for (int w = 0; w < s->s.c[i].sb.n_weapons; w++)
            if (strcmp(s->s.c[i].sb.weapons[w].name, "Longblade") == 0) {
                cr_expect_eq(s->s.c[i].sb.weapons[w].damage, 6);
                copies++;
            }
    cr_expect_geq(copies, 1);
    fray_towers_setup_free(s);
}

/* Bad keys and values: an error naming the token, the setup unchanged. */
Test(sim, vary_errors_leave_the_setup_unchanged) {
    fray_towers_setup *s = tf_load_example("skirmish.yaml");
    fray_towers_setup *before = NULL;
    cr_assert_eq(fray_towers_setup_copy(s, NULL, &before), FRAY_OK);
    char msg[256];
    cr_expect_eq(vary(s, "nobody.PA", "3", msg), FRAY_ERR_PARSE);
    cr_expect(strstr(msg, "'nobody'"), "%s", msg);
    cr_expect_eq(vary(s, "bandit.XX", "3", msg), FRAY_ERR_PARSE);
    cr_expect(strstr(msg, "'XX'"), "%s", msg);
    cr_expect_eq(vary(s, "bandit.PA", "three", msg), FRAY_ERR_PARSE);
    cr_expect(strstr(msg, "'three'"), "%s", msg);
    cr_expect_eq(vary(s, "bandit.PA", "99", msg), FRAY_ERR_RANGE);
    cr_expect_eq(vary(s, "tony.tactics", "berserk", msg), FRAY_ERR_PARSE);
    cr_expect(strstr(msg, "'berserk'"), "%s", msg);
    cr_expect_eq(vary(s, "PA", "3", msg), FRAY_ERR_PARSE);
    cr_expect_eq(vary(s, "longblade.speed", "3", msg), FRAY_ERR_PARSE);
    cr_expect_eq(memcmp(&s->s, &before->s, sizeof s->s), 0);
    fray_towers_setup_free(before);
    fray_towers_setup_free(s);
}

/* A sweep changes the outcome the way the rule says it should: a better
 * Physical Attack for the Black Knight wins it more duels (common random
 * numbers: the same decks for both variants). */
Test(sim, sweep_moves_the_win_rate) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    fray_towers_setup *weak = NULL, *strong = NULL;
    cr_assert_eq(fray_towers_setup_copy(s, NULL, &weak), FRAY_OK);
    cr_assert_eq(fray_towers_setup_copy(s, NULL, &strong), FRAY_OK);
    cr_assert_eq(vary(weak, "black-knight.PA", "1", NULL), FRAY_OK);
    cr_assert_eq(vary(strong, "black-knight.PA", "6", NULL), FRAY_OK);
    fray_sim_counts *a = sim(weak, 1, 0, 3000, 2);
    fray_sim_counts *b = sim(strong, 1, 0, 3000, 2);
    int bk = fray_towers_setup_combatant_side(s, 1);
    cr_expect_gt(b->wins[bk], a->wins[bk] + 300, "%d vs %d",
                 (int)b->wins[bk], (int)a->wins[bk]);
    free(a);
    free(b);
    fray_towers_setup_free(weak);
    fray_towers_setup_free(strong);
    fray_towers_setup_free(s);
}

/* Issue 4 sections 2 and 5: the report of a real sweep (what `fray sim
 * --vary ... --report` writes) is well-formed SVG and HTML, and names the
 * varied key, the sides and the charts. */
Test(sim, report_of_a_real_sweep_is_well_formed) {
    fray_towers_setup *s = tf_load_example("duel.yaml");
    const char *values[] = {"2", "3", "4"};
    fray_towers_setup *v[3];
    fray_sim_counts *c[3];
    fray_sim_variant rv[3];
    char labels[3][64];
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(fray_towers_setup_copy(s, NULL, &v[i]), FRAY_OK);
        cr_assert_eq(vary(v[i], "black-knight.PA", values[i], NULL), FRAY_OK);
        c[i] = sim(v[i], 1, 0, 600, 2);
        snprintf(labels[i], sizeof labels[i], "black-knight.PA=%s", values[i]);
        rv[i].label = labels[i];
        rv[i].value = values[i];
        rv[i].counts = c[i];
    }
    fray_sim_report r;
    memset(&r, 0, sizeof r);
    r.title = fray_towers_setup_name(s);
    r.setup = s;
    r.seed = 1;
    r.vary_key = "black-knight.PA";
    r.n_variants = 3;
    r.variants = rv;
    for (int html = 0; html < 2; html++) {
        size_t n = html ? fray_sim_report_html(&r, NULL, 0)
                        : fray_sim_report_svg(&r, NULL, 0);
        char *buf = malloc(n + 1);
        cr_assert(buf);
        if (html)
            fray_sim_report_html(&r, buf, n + 1);
        else
            fray_sim_report_svg(&r, buf, n + 1);
        char err[256] = "";
        cr_expect(xml_check(buf, n, html, err, sizeof err), "%s: %s",
                  html ? "html" : "svg", err);
        cr_expect(strstr(buf, "black-knight.PA"));
        cr_expect(strstr(buf, "The Black Knight"));
        cr_expect(strstr(buf, "Who wins"));
        free(buf);
    }
    for (int i = 0; i < 3; i++) {
        free(c[i]);
        fray_towers_setup_free(v[i]);
    }
    fray_towers_setup_free(s);
}

/* Issue 4 section 1 (sweeps): armor.ER changes the catalog row and, by the
 * same difference, every combatant wearing the piece (docs/file-formats.md
 * "Sweeps"); a combatant without it keeps its armor. */
Test(sim, vary_armor_piece) {
    fray_towers_setup *s = tf_load_example("skirmish.yaml");
    int before[FT_MAX_COMBATANTS], row = -1;
    for (int i = 0; i < s->s.n_combatants; i++)
        before[i] = s->s.c[i].sb.armor.er;
    for (int a = 0; a < s->s.n_armor; a++)
        if (strcmp(s->s.armor_catalog[a].name, "Leather") == 0)
            row = a;
    cr_assert_geq(row, 0);
    int old = s->s.armor_catalog[row].er;
    cr_assert_eq(vary(s, "leather.ER", "4", NULL), FRAY_OK);
    cr_expect_eq(s->s.armor_catalog[row].er, 4);
    int wearing = 0;
    for (int i = 0; i < s->s.n_combatants; i++) {
        const ft_statblock *sb = &s->s.c[i].sb;
        bool leather = sb->has_armor && strstr(sb->armor.name, "Leather");
        cr_expect_eq(sb->armor.er, before[i] + (leather ? 4 - old : 0), "%s",
                     s->s.c[i].id);
        wearing += leather;
    }
    cr_expect_geq(wearing, 2, "Tony and Cutter wear leather");
    char msg[256];
    cr_expect_eq(vary(s, "leather.weight", "3", msg), FRAY_ERR_PARSE);
    cr_expect(strstr(msg, "'weight'"), "%s", msg);
    fray_towers_setup_free(s);
}
