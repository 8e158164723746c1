/* test_winter_spells.c - spells (seed 002 "Magical Combat", 002:71-79):
 * the Magic a spell costs, its delay with the effect at the end (002:77),
 * Personal, Beneficial and Ranged spells (002:71), the spell power's d6
 * (002:79), Maintain and release (002:73), interruptions and the flat
 * Endurance rolls when Pain is lost (002:73, 77); the table's words, the
 * journal, undo and the tactics. */
#include "winter_fixture.h"

#include <stdlib.h>

#define WITCH "examples/silent-winter/witch.yaml"

/* The witch first; Lothaire, the corpse and the bandit first declare on 7. */
static fray_fight *witch_fight(fray_setup **s) {
    *s = sw_t_load(WITCH);
    return sw_t_start(*s, (int[]){6, 6, 6}, 3);
}

/* 002:77 "Like the Engage action, spells take effect at the END of the
 * delay period"; 002:71 a Ranged spell needs a Magic Attack roll; 002:79
 * damage adds the mage's spell power in d6; 002:37 magical damage costs
 * Pain too. Firebolt (delay 3, cost 2, 1d6) from Magic Attack 6 and
 * spell power 1 against the bandit's Magic Defense 0. */
Test(winter_spells, a_spell_takes_effect_when_its_delay_ends) {
    fray_setup *s;
    fray_fight *f = witch_fight(&s);
    sw_state *st = sw_t_st(f);
    int wi = sw_t_who(f, "witch"), ba = sw_t_who(f, "bandit");
    sw_t_do(f, "witch cast firebolt bandit", NULL, 0);
    cr_assert_eq(st->c[wi].ready, 1 + 1 + 3, "1 to declare, then the delay (002:9)");
    cr_assert_eq(st->c[wi].magic, 12, "nothing paid before it takes effect");
    sw_t_to(f, 4);
    cr_assert_eq(st->c[ba].health, 22, "no effect before the end of the delay");
    sw_t_do(f, "next", (int[]){15, 2, 4, 5}, 4); /* 6+15 against 0+2; 1d6 + 1d6 */
    cr_assert_eq(st->c[ba].health, 22 - 9, "1d6 and the spell power's 1d6, no Magic Resistance");
    cr_assert_eq(st->c[ba].pain, 4, "002:37: magical damage costs a point of Pain");
    cr_assert_eq(st->c[wi].magic, 10, "002:71: its cost in Magic");
    char buf[4096];
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "firebolt takes effect on Bandit"), "%s", buf);
    cr_assert(strstr(buf, "Magic Attack against Magic Defense"), "%s", buf);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:73: a Maintained spell sets its Maintain aside from current Magic;
 * without enough Magic for it the spell cannot be cast; it may be released
 * at any time for its Maintain back. The ward's +5 is a spell's bonus to
 * Physical Defense, kept when Undefended (002:27, 96). */
Test(winter_spells, maintain_sets_magic_aside_and_release_returns_it) {
    fray_setup *s;
    fray_fight *f = witch_fight(&s);
    sw_state *st = sw_t_st(f);
    int wi = sw_t_who(f, "witch"), co = sw_t_who(f, "corpse");
    st->c[wi].magic = 2;
    sw_t_refused(f, "witch cast ward", "needs 3 with its Maintain");
    st->c[wi].magic = 12;
    sw_t_do(f, "witch cast ward", NULL, 0);
    sw_t_to(f, 4);
    cr_assert_eq(st->c[wi].n_maint, 1);
    cr_assert_eq(st->c[wi].magic, 12 - 1 - 2, "the cost, and the Maintain set aside");
    sw_t_ready(f, co, wi);
    char buf[4096];
    sw_t_do(f, "corpse attack witch", (int[]){1, 10}, 2); /* Undefended: 2 + 5 + 10 */
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "against Undefended 17"), "%s", buf);
    sw_t_do(f, "witch release ward", NULL, 0); /* at any time: she is not free to declare */
    cr_assert_eq(st->c[wi].magic, 11, "its Maintain back (002:73)");
    cr_assert_eq(st->c[wi].n_maint, 0);
    cr_assert_eq(st->c[wi].ready, 4, "a release is no declaration");
    st->c[co].ready = st->seg;
    st->c[co].decl_seg = 0;
    sw_t_do(f, "corpse attack witch", (int[]){1, 10}, 2);
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "against Undefended 12"), "%s", buf);
    sw_t_refused(f, "witch release ward", "Maintains no ward");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:77 "Each time they lose Pain during the casting delay, they must
 * make a flat Endurance roll or the casting is immediately interrupted
 * ... They do not pay the casting cost and may declare that they are
 * casting again on the next segment." */
Test(winter_spells, pain_lost_while_casting_interrupts_on_a_failed_roll) {
    for (int pass = 0; pass < 2; pass++) {
        fray_setup *s;
        fray_fight *f = witch_fight(&s);
        sw_state *st = sw_t_st(f);
        int wi = sw_t_who(f, "witch"), co = sw_t_who(f, "corpse");
        sw_t_do(f, "witch cast firebolt bandit", NULL, 0);
        sw_t_to(f, 2);
        sw_t_ready(f, co, wi);
        /* a hit (20 against 1), claws 1d6+2: 3, a point of Pain, then the
         * flat Endurance roll: 3 + 1 against 20 fails, 3 + 20 against 1 holds */
        if (pass == 0)
            sw_t_do(f, "corpse attack witch", (int[]){20, 1, 3, 1, 20}, 5);
        else
            sw_t_do(f, "corpse attack witch", (int[]){20, 1, 3, 20, 1}, 5);
        cr_assert_eq(st->c[wi].pain, 3);
        if (pass == 0) {
            cr_assert_eq(st->c[wi].pend_kind, SW_PEND_NONE, "interrupted");
            cr_assert_eq(st->c[wi].ready, 3, "may cast again on the next segment");
            cr_assert_eq(st->c[wi].magic, 12, "the cost not paid");
            char buf[4096];
            cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "is interrupted"), "%s", buf);
            sw_t_to(f, 3);
            sw_t_do(f, "witch cast firebolt bandit", NULL, 0);
        } else {
            cr_assert_eq(st->c[wi].pend_kind, SW_PEND_SPELL, "the casting goes on");
            cr_assert_eq(st->c[wi].ready, 5);
        }
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* 002:73 "If you are maintaining a spell and lose pain, you must ... make
 * an immediate flat Endurance roll. If you succeed, you continue
 * Maintaining all spells. If you fail, you cease maintaining the spell of
 * your choice": the ward ends and its Maintain comes back. */
Test(winter_spells, pain_lost_while_maintaining_may_end_the_spell) {
    for (int pass = 0; pass < 2; pass++) {
        fray_setup *s;
        fray_fight *f = witch_fight(&s);
        sw_state *st = sw_t_st(f);
        int wi = sw_t_who(f, "witch"), co = sw_t_who(f, "corpse");
        sw_t_do(f, "witch cast ward", NULL, 0);
        sw_t_to(f, 4);
        cr_assert_eq(st->c[wi].n_maint, 1);
        sw_t_ready(f, co, wi);
        if (pass == 0)
            sw_t_do(f, "corpse attack witch", (int[]){20, 1, 3, 1, 20}, 5);
        else
            sw_t_do(f, "corpse attack witch", (int[]){20, 1, 3, 20, 1}, 5);
        if (pass == 0) {
            cr_assert_eq(st->c[wi].n_maint, 0, "a failed roll ends the ward");
            cr_assert_eq(st->c[wi].magic, 11, "its Maintain back (dropped-maintain: back)");
            char buf[4096];
            cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "ceases to Maintain ward"), "%s", buf);
        } else {
            cr_assert_eq(st->c[wi].n_maint, 1, "a success keeps it");
            cr_assert_eq(st->c[wi].magic, 9);
        }
        fray_fight_free(f);
        fray_setup_free(s);
    }
    /* ruling 24, dropped-maintain: lost: the Maintain set aside is gone */
    fray_setup *s = sw_t_load(WITCH);
    sw_t_setup(s)->opt.dropped_maint_lost = true;
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    sw_state *st = sw_t_st(f);
    int wi = sw_t_who(f, "witch"), co = sw_t_who(f, "corpse");
    sw_t_do(f, "witch cast ward", NULL, 0);
    sw_t_to(f, 4);
    sw_t_ready(f, co, wi);
    sw_t_do(f, "corpse attack witch", (int[]){20, 1, 3, 1, 20}, 5);
    cr_assert_eq(st->c[wi].n_maint, 0);
    cr_assert_eq(st->c[wi].magic, 9, "dropped-maintain: lost: no Magic back");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:71: "Personal spells affect the mage (and only the mage)";
 * "Beneficial spells require no roll ... but they cannot be cast on the
 * mage". Mend heals 8, no more than the stat block's Health. */
Test(winter_spells, personal_and_beneficial) {
    fray_setup *s;
    fray_fight *f = witch_fight(&s);
    sw_state *st = sw_t_st(f);
    int lo = sw_t_who(f, "lothaire");
    sw_t_refused(f, "witch cast ward lothaire", "Personal spell: on the mage only");
    sw_t_refused(f, "witch cast mend witch", "Beneficial spell: it cannot be cast on the mage");
    sw_t_refused(f, "witch cast mend", "mend needs a target");
    sw_t_refused(f, "witch cast lightning bandit", "'lightning': expected a spell of the catalog");
    sw_t_refused(f, "witch cast", "expected the spell after 'cast'");
    st->c[lo].health = 30;
    sw_t_do(f, "witch cast mend lothaire", NULL, 0); /* no roll: no dice */
    sw_t_to(f, 5);
    cr_assert_eq(st->c[lo].health, 30, "delay 4: in effect at the end of segment 1 + 4");
    sw_t_to(f, 6);
    cr_assert_eq(st->c[lo].health, 34, "healed up to its Health 34");
    cr_assert_eq(st->c[sw_t_who(f, "witch")].magic, 9);
    /* one who knows no spells */
    st->c[lo].ready = st->seg;
    sw_t_refused(f, "lothaire cast firebolt bandit", "knows no such spell");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The files: a defense spell lasts while Maintained, so one without a
 * Maintain is refused at its place. */
Test(winter_spells, spell_file_errors) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, "tests/data/winter/bad_spell.yaml");
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_setup *s = NULL;
    cr_assert_neq(fray_setup_load(path, NULL, &s, &diag), FRAY_OK);
    cr_assert_eq(diag.line, 4, "%d: %s", diag.line, diag.message);
    cr_assert(strstr(diag.message, "lasts while Maintained"), "%s", diag.message);
}

/* Tactics a GM would recognise: a caster not engaged casts (the ward on
 * herself first, then firebolts), and never declares a spell while
 * engaged. */
Test(winter_spells, tactics_cast_when_not_engaged) {
    fray_setup *s = sw_t_load(WITCH);
    int casts = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        fray_fight_options o = {.journal = true, .facts = true, .until = 0};
        fray_fight *f = NULL;
        cr_assert_eq(fray_fight_new(s, seed, &o, NULL, NULL, &f), FRAY_OK);
        int wi = sw_t_who(f, "witch");
        const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
        bool first = true;
        while (!fray_fight_over(f)) {
            sw_event cmd;
            sw_state *st = sw_t_st(f);
            sw_choose(sd, st, &cmd);
            if (cmd.actor == wi && cmd.kind != SW_EV_NEXT && first) {
                cr_assert_eq(cmd.kind, SW_EV_CAST, "seed %llu", (unsigned long long)seed);
                cr_assert_str_eq(sd->sp[cmd.arg].name, "ward");
                first = false;
            }
            if (cmd.actor == wi && cmd.kind == SW_EV_CAST) {
                casts++;
                for (int j = 0; j < st->n; j++)
                    cr_assert_neq(st->c[j].engages, wi, "seed %llu: cast while engaged",
                                  (unsigned long long)seed);
                cr_assert_eq(st->c[wi].engages, -1);
            }
            cr_assert_eq(fray_fight_step(f), FRAY_OK);
        }
        fray_fight_free(f);
    }
    cr_assert_geq(casts, 40, "%d casts in 20 fights", casts);
    fray_setup_free(s);
}

/* The journal ("spell": "ward") reads back onto a new fight to the same
 * state; undo takes back a release. */
Test(winter_spells, journal_round_trip_and_undo) {
    fray_setup *s = sw_t_load(WITCH);
    for (uint64_t seed = 1; seed <= 5; seed++) {
        char *text = NULL;
        sw_t_play(s, seed, NULL, NULL, &text);
        cr_assert(strstr(text, "\"action\":\"cast\",\"actor\":\"witch\""), "seed %llu",
                  (unsigned long long)seed);
        free(text);
    }
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    int wi = sw_t_who(f, "witch");
    sw_t_do(f, "witch cast ward", NULL, 0);
    sw_t_to(f, 4);
    sw_t_do(f, "witch release ward", NULL, 0);
    cr_assert_eq(sw_t_st(f)->c[wi].n_maint, 0);
    cr_assert_eq(fray_fight_undo(f), FRAY_OK);
    cr_assert_eq(sw_t_st(f)->c[wi].n_maint, 1, "undo: Maintaining again");
    cr_assert_eq(sw_t_st(f)->c[wi].magic, 9);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:51 "if you miss with a ranged attack you have a chance to hit anyone
 * in that particular Engaged cluster ... All Talents that would modify the
 * attack are negated by the miss, although Spells are not": a Ranged
 * spell's miss into the bandit's cluster (Lothaire, engaged with it) is
 * rolled against Lothaire, the spell whole (ruling friendly-fire: on, as a
 * weapon's miss, docs/rules/silent-winter.md 18); friendly-fire: off rolls
 * nothing more. */
Test(winter_spells, a_missed_ranged_spell_may_strike_the_cluster_002_51) {
    for (int on = 1; on >= 0; on--) {
        fray_setup *s;
        fray_fight *f = witch_fight(&s);
        sw_t_setup(s)->opt.friendly_fire = on;
        sw_state *st = sw_t_st(f);
        int lo = sw_t_who(f, "lothaire"), ba = sw_t_who(f, "bandit");
        st->c[lo].engages = (int8_t)ba;
        st->c[ba].engages = (int8_t)lo;
        sw_t_do(f, "witch cast firebolt bandit", NULL, 0);
        sw_t_to(f, 4);
        if (on) /* 6+1 against 0+20: miss; 6+15 against Lothaire's 0+1: hit; 2+4 */
            sw_t_do(f, "next", (int[]){1, 20, 15, 1, 2, 4}, 6);
        else
            sw_t_do(f, "next", (int[]){1, 20}, 2);
        cr_assert_eq(st->c[ba].health, 22, "the bandit is missed");
        cr_assert_eq(st->c[lo].health, on ? 34 - 6 : 34,
                     "friendly-fire: %s (mail does not ward magic)", on ? "on" : "off");
        cr_assert_eq(st->c[lo].pain, on ? 5 : 6, "002:37: a point of Pain");
        char buf[4096];
        sw_t_told(f, buf, sizeof buf);
        cr_assert(on ? strstr(buf, "it may hit Lothaire") != NULL
                     : strstr(buf, "may hit") == NULL, "%s", buf);
        if (on)
            cr_assert(strstr(buf, "attacks Lothaire with the spell (friendly fire;"), "%s", buf);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}
