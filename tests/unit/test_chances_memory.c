/*
 * test_chances_memory.c - issue 19, what `odds ID` allocates
 * (fray_chances_all, include/fray/chances.h): room for 32 options, not
 * 64 (each about 60 KB), for a list that fits in it, and every byte given
 * back by fray_chances_list_free with the size it was taken with (an
 * allocator hook that counts them).
 */
#include <stdlib.h>

#include "chances_fixture.h"

typedef struct counter {
    size_t live, most, calls;
    bool mismatch;
    void *p;
    size_t size;
} counter;

static void *counting(void *ud, void *p, size_t old_size, size_t new_size) {
    counter *c = ud;
    c->calls++;
    if (p && p == c->p && old_size != c->size)
        c->mismatch = true;
    if (new_size == 0) {
        c->live -= old_size;
        free(p);
        return NULL;
    }
    void *q = realloc(p, new_size);
    if (q) {
        c->live = c->live - old_size + new_size;
        if (c->live > c->most)
            c->most = c->live;
        c->p = q;
        c->size = new_size;
    }
    return q;
}

/* Ysolde in the brawl: 19 options, in room for 32; all of it given back. */
Test(chances_memory, room_for_32_and_all_given_back) {
    fray_setup *s = cf_load(FRAY_SOURCE_DIR "/examples/towers/brawl.yaml");
    fray_fight *f = cf_start(s, 20261126);
    int a = cf_who(f, "ysolde");
    counter c;
    memset(&c, 0, sizeof c);
    fray_allocator al = {.realloc = counting, .ud = &c};
    fray_chances_list l;
    fray_diag d;
    cr_assert_eq(fray_chances_all(f, a, &al, &l, &d), FRAY_OK, "%s", d.message);
    cr_expect(l.n > 0 && l.n < 32, "%d options", l.n);
    cr_expect_eq(l.capacity, 32);
    cr_expect(c.live >= 32 * sizeof(fray_chances) &&
                  c.live < 40 * sizeof(fray_chances),
              "%zu bytes held for %d options", c.live, l.n);
    cr_expect(c.most < 64 * sizeof(fray_chances), "at most %zu bytes", c.most);
    fray_chances_list_free(&l);
    cr_expect_eq(c.live, 0, "%zu bytes not given back", c.live);
    cr_expect(!c.mismatch, "freed with the size it was allocated with");
    fray_fight_free(f);
    fray_setup_free(s);
}
