/*
 * tell.c - D6 in words: the narration of an event, its JSON line
 * (docs/journal.md) and back, the table's commands (docs/rules/d6.md "At
 * the table"), the summary, the round's order and the positions drawn for
 * the GM as text.
 */
#include "d6_int.h"

#include <ctype.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "words.h"

/* The text being told: internal.h's bounded builder (snprintf-style:
 * what fits, terminated; len counts the whole). */
typedef fray__text out;
#define put fray__text_f
static size_t done(const out *o) { return o->len; }

static const char *nm(const d6_setup *s, int i) {
    return i >= 0 && i < s->n ? s->c[i].name : "nobody";
}
static const char *idof(const d6_setup *s, int i) {
    return i >= 0 && i < s->n ? s->c[i].id : "";
}

static const char *const roll_words[] = {"initiative", "attack",    "defense",
                                         "damage",     "resistance", "stay-up",
                                         "modifier",   "trick",      "running",
                                         "toughness",  "mortal"};
static const char *roll_word(int k) {
    return k >= 0 && k <= D6_ROLL_MORTAL ? roll_words[k] : "?";
}

static const char *obj_name(const d6_setup *s, int o) {
    return o >= 0 && o < s->n_objects ? s->obj[o].name : "?";
}

static const char *ordinal(int n) {
    return n % 10 == 1 && n % 100 != 11   ? "st"
           : n % 10 == 2 && n % 100 != 12 ? "nd"
           : n % 10 == 3 && n % 100 != 13 ? "rd"
                                          : "th";
}

size_t d6_narrate(const d6_setup *s, const d6_event *ev, char *buf, size_t size) {
    out o = {buf, size, 0};
    if (buf && size)
        buf[0] = '\0';
    bool health_wounds = s->o.health == D6_HEALTH_WOUNDS;
    if (ev->kind == D6_EV_BEGIN)
        put(&o, "Round 1. Initiative:\n");
    if (ev->kind == D6_EV_WAIT)
        put(&o, "%s waits: it may interrupt later this round.\n", nm(s, ev->actor));
    if (ev->kind == D6_EV_SQUEEZE && ev->target >= 0) /* grabs.c */
        put(&o, "%s squeezes %s: its Strength Damage.\n", nm(s, ev->actor), nm(s, ev->target));
    for (int i = 0; i < ev->n_facts; i++) {
        const d6_fact *f = &ev->facts[i];
        switch (f->kind) {
        case D6_FACT_INIT:
            if (s->o.initiative == D6_INIT_FIRST_ACTION)
                put(&o, "  %d%s: %s\n", f->b, ordinal(f->b), nm(s, f->who));
            else
                put(&o, "  %d%s: %s (%d)\n", f->b, ordinal(f->b), nm(s, f->who), f->a);
            break;
        case D6_FACT_ROUND:
            put(&o, "Round %d. Initiative:\n", f->a);
            break;
        case D6_FACT_ATTACK:
            if (f->d != D6_BAND_BEYOND)
                put(&o, "%s shoots at %s at %s range: %d against %d, %s.\n",
                    nm(s, f->who), nm(s, f->other), d6_band_name(f->d), f->a, f->b,
                    f->c ? "a hit" : "a miss");
            else
                put(&o, "%s attacks %s: %d against %d, %s.\n", nm(s, f->who),
                    nm(s, f->other), f->a, f->b, f->c ? "a hit" : "a miss");
            break;
        case D6_FACT_DEFENSE:
            put(&o, "%s %s%s (%d): to hit it %sis %d until its next turn.\n", nm(s, f->who),
                f->b == D6_DEF_FULL ? "takes full defense, " : "",
                f->d ? "parrying" : "dodging", f->c, f->d ? "in melee " : "", f->a);
            break;
        case D6_FACT_DAMAGE:
            if (health_wounds)
                put(&o, "%s takes %d damage against a resistance of %d: %s.\n",
                    nm(s, f->who), f->a, f->b, d6_wound_name(f->c));
            else
                put(&o, "%s takes %d damage against a resistance of %d: %d Body "
                        "Points left.\n",
                    nm(s, f->who), f->a, f->b, f->c);
            break;
        case D6_FACT_STAY_UP:
            put(&o, "%s rolls %d against %d to stay up: %s.\n", nm(s, f->who), f->a, f->b,
                f->c ? "stays up at -3D" : "goes down");
            break;
        case D6_FACT_OUT:
            if (health_wounds)
                put(&o, "%s is out of the fight (%s).\n", nm(s, f->who),
                    d6_wound_name(f->a));
            else if (s->o.zero_bp_unconscious) /* ruling 70 */
                put(&o, "%s is out of the fight (no Body Points left).\n", nm(s, f->who));
            else
                put(&o, "%s falls dead (no Body Points left).\n", nm(s, f->who));
            break;
        case D6_FACT_MOVE:
            put(&o, "%s moves to (%d, %d)%s.\n", nm(s, f->who), f->a, f->b,
                f->c ? ": its action" : ", half its Move or less: no action");
            break;
        case D6_FACT_END:
            if (f->a >= 0 && f->a < s->n_sides)
                put(&o, "The fight is over: %s win.\n", s->side_name[f->a]);
            else
                put(&o, "The fight is over: nobody is left in it.\n");
            break;
        case D6_FACT_INTERRUPT:
            put(&o, "%s interrupts, having waited (-1D: waiting was an action).\n",
                nm(s, f->who));
            break;
        case D6_FACT_AIM:
            put(&o, "%s aims at %s: +%dD to its next attack on it.\n", nm(s, f->who),
                nm(s, f->other), f->a);
            break;
        case D6_FACT_SCALE:
            put(&o, "%s is %s than %s (scale modifier %d): +%d to %s, ", nm(s, f->who),
                f->b ? "larger" : "smaller", nm(s, f->other), f->a, f->a,
                f->b ? "the combat difficulty" : "its attack total");
            if (f->d > 0)
                put(&o, "+%d to the damage total.\n", f->c);
            else if (f->d == 0)
                put(&o, "+%d to %s's damage resistance.\n", f->c, nm(s, f->other));
            else
                put(&o, "none to %s's damage resistance (lightly built).\n", nm(s, f->other));
            break;
        case D6_FACT_READY:
            put(&o, "%s readies the %s (%d action%s).\n", nm(s, f->who),
                f->a >= 0 && f->a < s->n_weapons ? s->w[f->a].name : "?", f->b,
                f->b == 1 ? "" : "s");
            break;
        case D6_FACT_SURPRISE:
            put(&o, "%s surprises its foes: %s.\n", nm(s, f->who),
                f->a == D6_SURPRISE_FIRST ? "it acts first this round"
                                          : "+1D to its first action");
            break;
        case D6_FACT_QUICK_DRAW:
            put(&o, "%s announces a quick draw for the next round: %dD moved to Acumen "
                    "(%dD for initiative), %d attack%s at %dD with no further "
                    "multi-action penalty.\n",
                nm(s, f->who), f->a, f->c, f->b, f->b == 1 ? "" : "s", f->d);
            break;
        case D6_FACT_GRAB:
            put(&o, "%s %s %s.\n", nm(s, f->who),
                f->a == D6_GRAB_TACKLE  ? "tackles"
                : f->a == D6_GRAB_CHOKE ? "chokes"
                : f->a == D6_GRAB_FLIP  ? "flips to the ground"
                : f->a == D6_GRAB_ARM_PIN ? "pins the arm of"
                                        : "holds",
                nm(s, f->other));
            break;
        case D6_FACT_ESCAPE:
            put(&o, "%s tries to escape %s: %d against %d, %s.\n", nm(s, f->who),
                nm(s, f->other), f->a, f->b, f->c ? "free" : "still held");
            break;
        case D6_FACT_RELEASE:
            put(&o, "%s lets go of %s.\n", nm(s, f->who), nm(s, f->other));
            break;
        case D6_FACT_ENTANGLE:
            put(&o, "%s entangles %s: %d to break free or slip free%s.\n", nm(s, f->who),
                nm(s, f->other), f->a, f->b ? "; the spikes do damage" : ", no damage");
            break;
        case D6_FACT_GET_UP:
            put(&o, "%s spends its turn getting up.\n", nm(s, f->who));
            break;
        case D6_FACT_TANGLE_FREE:
            put(&o, "%s tries to %s free: %d against %d, %s.\n", nm(s, f->who),
                f->d ? "slip" : "break", f->a, f->b, f->c ? "free" : "still entangled");
            break;
        case D6_FACT_WILD_ONE:
            put(&o, "%s's %s roll: the Wild Die shows 1: %s.\n", nm(s, f->who),
                roll_word(f->a),
                f->b ? "a complication (the GM says what)" : "it and the highest die count nothing");
            break;
        case D6_FACT_STUMBLE:
            put(&o, "%s stumbles: -%dD on its next Agility roll%s; no damage.\n",
                nm(s, f->who), f->a, f->b ? ", and it is down (standing takes an action)" : "");
            break;
        case D6_FACT_STAND:
            put(&o, "%s stands up (an action).\n", nm(s, f->who));
            break;
        case D6_FACT_LOCATION: {
            static const char *const eff[D6_LOC_KINDS] = {
                "", "-1 to its Intellect, Acumen and initiative totals",
                "passive defense only next round", "passive defense only next round",
                "-1 to the rolls of its hands", "-1 to acrobatics, running and initiative",
                "-1 to the rolls of its hands"};
            put(&o, "%s is hurt in %s: %s.\n", nm(s, f->who),
                d6_location_row(f->a) ? d6_location_row(f->a)->title : "?",
                f->a > 0 && f->a < D6_LOC_KINDS ? eff[f->a] : "?");
            break;
        }
        case D6_FACT_POSTURE:
            put(&o, "%s %s (free).\n", nm(s, f->who),
                f->a == D6_POSTURE_CROUCHING ? "crouches low"
                : f->a == D6_POSTURE_PRONE   ? "drops prone"
                                             : "stands up");
            break;
        case D6_FACT_KNOCKOUT:
            put(&o, "%s is knocked out for %d hour%s: out of the fight.\n", nm(s, f->who),
                f->a, f->a == 1 ? "" : "s");
            break;
        case D6_FACT_TRICK: /* things.c (003:5) */
            if (f->d)
                put(&o, "%s's acrobatic trick: %d against %d, +%d to the damage of the "
                        "attack.\n",
                    nm(s, f->who), f->a, f->b, f->c);
            else
                put(&o, "%s's acrobatic trick: %d against %d, it fails.\n", nm(s, f->who),
                    f->a, f->b);
            break;
        case D6_FACT_RUN:
            put(&o, "%s runs: %d against %d, %s (%d m).\n", nm(s, f->who), f->a, f->b,
                f->d ? "made it" : "only its Move", f->c);
            break;
        case D6_FACT_BREAK: {
            static const char *const res[] = {"it holds", "weakened (-1D Toughness)",
                                              "destroyed"};
            put(&o, "%s tries to break the %s: %d damage against a Toughness of %d: %s.\n",
                nm(s, f->who), obj_name(s, f->a), f->b, f->c,
                f->d >= 0 && f->d <= D6_BREAK_DESTROYED ? res[f->d] : "?");
            break;
        }
        case D6_FACT_MORTAL:
            put(&o, "%s, Mortally Wounded, rolls Physique: %d against %d %s: %s.\n",
                nm(s, f->who), f->a, f->b,
                s->o.mortal_rolls == D6_MORTAL_ROUNDS ? (f->b == 1 ? "round" : "rounds")
                                                      : (f->b == 1 ? "minute" : "minutes"),
                f->c ? "dies" : "lives on");
            break;
        case D6_FACT_PIN: { /* holds.c (003:17-24) */
            static const char *const what[D6_PIN_OPS] = {"", "its Strength Damage",
                                                         "to break the arm",
                                                         "to force a submission"};
            int op = f->a > 0 && f->a < D6_PIN_OPS ? f->a : 0;
            if (op == D6_PIN_DAMAGE) {
                put(&o, "%s, pinning %s's arm, does its Strength Damage.\n", nm(s, f->who),
                    nm(s, f->other));
                break;
            }
            put(&o, "%s, pinning %s's arm, tries %s: %d against %d%s, %s.\n", nm(s, f->who),
                nm(s, f->other), what[op], f->b, f->c,
                ev->resisted ? " (resisted: its turn moved up)" : "",
                f->d == D6_PIN_ESCAPED ? "it fails and the arm slips free"
                : f->d == D6_PIN_FAILED ? "it fails: its Strength Damage instead"
                : op == D6_PIN_BREAK    ? "the arm breaks"
                                        : "forced to the ground, it submits: out of the fight");
            break;
        }
        case D6_FACT_SLAM:
            if (!f->c)
                put(&o, "%s tries to lift %s: lifting %d against %d, not lifted (the hold "
                        "kept).\n", nm(s, f->who), nm(s, f->other), f->a, f->b);
            else
                put(&o, "%s lifts %s (lifting %d against %d) and slams it into %s (%dD).\n",
                    nm(s, f->who), nm(s, f->other), f->a, f->b,
                    f->d == D6_OBJ_GROUND ? "the ground" : f->d == D6_OBJ_WALL ? "a wall"
                                                                           : d6_slam_word(f->d),
                    d6_slam_toughness(f->d).dice);
            break;
        case D6_FACT_DISARM: {
            const char *wn = f->a >= 0 && f->a < s->n_weapons ? s->w[f->a].name : "weapon";
            if (f->b < 0)
                put(&o, "%s has acted this round: its %s drops (damage %d).\n", nm(s, f->who), wn,
                    f->c);
            else
                put(&o, "%s moves its action up to keep its %s: %d against the damage %d, %s.\n",
                    nm(s, f->who), wn, f->b, f->c, f->d ? "it drops it" : "it keeps it");
            break;
        }
        case D6_FACT_OPTION: { /* options.c */
            char w[160];
            d6_option_words(ev, w, sizeof w);
            if (ev->disarm) /* holds.c (003:61) */
                put(&o, "%s tries to knock %s's weapon away (%s): %+d to the difficulty "
                        "(standard); on a hit, the damage total against its grip, no Body "
                        "damage.\n",
                    nm(s, f->who), nm(s, f->other), w[0] == ' ' ? w + 1 : w, f->c);
            else
                put(&o, "%s attacks (%s): %+d to the difficulty (standard), %+dD damage%s.\n",
                    nm(s, f->who), w[0] == ' ' ? w + 1 : w, f->c, f->d,
                    f->b ? " (a called shot's hit: +1D damage; knocking the item away is a "
                           "disarm)"
                         : "");
            break;
        }
        default:
            break;
        }
    }
    return done(&o);
}

static const char *const fact_words[] = {"initiative", "round", "attack", "defense",
                                         "damage", "stay-up", "out", "move", "end",
                                         "wild-one", "aim", "interrupt", "scale",
                                         "quick-draw", "surprise", "ready",
                                         "grab", "escape", "release", "entangle",
                                         "free", "get-up", "option", "stumble", "stand",
                                         "location", "knockout", "posture",
                                         "trick", "run", "break", "mortal", "pin", "slam",
                                         "disarm"};

size_t d6_event_json(const d6_setup *s, const d6_event *ev, char *buf,
                     size_t size) {
    out o = {buf, size, 0};
    put(&o, "{\"event\":%ld,\"round\":%ld,\"command\":{\"action\":\"%s\"",
        (long)ev->number, (long)ev->round, d6_kind_word(ev->kind));
    if (ev->actor >= 0)
        put(&o, ",\"actor\":\"%s\"", idof(s, ev->actor));
    if (ev->target >= 0)
        put(&o, ",\"target\":\"%s\"", idof(s, ev->target));
    if (ev->kind == D6_EV_ATTACK) {
        if (ev->weapon >= 0 && ev->weapon < s->n_weapons)
            put(&o, ",\"weapon\":\"%s\"", s->w[ev->weapon].name);
        if (ev->weapon == D6_BOTH_HANDS)
            put(&o, ",\"both\":true"); /* draw.c (003:89) */
        put(&o, ",\"actions\":%d", ev->actions);
        if (ev->full)
            put(&o, ",\"defend\":true");
        if (ev->grab)
            put(&o, ",\"grab\":\"%s\"", d6_grab_word(ev->grab));
        if (ev->grab == D6_GRAB_HOLD && ev->hold_dice > 3)
            put(&o, ",\"hold_dice\":%d", ev->hold_dice);
        if (d6_option_row(ev->option)) /* options.c */
            put(&o, ",\"option\":\"%s\"", d6_option_row(ev->option)->word);
        if (d6_called_row(ev->called))
            put(&o, ",\"called\":\"%s\"", d6_called_row(ev->called)->word + 7);
        for (int bit = 1; bit <= D6_SIGHT_BEHIND; bit <<= 1)
            if (ev->sight & bit)
                put(&o, ",\"%s\":true", d6_sight_row(bit)->word);
        if (d6_location_row(ev->location))
            put(&o, ",\"location\":\"%s\"", d6_location_row(ev->location)->word);
        if (ev->trick) /* things.c (003:5) */
            put(&o, ",\"trick\":%d", ev->trick);
    }
    if (ev->kind == D6_EV_BREAK) { /* things.c (003:51) */
        put(&o, ",\"object\":\"%s\"",
            ev->object >= 1 && ev->object <= s->n_objects ? s->obj[ev->object - 1].id : "?");
        if (ev->weapon >= 0 && ev->weapon < s->n_weapons)
            put(&o, ",\"weapon\":\"%s\"", s->w[ev->weapon].name);
    }
    if (ev->kind == D6_EV_DEFEND && ev->full)
        put(&o, ",\"full\":true");
    if ((ev->kind == D6_EV_DEFEND || ev->kind == D6_EV_ATTACK) && ev->parry)
        put(&o, ",\"parry\":true");
    if (ev->kind == D6_EV_MOVE || ev->kind == D6_EV_RUN)
        put(&o, ",\"x\":%d,\"y\":%d", ev->x, ev->y);
    if (ev->kind == D6_EV_READY && ev->weapon >= 0 && ev->weapon < s->n_weapons)
        put(&o, ",\"weapon\":\"%s\"", s->w[ev->weapon].name); /* draw.c */
    if (ev->kind == D6_EV_QUICK_DRAW) { /* draw.c */
        if (ev->weapon >= 0 && ev->weapon < s->n_weapons)
            put(&o, ",\"weapon\":\"%s\"", s->w[ev->weapon].name);
        put(&o, ",\"moved\":%d,\"attacks\":%d", ev->x, ev->actions);
    }
    if (ev->kind == D6_EV_POSTURE)
        put(&o, ",\"posture\":\"%s\"", d6_posture_word(ev->posture));
    if (ev->kind == D6_EV_ATTACK && ev->disarm) /* holds.c */
        put(&o, ",\"disarm\":true");
    if (ev->kind == D6_EV_PIN)
        put(&o, ",\"pin\":\"%s\"%s", d6_pin_word(ev->pin_op), ev->resisted ? ",\"resisted\":true" : "");
    if (ev->kind == D6_EV_SLAM)
        put(&o, ",\"into\":\"%s\"", d6_slam_word(ev->slam_into));
    put(&o, "},\"given\":%s,\"dice\":[", ev->given ? "true" : "false");
    for (int i = 0; i < ev->n_dice; i++)
        put(&o, "%s%d", i ? "," : "", ev->dice[i]);
    put(&o, "],\"facts\":[");
    for (int i = 0; i < ev->n_facts; i++) {
        const d6_fact *f = &ev->facts[i];
        put(&o, "%s{\"fact\":\"%s\"", i ? "," : "",
            f->kind < sizeof fact_words / sizeof fact_words[0] ? fact_words[f->kind] : "?");
        if (f->who >= 0)
            put(&o, ",\"who\":\"%s\"", idof(s, f->who));
        if (f->other >= 0)
            put(&o, ",\"other\":\"%s\"", idof(s, f->other));
        switch (f->kind) {
        case D6_FACT_INIT:
            put(&o, ",\"total\":%d,\"place\":%d", f->a, f->b);
            break;
        case D6_FACT_ROUND:
            put(&o, ",\"round\":%d", f->a);
            break;
        case D6_FACT_ATTACK:
            put(&o, ",\"total\":%d,\"difficulty\":%d,\"result\":\"%s\"", f->a, f->b,
                f->c ? "hit" : "miss");
            if (f->d != D6_BAND_BEYOND)
                put(&o, ",\"range\":\"%s\"", d6_band_name(f->d));
            break;
        case D6_FACT_DEFENSE:
            put(&o, ",\"roll\":%d,\"difficulty\":%d,\"full\":%s,\"parry\":%s", f->c, f->a,
                f->b == D6_DEF_FULL ? "true" : "false", f->d ? "true" : "false");
            break;
        case D6_FACT_DAMAGE:
            if (s->o.health == D6_HEALTH_WOUNDS)
                put(&o, ",\"damage\":%d,\"resistance\":%d,\"wound\":\"%s\"", f->a, f->b,
                    d6_wound_name(f->c));
            else
                put(&o, ",\"damage\":%d,\"resistance\":%d,\"body_points\":%d", f->a, f->b,
                    f->c);
            break;
        case D6_FACT_STAY_UP:
            put(&o, ",\"total\":%d,\"difficulty\":%d,\"result\":\"%s\"", f->a, f->b,
                f->c ? "up" : "down");
            break;
        case D6_FACT_OUT: /* Body Points have no wound level: what 0 is (ruling 70) */
            if (s->o.health == D6_HEALTH_WOUNDS)
                put(&o, ",\"wound\":\"%s\"", d6_wound_name(f->a));
            else
                put(&o, ",\"body_points\":%d,\"state\":\"%s\"", f->a,
                    s->o.zero_bp_unconscious ? "unconscious" : "dead");
            break;
        case D6_FACT_MOVE:
            put(&o, ",\"x\":%d,\"y\":%d,\"action\":%s", f->a, f->b, f->c ? "true" : "false");
            break;
        case D6_FACT_END:
            put(&o, ",\"winner\":%d", f->a);
            break;
        case D6_FACT_SCALE:
            put(&o, ",\"modifier\":%d,\"to\":\"%s\",\"damage_modifier\":%d,\"damage_to\":\"%s\"",
                f->a, f->b ? "difficulty" : "attack", f->c,
                f->d > 0 ? "damage" : f->d == 0 ? "resistance" : "none");
            break;
        case D6_FACT_READY:
            put(&o, ",\"weapon\":\"%s\",\"actions\":%d",
                f->a >= 0 && f->a < s->n_weapons ? s->w[f->a].name : "?", f->b);
            break;
        case D6_FACT_SURPRISE:
            put(&o, ",\"surprise\":\"%s\"", f->a == D6_SURPRISE_FIRST ? "first" : "bonus");
            break;
        case D6_FACT_QUICK_DRAW:
            put(&o, ",\"moved\":%d,\"attacks\":%d,\"initiative_dice\":%d,\"skill_dice\":%d",
                f->a, f->b, f->c, f->d);
            break;
        case D6_FACT_AIM:
            put(&o, ",\"dice\":%d", f->a);
            break;
        case D6_FACT_GRAB:
            put(&o, ",\"grab\":\"%s\"", d6_grab_word(f->a));
            break;
        case D6_FACT_ESCAPE:
            put(&o, ",\"total\":%d,\"holder_total\":%d,\"result\":\"%s\"", f->a, f->b,
                f->c ? "free" : "held");
            break;
        case D6_FACT_ENTANGLE:
            put(&o, ",\"damage\":%d,\"spiked\":%s", f->a, f->b ? "true" : "false");
            break;
        case D6_FACT_TANGLE_FREE:
            put(&o, ",\"how\":\"%s\",\"total\":%d,\"difficulty\":%d,\"result\":\"%s\"",
                f->d ? "slip" : "break", f->a, f->b, f->c ? "free" : "entangled");
            break;
        case D6_FACT_OPTION:
            put(&o, ",\"difficulty\":%d,\"damage_dice\":%d", f->c, f->d);
            break;
        case D6_FACT_LOCATION:
            put(&o, ",\"location\":\"%s\"",
                d6_location_row(f->a) ? d6_location_row(f->a)->word : "?");
            break;
        case D6_FACT_KNOCKOUT:
            put(&o, ",\"hours\":%d", f->a);
            break;
        case D6_FACT_POSTURE:
            put(&o, ",\"posture\":\"%s\"", d6_posture_word(f->a));
            break;
        case D6_FACT_PIN: /* holds.c */
            put(&o, ",\"pin\":\"%s\"", d6_pin_word(f->a));
            if (f->a != D6_PIN_DAMAGE)
                put(&o, ",\"total\":%d,\"difficulty\":%d", f->b, f->c);
            put(&o, ",\"result\":\"%s\"",
                f->d == D6_PIN_ESCAPED ? "escaped" : f->d == D6_PIN_FAILED ? "failed"
                : f->a == D6_PIN_BREAK ? "broken" : f->a == D6_PIN_SUBMIT ? "submits" : "done");
            break;
        case D6_FACT_SLAM:
            put(&o, ",\"total\":%d,\"difficulty\":%d,\"result\":\"%s\",\"into\":\"%s\"", f->a,
                f->b, f->c ? "lifted" : "not lifted", d6_slam_word(f->d));
            break;
        case D6_FACT_DISARM:
            put(&o, ",\"weapon\":\"%s\"", f->a >= 0 && f->a < s->n_weapons ? s->w[f->a].name : "?");
            if (f->b >= 0)
                put(&o, ",\"total\":%d", f->b);
            put(&o, ",\"damage\":%d,\"result\":\"%s\"", f->c, f->d ? "dropped" : "kept");
            break;
        case D6_FACT_STUMBLE:
            put(&o, ",\"agility_dice\":%d,\"down\":%s", f->a, f->b ? "true" : "false");
            break;
        case D6_FACT_TRICK: /* things.c */
            put(&o, ",\"total\":%d,\"difficulty\":%d,\"damage\":%d,\"result\":\"%s\"",
                f->a, f->b, f->c, f->d ? "success" : "failure");
            break;
        case D6_FACT_RUN:
            put(&o, ",\"total\":%d,\"difficulty\":%d,\"meters\":%d,\"result\":\"%s\"",
                f->a, f->b, f->c, f->d ? "success" : "failure");
            break;
        case D6_FACT_BREAK: {
            static const char *const res[] = {"holds", "weakened", "destroyed"};
            put(&o, ",\"object\":\"%s\",\"damage\":%d,\"toughness\":%d,\"result\":\"%s\"",
                f->a >= 0 && f->a < s->n_objects ? s->obj[f->a].id : "?", f->b, f->c,
                f->d >= 0 && f->d <= D6_BREAK_DESTROYED ? res[f->d] : "?");
            break;
        }
        case D6_FACT_MORTAL:
            put(&o, ",\"total\":%d,\"count\":%d,\"result\":\"%s\"", f->a, f->b,
                f->c ? "dies" : "lives");
            break;
        case D6_FACT_WILD_ONE:
            put(&o, ",\"roll\":\"%s\",\"result\":\"%s\"", roll_word(f->a),
                f->b ? "complication" : "cancel-highest");
            break;
        default:
            break;
        }
        put(&o, "}");
    }
    put(&o, "]}");
    return done(&o);
}

/* A name as the command gives it (words.h). */
static bool same_name(const char *x, const char *w, size_t n) {
    return fray__words_is_name(x, w, n);
}

static int weapon_of(const d6_setup *s, const char *w, size_t n) {
    for (int i = 0; i < s->n_weapons; i++)
        if (same_name(s->w[i].name, w, n))
            return i;
    return -1;
}

static int who_of(const d6_setup *s, const char *w, size_t n) {
    for (int i = 0; i < s->n; i++)
        if ((strlen(s->c[i].id) == n && strncmp(s->c[i].id, w, n) == 0) ||
            same_name(s->c[i].name, w, n))
            return i;
    return -1;
}

#define BAD(f, ...)                                                           \
    do {                                                                      \
        snprintf(field, fsize, "%s", f);                                      \
        snprintf(why, wsize, __VA_ARGS__);                                    \
        return FRAY_ERR_PARSE;                                                \
    } while (0)

static bool int_in(json_t *v, long lo, long hi) {
    return json_is_integer(v) && json_integer_value(v) >= lo && json_integer_value(v) <= hi;
}

fray_status d6_event_from_json(const d6_setup *s, const void *json,
                               d6_event *ev, char *field, size_t fsize,
                               char *why, size_t wsize) {
    json_t *o = (json_t *)json;
    memset(ev, 0, offsetof(d6_event, dice));
    ev->actor = ev->target = ev->weapon = -1;
    json_t *v = json_object_get(o, "event");
    if (!int_in(v, 0, INT32_MAX))
        BAD("event", "expected the event's number (0 or more)");
    ev->number = (int32_t)json_integer_value(v);
    v = json_object_get(o, "round");
    if (!int_in(v, 1, 1000000))
        BAD("round", "expected the round (1 or more)");
    ev->round = (int32_t)json_integer_value(v);
    json_t *c = json_object_get(o, "command");
    if (!json_is_object(c))
        BAD("command", "expected the command (an object)");
    v = json_object_get(c, "action");
    int k = -1;
    for (int i = 0; i < D6_EV_KINDS && json_is_string(v); i++)
        if (strcmp(json_string_value(v), d6_kind_word(i)) == 0)
            k = i;
    if (k < 0)
        BAD("command.action", "expected an action: begin, next, attack, defend, move, wait, aim, "
                             "quick-draw, ready, squeeze, escape, break-free, slip-free, get-up, "
                             "posture, run, break, pin or slam");
    ev->kind = (uint8_t)k;
    if ((v = json_object_get(c, "actor"))) {
        int i = json_is_string(v) ? who_of(s, json_string_value(v), strlen(json_string_value(v))) : -1;
        if (i < 0)
            BAD("command.actor", "expected a combatant's id");
        ev->actor = (int8_t)i;
    }
    if ((v = json_object_get(c, "target"))) {
        int i = json_is_string(v) ? who_of(s, json_string_value(v), strlen(json_string_value(v))) : -1;
        if (i < 0 || (k != D6_EV_ATTACK && k != D6_EV_AIM && k != D6_EV_SQUEEZE &&
                      k != D6_EV_PIN && k != D6_EV_SLAM))
            BAD("command.target", "expected a combatant's id (an attack's or aim's target)");
        ev->target = (int8_t)i;
    }
    if ((v = json_object_get(c, "weapon"))) {
        int wi = json_is_string(v) ? weapon_of(s, json_string_value(v),
                                               strlen(json_string_value(v)))
                                   : -1;
        if (wi < 0 || (k != D6_EV_ATTACK && k != D6_EV_QUICK_DRAW && k != D6_EV_READY &&
                       k != D6_EV_BREAK))
            BAD("command.weapon", "expected a weapon of the encounter (an attack's)");
        ev->weapon = (int8_t)wi;
    }
    if (k == D6_EV_ATTACK) {
        v = json_object_get(c, "actions");
        if (!int_in(v, 1, D6_MAX_ACTIONS))
            BAD("command.actions", "expected the actions declared (1 to %d)", D6_MAX_ACTIONS);
        ev->actions = (uint8_t)json_integer_value(v);
        if (ev->target < 0)
            BAD("command", "an attack needs a target");
    }
    v = json_object_get(c, k == D6_EV_ATTACK ? "defend" : "full");
    if (v) {
        if (!json_is_boolean(v) || (k != D6_EV_ATTACK && k != D6_EV_DEFEND))
            BAD(k == D6_EV_ATTACK ? "command.defend" : "command.full", "expected true or false");
        ev->full = json_is_true(v);
    }
    if ((v = json_object_get(c, "grab"))) {
        int g = json_is_string(v) ? d6_grab_of(json_string_value(v),
                                               strlen(json_string_value(v)))
                                  : -1;
        if (g < 0 || k != D6_EV_ATTACK)
            BAD("command.grab", "expected hold, choke, tackle, flip or arm-pin (an attack's grab)");
        ev->grab = (uint8_t)g;
    }
    if ((v = json_object_get(c, "hold_dice"))) {
        if (!int_in(v, 3, 20) || ev->grab != D6_GRAB_HOLD)
            BAD("command.hold_dice", "expected the dice a hold takes off its damage (3 to 20)");
        ev->hold_dice = (uint8_t)json_integer_value(v);
    }
    if ((v = json_object_get(c, "parry"))) {
        if (!json_is_boolean(v) || (k != D6_EV_ATTACK && k != D6_EV_DEFEND))
            BAD("command.parry", "expected true or false (a defense's)");
        ev->parry = json_is_true(v);
    }
    if ((v = json_object_get(c, "option"))) { /* options.c */
        int opt = json_is_string(v) ? d6_option_word(json_string_value(v),
                                                     strlen(json_string_value(v)))
                                    : -1;
        if (opt < 0 || k != D6_EV_ATTACK)
            BAD("command.option", "expected all-out, lunge, sweep, knockdown, push or knockout (an attack's)");
        ev->option = (uint8_t)opt;
    }
    if ((v = json_object_get(c, "called"))) {
        const char *cs = json_is_string(v) ? json_string_value(v) : "";
        int z = !strcmp(cs, "large") ? 1 : !strcmp(cs, "small") ? 2 : !strcmp(cs, "tiny") ? 3 : 0;
        if (!z || k != D6_EV_ATTACK)
            BAD("command.called", "expected large, small or tiny (an attack's called shot)");
        ev->called = (uint8_t)z;
    }
    for (int bit = 1; bit <= D6_SIGHT_BEHIND; bit <<= 1)
        if ((v = json_object_get(c, d6_sight_row(bit)->word))) {
            if (!json_is_boolean(v) || k != D6_EV_ATTACK)
                BAD("command", "expected true or false (an attack's blind, target-blind, behind)");
            if (json_is_true(v))
                ev->sight = (uint8_t)(ev->sight | bit);
        }
    if ((v = json_object_get(c, "posture"))) { /* options.c */
        const char *ps = json_is_string(v) ? json_string_value(v) : "";
        int z = -1;
        for (int q = 0; q < D6_POSTURES; q++)
            if (!strcmp(ps, d6_posture_word(q)))
                z = q;
        if (z < 0 || k != D6_EV_POSTURE)
            BAD("command.posture", "expected crouch, prone or stand (a posture's)");
        ev->posture = (uint8_t)z;
    }
    if ((v = json_object_get(c, "location"))) {
        const char *ls = json_is_string(v) ? json_string_value(v) : "";
        int z = 0;
        for (int q = 1; q < D6_LOC_KINDS; q++)
            if (!strcmp(ls, d6_location_row(q)->word))
                z = q;
        if (!z || k != D6_EV_ATTACK)
            BAD("command.location", "expected head, heart, chest, arm, leg or hand (an attack's)");
        ev->location = (uint8_t)z;
    }
    if ((v = json_object_get(c, "trick"))) { /* things.c (003:5) */
        if (!int_in(v, 1, 200) || k != D6_EV_ATTACK)
            BAD("command.trick", "expected an acrobatic trick's difficulty (1 to 200, an attack's)");
        ev->trick = (uint8_t)json_integer_value(v);
    }
    if ((v = json_object_get(c, "object"))) { /* things.c (003:51) */
        const char *os = json_is_string(v) ? json_string_value(v) : "";
        int ob = d6_object_of(s, os, strlen(os));
        if (ob < 0 || k != D6_EV_BREAK)
            BAD("command.object", "expected an object of the encounter (a break's)");
        ev->object = (uint8_t)(ob + 1);
    }
    if (k == D6_EV_BREAK && !ev->object)
        BAD("command.object", "expected the object to break (003:51)");
    if (k == D6_EV_MOVE || k == D6_EV_RUN) {
        json_t *x = json_object_get(c, "x"), *y = json_object_get(c, "y");
        if (!int_in(x, -30000, 30000))
            BAD("command.x", "expected where it moves to, in meters (-30000 to 30000)");
        if (!int_in(y, -30000, 30000))
            BAD("command.y", "expected where it moves to, in meters (-30000 to 30000)");
        ev->x = (int16_t)json_integer_value(x);
        ev->y = (int16_t)json_integer_value(y);
    }
    if ((v = json_object_get(c, "both"))) { /* draw.c (003:89) */
        if (!json_is_true(v) || k != D6_EV_ATTACK || ev->weapon >= 0)
            BAD("command.both", "expected true (an attack with a weapon in each hand)");
        ev->weapon = D6_BOTH_HANDS;
    }
    if (k == D6_EV_READY && ev->weapon < 0)
        BAD("command.weapon", "expected the weapon readied (003:101)");
    if ((v = json_object_get(c, "disarm"))) { /* holds.c (003:61) */
        if (!json_is_boolean(v) || k != D6_EV_ATTACK)
            BAD("command.disarm", "expected true or false (an attack's disarm)");
        ev->disarm = json_is_true(v);
    }
    if (k == D6_EV_PIN) { /* holds.c (003:17-24) */
        v = json_object_get(c, "pin");
        int op = json_is_string(v) ? d6_pin_of(json_string_value(v), strlen(json_string_value(v)))
                                   : -1;
        if (op < 0)
            BAD("command.pin", "expected damage, break or submit (an arm pin's option)");
        ev->pin_op = (uint8_t)op;
    } else if (json_object_get(c, "pin")) {
        BAD("command.pin", "only an arm pin's command has a pin option");
    }
    if ((v = json_object_get(c, "resisted"))) {
        if (!json_is_boolean(v) || k != D6_EV_PIN)
            BAD("command.resisted", "expected true or false (an arm pin's break or submit)");
        ev->resisted = json_is_true(v);
    }
    if ((v = json_object_get(c, "into"))) { /* holds.c (003:15-16) */
        int ob = json_is_string(v) ? d6_slam_of(json_string_value(v),
                                                  strlen(json_string_value(v)))
                                   : -1;
        if (ob < 0 || k != D6_EV_SLAM)
            BAD("command.into", "expected ground, wall, flimsy, tough, sturdy, very-sturdy or "
                                "reinforced (what a slam hits)");
        ev->slam_into = (uint8_t)ob;
    }
    if (k == D6_EV_QUICK_DRAW) { /* draw.c */
        json_t *m = json_object_get(c, "moved"), *n = json_object_get(c, "attacks");
        if (!int_in(m, 1, 200))
            BAD("command.moved", "expected the dice moved to Acumen (1 or more)");
        if (!int_in(n, 1, D6_MAX_ACTIONS))
            BAD("command.attacks", "expected the attacks (1 to %d)", D6_MAX_ACTIONS);
        ev->x = (int16_t)json_integer_value(m);
        ev->actions = (uint8_t)json_integer_value(n);
    }
    if (k == D6_EV_AIM && ev->target < 0)
        BAD("command", "aiming needs a target");
    if (k != D6_EV_BEGIN && k != D6_EV_ROUND && ev->actor < 0)
        BAD("command", "the %s needs an actor", d6_kind_title(k));
    v = json_object_get(o, "given");
    if (v && !json_is_boolean(v))
        BAD("given", "expected true or false");
    ev->given = v && json_is_true(v);
    json_t *d = json_object_get(o, "dice");
    if (!json_is_array(d))
        BAD("dice", "expected the dice rolled (a list)");
    if (json_array_size(d) > D6_EV_DICE)
        BAD("dice", "at most %d dice in one event", D6_EV_DICE);
    for (size_t i = 0; i < json_array_size(d); i++) {
        char f[32];
        snprintf(f, sizeof f, "dice[%zu]", i);
        if (!int_in(json_array_get(d, i), 1, 6))
            BAD(f, "expected a d6's roll (1 to 6)");
        ev->dice[i] = (uint8_t)json_integer_value(json_array_get(d, i));
    }
    ev->n_dice = (uint16_t)json_array_size(d);
    return FRAY_OK;
}

/* ---- The table's words ------------------------------------------------------- */

static bool word_eq(const char *a, size_t n, const char *b) {
    if (strlen(b) != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return false;
    return true;
}

static fray_status bad_word(fray_diag *diag, const char *text, const char *tok,
                            size_t n, const char *what) {
    return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(tok - text) + 1,
                          "'%.*s': %s", (int)n, tok, what);
}

/* A small number from a token; false when it is not one. */
static bool small_int(const char *w, size_t n, long lo, long hi, long *val) {
    char b[16];
    if (n == 0 || n >= sizeof b)
        return false;
    memcpy(b, w, n);
    b[n] = '\0';
    char *end = NULL;
    long v = strtol(b, &end, 10);
    if (*end || v < lo || v > hi)
        return false;
    *val = v;
    return true;
}

/* `ID quick-draw N [attacks K] [with WEAPON]` (draw.c, 003:95-99). */
static fray_status d6_parse_quick_draw(const d6_setup *s, const char *text,
                                       const char *const *tok, const size_t *len, int n,
                                       d6_event *cmd, fray_diag *diag) {
    cmd->kind = D6_EV_QUICK_DRAW;
    cmd->actions = 1;
    long v;
    if (n < 3 || !small_int(tok[2], len[2], 1, 200, &v))
        return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(tok[1] - text) + 1,
                              "quick-draw takes the skill dice moved to Acumen: "
                              "ID quick-draw N [attacks K] [with WEAPON]");
    cmd->x = (int16_t)v;
    for (int k = 3; k < n; k++) {
        if (word_eq(tok[k], len[k], "with") && k + 1 < n) {
            int wi = weapon_of(s, tok[k + 1], len[k + 1]);
            if (wi < 0)
                return bad_word(diag, text, tok[k + 1], len[k + 1],
                                "no weapon of that name in the encounter");
            cmd->weapon = (int8_t)wi;
            k++;
        } else if (word_eq(tok[k], len[k], "attacks") && k + 1 < n) {
            if (!small_int(tok[k + 1], len[k + 1], 1, D6_MAX_ACTIONS, &v))
                return bad_word(diag, text, tok[k + 1], len[k + 1],
                                "expected the attacks this round, 1 to 4");
            cmd->actions = (uint8_t)v;
            k++;
        } else {
            return bad_word(diag, text, tok[k], len[k], "expected `attacks K` or `with WEAPON`");
        }
    }
    return FRAY_OK;
}

fray_status d6_parse(const d6_setup *s, const d6_state *st, const char *text,
                     d6_event *cmd, fray_diag *diag) {
    (void)st;
    memset(cmd, 0, offsetof(d6_event, dice));
    cmd->actor = cmd->target = cmd->weapon = -1;
    enum { MAXT = 16 };
    const char *tok[MAXT];
    size_t len[MAXT];
    int n = 0;
    const char *p = text;
    while (*p) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        if (n == MAXT)
            return bad_word(diag, text, p, strlen(p), "too many words for a command");
        tok[n] = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        len[n] = (size_t)(p - tok[n]);
        n++;
    }
    if (n == 0)
        return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                              "an empty command: say `next`, or ID attack T, ID "
                              "defend, ID move X,Y, ID wait or ID aim T");
    if (n == 1 && word_eq(tok[0], len[0], "next")) {
        cmd->kind = D6_EV_ROUND;
        return FRAY_OK;
    }
    int a = who_of(s, tok[0], len[0]);
    if (a < 0)
        return bad_word(diag, text, tok[0], len[0], "no combatant of that id");
    cmd->actor = (int8_t)a;
    if (n < 2)
        return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(tok[0] - text) + 1,
                              "what does %s do? attack T, defend, move X,Y, wait or aim T",
                              s->c[a].name);
    const char *w = tok[1];
    size_t wl = len[1];
    if (word_eq(w, wl, "wait")) {
        if (n > 2)
            return bad_word(diag, text, tok[2], len[2], "wait takes nothing more");
        cmd->kind = D6_EV_WAIT;
        return FRAY_OK;
    }
    if (word_eq(w, wl, "defend")) {
        cmd->kind = D6_EV_DEFEND;
        for (int k = 2; k < n; k++) {
            if (word_eq(tok[k], len[k], "full") && !cmd->full)
                cmd->full = 1;
            else if (word_eq(tok[k], len[k], "parry") && !cmd->parry)
                cmd->parry = 1;
            else
                return bad_word(diag, text, tok[k], len[k], "expected `full`, `parry` or nothing");
        }
        return FRAY_OK;
    }
    if (word_eq(w, wl, "break")) { /* things.c (003:51) */
        cmd->kind = D6_EV_BREAK;
        if (n != 3 && n != 5)
            return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(w - text) + 1,
                                  "break what? ID break OBJECT [with WEAPON]");
        int ob = d6_object_of(s, tok[2], len[2]);
        if (ob < 0)
            return bad_word(diag, text, tok[2], len[2], "no object of that id in the encounter");
        cmd->object = (uint8_t)(ob + 1);
        if (n == 5) {
            if (!word_eq(tok[3], len[3], "with"))
                return bad_word(diag, text, tok[3], len[3], "expected `with WEAPON`");
            int wi = weapon_of(s, tok[4], len[4]);
            if (wi < 0)
                return bad_word(diag, text, tok[4], len[4],
                                "no weapon of that name in the encounter");
            cmd->weapon = (int8_t)wi;
        }
        return FRAY_OK;
    }
    if (word_eq(w, wl, "move") || word_eq(w, wl, "run")) {
        cmd->kind = word_eq(w, wl, "run") ? D6_EV_RUN : D6_EV_MOVE; /* run: things.c */
        if (n != 3)
            return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(w - text) + 1,
                                  "%s takes where to: X,Y in meters",
                                  cmd->kind == D6_EV_RUN ? "run" : "move");
        const char *comma = memchr(tok[2], ',', len[2]);
        long x, y;
        if (!comma || !small_int(tok[2], (size_t)(comma - tok[2]), -30000, 30000, &x) ||
            !small_int(comma + 1, len[2] - (size_t)(comma - tok[2]) - 1, -30000, 30000, &y))
            return bad_word(diag, text, tok[2], len[2],
                            "expected where to as X,Y in whole meters");
        cmd->x = (int16_t)x;
        cmd->y = (int16_t)y;
        return FRAY_OK;
    }
    int gk = word_eq(w, wl, "squeeze")      ? D6_EV_SQUEEZE
             : word_eq(w, wl, "escape")     ? D6_EV_ESCAPE
             : word_eq(w, wl, "break-free") ? D6_EV_BREAK_FREE
             : word_eq(w, wl, "slip-free")  ? D6_EV_SLIP_FREE
             : word_eq(w, wl, "get-up")     ? D6_EV_GET_UP
                                            : -1;
    if (gk >= 0) { /* grabs.c */
        cmd->kind = (uint8_t)gk;
        if (n > 2)
            return bad_word(diag, text, tok[2], len[2], "that action takes nothing more");
        return FRAY_OK;
    }
    if (word_eq(w, wl, "pin")) { /* holds.c: `ID pin damage|break|submit [resisted]` */
        cmd->kind = D6_EV_PIN;
        int op = n >= 3 ? d6_pin_of(tok[2], len[2]) : -1;
        if (op < 0)
            return n >= 3 ? bad_word(diag, text, tok[2], len[2],
                                     "expected damage, break or submit (003:18-24)")
                          : fray__diag_set(diag, FRAY_ERR_PARSE, (int)(w - text) + 1,
                                           "pin takes an option: damage, break or submit");
        cmd->pin_op = (uint8_t)op;
        for (int k = 3; k < n; k++) {
            if (!word_eq(tok[k], len[k], "resisted") || cmd->resisted || op == D6_PIN_DAMAGE)
                return bad_word(diag, text, tok[k], len[k],
                                op == D6_PIN_DAMAGE ? "damage takes nothing more"
                                                    : "expected `resisted` or nothing");
            cmd->resisted = 1;
        }
        return FRAY_OK;
    }
    if (word_eq(w, wl, "slam") || word_eq(w, wl, "throw")) { /* `ID slam [into] [OBJECT]` */
        cmd->kind = D6_EV_SLAM;
        cmd->actions = 2; /* lifting and slamming: two actions (003:15) */
        int k = 2;
        if (k < n && word_eq(tok[k], len[k], "into"))
            k++;
        if (k < n) {
            int ob = d6_slam_of(tok[k], len[k]);
            if (ob < 0)
                return bad_word(diag, text, tok[k], len[k],
                                "expected ground, wall, flimsy, tough, sturdy, very-sturdy or "
                                "reinforced");
            cmd->slam_into = (uint8_t)ob;
            k++;
        }
        if (k < n)
            return bad_word(diag, text, tok[k], len[k], "that slam takes nothing more");
        return FRAY_OK;
    }
    if (word_eq(w, wl, "posture") && n == 3) { /* `ID posture crouch` */
        w = tok[2];
        wl = len[2];
        n = 2;
    }
    for (int q = 0; q < D6_POSTURES; q++)
        if (word_eq(w, wl, d6_posture_word(q))) { /* 003:91-93 */
            if (n != 2)
                return bad_word(diag, text, w, wl, "crouch, prone and stand take no more words");
            cmd->kind = D6_EV_POSTURE;
            cmd->posture = (uint8_t)q;
            return FRAY_OK;
        }
    if (word_eq(w, wl, "aim")) {
        cmd->kind = D6_EV_AIM;
        if (n != 3)
            return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(w - text) + 1,
                                  "aim at whom? ID aim T");
        int t = who_of(s, tok[2], len[2]);
        if (t < 0)
            return bad_word(diag, text, tok[2], len[2], "no combatant of that id");
        cmd->target = (int8_t)t;
        return FRAY_OK;
    }
    if (word_eq(w, wl, "ready")) { /* draw.c (003:101) */
        cmd->kind = D6_EV_READY;
        if (n != 3)
            return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(w - text) + 1,
                                  "ready which weapon? ID ready WEAPON");
        int wi = weapon_of(s, tok[2], len[2]);
        if (wi < 0)
            return bad_word(diag, text, tok[2], len[2], "no weapon of that name in the encounter");
        cmd->weapon = (int8_t)wi;
        return FRAY_OK;
    }
    if (word_eq(w, wl, "quick-draw")) /* draw.c (003:95) */
        return d6_parse_quick_draw(s, text, tok, len, n, cmd, diag);
    if (!word_eq(w, wl, "attack"))
        return bad_word(diag, text, w, wl,
                        "expected attack, defend, move, wait or aim; "
                        "or, before next, quick-draw N");
    cmd->kind = D6_EV_ATTACK;
    cmd->actions = 1;
    if (n < 3)
        return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(w - text) + 1,
                              "attack whom? ID attack T [with WEAPON] [actions N] [defend]");
    int t = who_of(s, tok[2], len[2]);
    if (t < 0)
        return bad_word(diag, text, tok[2], len[2], "no combatant of that id");
    cmd->target = (int8_t)t;
    for (int k = 3; k < n; k++) {
        if (word_eq(tok[k], len[k], "with") && k + 1 < n) {
            int wi = weapon_of(s, tok[k + 1], len[k + 1]);
            if (wi < 0)
                return bad_word(diag, text, tok[k + 1], len[k + 1],
                                "no weapon of that name in the encounter");
            if (cmd->weapon == D6_BOTH_HANDS)
                return bad_word(diag, text, tok[k], len[k], "`both` attacks with the two in hand");
            cmd->weapon = (int8_t)wi;
            k++;
        } else if (word_eq(tok[k], len[k], "actions") && k + 1 < n) {
            long v;
            if (!small_int(tok[k + 1], len[k + 1], 1, D6_MAX_ACTIONS, &v))
                return bad_word(diag, text, tok[k + 1], len[k + 1],
                                "expected the actions declared this round, 1 to 4");
            cmd->actions = (uint8_t)v;
            k++;
        } else if (word_eq(tok[k], len[k], "both") && cmd->weapon < 0) { /* 003:89 */
            cmd->weapon = D6_BOTH_HANDS;
        } else if (word_eq(tok[k], len[k], "defend")) {
            cmd->full = 1;
        } else if (word_eq(tok[k], len[k], "parry")) {
            cmd->full = 1;
            cmd->parry = 1;
        } else if ((word_eq(tok[k], len[k], "grab") || word_eq(tok[k], len[k], "tackle")) &&
                   !cmd->grab) {
            cmd->grab = word_eq(tok[k], len[k], "tackle") ? D6_GRAB_TACKLE : D6_GRAB_HOLD;
            int g = k + 1 < n && cmd->grab == D6_GRAB_HOLD ? d6_grab_of(tok[k + 1], len[k + 1]) : -1;
            if (g == D6_GRAB_HOLD || g == D6_GRAB_CHOKE || g == D6_GRAB_FLIP ||
                g == D6_GRAB_ARM_PIN) {
                cmd->grab = (uint8_t)g;
                k++;
            }
            long hd; /* grab hold N: N dice off the damage (003:14) */
            if (cmd->grab == D6_GRAB_HOLD && k + 1 < n &&
                small_int(tok[k + 1], len[k + 1], 3, 20, &hd)) {
                cmd->hold_dice = (uint8_t)hd;
                k++;
            }
        } else if (word_eq(tok[k], len[k], "trick") && !cmd->trick) { /* things.c (003:5) */
            long td = d6_trick_difficulty(s);
            if (k + 1 < n && small_int(tok[k + 1], len[k + 1], 1, 200, &td))
                k++;
            cmd->trick = (uint8_t)td;
        } else if (word_eq(tok[k], len[k], "disarm") && !cmd->disarm) { /* holds.c */
            cmd->disarm = 1;
        } else if (d6_attack_word(cmd, tok[k], len[k], k + 1 < n ? tok[k + 1] : "",
                                  k + 1 < n ? len[k + 1] : 0, &k)) {
            continue; /* options.c: seed 003's attack options */
        } else {
            return bad_word(diag, text, tok[k], len[k],
                            "expected `with WEAPON`, `actions N`, `defend`, `parry`, "
                            "`grab [hold [N]|choke|flip|arm-pin]`, `tackle`, `disarm`, "
                            "`all-out`, `lunge`, `sweep`, `knockdown`, `push`, `knockout`, "
                            "`called large|small|tiny`, `at head|heart|chest|arm|leg|hand`, "
                            "`blind`, `target-blind`, `behind` or `trick [N]`");
        }
    }
    if (cmd->full && cmd->actions < 2)
        cmd->actions = 2; /* attack and dodge: two actions */
    if (cmd->disarm && !cmd->called) /* holds.c: a called shot at the item (003:49, 61) */
        cmd->called = (uint8_t)(st ? d6_disarm_size(s, st, t) : 1);
    if (cmd->weapon == D6_BOTH_HANDS && cmd->actions < 2 + cmd->full)
        cmd->actions = (uint8_t)(2 + cmd->full); /* one action a weapon (003:89) */
    if (cmd->trick && cmd->actions < 2 + cmd->full)
        cmd->actions = (uint8_t)(2 + cmd->full); /* the trick is an action (003:5) */
    return FRAY_OK;
}

/* ---- Drawn for the GM ---------------------------------------------------------- */

static void status_words(const d6_setup *s, const d6_state *st, int i, out *o) {
    const d6_cstate *c = &st->c[i];
    if (s->o.health == D6_HEALTH_WOUNDS)
        put(o, "  %s", d6_wound_name(c->wound));
    else
        put(o, "  Body Points %d/%d", c->bp, s->c[i].b.body_points);
    if (c->stun_round >= st->round && c->wound >= D6_W_STUNNED && s->o.health == D6_HEALTH_WOUNDS &&
        c->wound != D6_W_STUNNED)
        put(o, ", Stunned");
    if (c->flags & D6_F_UP)
        put(o, " (stayed up, -3D)");
    if (d6_out(c))
        put(o, ", out of the fight%s", c->submitted ? " (submitted to an arm pin)" : "");
    if (c->flags & D6_F_WAITING)
        put(o, ", waiting");
    if (c->aim_dice > 0)
        put(o, ", aiming at %s +%dD", nm(s, c->aim_target), c->aim_dice);
    if (d6_holder(st, i) >= 0)
        put(o, ", %s by %s",
            c->hold_kind == D6_GRAB_TACKLE    ? "tackled"
            : c->hold_kind == D6_GRAB_ARM_PIN ? "arm pinned"
                                              : "held",
            nm(s, d6_holder(st, i)));
    if (c->tangle > 0 && !d6_out(c))
        put(o, ", entangled (%d to get free)", c->tangle);
    if (c->down && !d6_out(c)) /* 003:8, 13, 93: one state (D7.7) */
        put(o, ", on the ground (%s)",
            c->down == D6_GROUND_FLIP ? "flipped: its next turn getting up" : "standing takes an action");
    for (int w = 0; w < s->n_weapons && !d6_out(c); w++)
        if (c->dropped & (1u << w)) /* holds.c (003:61) */
            put(o, ", its %s knocked away", s->w[w].name);
    else if (c->posture && !d6_out(c))
        put(o, ", %s", c->posture == D6_POSTURE_PRONE ? "prone" : "crouching");
    if (c->parts && !d6_out(c)) /* 003:83-85 */
        put(o, ", hurt in%s%s%s", (c->parts & D6_PART_HEAD) ? " the head" : "",
            (c->parts & D6_PART_HAND) ? " a hand or arm" : "",
            (c->parts & D6_PART_LEG) ? " a leg" : "");
    if (c->agility_dice > 0 && !d6_out(c))
        put(o, ", -%dD on its next Agility roll", c->agility_dice);
    if (c->defense != D6_DEF_NONE)
        put(o, ", %s%s %d", c->defense == D6_DEF_FULL ? "full defense, " : "",
            c->def_parry ? "parrying" : "dodging", c->def_total);
    int pen = d6_wound_penalty(s, st, i);
    if (pen > 0 && !d6_out(c))
        put(o, ", -%dD", pen);
}

size_t d6_draw_time(const d6_setup *s, const d6_state *st, char *buf,
                    size_t size) {
    out o = {buf, size, 0};
    if (buf && size)
        buf[0] = '\0';
    put(&o, "Round %d\n", st->round);
    int now = d6_actor(st);
    for (int k = 0; k < st->n_order; k++) {
        int i = st->order[k];
        const char *mark = i == now ? "now " : k < st->pos ? "done" : d6_out(&st->c[i]) ? "out " : "    ";
        if (s->o.initiative == D6_INIT_FIRST_ACTION)
            put(&o, "  %s %s\n", mark, s->c[i].name);
        else
            put(&o, "  %s %-3d %s\n", mark, st->c[i].init, s->c[i].name);
    }
    if (now < 0 && !st->over)
        put(&o, "  (everyone has had a turn: next)\n");
    return done(&o);
}

size_t d6_draw_map(const d6_setup *s, const d6_state *st, char *buf,
                   size_t size) {
    out o = {buf, size, 0};
    if (buf && size)
        buf[0] = '\0';
    for (int i = 0; i < st->n; i++) {
        if (d6_out(&st->c[i]))
            continue;
        put(&o, "  %s at (%d, %d)", s->c[i].name, st->c[i].x, st->c[i].y);
        int near = -1, nd = 0;
        for (int j = 0; j < st->n; j++) {
            if (s->c[j].side == s->c[i].side || d6_out(&st->c[j]))
                continue;
            int d = d6_distance(st, i, j);
            if (near < 0 || d < nd) {
                near = j;
                nd = d;
            }
        }
        if (near >= 0)
            put(&o, ", %d m from %s", nd, s->c[near].name);
        put(&o, "\n");
    }
    for (int k = 0; k < s->n_objects; k++) /* things.c (003:51-59) */
        if (s->obj[k].has_at && !((st->obj_broken >> k) & 1u))
            put(&o, "  the %s at (%d, %d)\n", s->obj[k].name, s->obj[k].x, s->obj[k].y);
    return done(&o);
}

size_t d6_summary(const d6_setup *s, const d6_state *st, char *buf, size_t size) {
    out o = {buf, size, 0};
    if (buf && size)
        buf[0] = '\0';
    put(&o, "Round %d\n", st->round);
    for (int i = 0; i < st->n; i++) {
        put(&o, "  %-20s at (%d, %d)", s->c[i].name, st->c[i].x, st->c[i].y);
        status_words(s, st, i, &o);
        put(&o, "\n");
    }
    for (int k = 0; k < s->n_objects; k++) { /* things.c (003:51-59) */
        int pips = s->obj[k].toughness.dice * 3 + s->obj[k].toughness.pips -
                   3 * st->obj_weak[k];
        if (pips < 0)
            pips = 0;
        put(&o, "  the %-16s %s", s->obj[k].name,
            (st->obj_broken >> k) & 1u ? "destroyed" : "standing");
        if (!((st->obj_broken >> k) & 1u)) {
            put(&o, ", Toughness %dD", pips / 3);
            if (pips % 3)
                put(&o, "+%d", pips % 3);
            put(&o, "%s", st->obj_weak[k] ? " (weakened)" : "");
        }
        put(&o, "\n");
    }
    if (st->over) {
        if (st->winner >= 0)
            put(&o, "The winner: %s.\n", s->side_name[st->winner]);
        else
            put(&o, "Nobody is left in the fight.\n");
    }
    if (st->started) {
        if (s->o.mortal_rolls && s->o.health == D6_HEALTH_WOUNDS) { /* things.c (core) */
            int dead = 0;
            for (int i = 0; i < st->n; i++)
                dead += st->c[i].wound == D6_W_DEAD;
            put(&o, "Alive: %d; dead: %d", st->n - dead, dead);
            for (int i = 0, k = 0; i < st->n; i++)
                if (st->c[i].wound == D6_W_DEAD)
                    put(&o, "%s%s", k++ ? ", " : " (", s->c[i].name);
            put(&o, "%s.\n", dead ? ")" : "");
        }
    }
    return done(&o);
}
