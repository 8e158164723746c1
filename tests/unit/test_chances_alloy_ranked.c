/*
 * test_chances_alloy_ranked.c - issue 19 ("for any legal action a
 * combatant can take now ... the exact probability of each outcome"):
 * what `odds ID` ranks in Alloy besides the attacks and the actions of
 * test_chances_ranked.c (docs/rules/odds-at-the-table.md "Ranking"):
 *   - a bull rush to each other square the engine allows (004:510-512:
 *     next to the target, away from the pusher, with room);
 *   - a disarm with `take` by an empty-handed attacker (004:445);
 *   - aid on the check a grappled ally makes to escape (004:429, 599);
 *   - Notice as a move action, and aid on an ally's Notice, when a foe is
 *     lost in the dark (004:898; the encounter's notice-dc).
 * Each listed entry equals the command asked alone and `fray odds roll`
 * for the same roll (cf_odds_hit, cf_odds_check), and the command played
 * N times through the ordinary fight API with the dice drawn succeeds as
 * often as the chances say (4.5 standard errors).
 */
#include <stdio.h>
#include <stdlib.h>

#include "chances_fixture.h"
#include "fray/view.h"

#define AID FRAY_SOURCE_DIR "/tests/data/alloy/aid_yard.yaml"
#define RANK FRAY_SOURCE_DIR "/tests/data/alloy/rank_yard.yaml"

enum { N = 4000 };

/* The initiative in the files' order: Vance 13 + 2, Brutus 5 + 1, Lyra
 * 8 + 3: Vance, then Lyra, then Brutus. */
static const int vance_first[3] = {13, 5, 8};

/* The entry of list l whose command is c, NULL when it is not listed. */
static const fray_chances *listed(const fray_chances_list *l, const char *c) {
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->items[i].command, c) == 0)
            return &l->items[i];
    return NULL;
}

static int count_prefix(const fray_chances_list *l, const char *prefix) {
    int n = 0;
    for (int i = 0; i < l->n; i++)
        n += strncmp(l->items[i].command, prefix, strlen(prefix)) == 0;
    return n;
}

/* The entry for c in who's list: listed, no damage, ranked after every
 * attack, its chance the command's asked alone and `want` exactly. */
static double ranked_as_alone(const fray_fight *f, const fray_chances_list *l,
                              int who, const char *c, fray_ratio want) {
    const fray_chances *e = listed(l, c);
    cr_assert(e != NULL, "'%s' is not listed", c);
    cr_expect(e->p_drop < 0 && e->n_damage == 1 && e->damage[0].amount[0] == 0,
              "%s: no damage", c);
    for (const fray_chances *k = e + 1; k < l->items + l->n; k++)
        cr_expect(k->p_drop < 0, "%s listed after %s", k->command, c);
    fray_chances *alone = malloc(sizeof *alone);
    cr_assert(alone);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, who, c, alone, &d), FRAY_OK, "%s: %s", c,
                 d.message);
    cr_assert_eq(alone->n_outcomes, 2);
    cr_expect(fray_ratio_equal(alone->outcomes[1].p, want), "%s: %.4f", c,
              alone->outcomes[1].share);
    cr_expect(e->p_success == alone->p_success, "%s: listed %.4f, alone %.4f", c,
              e->p_success, alone->p_success);
    cr_expect_str_eq(e->title, alone->title);
    double p = alone->p_success;
    free(alone);
    return p;
}

static void agree(int hits, double p, const char *what) {
    double share = (double)hits / N, tol = cf_tolerance(p, N);
    cr_expect(fabs(share - p) <= tol, "%s after %.4f of %d, the chances say "
              "%.4f (tolerance %.4f)", what, share, N, p, tol);
}

static void square_of(const fray_fight *f, int who, int *x, int *y) {
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    *x = cf_view_of(v, who)->x;
    *y = cf_view_of(v, who)->y;
    fray_fight_view_free(v);
}

/* 004:510-512, aid_yard (Vance 1,1, Lyra 2,1, Brutus 1,2): Vance's bull
 * rush on Lyra may push her to 3,0, 3,1 or 3,2 (next to her, away from
 * him; 2,0 and 2,2 are next to him, 1,0 too). `bull-rush lyra` is the
 * engine's pick, straight away (3,1); 3,0 and 3,2 are listed by name,
 * each d20+5 against Fortitude 13 (13/20), the same roll. Played N times
 * to 3,0: Lyra stands there as often. */
Test(chances_alloy_ranked, bull_rush_to_each_square_the_engine_allows) {
    fray_setup *s = cf_load(AID);
    fray_fight *f = cf_given(s, 1, vance_first, 3);
    int v = cf_who(f, "vance"), l = cf_who(f, "lyra");
    fray_chances_list all;
    fray_diag d;
    cr_assert_eq(fray_chances_all(f, v, NULL, &all, &d), FRAY_OK, "%s", d.message);
    cr_expect_eq(count_prefix(&all, "bull-rush lyra"), 3,
                 "the engine's pick and two squares named");
    double p = ranked_as_alone(f, &all, v, "bull-rush lyra", cf_odds_hit(5, 13));
    double p0 = ranked_as_alone(f, &all, v, "bull-rush lyra 3,0", cf_odds_hit(5, 13));
    ranked_as_alone(f, &all, v, "bull-rush lyra 3,2", cf_odds_hit(5, 13));
    cr_expect(p == p0 && fabs(p0 - 0.65) < 1e-12);
    cr_expect_str_eq(listed(&all, "bull-rush lyra 3,0")->title, "Bull rush Lyra to 3,0");
    cr_expect(listed(&all, "bull-rush lyra 3,1") == NULL, "the engine's pick once");
    fray_chances_list_free(&all);
    /* next to Vance: not away from him (004:512), refused in words */
    fray_chances c;
    cr_expect_eq(fray_action_chances(f, v, "bull-rush lyra 2,0", &c, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "away from Vance") != NULL, "%s", d.message);
    fray_fight_free(f);
    int there = 0;
    for (int i = 0; i < N; i++) {
        fray_fight *g = cf_given(s, 3000 + (uint64_t)i, vance_first, 3);
        cf_command(g, "vance bull-rush lyra 3,0");
        int x, y;
        square_of(g, l, &x, &y);
        there += x == 3 && y == 0;
        fray_fight_free(g);
    }
    agree(there, p0, "Lyra pushed to 3,0");
    fray_setup_free(s);
}

/* 004:440, 445, rank_yard: Brutus, empty-handed, may disarm Lyra and hold
 * her weapon: his unarmed attack (attack 4, Str +3) against Fortitude 13,
 * 15/20, listed beside the plain disarm; Vance, baton in hand, has no
 * `take`. Played N times on Brutus's turn: the sword in Brutus's hand as
 * often. */
Test(chances_alloy_ranked, disarm_and_take_by_an_empty_hand) {
    fray_setup *s = cf_load(RANK);
    fray_fight *f = cf_given(s, 1, vance_first, 3);
    int v = cf_who(f, "vance"), b = cf_who(f, "brutus");
    fray_chances_list all;
    fray_diag d;
    cr_assert_eq(fray_chances_all(f, v, NULL, &all, &d), FRAY_OK, "%s", d.message);
    cr_expect(listed(&all, "disarm lyra take") == NULL, "Vance holds his baton");
    cr_expect(listed(&all, "disarm lyra") != NULL);
    fray_chances_list_free(&all);
    cf_command(f, "next"); /* Lyra's turn */
    cf_command(f, "next"); /* Brutus's */
    cr_assert_eq(fray_chances_all(f, b, NULL, &all, &d), FRAY_OK, "%s", d.message);
    double p = ranked_as_alone(f, &all, b, "disarm lyra take", cf_odds_hit(7, 13));
    cr_expect(fabs(p - 0.75) < 1e-12);
    cr_expect(listed(&all, "disarm lyra")->p_success == p);
    fray_chances_list_free(&all);
    fray_fight_free(f);
    int taken = 0;
    for (int i = 0; i < N; i++) {
        fray_fight *g = cf_given(s, 9000 + (uint64_t)i, vance_first, 3);
        cf_command(g, "next");
        cf_command(g, "next");
        cf_command(g, "brutus disarm lyra take");
        fray_fight_view *view = NULL;
        cr_assert_eq(fray_fight_view_new(g, NULL, &view), FRAY_OK);
        const fray_view_combatant *bc = cf_view_of(view, b);
        bool holds = false;
        for (int k = 0; k < bc->n_weapons; k++)
            holds |= strstr(bc->weapons[k], "word") != NULL;
        taken += holds;
        fray_fight_view_free(view);
        fray_fight_free(g);
    }
    agree(taken, p, "Brutus holding Lyra's sword");
    fray_setup_free(s);
}

/* Lyra grapples Brutus on her turn (the first seed from `seed` on whose
 * grapple roll hits), then Brutus's turn passes: round 2, Vance's turn. */
static fray_fight *brutus_held(const fray_setup *s, uint64_t *seed, int b) {
    for (;; ++*seed) {
        fray_fight *f = cf_given(s, *seed, vance_first, 3);
        cf_command(f, "next");
        cf_command(f, "lyra grapple brutus");
        if (cf_has_condition(f, b, "grappled")) {
            cf_command(f, "next");
            cf_command(f, "next");
            ++*seed;
            return f;
        }
        fray_fight_free(f);
    }
}

/* 004:429, 599, rank_yard: Brutus is grappled; his escape would be
 * Athletics (+7) against Lyra's Fortitude 13 rather than Acrobatics
 * against her Reflex 16. Vance, next to him, is offered the aid on that
 * check: his Athletics +5 against DC 10, 16/20; not on Acrobatics. Played
 * N times: Brutus's check aided as often. */
Test(chances_alloy_ranked, aid_on_a_grappled_allys_escape) {
    fray_setup *s = cf_load(RANK);
    int b = -1;
    {
        fray_fight *f0 = cf_given(s, 1, vance_first, 3);
        b = cf_who(f0, "brutus");
        fray_chances_list all;
        fray_diag d;
        cr_assert_eq(fray_chances_all(f0, cf_who(f0, "vance"), NULL, &all, &d), FRAY_OK);
        cr_expect(listed(&all, "aid brutus athletics") == NULL, "Brutus is free");
        fray_chances_list_free(&all);
        fray_fight_free(f0);
    }
    uint64_t seed = 1;
    fray_fight *f = brutus_held(s, &seed, b);
    int v = cf_who(f, "vance");
    cr_assert(cf_has_condition(f, b, "grappled"), "still held on Vance's turn");
    fray_chances_list all;
    fray_diag d;
    cr_assert_eq(fray_chances_all(f, v, NULL, &all, &d), FRAY_OK, "%s", d.message);
    double p = ranked_as_alone(f, &all, v, "aid brutus athletics", cf_odds_check(5, 10));
    cr_expect(fabs(p - 0.8) < 1e-12);
    cr_expect(listed(&all, "aid brutus acrobatics") == NULL, "the escape's skill only");
    fray_chances_list_free(&all);
    fray_fight_free(f);
    int aided = 0;
    seed = 20000;
    for (int i = 0; i < N; i++) {
        fray_fight *g = brutus_held(s, &seed, b);
        cf_command(g, "vance aid brutus athletics");
        aided += cf_has_condition(g, b, "aided check");
        fray_fight_free(g);
    }
    agree(aided, p, "Brutus's escape aided");
    fray_setup_free(s);
}

/* 004:898 (L7.16), rank_yard: Lyra shifts into the dark; her side's
 * foes lost her. Brutus is offered Notice as a move action against
 * notice-dc 15 (his Notice +0: 6/20) and the aid on Vance's Notice (DC
 * 10: 11/20); Vance his own (+3: 9/20) and the aid on Brutus's (14/20).
 * Before she moves neither is listed. Played N times: Brutus's Notice
 * finds her (nothing more to find: Vance's list offers no Notice again)
 * as often. */
Test(chances_alloy_ranked, notice_when_a_foe_is_lost) {
    fray_setup *s = cf_load(RANK);
    fray_fight *f = cf_given(s, 1, vance_first, 3);
    int v = cf_who(f, "vance"), b = cf_who(f, "brutus");
    fray_chances_list all;
    fray_diag d;
    cr_assert_eq(fray_chances_all(f, v, NULL, &all, &d), FRAY_OK, "%s", d.message);
    cr_expect(count_prefix(&all, "skill ") == 0 && listed(&all, "aid brutus notice") == NULL,
              "nobody lost yet");
    fray_chances_list_free(&all);
    cf_command(f, "next");
    cf_command(f, "lyra shift 3,1");
    cf_command(f, "next"); /* Brutus's turn */
    cr_assert_eq(fray_chances_all(f, b, NULL, &all, &d), FRAY_OK, "%s", d.message);
    double p = ranked_as_alone(f, &all, b, "skill notice move", cf_odds_check(0, 15));
    ranked_as_alone(f, &all, b, "aid vance notice", cf_odds_check(0, 10));
    fray_chances_list_free(&all);
    cr_assert_eq(fray_chances_all(f, v, NULL, &all, &d), FRAY_OK, "%s", d.message);
    ranked_as_alone(f, &all, v, "skill notice move", cf_odds_check(3, 15));
    ranked_as_alone(f, &all, v, "aid brutus notice", cf_odds_check(3, 10));
    fray_chances_list_free(&all);
    fray_fight_free(f);
    int found = 0;
    for (int i = 0; i < N; i++) {
        fray_fight *g = cf_given(s, 40000 + (uint64_t)i, vance_first, 3);
        cf_command(g, "next");
        cf_command(g, "lyra shift 3,1");
        cf_command(g, "next");
        cf_command(g, "brutus skill notice move");
        /* Vance's list (as if his turn came now: his move action
         * unspent) says whether his side still has a foe to find. */
        cr_assert_eq(fray_chances_all(g, v, NULL, &all, &d), FRAY_OK, "%s", d.message);
        found += listed(&all, "skill notice move") == NULL;
        fray_chances_list_free(&all);
        fray_fight_free(g);
    }
    agree(found, p, "Lyra found");
    fray_setup_free(s);
}

/* 004:898 (L7.16; attack.c's attack_one), rank_yard: with Lyra lost in
 * the dark, an attack goes to the square Vance's side last saw her on
 * (2,1) and misses with nothing rolled. The chances refuse it in those
 * words (no hit counted that cannot happen) and `odds vance` lists no
 * attack on her; played through the fight API on Vance's next turn, the
 * charge to 3,0 never hurts her. */
Test(chances_alloy_ranked, no_attack_counted_on_a_foe_where_it_is_not) {
    fray_setup *s = cf_load(RANK);
    fray_fight *f = cf_given(s, 1, vance_first, 3);
    int v = cf_who(f, "vance"), l = cf_who(f, "lyra");
    fray_chances c;
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, v, "charge lyra 3,0", &c, &d), FRAY_OK,
                 "%s", d.message); /* counted while she is seen */
    cf_command(f, "next");
    cf_command(f, "lyra shift 3,1");
    cf_command(f, "next");
    cr_expect_eq(fray_action_chances(f, v, "charge lyra 3,0", &c, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "last saw it (2,1)") != NULL, "%s", d.message);
    fray_chances_list all;
    cr_assert_eq(fray_chances_all(f, v, NULL, &all, &d), FRAY_OK, "%s", d.message);
    cr_expect(count_prefix(&all, "attack lyra") == 0 && count_prefix(&all, "charge lyra") == 0,
              "no attack on Lyra listed");
    fray_chances_list_free(&all);
    fray_fight_free(f);
    for (int i = 0; i < 200; i++) {
        fray_fight *g = cf_given(s, 60000 + (uint64_t)i, vance_first, 3);
        cf_command(g, "next");
        cf_command(g, "lyra shift 3,1");
        cf_command(g, "next");
        cf_command(g, "next"); /* round 2: Vance's turn */
        cf_command(g, "vance charge lyra 3,0");
        cr_expect_eq(cf_hp_of(g, l), 26, "seed %d: Lyra hurt by an attack on 2,1", i);
        fray_fight_free(g);
    }
    fray_setup_free(s);
}
