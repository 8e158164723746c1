/* area.c - areas of effect, line of effect's uses and flanking on the
 * tactical map (seed 004 "Close Attacks", "Area Attacks", "Area Types",
 * "Flanking"; seed 000 "Areas"). Declared in include/fray/grid.h. No I/O,
 * no globals, no allocation: an area is a 64x64 bitmap the caller owns. */
#include "internal.h"
#include "grid_small.h"

#include <stdlib.h>
#include <string.h>

#include "fray/grid.h"

/* Shapes never need a reach beyond the map: no two spaces of a 64x64 map
 * are more than 63 + 63 / 2 apart by any metric here, so larger sizes are
 * cut to this before any arithmetic (and cannot overflow). */
enum { AREA_FAR = 2 * FRAY_GRID_MAX };


static bool in_range64(int x, int y) {
    return x >= 0 && y >= 0 && x < FRAY_GRID_MAX && y < FRAY_GRID_MAX;
}

static fray_footprint F1(int x, int y) {
    fray_footprint f;
    f.at = P(x, y);
    f.side = 1;
    return f;
}

static int distance(fray_area_metric m, int dx, int dy) {
    dx = abs(dx);
    dy = abs(dy);
    int hi = dx > dy ? dx : dy, lo = dx > dy ? dy : dx;
    return m == FRAY_AREA_SQUARE ? hi : hi + lo / 2;
}

/* ---- The set ------------------------------------------------------------------- */

void fray_area_clear(fray_area *a) { memset(a, 0, sizeof *a); }

static void set_bit(fray_area *a, int x, int y) {
    a->rows[y] |= UINT64_C(1) << x;
}

static bool get_bit(const fray_area *a, int x, int y) {
    return (a->rows[y] >> x & 1u) != 0;
}

void fray_area_add(fray_area *a, fray_pos p) {
    if (in_range64(p.x, p.y))
        set_bit(a, p.x, p.y);
}

void fray_area_remove(fray_area *a, fray_pos p) {
    if (in_range64(p.x, p.y))
        a->rows[p.y] &= ~(UINT64_C(1) << p.x);
}

void fray_area_add_fp(fray_area *a, fray_footprint fp) {
    int n = side_of(fp);
    for (int y = fp.at.y; y < fp.at.y + n; y++)
        for (int x = fp.at.x; x < fp.at.x + n; x++)
            fray_area_add(a, P(x, y));
}

void fray_area_remove_fp(fray_area *a, fray_footprint fp) {
    int n = side_of(fp);
    for (int y = fp.at.y; y < fp.at.y + n; y++)
        for (int x = fp.at.x; x < fp.at.x + n; x++)
            fray_area_remove(a, P(x, y));
}

bool fray_area_has(const fray_area *a, fray_pos p) {
    return in_range64(p.x, p.y) && get_bit(a, p.x, p.y);
}

bool fray_area_has_fp(const fray_area *a, fray_footprint fp) {
    int n = side_of(fp);
    for (int y = fp.at.y; y < fp.at.y + n; y++)
        for (int x = fp.at.x; x < fp.at.x + n; x++)
            if (fray_area_has(a, P(x, y)))
                return true;
    return false;
}

static int popcount64(uint64_t v) {
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

int fray_area_count(const fray_area *a) {
    int n = 0;
    for (int y = 0; y < FRAY_GRID_MAX; y++)
        n += popcount64(a->rows[y]);
    return n;
}

bool fray_area_next(const fray_area *a, int *io_cursor, fray_pos *out_p) {
    int i = *io_cursor < 0 ? 0 : *io_cursor;
    for (; i < FRAY_GRID_MAX * FRAY_GRID_MAX; i++) {
        int y = i / FRAY_GRID_MAX, x = i % FRAY_GRID_MAX;
        uint64_t rest = a->rows[y] >> x;
        if (rest == 0) {
            i = (y + 1) * FRAY_GRID_MAX - 1; /* the rest of the row is empty */
            continue;
        }
        while ((rest & 1u) == 0) {
            rest >>= 1;
            x++;
        }
        *out_p = P(x, y);
        *io_cursor = y * FRAY_GRID_MAX + x + 1;
        return true;
    }
    *io_cursor = FRAY_GRID_MAX * FRAY_GRID_MAX;
    return false;
}

/* ---- Bursts, auras ------------------------------------------------------------- */

void fray_area_burst(const fray_grid *g, fray_pos origin, int n,
                     fray_area_metric metric, fray_area *out) {
    fray_area_clear(out);
    if (n < 0)
        return;
    n = n > AREA_FAR ? AREA_FAR : n;
    int x0 = clamp_int(origin.x - n, 0, g->w), x1 = clamp_int(origin.x + n + 1, 0, g->w);
    int y0 = clamp_int(origin.y - n, 0, g->h), y1 = clamp_int(origin.y + n + 1, 0, g->h);
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            if (distance(metric, x - origin.x, y - origin.y) <= n)
                set_bit(out, x, y);
}

void fray_area_aura(const fray_grid *g, fray_footprint source, int n,
                    fray_area_metric metric, bool include_source,
                    fray_area *out) {
    fray_area_clear(out);
    if (n < 0)
        return;
    n = n > AREA_FAR ? AREA_FAR : n;
    int s = side_of(source), sx = source.at.x, sy = source.at.y;
    int x0 = clamp_int(sx - n, 0, g->w), x1 = clamp_int(sx + s + n, 0, g->w);
    int y0 = clamp_int(sy - n, 0, g->h), y1 = clamp_int(sy + s + n, 0, g->h);
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            int gx = gap(x, 1, sx, s), gy = gap(y, 1, sy, s);
            if (gx == 0 && gy == 0 && !include_source)
                continue;
            if (distance(metric, gx, gy) <= n)
                set_bit(out, x, y);
        }
}

/* ---- Blasts -------------------------------------------------------------------- */

/* The n x n square at `corner` touches the origin and does not overlap it. */
static bool blast_legal(fray_footprint origin, int n, int cx, int cy) {
    int s = side_of(origin);
    int gx = gap(cx, n, origin.at.x, s), gy = gap(cy, n, origin.at.y, s);
    return (gx > gy ? gx : gy) == 1;
}

fray_status fray_area_blast(const fray_grid *g, fray_footprint origin, int n,
                            fray_pos corner, fray_area *out) {
    fray_area_clear(out);
    if (n < 1 || n > FRAY_GRID_MAX || !blast_legal(origin, n, corner.x, corner.y))
        return FRAY_ERR_INVALID;
    int x0 = clamp_int(corner.x, 0, g->w), x1 = clamp_int(corner.x + n, 0, g->w);
    int y0 = clamp_int(corner.y, 0, g->h), y1 = clamp_int(corner.y + n, 0, g->h);
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            set_bit(out, x, y);
    return FRAY_OK;
}

int fray_area_blast_placements(const fray_grid *g, fray_footprint origin, int n,
                               fray_pos *out, int max) {
    if (n < 1 || n > FRAY_GRID_MAX)
        return 0;
    int s = side_of(origin), total = 0;
    /* A touching square's corner lies within n of the origin on each axis. */
    for (int cy = origin.at.y - n; cy <= origin.at.y + s; cy++)
        for (int cx = origin.at.x - n; cx <= origin.at.x + s; cx++) {
            if (!blast_legal(origin, n, cx, cy))
                continue;
            if (g && (cx >= g->w || cy >= g->h || cx + n <= 0 || cy + n <= 0))
                continue;
            if (total < max)
                out[total] = P(cx, cy);
            total++;
        }
    return total;
}

/* ---- Walls ----------------------------------------------------------------------- */

static const char *const WALL_FAULT_NAMES[] = {
#define FRAY__WALL_FAULT_NAME(name, text) text,
    FRAY_WALL_FAULT_LIST(FRAY__WALL_FAULT_NAME)
#undef FRAY__WALL_FAULT_NAME
};

const char *fray_wall_fault_name(fray_wall_fault f) {
    if ((unsigned)f >= sizeof WALL_FAULT_NAMES / sizeof WALL_FAULT_NAMES[0])
        return "?";
    return WALL_FAULT_NAMES[f];
}

/* How many spaces of the set share a side with (x, y). */
static int side_neighbours(const fray_area *a, int x, int y) {
    return (x > 0 && get_bit(a, x - 1, y)) +
           (x + 1 < FRAY_GRID_MAX && get_bit(a, x + 1, y)) +
           (y > 0 && get_bit(a, x, y - 1)) +
           (y + 1 < FRAY_GRID_MAX && get_bit(a, x, y + 1));
}

static fray_wall_fault wall_fault(int *out_index, int index, fray_wall_fault f) {
    if (out_index)
        *out_index = index;
    return f;
}

fray_wall_fault fray_area_wall_check(const fray_grid *g, const fray_pos *spaces,
                                     int n_spaces, int length, int *out_index,
                                     fray_area *out) {
    fray_area wall;
    fray_area_clear(&wall);
    if (out_index)
        *out_index = -1;
    if (n_spaces < 0)
        n_spaces = 0;
    for (int i = 0; i < n_spaces; i++)
        fray_area_add(&wall, spaces[i]);
    if (out)
        *out = wall;
    if (length < 1 || n_spaces != length)
        return wall_fault(out_index, -1, FRAY_WALL_LENGTH);
    for (int i = 0; i < n_spaces; i++) {
        int x = spaces[i].x, y = spaces[i].y;
        if (!in_range64(x, y) || (g && !in_map(g, x, y)))
            return wall_fault(out_index, i, FRAY_WALL_OFF_MAP);
    }
    /* Every space was added once, so fewer bits than spaces means a
     * repeat; find the first one listed again. */
    if (fray_area_count(&wall) != n_spaces)
        for (int i = 1; i < n_spaces; i++)
            for (int j = 0; j < i; j++)
                if (spaces[i].x == spaces[j].x && spaces[i].y == spaces[j].y)
                    return wall_fault(out_index, i, FRAY_WALL_REPEATED);
    if (n_spaces >= 2)
        for (int i = 0; i < n_spaces; i++)
            if (side_neighbours(&wall, spaces[i].x, spaces[i].y) == 0)
                return wall_fault(out_index, i, FRAY_WALL_DETACHED);
    for (int i = 0; i < n_spaces; i++)
        if (side_neighbours(&wall, spaces[i].x, spaces[i].y) > 2)
            return wall_fault(out_index, i, FRAY_WALL_BRANCHED);
    /* One piece: grow the first space through shared sides, a whole row
     * of bits at a time, until nothing changes. */
    fray_area reached;
    fray_area_clear(&reached);
    set_bit(&reached, spaces[0].x, spaces[0].y);
    for (bool grew = true; grew;) {
        grew = false;
        for (int y = 0; y < FRAY_GRID_MAX; y++) {
            uint64_t r = reached.rows[y];
            uint64_t more = r | r << 1 | r >> 1;
            if (y > 0)
                more |= reached.rows[y - 1];
            if (y + 1 < FRAY_GRID_MAX)
                more |= reached.rows[y + 1];
            more &= wall.rows[y];
            if (more != r) {
                reached.rows[y] = more;
                grew = true;
            }
        }
    }
    if (fray_area_count(&reached) != n_spaces)
        return wall_fault(out_index, -1, FRAY_WALL_SPLIT);
    return FRAY_WALL_OK;
}

/* ---- Lines and cones --------------------------------------------------------------- */

/* i * num / den rounded to the nearest integer, a half rounded down (all
 * non-negative). */
static int round_ratio(int i, int num, int den) {
    int m = i * num, q = m / den, r = m % den;
    return 2 * r > den ? q + 1 : q;
}

int fray_area_line(const fray_grid *g, fray_pos origin, fray_pos toward, int n,
                   bool include_origin, fray_area *out) {
    fray_area_clear(out);
    if (n < 1)
        return 0;
    n = n > AREA_FAR ? AREA_FAR : n;
    int dx = toward.x - origin.x, dy = toward.y - origin.y;
    int adx = abs(dx), ady = abs(dy), major = adx > ady ? adx : ady;
    int sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
    int count = 0;
    for (int i = include_origin ? 0 : 1; count < n; i++) {
        if (major == 0 && i > 0)
            break;
        int x = origin.x, y = origin.y;
        if (major > 0) {
            x += sx * (adx == major ? i : round_ratio(i, adx, major));
            y += sy * (ady == major ? i : round_ratio(i, ady, major));
        }
        if (!in_map(g, x, y))
            break;
        set_bit(out, x, y);
        count++;
    }
    return count;
}

void fray_area_cone(const fray_grid *g, fray_pos origin, fray_pos toward, int n,
                    fray_area_metric metric, fray_area *out) {
    fray_area_clear(out);
    long long ax = toward.x - origin.x, ay = toward.y - origin.y;
    if (n < 1 || (ax == 0 && ay == 0))
        return;
    n = n > AREA_FAR ? AREA_FAR : n;
    long long aa = ax * ax + ay * ay;
    int x0 = clamp_int(origin.x - n, 0, g->w), x1 = clamp_int(origin.x + n + 1, 0, g->w);
    int y0 = clamp_int(origin.y - n, 0, g->h), y1 = clamp_int(origin.y + n + 1, 0, g->h);
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            int vx = x - origin.x, vy = y - origin.y;
            if ((vx == 0 && vy == 0) || distance(metric, vx, vy) > n)
                continue;
            long long dot = vx * ax + vy * ay;
            long long vv = (long long)vx * vx + (long long)vy * vy;
            /* Within 45 degrees: cos >= 1 / sqrt 2, squared and cleared
             * of the roots. */
            if (dot >= 0 && 2 * dot * dot >= vv * aa)
                set_bit(out, x, y);
        }
}

/* ---- Who is affected ------------------------------------------------------------- */

void fray_area_keep_effect(const fray_grid *g, fray_footprint origin,
                           fray_area *io_area) {
    for (int y = 0; y < FRAY_GRID_MAX; y++) {
        uint64_t row = io_area->rows[y];
        for (int x = 0; x < FRAY_GRID_MAX && (row >> x) != 0; x++) {
            if (!get_bit(io_area, x, y))
                continue;
            if (!in_map(g, x, y) || !fray_grid_effect_fp(g, origin, F1(x, y)))
                io_area->rows[y] &= ~(UINT64_C(1) << x);
        }
    }
}

bool fray_area_affects(const fray_grid *g, const fray_area *area,
                       fray_footprint origin, fray_footprint target) {
    int n = side_of(target);
    for (int y = target.at.y; y < target.at.y + n; y++)
        for (int x = target.at.x; x < target.at.x + n; x++)
            if (in_map(g, x, y) && get_bit(area, x, y) &&
                fray_grid_effect_fp(g, origin, F1(x, y)))
                return true;
    return false;
}

/* ---- Flanking -------------------------------------------------------------------- */

/* A parameter along a segment, num / den with den > 0. */
typedef struct frac {
    long num, den;
} frac;

static int frac_cmp(frac a, frac b) {
    long l = a.num * b.den, r = b.num * a.den;
    return (l > r) - (l < r);
}

/*
 * Whether the segment p -> q (half spaces) passes through the inside of
 * the box [lo, hi] on each axis, entering and leaving across the same axis
 * (opposite sides; a corner is on both its sides). The clipping of
 * Liang and Barsky, with exact fractions. Neither end lies inside the box.
 */
static bool through_opposite(const int p[2], const int q[2], const int lo[2],
                             const int hi[2]) {
    frac tin = {0, 1}, tout = {1, 1};
    frac in[2], out[2];
    bool moves[2];
    for (int k = 0; k < 2; k++) {
        int d = q[k] - p[k];
        moves[k] = d != 0;
        if (d == 0) {
            /* Parallel to the sides across this axis: inside its slab
             * throughout, or never (centres are never on a side). */
            if (p[k] <= lo[k] || p[k] >= hi[k])
                return false;
            continue;
        }
        if (d > 0) {
            in[k] = (frac){lo[k] - p[k], d};
            out[k] = (frac){hi[k] - p[k], d};
        } else {
            in[k] = (frac){p[k] - hi[k], -d};
            out[k] = (frac){p[k] - lo[k], -d};
        }
        if (frac_cmp(in[k], tin) > 0)
            tin = in[k];
        if (frac_cmp(out[k], tout) < 0)
            tout = out[k];
    }
    if (frac_cmp(tin, tout) >= 0)
        return false; /* misses the box, or only touches a corner */
    for (int k = 0; k < 2; k++)
        if (moves[k] && frac_cmp(in[k], tin) == 0 && frac_cmp(out[k], tout) == 0)
            return true;
    return false;
}

bool fray_grid_flanks(const fray_grid *g, fray_footprint enemy, fray_footprint a,
                      fray_footprint b) {
    if (!fray_grid_adjacent(a, enemy) || !fray_grid_adjacent(b, enemy))
        return false;
    if (!fray_grid_effect_fp(g, a, enemy) || !fray_grid_effect_fp(g, b, enemy))
        return false;
    int ne = side_of(enemy), na = side_of(a), nb = side_of(b);
    int lo[2] = {2 * enemy.at.x, 2 * enemy.at.y};
    int hi[2] = {2 * (enemy.at.x + ne), 2 * (enemy.at.y + ne)};
    for (int ay = a.at.y; ay < a.at.y + na; ay++)
        for (int ax = a.at.x; ax < a.at.x + na; ax++) {
            if (!fray_grid_adjacent(F1(ax, ay), enemy))
                continue;
            int p[2] = {2 * ax + 1, 2 * ay + 1};
            for (int by = b.at.y; by < b.at.y + nb; by++)
                for (int bx = b.at.x; bx < b.at.x + nb; bx++) {
                    if (!fray_grid_adjacent(F1(bx, by), enemy))
                        continue;
                    int q[2] = {2 * bx + 1, 2 * by + 1};
                    if (through_opposite(p, q, lo, hi))
                        return true;
                }
        }
    return false;
}
