/*
 * test_chances_shift.c - issue 19, the chances of a Shift Position then
 * an attack in 99 Towers (seed 000 "Shift Position": one space, then the
 * action, no longer free of opportunity attacks): the attack counted from
 * the space the Shift ends on equals the Attack made from that space
 * (gm place) and `fray odds attack` for its flips; the engine's Shift then
 * Attack (engine.c: the walk of one space, then attack.c's blow) played
 * many times from the state deals each amount as often as the chances
 * say; a Shift the rules refuse is refused in their words.
 */
#include <stdlib.h>

#include "layer.h"
#include "towers_int.h"
#include "chances_fixture.h"

#define BRAWL FRAY_SOURCE_DIR "/tests/data/towers/chances_brawl.yaml"
#define SHIFT "shift 8,4 then attack thug-1"

enum { N = 20000 };

/* Sir Hale placed at 7,4 (next to nobody) shifts to 8,4 and attacks
 * Thug 1 (9,4): nothing provokes, so the engine's blow is the whole of
 * it. */
Test(chances_shift, the_attack_from_where_the_shift_ends) {
    fray_setup *s = cf_load(BRAWL);
    fray_fight *f = cf_start(s, 20261126);
    cf_command(f, "gm place hale 7,4");
    int h = cf_who(f, "hale"), t = cf_who(f, "thug-1");
    fray_chances *c = malloc(2 * sizeof *c);
    cr_assert(c);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, h, SHIFT, &c[0], &d), FRAY_OK, "%s",
                 d.message);
    cr_expect(strstr(c[0].title, "Shift to 8,4") != NULL, "%s", c[0].title);
    cr_expect(strstr(c[0].assumed, "where the Shift ends") != NULL, "%s",
              c[0].assumed);
    /* The same blow as an Attack from 8,4 (Sir Hale put there). */
    fray_fight *g = cf_start(s, 20261126);
    cf_command(g, "gm place hale 8,4");
    cr_assert_eq(fray_action_chances(g, h, "attack thug-1", &c[1], &d),
                 FRAY_OK, "%s", d.message);
    cf_same_chances(&c[0], &c[1]);
    /* fray odds attack for those flips: his <PA> with Knightly Training
     * (shift+1) against the thug's <PD>, flat-footed (flip-2). */
    cr_expect_str_eq(c[0].modifiers,
                     "Knightly Training (shift+1); defense: flat-footed (flip-2)");
    cf_expect_attack_odds(f, h, t, 1, -2, &c[0]);

    /* The engine's Shift then Attack, on his turn (the clock set so). */
    cf_turn_of(f, h);
    fray_chances *again = malloc(sizeof *again);
    cr_assert(again);
    cr_assert_eq(fray_action_chances(f, h, SHIFT, again, &d), FRAY_OK, "%s",
                 d.message);
    for (int i = 0; i < 3; i++)
        cr_expect(fray_ratio_equal(again->outcomes[i].p, c[0].outcomes[i].p));
    cf_played(f, "hale " SHIFT, h, t, (fray_pos){8, 4}, &c[0], N, 1919);
    /* Refused in the rules' words: a Shift of two spaces, a Shift then
     * an attack out of reach, an Aim then a Shift then an attack. */
    cr_expect_eq(fray_action_chances(f, h, "shift 9,3 then attack thug-1",
                                     again, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "cannot Shift Position") != NULL, "%s",
              d.message);
    cr_expect_eq(fray_action_chances(f, h, "shift 6,4 then attack thug-1",
                                     again, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "out of range") != NULL, "%s", d.message);
    cr_expect_eq(fray_action_chances(f, h, "aim then shift 8,4 then attack "
                                     "thug-1", again, &d),
                 FRAY_ERR_INVALID);
    free(again);
    free(c);
    fray_fight_free(g);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* `odds ID` ranks a Shift then Attack (chances3) on a foe the Attack
 * alone cannot reach: Sir Hale placed at 7,4, two spaces from Thug 1 at
 * 9,4, shifts to the space next to him nearest Thug 1 that engine.c
 * allows (8,3: the first of 8,3, 8,4 and 8,5 in reading order) and
 * attacks; its numbers are the command's own, and what it provokes is
 * said. Placed next to Thug 1 (8,4), no Shift is ranked on him. */
Test(chances_shift, ranked_on_a_foe_out_of_reach) {
    fray_setup *s = cf_load(BRAWL);
    fray_fight *f = cf_start(s, 20261126);
    cf_command(f, "gm place hale 7,4");
    int h = cf_who(f, "hale");
    fray_chances_list l;
    fray_diag d;
    cr_assert_eq(fray_chances_all(f, h, NULL, &l, &d), FRAY_OK, "%s", d.message);
    const fray_chances *sh = NULL;
    for (int i = 0; i < l.n; i++)
        if (strcmp(l.items[i].command, "shift 8,3 then attack thug-1") == 0)
            sh = &l.items[i];
    cr_assert(sh != NULL, "the Shift then Attack on Thug 1 is ranked");
    cr_expect(strstr(sh->assumed, "where the Shift ends") != NULL, "%s",
              sh->assumed);
    cr_expect(strstr(sh->assumed, "threatened") == NULL,
              "next to nobody at 7,4: %s", sh->assumed);
    fray_chances *c = malloc(sizeof *c);
    cr_assert(c);
    cr_assert_eq(fray_action_chances(f, h, sh->command, c, &d), FRAY_OK, "%s",
                 d.message);
    cr_expect_str_eq(c->modifiers, sh->modifiers);
    cr_assert_eq(c->n_damage, sh->n_damage);
    for (int i = 0; i < c->n_damage; i++)
        cr_expect(fray_ratio_equal(c->damage[i].p, sh->damage[i].p));
    cr_expect(c->p_drop == sh->p_drop);
    fray_chances_list_free(&l);
    free(c);
    fray_fight_free(f);
    /* From 8,5, next to Thug 1 (9,4) and Thug 4 (9,5): the Shift to 8,4
     * names them as the foes that threaten him (attack.c's threat). */
    f = cf_start(s, 20261126);
    cf_command(f, "gm place hale 8,5");
    c = malloc(sizeof *c);
    cr_assert(c);
    cr_assert_eq(fray_action_chances(f, h, "shift 8,4 then attack thug-1", c,
                                     &d),
                 FRAY_OK, "%s", d.message);
    cr_expect(strstr(c->assumed, "(threatened now by Thug 1, Thug 4)") != NULL,
              "%s", c->assumed);
    free(c);
    fray_fight_free(f);
    f = cf_start(s, 20261126);
    cf_command(f, "gm place hale 8,4");
    cr_assert_eq(fray_chances_all(f, h, NULL, &l, &d), FRAY_OK, "%s", d.message);
    bool attack = false;
    for (int i = 0; i < l.n; i++) {
        attack |= strcmp(l.items[i].command, "attack thug-1") == 0;
        const char *w = l.items[i].command;
        size_t len = strlen(w);
        cr_expect(!(strncmp(w, "shift", 5) == 0 && len > 6 &&
                    strcmp(w + len - 6, "thug-1") == 0),
                  "%s", w);
    }
    cr_expect(attack, "the Attack on Thug 1 is ranked");
    fray_chances_list_free(&l);
    fray_fight_free(f);
    fray_setup_free(s);
}
