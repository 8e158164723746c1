/*
 * talent.c - 99 Towers talents as data (issue 13; rules-facts.md "Standard
 * ranks", "Hand of Fate"; seed 000 "LETHAL Damage", "Temporary STUN and
 * LETHAL").
 *
 * A talent is a name and a few effects from a closed vocabulary
 * (FT_TALENT_EFFECT_LIST): shifts and flips on a kind of flip, under a
 * condition; extra STUN on a hit; an action's cost; more maximum STUN or
 * LETHAL; temporary STUN or LETHAL at the start of a fight. The loader
 * (load.c ld_talent) reads them from a catalog (data/towers/talents.yaml)
 * and copies the ones a stat block names into it; ft_talents_sum sums what
 * can be summed once, so that a combatant with no talents costs one test
 * of a flag on each path a talent touches:
 *   attack.c  attacker_setup_mods / defender_setup_mods (the setup-only
 *             shifts and flips, summed in s->fast like advantages) and
 *             compute() (those that read the state, tsum.state);
 *             ft_damage_advantage (tsum.damage);
 *   harm.c    ft_max_stun / ft_max_lethal (tsum.max_stun, max_lethal);
 *   engine.c  advantage_ranks (initiative and skill flips), the clock
 *             cost of an action (tsum.cost), the start of a fight
 *             (temporary points, RULINGS 19: the larger grant).
 * Unlike advantages, talents add up: two talents that each give (shift+1)
 * give (shift+2) (fray's reading: rules-facts.md's "not cumulative" speaks
 * of advantage ranks).
 */
#include "towers_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define FT__N(id, name) name,
const char *const ft_talent_effect_names[FT_TE_COUNT] = {
    FT_TALENT_EFFECT_LIST(FT__N)};
const char *const ft_talent_when_names[FT_TW_COUNT] = {FT_TALENT_WHEN_LIST(FT__N)};
#undef FT__N

const ft_talent *ft_talent_find(const ft_setup *s, const char *name) {
    for (int i = 0; i < s->n_talent_catalog; i++)
        if (strcasecmp(s->talent_catalog[i].name, name) == 0)
            return &s->talent_catalog[i];
    return NULL;
}

bool ft_talent_needs_use(const ft_talent *t) {
    bool damage_only = true, once = false;
    for (int k = 0; k < t->n_effects; k++) {
        if (t->e[k].spend)
            return true;
        once = once || t->e[k].once;
        if (t->e[k].kind != FT_TE_DAMAGE)
            damage_only = false;
    }
    return once && !damage_only;
}

void ft_talents_sum(ft_statblock *sb) {
    ft_talent_sums t = {0};
    t.any = sb->n_talents > 0;
    for (int i = 0; i < sb->n_talents; i++) {
        ft_talent *tl = &sb->talents[i];
        bool used = ft_talent_needs_use(tl);
        t.used = t.used || used;
        for (int k = 0; k < tl->n_effects; k++) {
            ft_talent_effect *e = &tl->e[k];
            e->use = (uint8_t)(used ? i + 1 : 0);
            switch ((ft_talent_effect_kind)e->kind) {
            case FT_TE_SHIFT:
            case FT_TE_FLIP:
                if (e->on == FT_APPLIES_DAMAGE) {
                    /* Damage flips (grapple.c: Squeeze, Slam). */
                    if (e->when == FT_TW_ALWAYS && !e->use)
                        t.damage_flips += e->value;
                    else
                        t.damage_flips_state = true;
                } else if (e->when > FT_TW_WIELDING || e->use) {
                    t.state = true;
                }
                break;
            case FT_TE_DAMAGE:
                if (e->once || e->use || e->when != FT_TW_ALWAYS)
                    t.once_damage = true;
                else
                    t.damage += e->value;
                break;
            case FT_TE_COST:
                t.cost = true;
                break;
            case FT_TE_MAX_STUN:
                t.max_stun += e->value;
                break;
            case FT_TE_MAX_LETHAL:
                t.max_lethal += e->value;
                break;
            /* Temporary points do not add up (seed 000 "Temporary STUN and
             * LETHAL"; RULINGS 19): the largest grant. */
            case FT_TE_TEMP_STUN:
                if (e->value > t.temp_stun)
                    t.temp_stun = e->value;
                break;
            case FT_TE_TEMP_LETHAL:
                if (e->value > t.temp_lethal)
                    t.temp_lethal = e->value;
                break;
            case FT_TE_REACTION:
                t.extra_oa = true;
                break;
            case FT_TE_COUNT:
            default:
                break;
            }
        }
    }
    sb->tsum = t;
}

bool ft_talent_on_attack(const ft_talent_effect *e, bool def, bool spell,
                         bool melee) {
    if (e->kind != FT_TE_SHIFT && e->kind != FT_TE_FLIP)
        return false;
    switch ((ft_applies)e->on) {
    case FT_APPLIES_ALL:
        return true;
    case FT_APPLIES_ATTACK:
        return !def;
    case FT_APPLIES_MELEE_ATTACK:
        return !def && !spell && melee;
    case FT_APPLIES_RANGED_ATTACK:
        return !def && !spell && !melee;
    case FT_APPLIES_SPELL_ATTACK:
        return !def && spell;
    case FT_APPLIES_DEFENSE:
        return def;
    case FT_APPLIES_PHYSICAL_DEFENSE:
        return def && !spell;
    case FT_APPLIES_INTANGIBLE_DEFENSE:
        return def && spell;
    default:
        return false;
    }
}

static bool ranged_weapon(const ft_weapon *w) {
    return w && !w->spell && w->range_increment > 0;
}

static const ft_weapon *held(const ft_setup *s, const ft_state *st, int c,
                             int hand) {
    int wi = st->c[c].wielded[hand];
    const ft_statblock *sb = &s->c[c].sb;
    return wi >= 0 && wi < sb->n_weapons ? &sb->weapons[wi] : NULL;
}

bool ft_talent_holds(const ft_setup *s, const ft_state *st, int self, int other,
                    const ft_weapon *w, const ft_talent_effect *e) {
    if (e->use) {
        /* A talent used by a command counts while it is armed (Use a
         * Talent), never in the setup's sums (st NULL). */
        if (!st || self < 0)
            return false;
        const ft_cstate *c = &st->c[self];
        if (!(c->flags & FT_F_TALENT) ||
            !(c->talents_armed & (1u << ((e->use - 1) & 7))))
            return false;
    }
    switch ((ft_talent_when)e->when) {
    case FT_TW_ALWAYS:
        return true;
    case FT_TW_WIELDING:
        return w && e->keyword < 32 && (w->keywords & (1u << e->keyword));
    case FT_TW_TARGET_PRONE:
        return other >= 0 && ft_cond_has(st, other, FT_COND_PRONE);
    case FT_TW_TARGET_FLAT_FOOTED:
        return other >= 0 && !(st->c[other].flags & FT_F_ACTED);
    case FT_TW_BELOW_HALF_STUN:
        return 2 * st->c[self].stun < ft_max_stun(s, self);
    case FT_TW_TWO_RANGED:
        return ranged_weapon(held(s, st, self, 0)) &&
               ranged_weapon(held(s, st, self, 1));
    case FT_TW_TARGET_MARKED:
        /* Its marked target (seed 000 "Marked Targets"), or the one a
         * `spend: mark` talent spent its mark on. */
        return other >= 0 &&
               (ft_marked(st, self, other) ||
                (e->spend == FT_SPEND_MARK &&
                 st->c[self].talent_mark_vs == other + 1));
    case FT_TW_OUTNUMBERING: /* (ft_talent_holds_run: it needs the run) */
    case FT_TW_COUNT:
    default:
        return false;
    }
}

void ft_talents_options(ft_statblock *sb, const ft_options *o) {
    sb->tsum.no_add_up = false;
    if (o->talents_add_up || !sb->tsum.any)
        return;
    sb->tsum.no_add_up = true;
    /* Every shift and flip goes the long way (attack.c talent_state_mod),
     * where the best and the worst are picked among all that hold. */
    for (int i = 0; i < sb->n_talents; i++)
        for (int k = 0; k < sb->talents[i].n_effects; k++)
            if (sb->talents[i].e[k].kind == FT_TE_SHIFT ||
                sb->talents[i].e[k].kind == FT_TE_FLIP)
                sb->tsum.state = true;
}

void ft_talent_flip_mods(const ft_statblock *sb, ft_applies what,
                         const char *skill, int *flip, int *shift) {
    int best[2] = {0, 0}, worst[2] = {0, 0}; /* [0] shift, [1] flip */
    for (int i = 0; i < sb->n_talents; i++) {
        const ft_talent *tl = &sb->talents[i];
        for (int k = 0; k < tl->n_effects; k++) {
            const ft_talent_effect *e = &tl->e[k];
            if ((e->kind != FT_TE_SHIFT && e->kind != FT_TE_FLIP) ||
                e->when != FT_TW_ALWAYS || e->use)
                continue;
            bool fits = e->on == FT_APPLIES_ALL ||
                        (e->on == what &&
                         (what != FT_APPLIES_SKILL || !skill ||
                          strcasecmp(e->skill, skill) == 0));
            if (!fits)
                continue;
            int kind = e->kind == FT_TE_FLIP;
            if (sb->tsum.no_add_up) {
                if (e->value > best[kind])
                    best[kind] = e->value;
                if (e->value < worst[kind])
                    worst[kind] = e->value;
            } else if (kind) {
                *flip += e->value;
            } else {
                *shift += e->value;
            }
        }
    }
    *shift += best[0] + worst[0];
    *flip += best[1] + worst[1];
}

int ft_talent_cost(const ft_statblock *sb, ft_action act, int cost) {
    if (cost <= 0)
        return cost; /* free and special costs stay */
    int c = cost;
    for (int i = 0; i < sb->n_talents; i++) {
        const ft_talent *tl = &sb->talents[i];
        for (int k = 0; k < tl->n_effects; k++)
            if (tl->e[k].kind == FT_TE_COST && tl->e[k].action == act &&
                !tl->e[k].use)
                c += tl->e[k].value;
    }
    return c < 1 ? 1 : c;
}

/* ---- Stand from Prone with Acrobatics (seed 000 "Action List") ----------- */

fray_status ft_quick_stand(ft_run *r, int a, int *cost) {
    const ft_setup *s = r->setup;
    const ft_statblock *sb = &s->c[a].sb;
    const ft_skill *sk = NULL;
    for (int i = 0; i < sb->n_skills && !sk; i++)
        if (strcasecmp(sb->skills[i].name, "Acrobatics") == 0)
            sk = &sb->skills[i];
    if (!sk)
        return FRAY_OK;
    int dtn = s->opt.quick_stand_dtn;
    int flip = 0, shift = 0;
    ft_cond_mods(r->st, a, FT_FLIP_SKILL, false, &flip, &shift);
    ft_skill_mods(sb, sk->name, &flip, &shift);
    /* "The Quick Stand specialization helps as well": (flip+1), as any
     * specialization that applies (seed 001). */
    for (int i = 0; i < sk->n_specs; i++)
        if (strcasecmp(sk->specs[i], "Quick Stand") == 0)
            flip += 1;
    int aspect = sb->aspects[sk->aspect];
    fray_flip f;
    int total_shift = shift;
    fray_status rc = ft_flip(r, a, sk->rank + flip, FT_FLIP_SKILL, shift,
                             dtn - aspect, &f, &total_shift);
    if (rc != FRAY_OK)
        return rc;
    int total = f.kept_value + aspect + total_shift;
    bool quick = total >= dtn;
    if (quick)
        *cost = s->opt.quick_stand_phases;
    if (r->facts) {
        ft_fact *nf = ft_emit_fact(r, FT_FACT_NOTE, a, -1);
        if (nf) {
            int shown = total < -99 ? -99 : total > 999 ? 999 : total;
            snprintf(nf->text, sizeof nf->text, "Acrobatics %d: %s", shown,
                     quick ? "quick" : "slow");
        }
    }
    return FRAY_OK;
}

/* ---- A red chip for a Major Condition (rules-facts.md "Chips") ----------- */

static const bool cond_major[FT_CONDITION_COUNT] = {
#define FT__E(id, nm, mj, hx) mj,
    FT_CONDITION_LIST(FT__E)
#undef FT__E
};

/* The condition a red Shake ends: the one named, else the first major,
 * else the first minor; -1 none. */
static int red_shake_condition(const ft_cstate *c, int named) {
    int minor = -1;
    for (int i = 0; i < c->n_cond; i++) {
        int k = c->cond[i].kind;
        if (k < 0 || k >= FT_CONDITION_COUNT)
            continue;
        if (named >= 0) {
            if (k == named)
                return k;
            continue;
        }
        if (cond_major[k])
            return k;
        if (minor < 0)
            minor = k;
    }
    return minor;
}

/* The colour spent: red asks a red chip, or a blue one (rules-facts.md: a
 * higher chip for a lower chip's effect); blue asks a blue one. */
static int red_shake_colour(const ft_cstate *c, int chip) {
    if (chip == 1 && c->chips[1] > 0)
        return 1;
    return c->chips[2] > 0 ? 2 : -1;
}

const char *ft_red_shake_refusal(const ft_state *st, const ft_command *cmd) {
    const ft_cstate *c = &st->c[cmd->actor];
    if (red_shake_condition(c, cmd->condition) < 0)
        return cmd->condition >= 0 ? "does not have that condition"
                                   : "has no condition to recover from";
    if (red_shake_colour(c, cmd->chip) < 0)
        return cmd->chip == 1 ? "holds no red or blue chip" : "holds no blue chip";
    return NULL;
}

void ft_red_shake(ft_run *r, const ft_command *cmd) {
    ft_cstate *c = &r->st->c[cmd->actor];
    int k = red_shake_condition(c, cmd->condition);
    int colour = red_shake_colour(c, cmd->chip);
    if (k < 0 || colour < 0)
        return; /* (ft_check_command refused it) */
    c->chips[colour]--;
    c->chips_used++;
    ft_emit(r, FT_FACT_CHIP, cmd->actor, -1, colour,
            cond_major[k] ? FT_CHIP_FOR_RECOVER : FT_CHIP_FOR_SHAKE, 0, 0);
    ft_cond_remove(r, cmd->actor, (ft_condition)k);
}

/* ---- A white chip doubles <SPD> for one action (rules-facts.md "Chips") -- */

int ft_chip_speed_colour(const ft_cstate *c, int chip) {
    for (int k = chip < 0 ? 0 : chip; k < 3; k++)
        if (c->chips[k] > 0)
            return k;
    return -1;
}

void ft_chip_speed_spend(ft_run *r, int a, int chip) {
    ft_cstate *c = &r->st->c[a];
    int colour = ft_chip_speed_colour(c, chip);
    if (colour < 0)
        return; /* (ft_check_command refused it) */
    c->chips[colour]--;
    c->chips_used++;
    ft_emit(r, FT_FACT_CHIP, a, -1, colour, FT_CHIP_FOR_SPEED, 0, 0);
}

/* ---- An extra reaction ----------------------------------------------------- */

int ft_talent_oa_delay(ft_run *r, int e, int delay) {
    ft_cstate *c = &r->st->c[e];
    /* (A used talent's reaction counts while it is armed.) */
    bool any = false;
    const ft_statblock *sb = &r->setup->c[e].sb;
    for (int i = 0; i < sb->n_talents && !any; i++)
        for (int k = 0; k < sb->talents[i].n_effects && !any; k++)
            any = sb->talents[i].e[k].kind == FT_TE_REACTION &&
                  ft_talent_holds(r->setup, r->st, e, -1, NULL,
                                  &sb->talents[i].e[k]);
    if (!any)
        return delay;
    if (c->free_oa_round == r->st->round)
        return delay;
    c->free_oa_round = r->st->round;
    return 0;
}

/* ---- Once per encounter ------------------------------------------------------- */

FT_NOINLINE int ft_talent_once_damage(ft_run *r, int a) {
    const ft_statblock *sb = &r->setup->c[a].sb;
    ft_cstate *c = &r->st->c[a];
    int bonus = 0;
    for (int i = 0; i < sb->n_talents && i < 8; i++) {
        if (c->talents_used & (1u << i))
            continue;
        int add = 0;
        bool once = false;
        for (int k = 0; k < sb->talents[i].n_effects; k++) {
            const ft_talent_effect *e = &sb->talents[i].e[k];
            /* (Those with a `when` or used by a command:
             * ft_talent_hit_damage.) */
            if (e->kind == FT_TE_DAMAGE && e->once && !e->use &&
                e->when == FT_TW_ALWAYS) {
                add += e->value;
                once = true;
            }
        }
        if (!once)
            continue;
        c->talents_used = (uint8_t)(c->talents_used | (1u << i));
        bonus += add;
        if (r->facts) {
            ft_fact *nf = ft_emit_fact(r, FT_FACT_NOTE, a, -1);
            if (nf) {
                char b[64] = {0};
                snprintf(b, sizeof b, "%.12s +%d STUN, once", sb->talents[i].name,
                         add < 0 ? 0 : add > 99 ? 99 : add);
                memcpy(nf->text, b, sizeof nf->text - 1);
                nf->text[sizeof nf->text - 1] = '\0';
            }
        }
    }
    return bonus;
}

/* ==== Talents used with a command (issue 7) ============================
 * Use a Talent: talents whose effect needs a choice (a cost paid, a
 * limited use) are armed by a free action, `tony talent "Lucky Strike"
 * spending 7H`, and count until the start of the combatant's next
 * activation (FT_F_TALENT, cleared with Full Defense's flags: RULINGS 11
 * and 12's span). The Hand of Fate exchange at the end of an encounter
 * (rules-facts.md "Hand of Fate"). And the vocabulary read with the run:
 * `when: outnumbering`, damage flips, damage with a `when`. */

FT_NOINLINE bool ft_talent_holds_run(const ft_run *r, int self, int other,
                         const ft_weapon *w, const ft_talent_effect *e) {
    if (e->when != FT_TW_OUTNUMBERING)
        return ft_talent_holds(r->setup, r->st, self, other, w, e);
    ft_talent_effect x = *e;
    x.when = FT_TW_ALWAYS; /* (armed, when used by a command) */
    return other >= 0 && ft_talent_holds(r->setup, r->st, self, other, w, &x) &&
           ft_outnumbering(r, self, other);
}

static void talent_note(ft_run *r, int a, const char *name, int n) {
    if (!r->facts)
        return;
    ft_fact *nf = ft_emit_fact(r, FT_FACT_NOTE, a, -1);
    if (!nf)
        return;
    char b[64] = {0};
    snprintf(b, sizeof b, "%.15s %+d STUN", name, n < -99 ? -99 : n > 99 ? 99 : n);
    memcpy(nf->text, b, sizeof nf->text - 1);
    nf->text[sizeof nf->text - 1] = '\0';
}

/* (Out of line: kept off the plain action's path, as ft_talent_once_damage.) */
FT_NOINLINE int ft_talent_hit_damage(ft_run *r, int a, int t, const ft_weapon *w) {
    int bonus = ft_talent_once_damage(r, a);
    const ft_statblock *sb = &r->setup->c[a].sb;
    ft_cstate *c = &r->st->c[a];
    for (int i = 0; i < sb->n_talents && i < 8; i++) {
        const ft_talent *tl = &sb->talents[i];
        for (int k = 0; k < tl->n_effects; k++) {
            const ft_talent_effect *e = &tl->e[k];
            if (e->kind != FT_TE_DAMAGE ||
                (!e->use && e->when == FT_TW_ALWAYS))
                continue; /* (in tsum.damage, or ft_talent_once_damage) */
            /* Once per encounter by itself, with a `when`: the first hit
             * on which it holds. (A used talent's once is spent when it is
             * used.) */
            bool auto_once = e->once && !e->use;
            if (auto_once && (c->talents_used & (1u << i)))
                continue;
            if (!ft_talent_holds_run(r, a, t, w, e))
                continue;
            if (auto_once)
                c->talents_used = (uint8_t)(c->talents_used | (1u << i));
            bonus += e->value;
            talent_note(r, a, tl->name, e->value);
        }
    }
    return bonus;
}

FT_NOINLINE int ft_talent_damage_flips(const ft_run *r, int a, int t) {
    const ft_statblock *sb = &r->setup->c[a].sb;
    int n = sb->tsum.damage_flips;
    if (!sb->tsum.damage_flips_state)
        return n;
    for (int i = 0; i < sb->n_talents; i++)
        for (int k = 0; k < sb->talents[i].n_effects; k++) {
            const ft_talent_effect *e = &sb->talents[i].e[k];
            if (e->kind == FT_TE_FLIP && e->on == FT_APPLIES_DAMAGE &&
                (e->use || e->when != FT_TW_ALWAYS) &&
                ft_talent_holds_run(r, a, t, NULL, e))
                n += e->value;
        }
    return n;
}

FT_NOINLINE int ft_talent_action_cost(const ft_run *r, int a, ft_action act, int cost) {
    const ft_statblock *sb = &r->setup->c[a].sb;
    if (cost <= 0 || !sb->tsum.used)
        return ft_talent_cost(sb, act, cost); /* (free and special stay) */
    int c = cost;
    for (int i = 0; i < sb->n_talents; i++)
        for (int k = 0; k < sb->talents[i].n_effects; k++) {
            const ft_talent_effect *e = &sb->talents[i].e[k];
            if (e->kind == FT_TE_COST && e->action == act &&
                (!e->use || ft_talent_holds(r->setup, r->st, a, -1, NULL, e)))
                c += e->value;
        }
    return c < 1 ? 1 : c;
}

/* ---- Use a Talent ----------------------------------------------------------- */

static int talent_spend(const ft_talent *t) {
    for (int k = 0; k < t->n_effects; k++)
        if (t->e[k].spend)
            return t->e[k].spend;
    return FT_SPEND_NONE;
}

static bool talent_once(const ft_talent *t) {
    for (int k = 0; k < t->n_effects; k++)
        if (t->e[k].once)
            return true;
    return false;
}

static const fray_deck *deck_of(const ft_setup *s, const ft_state *st, int c) {
    int d = s->c[c].deck;
    return d >= 0 && d < st->n_decks ? &st->decks[d] : NULL;
}

static bool held_in(const fray_deck *deck, int card) {
    return deck && card >= 0 && card < FRAY_CARDS_MAX &&
           fray_deck_place(deck, (fray_card)card) == FRAY_PLACE_HELD;
}

FT_NOINLINE const char *ft_talent_use_refusal(const ft_setup *s, const ft_state *st,
                                  const ft_command *cmd) {
    int a = cmd->actor;
    const ft_statblock *sb = &s->c[a].sb;
    if (cmd->talent < 1 || cmd->talent > sb->n_talents)
        return "that is not one of its talents";
    const ft_talent *t = &sb->talents[cmd->talent - 1];
    const ft_cstate *c = &st->c[a];
    int bit = 1 << ((cmd->talent - 1) & 7);
    if (!ft_talent_needs_use(t))
        return "that talent works by itself: it is not used with a command";
    if ((c->flags & FT_F_TALENT) && (c->talents_armed & bit))
        return "that talent is in use already (until its next activation)";
    if (talent_once(t) && (c->talents_used & bit))
        return "that talent is once per encounter and was used in this fight";
    switch (talent_spend(t)) {
    case FT_SPEND_HAND_OF_FATE: {
        const fray_deck *deck = deck_of(s, st, a);
        if (!deck || fray_deck_count(deck, FRAY_PLACE_HELD) == 0)
            return "it holds no Hand of Fate card to spend";
        if (!cmd->card)
            return "that talent spends a Hand of Fate card: name it "
                   "(spending CARD)";
        if (!held_in(deck, cmd->card - 1))
            return "that card is not in its Hand of Fate";
        break;
    }
    case FT_SPEND_MARK:
        if (cmd->target < 0 || cmd->target >= st->n)
            return "that talent spends a mark: name the marked target";
        if (!ft_marked(st, a, cmd->target))
            return "it has no mark on that target to spend";
        break;
    default:
        if (cmd->card)
            return "that talent spends no Hand of Fate card";
        break;
    }
    return NULL;
}

FT_NOINLINE fray_status ft_talent_use(ft_run *r) {
    const ft_command *cmd = &r->ev->cmd;
    const ft_setup *s = r->setup;
    int a = cmd->actor;
    const char *why = ft_talent_use_refusal(s, r->st, cmd);
    if (why)
        return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0, "%s: %s",
                              s->c[a].name, why);
    const ft_talent *t = &s->c[a].sb.talents[cmd->talent - 1];
    ft_cstate *c = &r->st->c[a];
    int spend = talent_spend(t);
    if (!(c->flags & FT_F_TALENT)) {
        /* What was armed before the last activation began is gone. */
        c->talents_armed = 0;
        c->talent_mark_vs = 0;
    }
    ft_fact *x = r->facts ? ft_emit_fact(r, FT_FACT_TALENT, a,
                                         spend == FT_SPEND_MARK ? cmd->target
                                                                : -1)
                          : NULL;
    if (spend == FT_SPEND_HAND_OF_FATE) {
        fray_card card = (fray_card)(cmd->card - 1);
        int d = s->c[a].deck;
        if (fray_deck_discard(&r->st->decks[d], &card, 1) != FRAY_OK)
            return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0,
                                  "that Hand of Fate card cannot be spent");
        c->fate_used++;
        if (x) {
            x->cards[0] = card;
            x->n_cards = 1;
        }
    } else if (spend == FT_SPEND_MARK) {
        ft_mark_spend(r->st, a, cmd->target);
        c->talent_mark_vs = (int8_t)(cmd->target + 1);
    }
    int bit = 1 << ((cmd->talent - 1) & 7);
    c->talents_armed = (uint8_t)(c->talents_armed | bit);
    if (talent_once(t))
        c->talents_used = (uint8_t)(c->talents_used | bit);
    c->flags |= FT_F_TALENT;
    if (x) {
        x->v[0] = cmd->talent - 1;
        x->v[1] = spend;
    }
    return FRAY_OK;
}

FT_NOINLINE int ft_talent_lowest_held(const ft_setup *s, const ft_state *st, int who) {
    const fray_deck *deck = deck_of(s, st, who);
    if (!deck)
        return 0;
    fray_card held[FRAY_CARDS_MAX];
    int n = ft_deck_held(deck, held), best = -1, bv = 0;
    for (int i = 0; i < n; i++) {
        int v = ft_card_value(&s->opt.deck, held[i]);
        if (best < 0 || v < bv) {
            best = held[i];
            bv = v;
        }
    }
    return best + 1;
}

/* ---- The Hand of Fate exchange (rules-facts.md "Hand of Fate") ------------- */

FT_NOINLINE const char *ft_exchange_refusal(const ft_setup *s, const ft_state *st,
                                const ft_command *cmd) {
    int a = cmd->actor;
    if (!st->over)
        return "the Hand of Fate exchange comes at the end of the encounter: "
               "the fight is not over";
    const fray_deck *deck = deck_of(s, st, a);
    int d = s->c[a].deck;
    if (!deck)
        return "it has no deck";
    if (st->fate_exchanged & (1u << (d & 31)))
        return "its deck has made its exchange already";
    if (!cmd->card)
        return "name the held card to discard (exchange CARD)";
    if (!held_in(deck, cmd->card - 1))
        return "that card is not in its deck's Hand of Fate";
    return NULL;
}

FT_NOINLINE fray_status ft_exchange(ft_run *r) {
    const ft_command *cmd = &r->ev->cmd;
    const ft_setup *s = r->setup;
    int a = cmd->actor;
    const char *why = ft_exchange_refusal(s, r->st, cmd);
    if (why)
        return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0, "%s: %s",
                              s->c[a].name, why);
    int d = s->c[a].deck;
    fray_deck *deck = &r->st->decks[d];
    fray_card old = (fray_card)(cmd->card - 1), nc;
    /* The top card first, then the discard: the card let go cannot come
     * straight back through a reshuffle of the discard pile. */
    fray_status rc = ft_fate_hold_one(r, d, &nc);
    if (rc != FRAY_OK)
        return rc;
    if (fray_deck_discard(deck, &old, 1) != FRAY_OK)
        return fray__diag_set(r->diag, FRAY_ERR_INVALID, 0,
                              "that Hand of Fate card cannot be discarded");
    r->st->fate_exchanged |= 1u << (d & 31);
    ft_fact *x = r->facts ? ft_emit_fact(r, FT_FACT_EXCHANGE, a, -1) : NULL;
    if (x) {
        /* The deck, the card let go, the card drawn, then the hand as it
         * now is (for a tool that carries it to the next encounter). */
        x->v[0] = d;
        x->cards[0] = old;
        x->cards[1] = nc;
        fray_card held[FRAY_CARDS_MAX];
        int n = ft_deck_held(deck, held);
        if (n > 10)
            n = 10;
        memcpy(x->cards + 2, held, (size_t)n);
        x->n_cards = (uint8_t)(2 + n);
    }
    return FRAY_OK;
}

FT_NOINLINE bool ft_exchange_choose(const ft_setup *s, const ft_state *st, int below,
                        ft_command *cmd) {
    if (below <= 0 || !st->over)
        return false;
    for (int d = 0; d < st->n_decks && d < 32; d++) {
        if (st->fate_exchanged & (1u << d))
            continue;
        /* The deck's owner: its first combatant. */
        int who = -1;
        for (int c = 0; c < st->n && who < 0; c++)
            if (s->c[c].deck == d)
                who = c;
        if (who < 0)
            continue;
        int low = ft_talent_lowest_held(s, st, who);
        if (!low || ft_card_value(&s->opt.deck, (fray_card)(low - 1)) >= below)
            continue;
        const fray_deck *deck = &st->decks[d];
        if (fray_deck_count(deck, FRAY_PLACE_DRAW) +
                fray_deck_count(deck, FRAY_PLACE_DISCARD) < 1)
            continue;
        memset(cmd, 0, sizeof *cmd);
        cmd->action = FT_ACT_EXCHANGE;
        cmd->actor = (int8_t)who;
        cmd->target = cmd->weapon = cmd->ally = cmd->condition = -1;
        cmd->hold_who = cmd->skill = cmd->chip = -1;
        cmd->card = (uint8_t)low;
        return true;
    }
    return false;
}
