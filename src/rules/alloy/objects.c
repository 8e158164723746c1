/*
 * objects.c - Alloy's objects in hands and on the floor (seed 004: Draw or
 * Holster 004:331, 583-589; Manipulate an Object 004:333, 622-626;
 * Retrieve Object 004:335; Consume Item 004:330, 531-537; Attack Held
 * Object 004:434-445; thrown weapons as ammunition 004:87, 101, 112).
 *
 * The model (fray's reading, docs/rules/alloy.md "Objects"):
 *   - a stat block's weapon slot is one weapon; fa_cstate.away has a bit
 *     for each slot whose weapon is not on its owner (lying on the floor,
 *     in another's hand, thrown);
 *   - a thrown weapon's `ammo:` counts how many more of it are carried
 *     besides the one listed (fa_cstate.spare, -1: unlimited); throwing one
 *     from the hand empties the hand; drawing the next is a Draw; none
 *     left, none can be thrown;
 *   - an object on the floor is an entry of fa_state.floor (its owner, its
 *     slot, the square, how many); a knocked-away weapon lies in its
 *     holder's square (004:441), a thrown weapon in its target's square,
 *     hit or miss; an area thrown weapon (a grenade) is used up;
 *   - a weapon taken from another (004:445, or picked up from the floor) is
 *     held as "in hand: another's weapon" (taken_owner1, taken_slot): it is
 *     used as a melee weapon with its dice, with its proficiency only when
 *     the taker's block is proficient with a weapon of its group (option
 *     taken-proficiency); it is
 *     never stowed: drawing or holstering lets it fall at the taker's feet;
 *   - Retrieve Object is Draw (a stowed object); Manipulate an Object picks
 *     up an object in the actor's square or an adjacent one (option
 *     pick-up-reach), into its hand (what it held is put away, as with
 *     Draw);
 *   - Holster puts the weapon in hand away (the hand is empty: unarmed);
 *   - an item is drawn (Draw, a swift action) into the other hand (a
 *     two-handed weapon is put away; option item-draw) and then consumed
 *     (Consume Item, a swift action): its hit points as healing, no further
 *     than the maximum, or a heroic surge's.
 */
#include "alloy_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- Small helpers ------------------------------------------------------------- */

static const fa_weapon *slot_weapon(const fa_setup *s, int who, int slot) {
    const fa_statblock *b = fa_sb_of(s, who);
    if (slot < 0 || slot >= b->n_weapons)
        return NULL;
    int w = b->weapons[slot].weapon;
    return w >= 0 && w < s->n_weapons ? &s->weapons[w] : NULL;
}

static bool is_thrown(const fa_weapon *w) {
    return w && w->kind == FA_WK_THROWN && w->magazine <= 0;
}

static fray_status bad(fa_run *r, fray_status e) {
    if (r->failed == FRAY_OK)
        r->failed = e;
    return r->failed;
}

static bool away(const fa_cstate *c, int slot) {
    return slot >= 0 && slot < 8 && ((c->away >> slot) & 1u);
}

static void set_away(fa_cstate *c, int slot, bool on) {
    if (on)
        c->away = (uint8_t)(c->away | (1u << slot));
    else
        c->away = (uint8_t)(c->away & ~(1u << slot));
}

static bool within_reach(const fa_setup *s, fray_footprint fp, fray_pos p) {
    /* the actor's squares or one adjacent to them (004:624, fray's reading;
     * option pick-up-reach: own-square, its squares only) */
    int side = fp.side > 0 ? fp.side : 1;
    int d = s->opt.pick_up_reach == FA_PICK_UP_OWN_SQUARE ? 0 : 1;
    return p.x >= fp.at.x - d && p.x <= fp.at.x + side - 1 + d && p.y >= fp.at.y - d &&
           p.y <= fp.at.y + side - 1 + d;
}

/* ---- What is where ------------------------------------------------------------------ */

const fa_weapon *fa_obj_taken(const fa_setup *s, const fa_state *st, int who) {
    const fa_cstate *c = &st->c[who];
    int o = c->taken_owner1 - 1;
    if (c->wield >= 0 || o < 0 || o >= st->n)
        return NULL;
    return slot_weapon(s, o, c->taken_slot);
}

const fa_weapon *fa_obj_taken_melee(const fa_setup *s, const fa_state *st, int who) {
    const fa_weapon *w = fa_obj_taken(s, st, who);
    return w && w->kind == FA_WK_MELEE && w->area == FA_AREA_NONE ? w : NULL;
}

bool fa_obj_taken_proficient(const fa_setup *s, const fa_state *st, int who) {
    const fa_weapon *w = fa_obj_taken(s, st, who);
    if (!w || s->opt.taken_proficiency == FA_TAKEN_PROF_NONE)
        return false;
    const fa_statblock *b = fa_sb_of(s, who);
    for (int k = 0; k < b->n_weapons; k++) {
        const fa_weapon *mine = slot_weapon(s, who, k);
        if (mine == w && b->weapons[k].proficient)
            return true;
        if (mine && b->weapons[k].proficient && w->group[0] &&
            strcmp(mine->group, w->group) == 0)
            return true;
    }
    return false;
}

bool fa_obj_empty_handed(const fa_setup *s, const fa_state *st, int who) {
    const fa_cstate *c = &st->c[who];
    if (c->taken_owner1 != 0)
        return false;
    if (c->wield < 0)
        return true;
    const fa_weapon *w = slot_weapon(s, who, c->wield);
    return w && strcmp(w->id, "unarmed") == 0;
}

int fa_obj_stowed(const fa_setup *s, const fa_state *st, int who, int slot) {
    const fa_cstate *c = &st->c[who];
    const fa_weapon *w = slot_weapon(s, who, slot);
    if (!w)
        return 0;
    int own = c->wield != slot && !away(c, slot) ? 1 : 0;
    if (!is_thrown(w))
        return own;
    if (c->spare[slot] < 0)
        return -1;
    return own + c->spare[slot];
}

int fa_obj_floor_find(const fa_state *st, fray_pos at, int owner, int slot) {
    for (int i = 0; i < st->n_floor; i++) {
        const fa_floor_obj *o = &st->floor[i];
        if (o->at.x == at.x && o->at.y == at.y && (owner < 0 || o->owner == owner) &&
            (slot < 0 || o->slot == slot))
            return i;
    }
    return -1;
}

/* The floor object who would pick up by itself: its own weapon (the one
 * it carries first) in reach, else the first one in reach. */
int fa_obj_floor_in_reach(const fa_setup *s, const fa_state *st, int who,
                          bool own_only) {
    int first = -1;
    for (int i = 0; i < st->n_floor; i++) {
        const fa_floor_obj *o = &st->floor[i];
        if (!within_reach(s, st->c[who].fp, o->at))
            continue;
        if (o->owner == who)
            return i;
        if (first < 0 && !own_only)
            first = i;
    }
    return first;
}

/* ---- Changes ------------------------------------------------------------------------ */

fray_status fa_obj_floor_add(fa_run *r, int owner, int slot, fray_pos at, int count) {
    fa_state *st = r->st;
    int i = fa_obj_floor_find(st, at, owner, slot);
    if (i >= 0) {
        st->floor[i].count = (int16_t)(st->floor[i].count + count);
        return FRAY_OK;
    }
    if (st->n_floor >= FA_MAX_FLOOR)
        return bad(r, FRAY_ERR_RANGE); /* more than 64 piles: fray keeps no more */
    fa_floor_obj *o = &st->floor[st->n_floor++];
    o->owner = (int8_t)owner;
    o->slot = (int8_t)slot;
    o->count = (int16_t)count;
    o->at = at;
    return FRAY_OK;
}

static void floor_take(fa_state *st, int i) {
    if (--st->floor[i].count > 0)
        return;
    memmove(&st->floor[i], &st->floor[i + 1],
            (size_t)(st->n_floor - i - 1) * sizeof st->floor[0]);
    st->n_floor--;
}

/* Own weapon `slot` leaves who (from its hand when it holds it, else from
 * what it carries): the away bit for the block's one, spare for the
 * others. */
static fray_status leave_owner(fa_run *r, int who, int slot) {
    fa_cstate *c = &r->st->c[who];
    const fa_weapon *w = slot_weapon(r->s, who, slot);
    if (c->wield == slot) {
        c->wield = -1;
        if (!away(c, slot))
            set_away(c, slot, true);
        /* else: one of the others, already counted out of spare by its Draw */
        return FRAY_OK;
    }
    if (!away(c, slot)) {
        set_away(c, slot, true);
        return FRAY_OK;
    }
    if (is_thrown(w) && c->spare[slot] != 0) {
        if (c->spare[slot] > 0)
            c->spare[slot]--;
        return FRAY_OK;
    }
    return bad(r, FRAY_ERR_INVALID); /* it has none (fa_check refuses first) */
}

/* Own weapon `slot` comes back to who, into its hand. */
static void back_to_hand(fa_cstate *c, int slot, bool thrown) {
    if (away(c, slot))
        set_away(c, slot, false);
    else if (thrown && c->spare[slot] >= 0)
        c->spare[slot]++;    /* the block's one is stowed: this is one more */
    c->wield = (int8_t)slot;
}

/* Whatever who holds is put away; a taken weapon falls at its feet. */
static fray_status empty_hand(fa_run *r, int who) {
    fa_cstate *c = &r->st->c[who];
    c->item_hand1 = 0;
    if (c->taken_owner1 != 0) {
        int o = c->taken_owner1 - 1, k = c->taken_slot;
        c->taken_owner1 = 0;
        c->taken_slot = 0;
        fa_fact_add(r, FA_FACT_LANDS, who, o, k, c->fp.at.x, c->fp.at.y, 0);
        return fa_obj_floor_add(r, o, k, c->fp.at, 1);
    }
    int h = c->wield;
    if (h >= 0 && is_thrown(slot_weapon(r->s, who, h)) && away(c, h) && c->spare[h] >= 0)
        c->spare[h]++;       /* one of the others goes back with them */
    c->wield = -1;
    return FRAY_OK;
}

fray_status fa_obj_knocked(fa_run *r, int who, int t, bool take) {
    fa_state *st = r->st;
    fa_cstate *tc = &st->c[t];
    int owner, slot;
    if (tc->wield >= 0) {
        owner = t;
        slot = tc->wield;
        fray_status e = leave_owner(r, t, slot);
        if (e != FRAY_OK)
            return e;
    } else if (tc->taken_owner1 != 0) {
        owner = tc->taken_owner1 - 1;
        slot = tc->taken_slot;
        tc->taken_owner1 = 0;
        tc->taken_slot = 0;
    } else {
        return bad(r, FRAY_ERR_INVALID);
    }
    if (take) {          /* 004:445: an unarmed attacker holds it */
        fa_cstate *c = &st->c[who];
        fray_status e = empty_hand(r, who);
        if (e != FRAY_OK)
            return e;
        if (owner == who) {
            back_to_hand(c, slot, is_thrown(slot_weapon(r->s, who, slot)));
        } else {
            c->taken_owner1 = (int8_t)(owner + 1);
            c->taken_slot = (int8_t)slot;
        }
        fa_fact_add(r, FA_FACT_TAKE, who, owner, slot, 0, 0, 0);
        return r->failed;
    }
    fa_fact_add(r, FA_FACT_DROP, who, t, slot, owner == t ? 0 : owner + 1, 0, 0);
    return fa_obj_floor_add(r, owner, slot, tc->fp.at, 1); /* in its space (004:441) */
}

bool fa_obj_throws(const fa_setup *s, const fa_state *st, const fa_attack_line *L,
                   int who) {
    /* `ammo: unlimited`: a new one is always at hand, nothing is used up */
    return L->weapon >= 0 && L->weapon < FA_SB_WEAPONS && (L->ranged || L->area) &&
           is_thrown(slot_weapon(s, who, L->weapon)) && st->c[who].spare[L->weapon] >= 0;
}

fray_status fa_obj_thrown(fa_run *r, int who, int slot, const int8_t *targets,
                          int n, bool area) {
    if (area)
        n = 1;   /* one grenade bursts over all its targets (004:131) */
    for (int i = 0; i < n; i++) {
        fray_status e = leave_owner(r, who, slot);
        if (e != FRAY_OK)
            return e;
        if (area) {
            fa_fact_add(r, FA_FACT_LANDS, who, who, slot, 0, 0, 1);
            continue;   /* used up: not left on the floor */
        }
        fray_pos at = r->st->c[targets[i]].fp.at; /* hit or miss (fray's reading) */
        fa_fact_add(r, FA_FACT_LANDS, who, who, slot, at.x, at.y, 0);
        if ((e = fa_obj_floor_add(r, who, slot, at, 1)) != FRAY_OK)
            return e;
    }
    return r->failed;
}

/* ---- Checks ------------------------------------------------------------------------- */

static const char *wname(const fa_setup *s, int who, int slot) {
    const fa_weapon *w = slot_weapon(s, who, slot);
    return w ? w->name : "weapon";
}

static int item_left(const fa_setup *s, const fa_state *st, int who, int k) {
    const fa_statblock *b = fa_sb_of(s, who);
    if (k < 0 || k >= b->n_items)
        return 0;
    return b->items[k].count - st->c[who].items_used[k];
}

/* How many of the thrown weapon in `slot` who can throw now (-1: no end). */
static int can_throw(const fa_setup *s, const fa_state *st, int who, int slot) {
    int n = fa_obj_stowed(s, st, who, slot);
    if (n < 0)
        return -1;
    return n + (st->c[who].wield == slot ? 1 : 0);
}

static fray_status check_pick_up(const fa_setup *s, const fa_state *st,
                                 const fa_command *cmd, char *why, size_t ws);
static fray_status check_consume(const fa_setup *s, const fa_state *st,
                                 const fa_command *cmd, char *why, size_t ws);

fray_status fa_obj_check(const fa_setup *s, const fa_state *st,
                         const fa_command *cmd, char *why, size_t ws) {
    int who = cmd->actor;
    const fa_cstate *c = &st->c[who];
    const fa_statblock *b = fa_sb_of(s, who);
    const char *me = s->c[who].name;
    switch (cmd->kind) {
    case FA_CMD_ATTACK: {
        /* A thrown weapon used at range or as an area is ammunition of
         * itself (004:87, 101, 112): one per target (one for an area). */
        if (cmd->power >= b->n_powers || cmd->weapon >= b->n_weapons)
            return FRAY_OK;   /* act.c refuses these */
        int slot = cmd->power >= 0 ? b->powers[cmd->power].weapon
                   : cmd->weapon >= 0 ? cmd->weapon : c->wield;
        const fa_weapon *w = slot_weapon(s, who, slot);
        if (!is_thrown(w))
            return FRAY_OK;
        bool area = cmd->power >= 0 ? b->powers[cmd->power].area != FA_AREA_NONE
                                    : w->area != FA_AREA_NONE;
        int need = area ? 1 : cmd->n_targets;
        int have = can_throw(s, st, who, slot);
        if (have >= 0 && have < need)
            return have == 0 ? fa_refuse(why, ws, "%s has no %s left to throw", me, w->name)
                             : fa_refuse(why, ws, "%s has %d of its %s left to throw, not the %d "
                                               "this attack needs (004:87)",
                                      me, have, w->name, need);
        return FRAY_OK;
    }
    case FA_CMD_HELD_OBJECT: {
        if (cmd->n_targets != 1)
            return FRAY_OK;
        int t = cmd->targets[0];
        if (t < 0 || t >= st->n)
            return FRAY_OK;
        if (st->c[t].wield < 0 && st->c[t].taken_owner1 == 0)
            return fa_refuse(why, ws, "%s holds nothing", s->c[t].name);
        if (cmd->option == 1 && !fa_obj_empty_handed(s, st, who))
            return fa_refuse(why, ws, "%s must attack unarmed, its hand empty, to take the weapon "
                                   "(004:445)", me);
        if (cmd->option == 1 && (cmd->weapon >= 0 && cmd->weapon != c->wield))
            return fa_refuse(why, ws, "%s must attack unarmed to take the weapon (004:445)", me);
        return FRAY_OK;
    }
    case FA_CMD_DRAW: {
        if (cmd->option == FA_OBJ_PICK_ANY || fa_obj_in(cmd->option, FA_OBJ_PICK_UP, FA_SB_WEAPONS))
            return check_pick_up(s, st, cmd, why, ws);
        if (fa_obj_in(cmd->option, FA_OBJ_CONSUME, FA_SB_ITEMS))
            return check_consume(s, st, cmd, why, ws);
        if (cmd->weapon < -1 || cmd->weapon >= b->n_weapons)
            return fa_refuse(why, ws, "%s has no such weapon", me);
        if (fa_obj_in(cmd->option, FA_OBJ_DRAW_ITEM, FA_SB_ITEMS)) {   /* an item */
            int k = cmd->option - FA_OBJ_DRAW_ITEM;
            if (k >= b->n_items || cmd->weapon >= 0)
                return fa_refuse(why, ws, "%s carries no such item", me);
            if (c->item_hand1 == k + 1)
                return fa_refuse(why, ws, "%s already holds the %s", me, b->items[k].name);
            if (item_left(s, st, who, k) <= 0)
                return fa_refuse(why, ws, "%s has no %s left", me, b->items[k].name);
            return FRAY_OK;
        }
        if (cmd->option > 0)
            return fa_refuse(why, ws, "%s: no such way to draw (option %d)", me, cmd->option);
        if (cmd->weapon < 0) {
            if (c->wield < 0 && c->taken_owner1 == 0 && c->item_hand1 == 0)
                return fa_refuse(why, ws, "%s holds no weapon", me);
            return FRAY_OK;
        }
        if (cmd->weapon == c->wield && c->taken_owner1 == 0)
            return fa_refuse(why, ws, "%s already holds it", me);
        if (fa_obj_stowed(s, st, who, cmd->weapon) == 0) {
            int k = cmd->weapon;
            for (int i = 0; i < st->n_floor; i++)
                if (st->floor[i].owner == who && st->floor[i].slot == k)
                    return fa_refuse(why, ws, "%s's %s lies on the floor at %d,%d: pick it up",
                                  me, wname(s, who, k), st->floor[i].at.x, st->floor[i].at.y);
            for (int j = 0; j < st->n; j++)
                if (st->c[j].taken_owner1 == who + 1 && st->c[j].taken_slot == k)
                    return fa_refuse(why, ws, "%s holds %s's %s", s->c[j].name, me,
                                  wname(s, who, k));
            return fa_refuse(why, ws, "%s has no %s left", me, wname(s, who, k));
        }
        return FRAY_OK;
    }
    default:
        return FRAY_OK;
    }
}

static fray_status check_pick_up(const fa_setup *s, const fa_state *st,
                                 const fa_command *cmd, char *why, size_t ws) {
    int who = cmd->actor;
    const fa_cstate *c = &st->c[who];
    const char *me = s->c[who].name;
    bool own_square = s->opt.pick_up_reach == FA_PICK_UP_OWN_SQUARE;
    bool named = cmd->option >= FA_OBJ_PICK_UP;
    if (named && cmd->origin.x < 0)
        return fa_refuse(why, ws, "%s must name the square where the weapon lies", me);
    if (cmd->origin.x < 0) {
        if (fa_obj_floor_in_reach(s, st, who, false) < 0)
            return fa_refuse(why, ws, own_square ? "nothing lies in %s's square"
                                              : "nothing lies in %s's square or next to it",
                          me);
        return FRAY_OK;
    }
    if (!within_reach(s, c->fp, cmd->origin))
        return fa_refuse(why, ws, own_square
                                   ? "%s can pick up only what lies in its square, not at %d,%d"
                                   : "%s can pick up only what lies in its square or next to "
                                     "it, not at %d,%d",
                      me, cmd->origin.x, cmd->origin.y);
    int owner = named && cmd->n_targets > 0 ? cmd->targets[0] : -1;
    int slot = named ? cmd->option - FA_OBJ_PICK_UP : -1;
    if (named && (owner < 0 || owner >= st->n || slot >= fa_sb_of(s, owner)->n_weapons))
        return fa_refuse(why, ws, "%s: no such weapon to pick up", me);
    if (fa_obj_floor_find(st, cmd->origin, owner, slot) >= 0)
        return FRAY_OK;
    if (named)
        return fa_refuse(why, ws, "%s's %s does not lie at %d,%d", s->c[owner].name,
                      wname(s, owner, slot), cmd->origin.x, cmd->origin.y);
    return fa_refuse(why, ws, "nothing lies at %d,%d", cmd->origin.x, cmd->origin.y);
}

static fray_status check_consume(const fa_setup *s, const fa_state *st,
                                 const fa_command *cmd, char *why, size_t ws) {
    int who = cmd->actor;
    const fa_cstate *c = &st->c[who];
    const fa_statblock *b = fa_sb_of(s, who);
    const char *me = s->c[who].name;
    int k = cmd->option - FA_OBJ_CONSUME;
    if (k < 0 || k >= b->n_items)
        return fa_refuse(why, ws, "%s carries no such item", me);
    if (c->item_hand1 != k + 1)
        return fa_refuse(why, ws, "%s must hold the %s to consume it: draw it first (004:535)",
                      me, b->items[k].name);
    if (b->items[k].surge && c->surges <= 0)
        return fa_refuse(why, ws, "%s has no heroic surges left for the %s", me,
                      b->items[k].name);
    return FRAY_OK;
}

/* ---- Actions ------------------------------------------------------------------------ */

static fray_status pick_up(fa_run *r, const fa_command *cmd) {
    fa_state *st = r->st;
    int who = cmd->actor;
    int i;
    bool named = cmd->option >= FA_OBJ_PICK_UP && cmd->n_targets > 0;
    if (cmd->origin.x < 0 && !named)
        i = fa_obj_floor_in_reach(r->s, st, who, false);
    else
        i = fa_obj_floor_find(st, cmd->origin, named ? cmd->targets[0] : -1,
                              named ? cmd->option - FA_OBJ_PICK_UP : -1);
    if (i < 0)
        return bad(r, FRAY_ERR_INVALID);
    fa_floor_obj o = st->floor[i];
    floor_take(st, i);
    fray_status e = empty_hand(r, who);
    if (e != FRAY_OK)
        return e;
    fa_cstate *c = &st->c[who];
    if (o.owner == who) {
        back_to_hand(c, o.slot, is_thrown(slot_weapon(r->s, who, o.slot)));
    } else {
        c->taken_owner1 = (int8_t)(o.owner + 1);
        c->taken_slot = o.slot;
    }
    fa_fact_add(r, FA_FACT_PICK_UP, who, o.owner, o.slot, o.at.x, o.at.y, 0);
    return r->failed;
}

static fray_status draw(fa_run *r, const fa_command *cmd) {
    int who = cmd->actor;
    fa_cstate *c = &r->st->c[who];
    if (fa_obj_in(cmd->option, FA_OBJ_DRAW_ITEM, FA_SB_ITEMS)) {
        /* An item goes into the other hand: only a two-handed weapon is
         * put away for it (fray's reading). */
        const fa_weapon *held = c->wield >= 0 ? slot_weapon(r->s, who, c->wield)
                                              : fa_obj_taken(r->s, r->st, who);
        if (held && (held->hands >= 2 || r->s->opt.item_draw == FA_ITEM_PUTS_WEAPON_AWAY)) {
            fray_status e = empty_hand(r, who);
            if (e != FRAY_OK)
                return e;
        }
        c->item_hand1 = (int8_t)(cmd->option - FA_OBJ_DRAW_ITEM + 1);
        return r->failed;
    }
    fray_status e = empty_hand(r, who);
    if (e != FRAY_OK)
        return e;
    if (cmd->weapon < 0)
        return r->failed;   /* Holster: the hand is empty */
    int k = cmd->weapon;
    if (is_thrown(slot_weapon(r->s, who, k)) && away(c, k)) {
        if (c->spare[k] > 0)
            c->spare[k]--;     /* the next one (004:101, 112) */
        else if (c->spare[k] == 0)
            return bad(r, FRAY_ERR_INVALID);
    }
    c->wield = (int8_t)k;
    return r->failed;
}

static fray_status consume(fa_run *r, const fa_command *cmd) {
    int who = cmd->actor;
    fa_cstate *c = &r->st->c[who];
    const fa_statblock *b = fa_sb_of(r->s, who);
    int k = cmd->option - FA_OBJ_CONSUME;
    const fa_item *it = &b->items[k];
    c->item_hand1 = 0;
    c->items_used[k]++;
    fa_fact_add(r, FA_FACT_CONSUME, who, -1, k, it->count - c->items_used[k], 0, 0);
    int amount;
    if (it->surge) {   /* a heroic surge's hit points (as second wind's, 004:677) */
        c->surges--;
        amount = b->surge_value > 0 ? b->surge_value : b->hp / 4;
    } else {
        amount = fa_roll_dice(r, it->heals, FA_DIE_HEAL, who) + it->heal_bonus;
        if (r->failed != FRAY_OK)
            return r->failed;
    }
    int before = c->hp;
    int hp = (before < 0 ? 0 : before) + (amount > 0 ? amount : 0);
    if (hp > b->hp)
        hp = b->hp;
    if (hp < before)
        hp = before;
    fa_hp_mark(r, who, c->hp);
    c->hp = (int16_t)hp;
    fa_fact_add(r, FA_FACT_HEAL, who, -1, hp - before, hp, 0, 0);
    return r->failed;
}

fray_status fa_obj_apply(fa_run *r, const fa_command *cmd) {
    if (cmd->kind != FA_CMD_DRAW)
        return bad(r, FRAY_ERR_INVALID);
    if (cmd->option == FA_OBJ_PICK_ANY || fa_obj_in(cmd->option, FA_OBJ_PICK_UP, FA_SB_WEAPONS))
        return pick_up(r, cmd);
    if (fa_obj_in(cmd->option, FA_OBJ_CONSUME, FA_SB_ITEMS))
        return consume(r, cmd);
    return draw(r, cmd);
}
