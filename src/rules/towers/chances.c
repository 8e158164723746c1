/*
 * chances.c - 99 Towers at the table (issue 19; include/fray/chances.h):
 * the exact chances of an Attack or a Power Attack from the fight's
 * current state, and a simulation fight started from that state with the
 * cards nobody has seen shuffled anew (the forecast).
 *
 * Nothing of the rules is written again: the command is read by fight.c's
 * words (ft_table_parse), checked by engine.c (ft_check_command) when it
 * is the actor's turn, its modifiers are attack.c's (ft_attack_mods; their
 * reasons the MODIFIER facts an attack on a scratch copy records), the
 * flips' odds odds.c's (fray_odds_attack: what `fray odds attack` answers),
 * the damage harm.c's (ft_harm_hit) and whether it drops the target harm.c's
 * too (ft_harm_apply on a scratch copy).
 */
#include "towers_int.h"

#include "fray/chances.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cards_int.h"
#include "internal.h"

static const char *const tracks[2] = {"STUN", "LETHAL"};

/* Scratch memory for one count: two states and an event (an event is
 * about 27 KB: never on the stack). */
typedef struct scratch {
    ft_state st, st2;
    ft_event ev;
} scratch;

static void add_text(char *buf, size_t size, const char *text) {
    size_t n = strlen(buf);
    if (n + 1 < size)
        snprintf(buf + n, size - n, "%s%s", n ? "; " : "", text);
}

/* The modifiers' reasons, as a fight narrates them: the MODIFIER facts an
 * attack on a scratch copy of the state records before its flips. */
static fray_status mod_words(const ft_setup *s, const ft_state *now, int a,
                             int t, const ft_attack_opts *o, scratch *x,
                             char *buf, size_t size) {
    memcpy(&x->st2, now, sizeof x->st2);
    memset(&x->ev, 0, sizeof x->ev);
    ft_run r;
    ft_run_clear(&r);
    r.setup = s;
    r.st = &x->st2;
    r.ev = &x->ev;
    r.facts = true;
    fray_diag d;
    memset(&d, 0, sizeof d);
    r.diag = &d;
    bool hit = false;
    fray_status rc = ft_attack(&r, a, t, o, &hit);
    if (rc != FRAY_OK)
        return rc;
    int flips = 0;
    for (int i = 0; i < x->ev.n_facts && flips < 2; i++) {
        const ft_fact *f = &x->ev.facts[i];
        if (f->kind == FT_FACT_FLIP)
            flips++;
        if (f->kind != FT_FACT_MODIFIER)
            continue;
        char one[96];
        char why[40];
        snprintf(why, sizeof why, "%s", f->text);
        if (f->v[0] && f->v[1])
            snprintf(one, sizeof one, "%s%s (flip%+d, shift%+d)",
                     f->who == t ? "defense: " : "", why, f->v[1], f->v[0]);
        else if (f->v[1])
            snprintf(one, sizeof one, "%s%s (flip%+d)",
                     f->who == t ? "defense: " : "", why, f->v[1]);
        else
            snprintf(one, sizeof one, "%s%s (shift%+d)",
                     f->who == t ? "defense: " : "", why, f->v[0]);
        add_text(buf, size, one);
    }
    return FRAY_OK;
}

/* Whether `stun` STUN and `lethal` LETHAL on t take it out of the fight
 * now (harm.c on a scratch copy). */
static bool drops(const ft_setup *s, const ft_state *now, int a, int t,
                  int stun, int lethal, scratch *x) {
    memcpy(&x->st2, now, sizeof x->st2);
    memset(&x->ev, 0, sizeof x->ev);
    ft_run r;
    ft_run_clear(&r);
    r.setup = s;
    r.st = &x->st2;
    r.ev = &x->ev;
    r.facts = false;
    ft_harm_apply(&r, t, stun, lethal, a);
    return !ft_in_fight(&x->st2, t);
}

static fray_ratio ratio(fray__u128 num, fray__u128 den) {
    return fray__ratio(num, den, false);
}

static fray_status refuse(fray_diag *diag, const char *fmt, const char *a,
                          const char *b) {
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0, fmt, a, b);
}

static fray_status one(const fray_towers_fight *f, int who,
                       const char *command, scratch *x, fray_chances *out,
                       fray_diag *diag) {
    const ft_setup *s = &f->setup->s;
    memset(out, 0, sizeof *out);
    out->who = who;
    out->target = -1;
    out->p_drop = -1;
    /* "aim then ACTION": the attack as if an Aim came just before it. */
    const char *asked = command;
    bool aim_first = strncasecmp(command, "aim then ", 9) == 0;
    if (aim_first)
        command += 9;
    char text[FRAY_CHANCES_TEXT + FT_NAME + 2];
    snprintf(text, sizeof text, "%s %s", s->c[who].id, command);
    ft_command cmd;
    int words = 0;
    fray_status rc = ft_table_parse(s, text, &cmd, &words, diag);
    if (rc != FRAY_OK)
        return rc;
    if (cmd.actor != who)
        return refuse(diag, "'%s' is not an action of %s", command,
                      s->c[who].name);
    const char *title = cmd.action < FT_ACTION_COUNT ? ft_actions[cmd.action].text
                                                      : "that";
    if (cmd.action != FT_ACT_ATTACK && cmd.action != FT_ACT_POWER_ATTACK &&
        cmd.action != FT_ACT_CAST)
        return refuse(diag, "the chances of %s are not counted%s (only "
                      "Attack, Power Attack and Cast a Spell on one target, "
                      "also after an Aim: aim then attack ID)", title, "");
    if (words > 0)
        return refuse(diag, "the chances with Hand of Fate, chip or "
                      "opportunity words are not counted%s%s: ask without them",
                      "", "");
    if (cmd.shift_first)
        return refuse(diag, "a Shift Position first moves %s: ask again "
                      "after it%s", s->c[who].name, "");
    if (cmd.grapple_move)
        return refuse(diag, "the chances of a grappling move are not "
                      "counted%s%s", "", "");
    int t = cmd.target;
    if (t < 0 || t >= f->st.n)
        return refuse(diag, "%s needs a target%s", title, "");
    memcpy(&x->st, &f->st, sizeof x->st);
    ft_state *st = &x->st;
    const ft_statblock *asb = &s->c[who].sb, *tsb = &s->c[t].sb;
    int wi = cmd.weapon >= 0 ? cmd.weapon : st->c[who].wielded[cmd.off_hand ? 1 : 0];
    const ft_weapon *w = wi >= 0 && wi < asb->n_weapons ? &asb->weapons[wi] : NULL;
    if (!w)
        return refuse(diag, "%s holds no weapon: Draw a Weapon first%s",
                      s->c[who].name, "");
    if (w->area)
        return refuse(diag, "the chances of an attack with an area (%s) are "
                      "not counted%s", w->name, "");
    if (cmd.action == FT_ACT_CAST && !w->spell)
        return refuse(diag, "the %s is not a spell%s", w->name, "");
    if (!ft_in_fight(st, who))
        return refuse(diag, "%s is out of the fight%s", s->c[who].name, "");
    /* Whose turn it is: the engine's whole check. Anyone else, as if its
     * turn came now: what attack.c and the command's own check ask of
     * the attack itself. */
    if (!st->over && ft_next_actor(st) == who) {
        /* (Its phase on the copy: the clock moved on to it.) */
        if (st->c[who].phase > st->phase)
            st->phase = st->c[who].phase;
        rc = ft_check_command(s, st, &cmd, diag);
        if (rc != FRAY_OK)
            return rc;
    } else {
        if (ft_allies(s, who, t))
            return refuse(diag, "%s will not attack an ally (%s)",
                          s->c[who].name, s->c[t].name);
        if (!ft_in_fight(st, t))
            return refuse(diag, "%s is out of the fight%s", s->c[t].name, "");
    }
    if (aim_first) { /* engine.c's Aim, on the copy */
        st->c[who].aim++;
        st->c[who].aim_spell = (int8_t)w->spell;
    }
    ft_attack_opts o;
    memset(&o, 0, sizeof o);
    o.weapon = wi;
    o.off_hand = cmd.off_hand;
    o.power = cmd.action == FT_ACT_POWER_ATTACK;
    ft_run r;
    ft_run_clear(&r);
    r.setup = s;
    r.st = st;
    r.diag = diag;
    ft_mods m;
    memset(&m, 0, sizeof m);
    ft_attack_mods(&r, who, t, &o, &m);
    if (m.impossible)
        return refuse(diag, "%s cannot make that attack now: %s",
                      s->c[who].name, m.why);
    out->target = t;
    snprintf(out->command, sizeof out->command, "%s", asked);
    snprintf(out->title, sizeof out->title, "%s%s on %s with %s",
             aim_first ? "Aim, then " : "", title, s->c[t].name, w->name);

    fray_attack_query q;
    fray_attack_query_init(&q, (w->spell ? asb->cv[FT_CV_SA] : asb->cv[FT_CV_PA]) + m.flip,
                           (w->spell ? tsb->cv[FT_CV_ID] : tsb->cv[FT_CV_PD]) + m.def_flip);
    q.attack_shift = m.shift;
    q.defense_shift = m.def_shift;
    q.deck = s->opt.deck;
    q.rules = s->opt.flip;
    q.shared_deck = !s->opt.fresh_decks && s->c[who].deck == s->c[t].deck;
    fray_attack_odds ao;
    rc = fray_odds_attack(&q, &ao);
    if (rc != FRAY_OK)
        return fray__diag_set(diag, rc, 0, "the flips of that attack need "
                              "more cards than the deck has");
    fray__u128 den = fray__u128_from(ao.den), hits = 0;
    for (int h = 0; h <= FRAY_HEARTS_MAX; h++)
        hits += fray__u128_from(ao.hit[h]);
    fray__u128 crit = hits - fray__u128_from(ao.hit[0]);
    const char *names[3] = {"miss", "hit", "critical"};
    fray__u128 counts[3] = {den - hits, fray__u128_from(ao.hit[0]), crit};
    out->n_outcomes = 3;
    for (int i = 0; i < 3; i++) {
        fray_chance_outcome *oc = &out->outcomes[i];
        snprintf(oc->name, sizeof oc->name, "%s", names[i]);
        oc->p = ratio(counts[i], den);
        oc->share = fray_ratio_to_double(oc->p);
    }

    /* The damage, as ft_attack adds it up before harm.c. */
    int adv = ft_damage_advantage(asb);
    int talent = asb->tsum.once_damage ? ft_talent_hit_damage(&r, who, t, w) : 0;
    int bonus = adv + (o.power ? 2 : 0) + talent;
    out->n_tracks = 2;
    out->tracks[0] = tracks[0];
    out->tracks[1] = tracks[1];
    /* Amounts and their counts: the miss first. */
    int amt[FRAY_HEARTS_MAX + 2][2];
    fray__u128 cnt[FRAY_HEARTS_MAX + 2];
    int n = 0;
    amt[0][0] = amt[0][1] = 0;
    cnt[0] = den - hits;
    n = 1;
    fray__u128 dropped = 0;
    for (int h = 0; h <= FRAY_HEARTS_MAX; h++) {
        fray__u128 c = fray__u128_from(ao.hit[h]);
        if (!c)
            continue;
        fray_towers_hit hd = ft_harm_hit(&r, who, t, w, bonus, h);
        if (drops(s, st, who, t, hd.stun, hd.lethal, x))
            dropped += c;
        int k = 0;
        while (k < n && (amt[k][0] != hd.stun || amt[k][1] != hd.lethal))
            k++;
        if (k == n) {
            amt[n][0] = hd.stun;
            amt[n][1] = hd.lethal;
            cnt[n++] = 0;
        }
        cnt[k] += c;
    }
    /* Smallest total first. */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && amt[j][0] + amt[j][1] < amt[j - 1][0] + amt[j - 1][1]; j--) {
            int a0 = amt[j][0], a1 = amt[j][1];
            fray__u128 c0 = cnt[j];
            amt[j][0] = amt[j - 1][0];
            amt[j][1] = amt[j - 1][1];
            cnt[j] = cnt[j - 1];
            amt[j - 1][0] = a0;
            amt[j - 1][1] = a1;
            cnt[j - 1] = c0;
        }
    for (int i = 0; i < n; i++) {
        if (!cnt[i])
            continue;
        fray_chance_damage *d = &out->damage[out->n_damage++];
        d->amount[0] = amt[i][0];
        d->amount[1] = amt[i][1];
        d->p = ratio(cnt[i], den);
        d->share = fray_ratio_to_double(d->p);
        out->expected[0] += d->share * amt[i][0];
        out->expected[1] += d->share * amt[i][1];
    }
    out->p_drop = fray_ratio_to_double(ratio(dropped, den));

    rc = mod_words(s, st, who, t, &o, x, out->modifiers, sizeof out->modifiers);
    if (rc != FRAY_OK)
        return rc;
    if (!out->modifiers[0])
        snprintf(out->modifiers, sizeof out->modifiers, "none");
    snprintf(out->assumed, sizeof out->assumed, "%s; no Hand of Fate card "
             "played and no chip spent (the command names none)%s",
             s->opt.fresh_decks
                 ? "each flip from a freshly shuffled deck, as this "
                   "encounter's fresh-decks says"
                 : "each flip from a full shuffled deck: the cards turned "
                   "since the last shuffle are not counted out",
             w->range_increment > 0 || w->spell
                 ? "; opportunity attacks it provokes are not counted"
                 : "");
    if (aim_first)
        add_text(out->assumed, sizeof out->assumed,
                 "the attack right after the Aim: what happens in between "
                 "is not counted");
    return FRAY_OK;
}

fray_status ft_rf_chances(const void *rf, int who, const char *command,
                          struct fray_chances *out, int max, int *n,
                          fray_diag *diag) {
    const fray_towers_fight *f = rf;
    const ft_setup *s = &f->setup->s;
    *n = 0;
    if (who < 0 || who >= f->st.n)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "no such combatant in this fight");
    scratch *x = fray__alloc(&f->alloc, sizeof *x);
    if (!x)
        return FRAY_ERR_NOMEM;
    fray_status rc = FRAY_OK;
    if (command) {
        rc = one(f, who, command, x, out, diag);
        if (rc == FRAY_OK)
            *n = 1;
    } else {
        static const char *const words[3] = {"attack", "power-attack",
                                             "aim then attack"};
        for (int t = 0; t < f->st.n && *n < max; t++) {
            if (t == who || ft_allies(s, who, t) || !ft_in_fight(&f->st, t))
                continue;
            for (int k = 0; k < 3 && *n < max; k++) {
                char c[FRAY_CHANCES_TEXT];
                snprintf(c, sizeof c, "%s %s", words[k], s->c[t].id);
                fray_diag d;
                memset(&d, 0, sizeof d);
                fray_status r1 = one(f, who, c, x, &out[*n], &d);
                if (r1 == FRAY_OK)
                    ++*n;
                else if (r1 != FRAY_ERR_INVALID) {
                    rc = r1;
                    if (diag)
                        *diag = d;
                    break;
                }
            }
            if (rc != FRAY_OK)
                break;
        }
    }
    fray__free(&f->alloc, x, sizeof *x);
    return rc;
}

/* ---- The forecast's start: the table's knowledge, the rest drawn anew ---- */

static int card_cmp(const void *a, const void *b) {
    return (int)*(const fray_card *)a - (int)*(const fray_card *)b;
}

fray_status ft_rf_sim_from(void *rf, const void *from, uint64_t seed,
                           uint64_t trial) {
    fray_towers_fight *f = rf;
    const fray_towers_fight *src = from;
    memcpy(&f->st, &src->st, sizeof f->st);
    ft_threat_forget(&f->paths.threat); /* (issue 16) */
    fray_rng_for_trial(&f->st.rng, seed, trial);
    /* What nobody has seen: the order of each draw pile. The cards in it
     * are known (the rest are held, in play or discarded), their order is
     * not: put in card order, then shuffled by the trial's stream. The
     * discard pile is shuffled before it is drawn from again, so its
     * order is put in card order too. Hands of Fate stay as the engine
     * holds them. */
    for (int k = 0; k < f->st.n_decks; k++) {
        fray_deck *d = &f->st.decks[k];
        qsort(d->draw, d->n_draw, sizeof d->draw[0], card_cmp);
        qsort(d->discard, d->n_discard, sizeof d->discard[0], card_cmp);
        fray_deck_shuffle(d, &f->st.rng);
    }
    f->seed = seed;
    f->trial = trial;
    f->made = false;
    f->paths.valid = false;
    f->memo.valid = false;
    f->asked[0] = '\0';
    f->asked_kind = FT_GMQ_NONE;
    f->failed = FRAY_OK;
    return FRAY_OK;
}
