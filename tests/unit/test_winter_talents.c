/* test_winter_talents.c - talents and the statuses they bring (seed 002:
 * 002:37 "most talents require you to spend pain", 002:39 "Wounded ... by
 * being hit with one of a myriad of talents", 002:69 talents "modify
 * existing attacks or actions", 002:98 Stunned, 002:99 Paralyzed;
 * docs/rules/silent-winter.md 27): the vocabulary (stun, paralyze,
 * wound, bonus; resolve attack or automatic), Stunned and Paralyzed with
 * their ends, every setting of the options stun-stacking, talent-miss,
 * stun-interrupts and stun-maintain; the table's words, the journal, undo,
 * the view and the tactics. */
#include "winter_fixture.h"

#include <stdlib.h>

#include "fray/chances.h"
#include "fray/view.h"

#define KNIGHT "examples/silent-winter/knight.yaml"

/* The knight declares on 1; Lothaire, the hound and the corpse on 7. */
static fray_fight *knight_fight(fray_setup **s) {
    *s = sw_t_load(KNIGHT);
    return sw_t_start(*s, (int[]){6, 6, 6}, 3);
}

static int talent_index(const sw_setup *s, const char *name) {
    for (int k = 0; k < s->n_talents; k++)
        if (strcmp(s->tl[k].name, name) == 0)
            return k;
    cr_assert_fail("no talent %s", name);
    return -1;
}

/* 002:98 "Stunned: you are undefended against all melee foes (you don't
 * have to Engage them again when the stun ends ...). You also lose all
 * cover. You cannot take any combat actions." Hamstring (stun 2, Pain 1)
 * hits the hound on segment 1: Stunned through segment 3. */
Test(winter_talents, hamstring_stuns_on_a_hit_002_98) {
    fray_setup *s;
    fray_fight *f = knight_fight(&s);
    sw_state *st = sw_t_st(f);
    int kn = sw_t_who(f, "knight"), hd = sw_t_who(f, "hound"), lo = sw_t_who(f, "lothaire");
    sw_t_ready(f, kn, hd);
    sw_t_ready(f, hd, kn);
    st->c[hd].cover = SW_COVER_PARTIAL;
    sw_t_do(f, "knight talent hamstring hound", (int[]){20, 1, 3, 3}, 4);
    cr_assert_eq(st->c[kn].pain, 7 - 1, "002:37: the talent's Pain spent");
    cr_assert_eq(st->c[kn].ready, 1 + 1 + 3, "the attack's delay (002:69)");
    cr_assert_eq(st->c[hd].health, 36 - 6, "the hit's damage as an attack's");
    cr_assert_eq(st->c[hd].stun_until, 3);
    cr_assert(sw_stunned(st, hd));
    cr_assert_eq(st->c[hd].cover, SW_COVER_NONE, "002:98: it loses all cover");
    cr_assert_eq(st->c[hd].engages, kn, "002:98: its Engage kept");
    cr_assert_eq(st->c[hd].ready, 4, "no combat actions until it ends");
    st->c[lo].engages = (int8_t)hd;
    cr_assert(sw_undefended(sw_t_setup(s), st, hd, lo, false), "Undefended against melee foes");
    cr_assert(!sw_undefended(sw_t_setup(s), st, hd, -1, true),
              "002:55: not at range (it can move)");
    char buf[4096];
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf),
                     "Grave-Hound is Stunned through segment 3"), "%s", buf);
    cr_assert(strstr(buf, "Knight spends 1 Pain on hamstring"), "%s", buf);
    sw_t_ready(f, hd, kn);
    sw_t_refused(f, "hound attack knight", "Stunned through segment 3");
    st->c[hd].ready = 4;
    sw_t_to(f, 3);
    sw_t_do(f, "next", NULL, 0);
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "Grave-Hound is no longer Stunned"), "%s", buf);
    cr_assert(!sw_stunned(st, hd));
    cr_assert_eq(st->c[hd].engages, kn, "it resumes its Engage (002:98)");
    sw_t_do(f, "hound attack knight", (int[]){1, 20}, 2);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:99 "Paralyzed: As Stunned, but you also cannot move"; 002:55 "You
 * only become Undefended against ranged attackers if you cannot move,
 * i.e. if you are Paralyzed". */
Test(winter_talents, paralyzed_is_undefended_at_range_too_002_99) {
    fray_setup *s = sw_t_load(KNIGHT);
    sw_setup *sd = sw_t_setup(s);
    int kn = sw_find_combatant(sd, "knight");
    sd->c[kn].b.talents |= 1u << talent_index(sd, "pinning shot");
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    sw_state *st = sw_t_st(f);
    int hd = sw_t_who(f, "hound");
    sw_t_ready(f, kn, hd);
    sw_t_do(f, "knight talent pinning-shot hound", (int[]){20, 1, 1, 1}, 4);
    cr_assert_eq(st->c[hd].para_until, 3);
    cr_assert(sw_paralyzed(st, hd) && sw_stunned(st, hd), "as Stunned");
    cr_assert(sw_undefended(sd, st, hd, -1, true), "Undefended at range (002:55)");
    /* the view shows it with its end */
    fray_fight_view *v = NULL;
    cr_assert_eq(fray_fight_view_new(f, NULL, &v), FRAY_OK);
    const fray_view_combatant *o = &v->combatants[hd];
    bool seen = false;
    for (int k = 0; k < o->n_conditions; k++)
        if (strcmp(o->conditions[k].name, "Paralyzed") == 0) {
            seen = true;
            cr_assert(strstr(o->conditions[k].until, "through segment 3"), "%s",
                      o->conditions[k].until);
        }
    cr_assert(seen, "the view lists Paralyzed");
    fray_fight_view_free(v);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:39 "a number of ways you can become Wounded ... generally by being
 * hit with one of a myriad of talents": crippling blow (wound, Pain 3). */
Test(winter_talents, wounded_by_a_talent_002_39) {
    fray_setup *s;
    fray_fight *f = knight_fight(&s);
    sw_state *st = sw_t_st(f);
    int kn = sw_t_who(f, "knight"), hd = sw_t_who(f, "hound");
    sw_t_ready(f, kn, hd);
    sw_t_do(f, "knight talent crippling-blow hound", (int[]){1, 20}, 2);
    cr_assert(!(st->c[hd].flags & SW_F_WOUNDED), "a miss brings nothing");
    cr_assert_eq(st->c[kn].pain, 4, "talent-miss: spent (the default)");
    sw_t_ready(f, kn, hd);
    sw_t_do(f, "knight talent crippling-blow hound", (int[]){20, 1, 2, 2}, 4);
    cr_assert(st->c[hd].flags & SW_F_WOUNDED);
    cr_assert(st->c[hd].flags & SW_F_BLEEDING, "002:102: Wounded bleeds");
    cr_assert(sw_out(&st->c[hd]), "no combat actions (002:39)");
    cr_assert_eq(st->c[kn].pain, 1);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* 002:37 "most talents require you to spend pain ... Once you're out,
 * you're Winded and cannot do anything that requires Pain"; a melee
 * talent needs the Engage (002:17); a talent it lacks is refused. */
Test(winter_talents, winded_and_other_refusals_002_37) {
    fray_setup *s;
    fray_fight *f = knight_fight(&s);
    sw_state *st = sw_t_st(f);
    int kn = sw_t_who(f, "knight"), hd = sw_t_who(f, "hound");
    sw_t_refused(f, "knight talent hamstring hound", "must Engage Grave-Hound");
    sw_t_ready(f, kn, hd);
    sw_t_refused(f, "knight talent dread-gaze hound", "has no such talent");
    sw_t_refused(f, "knight talent hamstring", "expected whom Knight uses hamstring on");
    sw_t_refused(f, "knight talent kick hound", "'kick': expected a talent");
    st->c[kn].pain = 2;
    sw_t_refused(f, "knight talent crippling-blow hound", "has 2 Pain: crippling blow needs 3");
    st->c[kn].pain = 0;
    sw_t_refused(f, "knight talent hamstring hound", "is Winded and cannot use hamstring");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* An automatic talent (no roll): the hound's dread gaze (Pain 2, delay 4,
 * stun 3) Stuns the knight it engages; a bonus talent (power attack, +5)
 * adds to the attack roll. */
Test(winter_talents, automatic_and_bonus_talents) {
    fray_setup *s;
    fray_fight *f = knight_fight(&s);
    sw_state *st = sw_t_st(f);
    int kn = sw_t_who(f, "knight"), hd = sw_t_who(f, "hound");
    sw_t_ready(f, hd, kn);
    sw_t_do(f, "hound talent dread-gaze knight", NULL, 0);
    cr_assert_eq(st->c[hd].pain, 8 - 2);
    cr_assert_eq(st->c[hd].ready, 1 + 1 + 4, "the talent's own delay");
    cr_assert_eq(st->c[kn].stun_until, 1 + 3);
    cr_assert_eq(st->c[kn].ready, 5);
    sw_t_ready(f, hd, kn);
    sw_t_do(f, "hound talent power-attack knight", (int[]){10, 1, 1}, 3);
    char buf[4096];
    /* 10 + 6 + 5 against 1 + 4 (Undefended: Stunned, 002:98) */
    cr_assert(strstr(sw_t_told(f, buf, sizeof buf), "21 against Undefended 5"), "%s", buf);
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Ruling stun-stacking (longer | add): a second Stun while Stunned. */
Test(winter_talents, stun_stacking_settings) {
    for (int add = 0; add < 2; add++) {
        fray_setup *s = sw_t_load(KNIGHT);
        sw_t_setup(s)->opt.stun_add = add;
        fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
        sw_state *st = sw_t_st(f);
        int kn = sw_t_who(f, "knight"), hd = sw_t_who(f, "hound");
        sw_t_ready(f, hd, kn);
        sw_t_do(f, "hound talent dread-gaze knight", NULL, 0); /* through 4 */
        sw_t_ready(f, hd, kn);
        sw_t_do(f, "hound talent dread-gaze knight", NULL, 0); /* 3 more */
        cr_assert_eq(st->c[kn].stun_until, add ? 7 : 4, "stun-stacking: %s",
                     add ? "add" : "longer");
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* Ruling talent-miss (spent | kept): is the Pain spent on a miss? */
Test(winter_talents, talent_miss_settings) {
    for (int kept = 0; kept < 2; kept++) {
        fray_setup *s = sw_t_load(KNIGHT);
        sw_t_setup(s)->opt.talent_pain_on_hit = kept;
        fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
        sw_state *st = sw_t_st(f);
        int kn = sw_t_who(f, "knight"), hd = sw_t_who(f, "hound");
        sw_t_ready(f, kn, hd);
        sw_t_do(f, "knight talent hamstring hound", (int[]){1, 20}, 2);
        cr_assert_eq(st->c[kn].pain, kept ? 7 : 6, "talent-miss: %s", kept ? "kept" : "spent");
        sw_t_ready(f, kn, hd);
        sw_t_do(f, "knight talent hamstring hound", (int[]){20, 1, 1, 1}, 4);
        cr_assert_eq(st->c[kn].pain, kept ? 6 : 5, "a hit spends it either way");
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* Ruling stun-interrupts (yes | no): a pending Engage of one Stunned
 * ("You cannot take any combat actions", 002:98). */
Test(winter_talents, stun_interrupts_settings) {
    for (int keep = 0; keep < 2; keep++) {
        fray_setup *s = sw_t_load(KNIGHT);
        sw_t_setup(s)->opt.stun_keeps_pending = keep;
        fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
        sw_state *st = sw_t_st(f);
        int kn = sw_t_who(f, "knight"), hd = sw_t_who(f, "hound"), co = sw_t_who(f, "corpse");
        sw_t_do(f, "knight engage corpse", NULL, 0);
        cr_assert_eq(st->c[kn].pend_kind, SW_PEND_ENGAGE);
        sw_t_ready(f, hd, kn);
        sw_t_do(f, "hound talent dread-gaze knight", NULL, 0);
        cr_assert_eq(st->c[kn].pend_kind, keep ? SW_PEND_ENGAGE : SW_PEND_NONE,
                     "stun-interrupts: %s", keep ? "no" : "yes");
        sw_t_to(f, 5);
        cr_assert_eq(st->c[kn].engages, keep ? co : -1);
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* Ruling stun-maintain (keep | roll): a Stunned caster's Maintained
 * spells (002:73 asks a roll only when Pain is lost). */
Test(winter_talents, stun_maintain_settings) {
    for (int roll = 0; roll < 2; roll++) {
        fray_setup *s = sw_t_load(KNIGHT);
        sw_setup *sd = sw_t_setup(s);
        sd->opt.stun_maint_roll = roll;
        fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
        sw_state *st = sw_t_st(f);
        int kn = sw_t_who(f, "knight"), hd = sw_t_who(f, "hound");
        int ward = -1;
        for (int k = 0; k < sd->n_spells; k++)
            if (strcmp(sd->sp[k].name, "ward") == 0)
                ward = k;
        cr_assert_geq(ward, 0);
        st->c[kn].n_maint = 1;
        st->maintained = true; /* (as sw_apply marks it) */
        st->c[kn].maint_spell[0] = (int8_t)ward;
        st->c[kn].maint_target[0] = (int8_t)kn;
        sw_t_ready(f, hd, kn);
        /* roll: a flat Endurance roll, 4 + 1 against 20, fails */
        sw_t_do(f, "hound talent dread-gaze knight", roll ? (int[]){1, 20} : NULL, roll ? 2 : 0);
        cr_assert_eq(st->c[kn].n_maint, roll ? 0 : 1, "stun-maintain: %s", roll ? "roll" : "keep");
        fray_fight_free(f);
        fray_setup_free(s);
    }
}

/* fray check: a talent with two effects, at its line. */
Test(winter_talents, talent_file_errors) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, "tests/data/winter/bad_talent.yaml");
    fray_diag diag;
    memset(&diag, 0, sizeof diag);
    fray_setup *s = NULL;
    cr_assert_neq(fray_setup_load(path, NULL, &s, &diag), FRAY_OK);
    cr_assert_eq(diag.line, 4, "%d: %s", diag.line, diag.message);
    cr_assert(strstr(diag.message, "one effect"), "%s", diag.message);
}

/* Tactics a GM would recognise (the knight's fights): talents are used,
 * never leaving the user Winded, never on a foe Wounded already; the
 * journal ("talent": "hamstring") reads back to the same fight; undo
 * takes back a Stun. */
static void talents_look(const sw_setup *sd, const sw_state *st, const sw_event *cmd,
                         uint64_t seed, void *ctx) {
    int *uses = ctx;
    if (cmd->kind == SW_EV_TALENT) {
        (*uses)++;
        cr_assert_geq(st->c[cmd->actor].pain - sd->tl[cmd->arg].pain, 1,
                      "seed %llu: Winded by its own talent", (unsigned long long)seed);
        cr_assert(!(st->c[cmd->target].flags & SW_F_WOUNDED));
    }
}

Test(winter_talents, tactics_journal_and_undo) {
    fray_setup *s = sw_t_load(KNIGHT);
    int uses = 0;
    for (uint64_t seed = 1; seed <= 10; seed++)
        sw_t_play(s, seed, talents_look, &uses, NULL);
    cr_assert_geq(uses, 10, "%d talents in 10 fights", uses);
    fray_fight *f = sw_t_start(s, (int[]){6, 6, 6}, 3);
    int kn = sw_t_who(f, "knight"), hd = sw_t_who(f, "hound");
    sw_t_ready(f, hd, kn);
    sw_t_do(f, "hound talent dread-gaze knight", NULL, 0);
    cr_assert_eq(sw_t_st(f)->c[kn].stun_until, 4);
    cr_assert_eq(fray_fight_undo(f), FRAY_OK);
    cr_assert_eq(sw_t_st(f)->c[kn].stun_until, 0, "undo: no longer Stunned");
    fray_fight_free(f);
    fray_setup_free(s);
}

/* Issue 14 and the brief's "event_narrate_hidden": a player who does not
 * see the enemies' numbers reads the hound's Pain spent on its gaze in
 * words, never as a number. */
Test(winter_talents, pain_spent_hidden_from_players) {
    fray_setup *s;
    fray_fight *f = knight_fight(&s);
    int kn = sw_t_who(f, "knight"), hd = sw_t_who(f, "hound");
    sw_t_ready(f, hd, kn);
    sw_t_do(f, "hound talent dread-gaze knight", NULL, 0);
    int controls[] = {kn};
    fray_view_scope sc = fray_view_scope_player(controls, 1);
    sc.enemy_numbers = false;
    char buf[4096];
    size_t n = 0;
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_event_narrate_for(f, fray_fight_events(f) - 1, &sc, buf, sizeof buf, &n,
                                        &d), FRAY_OK, "%s", d.message);
    cr_assert(strstr(buf, "Grave-Hound spends Pain on dread gaze (Pain: tiring)"), "%s", buf);
    cr_assert(!strstr(buf, "(Pain 6)"), "%s", buf);
    cr_assert(strstr(buf, "Knight is Stunned through segment 4"), "%s", buf);
    fray_fight_free(f);
    fray_setup_free(s);
}


/* The chances at the table (issue 19) of an attack with a talent: its
 * bonus counted (power attack +5: d20 + 11 against d20 + 9), its effect
 * told, a Wound counted as out of the fight on every hit (002:39); an
 * automatic talent rolls no dice. */
Test(winter_talents, chances_of_a_talent) {
    fray_setup *s;
    fray_fight *f = knight_fight(&s);
    int kn = sw_t_who(f, "knight"), hd = sw_t_who(f, "hound");
    sw_t_ready(f, hd, kn);
    sw_t_ready(f, kn, hd);
    fray_chances *c = malloc(sizeof *c);
    cr_assert_not_null(c);
    fray_diag d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(fray_action_chances(f, hd, "talent power-attack knight", c, &d), FRAY_OK, "%s",
                 d.message);
    int wins = 0;
    for (int x = 1; x <= 20; x++)
        for (int y = 1; y <= 20; y++)
            wins += x + 11 > y + 9;
    cr_assert_float_eq(c->outcomes[1].share, wins / 400.0, 1e-12, "%f", c->outcomes[1].share);
    cr_assert(strstr(c->modifiers, "power attack: attack +5"), "%s", c->modifiers);
    cr_assert_eq(fray_action_chances(f, hd, "talent dread-gaze knight", c, &d), FRAY_ERR_INVALID);
    cr_assert(strstr(d.message, "rolls no dice"), "%s", d.message);
    cr_assert_eq(fray_action_chances(f, kn, "talent crippling-blow hound", c, &d), FRAY_OK, "%s",
                 d.message);
    cr_assert_float_eq(c->p_drop, c->outcomes[1].share, 1e-12, "a Wound on every hit");
    cr_assert(strstr(c->assumed, "Wounded too (002:39)"), "%s", c->assumed);
    free(c);
    fray_fight_free(f);
    fray_setup_free(s);
}
