/*
 * tell.c - Silent Winter in words: the narration of an event, its JSON
 * line (docs/journal.md) and back, the table's commands
 * (docs/file-formats.md "Silent Winter commands"), the summary, the
 * segment track and the engagement graph drawn for the GM as text
 * ("Lothaire <-> Walking Corpse, Rogue -> Lothaire").
 */
#include "winter_int.h"

#include <ctype.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "view_build.h"
#include "words.h"

/* The text being told: internal.h's bounded builder (snprintf-style:
 * what fits, terminated; len counts the whole). */
typedef fray__text out;
#define put fray__text_f
static size_t done(const out *o) { return o->len; }

static const char *nm(const sw_setup *s, int i) {
    return i >= 0 && i < s->n ? s->c[i].name : "nobody";
}
static const char *idof(const sw_setup *s, int i) {
    return i >= 0 && i < s->n ? s->c[i].id : "";
}

static const char *const cover_words[] = {"none", "partial", "full"};

static const char *contest_what(int k) {
    switch (k) {
    case SW_EV_AVOID: return "Agility to Avoid";
    case SW_EV_SWITCH: return "Agility to Switch Targets";
    case SW_EV_DISENGAGE: return "Agility to Disengage";
    case SW_EV_CHASE: return "Agility to chase down the Sniper";
    case SW_EV_MEDICINE: return "a flat Endurance (or Medicine) roll to stop the bleeding";
    case SW_EV_WAIT: return "a flat Endurance roll to regain consciousness";
    case SW_EV_WIELD: return "a flat Agility roll to take up the weapon";
    case SW_EV_CAST: return "a flat Endurance roll to keep casting and Maintaining";
    case SW_EV_RELEASE: return "a flat Endurance roll to keep Maintaining";
    case SW_EV_SURMOUNT: return "a flat Agility roll to surmount the obstacle";
    case SW_EV_DISMOUNT: return "Ride (002:61)";
    case SW_EV_MOUNT: return "a flat Ride roll to get into the saddle";
    default: return "a check";
    }
}

static const char *spell_name(const sw_setup *s, int k) {
    return k >= 0 && k < s->n_spells ? s->sp[k].name : "?";
}

static const char *talent_name(const sw_setup *s, int k) {
    return k >= 0 && k < s->n_talents ? s->tl[k].name : "?";
}

static const char *const engage_fail[] = {
    "", "the engager can no longer act", "the target is dead",
    "the target is Sniping and was not chased down (002:47)",
    "they engage each other already", "the target is Fully Engaged (002:27)",
    "the engager is Stunned (002:98; stun-interrupts: yes)"};

/* ---- Narration ----------------------------------------------------------- */

size_t sw_narrate(const sw_setup *s, const sw_event *ev, char *buf, size_t size) {
    return sw_narrate_hidden(s, ev, NULL, buf, size);
}

/* (issue 14) Health and Pain in words (the view's, view.c). */
static const char *health_words(const sw_setup *s, int i, int health) {
    return fray__view_descriptor(health, s->c[i].b.health);
}
static const char *pain_words(const sw_setup *s, int i, int pain) {
    return sw_pain_words(pain, s->c[i].b.pain, pain <= -s->c[i].b.pain);
}

size_t sw_narrate_hidden(const sw_setup *s, const sw_event *ev,
                         const bool *hide, char *buf, size_t size) {
    out o = {buf, size, 0};
    if (buf && size)
        buf[0] = '\0';
    if (ev->kind == SW_EV_BEGIN)
        put(&o, "Combat begins: %s acts first (002:13).\n", nm(s, s->initiator));
    else if (ev->kind == SW_EV_NEXT && ev->arg == 0)
        put(&o, "End of segment %d.\n", ev->seg);
    else if (ev->kind == SW_EV_NEXT)
        put(&o, "End of segment %d; nothing happens until segment %d.\n",
            ev->seg, ev->seg + 1 + ev->arg);
    for (int k = 0; k < ev->n_facts; k++) {
        const sw_fact *f = &ev->facts[k];
        const char *who = nm(s, f->who), *other = nm(s, f->other);
        if (hide && f->who >= 0 && f->who < s->n && hide[f->who] &&
            (f->kind == SW_FACT_DAMAGE || f->kind == SW_FACT_PAIN ||
             f->kind == SW_FACT_BLEED || f->kind == SW_FACT_TALENT)) {
            /* Issue 14: no Health or Pain number; the dice stay. */
            if (f->kind == SW_FACT_TALENT) {
                if (f->c)
                    put(&o, "  %s spends Pain on %s (Pain: %s).\n", who,
                        talent_name(s, f->a), pain_words(s, f->who, f->b));
            } else if (f->kind == SW_FACT_DAMAGE)
                put(&o, "  %s takes damage (%d rolled); Health: %s.\n", who,
                    f->a, health_words(s, f->who, f->c));
            else if (f->kind == SW_FACT_PAIN && f->b)
                put(&o, "  %s loses a point of Pain (Pain: %s) and 1d6 Health "
                        "for it (rolled %d); Health: %s.\n",
                    who, pain_words(s, f->who, f->a), f->b,
                    health_words(s, f->who, f->c));
            else if (f->kind == SW_FACT_PAIN)
                put(&o, "  %s loses a point of Pain (Pain: %s).\n", who,
                    pain_words(s, f->who, f->a));
            else
                put(&o, "  %s %s; Health: %s.\n", who,
                    f->b ? "fails to stop the bleeding and bleeds" : "bleeds",
                    health_words(s, f->who, f->c));
            continue;
        }
        switch (f->kind) {
        case SW_FACT_INIT:
            if (f->a == 0)
                put(&o, "  %s declares on segment %d.\n", who, f->b);
            else
                put(&o, "  %s rolls 1d6: %d, and first declares on segment %d.\n",
                    who, f->a, f->b);
            break;
        case SW_FACT_DECLARE:
            if (f->a == SW_EV_WAIT)
                put(&o, "Segment %d: %s waits.\n", ev->seg, who);
            else if (f->a == SW_EV_COVER)
                put(&o, "Segment %d: %s takes %s cover; ready again on segment %d.\n",
                    ev->seg, who, cover_words[f->c <= 2 ? f->c : 0], f->b);
            else if (f->a == SW_EV_CAST)
                put(&o, "Segment %d: %s casts %s%s%s; it takes effect at the end of segment "
                        "%d; ready again on segment %d.\n",
                    ev->seg, who, spell_name(s, f->c), f->other >= 0 ? " on " : "",
                    f->other >= 0 ? other : "", f->b - 1, f->b);
            else if (f->a == SW_EV_TALENT)
                put(&o, "Segment %d: %s uses %s on %s; ready again on segment %d.\n",
                    ev->seg, who, talent_name(s, f->c), other, f->b);
            else if (f->a == SW_EV_WIELD)
                put(&o, "Segment %d: %s declares Switch Weapons to %s; ready again on "
                        "segment %d, Undefended meanwhile.\n",
                    ev->seg, who, f->c >= 0 && f->c < s->n_weapons ? s->w[f->c].name : "?",
                    f->b);
            else if ((f->a == SW_EV_ITEM || f->a == SW_EV_SKILL) && f->c > 0 &&
                     f->c - 1 < s->n_items)
                put(&o, "Segment %d: %s uses the %s %s%s%s; ready again on segment %d, "
                        "Undefended meanwhile.\n",
                    ev->seg, who, f->a == SW_EV_ITEM ? "item" : "skill", s->it[f->c - 1].name,
                    f->other >= 0 ? " on " : "", f->other >= 0 ? other : "", f->b);
            else if (f->a == SW_EV_ITEM || f->a == SW_EV_SKILL)
                put(&o, "Segment %d: %s declares %s%s%s; ready again on segment %d, "
                        "Undefended meanwhile (the effect is the GM's call).\n",
                    ev->seg, who, sw_kind_title(f->a), f->other >= 0 ? " on " : "",
                    f->other >= 0 ? other : "", f->b);
            else if (f->other >= 0)
                put(&o, "Segment %d: %s declares %s on %s; ready again on segment %d.\n",
                    ev->seg, who, sw_kind_title(f->a), other, f->b);
            else
                put(&o, "Segment %d: %s declares %s; ready again on segment %d.\n",
                    ev->seg, who, sw_kind_title(f->a), f->b);
            break;
        case SW_FACT_ENGAGED:
            if (f->a && f->c > 1) /* ruling 40 */
                put(&o, "  %s's Engage takes effect: %s engages %s too (%d opponents "
                        "at once, a talent's, 002:63).\n", who, who, other, f->c);
            else if (f->a)
                put(&o, "  %s's Engage takes effect: %s engages %s.\n", who, who, other);
            else
                put(&o, "  %s's Engage on %s ends without effect: %s.\n", who,
                    other, engage_fail[f->b >= 0 && f->b <= 6 ? f->b : 0]);
            break;
        case SW_FACT_RECIP:
            put(&o, "  %s engages %s in return (Reciprocal Engage).\n", who, other);
            break;
        case SW_FACT_CONTEST: {
            /* talents' bonuses to the roll, told (ruling 34) */
            int tm = sw_talent_roll(s, f->who, sw_roll_of_kind(f->d), true),
                tt = sw_talent_roll(s, f->other, sw_roll_of_kind(f->d), false);
            char tw[64] = "";
            if (tm || tt)
                snprintf(tw, sizeof tw, " (talents: %+d, %+d against)", tm, tt);
            if (f->other >= 0)
                put(&o, "  %s rolls %s: %d against %s's %d%s: %s.\n", who,
                    contest_what(f->d), f->a, other, f->b, tw, f->c ? "success" : "failure");
            else
                put(&o, "  %s rolls %s: %d against %d%s: %s.\n", who,
                    contest_what(f->d), f->a, f->b, tw, f->c ? "success" : "failure");
            break;
        }
        case SW_FACT_ATTACK:
            put(&o, "  %s attacks %s%s: %d against %s%d: %s.\n", who, other,
                (f->d & 12) == 12 ? " with the spell (friendly fire; Magic Attack against Magic Defense)"
                : (f->d & 8)  ? " with the spell (Magic Attack against Magic Defense)"
                : (f->d & 16) ? " (the siege weapon's spread, 002:57)"
                : (f->d & 4)  ? " (friendly fire)"
                             : "", f->a,
                (f->d & 2) ? "Undefended " : "", f->b, f->c ? "hit" : "miss");
            break;
        case SW_FACT_FRIENDLY:
            if (f->c == 1) /* ruling 42 */
                put(&o, "  The siege weapon's spread into %s's cluster falls on %s "
                        "(d%d: %d, 002:57).\n", other, nm(s, f->d), f->b, f->a);
            else
                put(&o, "  The miss flies into %s's cluster: it may hit %s (d%d: %d).\n",
                    other, nm(s, f->d), f->b, f->a);
            break;
        case SW_FACT_DAMAGE:
            if (f->d == 1)
                put(&o, "  %s regains up to %d Health; Health %d.\n", who, -f->a, f->c);
            else if (f->d == 2)
                put(&o, "  %s takes %d Magical damage from the enchantment (%d rolled, "
                        "against Magic Resistance, 002:35); Health %d.\n", who, f->b, f->a, f->c);
            else if (f->a != f->b)
                put(&o, "  %s takes %d damage (%d rolled, less resistance); Health %d.\n",
                    who, f->b, f->a, f->c);
            else
                put(&o, "  %s takes %d damage; Health %d.\n", who, f->b, f->c);
            break;
        case SW_FACT_PAIN:
            if (f->b)
                put(&o, "  %s loses a point of Pain (Pain %d) and 1d6 Health for it: %d; Health %d.\n",
                    who, f->a, f->b, f->c);
            else
                put(&o, "  %s loses a point of Pain (Pain %d).\n", who, f->a);
            break;
        case SW_FACT_STATUS:
            if (f->a == SW_ST_AVOIDED)
                put(&o, "  %s scrambles away: %s's Engage fails.\n", who, other);
            else if (f->a == SW_ST_DISENGAGED)
                put(&o, "  %s and %s are no longer Engaged.\n", who, other);
            else if (f->a == SW_ST_SWITCHED)
                put(&o, "  %s now engages %s.\n", who, other);
            else if (f->a == SW_ST_UNHORSED && f->b == 2) /* ruling 43 */
                put(&o, "  %s's getting into %s's saddle is interrupted (Stunned, 002:98).\n",
                    who, other);
            else if (f->a == SW_ST_UNHORSED && !f->b) /* ruling 43 */
                put(&o, "  %s is in %s's saddle again: one target with it (002:63).\n",
                    who, other);
            else if (f->a == SW_ST_UNHORSED)
                put(&o, "  %s is out of %s's saddle (002:65): they are two targets now.\n",
                    who, other);
            else if (f->a == SW_ST_SURMOUNTED && f->c > 0 && f->c <= s->n_obstacles)
                put(&o, "  %s is past the %s and may Engage across it.\n", who,
                    s->ob[f->c - 1].name); /* ruling 46 */
            else if (f->a == SW_ST_SURMOUNTED)
                put(&o, "  %s is past the obstacle and may Engage across it.\n", who);
            else if (f->a == SW_ST_CHASED)
                put(&o, "  %s has chased %s down and may Engage.\n", who, other);
            else if ((f->a == SW_ST_STUNNED || f->a == SW_ST_PARALYZED) && f->b)
                put(&o, "  %s is %s through segment %d: no combat actions, Undefended "
                        "against %s%s (002:%s).\n",
                    who, sw_status_name(f->a), f->c,
                    f->a == SW_ST_PARALYZED ? "everyone" : "every melee foe",
                    f->a == SW_ST_PARALYZED ? ", cannot move" : "",
                    f->a == SW_ST_PARALYZED ? "99" : "98");
            else if (f->a == SW_ST_BLEEDING && !f->b && f->other >= 0)
                put(&o, "  %s stops %s's bleeding.\n", other, who);
            else
                put(&o, "  %s %s %s.\n", who, f->b ? "is" : "is no longer",
                    sw_status_name(f->a));
            break;
        case SW_FACT_BLEED:
            put(&o, "  %s %s %d; Health %d.\n", who,
                f->b ? "fails to stop the bleeding and takes" : "bleeds",
                f->a, f->c);
            break;
        case SW_FACT_SPELL: {
            const char *sp = spell_name(s, f->a);
            switch (f->b) {
            case SW_SF_EFFECT:
                put(&o, "  %s's %s takes effect%s%s (Magic %d).\n", who, sp,
                    f->other >= 0 && f->other != f->who ? " on " : "",
                    f->other >= 0 && f->other != f->who ? other : "", f->c);
                break;
            case SW_SF_INTERRUPTED:
                put(&o, "  %s's casting of %s is interrupted (002:77): no Magic spent; "
                        "%s may cast again next segment.\n", who, sp, who);
                break;
            case SW_SF_RELEASED:
                put(&o, "%s releases %s and has its Maintain back (Magic %d).\n", who, sp, f->c);
                break;
            case SW_SF_DROPPED:
                put(&o, "  %s ceases to Maintain %s (Magic %d).\n", who, sp, f->c);
                break;
            case SW_SF_FIZZLE:
                put(&o, "  %s's %s ends without effect.\n", who, sp);
                break;
            case SW_SF_AREA:
                put(&o, "  %s falls on %s (an area spell: no roll, 002:53).\n", sp, other);
                break;
            case SW_SF_USED_UP:
                put(&o, "  %s's %s is used up: %s has its Maintain back at once "
                        "(Magic %d, 002:75).\n", who, sp, who, f->c);
                break;
            case SW_SF_MAINTAINED:
                put(&o, "  %s Maintains %s%s%s.\n", who, sp,
                    f->other >= 0 && f->other != f->who ? " on " : "",
                    f->other >= 0 && f->other != f->who ? other : "");
                break;
            default:
                break;
            }
            break;
        }
        case SW_FACT_TALENT:
            if (f->c)
                put(&o, "  %s spends %d Pain on %s (Pain %d).\n", who, f->c,
                    talent_name(s, f->a), f->b);
            break;
        case SW_FACT_EFFECT: { /* an item's or skill's effect (ruling 35) */
            const char *en = f->a >= 0 && f->a < s->n_items ? s->it[f->a].name : "?";
            bool hid = hide && f->who >= 0 && f->who < s->n && hide[f->who];
            if (f->b == SW_EF_HEAL && hid)
                put(&o, "  The %s: %s regains Health (Health: %s).\n", en, who,
                    health_words(s, f->who, f->c));
            else if (f->b == SW_EF_HEAL)
                put(&o, "  The %s: %s regains up to %d Health; Health %d.\n", en, who,
                    s->it[f->a].heal, f->c);
            else if (f->b == SW_EF_PAIN && hid)
                put(&o, "  The %s: %s regains Pain (Pain: %s).\n", en, who,
                    pain_words(s, f->who, f->c));
            else if (f->b == SW_EF_PAIN)
                put(&o, "  The %s: %s regains up to %d Pain; Pain %d.\n", en, who,
                    s->it[f->a].pain, f->c);
            else
                put(&o, "  The %s does nothing for %s now.\n", en, who);
            break;
        }
        case SW_FACT_BONUS: /* 002:75: bonus points used up first */
            if (hide && f->who >= 0 && f->who < s->n && hide[f->who])
                put(&o, "  %s's %s takes %s first (bonus %s).\n", who, spell_name(s, f->a),
                    f->d ? "the Pain" : "some of the damage", f->d ? "Pain" : "Health");
            else
                put(&o, "  %s's %s takes %d %s first (bonus %s: %d left).\n", who,
                    spell_name(s, f->a), f->b, f->d ? "Pain" : "of the damage",
                    f->d ? "Pain" : "Health", f->c);
            break;
        case SW_FACT_AREA:
            if (f->b > 0 && f->b <= s->n_talents) /* an area talent (ruling 49) */
                put(&o, "  %s's %s falls on %s (an area talent: no roll, 002:53).\n", who,
                    s->tl[f->b - 1].name, other);
            else
                put(&o, "  %s's %s falls on %s (an area attack: no roll, 002:53).\n", who,
                    f->a >= 0 && f->a < s->n_weapons ? s->w[f->a].name : "?", other);
            break;
        case SW_FACT_WIELD:
            if (f->b)
                put(&o, "  %s has %s in hand.\n", who,
                    f->a >= 0 && f->a < s->n_weapons ? s->w[f->a].name : "?");
            else
                put(&o, "  %s fails to take up %s.\n", who,
                    f->a >= 0 && f->a < s->n_weapons ? s->w[f->a].name : "?");
            break;
        case SW_FACT_SEGMENT:
            break;
        case SW_FACT_END:
            if (f->a >= 0)
                put(&o, "The fight is over; the winner: %s.\n", s->side_name[f->a]);
            else
                put(&o, "The fight is over: nobody is left standing.\n");
            break;
        default:
            break;
        }
    }
    return done(&o);
}

/* ---- JSON ------------------------------------------------------------------ */

static const char *const fact_words[] = {
    "opening", "declare", "engaged", "reciprocal", "contest", "attack",
    "damage", "pain", "status", "bleed", "segment", "end", "friendly-fire",
    "wield", "spell", "talent", "area", "bonus", "effect"};

size_t sw_event_json(const sw_setup *s, const sw_event *ev, char *buf,
                     size_t size) {
    out o = {buf, size, 0};
    put(&o, "{\"event\":%ld,\"segment\":%ld,\"command\":{\"action\":\"%s\"",
        (long)ev->number, (long)ev->seg, sw_kind_word(ev->kind));
    if (ev->actor >= 0)
        put(&o, ",\"actor\":\"%s\"", idof(s, ev->actor));
    if (ev->target >= 0)
        put(&o, ",\"target\":\"%s\"", idof(s, ev->target));
    if (ev->kind == SW_EV_COVER)
        put(&o, ",\"cover\":\"%s\"", cover_words[ev->arg <= 2 ? ev->arg : 0]);
    if (ev->kind == SW_EV_NEXT && ev->arg)
        put(&o, ",\"quiet\":%d", ev->arg);
    if (ev->kind == SW_EV_WIELD)
        put(&o, ",\"weapon\":\"%s\"", ev->arg < s->n_weapons ? s->w[ev->arg].name : "");
    if (ev->kind == SW_EV_CAST || ev->kind == SW_EV_RELEASE)
        put(&o, ",\"spell\":\"%s\"", spell_name(s, ev->arg));
    if (ev->kind == SW_EV_TALENT)
        put(&o, ",\"talent\":\"%s\"", talent_name(s, ev->arg));
    if ((ev->kind == SW_EV_ITEM || ev->kind == SW_EV_SKILL) && ev->arg &&
        ev->arg - 1 < s->n_items) /* ruling 35 */
        put(&o, ",\"%s\":\"%s\"", ev->kind == SW_EV_ITEM ? "item" : "skill",
            s->it[ev->arg - 1].name);
    if (ev->kind == SW_EV_SURMOUNT && ev->arg > 0 && ev->arg <= s->n_obstacles)
        put(&o, ",\"obstacle\":\"%s\"", s->ob[ev->arg - 1].name); /* ruling 46 */
    put(&o, "},\"given\":%s,\"dice\":[", ev->given ? "true" : "false");
    for (int i = 0; i < ev->n_dice; i++)
        put(&o, "%s{\"d\":%d,\"v\":%d}", i ? "," : "", ev->dice[i].sides,
            ev->dice[i].value);
    put(&o, "],\"facts\":[");
    for (int i = 0; i < ev->n_facts; i++) {
        const sw_fact *f = &ev->facts[i];
        put(&o, "%s{\"fact\":\"%s\"", i ? "," : "",
            f->kind < sizeof fact_words / sizeof fact_words[0] ? fact_words[f->kind] : "?");
        if (f->who >= 0)
            put(&o, ",\"who\":\"%s\"", idof(s, f->who));
        if (f->other >= 0)
            put(&o, ",\"other\":\"%s\"", idof(s, f->other));
        switch (f->kind) {
        case SW_FACT_INIT:
            put(&o, ",\"d6\":%d,\"first_segment\":%d", f->a, f->b);
            break;
        case SW_FACT_DECLARE:
            put(&o, ",\"action\":\"%s\",\"ready\":%d", sw_kind_word(f->a), f->b);
            break;
        case SW_FACT_ENGAGED:
            put(&o, ",\"result\":\"%s\"", f->a ? "engaged" : "failed");
            if (f->c > 1)
                put(&o, ",\"targets\":%d", f->c); /* ruling 40 */
            break;
        case SW_FACT_CONTEST:
        case SW_FACT_ATTACK:
            put(&o, ",\"total\":%d,\"against\":%d,\"result\":\"%s\"", f->a, f->b,
                f->c ? (f->kind == SW_FACT_ATTACK ? "hit" : "success")
                     : (f->kind == SW_FACT_ATTACK ? "miss" : "failure"));
            if (f->kind == SW_FACT_ATTACK && (f->d & 2))
                put(&o, ",\"undefended\":true");
            if (f->kind == SW_FACT_ATTACK && (f->d & 4))
                put(&o, ",\"friendly_fire\":true");
            if (f->kind == SW_FACT_ATTACK && (f->d & 8))
                put(&o, ",\"spell\":true");
            if (f->kind == SW_FACT_ATTACK && (f->d & 16))
                put(&o, ",\"siege_spread\":true");
            break;
        case SW_FACT_DAMAGE:
            if (f->d == 1)
                put(&o, ",\"healed\":%d,\"health\":%d", -f->a, f->c);
            else if (f->d == 2)
                put(&o, ",\"rolled\":%d,\"damage\":%d,\"health\":%d,\"magical\":true", f->a,
                    f->b, f->c);
            else
                put(&o, ",\"rolled\":%d,\"damage\":%d,\"health\":%d", f->a, f->b, f->c);
            break;
        case SW_FACT_PAIN:
            put(&o, ",\"pain\":%d,\"extra_damage\":%d,\"health\":%d", f->a, f->b, f->c);
            break;
        case SW_FACT_STATUS:
            put(&o, ",\"status\":\"%s\",\"on\":%s", sw_status_name(f->a),
                f->b ? "true" : "false");
            if ((f->a == SW_ST_STUNNED || f->a == SW_ST_PARALYZED) && f->b)
                put(&o, ",\"through\":%d", f->c);
            if (f->a == SW_ST_UNHORSED && f->b == 2)
                put(&o, ",\"interrupted\":true"); /* getting into the saddle (ruling 43) */
            break;
        case SW_FACT_BLEED:
            put(&o, ",\"damage\":%d,\"health\":%d", f->a, f->c);
            break;
        case SW_FACT_SEGMENT:
            put(&o, ",\"segment\":%d", f->a);
            break;
        case SW_FACT_END:
            put(&o, ",\"winner\":%d", f->a);
            break;
        case SW_FACT_FRIENDLY:
            put(&o, ",\"hits\":\"%s\",\"die\":%d,\"of\":%d", idof(s, f->d), f->a, f->b);
            if (f->c == 1)
                put(&o, ",\"siege\":true"); /* ruling 42: a siege spread's draw */
            break;
        case SW_FACT_SPELL: {
            static const char *const sf[] = {"effect", "interrupted", "released",
                                             "dropped", "no effect", "maintained", "area",
                                             "used up"};
            put(&o, ",\"spell\":\"%s\",\"result\":\"%s\",\"magic\":%d",
                spell_name(s, f->a), f->b >= 0 && f->b < 8 ? sf[f->b] : "?", f->c);
            break;
        }
        case SW_FACT_EFFECT: { /* ruling 35 */
            static const char *const ef[] = {"heal", "pain", "bleeding", "stun", "none"};
            put(&o, ",\"entry\":\"%s\",\"effect\":\"%s\",\"now\":%d",
                f->a >= 0 && f->a < s->n_items ? s->it[f->a].name : "",
                f->b >= 0 && f->b < 5 ? ef[f->b] : "?", f->c);
            break;
        }
        case SW_FACT_BONUS: /* 002:75 */
            put(&o, ",\"spell\":\"%s\",\"bonus\":\"%s\",\"used\":%d,\"left\":%d",
                spell_name(s, f->a), f->d ? "Pain" : "Health", f->b, f->c);
            break;
        case SW_FACT_TALENT:
            put(&o, ",\"talent\":\"%s\",\"pain\":%d,\"spent\":%d", talent_name(s, f->a),
                f->b, f->c);
            break;
        case SW_FACT_AREA:
            put(&o, ",\"weapon\":\"%s\",\"area\":true",
                f->a >= 0 && f->a < s->n_weapons ? s->w[f->a].name : "");
            if (f->b > 0 && f->b <= s->n_talents) /* ruling 49 */
                put(&o, ",\"talent\":\"%s\"", s->tl[f->b - 1].name);
            break;
        case SW_FACT_WIELD:
            put(&o, ",\"weapon\":\"%s\",\"result\":\"%s\"",
                f->a >= 0 && f->a < s->n_weapons ? s->w[f->a].name : "",
                f->b ? "in hand" : "failure");
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

/* A weapon of the catalog, a spell, a talent by name. */
static int weapon_of(const sw_setup *s, const char *w, size_t n) {
    for (int i = 0; i < s->n_weapons; i++)
        if (same_name(s->w[i].name, w, n))
            return i;
    return -1;
}

static int spell_of(const sw_setup *s, const char *w, size_t n) {
    for (int i = 0; i < s->n_spells; i++)
        if (same_name(s->sp[i].name, w, n))
            return i;
    return -1;
}

static int talent_of(const sw_setup *s, const char *w, size_t n) {
    for (int i = 0; i < s->n_talents; i++)
        if (same_name(s->tl[i].name, w, n))
            return i;
    return -1;
}

static int combatant_of(const sw_setup *s, json_t *v) {
    if (!json_is_string(v))
        return -2;
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->c[i].id, json_string_value(v)) == 0)
            return i;
    return -2;
}

#define BAD(f, ...)                                                           \
    do {                                                                      \
        snprintf(field, fsize, "%s", f);                                      \
        snprintf(why, wsize, __VA_ARGS__);                                    \
        return FRAY_ERR_PARSE;                                                \
    } while (0)

fray_status sw_event_from_json(const sw_setup *s, const void *json,
                               sw_event *ev, char *field, size_t fsize,
                               char *why, size_t wsize) {
    json_t *o = (json_t *)json;
    memset(ev, 0, offsetof(sw_event, dice));
    ev->actor = ev->target = -1;
    json_t *v = json_object_get(o, "event");
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        json_integer_value(v) > INT32_MAX)
        BAD("event", "expected the event's number (0 or more)");
    ev->number = (int32_t)json_integer_value(v);
    v = json_object_get(o, "segment");
    if (!json_is_integer(v) || json_integer_value(v) < 1 ||
        json_integer_value(v) > 1000000)
        BAD("segment", "expected the segment (1 or more)");
    ev->seg = (int32_t)json_integer_value(v);
    json_t *c = json_object_get(o, "command");
    if (!json_is_object(c))
        BAD("command", "expected the command (an object)");
    v = json_object_get(c, "action");
    int k = -1;
    for (int i = 0; i < SW_EV_KINDS && json_is_string(v); i++)
        if (strcmp(json_string_value(v), sw_kind_word(i)) == 0)
            k = i;
    if (k < 0)
        BAD("command.action", "expected an action: begin, next, engage, attack, "
                              "avoid, switch, disengage, chase, snipe, cover, "
                              "medicine, item, skill, wield, cast, release, surmount, talent, dismount, mount, ride or wait");
    ev->kind = (uint8_t)k;
    if ((v = json_object_get(c, "actor"))) {
        int i = combatant_of(s, v);
        if (i < 0)
            BAD("command.actor", "expected a combatant's id");
        ev->actor = (int8_t)i;
    }
    if ((v = json_object_get(c, "target"))) {
        int i = combatant_of(s, v);
        if (i < 0)
            BAD("command.target", "expected a combatant's id");
        ev->target = (int8_t)i;
    }
    if ((v = json_object_get(c, "cover"))) {
        int cv = -1;
        for (int i = 1; i < 3 && json_is_string(v); i++)
            if (strcmp(json_string_value(v), cover_words[i]) == 0)
                cv = i;
        if (cv < 0)
            BAD("command.cover", "expected partial or full");
        ev->arg = (uint8_t)cv;
    }
    if ((v = json_object_get(c, "quiet"))) {
        if (k != SW_EV_NEXT || !json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) > 255)
            BAD("command.quiet", "expected the quiet segments a next skips (0 to 255)");
        ev->arg = (uint8_t)json_integer_value(v);
    }
    if ((v = json_object_get(c, "weapon"))) {
        int wi = json_is_string(v) ? weapon_of(s, json_string_value(v),
                                               strlen(json_string_value(v)))
                                   : -1;
        if (k != SW_EV_WIELD || wi < 0)
            BAD("command.weapon", "expected a weapon of the catalog (Switch Weapons)");
        ev->arg = (uint8_t)wi;
    } else if (k == SW_EV_WIELD) {
        BAD("command.weapon", "Switch Weapons needs the weapon taken up");
    }
    if ((v = json_object_get(c, "spell"))) {
        int si = json_is_string(v) ? spell_of(s, json_string_value(v),
                                              strlen(json_string_value(v)))
                                   : -1;
        if ((k != SW_EV_CAST && k != SW_EV_RELEASE) || si < 0)
            BAD("command.spell", "expected a spell of the catalog (cast or release)");
        ev->arg = (uint8_t)si;
    } else if (k == SW_EV_CAST || k == SW_EV_RELEASE) {
        BAD("command.spell", "the %s needs the spell", sw_kind_title(k));
    }
    if ((v = json_object_get(c, "talent"))) {
        int ti = json_is_string(v) ? talent_of(s, json_string_value(v),
                                               strlen(json_string_value(v)))
                                   : -1;
        if (k != SW_EV_TALENT || ti < 0)
            BAD("command.talent", "expected a talent of the catalog (Use a Talent)");
        ev->arg = (uint8_t)ti;
    } else if (k == SW_EV_TALENT) {
        BAD("command.talent", "Use a Talent needs the talent");
    }
    for (int sk = 0; sk < 2; sk++) /* an item or skill with its effects (ruling 35) */
        if ((v = json_object_get(c, sk ? "skill" : "item"))) {
            int ii = json_is_string(v) ? sw_item_find(s, json_string_value(v),
                                                      strlen(json_string_value(v)), sk == 1)
                                       : -1;
            if (k != (sk ? SW_EV_SKILL : SW_EV_ITEM) || ii < 0)
                BAD(sk ? "command.skill" : "command.item", "expected %s of the catalog",
                    sk ? "a skill" : "an item");
            ev->arg = (uint8_t)(ii + 1);
        }
    if ((v = json_object_get(c, "obstacle"))) { /* ruling 46 */
        int ob = json_is_string(v) ? sw_find_obstacle(s, json_string_value(v),
                                                      strlen(json_string_value(v)))
                                   : -1;
        if (k != SW_EV_SURMOUNT || ob < 0)
            BAD("command.obstacle", "expected an obstacle of the scene (surmount)");
        ev->arg = (uint8_t)(ob + 1);
    }
    bool needs_actor = k != SW_EV_BEGIN && k != SW_EV_NEXT;
    if (needs_actor && ev->actor < 0)
        BAD("command", "the %s needs an actor", sw_kind_title(k));
    v = json_object_get(o, "given");
    if (v && !json_is_boolean(v))
        BAD("given", "expected true or false");
    ev->given = v && json_is_true(v);
    json_t *d = json_object_get(o, "dice");
    if (!json_is_array(d))
        BAD("dice", "expected the dice rolled (a list)");
    if (json_array_size(d) > SW_EV_DICE)
        BAD("dice", "at most %d dice in one event", SW_EV_DICE);
    for (size_t i = 0; i < json_array_size(d); i++) {
        json_t *e = json_array_get(d, i);
        json_t *ds = json_object_get(e, "d"), *dv = json_object_get(e, "v");
        char f[32];
        snprintf(f, sizeof f, "dice[%zu]", i);
        if (!json_is_integer(ds) || json_integer_value(ds) < 2 ||
            json_integer_value(ds) > 20 || !json_is_integer(dv) ||
            json_integer_value(dv) < 1 ||
            json_integer_value(dv) > json_integer_value(ds))
            BAD(f, "expected a die {\"d\": sides, \"v\": its roll, 1 to the sides}");
        ev->dice[i] = (sw_die){(uint8_t)json_integer_value(ds),
                               (uint8_t)json_integer_value(dv)};
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

static int find_who(const sw_setup *s, const char *w, size_t n) {
    char buf[SW_NAME];
    if (n >= sizeof buf)
        return -1;
    memcpy(buf, w, n);
    buf[n] = '\0';
    int i = sw_find_combatant(s, buf);
    if (i >= 0)
        return i;
    for (size_t k = 0; k < n; k++)
        if (buf[k] == '-')
            buf[k] = ' ';
    return sw_find_combatant(s, buf);
}

fray_status sw_parse(const sw_setup *s, const sw_state *st, const char *text,
                     sw_event *cmd, fray_diag *diag) {
    (void)st;
    memset(cmd, 0, offsetof(sw_event, dice));
    cmd->actor = cmd->target = -1;
    const char *tok[4];
    size_t len[4];
    int n = 0;
    const char *p = text;
    while (*p) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        if (n == 4)
            return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(p - text) + 1,
                                  "expected nothing more after the command");
        tok[n] = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        len[n] = (size_t)(p - tok[n]);
        n++;
    }
    if (n == 0)
        return fray__diag_set(diag, FRAY_ERR_PARSE, 1, "expected a command");
    if (n == 1 && word_eq(tok[0], len[0], "next")) {
        cmd->kind = SW_EV_NEXT;
        return FRAY_OK;
    }
    int a = find_who(s, tok[0], len[0]);
    if (a < 0)
        return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(tok[0] - text) + 1,
                              "'%.*s': expected next or a combatant's id",
                              (int)(len[0] < 40 ? len[0] : 40), tok[0]);
    if (n < 2)
        return fray__diag_set(diag, FRAY_ERR_PARSE, (int)strlen(text) + 1,
                              "expected an action after '%.*s': engage, attack, "
                              "avoid, switch, disengage, chase, snipe, cover, "
                              "medicine, item, skill, wield, cast, release, surmount, talent, dismount, mount, ride or wait", (int)(len[0] < 40 ? len[0] : 40), tok[0]);
    int k = -1;
    for (int i = SW_EV_ENGAGE; i < SW_EV_KINDS; i++)
        if (word_eq(tok[1], len[1], sw_kind_word(i)))
            k = i;
    if (k < 0)
        return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(tok[1] - text) + 1,
                              "'%.*s': expected an action: engage, attack, avoid, "
                              "switch, disengage, chase, snipe, cover, medicine, item, skill, wield, cast, release, surmount, talent, dismount, mount, ride or wait",
                              (int)(len[1] < 40 ? len[1] : 40), tok[1]);
    cmd->kind = (uint8_t)k;
    cmd->actor = (int8_t)a;
    if (k == SW_EV_COVER) {
        if (n < 3 || !(word_eq(tok[2], len[2], "partial") || word_eq(tok[2], len[2], "full")))
            return fray__diag_set(diag, FRAY_ERR_PARSE,
                                  n < 3 ? (int)strlen(text) + 1 : (int)(tok[2] - text) + 1,
                                  "expected partial or full after 'cover'");
        cmd->arg = word_eq(tok[2], len[2], "full") ? SW_COVER_FULL : SW_COVER_PARTIAL;
        n--;
    } else if (k == SW_EV_WIELD) {
        if (n < 3)
            return fray__diag_set(diag, FRAY_ERR_PARSE, (int)strlen(text) + 1,
                                  "expected the weapon after 'wield' (Switch Weapons)");
        int wi = weapon_of(s, tok[2], len[2]);
        if (wi < 0)
            return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(tok[2] - text) + 1,
                                  "'%.*s': expected a weapon of the catalog",
                                  (int)(len[2] < 40 ? len[2] : 40), tok[2]);
        cmd->arg = (uint8_t)wi;
        n--;
    } else if (k == SW_EV_TALENT) {
        if (n < 3)
            return fray__diag_set(diag, FRAY_ERR_PARSE, (int)strlen(text) + 1,
                                  "expected the talent after 'talent', then its target");
        int ti = talent_of(s, tok[2], len[2]);
        if (ti < 0)
            return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(tok[2] - text) + 1,
                                  "'%.*s': expected a talent of the catalog",
                                  (int)(len[2] < 40 ? len[2] : 40), tok[2]);
        cmd->arg = (uint8_t)ti;
        if (n < 4)
            return fray__diag_set(diag, FRAY_ERR_PARSE, (int)strlen(text) + 1,
                                  "expected whom %s uses %s on (a combatant's id)",
                                  s->c[a].name, s->tl[ti].name);
        int t = find_who(s, tok[3], len[3]);
        if (t < 0)
            return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(tok[3] - text) + 1,
                                  "'%.*s': expected a combatant's id",
                                  (int)(len[3] < 40 ? len[3] : 40), tok[3]);
        cmd->target = (int8_t)t;
        return FRAY_OK;
    } else if (k == SW_EV_CAST || k == SW_EV_RELEASE) {
        if (n < 3)
            return fray__diag_set(diag, FRAY_ERR_PARSE, (int)strlen(text) + 1,
                                  "expected the spell after '%s'", sw_kind_word(k));
        int si = spell_of(s, tok[2], len[2]);
        if (si < 0)
            return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(tok[2] - text) + 1,
                                  "'%.*s': expected a spell of the catalog",
                                  (int)(len[2] < 40 ? len[2] : 40), tok[2]);
        cmd->arg = (uint8_t)si;
        if (n == 4 && k == SW_EV_RELEASE)
            return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(tok[3] - text) + 1,
                                  "expected nothing more after the spell");
        if (n == 4) {
            int t = find_who(s, tok[3], len[3]);
            if (t < 0)
                return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(tok[3] - text) + 1,
                                      "'%.*s': expected a combatant's id",
                                      (int)(len[3] < 40 ? len[3] : 40), tok[3]);
            cmd->target = (int8_t)t;
        }
        return FRAY_OK;
    } else if ((k == SW_EV_ITEM || k == SW_EV_SKILL) && n >= 3 &&
               sw_item_find(s, tok[2], len[2], k == SW_EV_SKILL) >= 0) {
        /* an item or skill with its effects (ruling 35): NAME [TARGET] */
        int ii = sw_item_find(s, tok[2], len[2], k == SW_EV_SKILL);
        cmd->arg = (uint8_t)(ii + 1);
        if (n < 4 && k == SW_EV_ITEM)
            return fray__diag_set(diag, FRAY_ERR_PARSE, (int)strlen(text) + 1,
                                  "expected whom %s uses the %s on (a combatant's id)",
                                  s->c[a].name, s->it[ii].name);
        if (n >= 4) {
            int t = find_who(s, tok[3], len[3]);
            if (t < 0)
                return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(tok[3] - text) + 1,
                                      "'%.*s': expected a combatant's id",
                                      (int)(len[3] < 40 ? len[3] : 40), tok[3]);
            cmd->target = (int8_t)t;
        }
        return FRAY_OK; /* more than 4 words: refused above */
    } else if (k == SW_EV_SURMOUNT && n >= 3) { /* a named obstacle (ruling 46) */
        int ob = sw_find_obstacle(s, tok[2], len[2]);
        if (ob < 0)
            return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(tok[2] - text) + 1,
                                  "'%.*s': expected an obstacle of the scene",
                                  (int)(len[2] < 40 ? len[2] : 40), tok[2]);
        cmd->arg = (uint8_t)(ob + 1);
        n--;
    } else if (k == SW_EV_SNIPE || k == SW_EV_WAIT || k == SW_EV_SKILL || k == SW_EV_SURMOUNT ||
               k == SW_EV_DISMOUNT || k == SW_EV_RIDE || (k == SW_EV_MOUNT && n < 3)) {
        /* no target (mount: its own mount, ruling 43) */
    } else if (n >= 3) {
        int t = find_who(s, tok[2], len[2]);
        if (t < 0)
            return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(tok[2] - text) + 1,
                                  "'%.*s': expected a combatant's id",
                                  (int)(len[2] < 40 ? len[2] : 40), tok[2]);
        cmd->target = (int8_t)t;
    } else {
        return fray__diag_set(diag, FRAY_ERR_PARSE, (int)strlen(text) + 1,
                              "expected whom %s %s (a combatant's id)",
                              s->c[a].name, sw_kind_word(k));
    }
    int want = (k == SW_EV_SNIPE || k == SW_EV_WAIT || k == SW_EV_SKILL ||
                k == SW_EV_SURMOUNT || k == SW_EV_DISMOUNT || k == SW_EV_RIDE) ? 2 : 3;
    if (n > want)
        return fray__diag_set(diag, FRAY_ERR_PARSE, (int)(tok[want] - text) + 1,
                              "expected nothing more after the command");
    return FRAY_OK;
}

/* ---- Summary, the segment track, the graph ----------------------------------- */

static void status_words(const sw_setup *s, const sw_state *st, int i, out *o) {
    const sw_cstate *c = &st->c[i];
    (void)s;
    if (c->flags & SW_F_DEAD) {
        put(o, " Dead");
        return;
    }
    if (c->flags & SW_F_UNCONSCIOUS)
        put(o, " Unconscious");
    else if (c->flags & SW_F_WOUNDED)
        put(o, " Wounded");
    if (c->flags & SW_F_BLEEDING)
        put(o, " bleeding");
    if (c->inanimate)
        put(o, " lifeless (to be animated)"); /* ruling 36 */
    if (c->flags & SW_F_BLOWN)
        put(o, " Blown");
    else if (c->pain <= 0)
        put(o, " Winded");
    if (sw_paralyzed(st, i))
        put(o, " Paralyzed through segment %d", (int)c->para_until); /* 002:99 */
    else if (sw_stunned(st, i))
        put(o, " Stunned through segment %d", (int)c->stun_until);   /* 002:98 */
    if (sw_mount_of(s, st, i) >= 0)
        put(o, " mounted on %s", s->c[sw_mount_of(s, st, i)].name); /* 002:59 */
    if (c->flags & SW_F_SNIPING)
        put(o, " Sniping");
    if (c->cover)
        put(o, " %s", c->cover == SW_COVER_FULL ? "Full Cover" : "Partial Cover");
    if (c->hand)
        put(o, " (%s in hand)", sw_hand(s, st, i)->name); /* Switch Weapons, 002:85 */
    if (c->saddle_at >= st->seg) /* ruling 43 */
        put(o, " getting into the saddle (until the end of segment %d)", (int)c->saddle_at);
    if (s->c[i].b.magic)
        put(o, " Magic %d/%d", c->magic, s->c[i].b.magic); /* 002:71 */
    for (int k = 0; k < c->n_maint; k++) {
        put(o, " Maintaining %s%s%s", s->sp[c->maint_spell[k]].name,
            c->maint_target[k] != i ? " on " : "",
            c->maint_target[k] != i ? s->c[c->maint_target[k]].name : "");
        if (sw_bonus_effect(s->sp[c->maint_spell[k]].effect)) /* 002:75 */
            put(o, " (bonus %s %d left)",
                s->sp[c->maint_spell[k]].effect == SW_SPELL_BONUS_PAIN ? "Pain" : "Health",
                c->maint_left[k]);
    }
    for (int k = 0; k < s->n_items; k++) /* items and skills (ruling 35) */
        if (((s->it[k].skill ? s->c[i].b.skills : s->c[i].b.items) & (1u << k)) &&
            (s->it[k].skill || s->opt.items_unlimited || !(c->items_used & (1u << k))))
            put(o, " %s %s", s->it[k].skill ? "skill" : "item", s->it[k].name);
    int slots = 0;
    for (int j = 0; j < st->n; j++)
        if (sw_eng(st, j, i))
            slots += s->c[j].b.size;
    if (slots >= s->c[i].b.capacity)
        put(o, " Fully Engaged");
}

size_t sw_draw_graph(const sw_setup *s, const sw_state *st, char *buf,
                     size_t size) {
    out o = {buf, size, 0};
    if (buf && size)
        buf[0] = '\0';
    put(&o, "Engaged:");
    int edges = 0;
    for (int i = 0; i < st->n; i++)
        for (int t = 0; t < st->n; t++) { /* every edge (several: ruling 40) */
            if (!sw_eng(st, i, t))
                continue;
            bool mutual = sw_eng(st, t, i);
            if (mutual && t < i)
                continue;
            put(&o, "%s %s %s %s", edges ? "," : "", s->c[i].name,
                mutual ? "<->" : "->", s->c[t].name);
            edges++;
        }
    if (!edges)
        put(&o, " nobody");
    put(&o, "\n");
    for (int k = 0; k < s->n_obstacles; k++) { /* ruling 46 */
        put(&o, "  The %s stands between", s->ob[k].name);
        for (int side = 0; side < 2; side++) {
            uint16_t m = side ? s->ob[k].b : s->ob[k].a;
            int n = 0;
            put(&o, "%s", side ? " and" : "");
            for (int i = 0; i < st->n; i++)
                if (((unsigned)m >> i) & 1u)
                    put(&o, "%s %s%s", n++ ? "," : "", s->c[i].name,
                        (((unsigned)st->c[i].past >> k) & 1u) ? " (past it)" : "");
        }
        put(&o, " (surmount: %d segments%s)\n", s->ob[k].time,
            s->ob[k].roll ? " and a flat Agility roll" : "");
    }
    for (int i = 0; i < st->n; i++)
        if (st->c[i].pend_kind == SW_PEND_ENGAGE)
            put(&o, "  %s's Engage on %s takes effect at the end of segment %d\n",
                s->c[i].name, s->c[st->c[i].pend_target].name, st->c[i].pend_at);
    for (int i = 0; i < st->n; i++) {
        bool any = false;
        for (int j = 0; j < st->n; j++)
            if (j != i && sw_eng(st, j, i) && sw_undefended(s, st, i, j, false)) {
                if (!any)
                    put(&o, "  %s is Undefended against %s", s->c[i].name, s->c[j].name);
                else
                    put(&o, ", %s", s->c[j].name);
                any = true;
            }
        if (any)
            put(&o, "\n");
    }
    return done(&o);
}

size_t sw_draw_time(const sw_setup *s, const sw_state *st, char *buf,
                    size_t size) {
    out o = {buf, size, 0};
    if (buf && size)
        buf[0] = '\0';
    put(&o, "Segment %d\n", st->seg);
    for (int k = 0; k < st->track.n; k++) {
        int i = st->track.e[k].who;
        const sw_cstate *c = &st->c[i];
        if (c->ready <= st->seg)
            put(&o, "  now      %s%s\n", s->c[i].name,
                c->decl_seg == st->seg ? (c->flags & SW_F_WAITED ? " (waited)" : " (declared)") : "");
        else
            put(&o, "  seg %-4d %s\n", c->ready, s->c[i].name);
    }
    return done(&o);
}

size_t sw_summary(const sw_setup *s, const sw_state *st, char *buf, size_t size) {
    out o = {buf, size, 0};
    if (buf && size)
        buf[0] = '\0';
    put(&o, "Segment %d\n", st->seg);
    for (int i = 0; i < st->n; i++) {
        const sw_cstate *c = &st->c[i];
        put(&o, "  %-20s Health %d/%d  Pain %d/%d", s->c[i].name, c->health,
            s->c[i].b.health, c->pain, s->c[i].b.pain);
        status_words(s, st, i, &o);
        put(&o, "\n");
    }
    char g[1024];
    if (sw_draw_graph(s, st, g, sizeof g) < sizeof g)
        put(&o, "%s", g);
    else
        put(&o, "%s...\n", g); /* (cut: the summary is a glance) */
    if (st->over) {
        if (st->winner >= 0)
            put(&o, "The winner: %s.\n", s->side_name[st->winner]);
        else
            put(&o, "Nobody is left standing.\n");
    }
    return done(&o);
}
