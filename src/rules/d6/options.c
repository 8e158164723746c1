/*
 * options.c - seed 003's attack options (docs/rules/d6.md "Attack
 * options"): all-out, lunge, sweep, called shots by the size of what is
 * aimed at, a blind attacker, a blind target or one attacked from behind.
 * The table of combat difficulty modifiers is data: each entry's printed
 * die modifier and its printed standard value side by side, never one
 * derived from the other (rulesets-checklists D7.1). rules.c applies
 * them through the modifier path (modifiers: standard | roll, 003:3) and
 * the floor of 3 (003:2).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "d6_int.h"

/* 003:27-35, Fighting, Melee Combat (the options built here). */
static const d6_modifier_row option_rows[D6_OPT_KINDS] = {
    {"", "", 0, 0, 0, 0},
    {"all-out", "All-out", -2, -6, 1, 0},  /* 003:29 */
    {"lunge", "Lunge", 1, 3, -1, 0},       /* 003:31 */
    {"sweep", "Sweep", -2, -6, -3, 0},     /* 003:34 */
    {"knockdown", "Knockdown, trip", 2, 6, 0, 0}, /* 003:32: no damage (003:8) */
    {"push", "Push", 1, 3, 0, 0},          /* 003:33: no damage (003:8) */
    {"knockout", "Knockout", 0, 0, 0, 0},  /* 003:87: with `at head`; half damage */
};

/* 003:73-78, Hit Location Modifiers: dice, standard value (+5 a die
 * here, +15 for four: as printed), damage added to the total. */
static const d6_modifier_row location_rows[D6_LOC_KINDS] = {
    {"", "", 0, 0, 0, 0},
    {"head", "the head", 1, 5, 0, 12},
    {"heart", "the heart", 4, 15, 0, 12},
    {"chest", "the chest or abdomen", 0, 0, 0, 0},
    {"arm", "an arm", 1, 5, 0, -2},
    {"leg", "a leg", 1, 5, 0, -1},
    {"hand", "a hand", 4, 15, 0, -2},
};

/* 003:91-92, Prone & Crouching. */
static const d6_modifier_row posture_rows[4] = {
    {"crouching", "crouching", 1, 3, 0, 0},
    {"crouching-moving", "moving crouched", 2, 6, 0, 0},
    {"prone-near", "prone, at Point Blank or Short range", -2, -6, 0, 0},
    {"prone-far", "prone, at Medium or Long range", 2, 6, 0, 0},
};

const char *d6_posture_word(int p) {
    return p == D6_POSTURE_CROUCHING ? "crouch" : p == D6_POSTURE_PRONE ? "prone" : "stand";
}

const d6_modifier_row *d6_posture_row(const d6_state *st, int t, int band) {
    const d6_cstate *c = &st->c[t];
    if (c->posture == D6_POSTURE_CROUCHING)
        return &posture_rows[c->crouch_moved == st->round && st->round > 0 ? 1 : 0];
    if (c->posture == D6_POSTURE_PRONE)
        return &posture_rows[band == D6_BAND_MEDIUM || band == D6_BAND_LONG ? 3 : 2];
    return NULL;
}

const d6_modifier_row *d6_location_row(int location) {
    return location > 0 && location < D6_LOC_KINDS ? &location_rows[location] : NULL;
}

int d6_part_penalty(const d6_state *st, int i, int k) {
    unsigned p = st->c[i].parts;
    int n = 0;
    if (k == D6_PART_INIT) /* 003:83, 85: leg and head, initiative */
        return ((p & D6_PART_LEG) ? 1 : 0) + ((p & D6_PART_HEAD) ? 1 : 0);
    if (k < 0 || k >= D6_SKILLS)
        return 0;
    if ((p & D6_PART_LEG) && (k == D6_SK_ACROBATICS || k == D6_SK_RUNNING))
        n++; /* 003:83 */
    if ((p & D6_PART_HAND) &&
        (k == D6_SK_ACROBATICS || k == D6_SK_FIGHTING || k == D6_SK_MELEE ||
         k == D6_SK_MARKSMANSHIP || k == D6_SK_THROWING || k == D6_SK_LIFTING))
        n++; /* 003:84 */
    if ((p & D6_PART_HEAD) &&
        (d6_skill_attr[k] == D6_INTELLECT || d6_skill_attr[k] == D6_ACUMEN))
        n++; /* 003:85 */
    return n;
}

void d6_location_effect(d6_state *st, int t, int location) {
    d6_cstate *c = &st->c[t];
    switch (location) {
    case D6_LOC_HEAD:
        c->parts |= D6_PART_HEAD;
        break;
    case D6_LOC_HEART: /* D7.8: the heart takes the chest's effect */
    case D6_LOC_CHEST:
        c->passive_round = st->round + 1;
        break;
    case D6_LOC_ARM:
    case D6_LOC_HAND:
        c->parts |= D6_PART_HAND;
        break;
    case D6_LOC_LEG:
        c->parts |= D6_PART_LEG;
        break;
    default:
        break;
    }
}

/* 003:36-43, Called Shot: the target is ...; on a hit +1D damage (003:49). */
static const d6_modifier_row called_rows[3] = {
    {"called-large", "10 to 50 centimeters long", 1, 3, 1, 0},
    {"called-small", "1 to 10 centimeters long", 4, 12, 1, 0},
    {"called-tiny", "less than a centimeter long", 8, 24, 1, 0},
};

/* 003:44-46, Other Modifiers. */
static const d6_modifier_row sight_rows[3] = {
    {"blind", "the attacker is blind", 4, 12, 0, 0},
    {"target-blind", "the target is blind", -4, -12, 0, 0},
    {"behind", "attacked from behind", -4, -12, 0, 0},
};

const d6_modifier_row *d6_option_row(int option) {
    return option > 0 && option < D6_OPT_KINDS ? &option_rows[option] : NULL;
}

const d6_modifier_row *d6_called_row(int size) {
    return size >= 1 && size <= 3 ? &called_rows[size - 1] : NULL;
}

const d6_modifier_row *d6_sight_row(int bit) {
    return bit == D6_SIGHT_BLIND ? &sight_rows[0]
           : bit == D6_SIGHT_TARGET_BLIND ? &sight_rows[1]
           : bit == D6_SIGHT_BEHIND ? &sight_rows[2]
                                    : NULL;
}

static bool same(const char *a, size_t n, const char *b) {
    if (strlen(b) != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return false;
    return true;
}

int d6_option_word(const char *w, size_t n) {
    if (same(w, n, "trip"))
        return D6_OPT_KNOCKDOWN; /* 003:8, 32: one option */
    for (int k = 1; k < D6_OPT_KINDS; k++)
        if (same(w, n, option_rows[k].word))
            return k;
    return -1;
}

bool d6_attack_word(d6_event *cmd, const char *w, size_t n, const char *next,
                    size_t nn, int *k) {
    int o = d6_option_word(w, n);
    if (o > 0) {
        if (cmd->option)
            return false; /* one fighting option an attack */
        cmd->option = (uint8_t)o;
        return true;
    }
    if (same(w, n, "at") && !cmd->location) {
        for (int z = 1; z < D6_LOC_KINDS; z++)
            if (same(next, nn, location_rows[z].word)) {
                cmd->location = (uint8_t)z;
                (*k)++;
                return true;
            }
        if (same(next, nn, "foot")) { /* D7.8: a foot is a leg */
            cmd->location = D6_LOC_LEG;
            (*k)++;
            return true;
        }
        return false;
    }
    if (same(w, n, "called") && !cmd->called) {
        int z = same(next, nn, "large") ? 1 : same(next, nn, "small") ? 2
                : same(next, nn, "tiny") ? 3 : 0;
        if (!z)
            return false;
        cmd->called = (uint8_t)z;
        (*k)++;
        return true;
    }
    for (int bit = 1; bit <= D6_SIGHT_BEHIND; bit <<= 1)
        if (same(w, n, d6_sight_row(bit)->word) && !(cmd->sight & bit)) {
            cmd->sight = (uint8_t)(cmd->sight | bit);
            return true;
        }
    return false;
}

static void add_row(const d6_modifier_row *r, int *plus, int *minus, int *std,
                    int *dmg, bool with_damage) {
    if (!r)
        return;
    if (r->dice > 0)
        *plus += r->dice;
    else
        *minus -= r->dice;
    *std += r->standard;
    if (with_damage)
        *dmg += r->damage;
}

int d6_sight_of(const d6_setup *s, const d6_event *ev, int a, int t) {
    int sight = ev->sight;
    if (s->c[a].blind)
        sight |= D6_SIGHT_BLIND;
    if (s->c[t].blind && !(sight & D6_SIGHT_BEHIND))
        sight |= D6_SIGHT_TARGET_BLIND;
    return sight;
}

void d6_attack_mods(const d6_event *ev, int sight, int *plus_dice, int *minus_dice,
                    int *standard, int *damage_dice) {
    *plus_dice = *minus_dice = *standard = *damage_dice = 0;
    add_row(d6_option_row(ev->option), plus_dice, minus_dice, standard, damage_dice, true);
    add_row(d6_called_row(ev->called), plus_dice, minus_dice, standard, damage_dice, true);
    for (int bit = 1; bit <= D6_SIGHT_BEHIND; bit <<= 1)
        if (sight & bit)
            add_row(d6_sight_row(bit), plus_dice, minus_dice, standard, damage_dice, false);
    add_row(d6_location_row(ev->location), plus_dice, minus_dice, standard, damage_dice,
            false);
}

static fray_status no(char *why, size_t size, const char *fmt, const char *a) {
    if (why && size)
        snprintf(why, size, fmt, a);
    return FRAY_ERR_INVALID;
}

fray_status d6_check_options(const d6_setup *s, const d6_state *st,
                             const d6_event *cmd, int weapon, bool ranged,
                             bool *reach_ok, char *why, size_t size) {
    *reach_ok = false;
    const char *an = s->c[cmd->actor].name;
    if (cmd->option >= D6_OPT_KINDS || cmd->called > 3 || cmd->sight > 7)
        return no(why, size, "%s: not an attack option", an);
    if (cmd->option != D6_OPT_NONE && ranged)
        return no(why, size, "%s: all-out, lunge and sweep are fighting and melee "
                             "options, not for a ranged attack",
                  an);
    /* 003:6: the all-out attacker may not defend or take any other action
     * that round. */
    if (cmd->option == D6_OPT_ALL_OUT && (cmd->actions > 1 || cmd->full))
        return no(why, size, "%s attacks all-out: no defense and no other action "
                             "this round (one action only)",
                  an);
    if (cmd->option == D6_OPT_KNOCKDOWN || cmd->option == D6_OPT_PUSH) {
        /* 003:8: with fighting or a blunt melee weapon, on a foe whose
         * Physique is at most the attacker's unless trained */
        if (weapon >= 0 && !s->w[weapon].blunt && s->w[weapon].skill != D6_SK_FIGHTING)
        {
            if (why && size)
                snprintf(why, size, "%s: a knockdown or push takes fighting or a blunt "
                                    "weapon, not the %s",
                         an, s->w[weapon].name);
            return FRAY_ERR_INVALID;
        }
        const d6_code pa = s->c[cmd->actor].b.attr[D6_PHYSIQUE],
                      pt = s->c[cmd->target].b.attr[D6_PHYSIQUE];
        if (pt.dice * 3 + pt.pips > pa.dice * 3 + pa.pips && !s->c[cmd->actor].b.trained_knockdown)
            return no(why, size, "%s: the target's Physique is greater; only one "
                                 "trained (trained-knockdown) may knock it down or push it",
                      an);
    }
    if (cmd->location >= D6_LOC_KINDS)
        return no(why, size, "%s: not a hit location", an);
    if (cmd->option == D6_OPT_KNOCKOUT && cmd->location != D6_LOC_HEAD)
        return no(why, size, "%s: a knockout takes a called shot to the head (`at head`)",
                  an);
    if (cmd->location && cmd->called)
        return no(why, size, "%s: a hit location is a called shot already: one or the other",
                  an);
    if ((cmd->sight & D6_SIGHT_TARGET_BLIND) && (cmd->sight & D6_SIGHT_BEHIND))
        return no(why, size, "%s: a blind target or one attacked from behind: the "
                             "-4D is taken once",
                  an);
    /* 003:7: a lunge adds about half a meter to the reach. */
    if (cmd->option == D6_OPT_LUNGE) {
        double dx = st->c[cmd->actor].x - st->c[cmd->target].x,
               dy = st->c[cmd->actor].y - st->c[cmd->target].y;
        *reach_ok = sqrt(dx * dx + dy * dy) <= 3.5 + 1e-9;
    }
    return FRAY_OK;
}

void d6_option_words(const d6_event *ev, char *buf, size_t size) {
    size_t used = 0;
    if (!buf || !size)
        return;
    buf[0] = '\0';
    const d6_modifier_row *r = d6_option_row(ev->option);
    if (r)
        used += (size_t)snprintf(buf + used, size - used, " %s", r->word);
    r = d6_called_row(ev->called);
    if (r && used < size)
        used += (size_t)snprintf(buf + used, size - used, "%s a called shot at something %s",
                                 used ? "," : "", r->title);
    for (int bit = 1; bit <= D6_SIGHT_BEHIND && used < size; bit <<= 1)
        if (ev->sight & bit)
            used += (size_t)snprintf(buf + used, size - used, "%s %s", used ? "," : "",
                                     d6_sight_row(bit)->title);
    r = d6_location_row(ev->location);
    if (r && used < size)
        snprintf(buf + used, size - used, "%s at %s", used ? "," : "", r->title);
}

int d6_agility_take(d6_state *st, int i, int k) {
    if (k < 0 || k >= D6_SKILLS || d6_skill_attr[k] != D6_AGILITY)
        return 0;
    int dice = st->c[i].agility_dice;
    st->c[i].agility_dice = 0;
    return dice;
}

int d6_stand_actions(const d6_state *st, int i) { return st->c[i].down ? 1 : 0; }

int d6_tactic_option(const d6_setup *s, const d6_state *st, int a, int t, int weapon) {
    if (!s->o.tactics_knockdown || st->c[t].down)
        return D6_OPT_NONE;
    if (weapon >= 0 && ((!s->w[weapon].blunt && s->w[weapon].skill != D6_SK_FIGHTING) ||
                        s->w[weapon].range[2] > 0))
        return D6_OPT_NONE;
    const d6_code pa = s->c[a].b.attr[D6_PHYSIQUE], pt = s->c[t].b.attr[D6_PHYSIQUE];
    return pt.dice * 3 + pt.pips < pa.dice * 3 + pa.pips ? D6_OPT_KNOCKDOWN : D6_OPT_NONE;
}
