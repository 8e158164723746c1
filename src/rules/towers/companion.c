/*
 * companion.c - companions and minions, marked targets and the
 * dual-wielding stance of each action (seed 000 "Companions and Minions",
 * "Marked Targets", "Off-Hand Weapons and Dual-Wielding").
 *
 * A companion (`companion-of: MASTER` in the encounter) is not on the
 * Combat Clock by itself while its master can act: it rides with him
 * (FT_F_RIDING) and "the player selects one action each turn, performed
 * either by the player or the companion". The pair shares the master's
 * place: whoever of the two acts, the master's place moves by the
 * action's cost (engine.c ft_turn_of). When the master can no longer act
 * (unconscious, dying, dead, fled) his riding companions get places of
 * their own (option companion-alone) and act for themselves.
 */
#include "towers_int.h"

/* ---- Marks ------------------------------------------------------------------ */

bool ft_marked(const ft_state *st, int who, int target) {
    if (who < 0 || who >= st->n || target < 0 || target >= st->n)
        return false;
    const ft_cstate *c = &st->c[who];
    return c->mark_ally == target + 1 || c->mark_foe == target + 1;
}

bool ft_marked_space(const ft_state *st, int who, fray_pos p) {
    if (who < 0 || who >= st->n)
        return false;
    const ft_cstate *c = &st->c[who];
    return c->mark_space_set && c->mark_space.x == p.x &&
           c->mark_space.y == p.y;
}

bool ft_mark_spend(ft_state *st, int who, int target) {
    if (who < 0 || who >= st->n)
        return false;
    ft_cstate *c = &st->c[who];
    if (target < 0) {
        bool had = c->mark_space_set != 0;
        c->mark_space_set = 0;
        c->mark_space.x = c->mark_space.y = 0;
        return had;
    }
    if (c->mark_ally == target + 1) {
        c->mark_ally = 0;
        return true;
    }
    if (c->mark_foe == target + 1) {
        c->mark_foe = 0;
        return true;
    }
    return false;
}

void ft_mark_set(const ft_setup *s, ft_state *st, int who, int target,
                 fray_pos p) {
    ft_cstate *c = &st->c[who];
    /* "When a new marked target of the same type is chosen, the old mark
     * expires": one field per type. */
    if (target < 0) {
        c->mark_space_set = 1;
        c->mark_space = p;
    } else if (ft_allies(s, who, target)) {
        c->mark_ally = (int8_t)(target + 1);
    } else {
        c->mark_foe = (int8_t)(target + 1);
    }
}

/* ---- Stance ----------------------------------------------------------------- */

bool ft_stance_aggressive(const ft_setup *s, const ft_state *st, int c) {
    int k = st->c[c].stance;
    if (k == FT_STANCE_AGGRESSIVE)
        return true;
    if (k == FT_STANCE_DEFENSIVE)
        return false;
    return s->c[c].sb.dual_aggressive;
}

/* ---- Companions ------------------------------------------------------------- */

int ft_companion_riding(const ft_state *st, int master) {
    for (int i = 0; i < st->n; i++)
        if (st->c[i].master == master + 1 && (st->c[i].flags & FT_F_RIDING))
            return i;
    return -1;
}

void ft_companions_release(ft_state *st, int m) {
    if (ft_can_act(st, m))
        return; /* holding: the pair waits together */
    for (int i = 0; i < st->n; i++) {
        ft_cstate *c = &st->c[i];
        if (c->master != m + 1 || !(c->flags & FT_F_RIDING))
            continue;
        c->flags &= (uint16_t)~FT_F_RIDING;
        if (st->companion_alone == FT_CA_NEXT) {
            /* The phase after the one he went down in. */
            c->phase = st->phase + 1;
            c->slot = ft_base_slot(c->init_rank);
        } else {
            /* The pair's place: the master's next phase (when he went
             * down during the pair's own action, ft_companions_follow
             * moves it on to where that action put him). */
            int32_t p = st->c[m].phase;
            c->phase = p > st->phase ? p : st->phase;
            c->slot = st->c[m].slot;
            if (st->c[m].flags & FT_F_HOLDING) {
                /* Holding "until": no place to take; the next phase. */
                c->phase = st->phase + 1;
                c->slot = ft_base_slot(c->init_rank);
            }
        }
        ft_clock_place(st, i);
    }
}

void ft_companions_follow(ft_state *st, int m) {
    for (int i = 0; i < st->n; i++) {
        ft_cstate *c = &st->c[i];
        if (st->companion_alone != FT_CA_PAIR || c->master != m + 1 ||
            (c->flags & FT_F_RIDING) || c->phase > st->phase ||
            !ft_can_act(st, i))
            continue;
        c->phase = st->c[m].phase;
        c->slot = st->c[m].slot;
        ft_clock_place(st, i);
    }
}

/* ---- The pair's action (engine.c apply_action and check) -------------------- */

static bool any_cond(const ft_state *st) {
    for (int i = 0; i < st->n; i++)
        if (st->c[i].n_cond > 0)
            return true;
    return false;
}

/* Seed 000 "Companions and Minions": "Both the player and the companion
 * can move during Combat or Reckless Move actions, but one must complete
 * their movement before the other begins": the second mover (cmd->also)
 * is judged as its own move, from where it stands, with the first mover
 * already at its destination. */
fray_status ft_companion_check_also(const ft_setup *s, ft_state *st,
                                   const ft_command *cmd, fray_diag *diag) {
    int a = cmd->actor, o = cmd->also - 1;
    if (cmd->action != FT_ACT_MOVE && cmd->action != FT_ACT_RECKLESS_MOVE)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "only a Combat Move or a Reckless Move moves a "
                              "master and his companion together");
    if (o < 0 || o >= st->n || o == a ||
        (s->c[o].master != a + 1 && s->c[a].master != o + 1))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s and %s are not a master and his companion",
                              s->c[a].name, o >= 0 && o < st->n ? s->c[o].name
                                                               : "nobody");
    if (ft_turn_of(st, o) != ft_turn_of(st, a))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s acts on its own now: it cannot move with "
                              "%s", s->c[o].name, s->c[a].name);
    ft_command m = *cmd;
    m.actor = (int8_t)o;
    m.dest = cmd->also_dest;
    m.also = 0;
    m.shift_first = false;
    m.drop_prone = false;
    m.tumble = false; /* only the first mover tumbles (tumble.c) */
    fray_pos keep = st->c[a].pos;
    uint64_t gen = st->threat_gen; /* (a trial place: ft_threat_touch) */
    st->c[a].pos = cmd->dest;
    st->threat_gen = 0;
    fray_status rc = ft_check_command(s, st, &m, diag);
    st->c[a].pos = keep;
    st->threat_gen = gen;
    return rc;
}

/* The end of the pair's action: the riding companions' activations end
 * with the master's, they keep his place (for the clock's drawing) and a
 * companion let go during it follows his new place (ft_companions_follow). */
void ft_pair_end(ft_run *r, int a, int turn) {
    ft_state *st = r->st;
    for (int i = 0; i < st->n; i++) {
        if (ft_turn_of(st, i) != turn || i == turn)
            continue;
        if (i != a && any_cond(st))
            ft_cond_activation(r, i, true);
        st->c[i].phase = st->c[turn].phase;
        st->c[i].slot = st->c[turn].slot;
        /* The pair activated together: neither is flat-footed now
         * (seed 000 "Flat-Footed"); option pair-flat-footed actor: only
         * the one who acted. */
        if (r->setup->opt.pair_flat_footed == FT_PFF_BOTH || i == a)
            st->c[i].flags |= FT_F_ACTED;
    }
    if (r->setup->opt.pair_flat_footed == FT_PFF_BOTH || turn == a)
        st->c[turn].flags |= FT_F_ACTED;
    if (turn != a && any_cond(st))
        ft_cond_activation(r, turn, true);
    ft_companions_follow(st, turn);
}

/* ---- Tactics of the pair ---------------------------------------------------- */

static bool is_attack(int action) {
    return action == FT_ACT_ATTACK || action == FT_ACT_POWER_ATTACK ||
           action == FT_ACT_CAST || action == FT_ACT_CHARGE;
}

/* How good the attack the policy weighed is: the attacker's value and
 * modifiers less the defender's (ranks: one card is worth about as much
 * as one shift). */
static int attack_edge(const ft_setup *s, const ft_attack_memo *m) {
    const ft_statblock *asb = &s->c[m->attacker].sb;
    const ft_statblock *tsb = &s->c[m->target].sb;
    bool spell = m->weapon >= 0 && m->weapon < asb->n_weapons &&
                 asb->weapons[m->weapon].spell;
    int att = asb->cv[spell ? FT_CV_SA : FT_CV_PA] + m->flip + m->shift;
    int def = tsb->cv[spell ? FT_CV_ID : FT_CV_PD] + m->def_flip + m->def_shift;
    return att - def;
}

void ft_pair_choose(const ft_setup *s, const ft_state *st, int actor,
                    ft_command *out, bool *out_checked, ft_path_cache *paths,
                    ft_attack_memo *memo) {
    ft_attack_memo mine;
    if (memo)
        mine = *memo;
    ft_policy_choose_memo(s, st, actor, out, out_checked, paths,
                          memo ? &mine : NULL);
    bool best_attacks = is_attack(out->action);
    int best_edge = best_attacks && memo && mine.valid ? attack_edge(s, &mine)
                                                       : INT_MIN;
    ft_attack_memo best_memo;
    if (memo)
        best_memo = mine;
    for (int i = 0; i < st->n; i++) {
        if (st->c[i].master != actor + 1 || !(st->c[i].flags & FT_F_RIDING) ||
            !ft_can_act(st, i))
            continue;
        ft_command cc;
        bool cc_checked = false;
        ft_attack_memo cm;
        if (memo)
            cm = best_memo; /* (its cache carries on) */
        ft_policy_choose_memo(s, st, i, &cc, &cc_checked, paths,
                              memo ? &cm : NULL);
        if (!cc_checked)
            continue;
        if (is_attack(cc.action)) {
            int edge = memo && cm.valid ? attack_edge(s, &cm) : INT_MIN + 1;
            if (!best_attacks || edge > best_edge) {
                *out = cc;
                *out_checked = true;
                best_attacks = true;
                best_edge = edge;
                if (memo)
                    best_memo = cm;
            }
        } else if (!best_attacks && !out->also &&
                   (out->action == FT_ACT_MOVE ||
                    out->action == FT_ACT_RECKLESS_MOVE) &&
                   cc.action == FT_ACT_MOVE && !cc.shift_first) {
            /* "Both the player and the companion can move during Combat
             * or Reckless Move actions": the companion follows. */
            ft_command both = *out;
            both.also = (int8_t)(i + 1);
            both.also_dest = cc.dest;
            if (ft_check_command_paths(s, st, &both, NULL, paths) == FRAY_OK)
                *out = both;
        } else if (!best_attacks && out->action == FT_ACT_DELAY) {
            *out = cc; /* the master has nothing better to do */
            *out_checked = true;
            if (memo)
                best_memo = cm;
        }
    }
    if (memo)
        *memo = best_memo;
}

/* Seed 000 "Companions and Minions": "If the player is incapacitated ...
 * the companion may act on its own, but the range of actions is limited
 * to logical behaviors (e.g., defending the player, attacking threats, or
 * fleeing)": a companion on its own chooses as its tactics say, but when
 * its master lies unconscious or dying and it attacks, it attacks a foe
 * that threatens him (the first it can attack), if any. */
void ft_companion_alone_choose(const ft_setup *s, const ft_state *st,
                               int actor, ft_command *out, bool *out_checked,
                               ft_path_cache *paths, ft_attack_memo *memo) {
    ft_policy_choose_memo(s, st, actor, out, out_checked, paths, memo);
    int m = st->c[actor].master - 1;
    if (m < 0 || m >= st->n || !*out_checked ||
        (out->action != FT_ACT_ATTACK && out->action != FT_ACT_POWER_ATTACK) ||
        !(st->c[m].flags & (FT_F_UNCONSCIOUS | FT_F_DYING)) ||
        (st->c[m].flags & FT_F_DEAD))
        return;
    ft_run r;
    ft_run_clear(&r);
    r.setup = s;
    r.st = (ft_state *)st; /* read only: ft_threatens does not write */
    if (out->target >= 0 && ft_threatens(&r, out->target, m))
        return;
    for (int e = 0; e < st->n; e++) {
        if (ft_allies(s, e, actor) || !ft_can_act(st, e) ||
            !ft_threatens(&r, e, m))
            continue;
        ft_command c = *out;
        c.target = (int8_t)e;
        if (ft_check_command_paths(s, st, &c, NULL, paths) != FRAY_OK)
            continue;
        *out = c;
        if (memo)
            memo->valid = false; /* weighed for another target */
        return;
    }
}
