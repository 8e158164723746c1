/*
 * odds_roll.c - `fray odds roll EXPR` (without --attack): a dice
 * expression's exact distribution with its mean, standard deviation and
 * "at least" / "at most" columns, side by side with a second expression
 * (--vs-roll), drawn with --report FILE.svg or FILE.html (issue 15
 * section 1). Counts of any size come from fray_dice_bigdist.
 */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One expression's numbers, ready to print. */
typedef struct side {
    const char *text;   /* as written */
    char *canon;        /* canonical form */
    fray_dice *dice;    /* owned only for the --vs-roll side */
    fray_bigdist *dist;
    fray_bigratio mean, var;
    double sd;
} side;

static void side_free(side *s) {
    free(s->canon);
    fray_bigdist_free(s->dist);
    fray_bigratio_free(&s->mean);
    fray_bigratio_free(&s->var);
}

static int64_t side_hi(const side *s) {
    return fray_bigdist_lo(s->dist) + (int64_t)fray_bigdist_n(s->dist) - 1;
}

/* Works out one side; prints the error and returns false when it cannot. */
static bool side_compute(cli_args *args, side *s, const fray_dice *dice,
                         int64_t exact_through) {
    fray_status st = fray_dice_bigdist(dice, exact_through, NULL, &s->dist);
    if (st == FRAY_ERR_TOO_LARGE) {
        cli_error(args, "'%s' is too large to count exactly (its totals "
                        "span more than 4 million values, a product more "
                        "than a million, or counting them would take more "
                        "than a few seconds)", s->text);
        return false;
    }
    if (st == FRAY_OK)
        st = fray_bigdist_mean(s->dist, &s->mean);
    if (st == FRAY_OK)
        st = fray_bigdist_variance(s->dist, &s->var);
    if (st == FRAY_OK)
        s->canon = cli_dice_text(dice);
    if (st == FRAY_OK && !s->canon)
        st = FRAY_ERR_NOMEM;
    if (st != FRAY_OK) {
        cli_error(args, "cannot work out '%s': %s", s->text, fray_strerror(st));
        return false;
    }
    s->sd = sqrt(s->var.value > 0 ? s->var.value : 0);
    return true;
}

/* The three probabilities of one total. */
typedef struct row {
    fray_bigratio eq, ge, le;
} row;

static void row_free(row *r) {
    fray_bigratio_free(&r->eq);
    fray_bigratio_free(&r->ge);
    fray_bigratio_free(&r->le);
}

static bool row_get(const side *s, int64_t t, row *r) {
    memset(r, 0, sizeof *r);
    if (fray_bigdist_prob(s->dist, FRAY_DIST_EQ, t, &r->eq) != FRAY_OK ||
        fray_bigdist_prob(s->dist, FRAY_DIST_AT_LEAST, t, &r->ge) != FRAY_OK ||
        fray_bigdist_prob(s->dist, FRAY_DIST_AT_MOST, t, &r->le) != FRAY_OK) {
        row_free(r);
        return false;
    }
    return true;
}

static bool is_tail_row(const side *s, int64_t t) {
    return fray_bigdist_tail(s->dist) && t == side_hi(s);
}

/* ---- JSON ------------------------------------------------------------------- */

static bool json_side(json_out *j, const side *s) {
    json_kv_string(j, "expression", s->canon);
    json_key(j, "distribution");
    json_begin_array(j);
    int64_t lo = fray_bigdist_lo(s->dist);
    size_t n = fray_bigdist_n(s->dist);
    for (size_t i = 0; i < n; i++) {
        row r;
        if (!row_get(s, lo + (int64_t)i, &r))
            return false;
        if (r.eq.num[0] == '0') {
            row_free(&r);
            continue;
        }
        json_begin_object(j);
        json_kv_int(j, "total", (long long)(lo + (int64_t)i));
        if (is_tail_row(s, lo + (int64_t)i))
            json_kv_bool(j, "or_more", true);
        json_big_fields(j, &r.eq);
        json_big(j, "at_least", &r.ge);
        json_big(j, "at_most", &r.le);
        json_end_object(j);
        row_free(&r);
    }
    json_end_array(j);
    json_big(j, "mean", &s->mean);
    json_big(j, "variance", &s->var);
    json_key(j, "standard_deviation");
    json_double(j, s->sd);
    return true;
}

/* ---- Text --------------------------------------------------------------------- */

static void print_prob(const fray_bigratio *r) { out_percent(stdout, r->value); }

/* The exact fraction when it fits the column, else nothing (JSON has it). */
static bool print_fraction(const fray_bigratio *r, int width) {
    size_t need = strlen(r->num) + (strcmp(r->den, "1") ? strlen(r->den) + 1 : 0);
    if (need > (size_t)width) {
        printf("%*s", width, "");
        return false;
    }
    char buf[64];
    if (strcmp(r->den, "1") == 0)
        snprintf(buf, sizeof buf, "%s", r->num);
    else
        snprintf(buf, sizeof buf, "%s/%s", r->num, r->den);
    printf("%*s", width, buf);
    return true;
}

static void print_summary(const side *s, const char *who) {
    printf("  mean%s%s %.4f", who[0] ? " of " : "", who, s->mean.value);
    if (strlen(s->mean.num) + strlen(s->mean.den) < 40)
        printf(" (%s%s%s%s)", s->mean.negative ? "-" : "", s->mean.num,
               strcmp(s->mean.den, "1") ? "/" : "",
               strcmp(s->mean.den, "1") ? s->mean.den : "");
    printf("\n  standard deviation%s%s %.4f", who[0] ? " of " : "", who, s->sd);
    if (strlen(s->var.num) + strlen(s->var.den) < 40)
        printf(" (variance %s%s%s)", s->var.num, strcmp(s->var.den, "1") ? "/" : "",
               strcmp(s->var.den, "1") ? s->var.den : "");
    printf("\n");
}

static bool print_one(const side *s) {
    printf("%s", s->canon);
    if (fray_bigdist_tail(s->dist))
        printf("  (a Wild Die: the last row holds every higher total)");
    printf("\n\n");
    int64_t lo = fray_bigdist_lo(s->dist);
    size_t n = fray_bigdist_n(s->dist);
    double top = 0;
    bool all_fit = true;
    for (size_t i = 0; i < n; i++) {
        double p = fray_bigdist_p(s->dist, FRAY_DIST_EQ, lo + (int64_t)i);
        top = p > top ? p : top;
    }
    bool fold = n > 40;
    size_t folded = 0;
    printf("  %-8s %24s %7s   %-8s %8s\n", "total", "exactly", "", "at least",
           "at most");
    for (size_t i = 0; i < n; i++) {
        int64_t t = lo + (int64_t)i;
        bool tail = is_tail_row(s, t);
        double p = fray_bigdist_p(s->dist, FRAY_DIST_EQ, t);
        if (p == 0 || (fold && !tail && p < 0.0005)) {
            folded += p != 0;
            continue;
        }
        row r;
        if (!row_get(s, t, &r))
            return false;
        char label[32];
        snprintf(label, sizeof label, tail ? "%lld+" : "%lld", (long long)t);
        printf("  %-8s ", label);
        all_fit = print_fraction(&r.eq, 24) && all_fit;
        printf(" ");
        print_prob(&r.eq);
        printf("  ");
        print_prob(&r.ge);
        printf("  ");
        print_prob(&r.le);
        printf("  ");
        out_bar(stdout, top > 0 ? r.eq.value / top : 0, 30);
        printf("\n");
        row_free(&r);
    }
    if (folded)
        printf("  (%zu totals each under 0.05%% not shown; --json lists all)\n",
               folded);
    if (!all_fit)
        printf("  (fractions too long to show are exact in --json)\n");
    printf("\n");
    print_summary(s, "");
    return true;
}

static bool print_two(const side *a, const side *b) {
    printf("%s  vs  %s\n\n", a->canon, b->canon);
    int64_t lo = fray_bigdist_lo(a->dist) < fray_bigdist_lo(b->dist)
                     ? fray_bigdist_lo(a->dist)
                     : fray_bigdist_lo(b->dist);
    int64_t hi = side_hi(a) > side_hi(b) ? side_hi(a) : side_hi(b);
    bool fold = hi - lo + 1 > 40;
    size_t folded = 0;
    int wa = (int)strlen(a->canon), wb = (int)strlen(b->canon);
    wa = wa < 7 ? 7 : wa > 20 ? 20 : wa;
    wb = wb < 7 ? 7 : wb > 20 ? 20 : wb;
    printf("  %-8s %-*.*s   %-*.*s\n", "", wa + 19, wa + 19, a->canon, wb + 19,
           wb + 19, b->canon);
    printf("  %-8s %*s %8s %8s   %*s %8s %8s\n", "total", wa, "exactly",
           "at least", "at most", wb, "exactly", "at least", "at most");
    for (int64_t t = lo; t <= hi; t++) {
        double pa = fray_bigdist_p(a->dist, FRAY_DIST_EQ, t);
        double pb = fray_bigdist_p(b->dist, FRAY_DIST_EQ, t);
        bool tail = is_tail_row(a, t) || is_tail_row(b, t);
        if ((pa == 0 && pb == 0) || (fold && !tail && pa < 0.0005 && pb < 0.0005)) {
            folded += pa != 0 || pb != 0;
            continue;
        }
        row ra, rb;
        if (!row_get(a, t, &ra))
            return false;
        if (!row_get(b, t, &rb)) {
            row_free(&ra);
            return false;
        }
        {
            printf("  %-8lld %*s", (long long)t, wa - 7, "");
            print_prob(&ra.eq);
            printf(" ");
            print_prob(&ra.ge);
            printf("  ");
            print_prob(&ra.le);
            printf("   %*s", wb - 7, "");
            print_prob(&rb.eq);
            printf(" ");
            print_prob(&rb.ge);
            printf("  ");
            print_prob(&rb.le);
            printf("%s\n", is_tail_row(a, t) || is_tail_row(b, t)
                               ? "  (a Wild Die: this total or more)" : "");
        }
        row_free(&ra);
        row_free(&rb);
    }
    if (folded)
        printf("  (%zu totals each under 0.05%% not shown; --json lists all)\n",
               folded);
    printf("\n");
    print_summary(a, a->canon);
    print_summary(b, b->canon);
    return true;
}

static bool write_report(cli_args *args, const char *path,
                         const side *const *s, int n_sides) {
    bool html = cli_ends_with_ci(path, ".html") || cli_ends_with_ci(path, ".htm");
    const fray_bigdist *dists[2];
    const char *names[2];
    for (int k = 0; k < n_sides; k++) {
        dists[k] = s[k]->dist;
        names[k] = s[k]->canon;
    }
    size_t n = html ? fray_dice_report_html(dists, names, n_sides, NULL, 0)
                    : fray_dice_report_svg(dists, names, n_sides, NULL, 0);
    char *buf = malloc(n + 1);
    if (!buf) {
        cli_error(args, "out of memory drawing the report");
        return false;
    }
    size_t m = html ? fray_dice_report_html(dists, names, n_sides, buf, n + 1)
                    : fray_dice_report_svg(dists, names, n_sides, buf, n + 1);
    bool ok = m == n && cli_write_whole(path, "the report", buf, n, NULL);
    if (m != n)
        cli_error(args, "the report changed size while drawn (%zu, then %zu bytes)",
                  n, m);
    free(buf);
    return ok;
}

/* ---- The command ------------------------------------------------------------------ */

static bool report_path_ok(cli_args *args, const char *path) {
    if (cli_ends_with_ci(path, ".svg") || cli_ends_with_ci(path, ".html") ||
        cli_ends_with_ci(path, ".htm"))
        return true;
    cli_error(args, "--report %s: the file must end in .svg or .html", path);
    return false;
}

int cli_odds_roll(cli_args *args, const fray_dice *dice, const char *text,
                  bool has_vs, long vs) {
    cli_opt *vs_roll = cli_get(args, "vs-roll");
    cli_opt *report = cli_get(args, "report");
    if (report->present && !report_path_ok(args, report->value))
        return EXIT_USAGE;
    side a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.text = text;
    int rc = EXIT_USAGE;
    int64_t a_through = has_vs ? vs : INT64_MIN, b_through = INT64_MIN;
    if (vs_roll->present) {
        b.text = vs_roll->value;
        if (!cli_dice(args, "--vs-roll", b.text, true, &b.dice))
            return EXIT_USAGE;
        int64_t amax, bmax;
        bool a_bounded = fray_dice_max(dice, &amax);
        bool b_bounded = fray_dice_max(b.dice, &bmax);
        if (!a_bounded && !b_bounded) {
            cli_error(args, "'%s' and '%s' both have a Wild Die: their "
                            "unbounded totals cannot be compared exactly",
                      text, b.text);
            goto done;
        }
        /* Each tail must start past the other's highest total. */
        if (b_bounded && bmax > a_through)
            a_through = bmax;
        if (a_bounded)
            b_through = amax;
    }
    if (!side_compute(args, &a, dice, a_through) ||
        (b.dice && !side_compute(args, &b, b.dice, b_through)))
        goto done;

    fray_bigratio gt, eq, lt;
    memset(&gt, 0, sizeof gt);
    memset(&eq, 0, sizeof eq);
    memset(&lt, 0, sizeof lt);
    fray_bigratio at_least;
    memset(&at_least, 0, sizeof at_least);
    fray_status st = FRAY_OK;
    if (b.dice)
        st = fray_bigdist_compare(a.dist, b.dist, &gt, &eq, &lt);
    if (st == FRAY_OK && has_vs)
        st = fray_bigdist_prob(a.dist, FRAY_DIST_AT_LEAST, vs, &at_least);
    if (st != FRAY_OK) {
        cli_error(args, "cannot compare '%s' with '%s' exactly: %s", text,
                  b.text ? b.text : "", fray_strerror(st));
        goto done_ratios;
    }
    bool ok = true;
    if (args->json) {
        json_out j;
        json_init(&j, stdout);
        json_begin_object(&j);
        ok = json_side(&j, &a);
        if (ok && has_vs) {
            json_kv_int(&j, "vs", vs);
            json_big(&j, "p_at_least", &at_least);
        }
        if (ok && b.dice) {
            json_key(&j, "vs_roll");
            json_begin_object(&j);
            ok = json_side(&j, &b);
            json_end_object(&j);
            json_big(&j, "p_greater", &gt);
            json_big(&j, "p_equal", &eq);
            json_big(&j, "p_less", &lt);
        }
        json_end_object(&j);
        json_finish(&j);
    } else {
        ok = b.dice ? print_two(&a, &b) : print_one(&a);
        if (ok && has_vs) {
            printf("  P(total >= %ld) = ", vs);
            if (strlen(at_least.num) + strlen(at_least.den) < 60)
                printf("%s%s%s = ", at_least.num, strcmp(at_least.den, "1") ? "/" : "",
                       strcmp(at_least.den, "1") ? at_least.den : "");
            printf("%.2f%%\n", 100 * at_least.value);
        }
        if (ok && b.dice) {
            const char *op[3] = {">", "=", "<"};
            const fray_bigratio *r[3] = {&gt, &eq, &lt};
            printf("\n");
            for (int k = 0; k < 3; k++) {
                printf("  P(%s %s %s) = ", a.canon, op[k], b.canon);
                if (strlen(r[k]->num) + strlen(r[k]->den) < 60)
                    printf("%s%s%s = ", r[k]->num, strcmp(r[k]->den, "1") ? "/" : "",
                           strcmp(r[k]->den, "1") ? r[k]->den : "");
                printf("%.2f%%\n", 100 * r[k]->value);
            }
        }
    }
    if (!ok) {
        cli_error(args, "out of memory");
        goto done_ratios;
    }
    rc = EXIT_OK;
    if (report->present) {
        const side *sides[2] = {&a, &b};
        if (!write_report(args, report->value, sides, b.dice ? 2 : 1))
            rc = EXIT_UNFINISHED;
    }
done_ratios:
    fray_bigratio_free(&gt);
    fray_bigratio_free(&eq);
    fray_bigratio_free(&lt);
    fray_bigratio_free(&at_least);
done:
    side_free(&a);
    side_free(&b);
    fray_dice_free(b.dice);
    return rc;
}
