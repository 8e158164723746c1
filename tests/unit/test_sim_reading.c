/*
 * test_sim_reading.c - reading a simulation (issue 15, section 3): the one
 * rounding of shares that the text and the report share
 * (fray_sim_share_percent, fray_sim_percent), "did you mean" for a sweep's
 * unknown key (src/encounter/suggest.c, both rulesets), whom a key
 * changes (fray_setup_vary_scope), how each combatant ends
 * (standing, unconscious, dying, dead, fled: 000 "STUN Damage", "LETHAL
 * Damage"; RULINGS 16, 17), and that a small simulation returns without
 * waiting for the progress tick.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fray/fight.h"
#include "fray/sim.h"
#include "suggest.h"
#include "towers_fixture.h"

/* ---- One rounding ------------------------------------------------------------ */

static const char *share_pct(uint64_t k, uint64_t n, int dec) {
    static char buf[32];
    return fray_sim_share_percent(k, n, dec, buf, sizeof buf);
}

static const char *pct(double v, int dec) {
    static char buf[32];
    return fray_sim_percent(v, dec, buf, sizeof buf);
}

/* A share near 1 is never "100.0%" unless it is exactly 1; near 0 never
 * "0.0%" unless it is exactly 0 (issue 15: "> 99.99%", not "100.00%"). */
Test(sim_reading, share_near_one_or_zero_is_marked) {
    cr_expect_str_eq(share_pct(20000, 20000, 1), "100.0%");
    cr_expect_str_eq(share_pct(0, 20000, 1), "0.0%");
    cr_expect_str_eq(share_pct(19999, 20000, 1), "> 99.9%");
    cr_expect_str_eq(share_pct(1, 20000, 1), "< 0.1%");
    cr_expect_str_eq(share_pct(999999, 1000000, 2), "> 99.99%");
    cr_expect_str_eq(share_pct(1, 1000000, 2), "< 0.01%");
    cr_expect_str_eq(share_pct(1000000, 1000000, 2), "100.00%");
    cr_expect_str_eq(share_pct(0, 1000000, 2), "0.00%");
    /* 99.95% is "> 99.9%" with one decimal, "99.95%" with two */
    cr_expect_str_eq(share_pct(19990, 20000, 1), "> 99.9%");
    cr_expect_str_eq(share_pct(19990, 20000, 2), "99.95%");
    cr_expect_str_eq(share_pct(0, 0, 1), "0.0%", "no trials: 0");
    cr_expect_str_eq(share_pct(3, 4, 0), "75%");
}

/* Exact from the integers, a half up: 217 of 2000 is 10.85%, "10.9%"
 * (printf's "%.1f" of the double 10.85 gives "10.8"); 113 of 400 is
 * 28.25%, "28.3%". */
Test(sim_reading, share_rounds_a_half_up_exactly) {
    cr_expect_str_eq(share_pct(217, 2000, 1), "10.9%");
    cr_expect_str_eq(share_pct(113, 400, 1), "28.3%");
    cr_expect_str_eq(share_pct(1, 3, 1), "33.3%");
    cr_expect_str_eq(share_pct(2, 3, 1), "66.7%");
    cr_expect_str_eq(share_pct(1, 8, 2), "12.50%");
    cr_expect_str_eq(share_pct(1, 16, 1), "6.3%");
    /* past the integers' room the double is used, still marked */
    cr_expect_str_eq(share_pct(UINT64_MAX - 1, UINT64_MAX, 1), "> 99.9%");
}

/* The double's form (interval ends): the same marks; exactly 0 and 1
 * only for 0 and 1; outside 0..1 and NaN clamp. */
Test(sim_reading, percent_of_a_double) {
    cr_expect_str_eq(pct(1.0, 1), "100.0%");
    cr_expect_str_eq(pct(0.0, 1), "0.0%");
    cr_expect_str_eq(pct(0.99999, 1), "> 99.9%");
    cr_expect_str_eq(pct(1e-9, 1), "< 0.1%");
    cr_expect_str_eq(pct(0.2525, 2), "25.25%");
    cr_expect_str_eq(pct(0.5, 0), "50%");
    cr_expect_str_eq(pct(NAN, 1), "0.0%");
    cr_expect_str_eq(pct(1.5, 1), "100.0%");
    cr_expect_str_eq(pct(-0.5, 1), "0.0%");
    char small[4];
    fray_sim_percent(0.5, 1, small, sizeof small);
    cr_expect_str_eq(small, "50.", "cut at size - 1 characters");
}

/* ---- Did you mean ------------------------------------------------------------- */

static const char *nearest(const char *word, const char *const *names, int n) {
    static fray__near near;
    fray__near_init(&near, word);
    for (int i = 0; i < n; i++)
        fray__near_try(&near, names[i]);
    return fray__near_best(&near);
}

Test(sim_reading, did_you_mean_by_edit_distance) {
    static const char *const keys[] = {"aldric.PA", "aldric.SA", "black-knight.PA",
                                       "Longblade.damage", "options.hand-of-fate"};
    cr_expect_eq(fray__near_distance("aldrc.PA", "aldric.PA"), 1);
    cr_expect_eq(fray__near_distance("kitten", "sitting"), 3);
    cr_expect_eq(fray__near_distance("Black Knight.pa", "black-knight.PA"), 0,
                 "without case, a space as a hyphen");
    cr_expect_str_eq(nearest("aldrc.PA", keys, 5), "aldric.PA");
    cr_expect_str_eq(nearest("longblade.damag", keys, 5), "Longblade.damage");
    cr_expect_str_eq(nearest("options.hand-of-fat", keys, 5),
                     "options.hand-of-fate");
    cr_expect_null(nearest("aldric.PA", keys, 5), "the key itself is no hint");
    cr_expect_null(nearest("nobody.XP", keys, 5), "nothing near");
    static const char *const short_names[] = {"PA", "SA"};
    cr_expect_null(nearest("PX", short_names, 2),
                   "one edit of two letters is too far to guess");
    char long_word[200];
    memset(long_word, 'a', sizeof long_word - 1);
    long_word[sizeof long_word - 1] = '\0';
    cr_expect_null(nearest(long_word, keys, 5));
    cr_expect_eq(fray__near_distance(long_word, "a"), -1);
}

static fray_setup *load(const char *rel) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, rel);
    fray_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_setup_load(path, NULL, &s, &d), FRAY_OK, "%s: %s", rel,
                 d.message);
    return s;
}

/* The setup's error for key=value, which must be refused. */
static const char *vary_error(fray_setup *s, const char *key,
                              const char *value) {
    static fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_neq(fray_setup_vary(s, key, value, &d), FRAY_OK, "%s taken", key);
    return d.message;
}

/* 99 Towers: an unknown combatant, field, weapon field or option gets
 * the nearest key there is; a value out of range gets none. */
Test(sim_reading, towers_unknown_key_did_you_mean) {
    fray_setup *s = load("examples/towers/duel.yaml");
    cr_expect(strstr(vary_error(s, "aldrc.PA", "3"), "(did you mean 'aldric.PA'?)"));
    cr_expect(strstr(vary_error(s, "longblade.damag", "5"),
                     "(did you mean 'Longblade.damage'?)"));
    cr_expect(strstr(vary_error(s, "options.hand-of-fat", "1"),
                     "(did you mean 'options.hand-of-fate'?)"));
    cr_expect(strstr(vary_error(s, "hand-of-fat", "1"),
                     "(did you mean 'hand-of-fate'?)"));
    const char *far = vary_error(s, "nobody.PA", "3");
    cr_expect(strstr(far, "names no combatant") && !strstr(far, "did you mean"),
              "%s", far);
    const char *range = vary_error(s, "aldric.PA", "31");
    cr_expect(!strstr(range, "did you mean"), "%s", range);
    fray_setup_free(s);
}

/* Alloy: the same over its keys (options, round-limit, WHO.STAT). */
Test(sim_reading, alloy_unknown_key_did_you_mean) {
    fray_setup *s = load("examples/alloy/duel.yaml");
    cr_expect(strstr(vary_error(s, "vance.PA", "3"), "(did you mean 'vance.hp'?)"));
    cr_expect(strstr(vary_error(s, "vanse.hp", "30"), "(did you mean 'vance.hp'?)"));
    cr_expect(strstr(vary_error(s, "round-limt", "5"),
                     "(did you mean 'round-limit'?)"));
    cr_expect(strstr(vary_error(s, "lyra.defence", "15"),
                     "(did you mean 'lyra.defense'?)"));
    const char *range = vary_error(s, "vance.hp", "0");
    cr_expect(!strstr(range, "did you mean"), "%s", range);
    fray_setup_free(s);
}

static const char *scope(fray_setup *s, const char *key) {
    static char buf[256];
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_setup_vary_scope(s, key, buf, sizeof buf, &d), FRAY_OK,
                 "%s: %s", key, d.message);
    return buf;
}

/* A sweep says whom a key changes. */
Test(sim_reading, whom_a_key_changes) {
    fray_setup *s = load("examples/towers/duel.yaml");
    cr_expect_str_eq(scope(s, "longblade.damage"),
                     "every combatant carrying a longblade: Sir Aldric, The "
                     "Black Knight");
    cr_expect_str_eq(scope(s, "aldric.PA"), "the combatant Sir Aldric");
    cr_expect_str_eq(scope(s, "options.hand-of-fate"),
                     "the whole encounter (an option)");
    cr_expect_str_eq(scope(s, "hand-of-fate"), "the whole encounter (an option)");
    char buf[64];
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_expect_eq(fray_setup_vary_scope(s, "aldrc.PA", buf, sizeof buf, &d),
                 FRAY_ERR_PARSE);
    cr_expect(strstr(d.message, "did you mean 'aldric.PA'"), "%s", d.message);
    fray_setup_free(s);

    s = load("examples/towers/reinforcements.yaml");
    cr_expect_str_eq(scope(s, "bandit.PA"),
                     "every combatant of the group bandit: Bandit 1, Bandit 2");
    fray_setup_free(s);

    s = load("examples/alloy/skirmish.yaml");
    cr_expect_str_eq(scope(s, "thug.hp"),
                     "every combatant of the group thug: Thug 1, Thug 2, Thug 3");
    cr_expect_str_eq(scope(s, "round-limit"),
                     "the whole encounter (the round limit)");
    fray_setup_free(s);
}

/* ---- How each combatant ends -------------------------------------------------- */

static void gm(fray_towers_fight *f, const char *text) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_towers_fight_command(f, text, NULL, 0, &d), FRAY_OK,
                 "%s: %s", text, d.message);
}

static fray_sim_combatant_counts counted(const fray_towers_fight *f, int i) {
    fray_sim_counts *c = calloc(1, sizeof *c);
    cr_assert_not_null(c);
    ft_rf_count(f, c);
    fray_sim_combatant_counts cc = c->c[i];
    free(c);
    return cc;
}

static int state_of(const fray_towers_fight *f, int i) {
    fray_sim_combatant_counts cc = counted(f, i);
    int found = -1, n = 0;
    for (int k = 0; k < FRAY_SIM_STATES; k++)
        if (fray_sim_state_count(&cc, k)) {
            found = k;
            n++;
        }
    cr_assert_eq(n, 1, "exactly one way to end a fight");
    return found;
}

/* 000 "STUN Damage": 0 STUN is unconscious; "LETHAL Damage" and RULINGS
 * 16, 17: 0 LETHAL is unconscious (disabled-unconscious), below 0 dying,
 * at -2 x [[E]] dead; a combatant still to join is off the map (fled).
 * examples/towers/reinforcements.yaml: Tony (0), Bandit 1 (1), Bandit 2
 * (2, joins later); a Bandit has [[E]] 2: STUN 16, LETHAL 10. */
/* Bandit 1's state after one GM command in a fresh fight. */
static int bandit_after(const fray_towers_setup *s, const char *command) {
    fray_towers_fight *f = tf_fight(s, 3);
    gm(f, command);
    int k = state_of(f, 1);
    fray_towers_fight_free(f);
    return k;
}

Test(sim_reading, towers_each_way_a_combatant_ends) {
    fray_towers_setup *s = tf_load_example("reinforcements.yaml");
    fray_towers_fight *f = tf_fight(s, 3);
    cr_expect_eq(state_of(f, 0), FRAY_SIM_STANDING);
    cr_expect_eq(state_of(f, 1), FRAY_SIM_STANDING);
    cr_expect_eq(state_of(f, 2), FRAY_SIM_FLED, "not yet joined: off the map");
    fray_towers_fight_free(f);
    cr_expect_eq(bandit_after(s, "gm set bandit-1 stun 1"), FRAY_SIM_STANDING);
    cr_expect_eq(bandit_after(s, "gm set bandit-1 stun 0"), FRAY_SIM_UNCONSCIOUS,
                 "0 STUN");
    cr_expect_eq(bandit_after(s, "gm set bandit-1 lethal 0"),
                 FRAY_SIM_UNCONSCIOUS, "0 LETHAL, disabled-unconscious on");
    cr_expect_eq(bandit_after(s, "gm set bandit-1 lethal -1"), FRAY_SIM_DYING,
                 "LETHAL below 0");
    cr_expect_eq(bandit_after(s, "gm set bandit-1 lethal -3"), FRAY_SIM_DYING,
                 "above -2 x [[E]]");
    cr_expect_eq(bandit_after(s, "gm set bandit-1 lethal -4"), FRAY_SIM_DEAD,
                 "-2 x [[E]]");
    fray_towers_setup_free(s);
}

/* Over a whole simulation the five shares add up to every fight, for
 * both rulesets, and the words have their ruleset's meanings. */
Test(sim_reading, states_add_up_to_the_trials) {
    static const char *const files[] = {"examples/towers/skirmish.yaml",
                                        "examples/towers/brawl.yaml",
                                        "examples/alloy/skirmish.yaml",
                                        "examples/alloy/reinforcements.yaml"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        fray_setup *s = load(files[f]);
        fray_sim_options o;
        memset(&o, 0, sizeof o);
        o.seed = 5;
        o.trials = 200;
        o.threads = 2;
        fray_sim_counts *c = calloc(1, sizeof *c);
        cr_assert_eq(fray_sim(s, &o, NULL, c), FRAY_OK, "%s", files[f]);
        uint64_t fell = 0;
        for (int i = 0; i < fray_setup_combatants(s); i++) {
            uint64_t sum = 0;
            for (int k = 0; k < FRAY_SIM_STATES; k++)
                sum += fray_sim_state_count(&c->c[i], k);
            cr_expect_eq(sum, c->trials, "%s: combatant %d", files[f], i);
            fell += c->c[i].unconscious + c->c[i].dying + c->c[i].dead;
        }
        cr_expect_gt(fell, 0, "%s: somebody fell", files[f]);
        bool alloy = strstr(files[f], "alloy") != NULL;
        cr_expect(strstr(fray_sim_state_meaning(s, FRAY_SIM_DYING),
                         alloy ? "hit points" : "LETHAL below 0"));
        free(c);
        fray_setup_free(s);
    }
    cr_expect_str_eq(fray_sim_state_name(FRAY_SIM_UNCONSCIOUS), "unconscious");
    cr_expect_null(fray_sim_state_name(FRAY_SIM_STATES));
    cr_expect_str_eq(fray_sim_state_meaning(NULL, FRAY_SIM_DEAD), "dead");
}

/* ---- A small simulation returns at once --------------------------------------- */

static bool go_on(void *ctx, uint64_t done, uint64_t total) {
    (void)done;
    (void)total;
    ++*(int *)ctx;
    return true;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Issue 15: `-n 100` waited for the progress check's 100 ms sleep; the
 * watcher now wakes when the last worker is done. 20 small simulations
 * with a progress callback take far less than 20 ticks. */
Test(sim_reading, small_simulation_returns_when_done) {
    fray_setup *s = load("examples/towers/first-blood.yaml");
    fray_sim_counts *c = calloc(1, sizeof *c);
    int calls = 0;
    double t0 = now_s();
    for (int i = 0; i < 20; i++) {
        fray_sim_options o;
        memset(&o, 0, sizeof o);
        o.seed = 7;
        o.trials = 10;
        o.threads = 2;
        o.progress = go_on;
        o.progress_ctx = &calls;
        cr_assert_eq(fray_sim(s, &o, NULL, c), FRAY_OK);
        cr_assert_eq(c->trials, 10);
    }
    double took = now_s() - t0;
    cr_expect_lt(took, 1.0, "20 small simulations took %.3f s (2 s with a "
                            "100 ms tick each)", took);
    cr_expect_geq(calls, 20, "the last report still comes");
    free(c);
    fray_setup_free(s);
}

/* ---- The report of a sweep over two keys ----------------------------------------- */

#include "fray/report.h"
#include "xml_check.h"

static int occurrences(const char *doc, const char *what) {
    int n = 0;
    for (const char *p = strstr(doc, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* Issue 15: a sweep over two keys reads as a grid: a heat map per side
 * in the SVG and the HTML page, its title and axes naming both keys, a
 * table of it; the page says whom each key changes; the page is
 * well-formed and its tables scroll inside their box. */
Test(sim_reading, two_key_report_has_heat_maps) {
    fray_setup *base = load("examples/towers/duel.yaml");
    static const char *const pa[] = {"2", "3", "4"}, *const dmg[] = {"4", "6"};
    enum { N1 = 3, N2 = 2 };
    fray_setup *vs[N1 * N2];
    fray_sim_counts *counts[N1 * N2];
    fray_sim_variant var[N1 * N2];
    char labels[N1 * N2][64];
    for (int a = 0; a < N1; a++)
        for (int d = 0; d < N2; d++) {
            int j = a * N2 + d;
            fray_diag dg;
            memset(&dg, 0, sizeof dg);
            cr_assert_eq(fray_setup_copy(base, NULL, &vs[j]), FRAY_OK);
            cr_assert_eq(fray_setup_vary(vs[j], "aldric.PA", pa[a], &dg), FRAY_OK);
            cr_assert_eq(fray_setup_vary(vs[j], "longblade.damage", dmg[d], &dg),
                         FRAY_OK);
            counts[j] = calloc(1, sizeof *counts[j]);
            fray_sim_options o;
            memset(&o, 0, sizeof o);
            o.seed = 7;
            o.trials = 50;
            o.threads = 1;
            cr_assert_eq(fray_sim(vs[j], &o, NULL, counts[j]), FRAY_OK);
            snprintf(labels[j], sizeof labels[j],
                     "aldric.PA=%s, longblade.damage=%s", pa[a], dmg[d]);
            var[j].label = labels[j];
            var[j].value = pa[a];
            var[j].value2 = dmg[d];
            var[j].counts = counts[j];
        }
    char scope1[128], scope2[128];
    fray_diag dg;
    memset(&dg, 0, sizeof dg);
    cr_assert_eq(fray_setup_vary_scope(base, "aldric.PA", scope1, sizeof scope1, &dg),
                 FRAY_OK);
    cr_assert_eq(fray_setup_vary_scope(base, "longblade.damage", scope2,
                                       sizeof scope2, &dg),
                 FRAY_OK);
    fray_sim_report r;
    memset(&r, 0, sizeof r);
    r.title = "Duel at the Bridge";
    r.rules_setup = vs[0];
    r.seed = 7;
    r.vary_key = "aldric.PA";
    r.vary_key2 = "longblade.damage";
    r.n_values2 = N2;
    r.vary_scope = scope1;
    r.vary_scope2 = scope2;
    r.n_variants = N1 * N2;
    r.variants = var;
    for (int html = 0; html < 2; html++) {
        size_t n = html ? fray_sim_report_html(&r, NULL, 0)
                        : fray_sim_report_svg(&r, NULL, 0);
        char *doc = malloc(n + 1);
        cr_assert_eq(html ? fray_sim_report_html(&r, doc, n + 1)
                          : fray_sim_report_svg(&r, doc, n + 1),
                     n);
        char err[256];
        cr_assert(xml_check(doc, n, html, err, sizeof err), "%s", err);
        /* a cell per side and variant, two sides */
        cr_expect_eq(occurrences(doc, "class=\"heat-cell\""), 2 * N1 * N2);
        cr_expect_eq(occurrences(doc, "class=\"heatmap\""), 2);
        cr_expect(strstr(doc, "Win rate of Sir Aldric by aldric.PA and "
                              "longblade.damage"));
        cr_expect(strstr(doc, "Win rate of The Black Knight by aldric.PA and "
                              "longblade.damage"));
        cr_expect(strstr(doc, "varied: aldric.PA and longblade.damage"));
        cr_expect(strstr(doc, "Win rate by aldric.PA and longblade.damage"));
        if (html) {
            cr_expect(strstr(doc, "<h2>The sweep</h2>"));
            cr_expect(strstr(doc, "every combatant carrying a longblade: Sir "
                                  "Aldric, The Black Knight"));
            cr_expect_eq(occurrences(doc, "<table class=\"grid\">"), 2);
            /* every table inside a box that scrolls, none wider than it */
            cr_expect_eq(occurrences(doc, "<table"),
                         occurrences(doc, "<div class=\"scroll\"><table"));
            cr_expect(strstr(doc, ".scroll{overflow-x:auto;max-width:100%}"));
            /* how each combatant ends apart from its means per fight, so
             * that neither table is wider than the page; intervals under
             * the shares */
            cr_expect_eq(occurrences(doc, "<table class=\"states\">"), N1 * N2);
            cr_expect_eq(occurrences(doc, "<table class=\"means\">"), N1 * N2);
            cr_expect(strstr(doc, ".ci{color:#777;font-size:0.9em;display:block}"));
            /* the legend of how each combatant ends */
            cr_expect(strstr(doc, "<dt>dying</dt><dd>LETHAL below 0, not dead</dd>"));
        }
        /* the cell of aldric.PA=4, longblade.damage=6: variant 2 * 2 + 1 */
        char want[160];
        char share[32];
        fray_sim_share_percent(counts[5]->wins[0], counts[5]->trials, 1, share,
                               sizeof share);
        snprintf(want, sizeof want,
                 "aldric.PA=4, longblade.damage=6: Sir Aldric won %s of fights",
                 share);
        cr_expect(strstr(doc, want), "no cell says '%s'", want);
        free(doc);
    }
    for (int j = 0; j < N1 * N2; j++) {
        free(counts[j]);
        fray_setup_free(vs[j]);
    }
    fray_setup_free(base);
}

/* One key: no heat map, no grid table. */
Test(sim_reading, one_key_report_has_no_heat_map) {
    fray_setup *base = load("examples/towers/duel.yaml");
    fray_sim_counts *c = calloc(2, sizeof *c);
    c[0].trials = c[1].trials = 10;
    c[0].wins[0] = 3;
    c[1].wins[0] = 7;
    fray_sim_variant var[2] = {{"aldric.PA=2", "2", &c[0], NULL},
                               {"aldric.PA=3", "3", &c[1], NULL}};
    fray_sim_report r;
    memset(&r, 0, sizeof r);
    r.rules_setup = base;
    r.vary_key = "aldric.PA";
    r.n_variants = 2;
    r.variants = var;
    size_t n = fray_sim_report_html(&r, NULL, 0);
    char *doc = malloc(n + 1);
    cr_assert_eq(fray_sim_report_html(&r, doc, n + 1), n);
    cr_expect_eq(occurrences(doc, "class=\"heat-cell\""), 0);
    cr_expect_eq(occurrences(doc, "<table class=\"grid\">"), 0);
    free(doc);
    free(c);
    fray_setup_free(base);
}
