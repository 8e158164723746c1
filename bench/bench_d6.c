/*
 * bench_d6.c - D6's simulation speed (issue 18 "Speed"): fights per second
 * of examples/d6/duel.yaml and brawl.yaml as `fray sim` runs its trials on
 * one thread (reset_trial, run, count through D6's table), beside a bare
 * loop that rolls the same dice from the same kind of stream and nothing
 * else.
 *
 * The bare loop: each round both (all) roll initiative (Acumen with the
 * Wild Die) and act in its order; each still standing attacks once: its
 * weapon's skill less its wounds' dice with the Wild Die against passive
 * defense 10, a hit rolls the weapon's damage with Strength Damage
 * against Physique and armour (the duel: Wound levels, the stay-up roll
 * at Incapacitated) or armour (the brawl: Body Points); the attacker in
 * the brawl takes the first foe standing. It leaves out the tactics'
 * dodges and parries, the Stunned round and the time limit (a little in
 * the bare loop's favour).
 *
 * usage: bench_d6 [--quick] [--fights N] [--only duel|brawl]
 *   --quick: one short round, a smoke test; --fights N: exactly N fights
 *   of each (one round, for counting instructions under callgrind: the
 *   functions sim_rate and bare_rate, never inlined, hold each); --only:
 *   one encounter.
 */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/encounter/ruleset.h"
#include "fray/fray.h"
#include "d6_int.h"
#include "bench_util.h"

extern const fray__ruleset fray__d6_ruleset;

static d6_setup *load(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/examples/d6/%s", FRAY_SOURCE_DIR, name);
    d6_setup *s = NULL;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    if (d6_load(path, NULL, &s, &diag) != FRAY_OK) {
        fprintf(stderr, "bench_d6: %s:%d:%d: %s\n", path, diag.line, diag.column,
                diag.message);
        return NULL;
    }
    return s;
}

/* --fights N: exactly N fights each (0: by time). */
typedef double (*rate_fn)(const d6_setup *s, double min_seconds, long fights, long *sink,
                          double *rounds);

static double sim_rate(const d6_setup *s, double min_seconds, long fights, long *sink,
                       double *rounds) {
    const fray__ruleset *rs = &fray__d6_ruleset;
    void *f = NULL;
    fray_sim_counts *c = calloc(1, sizeof *c);
    if (!c || rs->sim_fight_new(s, 1, 0, NULL, NULL, &f) != FRAY_OK) {
        free(c);
        return 0.0;
    }
    long i = 0;
    double t0 = bench_now_s(), dt = 0.0;
    do {
        for (int b = 0; b < 200 && (fights <= 0 || i < fights); b++, i++) {
            fray_status rc = rs->reset_trial(f, 1, (uint64_t)i);
            if (rc == FRAY_OK)
                rc = rs->run(f);
            if (rc != FRAY_OK) {
                fprintf(stderr, "bench_d6: the engine stopped (status %d)\n", (int)rc);
                rs->fight_free(f);
                free(c);
                return 0.0;
            }
            rs->count(f, c);
        }
        dt = bench_now_s() - t0;
    } while (fights > 0 ? i < fights : dt < min_seconds);
    *sink += (long)(c->wins[0] % 7);
    *rounds = c->trials ? (double)c->length_sum / (double)c->trials : 0.0;
    rs->fight_free(f);
    free(c);
    return (double)i / dt;
}

/* One roll of dice (with the Wild Die) + pips, a 1 on the Wild Die
 * cancelling itself and the highest other die (wild-one: cancel-highest). */
static int roll(fray_rng *rng, int dice, int pips) {
    if (dice < 1)
        return pips;
    int w = (int)fray_rng_range(rng, 1, 6), first = w, total = pips;
    for (int v = w; v == 6;) {
        v = (int)fray_rng_range(rng, 1, 6);
        w += v;
    }
    int hi = 0;
    for (int k = 1; k < dice; k++) {
        int v = (int)fray_rng_range(rng, 1, 6);
        total += v;
        hi = v > hi ? v : hi;
    }
    return first == 1 ? total - hi : total + w;
}

typedef struct bare_c {
    int side, init_d, init_p, atk_d, atk_p, dmg_d, dmg_p, res_d, res_p, up_d, up_p, bp;
} bare_c;

static void bare_of(const d6_setup *s, bare_c *x) {
    for (int i = 0; i < s->n; i++) {
        d6_attack_terms_t T;
        d6_state st; /* only the positions and defenses the terms read */
        d6_state_init(s, &st, 1, 0);
        int foe = 0;
        while (foe < s->n && s->c[foe].side == s->c[i].side)
            foe++;
        d6_attack_terms(s, &st, i, foe, d6_weapon_of(s, i), &T);
        x[i].side = s->c[i].side;
        x[i].init_d = s->c[i].b.attr[D6_ACUMEN].dice;
        x[i].init_p = s->c[i].b.attr[D6_ACUMEN].pips;
        x[i].atk_d = T.skill.dice;
        x[i].atk_p = T.skill.pips;
        x[i].dmg_d = T.damage.dice;
        x[i].dmg_p = T.damage.pips;
        d6_attack_terms(s, &st, foe, i, d6_weapon_of(s, foe), &T);
        x[i].res_d = T.resistance.dice; /* its own resistance */
        x[i].res_p = T.resistance.pips;
        x[i].up_d = T.stay_up.dice;
        x[i].up_p = T.stay_up.pips;
        x[i].bp = s->c[i].b.body_points;
    }
}

static double bare_rate(const d6_setup *s, double min_seconds, long fights, long *sink,
                        double *rounds) {
    bare_c x[D6_MAX_C];
    bare_of(s, x);
    int n = s->n;
    bool wounds = s->o.health == D6_HEALTH_WOUNDS;
    fray_rng rng;
    long t = 0, acc = 0, rsum = 0;
    double t0 = bench_now_s(), dt = 0.0;
    do {
        for (int b = 0; b < 200 && (fights <= 0 || t < fights); b++, t++) {
            fray_rng_for_trial(&rng, 1, (uint64_t)t);
            int h[D6_MAX_C], out[D6_MAX_C], init[D6_MAX_C], order[D6_MAX_C], up[2] = {0, 0};
            for (int i = 0; i < n; i++) {
                h[i] = wounds ? 0 : x[i].bp;
                out[i] = 0;
                up[x[i].side & 1]++;
            }
            int round;
            for (round = 1; round <= 60 && up[0] && up[1]; round++) {
                int m = 0;
                for (int i = 0; i < n; i++)
                    if (!out[i]) {
                        init[i] = roll(&rng, x[i].init_d, x[i].init_p);
                        int j = m++;
                        for (; j > 0 && init[order[j - 1]] < init[i]; j--)
                            order[j] = order[j - 1];
                        order[j] = i;
                    }
                for (int k = 0; k < m && up[0] && up[1]; k++) {
                    int a = order[k];
                    if (out[a])
                        continue;
                    int tg = 0;
                    while (tg < n && (out[tg] || x[tg].side == x[a].side))
                        tg++;
                    int pen = wounds ? (h[a] >= D6_W_INCAP ? 3 : h[a] == D6_W_SEVERE ? 2
                                                             : h[a] == D6_W_WOUNDED ? 1 : 0)
                                     : 0;
                    if (roll(&rng, x[a].atk_d - pen, x[a].atk_p) < 10)
                        continue;
                    int ex = roll(&rng, x[a].dmg_d, x[a].dmg_p) -
                             roll(&rng, x[tg].res_d, x[tg].res_p);
                    if (wounds) {
                        int before = h[tg];
                        h[tg] = d6_wound_after(before, ex);
                        if (h[tg] >= D6_W_MORTAL ||
                            (h[tg] == D6_W_INCAP && before != D6_W_INCAP &&
                             roll(&rng, x[tg].up_d, x[tg].up_p) < 15))
                            out[tg] = 1;
                    } else if (ex > 0 && (h[tg] -= ex) <= 0) {
                        out[tg] = 1;
                    }
                    if (out[tg])
                        up[x[tg].side & 1]--;
                }
            }
            acc += up[0] > 0;
            rsum += round - 1;
        }
        dt = bench_now_s() - t0;
    } while (fights > 0 ? t < fights : dt < min_seconds);
    *sink += acc;
    *rounds = (double)rsum / (double)t;
    return (double)t / dt;
}

int main(int argc, char **argv) {
    bool quick = false, do_duel = true, do_brawl = true;
    long fights = 0;
    for (int k = 1; k < argc; k++) {
        if (strcmp(argv[k], "--quick") == 0) {
            quick = true;
        } else if (strcmp(argv[k], "--fights") == 0 && k + 1 < argc &&
                   (fights = atol(argv[k + 1])) > 0) {
            k++;
        } else if (strcmp(argv[k], "--only") == 0 && k + 1 < argc &&
                   (strcmp(argv[k + 1], "duel") == 0 || strcmp(argv[k + 1], "brawl") == 0)) {
            do_duel = strcmp(argv[++k], "duel") == 0;
            do_brawl = !do_duel;
        } else {
            fprintf(stderr, "usage: bench_d6 [--quick] [--fights N] [--only duel|brawl]\n");
            return 2;
        }
    }
    double secs = quick || fights > 0 ? 0.0 : 1.0;
    int reps = quick || fights > 0 ? 1 : 5;
    /* called through a volatile pointer: never inlined, so that callgrind
     * counts each on its own */
    rate_fn volatile sim_fn = sim_rate, bare_fn = bare_rate;
    d6_setup *duel = load("duel.yaml"), *brawl = load("brawl.yaml");
    if (!duel || !brawl) {
        d6_setup_free(duel);
        d6_setup_free(brawl);
        return 1;
    }
    long sink = 0;
    double rd = 0, rb = 0, bd = 0, bb = 0, nd = 0, nb = 0, nbd = 0, nbb = 0;
    for (int r = 0; r < reps; r++) {
        double v;
        if (do_duel) {
            v = sim_fn(duel, secs, fights, &sink, &nd);
            rd = v > rd ? v : rd;
            v = bare_fn(duel, secs, fights, &sink, &nbd);
            bd = v > bd ? v : bd;
        }
        if (do_brawl) {
            v = sim_fn(brawl, secs, fights, &sink, &nb);
            rb = v > rb ? v : rb;
            v = bare_fn(brawl, secs, fights, &sink, &nbb);
            bb = v > bb ? v : bb;
        }
    }
    printf("fray bench_d6%s: D6 as `fray sim` runs it, 1 thread; each rate the best "
           "of %d round%s\n\n",
           quick || fights > 0 ? " (one round: numbers are rough)" : "", reps,
           reps == 1 ? "" : "s");
    printf("%-28s %14s %12s\n", "", "fights/s", "rounds");
    printf("%-28s %14.0f %12.1f\n", "duel.yaml (simulation)", rd, nd);
    printf("%-28s %14.0f %12.1f\n", "duel.yaml (bare dice loop)", bd, nbd);
    printf("%-28s %14.0f %12.1f\n", "brawl.yaml (simulation)", rb, nb);
    printf("%-28s %14.0f %12.1f\n", "brawl.yaml (bare dice loop)", bb, nbb);
    printf("\nduel: the simulation is %.1fx slower than the bare loop (%ld)\n",
           rd > 0 ? bd / rd : 0.0, sink % 7);
    printf("brawl: the simulation is %.1fx slower than the bare loop\n",
           rb > 0 ? bb / rb : 0.0);
    printf("d6-duel-fights-per-s %.0f\nd6-duel-bare-fights-per-s %.0f\n"
           "d6-brawl-fights-per-s %.0f\nd6-brawl-bare-fights-per-s %.0f\n",
           rd, bd, rb, bb);
    d6_setup_free(duel);
    d6_setup_free(brawl);
    return 0;
}
