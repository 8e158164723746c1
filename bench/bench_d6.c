/*
 * bench_d6.c - D6's simulation speed (issue 18 "Speed"): fights per second
 * of examples/d6/duel.yaml and brawl.yaml as `fray sim` runs its trials on
 * one thread (reset_trial, run, count through D6's table), beside a bare
 * loop that rolls the same dice from the same kind of stream and nothing
 * else.
 *
 * The bare loop is the limit: the dice the rules must roll for the same
 * fights, on plain arrays, with no events, checks or narration. Each
 * round all standing roll initiative (Acumen with the Wild Die) and act
 * in its order, as the tactics would (rules.c d6_choose) at the same
 * moments: its defense lapses; badly hurt (Severe, or under a quarter of
 * its Body Points) with a friend standing, a full defense (dodge or
 * parry + 10); else it attacks the most hurt foe in reach, with a dodge
 * or parry first (at the multi-action penalty) when two foes are in
 * reach or it is hurt; its weapon's skill less its wounds' dice (and
 * Stunned's die through the next round) with the Wild Die against the
 * defense made or passive 10, then damage with Strength Damage against
 * Physique and armour (the duel: Wound levels, the stay-up roll at
 * Incapacitated with Stamina or Mettle) or armour (the brawl: Body
 * Points), to the file's time limit. Simpler than the tactics, each
 * rolling no die: with no foe in reach it steps to the first foe
 * standing and strikes in the same turn (the tactics walk to the
 * nearest; a free move of half its Move or less does the same); ties in
 * initiative keep the file's order (the rules break them by Acumen,
 * search, Agility, dodge); no cover, light or ranges (the two examples
 * have none). Measured, it rolls 2% more dice than the simulation (the
 * duel 275 draws a fight against 271, the brawl 525 against 513) over
 * the same rounds.
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
    int def_d, def_p;     /* its better of dodge and parry, as the tactics take it */
    int def_vs_ranged;    /* 0: its parry does not count against a shot */
    int ranged;
} bare_c;

static int code_v(d6_code c) { return c.dice * 3 + c.pips; }

/* reach[i][j]: j is within i's reach (the tactics' "in reach", 3 m or
 * less, and its weapon's band at that distance not beyond). */
static void bare_of(const d6_setup *s, bare_c *x, unsigned char reach[D6_MAX_C][D6_MAX_C]) {
    d6_state st; /* only the positions and defenses the terms read */
    d6_state_init(s, &st, 1, 0);
    bool any_ranged[2] = {false, false};
    for (int i = 0; i < s->n; i++)
        if (d6_weapon_of(s, i) >= 0 && s->w[d6_weapon_of(s, i)].range[2] > 0)
            any_ranged[s->c[i].side & 1] = true;
    for (int i = 0; i < s->n; i++) {
        d6_attack_terms_t T;
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
        x[i].ranged = T.ranged;
        d6_attack_terms(s, &st, foe, i, d6_weapon_of(s, foe), &T);
        x[i].res_d = T.resistance.dice; /* its own resistance */
        x[i].res_p = T.resistance.pips;
        d6_code sta = d6_skill_code(s, i, D6_SK_STAMINA), me = d6_skill_code(s, i, D6_SK_METTLE);
        d6_code up = code_v(me) > code_v(sta) ? me : sta; /* rules.c stay_up */
        x[i].up_d = up.dice;
        x[i].up_p = up.pips;
        x[i].bp = s->c[i].b.body_points;
        d6_code dodge = d6_skill_code(s, i, D6_SK_DODGE),
                parry = d6_skill_code(s, i, d6_parry_skill(s, i));
        /* the tactics parry when it is the better and no foe shoots */
        bool par = code_v(parry) > code_v(dodge) && !any_ranged[(s->c[i].side & 1) ^ 1];
        x[i].def_d = par ? parry.dice : dodge.dice;
        x[i].def_p = par ? parry.pips : dodge.pips;
        x[i].def_vs_ranged = !par;
        for (int j = 0; j < s->n; j++) {
            int d = i == j ? 0 : d6_distance(&st, i, j);
            reach[i][j] = (unsigned char)(i != j && x[i].side != s->c[j].side && d <= 3 &&
                                          d6_band(s, d6_weapon_of(s, i), d) != D6_BAND_BEYOND);
        }
    }
}

static double bare_rate(const d6_setup *s, double min_seconds, long fights, long *sink,
                        double *rounds) {
    bare_c x[D6_MAX_C];
    unsigned char reach0[D6_MAX_C][D6_MAX_C];
    bare_of(s, x, reach0);
    int n = s->n, cap = s->rounds > 0 ? s->rounds : 60;
    bool wounds = s->o.health == D6_HEALTH_WOUNDS;
    fray_rng rng;
    long t = 0, acc = 0, rsum = 0;
    double t0 = bench_now_s(), dt = 0.0;
    do {
        for (int b = 0; b < 200 && (fights <= 0 || t < fights); b++, t++) {
            fray_rng_for_trial(&rng, 1, (uint64_t)t);
            /* w: Wound level (0 healthy); bp: Body Points left; def: the
             * defense total standing until its next turn (0: passive 10);
             * stun: Stunned through this round */
            int w[D6_MAX_C], bp[D6_MAX_C], out[D6_MAX_C], def[D6_MAX_C], stun[D6_MAX_C];
            int init[D6_MAX_C], order[D6_MAX_C], up[2] = {0, 0};
            unsigned char reach[D6_MAX_C][D6_MAX_C];
            memcpy(reach, reach0, sizeof reach);
            for (int i = 0; i < n; i++) {
                w[i] = 0;
                bp[i] = x[i].bp;
                out[i] = def[i] = 0;
                stun[i] = -1;
                up[x[i].side & 1]++;
            }
            int round;
            for (round = 1; round <= cap && up[0] && up[1]; round++) {
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
                    def[a] = 0; /* its last defense lapses */
                    int tg = -1, in_reach = 0, friends = up[x[a].side & 1] - 1;
                    for (int i = 0; i < n; i++) {
                        if (out[i] || !reach[a][i])
                            continue;
                        in_reach++;
                        if (tg < 0 || w[i] > w[tg] || (w[i] == w[tg] && bp[i] < bp[tg]))
                            tg = i; /* the most hurt foe in reach */
                    }
                    if (tg < 0) { /* it closes on the first foe standing: no dice */
                        for (tg = 0; out[tg] || x[tg].side == x[a].side; tg++)
                            ;
                        reach[a][tg] = reach[tg][a] = 1;
                        in_reach = 1;
                    }
                    int pen = 0;
                    bool hurt = false, badly = false;
                    if (wounds) {
                        pen = w[a] >= D6_W_INCAP    ? 3
                              : w[a] == D6_W_SEVERE ? 2
                              : w[a] == D6_W_WOUNDED || (w[a] >= D6_W_STUNNED && stun[a] >= round)
                                  ? 1
                                  : 0;
                        hurt = w[a] >= D6_W_WOUNDED;
                        badly = w[a] >= D6_W_SEVERE;
                    } else if (x[a].bp > 0) {
                        hurt = bp[a] * 2 < x[a].bp;
                        badly = bp[a] * 4 < x[a].bp;
                    }
                    if (badly && friends > 0) { /* a full defense */
                        def[a] = roll(&rng, x[a].def_d - pen, x[a].def_p) + 10;
                        continue;
                    }
                    if (in_reach >= 2 || hurt) { /* a dodge or parry, then the attack */
                        pen++;
                        def[a] = roll(&rng, x[a].def_d - pen, x[a].def_p);
                    }
                    int diff = def[tg] && (!x[a].ranged || x[tg].def_vs_ranged) ? def[tg] : 10;
                    if (roll(&rng, x[a].atk_d - pen, x[a].atk_p) < (diff < 3 ? 3 : diff))
                        continue;
                    int ex = roll(&rng, x[a].dmg_d, x[a].dmg_p) -
                             roll(&rng, x[tg].res_d, x[tg].res_p);
                    if (wounds) {
                        int before = w[tg];
                        w[tg] = d6_wound_after(before, ex);
                        if (w[tg] == D6_W_STUNNED && ex > 0)
                            stun[tg] = round + 1;
                        if (w[tg] >= D6_W_MORTAL ||
                            (w[tg] == D6_W_INCAP && before != D6_W_INCAP &&
                             roll(&rng, x[tg].up_d, x[tg].up_p) < 15))
                            out[tg] = 1;
                    } else if (ex > 0 && (bp[tg] -= ex) <= 0) {
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
