/*
 * json.c - Alloy's events as JSON and back (alloy_int.h; docs/journal.md
 * shows 99 Towers' layout, which this mirrors).
 *
 * One object on one line:
 *
 *   {"event":3,"round":2,
 *    "command":{"action":"attack","actor":"tony","targets":["orc-1"],"weapon":"pistol"},
 *    "dice_given":true,
 *    "dice":[{"d":20,"v":14,"for":"attack","by":"tony"},...],
 *    "choices":[{"choice":"opportunity","who":"orc-1","other":"tony","value":1}],
 *    "facts":[{"fact":"attack","who":"tony","target":"orc-1","d20":14,...}],
 *    "facts_untold":0}
 *
 * In "command" only "action" is always there; every other key is left out at
 * its default: actor (engine steps), slot ("standard" | "move" | "swift" |
 * "immediate" | "free"; the action's own), power (its id), weapon (its id,
 * or an index), aid ("attack" | "defense" | "check": with a skill), skill
 * ("acrobatics" | "athletics" | "notice" | "bluff": escape, skill, aid on a
 * check), as ("move": a skill used as a move action), option (other
 * commands, an integer; 0), targets (ids;
 * aid: [enemy, ally]), origin ([x, y]; none), path ([[x, y], ...]), ready
 * ({"action", "trigger", "who", "target", "power"}), decline (ids).
 * "dice_given" and "facts_untold" are there only when true / not 0.
 * Facts name their values ("d20", "bonus", "total", "defense", ...); a
 * value a fact does not name is written "vK" when not 0, so nothing is lost.
 * Combatants are written by id and read by id or index.
 */
#include "alloy_int.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* ---- Words --------------------------------------------------------------------- */

static const char *const purpose_words[FA_DIE_PURPOSES] = {
    "initiative", "tie", "attack", "damage", "crit", "save", "check", "heal"};
static const char *const choice_words[FA_CH_KINDS] = {
    "opportunity", "cover-takes-hit", "ready-fires", "suppress-fires"};
static const char *const slot_words[] = {"standard", "move", "swift",
                                         "immediate", "free", "none"};
static const char *const ends_words[] = {"event",     "start-of-turn",
                                         "end-of-turn", "save",
                                         "sustain",   "round-end", "used"};
static const char *const result_words[] = {"miss", "hit", "crit"};
static const char *const trigger_words[FA_TRIG_KINDS] = {
    "none", "moves-adjacent", "attacks", "enters-reach"};
static const char *const skill_words[FA_SKILLS] = {"acrobatics", "athletics",
                                                   "notice", "bluff"};

static const char *const fact_words[FA_FACT_KINDS] = {
    [FA_FACT_INITIATIVE] = "initiative", [FA_FACT_TIE] = "tie",
    [FA_FACT_ORDER] = "order",           [FA_FACT_SURPRISE] = "surprise",
    [FA_FACT_ROUND] = "round",           [FA_FACT_TURN] = "turn",
    [FA_FACT_ONGOING] = "ongoing",       [FA_FACT_SAVE] = "save",
    [FA_FACT_COND_ON] = "condition-on",  [FA_FACT_COND_OFF] = "condition-off",
    [FA_FACT_ACTION] = "action",         [FA_FACT_ATTACK] = "attack",
    [FA_FACT_MODIFIER] = "modifier",     [FA_FACT_DAMAGE] = "damage",
    [FA_FACT_DYING] = "dying",           [FA_FACT_DEAD] = "dead",
    [FA_FACT_HEAL] = "heal",             [FA_FACT_MOVE] = "move",
    [FA_FACT_PROVOKE] = "provoke",       [FA_FACT_OPPORTUNITY] = "opportunity",
    [FA_FACT_PUSH] = "push",             [FA_FACT_AMMO] = "ammo",
    [FA_FACT_AP] = "action-point",       [FA_FACT_DELAY] = "delay",
    [FA_FACT_READY] = "ready",           [FA_FACT_READY_FIRES] = "ready-fires",
    [FA_FACT_LOST] = "lost",             [FA_FACT_NO_EFFECT] = "no-effect",
    [FA_FACT_OVER] = "over",             [FA_FACT_CHECK] = "check",
    [FA_FACT_COVER_STRUCK] = "cover-struck", [FA_FACT_DROP] = "drop",
    [FA_FACT_LANDS] = "lands",           [FA_FACT_PICK_UP] = "pick-up",
    [FA_FACT_TAKE] = "take",             [FA_FACT_CONSUME] = "consume",
    [FA_FACT_SKILL] = "skill",           [FA_FACT_DEATH_SAVE] = "death-save",
    [FA_FACT_JOIN] = "join",             [FA_FACT_CHOSEN] = "chosen",
    [FA_FACT_GM] = "gm",   /* (alloygm) */
};

/* How a fact's value is written. */
typedef enum vtype {
    T_NONE, T_INT, T_COND, T_ENDS, T_CMD, T_SLOT, T_DEF, T_RESULT, T_MOD,
    T_POS, /* this value and the next: [x, y] on the map */
    T_TRIG, T_SIDE,
    T_FORCED, /* (alloy-space) fa_forced: push, pull, slide, teleport */
    T_WHO, /* a combatant (-1: none) */
    T_NOTE /* why an action had no effect: fa_attack_note's words, 0 "none" */
} vtype;

/* T_NOTE's words, for FA_NOTE_NO_ROOM (64) on. */
static const char *const note_words[] = {
    "no-room",      "already-prone", "aid-limit", "no-targets",
    "total-cover",  "out-of-range",  "snared",    "wrong-square"};
_Static_assert(sizeof note_words / sizeof *note_words ==
                   FA_NOTE_ATTACK_NOTES - FA_NOTE_NO_ROOM,
               "a word for every reason");

typedef struct vfield {
    const char *name;
    uint8_t type;
} vfield;

static const vfield fact_fields[FA_FACT_KINDS][6] = {
    [FA_FACT_INITIATIVE] = {{"d20", T_INT}, {"modifier", T_INT}, {"total", T_INT}},
    [FA_FACT_TIE] = {{"die", T_INT}},
    [FA_FACT_ORDER] = {{"place", T_INT}},
    [FA_FACT_ROUND] = {{"round", T_INT}},
    [FA_FACT_ONGOING] = {{"damage", T_INT}},
    [FA_FACT_SAVE] = {{"d20", T_INT}, {"needed", T_INT}, {"saved", T_INT},
                      {"condition", T_COND}},
    [FA_FACT_COND_ON] = {{"condition", T_COND}, {"ends", T_ENDS}, {"value", T_INT}},
    [FA_FACT_COND_OFF] = {{"condition", T_COND}},
    [FA_FACT_ACTION] = {{"action", T_CMD}, {"slot", T_SLOT}},
    [FA_FACT_ATTACK] = {{"d20", T_INT}, {"bonus", T_INT}, {"total", T_INT},
                        {"defense", T_DEF}, {"defense_value", T_INT},
                        {"result", T_RESULT}},
    [FA_FACT_MODIFIER] = {{"reason", T_MOD}, {"value", T_INT}, {"on_defense", T_INT}},
    [FA_FACT_DAMAGE] = {{"damage", T_INT}, {"hp_left", T_INT}, {"rolled", T_INT}},
    [FA_FACT_DYING] = {{"hp", T_INT}},
    [FA_FACT_DEAD] = {{"hp", T_INT}},
    [FA_FACT_HEAL] = {{"healed", T_INT}, {"hp", T_INT}},
    [FA_FACT_MOVE] = {{"from", T_POS}, {NULL, T_NONE}, {"to", T_POS},
                      {NULL, T_NONE}, {"squares", T_INT}},
    [FA_FACT_PROVOKE] = {{"by", T_CMD}},
    [FA_FACT_OPPORTUNITY] = {{"taken", T_INT}},
    [FA_FACT_PUSH] = {{"to", T_POS}, {NULL, T_NONE}, {"how", T_FORCED},
                      {"squares", T_INT}, {"asked", T_INT}},
    [FA_FACT_AMMO] = {{"spent", T_INT}, {"left", T_INT}},
    [FA_FACT_AP] = {{"left", T_INT}},
    [FA_FACT_READY] = {{"trigger", T_TRIG}},
    [FA_FACT_READY_FIRES] = {{"place", T_INT}},
    [FA_FACT_LOST] = {{"which", T_INT}},
    [FA_FACT_NO_EFFECT] = {{"reason", T_NOTE}},
    [FA_FACT_OVER] = {{"winner", T_SIDE}},
    [FA_FACT_CHECK] = {{"d20", T_INT}, {"bonus", T_INT}, {"total", T_INT},
                       {"defense_value", T_INT}, {"success", T_INT}},
    [FA_FACT_COVER_STRUCK] = {{"aimed_at", T_WHO}, {"defense_value", T_INT},
                              {"hits", T_INT}, {"took", T_INT}},
    [FA_FACT_DROP] = {{"slot", T_INT}},
    [FA_FACT_LANDS] = {{"slot", T_INT}, {"at", T_POS}, {NULL, T_NONE}, {"used_up", T_INT}},
    [FA_FACT_PICK_UP] = {{"slot", T_INT}, {"at", T_POS}},
    [FA_FACT_TAKE] = {{"slot", T_INT}},
    [FA_FACT_CONSUME] = {{"item", T_INT}, {"left", T_INT}},
    [FA_FACT_SKILL] = {{"d20", T_INT}, {"bonus", T_INT}, {"total", T_INT},
                       {"needed", T_INT}, {"success", T_INT}, {"skill", T_INT}},
    [FA_FACT_DEATH_SAVE] = {{"d20", T_INT}, {"needed", T_INT}, {"result", T_INT},
                            {"failures", T_INT}},
    [FA_FACT_JOIN] = {{"d20", T_INT}, {"modifier", T_INT}, {"total", T_INT},
                      {"place", T_INT}},
    /* (alloygm) override: fa_gm_op's number (the command's "gm" says it in words) */
    [FA_FACT_GM] = {{"override", T_INT}, {"hp_before", T_INT}, {"hp_after", T_INT},
                    {"at", T_POS}},
};

/* The words of a word type, or NULL (T_CMD, T_COND, T_DEF, T_MOD go
 * through render.c's names). */
static int words_of(vtype t, const char *const **out) {
    switch (t) {
    case T_ENDS:
        *out = ends_words;
        return (int)(sizeof ends_words / sizeof *ends_words);
    case T_SLOT:
        *out = slot_words;
        return (int)(sizeof slot_words / sizeof *slot_words);
    case T_RESULT:
        *out = result_words;
        return 3;
    case T_TRIG:
        *out = trigger_words;
        return FA_TRIG_KINDS;
    case T_FORCED: {
        static const char *const forced_words[] = {"push", "pull", "slide", "teleport"};
        *out = forced_words;
        return FA_FORCED_NONE;
    }
    default:
        *out = NULL;
        return 0;
    }
}

/* The word for value v of type t, NULL when it has none. */
static const char *word_of(const fa_setup *s, vtype t, int32_t v) {
    const char *const *w;
    int n = words_of(t, &w);
    if (w)
        return v >= 0 && v < n ? w[v] : NULL;
    switch (t) {
    case T_COND:
        return v >= 0 && v < FA_COND_KINDS ? fa_cond_name((int)v) : NULL;
    case T_CMD:
        return v >= 0 && v < FA_CMD_KINDS ? fa_cmd_name((int)v) : NULL;
    case T_DEF:
        return v >= 0 && v < FA_DEFENSES ? fa_defense_name((int)v) : NULL;
    case T_MOD:
        return v >= 0 && v < FA_MOD_KINDS ? fa_mod_name((int)v) : NULL;
    case T_SIDE:
        return v >= 0 && v < s->n_sides ? s->side_name[v]
               : v == -1                ? "none"
               : v == -2                ? "all-out"
                                        : NULL;
    case T_NOTE:
        return v == 0 ? "none"
               : v >= FA_NOTE_NO_ROOM && v < FA_NOTE_ATTACK_NOTES
                   ? note_words[v - FA_NOTE_NO_ROOM]
                   : NULL;
    default:
        return NULL;
    }
}

/* ---- Writing ------------------------------------------------------------------------ */

static void put_str(fray__text *t, const char *str) {
    fray__text_s(t, "\"");
    for (const unsigned char *p = (const unsigned char *)str; *p; p++) {
        if (*p == '"' || *p == '\\')
            fray__text_f(t, "\\%c", *p);
        else if (*p < 0x20)
            fray__text_f(t, "\\u%04x", *p);
        else
            fray__text_put(t, (const char *)p, 1);
    }
    fray__text_s(t, "\"");
}

static void put_who(fray__text *t, const fa_setup *s, int i) {
    if (i >= 0 && i < s->n)
        put_str(t, s->c[i].id);
    else
        fray__text_f(t, "%d", i);
}

static void put_key(fray__text *t, bool *first, const char *key) {
    fray__text_s(t, *first ? "" : ",");
    *first = false;
    put_str(t, key);
    fray__text_s(t, ":");
}

static void put_pos(fray__text *t, fray_pos p) {
    fray__text_f(t, "[%d,%d]", p.x, p.y);
}

static const char *weapon_id(const fa_setup *s, int who, int slot) {
    if (who < 0 || who >= s->n)
        return NULL;
    const fa_statblock *sb = &s->sb[s->c[who].sb];
    if (slot < 0 || slot >= sb->n_weapons)
        return NULL;
    int w = sb->weapons[slot].weapon;
    return w >= 0 && w < s->n_weapons ? s->weapons[w].id : NULL;
}

static const char *item_id(const fa_setup *s, int who, int k) {
    if (who < 0 || who >= s->n)
        return NULL;
    const fa_statblock *sb = &s->sb[s->c[who].sb];
    return k >= 0 && k < sb->n_items ? sb->items[k].id : NULL;
}

/* The swift actions with objects are Draw's in the engine (alloy_int.h
 * FA_OBJ_*); journals name them in rules words: "holster", "pick-up"
 * (with the owner in targets and the owner's "weapon", or neither: the
 * engine's pick), "consume" with its "item", and "draw" with an "item". */
static const char *object_action(const fa_command *c) {
    if (c->kind != FA_CMD_DRAW)
        return NULL;
    if (c->option == 0 && c->weapon < 0)
        return "holster";
    if (c->option == FA_OBJ_PICK_ANY ||
        fa_obj_in(c->option, FA_OBJ_PICK_UP, FA_SB_WEAPONS))
        return "pick-up";
    if (fa_obj_in(c->option, FA_OBJ_CONSUME, FA_SB_ITEMS))
        return "consume";
    return NULL;
}

static const char *power_id(const fa_setup *s, int who, int p) {
    if (who < 0 || who >= s->n)
        return NULL;
    const fa_statblock *sb = &s->sb[s->c[who].sb];
    return p >= 0 && p < sb->n_powers ? sb->powers[p].id : NULL;
}

static void put_command(fray__text *t, const fa_setup *s, const fa_command *c) {
    bool first = true;
    fray__text_s(t, "{");
    put_key(t, &first, "action");
    const char *objw = object_action(c);
    bool obj = objw || (c->kind == FA_CMD_DRAW &&
                        fa_obj_in(c->option, FA_OBJ_DRAW_ITEM, FA_SB_ITEMS));
    if (objw)
        put_str(t, objw);
    else if (c->kind < FA_CMD_KINDS)
        put_str(t, fa_cmd_name(c->kind));
    else
        fray__text_f(t, "%d", c->kind);
    if (c->actor != -1) {
        put_key(t, &first, "actor");
        put_who(t, s, c->actor);
    }
    if (c->slot != FA_ACT_NONE) {
        put_key(t, &first, "slot");
        if (c->slot < FA_ACT_NONE)
            put_str(t, slot_words[c->slot]);
        else
            fray__text_f(t, "%d", c->slot);
    }
    if (c->power != -1) {
        put_key(t, &first, "power");
        const char *id = power_id(s, c->actor, c->power);
        if (id)
            put_str(t, id);
        else
            fray__text_f(t, "%d", c->power);
    }
    if (c->weapon != -1) {
        put_key(t, &first, "weapon");
        const char *id = weapon_id(s, c->actor, c->weapon);
        if (id)
            put_str(t, id);
        else
            fray__text_f(t, "%d", c->weapon);
    }
    if (c->kind == FA_CMD_AID && c->option >= FA_AID_CHECK &&
        c->option < FA_AID_CHECK + FA_SKILLS) {
        /* (alloy-skills) aid on a check: "aid":"check","skill":"..." */
        put_key(t, &first, "aid");
        put_str(t, "check");
        put_key(t, &first, "skill");
        put_str(t, skill_words[c->option - FA_AID_CHECK]);
    } else if (c->kind == FA_CMD_SKILL && c->option >= 0 &&
               (c->option & ~FA_SKILL_AS_MOVE) < FA_SKILLS) {
        /* (alloy-skills) use a skill: "skill":"...", "as":"move" */
        put_key(t, &first, "skill");
        put_str(t, skill_words[c->option & ~FA_SKILL_AS_MOVE]);
        if (c->option & FA_SKILL_AS_MOVE) {
            put_key(t, &first, "as");
            put_str(t, "move");
        }
    } else if (c->kind == FA_CMD_AID && (c->option == FA_AID_ATTACK ||
                                         c->option == FA_AID_DEFENSE)) {
        put_key(t, &first, "aid");
        put_str(t, c->option == FA_AID_DEFENSE ? "defense" : "attack");
    } else if (c->kind == FA_CMD_ESCAPE && c->option >= 0 &&
               c->option < FA_SKILLS) {
        if (c->option != 0) {
            put_key(t, &first, "skill");
            put_str(t, skill_words[c->option]);
        }
    } else if (obj) {
        const char *id = NULL;
        if (fa_obj_in(c->option, FA_OBJ_PICK_UP, FA_SB_WEAPONS)) {
            put_key(t, &first, "weapon");
            id = weapon_id(s, c->n_targets > 0 ? c->targets[0] : c->actor,
                           c->option - FA_OBJ_PICK_UP);
            if (id)
                put_str(t, id);
            else
                fray__text_f(t, "%d", c->option - FA_OBJ_PICK_UP);
        } else if (c->option >= FA_OBJ_DRAW_ITEM) {
            int k = c->option - (fa_obj_in(c->option, FA_OBJ_CONSUME, FA_SB_ITEMS)
                                     ? FA_OBJ_CONSUME
                                     : FA_OBJ_DRAW_ITEM);
            put_key(t, &first, "item");
            id = item_id(s, c->actor, k);
            if (id)
                put_str(t, id);
            else
                fray__text_f(t, "%d", k);
        }
    } else if (c->kind == FA_CMD_HELD_OBJECT && c->option == 1) {
        put_key(t, &first, "take");
        fray__text_s(t, "true");
    } else if (c->option != 0) {
        put_key(t, &first, "option");
        fray__text_f(t, "%d", c->option);
    }
    if (c->n_targets > 0) {
        put_key(t, &first, "targets");
        fray__text_s(t, "[");
        for (int i = 0; i < c->n_targets; i++) {
            if (i)
                fray__text_s(t, ",");
            put_who(t, s, c->targets[i]);
        }
        fray__text_s(t, "]");
    }
    if (c->origin.x != -1 || c->origin.y != -1) {
        put_key(t, &first, "origin");
        put_pos(t, c->origin);
    }
    if (c->n_path > 0) {
        put_key(t, &first, "path");
        fray__text_s(t, "[");
        for (int i = 0; i < c->n_path; i++) {
            if (i)
                fray__text_s(t, ",");
            put_pos(t, c->path[i]);
        }
        fray__text_s(t, "]");
    }
    if (c->has_guess) {
        put_key(t, &first, "guess");
        put_pos(t, c->guess);
    }
    if (c->kind == FA_CMD_READY) {
        bool rf = true;
        put_key(t, &first, "ready");
        fray__text_s(t, "{");
        put_key(t, &rf, "action");
        put_str(t, fa_cmd_name(c->ready.kind));
        put_key(t, &rf, "trigger");
        if (c->ready.trigger < FA_TRIG_KINDS)
            put_str(t, trigger_words[c->ready.trigger]);
        else
            fray__text_f(t, "%d", c->ready.trigger);
        if (c->ready.who != -1) {
            put_key(t, &rf, "who");
            put_who(t, s, c->ready.who);
        }
        if (c->ready.target != -1) {
            put_key(t, &rf, "target");
            put_who(t, s, c->ready.target);
        }
        if (c->ready.power != -1) {
            put_key(t, &rf, "power");
            const char *id = power_id(s, c->actor, c->ready.power);
            if (id)
                put_str(t, id);
            else
                fray__text_f(t, "%d", c->ready.power);
        }
        fray__text_s(t, "}");
    }
    if (c->kind == FA_CMD_GM) {   /* (alloygm) the GM's override */
        put_key(t, &first, "gm");
        put_str(t, fa_gm_word(c->gm));
        if (c->gm == FA_GM_SET_HP || c->gm == FA_GM_ADJUST_HP) {
            put_key(t, &first, "value");
            fray__text_f(t, "%d", c->gm_value);
        }
        if (c->gm == FA_GM_COND_ON || c->gm == FA_GM_COND_OFF) {
            put_key(t, &first, "condition");
            put_str(t, fa_cond_name(c->gm_cond));
        }
        if (c->gm == FA_GM_COND_ON) {
            put_key(t, &first, "ends");
            put_str(t, c->gm_ends < sizeof ends_words / sizeof *ends_words
                           ? ends_words[c->gm_ends] : "?");
        }
    }
    if (c->decline) {
        put_key(t, &first, "decline");
        fray__text_s(t, "[");
        bool any = false;
        for (int i = 0; i < 32; i++)
            if (c->decline & (1u << i)) {
                if (any)
                    fray__text_s(t, ",");
                put_who(t, s, i);
                any = true;
            }
        fray__text_s(t, "]");
    }
    fray__text_s(t, "}");
}

static void put_fact(fray__text *t, const fa_setup *s, const fa_fact *f) {
    bool first = true;
    fray__text_s(t, "{");
    put_key(t, &first, "fact");
    if (f->kind < FA_FACT_KINDS && fact_words[f->kind])
        put_str(t, fact_words[f->kind]);
    else
        fray__text_f(t, "%d", f->kind);
    if (f->who != -1) {
        put_key(t, &first, "who");
        put_who(t, s, f->who);
    }
    if (f->target != -1) {
        put_key(t, &first, "target");
        put_who(t, s, f->target);
    }
    const vfield *fl = f->kind < FA_FACT_KINDS ? fact_fields[f->kind] : NULL;
    for (int k = 0; k < 6; k++) {
        vtype ty = fl ? (vtype)fl[k].type : T_NONE;
        if (ty == T_NONE) {
            bool pos_tail = fl && k > 0 && fl[k - 1].type == T_POS;
            if (!pos_tail && f->v[k] != 0) {
                char key[4] = {'v', (char)('0' + k), 0, 0};
                put_key(t, &first, key);
                fray__text_f(t, "%ld", (long)f->v[k]);
            }
            continue;
        }
        put_key(t, &first, fl[k].name);
        if (ty == T_INT) {
            fray__text_f(t, "%ld", (long)f->v[k]);
        } else if (ty == T_WHO) {
            put_who(t, s, (int)f->v[k]);
        } else if (ty == T_POS) {
            fray__text_f(t, "[%ld,%ld]", (long)f->v[k],
                         k + 1 < 6 ? (long)f->v[k + 1] : 0L);
        } else {
            const char *w = word_of(s, ty, f->v[k]);
            if (w)
                put_str(t, w);
            else
                fray__text_f(t, "%ld", (long)f->v[k]);
        }
    }
    fray__text_s(t, "}");
}

size_t fa_event_json(const fa_setup *s, const fa_event *ev, char *buf,
                     size_t size) {
    fray__text t;
    fray__text_init(&t, buf, size);
    fray__text_f(&t, "{\"event\":%ld,\"round\":%d,\"command\":", (long)ev->number,
                 ev->round);
    put_command(&t, s, &ev->cmd);
    if (ev->dice_given)
        fray__text_s(&t, ",\"dice_given\":true");
    fray__text_s(&t, ",\"dice\":[");
    for (int i = 0; i < ev->n_dice; i++) {
        const fa_die *d = &ev->dice[i];
        fray__text_f(&t, "%s{\"d\":%d,\"v\":%d,\"for\":", i ? "," : "",
                     d->sides, d->value);
        if (d->purpose < FA_DIE_PURPOSES)
            put_str(&t, purpose_words[d->purpose]);
        else
            fray__text_f(&t, "%d", d->purpose);
        if (d->who != -1) {
            fray__text_s(&t, ",\"by\":");
            put_who(&t, s, d->who);
        }
        fray__text_s(&t, "}");
    }
    fray__text_s(&t, "],\"choices\":[");
    for (int i = 0; i < ev->n_choices; i++) {
        const fa_choice *c = &ev->choices[i];
        fray__text_f(&t, "%s{\"choice\":", i ? "," : "");
        if (c->kind < FA_CH_KINDS)
            put_str(&t, choice_words[c->kind]);
        else
            fray__text_f(&t, "%d", c->kind);
        if (c->who != -1) {
            fray__text_s(&t, ",\"who\":");
            put_who(&t, s, c->who);
        }
        if (c->other != -1) {
            fray__text_s(&t, ",\"other\":");
            put_who(&t, s, c->other);
        }
        fray__text_f(&t, ",\"value\":%d}", c->value);
    }
    fray__text_s(&t, "],\"facts\":[");
    for (int i = 0; i < ev->n_facts; i++) {
        if (i)
            fray__text_s(&t, ",");
        put_fact(&t, s, &ev->facts[i]);
    }
    fray__text_s(&t, "]");
    if (ev->facts_untold)
        fray__text_f(&t, ",\"facts_untold\":%d", ev->facts_untold);
    fray__text_s(&t, "}");
    return t.len;
}

/* ---- Reading --------------------------------------------------------------------------- */

typedef struct reader {
    const fa_setup *s;
    char *field;
    size_t field_size;
    char *why;
    size_t why_size;
} reader;

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static fray_status bad(reader *r, const char *path, const char *fmt, ...) {
    if (r->field && r->field_size)
        snprintf(r->field, r->field_size, "%s", path);
    if (r->why && r->why_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->why, r->why_size, fmt, ap);
        va_end(ap);
    }
    return FRAY_ERR_PARSE;
}

static bool same_word(const char *a, const char *b) {
    return strcmp(a, b) == 0;
}

/* An integer in [lo, hi]. */
static fray_status get_int(reader *r, json_t *v, const char *path, long lo,
                           long hi, long *out) {
    if (!json_is_integer(v))
        return bad(r, path, "expected a whole number from %ld to %ld", lo, hi);
    json_int_t x = json_integer_value(v);
    if (x < lo || x > hi)
        return bad(r, path, "%lld is out of range (%ld to %ld)", (long long)x,
                   lo, hi);
    *out = (long)x;
    return FRAY_OK;
}

/* A combatant by id, or by index. */
static fray_status get_who(reader *r, json_t *v, const char *path, int *out) {
    const fa_setup *s = r->s;
    if (json_is_string(v)) {
        const char *id = json_string_value(v);
        for (int i = 0; i < s->n; i++)
            if (same_word(s->c[i].id, id)) {
                *out = i;
                return FRAY_OK;
            }
        return bad(r, path, "'%.40s' is not a combatant of this encounter",
                   id);
    }
    if (json_is_integer(v)) {
        json_int_t x = json_integer_value(v);
        if (x < 0 || x >= s->n)
            return bad(r, path, "%lld is not a combatant of this encounter "
                       "(its %d combatants are 0 to %d)", (long long)x, s->n,
                       s->n - 1);
        *out = (int)x;
        return FRAY_OK;
    }
    return bad(r, path, "expected a combatant's id");
}

/* A word of list[0..n) (or its index). */
static fray_status get_word(reader *r, json_t *v, const char *path,
                            const char *const *list, int n, const char *what,
                            int *out) {
    if (json_is_string(v)) {
        const char *w = json_string_value(v);
        for (int i = 0; i < n; i++)
            if (list[i] && same_word(list[i], w)) {
                *out = i;
                return FRAY_OK;
            }
        return bad(r, path, "'%.40s' is not %s", w, what);
    }
    if (json_is_integer(v)) {
        json_int_t x = json_integer_value(v);
        if (x < 0 || x >= n)
            return bad(r, path, "%lld is not %s (0 to %d)", (long long)x, what,
                       n - 1);
        *out = (int)x;
        return FRAY_OK;
    }
    return bad(r, path, "expected %s", what);
}

static fray_status get_pos(reader *r, json_t *v, const char *path,
                           fray_pos *out) {
    long x, y;
    if (!json_is_array(v) || json_array_size(v) != 2)
        return bad(r, path, "expected a square [x, y]");
    char sub[96];
    snprintf(sub, sizeof sub, "%s[0]", path);
    fray_status rc = get_int(r, json_array_get(v, 0), sub, 0, FRAY_GRID_MAX - 1,
                             &x);
    if (rc != FRAY_OK)
        return rc;
    snprintf(sub, sizeof sub, "%s[1]", path);
    rc = get_int(r, json_array_get(v, 1), sub, 0, FRAY_GRID_MAX - 1, &y);
    if (rc != FRAY_OK)
        return rc;
    fray_pos p = {(int16_t)x, (int16_t)y};
    if (!fray_grid_in(&r->s->map, p))
        return bad(r, path, "[%ld, %ld] is not a square of the map (%d x %d)",
                   x, y, r->s->map.w, r->s->map.h);
    *out = p;
    return FRAY_OK;
}

/* A list of names (cmd_names, conditions, ...) from a name function. */
static int find_name(const char *(*name)(int), int n, const char *w) {
    for (int i = 0; i < n; i++)
        if (same_word(name(i), w))
            return i;
    return -1;
}

static fray_status get_named(reader *r, json_t *v, const char *path,
                             const char *(*name)(int), int n,
                             const char *what, int *out) {
    if (json_is_string(v)) {
        int k = find_name(name, n, json_string_value(v));
        if (k < 0)
            return bad(r, path, "'%.40s' is not %s", json_string_value(v),
                       what);
        *out = k;
        return FRAY_OK;
    }
    if (json_is_integer(v)) {
        json_int_t x = json_integer_value(v);
        if (x < 0 || x >= n)
            return bad(r, path, "%lld is not %s (0 to %d)", (long long)x, what,
                       n - 1);
        *out = (int)x;
        return FRAY_OK;
    }
    return bad(r, path, "expected %s", what);
}

/* A weapon slot of the actor's block, by the weapon's id or the slot. */
/* One of the actor's n weapons or powers (`what`), by its id or its
 * place in the stat block. */
static fray_status get_item(reader *r, json_t *v, const char *path, int who,
                            const char *what, int n,
                            const char *(*id_of)(const fa_setup *, int, int),
                            int *out) {
    const fa_setup *s = r->s;
    if (json_is_string(v)) {
        for (int i = 0; i < n; i++) {
            const char *id = id_of(s, who, i);
            if (id && same_word(id, json_string_value(v))) {
                *out = i;
                return FRAY_OK;
            }
        }
        return bad(r, path, "'%.40s' is not one of %s's %ss",
                   json_string_value(v), s->c[who].name, what);
    }
    long x;
    if (n == 0)
        return bad(r, path, "%s has no %ss", s->c[who].name, what);
    fray_status rc = get_int(r, v, path, 0, n - 1, &x);
    if (rc == FRAY_OK)
        *out = (int)x;
    return rc;
}

static fray_status get_weapon(reader *r, json_t *v, const char *path, int who,
                              int *out) {
    if (who < 0)
        return bad(r, path, "a weapon needs an actor");
    return get_item(r, v, path, who, "weapon",
                    r->s->sb[r->s->c[who].sb].n_weapons, weapon_id, out);
}

static fray_status get_power(reader *r, json_t *v, const char *path, int who,
                             int *out) {
    if (who < 0)
        return bad(r, path, "a power needs an actor");
    return get_item(r, v, path, who, "power",
                    r->s->sb[r->s->c[who].sb].n_powers, power_id, out);
}

static const char *cmd_name_of(int k) { return fa_cmd_name(k); }
static const char *cond_name_of(int k) { return fa_cond_name(k); }
static const char *def_name_of(int k) { return fa_defense_name(k); }
static const char *mod_name_of(int k) { return fa_mod_name(k); }

#define TRY(x)                                                                 \
    do {                                                                       \
        fray_status rc_ = (x);                                                 \
        if (rc_ != FRAY_OK)                                                    \
            return rc_;                                                        \
    } while (0)

static fray_status read_ready(reader *r, json_t *o, int actor,
                              fa_ready *out) {
    if (!json_is_object(o))
        return bad(r, "command.ready", "expected an object");
    json_t *v;
    int k;
    if (!(v = json_object_get(o, "action")))
        return bad(r, "command.ready.action", "expected the action readied");
    TRY(get_named(r, v, "command.ready.action", cmd_name_of, FA_CMD_KINDS,
                  "an action", &k));
    out->kind = (uint8_t)k;
    if (!(v = json_object_get(o, "trigger")))
        return bad(r, "command.ready.trigger", "expected the trigger");
    TRY(get_word(r, v, "command.ready.trigger", trigger_words, FA_TRIG_KINDS,
                 "a trigger (moves-adjacent, attacks, enters-reach)", &k));
    out->trigger = (uint8_t)k;
    if ((v = json_object_get(o, "who"))) {
        TRY(get_who(r, v, "command.ready.who", &k));
        out->who = (int8_t)k;
    }
    if ((v = json_object_get(o, "target"))) {
        TRY(get_who(r, v, "command.ready.target", &k));
        out->target = (int8_t)k;
    }
    if ((v = json_object_get(o, "power"))) {
        TRY(get_power(r, v, "command.ready.power", actor, &k));
        out->power = (int8_t)k;
    }
    return FRAY_OK;
}

static fray_status read_command(reader *r, json_t *o, fa_command *c) {
    memset(c, 0, sizeof *c);
    c->actor = -1;
    c->slot = FA_ACT_NONE;
    c->power = c->weapon = -1;
    c->origin.x = c->origin.y = -1;
    c->ready.who = c->ready.power = c->ready.target = -1;
    c->ready.kind = FA_CMD_ATTACK;
    if (!json_is_object(o))
        return bad(r, "command", "expected an object");
    json_t *v;
    int k;
    char path[64];
    if (!(v = json_object_get(o, "action")))
        return bad(r, "command.action", "expected the action's name");
    /* The object actions' words (object_action): Draw's in the engine. */
    const char *aw = json_is_string(v) ? json_string_value(v) : "";
    bool holster = same_word(aw, "holster"), pick = same_word(aw, "pick-up"),
         consume = same_word(aw, "consume");
    if (holster || pick || consume) {
        c->kind = FA_CMD_DRAW;
    } else {
        TRY(get_named(r, v, "command.action", cmd_name_of, FA_CMD_KINDS,
                      "an action (attack, walk, next, ...)", &k));
        c->kind = (uint8_t)k;
    }
    if ((v = json_object_get(o, "actor"))) {
        TRY(get_who(r, v, "command.actor", &k));
        c->actor = (int8_t)k;
    } else if (c->kind != FA_CMD_BEGIN && c->kind != FA_CMD_NEXT) {
        return bad(r, "command.actor", "expected who acts");
    }
    if ((v = json_object_get(o, "slot"))) {
        TRY(get_word(r, v, "command.slot", slot_words, FA_ACT_NONE + 1,
                     "an action slot (standard, move, swift)", &k));
        c->slot = (uint8_t)k;
    }
    if ((v = json_object_get(o, "power"))) {
        TRY(get_power(r, v, "command.power", c->actor, &k));
        c->power = (int8_t)k;
    }
    json_t *pick_weapon = NULL;
    if ((v = json_object_get(o, "weapon"))) {
        if (pick) {
            pick_weapon = v;   /* the owner's weapon: read once targets are */
        } else {
            TRY(get_weapon(r, v, "command.weapon", c->actor, &k));
            c->weapon = (int8_t)k;
        }
    }
    int aid = -1;
    if ((v = json_object_get(o, "aid"))) {
        static const char *const aid_words[] = {"attack", "defense", "check"};
        TRY(get_word(r, v, "command.aid", aid_words, 3,
                     "'attack', 'defense' or 'check'", &k));
        c->option = (int8_t)k;
        aid = k;
    }
    if ((v = json_object_get(o, "skill"))) {
        TRY(get_word(r, v, "command.skill", skill_words, FA_SKILLS, "a skill",
                     &k));
        /* (alloy-skills) an aid on a check names its skill; so does a skill use */
        c->option = (int8_t)(aid == FA_AID_CHECK ? FA_AID_CHECK + k : k);
    } else if (aid == FA_AID_CHECK) {
        return bad(r, "command.skill", "expected the skill of the check aided");
    }
    if ((v = json_object_get(o, "as"))) {
        static const char *const as_words[] = {"standard", "move"};
        TRY(get_word(r, v, "command.as", as_words, 2, "'standard' or 'move'", &k));
        if (k == 1)
            c->option = (int8_t)(c->option | FA_SKILL_AS_MOVE);
    }
    if ((v = json_object_get(o, "option"))) {
        long x;
        TRY(get_int(r, v, "command.option", INT8_MIN, INT8_MAX, &x));
        c->option = (int8_t)x;
    }
    if ((v = json_object_get(o, "targets"))) {
        if (!json_is_array(v) || json_array_size(v) > FA_MAX_TARGETS)
            return bad(r, "command.targets", "expected a list of at most %d "
                       "combatants", FA_MAX_TARGETS);
        for (size_t i = 0; i < json_array_size(v); i++) {
            snprintf(path, sizeof path, "command.targets[%zu]", i);
            TRY(get_who(r, json_array_get(v, i), path, &k));
            c->targets[c->n_targets++] = (int8_t)k;
        }
    }
    if ((v = json_object_get(o, "origin"))) {
        /* A close blast's corner may lie off the map (the squares off it
         * are simply not in the blast): near the map is enough. */
        long x, y;
        if (!json_is_array(v) || json_array_size(v) != 2)
            return bad(r, "command.origin", "expected a square [x, y]");
        TRY(get_int(r, json_array_get(v, 0), "command.origin[0]",
                    -FRAY_GRID_MAX, 2 * FRAY_GRID_MAX - 1, &x));
        TRY(get_int(r, json_array_get(v, 1), "command.origin[1]",
                    -FRAY_GRID_MAX, 2 * FRAY_GRID_MAX - 1, &y));
        c->origin.x = (int16_t)x;
        c->origin.y = (int16_t)y;
    }
    if ((v = json_object_get(o, "path"))) {
        if (!json_is_array(v) || json_array_size(v) > FA_MAX_PATH)
            return bad(r, "command.path", "expected a list of at most %d squares",
                       FA_MAX_PATH);
        for (size_t i = 0; i < json_array_size(v); i++) {
            snprintf(path, sizeof path, "command.path[%zu]", i);
            TRY(get_pos(r, json_array_get(v, i), path, &c->path[c->n_path]));
            c->n_path++;
        }
    }
    if ((v = json_object_get(o, "guess"))) {
        TRY(get_pos(r, v, "command.guess", &c->guess));
        c->has_guess = true;
    }
    if (holster && c->weapon >= 0)
        return bad(r, "command.weapon", "holster puts away the weapon in "
                   "hand: it names none");
    if (pick) {
        c->option = FA_OBJ_PICK_ANY;
        if (pick_weapon) {
            if (c->actor < 0)
                return bad(r, "command.weapon", "a pick-up needs an actor");
            int owner = c->n_targets > 0 ? c->targets[0] : c->actor;
            TRY(get_item(r, pick_weapon, "command.weapon", owner, "weapon",
                         r->s->sb[r->s->c[owner].sb].n_weapons, weapon_id, &k));
            c->option = (int8_t)(FA_OBJ_PICK_UP + k);
        }
    }
    if ((v = json_object_get(o, "item"))) {
        if (c->actor < 0 || c->kind != FA_CMD_DRAW || holster || pick)
            return bad(r, "command.item", "an item is drawn or consumed by "
                       "an actor");
        TRY(get_item(r, v, "command.item", c->actor, "item",
                     r->s->sb[r->s->c[c->actor].sb].n_items, item_id, &k));
        c->option = (int8_t)((consume ? FA_OBJ_CONSUME : FA_OBJ_DRAW_ITEM) + k);
    } else if (consume) {
        return bad(r, "command.item", "expected the item consumed");
    }
    if ((v = json_object_get(o, "take"))) {
        if (!json_is_boolean(v) || c->kind != FA_CMD_HELD_OBJECT)
            return bad(r, "command.take", "expected true on an attack on a "
                       "held object (take the weapon)");
        c->option = json_is_true(v) ? 1 : 0;
    }
    if ((v = json_object_get(o, "ready")))
        TRY(read_ready(r, v, c->actor, &c->ready));
    else if (c->kind == FA_CMD_READY)
        return bad(r, "command.ready", "expected the readied action and trigger");
    if ((v = json_object_get(o, "decline"))) {
        if (!json_is_array(v))
            return bad(r, "command.decline", "expected a list of combatants");
        for (size_t i = 0; i < json_array_size(v); i++) {
            snprintf(path, sizeof path, "command.decline[%zu]", i);
            TRY(get_who(r, json_array_get(v, i), path, &k));
            c->decline |= 1u << k;
        }
    }
    if (c->kind == FA_CMD_GM) {   /* (alloygm) the GM's override */
        if (!(v = json_object_get(o, "gm")) || !json_is_string(v) ||
            fa_gm_op_of(json_string_value(v)) < 0)
            return bad(r, "command.gm", "expected the override (set-hp, adjust-hp, "
                       "condition-on, condition-off, join, flee, place)");
        c->gm = (uint8_t)fa_gm_op_of(json_string_value(v));
        if (c->actor < 0)
            return bad(r, "command.actor", "expected whom the override is on");
        if (c->gm == FA_GM_SET_HP || c->gm == FA_GM_ADJUST_HP) {
            long x;
            if (!(v = json_object_get(o, "value")))
                return bad(r, "command.value", "expected the hit points");
            TRY(get_int(r, v, "command.value", -30000, 30000, &x));
            c->gm_value = (int16_t)x;
        }
        if (c->gm == FA_GM_COND_ON || c->gm == FA_GM_COND_OFF) {
            if (!(v = json_object_get(o, "condition")))
                return bad(r, "command.condition", "expected the condition");
            TRY(get_named(r, v, "command.condition", cond_name_of, FA_COND_KINDS,
                          "a condition", &k));
            c->gm_cond = (uint8_t)k;
        }
        if (c->gm == FA_GM_COND_ON) {
            if (!(v = json_object_get(o, "ends")))
                return bad(r, "command.ends", "expected how the condition ends");
            TRY(get_word(r, v, "command.ends", ends_words,
                         (int)(sizeof ends_words / sizeof *ends_words), "an ending", &k));
            c->gm_ends = (uint8_t)k;
        }
    }
    return FRAY_OK;
}

static fray_status read_fact(reader *r, json_t *o, size_t i, fa_fact *f) {
    char path[64], sub[80];
    snprintf(path, sizeof path, "facts[%zu]", i);
    memset(f, 0, sizeof *f);
    f->who = f->target = -1;
    if (!json_is_object(o))
        return bad(r, path, "expected an object");
    json_t *v;
    int k;
    snprintf(sub, sizeof sub, "%s.fact", path);
    if (!(v = json_object_get(o, "fact")))
        return bad(r, sub, "expected the kind of fact");
    TRY(get_word(r, v, sub, fact_words, FA_FACT_KINDS, "a kind of fact", &k));
    f->kind = (uint8_t)k;
    if ((v = json_object_get(o, "who"))) {
        snprintf(sub, sizeof sub, "%s.who", path);
        TRY(get_who(r, v, sub, &k));
        f->who = (int8_t)k;
    }
    if ((v = json_object_get(o, "target"))) {
        snprintf(sub, sizeof sub, "%s.target", path);
        TRY(get_who(r, v, sub, &k));
        f->target = (int8_t)k;
    }
    const vfield *fl = fact_fields[f->kind];
    for (int j = 0; j < 6; j++) {
        vtype ty = (vtype)fl[j].type;
        long x;
        if (ty == T_NONE) {
            if (j > 0 && fl[j - 1].type == T_POS)
                continue;
            char key[4] = {'v', (char)('0' + j), 0, 0};
            if ((v = json_object_get(o, key))) {
                snprintf(sub, sizeof sub, "%s.%s", path, key);
                TRY(get_int(r, v, sub, INT32_MIN, INT32_MAX, &x));
                f->v[j] = (int32_t)x;
            }
            continue;
        }
        snprintf(sub, sizeof sub, "%s.%s", path, fl[j].name);
        if (!(v = json_object_get(o, fl[j].name))) {
            /* (alloy-space) a push written before forced moves had its
             * kind and squares: a bull rush's push (0s) */
            if (f->kind == FA_FACT_PUSH && j >= 2)
                continue;
            return bad(r, sub, "expected the fact's %s", fl[j].name);
        }
        switch (ty) {
        case T_INT:
            TRY(get_int(r, v, sub, INT32_MIN, INT32_MAX, &x));
            f->v[j] = (int32_t)x;
            break;
        case T_WHO:
            if (json_is_integer(v) && json_integer_value(v) == -1) {
                f->v[j] = -1;
            } else {
                TRY(get_who(r, v, sub, &k));
                f->v[j] = k;
            }
            break;
        case T_POS: {
            fray_pos p;
            TRY(get_pos(r, v, sub, &p));
            f->v[j] = p.x;
            if (j + 1 < 6)
                f->v[j + 1] = p.y;
            break;
        }
        case T_COND:
            TRY(get_named(r, v, sub, cond_name_of, FA_COND_KINDS,
                          "a condition", &k));
            f->v[j] = k;
            break;
        case T_CMD:
            if (json_is_integer(v)) {
                TRY(get_int(r, v, sub, INT32_MIN, INT32_MAX, &x));
                f->v[j] = (int32_t)x;
            } else {
                TRY(get_named(r, v, sub, cmd_name_of, FA_CMD_KINDS,
                              "an action", &k));
                f->v[j] = k;
            }
            break;
        case T_DEF:
            TRY(get_named(r, v, sub, def_name_of, FA_DEFENSES,
                          "a defense (Defense, Fortitude, Reflex, Will)", &k));
            f->v[j] = k;
            break;
        case T_MOD:
            TRY(get_named(r, v, sub, mod_name_of, FA_MOD_KINDS,
                          "an attack modifier", &k));
            f->v[j] = k;
            break;
        case T_SIDE:
            if (json_is_string(v) && same_word(json_string_value(v), "none")) {
                f->v[j] = -1;
            } else if (json_is_string(v) &&
                       same_word(json_string_value(v), "all-out")) {
                f->v[j] = -2;
            } else {
                const char *names[FA_MAX_SIDES];
                for (int q = 0; q < r->s->n_sides && q < FA_MAX_SIDES; q++)
                    names[q] = r->s->side_name[q];
                TRY(get_word(r, v, sub, names, r->s->n_sides,
                             "a side of this encounter, 'none' or 'all-out'",
                             &k));
                f->v[j] = k;
            }
            break;
        case T_NOTE:
            /* A word; or the number journals wrote before the words. */
            if (json_is_integer(v)) {
                TRY(get_int(r, v, sub, INT32_MIN, INT32_MAX, &x));
                f->v[j] = (int32_t)x;
            } else if (json_is_string(v) &&
                       same_word(json_string_value(v), "none")) {
                f->v[j] = 0;
            } else {
                TRY(get_word(r, v, sub, note_words,
                             FA_NOTE_ATTACK_NOTES - FA_NOTE_NO_ROOM,
                             "why the action had no effect", &k));
                f->v[j] = FA_NOTE_NO_ROOM + k;
            }
            break;
        default: {
            const char *const *w;
            int n = words_of(ty, &w);
            TRY(get_word(r, v, sub, w, n, fl[j].name, &k));
            f->v[j] = k;
            break;
        }
        }
    }
    return FRAY_OK;
}

fray_status fa_event_from_json(const fa_setup *s, const void *json_t_obj,
                               fa_event *out, char *field, size_t field_size,
                               char *why, size_t why_size) {
    reader rd = {s, field, field_size, why, why_size};
    reader *r = &rd;
    json_t *o = (json_t *)json_t_obj;
    if (!json_is_object(o))
        return bad(r, "", "expected an object");
    out->number = 0;
    out->round = 0;
    out->dice_given = false;
    out->facts_untold = 0;
    out->n_dice = out->n_choices = out->n_facts = 0;
    json_t *v, *a;
    long x;
    int k;
    char path[64];
    if ((v = json_object_get(o, "event"))) {
        TRY(get_int(r, v, "event", 0, INT32_MAX, &x));
        out->number = (int32_t)x;
    }
    if ((v = json_object_get(o, "round"))) {
        TRY(get_int(r, v, "round", 0, INT16_MAX, &x));
        out->round = (int16_t)x;
    }
    if (!(v = json_object_get(o, "command")))
        return bad(r, "command", "expected the command");
    TRY(read_command(r, v, &out->cmd));
    if ((v = json_object_get(o, "dice_given"))) {
        if (!json_is_boolean(v))
            return bad(r, "dice_given", "expected true or false");
        out->dice_given = json_is_true(v);
    }
    if (!(a = json_object_get(o, "dice")) || !json_is_array(a))
        return bad(r, "dice", "expected the list of dice rolled");
    if (json_array_size(a) > FA_EVENT_DICE)
        return bad(r, "dice", "at most %d dice in one event", FA_EVENT_DICE);
    for (size_t i = 0; i < json_array_size(a); i++) {
        json_t *d = json_array_get(a, i);
        fa_die *die = &out->dice[out->n_dice];
        snprintf(path, sizeof path, "dice[%zu]", i);
        if (!json_is_object(d))
            return bad(r, path, "expected a die {\"d\", \"v\", \"for\", \"by\"}");
        char sub[80];
        long sides, val;
        snprintf(sub, sizeof sub, "%s.d", path);
        TRY(get_int(r, json_object_get(d, "d"), sub, 2, 100, &sides));
        snprintf(sub, sizeof sub, "%s.v", path);
        TRY(get_int(r, json_object_get(d, "v"), sub, 1, sides, &val));
        snprintf(sub, sizeof sub, "%s.for", path);
        if (!(v = json_object_get(d, "for")))
            return bad(r, sub, "expected what the die is for");
        TRY(get_word(r, v, sub, purpose_words, FA_DIE_PURPOSES,
                     "a die's purpose (initiative, tie, attack, damage, crit, "
                     "save, check, heal)", &k));
        die->purpose = (uint8_t)k;
        die->who = -1;
        if ((v = json_object_get(d, "by"))) {
            snprintf(sub, sizeof sub, "%s.by", path);
            TRY(get_who(r, v, sub, &k));
            die->who = (int8_t)k;
        }
        die->sides = (uint8_t)sides;
        die->value = (uint8_t)val;
        out->n_dice++;
    }
    if (!(a = json_object_get(o, "choices")) || !json_is_array(a))
        return bad(r, "choices", "expected the list of choices made");
    if (json_array_size(a) > FA_EVENT_CHOICES)
        return bad(r, "choices", "at most %d choices in one event",
                   FA_EVENT_CHOICES);
    for (size_t i = 0; i < json_array_size(a); i++) {
        json_t *c = json_array_get(a, i);
        fa_choice *ch = &out->choices[out->n_choices];
        char sub[80];
        snprintf(path, sizeof path, "choices[%zu]", i);
        if (!json_is_object(c))
            return bad(r, path, "expected a choice object");
        snprintf(sub, sizeof sub, "%s.choice", path);
        if (!(v = json_object_get(c, "choice")))
            return bad(r, sub, "expected the kind of choice");
        TRY(get_word(r, v, sub, choice_words, FA_CH_KINDS,
                     "a kind of choice (opportunity, cover-takes-hit, "
                     "ready-fires, suppress-fires)", &k));
        ch->kind = (uint8_t)k;
        ch->who = ch->other = -1;
        if ((v = json_object_get(c, "who"))) {
            snprintf(sub, sizeof sub, "%s.who", path);
            TRY(get_who(r, v, sub, &k));
            ch->who = (int8_t)k;
        }
        if ((v = json_object_get(c, "other"))) {
            snprintf(sub, sizeof sub, "%s.other", path);
            TRY(get_who(r, v, sub, &k));
            ch->other = (int8_t)k;
        }
        snprintf(sub, sizeof sub, "%s.value", path);
        TRY(get_int(r, json_object_get(c, "value"), sub, INT8_MIN, INT8_MAX,
                    &x));
        ch->value = (int8_t)x;
        out->n_choices++;
    }
    if ((a = json_object_get(o, "facts"))) {
        if (!json_is_array(a))
            return bad(r, "facts", "expected the list of facts");
        if (json_array_size(a) > FA_EVENT_FACTS)
            return bad(r, "facts", "at most %d facts in one event",
                       FA_EVENT_FACTS);
        for (size_t i = 0; i < json_array_size(a); i++) {
            TRY(read_fact(r, json_array_get(a, i), i,
                          &out->facts[out->n_facts]));
            out->n_facts++;
        }
    }
    if ((v = json_object_get(o, "facts_untold"))) {
        TRY(get_int(r, v, "facts_untold", 0, INT16_MAX, &x));
        out->facts_untold = (int16_t)x;
    }
    return FRAY_OK;
}
