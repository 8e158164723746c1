/*
 * sim.c - the simulation runner every ruleset shares (src/encounter/
 * ruleset.h; docs/architecture.md "Simulation" and "Rulesets").
 *
 * Worker threads take chunks of trial indices from an atomic counter; each
 * has its own fight (made before the first trial) and its own counts. A
 * trial is the ruleset's reset_trial + run, then its numbers are added to
 * the worker's counts: integers only, so the sum over workers is the same
 * whatever thread ran which trial. Also the reading of the counts
 * (intervals, lengths), which knows no ruleset either.
 */
#define _POSIX_C_SOURCE 200809L

#include "ruleset.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "layer.h"

_Static_assert(sizeof(fray_sim_counts) % sizeof(uint64_t) == 0,
               "fray_sim_counts is an array of uint64_t");

/* Trials per chunk: small enough for even load and timely progress, large
 * enough that the shared counter is touched rarely. */
enum { SIM_CHUNK = 256 };

/* ---- Workers -------------------------------------------------------------- */

typedef struct sim_shared {
    const fray__ruleset *rs;
    const fray_sim_options *opt;
    uint64_t n_chunks;
    atomic_uint_fast64_t next_chunk;
    atomic_uint_fast64_t done;      /* trials finished */
    atomic_bool stop;               /* the progress callback said stop */
    atomic_int failed;              /* a fight step failed (fray_status) */
    /* The watching thread sleeps until the next progress report or until
     * the last worker is done, whichever comes first: a small simulation
     * returns as soon as its trials are (issue 15: `-n 100` waited for
     * the progress tick). */
    pthread_mutex_t lock;
    pthread_cond_t finished;
    int running;                    /* workers not yet done (under lock) */
} sim_shared;

typedef struct sim_worker {
    sim_shared *sh;
    void *fight;
    fray_sim_counts counts;
    pthread_t thread;
    bool started;
    bool failed;             /* its fight could not go on: */
    uint64_t failed_trial;   /* in this trial, */
    char why[200];           /* for this reason ("": the status says it) */
} sim_worker;

static void worker_loop(sim_worker *w) {
    sim_shared *sh = w->sh;
    const fray_sim_options *o = sh->opt;
    for (;;) {
        if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
            break;
        uint64_t chunk = atomic_fetch_add(&sh->next_chunk, 1);
        if (chunk >= sh->n_chunks)
            break;
        uint64_t lo = chunk * SIM_CHUNK;
        uint64_t hi = lo + SIM_CHUNK < o->trials ? lo + SIM_CHUNK : o->trials;
        for (uint64_t t = lo; t < hi; t++) {
            fray_status rc =
                sh->rs->reset_trial(w->fight, o->seed, o->first_trial + t);
            if (rc == FRAY_OK)
                rc = sh->rs->run(w->fight);
            if (rc == FRAY_ERR_CANCELED) {
                /* Stopped inside a fight (issue 11): the counts keep the
                 * trials finished before it. */
                atomic_fetch_add(&sh->done, t - lo);
                return;
            }
            if (rc != FRAY_OK) {
                w->failed = true;
                w->failed_trial = o->first_trial + t;
                w->why[0] = '\0';
                if (sh->rs->failure)
                    (void)sh->rs->failure(w->fight, w->why, sizeof w->why);
                atomic_store(&sh->failed, (int)rc);
                atomic_store(&sh->stop, true);
                return;
            }
            sh->rs->count(w->fight, &w->counts);
        }
        atomic_fetch_add(&sh->done, hi - lo);
    }
}

static void *worker_main(void *arg) {
    sim_worker *w = arg;
    worker_loop(w);
    sim_shared *sh = w->sh;
    pthread_mutex_lock(&sh->lock);
    sh->running--;
    pthread_cond_signal(&sh->finished);
    pthread_mutex_unlock(&sh->lock);
    return NULL;
}

static int online_cores(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

/* Waits ms milliseconds, or less when the last worker finishes. */
static void wait_ms(sim_shared *sh, bool monotonic, long ms) {
    struct timespec ts;
    if (clock_gettime(monotonic ? CLOCK_MONOTONIC : CLOCK_REALTIME, &ts) != 0) {
        /* no clock: a plain sleep, as before */
        struct timespec d = {ms / 1000, (ms % 1000) * 1000000L};
        nanosleep(&d, NULL);
        return;
    }
    ts.tv_sec += ms / 1000;
    ts.tv_nsec += (ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&sh->lock);
    while (sh->running > 0 &&
           pthread_cond_timedwait(&sh->finished, &sh->lock, &ts) == 0)
        ;
    pthread_mutex_unlock(&sh->lock);
}

fray_status fray__sim_run(const fray__ruleset *rs, const void *setup,
                          const fray_sim_options *opts,
                          const fray_allocator *alloc, fray_sim_counts *out) {
    memset(out, 0, sizeof *out);
    if (!setup || !opts || opts->trials == 0 || opts->threads < 0 ||
        rs->sides(setup) > FRAY_SIM_MAX_SIDES ||
        rs->combatants(setup) > FRAY_SIM_MAX_COMBATANTS)
        return FRAY_ERR_INVALID;
    int n_threads = opts->threads > 0 ? opts->threads : online_cores();
    sim_shared sh;
    sh.rs = rs;
    sh.opt = opts;
    sh.n_chunks = (opts->trials + SIM_CHUNK - 1) / SIM_CHUNK;
    if ((uint64_t)n_threads > sh.n_chunks)
        n_threads = (int)sh.n_chunks;
    atomic_init(&sh.next_chunk, 0);
    atomic_init(&sh.done, 0);
    atomic_init(&sh.stop, false);
    atomic_init(&sh.failed, FRAY_OK);
    sh.running = 0;
    /* The condition's clock: the monotonic one where it can be chosen
     * (a change of the wall clock must not stretch the wait). */
    bool monotonic = false;
    {
        pthread_condattr_t ca;
        if (pthread_condattr_init(&ca) != 0)
            return FRAY_ERR_NOMEM;
        monotonic = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0;
        int e = pthread_cond_init(&sh.finished, &ca);
        pthread_condattr_destroy(&ca);
        if (e != 0)
            return FRAY_ERR_NOMEM;
        if (pthread_mutex_init(&sh.lock, NULL) != 0) {
            pthread_cond_destroy(&sh.finished);
            return FRAY_ERR_NOMEM;
        }
    }

    /* Everything is allocated here, before the first trial. */
    size_t wsize = (size_t)n_threads * sizeof(sim_worker);
    sim_worker *w = fray__alloc(alloc, wsize);
    if (!w) {
        pthread_cond_destroy(&sh.finished);
        pthread_mutex_destroy(&sh.lock);
        return FRAY_ERR_NOMEM;
    }
    memset(w, 0, wsize);
    fray_status rc = FRAY_OK;
    for (int i = 0; i < n_threads && rc == FRAY_OK; i++) {
        w[i].sh = &sh;
        /* (a stop reaches fights under way) */
        rc = rs->sim_fight_new(setup, opts->seed, opts->until_phase, &sh.stop,
                               alloc, &w[i].fight);
    }
    for (int i = 0; i < n_threads && rc == FRAY_OK; i++) {
        /* Counted before it starts: it may be done before the count. */
        pthread_mutex_lock(&sh.lock);
        sh.running++;
        pthread_mutex_unlock(&sh.lock);
        if (pthread_create(&w[i].thread, NULL, worker_main, &w[i]) != 0) {
            pthread_mutex_lock(&sh.lock);
            sh.running--;
            pthread_mutex_unlock(&sh.lock);
            atomic_store(&sh.stop, true);
            rc = FRAY_ERR_NOMEM; /* no resources for another thread */
        } else {
            w[i].started = true;
        }
    }
    /* This thread only watches: progress about ten times a second. */
    if (rc == FRAY_OK && opts->progress) {
        for (;;) {
            uint64_t done = atomic_load(&sh.done);
            if (done >= opts->trials || atomic_load(&sh.stop))
                break;
            if (!opts->progress(opts->progress_ctx, done, opts->trials)) {
                atomic_store(&sh.stop, true);
                break; /* (no need to wait: the workers see it) */
            }
            wait_ms(&sh, monotonic, 100);
        }
    }
    for (int i = 0; i < n_threads; i++)
        if (w[i].started)
            pthread_join(w[i].thread, NULL);
    /* The last report, of every trial finished: its answer (go on or
     * stop) is not a status, and there is nothing left to stop. */
    if (rc == FRAY_OK && opts->progress)
        (void)opts->progress(opts->progress_ctx, atomic_load(&sh.done),
                             opts->trials);
    if (rc == FRAY_OK && atomic_load(&sh.failed) != FRAY_OK) {
        rc = (fray_status)atomic_load(&sh.failed);
        /* The reason of the lowest trial that failed: the same message
         * for any number of threads when one trial fails. */
        int k = -1;
        for (int i = 0; i < n_threads; i++)
            if (w[i].failed && (k < 0 || w[i].failed_trial < w[k].failed_trial))
                k = i;
        if (k >= 0 && opts->diag) {
            memset(opts->diag, 0, sizeof *opts->diag);
            snprintf(opts->diag->message, sizeof opts->diag->message,
                     "trial %llu of seed %llu: %s",
                     (unsigned long long)w[k].failed_trial,
                     (unsigned long long)opts->seed,
                     w[k].why[0] ? w[k].why : fray_strerror(rc));
        }
    }
    for (int i = 0; i < n_threads; i++) {
        if (rc == FRAY_OK)
            fray_sim_counts_add(out, &w[i].counts);
        if (w[i].fight)
            rs->fight_free(w[i].fight);
    }
    fray__free(alloc, w, wsize);
    pthread_cond_destroy(&sh.finished);
    pthread_mutex_destroy(&sh.lock);
    if (rc != FRAY_OK)
        memset(out, 0, sizeof *out);
    return rc;
}

FRAY_API fray_status fray_sim(const fray_setup *setup,
                              const fray_sim_options *opts,
                              const fray_allocator *alloc,
                              fray_sim_counts *out) {
    return fray__sim_run(setup->rs, setup->data, opts, alloc, out);
}

FRAY_API const char *fray_sim_action_name(const fray_setup *setup, int k) {
    return k >= 0 && k < FRAY_SIM_ACTION_KINDS ? setup->rs->action_name(k)
                                               : NULL;
}

FRAY_API const char *fray_sim_harm_name(const fray_setup *setup, int k) {
    return k >= 0 && k < FRAY_SIM_HARM_KINDS ? setup->rs->harm_name(k) : NULL;
}

FRAY_API const char *fray_sim_spent_name(const fray_setup *setup, int k) {
    return k >= 0 && k < FRAY_SIM_SPENT_KINDS ? setup->rs->spent_name(k)
                                              : NULL;
}

FRAY_API void fray_sim_counts_add(fray_sim_counts *dst,
                                  const fray_sim_counts *src) {
    uint64_t *d = (uint64_t *)(void *)dst;
    const uint64_t *s = (const uint64_t *)(const void *)src;
    for (size_t i = 0; i < FRAY_SIM_COUNTS_WORDS; i++)
        d[i] += s[i];
}

FRAY_API fray_status fray_setup_vary_scope(const fray_setup *setup,
                                          const char *key, char *buf,
                                          size_t size, fray_diag *diag) {
    if (!setup || !key || (!buf && size))
        return FRAY_ERR_INVALID;
    if (size)
        buf[0] = '\0';
    if (!setup->rs->vary_scope)
        return FRAY_OK;
    return setup->rs->vary_scope(setup->data, key, buf, size, diag);
}

FRAY_API const char *fray_sim_state_name(int k) {
    static const char *const names[FRAY_SIM_STATES] = {
        "standing", "unconscious", "dying", "dead", "fled"};
    return k >= 0 && k < FRAY_SIM_STATES ? names[k] : NULL;
}

FRAY_API const char *fray_sim_state_meaning(const fray_setup *setup, int k) {
    const char *m = NULL;
    if (k < 0 || k >= FRAY_SIM_STATES)
        return NULL;
    if (setup && setup->rs->state_meaning_of)
        m = setup->rs->state_meaning_of(setup->data, k);
    else if (setup && setup->rs->state_meaning)
        m = setup->rs->state_meaning(k);
    return m ? m : fray_sim_state_name(k);
}

FRAY_API uint64_t fray_sim_state_count(const fray_sim_combatant_counts *cc,
                                       int k) {
    switch (k) {
    case FRAY_SIM_STANDING: return cc->standing;
    case FRAY_SIM_UNCONSCIOUS: return cc->unconscious;
    case FRAY_SIM_DYING: return cc->dying;
    case FRAY_SIM_DEAD: return cc->dead;
    case FRAY_SIM_FLED: return cc->fled;
    default: return 0;
    }
}

/* ---- Reading the counts ------------------------------------------------------ */

FRAY_API void fray_sim_interval95(uint64_t k, uint64_t n, double *lo,
                                  double *hi) {
    if (n == 0 || k > n) {
        *lo = 0.0;
        *hi = 1.0;
        return;
    }
    /* Wilson score interval: good at small n and near 0 or 1. */
    const double z = 1.959963984540054;
    double nn = (double)n, p = (double)k / nn, z2 = z * z;
    double den = 1.0 + z2 / nn;
    double centre = (p + z2 / (2.0 * nn)) / den;
    double half = z * sqrt(p * (1.0 - p) / nn + z2 / (4.0 * nn * nn)) / den;
    *lo = centre - half < 0.0 ? 0.0 : centre - half;
    *hi = centre + half > 1.0 ? 1.0 : centre + half;
    if (k == 0)
        *lo = 0.0;
    if (k == n)
        *hi = 1.0;
}

static const long long percent_scale[] = {1, 10, 100, 1000};

/* u units of the last decimal of `decimals` (0 .. 100 x 10^decimals),
 * with exact telling whether the share is exactly 0 or 1. */
static const char *percent_write(long long u, int decimals, bool zero,
                                 bool one, char *out, size_t size) {
    long long sc = percent_scale[decimals], full = 100 * sc;
    const char *mark = "";
    if (!zero && u <= 0) {
        mark = "< ";
        u = 1;          /* "< 0.1%": the smallest shown above 0 */
    } else if (!one && u >= full) {
        mark = "> ";
        u = full - 1;   /* "> 99.9%": the largest shown below 100 */
    }
    if (decimals == 0)
        snprintf(out, size, "%s%lld%%", mark, u);
    else
        snprintf(out, size, "%s%lld.%0*lld%%", mark, u / sc, decimals, u % sc);
    return out;
}

FRAY_API const char *fray_sim_share_percent(uint64_t k, uint64_t n,
                                            int decimals, char *out,
                                            size_t size) {
    if (!out || size == 0)
        return out;
    if (decimals < 0)
        decimals = 0;
    if (decimals > 3)
        decimals = 3;
    if (n == 0 || k == 0)
        return percent_write(0, decimals, true, false, out, size);
    if (k >= n)
        return percent_write(100 * percent_scale[decimals], decimals, false,
                             true, out, size);
    uint64_t full = (uint64_t)(100 * percent_scale[decimals]);
    uint64_t u;
    if (n <= UINT64_MAX / (2 * full)) {
        /* round(k x full / n), a half up, in integers: k < n, so
         * 2 k full + n fits. */
        u = (2 * k * full + n) / (2 * n);
    } else {
        u = (uint64_t)llround((double)k / (double)n * (double)full);
    }
    return percent_write((long long)u, decimals, false, false, out, size);
}

FRAY_API const char *fray_sim_percent(double share, int decimals, char *out,
                                      size_t size) {
    if (!out || size == 0)
        return out;
    if (decimals < 0)
        decimals = 0;
    if (decimals > 3)
        decimals = 3;
    if (!(share > 0.0)) /* also NaN */
        share = 0.0;
    if (share > 1.0)
        share = 1.0;
    long long full = 100 * percent_scale[decimals];
    /* In units of the last decimal shown: 0 .. 100 x scale. */
    return percent_write(llround(share * (double)full), decimals, share == 0.0,
                         share == 1.0, out, size);
}

FRAY_API double fray_sim_length_mean(const fray_sim_counts *c) {
    return c->trials ? (double)c->length_sum / (double)c->trials : 0.0;
}

FRAY_API double fray_sim_length_sd(const fray_sim_counts *c) {
    if (c->trials < 2)
        return 0.0;
    double n = (double)c->trials, m = (double)c->length_sum / n;
    double var = ((double)c->length_sq_sum - n * m * m) / (n - 1.0);
    return var > 0.0 ? sqrt(var) : 0.0;
}

FRAY_API int fray_sim_length_quantile(const fray_sim_counts *c, double q) {
    /* Over the histogram itself (it holds every trial). */
    uint64_t n = 0;
    for (int i = 0; i < FRAY_SIM_LENGTH_BINS; i++)
        n += c->length[i];
    if (n == 0)
        return -1;
    /* The smallest L with count(length <= L) >= q * n (q = 1: the
     * longest fight). */
    double need = q * (double)n - 1e-9;
    uint64_t acc = 0;
    for (int i = 0; i < FRAY_SIM_LENGTH_BINS; i++) {
        acc += c->length[i];
        if (c->length[i] && (double)acc >= need)
            return i;
    }
    return FRAY_SIM_LENGTH_BINS - 1;
}

