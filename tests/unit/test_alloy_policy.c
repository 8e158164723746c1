/*
 * test_alloy_policy.c - Alloy tactics (policy.c): what a gamemaster would
 * recognise, one command at a time, and (once the engine is merged) that
 * every command the tactics give passes fa_check over many seeded random
 * fights.
 */
#include "alloy_tactics_fixture.h"
#include "fray/rng.h"

typedef struct world {
    at_fixture *f;
    int sword, pistol;
    int hero, orc;       /* blocks */
} world;

static world make_world(void) {
    world w;
    w.f = at_new(20, 20);
    w.sword = at_weapon(w.f, "sword", 1, 8, 2, 0, 0, 0);
    w.pistol = at_weapon(w.f, "pistol", 2, 6, 1, 10, 0, 0);
    w.f->s.weapons[w.pistol].magazine = 6;
    w.hero = at_block(w.f, "hero", 20, 15, 2, 3, 1, 1, w.sword);
    w.orc = at_block(w.f, "orc", 12, 13, 1, 2, 0, 0, w.sword);
    return w;
}

static fa_command choose(world *w, int who) {
    fa_command c;
    cr_assert_eq(fa_choose_command(&w->f->s, &w->f->st, who, &c), FRAY_OK);
    cr_assert_eq(c.actor, who);
    return c;
}

static void expect_kind(const fa_command *c, fa_cmd_kind kind) {
    cr_assert_eq(c->kind, kind, "command %d, expected %d", c->kind, kind);
}

/* Two commands alike in every field that is read (the path up to n_path). */
static bool same_cmd(const fa_command *a, const fa_command *b) {
    return a->kind == b->kind && a->actor == b->actor && a->slot == b->slot &&
           a->power == b->power && a->weapon == b->weapon &&
           a->option == b->option && a->n_targets == b->n_targets &&
           memcmp(a->targets, b->targets, sizeof a->targets) == 0 &&
           a->origin.x == b->origin.x && a->origin.y == b->origin.y &&
           a->n_path == b->n_path &&
           memcmp(a->path, b->path, a->n_path * sizeof a->path[0]) == 0 &&
           memcmp(&a->ready, &b->ready, sizeof a->ready) == 0;
}

/* Focus the weakest reachable enemy: lowest hit points. */
Test(alloy_policy, focus_the_weakest) {
    world w = make_world();
    int hero = at_add(w.f, "hero", w.hero, 0, 5, 5);
    at_add(w.f, "orc-1", w.orc, 1, 6, 5);
    int weak = at_add(w.f, "orc-2", w.orc, 1, 5, 6);
    at_state(w.f, hero);
    w.f->st.c[weak].hp = 4;
    fa_command c = choose(&w, hero);
    expect_kind(&c, FA_CMD_ATTACK);
    cr_assert_eq(c.n_targets, 1);
    cr_assert_eq(c.targets[0], weak);
    cr_assert_eq(c.power, -1);
    cr_assert_eq(c.slot, FA_ACT_STANDARD);
    /* the same state, the same command (no dice in tactics) */
    fa_command again = choose(&w, hero);
    cr_assert(same_cmd(&c, &again));
    free(w.f);
}

/* Ties on hit points go to the nearest (a shooter sees both). */
Test(alloy_policy, ties_go_to_the_nearest) {
    world w = make_world();
    w.f->s.sb[w.hero].weapons[0].weapon = (int16_t)w.pistol;
    int hero = at_add(w.f, "hero", w.hero, 0, 5, 5);
    at_add(w.f, "orc-far", w.orc, 1, 12, 5);
    int near = at_add(w.f, "orc-near", w.orc, 1, 9, 5);
    at_state(w.f, hero);
    fa_command c = choose(&w, hero);
    expect_kind(&c, FA_CMD_ATTACK);
    cr_assert_eq(c.targets[0], near);
    /* a weaker one further away is preferred */
    w.f->st.c[1].hp = 5;
    c = choose(&w, hero);
    cr_assert_eq(c.targets[0], 1);
    free(w.f);
}

/* 004:721-728, 982-989: a prone combatant stands up (a move action). */
Test(alloy_policy, stands_when_prone_004_721) {
    world w = make_world();
    int hero = at_add(w.f, "hero", w.hero, 0, 5, 5);
    at_add(w.f, "orc", w.orc, 1, 6, 5);
    at_state(w.f, hero);
    at_cond(w.f, hero, FA_C_PRONE);
    fa_command c = choose(&w, hero);
    expect_kind(&c, FA_CMD_STAND);
    cr_assert_eq(c.slot, FA_ACT_MOVE);
    /* the move spent: the standard pays for it (004:289) */
    w.f->st.c[hero].slots = FA_SLOT_STANDARD;
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_STAND);
    cr_assert_eq(c.slot, FA_ACT_STANDARD);
    free(w.f);
}

/* 004:727-728: a friend stands where it lies: it stands up with an
 * adjust of 5 feet, to a free square next to the enemy. */
Test(alloy_policy, stands_aside_when_its_square_is_taken_004_727) {
    world w = make_world();
    int hero = at_add(w.f, "hero", w.hero, 0, 5, 5);
    at_add(w.f, "friend", w.hero, 0, 5, 5);
    at_add(w.f, "orc", w.orc, 1, 7, 5);
    at_state(w.f, hero);
    at_cond(w.f, hero, FA_C_PRONE);
    fa_command c = choose(&w, hero);
    expect_kind(&c, FA_CMD_STAND);
    cr_assert_eq(c.n_path, 1);
    cr_assert_eq(c.path[0].x, 6);
    cr_assert_eq(c.path[0].y, 5);
    free(w.f);
}

/* 004:673-681: second wind when bloodied with a surge left and unused;
 * aggressive tactics attack instead. */
Test(alloy_policy, second_wind_when_bloodied_004_675) {
    world w = make_world();
    w.f->s.sb[w.hero].surges = 2;
    int hero = at_add(w.f, "hero", w.hero, 0, 5, 5);
    int orc = at_add(w.f, "orc", w.orc, 1, 6, 5);
    at_state(w.f, hero);
    w.f->st.c[hero].hp = 11; /* not bloodied: 11 > 20 / 2 */
    fa_command c = choose(&w, hero);
    expect_kind(&c, FA_CMD_ATTACK);
    w.f->st.c[hero].hp = 10;
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_SECOND_WIND);
    cr_assert_eq(c.slot, FA_ACT_STANDARD);
    /* once per encounter */
    w.f->st.c[hero].flags |= FA_F_SECOND_WIND;
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_ATTACK);
    cr_assert_eq(c.targets[0], orc);
    w.f->st.c[hero].flags = 0;
    w.f->s.c[hero].tactics = FA_TACTICS_AGGRESSIVE;
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_ATTACK);
    free(w.f);
}

/* 004:517-527: charge when the nearest attack square is 2..speed squares
 * straight ahead; the path ends next to the target. */
Test(alloy_policy, charges_in_a_straight_line_004_525) {
    world w = make_world();
    int hero = at_add(w.f, "hero", w.hero, 0, 2, 5);
    int orc = at_add(w.f, "orc", w.orc, 1, 7, 5);
    at_state(w.f, hero);
    fa_command c = choose(&w, hero);
    expect_kind(&c, FA_CMD_CHARGE);
    cr_assert_eq(c.targets[0], orc);
    cr_assert_eq(c.n_path, 4);
    cr_assert_eq(c.path[3].x, 6);
    cr_assert_eq(c.path[3].y, 5);
    /* a wall across the way: no straight approach, a walk instead */
    for (int y = 2; y <= 8; y++)
        w.f->s.map.terrain[y][4] = FRAY_TERRAIN_WALL;
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_WALK);
    cr_assert_eq(c.slot, FA_ACT_MOVE);
    free(w.f);
}

/* Far away: walk with the move action, then with the standard (trading
 * down, 004:289) when no attack can be made. */
Test(alloy_policy, walks_then_trades_the_standard_004_289) {
    world w = make_world();
    int hero = at_add(w.f, "hero", w.hero, 0, 1, 5);
    at_add(w.f, "orc", w.orc, 1, 18, 5);
    at_state(w.f, hero);
    fa_command c = choose(&w, hero);
    expect_kind(&c, FA_CMD_WALK);
    cr_assert_eq(c.slot, FA_ACT_MOVE);
    cr_assert_eq(c.n_path, 6);
    cr_assert_eq(c.path[5].x, 7);
    /* moved: walk again with the standard action */
    w.f->st.c[hero].fp.at.x = 7;
    w.f->st.c[hero].moved = 6;
    w.f->st.c[hero].slots = FA_SLOT_STANDARD | FA_SLOT_SWIFT;
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_WALK);
    cr_assert_eq(c.slot, FA_ACT_STANDARD);
    free(w.f);
}

/* 004:794-804: with an ally next to the target, walk to the square
 * across from it (flanking) rather than charge. */
Test(alloy_policy, moves_to_flank_004_794) {
    world w = make_world();
    int hero = at_add(w.f, "hero", w.hero, 0, 10, 3);
    at_add(w.f, "friend", w.hero, 0, 6, 5);
    int orc = at_add(w.f, "orc", w.orc, 1, 7, 5);
    at_state(w.f, hero);
    fa_command c = choose(&w, hero);
    expect_kind(&c, FA_CMD_WALK);
    cr_assert_gt(c.n_path, 0);
    fray_pos end = c.path[c.n_path - 1];
    cr_assert_eq(end.x, 8);
    cr_assert_eq(end.y, 5);
    fray_footprint me = {end, 1}, fr = {{6, 5}, 1}, t = {{7, 5}, 1};
    cr_assert(fray_grid_flanks(&w.f->s.map, t, me, fr));
    (void)orc;
    /* already next to it but not across: a shift into the flank */
    w.f->st.c[hero].fp.at = (fray_pos){8, 4};
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_SHIFT);
    cr_assert_eq(c.n_path, 1);
    cr_assert_eq(c.path[0].x, 8);
    cr_assert_eq(c.path[0].y, 5);
    free(w.f);
}

static int add_power(world *w, int block, uint8_t area, int size) {
    fa_statblock *b = &w->f->s.sb[block];
    fa_power *pw = &b->powers[b->n_powers];
    memset(pw, 0, sizeof *pw);
    snprintf(pw->id, sizeof pw->id, "sweep");
    snprintf(pw->name, sizeof pw->name, "Sweep");
    pw->action = FA_ACT_STANDARD;
    pw->usage = FA_AT_WILL;
    pw->ability = FA_STR;
    pw->defense = FA_DEF_REFLEX;
    pw->weapon = 0;
    pw->mult = 1;
    pw->area = area;
    pw->area_size = (int8_t)size;
    return b->n_powers++;
}

/* 004:94-137: an area attack when it hits two or more enemies and no
 * ally: a close burst 1 between two orcs; not with a friend inside. */
Test(alloy_policy, area_on_two_enemies_no_ally_004_131) {
    world w = make_world();
    int pw = add_power(&w, w.hero, FA_AREA_CLOSE_BURST, 1);
    int hero = at_add(w.f, "hero", w.hero, 0, 5, 5);
    at_add(w.f, "orc-1", w.orc, 1, 6, 5);
    at_add(w.f, "orc-2", w.orc, 1, 4, 5);
    at_state(w.f, hero);
    fa_command c = choose(&w, hero);
    expect_kind(&c, FA_CMD_ATTACK);
    cr_assert_eq(c.power, pw);
    cr_assert_eq(c.n_targets, 2);
    /* one orc alone: the basic attack */
    w.f->st.c[2].flags |= FA_F_OUT;
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_ATTACK);
    cr_assert_eq(c.power, -1);
    w.f->st.c[2].flags = 0;
    /* a friend in the burst: no area attack */
    at_add(w.f, "friend", w.hero, 0, 5, 6);
    at_state(w.f, hero);
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_ATTACK);
    cr_assert_eq(c.power, -1);
    free(w.f);
}

/* 004:125: a blast 2 placed on two orcs (not on the user's square). */
Test(alloy_policy, blast_placement_004_125) {
    world w = make_world();
    int pw = add_power(&w, w.hero, FA_AREA_BLAST, 2);
    int hero = at_add(w.f, "hero", w.hero, 0, 5, 5);
    at_add(w.f, "orc-1", w.orc, 1, 6, 5);
    at_add(w.f, "orc-2", w.orc, 1, 7, 6);
    at_state(w.f, hero);
    fa_command c = choose(&w, hero);
    expect_kind(&c, FA_CMD_ATTACK);
    cr_assert_eq(c.power, pw);
    cr_assert_eq(c.n_targets, 2);
    fray_area a;
    cr_assert_eq(fray_area_blast(&w.f->s.map, w.f->st.c[hero].fp, 2, c.origin, &a),
                 FRAY_OK);
    cr_assert(fray_area_has(&a, (fray_pos){6, 5}));
    cr_assert(fray_area_has(&a, (fray_pos){7, 6}));
    free(w.f);
}

/* 004:90: a shooter next to an enemy shifts away (no opportunity
 * attack) and then shoots; empty, it reloads (a swift action, 004:334). */
Test(alloy_policy, shooter_keeps_its_distance_004_90) {
    world w = make_world();
    w.f->s.sb[w.hero].weapons[0].weapon = (int16_t)w.pistol;
    int hero = at_add(w.f, "hero", w.hero, 0, 5, 5);
    int orc = at_add(w.f, "orc", w.orc, 1, 6, 5);
    at_state(w.f, hero);
    fa_command c = choose(&w, hero);
    expect_kind(&c, FA_CMD_SHIFT);
    cr_assert_eq(c.n_path, 1);
    fray_footprint to = {c.path[0], 1};
    cr_assert_not(fray_grid_adjacent(to, w.f->st.c[orc].fp));
    w.f->st.c[hero].fp.at = c.path[0];
    w.f->st.c[hero].moved = 1;
    w.f->st.c[hero].slots = FA_SLOT_STANDARD | FA_SLOT_SWIFT;
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_ATTACK);
    cr_assert_eq(c.targets[0], orc);
    cr_assert_eq(c.weapon, 0);
    /* empty magazine: reload first */
    w.f->st.c[hero].ammo[0] = 0;
    w.f->st.c[hero].spare[0] = -1;
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_RELOAD);
    cr_assert_eq(c.slot, FA_ACT_SWIFT);
    free(w.f);
}

/* 004:583-589: out of ammunition (empty and none carried), a shooter
 * draws its knife (a swift action) and fights with it; empty-handed with
 * nothing to draw, it strikes unarmed. */
Test(alloy_policy, draws_a_blade_when_out_of_ammunition_004_583) {
    world w = make_world();
    fa_statblock *b = &w.f->s.sb[w.hero];
    b->weapons[0].weapon = (int16_t)w.pistol;
    b->weapons[1].weapon = (int16_t)w.sword;
    b->weapons[1].proficient = true;
    b->n_weapons = 2;
    int hero = at_add(w.f, "hero", w.hero, 0, 5, 5);
    int orc = at_add(w.f, "orc", w.orc, 1, 12, 5);
    at_state(w.f, hero);
    w.f->st.c[hero].ammo[0] = 0;
    w.f->st.c[hero].spare[0] = 0;
    fa_command c = choose(&w, hero);
    expect_kind(&c, FA_CMD_DRAW);
    cr_assert_eq(c.weapon, 1);
    cr_assert_eq(c.slot, FA_ACT_SWIFT);
    /* rounds carried: reload instead */
    w.f->st.c[hero].spare[0] = 12;
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_RELOAD);
    /* empty-handed next to the orc with nothing to draw: unarmed */
    b->n_weapons = 1;
    w.f->st.c[hero].wield = -1;
    w.f->st.c[hero].fp.at = (fray_pos){11, 5};
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_ATTACK);
    cr_assert_eq(c.targets[0], orc);
    cr_assert_eq(c.weapon, -1);
    free(w.f);
}

/* A power that strikes with a weapon the combatant carries but does not
 * hold (a sword, the club in hand) is not chosen: the engine refuses it ("does not hold the ..."), and
 * a simulation would stop on that refusal (found with a Mercenary holding
 * its pistol, whose Stunning blow needs the baton). */
Test(alloy_policy, no_power_with_a_weapon_not_in_hand) {
    world w = make_world();
    fa_statblock *b = &w.f->s.sb[w.hero];
    int club = at_weapon(w.f, "club", 1, 6, 2, 0, 0, 0);
    b->weapons[0].weapon = (int16_t)club;
    b->weapons[1].weapon = (int16_t)w.sword;
    b->weapons[1].proficient = true;
    b->n_weapons = 2;
    int k = add_power(&w, w.hero, FA_AREA_NONE, 0);
    b->powers[k].weapon = 1;             /* the sword, not in hand */
    b->powers[k].damage_bonus = 20;      /* so much better than the pistol */
    b->powers[k].defense = FA_DEF_DEFENSE;
    int hero = at_add(w.f, "hero", w.hero, 0, 5, 5);
    int orc = at_add(w.f, "orc", w.orc, 1, 6, 5);
    at_state(w.f, hero);
    cr_assert_eq(w.f->st.c[hero].wield, 0, "the club in hand");
    fa_command c = choose(&w, hero);
    cr_assert(c.kind != FA_CMD_ATTACK || c.power != k, "the sword's power, sword not held");
    char why[256];
    cr_assert_eq(fa_check(&w.f->s, &w.f->st, &c, why, sizeof why), FRAY_OK, "%s", why);
    /* With the sword in hand the power is the choice. */
    w.f->st.c[hero].wield = 1;
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_ATTACK);
    cr_assert_eq(c.power, k);
    cr_assert_eq(c.targets[0], orc);
    free(w.f);
}

/* 004:291: an action point for a second attack when the enemy is low
 * (one hit can drop it); aggressive tactics spend it anyway. */
Test(alloy_policy, action_point_when_enemy_low_004_291) {
    world w = make_world();
    w.f->s.sb[w.hero].action_points = 1;
    int hero = at_add(w.f, "hero", w.hero, 0, 5, 5);
    int orc = at_add(w.f, "orc", w.orc, 1, 6, 5);
    at_state(w.f, hero);
    w.f->st.c[hero].slots = FA_SLOT_MOVE | FA_SLOT_SWIFT;
    w.f->st.c[orc].hp = 11; /* 1d8 + 3 can deal 11 */
    fa_command c = choose(&w, hero);
    expect_kind(&c, FA_CMD_SPEND_AP);
    w.f->st.c[orc].hp = 12;
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_END_TURN);
    w.f->s.c[hero].tactics = FA_TACTICS_AGGRESSIVE;
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_SPEND_AP);
    /* one a turn (RULINGS default ap-per-turn 1) */
    w.f->st.c[hero].ap_spent = 1;
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_END_TURN);
    free(w.f);
}

/* 004:927: Dazed, one action a round: no action point after it. */
Test(alloy_policy, no_action_point_when_dazed_004_927) {
    world w = make_world();
    w.f->s.sb[w.hero].action_points = 1;
    int hero = at_add(w.f, "hero", w.hero, 0, 5, 5);
    w.f->s.c[hero].tactics = FA_TACTICS_AGGRESSIVE;
    at_add(w.f, "orc", w.orc, 1, 6, 5);
    at_state(w.f, hero);
    w.f->st.c[hero].slots = FA_SLOT_MOVE | FA_SLOT_SWIFT;
    fa_command c = choose(&w, hero);
    expect_kind(&c, FA_CMD_SPEND_AP);
    at_cond(w.f, hero, FA_C_DAZED);
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_END_TURN);
    free(w.f);
}

/* Cautious, bloodied, no surge: step away, then total defense
 * (004:743-749). */
Test(alloy_policy, cautious_retreats_and_defends_004_749) {
    world w = make_world();
    int hero = at_add(w.f, "hero", w.hero, 0, 5, 5);
    int orc = at_add(w.f, "orc", w.orc, 1, 6, 5);
    w.f->s.c[hero].tactics = FA_TACTICS_CAUTIOUS;
    at_state(w.f, hero);
    w.f->st.c[hero].hp = 6;
    fa_command c = choose(&w, hero);
    expect_kind(&c, FA_CMD_SHIFT);
    fray_footprint to = {c.path[0], 1};
    cr_assert_not(fray_grid_adjacent(to, w.f->st.c[orc].fp));
    w.f->st.c[hero].fp.at = c.path[0];
    w.f->st.c[hero].moved = 1;
    w.f->st.c[hero].slots = FA_SLOT_STANDARD | FA_SLOT_SWIFT;
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_TOTAL_DEFENSE);
    /* not bloodied: it fights */
    w.f->st.c[hero].hp = 20;
    w.f->st.c[hero].fp.at = (fray_pos){5, 5};
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_ATTACK);
    free(w.f);
}

/* Nothing to do when it cannot act (004:1009-1021, 953). */
Test(alloy_policy, no_actions_when_stunned_or_dying) {
    world w = make_world();
    int hero = at_add(w.f, "hero", w.hero, 0, 5, 5);
    at_add(w.f, "orc", w.orc, 1, 6, 5);
    at_state(w.f, hero);
    at_cond(w.f, hero, FA_C_STUNNED);
    fa_command c = choose(&w, hero);
    expect_kind(&c, FA_CMD_END_TURN);
    at_state(w.f, hero);
    w.f->st.c[hero].flags |= FA_F_OUT;
    c = choose(&w, hero);
    expect_kind(&c, FA_CMD_END_TURN);
    free(w.f);
}

/* ---- Every command passes fa_check ------------------------------------------- */

/* Many seeded random fights on random maps (walls, 2 to 6 fighters:
 * swordsmen, shooters with magazines, a close burst knocking prone, an
 * encounter blast dazing, action points, the three tactics): every command the tactics give passes fa_check,
 * and the fights end. */
Test(alloy_policy, every_command_passes_fa_check) {
    for (uint64_t seed = 1; seed <= 400; seed++) {
        fray_rng rng;
        fray_rng_seed(&rng, seed, 0);
        world w = make_world();
        fray_grid *g = &w.f->s.map;
        fray_grid_init(g, 14, 14);
        int walls = (int)fray_rng_below(&rng, 20);
        for (int k = 0; k < walls; k++)
            g->terrain[fray_rng_below(&rng, 14)][fray_rng_below(&rng, 14)] =
                FRAY_TERRAIN_WALL;
        w.f->s.sb[w.hero].surges = 1;
        w.f->s.sb[w.hero].action_points = 1;
        int gunner = at_block(w.f, "gunner", 14, 14, 1, 0, 3, 2, w.pistol);
        w.f->s.sb[gunner].action_points = 1;
        w.f->s.sb[gunner].weapons[0].ammo = 6;
        int brute = at_block(w.f, "brute", 18, 12, 1, 3, 0, 0, w.sword);
        add_power(&w, brute, FA_AREA_CLOSE_BURST, 1);
        w.f->s.sb[brute].powers[0].n_effects = 1;
        w.f->s.sb[brute].powers[0].effects[0] =
            (fa_effect_def){FA_C_PRONE, FA_ENDS_EVENT, 0};
        int sapper = at_block(w.f, "sapper", 14, 13, 1, 1, 2, 1, w.sword);
        add_power(&w, sapper, FA_AREA_BLAST, 2);
        w.f->s.sb[sapper].powers[0].usage = FA_ENCOUNTER;
        w.f->s.sb[sapper].powers[0].n_effects = 1;
        w.f->s.sb[sapper].powers[0].effects[0] =
            (fa_effect_def){FA_C_DAZED, FA_ENDS_END_OF_TURN, 0};
        w.f->s.sb[sapper].action_points = 1;
        w.f->s.sb[w.orc].action_points = 1;
        int blocks[5] = {w.hero, w.orc, gunner, brute, sapper};
        int n = 2 + (int)fray_rng_below(&rng, 5);
        for (int i = 0; i < n; i++) {
            int side = i % 2;
            int block = blocks[fray_rng_below(&rng, 5)];
            fray_pos at;
            bool ok;
            do {
                at.x = (int16_t)fray_rng_below(&rng, 14);
                at.y = (int16_t)fray_rng_below(&rng, 14);
                ok = g->terrain[at.y][at.x] == FRAY_TERRAIN_OPEN;
                for (int j = 0; j < i && ok; j++)
                    ok = !(w.f->s.c[j].at.x == at.x && w.f->s.c[j].at.y == at.y);
            } while (!ok);
            char id[16];
            snprintf(id, sizeof id, "f%d", i);
            int c = at_add(w.f, id, block, side, at.x, at.y);
            w.f->s.c[c].tactics = (uint8_t)fray_rng_below(&rng, FA_TACTICS_KINDS);
        }
        fa_state_init(&w.f->s, &w.f->st, seed, 0);
        fa_run r = {.s = &w.f->s, .st = &w.f->st, .ev = &w.f->ev};
        memset(&w.f->ev, 0, sizeof w.f->ev);
        cr_assert_eq(fa_begin(&r), FRAY_OK, "seed %llu begin",
                     (unsigned long long)seed);
        int steps = 0;
        while (!w.f->st.over && steps++ < 5000) {
            memset(&w.f->ev, 0, sizeof w.f->ev);
            r = (fa_run){.s = &w.f->s, .st = &w.f->st, .ev = &w.f->ev};
            int who = fa_actor(&w.f->s, &w.f->st);
            fa_command cmd;
            if (who < 0) {
                cr_assert_eq(fa_next(&r), FRAY_OK, "seed %llu next",
                             (unsigned long long)seed);
                continue;
            }
            cr_assert_eq(fa_choose_command(&w.f->s, &w.f->st, who, &cmd), FRAY_OK);
            char why[256] = "";
            cr_assert_eq(fa_check(&w.f->s, &w.f->st, &cmd, why, sizeof why),
                         FRAY_OK, "seed %llu step %d: %s refused: %s",
                         (unsigned long long)seed, steps, fa_cmd_name(cmd.kind), why);
            fray_status rc = fa_apply(&r, &cmd);
            cr_assert_eq(rc, FRAY_OK,
                         "seed %llu step %d: %s by %d (power %d, weapon %d, "
                         "%d targets, first %d, path %d) failed: %d",
                         (unsigned long long)seed, steps, fa_cmd_name(cmd.kind),
                         who, cmd.power, cmd.weapon, cmd.n_targets,
                         cmd.targets[0], cmd.n_path, (int)rc);
        }
        cr_assert(w.f->st.over || w.f->st.round > 0, "seed %llu", (unsigned long long)seed);
        free(w.f);
    }
}
