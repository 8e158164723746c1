/*
 * bench_cards.c - how fast fray flips cards and counts exact odds, on one
 * core (everything here runs on a single thread).
 *
 *   1. cards flipped per second: 3-card fray_flip_draw flips from one deck
 *      (discards reshuffled as the deck runs short), and a bare loop of
 *      shuffle + draw of the whole deck;
 *   2. the full exact attack table: attack_n and defense_n 1..10, attack
 *      and defense shifts -3..+3 (4900 fray_odds_attack queries), with
 *      separate decks (target: under 50 ms) and with a shared deck;
 *   3. single fray_odds_attack queries in microseconds (target: under 1 ms).
 *
 * usage: bench_cards [--quick]   (--quick: a fast smoke run for ctest)
 */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fray/fray.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Folded into the output so the compiler cannot drop the work. */
static unsigned long long sink;

static int fail(const char *what, fray_status st) {
    fprintf(stderr, "bench_cards: %s: %s\n", what, fray_strerror(st));
    return 1;
}

/* Cards per second through fray_flip_draw (3-card flips). */
static int bench_flips(long flips, double *out_rate) {
    fray_deck *deck = NULL;
    fray_status st = fray_deck_new(NULL, NULL, &deck);
    if (st != FRAY_OK)
        return fail("deck", st);
    fray_rng rng;
    fray_rng_seed(&rng, 42u, 54u);
    fray_deck_shuffle(deck, &rng);
    fray_flip f;
    double t0 = now_s();
    for (long i = 0; i < flips; i++) {
        st = fray_flip_draw(deck, &rng, 3, NULL, &f);
        if (st != FRAY_OK) {
            fray_deck_free(deck);
            return fail("flip", st);
        }
        sink += (unsigned long long)f.kept_value;
    }
    double dt = now_s() - t0;
    fray_deck_free(deck);
    *out_rate = (double)flips * 3.0 / dt;
    return 0;
}

/* Cards per second of a bare shuffle + draw of the whole deck. */
static int bench_shuffle(long decks, double *out_rate) {
    fray_deck *deck = NULL;
    fray_status st = fray_deck_new(NULL, NULL, &deck);
    if (st != FRAY_OK)
        return fail("deck", st);
    fray_rng rng;
    fray_rng_seed(&rng, 7u, 1u);
    fray_card cards[FRAY_CARDS_STANDARD];
    double t0 = now_s();
    for (long i = 0; i < decks; i++) {
        fray_deck_reset(deck, &rng); /* gather and shuffle */
        st = fray_deck_draw(deck, &rng, FRAY_CARDS_STANDARD, cards);
        if (st != FRAY_OK) {
            fray_deck_free(deck);
            return fail("draw", st);
        }
        sink += cards[0];
    }
    double dt = now_s() - t0;
    fray_deck_free(deck);
    *out_rate = (double)decks * FRAY_CARDS_STANDARD / dt;
    return 0;
}

/* The 4900-query table; the best of `reps` runs, in seconds. */
static int bench_table(bool shared, int reps, double *out_best) {
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        for (int a = 1; a <= 10; a++)
            for (int d = 1; d <= 10; d++)
                for (int as = -3; as <= 3; as++)
                    for (int ds = -3; ds <= 3; ds++) {
                        fray_attack_query q;
                        fray_attack_query_init(&q, a, d);
                        q.attack_shift = as;
                        q.defense_shift = ds;
                        q.shared_deck = shared;
                        fray_attack_odds odds;
                        fray_status st = fray_odds_attack(&q, &odds);
                        if (st != FRAY_OK)
                            return fail("odds", st);
                        sink += odds.hit[1].lo;
                    }
        double dt = now_s() - t0;
        if (dt < best)
            best = dt;
    }
    *out_best = best;
    return 0;
}

/* Microseconds per query (the mean of a timed loop, best of 3 loops). */
static int bench_query(int a, int d, int as, int ds, bool shared, long n,
                       double *out_us) {
    fray_attack_query q;
    fray_attack_query_init(&q, a, d);
    q.attack_shift = as;
    q.defense_shift = ds;
    q.shared_deck = shared;
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = now_s();
        for (long i = 0; i < n; i++) {
            fray_attack_odds odds;
            fray_status st = fray_odds_attack(&q, &odds);
            if (st != FRAY_OK)
                return fail("odds", st);
            sink += odds.hit[0].lo;
        }
        double dt = (now_s() - t0) / (double)n;
        if (dt < best)
            best = dt;
    }
    *out_us = best * 1e6;
    return 0;
}

int main(int argc, char **argv) {
    bool quick = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else {
            fprintf(stderr, "usage: bench_cards [--quick]\n");
            return 2;
        }
    }
    const long flips = quick ? 20000 : 5000000;
    const long decks = quick ? 2000 : 500000;
    const int reps = quick ? 1 : 5;
    const long queries = quick ? 50 : 5000;

    double flip_rate = 0, shuffle_rate = 0, sep_table = 0, shared_table = 0;
    if (bench_flips(flips, &flip_rate) || bench_shuffle(decks, &shuffle_rate) ||
        bench_table(false, reps, &sep_table) ||
        bench_table(true, reps, &shared_table))
        return 1;

    static const struct {
        const char *name;
        int a, d, as, ds;
    } cases[] = {
        {"5 vs 4, shifts +1/0", 5, 4, 1, 0},
        {"3 vs 3, shifts 0/0", 3, 3, 0, 0},
        {"10 vs 10, shifts -3/+3", 10, 10, -3, 3},
    };
    enum { N_CASES = sizeof cases / sizeof cases[0] };
    double us[N_CASES][2] = {{0}};
    for (int c = 0; c < N_CASES; c++)
        for (int s = 0; s < 2; s++)
            if (bench_query(cases[c].a, cases[c].d, cases[c].as, cases[c].ds,
                            s == 1, queries, &us[c][s]))
                return 1;

    printf("fray bench_cards%s (one thread, one core)\n\n",
           quick ? " --quick (smoke run: numbers are rough)" : "");
    printf("%-52s %14s\n", "card flips", "cards/s");
    printf("%-52s %14.3g\n", "  fray_flip_draw, 3-card flips from one deck",
           flip_rate);
    printf("%-52s %14.3g\n", "  bare shuffle + draw of all 52 cards",
           shuffle_rate);
    printf("\n%-52s %14s %10s\n", "exact attack table (4900 queries)", "total ms",
           "us/query");
    printf("%-52s %14.2f %10.2f   (target < 50 ms)\n",
           "  separate decks", sep_table * 1e3, sep_table * 1e6 / 4900);
    printf("%-52s %14.2f %10.2f\n", "  shared deck", shared_table * 1e3,
           shared_table * 1e6 / 4900);
    printf("\n%-52s %14s %10s\n", "one fray_odds_attack query", "separate us",
           "shared us");
    for (int c = 0; c < N_CASES; c++)
        printf("  %-50s %14.2f %10.2f\n", cases[c].name, us[c][0], us[c][1]);
    printf("  (target < 1000 us)\n");
    printf("\n(checksum %llu)\n", sink);
    return 0;
}
