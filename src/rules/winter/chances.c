/*
 * chances.c - Silent Winter at the table (issue 19; include/fray/chances.h):
 * the exact chances of a declaration from the fight as it stands.
 *
 * An attack (002:33) is d20 + the attacker's Physical Attack against d20
 * + the target's defence (ruling check-die; ties to the defender unless
 * ties: actor), with the modifiers rules.c's attack applies now: two
 * weapons -5 (002:41), Sniping -5 (002:47), a ranged attack on Partial
 * Cover -5 (002:49), an Undefended target keeps only its Physical Defense
 * (002:55). A hit deals the weapon's dice (both weapons' with two) less
 * the target's Physical Resistance when its armour protects, at least 0;
 * a hit that deals damage (or any hit, pain-on-any-hit: yes) costs a
 * point of Pain, and a point below 0 another 1d6 Health (002:37). So the
 * damage is on two tracks, Health and Pain, counted exactly over every
 * roll (400 opposed d20s, 6^k damage dice, the Pain die).
 *
 * An attack with a talent (ruling 27) is an attack with its bonus, its
 * other effect told. The agility contests (Avoid, Switch Targets,
 * Disengage, Chase a Sniper; +5 mounted, 002:67) and Medicine's roll are
 * counted too (they deal nothing); Engage and the
 * other declarations roll no dice and are refused in words. The command is
 * checked by rules.c's sw_check as if it were `who`'s turn now.
 */
#include "winter_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/chances.h"
#include "internal.h"

enum { CH_MAX_DICE = 40, CH_MAX_TOTAL = 6 * CH_MAX_DICE + 6 };

static const char *const sw_tracks[2] = {"Health", "Pain"};

/* Appends "; text" (or text), cut at the buffer's end. */
static void add_text(char *buf, size_t size, const char *text) {
    size_t n = strlen(buf);
    const char *parts[2] = {n ? "; " : "", text};
    for (int k = 0; k < 2; k++)
        for (const char *p = parts[k]; *p && n + 1 < size; p++)
            buf[n++] = *p;
    buf[n] = '\0';
}

/* The ways (of 400) d20 + mine beats d20 + theirs (ties: the actor's
 * only with ties: actor). */
static int wins_of_400(int mine, int theirs, bool actor_ties) {
    int win = 0;
    for (int a = 1; a <= SW_CHECK_SIDES; a++)
        for (int d = 1; d <= SW_CHECK_SIDES; d++)
            win += a + mine > d + theirs || (actor_ties && a + mine == d + theirs);
    return win;
}

static void set_outcomes(fray_chances *out, const char *yes, const char *no,
                         int wins) {
    out->n_outcomes = 2;
    snprintf(out->outcomes[0].name, sizeof out->outcomes[0].name, "%s", no);
    out->outcomes[0].p = fray__ratio((fray__u128)(400 - wins), 400, false);
    snprintf(out->outcomes[1].name, sizeof out->outcomes[1].name, "%s", yes);
    out->outcomes[1].p = fray__ratio((fray__u128)wins, 400, false);
    for (int i = 0; i < 2; i++)
        out->outcomes[i].share = fray_ratio_to_double(out->outcomes[i].p);
}

static void no_damage(fray_chances *out) {
    out->n_tracks = 2;
    out->tracks[0] = sw_tracks[0];
    out->tracks[1] = sw_tracks[1];
    out->n_damage = 1;
    out->damage[0].p = fray__ratio(1, 1, false);
    out->damage[0].share = 1.0;
}

/* The attack's modifiers and totals, as rules.c's attack takes them. */
typedef struct sw_attack_line {
    int atk, def;
    bool undefended, ranged;
    int n_dice, bonus, res;
    /* the enchantments Maintained on the weapon (002:35; ruling 31): their
     * Magical dice (with the casters' spell power), bonus and the Magic
     * Resistance; n_enchant how many, neg: one with a bonus below 0 */
    int m_dice, m_bonus, m_res, n_enchant;
    bool m_neg;
} sw_attack_line;

static void attack_line(const sw_setup *s, const sw_state *st, int a, int t,
                        sw_attack_line *L, char *mods, size_t msize) {
    const sw_block *ab = &s->c[a].b, *tb = &s->c[t].b;
    sw_attack_terms_t at;
    sw_attack_terms(s, st, a, t, &at); /* the rules' own terms (rules.c) */
    memset(L, 0, sizeof *L);
    L->ranged = at.ranged;
    L->atk = at.atk;
    L->def = at.def;
    L->undefended = at.undefended;
    if (at.siege)
        add_text(mods, msize, "a siege weapon: attack -10 (002:57)");
    if (at.two)
        add_text(mods, msize, "fighting with two weapons: attack -5 (002:41)");
    if (at.sniping)
        add_text(mods, msize, "Sniping: attack -5 (002:47)");
    if (at.partial_cover)
        add_text(mods, msize, "target in Partial Cover: attack -5 (002:49)");
    if (at.undefended)
        add_text(mods, msize, "target Undefended: Physical Defense only, no "
                              "Agility or defence bonus (002:55)");
    if (at.talent_defense) { /* ruling 48 */
        char b[112];
        snprintf(b, sizeof b, at.undefended
                                  ? "the target's talents' defense +%d lost: Undefended (002:27)"
                                  : "the target's talents: defense +%d (002:27)",
                 at.talent_defense);
        add_text(mods, msize, b);
    }
    if (at.spell_defense) {
        char b[96];
        snprintf(b, sizeof b, "the target's Maintained spells: defense +%d (002:73)",
                 at.spell_defense);
        add_text(mods, msize, b);
    }
    L->n_dice = at.w->dice;
    L->bonus = at.w->bonus;
    if (at.two) {
        L->n_dice += s->w[ab->off_hand].dice;
        L->bonus += s->w[ab->off_hand].bonus;
    }
    if (tb->armour >= 0 && (s->a[tb->armour].protects == SW_PROT_PHYSICAL ||
                            s->a[tb->armour].protects == SW_PROT_BOTH))
        L->res = tb->physical_resistance;
    for (int i = 0; i < st->n; i++)
        for (int k = 0; k < st->c[i].n_maint; k++) {
            const sw_spell *sp = &s->sp[st->c[i].maint_spell[k]];
            if (st->c[i].maint_target[k] != a || sp->effect != SW_SPELL_ENCHANT)
                continue;
            L->n_enchant++;
            L->m_dice += sp->dice + s->c[i].b.spell_power;
            L->m_bonus += sp->bonus;
            L->m_neg |= sp->bonus < 0;
            char b[120];
            snprintf(b, sizeof b, "%s: Magical damage %dd6%+d against Magic Resistance (002:35)",
                     sp->name, sp->dice + s->c[i].b.spell_power, sp->bonus);
            add_text(mods, msize, b);
        }
    if (L->n_enchant && tb->armour >= 0 &&
        (s->a[tb->armour].protects == SW_PROT_MAGICAL ||
         s->a[tb->armour].protects == SW_PROT_BOTH))
        L->m_res = tb->magic_resistance;
}

/* Counts of each total of n d6 (n * 1 .. n * 6), over 6^n. */
static void d6_counts(int n, fray__u128 *cnt) {
    memset(cnt, 0, (CH_MAX_TOTAL + 1) * sizeof *cnt);
    cnt[0] = 1;
    for (int k = 0; k < n; k++) {
        for (int v = 6 * (k + 1); v >= 0; v--) {
            fray__u128 sum = 0;
            for (int f = 1; f <= 6; f++)
                if (v - f >= 0)
                    sum += cnt[v - f];
            cnt[v] = sum;
        }
    }
}

static fray_status count_attack(const sw_setup *s, const sw_state *st, int a,
                                int t, int talent, fray_chances *out, fray_diag *diag) {
    sw_attack_line L;
    attack_line(s, st, a, t, &L, out->modifiers, sizeof out->modifiers);
    if (talent >= 0 && s->tl[talent].effect == SW_TE_BONUS) {
        char b[96];
        L.atk += s->tl[talent].amount; /* ruling 27 */
        snprintf(b, sizeof b, "%s: attack %+d (ruling 27)", s->tl[talent].name,
                 s->tl[talent].amount);
        add_text(out->modifiers, sizeof out->modifiers, b);
    }
    int bonus_h = sw_bonus_left(s, st, t, SW_BONUS_HEALTH),
        bonus_p = sw_bonus_left(s, st, t, SW_BONUS_PAIN);
    if (bonus_h || bonus_p) {
        char b[120];
        snprintf(b, sizeof b, "the target's bonus Health %d and Pain %d used up first (002:75)",
                 bonus_h, bonus_p);
        add_text(out->modifiers, sizeof out->modifiers, b);
    }
    if (!out->modifiers[0])
        snprintf(out->modifiers, sizeof out->modifiers, "none");
    if (L.n_enchant > 1 && L.m_neg)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "the chances of several enchantments, one with a bonus "
                              "below 0, are not counted");
    if (L.n_enchant && s->opt.enchant_pain_each)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "the chances of an enchanted hit that costs a point of "
                              "Pain for each part (enchant-pain: each) are not counted");
    if (L.n_dice + L.m_dice > CH_MAX_DICE)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "the chances of damage of more than %d dice are "
                              "not counted", CH_MAX_DICE);
    bool actor_ties = s->opt.ties == SW_TIES_ACTOR;
    int wins = wins_of_400(L.atk, L.def, actor_ties);
    set_outcomes(out, "hit", "miss", wins);
    out->n_tracks = 2;
    out->tracks[0] = sw_tracks[0];
    out->tracks[1] = sw_tracks[1];

    /* Every roll over one denominator: 400 (the d20s) * 6^n (the damage)
     * * 6 (the Pain die, rolled or not). */
    static const int H_MAX = CH_MAX_TOTAL + 6;
    fray__u128 cnt[CH_MAX_TOTAL + 1];
    d6_counts(L.n_dice, cnt);
    fray__u128 six_n = 1;
    for (int k = 0; k < L.n_dice + L.m_dice; k++)
        six_n *= 6; /* the weapon's dice and the enchantments' (ruling 31) */
    fray__u128 mcnt[CH_MAX_TOTAL + 1];
    d6_counts(L.m_dice, mcnt);
    fray__u128 den = 400 * six_n * 6;
    fray__u128 *cell = calloc((size_t)(H_MAX + 1) * 2, sizeof *cell);
    if (!cell)
        return FRAY_ERR_NOMEM;
#define CELL(h, pn) cell[(size_t)(h) * 2 + (size_t)(pn)]
    CELL(0, 0) += (fray__u128)(400 - wins) * six_n * 6; /* a miss */
    const sw_cstate *tc = &st->c[t];
    const sw_block *tb = &s->c[t].b;
    bool wound = talent >= 0 && s->tl[talent].effect == SW_TE_WOUND; /* 002:39 */
    fray__u128 drop = sw_out(tc) ? (fray__u128)(400 - wins) * six_n * 6 : 0;
    for (int v = L.n_dice; v <= 6 * L.n_dice; v++)
    for (int u = L.m_dice; u <= 6 * L.m_dice; u++) {
        if (!cnt[v] || !mcnt[u])
            continue;
        int dmg = v + L.bonus < 0 ? 0 : v + L.bonus;
        int after = dmg > L.res ? dmg - L.res : 0;
        if (L.n_enchant) { /* 002:35: the Magical part against Magic Resistance */
            int mdmg = u + L.m_bonus < 0 ? 0 : u + L.m_bonus;
            after += mdmg > L.m_res ? mdmg - L.m_res : 0;
        }
        bool pain = after > 0 || s->opt.pain_on_any_hit;
        /* bonus Health and Pain from Maintained spells used up first
         * (002:75; ruling 33): what is left comes off the tracks */
        int hb = after < bonus_h ? after : bonus_h;
        after -= hb;
        if (pain && bonus_p > 0)
            pain = false;
        bool die = pain && tc->pain - 1 < 0; /* 1d6 Health (002:37) */
        for (int e = die ? 1 : 0; e <= (die ? 6 : 0); e++) {
            fray__u128 w = (fray__u128)wins * cnt[v] * mcnt[u] * (die ? 1 : 6);
            int eb = bonus_h - hb; /* the die's Health too, bonus first */
            int h = after + (e > eb ? e - eb : 0);
            if (h > H_MAX)
                h = H_MAX;
            CELL(h, pain ? 1 : 0) += w;
            bool out_after = sw_out(tc) || tc->health - h <= 0 || wound ||
                             (pain && tc->pain - 1 <= -tb->pain);
            if (out_after)
                drop += w;
        }
    }
    /* Smallest total first (Health and Pain added), then less Health. */
    bool cut = false;
    for (int tot = 0; tot <= H_MAX + 1; tot++)
        for (int pn = 1; pn >= 0; pn--) {
            int h = tot - pn;
            if (h < 0 || h > H_MAX || !CELL(h, pn))
                continue;
            if (out->n_damage >= FRAY_CHANCES_DAMAGE) {
                cut = true;
                continue;
            }
            fray_chance_damage *d = &out->damage[out->n_damage++];
            d->amount[0] = h;
            d->amount[1] = pn;
            d->p = fray__ratio(CELL(h, pn), den, false);
            d->share = fray_ratio_to_double(d->p);
            out->expected[0] += d->share * h;
            out->expected[1] += d->share * pn;
        }
#undef CELL
    free(cell);
    out->p_drop = fray_ratio_to_double(fray__ratio(drop, den, false));

    char dmg[48];
    if (L.bonus)
        snprintf(dmg, sizeof dmg, "%dd6%+d", L.n_dice, L.bonus);
    else
        snprintf(dmg, sizeof dmg, "%dd6", L.n_dice);
    char text[FRAY_CHANCES_ASSUMED];
    snprintf(text, sizeof text,
             "d20%+d against d20%+d (ties to the %s); damage %s less "
             "resistance %d",
             L.atk, L.def, actor_ties ? "attacker" : "defender", dmg, L.res);
    add_text(out->assumed, sizeof out->assumed, text);
    if (L.ranged && s->opt.friendly_fire)
        add_text(out->assumed, sizeof out->assumed,
                 "a miss that strikes another in the melee (002:51) not counted");
    sw_attack_terms_t at;
    sw_attack_terms(s, st, a, t, &at);
    if (at.siege && !s->opt.siege_target_only && sw_siege_draws(s, at.w, SW_MAX_C))
        add_text(out->assumed, sizeof out->assumed,
                 "the siege weapon's attacks on up to its targets less one of the "
                 "rest of the cluster, drawn (002:57), not counted: these are the "
                 "chances on the target");
    else if (at.siege && !s->opt.siege_target_only)
        add_text(out->assumed, sizeof out->assumed,
                 "the siege weapon's attacks on the rest of the cluster "
                 "(002:57) not counted: these are the chances on the target");
    if (talent >= 0 && s->tl[talent].effect != SW_TE_BONUS) {
        char b[120];
        const sw_talent *tl = &s->tl[talent];
        if (tl->effect == SW_TE_WOUND)
            snprintf(b, sizeof b, "on a hit %s is Wounded too (002:39)", s->c[t].name);
        else
            snprintf(b, sizeof b, "on a hit %s is %s %d segments too (002:%s)", s->c[t].name,
                     tl->effect == SW_TE_STUN ? "Stunned" : "Paralyzed", tl->amount,
                     tl->effect == SW_TE_STUN ? "98" : "99");
        add_text(out->assumed, sizeof out->assumed, b);
    }
    if (sw_mount_of(s, st, t) >= 0 || sw_rider_of(s, st, t) >= 0)
        add_text(out->assumed, sizeof out->assumed,
                 "the Ride roll to stay in the saddle after a hit (002:61) not counted");
    if (cut)
        add_text(out->assumed, sizeof out->assumed,
                 "the largest amounts are left out of the list");
    return FRAY_OK;
}

/* An agility contest (or Medicine's flat roll): who wins, nothing dealt. */
static void count_contest(const sw_setup *s, const sw_state *st, int a, int other,
                          int kind, fray_chances *out) {
    bool ride = kind == SW_EV_MOUNT || kind == SW_EV_RIDE; /* rulings 44, 45 */
    int mine = kind == SW_EV_MEDICINE ? s->c[a].b.medicine
               : ride                 ? s->c[a].b.ride
                                      : s->c[a].b.agility + sw_moving_bonus(s, st, a, true);
    int theirs = kind == SW_EV_MEDICINE || ride || other < 0
                     ? 0
                     : s->c[other].b.agility + sw_moving_bonus(s, st, other, false); /* 002:67 */
    int tm = sw_talent_roll(s, a, sw_roll_of_kind(kind), true), /* talents (ruling 34) */
        tt = sw_talent_roll(s, other, sw_roll_of_kind(kind), false);
    mine += tm;
    theirs += tt;
    bool actor_ties = s->opt.ties == SW_TIES_ACTOR;
    set_outcomes(out, "succeeds", "fails", wins_of_400(mine, theirs, actor_ties));
    no_damage(out);
    out->p_drop = -1;
    out->p_success = out->outcomes[1].share; /* "succeeds" */
    snprintf(out->modifiers, sizeof out->modifiers, "none");
    if (tm || tt)
        snprintf(out->modifiers, sizeof out->modifiers,
                 "talents: %+d to the roll, %+d to the opposing roll (ruling 34)", tm, tt);
    snprintf(out->assumed, sizeof out->assumed,
             "%s d20%+d against %s d20%+d (ties to the %s)",
             kind == SW_EV_MEDICINE ? "Medicine" : ride ? "Ride" : "Agility", mine,
             kind == SW_EV_MEDICINE || ride ? "the GM's flat" : "the other's", theirs,
             actor_ties ? "one acting" : "other");
}

static fray_status one(const sw_setup *s, const sw_state *st, int who,
                       const char *command, fray_chances *out,
                       fray_diag *diag) {
    memset(out, 0, sizeof *out);
    out->who = who;
    out->target = -1;
    out->p_drop = -1;
    out->p_success = -1;
    char text[FRAY_CHANCES_TEXT + 80];
    snprintf(text, sizeof text, "%s %s", s->c[who].id, command);
    sw_event *cmd = malloc(sizeof *cmd);
    if (!cmd)
        return FRAY_ERR_NOMEM;
    fray_status rc = sw_parse(s, st, text, cmd, diag);
    int kind = cmd->kind, actor = cmd->actor, t = cmd->target, arg = cmd->arg;
    char why[200] = "";
    if (rc == FRAY_OK && actor == who && kind != SW_EV_NEXT) {
        /* As if its turn came now: free to declare on this segment. */
        sw_state now = *st;
        now.c[who].ready = st->seg;
        now.c[who].decl_seg = st->seg - 1;
        now.c[who].flags &= (uint8_t)~SW_F_WAITED;
        if (sw_check(s, &now, cmd, why, sizeof why) != FRAY_OK)
            rc = FRAY_ERR_INVALID;
    }
    free(cmd);
    if (rc == FRAY_ERR_INVALID && why[0])
        return fray__diag_set(diag, rc, 0, "%s", why);
    if (rc != FRAY_OK)
        return rc;
    if (actor != who || kind == SW_EV_NEXT)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "'%s' is not an action of %s", command,
                              s->c[who].name);
    snprintf(out->command, sizeof out->command, "%s", command);
    const char *tn = t >= 0 ? s->c[t].name : "";
    switch (kind) {
    case SW_EV_ATTACK: {
        out->target = t;
        sw_attack_terms_t at; /* the weapon in hand (002:85), as the rules */
        sw_attack_terms(s, st, who, t, &at);
        if (at.w->area)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "%s rolls no dice to hit: an area attack falls on "
                                  "everyone in %s's Engaged cluster (002:53)",
                                  at.w->name, tn);
        const sw_block *ab = &s->c[who].b;
        if (snprintf(out->title, sizeof out->title, "Attack on %s with %s%s%s", tn,
                     at.w->name, at.two ? " and " : "",
                     at.two ? s->w[ab->off_hand].name : "") >=
            (int)sizeof out->title)
            out->title[sizeof out->title - 1] = '\0'; /* cut: a long name */
        return count_attack(s, st, who, t, -1, out, diag);
    }
    case SW_EV_TALENT: {
        int k = arg; /* the talent (sw_check allowed it) */
        if (s->tl[k].area) /* ruling 49 */
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "%s rolls no dice: an area talent falls on the target's "
                                  "Engaged cluster with no roll (002:53)", s->tl[k].name);
        if (s->tl[k].resolve == SW_TR_AUTOMATIC)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "%s rolls no dice: it takes effect with no roll "
                                  "(ruling 27)", s->tl[k].name);
        out->target = t;
        sw_attack_terms_t at;
        sw_attack_terms(s, st, who, t, &at);
        if (snprintf(out->title, sizeof out->title, "%s on %s with %s", s->tl[k].name, tn,
                     at.w->name) >= (int)sizeof out->title)
            out->title[sizeof out->title - 1] = '\0';
        return count_attack(s, st, who, t, k, out, diag);
    }
    case SW_EV_AVOID:
    case SW_EV_SWITCH:
    case SW_EV_DISENGAGE:
    case SW_EV_CHASE:
    case SW_EV_MEDICINE: {
        out->target = t;
        int other = kind == SW_EV_SWITCH ? st->c[who].engages
                    : kind == SW_EV_MEDICINE ? -1 : t;
        if (snprintf(out->title, sizeof out->title, "%s %s %s", sw_kind_title(kind),
                     kind == SW_EV_SWITCH ? "to" : kind == SW_EV_MEDICINE ? "on"
                                                                         : "from",
                     tn) >= (int)sizeof out->title)
            out->title[sizeof out->title - 1] = '\0';
        if (kind == SW_EV_CHASE)
            snprintf(out->title, sizeof out->title, "Chase a Sniper: %s", tn);
        count_contest(s, st, who, other, kind, out);
        return FRAY_OK;
    }
    case SW_EV_MOUNT: /* ruling 44 */
    case SW_EV_RIDE:  /* ruling 45 */
        if (kind == SW_EV_MOUNT && !s->opt.mount_roll)
            return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                                  "getting into the saddle rolls no dice here (mount-roll: "
                                  "none): it ends when its delay ends (ruling 43)");
        snprintf(out->title, sizeof out->title, "%s", sw_kind_title(kind));
        count_contest(s, st, who, -1, kind, out);
        return FRAY_OK;
    case SW_EV_ENGAGE:
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "an Engage rolls no dice: it takes effect at the "
                              "end of its delay (002:9) unless %s Avoids it "
                              "(ask the chances of the Avoid)", tn);
    default:
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "%s rolls no dice: it has no chances to count",
                              sw_kind_title(kind));
    }
}

/* Whether rules.c allows `who avoid t` on the state as it stands (not as
 * if its turn came now: an Avoid is declared on the segment of the
 * Engage, by one free to declare then, 002:23). */
static fray_status avoid_open_now(const sw_setup *s, const sw_state *st, int who,
                                  int t, bool *open) {
    *open = false;
    char text[2 * FRAY_CHANCES_TEXT];
    snprintf(text, sizeof text, "%s avoid %s", s->c[who].id, s->c[t].id);
    sw_event *cmd = malloc(sizeof *cmd);
    if (!cmd)
        return FRAY_ERR_NOMEM;
    fray_diag d;
    memset(&d, 0, sizeof d);
    char why[200];
    *open = sw_parse(s, st, text, cmd, &d) == FRAY_OK &&
            sw_check(s, st, cmd, why, sizeof why) == FRAY_OK;
    free(cmd);
    return FRAY_OK;
}

fray_status sw_chances(const sw_setup *s, const sw_state *st, int who,
                       const char *command, struct fray_chances *out, int max,
                       int *n, fray_diag *diag) {
    *n = 0;
    if (who < 0 || who >= st->n)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "no such combatant in this fight");
    if (!st->started)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "the fight has not begun");
    if (command) {
        fray_status rc = one(s, st, who, command, out, diag);
        if (rc == FRAY_OK)
            *n = 1;
        return rc;
    }
    /* Every attack on a foe it may make now, every Chase a Sniper, the
     * Avoid of an Engage on it declared now, when it is free to declare
     * (002:23: rules.c's check on the state as it stands), a Switch
     * Targets (002:29) and a Disengage; then Medicine's roll on each of
     * its side who bleeds (002:39). What deals no damage is ranked after
     * the attacks by its chance of success (issue 19). */
    static const char *const verbs[5] = {"attack", "chase", "avoid", "switch",
                                         "disengage"};
    for (int t = 0; t < st->n && *n < max; t++) {
        if (t == who || s->c[t].side == s->c[who].side)
            continue;
        for (int k = 0; k < 5 && *n < max; k++) {
            char c[FRAY_CHANCES_TEXT];
            snprintf(c, sizeof c, "%s %s", verbs[k], s->c[t].id);
            if (k == 2) {
                bool open = false;
                if (avoid_open_now(s, st, who, t, &open) != FRAY_OK)
                    return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
                if (!open)
                    continue;
            }
            fray_diag d;
            memset(&d, 0, sizeof d);
            fray_status rc = one(s, st, who, c, &out[*n], &d);
            if (rc == FRAY_OK)
                ++*n;
            else if (rc != FRAY_ERR_INVALID) {
                if (diag)
                    *diag = d;
                return rc;
            }
        }
    }
    for (int t = 0; t < st->n && *n < max; t++) {
        if (s->c[t].side != s->c[who].side || !(st->c[t].flags & SW_F_BLEEDING))
            continue;
        char c[FRAY_CHANCES_TEXT];
        snprintf(c, sizeof c, "medicine %s", s->c[t].id);
        fray_diag d;
        memset(&d, 0, sizeof d);
        fray_status rc = one(s, st, who, c, &out[*n], &d);
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
