/*
 * test_track.c - the core time track (src/core/track.h): order by key and
 * tie, insert, remove (Delay, 004:565-579), move before (Ready, 004:656),
 * the next place and the wrap to a new round.
 */
#include <criterion/criterion.h>

#include "track.h"

static void put(fray__track *t, int who, int key, int tie) {
    cr_assert_eq(fray__track_insert(t, who, key, tie, NULL), FRAY_OK);
}

static void expect(const fray__track *t, int n, const int *who) {
    cr_assert_eq(t->n, n);
    for (int i = 0; i < n; i++)
        cr_assert_eq(fray__track_who(t, i), who[i], "place %d: %d, not %d", i,
                     fray__track_who(t, i), who[i]);
    cr_assert(fray__track_valid(t));
}

/* 004:235 "counting down from highest result to lowest": initiative is a
 * descending track; ties go to the higher tie-break, then in the order
 * put in. */
Test(track, descending_by_key_then_tie) {
    fray__track t;
    fray__track_init(&t, FRAY__TRACK_DESCENDING);
    put(&t, 0, 12, 0);
    put(&t, 1, 18, 0);
    put(&t, 2, 12, 3);
    put(&t, 3, 5, 0);
    put(&t, 4, 12, 0);
    expect(&t, 5, (int[]){1, 2, 0, 4, 3});
}

/* A clock (99 Towers' phases) is ascending: the lowest phase acts first. */
Test(track, ascending_for_phases) {
    fray__track t;
    fray__track_init(&t, FRAY__TRACK_ASCENDING);
    put(&t, 0, 7, 0);
    put(&t, 1, 3, 0);
    put(&t, 2, 7, 5);
    put(&t, 3, 10, 0);
    expect(&t, 4, (int[]){1, 2, 0, 3});
}

Test(track, insert_refuses_twice_full_or_negative) {
    fray__track t;
    fray__track_init(&t, FRAY__TRACK_DESCENDING);
    put(&t, 4, 10, 0);
    int place = -5;
    cr_assert_eq(fray__track_insert(&t, 4, 11, 0, &place), FRAY_ERR_INVALID);
    cr_assert_eq(place, -5);
    cr_assert_eq(fray__track_insert(&t, -1, 11, 0, NULL), FRAY_ERR_INVALID);
    for (int i = 0; i < FRAY__TRACK_MAX - 1; i++)
        put(&t, 10 + i, i, 0);
    cr_assert_eq(t.n, FRAY__TRACK_MAX);
    cr_assert_eq(fray__track_insert(&t, 99, 5, 0, NULL), FRAY_ERR_RANGE);
    cr_assert_eq(t.n, FRAY__TRACK_MAX);
    cr_assert(fray__track_valid(&t));
}

/* Delay takes its entry off the order (004:565-579). */
Test(track, remove_and_find) {
    fray__track t;
    fray__track_init(&t, FRAY__TRACK_DESCENDING);
    put(&t, 0, 20, 0);
    put(&t, 1, 15, 0);
    put(&t, 2, 10, 0);
    cr_assert_eq(fray__track_find(&t, 1), 1);
    cr_assert_eq(fray__track_remove(&t, 1), FRAY_OK);
    cr_assert_eq(fray__track_find(&t, 1), -1);
    cr_assert_eq(fray__track_remove(&t, 1), FRAY_ERR_INVALID);
    expect(&t, 2, (int[]){0, 2});
    cr_assert_eq(fray__track_who(&t, 2), -1);
    cr_assert_eq(fray__track_who(&t, -1), -1);
}

/* Ready: "move your place in the initiative order to directly before the
 * creature ... that triggered your readied action" (004:656); the moved
 * entry takes the other's initiative so the order stays sorted. */
Test(track, move_before_later_and_earlier) {
    fray__track t;
    fray__track_init(&t, FRAY__TRACK_DESCENDING);
    put(&t, 0, 20, 0);
    put(&t, 1, 15, 0);
    put(&t, 2, 10, 0);
    put(&t, 3, 5, 0);
    int place = -1;
    /* 0 (first) moves to just before 2 */
    cr_assert_eq(fray__track_move_before(&t, 0, 2, &place), FRAY_OK);
    expect(&t, 4, (int[]){1, 0, 2, 3});
    cr_assert_eq(place, 1);
    cr_assert_eq(t.e[1].key, 10);
    /* 3 (last) moves to just before 1 (first) */
    cr_assert_eq(fray__track_move_before(&t, 3, 1, &place), FRAY_OK);
    expect(&t, 4, (int[]){3, 1, 0, 2});
    cr_assert_eq(place, 0);
    /* a newcomer (joining a battle, 004:241) before 2 */
    cr_assert_eq(fray__track_move_before(&t, 7, 2, &place), FRAY_OK);
    expect(&t, 5, (int[]){3, 1, 0, 7, 2});
    cr_assert_eq(fray__track_move_before(&t, 2, 2, NULL), FRAY_ERR_INVALID);
    cr_assert_eq(fray__track_move_before(&t, 2, 9, NULL), FRAY_ERR_INVALID);
    expect(&t, 5, (int[]){3, 1, 0, 7, 2});
}

/* A round is one pass; past the last comes the first of a new round. */
Test(track, next_wraps_to_a_new_round) {
    fray__track t;
    fray__track_init(&t, FRAY__TRACK_DESCENDING);
    bool wrapped = true;
    cr_assert_eq(fray__track_next(&t, -1, &wrapped), -1);
    put(&t, 0, 3, 0);
    put(&t, 1, 2, 0);
    put(&t, 2, 1, 0);
    cr_assert_eq(fray__track_next(&t, -1, &wrapped), 0);
    cr_assert_not(wrapped);
    cr_assert_eq(fray__track_next(&t, 0, &wrapped), 1);
    cr_assert_not(wrapped);
    cr_assert_eq(fray__track_next(&t, 1, &wrapped), 2);
    cr_assert_eq(fray__track_next(&t, 2, &wrapped), 0);
    cr_assert(wrapped);
    cr_assert_eq(fray__track_next(&t, 2, NULL), 0);
}

Test(track, rekey_moves_to_the_new_place) {
    fray__track t;
    fray__track_init(&t, FRAY__TRACK_DESCENDING);
    put(&t, 0, 20, 0);
    put(&t, 1, 15, 0);
    put(&t, 2, 10, 0);
    cr_assert_eq(fray__track_rekey(&t, 2, 17, 0), FRAY_OK);
    expect(&t, 3, (int[]){0, 2, 1});
    cr_assert_eq(fray__track_rekey(&t, 9, 17, 0), FRAY_ERR_INVALID);
}

Test(track, valid_finds_disorder_and_twins) {
    fray__track t;
    fray__track_init(&t, FRAY__TRACK_DESCENDING);
    put(&t, 0, 20, 0);
    put(&t, 1, 15, 0);
    cr_assert(fray__track_valid(&t));
    t.e[1].key = 25;
    cr_assert_not(fray__track_valid(&t));
    t.e[1].key = 15;
    t.e[1].who = 0;
    cr_assert_not(fray__track_valid(&t));
}

/* The Combat Clock (seed 000 "Time Scales"; RULINGS 9): a combatant whose
 * phase changes is put in its new place whether or not it was on the
 * clock (fray__track_set), and one that leaves the fight or holds comes
 * off it (fray__track_drop). Equal (key, tie) entries keep the order put
 * in: the moved one goes after the others. */
Test(track, set_places_on_or_off_and_drop_takes_off) {
    fray__track t;
    fray__track_init(&t, FRAY__TRACK_ASCENDING);
    fray__track_set(&t, 0, 3, -4);
    fray__track_set(&t, 1, 3, -8);
    fray__track_set(&t, 2, 1, 0);
    expect(&t, 3, (int[]){2, 0, 1});
    /* 2 acts and moves on 5 phases: from first to last. */
    fray__track_set(&t, 2, 6, 0);
    expect(&t, 3, (int[]){0, 1, 2});
    /* 1 is pushed back to phase 1 (earlier): to the front. */
    fray__track_set(&t, 1, 1, -8);
    expect(&t, 3, (int[]){1, 0, 2});
    /* Equal to 0's (key, tie): after it, moved from the front or put new. */
    fray__track_set(&t, 1, 3, -4);
    expect(&t, 3, (int[]){0, 1, 2});
    fray__track_set(&t, 5, 3, -4);
    expect(&t, 4, (int[]){0, 1, 5, 2});
    cr_assert(fray__track_drop(&t, 1));
    cr_assert_not(fray__track_drop(&t, 1), "already off");
    expect(&t, 3, (int[]){0, 5, 2});
    /* A full track still takes a new place for one already on it. */
    fray__track u;
    fray__track_init(&u, FRAY__TRACK_DESCENDING);
    for (int i = 0; i < FRAY__TRACK_MAX; i++)
        fray__track_set(&u, i, i, 0);
    fray__track_set(&u, 0, 100, 0);
    cr_assert_eq(u.n, FRAY__TRACK_MAX);
    cr_assert_eq(fray__track_who(&u, 0), 0);
    cr_assert_eq(fray__track_who(&u, 1), FRAY__TRACK_MAX - 1);
    cr_assert(fray__track_valid(&u));
}

/* Issue 16: fray__track_set places an entry on a track of more than
 * FRAY__TRACK_FEW entries by halving (fray__track_set_halving) and shifts
 * the passed entries in one move; the order must be the long way's
 * (fray__track_set_stepwise, one insertion-sort step) entry for entry,
 * ties included: on the Combat Clock (seed 000 "Time Scales"; RULINGS 9)
 * and Silent Winter's track a different order among equals would change
 * who acts first and so the fight. */
static uint64_t mix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static void same_track(const fray__track *a, const fray__track *b, int step) {
    cr_assert_eq(a->n, b->n, "step %d: %d entries, the long way %d", step,
                 a->n, b->n);
    for (int i = 0; i < a->n; i++)
        cr_assert(a->e[i].who == b->e[i].who && a->e[i].key == b->e[i].key &&
                      a->e[i].tie == b->e[i].tie,
                  "step %d, place %d: %d (%d, %lld), the long way %d (%d, %lld)",
                  step, i, a->e[i].who, a->e[i].key, (long long)a->e[i].tie,
                  b->e[i].who, b->e[i].key, (long long)b->e[i].tie);
    cr_assert(fray__track_valid(a), "step %d: out of order", step);
}

/* Random keys from a few values and ties from a few values, so equal
 * keys and equal (key, tie) pairs are common; entries come new, move
 * earlier, later or stay, and some are dropped; both directions. */
Test(track, set_matches_the_long_way_with_random_keys_and_ties) {
    for (int dir = 0; dir < 2; dir++) {
        for (int range = 2; range <= 40; range += 19) {
            uint64_t seed = 16u + (uint64_t)(dir * 100 + range);
            fray__track fast, slow;
            fray__track_init(&fast, (fray__track_dir)dir);
            fray__track_init(&slow, (fray__track_dir)dir);
            int seen_new = 0, seen_earlier = 0, seen_later = 0, seen_far = 0,
                seen_twin = 0;
            for (int step = 0; step < 20000; step++) {
                uint64_t r = mix(&seed);
                int who = (int)(r % FRAY__TRACK_MAX);
                if ((r >> 8) % 16 == 0) {
                    cr_assert_eq(fray__track_drop(&fast, who),
                                 fray__track_drop(&slow, who));
                    same_track(&fast, &slow, step);
                    continue;
                }
                int32_t key = (int32_t)((r >> 16) % (uint64_t)range) - range / 2;
                int64_t tie = (int64_t)((r >> 32) % 3) - 1;
                int before = fray__track_find(&fast, who);
                for (int i = 0; i < fast.n; i++)
                    if (fast.e[i].who != who && fast.e[i].key == key &&
                        fast.e[i].tie == tie)
                        seen_twin++;
                fray__track_set(&fast, who, key, tie);
                fray__track_set_stepwise(&slow, who, key, tie);
                same_track(&fast, &slow, step);
                int after = fray__track_find(&fast, who);
                cr_assert_geq(after, 0);
                seen_new += before < 0;
                seen_earlier += before >= 0 && after < before;
                seen_later += before >= 0 && after > before;
                seen_far += before >= 0 && after - before > 4;
            }
            /* The walk went every way a shortcut can go wrong (far: more
             * than four places toward the end). */
            cr_assert(seen_new > 100 && seen_earlier > 100 &&
                          seen_later > 100 && seen_far > 100 && seen_twin > 100,
                      "new %d, earlier %d, later %d, far %d, twins %d",
                      seen_new, seen_earlier, seen_later, seen_far, seen_twin);
        }
    }
}

/* Equal (key, tie): the moved or new entry goes after all its equals,
 * from whichever side it comes (track.h "Order"). */
Test(track, set_goes_after_its_equals_from_either_side) {
    fray__track t;
    fray__track_init(&t, FRAY__TRACK_ASCENDING);
    fray__track_set(&t, 0, 1, 0);
    fray__track_set(&t, 1, 5, 0);
    fray__track_set(&t, 2, 5, 0);
    fray__track_set(&t, 3, 5, 0);
    fray__track_set(&t, 4, 9, 0);
    expect(&t, 5, (int[]){0, 1, 2, 3, 4});
    fray__track_set(&t, 0, 5, 0); /* later, past three equals */
    expect(&t, 5, (int[]){1, 2, 3, 0, 4});
    fray__track_set(&t, 4, 5, 0); /* earlier, stops after the equals */
    expect(&t, 5, (int[]){1, 2, 3, 0, 4});
    fray__track_set(&t, 1, 5, 0); /* stays the same: to the back of them */
    expect(&t, 5, (int[]){2, 3, 0, 4, 1});
    fray__track_set(&t, 7, 5, 0); /* new: after them */
    expect(&t, 6, (int[]){2, 3, 0, 4, 1, 7});
    fray__track_set(&t, 3, 5, 1); /* a higher tie: before them */
    expect(&t, 6, (int[]){3, 2, 0, 4, 1, 7});
}

/* A far move on a track of twelve (placed by halving) past many equals
 * and up to a lower key: still after all of its equals. */
Test(track, far_move_goes_after_its_equals) {
    fray__track t;
    fray__track_init(&t, FRAY__TRACK_DESCENDING);
    for (int i = 0; i < 12; i++)
        fray__track_set(&t, i, i < 1 ? 9 : i < 10 ? 5 : 2, 0);
    /* 0 (key 9, first) comes down to 5: after the nine 5s, before the 2s */
    fray__track_set(&t, 0, 5, 0);
    expect(&t, 12, (int[]){1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 10, 11});
    /* 1 (first) to 2: past everything, after both 2s */
    fray__track_set(&t, 1, 2, 0);
    expect(&t, 12, (int[]){2, 3, 4, 5, 6, 7, 8, 9, 0, 10, 11, 1});
    /* 2 keeps 5 but gets a lower tie: after the 5s, before the 2s */
    fray__track_set(&t, 2, 5, -1);
    expect(&t, 12, (int[]){3, 4, 5, 6, 7, 8, 9, 0, 2, 10, 11, 1});
}
