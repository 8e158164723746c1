/*
 * chances.c - D6 at the table (issues 18 and 19; include/fray/chances.h):
 * the exact chances of an attack, a grab, a squeeze, an escape or a break
 * from a binding, from the fight as it stands (docs/rules/d6.md "At the
 * table: the chances").
 *
 * An attack (core) rolls the attacker's code (its weapon's skill, less 1D
 * for each action declared beyond the first, its wounds' penalty, 1D when
 * it interrupts after waiting, a stumble's 2D and a hurt hand's 1, plus
 * the dice it has aimed) with the Wild Die against the combat difficulty:
 * the target's defense as it stands (passive 10, a partial defense's roll
 * already made, a full defense's roll + 10; a parry stands against melee
 * only), the range band's modifier, cover and light, seed 003's options
 * and the target's posture (options.c's rows: standard values, or dice
 * rolled by the GM), an unwieldy weapon, never below 3. A hit rolls
 * damage (the options' dice, a location's number) with the Wild Die
 * against the target's resistance roll; the excess raises its Wound level
 * (a stamina or mettle roll of 15 to stay up when it reaches
 * Incapacitated) or costs Body Points; a knockout halves it (003:87). A
 * knockdown, push or entangling throw deals no damage: its chance of
 * success. rules.c's d6_attack_terms gives the same terms its attack
 * takes, and d6_odds.h the exact numbers; the attacks of one command are
 * chained exactly over the target's state. What the count does not follow
 * is refused in words in one place (not_counted).
 */
#include "d6_int.h"

#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d6_odds.h"
#include "fray/chances.h"
#include "internal.h"

enum { CH_STATES = 512 };

/* One state of the target in the chain: h its Wound level (wounds) or
 * Body Points left (body-points); up: Incapacitated and stayed up; out:
 * out of the fight; hit: some attack of the command hit. */
typedef struct ch_state {
    int h;
    bool up, out, hit;
    mpq_t p;
} ch_state;

typedef struct ch_chain {
    int n;
    ch_state s[CH_STATES];
} ch_chain;

static void add_text(char *buf, size_t size, const char *text) {
    size_t n = strlen(buf);
    const char *parts[2] = {n ? "; " : "", text};
    for (int k = 0; k < 2; k++)
        for (const char *p = parts[k]; *p && n + 1 < size; p++)
            buf[n++] = *p;
    buf[n] = '\0';
}

/* q = the bigratio r. */
static void q_of(mpq_t q, const fray_bigratio *r) {
    if (mpz_set_str(mpq_numref(q), r->num, 10) != 0 ||
        mpz_set_str(mpq_denref(q), r->den, 10) != 0 || mpz_sgn(mpq_denref(q)) == 0)
        mpq_set_ui(q, 0, 1);
    else
        mpq_canonicalize(q);
    if (r->negative)
        mpq_neg(q, q);
}

/* The ratio of q exactly when it fits in 128 bits, else to 18 decimal
 * places (*cut set). */
static fray_ratio ratio_of(const mpq_t q, bool *cut) {
    if (mpz_sizeinbase(mpq_numref(q), 2) <= 127 && mpz_sizeinbase(mpq_denref(q), 2) <= 127) {
        fray__u128 part[2] = {0, 0};
        for (int k = 0; k < 2; k++) {
            const mpz_srcptr z = k ? mpq_denref(q) : mpq_numref(q);
            size_t words = 0;
            uint64_t w[2] = {0, 0};
            mpz_export(w, &words, -1, sizeof w[0], 0, 0, z);
            part[k] = ((fray__u128)w[1] << 64) | w[0];
        }
        return fray__ratio(part[0], part[1], mpq_sgn(q) < 0);
    }
    *cut = true;
    mpz_t num, den;
    mpz_inits(num, den, NULL);
    mpz_ui_pow_ui(den, 10, 18);
    mpz_mul(num, mpq_numref(q), den);
    mpz_mul_ui(num, num, 2);
    mpz_add(num, num, mpq_denref(q));
    mpz_fdiv_q(num, num, mpq_denref(q));
    mpz_fdiv_q_2exp(num, num, 1); /* round to nearest */
    uint64_t n64 = mpz_get_ui(num);
    mpz_clears(num, den, NULL);
    return fray__ratio(n64, (fray__u128)1000000000000000000ull, false);
}

static ch_state *find(ch_chain *c, int h, bool up, bool out, bool hit) {
    for (int i = 0; i < c->n; i++)
        if (c->s[i].h == h && c->s[i].up == up && c->s[i].out == out && c->s[i].hit == hit)
            return &c->s[i];
    if (c->n >= CH_STATES)
        return NULL;
    ch_state *x = &c->s[c->n++];
    x->h = h;
    x->up = up;
    x->out = out;
    x->hit = hit;
    mpq_init(x->p);
    return x;
}

static void chain_clear(ch_chain *c) {
    for (int i = 0; i < c->n; i++)
        mpq_clear(c->s[i].p);
    c->n = 0;
}

/* Adds p * f to the state (h, up, out, hit) of c. */
static bool put(ch_chain *c, int h, bool up, bool out, bool hit, const mpq_t p,
                const mpq_t f) {
    ch_state *x = find(c, h, up, out, hit);
    if (!x)
        return false;
    mpq_t t;
    mpq_init(t);
    mpq_mul(t, p, f);
    mpq_add(x->p, x->p, t);
    mpq_clear(t);
    return true;
}

/* What one command rolls on its target, exact: the chain's terms. */
typedef struct ch_action {
    int n;                             /* rolls on the target (attacks) */
    bool to_hit;                       /* false: a squeeze, every roll lands */
    mpq_t hit[D6_MAX_ACTIONS];         /* P(the k-th attack hits) */
    bool harm;                         /* false: a knockdown or push (no damage) */
    bool ko;                           /* a knockout (003:87, D7.5) */
    int max_bp;                        /* the target's maximum Body Points */
    int hands;                         /* 2: both hands, the k-th attack hand k % 2 */
    mpq_t level[2][D6_ODDS_WOUND_LEVELS]; /* P(excess in each band of the core) */
    int n_body;
    mpq_t *body[2];                    /* P(max(0, excess) == i), the last "or more" */
    mpq_t up;                          /* P(stays up at Incapacitated) */
} ch_action;

static const int band_excess[D6_ODDS_WOUND_LEVELS] = {0, 1, 4, 9, 13, 16};

/* One roll on the chain from `from` into `to` (k: which attack). */
static bool step(const d6_setup *s, const ch_action *A, int k, const ch_chain *from,
                 ch_chain *to) {
    mpq_t miss, f, g;
    mpq_inits(miss, f, g, NULL);
    mpq_set_ui(miss, 1, 1);
    mpq_sub(miss, miss, A->hit[k]);
    bool ok = true;
    bool wounds = s->o.health == D6_HEALTH_WOUNDS;
    const int hd = k % A->hands;
    for (int i = 0; i < from->n && ok; i++) {
        const ch_state *x = &from->s[i];
        mpq_set_ui(f, 1, 1);
        if (x->out) { /* the attacks stop once the target is out */
            ok = put(to, x->h, x->up, true, x->hit, x->p, f);
            continue;
        }
        if (mpq_sgn(miss) != 0)
            ok = put(to, x->h, x->up, false, x->hit, x->p, miss);
        if (!A->harm) { /* 003:8: it stumbles, no damage */
            if (ok)
                ok = put(to, x->h, x->up, false, true, x->p, A->hit[k]);
            continue;
        }
        if (wounds) {
            for (int b = 0; b < D6_ODDS_WOUND_LEVELS && ok; b++) {
                if (mpq_sgn(A->level[hd][b]) == 0)
                    continue;
                mpq_mul(f, A->hit[k], A->level[hd][b]);
                int now = d6_wound_after(x->h, band_excess[b]);
                if (A->ko) { /* rules.c's harm: the threshold, then half */
                    bool ko = now - x->h >= 2;
                    now = x->h + (now - x->h) / 2;
                    ok = put(to, now, x->up, ko || now >= D6_W_MORTAL, true, x->p, f);
                } else if (now >= D6_W_MORTAL) {
                    ok = put(to, now, false, true, true, x->p, f);
                } else if (now == D6_W_INCAP && x->h != D6_W_INCAP) {
                    mpq_mul(g, f, A->up);
                    ok = put(to, now, true, false, true, x->p, g);
                    mpq_sub(g, f, g);
                    if (ok)
                        ok = put(to, now, false, true, true, x->p, g);
                } else {
                    ok = put(to, now, x->up, false, true, x->p, f);
                }
            }
        } else {
            for (int e = 0; e < A->n_body && ok; e++) {
                if (mpq_sgn(A->body[hd][e]) == 0)
                    continue;
                mpq_mul(f, A->hit[k], A->body[hd][e]);
                bool last = e == A->n_body - 1; /* the last row: e or more */
                bool ko = A->ko && e > 0 && 2 * e >= A->max_bp;
                int lost = A->ko ? e / 2 : e;
                int left = x->h > lost ? x->h - lost : 0;
                if (last)
                    left = 0; /* rows reach all it has left (knockout: twice) */
                ok = put(to, left, false, ko || left <= 0, true, x->p, f);
            }
        }
    }
    mpq_clears(miss, f, g, NULL);
    return ok;
}

static fray_status big(fray_status rc, fray_diag *diag) {
    if (rc == FRAY_ERR_NOMEM)
        return fray__diag_set(diag, rc, 0, "out of memory");
    return fray__diag_set(diag, rc, 0,
                          "the odds of these dice are not counted (too many dice)");
}

/* P(x >= t), exact. */
static fray_status at_least(const d6_dist *x, int64_t t, mpq_t out) {
    fray_bigratio r;
    fray_status rc = d6_dist_at_least(x, t, &r);
    if (rc == FRAY_OK)
        q_of(out, &r);
    fray_bigratio_free(&r);
    return rc;
}

/* acc = acc + sign * (the roll of c, with the Wild Die when wild). */
static fray_status dist_add(d6_dist **acc, d6_code c, bool wild, d6_wild_one rule,
                            int sign) {
    d6_dist *roll = NULL, *sum = NULL;
    fray_status rc = d6_dist_code(c, wild, rule, NULL, &roll);
    if (rc == FRAY_OK)
        rc = d6_dist_add(*acc, roll, sign, &sum);
    d6_dist_free(roll);
    if (rc == FRAY_OK) {
        d6_dist_free(*acc);
        *acc = sum;
    }
    return rc;
}

/* What a hit does, before the target's resistance: the damage code (with
 * the Wild Die or not), a flat amount added to the total, dice the GM
 * rolls and takes off (a hold's -3D under modifiers: roll); the target's
 * resistance code and a flat amount added to it (scale). */
typedef struct ch_damage {
    d6_code damage;
    bool damage_wild;
    int flat;
    int minus_dice;
    d6_code resistance;
    int resistance_flat;
    d6_code extra; /* dice added without the Wild Die (a slam's object) */
} ch_damage;

/* The excess of damage over resistance into A: its band on the Wound
 * ladder, or Body Points lost by rows (rows: 0 .. rows-2 exact, the last
 * "or more"). */
static fray_status excess_odds(const d6_setup *s, const ch_damage *D, int rows,
                               ch_action *A, int hd) {
    d6_wild_one rule = (d6_wild_one)s->o.wild_one;
    d6_dist *x = NULL;
    fray_status rc = d6_dist_const(D->flat - D->resistance_flat, NULL, &x);
    if (rc == FRAY_OK)
        rc = dist_add(&x, D->damage, D->damage_wild, rule, 1);
    if (rc == FRAY_OK && (D->extra.dice > 0 || D->extra.pips != 0))
        rc = dist_add(&x, D->extra, false, rule, 1);
    if (rc == FRAY_OK && D->minus_dice > 0)
        rc = dist_add(&x, (d6_code){D->minus_dice, 0}, s->o.modifier_wild, rule, -1);
    if (rc == FRAY_OK)
        rc = dist_add(&x, D->resistance, true, rule, -1);
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    for (int k = 0; k < D6_ODDS_WOUND_LEVELS && rc == FRAY_OK; k++) {
        mpq_set_ui(a, 1, 1);
        if (k > 0)
            rc = at_least(x, band_excess[k], a);
        if (rc == FRAY_OK && k + 1 < D6_ODDS_WOUND_LEVELS) {
            rc = at_least(x, band_excess[k + 1], b);
            mpq_sub(a, a, b);
        }
        mpq_set(A->level[hd][k], a);
    }
    if (rc == FRAY_OK && s->o.health != D6_HEALTH_WOUNDS) {
        A->body[hd] = calloc((size_t)rows, sizeof *A->body[hd]);
        if (!A->body[hd])
            rc = FRAY_ERR_NOMEM;
        else
            A->n_body = rows;
        for (int i = 0; rc == FRAY_OK && i < A->n_body; i++)
            mpq_init(A->body[hd][i]);
        /* row i: P(excess >= max(i, 1)) less the next row's, the last "or more" */
        for (int i = 0; i < A->n_body && rc == FRAY_OK; i++) {
            rc = at_least(x, i, a);
            if (i == 0)
                mpq_set_ui(a, 1, 1);
            if (rc == FRAY_OK && i + 1 < A->n_body) {
                rc = at_least(x, i + 1, b);
                mpq_sub(a, a, b);
            }
            mpq_set(A->body[hd][i], a);
        }
    }
    mpq_clears(a, b, NULL);
    d6_dist_free(x);
    return rc;
}

/* The chance of one attack roll: skill (penalties taken off), flat to the
 * total, the difficulty and the GM's modifier dice, never below 3. */
static fray_status hit_odds(const d6_setup *s, d6_code skill, int flat, int difficulty,
                            const d6_code *mods, size_t n_mods, mpq_t out) {
    d6_success_query q;
    memset(&q, 0, sizeof q);
    q.skill = skill;
    q.skill.pips += flat; /* flat: in the pips (d6_odds.h) */
    q.wild_one = (d6_wild_one)s->o.wild_one;
    q.difficulty = difficulty;
    q.modifiers = n_mods ? mods : NULL;
    q.n_modifiers = n_mods;
    q.modifier_wild = s->o.modifier_wild;
    q.floor = D6_DIFFICULTY_FLOOR;
    fray_bigratio r;
    fray_status rc = d6_odds_check(&q, NULL, &r);
    if (rc == FRAY_OK)
        q_of(out, &r);
    fray_bigratio_free(&r);
    return rc;
}

/* "+1D (+3)" in rules words, for a row of the modifier tables. */
static void row_text(char *m, size_t size, const char *what, const d6_modifier_row *r,
                     bool rolled) {
    if (rolled)
        snprintf(m, size, "%s %+dD (rolled by the GM)", what, r->dice);
    else
        snprintf(m, size, "%s %+dD (%+d)", what, r->dice, r->standard);
}

static const char *const cover_words[] = {"", "quarter", "half", "three-quarter", "full"};

/* An attack (a blow, an option, a grab or tackle) or a squeeze, counted
 * over the target's state. */
/* slam (NULL: none): a slam or throw counted as a squeeze that lands
 * with this chance and adds the object's Toughness (003:15-16). */
static fray_status count_attack(const d6_setup *s, const d6_state *st,
                                const d6_event *cmd, bool interrupt,
                                fray_chances *out, fray_diag *diag, const mpq_t *slam,
                                d6_code object) {
    int a = cmd->actor, t = cmd->target;
    bool squeeze = cmd->kind == D6_EV_SQUEEZE;
    int g = squeeze ? D6_GRAB_NONE : cmd->grab;
    int w = g || squeeze ? -1 : d6_quick_weapon(s, st, a, cmd->weapon); /* a readied weapon too */
    d6_attack_terms_t T;
    d6_attack_terms(s, st, a, t, w, &T);
    const d6_cstate *ca = &st->c[a], *ct = &st->c[t];
    int sk = w >= 0 ? s->w[w].skill : D6_SK_FIGHTING;
    bool rolled = s->o.modifiers_roll;
    bool wounds = s->o.health == D6_HEALTH_WOUNDS;
    char m[320];

    ch_action A;
    memset(&A, 0, sizeof A);
    for (int k = 0; k < D6_MAX_ACTIONS; k++)
        mpq_init(A.hit[k]);
    for (int b = 0; b < D6_ODDS_WOUND_LEVELS; b++)
        mpq_inits(A.level[0][b], A.level[1][b], NULL);
    mpq_init(A.up);
    /* multiple weapons (003:89): the k-th attack with hand k % 2 (draw.c) */
    A.hands = cmd->weapon == D6_BOTH_HANDS ? 2 : 1;
    /* an entangling weapon's hit binds (003:63): no damage unless it is
     * spiked, then as grabs.c deals it (no knockout, no scale on the
     * resistance) */
    bool tangle = w >= 0 && s->w[w].entangling;
    bool knock = !g && (cmd->option == D6_OPT_KNOCKDOWN || cmd->option == D6_OPT_PUSH);
    A.harm = !knock && !(tangle && !s->w[w].spiked);
    A.ko = !g && !tangle && cmd->option == D6_OPT_KNOCKOUT;
    A.max_bp = s->c[t].b.body_points;
    fray_status rc = FRAY_OK;
    ch_chain *c0 = calloc(1, sizeof *c0), *c1 = calloc(1, sizeof *c1);
    if (!c0 || !c1) {
        rc = FRAY_ERR_NOMEM;
        goto fail;
    }
    ch_damage Dh[2];
    memset(Dh, 0, sizeof Dh);
    ch_damage *D0 = &Dh[0];
    D0->resistance = T.resistance;
    if (squeeze) { /* 003:10-11: Strength Damage only, no modifiers; no roll to hit */
        A.n = 1;
        A.to_hit = false;
        mpq_set_ui(A.hit[0], 1, 1);
        if (slam) {
            mpq_set(A.hit[0], *slam);
            D0->extra = object;
        }
        D0->damage = d6_strength_damage(d6_skill_code(s, a, D6_SK_LIFTING));
        D0->damage_wild = true;
        if (!slam) {
            snprintf(m, sizeof m, "%s's Strength Damage only, no modifiers (003:10-11)",
                     s->c[a].name);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
    } else {
        A.to_hit = true;
        int wound_pen = d6_wound_penalty(s, st, a);
        int surprise = d6_surprise_bonus(s, st, a, interrupt); /* +1D (003:129) */
        /* each action beyond the first -1D, or a quick draw's (draw.c,
         * 003:96-97); drawing the weapon now: its actions (003:101) */
        int quick = d6_quick_penalty(st, a, cmd->actions);
        int draw = cmd->weapon >= 0 ? d6_ready_cost(s, st, a, cmd->weapon) : 0;
        int pen = wound_pen + (interrupt ? 1 : 0) + quick + draw - surprise;
        int aim = ca->aim_dice > 0 && ca->aim_target == t ? ca->aim_dice : 0;
        int stand = d6_stand_actions(st, a); /* 003:8: one action stands it up */
        A.n = cmd->actions - (cmd->full ? 1 : 0) - stand;
        /* a stumble (003:8): off the next Agility-based roll, the dodge or
         * parry made first when there is one (both Agility skills) */
        int stumble = !cmd->full && d6_skill_attr[sk] == D6_AGILITY ? ca->agility_dice : 0;
        int part = d6_part_penalty(st, a, sk); /* 003:84 */
        /* the modifiers in rules words */
        if (ct->defense == D6_DEF_NONE || (ct->def_parry && T.ranged))
            snprintf(m, sizeof m, "%s's passive defense 10%s", s->c[t].name,
                     ct->defense != D6_DEF_NONE ? " (its parry stands against melee only)"
                                                : "");
        else
            snprintf(m, sizeof m, "%s's %s %s %d", s->c[t].name,
                     ct->defense == D6_DEF_FULL ? "full" : "partial",
                     ct->def_parry ? "parry" : "dodge", ct->def_total);
        add_text(out->modifiers, sizeof out->modifiers, m);
        if (T.ranged) {
            snprintf(m, sizeof m, "%s range %+d", d6_band_name(T.band), T.band_mod);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        if (T.cover_dice) {
            snprintf(m, sizeof m, "%s cover +%dD", cover_words[s->c[t].cover], T.cover_dice);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        if (T.light_dice) {
            snprintf(m, sizeof m, "light and obscurement +%dD", T.light_dice);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        if (d6_quick_now(st, a)) {
            snprintf(m, sizeof m, "a quick draw of %d attack(s), %dD moved to initiative: -%dD "
                                  "(003:96-97)", ca->qd_attacks, ca->qd_moved, quick);
            add_text(out->modifiers, sizeof out->modifiers, m);
        } else if (cmd->actions > 1) {
            snprintf(m, sizeof m, "%d actions declared: -%dD", cmd->actions, cmd->actions - 1);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        if (draw) {
            snprintf(m, sizeof m, "drawing the %s: -%dD (003:101)", s->w[cmd->weapon].name, draw);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        if (stand) {
            snprintf(m, sizeof m, "%s is down: one action stands it up (003:8)", s->c[a].name);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        if (wound_pen) {
            snprintf(m, sizeof m, "%s's wounds -%dD", s->c[a].name, wound_pen);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        if (interrupt)
            add_text(out->modifiers, sizeof out->modifiers, "interrupting after a wait -1D");
        if (surprise) {
            snprintf(m, sizeof m, "surprise +%dD", surprise);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        if (stumble) {
            snprintf(m, sizeof m, "%s stumbling -%dD (the first attack, 003:8)", s->c[a].name,
                     stumble);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        if (part) {
            snprintf(m, sizeof m, "%s hurt in the hand or arm -%d (003:84)", s->c[a].name, part);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        if (T.scale_attack || T.scale_difficulty) {
            snprintf(m, sizeof m, "scale %+d to %s",
                     T.scale_attack ? T.scale_attack : T.scale_difficulty,
                     T.scale_attack ? "the attack total" : "the difficulty");
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        if (aim) {
            snprintf(m, sizeof m, "aimed +%dD (the first attack)", aim);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        /* seed 003's options (options.c), through rules.c's modifier path */
        int op = 0, om = 0, ostd = 0, odmg = 0;
        int sight = d6_sight_of(s, cmd, a, t);
        d6_attack_mods(cmd, sight, &op, &om, &ostd, &odmg);
        const d6_modifier_row *r = d6_option_row(cmd->option);
        if (r && r->dice) {
            row_text(m, sizeof m, r->word, r, rolled);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        if ((r = d6_called_row(cmd->called)) != NULL) {
            char what[80];
            snprintf(what, sizeof what, "a called shot at something %s", r->title);
            row_text(m, sizeof m, what, r, rolled);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        for (int bit = 1; bit <= D6_SIGHT_BEHIND; bit <<= 1)
            if (sight & bit) {
                row_text(m, sizeof m, d6_sight_row(bit)->title, d6_sight_row(bit), rolled);
                add_text(out->modifiers, sizeof out->modifiers, m);
            }
        if ((r = d6_location_row(cmd->location)) != NULL) {
            char what[80];
            snprintf(what, sizeof what, "at %s", r->title);
            row_text(m, sizeof m, what, r, rolled);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        int gd = d6_grab_dice(g); /* 003:30, 35 */
        if (gd) {
            d6_modifier_row gr = {"", "", (int8_t)gd, (int8_t)(3 * gd), 0, 0};
            row_text(m, sizeof m, g == D6_GRAB_TACKLE ? "tackle" : "grab", &gr, rolled);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        int unwieldy = w >= 0 ? s->w[w].unwieldy : 0; /* 003:131: a number, never rolled */
        if (unwieldy) {
            snprintf(m, sizeof m, "unwieldy %s %+d", s->w[w].name, unwieldy);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        const d6_modifier_row *pr =
            d6_posture_row(st, t, T.ranged ? T.band : D6_BAND_POINT_BLANK); /* 003:91-92 */
        if (pr) {
            char what[96];
            snprintf(what, sizeof what, "%s %s", s->c[t].name, pr->title);
            row_text(m, sizeof m, what, pr, rolled);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        add_text(out->modifiers, sizeof out->modifiers, "the difficulty never below 3");
        if (A.hands == 2) {
            snprintf(m, sizeof m, "both hands (003:89): the %s, then the %s, in turn, each with "
                                  "its own skill, damage and weapon's modifiers",
                     s->w[s->c[a].b.weapon].name, s->w[s->c[a].b.off_hand].name);
            add_text(out->modifiers, sizeof out->modifiers, m);
        }
        for (int h = 0; h < A.hands && rc == FRAY_OK; h++) {
            if (h > 0) { /* the off hand's weapon: its own terms */
                w = d6_hand_weapon(s, a, cmd->weapon, w, h);
                d6_attack_terms(s, st, a, t, w, &T);
                sk = w >= 0 ? s->w[w].skill : D6_SK_FIGHTING;
                part = d6_part_penalty(st, a, sk);
                unwieldy = w >= 0 ? s->w[w].unwieldy : 0;
                pr = d6_posture_row(st, t, T.ranged ? T.band : D6_BAND_POINT_BLANK);
            }
            ch_damage *D = &Dh[h];
            D->resistance = T.resistance;
            bool say = h == 0;
            /* the difficulty: as rules.c's attack_once adds it up */
            int diff = T.base + T.scale_difficulty + unwieldy;
            d6_code mods[4];
            size_t n_mods = 0;
            int cd = T.cover_dice + T.light_dice + gd;
            if (!rolled) {
                diff += 3 * cd + ostd + (pr ? pr->standard : 0);
            } else {
                if (cd > 0)
                    mods[n_mods++] = (d6_code){cd, 0};
                if (op > 0)
                    mods[n_mods++] = (d6_code){op, 0};
                if (om > 0)
                    mods[n_mods++] = (d6_code){-om, 0};
                if (pr && pr->dice)
                    mods[n_mods++] = (d6_code){pr->dice, 0};
            }
            /* each attack's roll: the aim and the stumble on the first only */
            for (int k = h; k < A.n && rc == FRAY_OK; k += A.hands) {
                if (k > A.hands) {
                    mpq_set(A.hit[k], A.hit[k - A.hands]);
                    continue;
                }
                int dice = pen - (k == 0 ? aim - stumble : 0);
                rc = hit_odds(s, d6_code_add(T.skill, (d6_code){-dice, 0}),
                              T.scale_attack - part, diff, mods, n_mods, A.hit[k]);
            }
            if (rc != FRAY_OK)
                goto fail;
            /* what a hit does */
            if (g == D6_GRAB_FLIP) { /* 003:13: 3D from the ground, no Wild Die */
                D->damage = (d6_code){3, 0};
                D->damage_wild = false;
                if (say)
                    add_text(out->modifiers, sizeof out->modifiers,
                         "a flip: the ground's 3D (003:13)");
            } else if (g) { /* 003:10-14: Strength Damage; a hold takes 3D or more off */
                D->damage = d6_strength_damage(d6_skill_code(s, a, D6_SK_LIFTING));
                D->damage_wild = true;
                if (g == D6_GRAB_HOLD) {
                    int n = cmd->hold_dice > 3 ? cmd->hold_dice : 3;
                    if (rolled)
                        D->minus_dice = n;
                    else
                        D->flat = -3 * n;
                    snprintf(m, sizeof m, "a hold: the Strength Damage -%dD (003:14)", n);
                } else {
                    snprintf(m, sizeof m, "%s: the Strength Damage (003:%s)",
                             g == D6_GRAB_CHOKE ? "a choke" : "a tackle",
                             g == D6_GRAB_CHOKE ? "12" : "10");
                }
                if (say)
                    add_text(out->modifiers, sizeof out->modifiers, m);
            } else if (A.harm) {
                D->damage = d6_code_add(T.damage, (d6_code){odmg, 0});
                if (D->damage.dice < 0 || (D->damage.dice == 0 && D->damage.pips < 0))
                    D->damage = (d6_code){0, 0}; /* damage never below none */
                D->damage_wild = true;
                if (odmg) {
                    snprintf(m, sizeof m, "damage %+dD", odmg);
                    if (say)
                        add_text(out->modifiers, sizeof out->modifiers, m);
                }
                if ((r = d6_location_row(cmd->location)) != NULL && r->damage_pips) {
                    D->flat = r->damage_pips; /* 003:73-78, to the damage total */
                    snprintf(m, sizeof m, "damage %+d (%s)", r->damage_pips, r->title);
                    if (say)
                        add_text(out->modifiers, sizeof out->modifiers, m);
                }
                D->flat += T.scale_damage;
                D->resistance_flat = tangle ? 0 : T.scale_resistance;
                if (T.scale_damage || T.scale_resistance) {
                    snprintf(m, sizeof m, "scale %+d to %s",
                             T.scale_damage ? T.scale_damage : T.scale_resistance,
                             T.scale_damage ? "the damage total" : "the resistance total");
                    if (say)
                        add_text(out->modifiers, sizeof out->modifiers, m);
                }
                if (A.ko && say)
                    add_text(out->modifiers, sizeof out->modifiers,
                             "a knockout: half the result, out at two Wound levels or half "
                             "the Body Points (003:87)");
            }
        }
        if (rc != FRAY_OK)
            goto fail;
    }
    if (A.harm) {
        int h0 = wounds ? ct->wound : ct->bp;
        int rows = h0 + 1;
        if (A.ko) { /* the threshold, and twice what it has left */
            int need = (A.max_bp + 1) / 2;
            rows = (need > 2 * h0 ? need : 2 * h0) + 1;
        }
        if (rows < 2)
            rows = 2;
        for (int hd = 0; hd < A.hands; hd++)
            if ((rc = excess_odds(s, &Dh[hd], rows, &A, hd)) != FRAY_OK)
                goto fail;
        mpq_t q;
        mpq_init(q);
        fray_bigratio r;
        d6_success_query sq;
        memset(&sq, 0, sizeof sq);
        sq.skill = T.stay_up;
        sq.wild_one = (d6_wild_one)s->o.wild_one;
        sq.difficulty = 15;
        rc = d6_odds_check(&sq, NULL, &r);
        if (rc == FRAY_OK)
            q_of(A.up, &r);
        fray_bigratio_free(&r);
        mpq_clear(q);
        if (rc != FRAY_OK)
            goto fail;
    }
    /* the chain over the command's rolls */
    int h0 = wounds ? ct->wound : ct->bp;
    ch_state *x = find(c0, h0, (ct->flags & D6_F_UP) != 0, false, false);
    if (!x) {
        rc = FRAY_ERR_NOMEM;
        goto fail;
    }
    mpq_set_ui(x->p, 1, 1);
    for (int k = 0; k < A.n; k++) {
        if (!step(s, &A, k, c0, c1)) {
            rc = FRAY_ERR_RANGE;
            goto fail;
        }
        ch_chain *sw = c0;
        c0 = c1;
        c1 = sw;
        chain_clear(c1);
    }
    /* outcomes, damage, the drop */
    mpq_t o[4], e, tmp;
    for (int k = 0; k < 4; k++)
        mpq_init(o[k]);
    mpq_inits(e, tmp, NULL);
    bool cut = false;
    out->n_tracks = 1;
    out->tracks[0] = wounds ? "Wound levels" : "Body Points";
    for (int i = 0; i < c0->n; i++) {
        const ch_state *y = &c0->s[i];
        int amount = wounds ? y->h - h0 : h0 - y->h;
        int k = !y->hit ? 0 : y->out ? 3 : amount > 0 ? 2 : 1;
        mpq_add(o[k], o[k], y->p);
        mpq_set_si(tmp, amount, 1);
        mpq_mul(tmp, tmp, y->p);
        mpq_add(e, e, tmp);
        int j = 0;
        while (j < out->n_damage && out->damage[j].amount[0] != amount)
            j++;
        if (j == out->n_damage) {
            if (j >= FRAY_CHANCES_DAMAGE)
                continue;
            out->n_damage++;
            out->damage[j].amount[0] = amount;
            out->damage[j].share = 0;
        }
    }
    /* the damage rows, smallest first, exact */
    for (int i = 1; i < out->n_damage; i++)
        for (int j = i; j > 0 && out->damage[j].amount[0] < out->damage[j - 1].amount[0]; j--) {
            fray_chance_damage t2 = out->damage[j];
            out->damage[j] = out->damage[j - 1];
            out->damage[j - 1] = t2;
        }
    for (int j = 0; j < out->n_damage; j++) {
        mpq_set_ui(tmp, 0, 1);
        for (int i = 0; i < c0->n; i++) {
            const ch_state *y = &c0->s[i];
            if ((wounds ? y->h - h0 : h0 - y->h) == out->damage[j].amount[0])
                mpq_add(tmp, tmp, y->p);
        }
        out->damage[j].p = ratio_of(tmp, &cut);
        out->damage[j].share = mpq_get_d(tmp);
    }
    /* the outcomes' names: what a hit is for this command */
    const char *hit_words = tangle                 ? "entangled"
                            : g == D6_GRAB_FLIP    ? "flipped"
                            : g == D6_GRAB_TACKLE  ? "tackled"
                            : g                    ? "held"
                            : squeeze              ? ""
                                                   : "hit";
    char names[4][24];
    snprintf(names[0], sizeof names[0], "miss");
    snprintf(names[1], sizeof names[1], "%s%sno harm", hit_words, *hit_words ? ", " : "");
    snprintf(names[2], sizeof names[2], "%s%shurt", hit_words, *hit_words ? " and " : "");
    snprintf(names[3], sizeof names[3], "%s", A.ko ? "knocked out, or out" : "out of the fight");
    out->n_outcomes = 0;
    if (!A.harm) { /* 003:8: a miss, or the stumble */
        snprintf(out->outcomes[0].name, sizeof out->outcomes[0].name, "misses");
        snprintf(out->outcomes[1].name, sizeof out->outcomes[1].name, "%s",
                 !knock                             ? "entangled"
                 : cmd->option == D6_OPT_KNOCKDOWN ? "knocked down"
                                                   : "stumbles");
        mpq_add(o[1], o[1], o[2]);
        mpq_add(o[1], o[1], o[3]);
        for (int k = 0; k < 2; k++) {
            out->outcomes[k].p = ratio_of(o[k], &cut);
            out->outcomes[k].share = mpq_get_d(o[k]);
        }
        out->n_outcomes = 2;
        out->p_drop = -1;
    } else {
        out->n_outcomes = 4;
        for (int k = 0; k < 4; k++) { /* a squeeze's miss: 0 */
            fray_chance_outcome *oc = &out->outcomes[k];
            memcpy(oc->name, names[k], sizeof oc->name);
            oc->p = ratio_of(o[k], &cut);
            oc->share = mpq_get_d(o[k]);
        }
        out->p_drop = mpq_get_d(o[3]);
    }
    out->expected[0] = mpq_get_d(e);
    mpq_set_ui(tmp, 1, 1);
    mpq_sub(tmp, tmp, o[0]);
    out->p_success = mpq_get_d(tmp);
    for (int k = 0; k < 4; k++)
        mpq_clear(o[k]);
    mpq_clears(e, tmp, NULL);
    snprintf(out->assumed, sizeof out->assumed,
             "every die fair, the Wild Die's 6s rolled again without end (counted "
             "exactly); modifiers %s; the target's defense as it stands now; %s; seed "
             "003's options, postures, stumbles, hurt hands, scale and surprise counted as "
             "the engine applies them; what is not counted is refused, never counted as "
             "something else%s",
             rolled ? "rolled by the GM" : "at their standard values",
             !A.harm && !knock ? "no damage: the target is bound until it breaks or slips "
                                 "free (003:63)" :
             !A.harm ? "no damage: the target loses 2D from its next Agility roll" :
             wounds ? "amounts are the Wound levels the target goes up" :
                      "amounts are the Body Points the target loses",
             cut ? "; fractions longer than 38 digits shown to 18 decimal places" : "");
fail:
    for (int hd = 0; hd < 2; hd++)
        if (A.body[hd]) {
            for (int k = 0; k < A.n_body; k++)
                mpq_clear(A.body[hd][k]);
            free(A.body[hd]);
        }
    for (int k = 0; k < D6_MAX_ACTIONS; k++)
        mpq_clear(A.hit[k]);
    for (int b = 0; b < D6_ODDS_WOUND_LEVELS; b++)
        mpq_clears(A.level[0][b], A.level[1][b], NULL);
    mpq_clear(A.up);
    if (c0)
        chain_clear(c0);
    if (c1)
        chain_clear(c1);
    free(c0);
    free(c1);
    if (rc != FRAY_OK)
        return big(rc, diag);
    return FRAY_OK;
}

static fray_status count_hold(const d6_setup *s, const d6_state *st, const d6_event *cmd,
                              bool interrupt, fray_chances *out, fray_diag *diag);
/* An escape (003:65), breaking free or slipping free (003:63): one
 * opposed roll or one roll against the binding's total, no penalty (as
 * grabs.c rolls them). */
static fray_status count_free(const d6_setup *s, const d6_state *st, const d6_event *cmd,
                              fray_chances *out, fray_diag *diag) {
    int a = cmd->actor;
    d6_success_query q;
    memset(&q, 0, sizeof q);
    q.wild_one = (d6_wild_one)s->o.wild_one;
    char m[320], c1[16], c2[16];
    bool escape = cmd->kind == D6_EV_ESCAPE;
    if (escape) {
        int h = d6_holder(st, a);
        q.skill = d6_physique_or_lifting(s, a);
        q.defense_roll = true;
        q.defense = d6_physique_or_lifting(s, h);
        /* D7.14, escape-tie: a tie to the holder (more frees) or the escapee */
        q.tie = s->o.escape_tie_escapee ? D6_TIE_MEETS : D6_TIE_BEATS;
        d6_code_format(q.skill, c1, sizeof c1);
        d6_code_format(q.defense, c2, sizeof c2);
        snprintf(m, sizeof m,
                 "%s's Physique or lifting %s against %s's %s, each with the Wild Die; "
                 "a tie to the %s", s->c[a].name, c1, s->c[h].name, c2,
                 s->o.escape_tie_escapee ? "escapee" : "holder");
        out->target = h;
    } else {
        bool slip = cmd->kind == D6_EV_SLIP_FREE;
        q.skill = slip ? d6_agility_or_acrobatics(s, a) : d6_physique_or_lifting(s, a);
        q.difficulty = st->c[a].tangle; /* 003:63: meets or beats */
        d6_code_format(q.skill, c1, sizeof c1);
        snprintf(m, sizeof m, "%s's %s %s against the binding's total %d", s->c[a].name,
                 slip ? "Agility or acrobatics" : "Physique or lifting", c1, q.difficulty);
    }
    add_text(out->modifiers, sizeof out->modifiers, m);
    fray_bigratio r;
    fray_status rc = d6_odds_check(&q, NULL, &r);
    if (rc != FRAY_OK) {
        fray_bigratio_free(&r);
        return big(rc, diag);
    }
    mpq_t p, f;
    mpq_inits(p, f, NULL);
    q_of(p, &r);
    fray_bigratio_free(&r);
    mpq_set_ui(f, 1, 1);
    mpq_sub(f, f, p);
    bool cut = false;
    out->n_outcomes = 2;
    snprintf(out->outcomes[0].name, sizeof out->outcomes[0].name, "%s",
             escape ? "held" : "fails");
    snprintf(out->outcomes[1].name, sizeof out->outcomes[1].name, "%s",
             escape ? "escapes" : "free");
    out->outcomes[0].p = ratio_of(f, &cut);
    out->outcomes[0].share = mpq_get_d(f);
    out->outcomes[1].p = ratio_of(p, &cut);
    out->outcomes[1].share = mpq_get_d(p);
    out->p_success = mpq_get_d(p);
    mpq_clears(p, f, NULL);
    out->n_tracks = 1;
    out->tracks[0] = s->o.health == D6_HEALTH_WOUNDS ? "Wound levels" : "Body Points";
    out->n_damage = 1;
    out->damage[0].amount[0] = 0;
    out->damage[0].p = fray__ratio(1, 1, false);
    out->damage[0].share = 1;
    out->p_drop = -1;
    snprintf(out->assumed, sizeof out->assumed,
             "every die fair, the Wild Die's 6s rolled again without end (counted "
             "exactly); an action with no damage; no penalty on the roll, as the engine "
             "rolls it");
    return FRAY_OK;
}

/* What the count does not follow: refused in words, never counted as
 * something else. One line a case (the others' refusals go beside). */
static const char *not_counted(const d6_setup *s, const d6_state *st, const d6_event *cmd) {
    int who = cmd->actor;
    if (cmd->kind == D6_EV_ESCAPE || cmd->kind == D6_EV_BREAK_FREE ||
        cmd->kind == D6_EV_SLIP_FREE || cmd->kind == D6_EV_SQUEEZE)
        return NULL;
    if (cmd->kind != D6_EV_ATTACK)
        return "an action that rolls no dice against a foe";
    int wq = cmd->grab ? -1 : d6_quick_weapon(s, st, who, cmd->weapon);
    bool harmless = !cmd->grab && (cmd->option == D6_OPT_KNOCKDOWN || cmd->option == D6_OPT_PUSH ||
                                   (wq >= 0 && s->w[wq].entangling && !s->w[wq].spiked));
    if (s->o.damage_bonus && !harmless && cmd->grab != D6_GRAB_FLIP &&
        cmd->grab != D6_GRAB_HOLD)
        return "an attack whose damage grows with how far it beats the difficulty "
               "(damage-bonus: yes)";
    if (cmd->trick) /* things.c (003:5) */
        return "an attack with an acrobatic trick";
    if (cmd->grab && (cmd->option || cmd->called || cmd->location))
        return "a grab or tackle with seed 003's attack options";
    if (cmd->grab && cmd->weapon == D6_BOTH_HANDS)
        return "a grab or tackle with both hands' weapons";
    if (cmd->weapon == D6_BOTH_HANDS &&
        ((s->c[who].b.weapon >= 0 && s->w[s->c[who].b.weapon].entangling) ||
         (s->c[who].b.off_hand >= 0 && s->w[s->c[who].b.off_hand].entangling)))
        return "an attack with both hands, one of them an entangling weapon";
    const d6_modifier_row *loc = d6_location_row(cmd->location);
    if (loc && loc->damage_pips < 0 && !harmless) {
        d6_scale_adj sc;
        d6_scale_attack(s, who, cmd->target, wq, &sc);
        if (sc.damage) /* the total is kept at 0 before scale is added */
            return "a hit location that takes damage off, by a larger attacker";
    }
    return NULL;
}

static fray_status one(const d6_setup *s, const d6_state *st, int who,
                       const char *command, fray_chances *out, fray_diag *diag) {
    memset(out, 0, sizeof *out);
    out->who = who;
    out->target = -1;
    out->p_drop = -1;
    out->p_success = -1;
    out->area_dropped[0] = -1;
    char text[2 * FRAY_CHANCES_TEXT];
    if (snprintf(text, sizeof text, "%s %s", s->c[who].id, command) >= (int)sizeof text)
        return fray__diag_set(diag, FRAY_ERR_PARSE, 0, "the command is too long");
    d6_event *cmd = malloc(sizeof *cmd);
    d6_state *now = malloc(sizeof *now);
    fray_status rc = FRAY_OK;
    char why[320];
    why[0] = '\0';
    if (!cmd || !now) {
        rc = fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
        goto done;
    }
    if ((rc = d6_parse(s, st, text, cmd, diag)) != FRAY_OK)
        goto done;
    if (cmd->actor != who) {
        rc = fray__diag_set(diag, FRAY_ERR_INVALID, 0, "'%s' is not an action of %s",
                            command, s->c[who].name);
        goto done;
    }
    if (cmd->kind != D6_EV_ATTACK && cmd->kind != D6_EV_PIN && cmd->kind != D6_EV_SLAM &&
        cmd->kind != D6_EV_SQUEEZE && cmd->kind != D6_EV_ESCAPE &&
        cmd->kind != D6_EV_BREAK_FREE && cmd->kind != D6_EV_SLIP_FREE) {
        rc = fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                            "%s rolls no dice against a foe: it has no chances to count",
                            d6_kind_title(cmd->kind));
        goto done;
    }
    if (d6_out(&st->c[who])) {
        rc = fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s is out of the fight",
                            s->c[who].name);
        goto done;
    }
    /* as if its turn came now, unless it waited and may interrupt */
    *now = *st;
    bool interrupt = false;
    if (d6_actor(st) != who) {
        if (st->c[who].flags & D6_F_WAITING)
            interrupt = true; /* rules.c: an interrupt, its action at -1D */
        else {
            now->pos = 0;
            now->order[0] = (int8_t)who;
            if (now->n_order < 1)
                now->n_order = 1;
        }
    }
    if (d6_check_cmd(s, now, cmd, why, sizeof why) != FRAY_OK) {
        rc = fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s",
                            why[0] ? why : "the rules refuse it now");
        goto done;
    }
    if (cmd->kind == D6_EV_PIN || cmd->kind == D6_EV_SLAM ||
        (cmd->kind == D6_EV_ATTACK && cmd->disarm)) { /* holds.c's */
        snprintf(out->command, sizeof out->command, "%s", command);
        rc = count_hold(s, st, cmd, interrupt, out, diag);
        goto done;
    }
    const char *not = not_counted(s, st, cmd);
    if (not) {
        rc = fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                            "the chances of %s are not counted yet", not);
        goto done;
    }
    snprintf(out->command, sizeof out->command, "%s", command);
    if (cmd->kind == D6_EV_ESCAPE || cmd->kind == D6_EV_BREAK_FREE ||
        cmd->kind == D6_EV_SLIP_FREE) {
        int h = d6_holder(st, who);
        if (snprintf(out->title, sizeof out->title, "%s%s%s", d6_kind_title(cmd->kind),
                     cmd->kind == D6_EV_ESCAPE ? " from " : "",
                     cmd->kind == D6_EV_ESCAPE && h >= 0 ? s->c[h].name : "") >=
            (int)sizeof out->title)
            out->title[sizeof out->title - 1] = '\0';
        rc = count_free(s, st, cmd, out, diag);
        goto done;
    }
    if (cmd->kind == D6_EV_SQUEEZE)
        cmd->target = (int8_t)d6_holding(st, who);
    out->target = cmd->target;
    int w = cmd->grab ? -1 : d6_quick_weapon(s, st, who, cmd->weapon);
    int n_att = cmd->actions - (cmd->full ? 1 : 0) - d6_stand_actions(st, who);
    const d6_modifier_row *opt = d6_option_row(cmd->option);
    const d6_modifier_row *loc = d6_location_row(cmd->location);
    char what[48];
    if (cmd->kind == D6_EV_SQUEEZE)
        snprintf(what, sizeof what, "Squeeze");
    else if (cmd->grab)
        snprintf(what, sizeof what, "%s%s%s", cmd->grab == D6_GRAB_TACKLE ? "Tackle" : "Grab",
                 cmd->grab == D6_GRAB_TACKLE ? "" : ": ",
                 cmd->grab == D6_GRAB_TACKLE ? "" : d6_grab_word(cmd->grab));
    else
        snprintf(what, sizeof what, "%s%s", opt ? opt->title : "Attack",
                 opt ? "" : n_att > 1 ? "s" : "");
    char with[2 * D6_NAME + 8];
    if (cmd->weapon == D6_BOTH_HANDS) /* 003:89 (draw.c checked both are there) */
        snprintf(with, sizeof with, "%s and %s", s->w[s->c[who].b.weapon].name,
                 s->w[s->c[who].b.off_hand].name);
    else
        snprintf(with, sizeof with, "%s", w >= 0 ? s->w[w].name : "bare hands");
    if (snprintf(out->title, sizeof out->title, "%s%s%s on %s%s%s%s", what,
                 loc ? " at " : "", loc ? loc->title : "", s->c[cmd->target].name,
                 cmd->kind == D6_EV_SQUEEZE || cmd->grab ? "" : " with ",
                 cmd->kind == D6_EV_SQUEEZE || cmd->grab ? "" : with,
                 cmd->full ? (cmd->parry ? ", and parry" : ", and dodge") : "") >=
        (int)sizeof out->title)
        out->title[sizeof out->title - 1] = '\0';
    rc = count_attack(s, st, cmd, interrupt, out, diag, NULL, (d6_code){0, 0});
done:
    free(cmd);
    free(now);
    return rc;
}

/* The forms `odds ID` counts on each foe (issue 19): the plain attack,
 * two attacks, an attack with a dodge (or parry), both hands, then seed 003's
 * options a GM would consider, most used first (a list that runs out of
 * room keeps these). A lunge only where the foe is beyond the weapon's
 * reach (at it, a lunge is the plain attack made worse). */
static const char *const forms[] = {
    "", " actions 2", " defend", " both", " all-out", " sweep", " lunge",
    " knockout at head", " at head", " at heart", " at chest", " at arm", " at leg",
    " at hand", " knockdown", " push", " grab", " grab choke", " grab flip", " tackle",
    " disarm called large"}; /* a disarm: the hilt or haft, 10 to 50 cm (ruling 64) */
enum { FORMS = (int)(sizeof forms / sizeof forms[0]) };

/* Lists the chances of `c` at out[*n] when the rules allow it now and
 * the count follows it; a refusal lists nothing. */
static fray_status list_one(const d6_setup *s, const d6_state *st, int who, const char *c,
                            fray_chances *out, int *n, fray_diag *diag) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = one(s, st, who, c, &out[*n], &d);
    if (rc == FRAY_OK)
        ++*n;
    else if (rc != FRAY_ERR_INVALID && rc != FRAY_ERR_PARSE) {
        if (diag)
            *diag = d;
        return rc;
    }
    return FRAY_OK;
}

fray_status d6_chances(const d6_setup *s, const d6_state *st, int who,
                       const char *command, struct fray_chances *out, int max,
                       int *n, fray_diag *diag) {
    *n = 0;
    if (who < 0 || who >= st->n)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no such combatant in this fight");
    if (!st->started)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "the fight has not begun");
    if (command) {
        fray_status rc = one(s, st, who, command, out, diag);
        if (rc == FRAY_OK)
            *n = 1;
        return rc;
    }
    /* What frees it, or the squeeze of the one it holds (grabs.c), or the
     * arm pin's options (holds.c, 003:18-24): the resisted forms are
     * listed where the rules allow them now (the one pinned can still
     * move its turn up), since the one pinned, not the holder, chooses to
     * resist and a GM compares both. The slam into the ground only: a
     * wall or a sturdier object is the scene's, called by the GM. */
    static const char *const own[] = {"escape",      "break-free",         "slip-free",
                                      "squeeze",     "pin break",          "pin submit",
                                      "pin damage",  "pin break resisted", "pin submit resisted",
                                      "slam into ground"};
    for (int k = 0; k < (int)(sizeof own / sizeof own[0]) && *n < max; k++) {
        fray_status rc = list_one(s, st, who, own[k], out, n, diag);
        if (rc != FRAY_OK)
            return rc;
    }
    /* Every foe it may attack now, each form in turn. */
    bool parry = d6_skill_code(s, who, d6_parry_skill_now(s, st, who)).dice * 3 +
                     d6_skill_code(s, who, d6_parry_skill_now(s, st, who)).pips >
                 d6_skill_code(s, who, D6_SK_DODGE).dice * 3 +
                     d6_skill_code(s, who, D6_SK_DODGE).pips;
    int w = d6_weapon_now(s, st, who);
    for (int k = 0; k < FORMS && *n < max; k++)
        for (int t = 0; t < st->n && *n < max; t++) {
            if (t == who || s->c[t].side == s->c[who].side || d6_out(&st->c[t]))
                continue;
            bool reach = d6_band(s, w, d6_distance(st, who, t)) != D6_BAND_BEYOND;
            if (strcmp(forms[k], " lunge") == 0 && reach)
                continue;
            char c[FRAY_CHANCES_TEXT];
            snprintf(c, sizeof c, "attack %s%s", s->c[t].id,
                     k == 2 && parry ? " parry" : forms[k]);
            fray_status rc = list_one(s, st, who, c, out, n, diag);
            if (rc != FRAY_OK)
                return rc;
        }
    return FRAY_OK;
}

/* ---- The arm pin and the disarm (holds.c; 003:17-24, 61) -----------------
 * The chance that a break or a submission succeeds (meet or beat: the
 * holder's roll against 2 x the target's dice (+ pips + protection), or
 * against the target's own roll + 5, two Wild Dice counted exactly), and
 * the chance that a disarm knocks the item away: P(hit) x P(the grip is
 * not greater than the damage total), or P(hit) when the holder has
 * acted. A slam, the arm pin's damage option and what the attack count
 * refuses are refused in words. */

static fray_status hold_refuse(fray_diag *diag, const char *what) {
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "the chances of %s are not counted yet",
                          what);
}

static void set_outcome(fray_chances *out, int k, const char *name, const mpq_t p, bool *cut) {
    snprintf(out->outcomes[k].name, sizeof out->outcomes[k].name, "%s", name);
    out->outcomes[k].p = ratio_of(p, cut);
    out->outcomes[k].share = mpq_get_d(p);
}

/* 003:15-16 (holds.c's slam_apply): the lifting roll against 15, then
 * the throwing roll against 10, each at -1D for the two actions (and the
 * wounds, a hurt arm); a throw that lands does the object's Toughness (no
 * Wild Die) plus the Strength Damage against the resistance. */
static fray_status count_slam(const d6_setup *s, const d6_state *st, const d6_event *cmd,
                              bool interrupt, fray_chances *out, fray_diag *diag) {
    int a = cmd->actor, t = d6_holding(st, a);
    if (t < 0)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s holds nobody", s->c[a].name);
    int pen = d6_wound_penalty(s, st, a) + (interrupt ? 1 : 0) -
              d6_surprise_bonus(s, st, a, interrupt) + 1;
    d6_success_query q;
    fray_bigratio rl, rt;
    memset(&rl, 0, sizeof rl);
    memset(&rt, 0, sizeof rt);
    memset(&q, 0, sizeof q);
    q.wild_one = (d6_wild_one)s->o.wild_one;
    q.skill = d6_code_add(d6_skill_code(s, a, D6_SK_LIFTING), (d6_code){-pen, 0});
    q.skill.pips -= d6_part_penalty(st, a, D6_SK_LIFTING);
    q.difficulty = 15;
    fray_status rc = d6_odds_check(&q, NULL, &rl);
    q.skill = d6_code_add(d6_skill_code(s, a, D6_SK_THROWING), (d6_code){-pen, 0});
    q.skill.pips -= d6_part_penalty(st, a, D6_SK_THROWING);
    q.difficulty = 10;
    if (rc == FRAY_OK)
        rc = d6_odds_check(&q, NULL, &rt);
    if (rc != FRAY_OK) {
        fray_bigratio_free(&rl);
        fray_bigratio_free(&rt);
        return big(rc, diag);
    }
    mpq_t pl, pt, hit;
    mpq_inits(pl, pt, hit, NULL);
    q_of(pl, &rl);
    q_of(pt, &rt);
    fray_bigratio_free(&rl);
    fray_bigratio_free(&rt);
    mpq_mul(hit, pl, pt);
    d6_event sq;
    memset(&sq, 0, sizeof sq);
    sq.kind = D6_EV_SQUEEZE;
    sq.actor = cmd->actor;
    sq.target = (int8_t)t;
    sq.weapon = -1;
    sq.option = D6_OPT_NONE;
    out->target = t;
    out->modifiers[0] = '\0';
    const mpq_t *hp = (const mpq_t *)&hit;
    rc = count_attack(s, st, &sq, false, out, diag, hp, d6_slam_toughness(cmd->slam_into));
    if (rc == FRAY_OK) {
        /* the outcomes hold four rows (fray/chances.h): the miss is not
         * lifted or lifted and missed; the lift's own chance in words */
        snprintf(out->outcomes[0].name, sizeof out->outcomes[0].name, "not lifted or missed");
        for (int k = 1; k < out->n_outcomes; k++) {
            char *nm = out->outcomes[k].name;
            if (strncmp(nm, ", ", 2) == 0 || strncmp(nm, " and ", 5) == 0)
                memmove(nm, nm + (nm[1] == ' ' ? 2 : 5), strlen(nm) + 1);
        }
        char mm[120];
        snprintf(mm, sizeof mm, "lifted %.4g%% of the time (003:15)", 100 * mpq_get_d(pl));
        add_text(out->modifiers, sizeof out->modifiers, mm);
        if (snprintf(out->title, sizeof out->title, "%s %s into the %s",
                     "Slam or throw", s->c[t].name,
                     d6_slam_word(cmd->slam_into)) >= (int)sizeof out->title)
            out->title[sizeof out->title - 1] = '\0';
        char m[200];
        snprintf(m, sizeof m, "lifting against 15, then throwing against 10, each -1D for the "
                              "two actions (003:15-16)");
        add_text(out->modifiers, sizeof out->modifiers, m);
        snprintf(m, sizeof m, "a landed throw: the %s's %dD (no Wild Die) + %s's Strength Damage",
                 d6_slam_word(cmd->slam_into), d6_slam_toughness(cmd->slam_into).dice,
                 s->c[a].name);
        add_text(out->modifiers, sizeof out->modifiers, m);
    }
    mpq_clears(pl, pt, hit, NULL);
    return rc;
}

static fray_status count_hold(const d6_setup *s, const d6_state *st, const d6_event *cmd,
                              bool interrupt, fray_chances *out, fray_diag *diag) {
    int a = cmd->actor;
    char m0[200];
    if (cmd->kind == D6_EV_SLAM)
        return count_slam(s, st, cmd, interrupt, out, diag);
    if (cmd->kind == D6_EV_PIN && cmd->pin_op == D6_PIN_DAMAGE) {
        /* 003:18: the Strength Damage against the resistance, no roll to
         * hit and no modifiers: rolled as a hold's squeeze is (holds.c's
         * strength_harm, grabs.c's squeeze), so counted the same way */
        int pt = d6_holding(st, a);
        if (pt < 0)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s holds nobody", s->c[a].name);
        d6_event sq;
        memset(&sq, 0, sizeof sq);
        sq.kind = D6_EV_SQUEEZE;
        sq.actor = cmd->actor;
        sq.target = (int8_t)pt;
        sq.weapon = -1;
        sq.option = D6_OPT_NONE;
        out->target = pt;
        out->modifiers[0] = '\0';
        fray_status prc = count_attack(s, st, &sq, false, out, diag, NULL, (d6_code){0, 0});
        if (prc != FRAY_OK)
            return prc;
        if (snprintf(out->title, sizeof out->title, "Strength Damage to %s (arm pin)",
                     s->c[pt].name) >= (int)sizeof out->title)
            out->title[sizeof out->title - 1] = '\0';
        out->modifiers[0] = '\0';
        snprintf(m0, sizeof m0, "%s's Strength Damage only, no roll to hit (003:18)",
                 s->c[a].name);
        add_text(out->modifiers, sizeof out->modifiers, m0);
        return FRAY_OK;
    }
    int t = cmd->kind == D6_EV_PIN ? d6_holding(st, a) : cmd->target;
    if (t < 0)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s holds nobody", s->c[a].name);
    out->target = t;
    int pen = d6_wound_penalty(s, st, a) + (interrupt ? 1 : 0) -
              d6_surprise_bonus(s, st, a, interrupt);
    d6_success_query q, g;
    memset(&q, 0, sizeof q);
    memset(&g, 0, sizeof g);
    q.wild_one = g.wild_one = (d6_wild_one)s->o.wild_one;
    d6_code mods[2];
    size_t nm = 0;
    bool grip = false;
    char m[200];
    if (cmd->kind == D6_EV_PIN) {
        bool brk = cmd->pin_op == D6_PIN_BREAK;
        int k = brk ? D6_SK_LIFTING : D6_SK_FIGHTING;
        if (!brk && st->c[a].agility_dice > 0)
            return hold_refuse(diag, "a submission by one who stumbled");
        d6_code pn = {-pen, 0};
        q.skill = d6_code_add(brk ? d6_physique_or_lifting(s, a) : d6_skill_code(s, a, k), pn);
        q.skill.pips -= d6_part_penalty(st, a, k);
        int tpen = d6_wound_penalty(s, st, t);
        if (!cmd->resisted) {
            d6_code pl = d6_physique_or_lifting(s, t), ag = s->c[t].b.attr[D6_AGILITY];
            int ar = s->c[t].b.armour;
            int prot = ar >= 0 && ar < s->n_armour ? s->ar[ar].code.dice * 3 + s->ar[ar].code.pips
                                                   : 0;
            q.difficulty = brk ? 2 * pl.dice + pl.pips + prot : 2 * ag.dice;
        } else {
            if (!brk && st->c[t].agility_dice > 0)
                return hold_refuse(diag, "a submission resisted by one who stumbled");
            d6_code tp = {-tpen, 0};
            d6_code c = brk ? d6_physique_or_lifting(s, t) : s->c[t].b.attr[D6_AGILITY];
            int ar = s->c[t].b.armour;
            if (brk && ar >= 0 && ar < s->n_armour)
                c = d6_code_add(c, s->ar[ar].code);
            q.defense_roll = true;
            q.defense = d6_code_add(c, tp);
            q.defense.pips -= brk ? d6_part_penalty(st, t, D6_SK_LIFTING) : 0;
            q.defense_bonus = 5;
        }
        if (snprintf(out->title, sizeof out->title,
                     brk ? "Break %s's arm (arm pin)%s" : "Force %s to submit (arm pin)%s",
                     s->c[t].name, cmd->resisted ? ", resisted" : "") >= (int)sizeof out->title)
            out->title[sizeof out->title - 1] = '\0';
        snprintf(m, sizeof m, "%s against %s", brk ? "Physique or lifting" : "fighting",
                 cmd->resisted ? (brk ? "its Physique or lifting and armour roll + 5"
                                      : "its Agility roll + 5")
                               : (brk ? "2 x its Physique or lifting dice + pips + armour"
                                      : "2 x its Agility dice"));
        add_text(out->modifiers, sizeof out->modifiers, m);
    } else {
        if (s->o.damage_bonus)
            return hold_refuse(diag, "a disarm with damage-bonus: yes (the damage total grows "
                                     "with the attack's margin)");
        int w = d6_quick_weapon(s, st, a, cmd->weapon);
        d6_attack_terms_t T;
        d6_attack_terms(s, st, a, t, w, &T);
        int sk = w >= 0 ? s->w[w].skill : D6_SK_FIGHTING;
        const char *not =
            d6_quick_now(st, a) ? "a disarm in a quick-draw round"
            : cmd->weapon >= 0 && d6_ready_cost(s, st, a, cmd->weapon) > 0
                ? "a disarm that draws its weapon"
            : cmd->sight || d6_sight_of(s, cmd, a, t) ? "a disarm by or on one who is blind"
            : d6_posture_row(st, t, T.ranged ? T.band : D6_BAND_POINT_BLANK)
                ? "a disarm of one crouching or prone"
            : w >= 0 && s->w[w].unwieldy ? "a disarm with an unwieldy weapon"
            : d6_part_penalty(st, a, sk) ? "a disarm by one hurt in the hand or arm"
            : st->c[a].agility_dice > 0 && d6_skill_attr[sk] == D6_AGILITY
                ? "a disarm by one who stumbled"
            : d6_stand_actions(st, a) ? "a disarm by one who is down"
                                      : NULL;
        if (not)
            return hold_refuse(diag, not);
        const d6_modifier_row *called = d6_called_row(cmd->called);
        int aim = st->c[a].aim_dice > 0 && st->c[a].aim_target == t ? st->c[a].aim_dice : 0;
        d6_code pn = {-(pen + cmd->actions - 1 - aim), 0};
        q.skill = d6_code_add(T.skill, pn);
        q.skill.pips += T.scale_attack;
        q.difficulty = T.base + T.scale_difficulty;
        int md = T.cover_dice + T.light_dice;
        if (s->o.modifiers_roll) {
            if (md > 0)
                mods[nm++] = (d6_code){md, 0};
            if (called && called->dice > 0)
                mods[nm++] = (d6_code){called->dice, 0};
        } else {
            q.difficulty += 3 * md + (called ? called->standard : 0);
        }
        q.modifiers = mods;
        q.n_modifiers = nm;
        q.modifier_wild = s->o.modifier_wild;
        q.floor = D6_DIFFICULTY_FLOOR;
        grip = d6_turn_can_move_up(st, t);
        if (grip) { /* 003:61: greater than the damage keeps it */
            d6_code tp = {-d6_wound_penalty(s, st, t), 0};
            g.skill = d6_code_add(d6_physique_or_lifting(s, t), tp);
            g.skill.pips -= d6_part_penalty(st, t, D6_SK_LIFTING);
            g.defense_roll = true;
            g.defense = T.damage;
            g.defense.pips += T.scale_damage;
            g.tie = D6_TIE_BEATS;
        }
        int tw = d6_weapon_now(s, st, t);
        if (snprintf(out->title, sizeof out->title, "Disarm %s of the %s with %s", s->c[t].name,
                     tw >= 0 ? s->w[tw].name : "weapon", w >= 0 ? s->w[w].name : "bare hands") >=
            (int)sizeof out->title)
            out->title[sizeof out->title - 1] = '\0';
        snprintf(m, sizeof m, "a called shot at the item (%s +%dD)",
                 called ? called->title : "?", called ? called->dice : 0);
        add_text(out->modifiers, sizeof out->modifiers, m);
        add_text(out->modifiers, sizeof out->modifiers,
                 grip ? "the holder has not acted: it moves its action up and keeps the item "
                        "with a Physique or lifting total greater than the damage total"
                      : "the holder has acted this round: the item drops on a hit");
        add_text(out->modifiers, sizeof out->modifiers, "the difficulty never below 3");
    }
    fray_bigratio r, rg;
    memset(&r, 0, sizeof r);
    memset(&rg, 0, sizeof rg);
    fray_status rc = d6_odds_check(&q, NULL, &r);
    if (rc == FRAY_OK && grip)
        rc = d6_odds_check(&g, NULL, &rg);
    if (rc != FRAY_OK) {
        fray_bigratio_free(&r);
        fray_bigratio_free(&rg);
        return big(rc, diag);
    }
    mpq_t p, keep, o;
    mpq_inits(p, keep, o, NULL);
    q_of(p, &r);
    bool cut = false;
    if (cmd->kind == D6_EV_PIN) {
        bool brk = cmd->pin_op == D6_PIN_BREAK;
        set_outcome(out, 0, brk ? "arm broken" : "submits", p, &cut);
        mpq_set_ui(o, 1, 1);
        mpq_sub(o, o, p);
        set_outcome(out, 1, cmd->resisted ? "escapes" : "Strength Damage", o, &cut);
        out->n_outcomes = 2;
        out->p_success = mpq_get_d(p);
    } else {
        mpq_set_ui(o, 1, 1);
        mpq_sub(o, o, p);
        /* "misses" first, the success next: the table names the first
         * outcome that is not a failure (src/cli/table_odds.c) */
        set_outcome(out, 0, "misses", o, &cut);
        if (grip)
            q_of(keep, &rg);
        mpq_mul(keep, keep, p); /* hit and kept */
        set_outcome(out, 2, "hit, item kept", keep, &cut);
        mpq_sub(o, p, keep); /* hit and dropped */
        set_outcome(out, 1, "item dropped", o, &cut);
        out->n_outcomes = 3;
        out->p_success = mpq_get_d(o);
        out->n_tracks = 1; /* a disarm does no Body damage (D7.19) */
        out->tracks[0] = s->o.health == D6_HEALTH_WOUNDS ? "Wound levels" : "Body Points";
        out->n_damage = 1;
        mpq_set_ui(o, 1, 1);
        out->damage[0].p = ratio_of(o, &cut);
        out->damage[0].share = 1;
    }
    out->p_drop = -1;
    snprintf(out->assumed, sizeof out->assumed,
             "every die fair, the Wild Die's 6s rolled again without end (counted exactly); "
             "modifiers %s; success meets or beats (D7.13)%s; no damage counted%s",
             s->o.modifiers_roll ? "rolled by the GM" : "at their standard values (+3 a die)",
             cmd->kind == D6_EV_PIN ? "" : ", the grip must be greater (003:61)",
             cut ? "; fractions longer than 38 digits shown to 18 decimal places" : "");
    mpq_clears(p, keep, o, NULL);
    fray_bigratio_free(&r);
    fray_bigratio_free(&rg);
    return FRAY_OK;
}
