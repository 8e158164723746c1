/*
 * tumble.c - moving through spaces (seed 000 "Moving Through Spaces",
 * "Creature Sizes"; issue 13, section 2):
 *
 *   - "You can move into a non-ally's space using the Acrobatics skill":
 *     a Combat Move or Reckless Move said to tumble (`tony move 6,2
 *     tumble dtn 12`) may pass through the spaces of standing non-allies,
 *     never end in one. Each non-ally whose space it enters takes an
 *     Acrobatics flip (the Use a Skill flip: rank, the skill's
 *     advantages and talents, a Tumble specialization; total with its
 *     Aspect) against the GM's DTN. A failed flip ends the move in the
 *     last space before that one where it may end (option tumble-fail:
 *     and prone); the phases are spent all the same.
 *   - "More than one tiny or smaller creature can fit into a single
 *     space. As long as the sizes added together are 1 or less": rooms in
 *     1/144ths of a space (ft_room); moving through while they add up to 1
 *     or less, ending (and standing: placement, the GM's place,
 *     knockback) while they add up to less than 1 (option share-end: 1 or
 *     less).
 *
 * engine.c asks these from its move search (occ_init), its check and its
 * walk; policy.c from its own search, gm.c and grapple.c where someone is
 * put in a space, fight.c for the words and render.c for the facts.
 */
#include "towers_int.h"

#include <stdio.h>
#include <strings.h>

static bool overlap(fray_footprint a, fray_footprint b) {
    return a.at.x < b.at.x + b.side && b.at.x < a.at.x + a.side &&
           a.at.y < b.at.y + b.side && b.at.y < a.at.y + a.side;
}

static bool covers(fray_footprint a, fray_pos p) {
    return p.x >= a.at.x && p.y >= a.at.y && p.x < a.at.x + a.side &&
           p.y < a.at.y + a.side;
}

/* The most the rooms in one space may add up to: passing (1 or less), or
 * ending (less than 1; option share-end: 1 or less). */
static int room_limit(const ft_setup *s, bool ending) {
    return ending && !s->opt.share_end_one ? FT_SPACE_ROOM - 1 : FT_SPACE_ROOM;
}

/* ---- Shared spaces ------------------------------------------------------- */

void ft_share_kinds(const ft_setup *s, int mover, int n,
                    const int8_t *who, const fray_footprint *fp,
                    uint8_t *kind) {
    int mine = ft_room(s->c[mover].sb.size_rank);
    if (mine >= FT_SPACE_ROOM)
        return; /* a whole space: nobody shares with it */
    for (int j = 0; j < n; j++) {
        if (kind[j] == FRAY_OCC_SELF || kind[j] == FRAY_OCC_EMPTY ||
            fp[j].side != 1)
            continue;
        /* Everyone in that space, and the mover. */
        int sum = mine;
        for (int k = 0; k < n && sum <= FT_SPACE_ROOM; k++)
            if (kind[k] != FRAY_OCC_SELF && covers(fp[k], fp[j].at))
                sum += fp[k].side != 1 ? FT_SPACE_ROOM
                                       : ft_room(s->c[who[k]].sb.size_rank);
        if (sum > FT_SPACE_ROOM)
            continue;
        kind[j] = (uint8_t)(sum <= room_limit(s, true) ? FRAY_OCC_EMPTY
                                                       : FRAY_OCC_ALLY);
    }
}

int ft_share_blocker(const ft_setup *s, const ft_state *st, int c,
                     fray_footprint fp, int except, unsigned skip,
                     bool ending) {
    int mine = ft_room(s->c[c].sb.size_rank);
    int first = -1, sum = mine;
    for (int i = 0; i < st->n; i++) {
        if (i == c || i == except ||
            (st->c[i].flags & (FT_F_FLED | skip)))
            continue;
        fray_footprint o = ft_fp(s, st, i);
        if (!overlap(fp, o))
            continue;
        if (first < 0)
            first = i;
        if (mine >= FT_SPACE_ROOM || fp.side != 1 || o.side != 1)
            return i; /* a whole space: no sharing */
        sum += ft_room(s->c[i].sb.size_rank);
    }
    return first >= 0 && sum > room_limit(s, ending) ? first : -1;
}

void ft_share_note(ft_run *r, int c) {
    const ft_setup *s = r->setup;
    const ft_state *st = r->st;
    if (!r->facts || ft_room(s->c[c].sb.size_rank) >= FT_SPACE_ROOM)
        return;
    fray_footprint fp = ft_fp(s, st, c);
    uint32_t with = 0;
    for (int i = 0; i < st->n; i++)
        if (i != c && !(st->c[i].flags & FT_F_FLED) &&
            overlap(fp, ft_fp(s, st, i)))
            with |= 1u << i;
    if (with)
        ft_emit(r, FT_FACT_SHARE, c, -1, fp.at.x, fp.at.y, (int)with, 0);
}

/* ---- The tumble's path --------------------------------------------------- */

int ft_tumble_path(const ft_setup *s, const ft_state *st, int c,
                   fray_pos dest, int max_cost, int parity, fray_pos *path,
                   int max, bool *out_can_stop) {
    /* Who stands where as engine.c occ_init sees them, but a standing
     * non-ally is passed through (TUMBLE: never ended in, and still
     * closing corners, seed 000 "Cutting Corners"). */
    int n = 0;
    int8_t who[FT_MAX_COMBATANTS] = {0};
    uint8_t kind[FT_MAX_COMBATANTS] = {0};
    fray_footprint fp[FT_MAX_COMBATANTS];
    memset(fp, 0, sizeof fp);
    for (int i = 0; i < st->n; i++) {
        if (st->c[i].flags & FT_F_FLED)
            continue;
        fray_occupant k = i == c                 ? FRAY_OCC_SELF
                          : ft_allies(s, i, c)   ? FRAY_OCC_ALLY
                          : !ft_can_act(st, i)   ? FRAY_OCC_PASSABLE
                                                 : FRAY_OCC_ENEMY;
        who[n] = (int8_t)i;
        kind[n] = (uint8_t)k;
        fp[n] = ft_fp(s, st, i);
        n++;
    }
    ft_share_kinds(s, c, n, who, fp, kind);
    for (int j = 0; j < n; j++)
        if (kind[j] == FRAY_OCC_ENEMY)
            kind[j] = FRAY_OCC_TUMBLE;
    /* (Only dest and its path are asked for: the search stops there.) */
    fray_reach_map m;
    fray__grid_reach_steps(&s->map, ft_steps(s), ft_fp(s, st, c), parity,
                           max_cost, fp, kind, n, dest, &m);
    *out_can_stop = false;
    if (!fray_grid_in(&s->map, dest) || m.cost[dest.y][dest.x] < 0)
        return -1;
    *out_can_stop = m.can_stop[dest.y][dest.x];
    return fray_grid_path(&m, dest, path, max);
}

/* ---- The check ----------------------------------------------------------- */

/* The skill Acrobatics in c's stat block, or -1. */
static int acrobatics(const ft_statblock *sb) {
    for (int i = 0; i < sb->n_skills; i++)
        if (strcasecmp(sb->skills[i].name, "Acrobatics") == 0)
            return i;
    return -1;
}

const char *ft_tumble_refusal(const ft_setup *s, const ft_state *st,
                              const ft_command *cmd, char *buf,
                              size_t size) {
    (void)st;
    int a = cmd->actor;
    if (cmd->action != FT_ACT_MOVE && cmd->action != FT_ACT_RECKLESS_MOVE)
        return "only a Combat Move or a Reckless Move tumbles";
    if (cmd->dtn < 1) {
        snprintf(buf, size, "a tumble needs the GM's DTN for %s's Acrobatics "
                 "flips (dtn N)", s->c[a].name);
        return buf;
    }
    if (acrobatics(&s->c[a].sb) < 0 && !s->opt.tumble_untrained) {
        snprintf(buf, size, "%s has no Acrobatics skill to tumble with "
                 "(option tumble-untrained: a flip of rank 0)", s->c[a].name);
        return buf;
    }
    return NULL;
}

/* ---- The walk: the Acrobatics flips -------------------------------------- */

/* The Acrobatics flip of mover a against the command's DTN; *out_total. */
static fray_status tumble_flip(ft_run *r, int a, int *out_total) {
    const ft_setup *s = r->setup;
    const ft_statblock *sb = &s->c[a].sb;
    int k = acrobatics(sb);
    int rank = 0, aspect = sb->aspects[FT_ASPECT_SS];
    int flip = 0, shift = 0;
    ft_cond_mods(r->st, a, FT_FLIP_SKILL, false, &flip, &shift);
    ft_skill_mods(sb, "Acrobatics", &flip, &shift);
    if (k >= 0) {
        const ft_skill *sk = &sb->skills[k];
        rank = sk->rank;
        aspect = sb->aspects[sk->aspect];
        /* A specialization that applies: (flip+1) (seed 001). */
        for (int i = 0; i < sk->n_specs; i++)
            if (strcasecmp(sk->specs[i], "Tumble") == 0 ||
                strcasecmp(sk->specs[i], "Tumbling") == 0)
                flip += 1;
    }
    int dtn = r->ev->cmd.dtn;
    fray_flip f;
    int total_shift = shift;
    fray_status rc = ft_flip(r, a, rank + flip, FT_FLIP_SKILL, shift,
                             dtn - aspect, &f, &total_shift);
    if (rc != FRAY_OK)
        return rc;
    *out_total = f.kept_value + aspect + total_shift;
    return FRAY_OK;
}

fray_status ft_tumble_step(ft_run *r, int mover, const fray_pos *path, int i, uint32_t *io_tumbled,
                           uint32_t *io_spared, int *out_end) {
    const ft_setup *s = r->setup;
    ft_state *st = r->st;
    *out_end = -2;
    fray_footprint old = ft_fp(s, st, mover), nw = old;
    nw.at = path[i];
    /* Tiny creatures sharing the space within its room: no flip. */
    if (ft_share_blocker(s, st, mover, nw, -1, 0, false) < 0)
        return FRAY_OK;
    for (int e = 0; e < st->n; e++) {
        if (e == mover || ((*io_tumbled >> e) & 1u) ||
            (st->c[e].flags & FT_F_FLED) || ft_allies(s, e, mover) ||
            !ft_can_act(st, e))
            continue;
        fray_footprint fe = ft_fp(s, st, e);
        if (!overlap(nw, fe) || overlap(old, fe))
            continue;
        int total;
        fray_status rc = tumble_flip(r, mover, &total);
        if (rc != FRAY_OK)
            return rc;
        int dtn = r->ev->cmd.dtn;
        bool pass = total >= dtn;
        ft_fact *f = ft_emit_fact(r, FT_FACT_TUMBLE, mover, e);
        if (f) {
            f->v[0] = total;
            f->v[1] = dtn;
            f->v[2] = pass;
            f->v[3] = path[i].x;
            f->v[4] = path[i].y;
        }
        if (pass) {
            *io_tumbled |= 1u << e;
            if (!s->opt.tumble_provokes)
                *io_spared |= 1u << e;
            continue;
        }
        /* Failed: back to the last space of the path before this one
         * where it may end its move (where it began, at worst). */
        int end = -1;
        for (int k = i - 1; k >= 0 && end < 0; k--) {
            fray_footprint at = old;
            at.at = path[k];
            if (ft_share_blocker(s, st, mover, at, -1, 0, true) < 0)
                end = k;
        }
        *out_end = end;
        if (s->opt.tumble_fail == FT_TUMBLE_FAIL_PRONE &&
            !ft_cond_has(st, mover, FT_COND_PRONE))
            ft_cond_add(r, mover, FT_COND_PRONE, 0, FT_UNTIL_REMOVED, -1, 0,
                        e);
        return FRAY_OK;
    }
    return FRAY_OK;
}

/* ---- The GM's DTN -------------------------------------------------------- */

fray_status ft_tumble_ask_dtn(const ft_setup *s, ft_command *cmd,
                              fray_diag *diag) {
    if (cmd->dtn > 0)
        return FRAY_OK;
    int a = cmd->actor;
    if (a < 0 || a >= s->n_combatants)
        return FRAY_OK; /* (the check says what is wrong) */
    /* gm-answers: Acrobatics by name, else the default; "none" is no
     * answer for a tumble (it needs a DTN). */
    int found = -1;
    for (int i = 0; i < s->n_dtn_answers && found < 0; i++)
        if (s->dtn_skill[i][0] &&
            strcasecmp(s->dtn_skill[i], "Acrobatics") == 0 &&
            s->dtn_value[i] != FT_GM_DTN_NONE)
            found = i;
    for (int i = 0; i < s->n_dtn_answers && found < 0; i++)
        if (!s->dtn_skill[i][0] && s->dtn_value[i] != FT_GM_DTN_NONE)
            found = i;
    if (found >= 0) {
        cmd->dtn = (int16_t)s->dtn_value[found];
        return FRAY_OK;
    }
    return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                          "the GM's question: the DTN for %s's Acrobatics, "
                          "to tumble through a non-ally's space? Answer with "
                          "'answer 12', or 'dtn 12' on the command, or in "
                          "the encounter file ('gm-answers: {skill-dtn: "
                          "{Acrobatics: 12}}')",
                          s->c[a].name);
}

/* ---- Facts in words and JSON --------------------------------------------- */

static const char *nm(const ft_setup *s, int c) {
    return c >= 0 && c < s->n_combatants ? s->c[c].name : "someone";
}

static size_t done(int n, size_t size) {
    if (n < 0)
        return 0;
    return (size_t)n < size ? (size_t)n : (size > 0 ? size - 1 : 0);
}

/* The names of the combatants of bits `with`: "A", "A and B", "A, B and C". */
static void names_of(const ft_setup *s, uint32_t with, bool ids, char *buf,
                     size_t size) {
    size_t len = 0;
    int k = 0, total = __builtin_popcount(with);
    buf[0] = '\0';
    for (int i = 0; i < 32 && i < s->n_combatants; i++) {
        if (!((with >> i) & 1u))
            continue;
        const char *sep = k == 0 ? "" : ids ? "," : k == total - 1 ? " and " : ", ";
        int n = ids ? snprintf(buf + len, size - len, "%s\"%s\"", sep, s->c[i].id)
                    : snprintf(buf + len, size - len, "%s%s", sep, s->c[i].name);
        if (n < 0 || (size_t)n >= size - len)
            return;
        len += (size_t)n;
        k++;
    }
}

size_t ft_tumble_fact_text(const ft_setup *s, const ft_fact *f, char *buf,
                           size_t size) {
    int n = -1;
    if (f->kind == FT_FACT_TUMBLE) {
        n = snprintf(buf, size,
                     "  %s tumbles into %s's space (%d,%d): Acrobatics %d "
                     "against DTN %d, %s\n",
                     nm(s, f->who), nm(s, f->target), f->v[3], f->v[4],
                     f->v[0], f->v[1],
                     f->v[2] ? "gets through" : "fails and stops");
    } else if (f->kind == FT_FACT_SHARE) {
        char with[512];
        names_of(s, (uint32_t)f->v[2], false, with, sizeof with);
        n = snprintf(buf, size, "  %s shares the space (%d,%d) with %s\n",
                     nm(s, f->who), f->v[0], f->v[1], with);
    }
    return done(n, size);
}

size_t ft_tumble_fact_json(const ft_setup *s, const ft_fact *f, char *buf,
                           size_t size) {
    int n = -1;
    const char *who = f->who >= 0 && f->who < s->n_combatants ? s->c[f->who].id
                                                              : "";
    if (f->kind == FT_FACT_TUMBLE) {
        const char *t = f->target >= 0 && f->target < s->n_combatants
                            ? s->c[f->target].id
                            : "";
        n = snprintf(buf, size,
                     ",\"who\":\"%s\",\"target\":\"%s\",\"total\":%d,"
                     "\"dtn\":%d,\"passes\":%s,\"space\":[%d,%d]",
                     who, t, f->v[0], f->v[1], f->v[2] ? "true" : "false",
                     f->v[3], f->v[4]);
    } else if (f->kind == FT_FACT_SHARE) {
        char with[1024];
        names_of(s, (uint32_t)f->v[2], true, with, sizeof with);
        n = snprintf(buf, size, ",\"who\":\"%s\",\"space\":[%d,%d],\"with\":[%s]",
                     who, f->v[0], f->v[1], with);
    }
    return done(n, size);
}
