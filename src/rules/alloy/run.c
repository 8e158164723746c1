/*
 * run.c - running one Alloy event: dice given by hand, replayed or drawn;
 * choices; facts; conditions on a combatant (alloy_int.h).
 */
#include "alloy_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void fa_fail(fa_run *r, fray_status st) {
    if (r->failed == FRAY_OK)
        r->failed = st;
}

fray_status fa_refuse(char *why, size_t size, const char *fmt, ...) {
    if (why && size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, size, fmt, ap);
        va_end(ap);
    }
    return FRAY_ERR_INVALID;
}

int fa_roll(fa_run *r, int sides, fa_die_purpose purpose, int who) {
    if (r->failed != FRAY_OK)
        return 0;
    if (sides < 2 || sides > 100) {
        fa_fail(r, FRAY_ERR_INVALID);
        return 0;
    }
    if (r->ev->n_dice >= FA_EVENT_DICE) {
        fa_fail(r, FRAY_ERR_RANGE);
        return 0;
    }
    int value;
    if (r->replay) {
        /* The recorded die: given ones are taken as they were; drawn ones
         * are drawn again and must match (the same stream). */
        if (r->replay_die >= r->replay->n_dice) {
            fa_fail(r, FRAY_ERR_INVALID);
            return 0;
        }
        const fa_die *d = &r->replay->dice[r->replay_die++];
        if (d->sides != sides || d->value < 1 || d->value > sides) {
            fa_fail(r, FRAY_ERR_INVALID);
            return 0;
        }
        if (r->replay->dice_given) {
            value = d->value;
        } else {
            value = (int)fray_rng_below(&r->st->rng, (uint32_t)sides) + 1;
            if (value != d->value) {
                fa_fail(r, FRAY_ERR_INVALID);
                return 0;
            }
        }
    } else if (r->given && r->used_given < r->n_given) {
        value = r->given[r->used_given];
        if (value < 1 || value > sides) {
            r->bad_sides = sides;
            fa_fail(r, FRAY_ERR_INVALID);
            return 0;
        }
        r->used_given++;
        r->ev->dice_given = true;
    } else if (r->given) {
        /* Dice were given by hand but too few: the table asked for every
         * die (a command either rolls all its dice by hand or none). */
        fa_fail(r, FRAY_ERR_INVALID);
        return 0;
    } else {
        value = (int)fray_rng_below(&r->st->rng, (uint32_t)sides) + 1;
    }
    fa_die *d = &r->ev->dice[r->ev->n_dice++];
    d->sides = (uint8_t)sides;
    d->value = (uint8_t)value;
    d->purpose = (uint8_t)purpose;
    d->who = (int8_t)who;
    return value;
}

int fa_roll_dice(fa_run *r, fa_dice d, fa_die_purpose purpose, int who) {
    int sum = 0;
    for (int i = 0; i < d.n; i++)
        sum += fa_roll(r, d.sides, purpose, who);
    return sum;
}

int fa_choose(fa_run *r, fa_choice_kind kind, int who, int other, int made) {
    if (r->failed != FRAY_OK)
        return made;
    int value = made;
    if (r->replay) {
        if (r->replay_choice >= r->replay->n_choices) {
            fa_fail(r, FRAY_ERR_INVALID);
            return made;
        }
        const fa_choice *c = &r->replay->choices[r->replay_choice++];
        if (c->kind != kind || c->who != who || c->other != other) {
            fa_fail(r, FRAY_ERR_INVALID);
            return made;
        }
        value = c->value;
    }
    if (r->ev->n_choices >= FA_EVENT_CHOICES) {
        fa_fail(r, FRAY_ERR_RANGE);
        return value;
    }
    fa_choice *c = &r->ev->choices[r->ev->n_choices++];
    c->kind = (uint8_t)kind;
    c->who = (int8_t)who;
    c->other = (int8_t)other;
    c->value = (int8_t)value;
    return value;
}

void fa_fact_add(fa_run *r, fa_fact_kind kind, int who, int target,
                 int32_t v0, int32_t v1, int32_t v2, int32_t v3) {
    if (!r->facts)
        return;
    if (r->ev->n_facts >= FA_EVENT_FACTS) {
        if (r->ev->facts_untold < INT16_MAX)
            r->ev->facts_untold++;
        return;
    }
    fa_fact *f = &r->ev->facts[r->ev->n_facts++];
    memset(f, 0, sizeof *f);
    f->kind = (uint8_t)kind;
    f->who = (int8_t)who;
    f->target = (int8_t)target;
    f->v[0] = v0;
    f->v[1] = v1;
    f->v[2] = v2;
    f->v[3] = v3;
}

void fa_fact_more(fa_run *r, int32_t v4, int32_t v5) {
    if (!r->facts || r->ev->n_facts == 0 || r->ev->facts_untold > 0)
        return;
    fa_fact *f = &r->ev->facts[r->ev->n_facts - 1];
    f->v[4] = v4;
    f->v[5] = v5;
}

/* ---- Conditions ------------------------------------------------------------ */

/* (The lists are the core's, src/core/cond.h; Alloy's rule for the same
 * effect put twice: one entry per kind, source and target, the new
 * replacing the old.) */
static void recompute(fa_cstate *c) {
    c->has = fray__cond_mask(c->cond, c->n_cond);
}

const fa_cond *fa_cond_find(const fa_cstate *c, fa_cond_kind kind,
                            int other) {
    if (!fa_has(c, kind))
        return NULL;
    int i = fray__cond_find(c->cond, c->n_cond, (int)kind, other);
    return i >= 0 ? &c->cond[i] : NULL;
}

fray_status fa_cond_add(fa_run *r, int who, fa_cond cond) {
    fa_cstate *c = &r->st->c[who];
    bool had = fa_has(c, (fa_cond_kind)cond.kind);
    for (int i = 0; i < c->n_cond; i++)
        if (c->cond[i].kind == cond.kind && c->cond[i].source == cond.source &&
            c->cond[i].other == cond.other) {
            fa_cond_counted(r->st, &c->cond[i], -1);
            c->cond[i] = cond; /* the same effect again: the new one replaces it */
            fa_cond_counted(r->st, &cond, +1);
            recompute(c);
            return FRAY_OK;
        }
    fray_status rc = fray__cond_append(c->cond, &c->n_cond, FA_MAX_CONDS, cond);
    if (rc != FRAY_OK) {
        fa_fail(r, rc);
        return rc;
    }
    fa_cond_counted(r->st, &cond, +1);
    recompute(c);
    if (!had)
        fa_fact_add(r, FA_FACT_COND_ON, who, cond.source, cond.kind,
                    cond.ends, cond.value, 0);
    return FRAY_OK;
}

void fa_cond_remove(fa_run *r, int who, fa_cond_kind kind, int other) {
    fa_cstate *c = &r->st->c[who];
    if (!fa_has(c, kind))
        return;
    int i;
    while ((i = fray__cond_find(c->cond, c->n_cond, (int)kind, other)) >= 0) {
        fa_cond_counted(r->st, &c->cond[i], -1);
        fray__cond_drop(c->cond, &c->n_cond, i);
    }
    recompute(c);
    if (!fa_has(c, kind))
        fa_fact_add(r, FA_FACT_COND_OFF, who, -1, (int32_t)kind, 0, 0, 0);
}
