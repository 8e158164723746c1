/* test_winter_rulings_options.c - rulings 30, 31 and 32 as options
 * (docs/rules/silent-winter.md; issue 17: "every other silence ... each an
 * option with a test of its settings"):
 *   area-talent: target | cluster    a talent with an area weapon (002:53)
 *   enchant-pain: one | each         an enchanted hit's Pain (002:35, 37)
 *   engage-talents: shortest | add   several Engage talents (002:19)
 * each setting tried, the file's words read, a bad value refused at its
 * line and column. */
#include "winter_fixture.h"

#include <stdlib.h>

#include "fray/chances.h"

#define AREA_TALENT "tests/data/winter/area_talent.yaml"
#define ENCHANT "tests/data/winter/enchant.yaml"
#define STRIDE "tests/data/winter/stride.yaml"

/* The file sets every one of the three to its other value. */
Test(winter_rulings_options, the_file_sets_them) {
    fray_setup *s = sw_t_load(AREA_TALENT);
    const sw_options *o = &sw_t_setup(s)->opt;
    cr_assert(o->area_talent_cluster);
    cr_assert(o->enchant_pain_each);
    cr_assert(o->engage_talents_add);
    fray_setup_free(s);
    s = sw_t_load(STRIDE); /* the defaults: target, one, shortest */
    o = &sw_t_setup(s)->opt;
    cr_assert(!o->area_talent_cluster && !o->enchant_pain_each && !o->engage_talents_add);
    fray_setup_free(s);
}

/* Ruling 30, area-talent (002:53 "you don't have to roll to hit with them
 * - they automatically affect everyone in a given Engaged cluster. If an
 * area effect causes Wounds or Stun, it works just as well on allies as it
 * does on foes"): the flailer's hamstring (Stun 2) swung with the great
 * flail into the warrior's cluster (the warrior, Lothaire; the flailer
 * spared, area-attacker: spared) Stuns the warrior alone (target) or
 * Lothaire too (cluster); the damage falls on both either way. */
Test(winter_rulings_options, area_talent_settings_002_53) {
    for (int cluster = 0; cluster < 2; cluster++) {
        fray_setup *s = sw_t_load(AREA_TALENT);
        sw_t_setup(s)->opt.area_talent_cluster = cluster;
        fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
        sw_state *st = sw_t_st(f);
        int fl = sw_t_who(f, "flailer"), lo = sw_t_who(f, "lothaire"),
            wa = sw_t_who(f, "warrior"), ba = sw_t_who(f, "bandit");
        st->c[lo].engages = (int8_t)wa;
        st->c[wa].engages = (int8_t)lo;
        st->c[fl].engages = (int8_t)wa;
        sw_t_do(f, "flailer talent hamstring warrior", (int[]){4, 3}, 2);
        cr_assert_eq(st->c[wa].health, 32 - (7 - 2), "2d6 less Physical Resistance 2");
        cr_assert_eq(st->c[lo].health, 34 - (7 - 2));
        cr_assert(sw_stunned(st, wa), "the target is Stunned either way");
        cr_assert_eq(sw_stunned(st, lo), cluster == 1, "area-talent: %s",
                     cluster ? "cluster" : "target");
        cr_assert(!sw_stunned(st, fl) && !sw_stunned(st, ba));
        cr_assert_eq(st->c[fl].pain, 4 - 1, "the talent's Pain once, whatever it falls on");
        char buf[4096];
        sw_t_told(f, buf, sizeof buf);
        cr_assert(strstr(buf, "Lothaire") && strstr(buf, "Stunned"), "%s", buf);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* The tactics, with area-talent: cluster, never Stun a cluster holding one
 * of their own side, and each fight's journal reads back to it. */
static void no_stun_on_allies(const sw_setup *sd, const sw_state *st, const sw_event *cmd,
                              uint64_t seed, void *ctx) {
    (void)ctx;
    if (cmd->kind != SW_EV_TALENT || !sw_hand(sd, st, cmd->actor)->area)
        return;
    for (int j = 0; j < st->n; j++) {
        bool in = j == cmd->target || st->c[j].engages == cmd->target ||
                  st->c[cmd->target].engages == j;
        cr_assert(!in || j == cmd->actor || sd->c[j].side != sd->c[cmd->actor].side,
                  "seed %llu: a Stun on the cluster of an ally", (unsigned long long)seed);
    }
}

Test(winter_rulings_options, area_talent_tactics_and_journal) {
    fray_setup *s = sw_t_load(AREA_TALENT);
    for (uint64_t seed = 1; seed <= 10; seed++)
        sw_t_play(s, seed, no_stun_on_allies, NULL, NULL);
    fray_setup_free(s);
}

/* The mage lays the flame on Lothaire's sword; Lothaire and the warded
 * knight engage each other (as test_winter_enchant.c). */
static fray_fight *flame_fight(fray_setup *s) {
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    sw_t_do(f, "mage cast flame-blade lothaire", NULL, 0);
    sw_t_to(f, 3);
    sw_t_do(f, "next", NULL, 0);
    int lo = sw_t_who(f, "lothaire"), kn = sw_t_who(f, "knight");
    sw_t_ready(f, lo, kn);
    sw_t_ready(f, kn, lo);
    return f;
}

/* Ruling 31, enchant-pain (002:35 one hit with two kinds of damage; 002:37
 * "Any time you are hit and take damage, you also lose a point of pain"):
 * both parts through: one point (one) or two (each); the Magical part
 * stopped by Magic Resistance: one point either way. */
Test(winter_rulings_options, enchant_pain_settings_002_35) {
    for (int each = 0; each < 2; each++) {
        fray_setup *s = sw_t_load(ENCHANT);
        sw_t_setup(s)->opt.enchant_pain_each = each;
        fray_fight *f = flame_fight(s);
        sw_state *st = sw_t_st(f);
        int lo = sw_t_who(f, "lothaire"), kn = sw_t_who(f, "knight");
        /* sword 6 - 2 and flame 8 - 3: both through */
        sw_t_do(f, "lothaire attack knight", (int[]){20, 1, 3, 3, 4, 4}, 6);
        cr_assert_eq(st->c[kn].health, 30 - 4 - 5);
        cr_assert_eq(st->c[kn].pain, 5 - (each ? 2 : 1), "enchant-pain: %s",
                     each ? "each" : "one");
        /* flame 1 + 1 = 2 against Magic Resistance 3: the Physical part alone */
        sw_t_ready(f, lo, kn);
        sw_t_do(f, "lothaire attack knight", (int[]){20, 1, 3, 3, 1, 1}, 6);
        cr_assert_eq(st->c[kn].pain, 5 - (each ? 2 : 1) - 1);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* The chances at the table: counted with enchant-pain: one
 * (test_winter_enchant.c), refused in words with each (two Pain dice). */
Test(winter_rulings_options, enchant_pain_each_chances_refused) {
    fray_setup *s = sw_t_load(ENCHANT);
    sw_t_setup(s)->opt.enchant_pain_each = true;
    fray_fight *f = flame_fight(s);
    fray_chances *c = malloc(sizeof *c);
    cr_assert_not_null(c);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_action_chances(f, sw_t_who(f, "lothaire"), "attack knight", c, &d),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "enchant-pain: each"), "%s", d.message);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Ruling 32, engage-talents (002:19 "Only Talents can change how long it
 * takes to Engage"): quick step (2) and heavy tread (4) against the
 * option's 3: the shortest, 2; or each change added, 3 - 1 + 1 = 3; two
 * talents of 1 added give 3 - 2 - 2, at least 1 (002:11). */
Test(winter_rulings_options, engage_talents_settings_002_19) {
    static const struct { bool add; int quick, heavy, delay; } cases[] = {
        {false, 2, 4, 2}, {true, 2, 4, 3}, {true, 1, 1, 1}, {false, 1, 1, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fray_setup *s = sw_t_load(STRIDE);
        sw_setup *sd = sw_t_setup(s);
        sd->opt.engage_talents_add = cases[i].add;
        for (int k = 0; k < sd->n_talents; k++) {
            if (strcmp(sd->tl[k].name, "quick step") == 0)
                sd->tl[k].amount = (int8_t)cases[i].quick;
            if (strcmp(sd->tl[k].name, "heavy tread") == 0)
                sd->tl[k].amount = (int8_t)cases[i].heavy;
        }
        fray_fight *f = sw_t_start(s, (int[]){6}, 1);
        sw_state *st = sw_t_st(f);
        int du = sw_t_who(f, "duellist");
        sw_t_do(f, "duellist engage bandit", NULL, 0);
        cr_assert_eq(st->c[du].ready, 1 + 1 + cases[i].delay, "case %zu: engage-talents: %s",
                     i, cases[i].add ? "add" : "shortest");
        cr_assert_eq(st->c[du].pend_at, 1 + cases[i].delay);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* fray check: a value not among the option's is refused at its line and
 * column, with the values there are. */
Test(winter_rulings_options, bad_value_refused) {
    /* the message names the option and the values there are */
    sw_t_refused_file("tests/data/winter/bad_rulings_options.yaml", 5, "area-talent");
    sw_t_refused_file("tests/data/winter/bad_rulings_options.yaml", 5, "cluster");
}
