/*
 * names.c - whom a 99 Towers event names (towers_int.h ft_event_names;
 * the layer's fray_event_names, issue 14 "never GM-only data"): every
 * combatant its command, its choices and its facts point at, by index,
 * so that a player's log can leave out an event about a combatant the
 * player does not see whatever words its narration uses.
 */
#include "towers_int.h"

#include <string.h>

static void name_one(const ft_setup *s, int c, bool *named) {
    if (c >= 0 && c < s->n_combatants)
        named[c] = true;
}

static void name_bits(const ft_setup *s, int32_t bits, bool *named) {
    for (int i = 0; i < s->n_combatants && i < 32; i++)
        if (((uint32_t)bits >> i) & 1u)
            named[i] = true;
}

int ft_event_names(const ft_setup *s, const ft_event *e, bool *named) {
    memset(named, 0, (size_t)s->n_combatants * sizeof *named);
    const ft_command *c = &e->cmd;
    /* A begin or a move of the clock reads nothing of its command (its
     * facts say whom they tell of); every other command has its actor,
     * and its other combatants are -1 when it names none (as its JSON
     * says, render.c). */
    if (c->action < FT_ACTION_COUNT) {
        name_one(s, c->actor, named);
        name_one(s, c->target, named);
        name_one(s, c->ally, named);
        name_one(s, c->hold_who, named);
        if (c->also > 0)
            name_one(s, c->also - 1, named);
    } else if (c->action != FT_CMD_BEGIN && c->action != FT_CMD_PHASE) {
        name_one(s, c->actor, named);
    }
    for (int i = 0; i < e->n_choices && i < FT_EVENT_CHOICES; i++)
        name_one(s, e->choices[i].who, named);
    for (int i = 0; i < e->n_facts && i < FT_EVENT_FACTS; i++) {
        const ft_fact *f = &e->facts[i];
        name_one(s, f->who, named);
        name_one(s, f->target, named);
        switch (f->kind) {
        case FT_FACT_ACT: /* v[3]: 1 + the one whose turn it acts at */
            if (f->v[3] > 0)
                name_one(s, f->v[3] - 1, named);
            break;
        case FT_FACT_AREA: /* v[4]: who is in the area */
            name_bits(s, f->v[4], named);
            break;
        case FT_FACT_SHARE: /* v[2]: the others in the space */
            name_bits(s, f->v[2], named);
            break;
        default:
            break;
        }
    }
    int n = 0;
    for (int i = 0; i < s->n_combatants; i++)
        n += named[i];
    return n;
}
