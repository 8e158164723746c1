/*
 * test_alloy_space.c - Alloy's space (space.c): forced movement (push,
 * pull, slide) and teleporting (004:459, 976-978, 993-997, 1005),
 * readied moves, charges and area attacks (004:643-656), the option
 * diagonals everywhere (L7.9), and squeeze for Medium creatures
 * (004:707-717). The real attack.c resolves the attacks: dice by hand.
 */
#define _XOPEN_SOURCE 700 /* mkstemps */
#define _DEFAULT_SOURCE
#include "alloy_fixture.h"

#include <jansson.h>
#include <unistd.h>

#include "fray/grid.h"

/* Two combatants on an open 12x12 map, speed 6, 30 hp, defenses 15,
 * listed order = initiative order. */
static fixture *pair(int *a, int *b, int ax, int ay, int bx, int by) {
    fixture *f = af_new(12, 12);
    int sa = af_block(f, "bouncer", 6, 0, 30);
    int sb = af_block(f, "orc", 6, 0, 30);
    *a = af_add(f, "Moe", sa, 0, ax, ay);
    *b = af_add(f, "orc 1", sb, 1, bx, by);
    return f;
}

/* A melee power of stat block sb: Str vs Fortitude, 1d6 damage, moving
 * its target `how` n squares. Returns its index. */
static int forced_power(fixture *f, int sb, int how, int n) {
    fa_statblock *b = &f->s.sb[sb];
    int k = b->n_powers++;
    fa_power *p = &b->powers[k];
    memset(p, 0, sizeof *p);
    snprintf(p->id, FA_ID_MAX, "shove-%d", k);
    snprintf(p->name, FA_NAME_MAX, "Shove %d", k);
    p->action = FA_ACT_STANDARD;
    p->usage = FA_AT_WILL;
    p->ability = FA_STR;
    p->defense = FA_DEF_FORTITUDE;
    p->weapon = -1;
    p->mult = 1;
    p->dice.n = 1;
    p->dice.sides = 6;
    p->forced = (uint8_t)how;
    p->forced_n = (int8_t)n;
    return k;
}

static int teleport_power(fixture *f, int sb, int squares) {
    fa_statblock *b = &f->s.sb[sb];
    int k = b->n_powers++;
    fa_power *p = &b->powers[k];
    memset(p, 0, sizeof *p);
    snprintf(p->id, FA_ID_MAX, "blink");
    snprintf(p->name, FA_NAME_MAX, "Blink");
    p->action = FA_ACT_MOVE;
    p->usage = FA_AT_WILL;
    p->weapon = -1;
    p->forced = FA_FORCED_NONE;
    p->teleport = (int8_t)squares;
    return k;
}

/* who hits target with power k: d20 15, damage 3. */
static fray_status hit_with(fixture *f, int who, int target, int k) {
    fa_command c = af_target(FA_CMD_ATTACK, who, target);
    c.power = (int8_t)k;
    c.origin.x = c.origin.y = -1;
    int dice[] = {15, 3};
    return af_do_dice(f, &c, dice, 2);
}

static bool at(const fixture *f, int who, int x, int y) {
    return f->st.c[who].fp.at.x == x && f->st.c[who].fp.at.y == y;
}

/* ---- Forced movement ------------------------------------------------------------ */

/* 004:459 push: the target goes n squares straight away from the
 * attacker; no opportunity attack although it leaves a square an enemy
 * of it threatens ("can't make one if the enemy ... is forced to move by
 * a pull, push, or slide"). */
Test(alloy_space, push_2_straight_away_no_opportunity_004_459) {
    fixture *f = af_new(12, 12);
    int sa = af_block(f, "bouncer", 6, 0, 30);
    int so = af_block(f, "orc", 6, 0, 30);
    int a = af_add(f, "Moe", sa, 0, 4, 5);
    int b = af_add(f, "orc 1", so, 1, 5, 5);
    int c = af_add(f, "Ana", sa, 0, 5, 6);   /* threatens orc 1 */
    int k = forced_power(f, sa, FA_FORCED_PUSH, 2);
    af_go(f);
    cr_assert_eq(hit_with(f, a, b, k), FRAY_OK, "%s", f->why);
    cr_assert(at(f, b, 7, 5), "pushed to 7,5, is at %d,%d", f->st.c[b].fp.at.x,
              f->st.c[b].fp.at.y);
    const fa_fact *p = af_fact(f, FA_FACT_PUSH, a);
    cr_assert_not_null(p);
    cr_assert_eq(p->target, b);
    cr_assert_eq(p->v[2], FA_FORCED_PUSH);
    cr_assert_eq(p->v[3], 2);
    cr_assert_eq(p->v[4], 2);
    cr_assert_null(af_fact(f, FA_FACT_PROVOKE, -1), "a push provokes nothing (004:459)");
    cr_assert_eq(f->st.c[c].oa_turn, -1);
    free(f);
}

/* 004:459 pull: each square nearer the attacker; it stops adjacent. */
Test(alloy_space, pull_stops_adjacent_004_459) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 2, 2, 4);
    int k = forced_power(f, f->s.c[a].sb, FA_FORCED_PULL, 3);
    f->s.sb[f->s.c[a].sb].powers[k].range = 3;   /* a hooked pole */
    f->s.sb[f->s.c[a].sb].powers[k].ranged = false;
    af_go(f);
    f->st.c[b].fp.at = (fray_pos){2, 3};   /* adjacent already: nothing */
    cr_assert_eq(hit_with(f, a, b, k), FRAY_OK, "%s", f->why);
    cr_assert(at(f, b, 2, 3));
    cr_assert_null(af_fact(f, FA_FACT_PUSH, a));
    cr_assert_null(af_fact(f, FA_FACT_NO_EFFECT, a));
    free(f);
}

/* A pull from two squares away brings the target next to the puller and
 * no further (3 asked, 1 moved). */
Test(alloy_space, pull_from_afar_004_459) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 2, 5, 2);
    int k = forced_power(f, f->s.c[a].sb, FA_FORCED_PULL, 3);
    fa_power *p = &f->s.sb[f->s.c[a].sb].powers[k];
    p->range = 5;
    p->ranged = true;
    p->ability = FA_DEX;
    p->defense = FA_DEF_REFLEX;
    af_go(f);
    cr_assert_eq(hit_with(f, a, b, k), FRAY_OK, "%s", f->why);
    cr_assert(at(f, b, 3, 2), "is at %d,%d", f->st.c[b].fp.at.x, f->st.c[b].fp.at.y);
    const fa_fact *pf = af_fact(f, FA_FACT_PUSH, a);
    cr_assert_not_null(pf);
    cr_assert_eq(pf->v[2], FA_FORCED_PULL);
    cr_assert_eq(pf->v[3], 2);
    cr_assert_eq(pf->v[4], 3);
    free(f);
}

/* A push into a blocked square stops there (brief: "a push into an
 * occupied or blocked square stops"): a wall behind after one square;
 * the engine tries the straight line, then the first free square that is
 * still farther (sideways-diagonal ones count). */
Test(alloy_space, push_stops_at_a_wall_and_a_creature_004_459) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 2, 5);
    for (int y = 0; y < 12; y++)
        f->s.map.terrain[y][4] = FRAY_TERRAIN_WALL;
    int k = forced_power(f, f->s.c[a].sb, FA_FORCED_PUSH, 3);
    af_go(f);
    cr_assert_eq(hit_with(f, a, b, k), FRAY_OK, "%s", f->why);
    cr_assert(at(f, b, 3, 5) || at(f, b, 3, 4) || at(f, b, 3, 6));
    cr_assert_eq(f->st.c[b].fp.at.x, 3, "the wall at x 4 stops it");
    const fa_fact *pf = af_fact(f, FA_FACT_PUSH, a);
    cr_assert_not_null(pf);
    cr_assert_eq(pf->v[3], 1, "one square of three");
    free(f);
}

/* A push with every farther square taken: no effect, told. */
Test(alloy_space, push_with_no_room_is_told_004_459) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 30);
    int a = af_add(f, "Moe", s, 0, 1, 5);
    int b = af_add(f, "orc 1", s, 1, 2, 5);
    af_add(f, "orc 2", s, 1, 3, 4);
    af_add(f, "orc 3", s, 1, 3, 5);
    af_add(f, "orc 4", s, 1, 3, 6);
    af_add(f, "orc 5", s, 1, 2, 4);
    af_add(f, "orc 6", s, 1, 2, 6);
    int k = forced_power(f, s, FA_FORCED_PUSH, 2);
    af_go(f);
    cr_assert_eq(hit_with(f, a, b, k), FRAY_OK, "%s", f->why);
    cr_assert(at(f, b, 2, 5));
    const fa_fact *ne = af_fact(f, FA_FACT_NO_EFFECT, a);
    cr_assert_not_null(ne);
    cr_assert_eq(ne->v[0], FA_NOTE_NO_ROOM);
    free(f);
}

/* 004:976-978 an Immobilized creature "can be forced to move by other
 * characters"; 004:997 Slowed "does not apply to forced movement"; 004:1005
 * a Snared one "can't be forced to move". */
Test(alloy_space, immobilized_and_slowed_moved_snared_not_004_976_997_1005) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 2, 5);
    int k = forced_power(f, f->s.c[a].sb, FA_FORCED_PUSH, 3);
    af_go(f);
    af_cond(f, b, FA_C_IMMOBILIZED, FA_ENDS_SAVE, a, 0);
    af_cond(f, b, FA_C_SLOWED, FA_ENDS_SAVE, a, 0);
    cr_assert_eq(hit_with(f, a, b, k), FRAY_OK, "%s", f->why);
    cr_assert(at(f, b, 5, 5), "immobilized and slowed, pushed 3: at %d,%d",
              f->st.c[b].fp.at.x, f->st.c[b].fp.at.y);
    fa_cond_remove(&f->r, b, FA_C_IMMOBILIZED, -1);
    fa_cond_remove(&f->r, b, FA_C_SLOWED, -1);
    af_cond(f, b, FA_C_SNARED, FA_ENDS_SAVE, a, 0);
    f->st.c[a].fp.at = (fray_pos){4, 5};
    f->st.c[a].slots = FA_SLOT_STANDARD | FA_SLOT_MOVE | FA_SLOT_SWIFT;
    cr_assert_eq(hit_with(f, a, b, k), FRAY_OK, "%s", f->why);
    cr_assert(at(f, b, 5, 5), "snared: not moved");
    const fa_fact *ne = af_fact(f, FA_FACT_NO_EFFECT, a);
    cr_assert_not_null(ne);
    cr_assert_eq(ne->v[0], FA_NOTE_SNARED);
    char buf[200];
    fa_narrate_fact(&f->s, ne, buf, sizeof buf);
    cr_assert(strstr(buf, "snared creature cannot be moved by force"), "%s", buf);
    free(f);
}

/* A miss moves nobody. */
Test(alloy_space, a_miss_moves_nobody_004_459) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 2, 5);
    int k = forced_power(f, f->s.c[a].sb, FA_FORCED_PUSH, 2);
    af_go(f);
    fa_command c = af_target(FA_CMD_ATTACK, a, b);
    c.power = (int8_t)k;
    int dice[] = {2};
    cr_assert_eq(af_do_dice(f, &c, dice, 1), FRAY_OK, "%s", f->why);
    cr_assert(at(f, b, 2, 5));
    cr_assert_null(af_fact(f, FA_FACT_PUSH, -1));
    free(f);
}

/* A slide: the engine moves it away like a push; a grapple whose target
 * is slid out of reach ends (004:618). */
Test(alloy_space, slide_ends_a_grapple_out_of_reach_004_618) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 30);
    int a = af_add(f, "Moe", s, 0, 1, 5);
    int b = af_add(f, "orc 1", s, 1, 2, 5);
    int k = forced_power(f, s, FA_FORCED_SLIDE, 2);
    af_go(f);
    /* orc 1 grapples nobody; Moe grapples orc 1 */
    f->st.c[a].grappling = (int8_t)b;
    fa_cond g;
    memset(&g, 0, sizeof g);
    g.kind = FA_C_GRAPPLED;
    g.ends = FA_ENDS_EVENT;
    g.other = (int8_t)a;
    g.source = (int8_t)a;
    cr_assert_eq(fa_cond_add(&f->r, b, g), FRAY_OK);
    cr_assert_eq(hit_with(f, a, b, k), FRAY_OK, "%s", f->why);
    cr_assert(at(f, b, 4, 5));
    cr_assert_eq(af_fact(f, FA_FACT_PUSH, a)->v[2], FA_FORCED_SLIDE);
    cr_assert_not(fa_has(&f->st.c[b], FA_C_GRAPPLED));
    cr_assert_eq(f->st.c[a].grappling, -1);
    free(f);
}

/* ---- Teleporting -------------------------------------------------------------------- */

/* 004:459 teleporting provokes nothing; 004:978 an Immobilized creature
 * may teleport; 004:997 Slowed does not limit it. */
Test(alloy_space, teleport_immobilized_slowed_no_opportunity_004_459_978_997) {
    int a, b;
    fixture *f = pair(&a, &b, 5, 5, 6, 5);
    int k = teleport_power(f, f->s.c[a].sb, 6);
    af_go(f);
    af_cond(f, a, FA_C_IMMOBILIZED, FA_ENDS_SAVE, b, 0);
    af_cond(f, a, FA_C_SLOWED, FA_ENDS_SAVE, b, 0);
    fa_command c = af_cmd(FA_CMD_ATTACK, a);
    c.power = (int8_t)k;
    c.origin = (fray_pos){1, 5};
    cr_assert_eq(af_do(f, &c), FRAY_OK, "%s", f->why);
    cr_assert(at(f, a, 1, 5));
    cr_assert_null(af_fact(f, FA_FACT_PROVOKE, -1));
    const fa_fact *tp = af_fact(f, FA_FACT_PUSH, a);
    cr_assert_not_null(tp);
    cr_assert_eq(tp->v[2], FA_FORCED_TELEPORT);
    cr_assert_eq(tp->v[3], 4);
    cr_assert_eq(af_fact(f, FA_FACT_ACTION, a)->v[1], FA_ACT_MOVE,
                 "Blink is a move action");
    char buf[200];
    fa_narrate_fact(&f->s, tp, buf, sizeof buf);
    cr_assert_str_eq(buf, "Moe teleports 20 feet to 1,5.");
    free(f);
}

/* A teleport goes to a free square it sees within its distance. */
Test(alloy_space, teleport_refusals_in_rules_words) {
    int a, b;
    fixture *f = pair(&a, &b, 5, 5, 6, 5);
    int k = teleport_power(f, f->s.c[a].sb, 2);
    f->s.map.terrain[4][5] = FRAY_TERRAIN_WALL;   /* hides 5,3 from 5,5 */
    af_go(f);
    fa_command c = af_cmd(FA_CMD_ATTACK, a);
    c.power = (int8_t)k;
    c.origin = (fray_pos){9, 5};
    cr_assert_eq(af_do(f, &c), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "square (9, 5) is 20 feet away: Blink teleports at most 10 feet");
    c.origin = (fray_pos){6, 5};
    cr_assert_eq(af_do(f, &c), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Moe cannot teleport into square (6, 5): it is not free");
    c.origin = (fray_pos){5, 3};
    cr_assert_eq(af_do(f, &c), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Moe cannot see square (5, 3) to teleport there");
    c.origin = (fray_pos){5, 4};
    cr_assert_eq(af_do(f, &c), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Moe cannot teleport into square (5, 4): it is not free");
    af_cond(f, a, FA_C_BLINDED, FA_ENDS_SAVE, b, 0);
    c.origin = (fray_pos){5, 7};
    cr_assert_eq(af_do(f, &c), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Moe cannot see square (5, 7) to teleport there");
    free(f);
}

/* ---- Readied moves, charges and areas (004:643-656) ---------------------------------- */

static fa_command ready_cmd(int who, int kind, int trig, int by) {
    fa_command rd = af_cmd(FA_CMD_READY, who);
    rd.ready.trigger = (uint8_t)trig;
    rd.ready.who = (int8_t)by;
    rd.ready.kind = (uint8_t)kind;
    rd.ready.power = -1;
    rd.ready.target = -1;
    return rd;
}

/* 004:650 "You can ready a standard action, move action, or swift
 * action"; 004:655 "ready a movement that puts you beyond the enemy's
 * movement": a readied walk goes away from the trigger as far as it can;
 * readying a move is a move action (004:649); it fires right after the
 * trigger (004:654) and the readier's initiative moves (004:656). */
Test(alloy_space, ready_walk_away_004_650_655_656) {
    int a, b;
    fixture *f = pair(&a, &b, 5, 5, 11, 5);
    af_go(f);
    fa_command rd = ready_cmd(a, FA_CMD_WALK, FA_TRIG_MOVES_ADJACENT, b);
    cr_assert_eq(af_do(f, &rd), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_fact(f, FA_FACT_ACTION, a)->v[1], FA_ACT_MOVE,
                 "readying a move action is a move action (004:649)");
    af_end_turn(f);
    cr_assert_eq(f->st.cur, b);
    fa_command w = af_cmd(FA_CMD_WALK, b);
    af_line(f, &w, b, 5, -1, 0);   /* to 6,5: adjacent after 5 squares */
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    const fa_fact *fire = af_fact(f, FA_FACT_READY_FIRES, a);
    cr_assert_not_null(fire, "the readied walk went off");
    cr_assert_eq(fire->target, b);
    cr_assert_eq(f->st.order[0], a);
    cr_assert(f->st.c[a].flags & FA_F_IMMEDIATE, "an immediate action (004:654)");
    int d = fray_grid_range(f->st.c[a].fp, f->st.c[b].fp);
    cr_assert_geq(d, 5, "Moe walked away: %d squares apart", d);
    /* 6 squares of movement (4 diagonals to 1,1, or 3 squares and 2
     * diagonals to 0,3): 7 squares from the orc, the farthest it can get */
    cr_assert_eq(d, 7, "%d", d);
    cr_assert_eq(f->st.c[a].moved, 6);
    cr_assert_null(af_fact(f, FA_FACT_PROVOKE, a),
                   "the readier left before the orc could threaten (its own turn)");
    free(f);
}

/* A readied shift: one square away (004:415). */
Test(alloy_space, ready_shift_one_square_away_004_650) {
    int a, b;
    fixture *f = pair(&a, &b, 5, 5, 11, 5);
    af_go(f);
    fa_command rd = ready_cmd(a, FA_CMD_SHIFT, FA_TRIG_MOVES_ADJACENT, -1);
    cr_assert_eq(af_do(f, &rd), FRAY_OK, "%s", f->why);
    af_end_turn(f);
    fa_command w = af_cmd(FA_CMD_WALK, b);
    af_line(f, &w, b, 5, -1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    cr_assert_not_null(af_fact(f, FA_FACT_READY_FIRES, a));
    cr_assert_eq(f->st.c[a].fp.at.x, 4);
    cr_assert_eq(f->st.c[b].fp.at.x, 6, "the orc's move had ended: it is 2 squares away");
    free(f);
}

/* A readied charge at the trigger (004:523, 650): when the orc attacks
 * (an ally), Moe charges it from afar, +1 to the attack. */
Test(alloy_space, ready_charge_at_the_trigger_004_523_650) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 30);
    int a = af_add(f, "Moe", s, 0, 1, 5);
    int b = af_add(f, "orc 1", s, 1, 7, 5);
    int c = af_add(f, "Ana", s, 0, 8, 5);
    af_go(f);
    fa_command rd = ready_cmd(a, FA_CMD_CHARGE, FA_TRIG_ATTACKS, b);
    cr_assert_eq(af_do(f, &rd), FRAY_OK, "%s", f->why);
    af_end_turn(f);
    cr_assert_eq(f->st.cur, b);
    fa_command atk = af_target(FA_CMD_ATTACK, b, c);
    int dice[] = {2, 15, 3};   /* orc misses Ana; Moe's charge hits for 3 */
    cr_assert_eq(af_do_dice(f, &atk, dice, 3), FRAY_OK, "%s", f->why);
    cr_assert_not_null(af_fact(f, FA_FACT_READY_FIRES, a));
    cr_assert(fray_grid_adjacent(f->st.c[a].fp, f->st.c[b].fp), "Moe charged in");
    cr_assert_eq(f->st.c[a].fp.at.x, 6, "the nearest square (L7.24)");
    bool charge_mod = false;
    for (int i = 0; i < f->ev.n_facts; i++)
        if (f->ev.facts[i].kind == FA_FACT_MODIFIER && f->ev.facts[i].who == a &&
            f->ev.facts[i].v[0] == FA_MOD_CHARGE)
            charge_mod = true;
    cr_assert(charge_mod, "+1 for the charge (004:523)");
    cr_assert_eq(f->st.c[b].hp, 27);
    free(f);
}

/* A readied area attack placed on the trigger (a burst centred on its
 * square): when orc 1 moves adjacent... to an ally? No: when it enters
 * the burst's range, the grenade goes off on it. */
Test(alloy_space, ready_area_burst_on_the_trigger_004_650) {
    fixture *f = af_new(14, 12);
    int s = af_block(f, "t", 6, 0, 30);
    int a = af_add(f, "Moe", s, 0, 1, 5);
    int b = af_add(f, "orc 1", s, 1, 12, 5);
    fa_statblock *sb = &f->s.sb[s];
    int k = sb->n_powers++;
    fa_power *p = &sb->powers[k];
    memset(p, 0, sizeof *p);
    snprintf(p->id, FA_ID_MAX, "flash");
    snprintf(p->name, FA_NAME_MAX, "Flash");
    p->action = FA_ACT_STANDARD;
    p->usage = FA_AT_WILL;
    p->ability = FA_DEX;
    p->defense = FA_DEF_REFLEX;
    p->weapon = -1;
    p->mult = 1;
    p->dice = (fa_dice){1, 6};
    p->area = FA_AREA_BURST;
    p->area_size = 1;
    p->range = 6;
    p->ranged = true;
    p->forced = FA_FORCED_NONE;
    af_go(f);
    fa_command rd = ready_cmd(a, FA_CMD_ATTACK, FA_TRIG_ENTERS_REACH, b);
    rd.ready.power = (int8_t)k;
    cr_assert_eq(af_do(f, &rd), FRAY_OK, "%s", f->why);
    af_end_turn(f);
    fa_command w = af_cmd(FA_CMD_WALK, b);
    af_line(f, &w, b, 5, -1, 0);   /* 12 -> 7: within 6 at x 7 */
    int dice[] = {15, 4};
    cr_assert_eq(af_do_dice(f, &w, dice, 2), FRAY_OK, "%s", f->why);
    cr_assert_not_null(af_fact(f, FA_FACT_READY_FIRES, a));
    cr_assert_eq(f->st.c[b].hp, 26, "the burst hit orc 1 for 4");
    cr_assert_eq(f->st.c[b].fp.at.x, 7, "it went off when orc 1 came within 6 squares");
    free(f);
}

/* A wall cannot be readied (its squares are chosen when it is made);
 * nor can a teleport. */
Test(alloy_space, ready_wall_or_teleport_refused) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 11, 5);
    int k = teleport_power(f, f->s.c[a].sb, 4);
    af_go(f);
    fa_command rd = ready_cmd(a, FA_CMD_ATTACK, FA_TRIG_ATTACKS, -1);
    rd.ready.power = (int8_t)k;
    cr_assert_eq(af_do(f, &rd), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Moe cannot ready a teleport");
    fa_power *p = &f->s.sb[f->s.c[a].sb].powers[k];
    p->teleport = 0;
    p->area = FA_AREA_WALL;
    p->area_size = 3;
    p->range = 5;
    cr_assert_eq(af_do(f, &rd), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Moe cannot ready a wall: its squares are chosen when it is made");
    free(f);
}

/* ---- Distances by the option diagonals (L7.9) ----------------------------------------- */

Test(alloy_space, range_counted_or_one_l7_9) {
    fray_footprint a = {{0, 0}, 1}, b = {{4, 4}, 1}, big = {{5, 0}, 2};
    cr_assert_eq(fray_grid_range_m(a, b, FRAY_AREA_COUNTED), 6);
    cr_assert_eq(fray_grid_range_m(a, b, FRAY_AREA_COUNTED), fray_grid_range(a, b));
    cr_assert_eq(fray_grid_range_m(a, b, FRAY_AREA_SQUARE), 4);
    cr_assert_eq(fray_grid_count_m(a.at, b.at, FRAY_AREA_SQUARE), 4);
    cr_assert_eq(fray_grid_count_m(a.at, b.at, FRAY_AREA_COUNTED), 6);
    cr_assert_eq(fray_grid_range_m(a, big, FRAY_AREA_SQUARE), 5);
    cr_assert(fray_grid_within_m(a, b, 4, FRAY_AREA_SQUARE));
    cr_assert_not(fray_grid_within_m(a, b, 5, FRAY_AREA_COUNTED));
    fixture *f = af_new(12, 12);
    cr_assert_eq(fa_range(&f->s, a, b), 6);
    f->s.opt.diagonals = FRAY_AREA_SQUARE;
    cr_assert_eq(fa_range(&f->s, a, b), 4);
    cr_assert(fa_within(&f->s, a, b, 4));
    free(f);
}

/* L7.9 `diagonals: one` for reach and threatening reach: a reach-2
 * threatening creature threatens a square two diagonals away with every
 * diagonal 1, not with 1-2-1-2 (range 3). */
Test(alloy_space, diagonals_one_threatening_reach_l7_9_004_462) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 2, 4, 4);
    fa_statblock *sa = &f->s.sb[f->s.c[a].sb];
    sa->reach = 2;
    sa->threatening_reach = true;
    af_go(f);
    cr_assert_not(fa_threatens(&f->s, &f->st, a, b), "counted: 3 squares away");
    fa_command c = af_target(FA_CMD_ATTACK, a, b);
    cr_assert_eq(af_do(f, &c), FRAY_ERR_INVALID);
    f->s.opt.diagonals = FRAY_AREA_SQUARE;
    cr_assert(fa_threatens(&f->s, &f->st, a, b), "one: 2 squares away");
    cr_assert_eq(fa_check(&f->s, &f->st, &c, f->why, sizeof f->why), FRAY_OK, "%s", f->why);
    free(f);
}

/* L7.9 `diagonals: one` for the engine's own path search: a walk to a
 * far square (fa_reach) counts every diagonal 1. */
Test(alloy_space, diagonals_one_path_search_l7_9) {
    int a, b;
    fixture *f = pair(&a, &b, 0, 0, 11, 0);
    af_go(f);
    fray_reach_map *m = malloc(sizeof *m);
    cr_assert_not_null(m);
    fa_reach(&f->s, &f->st, a, 6, m);
    cr_assert_eq(m->cost[4][4], 6, "counted: 4 diagonals cost 6");
    cr_assert_eq(m->cost[5][5], -1, "counted: 5 diagonals cost 7 > 6");
    f->s.opt.diagonals = FRAY_AREA_SQUARE;
    fa_reach(&f->s, &f->st, a, 6, m);
    cr_assert_eq(m->cost[4][4], 4, "one: 4 diagonals cost 4");
    cr_assert_eq(m->cost[6][6], 6);
    fray_pos path[FA_MAX_PATH];
    int n = fray_grid_path(m, (fray_pos){6, 6}, path, FA_MAX_PATH);
    cr_assert_eq(n, 6);
    fa_command w = af_cmd(FA_CMD_WALK, a);
    for (int i = 0; i < n; i++)
        w.path[w.n_path++] = path[i];
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    cr_assert(at(f, a, 6, 6));
    /* parse.c's walk to one far square goes the same way */
    f->st.c[a].slots = FA_SLOT_STANDARD | FA_SLOT_MOVE | FA_SLOT_SWIFT;
    f->st.c[a].moved = 0;
    fa_command pc;
    fray_diag d;
    cr_assert_eq(fa_parse(&f->s, &f->st, "Moe walk 0,0", &pc, &d), FRAY_OK, "%s", d.message);
    cr_assert_eq(pc.n_path, 6);
    free(m);
    free(f);
}

/* L7.9 `diagonals: one` for ranges: a pistol's 10 squares reach 10
 * diagonals (counted, 10 diagonals are 15 squares: long range). */
Test(alloy_space, diagonals_one_ranges_l7_9_004_89) {
    fixture *f = af_new(16, 16);
    int s = af_block(f, "t", 6, 0, 30);
    int w = af_weapon(f, "pistol", FA_WK_RANGED, 6, 1, 0);
    int slot = af_give(f, s, w, -1);
    int a = af_add(f, "Moe", s, 0, 0, 0);
    int b = af_add(f, "orc 1", s, 1, 10, 10);
    f->s.c[a].wield = (int8_t)slot;
    af_go(f);
    fa_attack_line L = fa_attack_line_of(&f->s, &f->st, a, -1, slot, false);
    fa_mods m;
    fa_attack_mods(&f->s, &f->st, a, b, &L, false, f->st.c[a].fp.at, &m);
    bool long_range = false;
    for (int i = 0; i < m.n; i++)
        long_range = long_range || m.m[i].reason == FA_MOD_LONG_RANGE;
    cr_assert(long_range, "counted: 15 squares, beyond the short 10 (004:89)");
    f->s.opt.diagonals = FRAY_AREA_SQUARE;
    fa_attack_mods(&f->s, &f->st, a, b, &L, false, f->st.c[a].fp.at, &m);
    long_range = false;
    for (int i = 0; i < m.n; i++)
        long_range = long_range || m.m[i].reason == FA_MOD_LONG_RANGE;
    cr_assert_not(long_range, "one: 10 squares, short range");
    free(f);
}

/* L7.9, L7.24 `diagonals: one` for the charge's nearest square: with
 * every diagonal 1, a charge straight down the diagonal is the nearest. */
Test(alloy_space, diagonals_one_charge_nearest_square_l7_9_l7_24) {
    int a, b;
    fixture *f = pair(&a, &b, 0, 0, 5, 5);
    f->s.opt.diagonals = FRAY_AREA_SQUARE;
    af_go(f);
    fa_command c = af_target(FA_CMD_CHARGE, a, b);
    af_line(f, &c, a, 4, 1, 1);
    cr_assert_eq(af_do_dice(f, &c, (int[]){2}, 1), FRAY_OK, "%s", f->why);
    cr_assert(at(f, a, 4, 4));
    cr_assert_eq(f->st.c[a].moved, 4, "4 diagonals, 4 squares");
    free(f);
}

/* ---- Files, table words, journals ---------------------------------------------------- */

static fa_setup *load_path(const char *path, fray_diag *d) {
    memset(d, 0, sizeof *d);
    fa_setup *s = NULL;
    fray_status st = fa_load(path, NULL, &s, d);
    if (st != FRAY_OK)
        return NULL;
    return s;
}

static int power_of(const fa_statblock *b, const char *id) {
    for (int i = 0; i < b->n_powers; i++)
        if (strcmp(b->powers[i].id, id) == 0)
            return i;
    cr_assert_fail("no power %s", id);
    return -1;
}

/* The stat-block syntax: effects `push N`, `pull N`, `slide N`; a power
 * with `teleport: 30` and no attack (examples/alloy/shove.yaml). */
Test(alloy_space, shove_example_loads_004_459) {
    fray_diag d;
    fa_setup *s = load_path(FRAY_SOURCE_DIR "/examples/alloy/shove.yaml", &d);
    cr_assert_not_null(s, "%d:%d: %s", d.line, d.column, d.message);
    const fa_statblock *moe = &s->sb[s->c[0].sb], *hale = &s->sb[s->c[1].sb];
    const fa_power *shove = &moe->powers[power_of(moe, "shove")];
    cr_assert_eq(shove->forced, FA_FORCED_PUSH);
    cr_assert_eq(shove->forced_n, 2);
    cr_assert_eq(shove->n_effects, 0);
    const fa_power *hook = &hale->powers[power_of(hale, "hook-and-drag")];
    cr_assert_eq(hook->forced, FA_FORCED_PULL);
    cr_assert_eq(hook->forced_n, 1);
    cr_assert_eq(hook->n_effects, 1, "slowed besides the pull");
    const fa_power *blink = &hale->powers[power_of(hale, "blink")];
    cr_assert_eq(blink->teleport, 6, "30 ft = 6 squares");
    cr_assert_eq(blink->action, FA_ACT_MOVE);
    cr_assert_eq(blink->mult, 0);
    /* the tactics never take a teleport for an attack */
    cr_assert_neq(fa_tactics_pick(s, 1, 0, 0, NULL), power_of(hale, "blink"));
    fa_setup_free(s);
}

static void write_file(const char *path, const char *text) {
    FILE *fp = fopen(path, "w");
    cr_assert_not_null(fp);
    fputs(text, fp);
    fclose(fp);
}

/* Bad forced moves and teleports are refused at their place in rules
 * words. */
Test(alloy_space, bad_forced_and_teleport_syntax) {
    static const struct {
        const char *power;
        int line, col;
        const char *words;
    } cases[] = {
        {"        attack: Str vs Reflex\n        damage: 1d6\n        effects: [push two]\n",
         12, 19, "a forced move is 'push N' (N squares), got 'push two'"},
        {"        attack: Str vs Reflex\n        damage: 1d6\n        effects: [slide 11]\n",
         12, 19, "a slide moves 1 to 10 squares, got 11"},
        {"        attack: Str vs Reflex\n        damage: 1d6\n        effects: [push 1, pull 1]\n",
         12, 27, "a power moves its target once: one push, pull or slide"},
        {"        teleport: 30\n        attack: Str vs Reflex\n", 11, 17,
         "a teleport power has no attack: it only moves its user"},
        {"        teleport: 32\n", 10, 19, "distances are in 5-ft squares"},
    };
    char path[] = "/tmp/fray_alloy_space_XXXXXX.yaml";
    int fd = mkstemps(path, 5);
    cr_assert_geq(fd, 0);
    close(fd);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "fray: statblocks\n"
                 "rules: alloy\n"
                 "statblocks:\n"
                 "  - name: Witch\n"
                 "    defenses: {Defense: 14, Fortitude: 12, Reflex: 12}\n"
                 "    attack: 2\n"
                 "    hp: 20\n"
                 "    powers:\n"
                 "      - name: Hex\n"
                 "%s", cases[i].power);
        write_file(path, text);
        fray_diag d;
        memset(&d, 0, sizeof d);
        cr_expect_neq(fa_check_file(path, &d), FRAY_OK, "case %zu", i);
        cr_expect(strstr(d.message, cases[i].words), "case %zu: %s", i, d.message);
        cr_expect_eq(d.line, cases[i].line, "case %zu: line %d: %s", i, d.line, d.message);
        cr_expect_eq(d.column, cases[i].col, "case %zu: column %d: %s", i, d.column, d.message);
    }
    unlink(path);
}

/* The table's words: `ID teleport X,Y [with POWER]`, and a readied walk. */
Test(alloy_space, table_words_teleport_and_ready_walk) {
    fray_diag d;
    fa_setup *s = load_path(FRAY_SOURCE_DIR "/examples/alloy/shove.yaml", &d);
    cr_assert_not_null(s, "%s", d.message);
    fa_state *st = calloc(1, sizeof *st);
    fa_state_init(s, st, 1, 0);
    fa_command c;
    cr_assert_eq(fa_parse(s, st, "guard teleport 7,4", &c, &d), FRAY_OK, "%s", d.message);
    cr_assert_eq(c.kind, FA_CMD_ATTACK);
    cr_assert(fa_is_teleport(s, c.actor, c.power));
    cr_assert_eq(c.origin.x, 7);
    cr_assert_eq(c.origin.y, 4);
    cr_assert_eq(fa_parse(s, st, "guard teleport 7,4 with blink", &c, &d), FRAY_OK, "%s",
                 d.message);
    cr_assert_neq(fa_parse(s, st, "bouncer teleport 7,4", &c, &d), FRAY_OK);
    cr_assert(strstr(d.message, "a combatant with a teleport power"), "%s", d.message);
    cr_assert_neq(fa_parse(s, st, "guard teleport", &c, &d), FRAY_OK);
    cr_assert(strstr(d.message, "the square X,Y it teleports to"), "%s", d.message);
    cr_assert_neq(fa_parse(s, st, "guard teleport 7,4 with hook-and-drag", &c, &d), FRAY_OK);
    cr_assert(strstr(d.message, "one of its teleport powers"), "%s", d.message);
    cr_assert_eq(fa_parse(s, st, "bouncer ready walk when guard moves-adjacent", &c, &d),
                 FRAY_OK, "%s", d.message);
    cr_assert_eq(c.kind, FA_CMD_READY);
    cr_assert_eq(c.ready.kind, FA_CMD_WALK);
    cr_assert_eq(c.ready.who, 1);
    free(st);
    fa_setup_free(s);
}

/* A fight with pushes, pulls and a teleport written as a journal and
 * read back: the same facts (json.c: "how", "squares", "asked"). */
Test(alloy_space, journal_round_trip_of_forced_moves) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 2, 5);
    int k = forced_power(f, f->s.c[a].sb, FA_FORCED_PUSH, 2);
    int t = teleport_power(f, f->s.c[a].sb, 4);
    af_go(f);
    cr_assert_eq(hit_with(f, a, b, k), FRAY_OK, "%s", f->why);
    /* the event's command (af_do does not keep it) */
    f->ev.cmd = af_target(FA_CMD_ATTACK, a, b);
    f->ev.cmd.power = (int8_t)k;
    f->ev.cmd.origin.x = f->ev.cmd.origin.y = -1;
    static char j1[65536], j2[65536];
    fa_event *back = calloc(1, sizeof *back);
    fa_event_json(&f->s, &f->ev, j1, sizeof j1);
    cr_assert(strstr(j1, "\"fact\":\"push\""), "%s", j1);
    cr_assert(strstr(j1, "\"to\":[4,5],\"how\":\"push\",\"squares\":2,\"asked\":2"), "%s", j1);
    json_error_t err;
    json_t *o = json_loads(j1, 0, &err);
    cr_assert_not_null(o, "%s", err.text);
    char field[96], why[200];
    cr_assert_eq(fa_event_from_json(&f->s, o, back, field, sizeof field, why, sizeof why),
                 FRAY_OK, "%s: %s", field, why);
    json_decref(o);
    fa_event_json(&f->s, back, j2, sizeof j2);
    cr_assert_str_eq(j1, j2);
    fa_command c = af_cmd(FA_CMD_ATTACK, a);
    c.power = (int8_t)t;
    c.origin = (fray_pos){1, 2};
    cr_assert_eq(af_do(f, &c), FRAY_OK, "%s", f->why);
    f->ev.cmd = c;
    fa_event_json(&f->s, &f->ev, j1, sizeof j1);
    cr_assert(strstr(j1, "\"how\":\"teleport\""), "%s", j1);
    o = json_loads(j1, 0, &err);
    cr_assert_not_null(o, "%s", err.text);
    cr_assert_eq(fa_event_from_json(&f->s, o, back, field, sizeof field, why, sizeof why),
                 FRAY_OK, "%s: %s", field, why);
    json_decref(o);
    fa_event_json(&f->s, back, j2, sizeof j2);
    cr_assert_str_eq(j1, j2);
    cr_assert_eq(back->cmd.origin.x, 1);
    cr_assert_eq(back->cmd.power, t);
    free(back);
    free(f);
}

/* Cautious tactics, bloodied, no enemy next to it: total defense
 * (004:743-749), then a readied retreat with the move action left, a walk
 * away when an enemy comes adjacent (004:643-656); it goes off. */
Test(alloy_space, cautious_tactics_ready_a_retreat_004_655) {
    int a, b;
    fixture *f = pair(&a, &b, 5, 5, 10, 5);
    f->s.c[a].tactics = FA_TACTICS_CAUTIOUS;
    f->s.sb[f->s.c[a].sb].surges = 0;
    af_go(f);
    f->st.c[a].hp = 10;   /* bloodied: 10 of 30 */
    f->st.c[a].surges = 0;
    fa_command c;
    cr_assert_eq(fa_choose_command(&f->s, &f->st, a, &c), FRAY_OK);
    cr_assert_eq(c.kind, FA_CMD_TOTAL_DEFENSE);
    cr_assert_eq(af_do(f, &c), FRAY_OK, "%s", f->why);
    cr_assert_eq(fa_choose_command(&f->s, &f->st, a, &c), FRAY_OK);
    cr_assert_eq(c.kind, FA_CMD_READY);
    cr_assert_eq(c.ready.kind, FA_CMD_WALK);
    cr_assert_eq(c.ready.trigger, FA_TRIG_MOVES_ADJACENT);
    cr_assert_eq(c.ready.who, -1);
    cr_assert_eq(af_do(f, &c), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_fact(f, FA_FACT_ACTION, a)->v[1], FA_ACT_MOVE);
    cr_assert_eq(af_next(f), FRAY_OK);
    cr_assert_eq(f->st.cur, b);
    fa_command w = af_cmd(FA_CMD_WALK, b);
    af_line(f, &w, b, 4, -1, 0);
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    cr_assert_not_null(af_fact(f, FA_FACT_READY_FIRES, a));
    cr_assert_gt(fray_grid_range(f->st.c[a].fp, f->st.c[b].fp), 1, "it got away");
    free(f);
}

/* ---- Squeeze for Medium and smaller (004:707-717) ----------------------------------- */

/* Option narrow-squares: squeeze (the default): a square the map marks
 * narrow (a crawlspace) is entered only by squeezing (004:713: the GM
 * decides how narrow a space a Medium creature can occupy), at half speed
 * (004:714) and -5 to attacks (004:715); the squeeze cannot end there
 * (004:717); the engine's paths go round it. */
Test(alloy_space, narrow_squares_need_a_squeeze_004_713_717) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 11, 11);
    fray_area_add(&f->s.narrow, (fray_pos){3, 5});
    af_go(f);
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_path(&w, 1, 3, 5);
    cr_assert_eq(af_do(f, &w), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Moe cannot move from square (2, 5) to square (3, 5)");
    fray_reach_map *m = malloc(sizeof *m);
    fa_reach(&f->s, &f->st, a, 6, m);
    cr_assert_eq(m->cost[5][3], -1, "the walk's search goes round it");
    cr_assert_eq(m->cost[5][4], 3, "two diagonals round it: 1 + 2");
    fa_command sq = af_cmd(FA_CMD_SQUEEZE, a);
    af_path(&sq, 4, 3, 5, 4, 5, 5, 5, 6, 5);
    cr_assert_eq(af_do(f, &sq), FRAY_ERR_INVALID, "half speed: 3 squares (004:714)");
    sq.n_path = 1;
    cr_assert_eq(af_do(f, &sq), FRAY_OK, "%s", f->why);
    cr_assert(at(f, a, 3, 5));
    cr_assert(fa_has(&f->st.c[a], FA_C_SQUEEZING), "-5 to attacks until it ends (004:715)");
    fa_command end = af_cmd(FA_CMD_SQUEEZE, a);
    cr_assert_eq(af_do(f, &end), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Moe has no room to end its squeeze here");
    /* squeezing, it walks on out of the crawlspace and ends it there */
    fa_command out = af_cmd(FA_CMD_SQUEEZE, a);
    af_path(&out, 1, 4, 5);
    f->st.c[a].slots |= FA_SLOT_MOVE;
    cr_assert_eq(af_do(f, &out), FRAY_OK, "%s", f->why);
    cr_assert_eq(af_do(f, &end), FRAY_OK, "%s", f->why);
    cr_assert_not(fa_has(&f->st.c[a], FA_C_SQUEEZING));
    free(m);
    free(f);
}

/* Option narrow-squares: open: narrow squares are open ground (the
 * reading before: Medium and smaller creatures keep their one square). */
Test(alloy_space, narrow_squares_open_option_004_713) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 11, 11);
    fray_area_add(&f->s.narrow, (fray_pos){3, 5});
    f->s.opt.narrow = FA_NARROW_OPEN;
    af_go(f);
    fa_command w = af_cmd(FA_CMD_WALK, a);
    af_path(&w, 1, 3, 5);
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    cr_assert(at(f, a, 3, 5));
    cr_assert_not(fa_has(&f->st.c[a], FA_C_SQUEEZING));
    free(f);
}

/* A push never shoves a creature into a crawlspace it is not squeezing
 * into: the narrow square stops it (option squeeze). */
Test(alloy_space, push_stops_at_a_narrow_square_004_713) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 2, 5);
    for (int y = 0; y < 12; y++)
        fray_area_add(&f->s.narrow, (fray_pos){4, (int16_t)y});
    int k = forced_power(f, f->s.c[a].sb, FA_FORCED_PUSH, 3);
    af_go(f);
    cr_assert_eq(hit_with(f, a, b, k), FRAY_OK, "%s", f->why);
    cr_assert_eq(f->st.c[b].fp.at.x, 3);
    free(f);
}

/* The file: `narrow:` squares and the option, by name and by --vary. */
Test(alloy_space, narrow_in_files_and_sweeps_004_713) {
    char path[] = "/tmp/fray_alloy_narrow_XXXXXX.yaml";
    int fd = mkstemps(path, 5);
    cr_assert_geq(fd, 0);
    close(fd);
    write_file(path,
               "fray: encounter\n"
               "rules: alloy\n"
               "name: Crawlspace\n"
               "statblocks:\n"
               "  - name: Rat\n"
               "    defenses: {Defense: 12, Fortitude: 10, Reflex: 12}\n"
               "    attack: 0\n"
               "    hp: 5\n"
               "options:\n"
               "  narrow-squares: open\n"
               "map:\n"
               "  art: |\n"
               "    .....\n"
               "    .....\n"
               "narrow:\n"
               "  - {from: [1, 0], to: [2, 1]}\n"
               "combatants:\n"
               "  - {id: a, statblock: Rat, side: A, at: [0, 0]}\n"
               "  - {id: b, statblock: Rat, side: B, at: [4, 1]}\n");
    fray_diag d;
    fa_setup *s = load_path(path, &d);
    cr_assert_not_null(s, "%d:%d: %s", d.line, d.column, d.message);
    cr_assert_eq(fray_area_count(&s->narrow), 4);
    cr_assert(fray_area_has(&s->narrow, (fray_pos){2, 1}));
    cr_assert_eq(s->opt.narrow, FA_NARROW_OPEN);
    cr_assert_eq(fa_setup_vary(s, "narrow-squares", "squeeze", &d), FRAY_OK, "%s", d.message);
    cr_assert_eq(s->opt.narrow, FA_NARROW_SQUEEZE);
    fa_setup_free(s);
    fa_options o;
    fa_options_default(&o);
    cr_assert_eq(o.narrow, FA_NARROW_SQUEEZE, "the default");
    unlink(path);
}

/* A readied bull rush (004:504-513, 650) goes off and the engine picks
 * the square the target is pushed into (straight away first). */
Test(alloy_space, ready_bull_rush_pushes_004_508_650) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 9, 5);
    af_go(f);
    fa_command rd = ready_cmd(a, FA_CMD_BULL_RUSH, FA_TRIG_MOVES_ADJACENT, b);
    cr_assert_eq(af_do(f, &rd), FRAY_OK, "%s", f->why);
    af_end_turn(f);
    fa_command w = af_cmd(FA_CMD_WALK, b);
    af_line(f, &w, b, 6, -1, 0);   /* to 3,5: adjacent at the last step */
    int dice[] = {18};
    cr_assert_eq(af_do_dice(f, &w, dice, 1), FRAY_OK, "%s", f->why);
    cr_assert_not_null(af_fact(f, FA_FACT_READY_FIRES, a));
    const fa_fact *p = af_fact(f, FA_FACT_PUSH, a);
    cr_assert_not_null(p, "the bull rush hit and pushed");
    cr_assert_eq(p->v[0], 4);
    cr_assert_eq(p->v[1], 5);
    free(f);
}

/* The attacker chooses the squares (004:459): the table names them after
 * the power (`moe attack orc-1 with shove 3,4 4,3`); each is checked
 * (next to the last, a push's farther away, free), at most N; a power
 * that moves nobody takes no squares. */
Test(alloy_space, the_table_names_the_push_squares_004_459) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 2, 5);
    int k = forced_power(f, f->s.c[a].sb, FA_FORCED_PUSH, 2);
    int plain = forced_power(f, f->s.c[a].sb, FA_FORCED_PUSH, 0);
    af_go(f);
    fa_command c = af_target(FA_CMD_ATTACK, a, b);
    c.power = (int8_t)k;
    af_path(&c, 3, 3, 4, 4, 3, 5, 3);
    cr_assert_eq(af_do(f, &c), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Shove 0 moves its target at most 2 squares, not 3");
    c.n_path = 0;
    af_path(&c, 2, 3, 4, 2, 4);
    cr_assert_eq(af_do(f, &c), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "orc 1 cannot be pushed into square (2, 4): each square is next "
                             "to the last and farther from Moe");
    f->s.map.terrain[3][4] = FRAY_TERRAIN_WALL;
    c.n_path = 0;
    af_path(&c, 2, 3, 4, 4, 3);
    cr_assert_eq(af_do(f, &c), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "orc 1 cannot be pushed into square (4, 3): it is not free");
    c.n_path = 0;
    af_path(&c, 2, 3, 4, 4, 4);
    int dice[] = {15, 3};
    f->ev.cmd = c;   /* the event's command (alloy.c's event_start) */
    f->why[0] = '\0';
    cr_assert_eq(fa_check(&f->s, &f->st, &c, f->why, sizeof f->why), FRAY_OK, "%s", f->why);
    f->r.given = dice;
    f->r.n_given = 2;
    f->r.used_given = 0;
    cr_assert_eq(fa_apply(&f->r, &c), FRAY_OK);
    cr_assert(at(f, b, 4, 4), "the named squares: at %d,%d", f->st.c[b].fp.at.x,
              f->st.c[b].fp.at.y);
    fa_command p2 = af_target(FA_CMD_ATTACK, a, b);
    p2.power = (int8_t)plain;
    af_path(&p2, 1, 3, 5);
    f->st.c[b].fp.at = (fray_pos){2, 5};
    f->st.c[a].slots |= FA_SLOT_STANDARD;
    cr_assert_eq(af_do(f, &p2), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Shove 1 moves nobody: it takes no squares");
    /* the table's words */
    fray_diag d;
    fa_command pc;
    cr_assert_eq(fa_parse(&f->s, &f->st, "Moe attack orc-1 with shove-0 5,4 6,4", &pc, &d),
                 FRAY_OK, "%s", d.message);
    cr_assert_eq(pc.n_path, 2);
    cr_assert_eq(pc.power, k);
    free(f);
}

/* A journal written before forced moves: its bull rush's push fact has
 * only "to"; it still reads (a push, squares 0). */
Test(alloy_space, old_push_facts_still_read) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 2, 5);
    af_go(f);
    const char *line = "{\"event\":3,\"round\":1,\"command\":{\"action\":\"bull-rush\","
                       "\"actor\":\"Moe\",\"targets\":[\"orc 1\"]},\"dice\":[],\"choices\":[],"
                       "\"facts\":[{\"fact\":\"push\",\"who\":\"Moe\",\"target\":\"orc 1\","
                       "\"to\":[3,5]}]}";
    json_error_t err;
    json_t *o = json_loads(line, 0, &err);
    cr_assert_not_null(o, "%s", err.text);
    fa_event *back = calloc(1, sizeof *back);
    char field[96], why[200];
    cr_assert_eq(fa_event_from_json(&f->s, o, back, field, sizeof field, why, sizeof why),
                 FRAY_OK, "%s: %s", field, why);
    cr_assert_eq(back->n_facts, 1);
    cr_assert_eq(back->facts[0].kind, FA_FACT_PUSH);
    cr_assert_eq(back->facts[0].v[0], 3);
    cr_assert_eq(back->facts[0].v[2], FA_FORCED_PUSH);
    cr_assert_eq(back->facts[0].v[3], 0);
    json_decref(o);
    free(back);
    free(f);
}

/* A Large creature (2x2, L7.10) is pushed whole: its footprint moves one
 * square per square of the push, and a wall against any part stops it. */
Test(alloy_space, push_a_large_creature_l7_10_004_459) {
    fixture *f = af_new(12, 12);
    int s = af_block(f, "t", 6, 0, 30);
    int so = af_block(f, "ogre", 6, 0, 40);
    f->s.sb[so].size = FA_SIZE_LARGE;
    int a = af_add(f, "Moe", s, 0, 2, 4);
    int b = af_add(f, "ogre", so, 1, 3, 4);
    f->s.c[b].side_len = 2;
    for (int y = 0; y < 12; y++)
        f->s.map.terrain[y][7] = FRAY_TERRAIN_WALL;
    int k = forced_power(f, s, FA_FORCED_PUSH, 5);
    af_go(f);
    cr_assert_eq(f->st.c[b].fp.side, 2);
    cr_assert_eq(hit_with(f, a, b, k), FRAY_OK, "%s", f->why);
    /* straight away is down and right (the ogre's centre is below
     * Moe's): two squares, then its right side meets the wall at x 7 and
     * no other square is farther */
    cr_assert(at(f, b, 5, 6), "at %d,%d", f->st.c[b].fp.at.x, f->st.c[b].fp.at.y);
    cr_assert_eq(f->st.c[b].fp.side, 2);
    const fa_fact *p = af_fact(f, FA_FACT_PUSH, a);
    cr_assert_not_null(p);
    cr_assert_eq(p->v[3], 2);
    cr_assert_eq(p->v[4], 5);
    free(f);
}

/* Cautious tactics, bloodied, an enemy next to it and a teleport power:
 * it teleports as far from the enemies as the power goes (provoking
 * nothing, 004:459) rather than shifting 5 feet. */
Test(alloy_space, cautious_tactics_teleport_away_004_459) {
    int a, b;
    fixture *f = pair(&a, &b, 5, 5, 6, 5);
    f->s.c[a].tactics = FA_TACTICS_CAUTIOUS;
    int k = teleport_power(f, f->s.c[a].sb, 3);
    af_go(f);
    f->st.c[a].hp = 10;
    f->st.c[a].surges = 0;
    fa_command c;
    cr_assert_eq(fa_choose_command(&f->s, &f->st, a, &c), FRAY_OK);
    cr_assert_eq(c.kind, FA_CMD_ATTACK);
    cr_assert_eq(c.power, k);
    cr_assert_eq(af_do(f, &c), FRAY_OK, "%s", f->why);
    int d = fray_grid_range(f->st.c[a].fp, f->st.c[b].fp);
    cr_assert_eq(d, 4, "3 squares straight away from orc 1: %d apart", d);
    cr_assert_null(af_fact(f, FA_FACT_PROVOKE, -1));
    /* a teleport names no target */
    fa_command bad = af_target(FA_CMD_ATTACK, a, b);
    bad.power = (int8_t)k;
    bad.origin = (fray_pos){1, 1};
    f->st.c[a].slots |= FA_SLOT_MOVE;
    cr_assert_eq(af_do(f, &bad), FRAY_ERR_INVALID);
    cr_assert_str_eq(f->why, "Blink targets nobody: it moves Moe");
    free(f);
}

/* A readied charge on `enters-reach` goes off when the trigger comes
 * within its charge (its speed, 004:523), not its 5-ft reach. */
Test(alloy_space, ready_charge_enters_reach_is_its_speed_004_523_650) {
    int a, b;
    fixture *f = pair(&a, &b, 1, 5, 11, 5);
    af_go(f);
    fa_command rd = ready_cmd(a, FA_CMD_CHARGE, FA_TRIG_ENTERS_REACH, b);
    cr_assert_eq(af_do(f, &rd), FRAY_OK, "%s", f->why);
    af_end_turn(f);
    fa_command w = af_cmd(FA_CMD_WALK, b);
    af_line(f, &w, b, 3, -1, 0);   /* 11 -> 8: within 6 squares at x 7? no: 8 - 1 = 7 */
    cr_assert_eq(af_do(f, &w), FRAY_OK, "%s", f->why);
    cr_assert_null(af_fact(f, FA_FACT_READY_FIRES, a), "7 squares away: not yet");
    fa_command w2 = af_cmd(FA_CMD_WALK, b);
    af_line(f, &w2, b, 1, -1, 0);  /* to 7: 6 squares away */
    f->st.c[b].slots |= FA_SLOT_MOVE;
    int dice[] = {2};
    cr_assert_eq(af_do_dice(f, &w2, dice, 1), FRAY_OK, "%s", f->why);
    cr_assert_not_null(af_fact(f, FA_FACT_READY_FIRES, a), "within its charge");
    cr_assert(fray_grid_adjacent(f->st.c[a].fp, f->st.c[b].fp));
    free(f);
}

/* The table's map lists the narrow squares (option squeeze). */
Test(alloy_space, map_tells_the_narrow_squares_004_713) {
    int a, b;
    fixture *f = pair(&a, &b, 2, 5, 11, 11);
    fray_area_add(&f->s.narrow, (fray_pos){3, 5});
    fray_area_add(&f->s.narrow, (fray_pos){4, 5});
    af_go(f);
    static char buf[16384];
    fa_draw_map(&f->s, &f->st, buf, sizeof buf);
    cr_assert(strstr(buf, "  Narrow (a squeeze to enter): 3,5 4,5.\n"), "%s", buf);
    f->s.opt.narrow = FA_NARROW_OPEN;
    fa_draw_map(&f->s, &f->st, buf, sizeof buf);
    cr_assert_null(strstr(buf, "Narrow"), "%s", buf);
    free(f);
}
