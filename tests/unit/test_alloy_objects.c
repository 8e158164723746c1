/*
 * test_alloy_objects.c - Alloy's objects in hands and on the floor
 * (src/rules/alloy/objects.c): Attack Held Object's drop and take
 * (004:434-445), Manipulate an Object's pick-up (004:333, 622-626), Draw
 * or Holster and Retrieve Object (004:331, 335, 583-589), thrown weapons
 * used up (004:87, 101, 112, 131), Consume Item (004:330, 531-537), the
 * tactics that go with them, the map's marks, the words and the journal.
 * The real attack.c rolls (dice given by hand).
 */
#include "alloy_fixture.h"

#include <jansson.h>

/* Tony (side 0) and orc 1 (side 1); Tony's block: sword (melee, 1d8,
 * proficiency 2, group blades), knife (thrown, 1d4); the orc's: axe
 * (melee 1d6, group blades), a grenade (thrown burst). */
enum { T_SWORD, T_KNIFE };
enum { O_AXE, O_GRENADE };

static fixture *setup(int *a, int *b, int ax, int ay, int bx, int by, int knives) {
    fixture *f = af_new(16, 16);
    int sa = af_block(f, "trooper", 6, 0, 20);
    int sb = af_block(f, "orc", 6, 0, 20);
    int sword = af_weapon(f, "sword", FA_WK_MELEE, 8, 1, 0);
    f->s.weapons[sword].proficiency = 2;
    snprintf(f->s.weapons[sword].group, FA_ID_MAX, "blades");
    int knife = af_weapon(f, "knife", FA_WK_THROWN, 4, 1, 0);
    int axe = af_weapon(f, "axe", FA_WK_MELEE, 6, 1, 0);
    f->s.weapons[axe].proficiency = 2;
    snprintf(f->s.weapons[axe].group, FA_ID_MAX, "blades");
    int gren = af_weapon(f, "grenade", FA_WK_THROWN, 6, 1, 0);
    f->s.weapons[gren].area = FA_AREA_BURST;
    f->s.weapons[gren].area_size = 1;
    f->s.weapons[gren].range_short = 12;
    f->s.weapons[gren].range_long = 0;
    f->s.weapons[gren].area_defense = FA_DEF_REFLEX;
    f->s.weapons[gren].area_ability = FA_DEX;
    af_give(f, sa, sword, -1);
    af_give(f, sa, knife, knives);
    af_give(f, sb, axe, -1);
    af_give(f, sb, gren, 0);
    *a = af_add(f, "Tony", sa, 0, ax, ay);
    *b = af_add(f, "orc 1", sb, 1, bx, by);
    f->s.c[*a].wield = T_SWORD;
    f->s.c[*b].wield = O_AXE;
    return f;
}

static fa_command draw_cmd(int who, int weapon, int option) {
    fa_command c = af_cmd(FA_CMD_DRAW, who);
    c.weapon = (int8_t)weapon;
    c.option = (int8_t)option;
    return c;
}

/* 004:439-441 "Hit: The target drops the weapon in their space": the axe
 * lies on the floor at the orc's square, out of its hand and off its
 * belt: a Draw of it is refused, the map marks it. */
Test(alloy_objects, knocked_weapon_lies_in_its_space_004_441) {
    int a, b;
    fixture *f = setup(&a, &b, 2, 2, 3, 2, 0);
    af_go(f);
    fa_command h = af_target(FA_CMD_HELD_OBJECT, a, b);
    cr_assert_eq(af_do_dice(f, &h, (int[]){19}, 1), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[b].wield, -1);
    cr_assert_eq(f->st.n_floor, 1);
    cr_assert_eq(f->st.floor[0].owner, b);
    cr_assert_eq(f->st.floor[0].slot, O_AXE);
    cr_assert_eq(f->st.floor[0].at.x, 3);
    cr_assert_eq(f->st.floor[0].at.y, 2);
    cr_assert_not_null(af_fact(f, FA_FACT_DROP, a));
    af_end_turn(f);
    fa_command d = draw_cmd(b, O_AXE, 0);
    cr_assert_eq(af_do(f, &d), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "orc 1's axe lies on the floor at 3,2: pick it up");
    char map[8192];
    fa_draw_map(&f->s, &f->st, map, sizeof map);
    cr_assert(strstr(map, "(/: on the floor: orc 1's axe at 3,2)"), "%s", map);
    /* a miss leaves it in hand (004:442) */
    free(f);
}

/* 004:445 "If you use an unarmed attack you may choose to hold the object
 * yourself": Tony, empty-handed, takes the orc's axe; he then strikes
 * with its 1d6, proficient because his block is proficient with a blade
 * (fray's reading: the group); armed, he may not take. */
Test(alloy_objects, unarmed_attacker_takes_the_weapon_004_445) {
    int a, b;
    fixture *f = setup(&a, &b, 2, 2, 3, 2, 0);
    af_go(f);
    fa_command h = af_target(FA_CMD_HELD_OBJECT, a, b);
    h.option = 1;
    cr_assert_eq(af_do(f, &h), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "unarmed"), "%s", f->why);
    f->st.c[a].wield = -1;
    cr_assert_eq(af_do_dice(f, &h, (int[]){19}, 1), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[b].wield, -1);
    cr_assert_eq(f->st.n_floor, 0, "taken, not dropped");
    cr_assert_eq(f->st.c[a].taken_owner1, b + 1);
    cr_assert_eq(f->st.c[a].taken_slot, O_AXE);
    cr_assert_not_null(af_fact(f, FA_FACT_TAKE, a));
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, true);
    cr_assert_eq(L.dice.sides, 6, "the axe's dice");
    cr_assert_eq(L.proficiency_lost, 0);
    cr_assert_eq(L.attack_bonus, 2, "proficient: a blade, as his sword");
    f->s.sb[f->s.c[a].sb].weapons[T_SWORD].proficient = false;
    L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, true);
    cr_assert_eq(L.proficiency_lost, 2, "no blade he is proficient with (004:57)");
    cr_assert_eq(L.attack_bonus, 0);
    /* the orc holds nothing now */
    af_end_turn(f);
    fa_command back = af_target(FA_CMD_HELD_OBJECT, b, a);
    back.option = 1;
    cr_assert_eq(af_do_dice(f, &back, (int[]){19}, 1), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[b].wield, O_AXE, "its own axe back in hand");
    cr_assert_eq(f->st.c[a].taken_owner1, 0);
    free(f);
}

/* 004:622-626 Manipulate an Object, "picking up an object on the floor"
 * (a swift action, no opportunity attack, 004:333): from its square or
 * an adjacent one, into its hand. */
Test(alloy_objects, pick_up_in_reach_004_624) {
    int a, b;
    fixture *f = setup(&a, &b, 2, 2, 3, 2, 0);
    af_go(f);
    fa_command h = af_target(FA_CMD_HELD_OBJECT, a, b);
    cr_assert_eq(af_do_dice(f, &h, (int[]){19}, 1), FRAY_OK, "%s", f->why);
    af_end_turn(f);
    /* two squares away: refused */
    f->st.c[b].fp.at = (fray_pos){5, 2};
    fa_command p = af_cmd(FA_CMD_DRAW, b);
    p.option = FA_OBJ_PICK_UP + O_AXE;
    p.n_targets = 1;
    p.targets[0] = (int8_t)b;
    p.origin = (fray_pos){3, 2};
    cr_assert_eq(af_do(f, &p), FRAY_ERR_INVALID);
    cr_assert(strstr(f->why, "in its square or next to it"), "%s", f->why);
    f->st.c[b].fp.at = (fray_pos){4, 2};
    cr_assert_eq(af_do(f, &p), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[b].wield, O_AXE);
    cr_assert_eq(f->st.n_floor, 0);
    cr_assert_eq(af_fact(f, FA_FACT_ACTION, b)->v[1], FA_ACT_SWIFT);
    cr_assert_null(af_fact(f, FA_FACT_PROVOKE, -1), "no opportunity attack (004:333)");
    cr_assert_not_null(af_fact(f, FA_FACT_PICK_UP, b));
    /* nothing left there */
    fa_command any = af_cmd(FA_CMD_DRAW, b);
    any.option = FA_OBJ_PICK_ANY;
    any.origin = (fray_pos){-1, -1};   /* no square: the engine's pick */
    cr_assert_eq(af_do(f, &any), FRAY_ERR_INVALID);
    free(f);
}

/* 004:624 picking up another's weapon: it is held as theirs; a Draw
 * lets it fall at the holder's feet (fray never stows a taken weapon). */
Test(alloy_objects, pick_up_anothers_weapon_and_let_it_fall_004_624) {
    int a, b;
    fixture *f = setup(&a, &b, 2, 2, 3, 2, 0);
    af_go(f);
    fa_command h = af_target(FA_CMD_HELD_OBJECT, a, b);
    cr_assert_eq(af_do_dice(f, &h, (int[]){19}, 1), FRAY_OK, "%s", f->why);
    af_end_turn(f);
    af_end_turn(f);  /* Tony's turn again */
    fa_command ho = draw_cmd(a, -1, 0);   /* Holster */
    cr_assert_eq(af_do(f, &ho), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].wield, -1);
    fa_command any = af_cmd(FA_CMD_DRAW, a);
    any.option = FA_OBJ_PICK_ANY;
    any.origin = (fray_pos){-1, -1};   /* no square: the engine's pick */
    any.slot = FA_ACT_MOVE;
    cr_assert_eq(af_do(f, &any), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].taken_owner1, b + 1);
    cr_assert_not_null(fa_obj_taken(&f->s, &f->st, a));
    fa_command d = draw_cmd(a, T_SWORD, 0);
    d.slot = FA_ACT_STANDARD;
    cr_assert_eq(af_do(f, &d), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].wield, T_SWORD);
    cr_assert_eq(f->st.c[a].taken_owner1, 0);
    cr_assert_eq(f->st.n_floor, 1);
    cr_assert_eq(f->st.floor[0].owner, b);
    cr_assert_eq(f->st.floor[0].at.x, 2, "at Tony's feet");
    free(f);
}

/* 004:583-589 Draw or Holster, a swift action: holstering leaves the
 * hand empty (unarmed); with nothing in hand it is refused. */
Test(alloy_objects, holster_empties_the_hand_004_583_589) {
    int a, b;
    fixture *f = setup(&a, &b, 2, 2, 3, 2, 0);
    af_go(f);
    fa_command ho = draw_cmd(a, -1, 0);
    cr_assert_eq(af_do(f, &ho), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].wield, -1);
    cr_assert_eq(af_fact(f, FA_FACT_ACTION, a)->v[1], FA_ACT_SWIFT);
    ho.slot = FA_ACT_MOVE;
    cr_assert_eq(af_do(f, &ho), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony holds no weapon");
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, true);
    cr_assert_eq(L.weapon, -1, "unarmed");
    /* the sword is stowed, drawn again (Retrieve Object is Draw, 004:335) */
    fa_command d = draw_cmd(a, T_SWORD, 0);
    d.slot = FA_ACT_MOVE;
    cr_assert_eq(af_do(f, &d), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].wield, T_SWORD);
    free(f);
}

/* 004:87, 101, 112 "one thrown weapon for each target": a knife thrown
 * leaves the hand and lands in the target's square, hit or miss (fray's
 * reading); `ammo: 1` is one more knife, drawn with a Draw; then none. */
Test(alloy_objects, thrown_weapons_are_used_up_004_87_101_112) {
    int a, b;
    fixture *f = setup(&a, &b, 2, 2, 6, 2, 1);
    f->s.c[a].wield = T_KNIFE;
    af_go(f);
    fa_command t = af_target(FA_CMD_ATTACK, a, b);
    cr_assert_eq(af_do_dice(f, &t, (int[]){2}, 1), FRAY_OK, "%s", f->why);  /* a miss */
    cr_assert_eq(f->st.c[a].wield, -1, "the knife left the hand");
    cr_assert_eq(f->st.n_floor, 1);
    cr_assert_eq(f->st.floor[0].owner, a);
    cr_assert_eq(f->st.floor[0].at.x, 6, "in the target's square, even on a miss");
    cr_assert_eq(af_fact(f, FA_FACT_LANDS, a)->v[1], 6);
    cr_assert_eq(fa_obj_stowed(&f->s, &f->st, a, T_KNIFE), 1);
    fa_command d = draw_cmd(a, T_KNIFE, 0);
    cr_assert_eq(af_do(f, &d), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].wield, T_KNIFE);
    cr_assert_eq(fa_obj_stowed(&f->s, &f->st, a, T_KNIFE), 0);
    af_end_turn(f);
    af_end_turn(f);
    cr_assert_eq(af_do_dice(f, &t, (int[]){19, 3}, 2), FRAY_OK, "%s", f->why);  /* a hit */
    cr_assert_eq(f->st.c[b].hp, 17);
    cr_assert_eq(f->st.floor[0].count, 2, "two knives at one square: one pile");
    cr_assert_eq(af_do(f, &d), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony's knife lies on the floor at 6,2: pick it up");
    /* in reach a thrown weapon strikes as a melee one and stays in hand */
    f->st.c[a].wield = T_KNIFE;
    f->st.c[a].away = 0;
    f->st.c[b].fp.at = (fray_pos){3, 2};
    af_end_turn(f);
    af_end_turn(f);
    cr_assert_eq(af_do_dice(f, &t, (int[]){2}, 1), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].wield, T_KNIFE);
    free(f);
}

/* 004:131 a fragmentation grenade: the grenade bursts, used up, not left
 * on the floor; with none left it cannot be thrown. `ammo: unlimited`
 * keeps the old count: never used up, always in hand. */
Test(alloy_objects, grenades_are_used_up_004_131) {
    int a, b;
    fixture *f = setup(&a, &b, 2, 2, 8, 2, 0);
    f->s.c[b].wield = O_GRENADE;
    af_go(f);
    af_end_turn(f);
    cr_assert_eq(f->st.cur, b);
    fa_command g = af_cmd(FA_CMD_ATTACK, b);
    g.origin = (fray_pos){2, 2};
    cr_assert_eq(af_do_dice(f, &g, (int[]){2}, 1), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[b].wield, -1);
    cr_assert_eq(f->st.n_floor, 0, "used up");
    cr_assert_eq(af_fact(f, FA_FACT_LANDS, b)->v[3], 1);
    fa_command d = draw_cmd(b, O_GRENADE, 0);
    cr_assert_eq(af_do(f, &d), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "orc 1 has no grenade left");
    /* unlimited */
    f->st.c[b].spare[O_GRENADE] = -1;
    cr_assert_eq(af_do(f, &d), FRAY_OK, "%s", f->why);
    af_end_turn(f);
    af_end_turn(f);
    cr_assert_eq(af_do_dice(f, &g, (int[]){2}, 1), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[b].wield, O_GRENADE, "unlimited: still in hand");
    free(f);
}

/* A power that throws a thrown weapon at several targets needs one for
 * each (004:87): refused with too few. */
Test(alloy_objects, one_thrown_weapon_per_target_004_87) {
    int a, b;
    fixture *f = setup(&a, &b, 2, 2, 6, 2, 0);
    int c = af_add(f, "orc 2", f->s.c[b].sb, 1, 6, 4);
    fa_statblock *sb = &f->s.sb[f->s.c[a].sb];
    sb->n_powers = 1;
    fa_power *p = &sb->powers[0];
    snprintf(p->id, FA_ID_MAX, "fan");
    snprintf(p->name, FA_NAME_MAX, "Fan of knives");
    p->action = FA_ACT_STANDARD;
    p->ability = FA_DEX;
    p->defense = FA_DEF_DEFENSE;
    p->weapon = T_KNIFE;
    p->mult = 1;
    p->ranged = true;
    p->range = 10;
    f->s.c[a].wield = T_KNIFE;
    af_go(f);
    fa_command t = af_cmd(FA_CMD_ATTACK, a);
    t.power = 0;
    t.n_targets = 2;
    t.targets[0] = (int8_t)b;
    t.targets[1] = (int8_t)c;
    cr_assert_eq(af_do(f, &t), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony has 1 of its knife left to throw, not the 2 this attack "
                             "needs (004:87)");
    f->st.c[a].spare[T_KNIFE] = 1;
    cr_assert_eq(af_do_dice(f, &t, (int[]){2, 2}, 2), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.n_floor, 2, "one knife in each target's square");
    cr_assert_eq(fa_obj_stowed(&f->s, &f->st, a, T_KNIFE), 0);
    free(f);
}

static void give_items(fixture *f, int who) {
    fa_statblock *sb = &f->s.sb[f->s.c[who].sb];
    sb->n_items = 2;
    snprintf(sb->items[0].id, FA_ID_MAX, "stim");
    snprintf(sb->items[0].name, FA_NAME_MAX, "Stim");
    sb->items[0].heals = (fa_dice){2, 8};
    sb->items[0].heal_bonus = 2;
    sb->items[0].count = 1;
    snprintf(sb->items[1].id, FA_ID_MAX, "medkit");
    snprintf(sb->items[1].name, FA_NAME_MAX, "Medkit");
    sb->items[1].surge = true;
    sb->items[1].count = 2;
}

/* 004:531-537 Consume Item, a swift action: "You must have the item in
 * hand to consume it. This generally requires drawing it." A stim heals
 * 2d8+2 (dice by hand), no further than the maximum; it is used up. */
Test(alloy_objects, consume_item_in_hand_004_535) {
    int a, b;
    fixture *f = setup(&a, &b, 2, 2, 8, 2, 0);
    give_items(f, a);
    af_go(f);
    f->st.c[a].hp = 5;
    fa_command eat = af_cmd(FA_CMD_DRAW, a);
    eat.option = FA_OBJ_CONSUME + 0;
    cr_assert_eq(af_do(f, &eat), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony must hold the Stim to consume it: draw it first (004:535)");
    fa_command d = draw_cmd(a, -1, FA_OBJ_DRAW_ITEM + 0);
    cr_assert_eq(af_do(f, &d), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].item_hand1, 1);
    cr_assert_eq(f->st.c[a].wield, T_SWORD, "a one-handed sword stays in the other hand");
    eat.slot = FA_ACT_MOVE;
    cr_assert_eq(af_do_dice(f, &eat, (int[]){3, 4}, 2), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].hp, 14, "5 + 3 + 4 + 2");
    cr_assert_eq(f->ev.dice[0].purpose, FA_DIE_HEAL);
    cr_assert_eq(af_fact(f, FA_FACT_CONSUME, a)->v[1], 0);
    cr_assert_eq(af_fact(f, FA_FACT_HEAL, a)->v[0], 9);
    af_end_turn(f);
    af_end_turn(f);
    cr_assert_eq(af_do(f, &d), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Tony has no Stim left");
    /* the medkit: a heroic surge's hit points (20 / 4 = 5), capped at 20 */
    fa_command dm = draw_cmd(a, -1, FA_OBJ_DRAW_ITEM + 1);
    cr_assert_eq(af_do(f, &dm), FRAY_OK, "%s", f->why);
    fa_command em = af_cmd(FA_CMD_DRAW, a);
    em.option = FA_OBJ_CONSUME + 1;
    em.slot = FA_ACT_MOVE;
    f->st.c[a].hp = 18;
    cr_assert_eq(af_do(f, &em), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].hp, 20, "no further than the maximum");
    cr_assert_eq(f->st.c[a].surges, 1);
    free(f);
}

/* Tactics (policy.c): disarmed, the weapon in reach is picked up
 * (004:624); out of reach, another is drawn (004:583). */
Test(alloy_objects, tactics_pick_up_or_draw_another_004_624_583) {
    int a, b;
    fixture *f = setup(&a, &b, 2, 2, 3, 2, 0);
    af_go(f);
    fa_command h = af_target(FA_CMD_HELD_OBJECT, a, b);
    cr_assert_eq(af_do_dice(f, &h, (int[]){19}, 1), FRAY_OK, "%s", f->why);
    af_end_turn(f);
    /* the orc: axe at its feet */
    fa_command c;
    cr_assert_eq(fa_choose_command(&f->s, &f->st, b, &c), FRAY_OK);
    cr_assert_eq(c.kind, FA_CMD_DRAW);
    cr_assert_eq(c.option, FA_OBJ_PICK_UP + O_AXE);
    cr_assert_eq(fa_check(&f->s, &f->st, &c, f->why, sizeof f->why), FRAY_OK, "%s", f->why);
    /* the axe far away: it draws what it has (the grenade is not melee:
     * nothing to draw, it strikes unarmed) */
    f->st.floor[0].at = (fray_pos){10, 10};
    cr_assert_eq(fa_choose_command(&f->s, &f->st, b, &c), FRAY_OK);
    cr_assert(!(c.kind == FA_CMD_DRAW && c.option >= FA_OBJ_PICK_ANY));
    cr_assert_eq(fa_check(&f->s, &f->st, &c, f->why, sizeof f->why), FRAY_OK, "%s", f->why);
    /* a block with a second melee weapon draws it */
    int club = af_weapon(f, "club", FA_WK_MELEE, 6, 1, 0);
    af_give(f, f->s.c[b].sb, club, -1);
    f->st.c[b].spare[2] = -1;
    cr_assert_eq(fa_choose_command(&f->s, &f->st, b, &c), FRAY_OK);
    cr_assert_eq(c.kind, FA_CMD_DRAW);
    cr_assert_eq(c.weapon, 2);
    cr_assert_eq(c.option, 0);
    free(f);
}

/* Tactics: bloodied with no second wind left (004:681), a healing item
 * is drawn and consumed (004:531-537). */
Test(alloy_objects, tactics_use_a_healing_item_004_535) {
    int a, b;
    fixture *f = setup(&a, &b, 2, 2, 3, 2, 0);
    give_items(f, a);
    af_go(f);
    f->st.c[a].hp = 6;
    fa_command c;
    cr_assert_eq(fa_choose_command(&f->s, &f->st, a, &c), FRAY_OK);
    cr_assert_eq(c.kind, FA_CMD_SECOND_WIND, "second wind first");
    f->st.c[a].flags |= FA_F_SECOND_WIND;
    cr_assert_eq(fa_choose_command(&f->s, &f->st, a, &c), FRAY_OK);
    cr_assert_eq(c.kind, FA_CMD_DRAW);
    cr_assert_eq(c.option, FA_OBJ_DRAW_ITEM + 0);
    cr_assert_eq(af_do(f, &c), FRAY_OK, "%s", f->why);
    cr_assert_eq(fa_choose_command(&f->s, &f->st, a, &c), FRAY_OK);
    cr_assert_eq(c.option, FA_OBJ_CONSUME + 0);
    cr_assert_eq(af_do_dice(f, &c, (int[]){1, 1}, 2), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].hp, 10);
    free(f);
}

/* The table's words (parse.c): holster, retrieve, pick-up, consume,
 * disarm ... take. */
Test(alloy_objects, table_words_004_331_333_335_445) {
    int a, b;
    fixture *f = setup(&a, &b, 2, 2, 3, 2, 0);
    give_items(f, a);
    af_go(f);
    fa_command c;
    fray_diag d;
    cr_assert_eq(fa_parse(&f->s, &f->st, "Tony holster", &c, &d), FRAY_OK, "%s", d.message);
    cr_assert_eq(c.kind, FA_CMD_DRAW);
    cr_assert_eq(c.weapon, -1);
    cr_assert_eq(c.option, 0);
    cr_assert_eq(fa_parse(&f->s, &f->st, "Tony retrieve knife", &c, &d), FRAY_OK);
    cr_assert_eq(c.weapon, T_KNIFE);
    cr_assert_eq(fa_parse(&f->s, &f->st, "Tony draw stim", &c, &d), FRAY_OK);
    cr_assert_eq(c.option, FA_OBJ_DRAW_ITEM + 0);
    cr_assert_eq(fa_parse(&f->s, &f->st, "Tony consume medkit", &c, &d), FRAY_OK);
    cr_assert_eq(c.option, FA_OBJ_CONSUME + 1);
    cr_assert_eq(fa_parse(&f->s, &f->st, "Tony pick-up", &c, &d), FRAY_OK);
    cr_assert_eq(c.option, FA_OBJ_PICK_ANY);
    cr_assert_eq(c.origin.x, -1);
    cr_assert_eq(fa_parse(&f->s, &f->st, "Tony pick-up 3,2 orc-1 axe", &c, &d), FRAY_OK,
                 "%s", d.message);
    cr_assert_eq(c.option, FA_OBJ_PICK_UP + O_AXE);
    cr_assert_eq(c.targets[0], b);
    cr_assert_eq(c.origin.x, 3);
    cr_assert_eq(fa_parse(&f->s, &f->st, "Tony disarm orc-1 take", &c, &d), FRAY_OK);
    cr_assert_eq(c.kind, FA_CMD_HELD_OBJECT);
    cr_assert_eq(c.option, 1);
    cr_assert_eq(fa_parse(&f->s, &f->st, "Tony consume stimm", &c, &d), FRAY_ERR_PARSE);
    cr_assert(strstr(d.message, "did you mean 'stim'"), "%s", d.message);
    cr_assert_eq(fa_parse(&f->s, &f->st, "Tony holster knife", &c, &d), FRAY_ERR_PARSE);
    cr_assert_eq(fa_parse(&f->s, &f->st, "Tony holstr", &c, &d), FRAY_ERR_PARSE);
    cr_assert(strstr(d.message, "did you mean 'holster'"), "%s", d.message);
    free(f);
}

/* The journal: an event of each new kind written and read back
 * (json.c), the same command and facts. */
Test(alloy_objects, journal_round_trip_004_441_624) {
    int a, b;
    fixture *f = setup(&a, &b, 2, 2, 3, 2, 0);
    af_go(f);
    fa_command h = af_target(FA_CMD_HELD_OBJECT, a, b);
    cr_assert_eq(af_do_dice(f, &h, (int[]){19}, 1), FRAY_OK, "%s", f->why);
    af_end_turn(f);
    fa_command p = af_cmd(FA_CMD_DRAW, b);
    p.option = FA_OBJ_PICK_UP + O_AXE;
    p.n_targets = 1;
    p.targets[0] = (int8_t)b;
    p.origin = (fray_pos){3, 2};
    cr_assert_eq(af_do(f, &p), FRAY_OK, "%s", f->why);
    f->ev.cmd = p;
    f->ev.round = f->st.round;
    char buf[16384];
    size_t n = fa_event_json(&f->s, &f->ev, buf, sizeof buf);
    cr_assert(n > 0 && n < sizeof buf);
    cr_assert(strstr(buf, "\"pick-up\""), "%s", buf);
    json_error_t je;
    json_t *o = json_loads(buf, 0, &je);
    cr_assert_not_null(o, "%s", je.text);
    fa_event *back = calloc(1, sizeof *back);
    char field[64], why[128];
    cr_assert_eq(fa_event_from_json(&f->s, o, back, field, sizeof field, why, sizeof why),
                 FRAY_OK, "%s: %s", field, why);
    cr_assert_eq(back->cmd.option, p.option);
    cr_assert_eq(back->cmd.origin.x, 3);
    cr_assert_eq(back->n_facts, f->ev.n_facts);
    for (int i = 0; i < back->n_facts; i++) {
        cr_assert_eq(back->facts[i].kind, f->ev.facts[i].kind);
        for (int k = 0; k < 6; k++)
            cr_assert_eq(back->facts[i].v[k], f->ev.facts[i].v[k]);
    }
    char line[512];
    fa_narrate(&f->s, &f->ev, line, sizeof line);
    cr_assert(strstr(line, "Manipulate an Object"), "%s", line);
    cr_assert(strstr(line, "orc 1 picks up its axe at 3,2."), "%s", line);
    json_decref(o);
    free(back);
    free(f);
}

/* ---- The rulings' options (docs/rules/alloy.md "Objects"), each setting ---- */

/* pick-up-reach: adjacent (default: its square or one next to it) |
 * own-square (only what lies in its own square). */
Test(alloy_objects, option_pick_up_reach_004_624) {
    int a, b;
    fixture *f = setup(&a, &b, 2, 2, 3, 2, 0);
    af_go(f);
    fa_command h = af_target(FA_CMD_HELD_OBJECT, a, b);
    cr_assert_eq(af_do_dice(f, &h, (int[]){19}, 1), FRAY_OK, "%s", f->why);
    af_end_turn(f);
    f->st.c[b].fp.at = (fray_pos){4, 2};
    fa_command any = af_cmd(FA_CMD_DRAW, b);
    any.option = FA_OBJ_PICK_ANY;
    any.origin = (fray_pos){3, 2};
    f->s.opt.pick_up_reach = FA_PICK_UP_OWN_SQUARE;
    cr_assert_eq(af_do(f, &any), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "orc 1 can pick up only what lies in its square, not at 3,2");
    f->s.opt.pick_up_reach = FA_PICK_UP_ADJACENT;
    cr_assert_eq(af_do(f, &any), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[b].wield, O_AXE);
    free(f);
}

/* taken-proficiency: group (default: proficient when the taker's block is
 * proficient with a weapon of the taken one's group) | none (never). */
Test(alloy_objects, option_taken_proficiency_004_445_57) {
    int a, b;
    fixture *f = setup(&a, &b, 2, 2, 3, 2, 0);
    af_go(f);
    f->st.c[a].wield = -1;
    fa_command h = af_target(FA_CMD_HELD_OBJECT, a, b);
    h.option = 1;
    cr_assert_eq(af_do_dice(f, &h, (int[]){19}, 1), FRAY_OK, "%s", f->why);
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, true);
    cr_assert_eq(L.proficiency_lost, 0);
    f->s.opt.taken_proficiency = FA_TAKEN_PROF_NONE;
    L = fa_attack_line_of(&f->s, &f->st, a, -1, -1, true);
    cr_assert_eq(L.proficiency_lost, 2);
    cr_assert_eq(L.dice.sides, 6, "still the axe's dice");
    free(f);
}

/* item-draw: keeps-weapon (default: the item goes into the other hand; a
 * two-handed weapon is put away) | puts-weapon-away (the hand's weapon is
 * put away, as with a weapon's Draw). */
Test(alloy_objects, option_item_draw_004_535_583) {
    int a, b;
    fixture *f = setup(&a, &b, 2, 2, 8, 2, 0);
    give_items(f, a);
    af_go(f);
    fa_command d = draw_cmd(a, -1, FA_OBJ_DRAW_ITEM + 0);
    f->s.opt.item_draw = FA_ITEM_PUTS_WEAPON_AWAY;
    cr_assert_eq(af_do(f, &d), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].wield, -1);
    cr_assert_eq(f->st.c[a].item_hand1, 1);
    f->s.opt.item_draw = FA_ITEM_KEEPS_WEAPON;
    f->st.c[a].wield = T_SWORD;
    f->st.c[a].item_hand1 = 0;
    d.slot = FA_ACT_MOVE;
    cr_assert_eq(af_do(f, &d), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].wield, T_SWORD);
    /* a two-handed sword is put away even so */
    f->s.weapons[f->s.sb[f->s.c[a].sb].weapons[T_SWORD].weapon].hands = 2;
    f->st.c[a].item_hand1 = 0;
    d.slot = FA_ACT_STANDARD;
    cr_assert_eq(af_do(f, &d), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[a].wield, -1);
    free(f);
}

/* The options by file and by sweep (--vary key=value), and the items of
 * examples/alloy/disarm.yaml (docs/file-formats.md "Alloy stat blocks"). */
Test(alloy_objects, options_and_items_load_004_531) {
    fray_diag d;
    memset(&d, 0, sizeof d);
    fa_setup *s = NULL;
    cr_assert_eq(fa_load(FRAY_SOURCE_DIR "/examples/alloy/disarm.yaml", NULL, &s, &d),
                 FRAY_OK, "%s:%d:%d: %s", d.file ? d.file : "?", d.line, d.column, d.message);
    cr_expect_eq(s->opt.pick_up_reach, FA_PICK_UP_ADJACENT);
    cr_expect_eq(s->opt.taken_proficiency, FA_TAKEN_PROF_GROUP);
    cr_expect_eq(s->opt.item_draw, FA_ITEM_KEEPS_WEAPON);
    cr_expect_eq(fa_setup_vary(s, "pick-up-reach", "own-square", &d), FRAY_OK);
    cr_expect_eq(s->opt.pick_up_reach, FA_PICK_UP_OWN_SQUARE);
    cr_expect_eq(fa_setup_vary(s, "taken-proficiency", "none", &d), FRAY_OK);
    cr_expect_eq(s->opt.taken_proficiency, FA_TAKEN_PROF_NONE);
    cr_expect_eq(fa_setup_vary(s, "item-draw", "puts-weapon-away", &d), FRAY_OK);
    cr_expect_eq(s->opt.item_draw, FA_ITEM_PUTS_WEAPON_AWAY);
    cr_expect_eq(fa_setup_vary(s, "item-draw", "sometimes", &d), FRAY_ERR_PARSE);
    cr_expect(strstr(d.message, "keeps-weapon or puts-weapon-away"), "%s", d.message);
    const fa_statblock *medic = NULL, *kit = NULL;
    for (int i = 0; i < s->n_sb; i++) {
        if (strcmp(s->sb[i].name, "Medic") == 0)
            medic = &s->sb[i];
        if (strcmp(s->sb[i].name, "Knife thrower") == 0)
            kit = &s->sb[i];
    }
    cr_assert(medic && kit);
    cr_expect_eq(medic->n_items, 2);
    cr_expect_str_eq(medic->items[0].id, "stim");
    cr_expect_eq(medic->items[0].heals.n, 2);
    cr_expect_eq(medic->items[0].heals.sides, 8);
    cr_expect_eq(medic->items[0].heal_bonus, 2);
    cr_expect_eq(medic->items[0].count, 1);
    cr_expect(medic->items[1].surge);
    cr_expect_eq(kit->weapons[0].ammo, 2, "two more knives besides the one listed");
    fa_setup_free(s);
    /* the item catalog (data/alloy/items.yaml), and a block's count */
    s = NULL;
    cr_assert_eq(fa_load(FRAY_SOURCE_DIR "/data/alloy/items.yaml", NULL, &s, &d), FRAY_ERR_PARSE,
                 "a catalog alone is no encounter");
    cr_assert_eq(fa_check_file(FRAY_SOURCE_DIR "/data/alloy/items.yaml", &d), FRAY_OK, "%s",
                 d.message);
    cr_expect_str_eq(d.message, "Alloy catalog: 0 weapons, 2 items");
}

/* A bad item is refused at its place, in the file's words. */
Test(alloy_objects, bad_items_refused_at_their_place) {
    static const struct { const char *file; int line, col; const char *words; } cases[] = {
        {"bad_item_both.yaml", 11, 9, "heals either its dice (heals: 2d8+2) or a heroic surge"},
        {"bad_item_dice.yaml", 11, 29, "expected the hit points it heals (such as 2d8+2), got '2x8'"},
        {"bad_item_unknown.yaml", 10, 13, "unknown item 'stimm' (did you mean 'stim'?)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fray_diag d;
        memset(&d, 0, sizeof d);
        fa_setup *s = NULL;
        char path[512];
        snprintf(path, sizeof path, FRAY_SOURCE_DIR "/tests/data/alloy/%s", cases[i].file);
        cr_expect_neq(fa_load(path, NULL, &s, &d), FRAY_OK, "%s", cases[i].file);
        cr_expect_eq(d.line, cases[i].line, "%s: line %d: %s", cases[i].file, d.line, d.message);
        cr_expect_eq(d.column, cases[i].col, "%s: column %d: %s", cases[i].file, d.column,
                     d.message);
        cr_expect(strstr(d.message, cases[i].words), "%s: %s", cases[i].file, d.message);
        fa_setup_free(s);
    }
}

/* Knives are neither made nor lost (004:87, 101, 112): through whole
 * fights chosen by the tactics (the dice drawn from 40 seeds), every one
 * of a thrower's knives is always in its hand, carried, or on the floor,
 * the tactics' every command passes the rules, and the journal of each
 * event reads back. */
Test(alloy_objects, knives_conserved_in_whole_fights_004_87_101_112) {
    int all_thrown = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        int a, b;
        fixture *f = setup(&a, &b, 2, 2, 9, 2, 2);   /* three knives */
        int c = af_add(f, "orc 2", f->s.c[b].sb, 1, 9, 6);
        f->s.c[c].wield = O_AXE;
        f->s.c[a].wield = T_KNIFE;
        fa_state_init(&f->s, &f->st, seed, 0);
        af_event(f);
        fa_command begin = af_cmd(FA_CMD_BEGIN, -1);
        cr_assert_eq(fa_apply(&f->r, &begin), FRAY_OK);
        int thrown = 0;
        for (int step = 0; step < 400 && !f->st.over; step++) {
            int who = fa_actor(&f->s, &f->st);
            fa_command cmd;
            if (who < 0)
                cmd = af_cmd(FA_CMD_NEXT, -1);
            else
                cr_assert_eq(fa_choose_command(&f->s, &f->st, who, &cmd), FRAY_OK);
            fray_status st = af_do(f, &cmd);
            cr_assert_eq(st, FRAY_OK, "seed %d step %d: %s", (int)seed, step, f->why);
            thrown += af_count_facts(f, FA_FACT_LANDS);
            const fa_cstate *t = &f->st.c[a];
            int on_floor = 0;
            for (int i = 0; i < f->st.n_floor; i++)
                if (f->st.floor[i].owner == a && f->st.floor[i].slot == T_KNIFE)
                    on_floor += f->st.floor[i].count;
            int held_by_other = 0;
            for (int j = 0; j < f->st.n; j++)
                held_by_other += f->st.c[j].taken_owner1 == a + 1 &&
                                 f->st.c[j].taken_slot == T_KNIFE;
            int total = (t->wield == T_KNIFE ? 1 : 0) +
                        fa_obj_stowed(&f->s, &f->st, a, T_KNIFE) + on_floor + held_by_other;
            cr_assert_eq(total, 3, "seed %d step %d: knives %d", (int)seed, step, total);
            /* each event's journal line reads back */
            f->ev.cmd = cmd;
            char buf[65536];
            size_t n = fa_event_json(&f->s, &f->ev, buf, sizeof buf);
            cr_assert(n > 0 && n < sizeof buf);
            json_error_t je;
            json_t *o = json_loads(buf, 0, &je);
            cr_assert_not_null(o, "%s", je.text);
            static fa_event back;
            char field[64], why[128];
            cr_assert_eq(fa_event_from_json(&f->s, o, &back, field, sizeof field, why,
                                            sizeof why),
                         FRAY_OK, "%s: %s", field, why);
            json_decref(o);
        }
        all_thrown += thrown;
        free(f);
    }
    cr_assert(all_thrown >= 40, "the fights threw knives (%d)", all_thrown);
}

/* The floor holds 64 piles; one more stops the fight with an error (no
 * weapon lost without a word); the same weapon at one square is one pile. */
Test(alloy_objects, floor_piles_limit) {
    int a, b;
    fixture *f = setup(&a, &b, 2, 2, 3, 2, 0);
    af_go(f);
    af_event(f);
    for (int i = 0; i < FA_MAX_FLOOR; i++)
        cr_assert_eq(fa_obj_floor_add(&f->r, a, T_KNIFE, (fray_pos){(int16_t)(i % 16),
                                                                    (int16_t)(i / 16)}, 1),
                     FRAY_OK);
    cr_assert_eq(fa_obj_floor_add(&f->r, a, T_KNIFE, (fray_pos){0, 0}, 1), FRAY_OK);
    cr_assert_eq(f->st.floor[0].count, 2);
    cr_assert_eq(fa_obj_floor_add(&f->r, a, T_KNIFE, (fray_pos){0, 5}, 1), FRAY_ERR_RANGE);
    cr_assert_eq(f->r.failed, FRAY_ERR_RANGE);
    free(f);
}
