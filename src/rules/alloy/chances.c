/*
 * chances.c - Alloy at the table (issue 19; include/fray/chances.h): the
 * exact chances of an attack on one target from the fight's current
 * state. The command is read by parse.c (fa_parse) and checked by act.c
 * (fa_check) when it is the actor's turn; the attack line and modifiers
 * are attack.c's (fa_attack_line_of, fa_attack_mods), as the encounter
 * odds (odds_enc_alloy.c) take them; the odds are fray_odds_d20_attack's,
 * what `fray odds roll d20+B --attack --vs D --damage X` answers.
 */
#include "alloy_int.h"

#include "fray/chances.h"
#include "fray/dice.h"
#include "internal.h"

#include <stdio.h>
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

static fray_status one(const fa_setup *s, const fa_state *st, int turn,
                       int who, const char *command, fray_chances *out,
                       fray_diag *diag) {
    memset(out, 0, sizeof *out);
    out->who = who;
    out->target = -1;
    out->p_drop = -1;
    char text[FRAY_CHANCES_TEXT + 80];
    snprintf(text, sizeof text, "%s %s", s->c[who].id, command);
    fa_command cmd;
    fray_status rc = fa_parse(s, st, text, &cmd, diag);
    if (rc != FRAY_OK)
        return rc;
    if (cmd.actor != who)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "'%s' is not an action of %s", command,
                              s->c[who].name);
    if (cmd.kind != FA_CMD_ATTACK)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "the chances of %s are not counted (only an "
                              "attack on one target)", fa_cmd_title(cmd.kind));
    if (cmd.n_targets != 1)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "the chances of an attack on %d targets are "
                              "not counted (only one target)",
                              (int)cmd.n_targets);
    int t = cmd.targets[0];
    if (t < 0 || t >= st->n)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "an attack needs a target");
    if (cmd.has_guess)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "the chances of an attack on a guessed square "
                              "are not counted");
    if (st->c[who].flags & FA_F_OUT)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s is out of the fight", s->c[who].name);
    if (st->c[t].flags & FA_F_OUT)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s is out of the fight", s->c[t].name);
    if (who == turn) {
        char why[200] = "";
        if (fa_check(s, st, &cmd, why, sizeof why) != FRAY_OK)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s", why);
    } else if (s->c[who].side == s->c[t].side) {
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s will not attack an ally (%s)",
                              s->c[who].name, s->c[t].name);
    }
    const fa_statblock *b = &s->sb[s->c[who].sb];
    int slot = cmd.weapon >= 0 ? cmd.weapon : st->c[who].wield;
    const fa_weapon *w = cmd.power < 0 && slot >= 0 && slot < b->n_weapons
                             ? &s->weapons[b->weapons[slot].weapon]
                             : NULL;
    bool melee = !w || w->kind == FA_WK_MELEE;
    fa_attack_line L = fa_attack_line_of(s, st, who, cmd.power, slot, melee);
    if (L.area)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "the chances of an area attack are not counted");
    fa_mods m;
    fa_attack_mods(s, st, who, t, &L, false, st->c[t].fp.at, &m);
    if (m.impossible)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s cannot attack %s now: %s", s->c[who].name,
                              s->c[t].name,
                              m.why_impossible == FA_NOTE_TOTAL_COVER
                                  ? "total cover"
                                  : m.why_impossible == FA_NOTE_OUT_OF_RANGE
                                        ? "out of range"
                                        : "not possible now");
    out->target = t;
    snprintf(out->command, sizeof out->command, "%s", command);
    if (snprintf(out->title, sizeof out->title, "%s on %s with %s",
                 cmd.power >= 0 ? "Power" : "Attack", s->c[t].name,
                 w ? w->name : cmd.power >= 0 ? "a power" : "its fists") >=
        (int)sizeof out->title)
        out->title[sizeof out->title - 1] = '\0'; /* cut: a long name */
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

    char dmg[48], crit[24];
    dice_text(dmg, sizeof dmg, L.dice, L.mult, L.damage_bonus);
    bool has_crit = L.crit_dice.n > 0 && L.crit_dice.sides >= 2;
    if (has_crit)
        dice_text(crit, sizeof crit, L.crit_dice, 1, 0);
    fray_dice *dd = NULL, *cd = NULL;
    fray_diag d2;
    memset(&d2, 0, sizeof d2);
    rc = fray_dice_parse(dmg, NULL, NULL, &dd, &d2);
    if (rc == FRAY_OK && has_crit)
        rc = fray_dice_parse(crit, NULL, NULL, &cd, &d2);
    fray_d20_attack_odds ao;
    memset(&ao, 0, sizeof ao);
    if (rc == FRAY_OK) {
        fray_d20_attack_query q;
        memset(&q, 0, sizeof q);
        q.bonus = L.attack_bonus + m.total;
        q.defense = s->sb[s->c[t].sb].defense[L.defense] + m.def_total;
        q.crit_min = L.crit_min;
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
    out->n_outcomes = 3;
    snprintf(out->outcomes[0].name, sizeof out->outcomes[0].name, "miss");
    out->outcomes[0].p = fray_ratio_one_minus(ao.p_hit);
    snprintf(out->outcomes[1].name, sizeof out->outcomes[1].name, "hit");
    /* hit without a critical: p_hit - p_crit over the common denominator
     * (both are multiples of 1/20). */
    fray__u128 num = fray__u128_from(ao.p_hit.num) * 20 / fray__u128_from(ao.p_hit.den) -
                     fray__u128_from(ao.p_crit.num) * 20 / fray__u128_from(ao.p_crit.den);
    out->outcomes[1].p = fray__ratio(num, 20, false);
    snprintf(out->outcomes[2].name, sizeof out->outcomes[2].name, "critical");
    out->outcomes[2].p = ao.p_crit;
    for (int i = 0; i < 3; i++)
        out->outcomes[i].share = fray_ratio_to_double(out->outcomes[i].p);
    out->n_tracks = 1;
    out->tracks[0] = hp_track[0];
    fray__u128 den = fray__u128_from(ao.damage.den), drop = 0;
    int hp = st->c[t].hp;
    for (size_t i = 0; i < ao.damage.n && out->n_damage < FRAY_CHANCES_DAMAGE; i++) {
        fray__u128 c = fray__u128_from(ao.damage.count[i]);
        if (!c)
            continue;
        int v = (int)(ao.damage.lo + (int64_t)i);
        fray_chance_damage *e = &out->damage[out->n_damage++];
        e->amount[0] = v;
        e->p = fray__ratio(c, den, false);
        e->share = fray_ratio_to_double(e->p);
        out->expected[0] += e->share * v;
        if (v > 0 && hp - v <= 0)
            drop += c;
    }
    bool whole = out->n_damage < FRAY_CHANCES_DAMAGE || ao.damage.n <= FRAY_CHANCES_DAMAGE;
    out->p_drop = fray_ratio_to_double(fray__ratio(drop, den, false));
    snprintf(out->assumed, sizeof out->assumed,
             "damage %s, a critical %s%s%s (the attack as the odds table "
             "counts it); no action point spent%s",
             dmg, "deals the dice's most", has_crit ? " plus " : "",
             has_crit ? crit : "",
             whole ? "" : "; the largest amounts are left out of the list");
    fray_d20_attack_odds_free(&ao);
    fray_dice_free(dd);
    fray_dice_free(cd);
    return FRAY_OK;
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
        char c[FRAY_CHANCES_TEXT];
        snprintf(c, sizeof c, "attack %s", s->c[t].id);
        fray_diag d;
        memset(&d, 0, sizeof d);
        fray_status rc = one(s, st, turn, who, c, &out[*n], &d);
        if (rc == FRAY_OK)
            ++*n;
        else if (rc != FRAY_ERR_INVALID) {
            if (diag)
                *diag = d;
            return rc;
        }
    }
    return FRAY_OK;
}
