/*
 * bench_sim.c - how fast `fray sim` runs whole encounters (issue 4,
 * "Speed"): fights per second on 1 and on 2 threads (fray_towers_sim, the
 * code `fray sim` runs), the speed-up, and the ratio to a bare loop that
 * does nothing but flip the same number of cards from the same decks (the
 * practical limit: shuffles, draws, discards and the kept card, no rules).
 *
 * Cards per fight are counted first from 2000 fights that keep a journal.
 * A rate of the fight is one fray_towers_sim call sized to take about a
 * second, as `fray sim -n N` runs (a first call of 20,000 trials sizes
 * it): what a call keeps between its trials (each thread's remembered
 * decisions) counts as it does for a designer's run. Five rounds of the
 * 1-thread, 2-thread and bare-loop runs; each rate is the best of its
 * five (this VM's other load only ever slows a run down).
 *
 * usage: bench_sim [--quick] [EXAMPLE.yaml ...]  (default: duel.yaml
 *        skirmish.yaml; --quick: a smoke run for ctest)
 */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cards_int.h"
#include "fray/fray.h"
#include "towers_int.h"
#include "bench_util.h"

/* Mean cards turned over per fight, and per flip. */
static void count_cards(const fray_towers_setup *s, double *per_fight,
                        double *per_flip) {
    fray_towers_fight_options o;
    memset(&o, 0, sizeof o);
    o.journal = true;
    o.facts = true;
    fray_towers_fight *f = NULL;
    if (fray_towers_fight_new(s, 0, &o, NULL, &f) != FRAY_OK)
        return;
    long cards = 0, flips = 0;
    const int n = 2000;
    ft_event *buf = malloc(sizeof *buf);
    if (!buf) {
        fray_towers_fight_free(f);
        return;
    }
    for (int t = 0; t < n; t++) {
        if (fray_towers_fight_reset_trial(f, 1, (uint64_t)t) != FRAY_OK ||
            fray_towers_fight_run(f) != FRAY_OK)
            break;
        for (int e = 0; e < f->n_events; e++) {
            const ft_event *ev = ft_fight_event(f, e, buf);
            cards += ev->n_cards;
            for (int k = 0; k < ev->n_facts; k++)
                if (ev->facts[k].kind == FT_FACT_FLIP)
                    flips++;
        }
    }
    free(buf);
    fray_towers_fight_free(f);
    *per_fight = (double)cards / n;
    *per_flip = flips ? (double)cards / (double)flips : 2.0;
}

/* The bare loop: per fight, the same decks shuffled from the same kind of
 * stream, then flips of `per_flip` cards (the highest kept) until
 * `per_fight` cards are turned over, each flip discarded (decks reshuffle
 * their discards when they run low, as in a fight). */
static double bare_loop(const fray_towers_setup *s, double per_fight,
                        double per_flip, double min_seconds, long *out_n,
                        long *sink) {
    ft_state *st = calloc(1, sizeof *st);
    if (!st)
        return 0.0;
    int n_decks = s->s.n_decks;
    int cards = (int)(per_fight + 0.5);
    size_t flip = per_flip < 1.5 ? 1 : (size_t)(per_flip + 0.5);
    long i = 0, acc = 0;
    double t0 = bench_now_s(), dt = 0.0;
    do {
        for (int b = 0; b < 1000; b++, i++) {
            fray_rng_for_trial(&st->rng, 1, (uint64_t)i);
            for (int d = 0; d < n_decks; d++) {
                fray__deck_init(&st->decks[d], &s->s.opt.deck);
                fray_deck_shuffle(&st->decks[d], &st->rng);
            }
            int d = 0;
            for (int c = 0; c < cards; c += (int)flip) {
                fray_card got[8];
                fray_deck *dk = &st->decks[d];
                if (fray_deck_draw(dk, &st->rng, flip, got) != FRAY_OK)
                    break;
                int best = 0;
                for (size_t k = 0; k < flip; k++) {
                    int v = fray_card_value(&s->s.opt.deck, got[k]);
                    best = v > best ? v : best;
                }
                acc += best;
                if (fray_deck_discard(dk, got, flip) != FRAY_OK)
                    abort(); /* (the cards just drawn: cannot fail) */
                d = d + 1 < n_decks ? d + 1 : 0;
            }
        }
        dt = bench_now_s() - t0;
    } while (dt < min_seconds);
    free(st);
    *out_n = i;
    *sink += acc;
    return (double)i / dt;
}

/* One fray_towers_sim call of n trials from trial `first` on `threads`
 * threads; its seconds, or -1 when it fails. */
static double sim_call(const fray_towers_setup *s, int threads, uint64_t first,
                       long n, fray_sim_counts *c) {
    fray_sim_options o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.first_trial = first;
    o.trials = (uint64_t)n;
    o.threads = threads;
    double t0 = bench_now_s();
    if (fray_towers_sim(s, &o, NULL, c) != FRAY_OK)
        return -1.0;
    return bench_now_s() - t0;
}

/* Fights per second as `fray sim -n N` runs them: one call whose N is
 * sized (from a first call of `n` trials) to take about min_seconds. */
static double sim_rate(const fray_towers_setup *s, int threads, long n,
                       double min_seconds, long *out_n) {
    fray_sim_counts *c = calloc(1, sizeof *c);
    if (!c)
        return 0.0;
    double rate = 0.0;
    double dt = sim_call(s, threads, 0, n, c);
    *out_n = n;
    if (dt > 0)
        rate = (double)n / dt;
    if (dt > 0 && dt < min_seconds) {
        long big = (long)(rate * min_seconds);
        double dt2 = sim_call(s, threads, (uint64_t)n, big, c);
        if (dt2 > 0) {
            rate = (double)big / dt2;
            *out_n = big;
        }
    }
    free(c);
    return rate;
}

int main(int argc, char **argv) {
    bool quick = false;
    const char *files[8] = {"duel.yaml", "skirmish.yaml"};
    int n_files = 2, named = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = true;
        else if (argv[i][0] != '-' && named < 8)
            files[named++] = argv[i];
        else {
            fprintf(stderr, "usage: bench_sim [--quick] [EXAMPLE.yaml ...]\n");
            return 2;
        }
    }
    if (named)
        n_files = named;
    double secs = quick ? 0.0 : 1.0;
    int rounds = quick ? 1 : 5;
    printf("fray bench_sim%s: fray_towers_sim (what `fray sim` runs); each "
           "rate the best of %d round%s\n\n",
           quick ? " --quick (smoke run: numbers are rough)" : "", rounds,
           rounds == 1 ? "" : "s");
    printf("%-14s %7s %12s %12s %8s %14s %9s\n", "encounter", "cards",
           "1 thread", "2 threads", "speed-", "bare flip loop", "fight /");
    printf("%-14s %7s %12s %12s %8s %14s %9s\n", "", "/fight", "fights/s",
           "fights/s", "up", "fights/s", "bare");
    long sink = 0;
    for (int k = 0; k < n_files; k++) {
        fray_towers_setup *s = bench_load_example("bench_sim", files[k]);
        if (!s)
            return 1;
        double per_fight = 0, per_flip = 2;
        count_cards(s, &per_fight, &per_flip);
        long n1, n2, nb;
        long chunk = quick ? 300 : 20000;
        /* Rounds of the three, each rate the best of its rounds: the
         * runs least disturbed by whatever else the machine does, taken
         * alike for the fight and the bare loop. */
        double r1 = 0, r2 = 0, rb = 0;
        for (int round = 0; round < rounds; round++) {
            double x = sim_rate(s, 1, chunk, secs, &n1);
            r1 = x > r1 ? x : r1;
            x = sim_rate(s, 2, chunk, secs, &n2);
            r2 = x > r2 ? x : r2;
            x = bare_loop(s, per_fight, per_flip, secs, &nb, &sink);
            rb = x > rb ? x : rb;
        }
        printf("%-14s %7.1f %12.0f %12.0f %7.2fx %14.0f %8.1fx\n", files[k],
               per_fight, r1, r2, r1 > 0 ? r2 / r1 : 0.0, rb,
               r1 > 0 ? rb / r1 : 0.0);
        fray_towers_setup_free(s);
    }
    printf("\n(fight / bare: how many times slower a whole fight is than "
           "only flipping its cards; %ld)\n", sink % 7);
    return 0;
}
