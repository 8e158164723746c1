/*
 * chances.c - D6 at the table (issues 18 and 19; include/fray/chances.h):
 * the exact chances of an attack from the fight as it stands.
 *
 * An attack (core) rolls the attacker's code (its weapon's skill, less 1D
 * for each action declared beyond the first, its wounds' penalty, 1D when
 * it interrupts after waiting, plus the dice it has aimed) with the Wild
 * Die against the combat difficulty: the target's defense as it stands
 * (passive 10, a partial defense's roll already made, a full defense's
 * roll + 10; a parry stands against melee only), the range band's
 * modifier, cover and light as modifier dice (standard +3 a die, or
 * rolled by the GM), never below 3. A hit rolls damage with the Wild Die
 * against the target's resistance roll; the excess raises its Wound level
 * (a stamina or mettle roll of 15 to stay up when it reaches
 * Incapacitated) or costs Body Points. rules.c's d6_attack_terms gives
 * the same terms its attack takes, and d6_odds.h the exact numbers; the
 * attacks of one command are chained exactly over the target's state.
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

/* The numbers one attack needs, exact. */
typedef struct ch_attack {
    mpq_t hit[2];             /* P(hit): the first attack (aimed), the rest */
    mpq_t level[D6_ODDS_WOUND_LEVELS]; /* P(excess in each band of the core) */
    int n_body;
    mpq_t *body;              /* P(Body Points lost == i), the last "or more" */
    mpq_t up;                 /* P(stays up at Incapacitated) */
} ch_attack;

static const int band_excess[D6_ODDS_WOUND_LEVELS] = {0, 1, 4, 9, 13, 16};

/* One attack on the chain from `from` into `to`. */
static bool step(const d6_setup *s, const ch_attack *A, int which, const ch_chain *from,
                 ch_chain *to) {
    mpq_t miss, f, g;
    mpq_inits(miss, f, g, NULL);
    mpq_set_ui(miss, 1, 1);
    mpq_sub(miss, miss, A->hit[which]);
    bool ok = true;
    bool wounds = s->o.health == D6_HEALTH_WOUNDS;
    for (int i = 0; i < from->n && ok; i++) {
        const ch_state *x = &from->s[i];
        mpq_set_ui(f, 1, 1);
        if (x->out) { /* the attacks stop once the target is out */
            ok = put(to, x->h, x->up, true, x->hit, x->p, f);
            continue;
        }
        ok = put(to, x->h, x->up, false, x->hit, x->p, miss);
        if (wounds) {
            for (int b = 0; b < D6_ODDS_WOUND_LEVELS && ok; b++) {
                if (mpq_sgn(A->level[b]) == 0)
                    continue;
                mpq_mul(f, A->hit[which], A->level[b]);
                int now = d6_wound_after(x->h, band_excess[b]);
                if (now >= D6_W_MORTAL) {
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
            for (int k = 0; k < A->n_body && ok; k++) {
                if (mpq_sgn(A->body[k]) == 0)
                    continue;
                mpq_mul(f, A->hit[which], A->body[k]);
                int left = x->h > k ? x->h - k : 0;
                if (k == A->n_body - 1)
                    left = 0; /* the last row: all it has left, or more */
                ok = put(to, left, false, left <= 0, true, x->p, f);
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

static fray_status count_attack(const d6_setup *s, const d6_state *st,
                                const d6_event *cmd, bool interrupt,
                                fray_chances *out, fray_diag *diag) {
    int a = cmd->actor, t = cmd->target;
    int w = d6_quick_weapon(s, st, a, cmd->weapon); /* a readied weapon too */
    d6_attack_terms_t T;
    d6_attack_terms(s, st, a, t, w, &T);
    const d6_cstate *ca = &st->c[a], *ct = &st->c[t];
    int wound_pen = d6_wound_penalty(s, st, a);
    int surprise = d6_surprise_bonus(s, st, a, interrupt); /* +1D (003:129) */
    int pen = wound_pen + (interrupt ? 1 : 0) + cmd->actions - 1 - surprise;
    int aim = ca->aim_dice > 0 && ca->aim_target == t ? ca->aim_dice : 0;
    int n_att = cmd->actions - (cmd->full ? 1 : 0);
    char m[160];
    /* the modifiers in rules words */
    if (ct->defense == D6_DEF_NONE || (ct->def_parry && T.ranged))
        snprintf(m, sizeof m, "%s's passive defense 10%s", s->c[t].name,
                 ct->defense != D6_DEF_NONE ? " (its parry stands against melee only)" : "");
    else
        snprintf(m, sizeof m, "%s's %s %s %d", s->c[t].name,
                 ct->defense == D6_DEF_FULL ? "full" : "partial",
                 ct->def_parry ? "parry" : "dodge", ct->def_total);
    add_text(out->modifiers, sizeof out->modifiers, m);
    if (T.ranged) {
        snprintf(m, sizeof m, "%s range %+d", d6_band_name(T.band), T.band_mod);
        add_text(out->modifiers, sizeof out->modifiers, m);
    }
    static const char *const cover_words[] = {"", "quarter", "half", "three-quarter", "full"};
    if (T.cover_dice) {
        snprintf(m, sizeof m, "%s cover +%dD", cover_words[s->c[t].cover], T.cover_dice);
        add_text(out->modifiers, sizeof out->modifiers, m);
    }
    if (T.light_dice) {
        snprintf(m, sizeof m, "light and obscurement +%dD", T.light_dice);
        add_text(out->modifiers, sizeof out->modifiers, m);
    }
    if (cmd->actions > 1) {
        snprintf(m, sizeof m, "%d actions declared: -%dD", cmd->actions, cmd->actions - 1);
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
    if (T.scale_attack || T.scale_difficulty) {
        snprintf(m, sizeof m, "scale %+d to %s", T.scale_attack ? T.scale_attack : T.scale_difficulty,
                 T.scale_attack ? "the attack total" : "the difficulty");
        add_text(out->modifiers, sizeof out->modifiers, m);
    }
    if (T.scale_damage || T.scale_resistance) {
        snprintf(m, sizeof m, "scale %+d to %s", T.scale_damage ? T.scale_damage : T.scale_resistance,
                 T.scale_damage ? "the damage total" : "the resistance total");
        add_text(out->modifiers, sizeof out->modifiers, m);
    }
    if (aim) {
        snprintf(m, sizeof m, "aimed +%dD (the first attack)", aim);
        add_text(out->modifiers, sizeof out->modifiers, m);
    }
    add_text(out->modifiers, sizeof out->modifiers, "the difficulty never below 3");

    fray_status rc = FRAY_OK;
    ch_attack A;
    memset(&A, 0, sizeof A);
    mpq_inits(A.hit[0], A.hit[1], A.up, NULL);
    for (int b = 0; b < D6_ODDS_WOUND_LEVELS; b++)
        mpq_init(A.level[b]);
    ch_chain *c0 = calloc(1, sizeof *c0), *c1 = calloc(1, sizeof *c1);
    d6_damage_odds dmg;
    memset(&dmg, 0, sizeof dmg);
    fray_bigratio r;
    memset(&r, 0, sizeof r);
    if (!c0 || !c1) {
        rc = FRAY_ERR_NOMEM;
        goto fail;
    }
    d6_code mod = {0, 0};
    int mdice = T.cover_dice + T.light_dice;
    if (s->o.modifiers_roll)
        mod.dice = mdice;
    else
        mod.pips = 3 * mdice;
    for (int k = 0; k < 2; k++) {
        d6_code pn = {-(pen - (k == 0 ? aim : 0)), 0};
        d6_success_query q;
        memset(&q, 0, sizeof q);
        q.skill = d6_code_add(T.skill, pn);
        q.skill.pips += T.scale_attack; /* flat: in the pips (d6_odds.h) */
        q.wild_one = (d6_wild_one)s->o.wild_one;
        q.difficulty = T.base + T.scale_difficulty;
        q.modifiers = &mod;
        q.n_modifiers = mdice > 0 ? 1 : 0;
        q.modifier_wild = s->o.modifier_wild;
        q.floor = D6_DIFFICULTY_FLOOR;
        if ((rc = d6_odds_check(&q, NULL, &r)) != FRAY_OK)
            goto fail;
        q_of(A.hit[k], &r);
        fray_bigratio_free(&r);
    }
    {
        d6_success_query q;
        memset(&q, 0, sizeof q);
        q.skill = T.stay_up;
        q.wild_one = (d6_wild_one)s->o.wild_one;
        q.difficulty = 15;
        if ((rc = d6_odds_check(&q, NULL, &r)) != FRAY_OK)
            goto fail;
        q_of(A.up, &r);
        fray_bigratio_free(&r);
    }
    bool wounds = s->o.health == D6_HEALTH_WOUNDS;
    d6_damage_query dq;
    memset(&dq, 0, sizeof dq);
    dq.damage = T.damage;
    dq.damage.pips += T.scale_damage; /* flat, as the engine adds it */
    dq.damage_wild = true;
    dq.resistance = T.resistance;
    dq.resistance.pips += T.scale_resistance;
    dq.resistance_wild = true;
    dq.wild_one = (d6_wild_one)s->o.wild_one;
    dq.body_rows = wounds ? 0 : (ct->bp + 1 < 2 ? 2 : ct->bp + 1);
    if ((rc = d6_odds_damage(&dq, NULL, &dmg)) != FRAY_OK)
        goto fail;
    for (int b = 0; b < D6_ODDS_WOUND_LEVELS; b++)
        q_of(A.level[b], &dmg.level[b]);
    if (!wounds) {
        A.n_body = (int)dmg.n_body;
        A.body = calloc(dmg.n_body, sizeof *A.body);
        if (!A.body) {
            rc = FRAY_ERR_NOMEM;
            goto fail;
        }
        for (size_t k = 0; k < dmg.n_body; k++) {
            mpq_init(A.body[k]);
            q_of(A.body[k], &dmg.body[k]);
        }
    }
    /* the chain over the command's attacks */
    int h0 = wounds ? ct->wound : ct->bp;
    ch_state *x = find(c0, h0, (ct->flags & D6_F_UP) != 0, false, false);
    if (!x) {
        rc = FRAY_ERR_NOMEM;
        goto fail;
    }
    mpq_set_ui(x->p, 1, 1);
    for (int k = 0; k < n_att; k++) {
        if (!step(s, &A, k == 0 ? 0 : 1, c0, c1)) {
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
        out->damage[j].share += mpq_get_d(y->p);
    }
    /* exact fractions of the damage rows, smallest first */
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
    static const char *const onames[4] = {"miss", "hit, no harm", "hit and hurt",
                                          "out of the fight"};
    out->n_outcomes = 4;
    for (int k = 0; k < 4; k++) {
        snprintf(out->outcomes[k].name, sizeof out->outcomes[k].name, "%s", onames[k]);
        out->outcomes[k].p = ratio_of(o[k], &cut);
        out->outcomes[k].share = mpq_get_d(o[k]);
    }
    out->p_drop = mpq_get_d(o[3]);
    out->expected[0] = mpq_get_d(e);
    mpq_set_ui(tmp, 1, 1);
    mpq_sub(tmp, tmp, o[0]);
    out->p_success = mpq_get_d(tmp);
    for (int k = 0; k < 4; k++)
        mpq_clear(o[k]);
    mpq_clears(e, tmp, NULL);
    snprintf(out->assumed, sizeof out->assumed,
             "every die fair, the Wild Die's 6s rolled again without end (counted "
             "exactly); modifiers %s; the target's defense as it stands now; %s; scale "
             "and surprise counted; an attack with seed 003's other options, or in a "
             "state they make, is refused, not counted%s",
             s->o.modifiers_roll ? "rolled by the GM" : "at their standard values (+3 a die)",
             wounds ? "amounts are the Wound levels the target goes up" :
                      "amounts are the Body Points the target loses",
             cut ? "; fractions longer than 38 digits shown to 18 decimal places" : "");
fail:
    fray_bigratio_free(&r);
    if (A.body) {
        for (int k = 0; k < A.n_body; k++)
            mpq_clear(A.body[k]);
        free(A.body);
    }
    d6_damage_odds_free(&dmg);
    mpq_clears(A.hit[0], A.hit[1], A.up, NULL);
    for (int b = 0; b < D6_ODDS_WOUND_LEVELS; b++)
        mpq_clear(A.level[b]);
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
    if (cmd->kind != D6_EV_ATTACK && cmd->kind != D6_EV_PIN && cmd->kind != D6_EV_SLAM) {
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
    if (cmd->kind != D6_EV_ATTACK || cmd->disarm) { /* holds.c's: an arm pin, a slam, a disarm */
        snprintf(out->command, sizeof out->command, "%s", command);
        rc = count_hold(s, st, cmd, interrupt, out, diag);
        goto done;
    }
    if (s->o.damage_bonus) {
        rc = fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                            "with damage-bonus: yes the damage grows with how far the "
                            "attack beats the difficulty: its chances are not counted");
        goto done;
    }
    {
        /* what the count does not follow yet: refused in words, never
         * counted as a plain attack */
        int wq = d6_quick_weapon(s, st, who, cmd->weapon);
        const char *not = cmd->grab ? "a grab or a tackle"
                        : cmd->trick ? "an attack with an acrobatic trick"
                        : cmd->weapon == D6_BOTH_HANDS ? "an attack with a weapon in each hand"
                        : d6_quick_now(st, who) ? "an attack in a quick-draw round"
                        : cmd->weapon >= 0 && d6_ready_cost(s, st, who, cmd->weapon) > 0
                            ? "an attack that draws its weapon"
                        : wq >= 0 && s->w[wq].entangling ? "an entangling weapon's throw"
                        : NULL;
        if (!not) { /* seed 003's attack options (options.c), in the words or the state */
            d6_attack_terms_t T;
            d6_attack_terms(s, st, who, cmd->target, wq, &T);
            int sk = wq >= 0 ? s->w[wq].skill : D6_SK_FIGHTING;
            not = cmd->option || cmd->called || cmd->location || cmd->sight
                      ? "an attack with seed 003's options (all-out, lunge, sweep, "
                        "knockdown, push, called shots, hit locations, blind, behind)"
                  : d6_sight_of(s, cmd, who, cmd->target)
                      ? "an attack by or on one who is blind"
                  : d6_posture_row(st, cmd->target, T.ranged ? T.band : D6_BAND_POINT_BLANK)
                      ? "an attack on one crouching or prone"
                  : wq >= 0 && s->w[wq].unwieldy ? "an attack with an unwieldy weapon"
                  : d6_part_penalty(st, who, sk) ? "an attack by one hurt in the hand or arm"
                  : st->c[who].agility_dice > 0 && d6_skill_attr[sk] == D6_AGILITY
                      ? "an attack by one who stumbled"
                  : d6_stand_actions(st, who) ? "an attack by one who is down"
                  : NULL;
        }
        if (not) {
            rc = fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                "the chances of %s are not counted yet", not);
            goto done;
        }
    }
    snprintf(out->command, sizeof out->command, "%s", command);
    out->target = cmd->target;
    int w = d6_quick_weapon(s, st, who, cmd->weapon);
    int n_att = cmd->actions - (cmd->full ? 1 : 0);
    if (snprintf(out->title, sizeof out->title, "%s%s on %s with %s%s",
                 n_att > 1 ? "Attacks" : "Attack", "", s->c[cmd->target].name,
                 w >= 0 ? s->w[w].name : "bare hands",
                 cmd->full ? (cmd->parry ? ", and parry" : ", and dodge") : "") >=
        (int)sizeof out->title)
        out->title[sizeof out->title - 1] = '\0';
    rc = count_attack(s, st, cmd, interrupt, out, diag);
done:
    free(cmd);
    free(now);
    return rc;
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
    /* Every foe it may attack now: one attack, two attacks, an attack
     * and a dodge (or a parry, when it fights in melee). */
    bool parry = d6_skill_code(s, who, d6_parry_skill_now(s, st, who)).dice * 3 +
                     d6_skill_code(s, who, d6_parry_skill_now(s, st, who)).pips >
                 d6_skill_code(s, who, D6_SK_DODGE).dice * 3 +
                     d6_skill_code(s, who, D6_SK_DODGE).pips;
    const char *const forms[3] = {"", " actions 2", parry ? " parry" : " defend"};
    for (int t = 0; t < st->n && *n < max; t++) {
        if (t == who || s->c[t].side == s->c[who].side || d6_out(&st->c[t]))
            continue;
        for (int k = 0; k < 3 && *n < max; k++) {
            char c[FRAY_CHANCES_TEXT];
            snprintf(c, sizeof c, "attack %s%s", s->c[t].id, forms[k]);
            fray_diag d;
            memset(&d, 0, sizeof d);
            fray_status rc = one(s, st, who, c, &out[*n], &d);
            if (rc == FRAY_OK)
                ++*n;
            else if (rc != FRAY_ERR_INVALID) {
                if (diag)
                    *diag = d;
                return rc;
            }
        }
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

static fray_status count_hold(const d6_setup *s, const d6_state *st, const d6_event *cmd,
                              bool interrupt, fray_chances *out, fray_diag *diag) {
    int a = cmd->actor;
    if (cmd->kind == D6_EV_SLAM)
        return hold_refuse(diag, "a slam or throw (003:15-16)");
    if (cmd->kind == D6_EV_PIN && cmd->pin_op == D6_PIN_DAMAGE)
        return hold_refuse(diag, "an arm pin's damage option (003:18)");
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
        set_outcome(out, 0, "miss", o, &cut);
        if (grip)
            q_of(keep, &rg);
        mpq_mul(keep, keep, p); /* hit and kept */
        set_outcome(out, 1, "hit, item kept", keep, &cut);
        mpq_sub(o, p, keep); /* hit and dropped */
        set_outcome(out, 2, "item dropped", o, &cut);
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
