/*
 * bench_winter.c - Silent Winter's simulation speed (issue 17 "Speed"):
 * fights per second of examples/silent-winter/duel.yaml and brawl.yaml as
 * `fray sim` runs its trials on one thread (reset_trial, run, count
 * through Silent Winter's table), beside a bare loop that rolls the same
 * dice for the duel from the same kind of stream and nothing else.
 *
 * The bare loop: the opening d6 for the one who is not the initiator;
 * both engage from the start (the engine spends one Engage first: the bare
 * loop starts them engaged, a little in its favour); each attacks every
 * 1 + delay segments: d20 + attack against d20 + defense, the defender's
 * ties, the weapon's d6s less resistance, a point of Pain and 1d6 below
 * 0, until Health 0. The brawl gets its own bare loop (brawl_bare_rate).
 *
 * Both examples run as `fray sim` runs them: the duel through its
 * schedule, the brawl through the loop of melee fights (quick.c); the
 * brawl is measured the long way too (every event through the table, the
 * tests' switch sw_quick_set_off), for the shortcut's gain.
 *
 * usage: bench_winter [--quick]   (--quick: one short round, a smoke test)
 */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/encounter/ruleset.h"
#include "fray/fray.h"
#include "winter_int.h"
#include "bench_util.h"

extern const fray__ruleset fray__winter_ruleset;

static sw_setup *load(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/examples/silent-winter/%s", FRAY_SOURCE_DIR, name);
    sw_setup *s = NULL;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    if (sw_load(path, NULL, &s, &diag) != FRAY_OK) {
        fprintf(stderr, "bench_winter: %s:%d:%d: %s\n", path, diag.line,
                diag.column, diag.message);
        return NULL;
    }
    return s;
}

static double sim_rate(const sw_setup *s, bool long_way, double min_seconds, long *sink,
                       double *segments) {
    const fray__ruleset *rs = &fray__winter_ruleset;
    void *f = NULL;
    fray_sim_counts *c = calloc(1, sizeof *c);
    if (!c || rs->sim_fight_new(s, 1, 0, NULL, NULL, &f) != FRAY_OK) {
        free(c);
        return 0.0;
    }
    sw_quick_set_off(f, long_way); /* the tests' switch: every event through the table */
    long i = 0;
    double t0 = bench_now_s(), dt = 0.0;
    do {
        for (int b = 0; b < 200; b++, i++) {
            fray_status rc = rs->reset_trial(f, 1, (uint64_t)i);
            if (rc == FRAY_OK)
                rc = rs->run(f);
            if (rc != FRAY_OK) {
                fprintf(stderr, "bench_winter: the engine stopped (status %d)\n", (int)rc);
                rs->fight_free(f);
                free(c);
                return 0.0;
            }
            rs->count(f, c);
        }
        dt = bench_now_s() - t0;
    } while (dt < min_seconds);
    *sink += (long)(c->wins[0] % 7);
    *segments = c->trials ? (double)c->length_sum / (double)c->trials : 0.0;
    rs->fight_free(f);
    free(c);
    return (double)i / dt;
}

static int d(fray_rng *rng, int sides) { return (int)fray_rng_below(rng, (uint32_t)sides) + 1; }

static double bare_rate(const sw_setup *s, double min_seconds, long *sink) {
    struct side {
        int atk, def, dice, bonus, res, delay, health, pain;
    } x[2];
    for (int i = 0; i < 2; i++) {
        const sw_block *b = &s->c[i].b, *o = &s->c[1 - i].b;
        const sw_weapon *w = &s->w[b->weapon];
        x[i].atk = b->physical_attack;
        x[i].def = o->physical_defense + o->agility + o->defense_bonus;
        x[i].dice = w->dice;
        x[i].bonus = w->bonus;
        x[i].res = o->armour >= 0 ? o->physical_resistance : 0;
        x[i].delay = w->delay ? w->delay : s->opt.attack_delay;
        x[i].health = b->health;
        x[i].pain = b->pain;
    }
    fray_rng rng;
    long i = 0, acc = 0;
    double t0 = bench_now_s(), dt = 0.0;
    do {
        for (int b = 0; b < 200; b++, i++) {
            fray_rng_for_trial(&rng, 1, (uint64_t)i);
            int ready[2] = {1, 1};
            ready[1 - s->initiator] += d(&rng, 6);
            int hp[2] = {x[0].health, x[1].health}, pain[2] = {x[0].pain, x[1].pain};
            for (int seg = 1; seg < 300; seg++) {
                int k;
                for (k = 0; k < 2; k++) {
                    if (ready[k] > seg)
                        continue;
                    ready[k] = seg + 1 + x[k].delay;
                    int a = d(&rng, 20) + x[k].atk, v = d(&rng, 20) + x[k].def;
                    if (a <= v)
                        continue;
                    int dmg = x[k].bonus;
                    for (int n = 0; n < x[k].dice; n++)
                        dmg += d(&rng, 6);
                    dmg -= x[k].res;
                    if (dmg <= 0)
                        continue;
                    hp[1 - k] -= dmg;
                    if (--pain[1 - k] < 0)
                        hp[1 - k] -= d(&rng, 6);
                    if (hp[1 - k] <= 0)
                        break;
                }
                if (k < 2) {
                    acc += k;
                    break;
                }
            }
        }
        dt = bench_now_s() - t0;
    } while (dt < min_seconds);
    *sink += acc;
    return (double)i / dt;
}

/* The brawl's bare loop (issue 17 "Speed": the skirmish beside a bare
 * loop of the same dice): every combatant's opening d6 but the
 * initiator's; each Engages the standing foe that the fewest of its side
 * engage (the Engage resolves 1 + the Engage delay later), then attacks it
 * every 1 + delay segments: d20 + attack against d20 + defense, the
 * defense without Agility and bonuses when the target does not engage the
 * attacker back (Undefended, 002:27), the weapon's d6s less resistance, a
 * point of Pain and 1d6 below 0; a combatant at Health 0 or Blown (Pain at
 * minus its Pain, 002:37) is out, and its engagers Engage again. It stops
 * when one side is out. The fallen's bleeding and stop-bleeding rolls are
 * left out (a little in the bare loop's favour). */
static double brawl_bare_rate(const sw_setup *s, double min_seconds, long *sink,
                             double *segments) {
    enum { N = SW_MAX_C };
    int n = s->n;
    if (s->n_sides != 2)
        return 0.0;
    int side[N], atk[N], def_full[N], def_bare[N], dice[N], bonus[N], res[N],
        delay[N], health0[N], pain0[N];
    for (int i = 0; i < n; i++) {
        const sw_block *b = &s->c[i].b;
        const sw_weapon *w = &s->w[b->weapon];
        side[i] = s->c[i].side;
        atk[i] = b->physical_attack;
        def_bare[i] = b->physical_defense;
        def_full[i] = b->physical_defense + b->agility + b->defense_bonus;
        dice[i] = w->dice;
        bonus[i] = w->bonus;
        res[i] = b->armour >= 0 ? b->physical_resistance : 0;
        delay[i] = w->delay ? w->delay : s->opt.attack_delay;
        health0[i] = b->health;
        pain0[i] = b->pain;
    }
    fray_rng rng;
    long t = 0, acc = 0, segs = 0;
    double t0 = bench_now_s(), dt = 0.0;
    do {
        for (int b = 0; b < 200; b++, t++) {
            fray_rng_for_trial(&rng, 1, (uint64_t)t);
            int ready[N], hp[N], pain[N], target[N], engaged[N], out[N], up[2] = {0, 0};
            for (int i = 0; i < n; i++) {
                ready[i] = 1 + (i == s->initiator ? 0 : d(&rng, 6));
                hp[i] = health0[i];
                pain[i] = pain0[i];
                target[i] = -1;
                engaged[i] = 0;
                out[i] = 0;
                up[side[i] & 1]++;
            }
            int seg;
            for (seg = 1; seg < 300 && up[0] && up[1]; seg++) {
                for (int i = 0; i < n && up[0] && up[1]; i++) {
                    if (out[i] || ready[i] > seg)
                        continue;
                    int k = target[i];
                    if (k < 0 || out[k] || !engaged[i]) {
                        if (k < 0 || out[k]) {
                            int best = -1, fewest = N + 1;
                            for (int j = 0; j < n; j++) {
                                if (side[j] == side[i] || out[j])
                                    continue;
                                int on = 0;
                                for (int m = 0; m < n; m++)
                                    on += target[m] == j && !out[m];
                                if (on < fewest) {
                                    fewest = on;
                                    best = j;
                                }
                            }
                            target[i] = best;
                            engaged[i] = 0;
                            ready[i] = seg + 1 + s->opt.engage_delay;
                            continue;
                        }
                        engaged[i] = 1;
                    }
                    ready[i] = seg + 1 + delay[i];
                    int def = target[k] == i && engaged[k] ? def_full[k] : def_bare[k];
                    if (d(&rng, 20) + atk[i] <= d(&rng, 20) + def)
                        continue;
                    int dmg = bonus[i];
                    for (int m = 0; m < dice[i]; m++)
                        dmg += d(&rng, 6);
                    dmg -= res[k];
                    if (dmg <= 0)
                        continue;
                    hp[k] -= dmg;
                    if (--pain[k] < 0)
                        hp[k] -= d(&rng, 6);
                    if (hp[k] <= 0 || pain[k] <= -pain0[k]) {
                        out[k] = 1;
                        up[side[k] & 1]--;
                    }
                }
            }
            acc += up[0] > 0;
            segs += seg - 1;
        }
        dt = bench_now_s() - t0;
    } while (dt < min_seconds);
    *sink += acc;
    *segments = (double)segs / (double)t;
    return (double)t / dt;
}

int main(int argc, char **argv) {
    bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    if (argc > 2 || (argc == 2 && !quick)) {
        fprintf(stderr, "usage: bench_winter [--quick]\n");
        return 2;
    }
    double secs = quick ? 0.0 : 1.0;
    int rounds = quick ? 1 : 5;
    sw_setup *duel = load("duel.yaml"), *brawl = load("brawl.yaml");
    if (!duel || !brawl)
        return 1;
    long sink = 0;
    double rd = 0, rb = 0, rbl = 0, bare = 0, bareb = 0, segd = 0, segb = 0, segbb = 0,
           segbl = 0;
    for (int r = 0; r < rounds; r++) {
        double v = sim_rate(duel, false, secs, &sink, &segd);
        rd = v > rd ? v : rd;
        v = sim_rate(brawl, false, secs, &sink, &segb);
        rb = v > rb ? v : rb;
        v = sim_rate(brawl, true, secs, &sink, &segbl);
        rbl = v > rbl ? v : rbl;
        v = bare_rate(duel, secs, &sink);
        bare = v > bare ? v : bare;
        v = brawl_bare_rate(brawl, secs, &sink, &segbb);
        bareb = v > bareb ? v : bareb;
    }
    printf("fray bench_winter%s: Silent Winter as `fray sim` runs it, 1 thread; "
           "each rate the best of %d round%s\n\n",
           quick ? " --quick (smoke run: numbers are rough)" : "", rounds,
           rounds == 1 ? "" : "s");
    printf("%-28s %14s %12s\n", "", "fights/s", "segments");
    printf("%-28s %14.0f %12.1f\n", "duel.yaml (simulation)", rd, segd);
    printf("%-28s %14.0f %12s\n", "duel.yaml (bare dice loop)", bare, "");
    printf("%-28s %14.0f %12.1f\n", "brawl.yaml (simulation)", rb, segb);
    printf("%-28s %14.0f %12.1f\n", "brawl.yaml (bare dice loop)", bareb, segbb);
    printf("%-28s %14.0f %12.1f\n", "brawl.yaml (the long way)", rbl, segbl);
    printf("\nduel: the simulation is %.1fx slower than the bare loop (%ld)\n",
           rd > 0 ? bare / rd : 0.0, sink % 7);
    printf("brawl: the simulation is %.1fx slower than the bare loop\n",
           rb > 0 ? bareb / rb : 0.0);
    printf("brawl: the long way (no shortcut) is %.1fx slower than the bare loop\n",
           rbl > 0 ? bareb / rbl : 0.0);
    printf("winter-duel-fights-per-s %.0f\nwinter-bare-fights-per-s %.0f\n"
           "winter-brawl-fights-per-s %.0f\nwinter-brawl-bare-fights-per-s %.0f\n"
           "winter-brawl-long-way-fights-per-s %.0f\n", rd, bare, rb, bareb, rbl);
    sw_setup_free(duel);
    sw_setup_free(brawl);
    return 0;
}
