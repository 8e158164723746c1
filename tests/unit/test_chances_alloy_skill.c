/*
 * test_chances_alloy_skill.c - issue 19, the chances of a skill used alone
 * in Alloy (004:313, 325; skills.c: d20 plus the skill the engine adds,
 * no natural 1 or 20) against the DC named (issue 19; docs/rules/
 * odds-at-the-table.md): equal to `fray odds roll d20+B --vs DC`
 * (cf_odds_check), played 4000 times through the ordinary fight API with
 * the dice drawn (the narration's total at least the DC as often, 4.5
 * standard errors); Notice as a move action against the encounter's
 * notice-dc, the engine's own number; refusals in words: no DC, a move
 * ("a move rolls no dice"), a DC on an attack, 'vs' without a number.
 */
#include <stdio.h>
#include <stdlib.h>

#include "chances_fixture.h"

#define YARD FRAY_SOURCE_DIR "/tests/data/alloy/charge_yard.yaml"

enum { N = 4000 };

/* Vance first (13 + 2 against 8 + 3). */
static const int vance_first[2] = {13, 8};

static fray_chances *count(const fray_fight *f, int who, const char *command) {
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, who, command, c, &d), FRAY_OK, "%s: %s",
                 command, d.message);
    return c;
}

/* Vance (the Mercenary: Athletics +5, Notice +3): "skill athletics vs 15"
 * (and "athletics vs 15", the verb left out) is d20+5 at least 15,
 * 11/20; as a move action against 12, 14/20; Notice as a move action
 * against notice-dc 15, 9/20. No damage; p_success its "succeeds". */
Test(chances_alloy_skill, equals_fray_odds_roll_vs_the_dc) {
    fray_setup *s = cf_load(YARD);
    fray_fight *f = cf_given(s, 1, vance_first, 2);
    int v = cf_who(f, "vance");
    static const struct {
        const char *command;
        int bonus, dc;
    } rows[] = {
        {"skill athletics vs 15", 5, 15},
        {"athletics vs 15", 5, 15},
        {"skill athletics move vs 12", 5, 12},
        {"skill notice move", 3, 15},
        {"skill notice move vs 15", 3, 15},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        fray_chances *c = count(f, v, rows[i].command);
        const fray_chance_outcome *ok = cf_outcome(c->outcomes, c->n_outcomes,
                                                   "succeeds");
        cr_expect(fray_ratio_equal(ok->p, cf_odds_check(rows[i].bonus, rows[i].dc)),
                  "%s: %.4f, fray odds roll d20%+d --vs %d", rows[i].command,
                  ok->share, rows[i].bonus, rows[i].dc);
        cr_expect(c->p_success == ok->share);
        cr_expect(c->p_drop < 0 && c->n_damage == 1 && c->damage[0].amount[0] == 0);
        cr_expect_eq(c->target, -1);
        char want[48];
        snprintf(want, sizeof want, "%+d against %d", rows[i].bonus, rows[i].dc);
        cr_expect(strstr(c->modifiers, want) != NULL, "%s", c->modifiers);
        free(c);
    }
    fray_chances *c = count(f, v, "athletics vs 15");
    cr_expect(fabs(c->p_success - 11 / 20.0) < 1e-12);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The engine's check, played N times from the same state: the total the
 * narration tells ("d20 16 + 5 = 21") is at least 15 as often as the
 * chances say. */
Test(chances_alloy_skill, monte_carlo_through_the_fight_api) {
    fray_setup *s = cf_load(YARD);
    fray_fight *f = cf_given(s, 1, vance_first, 2);
    fray_chances *c = count(f, cf_who(f, "vance"), "skill athletics vs 15");
    double p = c->p_success;
    free(c);
    fray_fight_free(f);
    int ok = 0;
    for (int i = 0; i < N; i++) {
        fray_fight *g = cf_given(s, 7000 + (uint64_t)i, vance_first, 2);
        cf_command(g, "vance skill athletics");
        char text[512];
        int e = fray_fight_events(g) - 1;
        cr_assert(e >= 0);
        fray_event_narrate(g, e, text, sizeof text);
        const char *eq = strstr(text, "Athletics check: d20 ");
        cr_assert(eq != NULL, "%s", text);
        eq = strstr(eq, " = ");
        cr_assert(eq != NULL, "%s", text);
        int total = atoi(eq + 3);
        cr_assert(total >= 6 && total <= 25, "%s", text);
        ok += total >= 15;
        fray_fight_free(g);
    }
    double share = (double)ok / N;
    cr_expect(fabs(share - p) <= cf_tolerance(p, N),
              "at least 15 %.4f of %d, the chances say %.4f", share, N, p);
    fray_setup_free(s);
}

Test(chances_alloy_skill, refusals_in_words) {
    fray_setup *s = cf_load(YARD);
    fray_fight *f = cf_given(s, 1, vance_first, 2);
    int v = cf_who(f, "vance");
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    fray_diag d;
    cr_expect_eq(fray_action_chances(f, v, "skill athletics", c, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "no number to beat") != NULL, "%s", d.message);
    cr_expect(strstr(d.message, "vs 15") != NULL, "%s", d.message);
    cr_expect_eq(fray_action_chances(f, v, "walk 2,1", c, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "a move rolls no dice") != NULL, "%s", d.message);
    cr_expect_eq(fray_action_chances(f, v, "stand", c, &d), FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "a move rolls no dice") != NULL, "%s", d.message);
    cr_expect_eq(fray_action_chances(f, v, "attack lyra vs 12", c, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "skill used alone") != NULL, "%s", d.message);
    cr_expect_eq(fray_action_chances(f, v, "athletics vs", c, &d), FRAY_ERR_PARSE);
    cr_expect(strstr(d.message, "after 'vs'") != NULL, "%s", d.message);
    cr_expect_eq(fray_action_chances(f, v, "athletics vs many", c, &d), FRAY_ERR_PARSE);
    cr_expect_eq(fray_action_chances(f, v, "skill notice move vs 12", c, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "notice-dc (15)") != NULL, "%s", d.message);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}
