/*
 * test_chances_ranked.c - issue 19 ("`odds tony` for every option
 * ranked"), what deals no damage ranked too (issue 19;
 * docs/rules/odds-at-the-table.md "Ranking"): Alloy's trip, grapple, bull
 * rush, disarm, feint and aid another listed by `odds ID` where act.c
 * allows them now, after the attacks, by their chance of success
 * (fray_chances.p_success), each with the numbers of the command asked
 * alone and of `fray odds roll`; none out of reach. Silent Winter's
 * Avoid (002:23) listed when an Engage on the combatant is declared on a
 * segment it is free to declare on, and not otherwise; its chance equals
 * the 400 rolls of Agility against Agility and the Avoid played 4000
 * times through the fight API (4.5 standard errors).
 */
#include <stdio.h>
#include <stdlib.h>

#include "chances_fixture.h"
#include "layer.h"
#include "winter_int.h"

#define AID FRAY_SOURCE_DIR "/tests/data/alloy/aid_yard.yaml"
#define YARD FRAY_SOURCE_DIR "/tests/data/alloy/charge_yard.yaml"
#define BRAWL FRAY_SOURCE_DIR "/examples/silent-winter/brawl.yaml"
#define HOPELESS FRAY_SOURCE_DIR "/tests/data/winter/avoid_hopeless.yaml"

/* Vance first (13 + 2 against 8 + 3; Brutus 5 + 1 when there). */
static const int vance_first[3] = {13, 8, 5};

/* The chance the command asked alone succeeds (its last outcome). */
static double alone(const fray_fight *f, int who, const char *command,
                    fray_ratio *exact) {
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, who, command, c, &d), FRAY_OK, "%s: %s",
                 command, d.message);
    cr_assert(c->n_outcomes == 2);
    cr_expect_eq(c->p_drop, -1);
    cr_expect(c->p_success == c->outcomes[1].share, "%s", command);
    *exact = c->outcomes[1].p;
    double p = c->p_success;
    free(c);
    return p;
}

/* aid_yard (Vance and Brutus side by side, Lyra next to both): Vance's
 * options are his attacks first, then, by their chance of success: aid
 * Brutus against Lyra on his attack and on his defenses (the baton's
 * d20+7 against Defense 10, 004:428: 18/20), disarm (d20+7 against
 * Fortitude 13, 004:440: 15/20), bull rush (Strength, d20+5 against 13,
 * 004:509: 13/20; the engine's square, then 3,0 and 3,2 named, 004:512),
 * grapple and trip (d20+5 against Reflex 16, 004:611,
 * 735: 10/20, the command's words breaking the tie), feint (Bluff -1
 * against Will 14, 004:307: 6/20); no escape (not grappled), no coup (Lyra
 * is not helpless). */
Test(chances_ranked, alloy_no_damage_after_the_attacks_by_their_chance) {
    fray_setup *s = cf_load(AID);
    fray_fight *f = cf_given(s, 1, vance_first, 3);
    int v = cf_who(f, "vance");
    fray_chances_list l;
    fray_diag d;
    cr_assert_eq(fray_chances_all(f, v, NULL, &l, &d), FRAY_OK, "%s", d.message);
    static const struct {
        const char *command;
        int bonus, defense; /* fray odds roll d20+B --attack --vs D; 0: a check */
        int num;            /* of 20 */
    } want[] = {
        {"aid brutus attack against lyra", 7, 10, 18},
        {"aid brutus defense against lyra", 7, 10, 18},
        {"disarm lyra", 7, 13, 15},
        {"bull-rush lyra", 5, 13, 13},
        {"bull-rush lyra 3,0", 5, 13, 13},
        {"bull-rush lyra 3,2", 5, 13, 13},
        {"grapple lyra", 5, 16, 10},
        {"trip lyra", 5, 16, 10},
        {"feint lyra", 0, 0, 6},
    };
    int n_want = (int)(sizeof want / sizeof want[0]);
    int first = 0;
    while (first < l.n && l.items[first].p_drop >= 0) {
        cr_expect(strncmp(l.items[first].command, "attack ", 7) == 0 ||
                      strncmp(l.items[first].command, "charge ", 7) == 0,
                  "%s", l.items[first].command);
        first++;
    }
    cr_expect(first >= 1, "the attacks first");
    cr_assert_eq(l.n - first, n_want, "%d options in all, %d attacks", l.n, first);
    for (int i = 0; i < n_want; i++) {
        const fray_chances *c = &l.items[first + i];
        cr_expect_str_eq(c->command, want[i].command);
        cr_expect(c->p_drop < 0 && c->n_damage == 1 && c->damage[0].amount[0] == 0);
        fray_ratio exact;
        double p = alone(f, v, want[i].command, &exact);
        cr_expect(c->p_success == p, "%s: listed %.4f, alone %.4f", c->command,
                  c->p_success, p);
        cr_expect(fabs(p - want[i].num / 20.0) < 1e-12, "%s: %.4f", c->command, p);
        if (want[i].bonus)
            cr_expect(fray_ratio_equal(exact, cf_odds_hit(want[i].bonus,
                                                          want[i].defense)),
                      "%s: fray odds roll d20%+d --attack --vs %d", c->command,
                      want[i].bonus, want[i].defense);
        if (i)
            cr_expect(l.items[first + i - 1].p_success >= c->p_success);
    }
    fray_chances_list_free(&l);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* charge_yard: Lyra far from Vance. No trip, grapple, bull rush, feint or
 * aid is listed (act.c refuses them out of reach); the charge is. */
Test(chances_ranked, alloy_nothing_out_of_reach) {
    fray_setup *s = cf_load(YARD);
    fray_fight *f = cf_given(s, 1, vance_first, 2);
    int v = cf_who(f, "vance");
    fray_chances_list l;
    fray_diag d;
    cr_assert_eq(fray_chances_all(f, v, NULL, &l, &d), FRAY_OK, "%s", d.message);
    bool charge = false;
    for (int i = 0; i < l.n; i++) {
        const char *c = l.items[i].command;
        charge |= strncmp(c, "charge ", 7) == 0;
        cr_expect(strncmp(c, "trip", 4) && strncmp(c, "grapple", 7) &&
                      strncmp(c, "bull-rush", 9) && strncmp(c, "feint", 5) &&
                      strncmp(c, "aid", 3),
                  "listed out of reach: %s", c);
        if (l.items[i].p_drop < 0)
            cr_expect(l.items[i].p_success > 0, "%s", c);
    }
    cr_expect(charge, "the charge is listed");
    fray_chances_list_free(&l);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* ---- Silent Winter: the Avoid (002:23) --------------------------------------- */

/* The brawl's opening d6s by hand (the Warrior, the Rogue, bandits 2 and
 * 3: segments 4, 5, 2, 4; bandit 1 acts first on segment 1). */
static const int opening[4] = {3, 4, 1, 3};

static fray_fight *brawl(const fray_setup *s, uint64_t seed) {
    fray_given g;
    memset(&g, 0, sizeof g);
    g.dice = opening;
    g.n_dice = 4;
    fray_fight *f = NULL;
    fray_fight_options o = {.journal = false, .facts = false};
    cr_assert_eq(fray_fight_new(s, seed, &o, &g, NULL, &f), FRAY_OK);
    return f;
}

/* Bandit 3 Engages the Warrior on segment 4, the Warrior free to declare
 * on it (bandit 1's Engage on segment 1 came before he was). */
static fray_fight *engaged_on_4(const fray_setup *s, uint64_t seed) {
    fray_fight *f = brawl(s, seed);
    cf_command(f, "bandit-1 engage warrior");
    while (sw_fight_state(fray__fight_rf(f))->seg < 4)
        cf_command(f, "next");
    cf_command(f, "bandit-3 engage warrior");
    return f;
}

static int listed_avoids(const fray_fight *f, int w, double *p) {
    fray_chances_list l;
    fray_diag d;
    cr_assert_eq(fray_chances_all(f, w, NULL, &l, &d), FRAY_OK, "%s", d.message);
    int n = 0;
    for (int i = 0; i < l.n; i++)
        if (strncmp(l.items[i].command, "avoid ", 6) == 0) {
            cr_expect_str_eq(l.items[i].command, "avoid bandit-3");
            *p = l.items[i].p_success;
            n++;
        }
    fray_chances_list_free(&l);
    return n;
}

Test(chances_ranked, winter_avoid_listed_when_an_engage_is_declared) {
    fray_setup *s = cf_load(BRAWL);
    const sw_setup *ws = fray_setup_ruleset_data(s);
    fray_fight *f = brawl(s, 1);
    int w = cf_who(f, "warrior"), b3 = cf_who(f, "bandit-3");
    double p = -1;
    cr_expect_eq(listed_avoids(f, w, &p), 0, "no Engage on him: no Avoid");
    cf_command(f, "bandit-1 engage warrior");
    cr_expect_eq(listed_avoids(f, w, &p), 0,
                 "not free to declare on segment 1: no Avoid (002:23)");
    fray_fight_free(f);

    f = engaged_on_4(s, 1);
    cr_assert_eq(listed_avoids(f, w, &p), 1);
    /* d20 + Agility against d20 + Agility, ties to the Engaging one. */
    int wins = 0;
    for (int x = 1; x <= 20; x++)
        for (int y = 1; y <= 20; y++)
            wins += x + ws->c[w].b.agility > y + ws->c[b3].b.agility;
    cr_expect(fabs(p - wins / 400.0) < 1e-15, "listed %.4f, %d/400", p, wins);
    fray_ratio exact;
    cr_expect(alone(f, w, "avoid bandit-3", &exact) == p);
    fray_fight_free(f);

    /* Played N times through the fight API: bandit 3's Engage fails as
     * often. */
    enum { N = 4000 };
    int avoided = 0;
    for (int i = 0; i < N; i++) {
        fray_fight *g = engaged_on_4(s, 5000 + (uint64_t)i);
        cf_command(g, "warrior avoid bandit-3");
        avoided += sw_fight_state(fray__fight_rf(g))->c[b3].pend_kind == SW_PEND_NONE;
        fray_fight_free(g);
    }
    double share = (double)avoided / N;
    cr_expect(fabs(share - p) <= cf_tolerance(p, N),
              "avoided %.4f of %d, the chances say %.4f", share, N, p);
    fray_setup_free(s);
}

/* An action that cannot succeed is no option: the Clod's d20+1 against
 * the Blur's d20+21 never wins (002:23), so `odds clod` lists no Avoid
 * (fray_chances_all leaves out p_success 0), while the Avoid asked alone
 * is counted: fails 400/400. */
Test(chances_ranked, an_avoid_that_cannot_succeed_is_not_listed) {
    fray_setup *s = cf_load(HOPELESS);
    static const int both_on_4[2] = {3, 3};
    fray_given g;
    memset(&g, 0, sizeof g);
    g.dice = both_on_4;
    g.n_dice = 2;
    fray_fight *f = NULL;
    fray_fight_options o = {.journal = false};
    cr_assert_eq(fray_fight_new(s, 1, &o, &g, NULL, &f), FRAY_OK);
    while (sw_fight_state(fray__fight_rf(f))->seg < 4)
        cf_command(f, "next");
    cf_command(f, "blur engage clod");
    int c = cf_who(f, "clod");
    fray_ratio none;
    cr_expect_eq(alone(f, c, "avoid blur", &none), 0);
    cr_expect_eq(fray_ratio_to_double(none), 0);
    fray_chances_list l;
    fray_diag d;
    cr_assert_eq(fray_chances_all(f, c, NULL, &l, &d), FRAY_OK, "%s", d.message);
    for (int i = 0; i < l.n; i++)
        cr_expect(strncmp(l.items[i].command, "avoid", 5) != 0, "%s (%.4f)",
                  l.items[i].command, l.items[i].p_success);
    fray_chances_list_free(&l);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Medicine's roll (002:39: a flat roll to stop the bleeding) on each of
 * the combatant's side who bleeds, ranked after the attacks: the Rogue
 * bleeding, `odds warrior` lists "medicine rogue" with the command's own
 * chance; nobody bleeding, none. */
Test(chances_ranked, winter_medicine_listed_for_one_who_bleeds) {
    fray_setup *s = cf_load(BRAWL);
    fray_fight *f = engaged_on_4(s, 1);
    int w = cf_who(f, "warrior"), r = cf_who(f, "rogue");
    fray_chances_list l;
    fray_diag d;
    cr_assert_eq(fray_chances_all(f, w, NULL, &l, &d), FRAY_OK, "%s", d.message);
    for (int i = 0; i < l.n; i++)
        cr_expect(strncmp(l.items[i].command, "medicine", 8) != 0, "%s",
                  l.items[i].command);
    fray_chances_list_free(&l);
    sw_fight_state(fray__fight_rf(f))->c[r].flags |= SW_F_BLEEDING;
    fray_ratio exact;
    double p = alone(f, w, "medicine rogue", &exact);
    cr_assert_eq(fray_chances_all(f, w, NULL, &l, &d), FRAY_OK, "%s", d.message);
    int found = 0;
    for (int i = 0; i < l.n; i++)
        if (strcmp(l.items[i].command, "medicine rogue") == 0) {
            found++;
            cr_expect(l.items[i].p_success == p);
            cr_expect(l.items[i].p_drop < 0);
        }
    cr_expect_eq(found, 1);
    fray_chances_list_free(&l);
    fray_fight_free(f);
    fray_setup_free(s);
}
