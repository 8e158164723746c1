/*
 * odds.c - the exact odds of an Alloy duel (alloy_int.h "The exact duel";
 * include/fray/duel.h for what is filled).
 *
 * Two combatants toe to toe on an open map, each doing what its tactics
 * do in that duel (policy.c, fa_choose_command): every turn the attack
 * its tactics choose (fa_tactics_pick: the best expected damage, so an
 * encounter power first when it beats the basic attack, then the basic
 * attack); under the default tactics a second wind once bloodied
 * (hp <= max / 2) while a heroic surge is left and the second wind is
 * unused (004:673-681), and an action point for one more attack when the
 * enemy is low (its hit points at most one hit's maximum of the attack
 * chosen, 004:291); under aggressive tactics no second wind and an action
 * point whenever one is left. Powers may knock prone (the victim stands
 * up on its turn, a move action; battle superiority against melee until
 * then, 004:982-989) and daze to the end of the user's next turn (one
 * action a round, no action point, battle superiority, 004:924-928).
 * Cautious tactics retreat, which this chain does not model: such duels
 * are refused, as are ranged weapons and powers, other effects and more
 * than two powers spent.
 *
 * The chain: the state at the start of each turn is (hp of a, hp of b,
 * second wind still available to each, action points left to each, the
 * powers each has spent, whether the combatant that just acted has
 * second wind's +2 to its defenses, who is Dazed, who is Prone); whose
 * turn and the round follow from the step, so the chain is walked step by
 * step, one dense array per step. The order is fixed by the initiative
 * rolled once (004:235): the chain is walked once for each order,
 * weighted by P(first). A combatant at 0 hit points or fewer is dying,
 * out of the fight (004:211): the other wins.
 *
 * Attacks (004:49-53, 159-183): d20 + bonus >= defense hits, a natural 1
 * misses, a natural 20 hits, a crit deals the maximum plus the crit dice
 * rolled: exactly fray_odds_d20_attack, for each net modifier (-2, 0, +2:
 * battle superiority once, the enemy's second wind).
 */
#include "alloy_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fray/dice.h"
#include "fray/duel.h"
#include "internal.h"

#include "bigq.h"

enum {
    DUEL_NETS = 3,        /* the attack's net modifier: -2, 0, +2 */
    DUEL_OPTIONS = 3,     /* the basic attack and at most 2 powers */
    DUEL_POWERS = 2
};

enum { EFF_PRONE = 1, EFF_DAZED = 2 };

/* One attack a duelist may make: the basic attack (power -1) or a power
 * its tactics may choose. Hit and damage: P(miss), and P(hit with damage
 * lo + i), for each net modifier (-2: the other's second wind; +2: battle
 * superiority, the other Dazed or Prone against melee; 0). */
typedef struct dattack {
    int power;
    int bit;                   /* its bit in the used-powers index, -1 at will */
    int effects;               /* EFF_* on a hit */
    double p_miss[DUEL_NETS];
    int lo[DUEL_NETS], n[DUEL_NETS];
    double *hit[DUEL_NETS];
    /* exact mode (fa_duel_exact): the same chances as fractions */
    mpq_t miss_ex[DUEL_NETS];
    mpq_t *hit_ex[DUEL_NETS];
} dattack;

/* What one combatant brings to the duel, worked out from its stat block. */
typedef struct duelist {
    int who;
    int max_hp;
    int tactics;
    bool second_wind;          /* its tactics use second wind, and it has a surge */
    int surge_value;
    int ap;                    /* action points it starts with */
    bool ap_when_low;          /* default: only when the enemy is low; aggressive: always */
    int n_attacks;
    dattack at[DUEL_OPTIONS];
    int n_bits;                /* encounter powers it may spend */
    /* the attack its tactics choose with the powers of `used` spent, and
     * that attack's most damage from one hit (the "low" test) */
    int pick[1 << DUEL_POWERS];
    int pick_max[1 << DUEL_POWERS];
} duelist;

typedef struct duel {
    const fa_setup *s;
    fray_allocator alloc;
    fray_diag *diag;
    duelist d[2];
    int rounds;
    /* state sizes */
    int hp[2], sw[2], ap[2], used[2];
    bool effects;              /* Dazed and Prone are in the state */
    size_t n_states;
    long max_states;
    bool exact;                /* fractions beside the doubles (fa_duel_exact) */
} duel;

/* ---- Reading the duel ------------------------------------------------------ */

static fray_status refuse(fray_diag *diag, const char *fmt, const char *who) {
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0, fmt, who);
}

static const char *tactics_name(int t) {
    switch (t) {
    case FA_TACTICS_DEFAULT: return "default";
    case FA_TACTICS_AGGRESSIVE: return "aggressive";
    case FA_TACTICS_CAUTIOUS: return "cautious";
    default: return "unknown";
    }
}

/* The melee attack of combatant `who` on `target` with `power` (-1: the
 * basic attack, 004:474-484: Str vs Defense, 1{W} + Str, with the weapon
 * in hand): the bonus (the block's, the ability's, the weapon's
 * proficiency when proficient, 004:57, the power's), the defense, X{W} +
 * the ability and the power's bonus, the crit range and the weapon's crit
 * dice (004:179-183), as attack.c works them out. Refuses what the chain
 * does not model. */
static fray_status duel_line(const fa_setup *s, int who, int target, int power,
                             fa_attack_line *line, int *bonus, int *defense,
                             fray_diag *diag) {
    const fa_combatant_def *c = &s->c[who];
    const fa_statblock *sb = &s->sb[c->sb];
    const fa_statblock *tb = &s->sb[s->c[target].sb];
    const fa_power *pw = power >= 0 ? &sb->powers[power] : NULL;
    int slot = pw ? pw->weapon : c->wield;
    memset(line, 0, sizeof *line);
    *bonus = 0;
    line->power = (int8_t)power;
    line->crit_min = (int8_t)(sb->crit_min > 0 ? sb->crit_min : 20);
    if (pw && slot < 0) {
        if (pw->mult > 0 && pw->dice.n > 0)
            return refuse(diag, "not modelled: %s's power with its own damage "
                          "dice", c->name);
        /* effects only: no damage roll */
    } else {
        if (slot < 0 || slot >= sb->n_weapons)
            return refuse(diag, "not modelled: %s fights unarmed (the exact "
                          "duel needs a melee weapon in hand)", c->name);
        const fa_sb_weapon *sw = &sb->weapons[slot];
        if (sw->weapon < 0 || sw->weapon >= s->n_weapons)
            return refuse(diag, "not modelled: %s holds an unknown weapon",
                          c->name);
        const fa_weapon *w = &s->weapons[sw->weapon];
        if (w->kind != FA_WK_MELEE || w->area != FA_AREA_NONE)
            return refuse(diag, "not modelled: %s holds a ranged or area weapon "
                          "(the exact duel is two melee fighters toe to toe)",
                          c->name);
        if (w->w.n <= 0 || w->w.sides < 2)
            return refuse(diag, "not modelled: %s's weapon has no damage dice",
                          c->name);
        line->weapon = (int8_t)slot;
        line->dice = w->w;
        line->crit_dice = w->crit;
        *bonus = sw->proficient ? w->proficiency : 0;
    }
    int ability = pw ? pw->ability : FA_STR;
    line->ability = (uint8_t)ability;
    line->defense = (uint8_t)(pw ? pw->defense : FA_DEF_DEFENSE);
    line->mult = (int8_t)(pw ? pw->mult : 1);
    line->damage_bonus = (int16_t)(sb->mod[ability] + (pw ? pw->damage_bonus : 0));
    *bonus += sb->attack_bonus + sb->mod[ability] + (pw ? pw->attack_bonus : 0);
    *defense = tb->defense[line->defense];
    return FRAY_OK;
}

/* The hit and damage of one attack at a net modifier (doubles). */
static fray_status attack_dist(duel *du, const fa_attack_line *line, int bonus,
                               int defense, double *p_miss, int *out_lo,
                               int *out_n, double **out, mpq_t miss_ex,
                               mpq_t **out_ex) {
    char dmg[64], crit[32];
    fray_dice *dd = NULL, *cd = NULL;
    fray_status rc = FRAY_OK;
    if (line->mult > 0) {
        snprintf(dmg, sizeof dmg, "%dd%d%+d", line->dice.n * line->mult,
                 line->dice.sides, line->damage_bonus);
        rc = fray_dice_parse(dmg, NULL, &du->alloc, &dd, du->diag);
        if (rc == FRAY_OK && line->crit_dice.n > 0) {
            snprintf(crit, sizeof crit, "%dd%d", line->crit_dice.n,
                     line->crit_dice.sides);
            rc = fray_dice_parse(crit, NULL, &du->alloc, &cd, du->diag);
        }
    }
    if (rc != FRAY_OK) {
        fray_dice_free(dd);
        return rc;
    }
    fray_d20_attack_query q = {.bonus = bonus, .defense = defense,
                               .crit_min = line->crit_min, .damage = dd,
                               .crit_dice = cd};
    fray_d20_attack_odds o;
    rc = fray_odds_d20_attack(&q, &du->alloc, &o);
    if (rc == FRAY_OK) {
        double hit = fray_ratio_to_double(o.p_hit);
        *p_miss = 1.0 - hit;
        /* Damage is never below 0 (004:155); the distribution folds the
         * misses in at 0: take them out again. No damage dice: a hit
         * deals 0. */
        size_t n = o.has_damage ? o.damage.n : 1;
        int64_t lo = o.has_damage ? o.damage.lo : 0;
        double *p = fray__alloc(&du->alloc, n * sizeof *p);
        if (!p) {
            rc = FRAY_ERR_NOMEM;
        } else {
            for (size_t i = 0; i < n; i++)
                p[i] = o.has_damage
                           ? fray_ratio_to_double(fray_dist_eq(&o.damage, lo + (int64_t)i))
                           : hit;
            /* (a natural 1 always misses: lo is 0) */
            if (o.has_damage && lo == 0) {
                p[0] -= *p_miss;
                if (p[0] < 0.0)
                    p[0] = 0.0; /* rounding: hits dealing 0 were none */
            }
            *out = p;
            *out_lo = (int)lo;
            *out_n = (int)n;
        }
        /* exact mode: the same, as fractions (no rounding to clamp) */
        mpq_t *pe = NULL;
        if (rc == FRAY_OK && du->exact &&
            !(pe = fray__alloc(&du->alloc, n * sizeof *pe)))
            rc = FRAY_ERR_NOMEM;
        if (pe) {
            mpq_t hit_q;
            mpq_init(hit_q);
            fray__mpq_set_u128(hit_q, o.p_hit.num, o.p_hit.den);
            mpq_set_ui(miss_ex, 1, 1);
            mpq_sub(miss_ex, miss_ex, hit_q);
            for (size_t i = 0; i < n; i++) {
                mpq_init(pe[i]);
                if (o.has_damage) {
                    fray_ratio r = fray_dist_eq(&o.damage, lo + (int64_t)i);
                    fray__mpq_set_u128(pe[i], r.num, r.den);
                } else
                    mpq_set(pe[i], hit_q);
            }
            if (o.has_damage && lo == 0)
                mpq_sub(pe[0], pe[0], miss_ex);
            mpq_clear(hit_q);
            *out_ex = pe;
        }
    }
    fray_d20_attack_odds_free(&o);
    fray_dice_free(dd);
    fray_dice_free(cd);
    return rc;
}

/* Can the chain follow this power of who's in a duel? Areas are never
 * chosen with one enemy (policy.c: two or more); melee single-target
 * standard-action powers with at most Prone and Dazed (to the end of the
 * user's next turn) are followed; the rest refused. *out_eff: EFF_*. */
static fray_status power_ok(const fa_setup *s, int who, int k, int *out_eff,
                            fray_diag *diag) {
    const fa_combatant_def *c = &s->c[who];
    const fa_power *pw = &s->sb[c->sb].powers[k];
    *out_eff = 0;
    if (pw->ranged || pw->range > 0 || pw->action != FA_ACT_STANDARD)
        return refuse(diag, "not modelled: %s has a ranged power or one that is "
                      "not a standard action", c->name);
    if (pw->forced_n > 0)   /* (alloy-space) the duel stays toe to toe */
        return refuse(diag, "not modelled: %s has a power that pushes, pulls or "
                      "slides", c->name);
    for (int e = 0; e < pw->n_effects; e++) {
        const fa_effect_def *ef = &pw->effects[e];
        if (ef->cond == FA_C_PRONE)
            *out_eff |= EFF_PRONE;
        else if (ef->cond == FA_C_DAZED && ef->ends == FA_ENDS_END_OF_TURN)
            *out_eff |= EFF_DAZED;
        else
            return refuse(diag, "not modelled: %s has a power whose effect the "
                          "exact duel does not follow (only prone, and dazed to "
                          "the end of the user's next turn)", c->name);
    }
    return FRAY_OK;
}

static fray_status read_duel(const fa_setup *s, int a, int b, duel *du,
                             bool exact, fray_diag *diag) {
    memset(du, 0, sizeof *du);
    du->exact = exact;
    if (exact)
        for (int i = 0; i < 2; i++)
            for (int q = 0; q < DUEL_OPTIONS; q++)
                for (int k = 0; k < DUEL_NETS; k++)
                    mpq_init(du->d[i].at[q].miss_ex[k]);
    du->s = s;
    du->alloc = s->alloc;
    du->diag = diag;
    if (a < 0 || b < 0 || a >= s->n || b >= s->n || a == b)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "a duel needs two different combatants");
    if (s->n != 2)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "not modelled: the encounter holds %d "
                              "combatants (a duel holds two)", s->n);
    if (s->c[a].side == s->c[b].side)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s and %s are on the same side", s->c[a].name,
                              s->c[b].name);
    if (s->surprise || !s->c[a].aware || !s->c[b].aware)
        return refuse(diag, "not modelled: a surprise round (%s)",
                      !s->c[a].aware ? s->c[a].name : s->c[b].name);
    if (fray_area_count(&s->obscured) != 0 || fray_area_count(&s->dark) != 0)
        return refuse(diag, "not modelled: concealment (the encounter has "
                      "obscured or dark squares)%s", "");
    for (int i = 0; i < 2; i++) {
        const fa_combatant_def *c = &s->c[i == 0 ? a : b];
        if (c->joins != 0)
            return refuse(diag, "not modelled: %s joins the battle later "
                          "(004:241)", c->name);
        if (s->sb[c->sb].n_items != 0)
            return refuse(diag, "not modelled: %s carries items (a healing "
                          "item the tactics would use)", c->name);
    }
    fray_footprint fa = {s->c[a].at, s->c[a].side_len};
    fray_footprint fb = {s->c[b].at, s->c[b].side_len};
    if (!fray_grid_adjacent(fa, fb))
        return refuse(diag, "not modelled: %s does not start next to its "
                      "enemy (the exact duel is toe to toe)", s->c[a].name);
    du->rounds = s->round_limit > 0 ? s->round_limit : 100;
    int who[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        const fa_combatant_def *c = &s->c[who[i]];
        const fa_statblock *sb = &s->sb[c->sb];
        duelist *d = &du->d[i];
        d->who = who[i];
        d->max_hp = sb->hp;
        d->tactics = c->tactics;
        if (sb->hp <= 0)
            return refuse(diag, "%s has no hit points", c->name);
        if (c->tactics == FA_TACTICS_CAUTIOUS)
            return refuse(diag, "not modelled: %s's cautious tactics retreat "
                          "when bloodied", c->name);
        if (c->tactics != FA_TACTICS_DEFAULT &&
            c->tactics != FA_TACTICS_AGGRESSIVE)
            return refuse(diag, "not modelled: %s's tactics", c->name);
        d->second_wind = c->tactics == FA_TACTICS_DEFAULT && sb->surges > 0;
        /* A surge's hit points: the block's, else a quarter of the
         * maximum (RULINGS; as damage.c's second wind). */
        d->surge_value = sb->surge_value > 0 ? sb->surge_value : sb->hp / 4;
        d->ap = sb->action_points > 0 ? sb->action_points : 0;
        d->ap_when_low = c->tactics == FA_TACTICS_DEFAULT;
        if (d->ap > 0 && s->opt.ap_per_turn != 1)
            return refuse(diag, "not modelled: %s may spend action points "
                          "more than once a turn", c->name);
        /* The attacks its tactics may choose: what fa_tactics_pick says
         * for every set of spent powers (powers are tried in turn). */
        int bits[FA_SB_POWERS];
        for (int k = 0; k < FA_SB_POWERS; k++)
            bits[k] = -1;
        d->n_attacks = 0;
        int options[FA_SB_POWERS + 1];
        int n_options = 0;
        uint32_t all = 0;
        for (int k = 0; k < sb->n_powers; k++)
            if (sb->powers[k].usage != FA_AT_WILL)
                all |= 1u << k;
        /* which attacks appear as the powers are spent one by one, in
         * the order the tactics spend them */
        uint32_t used = 0;
        for (int step = 0; step <= sb->n_powers; step++) {
            int mh = 0;
            int pk = fa_tactics_pick(s, who[i], who[1 - i], used, &mh);
            if (pk == -2)
                return refuse(diag, "not modelled: %s has no attack", c->name);
            bool seen = false;
            for (int q = 0; q < n_options; q++)
                seen = seen || options[q] == pk;
            if (!seen)
                options[n_options++] = pk;
            if (pk < 0 || !((all >> pk) & 1u))
                break; /* an at-will attack: chosen from here on */
            used |= 1u << pk;
        }
        for (int q = 0; q < n_options; q++) {
            int pk = options[q];
            if (d->n_attacks >= DUEL_OPTIONS)
                return refuse(diag, "not modelled: %s would use more than two "
                              "powers", c->name);
            dattack *at = &d->at[d->n_attacks];
            at->power = pk;
            at->bit = -1;
            if (pk >= 0) {
                fray_status rc = power_ok(s, who[i], pk, &at->effects, diag);
                if (rc != FRAY_OK)
                    return rc;
                if ((all >> pk) & 1u) {
                    if (d->n_bits >= DUEL_POWERS)
                        return refuse(diag, "not modelled: %s would spend more "
                                      "than two powers", c->name);
                    at->bit = d->n_bits++;
                    bits[pk] = at->bit;
                }
            }
            fa_attack_line line;
            int bonus = 0, defense = 0;
            fray_status rc = duel_line(s, who[i], who[1 - i], pk, &line, &bonus,
                                       &defense, diag);
            if (rc != FRAY_OK)
                return rc;
            for (int k = 0; k < DUEL_NETS; k++) {
                rc = attack_dist(du, &line, bonus + 2 * (k - 1), defense,
                                 &at->p_miss[k], &at->lo[k], &at->n[k],
                                 &at->hit[k], at->miss_ex[k], &at->hit_ex[k]);
                if (rc != FRAY_OK)
                    return rc;
            }
            d->n_attacks++;
        }
        /* the pick for every set of spent powers (in the chain's bits) */
        for (uint32_t m = 0; m < (1u << d->n_bits); m++) {
            uint32_t pu = 0;
            for (int k = 0; k < FA_SB_POWERS; k++)
                if (bits[k] >= 0 && ((m >> bits[k]) & 1u))
                    pu |= 1u << k;
            int mh = 0;
            int pk = fa_tactics_pick(s, who[i], who[1 - i], pu, &mh);
            d->pick[m] = -1;
            for (int q = 0; q < d->n_attacks; q++)
                if (d->at[q].power == pk)
                    d->pick[m] = q;
            if (d->pick[m] < 0)
                return refuse(diag, "not modelled: %s's choice of attacks",
                              c->name);
            d->pick_max[m] = mh;
        }
    }
    for (int i = 0; i < 2; i++) {
        du->hp[i] = du->d[i].max_hp;
        du->sw[i] = du->d[i].second_wind ? 2 : 1;
        du->ap[i] = du->d[i].ap + 1;
        du->used[i] = 1 << du->d[i].n_bits;
    }
    bool effects = false;
    for (int i = 0; i < 2; i++)
        for (int q = 0; q < du->d[i].n_attacks; q++)
            effects = effects || du->d[i].at[q].effects != 0;
    du->effects = effects;
    double n = (double)du->hp[0] * du->hp[1] * du->sw[0] * du->sw[1] *
               du->ap[0] * du->ap[1] * du->used[0] * du->used[1] * 2.0 *
               (effects ? 16.0 : 1.0);
    if (n > 1e9)
        return fray__diag_set(diag, FRAY_ERR_TOO_LARGE, 0,
                              "the duel's chain would hold %.3g states per "
                              "turn: too many", n);
    du->n_states = (size_t)n;
    return FRAY_OK;
}

static void free_duel(duel *du) {
    for (int i = 0; i < 2; i++)
        for (int q = 0; q < DUEL_OPTIONS; q++)
            for (int k = 0; k < DUEL_NETS; k++) {
                dattack *at = &du->d[i].at[q];
                if (at->hit[k])
                    fray__free(&du->alloc, at->hit[k],
                               (size_t)at->n[k] * sizeof(double));
                if (!du->exact)
                    continue;
                mpq_clear(at->miss_ex[k]);
                if (at->hit_ex[k]) {
                    for (int j = 0; j < at->n[k]; j++)
                        mpq_clear(at->hit_ex[k][j]);
                    fray__free(&du->alloc, at->hit_ex[k],
                               (size_t)at->n[k] * sizeof(mpq_t));
                }
            }
}

/* P(a acts first) under the initiative rule (004:235): d20 + modifier
 * each, the higher first; ties to the higher modifier, then a die (an
 * even chance) or, with `init-ties: listed`, the one listed first. */
static long a_first_twice(const fa_setup *s, int a, int b) {
    int ma = s->sb[s->c[a].sb].init_mod, mb = s->sb[s->c[b].sb].init_mod;
    long twice = 0; /* outcomes where a goes first, counted twice (halves) */
    for (int da = 1; da <= 20; da++)
        for (int db = 1; db <= 20; db++) {
            int ta = da + ma, tb = db + mb;
            if (ta > tb || (ta == tb && ma > mb))
                twice += 2;
            else if (ta == tb && ma == mb)
                twice += s->opt.init_ties == FA_TIES_LISTED ? (a < b ? 2 : 0) : 1;
        }
    return twice;
}

static double p_a_first(const fa_setup *s, int a, int b) {
    return (double)a_first_twice(s, a, b) / 800.0;
}

/* p_a_first as a fraction. */
static void p_a_first_exact(const fa_setup *s, int a, int b, mpq_t out) {
    mpq_set_si(out, a_first_twice(s, a, b), 800);
    mpq_canonicalize(out);
}

/* ---- The chain ---------------------------------------------------------------- */

/* A state at the start of a turn. `guard`: the combatant that acted last
 * has second wind's +2 to all defenses (until the start of its next turn,
 * 004:680), so the actor's attacks face it. dazed[i]: i is Dazed (until
 * the end of its enemy's next turn, 004:924-928); prone[i]: i lies prone
 * (it stands on its turn, 004:721). */
typedef struct dstate {
    int hp[2];
    int sw[2];      /* 1: second wind still to use */
    int ap[2];
    int used[2];    /* the chain's bits of spent powers */
    int guard;
    int dazed[2];   /* 0, 1; 2 while its enemy's turn that dazed it lasts */
    int prone[2];
} dstate;

static size_t state_index(const duel *du, const dstate *x) {
    size_t i = (size_t)(x->hp[0] - 1);
    i = i * (size_t)du->hp[1] + (size_t)(x->hp[1] - 1);
    i = i * (size_t)du->sw[0] + (size_t)x->sw[0];
    i = i * (size_t)du->sw[1] + (size_t)x->sw[1];
    i = i * (size_t)du->ap[0] + (size_t)x->ap[0];
    i = i * (size_t)du->ap[1] + (size_t)x->ap[1];
    i = i * (size_t)du->used[0] + (size_t)x->used[0];
    i = i * (size_t)du->used[1] + (size_t)x->used[1];
    i = i * 2 + (size_t)x->guard;
    if (du->effects) {
        i = i * 4 + (size_t)(x->dazed[0] + 2 * x->dazed[1]);
        i = i * 4 + (size_t)(x->prone[0] + 2 * x->prone[1]);
    }
    return i;
}

static void state_of(const duel *du, size_t i, dstate *x) {
    memset(x, 0, sizeof *x);
    if (du->effects) {
        x->prone[0] = (int)(i % 2);
        x->prone[1] = (int)(i / 2 % 2);
        i /= 4;
        x->dazed[0] = (int)(i % 2);
        x->dazed[1] = (int)(i / 2 % 2);
        i /= 4;
    }
    x->guard = (int)(i % 2);
    i /= 2;
    x->used[1] = (int)(i % (size_t)du->used[1]);
    i /= (size_t)du->used[1];
    x->used[0] = (int)(i % (size_t)du->used[0]);
    i /= (size_t)du->used[0];
    x->ap[1] = (int)(i % (size_t)du->ap[1]);
    i /= (size_t)du->ap[1];
    x->ap[0] = (int)(i % (size_t)du->ap[0]);
    i /= (size_t)du->ap[0];
    x->sw[1] = (int)(i % (size_t)du->sw[1]);
    i /= (size_t)du->sw[1];
    x->sw[0] = (int)(i % (size_t)du->sw[0]);
    i /= (size_t)du->sw[0];
    x->hp[1] = (int)(i % (size_t)du->hp[1]) + 1;
    i /= (size_t)du->hp[1];
    x->hp[0] = (int)i + 1;
}

/* Where the mass of one turn goes. */
typedef struct walk {
    duel *du;
    double *next;
    double won[2];          /* this step: duelist 0 / 1 won */
    long transitions;
    /* exact mode: the same, as fractions (every pe below; NULL when not
     * exact) */
    mpq_t *next_ex;
    mpq_t won_ex[2];
} walk;

/* out = p x f exactly, when exact (pe not NULL): returns out, or NULL. */
static mpq_srcptr times(mpq_t out, mpq_srcptr pe, mpq_srcptr f) {
    if (!pe)
        return NULL;
    mpq_mul(out, pe, f);
    return out;
}

/* x.guard is already what the next state says (the actor has +2 after
 * its second wind); `enemy_guard`: the enemy's +2 that this turn's
 * attacks face. */
static void attack(walk *w, int me, dstate x, double p, mpq_srcptr pe,
                   bool ap_attack, int enemy_guard);

/* The end of me's turn: what me put on its enemy "to the end of your next
 * turn" counts one of me's turns down (Dazed). */
static void end_turn(walk *w, int me, dstate x, double p, mpq_srcptr pe) {
    if (x.dazed[1 - me] > 0)
        x.dazed[1 - me]--;
    size_t i = state_index(w->du, &x);
    w->next[i] += p;
    if (pe)
        mpq_add(w->next_ex[i], w->next_ex[i], pe);
    w->transitions++;
}

/* After its standard action: an action point for another attack when
 * its tactics would spend one (at most one a turn, 004:291; none when
 * Dazed, 004:927). */
static void after_standard(walk *w, int me, dstate x, double p,
                           mpq_srcptr pe, int enemy_guard) {
    const duelist *d = &w->du->d[me];
    if (x.ap[me] > 0 && !x.dazed[me] &&
        (!d->ap_when_low || x.hp[1 - me] <= d->pick_max[x.used[me]])) {
        x.ap[me]--;
        attack(w, me, x, p, pe, true, enemy_guard);
        return;
    }
    end_turn(w, me, x, p, pe);
}

static void attack(walk *w, int me, dstate x, double p, mpq_srcptr pe,
                   bool ap_attack, int enemy_guard) {
    const duelist *d = &w->du->d[me];
    mpq_t q_ex; /* (exact mode: p x this outcome's chance) */
    if (pe)
        mpq_init(q_ex);
    const dattack *at = &d->at[d->pick[x.used[me]]];
    int you = 1 - me;
    /* battle superiority (+2 once, L7.15): the enemy Dazed (004:926), or
     * prone against this melee attack (004:985); the enemy's second wind
     * +2 to its defenses (004:680). */
    int net = (x.dazed[you] || x.prone[you] ? 1 : 0) - (enemy_guard ? 1 : 0);
    int k = net + 1;
    dstate y = x;
    if (at->bit >= 0)
        y.used[me] |= 1 << at->bit;
    /* a miss */
    if (at->p_miss[k] > 0.0) {
        w->transitions++;
        mpq_srcptr qe = times(q_ex, pe, at->miss_ex[k]);
        if (ap_attack)
            end_turn(w, me, y, p * at->p_miss[k], qe);
        else
            after_standard(w, me, y, p * at->p_miss[k], qe, enemy_guard);
    }
    for (int i = 0; i < at->n[k]; i++) {
        double q = at->hit[k][i];
        if (q == 0.0)
            continue;
        dstate z = y;
        z.hp[you] -= at->lo[k] + i;
        w->transitions++;
        mpq_srcptr qe = times(q_ex, pe, at->hit_ex[k] ? at->hit_ex[k][i] : NULL);
        if (z.hp[you] <= 0) {
            w->won[me] += p * q;    /* dying: out of the fight (004:211) */
            if (qe)
                mpq_add(w->won_ex[me], w->won_ex[me], qe);
            continue;
        }
        if (at->effects & EFF_PRONE)
            z.prone[you] = 1;
        if (at->effects & EFF_DAZED)
            z.dazed[you] = 2;       /* to the end of me's next turn */
        if (ap_attack)
            end_turn(w, me, z, p * q, qe);
        else
            after_standard(w, me, z, p * q, qe, enemy_guard);
    }
    if (pe)
        mpq_clear(q_ex);
}

/* One turn of duelist `me` from state x (x.guard: the enemy's +2). */
static void turn(walk *w, int me, dstate x, double p, mpq_srcptr pe) {
    const duelist *d = &w->du->d[me];
    int enemy_guard = x.guard;
    dstate y = x;
    y.guard = 0; /* its own +2 ended as its turn began */
    if (y.prone[me]) {
        /* stand up, a move action (004:721); Dazed, its only action */
        y.prone[me] = 0;
        if (y.dazed[me]) {
            end_turn(w, me, y, p, pe);
            return;
        }
    }
    if (d->second_wind && y.sw[me] && y.hp[me] <= d->max_hp / 2) {
        /* Second wind (004:675-681): a surge's hit points (not past the
         * maximum) and +2 to all defenses until the start of its next
         * turn. */
        y.sw[me] = 0;
        y.hp[me] += d->surge_value;
        if (y.hp[me] > d->max_hp)
            y.hp[me] = d->max_hp;
        y.guard = 1;
        after_standard(w, me, y, p, pe, enemy_guard);
        return;
    }
    attack(w, me, y, p, pe, false, enemy_guard);
}

/* Exact mode's sums, by setup order (a, b). */
typedef struct exact_sums {
    mpq_t won[2];            /* P(a / b wins) */
    mpq_t unfinished;
    mpq_t len;               /* sum of round x P(a fight that ended then) */
} exact_sums;

/* Walks the chain for one initiative order (first: 0 = a first), adding
 * P(order) times its outcomes into out (exact mode: P(order) is pe, and
 * the fractions go into ex as well, with no cut-off). */
static fray_status walk_order(duel *du, int first, double p_order,
                              mpq_srcptr pe, exact_sums *ex,
                              fray_duel_odds *out, long *states,
                              double *left) {
    size_t n = du->n_states;
    double *cur = fray__alloc(&du->alloc, n * sizeof *cur);
    double *next = fray__alloc(&du->alloc, n * sizeof *next);
    mpq_t *cur_ex = NULL, *next_ex = NULL, mass_ex, t;
    walk w = {.du = du};
    fray_status rc = FRAY_OK;
    if (!cur || !next) {
        rc = FRAY_ERR_NOMEM;
        goto done;
    }
    if (pe) {
        cur_ex = fray__alloc(&du->alloc, n * sizeof *cur_ex);
        next_ex = fray__alloc(&du->alloc, n * sizeof *next_ex);
        if (!cur_ex || !next_ex) {
            rc = FRAY_ERR_NOMEM;
            goto done;
        }
        for (size_t i = 0; i < n; i++) {
            mpq_init(cur_ex[i]);
            mpq_init(next_ex[i]);
        }
        mpq_inits(mass_ex, t, w.won_ex[0], w.won_ex[1], NULL);
    }
    memset(cur, 0, n * sizeof *cur);
    dstate x0;
    memset(&x0, 0, sizeof x0);
    for (int i = 0; i < 2; i++) {
        x0.hp[i] = du->d[i].max_hp;
        x0.sw[i] = du->d[i].second_wind ? 1 : 0;
        x0.ap[i] = du->d[i].ap;
    }
    cur[state_index(du, &x0)] = p_order;
    if (pe) {
        mpq_set(cur_ex[state_index(du, &x0)], pe);
        mpq_set(mass_ex, pe);
    }
    double mass = p_order;
    int steps = 2 * du->rounds;
    for (int step = 0; step < steps && (pe ? mpq_sgn(mass_ex) > 0 : mass > 0.0);
         step++) {
        if (!pe && mass < 1e-15) {
            *left += mass;
            mass = 0.0;
            break;
        }
        int me = step % 2 == 0 ? first : 1 - first;
        int round = step / 2 + 1;
        memset(next, 0, n * sizeof *next);
        w.next = next;
        w.next_ex = next_ex;
        w.won[0] = w.won[1] = 0.0;
        w.transitions = 0;
        if (pe) {
            for (size_t i = 0; i < n; i++)
                mpq_set_ui(next_ex[i], 0, 1);
            mpq_set_ui(w.won_ex[0], 0, 1);
            mpq_set_ui(w.won_ex[1], 0, 1);
        }
        for (size_t i = 0; i < n; i++) {
            if (pe ? mpq_sgn(cur_ex[i]) == 0 : cur[i] == 0.0)
                continue;
            if (++*states > du->max_states) {
                rc = fray__diag_set(du->diag, FRAY_ERR_TOO_LARGE, 0,
                                    pe ? "the duel's chain passed %ld states: "
                                         "exact fractions are counted up to "
                                         "that many"
                                       : "the duel's chain passed %ld states "
                                         "(the limit)",
                                    du->max_states);
                goto done;
            }
            dstate x;
            state_of(du, i, &x);
            turn(&w, me, x, cur[i], pe ? cur_ex[i] : NULL);
        }
        out->transitions += w.transitions;
        double ended = w.won[0] + w.won[1];
        out->p_win[0] += w.won[0];
        out->p_win[1] += w.won[1];
        int bin = round < FRAY_DUEL_LENGTH_BINS ? round : FRAY_DUEL_LENGTH_BINS - 1;
        out->length[bin] += ended;
        out->mean_length += ended * round;
        out->sd_length += ended * (double)round * round; /* second moment for now */
        mass = 0.0;
        for (size_t i = 0; i < n; i++)
            mass += next[i];
        double *sw = cur;
        cur = next;
        next = sw;
        if (pe) {
            mpq_set_ui(mass_ex, 0, 1);
            for (size_t i = 0; i < n; i++)
                mpq_add(mass_ex, mass_ex, next_ex[i]);
            for (int k = 0; k < 2; k++) {
                mpq_add(ex->won[k], ex->won[k], w.won_ex[k]);
                mpq_set_si(t, round, 1);
                mpq_mul(t, t, w.won_ex[k]);
                mpq_add(ex->len, ex->len, t);
            }
            mpq_t *swx = cur_ex;
            cur_ex = next_ex;
            next_ex = swx;
        }
    }
    out->p_unfinished += mass;
    if (pe)
        mpq_add(ex->unfinished, ex->unfinished, mass_ex);
done:
    if (cur)
        fray__free(&du->alloc, cur, n * sizeof *cur);
    if (next)
        fray__free(&du->alloc, next, n * sizeof *next);
    if (pe) {
        for (size_t i = 0; cur_ex && next_ex && i < n; i++) {
            mpq_clear(cur_ex[i]);
            mpq_clear(next_ex[i]);
        }
        if (cur_ex)
            fray__free(&du->alloc, cur_ex, n * sizeof *cur_ex);
        if (next_ex)
            fray__free(&du->alloc, next_ex, n * sizeof *next_ex);
        if (cur_ex && next_ex)
            mpq_clears(mass_ex, t, w.won_ex[0], w.won_ex[1], NULL);
    }
    return rc;
}

/*
 * The exact odds of the duel between combatants a and b (the setup holds
 * exactly these two, on different sides, adjacent, both aware), as
 * include/fray/duel.h says of fray_duel_odds: lengths in rounds,
 * phase_limit the round limit. Models the melee basic attack with the
 * weapon in hand, and what default and aggressive tactics do in a duel
 * (second wind, action points); refuses the rest with FRAY_ERR_INVALID
 * "not modelled: ...". max_states 0: FRAY_DUEL_MAX_STATES;
 * FRAY_ERR_TOO_LARGE past it. Memory through the setup's allocator, freed
 * before returning. Reads the setup only: thread-safe.
 */
/* fa_duel_odds, and with exact (not NULL) the fractions too. */
static fray_status duel_odds(const fa_setup *s, int a, int b, long max_states,
                             struct fray_duel_odds *out, fray_duel_exact *exact,
                             fray_diag *diag) {
    if (!s || !out)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no duel given");
    memset(out, 0, sizeof *out);
    if (exact)
        memset(exact, 0, sizeof *exact);
    out->a = a;
    out->b = b;
    duel du;
    fray_status rc = read_duel(s, a, b, &du, exact != NULL, diag);
    if (rc != FRAY_OK) {
        free_duel(&du);
        return rc;
    }
    du.max_states = max_states > 0 ? max_states
                    : exact       ? FRAY_DUEL_EXACT_MAX_STATES
                                  : FRAY_DUEL_MAX_STATES;
    /* Fractions: a chain whose bound (fa_duel_estimate's) is far past
     * the states allowed is refused before anything is built. */
    double bound = 4.0 * (double)du.n_states * du.rounds;
    if (exact && bound > 20.0 * (double)du.max_states) {
        free_duel(&du);
        return fray__diag_set(diag, FRAY_ERR_TOO_LARGE, 0,
                              "the duel has up to %.2g chain states; exact "
                              "fractions are counted up to %ld (their "
                              "denominators grow with every turn)",
                              bound, du.max_states);
    }
    double pa = p_a_first(s, a, b);
    out->p_first[0] = pa;
    out->p_first[1] = 1.0 - pa;
    out->phase_limit = du.rounds;
    long states = 0;
    double left = 0.0;
    exact_sums ex;
    mpq_t pe[2];
    if (exact) {
        mpq_inits(ex.won[0], ex.won[1], ex.unfinished, ex.len, pe[0], pe[1], NULL);
        p_a_first_exact(s, a, b, pe[0]);
        mpq_set_ui(pe[1], 1, 1);
        mpq_sub(pe[1], pe[1], pe[0]);
    }
    if (pa > 0.0)
        rc = walk_order(&du, 0, pa, exact ? pe[0] : NULL, &ex, out, &states, &left);
    if (rc == FRAY_OK && pa < 1.0)
        rc = walk_order(&du, 1, 1.0 - pa, exact ? pe[1] : NULL, &ex, out,
                        &states, &left);
    free_duel(&du);
    if (rc == FRAY_OK && exact) {
        /* The mean length over the fights that ended, as the doubles. */
        mpq_t ended, zero;
        mpq_inits(ended, zero, NULL);
        mpq_add(ended, ex.won[0], ex.won[1]);
        if (mpq_sgn(ended) > 0)
            mpq_div(ex.len, ex.len, ended);
        const fray_allocator *al = &s->alloc;
        rc = fray__bigratio_set(al, pe[0], &exact->p_first[0]);
        if (rc == FRAY_OK)
            rc = fray__bigratio_set(al, pe[1], &exact->p_first[1]);
        for (int k = 0; k < 2 && rc == FRAY_OK; k++)
            rc = fray__bigratio_set(al, ex.won[k], &exact->p_win[k]);
        if (rc == FRAY_OK)
            rc = fray__bigratio_set(al, zero, &exact->p_both_out);
        if (rc == FRAY_OK)
            rc = fray__bigratio_set(al, ex.unfinished, &exact->p_unfinished);
        if (rc == FRAY_OK)
            rc = fray__bigratio_set(al, ex.len, &exact->mean_length);
        size_t digits = 0;
        const fray_bigratio *all[3] = {&exact->p_win[0], &exact->p_win[1],
                                       &exact->p_unfinished};
        for (int k = 0; k < 3 && rc == FRAY_OK; k++)
            digits = strlen(all[k]->den) > digits ? strlen(all[k]->den) : digits;
        exact->digits = (long)digits;
        mpq_clears(ended, zero, NULL);
    }
    if (exact) {
        mpq_clears(ex.won[0], ex.won[1], ex.unfinished, ex.len, pe[0], pe[1], NULL);
        if (rc != FRAY_OK)
            fray_duel_exact_free(exact);
    }
    if (rc != FRAY_OK)
        return rc;
    out->states = states;
    out->p_left = left;
    out->p_both_out = 0.0; /* basic attacks in turn: one falls at a time */
    double ended = out->p_win[0] + out->p_win[1];
    if (ended > 0.0) {
        double m = out->mean_length / ended;
        double v = out->sd_length / ended - m * m;
        out->mean_length = m;
        out->sd_length = v > 0.0 ? sqrt(v) : 0.0;
    } else {
        out->mean_length = 0.0;
        out->sd_length = 0.0;
    }
    out->mass_error = fabs(1.0 - (out->p_win[0] + out->p_win[1] +
                                  out->p_both_out + out->p_unfinished +
                                  out->p_left));
    return FRAY_OK;
}

fray_status fa_duel_odds(const fa_setup *s, int a, int b, long max_states,
                         struct fray_duel_odds *out, fray_diag *diag) {
    return duel_odds(s, a, b, max_states, out, NULL, diag);
}

fray_status fa_duel_exact(const fa_setup *s, int a, int b, long max_states,
                          struct fray_duel_odds *out, fray_duel_exact *exact,
                          fray_diag *diag) {
    if (!exact)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "nowhere to put it");
    return duel_odds(s, a, b, max_states, out, exact, diag);
}

/* An upper bound on fa_duel_odds' states, without building the chain. */
fray_status fa_duel_estimate(const fa_setup *s, int a, int b,
                             double *out_states, fray_diag *diag) {
    if (!s || !out_states)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no duel given");
    duel du;
    fray_status rc = read_duel(s, a, b, &du, false, diag);
    if (rc == FRAY_OK) {
        /* An upper bound: every state of a turn, every turn of the round
         * limit, for both orders (the chain stops sooner when the fight
         * is decided: fa_duel_odds.states is usually far below it). */
        double per_turn = (double)du.n_states;
        double turns = 2.0 * du.rounds;
        *out_states = 2.0 * per_turn * turns;
    }
    free_duel(&du);
    return rc;
}

/* ---- A duel of two stat blocks ------------------------------------------------ */

static fray_status tactics_parse(const char *word, int dflt, int *out,
                                 fray_diag *diag) {
    if (!word) {
        *out = dflt;
        return FRAY_OK;
    }
    for (int t = 0; t < FA_TACTICS_KINDS; t++)
        if (strcmp(word, tactics_name(t)) == 0) {
            *out = t;
            return FRAY_OK;
        }
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                          "unknown tactics '%s' (default, aggressive or "
                          "cautious)", word);
}

static fray_status find_block(const fa_setup *f, const char *name,
                              const char *path, int *out, fray_diag *diag) {
    if (!name) {
        if (f->n_sb == 1) {
            *out = 0;
            return FRAY_OK;
        }
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s holds %d stat blocks: name the one to use",
                              path, f->n_sb);
    }
    for (int i = 0; i < f->n_sb; i++)
        if (strcmp(f->sb[i].id, name) == 0 || strcmp(f->sb[i].name, name) == 0) {
            *out = i;
            return FRAY_OK;
        }
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                          "%s holds no stat block named '%s'", path, name);
}

/* dst = a then b, cut to fit. */
static void join(char *dst, size_t size, const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > size - 1)
        la = size - 1;
    if (lb > size - 1 - la)
        lb = size - 1 - la;
    memcpy(dst, a, la);
    memcpy(dst + la, b, lb);
    dst[la + lb] = '\0';
}

/* Copies stat block `i` of f into s with the weapons it carries. */
static fray_status add_block(fa_setup *s, const fa_setup *f, int i,
                             fray_diag *diag) {
    if (s->n_sb >= FA_MAX_STATBLOCKS)
        return fray__diag_set(diag, FRAY_ERR_RANGE, 0, "too many stat blocks");
    fa_statblock sb = f->sb[i];
    for (int k = 0; k < sb.n_weapons; k++) {
        int src = sb.weapons[k].weapon;
        if (src < 0 || src >= f->n_weapons)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "%s carries an unknown weapon", sb.name);
        int dst = -1;
        for (int j = 0; j < s->n_weapons; j++)
            if (strcmp(s->weapons[j].id, f->weapons[src].id) == 0)
                dst = j;
        if (dst < 0) {
            if (s->n_weapons >= FA_MAX_WEAPONS)
                return fray__diag_set(diag, FRAY_ERR_RANGE, 0,
                                      "too many weapons");
            dst = s->n_weapons++;
            s->weapons[dst] = f->weapons[src];
        }
        sb.weapons[k].weapon = (int16_t)dst;
    }
    s->sb[s->n_sb++] = sb;
    return FRAY_OK;
}

/*
 * Stat block name_a of path_a against name_b of path_b (NULL: the file's
 * only block), side by side on an open map, tactics by name ("default",
 * "aggressive", "cautious"; NULL: the block's own). *out is an fa_setup
 * made through alloc, freed with fa_setup_free. Errors: fa_load's,
 * FRAY_ERR_INVALID (no such block, several and none named, unknown
 * tactics), FRAY_ERR_NOMEM.
 */
fray_status fa_duel_setup(const char *path_a, const char *name_a,
                          const char *path_b, const char *name_b,
                          const char *tactics_a, const char *tactics_b,
                          const fray_allocator *alloc, void **out,
                          fray_diag *diag) {
    if (!path_a || !path_b || !out)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "a duel needs two stat-block files");
    *out = NULL;
    const char *path[2] = {path_a, path_b};
    const char *name[2] = {name_a, name_b};
    const char *tac[2] = {tactics_a, tactics_b};
    fa_setup *file[2] = {NULL, NULL};
    fa_setup *s = fray__alloc(alloc, sizeof *s);
    fray_status rc = s ? FRAY_OK : FRAY_ERR_NOMEM;
    if (rc == FRAY_OK) {
        memset(s, 0, sizeof *s);
        if (alloc)
            s->alloc = *alloc;
        fa_options_default(&s->opt);
        s->round_limit = 100;
        s->n_sides = 2;
        fray_grid_init(&s->map, 64, 64);
    }
    for (int i = 0; i < 2 && rc == FRAY_OK; i++) {
        rc = fa_load_blocks(path[i], alloc, &file[i], diag);
        int k = 0;
        if (rc == FRAY_OK)
            rc = find_block(file[i], name[i], path[i], &k, diag);
        if (rc == FRAY_OK)
            rc = add_block(s, file[i], k, diag);
        if (rc == FRAY_OK) {
            const fa_statblock *sb = &s->sb[s->n_sb - 1];
            fa_combatant_def *c = &s->c[s->n++];
            int t = 0;
            rc = tactics_parse(tac[i], sb->tactics, &t, diag);
            c->tactics = (uint8_t)t;
            c->sb = (int16_t)(s->n_sb - 1);
            c->side = (int8_t)i;
            c->side_len = (int8_t)fray_grid_side_for_size(sb->size - FA_SIZE_MEDIUM);
            if (c->side_len < 1)
                c->side_len = 1;
            /* Side by side in the middle of the open map. */
            c->at.x = (int16_t)(30 + (i == 0 ? -s->c[0].side_len + 1 : 1));
            c->at.y = 30;
            c->aware = true;
            c->wield = (int8_t)(sb->n_weapons > 0 ? 0 : -1);
            for (int w = sb->n_weapons - 1; w >= 0; w--)
                if (s->weapons[sb->weapons[w].weapon].kind == FA_WK_MELEE)
                    c->wield = (int8_t)w;
            join(c->id, sizeof c->id, sb->id,
                 i == 1 && strcmp(sb->id, s->c[0].id) == 0 ? "-2" : "");
            join(c->name, sizeof c->name, sb->name,
                 i == 1 && strcmp(sb->name, s->c[0].name) == 0 ? " 2" : "");
            join(s->side_name[i], sizeof s->side_name[i], c->name, "");
        }
    }
    for (int i = 0; i < 2; i++)
        if (file[i])
            fa_setup_free(file[i]);
    if (rc != FRAY_OK) {
        if (s)
            fray__free(alloc, s, sizeof *s);
        return rc;
    }
    join(s->name, sizeof s->name, s->c[0].name, " against ");
    size_t len = strlen(s->name);
    join(s->name + len, sizeof s->name - len, s->c[1].name, "");
    *out = s;
    return FRAY_OK;
}
