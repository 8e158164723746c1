/* d6_fixture.h - D6 encounters built in C for the unit tests (until the
 * D6 files load): a duel, a brawl and a firefight, filled into a d6_setup
 * as the loader would; a fray_setup over one (borrowed); fights begun
 * with the dice given by hand; and what the D6 tests share to read a
 * fight: the last event, a command tried or refused, the journal
 * (journal_fixture.h), the chances at the table, the duel closed to 1 m in Body Points. */
#ifndef D6_FIXTURE_H
#define D6_FIXTURE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/chances.h"
#include "fray/fight.h"
#include "layer.h"
#include "ruleset.h"
#include "d6_int.h"
#include "journal_fixture.h"

extern const fray__ruleset fray__d6_ruleset;

static inline d6_code d6_fx_code(const char *t) {
    d6_code c = {0, 0};
    cr_assert(d6_code_parse(t, &c), "fixture code '%s'", t);
    return c;
}

/* Weapons: 0 sword (melee, STR+1D+1), 1 club (melee, STR+1D), 2 short bow
 * (marksmanship 3D+1, 10/100/250 m), 3 crossbow (marksmanship 4D,
 * 15/50/100 m). Armour: 0 leather +1D, 1 chain mail +2D. */
enum { D6_FX_SWORD, D6_FX_CLUB, D6_FX_BOW, D6_FX_CROSSBOW };
enum { D6_FX_LEATHER, D6_FX_CHAIN };

static inline void d6_fx_catalog(d6_setup *s) {
    static const struct {
        const char *name;
        int skill;
        const char *dmg;
        bool str;
        int r0, r1, r2;
    } w[] = {{"sword", D6_SK_MELEE, "1D+1", true, 0, 0, 0},
             {"club", D6_SK_MELEE, "1D", true, 0, 0, 0},
             {"short bow", D6_SK_MARKSMANSHIP, "3D+1", false, 10, 100, 250},
             {"crossbow", D6_SK_MARKSMANSHIP, "4D", false, 15, 50, 100}};
    for (int i = 0; i < 4; i++) {
        d6_weapon *x = &s->w[i];
        snprintf(x->name, sizeof x->name, "%s", w[i].name);
        x->skill = (uint8_t)w[i].skill;
        x->damage = d6_fx_code(w[i].dmg);
        x->strength = w[i].str;
        x->range[0] = (int16_t)w[i].r0;
        x->range[1] = (int16_t)w[i].r1;
        x->range[2] = (int16_t)w[i].r2;
        x->hands = 1;
    }
    s->n_weapons = 4;
    snprintf(s->ar[0].name, sizeof s->ar[0].name, "leather");
    s->ar[0].code = d6_fx_code("1D");
    snprintf(s->ar[1].name, sizeof s->ar[1].name, "chain mail");
    s->ar[1].code = d6_fx_code("2D");
    s->n_armour = 2;
}

/* A combatant: attributes "Agi Coo Phy Int Acu Cha", skills melee,
 * marksmanship, dodge, lifting, stamina ("" not listed). */
static inline int d6_fx_add(d6_setup *s, const char *id, const char *name, int side,
                            const char *attrs[D6_ATTRS], const char *melee,
                            const char *marks, const char *dodge, int weapon,
                            int armour, int x, int y) {
    int i = s->n++;
    d6_combatant *c = &s->c[i];
    memset(c, 0, sizeof *c);
    snprintf(c->id, sizeof c->id, "%s", id);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->side = (int8_t)side;
    c->tactics = weapon >= 0 && s->w[weapon].range[2] > 0 ? D6_TAC_RANGED : D6_TAC_MELEE;
    d6_block *b = &c->b;
    snprintf(b->name, sizeof b->name, "%s", name);
    for (int k = 0; k < D6_ATTRS; k++)
        b->attr[k] = d6_fx_code(attrs[k]);
    const char *sk[3] = {melee, marks, dodge};
    const int which[3] = {D6_SK_MELEE, D6_SK_MARKSMANSHIP, D6_SK_DODGE};
    for (int k = 0; k < 3; k++)
        if (sk[k][0]) {
            b->skill[which[k]] = d6_fx_code(sk[k]);
            b->has_skill |= 1u << which[k];
        }
    b->move = 10;
    b->body_points = (int16_t)(20 + 3 * b->attr[D6_PHYSIQUE].dice);
    b->weapon = (int8_t)weapon;
    b->off_hand = -1;
    b->armour = (int8_t)armour;
    c->x = (int16_t)x;
    c->y = (int16_t)y;
    return i;
}

static inline void d6_fx_sides(d6_setup *s, const char *a, const char *b) {
    snprintf(s->side_name[0], sizeof s->side_name[0], "%s", a);
    snprintf(s->side_name[1], sizeof s->side_name[1], "%s", b);
    s->n_sides = 2;
    s->rounds = 60;
}

/* The duel: a knight (melee 5D, sword, chain mail) and a brigand (melee
 * 4D, club, leather) 6 m apart. */
static inline void d6_fx_duel(d6_setup *s) {
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "duel");
    d6_fx_catalog(s);
    d6_fx_sides(s, "the knight", "the brigand");
    const char *k[D6_ATTRS] = {"3D+1", "2D+2", "3D+1", "2D", "3D", "2D+2"};
    const char *g[D6_ATTRS] = {"3D", "3D", "3D", "2D", "2D+2", "2D"};
    d6_fx_add(s, "knight", "Sir Aldo", 0, k, "5D", "", "4D", D6_FX_SWORD, D6_FX_CHAIN, 0, 0);
    d6_fx_add(s, "brigand", "Brigand", 1, g, "4D", "", "3D+2", D6_FX_CLUB, D6_FX_LEATHER, 6, 0);
}

/* The brawl: two guards against three thugs, clubs, 8 m apart. */
static inline void d6_fx_brawl(d6_setup *s) {
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "brawl");
    d6_fx_catalog(s);
    d6_fx_sides(s, "the guards", "the thugs");
    const char *gu[D6_ATTRS] = {"3D+1", "3D", "3D+1", "2D", "3D", "2D"};
    const char *th[D6_ATTRS] = {"3D", "2D+1", "3D", "2D", "2D+1", "2D"};
    d6_fx_add(s, "guard-1", "guard 1", 0, gu, "4D+1", "", "4D", D6_FX_CLUB, D6_FX_LEATHER, 0, 0);
    d6_fx_add(s, "guard-2", "guard 2", 0, gu, "4D+1", "", "4D", D6_FX_CLUB, D6_FX_LEATHER, 0, 2);
    for (int i = 0; i < 3; i++) {
        char id[16], name[16];
        snprintf(id, sizeof id, "thug-%d", i + 1);
        snprintf(name, sizeof name, "thug %d", i + 1);
        d6_fx_add(s, id, name, 1, th, "3D+2", "", "3D", D6_FX_CLUB, -1, 8, 2 * i);
    }
}

/* The firefight: two archers behind half cover against three
 * crossbowmen in the open, 40 m apart (Medium for the bows, Medium for
 * the crossbows); a light mist (1D). */
static inline void d6_fx_firefight(d6_setup *s) {
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "firefight");
    d6_fx_catalog(s);
    d6_fx_sides(s, "the archers", "the crossbowmen");
    const char *ar[D6_ATTRS] = {"3D", "3D+2", "3D", "2D", "3D", "2D"};
    const char *cb[D6_ATTRS] = {"2D+2", "3D", "3D", "2D", "2D+2", "2D"};
    for (int i = 0; i < 2; i++) {
        char id[16], name[16];
        snprintf(id, sizeof id, "archer-%d", i + 1);
        snprintf(name, sizeof name, "archer %d", i + 1);
        int k = d6_fx_add(s, id, name, 0, ar, "", "5D", "3D+1", D6_FX_BOW, D6_FX_LEATHER, 0, 3 * i);
        s->c[k].cover = D6_COVER_HALF;
    }
    for (int i = 0; i < 3; i++) {
        char id[16], name[20];
        snprintf(id, sizeof id, "xbow-%d", i + 1);
        snprintf(name, sizeof name, "crossbowman %d", i + 1);
        d6_fx_add(s, id, name, 1, cb, "", "4D", "", D6_FX_CROSSBOW, -1, 40, 3 * i);
    }
    s->light = 1;
}

/* A fray_setup over s (borrowed: s outlives it). */
static inline fray_setup d6_fx_setup(d6_setup *s) {
    fray_setup fs;
    memset(&fs, 0, sizeof fs);
    fs.rs = &fray__d6_ruleset;
    fs.data = s;
    return fs;
}

/* A fight with a journal and facts, its initiative dice given (NULL:
 * drawn with seed 1). */
static inline fray_fight *d6_fx_start(const fray_setup *fs, const int *dice, size_t n) {
    fray_fight_options o = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL;
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_given g = {NULL, 0, dice, n, &diag};
    cr_assert_eq(fray_fight_new(fs, 1, &o, dice ? &g : NULL, NULL, &f), FRAY_OK, "%s",
                 diag.message);
    return f;
}

static inline d6_state *d6_fx_st(fray_fight *f) { return d6_fight_state(fray__fight_rf(f)); }

/* A command with dice by hand (n 0: none given, drawn). */
static inline fray_status d6_fx_cmd(fray_fight *f, const char *text, const int *dice,
                                    size_t n, fray_diag *diag) {
    fray_given g = {NULL, 0, dice, n, NULL};
    return fray_fight_command(f, text, n ? &g : NULL, diag);
}

static inline void d6_fx_ok(fray_fight *f, const char *text, const int *dice, size_t n) {
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_status rc = d6_fx_cmd(f, text, dice, n, &diag);
    cr_assert_eq(rc, FRAY_OK, "%s: %s", text, diag.message);
}

/* ---- Reading a fight (the tests' shared scaffolding) ------------------ */

/* The last event in JSON, and in words. */
static inline void d6_fx_last_json(fray_fight *f, char *buf, size_t size) {
    int n = fray_fight_events(f);
    cr_assert_gt(n, 0);
    fray_event_json(f, n - 1, buf, size);
}
static inline void d6_fx_last_words(fray_fight *f, char *buf, size_t size) {
    fray_event_narrate(f, fray_fight_events(f) - 1, buf, size);
}

/* `part` is in `text` (JSON or words). */
static inline void d6_fx_has(const char *text, const char *part) {
    cr_assert(strstr(text, part), "expected %s in %s", part, text);
}

/* A command with dice by hand (n 0: drawn), its diagnostic cleared first. */
static inline fray_status d6_fx_try(fray_fight *f, const char *text, const int *dice, size_t n,
                                    fray_diag *diag) {
    memset(diag, 0, sizeof *diag);
    return d6_fx_cmd(f, text, dice, n, diag);
}

/* A command refused with status `want`, its message saying `says`. */
static inline void d6_fx_refused(fray_fight *f, const char *text, fray_status want,
                                 const char *says) {
    fray_diag diag;
    fray_status rc = d6_fx_try(f, text, NULL, 0, &diag);
    cr_assert_eq(rc, want, "%s: %d %s", text, (int)rc, diag.message);
    cr_assert(strstr(diag.message, says), "%s: '%s' does not say '%s'", text, diag.message,
              says);
}

/* The chances of a command at the table (issue 19), which must be given. */
static inline void d6_fx_chances(fray_fight *f, int who, const char *cmd, fray_chances *c) {
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(fray_action_chances(f, who, cmd, c, &diag), FRAY_OK, "%s: %s", cmd,
                 diag.message);
}

/* The duel (into *s) in Body Points, the knight first (initiative 15 and
 * 6) and moved to 1 m of the brigand (5,0). */
static inline fray_fight *d6_fx_close_duel(d6_setup *s, fray_setup *fs) {
    d6_fx_duel(s);
    s->o.health = D6_HEALTH_BODY_POINTS;
    *fs = d6_fx_setup(s);
    const int d[] = {5, 5, 5, 2, 2};
    fray_fight *f = d6_fx_start(fs, d, 5);
    cr_assert_eq(d6_fx_st(f)->order[0], 0);
    d6_fx_ok(f, "knight move 5,0", NULL, 0);
    return f;
}

#endif
