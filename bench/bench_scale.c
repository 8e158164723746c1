/*
 * bench_scale.c - what a fight costs against what its randomness costs
 * (issue 16), in one run:
 *
 *  1. The lazy-draw limit loop: a plain C loop that draws the duel's
 *     cards lazily, one bounded random number per card from the trial's
 *     stream (a deck's count of cards left goes down by one; a reshuffle
 *     resets it), the same number of cards per fight as the duel turns
 *     over on average (counted from 2000 fights that keep a journal).
 *     Its fights/s and time per card are the practical limit of a fight.
 *  2. The example encounters (duel, skirmish, ambush) as `fray sim` runs
 *     them on one thread, beside the limit loop of their own cards per
 *     fight: the ratio fight / limit.
 *  3. A series of N-versus-N fights (1v1, 2v2, 4v4, 8v8, 16v16) on an open
 *     map, made here from one stat block: each side a column of N facing
 *     the other five spaces away. Fights/s, combatant-actions per fight
 *     (the counts' actions, every kind), combatant-actions/s, time per
 *     combatant-action, and that time over the 1v1's and over the limit
 *     loop's time per card. For 99 Towers the Sellsword of
 *     examples/towers/statblocks.yaml (a great axe: melee, so the melee
 *     chains of Outnumbering grow with N); for Alloy the Brawler of
 *     examples/alloy/statblocks.yaml (a club), beside a bare loop of its
 *     dice (a d20 and the weapon's d6 per attack: its time per attack).
 *
 * Times are the process's CPU time (CLOCK_PROCESS_CPUTIME_ID), not the
 * wall clock: on a machine shared with other work a run waits its turn
 * without that counting. Each rate is still the best of the rounds
 * (other work only ever slows a run down: caches, the other core); a
 * rate is one fray_sim call of a size that takes about `secs` seconds (a
 * first call of 200 trials sizes it).
 *
 * usage: bench_scale [--quick] [--only towers|alloy N [--trials K]]
 *        (--quick: a smoke run for ctest; --only: the one N-versus-N fight
 *        for about three seconds, to profile: perf record ./bench_scale
 *        --only towers 16; with --trials, exactly K fights from trial 0,
 *        for an instruction count: valgrind --tool=callgrind
 *        --toggle-collect=fray_sim ./bench_scale --only alloy 16 --trials 20,
 *        the total over the actions it prints)
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cards_int.h"
#include "fray/fray.h"
#include "towers_int.h"
#include "bench_util.h"

/* Seconds of this process's CPU time. */
static double cpu_now(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return bench_now_s();
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Mean cards turned over per fight (from a journal of 2000 fights). */
static double cards_per_fight(const fray_towers_setup *s, int n) {
    fray_towers_fight_options o;
    memset(&o, 0, sizeof o);
    o.journal = true;
    fray_towers_fight *f = NULL;
    if (fray_towers_fight_new(s, 0, &o, NULL, &f) != FRAY_OK)
        return 0.0;
    long cards = 0;
    ft_event *buf = malloc(sizeof *buf);
    if (!buf) {
        fray_towers_fight_free(f);
        return 0.0;
    }
    int t = 0;
    for (; t < n; t++) {
        if (fray_towers_fight_reset_trial(f, 1, (uint64_t)t) != FRAY_OK ||
            fray_towers_fight_run(f) != FRAY_OK)
            break;
        for (int e = 0; e < f->n_events; e++)
            cards += ft_fight_event(f, e, buf)->n_cards;
    }
    free(buf);
    fray_towers_fight_free(f);
    return t ? (double)cards / t : 0.0;
}

/* The lazy-draw limit loop: per fight the trial's stream, then `cards`
 * cards, each one bounded random number below the count of cards left
 * in its deck (decks taken in turn, as the flips of a fight take their
 * owners' decks); a deck with no card left is reshuffled: its count is
 * reset. Returns fights/s. */
static double limit_loop(int deck_size, int n_decks, double per_fight,
                         double secs, long *sink) {
    int cards = (int)(per_fight + 0.5);
    if (n_decks < 1)
        n_decks = 1;
    if (n_decks > FT_MAX_DECKS)
        n_decks = FT_MAX_DECKS;
    int left[FT_MAX_DECKS];
    fray_rng rng;
    long i = 0;
    uint64_t acc = 0;
    double t0 = cpu_now(), dt = 0.0;
    do {
        for (int b = 0; b < 1000; b++, i++) {
            fray_rng_for_trial(&rng, 1, (uint64_t)i);
            for (int d = 0; d < n_decks; d++)
                left[d] = deck_size;
            int d = 0;
            for (int c = 0; c < cards; c++) {
                if (left[d] == 0)
                    left[d] = deck_size;
                acc += fray_rng_below(&rng, (uint32_t)left[d]--);
                d = d + 1 < n_decks ? d + 1 : 0;
            }
        }
        dt = cpu_now() - t0;
    } while (dt < secs);
    *sink += (long)(acc % 7);
    return (double)i / dt;
}

/* Alloy's bare loop of its dice: per attack a d20 and a d6 (the club's),
 * nothing else. Returns attacks/s. */
static double dice_loop(double secs, long *sink) {
    fray_rng rng;
    fray_rng_for_trial(&rng, 1, 0);
    long i = 0;
    uint64_t acc = 0;
    double t0 = cpu_now(), dt = 0.0;
    do {
        for (int b = 0; b < 100000; b++, i++) {
            uint32_t d20 = fray_rng_below(&rng, 20) + 1;
            if (d20 + 4 >= 15)
                acc += fray_rng_below(&rng, 6) + 1;
        }
        dt = cpu_now() - t0;
    } while (dt < secs);
    *sink += (long)(acc % 7);
    return (double)i / dt;
}

/* One fray_sim call of n trials from `first` on one thread: its seconds
 * (-1 on failure), the counts in *c. */
static double sim_call(const fray_setup *s, uint64_t first, long n,
                       fray_sim_counts *c) {
    fray_sim_options o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.first_trial = first;
    o.trials = (uint64_t)n;
    o.threads = 1;
    double t0 = cpu_now();
    fray_status rc = fray_sim(s, &o, NULL, c);
    if (rc != FRAY_OK) {
        fprintf(stderr, "bench_scale: fray_sim stopped: %s\n",
                fray_strerror(rc));
        return -1.0;
    }
    return cpu_now() - t0;
}

/* Fights/s on one thread (one call sized to take about secs), and the
 * mean combatant-actions per fight. */
static double sim_rate(const fray_setup *s, double secs, double *actions) {
    fray_sim_counts *c = calloc(1, sizeof *c);
    if (!c)
        return 0.0;
    long n = secs > 0 ? 200 : 5; /* (5: a smoke run) */
    double dt = sim_call(s, 0, n, c), rate = 0.0;
    if (dt > 0) {
        rate = (double)n / dt;
        if (dt < secs) {
            long big = (long)(rate * secs) + 1;
            double dt2 = sim_call(s, (uint64_t)n, big, c);
            if (dt2 > 0) {
                rate = (double)big / dt2;
                n = big;
            }
        }
        uint64_t a = 0;
        for (int k = 0; k < FRAY_SIM_MAX_COMBATANTS; k++)
            a += c->c[k].actions;
        *actions = (double)a / (double)(c->trials ? c->trials : 1);
    }
    free(c);
    return dt > 0 ? rate : 0.0;
}

/* Writes the N-versus-N encounter of `rules` to a temporary file and
 * loads it. NULL after a message. */
static fray_setup *nvn_setup(bool alloy, int n) {
    char path[] = "/tmp/fray-bench-scale-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("bench_scale: mkstemp");
        return NULL;
    }
    FILE *fp = fdopen(fd, "w");
    if (!fp) {
        perror("bench_scale: fdopen");
        close(fd);
        unlink(path);
        return NULL;
    }
    const char *dir = FRAY_SOURCE_DIR;
    int w = 12, h = n + 2, xa = 3, xb = 8;
    int ok = 0;
    if (alloy)
        ok |= fprintf(fp,
                      "fray: encounter\nrules: alloy\nname: %dv%d\nseed: 1\n"
                      "catalog: [%s/data/alloy/weapons.yaml]\n"
                      "statblocks: [%s/examples/alloy/statblocks.yaml]\n",
                      n, n, dir, dir) < 0;
    else
        ok |= fprintf(fp,
                      "fray: encounter\nrules: towers\nname: %dv%d\nseed: 1\n"
                      "catalog: [%s/data/towers/equipment.yaml]\n"
                      "statblocks: [%s/examples/towers/statblocks.yaml]\n",
                      n, n, dir, dir) < 0;
    ok |= fprintf(fp, "sides: [West, East]\nmap:\n  art: |\n") < 0;
    for (int y = 0; y < h; y++) {
        ok |= fputs("    ", fp) < 0;
        for (int x = 0; x < w; x++)
            ok |= fputc('.', fp) < 0;
        ok |= fputc('\n', fp) < 0;
    }
    ok |= fprintf(fp, "combatants:\n") < 0;
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < n; i++)
            ok |= fprintf(fp,
                          "  - {id: %s-%d, statblock: %s, side: %s, at: [%d, "
                          "%d]}\n",
                          side ? "east" : "west", i + 1,
                          alloy ? "Brawler" : "Sellsword",
                          side ? "East" : "West", side ? xb : xa, 1 + i) < 0;
    if (fclose(fp) != 0 || ok) {
        fprintf(stderr, "bench_scale: cannot write %s\n", path);
        unlink(path);
        return NULL;
    }
    fray_setup *s = NULL;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_status rc = fray_setup_load(path, NULL, &s, &diag);
    if (rc != FRAY_OK)
        fprintf(stderr, "bench_scale: %dv%d: %s:%d:%d: %s\n", n, n, path,
                diag.line, diag.column, diag.message);
    if (unlink(path) != 0)
        perror("bench_scale: unlink");
    return rc == FRAY_OK ? s : NULL;
}

/* Loads examples/towers/<file> through the layer. */
static fray_setup *example(const char *file) {
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/towers/%s", FRAY_SOURCE_DIR, file);
    fray_setup *s = NULL;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    if (fray_setup_load(path, NULL, &s, &diag) != FRAY_OK) {
        fprintf(stderr, "bench_scale: %s:%d:%d: %s\n", path, diag.line,
                diag.column, diag.message);
        return NULL;
    }
    return s;
}

/* A 99 Towers setup's decks: how many, and how many cards in each. */
static void decks_of(const fray_towers_setup *ts, int *n_decks, int *size) {
    fray_deck d;
    memset(&d, 0, sizeof d);
    fray__deck_init(&d, &ts->s.opt.deck);
    *size = d.size;
    *n_decks = ts->s.n_decks;
}

int main(int argc, char **argv) {
    bool quick = false;
    int only = -1, only_n = 0;
    long only_trials = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else if (strcmp(argv[i], "--only") == 0 && i + 2 < argc &&
                   (strcmp(argv[i + 1], "towers") == 0 ||
                    strcmp(argv[i + 1], "alloy") == 0) &&
                   atoi(argv[i + 2]) >= 1 && atoi(argv[i + 2]) <= 16) {
            only = strcmp(argv[i + 1], "alloy") == 0;
            only_n = atoi(argv[i + 2]);
            i += 2;
        } else if (strcmp(argv[i], "--trials") == 0 && i + 1 < argc &&
                   atol(argv[i + 1]) >= 1) {
            only_trials = atol(argv[++i]);
        } else {
            fprintf(stderr, "usage: bench_scale [--quick] [--only towers|alloy "
                            "N (1..16) [--trials K]]\n");
            return 2;
        }
    }
    if (only >= 0) {
        fray_setup *s = nvn_setup(only != 0, only_n);
        if (!s)
            return 1;
        if (only_trials > 0) {
            /* Exactly K fights, for an instruction count. */
            fray_sim_counts *c = calloc(1, sizeof *c);
            double dt = c ? sim_call(s, 0, only_trials, c) : -1.0;
            uint64_t a = 0;
            for (int k = 0; c && k < FRAY_SIM_MAX_COMBATANTS; k++)
                a += c->c[k].actions;
            if (dt >= 0)
                printf("%s %dv%d: %ld fights, %llu combatant-actions\n",
                       only ? "Alloy" : "99 Towers", only_n, only_n,
                       only_trials, (unsigned long long)a);
            free(c);
            fray_setup_free(s);
            return dt >= 0 ? 0 : 1;
        }
        double acts = 0, rf = sim_rate(s, 3.0, &acts);
        printf("%s %dv%d: %.0f fights/s, %.1f actions/fight, %.1f ns/action\n",
               only ? "Alloy" : "99 Towers", only_n, only_n, rf, acts,
               rf * acts > 0 ? 1e9 / (rf * acts) : 0.0);
        fray_setup_free(s);
        return 0;
    }
    double secs = quick ? 0.0 : 0.6;
    int rounds = quick ? 1 : 3;
    long sink = 0;
    printf("fray bench_scale%s: one thread, each rate the best of %d round%s\n",
           quick ? " --quick (smoke run: numbers are rough)" : "", rounds,
           rounds == 1 ? "" : "s");

    /* ---- 1 and 2: the limit loop, and the examples beside it. */
    printf("\n99 Towers examples against the lazy-draw limit loop of their "
           "cards\n%-14s %7s %12s %12s %10s %9s\n", "encounter", "cards",
           "fight", "limit loop", "limit", "fight /");
    printf("%-14s %7s %12s %12s %10s %9s\n", "", "/fight", "fights/s",
           "fights/s", "ns/card", "limit");
    static const char *const files[] = {"duel.yaml", "skirmish.yaml",
                                        "ambush.yaml"};
    double ns_card = 0.0;
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        fray_setup *s = example(files[k]);
        if (!s)
            return 1;
        const fray_towers_setup *ts = fray_setup_ruleset_data(s);
        double per_fight = cards_per_fight(ts, quick ? 50 : 2000);
        int n_decks = 1, size = 54;
        decks_of(ts, &n_decks, &size);
        double rf = 0, rl = 0, acts = 0;
        for (int round = 0; round < rounds; round++) {
            double x = sim_rate(s, secs, &acts);
            rf = x > rf ? x : rf;
            x = limit_loop(size, n_decks, per_fight, secs, &sink);
            rl = x > rl ? x : rl;
        }
        double nsc = rl > 0 && per_fight > 0 ? 1e9 / (rl * per_fight) : 0.0;
        if (k == 0)
            ns_card = nsc;
        printf("%-14s %7.1f %12.0f %12.0f %10.2f %8.1fx\n", files[k],
               per_fight, rf, rl, nsc, rf > 0 ? rl / rf : 0.0);
        if (k == 0)
            printf("duel-fights-per-s %.0f\nlimit-fights-per-s %.0f\n"
                   "duel-over-limit %.2f\n", rf, rl, rf > 0 ? rl / rf : 0.0);
        fray_setup_free(s);
    }

    /* ---- 3: N versus N. */
    static const int sizes[] = {1, 2, 4, 8, 16};
    for (int alloy = 0; alloy < 2; alloy++) {
        double unit = ns_card;
        if (alloy) {
            double ra = 0;
            for (int round = 0; round < rounds; round++) {
                double x = dice_loop(secs > 0 ? secs / 2 : 0.0, &sink);
                ra = x > ra ? x : ra;
            }
            unit = ra > 0 ? 1e9 / ra : 0.0;
            printf("\nAlloy: N Brawlers against N on an open map; the bare dice "
                   "loop (a d20 and a d6\nper attack) takes %.2f ns per attack\n",
                   unit);
        } else {
            printf("\n99 Towers: N Sellswords against N on an open map; the "
                   "limit loop takes %.2f ns\nper card (the duel's)\n", unit);
        }
        printf("%-6s %11s %9s %12s %10s %8s %10s\n", "fight", "fights/s",
               "actions", "actions/s", "ns/action", "/ 1v1",
               alloy ? "/ attack" : "/ card");
        printf("%-6s %11s %9s %12s %10s %8s %10s\n", "", "", "/fight", "", "",
               "", alloy ? "dice" : "(limit)");
        double base = 0.0;
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            int n = sizes[k];
            fray_setup *s = nvn_setup(alloy != 0, n);
            if (!s)
                return 1;
            double rf = 0, acts = 0;
            for (int round = 0; round < rounds; round++) {
                double x = sim_rate(s, secs, &acts);
                rf = x > rf ? x : rf;
            }
            double aps = rf * acts;
            double ns = aps > 0 ? 1e9 / aps : 0.0;
            if (k == 0)
                base = ns;
            char name[16];
            snprintf(name, sizeof name, "%dv%d", n, n);
            printf("%-6s %11.0f %9.1f %12.0f %10.1f %7.1fx %9.1fx\n", name, rf,
                   acts, aps, ns, base > 0 ? ns / base : 0.0,
                   unit > 0 ? ns / unit : 0.0);
            fray_setup_free(s);
        }
    }
    printf("\n(%ld)\n", sink % 7);
    return 0;
}
