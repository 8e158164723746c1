/*
 * test_sim_report.c - the simulation report drawn by fray itself
 * (include/fray/report.h; issue 4 section 2 "--report FILE.svg (or .html):
 * charts drawn by fray itself", section 5 "the report files are
 * well-formed SVG/HTML").
 *
 * The counts are built by hand (a simulation's result is only integers),
 * on the setup of examples/towers/duel.yaml for the names: sides "Sir
 * Aldric" and "The Black Knight", one combatant each.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/report.h"
#include "towers_fixture.h"
#include "xml_check.h"

/* ---- Counts made by hand ------------------------------------------------- */

/* A two-side result of `trials` fights: side 0 wins w0, side 1 wins w1,
 * all_out with every side out, the rest stopped by the phase limit.
 * Lengths spread over lo..hi in a hump; combatant 0 is on side 0 and
 * combatant 1 on side 1; the loser of a fight is dead in two fights of
 * three. */
static fray_sim_counts *fake(uint64_t trials, uint64_t w0, uint64_t w1,
                             uint64_t all_out, int lo, int hi) {
    fray_sim_counts *c = calloc(1, sizeof *c);
    cr_assert_not_null(c);
    c->trials = trials;
    c->wins[0] = w0;
    c->wins[1] = w1;
    c->all_out = all_out;
    c->unfinished = trials - w0 - w1 - all_out;
    int range = hi - lo + 1;
    for (uint64_t t = 0; t < trials; t++) {
        int L = lo + (int)(((t * 37) % (uint64_t)range + (t * 53) % (uint64_t)range) / 2);
        c->length[L]++;
        c->length_sum += (uint64_t)L;
        c->length_sq_sum += (uint64_t)L * (uint64_t)L;
    }
    c->c[0].standing = w0;
    c->c[0].dead = w1 * 2 / 3;
    c->c[1].standing = w1;
    c->c[1].dead = w0 * 2 / 3;
    for (int i = 0; i < 2; i++) {
        c->c[i].stun_dealt = trials * (uint64_t)(12 + i);
        c->c[i].stun_taken = trials * (uint64_t)(13 - i);
        c->c[i].lethal_dealt = trials * 3;
        c->c[i].lethal_taken = trials * 3;
        c->c[i].by_kind[FT_ACT_ATTACK] = trials * 5;
        c->c[i].actions = trials * 5;
    }
    c->c[1].by_kind[FT_ACT_POWER_ATTACK] = trials * 2;
    c->c[1].actions += trials * 2;
    c->c[0].fate_cards = trials / 2;
    return c;
}

typedef struct rep {
    fray_towers_setup *setup;
    fray_sim_counts *counts[8];
    fray_sim_variant v[8];
    fray_sim_report r;
} rep;

/* One run of the duel, no sweep. */
static rep *rep_single(void) {
    rep *p = calloc(1, sizeof *p);
    p->setup = tf_load_example("duel.yaml");
    p->counts[0] = fake(1000, 600, 350, 30, 3, 180);
    p->v[0].label = "";
    p->v[0].value = "";
    p->v[0].counts = p->counts[0];
    p->r.title = "Duel at the Bridge";
    p->r.setup = p->setup;
    p->r.seed = 1187;
    p->r.seconds = 1.25;
    p->r.n_variants = 1;
    p->r.variants = p->v;
    return p;
}

/* A sweep of n variants with the given values (and labels "KEY=value"). */
static rep *rep_sweep(const char *key, int n, const char *const *values,
                      const char *const *labels) {
    rep *p = rep_single();
    free(p->counts[0]);
    for (int i = 0; i < n; i++) {
        p->counts[i] = fake(400, (uint64_t)(100 + 50 * i), (uint64_t)(280 - 50 * i),
                            10, 5 + i, 40 + 10 * i);
        p->v[i].label = labels[i];
        p->v[i].value = values[i];
        p->v[i].counts = p->counts[i];
    }
    p->r.vary_key = key;
    p->r.n_variants = n;
    return p;
}

static void rep_free(rep *p) {
    for (int i = 0; i < 8; i++)
        free(p->counts[i]);
    fray_towers_setup_free(p->setup);
    free(p);
}

/* The whole SVG (html false) or HTML page, malloc'd; checks that the
 * length asked for is the length written. */
static char *render(const fray_sim_report *r, bool html) {
    size_t n = html ? fray_sim_report_html(r, NULL, 0)
                    : fray_sim_report_svg(r, NULL, 0);
    char *buf = malloc(n + 1);
    cr_assert_not_null(buf);
    size_t m = html ? fray_sim_report_html(r, buf, n + 1)
                    : fray_sim_report_svg(r, buf, n + 1);
    cr_assert_eq(m, n);
    cr_assert_eq(strlen(buf), n);
    return buf;
}

static void assert_xml(const char *doc, size_t n, bool html, const char *what) {
    char err[256];
    cr_assert(xml_check(doc, n, html, err, sizeof err), "%s: %s", what, err);
}

/* The inline <svg>...</svg> of an HTML page, checked as XML on its own. */
static void assert_inline_svg(const char *html) {
    const char *a = strstr(html, "<svg ");
    const char *b = strstr(html, "</svg>");
    cr_assert(a && b && a < b, "the page holds one <svg> element");
    assert_xml(a, (size_t)(b + 6 - a), false, "the page's inline SVG");
    cr_assert_null(strstr(b + 6, "<svg "), "only one inline SVG");
}

/* The numeric attribute `attr` of the n-th (0-based) tag whose text holds
 * `marker` (class="win-bar"); NAN when there is no such tag. */
static double attr_of(const char *doc, const char *marker, int nth,
                      const char *attr) {
    const char *p = doc;
    for (int i = 0; i <= nth; i++) {
        p = strstr(p, marker);
        if (!p)
            return NAN;
        if (i < nth)
            p += strlen(marker);
    }
    const char *start = p;
    while (start > doc && *start != '<')
        start--;
    const char *end = strchr(p, '>');
    char key[32];
    snprintf(key, sizeof key, " %s=\"", attr);
    const char *a = strstr(start, key);
    if (!a || a > end)
        return NAN;
    return strtod(a + strlen(key), NULL);
}

static int count_of(const char *doc, const char *s) {
    int n = 0;
    for (const char *p = strstr(doc, s); p; p = strstr(p + 1, s))
        n++;
    return n;
}

/* ---- The snprintf contract ----------------------------------------------- */

/* report.h: "returns the length needed; writes at most size bytes, NUL
 * included". */
Test(sim_report, snprintf_contract) {
    static const char *const vals[] = {"1", "2", "3"};
    static const char *const labels[] = {"bandit.PA=1", "bandit.PA=2", "bandit.PA=3"};
    rep *ps[2] = {rep_single(), rep_sweep("bandit.PA", 3, vals, labels)};
    for (int k = 0; k < 2; k++)
        for (int html = 0; html < 2; html++) {
            const fray_sim_report *r = &ps[k]->r;
            size_t n = html ? fray_sim_report_html(r, NULL, 0)
                            : fray_sim_report_svg(r, NULL, 0);
            char *full = render(r, html);
            cr_assert_eq(strlen(full), n);
            size_t sizes[] = {1, 2, 100, n / 2, n, n + 1, n + 50};
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                size_t size = sizes[s];
                char *buf = malloc(size + 8);
                memset(buf, 'X', size + 8);
                size_t m = html ? fray_sim_report_html(r, buf, size)
                                : fray_sim_report_svg(r, buf, size);
                cr_assert_eq(m, n, "the length needed does not depend on size");
                size_t want = size - 1 < n ? size - 1 : n;
                cr_assert_eq(strlen(buf), want, "size %zu: NUL-terminated", size);
                cr_assert_eq(memcmp(buf, full, want), 0, "a prefix of the whole");
                cr_assert_eq(buf[size], 'X', "nothing written past size");
                free(buf);
            }
            /* size 0 writes nothing, even through a real pointer. */
            char one = 'X';
            cr_assert_eq(html ? fray_sim_report_html(r, &one, 0)
                              : fray_sim_report_svg(r, &one, 0), n);
            cr_assert_eq(one, 'X');
            free(full);
        }
    rep_free(ps[0]);
    rep_free(ps[1]);
}

/* ---- Well-formed documents ------------------------------------------------- */

/* The checker itself refuses what it must (issue 4 section 5: a test of
 * well-formedness that could not fail would prove nothing). */
Test(sim_report, xml_checker_refuses_bad_documents) {
    static const char *const bad[] = {
        "<svg><g></svg>",               /* not closed */
        "<svg><g></svg></g>",           /* bad nesting */
        "<svg x=1></svg>",              /* no quotes */
        "<svg x=\"1\" x=\"2\"></svg>",  /* twice */
        "<svg>a < b</svg>",             /* stray '<' */
        "<svg>R&D</svg>",               /* stray '&' */
        "<svg>&nbsp;</svg>",            /* not a predefined entity */
        "<svg title=\"<\"></svg>",      /* '<' in a value */
        "<svg></svg><svg></svg>",       /* two roots */
        "<meta charset=\"utf-8\">",     /* not closed (XML) */
        "text",                         /* no root */
    };
    char err[256];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_not(xml_check(bad[i], strlen(bad[i]), false, err, sizeof err),
                      "%s", bad[i]);
    static const char *const good[] = {
        "<?xml version=\"1.0\"?>\n<svg a='1' b=\"&amp;&#39;&#x2013;\"><g/>x &lt; y</svg>\n",
        "<svg><!-- a <comment> & --><text>a &gt; b</text></svg>",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        cr_assert(xml_check(good[i], strlen(good[i]), false, err, sizeof err),
                  "%s: %s", good[i], err);
    const char *page = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
                       "</head><body>a<br>b</body></html>";
    cr_assert(xml_check(page, strlen(page), true, err, sizeof err), "%s", err);
    cr_assert_not(xml_check(page, strlen(page), false, err, sizeof err));
}

/* Every kind of report is well-formed SVG, and a well-formed page with
 * well-formed inline SVG (issue 4 section 5). */
Test(sim_report, well_formed_svg_and_html) {
    static const char *const nv[] = {"5", "1", "3"};
    static const char *const nl[] = {"bandit.PA=5", "bandit.PA=1", "bandit.PA=3"};
    static const char *const wv[] = {"attack", "power-attack", "defend"};
    static const char *const wl[] = {"aldric.tactics=attack",
                                     "aldric.tactics=power-attack",
                                     "aldric.tactics=defend"};
    /* Two keys varied: the first key's value repeats. */
    static const char *const gv[] = {"1", "1", "2", "2"};
    static const char *const gl[] = {"a.PA=1, b.PD=1", "a.PA=1, b.PD=2",
                                     "a.PA=2, b.PD=1", "a.PA=2, b.PD=2"};
    rep *ps[5] = {rep_single(), rep_sweep("bandit.PA", 3, nv, nl),
                  rep_sweep("aldric.tactics", 3, wv, wl),
                  rep_sweep("a.PA", 4, gv, gl), rep_single()};
    /* No trials at all, and a variant without counts. */
    memset(ps[4]->counts[0], 0, sizeof *ps[4]->counts[0]);
    ps[4]->v[0].counts = NULL;
    for (int k = 0; k < 5; k++) {
        char *svg = render(&ps[k]->r, false);
        assert_xml(svg, strlen(svg), false, "SVG");
        cr_assert(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
        cr_assert(strstr(svg, "<title>"));
        char *html = render(&ps[k]->r, true);
        cr_assert_eq(strncmp(html, "<!DOCTYPE html>", 15), 0);
        cr_assert(strstr(html, "<meta charset=\"utf-8\""));
        assert_xml(html, strlen(html), true, "HTML");
        assert_inline_svg(html);
        free(svg);
        free(html);
        rep_free(ps[k]);
    }
}

/* Without a setup the report still draws, with "side 1", "side 2". */
Test(sim_report, no_setup) {
    rep *p = rep_single();
    p->r.setup = NULL;
    char *svg = render(&p->r, false);
    assert_xml(svg, strlen(svg), false, "SVG");
    cr_assert(strstr(svg, ">side 1<") && strstr(svg, ">side 2<"));
    free(svg);
    rep_free(p);
}

/* ---- Escaping --------------------------------------------------------------- */

/* report.h: "Text from files (names, labels) is escaped" in both formats. */
Test(sim_report, names_from_files_are_escaped) {
    static const char *const wv[] = {"a<b", "c&d"};
    static const char *const wl[] = {"x.tactics=a<b", "x.tactics=c&d"};
    rep *p = rep_sweep("x.\"tactics\"", 2, wv, wl);
    snprintf(p->setup->s.c[0].name, sizeof p->setup->s.c[0].name,
             "Sir <&\"'> Al");
    snprintf(p->setup->s.sides[1], sizeof p->setup->s.sides[1], "The <b>Knight</b>");
    p->r.title = "Duel <at> the \"Bridge\" & 'river'";
    for (int html = 0; html < 2; html++) {
        char *doc = render(&p->r, html);
        assert_xml(doc, strlen(doc), html, html ? "HTML" : "SVG");
        if (html)
            assert_inline_svg(doc);
        cr_assert(strstr(doc, "Sir &lt;&amp;&quot;&#39;&gt; Al"));
        cr_assert(strstr(doc, "The &lt;b&gt;Knight&lt;/b&gt;"));
        cr_assert(strstr(doc, "Duel &lt;at&gt; the &quot;Bridge&quot; &amp; &#39;river&#39;"));
        cr_assert(strstr(doc, "x.tactics=a&lt;b"));
        cr_assert(strstr(doc, "x.&quot;tactics&quot;"));
        cr_assert_null(strstr(doc, "<&"));
        cr_assert_null(strstr(doc, "<b>"));
        free(doc);
    }
    rep_free(p);
}

/* ---- What the charts show -------------------------------------------------------- */

/* Issue 4 section 2: titles and axis labels in the rules' words, the side
 * names, the header's trials, seed and time. */
Test(sim_report, titles_labels_and_names) {
    rep *p = rep_single();
    char *svg = render(&p->r, false);
    const char *want[] = {
        ">Duel at the Bridge<", "1,000 trials", "seed 1187", "1.25 s",
        ">Who wins<", ">How long the fight lasts (phases)<",
        ">Who is still standing<", ">share of fights (%)<", ">phases<",
        ">share of fights<", ">Sir Aldric<", ">The Black Knight<", ">nobody<",
        "mean ", "median ", "still standing", "dead",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_assert(strstr(svg, want[i]), "the SVG shows %s", want[i]);
    cr_assert_null(strstr(svg, "Win rate by"), "no sweep chart without a sweep");
    free(svg);
    rep_free(p);
}

/* Who wins: one bar per side and one for nobody, each as wide as its share
 * of the fights (100% = the same width for all), with a 95% interval. */
Test(sim_report, win_bars_proportional) {
    rep *p = rep_single();
    char *svg = render(&p->r, false);
    cr_assert_eq(count_of(svg, "class=\"win-bar\""), 3);
    double w0 = attr_of(svg, "class=\"win-bar\"", 0, "width");
    double w1 = attr_of(svg, "class=\"win-bar\"", 1, "width");
    double wn = attr_of(svg, "class=\"win-bar\"", 2, "width");
    /* 600, 350 and 50 of 1000 fights: widths in the ratio 12 : 7 : 1. */
    cr_assert(fabs(w0 / 0.600 - w1 / 0.350) < 0.05, "%f %f", w0, w1);
    cr_assert(fabs(w0 / 0.600 - wn / 0.050) < 0.05, "%f %f", w0, wn);
    cr_assert(w0 > 100);
    /* The numbers and the interval (Wilson, 600 of 1000: 56.9%-63.0%). */
    cr_assert(strstr(svg, "60.0%"));
    cr_assert(strstr(svg, "(56.9&#8211;63.0)"), "the 95%% interval of 600/1000");
    cr_assert_eq(count_of(svg, "class=\"ci\""), 3, "a whisker per bar");
    free(svg);

    /* No draws and no phase limit: no "nobody" bar. */
    p->counts[0]->wins[1] += p->counts[0]->all_out + p->counts[0]->unfinished;
    p->counts[0]->all_out = p->counts[0]->unfinished = 0;
    svg = render(&p->r, false);
    cr_assert_eq(count_of(svg, "class=\"win-bar\""), 2);
    cr_assert_null(strstr(svg, ">nobody<"));
    free(svg);
    rep_free(p);
}

/* Who is still standing: per combatant a bar for still standing and one
 * for dead, as wide as their shares. */
Test(sim_report, standing_bars_proportional) {
    rep *p = rep_single();
    char *svg = render(&p->r, false);
    cr_assert_eq(count_of(svg, "class=\"standing-bar\""), 2);
    cr_assert_eq(count_of(svg, "class=\"dead-bar\""), 2);
    double full = attr_of(svg, "class=\"win-bar\"", 0, "width") / 0.6;
    double s0 = attr_of(svg, "class=\"standing-bar\"", 0, "width");
    double d1 = attr_of(svg, "class=\"dead-bar\"", 1, "width");
    cr_assert(fabs(s0 - full * 0.600) < 0.05, "%f", s0);
    cr_assert(fabs(d1 - full * 0.400) < 0.05, "%f", d1); /* 600*2/3 of 1000 */
    free(svg);
    rep_free(p);
}

/* The histogram of fight length: lengths 3..~175 in single phases would be
 * over 170 bars; grouped 5 phases a bar they are 35 (at most 40), each bar's
 * height in proportion to its share of fights. */
Test(sim_report, length_histogram) {
    rep *p = rep_single();
    char *svg = render(&p->r, false);
    int bars = count_of(svg, "class=\"length-bar\"");
    int longest = FRAY_SIM_LENGTH_BINS - 1;
    while (p->counts[0]->length[longest] == 0)
        longest--;
    cr_assert(longest > 150 && longest <= 180, "%d", longest);
    cr_assert_eq(bars, longest / 5 + 1, "%d bars", bars);
    cr_assert(strstr(svg, "5 phases per bar"));
    cr_assert(strstr(svg, "<title>0&#8211;4 phases: "));
    /* Height / share is the same for every bar. */
    const fray_sim_counts *c = p->counts[0];
    double ratio = -1;
    for (int b = 0; b < bars; b++) {
        uint64_t n = 0;
        for (int L = 5 * b; L < 5 * b + 5; L++)
            n += c->length[L];
        double share = 100.0 * (double)n / (double)c->trials;
        double h = attr_of(svg, "class=\"length-bar\"", b, "height");
        if (share == 0) {
            cr_assert(h < 0.01);
            continue;
        }
        if (ratio < 0)
            ratio = h / share;
        cr_assert(fabs(h / share - ratio) < 0.02 * ratio, "bar %d", b);
    }
    cr_assert_eq(count_of(svg, "class=\"mean-line\""), 1);
    cr_assert_eq(count_of(svg, "class=\"median-line\""), 1);
    char mean[32];
    snprintf(mean, sizeof mean, ">mean %.1f<",
             (double)c->length_sum / (double)c->trials);
    cr_assert(strstr(svg, mean), "%s", mean);
    free(svg);

    /* A few very long fights share the last bar instead of squeezing the
     * rest into a corner. */
    p->counts[0]->length[900] += 2;
    p->counts[0]->length[3] -= 2;
    svg = render(&p->r, false);
    bars = count_of(svg, "class=\"length-bar\"");
    cr_assert(bars <= 40, "%d bars", bars);
    cr_assert(strstr(svg, "phases or more"));
    assert_xml(svg, strlen(svg), false, "SVG");
    free(svg);
    rep_free(p);
}

/* A sweep over a number: "Win rate by bandit.PA", a line per side (and
 * nobody) through the variants in order of value, a point with whiskers
 * per variant, and the mean fight length per variant. */
Test(sim_report, numeric_sweep_line_chart) {
    static const char *const vals[] = {"5", "1", "3"};
    static const char *const labels[] = {"bandit.PA=5", "bandit.PA=1", "bandit.PA=3"};
    rep *p = rep_sweep("bandit.PA", 3, vals, labels);
    char *svg = render(&p->r, false);
    cr_assert(strstr(svg, ">Win rate by bandit.PA<"));
    cr_assert(strstr(svg, ">Mean fight length by bandit.PA<"));
    cr_assert(strstr(svg, ">win rate (%)<"));
    cr_assert(strstr(svg, ">bandit.PA<"), "the x axis is the varied key");
    cr_assert_eq(count_of(svg, "class=\"sweep-line\""), 3);
    cr_assert_eq(count_of(svg, "class=\"sweep-point\""), 9);
    cr_assert_eq(count_of(svg, "class=\"sweep-bar\""), 0);
    /* The line goes through the values in order: x increasing. */
    const char *pts = strstr(strstr(svg, "class=\"sweep-line\""), "points=\"");
    double x[3], y[3];
    cr_assert_eq(sscanf(pts, "points=\"%lf %lf %lf %lf %lf %lf", &x[0], &y[0],
                        &x[1], &y[1], &x[2], &y[2]), 6);
    cr_assert(x[0] < x[1] && x[1] < x[2]);
    /* Side 0 wins 100+50i of 400 in variant i: values 1, 3, 5 are variants
     * 1, 2, 0: 37.5%, 50%, 25%; higher share = smaller y. */
    cr_assert(y[1] < y[0] && y[0] < y[2]);
    /* Evenly spaced values 1, 3, 5: evenly spaced points. */
    cr_assert(fabs((x[1] - x[0]) - (x[2] - x[1])) < 0.2);
    /* Per variant, the who-wins rows are headed by the variant's label. */
    cr_assert(strstr(svg, ">bandit.PA=1<"));
    cr_assert_eq(count_of(svg, "class=\"win-bar\""), 9);
    cr_assert(strstr(svg, "3 variants"));
    free(svg);
    rep_free(p);
}

/* A sweep over words (tactics presets): grouped bars in the variants'
 * order, named by value under the x axis. */
Test(sim_report, word_sweep_grouped_bars) {
    static const char *const vals[] = {"attack", "power-attack", "defend"};
    static const char *const labels[] = {"aldric.tactics=attack",
                                         "aldric.tactics=power-attack",
                                         "aldric.tactics=defend"};
    rep *p = rep_sweep("aldric.tactics", 3, vals, labels);
    char *svg = render(&p->r, false);
    cr_assert(strstr(svg, ">Win rate by aldric.tactics<"));
    cr_assert_eq(count_of(svg, "class=\"sweep-line\""), 0);
    cr_assert_eq(count_of(svg, "class=\"sweep-bar\""), 9);
    const char *a = strstr(svg, ">attack<");
    const char *pa = strstr(svg, ">power-attack<");
    const char *d = strstr(svg, ">defend<");
    cr_assert(a && pa && d && a < pa && pa < d, "variants in order");
    /* Bar heights follow the shares: side 0 of variant 0 (25%) and 2 (50%). */
    double h0 = attr_of(svg, "class=\"sweep-bar\"", 0, "height");
    double h2 = attr_of(svg, "class=\"sweep-bar\"", 2, "height");
    cr_assert(fabs(h2 - 2 * h0) < 0.05, "%f %f", h0, h2);
    free(svg);

    /* Integers that repeat (two keys varied) are not a line either: the
     * labels tell the variants apart. */
    static const char *const gv[] = {"1", "1", "2", "2"};
    static const char *const gl[] = {"a.PA=1, b.PD=1", "a.PA=1, b.PD=2",
                                     "a.PA=2, b.PD=1", "a.PA=2, b.PD=2"};
    rep *g = rep_sweep("a.PA", 4, gv, gl);
    svg = render(&g->r, false);
    cr_assert_eq(count_of(svg, "class=\"sweep-line\""), 0);
    cr_assert_eq(count_of(svg, "class=\"sweep-bar\""), 12);
    cr_assert(strstr(svg, ">a.PA=2, b.PD=1<"));
    free(svg);
    rep_free(g);
    rep_free(p);
}

/* The HTML page: the numbers in tables, actions only of the kinds that
 * happened (issue 4 section 2). */
Test(sim_report, html_tables) {
    rep *p = rep_single();
    char *html = render(&p->r, true);
    const char *want[] = {
        "<h1>Duel at the Bridge</h1>", "<table>", "<h2>Who wins</h2>",
        "60.0% <span class=\"ci\">(56.9&#8211;63.0)</span>",
        "<th>STUN dealt</th>", "<th>LETHAL taken</th>",
        "<th>Hand of Fate cards</th>", "<th>chips</th>",
        "<td>12.00</td>",  /* STUN dealt by Sir Aldric per fight */
        "<th>Attack</th>", "<th>Power Attack</th>",
        "<th>5%&#8211;95%</th>", "<th>longest</th>",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_assert(strstr(html, want[i]), "the page shows %s", want[i]);
    cr_assert_null(strstr(html, "Running Leap"), "no kind nobody took");
    /* The page's own heading replaces the SVG header. */
    cr_assert_eq(count_of(html, ">Duel at the Bridge<"), 1);
    free(html);
    rep_free(p);
}

/* Any counts at all (random, not even consistent: wins that do not add up,
 * a histogram that disagrees with the trials, lengths in the last bin),
 * any values (negative, huge, empty, repeated, words): the documents stay
 * well-formed and keep the snprintf contract (issue 4 section 5). */
static uint64_t lcg(uint64_t *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

Test(sim_report, random_counts_stay_well_formed) {
    static const char *const pool[] = {"-3", "0", "7", "1000000000", "",
                                       "defend", "2", "2", "x<y", "12"};
    uint64_t s = 99;
#define NEXT() lcg(&s)
    for (int iter = 0; iter < 150; iter++) {
        rep *p = rep_single();
        free(p->counts[0]);
        int nv = 1 + (int)(NEXT() % 8);
        for (int v = 0; v < nv; v++) {
            fray_sim_counts *c = calloc(1, sizeof *c);
            c->trials = NEXT() % 5 == 0 ? 0 : NEXT() % 100000;
            for (int k = 0; k < 2; k++)
                c->wins[k] = c->trials ? NEXT() % (c->trials + 1) : 0;
            c->all_out = NEXT() % 3;
            c->unfinished = NEXT() % 3;
            int bins = (int)(NEXT() % 6);
            for (int b = 0; b < bins; b++) {
                int L = NEXT() % 4 == 0 ? FRAY_SIM_LENGTH_BINS - 1
                                        : (int)(NEXT() % 300);
                uint64_t n = NEXT() % 1000;
                c->length[L] += n;
                c->length_sum += n * (uint64_t)L;
            }
            for (int i = 0; i < 2; i++) {
                c->c[i].standing = NEXT() % 1000;
                c->c[i].dead = NEXT() % 1000;
                c->c[i].by_kind[NEXT() % FRAY_SIM_ACTION_KINDS] = NEXT() % 50;
            }
            p->counts[v] = c;
            p->v[v].counts = c;
            p->v[v].value = pool[NEXT() % 10];
            p->v[v].label = NEXT() % 2 ? pool[NEXT() % 10] : "";
        }
        p->r.n_variants = nv;
        p->r.vary_key = NEXT() % 3 ? "who.PA" : NULL;
        p->r.seconds = (double)(NEXT() % 100000) / 7.0;
        for (int html = 0; html < 2; html++) {
            char *doc = render(&p->r, html);
            char err[256];
            cr_assert(xml_check(doc, strlen(doc), html, err, sizeof err),
                      "iteration %d %s: %s", iter, html ? "HTML" : "SVG", err);
            if (html)
                assert_inline_svg(doc);
            cr_assert_null(strstr(doc, "nan"), "iteration %d", iter);
            cr_assert_null(strstr(doc, "inf"), "iteration %d", iter);
            free(doc);
        }
        rep_free(p);
    }
#undef NEXT
}
