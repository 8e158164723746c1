/*
 * test_d6_chances.c - D6 at the table (issues 18 and 19, src/rules/d6/
 * chances.c): the exact chances of an attack equal the exact odds of the
 * same codes (d6_odds.h, what `fray odds d6` prints), and a Monte Carlo of
 * the same command played through the fight API from the same state
 * agrees within 4.5 standard errors of its sample.
 */
#include <math.h>

#include "d6_fixture.h"
#include "d6_odds.h"
#include "fray/chances.h"

/* Initiative dice by hand so that combatant 0 acts first: its Acumen
 * (3D) rolls 5 5 5, the other's (2D+2 or 2D+1: two dice) 2 2, the rest 2 2
 * (n dice of 2 after the first three). */
static int first_dice[64];
static size_t first_n(const d6_setup *s) {
    size_t n = 0;
    for (int i = 0; i < s->n; i++) {
        int k = s->c[i].b.attr[D6_ACUMEN].dice;
        for (int j = 0; j < k; j++)
            first_dice[n++] = i == 0 ? 5 : 2;
    }
    return n;
}

static double exact_hit(d6_code skill, int difficulty) {
    d6_success_query q;
    memset(&q, 0, sizeof q);
    q.skill = skill;
    q.difficulty = difficulty;
    q.floor = D6_DIFFICULTY_FLOOR;
    fray_bigratio r;
    cr_assert_eq(d6_odds_check(&q, NULL, &r), FRAY_OK);
    double v = r.value;
    fray_bigratio_free(&r);
    return v;
}

/* Core: the attack roll (melee 5D) against passive defense 10, floor 3:
 * p_success equals the exact odds of 5D against 10. */
Test(d6_chances, melee_hit_equals_exact_odds) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2; /* in reach of the sword */
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    fray_chances c;
    d6_fx_chances(f, 0, "attack brigand", &c);
    double p = exact_hit(d6_fx_code("5D"), 10);
    cr_assert_float_eq(c.p_success, p, 1e-12, "%g vs %g", c.p_success, p);
    cr_assert_float_eq(c.outcomes[0].share, 1 - p, 1e-12);
    cr_assert_str_eq(c.tracks[0], "Wound levels");
    /* two actions: each attack at -1D (core) */
    d6_fx_chances(f, 0, "attack brigand defend", &c);
    p = exact_hit(d6_fx_code("4D"), 10);
    cr_assert_float_eq(c.p_success, p, 1e-12, "%g vs %g", c.p_success, p);
    cr_assert(strstr(c.modifiers, "2 actions declared: -1D"), "%s", c.modifiers);
    fray_fight_free(f);
}

/* Core: a ranged attack at Medium range (+5) in light mist (+1D: +3),
 * marksmanship 5D: difficulty 18; against half cover +2D more (+6). */
Test(d6_chances, ranged_modifiers_equal_exact_odds) {
    d6_setup s;
    d6_fx_firefight(&s);
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    fray_chances c;
    d6_fx_chances(f, 0, "attack xbow-1", &c);
    double p = exact_hit(d6_fx_code("5D"), 18);
    cr_assert_float_eq(c.p_success, p, 1e-12, "%g vs %g", c.p_success, p);
    cr_assert(strstr(c.modifiers, "Medium range +5"), "%s", c.modifiers);
    /* a crossbowman (marksmanship 4D) on an archer in half cover */
    d6_fx_chances(f, 2, "attack archer-1", &c);
    p = exact_hit(d6_fx_code("4D"), 10 + 5 + 3 + 6);
    cr_assert_float_eq(c.p_success, p, 1e-12, "%g vs %g", c.p_success, p);
    cr_assert(strstr(c.modifiers, "half cover +2D"), "%s", c.modifiers);
    fray_fight_free(f);
}

/* The rules refuse it, the chances refuse it in rules words. */
Test(d6_chances, refused_in_rules_words) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2; /* in reach of the sword */
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    fray_chances c;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    d6_fx_st(f)->c[1].x = 30; /* out of reach of a sword */
    cr_assert_eq(fray_action_chances(f, 0, "attack brigand", &c, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "out of reach"), "%s", diag.message);
    cr_assert_eq(fray_action_chances(f, 0, "wait", &c, &diag), FRAY_ERR_INVALID);
    fray_fight_free(f);
}

/* Played through the fight API: trial t a fight with seed t, its
 * initiative given so that 0 acts first, `prep` (NULL: none) making the
 * state the chances are counted from, the command's dice drawn. The
 * target's Wound levels raised (or Body Points lost) and whether it is
 * out, and (`ok`, NULL: not checked) whether the action succeeded,
 * against the exact chances, within 4.5 standard errors. */
typedef void (*prep_fn)(d6_state *st);
typedef bool (*ok_fn)(const d6_state *st);

static void play(d6_setup *s, prep_fn prep, const char *cmd, int target, ok_fn ok,
                 int trials) {
    fray_setup fs = d6_fx_setup(s);
    fray_fight *f0 = d6_fx_start(&fs, first_dice, first_n(s));
    if (prep)
        prep(d6_fx_st(f0));
    fray_chances c;
    d6_fx_chances(f0, 0, cmd, &c);
    fray_fight_free(f0);
    bool wounds = s->o.health == D6_HEALTH_WOUNDS;
    int out = 0, zero = 0, done = 0;
    double sum = 0;
    char text[96];
    snprintf(text, sizeof text, "%s %s", s->c[0].id, cmd);
    for (int t = 0; t < trials; t++) {
        fray_fight_options o = {.journal = false, .facts = false, .until = 0};
        fray_fight *f = NULL;
        fray_given g = {NULL, 0, first_dice, first_n(s), NULL};
        cr_assert_eq(fray_fight_new(&fs, (uint64_t)t + 1000, &o, &g, NULL, &f), FRAY_OK);
        if (prep)
            prep(d6_fx_st(f));
        int h0 = wounds ? d6_fx_st(f)->c[target].wound : d6_fx_st(f)->c[target].bp;
        d6_fx_ok(f, text, NULL, 0);
        const d6_cstate *ct = &d6_fx_st(f)->c[target];
        int amount = wounds ? ct->wound - h0 : h0 - ct->bp;
        out += d6_out(ct);
        zero += amount == 0;
        sum += amount;
        done += ok && ok(d6_fx_st(f));
        fray_fight_free(f);
    }
    double n = trials;
    double se;
    if (ok) {
        se = sqrt(c.p_success * (1 - c.p_success) / n) + 1 / n;
        cr_assert(fabs(done / n - c.p_success) <= 4.5 * se, "%s: succeeded %g vs %g", cmd,
                  done / n, c.p_success);
    }
    double p_out = c.p_drop < 0 ? 0 : c.p_drop;
    se = sqrt(p_out * (1 - p_out) / n) + 1 / n;
    cr_assert(fabs(out / n - p_out) <= 4.5 * se, "%s: out %g vs %g", cmd, out / n, p_out);
    double p0 = c.damage[0].amount[0] == 0 ? c.damage[0].share : 0;
    se = sqrt(p0 * (1 - p0) / n) + 1 / n;
    cr_assert(fabs(zero / n - p0) <= 4.5 * se, "%s: unhurt %g vs %g", cmd, zero / n, p0);
    double var = 0;
    for (int k = 0; k < c.n_damage; k++)
        var += c.damage[k].share * pow(c.damage[k].amount[0] - c.expected[0], 2);
    se = sqrt(var / n) + 1 / n;
    cr_assert(fabs(sum / n - c.expected[0]) <= 4.5 * se, "%s: mean %g vs %g", cmd, sum / n,
              c.expected[0]);
}

static void monte_carlo(d6_setup *s, const char *cmd, int target, int trials) {
    play(s, NULL, cmd, target, NULL, trials);
}

/* Core: one attack, Wound levels, the stay-up roll at Incapacitated. */
Test(d6_chances, one_attack_matches_play) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2; /* in reach of the sword */
    monte_carlo(&s, "attack brigand", 1, 20000);
}

/* Core: three attacks at -2D each, stopping when the target is out: the
 * chain over its Wound levels. */
Test(d6_chances, three_attacks_match_play) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2; /* in reach of the sword */
    monte_carlo(&s, "attack brigand actions 3", 1, 20000);
}

/* Core, health: body-points: Body Points lost against armour only. */
Test(d6_chances, body_points_match_play) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2; /* in reach of the sword */
    s.o.health = D6_HEALTH_BODY_POINTS;
    monte_carlo(&s, "attack brigand actions 2", 1, 20000);
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    fray_chances c;
    d6_fx_chances(f, 0, "attack brigand", &c);
    cr_assert_str_eq(c.tracks[0], "Body Points");
    fray_fight_free(f);
}

/* Issue 19: odds ID ranks every attack on every foe the rules allow now. */
Test(d6_chances, ranked_every_attack) {
    d6_setup s;
    d6_fx_brawl(&s);
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    fray_chances_list L;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_chances_all(f, 0, NULL, &L, &diag), FRAY_OK, "%s", diag.message);
    /* the thugs are 8 m and more away: out of a club's reach */
    cr_assert_eq(L.n, 0);
    fray_chances_list_free(&L);
    d6_state *st = d6_fx_st(f);
    for (int i = 2; i < 5; i++)
        st->c[i].x = 1, st->c[i].y = 0; /* all three in reach */
    cr_assert_eq(fray_chances_all(f, 0, NULL, &L, &diag), FRAY_OK, "%s", diag.message);
    /* 17 forms on each of the three (issue 19): no lunge in reach, no
     * knockdown or push with a club not given `blunt` (003:8); the disarm
     * of each one's club (003:61, ruling 64): 51, under the list's cap */
    cr_assert_eq(L.n, 51, "%d", L.n);
    int disarms = 0;
    for (int k = 0; k < L.n; k++)
        disarms += strstr(L.items[k].command, " disarm called large") != NULL;
    cr_assert_eq(disarms, 3);
    for (int k = 1; k < L.n; k++)
        cr_assert(L.items[k - 1].p_drop >= L.items[k].p_drop - 1e-15);
    fray_chances_list_free(&L);
    fray_fight_free(f);
}

/* Core (waiting): one who waited may interrupt later in the round, its
 * action at -1D: the chances count it so (melee 5D less 1D against 10). */
Test(d6_chances, interrupt_after_wait_minus_one_die) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2; /* in reach of the sword */
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    d6_fx_ok(f, "knight wait", NULL, 0);
    fray_chances c;
    d6_fx_chances(f, 0, "attack brigand", &c);
    double p = exact_hit(d6_fx_code("4D"), 10);
    cr_assert_float_eq(c.p_success, p, 1e-12, "%g vs %g", c.p_success, p);
    cr_assert(strstr(c.modifiers, "interrupting after a wait -1D"), "%s", c.modifiers);
    fray_fight_free(f);
}

/* ---- Issue 19: seed 003's attack options, the states they leave, grabs -- */

static double exact_mods(d6_code skill, int difficulty, const d6_code *mods, size_t n) {
    d6_success_query q;
    memset(&q, 0, sizeof q);
    q.skill = skill;
    q.difficulty = difficulty;
    q.modifiers = mods;
    q.n_modifiers = n;
    q.floor = D6_DIFFICULTY_FLOOR;
    fray_bigratio r;
    cr_assert_eq(d6_odds_check(&q, NULL, &r), FRAY_OK);
    double v = r.value;
    fray_bigratio_free(&r);
    return v;
}

/* The duel, the brigand in reach, the knight with a club (a knockdown
 * or push takes fighting or a blunt weapon, 003:8; melee 5D either way). */
static fray_fight *duel_near(d6_setup *s, fray_setup *fs) {
    d6_fx_duel(s);
    s->c[1].x = 2; /* in reach */
    s->c[0].b.weapon = D6_FX_CLUB;
    s->w[D6_FX_CLUB].blunt = true;
    *fs = d6_fx_setup(s);
    return d6_fx_start(fs, first_dice, first_n(s));
}

static void hit_is(fray_fight *f, const char *cmd, double p) {
    fray_chances c;
    d6_fx_chances(f, 0, cmd, &c);
    cr_assert_float_eq(c.p_success, p, 1e-12, "%s: %.15g vs %.15g (%s)", cmd, c.p_success, p,
                       c.modifiers);
}

/* 003:27-46 and 73-78, modifiers standard: each option's printed standard
 * value on the knight's melee 5D against passive 10 (what `fray odds d6
 * 5D --vs N` gives), the floor of 3 (003:2); grabs and tackle with
 * fighting (the knight's Agility 3D+1). */
Test(d6_chances, options_equal_exact_odds_003_27_46) {
    d6_setup s;
    fray_setup fs;
    fray_fight *f = duel_near(&s, &fs);
    d6_code k5 = d6_fx_code("5D"), agi = d6_fx_code("3D+1");
    hit_is(f, "attack brigand all-out", exact_hit(k5, 4));          /* 003:29 -2D (-6) */
    hit_is(f, "attack brigand sweep", exact_hit(k5, 4));            /* 003:34 -2D (-6) */
    hit_is(f, "attack brigand knockdown", exact_hit(k5, 16));       /* 003:32 +2D (+6) */
    hit_is(f, "attack brigand push", exact_hit(k5, 13));            /* 003:33 +1D (+3) */
    hit_is(f, "attack brigand called large", exact_hit(k5, 13));    /* 003:40 */
    hit_is(f, "attack brigand called small", exact_hit(k5, 22));    /* 003:41 */
    hit_is(f, "attack brigand called tiny", exact_hit(k5, 34));     /* 003:42 */
    hit_is(f, "attack brigand at head", exact_hit(k5, 15));         /* 003:73 +1D (+5), D7.1 */
    hit_is(f, "attack brigand at heart", exact_hit(k5, 25));        /* 003:74 +4D (+15) */
    hit_is(f, "attack brigand at chest", exact_hit(k5, 10));        /* 003:75 */
    hit_is(f, "attack brigand at arm", exact_hit(k5, 15));          /* 003:76 */
    hit_is(f, "attack brigand at leg", exact_hit(k5, 15));          /* 003:77 */
    hit_is(f, "attack brigand at hand", exact_hit(k5, 25));         /* 003:78 */
    hit_is(f, "attack brigand knockout at head", exact_hit(k5, 15)); /* 003:87 */
    hit_is(f, "attack brigand blind", exact_hit(k5, 22));           /* 003:45 +4D (+12) */
    hit_is(f, "attack brigand behind", exact_hit(k5, 3));           /* 003:46, 003:2 */
    hit_is(f, "attack brigand target-blind", exact_hit(k5, 3));     /* 003:46 */
    hit_is(f, "attack brigand grab", exact_hit(agi, 16));           /* 003:30 +2D (+6) */
    hit_is(f, "attack brigand grab flip", exact_hit(agi, 16));
    hit_is(f, "attack brigand tackle", exact_hit(agi, 13));         /* 003:35 +1D (+3) */
    fray_chances c;
    d6_fx_chances(f, 0, "attack brigand knockdown", &c);
    cr_assert_eq(c.p_drop, -1);
    cr_assert_eq(c.n_outcomes, 2);
    cr_assert_str_eq(c.outcomes[1].name, "knocked down");
    cr_assert_float_eq(c.outcomes[1].share, c.p_success, 1e-15);
    cr_assert_float_eq(c.expected[0], 0, 1e-15);
    d6_fx_chances(f, 0, "attack brigand knockout at head", &c);
    cr_assert_str_eq(c.outcomes[3].name, "knocked out, or out");
    fray_fight_free(f);
    /* a blind attacker from the file (003:45, D7.16); an unwieldy weapon
     * +5 (003:131) */
    s.c[0].blind = true;
    s.w[D6_FX_CLUB].unwieldy = 5;
    f = d6_fx_start(&fs, first_dice, first_n(&s));
    hit_is(f, "attack brigand", exact_hit(k5, 10 + 12 + 5));
    fray_fight_free(f);
}

/* 003:73: a hit at the head adds +12 to the damage total: one attack's
 * mean Wound levels equal P(hit) times the mean level of `fray odds d6
 * --damage 3D+12 --resistance 4D` (the club's STR+1D at Strength
 * Damage 2D, +12; Physique 3D and leather 1D). */
Test(d6_chances, head_damage_equals_exact_odds_003_73) {
    d6_setup s;
    fray_setup fs;
    fray_fight *f = duel_near(&s, &fs);
    fray_chances c;
    d6_fx_chances(f, 0, "attack brigand at head", &c);
    d6_damage_query dq;
    memset(&dq, 0, sizeof dq);
    dq.damage = d6_fx_code("3D");
    dq.damage.pips += 12;
    dq.damage_wild = true;
    dq.resistance = d6_fx_code("4D");
    dq.resistance_wild = true;
    d6_damage_odds o;
    cr_assert_eq(d6_odds_damage(&dq, NULL, &o), FRAY_OK);
    static const int level_of_band[D6_ODDS_WOUND_LEVELS] = {0, 1, 2, 4, 5, 6};
    double mean = 0;
    for (int b = 0; b < D6_ODDS_WOUND_LEVELS; b++)
        mean += o.level[b].value * level_of_band[b];
    d6_damage_odds_free(&o);
    mean *= exact_hit(d6_fx_code("5D"), 15);
    cr_assert_float_eq(c.expected[0], mean, 1e-12, "%.15g vs %.15g", c.expected[0], mean);
    fray_fight_free(f);
}

/* Played: all-out (+1D damage, 003:29), sweep (-3D, 003:34), a head shot
 * (+12, 003:73), an arm (-2, 003:76), a called shot (+1D, 003:49). */
Test(d6_chances, options_match_play) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2;
    monte_carlo(&s, "attack brigand all-out", 1, 20000);
    monte_carlo(&s, "attack brigand sweep", 1, 20000);
    monte_carlo(&s, "attack brigand at head", 1, 20000);
    monte_carlo(&s, "attack brigand at arm actions 2", 1, 20000);
    monte_carlo(&s, "attack brigand called large", 1, 20000);
    monte_carlo(&s, "attack brigand behind", 1, 20000);         /* 003:46 */
    s.c[0].blind = true;                                         /* 003:45 */
    s.w[D6_FX_SWORD].unwieldy = 5;                               /* 003:131 */
    monte_carlo(&s, "attack brigand all-out", 1, 20000);
}

/* 003:87, D7.5: a knockout halves the result and puts the target out at
 * two Wound levels (or half its Body Points), played both ways. */
Test(d6_chances, knockout_matches_play_003_87) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2;
    monte_carlo(&s, "attack brigand knockout at head", 1, 20000);
    monte_carlo(&s, "attack brigand knockout at head actions 2", 1, 20000);
    s.o.health = D6_HEALTH_BODY_POINTS;
    monte_carlo(&s, "attack brigand knockout at head", 1, 20000);
    monte_carlo(&s, "attack brigand knockout at head actions 3", 1, 20000);
}

/* 003:7, rulings 25: a lunge reaches 3.5 m (+1D, -1D damage). */
Test(d6_chances, lunge_matches_play_003_7) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 3;
    s.c[1].y = 1; /* 3.16 m: beyond Point Blank, within a lunge */
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    hit_is(f, "attack brigand lunge", exact_hit(d6_fx_code("5D"), 13));
    fray_fight_free(f);
    monte_carlo(&s, "attack brigand lunge", 1, 20000);
}

static bool stumbled(const d6_state *st) { return st->c[1].agility_dice == 2; }
static bool knocked(const d6_state *st) { return st->c[1].agility_dice == 2 && st->c[1].down; }

/* 003:8: a knockdown or push does no damage; its success is the stumble
 * (and, for a knockdown, down). Two knockdowns: the second on a prone
 * target, which changes nothing of the chance that one lands. */
Test(d6_chances, knockdown_and_push_match_play_003_8) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2;
    s.c[0].b.weapon = D6_FX_CLUB; /* blunt: 003:8 */
    s.w[D6_FX_CLUB].blunt = true;
    play(&s, NULL, "attack brigand knockdown", 1, knocked, 20000);
    play(&s, NULL, "attack brigand knockdown actions 2", 1, knocked, 20000);
    play(&s, NULL, "attack brigand push", 1, stumbled, 20000);
}

static void target_prone(d6_state *st) { st->c[1].posture = D6_POSTURE_PRONE; }
static void target_crouching(d6_state *st) { st->c[1].posture = D6_POSTURE_CROUCHING; }
static void target_crouch_moved(d6_state *st) {
    st->c[1].posture = D6_POSTURE_CROUCHING;
    st->c[1].crouch_moved = st->round;
}
static void target_down(d6_state *st) {
    st->c[1].posture = D6_POSTURE_PRONE;
    st->c[1].down = true;
    st->c[1].agility_dice = 2;
}
static void attacker_down(d6_state *st) {
    st->c[0].posture = D6_POSTURE_PRONE;
    st->c[0].down = true;
}
static void attacker_stumbling(d6_state *st) { st->c[0].agility_dice = 2; }
static void attacker_hurt_hand(d6_state *st) { st->c[0].parts |= D6_PART_HAND; }
static void attacker_chest(d6_state *st) { st->c[0].passive_round = st->round; }

static void hit_from(d6_setup *s, prep_fn prep, const char *cmd, double p) {
    fray_setup fs = d6_fx_setup(s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(s));
    prep(d6_fx_st(f));
    hit_is(f, cmd, p);
    fray_fight_free(f);
}

/* The states the options leave, exact: prone -2D at Point Blank and +2D
 * at Medium (003:92), crouching +1D (003:91), down (prone; 003:8, 93),
 * the attacker down (one of its actions stands it: 2 actions, -1D),
 * stumbling (-2D on its next Agility roll, 003:8; the dodge takes it
 * when there is one), a hurt hand (-1, 003:84), the chest (passive only,
 * 003:82: the attack itself is plain). */
Test(d6_chances, states_equal_exact_odds_003_8_82_84_91_92) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2;
    d6_code k5 = d6_fx_code("5D");
    hit_from(&s, target_prone, "attack brigand", exact_hit(k5, 4));
    hit_from(&s, target_crouching, "attack brigand", exact_hit(k5, 13));
    hit_from(&s, target_crouch_moved, "attack brigand", exact_hit(k5, 16)); /* +2D (+6) */
    hit_from(&s, target_down, "attack brigand", exact_hit(k5, 4));
    hit_from(&s, attacker_down, "attack brigand actions 2", exact_hit(d6_fx_code("4D"), 10));
    hit_from(&s, attacker_stumbling, "attack brigand", exact_hit(d6_fx_code("3D"), 10));
    hit_from(&s, attacker_stumbling, "attack brigand defend",
             exact_hit(d6_fx_code("4D"), 10)); /* the dodge took the -2D */
    hit_from(&s, attacker_hurt_hand, "attack brigand", exact_hit((d6_code){5, -1}, 10));
    hit_from(&s, attacker_chest, "attack brigand", exact_hit(k5, 10));
    fray_chances c;
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    attacker_down(d6_fx_st(f));
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_action_chances(f, 0, "attack brigand", &c, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "down"), "%s", diag.message);
    fray_fight_free(f);
    /* a prone archer at Medium range: +2D (+6) (003:92), on the bow's 5D
     * with the range (+5), the mist (+1D) and half cover (+2D) */
    d6_fx_firefight(&s);
    fs = d6_fx_setup(&s);
    f = d6_fx_start(&fs, first_dice, first_n(&s));
    d6_fx_st(f)->c[3].posture = D6_POSTURE_PRONE;
    hit_is(f, "attack xbow-2", exact_hit(d6_fx_code("5D"), 10 + 5 + 3 + 6));
    fray_fight_free(f);
}

/* The same states played through the fight API. */
Test(d6_chances, states_match_play) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2;
    play(&s, target_down, "attack brigand actions 2", 1, NULL, 20000);
    play(&s, attacker_down, "attack brigand actions 3", 1, NULL, 20000);
    play(&s, attacker_stumbling, "attack brigand actions 2", 1, NULL, 20000);
    play(&s, attacker_hurt_hand, "attack brigand", 1, NULL, 20000);
    play(&s, target_crouching, "attack brigand", 1, NULL, 20000);
    play(&s, target_crouch_moved, "attack brigand", 1, NULL, 20000);
}

/* modifiers: roll (003:3): the GM rolls each, the minuses taken off
 * (ruling 29): all-out's -2D and a prone target's -2D are two rolls of
 * 2D off 10, floor 3 (`fray odds d6 5D --vs 10 --modifiers "-2D -2D"`). */
Test(d6_chances, rolled_modifiers_003_3) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2;
    s.o.modifiers_roll = true;
    d6_code mods[2] = {{-2, 0}, {-2, 0}};
    hit_from(&s, target_prone, "attack brigand all-out",
             exact_mods(d6_fx_code("5D"), 10, mods, 2));
    play(&s, target_prone, "attack brigand all-out", 1, NULL, 20000);
    play(&s, NULL, "attack brigand at head", 1, NULL, 20000);
    play(&s, NULL, "attack brigand grab hold", 1, NULL, 20000); /* -3D rolled off */
}

static bool held(const d6_state *st) { return st->c[1].held_by == 1; }
static bool flipped(const d6_state *st) { return st->c[1].down == D6_GROUND_FLIP; }

/* 003:10-14: a grab's hit (+2D) is the hold or choke, their damage the
 * Strength Damage (a hold's -3D); a flip's 3D from the ground; a tackle
 * (+1D). Played, in both health systems. */
Test(d6_chances, grabs_match_play_003_10_14) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2;
    play(&s, NULL, "attack brigand grab", 1, held, 20000);
    play(&s, NULL, "attack brigand grab choke", 1, held, 20000);
    play(&s, NULL, "attack brigand grab flip", 1, flipped, 20000);
    play(&s, NULL, "attack brigand tackle", 1, held, 20000);
    s.o.health = D6_HEALTH_BODY_POINTS;
    play(&s, NULL, "attack brigand grab choke actions 2", 1, held, 20000);
    play(&s, NULL, "attack brigand grab flip", 1, flipped, 20000);
}

static void knight_holds(d6_state *st) {
    st->c[1].held_by = 1;
    st->c[1].hold_kind = D6_GRAB_CHOKE;
}
static void knight_held(d6_state *st) {
    st->c[0].held_by = 2;
    st->c[0].hold_kind = D6_GRAB_HOLD;
}
static void knight_bound(d6_state *st) { st->c[0].tangle = 14; }
static bool knight_free(const d6_state *st) { return st->c[0].held_by == 0; }
static bool knight_unbound(const d6_state *st) { return st->c[0].tangle == 0; }

/* 003:10-11: a squeeze, the Strength Damage only, never missing. */
Test(d6_chances, squeeze_matches_play_003_11) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2;
    play(&s, knight_holds, "squeeze", 1, NULL, 20000);
}

static void knight_pins(d6_state *st) {
    st->c[1].held_by = 1;
    st->c[1].hold_kind = D6_GRAB_ARM_PIN;
}

/* 003:18: an arm pin's damage option, the Strength Damage against the
 * resistance with no roll to hit: played, in both health systems. */
Test(d6_chances, pin_damage_matches_play_003_18) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2;
    play(&s, knight_pins, "pin damage", 1, NULL, 20000);
    s.o.health = D6_HEALTH_BODY_POINTS;
    play(&s, knight_pins, "pin damage", 1, NULL, 20000);
}

static bool brigand_prone(const d6_state *st) { return st->c[1].posture == D6_POSTURE_PRONE; }

/* 003:15-16: a slam or throw: lifting against 15, throwing against 10,
 * each at -1D for the two actions (`fray odds d6` of each, multiplied);
 * a landed throw the object's Toughness (no Wild Die) plus the Strength
 * Damage. Exact, and played into the ground and a wall, in both health
 * systems. */
Test(d6_chances, slam_matches_play_003_15_16) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2;
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    knight_holds(d6_fx_st(f));
    fray_chances c;
    d6_fx_chances(f, 0, "slam into wall", &c);
    d6_code one = {-1, 0};
    double want = exact_hit(d6_code_add(d6_skill_code(&s, 0, D6_SK_LIFTING), one), 15) *
                  exact_hit(d6_code_add(d6_skill_code(&s, 0, D6_SK_THROWING), one), 10);
    cr_assert_float_eq(c.p_success, want, 1e-12, "%.12f against %.12f", c.p_success, want);
    cr_assert_float_eq(c.outcomes[0].share, 1 - want, 1e-12);
    cr_assert_str_eq(c.outcomes[0].name, "not lifted or missed");
    fray_fight_free(f);
    play(&s, knight_holds, "slam into wall", 1, brigand_prone, 20000);
    play(&s, knight_holds, "slam into ground", 1, brigand_prone, 20000);
    s.o.health = D6_HEALTH_BODY_POINTS;
    play(&s, knight_holds, "slam into wall", 1, brigand_prone, 20000);
}

/* issue 19: `odds ID` lists the arm pin's options (003:18-24), the
 * resisted forms while the one pinned can still move its turn up. */
Test(d6_chances, ranked_arm_pin_003_18_24) {
    d6_setup s;
    fray_setup fs;
    fray_fight *f = duel_near(&s, &fs);
    knight_pins(d6_fx_st(f));
    fray_chances_list L;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_chances_all(f, 0, NULL, &L, &diag), FRAY_OK, "%s", diag.message);
    const char *want[] = {"pin break", "pin submit", "pin damage", "pin break resisted",
                          "pin submit resisted", "slam into ground"};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        int i = 0;
        while (i < L.n && strcmp(L.items[i].command, want[k]) != 0)
            i++;
        cr_assert(i < L.n, "%s not listed", want[k]);
        if (k == 2)
            cr_assert_float_eq(L.items[i].p_success, 1, 1e-12, "no roll to hit (003:18)");
    }
    fray_chances_list_free(&L);
    fray_fight_free(f);
}

/* 003:65 (D7.14) and 003:63: escape (Physique or lifting 3D+1 against
 * the brigand's 3D, more frees it; a tie to the holder, or with
 * escape-tie: escapee to the escapee), breaking free (Physique 3D+1) and
 * slipping free (Agility 3D+1) against the binding's 14, meets or beats:
 * what `fray odds d6 3D+1 --vs-roll 3D` and `--vs 14` give; played. */
Test(d6_chances, escape_and_free_003_63_65) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2;
    for (int tie = 0; tie < 2; tie++) {
        s.o.escape_tie_escapee = tie;
        d6_success_query q;
        memset(&q, 0, sizeof q);
        q.skill = d6_fx_code("3D+1");
        q.defense_roll = true;
        q.defense = d6_fx_code("3D");
        q.tie = tie ? D6_TIE_MEETS : D6_TIE_BEATS;
        fray_bigratio r;
        cr_assert_eq(d6_odds_check(&q, NULL, &r), FRAY_OK);
        double p = r.value;
        fray_bigratio_free(&r);
        fray_setup fs = d6_fx_setup(&s);
        fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
        knight_held(d6_fx_st(f));
        fray_chances c;
        d6_fx_chances(f, 0, "escape", &c);
        cr_assert_float_eq(c.p_success, p, 1e-12, "tie %d: %g vs %g", tie, c.p_success, p);
        cr_assert_str_eq(c.outcomes[1].name, "escapes");
        cr_assert_eq(c.p_drop, -1);
        fray_fight_free(f);
        play(&s, knight_held, "escape", 1, knight_free, 20000);
    }
    s.o.escape_tie_escapee = false;
    hit_from(&s, knight_bound, "break-free", exact_hit(d6_fx_code("3D+1"), 14));
    hit_from(&s, knight_bound, "slip-free", exact_hit(d6_fx_code("3D+1"), 14));
    play(&s, knight_bound, "break-free", 1, knight_unbound, 20000);
    play(&s, knight_bound, "slip-free", 1, knight_unbound, 20000);
}

/* Issue 19: `odds ID` lists the options on each foe in reach: the
 * knockdown (no damage) after every attack that deals damage, by its
 * chance; the escape of one held. */
Test(d6_chances, ranked_options) {
    d6_setup s;
    fray_setup fs;
    fray_fight *f = duel_near(&s, &fs);
    fray_chances_list L;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_chances_all(f, 0, NULL, &L, &diag), FRAY_OK, "%s", diag.message);
    const char *want[] = {"attack brigand", "attack brigand all-out", "attack brigand sweep",
                          "attack brigand knockout at head", "attack brigand at hand",
                          "attack brigand knockdown", "attack brigand push",
                          "attack brigand grab choke", "attack brigand tackle"};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        int i = 0;
        while (i < L.n && strcmp(L.items[i].command, want[k]) != 0)
            i++;
        cr_assert(i < L.n, "%s not listed", want[k]);
    }
    bool no_damage = false;
    for (int i = 0; i < L.n; i++) {
        if (L.items[i].p_drop < 0)
            no_damage = true;
        else
            cr_assert(!no_damage, "%s after one without damage", L.items[i].command);
        cr_assert(strstr(L.items[i].command, "lunge") == NULL); /* in reach already */
    }
    fray_chances_list_free(&L);
    knight_held(d6_fx_st(f));
    cr_assert_eq(fray_chances_all(f, 0, NULL, &L, &diag), FRAY_OK, "%s", diag.message);
    int i = 0;
    while (i < L.n && strcmp(L.items[i].command, "escape") != 0)
        i++;
    cr_assert(i < L.n, "escape not listed");
    fray_chances_list_free(&L);
    fray_fight_free(f);
}

/* What is still not counted is refused in words, never counted as
 * something else. */
Test(d6_chances, still_refused_in_words) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2;
    s.c[0].b.weapon = D6_FX_CLUB; /* blunt: 003:8 */
    s.w[D6_FX_CLUB].blunt = true;
    s.o.damage_bonus = true;
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    fray_chances c;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_action_chances(f, 0, "attack brigand all-out", &c, &diag),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "damage-bonus"), "%s", diag.message);
    /* a knockdown deals no damage: counted with damage-bonus too */
    d6_fx_chances(f, 0, "attack brigand knockdown", &c);
    fray_fight_free(f);
    s.o.damage_bonus = false;
    fs = d6_fx_setup(&s);
    f = d6_fx_start(&fs, first_dice, first_n(&s));
    cr_assert_eq(fray_action_chances(f, 0, "attack brigand grab choke at head", &c, &diag),
                 FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "not counted"), "%s", diag.message);
    knight_bound(d6_fx_st(f));
    cr_assert_eq(fray_action_chances(f, 0, "attack brigand", &c, &diag), FRAY_ERR_INVALID);
    cr_assert(strstr(diag.message, "entangled"), "%s", diag.message);
    fray_fight_free(f);
}

static bool xbow_bound(const d6_state *st) { return st->c[2].tangle > 0; }

/* 003:63: an entangling weapon's hit binds the target and does no damage
 * unless spiked: its chance the attack's (`fray odds d6 5D --vs 18`: the
 * bow at Medium range in the mist), played; spiked, its damage played. */
Test(d6_chances, entangle_matches_play_003_63) {
    d6_setup s;
    d6_fx_firefight(&s);
    s.w[D6_FX_BOW].entangling = true;
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    hit_is(f, "attack xbow-1", exact_hit(d6_fx_code("5D"), 18));
    fray_chances c;
    d6_fx_chances(f, 0, "attack xbow-1", &c);
    cr_assert_eq(c.p_drop, -1);
    cr_assert_str_eq(c.outcomes[1].name, "entangled");
    fray_fight_free(f);
    play(&s, NULL, "attack xbow-1", 2, xbow_bound, 20000);
    s.w[D6_FX_BOW].spiked = true;
    play(&s, NULL, "attack xbow-1", 2, xbow_bound, 20000);
}

static void knight_quick(d6_state *st) {
    st->c[0].qd_round = st->round;
    st->c[0].qd_attacks = 2;
    st->c[0].qd_moved = 1;
    st->c[0].qd_weapon = D6_FX_SWORD;
}

/* 003:96-97: in a quick-draw round of 2 attacks with 1D moved to
 * initiative every attack is at -2D (5D less 1D for the second attack and
 * the 1D moved: `fray odds d6 3D --vs 10` each, one of two hitting
 * 1 - (1 - p)^2); 003:101: drawing a carried
 * club and attacking with it in one action is -1D (the draw's action).
 * Exact, and played. */
Test(d6_chances, quick_draw_and_drawing_003_96_101) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2;
    s.w[D6_FX_SWORD].quick_draw = true;
    s.c[0].b.carried = 1u << D6_FX_CLUB;
    double p = exact_hit(d6_fx_code("3D"), 10); /* each; some hits: 1 - (1 - p)^2 */
    hit_from(&s, knight_quick, "attack brigand actions 2", 1 - (1 - p) * (1 - p));
    play(&s, knight_quick, "attack brigand actions 2", 1, NULL, 20000);
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    hit_is(f, "attack brigand with club", exact_hit(d6_fx_code("4D"), 10));
    fray_chances c;
    d6_fx_chances(f, 0, "attack brigand with club", &c);
    cr_assert(strstr(c.modifiers, "drawing the club: -1D"), "%s", c.modifiers);
    fray_fight_free(f);
    play(&s, NULL, "attack brigand with club", 1, NULL, 20000);
}

/* 003:89: a weapon in each hand, each usable in either hand: the knight's
 * sword (STR+1D+1) then club (made STR+3D) in turn, each at 5D - 1D for two
 * actions (`fray odds d6 4D --vs 10` each); three actions: sword, club,
 * sword at 3D. Exact, and played in both health systems. */
Test(d6_chances, both_hands_match_play_003_89) {
    d6_setup s;
    d6_fx_duel(&s);
    s.c[1].x = 2;
    s.w[D6_FX_SWORD].either_hand = true;
    s.w[D6_FX_CLUB].either_hand = true;
    s.c[0].b.off_hand = D6_FX_CLUB;
    s.w[D6_FX_CLUB].damage = d6_fx_code("3D"); /* STR+3D: well apart from the sword */
    fray_setup fs = d6_fx_setup(&s);
    fray_fight *f = d6_fx_start(&fs, first_dice, first_n(&s));
    double p = exact_hit(d6_fx_code("4D"), 10);
    hit_is(f, "attack brigand both", 1 - (1 - p) * (1 - p));
    fray_chances c;
    d6_fx_chances(f, 0, "attack brigand both", &c);
    cr_assert(strstr(c.title, "sword and club"), "%s", c.title);
    fray_chances_list L; /* odds ID lists it (issue 19) */
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_chances_all(f, 0, NULL, &L, &diag), FRAY_OK, "%s", diag.message);
    int i = 0;
    while (i < L.n && strcmp(L.items[i].command, "attack brigand both") != 0)
        i++;
    cr_assert(i < L.n, "both hands not listed");
    cr_assert_float_eq(L.items[i].p_success, 1 - (1 - p) * (1 - p), 1e-12);
    fray_chances_list_free(&L);
    fray_fight_free(f);
    play(&s, NULL, "attack brigand both", 1, NULL, 20000);
    play(&s, NULL, "attack brigand both actions 3", 1, NULL, 20000);
    play(&s, NULL, "attack brigand both at head", 1, NULL, 20000);
    s.o.health = D6_HEALTH_BODY_POINTS;
    play(&s, NULL, "attack brigand both", 1, NULL, 20000);
}
