/* test_d6_draw.c - quick draw (src/rules/d6/draw.c): the ranger of seed
 * 003:98 with his numbers (rulesets-checklists D6.1), at least 1D left
 * in the skill and 1D off per extra attack (003:97), the pips staying
 * (D7.21); and the quick draw at the table: announced before initiative,
 * the round's initiative with the moved dice, every attack at the code
 * left with no further multi-action penalty, refusals in rules words. */
#define _POSIX_C_SOURCE 200809L
#include "d6_fixture.h"

#include <unistd.h>

static d6_code C(const char *t) { return d6_fx_code(t); }

/* 003:98 "The ranger has 4D in Acumen and 8D in throwing. He may take up
 * to 7D" */
Test(d6_draw, ranger_one_attack_moves_up_to_7D_003_98) {
    d6_quick q;
    char why[160];
    cr_assert_eq(d6_quick_draw(C("4D"), C("8D"), 1, 7, &q, why, sizeof why), FRAY_OK, "%s", why);
    cr_assert_eq(q.max_move, 7);
    cr_assert_eq(q.acumen.dice, 11);
    cr_assert_eq(q.skill.dice, 1, "at least 1D stays (003:97)");
    cr_assert_neq(d6_quick_draw(C("4D"), C("8D"), 1, 8, &q, why, sizeof why), FRAY_OK);
}

/* 003:98 "After subtracting 1D for the extra attack, he now has 7D in the
 * skill, which allows him to add up to 6D ... He decides to move only
 * 3D. This gives him 7D in Acumen ... and 4D in throwing." */
Test(d6_draw, ranger_two_attacks_moves_3D_003_98) {
    d6_quick q;
    char why[160];
    cr_assert_eq(d6_quick_draw(C("4D"), C("8D"), 2, 3, &q, why, sizeof why), FRAY_OK, "%s", why);
    cr_assert_eq(q.max_move, 6, "7D after the extra attack: up to 6D");
    cr_assert_eq(q.acumen.dice, 7);
    cr_assert_eq(q.acumen.pips, 0);
    cr_assert_eq(q.skill.dice, 4);
    cr_assert_eq(q.skill.pips, 0);
    cr_assert_eq(d6_quick_draw(C("4D"), C("8D"), 2, 6, &q, why, sizeof why), FRAY_OK);
}

/* D6.1 "A request to move 7D with 2 attacks declared must be refused (6D
 * is the limit)", in rules words. */
Test(d6_draw, ranger_7D_with_two_attacks_refused_003_98) {
    d6_quick q;
    char why[200];
    cr_assert_eq(d6_quick_draw(C("4D"), C("8D"), 2, 7, &q, why, sizeof why), FRAY_ERR_INVALID);
    cr_assert(strstr(why, "at most 6D may move to Acumen"), "%s", why);
}

/* D7.21: the pips stay (Acumen 3D+2, skill 5D+1, 1 attack, 2D moved:
 * 5D+2 and 3D+1); 1D off per extra attack (4 attacks on 4D leaves 1D:
 * nothing may move). */
Test(d6_draw, pips_stay_and_extra_attacks_cost_dice_d7_21) {
    d6_quick q;
    char why[200];
    cr_assert_eq(d6_quick_draw(C("3D+2"), C("5D+1"), 1, 2, &q, why, sizeof why), FRAY_OK);
    cr_assert_eq(q.acumen.dice, 5);
    cr_assert_eq(q.acumen.pips, 2);
    cr_assert_eq(q.skill.dice, 3);
    cr_assert_eq(q.skill.pips, 1);
    cr_assert_eq(d6_quick_draw(C("3D"), C("4D"), 4, 1, &q, why, sizeof why), FRAY_ERR_INVALID);
    cr_assert(strstr(why, "leaves no die to move"), "%s", why);
    cr_assert_eq(d6_quick_draw(C("3D"), C("4D"), 3, 1, &q, why, sizeof why), FRAY_OK);
    cr_assert_eq(q.skill.dice, 1);
    cr_assert_eq(d6_quick_draw(C("3D"), C("4D"), 5, 1, &q, why, sizeof why), FRAY_ERR_INVALID);
    cr_assert_eq(d6_quick_draw(C("3D"), C("4D"), 1, 0, &q, why, sizeof why), FRAY_ERR_INVALID);
}

/* ---- At the table (003:96-99) ---- */

static d6_setup S;

/* The duel's knight as the ranger of 003:98: Acumen 4D, throwing 8D,
 * thrown daggers (suitable for quick drawing, 003:95) in hand, a sword
 * carried; the brigand 6 m off (Short range: difficulty 10). */
static void ranger(void) {
    d6_fx_duel(&S);
    d6_weapon *w = &S.w[S.n_weapons];
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "thrown dagger");
    w->skill = D6_SK_THROWING;
    w->damage = d6_fx_code("1D");
    w->strength = true;
    w->range[0] = 10;
    w->range[1] = 20;
    w->range[2] = 40;
    w->hands = 1;
    w->quick_draw = true;
    d6_block *b = &S.c[0].b;
    b->weapon = (int8_t)S.n_weapons++;
    b->carried = 1u << D6_FX_SWORD;
    b->attr[D6_ACUMEN] = d6_fx_code("4D");
    b->skill[D6_SK_THROWING] = d6_fx_code("8D");
    b->has_skill |= 1u << D6_SK_THROWING;
}

static void refused(fray_fight *f, const char *cmd, const char *why) {
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_neq(d6_fx_cmd(f, cmd, NULL, 0, &diag), FRAY_OK, "%s", cmd);
    cr_assert(strstr(diag.message, why), "%s: %s", cmd, diag.message);
}

/* 003:96 announced before initiative; 003:98 3D moved with two attacks:
 * initiative 7D, both throws at 4D with no further multi-action penalty
 * (003:97); 7D refused; the journal back and replayed. */
Test(d6_draw, ranger_at_the_table_003_96_98) {
    ranger();
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 5, 2, 2}; /* 4D 20, 2D+2 6 */
    fray_fight *f = d6_fx_start(&fs, init, 6);
    refused(f, "knight quick-draw 3 attacks 2",
            "announces a quick draw before initiative is rolled");
    d6_fx_ok(f, "knight wait", NULL, 0);
    d6_fx_ok(f, "brigand wait", NULL, 0);
    refused(f, "knight quick-draw 7 attacks 2", "at most 6D may move to Acumen");
    refused(f, "knight quick-draw 2 with sword", "not suitable for quick drawing");
    refused(f, "knight quick-draw 2 with club", "neither holds nor carries");
    d6_fx_ok(f, "knight quick-draw 3 attacks 2", NULL, 0);
    char j[8192];
    fray_event_json(f, fray_fight_events(f) - 1, j, sizeof j);
    cr_assert(strstr(j, "\"action\":\"quick-draw\",\"actor\":\"knight\",\"moved\":3,\"attacks\":2"), "%s", j);
    cr_assert(strstr(j, "\"moved\":3,\"attacks\":2,\"initiative_dice\":7,\"skill_dice\":4"), "%s", j);
    refused(f, "knight quick-draw 2", "already");
    /* next: the knight's initiative 7D (seven dice), the brigand's 2D+2 */
    const int nx[] = {2, 2, 2, 2, 2, 2, 2, 3, 3};
    d6_fx_ok(f, "next", nx, 9);
    fray_event_json(f, fray_fight_events(f) - 1, j, sizeof j);
    cr_assert(strstr(j, "\"who\":\"knight\",\"total\":14,\"place\":1"), "%s", j);
    refused(f, "knight attack brigand", "quick draw of 2 attack(s)");
    /* each throw 4D: [4,4,4,4] 16 and [3,3,3,3] 12 against 10; damage
     * STR+1D = 3D, resistance 4D */
    const int d[] = {4, 4, 4, 4, 2, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 2, 1, 1, 3, 3, 3, 3};
    d6_fx_ok(f, "knight attack brigand actions 2", d, sizeof d / sizeof d[0]);
    fray_event_json(f, fray_fight_events(f) - 1, j, sizeof j);
    cr_assert(strstr(j, "\"total\":16,\"difficulty\":10,\"result\":\"hit\",\"range\":\"Short\""), "%s", j);
    cr_assert(strstr(j, "\"total\":12,\"difficulty\":10,\"result\":\"hit\""), "%s", j);
    size_t len;
    char *text = fx_journal(f, 1 << 20, &len);
    fray_fight *g = NULL;
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    cr_assert_eq(fray_fight_new(&fs, 99, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_assert(fray_fight_same(f, g));
    char n[1024];
    fray_event_narrate(f, 3, n, sizeof n);
    cr_assert(strstr(n, "Sir Aldo announces a quick draw for the next round: 3D moved to "
                        "Acumen (7D for initiative), 2 attacks at 4D"), "%s", n);
    free(text);
    fray_fight_free(f);
    fray_fight_free(g);
}

/* Without a quick draw the same two throws are at 8D - 1D = 7D (core
 * multi-action): seven dice each. */
Test(d6_draw, without_quick_draw_multi_action_penalty) {
    ranger();
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 6);
    const int d[] = {2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 3, 3, 3, 3,
                     2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 3, 3, 3, 3};
    d6_fx_ok(f, "knight attack brigand actions 2", d, sizeof d / sizeof d[0]);
    char j[8192];
    fray_event_json(f, fray_fight_events(f) - 1, j, sizeof j);
    cr_assert(strstr(j, "\"total\":14,\"difficulty\":10"), "%s", j);
    fray_fight_free(f);
}

/* core and 003:21, 24, 61: moving a turn up. In the brawl, whoever has
 * not acted may; the one acting, one who acted, one who waited and one
 * out may not; the turn moved up is spent (the order skips it). */
Test(d6_draw, moving_a_turn_up_003_21_24_61) {
    d6_fx_brawl(&S);
    fray_setup fs = d6_fx_setup(&S);
    fray_fight *f = d6_fx_start(&fs, NULL, 0);
    d6_state *st = d6_fx_st(f);
    int first = st->order[0], second = st->order[1], third = st->order[2];
    int n = st->n_order;
    cr_assert_not(d6_turn_can_move_up(st, first), "the one acting now");
    cr_assert(d6_turn_can_move_up(st, third));
    cr_assert(d6_turn_move_up(st, third));
    cr_assert_eq(st->n_order, n - 1);
    cr_assert_not(d6_turn_can_move_up(st, third), "its turn is spent");
    cr_assert_not(d6_turn_move_up(st, third));
    cr_assert_eq(st->order[1], second, "the others keep their order");
    st->c[second].flags |= D6_F_WAITING;
    cr_assert_not(d6_turn_can_move_up(st, second), "waited: it has acted");
    st->c[second].flags &= (uint8_t)~D6_F_WAITING;
    st->c[second].flags |= D6_F_OUT;
    cr_assert_not(d6_turn_can_move_up(st, second), "out of the fight");
    cr_assert_eq(d6_actor(st), first);
    fray_fight_free(f);
}

/* 003:129 "act first in the round (if initiative hasn't already been
 * determined)": the brigand (6 against 15) acts first in round 1. */
Test(d6_draw, surprise_first_003_129) {
    d6_fx_duel(&S);
    S.c[1].surprise = D6_SURPRISE_FIRST;
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5);
    cr_assert_eq(d6_fx_st(f)->order[0], 1);
    cr_assert_eq(d6_fx_st(f)->order[1], 0);
    char j[4096];
    fray_event_json(f, 0, j, sizeof j);
    cr_assert(strstr(j, "{\"fact\":\"surprise\",\"who\":\"brigand\",\"surprise\":\"first\"}"), "%s", j);
    fray_fight_free(f);
}

/* 003:129 "or gain a +1D to her action": the knight's melee 5D rolls six
 * dice on its first turn; the brigand, not surprising, its 4D. */
Test(d6_draw, surprise_bonus_003_129) {
    d6_fx_duel(&S);
    S.c[0].surprise = D6_SURPRISE_BONUS;
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5);
    cr_assert_eq(d6_fx_st(f)->order[0], 0);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int six[] = {2, 1, 1, 1, 1, 1}; /* 7: a miss */
    d6_fx_ok(f, "knight attack brigand", six, 6);
    const int four[] = {2, 1, 1, 1};
    d6_fx_ok(f, "brigand attack knight", four, 4);
    fray_fight_free(f);
}

/* The loader: `surprise: first | bonus` on a combatant; a bad word
 * refused with the words it takes. */
Test(d6_draw, surprise_loads) {
    char dir[] = "/tmp/d6drawXXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char enc[256];
    snprintf(enc, sizeof enc, "%s/enc.yaml", dir);
    const char *head = "fray: encounter\nrules: d6\nname: ambush\nstatblocks: [" FRAY_SOURCE_DIR
                       "/data/d6/statblocks.yaml]\ncombatants:\n"
                       "  - {id: a, statblock: Fighter, side: A, at: [0, 0], surprise: ";
    for (int k = 0; k < 3; k++) {
        FILE *fp = fopen(enc, "w");
        cr_assert_not_null(fp);
        const char *w = k == 0 ? "first" : k == 1 ? "bonus" : "sometimes";
        cr_assert(fprintf(fp, "%s%s}\n  - {id: b, statblock: Fighter, side: B, at: [1, 0]}\n",
                          head, w) > 0);
        cr_assert_eq(fclose(fp), 0);
        fray_diag d;
        memset(&d, 0, sizeof d);
        d6_setup *s = NULL;
        fray_status rc = d6_load(enc, NULL, &s, &d);
        if (k < 2) {
            cr_assert_eq(rc, FRAY_OK, "%s", d.message);
            cr_assert_eq(s->c[0].surprise, k == 0 ? D6_SURPRISE_FIRST : D6_SURPRISE_BONUS);
            cr_assert_eq(s->c[1].surprise, D6_SURPRISE_NONE);
            d6_setup_free(s);
        } else {
            cr_assert_neq(rc, FRAY_OK);
            cr_assert(strstr(d.message, "sometimes"), "%s", d.message);
        }
    }
    cr_assert_eq(unlink(enc), 0);
    cr_assert_eq(rmdir(dir), 0);
}

/* 003:89 "Weapons that characters can use with one hand and in either
 * hand, such as daggers, may be employed at the same time ... a
 * multi-action penalty": the knight with a club (either hand) in each
 * hand attacks with both: two actions, each at 5D - 1D = 4D; with a
 * sword (not either-hand) refused; the journal back. */
Test(d6_draw, multiple_weapons_003_89) {
    d6_fx_duel(&S);
    S.w[D6_FX_CLUB].either_hand = true;
    S.c[0].b.weapon = D6_FX_CLUB;
    S.c[0].b.off_hand = D6_FX_CLUB;
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    const int d[] = {2, 1, 1, 1, 2, 1, 1, 1}; /* 4D and 4D: 5 and 5, two misses */
    d6_fx_ok(f, "knight attack brigand both", d, 8);
    char j[4096];
    fray_event_json(f, fray_fight_events(f) - 1, j, sizeof j);
    cr_assert(strstr(j, "\"both\":true,\"actions\":2"), "%s", j);
    cr_assert(strstr(j, "\"total\":5,\"difficulty\":10,\"result\":\"miss\""), "%s", j);
    size_t len;
    char *text = fx_journal(f, 1 << 20, &len);
    fray_fight *g = NULL;
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    cr_assert_eq(fray_fight_new(&fs, 99, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_assert(fray_fight_same(f, g));
    free(text);
    fray_fight_free(f);
    fray_fight_free(g);

    S.c[0].b.weapon = D6_FX_SWORD;
    f = d6_fx_start(&fs, init, 5);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    refused(f, "knight attack brigand both", "in each hand");
    fray_fight_free(f);
}

/* 003:101 "one action per item ... (Some weapons, such as a crossbow
 * ..., take longer.) ... drawing and using the weapon in the same round
 * incurs a multi-action penalty": the knight (sword in hand) draws a
 * carried club and attacks with it at 5D - 1D = 4D; readying a carried
 * crossbow (ready 2) spends its turn, and it attacks with it after;
 * a weapon it does not carry is refused. */
Test(d6_draw, ready_a_weapon_003_101) {
    d6_fx_duel(&S);
    S.w[D6_FX_CROSSBOW].ready_actions = 2;
    S.c[0].b.carried = (1u << D6_FX_CLUB) | (1u << D6_FX_CROSSBOW);
    fray_setup fs = d6_fx_setup(&S);
    const int init[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(&fs, init, 5);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    refused(f, "knight attack brigand with short-bow", "does not hold");
    refused(f, "knight ready short-bow", "does not carry it");
    refused(f, "knight ready sword", "in hand already");
    const int d[] = {2, 1, 1, 1}; /* 4D: 5, a miss */
    d6_fx_ok(f, "knight attack brigand with club", d, 4);
    char j[4096];
    fray_event_json(f, fray_fight_events(f) - 1, j, sizeof j);
    cr_assert(strstr(j, "{\"fact\":\"ready\",\"who\":\"knight\",\"weapon\":\"club\",\"actions\":1}"), "%s", j);
    cr_assert(strstr(j, "\"total\":5,\"difficulty\":10"), "%s", j);
    cr_assert_eq(d6_fx_st(f)->c[0].ready_w, D6_FX_CLUB + 1, "the club is in hand now");
    d6_fx_ok(f, "brigand wait", NULL, 0);
    const int nx[] = {5, 5, 5, 2, 2};
    d6_fx_ok(f, "next", nx, 5);
    d6_fx_ok(f, "knight ready crossbow", NULL, 0);
    fray_event_json(f, fray_fight_events(f) - 1, j, sizeof j);
    cr_assert(strstr(j, "\"action\":\"ready\",\"actor\":\"knight\",\"weapon\":\"crossbow\""), "%s", j);
    cr_assert(strstr(j, "\"weapon\":\"crossbow\",\"actions\":2}"), "%s", j);
    cr_assert_str_eq(fray_fight_turn(f, NULL, 0), "Brigand", "readying spent the turn");
    size_t len;
    char *text = fx_journal(f, 1 << 20, &len);
    fray_fight *g = NULL;
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    cr_assert_eq(fray_fight_new(&fs, 99, &o, NULL, NULL, &g), FRAY_OK);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK, "%s",
                 diag.message);
    cr_assert(fray_fight_same(f, g));
    free(text);
    fray_fight_free(f);
    fray_fight_free(g);
}
