/* test_winter_weapons.c - Switch Weapons (seed 002 "Other Combat
 * Actions", 002:83-85): the delays of 2 (a weapon on one's person) and 5
 * (one in the vicinity, with a flat Agility roll), Undefended meanwhile,
 * the weapon in hand for the attacks that follow, the tactics that switch
 * when the weapon in hand cannot reach, the words at the table, the
 * journal and undo. */
#include "winter_fixture.h"

#include <stdlib.h>

#define HUNTRESS "examples/silent-winter/huntress.yaml"

static int weapon_index(fray_fight *f, const char *name) {
    const sw_setup *s = sw_fight_setup(fray__fight_rf(f));
    for (int i = 0; i < s->n_weapons; i++)
        if (strcmp(s->w[i].name, name) == 0)
            return i;
    cr_assert_fail("no weapon %s", name);
    return -1;
}

/* 002:85 "2 is for easy-access weapons on your person, such as a sheathed
 * dagger": the dagger the Huntress carries takes a delay of 2, no roll;
 * declared on s she declares again on s + 1 + 2 (002:9). */
Test(winter_weapons, switch_to_a_carried_weapon_takes_2) {
    fray_setup *s = sw_t_load(HUNTRESS);
    fray_fight *f = sw_t_start(s, (int[]){6, 6}, 2);
    sw_state *st = sw_t_st(f);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    int hu = sw_t_who(f, "huntress");
    cr_assert(sw_hand(sd, st, hu)->ranged, "the bow in hand at the start");
    sw_t_do(f, "huntress wield dagger", NULL, 0); /* no dice: no roll */
    cr_assert_eq(st->c[hu].ready, 1 + 1 + 2, "002:85: 2 for the dagger on her person");
    cr_assert_eq(sw_hand_index(sd, st, hu), weapon_index(f, "dagger"));
    cr_assert_not(sw_hand(sd, st, hu)->ranged);
    char buf[2048];
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "Switch Weapons to dagger"), "%s", buf);
    cr_assert(strstr(buf, "Huntress has dagger in hand"), "%s", buf);
    /* and back to the bow: the stat block's own weapon is on her person */
    sw_t_to(f, 4);
    sw_t_do(f, "huntress wield bow", NULL, 0);
    cr_assert_eq(st->c[hu].ready, 4 + 1 + 2);
    cr_assert_eq(st->c[hu].hand, 0, "the stat block's weapon again");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:85 "5 is to switch to any other weapon in the immediate vicinity.
 * It also requires a flat Agility roll to succeed": the spear nearby
 * takes 5; Agility 4 + d20 against a bare d20 (ruling check-die), the
 * tie going to the GM's die (ruling ties: defender); a failure spends
 * the segments and leaves the bow in hand. */
Test(winter_weapons, switch_to_a_weapon_nearby_takes_5_and_a_roll) {
    fray_setup *s = sw_t_load(HUNTRESS);
    fray_fight *f = sw_t_start(s, (int[]){6, 6}, 2);
    sw_state *st = sw_t_st(f);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    int hu = sw_t_who(f, "huntress");
    sw_t_do(f, "huntress wield spear", (int[]){6, 10}, 2); /* 4+6 = 10 against 10 */
    cr_assert_eq(st->c[hu].ready, 1 + 1 + 5, "002:85: 5 in the vicinity");
    cr_assert(sw_hand(sd, st, hu)->ranged, "a tie fails: the bow stays in hand");
    char buf[2048];
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "fails to take up spear"), "%s", buf);
    sw_t_to(f, 7);
    sw_t_do(f, "huntress wield spear", (int[]){7, 10}, 2); /* 11 against 10 */
    cr_assert_eq(sw_hand_index(sd, st, hu), weapon_index(f, "spear"));
    cr_assert_eq(st->c[hu].ready, 7 + 1 + 5);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:83 "Note that you are Undefended while undertaking any of these
 * actions": through the delay of the switch, against a melee attacker
 * (ruling undefended-busy: melee), and no longer once it is over. */
Test(winter_weapons, undefended_while_switching) {
    fray_setup *s = sw_t_load(HUNTRESS);
    fray_fight *f = sw_t_start(s, (int[]){6, 6}, 2);
    sw_state *st = sw_t_st(f);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    int hu = sw_t_who(f, "huntress"), b1 = sw_t_who(f, "bandit-1");
    st->c[hu].engages = (int8_t)b1;
    st->c[b1].engages = (int8_t)hu;
    cr_assert_not(sw_undefended(sd, st, hu, b1, false));
    sw_t_do(f, "huntress wield dagger", NULL, 0);
    cr_assert(sw_undefended(sd, st, hu, b1, false), "Undefended during the switch (002:83)");
    sw_t_to(f, 3);
    cr_assert(sw_undefended(sd, st, hu, b1, false), "through segment 1 + 2");
    sw_t_to(f, 4);
    cr_assert_not(sw_undefended(sd, st, hu, b1, false), "the switch is over");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The weapon in hand is the one that attacks: the dagger's damage (1d6)
 * and its delay (2); a ranged weapon cannot Engage (002:47) but the
 * dagger can. */
Test(winter_weapons, the_weapon_in_hand_attacks) {
    fray_setup *s = sw_t_load(HUNTRESS);
    fray_fight *f = sw_t_start(s, (int[]){6, 6}, 2);
    sw_state *st = sw_t_st(f);
    int hu = sw_t_who(f, "huntress"), b1 = sw_t_who(f, "bandit-1");
    st->c[b1].flags &= (uint8_t)~SW_F_SNIPING;
    sw_t_refused(f, "huntress engage bandit-1", "ranged weapon (bow) and cannot Engage");
    sw_t_do(f, "huntress wield dagger", NULL, 0);
    sw_t_to(f, 4);
    sw_t_do(f, "huntress engage bandit-1", NULL, 0);
    sw_t_to(f, 8);
    cr_assert_eq(st->c[hu].engages, b1);
    int before = st->c[b1].health;
    sw_t_do(f, "huntress attack bandit-1", (int[]){20, 1, 5}, 3); /* one d6: the dagger */
    cr_assert_eq(st->c[b1].health, before - (5 - 1), "1d6 less Physical Resistance 1");
    cr_assert_eq(st->c[hu].ready, 8 + 1 + 2, "the dagger's delay of 2");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Refused in rules words: a weapon not on her person nor nearby, the one
 * in hand, a word that is no weapon. */
Test(winter_weapons, switch_refused_in_rules_words) {
    fray_setup *s = sw_t_load(HUNTRESS);
    fray_fight *f = sw_t_start(s, (int[]){6, 6}, 2);
    sw_t_refused(f, "huntress wield axe", "no axe on their person or nearby");
    sw_t_refused(f, "huntress wield bow", "has bow in hand already");
    sw_t_refused(f, "huntress wield lance", "'lance': expected a weapon of the catalog");
    sw_t_refused(f, "huntress wield", "expected the weapon after 'wield'");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The stat block's lists: a weapon given twice is refused with its place
 * (docs/file-formats.md "Silent Winter files"). */
Test(winter_weapons, carried_listed_twice_refused) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, "tests/data/winter/bad_carried.yaml");
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_setup *s = NULL;
    cr_assert_neq(fray_setup_load(path, NULL, &s, &diag), FRAY_OK);
    cr_assert_eq(diag.line, 9, "%d: %s", diag.line, diag.message);
    cr_assert(strstr(diag.message, "weapon 'bow' is listed twice"), "%s", diag.message);
}

/* Tactics a GM would recognise: a bow once engaged is put away for the
 * dagger on her belt (the quicker switch, 002:85), and only then does she
 * Engage; over many fights she never Engages with the bow in hand. */
Test(winter_weapons, tactics_switch_when_the_bow_cannot_reach) {
    fray_setup *s = sw_t_load(HUNTRESS);
    int switched = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        fray_fight_options o = {.journal = true, .facts = true, .until = 0};
        fray_fight *f = NULL;
        cr_assert_eq(fray_fight_new(s, seed, &o, NULL, NULL, &f), FRAY_OK);
        int hu = sw_t_who(f, "huntress");
        const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
        while (!fray_fight_over(f)) {
            sw_event cmd;
            sw_state *st = sw_t_st(f);
            sw_choose(sd, st, &cmd);
            if (cmd.actor == hu && cmd.kind == SW_EV_WIELD) {
                bool engaged = false;
                for (int j = 0; j < st->n; j++)
                    engaged |= st->c[j].engages == hu;
                cr_assert(engaged, "seed %llu: switched while nobody engages her",
                          (unsigned long long)seed);
                cr_assert_eq(cmd.arg, weapon_index(f, "dagger"), "the carried one first");
                switched++;
            }
            if (cmd.actor == hu && cmd.kind == SW_EV_ENGAGE)
                cr_assert_not(sw_hand(sd, st, hu)->ranged);
            cr_assert_eq(fray_fight_step(f), FRAY_OK);
        }
        fray_fight_free(f);
    }
    cr_assert_gt(switched, 10, "she switches in most fights (%d)", switched);
    fray_setup_free(s);
}

/* The journal names the weapon ("weapon": "spear") and reads back onto a
 * new fight to the same state, with drawn dice and dice given by hand;
 * undo puts the bow back in her hand. */
Test(winter_weapons, journal_round_trip_and_undo) {
    fray_setup *s = sw_t_load(HUNTRESS);
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    for (int k = 0; k < 2; k++) {
        fray_fight *f = NULL, *g = NULL;
        if (k == 0) {
            cr_assert_eq(fray_fight_new(s, 3, &o, NULL, NULL, &f), FRAY_OK);
            while (!fray_fight_over(f))
                cr_assert_eq(fray_fight_step(f), FRAY_OK);
        } else {
            f = sw_t_start(s, (int[]){6, 6}, 2);
            sw_t_do(f, "huntress wield spear", (int[]){12, 3}, 2);
        }
        size_t len;
        char *text = fx_journal(f, 1 << 20, &len);
        if (k == 1)
            cr_assert(strstr(text, "\"action\":\"wield\",\"actor\":\"huntress\",\"weapon\":\"spear\""),
                      "%s", text);
        cr_assert_eq(fray_fight_new(s, 99, &o, NULL, NULL, &g), FRAY_OK);
        fray_diag diag;
        memset(&diag, 0, sizeof diag);
        if (k == 0) {
            fray_fight_free(g);
            cr_assert_eq(fray_fight_new(s, 3, &o, NULL, NULL, &g), FRAY_OK);
        }
        cr_assert_eq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK,
                     "%s", diag.message);
        cr_assert(fray_fight_same(f, g));
        if (k == 1) {
            int hu = sw_t_who(f, "huntress");
            cr_assert_neq(sw_t_st(f)->c[hu].hand, 0);
            cr_assert_eq(fray_fight_undo(f), FRAY_OK);
            cr_assert_eq(sw_t_st(f)->c[hu].hand, 0, "undo: the bow in hand again");
        }
        free(text);
        fray_fight_free(f);
        fray_fight_free(g);
    }
    fray_setup_free(s);
}
