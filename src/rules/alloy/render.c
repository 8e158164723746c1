/*
 * render.c - Alloy told to a game master: the names of actions,
 * conditions, defenses and modifiers; an event's narration; the
 * initiative order; the map; the summary (alloy_int.h). All snprintf-style:
 * the length the whole text needs is returned, buf may be NULL when size
 * is 0.
 */
#include "alloy_int.h"

#include <string.h>

#include "internal.h"

/* ---- Names ------------------------------------------------------------------ */

static const char *const cmd_names[FA_CMD_KINDS] = {
    [FA_CMD_BEGIN] = "begin",
    [FA_CMD_NEXT] = "next",
    [FA_CMD_ATTACK] = "attack",
    [FA_CMD_CHARGE] = "charge",
    [FA_CMD_COUP] = "coup",
    [FA_CMD_BULL_RUSH] = "bull-rush",
    [FA_CMD_TRIP] = "trip",
    [FA_CMD_GRAPPLE] = "grapple",
    [FA_CMD_MOVE_GRAPPLED] = "move-grappled",
    [FA_CMD_HELD_OBJECT] = "disarm",
    [FA_CMD_AID] = "aid",
    [FA_CMD_SPRAY] = "spray",
    [FA_CMD_SUPPRESS] = "suppress",
    [FA_CMD_TOTAL_DEFENSE] = "total-defense",
    [FA_CMD_SECOND_WIND] = "second-wind",
    [FA_CMD_WALK] = "walk",
    [FA_CMD_SHIFT] = "shift",
    [FA_CMD_RUN] = "run",
    [FA_CMD_CRAWL] = "crawl",
    [FA_CMD_SQUEEZE] = "squeeze",
    [FA_CMD_STAND] = "stand",
    [FA_CMD_ESCAPE] = "escape",
    [FA_CMD_DROP_PRONE] = "drop-prone",
    [FA_CMD_DRAW] = "draw",
    [FA_CMD_RELOAD] = "reload",
    [FA_CMD_SUSTAIN] = "sustain",
    [FA_CMD_SPEND_AP] = "action-point",
    [FA_CMD_END_GRAB] = "end-grab",
    [FA_CMD_READY] = "ready",
    [FA_CMD_DELAY] = "delay",
    [FA_CMD_RESUME] = "resume",
    [FA_CMD_END_TURN] = "end",
    [FA_CMD_FEINT] = "feint",
    [FA_CMD_SKILL] = "skill",
    [FA_CMD_GM] = "gm",
};

/* The action table's own names (004:300-354). */
static const char *const cmd_titles[FA_CMD_KINDS] = {
    [FA_CMD_BEGIN] = "Initiative",
    [FA_CMD_NEXT] = "Next turn",
    [FA_CMD_ATTACK] = "Attack",
    [FA_CMD_CHARGE] = "Charge",
    [FA_CMD_COUP] = "Coup de Grace",
    [FA_CMD_BULL_RUSH] = "Bull Rush",
    [FA_CMD_TRIP] = "Trip",
    [FA_CMD_GRAPPLE] = "Grapple",
    [FA_CMD_MOVE_GRAPPLED] = "Move Grappled Target",
    [FA_CMD_HELD_OBJECT] = "Attack Held Object",
    [FA_CMD_AID] = "Aid Another",
    [FA_CMD_SPRAY] = "Autofire: Spray",
    [FA_CMD_SUPPRESS] = "Autofire: Suppressing Fire",
    [FA_CMD_TOTAL_DEFENSE] = "Total Defense",
    [FA_CMD_SECOND_WIND] = "Second Wind",
    [FA_CMD_WALK] = "Walk",
    [FA_CMD_SHIFT] = "Adjust",
    [FA_CMD_RUN] = "Run",
    [FA_CMD_CRAWL] = "Crawl",
    [FA_CMD_SQUEEZE] = "Squeeze",
    [FA_CMD_STAND] = "Stand Up",
    [FA_CMD_ESCAPE] = "Escape",
    [FA_CMD_DROP_PRONE] = "Drop Prone",
    [FA_CMD_DRAW] = "Draw or Holster",
    [FA_CMD_RELOAD] = "Reload",
    [FA_CMD_SUSTAIN] = "Sustain",
    [FA_CMD_SPEND_AP] = "Spend an Action Point",
    [FA_CMD_END_GRAB] = "End a Grab",
    [FA_CMD_READY] = "Ready an Action",
    [FA_CMD_DELAY] = "Delay",
    [FA_CMD_RESUME] = "Resume",
    [FA_CMD_END_TURN] = "End Turn",
    [FA_CMD_FEINT] = "Feint",
    [FA_CMD_SKILL] = "Use a Skill",
    [FA_CMD_GM] = "GM's override",
};

static const char *const cond_names[FA_COND_KINDS] = {
    [FA_C_BLINDED] = "blinded",
    [FA_C_DAZED] = "dazed",
    [FA_C_DEAFENED] = "deafened",
    [FA_C_DOMINATED] = "dominated",
    [FA_C_DYING] = "dying",
    [FA_C_GRAPPLED] = "grappled",
    [FA_C_HELPLESS] = "helpless",
    [FA_C_IMMOBILIZED] = "immobilized",
    [FA_C_PRONE] = "prone",
    [FA_C_SLOWED] = "slowed",
    [FA_C_SNARED] = "snared",
    [FA_C_STUNNED] = "stunned",
    [FA_C_SURPRISED] = "surprised",
    [FA_C_UNCONSCIOUS] = "unconscious",
    [FA_C_WITHERED] = "withered",
    [FA_C_DEAD] = "dead",
    [FA_C_RUNNING] = "running",
    [FA_C_TOTAL_DEFENSE] = "total defense",
    [FA_C_SECOND_WIND] = "second wind",
    [FA_C_SQUEEZING] = "squeezing",
    [FA_C_AID_ATTACK] = "aided attack",
    [FA_C_AID_DEFENSE] = "aided defenses",
    [FA_C_ONGOING] = "ongoing damage",
    [FA_C_SUPPRESSING] = "suppressing fire",
    [FA_C_GRANTS_BS] = "granting battle superiority",
    [FA_C_READY] = "readied action",
    [FA_C_DELAYING] = "delaying",
    [FA_C_FEINTED] = "a feint's battle superiority",
    [FA_C_AID_CHECK] = "an aided check",
};

static const char *const defense_names[FA_DEFENSES] = {
    "Defense", "Fortitude", "Reflex", "Will"};

static const char *const mod_names[FA_MOD_KINDS] = {
    [FA_MOD_BATTLE_SUPERIORITY] = "battle superiority",
    [FA_MOD_FLANKING] = "flanking",
    [FA_MOD_PRONE_ATTACKER] = "prone attacker",
    [FA_MOD_SNARED_ATTACKER] = "snared attacker",
    [FA_MOD_GRAPPLED_ATTACKER] = "grappled attacker",
    [FA_MOD_COVER] = "cover",
    [FA_MOD_IMPROVED_COVER] = "improved cover",
    [FA_MOD_CONCEALMENT] = "concealment",
    [FA_MOD_TOTAL_CONCEALMENT] = "total concealment",
    [FA_MOD_LONG_RANGE] = "long range",
    [FA_MOD_CHARGE] = "charge",
    [FA_MOD_RUNNING] = "running",
    [FA_MOD_SQUEEZING] = "squeezing",
    [FA_MOD_AID] = "aid another",
    [FA_MOD_DEFENSE_BONUS] = "defense bonus",
    [FA_MOD_PRONE_VS_RANGED] = "prone against a ranged attack",
    [FA_MOD_UNCONSCIOUS] = "unconscious target",
    [FA_MOD_NOT_PROFICIENT] = "not proficient",
    [FA_MOD_TOTAL_DEFENSE] = "total defense",
    [FA_MOD_SECOND_WIND] = "second wind",
    [FA_MOD_AID_DEFENSE] = "aid another (defenses)",
    [FA_MOD_CREATURE_COVER] = "cover from a creature",
};

static const char *const slot_names[] = {
    "standard action", "move action", "swift action", "immediate action",
    "free action", "no action"};

/* "?" for a value past the table or one the table has no word for yet
 * (a kind added to alloy_int.h without its name here: the tests of
 * render.c ask for every one). */
static const char *name_in(const char *const *names, int n, int k) {
    return k >= 0 && k < n && names[k] ? names[k] : "?";
}

const char *fa_cmd_name(int kind) {
    return name_in(cmd_names, FA_CMD_KINDS, kind);
}

const char *fa_cmd_title(int kind) {
    return name_in(cmd_titles, FA_CMD_KINDS, kind);
}

const char *fa_cond_name(int kind) {
    return name_in(cond_names, FA_COND_KINDS, kind);
}

const char *fa_defense_name(int d) {
    return name_in(defense_names, FA_DEFENSES, d);
}

const char *fa_mod_name(int reason) {
    return name_in(mod_names, FA_MOD_KINDS, reason);
}

/* ---- Helpers ----------------------------------------------------------------- */

static const char *who_name(const fa_setup *s, int i) {
    return i >= 0 && i < s->n ? s->c[i].name : "someone";
}

static const char *side_of(const fa_setup *s, int side) {
    return side >= 0 && side < s->n_sides ? s->side_name[side] : "?";
}

static int max_hp(const fa_setup *s, int i) {
    int sb = s->c[i].sb;
    return sb >= 0 && sb < s->n_sb ? s->sb[sb].hp : 0;
}

/* (alloy-objects) A stat block's item (Consume Item). */
static const char *item_name(const fa_setup *s, int who, int k) {
    if (who < 0 || who >= s->n)
        return NULL;
    const fa_statblock *sb = &s->sb[s->c[who].sb];
    return k >= 0 && k < sb->n_items ? sb->items[k].name : NULL;
}

static const char *weapon_name(const fa_setup *s, int who, int slot) {
    if (who < 0 || who >= s->n)
        return NULL;
    const fa_statblock *sb = &s->sb[s->c[who].sb];
    if (slot < 0 || slot >= sb->n_weapons)
        return NULL;
    int w = sb->weapons[slot].weapon;
    return w >= 0 && w < s->n_weapons ? s->weapons[w].name : NULL;
}

static const char *power_name(const fa_setup *s, int who, int p) {
    if (who < 0 || who >= s->n)
        return NULL;
    const fa_statblock *sb = &s->sb[s->c[who].sb];
    return p >= 0 && p < sb->n_powers ? sb->powers[p].name : NULL;
}

static void put_signed(fray__text *t, int v) {
    fray__text_f(t, v < 0 ? "- %d" : "+ %d", v < 0 ? -v : v);
}

static void put_ends(fray__text *t, const fa_setup *s, int ends, int source,
                     int who) {
    const char *whose = source >= 0 && source != who ? who_name(s, source)
                                                      : NULL;
    switch (ends) {
    case FA_ENDS_START_OF_TURN:
        if (whose)
            fray__text_f(t, " until the start of %s's next turn", whose);
        else
            fray__text_s(t, " until the start of its next turn");
        break;
    case FA_ENDS_END_OF_TURN:
        if (whose)
            fray__text_f(t, " until the end of %s's next turn", whose);
        else
            fray__text_s(t, " until the end of its next turn");
        break;
    case FA_ENDS_SAVE:
        fray__text_s(t, " (save ends)");
        break;
    case FA_ENDS_SUSTAIN:
        fray__text_s(t, " while it is sustained");
        break;
    case FA_ENDS_ROUND_END:
        fray__text_s(t, " until the end of the round");
        break;
    case FA_ENDS_USED:
        fray__text_s(t, " until used");
        break;
    default:
        break;
    }
}

/* The modifiers of facts [from, to): those of the attack roll (v2 0) or
 * of the target's defense (v2 1). */
static void put_modifiers(fray__text *t, const fa_event *ev, int from, int to,
                          bool on_defense, bool *used) {
    bool any = false;
    for (int i = from; i < to; i++) {
        const fa_fact *m = &ev->facts[i];
        if (m->kind != FA_FACT_MODIFIER || (m->v[2] != 0) != on_defense)
            continue;
        fray__text_s(t, any ? ", " : " (");
        if (m->v[0] == FA_MOD_NOT_PROFICIENT && m->v[1] == 0 && m->v[3])
            fray__text_f(t, "not proficient: no +%d", (int)m->v[3]);
        else
            fray__text_f(t, "%s %+d", fa_mod_name(m->v[0]), (int)m->v[1]);
        used[i] = true;
        any = true;
    }
    if (any)
        fray__text_s(t, ")");
}

/* The damage dice of a DAMAGE fact, when they can only be its own: the
 * event's only DAMAGE fact by that attacker (an area's one roll hurts
 * several, and several targets roll apart: then only the total is told).
 * " (d8 5 + d8 3 + 3 = 11)"-like: the dice, the rest, the roll. */
static bool put_damage_dice(fray__text *t, const fa_event *ev,
                            const fa_fact *f) {
    if (!ev || f->who < 0)
        return false;
    int n_damage = 0;
    for (int i = 0; i < ev->n_facts; i++)
        if (ev->facts[i].kind == FA_FACT_DAMAGE && ev->facts[i].who == f->who)
            n_damage++;
    if (n_damage != 1)
        return false;
    int sum = 0, n = 0;
    for (int i = 0; i < ev->n_dice; i++) {
        const fa_die *d = &ev->dice[i];
        if (d->who != f->who ||
            (d->purpose != FA_DIE_DAMAGE && d->purpose != FA_DIE_CRIT))
            continue;
        fray__text_f(t, "%sd%d %d", n ? " + " : " (", d->sides, d->value);
        sum += d->value;
        n++;
    }
    if (n == 0)
        return false;
    int rest = (int)f->v[2] - sum;
    if (rest > 0)
        fray__text_f(t, " + %d", rest);
    else if (rest < 0)
        fray__text_f(t, " - %d", -rest);
    fray__text_f(t, " = %d)", (int)f->v[2]);
    return true;
}

static const char *trigger_words(int trig) {
    switch (trig) {
    case FA_TRIG_MOVES_ADJACENT:
        return "moves adjacent";
    case FA_TRIG_ATTACKS:
        return "attacks";
    case FA_TRIG_ENTERS_REACH:
        return "enters reach";
    default:
        return "acts";
    }
}

/* One fact as a sentence (no newline). Attack facts take the modifier
 * facts next to them (same attacker and target): ev and used may be NULL
 * for a fact alone. */
/* (issue 14) Fact f told without the numbers of the combatants with
 * hide[c] (their HP in words, their action points and items unsaid);
 * false when f tells no such number (put_fact tells it). */
static bool put_fact_hidden(fray__text *t, const fa_setup *s,
                            const fa_event *ev, const fa_fact *f,
                            const bool *hide) {
    const char *who = who_name(s, f->who);
    const char *tgt = who_name(s, f->target);
    bool hw = hide && f->who >= 0 && f->who < s->n && hide[f->who];
    bool ht = hide && f->target >= 0 && f->target < s->n && hide[f->target];
    const int32_t *v = f->v;
    switch ((fa_fact_kind)f->kind) {
    case FA_FACT_DAMAGE:
        if (!ht)
            return false;
        fray__text_f(t, "%s takes damage", tgt);
        if (f->who >= 0)
            fray__text_f(t, " from %s", who);
        put_damage_dice(t, ev, f);
        fray__text_f(t, ": %s.", fa_hp_words((int)v[1], max_hp(s, f->target)));
        return true;
    case FA_FACT_DYING:
        if (!ht)
            return false;
        fray__text_f(t, "%s falls dying.", tgt);
        return true;
    case FA_FACT_DEAD:
        if (!ht)
            return false;
        fray__text_f(t, "%s is dead.", tgt);
        return true;
    case FA_FACT_HEAL:
        if (!hw)
            return false;
        fray__text_f(t, "%s regains hit points (now %s).", who,
                     fa_hp_words((int)v[1], max_hp(s, f->who)));
        return true;
    case FA_FACT_CONSUME: {
        if (!hw)
            return false;
        const char *in = item_name(s, f->who, (int)v[0]);
        fray__text_f(t, "%s consumes its %s.", who, in ? in : "item");
        return true;
    }
    case FA_FACT_AP:
        if (!hw)
            return false;
        fray__text_f(t, "%s spends an action point.", who);
        return true;
    case FA_FACT_GM:
        if (!hw || (v[0] != FA_GM_SET_HP && v[0] != FA_GM_ADJUST_HP))
            return false;
        fray__text_f(t, "By the GM's word %s is %s.", who,
                     fa_hp_words((int)v[2], max_hp(s, f->who)));
        return true;
    default:
        return false;
    }
}

static void put_fact(fray__text *t, const fa_setup *s, const fa_event *ev,
                     int i, const fa_fact *f, bool *used) {
    const char *who = who_name(s, f->who);
    const char *tgt = who_name(s, f->target);
    const int32_t *v = f->v;
    switch ((fa_fact_kind)f->kind) {
    case FA_FACT_INITIATIVE:
        fray__text_f(t, "%s rolls initiative: d20 %d ", who, (int)v[0]);
        put_signed(t, (int)v[1]);
        fray__text_f(t, " = %d.", (int)v[2]);
        break;
    case FA_FACT_TIE:
        fray__text_f(t, "%s breaks a tie of initiative with a die of %d.", who,
                     (int)v[0]);
        break;
    case FA_FACT_ORDER:
        fray__text_f(t, "%d. %s", (int)v[0] + 1, who);
        break;
    case FA_FACT_SURPRISE:
        fray__text_f(t, "%s is surprised.", who);
        break;
    case FA_FACT_ROUND:
        if (v[0] == 0)
            fray__text_s(t, "The surprise round begins.");
        else
            fray__text_f(t, "Round %d begins.", (int)v[0]);
        break;
    case FA_FACT_TURN:
        fray__text_f(t, "%s's turn.", who);
        break;
    case FA_FACT_ONGOING:
        fray__text_f(t, "%s takes %d ongoing damage.", who, (int)v[0]);
        break;
    case FA_FACT_SAVE:
        fray__text_f(t, "%s saves against %s: d20 %d vs %d: %s.", who,
                     fa_cond_name((int)v[3]), (int)v[0], (int)v[1],
                     v[2] ? "saved" : "fails");
        break;
    case FA_FACT_COND_ON:
        /* Conditions are states ("is prone"); the effects of actions are
         * had ("has total defense"); ongoing damage is taken. */
        if (v[0] == FA_C_ONGOING)
            fray__text_f(t, "%s takes ongoing damage %d", who, (int)v[2]);
        else if (v[0] > FA_C_DEAD && v[0] != FA_C_RUNNING &&
                 v[0] != FA_C_SQUEEZING && v[0] != FA_C_DELAYING)
            fray__text_f(t, "%s has %s", who, fa_cond_name((int)v[0]));
        else
            fray__text_f(t, "%s is %s", who, fa_cond_name((int)v[0]));
        put_ends(t, s, (int)v[1], f->target, f->who);
        fray__text_s(t, ".");
        break;
    case FA_FACT_COND_OFF:
        if (v[0] > FA_C_DEAD && v[0] != FA_C_RUNNING &&
            v[0] != FA_C_SQUEEZING && v[0] != FA_C_DELAYING)
            fray__text_f(t, "%s no longer has %s.", who,
                         fa_cond_name((int)v[0]));
        else
            fray__text_f(t, "%s is no longer %s.", who,
                         fa_cond_name((int)v[0]));
        break;
    case FA_FACT_ACTION: {
        int slot = (int)v[1];
        const char *title = fa_cmd_title((int)v[0]);
        /* (alloy-space) a teleport power is no attack: its name */
        if (ev && v[0] == FA_CMD_ATTACK && ev->cmd.actor == f->who && f->who >= 0 &&
            fa_is_teleport(s, f->who, ev->cmd.power))
            title = s->sb[s->c[f->who].sb].powers[ev->cmd.power].name;
        fray__text_f(t, "%s: %s (%s).", who, title,
                     slot >= 0 && slot <= FA_ACT_NONE ? slot_names[slot] : "?");
        break;
    }
    case FA_FACT_ATTACK: {
        /* The modifiers told with it: the run of modifier facts of this
         * attacker and target just before and just after; those of the
         * roll after the total, those of the defense after it. */
        int a = i, b = i + 1;
        if (ev && used) {
            while (a > 0 && ev->facts[a - 1].kind == FA_FACT_MODIFIER &&
                   ev->facts[a - 1].who == f->who &&
                   ev->facts[a - 1].target == f->target && !used[a - 1])
                a--;
            while (b < ev->n_facts && ev->facts[b].kind == FA_FACT_MODIFIER &&
                   ev->facts[b].who == f->who &&
                   ev->facts[b].target == f->target)
                b++;
        }
        if (v[0] == 0 && v[2] == 0) {
            fray__text_f(t, "%s attacks %s without a roll", who, tgt);
        } else {
            fray__text_f(t, "%s attacks %s: d20 %d ", who, tgt, (int)v[0]);
            put_signed(t, (int)v[1]);
            fray__text_f(t, " = %d", (int)v[2]);
        }
        if (ev && used)
            put_modifiers(t, ev, a, b, false, used);
        fray__text_f(t, " vs %s %d", fa_defense_name((int)v[3]), (int)v[4]);
        if (ev && used)
            put_modifiers(t, ev, a, b, true, used);
        fray__text_f(t, ": %s.", v[5] == FA_CRIT  ? "critical hit"
                                 : v[5] == FA_HIT ? "hit"
                                                  : "miss");
        break;
    }
    case FA_FACT_MODIFIER:
        fray__text_f(t, "%s's attack on %s: %s %+d%s.", who, tgt,
                     fa_mod_name((int)v[0]), (int)v[1],
                     v[2] ? " to the defense" : "");
        break;
    case FA_FACT_CHECK:
        fray__text_f(t, "%s checks: d20 %d ", who, (int)v[0]);
        put_signed(t, (int)v[1]);
        fray__text_f(t, " = %d vs %d: %s.", (int)v[2], (int)v[3],
                     v[4] ? "success" : "failure");
        break;
    case FA_FACT_SKILL: {
        static const char *const sk[FA_SKILLS] = {"Acrobatics", "Athletics",
                                                  "Notice", "Bluff"};
        const char *name = v[5] >= 0 && v[5] < FA_SKILLS ? sk[v[5]] : "skill";
        fray__text_f(t, "%s makes %s %s check: d20 %d ", who,
                     name[0] == 'A' ? "an" : "a", name, (int)v[0]);
        put_signed(t, (int)v[1]);
        fray__text_f(t, " = %d", (int)v[2]);
        if (v[3] > 0)
            fray__text_f(t, " vs %d: %s.", (int)v[3], v[4] ? "success" : "failure");
        else
            fray__text_s(t, ".");
        break;
    }
    case FA_FACT_DEATH_SAVE:
        if (v[2] == 2)
            fray__text_f(t, "%s makes a death save: d20 %d: a 20, it spends a "
                         "heroic surge and wakes.", who, (int)v[0]);
        else if (v[2] == 1)
            fray__text_f(t, "%s makes a death save: d20 %d vs %d: saved.", who,
                         (int)v[0], (int)v[1]);
        else
            fray__text_f(t, "%s makes a death save: d20 %d vs %d: fails "
                         "(%d failure%s of 3).", who, (int)v[0], (int)v[1],
                         (int)v[3], v[3] == 1 ? "" : "s");
        break;
    case FA_FACT_JOIN:
        fray__text_f(t, "%s joins the battle: initiative d20 %d ", who, (int)v[0]);
        put_signed(t, (int)v[1]);
        fray__text_f(t, " = %d, place %d of the order.", (int)v[2], (int)v[3] + 1);
        break;
    case FA_FACT_CHOSEN:
        fray__text_f(t, "%s is dominated: %s chooses its action.", who, tgt);
        break;
    case FA_FACT_GM: {   /* (alloygm) */
        char b[200];
        fa_gm_fact_text(s, f, b, sizeof b);
        fray__text_s(t, b);
        break;
    }
    case FA_FACT_COVER_STRUCK:
        fray__text_f(t, "%s's attack missed %s only because of %s's cover: "
                     "against its defense of %d it %s", who,
                     who_name(s, (int)v[0]), tgt, (int)v[1],
                     v[2] ? "hits" : "misses");
        if (v[2])
            fray__text_s(t, v[3] ? ", and it takes the hit." : ", but it does "
                                                                "not take the hit.");
        else
            fray__text_s(t, ".");
        break;
    case FA_FACT_DROP: {
        /* v1: 1 + the owner of a taken weapon (alloy-objects) */
        int owner = v[1] > 0 ? (int)v[1] - 1 : f->target;
        const char *wn = weapon_name(s, owner, (int)v[0]);
        if (v[1] > 0 && wn)
            fray__text_f(t, "%s drops %s's %s in its space.", tgt, who_name(s, owner), wn);
        else
            fray__text_f(t, "%s drops %s%s in its space.", tgt, wn ? "its " : "",
                         wn ? wn : "what it held");
        break;
    }
    case FA_FACT_LANDS: {
        const char *wn = weapon_name(s, f->target, (int)v[0]);
        if (v[3])
            fray__text_f(t, "%s's %s is used up.", who, wn ? wn : "weapon");
        else if (f->target == f->who)
            fray__text_f(t, "%s's %s lands at %d,%d.", who, wn ? wn : "weapon",
                         (int)v[1], (int)v[2]);
        else
            fray__text_f(t, "%s lets %s's %s fall at %d,%d.", who, tgt,
                         wn ? wn : "weapon", (int)v[1], (int)v[2]);
        break;
    }
    case FA_FACT_PICK_UP: {
        const char *wn = weapon_name(s, f->target, (int)v[0]);
        if (f->target == f->who)
            fray__text_f(t, "%s picks up its %s at %d,%d.", who, wn ? wn : "weapon",
                         (int)v[1], (int)v[2]);
        else
            fray__text_f(t, "%s picks up %s's %s at %d,%d.", who, tgt,
                         wn ? wn : "weapon", (int)v[1], (int)v[2]);
        break;
    }
    case FA_FACT_TAKE: {
        const char *wn = weapon_name(s, f->target, (int)v[0]);
        if (f->target == f->who)
            fray__text_f(t, "%s takes back its %s.", who, wn ? wn : "weapon");
        else
            fray__text_f(t, "%s takes %s's %s into its hand.", who, tgt,
                         wn ? wn : "weapon");
        break;
    }
    case FA_FACT_CONSUME: {
        const char *in = item_name(s, f->who, (int)v[0]);
        fray__text_f(t, "%s consumes its %s (%d left).", who, in ? in : "item",
                     (int)v[1]);
        break;
    }
    case FA_FACT_DAMAGE:
        fray__text_f(t, "%s takes %d damage", tgt, (int)v[0]);
        if (f->who >= 0)
            fray__text_f(t, " from %s", who);
        if (!put_damage_dice(t, ev, f) && v[2] != v[0])
            fray__text_f(t, " (rolled %d)", (int)v[2]);
        fray__text_f(t, ": %d hit point%s left.", (int)v[1],
                     v[1] == 1 || v[1] == -1 ? "" : "s");
        break;
    case FA_FACT_DYING:
        fray__text_f(t, "%s falls dying at %d hit points.", tgt, (int)v[0]);
        break;
    case FA_FACT_DEAD:
        fray__text_f(t, "%s is dead (%d hit points).", tgt, (int)v[0]);
        break;
    case FA_FACT_HEAL:
        fray__text_f(t, "%s regains %d hit points (now %d).", who, (int)v[0],
                     (int)v[1]);
        break;
    case FA_FACT_MOVE:
        fray__text_f(t, "%s moves from %d,%d to %d,%d (%d square%s).", who,
                     (int)v[0], (int)v[1], (int)v[2], (int)v[3], (int)v[4],
                     v[4] == 1 ? "" : "s");
        break;
    case FA_FACT_PROVOKE:
        fray__text_f(t, "%s provokes an opportunity attack from %s (%s).", who,
                     tgt, v[0] >= 0 && v[0] < FA_CMD_KINDS
                              ? fa_cmd_title((int)v[0])
                              : "moving");
        break;
    case FA_FACT_OPPORTUNITY:
        if (v[0])
            fray__text_f(t, "%s makes an opportunity attack on %s.", who, tgt);
        else
            fray__text_f(t, "%s declines its opportunity attack on %s.", who,
                         tgt);
        break;
    case FA_FACT_PUSH:
        if (v[2] == FA_FORCED_TELEPORT)   /* (alloy-space) */
            fray__text_f(t, "%s teleports %d feet to %d,%d.", who, (int)v[3] * 5,
                         (int)v[0], (int)v[1]);
        else if (v[3] > 0 && v[2] >= FA_FORCED_PUSH && v[2] <= FA_FORCED_SLIDE)
            fray__text_f(t, "%s %s %s %d square%s to %d,%d%s.", who,
                         v[2] == FA_FORCED_PULL ? "pulls"
                         : v[2] == FA_FORCED_SLIDE ? "slides" : "pushes",
                         tgt, (int)v[3], v[3] == 1 ? "" : "s", (int)v[0], (int)v[1],
                         v[4] > v[3] ? " (something stops it there)" : "");
        else
            fray__text_f(t, "%s pushes %s to %d,%d.", who, tgt, (int)v[0],
                         (int)v[1]);
        break;
    case FA_FACT_AMMO:
        fray__text_f(t, "%s spends %d round%s of ammunition (%d left).", who,
                     (int)v[0], v[0] == 1 ? "" : "s", (int)v[1]);
        break;
    case FA_FACT_AP:
        fray__text_f(t, "%s spends an action point (%d left).", who, (int)v[0]);
        break;
    case FA_FACT_DELAY:
        fray__text_f(t, "%s delays its turn.", who);
        break;
    case FA_FACT_READY:
        fray__text_f(t, "%s readies an action: when %s %s.", who,
                     f->target >= 0 ? tgt : "an enemy",
                     trigger_words((int)v[0]));
        break;
    case FA_FACT_READY_FIRES:
        fray__text_f(t, "%s's readied action goes off; it now acts at place "
                     "%d of the order.", who, (int)v[0] + 1);
        break;
    case FA_FACT_LOST:
        fray__text_f(t, "%s loses its %s.", who,
                     v[0] ? "readied action" : "delayed turn");
        break;
    case FA_FACT_NO_EFFECT: {
        static const char *const notes[] = {
            "there is no square to push the target into",
            "the target is already prone",
            "the ally already has four aiders",
            "there is no creature in the area",
            "there is no line of effect (total cover)",
            "the target is out of reach or range",
            "a snared creature cannot be moved by force",
            "the target is not in the square guessed"};
        int k = (int)v[0] - FA_NOTE_NO_ROOM;
        if (v[0] == FA_NOTE_WRONG_SQUARE)   /* L7.16 (skills.c) */
            fray__text_f(t, "%s's attack misses: %s is not in the square guessed, "
                         "%d,%d.", who, tgt, (int)v[1], (int)v[2]);
        else if (k >= 0 && k < (int)(sizeof notes / sizeof notes[0]))
            fray__text_f(t, "%s's action has no effect: %s.", who, notes[k]);
        else
            fray__text_f(t, "%s's action has no effect.", who);
        break;
    }
    case FA_FACT_OVER:
        if (v[0] >= 0)
            fray__text_f(t, "The fight is over. Winner: %s.",
                         side_of(s, (int)v[0]));
        else if (v[0] == -2)
            fray__text_s(t, "The fight is over: every side is out.");
        else
            fray__text_s(t, "The fight is over with no winner (the round "
                         "limit).");
        break;
    default:
        fray__text_f(t, "(a fact of kind %d)", f->kind);
        break;
    }
}

size_t fa_narrate_fact(const fa_setup *s, const fa_fact *f, char *buf,
                       size_t size) {
    fray__text t;
    fray__text_init(&t, buf, size);
    put_fact(&t, s, NULL, 0, f, NULL);
    return t.len;
}

/* Whether the command's origin means something: autofire's burst, an
 * area attack's origin or blast corner, a bull rush's square (a policy's
 * command may leave 0,0 there otherwise). */
static bool uses_origin(const fa_setup *s, const fa_command *c) {
    switch (c->kind) {
    case FA_CMD_SPRAY:
    case FA_CMD_SUPPRESS:
    case FA_CMD_BULL_RUSH:
        return true;
    case FA_CMD_ATTACK: {
        if (c->actor < 0 || c->actor >= s->n)
            return false;
        const fa_statblock *sb = &s->sb[s->c[c->actor].sb];
        if (c->power >= 0 && c->power < sb->n_powers)
            return sb->powers[c->power].area != FA_AREA_NONE;
        int slot = c->weapon;
        if (slot < 0 || slot >= sb->n_weapons)
            return c->n_targets == 0;
        int w = sb->weapons[slot].weapon;
        return w >= 0 && w < s->n_weapons && s->weapons[w].area != FA_AREA_NONE;
    }
    default:
        return false;
    }
}

/* The command in a line: "Tony: Attack on orc 1 with Pistol". */
static void put_command(fray__text *t, const fa_setup *s, const fa_command *c) {
    if (c->kind == FA_CMD_BEGIN) {
        fray__text_s(t, "Initiative");
        return;
    }
    if (c->kind == FA_CMD_NEXT) {
        fray__text_s(t, "Next turn");
        return;
    }
    if (c->kind == FA_CMD_GM) {   /* (alloygm) */
        char b[200];
        fa_gm_describe(s, c, b, sizeof b);
        fray__text_s(t, b);
        return;
    }
    if (c->kind == FA_CMD_ATTACK && c->actor >= 0 && c->actor < s->n &&
        fa_is_teleport(s, c->actor, c->power)) {
        /* (alloy-space) "Hale: Blink to 5,4": a teleport is no attack */
        fray__text_f(t, "%s: %s to %d,%d", who_name(s, c->actor),
                     s->sb[s->c[c->actor].sb].powers[c->power].name, c->origin.x,
                     c->origin.y);
        return;
    }
    const char *title = fa_cmd_title(c->kind);
    if (c->kind == FA_CMD_DRAW && c->option == 0 && c->weapon < 0)
        title = "Holster";            /* (alloy-objects) Draw or Holster, 004:583 */
    else if (c->kind == FA_CMD_DRAW && (c->option == FA_OBJ_PICK_ANY ||
                                        fa_obj_in(c->option, FA_OBJ_PICK_UP, FA_SB_WEAPONS)))
        title = "Manipulate an Object";
    else if (c->kind == FA_CMD_DRAW && fa_obj_in(c->option, FA_OBJ_CONSUME, FA_SB_ITEMS))
        title = "Consume Item";
    fray__text_f(t, "%s: %s", who_name(s, c->actor), title);
    int nt = c->n_targets;
    if (c->kind == FA_CMD_DRAW && c->option != 0) {
        /* the swift actions with objects (alloy-objects, alloy_int.h FA_OBJ_*) */
        nt = 0;   /* targets[0]: a picked-up object's owner, told by its fact */
        const char *in = NULL;
        if (fa_obj_in(c->option, FA_OBJ_DRAW_ITEM, FA_SB_ITEMS))
            in = item_name(s, c->actor, c->option - FA_OBJ_DRAW_ITEM);
        if (fa_obj_in(c->option, FA_OBJ_CONSUME, FA_SB_ITEMS))
            in = item_name(s, c->actor, c->option - FA_OBJ_CONSUME);
        if (in)
            fray__text_f(t, ", the %s", in);
    }
    if (c->kind == FA_CMD_HELD_OBJECT && c->option == 1)
        fray__text_s(t, " (to take the weapon)");
    static const char *const skill_names[FA_SKILLS] = {"Acrobatics", "Athletics",
                                                       "Notice", "Bluff"};
    if (c->kind == FA_CMD_SKILL && c->option >= 0 &&
        (c->option & ~FA_SKILL_AS_MOVE) < FA_SKILLS)
        fray__text_f(t, ": %s", skill_names[c->option & ~FA_SKILL_AS_MOVE]);
    if (c->kind == FA_CMD_AID && nt == 1 && c->option >= FA_AID_CHECK &&
        c->option < FA_AID_CHECK + FA_SKILLS) {
        fray__text_f(t, " for %s (%s check)", who_name(s, c->targets[0]),
                     skill_names[c->option - FA_AID_CHECK]);
        nt = 0;
    }
    if (c->kind == FA_CMD_AID && nt >= 2) {
        fray__text_f(t, " for %s (%s) against %s", who_name(s, c->targets[1]),
                     c->option == FA_AID_DEFENSE ? "defenses" : "attack",
                     who_name(s, c->targets[0]));
        nt = 0;
    }
    for (int i = 0; i < nt; i++)
        fray__text_f(t, "%s%s", i == 0 ? " on " : i + 1 == nt ? " and " : ", ",
                     who_name(s, c->targets[i]));
    if (c->kind == FA_CMD_CHARGE && c->option == FA_CHARGE_BULL_RUSH)
        fray__text_s(t, " (a bull rush)");
    const char *pw = power_name(s, c->actor, c->power);
    const char *wn = weapon_name(s, c->actor, c->weapon);
    if (pw)
        fray__text_f(t, " with %s", pw);
    else if (wn)
        fray__text_f(t, " with the %s", wn);
    if (c->origin.x >= 0 && uses_origin(s, c))
        fray__text_f(t, " at %d,%d", c->origin.x, c->origin.y);
    if (c->kind == FA_CMD_ATTACK && c->has_guess)
        fray__text_f(t, " guessing %d,%d", c->guess.x, c->guess.y);   /* L7.16 */
    if (c->n_path > 0)
        fray__text_f(t, " to %d,%d", c->path[c->n_path - 1].x,
                     c->path[c->n_path - 1].y);
    if (c->kind == FA_CMD_READY) {
        const char *rp = power_name(s, c->actor, c->ready.power);
        fray__text_f(t, ": %s", fa_cmd_title(c->ready.kind));
        if (c->ready.target >= 0)
            fray__text_f(t, " on %s", who_name(s, c->ready.target));
        if (rp)
            fray__text_f(t, " with %s", rp);
        fray__text_f(t, " when %s %s",
                     c->ready.who >= 0 ? who_name(s, c->ready.who)
                                       : "an enemy",
                     trigger_words(c->ready.trigger));
    }
    /* The slot that paid is told by the action fact. */
}

/* A run of conditions gained at once by one combatant (a fall: dying,
 * unconscious, helpless, prone) in one sentence; those that end only by
 * an event and come from the same source. Returns the facts told. */
static int put_conditions_on(fray__text *t, const fa_setup *s,
                             const fa_event *ev, int i, bool *used) {
    const fa_fact *f = &ev->facts[i];
    int j = i;
    while (j < ev->n_facts && ev->facts[j].kind == FA_FACT_COND_ON &&
           ev->facts[j].who == f->who && ev->facts[j].target == f->target &&
           ev->facts[j].v[1] == FA_ENDS_EVENT && ev->facts[j].v[0] != FA_C_ONGOING)
        j++;
    if (j - i < 2)
        return 0;
    fray__text_f(t, "%s is ", who_name(s, f->who));
    for (int k = i; k < j; k++) {
        fray__text_s(t, k == i ? "" : k + 1 == j ? " and " : ", ");
        fray__text_s(t, fa_cond_name((int)ev->facts[k].v[0]));
        used[k] = true;
    }
    fray__text_s(t, ".");
    return j - i;
}

size_t fa_narrate(const fa_setup *s, const fa_event *ev, char *buf,
                  size_t size) {
    return fa_narrate_hidden(s, ev, NULL, buf, size);
}

size_t fa_narrate_hidden(const fa_setup *s, const fa_event *ev,
                         const bool *hide, char *buf, size_t size) {
    fray__text t;
    fray__text_init(&t, buf, size);
    bool used[FA_EVENT_FACTS];
    memset(used, 0, sizeof used);
    if (ev->round == 0 && ev->cmd.kind != FA_CMD_BEGIN)
        fray__text_s(&t, "Surprise round - ");
    else if (ev->cmd.kind != FA_CMD_BEGIN)
        fray__text_f(&t, "Round %d - ", ev->round);
    const fa_command *gc = &ev->cmd;
    if (gc->kind == FA_CMD_GM && hide && gc->actor >= 0 && gc->actor < s->n &&
        hide[gc->actor] &&
        (gc->gm == FA_GM_SET_HP || gc->gm == FA_GM_ADJUST_HP))
        /* the GM's number for a hidden combatant stays the GM's */
        fray__text_f(&t, "GM: %s's hit points changed", who_name(s, gc->actor));
    else
        put_command(&t, s, &ev->cmd);
    /* The action fact of the command itself: its slot in the header. */
    for (int i = 0; i < ev->n_facts; i++) {
        const fa_fact *f = &ev->facts[i];
        if (f->kind == FA_FACT_ACTION && f->who == ev->cmd.actor &&
            f->v[0] == ev->cmd.kind) {
            int slot = (int)f->v[1];
            fray__text_f(&t, " (%s)", slot >= 0 && slot <= FA_ACT_NONE
                                          ? slot_names[slot]
                                          : "?");
            used[i] = true;
            break;
        }
    }
    fray__text_s(&t, ev->dice_given ? " (dice rolled at the table).\n"
                                    : ".\n");
    for (int i = 0; i < ev->n_facts; i++) {
        const fa_fact *f = &ev->facts[i];
        if (used[i])
            continue;
        if (f->kind == FA_FACT_ORDER) {
            /* The whole order in one line. */
            fray__text_s(&t, "  Initiative order: ");
            int j = i;
            for (; j < ev->n_facts && ev->facts[j].kind == FA_FACT_ORDER; j++) {
                if (j > i)
                    fray__text_s(&t, ", ");
                put_fact(&t, s, ev, j, &ev->facts[j], used);
                used[j] = true;
            }
            fray__text_s(&t, ".\n");
            continue;
        }
        if (f->kind == FA_FACT_MODIFIER) {
            /* A modifier just before its attack is told with it. */
            int j = i;
            while (j < ev->n_facts && ev->facts[j].kind == FA_FACT_MODIFIER &&
                   ev->facts[j].who == f->who && ev->facts[j].target == f->target)
                j++;
            if (j < ev->n_facts && ev->facts[j].kind == FA_FACT_ATTACK &&
                ev->facts[j].who == f->who && ev->facts[j].target == f->target)
                continue;
        }
        if (f->kind == FA_FACT_SURPRISE &&
            ((i > 0 && ev->facts[i - 1].kind == FA_FACT_COND_ON &&
              ev->facts[i - 1].v[0] == FA_C_SURPRISED &&
              ev->facts[i - 1].who == f->who) ||
             (i + 1 < ev->n_facts && ev->facts[i + 1].kind == FA_FACT_COND_ON &&
              ev->facts[i + 1].v[0] == FA_C_SURPRISED &&
              ev->facts[i + 1].who == f->who))) {
            /* "is surprised until the end of the round" says it. */
            used[i] = true;
            continue;
        }
        if (f->kind == FA_FACT_COND_ON && i > 0 &&
            ((f->v[0] == FA_C_DYING && ev->facts[i - 1].kind == FA_FACT_DYING) ||
             (f->v[0] == FA_C_DEAD && ev->facts[i - 1].kind == FA_FACT_DEAD)) &&
            ev->facts[i - 1].target == f->who) {
            /* "falls dying" / "is dead" said it. */
            used[i] = true;
            continue;
        }
        fray__text_s(&t, "  ");
        if (f->kind != FA_FACT_COND_ON || put_conditions_on(&t, s, ev, i, used) == 0) {
            if (!put_fact_hidden(&t, s, ev, f, hide))
                put_fact(&t, s, ev, i, f, used);
        }
        used[i] = true;
        fray__text_s(&t, "\n");
    }
    if (ev->facts_untold > 0)
        fray__text_f(&t, "  (and %d more facts not kept)\n", ev->facts_untold);
    return t.len;
}

/* ---- Drawings -------------------------------------------------------------------- */

static bool is_out(const fa_cstate *c) { return (c->flags & FA_F_OUT) != 0; }

static const char *state_word(const fa_cstate *c) {
    if (fa_has(c, FA_C_DEAD))
        return "dead";
    if (fa_has(c, FA_C_DYING))
        return "dying";
    if (is_out(c))
        return "out";
    return NULL;
}

/* The conditions worth telling (not the bookkeeping ones). */
static void put_conditions(fray__text *t, const fa_cstate *c, const char *sep) {
    for (int k = 0; k < FA_COND_KINDS; k++) {
        if (k == FA_C_DEAD || k == FA_C_DYING || !fa_has(c, (fa_cond_kind)k))
            continue;
        fray__text_s(t, sep);
        fray__text_s(t, fa_cond_name(k));
        if (k == FA_C_ONGOING) {
            const fa_cond *o = fa_cond_find(c, FA_C_ONGOING, -1);
            if (o)
                fray__text_f(t, " %d", o->value);
        }
    }
}

static size_t name_width(const fa_setup *s) {
    size_t w = 0;
    for (int i = 0; i < s->n; i++)
        if (strlen(s->c[i].name) > w)
            w = strlen(s->c[i].name);
    return w;
}

static void pad(fray__text *t, size_t have, size_t want) {
    for (; have < want; have++)
        fray__text_s(t, " ");
}

size_t fa_draw_order(const fa_setup *s, const fa_state *st, char *buf,
                     size_t size) {
    fray__text t;
    fray__text_init(&t, buf, size);
    if (!st->started) {
        fray__text_s(&t, "Initiative not rolled yet.\n");
        return t.len;
    }
    if (st->round == 0)
        fray__text_s(&t, "Surprise round\n");
    else
        fray__text_f(&t, "Round %d\n", st->round);
    size_t w = name_width(s);
    for (int k = 0; k < st->n_order; k++) {
        int i = st->order[k];
        if (i < 0 || i >= st->n)
            continue;
        const fa_cstate *c = &st->c[i];
        fray__text_f(&t, "%s %3d  ", i == st->cur ? ">" : " ", c->init);
        fray__text_s(&t, s->c[i].name);
        pad(&t, strlen(s->c[i].name), w);
        if (c->absent) {   /* (alloygm) gm flee */
            fray__text_s(&t, "  has left the fight\n");
            continue;
        }
        fray__text_f(&t, "  %d/%d hp", c->hp, max_hp(s, i));
        const char *sw = state_word(c);
        if (sw)
            fray__text_f(&t, ", %s", sw);
        if (fa_has(c, FA_C_DELAYING))
            fray__text_s(&t, ", delaying");
        if (fa_has(c, FA_C_READY))
            fray__text_f(&t, ", readied (%s when %s %s)",
                         fa_cmd_title(c->ready.kind),
                         c->ready.who >= 0 ? s->c[c->ready.who].name
                                           : "an enemy",
                         trigger_words(c->ready.trigger));
        if ((c->flags & FA_F_ACTED) && i != st->cur)
            fray__text_s(&t, ", has acted");
        fray__text_s(&t, "\n");
    }
    /* Those still to join (004:241, skills.c): not in the order yet. */
    for (int i = st->n; i < s->n && i < FA_MAX_COMBATANTS && !st->over; i++)
        fray__text_f(&t, "   --  %s joins at the start of round %d\n", s->c[i].name,
                     s->c[i].joins);
    if (st->over)
        fray__text_s(&t, "The fight is over.\n");
    return t.len;
}

/* A letter per combatant by its place in the encounter (A..Z, then
 * 0..5): upper case for the first and third sides, lower case for the
 * others; '%' for the dead. */
static char symbol_of(const fa_setup *s, int i) {
    static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";
    char c = letters[i & 31];
    if ((s->c[i].side & 1) && c >= 'A' && c <= 'Z')
        c = (char)(c - 'A' + 'a');
    return c;
}

size_t fa_draw_map(const fa_setup *s, const fa_state *st, char *buf,
                   size_t size) {
    fray__text t;
    fray__text_init(&t, buf, size);
    fray_grid_token tokens[FA_MAX_COMBATANTS + FA_MAX_FLOOR];
    int nt = 0;
    /* Objects on the floor (alloy-objects) first: anyone there is drawn on top. */
    for (int i = 0; i < st->n_floor && i < FA_MAX_FLOOR; i++) {
        tokens[nt].fp = (fray_footprint){st->floor[i].at, 1};
        tokens[nt].symbol = '/';
        nt++;
    }
    /* The dead first, so that anyone standing on them is drawn on top. */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < st->n && i < s->n; i++) {
            const fa_cstate *c = &st->c[i];
            bool dead = fa_has(c, FA_C_DEAD);
            if (dead != (pass == 0) || c->absent)   /* (alloygm) a fled one: no token */
                continue;
            tokens[nt].fp = c->fp;
            tokens[nt].symbol = dead ? '%' : symbol_of(s, i);
            nt++;
        }
    if (s->has_map) {
        char art[(FRAY_GRID_MAX + 8) * (FRAY_GRID_MAX + 3)];
        size_t need = fray_grid_draw(&s->map, tokens, nt, art, sizeof art);
        fray__text_put(&t, art, need < sizeof art ? need : sizeof art - 1);
    } else {
        /* No map: open ground (004 has no edge to it); 64 rows of dots
         * each round would tell nothing the squares below do not. */
        fray__text_s(&t, "No map: open ground.\n");
    }
    size_t w = name_width(s);
    for (int i = 0; i < st->n && i < s->n; i++) {
        const fa_cstate *c = &st->c[i];
        fray__text_f(&t, "  %c  ", symbol_of(s, i));
        fray__text_s(&t, s->c[i].name);
        pad(&t, strlen(s->c[i].name), w);
        if (c->absent) {   /* (alloygm) gm flee */
            fray__text_f(&t, "  %s, has left the fight\n", side_of(s, s->c[i].side));
            continue;
        }
        fray__text_f(&t, "  %s, at %d,%d, %d/%d hp", side_of(s, s->c[i].side),
                     c->fp.at.x, c->fp.at.y, c->hp, max_hp(s, i));
        const char *sw = state_word(c);
        if (sw)
            fray__text_f(&t, ", %s", sw);
        put_conditions(&t, c, ", ");
        fray__text_s(&t, "\n");
    }
    if (st->n > 0)
        fray__text_s(&t, "  (%: dead)\n");
    for (int i = 0; i < st->n_floor && i < FA_MAX_FLOOR; i++) {
        const fa_floor_obj *o = &st->floor[i];
        const char *wn = weapon_name(s, o->owner, o->slot);
        fray__text_f(&t, "%s %s's %s", i == 0 ? "  (/: on the floor:" : ";",
                     who_name(s, o->owner), wn ? wn : "weapon");
        if (o->count > 1)
            fray__text_f(&t, " x%d", o->count);
        fray__text_f(&t, " at %d,%d", o->at.x, o->at.y);
    }
    if (st->n_floor > 0)
        fray__text_s(&t, ")\n");
    /* (alloy-space) the narrow squares, while only a squeeze enters them */
    if (s->opt.narrow == FA_NARROW_SQUEEZE && fray_area_count(&s->narrow) > 0) {
        fray__text_s(&t, "  Narrow (a squeeze to enter):");
        int cur = 0, told = 0;
        fray_pos p;
        while (fray_area_next(&s->narrow, &cur, &p) && told < 24) {
            fray__text_f(&t, " %d,%d", p.x, p.y);
            told++;
        }
        if (fray_area_count(&s->narrow) > told)
            fray__text_f(&t, " and %d more", fray_area_count(&s->narrow) - told);
        fray__text_s(&t, ".\n");
    }
    return t.len;
}

size_t fa_summary(const fa_setup *s, const fa_state *st, char *buf,
                  size_t size) {
    fray__text t;
    fray__text_init(&t, buf, size);
    if (st->over) {
        if (st->winner >= 0)
            fray__text_f(&t, "Winner: %s, after %d round%s.\n",
                         side_of(s, st->winner), st->round,
                         st->round == 1 ? "" : "s");
        else if (st->winner == -2)
            fray__text_f(&t, "Every side is out after %d round%s.\n",
                         st->round, st->round == 1 ? "" : "s");
        else
            fray__text_f(&t, "No winner: the fight stopped after round %d.\n",
                         st->round);
    } else {
        fray__text_f(&t, "The fight goes on (%s %d).\n",
                     st->round == 0 ? "surprise round" : "round",
                     st->round);
    }
    size_t w = name_width(s);
    for (int i = 0; i < st->n && i < s->n; i++) {
        const fa_cstate *c = &st->c[i];
        fray__text_s(&t, "  ");
        fray__text_s(&t, s->c[i].name);
        pad(&t, strlen(s->c[i].name), w);
        fray__text_f(&t, "  %s: ", side_of(s, s->c[i].side));
        if (c->absent) {   /* (alloygm) gm flee */
            fray__text_s(&t, "has left the fight\n");
            continue;
        }
        if (fa_has(c, FA_C_DEAD)) {
            fray__text_s(&t, "dead\n");
            continue;
        }
        fray__text_f(&t, "%s%d/%d hit points",
                     fa_has(c, FA_C_DYING) ? "dying, " : "", c->hp,
                     max_hp(s, i));
        put_conditions(&t, c, ", ");
        fray__text_s(&t, "\n");
    }
    /* Those still to join (004:241, skills.c). */
    for (int i = st->n; i < s->n && i < FA_MAX_COMBATANTS; i++) {
        fray__text_s(&t, "  ");
        fray__text_s(&t, s->c[i].name);
        pad(&t, strlen(s->c[i].name), w);
        fray__text_f(&t, "  %s: joins at the start of round %d\n",
                     side_of(s, s->c[i].side), s->c[i].joins);
    }
    return t.len;
}
