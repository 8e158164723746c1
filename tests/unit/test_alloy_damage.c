/*
 * test_alloy_damage.c - Alloy's damage and health (seed 004 "Damage"
 * 149-155, "Hit Points" 203-211, Withered 1035-1038, Second Wind 673-681,
 * Unconscious 1025-1031; checklist L4, L7.8): minimum 0, dying at 0 (the
 * stable ruling), death at -(max/2), Withered, second wind.
 */
#include "alloy_attack_fixture.h"

Test(alloy_damage, dying_at_zero_stable_004_211_L7_8) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_run *r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_damage(r, a, t, 29), FRAY_OK);
    cr_assert_eq(f->st.c[t].hp, 1);
    cr_assert(!(f->st.c[t].flags & FA_F_OUT));
    cr_assert_eq(afx_count(f, FA_FACT_DYING), 0);
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_damage(r, a, t, 1), FRAY_OK);
    cr_assert_eq(f->st.c[t].hp, 0);
    const fa_cstate *c = &f->st.c[t];
    cr_assert(fa_has(c, FA_C_DYING));
    cr_assert(fa_has(c, FA_C_UNCONSCIOUS));
    cr_assert(fa_has(c, FA_C_HELPLESS));
    cr_assert(fa_has(c, FA_C_PRONE));
    cr_assert(!fa_has(c, FA_C_DEAD));
    cr_assert(c->flags & FA_F_OUT);
    const fa_fact *d = afx_fact(f, FA_FACT_DYING, 0);
    cr_assert_not_null(d);
    cr_assert_eq(d->target, t);
    cr_assert_eq(d->v[0], 0);
    cr_assert_eq(afx_fact(f, FA_FACT_DAMAGE, 0)->v[1], 0);
    /* dying, it grants battle superiority and has -5 to its defenses */
    cr_assert_eq(fa_defense_value(&f->s, &f->st, t, FA_DEF_DEFENSE, a, false), 10);
    free(f);
}

Test(alloy_damage, dead_at_minus_half_maximum_004_211) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_run *r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_damage(r, a, t, 44), FRAY_OK);   /* -14: dying */
    cr_assert(fa_has(&f->st.c[t], FA_C_DYING));
    cr_assert(!fa_has(&f->st.c[t], FA_C_DEAD));
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_damage(r, a, t, 1), FRAY_OK);    /* -15 = -(30 / 2): dead */
    cr_assert(fa_has(&f->st.c[t], FA_C_DEAD));
    cr_assert_eq(afx_fact(f, FA_FACT_DEAD, 0)->v[0], -15);
    /* straight from full to dead in one blow */
    int u = afx_add(f, 1, 7, 5, SLOT_SWORD);
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_damage(r, a, u, 45), FRAY_OK);
    cr_assert(fa_has(&f->st.c[u], FA_C_DEAD));
    cr_assert(f->st.c[u].flags & FA_F_OUT);
    /* the dead take no more damage and are no target */
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_damage(r, a, u, 1), FRAY_ERR_INVALID);
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, u);
    f->st.c[u].fp.at = (fray_pos){6, 6};
    r = AFX_DICE(f, 15, 1);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_ERR_INVALID);
    free(f);
}

Test(alloy_damage, odd_maximum_rounds_half_down_004_211) {
    afx *f = afx_new(20, 20);
    f->s.sb[SB_SOLDIER].hp = 25;
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_run *r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_damage(r, a, t, 36), FRAY_OK);   /* -11 */
    cr_assert(!fa_has(&f->st.c[t], FA_C_DEAD));
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_damage(r, a, t, 1), FRAY_OK);    /* -12 = -(25 / 2) */
    cr_assert(fa_has(&f->st.c[t], FA_C_DEAD));
    free(f);
}

Test(alloy_damage, withered_halves_dealt_not_ongoing_004_1037_1038) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    afx_cond(f, a, FA_C_WITHERED);
    fa_run *r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_damage(r, a, t, 7), FRAY_OK);
    cr_assert_eq(f->st.c[t].hp, 27, "half of 7, rounded down");
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_damage(r, -1, a, 7), FRAY_OK);   /* ongoing on the withered */
    cr_assert_eq(f->st.c[a].hp, 23);
    cr_assert_eq(afx_count(f, FA_FACT_DAMAGE), 0, "ongoing damage is told by the turn code");
    /* through an attack: the fact tells the roll and what was dealt */
    fa_command c = afx_cmd(FA_CMD_ATTACK, a, t);
    r = AFX_DICE(f, 15, 5);                          /* 5 + 2 = 7 -> 3 */
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    const fa_fact *d = afx_fact(f, FA_FACT_DAMAGE, 0);
    cr_assert_eq(d->v[0], 3);
    cr_assert_eq(d->v[2], 7);
    cr_assert_eq(f->st.c[t].hp, 24);
    free(f);
}

Test(alloy_damage, negative_amount_is_zero_004_155) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_run *r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_damage(r, a, t, -4), FRAY_OK);
    cr_assert_eq(f->st.c[t].hp, 30);
    cr_assert_eq(afx_fact(f, FA_FACT_DAMAGE, 0)->v[0], 0);
    free(f);
}

Test(alloy_damage, second_wind_surge_and_defenses_004_673_681) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    f->st.c[a].hp = 10;
    fa_run *r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_second_wind(r, a), FRAY_OK);
    cr_assert_eq(f->st.c[a].hp, 17, "a surge: 30 / 4 = 7");
    cr_assert_eq(f->st.c[a].surges, 1);
    const fa_fact *h = afx_fact(f, FA_FACT_HEAL, 0);
    cr_assert_eq(h->v[0], 7);
    cr_assert_eq(h->v[1], 17);
    const fa_cond *sw = fa_cond_find(&f->st.c[a], FA_C_SECOND_WIND, -1);
    cr_assert_not_null(sw);
    cr_assert_eq(sw->ends, FA_ENDS_START_OF_TURN);
    cr_assert_eq(sw->whose, a);
    for (int d = 0; d < FA_DEFENSES; d++)
        cr_assert_eq(fa_defense_value(&f->s, &f->st, a, (fa_defense)d, t, false),
                     f->s.sb[SB_SOLDIER].defense[d] + 2);
    /* once per encounter */
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_second_wind(r, a), FRAY_ERR_INVALID);
    cr_assert_eq(f->st.c[a].hp, 17);
    free(f);
}

Test(alloy_damage, second_wind_needs_a_surge_and_stops_at_maximum_004_677) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int b = afx_add(f, 0, 6, 5, SLOT_SWORD);
    f->st.c[a].surges = 0;
    f->st.c[a].hp = 5;
    fa_run *r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_second_wind(r, a), FRAY_ERR_INVALID);
    cr_assert_eq(f->st.c[a].hp, 5);
    f->st.c[b].hp = 27;
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_second_wind(r, b), FRAY_OK);
    cr_assert_eq(f->st.c[b].hp, 30);
    cr_assert_eq(afx_fact(f, FA_FACT_HEAL, 0)->v[0], 3);
    free(f);
}

Test(alloy_damage, falling_ends_grapples_004_615) {
    afx *f = afx_new(20, 20);
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_command c = afx_cmd(FA_CMD_GRAPPLE, a, t);
    fa_run *r = AFX_DICE(f, 15);
    cr_assert_eq(fa_attack(r, &c, false), FRAY_OK);
    cr_assert(fa_has(&f->st.c[t], FA_C_GRAPPLED));
    r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_damage(r, t, a, 30), FRAY_OK);     /* the grappler falls */
    cr_assert(!fa_has(&f->st.c[t], FA_C_GRAPPLED));
    cr_assert_eq(f->st.c[a].grappling, -1);
    free(f);
}

/* L7.8, option dying: death-saves (skills.c): damage works as with
 * stable; the fall at 0 is dying, the death saves come at the end of its
 * turns (test_alloy_skills). */
Test(alloy_damage, death_saves_option_falls_dying_L7_8) {
    afx *f = afx_new(20, 20);
    f->s.opt.dying = FA_DYING_DEATH_SAVES;
    int a = afx_add(f, 0, 5, 5, SLOT_SWORD);
    int t = afx_add(f, 1, 6, 5, SLOT_SWORD);
    fa_run *r = afx_run(f, NULL, 0);
    cr_assert_eq(fa_damage(r, a, t, 5), FRAY_OK);
    cr_assert_eq(f->st.c[t].hp, 25);
    cr_assert_eq(fa_damage(r, a, t, 26), FRAY_OK);
    cr_assert(fa_has(&f->st.c[t], FA_C_DYING));
    cr_assert(!fa_has(&f->st.c[t], FA_C_DEAD));
    free(f);
}
