/*
 * duel.c - 99 Towers' formal duel (seed 000 "Dueling": Position, Showdown,
 * Focus, Strike) and opposed skill flips in play (seed 001 "Opposed Skill
 * Flips"; seed 000 "Skill, Aspect, and Attribute Checks").
 *
 * A duel is declared by the encounter's `duel:` key (load.c; ft_setup.duel):
 * exactly two combatants, the challenger listed first (combatant 0), the
 * one challenged second (1). The engine calls in here only when a duel is
 * declared (one test of s->duel.to), so a fight without one runs as before:
 *   begin (engine.c)     ft_duel_begin: Stage Two, the Showdown, and the
 *                        concessions the option duel-concede makes; then
 *                        ft_duel_initiative per duelist (Stage Three, the
 *                        Focus check instead of the Initiative [N] flip);
 *   a hit (attack.c)     ft_duel_harm: Stage Four's simultaneous damage
 *                        and first blood;
 *   after each action    ft_duel_after_action: held damage applied once
 *                        neither duelist still acts in that phase;
 *   the end (engine.c)   ft_duel_check_over: first blood, incapacitation
 *                        or death;
 *   concede              ft_duel_check_concede, ft_duel_concede.
 * And Use a Skill against a target (ft_opposed_skill), for any fight.
 */
#include "towers_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ---- Skill checks (seed 001) --------------------------------------------- */

int ft_duel_skill(const ft_setup *s, int c) {
    const ft_statblock *sb = &s->c[c].sb;
    for (int i = 0; i < sb->n_skills; i++)
        if (strcasecmp(sb->skills[i].name, "Dueling") == 0)
            return i;
    return -1;
}

static bool has_spec(const ft_skill *sk, const char *spec) {
    for (int i = 0; i < sk->n_specs && i < FT_MAX_SPECS; i++)
        if (strcasecmp(sk->specs[i], spec) == 0)
            return true;
    return false;
}

/*
 * The cards (n) and the shift (the Aspect and every shift) of a skill check
 * of combatant c with skill `skill` (-1: c lacks it: rank 0, RULINGS 3
 * then flips 2 - n and keeps the lowest; `aspect` is the one the missing
 * skill would add), `spec` a specialization that applies ((flip+1) when c
 * has it; NULL none, or spec_given: it applies), `extra` more flip mods.
 * As Use a Skill (engine.c): the conditions, the skill's advantages, the
 * specialization; the Aspect is added to the total (seed 000 "Skill,
 * Aspect, and Attribute Checks": "add in the matching Aspect score").
 */
static void skill_check(const ft_run *r, int c, int skill, ft_aspect aspect,
                        const char *spec, bool spec_given, int extra, int *n,
                        int *shift) {
    const ft_statblock *sb = &r->setup->c[c].sb;
    int flip = extra, sh = 0;
    ft_cond_mods(r->st, c, FT_FLIP_SKILL, false, &flip, &sh);
    int rank = 0;
    if (skill >= 0 && skill < sb->n_skills) {
        const ft_skill *sk = &sb->skills[skill];
        rank = sk->rank;
        aspect = sk->aspect;
        ft_skill_mods(sb, sk->name, &flip, &sh);
        if (spec_given || (spec && has_spec(sk, spec)))
            flip += 1;
    }
    *n = rank + flip;
    *shift = sh + sb->aspects[aspect];
}

/* ---- Stage Two: Showdown -------------------------------------------------- */

enum {
    LEARN_PA, LEARN_PX, LEARN_RANK, LEARN_HAND, LEARN_CHIPS, LEARN_HEALTH,
    LEARN_LEVEL, LEARN_COUNT
};
static const char *const learn_key[LEARN_COUNT] = {
    "physical-attack", "physical-damage", "dueling-rank", "hand-of-fate",
    "chips", "stun-and-lethal", "level"};

static const ft_weapon *main_weapon(const ft_setup *s, const ft_state *st,
                                    int c) {
    int w = st->c[c].wielded[0];
    if (w < 0)
        w = st->c[c].wielded[1];
    return w >= 0 && w < s->c[c].sb.n_weapons ? &s->c[c].sb.weapons[w] : NULL;
}

/* The piece of information k about duelist t, in the seed's order. */
static void learn(ft_run *r, int who, int t, int k) {
    const ft_setup *s = r->setup;
    const ft_state *st = r->st;
    const ft_statblock *sb = &s->c[t].sb;
    const ft_cstate *c = &st->c[t];
    const ft_weapon *w = main_weapon(s, st, t);
    ft_fact *f = ft_emit_fact(r, FT_FACT_LEARN, who, t);
    if (!f)
        return;
    f->v[0] = k;
    switch (k) {
    case LEARN_PA: /* cards of his attack flip with the weapon in hand */
        f->v[1] = sb->cv[FT_CV_PA] + (w ? w->attack_bonus : 0);
        break;
    case LEARN_PX: /* the weapon's damage */
        f->v[1] = w ? w->damage + (w->adds_px ? sb->cv[FT_CV_PX] : 0)
                    : sb->cv[FT_CV_PX];
        break;
    case LEARN_RANK: {
        int d = ft_duel_skill(s, t);
        f->v[1] = d >= 0 ? sb->skills[d].rank : 0;
        break;
    }
    case LEARN_HAND:
        f->v[1] = (int)fray_deck_held(&st->decks[s->c[t].deck], NULL, 0);
        break;
    case LEARN_CHIPS:
        f->v[1] = c->chips[0];
        f->v[2] = c->chips[1];
        f->v[3] = c->chips[2];
        break;
    case LEARN_HEALTH:
        f->v[1] = c->stun + c->temp_stun;
        f->v[2] = c->lethal + c->temp_lethal;
        break;
    default: /* a stat block holds no character level */
        f->v[1] = -1;
        break;
    }
}

/* One opposed flip of the Showdown: `who` learns, `t` resists. */
static fray_status showdown(ft_run *r, int who, int t) {
    const ft_setup *s = r->setup;
    ft_opposed o;
    o.a = who;
    o.t = t;
    o.ap = o.dp = FT_FLIP_SKILL;
    skill_check(r, who, ft_duel_skill(s, who), FT_ASPECT_SS, "Evaluation",
                false, 0, &o.an, &o.ash);
    skill_check(r, t, ft_duel_skill(s, t), FT_ASPECT_SS, "Evaluation", false,
                0, &o.dn, &o.dsh);
    fray_status rc = ft_flip_opposed(r, &o);
    if (rc != FRAY_OK)
        return rc;
    int mine = o.af.kept_value + o.ash, theirs = o.df.kept_value + o.dsh;
    int by = mine > theirs ? mine - theirs : 0;
    r->st->duel_margin[who] = (int8_t)(by > 100 ? 100 : by);
    ft_emit(r, FT_FACT_SHOWDOWN, who, t, mine, theirs, by, by >= 5);
    for (int k = 0; k < by && k < LEARN_COUNT; k++)
        learn(r, who, t, k);
    return FRAY_OK;
}

/* The duel is over: `winner` side (-2 nobody), how, the DUEL and END
 * facts. */
static void duel_over(ft_run *r, int how, int who, int target, int winner) {
    ft_state *st = r->st;
    st->over = true;
    st->winner = (int8_t)winner;
    st->duel_end = (uint8_t)how;
    ft_emit(r, FT_FACT_DUEL, who, target, how, 0, 0, 0);
    ft_emit(r, FT_FACT_END, -1, -1, winner, st->phase, 0, 0);
}

fray_status ft_duel_begin(ft_run *r, bool *out_over) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    *out_over = false;
    st->duel_margin[0] = st->duel_margin[1] = 0;
    st->duel_held_src[0] = st->duel_held_src[1] = -1;
    if (s->duel.showdown) {
        /* Each flips twice: once to learn, once to resist; the challenger
         * learns first. */
        fray_status rc = showdown(r, 0, 1);
        if (rc == FRAY_OK)
            rc = showdown(r, 1, 0);
        if (rc != FRAY_OK)
            return rc;
    }
    /* "at this point, either of the duelists can concede defeat": by the
     * option duel-concede (the table's own word is the concede command,
     * before the first blow). Not in a duel to the death. */
    if (s->duel.to != FT_DUEL_DEATH &&
        s->opt.duel_concede == FT_CONCEDE_OUTMATCHED)
        for (int i = 0; i < 2; i++)
            if (st->duel_margin[1 - i] >= 5) {
                duel_over(r, FT_DUEL_END_CONCEDED, i, 1 - i,
                          s->c[1 - i].side);
                *out_over = true;
                return FRAY_OK;
            }
    return FRAY_OK;
}

/* ---- Stage Three: Focus ----------------------------------------------------- */

fray_status ft_duel_initiative(ft_run *r, int c, int *out_ci) {
    const ft_setup *s = r->setup;
    int n, shift;
    /* The Focus specialization applies, Soft Strength is added "just like
     * any normal skill check", and the Showdown's (flip+1) is used now. */
    skill_check(r, c, ft_duel_skill(s, c), FT_ASPECT_SS, "Focus", false,
                c < 2 && r->st->duel_margin[c] >= 5 ? 1 : 0, &n, &shift);
    fray_flip f;
    int total_shift = shift;
    fray_status rc = ft_flip(r, c, n, FT_FLIP_INITIATIVE, shift, INT_MIN, &f,
                             &total_shift);
    if (rc != FRAY_OK)
        return rc;
    *out_ci = f.kept_value + total_shift;
    return FRAY_OK;
}

/* ---- Stage Four: Strike --------------------------------------------------- */

/* The Resilience that applies to a weapon's damage (harm.c resilience). */
static int resilience_of(const ft_setup *s, int c, ft_category cat) {
    const ft_statblock *sb = &s->c[c].sb;
    if (cat == FT_CAT_PHYSICAL)
        return sb->cv[FT_CV_ER] + (sb->has_armor ? sb->armor.er : 0);
    if (cat == FT_CAT_ARCANE)
        return sb->cv[FT_CV_IR] + (sb->has_armor ? sb->armor.ir : 0);
    return 0;
}

static void flush(ft_run *r) {
    ft_state *st = r->st;
    int16_t hs[2] = {st->duel_held_stun[0], st->duel_held_stun[1]};
    int16_t hl[2] = {st->duel_held_lethal[0], st->duel_held_lethal[1]};
    int8_t src[2] = {st->duel_held_src[0], st->duel_held_src[1]};
    st->duel_held_stun[0] = st->duel_held_stun[1] = 0;
    st->duel_held_lethal[0] = st->duel_held_lethal[1] = 0;
    st->duel_held_src[0] = st->duel_held_src[1] = -1;
    st->duel_blood = (uint8_t)((st->duel_blood | st->duel_blood >> 2) & 3u);
    for (int i = 0; i < 2; i++)
        if (src[i] >= 0)
            ft_harm_apply(r, i, hs[i], hl[i], src[i]);
}

static bool holding(const ft_state *st) {
    return st->duel_held_src[0] >= 0 || st->duel_held_src[1] >= 0;
}

void ft_duel_harm(ft_run *r, int a, int t, const ft_weapon *w, int bonus,
                  int hearts, fray_towers_hit h) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    if (t < 0 || t > 1) {
        ft_harm_apply(r, t, h.stun, h.lethal, a);
        return;
    }
    /* First blood: STUN damage that exceeds the Resilience (the damage
     * and Hearts before it is taken off are more than it); the Minimum
     * Damage rule's 1 STUN "does not count". */
    int damage = w->damage + bonus +
                 (w->adds_px && a >= 0 ? s->c[a].sb.cv[FT_CV_PX] : 0);
    bool blood = h.stun > 0 &&
                 damage + (hearts > 0 ? hearts : 0) >
                     resilience_of(s, t, w->category);
    /* "if both combatants act in the same phase, any damage done in that
     * phase is applied simultaneously": held while the target still acts
     * in this phase. */
    if (s->opt.simultaneous_duel && t != a && ft_can_act(st, t) &&
        st->c[t].phase == st->phase) {
        st->duel_held_stun[t] = (int16_t)(st->duel_held_stun[t] + h.stun);
        st->duel_held_lethal[t] =
            (int16_t)(st->duel_held_lethal[t] + h.lethal);
        st->duel_held_src[t] = (int8_t)a;
        st->duel_held_phase = st->phase;
        if (blood)
            st->duel_blood |= (uint8_t)(4u << t);
        ft_emit(r, FT_FACT_DUEL, a, t, FT_DUEL_END_HELD, h.stun, h.lethal,
                st->phase);
        return;
    }
    if (blood)
        st->duel_blood |= (uint8_t)(1u << t);
    ft_harm_apply(r, t, h.stun, h.lethal, a);
    if (holding(st))
        flush(r); /* the other blow of the phase, at the same moment */
}

void ft_duel_after_action(ft_run *r) {
    ft_state *st = r->st;
    if (!holding(st))
        return;
    for (int i = 0; i < 2; i++)
        if (st->duel_held_src[i] >= 0 && ft_can_act(st, i) &&
            st->c[i].phase == st->duel_held_phase &&
            st->phase == st->duel_held_phase)
            return; /* it still acts in that phase */
    flush(r);
}

void ft_duel_check_over(ft_run *r) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    if (st->over)
        return;
    if (s->duel.to == FT_DUEL_FIRST_BLOOD) {
        unsigned b = st->duel_blood & 3u;
        if (b == 3u) {
            /* "destiny has intervened": dropped, neither is the victor. */
            duel_over(r, FT_DUEL_END_DRAW, -1, -1, -2);
            return;
        }
        if (b) {
            int v = b == 1u ? 0 : 1;
            duel_over(r, FT_DUEL_END_FIRST_BLOOD, 1 - v, v, s->c[1 - v].side);
            return;
        }
    }
    /* Out of the duel: a duel to first blood or incapacitation ends when
     * one cannot fight on (unconscious, disabled); to the death, only
     * death ends it. */
    uint16_t out = s->duel.to == FT_DUEL_DEATH
                       ? (uint16_t)(FT_F_DEAD | FT_F_FLED)
                       : (uint16_t)(FT_F_UNCONSCIOUS | FT_F_DISABLED |
                                    FT_F_DYING | FT_F_DEAD | FT_F_FLED);
    bool down[2];
    for (int i = 0; i < 2; i++)
        down[i] = i >= st->n || (st->c[i].flags & out) != 0;
    /* To the death, with both out of the fight and neither dead, nobody
     * is left to strike the blow (the clock has no one on it): fray
     * ends the duel there with no victor. */
    if (s->duel.to == FT_DUEL_DEATH && !ft_in_fight(st, 0) &&
        !ft_in_fight(st, 1))
        down[0] = down[1] = true;
    if (!down[0] && !down[1])
        return;
    st->over = true;
    st->winner = (int8_t)(down[0] && down[1] ? -2
                          : down[0]          ? s->c[1].side
                                             : s->c[0].side);
    ft_emit(r, FT_FACT_END, -1, -1, st->winner, st->phase, 0, 0);
}

/* ---- Concession --------------------------------------------------------- */

fray_status ft_duel_check_concede(const ft_setup *s, const ft_state *st,
                                  const ft_command *cmd, fray_diag *diag) {
    int a = cmd->actor;
    if (!s->duel.to)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "only a duel can be conceded: this encounter "
                              "declares none");
    if (a < 0 || a > 1 || a >= st->n)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "only a duelist can concede");
    if (s->duel.to == FT_DUEL_DEATH)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "duels to the death cannot be stopped via "
                              "concession");
    if (st->over)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "the fight is over");
    if ((st->c[0].flags | st->c[1].flags) & FT_F_ACTED)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "a duelist concedes after the Showdown, before "
                              "either acts: the Strike has begun");
    return FRAY_OK;
}

fray_status ft_duel_concede(ft_run *r) {
    const ft_command *cmd = &r->ev->cmd;
    fray_status rc = ft_duel_check_concede(r->setup, r->st, cmd, r->diag);
    if (rc != FRAY_OK)
        return rc;
    int a = cmd->actor;
    duel_over(r, FT_DUEL_END_CONCEDED, a, 1 - a, r->setup->c[1 - a].side);
    return FRAY_OK;
}

/* ---- Opposed skill flips (seed 001) --------------------------------------- */

/* What the target of opposed skill flip cmd opposes with: tk, its skill
 * named, else its skill of the same name (-1 lacking it: rank 0 with the
 * same Aspect); raw, the raw Aspect it resists with instead, or the
 * better (High) or the lower (Low) of an Attribute's two (-1: none): "you
 * do not add in the Aspect. You only take the value of the flip" (seed
 * 000 "Skill, Aspect, and Attribute Checks"). */
static void opposition(const ft_setup *s, const ft_command *cmd, int *tk,
                       int *raw) {
    const ft_statblock *tsb = &s->c[cmd->target].sb;
    const ft_skill *sk = &s->c[cmd->actor].sb.skills[cmd->skill];
    *tk = cmd->opp_skill - 1;
    if (*tk < 0)
        for (int i = 0; i < tsb->n_skills; i++)
            if (strcasecmp(tsb->skills[i].name, sk->name) == 0)
                *tk = i;
    *raw = -1;
    if (cmd->opp_aspect > 0 && cmd->opp_aspect <= FT_ASPECT_COUNT) {
        *raw = tsb->aspects[cmd->opp_aspect - 1];
    } else if (cmd->opp_attribute > 0 &&
               cmd->opp_attribute <= 2 * FT_ATTR_COUNT) {
        static const ft_aspect pair[FT_ATTR_COUNT][2] = {
            {FT_ASPECT_HS, FT_ASPECT_SS}, {FT_ASPECT_EE, FT_ASPECT_IE},
            {FT_ASPECT_SP, FT_ASPECT_IP}, {FT_ASPECT_AI, FT_ASPECT_II}};
        int k = (cmd->opp_attribute - 1) / 2;
        int x = tsb->aspects[pair[k][0]], y = tsb->aspects[pair[k][1]];
        bool low = (cmd->opp_attribute - 1) % 2 != 0;
        *raw = low ? (x < y ? x : y) : (x > y ? x : y);
    }
}

void ft_opposed_skill_tie(const ft_setup *s, const ft_command *cmd, int *aa,
                          int *ta) {
    const ft_statblock *asb = &s->c[cmd->actor].sb, *tsb = &s->c[cmd->target].sb;
    const ft_skill *sk = &asb->skills[cmd->skill];
    int tk, raw;
    opposition(s, cmd, &tk, &raw);
    *aa = asb->aspects[sk->aspect];
    *ta = raw >= 0 ? raw
                   : tsb->aspects[tk >= 0 ? tsb->skills[tk].aspect : sk->aspect];
}

fray_status ft_opposed_skill(ft_run *r, const ft_command *cmd) {
    const ft_setup *s = r->setup;
    int a = cmd->actor, t = cmd->target;
    const ft_skill *sk = &s->c[a].sb.skills[cmd->skill];
    int tk, raw;
    opposition(s, cmd, &tk, &raw);
    ft_opposed o;
    o.a = a;
    o.t = t;
    o.ap = o.dp = FT_FLIP_SKILL;
    skill_check(r, a, cmd->skill, sk->aspect, NULL, cmd->skill_spec > 0, 0,
                &o.an, &o.ash);
    if (raw >= 0 || cmd->opp_aspect > 0 || cmd->opp_attribute > 0) {
        int flip = 0, sh = 0;
        ft_cond_mods(r->st, t, FT_FLIP_CHECK, false, &flip, &sh);
        o.dp = FT_FLIP_CHECK;
        o.dn = raw + flip;
        o.dsh = sh;
    } else {
        skill_check(r, t, tk, sk->aspect, NULL, false, 0, &o.dn, &o.dsh);
    }
    fray_status rc = ft_flip_opposed(r, &o);
    if (rc != FRAY_OK)
        return rc;
    int mine = o.af.kept_value + o.ash, theirs = o.df.kept_value + o.dsh;
    /* "In the case of a tie, the Aspect values of the participants are
     * compared, with the higher one winning. If there's still a tie, the
     * character who initiated the opposed skill flip is the winner." */
    int winner, tie = 0;
    if (mine != theirs) {
        winner = mine > theirs ? a : t;
    } else {
        int aa, ta;
        ft_opposed_skill_tie(s, cmd, &aa, &ta);
        tie = aa != ta ? 1 : 2;
        winner = aa != ta ? (aa > ta ? a : t) : a;
    }
    ft_emit(r, FT_FACT_OPPOSED, a, t, mine, theirs, winner, tie);
    /* A check used as an attack (seed 000 "Skill, Aspect, and Attribute
     * Checks"): its effect, a condition named in the command, lands when
     * the one who made it wins. */
    if (winner == a && cmd->condition >= 0 &&
        cmd->condition < FT_CONDITION_COUNT)
        ft_cond_add(r, t, (ft_condition)cmd->condition, 0, FT_UNTIL_REMOVED,
                    -1, 0, a);
    return FRAY_OK;
}

/* ---- Words and JSON --------------------------------------------------------- */

static const char *nm(const ft_setup *s, int c) {
    return c >= 0 && c < s->n_combatants ? s->c[c].name : "someone";
}

static size_t done(int n, size_t size) {
    if (n < 0)
        return 0;
    return (size_t)n < size ? (size_t)n : (size > 0 ? size - 1 : 0);
}

size_t ft_duel_fact_text(const ft_setup *s, const ft_fact *f, char *buf,
                         size_t size) {
    int n = -1;
    switch (f->kind) {
    case FT_FACT_SHOWDOWN:
        if (f->v[2] > 0)
            n = snprintf(buf, size,
                         "  Showdown: %s's Dueling (Evaluation) %d against "
                         "%s's %d: %s learns %d piece%s of information%s\n",
                         nm(s, f->who), f->v[0], nm(s, f->target), f->v[1],
                         nm(s, f->who), f->v[2], f->v[2] == 1 ? "" : "s",
                         f->v[3] ? ", and beat him by 5 or more: (flip+1) "
                                   "in Stage Three"
                                 : "");
        else
            n = snprintf(buf, size,
                         "  Showdown: %s's Dueling (Evaluation) %d against "
                         "%s's %d: %s learns nothing\n",
                         nm(s, f->who), f->v[0], nm(s, f->target), f->v[1],
                         nm(s, f->who));
        break;
    case FT_FACT_LEARN: {
        const char *who = nm(s, f->who), *of = nm(s, f->target);
        switch (f->v[0]) {
        case LEARN_PA:
            n = snprintf(buf, size, "  %s learns %s's Physical Attack (%d)\n",
                         who, of, f->v[1]);
            break;
        case LEARN_PX:
            n = snprintf(buf, size, "  %s learns %s's Physical Damage (%d)\n",
                         who, of, f->v[1]);
            break;
        case LEARN_RANK:
            n = snprintf(buf, size,
                         "  %s learns %s's Dueling skill rank (%d)\n", who, of,
                         f->v[1]);
            break;
        case LEARN_HAND:
            n = snprintf(buf, size,
                         "  %s learns %s's Hand of Fate (%d card%s)\n", who,
                         of, f->v[1], f->v[1] == 1 ? "" : "s");
            break;
        case LEARN_CHIPS:
            n = snprintf(buf, size,
                         "  %s learns %s's chips (%d white, %d red, %d "
                         "blue)\n",
                         who, of, f->v[1], f->v[2], f->v[3]);
            break;
        case LEARN_HEALTH:
            n = snprintf(buf, size,
                         "  %s learns %s's STUN and LETHAL (%d STUN, %d "
                         "LETHAL)\n",
                         who, of, f->v[1], f->v[2]);
            break;
        default:
            n = snprintf(buf, size,
                         "  %s learns %s's character level (not in the stat "
                         "block)\n",
                         who, of);
            break;
        }
        break;
    }
    case FT_FACT_DUEL:
        switch (f->v[0]) {
        case FT_DUEL_END_HELD:
            n = snprintf(buf, size,
                         "  %s still acts in phase %d: the damage to %s (%d "
                         "STUN, %d LETHAL) is applied at the same moment as "
                         "the phase's other blow\n",
                         nm(s, f->target), f->v[3], nm(s, f->target), f->v[1],
                         f->v[2]);
            break;
        case FT_DUEL_END_FIRST_BLOOD:
            n = snprintf(buf, size,
                         "  First blood: %s wounds %s past his External "
                         "Resilience and wins the duel\n",
                         nm(s, f->who), nm(s, f->target));
            break;
        case FT_DUEL_END_DRAW:
            n = snprintf(buf, size,
                         "  Both duelists are wounded in the same phase: "
                         "destiny has intervened; the duel is dropped and "
                         "neither is the victor\n");
            break;
        case FT_DUEL_END_CONCEDED:
            n = snprintf(buf, size, "  %s concedes the duel to %s\n",
                         nm(s, f->who), nm(s, f->target));
            break;
        default:
            n = snprintf(buf, size, "  The duel\n");
            break;
        }
        break;
    case FT_FACT_OPPOSED:
        n = snprintf(buf, size,
                     "  Opposed skill flip: %s %d against %s %d: %s wins%s\n",
                     nm(s, f->who), f->v[0], nm(s, f->target), f->v[1],
                     nm(s, f->v[2]),
                     f->v[3] == 1   ? " (a tie: the higher Aspect)"
                     : f->v[3] == 2 ? " (a tie: the one who initiated)"
                                    : "");
        break;
    default:
        return 0;
    }
    return done(n, size);
}

/* ",\"key\":\"id\"" (ids are letters, digits and '-': load.c). */
static int kwho(char *buf, size_t size, const ft_setup *s, const char *key,
                int c) {
    if (c >= 0 && c < s->n_combatants)
        return snprintf(buf, size, ",\"%s\":\"%s\"", key, s->c[c].id);
    return snprintf(buf, size, ",\"%s\":null", key);
}

size_t ft_duel_fact_json(const ft_setup *s, const ft_fact *f, char *buf,
                         size_t size) {
    static const char *const ends[] = {"none", "first-blood", "draw",
                                       "conceded", "held"};
    char a[96], b[96];
    kwho(a, sizeof a, s, "who", f->who);
    kwho(b, sizeof b, s, "target", f->target);
    int n = -1;
    switch (f->kind) {
    case FT_FACT_SHOWDOWN:
        n = snprintf(buf, size,
                     "%s%s,\"total\":%d,\"against\":%d,\"learns\":%d,"
                     "\"flip_plus_one\":%s",
                     a, b, f->v[0], f->v[1], f->v[2],
                     f->v[3] ? "true" : "false");
        break;
    case FT_FACT_LEARN: {
        int k = f->v[0] >= 0 && f->v[0] < LEARN_COUNT ? f->v[0] : LEARN_LEVEL;
        if (k == LEARN_CHIPS)
            n = snprintf(buf, size,
                         "%s%s,\"piece\":\"%s\",\"white\":%d,\"red\":%d,"
                         "\"blue\":%d",
                         a, b, learn_key[k], f->v[1], f->v[2], f->v[3]);
        else if (k == LEARN_HEALTH)
            n = snprintf(buf, size,
                         "%s%s,\"piece\":\"%s\",\"stun\":%d,\"lethal\":%d", a,
                         b, learn_key[k], f->v[1], f->v[2]);
        else if (k == LEARN_LEVEL)
            n = snprintf(buf, size, "%s%s,\"piece\":\"%s\",\"value\":null", a,
                         b, learn_key[k]);
        else
            n = snprintf(buf, size, "%s%s,\"piece\":\"%s\",\"value\":%d", a,
                         b, learn_key[k], f->v[1]);
        break;
    }
    case FT_FACT_DUEL: {
        int k = f->v[0] >= 0 && f->v[0] <= FT_DUEL_END_HELD ? f->v[0] : 0;
        if (k == FT_DUEL_END_HELD)
            n = snprintf(buf, size,
                         "%s%s,\"result\":\"%s\",\"stun\":%d,\"lethal\":%d,"
                         "\"phase\":%d",
                         a, b, ends[k], f->v[1], f->v[2], f->v[3]);
        else
            n = snprintf(buf, size, "%s%s,\"result\":\"%s\"", a, b, ends[k]);
        break;
    }
    case FT_FACT_OPPOSED: {
        char w[96];
        kwho(w, sizeof w, s, "winner", f->v[2]);
        n = snprintf(buf, size, "%s%s,\"total\":%d,\"against\":%d%s,\"tie\":%s",
                     a, b, f->v[0], f->v[1], w,
                     f->v[3] == 1   ? "\"aspect\""
                     : f->v[3] == 2 ? "\"initiator\""
                                    : "null");
        break;
    }
    default:
        return 0;
    }
    return done(n, size);
}
