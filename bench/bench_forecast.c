/*
 * bench_forecast.c - the forecast's speed (issue 19, "under a second for a
 * skirmish"; include/fray/chances.h fray_forecast_run): trials per second
 * of fray_forecast_run on examples/alloy/skirmish.yaml (or the encounter
 * named), from the fight's start and from a mid-fight state (the fight
 * stepped by the tactics for a few turns, seed 1), on 1 and 2 threads, and
 * the time of the table's forecast (2000 trials). Times are the process's
 * CPU time (the machine is shared) and the wall time; the best of three.
 *
 * usage: bench_forecast [--quick] [--trials K] [--threads T] [--steps S]
 *                       [ENCOUNTER.yaml]
 *        (--quick: a smoke run for ctest; --trials: per forecast, default
 *        2000; --threads: only that many threads; --steps: the mid-fight
 *        state's steps, default 12; 0: the start only). For a profiler:
 *        valgrind --tool=callgrind ./bench_forecast --threads 1 --trials 200
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "fray/chances.h"
#include "fray/fray.h"

static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One forecast: its CPU and wall seconds; false after a message. */
static bool one(const fray_fight *f, uint64_t trials, int threads, double *cpu,
                double *wall) {
    fray_forecast_opts o;
    memset(&o, 0, sizeof o);
    o.trials = trials;
    o.threads = threads;
    o.seed = 7;
    fray_forecast fc;
    fray_diag d;
    memset(&d, 0, sizeof d);
    double c0 = cpu_s(), w0 = bench_now_s();
    fray_status rc = fray_forecast_run(f, &o, &fc, &d);
    *cpu = cpu_s() - c0;
    *wall = bench_now_s() - w0;
    if (rc != FRAY_OK || !fc.done || fc.trials != trials) {
        fprintf(stderr, "bench_forecast: the forecast failed: %s\n", d.message);
        return false;
    }
    return true;
}

static bool row(const char *what, const fray_fight *f, uint64_t trials,
                int threads, int rounds) {
    double best_cpu = 0, best_wall = 0;
    for (int r = 0; r < rounds; r++) {
        double c, w;
        if (!one(f, trials, threads, &c, &w))
            return false;
        if (r == 0 || c < best_cpu)
            best_cpu = c;
        if (r == 0 || w < best_wall)
            best_wall = w;
    }
    printf("%-10s %7d %8llu %10.3f %10.3f %14.0f\n", what, threads,
           (unsigned long long)trials, best_cpu, best_wall,
           best_wall > 0 ? (double)trials / best_wall : 0.0);
    return true;
}

int main(int argc, char **argv) {
    uint64_t trials = 2000;
    int only_threads = 0, steps = 12, rounds = 3;
    const char *file = FRAY_SOURCE_DIR "/examples/alloy/skirmish.yaml";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            trials = 64;
            rounds = 1;
        } else if (strcmp(argv[i], "--trials") == 0 && i + 1 < argc &&
                   atol(argv[i + 1]) > 0) {
            trials = (uint64_t)atol(argv[++i]);
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc &&
                   atoi(argv[i + 1]) > 0) {
            only_threads = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc &&
                   atoi(argv[i + 1]) >= 0) {
            steps = atoi(argv[++i]);
        } else if (argv[i][0] != '-') {
            file = argv[i];
        } else {
            fprintf(stderr, "usage: bench_forecast [--quick] [--trials K] "
                            "[--threads T] [--steps S] [ENCOUNTER.yaml]\n");
            return 2;
        }
    }
    fray_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    if (fray_setup_load(file, NULL, &s, &d) != FRAY_OK) {
        fprintf(stderr, "bench_forecast: %s:%d:%d: %s\n", file, d.line, d.column,
                d.message);
        return 1;
    }
    fray_fight *start = NULL, *mid = NULL;
    if (fray_fight_new(s, 1, NULL, NULL, NULL, &start) != FRAY_OK ||
        fray_fight_new(s, 1, NULL, NULL, NULL, &mid) != FRAY_OK) {
        fprintf(stderr, "bench_forecast: cannot begin the fight\n");
        fray_fight_free(start);
        fray_setup_free(s);
        return 1;
    }
    int stepped = 0;
    for (; stepped < steps && !fray_fight_over(mid); stepped++)
        if (fray_fight_step(mid) != FRAY_OK) {
            fprintf(stderr, "bench_forecast: a step of the fight failed\n");
            fray_fight_free(mid);
            fray_fight_free(start);
            fray_setup_free(s);
            return 1;
        }
    printf("fray_forecast_run, %s (best of %d; mid: %d steps in, round %d)\n",
           file, rounds, stepped, fray_fight_now(mid));
    printf("%-10s %7s %8s %10s %10s %14s\n", "from", "threads", "trials",
           "cpu s", "wall s", "trials/s(wall)");
    int ok = 1;
    for (int th = 1; th <= 2 && ok; th++) {
        if (only_threads && th != only_threads)
            continue;
        ok = row("start", start, trials, th, rounds);
        if (ok && steps > 0 && !fray_fight_over(mid))
            ok = row("mid-fight", mid, trials, th, rounds);
    }
    if (only_threads > 2 && ok) {
        ok = row("start", start, trials, only_threads, rounds);
        if (ok && steps > 0 && !fray_fight_over(mid))
            ok = row("mid-fight", mid, trials, only_threads, rounds);
    }
    fray_fight_free(mid);
    fray_fight_free(start);
    fray_setup_free(s);
    return ok ? 0 : 1;
}
