/*
 * test_winter_odds.c - issue 19 for Silent Winter (seed 002): the chances
 * of a declaration, exactly (include/fray/chances.h fray_action_chances,
 * src/rules/winter/chances.c), and who wins from here (fray_forecast_run
 * through the ruleset's sim_from):
 *   - an attack's hit chance equals `fray odds roll d20+A --vs-roll d20+D`
 *     (fray_bigdist_compare) and its damage equals the weapon's dice
 *     (fray_dice_dist) less resistance, with a point of Pain per damaging
 *     hit and 1d6 Health below 0 Pain (002:33, 37);
 *   - the attack played many times through the fight API from one state
 *     deals each amount as often as the chances say;
 *   - Undefended (002:55), two weapons (002:41) and the contests change
 *     the numbers as the rules say; Engage and Wait are refused in words;
 *   - a forecast from a mid-fight brawl, and from a duel's opening (the
 *     simulation's duel shortcut), agrees with fights played to their end;
 *     it reads nothing of the fight's own stream of dice.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/chances.h"
#include "fray/dice.h"
#include "fray/fray.h"
#include "fray/view.h"
#include "layer.h"
#include "winter_int.h"

#define EX FRAY_SOURCE_DIR "/examples/silent-winter/"

static fray_setup *load(const char *path) {
    fray_setup *s = NULL;
    fray_diag d;
    fray_status rc = fray_setup_load(path, NULL, &s, &d);
    cr_assert_eq(rc, FRAY_OK, "%s: %s", path, d.message);
    return s;
}

static void cmd(fray_fight *f, const char *line, const int *dice, size_t n) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_given g = {NULL, 0, dice, n, NULL};
    cr_assert_eq(fray_fight_command(f, line, dice ? &g : NULL, &d), FRAY_OK,
                 "'%s': %s", line, d.message);
}

static sw_state *state_of(fray_fight *f) { return sw_fight_state(fray__fight_rf(f)); }

/* The duel at segment 5: the Walking Corpse's opening d6 is 6; Lothaire
 * Engages on segment 1 (in effect at the end of segment 4; the Corpse
 * engages him back, 002:21). Every die before it given: the same state
 * for every seed. */
static fray_fight *duel_at_5(const fray_setup *s, uint64_t seed) {
    static const int opening[1] = {6};
    fray_given g = {NULL, 0, opening, 1, NULL};
    fray_fight_options o = {.journal = false, .facts = false};
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(s, seed, &o, &g, NULL, &f), FRAY_OK);
    cmd(f, "lothaire engage corpse", NULL, 0);
    while (state_of(f)->seg < 5)
        cmd(f, "next", NULL, 0);
    return f;
}

/* The brawl at segment 5, every die given: bandit 1 Engages the Warrior
 * on segment 1 (the Warrior engages back), and hits him on segment 5
 * (d20s 15 and 4, the d6 3). */
static fray_fight *brawl_mid(const fray_setup *s, uint64_t seed) {
    static const int opening[4] = {2, 4, 5, 5};
    static const int hit[3] = {15, 4, 3};
    fray_given g = {NULL, 0, opening, 4, NULL};
    fray_fight_options o = {.journal = true, .facts = false};
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(s, seed, &o, &g, NULL, &f), FRAY_OK);
    cmd(f, "bandit-1 engage warrior", NULL, 0);
    while (state_of(f)->seg < 5)
        cmd(f, "next", NULL, 0);
    cmd(f, "bandit-1 attack warrior", hit, 3);
    return f;
}

static fray_chances *chances(fray_fight *f, const char *who, const char *what) {
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    fray_diag d;
    int a = fray_fight_combatant_index(f, who);
    cr_assert(a >= 0);
    cr_assert_eq(fray_action_chances(f, a, what, c, &d), FRAY_OK, "%s %s: %s",
                 who, what, d.message);
    return c;
}

/* The amount listed for (health, pain), or -1. */
static int find_amount(const fray_chances *c, int h, int pn) {
    for (int k = 0; k < c->n_damage; k++)
        if (c->damage[k].amount[0] == h && c->damage[k].amount[1] == pn)
            return k;
    return -1;
}

/* 002:33 and 002:37, against `fray odds roll`: the hit is d20+A against
 * d20+D (fray_bigdist_compare, what --vs-roll answers), the damage the
 * weapon's dice (fray_dice_dist) less resistance, a point of Pain with it. */
Test(winter_odds, attack_equals_fray_odds_roll_for_the_same_dice) {
    fray_setup *s = load(EX "duel.yaml");
    fray_fight *f = duel_at_5(s, 1);
    const sw_setup *ws = fray_setup_ruleset_data(s);
    int a = fray_fight_combatant_index(f, "lothaire");
    int t = fray_fight_combatant_index(f, "corpse");
    cr_assert_eq(state_of(f)->c[a].engages, t);
    fray_chances *c = chances(f, "lothaire", "attack corpse");
    const sw_block *ab = &ws->c[a].b, *tb = &ws->c[t].b;
    int atk = ab->physical_attack - (ab->off_hand >= 0 ? 5 : 0);
    int def = tb->physical_defense + tb->agility + tb->defense_bonus;
    char ea[32], eb[32];
    snprintf(ea, sizeof ea, "d20%+d", atk);
    snprintf(eb, sizeof eb, "d20%+d", def);
    fray_dice *da = NULL, *db = NULL;
    fray_diag d;
    cr_assert_eq(fray_dice_parse(ea, NULL, NULL, &da, &d), FRAY_OK);
    cr_assert_eq(fray_dice_parse(eb, NULL, NULL, &db, &d), FRAY_OK);
    fray_bigdist *ba = NULL, *bb = NULL;
    cr_assert_eq(fray_dice_bigdist(da, 0, NULL, &ba), FRAY_OK);
    cr_assert_eq(fray_dice_bigdist(db, 0, NULL, &bb), FRAY_OK);
    fray_bigratio gt, eq;
    memset(&gt, 0, sizeof gt);
    memset(&eq, 0, sizeof eq);
    cr_assert_eq(fray_bigdist_compare(ba, bb, &gt, &eq, NULL), FRAY_OK);
    cr_assert_eq(c->n_outcomes, 2);
    cr_expect_str_eq(c->outcomes[1].name, "hit");
    char mine[84], theirs[200];
    fray_ratio_format(c->outcomes[1].p, mine);
    snprintf(theirs, sizeof theirs, "%s/%s", gt.num, gt.den);
    cr_expect_str_eq(mine, theirs, "the hit: %s, fray odds roll says %s", mine, theirs);
    cr_expect(fabs(c->outcomes[0].share + c->outcomes[1].share - 1) < 1e-15);

    /* The damage: the weapon's dice, less resistance, at least 0. */
    const sw_weapon *w = &ws->w[ab->weapon];
    char ed[32];
    snprintf(ed, sizeof ed, "%dd6%+d", w->dice, w->bonus);
    fray_dice *dd = NULL;
    cr_assert_eq(fray_dice_parse(ed, NULL, NULL, &dd, &d), FRAY_OK);
    fray_dist dist;
    cr_assert_eq(fray_dice_dist(dd, 0, NULL, &dist), FRAY_OK);
    int res = tb->armour >= 0 && ws->a[tb->armour].protects != SW_PROT_NONE &&
                      ws->a[tb->armour].protects != SW_PROT_MAGICAL
                  ? tb->physical_resistance
                  : 0;
    double want[64][2];
    memset(want, 0, sizeof want);
    double ph = c->outcomes[1].share;
    want[0][0] = 1 - ph;
    for (size_t i = 0; i < dist.n; i++) {
        int v = (int)(dist.lo + (int64_t)i);
        double p = fray_ratio_to_double(fray_dist_eq(&dist, v));
        int after = v < 0 ? 0 : v;
        after = after > res ? after - res : 0;
        cr_assert(after < 64);
        want[after][after > 0 ? 1 : 0] += ph * p; /* Pain 6 left: no Pain die */
    }
    double total = 0;
    for (int h = 0; h < 64; h++)
        for (int pn = 0; pn < 2; pn++) {
            int k = find_amount(c, h, pn);
            double got = k >= 0 ? c->damage[k].share : 0;
            cr_expect(fabs(got - want[h][pn]) < 1e-12,
                      "%d Health %d Pain: %.6f, want %.6f", h, pn, got, want[h][pn]);
            total += got;
        }
    cr_expect(fabs(total - 1) < 1e-12);
    cr_expect_str_eq(c->tracks[0], "Health");
    cr_expect_str_eq(c->tracks[1], "Pain");
    fray_dist_free(&dist);
    fray_dice_free(dd);
    fray_bigratio_free(&gt);
    fray_bigratio_free(&eq);
    fray_bigdist_free(ba);
    fray_bigdist_free(bb);
    fray_dice_free(da);
    fray_dice_free(db);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The attack played N times from the same state through
 * fray_fight_command, the dice drawn from seeds 1000..: each (Health,
 * Pain) amount the Corpse loses within 4.5 standard errors. The Corpse's
 * Pain is brought to 0 first (by hand in the state), so that a damaging
 * hit also rolls the 1d6 of negative Pain (002:37). */
Test(winter_odds, monte_carlo_of_the_attack_through_the_fight_api) {
    fray_setup *s = load(EX "duel.yaml");
    enum { N = 6000 };
    int t = -1;
    fray_chances *c = NULL;
    static int counts[FRAY_CHANCES_DAMAGE];
    memset(counts, 0, sizeof counts);
    int h0 = 0;
    for (int i = 0; i < N; i++) {
        fray_fight *f = duel_at_5(s, 1000 + (uint64_t)i);
        t = fray_fight_combatant_index(f, "corpse");
        state_of(f)->c[t].pain = 0;
        if (!c) {
            c = chances(f, "lothaire", "attack corpse");
            h0 = state_of(f)->c[t].health;
            cr_assert(find_amount(c, 0, 0) >= 0);
            cr_assert(c->expected[0] > 0 && c->expected[1] > 0);
        }
        cmd(f, "lothaire attack corpse", NULL, 0);
        const sw_cstate *tc = &state_of(f)->c[t];
        int k = find_amount(c, h0 - tc->health, -tc->pain);
        cr_assert(k >= 0, "trial %d: %d Health, %d Pain not listed", i,
                  h0 - tc->health, -tc->pain);
        counts[k]++;
        fray_fight_free(f);
    }
    for (int k = 0; k < c->n_damage; k++) {
        double p = c->damage[k].share, q = (double)counts[k] / N;
        double tol = 4.5 * sqrt(p * (1 - p) / N) + 1e-9;
        cr_expect(fabs(q - p) <= tol, "%d Health %d Pain: %.4f of %d, the "
                  "chances say %.4f (tolerance %.4f)", c->damage[k].amount[0],
                  c->damage[k].amount[1], q, N, p, tol);
    }
    free(c);
    fray_setup_free(s);
}

/* 002:55 and 002:27: the Warrior engaged by a bandit he does not engage
 * is Undefended against it (Physical Defense only); the modifier is named
 * and the hit chance is the one of the lower defence. */
Test(winter_odds, undefended_target_loses_agility_and_bonus) {
    fray_setup *s = load(EX "brawl.yaml");
    fray_fight *f = brawl_mid(s, 1);
    const sw_setup *ws = fray_setup_ruleset_data(s);
    int w = fray_fight_combatant_index(f, "warrior");
    int b2 = fray_fight_combatant_index(f, "bandit-2");
    /* bandit 2 Engages the Warrior too: he engages bandit 1 back, not it. */
    state_of(f)->c[b2].engages = (int8_t)w;
    fray_chances *c1 = chances(f, "bandit-1", "attack warrior");
    fray_chances *c2 = chances(f, "bandit-2", "attack warrior");
    cr_expect(strstr(c1->modifiers, "Undefended") == NULL, "%s", c1->modifiers);
    cr_expect(strstr(c2->modifiers, "Undefended") != NULL, "%s", c2->modifiers);
    const sw_block *ab = &ws->c[b2].b, *tb = &ws->c[w].b;
    int wins = 0;
    for (int x = 1; x <= 20; x++)
        for (int y = 1; y <= 20; y++)
            wins += x + ab->physical_attack > y + tb->physical_defense;
    cr_expect(fabs(c2->outcomes[1].share - wins / 400.0) < 1e-15);
    cr_expect(c2->outcomes[1].share > c1->outcomes[1].share);
    free(c1);
    free(c2);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The contests (002:23-31) are counted: Disengage is Agility against
 * Agility, ties to the defender; they deal nothing. Engage and Wait roll
 * no dice and are refused in words; a melee attack without an Engage is
 * refused as the rules refuse it (002:17). */
Test(winter_odds, contests_counted_and_refusals_in_words) {
    fray_setup *s = load(EX "brawl.yaml");
    fray_fight *f = brawl_mid(s, 1);
    const sw_setup *ws = fray_setup_ruleset_data(s);
    int w = fray_fight_combatant_index(f, "warrior");
    int b1 = fray_fight_combatant_index(f, "bandit-1");
    fray_chances *c = chances(f, "warrior", "disengage bandit-1");
    int wins = 0;
    for (int x = 1; x <= 20; x++)
        for (int y = 1; y <= 20; y++)
            wins += x + ws->c[w].b.agility > y + ws->c[b1].b.agility;
    cr_assert_eq(c->n_outcomes, 2);
    cr_expect_str_eq(c->outcomes[1].name, "succeeds");
    cr_expect(fabs(c->outcomes[1].share - wins / 400.0) < 1e-15);
    cr_expect_eq(c->n_damage, 1);
    cr_expect(c->expected[0] == 0 && c->expected[1] == 0);
    free(c);
    fray_chances *x = malloc(sizeof *x);
    cr_assert(x);
    fray_diag d;
    int r = fray_fight_combatant_index(f, "rogue");
    cr_expect_eq(fray_action_chances(f, r, "engage bandit-3", x, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "Engage rolls no dice") != NULL, "%s", d.message);
    cr_expect_eq(fray_action_chances(f, r, "wait", x, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "Wait rolls no dice") != NULL, "%s", d.message);
    cr_expect_eq(fray_action_chances(f, r, "attack bandit-3", x, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "must Engage") != NULL, "%s", d.message);
    cr_expect_eq(fray_action_chances(f, r, "attack nobody", x, &d), FRAY_ERR_PARSE);
    /* Every option of the Warrior: his attack on bandit 1, ranked; then
     * what deals no damage (issue 19): his Disengage from
     * bandit 1, its chance the count above. */
    fray_chances_list l;
    cr_assert_eq(fray_chances_all(f, w, NULL, &l, &d), FRAY_OK, "%s", d.message);
    cr_expect_eq(l.n, 2);
    if (l.n == 2) {
        cr_expect_str_eq(l.items[0].command, "attack bandit-1");
        cr_expect_str_eq(l.items[1].command, "disengage bandit-1");
        cr_expect(fabs(l.items[1].p_success - wins / 400.0) < 1e-15);
    }
    fray_chances_list_free(&l);
    free(x);
    fray_fight_free(f);
    fray_setup_free(s);
}

static void fair(fray_fight *(*make)(const fray_setup *, uint64_t),
                 const char *path) {
    fray_setup *s = load(path);
    fray_fight *f = make(s, 1);
    fray_fight *g = make(s, 2);
    char a[4096], b[4096];
    fray_fight_summary(f, a, sizeof a);
    fray_fight_summary(g, b, sizeof b);
    cr_assert_str_eq(a, b);

    fray_forecast fc, fc2;
    fray_forecast_opts o = {.trials = 4000, .threads = 2, .seed = 77};
    fray_diag d;
    cr_assert_eq(fray_forecast_run(f, &o, &fc, &d), FRAY_OK, "%s", d.message);
    cr_assert(fc.done);
    cr_assert_eq(fc.trials, 4000);
    /* Nothing of the fight's own stream is read: g differs from f only in
     * its dice to come; one thread or two. */
    o.threads = 1;
    cr_assert_eq(fray_forecast_run(g, &o, &fc2, &d), FRAY_OK, "%s", d.message);
    for (int k = 0; k < fc.n_sides; k++)
        cr_expect_eq(fc.sides[k].wins, fc2.sides[k].wins);
    cr_expect(fc.length == fc2.length);
    fray_fight_free(g);

    enum { M = 1000 };
    int n_sides = fray_setup_sides(s), n_c = fray_setup_combatants(s);
    uint64_t wins[8] = {0}, standing[16] = {0};
    for (int i = 0; i < M; i++) {
        fray_fight *h = make(s, 100 + (uint64_t)i);
        cr_assert_eq(fray_fight_run(h), FRAY_OK);
        int w = fray_fight_winner(h);
        if (w >= 0)
            wins[w]++;
        fray_fight_view *v = NULL;
        cr_assert_eq(fray_fight_view_new(h, NULL, &v), FRAY_OK);
        for (int k = 0; k < v->n_combatants; k++)
            if (!v->combatants[k].out)
                standing[v->combatants[k].index]++;
        fray_fight_view_free(v);
        fray_fight_free(h);
    }
    for (int k = 0; k < n_sides; k++) {
        double p = fc.sides[k].p, q = (double)wins[k] / M;
        double sd = sqrt(fmax(p * (1 - p), 1e-4) * (1.0 / M + 1.0 / 4000));
        cr_expect(fabs(p - q) <= 4.5 * sd, "%s: won %.3f of %d fights played, "
                  "the forecast says %.3f (tolerance %.3f)", fc.sides[k].name,
                  q, M, p, 4.5 * sd);
    }
    for (int k = 0; k < n_c; k++) {
        double p = fc.standing[k], q = (double)standing[k] / M;
        double sd = sqrt(fmax(p * (1 - p), 1e-4) * (1.0 / M + 1.0 / 4000));
        cr_expect(fabs(p - q) <= 4.5 * sd, "%s standing: %.3f against %.3f",
                  fray_setup_combatant_name(s, k), q, p);
    }
    cr_expect(fc.length >= fc.now);
    cr_expect_str_eq(fc.time_unit, "segment");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The duel at its opening (Corpse's d6 given): the forecast's trials take
 * the simulation's duel shortcut, the fights played the long way. */
static fray_fight *duel_open(const fray_setup *s, uint64_t seed) {
    static const int opening[1] = {3};
    fray_given g = {NULL, 0, opening, 1, NULL};
    fray_fight_options o = {.journal = true, .facts = false};
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(s, seed, &o, &g, NULL, &f), FRAY_OK);
    return f;
}

/* Issue 19 "A fair forecast", Silent Winter's brawl from segment 5. */
Test(winter_odds, forecast_fair_brawl_mid_fight) { fair(brawl_mid, EX "brawl.yaml"); }

/* Issue 19 "A fair forecast", the duel from its opening. */
Test(winter_odds, forecast_fair_duel_from_the_opening) {
    fair(duel_open, EX "duel.yaml");
}

/* 002:73 (a Maintained ward) and issue 19: the chances of an attack on a
 * combatant whose Maintained spell adds to its defense count that defense,
 * as the attack does (rules.c's own terms): the hit share is the count of
 * d20 pairs against the defense raised by exactly the spell's amount, and
 * the modifier is named. */
Test(winter_odds, a_maintained_ward_raises_the_defense_counted) {
    fray_setup *s = load(EX "witch.yaml");
    fray_fight_options fo = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(s, 3, &fo, NULL, NULL, &f), FRAY_OK);
    const sw_setup *ws = fray_setup_ruleset_data(s);
    sw_state *st = state_of(f);
    int w = fray_fight_combatant_index(f, "witch");
    int b = fray_fight_combatant_index(f, "bandit");
    int ward = -1;
    for (int k = 0; k < ws->n_spells; k++)
        if (ws->sp[k].effect == SW_SPELL_DEFENSE)
            ward = k;
    cr_assert(ward >= 0, "the witch's file has a ward");
    st->c[b].engages = (int8_t)w;          /* the bandit is on her */
    sw_attack_terms_t before;
    sw_attack_terms(ws, st, b, w, &before);
    fray_chances *c0 = chances(f, "bandit", "attack witch");
    st->c[w].n_maint = 1;                  /* she Maintains her ward */
    st->maintained = true;                 /* (as sw_apply marks it) */
    st->c[w].maint_spell[0] = (int8_t)ward;
    st->c[w].maint_target[0] = (int8_t)w;
    fray_chances *c1 = chances(f, "bandit", "attack witch");
    int def = before.def + ws->sp[ward].amount, wins = 0;
    for (int x = 1; x <= 20; x++)
        for (int y = 1; y <= 20; y++)
            wins += x + before.atk > y + def;
    cr_expect(fabs(c1->outcomes[1].share - wins / 400.0) < 1e-15, "%g vs %g",
              c1->outcomes[1].share, wins / 400.0);
    cr_expect(c1->outcomes[1].share < c0->outcomes[1].share);
    cr_expect(strstr(c1->modifiers, "Maintained spells") != NULL, "%s", c1->modifiers);
    free(c0);
    free(c1);
    fray_fight_free(f);
    fray_setup_free(s);
}
