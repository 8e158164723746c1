/*
 * forecast.c - who wins from here (issue 19; include/fray/chances.h
 * fray_forecast_run): trials from a fight's current state to their end by
 * the tactics `fray sim` uses, on worker threads as sim.c runs them (one
 * simulation fight per thread, chunks of trial indices from an atomic
 * counter, counts that are sums of integers: the same for any number of
 * threads), each trial started by the ruleset's sim_from hook with what
 * the table has not seen drawn anew from fray_rng_for_trial(seed, trial).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep, sysconf */

#include "fray/chances.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "layer.h"

enum { CHUNK = 16 };

typedef struct job {
    const fray__ruleset *rs;
    const void *setup;
    const void *from;        /* the snapshot every trial starts from */
    uint64_t seed, trials;
    atomic_uint_fast64_t next, done;
    atomic_bool stop;
    const atomic_bool *cancel;
    pthread_mutex_t lock;    /* total, as chunks end */
    fray_sim_counts total;
} job;

typedef struct worker {
    job *j;
    pthread_t thread;
    void *rf;
    fray_status rc;
} worker;

struct fray_forecast_start {
    fray_setup *setup;       /* a copy of the fight's */
    void *from;              /* its state, the hidden part drawn away */
    int now;
};

static bool stopped(job *j) {
    return atomic_load(&j->stop) || (j->cancel && atomic_load(j->cancel));
}

static void *work(void *arg) {
    worker *w = arg;
    job *j = w->j;
    for (;;) {
        if (stopped(j)) {
            if (j->cancel && atomic_load(j->cancel) && w->rc == FRAY_OK)
                w->rc = FRAY_ERR_CANCELED;
            break;
        }
        uint64_t first = atomic_fetch_add(&j->next, CHUNK);
        if (first >= j->trials)
            break;
        uint64_t last = first + CHUNK < j->trials ? first + CHUNK : j->trials;
        /* A chunk is counted whole or not at all, so that a stopped
         * forecast holds only whole trials. */
        fray_sim_counts c;
        memset(&c, 0, sizeof c);
        fray_status rc = FRAY_OK;
        for (uint64_t t = first; t < last && rc == FRAY_OK; t++) {
            rc = j->rs->sim_from(w->rf, j->from, j->seed, t);
            if (rc == FRAY_OK)
                rc = j->rs->run(w->rf);
            if (rc == FRAY_OK)
                j->rs->count(w->rf, &c);
        }
        if (rc != FRAY_OK) {
            w->rc = rc;
            atomic_store(&j->stop, true);
            break;
        }
        pthread_mutex_lock(&j->lock);
        uint64_t *dst = (uint64_t *)(void *)&j->total;
        const uint64_t *src = (const uint64_t *)(const void *)&c;
        for (size_t k = 0; k < FRAY_SIM_COUNTS_WORDS; k++)
            dst[k] += src[k];
        pthread_mutex_unlock(&j->lock);
        atomic_fetch_add(&j->done, last - first);
    }
    return NULL;
}

FRAY_API void fray_wilson95(uint64_t k, uint64_t n, double *low,
                            double *high) {
    if (n == 0) {
        *low = 0;
        *high = 1;
        return;
    }
    const double z = 1.959963984540054;
    double nn = (double)n, p = (double)k / nn, z2 = z * z;
    double den = 1 + z2 / nn;
    double centre = (p + z2 / (2 * nn)) / den;
    double half = z * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / den;
    *low = centre - half < 0 ? 0 : centre - half;
    *high = centre + half > 1 ? 1 : centre + half;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fill(const fray_setup *s, int now, const fray_sim_counts *c,
                 fray_forecast *out) {
    out->trials = c->trials;
    out->n_sides = fray_setup_sides(s);
    if (out->n_sides > FRAY_FORECAST_SIDES)
        out->n_sides = FRAY_FORECAST_SIDES;
    double n = c->trials ? (double)c->trials : 1;
    for (int i = 0; i < out->n_sides; i++) {
        fray_forecast_side *sd = &out->sides[i];
        sd->name = fray_setup_side_name(s, i);
        sd->wins = c->wins[i];
        sd->p = (double)c->wins[i] / n;
        fray_wilson95(c->wins[i], c->trials, &sd->low, &sd->high);
    }
    out->p_none = (double)(c->all_out + c->unfinished) / n;
    out->n_combatants = fray_setup_combatants(s);
    if (out->n_combatants > FRAY_FORECAST_COMBATANTS)
        out->n_combatants = FRAY_FORECAST_COMBATANTS;
    for (int i = 0; i < out->n_combatants; i++)
        out->standing[i] = (double)c->c[i].standing / n;
    out->time_unit = fray_setup_time_unit(s);
    out->now = now;
    double mean = (double)c->length_sum / n;
    double var = (double)c->length_sq_sum / n - mean * mean;
    out->length = mean;
    out->length_sd = var > 0 ? sqrt(var) : 0;
}

FRAY_API void fray_forecast_start_free(fray_forecast_start *start) {
    if (!start)
        return;
    if (start->from)
        start->setup->rs->fight_free(start->from);
    fray_setup_free(start->setup);
    fray__free(NULL, start, sizeof *start);
}

FRAY_API fray_status fray_forecast_start_new(const fray_fight *fight,
                                             fray_forecast_start **out,
                                             fray_diag *diag) {
    if (diag)
        memset(diag, 0, sizeof *diag);
    if (!out)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no forecast to start");
    *out = NULL;
    if (!fight)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no fight to forecast");
    const fray_setup *s = fray_fight_setup(fight);
    const fray__ruleset *rs = s->rs;
    if (!rs->sim_from)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "forecasts are not built for %s", rs->title);
    if (fray_fight_over(fight))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "the fight is over: nothing to forecast");
    if (fray_setup_sides(s) > FRAY_FORECAST_SIDES ||
        fray_setup_sides(s) > FRAY_SIM_MAX_SIDES ||
        fray_setup_combatants(s) > FRAY_FORECAST_COMBATANTS ||
        fray_setup_combatants(s) > FRAY_SIM_MAX_COMBATANTS)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "too many sides or combatants for a forecast");
    fray_forecast_start *st = fray__alloc(NULL, sizeof *st);
    if (!st)
        return FRAY_ERR_NOMEM;
    memset(st, 0, sizeof *st);
    st->now = fray_fight_now(fight);
    /* The setup copied, the state with it: sim_from keeps nothing hidden
     * of the fight, so starting from this copy is starting from it. */
    fray_status rc = fray_setup_copy(s, NULL, &st->setup);
    if (rc == FRAY_OK)
        rc = rs->sim_fight_new(st->setup->data, 0, 0, NULL, NULL, &st->from);
    if (rc == FRAY_OK)
        rc = rs->sim_from(st->from, fray__fight_rf(fight), 0, 0);
    if (rc != FRAY_OK) {
        fray_forecast_start_free(st);
        return rc == FRAY_ERR_NOMEM ? rc
                                    : fray__diag_set(diag, rc, 0,
                                                     "the forecast cannot start");
    }
    *out = st;
    return FRAY_OK;
}

FRAY_API fray_status fray_forecast_start_run(const fray_forecast_start *start,
                                             const fray_forecast_opts *opts,
                                             fray_forecast *out,
                                             fray_diag *diag) {
    if (diag)
        memset(diag, 0, sizeof *diag);
    if (!start || !out)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no forecast to run");
    memset(out, 0, sizeof *out);
    const fray_setup *s = start->setup;
    const fray__ruleset *rs = s->rs;
    fray_forecast_opts o;
    memset(&o, 0, sizeof o);
    if (opts)
        o = *opts;
    if (o.trials == 0)
        o.trials = 2000;
    int threads = o.threads;
    if (threads <= 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores > 0 ? (int)(cores < 64 ? cores : 64) : 1;
    }
    if ((uint64_t)threads > (o.trials + CHUNK - 1) / CHUNK)
        threads = (int)((o.trials + CHUNK - 1) / CHUNK);
    if (threads < 1)
        threads = 1;

    job *j = fray__alloc(NULL, sizeof *j);
    worker *w = fray__alloc(NULL, (size_t)threads * sizeof *w);
    fray_status rc = FRAY_OK;
    bool locked = false;
    if (!j || !w) {
        rc = FRAY_ERR_NOMEM;
        goto done;
    }
    memset(j, 0, sizeof *j);
    memset(w, 0, (size_t)threads * sizeof *w);
    if (pthread_mutex_init(&j->lock, NULL) != 0) {
        rc = FRAY_ERR_NOMEM;
        goto done;
    }
    locked = true;
    j->rs = rs;
    j->setup = s->data;
    j->from = start->from;
    j->seed = o.seed;
    j->trials = o.trials;
    j->cancel = o.cancel;
    atomic_init(&j->next, 0);
    atomic_init(&j->done, 0);
    atomic_init(&j->stop, false);
    for (int i = 0; i < threads && rc == FRAY_OK; i++) {
        w[i].j = j;
        rc = rs->sim_fight_new(s->data, o.seed, 0, &j->stop, NULL, &w[i].rf);
    }
    if (rc != FRAY_OK)
        goto done;
    double t0 = now_seconds();
    int started = 0;
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&w[i].thread, NULL, work, &w[i]) != 0) {
            atomic_store(&j->stop, true);
            rc = FRAY_ERR_NOMEM;
            break;
        }
        started++;
    }
    /* Progress from this thread, about ten times a second; the end is
     * looked for every 5 ms. */
    for (int tick = 0; started == threads && rc == FRAY_OK; tick++) {
        uint64_t d = atomic_load(&j->done);
        if (d >= o.trials || atomic_load(&j->stop) ||
            (o.cancel && atomic_load(o.cancel)))
            break;
        if (tick % 20 == 19) {
            if (o.progress)
                o.progress(o.progress_ctx, d, o.trials);
            if (o.partial) {
                fray_sim_counts *c = fray__alloc(NULL, sizeof *c);
                if (c) {
                    pthread_mutex_lock(&j->lock);
                    memcpy(c, &j->total, sizeof *c);
                    pthread_mutex_unlock(&j->lock);
                    fray_forecast so_far;
                    memset(&so_far, 0, sizeof so_far);
                    fill(s, start->now, c, &so_far);
                    so_far.trials_per_second =
                        (double)c->trials / (now_seconds() - t0 + 1e-9);
                    fray__free(NULL, c, sizeof *c);
                    o.partial(o.progress_ctx, &so_far);
                }
            }
        }
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    for (int i = 0; i < started; i++) {
        pthread_join(w[i].thread, NULL);
        if (w[i].rc != FRAY_OK && (rc == FRAY_OK || rc == FRAY_ERR_CANCELED))
            rc = w[i].rc;
    }
    double t1 = now_seconds();
    fill(s, start->now, &j->total, out);
    out->done = rc == FRAY_OK && j->total.trials == o.trials;
    out->trials_per_second = t1 > t0 ? (double)j->total.trials / (t1 - t0) : 0;
    if (o.progress && rc == FRAY_OK)
        o.progress(o.progress_ctx, j->total.trials, o.trials);
    if (rc == FRAY_ERR_CANCELED)
        rc = fray__diag_set(diag, rc, 0, "the forecast was stopped after %llu trials",
                            (unsigned long long)j->total.trials);
    else if (rc != FRAY_OK && diag && !diag->message[0]) {
        char why[256] = "";
        if (rs->failure)
            rs->failure(w[0].rf, why, sizeof why);
        rc = fray__diag_set(diag, rc, 0, "a trial of the forecast could not "
                            "go on%s%s", why[0] ? ": " : "", why);
    }
done:
    if (w) {
        for (int i = 0; i < threads; i++)
            if (w[i].rf)
                rs->fight_free(w[i].rf);
    }
    if (locked)
        pthread_mutex_destroy(&j->lock);
    fray__free(NULL, w, (size_t)threads * sizeof *w);
    fray__free(NULL, j, sizeof *j);
    return rc;
}

FRAY_API fray_status fray_forecast_run(const fray_fight *fight,
                                       const fray_forecast_opts *opts,
                                       fray_forecast *out, fray_diag *diag) {
    if (out)
        memset(out, 0, sizeof *out);
    fray_forecast_start *st = NULL;
    fray_status rc = fray_forecast_start_new(fight, &st, diag);
    if (rc != FRAY_OK)
        return rc;
    rc = fray_forecast_start_run(st, opts, out, diag);
    /* The names from the fight's setup: the start's copy goes now. */
    if (out)
        for (int i = 0; i < out->n_sides; i++)
            out->sides[i].name = fray_setup_side_name(fray_fight_setup(fight), i);
    fray_forecast_start_free(st);
    return rc;
}
