/* test_winter_bonus_animate.c - spells that animate a creature (seed
 * 002:75: "For spells that have effects that are 'used up' (such as ones
 * that animate creatures ...), the mage does immediately regain the
 * Maintain cost if the spell is ended by an outside agency (... the
 * animated creature is killed)"; docs/rules/silent-winter.md 36): a
 * lifeless combatant joins the fight while the spell is Maintained, falls
 * when it ends, gives the Maintain back when killed; the tactics, the
 * journal and the file's errors. */
#include "winter_fixture.h"

#include <stdlib.h>

#define NECRO "tests/data/winter/necromancer.yaml"

/* The necromancer raises the corpse (delay 2: at the end of segment 3). */
static fray_fight *raised(fray_setup **s) {
    *s = sw_t_load(NECRO);
    fray_fight *f = sw_t_start(*s, (int[]){6, 6}, 2);
    sw_state *st = sw_t_st(f);
    int co = sw_t_who(f, "corpse");
    cr_assert(st->c[co].inanimate && !sw_can_act(&st->c[co]), "lifeless at the start");
    sw_t_refused(f, "warrior engage necromancer", "may declare again");
    sw_t_do(f, "necromancer cast raise-dead corpse", NULL, 0);
    sw_t_to(f, 3);
    sw_t_do(f, "next", NULL, 0);
    return f;
}

/* 002:75: the creature joins while Maintained: it may declare from the
 * next segment; the cost and the Maintain set aside (12 - 2 - 3). */
Test(winter_bonus_animate, the_creature_joins_002_75) {
    fray_setup *s;
    fray_fight *f = raised(&s);
    sw_state *st = sw_t_st(f);
    int co = sw_t_who(f, "corpse"), ne = sw_t_who(f, "necromancer");
    cr_assert(!st->c[co].inanimate && sw_can_act(&st->c[co]));
    cr_assert_eq(st->c[co].ready, 4);
    cr_assert_eq(st->c[ne].magic, 7);
    cr_assert_eq(st->c[ne].n_maint, 1);
    char buf[4096];
    sw_t_told(f, buf, sizeof buf);
    cr_assert(strstr(buf, "Walking Corpse is animated"), "%s", buf);
    sw_t_do(f, "corpse engage warrior", NULL, 0);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:75 "the animated creature is killed": the spell ends and the
 * necromancer has its Maintain of 3 back at once. */
Test(winter_bonus_animate, killed_the_maintain_back_002_75) {
    fray_setup *s;
    fray_fight *f = raised(&s);
    sw_state *st = sw_t_st(f);
    int co = sw_t_who(f, "corpse"), ne = sw_t_who(f, "necromancer"), wa = sw_t_who(f, "warrior");
    st->c[co].health = 2;
    sw_t_ready(f, wa, co);
    sw_t_do(f, "warrior attack corpse", (int[]){20, 1, 6, 6}, 4);
    cr_assert(st->c[co].flags & SW_F_DEAD);
    cr_assert_eq(st->c[ne].n_maint, 0);
    cr_assert_eq(st->c[ne].magic, 10, "7 + the Maintain of 3");
    char buf[4096];
    sw_t_told(f, buf, sizeof buf);
    cr_assert(strstr(buf, "raise dead is used up: Necromancer has its Maintain back at once"),
              "%s", buf);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Released (002:73), or its caster dead: the creature falls lifeless, out
 * of the fight, and nobody engages it any more. */
Test(winter_bonus_animate, released_or_caster_dead_it_falls) {
    for (int dead = 0; dead < 2; dead++) {
        fray_setup *s;
        fray_fight *f = raised(&s);
        sw_state *st = sw_t_st(f);
        int co = sw_t_who(f, "corpse"), ne = sw_t_who(f, "necromancer"),
            wa = sw_t_who(f, "warrior");
        sw_t_ready(f, wa, co);
        if (dead) {
            st->c[ne].health = 1;
            sw_t_ready(f, wa, ne);
            sw_t_do(f, "warrior attack necromancer", (int[]){20, 1, 6, 6}, 4);
            cr_assert(st->c[ne].flags & SW_F_DEAD);
        } else {
            sw_t_do(f, "necromancer release raise-dead", NULL, 0);
            cr_assert_eq(st->c[ne].magic, 10, "released: the Maintain back");
        }
        cr_assert(st->c[co].inanimate, "%s: lifeless again", dead ? "caster dead" : "released");
        cr_assert(!sw_can_act(&st->c[co]));
        cr_assert_neq(st->c[wa].engages, co);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* Only a lifeless creature may be animated, in words. */
Test(winter_bonus_animate, only_the_lifeless) {
    fray_setup *s = sw_t_load(NECRO);
    fray_fight *f = sw_t_start(s, (int[]){6, 6}, 2);
    sw_t_refused(f, "necromancer cast raise-dead warrior", "animates a lifeless creature");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The tactics raise the corpse first; the corpse fights; each journal reads
 * back to the same fight. */
Test(winter_bonus_animate, tactics_and_journal) {
    fray_setup *s = sw_t_load(NECRO);
    int raised_n = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        char *text = NULL;
        sw_t_play(s, seed, NULL, NULL, &text);
        if (strstr(text, "\"status\":\"animated\",\"on\":true"))
            raised_n++;
        free(text);
    }
    cr_assert_geq(raised_n, 8, "raised in %d of 10 fights", raised_n);
    fray_setup_free(s);
}

/* fray check: an animate spell is beneficial and Maintained, each at its
 * line and column. */
Test(winter_bonus_animate, spell_file_errors) {
    static const struct { const char *file; const char *words; } bad[] = {
        {"tests/data/winter/bad_animate.yaml", "give it maintain"},
        {"tests/data/winter/bad_animate_kind.yaml", "an animate spell is beneficial"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        sw_t_refused_file(bad[i].file, 5, bad[i].words);
}
