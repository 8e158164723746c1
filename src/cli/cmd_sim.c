/* cmd_sim.c - `fray sim`: Monte Carlo over whole 99 Towers encounters, with
 * sweeps and reports (include/fray/sim.h; docs/architecture.md
 * "Simulation"). */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"
#include "sim_mpi.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char HELP[] =
    "usage: fray sim ENCOUNTER [-n N] [--threads T] [--seed S] [--json]\n"
    "                [--vary KEY=LIST]... [--report FILE.svg|FILE.html]\n"
    "                [--until-phase P] [--quiet] [--time] [-C DIR]\n"
    "\n"
    "Runs the encounter N times with every combatant acting by its tactics,\n"
    "as `fray fight` does, and reports who wins (with a 95% interval), how\n"
    "long fights last (in phases; Alloy: rounds), and per combatant how\n"
    "often it ends standing, unconscious, dying or dead (the report says what\n"
    "each means in the rules), the damage it deals and takes\n"
    "(STUN and LETHAL; Alloy: hit points), its actions by kind, and what it\n"
    "spends (Hand of Fate cards and chips; Alloy: action points and\n"
    "healing surges).\n"
    "\n"
    "  -n N             fights to run (default 10000)\n"
    "  --threads T      worker threads (default: one per core); the numbers\n"
    "                   do not depend on it\n"
    "  --seed S         master seed (default: the file's, else 1). Fight i is\n"
    "                   `fray fight ENCOUNTER --seed S --trial i`\n"
    "  --vary KEY=LIST  a sweep: run the encounter once per value, the same\n"
    "                   decks or dice for each, and compare. KEY is WHO.FIELD or\n"
    "                   ITEM.FIELD; LIST is values and ranges: 1..5 or 4,5,6\n"
    "                   or power-attack,attack. Give --vary again for a grid\n"
    "                   (two keys: per side a table, the first key across,\n"
    "                   a line per value of the second; --report: heat maps).\n"
    "                   It says whom a key changes, and \"did you mean\" for an\n"
    "                   unknown one.\n"
    "                   WHO: a combatant id, a group (bandit: bandit-1, ...)\n"
    "                   or a stat block; FIELD: N PA PD SA ID PX ER IR SPD,\n"
    "                   an Aspect, E, STUN, LETHAL, tactics, chips. ITEM: a\n"
    "                   weapon (damage, attack, reach, shots) or armor (ER,\n"
    "                   IR, PD, SPD). Examples: bandit.PA=1..5\n"
    "                   longblade.damage=4,5,6  tony.tactics=power-attack,attack\n"
    "                   Alloy's keys: the options (docs/rules/alloy.md),\n"
    "                   round-limit, and WHO.hp, defense, fortitude, reflex,\n"
    "                   will, attack, initiative, speed, level, surges,\n"
    "                   action-points (vance.hp=20,40); the same dice for each\n"
    "  --report FILE    draw the charts to FILE.svg or FILE.html\n"
    "  --until-phase P  end each fight after phase P (Alloy: round P)\n"
    "  --quiet          no progress bar\n"
    "  --time           print how long it took (on a terminal it is shown\n"
    "                   anyway)\n"
    "  --json           every count, for other programs\n"
    "\n"
    "Ctrl-C stops early and reports the fights finished so far (\"stopped\n"
    "after N of M fights\"; in JSON \"interrupted\": true); exit status 130.\n"
    "A second Ctrl-C stops at once, without a report.\n";

enum { MAX_KEYS = 4, MAX_VARIANTS = 1000 };

/* ---- Ctrl-C: stop early, report what is done ------------------------------- */

static volatile sig_atomic_t g_interrupted; /* the CLI's only global: signals */

/* The first Ctrl-C asks the simulation to stop and report; a second one,
 * for someone who will not wait for that, ends fray at once as Ctrl-C
 * does (only async-signal-safe calls here). */
static void on_sigint(int sig) {
    if (g_interrupted && signal(sig, SIG_DFL) != SIG_ERR)
        raise(sig);
    g_interrupted = 1;
}

/* ---- Sweeps ------------------------------------------------------------------- */

typedef struct sweep_key {
    char key[128];
    fray_vary_list list; /* the values, as fray_setup_vary reads them */
    char scope[256];     /* whom it changes (fray_setup_vary_scope) */
} sweep_key;

/* "bandit.PA=1..5" or "tony.tactics=attack,power-attack" or "x=1..3,7". */
static bool parse_vary(cli_args *args, const char *text, sweep_key *k) {
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || eq[1] == '\0') {
        cli_error(args, "--vary '%s': expected KEY=LIST, e.g. bandit.PA=1..5",
                  text);
        return false;
    }
    size_t klen = (size_t)(eq - text);
    if (klen >= sizeof k->key) {
        cli_error(args, "--vary: the key '%.*s' is too long", (int)klen, text);
        return false;
    }
    memcpy(k->key, text, klen);
    k->key[klen] = '\0';
    fray_diag d;
    memset(&d, 0, sizeof d);
    if (fray_towers_vary_list(eq + 1, &k->list, &d) != FRAY_OK) {
        cli_error(args, "--vary %s: %s", k->key, d.message);
        return false;
    }
    return true;
}

typedef struct variant {
    char label[512];
    const char *value[MAX_KEYS]; /* into the sweep keys */
    fray_setup *setup;
    fray_sim_counts *counts;
} variant;

/* ---- Progress ------------------------------------------------------------------ */

typedef struct progress {
    bool show;              /* a bar on stderr */
    int variant, n_variants;
    uint64_t per_variant;
    double t0;
} progress;

/* Seconds on a clock that only goes forward; 0 when there is none (the
 * times shown are then 0: nothing else depends on them). */
static double now_s(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool on_progress(void *ctx, uint64_t done, uint64_t total) {
    progress *pg = ctx;
    if (pg->show) {
        double all = (double)pg->n_variants * (double)pg->per_variant;
        double did = (double)pg->variant * (double)pg->per_variant + (double)done;
        double frac = all > 0 ? did / all : 1.0;
        double dt = now_s() - pg->t0;
        int width = 30, fill = (int)(frac * width + 0.5);
        char bar[64];
        for (int i = 0; i < width; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[width] = '\0';
        fprintf(stderr, "\r  [%s] %3.0f%%  %llu/%llu fights", bar, frac * 100.0,
                (unsigned long long)done, (unsigned long long)total);
        if (pg->n_variants > 1)
            fprintf(stderr, " of variant %d/%d", pg->variant + 1, pg->n_variants);
        if (frac > 0.02 && frac < 1.0)
            fprintf(stderr, ", %.0f s left ", dt / frac * (1.0 - frac) + 0.5);
        else
            fprintf(stderr, "          ");
        fflush(stderr);
    }
    return !g_interrupted;
}

static void progress_clear(const progress *pg) {
    if (pg->show)
        fprintf(stderr, "\r%78s\r", "");
}

/* ---- Human output ---------------------------------------------------------------- */

static void print_count(uint64_t v) {
    /* 1,234,567 */
    char digits[32], out[48];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    int o = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o] = '\0';
    fputs(out, stdout);
}

static double share(uint64_t k, uint64_t n) {
    return n ? (double)k / (double)n : 0.0;
}

/* A share as the report writes it (fray_sim_percent: one decimal; "> 99.9%"
 * near 1, "< 0.1%" near 0, 100.0% and 0.0% only when exact); `bare`
 * without the % sign, for intervals written "(24.1-32.9)". */
typedef struct pct_text {
    char s[24];
} pct_text;

static pct_text pct_of(double v, bool bare) {
    pct_text t;
    fray_sim_percent(v, 1, t.s, sizeof t.s);
    size_t n = strlen(t.s);
    if (bare && n > 0 && t.s[n - 1] == '%')
        t.s[n - 1] = '\0';
    return t;
}

/* k of n, rounded exactly from the integers (fray_sim_share_percent). */
static pct_text share_of(uint64_t k, uint64_t n) {
    pct_text t;
    fray_sim_share_percent(k, n, 1, t.s, sizeof t.s);
    return t;
}

#define PCT(v) (pct_of((v), false).s)
#define SHARE(k, n) (share_of((k), (n)).s)
#define PCT_BARE(v) (pct_of((v), true).s)

static void print_share_row(const char *name, uint64_t k, uint64_t n) {
    double lo, hi;
    fray_sim_interval95(k, n, &lo, &hi);
    printf("  %-28.28s %7s   %6s - %6s   ", name, SHARE(k, n), PCT(lo),
           PCT(hi));
    out_bar(stdout, share(k, n), 30);
    putchar('\n');
}

static void print_length(const fray_setup *s, const fray_sim_counts *c) {
    int median = fray_sim_length_quantile(c, 0.5);
    int p05 = fray_sim_length_quantile(c, 0.05);
    int p95 = fray_sim_length_quantile(c, 0.95);
    int longest = fray_sim_length_quantile(c, 1.0);
    printf("\nHow long fights last (%ss): mean %.1f (sd %.1f), median %d, "
           "90%% between %d and %d, longest %d%s\n",
           fray_setup_time_unit(s), fray_sim_length_mean(c), fray_sim_length_sd(c), median, p05, p95,
           longest, longest >= FRAY_SIM_LENGTH_BINS - 1 ? " or more" : "");
    /* About a dozen rows: bins of a round width. */
    int first = fray_sim_length_quantile(c, 0.0);
    for (int i = 0; i < FRAY_SIM_LENGTH_BINS; i++)
        if (c->length[i]) {
            first = i;
            break;
        }
    int span = longest - first + 1;
    static const int widths[] = {1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500};
    int w = 500;
    for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++)
        if (span / widths[k] <= 14) {
            w = widths[k];
            break;
        }
    int start = first / w * w;
    uint64_t peak = 0;
    for (int b = start; b <= longest; b += w) {
        uint64_t sum = 0;
        for (int i = b; i < b + w && i < FRAY_SIM_LENGTH_BINS; i++)
            sum += c->length[i];
        if (sum > peak)
            peak = sum;
    }
    for (int b = start; b <= longest; b += w) {
        uint64_t sum = 0;
        for (int i = b; i < b + w && i < FRAY_SIM_LENGTH_BINS; i++)
            sum += c->length[i];
        char range[32];
        if (w == 1)
            snprintf(range, sizeof range, "%d", b);
        else
            snprintf(range, sizeof range, "%d-%d", b, b + w - 1);
        printf("  %9s %7s  ", range, SHARE(sum, c->trials));
        out_bar(stdout, peak ? (double)sum / (double)peak : 0.0, 40);
        putchar('\n');
    }
}

/* A count's name over two header lines, each at most `w` wide; a long
 * name keeps its first words (99 Towers: "Hand of" / "Fate"). */
static void header_words(const char *name, int w, char *l1, char *l2,
                         size_t size) {
    l1[0] = l2[0] = '\0';
    if ((int)strlen(name) <= w) {
        snprintf(l2, size, "%s", name);
        return;
    }
    /* As many words as fit the first line, the next word the second. */
    const char *p = name, *cut = NULL;
    for (const char *q = name; *q; q++)
        if (*q == ' ' && q - p <= w)
            cut = q;
    if (!cut) {
        snprintf(l2, size, "%.*s", w, name);
        return;
    }
    snprintf(l1, size, "%.*s", (int)(cut - p), p);
    const char *rest = cut + 1, *end = strchr(rest, ' ');
    snprintf(l2, size, "%.*s", (int)(end ? end - rest : (long)strlen(rest)),
             rest);
}

/* Whether state k has a column: standing, unconscious, dying and dead
 * always, fled only when somebody fled. */
static bool state_shown(const fray_setup *s, const fray_sim_counts *c,
                        int k) {
    if (k != FRAY_SIM_FLED)
        return true;
    for (int i = 0; i < fray_setup_combatants(s); i++)
        if (c->c[i].fled)
            return true;
    return false;
}

/* "  word: text", the text wrapped under itself at about 78 columns. */
static void print_legend_line(const char *word, const char *text) {
    int indent = 4 + (int)strlen(word), col = indent;
    printf("  %s: ", word);
    for (const char *p = text; *p;) {
        while (*p == ' ')
            p++;
        const char *sp = strchr(p, ' ');
        int len = sp ? (int)(sp - p) : (int)strlen(p);
        if (len == 0)
            break;
        if (col > indent && col + 1 + len > 78) {
            printf("\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            putchar(' ');
            col++;
        }
        printf("%.*s", len, p);
        col += len;
        p += len;
    }
    putchar('\n');
}

/* How each combatant ends: the shares of fray_sim_state, and what each
 * word means in the ruleset. */
static void print_states(const fray_setup *s, const fray_sim_counts *c) {
    printf("\nHow each combatant ends (share of fights)\n");
    printf("  %-22s", "");
    for (int k = 0; k < FRAY_SIM_STATES; k++)
        if (state_shown(s, c, k))
            printf(" %12s", fray_sim_state_name(k));
    printf("\n");
    for (int i = 0; i < fray_setup_combatants(s); i++) {
        printf("  %-22.22s", fray_setup_combatant_name(s, i));
        for (int k = 0; k < FRAY_SIM_STATES; k++)
            if (state_shown(s, c, k))
                printf(" %12s",
                       SHARE(fray_sim_state_count(&c->c[i], k), c->trials));
        printf("\n");
    }
    for (int k = 0; k < FRAY_SIM_STATES; k++)
        if (state_shown(s, c, k))
            print_legend_line(fray_sim_state_name(k),
                              fray_sim_state_meaning(s, k));
}

static void print_combatants(const fray_setup *s, const fray_sim_counts *c) {
    print_states(s, c);
    double n = c->trials ? (double)c->trials : 1.0;
    int n_harm = 0, n_spent = 0;
    while (n_harm < FRAY_SIM_HARM_KINDS && fray_sim_harm_name(s, n_harm))
        n_harm++;
    while (n_spent < FRAY_SIM_SPENT_KINDS && fray_sim_spent_name(s, n_spent))
        n_spent++;
    /* Each resource's column: as wide as its header, 8 for the first. */
    int sw[FRAY_SIM_SPENT_KINDS];
    char h1[FRAY_SIM_SPENT_KINDS][32], h2[FRAY_SIM_SPENT_KINDS][32];
    for (int k = 0; k < n_spent; k++) {
        sw[k] = k == 0 ? 8 : 5;
        header_words(fray_sim_spent_name(s, k), 8, h1[k], h2[k], sizeof h1[k]);
        int len = (int)strlen(h2[k]);
        if (len > sw[k])
            sw[k] = len;
    }
    printf("\nEach combatant (means per fight)\n");
    printf("  %-22s", "");
    for (int k = 0; k < n_harm; k++)
        printf(" %13s", fray_sim_harm_name(s, k));
    printf(" %7s", "");
    for (int k = 0; k < n_spent; k++)
        printf(" %*s", sw[k], h1[k]);
    printf("\n  %-22s", "");
    for (int k = 0; k < n_harm; k++)
        printf(" %13s", "dealt/taken");
    printf(" %7s", "actions");
    for (int k = 0; k < n_spent; k++)
        printf(" %*s", sw[k], h2[k]);
    printf("\n");
    for (int i = 0; i < fray_setup_combatants(s); i++) {
        const fray_sim_combatant_counts *cc = &c->c[i];
        printf("  %-22.22s", fray_setup_combatant_name(s, i));
        for (int k = 0; k < n_harm; k++) {
            char dt[32];
            snprintf(dt, sizeof dt, "%.1f/%.1f", (double)cc->dealt[k] / n,
                     (double)cc->taken[k] / n);
            printf(" %13s", dt);
        }
        printf(" %7.1f", (double)cc->actions / n);
        for (int k = 0; k < n_spent; k++)
            printf(" %*.2f", sw[k], (double)cc->spent[k] / n);
        printf("\n");
    }
    printf("\nActions by kind (means per fight)\n");
    for (int i = 0; i < fray_setup_combatants(s); i++) {
        const fray_sim_combatant_counts *cc = &c->c[i];
        printf("  %s:", fray_setup_combatant_name(s, i));
        bool any = false;
        for (int k = 0; k < FRAY_SIM_ACTION_KINDS; k++)
            if (cc->by_kind[k]) {
                printf("%s %s %.2f", any ? "," : "", fray_sim_action_name(s, k),
                       (double)cc->by_kind[k] / n);
                any = true;
            }
        printf("%s\n", any ? "" : " none");
    }
}

static void print_wins(const fray_setup *s, const fray_sim_counts *c) {
    printf("\nWho wins %28s   95%% interval\n", "share");
    for (int i = 0; i < fray_setup_sides(s); i++)
        print_share_row(fray_setup_side_name(s, i), c->wins[i], c->trials);
    if (c->all_out)
        print_share_row("nobody: every side out", c->all_out, c->trials);
    if (c->unfinished) {
        char label[48];
        snprintf(label, sizeof label, "nobody: the %s limit",
                 fray_setup_time_unit(s));
        print_share_row(label, c->unfinished, c->trials);
    }
    /* 99 Towers' formal duels (seed 000 "Dueling"): how they ended. */
    if (c->duel_first_blood)
        print_share_row("won by first blood", c->duel_first_blood,
                        c->trials);
    if (c->duel_conceded)
        print_share_row("won by concession", c->duel_conceded, c->trials);
    if (c->duel_destiny)
        print_share_row("dropped by destiny", c->duel_destiny,
                        c->trials);
}

/* Whether somebody won none of variant j's fights: every side out, or
 * the time limit. */
static uint64_t nobody_of(const fray_sim_counts *c) {
    return c->all_out + c->unfinished;
}

/* A two-key sweep as a grid (issue 15): per side (and nobody, when a
 * variant had such fights) its share of wins, the first key's values
 * across, one line per value of the second key. Variant j is value
 * j / n2 of the first key and j % n2 of the second (the variants' order,
 * the last key fastest). */
static void print_grid(const fray_setup *s, const sweep_key *keys,
                       const variant *v) {
    int n1 = keys[0].list.n, n2 = keys[1].list.n;
    int n_sides = fray_setup_sides(s);
    bool any_nobody = false;
    for (int j = 0; j < n1 * n2; j++)
        any_nobody = any_nobody || nobody_of(v[j].counts);
    int lw = (int)strlen(keys[1].key);
    for (int d = 0; d < n2; d++) {
        int len = (int)strlen(keys[1].list.value[d]);
        if (len > lw)
            lw = len;
    }
    int cw[FRAY_VARY_MAX_VALUES];
    for (int a = 0; a < n1; a++) {
        int len = (int)strlen(keys[0].list.value[a]);
        cw[a] = len < 7 ? 7 : len;
    }
    for (int side = 0; side < n_sides + (any_nobody ? 1 : 0); side++) {
        bool nob = side == n_sides;
        printf("\n%s%s: %s across, %s down\n",
               nob ? "Nobody wins" : fray_setup_side_name(s, side),
               nob ? "" : " wins", keys[0].key, keys[1].key);
        printf("  %-*s  %s\n", lw, "", keys[0].key);
        printf("  %-*s", lw, keys[1].key);
        for (int a = 0; a < n1; a++)
            printf("  %*s", cw[a], keys[0].list.value[a]);
        printf("\n");
        for (int d = 0; d < n2; d++) {
            printf("  %-*s", lw, keys[1].list.value[d]);
            for (int a = 0; a < n1; a++) {
                const fray_sim_counts *c = v[a * n2 + d].counts;
                printf("  %*s", cw[a],
                       SHARE(nob ? nobody_of(c) : c->wins[side], c->trials));
            }
            printf("\n");
        }
    }
}

static void print_sweep(const fray_setup *s, const sweep_key *keys,
                        int n_keys, const variant *v, int n_variants) {
    printf("\nSweep: ");
    for (int k = 0; k < n_keys; k++)
        printf("%s%s (%d values)", k ? " x " : "", keys[k].key,
               keys[k].list.n);
    printf(", the same %s for every variant\n", fray_setup_randomness(s));
    for (int k = 0; k < n_keys; k++)
        if (keys[k].scope[0])
            print_legend_line(keys[k].key, keys[k].scope);
    printf("\n");
    int n_sides = fray_setup_sides(s);
    int lw = 7;
    for (int j = 0; j < n_variants; j++) {
        int len = (int)strlen(v[j].label);
        if (len > lw)
            lw = len > 60 ? 60 : len;
    }
    int sw[FRAY_SIM_MAX_SIDES];
    printf("  %-*s", lw, "variant");
    for (int i = 0; i < n_sides; i++) {
        int len = (int)strlen(fray_setup_side_name(s, i));
        sw[i] = len < 19 ? 19 : len > 30 ? 30 : len;
        printf("  %-*.*s", sw[i], sw[i], fray_setup_side_name(s, i));
    }
    printf("  %6s  %s\n", "nobody", "mean length");
    printf("  %-*s", lw, "");
    for (int i = 0; i < n_sides; i++)
        printf("  %-*s", sw[i], "wins (95% interval)");
    char unit[40];
    snprintf(unit, sizeof unit, "(%ss)", fray_setup_time_unit(s));
    printf("  %6s  %s\n", "", unit);
    for (int j = 0; j < n_variants; j++) {
        const fray_sim_counts *c = v[j].counts;
        printf("  %-*.*s", lw, lw, v[j].label);
        for (int i = 0; i < n_sides; i++) {
            double lo, hi;
            fray_sim_interval95(c->wins[i], c->trials, &lo, &hi);
            char cell[96];
            snprintf(cell, sizeof cell, "%6s (%4s-%4s)",
                     SHARE(c->wins[i], c->trials), PCT_BARE(lo),
                     PCT_BARE(hi));
            printf("  %-*s", sw[i], cell);
        }
        printf("  %6s  %6.1f\n",
               SHARE(c->all_out + c->unfinished, c->trials),
               fray_sim_length_mean(c));
    }
    if (n_keys == 2 && n_variants == keys[0].list.n * keys[1].list.n)
        print_grid(s, keys, v);
}

/* ---- JSON ------------------------------------------------------------------------ */

/* {"count": k, "share": k/n, "interval95": [lo, hi]} under key (or, with
 * side, {"side": side, "count": ...} as an array element). */
static void json_share_of(json_out *j, const char *key, const char *side,
                          uint64_t k, uint64_t n) {
    double lo, hi;
    fray_sim_interval95(k, n, &lo, &hi);
    if (key)
        json_key(j, key);
    json_begin_object(j);
    if (side)
        json_kv_string(j, "side", side);
    json_kv_u64(j, "count", k);
    json_key(j, "share");
    json_double(j, share(k, n));
    json_key(j, "interval95");
    json_begin_array(j);
    json_double(j, lo);
    json_double(j, hi);
    json_end_array(j);
    json_end_object(j);
}

static void json_share(json_out *j, const char *key, uint64_t k, uint64_t n) {
    json_share_of(j, key, NULL, k, n);
}

static void json_mean(json_out *j, const char *key, uint64_t sum, uint64_t n) {
    json_key(j, key);
    json_double(j, n ? (double)sum / (double)n : 0.0);
}

/* A rules word as a JSON key: lower case, '_' for spaces and dashes. */
static void json_word(char *out, size_t size, const char *w) {
    size_t n = 0;
    for (; *w && n + 1 < size; w++)
        out[n++] = *w == ' ' || *w == '-' ? '_'
                                          : (char)tolower((unsigned char)*w);
    out[n] = '\0';
}

static void json_variant(json_out *j, const fray_setup *s,
                         const sweep_key *keys, int n_keys, const variant *v) {
    const fray_sim_counts *c = v->counts;
    json_begin_object(j);
    if (n_keys) {
        json_key(j, "vary");
        json_begin_object(j);
        for (int k = 0; k < n_keys; k++)
            json_kv_string(j, keys[k].key, v->value[k]);
        json_end_object(j);
    }
    json_kv_u64(j, "trials", c->trials);
    json_key(j, "wins");
    json_begin_array(j);
    for (int i = 0; i < fray_setup_sides(s); i++)
        json_share_of(j, NULL, fray_setup_side_name(s, i), c->wins[i],
                      c->trials);
    json_end_array(j);
    json_kv_u64(j, "every_side_out", c->all_out);
    if (c->duel_first_blood || c->duel_destiny || c->duel_conceded) {
        /* 99 Towers' formal duels (seed 000 "Dueling"). */
        json_kv_u64(j, "duel_first_blood", c->duel_first_blood);
        json_kv_u64(j, "duel_destiny", c->duel_destiny);
        json_kv_u64(j, "duel_conceded", c->duel_conceded);
    }
    {
        char key[32];
        snprintf(key, sizeof key, "%s_limit", fray_setup_time_unit(s));
        json_kv_u64(j, key, c->unfinished);
    }
    json_key(j, "length");
    json_begin_object(j);
    json_key(j, "mean");
    json_double(j, fray_sim_length_mean(c));
    json_key(j, "sd");
    json_double(j, fray_sim_length_sd(c));
    json_kv_int(j, "median", fray_sim_length_quantile(c, 0.5));
    json_kv_int(j, "p05", fray_sim_length_quantile(c, 0.05));
    json_kv_int(j, "p95", fray_sim_length_quantile(c, 0.95));
    json_kv_int(j, "longest", fray_sim_length_quantile(c, 1.0));
    json_key(j, "histogram"); /* [phase, fights] for every phase that ended one */
    json_begin_array(j);
    for (int i = 0; i < FRAY_SIM_LENGTH_BINS; i++)
        if (c->length[i]) {
            json_begin_array(j);
            json_int(j, i);
            json_u64(j, c->length[i]);
            json_end_array(j);
        }
    json_end_array(j);
    json_end_object(j);
    json_key(j, "combatants");
    json_begin_array(j);
    for (int i = 0; i < fray_setup_combatants(s); i++) {
        const fray_sim_combatant_counts *cc = &c->c[i];
        json_begin_object(j);
        json_kv_string(j, "id", fray_setup_combatant_id(s, i));
        json_kv_string(j, "name", fray_setup_combatant_name(s, i));
        json_kv_string(j, "side", fray_setup_side_name(
                                      s, fray_setup_combatant_side(s, i)));
        json_share(j, "standing", cc->standing, c->trials);
        json_share(j, "dead", cc->dead, c->trials);
        /* The rest of how it ended (fray_sim_state; issue 15). */
        json_share(j, "unconscious", cc->unconscious, c->trials);
        json_share(j, "dying", cc->dying, c->trials);
        json_share(j, "fled", cc->fled, c->trials);
        json_key(j, "per_fight");
        json_begin_object(j);
        /* Keys from the ruleset's words: "STUN" dealt is "stun_dealt",
         * "Hand of Fate cards" "hand_of_fate_cards". */
        char key[64], word[48];
        for (int k = 0; k < FRAY_SIM_HARM_KINDS && fray_sim_harm_name(s, k);
             k++) {
            json_word(word, sizeof word, fray_sim_harm_name(s, k));
            snprintf(key, sizeof key, "%s_dealt", word);
            json_mean(j, key, cc->dealt[k], c->trials);
            snprintf(key, sizeof key, "%s_taken", word);
            json_mean(j, key, cc->taken[k], c->trials);
        }
        json_mean(j, "actions", cc->actions, c->trials);
        for (int k = 0; k < FRAY_SIM_SPENT_KINDS && fray_sim_spent_name(s, k);
             k++) {
            json_word(word, sizeof word, fray_sim_spent_name(s, k));
            json_mean(j, word, cc->spent[k], c->trials);
        }
        json_end_object(j);
        json_key(j, "actions_by_kind"); /* totals over all fights */
        json_begin_object(j);
        for (int k = 0; k < FRAY_SIM_ACTION_KINDS; k++)
            if (cc->by_kind[k])
                json_kv_u64(j, fray_sim_action_name(s, k),
                            cc->by_kind[k]);
        json_end_object(j);
        json_end_object(j);
    }
    json_end_array(j);
    json_end_object(j);
}

/* A two-key sweep as a grid: "across" the first key's values, "down" the
 * second's, and per side (then "nobody") one row per value of the
 * second key of its win shares, one per value of the first key. */
static void json_grid(json_out *j, const fray_setup *s, const sweep_key *keys,
                      const variant *v) {
    int n1 = keys[0].list.n, n2 = keys[1].list.n;
    json_key(j, "grid");
    json_begin_object(j);
    json_kv_string(j, "across", keys[0].key);
    json_kv_string(j, "down", keys[1].key);
    json_key(j, "wins");
    json_begin_array(j);
    int n_sides = fray_setup_sides(s);
    for (int side = 0; side <= n_sides; side++) {
        bool nob = side == n_sides;
        json_begin_object(j);
        json_kv_string(j, "side", nob ? "nobody" : fray_setup_side_name(s, side));
        json_key(j, "rows");
        json_begin_array(j);
        for (int d = 0; d < n2; d++) {
            json_begin_object(j);
            json_kv_string(j, "value", keys[1].list.value[d]);
            json_key(j, "shares");
            json_begin_array(j);
            for (int a = 0; a < n1; a++) {
                const fray_sim_counts *c = v[a * n2 + d].counts;
                json_double(j, share(nob ? nobody_of(c) : c->wins[side],
                                     c->trials));
            }
            json_end_array(j);
            json_end_object(j);
        }
        json_end_array(j);
        json_end_object(j);
    }
    json_end_array(j);
    json_end_object(j);
}

/* ---- Reports ------------------------------------------------------------------------ */

static bool write_report(cli_args *args, const char *path,
                         const fray_sim_report *r) {
    bool html = cli_ends_with_ci(path, ".html") || cli_ends_with_ci(path, ".htm");
    size_t n = html ? fray_sim_report_html(r, NULL, 0)
                    : fray_sim_report_svg(r, NULL, 0);
    char *buf = malloc(n + 1);
    if (!buf) {
        cli_error(args, "out of memory for the report");
        return false;
    }
    size_t m = html ? fray_sim_report_html(r, buf, n + 1)
                    : fray_sim_report_svg(r, buf, n + 1);
    bool ok = m == n && cli_write_whole(path, "the report", buf, n, NULL);
    if (m != n)
        cli_error(args, "the report changed size while it was drawn");
    free(buf);
    return ok;
}

/* ---- The command ------------------------------------------------------------------------ */

int cmd_sim(int argc, char **argv) {
    int rank = 0, n_ranks = 1;
    if (!cli_mpi_start(&argc, &argv, &rank, &n_ranks))
        return EXIT_USAGE;
    cli_opt opts[] = {
        {"n", true, NULL, false},       {"threads", true, NULL, false},
        {"seed", true, NULL, false},    {"vary", true, NULL, false},
        {"report", true, NULL, false},  {"until-phase", true, NULL, false},
        {"quiet", false, NULL, false},  {"time", false, NULL, false},
        {"C", true, NULL, false},
    };
    cli_args args = {"fray sim", opts, (int)(sizeof opts / sizeof opts[0]),
                     {0}, 0, false, false};
    int rc = cli_start(&args, argc, argv, HELP, 1, "an encounter file");
    if (rc >= 0)
        return cli_mpi_end(rc);
    long n = 10000, threads = 0, until = 0;
    cli_opt *n_opt = cli_get(&args, "n");
    if ((n_opt->present &&
         !cli_int(&args, "-n (fights)", n_opt->value, 1, 2000000000L, &n)) ||
        !cli_int_opt(&args, "threads", 0, 256, &threads) ||
        !cli_int_opt(&args, "until-phase", 0, 1000000, &until))
        return cli_mpi_end(EXIT_USAGE);
    cli_opt *seed_opt = cli_get(&args, "seed");
    uint64_t seed = 1;
    if (seed_opt->present && !cli_u64(&args, "--seed", seed_opt->value, &seed))
        return cli_mpi_end(EXIT_USAGE);
    const char *report_path = cli_get(&args, "report")->value;
    if (report_path && !cli_ends_with_ci(report_path, ".svg") &&
        !cli_ends_with_ci(report_path, ".html") && !cli_ends_with_ci(report_path, ".htm")) {
        cli_error(&args, "--report %s: the file must end in .svg or .html",
                  report_path);
        return cli_mpi_end(EXIT_USAGE);
    }

    /* Every --vary (the option parser keeps only the last one). */
    static sweep_key keys[MAX_KEYS];
    int n_keys = 0;
    for (int i = 0; i < argc; i++) {
        const char *v = NULL;
        if (strcmp(argv[i], "--vary") == 0 && i + 1 < argc)
            v = argv[++i];
        else if (strncmp(argv[i], "--vary=", 7) == 0)
            v = argv[i] + 7;
        if (!v)
            continue;
        if (n_keys == MAX_KEYS) {
            cli_error(&args, "at most %d --vary keys", MAX_KEYS);
            return cli_mpi_end(EXIT_USAGE);
        }
        if (!parse_vary(&args, v, &keys[n_keys++]))
            return cli_mpi_end(EXIT_USAGE);
    }
    int n_variants = 1;
    for (int k = 0; k < n_keys; k++) {
        if (n_variants * keys[k].list.n > MAX_VARIANTS) {
            cli_error(&args, "the sweep has more than %d variants", MAX_VARIANTS);
            return cli_mpi_end(EXIT_USAGE);
        }
        n_variants *= keys[k].list.n;
    }

    fray_setup *setup = NULL;
    rc = cli_load_encounter(&args, args.pos[0], &setup);
    if (rc >= 0)
        return cli_mpi_end(rc);
    /* Whom each key changes; an unknown key stops here, with "did you
     * mean" (before any fight is set up). */
    for (int k = 0; k < n_keys; k++) {
        fray_diag d;
        memset(&d, 0, sizeof d);
        if (fray_setup_vary_scope(setup, keys[k].key, keys[k].scope,
                                  sizeof keys[k].scope, &d) != FRAY_OK) {
            cli_error(&args, "--vary %s", d.message);
            fray_setup_free(setup);
            return cli_mpi_end(EXIT_USAGE);
        }
        /* A list of names too long for the line says it was cut. */
        size_t len = strlen(keys[k].scope);
        if (len == sizeof keys[k].scope - 1)
            memcpy(keys[k].scope + len - 3, "...", 3);
    }
    /* No --seed: the file's, else 1 (--help). */
    if (!seed_opt->present && !fray_setup_seed(setup, &seed))
        seed = 1;

    variant *v = calloc((size_t)n_variants, sizeof *v);
    if (!v) {
        fray_setup_free(setup);
        cli_error(&args, "out of memory");
        return cli_mpi_end(EXIT_USAGE);
    }
    int status = EXIT_OK;
    for (int j = 0; j < n_variants && status == EXIT_OK; j++) {
        v[j].counts = calloc(1, sizeof *v[j].counts);
        if (!v[j].counts ||
            fray_setup_copy(setup, NULL, &v[j].setup) != FRAY_OK) {
            cli_error(&args, "out of memory");
            status = EXIT_USAGE;
            break;
        }
        /* Variant j: the mixed-radix digits of j, the last key fastest. */
        int rest = j;
        size_t len = 0;
        for (int k = n_keys - 1; k >= 0; k--) {
            v[j].value[k] = keys[k].list.value[rest % keys[k].list.n];
            rest /= keys[k].list.n;
        }
        for (int k = 0; k < n_keys && status == EXIT_OK; k++) {
            fray_diag d;
            memset(&d, 0, sizeof d);
            if (fray_setup_vary(v[j].setup, keys[k].key, v[j].value[k],
                                       &d) != FRAY_OK) {
                cli_error(&args, "--vary %s", d.message);
                status = EXIT_USAGE;
            }
            /* "bandit.PA=3, longblade.damage=5" (keys and values are
             * short: 127 and 31 characters at most). */
            int w = snprintf(v[j].label + len, sizeof v[j].label - len,
                             "%s%.127s=%.31s", k ? ", " : "", keys[k].key,
                             v[j].value[k]);
            /* Four long keys can fill the label: it stays cut there (the
             * next one must not start past its end). */
            len += w > 0 ? (size_t)w : 0;
            if (len >= sizeof v[j].label)
                len = sizeof v[j].label - 1;
        }
    }

    progress pg;
    memset(&pg, 0, sizeof pg);
    pg.show = rank == 0 && !cli_get(&args, "quiet")->present &&
              isatty(STDERR_FILENO);
    pg.n_variants = n_variants;
    pg.t0 = now_s();
    /* Ctrl-C: the progress callback reads the flag and says stop. Without
     * the handler Ctrl-C still ends fray, only without a report. */
    struct sigaction sa, old_sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    bool caught = sigemptyset(&sa.sa_mask) == 0 &&
                  sigaction(SIGINT, &sa, &old_sa) == 0;
    if (!caught)
        fprintf(stderr, "fray sim: cannot catch Ctrl-C (%s): it will stop "
                        "without a report\n", strerror(errno));

    /* This process's slice of the trials (all of them without MPI). */
    uint64_t total = (uint64_t)n;
    uint64_t first = total * (uint64_t)rank / (uint64_t)n_ranks;
    uint64_t last = total * (uint64_t)(rank + 1) / (uint64_t)n_ranks;
    pg.per_variant = last - first;
    uint64_t done_trials = 0;
    for (int j = 0; j < n_variants && status == EXIT_OK; j++) {
        fray_sim_options so;
        memset(&so, 0, sizeof so);
        so.seed = seed;
        so.first_trial = first;
        so.trials = last - first;
        so.threads = (int)threads;
        so.until_phase = (int)until;
        so.progress = on_progress;
        so.progress_ctx = &pg;
        pg.variant = j;
        if (so.trials > 0) {
            fray_diag sd;
            memset(&sd, 0, sizeof sd);
            so.diag = &sd;
            fray_status st = fray_sim(v[j].setup, &so, NULL, v[j].counts);
            if (st != FRAY_OK) {
                progress_clear(&pg);
                cli_error(&args, "the simulation stopped: %s",
                          sd.message[0] ? sd.message : fray_strerror(st));
                status = EXIT_UNFINISHED;
                break;
            }
        }
        if (!cli_mpi_sum(v[j].counts)) {
            cli_error(&args, "the processes could not add up their counts");
            status = EXIT_UNFINISHED;
            break;
        }
        done_trials += v[j].counts->trials;
        if (g_interrupted)
            break;
    }
    progress_clear(&pg);
    if (caught && sigaction(SIGINT, &old_sa, NULL) != 0)
        fprintf(stderr, "fray sim: cannot restore Ctrl-C (%s)\n",
                strerror(errno));
    double seconds = now_s() - pg.t0;
    /* What was asked for and what was run: they differ after Ctrl-C, and
     * then the report says so (issue 11: JSON gave the trials asked for
     * as if they had run). A Ctrl-C after the last fight stops nothing. */
    uint64_t requested = (uint64_t)n * (uint64_t)n_variants;
    bool interrupted = g_interrupted && done_trials < requested;

    if (status == EXIT_OK && rank == 0) {
        int shown = n_variants;
        if (interrupted) {
            for (shown = 0; shown < n_variants && v[shown].counts->trials;)
                shown++;
            fprintf(stderr, "fray sim: stopped (Ctrl-C) after %llu of %llu "
                            "fights: the numbers are of the fights finished\n",
                    (unsigned long long)done_trials,
                    (unsigned long long)requested);
        }
        if (pg.show || cli_get(&args, "time")->present)
            fprintf(stderr, "fray sim: %llu fights in %.2f s (%.0f fights/s)\n",
                    (unsigned long long)done_trials, seconds,
                    seconds > 0 ? (double)done_trials / seconds : 0.0);
        const char *title = fray_setup_name(setup);
        if (args.json) {
            json_out j;
            json_init(&j, stdout);
            json_begin_object(&j);
            json_kv_string(&j, "encounter", title);
            json_kv_u64(&j, "seed", seed);
            json_kv_u64(&j, "trials", done_trials);
            json_kv_u64(&j, "trials_requested", requested);
            json_kv_bool(&j, "interrupted", interrupted);
            /* What the words of how a combatant ends mean here. */
            json_key(&j, "states");
            json_begin_object(&j);
            for (int k = 0; k < FRAY_SIM_STATES; k++)
                json_kv_string(&j, fray_sim_state_name(k),
                               fray_sim_state_meaning(setup, k));
            json_end_object(&j);
            if (n_keys) {
                /* The sweep's keys: their values and whom they change. */
                json_key(&j, "vary_keys");
                json_begin_array(&j);
                for (int k = 0; k < n_keys; k++) {
                    json_begin_object(&j);
                    json_kv_string(&j, "key", keys[k].key);
                    json_key(&j, "values");
                    json_begin_array(&j);
                    for (int x = 0; x < keys[k].list.n; x++)
                        json_string(&j, keys[k].list.value[x]);
                    json_end_array(&j);
                    json_kv_string(&j, "changes", keys[k].scope);
                    json_end_object(&j);
                }
                json_end_array(&j);
            }
            if (n_keys == 2 && shown == n_variants)
                json_grid(&j, setup, keys, v);
            json_key(&j, "variants");
            json_begin_array(&j);
            for (int k = 0; k < shown; k++)
                json_variant(&j, v[k].setup, keys, n_keys, &v[k]);
            json_end_array(&j);
            json_end_object(&j);
            json_finish(&j);
        } else {
            printf("%s: ", title);
            if (interrupted) {
                printf("stopped after ");
                print_count(done_trials);
                printf(" of ");
                print_count(requested);
                printf(" fights");
                if (n_variants > 1) {
                    printf(" (");
                    print_count((uint64_t)n);
                    printf(" per variant)");
                }
            } else {
                print_count((uint64_t)n);
                printf(" fights%s", n_variants > 1 ? " per variant" : "");
            }
            printf(", seed %llu\n", (unsigned long long)seed);
            /* Stopped before a fight finished (shown 0): no tables. */
            if (shown > 0 && n_variants == 1) {
                print_wins(v[0].setup, v[0].counts);
                print_length(v[0].setup, v[0].counts);
                print_combatants(v[0].setup, v[0].counts);
            } else if (shown > 0) {
                print_sweep(setup, keys, n_keys, v, shown);
            }
        }
        if (report_path && shown > 0) {
            fray_sim_variant rv[MAX_VARIANTS];
            for (int k = 0; k < shown; k++) {
                rv[k].label = n_keys ? v[k].label : "";
                rv[k].value = n_keys ? v[k].value[0] : "";
                rv[k].counts = v[k].counts;
                rv[k].value2 = n_keys == 2 ? v[k].value[1] : NULL;
            }
            fray_sim_report r;
            memset(&r, 0, sizeof r);
            r.title = title;
            r.rules_setup = v[0].setup;
            r.seed = seed;
            r.seconds = seconds;
            r.vary_key = n_keys ? keys[0].key : NULL;
            r.vary_scope = n_keys ? keys[0].scope : NULL;
            if (n_keys == 2 && shown == n_variants) {
                /* the grid: a heat map per side */
                r.vary_key2 = keys[1].key;
                r.vary_scope2 = keys[1].scope;
                r.n_values2 = keys[1].list.n;
            }
            r.n_variants = shown;
            r.variants = rv;
            if (!write_report(&args, report_path, &r))
                status = EXIT_UNFINISHED;
        }
    }
    for (int j = 0; j < n_variants; j++) {
        free(v[j].counts);
        fray_setup_free(v[j].setup);
    }
    free(v);
    fray_setup_free(setup);
    if (interrupted && status == EXIT_OK)
        status = EXIT_INTERRUPTED;
    return cli_mpi_end(status);
}
