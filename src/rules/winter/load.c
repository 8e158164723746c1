/*
 * load.c - Silent Winter's files (docs/file-formats.md "Silent Winter
 * files"): a catalog of weapons and armour, stat blocks, encounters;
 * fray check; the setup's copy and the sweeps' keys (vary).
 *
 * Read with the shared YAML reader (src/encounter/yaml_read.h): every
 * error is file:line:column with what was expected, in rules words.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "winter_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "yaml_read.h"

enum { SL_MAX_FILES = 16 };

typedef struct sl {
    yr r;
    sw_setup *s;
    int n_blocks;
    sw_block blocks[SW_MAX_SB];
    int n_files;
    char *files[SL_MAX_FILES];  /* real paths read (each once) */
} sl;

#define FAIL(L, at, ...) yr_fail(&(L)->r, (at), FRAY_ERR_PARSE, __VA_ARGS__)
#define FAIL_RANGE(L, at, ...) yr_fail(&(L)->r, (at), FRAY_ERR_RANGE, __VA_ARGS__)

void sw_options_default(sw_options *o) {
    memset(o, 0, sizeof *o);
    o->engage_delay = 3;     /* 002:19 (the example's 5: engage-delay: 5) */
    o->attack_delay = 3;
    o->ties = SW_TIES_DEFENDER;
    o->friendly_fire = true;
    o->sniping_at_end = false;
    o->pain_on_any_hit = false;
    o->stop_bleeding = true;
}

static const char *const kind_words[] = {"encounter", "statblocks", "weapons"};

/* "dir/of/file.yaml" + "name" */
static char *join(sl *L, const char *from, const char *name) {
    if (name[0] == '/')
        return yr_strndup(&L->r, name, strlen(name));
    const char *slash = strrchr(from, '/');
    size_t d = slash ? (size_t)(slash - from) + 1 : 0;
    size_t n = strlen(name);
    char *p = yr_alloc(&L->r, d + n + 1);
    if (!p)
        return NULL;
    memcpy(p, from, d);
    memcpy(p + d, name, n + 1);
    return p;
}

static fray_status get_int(sl *L, const yn *map, const char *key,
                           const char *what, long lo, long hi, int def,
                           int *out) {
    const yn *v = yr_get(map, key);
    if (!v) {
        *out = def;
        return FRAY_OK;
    }
    return yr_int(&L->r, v, what, lo, hi, out);
}

/* "2d6", "1d6+2", "3" (a flat number), "2d6-1". */
static fray_status dice_of(sl *L, const yn *v, const char *what, sw_weapon *w) {
    char b[64];
    if (!v || v->type != YN_SCALAR || yr_is_null(v))
        return FAIL(L, v, "expected dice like 2d6 or 1d6+2 for %s, got %s",
                    what, yr_got(v, b));
    const char *p = v->text;
    char *end;
    long n = 0, k = 0;
    if (strchr(p, 'd') || strchr(p, 'D')) {
        n = strtol(p, &end, 10);
        if (end == p)
            n = 1;
        if (*end != 'd' && *end != 'D')
            goto bad;
        p = end + 1;
        long sides = strtol(p, &end, 10);
        if (end == p || sides != 6)
            return FAIL(L, v,
                        "%s: Silent Winter's damage dice are d6 (002:41, 79), "
                        "got '%.20s'", what, v->text);
        p = end;
        if (*p == '+' || *p == '-') {
            k = strtol(p, &end, 10);
            if (end == p + 1)
                goto bad;
            p = end;
        }
    } else {
        k = strtol(p, &end, 10);
        if (end == p)
            goto bad;
        p = end;
    }
    if (*p)
        goto bad;
    if (n < 0 || n > 10 || k < -20 || k > 50)
        return FAIL_RANGE(L, v, "%s: at most 10 dice and a bonus of -20 to 50, "
                                "got '%.20s'", what, v->text);
    w->dice = (uint8_t)n;
    w->bonus = (int8_t)k;
    return FRAY_OK;
bad:
    return FAIL(L, v, "expected dice like 2d6 or 1d6+2 for %s, got '%.20s'",
                what, v->text);
}

static int find_weapon(const sw_setup *s, const char *name) {
    for (int i = 0; i < s->n_weapons; i++)
        if (yr_ieq(s->w[i].name, name))
            return i;
    return -1;
}

static int find_armour(const sw_setup *s, const char *name) {
    for (int i = 0; i < s->n_armour; i++)
        if (yr_ieq(s->a[i].name, name))
            return i;
    return -1;
}

static fray_status read_weapon(sl *L, const yn *it) {
    static const char *const keys[] = {"name", "kind", "damage", "delay", "notes", "area",
                                       "targets"};
    fray_status st = yr_keys(&L->r, it, "a weapon", keys, 7, false);
    if (st != FRAY_OK)
        return st;
    sw_setup *s = L->s;
    const yn *nm = yr_get(it, "name");
    if (!nm)
        return yr_missing(&L->r, it, "name", "a weapon");
    sw_weapon w;
    memset(&w, 0, sizeof w);
    if ((st = yr_text(&L->r, nm, "a weapon's name", w.name, sizeof w.name)) != FRAY_OK)
        return st;
    if (find_weapon(s, w.name) >= 0)
        return FAIL(L, nm, "weapon '%.40s' is given twice", w.name);
    if (s->n_weapons >= SW_MAX_WEAPONS)
        return FAIL_RANGE(L, nm, "more than %d weapons", SW_MAX_WEAPONS);
    static const char *const kinds[] = {"melee", "ranged", "siege"};
    int k = 0;
    const yn *kv = yr_get(it, "kind");
    if (kv && (st = yr_choice(&L->r, kv, "a weapon's kind", kinds, 3, &k)) != FRAY_OK)
        return st;
    w.ranged = k >= 1;
    w.siege = k == 2; /* 002:57: like a ranged attack, -10, many hit */
    const yn *dv = yr_get(it, "damage");
    if (!dv)
        return yr_missing(&L->r, it, "damage", "a weapon");
    if ((st = dice_of(L, dv, "damage", &w)) != FRAY_OK)
        return st;
    int d = 0;
    if ((st = get_int(L, it, "delay", "a weapon's delay (segments)", 1, 30, 0, &d)) != FRAY_OK)
        return st;
    w.delay = (uint8_t)d;
    const yn *av = yr_get(it, "area");
    if (av) { /* 002:53: an area attack, no roll (ruling 29) */
        bool area = false;
        if ((st = yr_bool(&L->r, av, "area", &area)) != FRAY_OK)
            return st;
        if (area && w.siege)
            return FAIL(L, av, "a siege weapon cannot be an area weapon: it rolls "
                               "against each of the cluster (002:57), an area attack "
                               "rolls against nobody (002:53)");
        w.area = area;
    }
    const yn *tv = yr_get(it, "targets"); /* 002:57 (ruling 42) */
    if (tv && !w.siege)
        return FAIL(L, tv, "targets is a siege weapon's (002:57): give it kind: siege");
    int nt = 0;
    if (tv && (st = yr_int(&L->r, tv, "targets (of one Engaged cluster, 002:57)", 1,
                           SW_MAX_C, &nt)) != FRAY_OK)
        return st;
    w.targets = (uint8_t)nt;
    s->w[s->n_weapons++] = w;
    return FRAY_OK;
}

static int find_spell(const sw_setup *s, const char *name) {
    for (int i = 0; i < s->n_spells; i++)
        if (yr_ieq(s->sp[i].name, name))
            return i;
    return -1;
}

/* A spell (002:71-79): name, kind, cost (Magic), maintain, delay, and one
 * effect: damage (ranged), defense (Maintained), heal (docs/rules/
 * silent-winter.md 24). */
static fray_status read_spell(sl *L, const yn *it) {
    static const char *const keys[] = {"name", "kind", "cost", "maintain", "delay",
                                       "damage", "defense", "heal", "stun", "paralyze",
                                       "wound", "notes", "enchant", "bonus-health",
                                       "bonus-pain", "animate"};
    fray_status st = yr_keys(&L->r, it, "a spell", keys, 16, false);
    if (st != FRAY_OK)
        return st;
    sw_setup *s = L->s;
    const yn *nm = yr_get(it, "name");
    if (!nm)
        return yr_missing(&L->r, it, "name", "a spell");
    sw_spell sp;
    memset(&sp, 0, sizeof sp);
    if ((st = yr_text(&L->r, nm, "a spell's name", sp.name, sizeof sp.name)) != FRAY_OK)
        return st;
    if (find_spell(s, sp.name) >= 0)
        return FAIL(L, nm, "spell '%.40s' is given twice", sp.name);
    if (s->n_spells >= SW_MAX_SPELLS)
        return FAIL_RANGE(L, nm, "more than %d spells", SW_MAX_SPELLS);
    static const char *const kinds[] = {"ranged", "personal", "beneficial", "area"};
    const yn *kv = yr_get(it, "kind");
    if (!kv)
        return yr_missing(&L->r, it, "kind", "a spell (ranged, personal, beneficial or area)");
    int k = 0;
    if ((st = yr_choice(&L->r, kv, "a spell's kind", kinds, 4, &k)) != FRAY_OK)
        return st;
    sp.kind = (uint8_t)k;
    int cost = 0, maint = 0, delay = 0, amount = 0;
    if ((st = get_int(L, it, "cost", "a spell's cost (Magic)", 0, 99, 0, &cost)) != FRAY_OK ||
        (st = get_int(L, it, "maintain", "a spell's Maintain (Magic)", 0, 99, 0, &maint)) != FRAY_OK ||
        (st = get_int(L, it, "delay", "a spell's delay (segments)", 1, 30, 0, &delay)) != FRAY_OK)
        return st;
    if (!yr_get(it, "delay"))
        return yr_missing(&L->r, it, "delay", "a spell (002:77: it takes effect when its delay ends)");
    sp.cost = (int16_t)cost;
    sp.maintain = (int16_t)maint;
    sp.delay = (uint8_t)delay;
    const yn *dv = yr_get(it, "damage"), *fv = yr_get(it, "defense"), *hv = yr_get(it, "heal");
    const yn *sv = yr_get(it, "stun"), *pv = yr_get(it, "paralyze"), *wv = yr_get(it, "wound");
    const yn *ev = yr_get(it, "enchant");
    const yn *bh = yr_get(it, "bonus-health"), *bp = yr_get(it, "bonus-pain");
    const yn *an = yr_get(it, "animate");
    if ((dv != NULL) + (fv != NULL) + (hv != NULL) + (sv != NULL) + (pv != NULL) +
            (wv != NULL) + (ev != NULL) + (bh != NULL) + (bp != NULL) + (an != NULL) != 1)
        return FAIL(L, it, "a spell has one effect: damage, defense, heal, stun, paralyze, "
                           "wound, enchant, bonus-health, bonus-pain or animate");
    if (an) {
        /* 002:75: a spell that animates a creature (ruling 36) */
        bool yes = false;
        if ((st = yr_bool(&L->r, an, "animate", &yes)) != FRAY_OK)
            return st;
        if (!yes)
            return FAIL(L, an, "animate: true (a spell that animates a creature, 002:75), "
                               "or another effect");
        sp.effect = SW_SPELL_ANIMATE;
        if (sp.kind != SW_SPELL_BENEFICIAL)
            return FAIL(L, kv, "an animate spell is beneficial (cast on the creature, no roll, "
                               "002:71)");
        if (!maint)
            return FAIL(L, an, "the creature lasts while the spell is Maintained: give it "
                               "maintain (002:75)");
    } else if (bh || bp) {
        /* 002:75: bonus Health or Pain, used up first, while Maintained
         * (ruling 33) */
        if ((st = yr_int(&L->r, bh ? bh : bp, bh ? "bonus-health" : "bonus-pain", 1, 99,
                         &amount)) != FRAY_OK)
            return st;
        sp.amount = (int16_t)amount;
        sp.effect = bh ? SW_SPELL_BONUS_HEALTH : SW_SPELL_BONUS_PAIN;
        if (sp.kind != SW_SPELL_PERSONAL && sp.kind != SW_SPELL_BENEFICIAL)
            return FAIL(L, kv, "a bonus spell is personal or beneficial (no roll, 002:71)");
        if (!maint)
            return FAIL(L, bh ? bh : bp, "bonus points last while the spell is Maintained: "
                                         "give it maintain (002:75)");
    } else if (ev) {
        /* 002:35: an enchant-weapon spell adds Magical damage to the
         * weapon's hits (ruling 31): on a weapon, while Maintained */
        sw_weapon w;
        memset(&w, 0, sizeof w);
        if ((st = dice_of(L, ev, "enchant", &w)) != FRAY_OK)
            return st;
        sp.effect = SW_SPELL_ENCHANT;
        sp.dice = w.dice;
        sp.bonus = w.bonus;
        if (sp.kind != SW_SPELL_PERSONAL && sp.kind != SW_SPELL_BENEFICIAL)
            return FAIL(L, kv, "an enchant spell is personal or beneficial (no roll, 002:71)");
        if (!maint)
            return FAIL(L, ev, "an enchant spell lasts while Maintained: give it maintain (002:73)");
    } else if (sv || pv || wv) {
        /* Stun and Wounds from spells (002:53; ruling 29) */
        if (sp.kind != SW_SPELL_RANGED && sp.kind != SW_SPELL_AREA)
            return FAIL(L, kv, "a spell that Stuns, Paralyzes or Wounds is ranged or area here");
        if (maint)
            return FAIL(L, yr_get(it, "maintain"), "only a defense spell is Maintained here");
        if (wv) {
            bool w = false;
            if ((st = yr_bool(&L->r, wv, "wound", &w)) != FRAY_OK)
                return st;
            if (!w)
                return FAIL(L, wv, "wound: true (a spell that wounds, 002:53), or another effect");
            sp.effect = SW_SPELL_WOUND;
        } else {
            if ((st = yr_int(&L->r, sv ? sv : pv, "segments Stunned or Paralyzed", 1, 30,
                             &amount)) != FRAY_OK)
                return st;
            sp.amount = (int16_t)amount;
            sp.effect = sv ? SW_SPELL_STUN : SW_SPELL_PARALYZE;
        }
    } else if (dv) {
        sw_weapon w;
        memset(&w, 0, sizeof w);
        if ((st = dice_of(L, dv, "damage", &w)) != FRAY_OK)
            return st;
        sp.effect = SW_SPELL_DAMAGE;
        sp.dice = w.dice;
        sp.bonus = w.bonus;
        if (sp.kind != SW_SPELL_RANGED && sp.kind != SW_SPELL_AREA)
            return FAIL(L, dv, "a damage spell is ranged (a Magic Attack roll to hit, 002:71) "
                               "or area (no roll, 002:53) here");
        if (maint)
            return FAIL(L, yr_get(it, "maintain"), "only a defense spell is Maintained here");
    } else {
        const yn *v = fv ? fv : hv;
        if ((st = yr_int(&L->r, v, fv ? "defense" : "heal", 1, 99, &amount)) != FRAY_OK)
            return st;
        sp.amount = (int16_t)amount;
        sp.effect = fv ? SW_SPELL_DEFENSE : SW_SPELL_HEAL;
        if (sp.kind == SW_SPELL_RANGED || sp.kind == SW_SPELL_AREA)
            return FAIL(L, kv, "a %s spell is personal or beneficial (no roll, 002:71)",
                        fv ? "defense" : "heal");
        if (fv && !maint)
            return FAIL(L, fv, "a defense spell lasts while Maintained: give it maintain (002:73)");
        if (hv && maint)
            return FAIL(L, yr_get(it, "maintain"), "only a defense spell is Maintained here");
    }
    s->sp[s->n_spells++] = sp;
    return FRAY_OK;
}

static int find_talent(const sw_setup *s, const char *name) {
    for (int i = 0; i < s->n_talents; i++)
        if (yr_ieq(s->tl[i].name, name))
            return i;
    return -1;
}

/* A talent (002:37, 39, 69; docs/rules/silent-winter.md 27): name, how it
 * is resolved (an attack, or automatic), its Pain, its delay (absent: the
 * attack's), and one effect: stun N, paralyze N, wound, bonus N. */
static fray_status read_talent(sl *L, const yn *it) {
    static const char *const keys[] = {"name", "resolve", "pain", "delay", "stun",
                                       "paralyze", "wound", "bonus", "notes", "engage-delay",
                                       "roll", "engages", "siege", "defense", "area"};
    fray_status st = yr_keys(&L->r, it, "a talent", keys, 15, false);
    if (st != FRAY_OK)
        return st;
    sw_setup *s = L->s;
    const yn *nm = yr_get(it, "name");
    if (!nm)
        return yr_missing(&L->r, it, "name", "a talent");
    sw_talent tl;
    memset(&tl, 0, sizeof tl);
    if ((st = yr_text(&L->r, nm, "a talent's name", tl.name, sizeof tl.name)) != FRAY_OK)
        return st;
    if (find_talent(s, tl.name) >= 0)
        return FAIL(L, nm, "talent '%.40s' is given twice", tl.name);
    if (s->n_talents >= SW_MAX_TALENTS)
        return FAIL_RANGE(L, nm, "more than %d talents", SW_MAX_TALENTS);
    static const char *const how[] = {"attack", "automatic", "passive"};
    const yn *rv = yr_get(it, "resolve");
    int k = 0;
    if (rv && (st = yr_choice(&L->r, rv, "how a talent is resolved", how, 3, &k)) != FRAY_OK)
        return st;
    tl.resolve = (uint8_t)k;
    const yn *edv = yr_get(it, "engage-delay");
    const yn *rlv = yr_get(it, "roll");
    const yn *arv = yr_get(it, "area"); /* 002:53 (ruling 49) */
    if (arv) {
        if (k == SW_TR_PASSIVE)
            return FAIL(L, arv, "area is a declared talent's (resolve: attack or automatic), "
                                "not a passive one's");
        if ((st = yr_bool(&L->r, arv, "area", &tl.area)) != FRAY_OK)
            return st;
        if (tl.area && yr_get(it, "bonus"))
            return FAIL(L, yr_get(it, "bonus"),
                        "an area talent rolls no dice (002:53): no bonus to the attack roll");
    }
    const yn *dfv = yr_get(it, "defense"); /* 002:27 (ruling 48) */
    if (dfv) {
        if (k != SW_TR_PASSIVE)
            return FAIL(L, dfv, "defense is a passive talent's: give it resolve: passive");
        const char *other[] = {"pain", "delay", "stun", "paralyze", "wound", "bonus",
                               "engage-delay", "roll", "engages", "siege"};
        for (int i = 0; i < 10; i++)
            if (yr_get(it, other[i]))
                return FAIL(L, yr_get(it, other[i]),
                            "a passive talent has defense alone: no %s", other[i]);
        int n = 0;
        if ((st = yr_int(&L->r, dfv, "defense (the bonus to Physical Defense, 002:27)", 1, 30,
                         &n)) != FRAY_OK)
            return st;
        tl.effect = SW_TE_DEFENSE;
        tl.amount = (int8_t)n;
        s->tl[s->n_talents++] = tl;
        return FRAY_OK;
    }
    if (rlv) {
        /* ruling 34: a passive talent's bonus to rolls other than the
         * attack (Avoid, Switch, Disengage, chase, Endurance) */
        if (k != SW_TR_PASSIVE)
            return FAIL(L, rlv, "roll is a passive talent's: give it resolve: passive");
        const char *other[] = {"pain", "delay", "stun", "paralyze", "wound", "engage-delay",
                               "engages", "siege"};
        for (int i = 0; i < 8; i++)
            if (yr_get(it, other[i]))
                return FAIL(L, yr_get(it, other[i]),
                            "a talent with roll has a bonus alone: no %s", other[i]);
        const yn *bv = yr_get(it, "bonus");
        if (!bv)
            return yr_missing(&L->r, it, "bonus", "a talent with roll (the bonus to it)");
        int n = 0;
        if ((st = yr_int(&L->r, bv, "bonus (to the roll)", 1, 30, &n)) != FRAY_OK)
            return st;
        static const char *const rolls[] = {"avoid", "switch", "disengage", "chase",
                                            "endurance"};
        if (rlv->type == YN_SEQ) {
            for (const yn *e = yr_items(rlv); e; e = yr_next_item(rlv, e)) {
                int r = 0;
                if ((st = yr_choice(&L->r, e, "the roll a talent adds to", rolls, 5, &r)) !=
                    FRAY_OK)
                    return st;
                tl.rolls |= (uint8_t)(1u << r);
            }
        } else {
            int r = 0;
            if ((st = yr_choice(&L->r, rlv, "the roll a talent adds to", rolls, 5, &r)) !=
                FRAY_OK)
                return st;
            tl.rolls = (uint8_t)(1u << r);
        }
        if (!tl.rolls)
            return FAIL(L, rlv, "roll: name one roll at least (avoid, switch, disengage, "
                                "chase, endurance)");
        tl.effect = SW_TE_ROLL_BONUS;
        tl.amount = (int8_t)n;
        s->tl[s->n_talents++] = tl;
        return FRAY_OK;
    }
    const yn *mev = yr_get(it, "engages"); /* 002:63 (ruling 40) */
    const yn *sgv = yr_get(it, "siege");   /* 002:57 (ruling 41) */
    if ((edv && mev) || (sgv && (edv || mev)))
        return FAIL(L, sgv ? sgv : mev,
                    "a passive talent has one effect: engage-delay, engages or siege");
    if (sgv) {
        if (k != SW_TR_PASSIVE)
            return FAIL(L, sgv, "siege is a passive talent's: give it resolve: passive");
        bool on = false;
        if ((st = yr_bool(&L->r, sgv, "siege", &on)) != FRAY_OK)
            return st;
        if (!on)
            return FAIL(L, sgv, "siege: true (the Siege talent, 002:57), or another effect");
        const char *other[] = {"pain", "delay", "stun", "paralyze", "wound", "bonus"};
        for (int i = 0; i < 6; i++)
            if (yr_get(it, other[i]))
                return FAIL(L, yr_get(it, other[i]),
                            "a passive talent has siege alone: no %s", other[i]);
        tl.effect = SW_TE_SIEGE;
        s->tl[s->n_talents++] = tl;
        return FRAY_OK;
    }
    if (mev && !edv)
        edv = mev;
    if (edv || k == SW_TR_PASSIVE) {
        /* 002:19 "Only Talents can change how long it takes to Engage an
         * enemy in melee" (ruling 32), 002:63 "talents that enable you to
         * engage multiple targets simultaneously" (ruling 40): a passive
         * talent, no Pain, no delay */
        const char *ek = mev ? "engages" : "engage-delay";
        if (!edv)
            return FAIL(L, it, "a passive talent has engage-delay (002:19), engages (002:63), defense (002:27), "
                               "siege, or roll and bonus");
        if (k != SW_TR_PASSIVE)
            return FAIL(L, edv, "%s is a passive talent's: give it resolve: passive", ek);
        const char *other[] = {"pain", "delay", "stun", "paralyze", "wound", "bonus"};
        for (int i = 0; i < 6; i++)
            if (yr_get(it, other[i]))
                return FAIL(L, yr_get(it, other[i]),
                            "a passive talent has %s alone: no %s", ek, other[i]);
        int n = 0;
        if (mev) {
            if ((st = yr_int(&L->r, mev, "engages (opponents at once, 002:63)", 2,
                              SW_MAX_C - 1, &n)) !=
                FRAY_OK)
                return st;
            tl.effect = SW_TE_ENGAGES;
            tl.amount = (int8_t)n;
            s->tl[s->n_talents++] = tl;
            return FRAY_OK;
        }
        if ((st = yr_int(&L->r, edv, "engage-delay (segments)", 1, 30, &n)) != FRAY_OK)
            return st;
        tl.effect = SW_TE_ENGAGE_DELAY;
        tl.amount = (int8_t)n;
        s->tl[s->n_talents++] = tl;
        return FRAY_OK;
    }
    int pain = 0, delay = 0;
    if ((st = get_int(L, it, "pain", "a talent's Pain (002:37)", 0, 9, 1, &pain)) != FRAY_OK ||
        (st = get_int(L, it, "delay", "a talent's delay (segments)", 1, 30, 0, &delay)) != FRAY_OK)
        return st;
    tl.pain = (uint8_t)pain;
    tl.delay = (uint8_t)delay;
    static const char *const eff[] = {"stun", "paralyze", "wound", "bonus"};
    int ne = 0, e = -1;
    for (int i = 0; i < 4; i++)
        if (yr_get(it, eff[i])) {
            ne++;
            e = i;
        }
    if (ne != 1)
        return FAIL(L, it, "a talent has one effect: stun, paralyze, wound or bonus");
    const yn *ev = yr_get(it, eff[e]);
    tl.effect = (uint8_t)e;
    if (e == SW_TE_WOUND) {
        bool w = false;
        if ((st = yr_bool(&L->r, ev, "wound", &w)) != FRAY_OK)
            return st;
        if (!w)
            return FAIL(L, ev, "wound: true (a talent that wounds, 002:39), or another effect");
    } else {
        int n = 0;
        if ((st = yr_int(&L->r, ev, e == SW_TE_BONUS ? "bonus (to the attack roll)"
                                                       : "segments Stunned or Paralyzed",
                         1, 30, &n)) != FRAY_OK)
            return st;
        tl.amount = (int8_t)n;
    }
    if (e == SW_TE_BONUS && tl.resolve == SW_TR_AUTOMATIC)
        return FAIL(L, ev, "a bonus to the attack roll needs resolve: attack");
    s->tl[s->n_talents++] = tl;
    return FRAY_OK;
}

/* An item or a skill with its effects (002:86-90; docs/rules/silent-winter.md
 * 35): name, and at least one of heal N, pain N, stop-bleeding, end-stun. */
static fray_status read_item(sl *L, const yn *it, bool skill) {
    static const char *const keys[] = {"name", "heal", "pain", "stop-bleeding", "end-stun",
                                       "notes"};
    const char *what = skill ? "a skill" : "an item";
    fray_status st = yr_keys(&L->r, it, what, keys, 6, false);
    if (st != FRAY_OK)
        return st;
    sw_setup *s = L->s;
    const yn *nm = yr_get(it, "name");
    if (!nm)
        return yr_missing(&L->r, it, "name", what);
    sw_item e;
    memset(&e, 0, sizeof e);
    e.skill = skill;
    if ((st = yr_text(&L->r, nm, skill ? "a skill's name" : "an item's name", e.name,
                      sizeof e.name)) != FRAY_OK)
        return st;
    if (sw_item_find(s, e.name, strlen(e.name), skill) >= 0)
        return FAIL(L, nm, "%s '%.40s' is given twice", skill ? "skill" : "item", e.name);
    if (s->n_items >= SW_MAX_ITEMS)
        return FAIL_RANGE(L, nm, "more than %d items and skills", SW_MAX_ITEMS);
    int heal = 0, pain = 0;
    if ((st = get_int(L, it, "heal", "heal (Health back)", 1, 999, 0, &heal)) != FRAY_OK ||
        (st = get_int(L, it, "pain", "pain (Pain back)", 1, 99, 0, &pain)) != FRAY_OK)
        return st;
    e.heal = (int16_t)heal;
    e.pain = (int16_t)pain;
    const yn *v;
    if ((v = yr_get(it, "stop-bleeding")) &&
        (st = yr_bool(&L->r, v, "stop-bleeding", &e.stop_bleeding)) != FRAY_OK)
        return st;
    if ((v = yr_get(it, "end-stun")) &&
        (st = yr_bool(&L->r, v, "end-stun", &e.unstun)) != FRAY_OK)
        return st;
    if (!e.heal && !e.pain && !e.stop_bleeding && !e.unstun)
        return FAIL(L, it, "%s here has an effect: heal, pain, stop-bleeding or end-stun "
                           "(without one, '%s' alone leaves the effect to the GM)",
                    what, skill ? "skill" : "item");
    s->it[s->n_items++] = e;
    return FRAY_OK;
}

static fray_status read_armour(sl *L, const yn *it) {
    static const char *const keys[] = {"name", "protects", "notes"};
    fray_status st = yr_keys(&L->r, it, "an armour", keys, 3, false);
    if (st != FRAY_OK)
        return st;
    sw_setup *s = L->s;
    const yn *nm = yr_get(it, "name");
    if (!nm)
        return yr_missing(&L->r, it, "name", "an armour");
    sw_armour a;
    memset(&a, 0, sizeof a);
    if ((st = yr_text(&L->r, nm, "an armour's name", a.name, sizeof a.name)) != FRAY_OK)
        return st;
    if (find_armour(s, a.name) >= 0)
        return FAIL(L, nm, "armour '%.40s' is given twice", a.name);
    if (s->n_armour >= SW_MAX_ARMOUR)
        return FAIL_RANGE(L, nm, "more than %d armours", SW_MAX_ARMOUR);
    static const char *const prot[] = {"none", "physical", "magical", "both"};
    int p = SW_PROT_PHYSICAL;
    const yn *pv = yr_get(it, "protects");
    if (pv && (st = yr_choice(&L->r, pv, "what an armour protects against", prot, 4, &p)) != FRAY_OK)
        return st;
    a.protects = (uint8_t)p;
    s->a[s->n_armour++] = a;
    return FRAY_OK;
}

static fray_status read_file(sl *L, const char *path, const yn *from,
                             int want, int *kind_out);

static fray_status read_includes(sl *L, const yn *list, const char *from,
                                 int want) {
    char b[64];
    for (const yn *it = yr_items(list); it; it = yr_next_item(list, it)) {
        if (it->type != YN_SCALAR || yr_is_null(it))
            return FAIL(L, it, "expected a file's path, got %s", yr_got(it, b));
        char *p = join(L, from, it->text);
        if (!p)
            return yr_nomem(&L->r);
        fray_status st = read_file(L, p, it, want, NULL);
        if (st != FRAY_OK)
            return st;
    }
    return FRAY_OK;
}

static const struct {
    const char *key;
    size_t off;
    long lo, hi, def;
} block_ints[] = {
    {"agility", offsetof(sw_block, agility), -10, 30, 0},
    {"endurance", offsetof(sw_block, endurance), -10, 30, 0},
    {"physical-attack", offsetof(sw_block, physical_attack), -10, 40, 0},
    {"magic-attack", offsetof(sw_block, magic_attack), -10, 40, 0},
    {"physical-defense", offsetof(sw_block, physical_defense), -10, 40, 0},
    {"defense-bonus", offsetof(sw_block, defense_bonus), -10, 40, 0},
    {"magic-defense", offsetof(sw_block, magic_defense), -10, 40, 0},
    {"physical-resistance", offsetof(sw_block, physical_resistance), 0, 40, 0},
    {"magic-resistance", offsetof(sw_block, magic_resistance), 0, 40, 0},
    {"health", offsetof(sw_block, health), 1, 999, -1},
    {"pain", offsetof(sw_block, pain), 1, 99, -1},
    {"medicine", offsetof(sw_block, medicine), -10, 30, 0},
};
enum { N_BLOCK_INTS = sizeof block_ints / sizeof block_ints[0] };

static fray_status read_block(sl *L, const yn *it) {
    static const char *const keys[] = {
        "name", "agility", "endurance", "physical-attack", "magic-attack",
        "physical-defense", "defense-bonus", "magic-defense",
        "physical-resistance", "magic-resistance", "health", "pain",
        "medicine", "size", "capacity", "weapon", "off-hand", "armour",
        "carried", "nearby", "magic", "spell-power", "spells", "talents", "ride",
        "willfulness", "notes", "items", "skills"};
    fray_status st = yr_keys(&L->r, it, "a stat block", keys,
                             (int)(sizeof keys / sizeof keys[0]), false);
    if (st != FRAY_OK)
        return st;
    const yn *nm = yr_get(it, "name");
    if (!nm)
        return yr_missing(&L->r, it, "name", "a stat block");
    sw_block b;
    memset(&b, 0, sizeof b);
    if ((st = yr_text(&L->r, nm, "a stat block's name", b.name, sizeof b.name)) != FRAY_OK)
        return st;
    for (int i = 0; i < L->n_blocks; i++)
        if (yr_ieq(L->blocks[i].name, b.name))
            return FAIL(L, nm, "stat block '%.40s' is given twice", b.name);
    if (L->n_blocks >= SW_MAX_SB)
        return FAIL_RANGE(L, nm, "more than %d stat blocks", SW_MAX_SB);
    for (int k = 0; k < N_BLOCK_INTS; k++) {
        const yn *v = yr_get(it, block_ints[k].key);
        int x = (int)block_ints[k].def;
        if (!v && block_ints[k].def < 0)
            return yr_missing(&L->r, it, block_ints[k].key, "a stat block");
        if (v && (st = yr_int(&L->r, v, block_ints[k].key, block_ints[k].lo,
                              block_ints[k].hi, &x)) != FRAY_OK)
            return st;
        int16_t x16 = (int16_t)x;
        memcpy((char *)&b + block_ints[k].off, &x16, sizeof x16);
    }
    int size = 1, cap = 4;
    if ((st = get_int(L, it, "size", "size (engage slots it takes)", 1, 4, 1, &size)) != FRAY_OK ||
        (st = get_int(L, it, "capacity", "capacity (engage slots on it)", 1, 8, 4, &cap)) != FRAY_OK)
        return st;
    b.size = (int8_t)size;
    b.capacity = (int8_t)cap;
    b.weapon = b.off_hand = b.armour = -1;
    const char *wkeys[2] = {"weapon", "off-hand"};
    for (int h = 0; h < 2; h++) {
        const yn *v = yr_get(it, wkeys[h]);
        if (!v)
            continue;
        char w[SW_NAME];
        if ((st = yr_text(&L->r, v, wkeys[h], w, sizeof w)) != FRAY_OK)
            return st;
        int wi = find_weapon(L->s, w);
        if (wi < 0) {
            const char *names[SW_MAX_WEAPONS];
            for (int i = 0; i < L->s->n_weapons; i++)
                names[i] = L->s->w[i].name;
            return yr_unknown(&L->r, v, "weapon", w, names, L->s->n_weapons,
                              "no weapons are known: name a catalog first");
        }
        if (h == 0)
            b.weapon = (int8_t)wi;
        else
            b.off_hand = (int8_t)wi;
    }
    if (b.weapon < 0)
        return yr_missing(&L->r, it, "weapon", "a stat block");
    /* Switch Weapons (002:85): weapons on its person (2) and nearby (5) */
    const char *lkeys[2] = {"carried", "nearby"};
    for (int h = 0; h < 2; h++) {
        const yn *l = yr_get(it, lkeys[h]);
        if (!l)
            continue;
        if (l->type != YN_SEQ)
            return FAIL(L, l, "%s: expected a list of weapons", lkeys[h]);
        for (const yn *e = yr_items(l); e; e = yr_next_item(l, e)) {
            char w[SW_NAME];
            if ((st = yr_text(&L->r, e, lkeys[h], w, sizeof w)) != FRAY_OK)
                return st;
            int wi = find_weapon(L->s, w);
            if (wi < 0) {
                const char *names[SW_MAX_WEAPONS];
                for (int i = 0; i < L->s->n_weapons; i++)
                    names[i] = L->s->w[i].name;
                return yr_unknown(&L->r, e, "weapon", w, names, L->s->n_weapons,
                                  "no weapons are known: name a catalog first");
            }
            uint32_t bit = 1u << wi;
            if (wi == b.weapon || ((b.carried | b.nearby) & bit))
                return FAIL(L, e, "weapon '%.40s' is listed twice for %.40s "
                            "(in hand, carried or nearby)", w, b.name);
            if (h == 0)
                b.carried |= bit;
            else
                b.nearby |= bit;
        }
    }
    /* Spells (002:71-79): Magic, spell power, the spells it knows */
    int magic = 0, power = 0;
    if ((st = get_int(L, it, "magic", "magic (Magic points)", 0, 999, 0, &magic)) != FRAY_OK ||
        (st = get_int(L, it, "spell-power", "spell-power (d6 added to spell damage, 002:79)",
                      0, 10, 0, &power)) != FRAY_OK)
        return st;
    b.magic = (int16_t)magic;
    b.spell_power = (int16_t)power;
    const yn *sl_ = yr_get(it, "spells");
    if (sl_) {
        if (sl_->type != YN_SEQ)
            return FAIL(L, sl_, "spells: expected a list of spells");
        for (const yn *e = yr_items(sl_); e; e = yr_next_item(sl_, e)) {
            char w[SW_NAME];
            if ((st = yr_text(&L->r, e, "spells", w, sizeof w)) != FRAY_OK)
                return st;
            int si = find_spell(L->s, w);
            if (si < 0) {
                const char *names[SW_MAX_SPELLS];
                for (int i = 0; i < L->s->n_spells; i++)
                    names[i] = L->s->sp[i].name;
                return yr_unknown(&L->r, e, "spell", w, names, L->s->n_spells,
                                  "no spells are known: name a catalog with spells first");
            }
            b.spells |= 1u << si;
        }
    }
    /* Mounted combat (002:61) */
    int ride = 0, will = 0;
    if ((st = get_int(L, it, "ride", "ride (the Ride skill, 002:61)", 0, 99, 0, &ride)) != FRAY_OK ||
        (st = get_int(L, it, "willfulness", "willfulness (a mount's, 002:61)", 0, 99, 0,
                      &will)) != FRAY_OK)
        return st;
    b.ride = (int16_t)ride;
    b.willfulness = (int16_t)will;
    /* Talents (002:39; ruling 27) */
    const yn *tv = yr_get(it, "talents");
    if (tv) {
        if (tv->type != YN_SEQ)
            return FAIL(L, tv, "talents: expected a list of talents");
        for (const yn *e = yr_items(tv); e; e = yr_next_item(tv, e)) {
            char w[SW_NAME];
            if ((st = yr_text(&L->r, e, "talents", w, sizeof w)) != FRAY_OK)
                return st;
            int ti = find_talent(L->s, w);
            if (ti < 0) {
                const char *names[SW_MAX_TALENTS];
                for (int i = 0; i < L->s->n_talents; i++)
                    names[i] = L->s->tl[i].name;
                return yr_unknown(&L->r, e, "talent", w, names, L->s->n_talents,
                                  "no talents are known: name a catalog with talents first");
            }
            b.talents |= 1u << ti;
        }
    }
    /* Items and skills with effects (002:86-90; ruling 35) */
    for (int sk = 0; sk < 2; sk++) {
        const yn *iv = yr_get(it, sk ? "skills" : "items");
        if (!iv)
            continue;
        if (iv->type != YN_SEQ)
            return FAIL(L, iv, "%s: expected a list", sk ? "skills" : "items");
        for (const yn *e = yr_items(iv); e; e = yr_next_item(iv, e)) {
            char w[SW_NAME];
            if ((st = yr_text(&L->r, e, sk ? "skills" : "items", w, sizeof w)) != FRAY_OK)
                return st;
            int ii = sw_item_find(L->s, w, strlen(w), sk == 1);
            if (ii < 0) {
                const char *names[SW_MAX_ITEMS];
                int nn = 0;
                for (int i = 0; i < L->s->n_items; i++)
                    if (L->s->it[i].skill == (sk == 1))
                        names[nn++] = L->s->it[i].name;
                return yr_unknown(&L->r, e, sk ? "skill" : "item", w, names, nn,
                                  sk ? "no skills are known: name a catalog with skills first"
                                     : "no items are known: name a catalog with items first");
            }
            if (sk)
                b.skills |= 1u << ii;
            else
                b.items |= 1u << ii;
        }
    }
    if (b.off_hand >= 0 && (L->s->w[b.off_hand].ranged || L->s->w[b.weapon].ranged))
        return FAIL(L, yr_get(it, "off-hand"),
                    "two weapons (002:41) are melee weapons here: '%s' is ranged",
                    L->s->w[b.off_hand].ranged ? L->s->w[b.off_hand].name
                                               : L->s->w[b.weapon].name);
    const yn *av = yr_get(it, "armour");
    if (av) {
        char a[SW_NAME];
        if ((st = yr_text(&L->r, av, "armour", a, sizeof a)) != FRAY_OK)
            return st;
        int ai = find_armour(L->s, a);
        if (ai < 0) {
            const char *names[SW_MAX_ARMOUR];
            for (int i = 0; i < L->s->n_armour; i++)
                names[i] = L->s->a[i].name;
            return yr_unknown(&L->r, av, "armour", a, names, L->s->n_armour,
                              "no armour is known: name a catalog first");
        }
        b.armour = (int8_t)ai;
    }
    L->blocks[L->n_blocks++] = b;
    return FRAY_OK;
}

static fray_status read_options(sl *L, const yn *m) {
    static const char *const keys[] = {
        "engage-delay", "attack-delay", "ties", "friendly-fire",
        "sniping-resolves", "pain-on-any-hit", "stop-bleeding", "check-die",
        "order", "fallen-release", "undefended-busy", "blown-undefended",
        "dropped-maintain", "siege-spread", "stun-stacking", "talent-miss",
        "stun-interrupts", "stun-maintain", "fall-stun", "mounted-bonus",
        "area-damage", "area-full-cover", "area-attacker", "area-talent",
        "enchant-pain", "engage-talents", "bonus-pain-roll", "talent-rolls", "item-uses",
        "multi-reciprocal", "multi-switch", "mount-delay", "mount-roll",
        "tactics-cluster", "talent-defense"};
    fray_status st = yr_keys(&L->r, m, "options", keys, 35, false);
    if (st != FRAY_OK)
        return st;
    sw_options *o = &L->s->opt;
    int v;
    if ((st = get_int(L, m, "engage-delay", "engage-delay (segments)", 1, 30,
                      o->engage_delay, &v)) != FRAY_OK)
        return st;
    o->engage_delay = (uint8_t)v;
    if ((st = get_int(L, m, "attack-delay", "attack-delay (segments)", 1, 30,
                      o->attack_delay, &v)) != FRAY_OK)
        return st;
    o->attack_delay = (uint8_t)v;
    static const char *const ties[] = {"defender", "actor"};
    static const char *const onoff[] = {"off", "on"};
    static const char *const yesno[] = {"no", "yes"};
    static const char *const snip[] = {"now", "end"};
    static const char *const bleed[] = {"none", "roll"};
    static const char *const die[] = {"d20"};
    const yn *x;
    if ((x = yr_get(m, "ties")) &&
        (st = yr_choice(&L->r, x, "ties", ties, 2, &v)) == FRAY_OK)
        o->ties = (uint8_t)v;
    if (st == FRAY_OK && (x = yr_get(m, "friendly-fire")) &&
        (st = yr_choice(&L->r, x, "friendly-fire", onoff, 2, &v)) == FRAY_OK)
        o->friendly_fire = v == 1;
    if (st == FRAY_OK && (x = yr_get(m, "sniping-resolves")) &&
        (st = yr_choice(&L->r, x, "sniping-resolves", snip, 2, &v)) == FRAY_OK)
        o->sniping_at_end = v == 1;
    if (st == FRAY_OK && (x = yr_get(m, "pain-on-any-hit")) &&
        (st = yr_choice(&L->r, x, "pain-on-any-hit", yesno, 2, &v)) == FRAY_OK)
        o->pain_on_any_hit = v == 1;
    if (st == FRAY_OK && (x = yr_get(m, "stop-bleeding")) &&
        (st = yr_choice(&L->r, x, "stop-bleeding", bleed, 2, &v)) == FRAY_OK)
        o->stop_bleeding = v == 1;
    if (st == FRAY_OK && (x = yr_get(m, "check-die")))
        st = yr_choice(&L->r, x, "check-die (only d20 is built)", die, 1, &v);
    static const char *const order[] = {"agility", "file"};
    static const char *const busy[] = {"melee", "all"};
    static const char *const blown[] = {"all", "melee"};
    if (st == FRAY_OK && (x = yr_get(m, "order")) &&
        (st = yr_choice(&L->r, x, "order", order, 2, &v)) == FRAY_OK)
        o->order_file = v == 1;
    if (st == FRAY_OK && (x = yr_get(m, "fallen-release")) &&
        (st = yr_choice(&L->r, x, "fallen-release", yesno, 2, &v)) == FRAY_OK)
        o->keep_fallen = v == 0;
    if (st == FRAY_OK && (x = yr_get(m, "undefended-busy")) &&
        (st = yr_choice(&L->r, x, "undefended-busy", busy, 2, &v)) == FRAY_OK)
        o->busy_at_range = v == 1;
    if (st == FRAY_OK && (x = yr_get(m, "blown-undefended")) &&
        (st = yr_choice(&L->r, x, "blown-undefended", blown, 2, &v)) == FRAY_OK)
        o->blown_melee_only = v == 1;
    static const char *const dropped[] = {"back", "lost"};
    if (st == FRAY_OK && (x = yr_get(m, "dropped-maintain")) &&
        (st = yr_choice(&L->r, x, "dropped-maintain", dropped, 2, &v)) == FRAY_OK)
        o->dropped_maint_lost = v == 1;
    static const char *const spread[] = {"cluster", "none", "weapon"};
    if (st == FRAY_OK && (x = yr_get(m, "siege-spread")) &&
        (st = yr_choice(&L->r, x, "siege-spread", spread, 3, &v)) == FRAY_OK) {
        o->siege_target_only = v == 1;
        o->siege_spread_weapon = v == 2; /* ruling 42: the weapon's targets */
    }
    /* ruling 27: talents, Stunned and Paralyzed */
    static const char *const stack[] = {"longer", "add"}, *const miss[] = {"spent", "kept"},
                             *const interrupts[] = {"yes", "no"}, *const keep[] = {"keep", "roll"};
    if (st == FRAY_OK && (x = yr_get(m, "stun-stacking")) &&
        (st = yr_choice(&L->r, x, "stun-stacking", stack, 2, &v)) == FRAY_OK)
        o->stun_add = v == 1;
    if (st == FRAY_OK && (x = yr_get(m, "talent-miss")) &&
        (st = yr_choice(&L->r, x, "talent-miss", miss, 2, &v)) == FRAY_OK)
        o->talent_pain_on_hit = v == 1;
    if (st == FRAY_OK && (x = yr_get(m, "stun-interrupts")) &&
        (st = yr_choice(&L->r, x, "stun-interrupts", interrupts, 2, &v)) == FRAY_OK)
        o->stun_keeps_pending = v == 1;
    if (st == FRAY_OK && (x = yr_get(m, "stun-maintain")) &&
        (st = yr_choice(&L->r, x, "stun-maintain", keep, 2, &v)) == FRAY_OK)
        o->stun_maint_roll = v == 1;
    /* ruling 28: mounted combat */
    static const char *const fall[] = {"d6", "none"}, *const mb[] = {"all", "actor"};
    if (st == FRAY_OK && (x = yr_get(m, "fall-stun")) &&
        (st = yr_choice(&L->r, x, "fall-stun", fall, 2, &v)) == FRAY_OK)
        o->fall_no_stun = v == 1;
    if (st == FRAY_OK && (x = yr_get(m, "mounted-bonus")) &&
        (st = yr_choice(&L->r, x, "mounted-bonus", mb, 2, &v)) == FRAY_OK)
        o->mounted_bonus_actor = v == 1;
    /* ruling 29: area spells */
    static const char *const ad[] = {"once", "each"}, *const afc[] = {"spared", "hit"};
    if (st == FRAY_OK && (x = yr_get(m, "area-damage")) &&
        (st = yr_choice(&L->r, x, "area-damage", ad, 2, &v)) == FRAY_OK)
        o->area_damage_each = v == 1;
    if (st == FRAY_OK && (x = yr_get(m, "area-full-cover")) &&
        (st = yr_choice(&L->r, x, "area-full-cover", afc, 2, &v)) == FRAY_OK)
        o->area_hits_full_cover = v == 1;
    static const char *const aat[] = {"spared", "hit"}; /* area attacks (002:53) */
    if (st == FRAY_OK && (x = yr_get(m, "area-attacker")) &&
        (st = yr_choice(&L->r, x, "area-attacker", aat, 2, &v)) == FRAY_OK)
        o->area_hits_attacker = v == 1;
    /* rulings 30-32: a talent with an area weapon, an enchanted hit's
     * Pain, several Engage talents */
    static const char *const atl[] = {"target", "cluster"}, *const ep[] = {"one", "each"},
                             *const et[] = {"shortest", "add"};
    if (st == FRAY_OK && (x = yr_get(m, "area-talent")) &&
        (st = yr_choice(&L->r, x, "area-talent", atl, 2, &v)) == FRAY_OK)
        o->area_talent_cluster = v == 1;
    if (st == FRAY_OK && (x = yr_get(m, "enchant-pain")) &&
        (st = yr_choice(&L->r, x, "enchant-pain", ep, 2, &v)) == FRAY_OK)
        o->enchant_pain_each = v == 1;
    if (st == FRAY_OK && (x = yr_get(m, "engage-talents")) &&
        (st = yr_choice(&L->r, x, "engage-talents", et, 2, &v)) == FRAY_OK)
        o->engage_talents_add = v == 1;
    if (st == FRAY_OK && (x = yr_get(m, "bonus-pain-roll")) && /* ruling 33 */
        (st = yr_choice(&L->r, x, "bonus-pain-roll", yesno, 2, &v)) == FRAY_OK)
        o->bonus_pain_roll = v == 1;
    static const char *const trl[] = {"actor", "all"}; /* ruling 34 */
    if (st == FRAY_OK && (x = yr_get(m, "talent-rolls")) &&
        (st = yr_choice(&L->r, x, "talent-rolls", trl, 2, &v)) == FRAY_OK)
        o->talent_rolls_all = v == 1;
    static const char *const iu[] = {"once", "unlimited"}; /* ruling 35 */
    if (st == FRAY_OK && (x = yr_get(m, "item-uses")) &&
        (st = yr_choice(&L->r, x, "item-uses", iu, 2, &v)) == FRAY_OK)
        o->items_unlimited = v == 1;
    /* ruling 40: talents that engage several (002:63) */
    static const char *const mrc[] = {"free", "room"}, *const msw[] = {"replace", "add"};
    if (st == FRAY_OK && (x = yr_get(m, "multi-reciprocal")) &&
        (st = yr_choice(&L->r, x, "multi-reciprocal", mrc, 2, &v)) == FRAY_OK)
        o->multi_recip_room = v == 1;
    if (st == FRAY_OK && (x = yr_get(m, "multi-switch")) &&
        (st = yr_choice(&L->r, x, "multi-switch", msw, 2, &v)) == FRAY_OK)
        o->multi_switch_add = v == 1;
    /* rulings 43, 44: getting into the saddle (002:65) */
    if (st == FRAY_OK && (st = get_int(L, m, "mount-delay",
                                       "mount-delay (segments to get into the saddle, 002:65)",
                                       1, 30, sw_mount_delay(L->s), &v)) == FRAY_OK)
        o->mount_delay = (uint8_t)v;
    static const char *const mro[] = {"none", "ride"};
    if (st == FRAY_OK && (x = yr_get(m, "mount-roll")) &&
        (st = yr_choice(&L->r, x, "mount-roll", mro, 2, &v)) == FRAY_OK)
        o->mount_roll = v == 1;
    static const char *const tcl[] = {"ignore", "weigh"}; /* ruling 47: the tactics */
    if (st == FRAY_OK && (x = yr_get(m, "tactics-cluster")) &&
        (st = yr_choice(&L->r, x, "tactics-cluster", tcl, 2, &v)) == FRAY_OK)
        o->tactics_cluster_weigh = v == 1;
    static const char *const tdf[] = {"physical", "both"}; /* ruling 48 */
    if (st == FRAY_OK && (x = yr_get(m, "talent-defense")) &&
        (st = yr_choice(&L->r, x, "talent-defense", tdf, 2, &v)) == FRAY_OK)
        o->talent_defense_both = v == 1;
    return st;
}

static fray_status read_scene(sl *L, const yn *m) {
    static const char *const keys[] = {"cover", "sniping", "avoid", "obstacle",
                                       "obstacle-roll", "siege", "obstacles"};
    fray_status st = yr_keys(&L->r, m, "the scene", keys, 7, false);
    if (st != FRAY_OK)
        return st;
    static const char *const cov[] = {"none", "partial", "full"};
    const yn *x;
    int v;
    sw_setup *s = L->s;
    if ((x = yr_get(m, "cover")) &&
        (st = yr_choice(&L->r, x, "the cover the scene offers", cov, 3, &v)) == FRAY_OK)
        s->scene_cover = (uint8_t)v;
    if (st == FRAY_OK && (x = yr_get(m, "sniping")))
        st = yr_bool(&L->r, x, "whether Sniping is possible here", &s->scene_sniping);
    if (st == FRAY_OK && (x = yr_get(m, "avoid")))
        st = yr_bool(&L->r, x, "whether an Engage can be Avoided here", &s->scene_avoid);
    if (st == FRAY_OK && (st = get_int(L, m, "obstacle",
                                       "obstacle (segments to surmount it, 002:25)", 0, 30,
                                       0, &v)) == FRAY_OK)
        s->obstacle = (uint8_t)v;
    if (st == FRAY_OK && (x = yr_get(m, "obstacle-roll")))
        st = yr_bool(&L->r, x, "whether surmounting needs a flat Agility roll", &s->obstacle_roll);
    bool siege = true; /* 002:57: the GM's discretion (ruling 41) */
    if (st == FRAY_OK && (x = yr_get(m, "siege")) &&
        (st = yr_bool(&L->r, x, "whether the GM allows siege weapons here", &siege)) == FRAY_OK)
        s->scene_no_siege = !siege;
    return st;
}

static int find_side(sw_setup *s, const char *name) {
    for (int i = 0; i < s->n_sides; i++)
        if (strcmp(s->side_name[i], name) == 0)
            return i;
    return -1;
}

/* One side of an obstacle: a side's name, a combatant's id, or a list of
 * them (ruling 46), as a bitmask of combatants. */
static fray_status obstacle_side(sl *L, const yn *v, uint16_t *out) {
    sw_setup *s = L->s;
    *out = 0;
    for (const yn *it = yr_items(v); it; it = yr_next_item(v, it)) {
        char w[SW_NAME];
        fray_status st = yr_text(&L->r, it, "a side's name or a combatant's id", w, sizeof w);
        if (st != FRAY_OK)
            return st;
        int side = find_side(s, w), c = sw_find_combatant(s, w);
        if (side < 0 && c < 0)
            return FAIL(L, it, "'%.40s' is neither a side nor a combatant's id", w);
        for (int i = 0; i < s->n; i++)
            if ((side >= 0 && s->c[i].side == side) || i == c)
                *out = (uint16_t)(*out | (1u << i));
    }
    if (!*out)
        return FAIL(L, v, "name a side or a combatant on each side of the obstacle");
    return FRAY_OK;
}

/* The scene's obstacles (002:25; ruling 46): each names who it stands
 * between, with its own time to surmount and whether it needs a roll. */
static fray_status read_obstacles(sl *L, const yn *v) {
    sw_setup *s = L->s;
    if (v->type != YN_SEQ)
        return FAIL(L, v, "expected a list of obstacles (name, between, surmount, roll)");
    static const char *const keys[] = {"name", "between", "surmount", "roll", "notes"};
    for (const yn *it = yr_items(v); it; it = yr_next_item(v, it)) {
        fray_status st = yr_keys(&L->r, it, "an obstacle", keys, 5, false);
        if (st != FRAY_OK)
            return st;
        if (s->n_obstacles >= SW_MAX_OBST)
            return FAIL_RANGE(L, it, "more than %d obstacles", SW_MAX_OBST);
        sw_obstacle o;
        memset(&o, 0, sizeof o);
        const yn *nm = yr_get(it, "name");
        if (!nm)
            return yr_missing(&L->r, it, "name", "an obstacle");
        if ((st = yr_text(&L->r, nm, "an obstacle's name", o.name, sizeof o.name)) != FRAY_OK)
            return st;
        if (sw_find_obstacle(s, o.name, strlen(o.name)) >= 0)
            return FAIL(L, nm, "obstacle '%.40s' is given twice", o.name);
        const yn *bv = yr_get(it, "between");
        if (!bv)
            return yr_missing(&L->r, it, "between", "an obstacle");
        const yn *g[2] = {NULL, NULL};
        int ng = 0;
        if (bv->type == YN_SEQ)
            for (const yn *x = yr_items(bv); x; x = yr_next_item(bv, x))
                if (ng++ < 2)
                    g[ng - 1] = x;
        if (ng != 2)
            return FAIL(L, bv, "between: two sides of the obstacle, [A, B] (each a side, a "
                               "combatant's id or a list of them)");
        if ((st = obstacle_side(L, g[0], &o.a)) != FRAY_OK ||
            (st = obstacle_side(L, g[1], &o.b)) != FRAY_OK)
            return st;
        if (o.a & o.b)
            return FAIL(L, bv, "one combatant is on both sides of the obstacle");
        int t = 0;
        if ((st = get_int(L, it, "surmount", "surmount (segments an attempt takes, 002:25)",
                          1, 30, 0, &t)) != FRAY_OK)
            return st;
        if (!t)
            return yr_missing(&L->r, it, "surmount", "an obstacle");
        o.time = (uint8_t)t;
        const yn *rv = yr_get(it, "roll");
        if (rv && (st = yr_bool(&L->r, rv, "whether surmounting needs a flat Agility roll",
                                &o.roll)) != FRAY_OK)
            return st;
        s->ob[s->n_obstacles++] = o;
    }
    return FRAY_OK;
}

static fray_status read_combatant(sl *L, const yn *it) {
    static const char *const keys[] = {"id", "name", "statblock", "side",
                                       "tactics", "sniping", "cover",
                                       "reciprocal", "rides", "notes", "inanimate",
                                       "remount"};
    fray_status st = yr_keys(&L->r, it, "a combatant", keys, 12, false);
    if (st != FRAY_OK)
        return st;
    sw_setup *s = L->s;
    if (s->n >= SW_MAX_C)
        return FAIL_RANGE(L, it, "more than %d combatants", SW_MAX_C);
    sw_combatant c;
    memset(&c, 0, sizeof c);
    c.reciprocal = true;
    const yn *v = yr_get(it, "statblock");
    if (!v)
        return yr_missing(&L->r, it, "statblock", "a combatant");
    char bn[SW_NAME];
    if ((st = yr_text(&L->r, v, "statblock", bn, sizeof bn)) != FRAY_OK)
        return st;
    int bi = -1;
    for (int i = 0; i < L->n_blocks; i++)
        if (yr_ieq(L->blocks[i].name, bn))
            bi = i;
    if (bi < 0) {
        const char *names[SW_MAX_SB];
        for (int i = 0; i < L->n_blocks; i++)
            names[i] = L->blocks[i].name;
        return yr_unknown(&L->r, v, "stat block", bn, names, L->n_blocks,
                          "no stat blocks are known: name a statblocks file");
    }
    c.b = L->blocks[bi];
    yr_copy(c.name, sizeof c.name, bn);
    if ((v = yr_get(it, "name")) &&
        (st = yr_text(&L->r, v, "a combatant's name", c.name, sizeof c.name)) != FRAY_OK)
        return st;
    const yn *idn = yr_get(it, "id");
    if (!idn)
        return yr_missing(&L->r, it, "id", "a combatant");
    if ((st = yr_text(&L->r, idn, "a combatant's id", c.id, sizeof c.id)) != FRAY_OK)
        return st;
    for (const char *p = c.id; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
            return FAIL(L, idn, "an id is lower-case letters, digits, '-' and '_': got '%.40s'", c.id);
    if (sw_find_combatant(s, c.id) >= 0)
        return FAIL(L, idn, "combatant id '%.40s' is given twice", c.id);
    char side[SW_NAME];
    yr_copy(side, sizeof side, c.name);
    if ((v = yr_get(it, "side")) &&
        (st = yr_text(&L->r, v, "a side's name", side, sizeof side)) != FRAY_OK)
        return st;
    int si = find_side(s, side);
    if (si < 0) {
        if (s->n_sides >= SW_MAX_SIDES)
            return FAIL_RANGE(L, v ? v : it, "more than %d sides", SW_MAX_SIDES);
        si = s->n_sides++;
        yr_copy(s->side_name[si], sizeof s->side_name[si], side);
    }
    c.side = (int8_t)si;
    static const char *const tac[] = {"melee", "sniper"};
    int t = s->w[c.b.weapon].ranged ? SW_TAC_SNIPER : SW_TAC_MELEE;
    if ((v = yr_get(it, "tactics")) &&
        (st = yr_choice(&L->r, v, "tactics", tac, 2, &t)) != FRAY_OK)
        return st;
    c.tactics = (uint8_t)t;
    if ((v = yr_get(it, "sniping"))) {
        if ((st = yr_bool(&L->r, v, "whether it begins Sniping", &c.sniping)) != FRAY_OK)
            return st;
        if (c.sniping && !s->scene_sniping)
            return FAIL(L, v, "the scene allows no Sniping (scene: sniping: false, 002:47)");
    }
    if ((v = yr_get(it, "cover"))) {
        static const char *const cov[] = {"none", "partial", "full"};
        int cv;
        if ((st = yr_choice(&L->r, v, "the cover it begins in", cov, 3, &cv)) != FRAY_OK)
            return st;
        if (cv > s->scene_cover)
            return FAIL(L, v, "the scene offers %s cover at best (scene: cover, 002:49)",
                        s->scene_cover == SW_COVER_NONE ? "no" : cov[s->scene_cover]);
        c.cover = (uint8_t)cv;
    }
    if ((v = yr_get(it, "reciprocal")) &&
        (st = yr_bool(&L->r, v, "whether it takes a Reciprocal Engage", &c.reciprocal)) != FRAY_OK)
        return st;
    if ((v = yr_get(it, "inanimate")) && /* ruling 36: to be animated (002:75) */
        (st = yr_bool(&L->r, v, "whether it begins lifeless, to be animated", &c.inanimate)) !=
            FRAY_OK)
        return st;
    if ((v = yr_get(it, "remount"))) { /* ruling 43: the tactics get back into the saddle */
        if (!yr_get(it, "rides"))
            return FAIL(L, v, "remount is a rider's: give it rides (002:59)");
        if ((st = yr_bool(&L->r, v, "whether its tactics get back into the saddle",
                          &c.remount)) != FRAY_OK)
            return st;
    }
    s->c[s->n++] = c;
    return FRAY_OK;
}

static fray_status read_encounter(sl *L, const yn *root) {
    static const char *const keys[] = {"fray", "rules", "name", "seed",
                                       "catalog", "statblocks", "options",
                                       "scene", "segment-limit", "initiator",
                                       "combatants", "notes"};
    sw_setup *s = L->s;
    fray_status st = yr_keys(&L->r, root, "an encounter", keys, 12, false);
    if (st != FRAY_OK)
        return st;
    const char *here = L->r.cur_file;
    const yn *v;
    if ((v = yr_get(root, "name")) &&
        (st = yr_text(&L->r, v, "the encounter's name", s->name, sizeof s->name)) != FRAY_OK)
        return st;
    if ((v = yr_get(root, "seed"))) {
        long x;
        if (v->type != YN_SCALAR || !yr_node_long(v, &x) || x < 0)
            return FAIL(L, v, "expected a whole number from 0 for the seed");
        s->has_seed = true;
        s->seed = (uint64_t)x;
    }
    if ((v = yr_get(root, "options")) && (st = read_options(L, v)) != FRAY_OK)
        return st;
    if ((v = yr_get(root, "scene")) && (st = read_scene(L, v)) != FRAY_OK)
        return st;
    int lim = 300;
    if ((st = get_int(L, root, "segment-limit", "segment-limit", 1, 100000, 300, &lim)) != FRAY_OK)
        return st;
    s->segment_limit = lim;
    if ((v = yr_get(root, "catalog")) && (st = read_includes(L, v, here, SW_FILE_CATALOG)) != FRAY_OK)
        return st;
    L->r.cur_file = here;
    if ((v = yr_get(root, "statblocks"))) {
        for (const yn *it = yr_items(v); it; it = yr_next_item(v, it)) {
            if (it->type == YN_MAP)
                st = read_block(L, it);
            else {
                char b[64];
                if (it->type != YN_SCALAR)
                    return FAIL(L, it, "expected a file's path or a stat block, got %s",
                                yr_got(it, b));
                char *p = join(L, here, it->text);
                if (!p)
                    return yr_nomem(&L->r);
                st = read_file(L, p, it, SW_FILE_STATBLOCKS, NULL);
                L->r.cur_file = here;
            }
            if (st != FRAY_OK)
                return st;
        }
    }
    const yn *cs = yr_get(root, "combatants");
    if (!cs)
        return yr_missing(&L->r, root, "combatants", "an encounter");
    if (cs->type != YN_SEQ)
        return FAIL(L, cs, "expected a list of combatants");
    for (const yn *it = yr_items(cs); it; it = yr_next_item(cs, it))
        if ((st = read_combatant(L, it)) != FRAY_OK)
            return st;
    /* Mounted combat (002:59-67): `rides: ID`, a mount of its side */
    int ci = 0;
    for (const yn *it = yr_items(cs); it; it = yr_next_item(cs, it), ci++) {
        const yn *rv = yr_get(it, "rides");
        if (!rv)
            continue;
        char w[SW_NAME];
        if ((st = yr_text(&L->r, rv, "the mount it rides (an id)", w, sizeof w)) != FRAY_OK)
            return st;
        int m = sw_find_combatant(s, w);
        if (m < 0)
            return FAIL(L, rv, "no combatant '%.40s' to ride (rides: a mount's id)", w);
        if (m == ci)
            return FAIL(L, rv, "'%.40s' cannot ride itself", w);
        if (s->c[m].side != s->c[ci].side)
            return FAIL(L, rv, "%.40s is on another side: one rides a mount of one's own side", w);
        if (s->c[m].mount)
            return FAIL(L, rv, "%.40s rides a mount itself", s->c[m].name);
        for (int j = 0; j < s->n; j++)
            if (s->c[j].mount == m + 1)
                return FAIL(L, rv, "%.40s is ridden by %.40s already", s->c[m].name, s->c[j].name);
        if (s->c[ci].cover)
            return FAIL(L, yr_get(it, "cover"), "a mounted combatant cannot take cover (002:67)");
        if (s->w[s->c[m].b.weapon].ranged)
            return FAIL(L, rv, "a mount fights with its own melee attacks (002:61): %.40s's "
                               "weapon is ranged", s->c[m].name);
        s->c[ci].mount = (int8_t)(m + 1);
        s->ridden_by[m] = (int8_t)(ci + 1);
        s->any_mount = true;
    }
    for (int j = 0; j < s->n; j++)
        if (s->c[j].mount && s->c[j].mount - 1 != j) {
            for (int k = 0; k < s->n; k++)
                if (s->c[k].mount == j + 1 && s->c[j].mount)
                    return FAIL(L, cs, "%.40s rides and is ridden", s->c[j].name);
        }
    if (s->n_sides < 2)
        return FAIL(L, cs, "a fight needs at least two sides (got %d)", s->n_sides);
    if ((v = yr_get(root, "scene")) && (v = yr_get(v, "obstacles")) &&
        (st = read_obstacles(L, v)) != FRAY_OK)
        return st; /* ruling 46: after the combatants they name */
    s->initiator = 0;
    if ((v = yr_get(root, "initiator"))) {
        char w[SW_NAME];
        if ((st = yr_text(&L->r, v, "the initiator", w, sizeof w)) != FRAY_OK)
            return st;
        int i = sw_find_combatant(s, w);
        if (i < 0)
            return FAIL(L, v, "no combatant '%.40s' to begin the fight (002:13)", w);
        s->initiator = (int8_t)i;
    }
    return FRAY_OK;
}

static fray_status read_file(sl *L, const char *path, const yn *from,
                             int want, int *kind_out) {
    const char *saved = L->r.cur_file;
    yn *root = NULL;
    int kind;
    fray_status st = yr_open_rules_file(&L->r, path, from, L->files, &L->n_files,
                                        SL_MAX_FILES, "silent-winter", "Silent Winter",
                                        kind_words, 3, &root, &kind);
    if (st != FRAY_OK || !root)
        return st;
    const yn *fv = yr_get(root, "fray");
    if (want >= 0 && kind != want)
        return FAIL(L, fv, "expected a %s file here, got fray: %s", kind_words[want], kind_words[kind]);
    if (kind_out)
        *kind_out = kind;
    if (kind == SW_FILE_CATALOG) {
        static const char *const keys[] = {"fray", "rules", "weapons", "armour", "spells",
                                           "talents", "notes", "items", "skills"};
        if ((st = yr_keys(&L->r, root, "a weapons file", keys, 9, false)) != FRAY_OK)
            return st;
        for (int sk = 0; sk < 2; sk++) { /* ruling 35 */
            const yn *il = yr_get(root, sk ? "skills" : "items");
            for (const yn *it = il ? yr_items(il) : NULL; it; it = yr_next_item(il, it))
                if ((st = read_item(L, it, sk == 1)) != FRAY_OK)
                    return st;
        }
        const yn *spl = yr_get(root, "spells");
        for (const yn *it = spl ? yr_items(spl) : NULL; it; it = yr_next_item(spl, it))
            if ((st = read_spell(L, it)) != FRAY_OK)
                return st;
        const yn *tll = yr_get(root, "talents");
        for (const yn *it = tll ? yr_items(tll) : NULL; it; it = yr_next_item(tll, it))
            if ((st = read_talent(L, it)) != FRAY_OK)
                return st;
        const yn *l = yr_get(root, "weapons");
        for (const yn *it = l ? yr_items(l) : NULL; it; it = yr_next_item(l, it))
            if ((st = read_weapon(L, it)) != FRAY_OK)
                return st;
        l = yr_get(root, "armour");
        for (const yn *it = l ? yr_items(l) : NULL; it; it = yr_next_item(l, it))
            if ((st = read_armour(L, it)) != FRAY_OK)
                return st;
    } else if (kind == SW_FILE_STATBLOCKS) {
        static const char *const keys[] = {"fray", "rules", "catalog", "statblocks", "notes"};
        if ((st = yr_keys(&L->r, root, "a stat-block file", keys, 5, false)) != FRAY_OK)
            return st;
        const yn *l = yr_get(root, "catalog");
        if (l && (st = read_includes(L, l, path, SW_FILE_CATALOG)) != FRAY_OK)
            return st;
        L->r.cur_file = path;
        l = yr_get(root, "statblocks");
        if (!l)
            return yr_missing(&L->r, root, "statblocks", "a stat-block file");
        for (const yn *it = yr_items(l); it; it = yr_next_item(l, it))
            if ((st = read_block(L, it)) != FRAY_OK)
                return st;
    } else {
        if ((st = read_encounter(L, root)) != FRAY_OK)
            return st;
    }
    L->r.cur_file = saved;
    return FRAY_OK;
}

static fray_status load_any(const char *path, const fray_allocator *alloc,
                            sw_setup *s, fray_diag *diag, int *blocks) {
    sl *L = fray__alloc(alloc, sizeof *L);
    if (!L)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    memset(L, 0, sizeof *L);
    memset(s, 0, sizeof *s);
    if (alloc)
        s->alloc = *alloc;
    sw_options_default(&s->opt);
    s->scene_cover = SW_COVER_FULL;
    s->scene_sniping = true;
    s->scene_avoid = true;
    L->r.alloc = alloc;
    L->r.suggest_keys = true;
    L->r.top_paths = &path;
    L->r.n_top = 1;
    L->r.cur_file = path;
    L->s = s;
    int kind = -1;
    fray_status st = read_file(L, path, NULL, -1, &kind);
    if (st == FRAY_OK) {
        s->kind = kind;
        s->n_blocks = L->n_blocks;
        if (blocks)
            *blocks = L->n_blocks;
        if (diag)
            memset(diag, 0, sizeof *diag);
    } else {
        yr_publish(&L->r, diag);
    }
    yr_free_all(&L->r);
    fray__free(alloc, L, sizeof *L);
    return st;
}

fray_status sw_load(const char *path, const fray_allocator *alloc,
                    sw_setup **out, fray_diag *diag) {
    *out = NULL;
    if (!path)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no file to load");
    sw_setup *s = fray__alloc(alloc, sizeof *s);
    if (!s)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    fray_status st = load_any(path, alloc, s, diag, NULL);
    if (st == FRAY_OK && s->kind != SW_FILE_ENCOUNTER) {
        if (diag) {
            memset(diag, 0, sizeof *diag);
            diag->file = path;
            diag->line = 1;
            diag->column = 1;
            snprintf(diag->message, sizeof diag->message,
                     "this is a %s file; a fight needs an encounter (fray: encounter)",
                     kind_words[s->kind]);
        }
        st = FRAY_ERR_PARSE;
    }
    if (st != FRAY_OK) {
        fray__free(alloc, s, sizeof *s);
        return st;
    }
    *out = s;
    return FRAY_OK;
}

fray_status sw_check_file(const char *path, fray_diag *diag) {
    if (!path)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no file to check");
    sw_setup *s = malloc(sizeof *s);
    if (!s)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    int blocks = 0;
    fray_status st = load_any(path, NULL, s, diag, &blocks);
    if (st == FRAY_OK && diag) {
        diag->file = path;
        if (s->kind == SW_FILE_CATALOG)
            snprintf(diag->message, sizeof diag->message,
                     "Silent Winter catalog: %d weapon%s, %d armour%s",
                     s->n_weapons, s->n_weapons == 1 ? "" : "s", s->n_armour,
                     s->n_armour == 1 ? "" : "s");
        else if (s->kind == SW_FILE_STATBLOCKS)
            snprintf(diag->message, sizeof diag->message,
                     "Silent Winter stat blocks: %d stat block%s (%d weapons known)",
                     blocks, blocks == 1 ? "" : "s", s->n_weapons);
        else
            snprintf(diag->message, sizeof diag->message,
                     "Silent Winter encounter \"%.60s\": %d combatants on %d sides, "
                     "Engage delay %d",
                     s->name, s->n, s->n_sides, s->opt.engage_delay);
    }
    free(s);
    return st;
}

void sw_setup_free(sw_setup *s) {
    if (!s)
        return;
    fray_allocator a = s->alloc;
    fray__free(&a, s, sizeof *s);
}

fray_status sw_setup_copy(const sw_setup *s, const fray_allocator *alloc,
                          sw_setup **out) {
    if (!s || !out)
        return FRAY_ERR_INVALID;
    sw_setup *c = fray__alloc(alloc, sizeof *c);
    if (!c)
        return FRAY_ERR_NOMEM;
    memcpy(c, s, sizeof *c);
    memset(&c->alloc, 0, sizeof c->alloc);
    if (alloc)
        c->alloc = *alloc;
    *out = c;
    return FRAY_OK;
}

int sw_find_combatant(const sw_setup *s, const char *word) {
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->c[i].id, word) == 0)
            return i;
    for (int i = 0; i < s->n; i++)
        if (yr_ieq(s->c[i].name, word))
            return i;
    return -1;
}

/* ---- Sweeps: "engage-delay", "ID.health", ... ----------------------------- */

static const char *const vary_opts[] = {"engage-delay", "attack-delay"};

static fray_status vary_key(const sw_setup *s, const char *key, int *who,
                            int *field, fray_diag *diag) {
    *who = -1;
    *field = -1;
    for (int k = 0; k < 2; k++)
        if (strcmp(key, vary_opts[k]) == 0) {
            *field = k;
            return FRAY_OK;
        }
    const char *dot = strchr(key, '.');
    if (!dot)
        return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                              "no key '%.40s': engage-delay, attack-delay or "
                              "ID.attribute (agility, health, pain, ...)", key);
    char id[SW_NAME];
    size_t n = (size_t)(dot - key);
    if (n >= sizeof id)
        n = sizeof id - 1;
    memcpy(id, key, n);
    id[n] = '\0';
    int i = sw_find_combatant(s, id);
    if (i < 0)
        return fray__diag_set(diag, FRAY_ERR_PARSE, 0, "no combatant '%.40s'", id);
    for (int k = 0; k < N_BLOCK_INTS; k++)
        if (strcmp(dot + 1, block_ints[k].key) == 0) {
            *who = i;
            *field = k;
            return FRAY_OK;
        }
    return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                          "no attribute '%.40s' (agility, endurance, "
                          "physical-attack, physical-defense, defense-bonus, "
                          "physical-resistance, health, pain, ...)", dot + 1);
}

fray_status sw_vary(sw_setup *s, const char *key, const char *value,
                    fray_diag *diag) {
    int who, field;
    fray_status st = vary_key(s, key, &who, &field, diag);
    if (st != FRAY_OK)
        return st;
    long v;
    if (!yr_parse_long(value, &v))
        return fray__diag_set(diag, FRAY_ERR_PARSE, 0,
                              "%s: expected a whole number, got '%.40s'", key, value);
    if (who < 0) {
        if (v < 1 || v > 30)
            return fray__diag_set(diag, FRAY_ERR_RANGE, 0,
                                  "%s must be between 1 and 30, got %ld", key, v);
        if (field == 0)
            s->opt.engage_delay = (uint8_t)v;
        else
            s->opt.attack_delay = (uint8_t)v;
        return FRAY_OK;
    }
    if (v < block_ints[field].lo || v > block_ints[field].hi)
        return fray__diag_set(diag, FRAY_ERR_RANGE, 0,
                              "%s must be between %ld and %ld, got %ld", key,
                              block_ints[field].lo, block_ints[field].hi, v);
    int16_t x = (int16_t)v;
    memcpy((char *)&s->c[who].b + block_ints[field].off, &x, sizeof x);
    return FRAY_OK;
}

fray_status sw_vary_scope(const sw_setup *s, const char *key, char *buf,
                          size_t size, fray_diag *diag) {
    int who, field;
    fray_status st = vary_key(s, key, &who, &field, diag);
    if (st != FRAY_OK)
        return st;
    if (who < 0)
        snprintf(buf, size, "the whole encounter");
    else
        snprintf(buf, size, "%s", s->c[who].name);
    return FRAY_OK;
}
