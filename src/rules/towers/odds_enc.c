/*
 * odds_enc.c - the odds of one attack taken from an encounter file
 * (include/fray/duel.h "One attack's odds from an encounter file"; issue
 * 15, section 2): `fray odds attack --encounter F --attacker ID
 * --defender ID [--weapon W]`.
 *
 * Nothing of the rules is written again: the modifiers are attack.c's
 * (ft_attack_mods for the sums; their reasons are the MODIFIER facts an
 * attack of a scratch copy of the fight's start records, as the narration
 * shows them), the damage is harm.c's (ft_harm_hit, checked Heart by Heart
 * against the sum this file shows), the flips' odds are odds.c's.
 */
#include "towers_int.h"

#include "fray/duel.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* harm.c's resilience(): which Resilience a weapon's category meets. */
static int enc_resilience(const ft_statblock *sb, ft_category cat,
                          const char **name) {
    switch (cat) {
    case FT_CAT_PHYSICAL:
        *name = "ER";
        return sb->cv[FT_CV_ER] + (sb->has_armor ? sb->armor.er : 0);
    case FT_CAT_ARCANE:
        *name = "IR";
        return sb->cv[FT_CV_IR] + (sb->has_armor ? sb->armor.ir : 0);
    case FT_CAT_NONE:
    default:
        *name = "none";
        return 0;
    }
}

/* harm.c's affinity(). */
static fray_towers_affinity enc_affinity(const ft_statblock *sb,
                                         ft_damage_type type) {
    if (type == FT_DMG_NONE || (unsigned)type >= 32u)
        return FRAY_TOWERS_NORMAL;
    if (sb->immune & (1u << type))
        return FRAY_TOWERS_IMMUNE;
    if (sb->susceptible & (1u << type))
        return FRAY_TOWERS_SUSCEPTIBLE;
    return FRAY_TOWERS_NORMAL;
}

static void damage_part(fray_enc_attack *out, int value, const char *why) {
    if (value == 0 || out->n_damage_parts >= 8)
        return;
    fray_enc_damage_part *p = &out->damage_parts[out->n_damage_parts++];
    p->value = value;
    snprintf(p->why, sizeof p->why, "%s", why);
}

FRAY_API int fray_towers_enc_weapon(const fray_towers_setup *setup,
                                    int attacker, const char *name) {
    if (!setup || !name || attacker < 0 || attacker >= setup->s.n_combatants)
        return -1;
    const ft_statblock *sb = &setup->s.c[attacker].sb;
    for (int i = 0; i < sb->n_weapons; i++) {
        const char *a = sb->weapons[i].name, *b = name;
        while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b)) {
            a++;
            b++;
        }
        if (!*a && !*b)
            return i;
    }
    return -1;
}

/* The reasons of the modifiers: an attack on a scratch copy of the state,
 * with facts on; the MODIFIER facts it records before its flips. */
static fray_status mod_reasons(const ft_setup *s, const ft_state *start,
                               int a, int t, const ft_attack_opts *o,
                               const fray_allocator *alloc,
                               fray_enc_attack *out, fray_diag *diag) {
    ft_state *st = fray__alloc(alloc, sizeof *st);
    ft_event *ev = fray__alloc(alloc, sizeof *ev);
    fray_status rc = FRAY_OK;
    if (!st || !ev) {
        rc = FRAY_ERR_NOMEM;
        goto done;
    }
    memcpy(st, start, sizeof *st);
    memset(ev, 0, sizeof *ev);
    ft_run r;
    ft_run_clear(&r);
    r.setup = s;
    r.st = st;
    r.ev = ev;
    r.facts = true;
    r.diag = diag;
    bool hit = false;
    rc = ft_attack(&r, a, t, o, &hit);
    if (rc != FRAY_OK)
        goto done;
    int flips = 0;
    for (int i = 0; i < ev->n_facts && flips < 2; i++) {
        const ft_fact *f = &ev->facts[i];
        if (f->kind == FT_FACT_FLIP)
            flips++;
        if (f->kind != FT_FACT_MODIFIER || out->n_mods >= FRAY_ENC_MODS_MAX)
            continue;
        fray_enc_mod *m = &out->mods[out->n_mods++];
        m->defense = f->who == t;
        m->shift = f->v[0];
        m->flip = f->v[1];
        memcpy(m->why, f->text, sizeof m->why);
        m->why[sizeof m->why - 1] = '\0';
    }
done:
    fray__free(alloc, st, sizeof *st);
    fray__free(alloc, ev, sizeof *ev);
    return rc;
}

FRAY_API fray_status fray_towers_enc_attack(const fray_towers_setup *setup,
                                            int a, int t, int weapon,
                                            bool power, fray_enc_attack *out,
                                            fray_diag *diag) {
    if (diag)
        memset(diag, 0, sizeof *diag);
    if (!setup || !out)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no attack to count");
    memset(out, 0, sizeof *out);
    const ft_setup *s = &setup->s;
    if (a < 0 || t < 0 || a >= s->n_combatants || t >= s->n_combatants)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "no such combatant in this encounter");
    if (a == t)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s cannot attack itself", s->c[a].name);
    const ft_statblock *asb = &s->c[a].sb, *tsb = &s->c[t].sb;
    if (weapon >= asb->n_weapons || weapon < -1)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s has no such weapon", s->c[a].name);
    const fray_allocator *alloc = setup->alloc.realloc ? &setup->alloc : NULL;
    ft_state *st = fray__alloc(alloc, sizeof *st);
    if (!st)
        return FRAY_ERR_NOMEM;
    /* The fight's start: as `fray fight` sets it up, before the
     * Initiative flips (nobody has acted: flat-footed). */
    ft_state_reset(s, st, 0);
    fray_status rc = FRAY_OK;
    ft_run r;
    ft_run_clear(&r);
    r.setup = s;
    r.st = st;
    r.facts = false;
    r.diag = diag;

    ft_attack_opts o;
    memset(&o, 0, sizeof o);
    o.weapon = weapon >= 0 ? weapon : st->c[a].wielded[0];
    o.power = power;
    const ft_weapon *w = o.weapon >= 0 && o.weapon < asb->n_weapons
                             ? &asb->weapons[o.weapon]
                             : NULL;
    if (!w) {
        rc = fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                            "%s holds no weapon: name one with --weapon",
                            s->c[a].name);
        goto done;
    }
    out->attacker = a;
    out->defender = t;
    out->weapon = o.weapon;
    snprintf(out->weapon_name, sizeof out->weapon_name, "%s", w->name);
    out->power = power;
    out->spell = w->spell;
    ft_mods m;
    memset(&m, 0, sizeof m);
    ft_attack_mods(&r, a, t, &o, &m);
    if (m.impossible) {
        rc = fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                            "%s cannot attack %s with %s where the file "
                            "places them: %s",
                            s->c[a].name, s->c[t].name, w->name, m.why);
        goto done;
    }
    out->attack_rank_name = w->spell ? "SA" : "PA";
    out->defense_rank_name = w->spell ? "ID" : "PD";
    out->attack_rank = w->spell ? asb->cv[FT_CV_SA] : asb->cv[FT_CV_PA];
    out->defense_rank = w->spell ? tsb->cv[FT_CV_ID] : tsb->cv[FT_CV_PD];
    fray_attack_query_init(&out->query, out->attack_rank + m.flip,
                           out->defense_rank + m.def_flip);
    out->query.attack_shift = m.shift;
    out->query.defense_shift = m.def_shift;
    out->query.deck = s->opt.deck;
    out->query.rules = s->opt.flip;
    out->query.shared_deck = !s->opt.fresh_decks && s->c[a].deck == s->c[t].deck;

    rc = mod_reasons(s, st, a, t, &o, alloc, out, diag);
    if (rc != FRAY_OK)
        goto done;
    /* The reasons must add up to the sums: else a modifier went unnamed. */
    int sum[4] = {0, 0, 0, 0};
    for (int i = 0; i < out->n_mods; i++) {
        const fray_enc_mod *e = &out->mods[i];
        sum[e->defense ? 2 : 0] += e->flip;
        sum[e->defense ? 3 : 1] += e->shift;
    }
    if (sum[0] != m.flip || sum[1] != m.shift || sum[2] != m.def_flip ||
        sum[3] != m.def_shift) {
        rc = fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                            "the modifiers' reasons (flip %+d, shift %+d; "
                            "defense flip %+d, shift %+d) do not add up to "
                            "the attack's modifiers (%+d, %+d; %+d, %+d)",
                            sum[0], sum[1], sum[2], sum[3], m.flip, m.shift,
                            m.def_flip, m.def_shift);
        goto done;
    }

    /* The damage, as ft_attack adds it up before harm.c. */
    int adv = ft_damage_advantage(asb);
    int talent = asb->tsum.once_damage ? ft_talent_hit_damage(&r, a, t, w) : 0;
    int bonus = adv + (power ? 2 : 0) + talent;
    int px = w->adds_px ? ft_px_used(w, asb->cv[FT_CV_PX]) : 0;
    out->damage = w->damage + bonus + px;
    damage_part(out, w->damage, w->name);
    damage_part(out, px, "Hard Strength [PX]");
    damage_part(out, adv, "damage advantage");
    damage_part(out, power ? 2 : 0, "Power Attack");
    damage_part(out, talent, "talents");
    out->resilience = enc_resilience(tsb, w->category, &out->resilience_name);
    out->affinity = enc_affinity(tsb, w->type);
    /* harm.c, Heart by Heart: the table's damage is the fight's. */
    out->has_damage = true;
    for (int h = 0; h <= FRAY_HEARTS_MAX; h++) {
        fray_towers_hit x = ft_harm_hit(&r, a, t, w, bonus, h);
        fray_towers_hit y =
            fray_towers_hit_damage(out->damage, h, out->resilience, out->affinity);
        if (x.stun != y.stun || x.lethal != y.lethal)
            out->has_damage = false;
    }
done:
    fray__free(alloc, st, sizeof *st);
    return rc;
}
