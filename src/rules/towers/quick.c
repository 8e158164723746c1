/*
 * quick.c - 99 Towers' simulation shortcut for the duel (towers_int.h
 * "Shortcut (quick.c)", docs/architecture.md "Shortcuts"; issue 16).
 *
 * A duel that qualifies (ft_quick_plan's whitelist, once per setup when a
 * simulation's fight is made) runs each trial from its begin event
 * through a tight loop that does exactly what fight.c's run_quiet and
 * engine.c's apply_action do for an Attack or a Power Attack of one
 * duellist on the other -- the same cards from the same trial stream in
 * the same order, the same tactics' choices, the same end state and
 * counts -- and nothing else (no events, no facts):
 *
 *   - the attack (modifiers, the opposed flip with the Hand of Fate and
 *     chips, the hit, the harm and what it does to STUN, LETHAL and the
 *     status) is a model of the engine's ft_attack (quick_attack below:
 *     the engine's draws and rounds of choices, the harm from a table
 *     made from ft_harm_hit), held to it; an attack it does not take is
 *     ft_attack's, with the policy's modifiers (ft_attack_memo) as
 *     run_quiet hands them;
 *   - the clock's steps are the engine's own (ft_phase_quiet);
 *   - the tactics' choice is remembered per fight in a table keyed by
 *     what the policy reads that changes in such a duel: whose turn, and
 *     per combatant STUN, LETHAL, their temporary parts, the flags and
 *     Aim (policy.c reads nothing else that the loop changes: the
 *     combatants never move, draw, reload, cast or grapple in it; the
 *     phase, chips and the decks are not read, ft_decision_cache); a
 *     choice not in the table is asked of the engine (fight.c's choose)
 *     and kept when it is an Attack or Power Attack on the other,
 *     checked, with no stance, Shift or off hand;
 *   - what remains is apply_action's bookkeeping for such an attack
 *     (the start of the activation, the counts, the clock's move, the
 *     end of the turn), written out below as engine.c does it.
 *
 * Whenever the loop meets what it does not model -- a choice other than
 * those attacks, a condition on anyone, a hold -- it stops before
 * choosing, with the state exactly the long way's at that point, and
 * run_quiet goes on from there. tests/unit/test_towers_quick.c holds it
 * to the long way trial by trial; any change to apply_action, turn_end_quiet
 * or clock_move (engine.c) must keep that test passing (or narrow the
 * whitelist below).
 */
#include "towers_int.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Fields the whitelist knows. A new field in one of these structs is a
 * feature the shortcut has not been taught: the build stops here until
 * its author (or the integrator) decides whether ft_quick_plan must
 * refuse it, and updates the size. */
_Static_assert(sizeof(ft_options) == 140,
               "quick.c: a new 99 Towers option: decide whether the shortcut "
               "may run with it off its default (ft_quick_plan), then update "
               "this size");
_Static_assert(sizeof(ft_combatant) == 5808,
               "quick.c: a new combatant or stat-block field: refuse it in "
               "ft_quick_plan unless it changes nothing in a duel of plain "
               "melee attacks, then update this size");
_Static_assert(sizeof(ft_weapon) == 120,
               "quick.c: a new weapon field: refuse it in ft_quick_plan unless "
               "it changes nothing in a plain melee attack, then update this size");
_Static_assert(sizeof(ft_tactics) == 16,
               "quick.c: a new tactics field: refuse it in ft_quick_plan "
               "unless the policy's choice in the duel ignores it, then "
               "update this size");
_Static_assert(sizeof(ft_engine_fast) == 39,
               "quick.c: a new engine shortcut flag: check it in "
               "ft_quick_plan, then update this size");
_Static_assert(sizeof(ft_cstate) == 392,
               "quick.c: a new combatant state field: if the policy reads it "
               "and the loop can change it, add it to qkey; then update this size");

/* The loop writes out apply_action's bookkeeping and run_quiet's per-event
 * setup of the run: a new field in the fight's state or in the run (a
 * count the engine keeps up, a cache it must invalidate) may need the
 * same in ft_quick_run; decide, then update the size. */
_Static_assert(sizeof(ft_state) == 22144,
               "quick.c: a new field in the fight's state: if apply_action or "
               "turn_end_quiet keep it up for an attack, do the same in "
               "ft_quick_run; then update this size");
_Static_assert(sizeof(ft_run) == 520,
               "quick.c: a new field in ft_run: if run_quiet sets it per "
               "event, do the same in ft_quick_run; then update this size");

/* ---- The whitelist ------------------------------------------------------------ */

static bool refuse(char *why, size_t size, const char *fmt, const char *a) {
    if (why && size)
        snprintf(why, size, fmt, a);
    return false;
}

/* The option off its default, by its name in encounter files; NULL when
 * every option the shortcut does not take is at its default (the Hand of
 * Fate's size and the phase limit may be anything: the engine's own
 * functions deal the Hand and flip it, and the loop reads the limit as
 * run_quiet does). */
static const char *option_off_default(const ft_options *o) {
    ft_options d, c;
    ft_options_default(&d);
    c = *o;
    c.hand_of_fate = d.hand_of_fate;
    c.max_phase = d.max_phase;
    if (c.fresh_decks != d.fresh_decks) return "fresh-decks";
    if (c.decks != d.decks) return "decks";
    if (c.opportunity_delay != d.opportunity_delay) return "opportunity-delay";
    if (c.dying_loses_lethal != d.dying_loses_lethal) return "dying-loses-lethal";
    if (c.fate_exchange_below != d.fate_exchange_below) return "fate-exchange-below";
    if (c.mana_regen != d.mana_regen) return "mana-regen";
    /* (options load into a zeroed struct and are copied whole: a field
     * this list does not name is caught here) */
    if (memcmp(&c, &d, sizeof d) != 0) return "an option quick.c does not know";
    return NULL;
}

static bool preset_ok(ft_tactics_preset p) {
    return p == FT_TAC_DEFAULT || p == FT_TAC_ATTACK || p == FT_TAC_POWER_ATTACK;
}

bool ft_quick_plan(const ft_setup *s, char *why, size_t why_size) {
    if (why && why_size)
        why[0] = '\0';
    if (!s)
        return refuse(why, why_size, "no setup%s", "");
    if (s->n_combatants != 2)
        return refuse(why, why_size, "not a duel: %s", "not two combatants");
    if (s->c[0].side == s->c[1].side)
        return refuse(why, why_size, "not a duel: %s", "one side");
    if (!s->fast.ready || !s->eng.ready || !s->eng.plain || !s->eng.plain_hit ||
        !s->eng.plain_decide || !s->eng.no_pairs)
        return refuse(why, why_size, "%s", "a rule the plain engine path does "
                      "not take (a formal duel, companions, talents, Knockback)");
    if (s->duel.to != FT_DUEL_NONE)
        return refuse(why, why_size, "%s", "a formal duel (seed 000 \"Dueling\")");
    if (s->any_joins_later)
        return refuse(why, why_size, "%s", "reinforcements (joins: later)");
    const char *opt = option_off_default(&s->opt);
    if (opt)
        return refuse(why, why_size, "option %s is not at its default", opt);
    for (int i = 0; i < 2; i++) {
        const ft_combatant *c = &s->c[i];
        const ft_statblock *sb = &c->sb;
        if (c->master != 0 || c->n_companions != 0)
            return refuse(why, why_size, "%s has a companion or a master", c->name);
        if (c->joins_later)
            return refuse(why, why_size, "%s joins later", c->name);
        if (c->unaware_of)
            return refuse(why, why_size, "%s is surprised", c->name);
        if (!preset_ok(c->tactics.preset))
            return refuse(why, why_size, "%s's tactics preset is not default, "
                          "attack or power-attack", c->name);
        if (sb->tsum.any || sb->n_talents > 0)
            return refuse(why, why_size, "%s has talents", c->name);
        int wi = sb->wielded[0];
        if (wi < 0 || wi >= sb->n_weapons)
            return refuse(why, why_size, "%s holds no weapon in its main hand", c->name);
        /* The weapons in hand (the tactics attack with the main hand's;
         * one carried but not in hand changes nothing until a Draw, which
         * the loop hands to the long way). */
        for (int hand = 0; hand < 2; hand++) {
            int k = sb->wielded[hand];
            if (k < 0 || k >= sb->n_weapons)
                continue;
            const ft_weapon *w = &sb->weapons[k];
            if (w->spell || w->range_increment > 0 || w->shots > 0 || w->area ||
                w->max_range > 0)
                return refuse(why, why_size, "%s holds a ranged weapon, an "
                              "area or a spell", c->name);
            if (w->knockback > 0 || w->strength_limit == FT_GM_LIMIT_ASK)
                return refuse(why, why_size, "%s's weapon knocks back or asks "
                              "the GM", c->name);
            if (w->keywords & (FT_KW(CRIT_BLEED) | FT_KW(CRIT_PRONE) |
                               FT_KW(CRIT_SLOWED) | FT_KW(CRIT_STUN)))
                return refuse(why, why_size, "%s's weapon has a \"Crit:\" "
                              "keyword (a condition)", c->name);
        }
        for (int e = 0; e < FT_ELEMENT_COUNT; e++)
            if (sb->mana[e] > 0)
                return refuse(why, why_size, "%s has mana", c->name);
    }
    return true;
}

/* ---- The remembered choices ------------------------------------------------------ */

/* What the policy reads that the loop changes, as three words: each
 * combatant's first eight bytes (STUN, LETHAL and their temporary parts,
 * ft_cstate's layout: towers_int.h asserts it), then both flags, both
 * Aims and whose turn. */
typedef struct qkey {
    uint64_t w[3];
} qkey;
/* What the attack's model (quick_attack) works out of an attack before
 * it flips: the weapon's table, the flips' n, cards and kind, the shifts
 * and the modifiers (the policy's, Power Attack's (flip-1) on top) --
 * all of them functions of the setup and of the remembered choice, so
 * kept with it (qentry.plan). */
typedef struct qweapon qweapon;
typedef struct qplan {
    const qweapon *qw;
    int16_t an, dn;            /* the flips' n: [PA] + flip, [PD] + flip */
    int16_t ash, dsh;          /* the shifts before the flips */
    int16_t flip, def_flip;    /* the modifiers (debug builds check them) */
    uint8_t ka, kt;            /* the cards each flip turns over */
    uint8_t da, dt;            /* the decks */
    int8_t wi;                 /* the weapon */
    bool la, lt;               /* keep the lowest */
    bool power;
} qplan;

typedef struct qentry {
    qkey k;
    bool used;
    bool planned;              /* plan worked out: `model` says whether */
    bool model;                /* the model takes the attack, by plan */
    qplan plan;
    bool reusable;             /* the policy's ft_attack_memo */
    int8_t weapon;
    int16_t flip, shift, def_flip, def_shift;
    ft_command cmd;
} qentry;

enum { QUICK_SLOTS = 4096, QUICK_FULL = 3 * QUICK_SLOTS / 4 };

/* The harm of a hit (ft_harm_hit) by attacker a with its weapon wi, a
 * Power Attack or not, and the Hearts of its flip (below QUICK_HEARTS;
 * more go to ft_harm_hit), on the other standing with no condition:
 * worked out once per fight from its setup (the first time the model
 * meets a, wi), since nothing else it reads changes in the loop. */
enum { QUICK_HEARTS = 16 };
typedef struct qharm {
    int16_t stun, lethal;
} qharm;

struct qweapon {
    const ft_setup *for_setup; /* filled for this setup; NULL: not yet */
    bool plain;                /* a weapon the model takes (plain_weapon) */
    qharm harm[2][QUICK_HEARTS];
};

/* What the fight's start (ft_quick_begin) reads from the setup, worked
 * out once per setup: each combatant as ft_state_reset_trial leaves it,
 * the Initiative flips' n, cards and shift, and whether the two can tie. */
typedef struct qstart {
    const ft_setup *for_setup; /* made for this setup; NULL: not yet */
    bool ok;                   /* the start is one ft_quick_begin takes */
    ft_cstate c[2];
    int init_n[2], init_shift[2], init_k[2];
    bool init_low[2];
    int tie_k;                 /* a flip-off's cards (a flip of 1) */
    bool tie_low;
    bool tie_static;           /* [N] and [SS] the same: the CI decides */
} qstart;

struct ft_quick {
    int n;
    long begun;                /* starts made by ft_quick_begin (tests) */
    qstart start;
    long actions;              /* attacks the loop applied (tests) */
    long modelled;             /* of them, by the model (quick_attack) */
    bool model_off;            /* every attack through ft_attack (tests) */
    qweapon w[2][FT_MAX_WEAPONS];
    qentry e[QUICK_SLOTS];
};

fray_status ft_quick_new(const fray_allocator *alloc, ft_quick **out) {
    ft_quick *q = fray__alloc(alloc, sizeof *q);
    if (!q)
        return FRAY_ERR_NOMEM;
    memset(q, 0, sizeof *q);
    *out = q;
    return FRAY_OK;
}

void ft_quick_free(const fray_allocator *alloc, ft_quick *q) {
    if (q)
        fray__free(alloc, q, sizeof *q);
}

static inline uint64_t key_low8(const ft_cstate *c) {
    uint64_t w;
    memcpy(&w, &c->stun, sizeof w);
    return w;
}

static inline uint32_t key_hash(const qkey *k) {
    uint64_t h = k->w[0] * 0x9e3779b97f4a7c15ull ^
                 k->w[1] * 0xc2b2ae3d27d4eb4full ^
                 k->w[2] * 0x165667b19e3779f9ull;
    return (uint32_t)(h >> 40);
}

static inline bool key_same(const qkey *a, const qkey *b) {
    return ((a->w[0] ^ b->w[0]) | (a->w[1] ^ b->w[1]) | (a->w[2] ^ b->w[2])) == 0;
}

static inline void key_of(const ft_state *st, int actor, qkey *k) {
    const ft_cstate *c0 = &st->c[0], *c1 = &st->c[1];
    k->w[0] = key_low8(c0);
    k->w[1] = key_low8(c1);
    k->w[2] = (uint64_t)c0->flags | (uint64_t)c1->flags << 16 |
              (uint64_t)(uint8_t)c0->aim << 32 |
              (uint64_t)(uint8_t)c1->aim << 40 | (uint64_t)(uint8_t)actor << 48;
}

/* The engine's choice is one the loop applies: an Attack or Power Attack
 * on the other, with the main hand's weapon, checked by the policy, with
 * the policy's modifiers left for the attack, and nothing added to it. */
static bool modelled(const ft_command *c, bool checked, int actor,
                     const ft_attack_memo *m) {
    return checked &&
           (c->action == FT_ACT_ATTACK || c->action == FT_ACT_POWER_ATTACK) &&
           c->actor == actor && c->target == 1 - actor && !c->off_hand &&
           !c->shift_first && !c->stance && !c->grapple_move &&
           !c->at_space && m->valid && m->attacker == actor &&
           m->target == 1 - actor;
}

/* ---- The attack --------------------------------------------------------------------- */

/*
 * A model of ft_attack (attack.c) for the loop's attacks: the same cards
 * from the same stream, the same Hand of Fate and chip rounds, the same
 * state after, for the case the loop meets almost always, and a refusal
 * (QUICK_NOT: nothing done, the caller calls ft_attack) for anything else.
 * What it holds to, step by step (attack.c ft_attack, fate.c
 * ft_flip_opposed in a quiet run, harm.c ft_harm_hit):
 *
 *   - the modifiers are the policy's, left in the memo for this very
 *     attack (ft_attack's first branch; Power Attack's (flip-1) on top);
 *     no ammunition, mana, Blinded or grapple (plain_weapon, the loop's
 *     "no condition" and grappled_by);
 *   - the opposed flip: the attacker's flip of [PA] + flip from its own
 *     deck, then its round (against an unknown total: always idle), the
 *     defender's flip of [PD] + flip and its round, then the answers
 *     (attacker, defender, ...) until a round changes nothing; each flip
 *     fray__deck_flip's (inline), each round counted (r->round_i) and, when the
 *     tactics would choose something (ft_policy_fate_idle false), the
 *     engine's own round (ft_fate_round_choices); the event's card count
 *     kept as count_drawn keeps it;
 *   - Aid's mark spent, Aim cleared, Power Attack's flag, the hit
 *     (fray__combat_resolve), and the harm from the table above
 *     (ft_harm_hit's answer for these Hearts), applied as ft_harm_apply
 *     applies it (quick_harm: the engine's own when the blow fells).
 *
 * Taken only when the flips' quick path (flip_one) is sure for both:
 * enough cards in each deck (the two may share one: a flip's cards go
 * straight to the discard pile, so the cards a flip can take are as many
 * after the first as before), room in the event.
 */
enum { QUICK_NOT = -1 };

/* A weapon whose attack the model takes: a plain melee weapon with no
 * keyword that does anything at the hit (ft_attack's ammunition, mana,
 * "Crit:" keywords, Knockback, the GM's strength limit). */
static bool plain_weapon(const ft_weapon *w) {
    return !w->spell && w->shots <= 0 && w->range_increment <= 0 &&
           !w->area && w->max_range <= 0 && w->knockback <= 0 &&
           w->strength_limit != FT_GM_LIMIT_ASK &&
           !(w->keywords & (FT_KW(CRIT_BLEED) | FT_KW(CRIT_PRONE) |
                            FT_KW(CRIT_SLOWED) | FT_KW(CRIT_STUN)));
}

/* The table of a's weapon wi, filled on first use (r's state: the target
 * standing, with no condition, as every time the model runs). */
static const qweapon *weapon_table(ft_quick *q, const ft_run *r, int a,
                                   int wi) {
    qweapon *qw = &q->w[a][wi];
    const ft_setup *s = r->setup;
    if (qw->for_setup == s)
        return qw;
    const ft_weapon *w = &s->c[a].sb.weapons[wi];
    qw->plain = plain_weapon(w);
    if (qw->plain) {
        for (int power = 0; power < 2; power++) {
            int bonus = s->fast.atk.damage_adv[a] + (power ? 2 : 0);
            for (int h = 0; h < QUICK_HEARTS; h++) {
                fray_towers_hit x = ft_harm_hit(r, a, 1 - a, w, bonus, h);
                if (x.stun < INT16_MIN || x.stun > INT16_MAX ||
                    x.lethal < INT16_MIN || x.lethal > INT16_MAX) {
                    qw->plain = false;
                    break;
                }
                /* (ft_harm_apply takes a part below 0 as 0) */
                qw->harm[power][h].stun = (int16_t)(x.stun > 0 ? x.stun : 0);
                qw->harm[power][h].lethal =
                    (int16_t)(x.lethal > 0 ? x.lethal : 0);
            }
        }
    }
    qw->for_setup = s;
    return qw;
}

/* One deck's flip of n on the quick path (fate.c flip_one; the plan and
 * the room were checked by the caller). */
static inline void quick_flip(ft_run *r, fray_deck *deck, int n, int k,
                              bool low, fray_flip *f, int counted) {
    f->n = n;
    f->n_cards = k;
    f->keep_lowest = low;
    fray__deck_flip_inline(deck, &r->st->rng, f);
    /* (the event's cards counted before this flip: `counted`) */
    r->ev->n_cards = (int16_t)(counted + k);
    r->card_i = counted + k;
}

/* What the model's rounds read that stays put through a trial's loop:
 * the tactics' switches, the best card a deck holds (ft_policy_fate_idle),
 * and the cards held in each combatant's deck, worked out when first
 * asked. A flip or a reshuffle takes cards from the draw and discard piles
 * only, never a held card; what is held changes only in the engine's own
 * steps (a round that chooses, ft_attack, anything the loop hands on), and
 * held_ok is cleared after each of them. `pend`: the command of the
 * attack under way, when it is not yet in the event (written before any
 * engine step that may read it). */
typedef struct qrun {
    ft_run *r;
    const ft_command *pend;
    fray_deck *deck[2];        /* each combatant's deck (NULL: none) */
    int deck_best;
    bool idle[2], chips[2], hof[2];
    bool held_ok[2];
    int held_top[2];
    uint64_t held[2];
} qrun;

static void qrun_init(qrun *h, ft_run *r) {
    const ft_setup *s = r->setup;
    h->r = r;
    h->pend = NULL;
    h->deck_best = FRAY_RANK_ACE;
    if (s->opt.deck.jokers > 0 && s->opt.deck.joker_value > h->deck_best)
        h->deck_best = s->opt.deck.joker_value;
    for (int i = 0; i < 2; i++) {
        int d = s->c[i].deck;
        h->deck[i] = d >= 0 && d < r->st->n_decks ? &r->st->decks[d] : NULL;
        const ft_tactics *tac = &s->c[i].tactics;
        h->idle[i] = tac->preset == FT_TAC_IDLE;
        h->chips[i] = tac->use_chips;
        h->hof[i] = tac->use_hand_of_fate;
        h->held_ok[i] = false;
        h->held_top[i] = INT_MIN;
        h->held[i] = 0;
    }
}

/* The engine steps in: what it may change is asked afresh. */
static inline void qrun_engine(qrun *h) {
    if (h->pend) {
        h->r->ev->cmd = *h->pend;
        h->pend = NULL;
    }
    h->held_ok[0] = h->held_ok[1] = false;
}

/* ft_policy_fate_idle(r, who, p, f, shift, against) for p an attack's or
 * a defense's flip of the model (`defense`), who one of the two, whose
 * deck the plan checked: the same tests in the same order, what stays put
 * read from h. */
static inline bool quick_idle(qrun *h, int who, bool defense,
                              const fray_flip *f, int shift, int against) {
    if (against == INT_MIN)
        return true;
    int need = defense ? against + 1 : against;
    int have = f->kept_value + shift;
    if (have >= need || h->idle[who])
        return true;
    const ft_run *r = h->r;
    /* (an attack's or a defense's flip wants one chip or one held card) */
    if (h->chips[who] && have + 1 >= need && r->st->c[who].chips[0] >= 1)
        return false;
    if (!h->hof[who] || f->n_cards <= 0 || h->deck_best + shift < need)
        return true;
    if (!h->held_ok[who]) {
        const ft_setup *s = r->setup;
        uint64_t m = ft_deck_held_mask(h->deck[who]);
        h->held[who] = m;
        h->held_top[who] = m ? ft_held_top_value(&s->opt.deck, m) : INT_MIN;
        h->held_ok[who] = true;
    }
    if (h->held[who] == 0 || h->held_top[who] + shift < need)
        return true;
    return f->keep_lowest && ft_keep_lowest_short(r->setup, f, shift, need);
}

/* A round of `who` on flip f (fate.c fate_round in a quiet run). */
static inline fray_status quick_round(qrun *h, int who, ft_flip_purpose p,
                                      fray_flip *f, int *shift, int against,
                                      bool *changed) {
    ft_run *r = h->r;
    r->round_i++;
    *changed = false;
    bool idle = quick_idle(h, who, p == FT_FLIP_DEFENSE, f, *shift, against);
#ifndef NDEBUG
    assert(idle == ft_policy_fate_idle(r, who, p, f, *shift, against));
    if (idle) {
        ft_flip_view v = {who, p, f, *shift, against, p == FT_FLIP_DEFENSE};
        assert(r->hooks->fate(r->hooks->ctx, r, &v).kind == FT_CHOICE_NONE);
    }
#endif
    if (idle)
        return FRAY_OK;
    qrun_engine(h);
    return ft_fate_round_choices(r, who, p, f, shift, against, changed);
}

/* ft_harm_apply(r, t, stun, lethal, a) (harm.c) for a blow (stun and
 * lethal >= 0, not both 0) that leaves t standing as it stood: no
 * temporary points to take first, STUN and LETHAL above 0 after it, and
 * no status to work out (its update_status would change nothing). Any
 * other blow goes to ft_harm_apply. */
static inline void quick_harm(qrun *h, int a, int t, int stun, int lethal) {
    ft_run *r = h->r;
    ft_state *st = r->st;
    ft_cstate *ts = &st->c[t];
    int left_stun = ts->stun - stun, left_lethal = ts->lethal - lethal;
    if ((ts->temp_stun | ts->temp_lethal) || left_stun <= 0 ||
        left_lethal <= 0 ||
        (ts->flags & (FT_F_UNCONSCIOUS | FT_F_DISABLED | FT_F_DYING |
                      FT_F_DEAD))) {
        qrun_engine(h);
        ft_harm_apply(r, t, stun, lethal, a);
        return;
    }
    ts->stun = (int16_t)left_stun;
    ts->lethal = (int16_t)left_lethal;
    ts->stun_taken += stun;
    ts->lethal_taken += lethal;
    st->c[a].stun_dealt += stun;
    st->c[a].lethal_dealt += lethal;
}

/* The plan of ft_attack(r, a, 1 - a, {weapon wi, power}) with the
 * policy's modifiers in r->memo, in *p; false when the model does not
 * take it (whatever the state: the memo, the weapon, the decks). */
static bool quick_plan(ft_quick *q, const ft_run *r, int a, int wi, bool power,
                       qplan *p) {
    const ft_setup *s = r->setup;
    const ft_state *st = r->st;
    const int t = 1 - a;
    const ft_attack_memo *mo = r->memo;
    if (!mo || !mo->valid || !mo->reusable || mo->st != st ||
        mo->n_events != st->n_events || mo->attacker != a ||
        mo->target != t || mo->weapon != wi || wi < 0 ||
        wi >= s->c[a].sb.n_weapons || wi >= FT_MAX_WEAPONS)
        return false;
    const qweapon *qw = weapon_table(q, r, a, wi);
    if (!qw->plain)
        return false;
    int da = s->c[a].deck, dt = s->c[t].deck;
    if ((unsigned)da >= (unsigned)st->n_decks ||
        (unsigned)dt >= (unsigned)st->n_decks || da > UINT8_MAX ||
        dt > UINT8_MAX)
        return false;
    const ft_statblock *asb = &s->c[a].sb, *tsb = &s->c[t].sb;
    int mflip = mo->flip - (power ? 1 : 0);
    int an = asb->cv[FT_CV_PA] + mflip, dn = tsb->cv[FT_CV_PD] + mo->def_flip;
    int ka, kt;
    bool la, lt;
    fray__flip_plan(an, &s->opt.flip, &ka, &la);
    fray__flip_plan(dn, &s->opt.flip, &kt, &lt);
    if (ka > st->decks[da].size)
        ka = st->decks[da].size;
    if (kt > st->decks[dt].size)
        kt = st->decks[dt].size;
    /* (an event's scratch counts no card before its attack) */
    if (ka <= 0 || kt <= 0 || ka + kt > FT_EVENT_CARDS || ka > UINT8_MAX ||
        kt > UINT8_MAX || an < INT16_MIN || an > INT16_MAX ||
        dn < INT16_MIN || dn > INT16_MAX || mo->shift < INT16_MIN ||
        mo->shift > INT16_MAX || mo->def_shift < INT16_MIN ||
        mo->def_shift > INT16_MAX || mflip < INT16_MIN || mflip > INT16_MAX ||
        mo->def_flip < INT16_MIN || mo->def_flip > INT16_MAX)
        return false;
    p->qw = qw;
    p->an = (int16_t)an;
    p->dn = (int16_t)dn;
    p->ash = (int16_t)mo->shift;
    p->dsh = (int16_t)mo->def_shift;
    p->flip = (int16_t)mflip;
    p->def_flip = (int16_t)mo->def_flip;
    p->ka = (uint8_t)ka;
    p->kt = (uint8_t)kt;
    p->da = (uint8_t)da;
    p->dt = (uint8_t)dt;
    p->wi = (int8_t)wi;
    p->la = la;
    p->lt = lt;
    p->power = power;
    return true;
}

/* ft_attack(r, a, 1 - a, {weapon p->wi, p->power}) by plan p: FRAY_OK or
 * the engine's error, or QUICK_NOT with nothing done (the state is not
 * one the model takes: a condition, a grapple, the target down, too few
 * cards in a deck). */
static int quick_attack(qrun *h, int a, const qplan *p) {
    ft_run *r = h->r;
    ft_state *st = r->st;
    const int t = 1 - a;
    ft_cstate *as = &st->c[a], *ts = &st->c[t];
    /* (nobody has a condition here: the loop stops before choosing when
     * anyone has one, and nothing since has given one) */
    assert(!(as->n_cond | ts->n_cond));
    if (as->grappled_by >= 0 || (ts->flags & FT_F_UNCONSCIOUS))
        return QUICK_NOT;
    /* (the plan's decks are the combatants' own: quick_plan) */
    fray_deck *adeck = h->deck[a], *tdeck = h->deck[t];
    assert(adeck == &st->decks[p->da] && tdeck == &st->decks[p->dt]);
    if ((size_t)p->ka > adeck->n_draw + adeck->n_discard ||
        (size_t)p->kt > tdeck->n_draw + tdeck->n_discard ||
        r->ev->n_cards != 0)
        return QUICK_NOT;
    const bool power = p->power;
    const int wi = p->wi;
#ifndef NDEBUG
    {
        ft_attack_opts o;
        memset(&o, 0, sizeof o);
        o.weapon = wi;
        o.power = power;
        ft_mods fresh;
        ft_attack_mods_quiet(r, a, t, &o, false, &fresh);
        assert(!fresh.impossible && fresh.flip == p->flip &&
               fresh.shift == p->ash && fresh.def_flip == p->def_flip &&
               fresh.def_shift == p->dsh);
    }
#endif
    const ft_setup *s = r->setup;
    const ft_statblock *asb = &s->c[a].sb;
    const qweapon *qw = p->qw;
    const int an = p->an, dn = p->dn, ka = p->ka, kt = p->kt;
    const bool la = p->la, lt = p->lt;
    /* The opposed flip (ft_flip_opposed). */
    fray_flip af, df;
    int ash = p->ash, dsh = p->dsh;
    bool changed;
    quick_flip(r, adeck, an, ka, la, &af, 0);
    r->round_i++; /* the attacker's round: the defense unknown, idle */
    quick_flip(r, tdeck, dn, kt, lt, &df, ka);
    fray_status rc = quick_round(h, t, FT_FLIP_DEFENSE, &df, &dsh,
                                 af.kept_value + ash, &changed);
    if (rc != FRAY_OK)
        return (int)rc;
    for (int guard = 0; guard < 64; guard++) {
        rc = quick_round(h, a, FT_FLIP_ATTACK, &af, &ash, df.kept_value + dsh,
                         &changed);
        if (rc != FRAY_OK)
            return (int)rc;
        if (!changed)
            break;
        rc = quick_round(h, t, FT_FLIP_DEFENSE, &df, &dsh,
                         af.kept_value + ash, &changed);
        if (rc != FRAY_OK)
            return (int)rc;
        if (!changed)
            break;
    }
    if (ts->aided_vs == a)
        ts->aided_vs = -1;
    as->aim = 0;
    as->aim_spell = 0;
    if (power)
        as->flags |= FT_F_POWER;
    fray_combat_result res = fray__combat_resolve(&af, ash, &df, dsh);
    if (!res.hit)
        return FRAY_OK;
    int stun, lethal;
    if (res.hearts >= 0 && res.hearts < QUICK_HEARTS) {
        stun = qw->harm[power][res.hearts].stun;
        lethal = qw->harm[power][res.hearts].lethal;
    } else {
        qrun_engine(h);
        fray_towers_hit x =
            ft_harm_hit(r, a, t, &asb->weapons[wi],
                        s->fast.atk.damage_adv[a] + (power ? 2 : 0), res.hearts);
        stun = x.stun > 0 ? x.stun : 0;
        lethal = x.lethal > 0 ? x.lethal : 0;
    }
#ifndef NDEBUG
    {
        fray_towers_hit x =
            ft_harm_hit(r, a, t, &asb->weapons[wi],
                        s->fast.atk.damage_adv[a] + (power ? 2 : 0), res.hearts);
        assert((x.stun > 0 ? x.stun : 0) == stun &&
               (x.lethal > 0 ? x.lethal : 0) == lethal);
    }
#endif
    if (stun | lethal) /* (ft_harm_apply: a blow of nothing does nothing) */
        quick_harm(h, a, t, stun, lethal);
    return FRAY_OK;
}

/* ---- The loop --------------------------------------------------------------------- */

/* What the policy leaves (policy.c ft_policy_choose_memo) for the choice
 * remembered in e, of `actor` on the state st now. */
static inline void memo_of(ft_attack_memo *memo, const qentry *e,
                           const ft_state *st, int actor) {
    memo->valid = true;
    memo->reusable = e->reusable;
    memo->st = st;
    memo->n_events = st->n_events;
    memo->attacker = actor;
    memo->target = 1 - actor;
    memo->weapon = e->weapon;
    memo->flip = e->flip;
    memo->shift = e->shift;
    memo->def_flip = e->def_flip;
    memo->def_shift = e->def_shift;
}

/* engine.c clock_place (ft_clock_place) for the duel: with
 * both combatants on the clock and c still on it, fray__track_set's
 * insertion step over two entries puts c first exactly when it goes
 * strictly before the other (an entry moves past those equal to it), so
 * one comparison places it. Anything else goes to the engine's. */
static inline void clock_place(ft_state *st, int c) {
    fray__track *t = &st->clock;
    if (t->n != 2 || t->dir != FRAY__TRACK_ASCENDING ||
        (st->c[c].flags & (FT_F_UNCONSCIOUS | FT_F_DYING | FT_F_DEAD |
                           FT_F_FLED | FT_F_HOLDING | FT_F_RIDING))) {
        ft_clock_place(st, c);
        return;
    }
    int w = t->e[0].who == c ? 0 : 1;
    if (t->e[w].who != c) {
        ft_clock_place(st, c);
        return;
    }
    const ft_cstate *cs = &st->c[c];
    fray__track_entry x = {(int16_t)c, cs->phase,
                           -((int64_t)cs->slot * FT_MAX_COMBATANTS + c)};
    fray__track_entry o = t->e[1 - w];
    if (fray__track_goes_before(t, x.key, x.tie, &o)) {
        t->e[0] = x;
        t->e[1] = o;
    } else {
        t->e[0] = o;
        t->e[1] = x;
    }
}

/* engine.c clock_move for a cost > 0 (the only kind an attack has here). */
static inline void clock_move(ft_state *st, int c, int cost) {
    ft_cstate *cs = &st->c[c];
    if (cost == 0) {
        cs->slot = FT_SLOT_BOTTOM + (++st->next_slot) * FT_SLOT_STEP;
        clock_place(st, c);
        return;
    }
    cs->phase = st->phase + cost;
    cs->slot = ft_base_slot(cs->init_rank);
    clock_place(st, c);
}

/* engine.c turn_end_quiet for two combatants on two sides. */
static inline void turn_end(qrun *h, const ft_setup *s, int a) {
    ft_run *r = h->r;
    ft_state *st = r->st;
    {
        /* Both standing on their two sides with no condition and nobody
         * holding: the fight goes on, and the next to act is the earlier
         * of the two (the first of them on a tie). */
        const ft_cstate *c0 = &st->c[0], *c1 = &st->c[1];
        if (!((c0->flags | c1->flags) &
              (FT_F_UNCONSCIOUS | FT_F_DYING | FT_F_DEAD | FT_F_FLED |
               FT_F_HOLDING | FT_F_RIDING)) &&
            !(c0->n_cond | c1->n_cond) && !st->over) {
            st->active = -1;
            r->next_after = c1->phase < c0->phase ||
                                    (c1->phase == c0->phase && c1->slot < c0->slot)
                                ? 1
                                : 0;
            return;
        }
    }
    unsigned flags = 0, cond = 0, standing = 0;
    int best = -1;
    int32_t best_phase = 0, best_slot = 0;
    for (int i = 0; i < 2; i++) {
        const ft_cstate *c = &st->c[i];
        flags |= c->flags;
        cond |= (unsigned)c->n_cond;
        if (c->flags & (FT_F_UNCONSCIOUS | FT_F_DYING | FT_F_DEAD | FT_F_FLED)) {
            if (c->flags & FT_F_WAITING)
                standing |= 1u << s->c[i].side;
            continue;
        }
        standing |= 1u << s->c[i].side;
        if (best < 0 || c->phase < best_phase ||
            (c->phase == best_phase && c->slot < best_slot)) {
            best = i;
            best_phase = c->phase;
            best_slot = c->slot;
        }
    }
    if (cond || (flags & (FT_F_HOLDING | FT_F_RIDING)) || st->over) {
        /* end_activation, check_holds (nobody holds: the loop never
         * runs with a hold) and check_over */
        qrun_engine(h);
        if (cond)
            ft_cond_activation(r, a, true);
        st->active = -1;
        ft_check_holds(r);
        ft_check_over(r);
        r->next_after = FT_NEXT_UNKNOWN;
        return;
    }
    st->active = -1;
    /* over_from */
    if (!(standing & (standing - 1))) {
        int last = -2;
        for (int side = 0; side < FT_MAX_SIDES && last < 0; side++)
            if (standing >> side & 1u)
                last = side;
        st->over = true;
        st->winner = (int8_t)last;
    }
    r->next_after = st->over ? -1 : best;
}

/* The clock's step to next's phase (engine.c ft_phase_quiet and advance)
 * when nothing can happen on the way: in the class nobody has mana to get
 * back (no pool: ft_quick_plan), so a zero phase only takes a LETHAL from
 * one below 0 LETHAL (RULINGS 15), who is out of the fight -- and the
 * fight over -- unless dead; false (nothing done) when someone is. */
static inline bool quiet_step(ft_state *st, int next) {
    const ft_cstate *c0 = &st->c[0], *c1 = &st->c[1];
    /* (both at 0 LETHAL or above, the usual case: one test) */
    if (((c0->lethal + c0->temp_lethal) | (c1->lethal + c1->temp_lethal)) < 0) {
        for (int i = 0; i < 2; i++) {
            const ft_cstate *c = &st->c[i];
            if (!(c->flags & FT_F_DEAD) && c->lethal + c->temp_lethal < 0)
                return false;
        }
    }
    int to = st->c[next].phase;
    st->phase = to;
    st->round = to / 10 + 1;
    st->n_events++;
    return true;
}

fray_status ft_quick_run(fray_towers_fight *f, ft_run *r, int limit,
                         ft_command *refused, int *out_next, bool *out_going) {
    ft_quick *q = f->quick;
    const ft_setup *s = &f->setup->s;
    ft_state *st = &f->st;
    ft_event *ev = r->ev;
    ft_attack_memo *memo = &f->memo;
    int next = FT_NEXT_UNKNOWN;
    bool going = false;
    int until_look = FT_CANCEL_EVERY;
    fray_status rc = FRAY_OK;
    /* The attack's model runs where the engine's flips take their quiet
     * path (fate.c quiet_run): cards drawn by the engine, no facts, the
     * tactics' hooks. */
    const bool quiet = !r->replay && !r->cards_given && !r->facts &&
                       !s->opt.fresh_decks && r->hooks == &ft_policy_hooks;
    const bool use_model = quiet && !q->model_off;
    qrun hq;
    qrun_init(&hq, r);
    while (!st->over) {
        if (--until_look == 0) {
            until_look = FT_CANCEL_EVERY;
            if (f->cancel &&
                atomic_load_explicit(f->cancel, memory_order_relaxed)) {
                rc = FRAY_ERR_CANCELED;
                break;
            }
        }
        /* What the loop does not model: the long way from here. */
        const ft_cstate *c0 = &st->c[0], *c1 = &st->c[1];
        if ((c0->n_cond | c1->n_cond) ||
            ((c0->flags | c1->flags) & (FT_F_HOLDING | FT_F_RIDING | FT_F_WAITING)))
            break;
        if (next == FT_NEXT_UNKNOWN)
            next = ft_next_actor(st);
        if (next < 0 || (limit > 0 && st->c[next].phase > limit)) {
            st->over = true;
            st->winner = -1;
            break;
        }
        if (st->c[next].phase > st->phase && quiet_step(st, next)) {
            /* (a zero phase on the way changes nothing here: see
             * quiet_step) */
        } else if (st->c[next].phase > st->phase) {
            qrun_engine(&hq);
            next = ft_phase_quiet(r, next, going);
            if (next < 0)
                continue; /* over */
            if (st->c[0].n_cond | st->c[1].n_cond) {
                next = FT_NEXT_UNKNOWN;
                going = false;
                break;
            }
        }
        /* The choice: remembered, or the engine's. */
        qkey k;
        key_of(st, next, &k);
        uint32_t h = key_hash(&k) & (QUICK_SLOTS - 1);
        qentry *e = &q->e[h];
        while (e->used && !key_same(&e->k, &k)) {
            h = (h + 1) & (QUICK_SLOTS - 1);
            e = &q->e[h];
        }
        const ft_command *cmd;
        const qplan *plan = NULL; /* the plan kept with the choice */
        if (!e->used) {
            ft_command chosen;
            bool checked = false;
            qrun_engine(&hq);
            ft_fight_choose(f, next, &chosen, &checked);
            if (!modelled(&chosen, checked, next, memo)) {
                /* run_quiet asks again (the same answer: the policy draws
                 * nothing and reads the same state) */
                memo->valid = false;
                break;
            }
            if (q->n < QUICK_FULL) {
                e->k = k;
                e->used = true;
                e->planned = false;
                e->reusable = memo->reusable;
                e->weapon = (int8_t)memo->weapon;
                e->flip = (int16_t)memo->flip;
                e->shift = (int16_t)memo->shift;
                e->def_flip = (int16_t)memo->def_flip;
                e->def_shift = (int16_t)memo->def_shift;
                e->cmd = chosen;
                q->n++;
            }
            ev->cmd = chosen;
            cmd = &ev->cmd;
        } else if (e->planned && e->model && use_model &&
                   e->plan.wi == (e->cmd.weapon >= 0
                                      ? e->cmd.weapon
                                      : st->c[next].wielded[0])) {
            /* The model's plan of this attack is kept with the choice:
             * the memo is filled only if the model refuses (below), the
             * event's command written before an engine step reads it. */
            hq.pend = &e->cmd;
            cmd = &e->cmd;
            plan = &e->plan;
        } else {
            memo_of(memo, e, st, next);
            ev->cmd = e->cmd;
            cmd = &ev->cmd;
        }
        /* run_quiet's fresh event, and ft_apply_next / apply_action for
         * an attack action of a plain setup by one on the clock with no
         * condition, checked by the policy. */
        ev->n_cards = 0;
        ev->n_choices = 0;
        ev->n_facts = 0;
        r->card_i = r->choice_i = r->round_i = 0;
        r->checked = true;
        r->memo = memo;
        r->next_after = FT_NEXT_UNKNOWN;
        int a = next;
        ft_cstate *c = &st->c[a];
        if (st->active != a) {
            /* start_activation (nobody has a condition) */
            st->active = (int8_t)a;
            c->flags &= (uint16_t)~(FT_F_FULL_DEFENSE | FT_F_RECKLESS |
                                    FT_F_POWER | FT_F_TALENT);
        }
        r->move_parity = 0;
        const ft_action_info *info = &ft_actions[cmd->action];
        int cost = info->cost;
        /* do_attack: the model, else the engine's attack */
        int wi = cmd->weapon >= 0 ? cmd->weapon : c->wielded[0];
        bool power = cmd->action == FT_ACT_POWER_ATTACK;
        int qrc = QUICK_NOT;
        if (use_model) {
            /* the plan kept with the choice, else one made now (and kept
             * with it when it is remembered) */
            /* (e->used: e is k's entry, found or just made) */
            bool have = e->used && e->planned;
            qplan fresh;
            if (plan) {
                /* (found above) */
            } else if (have && e->model && e->plan.wi == wi) {
                plan = &e->plan;
            } else if (!have || e->plan.wi != wi) {
                bool ok = quick_plan(q, r, a, wi, power, &fresh);
                if (e->used) {
                    e->planned = true;
                    e->model = ok;
                    if (ok)
                        e->plan = fresh;
                    else
                        e->plan.wi = (int8_t)wi;
                }
                if (ok)
                    plan = &fresh;
            }
            if (plan) {
                qrc = quick_attack(&hq, a, plan);
                if (qrc == QUICK_NOT && !memo->valid)
                    memo_of(memo, e, st, a);
            }
        }
        if (qrc == QUICK_NOT) {
            qrun_engine(&hq);
            ft_attack_opts o;
            memset(&o, 0, sizeof o);
            o.weapon = wi;
            o.power = power;
            rc = ft_attack(r, a, cmd->target, &o, NULL);
        } else {
            rc = (fray_status)qrc;
            q->modelled++;
        }
        if (power)
            c->flags |= FT_F_POWER;
        c->aim = 0;
        memo->valid = false;
        if (rc != FRAY_OK) {
            *refused = *cmd;
            going = false;
            next = FT_NEXT_UNKNOWN;
            break;
        }
        c->flags |= FT_F_ACTED;
        c->actions++;
        c->by_kind[cmd->action]++;
        if (cost != FT_COST_FREE) {
            if (!(info->flags & FT_AF_ATTACK_RELATED))
                c->aim = 0;
            c->flags &= (uint16_t)~FT_F_CONCENTRATING;
        }
        if (cost == FT_COST_FREE || cost == 0)
            c->free_phase = st->phase;
        if (cost != FT_COST_FREE) {
            if (cost >= 0)
                clock_move(st, a, cost);
            turn_end(&hq, s, a);
        }
        st->n_events++;
        q->actions++;
        going = true;
        next = r->next_after;
    }
    qrun_engine(&hq);
    *out_next = next;
    *out_going = going;
    return rc;
}

/* ---- The fight's start ------------------------------------------------------------ */

/*
 * ft_rf_begin's ft_state_reset_trial and begin event (engine.c begin, in a
 * quiet run) for a duel of the class: the same trial stream, the same
 * cards in the same order (both decks made and shuffled by the engine's
 * own functions, the Hands of Fate dealt, the Initiative flips, a
 * flip-off when the two tie), the same state and the same begin event
 * after, without the generic steps. The class has no formal duel, no
 * companion, nobody surprised, joining later, with talents or mana
 * (ft_quick_plan), so begin's branches for those never run; an
 * Initiative round has no total to beat (INT_MIN), so the tactics never
 * choose in it. Taken only where the engine's flips take their quick path
 * (enough cards, room in the event); anything else -- the deal failing, a
 * deck too small -- and it returns false before the trial's state says
 * so, and the caller starts the long way (which makes everything afresh
 * from the seed). Debug builds make the long way too and compare.
 */

/* The setup's part of the start, once per setup. */
static void start_plan(qstart *qs, fray_towers_fight *f) {
    const ft_setup *s = &f->setup->s;
    ft_state *st = &f->st;
    qs->for_setup = s;
    qs->ok = false;
    if (s->n_combatants != 2 || s->n_decks <= 0 || s->n_decks > FT_MAX_DECKS)
        return;
    for (int i = 0; i < 2; i++) {
        const ft_statblock *sb = &s->c[i].sb;
        int d = s->c[i].deck;
        if (d < 0 || d >= s->n_decks || s->c[i].master != 0 ||
            s->c[i].joins_later || s->c[i].unaware_of)
            return;
        int flip = 0, shift = 0;
        ft_advantage_mods(sb, FT_APPLIES_INITIATIVE, &flip, &shift);
        qs->init_n[i] = sb->cv[FT_CV_N] + flip;
        qs->init_shift[i] = shift;
        fray__flip_plan(qs->init_n[i], &s->opt.flip, &qs->init_k[i],
                        &qs->init_low[i]);
    }
    fray__flip_plan(1, &s->opt.flip, &qs->tie_k, &qs->tie_low);
    qs->tie_static =
        s->c[0].sb.cv[FT_CV_N] == s->c[1].sb.cv[FT_CV_N] &&
        s->c[0].sb.aspects[FT_ASPECT_SS] == s->c[1].sb.aspects[FT_ASPECT_SS];
    /* Each combatant as the reset leaves it: the engine's own reset, with
     * the count of threats put back (it is the fight's, not the trial's)
     * and the rest made afresh by the start that follows. */
    uint64_t gen = st->threat_gen, all_gen = st->threat_all_gen;
    uint32_t moved = st->threat_moved;
    ft_state_reset_trial(s, st, 0, 0);
    st->threat_gen = gen;
    st->threat_all_gen = all_gen;
    st->threat_moved = moved;
    memcpy(&qs->c[0], &st->c[0], sizeof qs->c[0]);
    memcpy(&qs->c[1], &st->c[1], sizeof qs->c[1]);
    qs->ok = true;
}

/* One flip of the start (fate.c flip_one's quick path, and its round with
 * no total to beat: idle); false when that path is not sure. */
static inline bool start_flip(ft_state *st, ft_event *ev, fray_deck *deck,
                              int n, int k, bool low, fray_flip *f) {
    if (k > deck->size)
        k = deck->size;
    if (k <= 0 || ev->n_cards + k > FT_EVENT_CARDS ||
        (size_t)k > deck->n_draw + deck->n_discard)
        return false;
    f->n = n;
    f->n_cards = k;
    f->keep_lowest = low;
    fray__deck_flip_inline(deck, &st->rng, f);
    ev->n_cards = (int16_t)(ev->n_cards + k);
    return true;
}

/* The begin event's start, as fight.c event_start makes it for the
 * begin command (its header cleared, no choices or facts). */
static inline void begin_event_start(ft_event *ev) {
    memset(ev, 0, offsetof(ft_event, cards));
    ev->n_choices = 0;
    ev->n_facts = 0;
    ev->cmd.action = FT_CMD_BEGIN;
    ev->cmd.actor = -1;
    ev->cmd.target = -1;
}

/* The start by the model, into f->st and f->scratch; false when it is not
 * one the model takes (the caller then starts the long way). */
static bool start_quick(fray_towers_fight *f, const qstart *qs, uint64_t seed,
                        uint64_t trial) {
    const ft_setup *s = &f->setup->s;
    ft_state *st = &f->st;
    ft_event *ev = &f->scratch;
    ft_state_trial_head(st, 2, seed, trial); /* ft_state_reset_trial's */
    memcpy(&st->c[0], &qs->c[0], sizeof qs->c[0]);
    memcpy(&st->c[1], &qs->c[1], sizeof qs->c[1]);
    st->companion_alone = s->opt.companion_alone;
    st->pairs = !s->eng.no_pairs;
    st->stance_chosen = 0;
    st->n_decks = s->n_decks;
    for (int d = 0; d < s->n_decks; d++) {
        if (fray__deck_init(&st->decks[d], &s->opt.deck) != FRAY_OK)
            return false;
        fray_deck_shuffle(&st->decks[d], &st->rng);
    }
    /* (the reset's clock is made again at the begin's end) */
    begin_event_start(ev); /* apply_quiet's event: event_start */
    /* begin: the Hands of Fate (fate.c ft_fate_deal, get_cards) */
    int want = s->opt.hand_of_fate;
    if (want > FT_HAND_MAX)
        want = FT_HAND_MAX;
    for (int d = 0; d < s->n_decks; d++) {
        fray_deck *deck = &st->decks[d];
        /* (a deck just made holds nothing: ft_fate_deal's count of
         * those held is 0) */
        assert(fray_deck_held(deck, NULL, 0) == 0);
        int n = want;
        if (n <= 0)
            continue;
        fray_card cards[FT_HAND_MAX];
        if (ev->n_cards + n > FT_EVENT_CARDS ||
            fray_deck_hold(deck, &st->rng, (size_t)n, cards) != FRAY_OK)
            return false;
        for (int i = 0; i < n; i++) {
            ev->cards[ev->n_cards] = cards[i];
            ev->card_deck[ev->n_cards] = (uint8_t)d;
            ev->n_cards++;
        }
    }
    /* the Initiative flips: Calculated Initiative, the kept card plus [N] */
    for (int i = 0; i < 2; i++) {
        fray_flip fl;
        if (!start_flip(st, ev, &st->decks[s->c[i].deck], qs->init_n[i],
                        qs->init_k[i], qs->init_low[i], &fl))
            return false;
        int ci = fl.kept_value + s->c[i].sb.cv[FT_CV_N] + qs->init_shift[i];
        st->c[i].ci = (int16_t)ci;
        st->c[i].phase = 20 - (ci > 20 ? 20 : ci);
    }
    /* the tie order (engine.c tie_order and flip_off for two tied: the
     * first flips, then the second, again while their cards tie, within
     * FT_TIE_CARDS of the event's cards) */
    int flipoff[2] = {0, 0};
    if (qs->tie_static && st->c[0].ci == st->c[1].ci) {
        int g[2] = {0, 1};
        int budget = ev->n_cards + FT_TIE_CARDS;
        for (int rounds = 1;; rounds++) {
            if (rounds > 8)
                ev->flip_off_rounds = true;
            if (ev->n_cards + 2 > budget)
                break;
            int val[2];
            for (int k = 0; k < 2; k++) {
                fray_flip fl;
                if (!start_flip(st, ev, &st->decks[s->c[g[k]].deck], 1,
                                qs->tie_k, qs->tie_low, &fl))
                    return false;
                val[g[k]] = fl.kept_value;
            }
            if (val[g[1]] > val[g[0]]) {
                int t = g[0];
                g[0] = g[1];
                g[1] = t;
            }
            if (val[0] != val[1])
                break;
        }
        flipoff[g[0]] = 2;
        flipoff[g[1]] = 1;
    }
    /* best first: CI, then [N], then [SS], then the flip-off */
    int d = st->c[1].ci - st->c[0].ci;
    if (!d)
        d = s->c[1].sb.cv[FT_CV_N] - s->c[0].sb.cv[FT_CV_N];
    if (!d)
        d = s->c[1].sb.aspects[FT_ASPECT_SS] - s->c[0].sb.aspects[FT_ASPECT_SS];
    if (!d)
        d = flipoff[1] - flipoff[0];
    int first = d > 0 ? 1 : 0;
    st->c[first].init_rank = 0;
    st->c[1 - first].init_rank = 1;
    for (int i = 0; i < 2; i++)
        st->c[i].slot = ft_base_slot(st->c[i].init_rank);
    st->phase = 0;
    st->round = 1;
    ft_clock_sync(st);
    ft_threat_touch(st); /* (the reset's: every combatant placed anew) */
    st->n_events++;
    return true;
}

#ifndef NDEBUG
/* The long way's start (fight.c ft_rf_begin in a quiet run: the reset,
 * then the begin event through apply_quiet's steps). */
static fray_status start_long(fray_towers_fight *f, uint64_t seed,
                              uint64_t trial) {
    ft_state_reset_trial(&f->setup->s, &f->st, seed, trial);
    ft_event *ev = &f->scratch;
    begin_event_start(ev);
    ft_run r;
    ft_run_clear(&r);
    r.setup = &f->setup->s;
    r.st = &f->st;
    r.ev = ev;
    r.hooks = &ft_policy_hooks;
    r.paths = &f->paths;
    return ft_apply_next(&r, FT_NEXT_UNKNOWN);
}
#endif

bool ft_quick_begin(fray_towers_fight *f, uint64_t seed, uint64_t trial) {
    ft_quick *q = f->quick;
    if (!q || f->quick_off || f->opt.journal || f->opt.facts || f->table ||
        f->setup->s.opt.fresh_decks)
        return false;
    qstart *qs = &q->start;
    if (qs->for_setup != &f->setup->s)
        start_plan(qs, f);
    if (!qs->ok)
        return false;
#ifndef NDEBUG
    ft_state *before = fray__alloc(&f->alloc, sizeof *before);
    ft_state *quick = fray__alloc(&f->alloc, sizeof *quick);
    ft_event *qev = fray__alloc(&f->alloc, sizeof *qev);
    assert(before && quick && qev);
    *before = f->st;
#endif
    if (!start_quick(f, qs, seed, trial)) {
#ifndef NDEBUG
        fray__free(&f->alloc, before, sizeof *before);
        fray__free(&f->alloc, quick, sizeof *quick);
        fray__free(&f->alloc, qev, sizeof *qev);
#endif
        return false;
    }
#ifndef NDEBUG
    {
        /* the long way from the same state: the same state and event */
        *quick = f->st;
        *qev = f->scratch;
        f->st = *before;
        fray_status rc = start_long(f, seed, trial);
        assert(rc == FRAY_OK);
        assert(memcmp(quick, &f->st, sizeof *quick) == 0);
        assert(memcmp(qev, &f->scratch, offsetof(ft_event, cards)) == 0);
        assert(qev->n_cards == f->scratch.n_cards &&
               qev->n_choices == f->scratch.n_choices &&
               qev->n_facts == f->scratch.n_facts);
        assert(memcmp(qev->cards, f->scratch.cards,
                      (size_t)f->scratch.n_cards * sizeof qev->cards[0]) == 0);
        assert(memcmp(qev->card_deck, f->scratch.card_deck,
                      (size_t)f->scratch.n_cards *
                          sizeof qev->card_deck[0]) == 0);
        fray__free(&f->alloc, before, sizeof *before);
        fray__free(&f->alloc, quick, sizeof *quick);
        fray__free(&f->alloc, qev, sizeof *qev);
        (void)rc;
    }
#endif
    q->begun++;
    return true;
}

long ft_quick_begun(const void *rfight) {
    const fray_towers_fight *f = rfight;
    return f->quick ? f->quick->begun : 0;
}

/* ---- The switch ----------------------------------------------------------------------- */

bool ft_quick_eligible(const void *rfight) {
    return ((const fray_towers_fight *)rfight)->quick != NULL;
}

void ft_quick_set_off(void *rfight, bool off) {
    ((fray_towers_fight *)rfight)->quick_off = off;
}

long ft_quick_actions(const void *rfight) {
    const fray_towers_fight *f = rfight;
    return f->quick ? f->quick->actions : 0;
}

void ft_quick_set_model_off(void *rfight, bool off) {
    fray_towers_fight *f = rfight;
    if (f->quick)
        f->quick->model_off = off;
}

long ft_quick_modelled(const void *rfight) {
    const fray_towers_fight *f = rfight;
    return f->quick ? f->quick->modelled : 0;
}
