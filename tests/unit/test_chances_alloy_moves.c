/*
 * test_chances_alloy_moves.c - issue 19, the chances of Alloy's bull
 * rush (004:509-512: Strength against Fortitude; a hit pushes the target
 * a square away), a charge ending in one (004:523: at +1 from where the
 * charge ends), an escape from a grapple (004:599: Acrobatics against
 * Reflex or Athletics against Fortitude, the better), aid another
 * (004:428-430: the basic attack against Defense 10, or a DC 10 check)
 * and a coup de grace (004:546-549: a hit is a critical; it kills at half
 * the maximum dealt; by a Withered attacker, half the damage, 004:1037):
 * equal to `fray odds roll d20+B --attack --vs D`
 * (fray_odds_d20_attack) or `fray odds roll d20+B --vs D` (a check) for
 * the statblocks' numbers, and each played many times through the
 * ordinary fight API with the dice drawn succeeds as often as the chances
 * say (4.5 standard errors).
 */
#include <stdio.h>
#include <stdlib.h>

#include "chances_fixture.h"
#include "fray/dice.h"
#include "fray/view.h"

#define DUEL FRAY_SOURCE_DIR "/examples/alloy/duel.yaml"
#define YARD FRAY_SOURCE_DIR "/tests/data/alloy/charge_yard.yaml"
#define AID FRAY_SOURCE_DIR "/tests/data/alloy/aid_yard.yaml"

enum { N = 4000 };

/* Vance first (13 + 2 against 8 + 3; Brutus 5 + 1 when there). */
static const int vance_first[3] = {13, 8, 5};
/* Lyra first (8 + 2 against 13 + 3). */
static const int lyra_first[2] = {8, 13};

static int x_of(const fray_fight *f, int who) {
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    int x = cf_view_of(v, who)->x;
    fray_fight_view_free(v);
    return x;
}

static bool is_dead(const fray_fight *f, int who) {
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    bool dead = strcmp(cf_view_of(v, who)->status, "dead") == 0;
    fray_fight_view_free(v);
    return dead;
}


static double counted(const fray_fight *f, int who, const char *command,
                      const char *outcome, fray_ratio want) {
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, who, command, c, &d), FRAY_OK, "%s: %s",
                 command, d.message);
    const fray_chance_outcome *o = cf_outcome(c->outcomes, c->n_outcomes, outcome);
    cr_expect(fray_ratio_equal(o->p, want), "%s: %s %.4f", command, outcome,
              o->share);
    cr_expect(c->n_damage == 1 && c->damage[0].amount[0] == 0, "no damage");
    cr_expect(c->p_drop < 0, "not ranked");
    double p = o->share;
    free(c);
    return p;
}

static void agree(int hits, double p, const char *what) {
    double share = (double)hits / N, tol = cf_tolerance(p, N);
    cr_expect(fabs(share - p) <= tol, "%s after %.4f of %d, the chances say "
              "%.4f (tolerance %.4f)", what, share, N, p, tol);
}

/* 004:509: Vance (Str 14: +2, attack 3, no weapon, no proficiency) bull
 * rushes Lyra (Fortitude 13): d20+5 against 13, 13/20; pushed straight
 * away to 3,1 (aid_yard). Played N times: Lyra stands at x 3 as often. */
Test(chances_alloy_moves, bull_rush_equals_fray_odds_roll_and_the_fight_api) {
    fray_setup *s = cf_load(AID);
    fray_fight *f = cf_given(s, 1, vance_first, 3);
    int v = cf_who(f, "vance"), l = cf_who(f, "lyra");
    double p = counted(f, v, "bull-rush lyra", "pushed", cf_odds_hit(5, 13));
    cr_expect(fabs(p - 0.65) < 1e-12);
    fray_chances c;
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, v, "bull-rush lyra", &c, &d), FRAY_OK);
    cr_expect(strstr(c.assumed, "pushes Lyra to 3,1") != NULL, "%s", c.assumed);
    fray_fight_free(f);
    int pushed = 0;
    for (int i = 0; i < N; i++) {
        fray_fight *g = cf_given(s, 1000 + (uint64_t)i, vance_first, 3);
        cf_command(g, "vance bull-rush lyra");
        pushed += x_of(g, l) == 3;
        fray_fight_free(g);
    }
    agree(pushed, p, "Lyra pushed");
    fray_setup_free(s);
}

/* 004:523-525: a charge to 5,1 ending in a bull rush on Lyra: d20+5+1
 * against 13, 14/20; pushed to 7,1. Played N times through the fight API. */
Test(chances_alloy_moves, charge_ending_in_a_bull_rush) {
    fray_setup *s = cf_load(YARD);
    fray_fight *f = cf_given(s, 1, vance_first, 2);
    int v = cf_who(f, "vance"), l = cf_who(f, "lyra");
    double p = counted(f, v, "charge lyra 5,1 bull-rush", "pushed", cf_odds_hit(6, 13));
    cr_expect(fabs(p - 0.7) < 1e-12);
    fray_chances c;
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, v, "charge lyra 5,1 bull-rush", &c, &d),
                 FRAY_OK);
    cr_expect(strstr(c.modifiers, "charge +1") != NULL, "%s", c.modifiers);
    cr_expect(strstr(c.title, "Charge to 5,1") != NULL, "%s", c.title);
    /* a charge ending two squares away cannot bull rush */
    cr_expect_eq(fray_action_chances(f, v, "charge lyra 4,1 bull-rush", &c, &d),
                 FRAY_ERR_INVALID);
    fray_fight_free(f);
    int pushed = 0;
    for (int i = 0; i < N; i++) {
        fray_fight *g = cf_given(s, 1000 + (uint64_t)i, vance_first, 2);
        cf_command(g, "vance charge lyra 5,1 bull-rush");
        pushed += x_of(g, l) == 7;
        fray_fight_free(g);
    }
    agree(pushed, p, "Lyra pushed by the charge");
    fray_setup_free(s);
}

/* Vance grapples Lyra on his turn, then it is hers: the first seed from
 * `seed` on whose grapple roll hits (the rest of its dice drawn). */
static fray_fight *grappled(const fray_setup *s, uint64_t seed, int l) {
    for (uint64_t k = seed;; k++) {
        fray_fight *f = cf_given(s, k, vance_first, 2);
        cf_command(f, "vance grapple lyra");
        if (cf_has_condition(f, l, "grappled")) {
            cf_command(f, "next");
            return f;
        }
        fray_fight_free(f);
    }
}

/* 004:599: Vance has grappled Lyra; on her turn she escapes: Acrobatics 6
 * against his Reflex 15 (better than Athletics, her Strength's +1,
 * against Fortitude 14): d20+6 at least 15, 12/20; Athletics named: d20+1
 * at least 14, 8/20. Played N times through the fight API: free as often. */
Test(chances_alloy_moves, escape_equals_fray_odds_roll_and_the_fight_api) {
    fray_setup *s = cf_load(DUEL);
    fray_fight *f = cf_given(s, 1, vance_first, 2);
    int l = cf_who(f, "lyra");
    fray_chances c;
    fray_diag d;
    cr_expect_eq(fray_action_chances(f, l, "escape", &c, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "not grappled") != NULL, "%s", d.message);
    fray_fight_free(f);
    f = grappled(s, 1, l);
    double p = counted(f, l, "escape", "escapes", cf_odds_check(6, 15));
    cr_expect(fabs(p - 0.6) < 1e-12);
    counted(f, l, "escape athletics", "escapes", cf_odds_check(1, 14));
    /* odds lyra (issue 19): the escape listed, after the
     * attacks, with the same chance. */
    fray_chances_list all;
    cr_assert_eq(fray_chances_all(f, l, NULL, &all, &d), FRAY_OK, "%s", d.message);
    int listed = 0;
    for (int i = 0; i < all.n; i++)
        if (strcmp(all.items[i].command, "escape") == 0) {
            listed++;
            cr_expect(all.items[i].p_success == p);
            for (int k = i + 1; k < all.n; k++)
                cr_expect(all.items[k].p_drop < 0, "%s", all.items[k].command);
        }
    cr_expect_eq(listed, 1);
    fray_chances_list_free(&all);
    fray_fight_free(f);
    int free_again = 0;
    uint64_t seed = 1000;
    for (int i = 0; i < N; i++) {
        fray_fight *g = grappled(s, seed, l);
        seed += 1000003; /* apart from the seeds tried before */
        cf_command(g, "lyra escape");
        free_again += !cf_has_condition(g, l, "grappled");
        fray_fight_free(g);
    }
    agree(free_again, p, "Lyra free");
    fray_setup_free(s);
}

/* 004:428: Vance aids Brutus's attack on Lyra: his baton's basic attack
 * (attack 3, Str +2, proficiency 2: +7) against Defense 10, her own
 * modifiers not counted: d20+7 at least 10, a natural 1 missing: 18/20;
 * his aid on Brutus's Athletics (004:429): d20+5 at least 10, 16/20.
 * Played N times: Brutus's aided attack as often. */
Test(chances_alloy_moves, aid_another_equals_fray_odds_roll_and_the_fight_api) {
    fray_setup *s = cf_load(AID);
    fray_fight *f = cf_given(s, 1, vance_first, 3);
    int v = cf_who(f, "vance"), b = cf_who(f, "brutus");
    double p = counted(f, v, "aid brutus attack against lyra", "aids",
                       cf_odds_hit(7, 10));
    cr_expect(fabs(p - 0.9) < 1e-12);
    counted(f, v, "aid brutus defense against lyra", "aids", cf_odds_hit(7, 10));
    double pc = counted(f, v, "aid brutus athletics", "aids", cf_odds_check(5, 10));
    cr_expect(fabs(pc - 0.8) < 1e-12);
    fray_fight_free(f);
    int aided = 0, checked = 0;
    for (int i = 0; i < N; i++) {
        fray_fight *g = cf_given(s, 1000 + (uint64_t)i, vance_first, 3);
        cf_command(g, "vance aid brutus attack against lyra");
        aided += cf_has_condition(g, b, "aided attack");
        fray_fight_free(g);
        g = cf_given(s, 50000 + (uint64_t)i, vance_first, 3);
        cf_command(g, "vance aid brutus athletics");
        checked += cf_has_condition(g, b, "aided check");
        fray_fight_free(g);
    }
    agree(aided, p, "Brutus's aided attack");
    agree(checked, pc, "Brutus's aided check");
    fray_setup_free(s);
}

/* 004:546-549: Lyra's coup de grace on a helpless Vance (28 hit points)
 * with her sword: the attack roll of her basic attack on him (the same
 * line and modifiers: its miss the same), every hit a critical: the
 * damage's most (9) plus the crit die 1d8, 10 to 17; half his maximum
 * (14) or more kills him: 4 of the 8. Played N times through the fight
 * API: Vance dead as often, and the damage dealt each amount as often. */
Test(chances_alloy_moves, coup_de_grace_equals_the_attack_and_the_fight_api) {
    fray_setup *s = cf_load(DUEL);
    fray_fight *f = cf_given(s, 1, lyra_first, 2);
    int v = cf_who(f, "vance"), l = cf_who(f, "lyra");
    fray_chances *c = malloc(sizeof *c), *a = malloc(sizeof *a);
    cr_assert(c && a);
    fray_diag d;
    cr_expect_eq(fray_action_chances(f, l, "coup vance", c, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "not helpless") != NULL, "%s", d.message);
    cf_command(f, "gm condition vance helpless on");
    cr_assert_eq(fray_action_chances(f, l, "coup vance", c, &d), FRAY_OK, "%s",
                 d.message);
    cr_assert_eq(fray_action_chances(f, l, "attack vance", a, &d), FRAY_OK, "%s",
                 d.message);
    const fray_chance_outcome *miss = cf_outcome(c->outcomes, c->n_outcomes, "miss");
    cr_expect(fray_ratio_equal(miss->p, cf_outcome(a->outcomes, a->n_outcomes,
                                                   "miss")->p));
    fray_ratio hit = fray_ratio_one_minus(miss->p);
    double ph = fray_ratio_to_double(hit);
    double pk = cf_outcome(c->outcomes, c->n_outcomes, "killed")->share;
    cr_expect(fabs(pk - ph * 0.5) < 1e-12, "killed %.4f", pk);
    cr_expect_eq(c->n_damage, 9, "none, then 10 to 17");
    for (int i = 1; i < c->n_damage; i++) {
        cr_expect_eq(c->damage[i].amount[0], 9 + i);
        cr_expect(fabs(c->damage[i].share - ph / 8) < 1e-12);
    }
    cr_expect(fabs(c->p_drop - pk) < 1e-12, "up at 28: out only when killed");
    /* odds ID ranks it (issue 19: every option ranked), with the numbers
     * of the command asked alone; no coup on a foe that is not helpless */
    fray_chances_list list;
    memset(&list, 0, sizeof list);
    cr_assert_eq(fray_chances_all(f, l, NULL, &list, &d), FRAY_OK, "%s", d.message);
    int coups = 0;
    for (int i = 0; i < list.n; i++)
        if (strcmp(list.items[i].command, "coup vance") == 0) {
            coups++;
            cr_expect(fabs(list.items[i].p_drop - c->p_drop) < 1e-12);
            cr_expect_eq(list.items[i].n_damage, c->n_damage);
        }
    cr_expect_eq(coups, 1, "the coup de grace ranked once");
    fray_chances_list_free(&list);
    cf_command(f, "gm condition vance helpless off");
    memset(&list, 0, sizeof list);
    cr_assert_eq(fray_chances_all(f, l, NULL, &list, &d), FRAY_OK, "%s", d.message);
    for (int i = 0; i < list.n; i++)
        cr_expect(strncmp(list.items[i].command, "coup", 4) != 0, "%s", list.items[i].command);
    fray_chances_list_free(&list);
    fray_fight_free(f);
    int killed = 0, dealt[18] = {0};
    for (int i = 0; i < N; i++) {
        fray_fight *g = cf_given(s, 1000 + (uint64_t)i, lyra_first, 2);
        cf_command(g, "gm condition vance helpless on");
        cf_command(g, "lyra coup vance");
        killed += is_dead(g, v);
        fray_fight_view *vw = NULL;
        cr_assert_eq(fray_fight_view_new(g, NULL, &vw), FRAY_OK);
        int amount = 28 - cf_view_of(vw, v)->tracks[0].value;
        fray_fight_view_free(vw);
        cr_assert(amount == 0 || (amount >= 10 && amount <= 17), "%d", amount);
        dealt[amount]++;
        fray_fight_free(g);
    }
    agree(killed, pk, "Vance killed");
    agree(dealt[0], miss->share, "no damage");
    for (int k = 10; k <= 17; k++)
        agree(dealt[k], ph / 8, "that amount dealt");
    free(c);
    free(a);
    fray_setup_free(s);
}

/* 004:1037 (damage.c: a Withered attacker's damage halved, rounded down)
 * in a coup de grace (issue 19): Lyra Withered deals 10 to 17
 * halved, 5 to 8, each 2/8 of the hits; half of Vance's 28 is never
 * dealt: never killed (p_drop 0). Played N times through the fight API:
 * each amount as often, Vance never dead. */
Test(chances_alloy_moves, coup_de_grace_by_a_withered_attacker_deals_half) {
    fray_setup *s = cf_load(DUEL);
    fray_fight *f = cf_given(s, 1, lyra_first, 2);
    int v = cf_who(f, "vance"), l = cf_who(f, "lyra");
    cf_command(f, "gm condition vance helpless on");
    cf_command(f, "gm condition lyra withered on");
    fray_chances *c = malloc(sizeof *c), *a = malloc(sizeof *a);
    cr_assert(c && a);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, l, "coup vance", c, &d), FRAY_OK, "%s",
                 d.message);
    cr_assert_eq(fray_action_chances(f, l, "attack vance", a, &d), FRAY_OK, "%s",
                 d.message);
    const fray_chance_outcome *miss = cf_outcome(c->outcomes, c->n_outcomes, "miss");
    cr_expect(fray_ratio_equal(miss->p, cf_outcome(a->outcomes, a->n_outcomes,
                                                   "miss")->p));
    double ph = 1 - miss->share;
    cr_expect_eq(cf_outcome(c->outcomes, c->n_outcomes, "killed")->share, 0);
    cr_expect_eq(c->p_drop, 0);
    cr_assert_eq(c->n_damage, 5, "none, then 5 to 8");
    double mean = 0;
    for (int i = 1; i < c->n_damage; i++) {
        cr_expect_eq(c->damage[i].amount[0], 4 + i);
        cr_expect(fabs(c->damage[i].share - ph / 4) < 1e-12);
        mean += (4 + i) * ph / 4;
    }
    cr_expect(fabs(c->expected[0] - mean) < 1e-12);
    cr_expect(strstr(c->assumed, "halved (Withered)") != NULL, "%s", c->assumed);
    cr_expect(strstr(c->assumed, "not counted") == NULL, "%s", c->assumed);
    fray_fight_free(f);
    int dead = 0, dealt[9] = {0};
    for (int i = 0; i < N; i++) {
        fray_fight *g = cf_given(s, 3000 + (uint64_t)i, lyra_first, 2);
        cf_command(g, "gm condition vance helpless on");
        cf_command(g, "gm condition lyra withered on");
        cf_command(g, "lyra coup vance");
        dead += is_dead(g, v);
        int amount = 28 - cf_hp_of(g, v);
        cr_assert(amount == 0 || (amount >= 5 && amount <= 8), "%d", amount);
        dealt[amount]++;
        fray_fight_free(g);
    }
    cr_expect_eq(dead, 0, "half of 28 is never dealt");
    agree(dealt[0], miss->share, "no damage");
    for (int k = 5; k <= 8; k++)
        agree(dealt[k], ph / 4, "that amount dealt");
    free(c);
    free(a);
    fray_setup_free(s);
}

/* 004:1037 in an ordinary attack: Lyra's basic attack on Vance, Withered,
 * deals each amount of the same attack unwithered halved, rounded down
 * (the amounts that halve alike added together); played N times through
 * the fight API, each amount as often (4.5 standard errors). */
Test(chances_alloy_moves, attack_by_a_withered_attacker_deals_half) {
    fray_setup *s = cf_load(DUEL);
    fray_fight *f = cf_given(s, 1, lyra_first, 2);
    int v = cf_who(f, "vance"), l = cf_who(f, "lyra");
    fray_chances *whole = malloc(sizeof *whole), *half = malloc(sizeof *half);
    cr_assert(whole && half);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, l, "attack vance", whole, &d), FRAY_OK);
    cf_command(f, "gm condition lyra withered on");
    cr_assert_eq(fray_action_chances(f, l, "attack vance", half, &d), FRAY_OK);
    double want[64] = {0};
    for (int i = 0; i < whole->n_damage; i++) {
        int a = whole->damage[i].amount[0];
        cr_assert(a >= 0 && a / 2 < 64);
        want[a / 2] += whole->damage[i].share;
    }
    int rows = 0;
    for (int k = 0; k < 64; k++)
        rows += want[k] > 0;
    cr_expect_eq(half->n_damage, rows);
    for (int i = 0; i < half->n_damage; i++) {
        int a = half->damage[i].amount[0];
        cr_expect(fabs(half->damage[i].share - want[a]) < 1e-12, "%d", a);
    }
    cr_expect(half->expected[0] < whole->expected[0] / 2 + 1e-12);
    cr_expect(strstr(half->assumed, "Withered") != NULL, "%s", half->assumed);
    fray_fight_free(f);
    int dealt[64] = {0};
    for (int i = 0; i < N; i++) {
        fray_fight *g = cf_given(s, 9000 + (uint64_t)i, lyra_first, 2);
        cf_command(g, "gm condition lyra withered on");
        cf_command(g, "lyra attack vance");
        int amount = 28 - cf_hp_of(g, v);
        cr_assert(amount >= 0 && amount < 64 && want[amount] > 0, "%d", amount);
        dealt[amount]++;
        fray_fight_free(g);
    }
    for (int k = 0; k < 64; k++)
        if (want[k] > 0)
            agree(dealt[k], want[k], "that amount dealt");
    free(whole);
    free(half);
    fray_setup_free(s);
}

/* What stays refused: a bull rush on someone not adjacent, aid without an
 * ally, a coup on someone far off: in words. */
Test(chances_alloy_moves, refusals) {
    fray_setup *s = cf_load(YARD);
    fray_fight *f = cf_given(s, 1, vance_first, 2);
    int v = cf_who(f, "vance");
    fray_chances c;
    fray_diag d;
    cr_expect_eq(fray_action_chances(f, v, "bull-rush lyra", &c, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "adjacent") != NULL, "%s", d.message);
    cr_expect_neq(fray_action_chances(f, v, "aid lyra attack against lyra", &c, &d),
                  FRAY_OK);
    cr_expect(d.message[0] != '\0');
    cf_command(f, "gm condition lyra helpless on");
    cr_expect_eq(fray_action_chances(f, v, "coup lyra", &c, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "adjacent") != NULL, "%s", d.message);
    fray_fight_free(f);
    fray_setup_free(s);
}
