/*
 * skills.c - Alloy's skills in a fight, death saves and joining a battle
 * under way (seed 004: Feint 307, Use a Skill 313, 325, 753-759, Aid
 * Another on a check 429, Joining a Battle 241; the missing page on dying,
 * rulesets-checklists L7.8). alloy_int.h "Skills, death saves, joining".
 *
 * Rulings (the seed is silent; docs/rules/alloy.md, each an option where
 * it says so):
 *   - Feint (004:307 points to a Bluff skill page the seed lacks): a
 *     standard action against an enemy within the feinter's melee reach,
 *     provoking nothing (the table's No); a Bluff check (d20 + Bluff)
 *     against the target's Will (option feint-against: will | notice, the
 *     latter 10 + the target's Notice). On a success the feinter has battle
 *     superiority on its next attack on that target made before the end of
 *     its next turn (FA_C_FEINTED, used up by that attack).
 *   - Use a Skill (004:313, 325): a standard action, or a move action when
 *     the table says `move`; the check is d20 + the skill, told with its
 *     total (the engine has no number to beat: the GM has). It provokes
 *     from threatening enemies, as a ranged attack does (the table's Yes;
 *     option skill-provokes, default true).
 *   - Aid Another on a check (004:429): a standard action helping an
 *     adjacent ally; a DC 10 check of the same skill; on a success the
 *     ally has +2 on its next check of that skill (the escape checks and
 *     skill uses the engine rolls) until the end of the ally's next turn;
 *     at most four aiders (004:430). It provokes nothing (Aid Another:
 *     No).
 *   - Death saves (option dying: death-saves; L7.8, 4e's rule): at the
 *     end of each of its turns a dying combatant rolls a d20: at or above
 *     the option save it is fine this turn, below it fails, and its third
 *     failure kills it; a 20 spends a heroic surge: it has the surge's hit
 *     points counted up from 0 and wakes (no longer dying, unconscious or
 *     helpless; still prone), its failures wiped. With no surge left a 20
 *     is only a success.
 *   - Joining (004:241): a combatant with joins: N is away (off the map,
 *     not in the order) until the start of round N, when it rolls
 *     initiative (d20 + its modifier, by hand at the table like any die)
 *     and takes its place in the order; ties with those already there go
 *     after them; it comes in at its square, or the nearest free one.
 *   - Total concealment (004:898, L7.16): each side keeps where it last
 *     saw each combatant (fa_cstate.seen, brought up to date after every
 *     command); an attack on a totally concealed target names a square
 *     (the command's, else that last sight: attack.c), a wrong one misses
 *     with nothing rolled; Notice as a move action against the option
 *     notice-dc (15) tells the side where every hidden enemy is.
 *   - Dominated (004:946-949) is Dazed (turn.c, attack.c); its dominator
 *     chooses its actions, at-will only (act.c refuses the rest; the
 *     tactics of the dominator's side choose in policy.c).
 */
#include "alloy_int.h"

#include <stdio.h>
#include <stdarg.h>
#include <string.h>

static int skill_of(const fa_command *cmd) {
    return cmd->kind == FA_CMD_AID ? cmd->option - FA_AID_CHECK
                                   : cmd->option & ~FA_SKILL_AS_MOVE;
}

fa_action_type fa_skill_action_type(const fa_command *cmd) {
    if (cmd->kind == FA_CMD_SKILL && cmd->option >= 0 &&
        (cmd->option & FA_SKILL_AS_MOVE))
        return FA_ACT_MOVE;
    return FA_ACT_STANDARD;
}

bool fa_aid_is_check(const fa_command *cmd) {
    return cmd->kind == FA_CMD_AID && cmd->option >= FA_AID_CHECK;
}

bool fa_skill_provokes(const fa_setup *s, const fa_command *cmd) {
    return cmd->kind == FA_CMD_SKILL && s->opt.skill_provokes;
}

/* The melee reach of who (the block's, 1 at least). */
static int reach_of(const fa_setup *s, int who) {
    int reach = fa_sb_of(s, who)->reach;
    return reach < 1 ? 1 : reach;
}

fray_status fa_skill_check_cmd(const fa_setup *s, const fa_state *st,
                               const fa_command *cmd, char *why, size_t ws) {
    int who = cmd->actor;
    const char *me = s->c[who].name;
    if (cmd->kind == FA_CMD_SKILL) {
        if (cmd->option < 0 || (cmd->option & ~(FA_SKILL_AS_MOVE | 15)) != 0 ||
            skill_of(cmd) >= FA_SKILLS)
            return fa_refuse(why, ws, "%s has no such skill", me);
        if (cmd->n_targets != 0)
            return fa_refuse(why, ws, "a skill is used without a target");
        return FRAY_OK;
    }
    if (cmd->n_targets != 1)
        return fa_refuse(why, ws, cmd->kind == FA_CMD_FEINT
                                   ? "%s feints at one enemy" : "%s aids one ally", me);
    int t = cmd->targets[0];
    if (t < 0 || t >= st->n || st->c[t].absent)
        return fa_refuse(why, ws, "%s has no such target", me);
    if (t == who)
        return fa_refuse(why, ws, "%s cannot target itself", me);
    const fa_cstate *tc = &st->c[t];
    if (fa_has(tc, FA_C_DEAD))
        return fa_refuse(why, ws, "%s is dead", s->c[t].name);
    bool allies = s->c[t].side == s->c[who].side;
    if (cmd->kind == FA_CMD_FEINT) {
        if (allies)
            return fa_refuse(why, ws, "%s is an ally: a feint is against an enemy", s->c[t].name);
        if (!fray_grid_within(st->c[who].fp, tc->fp, reach_of(s, who)))
            return fa_refuse(why, ws, "%s is not within %s's reach (a feint is a melee trick)",
                          s->c[t].name, me);
        return FRAY_OK;
    }
    /* Aid Another on a check (004:429): an adjacent ally. */
    if (skill_of(cmd) < 0 || skill_of(cmd) >= FA_SKILLS)
        return fa_refuse(why, ws, "%s can aid no such check", me);
    if (!allies)
        return fa_refuse(why, ws, "%s is not an ally: Aid Another on a check helps an ally",
                      s->c[t].name);
    if (!fray_grid_adjacent(st->c[who].fp, tc->fp))
        return fa_refuse(why, ws, "%s is not adjacent to %s", s->c[t].name, me);
    return FRAY_OK;
}

int fa_skill_aid_peek(const fa_cstate *c, int skill) {
    int sum = 0, n = 0;
    for (int i = 0; i < c->n_cond && n < 4; i++)
        if (c->cond[i].kind == FA_C_AID_CHECK && c->cond[i].other == skill) {
            sum += c->cond[i].value;
            n++;
        }
    return sum;
}

int fa_skill_aid_take(fa_run *r, int who, int skill) {
    int sum = fa_skill_aid_peek(&r->st->c[who], skill);
    if (sum != 0)
        fa_cond_remove(r, who, FA_C_AID_CHECK, skill);
    return sum;
}

bool fa_skill_roll(fa_run *r, int who, int skill, int target, int dc) {
    int bonus = fa_skill_check_bonus(r->s, r->st, who, skill);
    fa_skill_aid_take(r, who, skill);
    int d20 = fa_roll(r, 20, FA_DIE_CHECK, who);
    if (r->failed != FRAY_OK)
        return false;
    bool ok = dc <= 0 || d20 + bonus >= dc;
    fa_fact_add(r, FA_FACT_SKILL, who, target, d20, bonus, d20 + bonus, dc);
    fa_fact_more(r, ok ? 1 : 0, skill);
    return ok;
}

/* The feint's number to beat: Will (with its modifiers) or 10 + Notice. */
static int feint_dc(const fa_run *r, int who, int t) {
    return fa_feint_dc(r->s, r->st, who, t);
}

static fray_status feint(fa_run *r, const fa_command *cmd) {
    int who = cmd->actor, t = cmd->targets[0];
    bool ok = fa_skill_roll(r, who, FA_SKILL_BLUFF, t, feint_dc(r, who, t));
    if (r->failed != FRAY_OK || !ok)
        return r->failed;
    /* Until the end of its next turn (made on its own turn: the round
     * rule of end_of_turn_effects lets it outlast this one). */
    fa_cond c = {.kind = FA_C_FEINTED, .ends = FA_ENDS_USED, .whose = (int8_t)who,
                 .other = (int8_t)t, .value = 2, .source = (int8_t)who,
                 .round = r->st->round};
    return fa_cond_add(r, who, c);
}

static fray_status aid_check(fa_run *r, const fa_command *cmd) {
    fa_state *st = r->st;
    int who = cmd->actor, ally = cmd->targets[0], skill = skill_of(cmd);
    bool ok = fa_skill_roll(r, who, skill, ally, 10);   /* 004:429 */
    if (r->failed != FRAY_OK || !ok)
        return r->failed;
    /* At most four aiders (004:430), as the aid on attacks counts them. */
    if (fa_aid_check_sources(st, who, ally) >= 4) {
        fa_fact_add(r, FA_FACT_NO_EFFECT, who, ally, FA_NOTE_AID_LIMIT, 0, 0, 0);
        return r->failed;
    }
    /* "by the end of the ally's next turn": its turn later this round
     * when it has not had one yet (round one less, so that turn.c's
     * end_of_turn_effects ends it then), else its turn next round. */
    int round = st->round;
    if (!(st->c[ally].flags & FA_F_ACTED))
        round--;
    fa_cond c = {.kind = FA_C_AID_CHECK, .ends = FA_ENDS_USED, .whose = (int8_t)ally,
                 .other = (int8_t)skill, .value = 2, .source = (int8_t)who,
                 .round = (int16_t)round};
    return fa_cond_add(r, ally, c);
}

static void notice_reveals(fa_run *r, int who);

fray_status fa_skill_apply(fa_run *r, const fa_command *cmd) {
    if (r->failed != FRAY_OK)
        return r->failed;
    switch (cmd->kind) {
    case FA_CMD_FEINT:
        return feint(r, cmd);
    case FA_CMD_SKILL: {
        /* Notice as a move action looks for the hidden (L7.16): against
         * the option notice_dc; any other use says its total. */
        bool look = skill_of(cmd) == FA_SKILL_NOTICE && (cmd->option & FA_SKILL_AS_MOVE);
        bool ok = fa_skill_roll(r, cmd->actor, skill_of(cmd), -1,
                                look ? r->s->opt.notice_dc : 0);
        if (r->failed == FRAY_OK && look && ok)
            notice_reveals(r, cmd->actor);
        return r->failed;
    }
    case FA_CMD_AID:
        return aid_check(r, cmd);
    default:
        fa_fail(r, FRAY_ERR_INVALID);
        return FRAY_ERR_INVALID;
    }
}

/* ---- Death saves ---------------------------------------------------------------- */

fray_status fa_death_save(fa_run *r, int who) {
    fa_state *st = r->st;
    fa_cstate *c = &st->c[who];
    if (r->failed != FRAY_OK || r->s->opt.dying != FA_DYING_DEATH_SAVES ||
        !fa_has(c, FA_C_DYING) || fa_has(c, FA_C_DEAD))
        return r->failed;
    int need = r->s->opt.save_target;
    int d = fa_roll(r, 20, FA_DIE_SAVE, who);
    if (r->failed != FRAY_OK)
        return r->failed;
    const fa_statblock *b = fa_sb_of(r->s, who);
    if (d == 20 && c->surges > 0) {
        c->death_fails = 0;
        fa_fact_add(r, FA_FACT_DEATH_SAVE, who, -1, d, need, 2, 0);
        int value = b->surge_value > 0 ? b->surge_value : b->hp / 4;
        int hp = value > b->hp ? b->hp : value;
        c->surges--;
        fa_hp_mark(r, who, c->hp);
        c->hp = (int16_t)hp;
        fa_fact_add(r, FA_FACT_HEAL, who, -1, hp, hp, 0, 0);
        fa_cond_remove(r, who, FA_C_DYING, -1);
        fa_cond_remove(r, who, FA_C_UNCONSCIOUS, -1);
        fa_cond_remove(r, who, FA_C_HELPLESS, -1);
        c->flags &= (uint8_t)~FA_F_OUT;
        return r->failed;
    }
    if (d >= need) {
        fa_fact_add(r, FA_FACT_DEATH_SAVE, who, -1, d, need, 1, c->death_fails);
        return r->failed;
    }
    c->death_fails++;
    fa_fact_add(r, FA_FACT_DEATH_SAVE, who, -1, d, need, 0, c->death_fails);
    if (c->death_fails < 3)
        return r->failed;
    /* Dead (damage.c's fa__kill less its letting go, done when it fell
     * dying; not called so that turn.c's tests, which stand in for
     * damage.c, link without it). */
    fa_fact_add(r, FA_FACT_DEAD, -1, who, c->hp, 0, 0, 0);
    fa_cond dead = {.kind = FA_C_DEAD, .ends = FA_ENDS_EVENT, .whose = -1,
                    .other = -1, .source = -1};
    return fa_cond_add(r, who, dead);
}

/* ---- Joining a battle under way (004:241) ---------------------------------------- */

/* true when fp is on the map, off walls and windows, and clear of every
 * combatant in the battle who is not dead. */
static bool free_space(const fa_setup *s, const fa_state *st, fray_footprint fp) {
    int side = fp.side > 0 ? fp.side : 1;
    for (int dy = 0; dy < side; dy++)
        for (int dx = 0; dx < side; dx++) {
            fray_pos p = {(int16_t)(fp.at.x + dx), (int16_t)(fp.at.y + dy)};
            if (!fray_grid_in(&s->map, p) ||
                s->map.terrain[p.y][p.x] == FRAY_TERRAIN_WALL ||
                s->map.terrain[p.y][p.x] == FRAY_TERRAIN_WINDOW)
                return false;
        }
    for (int j = 0; j < st->n; j++) {
        const fray_footprint o = st->c[j].fp;
        int os = o.side > 0 ? o.side : 1;
        if (fa_has(&st->c[j], FA_C_DEAD))
            continue;
        if (fp.at.x < o.at.x + os && o.at.x < fp.at.x + side &&
            fp.at.y < o.at.y + os && o.at.y < fp.at.y + side)
            return false;
    }
    return true;
}

/* Its space from the file, or the nearest free one (rings outward) when
 * someone stands there now (fray's reading). */
static bool arrival_space(const fa_setup *s, const fa_state *st, fray_footprint *fp) {
    fray_footprint at = *fp;
    for (int ring = 0; ring < 16; ring++)
        for (int dy = -ring; dy <= ring; dy++)
            for (int dx = -ring; dx <= ring; dx++) {
                if (dx != -ring && dx != ring && dy != -ring && dy != ring)
                    continue;
                fray_footprint f = at;
                f.at.x = (int16_t)(at.at.x + dx);
                f.at.y = (int16_t)(at.at.y + dy);
                if (free_space(s, st, f)) {
                    *fp = f;
                    return true;
                }
            }
    return false;
}

fray_status fa_join_round(fa_run *r) {
    const fa_setup *s = r->s;
    fa_state *st = r->st;
    while (r->failed == FRAY_OK && st->n < s->n && st->n < FA_MAX_COMBATANTS &&
           s->c[st->n].joins > 0 && s->c[st->n].joins <= st->round) {
        int who = st->n;
        fa_cstate *c = &st->c[who];
        int mod = fa_sb_of(s, who)->init_mod;
        int d = fa_roll(r, 20, FA_DIE_INITIATIVE, who);   /* 004:235, 241 */
        if (r->failed != FRAY_OK)
            return r->failed;
        if (!arrival_space(s, st, &c->fp)) {
            fa_fail(r, FRAY_ERR_INVALID);   /* no room anywhere near: refused, not guessed */
            return r->failed;
        }
        for (int k = 0; k < FA_MAX_SIDES; k++)
            c->seen[k] = c->fp.at;   /* it comes in where all can see */
        /* Ties with those already in the order: after them (tie 0). */
        int place = -1;
        fray_status ok = fray__track_insert(&st->track, who, d + mod, 0, &place);
        if (ok != FRAY_OK) {
            fa_fail(r, ok);
            return ok;
        }
        /* The turn under way (or the last one ended) keeps its place. */
        int at_cur = st->cur_pos >= 0 && st->cur_pos < st->n_order
                         ? st->order[st->cur_pos] : -1;
        c->absent = false;
        st->n++;
        fa_order_sync(st);
        if (at_cur >= 0)
            st->cur_pos = (int8_t)fray__track_find(&st->track, at_cur);
        fa_fact_add(r, FA_FACT_JOIN, who, -1, d, mod, d + mod, place);
    }
    return r->failed;
}

/* ---- Total concealment: where each side last saw each combatant (L7.16) ---------- */

static bool all_dark(const fa_setup *s, fray_footprint fp) {
    int side = fp.side > 0 ? fp.side : 1;
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++) {
            fray_pos p = {(int16_t)(fp.at.x + x), (int16_t)(fp.at.y + y)};
            if (!fray_area_has(&s->dark, p))
                return false;
        }
    return true;
}

bool fa_side_sees(const fa_setup *s, const fa_state *st, int side, int who) {
    const fray_footprint t = st->c[who].fp;
    if (all_dark(s, t))
        return false;
    for (int m = 0; m < st->n; m++) {
        const fa_cstate *c = &st->c[m];
        if (m == who || s->c[m].side != side || (c->flags & FA_F_OUT) ||
            fa_has(c, FA_C_DEAD) || fa_has(c, FA_C_BLINDED))
            continue;
        if (fa_open_neighbours(&s->map, c->fp, t) || fray_grid_sight_fp(&s->map, c->fp, t))
            return true;
    }
    return false;
}

void fa_seen_update(fa_run *r) {
    const fa_setup *s = r->s;
    fa_state *st = r->st;
    /* Speed (issue 16): with two sides, the one other side's sight of
     * each is compared first, and one seen where it stands is passed over:
     * the loop below would change nothing for it. */
    bool two = s->n_sides == 2;
    /* (speed, issue 16) The squares compared as one 32-bit word each (a
     * fray_pos is two int16_t, no padding), and the count read once (the
     * loop writes only last sights). */
    _Static_assert(sizeof(fray_pos) == 2 * sizeof(int16_t), "a fray_pos is its two numbers");
    int n = st->n;
    /* Only squares that changed since a side last saw them are looked at:
     * a fight where nobody moves unseen asks nothing. */
    for (int i = 0; i < n; i++) {
        fa_cstate *c = &st->c[i];
        int own = s->c[i].side;
        if (two && (unsigned)own < 2u) {
            uint32_t saw, at;
            memcpy(&saw, &c->seen[own ^ 1], sizeof saw);
            memcpy(&at, &c->fp.at, sizeof at);
            if (saw == at)
                continue;
        }
        if (fa_has(c, FA_C_DEAD))
            continue;
        for (int k = 0; k < s->n_sides && k < FA_MAX_SIDES; k++) {
            if (k == own ||
                (c->seen[k].x == c->fp.at.x && c->seen[k].y == c->fp.at.y))
                continue;
            if (fa_side_sees(s, st, k, i))
                c->seen[k] = c->fp.at;
        }
    }
}

fray_pos fa_guess_of(const fa_run *r, int who, int target) {
    if (r->guess_given && r->guess_for == target)
        return r->guess;
    int side = r->s->c[who].side;
    if (side < 0 || side >= FA_MAX_SIDES)
        return r->st->c[target].fp.at;
    return r->st->c[target].seen[side];
}

/* Notice as a move action (L7.16, fray's reading): a check against the
 * option notice_dc; a success tells the side where every enemy it had
 * lost track of stands now. */
static void notice_reveals(fa_run *r, int who) {
    const fa_setup *s = r->s;
    fa_state *st = r->st;
    int side = s->c[who].side;
    if (side < 0 || side >= FA_MAX_SIDES)
        return;
    for (int i = 0; i < st->n; i++) {
        fa_cstate *c = &st->c[i];
        if (s->c[i].side == side || fa_has(c, FA_C_DEAD))
            continue;
        c->seen[side] = c->fp.at;
    }
}

/* (added by tablechances, issue 19) The bonus of who's check of skill as
 * fa_skill_roll adds it (the skill and the aid on it, not used up here),
 * and a feint's number to beat (feint_dc): the chances at the table
 * (chances.c) count the same numbers. */
int fa_skill_check_bonus(const fa_setup *s, const fa_state *st, int who,
                         int skill) {
    return fa_sb_of(s, who)->skill[skill] + fa_skill_aid_peek(&st->c[who], skill);
}

int fa_feint_dc(const fa_setup *s, const fa_state *st, int who, int t) {
    if (s->opt.feint_against == FA_FEINT_NOTICE)
        return 10 + fa_sb_of(s, t)->skill[FA_SKILL_NOTICE];
    return fa_defense_value(s, st, t, FA_DEF_WILL, who, false);
}

/* The others aiding ally (any aid: checks, attack, defenses), for
 * aid_check's limit of four (004:430) and the chances at the table. */
int fa_aid_check_sources(const fa_state *st, int who, int ally) {
    const fa_cstate *a = &st->c[ally];
    int sources[FA_MAX_CONDS], n = 0;
    for (int i = 0; i < a->n_cond; i++) {
        const fa_cond *k = &a->cond[i];
        if ((k->kind != FA_C_AID_CHECK && k->kind != FA_C_AID_ATTACK &&
             k->kind != FA_C_AID_DEFENSE) || k->source == who)
            continue;
        bool seen = false;
        for (int j = 0; j < n; j++)
            seen |= sources[j] == k->source;
        if (!seen)
            sources[n++] = k->source;
    }
    return n;
}
