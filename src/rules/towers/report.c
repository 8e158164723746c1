/*
 * report.c - a simulation's results drawn by fray itself, with no plotting
 * library (include/fray/report.h; docs/architecture.md "Simulation"; issue
 * 4 section 2): one SVG document of charts, or one self-contained HTML page
 * holding the same charts and tables of the numbers.
 *
 * The charts, stacked top to bottom in one <svg> 800 px wide:
 *   - the header: the encounter's name, trials, seed, time taken;
 *   - "Who wins": a bar per side (and "nobody" when some fights had no
 *     winner) with the 95% interval as whiskers, per variant of a sweep;
 *   - "How long the fight lasts (phases)": the histogram of fight length,
 *     bars grouped to at most 40, mean and median marked (one small
 *     histogram per variant of a sweep, on the same axes);
 *   - "Who is still standing": per combatant P(still standing), P(dead);
 *   - for a sweep, "Win rate by KEY" (a line per side against the varied
 *     number, or grouped bars for words such as tactics presets) and the
 *     mean fight length per variant with its 5%-95% range.
 *
 * Everything is written through a bounded writer that counts the whole
 * length (snprintf's contract); nothing is allocated. Numbers are written
 * by hand (fx) with a '.' decimal point whatever the C locale says, since
 * SVG coordinates must parse. Text from files (names, labels, keys) goes
 * through rw_esc, which escapes the five XML specials.
 *
 * Bars carry a class (win-bar, length-bar, standing-bar, dead-bar,
 * sweep-point, sweep-bar) and a <title> tooltip, so that tests and
 * style sheets can find them.
 */
#include "fray/fight.h"
#include "fray/report.h"

#include "internal.h"
#include "ruleset.h"

extern const fray__ruleset fray__towers_ruleset;

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Writing: fray__text (internal.h), and text from files ------------- */

/* Text from files: the five XML specials become entities (valid in SVG and
 * HTML alike); control characters, which XML forbids, become spaces. */
static void rw_esc(fray__text *w, const char *s) {
    if (!s)
        return;
    const char *run = s;
    for (; *s; s++) {
        const char *ent = NULL;
        switch (*s) {
        case '&': ent = "&amp;"; break;
        case '<': ent = "&lt;"; break;
        case '>': ent = "&gt;"; break;
        case '"': ent = "&quot;"; break;
        case '\'': ent = "&#39;"; break;
        default:
            if ((unsigned char)*s < 0x20)
                ent = " ";
            break;
        }
        if (ent) {
            fray__text_put(w, run, (size_t)(s - run));
            fray__text_s(w, ent);
            run = s + 1;
        }
    }
    fray__text_put(w, run, (size_t)(s - run));
}

/* ---- Numbers, locale-free ------------------------------------------------ */

typedef struct num {
    char s[48];
} num;

/* v with dec (0..3) decimals and a '.' point. */
static num fx(double v, int dec) {
    static const unsigned long long scale[] = {1, 10, 100, 1000};
    num n;
    if (dec < 0)
        dec = 0;
    if (dec > 3)
        dec = 3;
    if (!isfinite(v))
        v = 0;
    if (v > 1e15)
        v = 1e15;
    if (v < -1e15)
        v = -1e15;
    unsigned long long sc = scale[dec];
    unsigned long long u = (unsigned long long)llround(fabs(v) * (double)sc);
    const char *sign = (v < 0 && u != 0) ? "-" : "";
    if (dec == 0)
        snprintf(n.s, sizeof n.s, "%s%llu", sign, u);
    else
        snprintf(n.s, sizeof n.s, "%s%llu.%0*llu", sign, u / sc, dec, u % sc);
    return n;
}

/* The array of a returned struct lives to the end of the full expression
 * (C11 6.2.4p8), so these can be printf arguments. */
#define F0(v) (fx((v), 0).s)
#define F1(v) (fx((v), 1).s)
#define F2(v) (fx((v), 2).s)

/* A count with thousands separated by commas: "10,000". */
static num grouped(uint64_t v) {
    char digits[32];
    num n;
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            n.s[o++] = ',';
        n.s[o++] = digits[i];
    }
    n.s[o] = '\0';
    return n;
}

/* k of n as a percentage (0 when n is 0). */
static double pct(uint64_t k, uint64_t n) {
    return n ? 100.0 * (double)k / (double)n : 0.0;
}

/* A round step (1, 2 or 5 times a power of ten) for about `target` ticks
 * over `range`. */
static double nice_step(double range, int target) {
    if (!(range > 0))
        return 1;
    double raw = range / target;
    double mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    double step = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
    return step * mag;
}

/* Decimals that show a tick step exactly enough. */
static int step_decimals(double step) {
    return step >= 1 ? 0 : step >= 0.1 ? 1 : 2;
}

/* ---- Reading the counts -------------------------------------------------- */

/* The shortest fight's length; -1 without trials. */
static int report_length_min(const fray_sim_counts *c) {
    for (int i = 0; i < FRAY_SIM_LENGTH_BINS; i++)
        if (c->length[i])
            return i;
    return -1;
}

static uint64_t nobody(const fray_sim_counts *c) {
    return c->all_out + c->unfinished;
}

/* ---- What every chart needs ---------------------------------------------- */

enum {
    W = 800,          /* the width of every chart */
    HB_LABEL = 190,   /* horizontal bars: labels end here */
    HB_X0 = 200,      /* ... the bars start here */
    HB_X1 = 620,      /* ... 100% is here */
    HB_VALUE = 632,   /* ... and the numbers start here */
    PL_X0 = 70,       /* plots with a y axis: the plot's left edge */
    PL_X1 = 770,      /* ... and right edge */
    MAX_HIST_BARS = 40
};

#define FONT "Helvetica, Arial, sans-serif"
#define C_TEXT "#222222"
#define C_MUTED "#666666"
#define C_GRID "#e6e6e6"
#define C_AXIS "#888888"
#define C_NOBODY "#999999"
#define C_DEAD "#7a7a7a"
#define C_LENGTH "#5b7fa6"
/* How a combatant fell (fray_sim_state): unconscious, dying, dead, fled. */
#define C_UNCONSCIOUS "#c9c9c9"
#define C_DYING "#b35900"
#define HALO "stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\""

/* Okabe & Ito's colour-blind-safe palette, one colour per side. */
static const char *const side_colours[FRAY_SIM_MAX_SIDES] = {
    "#0072B2", "#D55E00", "#009E73", "#CC79A7"};

static const fray_sim_counts zero_counts;

typedef struct ctx {
    const fray_sim_report *r;
    int nv;            /* variants */
    bool sweep;        /* more than one variant */
    int n_sides;
    int n_comb;
    bool any_nobody;   /* some variant had fights nobody won */
    bool numeric;      /* sweep values are distinct integers: a line chart */
    bool html;         /* inside the HTML page, which has its own heading */
    long long vmin, vmax;
    char side_fallback[FRAY_SIM_MAX_SIDES][16];
    const char *unit;  /* what lengths count: "phase" (99 Towers), "round" */
    /* A sweep over two keys drawn as a grid: n1 values of the first key
     * (across) by n2 of the second (down); variant a * n2 + d. */
    bool grid;
    int n1, n2;
    /* What the sweep varies, for titles and axes: "aldric.PA", or with
     * two keys "aldric.PA and longblade.damage"; "variant" without. */
    char keys_text[300];
} ctx;

static const fray_sim_counts *vcounts(const ctx *c, int v) {
    const fray_sim_counts *k = c->r->variants[v].counts;
    return k ? k : &zero_counts;
}

static const char *side_name(const ctx *c, int s) {
    const char *n = c->r->rules_setup
                        ? fray_setup_side_name(c->r->rules_setup, s)
                    : c->r->setup
                        ? fray_towers_setup_side_name(c->r->setup, s)
                        : NULL;
    return n ? n : c->side_fallback[s];
}

/* The words of the counts: the report's ruleset's, else 99 Towers'. */
static const char *harm_word(const ctx *c, int k) {
    return c->r->rules_setup ? fray_sim_harm_name(c->r->rules_setup, k)
                             : fray__towers_ruleset.harm_name(k);
}

static const char *spent_word(const ctx *c, int k) {
    return c->r->rules_setup ? fray_sim_spent_name(c->r->rules_setup, k)
                             : fray__towers_ruleset.spent_name(k);
}

static const char *action_word(const ctx *c, int k) {
    return c->r->rules_setup ? fray_sim_action_name(c->r->rules_setup, k)
                             : fray_towers_action_name(k);
}

/* What state k means in the report's ruleset (99 Towers without one). */
static const char *state_meaning(const ctx *c, int k) {
    return c->r->rules_setup ? fray_sim_state_meaning(c->r->rules_setup, k)
           : fray__towers_ruleset.state_meaning
               ? fray__towers_ruleset.state_meaning(k)
               : fray_sim_state_name(k);
}

/* A share as the text of `fray sim` writes it (one rounding for both:
 * fray_sim_percent), e.g. "25.3%", "&gt; 99.9%" (escaped for XML); `bare`
 * without the % sign. */
typedef struct ptext {
    char s[32];
} ptext;

static ptext percent_text(double v, uint64_t k, uint64_t n, bool exact,
                          bool bare) {
    char raw[24];
    if (exact)
        fray_sim_share_percent(k, n, 1, raw, sizeof raw);
    else
        fray_sim_percent(v, 1, raw, sizeof raw);
    size_t len = strlen(raw);
    if (bare && len > 0 && raw[len - 1] == '%')
        raw[len - 1] = '\0';
    ptext t;
    snprintf(t.s, sizeof t.s, "%s%s",
             raw[0] == '<' ? "&lt;" : raw[0] == '>' ? "&gt;" : "",
             raw[0] == '<' || raw[0] == '>' ? raw + 1 : raw);
    return t;
}

static ptext share_text(uint64_t k, uint64_t n, bool bare) {
    return percent_text(0.0, k, n, true, bare);
}

/* An interval's end (0..1), without the % sign. */
static ptext end_text(double v) { return percent_text(v, 0, 0, false, true); }

static const char *side_colour(int s) {
    return side_colours[s >= 0 ? s % FRAY_SIM_MAX_SIDES : 0];
}

static const char *comb_name(const ctx *c, int i) {
    const char *n =
        c->r->rules_setup ? fray_setup_combatant_name(c->r->rules_setup, i)
                          : fray_towers_setup_combatant_name(c->r->setup, i);
    return n ? n : "?";
}

static int comb_side(const ctx *c, int i) {
    int s = c->r->rules_setup
                ? fray_setup_combatant_side(c->r->rules_setup, i)
                : fray_towers_setup_combatant_side(c->r->setup, i);
    return s >= 0 && s < c->n_sides ? s : -1;
}

/* The variant's name as shown: its label, else its value. */
static const char *variant_name(const ctx *c, int v) {
    const fray_sim_variant *x = &c->r->variants[v];
    if (x->label && x->label[0])
        return x->label;
    return x->value ? x->value : "";
}

/* The variant's name on a sweep chart's x axis: its value, unless values
 * repeat (several keys varied) and only the label tells them apart. */
static const char *variant_tick(const ctx *c, int v) {
    const fray_sim_variant *x = &c->r->variants[v];
    bool distinct = true;
    for (int i = 0; i < c->nv && distinct; i++)
        if (i != v) {
            const char *a = x->value ? x->value : "";
            const char *b = c->r->variants[i].value ? c->r->variants[i].value : "";
            if (strcmp(a, b) == 0)
                distinct = false;
        }
    if (distinct && x->value && x->value[0])
        return x->value;
    return variant_name(c, v);
}

static bool parse_int(const char *s, long long *out) {
    if (!s || !*s)
        return false;
    char *end = NULL;
    long long v = strtoll(s, &end, 10);
    if (*end != '\0' || v < -1000000000LL || v > 1000000000LL)
        return false;
    *out = v;
    return true;
}

static void ctx_init(ctx *c, const fray_sim_report *r) {
    memset(c, 0, sizeof *c);
    c->r = r;
    c->nv = r->variants && r->n_variants > 0 ? r->n_variants : 0;
    c->sweep = c->nv > 1;
    c->unit = r->rules_setup ? fray_setup_time_unit(r->rules_setup)
                             : fray__towers_ruleset.time_unit;
    for (int s = 0; s < FRAY_SIM_MAX_SIDES; s++)
        snprintf(c->side_fallback[s], sizeof c->side_fallback[s], "side %d",
                 s + 1);
    if (r->rules_setup) {
        c->n_sides = fray_setup_sides(r->rules_setup);
        c->n_comb = fray_setup_combatants(r->rules_setup);
    } else if (r->setup) {
        c->n_sides = fray_towers_setup_sides(r->setup);
        c->n_comb = fray_towers_setup_combatants(r->setup);
    } else {
        /* No names to show: as many sides as won something (two at least). */
        c->n_sides = 2;
        for (int v = 0; v < c->nv; v++)
            for (int s = 0; s < FRAY_SIM_MAX_SIDES; s++)
                if (vcounts(c, v)->wins[s] && s + 1 > c->n_sides)
                    c->n_sides = s + 1;
    }
    if (c->n_sides < 0)
        c->n_sides = 0;
    if (c->n_sides > FRAY_SIM_MAX_SIDES)
        c->n_sides = FRAY_SIM_MAX_SIDES;
    if (c->n_comb < 0)
        c->n_comb = 0;
    if (c->n_comb > FRAY_SIM_MAX_COMBATANTS)
        c->n_comb = FRAY_SIM_MAX_COMBATANTS;
    for (int v = 0; v < c->nv; v++)
        if (nobody(vcounts(c, v)))
            c->any_nobody = true;
    if (r->vary_key2 && r->n_values2 > 0 && c->nv % r->n_values2 == 0) {
        c->grid = true;
        c->n2 = r->n_values2;
        c->n1 = c->nv / r->n_values2;
    }
    snprintf(c->keys_text, sizeof c->keys_text, "%s%s%s",
             r->vary_key ? r->vary_key : "variant", c->grid ? " and " : "",
             c->grid ? r->vary_key2 : "");
    c->numeric = c->sweep;
    for (int v = 0; v < c->nv && c->numeric; v++) {
        long long x = 0;
        if (!parse_int(r->variants[v].value, &x)) {
            c->numeric = false;
            break;
        }
        if (v == 0 || x < c->vmin)
            c->vmin = x;
        if (v == 0 || x > c->vmax)
            c->vmax = x;
        for (int u = 0; u < v; u++) {
            long long y = 0;
            parse_int(r->variants[u].value, &y);
            if (y == x)
                c->numeric = false;
        }
    }
}

/* ---- SVG pieces ---------------------------------------------------------- */

static void svg_line(fray__text *w, double x1, double y1, double x2, double y2,
                     const char *attrs) {
    fray__text_f(w, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" %s/>\n", F1(x1),
         F1(y1), F1(x2), F1(y2), attrs);
}

/* Opens <text ...>; the caller writes the content and text_close(). */
static void text_open(fray__text *w, double x, double y, const char *attrs) {
    fray__text_f(w, "<text x=\"%s\" y=\"%s\"%s%s>", F1(x), F1(y), attrs[0] ? " " : "",
         attrs);
}

static void text_close(fray__text *w) { fray__text_s(w, "</text>\n"); }

/* A text from a file, escaped. */
static void text_esc(fray__text *w, double x, double y, const char *attrs,
                     const char *s) {
    text_open(w, x, y, attrs);
    rw_esc(w, s);
    text_close(w);
}

/* A chart's title and the line under it that says how to read it. */
static void chart_title(fray__text *w, const char *title, const char *key,
                        const char *sub) {
    text_open(w, 20, 28, "font-size=\"17\" font-weight=\"bold\"");
    fray__text_s(w, title);
    rw_esc(w, key);
    text_close(w);
    if (sub) {
        text_open(w, 20, 46, "font-size=\"12\" fill=\"" C_MUTED "\"");
        fray__text_s(w, sub);
        text_close(w);
    }
}

/* A whisker from x1 to x2 at height y (horizontal), with caps. */
static void hwhisker(fray__text *w, double x1, double x2, double y, double cap) {
    fray__text_f(w,
         "<path class=\"ci\" d=\"M%s %sH%sM%s %sV%sM%s %sV%s\" stroke=\"" C_TEXT
         "\" stroke-width=\"1.3\" fill=\"none\"/>\n",
         F1(x1), F1(y), F1(x2), F1(x1), F1(y - cap), F1(y + cap), F1(x2),
         F1(y - cap), F1(y + cap));
}

/* A whisker from y1 to y2 at x (vertical), with caps. */
static void vwhisker(fray__text *w, double x, double y1, double y2, double cap,
                     const char *colour) {
    fray__text_f(w,
         "<path class=\"ci\" d=\"M%s %sV%sM%s %sH%sM%s %sH%s\" stroke=\"%s\" "
         "stroke-width=\"1.3\" fill=\"none\"/>\n",
         F1(x), F1(y1), F1(y2), F1(x - cap), F1(y1), F1(x + cap), F1(x - cap),
         F1(y2), F1(x + cap), colour);
}

/* A legend entry: a swatch and a name; returns the x after it. Widths are
 * guessed from the number of characters (no font metrics here). */
static double legend_item(fray__text *w, double x, double y, const char *colour,
                          const char *name, bool dashed) {
    if (dashed)
        fray__text_f(w,
             "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" "
             "stroke-width=\"2.5\" stroke-dasharray=\"4 3\"/>\n",
             F1(x), F1(y - 4), F1(x + 16), F1(y - 4), colour);
    else
        fray__text_f(w,
             "<rect x=\"%s\" y=\"%s\" width=\"14\" height=\"10\" fill=\"%s\"/>\n",
             F1(x), F1(y - 9), colour);
    text_esc(w, x + 20, y, "font-size=\"12\"", name);
    size_t chars = 0;
    for (const char *p = name; *p; p++)
        if (((unsigned char)*p & 0xC0) != 0x80)
            chars++;
    return x + 20 + 7.0 * (double)chars + 18;
}

/* The vertical grid of a horizontal bar chart from y1 to y2, with ticks at
 * 0, 20, ..., 100% under it and the axis label. */
static void hbar_axis(fray__text *w, double y1, double y2, const char *label) {
    for (int t = 0; t <= 100; t += 20) {
        double x = HB_X0 + (HB_X1 - HB_X0) * t / 100.0;
        svg_line(w, x, y1, x, y2,
                 t == 0 ? "stroke=\"" C_AXIS "\"" : "stroke=\"" C_GRID "\"");
        text_open(w, x, y2 + 15,
                  "font-size=\"11\" text-anchor=\"middle\" fill=\"" C_MUTED "\"");
        fray__text_f(w, "%d%%", t);
        text_close(w);
    }
    text_open(w, (HB_X0 + HB_X1) / 2.0, y2 + 33,
              "font-size=\"12\" text-anchor=\"middle\"");
    fray__text_s(w, label);
    text_close(w);
}

static double hb_x(double share01) {
    return HB_X0 + (HB_X1 - HB_X0) * share01;
}

/* ---- Chart: who wins ----------------------------------------------------- */

enum { WIN_ROW = 26, GROUP_HEAD = 24 };

static int chart_wins(fray__text *w, const ctx *c) {
    chart_title(w, "Who wins", NULL,
                "share of fights each side won; whiskers: the 95% interval");
    int rows = c->n_sides + (c->any_nobody ? 1 : 0);
    int per_variant = rows * WIN_ROW + (c->sweep ? GROUP_HEAD : 0);
    double top = 62;
    double bottom = top + per_variant * c->nv;
    hbar_axis(w, top - 6, bottom, "share of fights (%)");
    double y = top;
    for (int v = 0; v < c->nv; v++) {
        const fray_sim_counts *k = vcounts(c, v);
        if (c->sweep) {
            text_esc(w, 20, y + 15, "font-size=\"12\" font-weight=\"bold\"",
                     variant_name(c, v));
            y += GROUP_HEAD;
        }
        for (int s = 0; s < rows; s++) {
            bool nob = s == c->n_sides;
            uint64_t won = nob ? nobody(k) : k->wins[s];
            double lo, hi;
            fray_sim_interval95(won, k->trials, &lo, &hi);
            double share = k->trials ? (double)won / (double)k->trials : 0;
            double cy = y + WIN_ROW / 2.0;
            text_esc(w, HB_LABEL, cy + 4, "font-size=\"12\" text-anchor=\"end\"",
                     nob ? "nobody" : side_name(c, s));
            fray__text_f(w,
                 "<rect class=\"win-bar\" data-side=\"%d\" x=\"%d\" y=\"%s\" "
                 "width=\"%s\" height=\"16\" fill=\"%s\">",
                 nob ? -1 : s, HB_X0, F1(cy - 8), F2(hb_x(share) - HB_X0),
                 nob ? C_NOBODY : side_colour(s));
            fray__text_s(w, "<title>");
            if (nob)
                fray__text_f(w, "nobody won (all out at once, or the %s limit)",
                             c->unit);
            else {
                rw_esc(w, side_name(c, s));
                fray__text_s(w, " won");
            }
            fray__text_f(w, " %s of %s fights (95%% interval %s&#8211;%s%%)</title>",
                 share_text(won, k->trials, false).s, grouped(k->trials).s,
                 end_text(lo).s, end_text(hi).s);
            fray__text_s(w, "</rect>\n");
            hwhisker(w, hb_x(lo), hb_x(hi), cy, 5);
            text_open(w, HB_VALUE, cy + 4, "font-size=\"12\"");
            fray__text_f(w,
                 "<tspan font-weight=\"bold\">%s</tspan><tspan dx=\"6\" fill=\"" C_MUTED
                 "\" font-size=\"11\">(%s&#8211;%s)</tspan>",
                 share_text(won, k->trials, false).s, end_text(lo).s,
                 end_text(hi).s);
            text_close(w);
            y += WIN_ROW;
        }
    }
    return (int)bottom + 46;
}

/* ---- Chart: who is still standing ---------------------------------------- */

enum { STAND_ROW = 36 };

/* The colour and bar class of how a combatant fell (state k >= 1). */
static const char *fell_colour(int k) {
    return k == FRAY_SIM_UNCONSCIOUS ? C_UNCONSCIOUS
           : k == FRAY_SIM_DYING     ? C_DYING
           : k == FRAY_SIM_DEAD      ? C_DEAD
                                     : C_NOBODY;
}

static int chart_standing(fray__text *w, const ctx *c) {
    chart_title(w, "Who is still standing", NULL,
                "share of fights each combatant ends still standing, and "
                "how the others fell: unconscious, dying, dead");
    /* Legend: the side colours mean "still standing"; the second bar,
     * stacked, how the others fell. */
    double lx = 20;
    for (int s = 0; s < c->n_sides; s++) {
        fray__text_f(w, "<rect x=\"%s\" y=\"55\" width=\"10\" height=\"10\" fill=\"%s\"/>\n",
             F1(lx), side_colour(s));
        lx += 12;
    }
    text_open(w, lx + 4, 64, "font-size=\"12\"");
    fray__text_s(w, "still standing (the colour of its side)");
    text_close(w);
    lx += 260;
    for (int k = FRAY_SIM_UNCONSCIOUS; k < FRAY_SIM_STATES; k++)
        lx = legend_item(w, lx, 64, fell_colour(k), fray_sim_state_name(k),
                         false);

    double top = 80;
    int per_variant = c->n_comb * STAND_ROW + (c->sweep ? GROUP_HEAD : 0);
    double bottom = top + per_variant * c->nv;
    if (c->n_comb == 0) {
        text_open(w, 20, top + 14, "font-size=\"12\" fill=\"" C_MUTED "\"");
        fray__text_s(w, "no combatants");
        text_close(w);
        return (int)top + 30;
    }
    hbar_axis(w, top - 4, bottom, "share of fights (%)");
    double y = top;
    for (int v = 0; v < c->nv; v++) {
        const fray_sim_counts *k = vcounts(c, v);
        if (c->sweep) {
            text_esc(w, 20, y + 15, "font-size=\"12\" font-weight=\"bold\"",
                     variant_name(c, v));
            y += GROUP_HEAD;
        }
        for (int i = 0; i < c->n_comb; i++) {
            const fray_sim_combatant_counts *cc = &k->c[i];
            int s = comb_side(c, i);
            text_esc(w, HB_LABEL, y + 15, "font-size=\"12\" text-anchor=\"end\"",
                     comb_name(c, i));
            /* The side under the name, unless the name says it already. */
            if (s >= 0 && strcmp(side_name(c, s), comb_name(c, i)) != 0)
                text_esc(w, HB_LABEL, y + 28,
                         "font-size=\"10\" text-anchor=\"end\" fill=\"" C_MUTED "\"",
                         side_name(c, s));
            /* Still standing. */
            double by = y + 4;
            double sh = k->trials ? (double)cc->standing / (double)k->trials : 0;
            fray__text_f(w,
                 "<rect class=\"standing-bar\" data-combatant=\"%d\" x=\"%d\" y=\"%s\" "
                 "width=\"%s\" height=\"12\" fill=\"%s\"><title>",
                 i, HB_X0, F1(by), F2(hb_x(sh) - HB_X0),
                 side_colour(s >= 0 ? s : 0));
            rw_esc(w, comb_name(c, i));
            fray__text_f(w, ": still standing in %s of fights</title></rect>\n",
                         share_text(cc->standing, k->trials, false).s);
            text_open(w, HB_VALUE, by + 10, "font-size=\"11\"");
            fray__text_f(w,
                 "<tspan font-weight=\"bold\">%s</tspan>"
                 "<tspan dx=\"4\">still standing</tspan>",
                 share_text(cc->standing, k->trials, false).s);
            text_close(w);
            /* How it fell, stacked: unconscious, dying, dead (and fled). */
            by = y + 18;
            double x = HB_X0;
            for (int st = FRAY_SIM_UNCONSCIOUS; st < FRAY_SIM_STATES; st++) {
                uint64_t n = fray_sim_state_count(cc, st);
                if (st == FRAY_SIM_FLED && n == 0)
                    continue;
                double share = k->trials ? (double)n / (double)k->trials : 0;
                double bw = hb_x(share) - HB_X0;
                fray__text_f(w,
                     "<rect class=\"%s-bar\" data-combatant=\"%d\" x=\"%s\" y=\"%s\" "
                     "width=\"%s\" height=\"12\" fill=\"%s\"><title>",
                     fray_sim_state_name(st), i, F2(x), F1(by), F2(bw),
                     fell_colour(st));
                rw_esc(w, comb_name(c, i));
                fray__text_f(w, ": %s in %s of fights</title></rect>\n",
                             fray_sim_state_name(st),
                             share_text(n, k->trials, false).s);
                x += bw;
            }
            text_open(w, HB_VALUE, by + 10, "font-size=\"11\"");
            bool first = true;
            for (int st = FRAY_SIM_UNCONSCIOUS; st < FRAY_SIM_STATES; st++) {
                uint64_t n = fray_sim_state_count(cc, st);
                /* dead always; the others when they happened */
                if (n == 0 && st != FRAY_SIM_DEAD)
                    continue;
                fray__text_f(w,
                     "<tspan%s font-weight=\"bold\">%s</tspan>"
                     "<tspan dx=\"4\">%s</tspan>",
                     first ? "" : " dx=\"8\"",
                     share_text(n, k->trials, false).s,
                     fray_sim_state_name(st));
                first = false;
            }
            text_close(w);
            y += STAND_ROW;
        }
    }
    return (int)bottom + 46;
}

/* ---- Chart: how long the fight lasts ------------------------------------- */

/* The histogram's bars, the same for every variant so they compare. */
typedef struct hplan {
    int lo;          /* the first bar starts at this phase */
    int width;       /* phases per bar */
    int nbars;
    bool overflow;   /* the last bar also counts every longer fight */
    double ymax;     /* the y axis' top, % of fights */
    double ystep;
    bool empty;      /* no fights at all */
} hplan;

static hplan hist_plan(const ctx *c) {
    hplan p;
    memset(&p, 0, sizeof p);
    int lo = -1, longest = -1, p99 = -1;
    for (int v = 0; v < c->nv; v++) {
        const fray_sim_counts *k = vcounts(c, v);
        int m = report_length_min(k);
        if (m < 0)
            continue;
        if (lo < 0 || m < lo)
            lo = m;
        int l = fray_sim_length_quantile(k, 1.0);
        int q = fray_sim_length_quantile(k, 0.99);
        if (l > longest)
            longest = l;
        if (q > p99)
            p99 = q;
    }
    if (lo < 0) {
        p.empty = true;
        p.width = 1;
        p.nbars = 1;
        p.ymax = 100;
        p.ystep = 20;
        return p;
    }
    /* A few very long fights would squeeze the rest into a corner: past
     * twice the 99th percentile's span they share the last bar. */
    int upper = longest;
    if (longest - lo > 2 * (p99 - lo) + 10) {
        upper = lo + 2 * (p99 - lo) + 10;
        p.overflow = true;
    }
    /* No 2 phases a bar: actions take 3 to 10 phases (most 5), so fights
     * end in lumps that 2-phase bars show as a comb; 5 smooths them. */
    static const int widths[] = {1, 5, 10, 20, 50, 100, 200, 500, 1000};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        p.width = widths[i];
        p.lo = lo / p.width * p.width;
        p.nbars = upper / p.width - p.lo / p.width + 1;
        if (p.nbars <= MAX_HIST_BARS)
            break;
    }
    double ymax = 0;
    for (int v = 0; v < c->nv; v++) {
        const fray_sim_counts *k = vcounts(c, v);
        for (int b = 0; b < p.nbars; b++) {
            uint64_t n = 0;
            int from = p.lo + b * p.width;
            int to = (b == p.nbars - 1 && p.overflow) ? FRAY_SIM_LENGTH_BINS
                                                      : from + p.width;
            for (int L = from; L < to && L < FRAY_SIM_LENGTH_BINS; L++)
                n += k->length[L];
            double sh = pct(n, k->trials);
            if (sh > ymax)
                ymax = sh;
        }
    }
    /* Headroom over the tallest bar for the mean and median labels. */
    p.ystep = nice_step(ymax > 0 ? ymax : 1, 4);
    p.ymax = ceil(ymax * 1.12 / p.ystep - 1e-9) * p.ystep;
    if (p.ymax <= 0)
        p.ymax = p.ystep;
    return p;
}

static double hist_x(const hplan *p, double phase) {
    return PL_X0 + (PL_X1 - PL_X0) * (phase - p->lo) /
                       ((double)p->nbars * p->width);
}

/* One histogram, its plot area from y=top to y=top+h. */
static void hist_draw(fray__text *w, const ctx *c, const hplan *p,
                      const fray_sim_counts *k, double top, double h,
                      bool axis_labels) {
    double bottom = top + h;
    /* y grid and ticks */
    int dec = step_decimals(p->ystep);
    for (int i = 0;; i++) {
        double t = i * p->ystep;
        if (t > p->ymax + 1e-9)
            break;
        double y = bottom - h * t / p->ymax;
        svg_line(w, PL_X0, y, PL_X1, y,
                 i == 0 ? "stroke=\"" C_AXIS "\"" : "stroke=\"" C_GRID "\"");
        text_open(w, PL_X0 - 6, y + 4,
                  "font-size=\"11\" text-anchor=\"end\" fill=\"" C_MUTED "\"");
        fray__text_f(w, "%s%%", fx(t, dec).s);
        text_close(w);
    }
    /* x ticks at round phases */
    double span = (double)p->nbars * p->width;
    double xs = nice_step(span, 10);
    if (xs < p->width)
        xs = p->width;
    double first = ceil(p->lo / xs) * xs;
    for (double t = first; t <= p->lo + span - (p->width == 1 ? 1 : 0) + 1e-9;
         t += xs) {
        double x = hist_x(p, t + (p->width == 1 ? 0.5 : 0));
        svg_line(w, x, bottom, x, bottom + 4, "stroke=\"" C_AXIS "\"");
        text_open(w, x, bottom + 16,
                  "font-size=\"11\" text-anchor=\"middle\" fill=\"" C_MUTED "\"");
        fray__text_s(w, F0(t));
        text_close(w);
    }
    if (axis_labels) {
        text_open(w, (PL_X0 + PL_X1) / 2.0, bottom + 34,
                  "font-size=\"12\" text-anchor=\"middle\"");
        fray__text_f(w, "%ss", c->unit);
        text_close(w);
    }
    {
        fray__text_f(w,
             "<text x=\"0\" y=\"0\" font-size=\"12\" text-anchor=\"middle\" "
             "transform=\"translate(22 %s) rotate(-90)\">share of fights</text>\n",
             F1(top + h / 2));
    }
    if (k->trials == 0 || report_length_min(k) < 0) {
        text_open(w, (PL_X0 + PL_X1) / 2.0, top + h / 2,
                  "font-size=\"12\" text-anchor=\"middle\" fill=\"" C_MUTED "\"");
        fray__text_s(w, "no fights");
        text_close(w);
        return;
    }
    /* bars */
    double bw = (PL_X1 - PL_X0) / (double)p->nbars;
    double gap = bw > 6 ? 1 : 0;
    for (int b = 0; b < p->nbars; b++) {
        int from = p->lo + b * p->width;
        bool last = b == p->nbars - 1 && p->overflow;
        int to = last ? FRAY_SIM_LENGTH_BINS : from + p->width;
        uint64_t n = 0;
        for (int L = from; L < to && L < FRAY_SIM_LENGTH_BINS; L++)
            n += k->length[L];
        double sh = pct(n, k->trials);
        double bh = h * sh / p->ymax;
        fray__text_f(w,
             "<rect class=\"length-bar\" x=\"%s\" y=\"%s\" width=\"%s\" "
             "height=\"%s\" fill=\"%s\"><title>",
             F2(PL_X0 + b * bw + gap / 2), F2(bottom - bh), F2(bw - gap), F2(bh),
             last ? "#8fa9c4" : C_LENGTH);
        if (last)
            fray__text_f(w, "%d %ss or more", from, c->unit);
        else if (p->width == 1)
            fray__text_f(w, "%d %ss", from, c->unit);
        else
            fray__text_f(w, "%d&#8211;%d %ss", from, to - 1, c->unit);
        fray__text_f(w, ": %s of fights</title></rect>\n",
                     share_text(n, k->trials, false).s);
    }
    if (p->overflow) {
        text_open(w, PL_X1, top - 4,
                  "font-size=\"10\" text-anchor=\"end\" fill=\"" C_MUTED "\"");
        fray__text_f(w, "the last bar: %d %ss or more",
             p->lo + (p->nbars - 1) * p->width, c->unit);
        text_close(w);
    }
    /* mean and median */
    double mean = fray_sim_length_mean(k);
    int median = fray_sim_length_quantile(k, 0.5);
    for (int m = 0; m < 2; m++) {
        double val = m == 0 ? mean : median;
        double x = hist_x(p, val + 0.5);
        if (x > PL_X1)
            x = PL_X1;
        double ly = top + 10 + m * 13;
        fray__text_f(w,
             "<line class=\"%s\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" "
             "stroke=\"%s\" stroke-width=\"1.5\"%s/>\n",
             m == 0 ? "mean-line" : "median-line", F1(x), F1(ly - 9), F1(x),
             F1(bottom), m == 0 ? C_TEXT : "#b35900",
             m == 0 ? "" : " stroke-dasharray=\"5 3\"");
        /* The smaller of the two is labelled on the left of its line, the
         * larger on the right, so that close lines keep apart labels;
         * near an edge, the side with room. */
        double other = m == 0 ? median : mean;
        bool left = val < other || (val == other && m == 1);
        if (x < PL_X0 + 64) /* about the width of "median 123" */
            left = false;
        if (x > PL_X1 - 64)
            left = true;
        /* A white halo keeps the label readable over bars and lines. */
        text_open(w, left ? x - 4 : x + 4, ly,
                  left ? "font-size=\"11\" text-anchor=\"end\" " HALO
                       : "font-size=\"11\" " HALO);
        if (m == 0)
            fray__text_f(w, "mean %s", F1(mean));
        else
            fray__text_f(w, "median %d", median);
        text_close(w);
    }
    (void)c;
}

static int chart_length(fray__text *w, const ctx *c) {
    hplan p = hist_plan(c);
    char sub1[64], title[64];
    snprintf(sub1, sizeof sub1, "how many %ss the fights took", c->unit);
    snprintf(title, sizeof title, "How long the fight lasts (%ss)", c->unit);
    const char *sub = p.width == 1 ? sub1 : NULL;
    chart_title(w, title, NULL, sub);
    if (!sub) {
        text_open(w, 20, 46, "font-size=\"12\" fill=\"" C_MUTED "\"");
        fray__text_f(w, "how many %ss the fights took, %d %ss per bar",
                     c->unit, p.width, c->unit);
        text_close(w);
    }
    if (!c->sweep) {
        hist_draw(w, c, &p, vcounts(c, 0), 70, 180, true);
        return 70 + 180 + 48;
    }
    /* One small histogram per variant, on the same axes. */
    double y = 56;
    for (int v = 0; v < c->nv; v++) {
        text_esc(w, 20, y + 14, "font-size=\"12\" font-weight=\"bold\"",
                 variant_name(c, v));
        hist_draw(w, c, &p, vcounts(c, v), y + 30, 100, v == c->nv - 1);
        y += 30 + 100 + 26;
    }
    return (int)y + 22;
}

/* ---- Chart: a sweep ------------------------------------------------------ */

enum { SW_X0 = 70, SW_X1 = 770 };

/* The legend of a sweep chart: one entry per side (and nobody) in a row
 * under the title, wrapped when the names do not fit; returns the rows. */
static int sweep_legend(fray__text *w, const ctx *c, double y, int series) {
    double x = SW_X0;
    int rows = 1;
    for (int s = 0; s < series; s++) {
        bool nob = s == c->n_sides;
        const char *name = nob ? "nobody" : side_name(c, s);
        /* Where it would end: measured by drawing it into nothing. */
        fray__text none;
        fray__text_init(&none, NULL, 0);
        double end = legend_item(&none, x, y, C_NOBODY, name, false);
        if (end - 18 > W - 20 && x > SW_X0) {
            x = SW_X0;
            y += 18;
            rows++;
        }
        x = legend_item(w, x, y, nob ? C_NOBODY : side_colour(s), name,
                        nob && c->numeric);
    }
    return rows;
}

/* x of variant v: by its value for a line chart, by its place otherwise. */
static double sweep_x(const ctx *c, int v) {
    if (c->numeric) {
        long long x = 0;
        parse_int(c->r->variants[v].value, &x);
        double lo = (double)c->vmin, hi = (double)c->vmax;
        double pad = (hi - lo) * 0.06;
        return SW_X0 + (SW_X1 - SW_X0) * ((double)x - lo + pad) /
                           (hi - lo + 2 * pad);
    }
    return SW_X0 + (SW_X1 - SW_X0) * (v + 0.5) / c->nv;
}

/* The variants in order of their x: the i-th smallest value for a line
 * chart (values are distinct), the i-th variant otherwise. */
static int sweep_nth(const ctx *c, int i) {
    if (!c->numeric)
        return i;
    int best = -1;
    long long prev = 0, bv = 0;
    for (int round = 0; round <= i; round++) {
        best = -1;
        for (int v = 0; v < c->nv; v++) {
            long long x = 0;
            parse_int(c->r->variants[v].value, &x);
            if (round > 0 && x <= prev)
                continue;
            if (best < 0 || x < bv) {
                best = v;
                bv = x;
            }
        }
        prev = bv;
    }
    return best < 0 ? 0 : best;
}

/* The x axis of a sweep chart: ticks at round values (numbers) or the
 * variants' names (words), and the varied key under them. */
static void sweep_xaxis(fray__text *w, const ctx *c, double bottom) {
    svg_line(w, SW_X0, bottom, SW_X1, bottom, "stroke=\"" C_AXIS "\"");
    if (c->numeric) {
        double range = (double)(c->vmax - c->vmin);
        double step = nice_step(range, 8);
        if (step < 1)
            step = 1;
        for (double t = ceil((double)c->vmin / step) * step;
             t <= (double)c->vmax + 1e-9; t += step) {
            double lo = (double)c->vmin, hi = (double)c->vmax;
            double pad = (hi - lo) * 0.06;
            double x = SW_X0 + (SW_X1 - SW_X0) * (t - lo + pad) / (hi - lo + 2 * pad);
            svg_line(w, x, bottom, x, bottom + 4, "stroke=\"" C_AXIS "\"");
            text_open(w, x, bottom + 16,
                      "font-size=\"11\" text-anchor=\"middle\" fill=\"" C_MUTED "\"");
            fray__text_s(w, F0(t));
            text_close(w);
        }
    } else {
        int fs = c->nv > 8 ? 9 : 11;
        for (int v = 0; v < c->nv; v++) {
            char attrs[96];
            snprintf(attrs, sizeof attrs,
                     "font-size=\"%d\" text-anchor=\"middle\" fill=\"" C_TEXT "\"",
                     fs);
            text_esc(w, sweep_x(c, v), bottom + 16 + (c->nv > 8 ? (v % 2) * 11 : 0),
                     attrs, variant_tick(c, v));
        }
    }
    text_open(w, (SW_X0 + SW_X1) / 2.0, bottom + 40,
              "font-size=\"12\" text-anchor=\"middle\"");
    rw_esc(w, c->keys_text);
    text_close(w);
}

/* The y grid of a sweep chart from 0 to ymax. */
static void sweep_yaxis(fray__text *w, double top, double h, double ymax, double step,
                        const char *unit, const char *label) {
    double bottom = top + h;
    int dec = step_decimals(step);
    for (int i = 0;; i++) {
        double t = i * step;
        if (t > ymax + 1e-9)
            break;
        double y = bottom - h * t / ymax;
        if (i > 0)
            svg_line(w, SW_X0, y, SW_X1, y, "stroke=\"" C_GRID "\"");
        text_open(w, SW_X0 - 6, y + 4,
                  "font-size=\"11\" text-anchor=\"end\" fill=\"" C_MUTED "\"");
        fray__text_f(w, "%s%s", fx(t, dec).s, unit);
        text_close(w);
    }
    svg_line(w, SW_X0, top, SW_X0, bottom, "stroke=\"" C_AXIS "\"");
    fray__text_f(w,
         "<text x=\"0\" y=\"0\" font-size=\"12\" text-anchor=\"middle\" "
         "transform=\"translate(22 %s) rotate(-90)\">%s</text>\n",
         F1(top + h / 2), label);
}

static int chart_sweep(fray__text *w, const ctx *c) {
    chart_title(w, "Win rate by ", c->keys_text,
                c->numeric ? "share of fights won against the varied value; "
                             "whiskers: the 95% interval"
                           : "share of fights won, per variant in order; "
                             "whiskers: the 95% interval");
    int series = c->n_sides + (c->any_nobody ? 1 : 0);
    int rows = sweep_legend(w, c, 66, series);
    double top = 66 + 18 * rows, h = 230, bottom = top + h;
    sweep_yaxis(w, top, h, 100, 20, "%", "win rate (%)");
    sweep_xaxis(w, c, bottom);
    double group = (SW_X1 - SW_X0) / (double)c->nv;
    double bw = group * 0.8 / series;
    if (bw > 40)
        bw = 40;
    for (int s = 0; s < series; s++) {
        bool nob = s == c->n_sides;
        const char *col = nob ? C_NOBODY : side_colour(s);
        /* Side by side, a little apart, so whiskers do not hide each other. */
        double dodge = c->numeric ? (s - (series - 1) / 2.0) * 4
                                  : (s - (series - 1) / 2.0) * bw;
        if (c->numeric) {
            fray__text_f(w, "<polyline class=\"sweep-line\" fill=\"none\" stroke=\"%s\" "
                    "stroke-width=\"2\"%s points=\"",
                 col, nob ? " stroke-dasharray=\"5 3\"" : "");
            for (int i = 0; i < c->nv; i++) {
                int v = sweep_nth(c, i);
                const fray_sim_counts *k = vcounts(c, v);
                uint64_t won = nob ? nobody(k) : k->wins[s];
                fray__text_f(w, "%s%s %s", i ? " " : "", F1(sweep_x(c, v) + dodge),
                     F1(bottom - h * pct(won, k->trials) / 100));
            }
            fray__text_s(w, "\"/>\n");
        }
        for (int v = 0; v < c->nv; v++) {
            const fray_sim_counts *k = vcounts(c, v);
            uint64_t won = nob ? nobody(k) : k->wins[s];
            double lo, hi;
            fray_sim_interval95(won, k->trials, &lo, &hi);
            double share = pct(won, k->trials);
            double x = sweep_x(c, v) + dodge;
            double y = bottom - h * share / 100;
            if (c->numeric) {
                vwhisker(w, x, bottom - h * lo, bottom - h * hi, 3, col);
                fray__text_f(w,
                     "<circle class=\"sweep-point\" data-side=\"%d\" cx=\"%s\" "
                     "cy=\"%s\" r=\"4\" fill=\"%s\" stroke=\"white\">",
                     nob ? -1 : s, F1(x), F1(y), col);
            } else {
                fray__text_f(w,
                     "<rect class=\"sweep-bar\" data-side=\"%d\" x=\"%s\" y=\"%s\" "
                     "width=\"%s\" height=\"%s\" fill=\"%s\">",
                     nob ? -1 : s, F2(x - bw / 2 + 0.5), F2(y), F2(bw - 1),
                     F2(bottom - y), col);
            }
            fray__text_s(w, "<title>");
            rw_esc(w, variant_name(c, v));
            fray__text_s(w, ": ");
            if (nob)
                fray__text_s(w, "nobody won");
            else {
                rw_esc(w, side_name(c, s));
                fray__text_s(w, " won");
            }
            fray__text_f(w, " %s (95%% interval %s&#8211;%s%%)</title>",
                         share_text(won, k->trials, false).s, end_text(lo).s,
                         end_text(hi).s);
            fray__text_s(w, c->numeric ? "</circle>\n" : "</rect>\n");
            if (!c->numeric) {
                vwhisker(w, x, bottom - h * lo, bottom - h * hi,
                         bw / 4 < 4 ? bw / 4 : 4, C_TEXT);
                /* The number over the bar, when the bar is wide enough. */
                if (bw >= 26) {
                    text_open(w, x, bottom - h * hi - 5,
                              "font-size=\"10\" text-anchor=\"middle\" " HALO);
                    fray__text_s(w, share_text(won, k->trials, false).s);
                    text_close(w);
                }
            }
        }
    }
    return (int)bottom + 56;
}

/* Mean fight length per variant, with the 5%-95% range as whiskers. */
static int chart_sweep_length(fray__text *w, const ctx *c) {
    char sub[80];
    snprintf(sub, sizeof sub,
             "mean %ss per fight; whiskers: 5%% to 95%% of fights", c->unit);
    chart_title(w, "Mean fight length by ", c->keys_text,
                sub);
    double top = 62, h = 130, bottom = top + h;
    double ymax = 0;
    for (int v = 0; v < c->nv; v++) {
        int q = fray_sim_length_quantile(vcounts(c, v), 0.95);
        if (q > ymax)
            ymax = q;
    }
    double step = nice_step(ymax > 0 ? ymax : 1, 4);
    if (step < 1)
        step = 1;
    ymax = ceil(ymax / step - 1e-9) * step;
    if (ymax <= 0)
        ymax = step;
    char units[32];
    snprintf(units, sizeof units, "%ss", c->unit);
    sweep_yaxis(w, top, h, ymax, step, "", units);
    sweep_xaxis(w, c, bottom);
    double group = (SW_X1 - SW_X0) / (double)c->nv;
    double bw = group * 0.5 > 40 ? 40 : group * 0.5;
    if (c->numeric) {
        fray__text_s(w, "<polyline class=\"length-line\" fill=\"none\" stroke=\"" C_LENGTH
                "\" stroke-width=\"2\" points=\"");
        for (int i = 0; i < c->nv; i++) {
            int v = sweep_nth(c, i);
            fray__text_f(w, "%s%s %s", i ? " " : "", F1(sweep_x(c, v)),
                 F1(bottom - h * fray_sim_length_mean(vcounts(c, v)) / ymax));
        }
        fray__text_s(w, "\"/>\n");
    }
    for (int v = 0; v < c->nv; v++) {
        const fray_sim_counts *k = vcounts(c, v);
        if (k->trials == 0)
            continue;
        double mean = fray_sim_length_mean(k);
        double x = sweep_x(c, v);
        double y = bottom - h * mean / ymax;
        double q5 = fray_sim_length_quantile(k, 0.05);
        double q95 = fray_sim_length_quantile(k, 0.95);
        if (!c->numeric)
            fray__text_f(w,
                 "<rect class=\"length-mean-bar\" x=\"%s\" y=\"%s\" width=\"%s\" "
                 "height=\"%s\" fill=\"" C_LENGTH "\"/>\n",
                 F2(x - bw / 2), F2(y), F2(bw), F2(bottom - y));
        vwhisker(w, x, bottom - h * q5 / ymax, bottom - h * q95 / ymax, 4, C_TEXT);
        fray__text_f(w,
             "<circle class=\"length-point\" cx=\"%s\" cy=\"%s\" r=\"%s\" "
             "fill=\"" C_LENGTH "\" stroke=\"white\"><title>",
             F1(x), F1(y), c->numeric ? "4" : "0");
        rw_esc(w, variant_name(c, v));
        fray__text_f(w, ": mean %s %ss (5%%&#8211;95%%: %s&#8211;%s)</title></circle>\n",
             F1(mean), c->unit, F0(q5), F0(q95));
    }
    return (int)bottom + 56;
}

/* ---- Chart: a sweep over two keys, as heat maps --------------------------- */

enum { HM_X0 = 170, HM_X1 = 770, HM_ROW = 26, HM_TOP = 96 };

/* The grid's labels: the first key's value of column a, the second's of
 * row d. */
static const char *grid_across(const ctx *c, int a) {
    const char *v = c->r->variants[a * c->n2].value;
    return v ? v : "";
}

static const char *grid_down(const ctx *c, int d) {
    const char *v = c->r->variants[d].value2;
    return v ? v : "";
}

/* One heat map per side: the share of fights it won, the first key's
 * values across, the second key's down; the deeper the colour the more
 * it won. */
static int chart_heatmap(fray__text *w, const ctx *c) {
    double cw = (HM_X1 - HM_X0) / (double)c->n1;
    if (cw > 110)
        cw = 110;
    int y = 0;
    for (int s = 0; s < c->n_sides; s++) {
        fray__text_f(w, "<g class=\"heatmap\" data-side=\"%d\" transform=\"translate(0 %d)\">\n",
                     s, y);
        text_open(w, 20, 28, "font-size=\"17\" font-weight=\"bold\"");
        fray__text_s(w, "Win rate of ");
        rw_esc(w, side_name(c, s));
        fray__text_s(w, " by ");
        rw_esc(w, c->r->vary_key);
        fray__text_s(w, " and ");
        rw_esc(w, c->r->vary_key2);
        text_close(w);
        text_open(w, 20, 46, "font-size=\"12\" fill=\"" C_MUTED "\"");
        fray__text_s(w, "each cell: the share of fights won; the deeper the "
                        "colour, the more");
        text_close(w);
        /* The first key across: its name over its values. */
        text_open(w, HM_X0 + cw * c->n1 / 2, 66,
                  "font-size=\"12\" text-anchor=\"middle\" font-weight=\"bold\"");
        rw_esc(w, c->r->vary_key);
        text_close(w);
        for (int a = 0; a < c->n1; a++)
            text_esc(w, HM_X0 + cw * (a + 0.5), 84,
                     "font-size=\"11\" text-anchor=\"middle\"",
                     grid_across(c, a));
        /* The second key down: its name left of its values. */
        text_open(w, 20, HM_TOP - 2, "font-size=\"12\" font-weight=\"bold\"");
        rw_esc(w, c->r->vary_key2);
        text_close(w);
        for (int d = 0; d < c->n2; d++) {
            double cy = HM_TOP + d * HM_ROW;
            text_esc(w, HM_X0 - 8, cy + HM_ROW / 2.0 + 4,
                     "font-size=\"11\" text-anchor=\"end\"", grid_down(c, d));
            for (int a = 0; a < c->n1; a++) {
                const fray_sim_counts *k = vcounts(c, a * c->n2 + d);
                double share = k->trials ? (double)k->wins[s] / (double)k->trials
                                         : 0;
                fray__text_f(w,
                     "<rect class=\"heat-cell\" data-side=\"%d\" x=\"%s\" y=\"%s\" "
                     "width=\"%s\" height=\"%d\" fill=\"%s\" fill-opacity=\"%s\" "
                     "stroke=\"white\"><title>",
                     s, F2(HM_X0 + a * cw), F1(cy), F2(cw), HM_ROW,
                     side_colour(s), F2(0.08 + 0.92 * share));
                rw_esc(w, c->r->vary_key);
                fray__text_s(w, "=");
                rw_esc(w, grid_across(c, a));
                fray__text_s(w, ", ");
                rw_esc(w, c->r->vary_key2);
                fray__text_s(w, "=");
                rw_esc(w, grid_down(c, d));
                fray__text_s(w, ": ");
                rw_esc(w, side_name(c, s));
                fray__text_f(w, " won %s of fights</title></rect>\n",
                             share_text(k->wins[s], k->trials, false).s);
                if (cw >= 34)
                    text_open(w, HM_X0 + cw * (a + 0.5), cy + HM_ROW / 2.0 + 4,
                              share > 0.55
                                  ? "font-size=\"11\" text-anchor=\"middle\" fill=\"white\""
                                  : "font-size=\"11\" text-anchor=\"middle\"");
                if (cw >= 34) {
                    fray__text_s(w, share_text(k->wins[s], k->trials, false).s);
                    text_close(w);
                }
            }
        }
        fray__text_s(w, "</g>\n");
        y += HM_TOP + c->n2 * HM_ROW + 30;
    }
    return y + 10;
}

/* ---- The document -------------------------------------------------------- */

static void trials_line(fray__text *w, const ctx *c) {
    uint64_t trials = c->nv ? vcounts(c, 0)->trials : 0;
    fray__text_f(w, "%s trials", grouped(trials).s);
    if (c->sweep)
        fray__text_f(w, " per variant, %d variants", c->nv);
    fray__text_f(w, " &#183; seed %llu", (unsigned long long)c->r->seed);
    if (c->r->seconds > 0)
        fray__text_f(w, " &#183; %s s", c->r->seconds < 10 ? F2(c->r->seconds)
                                                  : F1(c->r->seconds));
    if (c->sweep) {
        fray__text_s(w, " &#183; varied: ");
        rw_esc(w, c->keys_text);
    }
}

static const char *title_of(const ctx *c) {
    return c->r->title && c->r->title[0] ? c->r->title : "fray simulation";
}

static int chart_header(fray__text *w, const ctx *c) {
    text_esc(w, 20, 34, "font-size=\"22\" font-weight=\"bold\"", title_of(c));
    text_open(w, 20, 56, "font-size=\"13\" fill=\"" C_MUTED "\"");
    trials_line(w, c);
    text_close(w);
    svg_line(w, 20, 70, W - 20, 70, "stroke=\"" C_GRID "\"");
    return 74;
}

typedef int (*chart_fn)(fray__text *w, const ctx *c);

/* Every chart, stacked; returns the total height. */
static int draw_charts(fray__text *w, const ctx *c) {
    static const struct {
        const char *id;
        chart_fn fn;
        bool sweep_only;
    } charts[] = {
        {"header", chart_header, false},
        /* A sweep over two keys: a heat map per side first. */
        {"heatmaps", chart_heatmap, true},
        /* A sweep's question first: how the varied value moves the odds. */
        {"sweep", chart_sweep, true},
        {"sweep-length", chart_sweep_length, true},
        {"who-wins", chart_wins, false},
        {"length", chart_length, false},
        {"standing", chart_standing, false},
    };
    int y = 0;
    for (size_t i = 0; i < sizeof charts / sizeof charts[0]; i++) {
        if ((charts[i].sweep_only && !c->sweep) || (i == 0 && c->html) ||
            (charts[i].fn == chart_heatmap && !c->grid))
            continue;
        if (c->nv == 0 && i > 0)
            break;
        fray__text_f(w, "<g id=\"%s\" transform=\"translate(0 %d)\">\n", charts[i].id, y);
        y += charts[i].fn(w, c);
        fray__text_s(w, "</g>\n");
    }
    return y + 10;
}

static void write_svg(fray__text *w, const ctx *c) {
    /* The height is known once every chart is drawn: measure first, into
     * a writer with no room. */
    fray__text measure;
    fray__text_init(&measure, NULL, 0);
    int height = draw_charts(&measure, c);
    fray__text_f(w,
         "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
         "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"" FONT
         "\" font-size=\"12\" fill=\"" C_TEXT "\" role=\"img\">\n",
         W, height, W, height);
    fray__text_s(w, "<title>");
    rw_esc(w, title_of(c));
    fray__text_s(w, ": simulation report</title>\n");
    fray__text_f(w, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, height);
    draw_charts(w, c);
    fray__text_s(w, "</svg>\n");
}

size_t fray_sim_report_svg(const fray_sim_report *report, char *buf,
                           size_t size) {
    fray__text w;
    fray__text_init(&w, buf, size);
    if (!report)
        return 0;
    ctx c;
    ctx_init(&c, report);
    fray__text_s(&w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    write_svg(&w, &c);
    return w.len;
}

/* ---- The HTML page ------------------------------------------------------- */

static const char html_style[] =
    "body{font-family:" FONT ";color:#222;max-width:960px;margin:2em auto;"
    "padding:0 1em;line-height:1.4}\n"
    "h1{font-size:1.6em;margin-bottom:0.2em}\n"
    "h2{font-size:1.25em;margin-top:1.8em;border-bottom:1px solid #ddd}\n"
    "h3{font-size:1.05em;margin-bottom:0.3em}\n"
    ".meta{color:#666;margin-top:0}\n"
    "svg{display:block;max-width:100%;height:auto}\n"
    "table{border-collapse:collapse;margin:0.5em 0 1em;font-size:0.92em}\n"
    "th,td{padding:3px 9px;text-align:right;border-bottom:1px solid #e4e4e4;"
    "white-space:nowrap}\n"
    "th{background:#f4f4f4;white-space:normal;vertical-align:bottom}\n"
    ".scroll{overflow-x:auto;max-width:100%}\n"
    "dl.legend{display:grid;grid-template-columns:max-content auto;"
    "gap:0.15em 0.8em;font-size:0.92em}\n"
    "dl.legend dt{font-weight:bold}\n"
    "dl.legend dd{margin:0}\n"
    "th:first-child,td:first-child{text-align:left}\n"
    "th.name,td.name{text-align:left}\n"
    "th{min-width:4.5em}\n"
    ".ci{color:#777;font-size:0.9em;display:block}\n"
    ".swatch{display:inline-block;width:0.8em;height:0.8em;margin-right:0.35em}\n";

static void th_esc(fray__text *w, const char *s) {
    fray__text_s(w, "<th>");
    rw_esc(w, s);
    fray__text_s(w, "</th>");
}

static void td_share(fray__text *w, uint64_t k, uint64_t n, bool ci) {
    fray__text_f(w, "<td>%s", share_text(k, n, false).s);
    if (ci) {
        double lo, hi;
        fray_sim_interval95(k, n, &lo, &hi);
        fray__text_f(w, " <span class=\"ci\">(%s&#8211;%s)</span>",
                     end_text(lo).s, end_text(hi).s);
    }
    fray__text_s(w, "</td>");
}

static void td_mean(fray__text *w, uint64_t sum, uint64_t trials) {
    fray__text_f(w, "<td>%s</td>", F2(trials ? (double)sum / (double)trials : 0.0));
}

static void html_variant_cell(fray__text *w, const ctx *c, int v) {
    if (!c->sweep)
        return;
    fray__text_s(w, "<td class=\"name\">");
    rw_esc(w, variant_name(c, v));
    fray__text_s(w, "</td>");
}

/* The sweep: whom each key changes, and for two keys the grid of each
 * side's win rate (the first key across, one row per value of the
 * second). */
static void html_sweep(fray__text *w, const ctx *c) {
    if (!c->sweep || (!c->r->vary_scope && !c->grid))
        return;
    fray__text_s(w, "<h2>The sweep</h2>\n");
    if (c->r->vary_scope || c->r->vary_scope2) {
        fray__text_s(w, "<dl class=\"legend\">\n");
        for (int k = 0; k < 2; k++) {
            const char *key = k ? c->r->vary_key2 : c->r->vary_key;
            const char *scope = k ? c->r->vary_scope2 : c->r->vary_scope;
            if (!key || !scope)
                continue;
            fray__text_s(w, "<dt>");
            rw_esc(w, key);
            fray__text_s(w, "</dt><dd>changes ");
            rw_esc(w, scope);
            fray__text_s(w, "</dd>\n");
        }
        fray__text_s(w, "</dl>\n");
    }
    if (!c->grid)
        return;
    for (int s = 0; s < c->n_sides; s++) {
        fray__text_s(w, "<h3>Win rate of ");
        rw_esc(w, side_name(c, s));
        fray__text_s(w, " by ");
        rw_esc(w, c->r->vary_key);
        fray__text_s(w, " (across) and ");
        rw_esc(w, c->r->vary_key2);
        fray__text_s(w, " (down)</h3>\n<div class=\"scroll\"><table class=\"grid\">\n"
                        "<thead><tr><th class=\"name\">");
        rw_esc(w, c->r->vary_key2);
        fray__text_s(w, " \\ ");
        rw_esc(w, c->r->vary_key);
        fray__text_s(w, "</th>");
        for (int a = 0; a < c->n1; a++)
            th_esc(w, grid_across(c, a));
        fray__text_s(w, "</tr></thead>\n<tbody>\n");
        for (int d = 0; d < c->n2; d++) {
            fray__text_s(w, "<tr><td class=\"name\">");
            rw_esc(w, grid_down(c, d));
            fray__text_s(w, "</td>");
            for (int a = 0; a < c->n1; a++) {
                const fray_sim_counts *k = vcounts(c, a * c->n2 + d);
                td_share(w, k->wins[s], k->trials, false);
            }
            fray__text_s(w, "</tr>\n");
        }
        fray__text_s(w, "</tbody>\n</table></div>\n");
    }
}

static void html_wins(fray__text *w, const ctx *c) {
    fray__text_s(w, "<h2>Who wins</h2>\n<p>Share of fights each side won, with its 95% "
            "interval (Wilson score).</p>\n<div class=\"scroll\"><table>\n<thead><tr>");
    if (c->sweep) {
        fray__text_s(w, "<th>");
        rw_esc(w, c->keys_text);
        fray__text_s(w, "</th>");
    }
    for (int s = 0; s < c->n_sides; s++) {
        fray__text_f(w, "<th><span class=\"swatch\" style=\"background:%s\"></span>",
             side_colour(s));
        rw_esc(w, side_name(c, s));
        fray__text_s(w, "</th>");
    }
    fray__text_s(w, "<th>nobody</th><th>fights</th></tr></thead>\n<tbody>\n");
    for (int v = 0; v < c->nv; v++) {
        const fray_sim_counts *k = vcounts(c, v);
        fray__text_s(w, "<tr>");
        html_variant_cell(w, c, v);
        for (int s = 0; s < c->n_sides; s++)
            td_share(w, k->wins[s], k->trials, true);
        td_share(w, nobody(k), k->trials, true);
        fray__text_f(w, "<td>%s</td></tr>\n", grouped(k->trials).s);
    }
    fray__text_s(w, "</tbody>\n</table></div>\n");
    if (c->any_nobody)
        fray__text_f(w, "<p>Nobody wins when every side is out at once, or when the "
                "%s limit comes first.</p>\n", c->unit);
}

static void html_length(fray__text *w, const ctx *c) {
    fray__text_f(w, "<h2>How long the fight lasts (%ss)</h2>\n"
            "<div class=\"scroll\"><table>\n<thead><tr>", c->unit);
    if (c->sweep) {
        fray__text_s(w, "<th>");
        rw_esc(w, c->keys_text);
        fray__text_s(w, "</th>");
    }
    fray__text_f(w, "<th>mean</th><th>median</th><th>5%%&#8211;95%%</th><th>longest</th>"
            "<th>%s limit reached</th></tr></thead>\n<tbody>\n", c->unit);
    for (int v = 0; v < c->nv; v++) {
        const fray_sim_counts *k = vcounts(c, v);
        fray__text_s(w, "<tr>");
        html_variant_cell(w, c, v);
        if (k->trials == 0 || report_length_min(k) < 0) {
            fray__text_s(w, "<td>&#8211;</td><td>&#8211;</td><td>&#8211;</td>"
                    "<td>&#8211;</td><td>&#8211;</td></tr>\n");
            continue;
        }
        fray__text_f(w, "<td>%s</td><td>%d</td><td>%d&#8211;%d</td><td>%d</td>",
             F1(fray_sim_length_mean(k)), fray_sim_length_quantile(k, 0.5),
             fray_sim_length_quantile(k, 0.05), fray_sim_length_quantile(k, 0.95),
             fray_sim_length_quantile(k, 1.0));
        td_share(w, k->unfinished, k->trials, false);
        fray__text_s(w, "</tr>\n");
    }
    fray__text_s(w, "</tbody>\n</table></div>\n");
}

static void html_variant_heading(fray__text *w, const ctx *c, int v) {
    if (!c->sweep)
        return;
    fray__text_s(w, "<h3>");
    rw_esc(w, variant_name(c, v));
    fray__text_s(w, "</h3>\n");
}

/* The first two cells of a combatant's row: its name and side. */
static void html_combatant_cells(fray__text *w, const ctx *c, int i) {
    int s = comb_side(c, i);
    fray__text_s(w, "<tr><td>");
    rw_esc(w, comb_name(c, i));
    fray__text_s(w, "</td><td class=\"name\">");
    if (s >= 0)
        rw_esc(w, side_name(c, s));
    fray__text_s(w, "</td>");
}

/* Two tables per variant, each narrow enough for the page: how each
 * combatant ends (shares, with the legend of the words), and its means
 * per fight. */
static void html_combatants(fray__text *w, const ctx *c) {
    fray__text_s(w, "<h2>Who is still standing</h2>\n<p>Shares of fights each "
                    "combatant ends so, with their 95% intervals:</p>\n");
    /* What the words of how a combatant ends mean in this ruleset. */
    bool fled = false;
    for (int v = 0; v < c->nv; v++)
        for (int i = 0; i < c->n_comb; i++)
            fled = fled || vcounts(c, v)->c[i].fled;
    fray__text_s(w, "<dl class=\"legend\">\n");
    for (int st = 0; st < FRAY_SIM_STATES; st++) {
        if (st == FRAY_SIM_FLED && !fled)
            continue;
        fray__text_f(w, "<dt>%s</dt><dd>", fray_sim_state_name(st));
        rw_esc(w, state_meaning(c, st));
        fray__text_s(w, "</dd>\n");
    }
    fray__text_s(w, "</dl>\n");
    for (int v = 0; v < c->nv; v++) {
        const fray_sim_counts *k = vcounts(c, v);
        html_variant_heading(w, c, v);
        fray__text_s(w, "<div class=\"scroll\"><table class=\"states\">\n<thead><tr>"
                "<th>combatant</th><th class=\"name\">side</th>"
                "<th>still standing</th><th>unconscious</th><th>dying</th>"
                "<th>dead</th>");
        if (fled)
            fray__text_s(w, "<th>fled</th>");
        fray__text_s(w, "</tr></thead>\n<tbody>\n");
        for (int i = 0; i < c->n_comb; i++) {
            const fray_sim_combatant_counts *cc = &k->c[i];
            html_combatant_cells(w, c, i);
            td_share(w, cc->standing, k->trials, true);
            td_share(w, cc->unconscious, k->trials, true);
            td_share(w, cc->dying, k->trials, true);
            td_share(w, cc->dead, k->trials, true);
            if (fled)
                td_share(w, cc->fled, k->trials, true);
            fray__text_s(w, "</tr>\n");
        }
        fray__text_s(w, "</tbody>\n</table></div>\n");
    }
    fray__text_s(w, "<h2>What each combatant dealt, took and spent</h2>\n"
                    "<p>Means per fight.</p>\n");
    for (int v = 0; v < c->nv; v++) {
        const fray_sim_counts *k = vcounts(c, v);
        html_variant_heading(w, c, v);
        fray__text_s(w, "<div class=\"scroll\"><table class=\"means\">\n<thead><tr>"
                "<th>combatant</th><th class=\"name\">side</th>");
        for (int h = 0; h < FRAY_SIM_HARM_KINDS && harm_word(c, h); h++)
            fray__text_f(w, "<th>%s dealt</th><th>%s taken</th>",
                         harm_word(c, h), harm_word(c, h));
        fray__text_s(w, "<th>actions</th>");
        for (int k2 = 0; k2 < FRAY_SIM_SPENT_KINDS && spent_word(c, k2); k2++)
            fray__text_f(w, "<th>%s</th>", spent_word(c, k2));
        fray__text_s(w, "</tr></thead>\n<tbody>\n");
        for (int i = 0; i < c->n_comb; i++) {
            const fray_sim_combatant_counts *cc = &k->c[i];
            html_combatant_cells(w, c, i);
            for (int h = 0; h < FRAY_SIM_HARM_KINDS && harm_word(c, h); h++) {
                td_mean(w, cc->dealt[h], k->trials);
                td_mean(w, cc->taken[h], k->trials);
            }
            td_mean(w, cc->actions, k->trials);
            for (int k2 = 0; k2 < FRAY_SIM_SPENT_KINDS && spent_word(c, k2);
                 k2++)
                td_mean(w, cc->spent[k2], k->trials);
            fray__text_s(w, "</tr>\n");
        }
        fray__text_s(w, "</tbody>\n</table></div>\n");
    }
}

static void html_actions(fray__text *w, const ctx *c) {
    fray__text_s(w, "<h2>What they did</h2>\n<p>Mean actions per fight, by kind (only "
            "the kinds somebody took).</p>\n");
    for (int v = 0; v < c->nv; v++) {
        const fray_sim_counts *k = vcounts(c, v);
        bool used[FRAY_SIM_ACTION_KINDS];
        bool any = false;
        for (int a = 0; a < FRAY_SIM_ACTION_KINDS; a++) {
            used[a] = false;
            for (int i = 0; i < c->n_comb; i++)
                if (k->c[i].by_kind[a])
                    used[a] = true;
            any = any || used[a];
        }
        html_variant_heading(w, c, v);
        if (!any) {
            fray__text_s(w, "<p>No actions.</p>\n");
            continue;
        }
        fray__text_s(w, "<div class=\"scroll\"><table>\n<thead><tr><th>combatant</th>");
        for (int a = 0; a < FRAY_SIM_ACTION_KINDS; a++)
            if (used[a]) {
                const char *name = action_word(c, a);
                if (name)
                    th_esc(w, name);
                else
                    fray__text_f(w, "<th>action %d</th>", a);
            }
        fray__text_s(w, "</tr></thead>\n<tbody>\n");
        for (int i = 0; i < c->n_comb; i++) {
            fray__text_s(w, "<tr><td>");
            rw_esc(w, comb_name(c, i));
            fray__text_s(w, "</td>");
            for (int a = 0; a < FRAY_SIM_ACTION_KINDS; a++)
                if (used[a])
                    td_mean(w, k->c[i].by_kind[a], k->trials);
            fray__text_s(w, "</tr>\n");
        }
        fray__text_s(w, "</tbody>\n</table></div>\n");
    }
}

size_t fray_sim_report_html(const fray_sim_report *report, char *buf,
                            size_t size) {
    fray__text w;
    fray__text_init(&w, buf, size);
    if (!report)
        return 0;
    ctx c;
    ctx_init(&c, report);
    c.html = true;
    fray__text_s(&w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
             "<meta charset=\"utf-8\"/>\n"
             "<meta name=\"viewport\" content=\"width=device-width, "
             "initial-scale=1\"/>\n<title>");
    rw_esc(&w, title_of(&c));
    fray__text_s(&w, ": simulation report</title>\n<style>\n");
    fray__text_s(&w, html_style);
    fray__text_s(&w, "</style>\n</head>\n<body>\n<h1>");
    rw_esc(&w, title_of(&c));
    fray__text_s(&w, "</h1>\n<p class=\"meta\">");
    trials_line(&w, &c);
    fray__text_s(&w, "</p>\n");
    write_svg(&w, &c);
    if (c.nv > 0) {
        html_sweep(&w, &c);
        html_wins(&w, &c);
        html_length(&w, &c);
        html_combatants(&w, &c);
        html_actions(&w, &c);
    }
    fray__text_s(&w, "<p class=\"meta\">Drawn by fray.</p>\n</body>\n</html>\n");
    return w.len;
}
