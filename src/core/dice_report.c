/*
 * dice_report.c - a dice expression's distribution drawn as an SVG bar
 * chart (one bar per total, two side by side when two expressions are
 * compared), and an HTML page holding the chart and the table of every
 * total (issue 15 section 1: `fray odds roll --report`). No plotting
 * library: the SVG is written by hand, as report.c does for simulations.
 */
#include "dice_int.h"

#include <math.h>
#include <string.h>

static int64_t dist_hi(const fray_bigdist *d) {
    return fray_bigdist_lo(d) + (int64_t)fray_bigdist_n(d) - 1;
}

/* Text from the user (the expressions), escaped for XML. */
static void sb_xml(fray__text *b, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '<': fray__text_f(b, "&lt;"); break;
        case '>': fray__text_f(b, "&gt;"); break;
        case '&': fray__text_f(b, "&amp;"); break;
        case '"': fray__text_f(b, "&quot;"); break;
        default:
            if ((unsigned char)*s >= 0x20)
                fray__text_put(b, s, 1);
        }
    }
}

/* A "nice" step for about `ticks` ticks over span. */
static double nice_step(double span, int ticks) {
    double raw = span / ticks, mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static const char *const COLOR[2] = {"#3b6ea8", "#d98b2b"};

/* The bar chart of P(total = t): one bar per total (two side by side when
 * comparing), axes with ticks, a title naming the expressions. */
static void chart_svg(fray__text *b, const fray_bigdist *const *s,
                      const char *const *names, int n_sides) {
    int64_t lo = fray_bigdist_lo(s[0]), hi = dist_hi(s[0]);
    for (int k = 1; k < n_sides; k++) {
        lo = fray_bigdist_lo(s[k]) < lo ? fray_bigdist_lo(s[k]) : lo;
        hi = dist_hi(s[k]) > hi ? dist_hi(s[k]) : hi;
    }
    size_t n = (size_t)(hi - lo + 1);
    double top = 0;
    for (int k = 0; k < n_sides; k++)
        for (size_t i = 0; i < n; i++) {
            double v = fray_bigdist_p(s[k], FRAY_DIST_EQ, lo + (int64_t)i);
            top = v > top ? v : top;
        }
    const double W = 760, H = 420, L = 70, R = 20, T = 60, B = 60;
    double pw = W - L - R, ph = H - T - B;
    double ystep = nice_step(top * 100, 5), ymax = ceil(top * 100 / ystep) * ystep;
    if (ymax <= 0)
        ymax = 1;
    fray__text_f(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
         W, H, W, H);
    fray__text_f(b, "<title>");
    for (int k = 0; k < n_sides; k++) {
        if (k)
            fray__text_f(b, " vs ");
        sb_xml(b, names[k]);
    }
    fray__text_f(b, ": the chance of each total</title>\n");
    fray__text_f(b, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fray__text_f(b, "<text x=\"%.0f\" y=\"24\" text-anchor=\"middle\" font-size=\"16\" "
            "font-weight=\"bold\">", W / 2);
    for (int k = 0; k < n_sides; k++) {
        if (k)
            fray__text_f(b, " vs ");
        sb_xml(b, names[k]);
    }
    fray__text_f(b, ": the chance of each total</text>\n");
    /* legend with the means */
    for (int k = 0; k < n_sides; k++) {
        double x = L + (double)k * 320;
        fray__text_f(b, "<rect x=\"%.0f\" y=\"34\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                "<text x=\"%.0f\" y=\"45\">", x, COLOR[k], x + 18);
        sb_xml(b, names[k]);
        double mean, sd;
        fray__bigdist_moments_d(s[k], &mean, &sd);
        fray__text_f(b, " (mean %.2f, standard deviation %.2f)</text>\n", mean, sd);
    }
    /* y axis: grid lines and percentages */
    for (double y = 0; y <= ymax + 1e-9; y += ystep) {
        double py = T + ph - y / ymax * ph;
        fray__text_f(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g%%</text>\n",
             L, py, L + pw, py, L - 6, py + 4, y);
    }
    /* bars */
    double slot = pw / (double)n, bw = slot * 0.8 / n_sides;
    for (int k = 0; k < n_sides; k++)
        for (size_t i = 0; i < n; i++) {
            double v = fray_bigdist_p(s[k], FRAY_DIST_EQ, lo + (int64_t)i) * 100;
            if (v <= 0)
                continue;
            double h = v / ymax * ph;
            double x = L + (double)i * slot + slot * 0.1 + bw * k;
            fray__text_f(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                    "fill=\"%s\"><title>%lld: %.4g%%</title></rect>\n",
                 x, T + ph - h, bw, h, COLOR[k], (long long)(lo + (int64_t)i), v);
        }
    /* x axis: ticks at nice totals */
    fray__text_f(b, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n",
         L, T + ph, L + pw, T + ph);
    fray__text_f(b, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n",
         L, T, L, T + ph);
    double xstep = n <= 25 ? 1 : nice_step((double)n, 12);
    for (int64_t t = lo; t <= hi; t++) {
        if (fmod((double)t, xstep) != 0)
            continue;
        double x = L + (double)(t - lo) * slot + slot / 2;
        fray__text_f(b, "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.0f\" stroke=\"black\"/>"
                "<text x=\"%.2f\" y=\"%.0f\" text-anchor=\"middle\">%lld</text>\n",
             x, T + ph, x, T + ph + 5, x, T + ph + 18, (long long)t);
    }
    fray__text_f(b, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">total%s</text>\n",
         L + pw / 2, H - 14,
         (fray_bigdist_tail(s[0]) || (n_sides > 1 && fray_bigdist_tail(s[1])))
             ? " (the last bar of a Wild Die: that total or more)" : "");
    fray__text_f(b, "<text transform=\"translate(18 %.0f) rotate(-90)\" text-anchor=\"middle\">"
            "chance of exactly this total</text>\n", T + ph / 2);
    fray__text_f(b, "</svg>\n");
}

static void report_html(fray__text *b, const fray_bigdist *const *s,
                        const char *const *names, int n_sides) {
    fray__text_f(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>");
    for (int k = 0; k < n_sides; k++) {
        if (k)
            fray__text_f(b, " vs ");
        sb_xml(b, names[k]);
    }
    fray__text_f(b, "</title>\n<style>body{font-family:sans-serif;margin:2em}"
            "table{border-collapse:collapse}td,th{padding:2px 10px;text-align:right;"
            "border-bottom:1px solid #eee}</style>\n</head>\n<body>\n<h1>");
    for (int k = 0; k < n_sides; k++) {
        if (k)
            fray__text_f(b, " vs ");
        sb_xml(b, names[k]);
    }
    fray__text_f(b, "</h1>\n");
    chart_svg(b, s, names, n_sides);
    for (int k = 0; k < n_sides; k++) {
        fray__text_f(b, "<h2>");
        sb_xml(b, names[k]);
        double mean, sd;
        fray__bigdist_moments_d(s[k], &mean, &sd);
        fray__text_f(b, "</h2>\n<p>mean %.4f, standard deviation %.4f</p>\n<table>\n"
                "<tr><th>total</th><th>exactly</th><th>at least</th><th>at most</th></tr>\n",
             mean, sd);
        int64_t lo = fray_bigdist_lo(s[k]);
        for (size_t i = 0; i < fray_bigdist_n(s[k]); i++) {
            int64_t t = lo + (int64_t)i;
            double eq = fray_bigdist_p(s[k], FRAY_DIST_EQ, t);
            if (eq != 0)
                fray__text_f(b, "<tr><td>%lld%s</td><td>%.4f%%</td><td>%.4f%%</td><td>%.4f%%</td></tr>\n",
                     (long long)t, (fray_bigdist_tail(s[k]) && t == dist_hi(s[k])) ? "+" : "", 100 * eq,
                     100 * fray_bigdist_p(s[k], FRAY_DIST_AT_LEAST, t),
                     100 * fray_bigdist_p(s[k], FRAY_DIST_AT_MOST, t));
        }
        fray__text_f(b, "</table>\n");
    }
    fray__text_f(b, "</body>\n</html>\n");
}


size_t fray_dice_report_svg(const fray_bigdist *const *dists,
                            const char *const *names, int n, char *buf,
                            size_t size) {
    fray__text t;
    fray__text_init(&t, buf, size);
    if (dists && names && n >= 1 && n <= 2)
        chart_svg(&t, dists, names, n);
    return t.len;
}

size_t fray_dice_report_html(const fray_bigdist *const *dists,
                             const char *const *names, int n, char *buf,
                             size_t size) {
    fray__text t;
    fray__text_init(&t, buf, size);
    if (dists && names && n >= 1 && n <= 2)
        report_html(&t, dists, names, n);
    return t.len;
}
