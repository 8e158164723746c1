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
 * 99 Towers' duel shortcut (quick.c; issue 16): examples/towers/duel.yaml
 * as `fray sim` runs a trial on one thread (the ruleset's table), the long
 * way (the shortcut off) and the simulation's path, fights per second of
 * each and their ratio, in one run (lines "towers-duel-long-fights-per-s
 * N" and "towers-duel-quick-fights-per-s N").
 *
 * Alloy (issue 12, section 3): examples/alloy/duel.yaml (when it loads)
 * and a duel built here (soldier against thug, the one
 * bench/d20-compare/duel.js runs in dnd-combat-simulator), each run as
 * `fray sim` runs a trial on one thread (Alloy's table: reset_trial, run,
 * count): the long way (the engine with its tactics, every step; the
 * shortcut switched off) and the simulation's path (quick.c's shortcut
 * when the setup qualifies, else the long way again: the row says
 * which), next to a bare loop that rolls the same dice from the same
 * kind of stream and nothing else (initiative d20s, then a d20 and the
 * damage dice per attack until one side's hit points reach 0): fights
 * per second of each, best of the rounds, and the ratios (the aim: the
 * simulation's path within 3x of the bare loop).
 *
 * usage: bench_sim [--quick] [--alloy] [EXAMPLE.yaml ...]  (default:
 *        duel.yaml skirmish.yaml; --quick: a smoke run for ctest;
 *        --alloy: only the Alloy duel, ending with the lines
 *        "alloy-duel-fights-per-s N" (the simulation's path),
 *        "alloy-long-fights-per-s N" (the long way) and
 *        "alloy-bare-fights-per-s N" for bench/d20-compare/run.sh)
 */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloy_int.h"
#include "../src/encounter/ruleset.h"   /* Alloy's table: what `fray sim` calls */
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

/* ---- Alloy ----------------------------------------------------------------- */

/* The Alloy duel built in code (as examples/alloy/duel.yaml means to
 * hold it): a soldier (30 hit points, Defense 15, +5 to hit: Str +3 and a
 * longsword's proficiency +2, 1d8+3, initiative +2) against a thug (26,
 * Defense 13, +4: Str +2 and +2, 1d8+2, initiative +1), side by side, no
 * surges or action points: basic attacks only. */
static fa_setup *alloy_duel_built(void) {
    fa_setup *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    fa_options_default(&s->opt);
    snprintf(s->name, sizeof s->name, "Alloy duel (built in bench_sim)");
    s->round_limit = 100;
    s->n_sides = 2;
    snprintf(s->side_name[0], FA_NAME_MAX, "soldier");
    snprintf(s->side_name[1], FA_NAME_MAX, "thug");
    fray_grid_init(&s->map, 64, 64);
    fa_weapon *w = &s->weapons[s->n_weapons++];
    snprintf(w->id, sizeof w->id, "longsword");
    snprintf(w->name, sizeof w->name, "Longsword");
    w->kind = FA_WK_MELEE;
    w->w = (fa_dice){1, 8};
    w->proficiency = 2;
    w->reach = 1;
    w->hands = 1;
    static const struct {
        const char *id;
        int hp, def, str, init;
    } who[2] = {{"soldier", 30, 15, 3, 2}, {"thug", 26, 13, 2, 1}};
    for (int i = 0; i < 2; i++) {
        fa_statblock *b = &s->sb[s->n_sb++];
        snprintf(b->id, sizeof b->id, "%s", who[i].id);
        snprintf(b->name, sizeof b->name, "%s", who[i].id);
        b->size = FA_SIZE_MEDIUM;
        for (int k = 0; k < FA_ABILITIES; k++)
            b->score[k] = 10;
        b->mod[FA_STR] = (int8_t)who[i].str;
        b->score[FA_STR] = (int8_t)(10 + 2 * who[i].str);
        b->level = 1;
        for (int d = 0; d < FA_DEFENSES; d++)
            b->defense[d] = (int8_t)who[i].def;
        b->init_mod = (int8_t)who[i].init;
        b->hp = (int16_t)who[i].hp;
        b->speed = 6;
        b->reach = 1;
        b->crit_min = 20;
        b->n_weapons = 1;
        b->weapons[0].weapon = 0;
        b->weapons[0].proficient = true;
        b->weapons[0].ammo = -1;
        fa_combatant_def *c = &s->c[s->n++];
        snprintf(c->id, sizeof c->id, "%s", who[i].id);
        snprintf(c->name, sizeof c->name, "%s", who[i].id);
        c->sb = (int16_t)i;
        c->side = (int8_t)i;
        c->at = (fray_pos){(int16_t)(30 + i), 30};
        c->side_len = 1;
        c->aware = true;
        c->wield = 0;
        c->tactics = FA_TACTICS_DEFAULT;
    }
    return s;
}

/* examples/alloy/duel.yaml when it loads, else the built-in duel. *owned:
 * whether fa_setup_free must free it (else free()). */
static fa_setup *alloy_duel_setup(bool *loaded) {
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/alloy/duel.yaml", FRAY_SOURCE_DIR);
    *loaded = false;
    FILE *fp = fopen(path, "r");
    if (fp) {
        fclose(fp);
        fa_setup *s = NULL;
        fray_diag diag;
        memset(&diag, 0, sizeof diag);
        if (fa_load(path, NULL, &s, &diag) == FRAY_OK && s) {
            *loaded = true;
            return s;
        }
        fprintf(stderr, "bench_sim: %s: %s (the built-in duel instead)\n", path,
                diag.message[0] ? diag.message : "does not load");
    }
    return alloy_duel_built();
}

/* Fights per second of the Alloy duel as `fray sim` runs its trials on
 * one thread (sim.c's worker: reset_trial, run, count through Alloy's
 * table), the shortcut on (when the setup qualifies) or off; 0 when the
 * engine stops (why says so). *used_quick: whether the shortcut ran. */
static double alloy_sim_rate(const fa_setup *s, bool quick_off,
                             double min_seconds, long *out_n, long *sink,
                             bool *used_quick, char *why, size_t why_size) {
    const fray__ruleset *rs = &fray__alloy_ruleset;
    void *f = NULL;
    fray_sim_counts *c = calloc(1, sizeof *c);
    double rate = 0.0;
    long i = 0;
    *used_quick = false;
    if (!c || rs->sim_fight_new(s, 1, 0, NULL, NULL, &f) != FRAY_OK) {
        snprintf(why, why_size, "out of memory");
        free(c);
        *out_n = 0;
        return 0.0;
    }
    fa_quick_set_off(f, quick_off);
    *used_quick = !quick_off && fa_quick_eligible(f);
    double t0 = bench_now_s(), dt = 0.0;
    do {
        for (int b = 0; b < 1000; b++, i++) {
            fray_status rc = rs->reset_trial(f, 1, (uint64_t)i);
            if (rc == FRAY_OK)
                rc = rs->run(f);
            if (rc != FRAY_OK) {
                snprintf(why, why_size, "the Alloy engine stopped (status %d)",
                         (int)rc);
                goto done;
            }
            rs->count(f, c);
        }
        dt = bench_now_s() - t0;
    } while (dt < min_seconds);
    rate = (double)i / dt;
done:
    *sink += (long)(c->wins[0] % 7);
    rs->fight_free(f);
    free(c);
    *out_n = i;
    return rate;
}

/* The bare loop: the same dice from the same kind of stream and nothing
 * else. Initiative d20 + modifier each (a tie die when tied), then turns
 * in that order: a d20, a hit on a natural 20 or a total at least the
 * Defense (not on a 1), a crit on a 20 that would hit (the damage's
 * maximum plus the crit dice), else the damage dice plus the modifier,
 * until one falls to 0 or the round limit. */
static double alloy_bare_rate(const fa_setup *s, double min_seconds,
                              long *out_n, long *sink) {
    struct side {
        int hp, bonus, def, dn, ds, dmg, init, cn, cs;
    } sd[2];
    for (int i = 0; i < 2; i++) {
        const fa_combatant_def *c = &s->c[i];
        const fa_statblock *b = &s->sb[c->sb];
        const fa_sb_weapon *sw = &b->weapons[c->wield >= 0 ? c->wield : 0];
        const fa_weapon *w = &s->weapons[sw->weapon];
        const fa_statblock *o = &s->sb[s->c[1 - i].sb];
        sd[i].hp = b->hp;
        sd[i].bonus = b->attack_bonus + b->mod[FA_STR] +
                      (sw->proficient ? w->proficiency : 0);
        sd[i].def = o->defense[FA_DEF_DEFENSE];
        sd[i].dn = w->w.n;
        sd[i].ds = w->w.sides;
        sd[i].dmg = b->mod[FA_STR];
        sd[i].init = b->init_mod;
        sd[i].cn = w->crit.n;
        sd[i].cs = w->crit.sides;
    }
    int limit = s->round_limit > 0 ? s->round_limit : 100;
    fray_rng rng;
    long i = 0, acc = 0;
    double t0 = bench_now_s(), dt = 0.0;
    do {
        for (int b = 0; b < 1000; b++, i++) {
            fray_rng_for_trial(&rng, 1, (uint64_t)i);
            int ia = (int)fray_rng_below(&rng, 20) + 1 + sd[0].init;
            int ib = (int)fray_rng_below(&rng, 20) + 1 + sd[1].init;
            int first = ia > ib ? 0 : ib > ia ? 1 : (int)fray_rng_below(&rng, 2);
            int hp[2] = {sd[0].hp, sd[1].hp};
            int me = first;
            for (int turn = 0; turn < 2 * limit; turn++, me = 1 - me) {
                const struct side *x = &sd[me];
                int d20 = (int)fray_rng_below(&rng, 20) + 1;
                bool would = d20 + x->bonus >= x->def;
                if (d20 == 1 || !(would || d20 == 20))
                    continue;
                int dmg = x->dmg;
                if (d20 == 20 && would) {
                    dmg += x->dn * x->ds;
                    for (int k = 0; k < x->cn; k++)
                        dmg += (int)fray_rng_below(&rng, (uint32_t)x->cs) + 1;
                } else {
                    for (int k = 0; k < x->dn; k++)
                        dmg += (int)fray_rng_below(&rng, (uint32_t)x->ds) + 1;
                }
                hp[1 - me] -= dmg > 0 ? dmg : 0;
                if (hp[1 - me] <= 0) {
                    acc += me;
                    break;
                }
            }
        }
        dt = bench_now_s() - t0;
    } while (dt < min_seconds);
    *out_n = i;
    *sink += acc;
    return (double)i / dt;
}

/* One duel's row: the long way's, the simulation's and the bare loop's
 * fights/s (1 thread), each the best of `rounds`. */
static void alloy_row(const char *name, const fa_setup *s, int rounds,
                      double secs, double *out_rl, double *out_rs,
                      double *out_rb, long *sink) {
    long n = 0;
    double rl = 0, rq = 0, rb = 0;
    bool quick = false;
    char why[256] = "";
    for (int round = 0; round < rounds; round++) {
        bool used;
        double x = alloy_sim_rate(s, true, secs, &n, sink, &used, why, sizeof why);
        rl = x > rl ? x : rl;
        x = alloy_sim_rate(s, false, secs, &n, sink, &quick, why, sizeof why);
        rq = x > rq ? x : rq;
        x = alloy_bare_rate(s, secs, &n, sink);
        rb = x > rb ? x : rb;
    }
    if (rl > 0 && rq > 0)
        printf("%-26s %12.0f %12.0f %-9s %12.0f %8.1fx %8.1fx\n", name, rl, rq,
               quick ? "shortcut" : "long way", rb, rq / rl, rb / rq);
    else
        printf("%-26s %12s %12s %-9s %12.0f\n  (no engine rate: %s)\n", name,
               "-", "-", "", rb, why);
    *out_rl = rl;
    *out_rs = rq;
    *out_rb = rb;
}

static int alloy_bench(bool quick, int rounds, double secs) {
    printf("\nAlloy duels as `fray sim` runs them (1 thread, best of %d): the "
           "long way (the engine,\nthe shortcut off), the simulation's path "
           "(quick.c's shortcut when the duel\nqualifies), and a bare loop of "
           "the same dice\n", rounds);
    printf("%-26s %12s %12s %-9s %12s %9s %9s\n", "duel", "long way", "sim path",
           "(which)", "bare loop", "sim /", "bare /");
    printf("%-26s %12s %12s %-9s %12s %9s %9s\n", "", "fights/s", "fights/s", "",
           "fights/s", "long", "sim");
    long sink = 0;
    double rl = 0, rs = 0, rb = 0, xl, xs, xb;
    bool loaded = false;
    fa_setup *ex = alloy_duel_setup(&loaded);
    if (ex && loaded) {
        alloy_row("examples/alloy/duel.yaml", ex, rounds, secs, &xl, &xs, &xb, &sink);
        fa_setup_free(ex);
    } else {
        free(ex);
    }
    fa_setup *s = alloy_duel_built();
    if (!s) {
        fprintf(stderr, "bench_sim: out of memory\n");
        return 1;
    }
    alloy_row("soldier against thug", s, rounds, secs, &rl, &rs, &rb, &sink);
    free(s);
    /* the built-in duel: the one bench/d20-compare/duel.js runs */
    printf("alloy-duel-fights-per-s %.0f\nalloy-long-fights-per-s %.0f\n"
           "alloy-bare-fights-per-s %.0f\n", rs, rl, rb);
    printf("(%ld%s)\n", sink % 7, quick ? "; --quick: rough numbers" : "");
    return 0;
}

/* Fights per second of a 99 Towers encounter as `fray sim` runs its
 * trials on one thread (reset_trial, run, count through the ruleset's
 * table), the duel shortcut (quick.c) on or off; 0 when the engine
 * stops. *used_quick: whether the shortcut's loop applied any attack. */
static double towers_table_rate(const fray_towers_setup *s, bool quick_off,
                                double min_seconds, long *sink,
                                bool *used_quick) {
    const fray__ruleset *rs = &fray__towers_ruleset;
    void *f = NULL;
    fray_sim_counts *c = calloc(1, sizeof *c);
    *used_quick = false;
    if (!c || rs->sim_fight_new(s, 1, 0, NULL, NULL, &f) != FRAY_OK) {
        free(c);
        return 0.0;
    }
    ft_quick_set_off(f, quick_off);
    long i = 0;
    double rate = 0.0, t0 = bench_now_s(), dt = 0.0;
    do {
        for (int b = 0; b < 1000; b++, i++) {
            fray_status rc = rs->reset_trial(f, 1, (uint64_t)i);
            if (rc == FRAY_OK)
                rc = rs->run(f);
            if (rc != FRAY_OK)
                goto done;
            rs->count(f, c);
        }
        dt = bench_now_s() - t0;
    } while (dt < min_seconds);
    rate = (double)i / dt;
done:
    *used_quick = ft_quick_actions(f) > 0;
    *sink += (long)(c->wins[0] % 7);
    rs->fight_free(f);
    free(c);
    return rate;
}

/* The duel shortcut (quick.c; issue 16): examples/towers/duel.yaml the
 * long way and through the shortcut, fights per second on one thread,
 * best of the rounds. */
static int towers_quick_bench(bool quick, int rounds, double secs,
                              long *sink) {
    fray_towers_setup *s = bench_load_example("bench_sim", "duel.yaml");
    if (!s)
        return 1;
    double rl = 0, rq = 0;
    bool used = false;
    for (int round = 0; round < rounds; round++) {
        bool u;
        double x = towers_table_rate(s, true, quick ? 0.0 : secs / 2, sink, &u);
        rl = x > rl ? x : rl;
        x = towers_table_rate(s, false, quick ? 0.0 : secs / 2, sink, &used);
        rq = x > rq ? x : rq;
    }
    printf("\n99 Towers duel shortcut (quick.c), duel.yaml on one thread:\n"
           "  the long way %.0f fights/s, the simulation's path %.0f fights/s "
           "(%s), %.2fx\n", rl, rq, used ? "the shortcut" : "the long way",
           rl > 0 ? rq / rl : 0.0);
    printf("towers-duel-long-fights-per-s %.0f\ntowers-duel-quick-fights-per-s "
           "%.0f\n", rl, rq);
    fray_towers_setup_free(s);
    return 0;
}

int main(int argc, char **argv) {
    bool quick = false, alloy_only = false;
    const char *files[8] = {"duel.yaml", "skirmish.yaml"};
    int n_files = 2, named = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = true;
        else if (strcmp(argv[i], "--alloy") == 0)
            alloy_only = true;
        else if (argv[i][0] != '-' && named < 8)
            files[named++] = argv[i];
        else {
            fprintf(stderr, "usage: bench_sim [--quick] [--alloy] [EXAMPLE.yaml ...]\n");
            return 2;
        }
    }
    if (named)
        n_files = named;
    double secs = quick ? 0.0 : 1.0;
    int rounds = quick ? 1 : 5;
    if (alloy_only)
        return alloy_bench(quick, rounds, secs);
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
    if (towers_quick_bench(quick, rounds, secs, &sink) != 0)
        return 1;
    printf("\n(fight / bare: how many times slower a whole fight is than "
           "only flipping its cards; %ld)\n", sink % 7);
    return alloy_bench(quick, rounds, secs);
}
