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
    if (cmd->kind != D6_EV_ATTACK) {
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
    bool parry = d6_skill_code(s, who, d6_parry_skill(s, who)).dice * 3 +
                     d6_skill_code(s, who, d6_parry_skill(s, who)).pips >
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
