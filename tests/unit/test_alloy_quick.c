/*
 * test_alloy_quick.c - the simulation's shortcut (quick.c, alloy_int.h
 * "Shortcut") held to the long way: for the bench duel (in code and as a
 * file) and a few hundred random setups of its class, every trial run
 * both ways through the ruleset's table (sim_fight_new, reset_trial, run,
 * count) must leave the identical state (the table's `same`: hit points,
 * conditions, flags, round, winner, the random stream ...) and the
 * identical counts; and each feature off the whitelist makes a setup go
 * the long way.
 *
 * The rules the shortcut repeats (and so the seed lines these tests
 * check through the long way): initiative d20 + modifier, ties by the
 * modifier then a die (004:235, L7.23); second wind when bloodied
 * (004:673-681, default tactics); the attack roll d20 + bonus
 * against Defense (004:49), natural 1 and 20 (004:53); proficiency
 * (004:57); crits: the dice's maximum + the crit dice on a natural in the
 * crit range that would hit (004:175-181); damage at least 0 (004:155);
 * dying at 0, dead at -(max / 2) (004:211, L7.8); the round limit.
 */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloy_int.h"
#include "ruleset.h"

static const fray__ruleset *RS = &fray__alloy_ruleset;

/* ---- Setups ----------------------------------------------------------------- */

typedef struct duelist {
    int hp, def, str, atk, init, crit_min, prof;
    bool proficient;
    fa_dice w, crit;
    int reach;
    int tactics;
    int surges, surge_value, ap;
} duelist;

/* A duel of two on an open 16x16 map: a at (5, 5), b next to it
 * (dx, dy), sides side_a / 1 - side_a. */
static fa_setup *duel_new(const duelist *d, int dx, int dy, int side_a,
                          int round_limit) {
    fa_setup *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    fa_options_default(&s->opt);
    snprintf(s->name, sizeof s->name, "quick duel");
    s->round_limit = round_limit;
    s->n_sides = 2;
    snprintf(s->side_name[0], FA_NAME_MAX, "red");
    snprintf(s->side_name[1], FA_NAME_MAX, "blue");
    fray_grid_init(&s->map, 16, 16);
    for (int i = 0; i < 2; i++) {
        fa_weapon *w = &s->weapons[s->n_weapons++];
        snprintf(w->id, sizeof w->id, "blade-%d", i);
        snprintf(w->name, sizeof w->name, "Blade %d", i);
        w->kind = FA_WK_MELEE;
        w->w = d[i].w;
        w->crit = d[i].crit;
        w->proficiency = (int8_t)d[i].prof;
        w->reach = (int8_t)d[i].reach;
        w->hands = 1;
        fa_statblock *b = &s->sb[s->n_sb++];
        snprintf(b->id, sizeof b->id, "block-%d", i);
        snprintf(b->name, sizeof b->name, "Block %d", i);
        b->size = FA_SIZE_MEDIUM;
        for (int k = 0; k < FA_ABILITIES; k++)
            b->score[k] = 10;
        b->mod[FA_STR] = (int8_t)d[i].str;
        b->score[FA_STR] = (int8_t)(10 + 2 * d[i].str);
        b->level = 1;
        for (int k = 0; k < FA_DEFENSES; k++)
            b->defense[k] = (int8_t)d[i].def;
        b->attack_bonus = (int8_t)d[i].atk;
        b->init_mod = (int8_t)d[i].init;
        b->hp = (int16_t)d[i].hp;
        b->speed = 6;
        b->reach = 1;
        b->crit_min = (int8_t)d[i].crit_min;
        b->tactics = (uint8_t)d[i].tactics;
        b->surges = (int8_t)d[i].surges;
        b->surge_value = (int16_t)d[i].surge_value;
        b->action_points = (int8_t)d[i].ap;
        b->n_weapons = 1;
        b->weapons[0].weapon = (int16_t)i;
        b->weapons[0].proficient = d[i].proficient;
        b->weapons[0].ammo = -1;
        fa_combatant_def *c = &s->c[s->n++];
        snprintf(c->id, sizeof c->id, "fighter-%d", i);
        snprintf(c->name, sizeof c->name, "Fighter %d", i);
        c->sb = (int16_t)i;
        c->side = (int8_t)(i == 0 ? side_a : 1 - side_a);
        c->at = i == 0 ? (fray_pos){5, 5} : (fray_pos){(int16_t)(5 + dx), (int16_t)(5 + dy)};
        c->side_len = 1;
        c->aware = true;
        c->wield = 0;
        c->tactics = (uint8_t)d[i].tactics;
    }
    return s;
}

/* bench/bench_sim.c's built-in duel: soldier against thug. */
static fa_setup *bench_duel(void) {
    duelist d[2] = {
        {.hp = 30, .def = 15, .str = 3, .init = 2, .prof = 2, .proficient = true,
         .w = {1, 8}, .reach = 1, .crit_min = 20},
        {.hp = 26, .def = 13, .str = 2, .init = 1, .prof = 2, .proficient = true,
         .w = {1, 8}, .reach = 1, .crit_min = 20},
    };
    return duel_new(d, 1, 0, 0, 100);
}

/* ---- Both ways -------------------------------------------------------------- */

static void counts_zero(fray_sim_counts *c) { memset(c, 0, sizeof *c); }

/* Runs trials [0, n) of s both ways (seed, until) and asserts, trial by
 * trial, the identical state after the begin event and at the end, and
 * identical counts; the sums into *out (may be NULL). Returns the trials
 * the shortcut took (all of them when s qualifies). */
static long both_ways(const fa_setup *s, uint64_t seed, int until, long n,
                      const char *what, fray_sim_counts *out) {
    void *q = NULL, *l = NULL;
    cr_assert_eq(RS->sim_fight_new(s, seed, until, NULL, NULL, &q), FRAY_OK);
    cr_assert_eq(RS->sim_fight_new(s, seed, until, NULL, NULL, &l), FRAY_OK);
    fa_quick_set_off(l, true);
    fray_sim_counts *cq = calloc(1, sizeof *cq), *cl = calloc(1, sizeof *cl);
    cr_assert(cq && cl);
    counts_zero(cq);
    counts_zero(cl);
    long quick = 0;
    bool eligible = fa_quick_eligible(q);
    uint8_t *buf = malloc(RS->event_max);
    cr_assert_not_null(buf);
    for (long t = 0; t < n; t++) {
        cr_assert_eq(RS->reset_trial(q, seed, (uint64_t)t), FRAY_OK, "%s trial %ld", what, t);
        cr_assert_eq(RS->reset_trial(l, seed, (uint64_t)t), FRAY_OK, "%s trial %ld", what, t);
        cr_assert(RS->same(q, l), "%s trial %ld: the begin events differ", what, t);
        cr_assert_eq(RS->run(q), FRAY_OK, "%s trial %ld", what, t);
        cr_assert_eq(RS->run(l), FRAY_OK, "%s trial %ld", what, t);
        /* The shortcut leaves no scratch event (the long way's last one). */
        if (eligible && RS->event_pack(q, buf) == 0)
            quick++;
        cr_assert(RS->over(q) && RS->over(l), "%s trial %ld: not over", what, t);
        cr_assert_eq(RS->winner(q), RS->winner(l), "%s trial %ld: winner", what, t);
        cr_assert_eq(RS->now(q), RS->now(l), "%s trial %ld: rounds", what, t);
        cr_assert(RS->same(q, l),
                  "%s trial %ld: the end differs (hit points, conditions, "
                  "flags, round or stream)", what, t);
        RS->count(q, cq);
        RS->count(l, cl);
        /* this trial's counts: the sums so far stay equal */
        cr_assert_eq(cq->trials, cl->trials);
        cr_assert_eq(cq->unfinished, cl->unfinished, "%s trial %ld", what, t);
        cr_assert_eq(cq->all_out, cl->all_out, "%s trial %ld", what, t);
        cr_assert_eq(cq->length_sum, cl->length_sum, "%s trial %ld", what, t);
        for (int i = 0; i < 2; i++) {
            const fray_sim_combatant_counts *a = &cq->c[i], *b = &cl->c[i];
            cr_assert_eq(cq->wins[i], cl->wins[i], "%s trial %ld", what, t);
            cr_assert_eq(a->standing, b->standing, "%s trial %ld", what, t);
            cr_assert_eq(a->dead, b->dead, "%s trial %ld: dead", what, t);
            cr_assert_eq(a->dealt[0], b->dealt[0], "%s trial %ld: dealt", what, t);
            cr_assert_eq(a->taken[0], b->taken[0], "%s trial %ld: taken", what, t);
            cr_assert_eq(a->actions, b->actions, "%s trial %ld: actions", what, t);
            cr_assert_eq(a->spent[0], b->spent[0]);
            cr_assert_eq(a->spent[1], b->spent[1]);
            cr_assert_eq(a->by_kind[FA_CMD_ATTACK - FA_CMD_ATTACK],
                         b->by_kind[FA_CMD_ATTACK - FA_CMD_ATTACK], "%s trial %ld", what, t);
            cr_assert_eq(a->by_kind[FA_CMD_END_TURN - FA_CMD_ATTACK],
                         b->by_kind[FA_CMD_END_TURN - FA_CMD_ATTACK], "%s trial %ld", what, t);
            cr_assert_eq(a->by_kind[FA_CMD_SECOND_WIND - FA_CMD_ATTACK],
                         b->by_kind[FA_CMD_SECOND_WIND - FA_CMD_ATTACK],
                         "%s trial %ld: second winds", what, t);
            cr_assert_eq(a->by_kind[FA_CMD_SPEND_AP - FA_CMD_ATTACK],
                         b->by_kind[FA_CMD_SPEND_AP - FA_CMD_ATTACK],
                         "%s trial %ld: action points", what, t);
        }
    }
    /* every number the simulation reports, the same */
    cr_assert_eq(memcmp(cq, cl, sizeof *cq), 0, "%s: the counts differ", what);
    if (out)
        *out = *cq;
    free(cq);
    free(cl);
    free(buf);
    RS->fight_free(q);
    RS->fight_free(l);
    return quick;
}

static fa_setup *load(const char *rel) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, rel);
    fa_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = fa_load(path, NULL, &s, &d);
    cr_assert_eq(rc, FRAY_OK, "%s: %s", path, d.message);
    return s;
}

/* ---- The bench duel ------------------------------------------------------------ */

Test(alloy_quick, bench_duel_trial_by_trial_004_49_53_155_175_211_235) {
    fa_setup *s = bench_duel();
    char why[200];
    fa_quick q;
    cr_assert(fa_quick_plan(s, &q, why, sizeof why), "%s", why);
    fray_sim_counts *c = calloc(1, sizeof *c);
    cr_assert_not_null(c);
    long quick = both_ways(s, 7, 0, 20000, "bench duel", c);
    cr_assert_eq(quick, 20000, "every trial by the shortcut");
    /* the soldier wins most (it is the stronger; bench_sim's numbers) and
     * someone always falls before round 100 */
    cr_assert_gt(c->wins[0], c->wins[1]);
    cr_assert_eq(c->unfinished, 0);
    free(c);
    free(s);
}

/* The same duel as a file (tests/data/alloy/quick_bench_duel.yaml), the
 * way `fray sim` runs it: the simulation's counts (everything its report
 * and JSON are made of) identical both ways, also with --until-phase and
 * small round limits. */
Test(alloy_quick, bench_duel_file_sim_numbers_identical) {
    fa_setup *s = load("tests/data/alloy/quick_bench_duel.yaml");
    cr_assert_eq(both_ways(s, 7, 0, 20000, "bench duel file", NULL), 20000);
    cr_assert_eq(both_ways(s, 7, 3, 5000, "bench duel until 3", NULL), 5000);
    for (int lim = 1; lim <= 3; lim++) {
        fa_setup *v = NULL;
        cr_assert_eq(fa_setup_copy(s, NULL, &v), FRAY_OK);
        char val[8];
        snprintf(val, sizeof val, "%d", lim);
        fray_diag d;
        cr_assert_eq(fa_setup_vary(v, "round-limit", val, &d), FRAY_OK, "%s", d.message);
        cr_assert_eq(both_ways(v, 7, 0, 5000, "bench duel round limit", NULL), 5000);
        fa_setup_free(v);
    }
    fa_setup_free(s);
}

/* examples/alloy: none qualifies today (powers, ranged weapons, several
 * combatants); each still runs the long way, counts unchanged. */
Test(alloy_quick, examples_go_the_long_way) {
    static const char *const ex[] = {"examples/alloy/duel.yaml",
                                     "examples/alloy/skirmish.yaml",
                                     "examples/alloy/ambush.yaml"};
    for (size_t k = 0; k < sizeof ex / sizeof ex[0]; k++) {
        fa_setup *s = load(ex[k]);
        fa_quick q;
        char why[200] = "";
        bool ok = fa_quick_plan(s, &q, why, sizeof why);
        cr_assert_not(ok, "%s qualifies: test it trial by trial here", ex[k]);
        cr_assert(why[0] != '\0', "%s: no reason given", ex[k]);
        cr_assert_eq(both_ways(s, 7, 0, 200, ex[k], NULL), 0);
        fa_setup_free(s);
    }
}

/* Second wind (004:673-681) in the class: default tactics with a heroic
 * surge spend their standard action on it once bloodied (hit points at
 * half or less: +a surge's hit points, not above the maximum, and +2 to
 * every defense until the start of their next turn); aggressive tactics
 * never do. Held both ways, and seen to happen. */
Test(alloy_quick, second_wind_004_673_681_trial_by_trial) {
    fa_setup *s = bench_duel();
    s->sb[0].surges = 2;
    s->sb[1].surges = 1;
    s->sb[1].surge_value = 9;
    fa_quick q;
    char why[200];
    cr_assert(fa_quick_plan(s, &q, why, sizeof why), "%s", why);
    fray_sim_counts *c = calloc(1, sizeof *c);
    cr_assert_not_null(c);
    cr_assert_eq(both_ways(s, 7, 0, 20000, "bench duel with surges", c), 20000);
    uint64_t sw = FA_CMD_SECOND_WIND - FA_CMD_ATTACK;
    cr_assert_gt(c->c[0].by_kind[sw], 1000, "the soldier second-winds");
    cr_assert_gt(c->c[1].by_kind[sw], 1000, "the thug second-winds");
    cr_assert_eq(c->c[0].spent[1], c->c[0].by_kind[sw], "a surge each");
    /* at most once a fight (004:681) */
    cr_assert_leq(c->c[0].by_kind[sw], c->trials);
    s->c[0].tactics = FA_TACTICS_AGGRESSIVE;
    cr_assert(fa_quick_plan(s, &q, why, sizeof why), "%s", why);
    memset(c, 0, sizeof *c);
    cr_assert_eq(both_ways(s, 7, 0, 5000, "aggressive with surges", c), 5000);
    cr_assert_eq(c->c[0].by_kind[sw], 0, "aggressive tactics never second-wind");
    cr_assert_gt(c->c[1].by_kind[sw], 0);
    free(c);
    free(s);
}

/* Action points (004:291, L7.12 one a turn) in the class: after its
 * standard action a combatant spends one for one more attack when the
 * other is low (one hit's maximum can drop it), aggressive tactics
 * whenever it can attack; also after a second wind. Held both ways, and
 * seen to happen. */
Test(alloy_quick, action_points_004_291_trial_by_trial) {
    fa_setup *s = bench_duel();
    s->sb[0].action_points = 1;
    s->sb[1].action_points = 2;
    s->sb[1].surges = 1;
    fa_quick q;
    char why[200];
    cr_assert(fa_quick_plan(s, &q, why, sizeof why), "%s", why);
    fray_sim_counts *c = calloc(1, sizeof *c);
    cr_assert_not_null(c);
    uint64_t ap = FA_CMD_SPEND_AP - FA_CMD_ATTACK;
    cr_assert_eq(both_ways(s, 7, 0, 20000, "bench duel with action points", c), 20000);
    cr_assert_gt(c->c[0].by_kind[ap], 1000, "the soldier spends action points");
    cr_assert_gt(c->c[1].by_kind[ap], 1000, "the thug spends action points");
    cr_assert_eq(c->c[0].spent[0], c->c[0].by_kind[ap]);
    cr_assert_leq(c->c[0].by_kind[ap], c->trials, "one point at most");
    s->c[0].tactics = FA_TACTICS_AGGRESSIVE;
    s->c[1].tactics = FA_TACTICS_AGGRESSIVE;
    cr_assert(fa_quick_plan(s, &q, why, sizeof why), "%s", why);
    memset(c, 0, sizeof *c);
    cr_assert_eq(both_ways(s, 7, 0, 5000, "aggressive with action points", c), 5000);
    /* aggressive: the first turn already (the soldier always has one) */
    cr_assert_gt(c->c[0].by_kind[ap], 4900);
    free(c);
    free(s);
}

/* ---- Random setups of the class ----------------------------------------------- */

static uint64_t rnd_state = 0x2545F4914F6CDD1DULL;
static int rnd(int lo, int hi) { /* xorshift64*, fixed seed: the same setups every run */
    rnd_state ^= rnd_state >> 12;
    rnd_state ^= rnd_state << 25;
    rnd_state ^= rnd_state >> 27;
    uint64_t x = rnd_state * 0x2545F4914F6CDD1DULL;
    return lo + (int)((x >> 33) % (uint64_t)(hi - lo + 1));
}

static fa_dice rnd_dice(int max_n) {
    static const int8_t sides[] = {2, 3, 4, 6, 8, 10, 12, 20, 100};
    fa_dice d = {(int8_t)rnd(0, max_n), sides[rnd(0, 8)]};
    if (d.n == 0)
        d.sides = 0;
    return d;
}

static void rnd_duelist(duelist *d) {
    memset(d, 0, sizeof *d);
    d->hp = rnd(0, 5) == 0 ? rnd(1, 4) : rnd(5, 80);
    d->def = rnd(5, 26);
    d->str = rnd(-5, 5);            /* negative damage totals too */
    d->atk = rnd(-3, 10);
    d->init = rnd(-2, 3);           /* often tied: the tie dice */
    d->crit_min = rnd(0, 3) == 0 ? 0 : rnd(15, 20);
    d->prof = rnd(0, 3);
    d->proficient = rnd(0, 1) == 1;
    d->w = rnd_dice(3);
    d->crit = rnd(0, 1) ? rnd_dice(2) : (fa_dice){0, 0};
    d->reach = rnd(1, 2);
    d->tactics = rnd(0, 1) ? FA_TACTICS_DEFAULT : FA_TACTICS_AGGRESSIVE;
    d->surges = rnd(0, 1) ? 0 : rnd(1, 3);
    d->surge_value = rnd(0, 1) ? 0 : rnd(1, 25);
    d->ap = rnd(0, 1) ? 0 : rnd(1, 3);
}

Test(alloy_quick, random_setups_trial_by_trial, .timeout = 600) {
    static const int limits[] = {0, 1, 2, 3, 5, 100, 100, 100};
    int setups = 300;
    long trials = 1000, total_quick = 0;
    for (int k = 0; k < setups; k++) {
        duelist d[2];
        rnd_duelist(&d[0]);
        rnd_duelist(&d[1]);
        int dx = 0, dy = 0;
        while (dx == 0 && dy == 0) {
            dx = rnd(-1, 1);
            dy = rnd(-1, 1);
        }
        int lim = limits[rnd(0, 7)];
        int until = rnd(0, 4) == 0 ? rnd(1, 4) : 0;
        fa_setup *s = duel_new(d, dx, dy, rnd(0, 1), lim);
        char what[160], why[200];
        snprintf(what, sizeof what,
                 "setup %d (hp %d/%d, def %d/%d, str %d/%d, %dd%d/%dd%d, crit %d/%d, "
                 "limit %d, until %d)", k, d[0].hp, d[1].hp, d[0].def, d[1].def,
                 d[0].str, d[1].str, d[0].w.n, d[0].w.sides, d[1].w.n, d[1].w.sides,
                 d[0].crit_min, d[1].crit_min, lim, until);
        fa_quick q;
        cr_assert(fa_quick_plan(s, &q, why, sizeof why), "%s: %s", what, why);
        long quick = both_ways(s, (uint64_t)(1000 + k), until, trials, what, NULL);
        cr_assert_eq(quick, trials, "%s: not every trial by the shortcut", what);
        total_quick += quick;
        free(s);
    }
    cr_assert_eq(total_quick, setups * trials);
}

/* ---- The whitelist ------------------------------------------------------------ */

typedef void (*change_fn)(fa_setup *s);

static void ch_three(fa_setup *s) {
    s->c[2] = s->c[1];
    s->c[2].at = (fray_pos){4, 5};
    s->n = 3;
}
static void ch_unaware(fa_setup *s) { s->c[1].aware = false; s->surprise = true; }
static void ch_same_side(fa_setup *s) { s->c[1].side = s->c[0].side; }
static void ch_obscured(fa_setup *s) { fray_area_add(&s->obscured, (fray_pos){0, 0}); }
static void ch_dark(fa_setup *s) { fray_area_add(&s->dark, (fray_pos){15, 15}); }
static void ch_wall_edge(fa_setup *s) { s->map.edge_e[5][5] = FRAY_EDGE_WALL; }
static void ch_difficult(fa_setup *s) { s->map.terrain[5][5] = FRAY_TERRAIN_DIFFICULT; }
static void ch_elevation(fa_setup *s) { s->map.elevation[5][6] = 1; }
static void ch_apart(fa_setup *s) { s->c[1].at = (fray_pos){7, 5}; }
static void ch_narrow(fa_setup *s) { fray_area_add(&s->narrow, (fray_pos){15, 15}); }
static void ch_items(fa_setup *s) { s->sb[0].n_items = 1; }
static void ch_joins(fa_setup *s) { s->c[1].joins = 2; }
static void ch_cautious(fa_setup *s) { s->c[0].tactics = FA_TACTICS_CAUTIOUS; }
static void ch_large(fa_setup *s) { s->c[1].side_len = 2; s->sb[1].size = FA_SIZE_LARGE; }
static void ch_small(fa_setup *s) { s->sb[0].size = FA_SIZE_SMALL; }
static void ch_no_hp(fa_setup *s) { s->sb[0].hp = 0; }
static void ch_power(fa_setup *s) {
    fa_power *p = &s->sb[0].powers[s->sb[0].n_powers++];
    snprintf(p->id, sizeof p->id, "smash");
    p->action = FA_ACT_STANDARD;
    p->usage = FA_ENCOUNTER;
    p->weapon = 0;
    p->mult = 2;
}
static void ch_unarmed(fa_setup *s) { s->c[0].wield = -1; }
static void ch_ranged(fa_setup *s) { s->weapons[0].kind = FA_WK_RANGED; }
static void ch_thrown(fa_setup *s) { s->weapons[1].kind = FA_WK_THROWN; }
static void ch_area(fa_setup *s) { s->weapons[0].area = FA_AREA_BLAST; s->weapons[0].area_size = 2; }
static void ch_autofire(fa_setup *s) { s->weapons[0].autofire = true; }
static void ch_magazine(fa_setup *s) { s->weapons[1].magazine = 6; }
static void ch_bad_dice(fa_setup *s) { s->weapons[0].w = (fa_dice){1, 1}; }
static void ch_bad_crit(fa_setup *s) { s->weapons[1].crit = (fa_dice){1, 101}; }

#define OPT_CHANGE(field, value)                                               \
    static void ch_opt_##field(fa_setup *s) { s->opt.field = value; }
OPT_CHANGE(diagonals, 1)
OPT_CHANGE(burst, 1)
OPT_CHANGE(dying, FA_DYING_DEATH_SAVES)
OPT_CHANGE(save_target, 11)
OPT_CHANGE(drop_prone, FA_ACT_FREE)
OPT_CHANGE(suppress_unlimited, true)
OPT_CHANGE(ap_per_turn, 2)
OPT_CHANGE(area_crit_max, false)
OPT_CHANGE(coup_rolls, false)
OPT_CHANGE(aid_ranged_provokes, false)
OPT_CHANGE(creature_cover, 0)
OPT_CHANGE(init_ties, FA_TIES_LISTED)
OPT_CHANGE(surprise_action, FA_SURPRISE_STANDARD_AND_MOVE)
OPT_CHANGE(pick_up_reach, 1)
OPT_CHANGE(taken_proficiency, 1)
OPT_CHANGE(item_draw, 1)
OPT_CHANGE(narrow, FA_NARROW_OPEN)
OPT_CHANGE(feint_against, FA_FEINT_NOTICE)
OPT_CHANGE(skill_provokes, false)
OPT_CHANGE(notice_dc, 12)

static const struct {
    const char *name;
    change_fn change;
    const char *why;        /* a word the reason must hold */
} CHANGES[] = {
    {"three combatants", ch_three, "duel"},
    {"an unaware combatant", ch_unaware, "surprise"},
    {"both on one side", ch_same_side, "side"},
    {"an obscured square", ch_obscured, "obscured"},
    {"a dark square", ch_dark, "dark"},
    {"a wall between them", ch_wall_edge, "open ground"},
    {"difficult ground under one", ch_difficult, "plain floor"},
    {"high ground under one", ch_elevation, "plain floor"},
    {"not adjacent", ch_apart, "side by side"},
    {"cautious tactics", ch_cautious, "cautious"},
    {"a Large combatant", ch_large, "Medium"},
    {"a Small combatant", ch_small, "Medium"},
    {"no hit points", ch_no_hp, "hit points"},
    {"a power", ch_power, "special abilities"},
    {"no weapon in hand", ch_unarmed, "weapon in hand"},
    {"a ranged weapon", ch_ranged, "melee"},
    {"a thrown weapon", ch_thrown, "melee"},
    {"an area weapon", ch_area, "melee"},
    {"an autofire weapon", ch_autofire, "melee"},
    {"a magazine", ch_magazine, "melee"},
    {"a d1", ch_bad_dice, "dice"},
    {"a d101 crit die", ch_bad_crit, "dice"},
    {"option diagonals", ch_opt_diagonals, "diagonals"},
    {"option burst", ch_opt_burst, "burst"},
    {"option dying", ch_opt_dying, "dying"},
    {"option save", ch_opt_save_target, "save"},
    {"option drop-prone", ch_opt_drop_prone, "drop-prone"},
    {"option suppress-unlimited", ch_opt_suppress_unlimited, "suppress"},
    {"option action-points-per-turn", ch_opt_ap_per_turn, "action-points-per-turn"},
    {"option area-crit", ch_opt_area_crit_max, "area-crit"},
    {"option coup-de-grace-rolls", ch_opt_coup_rolls, "coup"},
    {"option aid-ranged-provokes", ch_opt_aid_ranged_provokes, "aid"},
    {"option creature-cover", ch_opt_creature_cover, "creature-cover"},
    {"option initiative-ties", ch_opt_init_ties, "initiative-ties"},
    {"option surprise-action", ch_opt_surprise_action, "surprise-action"},
    {"option pick-up-reach", ch_opt_pick_up_reach, "pick-up-reach"},
    {"option taken-proficiency", ch_opt_taken_proficiency, "taken-proficiency"},
    {"option item-draw", ch_opt_item_draw, "item-draw"},
    {"option narrow-squares", ch_opt_narrow, "narrow-squares"},
    {"option feint-against", ch_opt_feint_against, "feint-against"},
    {"option skill-provokes", ch_opt_skill_provokes, "skill-provokes"},
    {"option notice-dc", ch_opt_notice_dc, "notice-dc"},
    {"a narrow square", ch_narrow, "narrow"},
    {"a healing item", ch_items, "items"},
    {"one who joins later", ch_joins, "joins"},
};

Test(alloy_quick, each_feature_off_the_whitelist_goes_the_long_way) {
    for (size_t k = 0; k < sizeof CHANGES / sizeof CHANGES[0]; k++) {
        fa_setup *s = bench_duel();
        fray_grid_init(&s->map, 16, 16);
        s->c[0].at = (fray_pos){5, 5};
        s->c[1].at = (fray_pos){6, 5};
        fa_quick q;
        char why[200] = "";
        cr_assert(fa_quick_plan(s, &q, why, sizeof why), "before %s: %s",
                  CHANGES[k].name, why);
        CHANGES[k].change(s);
        cr_assert_not(fa_quick_plan(s, &q, why, sizeof why), "%s: qualifies",
                      CHANGES[k].name);
        cr_assert_not(q.ok);
        cr_assert(strstr(why, CHANGES[k].why), "%s: the reason \"%s\" does not say %s",
                  CHANGES[k].name, why, CHANGES[k].why);
        void *f = NULL;
        cr_assert_eq(RS->sim_fight_new(s, 7, 0, NULL, NULL, &f), FRAY_OK);
        cr_assert_not(fa_quick_eligible(f), "%s", CHANGES[k].name);
        RS->fight_free(f);
        free(s);
    }
}

/* An option that is a NEW field (one quick.c does not name) is caught by
 * the whole-struct comparison: here, a byte of the struct past the named
 * fields would differ; the named ones all at default pass. */
Test(alloy_quick, every_option_at_default_qualifies) {
    fa_setup *s = bench_duel();
    fa_options_default(&s->opt);
    fa_quick q;
    char why[200];
    cr_assert(fa_quick_plan(s, &q, why, sizeof why), "%s", why);
    free(s);
}

/* ---- The switch, and only simulations ---------------------------------------- */

Test(alloy_quick, switch_off_and_table_fights_go_the_long_way) {
    fa_setup *s = bench_duel();
    void *f = NULL;
    cr_assert_eq(RS->sim_fight_new(s, 7, 0, NULL, NULL, &f), FRAY_OK);
    cr_assert(fa_quick_eligible(f));
    cr_assert_eq(RS->reset_trial(f, 7, 1), FRAY_OK);
    cr_assert_eq(RS->run(f), FRAY_OK);
    uint8_t *buf = malloc(RS->event_max);
    cr_assert_not_null(buf);
    cr_assert_eq(RS->event_pack(f, buf), 0, "the shortcut leaves no event");
    fa_quick_set_off(f, true);
    cr_assert_eq(RS->reset_trial(f, 7, 1), FRAY_OK);
    cr_assert_eq(RS->run(f), FRAY_OK);
    cr_assert_gt(RS->event_pack(f, buf), 0, "the long way's last event");
    RS->fight_free(f);
    /* A fight for the table (or a journal) never takes the shortcut, even
     * run quietly. */
    fray__fight_opts o;
    memset(&o, 0, sizeof o);
    cr_assert_eq(RS->fight_new(s, &o, NULL, &f), FRAY_OK);
    cr_assert_not(fa_quick_eligible(f));
    cr_assert_eq(RS->begin(f, 7, 1, NULL), FRAY_OK);
    cr_assert_eq(RS->run_quiet(f), FRAY_OK);
    cr_assert_gt(RS->event_pack(f, buf), 0);
    RS->fight_free(f);
    free(buf);
    free(s);
}

Test(alloy_quick, a_stop_reaches_the_shortcut) {
    fa_setup *s = bench_duel();
    atomic_bool stop;
    atomic_init(&stop, true);
    void *f = NULL;
    cr_assert_eq(RS->sim_fight_new(s, 7, 0, &stop, NULL, &f), FRAY_OK);
    cr_assert(fa_quick_eligible(f));
    cr_assert_eq(RS->reset_trial(f, 7, 0), FRAY_OK);
    cr_assert_eq(RS->run(f), FRAY_ERR_CANCELED);
    RS->fight_free(f);
    free(s);
}
