/*
 * odds_roll.c - `fray odds roll EXPR` (without --attack): a dice
 * expression's exact distribution with its mean, standard deviation and
 * "at least" / "at most" columns, side by side with a second expression
 * (--vs-roll), drawn with --report FILE.svg or FILE.html (issue 15
 * section 1). Counts of any size come from fray_dice_bigdist. Two
 * Wild Dice against each other (each one die code plus constants) are
 * compared exactly by the D6 odds (src/rules/d6/odds.c), which also give
 * `fray odds d6` (issue 18): a die code against a difficulty, a defense
 * roll or GM-rolled modifiers, and damage against resistance.
 */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../rules/d6/d6_odds.h"

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

/* ---- Two Wild Dice ------------------------------------------------------------ */

/* The expression as one D6 code with a Wild Die plus constants ("4D!+2",
 * "2+4D!-1", as its canonical text writes them), into *out. */
static bool one_wild_code(const fray_dice *dice, d6_code *out) {
    char *canon = cli_dice_text(dice);
    if (!canon)
        return false;
    bool ok = true;
    int codes = 0;
    long pips = 0;
    const char *p = canon;
    while (ok && *p) {
        int sign = 1;
        if (*p == '+' || *p == '-') {
            sign = *p == '-' ? -1 : 1;
            p++;
        } else if (p != canon) {
            ok = false;
            break;
        }
        if (!isdigit((unsigned char)*p)) {
            ok = false;
            break;
        }
        errno = 0;
        char *end;
        long v = strtol(p, &end, 10);
        if (errno || v > INT_MAX) {
            ok = false;
            break;
        }
        p = end;
        if (p[0] == 'D' && p[1] == '!') {
            if (sign < 0 || codes++ > 0 || v > D6_ODDS_DICE_MAX) {
                ok = false;
                break;
            }
            out->dice = (int)v;
            p += 2;
        } else {
            pips += sign * v;
            if (pips > INT_MAX / 2 || pips < -INT_MAX / 2)
                ok = false;
        }
    }
    free(canon);
    out->pips = (int)pips;
    return ok && codes == 1;
}

static bool wild_codes(const fray_dice *a, const fray_dice *b, d6_code *ca, d6_code *cb) {
    return one_wild_code(a, ca) && one_wild_code(b, cb);
}

/* P(A > B), P(A = B), P(A < B) for two codes with a Wild Die each (the
 * core dice's Wild Die: a first 1 cancels itself and the highest die). */
static fray_status wild_compare(d6_code a, d6_code b, fray_bigratio *gt, fray_bigratio *eq,
                                fray_bigratio *lt) {
    d6_dist *x = NULL, *y = NULL, *z = NULL;
    fray_status st = d6_dist_code(a, true, D6_WILD_ONE_CANCEL_HIGHEST, NULL, &x);
    if (st == FRAY_OK)
        st = d6_dist_code(b, true, D6_WILD_ONE_CANCEL_HIGHEST, NULL, &y);
    if (st == FRAY_OK)
        st = d6_dist_add(x, y, -1, &z);
    if (st == FRAY_OK)
        st = d6_dist_at_least(z, 1, gt);
    if (st == FRAY_OK)
        st = d6_dist_eq(z, 0, eq);
    if (st == FRAY_OK)
        st = d6_dist_at_most(z, -1, lt);
    d6_dist_free(x);
    d6_dist_free(y);
    d6_dist_free(z);
    return st;
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
    d6_code a_code = {0, 0}, b_code = {0, 0};
    bool both_wild = false;
    if (vs_roll->present) {
        b.text = vs_roll->value;
        if (!cli_dice(args, "--vs-roll", b.text, true, &b.dice))
            return EXIT_USAGE;
        int64_t amax, bmax;
        bool a_bounded = fray_dice_max(dice, &amax);
        bool b_bounded = fray_dice_max(b.dice, &bmax);
        if (!a_bounded && !b_bounded) {
            if (!wild_codes(dice, b.dice, &a_code, &b_code)) {
                cli_error(args, "'%s' and '%s' both have a Wild Die: exact odds of "
                                "one against the other are worked out when each is a "
                                "single die code with a Wild Die plus constants "
                                "(like 4D!+2)",
                          text, b.text);
                goto done;
            }
            both_wild = true;
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
    if (both_wild)
        st = wild_compare(a_code, b_code, &gt, &eq, &lt);
    else if (b.dice)
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

/* ---- fray odds d6 (issue 18) ------------------------------------------------------ */

/* A die code as a GM writes it: "4D+2", "3D", "4d-1", "4D!+2" (the '!'
 * says the Wild Die, which is on anyway); with `modifier`, also a sign
 * before it ("+2D", "-1D") and pips alone ("+6", "-12"). */
static bool d6_code_text(const char *text, bool modifier, d6_code *out) {
    const char *p = text;
    int sign = 1;
    if (modifier && (*p == '+' || *p == '-')) {
        sign = *p == '-' ? -1 : 1;
        p++;
    }
    if (!isdigit((unsigned char)*p))
        return false;
    errno = 0;
    char *end;
    long n = strtol(p, &end, 10);
    if (errno || n > 10000)
        return false;
    p = end;
    if (*p != 'D' && *p != 'd') {
        if (!modifier || *p)
            return false;
        out->dice = 0;
        out->pips = (int)(sign * n);
        return true;
    }
    p++;
    if (*p == '!')
        p++;
    long pips = 0;
    if (*p == '+' || *p == '-') {
        int ps = *p == '-' ? -1 : 1;
        p++;
        if (!isdigit((unsigned char)*p))
            return false;
        errno = 0;
        pips = strtol(p, &end, 10);
        if (errno || pips > 10000)
            return false;
        pips *= ps;
        p = end;
    }
    if (*p || n > D6_ODDS_DICE_MAX)
        return false;
    out->dice = (int)(sign * n);
    out->pips = (int)pips;
    return true;
}

static bool read_code(cli_args *args, const char *what, const char *text, d6_code *out) {
    if (d6_code_text(text, false, out))
        return true;
    cli_error(args, "%s'%s' is not a die code (write it like 4D+2, at most %dD and "
                    "10000 pips)", what ? what : "", text, (int)D6_ODDS_DICE_MAX);
    return false;
}

/* "+2D -1D +6" or "+2D,-1D": each a modifier the GM rolls (or a flat one). */
enum { D6_MODS_MAX = 16 };
static bool read_modifiers(cli_args *args, const char *text, d6_code *mods, size_t *n) {
    *n = 0;
    const char *p = text;
    char tok[64];
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p)
            break;
        size_t len = 0;
        while (p[len] && p[len] != ' ' && p[len] != ',')
            len++;
        if (len >= sizeof tok || *n == D6_MODS_MAX) {
            cli_error(args, "--modifiers '%s': at most %d modifiers, each like +2D or -6",
                      text, (int)D6_MODS_MAX);
            return false;
        }
        memcpy(tok, p, len);
        tok[len] = '\0';
        if (!d6_code_text(tok, true, &mods[*n])) {
            cli_error(args, "--modifiers: '%s' is not a difficulty modifier (write +2D, "
                            "-1D, +1D+1 or a number like -6)", tok);
            return false;
        }
        (*n)++;
        p += len;
    }
    if (*n == 0) {
        cli_error(args, "--modifiers needs at least one modifier, like +2D");
        return false;
    }
    return true;
}

static void code_str(d6_code c, bool sign, char *buf, size_t cap) {
    char pips[24] = "";
    if (c.pips)
        snprintf(pips, sizeof pips, "%+d", c.pips);
    if (c.dice == 0 && sign)
        snprintf(buf, cap, "%+d", c.pips);
    else if (sign)
        snprintf(buf, cap, "%+dD%s", c.dice, pips);
    else
        snprintf(buf, cap, "%dD%s", c.dice, pips);
}

static const char *wild_one_word(d6_wild_one w) {
    return w == D6_WILD_ONE_COMPLICATION ? "complication" : "cancel-highest";
}

static void print_ratio_line(const char *what, const fray_bigratio *r) {
    printf("  %s = ", what);
    if (strlen(r->num) + strlen(r->den) < 60)
        printf("%s%s%s%s = ", r->negative ? "-" : "", r->num, strcmp(r->den, "1") ? "/" : "",
               strcmp(r->den, "1") ? r->den : "");
    else
        printf("a fraction of %zu / %zu digits (in --json) = ", strlen(r->num), strlen(r->den));
    out_percent(stdout, r->value);
    printf("\n");
}

static int d6_fail(cli_args *args, fray_status st) {
    if (st == FRAY_ERR_RANGE)
        cli_error(args, "more than two Wild Dice meet in this comparison (the roll, the "
                        "defense roll and a rolled modifier with a Wild Die): exact odds "
                        "are not worked out; drop --modifier-wild-die or --vs-roll");
    else
        cli_error(args, "cannot work out the odds: %s", fray_strerror(st));
    return st == FRAY_ERR_NOMEM ? EXIT_UNFINISHED : EXIT_USAGE;
}

/* The rows of a roll's totals: exactly and at least, down to where what
 * is left is under 0.05% (the last row holds every higher total). */
static fray_status d6_table(cli_args *args, const d6_dist *s, json_out *j) {
    int64_t lo = 0, hi = 0;
    if (!d6_dist_lo(s, &lo))
        return FRAY_ERR_INVALID;
    bool bounded = d6_dist_hi(s, &hi);
    int64_t last = lo;
    double cut = args->json ? 0.0005 : 0.005;
    while (last < lo + 2000 && (bounded ? last < hi : d6_dist_p_at_least(s, last + 1) >= cut))
        last++;
    bool more = !bounded || last < hi;
    if (!args->json)
        printf("  %-8s %24s %7s   %-8s\n", "total", "exactly", "", "at least");
    else {
        json_key(j, "distribution");
        json_begin_array(j);
    }
    double top = 0;
    for (int64_t t = lo; t <= last; t++) {
        double p = d6_dist_p_eq(s, t);
        top = p > top ? p : top;
    }
    fray_status st = FRAY_OK;
    for (int64_t t = lo; t <= last && st == FRAY_OK; t++) {
        fray_bigratio eq, ge;
        memset(&eq, 0, sizeof eq);
        memset(&ge, 0, sizeof ge);
        bool tail = more && t == last;
        st = tail ? d6_dist_at_least(s, t, &eq) : d6_dist_eq(s, t, &eq);
        if (st == FRAY_OK)
            st = d6_dist_at_least(s, t, &ge);
        if (st == FRAY_OK && eq.num[0] != '0') {
            if (args->json) {
                json_begin_object(j);
                json_kv_int(j, "total", (long long)t);
                if (tail)
                    json_kv_bool(j, "or_more", true);
                json_big(j, "exactly", &eq);
                json_big(j, "at_least", &ge);
                json_end_object(j);
            } else {
                char label[32];
                snprintf(label, sizeof label, tail ? "%lld+" : "%lld", (long long)t);
                printf("  %-8s ", label);
                print_fraction(&eq, 24);
                printf(" ");
                print_prob(&eq);
                printf("  ");
                print_prob(&ge);
                printf("  ");
                out_bar(stdout, top > 0 ? eq.value / top : 0, 30);
                printf("\n");
            }
        }
        fray_bigratio_free(&eq);
        fray_bigratio_free(&ge);
    }
    if (args->json)
        json_end_array(j);
    return st;
}

static const char *const WOUND_WORDS[D6_ODDS_WOUND_LEVELS] = {
    "no wound", "Stunned", "Wounded", "Incapacitated", "Mortally Wounded", "Dead"};
static const char *const WOUND_RANGE[D6_ODDS_WOUND_LEVELS] = {
    "0 or less", "1-3", "4-8", "9-12", "13-15", "16+"};

static int d6_damage(cli_args *args, d6_wild_one wild_one, bool wild) {
    d6_damage_query q;
    memset(&q, 0, sizeof q);
    if (!read_code(args, "--damage ", cli_get(args, "damage")->value, &q.damage) ||
        !read_code(args, "--resistance ", cli_get(args, "resistance")->value, &q.resistance))
        return EXIT_USAGE;
    q.damage_wild = q.resistance_wild = wild;
    q.wild_one = wild_one;
    bool body = false;
    cli_opt *health = cli_get(args, "health");
    if (health->present) {
        if (strcmp(health->value, "body-points") == 0)
            body = true;
        else if (strcmp(health->value, "wounds") != 0) {
            cli_error(args, "--health '%s': wounds or body-points", health->value);
            return EXIT_USAGE;
        }
    }
    d6_damage_odds o;
    fray_status st = d6_odds_damage(&q, NULL, &o);
    if (st == FRAY_OK && body && !args->json) {
        /* Text: the rows until what is left is under 0.5%, the last
         * holding every higher loss. */
        double left = 0;
        size_t keep = o.n_body;
        for (size_t i = o.n_body; i-- > 1;) {
            left += o.body[i].value;
            if (left >= 0.005)
                break;
            keep = i + 1;
        }
        if (keep < o.n_body) {
            d6_damage_odds_free(&o);
            q.body_rows = (int)keep;
            st = d6_odds_damage(&q, NULL, &o);
        }
    }
    if (st != FRAY_OK)
        return d6_fail(args, st);
    char dtext[48], rtext[48];
    code_str(q.damage, false, dtext, sizeof dtext);
    code_str(q.resistance, false, rtext, sizeof rtext);
    if (args->json) {
        json_out j;
        json_init(&j, stdout);
        json_begin_object(&j);
        json_kv_string(&j, "damage", dtext);
        json_kv_string(&j, "resistance", rtext);
        json_kv_bool(&j, "wild_die", wild);
        json_kv_string(&j, "wild_one", wild_one_word(wild_one));
        json_kv_string(&j, "health", body ? "body-points" : "wounds");
        if (body) {
            json_key(&j, "body_points_lost");
            json_begin_array(&j);
            for (size_t i = 0; i < o.n_body; i++) {
                json_begin_object(&j);
                json_kv_int(&j, "lost", (long long)i);
                if (i + 1 == o.n_body)
                    json_kv_bool(&j, "or_more", true);
                json_big_fields(&j, &o.body[i]);
                json_end_object(&j);
            }
            json_end_array(&j);
        } else {
            json_key(&j, "wound_levels");
            json_begin_array(&j);
            for (int k = 0; k < D6_ODDS_WOUND_LEVELS; k++) {
                json_begin_object(&j);
                json_kv_string(&j, "level", WOUND_WORDS[k]);
                json_kv_string(&j, "excess", WOUND_RANGE[k]);
                json_big_fields(&j, &o.level[k]);
                json_end_object(&j);
            }
            json_end_array(&j);
        }
        json_big(&j, "mean_excess", &o.mean_excess);
        json_big(&j, "mean_body_points_lost", &o.mean_body);
        json_end_object(&j);
        json_finish(&j);
    } else {
        printf("Damage %s against resistance %s, %s\n\n", dtext, rtext,
               !wild ? "no Wild Die"
               : wild_one == D6_WILD_ONE_COMPLICATION
                   ? "each with a Wild Die (a first 1 adds normally: a complication)"
                   : "each with a Wild Die (a first 1 cancels it and the highest die)");
        double top = 0;
        size_t rows = body ? o.n_body : D6_ODDS_WOUND_LEVELS;
        for (size_t i = 0; i < rows; i++) {
            double p = body ? o.body[i].value : o.level[i].value;
            top = p > top ? p : top;
        }
        if (body)
            printf("  %-24s %24s\n", "Body Points lost", "exactly");
        else
            printf("  %-24s %24s\n", "Wound level (excess)", "exactly");
        for (size_t i = 0; i < rows; i++) {
            char label[48];
            const fray_bigratio *r = body ? &o.body[i] : &o.level[i];
            if (body)
                snprintf(label, sizeof label, i + 1 == rows ? "%zu or more" : "%zu", i);
            else
                snprintf(label, sizeof label, "%s (%s)", WOUND_WORDS[i], WOUND_RANGE[i]);
            printf("  %-24s ", label);
            print_fraction(r, 24);
            printf(" ");
            print_prob(r);
            printf("  ");
            out_bar(stdout, top > 0 ? r->value / top : 0, 30);
            printf("\n");
        }
        printf("\n  mean of damage - resistance %.4f", o.mean_excess.value);
        if (strcmp(o.mean_excess.den, "1") != 0 &&
            strlen(o.mean_excess.num) + strlen(o.mean_excess.den) < 40)
            printf(" (%s%s/%s)", o.mean_excess.negative ? "-" : "", o.mean_excess.num,
                   o.mean_excess.den);
        printf("\n");
        if (body) {
            printf("  mean Body Points lost %.4f", o.mean_body.value);
            if (strcmp(o.mean_body.den, "1") != 0 &&
                strlen(o.mean_body.num) + strlen(o.mean_body.den) < 40)
                printf(" (%s/%s)", o.mean_body.num, o.mean_body.den);
            printf("\n");
        }
        if (!body)
            printf("  (from an unhurt target: damage no worse than a current level raises "
                   "it one level)\n");
    }
    d6_damage_odds_free(&o);
    return EXIT_OK;
}

int cli_odds_d6(cli_args *args) {
    cli_opt *wo = cli_get(args, "wild-one");
    d6_wild_one wild_one = D6_WILD_ONE_CANCEL_HIGHEST;
    if (wo->present) {
        if (strcmp(wo->value, "complication") == 0)
            wild_one = D6_WILD_ONE_COMPLICATION;
        else if (strcmp(wo->value, "cancel-highest") != 0) {
            cli_error(args, "--wild-one '%s': cancel-highest or complication", wo->value);
            return EXIT_USAGE;
        }
    }
    bool wild = !cli_get(args, "no-wild")->present;
    bool damage = cli_get(args, "damage")->present;
    if (damage != cli_get(args, "resistance")->present) {
        cli_error(args, "--damage and --resistance go together");
        return EXIT_USAGE;
    }
    const char *skill_opts[] = {"vs", "vs-roll", "full-defense", "modifiers",
                                "modifier-wild-die", "beats"};
    if (damage) {
        for (size_t i = 0; i < sizeof skill_opts / sizeof skill_opts[0]; i++)
            if (cli_get(args, skill_opts[i])->present) {
                cli_error(args, "--%s is for a roll against a difficulty, not with --damage",
                          skill_opts[i]);
                return EXIT_USAGE;
            }
        if (args->n_pos != 0) {
            cli_error(args, "--damage takes no die code before it ('%s')", args->pos[0]);
            return EXIT_USAGE;
        }
        return d6_damage(args, wild_one, wild);
    }
    if (cli_get(args, "health")->present) {
        cli_error(args, "--health goes with --damage");
        return EXIT_USAGE;
    }
    if (args->n_pos != 1) {
        cli_error(args, "needs one die code (like 4D+2), or --damage and --resistance");
        return EXIT_USAGE;
    }
    d6_success_query q;
    memset(&q, 0, sizeof q);
    if (!read_code(args, "", args->pos[0], &q.skill))
        return EXIT_USAGE;
    q.no_wild = !wild;
    q.defense_no_wild = !wild;
    q.wild_one = wild_one;
    q.tie = cli_get(args, "beats")->present ? D6_TIE_BEATS : D6_TIE_MEETS;
    long vs = 10;
    cli_opt *vs_roll = cli_get(args, "vs-roll");
    bool has_vs = cli_get(args, "vs")->present;
    if (has_vs && vs_roll->present) {
        cli_error(args, "--vs (a difficulty) and --vs-roll (a defense roll) do not go together");
        return EXIT_USAGE;
    }
    if (!cli_int_opt(args, "vs", -1000000, 1000000, &vs))
        return EXIT_USAGE;
    q.difficulty = (int)vs;
    bool full = cli_get(args, "full-defense")->present;
    if (full && !vs_roll->present) {
        cli_error(args, "--full-defense needs --vs-roll (the defense roll it adds 10 to)");
        return EXIT_USAGE;
    }
    if (vs_roll->present) {
        if (!read_code(args, "--vs-roll ", vs_roll->value, &q.defense))
            return EXIT_USAGE;
        q.defense_roll = true;
        q.defense_bonus = full ? 10 : 0;
    }
    d6_code mods[D6_MODS_MAX];
    cli_opt *mo = cli_get(args, "modifiers");
    if (mo->present && !read_modifiers(args, mo->value, mods, &q.n_modifiers))
        return EXIT_USAGE;
    q.modifiers = mods;
    q.modifier_wild = cli_get(args, "modifier-wild-die")->present;
    if (q.modifier_wild && !mo->present) {
        cli_error(args, "--modifier-wild-die needs --modifiers");
        return EXIT_USAGE;
    }
    /* The floor of 3 holds for a combat difficulty (modifiers, a defense
     * roll, or the passive 10); a bare --vs stands as written. */
    if (mo->present || vs_roll->present || !has_vs)
        q.floor = D6_DIFFICULTY_FLOOR;

    d6_dist *s = NULL;
    fray_bigratio p, mean;
    memset(&p, 0, sizeof p);
    memset(&mean, 0, sizeof mean);
    fray_status st = d6_dist_code(q.skill, wild, wild_one, NULL, &s);
    if (st == FRAY_OK)
        st = d6_odds_check(&q, NULL, &p);
    if (st == FRAY_OK)
        st = d6_dist_mean(s, &mean);
    if (st != FRAY_OK) {
        d6_dist_free(s);
        fray_bigratio_free(&p);
        fray_bigratio_free(&mean);
        return d6_fail(args, st);
    }
    char stext[48], dtext[48];
    code_str(q.skill, false, stext, sizeof stext);
    code_str(q.defense, false, dtext, sizeof dtext);
    json_out j;
    if (args->json) {
        json_init(&j, stdout);
        json_begin_object(&j);
        json_kv_string(&j, "roll", stext);
        json_kv_bool(&j, "wild_die", wild);
        json_kv_string(&j, "wild_one", wild_one_word(wild_one));
        json_key(&j, "difficulty");
        json_begin_object(&j);
        if (q.defense_roll) {
            json_kv_string(&j, "defense_roll", dtext);
            json_kv_bool(&j, "full_defense", full);
        } else {
            json_kv_int(&j, "base", q.difficulty);
        }
        json_key(&j, "modifiers");
        json_begin_array(&j);
        for (size_t i = 0; i < q.n_modifiers; i++) {
            char m[48];
            code_str(mods[i], true, m, sizeof m);
            json_string(&j, m);
        }
        json_end_array(&j);
        json_kv_bool(&j, "modifier_wild_die", q.modifier_wild);
        json_kv_int(&j, "floor", q.floor);
        json_end_object(&j);
        json_kv_string(&j, "tie", q.tie == D6_TIE_BEATS ? "beats" : "meets-or-beats");
    } else {
        printf("%s %s\n", stext, !wild ? "without a Wild Die"
                                  : wild_one == D6_WILD_ONE_COMPLICATION
                                      ? "with a Wild Die (a first 1 adds normally: a complication)"
                                      : "with a Wild Die (a first 1 cancels it and the highest die)");
        printf("against ");
        if (q.defense_roll)
            printf("the defense roll %s%s%s", dtext, wild ? " with a Wild Die" : "",
                   full ? " + 10 (full defense)" : " (partial defense)");
        else
            printf("difficulty %d%s", q.difficulty, has_vs ? "" : " (the passive defense)");
        for (size_t i = 0; i < q.n_modifiers; i++) {
            char m[48];
            code_str(mods[i], true, m, sizeof m);
            printf(" %s", m);
        }
        bool rolled = false;
        for (size_t i = 0; i < q.n_modifiers; i++)
            rolled = rolled || mods[i].dice != 0;
        if (rolled)
            printf(" (the dice rolled by the GM%s)",
                   q.modifier_wild ? ", each with a Wild Die" : ", no Wild Die");
        if (q.floor > 0)
            printf(", never below %d", q.floor);
        printf("\n\n");
        print_ratio_line(q.tie == D6_TIE_BEATS ? "P(success: beats the difficulty)"
                                               : "P(success: meets or beats the difficulty)",
                         &p);
        printf("  mean total %.4f", mean.value);
        if (strcmp(mean.den, "1") != 0 && strlen(mean.num) + strlen(mean.den) < 40)
            printf(" (%s%s/%s)", mean.negative ? "-" : "", mean.num, mean.den);
        printf("\n\n");
    }
    st = d6_table(args, s, &j);
    if (st == FRAY_OK && args->json) {
        json_big(&j, "mean", &mean);
        json_big(&j, "p_success", &p);
        json_end_object(&j);
        json_finish(&j);
    }
    d6_dist_free(s);
    fray_bigratio_free(&p);
    fray_bigratio_free(&mean);
    if (st != FRAY_OK)
        return d6_fail(args, st);
    return EXIT_OK;
}
