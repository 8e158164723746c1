/*
 * test_view.c - a fight as data (include/fray/view.h; docs/architecture.md
 * "A fight as data"): the view of a 99 Towers fight and of an Alloy fight
 * after known events (cards and dice given by hand), the players' filter
 * (no hidden combatant, no other Hand of Fate), the JSON read back with
 * jansson field by field, a fight that is over, and memory that runs out.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fail_alloc.h"
#include "fray/fray.h"

/* ---- Helpers ----------------------------------------------------------------- */

static fray_setup *load(const char *rel) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, rel);
    fray_setup *s = NULL;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_setup_load(path, NULL, &s, &d), FRAY_OK, "%s: %s", path,
                 d.message);
    return s;
}

/* A fight of s begun with the cards (99 Towers) or dice (Alloy) given. */
static fray_fight *begin(const fray_setup *s, const char *cards,
                         const int *dice, size_t n_dice) {
    fray_card c[64];
    size_t n = 0;
    if (cards)
        cr_assert_eq(fray_card_parse_list(cards, c, 64, &n, NULL), FRAY_OK);
    fray_diag d;
    memset(&d, 0, sizeof d);
    fray_given g = {c, n, dice, n_dice, &d};
    fray_fight_options o = {true, true, 0};
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(s, 1, &o, (cards || dice) ? &g : NULL, NULL, &f),
                 FRAY_OK, "%s", d.message);
    return f;
}

static void command(fray_fight *f, const char *text, const char *cards,
                    const int *dice, size_t n_dice) {
    fray_card c[64];
    size_t n = 0;
    if (cards)
        cr_assert_eq(fray_card_parse_list(cards, c, 64, &n, NULL), FRAY_OK);
    fray_given g = {c, n, dice, n_dice, NULL};
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_fight_command(f, text, &g, &d), FRAY_OK, "%s: %s", text,
                 d.message);
}

static fray_fight_view *view_of(const fray_fight *f) {
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    cr_assert_not_null(v);
    return v;
}

static char *json_of(const fray_fight_view *v, const fray_view_scope *sc) {
    size_t n = fray_fight_view_json(v, sc, NULL, 0);
    char *buf = malloc(n + 1);
    cr_assert_not_null(buf);
    cr_assert_eq(fray_fight_view_json(v, sc, buf, n + 1), n);
    cr_assert_eq(strlen(buf), n);
    return buf;
}

static const fray_view_combatant *by_id(const fray_fight_view *v,
                                        const char *id) {
    for (int k = 0; k < v->n_combatants; k++)
        if (strcmp(v->combatants[k].id, id) == 0)
            return &v->combatants[k];
    return NULL;
}

static const fray_view_action *action(const fray_view_combatant *c,
                                      const char *word) {
    for (int k = 0; k < c->n_actions; k++)
        if (strcmp(c->actions[k].word, word) == 0)
            return &c->actions[k];
    return NULL;
}

/* The duel on the bridge after Sir Aldric's known hit (cards by hand):
 * initiative AD KS for him (Calculated Initiative 16: phase 4), 7H for
 * the Black Knight (8: phase 12), the GM deck's Hand of Fate AC 3H 9H;
 * then his attack flips K Q 2 3 (keeps the King: 13 + 1 = 14) against the
 * Black Knight's 2 3 (keeps the 2: 2 - 1 = 1): a hit of damage 6, of
 * which 1 STUN gets through his armor (000 "STUN Damage"). */
static fray_fight *duel_after_hit(fray_setup **out_setup) {
    fray_setup *s = load("examples/towers/duel.yaml");
    fray_fight *f = begin(s, "3H AC 9H AD KS 7H", NULL, 0);
    command(f, "next", NULL, NULL, 0);
    command(f, "aldric attack black-knight", "KS QS 2C 3C 2D 3D", NULL, 0);
    *out_setup = s;
    return f;
}

/* ---- 99 Towers --------------------------------------------------------------- */

/* 000 "STUN Damage", "Combat Clock", "Hand of Fate": STUN and LETHAL after
 * the known hit, each one's place on the clock, the GM deck's Hand of Fate,
 * the map and who stands where. */
Test(view, towers_after_a_known_hit) {
    fray_setup *s;
    fray_fight *f = duel_after_hit(&s);
    fray_fight_view *v = view_of(f);
    cr_assert_str_eq(v->rules, "towers");
    cr_assert_str_eq(v->time_unit, "phase");
    cr_assert_eq(v->now, 4);
    cr_assert(!v->over);
    cr_assert_eq(v->winner, -1);
    cr_assert_eq(v->n_sides, 2);
    cr_assert_str_eq(v->sides[1], "The Black Knight");
    cr_assert_eq(v->n_combatants, 2);
    const fray_view_combatant *a = by_id(v, "aldric"), *k = by_id(v, "black-knight");
    cr_assert(a && k);
    /* The Black Knight: 24 - 1 STUN, LETHAL untouched. */
    cr_assert_eq(k->n_tracks, 2);
    cr_assert_str_eq(k->tracks[0].name, "STUN");
    cr_assert_eq(k->tracks[0].value, 23);
    cr_assert_eq(k->tracks[0].max, 24);
    cr_assert_eq(k->tracks[0].temporary, 0);
    cr_assert_str_eq(k->tracks[0].descriptor, "hurt");
    cr_assert_str_eq(k->tracks[1].name, "LETHAL");
    cr_assert_eq(k->tracks[1].value, 11);
    cr_assert_eq(k->tracks[1].max, 11);
    cr_assert_str_eq(a->tracks[0].descriptor, "unhurt");
    cr_assert_str_eq(k->status, "standing");
    cr_assert(!k->out && !k->gm_only && !k->unnoticed);
    /* The clock: the Attack costs 5 phases, so Sir Aldric acts next in
     * phase 9 (his turn, the clock must reach it first), the Black Knight
     * in phase 12; each first in its phase; Aldric no longer flat-footed. */
    cr_assert_eq(v->turn, 0);
    cr_assert_str_eq(v->turn_words, "phase 9");
    cr_assert(a->on_time && k->on_time);
    cr_assert_eq(a->time, 9);
    cr_assert_eq(a->order, 0);
    cr_assert_str_eq(a->time_words, "phase 9");
    cr_assert_eq(k->time, 12);
    cr_assert(a->acted && !k->acted);
    cr_assert_eq(a->n_actions, 0, "nobody acts before the clock moves on");
    /* The map: the bridge, both on it. */
    cr_assert(v->map.present);
    cr_assert_eq(v->map.width, 12);
    cr_assert_eq(v->map.height, 8);
    cr_assert_eq(strncmp(v->map.cells + 2 * 12, "~~~......~~~", 12), 0);
    cr_assert_eq(v->map.n_legend, 3);
    cr_assert(a->on_map && k->on_map);
    cr_assert_eq(a->x, 5);
    cr_assert_eq(a->y, 3);
    cr_assert_eq(k->x, 6);
    cr_assert_eq(a->size, 1);
    /* What they carry and hold. */
    cr_assert_eq(k->n_weapons, 2);
    cr_assert_str_eq(k->weapons[0], "Longblade");
    cr_assert_str_eq(k->weapons[1], "Shortblade");
    cr_assert_eq(a->n_resources, 1);
    cr_assert_str_eq(a->resources[0].name, "white chips");
    cr_assert_eq(a->resources[0].value, 1);
    /* One deck for the GM's two knights (RULINGS 2), its Hand of Fate. */
    cr_assert_eq(v->n_hands, 1);
    cr_assert_str_eq(v->hands[0].deck, "GM");
    cr_assert(v->hands[0].gm_deck);
    cr_assert_eq(v->hands[0].n_users, 2);
    cr_assert_eq(v->hands[0].n_cards, 3);
    cr_assert_str_eq(v->hands[0].cards[0], "AC");
    cr_assert_str_eq(v->hands[0].cards[1], "3H");
    cr_assert_str_eq(v->hands[0].cards[2], "9H");
    cr_assert_eq(a->hand, 0);
    cr_assert_eq(k->hand, 0);
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 000 "Conditions" (docs/file-formats.md "gm condition ... for N"): a
 * condition with its end as data and in words. */
Test(view, towers_condition_with_its_end) {
    fray_setup *s;
    fray_fight *f = duel_after_hit(&s);
    command(f, "gm condition black-knight bleeding 2 for 2", NULL, NULL, 0);
    command(f, "gm condition aldric prone", NULL, NULL, 0);
    fray_fight_view *v = view_of(f);
    const fray_view_combatant *k = by_id(v, "black-knight"), *a = by_id(v, "aldric");
    cr_assert_eq(k->n_conditions, 1);
    const fray_view_condition *c = &k->conditions[0];
    cr_assert_str_eq(c->name, "bleeding");
    cr_assert_eq(c->value, 2);
    cr_assert_eq(c->ends, FRAY_VIEW_END_OF_TURN);
    cr_assert_eq(c->whose, 1);
    cr_assert_eq(c->count, 2);
    cr_assert_str_eq(c->until,
                     "until the end of The Black Knight's 2nd activation from now");
    cr_assert_eq(a->n_conditions, 1);
    cr_assert_str_eq(a->conditions[0].name, "prone");
    cr_assert_eq(a->conditions[0].ends, FRAY_VIEW_UNTIL_REMOVED);
    cr_assert_str_eq(a->conditions[0].until, "until removed");
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 000 "Action List": once the clock reaches Sir Aldric's phase, what he
 * may do is what the engine's check allows: an Attack and a Power Attack
 * on the Black Knight (never on himself), moves that need a space listed
 * unchecked; nobody else has actions. */
Test(view, towers_what_the_actor_may_do) {
    fray_setup *s;
    fray_fight *f = duel_after_hit(&s);
    command(f, "next", NULL, NULL, 0);
    fray_fight_view *v = view_of(f);
    cr_assert_eq(v->now, 9);
    const fray_view_combatant *a = by_id(v, "aldric"), *k = by_id(v, "black-knight");
    cr_assert_eq(k->n_actions, 0);
    const fray_view_action *at = action(a, "attack");
    cr_assert_not_null(at);
    cr_assert_str_eq(at->title, "Attack");
    cr_assert(at->checked && at->needs_target && !at->needs_space);
    cr_assert_eq(at->n_targets, 1);
    cr_assert_eq(at->targets[0], 1);
    cr_assert_not_null(action(a, "power-attack"));
    const fray_view_action *mv = action(a, "move");
    cr_assert_not_null(mv);
    cr_assert(mv->needs_space && !mv->checked);
    cr_assert_null(action(a, "gm-set"), "the GM's words are not the actor's");
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The JSON of the GM's view, read back with jansson, field by field. */
Test(view, towers_json_field_by_field) {
    fray_setup *s;
    fray_fight *f = duel_after_hit(&s);
    command(f, "gm condition black-knight bleeding 2 for 2", NULL, NULL, 0);
    fray_fight_view *v = view_of(f);
    char *text = json_of(v, NULL);
    cr_assert_null(strchr(text, '\n'), "one line");
    json_error_t err;
    json_t *j = json_loads(text, 0, &err);
    cr_assert_not_null(j, "%s at %d", err.text, err.position);
    cr_assert_eq(json_integer_value(json_object_get(j, "view")), 1);
    cr_assert_str_eq(json_string_value(json_object_get(j, "scope")), "gm");
    cr_assert_str_eq(json_string_value(json_object_get(j, "rules")), "towers");
    cr_assert_eq(json_integer_value(json_object_get(j, "now")), 4);
    cr_assert(json_is_false(json_object_get(j, "over")));
    cr_assert_eq(json_integer_value(json_object_get(j, "winner")), -1);
    cr_assert_eq(json_integer_value(json_object_get(j, "turn")), 0);
    cr_assert_str_eq(json_string_value(json_object_get(j, "turn_words")), "phase 9");
    json_t *cs = json_object_get(j, "combatants");
    cr_assert_eq(json_array_size(cs), 2);
    json_t *k = json_array_get(cs, 1);
    cr_assert_str_eq(json_string_value(json_object_get(k, "id")), "black-knight");
    cr_assert_str_eq(json_string_value(json_object_get(k, "name")), "The Black Knight");
    cr_assert_eq(json_integer_value(json_object_get(k, "side")), 1);
    json_t *stun = json_array_get(json_object_get(k, "health"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(stun, "name")), "STUN");
    cr_assert_eq(json_integer_value(json_object_get(stun, "value")), 23);
    cr_assert_eq(json_integer_value(json_object_get(stun, "max")), 24);
    json_t *tm = json_object_get(k, "time");
    cr_assert(json_is_true(json_object_get(tm, "on")));
    cr_assert_eq(json_integer_value(json_object_get(tm, "at")), 12);
    json_t *pl = json_object_get(k, "place");
    cr_assert_eq(json_integer_value(json_object_get(pl, "x")), 6);
    cr_assert_eq(json_integer_value(json_object_get(pl, "y")), 3);
    json_t *cd = json_array_get(json_object_get(k, "conditions"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(cd, "name")), "bleeding");
    cr_assert_eq(json_integer_value(json_object_get(cd, "value")), 2);
    cr_assert_str_eq(json_string_value(json_object_get(cd, "ends")), "end-of-turn");
    cr_assert_eq(json_integer_value(json_object_get(cd, "whose")), 1);
    cr_assert_eq(json_integer_value(json_object_get(cd, "count")), 2);
    cr_assert_eq(json_integer_value(json_object_get(k, "hand")), 0);
    json_t *h = json_array_get(json_object_get(j, "hands"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(h, "deck")), "GM");
    json_t *cards = json_object_get(h, "cards");
    cr_assert_eq(json_array_size(cards), 3);
    cr_assert_str_eq(json_string_value(json_array_get(cards, 0)), "AC");
    json_t *map = json_object_get(j, "map");
    cr_assert_eq(json_integer_value(json_object_get(map, "width")), 12);
    cr_assert_str_eq(json_string_value(json_array_get(json_object_get(map, "rows"), 2)),
                     "~~~......~~~");
    json_decref(j);
    /* snprintf-style: a short buffer holds the start, terminated. */
    char small[16];
    cr_assert_eq(fray_fight_view_json(v, NULL, small, sizeof small), strlen(text));
    cr_assert_eq(strncmp(small, text, sizeof small - 1), 0);
    cr_assert_eq(small[sizeof small - 1], '\0');
    free(text);
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* ---- The players' filter ------------------------------------------------------- */

/* The JSON of the filtered view, as the GM would write it, is the player's
 * JSON of the whole view: the filter and the JSON agree. */
static void filter_agrees(const fray_fight_view *v, const fray_view_scope *sc) {
    fray_fight_view *fv = NULL;
    cr_assert_eq(fray_fight_view_filter(v, sc, NULL, &fv), FRAY_OK);
    char *a = json_of(v, sc), *b = json_of(fv, NULL);
    const char *gm = "\"scope\":\"gm\"";
    char *at = strstr(b, gm);
    cr_assert_not_null(at);
    /* The scope word aside ("gm" / "player"), the same text. */
    size_t off = (size_t)(at - b);
    cr_assert_eq(strncmp(a, b, off), 0);
    cr_assert_str_eq(a + off + strlen("\"scope\":\"player\""), b + off + strlen(gm));
    free(a);
    free(b);
    fray_fight_view_free(fv);
}

/* Issue 14: "never GM-only data: hidden or not-yet-noticed combatants ...
 * other hands". A combatant that joins later (gm join) is the GM's until
 * it comes in: Tony's player sees no trace of it (id, name) and not the
 * GM deck's Hand of Fate (which that combatant flips from). */
Test(view, player_never_sees_one_not_yet_in_the_fight) {
    fray_setup *s = load("examples/towers/reinforcements.yaml");
    fray_fight *f = begin(s, NULL, NULL, 0);
    fray_fight_view *v = view_of(f);
    const fray_view_combatant *b2 = by_id(v, "bandit-2");
    cr_assert_not_null(b2);
    cr_assert(b2->gm_only);
    cr_assert_str_eq(b2->status, "not yet in the fight");
    cr_assert(!b2->on_map && !b2->on_time);
    int tony = by_id(v, "tony")->index;
    fray_view_scope p = fray_view_scope_player(&tony, 1);
    char *gm = json_of(v, NULL), *pj = json_of(v, &p);
    cr_assert_not_null(strstr(gm, "bandit-2"));
    cr_assert_null(strstr(pj, "bandit-2"), "%s", pj);
    cr_assert_null(strstr(pj, "Bandit 2"), "%s", pj);
    cr_assert_not_null(strstr(pj, "\"bandit-1\""));
    /* Hands: Tony's own, never the GM's. */
    for (int h = 0; h < v->n_hands; h++) {
        bool own = !v->hands[h].gm_deck;
        cr_assert_eq(fray_view_sees_hand(v, &p, h), own);
        for (int c = 0; c < v->hands[h].n_cards && !own; c++) {
            char q[24];
            snprintf(q, sizeof q, "\"%s\"", v->hands[h].cards[c]);
            bool in_own = false;
            for (int o = 0; o < v->n_hands; o++)
                for (int x = 0; x < v->hands[o].n_cards; x++)
                    in_own |= !v->hands[o].gm_deck &&
                              strcmp(v->hands[o].cards[x], v->hands[h].cards[c]) == 0;
            if (!in_own)
                cr_assert_null(strstr(pj, q), "the GM's card %s shows", q);
        }
    }
    fray_fight_view *fv = NULL;
    cr_assert_eq(fray_fight_view_filter(v, &p, NULL, &fv), FRAY_OK);
    cr_assert_eq(fv->n_combatants, 2);
    cr_assert_eq(fv->n_hands, 1);
    cr_assert_str_eq(fv->hands[0].deck, "Tony");
    cr_assert_eq(fv->combatants[1].hand, -1, "bandit-1's hand is the GM's");
    fray_fight_view_free(fv);
    filter_agrees(v, &p);
    /* The GM brings it in: now the player sees it. */
    command(f, "gm join bandit-2 at 8,3", NULL, NULL, 0);
    fray_fight_view *v2 = view_of(f);
    char *pj2 = json_of(v2, &p);
    cr_assert_not_null(strstr(pj2, "\"bandit-2\""));
    free(pj2);
    fray_fight_view_free(v2);
    free(gm);
    free(pj);
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* The skirmish has a deck per player (RULINGS 2): Tony's player sees
 * Tony's Hand of Fate and no card of Sir Aldric's, Wren's or the GM's. */
Test(view, player_sees_only_its_own_hand) {
    fray_setup *s = load("examples/towers/skirmish.yaml");
    fray_fight *f = begin(s, NULL, NULL, 0);
    fray_fight_view *v = view_of(f);
    cr_assert_eq(v->n_hands, 4);
    int tony = by_id(v, "tony")->index;
    fray_view_scope p = fray_view_scope_player(&tony, 1);
    char *pj = json_of(v, &p);
    int own = by_id(v, "tony")->hand;
    cr_assert_geq(own, 0);
    for (int h = 0; h < v->n_hands; h++) {
        cr_assert_eq(fray_view_sees_hand(v, &p, h), h == own);
        if (h == own)
            continue;
        for (int c = 0; c < v->hands[h].n_cards; c++) {
            bool also_own = false;
            for (int x = 0; x < v->hands[own].n_cards; x++)
                also_own |= strcmp(v->hands[own].cards[x], v->hands[h].cards[c]) == 0;
            char q[24];
            snprintf(q, sizeof q, "\"%s\"", v->hands[h].cards[c]);
            if (!also_own)
                cr_assert_null(strstr(pj, q), "%s's card %s shows",
                               v->hands[h].deck, q);
        }
    }
    cr_assert_not_null(strstr(pj, "\"deck\":\"Tony\""));
    cr_assert_null(strstr(pj, "\"deck\":\"Wren\""));
    filter_agrees(v, &p);
    free(pj);
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Issue 14: "exact numbers of enemies the GM keeps hidden (descriptors
 * instead)": with enemy_numbers false a player reads the other side's
 * health only in words, and none of its chips or mana; its own side's
 * numbers stay. Default (true): the numbers, as at a table where the GM
 * says them. */
Test(view, player_enemy_numbers_option) {
    fray_setup *s;
    fray_fight *f = duel_after_hit(&s);
    fray_fight_view *v = view_of(f);
    int aldric = 0;
    fray_view_scope p = fray_view_scope_player(&aldric, 1);
    cr_assert(p.enemy_numbers, "the default shows the numbers");
    char *open = json_of(v, &p);
    cr_assert_not_null(strstr(open, "{\"name\":\"STUN\",\"value\":23,\"max\":24"));
    free(open);
    p.enemy_numbers = false;
    char *pj = json_of(v, &p);
    cr_assert_null(strstr(pj, "\"value\":23"), "%s", pj);
    cr_assert_not_null(strstr(pj, "{\"name\":\"STUN\",\"descriptor\":\"hurt\"}"));
    cr_assert_not_null(strstr(pj, "{\"name\":\"STUN\",\"value\":24,\"max\":24"),
                       "his own numbers");
    fray_fight_view *fv = NULL;
    cr_assert_eq(fray_fight_view_filter(v, &p, NULL, &fv), FRAY_OK);
    const fray_view_combatant *k = by_id(fv, "black-knight");
    cr_assert(!k->tracks[0].exact);
    cr_assert_eq(k->tracks[0].value, -1);
    cr_assert_eq(k->n_resources, 0);
    cr_assert_eq(by_id(fv, "aldric")->n_resources, 1);
    fray_fight_view_free(fv);
    filter_agrees(v, &p);
    free(pj);
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 000 "Surprise" and the view's ruling "not yet noticed": in the ambush,
 * the players' Tony and Wren are unaware of the Bandits and have not
 * acted: the bandits are hidden from a player (unless the scope shows the
 * unnoticed), never from the GM. */
Test(view, ambushers_not_yet_noticed) {
    fray_setup *s = load("examples/towers/ambush.yaml");
    fray_fight *f = begin(s, NULL, NULL, 0);
    fray_fight_view *v = view_of(f);
    const fray_view_combatant *b = by_id(v, "archer");
    cr_assert_not_null(b);
    cr_assert(b->unnoticed && !b->gm_only);
    cr_assert(!by_id(v, "tony")->unnoticed);
    int tony = by_id(v, "tony")->index;
    fray_view_scope p = fray_view_scope_player(&tony, 1);
    cr_assert(!p.show_unnoticed);
    char *pj = json_of(v, &p);
    cr_assert_null(strstr(pj, "\"archer\""), "%s", pj);
    cr_assert_null(strstr(pj, "\"bandit-1\""), "%s", pj);
    cr_assert_not_null(strstr(pj, "\"wren\""));
    filter_agrees(v, &p);
    p.show_unnoticed = true;
    char *shown = json_of(v, &p);
    cr_assert_not_null(strstr(shown, "\"archer\""));
    fray_view_scope gm = fray_view_scope_gm();
    char *g = json_of(v, &gm);
    cr_assert_not_null(strstr(g, "\"archer\""));
    free(g);
    free(shown);
    free(pj);
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* A fight that is over: the winner, nobody's turn, no actions. */
Test(view, towers_fight_over) {
    fray_setup *s = load("examples/towers/duel.yaml");
    fray_fight *f = begin(s, NULL, NULL, 0);
    cr_assert_eq(fray_fight_run(f), FRAY_OK);
    cr_assert(fray_fight_over(f));
    fray_fight_view *v = view_of(f);
    cr_assert(v->over);
    cr_assert_eq(v->winner, fray_fight_winner(f));
    cr_assert_geq(v->winner, 0);
    cr_assert_eq(v->turn, -1);
    cr_assert_str_eq(v->turn_words, "");
    int out = 0;
    for (int k = 0; k < v->n_combatants; k++) {
        cr_assert_eq(v->combatants[k].n_actions, 0);
        if (v->combatants[k].out) {
            out++;
            cr_assert_neq(v->combatants[k].side, v->winner);
            cr_assert_str_neq(v->combatants[k].status, "standing");
            cr_assert(!v->combatants[k].on_time);
        }
    }
    cr_assert_geq(out, 1);
    char *t = json_of(v, NULL);
    cr_assert_not_null(strstr(t, "\"over\":true"));
    free(t);
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* ---- Alloy ------------------------------------------------------------------ */

/* 004: initiative by hand (Vance d20 15 + 2 = 17, Lyra 8 + 3 = 11), then
 * Vance's Stunning blow with d20 18 (25 against Fortitude: a hit) and d6
 * 4: 4 + 4 = 8 damage, Lyra 26 -> 18 HP, dazed until the end of Vance's
 * next turn; the encounter power spent. */
Test(view, alloy_after_a_known_hit) {
    fray_setup *s = load("examples/alloy/duel.yaml");
    int init[] = {15, 8};
    fray_fight *f = begin(s, NULL, init, 2);
    command(f, "next", NULL, NULL, 0);
    int dice[] = {18, 4};
    command(f, "vance attack lyra with stunning-blow", NULL, dice, 2);
    fray_fight_view *v = view_of(f);
    cr_assert_str_eq(v->rules, "alloy");
    cr_assert_str_eq(v->time_unit, "round");
    cr_assert_eq(v->now, 1);
    cr_assert_eq(v->turn, 0);
    cr_assert_str_eq(v->turn_words, "round 1, initiative 17");
    const fray_view_combatant *va = by_id(v, "vance"), *ly = by_id(v, "lyra");
    cr_assert_eq(ly->n_tracks, 1);
    cr_assert_str_eq(ly->tracks[0].name, "HP");
    cr_assert_eq(ly->tracks[0].value, 18);
    cr_assert_eq(ly->tracks[0].max, 26);
    cr_assert_str_eq(ly->tracks[0].descriptor, "hurt");
    /* The initiative order. */
    cr_assert(va->on_time && ly->on_time);
    cr_assert_eq(va->time, 17);
    cr_assert_eq(va->order, 0);
    cr_assert_eq(ly->time, 11);
    cr_assert_eq(ly->order, 1);
    cr_assert_str_eq(ly->time_words, "initiative 11");
    /* Dazed (004: "end of your next turn": the attacker's). */
    cr_assert_eq(ly->n_conditions, 1);
    const fray_view_condition *c = &ly->conditions[0];
    cr_assert_str_eq(c->name, "dazed");
    cr_assert_eq(c->ends, FRAY_VIEW_END_OF_TURN);
    cr_assert_eq(c->whose, 0);
    cr_assert_eq(c->count, 1);
    cr_assert_eq(c->source, 0);
    cr_assert_str_eq(c->until, "until the end of Vance's next turn");
    /* Resources: the encounter power spent. */
    bool found = false;
    for (int r = 0; r < va->n_resources; r++)
        if (strcmp(va->resources[r].name, "Stunning blow (encounter)") == 0) {
            found = true;
            cr_assert_eq(va->resources[r].value, 0);
        }
    cr_assert(found);
    cr_assert_str_eq(va->weapons[0], "Baton");
    /* Vance's standard action is spent: no Attack now, End Turn is there. */
    cr_assert_null(action(va, "attack"));
    cr_assert_not_null(action(va, "end"));
    cr_assert_eq(ly->n_actions, 0);
    cr_assert_eq(v->n_hands, 0);
    cr_assert(!v->map.present);
    cr_assert(!va->on_map);
    /* The JSON, read back. */
    char *text = json_of(v, NULL);
    json_t *j = json_loads(text, 0, NULL);
    cr_assert_not_null(j);
    json_t *jl = json_array_get(json_object_get(j, "combatants"), 1);
    json_t *hp = json_array_get(json_object_get(jl, "health"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(hp, "name")), "HP");
    cr_assert_eq(json_integer_value(json_object_get(hp, "value")), 18);
    json_t *cd = json_array_get(json_object_get(jl, "conditions"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(cd, "name")), "dazed");
    cr_assert_str_eq(json_string_value(json_object_get(cd, "ends")), "end-of-turn");
    cr_assert(json_is_null(json_object_get(j, "map")));
    json_decref(j);
    free(text);
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 004:241 "joins": one that joins in a later round is the GM's until then. */
Test(view, alloy_not_yet_joined_is_gm_only) {
    fray_setup *s = load("examples/alloy/reinforcements.yaml");
    fray_fight *f = begin(s, NULL, NULL, 0);
    fray_fight_view *v = view_of(f);
    int hidden = -1, player = -1;
    for (int k = 0; k < v->n_combatants; k++) {
        if (v->combatants[k].gm_only)
            hidden = k;
        else if (player < 0)
            player = k;
    }
    cr_assert_geq(hidden, 0, "someone joins later");
    cr_assert_str_eq(v->combatants[hidden].status, "not yet in the fight");
    int me = v->combatants[player].index;
    fray_view_scope p = fray_view_scope_player(&me, 1);
    char *pj = json_of(v, &p);
    char q[64];
    snprintf(q, sizeof q, "\"%s\"", v->combatants[hidden].id);
    cr_assert_null(strstr(pj, q), "%s", pj);
    snprintf(q, sizeof q, "\"%s\"", v->combatants[hidden].name);
    cr_assert_null(strstr(pj, q), "%s", pj);
    filter_agrees(v, &p);
    free(pj);
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Every allocation that fails is FRAY_ERR_NOMEM with nothing left behind. */
Test(view, out_of_memory) {
    fray_setup *s;
    fray_fight *f = duel_after_hit(&s);
    int aldric = 0;
    fray_view_scope p = fray_view_scope_player(&aldric, 1);
    for (long n = 1; n < 64; n++) {
        fail_alloc fa = {0, n, 0, 0};
        fray_allocator al = {fail_realloc, &fa};
        fray_fight_view *v = NULL;
        fray_status rc = fray_fight_view_new(f, &al, &v);
        if (rc == FRAY_OK) {
            fray_fight_view *fv = NULL;
            fray_status r2 = fray_fight_view_filter(v, &p, &al, &fv);
            cr_assert(r2 == FRAY_OK || r2 == FRAY_ERR_NOMEM);
            cr_assert((r2 == FRAY_OK) == (fv != NULL));
            fray_fight_view_free(fv);
            fray_fight_view_free(v);
        } else {
            cr_assert_eq(rc, FRAY_ERR_NOMEM);
            cr_assert_null(v);
        }
        cr_assert_eq(fa.live, 0, "nothing leaks (failing allocation %ld)", n);
    }
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 004:898, L7.16 "total concealment": Lyra steps into the unlit corner
 * (5,0); Vance's side last saw her at 4,1. The GM sees where she is (and
 * where each side last saw her); Vance's player sees her at 4,1, and
 * nothing of where she is. */
Test(view, alloy_total_concealment_place_last_seen) {
    fray_setup *s = load("tests/data/alloy/view_dark.yaml");
    int init[] = {1, 20};
    fray_fight *f = begin(s, NULL, init, 2);
    command(f, "next", NULL, NULL, 0);
    command(f, "lyra walk 5,0", NULL, NULL, 0);
    fray_fight_view *v = view_of(f);
    const fray_view_combatant *ly = by_id(v, "lyra");
    cr_assert(ly->on_map);
    cr_assert_eq(ly->x, 5);
    cr_assert_eq(ly->y, 0);
    cr_assert_eq(ly->n_seen, 2);
    cr_assert_eq(ly->seen[0].x, 4, "Vance's side: where it last saw her");
    cr_assert_eq(ly->seen[0].y, 1);
    cr_assert_eq(ly->seen[1].x, 5, "her own side: where she is");
    /* The unlit corner is the map's area "dark" (the encounter's `dark:`). */
    cr_assert_eq(v->map.n_areas, 1);
    cr_assert_str_eq(v->map.areas[0].name, "dark");
    cr_assert_eq(v->map.areas[0].n_spaces, 1);
    cr_assert_eq(v->map.areas[0].spaces[0].x, 5);
    cr_assert_eq(v->map.areas[0].spaces[0].y, 0);
    int vance = 0;
    fray_view_scope p = fray_view_scope_player(&vance, 1);
    char *pj = json_of(v, &p);
    cr_assert_not_null(strstr(pj, "\"id\":\"lyra\""));
    cr_assert_not_null(strstr(pj, "\"place\":{\"x\":4,\"y\":1,\"size\":1}"), "%s", pj);
    cr_assert_null(strstr(pj, "\"x\":5,\"y\":0"), "%s", pj);
    cr_assert_not_null(strstr(pj, "\"areas\":[{\"name\":\"dark\",\"spaces\":[[5,0]]}]"),
                       "%s", pj);
    fray_fight_view *fv = NULL;
    cr_assert_eq(fray_fight_view_filter(v, &p, NULL, &fv), FRAY_OK);
    cr_assert_eq(by_id(fv, "lyra")->x, 4);
    cr_assert_eq(by_id(fv, "lyra")->n_seen, 0);
    fray_fight_view_free(fv);
    filter_agrees(v, &p);
    /* Lyra's own player sees her where she is. */
    int lyra = 1;
    fray_view_scope q = fray_view_scope_player(&lyra, 1);
    char *qj = json_of(v, &q);
    cr_assert_not_null(strstr(qj, "\"place\":{\"x\":5,\"y\":0,\"size\":1}"));
    free(qj);
    free(pj);
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* A view reads the fight and changes nothing: after views at every step
 * (with the actions checked), the fight is the same as a twin that was
 * never looked at, and goes on the same. */
Test(view, looking_changes_nothing) {
    const char *files[] = {"examples/towers/mage.yaml",
                           "examples/alloy/skirmish.yaml"};
    for (int k = 0; k < 2; k++) {
        fray_setup *s = load(files[k]);
        fray_fight *a = begin(s, NULL, NULL, 0), *b = begin(s, NULL, NULL, 0);
        for (int step = 0; step < 40 && !fray_fight_over(a); step++) {
            fray_fight_view *v = view_of(a);
            fray_fight_view_free(v);
            cr_assert(fray_fight_same(a, b), "%s: step %d", files[k], step);
            cr_assert_eq(fray_fight_step(a), FRAY_OK);
            cr_assert_eq(fray_fight_step(b), FRAY_OK);
        }
        cr_assert(fray_fight_same(a, b));
        fray_fight_free(a);
        fray_fight_free(b);
        fray_setup_free(s);
    }
}
