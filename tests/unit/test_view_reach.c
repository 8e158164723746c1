/*
 * test_view_reach.c - the spaces a combatant's melee threatens, in the
 * fight's view (include/fray/view.h fray_view_combatant.reach, JSON
 * "reach"; issue 14 "the map with tokens, reach"): 99 Towers by its
 * weapons' threat reach (seed 000 "Reach": Spear, Reach keyword: 2
 * spaces), none while Stunned; Alloy by its melee basic attack's reach
 * (004:77: a spear's 10 feet), none with a firearm in hand; never through
 * a wall; a player sees it only where it sees the combatant.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fray/fray.h"
#include "fray/view.h"

static char dir[64];

static void put(const char *name, const char *text) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    cr_assert_geq(fputs(text, f), 0);
    cr_assert_eq(fclose(f), 0);
}

static void cleanup(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

static fray_fight *fight_of(const char *enc, fray_setup **out_setup) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, enc);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_setup_load(path, NULL, out_setup, &d), FRAY_OK,
                 "%s:%d:%d: %s", fray_diag_file(&d), d.line, d.column,
                 d.message);
    fray_fight_options fo = {.journal = true, .facts = true, .until = 0};
    fray_fight *f = NULL;
    cr_assert_eq(fray_fight_new(*out_setup, 1, &fo, NULL, NULL, &f), FRAY_OK);
    return f;
}

static bool has(const fray_view_combatant *c, int x, int y) {
    for (int j = 0; j < c->n_reach; j++)
        if (c->reach[j].x == x && c->reach[j].y == y)
            return true;
    return false;
}

/* 99 Towers: a pikeman (Spear: Reach) at (2,2) threatens the 24 spaces
 * within 2 of it on an open map but for those behind the wall at x = 4;
 * a swordsman (reach 1) the 8 around it. Stunned: none. */
Test(view_reach, towers_reach_is_the_weapons_threat_reach) {
    snprintf(dir, sizeof dir, "/tmp/fray-reach-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char blocks[2048];
    snprintf(blocks, sizeof blocks,
             "fray: statblocks\nrules: towers\n"
             "catalog: [%s/data/towers/equipment.yaml]\nstatblocks:\n"
             "  - name: Pikeman\n"
             "    aspects: {HS: 2, SS: 2, EE: 1, IE: 1, SP: 2, IP: 1, AI: 1, "
             "II: 1, PC: 1}\n"
             "    combat: {N: 1, PA: 2, PD: 2, SA: 0, ID: 1, PX: 1, ER: 1, "
             "IR: 0, SPD: 5}\n"
             "    endurance: 2\n    weapons: [Spear]\n"
             "  - name: Swordsman\n    base: Pikeman\n"
             "    weapons: [Shortblade]\n",
             FRAY_SOURCE_DIR);
    put("blocks.yaml", blocks);
    put("enc.yaml", "fray: encounter\nrules: towers\nname: Reach\n"
                    "statblocks: [blocks.yaml]\nsides: [A, B]\n"
                    "map:\n  art: |\n"
                    "    ....#....\n    ....#....\n    ....#....\n"
                    "    ....#....\n    ....#....\n"
                    "combatants:\n"
                    "  - {id: pike, statblock: Pikeman, side: A, at: [3, 2]}\n"
                    "  - {id: sword, statblock: Swordsman, side: B, at: [7, 2]}\n");
    fray_setup *s = NULL;
    fray_fight *f = fight_of("enc.yaml", &s);
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    const fray_view_combatant *p = &v->combatants[0];
    /* Within 2 (diagonals 1.5: (1,0) is 3 away) of (3,2), and not past
     * the wall at x = 4: (5,2) is 2 away, behind it. */
    cr_assert(has(p, 1, 2) && has(p, 3, 0) && has(p, 3, 4) && has(p, 2, 1) &&
              has(p, 2, 4), "the spear's 2 spaces");
    cr_assert(!has(p, 1, 0) && !has(p, 1, 4), "(1,0) is 3 away");
    cr_assert(!has(p, 4, 2), "the wall itself");
    cr_assert(!has(p, 5, 2) && !has(p, 5, 1), "behind the wall");
    cr_assert(!has(p, 3, 2), "its own space");
    /* x 1..3, y 0..4: 15 spaces, less its own and the corners (1,0),
     * (1,4). */
    cr_assert_eq(p->n_reach, 3 * 5 - 1 - 2, "%d", p->n_reach);
    const fray_view_combatant *w = &v->combatants[1];
    cr_assert_eq(w->n_reach, 8, "a shortblade: the 8 around (7,2)");
    cr_assert(has(w, 6, 1) && has(w, 8, 3) && !has(w, 5, 2));
    fray_fight_view_free(v);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_fight_command(f, "gm condition pike stunned", NULL, &d),
                 FRAY_OK, "%s", d.message);
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    cr_assert_eq(v->combatants[0].n_reach, 0, "Stunned: it threatens nobody");
    char json[16384];
    size_t n = fray_fight_view_json(v, NULL, json, sizeof json);
    cr_assert_lt(n, sizeof json);
    cr_assert_not_null(strstr(json, "\"reach\":[[6,1],"), "%s", json);
    cr_assert_not_null(strstr(json, "\"reach\":[]"));
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
    cleanup();
}

/* Alloy: a spear (reach 10 ft: 2 squares) reaches two squares; a pistol
 * in hand, no melee at all; a wall in between, nothing beyond it. */
Test(view_reach, alloy_reach_is_the_melee_attacks_reach) {
    snprintf(dir, sizeof dir, "/tmp/fray-reach-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char blocks[2048];
    snprintf(blocks, sizeof blocks,
             "fray: statblocks\nrules: alloy\n"
             "catalog: [%s/data/alloy/weapons.yaml]\nstatblocks:\n"
             "  - name: Pikeman\n"
             "    abilities: {Str: 14, Dex: 12, Con: 12, Int: 10, Wis: 10, "
             "Cha: 8}\n    level: 1\n"
             "    defenses: {Defense: 14, Fortitude: 13, Reflex: 12, Will: 11}\n"
             "    attack: 1\n    hp: 20\n    weapons: [spear]\n"
             "  - name: Gunner\n"
             "    abilities: {Str: 10, Dex: 14, Con: 12, Int: 10, Wis: 10, "
             "Cha: 8}\n    level: 1\n"
             "    defenses: {Defense: 14, Fortitude: 13, Reflex: 12, Will: 11}\n"
             "    attack: 1\n    hp: 20\n    weapons: [pistol]\n",
             FRAY_SOURCE_DIR);
    put("blocks.yaml", blocks);
    put("enc.yaml", "fray: encounter\nrules: alloy\nname: Reach\n"
                    "statblocks: [blocks.yaml]\nsides: [A, B]\n"
                    "map:\n  art: |\n"
                    "    ....#....\n    ....#....\n    ....#....\n"
                    "    ....#....\n    ....#....\n"
                    "combatants:\n"
                    "  - {id: pike, statblock: Pikeman, side: A, at: [3, 2]}\n"
                    "  - {id: gun, statblock: Gunner, side: B, at: [7, 2]}\n");
    fray_setup *s = NULL;
    fray_fight *f = fight_of("enc.yaml", &s);
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    const fray_view_combatant *p = &v->combatants[0];
    cr_assert(has(p, 1, 2) && has(p, 3, 0) && has(p, 2, 3) && has(p, 3, 4),
              "the spear's two squares");
    cr_assert(!has(p, 4, 2) && !has(p, 3, 2), "not the wall, not its own");
    cr_assert(!has(p, 5, 2) && !has(p, 5, 3), "nothing behind the wall");
    cr_assert(!has(p, 0, 2), "three squares away");
    cr_assert_eq(v->combatants[1].n_reach, 0, "a pistol in hand: no melee");
    /* A player of side B sees the pikeman's reach where it sees it. */
    int controls[1] = {1};
    fray_view_scope sc = fray_view_scope_player(controls, 1);
    fray_fight_view *pv = NULL;
    cr_assert_eq(fray_fight_view_filter(v, &sc, NULL, &pv), FRAY_OK);
    cr_assert_eq(pv->combatants[0].n_reach, p->n_reach);
    fray_fight_view_free(pv);
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
    cleanup();
}
