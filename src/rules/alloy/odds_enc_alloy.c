/*
 * odds_enc_alloy.c - Alloy: one attack's numbers from an encounter file
 * (include/fray/duel.h fray_alloy_enc_attack; issue 15, section 2): the
 * attack line and every modifier as attack.c counts them (fa_attack_line_of,
 * fa_attack_mods), each by its name (fa_mod_name), at the fight's start.
 * The odds themselves are fray_odds_d20_attack's (the CLI's table).
 */
#include "alloy_int.h"

#include "fray/duel.h"
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static bool same_name(const char *a, const char *b) {
    while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b)) {
        a++;
        b++;
    }
    return !*a && !*b;
}

FRAY_API int fray_alloy_enc_weapon(const void *setup, int attacker,
                                   const char *name) {
    const fa_setup *s = setup;
    if (!s || !name || attacker < 0 || attacker >= s->n)
        return -1;
    const fa_statblock *b = &s->sb[s->c[attacker].sb];
    for (int i = 0; i < b->n_weapons; i++) {
        const fa_weapon *w = &s->weapons[b->weapons[i].weapon];
        if (same_name(w->name, name) || same_name(w->id, name))
            return i;
    }
    return -1;
}

static void dice_text(char *buf, size_t size, fa_dice d, int mult, int plus) {
    if (d.n <= 0 || d.sides < 2) {
        buf[0] = '\0';
        return;
    }
    if (plus)
        snprintf(buf, size, "%dd%d%+d", d.n * mult, d.sides, plus);
    else
        snprintf(buf, size, "%dd%d", d.n * mult, d.sides);
}

FRAY_API fray_status fray_alloy_attack_from(const void *setup, int a, int t,
                                           int weapon,
                                           fray_alloy_enc_attack *out,
                                           fray_diag *diag) {
    if (diag)
        memset(diag, 0, sizeof *diag);
    const fa_setup *s = setup;
    if (!s || !out)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no attack to count");
    memset(out, 0, sizeof *out);
    if (a < 0 || t < 0 || a >= s->n || t >= s->n)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "no such combatant in this encounter");
    if (a == t)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s cannot attack itself", s->c[a].name);
    const fa_statblock *b = &s->sb[s->c[a].sb];
    if (weapon < -1 || weapon >= b->n_weapons)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "%s has no such weapon",
                              s->c[a].name);
    fa_state *st = fray__alloc(&s->alloc, sizeof *st);
    if (!st)
        return FRAY_ERR_NOMEM;
    /* The fight's start: as `fray fight` sets it up, before initiative. */
    fa_state_init(s, st, 0, 0);
    int slot = weapon >= 0 ? weapon : st->c[a].wield;
    const fa_weapon *w =
        slot >= 0 && slot < b->n_weapons ? &s->weapons[b->weapons[slot].weapon] : NULL;
    bool melee = !w || w->kind == FA_WK_MELEE;
    fa_attack_line L = fa_attack_line_of(s, st, a, -1, slot, melee);
    fa_mods m;
    fa_attack_mods(s, st, a, t, &L, false, st->c[t].fp.at, &m);
    fray_status rc = FRAY_OK;
    if (m.impossible) {
        rc = fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                            "%s cannot attack %s with %s where the file places "
                            "them: %s",
                            s->c[a].name, s->c[t].name, w ? w->name : "its fists",
                            m.why_impossible == FA_NOTE_TOTAL_COVER
                                ? "total cover"
                                : m.why_impossible == FA_NOTE_OUT_OF_RANGE
                                      ? "out of range"
                                      : "not possible now");
        goto done;
    }
    out->attacker = a;
    out->defender = t;
    snprintf(out->weapon_name, sizeof out->weapon_name, "%s", w ? w->name : "");
    out->line_bonus = L.attack_bonus;
    out->bonus = L.attack_bonus + m.total;
    out->base_defense = s->sb[s->c[t].sb].defense[L.defense];
    out->defense = out->base_defense + m.def_total;
    snprintf(out->defense_name, sizeof out->defense_name, "%s",
             fa_defense_name(L.defense));
    for (int i = 0; i < m.n && out->n_mods < 20; i++) {
        fray_alloy_enc_mod *e = &out->mods[out->n_mods++];
        e->value = m.m[i].value;
        snprintf(e->why, sizeof e->why, "%s", fa_mod_name(m.m[i].reason));
    }
    for (int i = 0; i < m.n_def && out->n_mods < 20; i++) {
        fray_alloy_enc_mod *e = &out->mods[out->n_mods++];
        e->defense = true;
        e->value = m.d[i].value;
        snprintf(e->why, sizeof e->why, "%s", fa_mod_name(m.d[i].reason));
    }
    out->proficiency_lost = L.proficiency_lost;
    dice_text(out->damage, sizeof out->damage, L.dice, L.mult, L.damage_bonus);
    dice_text(out->crit_dice, sizeof out->crit_dice, L.crit_dice, 1, 0);
    out->crit_min = L.crit_min;
done:
    fray__free(&s->alloc, st, sizeof *st);
    return rc;
}
