/*
 * bench_fight.c - how many whole 99 Towers fights fray runs per second on
 * one core, with the tactics policies choosing every action and nothing
 * recorded (no journal, no facts: what a simulation does).
 *
 * For each encounter (examples/towers/duel.yaml, skirmish.yaml, brawl.yaml:
 * a fight with an area spell, grappling and knockback): load once,
 * make one fight, then for fight i: fray_towers_fight_reset(seed i) and
 * fray_towers_fight_run. Reports fights/s, mean events per fight, events/s
 * and how often each side won.
 *
 * usage: bench_fight [--quick] [--checksum] [EXAMPLE.yaml ...]
 *   --quick: a handful of fights for ctest; EXAMPLE: files under
 *   examples/towers/ (default: duel.yaml skirmish.yaml brawl.yaml)
 *   --checksum: no timing; fights with seeds 0..N-1 (N = 20000 for
 *   duel.yaml, 3000 for skirmish.yaml, 5000 otherwise; default examples
 *   duel, skirmish and ambush) and a 64-bit FNV-1a hash of their outcomes:
 *   per fight the winner, the final phase, the number of events and per
 *   combatant STUN, LETHAL, flags and actions by kind. A second, stricter
 *   hash adds the random stream, the decks and the rest of each
 *   combatant's state. Speed work must leave both unchanged.
 */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fray/encounter.h"
#include "fray/fray.h"
#include "bench_util.h"

#include "towers_int.h" /* the fight's state, for --checksum */

typedef struct result {
    double fights_per_s;
    double events_per_fight;
    double seconds;
    long fights;
    long wins[6]; /* sides 0-3, [4] no winner (phase limit), [5] all out */
} result;

static int bench(const char *file, long fights, double min_seconds,
                 result *out) {
    fray_towers_setup *setup = bench_load_example("bench_fight", file);
    if (!setup)
        return 1;
    fray_towers_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fo.journal = false;
    fo.facts = false;
    fray_towers_fight *f = NULL;
    fray_status st = fray_towers_fight_new(setup, 0, &fo, NULL, &f);
    if (st != FRAY_OK) {
        fprintf(stderr, "bench_fight: %s: %s\n", file, fray_strerror(st));
        fray_towers_setup_free(setup);
        return 1;
    }
    memset(out, 0, sizeof *out);
    long events = 0, i = 0;
    double t0 = bench_now_s(), dt = 0;
    /* At least `fights` fights, and at least min_seconds of them. */
    do {
        long batch = fights;
        for (long k = 0; k < batch; k++, i++) {
            st = fray_towers_fight_reset(f, (uint64_t)i);
            if (st == FRAY_OK)
                st = fray_towers_fight_run(f);
            if (st != FRAY_OK) {
                fprintf(stderr, "bench_fight: %s, seed %ld: %s\n", file, i,
                        fray_strerror(st));
                fray_towers_fight_free(f);
                fray_towers_setup_free(setup);
                return 1;
            }
            events += fray_towers_fight_events(f);
            int w = fray_towers_fight_winner(f);
            out->wins[w >= 0 && w < 4 ? w : w == -2 ? 5 : 4]++;
        }
        dt = bench_now_s() - t0;
    } while (dt < min_seconds);
    out->fights = i;
    out->seconds = dt;
    out->fights_per_s = (double)i / dt;
    out->events_per_fight = (double)events / (double)i;
    fray_towers_fight_free(f);
    fray_towers_setup_free(setup);
    return 0;
}

/* ---- --checksum ------------------------------------------------------------- */

typedef struct fnv {
    uint64_t h;
} fnv;

static void fnv_bytes(fnv *f, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        f->h ^= b[i];
        f->h *= 1099511628211ull;
    }
}

static void fnv_int(fnv *f, long long v) {
    int64_t x = (int64_t)v;
    fnv_bytes(f, &x, sizeof x);
}

/* The outcome of one fight (the brief's hash) and everything else. */
static void hash_fight(const fray_towers_fight *f, fnv *out, fnv *strict) {
    const ft_state *st = &f->st;
    fnv_int(out, fray_towers_fight_winner(f));
    fnv_int(out, st->phase);
    fnv_int(out, fray_towers_fight_events(f));
    for (int i = 0; i < st->n; i++) {
        const ft_cstate *c = &st->c[i];
        fnv_int(out, c->stun);
        fnv_int(out, c->lethal);
        fnv_int(out, c->flags);
        for (int k = 0; k < FT_ACTION_COUNT; k++)
            fnv_int(out, c->by_kind[k]);
    }
    fnv_int(strict, (long long)out->h);
    fnv_int(strict, (long long)st->rng.state);
    fnv_int(strict, (long long)st->rng.inc);
    for (int i = 0; i < st->n; i++) {
        const ft_cstate *c = &st->c[i];
        long long v[] = {c->temp_stun, c->temp_lethal, c->phase, c->slot,
                         c->pos.x, c->pos.y, c->n_cond, c->aim, c->aided_vs,
                         c->wielded[0], c->wielded[1], c->chips[0],
                         c->chips[1], c->chips[2], c->grappled_by,
                         c->actions, c->stun_dealt, c->lethal_dealt,
                         c->stun_taken, c->lethal_taken, c->fate_used,
                         c->chips_used, c->ci, c->init_rank, c->free_phase};
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
            fnv_int(strict, v[k]);
        for (int k = 0; k < c->n_cond && k < FT_MAX_CONDITIONS; k++)
            fnv_bytes(strict, &c->cond[k], sizeof c->cond[k]);
        fnv_bytes(strict, c->ammo, sizeof c->ammo);
        fnv_bytes(strict, c->mana, sizeof c->mana);
    }
    for (int d = 0; d < st->n_decks; d++) {
        const fray_deck *k = &st->decks[d];
        fnv_bytes(strict, k->place, sizeof k->place);
        fnv_int(strict, (long long)k->n_draw);
        fnv_bytes(strict, k->draw, k->n_draw);
        fnv_int(strict, (long long)k->n_discard);
        fnv_bytes(strict, k->discard, k->n_discard);
    }
}

static int checksum(const char *file) {
    long n = strcmp(file, "duel.yaml") == 0       ? 20000
             : strcmp(file, "skirmish.yaml") == 0 ? 3000
                                                  : 5000;
    fray_towers_setup *setup = bench_load_example("bench_fight", file);
    if (!setup)
        return 1;
    fray_towers_fight_options fo;
    memset(&fo, 0, sizeof fo);
    fray_towers_fight *f = NULL;
    if (fray_towers_fight_new(setup, 0, &fo, NULL, &f) != FRAY_OK) {
        fray_towers_setup_free(setup);
        return 1;
    }
    fnv h = {14695981039346656037ull}, strict = {14695981039346656037ull};
    for (long i = 0; i < n; i++) {
        fray_status st = fray_towers_fight_reset(f, (uint64_t)i);
        if (st == FRAY_OK)
            st = fray_towers_fight_run(f);
        if (st != FRAY_OK) {
            fprintf(stderr, "bench_fight: %s, seed %ld: %s\n", file, i,
                    fray_strerror(st));
            fray_towers_fight_free(f);
            fray_towers_setup_free(setup);
            return 1;
        }
        hash_fight(f, &h, &strict);
    }
    printf("%-16s %6ld fights  checksum %016llx  strict %016llx\n", file, n,
           (unsigned long long)h.h, (unsigned long long)strict.h);
    fray_towers_fight_free(f);
    fray_towers_setup_free(setup);
    return 0;
}

int main(int argc, char **argv) {
    bool quick = false, sums = false;
    static const char *files[8] = {"duel.yaml", "skirmish.yaml", "brawl.yaml"};
    int n_files = 3, n_named = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else if (strcmp(argv[i], "--checksum") == 0) {
            sums = true;
        } else if (argv[i][0] != '-' && n_named < 8) {
            files[n_named++] = argv[i];
        } else {
            fprintf(stderr, "usage: bench_fight [--quick] [--checksum] "
                            "[EXAMPLE.yaml ...]\n");
            return 2;
        }
    }
    if (sums) {
        static const char *const all[] = {"duel.yaml", "skirmish.yaml",
                                          "ambush.yaml"};
        int rc = 0;
        for (int k = 0; k < (n_named ? n_named : 3); k++)
            rc |= checksum(n_named ? files[k] : all[k]);
        return rc;
    }
    if (n_named > 0)
        n_files = n_named;
    result r[8];
    for (int k = 0; k < n_files; k++)
        if (bench(files[k], quick ? 5 : 2000, quick ? 0.0 : 2.0, &r[k]))
            return 1;
    printf("fray bench_fight%s (one thread, one core; no journal, no facts)\n\n",
           quick ? " --quick (smoke run: numbers are rough)" : "");
    printf("%-16s %10s %12s %12s %12s   %s\n", "encounter", "fights",
           "fights/s", "events/fight", "events/s", "wins by side (0, 1, none)");
    for (int k = 0; k < n_files; k++)
        printf("%-16s %10ld %12.0f %12.1f %12.3g   %ld, %ld, %ld\n", files[k],
               r[k].fights, r[k].fights_per_s, r[k].events_per_fight,
               r[k].fights_per_s * r[k].events_per_fight, r[k].wins[0],
               r[k].wins[1], r[k].wins[4] + r[k].wins[5]);
    return 0;
}
