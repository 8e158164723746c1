/*
 * attack.c - 99 Towers attacks (seed 000 "Attacking and Defending",
 * "Combat Modifiers", "Critical Hits", "Damage", "Off-Hand Weapons and
 * Dual-Wielding", "Opportunity Attacks", "Grappling"; RULINGS 10-14, 18-22).
 *
 * ft_attack_mods gathers every modifier of one attack as it stands now
 * (pure: policies and ft_check_command ask it); ft_attack resolves the
 * attack and names each modifier in a MODIFIER fact, the attacker's just
 * before its flip and the defender's just before its own, in rules words.
 */
#include "towers_int.h"

#include <assert.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Writes into a fixed buffer, cutting what does not fit. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void say(char *buf, size_t size, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(buf, size, fmt, ap);
    va_end(ap);
}

/* ---- Weapons ---------------------------------------------------------- */

/* An unarmed strike, and what a ranged weapon's holder uses for an
 * opportunity attack (seed "Opportunity Attacks": "the butt of your rifle,
 * pistol, and so on"): damage 0 + PX, melee, reach 1. */
static const ft_weapon UNARMED_STRIKE = {
    .name = "unarmed strike",
    .damage = 0,
    .adds_px = true,
    .category = FT_CAT_PHYSICAL,
    .type = FT_DMG_NONE,
    .reach = 1,
    .keywords = FT_KW(UNARMED),
};

static bool is_ranged(const ft_weapon *w) {
    return !w->spell && w->range_increment > 0;
}

static bool is_spell_ranged(const ft_weapon *w) {
    return w->spell && (w->max_range > 0 || w->range_increment > 0);
}

static bool is_melee(const ft_weapon *w) {
    return !is_ranged(w) && !is_spell_ranged(w);
}

static int weapon_reach(const ft_weapon *w) {
    int reach = w->reach > 0 ? w->reach : 1;
    if ((w->keywords & FT_KW(REACH)) && reach < 2)
        reach = 2;
    return reach;
}

static const ft_weapon *weapon_at(const ft_setup *s, int c, int wi) {
    const ft_statblock *sb = &s->c[c].sb;
    if (wi < 0 || wi >= sb->n_weapons || wi >= FT_MAX_WEAPONS)
        return NULL;
    return &sb->weapons[wi];
}

/* An opportunity attack is a melee attack: with no melee weapon in either
 * hand, a weapon with the Unarmed keyword, else (NULL) the unarmed strike. */
static const ft_weapon *opportunity_weapon(const ft_setup *s,
                                           const ft_cstate *cs, int a,
                                           int *wi, bool *off) {
    *off = false;
    for (int hand = 0; hand < 2; hand++) {
        const ft_weapon *h = weapon_at(s, a, cs->wielded[hand]);
        if (h && is_melee(h)) {
            *wi = cs->wielded[hand];
            *off = hand == 1;
            return h;
        }
    }
    for (int i = 0; i < s->c[a].sb.n_weapons; i++) {
        if (s->c[a].sb.weapons[i].keywords & FT_KW(UNARMED)) {
            *wi = i;
            return &s->c[a].sb.weapons[i];
        }
    }
    return NULL;
}

/* The weapon of an attack: o->weapon, else the one in hand (an
 * opportunity attack: see opportunity_weapon); the unarmed strike when
 * there is none. Small enough to inline: the usual attack is the first
 * few lines. */
static inline const ft_weapon *pick_weapon(const ft_run *r, int a,
                                           const ft_attack_opts *o,
                                           int *out_wi, bool *out_off) {
    const ft_setup *s = r->setup;
    const ft_cstate *cs = &r->st->c[a];
    bool off = o->off_hand;
    int wi = o->weapon;
    if (wi < 0)
        wi = cs->wielded[off ? 1 : 0];
    const ft_weapon *w = weapon_at(s, a, wi);
    if (o->opportunity && (!w || !is_melee(w)))
        w = opportunity_weapon(s, cs, a, &wi, &off);
    if (!w) {
        w = &UNARMED_STRIKE;
        wi = -1;
    }
    *out_wi = wi;
    *out_off = off;
    return w;
}

/* ---- Threat and the melee ----------------------------------------------- */

/* harm.c's ft_in_fight and ft_cond_has, inlined (c is a valid index). */
static inline bool in_fight(const ft_state *st, int c) {
    return !(st->c[c].flags &
             (FT_F_UNCONSCIOUS | FT_F_DYING | FT_F_DEAD | FT_F_FLED));
}

static inline bool has_cond(const ft_state *st, int c, ft_condition k) {
    const ft_cstate *cs = &st->c[c];
    for (int i = 0; i < cs->n_cond && i < FT_MAX_CONDITIONS; i++)
        if (cs->cond[i].kind == (uint8_t)k)
            return true;
    return false;
}

static bool down(const ft_state *st, int c) {
    return !in_fight(st, c);
}

/* c's weapons in hand as s->fast knows them (NULL: ask the stat block). */
static inline const ft_fast_hands *hands_of(const ft_setup *s,
                                            const ft_state *st, int c) {
    unsigned w0 = (unsigned)(st->c[c].wielded[0] + 1);
    unsigned w1 = (unsigned)(st->c[c].wielded[1] + 1);
    if (!s->fast.ready || w0 > FT_MAX_WEAPONS || w1 > FT_MAX_WEAPONS)
        return NULL;
    return &s->fast.atk.hands[c][w0][w1];
}

/* ft_threatens's reach for c holding weapons w0 and w1 (indices, -1
 * none), from the stat block; 0 when it never threatens. */
FT_NOINLINE static int hands_threat(const ft_setup *s, int c, int w0,
                                    int w1) {
    /* "Creatures that are tiny or smaller do not threaten". */
    if (s->c[c].sb.size_rank <= -2)
        return 0;
    /* Anyone can strike unarmed (or with the butt of a gun) at reach 1;
     * a melee weapon in hand with Reach threatens farther. */
    int reach = 1;
    for (int hand = 0; hand < 2; hand++) {
        const ft_weapon *w = weapon_at(s, c, hand ? w1 : w0);
        if (w && is_melee(w) && weapon_reach(w) > reach)
            reach = weapon_reach(w);
    }
    return reach;
}

/* A melee weapon in each hand (seed "Off-Hand Weapons": the stance). */
FT_NOINLINE static bool hands_two_melee(const ft_setup *s, int c, int w0,
                                        int w1) {
    const ft_weapon *m = weapon_at(s, c, w0);
    const ft_weapon *o = weapon_at(s, c, w1);
    return m && o && is_melee(m) && is_melee(o);
}

static inline int threat_reach(const ft_setup *s, const ft_state *st,
                               int c) {
    const ft_fast_hands *h = hands_of(s, st, c);
    return h ? h->threat
             : hands_threat(s, c, st->c[c].wielded[0], st->c[c].wielded[1]);
}

/* ft_threatens in two halves. First what c can do now: its threat reach,
 * 0 when it threatens nobody (down, Stunned, Helpless, tiny). */
static inline int threat_now(const ft_setup *s, const ft_state *st, int c) {
    if (!in_fight(st, c))
        return 0;
    if (st->c[c].n_cond > 0 && (has_cond(st, c, FT_COND_STUNNED) ||
                                has_cond(st, c, FT_COND_HELPLESS)))
        return 0;
    return threat_reach(s, st, c);
}

/* Then the places: is target (not fled) within c's reach, and no wall in
 * between? */
static inline bool within_threat(const ft_setup *s, const ft_state *st,
                                 int c, int target, int reach) {
    fray_footprint fc = ft_fp(s, st, c), ft = ft_fp(s, st, target);
    if (ft_range(fc, ft) > reach)
        return false;
    /* A wall in between: no melee attack there (fray/grid.h). */
    if (s->has_map && ft_geo_cover(s, fc, ft) == FRAY_COVER_TOTAL)
        return false;
    return true;
}

bool ft_threatens(const ft_run *r, int c, int target) {
    const ft_setup *s = r->setup;
    const ft_state *st = r->st;
    if (c < 0 || target < 0 || c >= st->n || target >= st->n || c == target)
        return false;
    if (st->c[target].flags & FT_F_FLED)
        return false;
    int reach = threat_now(s, st, c);
    return reach > 0 && within_threat(s, st, c, target, reach);
}

/* The walk's look for opportunity attacks (issue 16, "This round: the
 * crowd's walk and attack"): ft_threatens's first half (threat_now, the
 * footprint) of every e of cand read once, while the state is the same
 * but for the target's place. */
void ft_walk_look_init(const ft_run *r, uint32_t cand, int target,
                       ft_walk_look *w) {
    const ft_setup *s = r->setup;
    const ft_state *st = r->st;
    w->who = 0;
    w->target = target;
    w->many = false;
    if (target < 0 || target >= st->n || (st->c[target].flags & FT_F_FLED))
        return;
    w->tfp = ft_fp(s, st, target);
    int tside = w->tfp.side < 1 ? 1 : w->tfp.side > 5 ? 5 : w->tfp.side;
    cand &= ~(1u << target);
    if (st->n < 32)
        cand &= (1u << st->n) - 1u;
    /* (a few: each measured at every look, the places not kept) */
    w->many = __builtin_popcount(cand) > 4;
    if (w->many) {
        memset(w->at_x, 0, sizeof w->at_x);
        memset(w->at_y, 0, sizeof w->at_y);
        memset(w->lim, 0xff, sizeof w->lim); /* -1 each (two's complement) */
    }
    for (; cand; cand &= cand - 1) {
        int e = __builtin_ctz(cand);
        int reach = threat_now(s, st, e);
        if (reach <= 0)
            continue;
        w->who |= 1u << e;
        w->reach[e] = (int16_t)reach;
        w->fp[e] = ft_fp(s, st, e);
        /* ft_range is at least the places' distance across or along less
         * the wider (clamped) side plus one (ft__gap). */
        if (!w->many)
            continue;
        int side = w->fp[e].side < 1 ? 1 : w->fp[e].side > 5 ? 5 : w->fp[e].side;
        w->at_x[e] = w->fp[e].at.x;
        w->at_y[e] = w->fp[e].at.y;
        w->lim[e] = (int16_t)(reach + (side > tside ? side : tside) - 1);
    }
}

#if defined(__SSE2__) && defined(__GNUC__)
/* Of the 32 places (xs[i], ys[i]), a bit each for those farther than
 * their limit from (x, y) across or along: lims[i], or `lim` for all when
 * lims is NULL. Eight places at a time (walk_look_near, near_mask). */
static inline uint32_t far_bits(const int16_t *xs, const int16_t *ys, int16_t x,
                                int16_t y, const int16_t *lims, int16_t lim) {
    _Static_assert(FT_MAX_COMBATANTS == 32, "four rows of eight places");
    const __m128i zero = _mm_setzero_si128();
    const __m128i vx = _mm_set1_epi16(x);
    const __m128i vy = _mm_set1_epi16(y);
    const __m128i vlim = _mm_set1_epi16(lim);
    uint32_t far = 0;
    for (int k = 0; k < 2; k++) {
        __m128i f[2];
        for (int h = 0; h < 2; h++) {
            int i = 16 * k + 8 * h;
            __m128i dx = _mm_subs_epi16(
                _mm_loadu_si128((const __m128i *)(const void *)&xs[i]), vx);
            __m128i dy = _mm_subs_epi16(
                _mm_loadu_si128((const __m128i *)(const void *)&ys[i]), vy);
            __m128i l = lims ? _mm_loadu_si128((const __m128i *)(const void *)&lims[i])
                             : vlim;
            dx = _mm_max_epi16(dx, _mm_subs_epi16(zero, dx));
            dy = _mm_max_epi16(dy, _mm_subs_epi16(zero, dy));
            f[h] = _mm_or_si128(_mm_cmpgt_epi16(dx, l), _mm_cmpgt_epi16(dy, l));
        }
        far |= (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(f[0], f[1]))
               << (16 * k);
    }
    return far;
}
#endif

/* Those of w->who whose place is within w->lim of `at` across and
 * along, a bit each: the others are out of reach (ft_walk_look.lim). */
static inline uint32_t walk_look_near(const ft_walk_look *w, fray_pos at) {
#if defined(__SSE2__) && defined(__GNUC__)
    return w->who & ~far_bits(w->at_x, w->at_y, at.x, at.y, w->lim, 0);
#else
    uint32_t near = 0;
    for (uint32_t cand = w->who; cand; cand &= cand - 1) {
        int e = __builtin_ctz(cand);
        int dx = w->at_x[e] - at.x, dy = w->at_y[e] - at.y;
        dx = dx < 0 ? -dx : dx;
        dy = dy < 0 ? -dy : dy;
        if ((dx > dy ? dx : dy) <= w->lim[e])
            near |= 1u << e;
    }
    return near;
#endif
}

/* Then its second half for the target at `at`: those of w->who within
 * reach with no wall in between, a bit each. */
uint32_t ft_walk_look_at(const ft_run *r, const ft_walk_look *w,
                         fray_pos at) {
    const ft_setup *s = r->setup;
    fray_footprint ft = w->tfp;
    ft.at = at;
    uint32_t out = 0;
    /* Speed (issue 16, "This round: the crowd's engine step"): only those
     * whose places are near enough are measured (walk_look_near). */
    uint32_t near = w->many ? walk_look_near(w, at) : w->who;
#ifndef NDEBUG
    /* The long way: everyone of w->who measured; those ruled out are out
     * of reach. */
    for (uint32_t cand = w->who & ~near; cand; cand &= cand - 1) {
        int e = __builtin_ctz(cand);
        assert(ft_range(w->fp[e], ft) > w->reach[e]);
    }
#endif
    for (uint32_t cand = near; cand; cand &= cand - 1) {
        int e = __builtin_ctz(cand);
        if (ft_range(w->fp[e], ft) > w->reach[e])
            continue;
        if (s->has_map && ft_geo_cover(s, w->fp[e], ft) == FRAY_COVER_TOTAL)
            continue;
        out |= 1u << e;
    }
    return out;
}

/* How many bits of m are set. */
static inline int bit_count(uint32_t m) {
#if defined(__GNUC__) && defined(__POPCNT__)
    return __builtin_popcount(m);
#else
    /* (without the instruction, a call to libgcc's: this is shorter) */
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    m = (m + (m >> 4)) & 0x0f0f0f0fu;
    return (int)((m * 0x01010101u) >> 24);
#endif
}

/* The index of the lowest bit set in m (not 0). */
static inline int lowest_bit(uint32_t m) {
#if defined(__GNUC__)
    return __builtin_ctz(m);
#else
    int i = 0;
    while (!(m & 1u)) {
        m >>= 1;
        i++;
    }
    return i;
#endif
}

/*
 * Seed "Outnumbering": who is in the same melee as attacker a. Start with
 * the enemies a threatens; then the friends who threaten each of those
 * enemies; then the enemies who threaten those friends; and so on, each
 * counted once. Blinded combatants do not count (rules-facts.md); fray
 * also leaves them out of the chain. Returns the friends (a included
 * unless blinded) and the enemies counted.
 *
 * compute() calls it once it knows that a's target t stands dist_t away
 * with no wall in between (the places within_threat looks at), so that
 * whether a threatens t needs only a's reach.
 */
static void melee_counts_search(const ft_run *r, int a, int t, int dist_t,
                                int *out_friends, int *out_foes) {
    const ft_setup *s = r->setup;
    const ft_state *st = r->st;
    /* Who may still join (in the fight, not blinded, not counted yet) and
     * who is on a's side, one bit each (st->n <= 32). */
    uint32_t open = 0, mine = 0;
    int side = s->c[a].side;
    for (int y = 0; y < st->n; y++) {
        if (!down(st, y) && !has_cond(st, y, FT_COND_BLINDED))
            open |= 1u << y;
        if (s->c[y].side == side)
            mine |= 1u << y;
    }
    open &= ~(1u << a);
    int friends = has_cond(st, a, FT_COND_BLINDED) ? 0 : 1, foes = 0;
    int queue[FT_MAX_COMBATANTS], head = 0, tail = 0;
    /* a: the enemies it threatens, in order. */
    int reach_a = threat_now(s, st, a);
    uint32_t enemies = reach_a > 0 ? open & ~mine : 0;
    for (uint32_t cand = enemies; cand; cand &= cand - 1) {
        int y = lowest_bit(cand);
        if (y == t ? dist_t <= reach_a : within_threat(s, st, a, y, reach_a)) {
            open &= ~(1u << y);
            queue[tail++] = y;
            foes++;
        }
    }
    /* Then each one counted in turn: those of the other side who threaten
     * it (a snapshot of the candidates is the same: the ones x adds come
     * after the one it looks at). When no friend of a may join these
     * enemies, nobody more can: only enemies are in the queue now. */
    bool more = (open & mine) != 0;
    while (more && head < tail) {
        int x = queue[head++];
        bool x_friend = (mine >> x) & 1u;
        for (uint32_t cand = open & (x_friend ? ~mine : mine); cand;
             cand &= cand - 1) {
            int y = lowest_bit(cand);
            if (!ft_threatens(r, y, x))
                continue;
            open &= ~(1u << y);
            queue[tail++] = y;
            if (!x_friend)
                friends++;
            else
                foes++;
        }
    }
    *out_friends = friends;
    *out_foes = foes;
}

/* ---- Who threatens whom, kept (ft_threat_cache; issue 16) --------------- */

/* What c's threat reads, in one word: its place, whether it is in the
 * fight, Stunned or Helpless (threat_now), Blinded (the melee chains),
 * and its weapons in hand (its reach). */
static inline uint64_t threat_sig(const ft_state *st, int c) {
    const ft_cstate *cs = &st->c[c];
    uint64_t bits = in_fight(st, c) ? 1u : 0u;
    /* has_cond's three questions in one pass over the conditions. */
    int nc = cs->n_cond < FT_MAX_CONDITIONS ? cs->n_cond : FT_MAX_CONDITIONS;
    for (int i = 0; i < nc; i++) {
        uint8_t k = cs->cond[i].kind;
        if (k == (uint8_t)FT_COND_STUNNED || k == (uint8_t)FT_COND_HELPLESS)
            bits |= 2u;
        else if (k == (uint8_t)FT_COND_BLINDED)
            bits |= 4u;
    }
    return (uint64_t)(uint16_t)cs->pos.x | (uint64_t)(uint16_t)cs->pos.y << 16 |
           (uint64_t)(uint8_t)cs->wielded[0] << 32 |
           (uint64_t)(uint8_t)cs->wielded[1] << 40 | bits << 48 |
           (uint64_t)1 << 63; /* never the zero of an empty cache */
}

/* y threatens x by the places kept (reach and footprints), the range
 * between them `range`. */
static inline bool kept_threat(const ft_setup *s, const ft_threat_cache *tc,
                               int y, int x, int range) {
    int reach = tc->reach[y];
    if (reach <= 0 || range > reach)
        return false;
    return !(s->has_map &&
             ft_geo_cover(s, tc->fp[y], tc->fp[x]) == FRAY_COVER_TOTAL);
}

static inline void kept_set(ft_threat_cache *tc, int y, int x, bool on) {
    uint32_t by = 1u << y, bx = 1u << x;
    if (on) {
        tc->threatens[y] |= bx;
        tc->threatened_by[x] |= by;
    } else {
        tc->threatens[y] &= ~bx;
        tc->threatened_by[x] &= ~by;
    }
}

/* Brings tc up to date with the state: the rows and columns of those
 * whose signature changed (all of them when the setup or the number of
 * combatants did). */
static void threat_refresh_sigs(const ft_setup *s, const ft_state *st,
                                ft_threat_cache *tc, uint32_t look);

/* The kept threats already hold st: the same setup, number of
 * combatants and count of changes (ft_state.threat_gen) as when last
 * brought up to date. */
static inline bool threat_gen_holds(const ft_setup *s, const ft_state *st,
                                    const ft_threat_cache *tc) {
    return st->threat_gen != 0 && tc->gen == st->threat_gen &&
           tc->gen_st == st && tc->setup == s &&
           tc->stamp == s->fast.atk.stamp && tc->n == st->n;
}

/* Brings tc up to date: nothing to do when the count of changes says the
 * state is the one it holds (debug builds check every signature all the
 * same), else by the signatures. */
static void threat_refresh(const ft_setup *s, const ft_state *st,
                           ft_threat_cache *tc) {
    if (threat_gen_holds(s, st, tc)) {
#ifndef NDEBUG
        for (int c = 0; c < st->n; c++)
            assert(threat_sig(st, c) == tc->sig[c]);
#endif
        return;
    }
    /* Since the count these were brought up to date at, only places
     * changed one at a time (ft_threat_touch_one): only those combatants'
     * signatures are read again (issue 16, "This round: the crowds'
     * search kept"). */
    uint32_t look = ~0u;
    if (st->threat_gen != 0 && tc->gen != 0 && tc->gen_st == st &&
        tc->gen < st->threat_gen && st->threat_all_gen <= tc->gen &&
        tc->setup == s && tc->stamp == s->fast.atk.stamp && tc->n == st->n)
        look = st->threat_moved;
    threat_refresh_sigs(s, st, tc, look);
#ifndef NDEBUG
    for (int c = 0; c < st->n; c++)
        assert(threat_sig(st, c) == tc->sig[c]);
#endif
    tc->gen_st = st;
    tc->gen = st->threat_gen;
}

bool ft_threat_kept_current(const ft_run *r, ft_threat_cache *tc) {
    const ft_setup *s = r->setup;
    const ft_state *st = r->st;
    if (st->n > 32)
        return true; /* (never kept) */
    threat_refresh(s, st, tc);
    for (int c = 0; c < st->n; c++)
        if (threat_sig(st, c) != tc->sig[c])
            return false;
    /* And what the signatures keep, against a fresh table. */
    ft_threat_cache fresh;
    memset(&fresh, 0, sizeof fresh);
    threat_refresh_sigs(s, st, &fresh, ~0u);
    for (int c = 0; c < st->n; c++)
        if (fresh.threatens[c] != tc->threatens[c] ||
            fresh.threatened_by[c] != tc->threatened_by[c] ||
            fresh.reach[c] != tc->reach[c])
            return false;
    return fresh.live == tc->live && fresh.blinded == tc->blinded;
}

/* Those among the first n whose kept place is within lim of c's across
 * and along, a bit each: the one pass over the places. */
static inline uint32_t near_scan(const ft_threat_cache *tc, int c, int lim,
                                 int n) {
    int cx = tc->at_x[c] - lim, cy = tc->at_y[c] - lim;
    unsigned span = 2u * (unsigned)lim;
    uint32_t near = 0;
    for (int y = 0; y < n; y++)
        near |= (uint32_t)((unsigned)(tc->at_x[y] - cx) <= span &&
                           (unsigned)(tc->at_y[y] - cy) <= span)
                << y;
    return near;
}

/* near_scan eight places at a time where the machine can (SSE2: the
 * places are 16-bit; the differences saturate, which only a place
 * 32,767 spaces away could reach, and then it is far all the same). */
static inline uint32_t near_mask(const ft_threat_cache *tc, int c, int lim,
                                 int n) {
#if defined(__SSE2__) && defined(__GNUC__)
    uint32_t near = ~far_bits(tc->at_x, tc->at_y, tc->at_x[c], tc->at_y[c], NULL,
                              (int16_t)lim);
    if (n < 32)
        near &= (1u << n) - 1u;
    assert(near == near_scan(tc, c, lim, n));
    return near;
#else
    return near_scan(tc, c, lim, n);
#endif
}

/* Combatant c's row and column of the kept threats set again among
 * those in `near` (c's cleared before), when every footprint is a single
 * space (tc->side_hi 1): the range between two single spaces is their
 * distance across and along, the longer plus half the shorter (ft_range
 * with both sides 1), read from the kept places without the footprints'
 * clamps; each way then as kept_threat has it (its own reach, then the
 * wall). Issue 16, "This round: the attack after a Charge": the Charge's
 * modifiers bring the charger's row up to date here. Debug builds check
 * every range against ft_range and every answer against kept_threat. */
static void threat_row_single(const ft_setup *s, ft_threat_cache *tc, int c,
                              uint32_t near) {
    int cx = tc->at_x[c], cy = tc->at_y[c];
    int reach_c = tc->reach[c];
    /* A small map's every pair (ft_geo_entry's table): c's space looked
     * up once; -1: the long way (ft_geo_cover). */
    int w = s->map.w, h = s->map.h;
    bool pairs = s->has_map && s->fast.ready && s->fast.pairs;
    int ic = pairs && (unsigned)cx < (unsigned)w && (unsigned)cy < (unsigned)h
                 ? cy * w + cx
                 : -1;
    for (uint32_t m = near; m; m &= m - 1) {
        int y = lowest_bit(m);
        int reach_y = tc->reach[y];
        if (reach_c <= 0 && reach_y <= 0)
            continue;
        int dx = cx - tc->at_x[y], dy = cy - tc->at_y[y];
        dx = dx < 0 ? -dx : dx;
        dy = dy < 0 ? -dy : dy;
        int range = dx > dy ? dx + dy / 2 : dy + dx / 2;
        assert(tc->fp[c].side == 1 && tc->fp[y].side == 1 &&
               range == ft_range(tc->fp[c], tc->fp[y]));
        bool cy_on = reach_c > 0 && range <= reach_c;
        bool yc_on = reach_y > 0 && range <= reach_y;
        if (s->has_map && (cy_on || yc_on)) {
            int yx = tc->at_x[y], yy = tc->at_y[y];
            int iy = ic >= 0 && (unsigned)yx < (unsigned)w &&
                             (unsigned)yy < (unsigned)h
                         ? yy * w + yx
                         : -1;
            unsigned e_cy = iy >= 0 ? s->fast.pair[ic][iy] : 0u;
            unsigned e_yc = iy >= 0 ? s->fast.pair[iy][ic] : 0u;
            fray_cover cv_cy = (e_cy & FT_GEO_KNOWN)
                                   ? (fray_cover)(e_cy & 3u)
                                   : ft_geo_cover(s, tc->fp[c], tc->fp[y]);
            fray_cover cv_yc = (e_yc & FT_GEO_KNOWN)
                                   ? (fray_cover)(e_yc & 3u)
                                   : ft_geo_cover(s, tc->fp[y], tc->fp[c]);
            assert(cv_cy == ft_geo_cover(s, tc->fp[c], tc->fp[y]) &&
                   cv_yc == ft_geo_cover(s, tc->fp[y], tc->fp[c]));
            cy_on = cy_on && cv_cy != FRAY_COVER_TOTAL;
            yc_on = yc_on && cv_yc != FRAY_COVER_TOTAL;
        }
        assert(cy_on == kept_threat(s, tc, c, y, range) &&
               yc_on == kept_threat(s, tc, y, c, range));
        if (cy_on)
            kept_set(tc, c, y, true);
        if (yc_on)
            kept_set(tc, y, c, true);
    }
}

/* threat_refresh by the signatures alone: of the combatants in `look`
 * (a bit each; ~0u: all), the others known unchanged. */
static void threat_refresh_sigs(const ft_setup *s, const ft_state *st,
                                ft_threat_cache *tc, uint32_t look) {
    int n = st->n;
    bool all = tc->setup != s || tc->stamp != s->fast.atk.stamp || tc->n != n;
    if (all) {
        memset(tc, 0, sizeof *tc);
        tc->setup = s;
        tc->stamp = s->fast.atk.stamp;
        tc->n = n;
        for (int c = 0; c < n; c++)
            for (int y = 0; y < n; y++)
                if (s->c[y].side == s->c[c].side)
                    tc->side_mask[c] |= 1u << y;
    }
    uint32_t dirty = 0;
    if (all)
        look = ~0u;
    if (n < 32)
        look &= (1u << n) - 1u;
    /* (only those in look: a walk's steps leave a few) */
    for (uint32_t todo = look; todo; todo &= todo - 1) {
        int c = lowest_bit(todo);
        uint64_t sig = threat_sig(st, c);
        if (sig == tc->sig[c])
            continue;
        tc->sig[c] = sig;
        dirty |= 1u << c;
        tc->reach[c] = (int16_t)threat_now(s, st, c);
        if (tc->reach[c] > tc->reach_hi)
            tc->reach_hi = tc->reach[c];
        tc->fp[c] = ft_fp(s, st, c);
        if (tc->fp[c].side > tc->side_hi)
            tc->side_hi = tc->fp[c].side;
        tc->at_x[c] = tc->fp[c].at.x;
        tc->at_y[c] = tc->fp[c].at.y;
        uint32_t bit = 1u << c;
        tc->live &= ~bit;
        tc->blinded &= ~bit;
        if (sig & ((uint64_t)4 << 48))
            tc->blinded |= bit;
        else if (sig & ((uint64_t)1 << 48))
            tc->live |= bit;
    }
    for (uint32_t d = dirty; d; d &= d - 1) {
        int c = lowest_bit(d);
        uint32_t bc = 1u << c;
        /* c's row and column cleared, then only the pairs within reach
         * set again (most are far apart: a subtraction rules them out,
         * a footprint being at most 5 spaces wide). */
        for (uint32_t m = tc->threatens[c]; m; m &= m - 1)
            tc->threatened_by[lowest_bit(m)] &= ~bc;
        tc->threatens[c] = 0;
        for (uint32_t m = tc->threatened_by[c]; m; m &= m - 1)
            tc->threatens[lowest_bit(m)] &= ~bc;
        tc->threatened_by[c] = 0;
        /* Those within reach_hi + side_hi - 1 spaces across and along, in
         * one pass over the places (issue 16, "This round: a crowd's
         * decision and turn"): nobody's reach is above reach_hi nor a
         * footprint's side above side_hi, and the range between two
         * footprints is at least their places' distance across or along
         * less the wider side plus one (ft__gap), so the others are out
         * of reach. */
        int slack = tc->side_hi - 1;
        int lim = tc->reach_hi + slack;
        uint32_t near = near_mask(tc, c, lim, n);
#ifndef NDEBUG
        for (int y = 0; y < n; y++) {
            int reach = tc->reach[c] > tc->reach[y] ? tc->reach[c] : tc->reach[y];
            assert(tc->reach[y] <= tc->reach_hi && tc->fp[y].side <= tc->side_hi);
            assert((near >> y & 1u) || y == c || reach <= 0 ||
                   ft_range(tc->fp[c], tc->fp[y]) > reach);
        }
#endif
        if (tc->side_hi == 1) {
            threat_row_single(s, tc, c, near & ~bc);
            continue;
        }
        for (uint32_t m = near & ~bc; m; m &= m - 1) {
            int y = lowest_bit(m);
            int reach = tc->reach[c] > tc->reach[y] ? tc->reach[c] : tc->reach[y];
            if (reach <= 0)
                continue;
            int dx = tc->fp[c].at.x - tc->fp[y].at.x;
            int dy = tc->fp[c].at.y - tc->fp[y].at.y;
            dx = dx < 0 ? -dx : dx;
            dy = dy < 0 ? -dy : dy;
            if ((dx > dy ? dx : dy) - slack > reach)
                continue;
            int range = ft_range(tc->fp[c], tc->fp[y]); /* (symmetric) */
            if (range > reach)
                continue;
            if (kept_threat(s, tc, c, y, range))
                kept_set(tc, c, y, true);
            if (kept_threat(s, tc, y, c, range))
                kept_set(tc, y, c, true);
        }
    }
}

/* melee_counts_search's answer from the kept threats: the same chain,
 * a set at a time (who joins does not depend on the order). */
static void melee_counts_kept(const ft_run *r, ft_threat_cache *tc, int a,
                              int t, int dist_t, int *out_friends,
                              int *out_foes) {
    threat_refresh(r->setup, r->st, tc);
    uint32_t mine = tc->side_mask[a];
    uint32_t open = tc->live & ~(1u << a);
    int friends = (tc->blinded >> a) & 1u ? 0 : 1, foes = 0;
    uint32_t enemies = tc->reach[a] > 0 ? open & ~mine & tc->threatens[a] : 0;
    /* t as melee_counts_search takes it: by its distance alone (the
     * callers have looked at the wall, or ask as if there were none). */
    if (tc->reach[a] > 0 && t >= 0 && t < tc->n && t != a &&
        ((open & ~mine) >> t & 1u)) {
        if (dist_t <= tc->reach[a])
            enemies |= 1u << t;
        else
            enemies &= ~(1u << t);
    }
    open &= ~enemies;
    foes += bit_count(enemies);
    while (enemies && (open & mine)) {
        uint32_t join = 0;
        for (uint32_t m = enemies; m; m &= m - 1)
            join |= tc->threatened_by[lowest_bit(m)];
        join &= open & mine;
        open &= ~join;
        friends += bit_count(join);
        enemies = 0;
        for (uint32_t m = join; m; m &= m - 1)
            enemies |= tc->threatened_by[lowest_bit(m)];
        enemies &= open & ~mine;
        open &= ~enemies;
        foes += bit_count(enemies);
    }
    *out_friends = friends;
    *out_foes = foes;
}

/* Seed "Outnumbering" (melee_counts_search): from the kept threats when
 * the run has them, else searched. */
static void melee_counts(const ft_run *r, int a, int t, int dist_t,
                         int *out_friends, int *out_foes) {
    ft_threat_cache *tc =
        r->threat ? r->threat : r->paths ? &r->paths->threat : NULL;
    if (!tc || r->st->n > 32) {
        melee_counts_search(r, a, t, dist_t, out_friends, out_foes);
        return;
    }
    melee_counts_kept(r, tc, a, t, dist_t, out_friends, out_foes);
#ifndef NDEBUG
    int f2, e2;
    melee_counts_search(r, a, t, dist_t, &f2, &e2);
    assert(f2 == *out_friends && e2 == *out_foes);
#endif
}

/* issue 7: `when: outnumbering` (talent.c): a is in a melee with t
 * and its side has more characters in it (seed 000 "Outnumbering"). */
FT_NOINLINE bool ft_outnumbering(const ft_run *r, int a, int t) {
    const ft_setup *s = r->setup;
    const ft_state *st = r->st;
    if (a < 0 || a >= st->n || t < 0 || t >= st->n)
        return false;
    int friends, foes;
    melee_counts(r, a, t, ft_range(ft_fp(s, st, a), ft_fp(s, st, t)), &friends,
                 &foes);
    return foes > 0 && friends > foes;
}

/* ---- Modifiers ---------------------------------------------------------- */

typedef struct mod_entry {
    bool def;        /* the defender's flip */
    int shift, flip;
    char why[24];
} mod_entry;

typedef struct mod_list {
    int n;
    mod_entry e[40];
} mod_list;

/* The modifiers so far, and where their words go. A plain value whose
 * address no function keeps: compute() holds the sums in registers. */
typedef struct mods_ctx {
    int flip, shift;         /* the attacker's flip */
    int def_flip, def_shift; /* the defender's */
    mod_list *list;          /* NULL: nobody asked for the reasons */
} mods_ctx;

static inline void mods_merge(mods_ctx *x, mods_ctx y) {
    x->flip += y.flip;
    x->shift += y.shift;
    x->def_flip += y.def_flip;
    x->def_shift += y.def_shift;
}

static inline void mods_store(const mods_ctx *x, ft_mods *m) {
    m->flip = x->flip;
    m->shift = x->shift;
    m->def_flip = x->def_flip;
    m->def_shift = x->def_shift;
}

/* The reason of a modifier, in words, when someone asked for them. */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static void add_why(mod_list *l, bool def, int shift, int flip,
                    const char *fmt, ...) {
    if (l->n >= (int)(sizeof l->e / sizeof l->e[0]))
        return;
    mod_entry *e = &l->e[l->n++];
    e->def = def;
    e->shift = shift;
    e->flip = flip;
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(e->why, sizeof e->why, fmt, ap);
    va_end(ap);
}

/* One modifier: shift and flip mods on the attacker's flip (or the
 * defender's, def). The reason's words (and their arguments) are only
 * worked out when x->list asks for them: simulations never do. */
#define add(x, def, sh_, fl_, ...)                                                \
    do {                                                                       \
        int add_s_ = (sh_), add_f_ = (fl_);                                     \
        if (add_s_ != 0 || add_f_ != 0) {                                      \
            if (def) {                                                         \
                (x)->def_shift += add_s_;                                      \
                (x)->def_flip += add_f_;                                       \
            } else {                                                           \
                (x)->shift += add_s_;                                          \
                (x)->flip += add_f_;                                           \
            }                                                                  \
            if ((x)->list)                                                     \
                add_why((x)->list, (def), add_s_, add_f_, __VA_ARGS__);        \
        }                                                                      \
    } while (0)

/* The attack cannot be made; why, unless nobody reads it (quiet). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void impossible(ft_mods *m, bool quiet, const char *fmt, ...) {
    m->impossible = true;
    if (quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(m->why, sizeof m->why, fmt, ap);
    va_end(ap);
}

static const char *const cond_names[FT_CONDITION_COUNT] = {
#define FT__E(id, name, major, has_x) name,
    FT_CONDITION_LIST(FT__E)
#undef FT__E
};

static const char *size_name(int rank) {
    static const char *const names[] = {"Minuscule", "Diminutive", "Tiny",
                                        "Small",     "Medium",     "Large",
                                        "Huge",      "Gargantuan", "Colossal"};
    if (rank < -4)
        rank = -4;
    if (rank > 4)
        rank = 4;
    return names[rank + 4];
}

static int highest_elevation(const fray_grid *g, fray_footprint fp) {
    int best = INT_MIN;
    for (int dy = 0; dy < fp.side; dy++)
        for (int dx = 0; dx < fp.side; dx++) {
            fray_pos p = {(int16_t)(fp.at.x + dx), (int16_t)(fp.at.y + dy)};
            /* fray_grid_in, inlined. */
            if (p.x >= 0 && p.y >= 0 && p.x < g->w && p.y < g->h &&
                g->elevation[p.y][p.x] > best)
                best = g->elevation[p.y][p.x];
        }
    return best == INT_MIN ? 0 : best;
}

static bool occupies(fray_footprint fp, fray_pos p) {
    return p.x >= fp.at.x && p.y >= fp.at.y && p.x < fp.at.x + fp.side &&
           p.y < fp.at.y + fp.side;
}

/* The two spaces, one of each footprint, nearest each other. */
static void nearest_spaces(fray_footprint a, fray_footprint b, fray_pos *pa,
                           fray_pos *pb) {
    int best = INT_MAX;
    for (int ay = 0; ay < a.side; ay++)
        for (int ax = 0; ax < a.side; ax++)
            for (int by = 0; by < b.side; by++)
                for (int bx = 0; bx < b.side; bx++) {
                    fray_pos p = {(int16_t)(a.at.x + ax), (int16_t)(a.at.y + ay)};
                    fray_pos q = {(int16_t)(b.at.x + bx), (int16_t)(b.at.y + by)};
                    int d = fray_grid_count(p, q);
                    if (d < best) {
                        best = d;
                        *pa = p;
                        *pb = q;
                    }
                }
}

/* Standard ranks of the best advantage and the worst disadvantage that
 * apply (rules-facts.md: not cumulative). */
static mods_ctx advantages(mod_list *list, const ft_statblock *sb, bool def,
                           const ft_applies *what, int n_what) {
    mods_ctx x = {0, 0, 0, 0, list};
    int best = 0, worst = 0;
    const char *bn = "", *wn = "";
    for (int i = 0; i < sb->n_advantages; i++) {
        const ft_advantage *adv = &sb->advantages[i];
        bool applies = adv->applies == FT_APPLIES_ALL;
        for (int k = 0; k < n_what; k++)
            applies = applies || adv->applies == what[k];
        if (!applies)
            continue;
        if (adv->rank > best) {
            best = adv->rank;
            bn = adv->name;
        }
        if (adv->rank < worst) {
            worst = adv->rank;
            wn = adv->name;
        }
    }
    int ranks[2] = {best, worst};
    const char *names[2] = {bn, wn};
    for (int k = 0; k < 2; k++) {
        int rk = ranks[k] < 0 ? -ranks[k] : ranks[k];
        int sign = ranks[k] < 0 ? -1 : 1;
        if (rk == 0)
            continue;
        add(&x, def, (rk == 1 || rk >= 3) ? sign : 0, rk >= 2 ? sign : 0,
            "%s", names[k]);
    }
    return x;
}

/* Damage advantages: +rank STUN for the best, rank for the worst (fray's
 * choice: the standard ranks are written for flips). */
int ft_damage_advantage(const ft_statblock *sb) {
    int best = 0, worst = 0;
    for (int i = 0; i < sb->n_advantages; i++) {
        const ft_advantage *adv = &sb->advantages[i];
        if (adv->applies != FT_APPLIES_DAMAGE)
            continue;
        if (adv->rank > best)
            best = adv->rank;
        if (adv->rank < worst)
            worst = adv->rank;
    }
    return best + worst + sb->tsum.damage;
}

/* compute()'s modifiers that depend only on the setup, one function each:
 * the long way adds them in their places among the others (the words come
 * in that order), ft_fast_prepare sums them once for the short way. */
static inline void weapon_bonus_mod(mods_ctx *x, const ft_weapon *w) {
    if (w->attack_bonus)
        add(x, false, 0, w->attack_bonus, "%s %+d", w->name, w->attack_bonus);
}

/* Size Modifiers: the inverse of the size rank, on <PA>... */
static inline void attacker_size_mod(mods_ctx *x, const ft_statblock *asb,
                                     bool spell, bool perception) {
    if (!spell && !perception && asb->size_rank != 0)
        add(x, false, -asb->size_rank, 0, "size: %s", size_name(asb->size_rank));
}

static inline void attack_advantages_mod(mods_ctx *x, const ft_statblock *asb,
                                         bool spell, bool melee) {
    ft_applies what[2] = {FT_APPLIES_ATTACK,
                          spell   ? FT_APPLIES_SPELL_ATTACK
                          : melee ? FT_APPLIES_MELEE_ATTACK
                                  : FT_APPLIES_RANGED_ATTACK};
    mods_merge(x, advantages(x->list, asb, false, what, 2));
}

/* ...and the defender's on <PD> or <ID>. */
static inline void defender_size_mod(mods_ctx *x, const ft_statblock *tsb,
                                     bool perception) {
    if (!perception && tsb->size_rank != 0)
        add(x, true, -tsb->size_rank, 0, "size: %s", size_name(tsb->size_rank));
}

static inline void armor_mod(mods_ctx *x, const ft_statblock *tsb, bool spell) {
    if (!spell && tsb->has_armor && tsb->armor.pd_shift)
        add(x, true, tsb->armor.pd_shift, 0, "%s", tsb->armor.name);
}

static inline void defense_advantages_mod(mods_ctx *x, const ft_statblock *tsb,
                                          bool spell) {
    ft_applies what[2] = {FT_APPLIES_DEFENSE,
                          spell ? FT_APPLIES_INTANGIBLE_DEFENSE
                                : FT_APPLIES_PHYSICAL_DEFENSE};
    mods_merge(x, advantages(x->list, tsb, true, what, 2));
}

/* Talents' shifts and flips that depend only on the setup (talent.c):
 * the attacker's with weapon w (def false), or the defender's against an
 * attack of that kind (def true; w NULL). */
FT_NOINLINE static void talent_setup_mod(mods_ctx *x, const ft_statblock *sb,
                                         const ft_weapon *w, bool def,
                                         bool spell, bool melee) {
    if (sb->tsum.no_add_up)
        return; /* all of them in talent_state_mod */
    for (int i = 0; i < sb->n_talents; i++) {
        const ft_talent *tl = &sb->talents[i];
        for (int k = 0; k < tl->n_effects; k++) {
            const ft_talent_effect *e = &tl->e[k];
            if (e->when > FT_TW_WIELDING ||
                !ft_talent_on_attack(e, def, spell, melee) ||
                !ft_talent_holds(NULL, NULL, -1, -1, w, e))
                continue;
            int v = e->value;
            add(x, def, e->kind == FT_TE_SHIFT ? v : 0,
                e->kind == FT_TE_FLIP ? v : 0, "%s", tl->name);
        }
    }
}

/* Those that read the fight's state, of combatant self (the attacker, with
 * weapon w; or the defender, def true) against other. */
FT_NOINLINE static void talent_state_mod(mods_ctx *x, const ft_run *r, int self,
                                         int other, const ft_weapon *w,
                                         bool def, bool spell, bool melee) {
    const ft_statblock *sb = &r->setup->c[self].sb;
    if (sb->tsum.no_add_up) {
        /* Option talents-add-up off: per kind (shift, flip) the best and
         * the worst that hold, as advantages. */
        int val[2][2] = {{0, 0}, {0, 0}};
        const char *name[2][2] = {{"", ""}, {"", ""}};
        for (int i = 0; i < sb->n_talents; i++) {
            const ft_talent *tl = &sb->talents[i];
            for (int k = 0; k < tl->n_effects; k++) {
                const ft_talent_effect *e = &tl->e[k];
                if (!ft_talent_on_attack(e, def, spell, melee) ||
                    !ft_talent_holds_run(r, self, other, w, e))
                    continue;
                int kind = e->kind == FT_TE_FLIP, bw = e->value < 0;
                if (bw ? e->value < val[kind][1] : e->value > val[kind][0]) {
                    val[kind][bw] = e->value;
                    name[kind][bw] = tl->name;
                }
            }
        }
        for (int kind = 0; kind < 2; kind++)
            for (int bw = 0; bw < 2; bw++)
                if (val[kind][bw] != 0)
                    add(x, def, kind ? 0 : val[kind][bw], kind ? val[kind][bw] : 0,
                        "%s", name[kind][bw]);
        return;
    }
    for (int i = 0; i < sb->n_talents; i++) {
        const ft_talent *tl = &sb->talents[i];
        for (int k = 0; k < tl->n_effects; k++) {
            const ft_talent_effect *e = &tl->e[k];
            if ((e->when <= FT_TW_WIELDING && !e->use) ||
                !ft_talent_on_attack(e, def, spell, melee) ||
                !ft_talent_holds_run(r, self, other, w, e))
                continue;
            int v = e->value;
            add(x, def, e->kind == FT_TE_SHIFT ? v : 0,
                e->kind == FT_TE_FLIP ? v : 0, "%s", tl->name);
        }
    }
}

/* Their sums without words: the attacker's with weapon w, the defender's
 * against an attack of kind spell * 2 + perception (ft_fast_attack). */
static mods_ctx attacker_setup_mods(const ft_statblock *asb,
                                    const ft_weapon *w) {
    mods_ctx x = {0, 0, 0, 0, NULL};
    weapon_bonus_mod(&x, w);
    attacker_size_mod(&x, asb, w->spell, (w->keywords & FT_KW(PERCEPTION)) != 0);
    attack_advantages_mod(&x, asb, w->spell, is_melee(w));
    if (asb->tsum.any)
        talent_setup_mod(&x, asb, w, false, w->spell, is_melee(w));
    return x;
}

static mods_ctx defender_setup_mods(const ft_statblock *tsb, int kind) {
    mods_ctx x = {0, 0, 0, 0, NULL};
    defender_size_mod(&x, tsb, (kind & 1) != 0);
    armor_mod(&x, tsb, (kind & 2) != 0);
    defense_advantages_mod(&x, tsb, (kind & 2) != 0);
    if (tsb->tsum.any)
        talent_setup_mod(&x, tsb, NULL, true, (kind & 2) != 0, false);
    return x;
}

static inline bool two_melee_weapons(const ft_setup *s, const ft_state *st,
                                     int c) {
    const ft_fast_hands *h = hands_of(s, st, c);
    return h ? h->two_melee
             : hands_two_melee(s, c, st->c[c].wielded[0], st->c[c].wielded[1]);
}


/* What the defender's own state gives its defense flip (the same for a
 * single attack and an area): flat-footed (RULINGS 10: <PD> less [SS]
 * ranks), Full Defense, Power Attack, Reckless Move, and the two-weapon
 * stance it chose (seed 000 "Off-Hand Weapons and Dual-Wielding"). */
static void defender_state_mods(mods_ctx *x, const ft_setup *s,
                                const ft_state *st, int t, bool spell) {
    const ft_statblock *tsb = &s->c[t].sb;
    const ft_cstate *ts = &st->c[t];
    if (!spell && !(ts->flags & FT_F_ACTED) && s->opt.flat_footed_loses_ss &&
        tsb->aspects[FT_ASPECT_SS] > 0)
        add(x, true, 0, -tsb->aspects[FT_ASPECT_SS], "flat-footed");
    if (ts->flags & FT_F_FULL_DEFENSE)
        add(x, true, 0, s->opt.full_defense_flip, "Full Defense");
    if (ts->flags & FT_F_POWER)
        add(x, true, 0, -1, "Power Attack");
    if (ts->flags & FT_F_RECKLESS)
        add(x, true, 0, -1, "Reckless Move");
    if (!spell && two_melee_weapons(s, st, t)) {
        bool agg = ft_stance_aggressive(s, st, t);
        add(x, true, 0, agg ? -1 : 1, "%s stance",
            agg ? "aggressive" : "defensive");
    }
}

/* Every modifier of the attack, or only whether it can be made at all
 * (only_possible: the modifiers stay 0). */
static void compute(const ft_run *r, int a, int t, const ft_attack_opts *o,
                    ft_mods *out, mod_list *list, bool only_possible,
                    bool quiet) {
    const ft_setup *s = r->setup;
    const ft_state *st = r->st;
    /* Not a memset of the whole: why is a string, read up to its NUL. */
    out->flip = out->shift = out->def_flip = out->def_shift = 0;
    out->impossible = false;
    out->why[0] = '\0';
    if (list)
        list->n = 0;
    mods_ctx x = {0, 0, 0, 0, list};
    /* Without words (simulation) the modifiers that depend only on the
     * setup come summed from s->fast (attacker_setup_mods and
     * defender_setup_mods, worked out by ft_fast_prepare). */
    bool summed = !list && s->fast.ready;
    if (a < 0 || a >= st->n || t < 0 || t >= st->n || a == t) {
        impossible(out, quiet, "no such target");
        return;
    }
    const ft_combatant *ac = &s->c[a], *tc = &s->c[t];
    const ft_statblock *asb = &ac->sb, *tsb = &tc->sb;
    const ft_cstate *as = &st->c[a], *ts = &st->c[t];
    int wi;
    bool off;
    const ft_weapon *w = pick_weapon(r, a, o, &wi, &off);
    bool melee = is_melee(w);
    bool spell = w->spell;
    bool perception = (w->keywords & FT_KW(PERCEPTION)) != 0;

    /* ---- Can it be made at all? */
    if (ts->flags & FT_F_DEAD) {
        impossible(out, quiet, "%s is dead", tc->name);
        return;
    }
    if (ts->flags & FT_F_FLED) {
        impossible(out, quiet, "%s has left the fight", tc->name);
        return;
    }
    for (int i = 0; i < as->n_cond; i++)
        if (as->cond[i].kind == FT_COND_CHARMED && as->cond[i].source == t) {
            impossible(out, quiet, "%s is charmed by %s", ac->name,
                       tc->name);
            return;
        }
    if (o->opportunity && !melee) {
        impossible(out, quiet, "an opportunity attack is a melee attack");
        return;
    }
    if (w->shots > 0 && wi >= 0 && as->ammo[wi] <= 0) {
        impossible(out, quiet, "the %s is empty: Reload a Weapon", w->name);
        return;
    }
    if (spell && w->mana_cost > 0 &&
        ((unsigned)w->element >= FT_ELEMENT_COUNT ||
         as->mana[w->element] < w->mana_cost)) {
        impossible(out, quiet, "not enough mana for the %s: it costs %d",
                   w->name, w->mana_cost);
        return;
    }
    fray_footprint fa = ft_fp(s, st, a), ftp = ft_fp(s, st, t);
    int dist = ft_range(fa, ftp);
    int increment = 1;
    if (melee) {
        int reach = weapon_reach(w);
        if (dist > reach) {
            impossible(out, quiet,
                       "%s is out of range: %d spaces, the %s reaches %d",
                       tc->name, dist, w->name, reach);
            return;
        }
    } else if (spell) {
        /* Spells have only a maximum range. */
        int max = w->max_range > 0 ? w->max_range : w->range_increment;
        if (dist > max) {
            impossible(out, quiet,
                       "%s is out of range: %d spaces, the %s reaches %d",
                       tc->name, dist, w->name, max);
            return;
        }
    } else {
        int ri = w->range_increment;
        increment = dist <= ri ? 1 : (dist + ri - 1) / ri;
        if (increment > 4) {
            impossible(out, quiet,
                       "%s is out of range: %d spaces, the %s reaches %d",
                       tc->name, dist, w->name, 4 * ri);
            return;
        }
    }
    fray_cover cover = FRAY_COVER_NONE;
    const char *cover_why = "";
    if (s->has_map) {
        /* ft_geo_cover and ft_geo_sight from one look in s->fast. */
        unsigned geo = ft_geo_entry(s, fa, ftp);
        cover = (geo & FT_GEO_KNOWN) ? (fray_cover)(geo & 3u)
                                     : fray_grid_cover(&s->map, fa, ftp);
        if (cover == FRAY_COVER_TOTAL) {
            impossible(out, quiet, "%s has total cover", tc->name);
            return;
        }
        bool sight = (geo & FT_GEO_KNOWN) ? (geo & FT_GEO_SIGHT) != 0
                                          : fray_grid_sight_fp(&s->map, fa, ftp);
        if (!sight && !has_cond(st, a, FT_COND_BLINDED)) {
            impossible(out, quiet, "no line of sight to %s", tc->name);
            return;
        }
        cover_why = cover == FRAY_COVER_HARD ? "hard cover" : "soft cover";
    }
    if (only_possible)
        return;

    /* ---- The attacker's flip. */
    int rank = spell ? asb->cv[FT_CV_SA] : asb->cv[FT_CV_PA];
    if (!summed)
        weapon_bonus_mod(&x, w);
    if (as->aim > 0 && (as->aim_spell != 0) == spell) {
        int cap = rank / 2;
        int aim = as->aim < cap ? as->aim : cap;
        add(&x, false, 0, aim, "Aim x%d", aim);
    }
    if (off)
        add(&x, false, 0, -1, "off hand");
    if (melee && !spell && two_melee_weapons(s, st, a)) {
        /* The stance of this action (ft_cstate.stance), else the stat
         * block's (towers-companion). */
        bool agg = ft_stance_aggressive(s, st, a);
        add(&x, false, 0, agg ? 1 : -1, "%s stance",
            agg ? "aggressive" : "defensive");
    }
    if (o->power)
        add(&x, false, 0, -1, "Power Attack");
    if (o->aid)
        add(&x, false, 0, 1, "Aid");
    if (as->flags & FT_F_RECKLESS)
        add(&x, false, 0, -1, "Reckless Move");
    if (as->grappled_by >= 0)
        add(&x, false, 0, -1, "restricted attack");
    for (int i = 0; i < as->n_cond; i++) {
        int fm = 0, sh = 0;
        ft_cond_mod_one((ft_condition)as->cond[i].kind, FT_FLIP_ATTACK, melee,
                        &fm, &sh);
        add(&x, false, sh, fm, "%s", cond_names[as->cond[i].kind % FT_CONDITION_COUNT]);
    }
    /* Attacking from Concealment: the target does not know of the
     * attacker's side and has not acted yet. */
    if ((tc->unaware_of & (1u << ac->side)) && !(ts->flags & FT_F_ACTED))
        add(&x, false, 0, 1, "unaware target");
    /* "significant enough ... in the GM's opinion" (gm.c). */
    if (melee && s->has_map && !(s->fast.ready && s->fast.atk.flat) &&
        highest_elevation(&s->map, fa) > highest_elevation(&s->map, ftp) &&
        ft_gm_high_ground(r, a, t, o->opportunity,
                          highest_elevation(&s->map, fa) -
                              highest_elevation(&s->map, ftp)))
        add(&x, false, 1, 0, "high ground");
    if (!melee && !spell && !perception && increment > 1)
        add(&x, false, increment == 3 ? 0 : -1, increment >= 3 ? -1 : 0,
            "range increment %d", increment);
    if (!summed)
        attacker_size_mod(&x, asb, spell, perception);
    /* Prone target (fray's ruling): easier to strike in melee, harder to
     * shoot. */
    if (has_cond(st, t, FT_COND_PRONE))
        add(&x, false, melee ? 1 : -1, 0, "prone target");
    if (melee) {
        int friends, foes;
        melee_counts(r, a, t, dist, &friends, &foes);
        if (friends >= 2 * foes && friends > foes)
            add(&x, false, 0, 1, "outnumbering %d-to-%d", friends, foes);
        else if (friends > foes)
            add(&x, false, 1, 0, "outnumbering %d-to-%d", friends, foes);
    }
    if (summed) {
        const ft_fast_attack *sums = &s->fast.atk;
        add(&x, false, sums->att_shift[a][wi + 1], sums->att_flip[a][wi + 1],
            "setup");
    } else {
        attack_advantages_mod(&x, asb, spell, melee);
        if (asb->tsum.any)
            talent_setup_mod(&x, asb, w, false, spell, melee);
    }
    if (asb->tsum.state)
        talent_state_mod(&x, r, a, t, w, false, spell, melee);

    /* ---- The defender's flip. */
    int drank = spell ? tsb->cv[FT_CV_ID] : tsb->cv[FT_CV_PD];
    if (!summed) {
        defender_size_mod(&x, tsb, perception);
        armor_mod(&x, tsb, spell);
    }
    if (!perception && !melee) {
        /* Creatures in the way: a non-ally of the attacker, standing, of
         * the target's size rank +-1, on the line -> soft cover. */
        fray_pos pa = fa.at, pb = ftp.at;
        nearest_spaces(fa, ftp, &pa, &pb);
        fray_pos line[2 * FRAY_GRID_MAX];
        int nl = fray_grid_line_spaces(pa, pb, line, 2 * FRAY_GRID_MAX);
        for (int c = 0; c < st->n && cover < FRAY_COVER_SOFT; c++) {
            if (c == a || c == t || ft_allies(s, a, c) || down(st, c))
                continue;
            int d = s->c[c].sb.size_rank - tsb->size_rank;
            if (d < -1 || d > 1)
                continue;
            fray_footprint fc = ft_fp(s, st, c);
            for (int i = 0; i < nl; i++)
                if (occupies(fc, line[i])) {
                    cover = FRAY_COVER_SOFT;
                    cover_why = "soft cover: creature";
                    break;
                }
        }
        /* Shooting into a melee: at least soft cover, unless the one the
         * target fights is the attacker and the attacker alone. */
        for (int c = 0; c < st->n && cover < FRAY_COVER_SOFT; c++) {
            if (c == a || c == t || ft_allies(s, c, t) || down(st, c))
                continue;
            if (ft_threatens(r, c, t) || ft_threatens(r, t, c)) {
                cover = FRAY_COVER_SOFT;
                cover_why = "soft cover: melee";
            }
        }
    }
    if (!perception) {
        if (cover == FRAY_COVER_SOFT)
            add(&x, true, 1, 0, "%s", cover_why);
        else if (cover == FRAY_COVER_HARD)
            add(&x, true, 1, 1, "%s", cover_why);
    }
    defender_state_mods(&x, s, st, t, spell);
    if (ts->aided_vs == a)
        add(&x, true, 0, -1, "Aid against it");
    for (int i = 0; i < ts->n_cond; i++) {
        int fm = 0, sh = 0;
        ft_cond_mod_one((ft_condition)ts->cond[i].kind, FT_FLIP_DEFENSE, melee,
                        &fm, &sh);
        add(&x, true, sh, fm, "%s", cond_names[ts->cond[i].kind % FT_CONDITION_COUNT]);
    }
    /* Option unconscious-bonus defense (fray's ruling before it read the
     * text's LETHAL bonus, harm.c ft_harm_hit): an unconscious or Helpless
     * defender has no Defense ranks (a flip of 0 + modifiers: RULINGS 3
     * keeps the lower of two). */
    if (drank != 0 && (s->opt.unconscious_bonus & FT_UB_DEFENSE) &&
        ((ts->flags & FT_F_UNCONSCIOUS) || has_cond(st, t, FT_COND_HELPLESS)))
        add(&x, true, 0, -drank, "%s",
            (ts->flags & FT_F_UNCONSCIOUS) ? "unconscious" : "helpless");
    if (summed) {
        const ft_fast_attack *sums = &s->fast.atk;
        int kind = (spell ? 2 : 0) + (perception ? 1 : 0);
        add(&x, true, sums->def_shift[t][kind], sums->def_flip[t][kind],
            "setup");
#ifndef NDEBUG
        /* The sums are the long way's. */
        mods_ctx ya = attacker_setup_mods(asb, w);
        mods_ctx yd = defender_setup_mods(tsb, kind);
        assert(ya.flip == sums->att_flip[a][wi + 1] &&
               ya.shift == sums->att_shift[a][wi + 1] &&
               yd.def_flip == sums->def_flip[t][kind] &&
               yd.def_shift == sums->def_shift[t][kind]);
#endif
    } else {
        defense_advantages_mod(&x, tsb, spell);
        if (tsb->tsum.any)
            talent_setup_mod(&x, tsb, NULL, true, spell, melee);
    }
    if (tsb->tsum.state)
        talent_state_mod(&x, r, t, a, NULL, true, spell, melee);
    mods_store(&x, out);
}

void ft_attack_mods(const ft_run *r, int attacker, int target,
                    const ft_attack_opts *o, ft_mods *out) {
    compute(r, attacker, target, o, out, NULL, false, false);
}

void ft_attack_possible(const ft_run *r, int attacker, int target,
                        const ft_attack_opts *o, ft_mods *out) {
    compute(r, attacker, target, o, out, NULL, true, false);
}

void ft_attack_mods_quiet(const ft_run *r, int attacker, int target,
                          const ft_attack_opts *o, bool only_possible,
                          ft_mods *out) {
    compute(r, attacker, target, o, out, NULL, only_possible, true);
}

/* ---- Modifiers remembered between decisions (ft_mods_cache) ------------- */

/* The key of an attack on the state as it is now (its words and a
 * fingerprint of them), or false when the state is outside what the key holds: someone
 * has a condition (compute() reads everyone's through the melee and
 * threat). */
static bool mods_key(const ft_run *r, int a, int t, const ft_attack_opts *o,
                     ft_mods_cache_entry *k) {
    const ft_state *st = r->st;
    int n = st->n;
    /* A stance chosen by a command word is not in the key: no
     * remembered modifiers then. */
    if (n > FT_MODS_CACHE_MAX_N || r->setup->fast.talent_state ||
        st->stance_chosen || a < 0 ||
        a >= n || t < 0 || t >= n ||
        o->weapon < INT8_MIN || o->weapon > INT8_MAX)
        return false;
    uint64_t *w = k->w;
    w[0] = (uint64_t)(uintptr_t)r->setup;
    w[1] = (uint64_t)r->setup->fast.atk.stamp |
           (uint64_t)(uint8_t)a << 32 | (uint64_t)(uint8_t)t << 40 |
           (uint64_t)(uint8_t)o->weapon << 48 |
           (uint64_t)((o->power ? 1u : 0u) | (o->aid ? 2u : 0u) |
                      (o->opportunity ? 4u : 0u) | (o->charge ? 8u : 0u) |
                      (o->off_hand ? 16u : 0u)) << 56;
    unsigned char am[16] = {0};
    _Static_assert(FT_MAX_WEAPONS + FT_ELEMENT_COUNT <= 16,
                   "ammunition and mana fit two words");
    memcpy(am, st->c[a].ammo, FT_MAX_WEAPONS);
    memcpy(am + FT_MAX_WEAPONS, st->c[a].mana, FT_ELEMENT_COUNT);
    memcpy(&w[2], am, 16);
    /* Per combatant, the bytes of the fields compute() reads, loaded
     * whole: pos and flags lie in a row, and so do aim, aim_spell,
     * aided_vs and wielded[] (asserted with ft_cstate); the bytes past
     * them are masked off. Equal words mean equal fields, which is all a
     * key needs. */
    uint64_t h = 0;
    for (int i = 0; i < 4; i++)
        h = (h << 7 | h >> 57) ^ w[i];
    int nw = 4;
    for (int i = 0; i < n; i++) {
        const ft_cstate *cs = &st->c[i];
        if (cs->n_cond != 0)
            return false;
        uint64_t place = ft_low_bytes(&cs->pos, 6);
        uint64_t hands = ft_low_bytes(&cs->aim, 5) |
                         (uint64_t)(uint8_t)cs->grappled_by << 40;
        w[nw++] = place;
        w[nw++] = hands;
        h = (h << 7 | h >> 57) ^ place;
        h = (h << 7 | h >> 57) ^ hands;
    }
    k->n_words = nw;
    k->sum = h;
    return true;
}

void ft_attack_mods_cached(const ft_run *r, ft_mods_cache *cache, int a,
                           int t, const ft_attack_opts *o, ft_mods *out) {
    ft_mods_cache_entry k;
    if (!cache || !r->setup->fast.ready || !mods_key(r, a, t, o, &k)) {
        compute(r, a, t, o, out, NULL, false, true);
        return;
    }
    for (int i = 0; i < FT_MODS_CACHE; i++) {
        const ft_mods_cache_entry *e = &cache->e[i];
        if (e->sum != k.sum || e->n_words != k.n_words)
            continue;
        /* The words themselves (few: no call to memcmp). */
        uint64_t diff = 0;
        for (int j = 0; j < k.n_words; j++)
            diff |= e->w[j] ^ k.w[j];
        if (diff)
            continue;
        out->flip = e->flip;
        out->shift = e->shift;
        out->def_flip = e->def_flip;
        out->def_shift = e->def_shift;
        out->impossible = e->impossible;
        out->why[0] = '\0';
#ifndef NDEBUG
        ft_mods fresh;
        compute(r, a, t, o, &fresh, NULL, false, true);
        assert(fresh.impossible == out->impossible &&
               fresh.flip == out->flip && fresh.shift == out->shift &&
               fresh.def_flip == out->def_flip &&
               fresh.def_shift == out->def_shift);
#endif
        return;
    }
    compute(r, a, t, o, out, NULL, false, true);
    k.flip = out->flip;
    k.shift = out->shift;
    k.def_flip = out->def_flip;
    k.def_shift = out->def_shift;
    k.impossible = out->impossible;
    int slot = cache->next >= 0 && cache->next < FT_MODS_CACHE ? cache->next : 0;
    ft_mods_cache_entry *e = &cache->e[slot];
    e->sum = k.sum;
    e->n_words = k.n_words;
    memcpy(e->w, k.w, (size_t)k.n_words * sizeof k.w[0]);
    e->flip = k.flip;
    e->shift = k.shift;
    e->def_flip = k.def_flip;
    e->def_shift = k.def_shift;
    e->impossible = k.impossible;
    cache->next = (slot + 1) % FT_MODS_CACHE;
}

void ft_fast_prepare(ft_setup *s) {
    ft_fast *f = &s->fast;
    uint32_t stamp = f->atk.stamp + 1u;
    memset(f, 0, sizeof *f);
    f->atk.stamp = stamp;
    /* hands_of's table: every combatant slot (unused ones read as the
     * bare stat block they are), every pair of weapon indices
     * -1..FT_MAX_WEAPONS-1 in hand, worked out the long way. */
    for (int c = 0; c < FT_MAX_COMBATANTS; c++)
        for (int w0 = 0; w0 <= FT_MAX_WEAPONS; w0++)
            for (int w1 = 0; w1 <= FT_MAX_WEAPONS; w1++) {
                ft_fast_hands *h = &f->atk.hands[c][w0][w1];
                int reach = hands_threat(s, c, w0 - 1, w1 - 1);
                h->threat = (int16_t)(reach < 32767 ? reach : 32767);
                h->two_melee = hands_two_melee(s, c, w0 - 1, w1 - 1);
            }
    for (int c = 0; c < FT_MAX_COMBATANTS; c++) {
        const ft_statblock *sb = &s->c[c].sb;
        f->atk.damage_adv[c] = ft_damage_advantage(sb);
        if (c < s->n_combatants && sb->tsum.state)
            f->talent_state = true;
        /* compute()'s setup-only modifiers, summed. */
        for (int wi = -1; wi < FT_MAX_WEAPONS; wi++) {
            const ft_weapon *w = wi < 0 ? &UNARMED_STRIKE : weapon_at(s, c, wi);
            if (!w)
                continue; /* pick_weapon never gives it */
            mods_ctx x = attacker_setup_mods(sb, w);
            f->atk.att_flip[c][wi + 1] = x.flip;
            f->atk.att_shift[c][wi + 1] = x.shift;
        }
        for (int kind = 0; kind < 4; kind++) {
            mods_ctx x = defender_setup_mods(sb, kind);
            f->atk.def_flip[c][kind] = x.def_flip;
            f->atk.def_shift[c][kind] = x.def_shift;
        }
    }
    f->atk.flat = true;
    for (int y = 0; s->has_map && y < s->map.h; y++)
        for (int x = 0; x < s->map.w; x++)
            if (s->map.elevation[y][x] != 0)
                f->atk.flat = false;
    if (s->has_map) {
        const fray_grid *g = &s->map;
        /* A small map has every pair below instead. */
        bool small = g->w * g->h <= FT_GEO_CELLS;
        int w = small ? 0 : g->w < FT_GEO_MAX ? g->w : FT_GEO_MAX;
        int h = g->h < FT_GEO_MAX ? g->h : FT_GEO_MAX;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                for (int dy = 0; dy < FT_GEO_SIDE; dy++)
                    for (int dx = 0; dx < FT_GEO_SIDE; dx++) {
                        fray_footprint a = {{(int16_t)x, (int16_t)y}, 1};
                        fray_footprint b = {{(int16_t)(x + dx - FT_GEO_NEAR),
                                             (int16_t)(y + dy - FT_GEO_NEAR)},
                                            1};
                        if (!fray_grid_in(g, b.at))
                            continue;
                        unsigned e = FT_GEO_KNOWN |
                                     (unsigned)fray_grid_cover(g, a, b);
                        if (fray_grid_sight_fp(g, a, b))
                            e |= FT_GEO_SIGHT;
                        f->geo[y][x][dy][dx] = (uint8_t)e;
                    }
        fray__grid_step_table(g, f->steps);
        f->has_steps = true;
        /* A small map: every pair (a few ms at load for 256 spaces). */
        if (small) {
            for (int a = 0; a < g->w * g->h; a++)
                for (int b = 0; b < g->w * g->h; b++) {
                    fray_footprint fa = {{(int16_t)(a % g->w), (int16_t)(a / g->w)}, 1};
                    fray_footprint fb = {{(int16_t)(b % g->w), (int16_t)(b / g->w)}, 1};
                    unsigned e = FT_GEO_KNOWN |
                                 (unsigned)fray_grid_cover(g, fa, fb);
                    if (fray_grid_sight_fp(g, fa, fb))
                        e |= FT_GEO_SIGHT;
                    f->pair[a][b] = (uint8_t)e;
                }
            f->pairs = true;
        }
    }
    f->ready = true;
}

static void emit_mods(ft_run *r, const mod_list *l, bool def, int a, int t) {
    for (int i = 0; i < l->n; i++) {
        const mod_entry *e = &l->e[i];
        if (e->def != def)
            continue;
        ft_fact *f = ft_emit_fact(r, FT_FACT_MODIFIER, def ? t : a, def ? a : t);
        if (!f)
            return;
        f->v[0] = e->shift;
        f->v[1] = e->flip;
        memcpy(f->text, e->why, sizeof f->text);
    }
}

static void emit_note(ft_run *r, int who, int target, const char *text) {
    ft_fact *f = ft_emit_fact(r, FT_FACT_NOTE, who, target);
    if (f)
        say(f->text, sizeof f->text, "%s", text);
}


void ft_crit_conditions(ft_run *r, int a, int t, const ft_weapon *w) {
    if (w->keywords & FT_KW(CRIT_BLEED))
        ft_cond_add(r, t, FT_COND_BLEEDING, 1, FT_UNTIL_REMOVED, -1, 0, a);
    if (w->keywords & FT_KW(CRIT_PRONE))
        ft_cond_add(r, t, FT_COND_PRONE, 0, FT_UNTIL_REMOVED, -1, 0, a);
    if (w->keywords & FT_KW(CRIT_SLOWED))
        ft_cond_add(r, t, FT_COND_SLOWED, 0, FT_UNTIL_END_OF, t, 1, a);
    if (w->keywords & FT_KW(CRIT_STUN))
        ft_cond_add(r, t, FT_COND_STUNNED, 0, FT_UNTIL_END_OF, t, 1, a);
}

fray_status ft_blinded_check(ft_run *r, int a, int *out_total) {
    int fm = 0, sh = 0;
    ft_cond_mods(r->st, a, FT_FLIP_CHECK, false, &fm, &sh);
    fray_flip f;
    int total_shift = sh;
    fray_status rc = ft_flip(r, a, r->setup->c[a].sb.aspects[FT_ASPECT_SP] + fm,
                             FT_FLIP_CHECK, sh, 15, &f, &total_shift);
    *out_total = rc == FRAY_OK ? f.kept_value + total_shift : 0;
    return rc;
}

/* The attack flip then the defense flip (each after its modifiers'
 * facts), then Hand of Fate and chips answered back and forth until
 * neither side does more (rules-facts.md: "if one side uses it, the other
 * may respond after seeing the result"). The attacker flips first, so its
 * first round cannot know the defense. o->a, t, ap and dp are set; arank
 * and drank are the ranks before the modifiers m. */
static inline fray_status opposed(ft_run *r, const ft_mods *m,
                                  const mod_list *l, int arank, int drank,
                                  ft_opposed *o) {
    o->an = arank + m->flip;
    o->dn = drank + m->def_flip;
    o->ash = m->shift;
    o->dsh = m->def_shift;
    /* No modifier facts to put between the flips (always so in a quiet
     * fight): the three steps below in one call. */
    if (l->n == 0)
        return ft_flip_opposed(r, o);
    emit_mods(r, l, false, o->a, o->t);
    if (r->cards_given && !r->replay) /* (for too few cards: gm.c) */
        ft_hand_next(r, o->t, o->dn, o->dp);
    fray_status rc = ft_flip(r, o->a, o->an, o->ap, o->ash, INT_MIN, &o->af,
                             &o->ash);
    if (rc != FRAY_OK)
        return rc;
    emit_mods(r, l, true, o->a, o->t);
    rc = ft_flip(r, o->t, o->dn, o->dp, o->dsh, o->af.kept_value + o->ash,
                 &o->df, &o->dsh);
    if (rc != FRAY_OK)
        return rc;
    return ft_flip_answers(r, o->a, o->ap, &o->af, &o->ash, o->t, o->dp,
                           &o->df, &o->dsh);
}

fray_status ft_attack(ft_run *r, int a, int t, const ft_attack_opts *o,
                      bool *out_hit) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    if (out_hit)
        *out_hit = false;
    ft_mods m;
    mod_list list;
    list.n = 0;
    const ft_attack_memo *mo = r->memo;
    if (mo && mo->valid && mo->reusable && !r->facts && mo->st == st &&
        mo->n_events == st->n_events && mo->attacker == a && mo->target == t &&
        mo->weapon == o->weapon && !o->off_hand && !o->opportunity &&
        !o->charge) {
        /* The policy's modifiers for this very attack, on a state that
         * differs from this one in nothing they depend on
         * (ft_attack_memo); Power Attack's and Aid's own on top. */
        m.impossible = false;
        m.why[0] = '\0';
        m.flip = mo->flip - (o->power ? 1 : 0) + (o->aid ? 1 : 0);
        m.shift = mo->shift;
        m.def_flip = mo->def_flip;
        m.def_shift = mo->def_shift;
#ifndef NDEBUG
        ft_mods fresh;
        compute(r, a, t, o, &fresh, NULL, false, false);
        assert(!fresh.impossible && fresh.flip == m.flip &&
               fresh.shift == m.shift && fresh.def_flip == m.def_flip &&
               fresh.def_shift == m.def_shift);
#endif
    } else {
        /* The reasons are words for the narration: not written in
         * simulation (where the modifiers may be remembered ones). */
        if (!r->facts && r->memo)
            ft_attack_mods_cached(r, &r->memo->cache, a, t, o, &m);
        if (r->facts || !r->memo || m.impossible)
            compute(r, a, t, o, &m, r->facts ? &list : NULL, false, false);
    }
    if (m.impossible)
        return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0, "%s", m.why);
    int wi;
    bool off;
    const ft_weapon *w = pick_weapon(r, a, o, &wi, &off);
    ft_cstate *as = &st->c[a], *ts = &st->c[t];
    const ft_statblock *asb = &s->c[a].sb, *tsb = &s->c[t].sb;
    fray_status rc;

    /* Shots and mana are spent on the attempt, hit or miss. */
    if (w->shots > 0 && wi >= 0) {
        as->ammo[wi]--;
        ft_emit(r, FT_FACT_AMMO, a, -1, wi, as->ammo[wi], 0, 0);
    }
    if (w->spell && w->mana_cost > 0) {
        as->mana[w->element] = (int8_t)(as->mana[w->element] - w->mana_cost);
        ft_emit(r, FT_FACT_MANA, a, -1, (int)w->element, as->mana[w->element],
                0, 0);
    }
    /* Blinded: the attack misses unless a Hard (15+) [SP] check passes
     * (an Aspect check: the card alone, plus shifts). */
    if (as->n_cond > 0 && ft_cond_has(st, a, FT_COND_BLINDED)) {
        int total;
        rc = ft_blinded_check(r, a, &total);
        if (rc != FRAY_OK)
            return rc;
        if (total < 15) {
            emit_note(r, a, t, "blinded: cannot find");
            ft_emit(r, FT_FACT_MISS, a, t, total, 15, 0, 0);
            as->aim = 0;
            as->aim_spell = 0;
            return FRAY_OK;
        }
    }

    /* No memset: the two flips and their shifts are written whole by
     * ft_flip before anyone reads them. */
    ft_opposed of;
    of.a = a;
    of.t = t;
    of.ap = FT_FLIP_ATTACK;
    of.dp = FT_FLIP_DEFENSE;
    rc = opposed(r, &m, &list,
                 w->spell ? asb->cv[FT_CV_SA] : asb->cv[FT_CV_PA],
                 w->spell ? tsb->cv[FT_CV_ID] : tsb->cv[FT_CV_PD], &of);
    if (rc != FRAY_OK)
        return rc;
    /* Aid's (flip-1) is for the foe's next defensive flip against the
     * chosen ally: used up now. */
    if (ts->aided_vs == a)
        ts->aided_vs = -1;
    as->aim = 0;
    as->aim_spell = 0;
    if (o->power)
        as->flags |= FT_F_POWER;

    fray_combat_result res = fray__combat_resolve(&of.af, of.ash, &of.df, of.dsh);
    if (!res.hit) {
        if (r->facts) /* (ft_emit records nothing without facts) */
            ft_emit(r, FT_FACT_MISS, a, t, res.attack_total, res.defense_total,
                    0, 0);
        return FRAY_OK;
    }
    ft_fact *hit_fact = r->facts ? ft_emit_fact(r, FT_FACT_HIT, a, t) : NULL;
    if (hit_fact) {
        hit_fact->v[0] = res.attack_total;
        hit_fact->v[1] = res.defense_total;
        hit_fact->v[2] = res.hearts;
        hit_fact->v[3] = res.critical;
        hit_fact->v[4] = -1; /* the damage, below; -1 for Aid */
    }
    if (out_hit)
        *out_hit = true;
    if (o->aid) {
        /* No harm done: the foe is at (flip-1) on its next defensive flip
         * against the ally (Aid does not stack: the latest one counts). */
        if (o->aid_ally >= 0 && o->aid_ally < st->n)
            ts->aided_vs = (int8_t)o->aid_ally;
        return FRAY_OK;
    }

    int bonus = s->fast.ready ? s->fast.atk.damage_adv[a]
                              : ft_damage_advantage(asb);
    if (o->power)
        bonus += 2;
    /* The rare parts of a hit in one test each (ft_engine_fast.plain_hit:
     * no duel, no talent's damage read at the hit, no Knockback weapon). */
    const bool plain_hit = s->eng.plain_hit;
    assert(!plain_hit || (!asb->tsum.once_damage && !s->duel.to &&
                          w->knockback <= 0));
    if (!plain_hit && asb->tsum.once_damage) /* talent.c */
        bonus += ft_talent_hit_damage(r, a, t, w);
    /* Restricted attack while grappled: Hard Strength halved for damage
     * (fray: <PX> halved, rounded down). */
    if (as->grappled_by >= 0 && w->adds_px) {
        int px = asb->cv[FT_CV_PX];
        /* (An improvised weapon's strength limit: of the halved.) */
        bonus -= ft_px_used(w, px) - ft_px_used(w, px / 2);
    }
    if (hit_fact) { /* the blow's damage before Hearts and Resilience */
        hit_fact->v[4] = w->damage + bonus +
                         (w->adds_px ? ft_px_used(w, asb->cv[FT_CV_PX]) : 0);
        /* (An improvised weapon's strength limit, the GM's call: gm.c.) */
        if (w->strength_limit == FT_GM_LIMIT_ASK && w->adds_px) {
            int used = as->grappled_by >= 0 ? asb->cv[FT_CV_PX] / 2
                                            : asb->cv[FT_CV_PX];
            hit_fact->v[4] += ft_gm_px_limited(r, a, w, used) - used;
        }
    }
    fray_towers_hit h = ft_harm_hit(r, a, t, w, bonus, res.hearts);
    if (!plain_hit && s->duel.to) /* seed 000 "Dueling", Stage Four (duel.c) */
        ft_duel_harm(r, a, t, w, bonus, res.hearts, h);
    else
        ft_harm_apply(r, t, h.stun, h.lethal, a);

    /* "Crit:" keywords (RULINGS 22): a hit with at least one Heart; with
     * crit_needs_heart off, any hit. */
    bool crit = res.critical || !s->opt.crit_needs_heart;
    const uint32_t crit_kw = FT_KW(CRIT_BLEED) | FT_KW(CRIT_PRONE) |
                             FT_KW(CRIT_SLOWED) | FT_KW(CRIT_STUN);
    if (crit && (w->keywords & crit_kw) && !(ts->flags & FT_F_DEAD))
        ft_crit_conditions(r, a, t, w);
    /* Knockback (grapple.c): pushed straight away, maybe off a ledge. */
    if (!plain_hit && w->knockback > 0)
        return ft_knockback(r, a, t, w->knockback);
    return FRAY_OK;
}

fray_status ft_grapple_test(ft_run *r, int a, int d, int attacker_flip_mod,
                            bool *out_win) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    if (out_win)
        *out_win = false;
    if (a < 0 || d < 0 || a >= st->n || d >= st->n || a == d)
        return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0,
                              "a Grapple Test needs two combatants");
    const ft_statblock *asb = &s->c[a].sb, *dsb = &s->c[d].sb;
    ft_mods m;
    memset(&m, 0, sizeof m);
    mod_list list;
    list.n = 0;
    mods_ctx x = {0, 0, 0, 0, r->facts ? &list : NULL};
    /* "Attacker's <PA> plus Size versus the Defender's <PD> plus Size";
     * RULINGS 21: the size rank adds cards (grapple_size_cards), else
     * shifts. */
    if (attacker_flip_mod)
        add(&x, false, 0, attacker_flip_mod, "Grapple Test");
    /* Seed 000 "Grappling", Restrain: (shift+1) on the grappler's next
     * Grapple Test in this grapple, once (grapple.c). */
    if (st->c[a].restrain_vs == d + 1 && st->c[d].grappled_by == a) {
        add(&x, false, 1, 0, "Restrain");
        st->c[a].restrain_vs = 0;
    }
    if (asb->size_rank)
        add(&x, false, s->opt.grapple_size_cards ? 0 : asb->size_rank,
            s->opt.grapple_size_cards ? asb->size_rank : 0, "size: %s",
            size_name(asb->size_rank));
    if (dsb->size_rank)
        add(&x, true, s->opt.grapple_size_cards ? 0 : dsb->size_rank,
            s->opt.grapple_size_cards ? dsb->size_rank : 0, "size: %s",
            size_name(dsb->size_rank));
    int fm = 0, sh = 0;
    ft_cond_mods(st, a, FT_FLIP_GRAPPLE, true, &fm, &sh);
    add(&x, false, sh, fm, "conditions");
    fm = sh = 0;
    ft_cond_mods(st, d, FT_FLIP_GRAPPLE, true, &fm, &sh);
    add(&x, true, sh, fm, "conditions");
    /* Action modifiers on opposed combat checks (RULINGS 11, 12). */
    if (st->c[a].flags & FT_F_RECKLESS)
        add(&x, false, 0, -1, "Reckless Move");
    if (st->c[d].flags & FT_F_RECKLESS)
        add(&x, true, 0, -1, "Reckless Move");
    if (st->c[d].flags & FT_F_FULL_DEFENSE)
        add(&x, true, 0, s->opt.full_defense_flip, "Full Defense");
    if (st->c[d].flags & FT_F_POWER)
        add(&x, true, 0, -1, "Power Attack");
    mods_store(&x, &m);

    ft_opposed of;
    memset(&of, 0, sizeof of);
    of.a = a;
    of.t = d;
    /* The defender flips its <PD>: a defense flip (and its hooks know it
     * must pass the test's total, ties going to the grappler). */
    of.ap = FT_FLIP_GRAPPLE;
    of.dp = FT_FLIP_DEFENSE;
    fray_status rc = opposed(r, &m, &list, asb->cv[FT_CV_PA],
                             dsb->cv[FT_CV_PD], &of);
    if (rc != FRAY_OK)
        return rc;
    /* Ties go to the one making the test, as an attack hits on a tie. */
    bool win = of.af.kept_value + of.ash >= of.df.kept_value + of.dsh;
    emit_note(r, a, d, win ? "wins the Grapple Test" : "loses the Grapple Test");
    if (out_win)
        *out_win = win;
    return FRAY_OK;
}

void ft_area_mods(ft_run *r, int a, int t, const ft_weapon *w, ft_mods *out) {
    const ft_setup *s = r->setup;
    const ft_state *st = r->st;
    mod_list list;
    list.n = 0;
    mods_ctx x = {0, 0, 0, 0, r->facts ? &list : NULL};
    bool spell = w->spell;
    bool perception = (w->keywords & FT_KW(PERCEPTION)) != 0;
    out->impossible = false;
    out->why[0] = '\0';
    if (t < 0) {
        const ft_statblock *asb = &s->c[a].sb;
        const ft_cstate *as = &st->c[a];
        int rank = spell ? asb->cv[FT_CV_SA] : asb->cv[FT_CV_PA];
        weapon_bonus_mod(&x, w);
        if (as->aim > 0 && (as->aim_spell != 0) == spell) {
            int cap = rank / 2;
            int aim = as->aim < cap ? as->aim : cap;
            add(&x, false, 0, aim, "Aim x%d", aim);
        }
        if (as->flags & FT_F_RECKLESS)
            add(&x, false, 0, -1, "Reckless Move");
        if (as->grappled_by >= 0)
            add(&x, false, 0, -1, "restricted attack");
        for (int i = 0; i < as->n_cond; i++) {
            int fm = 0, sh = 0;
            ft_cond_mod_one((ft_condition)as->cond[i].kind, FT_FLIP_ATTACK,
                            false, &fm, &sh);
            add(&x, false, sh, fm, "%s",
                cond_names[as->cond[i].kind % FT_CONDITION_COUNT]);
        }
        attacker_size_mod(&x, asb, spell, perception);
        attack_advantages_mod(&x, asb, spell, false);
    } else {
        const ft_statblock *tsb = &s->c[t].sb;
        const ft_cstate *ts = &st->c[t];
        int drank = spell ? tsb->cv[FT_CV_ID] : tsb->cv[FT_CV_PD];
        defender_size_mod(&x, tsb, perception);
        armor_mod(&x, tsb, spell);
        defender_state_mods(&x, s, st, t, spell);
        for (int i = 0; i < ts->n_cond; i++) {
            int fm = 0, sh = 0;
            ft_cond_mod_one((ft_condition)ts->cond[i].kind, FT_FLIP_DEFENSE,
                            false, &fm, &sh);
            add(&x, true, sh, fm, "%s",
                cond_names[ts->cond[i].kind % FT_CONDITION_COUNT]);
        }
        if (drank != 0 && (s->opt.unconscious_bonus & FT_UB_DEFENSE) &&
            ((ts->flags & FT_F_UNCONSCIOUS) || has_cond(st, t, FT_COND_HELPLESS)))
            add(&x, true, 0, -drank, "%s",
                (ts->flags & FT_F_UNCONSCIOUS) ? "unconscious" : "helpless");
        defense_advantages_mod(&x, tsb, spell);
    }
    mods_store(&x, out);
    if (r->facts)
        emit_mods(r, &list, t >= 0, a, t);
}

/* threat_now for the view's reach (view_reach.c). */
int ft_threat_now(const ft_setup *s, const ft_state *st, int c) {
    return threat_now(s, st, c);
}
