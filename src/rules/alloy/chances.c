/*
 * chances.c - Alloy at the table (issue 19; include/fray/chances.h): the
 * exact chances of an attack on one target from the fight's current
 * state. The command is read by parse.c (fa_parse) and checked by act.c
 * (fa_check) when it is the actor's turn; the attack line and modifiers
 * are attack.c's (fa_attack_line_of, fa_attack_mods), as the encounter
 * odds (odds_enc_alloy.c) take them; the odds are fray_odds_d20_attack's,
 * what `fray odds roll d20+B --attack --vs D --damage X` answers. A bull
 * rush, an escape, aid another and a coup de grace are counted
 * with the engine's own numbers too: attack.c's fa_bull_rush_line and
 * fa_bull_rush_square, act.c's fa_escape_check, skills.c's
 * fa_skill_check_bonus, attack.c's line and modifiers for the aid and the
 * coup.
 */
#include "alloy_int.h"

#include "fray/chances.h"
#include "fray/dice.h"
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const hp_track[1] = {"HP"};

static void dice_text(char *buf, size_t size, fa_dice d, int mult, int plus) {
    if (d.n <= 0 || d.sides < 2) {
        snprintf(buf, size, "%d", plus > 0 ? plus : 0);
        return;
    }
    if (plus)
        snprintf(buf, size, "%dd%d%+d", d.n * mult, d.sides, plus);
    else
        snprintf(buf, size, "%dd%d", d.n * mult, d.sides);
}

static void add_text(char *buf, size_t size, const char *text) {
    size_t n = strlen(buf);
    if (n + 1 < size)
        snprintf(buf + n, size - n, "%s%s", n ? "; " : "", text);
}

/* The chances of one attack roll of `who` on t with line L, its
 * modifiers taken from `from` (the attacker's square, or an area's
 * origin): fray_odds_d20_attack's, what `fray odds roll d20+B --attack
 * --vs D --damage X` answers. Into oc (miss, hit, critical), dmg (at most
 * max rows), expected, p_drop and the modifiers' words; *p_hit and
 * *p_crit (hit without a critical, critical) as doubles for the joint
 * counts. An attack the rules refuse from there: *impossible (and no
 * chances) when allow_impossible (an area: that creature is missed),
 * else a refusal in rules words. */
typedef struct target_count {
    fray_chance_outcome *oc;
    fray_chance_damage *dmg;
    int max;
    int n_damage;
    double expected;
    double p_drop;
    char *mods;
    size_t mods_size;
    double p_hit, p_crit;
    bool impossible;
    bool whole;
} target_count;

static fray_status count_target(const fa_setup *s, const fa_state *st, int who,
                                int t, const fa_attack_line *L, fray_pos from,
                                bool allow_impossible, bool charge,
                                target_count *tc, fray_diag *diag) {
    fa_mods m;
    fa_attack_mods(s, st, who, t, L, charge, from, &m);
    tc->impossible = m.impossible;
    tc->whole = true;
    tc->expected = 0;
    tc->n_damage = 0;
    if (m.impossible && !allow_impossible)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s cannot attack %s now: %s", s->c[who].name,
                              s->c[t].name,
                              m.why_impossible == FA_NOTE_TOTAL_COVER
                                  ? "total cover"
                                  : m.why_impossible == FA_NOTE_OUT_OF_RANGE
                                        ? "out of range"
                                        : "not possible now");
    /* Total concealment (004:898, L7.16; attack.c's attack_one): the
     * attack goes to the square the side last saw the target on, and
     * misses with nothing rolled when it is not there. */
    int side = s->c[who].side;
    for (int i = 0; !m.impossible && !allow_impossible && i < m.n; i++) {
        if (m.m[i].reason != FA_MOD_TOTAL_CONCEALMENT || side < 0 ||
            side >= FA_MAX_SIDES)
            continue;
        fray_pos g = st->c[t].seen[side];
        fray_footprint tf = st->c[t].fp;
        int ts = tf.side > 0 ? tf.side : 1;
        if (g.x < tf.at.x || g.x >= tf.at.x + ts || g.y < tf.at.y ||
            g.y >= tf.at.y + ts)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "%s is not where %s's side last saw it "
                                  "(%d,%d): an attack there misses with "
                                  "nothing rolled (total concealment); a "
                                  "Notice check finds it",
                                  s->c[t].name, s->c[who].name, g.x, g.y);
    }
    if (m.impossible) { /* the area misses it: no roll */
        snprintf(tc->oc[0].name, sizeof tc->oc[0].name, "miss");
        tc->oc[0].p = fray__ratio(1, 1, false);
        snprintf(tc->oc[1].name, sizeof tc->oc[1].name, "hit");
        tc->oc[1].p = fray__ratio(0, 1, false);
        snprintf(tc->oc[2].name, sizeof tc->oc[2].name, "critical");
        tc->oc[2].p = fray__ratio(0, 1, false);
        for (int i = 0; i < 3; i++)
            tc->oc[i].share = fray_ratio_to_double(tc->oc[i].p);
        tc->dmg[0].amount[0] = 0;
        tc->dmg[0].p = fray__ratio(1, 1, false);
        tc->dmg[0].share = 1;
        tc->n_damage = 1;
        tc->p_drop = 0;
        tc->p_hit = tc->p_crit = 0;
        snprintf(tc->mods, tc->mods_size, "%s", "no line of effect or out of "
                 "range from the origin: not attacked");
        return FRAY_OK;
    }
    tc->mods[0] = '\0';
    for (int i = 0; i < m.n; i++) {
        char one_mod[64];
        snprintf(one_mod, sizeof one_mod, "%s %+d", fa_mod_name(m.m[i].reason),
                 m.m[i].value);
        add_text(tc->mods, tc->mods_size, one_mod);
    }
    for (int i = 0; i < m.n_def; i++) {
        char one_mod[64];
        snprintf(one_mod, sizeof one_mod, "defense: %s %+d",
                 fa_mod_name(m.d[i].reason), m.d[i].value);
        add_text(tc->mods, tc->mods_size, one_mod);
    }
    if (!tc->mods[0])
        snprintf(tc->mods, tc->mods_size, "none");

    char dmg[48], crit[24];
    dice_text(dmg, sizeof dmg, L->dice, L->mult, L->damage_bonus);
    bool has_crit = L->crit_dice.n > 0 && L->crit_dice.sides >= 2;
    if (has_crit)
        dice_text(crit, sizeof crit, L->crit_dice, 1, 0);
    fray_dice *dd = NULL, *cd = NULL;
    fray_diag d2;
    memset(&d2, 0, sizeof d2);
    fray_status rc = fray_dice_parse(dmg, NULL, NULL, &dd, &d2);
    if (rc == FRAY_OK && has_crit)
        rc = fray_dice_parse(crit, NULL, NULL, &cd, &d2);
    fray_d20_attack_odds ao;
    memset(&ao, 0, sizeof ao);
    if (rc == FRAY_OK) {
        fray_d20_attack_query q;
        memset(&q, 0, sizeof q);
        q.bonus = L->attack_bonus + m.total;
        q.defense = s->sb[s->c[t].sb].defense[L->defense] + m.def_total;
        q.crit_min = L->crit_min;
        q.damage = dd;
        q.crit_dice = cd;
        rc = fray_odds_d20_attack(&q, NULL, &ao);
    }
    if (rc != FRAY_OK) {
        fray_d20_attack_odds_free(&ao);
        fray_dice_free(dd);
        fray_dice_free(cd);
        return fray__diag_set(diag, rc, 0, "the damage %s cannot be counted",
                              dmg);
    }
    snprintf(tc->oc[0].name, sizeof tc->oc[0].name, "miss");
    tc->oc[0].p = fray_ratio_one_minus(ao.p_hit);
    snprintf(tc->oc[1].name, sizeof tc->oc[1].name, "hit");
    /* hit without a critical: p_hit - p_crit over the common denominator
     * (both are multiples of 1/20). */
    fray__u128 num = fray__u128_from(ao.p_hit.num) * 20 / fray__u128_from(ao.p_hit.den) -
                     fray__u128_from(ao.p_crit.num) * 20 / fray__u128_from(ao.p_crit.den);
    tc->oc[1].p = fray__ratio(num, 20, false);
    snprintf(tc->oc[2].name, sizeof tc->oc[2].name, "critical");
    tc->oc[2].p = ao.p_crit;
    for (int i = 0; i < 3; i++)
        tc->oc[i].share = fray_ratio_to_double(tc->oc[i].p);
    tc->p_hit = tc->oc[1].share;
    tc->p_crit = tc->oc[2].share;
    fray__u128 den = fray__u128_from(ao.damage.den), drop = 0, row = 0;
    int hp = st->c[t].hp;
    /* A Withered attacker deals half, rounded down (damage.c, 004:1037):
     * amounts that halve alike share a row. */
    bool withered = fa_has(&st->c[who], FA_C_WITHERED);
    for (size_t i = 0; i < ao.damage.n; i++) {
        fray__u128 c = fray__u128_from(ao.damage.count[i]);
        if (!c)
            continue;
        int v = (int)(ao.damage.lo + (int64_t)i);
        if (withered)
            v = v < 0 ? 0 : v / 2;
        if (v > 0 && hp - v <= 0)
            drop += c;
        fray_chance_damage *e = tc->n_damage > 0 ? &tc->dmg[tc->n_damage - 1] : NULL;
        if (e && e->amount[0] == v) {
            row += c;
        } else if (tc->n_damage >= tc->max) {
            tc->whole = false;
            continue;
        } else {
            e = &tc->dmg[tc->n_damage++];
            e->amount[0] = v;
            row = c;
        }
        e->p = fray__ratio(row, den, false);
        e->share = fray_ratio_to_double(e->p);
    }
    for (int i = 0; i < tc->n_damage; i++)
        tc->expected += tc->dmg[i].share * tc->dmg[i].amount[0];
    tc->p_drop = fray_ratio_to_double(fray__ratio(drop, den, false));
    fray_d20_attack_odds_free(&ao);
    fray_dice_free(dd);
    fray_dice_free(cd);
    return FRAY_OK;
}

/* How many drop, over the area's one damage roll (D) and one roll of the
 * crit dice (E) for all: each target's attack roll its own; a hit deals D,
 * a critical the dice's most plus E (option area-crit maximum). */
static fray_status area_joint(const fa_attack_line *L, const fa_state *st,
                              const int *targets, const double *ph,
                              const double *pc, int n, bool withered,
                              double *dropped) {
    for (int k = 0; k <= n; k++)
        dropped[k] = 0;
    char dmg[48], crit[24];
    dice_text(dmg, sizeof dmg, L->dice, L->mult, L->damage_bonus);
    bool has_crit = L->crit_dice.n > 0 && L->crit_dice.sides >= 2;
    if (has_crit)
        dice_text(crit, sizeof crit, L->crit_dice, 1, 0);
    fray_dice *dd = NULL, *cd = NULL;
    fray_diag d2;
    memset(&d2, 0, sizeof d2);
    fray_dist D, E;
    memset(&D, 0, sizeof D);
    memset(&E, 0, sizeof E);
    bool have_e = false;
    fray_status rc = fray_dice_parse(dmg, NULL, NULL, &dd, &d2);
    if (rc == FRAY_OK)
        rc = fray_dice_dist(dd, 0, NULL, &D);
    if (rc == FRAY_OK && has_crit) {
        rc = fray_dice_parse(crit, NULL, NULL, &cd, &d2);
        if (rc == FRAY_OK)
            rc = fray_dice_dist(cd, 0, NULL, &E);
        have_e = rc == FRAY_OK;
    }
    if (rc == FRAY_OK) {
        int most = L->mult * L->dice.n * L->dice.sides + L->damage_bonus;
        double dden = (double)fray__u128_from(D.den);
        double eden = have_e ? (double)fray__u128_from(E.den) : 1;
        size_t ne = have_e ? E.n : 1;
        for (size_t i = 0; i < D.n; i++) {
            double pd = (double)fray__u128_from(D.count[i]) / dden;
            if (pd == 0)
                continue;
            int dv = (int)(D.lo + (int64_t)i);
            for (size_t j = 0; j < ne; j++) {
                double pe = have_e ? (double)fray__u128_from(E.count[j]) / eden : 1;
                if (pe == 0)
                    continue;
                int ev = have_e ? (int)(E.lo + (int64_t)j) : 0;
                /* Withered: half, rounded down (damage.c, 004:1037). */
                int hv = withered ? (dv < 0 ? 0 : dv / 2) : dv;
                int cv = withered ? (most + ev < 0 ? 0 : (most + ev) / 2) : most + ev;
                double row[FRAY_CHANCES_AREA + 1] = {1};
                for (int t = 0; t < n; t++) {
                    int hp = st->c[targets[t]].hp;
                    double p = (hv > 0 && hp - hv <= 0 ? ph[t] : 0) +
                               (cv > 0 && hp - cv <= 0 ? pc[t] : 0);
                    for (int k = t + 1; k > 0; k--)
                        row[k] = row[k] * (1 - p) + row[k - 1] * p;
                    row[0] *= 1 - p;
                }
                for (int k = 0; k <= n; k++)
                    dropped[k] += pd * pe * row[k];
            }
        }
    }
    fray_dist_free(&D);
    if (have_e)
        fray_dist_free(&E);
    fray_dice_free(dd);
    fray_dice_free(cd);
    return rc;
}

/* A Charge (004:523-525) is counted on a copy of the state with the
 * charger standing where its path ends (*moved, freed by one()): the
 * engine walks the path, then makes the melee basic attack at +1 from
 * there (act.c, attack.c's `charge`). When it is not the charger's turn,
 * act.c's check is asked on a copy whose turn has come to it. */
/* act.c's check of cmd (fa_check), on the state as it stands when it is
 * the actor's turn, else on a copy whose turn has come to it (its
 * actions as at the start of a turn). */
static fray_status check_now(const fa_setup *s, const fa_state *st, int turn,
                             const fa_command *cmd, fray_diag *diag) {
    int who = cmd->actor;
    char why[200] = "";
    if (who == turn) {
        if (fa_check(s, st, cmd, why, sizeof why) != FRAY_OK)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s", why);
        return FRAY_OK;
    }
    fa_state *cp = malloc(sizeof *cp);
    if (!cp)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    *cp = *st;
    fa_cstate *c = &cp->c[who];
    cp->cur = (int8_t)who;
    c->slots = st->round == 0 ? (FA_SLOT_STANDARD | FA_SLOT_MOVE)
                              : (FA_SLOT_STANDARD | FA_SLOT_MOVE | FA_SLOT_SWIFT);
    c->extra_standard = 0;
    c->flags &= (uint8_t)~FA_F_DONE;
    fray_status ok = fa_check(s, cp, cmd, why, sizeof why);
    free(cp);
    if (ok != FRAY_OK)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s", why);
    return FRAY_OK;
}

static fray_status charge_state(const fa_setup *s, const fa_state *st,
                                int turn, const fa_command *cmd,
                                fa_state **moved, fray_diag *diag) {
    int who = cmd->actor;
    if (cmd->n_path < 1)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "a charge needs the square it ends on");
    fray_status rc = check_now(s, st, turn, cmd, diag);
    if (rc != FRAY_OK)
        return rc;
    *moved = malloc(sizeof **moved);
    if (!*moved)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    **moved = *st;
    (*moved)->c[who].fp.at = cmd->path[cmd->n_path - 1];
    return FRAY_OK;
}

/* A trip (004:735) or a grapple (004:611): one roll of attack.c's own
 * line (fa_special_line) with its modifiers (fa_attack_mods) against the
 * target's Reflex, no damage; a natural 20 succeeds, a natural 1 fails
 * (fray_odds_d20_attack's p_hit, what `fray odds roll d20+B --attack --vs
 * D` gives). */
static fray_status special_one(const fa_setup *s, const fa_state *st,
                               int turn, const fa_command *cmd,
                               const char *command, fray_chances *out,
                               fray_diag *diag) {
    int who = cmd->actor;
    if (cmd->n_targets != 1 || cmd->targets[0] < 0 || cmd->targets[0] >= st->n)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s needs one target",
                              fa_cmd_title(cmd->kind));
    int t = cmd->targets[0];
    if (st->c[t].flags & FA_F_OUT)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s is out of the fight", s->c[t].name);
    fray_status rc = check_now(s, st, turn, cmd, diag);
    if (rc != FRAY_OK)
        return rc;
    bool trip = cmd->kind == FA_CMD_TRIP, disarm = cmd->kind == FA_CMD_HELD_OBJECT;
    fa_attack_line L;
    if (disarm) {
        if (st->c[t].wield < 0 && st->c[t].taken_owner1 == 0)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s holds nothing",
                                  s->c[t].name);
        if (!fa_disarm_line(s, st, who, t, cmd->weapon, &L))
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "an area weapon cannot disarm");
    } else {
        L = fa_special_line(s, st, who, cmd->kind);
    }
    fa_mods m;
    fa_attack_mods(s, st, who, t, &L, false, st->c[who].fp.at, &m);
    if (m.impossible)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s cannot reach %s now", s->c[who].name,
                              s->c[t].name);
    out->modifiers[0] = '\0';
    for (int i = 0; i < m.n; i++) {
        char one_mod[64];
        snprintf(one_mod, sizeof one_mod, "%s %+d", fa_mod_name(m.m[i].reason),
                 m.m[i].value);
        add_text(out->modifiers, sizeof out->modifiers, one_mod);
    }
    for (int i = 0; i < m.n_def; i++) {
        char one_mod[64];
        snprintf(one_mod, sizeof one_mod, "defense: %s %+d",
                 fa_mod_name(m.d[i].reason), m.d[i].value);
        add_text(out->modifiers, sizeof out->modifiers, one_mod);
    }
    if (!out->modifiers[0])
        snprintf(out->modifiers, sizeof out->modifiers, "none");
    fray_d20_attack_query q;
    memset(&q, 0, sizeof q);
    q.bonus = L.attack_bonus + m.total;
    q.defense = s->sb[s->c[t].sb].defense[L.defense] + m.def_total;
    q.crit_min = L.crit_min;
    fray_d20_attack_odds ao;
    memset(&ao, 0, sizeof ao);
    rc = fray_odds_d20_attack(&q, NULL, &ao);
    if (rc != FRAY_OK) {
        fray_d20_attack_odds_free(&ao);
        return fray__diag_set(diag, rc, 0, "the roll cannot be counted");
    }
    out->target = t;
    snprintf(out->command, sizeof out->command, "%s", command);
    out->n_tracks = 1;
    out->tracks[0] = hp_track[0];
    out->n_outcomes = 2;
    snprintf(out->outcomes[0].name, sizeof out->outcomes[0].name, "fails");
    out->outcomes[0].p = fray_ratio_one_minus(ao.p_hit);
    snprintf(out->outcomes[1].name, sizeof out->outcomes[1].name, "%s",
             disarm ? "disarmed" : trip ? "knocked prone" : "grabbed");
    out->outcomes[1].p = ao.p_hit;
    for (int i = 0; i < 2; i++)
        out->outcomes[i].share = fray_ratio_to_double(out->outcomes[i].p);
    fray_d20_attack_odds_free(&ao);
    out->n_damage = 1;
    out->damage[0].amount[0] = 0;
    out->damage[0].p = fray__ratio(1, 1, false);
    out->damage[0].share = 1;
    out->expected[0] = 0;
    out->p_drop = -1;
    out->p_success = out->outcomes[1].share;
    if (snprintf(out->title, sizeof out->title, "%s %s",
                 disarm ? "Disarm" : trip ? "Trip" : "Grapple",
                 s->c[t].name) >= (int)sizeof out->title)
        out->title[sizeof out->title - 1] = '\0';
    if (disarm) {
        snprintf(out->assumed, sizeof out->assumed,
                 "the basic attack against Fortitude (004:440), as the engine "
                 "rolls it; no damage; a success drops the weapon in %s's "
                 "space%s; no action point spent",
                 s->c[t].name, cmd->option == 1 ? " or puts it in the attacker's hand" : "");
        return FRAY_OK;
    }
    snprintf(out->assumed, sizeof out->assumed,
             "the unarmed attack against Reflex%s, as the engine rolls it; "
             "no damage%s; no action point spent",
             trip ? "" : " with Strength",
             trip && fa_has(&st->c[t], FA_C_PRONE)
                 ? "; already prone: a success changes nothing"
                 : "");
    return FRAY_OK;
}

/* A feint (004:307; skills.c): a Bluff check, d20 + the bonus
 * fa_skill_roll adds, against the number feint_dc names (the target's
 * Will, or 10 + Notice); no natural 1 or 20. The share of d20+B at least
 * that number, what `fray odds roll d20+B --vs D` gives. */
static fray_status feint_one(const fa_setup *s, const fa_state *st, int turn,
                             const fa_command *cmd, const char *command,
                             fray_chances *out, fray_diag *diag) {
    int who = cmd->actor;
    if (cmd->n_targets != 1 || cmd->targets[0] < 0 || cmd->targets[0] >= st->n)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "a feint needs one target");
    int t = cmd->targets[0];
    if (st->c[t].flags & FA_F_OUT)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s is out of the fight", s->c[t].name);
    fray_status rc = check_now(s, st, turn, cmd, diag);
    if (rc != FRAY_OK)
        return rc;
    int bonus = fa_skill_check_bonus(s, st, who, FA_SKILL_BLUFF);
    int dc = fa_feint_dc(s, st, who, t);
    char text[32];
    snprintf(text, sizeof text, "d20%+d", bonus);
    fray_dice *dd = NULL;
    fray_dist D;
    memset(&D, 0, sizeof D);
    fray_diag d2;
    memset(&d2, 0, sizeof d2);
    rc = fray_dice_parse(text, NULL, NULL, &dd, &d2);
    if (rc == FRAY_OK)
        rc = fray_dice_dist(dd, 0, NULL, &D);
    fray_dice_free(dd);
    if (rc != FRAY_OK) {
        fray_dist_free(&D);
        return fray__diag_set(diag, rc, 0, "the Bluff check cannot be counted");
    }
    fray_ratio ok = dc <= 0 ? fray__ratio(1, 1, false) : fray_dist_at_least(&D, dc);
    fray_dist_free(&D);
    out->target = t;
    snprintf(out->command, sizeof out->command, "%s", command);
    out->n_tracks = 1;
    out->tracks[0] = hp_track[0];
    out->n_outcomes = 2;
    snprintf(out->outcomes[0].name, sizeof out->outcomes[0].name, "fails");
    out->outcomes[0].p = fray_ratio_one_minus(ok);
    snprintf(out->outcomes[1].name, sizeof out->outcomes[1].name, "succeeds");
    out->outcomes[1].p = ok;
    for (int i = 0; i < 2; i++)
        out->outcomes[i].share = fray_ratio_to_double(out->outcomes[i].p);
    out->n_damage = 1;
    out->damage[0].amount[0] = 0;
    out->damage[0].p = fray__ratio(1, 1, false);
    out->damage[0].share = 1;
    out->p_drop = -1;
    out->p_success = out->outcomes[1].share;
    snprintf(out->modifiers, sizeof out->modifiers, "Bluff %+d against %d (%s)",
             bonus, dc, s->opt.feint_against == FA_FEINT_NOTICE ? "10 + Notice"
                                                                : "Will");
    if (snprintf(out->title, sizeof out->title, "Feint at %s", s->c[t].name) >=
        (int)sizeof out->title)
        out->title[sizeof out->title - 1] = '\0';
    snprintf(out->assumed, sizeof out->assumed,
             "a success gives battle superiority on the next attack on %s "
             "before the end of the next turn; no damage; no action point spent",
             s->c[t].name);
    return FRAY_OK;
}

/* ---- Bull rush, escape, aid another, coup de grace --------------- */

static const char *const skill_words[FA_SKILLS] = {"Acrobatics", "Athletics",
                                                   "Notice", "Bluff"};

/* The modifiers of m in rules words ("none" when there are none). */
static void mods_text(const fa_mods *m, bool with_defense, char *buf, size_t size) {
    buf[0] = '\0';
    for (int i = 0; i < m->n; i++) {
        char one_mod[64];
        snprintf(one_mod, sizeof one_mod, "%s %+d", fa_mod_name(m->m[i].reason),
                 m->m[i].value);
        add_text(buf, size, one_mod);
    }
    for (int i = 0; with_defense && i < m->n_def; i++) {
        char one_mod[64];
        snprintf(one_mod, sizeof one_mod, "defense: %s %+d",
                 fa_mod_name(m->d[i].reason), m->d[i].value);
        add_text(buf, size, one_mod);
    }
    if (!buf[0])
        snprintf(buf, size, "none");
}

/* An action with two outcomes and no damage: `fails`, or `ok_name` with
 * chance ok; not ranked (p_drop -1). */
static void two_outcomes(fray_chances *out, int t, const char *command,
                         const char *ok_name, fray_ratio ok) {
    out->target = t;
    snprintf(out->command, sizeof out->command, "%s", command);
    out->n_tracks = 1;
    out->tracks[0] = hp_track[0];
    out->n_outcomes = 2;
    snprintf(out->outcomes[0].name, sizeof out->outcomes[0].name, "fails");
    out->outcomes[0].p = fray_ratio_one_minus(ok);
    snprintf(out->outcomes[1].name, sizeof out->outcomes[1].name, "%s", ok_name);
    out->outcomes[1].p = ok;
    for (int i = 0; i < 2; i++)
        out->outcomes[i].share = fray_ratio_to_double(out->outcomes[i].p);
    out->n_damage = 1;
    out->damage[0].amount[0] = 0;
    out->damage[0].p = fray__ratio(1, 1, false);
    out->damage[0].share = 1;
    out->expected[0] = 0;
    out->p_drop = -1;
    out->p_success = out->outcomes[1].share;
}

/* An attack roll's chance to hit (natural 1 misses, natural 20 hits):
 * fray_odds_d20_attack's p_hit, what `fray odds roll d20+B --attack --vs
 * D` gives. */
static fray_status attack_hit(int bonus, int defense, int crit_min,
                              fray_ratio *hit, fray_diag *diag) {
    fray_d20_attack_query q;
    memset(&q, 0, sizeof q);
    q.bonus = bonus;
    q.defense = defense;
    q.crit_min = crit_min;
    fray_d20_attack_odds ao;
    memset(&ao, 0, sizeof ao);
    fray_status rc = fray_odds_d20_attack(&q, NULL, &ao);
    if (rc == FRAY_OK)
        *hit = ao.p_hit;
    fray_d20_attack_odds_free(&ao);
    if (rc != FRAY_OK)
        return fray__diag_set(diag, rc, 0, "the roll cannot be counted");
    return FRAY_OK;
}

/* A check (no natural 1 or 20): d20 + bonus at least dc, what `fray odds
 * roll d20+B --vs D` gives. */
static fray_status check_at_least(int bonus, int dc, fray_ratio *ok,
                                  fray_diag *diag) {
    char text[32];
    snprintf(text, sizeof text, "d20%+d", bonus);
    fray_dice *dd = NULL;
    fray_dist D;
    memset(&D, 0, sizeof D);
    fray_diag d2;
    memset(&d2, 0, sizeof d2);
    fray_status rc = fray_dice_parse(text, NULL, NULL, &dd, &d2);
    if (rc == FRAY_OK)
        rc = fray_dice_dist(dd, 0, NULL, &D);
    fray_dice_free(dd);
    if (rc == FRAY_OK)
        *ok = fray_dist_at_least(&D, dc);
    fray_dist_free(&D);
    if (rc != FRAY_OK)
        return fray__diag_set(diag, rc, 0, "the check cannot be counted");
    return FRAY_OK;
}

static void cut_title(fray_chances *out, int written) {
    if (written >= (int)sizeof out->title)
        out->title[sizeof out->title - 1] = '\0'; /* cut: a long name */
}

/* A bull rush (004:509-512; attack.c bull_rush): Strength against
 * Fortitude with attack.c's modifiers (a charge's +1 when it ends a
 * charge, counted from where the charge ends: st is then the moved
 * state); a hit pushes the target one square away, onto the square
 * push_square picks (fa_bull_rush_square), or does nothing when there is
 * no room. */
static fray_status bull_rush_one(const fa_setup *s, const fa_state *st,
                                 const fa_command *cmd, bool charge,
                                 fray_pos charged_from, const char *command,
                                 fray_chances *out, fray_diag *diag) {
    int who = cmd->actor, t = cmd->targets[0];
    fa_attack_line L = fa_bull_rush_line(s, st, who);
    fa_mods m;
    fa_attack_mods(s, st, who, t, &L, charge, st->c[who].fp.at, &m);
    if (m.impossible)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s cannot reach %s now",
                              s->c[who].name, s->c[t].name);
    fray_ratio hit;
    fray_status rc = attack_hit(L.attack_bonus + m.total,
                                s->sb[s->c[t].sb].defense[FA_DEF_FORTITUDE] +
                                    m.def_total,
                                L.crit_min, &hit, diag);
    if (rc != FRAY_OK)
        return rc;
    fray_pos to;
    bool room = fa_bull_rush_square(s, st, who, t, cmd->origin, &to);
    two_outcomes(out, t, command, room ? "pushed" : "succeeds, no room", hit);
    mods_text(&m, true, out->modifiers, sizeof out->modifiers);
    cut_title(out, charge ? snprintf(out->title, sizeof out->title,
                                     "Charge to %d,%d, then bull rush %s",
                                     st->c[who].fp.at.x, st->c[who].fp.at.y,
                                     s->c[t].name)
                          : cmd->origin.x >= 0 && room
                          ? snprintf(out->title, sizeof out->title,
                                     "Bull rush %s to %d,%d", s->c[t].name,
                                     to.x, to.y)
                          : snprintf(out->title, sizeof out->title,
                                     "Bull rush %s", s->c[t].name));
    char where[160];
    int wn = room ? snprintf(where, sizeof where, "a success pushes %s to "
                             "%d,%d and %s follows into its square when it "
                             "fits", s->c[t].name, to.x, to.y, s->c[who].name)
                  : snprintf(where, sizeof where, "no free square to push %s "
                             "into: a success moves nobody", s->c[t].name);
    if (wn < 0 || (size_t)wn >= sizeof where)
        where[sizeof where - 1] = '\0'; /* cut: long names */
    char moved[120] = "";
    if (charge)
        snprintf(moved, sizeof moved, "; from %d,%d where the charge ends: what "
                 "its move from %d,%d provokes is not counted",
                 st->c[who].fp.at.x, st->c[who].fp.at.y, charged_from.x,
                 charged_from.y);
    if (snprintf(out->assumed, sizeof out->assumed,
                 "Strength against Fortitude, as the engine rolls it; %s; no "
                 "damage%s; no action point spent", where, moved) >=
        (int)sizeof out->assumed)
        out->assumed[sizeof out->assumed - 1] = '\0'; /* cut: long names */
    return FRAY_OK;
}

/* An escape from a grapple (004:599; act.c): the check the engine makes
 * (fa_escape_check: Acrobatics against Reflex or Athletics against
 * Fortitude, the better unless named), no natural 1 or 20. */
static fray_status escape_one(const fa_setup *s, const fa_state *st, int turn,
                              const fa_command *cmd, const char *command,
                              fray_chances *out, fray_diag *diag) {
    int who = cmd->actor;
    fray_status rc = check_now(s, st, turn, cmd, diag);
    if (rc != FRAY_OK)
        return rc;
    int bonus = 0, dc = 0, skill = 0, from = -1;
    if (!fa_escape_check(s, st, who, cmd->option, &bonus, &dc, &skill, &from))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s is not grappled",
                              s->c[who].name);
    fray_ratio ok;
    rc = check_at_least(bonus, dc, &ok, diag);
    if (rc != FRAY_OK)
        return rc;
    two_outcomes(out, from, command, "escapes", ok);
    snprintf(out->modifiers, sizeof out->modifiers, "%s %+d against %s %d",
             skill_words[skill], bonus,
             skill == FA_SKILL_ACROBATICS ? "Reflex" : "Fortitude", dc);
    cut_title(out, snprintf(out->title, sizeof out->title, "Escape from %s",
                            s->c[from].name));
    snprintf(out->assumed, sizeof out->assumed,
             "a check, no natural 1 or 20 (%s, %s); no action point spent",
             cmd->option == FA_SKILL_ACROBATICS || cmd->option == FA_SKILL_ATHLETICS
                 ? "the skill named"
                 : "the better of Acrobatics against Reflex and Athletics "
                   "against Fortitude",
             "the aid on it counted");
    return FRAY_OK;
}

/* Aid another (004:428-430; attack.c aid, skills.c aid_check): on an
 * attack or defenses, the basic attack against Defense 10 with the
 * attacker's modifiers only (the enemy's do not count); on a check, a DC
 * 10 check of that skill. A success gives the ally +2, nothing when four
 * others aid it already. */
static fray_status aid_one(const fa_setup *s, const fa_state *st, int turn,
                           const fa_command *cmd, const char *command,
                           fray_chances *out, fray_diag *diag) {
    int who = cmd->actor;
    fray_status rc = check_now(s, st, turn, cmd, diag);
    if (rc != FRAY_OK)
        return rc;
    fray_ratio ok;
    int ally, others;
    char effect[120];
    if (fa_aid_is_check(cmd)) {
        ally = cmd->targets[0];
        int skill = cmd->option - FA_AID_CHECK;
        int bonus = fa_skill_check_bonus(s, st, who, skill);
        rc = check_at_least(bonus, 10, &ok, diag);
        if (rc != FRAY_OK)
            return rc;
        others = fa_aid_check_sources(st, who, ally);
        two_outcomes(out, ally, command, "aids", ok);
        snprintf(out->modifiers, sizeof out->modifiers, "%s %+d against 10",
                 skill_words[skill], bonus);
        snprintf(effect, sizeof effect, "+2 on %s's next %s check",
                 s->c[ally].name, skill_words[skill]);
        cut_title(out, snprintf(out->title, sizeof out->title,
                                "Aid %s's %s", s->c[ally].name,
                                skill_words[skill]));
    } else {
        int enemy = cmd->targets[0];
        ally = cmd->targets[1];
        bool melee = fa_basic_melee(s, st, who, enemy, cmd->weapon);
        fa_attack_line L = fa_attack_line_of(s, st, who, -1, cmd->weapon, melee);
        fa_mods m;
        fa_attack_mods(s, st, who, enemy, &L, false, st->c[who].fp.at, &m);
        if (m.impossible)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "%s cannot attack %s now", s->c[who].name,
                                  s->c[enemy].name);
        rc = attack_hit(L.attack_bonus + m.total, 10, L.crit_min, &ok, diag);
        if (rc != FRAY_OK)
            return rc;
        others = fa_aid_attack_sources(st, who, ally);
        two_outcomes(out, enemy, command, "aids", ok);
        mods_text(&m, false, out->modifiers, sizeof out->modifiers);
        bool attack = cmd->option == FA_AID_ATTACK;
        snprintf(effect, sizeof effect, attack ? "+2 on %s's next attack on %s"
                 : "+2 to %s's defenses against %s's next attack",
                 s->c[ally].name, s->c[enemy].name);
        cut_title(out, snprintf(out->title, sizeof out->title,
                                "Aid %s's %s against %s", s->c[ally].name,
                                attack ? "attack" : "defenses",
                                s->c[enemy].name));
    }
    snprintf(out->assumed, sizeof out->assumed,
             "%s; a success gives %s%s; no action point spent",
             fa_aid_is_check(cmd) ? "a DC 10 check, no natural 1 or 20"
                                  : "the basic attack against Defense 10, "
                                    "the enemy's modifiers not counted",
             others >= 4 ? "nothing: four others aid already (at most four)"
                         : effect,
             "");
    return FRAY_OK;
}

/* A coup de grace (004:546-549; attack.c coup): the attack on a helpless
 * adjacent target, a hit a critical (option coup-de-grace-rolls; without
 * it no roll, always a critical): the damage's most plus the crit dice;
 * the target killed when it takes at least half its maximum, or falls to
 * minus half (004:211). */
static fray_status coup_one(const fa_setup *s, const fa_state *st, int turn,
                            const fa_command *cmd, const char *command,
                            fray_chances *out, fray_diag *diag) {
    int who = cmd->actor;
    if (cmd->n_targets != 1 || cmd->targets[0] < 0 || cmd->targets[0] >= st->n)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "a coup de grace needs one target");
    int t = cmd->targets[0];
    fray_status rc = check_now(s, st, turn, cmd, diag);
    if (rc != FRAY_OK)
        return rc;
    const fa_statblock *b = &s->sb[s->c[who].sb];
    bool melee = cmd->power >= 0 ? false
                                 : fa_basic_melee(s, st, who, t, cmd->weapon);
    fa_attack_line L = fa_attack_line_of(s, st, who, cmd->power, cmd->weapon, melee);
    if (L.area)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "a coup de grace is not made with an area");
    fa_mods m;
    fa_attack_mods(s, st, who, t, &L, false, st->c[who].fp.at, &m);
    if (m.impossible)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s cannot attack %s now",
                              s->c[who].name, s->c[t].name);
    fray_ratio hit = fray__ratio(1, 1, false);
    if (s->opt.coup_rolls) {
        rc = attack_hit(L.attack_bonus + m.total,
                        s->sb[s->c[t].sb].defense[L.defense] + m.def_total,
                        L.crit_min, &hit, diag);
        if (rc != FRAY_OK)
            return rc;
    }
    /* The critical's damage: the most plus the crit dice. */
    int most = L.mult * L.dice.n * L.dice.sides + L.damage_bonus;
    if (L.dice.n <= 0)
        most = 0;
    fray_dist E;
    memset(&E, 0, sizeof E);
    bool has_crit = L.dice.n > 0 && L.crit_dice.n > 0 && L.crit_dice.sides >= 2;
    char crit[24] = "";
    if (has_crit) {
        dice_text(crit, sizeof crit, L.crit_dice, 1, 0);
        fray_dice *cd = NULL;
        fray_diag d2;
        memset(&d2, 0, sizeof d2);
        rc = fray_dice_parse(crit, NULL, NULL, &cd, &d2);
        if (rc == FRAY_OK)
            rc = fray_dice_dist(cd, 0, NULL, &E);
        fray_dice_free(cd);
        if (rc != FRAY_OK) {
            fray_dist_free(&E);
            return fray__diag_set(diag, rc, 0, "the crit dice %s cannot be "
                                  "counted", crit);
        }
    }
    fray__u128 hn = fray__u128_from(hit.num), hd = fray__u128_from(hit.den);
    fray__u128 eden = has_crit ? fray__u128_from(E.den) : 1;
    size_t ne = has_crit ? E.n : 1;
    int hp = st->c[t].hp, max = s->sb[s->c[t].sb].hp;
    bool was_out = (st->c[t].flags & FA_F_OUT) != 0;
    fray__u128 killed = 0, dropped = 0;
    out->n_damage = 0;
    out->damage[out->n_damage].amount[0] = 0;
    out->damage[out->n_damage].p = fray_ratio_one_minus(hit);
    out->damage[out->n_damage].share = fray_ratio_to_double(out->damage[0].p);
    out->n_damage++;
    bool whole = true;
    /* A Withered attacker deals half, rounded down (damage.c, 004:1037):
     * the amount dealt, which the kill at half the maximum reads too
     * (attack.c's coup). Amounts that halve alike share a row. */
    bool withered = fa_has(&st->c[who], FA_C_WITHERED);
    fray__u128 row = 0;
    for (size_t j = 0; j < ne; j++) {
        fray__u128 c = has_crit ? fray__u128_from(E.count[j]) : 1;
        if (!c)
            continue;
        int v = most + (has_crit ? (int)(E.lo + (int64_t)j) : 0);
        if (v < 0)
            v = 0;
        if (withered)
            v /= 2;
        bool dead = hp - v <= -(max / 2) || 2 * v >= max;
        if (dead)
            killed += c;
        if (dead || was_out || hp - v <= 0)
            dropped += c;
        fray_chance_damage *e = &out->damage[out->n_damage - 1];
        if (out->n_damage > 1 && e->amount[0] == v) {
            row += c;
        } else if (out->n_damage >= FRAY_CHANCES_DAMAGE) {
            whole = false;
            continue;
        } else {
            e = &out->damage[out->n_damage++];
            e->amount[0] = v;
            row = c;
        }
        e->p = fray__ratio(hn * row, hd * eden, false);
        e->share = fray_ratio_to_double(e->p);
    }
    for (int i = 1; i < out->n_damage; i++)
        out->expected[0] += out->damage[i].share * out->damage[i].amount[0];
    fray_dist_free(&E);
    out->target = t;
    snprintf(out->command, sizeof out->command, "%s", command);
    out->n_tracks = 1;
    out->tracks[0] = hp_track[0];
    out->n_outcomes = 3;
    snprintf(out->outcomes[0].name, sizeof out->outcomes[0].name, "miss");
    out->outcomes[0].p = fray_ratio_one_minus(hit);
    snprintf(out->outcomes[1].name, sizeof out->outcomes[1].name, "critical, survives");
    out->outcomes[1].p = fray__ratio(hn * (eden - killed), hd * eden, false);
    snprintf(out->outcomes[2].name, sizeof out->outcomes[2].name, "killed");
    out->outcomes[2].p = fray__ratio(hn * killed, hd * eden, false);
    for (int i = 0; i < 3; i++)
        out->outcomes[i].share = fray_ratio_to_double(out->outcomes[i].p);
    out->p_drop = fray_ratio_to_double(fray__ratio(hn * dropped, hd * eden, false));
    mods_text(&m, true, out->modifiers, sizeof out->modifiers);
    const fa_weapon *w = NULL;
    int slot = cmd->weapon >= 0 ? cmd->weapon : st->c[who].wield;
    if (cmd->power < 0 && slot >= 0 && slot < b->n_weapons)
        w = &s->weapons[b->weapons[slot].weapon];
    cut_title(out, snprintf(out->title, sizeof out->title,
                            "Coup de grace on %s with %s", s->c[t].name,
                            cmd->power >= 0 ? b->powers[cmd->power].name
                            : w ? w->name : "its fists"));
    snprintf(out->assumed, sizeof out->assumed,
             "%s; a critical deals %d%s%s%s; killed at half its maximum (%d) "
             "dealt or at -%d%s; no action point spent",
             s->opt.coup_rolls ? "the attack rolled: a hit is a critical"
                               : "no roll: a critical",
             most, has_crit ? " plus " : "", crit,
             withered ? ", halved (Withered), rounded down" : "",
             (max + 1) / 2, max / 2,
             whole ? "" : "; the largest amounts are left out of the list");
    return FRAY_OK;
}

/* A skill used alone (004:313, 325; skills.c fa_skill_roll): d20 plus the
 * bonus the engine adds (fa_skill_check_bonus: the block's skill and the
 * aid on it), no natural 1 or 20, against the DC named (dc > 0), or for
 * Notice as a move action the engine's own (option notice-dc); the
 * share of d20+B at least DC, what `fray odds roll d20+B --vs DC` gives.
 * Without a DC the engine has no number to beat (the GM has): refused. */
static fray_status skill_one(const fa_setup *s, const fa_state *st, int turn,
                             const fa_command *cmd, const char *command, int dc,
                             fray_chances *out, fray_diag *diag) {
    int who = cmd->actor;
    fray_status rc = check_now(s, st, turn, cmd, diag);
    if (rc != FRAY_OK)
        return rc;
    int skill = cmd->option & ~FA_SKILL_AS_MOVE;
    bool as_move = (cmd->option & FA_SKILL_AS_MOVE) != 0;
    bool look = skill == FA_SKILL_NOTICE && as_move;
    if (skill < 0 || skill >= FA_SKILLS)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s has no such skill",
                              s->c[who].name);
    if (look && dc > 0 && dc != s->opt.notice_dc)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "Notice as a move action looks for the hidden "
                              "against the encounter's notice-dc (%d), not %d",
                              s->opt.notice_dc, dc);
    if (look)
        dc = s->opt.notice_dc;
    if (dc <= 0)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "a %s check used alone has no number to beat in "
                              "the fight (the GM has it): name it, '%s vs 15'",
                              skill_words[skill], command);
    int bonus = fa_skill_check_bonus(s, st, who, skill);
    int aid = fa_skill_aid_peek(&st->c[who], skill);
    fray_ratio ok;
    rc = check_at_least(bonus, dc, &ok, diag);
    if (rc != FRAY_OK)
        return rc;
    two_outcomes(out, -1, command, "succeeds", ok);
    if (aid)
        snprintf(out->modifiers, sizeof out->modifiers,
                 "%s %+d (aid %+d in it) against %d", skill_words[skill], bonus,
                 aid, dc);
    else
        snprintf(out->modifiers, sizeof out->modifiers, "%s %+d against %d",
                 skill_words[skill], bonus, dc);
    cut_title(out, snprintf(out->title, sizeof out->title,
                            "%s check against %d%s", skill_words[skill], dc,
                            look ? " (Notice as a move action: the hidden found)"
                                 : ""));
    snprintf(out->assumed, sizeof out->assumed,
             "d20 + the skill, no natural 1 or 20, against %s; %s%s; no damage; "
             "no action point spent",
             look ? "the encounter's notice-dc" : "the number named",
             as_move ? "a move action" : "a standard action",
             fa_skill_provokes(s, cmd)
                 ? "; the opportunity attacks it provokes are not counted"
                 : "");
    return FRAY_OK;
}

/* "... vs N" at the end of a command: N into *dc (0 none) and the words
 * before it into buf; FRAY_ERR_PARSE for a 'vs' without a number. A
 * command starting with a skill's name gets the verb 'skill' before it. */
static fray_status split_vs(const char *command, char *buf, size_t size,
                            int *dc, fray_diag *diag) {
    *dc = 0;
    static const char *const names[] = {"acrobatics", "athletics", "notice", "bluff"};
    const char *prefix = "";
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        size_t n = strlen(names[k]);
        bool same = true;
        for (size_t i = 0; same && i < n; i++)
            same = tolower((unsigned char)command[i]) == names[k][i];
        if (same && (command[n] == '\0' || command[n] == ' '))
            prefix = "skill ";
    }
    if (snprintf(buf, size, "%s%s", prefix, command) >= (int)size)
        return fray__diag_set(diag, FRAY_ERR_PARSE, 0, "the command is too long");
    char *vs = NULL;
    for (char *p = buf; (p = strstr(p, " vs")) != NULL; p += 3)
        if (p[3] == ' ' || p[3] == '\0')
            vs = p;
    if (!vs)
        return FRAY_OK;
    char *num = vs + 3, *end = NULL;
    while (*num == ' ')
        num++;
    long v = strtol(num, &end, 10);
    while (end && *end == ' ')
        end++;
    if (!*num || end == num || *end || v < 1 || v > 99)
        return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                              "expected the number to beat after 'vs' (1 to 99), "
                              "got '%s'", num);
    *dc = (int)v;
    *vs = '\0';
    return FRAY_OK;
}

static fray_status one_body(const fa_setup *s, const fa_state *st, int turn,
                            int who, const char *command, fray_chances *out,
                            fa_state **moved, fray_diag *diag) {
    memset(out, 0, sizeof *out);
    out->who = who;
    out->target = -1;
    out->p_drop = -1;
    out->p_success = -1;
    char words[FRAY_CHANCES_TEXT + 16];
    int dc = 0;
    fray_status rc = split_vs(command, words, sizeof words, &dc, diag);
    if (rc != FRAY_OK)
        return rc;
    char text[FRAY_CHANCES_TEXT + 120];
    snprintf(text, sizeof text, "%s %s", s->c[who].id, words);
    fa_command cmd;
    rc = fa_parse(s, st, text, &cmd, diag);
    if (rc != FRAY_OK)
        return rc;
    if (dc > 0 && cmd.kind != FA_CMD_SKILL)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "'vs %d' is the number a skill used alone must "
                              "beat: %s has its own", dc, fa_cmd_title(cmd.kind));
    if (cmd.actor != who)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "'%s' is not an action of %s", command,
                              s->c[who].name);
    if (st->c[who].flags & FA_F_OUT)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s is out of the fight", s->c[who].name);
    if (cmd.kind == FA_CMD_TRIP || cmd.kind == FA_CMD_GRAPPLE ||
        cmd.kind == FA_CMD_HELD_OBJECT)
        return special_one(s, st, turn, &cmd, command, out, diag);
    if (cmd.kind == FA_CMD_FEINT)
        return feint_one(s, st, turn, &cmd, command, out, diag);
    if (cmd.kind == FA_CMD_ESCAPE)
        return escape_one(s, st, turn, &cmd, command, out, diag);
    if (cmd.kind == FA_CMD_AID)
        return aid_one(s, st, turn, &cmd, command, out, diag);
    if (cmd.kind == FA_CMD_COUP)
        return coup_one(s, st, turn, &cmd, command, out, diag);
    if (cmd.kind == FA_CMD_SKILL)
        return skill_one(s, st, turn, &cmd, command, dc, out, diag);
    switch (cmd.kind) {
    case FA_CMD_WALK: case FA_CMD_SHIFT: case FA_CMD_RUN: case FA_CMD_CRAWL:
    case FA_CMD_SQUEEZE: case FA_CMD_STAND: case FA_CMD_DROP_PRONE:
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s: a move rolls no dice, it has no chances to "
                              "count", fa_cmd_title(cmd.kind));
    default:
        break;
    }
    if (cmd.kind == FA_CMD_BULL_RUSH ||
        (cmd.kind == FA_CMD_CHARGE && cmd.option == FA_CHARGE_BULL_RUSH)) {
        if (cmd.n_targets != 1 || cmd.targets[0] < 0 || cmd.targets[0] >= st->n)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "a bull rush needs one target");
        if (st->c[cmd.targets[0]].flags & FA_F_OUT)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "%s is out of the fight",
                                  s->c[cmd.targets[0]].name);
        fray_pos from = st->c[who].fp.at;
        bool by_charge = cmd.kind == FA_CMD_CHARGE;
        rc = by_charge ? charge_state(s, st, turn, &cmd, moved, diag)
                       : check_now(s, st, turn, &cmd, diag);
        if (rc != FRAY_OK)
            return rc;
        return bull_rush_one(s, by_charge ? *moved : st, &cmd, by_charge, from,
                             command, out, diag);
    }
    bool charge = cmd.kind == FA_CMD_CHARGE;
    if (cmd.kind != FA_CMD_ATTACK && !charge)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "the chances of %s are not counted (only an "
                              "attack, a power on its targets, an area, a "
                              "charge, a trip, a grapple, a disarm, a bull "
                              "rush, an escape, aid another, a coup de grace, "
                              "a feint or a skill against a number)",
                              fa_cmd_title(cmd.kind));
    if (st->c[who].flags & FA_F_OUT)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s is out of the fight", s->c[who].name);
    const fa_statblock *b = &s->sb[s->c[who].sb];
    int slot = cmd.weapon >= 0 ? cmd.weapon : st->c[who].wield;
    const fa_weapon *w = cmd.power < 0 && slot >= 0 && slot < b->n_weapons
                             ? &s->weapons[b->weapons[slot].weapon]
                             : NULL;
    bool melee = charge || !w || w->kind == FA_WK_MELEE;
    fray_pos charged_from = st->c[who].fp.at;
    if (charge) {
        if (cmd.n_targets < 1 || cmd.targets[0] < 0 || cmd.targets[0] >= st->n)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "a charge needs a target");
        rc = charge_state(s, st, turn, &cmd, moved, diag);
        if (rc != FRAY_OK)
            return rc;
        st = *moved;
        turn = -1; /* checked: the attack is counted as is from there */
    }
    fa_attack_line L = fa_attack_line_of(s, st, who, cmd.power, slot, melee);
    if (!L.area) {
        if (cmd.n_targets < 1)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "an attack needs a target");
        if (cmd.has_guess)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "the chances of an attack on a guessed "
                                  "square are not counted");
        for (int i = 0; i < cmd.n_targets; i++) {
            int t = cmd.targets[i];
            if (t < 0 || t >= st->n)
                return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                      "an attack needs a target");
            if (st->c[t].flags & FA_F_OUT)
                return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                      "%s is out of the fight", s->c[t].name);
        }
    } else if (!s->opt.area_crit_max) {
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "the chances of an area are counted with "
                              "area-crit maximum only (this encounter: roll)");
    }
    if (who == turn) {
        char why[200] = "";
        if (fa_check(s, st, &cmd, why, sizeof why) != FRAY_OK)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s", why);
    } else {
        for (int i = 0; !L.area && i < cmd.n_targets; i++)
            if (s->c[who].side == s->c[cmd.targets[i]].side)
                return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                      "%s will not attack an ally (%s)",
                                      s->c[who].name,
                                      s->c[cmd.targets[i]].name);
    }
    /* The creatures attacked: the targets named, or the area's. */
    int targets[FA_MAX_COMBATANTS];
    int n = 0;
    fray_pos from = st->c[who].fp.at;
    if (L.area) {
        rc = fa_area_targets(s, st, who, &cmd, &L, targets, &n, &from);
        if (rc != FRAY_OK)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "the area cannot be placed there (range, "
                                  "line of effect or its shape)");
        if (n == 0)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "nobody is in the area placed there");
        if (n > FRAY_CHANCES_AREA)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "the chances of an area on %d creatures "
                                  "are not counted (at most %d)", n,
                                  (int)FRAY_CHANCES_AREA);
    } else {
        n = cmd.n_targets;
        for (int i = 0; i < n; i++)
            targets[i] = cmd.targets[i];
    }
    snprintf(out->command, sizeof out->command, "%s", command);
    out->n_tracks = 1;
    out->tracks[0] = hp_track[0];
    const char *what = cmd.power >= 0 ? b->powers[cmd.power].name
                       : w ? w->name : "its fists";
    bool whole = true;
    if (n == 1 && !L.area) {
        int t = targets[0];
        target_count tc = {.oc = out->outcomes, .dmg = out->damage,
                           .max = FRAY_CHANCES_DAMAGE, .mods = out->modifiers,
                           .mods_size = sizeof out->modifiers};
        rc = count_target(s, st, who, t, &L, st->c[who].fp.at, false, charge,
                          &tc, diag);
        if (rc != FRAY_OK)
            return rc;
        out->target = t;
        out->n_outcomes = 3;
        out->n_damage = tc.n_damage;
        out->expected[0] = tc.expected;
        out->p_drop = tc.p_drop;
        whole = tc.whole;
        int tl = charge ? snprintf(out->title, sizeof out->title,
                                   "Charge to %d,%d, then attack on %s with %s",
                                   st->c[who].fp.at.x, st->c[who].fp.at.y,
                                   s->c[t].name, what)
                 : snprintf(out->title, sizeof out->title, "%s on %s with %s",
                            cmd.power >= 0 ? "Power" : "Attack", s->c[t].name,
                            what);
        if (tl >= (int)sizeof out->title)
            out->title[sizeof out->title - 1] = '\0'; /* cut: a long name */
    } else {
        /* Several targets (a roll each, 004:75) or an area (a roll each,
         * one damage roll for all, 004:100). */
        if (n > FRAY_CHANCES_AREA)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "too many targets to count");
        double ph[FRAY_CHANCES_AREA], pc[FRAY_CHANCES_AREA];
        int main_i = 0;
        for (int i = 0; i < n; i++) {
            fray_chance_target *ct = &out->area[i];
            ct->target = targets[i];
            ct->n_outcomes = 3;
            target_count tc = {.oc = ct->outcomes, .dmg = ct->damage,
                               .max = FRAY_CHANCES_AREA_DAMAGE,
                               .mods = ct->modifiers,
                               .mods_size = sizeof ct->modifiers};
            rc = count_target(s, st, who, targets[i], &L, from, L.area, false,
                              &tc, diag);
            if (rc != FRAY_OK)
                return rc;
            ct->n_damage = tc.n_damage;
            ct->expected[0] = tc.expected;
            ct->p_drop = tc.p_drop;
            whole = whole && tc.whole;
            ph[i] = tc.p_hit;
            pc[i] = tc.p_crit;
            out->area_expected_dropped += tc.p_drop;
            if (L.area && cmd.n_targets > 0 && targets[i] == cmd.targets[0])
                main_i = i;
        }
        /* An area placed on a square: the one standing there first, else
         * the first foe in it. */
        if (L.area && cmd.n_targets == 0) {
            int at = -1, foe = -1;
            for (int i = n - 1; i >= 0; i--) {
                fray_footprint fp = st->c[targets[i]].fp;
                int side = fp.side > 0 ? fp.side : 1;
                if (cmd.origin.x >= fp.at.x && cmd.origin.x < fp.at.x + side &&
                    cmd.origin.y >= fp.at.y && cmd.origin.y < fp.at.y + side)
                    at = i;
                if (s->c[targets[i]].side != s->c[who].side)
                    foe = i;
            }
            main_i = at >= 0 ? at : foe >= 0 ? foe : 0;
        }
        out->n_area = n;
        if (L.area) {
            rc = area_joint(&L, st, targets, ph, pc, n,
                            fa_has(&st->c[who], FA_C_WITHERED), out->area_dropped);
            if (rc != FRAY_OK)
                return fray__diag_set(diag, rc, 0, "the damage of that area "
                                      "cannot be counted");
        } else { /* independent rolls */
            double row[FRAY_CHANCES_AREA + 1] = {1};
            for (int i = 0; i < n; i++) {
                double p = out->area[i].p_drop;
                for (int k = i + 1; k > 0; k--)
                    row[k] = row[k] * (1 - p) + row[k - 1] * p;
                row[0] *= 1 - p;
            }
            for (int k = 0; k <= n; k++)
                out->area_dropped[k] = row[k];
        }
        const fray_chance_target *mt = &out->area[main_i];
        out->target = mt->target;
        out->n_outcomes = 3;
        memcpy(out->outcomes, mt->outcomes, sizeof out->outcomes);
        out->n_damage = mt->n_damage;
        memcpy(out->damage, mt->damage, sizeof mt->damage);
        out->expected[0] = mt->expected[0];
        out->p_drop = mt->p_drop;
        snprintf(out->modifiers, sizeof out->modifiers, "%s", mt->modifiers);
        if (snprintf(out->title, sizeof out->title, "%s with %s: %d %s",
                     cmd.power >= 0 ? "Power" : "Attack", what, n,
                     L.area ? "in the area" : "targets") >=
            (int)sizeof out->title)
            out->title[sizeof out->title - 1] = '\0';
    }
    char dmg[48], crit[24];
    dice_text(dmg, sizeof dmg, L.dice, L.mult, L.damage_bonus);
    bool has_crit = L.crit_dice.n > 0 && L.crit_dice.sides >= 2;
    if (has_crit)
        dice_text(crit, sizeof crit, L.crit_dice, 1, 0);
    char moved_words[200] = "";
    if (charge)
        snprintf(moved_words, sizeof moved_words,
                 "; the attack from %d,%d where the charge ends: what its "
                 "move from %d,%d provokes is not counted",
                 st->c[who].fp.at.x, st->c[who].fp.at.y, charged_from.x,
                 charged_from.y);
    if (snprintf(out->assumed, sizeof out->assumed,
                 "damage %s, a critical %s%s%s (the attack as the odds table "
                 "counts it)%s%s%s; no action point spent%s",
                 dmg, "deals the dice's most", has_crit ? " plus " : "",
                 has_crit ? crit : "",
                 fa_has(&st->c[who], FA_C_WITHERED)
                     ? "; Withered: the damage dealt halved, rounded down"
                     : "",
                 L.area ? "; an attack roll each, one damage roll for all"
                 : n > 1 ? "; an attack and a damage roll each" : "",
                 moved_words,
                 whole ? "" : "; the largest amounts are left out of the list") >=
        (int)sizeof out->assumed)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "the damage %s is too long to tell", dmg);
    return FRAY_OK;
}

static fray_status one(const fa_setup *s, const fa_state *st, int turn,
                       int who, const char *command, fray_chances *out,
                       fray_diag *diag) {
    fa_state *moved = NULL;
    fray_status rc = one_body(s, st, turn, who, command, out, &moved, diag);
    free(moved);
    return rc;
}

/* For `odds ID`: a Charge on foe t to the square next to it nearest the
 * charger (fewest squares counted, then the first in reading order) whose
 * charge act.c allows; FRAY_ERR_INVALID when none. */
static fray_status rank_charge(const fa_setup *s, const fa_state *st,
                               int turn, int who, int t, fray_chances *out,
                               fray_diag *diag) {
    fray_footprint tf = st->c[t].fp;
    int side = tf.side > 0 ? tf.side : 1;
    int me = st->c[who].fp.side > 0 ? st->c[who].fp.side : 1;
    fray_pos start = st->c[who].fp.at;
    fray_pos cand[64];
    int nc = 0;
    for (int y = tf.at.y - me; y <= tf.at.y + side && nc < 64; y++)
        for (int x = tf.at.x - me; x <= tf.at.x + side && nc < 64; x++) {
            fray_pos p = {(int16_t)x, (int16_t)y};
            if (!fray_grid_in(&s->map, p))
                continue;
            fray_footprint fp = {p, st->c[who].fp.side};
            if (!fray_grid_adjacent(fp, tf) || fa_count(s, start, p) < 2)
                continue;
            int k = nc++;
            while (k > 0 && fa_count(s, start, cand[k - 1]) > fa_count(s, start, p)) {
                cand[k] = cand[k - 1];
                k--;
            }
            cand[k] = p;
        }
    for (int i = 0; i < nc; i++) {
        char c[FRAY_CHANCES_TEXT];
        snprintf(c, sizeof c, "charge %s %d,%d", s->c[t].id, cand[i].x, cand[i].y);
        fray_diag d;
        memset(&d, 0, sizeof d);
        fray_status rc = one(s, st, turn, who, c, out, &d);
        if (rc == FRAY_OK)
            return FRAY_OK;
        if (rc != FRAY_ERR_INVALID && rc != FRAY_ERR_PARSE) {
            if (diag)
                *diag = d;
            return rc;
        }
    }
    return FRAY_ERR_INVALID;
}

/* For `odds ID`: the chances of c when the rules allow it now and it can
 * succeed (an action that deals no damage, ranked by p_success): listed
 * at out[*n]; a refusal lists nothing. */
static fray_status rank_no_damage(const fa_setup *s, const fa_state *st,
                                  int turn, int who, const char *c,
                                  fray_chances *out, int *n, fray_diag *diag) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_status rc = one(s, st, turn, who, c, &out[*n], &d);
    if (rc == FRAY_OK) {
        if (out[*n].p_success > 0)
            ++*n;
        return FRAY_OK;
    }
    if (rc == FRAY_ERR_INVALID || rc == FRAY_ERR_PARSE)
        return FRAY_OK;
    if (diag)
        *diag = d;
    return rc;
}

/* true when a foe of who's side still in the fight stands where the side
 * did not last see it (total concealment, 004:898; fa_cstate.seen): a
 * Notice check as a move action against notice-dc would find it. */
static bool foe_lost(const fa_setup *s, const fa_state *st, int who) {
    int side = s->c[who].side;
    if (side < 0 || side >= FA_MAX_SIDES)
        return false;
    for (int i = 0; i < st->n; i++) {
        const fa_cstate *c = &st->c[i];
        if (s->c[i].side == side || (c->flags & FA_F_OUT) || c->absent ||
            fa_has(c, FA_C_DEAD))
            continue;
        if (c->seen[side].x != c->fp.at.x || c->seen[side].y != c->fp.at.y)
            return true;
    }
    return false;
}

/* A bull rush on t to each other square the engine allows and has room
 * for (004:512: next to t, away from who; attack.c's push_square with the
 * square asked), the square the engine picks already listed by
 * `bull-rush T`. The chance is the same for each: the square is the
 * table's choice of where t goes. */
static fray_status rank_push_squares(const fa_setup *s, const fa_state *st,
                                     int turn, int who, int t,
                                     fray_chances *out, int max, int *n,
                                     fray_diag *diag) {
    fray_pos none = {-1, -1}, pick;
    if (!fa_bull_rush_square(s, st, who, t, none, &pick))
        return FRAY_OK;
    fray_pos at = st->c[t].fp.at;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1 && *n < max; dx++) {
            fray_pos p = {(int16_t)(at.x + dx), (int16_t)(at.y + dy)}, to;
            if ((dx == 0 && dy == 0) || !fray_grid_in(&s->map, p) ||
                (p.x == pick.x && p.y == pick.y) ||
                !fa_bull_rush_square(s, st, who, t, p, &to))
                continue;
            char c[FRAY_CHANCES_TEXT];
            snprintf(c, sizeof c, "bull-rush %s %d,%d", s->c[t].id, p.x, p.y);
            fray_status rc = rank_no_damage(s, st, turn, who, c, out, n, diag);
            if (rc != FRAY_OK)
                return rc;
        }
    return FRAY_OK;
}

/* What deals no damage, after the attacks (issue 19): an escape
 * when grappled; Notice as a move action when a foe is lost from sight
 * (against notice-dc, the engine's number); a trip, a grapple, a bull
 * rush (the square the engine picks, then each other square it allows),
 * a disarm (and with `take` when unarmed) and a feint on each foe; aid to
 * each adjacent ally, on its attack and its defenses, against each foe
 * next to that ally, and on the checks the ally has to make now: its
 * escape's skill when it is grappled, its Notice when a foe is lost.
 * Each only where act.c allows it now and it can succeed. */
static fray_status rank_others(const fa_setup *s, const fa_state *st, int turn,
                               int who, fray_chances *out, int max, int *n,
                               fray_diag *diag) {
    static const char *const verbs[] = {"trip", "grapple", "bull-rush",
                                        "disarm", "feint"};
    char c[FRAY_CHANCES_TEXT];
    fray_status rc = FRAY_OK;
    bool lost = foe_lost(s, st, who);
    if (*n < max && fa_has(&st->c[who], FA_C_GRAPPLED))
        rc = rank_no_damage(s, st, turn, who, "escape", out, n, diag);
    if (rc == FRAY_OK && *n < max && lost)
        rc = rank_no_damage(s, st, turn, who, "skill notice move", out, n, diag);
    for (int t = 0; rc == FRAY_OK && t < st->n && *n < max; t++) {
        if (t == who || s->c[t].side == s->c[who].side ||
            (st->c[t].flags & FA_F_OUT) || st->c[t].absent)
            continue;
        for (size_t k = 0; rc == FRAY_OK && k < sizeof verbs / sizeof verbs[0] &&
                           *n < max; k++) {
            snprintf(c, sizeof c, "%s %s", verbs[k], s->c[t].id);
            rc = rank_no_damage(s, st, turn, who, c, out, n, diag);
        }
        if (rc == FRAY_OK && *n < max) { /* 004:445: an unarmed attacker */
            snprintf(c, sizeof c, "disarm %s take", s->c[t].id);
            rc = rank_no_damage(s, st, turn, who, c, out, n, diag);
        }
        if (rc == FRAY_OK)
            rc = rank_push_squares(s, st, turn, who, t, out, max, n, diag);
    }
    for (int a = 0; rc == FRAY_OK && a < st->n && *n < max; a++) {
        if (a == who || s->c[a].side != s->c[who].side ||
            (st->c[a].flags & FA_F_OUT) || st->c[a].absent ||
            !fray_grid_adjacent(st->c[who].fp, st->c[a].fp))
            continue;
        for (int t = 0; rc == FRAY_OK && t < st->n && *n < max; t++) {
            if (s->c[t].side == s->c[who].side || (st->c[t].flags & FA_F_OUT) ||
                st->c[t].absent || !fray_grid_adjacent(st->c[a].fp, st->c[t].fp))
                continue;
            for (int k = 0; rc == FRAY_OK && k < 2 && *n < max; k++) {
                snprintf(c, sizeof c, "aid %s %s against %s", s->c[a].id,
                         k ? "defense" : "attack", s->c[t].id);
                rc = rank_no_damage(s, st, turn, who, c, out, n, diag);
            }
        }
        /* 004:429: the checks the ally has to make now. */
        int bonus = 0, dc = 0, skill = -1, from = -1;
        if (rc == FRAY_OK && *n < max &&
            fa_escape_check(s, st, a, -1, &bonus, &dc, &skill, &from) &&
            skill >= 0 && skill < FA_SKILLS) {
            char lower[16];
            size_t i = 0;
            for (; skill_words[skill][i] && i + 1 < sizeof lower; i++)
                lower[i] = (char)tolower((unsigned char)skill_words[skill][i]);
            lower[i] = '\0';
            snprintf(c, sizeof c, "aid %s %s", s->c[a].id, lower);
            rc = rank_no_damage(s, st, turn, who, c, out, n, diag);
        }
        if (rc == FRAY_OK && *n < max && lost) {
            snprintf(c, sizeof c, "aid %s notice", s->c[a].id);
            rc = rank_no_damage(s, st, turn, who, c, out, n, diag);
        }
    }
    return rc;
}

fray_status fa_chances(const fa_setup *s, const fa_state *st, int turn,
                       int who, const char *command, struct fray_chances *out,
                       int max, int *n, fray_diag *diag) {
    *n = 0;
    if (who < 0 || who >= st->n)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "no such combatant in this fight");
    if (command) {
        fray_status rc = one(s, st, turn, who, command, out, diag);
        if (rc == FRAY_OK)
            *n = 1;
        return rc;
    }
    for (int t = 0; t < st->n && *n < max; t++) {
        if (t == who || s->c[t].side == s->c[who].side ||
            (st->c[t].flags & FA_F_OUT))
            continue;
        /* The basic attack, then each attack power on it (an area
         * burst: centred on its square); blasts, close bursts and walls,
         * whose placing is a choice of squares, are asked by command. */
        const fa_statblock *b = &s->sb[s->c[who].sb];
        for (int p = -1; p < b->n_powers && *n < max; p++) {
            char c[FRAY_CHANCES_TEXT];
            if (p < 0) {
                snprintf(c, sizeof c, "attack %s", s->c[t].id);
            } else {
                const fa_power *pw = &b->powers[p];
                if (pw->teleport > 0)
                    continue;
                if (pw->area == FA_AREA_BURST)
                    snprintf(c, sizeof c, "attack at %d,%d with %s",
                             st->c[t].fp.at.x, st->c[t].fp.at.y, pw->id);
                else if (pw->area == FA_AREA_NONE)
                    snprintf(c, sizeof c, "attack %s with %s", s->c[t].id,
                             pw->id);
                else
                    continue;
            }
            fray_diag d;
            memset(&d, 0, sizeof d);
            fray_status rc = one(s, st, turn, who, c, &out[*n], &d);
            if (rc == FRAY_OK)
                ++*n;
            else if (rc != FRAY_ERR_INVALID && rc != FRAY_ERR_PARSE) {
                if (diag)
                    *diag = d;
                return rc;
            }
        }
        if (*n < max) { /* a coup de grace on a helpless foe (004:546) */
            char c[FRAY_CHANCES_TEXT];
            snprintf(c, sizeof c, "coup %s", s->c[t].id);
            fray_diag d;
            memset(&d, 0, sizeof d);
            fray_status rc = one(s, st, turn, who, c, &out[*n], &d);
            if (rc == FRAY_OK)
                ++*n;
            else if (rc != FRAY_ERR_INVALID && rc != FRAY_ERR_PARSE) {
                if (diag)
                    *diag = d;
                return rc;
            }
        }
        if (*n < max) {
            fray_status rc = rank_charge(s, st, turn, who, t, &out[*n], diag);
            if (rc == FRAY_OK)
                ++*n;
            else if (rc != FRAY_ERR_INVALID && rc != FRAY_ERR_PARSE)
                return rc;
        }
    }
    return rank_others(s, st, turn, who, out, max, n, diag);
}
