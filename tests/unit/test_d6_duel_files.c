/*
 * test_d6_duel_files.c - D6's duel of two stat blocks from two files
 * (`fray odds duel A.yaml B.yaml --a NAME --b NAME`, issue 18; load.c
 * d6_duel_setup; docs/rules/d6.md "The exact duel"): two Fighters of
 * data/d6/statblocks.yaml give the very odds of examples/d6/duel.yaml
 * (the same two blocks two meters apart, every option at its default, 20
 * rounds); the blocks keep their weapons, armour and tactics across the
 * two files; a block not named, named wrongly, or given tactics it cannot
 * use is refused in words.
 */
#include <math.h>

#include "d6_fixture.h"
#include "fray/duel.h"

static void path_of(char *buf, size_t size, const char *rel) {
    snprintf(buf, size, "%s/%s", FRAY_SOURCE_DIR, rel);
}

static fray_status duel(const char *na, const char *nb, const char *ta, const char *tb,
                        fray_setup **out, fray_diag *diag) {
    char p[512];
    path_of(p, sizeof p, "data/d6/statblocks.yaml");
    memset(diag, 0, sizeof *diag);
    return fray_setup_duel(p, na, p, nb, ta, tb, NULL, out, diag);
}

static d6_setup *data(fray_setup *s) { return (d6_setup *)fray_setup_ruleset_data(s); }

Test(d6_duel_files, two_fighters_are_the_example_duel) {
    fray_setup *f = NULL, *e = NULL;
    fray_diag diag;
    cr_assert_eq(duel("Fighter", "fighter", NULL, NULL, &f, &diag), FRAY_OK, "%s", diag.message);
    char p[512];
    path_of(p, sizeof p, "examples/d6/duel.yaml");
    cr_assert_eq(fray_setup_load(p, NULL, &e, &diag), FRAY_OK, "%s", diag.message);
    const d6_setup *a = data(f), *b = data(e);
    cr_assert_eq(a->n, 2);
    cr_assert_eq(a->n_sides, 2);
    cr_assert_eq(a->rounds, b->rounds, "the default time limit, 20 rounds, as the example's");
    cr_assert_str_eq(a->c[0].name, "Fighter");
    cr_assert_str_eq(a->c[1].name, "Fighter 2", "a twin's name is told apart");
    cr_assert_str_eq(a->c[1].id, "fighter-2");
    cr_assert_eq(a->c[0].b.weapon, a->c[1].b.weapon, "one sword known once for both");
    cr_assert_str_eq(a->w[a->c[0].b.weapon].name, b->w[b->c[0].b.weapon].name);
    cr_assert_eq(a->c[1].x - a->c[0].x, b->c[1].x - b->c[0].x, "two meters apart");
    cr_assert_eq(a->c[0].tactics, D6_TAC_MELEE);
    fray_duel_odds x, y;
    cr_assert_eq(fray_setup_duel_odds(f, 0, 1, 0, &x, &diag), FRAY_OK, "%s", diag.message);
    cr_assert_eq(fray_setup_duel_odds(e, 0, 1, 0, &y, &diag), FRAY_OK, "%s", diag.message);
    for (int k = 0; k < 2; k++) {
        cr_assert(fabs(x.p_win[k] - y.p_win[k]) < 1e-12, "win %d: %.15f vs %.15f", k,
                  x.p_win[k], y.p_win[k]);
        cr_assert(fabs(x.p_first[k] - y.p_first[k]) < 1e-12);
    }
    cr_assert(fabs(x.p_unfinished - y.p_unfinished) < 1e-12);
    cr_assert(fabs(x.mean_length - y.mean_length) < 1e-9);
    fray_setup_free(f);
    fray_setup_free(e);
}

Test(d6_duel_files, blocks_keep_their_weapons_armour_and_tactics) {
    fray_setup *f = NULL;
    fray_diag diag;
    cr_assert_eq(duel("Fighter", "Archer", NULL, NULL, &f, &diag), FRAY_OK, "%s", diag.message);
    const d6_setup *s = data(f);
    const d6_block *ar = &s->c[1].b;
    cr_assert_str_eq(s->w[ar->weapon].name, "bow");
    cr_assert_gt(s->w[ar->weapon].range[2], 0, "the bow keeps its ranges");
    cr_assert_str_eq(s->ar[ar->armour].name, "leather");
    cr_assert_eq(s->c[1].tactics, D6_TAC_RANGED, "a ranged weapon in hand: ranged tactics");
    bool dagger = false;
    for (int w = 0; w < s->n_weapons; w++)
        if ((ar->carried >> w) & 1u)
            dagger = dagger || strcmp(s->w[w].name, "dagger") == 0;
    cr_assert(dagger, "the dagger carried comes along");
    cr_assert_eq(s->c[1].side, 1);
    fray_setup_free(f);
    cr_assert_eq(duel("Fighter", "Archer", NULL, "melee", &f, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_assert_eq(data(f)->c[1].tactics, D6_TAC_MELEE, "tactics named: taken");
    fray_setup_free(f);
}

Test(d6_duel_files, refusals_in_words) {
    fray_setup *f = NULL;
    fray_diag diag;
    cr_assert_eq(duel("Fightr", "Thug", NULL, NULL, &f, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "no stat block named 'Fightr'") &&
                  strstr(diag.message, "'Fighter'"),
              "%s", diag.message);
    cr_assert_eq(duel(NULL, "Thug", NULL, NULL, &f, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "several stat blocks: name one of"), "%s", diag.message);
    cr_assert_eq(duel("Fighter", "Thug", NULL, "ranged", &f, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "needs a weapon with ranges"), "%s", diag.message);
    cr_assert_eq(duel("Fighter", "Thug", "berserk", NULL, &f, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "unknown tactics 'berserk'"), "%s", diag.message);
    char p[512];
    path_of(p, sizeof p, "data/d6/nothing-here.yaml");
    memset(&diag, 0, sizeof diag);
    cr_assert_neq(fray_setup_duel(p, NULL, p, NULL, NULL, NULL, NULL, &f, &diag), FRAY_OK);
    cr_assert_null(f);
}
