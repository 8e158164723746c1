/* test_winter_effects.c - items' and skills' effects from data (seed
 * 002:86-90: "Use a Magical or Alchemical Item on Yourself: 2 ... on
 * Another: 4 ... Use any other skill: 15"; the checklist's ruling 13:
 * "effects come from data (item or skill entries)";
 * docs/rules/silent-winter.md 35): heal, Pain back, the bleeding stopped,
 * Stunned ended, an item used up, a skill not, the GM's way kept for an
 * `item` without an entry, the words, undo, the tactics and the journal,
 * the file's errors. */
#include "winter_fixture.h"

#include <stdlib.h>

#include "fray/view.h"

#define KIT "tests/data/winter/kit.yaml"

static fray_fight *kit_fight(fray_setup **s) {
    *s = sw_t_load(KIT);
    return sw_t_start(*s, (int[]){6, 6, 6}, 3);
}

/* 002:86-87: the draught on another: delay 4 (ready on 1 + 1 + 4), 8
 * Health back up to the stat block's 34; used up, a second use refused. */
Test(winter_effects, heal_on_another_used_up_002_87) {
    fray_setup *s;
    fray_fight *f = kit_fight(&s);
    sw_state *st = sw_t_st(f);
    int he = sw_t_who(f, "healer"), lo = sw_t_who(f, "lothaire");
    st->c[lo].health = 20;
    sw_t_do(f, "healer item healing-draught lothaire", NULL, 0);
    cr_assert_eq(st->c[lo].health, 28);
    cr_assert_eq(st->c[he].ready, 1 + 1 + 4, "on another: 4 (002:87)");
    cr_assert_eq(st->c[he].busy_until, 1 + 4, "Undefended meanwhile (002:83)");
    char buf[4096];
    sw_t_told(f, buf, sizeof buf);
    cr_assert(strstr(buf, "Healer uses the item healing draught on Lothaire"), "%s", buf);
    cr_assert(strstr(buf, "The healing draught: Lothaire regains up to 8 Health; Health 28"),
              "%s", buf);
    sw_t_ready(f, he, -1);
    sw_t_refused(f, "healer item healing-draught lothaire", "used up the healing draught");
    sw_t_ready(f, lo, -1);
    sw_t_refused(f, "lothaire item healing-draught healer", "Lothaire has no item healing draught");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:86: on oneself: delay 2; Health never above the stat block's. */
Test(winter_effects, on_oneself_delay_2_002_86) {
    fray_setup *s;
    fray_fight *f = kit_fight(&s);
    sw_state *st = sw_t_st(f);
    int he = sw_t_who(f, "healer");
    st->c[he].health = 15;
    sw_t_do(f, "healer item healing-draught healer", NULL, 0);
    cr_assert_eq(st->c[he].health, 20, "up to the stat block's 20");
    cr_assert_eq(st->c[he].ready, 1 + 1 + 2);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The bandage stops the bleeding (as Medicine, 002:88-89, without its
 * roll); the smelling salts end Stunned (002:98): the Stun's wait is over,
 * Lothaire may declare on the next segment. */
Test(winter_effects, bleeding_stopped_and_stun_ended) {
    fray_setup *s;
    fray_fight *f = kit_fight(&s);
    sw_state *st = sw_t_st(f);
    int he = sw_t_who(f, "healer"), lo = sw_t_who(f, "lothaire");
    st->c[lo].flags |= SW_F_BLEEDING;
    sw_t_do(f, "healer item bandage lothaire", NULL, 0);
    cr_assert_eq(st->c[lo].flags & SW_F_BLEEDING, 0);
    char buf[4096];
    sw_t_told(f, buf, sizeof buf);
    cr_assert(strstr(buf, "Healer stops Lothaire's bleeding"), "%s", buf);
    st->c[lo].stun_until = 4;
    st->stun_max = 4;
    st->c[lo].ready = 5;
    cr_assert(sw_stunned(st, lo));
    sw_t_ready(f, he, -1);
    sw_t_do(f, "healer item smelling-salts lothaire", NULL, 0);
    cr_assert(!sw_stunned(st, lo), "Stunned no more");
    cr_assert_eq(st->c[lo].ready, 2, "the next segment");
    sw_t_told(f, buf, sizeof buf);
    cr_assert(strstr(buf, "Lothaire is no longer Stunned"), "%s", buf);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:90: a skill: delay 15, Pain back up to the block's, Winded no more;
 * a skill is not used up. Without an entry, `skill` and `item` keep the
 * GM's way (no effect told). */
Test(winter_effects, skill_pain_back_not_used_up_002_90) {
    fray_setup *s;
    fray_fight *f = kit_fight(&s);
    sw_state *st = sw_t_st(f);
    int he = sw_t_who(f, "healer");
    st->c[he].pain = 0;
    sw_t_do(f, "healer skill second-wind", NULL, 0);
    cr_assert_eq(st->c[he].pain, 2);
    cr_assert_eq(st->c[he].ready, 1 + 1 + 15);
    char buf[4096];
    sw_t_told(f, buf, sizeof buf);
    cr_assert(strstr(buf, "Healer is no longer Winded"), "%s", buf);
    sw_t_ready(f, he, -1);
    sw_t_do(f, "healer skill second-wind", NULL, 0);
    cr_assert_eq(st->c[he].pain, 4, "again, up to the block's 4");
    sw_t_ready(f, he, -1);
    sw_t_do(f, "healer item lothaire", NULL, 0);
    sw_t_told(f, buf, sizeof buf);
    cr_assert(strstr(buf, "the effect is the GM's call"), "%s", buf);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Undo takes the use back (the draught not used up); the journal names
 * the item and reads back. */
Test(winter_effects, undo_and_journal) {
    fray_setup *s;
    fray_fight *f = kit_fight(&s);
    int he = sw_t_who(f, "healer");
    sw_t_do(f, "healer item healing-draught healer", NULL, 0);
    cr_assert_neq(sw_t_st(f)->c[he].items_used, 0);
    size_t len;
    char *text = fx_journal(f, 1 << 20, &len);
    cr_assert(strstr(text, "\"item\":\"healing draught\""), "%s", text);
    free(text);
    cr_assert_eq(fray_fight_undo(f), FRAY_OK);
    cr_assert_eq(sw_t_st(f)->c[he].items_used, 0);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* A player who does not see Lothaire's numbers reads the draught's Health
 * in words (issue 14). */
Test(winter_effects, players_narration_hides_the_numbers) {
    fray_setup *s;
    fray_fight *f = kit_fight(&s);
    sw_t_st(f)->c[sw_t_who(f, "lothaire")].health = 10;
    sw_t_do(f, "healer item healing-draught lothaire", NULL, 0);
    int controls[] = {sw_t_who(f, "warrior")};
    fray_view_scope sc = fray_view_scope_player(controls, 1);
    sc.enemy_numbers = false;
    char buf[4096];
    size_t n = 0;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_event_narrate_for(f, fray_fight_events(f) - 1, &sc, buf, sizeof buf, &n,
                                        &d), FRAY_OK, "%s", d.message);
    cr_assert(strstr(buf, "The healing draught: Lothaire regains Health (Health: "), "%s", buf);
    cr_assert_null(strstr(buf, "Health 18"), "%s", buf);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The tactics use the kit where a GM would (an ally bleeding or below half
 * its Health, the healer not engaged), and each journal reads back. */
Test(winter_effects, tactics_and_journal) {
    fray_setup *s = sw_t_load(KIT);
    int used = sw_t_count_in_plays(s, 20, "\"item\":\"");
    cr_assert_geq(used, 1, "%d items used in 20 fights", used);
    fray_setup_free(s);
}

/* Ruling item-uses (once | unlimited): a second draught refused, or not. */
Test(winter_effects, item_uses_settings) {
    for (int unl = 0; unl < 2; unl++) {
        fray_setup *s = sw_t_load(KIT);
        sw_t_setup(s)->opt.items_unlimited = unl;
        fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
        int he = sw_t_who(f, "healer");
        sw_t_do(f, "healer item healing-draught healer", NULL, 0);
        sw_t_ready(f, he, -1);
        if (unl)
            sw_t_do(f, "healer item healing-draught healer", NULL, 0);
        else
            sw_t_refused(f, "healer item healing-draught healer", "used up");
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* fray check: an entry has an effect, heal is 1 or more, a stat block's
 * item is in the catalog; each at line 5 with its column. */
Test(winter_effects, file_errors) {
    static const struct { const char *file; const char *words; } bad[] = {
        {"tests/data/winter/bad_item.yaml", "has an effect: heal, pain, stop-bleeding or end-stun"},
        {"tests/data/winter/bad_item_heal.yaml", "between 1 and 999"},
        {"tests/data/winter/bad_item_block.yaml", "unknown item 'healing potion'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        sw_t_refused_file(bad[i].file, 5, bad[i].words);
}
