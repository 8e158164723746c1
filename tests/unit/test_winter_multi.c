/* test_winter_multi.c - talents that engage several targets at once
 * (seed 002:63: "When you Engage a target, the mount also Engages that
 * target, except that talents that enable you to engage multiple targets
 * simultaneously do not affect your mount"; 002:27 "A character may only
 * Engage one melee opponent at a time"; docs/rules/silent-winter.md 40):
 * a passive talent's engages: N, every derived rule reading all of
 * a combatant's edges, the options multi-reciprocal and multi-switch. */
#include "winter_fixture.h"

#include "fray/view.h"

#define MULTI "tests/data/winter/multi.yaml"

/* dancer (initiator), bandit, rogue, warrior: opening d6s for the three */
static fray_fight *multi_fight(fray_setup **s) {
    *s = sw_t_load(MULTI);
    return sw_t_start(*s, (int[]){6, 6, 6}, 3);
}

/* 002:63 against 002:27: with whirlwind (engages: 2) the dancer who
 * engages the bandit may Engage the warrior too; the warrior's edge then
 * leaves it defended (002:27 reads every edge); a third is refused, and
 * without the talent the second is. */
Test(winter_multi, two_targets_and_undefended_002_63) {
    fray_setup *s;
    fray_fight *f = multi_fight(&s);
    sw_state *st = sw_t_st(f);
    const sw_setup *sd = sw_fight_setup(fray__fight_rf(f));
    int da = sw_t_who(f, "dancer"), ba = sw_t_who(f, "bandit"), wa = sw_t_who(f, "warrior");
    cr_assert_eq(sw_eng_room(sd, da), 2);
    cr_assert_eq(sw_eng_room(sd, ba), 1);
    sw_t_ready(f, da, ba);
    sw_t_ready(f, ba, da);
    st->c[wa].engages = (int8_t)da;
    cr_assert(sw_undefended(sd, st, da, wa, false), "002:27: the warrior's edge is unanswered");
    sw_t_do(f, "dancer engage warrior", NULL, 0);
    cr_assert_eq(st->c[da].pend_kind, SW_PEND_ENGAGE);
    sw_t_to(f, 4);
    sw_t_do(f, "next", NULL, 0); /* the end of segment 1 + 3 */
    cr_assert(sw_eng(st, da, ba) && sw_eng(st, da, wa), "both at once");
    cr_assert_eq(st->c[da].engages, ba, "the bandit stays the first");
    cr_assert_eq(sw_eng_count(st, da), 2);
    cr_assert(!sw_undefended(sd, st, da, wa, false), "defended against the warrior now");
    char buf[4096];
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf),
                     "Blade-Dancer engages Warrior too (2 opponents at once"), "%s", buf);
    sw_draw_graph(sd, st, buf, sizeof buf);
    cr_assert(strstr(buf, "Blade-Dancer <-> Bandit") && strstr(buf, "Blade-Dancer <-> Warrior"),
              "%s", buf);
    sw_t_ready(f, da, ba);
    st->c[da].eng_more = (uint16_t)(1u << wa);
    sw_t_refused(f, "dancer engage rogue", "as many as its talent allows");
    fray_fight_free(f);
    fray_setup_free(s);
    /* without the talent: one at a time (002:27) */
    s = sw_t_load(MULTI);
    sw_t_setup(s)->c[sw_find_combatant(sw_t_setup(s), "dancer")].b.talents = 0;
    f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    sw_t_ready(f, da, ba);
    sw_t_refused(f, "dancer engage warrior", "one opponent at a time");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:31 "you must disengage from every opponent individually": a
 * success against the bandit ends that edge alone, and the warrior
 * becomes the dancer's first; its view lists each target. */
Test(winter_multi, disengage_one_of_several_002_31) {
    fray_setup *s;
    fray_fight *f = multi_fight(&s);
    sw_state *st = sw_t_st(f);
    int da = sw_t_who(f, "dancer"), ba = sw_t_who(f, "bandit"), wa = sw_t_who(f, "warrior");
    sw_t_ready(f, da, ba);
    st->c[da].eng_more = (uint16_t)(1u << wa);
    st->c[ba].engages = (int8_t)da;
    st->c[wa].engages = (int8_t)da;
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    int seen = 0;
    for (int k = 0; k < v->combatants[da].n_conditions; k++)
        seen += strcmp(v->combatants[da].conditions[k].name, "engages Bandit") == 0 ||
                strcmp(v->combatants[da].conditions[k].name, "engages Warrior") == 0;
    cr_assert_eq(seen, 2, "the view shows both edges");
    fray_fight_view_free(v);
    sw_t_do(f, "dancer disengage bandit", (int[]){20, 1}, 2);
    cr_assert(!sw_eng(st, da, ba) && !sw_eng(st, ba, da), "the bandit let go both ways");
    cr_assert_eq(st->c[da].engages, wa, "the warrior is its first now");
    cr_assert_eq(st->c[da].eng_more, 0);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The table, from the opening on: the second Engage lands at the end of
 * its delay (002:9), the journal reads back the same fight, and undo takes
 * the second edge back. */
Test(winter_multi, table_journal_and_undo) {
    fray_setup *s = sw_t_load(MULTI);
    fray_fight *f = sw_t_start(s, (int[]){1, 6, 1}, 3); /* bandit 2, rogue 7, warrior 2 */
    sw_state *st = sw_t_st(f);
    int da = sw_t_who(f, "dancer"), ba = sw_t_who(f, "bandit"), wa = sw_t_who(f, "warrior");
    sw_t_do(f, "dancer engage bandit", NULL, 0);
    sw_t_do(f, "next", NULL, 0);
    sw_t_do(f, "warrior engage dancer", NULL, 0);
    sw_t_do(f, "bandit wait", NULL, 0);
    sw_t_to(f, 5); /* the end of 4: the bandit's Reciprocal; of 5: the warrior's */
    sw_t_do(f, "next", NULL, 0);
    cr_assert(sw_eng(st, wa, da) && !sw_eng(st, da, wa), "multi-reciprocal: free");
    sw_t_do(f, "dancer engage warrior", NULL, 0); /* on 6: takes effect at the end of 9 */
    sw_t_to(f, 10);
    cr_assert(sw_eng(st, da, ba) && sw_eng(st, da, wa));
    /* the Raiders' player reads it as the GM does (no numbers in it) */
    int controls[] = {ba};
    fray_view_scope sc = fray_view_scope_player(controls, 1);
    sc.enemy_numbers = false;
    char buf[4096];
    size_t n = 0;
    fray_diag d;
    memset(&d, 0, sizeof d);
    int last = fray_fight_events(f) - 1;
    while (last > 0 && fray_event_narrate(f, last, buf, sizeof buf) &&
           !strstr(buf, "engages Warrior too"))
        last--;
    cr_assert_eq(fray_event_narrate_for(f, last, &sc, buf, sizeof buf, &n, &d), FRAY_OK, "%s",
                 d.message);
    cr_assert(strstr(buf, "Blade-Dancer engages Warrior too (2 opponents at once"), "%s", buf);
    size_t len;
    char *text = fx_journal(f, 1 << 20, &len);
    cr_assert(strstr(text, "\"targets\":2"), "the journal's fact says two");
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *g = NULL;
    cr_assert_eq(fray_fight_new(s, 1, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_assert(fray_fight_same(f, g));
    free(text);
    fray_fight_free(g);
    cr_assert_eq(fray_fight_undo(f), FRAY_OK);
    st = sw_t_st(f);
    cr_assert(sw_eng(st, da, ba) && !sw_eng(st, da, wa), "undo: the bandit alone again");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Ruling 40, multi-reciprocal (002:21 "If an opponent has Engaged you but
 * you are not currently Engaging anyone"): free (the text's words: only
 * one who engages nobody takes it) or room (one with room under its
 * talent takes it too). */
Test(winter_multi, reciprocal_settings) {
    for (int room = 0; room <= 1; room++) {
        fray_setup *s = sw_t_load(MULTI);
        sw_t_setup(s)->opt.multi_recip_room = room;
        fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
        sw_state *st = sw_t_st(f);
        int da = sw_t_who(f, "dancer"), ba = sw_t_who(f, "bandit"), wa = sw_t_who(f, "warrior");
        sw_t_ready(f, da, ba);
        sw_t_ready(f, ba, da);
        sw_t_ready(f, wa, -1);
        sw_t_do(f, "warrior engage dancer", NULL, 0);
        sw_t_to(f, 4);
        sw_t_do(f, "next", NULL, 0);
        cr_assert(sw_eng(st, wa, da));
        cr_assert_eq(sw_eng(st, da, wa), room == 1, "multi-reciprocal: %s",
                     room ? "room" : "free");
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* Ruling 40, multi-switch (002:29 "you switch from Engaging the Warrior
 * to Engaging the Rogue"): replace (the first edge given up, the roll
 * against it) or add (with room, the new one added and the first kept). */
Test(winter_multi, switch_settings) {
    for (int add = 0; add <= 1; add++) {
        fray_setup *s = sw_t_load(MULTI);
        sw_t_setup(s)->opt.multi_switch_add = add;
        fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
        sw_state *st = sw_t_st(f);
        int da = sw_t_who(f, "dancer"), ba = sw_t_who(f, "bandit"), ro = sw_t_who(f, "rogue");
        sw_t_ready(f, da, ba);
        st->c[ba].engages = (int8_t)da;
        st->c[ro].engages = (int8_t)da;
        sw_t_do(f, "dancer switch rogue", (int[]){20, 1}, 2);
        cr_assert(sw_eng(st, da, ro));
        cr_assert_eq(sw_eng(st, da, ba), add == 1, "multi-switch: %s", add ? "add" : "replace");
        cr_assert_eq(st->c[da].engages, add ? ba : ro);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* 002:63: "talents that enable you to engage multiple targets
 * simultaneously do not affect your mount": the lancer engages the bandit
 * and the rogue, the horse the bandit alone; when the bandit falls the
 * horse follows the rider's first, the rogue. */
Test(winter_multi, mount_follows_only_the_first_002_63) {
    fray_setup *s = sw_t_load("tests/data/winter/multi_mounted.yaml");
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    sw_state *st = sw_t_st(f);
    int la = sw_t_who(f, "lancer"), ho = sw_t_who(f, "horse"), ba = sw_t_who(f, "bandit"),
        ro = sw_t_who(f, "rogue");
    sw_t_do(f, "lancer engage bandit", (int[]){20, 1}, 2); /* Ride against Willfulness */
    sw_t_to(f, 4);
    sw_t_do(f, "next", NULL, 0);
    cr_assert_eq(st->c[la].engages, ba);
    cr_assert_eq(st->c[ho].engages, ba, "the mount Engages the rider's target");
    sw_t_ready(f, la, ba);
    sw_t_do(f, "lancer engage rogue", (int[]){20, 1}, 2);
    sw_t_to(f, 8);
    sw_t_do(f, "next", NULL, 0);
    cr_assert(sw_eng(st, la, ba) && sw_eng(st, la, ro), "the lancer engages both");
    cr_assert(sw_eng(st, ho, ba) && !sw_eng(st, ho, ro), "the horse only the first");
    st->c[ba].health = 1;
    sw_t_ready(f, la, ba);
    st->c[la].eng_more = (uint16_t)(1u << ro);
    sw_t_do(f, "lancer attack bandit", (int[]){20, 1, 6}, 3);
    cr_assert(st->c[ba].flags & SW_F_DEAD);
    cr_assert_eq(st->c[la].engages, ro, "the rogue is the lancer's first now");
    cr_assert_eq(st->c[ho].engages, ro, "and the horse's");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:27 (four engagers) and 002:51 (the cluster): each of a
 * multi-engager's edges takes its slots on its target, and puts it in its
 * target's cluster. */
Test(winter_multi, slots_and_clusters_002_27_51) {
    fray_setup *s = sw_t_load(MULTI);
    sw_setup *sd = sw_t_setup(s);
    sd->c[sw_find_combatant(sd, "warrior")].b.capacity = 1;
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    sw_state *st = sw_t_st(f);
    int da = sw_t_who(f, "dancer"), ba = sw_t_who(f, "bandit"), wa = sw_t_who(f, "warrior");
    /* a second Town fighter (the bandit made one) finds the warrior full */
    sd = (sw_setup *)sw_fight_setup(fray__fight_rf(f));
    sd->c[ba].side = sd->c[da].side;
    sw_t_ready(f, da, -1);
    st->c[da].engages = (int8_t)sw_t_who(f, "rogue");
    st->c[da].eng_more = (uint16_t)(1u << wa);
    sw_t_ready(f, ba, -1);
    sw_t_refused(f, "bandit engage warrior", "Fully Engaged");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The tactics a GM would recognise: the dancer, engaged and answered by
 * one, Engages a foe that engages it unanswered while it has room, never
 * more than its talent allows; the journal reads back the same fight. */
static void multi_look(const sw_setup *sd, const sw_state *st, const sw_event *cmd,
                       uint64_t seed, void *ctx) {
    int *seconds = ctx;
    int da = sw_find_combatant(sd, "dancer");
    cr_assert_leq(sw_eng_count(st, da), 2, "seed %llu", (unsigned long long)seed);
    if (cmd->actor == da && cmd->kind == SW_EV_ENGAGE && st->c[da].engages >= 0) {
        (*seconds)++;
        cr_assert(sw_eng(st, cmd->target, da), "it answers a foe that engages it");
    }
}

Test(winter_multi, tactics_and_journal) {
    fray_setup *s = sw_t_load(MULTI);
    int seconds = 0;
    for (uint64_t seed = 1; seed <= 30; seed++)
        sw_t_play(s, seed, multi_look, &seconds, NULL);
    cr_assert_gt(seconds, 0, "a second Engage in 30 fights");
    fray_setup_free(s);
}

/* fray check: engages is a passive talent's, alone, 2 or more; each at
 * line 5 with its column. */
Test(winter_multi, talent_file_errors) {
    static const struct { const char *file; const char *words; } bad[] = {
        {"tests/data/winter/bad_multi.yaml", "resolve: passive"},
        {"tests/data/winter/bad_multi2.yaml", "one effect"},
        {"tests/data/winter/bad_multi3.yaml", "between 2 and"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        sw_t_refused_file(bad[i].file, 5, bad[i].words);
}
