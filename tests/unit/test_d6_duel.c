/*
 * test_d6_duel.c - the exact D6 duel (issue 18, src/rules/d6/duel.c;
 * docs/rules/d6.md "The exact duel"): a duel of one round worked out by
 * hand from the exact odds of the same codes (d6_odds.h) matches the
 * chain to 1e-12; the chain agrees with 20000 simulated fights (`fray
 * sim`, seed 7) within 4 standard errors for the example duel, a Body
 * Points duel, a shot against a dodge under cover in poor light
 * (initiative: scene, wild-one: complication), the Centaur against a
 * rat (scale, 003:106; initiative: first-action), two duels with
 * surprise (003:129) and one blindfolded against a crouching foe
 * (003:45-46, 91-92); four rounds counted again with every parry total
 * written out match the chain to 1e-8; what the chain does not model is
 * refused in words.
 */
#include <math.h>

#include "d6_fixture.h"
#include "d6_odds.h"
#include "fray/duel.h"
#include "fray/sim.h"

static fray_setup *load(const char *rel) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, rel);
    fray_setup *s = NULL;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_setup_load(path, NULL, &s, &diag), FRAY_OK, "%s: %s", rel, diag.message);
    return s;
}

static d6_setup *data(fray_setup *s) { return (d6_setup *)fray_setup_ruleset_data(s); }

static double check_p(d6_code skill, int difficulty) {
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

/* One round of examples/d6/duel.yaml (two Fighters: melee combat 5D+1,
 * a sword STR+1D+1 with lifting 4D, so 3D+1 of damage against Physique
 * 3D+2 and leather 1D, stamina 4D+2, Acumen 2D+1), worked out by hand:
 * each attacks passive 10 once (core); ties of initiative go to Brand
 * (the same codes: the encounter's order). The second to act answers at
 * its new Wound level's penalty, with a parry first (and 1D more off)
 * once Wounded (the tactics). With surprise (003:129): Brand acting first
 * in round 1, or Osric's rolls +1D on his turn of round 1. */
typedef struct by_hand {
    double lv[D6_ODDS_WOUND_LEVELS], up, out, h[6]; /* h[p + 1]: p dice off */
} by_hand;

/* Y answers after X's attack hit with chance hx; Y's rolls get bonus dice. */
static double answer(const by_hand *B, double hx, int bonus) {
    const double *h = B->h + 1 - bonus;
    return (1.0 - hx + hx * B->lv[D6_ODDS_NO_WOUND]) * h[0] * B->out +
           hx * B->lv[D6_ODDS_STUNNED] * h[1] * B->out +          /* Stunned: -1D */
           hx * B->lv[D6_ODDS_WOUNDED] * h[2] * B->out +          /* parry, -1D each */
           hx * B->lv[D6_ODDS_INCAPACITATED] * B->up * h[4] * B->out; /* -3D, parry */
}

Test(d6_duel, one_round_by_hand_core_003_129) {
    by_hand B;
    d6_damage_query dq;
    memset(&dq, 0, sizeof dq);
    dq.damage = d6_fx_code("3D+1");
    dq.damage_wild = true;
    dq.resistance = d6_fx_code("4D+2");
    dq.resistance_wild = true;
    d6_damage_odds L;
    cr_assert_eq(d6_odds_damage(&dq, NULL, &L), FRAY_OK);
    for (int k = 0; k < D6_ODDS_WOUND_LEVELS; k++)
        B.lv[k] = L.level[k].value;
    d6_damage_odds_free(&L);
    B.up = check_p(d6_fx_code("4D+2"), 15); /* Moderate (15), core */
    /* out of the fight from unhurt: Mortally Wounded or Dead, or
     * Incapacitated and down */
    B.out = B.lv[D6_ODDS_MORTALLY_WOUNDED] + B.lv[D6_ODDS_DEAD] +
            B.lv[D6_ODDS_INCAPACITATED] * (1.0 - B.up);
    for (int p = -1; p <= 4; p++)
        B.h[p + 1] = check_p(d6_code_add(d6_fx_code("5D+1"), (d6_code){-p, 0}), 10);
    d6_code acumen = d6_fx_code("2D+1");
    d6_success_query q;
    memset(&q, 0, sizeof q);
    q.skill = acumen;
    q.defense_roll = true;
    q.defense = acumen;
    q.defense_bonus = 1; /* Osric first: his total above Brand's */
    fray_bigratio r;
    cr_assert_eq(d6_odds_check(&q, NULL, &r), FRAY_OK);
    double q1 = r.value;
    fray_bigratio_free(&r);

    for (int v = 0; v < 3; v++) {
        fray_setup *s = load("examples/d6/duel.yaml");
        d6_setup *d = data(s);
        d->rounds = 1;
        if (v == 1)
            d->c[0].surprise = D6_SURPRISE_FIRST;
        if (v == 2)
            d->c[1].surprise = D6_SURPRISE_BONUS;
        fray_duel_odds *o = calloc(1, sizeof *o);
        fray_diag diag;
        memset(&diag, 0, sizeof diag);
        cr_assert_eq(fray_setup_duel_odds(s, 0, 1, 0, o, &diag), FRAY_OK, "%s", diag.message);
        double osric_first = v == 1 ? 0.0 : q1;
        int bonus = v == 2 ? 1 : 0;
        double hb = B.h[1], ho = B.h[1 - bonus];
        double brand = (1.0 - osric_first) * hb * B.out + osric_first * answer(&B, ho, 0);
        double osric = osric_first * ho * B.out + (1.0 - osric_first) * answer(&B, hb, bonus);
        cr_assert_lt(fabs(o->p_first[1] - osric_first), 1e-12, "variant %d: Osric first "
                     "%.15f, by hand %.15f", v, o->p_first[1], osric_first);
        cr_assert_lt(fabs(o->p_win[0] - brand), 1e-12, "variant %d: Brand wins %.15f, by "
                     "hand %.15f", v, o->p_win[0], brand);
        cr_assert_lt(fabs(o->p_win[1] - osric), 1e-12, "variant %d: Osric wins %.15f, by "
                     "hand %.15f", v, o->p_win[1], osric);
        cr_assert_lt(fabs(o->p_unfinished - (1.0 - brand - osric)), 1e-12);
        cr_assert_eq(o->phase_limit, 1);
        cr_assert_float_eq(o->mean_length, 1.0, 1e-12);
        free(o);
        fray_setup_free(s);
    }
}

/* The chain against `fray sim` of the same file: each side's wins, the
 * round limit, and the mean length (the simulation counts an unfinished
 * fight at the limit). */
static void against_sim(const char *rel) {
    fray_setup *s = load(rel);
    fray_duel_odds *o = calloc(1, sizeof *o);
    fray_sim_counts *c = calloc(1, sizeof *c);
    cr_assert(o && c);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_setup_duel_odds(s, 0, 1, 0, o, &diag), FRAY_OK, "%s: %s", rel,
                 diag.message);
    cr_assert_lt(o->mass_error, 1e-12, "%s: mass error %g", rel, o->mass_error);
    enum { N = 20000 };
    fray_sim_options so;
    memset(&so, 0, sizeof so);
    so.seed = 7;
    so.trials = N;
    so.threads = 1;
    cr_assert_eq(fray_sim(s, &so, NULL, c), FRAY_OK);
    double exact[3] = {o->p_win[0], o->p_win[1], o->p_unfinished + o->p_left};
    double got[3] = {(double)c->wins[0] / N, (double)c->wins[1] / N,
                     (double)c->unfinished / N};
    const char *what[3] = {"the first wins", "the second wins", "the round limit"};
    for (int k = 0; k < 3; k++) {
        double p = exact[k], se = sqrt(p * (1.0 - p) / N);
        cr_assert_lt(fabs(got[k] - p), 4.0 * se + 1e-9, "%s: %s exact %.5f, simulated %.5f",
                     rel, what[k], p, got[k]);
    }
    int limit = data(s)->rounds;
    double mean = (double)c->length_sum / N;
    double sd = sqrt((double)c->length_sq_sum / N - mean * mean);
    double want = (o->p_win[0] + o->p_win[1]) * o->mean_length + o->p_unfinished * limit;
    cr_assert_lt(fabs(mean - want), 4.0 * sd / sqrt((double)N) + 1e-9,
                 "%s: mean length exact %.3f, simulated %.3f", rel, want, mean);
    free(o);
    free(c);
    fray_setup_free(s);
}

Test(d6_duel, example_duel_matches_simulation) { against_sim("examples/d6/duel.yaml"); }
Test(d6_duel, body_points_duel_matches_simulation) {
    against_sim("tests/data/d6/duel_bp.yaml");
}
Test(d6_duel, shot_under_cover_scene_complication_matches_simulation) {
    against_sim("tests/data/d6/duel_shot.yaml");
}
Test(d6_duel, surprise_first_scene_matches_simulation_003_129) {
    against_sim("tests/data/d6/duel_surprise_first.yaml");
}
Test(d6_duel, surprise_bonus_body_points_matches_simulation_003_129) {
    against_sim("tests/data/d6/duel_surprise_bonus.yaml");
}
Test(d6_duel, blind_and_crouching_matches_simulation_003_45_91) {
    against_sim("tests/data/d6/duel_blind.yaml");
}
Test(d6_duel, scale_first_action_matches_simulation_003_106) {
    against_sim("tests/data/d6/duel_scale.yaml");
    fray_setup *s = load("tests/data/d6/duel_scale.yaml");
    fray_duel_odds *o = calloc(1, sizeof *o);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_setup_duel_odds(s, 0, 1, 0, o, &diag), FRAY_OK, "%s", diag.message);
    cr_assert_eq(o->p_first[0], 1.0, "first-action: the encounter's order");
    /* a and b the other way round: the same numbers, swapped */
    fray_duel_odds *w = calloc(1, sizeof *w);
    cr_assert_eq(fray_setup_duel_odds(s, 1, 0, 0, w, &diag), FRAY_OK, "%s", diag.message);
    cr_assert_eq(w->p_win[0], o->p_win[1]);
    cr_assert_eq(w->p_first[1], 1.0);
    free(o);
    free(w);
    fray_setup_free(s);
}

/* The estimate is the chain's own count; a bound below it stops it. */
Test(d6_duel, estimate_and_bound) {
    fray_setup *s = load("examples/d6/duel.yaml");
    fray_duel_odds *o = calloc(1, sizeof *o);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_setup_duel_odds(s, 0, 1, 0, o, &diag), FRAY_OK, "%s", diag.message);
    double est = 0;
    cr_assert_eq(fray__d6_ruleset.duel_estimate(data(s), 0, 1, &est, &diag), FRAY_OK);
    cr_assert_eq((long)est, o->states);
    cr_assert_eq(fray_setup_duel_odds(s, 0, 1, 100, o, &diag), FRAY_ERR_TOO_LARGE);
    cr_assert(strstr(diag.message, "100 states"), "%s", diag.message);
    free(o);
    fray_setup_free(s);
}

static void refused(fray_setup *s, const char *words) {
    fray_duel_odds *o = calloc(1, sizeof *o);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_setup_duel_odds(s, 0, 1, 0, o, &diag), FRAY_ERR_INVALID,
                 "not refused: %s", words);
    cr_assert(strstr(diag.message, "does not model") && strstr(diag.message, words),
              "'%s' does not say '%s'", diag.message, words);
    free(o);
}

/* Never approximated: what the chain does not count is refused in rules
 * words. Each changes a copy of the example duel. */
Test(d6_duel, refused_in_words) {
    fray_setup *s = load("examples/d6/brawl.yaml");
    refused(s, "other than two combatants");
    fray_setup_free(s);
    static const char *const words[] = {"movement",  "full cover",    "damage bonus", "grabs",
                                        "knockdown", "modifier dice", "entangling",
                                        "chest"};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
        s = load("examples/d6/duel.yaml");
        d6_setup *d = data(s);
        switch (k) {
        case 0: d->c[1].x = 40; break;                       /* out of reach */
        case 1: d->c[1].cover = D6_COVER_FULL; break;        /* core */
        case 2: d->o.damage_bonus = true; break;             /* core option */
        case 3: d->c[1].tactics = D6_TAC_GRAPPLE; break;     /* 003:10-14 */
        case 4: /* 003:8: unarmed and stronger, tactics-knockdown: yes */
            d->o.tactics_knockdown = true;
            d->c[0].b.weapon = -1;
            d->c[0].b.attr[D6_PHYSIQUE] = d6_fx_code("5D");
            break;
        case 5: /* 003:3: the GM rolls the cover's dice */
            d->o.modifiers_roll = true;
            d->c[1].cover = D6_COVER_HALF;
            break;
        case 6: d->w[d->c[0].b.weapon].entangling = true; break; /* 003:63 */
        case 7: d->o.uncalled_chest = true; break; /* D7.10, 003:82 */
        default: break;
        }
        refused(s, words[k]);
        fray_setup_free(s);
    }
}

/* ---- A second count, with every parry total written out ------------------ */

/* The chain keeps a defense as the code that rolled it and what the one
 * attack that met it did; this count keeps the total itself, each total
 * of the roll a branch of its own (to XD_N - 1: what lies above is under
 * 3e-10 a roll and dropped), and spells the Fighters' duel out from the
 * core by hand: initiative each round (ties to Brand: the same codes); on
 * its turn a Fighter unhurt or Stunned attacks once, Wounded or worse
 * parries (melee combat 5D+1) and attacks, each roll at -1D more; a parry
 * lasts to its maker's next turn; the attack (5D+1) meets the parry's
 * total or passive 10, never below 3 (003:2); damage 3D+1 against 4D+2
 * raises the Wound ladder; Stunned is -1D this round and the next;
 * Incapacitated rolls stamina 4D+2 against 15. */
enum { XD_N = 110, XD_W = 7, XD_SIDE = XD_W * (XD_N + 1) };

typedef struct xd {
    d6_dist *att[5];        /* 5D+1 less pen dice: the attack and the parry */
    double pmf[5][XD_N];    /* the parry's totals 0 .. XD_N - 1 */
    double level[6];        /* excess classes: none, 1-3, 4-8, 9-12, 13-15, 16+ */
    double up, q1;
    double *tmp;            /* [ws_a][ws_b][parry of b + 1] */
} xd;

/* ws: 0 unhurt; 1 Stunned, its -1D spent; 2 Stunned, -1D this round; 3
 * Stunned, -1D this round and the next; 4 Wounded; 5 Severely Wounded; 6
 * Incapacitated and up. */
static int xd_level(int ws) { return ws == 0 ? 0 : ws <= 3 ? 1 : ws - 2; }
static int xd_pen(int ws) {
    static const int p[XD_W] = {0, 0, 1, 1, 1, 2, 3};
    return p[ws];
}
static int xd_key(int a, int ws_a, int d_a, int ws_b, int d_b) {
    int sa = ws_a * (XD_N + 1) + d_a + 1, sb = ws_b * (XD_N + 1) + d_b + 1;
    return a == 0 ? sa * XD_SIDE + sb : sb * XD_SIDE + sa;
}

/* a's turn: every state of `in` into `out`; a's wins into *win. */
static void xd_turn(xd *X, const double *in, double *out, int a, double *win) {
    memset(X->tmp, 0, sizeof(double) * XD_W * XD_W * (XD_N + 1));
    for (int k = 0; k < XD_SIDE * XD_SIDE; k++) {
        if (in[k] == 0.0)
            continue;
        int side[2] = {k / XD_SIDE, k % XD_SIDE};
        int sa = side[a], sb = side[1 - a];
        /* a's own parry ends as its turn begins */
        X->tmp[(sa / (XD_N + 1) * XD_W + sb / (XD_N + 1)) * (XD_N + 1) + sb % (XD_N + 1)] +=
            in[k];
    }
    for (int k = 0; k < XD_W * XD_W * (XD_N + 1); k++) {
        double m0 = X->tmp[k];
        if (m0 == 0.0)
            continue;
        int ws_a = k / (XD_N + 1) / XD_W, ws_b = k / (XD_N + 1) % XD_W;
        int d_b = k % (XD_N + 1) - 1;
        bool hurt = xd_level(ws_a) >= 2;
        int pen = xd_pen(ws_a) + (hurt ? 1 : 0);
        int diff = d_b < 0 ? 10 : d_b < 3 ? 3 : d_b;
        double p = d6_dist_p_at_least(X->att[pen], diff);
        for (int t = hurt ? 0 : -1; t < (hurt ? XD_N : 0); t++) {
            double m = hurt ? m0 * X->pmf[pen][t] : m0;
            if (m == 0.0)
                continue;
            out[xd_key(a, ws_a, t, ws_b, d_b)] += m * (1.0 - p);
            int L = xd_level(ws_b);
            static const int got_of[6] = {0, 1, 2, 4, 5, 6};
            for (int c = 0; c < 6; c++) {
                double mc = m * p * X->level[c];
                int got = got_of[c], now = L;
                if (got > 0)
                    now = got == 2 && L == 2 ? 3 : L > 0 && got <= L ? L + 1 : got;
                if (now >= 5) {
                    *win += mc;
                    continue;
                }
                if (now == 4 && L != 4) {
                    *win += mc * (1.0 - X->up);
                    mc *= X->up;
                }
                int ns = now == L ? ws_b : now == 1 ? 3 : now + 2;
                out[xd_key(a, ws_a, t, ns, d_b)] += mc;
            }
        }
    }
}

static double xd_dist_p(d6_code c, int t) {
    d6_dist *d = NULL;
    cr_assert_eq(d6_dist_code(c, true, D6_WILD_ONE_CANCEL_HIGHEST, NULL, &d), FRAY_OK);
    double v = d6_dist_p_at_least(d, t);
    d6_dist_free(d);
    return v;
}

/* P(Brand wins) within `rounds` rounds, by the count above. */
static double xd_duel(int rounds, double *osric) {
    xd X;
    memset(&X, 0, sizeof X);
    for (int p = 0; p < 5; p++) {
        d6_code c = d6_code_add(d6_fx_code("5D+1"), (d6_code){-p, 0});
        cr_assert_eq(d6_dist_code(c, true, D6_WILD_ONE_CANCEL_HIGHEST, NULL, &X.att[p]),
                     FRAY_OK);
        for (int t = 0; t < XD_N; t++)
            X.pmf[p][t] = d6_dist_p_eq(X.att[p], t);
        cr_assert_lt(d6_dist_p_at_least(X.att[p], XD_N), 3e-10);
    }
    d6_damage_query dq;
    memset(&dq, 0, sizeof dq);
    dq.damage = d6_fx_code("3D+1");
    dq.damage_wild = dq.resistance_wild = true;
    dq.resistance = d6_fx_code("4D+2");
    d6_damage_odds L;
    cr_assert_eq(d6_odds_damage(&dq, NULL, &L), FRAY_OK);
    for (int c = 0; c < 6; c++)
        X.level[c] = L.level[c].value;
    d6_damage_odds_free(&L);
    X.up = xd_dist_p(d6_fx_code("4D+2"), 15);
    /* Osric first: his Acumen total above Brand's */
    d6_dist *i0 = NULL, *i1 = NULL, *x = NULL;
    cr_assert_eq(d6_dist_code(d6_fx_code("2D+1"), true, 0, NULL, &i0), FRAY_OK);
    cr_assert_eq(d6_dist_code(d6_fx_code("2D+1"), true, 0, NULL, &i1), FRAY_OK);
    cr_assert_eq(d6_dist_add(i1, i0, -1, &x), FRAY_OK);
    X.q1 = d6_dist_p_at_least(x, 1);
    d6_dist_free(i0);
    d6_dist_free(i1);
    d6_dist_free(x);
    size_t n = (size_t)XD_SIDE * XD_SIDE;
    double *cur = calloc(n, sizeof *cur), *mid = calloc(n, sizeof *mid),
           *end = calloc(n, sizeof *end);
    X.tmp = calloc((size_t)XD_W * XD_W * (XD_N + 1), sizeof *X.tmp);
    cr_assert(cur && mid && end && X.tmp);
    cur[xd_key(0, 0, -1, 0, -1)] = 1.0;
    double win[2] = {0, 0};
    for (int r = 1; r <= rounds; r++) {
        memset(end, 0, n * sizeof *end);
        for (int first = 0; first < 2; first++) {
            double q = first ? X.q1 : 1.0 - X.q1;
            memset(mid, 0, n * sizeof *mid);
            double *in = calloc(n, sizeof *in);
            cr_assert(in);
            for (size_t k = 0; k < n; k++)
                in[k] = cur[k] * q;
            double w = 0;
            xd_turn(&X, in, mid, first, &w);
            win[first] += w;
            w = 0;
            xd_turn(&X, mid, end, 1 - first, &w);
            win[1 - first] += w;
            free(in);
        }
        /* the round's end: a Stunned -1D runs out */
        memset(cur, 0, n * sizeof *cur);
        for (size_t k = 0; k < n; k++) {
            if (end[k] == 0.0)
                continue;
            int side[2] = {(int)(k / XD_SIDE), (int)(k % XD_SIDE)};
            int ws[2], d[2];
            for (int i = 0; i < 2; i++) {
                ws[i] = side[i] / (XD_N + 1);
                d[i] = side[i] % (XD_N + 1) - 1;
                if (ws[i] == 2 || ws[i] == 3)
                    ws[i]--;
            }
            cur[xd_key(0, ws[0], d[0], ws[1], d[1])] += end[k];
        }
    }
    for (int p = 0; p < 5; p++)
        d6_dist_free(X.att[p]);
    free(cur);
    free(mid);
    free(end);
    free(X.tmp);
    *osric = win[1];
    return win[0];
}

/* Four rounds: a parry met twice (003's core: it lasts to its maker's
 * next turn), Stunned over two rounds, the ladder and the stay-up roll,
 * against the chain; the chain's tables drop under 1e-18 a roll, this
 * count under 3e-10. */
Test(d6_duel, four_rounds_with_every_parry_total_core) {
    fray_setup *s = load("examples/d6/duel.yaml");
    data(s)->rounds = 4;
    fray_duel_odds *o = calloc(1, sizeof *o);
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_setup_duel_odds(s, 0, 1, 0, o, &diag), FRAY_OK, "%s", diag.message);
    double osric = 0, brand = xd_duel(4, &osric);
    cr_assert_lt(fabs(o->p_win[0] - brand), 1e-8, "Brand wins %.12f, counted %.12f",
                 o->p_win[0], brand);
    cr_assert_lt(fabs(o->p_win[1] - osric), 1e-8, "Osric wins %.12f, counted %.12f",
                 o->p_win[1], osric);
    free(o);
    fray_setup_free(s);
}

/* Every allocation the chain makes goes through the setup's allocator:
 * failing one gives FRAY_ERR_NOMEM and leaves nothing allocated
 * (STYLE.md), for a duel of one round: each of the first 60 (the tables'
 * first codes, the tactics), then every 17th of the 900 or so. */
#include "fail_alloc.h"

Test(d6_duel, every_allocation_failing_leaks_nothing) {
    fray_setup *s = load("examples/d6/duel.yaml");
    d6_setup *d = data(s);
    d->rounds = 1;
    fray_allocator keep = d->alloc;
    fray_duel_odds *o = calloc(1, sizeof *o);
    long n = 1;
    for (;; n += n < 60 ? 1 : 17) {
        fail_alloc fa = {0};
        fa.fail_at = n;
        d->alloc = (fray_allocator){fail_realloc, &fa};
        fray_diag diag;
        memset(&diag, 0, sizeof diag);
        fray_status rc = fray_setup_duel_odds(s, 0, 1, 0, o, &diag);
        cr_assert_eq(fa.live, 0, "allocation %ld failing: %ld left allocated", n, fa.live);
        if (rc == FRAY_OK) {
            cr_assert_gt(fa.calls, 0);
            break;
        }
        cr_assert_eq(rc, FRAY_ERR_NOMEM, "allocation %ld failing: %s", n, diag.message);
    }
    cr_assert_gt(n, 100, "the chain allocates through the setup's allocator");
    d->alloc = keep;
    free(o);
    fray_setup_free(s);
}
