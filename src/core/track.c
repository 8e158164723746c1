/*
 * track.c - the time track (track.h): an ordered list of who acts when.
 */
#include "track.h"

#include <assert.h>
#include <string.h>

void fray__track_init(fray__track *t, fray__track_dir dir) {
    /* The entries past n are never read: only n and the order matter. */
    t->n = 0;
    t->dir = (uint8_t)dir;
}

int fray__track_find(const fray__track *t, int who) {
    for (int i = 0; i < t->n; i++)
        if (t->e[i].who == who)
            return i;
    return -1;
}

int fray__track_who(const fray__track *t, int place) {
    if (place < 0 || place >= t->n)
        return -1;
    return t->e[place].who;
}

/* Opens a gap at `place` (0 .. n) and fills it. */
static void put_at(fray__track *t, int place, fray__track_entry e) {
    memmove(&t->e[place + 1], &t->e[place],
            (size_t)(t->n - place) * sizeof t->e[0]);
    t->e[place] = e;
    t->n++;
}

static void take_at(fray__track *t, int place) {
    memmove(&t->e[place], &t->e[place + 1],
            (size_t)(t->n - place - 1) * sizeof t->e[0]);
    t->n--;
}

/* The place a new entry (key, tie) goes: after every entry it does not
 * go before. */
static int place_for(const fray__track *t, int32_t key, int64_t tie) {
    for (int i = 0; i < t->n; i++)
        if (fray__track_goes_before(t, key, tie, &t->e[i]))
            return i;
    return t->n;
}

/* The first place in lo .. hi - 1 whose entry (key, tie) goes before, hi
 * when none (the entries there in order). */
static int first_after(const fray__track *t, int lo, int hi, int32_t key,
                       int64_t tie) {
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (fray__track_goes_before(t, key, tie, &t->e[mid]))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

void fray__track_set_halving(fray__track *t, int who, int32_t key,
                             int64_t tie) {
    assert(who >= 0 && who < FRAY__TRACK_MAX);
    int n = t->n;
    int w = 0;
    while (w < n && t->e[w].who != who)
        w++;
    if (w == n) {
        /* New: it starts past the last and can only move earlier. */
        assert(n < FRAY__TRACK_MAX);
        n++;
        t->n = (uint8_t)n;
    }
    int place;
    if (w > 0 && fray__track_goes_before(t, key, tie, &t->e[w - 1])) {
        /* Earlier: to the first of e[0 .. w-1] it goes before (e[w-1] at
         * the latest); those from there to w-1 shift up by one. */
        place = first_after(t, 0, w - 1, key, tie);
        memmove(&t->e[place + 1], &t->e[place],
                (size_t)(w - place) * sizeof t->e[0]);
    } else {
        /* Here or later: after every one of e[w+1 .. n-1] it does not go
         * before; those shift down by one. */
        place = first_after(t, w + 1, n, key, tie) - 1;
        memmove(&t->e[w], &t->e[w + 1], (size_t)(place - w) * sizeof t->e[0]);
    }
    /* Written as the insertion step writes it: 99 Towers' Debug check of
     * the duel's start compares whole states byte for byte. */
    t->e[place] = (fray__track_entry){(int16_t)who, key, tie};
}

fray_status fray__track_insert(fray__track *t, int who, int32_t key,
                               int64_t tie, int *out_place) {
    if (who < 0 || who > INT16_MAX || fray__track_find(t, who) >= 0)
        return FRAY_ERR_INVALID;
    if (t->n >= FRAY__TRACK_MAX)
        return FRAY_ERR_RANGE;
    int place = place_for(t, key, tie);
    fray__track_entry e = {(int16_t)who, key, tie};
    put_at(t, place, e);
    if (out_place)
        *out_place = place;
    return FRAY_OK;
}

bool fray__track_drop(fray__track *t, int who) {
    int w = fray__track_find(t, who);
    if (w < 0)
        return false;
    for (t->n--; w < t->n; w++)
        t->e[w] = t->e[w + 1];
    return true;
}

fray_status fray__track_remove(fray__track *t, int who) {
    int place = fray__track_find(t, who);
    if (place < 0)
        return FRAY_ERR_INVALID;
    take_at(t, place);
    return FRAY_OK;
}

fray_status fray__track_move_before(fray__track *t, int who, int before,
                                    int *out_place) {
    if (who == before || who < 0 || who > INT16_MAX)
        return FRAY_ERR_INVALID;
    int b = fray__track_find(t, before);
    if (b < 0)
        return FRAY_ERR_INVALID;
    int w = fray__track_find(t, who);
    if (w < 0 && t->n >= FRAY__TRACK_MAX)
        return FRAY_ERR_RANGE;
    fray__track_entry e = {(int16_t)who, t->e[b].key, t->e[b].tie};
    if (w >= 0) {
        take_at(t, w);
        if (w < b)
            b--;
    }
    put_at(t, b, e);
    if (out_place)
        *out_place = b;
    return FRAY_OK;
}

fray_status fray__track_rekey(fray__track *t, int who, int32_t key,
                              int64_t tie) {
    if (fray__track_remove(t, who) != FRAY_OK)
        return FRAY_ERR_INVALID;
    /* Cannot fail: one place was just freed and who is not on it. */
    return fray__track_insert(t, who, key, tie, NULL);
}

int fray__track_next(const fray__track *t, int place, bool *out_wrapped) {
    if (out_wrapped)
        *out_wrapped = false;
    if (t->n == 0)
        return -1;
    int next = place + 1;
    if (next < 0)
        next = 0;
    if (next >= t->n) {
        if (out_wrapped)
            *out_wrapped = true;
        next = 0;
    }
    return next;
}

bool fray__track_valid(const fray__track *t) {
    if (t->n > FRAY__TRACK_MAX)
        return false;
    for (int i = 0; i < t->n; i++) {
        if (t->e[i].who < 0)
            return false;
        for (int j = i + 1; j < t->n; j++)
            if (t->e[j].who == t->e[i].who)
                return false;
        if (i > 0 && fray__track_goes_before(t, t->e[i].key, t->e[i].tie, &t->e[i - 1]))
            return false;
    }
    return true;
}
