/*
 * render.c - what a fight looks like to people and programs: narration of
 * an event for a GM, one JSON Lines object per event (docs/journal.md), the
 * 10x10 Combat Clock (seed 000 "Time Scales"; RULINGS 8), the tactical map
 * with the combatants' tokens, and the summary at the end.
 *
 * Everything here reads the setup, an event's recorded facts or the state;
 * nothing changes them. Every function writes like snprintf: at most size
 * bytes, NUL-terminated when size > 0 (buf may be NULL when size is 0), and
 * returns the length the whole text needs.
 */
#include "towers_int.h"
#include "view_build.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- A bounded text builder ---------------------------------------------- */

typedef struct txt {
    fray__text out;
    size_t pending; /* padding not written yet: dropped at the end of a
                       line, so that no line ends in blanks */
} txt;

static void txt_init(txt *t, char *buf, size_t size) {
    fray__text_init(&t->out, buf, size);
    t->pending = 0;
}

/* Writes the padding a line is owed, unless what follows ends the line. */
static void txt_flush_pad(txt *t, bool line_ends) {
    size_t k = t->pending;
    t->pending = 0;
    if (!line_ends)
        for (size_t i = 0; i < k; i++)
            fray__text_put(&t->out, " ", 1);
}

static void txt_put(txt *t, const char *s, size_t n) {
    if (n == 0)
        return;
    if (t->pending)
        txt_flush_pad(t, s[0] == '\n');
    fray__text_put(&t->out, s, n);
}

static void txt_s(txt *t, const char *s) { txt_put(t, s, strlen(s)); }

static void txt_c(txt *t, char c) { txt_put(t, &c, 1); }

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void txt_f(txt *t, const char *fmt, ...) {
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof tmp) {
        txt_put(t, tmp, (size_t)n);
        return;
    }
    /* Longer than the scratch buffer (long names): format straight into
     * the output. */
    if (t->pending)
        txt_flush_pad(t, false);
    va_start(ap, fmt);
    fray__text_vf(&t->out, fmt, ap);
    va_end(ap);
}

/* Pads with blanks up to column from + width (written only if something
 * follows on the line). */
static void txt_pad(txt *t, size_t from, size_t width) {
    if (t->out.len + t->pending < from + width)
        t->pending = from + width - t->out.len;
}

/* ---- Names in rules words ---------------------------------------------- */

static bool valid_c(const ft_setup *s, int c) {
    return c >= 0 && c < s->n_combatants;
}

static const char *cname(const ft_setup *s, int c) {
    return valid_c(s, c) ? s->c[c].name : "someone";
}

static const char *cid(const ft_setup *s, int c) {
    return valid_c(s, c) ? s->c[c].id : "?";
}

static const char *side_name(const ft_setup *s, int side) {
    return side >= 0 && side < s->n_sides ? s->sides[side] : "?";
}

static const char *action_text(int a) {
    if (a >= 0 && a < FT_ACTION_COUNT && ft_actions[a].text)
        return ft_actions[a].text;
    switch (a) {
    case FT_CMD_BEGIN: return "Initiative";
    case FT_CMD_PHASE: return "the clock moves on";
    default: return "an action";
    }
}

/* Names of actions as commands and files write them; our own table so that
 * the journal does not depend on anything but the ft_action order. */
static const char *const ACTION_NAMES[FT_ACTION_COUNT] = {
#define FT__E(id, name, text, cost, flags) name,
    FT_ACTION_LIST(FT__E)
#undef FT__E
};

static const char *action_name(int a) {
    if (a >= 0 && a < FT_ACTION_COUNT)
        return ACTION_NAMES[a];
    switch (a) {
    case FT_CMD_BEGIN: return "begin";
    case FT_CMD_PHASE: return "phase";
    default: return "?";
    }
}

static const char *const CONDITION_NAMES[FT_CONDITION_COUNT] = {
#define FT__E(id, name, major, has_x) name,
    FT_CONDITION_LIST(FT__E)
#undef FT__E
};

static const char *condition_name(int k) {
    return k >= 0 && k < FT_CONDITION_COUNT ? CONDITION_NAMES[k] : "?";
}

static const char *const ELEMENT_NAMES[FT_ELEMENT_COUNT] = {
#define FT__E(id, name) name,
    FT_ELEMENT_LIST(FT__E)
#undef FT__E
};

static const char *element_name(int e) {
    return e >= 0 && e < FT_ELEMENT_COUNT ? ELEMENT_NAMES[e] : "?";
}

static const char *chip_name(int colour) {
    switch (colour) {
    case 0: return "white";
    case 1: return "red";
    case 2: return "blue";
    default: return "?";
    }
}

static const char *purpose_name(int p) {
    switch (p) {
    case FT_FLIP_INITIATIVE: return "initiative";
    case FT_FLIP_TIEBREAK: return "tiebreak";
    case FT_FLIP_ATTACK: return "attack";
    case FT_FLIP_DEFENSE: return "defense";
    case FT_FLIP_DAMAGE: return "damage";
    case FT_FLIP_GRAPPLE: return "grapple";
    case FT_FLIP_SKILL: return "skill";
    case FT_FLIP_CHECK: return "check";
    default: return "?";
    }
}

/* The flip's name in narration. */
static const char *purpose_text(int p) {
    switch (p) {
    case FT_FLIP_INITIATIVE: return "initiative flip";
    case FT_FLIP_TIEBREAK: return "tie-break flip";
    case FT_FLIP_ATTACK: return "attack flip";
    case FT_FLIP_DEFENSE: return "defense flip";
    case FT_FLIP_DAMAGE: return "damage flip";
    case FT_FLIP_GRAPPLE: return "Grapple Test flip";
    case FT_FLIP_SKILL: return "skill flip";
    case FT_FLIP_CHECK: return "check";
    default: return "flip";
    }
}

static const char *choice_name(int k) {
    switch (k) {
    case FT_CHOICE_FATE_SWAP: return "fate-swap";
    case FT_CHOICE_FATE_REFLIP: return "fate-reflip";
    case FT_CHOICE_CHIP_SHIFT: return "chip-shift";
    case FT_CHOICE_CHIP_FLIP: return "chip-flip";
    case FT_CHOICE_OPPORTUNITY: return "opportunity";
    case FT_CHOICE_NONE: return "none";
    default: return "?";
    }
}

static const char *hold_kind_name(int k) {
    switch (k) {
    case FT_HOLD_PHASE: return "phase";
    case FT_HOLD_ENEMY_IN_REACH: return "enemy-in-reach";
    case FT_HOLD_ACTS: return "acts";
    case FT_HOLD_CHOOSE: return "choose";
    default: return "?";
    }
}

/* Status flags in the order they are told. */
static const struct {
    uint16_t flag;
    const char *name;  /* JSON */
    const char *text;  /* narration: "Bandit 1 ..." */
} STATUS_WORDS[] = {
    {FT_F_UNCONSCIOUS, "unconscious", "falls unconscious"},
    {FT_F_DISABLED, "disabled", "is disabled"},
    {FT_F_DYING, "dying", "is dying"},
    {FT_F_DEAD, "dead", "is dead"},
    {FT_F_FLED, "fled", "leaves the fight"},
    {FT_F_SURPRISED, "surprised", "is surprised"},
};
enum { N_STATUS_WORDS = sizeof STATUS_WORDS / sizeof STATUS_WORDS[0] };

static int max_stun(const ft_setup *s, int c) {
    int m = ft_max_stun(s, c);
    return m > 0 ? m : s->c[c].sb.max_stun;
}

static int max_lethal(const ft_setup *s, int c) {
    int m = ft_max_lethal(s, c);
    return m > 0 ? m : s->c[c].sb.max_lethal;
}

static const ft_weapon *weapon_of(const ft_setup *s, int c, int w) {
    if (!valid_c(s, c))
        return NULL;
    const ft_statblock *sb = &s->c[c].sb;
    if (w < 0)
        w = sb->wielded[0];
    if (w < 0 || w >= sb->n_weapons)
        return NULL;
    return &sb->weapons[w];
}

static void txt_card(txt *t, fray_card card, fray_card_style style) {
    char b[16];
    txt_s(t, fray_card_format(card, style, b));
}

static void txt_cards(txt *t, const uint8_t *cards, int n) {
    for (int i = 0; i < n; i++) {
        if (i)
            txt_c(t, ' ');
        txt_card(t, cards[i], FRAY_CARD_PRETTY);
    }
}

/* "(shift+1)", "(flip-1)", "(shift-1)(flip-1)" */
static void txt_mods(txt *t, int shift, int flip) {
    if (shift)
        txt_f(t, "(shift%+d)", shift);
    if (flip)
        txt_f(t, "(flip%+d)", flip);
}

/* ---- Narration ------------------------------------------------------------ */

typedef struct narr {
    const ft_setup *s;
    const ft_event *ev;
    txt *t;
    bool used[FT_EVENT_FACTS];
    bool hit_seen; /* damage after a hit "takes"; other damage "loses" */
    /* hide[c]: combatant c's STUN, LETHAL and mana are told as the view's
     * descriptors, never as numbers (issue 14; NULL: the GM's narration). */
    const bool *hide;
} narr;

static bool hidden(const narr *n, int c) {
    return n->hide && valid_c(n->s, c) && n->hide[c];
}

/* The card of a flip fact that was kept: the first card of the best value
 * (or the lowest when the flip kept the lowest), matching fray_flip. */
static int kept_index(const ft_setup *s, const ft_fact *f) {
    if (f->n_cards == 0)
        return -1;
    bool lowest = f->v[2] < 1 && f->n_cards > 1;
    int best = 0;
    int bv = fray_card_value(&s->opt.deck, f->cards[0]);
    for (int i = 1; i < f->n_cards; i++) {
        int v = fray_card_value(&s->opt.deck, f->cards[i]);
        if (lowest ? v < bv : v > bv) {
            bv = v;
            best = i;
        }
    }
    return best;
}

static void narr_modifier_list(narr *n, int who, int from, int to, bool *any) {
    for (int i = from; i < to; i++) {
        const ft_fact *m = &n->ev->facts[i];
        if (m->kind != FT_FACT_MODIFIER || m->who != who || n->used[i])
            continue;
        n->used[i] = true;
        txt_s(n->t, *any ? ", " : "; ");
        *any = true;
        txt_mods(n->t, m->v[0], m->v[1]);
        if (m->text[0])
            txt_f(n->t, " %.*s", (int)sizeof m->text, m->text);
    }
}

/* A flip fact and the modifiers of the same combatant around it. */
static void narr_flip(narr *n, int i) {
    const ft_fact *f = &n->ev->facts[i];
    txt *t = n->t;
    int from = i, to = i + 1;
    while (from > 0 && n->ev->facts[from - 1].kind == FT_FACT_MODIFIER &&
           n->ev->facts[from - 1].who == f->who && !n->used[from - 1])
        from--;
    while (to < n->ev->n_facts && n->ev->facts[to].kind == FT_FACT_MODIFIER &&
           n->ev->facts[to].who == f->who)
        to++;
    /* The same flip again after a Hand of Fate card or a chip. */
    bool again = false;
    if (i > 0 && (n->ev->facts[i - 1].kind == FT_FACT_FATE ||
                  n->ev->facts[i - 1].kind == FT_FACT_CHIP) &&
        n->ev->facts[i - 1].who == f->who) {
        for (int j = i - 1; j >= 0; j--) {
            const ft_fact *g = &n->ev->facts[j];
            if (g->kind == FT_FACT_FLIP && g->who == f->who &&
                g->v[0] == f->v[0]) {
                again = true;
                break;
            }
            if (g->kind == FT_FACT_HIT || g->kind == FT_FACT_MISS ||
                g->kind == FT_FACT_ACT || g->kind == FT_FACT_OPPORTUNITY)
                break;
        }
    }
    if (again)
        txt_f(t, "    %s now", purpose_text(f->v[0]));
    else
        txt_f(t, "  %s's %s", cname(n->s, f->who), purpose_text(f->v[0]));
    if (f->v[0] == FT_FLIP_DAMAGE) {
        int hearts = 0;
        for (int k = 0; k < f->n_cards; k++)
            hearts += fray_card_is_heart(f->cards[k]);
        txt_s(t, ": ");
        txt_cards(t, f->cards, f->n_cards);
        txt_f(t, ": %d Heart%s\n", hearts, hearts == 1 ? "" : "s");
        return;
    }
    /* n = rank + flip mods; below 1 it turns over 2 - n cards and keeps
     * the lowest (RULINGS 3). */
    if (f->v[2] >= 1 || f->n_cards <= 1)
        txt_f(t, " (%d card%s", f->n_cards, f->n_cards == 1 ? "" : "s");
    else
        txt_f(t, " (flip %d: %d cards", f->v[2], f->n_cards);
    bool any = false;
    narr_modifier_list(n, f->who, from, to, &any);
    txt_s(t, "): ");
    txt_cards(t, f->cards, f->n_cards);
    int k = kept_index(n->s, f);
    if (k >= 0) {
        txt_s(t, f->v[2] < 1 && f->n_cards > 1 ? ", keeps the lowest, "
                                               : ", keeps ");
        txt_card(t, f->cards[k], FRAY_CARD_PRETTY);
    }
    int shift = f->v[1] - f->v[3];
    if (shift)
        txt_f(t, " (%d) %+d = %d\n", f->v[3], shift, f->v[1]);
    else
        txt_f(t, " = %d\n", f->v[1]);
}

static void narr_status(narr *n, int c, int flags) {
    txt *t = n->t;
    txt_f(t, "  %s", cname(n->s, c));
    int k = 0;
    int count = 0;
    for (int i = 0; i < N_STATUS_WORDS; i++)
        count += (flags & STATUS_WORDS[i].flag) != 0;
    for (int i = 0; i < N_STATUS_WORDS; i++) {
        if (!(flags & STATUS_WORDS[i].flag))
            continue;
        txt_s(t, k == 0 ? " " : k == count - 1 ? " and " : ", ");
        txt_s(t, STATUS_WORDS[i].text);
        k++;
    }
    if (count == 0)
        txt_s(t, " is back in the fight");
    txt_c(t, '\n');
}

static void narr_hold_until(narr *n, int kind, int phase, int who, bool after) {
    txt *t = n->t;
    switch (kind) {
    case FT_HOLD_PHASE:
        txt_f(t, "until phase %d", phase);
        if (valid_c(n->s, who))
            txt_f(t, ", %s %s", after ? "after" : "before", cname(n->s, who));
        break;
    case FT_HOLD_ENEMY_IN_REACH:
        txt_s(t, "until an enemy comes within reach");
        break;
    case FT_HOLD_ACTS:
        txt_f(t, "until %s acts (%s)", cname(n->s, who),
              after ? "then acts right after" : "and acts first");
        break;
    case FT_HOLD_CHOOSE:
        txt_s(t, "until it chooses to act");
        break;
    default:
        txt_s(t, "for now");
    }
}

static void narr_end(narr *n, int v0, int phase) {
    const ft_setup *s = n->s;
    txt *t = n->t;
    if (s->duel.to && v0 != -1) {
        /* Seed 000 "Dueling": the loser of a duel may still stand. */
        if (v0 >= 0)
            txt_f(t, "The duel is over. Winner: %s, in phase %d\n",
                  side_name(s, v0), phase);
        else
            txt_f(t, "The duel is over: no victor (phase %d)\n", phase);
        return;
    }
    if (v0 >= 0) {
        /* Side names may be plural ("Bandits") or a single name ("Sir
         * Aldric"): worded so that either reads. */
        txt_s(t, "Out of the fight: ");
        int j = 0;
        for (int k = 0; k < s->n_sides; k++) {
            if (k == v0)
                continue;
            txt_s(t, j++ ? ", " : "");
            txt_s(t, side_name(s, k));
        }
        txt_f(t, ". Winner: %s, in phase %d\n", side_name(s, v0), phase);
    } else if (v0 == -2) {
        txt_f(t, "Every side is out of the fight: no winner (phase %d)\n",
              phase);
    } else {
        txt_f(t, "The fight stops at phase %d, the phase limit: no winner\n",
              phase);
    }
}

/* Seed 000 "Area of Effects" (area.c): the area and who is in it, each
 * defender's result, the one damage for all. */
static const char *const AREA_TEXT[FT_AREA_COUNT] = {
#define FT__E(id, name, text) text,
    FT_AREA_LIST(FT__E)
#undef FT__E
};
static const char *const AREA_NAME[FT_AREA_COUNT] = {
#define FT__E(id, name, text) name,
    FT_AREA_LIST(FT__E)
#undef FT__E
};
static const char *area_text(int shape) {
    return shape > 0 && shape < FT_AREA_COUNT ? AREA_TEXT[shape] : "Area";
}
static const char *area_name(int shape) {
    return shape > 0 && shape < FT_AREA_COUNT ? AREA_NAME[shape] : "?";
}

static void narr_area(narr *n, const ft_fact *f) {
    const ft_setup *s = n->s;
    txt *t = n->t;
    switch (f->kind) {
    case FT_FACT_AREA: {
        txt_f(t, "  %s %d ", area_text(f->v[0]), f->v[1]);
        if (f->v[0] == FT_AREA_AURA)
            txt_f(t, "around %s", cname(s, f->who));
        else
            txt_f(t, "%s (%d,%d)",
                  f->v[0] == FT_AREA_BURST ? "centred on" : "from", f->v[2],
                  f->v[3]);
        uint32_t bits = (uint32_t)f->v[4];
        int count = 0, k = 0;
        for (int i = 0; i < s->n_combatants && i < 32; i++)
            count += (int)((bits >> i) & 1u);
        txt_s(t, count ? " catches " : " catches nobody");
        for (int i = 0; i < s->n_combatants && i < 32; i++) {
            if (!((bits >> i) & 1u))
                continue;
            txt_s(t, k == 0 ? "" : k == count - 1 ? " and " : ", ");
            txt_s(t, cname(s, i));
            k++;
        }
        txt_c(t, '\n');
        break;
    }
    case FT_FACT_AREA_HIT:
        txt_f(t, "  %s: %s, %d against %d\n", cname(s, f->target),
              f->v[2] ? "hit" : "missed", f->v[0], f->v[1]);
        break;
    default: /* FT_FACT_AREA_DAMAGE */
        n->hit_seen = true;
        if (f->v[2] == 0)
            txt_s(t, "  nobody is hit\n");
        else if (f->v[1] > 0)
            txt_f(t, "  one damage for all: %d + %d Heart%s, less each "
                     "one's Resilience\n",
                  f->v[0], f->v[1], f->v[1] == 1 ? "" : "s");
        else
            txt_f(t, "  one damage for all: %d, less each one's "
                     "Resilience\n", f->v[0]);
        break;
    }
}

static void narr_fact(narr *n, int i) {
    const ft_setup *s = n->s;
    const ft_event *ev = n->ev;
    const ft_fact *f = &ev->facts[i];
    txt *t = n->t;
    if (n->used[i])
        return;
    n->used[i] = true;
    switch ((ft_fact_kind)f->kind) {
    case FT_FACT_INITIATIVE: {
        /* Seed 000 "Dueling", Stage Three: a Dueling check, not [N]. */
        txt_f(t, s->duel.to ? "Initiative (Focus: Dueling + Soft Strength): %s"
                            : "Initiative: %s",
              cname(s, f->who));
        for (int j = 0; j < ev->n_facts; j++) {
            const ft_fact *g = &ev->facts[j];
            if (g->kind == FT_FACT_FLIP && g->who == f->who &&
                g->v[0] == FT_FLIP_INITIATIVE && !n->used[j]) {
                n->used[j] = true;
                txt_s(t, " flips ");
                txt_cards(t, g->cards, g->n_cards);
                break;
            }
        }
        txt_f(t, " — Calculated Initiative %d, ", f->v[0]);
        if (f->v[2])
            txt_f(t, "surprised: acts first in phase %d\n", f->v[1]);
        else
            txt_f(t, "acts first in phase %d\n", f->v[1]);
        break;
    }
    case FT_FACT_PHASE:
        break; /* the header says it */
    case FT_FACT_ACT:
        /* An action inside another's event (rare): its own line. */
        txt_f(t, "  %s: %s", cname(s, f->who), action_text(f->v[0]));
        if (valid_c(s, f->target))
            txt_f(t, " on %s", cname(s, f->target));
        txt_f(t, " (next action phase %d)\n", f->v[2]);
        break;
    case FT_FACT_FLIP:
        if (f->v[0] == FT_FLIP_INITIATIVE)
            for (int j = i + 1; j < ev->n_facts; j++)
                if (ev->facts[j].kind == FT_FACT_INITIATIVE &&
                    ev->facts[j].who == f->who) {
                    n->used[i] = false; /* told on the Initiative line */
                    return;
                }
        narr_flip(n, i);
        break;
    case FT_FACT_MODIFIER: {
        /* Told with the flip that follows, when it is the same one's. */
        int j = i + 1;
        while (j < ev->n_facts && ev->facts[j].kind == FT_FACT_MODIFIER)
            j++;
        if (j < ev->n_facts && ev->facts[j].kind == FT_FACT_FLIP &&
            ev->facts[j].who == f->who) {
            n->used[i] = false;
            return;
        }
    }
        txt_f(t, "  %s: ", cname(s, f->who));
        txt_mods(t, f->v[0], f->v[1]);
        if (f->text[0])
            txt_f(t, " %.*s", (int)sizeof f->text, f->text);
        txt_c(t, '\n');
        break;
    case FT_FACT_FATE:
        /* cards[0] is the Hand of Fate card; cards[1] the card it replaced
         * (a swap) or the one new card flipped (a re-flip). */
        txt_f(t, "  %s ", cname(s, f->who));
        if (f->v[0] == FT_CHOICE_FATE_REFLIP) {
            txt_s(t, "discards ");
            if (f->n_cards > 0)
                txt_card(t, f->cards[0], FRAY_CARD_PRETTY);
            else
                txt_s(t, "a card");
            txt_s(t, " from the Hand of Fate and the whole flip, and flips "
                     "one new card");
            if (f->n_cards > 1) {
                txt_s(t, ": ");
                txt_card(t, f->cards[1], FRAY_CARD_PRETTY);
            }
        } else {
            txt_s(t, "plays ");
            if (f->n_cards > 0)
                txt_card(t, f->cards[0], FRAY_CARD_PRETTY);
            else
                txt_s(t, "a card");
            txt_s(t, " from the Hand of Fate");
            if (f->n_cards > 1) {
                txt_s(t, " in place of ");
                txt_card(t, f->cards[1], FRAY_CARD_PRETTY);
            }
        }
        txt_c(t, '\n');
        break;
    case FT_FACT_CHIP:
        /* v[1]: what for (FT_CHIP_FOR_*). */
        txt_f(t, "  %s spends a %s chip", cname(s, f->who), chip_name(f->v[0]));
        if (f->v[1] == FT_CHIP_FOR_HEAL)
            txt_s(t, " to heal");
        else if (f->v[1] == FT_CHIP_FOR_SHAKE)
            txt_s(t, " to shake off a minor condition");
        else if (f->v[1] == FT_CHIP_FOR_RECOVER)
            txt_s(t, " to recover from a major condition");
        else if (f->v[1] == FT_CHIP_FOR_SPEED)
            txt_s(t, " to double its Speed");
        else if (f->v[1] == FT_CHOICE_CHIP_SHIFT)
            txt_s(t, ": (shift+1)");
        else if (f->v[1] == FT_CHOICE_CHIP_FLIP)
            txt_s(t, ": (flip+1), one more card");
        txt_c(t, '\n');
        break;
    case FT_FACT_HIT:
        n->hit_seen = true;
        txt_f(t, "  hit: %d against %d", f->v[0], f->v[1]);
        if (f->v[3])
            txt_f(t, ", critical (%d Heart%s)", f->v[2], f->v[2] == 1 ? "" : "s");
        if (f->v[4] >= 0 && f->v[2] > 0)
            txt_f(t, "; damage %d + %d Heart%s", f->v[4], f->v[2],
                  f->v[2] == 1 ? "" : "s");
        else if (f->v[4] >= 0)
            txt_f(t, "; damage %d", f->v[4]);
        txt_c(t, '\n');
        break;
    case FT_FACT_MISS:
        txt_f(t, "  miss: %d against %d\n", f->v[0], f->v[1]);
        break;
    case FT_FACT_DAMAGE: {
        int c = f->target;
        if (hidden(n, c)) {
            /* Issue 14: what is left, as the view says it (view.c). */
            txt_f(t, "  %s %s %s; STUN %s, LETHAL %s\n", cname(s, c),
                  n->hit_seen ? "takes" : "loses",
                  f->v[0] && f->v[1] ? "STUN and LETHAL"
                  : f->v[1]          ? "LETHAL"
                                     : "STUN",
                  fray__view_descriptor(f->v[2], max_stun(s, c)),
                  fray__view_descriptor(f->v[3], max_lethal(s, c)));
            break;
        }
        txt_f(t, "  %s %s ", cname(s, c), n->hit_seen ? "takes" : "loses");
        if (f->v[0] && f->v[1])
            txt_f(t, "%d STUN and %d LETHAL", f->v[0], f->v[1]);
        else if (f->v[1])
            txt_f(t, "%d LETHAL", f->v[1]);
        else
            txt_f(t, "%d STUN", f->v[0]);
        if (valid_c(s, c))
            txt_f(t, "; %d/%d STUN, %d/%d LETHAL left\n", f->v[2],
                  max_stun(s, c), f->v[3], max_lethal(s, c));
        else
            txt_c(t, '\n');
        break;
    }
    case FT_FACT_HEAL:
        if (hidden(n, f->target)) { /* issue 14: no numbers */
            txt_f(t, "  %s recovers %s\n", cname(s, f->target),
                  f->v[0] && f->v[1] ? "STUN and LETHAL"
                  : f->v[1]          ? "LETHAL"
                                     : "STUN");
            break;
        }
        txt_f(t, "  %s recovers ", cname(s, f->target));
        if (f->v[0] && f->v[1])
            txt_f(t, "%d STUN and %d LETHAL\n", f->v[0], f->v[1]);
        else if (f->v[1])
            txt_f(t, "%d LETHAL\n", f->v[1]);
        else
            txt_f(t, "%d STUN\n", f->v[0]);
        break;
    case FT_FACT_STATUS:
        narr_status(n, f->target, f->v[0]);
        break;
    case FT_FACT_CONDITION_ON:
        txt_f(t, "  %s is %s", cname(s, f->target), condition_name(f->v[0]));
        if (f->v[1])
            txt_f(t, " %d", f->v[1]);
        txt_c(t, '\n');
        break;
    case FT_FACT_CONDITION_OFF:
        txt_f(t, "  %s is no longer %s\n", cname(s, f->target),
              condition_name(f->v[0]));
        break;
    case FT_FACT_MOVE:
        if (f->v[0] == f->v[2] && f->v[1] == f->v[3]) {
            /* (a tumble that failed at once, tumble.c; a mover stopped
             * before its first step) */
            txt_f(t, "  %s stays at (%d,%d)\n", cname(s, f->who), f->v[0],
                  f->v[1]);
            break;
        }
        txt_f(t, "  %s moves from (%d,%d) to (%d,%d)", cname(s, f->who),
              f->v[0], f->v[1], f->v[2], f->v[3]);
        if (f->v[4] > 0)
            txt_f(t, ", %d space%s", f->v[4], f->v[4] == 1 ? "" : "s");
        txt_c(t, '\n');
        break;
    case FT_FACT_OPPORTUNITY:
        n->hit_seen = false;
        txt_f(t, "  %s makes an opportunity attack on %s (%d phases later on "
                 "the clock)\n",
              cname(s, f->who), cname(s, f->target), f->v[0]);
        break;
    case FT_FACT_HOLD:
        txt_f(t, "  %s holds ", cname(s, f->who));
        narr_hold_until(n, f->v[0], f->v[1], f->target, f->v[2] != 0);
        txt_c(t, '\n');
        break;
    case FT_FACT_RELEASE:
        txt_f(t, "  %s comes out of Hold in phase %d\n", cname(s, f->who),
              f->v[0]);
        break;
    case FT_FACT_AMMO: {
        const ft_weapon *w = weapon_of(s, f->who, f->v[0]);
        txt_f(t, "  %s's %s: %d shot%s left\n", cname(s, f->who),
              w ? w->name : "weapon", f->v[1], f->v[1] == 1 ? "" : "s");
        break;
    }
    case FT_FACT_MANA:
        if (hidden(n, f->who)) { /* issue 14: resources are the GM's */
            txt_f(t, "  %s spends %s mana\n", cname(s, f->who),
                  element_name(f->v[0]));
            break;
        }
        txt_f(t, "  %s has %d %s mana\n", cname(s, f->who), f->v[1],
              element_name(f->v[0]));
        break;
    case FT_FACT_NOTE:
        txt_f(t, "  %.*s\n", (int)sizeof f->text, f->text);
        break;
    case FT_FACT_END:
        narr_end(n, f->v[0], f->v[1] > 0 ? f->v[1] : ev->phase);
        break;
    case FT_FACT_GM:
        break; /* the header says it (gm.c ft_gm_narrate) */
    case FT_FACT_AREA:
    case FT_FACT_AREA_HIT:
    case FT_FACT_AREA_DAMAGE:
        narr_area(n, f);
        break;
    case FT_FACT_SHOWDOWN: /* seed 000 "Dueling", seed 001 (duel.c) */
    case FT_FACT_LEARN:
    case FT_FACT_DUEL:
    case FT_FACT_OPPOSED: {
        char b[512];
        if (!ft_duel_fact_text(s, f, b, sizeof b))
            break;
        /* Issue 14: a duel's line that tells a hidden one's STUN and
         * LETHAL (learned, or held to the phase's end) keeps them. */
        if ((hidden(n, f->who) || hidden(n, f->target)) && strstr(b, " STUN"))
            txt_f(t, "  (%s's STUN and LETHAL: kept by the GM)\n",
                  cname(s, hidden(n, f->target) ? f->target : f->who));
        else
            txt_s(t, b);
        break;
    }
    case FT_FACT_TUMBLE: /* seed 000 "Moving Through Spaces" (tumble.c) */
    case FT_FACT_SHARE: {
        char b[1024];
        if (ft_tumble_fact_text(s, f, b, sizeof b))
            txt_s(t, b);
        break;
    }
    case FT_FACT_MARK:
        if (valid_c(s, f->target))
            txt_f(t, "  %s marks %s (its marked %s)\n", cname(s, f->who),
                  cname(s, f->target), f->v[2] == 1 ? "ally" : "non-ally");
        else
            txt_f(t, "  %s marks the space (%d,%d)\n", cname(s, f->who),
                  f->v[0], f->v[1]);
        break;
    case FT_FACT_TALENT: { /* issue 7 (talent.c) */
        const char *tn = valid_c(s, f->who) && f->v[0] >= 0 &&
                                 f->v[0] < s->c[f->who].sb.n_talents
                             ? s->c[f->who].sb.talents[f->v[0]].name
                             : "a talent";
        txt_f(t, "  %s uses %s", cname(s, f->who), tn);
        if (f->v[1] == FT_SPEND_HAND_OF_FATE && f->n_cards > 0) {
            txt_s(t, ", spending ");
            txt_card(t, f->cards[0], FRAY_CARD_PRETTY);
            txt_s(t, " from the Hand of Fate");
        } else if (f->v[1] == FT_SPEND_MARK && valid_c(s, f->target)) {
            txt_f(t, ", spending its mark on %s", cname(s, f->target));
        }
        txt_s(t, " (until its next activation)\n");
        break;
    }
    case FT_FACT_EXCHANGE:
        txt_f(t, "  Hand of Fate exchange for %s's deck (%s): ",
              cname(s, f->who),
              f->v[0] >= 0 && f->v[0] < s->n_decks ? s->deck_names[f->v[0]] : "?");
        if (f->n_cards >= 2) {
            txt_card(t, f->cards[0], FRAY_CARD_PRETTY);
            txt_s(t, " discarded, ");
            txt_card(t, f->cards[1], FRAY_CARD_PRETTY);
            txt_s(t, " drawn; now holds ");
            txt_cards(t, f->cards + 2, f->n_cards - 2);
        }
        txt_c(t, '\n');
        break;
    case FT_FACT_COUNT:
        break;
    }
}

/* "Phase 5, round 1 — Tony: Attack on Bandit 1 with the longblade (next
 * action phase 10)" */
static void narr_header(narr *n) {
    const ft_setup *s = n->s;
    const ft_event *ev = n->ev;
    const ft_command *cmd = &ev->cmd;
    txt *t = n->t;
    int act = -1;
    for (int i = 0; i < ev->n_facts; i++)
        if (ev->facts[i].kind == FT_FACT_ACT && ev->facts[i].who == cmd->actor) {
            act = i;
            break;
        }
    int phase = act >= 0 ? ev->facts[act].v[1] : ev->phase;
    txt_f(t, "Phase %d, round %d — %s", phase, phase / 10 + 1,
          cname(s, cmd->actor));
    if (act >= 0 && valid_c(s, ev->facts[act].v[3] - 1))
        txt_f(t, " (at %s's turn)", cname(s, ev->facts[act].v[3] - 1));
    txt_s(t, ": ");
    if (cmd->shift_first)
        txt_f(t, "Shift Position to (%d,%d), then ", cmd->shift_to.x,
              cmd->shift_to.y);
    if (cmd->stance)
        txt_s(t, cmd->stance == FT_STANCE_AGGRESSIVE ? "(aggressive stance) "
                                                     : "(defensive stance) ");
    txt_s(t, action_text(cmd->action));
    if (cmd->action == FT_ACT_MARK && cmd->mark_space)
        txt_f(t, " on (%d,%d)", cmd->dest.x, cmd->dest.y);
    if (valid_c(s, cmd->target))
        txt_f(t, " %s %s", cmd->action == FT_ACT_AID ? "against" : "on",
              cname(s, cmd->target));
    if (cmd->action == FT_ACT_AID && valid_c(s, cmd->ally))
        txt_f(t, " for %s", cname(s, cmd->ally));
    switch (cmd->action) {
    case FT_ACT_ATTACK:
    case FT_ACT_POWER_ATTACK:
    case FT_ACT_CHARGE:
    case FT_ACT_AID:
    case FT_ACT_CAST:
    case FT_ACT_RELOAD: {
        if (cmd->grapple_move) { /* seed 000 "Grappling" (grapple.c) */
            txt_f(t, ": %s", ft_grapple_move_name(cmd->grapple_move));
            if (cmd->grapple_move == FT_GM_THROW)
                txt_f(t, " at (%d,%d)", cmd->dest.x, cmd->dest.y);
            if (cmd->throw_land)
                txt_f(t, ", to land %s", ft_direction_name(cmd->throw_land - 1));
            break;
        }
        const ft_weapon *w = weapon_of(s, cmd->actor, cmd->weapon);
        if (w)
            txt_f(t, " with the %s%s", w->name,
                  cmd->off_hand ? " (off hand)" : "");
        if (cmd->at_space && w && w->area != FT_AREA_AURA)
            txt_f(t, " at (%d,%d)", cmd->dest.x, cmd->dest.y);
        break;
    }
    case FT_ACT_DRAW_WEAPON: {
        const ft_weapon *w = weapon_of(s, cmd->actor, cmd->weapon);
        const ft_weapon *w2 = cmd->draw_also > 0
                                  ? weapon_of(s, cmd->actor, cmd->draw_also - 1)
                                  : NULL;
        if (w && w2)
            txt_f(t, ": the %s and the %s", w->name, w2->name);
        else if (w)
            txt_f(t, ": the %s", w->name);
        break;
    }
    case FT_ACT_MOVE:
    case FT_ACT_RECKLESS_MOVE:
    case FT_ACT_RUNNING_LEAP:
    case FT_ACT_SHIFT:
        txt_f(t, " to (%d,%d)", cmd->dest.x, cmd->dest.y);
        if (cmd->tumble) /* tumble.c */
            txt_f(t, ", tumbling (DTN %d)", cmd->dtn);
        if (cmd->drop_prone)
            txt_s(t, ", dropping prone at the end");
        if (cmd->also > 0 && valid_c(s, cmd->also - 1))
            txt_f(t, ", then %s to (%d,%d)", cname(s, cmd->also - 1),
                  cmd->also_dest.x, cmd->also_dest.y);
        break;
    case FT_ACT_HOLD:
        txt_c(t, ' ');
        narr_hold_until(n, cmd->hold_kind, cmd->hold_phase, cmd->hold_who,
                        cmd->hold_after);
        break;
    case FT_ACT_SHAKE:
        if (cmd->condition >= 0)
            txt_f(t, " (%s)", condition_name(cmd->condition));
        break;
    case FT_ACT_CHIP_HEAL:
        txt_f(t, " (a %s chip, %s)", chip_name(cmd->chip),
              cmd->heal_lethal ? "LETHAL" : "STUN");
        break;
    case FT_ACT_TALENT: /* issue 7 */
        if (valid_c(s, cmd->actor) && cmd->talent > 0 &&
            cmd->talent <= s->c[cmd->actor].sb.n_talents)
            txt_f(t, ": %s", s->c[cmd->actor].sb.talents[cmd->talent - 1].name);
        break;
    default:
        break;
    }
    if (act >= 0) {
        const ft_fact *f = &ev->facts[act];
        n->used[act] = true;
        if (cmd->action == FT_ACT_HOLD)
            txt_s(t, " (off the clock while holding)");
        else if (f->v[2] == f->v[1] && cmd->action < FT_ACTION_COUNT &&
                 (ft_actions[cmd->action].cost == FT_COST_FREE ||
                  (cmd->action == FT_ACT_MARK &&
                   s->opt.mark_cost == FT_COST_FREE)))
            txt_s(t, " (free)");
        else if (f->v[2] > f->v[1])
            txt_f(t, " (%d phase%s: next action phase %d)", f->v[2] - f->v[1],
                  f->v[2] - f->v[1] == 1 ? "" : "s", f->v[2]);
        else
            txt_f(t, " (next action phase %d)", f->v[2]);
    }
    txt_c(t, '\n');
}

/* What an event had no room to keep is said, never silently dropped
 * (issue 11). */
static void narr_untold(txt *t, const ft_event *ev) {
    if (ev->facts_untold > 0)
        txt_f(t, "  (and %d more things that this event had no room to "
              "tell)\n", ev->facts_untold);
}

size_t ft_render_event(const ft_setup *s, const ft_event *ev, char *buf,
                       size_t size) {
    return ft_render_event_hidden(s, ev, NULL, buf, size);
}

size_t ft_render_event_hidden(const ft_setup *s, const ft_event *ev,
                              const bool *hide, char *buf, size_t size) {
    txt t;
    txt_init(&t, buf, size);
    narr n;
    memset(&n, 0, sizeof n);
    n.s = s;
    n.ev = ev;
    n.t = &t;
    n.hide = hide;
    int nf = ev->n_facts < FT_EVENT_FACTS ? ev->n_facts : FT_EVENT_FACTS;
    switch (ev->cmd.action) {
    case FT_CMD_BEGIN:
        break; /* one "Initiative:" line per combatant */
    case FT_CMD_PHASE: {
        /* The clock moves on. A step with nothing but the arrival tells
         * nothing the next action's header does not: it narrates as
         * nothing (length 0). Otherwise each phase that had effects gets
         * its own "Phase 10 (zero phase):" line before them. */
        int pending = -1;
        for (int i = 0; i < nf; i++) {
            const ft_fact *f = &ev->facts[i];
            if (f->kind == FT_FACT_PHASE) {
                pending = i;
                continue;
            }
            if (pending >= 0) {
                const ft_fact *p = &ev->facts[pending];
                txt_f(&t, "Phase %d%s:\n", p->v[0],
                      p->v[1] ? " (zero phase)" : "");
                pending = -1;
            }
            narr_fact(&n, i);
        }
        narr_untold(&t, ev);
        return t.out.len;
    }
    default:
        if (ev->cmd.action < FT_ACTION_COUNT &&
            (ft_actions[ev->cmd.action].flags & FT_AF_GM) &&
            ev->cmd.action != FT_ACT_EXCHANGE) { /* (a player's: issue 7) */
            char line[256];
            if (ev->cmd.action == FT_ACT_GM_SET && hidden(&n, ev->cmd.actor))
                /* Issue 14: the GM's change, not its numbers. */
                txt_f(&t, "Phase %d, round %d — The GM changes %s's "
                      "numbers (kept by the GM).\n", (int)ev->phase,
                      (int)ev->phase / 10 + 1, cname(s, ev->cmd.actor));
            else {
                ft_gm_narrate(s, ev, line, sizeof line);
                txt_s(&t, line);
            }
        } else {
            narr_header(&n);
        }
    }
    for (int i = 0; i < nf; i++)
        narr_fact(&n, i);
    narr_untold(&t, ev);
    return t.out.len;
}

/* ---- JSON Lines (docs/journal.md) ----------------------------------------- */

static void js_str(txt *t, const char *s, size_t max) {
    txt_c(t, '"');
    for (size_t i = 0; i < max && s[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': txt_s(t, "\\\""); break;
        case '\\': txt_s(t, "\\\\"); break;
        case '\n': txt_s(t, "\\n"); break;
        case '\r': txt_s(t, "\\r"); break;
        case '\t': txt_s(t, "\\t"); break;
        default:
            if (c < 0x20 || c == 0x7f)
                txt_f(t, "\\u%04x", c);
            else
                txt_c(t, (char)c);
        }
    }
    txt_c(t, '"');
}

static void js_key(txt *t, const char *key) {
    txt_f(t, ",\"%s\":", key);
}

static void js_kstr(txt *t, const char *key, const char *v) {
    js_key(t, key);
    js_str(t, v, (size_t)-1);
}

static void js_kint(txt *t, const char *key, long v) {
    txt_f(t, ",\"%s\":%ld", key, v);
}

static void js_kbool(txt *t, const char *key, bool v) {
    txt_f(t, ",\"%s\":%s", key, v ? "true" : "false");
}

static void js_kpos(txt *t, const char *key, int x, int y) {
    txt_f(t, ",\"%s\":[%d,%d]", key, x, y);
}

/* A combatant by id; null when none. */
static void js_kwho(txt *t, const ft_setup *s, const char *key, int c) {
    js_key(t, key);
    if (valid_c(s, c))
        js_str(t, cid(s, c), FT_NAME);
    else
        txt_s(t, "null");
}

static void js_card(txt *t, fray_card card) {
    char b[16];
    txt_c(t, '"');
    txt_s(t, fray_card_format(card, FRAY_CARD_PLAIN, b));
    txt_c(t, '"');
}

/*
 * The command, every field that differs from the default the replay reader
 * assumes (docs/journal.md "command"), so that replay rebuilds the exact
 * command.
 */
static void js_command(txt *t, const ft_setup *s, const ft_command *c) {
    txt_s(t, "{\"action\":");
    js_str(t, action_name(c->action), (size_t)-1);
    if (c->action >= FT_ACTION_COUNT) {
        /* The engine's own steps read nothing else. */
        txt_c(t, '}');
        return;
    }
    if (valid_c(s, c->actor))
        js_kwho(t, s, "actor", c->actor);
    if (valid_c(s, c->target))
        js_kwho(t, s, "target", c->target);
    if (valid_c(s, c->ally))
        js_kwho(t, s, "ally", c->ally);
    if (c->weapon >= 0)
        js_kint(t, "weapon", c->weapon);
    if (c->off_hand)
        js_kbool(t, "off_hand", true);
    if (c->shift_first) {
        js_kbool(t, "shift_first", true);
        js_kpos(t, "shift_to", c->shift_to.x, c->shift_to.y);
    }
    int a = c->action;
    bool dest = a < FT_ACTION_COUNT ? (ft_actions[a].flags & FT_AF_DEST) != 0
                                    : false;
    if (a == FT_ACT_MOVE || a == FT_ACT_CHARGE || a == FT_ACT_RECKLESS_MOVE ||
        a == FT_ACT_RUNNING_LEAP || a == FT_ACT_SHIFT)
        dest = true;
    if (dest || c->dest.x || c->dest.y)
        js_kpos(t, "dest", c->dest.x, c->dest.y);
    if (a == FT_ACT_HOLD || c->hold_kind || c->hold_phase || c->hold_after) {
        js_kint(t, "hold_kind", c->hold_kind);
        js_kint(t, "hold_phase", c->hold_phase);
        js_kint(t, "hold_after", c->hold_after);
    }
    if (valid_c(s, c->hold_who))
        js_kwho(t, s, "hold_who", c->hold_who);
    if (c->cost)
        js_kint(t, "cost", c->cost);
    if (c->skill >= 0)
        js_kint(t, "skill", c->skill);
    if (c->dtn)
        js_kint(t, "dtn", c->dtn);
    if (c->draw_also > 0)
        js_kint(t, "off_weapon", c->draw_also - 1);
    if (c->drop_prone)
        js_kbool(t, "drop_prone", true);
    if (c->tumble) /* tumble.c */
        js_kbool(t, "tumble", true);
    if (c->charge_via)
        js_kpos(t, "via", c->via.x, c->via.y);
    if (c->skill_spec > 0)
        js_kint(t, "specialization", c->skill_spec - 1);
    if (c->at_space)
        js_kbool(t, "at_space", true);
    if (c->opposed) /* seed 001 (duel.c) */
        js_kbool(t, "opposed", true);
    if (c->opp_skill > 0)
        js_kint(t, "target_skill", c->opp_skill - 1);
    if (c->opp_aspect > 0)
        js_kint(t, "target_aspect", c->opp_aspect - 1);
    if (c->opp_attribute > 0)
        js_kint(t, "target_attribute", c->opp_attribute - 1);
    if (c->stance)
        js_kstr(t, "stance", c->stance == FT_STANCE_AGGRESSIVE ? "aggressive"
                                                               : "defensive");
    if (c->also > 0 && valid_c(s, c->also - 1)) {
        js_kwho(t, s, "also", c->also - 1);
        js_kpos(t, "also_dest", c->also_dest.x, c->also_dest.y);
    }
    if (c->mark_space)
        js_kbool(t, "mark_space", true);
    if (c->grapple_move)
        js_kint(t, "grapple_move", c->grapple_move);
    if (c->throw_land)
        js_kint(t, "throw_land", c->throw_land);
    if (c->chip >= 0)
        js_kint(t, "chip", c->chip);
    if (c->heal_lethal)
        js_kbool(t, "heal_lethal", true);
    if (c->talent > 0) /* issue 7 */
        js_kint(t, "talent", c->talent - 1);
    if (c->card > 0) {
        js_key(t, "card");
        js_card(t, (fray_card)(c->card - 1));
    }
    if (c->condition >= 0)
        js_kint(t, "condition", c->condition);
    if (c->element)
        js_kint(t, "element", c->element);
    /* The GM's commands (gm.c) */
    if (c->gm_track)
        js_kint(t, "gm_track", c->gm_track);
    if (c->gm_adjust)
        js_kbool(t, "gm_adjust", true);
    if (c->gm_value)
        js_kint(t, "gm_value", c->gm_value);
    if (c->gm_cond)
        js_kint(t, "gm_condition", c->gm_cond - 1);
    if (c->gm_off)
        js_kbool(t, "gm_off", true);
    if (c->gm_count)
        js_kint(t, "gm_count", c->gm_count);
    if (c->gm_phase)
        js_kint(t, "gm_phase", c->gm_phase - 1);
    if (c->gm_flip)
        js_kint(t, "gm_flip", c->gm_flip);
    if (c->gm_shift)
        js_kint(t, "gm_shift", c->gm_shift);
    /* issue 7: the GM's answers on the command (gm.c). */
    if (c->gm_high)
        js_kint(t, "gm_high_ground", c->gm_high);
    if (c->gm_all_hold)
        js_kint(t, "gm_all_hold", c->gm_all_hold);
    if (c->gm_limit)
        js_kint(t, "gm_strength_limit", c->gm_limit);
    txt_c(t, '}');
}

/* The area facts' JSON (area.c). */
static void js_area(txt *t, const ft_setup *s, const ft_fact *f) {
    js_kwho(t, s, "who", f->who);
    if (f->kind == FT_FACT_AREA) {
        js_kstr(t, "shape", area_name(f->v[0]));
        js_kint(t, "size", f->v[1]);
        if (f->v[0] != FT_AREA_AURA)
            js_kpos(t, "centre", f->v[2], f->v[3]);
        txt_s(t, ",\"caught\":[");
        uint32_t bits = (uint32_t)f->v[4];
        int k = 0;
        for (int i = 0; i < s->n_combatants && i < 32; i++)
            if ((bits >> i) & 1u) {
                if (k++)
                    txt_c(t, ',');
                js_str(t, cid(s, i), FT_NAME);
            }
        txt_c(t, ']');
    } else if (f->kind == FT_FACT_AREA_HIT) {
        js_kwho(t, s, "target", f->target);
        js_kint(t, "attack", f->v[0]);
        js_kint(t, "defense", f->v[1]);
        js_kbool(t, "hit", f->v[2] != 0);
    } else {
        js_kint(t, "damage", f->v[0]);
        js_kint(t, "hearts", f->v[1]);
        js_kint(t, "hit", f->v[2]);
    }
}

static void js_fact(txt *t, const ft_setup *s, const ft_fact *f) {
    static const char *const FACT_NAMES[FT_FACT_COUNT] = {
#define FT__E(id, name) name,
        FT_FACT_LIST(FT__E)
#undef FT__E
    };
    txt_s(t, "{\"fact\":");
    js_str(t, f->kind < FT_FACT_COUNT ? FACT_NAMES[f->kind] : "?", (size_t)-1);
    switch ((ft_fact_kind)f->kind) {
    case FT_FACT_INITIATIVE:
        js_kwho(t, s, "who", f->who);
        js_kint(t, "ci", f->v[0]);
        js_kint(t, "phase", f->v[1]);
        js_kbool(t, "surprised", f->v[2] != 0);
        break;
    case FT_FACT_PHASE:
        js_kint(t, "phase", f->v[0]);
        js_kbool(t, "zero", f->v[1] != 0);
        break;
    case FT_FACT_ACT:
        js_kwho(t, s, "who", f->who);
        js_kstr(t, "action", action_name(f->v[0]));
        if (valid_c(s, f->target))
            js_kwho(t, s, "target", f->target);
        js_kint(t, "phase", f->v[1]);
        js_kint(t, "next_phase", f->v[2]);
        break;
    case FT_FACT_FLIP:
        js_kwho(t, s, "who", f->who);
        js_kstr(t, "purpose", purpose_name(f->v[0]));
        js_kint(t, "n", f->v[2]);
        js_kint(t, "kept", f->v[3]);
        if (f->v[0] == FT_FLIP_DAMAGE) {
            js_kint(t, "hearts", f->v[1]);
        } else {
            js_kint(t, "shift", f->v[4]);
            js_kint(t, "total", f->v[1]);
        }
        txt_s(t, ",\"cards\":[");
        for (int i = 0; i < f->n_cards && i < 12; i++) {
            if (i)
                txt_c(t, ',');
            js_card(t, f->cards[i]);
        }
        txt_c(t, ']');
        break;
    case FT_FACT_MODIFIER:
        js_kwho(t, s, "who", f->who);
        js_kint(t, "shift", f->v[0]);
        js_kint(t, "flip", f->v[1]);
        js_key(t, "reason");
        js_str(t, f->text, sizeof f->text);
        break;
    case FT_FACT_FATE:
        js_kwho(t, s, "who", f->who);
        js_kstr(t, "choice", choice_name(f->v[0]));
        if (f->n_cards > 0) {
            js_key(t, "card");
            js_card(t, f->cards[0]);
        }
        if (f->n_cards > 1) {
            js_key(t, f->v[0] == FT_CHOICE_FATE_REFLIP ? "new_card" : "replaced");
            js_card(t, f->cards[1]);
        }
        break;
    case FT_FACT_CHIP:
        js_kwho(t, s, "who", f->who);
        js_kstr(t, "chip", chip_name(f->v[0]));
        js_kstr(t, "use", f->v[1] == FT_CHIP_FOR_HEAL    ? "heal"
                          : f->v[1] == FT_CHIP_FOR_SHAKE ? "shake"
                          : f->v[1] == FT_CHIP_FOR_RECOVER ? "recover"
                          : f->v[1] == FT_CHIP_FOR_SPEED ? "speed"
                          : f->v[1] == FT_CHIP_FOR_FLIP  ? "flip+1"
                                                         : "shift+1");
        break;
    case FT_FACT_HIT:
    case FT_FACT_MISS:
        js_kwho(t, s, "who", f->who);
        js_kwho(t, s, "target", f->target);
        js_kint(t, "attack", f->v[0]);
        js_kint(t, "defense", f->v[1]);
        if (f->kind == FT_FACT_HIT) {
            js_kint(t, "hearts", f->v[2]);
            js_kbool(t, "critical", f->v[3] != 0);
            if (f->v[4] >= 0)
                js_kint(t, "damage", f->v[4]);
        }
        break;
    case FT_FACT_DAMAGE:
        js_kwho(t, s, "target", f->target);
        js_kint(t, "stun", f->v[0]);
        js_kint(t, "lethal", f->v[1]);
        js_kint(t, "stun_left", f->v[2]);
        js_kint(t, "lethal_left", f->v[3]);
        break;
    case FT_FACT_HEAL:
        js_kwho(t, s, "target", f->target);
        js_kint(t, "stun", f->v[0]);
        js_kint(t, "lethal", f->v[1]);
        break;
    case FT_FACT_STATUS: {
        js_kwho(t, s, "target", f->target);
        txt_s(t, ",\"status\":[");
        int k = 0;
        for (int i = 0; i < N_STATUS_WORDS; i++)
            if (f->v[0] & STATUS_WORDS[i].flag) {
                if (k++)
                    txt_c(t, ',');
                js_str(t, STATUS_WORDS[i].name, (size_t)-1);
            }
        txt_c(t, ']');
        break;
    }
    case FT_FACT_CONDITION_ON:
        js_kwho(t, s, "target", f->target);
        js_kstr(t, "condition", condition_name(f->v[0]));
        js_kint(t, "x", f->v[1]);
        break;
    case FT_FACT_CONDITION_OFF:
        js_kwho(t, s, "target", f->target);
        js_kstr(t, "condition", condition_name(f->v[0]));
        break;
    case FT_FACT_MOVE:
        js_kwho(t, s, "who", f->who);
        js_kpos(t, "from", f->v[0], f->v[1]);
        js_kpos(t, "to", f->v[2], f->v[3]);
        if (f->v[4] > 0)
            js_kint(t, "spaces", f->v[4]);
        break;
    case FT_FACT_OPPORTUNITY:
        js_kwho(t, s, "who", f->who);
        js_kwho(t, s, "target", f->target);
        break;
    case FT_FACT_HOLD:
        js_kwho(t, s, "who", f->who);
        js_kstr(t, "kind", hold_kind_name(f->v[0]));
        if (f->v[0] == FT_HOLD_PHASE)
            js_kint(t, "phase", f->v[1]);
        if (valid_c(s, f->target))
            js_kwho(t, s, "until", f->target);
        js_kbool(t, "after", f->v[2] != 0);
        break;
    case FT_FACT_RELEASE:
        js_kwho(t, s, "who", f->who);
        js_kint(t, "phase", f->v[0]);
        break;
    case FT_FACT_AMMO:
        js_kwho(t, s, "who", f->who);
        js_kint(t, "weapon", f->v[0]);
        js_kint(t, "shots", f->v[1]);
        break;
    case FT_FACT_MANA:
        js_kwho(t, s, "who", f->who);
        js_kstr(t, "element", element_name(f->v[0]));
        js_kint(t, "mana", f->v[1]);
        break;
    case FT_FACT_NOTE:
        js_key(t, "text");
        js_str(t, f->text, sizeof f->text);
        break;
    case FT_FACT_END:
        js_key(t, "winner");
        if (f->v[0] >= 0 && f->v[0] < s->n_sides)
            js_str(t, side_name(s, f->v[0]), FT_NAME);
        else
            txt_s(t, "null");
        js_kint(t, "phase", f->v[1]);
        js_kstr(t, "result", f->v[0] >= 0    ? "win"
                             : f->v[0] == -2 ? "all-out"
                                             : "phase-limit");
        break;
    case FT_FACT_GM: {
        /* The GM's word (gm.c): what it changed. */
        static const char *const TRACKS[FT_GM_TRACK_COUNT] = {
            "", "stun", "lethal", "temp_stun", "temp_lethal"};
        js_kwho(t, s, "who", f->who);
        js_kstr(t, "action", action_name(f->v[0]));
        if (f->v[0] == FT_ACT_GM_SET) {
            js_kstr(t, "track", f->v[1] > 0 && f->v[1] < FT_GM_TRACK_COUNT
                                    ? TRACKS[f->v[1]]
                                    : "?");
            js_kint(t, "now", f->v[2]);
            js_kint(t, "was", f->v[3]);
        } else if (f->v[0] == FT_ACT_GM_CONDITION) {
            js_kstr(t, "condition", condition_name(f->v[1]));
            js_kbool(t, "on", f->v[2] != 0);
            js_kint(t, "x", f->v[3]);
        } else if (f->v[0] == FT_ACT_GM_JOIN) {
            js_kbool(t, "initiative", f->v[1] != 0);
            if (!f->v[1])
                js_kint(t, "phase", f->v[2]);
            js_kint(t, "from_phase", f->v[3]);
        }
        break;
    }
    case FT_FACT_AREA:
    case FT_FACT_AREA_HIT:
    case FT_FACT_AREA_DAMAGE:
        js_area(t, s, f);
        break;
    case FT_FACT_SHOWDOWN: /* seed 000 "Dueling", seed 001 (duel.c) */
    case FT_FACT_LEARN:
    case FT_FACT_DUEL:
    case FT_FACT_OPPOSED: {
        char b[512];
        if (ft_duel_fact_json(s, f, b, sizeof b))
            txt_s(t, b);
        break;
    }
    case FT_FACT_TUMBLE: /* seed 000 "Moving Through Spaces" (tumble.c) */
    case FT_FACT_SHARE: {
        char b[1536];
        if (ft_tumble_fact_json(s, f, b, sizeof b))
            txt_s(t, b);
        break;
    }
    case FT_FACT_TALENT: /* issue 7 (talent.c) */
        js_kwho(t, s, "who", f->who);
        if (valid_c(s, f->who) && f->v[0] >= 0 &&
            f->v[0] < s->c[f->who].sb.n_talents)
            js_kstr(t, "talent", s->c[f->who].sb.talents[f->v[0]].name);
        js_kstr(t, "spend", f->v[1] == FT_SPEND_HAND_OF_FATE ? "hand-of-fate"
                            : f->v[1] == FT_SPEND_MARK       ? "mark"
                                                             : "none");
        if (f->v[1] == FT_SPEND_HAND_OF_FATE && f->n_cards > 0) {
            js_key(t, "card");
            js_card(t, f->cards[0]);
        }
        if (valid_c(s, f->target))
            js_kwho(t, s, "target", f->target);
        break;
    case FT_FACT_EXCHANGE:
        js_kwho(t, s, "who", f->who);
        js_kstr(t, "deck", f->v[0] >= 0 && f->v[0] < s->n_decks
                               ? s->deck_names[f->v[0]]
                               : "?");
        if (f->n_cards >= 2) {
            js_key(t, "discarded");
            js_card(t, f->cards[0]);
            js_key(t, "drawn");
            js_card(t, f->cards[1]);
            js_key(t, "hand");
            txt_c(t, '[');
            for (int i = 2; i < f->n_cards; i++) {
                if (i > 2)
                    txt_c(t, ',');
                js_card(t, f->cards[i]);
            }
            txt_c(t, ']');
        }
        break;
    case FT_FACT_MARK:
        js_kwho(t, s, "who", f->who);
        if (valid_c(s, f->target))
            js_kwho(t, s, "target", f->target);
        else
            js_kpos(t, "space", f->v[0], f->v[1]);
        js_kstr(t, "type", f->v[2] == 1 ? "ally" : f->v[2] == 2 ? "non-ally"
                                                               : "space");
        break;
    case FT_FACT_COUNT:
        break;
    }
    txt_c(t, '}');
}

size_t ft_render_event_json(const ft_setup *s, const ft_event *ev, char *buf,
                            size_t size) {
    txt t;
    txt_init(&t, buf, size);
    txt_f(&t, "{\"event\":%d,\"phase\":%d,\"command\":", (int)ev->number,
          (int)ev->phase);
    js_command(&t, s, &ev->cmd);
    if (ev->cards_given)
        js_kbool(&t, "cards_given", true);
    if (ev->flip_off_rounds)
        js_kbool(&t, "flip_off_rounds", true);
    txt_s(&t, ",\"cards\":[");
    int nc = ev->n_cards < FT_EVENT_CARDS ? ev->n_cards : FT_EVENT_CARDS;
    for (int i = 0; i < nc; i++) {
        if (i)
            txt_c(&t, ',');
        txt_c(&t, '[');
        js_card(&t, ev->cards[i]);
        txt_f(&t, ",%d]", ev->card_deck[i]);
    }
    txt_s(&t, "],\"choices\":[");
    int nch = ev->n_choices < FT_EVENT_CHOICES ? ev->n_choices : FT_EVENT_CHOICES;
    for (int i = 0; i < nch; i++) {
        const ft_choice *c = &ev->choices[i];
        if (i)
            txt_c(&t, ',');
        txt_f(&t, "{\"kind\":%d", c->kind);
        js_kstr(&t, "choice", choice_name(c->kind));
        js_kwho(&t, s, "who", c->who);
        js_kint(&t, "a", c->a);
        js_kint(&t, "b", c->b);
        if ((c->kind == FT_CHOICE_FATE_SWAP || c->kind == FT_CHOICE_FATE_REFLIP) &&
            c->b >= 0 && c->b < FRAY_CARDS_MAX) {
            js_key(&t, "card");
            js_card(&t, (fray_card)c->b);
        }
        txt_c(&t, '}');
    }
    txt_s(&t, "],\"facts\":[");
    int nf = ev->n_facts < FT_EVENT_FACTS ? ev->n_facts : FT_EVENT_FACTS;
    for (int i = 0; i < nf; i++) {
        if (i)
            txt_c(&t, ',');
        js_fact(&t, s, &ev->facts[i]);
    }
    txt_s(&t, "]}");
    return t.out.len;
}

/* ---- Status words shared by the clock, the map and the summary ----------- */

static bool out_of_fight(const ft_cstate *c) {
    return (c->flags & (FT_F_UNCONSCIOUS | FT_F_DISABLED | FT_F_DYING |
                        FT_F_DEAD | FT_F_FLED)) != 0;
}

static const char *status_word(const ft_cstate *c) {
    if (c->flags & FT_F_DEAD)
        return "dead";
    if (c->flags & FT_F_WAITING)
        return "joins later"; /* (gm.c) */
    if (c->flags & FT_F_FLED)
        return "fled";
    if (c->flags & FT_F_DYING)
        return "dying";
    if (c->flags & (FT_F_UNCONSCIOUS | FT_F_DISABLED))
        return "unconscious";
    if (c->flags & FT_F_HOLDING)
        return "holding";
    return "standing";
}

static void txt_conditions(txt *t, const ft_cstate *c, const char *sep) {
    int n = c->n_cond < FT_MAX_CONDITIONS ? c->n_cond : FT_MAX_CONDITIONS;
    for (int i = 0; i < n; i++) {
        txt_s(t, i ? ", " : sep);
        txt_s(t, condition_name(c->cond[i].kind));
        if (c->cond[i].value)
            txt_f(t, " %d", c->cond[i].value);
    }
}

/* A companion's master and the marks a combatant holds (seed 000
 * "Companions and Minions", "Marked Targets"): ", companion of Ranger,
 * marks Bandit 1 and (3,4)". */
static void txt_marks(txt *t, const ft_setup *s, int i, const ft_cstate *c) {
    if (valid_c(s, s->c[i].master - 1))
        txt_f(t, ", companion of %s", cname(s, s->c[i].master - 1));
    const char *sep = ", marks ";
    if (valid_c(s, c->mark_ally - 1)) {
        txt_f(t, "%s%s", sep, cname(s, c->mark_ally - 1));
        sep = " and ";
    }
    if (valid_c(s, c->mark_foe - 1)) {
        txt_f(t, "%s%s", sep, cname(s, c->mark_foe - 1));
        sep = " and ";
    }
    if (c->mark_space_set)
        txt_f(t, "%s(%d,%d)", sep, c->mark_space.x, c->mark_space.y);
}

static void txt_vitals(txt *t, const ft_setup *s, const ft_state *st, int i) {
    const ft_cstate *c = &st->c[i];
    size_t at = t->out.len + t->pending;
    txt_f(t, "STUN %d/%d", c->stun + c->temp_stun, max_stun(s, i));
    txt_pad(t, at, 13);
    txt_f(t, "LETHAL %d/%d", c->lethal + c->temp_lethal, max_lethal(s, i));
    txt_pad(t, at, 26);
}

static int n_shown(const ft_setup *s, const ft_state *st) {
    int n = st->n < s->n_combatants ? st->n : s->n_combatants;
    return n < FT_MAX_COMBATANTS ? (n < 0 ? 0 : n) : FT_MAX_COMBATANTS;
}

static size_t name_width(const ft_setup *s, int n) {
    size_t w = 4;
    for (int i = 0; i < n; i++) {
        size_t l = strlen(s->c[i].name);
        if (l > w)
            w = l;
    }
    return w;
}

/* ---- The Combat Clock ----------------------------------------------------- */

/* Combatants in acting order: by next phase, then slot, then index; those
 * off the clock (out of the fight, holding) last. */
static int clock_order(const ft_setup *s, const ft_state *st, int *order) {
    int n = n_shown(s, st);
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++) {
        int k = order[i];
        int j = i - 1;
        for (; j >= 0; j--) {
            const ft_cstate *a = &st->c[order[j]], *b = &st->c[k];
            bool a_off = out_of_fight(a) || (a->flags & FT_F_HOLDING);
            bool b_off = out_of_fight(b) || (b->flags & FT_F_HOLDING);
            bool after;
            if (a_off != b_off)
                after = a_off;
            else if (a->phase != b->phase)
                after = a->phase > b->phase;
            else
                after = a->slot > b->slot;
            if (!after)
                break;
            order[j + 1] = order[j];
        }
        order[j + 1] = k;
    }
    return n;
}

size_t ft_render_clock(const ft_setup *s, const ft_state *st, char *buf,
                       size_t size) {
    txt t;
    txt_init(&t, buf, size);
    int order[FT_MAX_COMBATANTS];
    int n = clock_order(s, st, order);
    int now = st->phase < 0 ? 0 : st->phase;
    int base = now / 10 * 10;
    txt_f(&t, "Combat Clock, round %d: phases %d-%d, now phase %d\n",
          base / 10 + 1, base, base + 99, now);
    txt_s(&t, "       ");
    for (int col = 0; col < 10; col++) {
        size_t at = t.out.len + t.pending;
        txt_f(&t, " +%d", col);
        txt_pad(&t, at, 6);
    }
    txt_c(&t, '\n');
    for (int row = 0; row < 10; row++) {
        int first = base + row * 10;
        txt_f(&t, "%5d |", first);
        for (int col = 0; col < 10; col++) {
            int p = first + col;
            char cell[5] = {0};
            int k = 0, count = 0;
            for (int j = 0; j < n; j++) {
                const ft_cstate *c = &st->c[order[j]];
                if (out_of_fight(c) || (c->flags & (FT_F_HOLDING | FT_F_RIDING)) ||
                    c->phase != p)
                    continue;
                count++;
                if (k < 3)
                    cell[k++] = s->c[order[j]].symbol ? s->c[order[j]].symbol : '?';
            }
            if (count > 3)
                cell[3] = '+';
            if (count == 0)
                cell[0] = '.';
            size_t at = t.out.len + t.pending;
            if (p == now)
                txt_c(&t, '[');
            else
                txt_pad(&t, at, 1);
            txt_s(&t, cell);
            txt_pad(&t, at, 5);
            if (p == now)
                txt_c(&t, ']');
            else
                txt_pad(&t, at, 6);
        }
        txt_c(&t, '\n');
    }
    size_t w = name_width(s, n);
    for (int j = 0; j < n; j++) {
        int i = order[j];
        const ft_cstate *c = &st->c[i];
        txt_f(&t, "  %c  ", s->c[i].symbol ? s->c[i].symbol : '?');
        size_t at = t.out.len + t.pending;
        txt_s(&t, s->c[i].name);
        txt_pad(&t, at, w + 2);
        at = t.out.len + t.pending;
        if (out_of_fight(c))
            txt_s(&t, status_word(c));
        else if (c->flags & FT_F_HOLDING)
            txt_s(&t, "holding");
        else if ((c->flags & FT_F_RIDING) && valid_c(s, c->master - 1))
            txt_f(&t, "with %c", s->c[c->master - 1].symbol);
        else
            txt_f(&t, "phase %d", c->phase);
        txt_pad(&t, at, 12);
        txt_vitals(&t, s, st, i);
        txt_conditions(&t, c, "  ");
        txt_c(&t, '\n');
    }
    return t.out.len;
}

/* ---- The tactical map ----------------------------------------------------- */

size_t ft_render_map(const ft_setup *s, const ft_state *st, char *buf,
                     size_t size) {
    txt t;
    txt_init(&t, buf, size);
    if (!s->has_map) {
        txt_s(&t, "(no map)\n");
        return t.out.len;
    }
    int n = n_shown(s, st);
    fray_grid_token tokens[2 * FT_MAX_COMBATANTS];
    int nt = 0;
    /* The fallen first, so that anyone standing on them is drawn on top:
     * '%' for the dead, the symbol in the other case (T -> t, g -> G) for
     * the unconscious and dying. */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            const ft_cstate *c = &st->c[i];
            if (c->flags & FT_F_FLED)
                continue;
            bool down = out_of_fight(c);
            if (down != (pass == 0))
                continue;
            char sym = s->c[i].symbol ? s->c[i].symbol : '?';
            if (c->flags & FT_F_DEAD)
                sym = '%';
            else if (down && sym >= 'A' && sym <= 'Z')
                sym = (char)(sym - 'A' + 'a');
            else if (down && sym >= 'a' && sym <= 'z')
                sym = (char)(sym - 'a' + 'A');
            tokens[nt].fp = ft_footprint(s, st, i);
            tokens[nt].fp.at = c->pos;
            tokens[nt].symbol = sym;
            nt++;
        }
    /* Seed 000 "Creature Sizes" (tumble.c): a space two or more standing
     * creatures share is drawn '+' (the list below says who). */
    bool shared = false;
    for (int i = 0; i < n && !s->eng.no_tiny; i++)
        for (int j = i + 1; j < n; j++) {
            const ft_cstate *a = &st->c[i], *b = &st->c[j];
            if (((a->flags | b->flags) & FT_F_FLED) || out_of_fight(a) ||
                out_of_fight(b) || a->pos.x != b->pos.x ||
                a->pos.y != b->pos.y || nt >= 2 * FT_MAX_COMBATANTS)
                continue;
            tokens[nt].fp = ft_footprint(s, st, i);
            tokens[nt].symbol = '+';
            nt++;
            shared = true;
        }
    /* The grid's own drawing (at most 64 rows of 64 spaces and a few
     * header characters: it always fits the scratch buffer). */
    char art[(FRAY_GRID_MAX + 8) * (FRAY_GRID_MAX + 3)];
    size_t need = fray_grid_draw(&s->map, tokens, nt, art, sizeof art);
    txt_put(&t, art, need < sizeof art ? need : sizeof art - 1);
    size_t w = name_width(s, n), sw = 0;
    for (int k = 0; k < s->n_sides; k++)
        if (strlen(s->sides[k]) > sw)
            sw = strlen(s->sides[k]);
    for (int i = 0; i < n; i++) {
        const ft_cstate *c = &st->c[i];
        txt_f(&t, "  %c  ", s->c[i].symbol ? s->c[i].symbol : '?');
        size_t at = t.out.len + t.pending;
        txt_s(&t, s->c[i].name);
        txt_pad(&t, at, w + 2);
        at = t.out.len + t.pending;
        txt_s(&t, side_name(s, s->c[i].side));
        txt_pad(&t, at, sw);
        if (c->flags & FT_F_FLED)
            txt_s(&t, "  off the map");
        else
            txt_f(&t, "  at (%d,%d)", c->pos.x, c->pos.y);
        txt_f(&t, ", %s", status_word(c));
        txt_conditions(&t, c, ", ");
        txt_marks(&t, s, i, c);
        txt_c(&t, '\n');
    }
    if (n > 0)
        txt_s(&t, "  (letter in the other case: unconscious or dying; %: dead)\n");
    if (shared)
        txt_s(&t, "  (+: creatures Tiny or smaller sharing a space)\n");
    /* The terrain the map holds. */
    bool seen[FRAY_TERRAIN_COUNT] = {false};
    bool raised = false;
    for (int y = 0; y < s->map.h && y < FRAY_GRID_MAX; y++)
        for (int x = 0; x < s->map.w && x < FRAY_GRID_MAX; x++) {
            int tr = s->map.terrain[y][x];
            if (tr >= 0 && tr < FRAY_TERRAIN_COUNT)
                seen[tr] = true;
            if (tr == FRAY_TERRAIN_OPEN && s->map.elevation[y][x] > 0)
                raised = true;
        }
    static const char TERRAIN_SYMBOL[FRAY_TERRAIN_COUNT] = {'.', '#', '~', '=', 'v'};
    txt_s(&t, "  terrain:");
    for (int k = 0; k < FRAY_TERRAIN_COUNT; k++)
        if (seen[k])
            txt_f(&t, " %c %s", TERRAIN_SYMBOL[k],
                  fray_terrain_name((fray_terrain)k));
    if (raised)
        txt_s(&t, " 1-9 high ground (levels)");
    txt_c(&t, '\n');
    return t.out.len;
}

/* ---- The summary ------------------------------------------------------------ */

size_t ft_render_summary(const ft_setup *s, const ft_state *st,
                         fray_status failed, char *buf, size_t size) {
    txt t;
    txt_init(&t, buf, size);
    int n = n_shown(s, st);
    size_t w = name_width(s, n);
    for (int side = 0; side < s->n_sides; side++) {
        txt_f(&t, "%s\n", side_name(s, side));
        for (int i = 0; i < n; i++) {
            if (s->c[i].side != side)
                continue;
            const ft_cstate *c = &st->c[i];
            txt_s(&t, "  ");
            size_t at = t.out.len + t.pending;
            txt_s(&t, s->c[i].name);
            txt_pad(&t, at, w + 2);
            at = t.out.len + t.pending;
            txt_s(&t, status_word(c));
            txt_pad(&t, at, 13);
            txt_vitals(&t, s, st, i);
            txt_f(&t, "  actions %2d  dealt %d STUN, %d LETHAL", c->actions,
                  c->stun_dealt, c->lethal_dealt);
            txt_conditions(&t, c, "  ");
            txt_marks(&t, s, i, c);
            txt_c(&t, '\n');
        }
    }
    if (failed != FRAY_OK)
        txt_f(&t, "The fight cannot go on: a step failed (%s) in phase %d.\n",
              fray_strerror(failed), st->phase);
    else if (st->over && st->winner >= 0)
        txt_f(&t, "Winner: %s, in phase %d.\n", side_name(s, st->winner),
              st->phase);
    else if (st->over && st->winner == -2 && s->duel.to)
        txt_f(&t, "The duel ended in phase %d with no victor.\n",
              st->phase); /* seed 000 "Dueling" (duel.c) */
    else if (st->over && st->winner == -2)
        txt_f(&t, "Every side is out of the fight in phase %d: no winner.\n",
              st->phase);
    else if (st->over)
        txt_f(&t, "The fight stopped at phase %d: no winner.\n", st->phase);
    else
        txt_f(&t, "The fight goes on (phase %d).\n", st->phase);
    return t.out.len;
}
