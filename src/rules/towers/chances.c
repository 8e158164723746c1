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
    /* An area's flips: the attacker's and each defender's. */
    fray_flip_odds fo[FRAY_CHANCES_AREA + 1];
    fray_attack_odds ao[FRAY_CHANCES_AREA];
} scratch;

static void fact_words(const ft_event *ev, int t, char *buf, size_t size);

/* A text cut to its buffer ends in "...", so that nobody takes it whole. */
static void fit(char *buf, size_t size, int written) {
    if (written >= 0 && (size_t)written < size)
        return;
    if (size >= 4)
        memcpy(buf + size - 4, "...", 4);
}

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
    fact_words(&x->ev, t, buf, size);
    return FRAY_OK;
}

/* The MODIFIER facts of ev before its second flip, as the narration says
 * them ("defense: " for t's). */
static void fact_words(const ft_event *ev, int t, char *buf, size_t size) {
    int flips = 0;
    for (int i = 0; i < ev->n_facts && flips < 2; i++) {
        const ft_fact *f = &ev->facts[i];
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

static double u128_double(fray_u128 v) {
    return (double)fray__u128_from(v);
}

static fray_ratio ratio(fray__u128 num, fray__u128 den) {
    return fray__ratio(num, den, false);
}

static fray_status refuse(fray_diag *diag, const char *fmt, const char *a,
                          const char *b) {
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0, fmt, a, b);
}

/* From the counts of an attack (ao): its outcomes (miss, hit, critical),
 * the damage of a hit with each number of Hearts (harm.c's ft_harm_hit
 * with `bonus`, as ft_attack and ft_area_attack add it up) and whether it
 * drops t (harm.c on a scratch copy of st). drop_h (may be NULL) gets,
 * for each number of Hearts a hit can have, whether it drops t. Returns
 * the number of amounts written to dmg (at most max). */
static int count_attack(ft_run *r, const ft_state *st, int a, int t,
                        const ft_weapon *w, int bonus,
                        const fray_attack_odds *ao, scratch *x,
                        fray_chance_outcome oc[3], fray_chance_damage *dmg,
                        int max, double expected[2], double *p_drop,
                        bool drop_h[FRAY_HEARTS_MAX + 1]) {
    const ft_setup *s = r->setup;
    fray__u128 den = fray__u128_from(ao->den), hits = 0;
    for (int h = 0; h <= FRAY_HEARTS_MAX; h++)
        hits += fray__u128_from(ao->hit[h]);
    fray__u128 crit = hits - fray__u128_from(ao->hit[0]);
    const char *names[3] = {"miss", "hit", "critical"};
    fray__u128 counts[3] = {den - hits, fray__u128_from(ao->hit[0]), crit};
    for (int i = 0; i < 3; i++) {
        snprintf(oc[i].name, sizeof oc[i].name, "%s", names[i]);
        oc[i].p = ratio(counts[i], den);
        oc[i].share = fray_ratio_to_double(oc[i].p);
    }
    /* Amounts and their counts: the miss first. */
    int amt[FRAY_HEARTS_MAX + 2][2];
    fray__u128 cnt[FRAY_HEARTS_MAX + 2];
    int n = 1;
    amt[0][0] = amt[0][1] = 0;
    cnt[0] = den - hits;
    fray__u128 dropped = 0;
    /* A target already out of the fight stays out. */
    bool out_now = !ft_in_fight(st, t);
    if (out_now)
        dropped = den - hits;
    for (int h = 0; h <= FRAY_HEARTS_MAX; h++) {
        if (drop_h)
            drop_h[h] = false;
        fray__u128 c = fray__u128_from(ao->hit[h]);
        if (!c)
            continue;
        fray_towers_hit hd = ft_harm_hit(r, a, t, w, bonus, h);
        bool d = out_now || drops(s, st, a, t, hd.stun, hd.lethal, x);
        if (drop_h)
            drop_h[h] = d;
        if (d)
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
    int nd = 0;
    expected[0] = expected[1] = 0;
    for (int i = 0; i < n && nd < max; i++) {
        if (!cnt[i])
            continue;
        fray_chance_damage *d = &dmg[nd++];
        d->amount[0] = amt[i][0];
        d->amount[1] = amt[i][1];
        d->p = ratio(cnt[i], den);
        d->share = fray_ratio_to_double(d->p);
        expected[0] += d->share * amt[i][0];
        expected[1] += d->share * amt[i][1];
    }
    *p_drop = fray_ratio_to_double(ratio(dropped, den));
    return nd;
}

/* The chances of an attack with an area (area.c, seed 000 "Area of
 * Effects"): one attack flip with the attacker's modifiers
 * (ft_area_mods, no target), each creature caught flips its defense with
 * its own (and the option area-centre-shift's); one damage for all, the
 * Hearts of the attack flip (bonus: the damage advantage), each target's
 * Resilience its own. Each creature's chances are fray_odds_attack's for
 * its flip against the attack flip; how many drop is counted jointly
 * over the one attack flip when the flips are independent (fresh decks,
 * or each from a deck of its own). */
static fray_status area_one(const fray_towers_fight *f, int who,
                            const ft_command *cmd, int wi, const char *asked,
                            bool aim_first, scratch *x, fray_chances *out,
                            fray_diag *diag) {
    const ft_setup *s = &f->setup->s;
    ft_state *st = &x->st;
    const ft_statblock *asb = &s->c[who].sb;
    const ft_weapon *w = &asb->weapons[wi];
    const char *title = ft_actions[cmd->action].text;
    if (cmd->action == FT_ACT_CAST && !w->spell)
        return refuse(diag, "the %s is not a spell%s", w->name, "");
    if (!ft_in_fight(st, who))
        return refuse(diag, "%s is out of the fight%s", s->c[who].name, "");
    fray_status rc;
    if (!st->over && ft_next_actor(st) == who) {
        if (st->c[who].phase > st->phase)
            st->phase = st->c[who].phase;
        rc = ft_check_command(s, st, cmd, diag);
    } else {
        rc = ft_area_check(s, st, cmd, w, diag);
    }
    if (rc != FRAY_OK)
        return rc;
    if (st->c[who].n_cond > 0 && ft_cond_has(st, who, FT_COND_BLINDED))
        return refuse(diag, "%s is blinded: the Hard [SP] check an area "
                      "needs first is not counted%s", s->c[who].name, "");
    if (aim_first) { /* engine.c's Aim, on the copy */
        st->c[who].aim++;
        st->c[who].aim_spell = (int8_t)w->spell;
    }
    fray_area area;
    fray_footprint centre, origin;
    rc = ft_area_place(s, st, cmd, w, &area, &centre, &origin, diag);
    if (rc != FRAY_OK)
        return rc;
    int caught[FT_MAX_COMBATANTS];
    int n = ft_area_victims(s, st, &area, centre, origin, caught);
    if (n == 0)
        return refuse(diag, "nobody is caught in the %s aimed there%s",
                      w->name, "");
    if (n > FRAY_CHANCES_AREA) {
        char b[48];
        snprintf(b, sizeof b, "%d creatures (at most %d)", n,
                 (int)FRAY_CHANCES_AREA);
        return refuse(diag, "the chances of an area catching %s are not "
                      "counted%s", b, "");
    }
    ft_run r;
    ft_run_clear(&r);
    r.setup = s;
    r.st = st;
    r.diag = diag;
    ft_mods m;
    memset(&m, 0, sizeof m);
    ft_area_mods(&r, who, -1, w, &m);
    int rank = w->spell ? asb->cv[FT_CV_SA] : asb->cv[FT_CV_PA];
    int bonus = ft_damage_advantage(asb);
    int kc = s->opt.area_centre_shift;
    /* Independent flips: fresh decks, or every flip from its own deck. */
    bool independent = s->opt.fresh_decks;
    if (!independent) {
        independent = true;
        for (int i = 0; i < n && independent; i++) {
            if (s->c[caught[i]].deck == s->c[who].deck)
                independent = false;
            for (int j = 0; j < i; j++)
                if (s->c[caught[i]].deck == s->c[caught[j]].deck)
                    independent = false;
        }
    }
    out->n_tracks = 2;
    out->tracks[0] = tracks[0];
    out->tracks[1] = tracks[1];
    out->n_area = n;
    int dshift[FRAY_CHANCES_AREA];
    bool drop_h[FRAY_CHANCES_AREA][FRAY_HEARTS_MAX + 1];
    int main_i = 0;
    for (int i = 0; i < n; i++) {
        int t = caught[i];
        if (!cmd->at_space && t == cmd->target)
            main_i = i;
        const ft_statblock *tsb = &s->c[t].sb;
        ft_mods dm;
        memset(&dm, 0, sizeof dm);
        ft_area_mods(&r, who, t, w, &dm);
        int dsh = dm.def_shift;
        int d = ft_range(centre, ft_fp(s, st, t));
        if (kc > 0 && d < kc)
            dsh -= kc - d;
        dshift[i] = dsh;
        int drank = w->spell ? tsb->cv[FT_CV_ID] : tsb->cv[FT_CV_PD];
        fray_attack_query q;
        fray_attack_query_init(&q, rank + m.flip, drank + dm.def_flip);
        q.attack_shift = m.shift;
        q.defense_shift = dsh;
        q.deck = s->opt.deck;
        q.rules = s->opt.flip;
        q.shared_deck = !s->opt.fresh_decks && s->c[who].deck == s->c[t].deck;
        rc = fray_odds_attack(&q, &x->ao[i]);
        if (rc == FRAY_OK && independent)
            rc = fray_odds_flip(&s->opt.deck, drank + dm.def_flip, &s->opt.flip,
                                &x->fo[i + 1]);
        if (rc != FRAY_OK)
            return fray__diag_set(diag, rc, 0, "the flips of that attack need "
                                  "more cards than the deck has");
        fray_chance_target *ct = &out->area[i];
        ct->target = t;
        ct->n_outcomes = 3;
        ct->n_damage = count_attack(&r, st, who, t, w, bonus, &x->ao[i], x,
                                    ct->outcomes, ct->damage,
                                    FRAY_CHANCES_AREA_DAMAGE, ct->expected,
                                    &ct->p_drop, drop_h[i]);
        /* Its defense's modifiers, as the narration says them. */
        memset(&x->ev, 0, sizeof x->ev);
        ft_run rw;
        ft_run_clear(&rw);
        rw.setup = s;
        rw.st = st;
        rw.ev = &x->ev;
        rw.facts = true;
        ft_area_mods(&rw, who, t, w, &dm);
        char words[FRAY_CHANCES_ASSUMED] = "";
        fact_words(&x->ev, t, words, sizeof words);
        if (kc > 0 && d < kc) {
            char one[64];
            snprintf(one, sizeof one, "defense: %s (shift%+d)",
                     d == 0 ? "area's centre" : "near area's centre", -(kc - d));
            add_text(words, sizeof words, one);
        }
        fit(ct->modifiers, sizeof ct->modifiers,
            snprintf(ct->modifiers, sizeof ct->modifiers, "%s",
                     words[0] ? words : "none"));
        out->area_expected_dropped += ct->p_drop;
    }
    /* An area aimed at a space: the one standing there, else the first
     * foe caught. */
    if (cmd->at_space) {
        int at = -1, foe = -1;
        for (int i = n - 1; i >= 0; i--) {
            fray_footprint fp = ft_fp(s, st, caught[i]);
            int side = fp.side > 0 ? fp.side : 1;
            if (cmd->dest.x >= fp.at.x && cmd->dest.x < fp.at.x + side &&
                cmd->dest.y >= fp.at.y && cmd->dest.y < fp.at.y + side)
                at = i;
            if (!ft_allies(s, who, caught[i]) && caught[i] != who)
                foe = i;
        }
        main_i = at >= 0 ? at : foe >= 0 ? foe : 0;
    }
    /* The main fields: the creature aimed at (or the first caught). */
    const fray_chance_target *mt = &out->area[main_i];
    out->target = mt->target;
    out->n_outcomes = mt->n_outcomes;
    memcpy(out->outcomes, mt->outcomes, sizeof out->outcomes);
    out->n_damage = mt->n_damage;
    memcpy(out->damage, mt->damage, sizeof mt->damage);
    out->expected[0] = mt->expected[0];
    out->expected[1] = mt->expected[1];
    out->p_drop = mt->p_drop;
    snprintf(out->command, sizeof out->command, "%s", asked);
    char aimed[48];
    if (w->area == FT_AREA_AURA)
        snprintf(aimed, sizeof aimed, "around %s", s->c[who].name);
    else if (cmd->at_space)
        snprintf(aimed, sizeof aimed, "at %d,%d", cmd->dest.x, cmd->dest.y);
    else
        snprintf(aimed, sizeof aimed, "on %s", s->c[cmd->target].name);
    fit(out->title, sizeof out->title,
        snprintf(out->title, sizeof out->title, "%s%s with %s %s, %d caught",
                 aim_first ? "Aim, then " : "", title, w->name, aimed, n));

    /* How many drop: over the one attack flip, each defender's flip
     * independent of the others'. */
    if (independent) {
        rc = fray_odds_flip(&s->opt.deck, rank + m.flip, &s->opt.flip,
                            &x->fo[0]);
        if (rc != FRAY_OK)
            return fray__diag_set(diag, rc, 0, "the flips of that attack need "
                                  "more cards than the deck has");
        double below[FRAY_CHANCES_AREA][FRAY_CARD_VALUE_MAX + 1];
        for (int i = 0; i < n; i++) {
            const fray_flip_odds *fd = &x->fo[i + 1];
            double den = u128_double(fd->den), acc = 0;
            for (int v = 0; v <= FRAY_CARD_VALUE_MAX; v++) {
                for (int h = 0; h <= FRAY_HEARTS_MAX; h++)
                    acc += u128_double(fd->count[v][h]);
                below[i][v] = acc / den; /* P(its card worth v or less) */
            }
        }
        double dist[FRAY_CHANCES_AREA + 1] = {0};
        const fray_flip_odds *fa = &x->fo[0];
        double aden = u128_double(fa->den);
        for (int v = 0; v <= FRAY_CARD_VALUE_MAX; v++)
            for (int h = 0; h <= FRAY_HEARTS_MAX; h++) {
                double pa = u128_double(fa->count[v][h]) / aden;
                if (pa == 0)
                    continue;
                double row[FRAY_CHANCES_AREA + 1] = {1};
                for (int i = 0; i < n; i++) {
                    /* Hit: its card + its shift <= the attack's total. */
                    int top = v + m.shift - dshift[i];
                    double ph = top < 0 ? 0
                                : below[i][top > FRAY_CARD_VALUE_MAX
                                               ? FRAY_CARD_VALUE_MAX
                                               : top];
                    double pd = !ft_in_fight(st, caught[i]) ? 1
                                : drop_h[i][h] ? ph : 0;
                    for (int k = i + 1; k > 0; k--)
                        row[k] = row[k] * (1 - pd) + row[k - 1] * pd;
                    row[0] *= 1 - pd;
                }
                for (int k = 0; k <= n; k++)
                    dist[k] += pa * row[k];
            }
        for (int k = 0; k <= n; k++)
            out->area_dropped[k] = dist[k];
    } else {
        out->area_dropped[0] = -1;
    }

    char mw[FRAY_CHANCES_ASSUMED] = "";
    memset(&x->ev, 0, sizeof x->ev);
    ft_run rw;
    ft_run_clear(&rw);
    rw.setup = s;
    rw.st = st;
    rw.ev = &x->ev;
    rw.facts = true;
    ft_area_mods(&rw, who, -1, w, &m);
    fact_words(&x->ev, -1, mw, sizeof mw);
    if (strcmp(mt->modifiers, "none") != 0)
        add_text(mw, sizeof mw, mt->modifiers);
    snprintf(out->modifiers, sizeof out->modifiers, "%s", mw[0] ? mw : "none");
    snprintf(out->assumed, sizeof out->assumed, "%s; one attack flip for "
             "all%s; no Hand of Fate card or chip",
             s->opt.fresh_decks
                 ? "each flip from a freshly shuffled deck (fresh-decks)"
                 : "each flip from a full deck: the cards turned since the "
                   "last shuffle are not counted out",
             independent ? "" : " (how many drop together: not counted, "
                                "shared decks)");
    if (aim_first)
        add_text(out->assumed, sizeof out->assumed,
                 "the attack right after the Aim: what happens in between "
                 "is not counted");
    if (w->range_increment > 0 || w->spell)
        add_text(out->assumed, sizeof out->assumed,
                 "opportunity attacks it provokes are not counted");
    return FRAY_OK;
}

/* ---- Grapple tests, grappling moves and skill flips (issue 19) ------------ */

/* A flip the engine made on a scratch copy: whose, its n (rank + flip
 * mods) and its shift, read from its FLIP fact. */
typedef struct flip_seen {
    int who, purpose, n, shift;
} flip_seen;

static int flips_seen(const ft_event *ev, flip_seen *out, int max) {
    int k = 0;
    for (int i = 0; i < ev->n_facts && k < max; i++) {
        const ft_fact *f = &ev->facts[i];
        if (f->kind != FT_FACT_FLIP)
            continue;
        out[k].who = f->who;
        out[k].purpose = f->v[0];
        out[k].n = f->v[2];
        out[k].shift = f->v[4];
        k++;
    }
    return k;
}

/* A run on a scratch copy of `now` (x->st2) with its facts. */
static void scratch_run(const ft_setup *s, const ft_state *now, scratch *x,
                        ft_run *r, fray_diag *d) {
    memcpy(&x->st2, now, sizeof x->st2);
    memset(&x->ev, 0, sizeof x->ev);
    ft_run_clear(r);
    r->setup = s;
    r->st = &x->st2;
    r->ev = &x->ev;
    r->facts = true;
    memset(d, 0, sizeof *d);
    r->diag = d;
}

static void set_outcome(fray_chance_outcome *oc, const char *name,
                        fray__u128 num, fray__u128 den) {
    snprintf(oc->name, sizeof oc->name, "%s", name);
    oc->p = ratio(num, den);
    oc->share = fray_ratio_to_double(oc->p);
}

/* No damage: one row, none, certain. */
static void no_damage(fray_chances *out) {
    out->n_damage = 1;
    out->damage[0].amount[0] = out->damage[0].amount[1] = 0;
    out->damage[0].p = ratio(1, 1);
    out->damage[0].share = 1;
    out->p_drop = -1;
}

/* The two flips of an opposed test (the first: the one whose ties win)
 * as fray_odds_attack counts them: *win, *den. */
static fray_status opposed_count(const ft_setup *s, const flip_seen *a,
                                 const flip_seen *d, fray__u128 *win,
                                 fray__u128 *den, fray_diag *diag) {
    fray_attack_query q;
    fray_attack_query_init(&q, a->n, d->n);
    q.attack_shift = a->shift;
    q.defense_shift = d->shift;
    q.deck = s->opt.deck;
    q.rules = s->opt.flip;
    q.shared_deck = !s->opt.fresh_decks && s->c[a->who].deck == s->c[d->who].deck;
    fray_attack_odds ao;
    fray_status rc = fray_odds_attack(&q, &ao);
    if (rc != FRAY_OK)
        return fray__diag_set(diag, rc, 0, "the flips of that test need "
                              "more cards than the deck has");
    *den = fray__u128_from(ao.den);
    *win = 0;
    for (int h = 0; h <= FRAY_HEARTS_MAX; h++)
        *win += fray__u128_from(ao.hit[h]);
    return FRAY_OK;
}

/* Squeeze and Slam's damage (grapple.c's squeeze: a flip of n cards whose
 * Hearts add to a base of Hard Strength plus the grappler's size less the
 * victim's, Physical, through harm.c): the amounts by the Hearts of that
 * flip, n read from the flip the engine made on a scratch copy. */
static fray_status squeeze_count(const ft_setup *s, ft_run *r, int a, int v,
                                 int n, scratch *x, fray_chances *out,
                                 fray_diag *diag) {
    ft_weapon w;
    memset(&w, 0, sizeof w);
    w.damage = ft_squeeze_base(s, a, v);
    w.category = FT_CAT_PHYSICAL;
    w.type = FT_DMG_NONE;
    fray_attack_odds ao;
    memset(&ao, 0, sizeof ao);
    if (n <= 0) {
        ao.den = fray__u128_to(1);
        ao.hit[0] = fray__u128_to(1);
    } else {
        fray_status rc = fray_odds_flip(&s->opt.deck, n, &s->opt.flip, &x->fo[0]);
        if (rc != FRAY_OK)
            return fray__diag_set(diag, rc, 0, "the damage flip needs more "
                                  "cards than the deck has");
        fray__u128 den = fray__u128_from(x->fo[0].den);
        ao.den = fray__u128_to(den);
        for (int h = 0; h <= FRAY_HEARTS_MAX; h++) {
            fray__u128 c = 0;
            for (int val = 0; val <= FRAY_CARD_VALUE_MAX; val++)
                c += fray__u128_from(x->fo[0].count[val][h]);
            ao.hit[h] = fray__u128_to(c);
        }
    }
    fray_chance_outcome oc[3];
    out->n_damage = count_attack(r, r->st, a, v, &w, 0, &ao, x, oc, out->damage,
                                 FRAY_CHANCES_DAMAGE, out->expected,
                                 &out->p_drop, NULL);
    return FRAY_OK;
}

/* Initiate a Grapple, Escape, a grappling move, Use a Skill: each flip
 * is the engine's own, made on a scratch copy and read from its facts;
 * the chances are fray_odds_attack's (a test whose ties go to the one
 * making it, as attack.c's Grapple Test and grapple.c's Reverse),
 * fray_odds_opposed's (an opposed skill flip) or fray_odds_flip's (a
 * skill flip against its DTN, a damage flip). */
static fray_status test_one(const fray_towers_fight *f, int who,
                            const ft_command *cmd, const char *asked,
                            scratch *x, fray_chances *out, fray_diag *diag) {
    const ft_setup *s = &f->setup->s;
    memcpy(&x->st, &f->st, sizeof x->st);
    ft_state *st = &x->st;
    const char *name = s->c[who].name;
    int t = cmd->target;
    if (!ft_in_fight(st, who))
        return refuse(diag, "%s is out of the fight%s", name, "");
    fray_status rc;
    if (!st->over && ft_next_actor(st) == who) {
        if (st->c[who].phase > st->phase)
            st->phase = st->c[who].phase;
        rc = ft_check_command(s, st, cmd, diag);
    } else if (cmd->grapple_move) {
        rc = ft_grapple_check(s, st, cmd, diag);
    } else if (cmd->action == FT_ACT_ESCAPE) {
        rc = st->c[who].grappled_by >= 0
                 ? FRAY_OK
                 : refuse(diag, "%s is held in no grapple%s", name, "");
    } else if (cmd->action == FT_ACT_GRAPPLE) {
        if (t < 0 || t >= st->n || t == who)
            rc = refuse(diag, "Initiate a Grapple needs a target%s%s", "", "");
        else if (ft_allies(s, who, t))
            rc = refuse(diag, "%s will not grapple an ally (%s)", name,
                        s->c[t].name);
        else if (!ft_in_fight(st, t))
            rc = refuse(diag, "%s is out of the fight%s", s->c[t].name, "");
        else if (!fray_grid_within(ft_footprint(s, st, who),
                                   ft_footprint(s, st, t), 1))
            rc = refuse(diag, "%s must be next to %s to grapple", name,
                        s->c[t].name);
        else
            rc = FRAY_OK;
    } else { /* Use a Skill */
        if (cmd->skill < 0 || cmd->skill >= s->c[who].sb.n_skills)
            rc = refuse(diag, "%s has no such skill%s", name, "");
        else if (cmd->opposed && (t < 0 || t >= st->n || t == who ||
                                  !ft_in_fight(st, t)))
            rc = refuse(diag, "an opposed skill flip needs someone else in "
                        "the fight to oppose it%s%s", "", "");
        else
            rc = FRAY_OK;
    }
    if (rc != FRAY_OK)
        return rc;
    out->target = t;
    out->n_tracks = 2;
    out->tracks[0] = tracks[0];
    out->tracks[1] = tracks[1];
    snprintf(out->command, sizeof out->command, "%s", asked);
    snprintf(out->modifiers, sizeof out->modifiers, "none");
    ft_run r;
    fray_diag d2;
    scratch_run(s, st, x, &r, &d2);
    flip_seen fl[4];
    int nf = 0;
    fray__u128 win = 0, den = 1;
    const char *tname = t >= 0 && t < st->n ? s->c[t].name : "";
    if (cmd->action == FT_ACT_GRAPPLE || cmd->action == FT_ACT_ESCAPE) {
        bool won;
        int g = cmd->action == FT_ACT_GRAPPLE ? who : st->c[who].grappled_by;
        int v = cmd->action == FT_ACT_GRAPPLE ? t : who;
        rc = ft_grapple_test(&r, g, v, 0, &won);
        if (rc != FRAY_OK)
            return rc;
        nf = flips_seen(&x->ev, fl, 4);
        if (nf != 2)
            return refuse(diag, "the Grapple Test did not flip as counted%s%s",
                          "", "");
        rc = opposed_count(s, &fl[0], &fl[1], &win, &den, diag);
        if (rc != FRAY_OK)
            return rc;
        fact_words(&x->ev, v, out->modifiers, sizeof out->modifiers);
        out->n_outcomes = 2;
        if (cmd->action == FT_ACT_GRAPPLE) {
            snprintf(out->title, sizeof out->title,
                     "Initiate a Grapple on %s (Grapple Test)", tname);
            set_outcome(&out->outcomes[0], "holds", win, den);
            set_outcome(&out->outcomes[1], "fails", den - win, den);
        } else {
            out->target = g;
            snprintf(out->title, sizeof out->title,
                     "Escape from %s's grapple (Grapple Test)", s->c[g].name);
            set_outcome(&out->outcomes[0], "escapes", den - win, den);
            set_outcome(&out->outcomes[1], "held", win, den);
        }
        no_damage(out);
        out->p_success = out->outcomes[0].share; /* holds, escapes */
    } else if (cmd->grapple_move) {
        const char *move = ft_grapple_move_name(cmd->grapple_move);
        snprintf(out->title, sizeof out->title, "Attack: %s %s", move, tname);
        rc = ft_grapple_apply(&r, cmd);
        if (rc != FRAY_OK)
            return rc;
        nf = flips_seen(&x->ev, fl, 4);
        fact_words(&x->ev, t, out->modifiers, sizeof out->modifiers);
        if (!out->modifiers[0])
            snprintf(out->modifiers, sizeof out->modifiers, "none");
        switch ((ft_grapple_move)cmd->grapple_move) {
        case FT_GM_RESTRAIN:
            out->n_outcomes = 1;
            set_outcome(&out->outcomes[0], "keeps a hold", 1, 1);
            no_damage(out);
            out->p_success = 1;
            break;
        case FT_GM_SQUEEZE:
        case FT_GM_SLAM: {
            out->n_outcomes = 1;
            set_outcome(&out->outcomes[0],
                        cmd->grapple_move == FT_GM_SLAM ? "slams" : "squeezes",
                        1, 1);
            int n = nf > 0 && fl[0].purpose == FT_FLIP_DAMAGE ? fl[0].n : 0;
            ft_run rd;
            ft_run_clear(&rd);
            rd.setup = s;
            rd.st = st;
            rd.diag = diag;
            rc = squeeze_count(s, &rd, who, t, n, x, out, diag);
            if (rc != FRAY_OK)
                return rc;
            break;
        }
        case FT_GM_REVERSE:
            if (nf != 2)
                return refuse(diag, "the Reverse did not flip as counted%s%s",
                              "", "");
            rc = opposed_count(s, &fl[0], &fl[1], &win, &den, diag);
            if (rc != FRAY_OK)
                return rc;
            out->n_outcomes = 2;
            set_outcome(&out->outcomes[0], "reverses", win, den);
            set_outcome(&out->outcomes[1], "fails", den - win, den);
            no_damage(out);
            out->p_success = out->outcomes[0].share;
            break;
        case FT_GM_THROW: {
            /* grapple.c's throw_foe: at an occupied space a PA against
             * the PD of the one there (ties to the thrower; hit: both
             * prone), else a PA flip against a Defense of 0 (the thrown
             * lands there; missed: a space beside it, prone). */
            out->n_outcomes = 2;
            if (nf >= 2 && fl[1].who != who) {
                rc = opposed_count(s, &fl[0], &fl[1], &win, &den, diag);
                if (rc != FRAY_OK)
                    return rc;
            } else if (nf >= 1) {
                rc = fray_odds_flip(&s->opt.deck, fl[0].n, &s->opt.flip,
                                    &x->fo[0]);
                if (rc != FRAY_OK)
                    return fray__diag_set(diag, rc, 0, "the flip needs more "
                                          "cards than the deck has");
                fray_ratio ok = fray_flip_odds_success(&x->fo[0], fl[0].shift, 0);
                win = fray__u128_from(ok.num);
                den = fray__u128_from(ok.den);
            } else {
                return refuse(diag, "the Throw did not flip as counted%s%s",
                              "", "");
            }
            set_outcome(&out->outcomes[0], "hits", win, den);
            set_outcome(&out->outcomes[1], "misses", den - win, den);
            no_damage(out);
            out->p_success = out->outcomes[0].share;
            snprintf(out->title, sizeof out->title, "Attack: throw %s at %d,%d",
                     tname, cmd->dest.x, cmd->dest.y);
            break;
        }
        case FT_GM_NONE:
        case FT_GM_COUNT:
            return refuse(diag, "no such grapple move%s%s", "", "");
        }
    } else if (cmd->opposed) {
        const ft_skill *sk = &s->c[who].sb.skills[cmd->skill];
        snprintf(out->title, sizeof out->title,
                 "Use a Skill: %s against %s", sk->name, tname);
        rc = ft_opposed_skill(&r, cmd);
        if (rc != FRAY_OK)
            return rc;
        nf = flips_seen(&x->ev, fl, 4);
        if (nf != 2)
            return refuse(diag, "the opposed flip did not flip as counted%s%s",
                          "", "");
        fray_opposed_query q;
        memset(&q, 0, sizeof q);
        q.initiator_n = fl[0].n;
        q.opponent_n = fl[1].n;
        q.initiator_bonus = fl[0].shift;
        q.opponent_bonus = fl[1].shift;
        ft_opposed_skill_tie(s, cmd, &q.initiator_aspect, &q.opponent_aspect);
        q.shared_deck = !s->opt.fresh_decks &&
                        s->c[who].deck == s->c[t].deck;
        q.deck = s->opt.deck;
        q.rules = s->opt.flip;
        fray_opposed_odds oo;
        rc = fray_odds_opposed(&q, &oo);
        if (rc != FRAY_OK)
            return fray__diag_set(diag, rc, 0, "the flips of that test need "
                                  "more cards than the deck has");
        den = fray__u128_from(oo.den);
        win = fray__u128_from(oo.initiator_wins);
        out->n_outcomes = 2;
        set_outcome(&out->outcomes[0], "wins", win, den);
        set_outcome(&out->outcomes[1], "loses", den - win, den);
        no_damage(out);
        out->p_success = out->outcomes[0].share;
    } else {
        const ft_statblock *sb = &s->c[who].sb;
        const ft_skill *sk = &sb->skills[cmd->skill];
        if (cmd->dtn <= 0)
            return refuse(diag, "a skill flip without a DTN has no chances "
                          "to count: say its DTN (dtn N)%s%s", "", "");
        /* The flip Use a Skill makes (engine.c's own mods); the Aspect
         * added to the total. */
        int flip = 0, shift = 0;
        ft_run rg;
        ft_run_clear(&rg);
        rg.setup = s;
        rg.st = st;
        ft_use_skill_mods(&rg, cmd, &flip, &shift);
        rc = fray_odds_flip(&s->opt.deck, sk->rank + flip, &s->opt.flip,
                            &x->fo[0]);
        if (rc != FRAY_OK)
            return fray__diag_set(diag, rc, 0, "the skill flip needs more "
                                  "cards than the deck has");
        fray_ratio ok = fray_flip_odds_success(&x->fo[0],
                                               sb->aspects[sk->aspect] + shift,
                                               cmd->dtn);
        snprintf(out->title, sizeof out->title, "Use a Skill: %s, DTN %d",
                 sk->name, (int)cmd->dtn);
        out->n_outcomes = 2;
        snprintf(out->outcomes[0].name, sizeof out->outcomes[0].name, "succeeds");
        out->outcomes[0].p = ok;
        out->outcomes[0].share = fray_ratio_to_double(ok);
        snprintf(out->outcomes[1].name, sizeof out->outcomes[1].name, "fails");
        out->outcomes[1].p = fray_ratio_one_minus(ok);
        out->outcomes[1].share = fray_ratio_to_double(out->outcomes[1].p);
        char m[64];
        snprintf(m, sizeof m, "flip%+d, shift%+d, %s's Aspect %+d", flip,
                 shift, sk->name, sb->aspects[sk->aspect]);
        snprintf(out->modifiers, sizeof out->modifiers, "%s", m);
        no_damage(out);
        out->p_success = out->outcomes[0].share; /* succeeds */
    }
    if (!out->modifiers[0])
        snprintf(out->modifiers, sizeof out->modifiers, "none");
    snprintf(out->assumed, sizeof out->assumed, "%s; no Hand of Fate card "
             "played and no chip spent (the command names none)",
             s->opt.fresh_decks
                 ? "each flip from a freshly shuffled deck, as this "
                   "encounter's fresh-decks says"
                 : "each flip from a full shuffled deck: the cards turned "
                   "since the last shuffle are not counted out");
    return FRAY_OK;
}

static fray_status one(const fray_towers_fight *f, int who,
                       const char *command, scratch *x, fray_chances *out,
                       fray_diag *diag) {
    const ft_setup *s = &f->setup->s;
    memset(out, 0, sizeof *out);
    out->who = who;
    out->target = -1;
    out->p_drop = -1;
    out->p_success = -1;
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
    if (cmd.grapple_move || cmd.action == FT_ACT_GRAPPLE ||
        cmd.action == FT_ACT_ESCAPE || cmd.action == FT_ACT_USE_SKILL) {
        if (words > 0)
            return refuse(diag, "the chances with Hand of Fate, chip or "
                          "opportunity words are not counted%s%s: ask "
                          "without them", "", "");
        if (aim_first)
            return refuse(diag, "an Aim is for an attack's flip, not %s%s",
                          title, "");
        return test_one(f, who, &cmd, asked, x, out, diag);
    }
    bool charge = cmd.action == FT_ACT_CHARGE;
    if (charge && aim_first)
        return refuse(diag, "aim then charge: ask for the Charge after the "
                      "Aim%s%s", "", "");
    if (cmd.action != FT_ACT_ATTACK && cmd.action != FT_ACT_POWER_ATTACK &&
        cmd.action != FT_ACT_CAST && !charge)
        return refuse(diag, "the chances of %s are not counted%s (only "
                      "Attack, Power Attack and Cast a Spell, also after an "
                      "Aim: aim then attack ID; Charge; Initiate a Grapple, "
                      "Escape, the grappling moves; Use a Skill)",
                      title, "");
    if (words > 0)
        return refuse(diag, "the chances with Hand of Fate, chip or "
                      "opportunity words are not counted%s%s: ask without them",
                      "", "");
    /* "shift X,Y then attack ID": the attack from the space the Shift
     * ends on (engine.c walks the one space, then attacks if the
     * attacker can still act). */
    bool shift = cmd.shift_first;
    if (shift && (aim_first || charge || cmd.action == FT_ACT_CAST))
        return refuse(diag, "the chances of a Shift Position then %s are "
                      "not counted%s (only a Shift then Attack or Power "
                      "Attack)", aim_first ? "an Aim" : title, "");
    if (cmd.grapple_move)
        return refuse(diag, "the chances of a grappling move are not "
                      "counted%s%s", "", "");
    int t = cmd.target;
    memcpy(&x->st, &f->st, sizeof x->st);
    ft_state *st = &x->st;
    const ft_statblock *asb = &s->c[who].sb;
    int wi = cmd.weapon >= 0 ? cmd.weapon : st->c[who].wielded[cmd.off_hand ? 1 : 0];
    const ft_weapon *w = wi >= 0 && wi < asb->n_weapons ? &asb->weapons[wi] : NULL;
    if (!w)
        return refuse(diag, "%s holds no weapon: Draw a Weapon first%s",
                      s->c[who].name, "");
    if (w->area && shift)
        return refuse(diag, "the chances of a Shift Position then an area "
                      "are not counted%s%s", "", "");
    if (w->area)
        return area_one(f, who, &cmd, wi, asked, aim_first, x, out, diag);
    if (t < 0 || t >= f->st.n)
        return refuse(diag, "%s needs a target%s", title, "");
    const ft_statblock *tsb = &s->c[t].sb;
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
        if (charge || shift) {
            /* The Charge's path (the Shift's space) is the engine's
             * check: on a copy whose clock has come to the charger
             * (everyone else later). */
            memcpy(&x->st2, st, sizeof x->st2);
            ft_state *c2 = &x->st2;
            for (int i = 0; i < c2->n; i++)
                if (i != who && c2->c[i].phase <= c2->c[who].phase)
                    c2->c[i].phase = (int16_t)(c2->c[who].phase + 1);
            ft_clock_sync(c2);
            if (c2->c[who].phase > c2->phase)
                c2->phase = c2->c[who].phase;
            if (ft_next_actor(c2) != who)
                return refuse(diag, "%s cannot act now%s", s->c[who].name, "");
            rc = ft_check_command(s, c2, &cmd, diag);
            if (rc != FRAY_OK)
                return rc;
        }
    }
    /* A Charge: the attack from where its move ends (engine.c walks the
     * path, then attacks if the charger can still act). */
    fray_pos charged_from = st->c[who].pos;
    /* A Shift: the foes that threaten where it stands now (attack.c's
     * ft_threatens), named in `assumed`. */
    char threat[96] = "";
    if (shift) {
        ft_run r0;
        ft_run_clear(&r0);
        r0.setup = s;
        r0.st = st;
        for (int i = 0; i < st->n; i++)
            if (i != who && !ft_allies(s, who, i) && ft_in_fight(st, i) &&
                ft_threatens(&r0, i, who)) {
                size_t len = strlen(threat);
                int wn = snprintf(threat + len, sizeof threat - len, "%s%s",
                                  len ? ", " : "", s->c[i].name);
                if (wn < 0 || (size_t)wn >= sizeof threat - len)
                    threat[len] = '\0'; /* no room: that name left out */
            }
    }
    if (charge)
        st->c[who].pos = cmd.dest;
    if (shift)
        st->c[who].pos = cmd.shift_to;
    if (aim_first) { /* engine.c's Aim, on the copy */
        st->c[who].aim++;
        st->c[who].aim_spell = (int8_t)w->spell;
    }
    ft_attack_opts o;
    memset(&o, 0, sizeof o);
    o.weapon = wi;
    o.off_hand = cmd.off_hand;
    o.power = cmd.action == FT_ACT_POWER_ATTACK;
    o.charge = charge;
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
    if (charge)
        fit(out->title, sizeof out->title,
            snprintf(out->title, sizeof out->title, "Charge to %d,%d, then "
                     "Attack on %s with %s", cmd.dest.x, cmd.dest.y,
                     s->c[t].name, w->name));
    else if (shift)
        fit(out->title, sizeof out->title,
            snprintf(out->title, sizeof out->title, "Shift to %d,%d, then "
                     "%s on %s with %s", cmd.shift_to.x, cmd.shift_to.y,
                     title, s->c[t].name, w->name));
    else
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
    /* The damage, as ft_attack adds it up before harm.c. */
    int adv = ft_damage_advantage(asb);
    int talent = asb->tsum.once_damage ? ft_talent_hit_damage(&r, who, t, w) : 0;
    int bonus = adv + (o.power ? 2 : 0) + talent;
    /* A restricted attack while grappled: <PX> halved (attack.c). */
    if (st->c[who].grappled_by >= 0 && w->adds_px) {
        int px = asb->cv[FT_CV_PX];
        bonus -= ft_px_used(w, px) - ft_px_used(w, px / 2);
    }
    out->n_tracks = 2;
    out->tracks[0] = tracks[0];
    out->tracks[1] = tracks[1];
    out->n_outcomes = 3;
    out->n_damage = count_attack(&r, st, who, t, w, bonus, &ao, x, out->outcomes,
                                 out->damage, FRAY_CHANCES_DAMAGE,
                                 out->expected, &out->p_drop, NULL);

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
    if (charge && (charged_from.x != cmd.dest.x || charged_from.y != cmd.dest.y)) {
        char c[112];
        snprintf(c, sizeof c, "the blow from %d,%d where the Charge ends: "
                 "opportunity attacks on the way not counted",
                 cmd.dest.x, cmd.dest.y);
        add_text(out->assumed, sizeof out->assumed, c);
    }
    if (shift && (charged_from.x != cmd.shift_to.x ||
                  charged_from.y != cmd.shift_to.y)) {
        char c[240];
        int wn = snprintf(c, sizeof c, "the attack from %d,%d where the Shift "
                          "ends: the opportunity attacks it provokes not "
                          "counted%s%s%s", cmd.shift_to.x, cmd.shift_to.y,
                          threat[0] ? " (threatened now by " : "", threat,
                          threat[0] ? ")" : "");
        if (wn < 0 || (size_t)wn >= sizeof c)
            c[sizeof c - 1] = '\0'; /* cut: long names */
        add_text(out->assumed, sizeof out->assumed, c);
    }
    return FRAY_OK;
}


/* ---- The ranked list's other candidates ------------------------- */

/* For `odds ID`: a Shift Position then Attack on foe t, which the Attack
 * alone cannot reach now: to the space next to the attacker nearest t
 * (fewest spaces to it, then reading order) from which engine.c allows
 * it, as the Charge's space is picked; FRAY_ERR_INVALID when none. */
static fray_status rank_shift(const fray_towers_fight *f, int who, int t,
                              scratch *x, fray_chances *out, fray_diag *diag) {
    const ft_setup *s = &f->setup->s;
    if (!s->has_map)
        return FRAY_ERR_INVALID;
    fray_pos at = f->st.c[who].pos;
    fray_footprint tf = ft_fp(s, &f->st, t);
    /* A melee weapon in hand: only the spaces within its reach of t. */
    const ft_statblock *sb = &s->c[who].sb;
    int wi = f->st.c[who].wielded[0];
    const ft_weapon *w = wi >= 0 && wi < sb->n_weapons ? &sb->weapons[wi] : NULL;
    if (!w)
        return FRAY_ERR_INVALID;
    int reach = !w->area && !w->spell && w->range_increment <= 0
                    ? (w->reach > 0 ? w->reach : 1) : -1;
    fray_pos cand[8];
    int nc = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            fray_pos q = {(int16_t)(at.x + dx), (int16_t)(at.y + dy)};
            if ((dx == 0 && dy == 0) || !fray_grid_in(&s->map, q))
                continue;
            fray_footprint qf = {q, 1};
            int dq = fray_grid_range(qf, tf);
            if (reach > 0 && dq > reach)
                continue;
            int k = nc++;
            while (k > 0 && fray_grid_range((fray_footprint){cand[k - 1], 1},
                                               tf) > dq) {
                cand[k] = cand[k - 1];
                k--;
            }
            cand[k] = q;
        }
    for (int i = 0; i < nc; i++) {
        char c[FRAY_CHANCES_TEXT];
        snprintf(c, sizeof c, "shift %d,%d then attack %s", cand[i].x,
                 cand[i].y, s->c[t].id);
        fray_diag d;
        memset(&d, 0, sizeof d);
        fray_status r1 = one(f, who, c, x, out, &d);
        if (r1 == FRAY_OK)
            return FRAY_OK;
        if (r1 != FRAY_ERR_INVALID && r1 != FRAY_ERR_PARSE) {
            if (diag)
                *diag = d;
            return r1;
        }
    }
    return FRAY_ERR_INVALID;
}

/* For `odds ID`: the area weapon wi aimed at the space that catches the
 * most foes (then the fewest of its own side, then nearest the user,
 * then reading order), when it catches more than the area aimed at any
 * foe does; FRAY_ERR_INVALID when no space does better. */
static fray_status rank_area_space(const fray_towers_fight *f, int who, int wi,
                                   scratch *x, fray_chances *out,
                                   fray_diag *diag) {
    const ft_setup *s = &f->setup->s;
    const ft_statblock *sb = &s->c[who].sb;
    const ft_weapon *w = &sb->weapons[wi];
    if (!s->has_map || !w->area || w->area == FT_AREA_AURA)
        return FRAY_ERR_INVALID;
    bool in_hand = wi == f->st.c[who].wielded[0];
    if (!w->spell && !in_hand)
        return FRAY_ERR_INVALID;
    char name[FT_NAME];
    size_t k = 0;
    for (const char *p = w->name; *p && k + 1 < sizeof name; p++)
        name[k++] = *p == ' ' ? '-' : *p;
    name[k] = '\0';
    char text[FRAY_CHANCES_TEXT + FT_NAME + 2];
    snprintf(text, sizeof text, "%s %s at 0,0 with %s", s->c[who].id,
             w->spell ? "cast" : "attack", name);
    ft_command cmd;
    int words = 0;
    fray_diag d;
    memset(&d, 0, sizeof d);
    if (ft_table_parse(s, text, &cmd, &words, &d) != FRAY_OK || !cmd.at_space)
        return FRAY_ERR_INVALID;
    const ft_state *st = &f->st;
    fray_pos me = st->c[who].pos;
    int caught[FT_MAX_COMBATANTS];
    fray_area area;
    fray_footprint centre, origin;
    /* The most foes the area aimed at a foe catches. */
    int at_foe = 0;
    for (int t = 0; t < st->n; t++) {
        if (t == who || ft_allies(s, who, t) || !ft_in_fight(st, t))
            continue;
        ft_command c2 = cmd;
        c2.at_space = false;
        c2.target = (int8_t)t;
        if (ft_area_check(s, st, &c2, w, &d) != FRAY_OK ||
            ft_area_place(s, st, &c2, w, &area, &centre, &origin, &d) != FRAY_OK)
            continue;
        int n = ft_area_victims(s, st, &area, centre, origin, caught);
        int foes = 0;
        for (int i = 0; i < n; i++)
            foes += !ft_allies(s, who, caught[i]);
        if (foes > at_foe)
            at_foe = foes;
    }
    int best_foes = at_foe, best_own = 0, best_dist = 0;
    fray_pos best = {-1, -1};
    for (int y = 0; y < s->map.h; y++)
        for (int xx = 0; xx < s->map.w; xx++) {
            fray_pos q = {(int16_t)xx, (int16_t)y};
            ft_command c2 = cmd;
            c2.dest = q;
            if (ft_area_check(s, st, &c2, w, &d) != FRAY_OK ||
                ft_area_place(s, st, &c2, w, &area, &centre, &origin, &d) != FRAY_OK)
                continue;
            int n = ft_area_victims(s, st, &area, centre, origin, caught);
            int foes = 0, own = 0;
            for (int i = 0; i < n; i++) {
                if (caught[i] == who || ft_allies(s, who, caught[i]))
                    own++;
                else
                    foes++;
            }
            int dist = fray_grid_count(me, q);
            bool take = best.x < 0
                            ? foes > best_foes
                            : foes > best_foes ||
                                  (foes == best_foes &&
                                   (own < best_own ||
                                    (own == best_own && dist < best_dist)));
            if (take && n <= FRAY_CHANCES_AREA) {
                best = q;
                best_foes = foes;
                best_own = own;
                best_dist = dist;
            }
        }
    if (best.x < 0)
        return FRAY_ERR_INVALID;
    char c[FRAY_CHANCES_TEXT];
    snprintf(c, sizeof c, "%s at %d,%d with %s", w->spell ? "cast" : "attack",
             best.x, best.y, name);
    memset(&d, 0, sizeof d);
    fray_status r1 = one(f, who, c, x, out, &d);
    if (r1 != FRAY_OK && r1 != FRAY_ERR_INVALID && r1 != FRAY_ERR_PARSE && diag)
        *diag = d;
    return r1 == FRAY_ERR_PARSE ? FRAY_ERR_INVALID : r1;
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
            bool reached = false;
            for (int k = 0; k < 3 && *n < max; k++) {
                char c[FRAY_CHANCES_TEXT];
                snprintf(c, sizeof c, "%s %s", words[k], s->c[t].id);
                fray_diag d;
                memset(&d, 0, sizeof d);
                fray_status r1 = one(f, who, c, x, &out[*n], &d);
                if (r1 == FRAY_OK) {
                    ++*n;
                    reached |= k == 0;
                } else if (r1 != FRAY_ERR_INVALID) {
                    rc = r1;
                    if (diag)
                        *diag = d;
                    break;
                }
            }
            /* Out of the Attack's reach now: a Shift Position then
             * Attack. */
            if (rc == FRAY_OK && !reached && *n < max) {
                fray_status r1 = rank_shift(f, who, t, x, &out[*n], diag);
                if (r1 == FRAY_OK)
                    ++*n;
                else if (r1 != FRAY_ERR_INVALID)
                    rc = r1;
            }
            /* A Charge on it (a melee weapon in hand, not at its side
             * yet): to the space next to it nearest the charger whose path
             * the engine allows. */
            const ft_statblock *csb = &s->c[who].sb;
            int cwi = f->st.c[who].wielded[0];
            const ft_weapon *cw = cwi >= 0 && cwi < csb->n_weapons
                                      ? &csb->weapons[cwi] : NULL;
            if (rc == FRAY_OK && *n < max && s->has_map && cw && !cw->area &&
                !cw->spell && cw->range_increment <= 0 &&
                !fray_grid_within(ft_fp(s, &f->st, who), ft_fp(s, &f->st, t), 1)) {
                fray_footprint ft = ft_fp(s, &f->st, t);
                int side = ft.side > 0 ? ft.side : 1;
                fray_pos at = f->st.c[who].pos, cand[4 * 5 + 4];
                int nc = 0;
                for (int y = ft.at.y - 1; y <= ft.at.y + side; y++)
                    for (int xx = ft.at.x - 1; xx <= ft.at.x + side; xx++) {
                        bool inside = y >= ft.at.y && y < ft.at.y + side &&
                                      xx >= ft.at.x && xx < ft.at.x + side;
                        fray_pos q = {(int16_t)xx, (int16_t)y};
                        if (inside || !fray_grid_in(&s->map, q) ||
                            nc >= (int)(sizeof cand / sizeof cand[0]))
                            continue;
                        /* nearest the charger first (insertion) */
                        int k = nc++;
                        while (k > 0 && fray_grid_count(at, cand[k - 1]) >
                                            fray_grid_count(at, q)) {
                            cand[k] = cand[k - 1];
                            k--;
                        }
                        cand[k] = q;
                    }
                for (int k = 0; k < nc; k++) {
                    char c[FRAY_CHANCES_TEXT];
                    snprintf(c, sizeof c, "charge %s %d,%d", s->c[t].id,
                             cand[k].x, cand[k].y);
                    fray_diag d;
                    memset(&d, 0, sizeof d);
                    fray_status r1 = one(f, who, c, x, &out[*n], &d);
                    if (r1 == FRAY_OK) {
                        ++*n;
                        break;
                    }
                    if (r1 != FRAY_ERR_INVALID) {
                        rc = r1;
                        if (diag)
                            *diag = d;
                        break;
                    }
                }
            }
            /* Held in his grapple: Squeeze and Slam (the Attack action's
             * moves that deal damage). */
            static const char *const moves[2] = {"squeeze", "slam"};
            for (int k = 0; rc == FRAY_OK && k < 2 && *n < max &&
                            ft_grapple_victim(&f->st, who) == t;
                 k++) {
                char c[FRAY_CHANCES_TEXT];
                snprintf(c, sizeof c, "attack %s %s", s->c[t].id, moves[k]);
                fray_diag d;
                memset(&d, 0, sizeof d);
                fray_status r1 = one(f, who, c, x, &out[*n], &d);
                if (r1 == FRAY_OK)
                    ++*n;
                else if (r1 != FRAY_ERR_INVALID) {
                    rc = r1;
                    if (diag)
                        *diag = d;
                }
            }
            /* A spell with an area aimed at it (not the one in hand:
             * that one is the Attack above). */
            const ft_statblock *sb = &s->c[who].sb;
            for (int wi = 0; rc == FRAY_OK && wi < sb->n_weapons && *n < max;
                 wi++) {
                const ft_weapon *w = &sb->weapons[wi];
                if (!w->area || !w->spell || wi == f->st.c[who].wielded[0])
                    continue;
                char c[FRAY_CHANCES_TEXT];
                char name[FT_NAME];
                size_t k = 0;
                for (const char *p = w->name; *p && k + 1 < sizeof name; p++)
                    name[k++] = *p == ' ' ? '-' : *p;
                name[k] = '\0';
                snprintf(c, sizeof c, "cast %s with %s", s->c[t].id, name);
                fray_diag d;
                memset(&d, 0, sizeof d);
                fray_status r1 = one(f, who, c, x, &out[*n], &d);
                if (r1 == FRAY_OK)
                    ++*n;
                else if (r1 != FRAY_ERR_INVALID) {
                    rc = r1;
                    if (diag)
                        *diag = d;
                }
            }
            /* Initiate a Grapple on it (a Grapple Test, no damage; ranked
             * after the attacks by its chance, issue 19) where
             * the engine allows it now. */
            if (rc == FRAY_OK && *n < max && ft_grapple_victim(&f->st, who) < 0) {
                char c[FRAY_CHANCES_TEXT];
                snprintf(c, sizeof c, "grapple %s", s->c[t].id);
                fray_diag d;
                memset(&d, 0, sizeof d);
                fray_status r1 = one(f, who, c, x, &out[*n], &d);
                if (r1 == FRAY_OK && out[*n].p_success > 0)
                    ++*n;
                else if (r1 != FRAY_OK && r1 != FRAY_ERR_INVALID) {
                    rc = r1;
                    if (diag)
                        *diag = d;
                }
            }
            if (rc != FRAY_OK)
                break;
        }
        /* Held: an Escape (its Grapple Test). */
        if (rc == FRAY_OK && *n < max && f->st.c[who].grappled_by >= 0) {
            fray_diag d;
            memset(&d, 0, sizeof d);
            fray_status r1 = one(f, who, "escape", x, &out[*n], &d);
            if (r1 == FRAY_OK && out[*n].p_success > 0)
                ++*n;
            else if (r1 != FRAY_OK && r1 != FRAY_ERR_INVALID) {
                rc = r1;
                if (diag)
                    *diag = d;
            }
        }
        /* Each area aimed at the space that catches the most foes, when
         * that is more than aiming it at a foe catches. */
        const ft_statblock *ab = &s->c[who].sb;
        for (int wi = 0; rc == FRAY_OK && wi < ab->n_weapons && *n < max; wi++) {
            fray_status r1 = rank_area_space(f, who, wi, x, &out[*n], diag);
            if (r1 == FRAY_OK)
                ++*n;
            else if (r1 != FRAY_ERR_INVALID)
                rc = r1;
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
