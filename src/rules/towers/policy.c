/*
 * policy.c - the tactics policies: what a combatant run by fray (`fray
 * fight`, `fray sim`) does when its turn comes, and how it uses its Hand of
 * Fate, chips and opportunity attacks (docs/rules/towers.md "Tactics").
 *
 * The default policy, in order (each step only when its command is legal,
 * ft_check_command; Forced Delay is the last resort and always legal):
 *   1. Recover when STUN is below recover_below_pct of its maximum and no
 *      enemy is next to it, or whenever it is Bleeding;
 *   2. Stand from Prone; Escape a grapple; Shake a Burning condition;
 *   3. Reload an empty ranged weapon (after stepping out of reach of
 *      enemies when it can);
 *   4. attack an enemy it can attack now (ft_attack_mods: range, sight,
 *      cover), chosen by tactics.target (nearest, weakest = least STUN,
 *      strongest = most STUN): Power Attack when its expected STUN per
 *      phase beats a plain Attack's (exact hit chances for the setup's
 *      deck and flip options, counted once per load by ft_policy_prepare;
 *      the damage after Resilience, 7 phases against 5, a tenth off for its
 *      (flip-1) on defense); Aim first, when nobody threatens it, if the
 *      extra card more than doubles the chance to hit (an Aim and an attack
 *      take as long as two attacks; RULINGS 13 caps the Aims);
 *   5. otherwise move: melee fighters Charge (or Combat Move) to the
 *      nearest space from which they can strike their target, or as far as
 *      Speed allows along the cheapest path there; ranged fighters to a
 *      space within two range increments of the target, in sight of it,
 *      out of enemies' reach, with the best cover from it (a shooter next
 *      to an enemy first steps away with Shift Position when it can still
 *      shoot from there);
 *   6. Full Defense (defensive preset) or Forced Delay.
 * Presets change single steps: `attack` never Power Attacks or Aims,
 * `power-attack` always Power Attacks, `aim` Aims as often as it may before
 * each attack, `defensive` goes into Full Defense when threatened and hurt,
 * `ranged` keeps its distance, `hold-ground` never moves, `idle` always
 * takes Forced Delay.
 *
 * Cost: no allocation and no state kept between calls. The reach map (a
 * search of the map, fray_grid_reach) is built only when the actor has to
 * move, once per decision. ft_policy_prepare (ten flips' exact odds and
 * 700 sums) runs once per load.
 */
#include "towers_int.h"

#include "fray/odds.h"

#include <assert.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>

/* ---- What the policy looks at ---------------------------------------------- */

typedef struct pol {
    const ft_setup *s;
    const ft_state *st;
    ft_run run;                 /* read-only view for ft_attack_mods / ft_threatens */
    int me;
    const ft_tactics *tac;
    /* Each one's footprint, and whether it is a non-ally still in the
     * fight: own_fp and own_enemy worked out here, or those kept in the
     * fight's kept threats (pol_init). */
    const fray_footprint *fp;
    const bool *enemy;
    uint32_t enemies;                /* the same, a bit each */
    fray_footprint own_fp[FT_MAX_COMBATANTS];
    bool own_enemy[FT_MAX_COMBATANTS];
    int n;
    int8_t threat;              /* threatened(), once asked; -1: not yet */
    bool *checked;              /* set when try_cmd takes a checked command */
    ft_path_cache *paths;       /* the fight's move search cache (or NULL) */
    ft_attack_memo *memo;       /* the chosen attack's modifiers (or NULL) */
    struct move_search *ms;     /* step 5's search, while it moves (or NULL) */
} pol;

enum { OCC_GONE = 0xff };

/* fray_grid_within and fray_grid_range (as ft_range), inlined. */
static inline bool ft_within(fray_footprint a, fray_footprint b, int reach) {
    return ft_range(a, b) <= reach;
}

static bool down(const ft_cstate *c) {
    return (c->flags & (FT_F_UNCONSCIOUS | FT_F_DISABLED | FT_F_DYING |
                        FT_F_DEAD | FT_F_FLED)) != 0;
}

static bool has_cond(const ft_cstate *c, ft_condition k) {
    for (int i = 0; i < c->n_cond && i < FT_MAX_CONDITIONS; i++)
        if (c->cond[i].kind == k)
            return true;
    return false;
}

/* Whether combatant i is down for the tactics (out of the fight, or
 * Disabled), and, to the death, whether the fallen is still the foe (seed
 * 000 "Dueling": not dead and not fled). */
static inline bool look_enemy_of(const ft_setup *s, const ft_state *st,
                                 int i, int side) {
    const ft_cstate *c = &st->c[i];
    return s->c[i].side != side &&
           (!down(c) ||
            /* seed 000 "Dueling": to the death, the fallen duelist is
             * still the foe */
            (s->duel.to == FT_DUEL_DEATH &&
             !(c->flags & (FT_F_DEAD | FT_F_FLED))));
}

/*
 * The look at everyone kept in the fight's kept threats (tc): each one's
 * footprint and, for every side, whether each one is its enemy, brought
 * up to date by the state's count of changes (ft_state.threat_gen: every
 * change of a place, of a fall, Disabled, a rising, a join or a flight
 * counts; since threat_all_gen those changed one at a time are in
 * threat_moved). Only those changed since the last decision are looked at
 * again (issue 16, "This round: the crowd's decision, second pass").
 * Returns false when it cannot keep them (no count, more than 32
 * combatants, a side out of range): the caller looks at everyone.
 */
static bool look_kept(ft_threat_cache *tc, const ft_setup *s,
                      const ft_state *st, int n) {
    if (!tc || !s->eng.ready || st->threat_gen == 0 || n > 32 ||
        s->n_sides > FT_MAX_SIDES)
        return false;
    uint32_t look = ~0u;
    if (tc->look_st == st && tc->look_setup == s &&
        tc->look_stamp == s->fast.atk.stamp && tc->look_n == n &&
        tc->look_gen != 0) {
        if (tc->look_gen == st->threat_gen)
            look = 0;
        else if (tc->look_gen < st->threat_gen &&
                 st->threat_all_gen <= tc->look_gen)
            look = st->threat_moved;
    }
    if (n < 32)
        look &= (1u << n) - 1u;
    int sides = s->n_sides > 0 ? s->n_sides : 1;
    if (look == ~0u || look == (n < 32 ? (1u << n) - 1u : ~0u)) {
        for (int i = 0; i < n; i++)
            if (s->c[i].side < 0 || s->c[i].side >= FT_MAX_SIDES ||
                s->c[i].side >= sides)
                return false;
        memset(tc->look_enemies, 0, sizeof tc->look_enemies);
    }
    for (uint32_t todo = look; todo; todo &= todo - 1) {
        int i = __builtin_ctz(todo);
        tc->look_fp[i] = ft_fp(s, st, i);
        for (int side = 0; side < sides; side++) {
            bool e = look_enemy_of(s, st, i, side);
            tc->look_enemy[side][i] = e;
            tc->look_enemies[side] =
                (tc->look_enemies[side] & ~(1u << i)) | (uint32_t)e << i;
        }
    }
    tc->look_st = st;
    tc->look_setup = s;
    tc->look_stamp = s->fast.atk.stamp;
    tc->look_n = n;
    tc->look_gen = st->threat_gen;
    return true;
}

/* Who stands where is worked out here once per decision (or kept from
 * the last, look_kept); who occupies what (occ_list_init) only when the
 * actor has to move. */
static void pol_init(pol *p, const ft_setup *s, const ft_state *st, int me,
                     ft_threat_cache *tc) {
    p->s = s;
    p->st = st;
    p->me = me;
    p->tac = &s->c[me].tactics;
    ft_run_clear(&p->run);
    p->run.setup = s;
    p->run.st = (ft_state *)st; /* read only: nothing here writes through it */
    p->n = st->n < FT_MAX_COMBATANTS ? st->n : FT_MAX_COMBATANTS;
    p->threat = -1;
    int my_side = s->c[me].side;
    /* (The enemies also a bit each, for step 4's targets: issue 16,
     * "This round: a crowd's decision and turn".) */
    const int n = p->n;
    if (look_kept(tc, s, st, n)) {
        p->fp = tc->look_fp;
        p->enemy = tc->look_enemy[my_side];
        p->enemies = tc->look_enemies[my_side];
#ifndef NDEBUG
        uint32_t all = 0;
        for (int i = 0; i < n; i++) {
            fray_footprint f = ft_fp(s, st, i);
            assert(p->fp[i].at.x == f.at.x && p->fp[i].at.y == f.at.y &&
                   p->fp[i].side == f.side);
            assert(p->enemy[i] == look_enemy_of(s, st, i, my_side));
            all |= (uint32_t)p->enemy[i] << i;
        }
        assert(all == p->enemies);
#endif
        return;
    }
    fray_footprint *fp = p->own_fp;
    bool *enemy = p->own_enemy;
    uint32_t enemies = 0;
    for (int i = 0; i < n; i++) {
        fp[i] = ft_fp(s, st, i);
        enemy[i] = look_enemy_of(s, st, i, my_side);
        enemies |= (uint32_t)enemy[i] << i;
    }
    p->fp = fp;
    p->enemy = enemy;
    p->enemies = enemies;
}

/* What the actor sees in combatant i's spaces (fray_occupant), OCC_GONE
 * when it fled. */
static uint8_t occupant_of(const pol *p, int i) {
    const ft_cstate *c = &p->st->c[i];
    return (c->flags & FT_F_FLED)                          ? OCC_GONE
           : i == p->me                                    ? FRAY_OCC_SELF
           : p->s->c[i].side == p->s->c[p->me].side        ? FRAY_OCC_ALLY
           : down(c)                                       ? FRAY_OCC_PASSABLE
                                                           : FRAY_OCC_ENEMY;
}

static const ft_weapon *wielded(const pol *p, int c, int *out_index) {
    int w = p->st->c[c].wielded[0];
    if (out_index)
        *out_index = w;
    if (w < 0 || w >= p->s->c[c].sb.n_weapons)
        return NULL;
    return &p->s->c[c].sb.weapons[w];
}

static bool is_ranged(const ft_weapon *w) {
    return w && (w->range_increment > 0 || w->spell);
}

static int reach_of(const ft_weapon *w) {
    if (!w || is_ranged(w))
        return 1;
    if (w->reach > 1)
        return w->reach;
    return (w->keywords & FT_KW(REACH)) ? 2 : 1;
}

/* Is combatant c (at footprint at) within a melee reach of enemy e? Pure
 * geometry plus walls; used to judge places the actor is not in yet. */
static bool enemy_reaches(const pol *p, int e, fray_footprint at) {
    const ft_weapon *w = wielded(p, e, NULL);
    int r = reach_of(is_ranged(w) ? NULL : w);
    if (!p->s->has_map)
        return true;
    if (!ft_within(p->fp[e], at, r))
        return false;
    return ft_geo_cover(p->s, p->fp[e], at) != FRAY_COVER_TOTAL;
}

/* Does any enemy threaten the actor where it stands? (Reach 2 at most:
 * only enemies that close are asked.) Ask threat_now. */
static bool threatened(const pol *p) {
    for (int e = 0; e < p->n; e++) {
        if (!p->enemy[e])
            continue;
        if (p->s->has_map && !ft_within(p->fp[e], p->fp[p->me], 2))
            continue;
        if (ft_threatens(&p->run, e, p->me) ||
            enemy_reaches(p, e, p->fp[p->me]))
            return true;
    }
    return false;
}

/* threatened(), asked only when a step of the policy needs it and then
 * kept: it reads the state and changes nothing, so asking late (or never)
 * decides the same. */
static bool threat_now(pol *p) {
    if (p->threat < 0)
        p->threat = threatened(p);
    return p->threat != 0;
}

/* Could the weapon reach enemy e at all (before the full check of range,
 * sight and cover), `r` spaces away (range_to)? Melee: within its reach;
 * ranged: within four range increments or its maximum range (seed 000
 * "Range Modifiers"). */
static bool in_weapon_range(const pol *p, const ft_weapon *w, int r) {
    if (!p->s->has_map || !w)
        return true;
    if (!is_ranged(w))
        return r <= reach_of(w) + 1;
    int limit = w->range_increment > 0 ? 4 * w->range_increment : w->max_range;
    return limit <= 0 || r <= limit;
}

static bool threatened_at(const pol *p, fray_footprint at) {
    for (int e = 0; e < p->n; e++)
        if (p->enemy[e] && enemy_reaches(p, e, at))
            return true;
    return false;
}

static int max_stun(const ft_setup *s, int c) {
    int m = ft_max_stun(s, c);
    return m > 0 ? m : s->c[c].sb.max_stun;
}

static int stun_now(const ft_state *st, int c) {
    return st->c[c].stun + st->c[c].temp_stun;
}

/* ---- Commands ------------------------------------------------------------------ */


/* Takes the command when it is legal now. */
static bool try_cmd(const pol *p, const ft_command *c, ft_command *out) {
    if (ft_check_command_memo(p->s, p->st, c, NULL, p->paths, p->memo) !=
        FRAY_OK)
        return false;
    *out = *c;
    *p->checked = true;
    return true;
}

static bool try_simple(const pol *p, int action, ft_command *out) {
    ft_command c;
    ft_cmd_init(&c, p->me, action);
    return try_cmd(p, &c, out);
}

/* The tactics' Use a Talent (talent.c) before an attack on `target`: the
 * first of the actor's talents used by a command that may be used now. A
 * talent that spends a Hand of Fate card spends the lowest held, and only
 * one worth less than 8 (a card worth less than 8 seldom wins a swap); one
 * that spends a mark spends it on the target. A free action: the turn goes
 * on, and the attack is chosen next (the talent then is in use). */
static bool use_talent_first(const pol *p, int target, ft_command *out) {
    const ft_statblock *sb = &p->s->c[p->me].sb;
    for (int i = 0; i < sb->n_talents && i < INT8_MAX - 1; i++) {
        const ft_talent *t = &sb->talents[i];
        if (!ft_talent_needs_use(t))
            continue;
        ft_command c;
        ft_cmd_init(&c, p->me, FT_ACT_TALENT);
        c.talent = (int8_t)(i + 1);
        bool card = false, mark = false;
        for (int k = 0; k < t->n_effects; k++) {
            card = card || t->e[k].spend == FT_SPEND_HAND_OF_FATE;
            mark = mark || t->e[k].spend == FT_SPEND_MARK;
        }
        if (card) {
            int held = ft_talent_lowest_held(p->s, p->st, p->me);
            if (held <= 0 ||
                fray_card_value(&p->s->opt.deck, (fray_card)(held - 1)) >= 8)
                continue;
            c.card = (uint8_t)held;
        }
        if (mark)
            c.target = (int8_t)target;
        if (try_cmd(p, &c, out))
            return true;
    }
    return false;
}

/* ---- Targets -------------------------------------------------------------------- */

static int range_to(const pol *p, fray_footprint from, int e) {
    return p->s->has_map ? ft_range(from, p->fp[e]) : 1;
}

/* Lower is better: how tactics.target ranks enemy e. */
static long target_rank(const pol *p, int e, int distance) {
    long stun = stun_now(p->st, e);
    switch (p->tac->target) {
    case FT_TARGET_WEAKEST:
        return stun * 1024 + distance;
    case FT_TARGET_STRONGEST:
        return -stun * 1024 + distance;
    case FT_TARGET_NEAREST:
    default:
        return (long)distance * 4096 + stun;
    }
}

/*
 * The chance that an attack hits, in thousandths, for attack flips of
 * FT_HIT_FLIP_MIN..FT_HIT_FLIP_MAX (rank + flip mods; -1..8), defense flips
 * of the same range and the attack's shifts minus the defense's of
 * -3..+3 (flips and shifts beyond are counted as the nearest end). Exact
 * odds (fray_odds_attack: RULINGS 1 deck options, RULINGS 3 flips below
 * one card and min-one-card, RULINGS 6 ties hit) rounded half up; used to
 * weigh Power Attack and Aim without flipping.
 *
 * Each side flips from a fresh deck of its own. That is an approximation
 * twice over: in a fight the decks are part used, and when the deck mode
 * (RULINGS 2) has attacker and defender flip from one deck (one-for-table,
 * or two GM combatants) the defender draws from what the attack left. The
 * table is per setup, not per pair, so it takes separate decks for all.
 */
/* The kept value's counts of a flip of n from a fresh deck with the
 * setup's options (RULINGS 1, 3); false when the flip cannot be made. */
typedef struct flip_counts {
    fray__u128 c[FRAY_CARD_VALUE_MAX + 1];
    fray__u128 den;
} flip_counts;

static bool count_flip(const ft_setup *s, int n, flip_counts *out) {
    fray_flip_odds o;
    if (fray_odds_flip(&s->opt.deck, n, &s->opt.flip, &o) != FRAY_OK)
        return false;
    for (int v = 0; v <= FRAY_CARD_VALUE_MAX; v++) {
        out->c[v] = 0;
        for (int h = 0; h <= FRAY_HEARTS_MAX; h++)
            out->c[v] += fray__u128_from(o.count[v][h]);
    }
    out->den = fray__u128_from(o.den);
    return true;
}

/*
 * P(attack + shift >= defense) in thousandths, rounded half up, for two
 * flips from separate fresh decks (as fray_odds_attack counts it; counts
 * are below C(54,27) < 2^51, so products and sums fit 128 bits).
 */
static int permille(const flip_counts *a, const flip_counts *d, int shift) {
    fray__u128 num = 0;
    for (int va = 0; va <= FRAY_CARD_VALUE_MAX; va++)
        for (int vd = 0; vd <= FRAY_CARD_VALUE_MAX; vd++)
            if (va + shift >= vd)
                num += a->c[va] * d->c[vd];
    fray__u128 den = a->den * d->den;
    return den ? (int)((2000 * num + den) / (2 * den)) : 0;
}

static int exact_permille(const ft_setup *s, int a, int d, int shift) {
    flip_counts fa, fd;
    if (!count_flip(s, a, &fa) || !count_flip(s, d, &fd))
        return 0;
    return permille(&fa, &fd, shift);
}

/* Ten flips' odds, then 700 sums: a fraction of a millisecond per load. */
void ft_policy_prepare(ft_setup *s) {
    enum { N = FT_HIT_FLIP_MAX - FT_HIT_FLIP_MIN + 1 };
    flip_counts f[N];
    bool ok[N];
    for (int i = 0; i < N; i++)
        ok[i] = count_flip(s, FT_HIT_FLIP_MIN + i, &f[i]);
    for (int a = 0; a < N; a++)
        for (int d = 0; d < N; d++)
            for (int sh = -FT_HIT_SHIFT_MAX; sh <= FT_HIT_SHIFT_MAX; sh++)
                s->hit_permille[a][d][sh + FT_HIT_SHIFT_MAX] =
                    (uint16_t)(ok[a] && ok[d] ? permille(&f[a], &f[d], sh) : 0);
    s->hit_ready = true;
    ft_fast_prepare(s);
    memset(&s->eng, 0, sizeof s->eng);
    for (int c = 0; c < s->n_combatants && c < FT_MAX_COMBATANTS; c++)
        for (int e = 0; e < FT_ELEMENT_COUNT; e++)
            if (s->c[c].sb.mana[e] > 0)
                s->eng.mana_pool[c] = true;
    s->eng.no_talent_cost = true;
    s->eng.no_pairs = true;
    s->eng.no_tiny = true;
    for (int c = 0; c < s->n_combatants && c < FT_MAX_COMBATANTS; c++) {
        if (ft_room(s->c[c].sb.size_rank) < FT_SPACE_ROOM) /* tumble.c */
            s->eng.no_tiny = false;
        if (s->c[c].sb.tsum.cost)
            s->eng.no_talent_cost = false;
        if (s->c[c].master > 0 || s->c[c].n_companions > 0)
            s->eng.no_pairs = false;
    }
    s->eng.plain = s->eng.no_pairs && s->eng.no_talent_cost && !s->duel.to;
    s->eng.plain_decide = s->eng.no_pairs;
    for (int c = 0; c < s->n_combatants && c < FT_MAX_COMBATANTS; c++)
        if (s->c[c].sb.tsum.used)
            s->eng.plain_decide = false;
    s->eng.plain_hit = s->eng.plain;
    for (int c = 0; c < s->n_combatants && c < FT_MAX_COMBATANTS; c++) {
        const ft_statblock *sb = &s->c[c].sb;
        if (sb->tsum.once_damage)
            s->eng.plain_hit = false;
        for (int w = 0; w < sb->n_weapons && w < FT_MAX_WEAPONS; w++)
            if (sb->weapons[w].knockback > 0)
                s->eng.plain_hit = false;
    }
    s->eng.ready = true;
}

static int clamp(int v, int lo, int hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

/* The table when the loader filled it; a setup built by hand (tests) gets
 * the same number counted now (a few microseconds a call). */
static int hit_chance(const ft_setup *s, int a, int d, int shift) {
    a = clamp(a, FT_HIT_FLIP_MIN, FT_HIT_FLIP_MAX);
    d = clamp(d, FT_HIT_FLIP_MIN, FT_HIT_FLIP_MAX);
    shift = clamp(shift, -FT_HIT_SHIFT_MAX, FT_HIT_SHIFT_MAX);
    if (s->hit_ready)
        return s->hit_permille[a - FT_HIT_FLIP_MIN][d - FT_HIT_FLIP_MIN]
                              [shift + FT_HIT_SHIFT_MAX];
    return exact_permille(s, a, d, shift);
}

/* STUN a hit would deal before Hearts: the weapon's damage (+PX), +bonus,
 * less the target's Resilience, at least 1 (seed "STUN Damage"). */
static int net_damage(const pol *p, int e, const ft_weapon *w, int bonus) {
    const ft_statblock *a = &p->s->c[p->me].sb, *d = &p->s->c[e].sb;
    int dmg = w->damage + bonus + (w->adds_px ? ft_px_used(w, a->cv[FT_CV_PX]) : 0);
    if (w->category == FT_CAT_PHYSICAL)
        dmg -= d->cv[FT_CV_ER] + (d->has_armor ? d->armor.er : 0);
    else if (w->category == FT_CAT_ARCANE)
        dmg -= d->cv[FT_CV_IR] + (d->has_armor ? d->armor.ir : 0);
    return dmg < 1 ? 1 : dmg;
}

/*
 * Power Attack or a plain Attack? Power Attack is (flip-1) for +2 damage
 * and costs 7 phases instead of 5, and leaves a (flip-1) on defense until
 * the next activation (seed "Power Attack"). Take it when its expected
 * STUN per phase, with a tenth off for the weaker defense, beats the plain
 * attack's.
 */
static bool power_pays(const pol *p, int e, const ft_weapon *w,
                       const ft_mods *m) {
    const ft_statblock *a = &p->s->c[p->me].sb, *d = &p->s->c[e].sb;
    bool spell = w->spell;
    int att = a->cv[spell ? FT_CV_SA : FT_CV_PA] + m->flip;
    int def = d->cv[spell ? FT_CV_ID : FT_CV_PD] + m->def_flip;
    int sd = m->shift - m->def_shift;
    long plain = (long)hit_chance(p->s, att, def, sd) * net_damage(p, e, w, 0) * 7;
    long power = (long)hit_chance(p->s, att - 1, def, sd) *
                 net_damage(p, e, w, 2) * 5 * 9 / 10;
    return power > plain;
}

/* ---- Movement ---------------------------------------------------------------------- */

/* Who stands where as the actor sees them (occupant_of), for the move
 * search (fray__grid_reach_occ): the footprints of all but those who fled. */
typedef struct occ_list {
    int n;
    int8_t who[FT_MAX_COMBATANTS]; /* in index order */
    fray_footprint fp[FT_MAX_COMBATANTS];
    uint8_t kind[FT_MAX_COMBATANTS];
    /* The list is the engine's own view for this mover on this state
     * (engine.c occ_init: the same combatants, kinds and footprints), which
     * differs from the tactics' only for a non-ally Disabled but able to
     * act (the engine: an enemy; the tactics: down, passable) or a state of
     * more combatants than the tactics read. Issue 16: the engine's check
     * of a move put in the path cache then need not list them again. */
    bool engine_view;
} occ_list;

static void occ_list_init(const pol *p, occ_list *o) {
    o->n = 0;
    o->engine_view = p->n == p->st->n;
    for (int i = 0; i < p->n; i++) {
        uint8_t k = occupant_of(p, i);
        if (k == OCC_GONE)
            continue;
        /* (ft_can_act: not unconscious, dying, dead or fled.) */
        if (k == FRAY_OCC_PASSABLE &&
            (p->st->c[i].flags & (FT_F_UNCONSCIOUS | FT_F_DYING | FT_F_DEAD)) == 0)
            o->engine_view = false;
        o->who[o->n] = (int8_t)i;
        o->fp[o->n] = p->fp[i];
        o->kind[o->n] = k;
        o->n++;
    }
    /* Seed 000 "Creature Sizes": Tiny or smaller creatures' paths share
     * spaces (tumble.c), as the engine's do. */
    if (!p->s->eng.no_tiny)
        ft_share_kinds(p->s, p->me, o->n, o->who, o->fp, o->kind);
}

/* Step 5's search of the map (from the actor's footprint, parity 0, among
 * the occupants oc), run only as far as needed: move_toward may look at
 * the spaces costing at most `limit` (three moves' worth, then the whole
 * map), of which rm holds those the run has finished. */
typedef struct move_search {
    fray__reach_run run;
    fray_reach_map rm;
    occ_list oc;
    int limit;
} move_search;

/* Finishes every space of step 5's search that costs at most `cost`
 * (within its limit). */
static void search_until(const pol *p, move_search *ms, int cost) {
    cost = cost < ms->limit ? cost : ms->limit;
    /* (Shown without the last cost's steps, issue 16: in a prepared
     * setup; one not prepared goes the long way.) */
    if (p->s->eng.ready)
        fray__grid_run_show(&ms->run, cost);
    else
        fray__grid_run_until(&ms->run, cost);
}

/*
 * The engine's search for a Move or Charge of the actor to dest
 * (engine.c find_path: from its footprint, parity 0, up to its Speed,
 * stopping at dest), answered from step 5's search and put in the fight's
 * path cache under the key the engine looks for. Exact: a search with a
 * lower cost limit finishes the spaces it reaches in the same order with
 * the same keys and previous steps (the spaces past its limit are in other
 * buckets), so once step 5's search has finished (or shown:
 * fray__grid_run_show, the same map) every space within the
 * Speed, dest's cost, can_stop and path are the same when dest costs at
 * most the Speed, and dest is out of reach when it costs more (or is not
 * finished). The engine takes the entry only when it sees the same
 * occupants (its own view of who blocks), else it searches itself.
 */
static void put_path(const pol *p, fray_pos dest) {
    ft_path_cache *k = p->paths;
    const move_search *ms = p->ms;
    if (!k || !ms)
        return;
    int spd = ft_speed(p->s, p->st, p->me);
    const fray_reach_map *rm = &ms->rm;
    const occ_list *oc = &ms->oc;
    int c = rm->cost[dest.y][dest.x];
    /* dest finished (its cost, can_stop and path final), or every space
     * within the Speed finished; else the engine searches. */
    if (c < 0 && ms->run.shown < spd)
        return;
    if (c >= 0 && c <= spd) {
        k->can_stop = rm->can_stop[dest.y][dest.x];
        k->n = fray_grid_path(rm, dest, k->path, FT_PATH_CACHE_MAX);
    } else {
        k->can_stop = false;
        k->n = -1;
    }
    k->setup = p->s;
    k->from = p->fp[p->me];
    k->max_cost = spd;
    k->dest = dest;
    k->n_occ = oc->n;
    for (int j = 0; j < oc->n; j++) {
        k->occ_who[j] = oc->who[j];
        k->occ_kind[j] = oc->kind[j];
        k->occ_fp[j] = oc->fp[j];
    }
    k->valid = true;
    /* The tactics' view of who stands where: when it is the engine's own
     * (occ_list.engine_view), the path cache says so as the engine does
     * once it has compared them (engine.c find_path: the state, its count
     * of changes, the mover), and the engine's check does not list and
     * compare them again (issue 16; debug builds compare them there at
     * every use; only in a prepared setup). Else the engine compares
     * them. */
    uint64_t gen = p->st->threat_gen;
    if (oc->engine_view && gen != 0 && p->s->eng.ready) {
        k->threat.path_st = p->st;
        k->threat.path_gen = gen;
        k->threat.path_mover = p->me;
    } else
        k->threat.path_st = NULL;
#ifndef NDEBUG
    /* The long way: the engine's own search. */
    fray_reach_map m;
    fray_pos path[FT_PATH_CACHE_MAX];
    fray__grid_reach_steps(&p->s->map, ft_steps(p->s), k->from, 0, spd,
                           oc->fp, oc->kind, oc->n, dest, &m);
    int mc = m.cost[dest.y][dest.x];
    int mn = mc < 0 ? -1 : fray_grid_path(&m, dest, path, FT_PATH_CACHE_MAX);
    assert(mn == k->n);
    assert(mc < 0 || m.can_stop[dest.y][dest.x] == k->can_stop);
    for (int i = 0; i < mn; i++)
        assert(path[i].x == k->path[i].x && path[i].y == k->path[i].y);
#endif
}

static fray_footprint fp_at(const pol *p, fray_pos at) {
    fray_footprint f = p->fp[p->me];
    f.at = at;
    return f;
}

/* Can the actor, standing at `at`, strike enemy e with weapon w (geometry:
 * range, walls)? Melee: within reach and not behind a wall. Ranged: within
 * `increments` range increments (spells: their maximum range) and in
 * sight. */
static bool can_strike_from(const pol *p, fray_footprint at, int e,
                            const ft_weapon *w, int increments) {
    if (!is_ranged(w)) {
        return ft_within(at, p->fp[e], reach_of(w)) &&
               ft_geo_cover(p->s, at, p->fp[e]) != FRAY_COVER_TOTAL;
    }
    int r = ft_range(at, p->fp[e]);
    int limit = w->range_increment > 0 ? w->range_increment * increments
                                       : w->max_range;
    if (limit > 0 && r > limit)
        return false;
    return ft_geo_cover(p->s, at, p->fp[e]) != FRAY_COVER_TOTAL;
}

/* The spaces where the actor's footprint could stand and pass
 * can_strike_from's range test (the same reach or limit): each axis's gap
 * is at most the range (ft_range is the larger gap plus half the
 * smaller), so only top-lefts in [x0, x1] x [y0, y1] (clamped to the map
 * of rm) can. Without a limit (a spell or weapon with no range given),
 * the whole map. Scanning only the box, in the same order, finds the same
 * spaces. */
static void strike_box(const pol *p, int e, const ft_weapon *w,
                       int increments, const fray_reach_map *rm, int *x0,
                       int *y0, int *x1, int *y1) {
    *x0 = 0;
    *y0 = 0;
    *x1 = rm->w - 1;
    *y1 = rm->h - 1;
    int lim;
    if (!is_ranged(w))
        lim = reach_of(w);
    else
        lim = w->range_increment > 0 ? w->range_increment * increments
                                     : w->max_range;
    if (lim <= 0)
        return;
    fray_footprint a = p->fp[p->me], b = p->fp[e];
    int na = a.side < 1 ? 1 : a.side > 5 ? 5 : a.side;
    int nb = b.side < 1 ? 1 : b.side > 5 ? 5 : b.side;
    int bx0 = b.at.x - na + 1 - lim, bx1 = b.at.x + nb - 1 + lim;
    int by0 = b.at.y - na + 1 - lim, by1 = b.at.y + nb - 1 + lim;
    if (bx0 > *x0)
        *x0 = bx0;
    if (by0 > *y0)
        *y0 = by0;
    if (bx1 < *x1)
        *x1 = bx1;
    if (by1 < *y1)
        *y1 = by1;
}

#ifndef NDEBUG
/* Quality of a firing position (lower is better): the long way, which
 * firing_score_below is checked against. */
static long firing_score(const pol *p, fray_footprint at, int e,
                         const ft_weapon *w, int cost) {
    long score = cost;
    int r = ft_range(at, p->fp[e]);
    if (w->range_increment > 0 && r > w->range_increment)
        score += 1000; /* second increment: (shift-1) */
    fray_cover mine = ft_geo_cover(p->s, p->fp[e], at);
    score += 100 * (long)(FRAY_COVER_TOTAL - (mine > FRAY_COVER_HARD
                                                  ? FRAY_COVER_HARD
                                                  : mine));
    if (threatened_at(p, at))
        score += 10000; /* shooting there provokes */
    return score;
}
#endif

/* firing_score of a space that passed the range test, when it is below
 * `beat`; else some score at least `beat` (LONG_MAX) without the work
 * that cannot change that: the range term and the least cover term first,
 * then sight (can_strike_from), then the cover, then the threat. Each
 * term only adds, so a partial score at least `beat` stays so (issue 16
 * "This round: the skirmish's tactics"). -1: cannot strike from
 * there. */
static long firing_score_below(const pol *p, fray_footprint at, int e,
                               const ft_weapon *w, int cost, long beat) {
    long score = cost;
    int r = ft_range(at, p->fp[e]);
    if (w->range_increment > 0 && r > w->range_increment)
        score += 1000;
    /* (the cover term is at least 100 * (total - hard)) */
    if (score + 100 * (long)(FRAY_COVER_TOTAL - FRAY_COVER_HARD) >= beat)
        return LONG_MAX;
    if (!can_strike_from(p, at, e, w, 2))
        return -1;
    fray_cover mine = ft_geo_cover(p->s, p->fp[e], at);
    score += 100 * (long)(FRAY_COVER_TOTAL - (mine > FRAY_COVER_HARD
                                                  ? FRAY_COVER_HARD
                                                  : mine));
    if (score >= beat)
        return LONG_MAX;
    if (threatened_at(p, at))
        score += 10000;
    return score;
}

/* firing_score_below read from the small map's table of every pair of
 * spaces (ft_fast.pair; issue 16, "This round: the crowds' search kept"):
 * a shooter's scan of the spaces within its Speed asks, for each, the
 * cover from it to the target (its sight: can_strike_from) and from the
 * target to it (the score's cover term), two look-ups through
 * ft_geo_cover; here both come from the table, the target's row found
 * once per scan (from_e, row index ei). Both entries known: the same
 * terms in the same order as firing_score_below, which is asked
 * otherwise. Only for a one-space actor and target (the table's). */
static long firing_score_tabled(const pol *p, fray_pos q, int e,
                                const ft_weapon *w, int cost, long beat,
                                const uint8_t *from_e, unsigned ei) {
    fray_footprint at = fp_at(p, q);
    long score = cost;
    int r = ft_range(at, p->fp[e]);
    if (w->range_increment > 0 && r > w->range_increment)
        score += 1000;
    if (score + 100 * (long)(FRAY_COVER_TOTAL - FRAY_COVER_HARD) >= beat)
        return LONG_MAX;
    unsigned ai = (unsigned)(q.y * p->s->map.w + q.x);
    unsigned to_e = p->s->fast.pair[ai][ei], to_me = from_e[ai];
    if (!(to_e & FT_GEO_KNOWN) || !(to_me & FT_GEO_KNOWN))
        return firing_score_below(p, at, e, w, cost, beat);
    /* can_strike_from, ranged: within two increments (or the maximum
     * range), and no total cover from here to the target. */
    int limit = w->range_increment > 0 ? w->range_increment * 2 : w->max_range;
    if ((limit > 0 && r > limit) ||
        (fray_cover)(to_e & 3u) == FRAY_COVER_TOTAL)
        return -1;
    fray_cover mine = (fray_cover)(to_me & 3u);
    score += 100 * (long)(FRAY_COVER_TOTAL - (mine > FRAY_COVER_HARD
                                                  ? FRAY_COVER_HARD
                                                  : mine));
    if (score >= beat)
        return LONG_MAX;
    if (threatened_at(p, at))
        score += 10000;
    return score;
}

/* A shooter's scan of the spaces costing at most its Speed in the box
 * [x0, x1] x [y0, y1] for the best firing position (firing_score_tabled
 * and threatened_at at each, in rows then columns, the first of the
 * lowest score kept), with what does not change from space to space
 * worked out once (issue 16, "This round: the skirmish's tactics,
 * again"): the target's range terms, and each enemy's reach and its row
 * of the table of every pair of spaces. The same terms in the same order
 * as firing_score_tabled; a space or enemy the table does not know goes
 * the long way (firing_score_below, enemy_reaches). *best_score: the best
 * score (LONG_MAX: none); returns its space, {-1, -1} for none. */
static fray_pos firing_scan_tabled(const pol *p, int e, const ft_weapon *w,
                                   const fray_reach_map *rm, int spd, int x0,
                                   int y0, int x1, int y1,
                                   const uint8_t *from_e, unsigned ei,
                                   long *best_score) {
    const ft_setup *s = p->s;
    const int mw = s->map.w, mh = s->map.h;
    fray_footprint fe = p->fp[e];
    int ri = w->range_increment;
    int limit = ri > 0 ? ri * 2 : w->max_range;
    /* The enemies that might reach a space: their reach, their footprint
     * and, for one on a space of its own on the map, its row of the
     * table (else NULL: enemy_reaches). */
    int nr = 0;
    int8_t rwho[FT_MAX_COMBATANTS];
    int16_t rreach[FT_MAX_COMBATANTS];
    const uint8_t *rrow[FT_MAX_COMBATANTS];
    for (int k = 0; k < p->n; k++) {
        if (!p->enemy[k])
            continue;
        const ft_weapon *kw = wielded(p, k, NULL);
        fray_footprint fk = p->fp[k];
        rwho[nr] = (int8_t)k;
        rreach[nr] = (int16_t)reach_of(is_ranged(kw) ? NULL : kw);
        rrow[nr] = fk.side == 1 && (unsigned)fk.at.x < (unsigned)mw &&
                           (unsigned)fk.at.y < (unsigned)mh
                       ? s->fast.pair[fk.at.y * mw + fk.at.x]
                       : NULL;
        nr++;
    }
    long best = *best_score;
    fray_pos bq = {-1, -1};
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            int cq = rm->cost[y][x];
            if ((unsigned)cq > (unsigned)spd || !rm->can_stop[y][x])
                continue;
            fray_pos q = {(int16_t)x, (int16_t)y};
            fray_footprint at = fp_at(p, q);
            long score;
            /* ft_range of two one-space footprints: the larger gap plus
             * half the smaller */
            int gx = x > fe.at.x ? x - fe.at.x : fe.at.x - x;
            int gy = y > fe.at.y ? y - fe.at.y : fe.at.y - y;
            int r = gx > gy ? gx + gy / 2 : gy + gx / 2;
            assert(r == ft_range(at, fe));
            unsigned ai = (unsigned)(y * mw + x);
            unsigned to_e = s->fast.pair[ai][ei], to_me = from_e[ai];
            score = cq;
            if (ri > 0 && r > ri)
                score += 1000;
            if (score + 100 * (long)(FRAY_COVER_TOTAL - FRAY_COVER_HARD) >=
                best)
                score = LONG_MAX;
            else if (!(to_e & FT_GEO_KNOWN) || !(to_me & FT_GEO_KNOWN))
                score = firing_score_below(p, at, e, w, cq, best);
            else if ((limit > 0 && r > limit) ||
                     (fray_cover)(to_e & 3u) == FRAY_COVER_TOTAL)
                score = -1;
            else {
                fray_cover mine = (fray_cover)(to_me & 3u);
                score += 100 * (long)(FRAY_COVER_TOTAL -
                                      (mine > FRAY_COVER_HARD
                                           ? FRAY_COVER_HARD
                                           : mine));
                if (score >= best)
                    score = LONG_MAX;
                else {
                    /* threatened_at(p, at) */
                    bool threat = false;
                    for (int j = 0; j < nr && !threat; j++) {
                        int k = rwho[j];
                        if (!ft_within(p->fp[k], at, rreach[j]))
                            continue;
                        unsigned g = rrow[j] ? rrow[j][ai] : 0;
                        threat = (g & FT_GEO_KNOWN)
                                     ? (fray_cover)(g & 3u) != FRAY_COVER_TOTAL
                                     : enemy_reaches(p, k, at);
                    }
                    assert(threat == threatened_at(p, at));
                    if (threat)
                        score += 10000;
                }
            }
#ifndef NDEBUG
            {
                /* The long way: the whole score, and the sight. */
                long full = can_strike_from(p, at, e, w, 2)
                                ? firing_score(p, at, e, w, cq)
                                : -1;
                assert(score == full ||
                       (score == LONG_MAX && (full < 0 || full >= best)));
            }
#endif
            if (score >= 0 && score < best) {
                best = score;
                bq = q;
            }
        }
    *best_score = best;
    return bq;
}

/* Tries a move of `action` to dest (with target for a Charge). */
static bool try_move(const pol *p, int action, fray_pos dest, int target,
                     ft_command *out) {
    if (action == FT_ACT_MOVE || action == FT_ACT_CHARGE)
        put_path(p, dest);
    ft_command c;
    ft_cmd_init(&c, p->me, action);
    c.dest = dest;
    c.target = (int8_t)target;
    return try_cmd(p, &c, out);
}

/* Seed 000 "Charge": at least one space, the last three in a straight line
 * (checked on the reach map's own path; the engine checks again). */
static bool charge_path(const pol *p, const fray_reach_map *rm, fray_pos to) {
    fray_pos path[2 * FRAY_GRID_MAX];
    int n = fray_grid_path(rm, to, path, 2 * FRAY_GRID_MAX);
    if (n < 1)
        return false;
    if (n < 3)
        return true;
    fray_pos before = n >= 4 ? path[n - 4] : p->st->c[p->me].pos;
    int dx = path[n - 3].x - before.x, dy = path[n - 3].y - before.y;
    for (int i = n - 2; i < n; i++)
        if (path[i].x - path[i - 1].x != dx || path[i].y - path[i - 1].y != dy)
            return false;
    return true;
}

/*
 * Moves toward enemy e: to the best space from which it can strike (within
 * its Speed: Charge when the blow can follow, else Combat Move), or as far
 * as it can along the cheapest path to such a space. false when no move
 * helps.
 */
/* The best space in rm from which to strike enemy e: for a shooter the
 * best firing position within Speed (firing_score), else the cheapest, the
 * first in rows then columns among equals; {-1, -1}: none. */
/* min_cost: only spaces costing at least that are looked at (the caller
 * has found that no cheaper finished space can strike: the answer is then
 * the same as over every space, issue 16 "This round: the skirmish's
 * tactics"); 0: all. Like every shortcut of the tactics, taken
 * only in a prepared setup (ft_setup.eng.ready), so that one not prepared
 * goes the long way (tests/unit/test_towers_skirm.c compares the two). */
/* box: strike_box(p, e, w, 2, rm) as {x0, y0, x1, y1}, worked out once by
 * a caller that asks cost after cost (issue 16: the same box each time). */
static fray_pos strike_space_from(const pol *p, int e, const ft_weapon *w,
                                  const fray_reach_map *rm, int spd,
                                  int min_cost, const int box[4]) {
    bool ranged = is_ranged(w);
    long best_score = LONG_MAX;
    fray_pos best = {-1, -1};
    /* only there can it strike from */
    int sx0 = box[0], sy0 = box[1], sx1 = box[2], sy1 = box[3];
    /* A shooter's firing scores from the table of every pair of spaces
     * (firing_score_tabled), when the setup is prepared and has it, and
     * actor and target stand on one space each on the map. */
    const ft_setup *s = p->s;
    fray_footprint fe = p->fp[e];
    bool tabled = ranged && s->eng.ready && s->fast.ready && s->fast.pairs &&
                  p->fp[p->me].side == 1 && fe.side == 1 &&
                  (unsigned)fe.at.x < (unsigned)s->map.w &&
                  (unsigned)fe.at.y < (unsigned)s->map.h;
    unsigned ei = tabled ? (unsigned)(fe.at.y * s->map.w + fe.at.x) : 0;
    const uint8_t *from_e = tabled ? s->fast.pair[ei] : NULL;
    /* A shooter's firing positions first, among the spaces within Speed
     * of it along both axes only (issue 16, "This round: the skirmish's
     * tactics, again"): every space costing at most the Speed lies there
     * (a step moves the footprint at most one space each way and costs at
     * least 1, as move_toward's move closer says), and a firing position
     * (score below 100000) beats every space past the Speed (100000 times
     * its cost), so when one is found there it is the whole box's best,
     * the first in rows then columns among equals as the long way's. When
     * none is, every space within Speed was tested and none can strike:
     * the box's scan below passes over them. Only in a prepared setup and
     * when every cost is looked at (a shooter's first scan). */
    bool firing_done = false;
    if (ranged && s->eng.ready && min_cost <= 0 && spd >= 0) {
        fray_pos at0 = p->fp[p->me].at;
        int fx0 = at0.x - spd > sx0 ? at0.x - spd : sx0;
        int fx1 = at0.x + spd < sx1 ? at0.x + spd : sx1;
        int fy0 = at0.y - spd > sy0 ? at0.y - spd : sy0;
        int fy1 = at0.y + spd < sy1 ? at0.y + spd : sy1;
        if (tabled)
            best = firing_scan_tabled(p, e, w, rm, spd, fx0, fy0, fx1, fy1,
                                      from_e, ei, &best_score);
        else
            for (int y = fy0; y <= fy1; y++)
                for (int x = fx0; x <= fx1; x++) {
                    int cq = rm->cost[y][x];
                    if ((unsigned)cq > (unsigned)spd || !rm->can_stop[y][x])
                        continue;
                    fray_pos q = {(int16_t)x, (int16_t)y};
                    long score = firing_score_below(p, fp_at(p, q), e, w, cq,
                                                    best_score);
                    if (score >= 0 && score < best_score) {
                        best_score = score;
                        best = q;
                    }
                }
#ifndef NDEBUG
        /* The long way: the whole box, every term of every score. */
        {
            long lb = LONG_MAX;
            fray_pos lq = {-1, -1};
            for (int y = sy0; y <= sy1; y++)
                for (int x = sx0; x <= sx1; x++) {
                    int cq = rm->cost[y][x];
                    if (cq < 0 || !rm->can_stop[y][x])
                        continue;
                    fray_footprint fa = fp_at(p, (fray_pos){(int16_t)x, (int16_t)y});
                    long sc = (long)cq * 100000;
                    if (cq <= spd)
                        sc = can_strike_from(p, fa, e, w, 2)
                                 ? firing_score(p, fa, e, w, cq)
                                 : -1;
                    else if (!can_strike_from(p, fa, e, w, 2))
                        sc = -1;
                    if (sc >= 0 && sc < lb) {
                        lb = sc;
                        lq = (fray_pos){(int16_t)x, (int16_t)y};
                    }
                }
            assert(best.x < 0 || (lq.x == best.x && lq.y == best.y &&
                                  lb == best_score));
            assert(best.x >= 0 || lq.x < 0 ||
                   rm->cost[lq.y][lq.x] > spd);
        }
#endif
        if (best.x >= 0)
            return best;
        firing_done = true;
    }
    for (int y = sy0; y <= sy1; y++)
        for (int x = sx0; x <= sx1; x++) {
            if (rm->cost[y][x] < min_cost || rm->cost[y][x] < 0 ||
                !rm->can_stop[y][x])
                continue;
            /* (tested above: none can strike) */
            if (firing_done && rm->cost[y][x] <= spd)
                continue;
            /* Spaces within Speed score below 100000 for a shooter (cost,
             * range, cover), cost * 100000 otherwise: skip the sight and
             * cover work where the score cannot win. */
            long score = (long)rm->cost[y][x] * 100000;
            bool firing = ranged && rm->cost[y][x] <= spd;
            if (!firing && score >= best_score)
                continue;
            fray_pos q = {(int16_t)x, (int16_t)y};
            fray_footprint at = fp_at(p, q);
            if (firing) {
                score = tabled ? firing_score_tabled(p, q, e, w,
                                                     rm->cost[y][x],
                                                     best_score, from_e, ei)
                               : firing_score_below(
                                     p, at, e, w, rm->cost[y][x],
                                     p->s->eng.ready ? best_score : LONG_MAX);
#ifndef NDEBUG
                /* The long way: the whole score, and the sight. */
                long full = can_strike_from(p, at, e, w, 2)
                                ? firing_score(p, at, e, w, rm->cost[y][x])
                                : -1;
                /* (LONG_MAX: not better than the best, or no sight) */
                assert(score == full ||
                       (score == LONG_MAX && (full < 0 || full >= best_score)));
#endif
                if (score < 0)
                    continue;
            } else if (!can_strike_from(p, at, e, w, 2))
                continue;
            if (score < best_score) {
                best_score = score;
                best = q;
            }
        }
    return best;
}

static fray_pos strike_space(const pol *p, int e, const ft_weapon *w,
                             const fray_reach_map *rm, int spd) {
    int box[4];
    strike_box(p, e, w, 2, rm, &box[0], &box[1], &box[2], &box[3]);
    return strike_space_from(p, e, w, rm, spd, 0, box);
}

/*
 * Can strike_space ever find a space to strike enemy e from, however far
 * step 5's search goes? Only a space it may end a move on
 * (fray__grid_run_may_stop: the search's can_stop whenever it finishes
 * it) and from which it can strike (can_strike_from) can be found, and
 * neither depends on the search's reach. false: none exists (a melee
 * target hemmed in by others, issue 16 "This round: the search"),
 * and the search need not go past what the move itself
 * reads (the spaces within Speed). Only for a melee weapon (a shooter's
 * box of spaces is large and seldom all taken), and only in a prepared
 * setup (ft_setup.eng.ready: no shortcuts otherwise).
 */
static bool strike_hopeless(const pol *p, int e, const ft_weapon *w) {
    const move_search *ms = p->ms;
    if (!p->s->eng.ready || is_ranged(w))
        return false;
    int sx0, sy0, sx1, sy1;
    strike_box(p, e, w, 2, &ms->rm, &sx0, &sy0, &sx1, &sy1);
    for (int y = sy0; y <= sy1; y++)
        for (int x = sx0; x <= sx1; x++) {
            fray_pos q = {(int16_t)x, (int16_t)y};
            if (fray__grid_run_may_stop(&ms->run, q) &&
                can_strike_from(p, fp_at(p, q), e, w, 2))
                return false;
        }
#ifndef NDEBUG
    /* The long way: the whole search to the limit finds no such space. */
    fray_reach_map m;
    fray__grid_reach_steps(&p->s->map, ft_steps(p->s), p->fp[p->me], 0,
                           ms->limit, ms->oc.fp, ms->oc.kind, ms->oc.n,
                           (fray_pos){-1, -1}, &m);
    assert(strike_space(p, e, w, &m, ft_speed(p->s, p->st, p->me)).x < 0);
#endif
    return true;
}

/*
 * Moves toward enemy e: to the best space from which it can strike (within
 * its Speed: Charge when the blow can follow, else Combat Move), or as far
 * as it can along the cheapest path to such a space. false when no move
 * helps. Reads step 5's search (p->ms). *hopeless: no space to strike e
 * from exists at all (strike_hopeless): the answer is the same whatever
 * the search's limit.
 */
static bool move_toward(const pol *p, int e, const ft_weapon *w,
                        ft_command *out, bool *hopeless) {
    const fray_grid *g = &p->s->map;
    int spd = ft_speed(p->s, p->st, p->me);
    if (spd <= 0)
        return false;
    bool ranged = is_ranged(w);
    /* The best space to strike from, over the whole reachable map. The
     * spaces within Speed first: when one of them can strike, it is the
     * best of the whole map too (a shooter's firing positions are all
     * within Speed and beat every other space; otherwise the cheapest
     * wins, and every space as cheap is among them), and no further
     * space is looked at below. */
    move_search *ms = p->ms;
    const fray_reach_map *rm = &ms->rm;
    /* A shooter's firing positions are scored among all the spaces within
     * Speed: those first. Otherwise (and for a shooter past the Speed) the
     * search goes one cost at a time and stops at the first cost that
     * holds a space to strike from (issue 16: the search bounded by what
     * the tactics use). The same space as the search to the limit would
     * give: every score there is the cost times 100000, so the cheapest
     * wins, the first in rows then columns among equals; every space of
     * that cost and below is shown (the run shows a cost whole),
     * and none cheaper can strike. */
    fray_pos best = {-1, -1};
    int c = 0;
    *hopeless = false;
    int box[4]; /* strike_space_from's, the same at every cost */
    strike_box(p, e, w, 2, rm, &box[0], &box[1], &box[2], &box[3]);
    /* The least cost of a space of the box: a step moves the footprint
     * at most one space along each axis and costs at least 1 (as the move
     * closer below says), so a space costs at least its larger distance
     * along an axis from the mover's. Only in a prepared setup (0: every
     * cost scanned). */
    int lo = 0;
    if (p->s->eng.ready) {
        fray_pos a0 = p->fp[p->me].at;
        int gx = box[0] - a0.x > a0.x - box[2] ? box[0] - a0.x : a0.x - box[2];
        int gy = box[1] - a0.y > a0.y - box[3] ? box[1] - a0.y : a0.y - box[3];
        lo = gx > gy ? gx : gy;
        if (lo < 0)
            lo = 0;
    }
    if (ranged) {
        search_until(p, ms, spd);
        best = strike_space(p, e, w, rm, spd);
        c = spd + 1;
    }
    for (; best.x < 0 && c <= ms->limit; c++) {
        /* Past the Speed, and no space to strike from at any cost: only
         * the spaces within Speed are read below (the move closer as the
         * crow flies; the path handed to the engine), and they are
         * finished. (Asked only here: most moves find their space within
         * Speed.) */
        if (c == spd + 1 && (*hopeless = strike_hopeless(p, e, w)))
            break;
        /* (Shown, not finished: the spaces of cost c take their steps
         * only if the loop goes on, issue 16. more: true also when they
         * would add none; the next turn then finds nothing new, and
         * stops.) */
        bool more = p->s->eng.ready ? fray__grid_run_show(&ms->run, c)
                                    : fray__grid_run_until(&ms->run, c);
        /* Every finished space cheaper than c was looked at by an earlier
         * turn of this loop (which looked at all those costing at least
         * its c, or, for a shooter, at every space) and none can strike:
         * only those costing c or more can be the best (issue 16: each
         * space tested once, not once per cost). */
        /* No space of the box costs less than lo (below): none is
         * finished while the search has shown no cost as high (a search
         * an earlier target's tries took further has), and the box's scan
         * would find nothing (issue 16, "This round: the skirmish's
         * tactics, again"). */
        if (ms->run.shown < lo) {
#ifndef NDEBUG
            fray_pos all = strike_space(p, e, w, rm, spd);
            assert(all.x < 0);
#endif
            if (!more)
                break;
            continue;
        }
        best = strike_space_from(p, e, w, rm, spd, p->s->eng.ready ? c : 0,
                                 box);
#ifndef NDEBUG
        {
            /* The long way: every finished space. */
            fray_pos all = strike_space(p, e, w, rm, spd);
            assert(all.x == best.x && all.y == best.y);
        }
#endif
        if (!more)
            break; /* (nothing queued: no cost above adds a space) */
    }
    int sx0, sy0, sx1, sy1;
    fray_pos here = p->st->c[p->me].pos;
    if (best.x >= 0 && best.x == here.x && best.y == here.y)
        return false; /* already there: moving does not help */
    if (best.x >= 0 && rm->cost[best.y][best.x] <= spd) {
        /* A Charge (a move and a blow for 8 phases) to any space as cheap
         * as the best whose last three steps are straight. */
        if (!ranged && w && p->tac->preset != FT_TAC_DEFENSIVE) {
            int c0 = rm->cost[best.y][best.x], tries = 0;
            strike_box(p, e, w, 1, rm, &sx0, &sy0, &sx1, &sy1);
            for (int y = sy0; y <= sy1 && tries < 8; y++)
                for (int x = sx0; x <= sx1 && tries < 8; x++) {
                    if (rm->cost[y][x] != c0 || !rm->can_stop[y][x])
                        continue;
                    fray_pos q = {(int16_t)x, (int16_t)y};
                    if (!can_strike_from(p, fp_at(p, q), e, w, 1) ||
                        !charge_path(p, rm, q))
                        continue;
                    tries++;
                    if (try_move(p, FT_ACT_CHARGE, q, e, out))
                        return true;
                }
        }
        if (try_move(p, FT_ACT_MOVE, best, -1, out))
            return true;
    }
    if (best.x >= 0) {
        /* Too far: as far along the path as Speed allows. */
        fray_pos path[2 * FRAY_GRID_MAX];
        int n = fray_grid_path(rm, best, path, 2 * FRAY_GRID_MAX);
        for (int i = n - 1, tries = 0; i >= 0 && tries < 4; i--) {
            fray_pos q = path[i];
            if (rm->cost[q.y][q.x] > spd || !rm->can_stop[q.y][q.x])
                continue;
            tries++;
            if (try_move(p, FT_ACT_MOVE, q, -1, out))
                return true;
        }
        return false;
    }
    /* No space to strike from can be reached (walls, a crowd): get closer
     * as the crow flies, when that is closer at all. */
    int now = ft_range(p->fp[p->me], p->fp[e]);
    int best_r = now;
    best.x = -1;
    /* Only spaces within Speed: every step moves the footprint at most
     * one space along each axis and costs at least 1 (1-2-1 diagonals),
     * so they lie within spd of the start along both axes (issue 16: the
     * same spaces in the same order, not the whole map). */
    fray_pos at = p->fp[p->me].at;
    int ly0 = at.y - spd > 0 ? at.y - spd : 0;
    int ly1 = at.y + spd < rm->h - 1 ? at.y + spd : rm->h - 1;
    int lx0 = at.x - spd > 0 ? at.x - spd : 0;
    int lx1 = at.x + spd < rm->w - 1 ? at.x + spd : rm->w - 1;
#ifndef NDEBUG
    for (int y = 0; y < rm->h; y++)
        for (int x = 0; x < rm->w; x++)
            assert(rm->cost[y][x] < 0 || rm->cost[y][x] > spd ||
                   (y >= ly0 && y <= ly1 && x >= lx0 && x <= lx1));
#endif
    for (int y = ly0; y <= ly1; y++)
        for (int x = lx0; x <= lx1; x++) {
            if (rm->cost[y][x] < 0 || rm->cost[y][x] > spd ||
                !rm->can_stop[y][x])
                continue;
            fray_pos q = {(int16_t)x, (int16_t)y};
            int r = ft_range(fp_at(p, q), p->fp[e]);
            if (r < best_r) {
                best_r = r;
                best = q;
            }
        }
    (void)g;
    return best.x >= 0 && try_move(p, FT_ACT_MOVE, best, -1, out);
}

/* A ranged fighter next to an enemy steps away with Shift Position (which
 * alone provokes no opportunity attack) to a space no enemy reaches and
 * from which it can still shoot someone; else it shoots where it stands. */
static bool step_away(const pol *p, const ft_weapon *w, ft_command *out) {
    fray_pos here = p->st->c[p->me].pos;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if (!dx && !dy)
                continue;
            fray_pos q = {(int16_t)(here.x + dx), (int16_t)(here.y + dy)};
            if (!fray_grid_in(&p->s->map, q) || threatened_at(p, fp_at(p, q)))
                continue;
            bool shot = w == NULL || !is_ranged(w);
            for (int e = 0; e < p->n && !shot; e++)
                shot = p->enemy[e] && can_strike_from(p, fp_at(p, q), e, w, 2);
            if (shot && try_move(p, FT_ACT_SHIFT, q, -1, out))
                return true;
        }
    return false;
}

/* Step 5: moves toward the best target it can move toward (of the first
 * three by preference). Apart from the choice (its stack holds the map
 * search, about 62 KB, which a decision that does not move never
 * touches). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static bool move_step(pol *p, const ft_weapon *w, ft_command *out) {
    const ft_setup *s = p->s;
    int actor = p->me;
    /* The search costs with its reach: three moves' worth first, the
     * whole map only when no enemy can be struck from within that. Run
     * as far as the moves ask (move_toward, put_path). */
    int spd = ft_speed(s, p->st, actor);
    int far_cost = 2 * (s->map.w + s->map.h);
    int near_cost = 3 * spd + 2 < far_cost ? 3 * spd + 2 : far_cost;
    move_search ms;
    occ_list_init(p, &ms.oc);
    ms.limit = near_cost;
    fray__grid_run_start(&ms.run, &s->map, ft_steps(s), p->fp[actor], 0,
                         far_cost, ms.oc.fp, ms.oc.kind, ms.oc.n, &ms.rm);
    p->ms = &ms;
    /* The target: by preference, among enemies it can reach at all. */
    int order[FT_MAX_COMBATANTS];
    long rank[FT_MAX_COMBATANTS];
    int k = 0;
    for (int e = 0; e < p->n; e++) {
        if (!p->enemy[e])
            continue;
        long r = target_rank(p, e, range_to(p, p->fp[actor], e));
        int j = k++;
        while (j > 0 && rank[j - 1] > r) {
            order[j] = order[j - 1];
            rank[j] = rank[j - 1];
            j--;
        }
        order[j] = e;
        rank[j] = r;
    }
    bool moved = false, hopeless[3] = {false, false, false};
    bool hopeful = false; /* a target tried may be struck from somewhere */
    for (int j = 0; j < k && j < 3 && !moved; j++) {
        moved = move_toward(p, order[j], w, out, &hopeless[j]);
        hopeful |= !hopeless[j];
    }
    /* The whole map, unless nothing lies past three moves' worth: then it
     * is the same map, and the same tries fail again. A target no space
     * can strike from fails again too, whatever the map (move_toward reads
     * only the spaces within Speed for it): with only such targets the
     * whole map is not searched. */
    if (!moved && hopeful && near_cost < far_cost &&
        fray__grid_run_until(&ms.run, near_cost)) {
        ms.limit = far_cost;
        for (int j = 0; j < k && j < 3 && !moved; j++)
            if (!hopeless[j])
                moved = move_toward(p, order[j], w, out, &hopeless[j]);
    }
    p->ms = NULL; /* (ms ends here) */
    return moved;
}

/* ---- The choice --------------------------------------------------------------------- */

void ft_policy_choose(const ft_setup *s, const ft_state *st, int actor,
                      ft_command *out) {
    bool checked;
    ft_policy_choose_checked(s, st, actor, out, &checked, NULL);
}

void ft_policy_choose_checked(const ft_setup *s, const ft_state *st, int actor,
                              ft_command *out, bool *out_checked,
                              ft_path_cache *paths) {
    ft_policy_choose_memo(s, st, actor, out, out_checked, paths, NULL);
}

/* Whether c holds a condition that ends at the start of actor's
 * activation (harm.c cond_activation_from ends those). */
static bool ends_at_start_of(const ft_cstate *c, int actor) {
    for (int k = 0; k < c->n_cond && k < FT_MAX_CONDITIONS; k++)
        if (c->cond[k].ends == FT_UNTIL_START_OF && c->cond[k].whose == actor)
            return true;
    return false;
}

/* Whether the start of `actor`'s activation and Bleeding or Burning can
 * change nothing an attack's modifiers depend on: the attacker is not
 * Reckless (the only one of the flags cleared then that its own flip
 * reads) and has no condition (Bleeding and Burning charge only the one
 * who acts, engine.c apply_action), and no condition of anyone ends at
 * the start of the attacker's activation (harm.c cond_activation_from
 * ends only those, FT_UNTIL_START_OF of `whose` == actor; a condition that
 * lasts, as the Prone of the fallen, stays as the policy saw it). Issue
 * 16 "This round: the crowds' search kept": before, any condition on
 * anyone sent the attack back to its modifiers, and in the skirmish
 * half the attacks came after someone had fallen.
 *
 * Only a combatant on the upkeep's list (ft_state.cond_timed, harm.c: of
 * the first 32, every one that may hold a condition ending at the start
 * or end of an activation) can hold one ending at the start of the
 * actor's: with 32 or fewer, those alone are looked at (issue 16, "This
 * round: a crowd's decision and turn"), else everyone. */
static bool mods_survive_start(const ft_state *st, int actor) {
    /* Reckless Move's (flip-1) and an armed talent's effect (Use a
     * Talent: Lucky Strike's shift, talent.c) both lapse as the actor's
     * next activation starts (engine.c start_activation). */
    if ((st->c[actor].flags & (FT_F_RECKLESS | FT_F_TALENT)) || st->c[actor].n_cond != 0)
        return false;
    if (st->n <= 32) {
        bool ends = false;
        for (uint32_t m = st->cond_timed; m && !ends; m &= m - 1) {
            int i = __builtin_ctz(m);
            ends = i < st->n && ends_at_start_of(&st->c[i], actor);
        }
#ifndef NDEBUG
        bool ends_any = false;
        for (int i = 0; i < st->n && !ends_any; i++)
            ends_any = ends_at_start_of(&st->c[i], actor);
        assert(ends == ends_any);
#endif
        return !ends;
    }
    for (int i = 0; i < st->n; i++)
        if (ends_at_start_of(&st->c[i], actor))
            return false;
    return true;
}

void ft_policy_choose_memo(const ft_setup *s, const ft_state *st, int actor,
                           ft_command *out, bool *out_checked,
                           ft_path_cache *paths, ft_attack_memo *memo) {
    *out_checked = false;
    if (memo)
        memo->valid = false;
    ft_cmd_init(out, actor, FT_ACT_DELAY);
    if (actor < 0 || actor >= st->n)
        return;
    pol p;
    pol_init(&p, s, st, actor, paths ? &paths->threat : NULL);
    p.checked = out_checked;
    p.paths = paths;
    /* who threatens whom, kept in the fight's (issue 16) */
    p.run.threat = paths ? &paths->threat : NULL;
    p.memo = NULL; /* set once the attack's modifiers are known */
    p.ms = NULL;
    const ft_tactics *tac = p.tac;
    const ft_cstate *me = &st->c[actor];
    ft_tactics_preset preset = tac->preset;
    if (preset == FT_TAC_IDLE)
        return;
    /* (No condition at all, the common case: none of the has_cond.) */
    bool any_cond = me->n_cond > 0;
    bool bleeding = any_cond && has_cond(me, FT_COND_BLEEDING);
    int mstun = max_stun(s, actor);

    /* 1. Recover. */
    if ((bleeding || (mstun > 0 && (long)stun_now(st, actor) * 100 <
                                       (long)tac->recover_below_pct * mstun &&
                      !threat_now(&p))) &&
        try_simple(&p, FT_ACT_RECOVER, out))
        return;
    /* The preset grapple: grapple, then squeeze, throw or slam; held,
     * reverse (grapple.c). */
    if (preset == FT_TAC_GRAPPLE) {
        ft_command gc[FT_MAX_COMBATANTS + 2];
        int ng = ft_grapple_policy(s, st, actor, gc, FT_MAX_COMBATANTS + 2);
        for (int i = 0; i < ng; i++)
            if (try_cmd(&p, &gc[i], out))
                return;
    }
    /* 2. Get up, get free, put out the fire. */
    if (any_cond && has_cond(me, FT_COND_PRONE) &&
        try_simple(&p, FT_ACT_STAND, out))
        return;
    if (me->grappled_by >= 0 && try_simple(&p, FT_ACT_ESCAPE, out))
        return;
    if (any_cond && has_cond(me, FT_COND_BURNING)) {
        ft_command c;
        ft_cmd_init(&c, actor, FT_ACT_SHAKE);
        c.condition = FT_COND_BURNING;
        if (try_cmd(&p, &c, out))
            return;
    }
    /* A weapon in hand. */
    int wi;
    const ft_weapon *w = wielded(&p, actor, &wi);
    if (!w && s->c[actor].sb.n_weapons > 0) {
        ft_command c;
        ft_cmd_init(&c, actor, FT_ACT_DRAW_WEAPON);
        c.weapon = 0;
        /* One who fights with two weapons (the file puts one in its off
         * hand) draws both in one action when it may (seed 000 "Draw a
         * Weapon"), else the first. */
        int off = s->c[actor].sb.wielded[1];
        if (off > 0 && me->wielded[1] < 0) {
            c.draw_also = (int8_t)(off + 1);
            if (try_cmd(&p, &c, out))
                return;
            c.draw_also = 0;
        }
        if (try_cmd(&p, &c, out))
            return;
    }
    bool ranged = is_ranged(w);
    /* 3. Reload. */
    if (w && w->shots > 0 && wi >= 0 && wi < FT_MAX_WEAPONS && me->ammo[wi] <= 0) {
        if (s->has_map && preset != FT_TAC_HOLD_GROUND && threat_now(&p) &&
            step_away(&p, NULL, out))
            return;
        if (try_simple(&p, FT_ACT_RELOAD, out))
            return;
    }
    /* Defensive: hurt and threatened, it guards itself. */
    if (preset == FT_TAC_DEFENSIVE && mstun > 0 &&
        stun_now(st, actor) * 2 < mstun && threat_now(&p) &&
        try_simple(&p, FT_ACT_FULL_DEFENSE, out))
        return;
    /* A ranged fighter in reach of an enemy steps out first. */
    if (ranged && s->has_map && preset != FT_TAC_HOLD_GROUND &&
        preset != FT_TAC_ATTACK && threat_now(&p) && step_away(&p, w, out))
        return;

    /* 4a. An area that catches at least two enemies and no ally (area.c). */
    for (int k = 0; k < s->c[actor].sb.n_weapons; k++)
        if (s->c[actor].sb.weapons[k].area) {
            if (ft_area_policy(s, st, actor, paths, out)) {
                *out_checked = true;
                return;
            }
            break;
        }

    /* 4. Attack the best target it can attack now. */
    int best = -1;
    long best_rank = LONG_MAX;
    /* The modifiers of the best so far and of the one being asked: two
     * buffers taking turns (an ft_mods is too big to copy per target). */
    ft_mods mods[2];
    int ask = 0;
    ft_attack_opts o;
    memset(&o, 0, sizeof o);
    o.weapon = wi;
    if (s->eng.ready) {
        /* The targets within the weapon's range best first (rank, then
         * the lower index, as the loop below takes them), and the first
         * whose attack can be made: the loop's choice, asking no
         * modifiers of a target ranked after it (issue 16, "This round:
         * a crowd's decision and turn": in a crowd several enemies stand
         * in reach, and the loop asked each one better than the best
         * so far). */
        int order[FT_MAX_COMBATANTS];
        long rank[FT_MAX_COMBATANTS];
        int nt = 0;
        /* in_weapon_range's bound, worked out once (INT_MAX: none) */
        int limit = INT_MAX;
        if (s->has_map && w) {
            int far = w->range_increment > 0 ? 4 * w->range_increment
                                             : w->max_range;
            limit = !is_ranged(w) ? reach_of(w) + 1 : far > 0 ? far : INT_MAX;
        }
        /* A footprint is at most 5 spaces wide: farther apart than the
         * bound and 4 across or along, the range is beyond the bound
         * (ft__gap) and need not be counted. */
        int far_apart = limit <= INT_MAX - 8 ? limit + 4 : INT_MAX;
        fray_pos at = p.fp[actor].at;
        for (uint32_t em = p.enemies; em; em &= em - 1) {
            int e = __builtin_ctz(em);
            assert(p.enemy[e]);
            int dx = p.fp[e].at.x - at.x, dy = p.fp[e].at.y - at.y;
            if (far_apart < INT_MAX &&
                ((dx < 0 ? -dx : dx) > far_apart ||
                 (dy < 0 ? -dy : dy) > far_apart)) {
                assert(!in_weapon_range(&p, w, range_to(&p, p.fp[actor], e)));
                continue;
            }
            int dist = range_to(&p, p.fp[actor], e);
            assert((dist <= limit) == in_weapon_range(&p, w, dist));
            if (dist > limit)
                continue;
            long r = target_rank(&p, e, dist);
            int j = nt++;
            for (; j > 0 && rank[j - 1] > r; j--) {
                order[j] = order[j - 1];
                rank[j] = rank[j - 1];
            }
            order[j] = e;
            rank[j] = r;
        }
        for (int k = 0; k < nt && best < 0; k++) {
            ft_attack_mods_cached(&p.run, memo ? &memo->cache : NULL, actor,
                                  order[k], &o, &mods[0]);
            if (!mods[0].impossible) {
                best = order[k];
                best_rank = rank[k];
                ask = 1; /* the best's are mods[ask ^ 1] */
            }
        }
    } else {
        for (int e = 0; e < p.n; e++) {
            if (!p.enemy[e])
                continue;
            int dist = range_to(&p, p.fp[actor], e);
            if (!in_weapon_range(&p, w, dist))
                continue;
            long r = target_rank(&p, e, dist);
            ft_mods *m = &mods[ask];
            ft_attack_mods_cached(&p.run, memo ? &memo->cache : NULL, actor,
                                  e, &o, m);
            if (m->impossible || r >= best_rank)
                continue;
            best_rank = r;
            best = e;
            ask ^= 1; /* keep it: the next target goes in the other */
        }
    }
    if (best >= 0 && w) {
        const ft_mods *best_m = &mods[ask ^ 1];
        if (memo) {
            memo->valid = true;
            memo->reusable = mods_survive_start(st, actor);
            memo->st = st;
            memo->n_events = st->n_events;
            memo->attacker = actor;
            memo->target = best;
            memo->weapon = wi;
            memo->flip = best_m->flip;
            memo->shift = best_m->shift;
            memo->def_flip = best_m->def_flip;
            memo->def_shift = best_m->def_shift;
            p.memo = memo;
        }
        ft_command c;
        ft_cmd_init(&c, actor, w->spell ? FT_ACT_CAST : FT_ACT_ATTACK);
        c.target = (int8_t)best;
        if (w->spell)
            c.element = (int8_t)w->element;
        int aim_cap = s->c[actor].sb.cv[w->spell ? FT_CV_SA : FT_CV_PA] / 2;
        /* Aim: (flip+1) on the next attack for 5 phases. The aim preset
         * Aims as often as it may; the default only when the extra card
         * more than doubles the chance (a far or hard target), since two
         * attacks take as long as an Aim and an attack. */
        const ft_statblock *tsb = &s->c[best].sb;
        int att = s->c[actor].sb.cv[w->spell ? FT_CV_SA : FT_CV_PA] + best_m->flip;
        int def = tsb->cv[w->spell ? FT_CV_ID : FT_CV_PD] + best_m->def_flip;
        int sd = best_m->shift - best_m->def_shift;
        bool aim = me->aim < aim_cap && preset != FT_TAC_ATTACK;
        if (aim && preset != FT_TAC_AIM) /* worth it? */
            aim = hit_chance(s, att + 1, def, sd) > 2 * hit_chance(s, att, def, sd);
        aim = aim && !threat_now(&p);
        if (aim && try_simple(&p, FT_ACT_AIM, out))
            return;
        /* Talents used by a command (talent.c), before the attack. */
        if (__builtin_expect(s->c[actor].sb.tsum.used, 0) &&
            use_talent_first(&p, best, out))
            return;
        bool power = preset == FT_TAC_POWER_ATTACK ||
                     (preset != FT_TAC_ATTACK && preset != FT_TAC_AIM &&
                      preset != FT_TAC_DEFENSIVE &&
                      power_pays(&p, best, w, best_m));
        if (power) {
            ft_command pc = c;
            pc.action = FT_ACT_POWER_ATTACK;
            if (try_cmd(&p, &pc, out))
                return;
        }
        if (try_cmd(&p, &c, out))
            return;
        if (w->spell) {
            c.action = FT_ACT_ATTACK;
            if (try_cmd(&p, &c, out))
                return;
        }
    }

    /* 5. Move toward a target. */
    if (s->has_map && preset != FT_TAC_HOLD_GROUND &&
        ft_speed(s, st, actor) > 0 && move_step(&p, w, out))
        return;

    /* 6. Nothing better. */
    if (preset == FT_TAC_DEFENSIVE && try_simple(&p, FT_ACT_FULL_DEFENSE, out))
        return;
    ft_cmd_init(out, actor, FT_ACT_DELAY);
    *out_checked = false;
}

/* ---- Hooks: Hand of Fate, chips, opportunity attacks ------------------------- */

#ifndef NDEBUG
/* The kept value of a flip with card i replaced by one of value cv; vals
 * holds the values of the flip's cards. (fate_choice works it out from the
 * two best cards; debug builds check that against this.) */
static int kept_with(const fray_flip *f, const int *vals, int i, int cv) {
    int best = 0;
    for (int k = 0; k < f->n_cards; k++) {
        int v = k == i ? cv : vals[k];
        if (k == 0 || (f->keep_lowest ? v < best : v > best))
            best = v;
    }
    return best;
}
#endif

/* fate_choice's search for the cheapest swap that reaches `need` on flip
 * f: for each held card (held[0..nh), in id order), smallest first, the
 * card of the flip whose loss leaves the best flip (on a tie the lowest
 * card, a Heart last, for the attacker's critical). vals and costs: the
 * values of the flip's nc cards, and the cost of losing each; first_i its
 * kept card. *out_i and *out_h: the card replaced and the held card's
 * index, -1 and -1 when none reaches `need`. */
static void swap_search(const ft_setup *s, const fray_flip *f,
                        const int *vals, const int *costs, int nc,
                        int first_i, const fray_card *held, size_t nh,
                        int shift, int need, int *out_i, int *out_h) {
    int best_i = -1, best_h = -1, best_val = INT_MAX;
    /* The kept value of the other cards when card i goes (what kept_with
     * compares the held card with): the best card's index and the best of
     * the rest give it for every i. */
    int second = 0;
    bool has_second = false;
    for (int i = 0; i < nc; i++) {
        if (i == first_i)
            continue;
        if (!has_second ||
            (f->keep_lowest ? vals[i] < second : vals[i] > second))
            second = vals[i];
        has_second = true;
    }
    for (size_t h = 0; h < nh; h++) {
        int hv = ft_card_value(&s->opt.deck, held[h]);
        if (hv >= best_val)
            continue;
        int top = INT_MIN, top_i = -1, top_cost = INT_MAX;
        for (int i = 0; i < nc; i++) {
            /* kept_with(f, vals, i, hv), from the two best. */
            int k = hv;
            if (i != first_i || has_second) {
                int rest = i != first_i ? vals[first_i] : second;
                if (f->keep_lowest ? rest < k : rest > k)
                    k = rest;
            }
#ifndef NDEBUG
            assert(k == kept_with(f, vals, i, hv));
#endif
            int cost = costs[i];
            if (k > top || (k == top && cost < top_cost)) {
                top = k;
                top_i = i;
                top_cost = cost;
            }
        }
        if (top_i >= 0 && top + shift >= need) {
            best_val = hv;
            best_h = (int)h;
            best_i = top_i;
        }
    }
    *out_i = best_i;
    *out_h = best_h;
}

static ft_choice fate_choice(void *ctx, const ft_run *r, const ft_flip_view *v) {
    (void)ctx;
    ft_choice none = {FT_CHOICE_NONE, (int8_t)v->who, 0, 0};
    const ft_setup *s = r->setup;
    const ft_state *st = r->st;
    int who = v->who;
    if (ft_policy_fate_none(r, who, v->is_defense, v->flip, v->shift,
                            v->against))
        return none;
    const ft_tactics *tac = &s->c[who].tactics;
    const fray_flip *f = v->flip;
    int need = v->is_defense ? v->against + 1 : v->against;
    int total = f->kept_value + v->shift;
    /* Flips that decide damage are worth the last card; others are not. */
    bool damage = v->purpose == FT_FLIP_ATTACK || v->purpose == FT_FLIP_DEFENSE;
    if (damage && r->ev && r->ev->cmd.action == FT_ACT_AID &&
        r->ev->cmd.actor == who)
        damage = false;
    /* A swap needs a held card that reaches `need` itself (below); no card
     * of the deck is worth more than an ace (14), or a Joker when it has
     * them: when even that falls short, the held cards need not be looked
     * at. */
    int deck_best = FRAY_RANK_ACE;
    if (s->opt.deck.jokers > 0 && s->opt.deck.joker_value > deck_best)
        deck_best = s->opt.deck.joker_value;
    if (tac->use_hand_of_fate && f->n_cards > 0 &&
        deck_best + v->shift >= need) {
        int d = s->c[who].deck;
        uint64_t hm = 0; /* the held cards, as bits by card id */
        if (d >= 0 && d < st->n_decks)
            hm = ft_deck_held_mask(&st->decks[d]);
        /* A swap keeps the held card or a card of the flip, and the flip's
         * cards fall short: only a held card that reaches `need` itself
         * can make it. (With no damage at stake, two held cards at least:
         * hm without its lowest bit.) */
        if (hm != 0 && (damage || (hm & (hm - 1)) != 0) &&
            ft_held_top_value(&s->opt.deck, hm) + v->shift >= need) {
            /* The held cards in id order (ft_deck_held). */
            fray_card held[FRAY_CARDS_MAX];
            size_t nh = 0;
            for (; hm; hm &= hm - 1)
                held[nh++] = (fray_card)__builtin_ctzll(hm);
            /* The cheapest swap that makes it: the smallest held card, put
             * in place of the card whose loss costs least (swap_search). */
            int best_i = -1, best_h = -1, best_val = INT_MAX;
            int vals[FRAY_CARDS_MAX], costs[FRAY_CARDS_MAX];
            int nc = f->n_cards < FRAY_CARDS_MAX ? f->n_cards : FRAY_CARDS_MAX;
            int first_i = 0; /* the kept card */
            for (int i = 0; i < nc; i++) {
                vals[i] = ft_card_value(&s->opt.deck, f->cards[i]);
                costs[i] = vals[i] + (ft_card_heart(f->cards[i]) ? 100 : 0);
                if (f->keep_lowest ? vals[i] < vals[first_i]
                                   : vals[i] > vals[first_i])
                    first_i = i;
            }
            if (!f->keep_lowest && vals[first_i] + v->shift < need) {
                /* Keeping the highest card, which falls short: a held card
                 * that reaches `need` is higher than every card of the
                 * flip, so it is kept wherever it goes, and the search
                 * finds every place tied (at its value) and takes the
                 * first of least cost; a held card short of `need` leaves
                 * the flip short wherever it goes. So the search's answer
                 * is the first (in id order) of the smallest held cards
                 * that reach `need`, in place of the first card of least
                 * cost. */
                int cheapest = 0;
                for (int i = 1; i < nc; i++)
                    if (costs[i] < costs[cheapest])
                        cheapest = i;
                for (size_t h = 0; h < nh; h++) {
                    int hv = ft_card_value(&s->opt.deck, held[h]);
                    if (hv < best_val && hv + v->shift >= need) {
                        best_val = hv;
                        best_h = (int)h;
                        best_i = cheapest;
                    }
                }
#ifndef NDEBUG
                int long_i, long_h;
                swap_search(s, f, vals, costs, nc, first_i, held, nh,
                            v->shift, need, &long_i, &long_h);
                assert(long_i == best_i && long_h == best_h);
#endif
            } else {
                swap_search(s, f, vals, costs, nc, first_i, held, nh,
                            v->shift, need, &best_i, &best_h);
            }
            if (best_h >= 0) {
                ft_choice c = {FT_CHOICE_FATE_SWAP, (int8_t)who,
                               (int8_t)best_i, (int8_t)held[best_h]};
                return c;
            }
        }
    }
    /* One short: a white chip's (shift+1). */
    if (tac->use_chips && total + 1 >= need && st->c[who].chips[0] > 0 &&
        (damage || st->c[who].chips[0] >= 2)) {
        ft_choice c = {FT_CHOICE_CHIP_SHIFT, (int8_t)who, 0, 0};
        return c;
    }
    return none;
}

static bool opportunity_choice(void *ctx, const ft_run *r, int reactor,
                               int provoker) {
    (void)ctx;
    (void)provoker;
    const ft_setup *s = r->setup;
    if (reactor < 0 || reactor >= s->n_combatants)
        return false;
    const ft_tactics *tac = &s->c[reactor].tactics;
    /* Flat-footed combatants cannot (the engine checks it too). */
    return tac->opportunity_attacks && tac->preset != FT_TAC_IDLE &&
           (r->st->c[reactor].flags & FT_F_ACTED);
}

const ft_hooks ft_policy_hooks = {NULL, fate_choice, opportunity_choice};

/* ---- Decisions remembered (ft_decision_cache) ------------------------------ */

/*
 * The words of the state a decision of `actor` reads (ft_decision_cache:
 * what they are and why they are all), for a fight of up to m (2 or
 * FT_DECIDE_MAX_N) combatants, those of absent ones 0; their number
 * (decide_words(m)) and hash. m is a constant where it is called: loops
 * of a known length, unrolled. Nobody may have a condition (the policy
 * and the checks then read the conditions, their durations and more).
 */
static inline int decide_words(int m) { return 2 + 2 * m + m / 2; }

static inline bool decision_key(const ft_state *st, int actor, int m,
                                uint64_t *w, uint64_t *out_hash) {
    int n = st->n;
    const ft_cstate *me = &st->c[actor];
    /* Two words: who asks, how many there are, whether it took a free
     * action this phase, and its ammunition; its mana. */
    uint32_t ammo;
    memcpy(&ammo, me->ammo, 4);
    w[0] = (uint64_t)(uint8_t)actor | (uint64_t)(uint8_t)n << 8 |
           (uint64_t)(me->free_phase == st->phase) << 16 |
           (uint64_t)ammo << 24;
    w[1] = ft_low_bytes(me->mana, FT_ELEMENT_COUNT);
    /* Per combatant, its fields loaded whole where they lie in a row
     * (asserted with ft_cstate), the bytes past them masked off: STUN,
     * LETHAL and their
     * temporary parts; place, flags, Aim and grapple; and in the last
     * words, four bytes each, what it holds and Aid. */
    _Static_assert(FT_DECIDE_MAX_N % 2 == 0 &&
                       FT_DECIDE_KEY_WORDS == 2 + 2 * FT_DECIDE_MAX_N +
                                                  FT_DECIDE_MAX_N / 2,
                   "two words, two per combatant, one per two combatants");
    unsigned cond = 0;
    uint64_t *held = &w[2 + 2 * m];
    for (int k = 0; k < m / 2; k++)
        held[k] = 0;
    for (int i = 0; i < m; i++) {
        uint64_t *cw = &w[2 + 2 * i];
        if (i >= n) {
            cw[0] = cw[1] = 0;
            continue;
        }
        const ft_cstate *c = &st->c[i];
        cond |= (unsigned)(uint8_t)c->n_cond;
        memcpy(&cw[0], c, 8);
        cw[1] = ft_low_bytes(&c->pos, 6) | (uint64_t)(uint8_t)c->aim << 48 |
                (uint64_t)(uint8_t)c->grappled_by << 56;
        held[i / 2] |= ft_low_bytes(&c->aim_spell, 4) << (32 * (i % 2));
    }
    if (cond)
        return false;
    uint64_t h = 0;
    for (int i = 0; i < decide_words(m); i++)
        h = (h ^ w[i]) * 0x9E3779B97F4A7C15u;
    *out_hash = h;
    return true;
}

/* The entry of dc that holds the decision with words w (hash h), or
 * NULL; m as in decision_key. */
static inline ft_decision *decision_find(ft_decision_cache *dc, int m,
                                         const uint64_t *w, uint64_t h) {
    /* The top bits of the hash: every bit of the words moves them. */
    size_t set = (size_t)(h >> (64 - FT_DECIDE_SET_BITS));
    for (int way = 0; way < 2; way++) {
        ft_decision *d = &dc->e[set][way];
        if (!d->full || d->hash != h)
            continue;
        /* The words themselves (few: no call to memcmp). */
        uint64_t diff = 0;
        for (int j = 0; j < decide_words(m); j++)
            diff |= d->w[j] ^ w[j];
        if (diff)
            continue;
        dc->recent[set] = (uint8_t)way;
        return d;
    }
    return NULL;
}

#ifndef NDEBUG
static bool same_command(const ft_command *a, const ft_command *b) {
    return a->action == b->action && a->actor == b->actor &&
           a->target == b->target && a->weapon == b->weapon &&
           a->off_hand == b->off_hand && a->shift_first == b->shift_first &&
           a->shift_to.x == b->shift_to.x && a->shift_to.y == b->shift_to.y &&
           a->dest.x == b->dest.x && a->dest.y == b->dest.y &&
           a->hold_kind == b->hold_kind && a->hold_who == b->hold_who &&
           a->hold_after == b->hold_after && a->hold_phase == b->hold_phase &&
           a->cost == b->cost && a->skill == b->skill && a->chip == b->chip &&
           a->heal_lethal == b->heal_lethal && a->condition == b->condition &&
           a->element == b->element && a->ally == b->ally && a->dtn == b->dtn &&
           a->draw_also == b->draw_also && a->drop_prone == b->drop_prone &&
           a->charge_via == b->charge_via && a->via.x == b->via.x &&
           a->via.y == b->via.y &&
           a->skill_spec == b->skill_spec && a->at_space == b->at_space &&
           a->grapple_move == b->grapple_move &&
           a->throw_land == b->throw_land;
}
#endif

/* The long way, for a decision not remembered: apart, so that the way
 * through the remembered ones stays short. */
FT_NOINLINE static void decide_long(const ft_setup *s, const ft_state *st,
                                    int actor, ft_command *out,
                                    bool *out_checked, ft_path_cache *paths,
                                    ft_attack_memo *memo) {
    ft_policy_choose_memo(s, st, actor, out, out_checked, paths, memo);
}

void ft_policy_choose_remembered(const ft_setup *s, const ft_state *st,
                                 int actor, ft_command *out, bool *out_checked,
                                 ft_path_cache *paths, ft_attack_memo *memo,
                                 ft_decision_cache *dc) {
    /* A master with a companion riding with him chooses for the pair
     * (companion.c); not remembered. Nor are the decisions of one with a
     * talent used by a command (its use is not in the words). */
    if (__builtin_expect(!s->eng.plain_decide, 0) && actor >= 0 &&
        actor < st->n) {
        if (s->c[actor].sb.tsum.used) {
            decide_long(s, st, actor, out, out_checked, paths, memo);
            return;
        }
        if (s->c[actor].n_companions > 0 &&
            ft_companion_riding(st, actor) >= 0) {
            ft_pair_choose(s, st, actor, out, out_checked, paths, memo);
            return;
        }
        if (s->c[actor].master > 0) {
            ft_companion_alone_choose(s, st, actor, out, out_checked, paths,
                                      memo);
            return;
        }
    }
    int n = st->n;
    uint64_t w[FT_DECIDE_KEY_WORDS];
    uint64_t h;
    int m = n <= 2 ? 2 : FT_DECIDE_MAX_N;
    if (!dc || !memo || n > FT_DECIDE_MAX_N || actor < 0 || actor >= n ||
        !(m == 2 ? decision_key(st, actor, 2, w, &h)
                 : decision_key(st, actor, FT_DECIDE_MAX_N, w, &h))) {
        decide_long(s, st, actor, out, out_checked, paths, memo);
        return;
    }
    if (dc->setup != s || dc->stamp != s->fast.atk.stamp) {
        /* Another setup's (or one changed since): forget them all. */
        for (int i = 0; i < FT_DECIDE_SETS; i++)
            dc->e[i][0].full = dc->e[i][1].full = false;
        dc->setup = s;
        dc->stamp = s->fast.atk.stamp;
    }
    const ft_decision *d = m == 2 ? decision_find(dc, 2, w, h)
                                  : decision_find(dc, FT_DECIDE_MAX_N, w, h);
    if (d) {
#ifndef NDEBUG
        /* The long way, which must agree. */
        decide_long(s, st, actor, out, out_checked, paths, memo);
        assert(same_command(out, &d->cmd) && *out_checked == d->checked &&
               memo->valid == d->memo_valid);
        assert(!memo->valid ||
               (memo->reusable == d->memo_reusable &&
                memo->target == d->memo_target &&
                memo->weapon == d->memo_weapon &&
                memo->flip == d->memo_flip && memo->shift == d->memo_shift &&
                memo->def_flip == d->memo_def_flip &&
                memo->def_shift == d->memo_def_shift));
#endif
        *out = d->cmd;
        *out_checked = d->checked;
        memo->valid = d->memo_valid;
        if (d->memo_valid) {
            memo->reusable = d->memo_reusable;
            memo->st = st;
            memo->n_events = st->n_events;
            memo->attacker = actor;
            memo->target = d->memo_target;
            memo->weapon = d->memo_weapon;
            memo->flip = d->memo_flip;
            memo->shift = d->memo_shift;
            memo->def_flip = d->memo_def_flip;
            memo->def_shift = d->memo_def_shift;
        }
        return;
    }
    decide_long(s, st, actor, out, out_checked, paths, memo);
    /* Remembered in the way not used last; modifiers too large to keep in
     * a decision are not remembered. */
    if (memo->valid &&
        (memo->flip < INT16_MIN || memo->flip > INT16_MAX ||
         memo->shift < INT16_MIN || memo->shift > INT16_MAX ||
         memo->def_flip < INT16_MIN || memo->def_flip > INT16_MAX ||
         memo->def_shift < INT16_MIN || memo->def_shift > INT16_MAX ||
         memo->target < INT8_MIN || memo->target > INT8_MAX ||
         memo->weapon < INT8_MIN || memo->weapon > INT8_MAX))
        return;
    size_t set = (size_t)(h >> (64 - FT_DECIDE_SET_BITS));
    int way = dc->recent[set] ^ 1;
    dc->recent[set] = (uint8_t)way;
    ft_decision *e = &dc->e[set][way];
    e->full = true;
    e->hash = h;
    memcpy(e->w, w, (size_t)decide_words(m) * sizeof w[0]);
    e->cmd = *out;
    e->checked = *out_checked;
    e->memo_valid = memo->valid;
    e->memo_reusable = memo->valid && memo->reusable;
    e->memo_target = (int8_t)(memo->valid ? memo->target : -1);
    e->memo_weapon = (int8_t)(memo->valid ? memo->weapon : -1);
    e->memo_flip = (int16_t)(memo->valid ? memo->flip : 0);
    e->memo_shift = (int16_t)(memo->valid ? memo->shift : 0);
    e->memo_def_flip = (int16_t)(memo->valid ? memo->def_flip : 0);
    e->memo_def_shift = (int16_t)(memo->valid ? memo->def_shift : 0);
}
