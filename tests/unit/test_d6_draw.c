/* test_d6_draw.c - quick draw (src/rules/d6/draw.c): the ranger of seed
 * 003:98 with his numbers (rulesets-checklists D6.1), at least 1D left
 * in the skill and 1D off per extra attack (003:97), the pips staying
 * (D7.21); and the quick draw at the table: announced before initiative,
 * the round's initiative with the moved dice, every attack at the code
 * left with no further multi-action penalty, refusals in rules words. */
#include "d6_fixture.h"

static d6_code C(const char *t) { return d6_fx_code(t); }

/* 003:98 "The ranger has 4D in Acumen and 8D in throwing. He may take up
 * to 7D" */
Test(d6_draw, ranger_one_attack_moves_up_to_7D_003_98) {
    d6_quick q;
    char why[160];
    cr_assert_eq(d6_quick_draw(C("4D"), C("8D"), 1, 7, &q, why, sizeof why), FRAY_OK, "%s", why);
    cr_assert_eq(q.max_move, 7);
    cr_assert_eq(q.acumen.dice, 11);
    cr_assert_eq(q.skill.dice, 1, "at least 1D stays (003:97)");
    cr_assert_neq(d6_quick_draw(C("4D"), C("8D"), 1, 8, &q, why, sizeof why), FRAY_OK);
}

/* 003:98 "After subtracting 1D for the extra attack, he now has 7D in the
 * skill, which allows him to add up to 6D ... He decides to move only
 * 3D. This gives him 7D in Acumen ... and 4D in throwing." */
Test(d6_draw, ranger_two_attacks_moves_3D_003_98) {
    d6_quick q;
    char why[160];
    cr_assert_eq(d6_quick_draw(C("4D"), C("8D"), 2, 3, &q, why, sizeof why), FRAY_OK, "%s", why);
    cr_assert_eq(q.max_move, 6, "7D after the extra attack: up to 6D");
    cr_assert_eq(q.acumen.dice, 7);
    cr_assert_eq(q.acumen.pips, 0);
    cr_assert_eq(q.skill.dice, 4);
    cr_assert_eq(q.skill.pips, 0);
    cr_assert_eq(d6_quick_draw(C("4D"), C("8D"), 2, 6, &q, why, sizeof why), FRAY_OK);
}

/* D6.1 "A request to move 7D with 2 attacks declared must be refused (6D
 * is the limit)", in rules words. */
Test(d6_draw, ranger_7D_with_two_attacks_refused_003_98) {
    d6_quick q;
    char why[200];
    cr_assert_eq(d6_quick_draw(C("4D"), C("8D"), 2, 7, &q, why, sizeof why), FRAY_ERR_INVALID);
    cr_assert(strstr(why, "at most 6D may move to Acumen"), "%s", why);
}

/* D7.21: the pips stay (Acumen 3D+2, skill 5D+1, 1 attack, 2D moved:
 * 5D+2 and 3D+1); 1D off per extra attack (4 attacks on 4D leaves 1D:
 * nothing may move). */
Test(d6_draw, pips_stay_and_extra_attacks_cost_dice_d7_21) {
    d6_quick q;
    char why[200];
    cr_assert_eq(d6_quick_draw(C("3D+2"), C("5D+1"), 1, 2, &q, why, sizeof why), FRAY_OK);
    cr_assert_eq(q.acumen.dice, 5);
    cr_assert_eq(q.acumen.pips, 2);
    cr_assert_eq(q.skill.dice, 3);
    cr_assert_eq(q.skill.pips, 1);
    cr_assert_eq(d6_quick_draw(C("3D"), C("4D"), 4, 1, &q, why, sizeof why), FRAY_ERR_INVALID);
    cr_assert(strstr(why, "leaves no die to move"), "%s", why);
    cr_assert_eq(d6_quick_draw(C("3D"), C("4D"), 3, 1, &q, why, sizeof why), FRAY_OK);
    cr_assert_eq(q.skill.dice, 1);
    cr_assert_eq(d6_quick_draw(C("3D"), C("4D"), 5, 1, &q, why, sizeof why), FRAY_ERR_INVALID);
    cr_assert_eq(d6_quick_draw(C("3D"), C("4D"), 1, 0, &q, why, sizeof why), FRAY_ERR_INVALID);
}
