/*
 * test_d6_chances.c - D6 at the table (issues 18 and 19, src/rules/d6/
 * chances.c): the exact chances of an attack equal the exact odds of the
 * same codes (d6_odds.h, what `fray odds d6` prints), and a Monte Carlo of
 * the same command played through the fight API from the same state
 * agrees within 4.5 standard errors of its sample.
 */
#include <math.h>

#include "d6_fixture.h"
#include "d6_odds.h"
#include "fray/chances.h"

/* Initiative dice by hand so that combatant 0 acts first: its Acumen
 * (3D) rolls 5 5 5, the other's (2D+2 or 2D+1: two dice) 2 2, the rest 2 2
 * (n dice of 2 after the first three). */
static int first_dice[64];
static size_t first_n(const d6_setup *s) {
    size_t n = 0;
    for (int i = 0; i < s->n; i++) {
        int k = s->c[i].b.attr[D6_ACUMEN].dice;
        for (int j = 0; j < k; j++)
            first_dice[n++] = i == 0 ? 5 : 2;
    }
    return n;
}

static double exact_hit(d6_code skill, int difficulty) {
    d6_success_query q;
    memset(&q, 0, sizeof q);
    q.skill = skill;
    q.difficulty = difficulty;
    q.floor = D6_DIFFICULTY_FLOOR;
    fray_bigratio r;
    cr_assert_eq(d6_odds_check(&q, NULL, &r), FRAY_OK);
    double v = r.value;
    fray_bigratio_free(&r);
    return v;
}

static void chances_of(fray_fight *f, int who, const char *cmd, fray_chances *c) {
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_action_chances(f, who, cmd, c, &diag), FRAY_OK, "%s: %s", cmd,
                 diag.message);
}

/* Core: the attack roll (melee 5D) against passive defense 10, floor 3:
 * p_success equals the exact odds of 5D against 10. */
Test(d6_chances, melee_hit_equals_exact_odds) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2; /* in reach of the sword */
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    fray_chances c;
    chances_of(f, 0, "attack brigand", &c);
    double p = exact_hit(d6_fx_code("5D"), 10);
    cr_assert_float_eq(c.p_success, p, 1e-12, "%g vs %g", c.p_success, p);
    cr_assert_float_eq(c.outcomes[0].share, 1 - p, 1e-12);
    cr_assert_str_eq(c.tracks[0], "Wound levels");
    /* two actions: each attack at -1D (core) */
    chances_of(f, 0, "attack brigand defend", &c);
    p = exact_hit(d6_fx_code("4D"), 10);
    cr_assert_float_eq(c.p_success, p, 1e-12, "%g vs %g", c.p_success, p);
    cr_assert(strstr(c.modifiers, "2 actions declared: -1D"), "%s", c.modifiers);
    fray_fight_free(f);
}

/* Core: a ranged attack at Medium range (+5) in light mist (+1D: +3),
 * marksmanship 5D: difficulty 18; against half cover +2D more (+6). */
Test(d6_chances, ranged_modifiers_equal_exact_odds) {
    d6_setup s;
    d6_fx_firefight(&s);
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    fray_chances c;
    chances_of(f, 0, "attack xbow-1", &c);
    double p = exact_hit(d6_fx_code("5D"), 18);
    cr_assert_float_eq(c.p_success, p, 1e-12, "%g vs %g", c.p_success, p);
    cr_assert(strstr(c.modifiers, "Medium range +5"), "%s", c.modifiers);
    /* a crossbowman (marksmanship 4D) on an archer in half cover */
    chances_of(f, 2, "attack archer-1", &c);
    p = exact_hit(d6_fx_code("4D"), 10 + 5 + 3 + 6);
    cr_assert_float_eq(c.p_success, p, 1e-12, "%g vs %g", c.p_success, p);
    cr_assert(strstr(c.modifiers, "half cover +2D"), "%s", c.modifiers);
    fray_fight_free(f);
}

/* The rules refuse it, the chances refuse it in rules words. */
Test(d6_chances, refused_in_rules_words) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2; /* in reach of the sword */
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    fray_chances c;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    d6_fx_st(f)->c[1].x = 30; /* out of reach of a sword */
    cr_assert_eq(fray_action_chances(f, 0, "attack brigand", &c, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "out of reach"), "%s", diag.message);
    cr_assert_eq(fray_action_chances(f, 0, "wait", &c, &diag), FRAY_ERR_INVALID);
    fray_fight_free(f);
}

/* Played through the fight API: trial t a fight with seed t, its
 * initiative given so that 0 acts first, the command's dice drawn. The
 * target's Wound levels raised and whether it is out, against the exact
 * chances, within 4.5 standard errors. */
static void monte_carlo(d6_setup *s, const char *cmd, int target, int trials) {
    fray_setup fs = d6_fx_setup(s);
    fray_fight *f0 = d6_fx_start(&fs, first_dice, first_n(s));
    fray_chances c;
    chances_of(f0, 0, cmd, &c);
    fray_fight_free(f0);
    bool wounds = s->o.health == D6_HEALTH_WOUNDS;
    int out = 0, zero = 0;
    double sum = 0;
    char text[96];
    snprintf(text, sizeof text, "%s %s", s->c[0].id, cmd);
    for (int t = 0; t < trials; t++) {
        fray_fight_options o = {.journal = false, .facts = false, .until = 0};
        fray_fight *f = NULL;
        fray_given g = {NULL, 0, first_dice, first_n(s), NULL};
        cr_assert_eq(fray_fight_new(&fs, (uint64_t)t + 1000, &o, &g, NULL, &f), FRAY_OK);
        d6_fx_ok(f, text, NULL, 0);
        const d6_cstate *ct = &d6_fx_st(f)->c[target];
        int amount = wounds ? ct->wound : s->c[target].b.body_points - ct->bp;
        out += d6_out(ct);
        zero += amount == 0;
        sum += amount;
        fray_fight_free(f);
    }
    double n = trials;
    double se = sqrt(c.p_drop * (1 - c.p_drop) / n) + 1 / n;
    cr_assert(fabs(out / n - c.p_drop) <= 4.5 * se, "%s: out %g vs %g", cmd, out / n,
              c.p_drop);
    double p0 = c.damage[0].amount[0] == 0 ? c.damage[0].share : 0;
    se = sqrt(p0 * (1 - p0) / n) + 1 / n;
    cr_assert(fabs(zero / n - p0) <= 4.5 * se, "%s: unhurt %g vs %g", cmd, zero / n, p0);
    double var = 0;
    for (int k = 0; k < c.n_damage; k++)
        var += c.damage[k].share * pow(c.damage[k].amount[0] - c.expected[0], 2);
    se = sqrt(var / n) + 1 / n;
    cr_assert(fabs(sum / n - c.expected[0]) <= 4.5 * se, "%s: mean %g vs %g", cmd, sum / n,
              c.expected[0]);
}

/* Core: one attack, Wound levels, the stay-up roll at Incapacitated. */
Test(d6_chances, one_attack_matches_play) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2; /* in reach of the sword */
    monte_carlo(&s, "attack brigand", 1, 20000);
}

/* Core: three attacks at -2D each, stopping when the target is out: the
 * chain over its Wound levels. */
Test(d6_chances, three_attacks_match_play) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2; /* in reach of the sword */
    monte_carlo(&s, "attack brigand actions 3", 1, 20000);
}

/* Core, health: body-points: Body Points lost against armour only. */
Test(d6_chances, body_points_match_play) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2; /* in reach of the sword */
    s.o.health = D6_HEALTH_BODY_POINTS;
    monte_carlo(&s, "attack brigand actions 2", 1, 20000);
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    fray_chances c;
    chances_of(f, 0, "attack brigand", &c);
    cr_assert_str_eq(c.tracks[0], "Body Points");
    fray_fight_free(f);
}

/* Issue 19: odds ID ranks every attack on every foe the rules allow now. */
Test(d6_chances, ranked_every_attack) {
    d6_setup s;
    d6_fx_brawl(&s);
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    fray_chances_list L;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_chances_all(f, 0, NULL, &L, &diag), FRAY_OK, "%s", diag.message);
    /* the thugs are 8 m and more away: out of a club's reach */
    cr_assert_eq(L.n, 0);
    fray_chances_list_free(&L);
    d6_state *st = d6_fx_st(f);
    for (int i = 2; i < 5; i++)
        st->c[i].x = 1, st->c[i].y = 0; /* all three in reach */
    cr_assert_eq(fray_chances_all(f, 0, NULL, &L, &diag), FRAY_OK, "%s", diag.message);
    cr_assert_eq(L.n, 9, "%d", L.n);
    for (int k = 1; k < L.n; k++)
        cr_assert(L.items[k - 1].p_drop >= L.items[k].p_drop - 1e-15);
    fray_chances_list_free(&L);
    fray_fight_free(f);
}

/* Core (waiting): one who waited may interrupt later in the round, its
 * action at -1D: the chances count it so (melee 5D less 1D against 10). */
Test(d6_chances, interrupt_after_wait_minus_one_die) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2; /* in reach of the sword */
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    d6_fx_ok(f, "knight wait", NULL, 0);
    fray_chances c;
    chances_of(f, 0, "attack brigand", &c);
    double p = exact_hit(d6_fx_code("4D"), 10);
    cr_assert_float_eq(c.p_success, p, 1e-12, "%g vs %g", c.p_success, p);
    cr_assert(strstr(c.modifiers, "interrupting after a wait -1D"), "%s", c.modifiers);
    fray_fight_free(f);
}
