/*
 * close.c - where the tactics' step toward a foe ends (docs/rules/d6.md
 * "The tactics", ruling 69): `step` meters on the line to the foe, in
 * whole meters and never farther than `step`, the caller's step stopping
 * short of the foe; and never on a point another combatant is on (in the
 * fight or out of it): a meter shorter each time until the point is free,
 * its own point when none is. The GM's `move` and `run` (rules.c,
 * things.c) are refused onto such a point (ruling 71), and a failed run
 * stops short of one (things.c, ruling 72).
 */
#include "d6_int.h"

#include <math.h>
#include <stdio.h>

void d6_toward(const d6_state *st, int a, int t, double step, int16_t *x, int16_t *y) {
    double dx = st->c[t].x - st->c[a].x, dy = st->c[t].y - st->c[a].y;
    double d = sqrt(dx * dx + dy * dy);
    if (d <= 0)
        d = 1;
    double k = step / d;
    if (k > 1)
        k = 1;
    double nx = st->c[a].x + dx * k, ny = st->c[a].y + dy * k;
    /* whole meters, never farther than `step` from where it stands */
    double fx = dx >= 0 ? floor(nx) : ceil(nx), fy = dy >= 0 ? floor(ny) : ceil(ny);
    *x = (int16_t)fx;
    *y = (int16_t)fy;
}

int d6_point_holder(const d6_state *st, int a, int16_t x, int16_t y) {
    for (int i = 0; i < st->n; i++)
        if (i != a && st->c[i].x == x && st->c[i].y == y)
            return i;
    return -1;
}

bool d6_point_taken(const d6_state *st, int a, int16_t x, int16_t y) {
    return d6_point_holder(st, a, x, y) >= 0;
}

bool d6_close_point(const d6_state *st, int a, int t, double step, int16_t *x, int16_t *y) {
    for (double k = step; k > 0; k -= 1) {
        d6_toward(st, a, t, k, x, y);
        if ((*x != st->c[a].x || *y != st->c[a].y) && !d6_point_taken(st, a, *x, *y))
            return true;
    }
    *x = st->c[a].x;
    *y = st->c[a].y;
    return false;
}

bool d6_point_refused(const d6_setup *s, const d6_state *st, int a, int16_t x, int16_t y,
                      const char *what, char *why, size_t size) {
    int h = d6_point_holder(st, a, x, y);
    if (h < 0)
        return false;
    if (why && size)
        snprintf(why, size, "%s cannot end its %s on (%d, %d): %s %s there (one combatant "
                            "to a point; choose a point beside it)",
                 s->c[a].name, what, x, y, s->c[h].name,
                 d6_out(&st->c[h]) ? "lies, out of the fight," : "stands");
    return true;
}
