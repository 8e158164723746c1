/* test_d6_code.c - the D6 die codes (src/rules/d6/code.c, d6_code.h):
 * parse, format, normal form, sums, Strength Damage and one roll with the
 * Wild Die under both `wild-one` settings (rulesets-checklists D-0, D6.4;
 * docs/rules/d6.md "Die codes"). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "d6_int.h"

static d6_code P(const char *t) {
    d6_code c = {-99, -99};
    cr_assert(d6_code_parse(t, &c), "'%s' should parse", t);
    return c;
}

static void same(d6_code c, int dice, int pips) {
    cr_assert(c.dice == dice && c.pips == pips, "got %dD%+d, want %dD%+d", c.dice,
              c.pips, dice, pips);
}

/* core: die codes xD+p, 3 pips make 1D (D-0 "Die codes") */
Test(d6_code, parse_and_normal_form) {
    same(P("4D"), 4, 0);
    same(P("4D+2"), 4, 2);
    same(P("3d-1"), 2, 2); /* one pip off 3D is 2D+2 */
    same(P("+1D"), 1, 0);
    same(P("-2D"), -2, 0);
    same(P("2"), 0, 2);
    same(P("-2"), 0, -2);
    same(P("1D+3"), 2, 0); /* 3 pips make 1D */
    same(d6_code_make(2, 5), 3, 2);
    same(d6_code_norm((d6_code){3, -4}), 1, 2);
    same(d6_code_add(P("4D+2"), P("-1D")), 3, 2);
    same(d6_code_add(P("2D+2"), P("2")), 3, 1);
    same(d6_code_add(P("1D"), P("-2D")), -1, 0);
    d6_code c;
    const char *bad[] = {"", "D", "4D+", "4X", "4D+2x", "abc", "+", "4DD", "99999D", NULL};
    for (int i = 0; bad[i]; i++)
        cr_assert_not(d6_code_parse(bad[i], &c), "'%s' should be refused", bad[i]);
    cr_assert_not(d6_code_parse(NULL, &c));
}

Test(d6_code, format) {
    const char *want[][2] = {{"4D+2", "4D+2"}, {"3D", "3D"}, {"1", "0D+1"},
                             {"-1D", "-1D"},   {"-2", "0D-2"}, {"3d-1", "2D+2"}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char buf[16];
        size_t n = d6_code_format(P(want[i][0]), buf, sizeof buf);
        cr_assert_str_eq(buf, want[i][1]);
        cr_assert_eq(n, strlen(want[i][1]));
    }
    char small[3];
    cr_assert_eq(d6_code_format(P("12D+2"), small, sizeof small), 5u, "the length it needs");
}

/* checklist D6.4 (core, Character Basics): "3D in Physique has a Strength
 * Damage of 2D"; "6D+2 in lifting has a Strength Damage of 3D" */
Test(d6_code, strength_damage_core_examples) {
    same(d6_strength_damage(P("3D")), 2, 0);
    same(d6_strength_damage(P("6D+2")), 3, 0);
    same(d6_strength_damage(P("2D+2")), 1, 0);
    same(d6_strength_damage(P("1D")), 1, 0);
    same(d6_strength_damage(P("0D+2")), 0, 0);
}

/* core: the skills' attributes (Character Basics) */
Test(d6_code, skill_attributes) {
    cr_assert_eq(d6_skill_attr[D6_SK_FIGHTING], D6_AGILITY);
    cr_assert_eq(d6_skill_attr[D6_SK_MELEE], D6_AGILITY);
    cr_assert_eq(d6_skill_attr[D6_SK_DODGE], D6_AGILITY);
    cr_assert_eq(d6_skill_attr[D6_SK_MARKSMANSHIP], D6_COORDINATION);
    cr_assert_eq(d6_skill_attr[D6_SK_THROWING], D6_COORDINATION);
    cr_assert_eq(d6_skill_attr[D6_SK_LIFTING], D6_PHYSIQUE);
    cr_assert_eq(d6_skill_attr[D6_SK_STAMINA], D6_PHYSIQUE);
    cr_assert_eq(d6_skill_attr[D6_SK_METTLE], D6_CHARISMA);
    cr_assert_eq(d6_skill_attr[D6_SK_SEARCH], D6_ACUMEN);
}

typedef struct given_dice {
    const int *v;
    int n, at;
} given_dice;

static int next_die(void *ctx) {
    given_dice *g = ctx;
    return g->at < g->n ? g->v[g->at++] : 0;
}

static d6_roll roll_given(const char *code, bool wild, d6_wild_one rule,
                          const int *dice, int n, int *used) {
    given_dice g = {dice, n, 0};
    d6_roll r;
    cr_assert(d6_roll_with(P(code), wild, rule, next_die, &g, &r));
    *used = g.at;
    return r;
}

/* core "Wild Die": a 6 adds and rolls again while it shows 6 (the Wild
 * Die first, then its re-rolls, then the other dice) */
Test(d6_code, wild_die_explodes) {
    int used;
    const int d[] = {6, 6, 2, 3, 4};
    d6_roll r = roll_given("3D+1", true, D6_WILD_ONE_CANCEL_HIGHEST, d, 5, &used);
    cr_assert_eq(used, 5);
    cr_assert_eq(r.total, 6 + 6 + 2 + 3 + 4 + 1);
    cr_assert_eq(r.explosions, 2);
    cr_assert_eq(r.wild_first, 6);
    cr_assert_not(r.wild_one);
}

/* core "Critical Failure", wild-one: cancel-highest (the default): the 1
 * and the highest other die count nothing */
Test(d6_code, wild_one_cancel_highest) {
    int used;
    const int d[] = {1, 5, 2, 4};
    d6_roll r = roll_given("4D+2", true, D6_WILD_ONE_CANCEL_HIGHEST, d, 4, &used);
    cr_assert_eq(r.total, 2 + 4 + 2);
    cr_assert(r.wild_one);
    const int one[] = {1};
    r = roll_given("1D", true, D6_WILD_ONE_CANCEL_HIGHEST, one, 1, &used);
    cr_assert_eq(r.total, 0, "the Wild Die alone cancels itself");
}

/* wild-one: complication: the 1 adds normally (the complication is told) */
Test(d6_code, wild_one_complication) {
    int used;
    const int d[] = {1, 5, 2, 4};
    d6_roll r = roll_given("4D+2", true, D6_WILD_ONE_COMPLICATION, d, 4, &used);
    cr_assert_eq(r.total, 1 + 5 + 2 + 4 + 2);
    cr_assert(r.wild_one);
}

/* Without a Wild Die (modifier dice, D7.11) a 6 does not roll again and a
 * 1 cancels nothing; dice below 0 roll nothing, the pips still add */
Test(d6_code, no_wild_die_and_negative_codes) {
    int used;
    const int d[] = {6, 1};
    d6_roll r = roll_given("2D", false, D6_WILD_ONE_CANCEL_HIGHEST, d, 2, &used);
    cr_assert_eq(r.total, 7);
    cr_assert_eq(used, 2);
    r = roll_given("0D+2", true, D6_WILD_ONE_CANCEL_HIGHEST, d, 0, &used);
    cr_assert_eq(r.total, 2);
    cr_assert_eq(used, 0);
    const int bad[] = {7};
    given_dice g = {bad, 1, 0};
    d6_roll rr;
    cr_assert_not(d6_roll_with(P("1D"), true, D6_WILD_ONE_CANCEL_HIGHEST, next_die, &g, &rr),
                  "a 7 is not a d6");
}

/* The drawn roll: 2D with the Wild Die over many trials (fixed seed). Its
 * exact mean, counted here independently: the Wild Die's expected total
 * is 3.5 / (1 - 1/6) = 4.2 before the 1's cancelling; cancel-highest takes
 * off (1 + the other die) when the Wild Die's first toss is 1: 1/6 * 4.5.
 * Mean = 4.2 + 3.5 - 0.75 = 6.95. Tolerance 5 standard errors. */
Test(d6_code, drawn_roll_mean) {
    fray_rng rng;
    fray_rng_seed(&rng, 7, 3);
    const int n = 200000;
    double sum = 0, sq = 0;
    for (int i = 0; i < n; i++) {
        d6_roll r = d6_code_roll(P("2D"), true, D6_WILD_ONE_CANCEL_HIGHEST, &rng);
        sum += r.total;
        sq += (double)r.total * r.total;
    }
    double mean = sum / n, sd = sqrt(sq / n - mean * mean);
    cr_assert(fabs(mean - 6.95) < 5 * sd / sqrt(n), "mean %f", mean);
}
