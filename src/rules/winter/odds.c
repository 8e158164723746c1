/*
 * odds.c - the exact odds of a Silent Winter duel (`fray odds duel`;
 * include/fray/duel.h): two melee combatants, as the tactics fight it.
 *
 * The schedule is fixed by the opening d6 (002:13): the initiator
 * declares Engage on segment 1, which takes effect at the end of 1 +
 * engage-delay; the other Engages on its first segment (or takes the
 * Reciprocal Engage, 002:21, when it comes first), then each attacks every
 * 1 + delay segments (002:9). Nothing in the rules makes an attack depend
 * on the attacker's own Health or Pain, so each side's time of falling
 * (Health 0, 002:33, or Blown, 002:37) is a chain over the defender's
 * (Health, Pain) alone, across the other's attacks; the two times are
 * independent given the opening, and the duel's winner is who falls
 * later (in one segment, who attacks first there). Summed over the six
 * opening rolls. Refused (in rules words): more or fewer than two
 * combatants, a ranged weapon, Sniping at the start.
 */
#include "winter_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/duel.h"
#include "internal.h"

enum { ODDS_DMG_MAX = 256 };

/* P(d20 + mine beats d20 + theirs), ties to the defender unless ties: actor. */
static double p_hit(int mine, int theirs, bool actor_ties) {
    int win = 0;
    for (int a = 1; a <= 20; a++)
        for (int d = 1; d <= 20; d++)
            win += a + mine > d + theirs || (actor_ties && a + mine == d + theirs);
    return win / 400.0;
}

/* The damage a hit does after resistance, as a distribution (0..max). */
static int damage_dist(const sw_setup *s, int att, int def, double *p) {
    const sw_block *ab = &s->c[att].b, *db = &s->c[def].b;
    double cur[ODDS_DMG_MAX + 1] = {0}, nxt[ODDS_DMG_MAX + 1];
    cur[0] = 1.0;
    int hi = 0, flat = 0;
    const sw_weapon *ws[2] = {&s->w[ab->weapon], ab->off_hand >= 0 ? &s->w[ab->off_hand] : NULL};
    for (int h = 0; h < 2; h++) {
        if (!ws[h])
            continue;
        flat += ws[h]->bonus;
        for (int k = 0; k < ws[h]->dice; k++) {
            memset(nxt, 0, sizeof nxt);
            for (int v = 0; v <= hi; v++)
                for (int f = 1; f <= 6; f++)
                    nxt[v + f] += cur[v] / 6.0;
            hi += 6;
            memcpy(cur, nxt, sizeof cur);
        }
    }
    int res = 0;
    if (db->armour >= 0 && (s->a[db->armour].protects == SW_PROT_PHYSICAL ||
                            s->a[db->armour].protects == SW_PROT_BOTH))
        res = db->physical_resistance;
    memset(p, 0, (ODDS_DMG_MAX + 1) * sizeof *p);
    int top = 0;
    for (int v = 0; v <= hi; v++) {
        int d = v + flat;
        if (d < 0)
            d = 0; /* damage is at least 0 */
        d = d > res ? d - res : 0;
        if (d > ODDS_DMG_MAX)
            d = ODDS_DMG_MAX;
        p[d] += cur[v];
        top = d > top ? d : top;
    }
    return top;
}

typedef struct sched {
    int first, period, n;   /* attacks on first + k * period, k < n */
    int undefended_until;   /* the defender is Undefended through this segment */
} sched;

/* P(the defender falls on the k-th attack of the schedule), k < n, into
 * out[k]; the rest does not fall within the schedule. */
static fray_status fall_times(const sw_setup *s, int att, int def, const sched *sc,
                              double *out, long *states, long *trans) {
    const sw_block *db = &s->c[def].b, *ab = &s->c[att].b;
    int H = db->health, P = db->pain;
    int W = 2 * P; /* pain from P down to -P + 1 */
    size_t cells = (size_t)(H + 1) * (size_t)W;
    double *cur = calloc(cells, sizeof *cur), *nxt = calloc(cells, sizeof *nxt);
    double dmg[ODDS_DMG_MAX + 1];
    if (!cur || !nxt) {
        free(cur);
        free(nxt);
        return FRAY_ERR_NOMEM;
    }
#define AT(h, pn) ((size_t)(h) * (size_t)W + (size_t)(P - (pn)))
    cur[AT(H, P)] = 1.0;
    int top = damage_dist(s, att, def, dmg);
    int atk = ab->physical_attack - (ab->off_hand >= 0 ? 5 : 0);
    int full = db->physical_defense + db->agility + db->defense_bonus;
    double ph_full = p_hit(atk, full, s->opt.ties == SW_TIES_ACTOR);
    double ph_undef = p_hit(atk, db->physical_defense, s->opt.ties == SW_TIES_ACTOR);
    double left = 1.0;
    for (int k = 0; k < sc->n; k++) {
        out[k] = 0.0;
        if (left < 1e-15)
            continue;
        int seg = sc->first + k * sc->period;
        double ph = seg <= sc->undefended_until ? ph_undef : ph_full;
        memset(nxt, 0, cells * sizeof *nxt);
        for (int h = 1; h <= H; h++)
            for (int pn = P; pn > -P; pn--) {
                double m = cur[AT(h, pn)];
                if (m == 0.0)
                    continue;
                (*states)++;
                nxt[AT(h, pn)] += m * (1.0 - ph);
                for (int d = 0; d <= top; d++) {
                    if (dmg[d] == 0.0)
                        continue;
                    double md = m * ph * dmg[d];
                    if (d == 0 && !s->opt.pain_on_any_hit) {
                        nxt[AT(h, pn)] += md;
                        continue;
                    }
                    int h2 = h - d, p2 = pn - 1;
                    for (int e = 1; e <= (p2 < 0 ? 6 : 1); e++) {
                        double me = p2 < 0 ? md / 6.0 : md;
                        int h3 = p2 < 0 ? h2 - e : h2;
                        (*trans)++;
                        if (h3 <= 0 || p2 <= -P)
                            out[k] += me; /* dead (002:33) or Blown (002:37) */
                        else
                            nxt[AT(h3, p2)] += me;
                    }
                }
            }
        double *t = cur;
        cur = nxt;
        nxt = t;
        left -= out[k];
    }
#undef AT
    free(cur);
    free(nxt);
    return FRAY_OK;
}

static fray_status refuse(fray_diag *diag, const char *why) {
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                          "the exact Silent Winter duel does not model %s", why);
}

fray_status sw_duel_odds(const sw_setup *s, int a, int b, long max_states,
                         fray_duel_odds *out, fray_diag *diag) {
    (void)max_states;
    if (s->n != 2 || a < 0 || b < 0 || a >= 2 || b >= 2 || a == b)
        return refuse(diag, "an encounter of other than two combatants");
    if (s->c[a].side == s->c[b].side)
        return refuse(diag, "two combatants of one side");
    if (s->obstacle)
        return refuse(diag, "an obstacle between the sides (002:25)");
    for (int i = 0; i < 2; i++) {
        if (s->w[s->c[i].b.weapon].ranged)
            return refuse(diag, "ranged weapons (Sniping, cover, friendly fire)");
        if (s->w[s->c[i].b.weapon].area)
            return refuse(diag, "area weapons (002:53)");
        if (s->c[i].sniping)
            return refuse(diag, "a combatant Sniping at the start");
        if (s->c[i].b.carried || s->c[i].b.nearby)
            return refuse(diag, "other weapons to switch to (Switch Weapons, 002:85)");
        if (s->c[i].b.spells)
            return refuse(diag, "spells (002:71-79)");
        if (s->c[i].mount || s->c[i].b.willfulness)
            return refuse(diag, "mounted combat (002:59-67)");
        if (s->c[i].b.talents)
            return refuse(diag, "talents (002:39; Stunned and Paralyzed, 002:98-99)");
    }
    memset(out, 0, sizeof *out);
    out->a = a;
    out->b = b;
    int I = s->initiator, O = 1 - I;
    out->p_first[I == a ? 0 : 1] = 1.0; /* 002:13: the initiator declares first */
    int L = s->segment_limit > 0 ? s->segment_limit : 100000;
    out->phase_limit = s->segment_limit;
    int d = s->opt.engage_delay;
    int per[2];
    for (int i = 0; i < 2; i++) {
        const sw_weapon *w = &s->w[s->c[i].b.weapon];
        per[i] = 1 + (w->delay ? w->delay : s->opt.attack_delay);
    }
    double *fall[2] = {NULL, NULL};
    double sum_len = 0, sum_len2 = 0;
    for (int v = 1; v <= 6; v++) {
        sched sc[2]; /* sc[i]: the attacks of combatant i */
        int resolve_i = 1 + d;     /* the initiator's Engage takes effect */
        sc[I].first = 2 + d;
        int o_first;
        int undef_o = 0;
        if (s->c[O].reciprocal)
            o_first = 1 + v <= resolve_i ? 2 + v + d : 1 + v;
        else {
            o_first = 2 + v + d;     /* its own Engage, on its first segment */
            undef_o = 1 + v + d;     /* Undefended against the initiator until then */
        }
        sc[O].first = o_first;
        sc[I].undefended_until = undef_o;
        sc[O].undefended_until = 0;
        for (int i = 0; i < 2; i++) {
            sc[i].period = per[i];
            sc[i].n = sc[i].first <= L ? (L - sc[i].first) / per[i] + 1 : 0;
            free(fall[i]);
            fall[i] = calloc((size_t)sc[i].n + 1, sizeof(double));
            if (!fall[i]) {
                free(fall[0]);
                free(fall[1]);
                return FRAY_ERR_NOMEM;
            }
        }
        /* fall[i][k]: combatant 1-i falls on i's k-th attack */
        fray_status rc;
        for (int i = 0; i < 2; i++)
            if ((rc = fall_times(s, i, 1 - i, &sc[i], fall[i], &out->states,
                                 &out->transitions)) != FRAY_OK) {
                free(fall[0]);
                free(fall[1]);
                return rc;
            }
        if (max_states > 0 && out->states > max_states) {
            free(fall[0]);
            free(fall[1]);
            return fray__diag_set(diag, FRAY_ERR_TOO_LARGE, 0,
                                  "the chain passed %ld states", max_states);
        }
        /* Who attacks first when both attack in one segment (ruling order). */
        int64_t ti[2];
        for (int i = 0; i < 2; i++)
            ti[i] = s->opt.order_file
                        ? 63 - i
                        : (int64_t)(s->c[i].b.agility + 64) * 4096 +
                              (int64_t)(7 - (i == I ? 0 : v)) * 64 + (63 - i);
        int lead = ti[0] > ti[1] ? 0 : 1;
        /* P(i's opponent falls at i's k-th attack) against the other's
         * tail: i wins when the opponent falls first. */
        double pw[2] = {0, 0};
        for (int i = 0; i < 2; i++) {
            int j = 1 - i;
            for (int k = 0; k < sc[i].n; k++) {
                if (fall[i][k] == 0.0)
                    continue;
                int t = sc[i].first + k * sc[i].period;
                /* j has not felled i before t (nor at t, attacking first) */
                double j_before = 0.0;
                for (int m = 0; m < sc[j].n; m++) {
                    int tj = sc[j].first + m * sc[j].period;
                    if (tj < t || (tj == t && lead == j))
                        j_before += fall[j][m];
                }
                double pr = fall[i][k] * (1.0 - j_before) / 6.0;
                pw[i] += pr;
                sum_len += pr * t;
                sum_len2 += pr * (double)t * t;
                int bin = t < FRAY_DUEL_LENGTH_BINS - 1 ? t : FRAY_DUEL_LENGTH_BINS - 1;
                out->length[bin] += pr;
            }
        }
        out->p_win[a == 0 ? 0 : 1] += pw[0];
        out->p_win[a == 0 ? 1 : 0] += pw[1];
        double n0 = 0, n1 = 0;
        for (int k = 0; k < sc[0].n; k++)
            n0 += fall[0][k];
        for (int k = 0; k < sc[1].n; k++)
            n1 += fall[1][k];
        out->p_unfinished += (1.0 - n0) * (1.0 - n1) / 6.0;
    }
    free(fall[0]);
    free(fall[1]);
    double ended = out->p_win[0] + out->p_win[1];
    if (ended > 0) {
        out->mean_length = sum_len / ended;
        double var = sum_len2 / ended - out->mean_length * out->mean_length;
        out->sd_length = var > 0 ? sqrt(var) : 0.0;
    }
    out->mass_error = fabs(1.0 - (out->p_win[0] + out->p_win[1] + out->p_unfinished));
    return FRAY_OK;
}

fray_status sw_duel_estimate(const sw_setup *s, int a, int b, double *out_states,
                             fray_diag *diag) {
    fray_duel_odds *o = calloc(1, sizeof *o);
    if (!o)
        return FRAY_ERR_NOMEM;
    fray_status rc = sw_duel_odds(s, a, b, 0, o, diag);
    *out_states = (double)o->states;
    free(o);
    return rc;
}
