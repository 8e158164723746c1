/*
 * names.c - whom an Alloy event names (alloy_int.h fa_event_names; the
 * layer's fray_event_names, issue 14 "never GM-only data"): every
 * combatant its command, its dice, its choices and its facts point at,
 * by index, so that a player's log can leave out an event about a
 * combatant the player does not see whatever words its narration uses.
 */
#include "alloy_int.h"

#include <string.h>

static void name_one(const fa_setup *s, int c, bool *named) {
    if (c >= 0 && c < s->n)
        named[c] = true;
}

int fa_event_names(const fa_setup *s, const fa_event *e, bool *named) {
    memset(named, 0, (size_t)s->n * sizeof *named);
    const fa_command *c = &e->cmd;
    name_one(s, c->actor, named);
    for (int i = 0; i < c->n_targets && i < FA_MAX_TARGETS; i++)
        name_one(s, c->targets[i], named);
    if (c->kind == FA_CMD_READY) {
        name_one(s, c->ready.who, named);
        name_one(s, c->ready.target, named);
    }
    for (int i = 0; i < s->n && i < 32; i++)
        if ((c->decline >> i) & 1u)
            named[i] = true;
    for (int i = 0; i < e->n_dice && i < FA_EVENT_DICE; i++)
        name_one(s, e->dice[i].who, named);
    for (int i = 0; i < e->n_choices && i < FA_EVENT_CHOICES; i++) {
        name_one(s, e->choices[i].who, named);
        name_one(s, e->choices[i].other, named);
    }
    for (int i = 0; i < e->n_facts && i < FA_EVENT_FACTS; i++) {
        const fa_fact *f = &e->facts[i];
        name_one(s, f->who, named);
        name_one(s, f->target, named);
        if (f->kind == FA_FACT_COVER_STRUCK) /* v0: the original target */
            name_one(s, f->v[0], named);
    }
    int n = 0;
    for (int i = 0; i < s->n; i++)
        n += named[i];
    return n;
}
