/*
 * test_chances_charge.c - issue 19, the chances of a Charge in 99 Towers
 * (seed 000 "Charge": a Combat Move, the last three spaces in a straight
 * line, then a single melee attack; no modifier of its own): the attack
 * counted from where the Charge ends equals the Attack made from that
 * space (gm place) and `fray odds attack` for its flips; the engine's
 * Charge (engine.c: the walk, then attack.c's blow) played many times
 * from the state deals each amount as often as the chances say; a Charge
 * the rules refuse is refused in their words.
 */
#include <stdlib.h>

#include "layer.h"
#include "towers_int.h"
#include "chances_fixture.h"

#define DATA FRAY_SOURCE_DIR "/tests/data/towers/"

enum { N = 20000 };

/* Sir Hale (4,4) charges Thug 1 (9,4) to 8,4: four spaces east, the last
 * three in a line. */
Test(chances_charge, the_blow_from_where_the_charge_ends) {
    fray_setup *s = cf_load(DATA "chances_brawl.yaml");
    fray_fight *f = cf_start(s, 20261126);
    int h = cf_who(f, "hale"), t = cf_who(f, "thug-1");
    fray_chances *c = malloc(2 * sizeof *c);
    cr_assert(c);
    fray_diag d;
    cr_assert_eq(fray_action_chances(f, h, "charge thug-1 8,4", &c[0], &d),
                 FRAY_OK, "%s", d.message);
    cr_expect(strstr(c[0].title, "Charge to 8,4") != NULL, "%s", c[0].title);
    cr_expect(strstr(c[0].assumed, "where the Charge ends") != NULL, "%s",
              c[0].assumed);

    /* Ranked among his options (odds hale): a Charge on Thug 1. */
    fray_chances_list l;
    cr_assert_eq(fray_chances_all(f, h, NULL, &l, &d), FRAY_OK, "%s", d.message);
    int charges = 0;
    for (int i = 0; i < l.n; i++)
        charges += strncmp(l.items[i].command, "charge thug-1 ", 14) == 0;
    cr_expect_eq(charges, 1);
    fray_chances_list_free(&l);

    /* The same blow as an Attack from 8,4 (another fight, Sir Hale put
     * there by the GM). */
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

    /* The engine's Charge, on his turn (the clock set so), N times. */
    cf_turn_of(f, h);
    /* (On his turn the chances are the same: the engine's whole check.) */
    fray_chances *again = malloc(sizeof *again);
    cr_assert(again);
    cr_assert_eq(fray_action_chances(f, h, "charge thug-1 8,4", again, &d),
                 FRAY_OK, "%s", d.message);
    for (int i = 0; i < 3; i++)
        cr_expect(fray_ratio_equal(again->outcomes[i].p, c[0].outcomes[i].p));
    cf_played(f, "hale charge thug-1 8,4", h, t, (fray_pos){8, 4}, &c[0], N,
              1919);
    /* Refused in the rules' words: a Charge ending out of reach. */
    cr_expect_eq(fray_action_chances(f, h, "charge thug-1 5,4", again, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "out of range") != NULL, "%s", d.message);
    free(again);
    free(c);
    fray_fight_free(g);
    fray_fight_free(f);
    fray_setup_free(s);
}
