/* grid.c - the tactical map: counting, sight, cover, movement, ASCII art
 * (seed 000 "Tactical Map", "Cover"). */
#include "internal.h"
#include "grid_small.h"
#include "grid_int.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fray/grid.h"

/* ---- Small helpers ------------------------------------------------------------ */


/* (x, y) lies in the n x n square whose top-left is (fx, fy). */
static bool in_square(int x, int y, int fx, int fy, int n) {
    return x >= fx && y >= fy && x < fx + n && y < fy + n;
}

/* WALL, WINDOW and PIT cannot be entered ("impassible terrain"). */
static bool impassable(unsigned t) {
    return t == FRAY_TERRAIN_WALL || t == FRAY_TERRAIN_WINDOW ||
           t == FRAY_TERRAIN_PIT;
}

/* The edge between two orthogonally adjacent spaces of the map. */
static unsigned edge_at(const fray_grid *g, int x0, int y0, int x1, int y1) {
    if (y0 == y1)
        return g->edge_e[y0][x0 < x1 ? x0 : x1];
    return g->edge_s[y0 < y1 ? y0 : y1][x0];
}

/* ---- Names (X-macro lists) ------------------------------------------------------ */

static const char *const TERRAIN_NAMES[] = {
#define FRAY__TERRAIN_NAME(name, text) text,
    FRAY_TERRAIN_LIST(FRAY__TERRAIN_NAME)
#undef FRAY__TERRAIN_NAME
};

const char *fray_terrain_name(fray_terrain t) {
    if ((unsigned)t >= (unsigned)FRAY_TERRAIN_COUNT)
        return "?";
    return TERRAIN_NAMES[t];
}

fray_status fray_terrain_parse(const char *name, fray_terrain *out_terrain) {
    for (int t = 0; t < FRAY_TERRAIN_COUNT; t++)
        if (strcmp(name, TERRAIN_NAMES[t]) == 0) {
            *out_terrain = (fray_terrain)t;
            return FRAY_OK;
        }
    return FRAY_ERR_PARSE;
}

const char *fray_cover_name(fray_cover c) {
    switch (c) {
#define FRAY__COVER_NAME(name, text)                                          \
    case name:                                                                \
        return text;
        FRAY_COVER_LIST(FRAY__COVER_NAME)
#undef FRAY__COVER_NAME
    }
    return "?";
}

/* ---- The map ------------------------------------------------------------------ */

void fray_grid_init(fray_grid *g, int w, int h) {
    memset(g, 0, sizeof *g);
    g->w = (int16_t)clamp_int(w, 1, FRAY_GRID_MAX);
    g->h = (int16_t)clamp_int(h, 1, FRAY_GRID_MAX);
}

bool fray_grid_in(const fray_grid *g, fray_pos p) {
    return in_map(g, p.x, p.y);
}

int fray_grid_side_for_size(int size_rank) {
    return size_rank <= 0 ? 1 : size_rank >= 4 ? 5 : size_rank + 1;
}

/* Orthogonally adjacent spaces, both on the map. */
static bool edge_neighbours(const fray_grid *g, fray_pos a, fray_pos b) {
    if (!in_map(g, a.x, a.y) || !in_map(g, b.x, b.y))
        return false;
    return abs(a.x - b.x) + abs(a.y - b.y) == 1;
}

fray_status fray_grid_set_edge(fray_grid *g, fray_pos a, fray_pos b,
                               fray_edge e) {
    if (!edge_neighbours(g, a, b) || (unsigned)e > (unsigned)FRAY_EDGE_LOW)
        return FRAY_ERR_INVALID;
    if (a.y == b.y)
        g->edge_e[a.y][a.x < b.x ? a.x : b.x] = (uint8_t)e;
    else
        g->edge_s[a.y < b.y ? a.y : b.y][a.x] = (uint8_t)e;
    return FRAY_OK;
}

fray_edge fray_grid_edge(const fray_grid *g, fray_pos a, fray_pos b) {
    if (!edge_neighbours(g, a, b))
        return FRAY_EDGE_NONE;
    return (fray_edge)edge_at(g, a.x, a.y, b.x, b.y);
}

/* ---- Counting, ranges, adjacency --------------------------------------------------- */

/* The count for a displacement (seed "Counting Spaces"): every diagonal
 * step is worth 1.5, rounded down over the whole count. */
static int count_delta(int dx, int dy) {
    dx = abs(dx);
    dy = abs(dy);
    return dx > dy ? dx + dy / 2 : dy + dx / 2;
}

int fray_grid_count(fray_pos a, fray_pos b) {
    return count_delta(b.x - a.x, b.y - a.y);
}

/* The count is monotonic in |dx| and |dy|, so the nearest pair of spaces is
 * the one whose displacement is the gap along each axis. */
int fray_grid_range(fray_footprint a, fray_footprint b) {
    int na = side_of(a), nb = side_of(b);
    return count_delta(gap(a.at.x, na, b.at.x, nb), gap(a.at.y, na, b.at.y, nb));
}

bool fray_grid_adjacent(fray_footprint a, fray_footprint b) {
    int na = side_of(a), nb = side_of(b);
    int gx = gap(a.at.x, na, b.at.x, nb), gy = gap(a.at.y, na, b.at.y, nb);
    return (gx > gy ? gx : gy) == 1;
}

bool fray_grid_within(fray_footprint a, fray_footprint b, int reach) {
    return fray_grid_range(a, b) <= reach;
}

static int count_delta_m(int dx, int dy, fray_area_metric metric) {
    if (metric != FRAY_AREA_SQUARE)
        return count_delta(dx, dy);
    dx = abs(dx);
    dy = abs(dy);
    return dx > dy ? dx : dy;
}

int fray_grid_count_m(fray_pos a, fray_pos b, fray_area_metric metric) {
    return count_delta_m(b.x - a.x, b.y - a.y, metric);
}

int fray_grid_range_m(fray_footprint a, fray_footprint b, fray_area_metric metric) {
    int na = side_of(a), nb = side_of(b);
    return count_delta_m(gap(a.at.x, na, b.at.x, nb), gap(a.at.y, na, b.at.y, nb),
                         metric);
}

bool fray_grid_within_m(fray_footprint a, fray_footprint b, int reach,
                        fray_area_metric metric) {
    return fray_grid_range_m(a, b, metric) <= reach;
}

/* ---- Straight lines ---------------------------------------------------------------- */

/*
 * Lines are walked in quarter spaces: space (x, y) covers [4x, 4x + 4] x
 * [4y, 4y + 4], its centre is (4x + 2, 4y + 2) and the cover points are at
 * 4x + 1 and 4x + 3. No end point lies on a grid line, so a line never runs
 * along one; it crosses vertical lines, horizontal lines, or both at once
 * (a corner point). Which comes first is decided by comparing the crossing
 * parameters tx / adx and ty / ady exactly, cross-multiplied in integers.
 */
typedef struct line_walk {
    int x, y;     /* the space the walk is in */
    int sx, sy;   /* direction: -1, 0 or 1 */
    int nx, ny;   /* vertical / horizontal grid lines still to cross */
    int adx, ady; /* |X1 - X0|, |Y1 - Y0| */
    int tx, ty;   /* distance along each axis to the next grid line */
} line_walk;

enum { WALK_END, WALK_X, WALK_Y, WALK_CORNER };

static int sign(int v) { return (v > 0) - (v < 0); }

static void walk_init(line_walk *w, int X0, int Y0, int X1, int Y1) {
    w->x = X0 / 4;
    w->y = Y0 / 4;
    w->sx = sign(X1 - X0);
    w->sy = sign(Y1 - Y0);
    w->nx = abs(X1 / 4 - w->x);
    w->ny = abs(Y1 / 4 - w->y);
    w->adx = abs(X1 - X0);
    w->ady = abs(Y1 - Y0);
    w->tx = w->sx > 0 ? 4 * (w->x + 1) - X0 : X0 - 4 * w->x;
    w->ty = w->sy > 0 ? 4 * (w->y + 1) - Y0 : Y0 - 4 * w->y;
}

/* Moves into the next space; says how the line got there. */
static int walk_step(line_walk *w) {
    if (w->nx == 0 && w->ny == 0)
        return WALK_END;
    int c;
    if (w->nx == 0)
        c = 1;
    else if (w->ny == 0)
        c = -1;
    else
        c = sign(w->tx * w->ady - w->ty * w->adx);
    if (c <= 0) {
        w->x += w->sx;
        w->tx += 4;
        w->nx--;
    }
    if (c >= 0) {
        w->y += w->sy;
        w->ty += 4;
        w->ny--;
    }
    return c < 0 ? WALK_X : c > 0 ? WALK_Y : WALK_CORNER;
}

/* What blocks a line: always WALL spaces and WALL edges; for cover also LOW
 * edges, except those bordering the attacker's footprint; for line of
 * effect also WINDOW spaces. */
typedef struct line_rules {
    bool low_edges;
    int fx, fy, fn; /* the attacker's footprint (when low_edges) */
    bool windows;   /* WINDOW spaces block (line of effect) */
} line_rules;

static bool space_blocks(const fray_grid *g, const line_rules *r, int x, int y) {
    unsigned t = g->terrain[y][x];
    return t == FRAY_TERRAIN_WALL || (r->windows && t == FRAY_TERRAIN_WINDOW);
}

static bool edge_blocks(const fray_grid *g, const line_rules *r, int x0, int y0,
                        int x1, int y1) {
    unsigned e = edge_at(g, x0, y0, x1, y1);
    if (e == FRAY_EDGE_WALL)
        return true;
    if (e == FRAY_EDGE_LOW && r->low_edges)
        return !in_square(x0, y0, r->fx, r->fy, r->fn) &&
               !in_square(x1, y1, r->fx, r->fy, r->fn);
    return false;
}

/*
 * Whether the segment between two points (quarter spaces, both inside the
 * map) is blocked. The spaces holding the end points never block. At a
 * corner point the line leaves space s for the diagonal space t and touches
 * the two others, l and r: it is blocked only when both sides are closed
 * (grid.h, fray_grid_sight).
 */
static bool line_blocked(const fray_grid *g, const line_rules *r, int X0, int Y0,
                         int X1, int Y1) {
    line_walk w;
    walk_init(&w, X0, Y0, X1, Y1);
    int ex = X1 / 4, ey = Y1 / 4;
    for (;;) {
        int px = w.x, py = w.y;
        int how = walk_step(&w);
        if (how == WALK_END)
            return false;
        if (how == WALK_CORNER) {
            /* l = (w.x, py), r = (px, w.y). */
            bool l = space_blocks(g, r, w.x, py) ||
                     edge_blocks(g, r, px, py, w.x, py) ||
                     edge_blocks(g, r, w.x, py, w.x, w.y);
            bool rr = space_blocks(g, r, px, w.y) ||
                      edge_blocks(g, r, px, py, px, w.y) ||
                      edge_blocks(g, r, px, w.y, w.x, w.y);
            if (l && rr)
                return true;
        } else if (edge_blocks(g, r, px, py, w.x, w.y)) {
            return true;
        }
        if ((w.x != ex || w.y != ey) && space_blocks(g, r, w.x, w.y))
            return true;
    }
}

static const line_rules SIGHT_RULES = {false, 0, 0, 0, false};
static const line_rules EFFECT_RULES = {false, 0, 0, 0, true};

static bool sight_xy(const fray_grid *g, int ax, int ay, int bx, int by) {
    return !line_blocked(g, &SIGHT_RULES, 4 * ax + 2, 4 * ay + 2, 4 * bx + 2,
                         4 * by + 2);
}

bool fray_grid_sight(const fray_grid *g, fray_pos a, fray_pos b) {
    if (!in_map(g, a.x, a.y) || !in_map(g, b.x, b.y))
        return false;
    return sight_xy(g, a.x, a.y, b.x, b.y);
}

/*
 * A fast answer for open ground: every line between two footprints stays
 * inside the box that holds both, so when that box has no wall space and
 * no wall edge (nor, for cover, a low edge) nothing can block a line and
 * cover is NONE. Simulations ask this millions of times for neighbours.
 */
static bool box_clear(const fray_grid *g, fray_footprint a, fray_footprint b,
                      bool low_blocks, bool windows_block) {
    int na = side_of(a), nb = side_of(b);
    int x0 = a.at.x < b.at.x ? a.at.x : b.at.x;
    int y0 = a.at.y < b.at.y ? a.at.y : b.at.y;
    int x1 = a.at.x + na > b.at.x + nb ? a.at.x + na : b.at.x + nb;
    int y1 = a.at.y + na > b.at.y + nb ? a.at.y + na : b.at.y + nb;
    if (x0 < 0 || y0 < 0 || x1 > g->w || y1 > g->h)
        return false;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            if (g->terrain[y][x] == FRAY_TERRAIN_WALL ||
                (windows_block && g->terrain[y][x] == FRAY_TERRAIN_WINDOW))
                return false;
            /* Edges inside the box (its outer east/south sides cannot
             * cross a line between spaces of the box). */
            int e = x + 1 < x1 ? g->edge_e[y][x] : FRAY_EDGE_NONE;
            int so = y + 1 < y1 ? g->edge_s[y][x] : FRAY_EDGE_NONE;
            if (e == FRAY_EDGE_WALL || so == FRAY_EDGE_WALL)
                return false;
            if (low_blocks && (e == FRAY_EDGE_LOW || so == FRAY_EDGE_LOW))
                return false;
        }
    return true;
}

/* Some space of a and some space of b (on the map) with a centre line
 * that `rules` let through: sight or line of effect between creatures. */
static bool any_line_fp(const fray_grid *g, fray_footprint a, fray_footprint b,
                        const line_rules *rules) {
    int na = side_of(a), nb = side_of(b);
    for (int ay = a.at.y; ay < a.at.y + na; ay++)
        for (int ax = a.at.x; ax < a.at.x + na; ax++) {
            if (!in_map(g, ax, ay))
                continue;
            for (int by = b.at.y; by < b.at.y + nb; by++)
                for (int bx = b.at.x; bx < b.at.x + nb; bx++)
                    if (in_map(g, bx, by) &&
                        !line_blocked(g, rules, 4 * ax + 2, 4 * ay + 2,
                                      4 * bx + 2, 4 * by + 2))
                        return true;
        }
    return false;
}

bool fray_grid_sight_fp(const fray_grid *g, fray_footprint a, fray_footprint b) {
    return box_clear(g, a, b, false, false) ||
           any_line_fp(g, a, b, &SIGHT_RULES);
}

/* ---- Line of effect ---------------------------------------------------------- */

bool fray_grid_effect(const fray_grid *g, fray_pos a, fray_pos b) {
    if (!in_map(g, a.x, a.y) || !in_map(g, b.x, b.y))
        return false;
    return !line_blocked(g, &EFFECT_RULES, 4 * a.x + 2, 4 * a.y + 2,
                         4 * b.x + 2, 4 * b.y + 2);
}

bool fray_grid_effect_fp(const fray_grid *g, fray_footprint a,
                         fray_footprint b) {
    return box_clear(g, a, b, false, true) ||
           any_line_fp(g, a, b, &EFFECT_RULES);
}

int fray_grid_line_spaces(fray_pos a, fray_pos b, fray_pos *out, int max) {
    if (a.x < 0 || a.y < 0 || b.x < 0 || b.y < 0 || a.x >= FRAY_GRID_MAX ||
        a.y >= FRAY_GRID_MAX || b.x >= FRAY_GRID_MAX || b.y >= FRAY_GRID_MAX)
        return 0;
    line_walk w;
    walk_init(&w, 4 * a.x + 2, 4 * a.y + 2, 4 * b.x + 2, 4 * b.y + 2);
    int n = 0;
    while (n < max && walk_step(&w) != WALK_END) {
        if (w.x == b.x && w.y == b.y)
            break;
        out[n++] = P(w.x, w.y);
    }
    return n;
}

/* ---- Cover ---------------------------------------------------------------------- */

/* How many of the four lines from the centre of (ax, ay) to the inset
 * corners of (tx, ty) are blocked. */
static int corner_lines_blocked(const fray_grid *g, const line_rules *r, int ax,
                                int ay, int tx, int ty) {
    int blocked = 0;
    for (int i = 0; i < 4; i++) {
        int cx = 4 * tx + 1 + 2 * (i & 1), cy = 4 * ty + 1 + (i & 2);
        blocked += line_blocked(g, r, 4 * ax + 2, 4 * ay + 2, cx, cy);
    }
    return blocked;
}

fray_cover fray_grid_cover(const fray_grid *g, fray_footprint attacker,
                           fray_footprint target) {
    int na = side_of(attacker), nt = side_of(target);
    if (gap(attacker.at.x, na, target.at.x, nt) == 0 &&
        gap(attacker.at.y, na, target.at.y, nt) == 0)
        return FRAY_COVER_NONE;
    if (box_clear(g, attacker, target, true, false))
        return FRAY_COVER_NONE;
    line_rules rules = {true, attacker.at.x, attacker.at.y, na, false};
    int best = 5; /* 5: no pair gives a view */
    for (int ay = attacker.at.y; ay < attacker.at.y + na; ay++)
        for (int ax = attacker.at.x; ax < attacker.at.x + na; ax++) {
            if (!in_map(g, ax, ay))
                continue;
            for (int ty = target.at.y; ty < target.at.y + nt; ty++)
                for (int tx = target.at.x; tx < target.at.x + nt; tx++) {
                    if (!in_map(g, tx, ty) || !sight_xy(g, ax, ay, tx, ty))
                        continue;
                    int b = corner_lines_blocked(g, &rules, ax, ay, tx, ty);
                    if (b < best)
                        best = b;
                    if (best == 0)
                        return FRAY_COVER_NONE;
                }
        }
    if (best == 5)
        return FRAY_COVER_TOTAL;
    return best <= 2 ? FRAY_COVER_SOFT : FRAY_COVER_HARD;
}

/* ---- Movement -------------------------------------------------------------------- */

/*
 * The search runs on keys = 2 * cost + parity. In those half-units an
 * orthogonal step weighs 2 and every diagonal 3 whatever the parity (from
 * parity 0: cost +1, parity 1; from parity 1: cost +2, parity 0), and each
 * +1 weighs 2. So the 1-2-1 rule becomes a plain shortest path with
 * constant weights 2..7, a lower key is never worse than a higher one at
 * the same space (one state per space suffices), and cost = key / 2,
 * parity = key % 2.
 */
enum {
    KEY_ORTH = 2,
    KEY_DIAG = 3,
    KEY_EXTRA = 2,
    KEY_RING = FRAY__KEY_RING, /* > the heaviest step (3 + 2 + 2) */
    COST_CAP = 16000,      /* keeps keys inside int16_t */
    NIL = 0xFFFF
};

/*
 * What the mover knows of each space, asked of the callback at most once
 * per space and search: 0 unknown, else CELL_KNOWN | occupant << 1, plus
 * CELL_BLOCKED when the space cannot be entered (impassable terrain or a
 * non-ally), and CELL_NEAR next to an enemy (mark_near_enemies, for the
 * tabled steps). Only the box of spaces the search can reach is cleared.
 */
enum { CELL_KNOWN = 1, CELL_BLOCKED = 0x10, CELL_NEAR = 0x20,
       /* a TUMBLE occupant: enterable, but it closes a corner */
       CELL_CORNER = 0x40 };

typedef fray__grid_mover mover; /* (grid_int.h: a run holds one) */

static unsigned cell_info(mover *mv, int x, int y) {
    unsigned v = mv->cell[y][x];
    if (v == 0) {
        fray_occupant o = mv->occ ? mv->occ(mv->ctx, P(x, y)) : FRAY_OCC_EMPTY;
        v = CELL_KNOWN | ((unsigned)o & 7u) << 1;
        if (o == FRAY_OCC_ENEMY || impassable(mv->g->terrain[y][x]))
            v |= CELL_BLOCKED;
        else if (o == FRAY_OCC_TUMBLE)
            v |= CELL_CORNER;
        mv->cell[y][x] = (uint8_t)v;
    }
    return v;
}

static bool blocked(mover *mv, int x, int y) {
    return (cell_info(mv, x, y) & CELL_BLOCKED) != 0;
}

/* The space closes a corner (seed "Cutting Corners"): blocked, or a
 * non-ally tumbled past. */
static bool corner_blocked(mover *mv, int x, int y) {
    return (cell_info(mv, x, y) & (CELL_BLOCKED | CELL_CORNER)) != 0;
}

enum { ROUTE_FREE, ROUTE_LOW, ROUTE_BLOCKED };

static int route_of(bool mid_blocked, unsigned e1, unsigned e2) {
    if (mid_blocked || e1 == FRAY_EDGE_WALL || e2 == FRAY_EDGE_WALL)
        return ROUTE_BLOCKED;
    return e1 == FRAY_EDGE_LOW || e2 == FRAY_EDGE_LOW ? ROUTE_LOW : ROUTE_FREE;
}

/* The L-shaped route s -> m -> t of one space of the creature moving
 * diagonally from s to t, the footprint going from (x, y) to (nx, ny). */
static int route(mover *mv, int x, int y, int nx, int ny, int sx, int sy,
                 int mx, int my, int tx, int ty) {
    /* Spaces under the creature before or after the step are open to it
     * (the new ones were checked already). */
    bool mid = !in_square(mx, my, x, y, mv->n) &&
               !in_square(mx, my, nx, ny, mv->n) && corner_blocked(mv, mx, my);
    return route_of(mid, edge_at(mv->g, sx, sy, mx, my),
                    edge_at(mv->g, mx, my, tx, ty));
}

/* The extra key weight of a diagonal move past two routes, or -1. */
static int diagonal_extra(int r1, int r2) {
    if (r1 == ROUTE_BLOCKED && r2 == ROUTE_BLOCKED)
        return -1; /* seed "Cutting Corners" */
    /* The creature goes round by a free route when there is one. */
    return r1 != ROUTE_FREE && r2 != ROUTE_FREE ? KEY_EXTRA : 0;
}

/* step_weight for a 1x1 footprint: the same rules, unrolled. */
static int step_weight1(mover *mv, int x, int y, int dx, int dy) {
    const fray_grid *g = mv->g;
    int tx = x + dx, ty = y + dy;
    if (blocked(mv, tx, ty))
        return -1;
    int w = g->terrain[ty][tx] == FRAY_TERRAIN_DIFFICULT ? KEY_EXTRA : 0;
    int ex = x < tx ? x : tx, ey = y < ty ? y : ty;
    unsigned e;
    if (dy == 0)
        e = g->edge_e[y][ex];
    else if (dx == 0)
        e = g->edge_s[ey][x];
    else {
        int r1 = route_of(corner_blocked(mv, tx, y), g->edge_e[y][ex], g->edge_s[ey][tx]);
        int r2 = route_of(corner_blocked(mv, x, ty), g->edge_s[ey][x], g->edge_e[ty][ex]);
        int extra = diagonal_extra(r1, r2);
        return extra < 0 ? -1 : KEY_DIAG + w + extra;
    }
    if (e == FRAY_EDGE_WALL)
        return -1;
    return KEY_ORTH + w + (e == FRAY_EDGE_LOW ? KEY_EXTRA : 0);
}

/* A one-space step's fixed part, from terrain and edges only: what
 * step_weight1 works out when no occupant blocks a space. Bits 0..2: that
 * key weight; for diagonal steps (DIRS 4..7) also the two L-shaped routes
 * (route_of, their middle spaces' terrain included) in bits 3..4 and 5..6.
 * STEP_NONE when the step is forbidden whoever stands where (off the map,
 * into impassable terrain, across a wall, or a corner closed on both
 * sides). Kept per setup (the 99 Towers engine's ft_fast.steps). */
static const int8_t DIRS[8][2] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1},
                                  {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

enum { STEP_NONE = 0xff, STEP_WEIGHT = 7 };

static unsigned step_fixed(const fray_grid *g, int x, int y, int dx, int dy) {
    int tx = x + dx, ty = y + dy;
    if (impassable(g->terrain[ty][tx]))
        return STEP_NONE;
    unsigned w = g->terrain[ty][tx] == FRAY_TERRAIN_DIFFICULT ? KEY_EXTRA : 0;
    int ex = x < tx ? x : tx, ey = y < ty ? y : ty;
    if (dx != 0 && dy != 0) {
        int r1 = route_of(impassable(g->terrain[y][tx]), g->edge_e[y][ex],
                          g->edge_s[ey][tx]);
        int r2 = route_of(impassable(g->terrain[ty][x]), g->edge_s[ey][x],
                          g->edge_e[ty][ex]);
        int extra = diagonal_extra(r1, r2);
        if (extra < 0)
            return STEP_NONE;
        return (KEY_DIAG + w + (unsigned)extra) | (unsigned)r1 << 3 |
               (unsigned)r2 << 5;
    }
    unsigned e = dy == 0 ? g->edge_e[y][ex] : g->edge_s[ey][x];
    if (e == FRAY_EDGE_WALL)
        return STEP_NONE;
    return KEY_ORTH + w + (e == FRAY_EDGE_LOW ? KEY_EXTRA : 0);
}

void fray__grid_step_table(const fray_grid *g,
                           uint8_t out[FRAY_GRID_MAX][FRAY_GRID_MAX][8]) {
    int w = clamp_int(g->w, 0, FRAY_GRID_MAX), h = clamp_int(g->h, 0, FRAY_GRID_MAX);
    memset(out, STEP_NONE, sizeof(uint8_t[FRAY_GRID_MAX][FRAY_GRID_MAX][8]));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int d = 0; d < 8; d++) {
                int tx = x + DIRS[d][0], ty = y + DIRS[d][1];
                if (tx < 0 || ty < 0 || tx >= w || ty >= h)
                    continue;
                out[y][x][d] = (uint8_t)step_fixed(g, x, y, DIRS[d][0], DIRS[d][1]);
            }
}

/* step_weight1 from the fixed part f of the step (step_fixed, not
 * STEP_NONE) when occupants may block: only the up to three spaces the
 * step touches are looked at. Blocking only adds to the weight or forbids
 * the step, so f's weight is never more than this. */
#if defined(__GNUC__)
#define FRAY__INLINE inline __attribute__((always_inline))
#else
#define FRAY__INLINE inline
#endif

static FRAY__INLINE int step_weight1_fixed(mover *mv, int x, int y, int dx,
                                           int dy, unsigned f) {
    int tx = x + dx, ty = y + dy;
    if (blocked(mv, tx, ty))
        return -1;
    if (dx == 0 || dy == 0)
        return (int)(f & STEP_WEIGHT);
    int r1 = (int)(f >> 3 & 3u), r2 = (int)(f >> 5 & 3u);
    /* The weight without the corner's extra, then the extra now. */
    int base = (int)(f & STEP_WEIGHT) - diagonal_extra(r1, r2);
    if (corner_blocked(mv, tx, y))
        r1 = ROUTE_BLOCKED;
    if (corner_blocked(mv, x, ty))
        r2 = ROUTE_BLOCKED;
    int extra = diagonal_extra(r1, r2);
    return extra < 0 ? -1 : base + extra;
}

/* The key weight of moving the footprint from (x, y) by (dx, dy), or -1
 * when the step is forbidden (grid.h, fray_grid_reach). */
static int step_weight(mover *mv, int x, int y, int dx, int dy) {
    const fray_grid *g = mv->g;
    int n = mv->n, nx = x + dx, ny = y + dy;
    if (n == 1)
        return step_weight1(mv, x, y, dx, dy);
    bool difficult = false, low = false;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            int px = nx + i, py = ny + j;
            if (g->terrain[py][px] == FRAY_TERRAIN_DIFFICULT)
                difficult = true;
            if (!in_square(px, py, x, y, n) && blocked(mv, px, py))
                return -1;
        }
    /* A footprint never straddles a wall. */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (i + 1 < n && g->edge_e[ny + j][nx + i] == FRAY_EDGE_WALL)
                return -1;
            if (j + 1 < n && g->edge_s[ny + j][nx + i] == FRAY_EDGE_WALL)
                return -1;
        }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            int sx = x + i, sy = y + j, tx = sx + dx, ty = sy + dy;
            if (dx == 0 || dy == 0) {
                unsigned e = edge_at(g, sx, sy, tx, ty);
                if (e == FRAY_EDGE_WALL)
                    return -1;
                low |= e == FRAY_EDGE_LOW;
                continue;
            }
            int extra = diagonal_extra(route(mv, x, y, nx, ny, sx, sy, tx, sy, tx, ty),
                                       route(mv, x, y, nx, ny, sx, sy, sx, ty, tx, ty));
            if (extra < 0)
                return -1;
            low |= extra > 0;
        }
    return (dx && dy ? KEY_DIAG : KEY_ORTH) + (difficult ? KEY_EXTRA : 0) +
           (low ? KEY_EXTRA : 0);
}

static bool may_stop(mover *mv, int x, int y) {
    if (mv->n == 1) {
        unsigned o = cell_info(mv, x, y) >> 1 & 7u;
        return o == FRAY_OCC_EMPTY || o == FRAY_OCC_SELF;
    }
    for (int j = 0; j < mv->n; j++)
        for (int i = 0; i < mv->n; i++) {
            unsigned o = cell_info(mv, x + i, y + j) >> 1 & 7u;
            if (o != FRAY_OCC_EMPTY && o != FRAY_OCC_SELF)
                return false;
        }
    return true;
}

/* Dial's bucket queue (a run's head, next and prev): a ring of doubly
 * linked lists threaded through the spaces (id = y * 64 + x), so a key
 * can drop without duplicates. */
typedef fray__reach_run bucket_queue;

/* (Keys are never negative: the ring's index as unsigned, a mask.) */
static void bq_link(bucket_queue *q, unsigned id, int key) {
    uint16_t *h = &q->head[(unsigned)key % KEY_RING];
    q->prev[id] = NIL;
    q->next[id] = *h;
    if (*h != NIL)
        q->prev[*h] = (uint16_t)id;
    *h = (uint16_t)id;
}

static void bq_unlink(bucket_queue *q, unsigned id, int key) {
    if (q->prev[id] != NIL)
        q->next[q->prev[id]] = q->next[id];
    else
        q->head[(unsigned)key % KEY_RING] = q->next[id];
    if (q->next[id] != NIL)
        q->prev[q->next[id]] = q->prev[id];
}

/* The first space of bucket k, taken out of it (bq_unlink without the
 * tests: it has no prev); NIL when the bucket is empty. */
static unsigned bq_pop(bucket_queue *q, int k) {
    uint16_t *head = &q->head[(unsigned)k % KEY_RING];
    unsigned id = *head;
    if (id != NIL) {
        *head = q->next[id];
        if (*head != NIL)
            q->prev[*head] = NIL;
        q->queued--;
    }
    return id;
}

/* Space id is finished with key k: its key is final (Dijkstra: nothing
 * found later is cheaper), so its cost, parity and can_stop are written
 * now; the key stays in run->key, where keys <= k keep it from being
 * weighed again. */
static void settle(fray__reach_run *run, unsigned id, int k, bool can_stop) {
    fray_reach_map *out = run->out;
    (&out->cost[0][0])[id] = (int16_t)((unsigned)k / 2);
    (&out->parity[0][0])[id] = (uint8_t)((unsigned)k % 2);
    (&out->can_stop[0][0])[id] = can_stop;
}

/* Paints occupant kind k into the cell (x, y): over a weaker kind only,
 * unless `over` (the mover's own spaces). */
static inline void paint_cell(mover *mv, int x, int y, unsigned k, bool over) {
    unsigned v = mv->cell[y][x];
    if (!over && k <= (v >> 1 & 7u))
        return;
    v = CELL_KNOWN | (k & 7u) << 1;
    if (k == FRAY_OCC_ENEMY || impassable(mv->g->terrain[y][x]))
        v |= CELL_BLOCKED;
    else if (k == FRAY_OCC_TUMBLE)
        v |= CELL_CORNER;
    mv->cell[y][x] = (uint8_t)v;
}

/* paint_cell on every space of footprint f within the box [x0, x1) x
 * [y0, y1) (a one-space footprint, the common case, without the loops). */
static inline void paint_fp(mover *mv, int x0, int y0, int x1, int y1,
                            fray_footprint f, unsigned k, bool over) {
    int ax = f.at.x, ay = f.at.y;
    if (f.side == 1) {
        /* (Unsigned: left of or above the box is past its width.) */
        if ((unsigned)(ax - x0) < (unsigned)(x1 - x0) &&
            (unsigned)(ay - y0) < (unsigned)(y1 - y0))
            paint_cell(mv, ax, ay, k, over);
        return;
    }
    int ex = ax + f.side, ey = ay + f.side;
    int sx = ax > x0 ? ax : x0, sy = ay > y0 ? ay : y0;
    ex = ex < x1 ? ex : x1;
    ey = ey < y1 ? ey : y1;
    for (int y = sy; y < ey; y++)
        for (int x = sx; x < ex; x++)
            paint_cell(mv, x, y, k, over);
}

/* Who stands where, painted into the mover's cells of the box [x0, x1) x
 * [y0, y1) at once: what cell_info would ask the callback, space by space
 * (the mover itself wins over anyone sharing the space; otherwise the
 * strongest kind: enemy, passable, ally). The others first, in list
 * order, then the mover's own footprints over them. */
/* For each of the eight bytes of v: 0x80 when the byte is zero, else 0
 * (exact: no carry crosses a byte). */
static inline uint64_t zero_bytes(uint64_t v) {
    const uint64_t lo7 = 0x7f7f7f7f7f7f7f7fULL;
    return ~(((v & lo7) + lo7) | v) & ~lo7;
}

/* The cells of eight spaces of terrain `eight` (the bytes in map order):
 * CELL_KNOWN, and CELL_BLOCKED where the terrain is impassable (the same
 * as impassable() byte by byte; issue 16 "This round: the skirmish's
 * tactics": maps with walls in every row). */
static inline uint64_t known_cells(uint64_t eight) {
    const uint64_t ones = 0x0101010101010101ULL;
    uint64_t blocked = zero_bytes(eight ^ ones * FRAY_TERRAIN_WALL) |
                       zero_bytes(eight ^ ones * FRAY_TERRAIN_WINDOW) |
                       zero_bytes(eight ^ ones * FRAY_TERRAIN_PIT);
    _Static_assert(CELL_BLOCKED < 0x100 && CELL_KNOWN < 0x100,
                   "a cell's flags fit in its byte");
    return ones * CELL_KNOWN | (blocked >> 7) * CELL_BLOCKED;
}

/* The cells of the eight spaces from x on in one row: terrain t, cells c
 * (paint's loop). */
static inline void paint_eight(const uint8_t *t, uint8_t *c, int x) {
    uint64_t eight;
    memcpy(&eight, &t[x], sizeof eight);
    if (eight == 0) {
        memset(&c[x], CELL_KNOWN, 8);
        return;
    }
    uint64_t cells = known_cells(eight);
    memcpy(&c[x], &cells, sizeof cells);
#ifndef NDEBUG
    for (int i = x; i < x + 8; i++) /* the long way */
        assert(c[i] == (uint8_t)(CELL_KNOWN |
                                 (impassable(t[i]) ? CELL_BLOCKED : 0)));
#endif
}

static void paint(mover *mv, int x0, int y0, int x1, int y1,
                  const fray_footprint *fp, const uint8_t *kind, int n) {
    const fray_grid *g = mv->g;
    /* Eight open spaces at a time (FRAY_TERRAIN_OPEN is 0): known,
     * nothing in them. A row of at least eight ends with the last eight
     * of the box, which may overlap the eight before: those get the same
     * cells again (issue 16: a 12-wide row in two steps, not eight). */
    _Static_assert(FRAY_TERRAIN_OPEN == 0, "open floor is the zero terrain");
    for (int y = y0; y < y1; y++) {
        const uint8_t *t = &g->terrain[y][0];
        uint8_t *c = &mv->cell[y][0];
        if (x1 - x0 >= 8) {
            int x = x0;
            for (; x + 8 <= x1; x += 8)
                paint_eight(t, c, x);
            if (x < x1)
                paint_eight(t, c, x1 - 8);
            continue;
        }
        for (int x = x0; x < x1; x++)
            c[x] = (uint8_t)(CELL_KNOWN | (impassable(t[x]) ? CELL_BLOCKED : 0));
    }
    int selves = 0, self = -1; /* the mover's footprints: how many, the last */
    for (int j = 0; j < n; j++) {
        unsigned k = kind[j];
        if (k == FRAY_OCC_SELF) {
            selves++;
            self = j;
        } else
            paint_fp(mv, x0, y0, x1, y1, fp[j], k, false);
    }
    if (selves == 1) /* (the common case: no second pass) */
        paint_fp(mv, x0, y0, x1, y1, fp[self], FRAY_OCC_SELF, true);
    else
        for (int j = 0; j < n && selves > 0; j++)
            if (kind[j] == FRAY_OCC_SELF)
                paint_fp(mv, x0, y0, x1, y1, fp[j], FRAY_OCC_SELF, true);
}

/* Marks with CELL_NEAR the spaces of the box [x0, x1) x [y0, y1) next to
 * (or on) a space of an ENEMY footprint: only from those can an occupant
 * block a one-space step (it touches the spaces around its start). */
static void mark_near_enemies(mover *mv, int x0, int y0, int x1, int y1,
                              const fray_footprint *fp, const uint8_t *kind,
                              int n) {
    for (int j = 0; j < n; j++) {
        if (kind[j] != FRAY_OCC_ENEMY && kind[j] != FRAY_OCC_TUMBLE)
            continue;
        int ax = fp[j].at.x - 1, ay = fp[j].at.y - 1;
        int ex = fp[j].at.x + fp[j].side + 1, ey = fp[j].at.y + fp[j].side + 1;
        if (fp[j].side == 1 && ax >= x0 && ay >= y0 && ex <= x1 && ey <= y1) {
            /* A one-space footprint with its ring inside the box (the
             * common case): the nine spaces without the loops. */
            uint8_t *r0 = &mv->cell[ay][ax], *r1 = r0 + FRAY_GRID_MAX,
                    *r2 = r1 + FRAY_GRID_MAX;
            for (int i = 0; i < 3; i++) {
                r0[i] |= CELL_NEAR;
                r1[i] |= CELL_NEAR;
                r2[i] |= CELL_NEAR;
            }
            continue;
        }
        ax = ax > x0 ? ax : x0;
        ay = ay > y0 ? ay : y0;
        ex = ex < x1 ? ex : x1;
        ey = ey < y1 ? ey : y1;
        for (int y = ay; y < ey; y++)
            for (int x = ax; x < ex; x++)
                mv->cell[y][x] |= CELL_NEAR;
    }
}

/* The step in direction d (a constant once inlined) from space id (x, y),
 * finished with key k, for a one-space mover: f its table entry
 * (step_fixed), near whether an enemy stands next to the start
 * (CELL_NEAR). */
static FRAY__INLINE void try_step(fray__reach_run *run, unsigned id, int x,
                                  int y, int k, int d, unsigned f, bool near) {
    if (f == STEP_NONE)
        return;
    int dx = DIRS[d][0], dy = DIRS[d][1];
    unsigned nid = id + (unsigned)(dy * FRAY_GRID_MAX + dx);
    int cur = run->key[nid];
    /* The table's weight is the least the step can weigh: when even that
     * cannot improve cur (unsigned: -1, not yet reached, is above every
     * key) or exceeds kmax, the step is not taken whoever stands where. */
    int nk = k + (int)(f & STEP_WEIGHT);
    if ((unsigned)cur <= (unsigned)nk)
        return;
    if (nk > run->kmax) {
        run->cut = true;
        return;
    }
    if (near) {
        /* (nk <= kmax: every space the step touches lies in the painted
         * box.) */
        int wgt = step_weight1_fixed(&run->mv, x, y, dx, dy, f);
        if (wgt < 0)
            return;
        nk = k + wgt;
        if (nk > run->kmax) {
            run->cut = true;
            return;
        }
        if ((unsigned)cur <= (unsigned)nk)
            return;
    }
    if (cur >= 0)
        bq_unlink(run, nid, cur);
    else
        run->queued++;
    run->key[nid] = (int16_t)nk;
    /* (Through the space's id: y * 64 + x.) */
    (&run->out->prev_x[0][0])[nid] = (int16_t)x;
    (&run->out->prev_y[0][0])[nid] = (int16_t)y;
    bq_link(run, nid, nk);
}

/*
 * The search loop for a one-space mover with the steps' fixed parts
 * tabled (step_fixed, [id * 8 + d]) and who stands where painted: the
 * same steps in the same order as search_map, so the same keys and
 * previous steps. A step's weight is its table entry unless an enemy
 * stands next to its start (CELL_NEAR): no neighbour's bounds to test
 * (off the map is STEP_NONE) and no space to look at. Finishes the
 * buckets up to key `until`; true when the stop space was finished.
 */
static bool search_steps(fray__reach_run *run, int until) {
    const uint8_t *cell = &run->mv.cell[0][0];
    for (; run->k <= until && run->queued > 0; run->k++) {
        int k = run->k;
        unsigned id;
        while ((id = bq_pop(run, k)) != NIL) {
            unsigned c = cell[id], o = c >> 1 & 7u;
            settle(run, id, k, o == FRAY_OCC_EMPTY || o == FRAY_OCC_SELF);
            if (id == run->stop)
                return true;
            int x = (int)(id % FRAY_GRID_MAX), y = (int)(id / FRAY_GRID_MAX);
            bool near = (c & CELL_NEAR) != 0;
            const uint8_t *f = &run->fixed[id * 8u];
            try_step(run, id, x, y, k, 0, f[0], near);
            try_step(run, id, x, y, k, 1, f[1], near);
            try_step(run, id, x, y, k, 2, f[2], near);
            try_step(run, id, x, y, k, 3, f[3], near);
            try_step(run, id, x, y, k, 4, f[4], near);
            try_step(run, id, x, y, k, 5, f[5], near);
            try_step(run, id, x, y, k, 6, f[6], near);
            try_step(run, id, x, y, k, 7, f[7], near);
        }
    }
    return false;
}

/* The search loop for any mover, every step weighed from the map and the
 * occupants (step_weight); as search_steps otherwise. */
static bool search_map(fray__reach_run *run, int until) {
    mover *mv = &run->mv;
    int kmax = run->kmax;
    int xmax = run->out->w - mv->n, ymax = run->out->h - mv->n;
    for (; run->k <= until && run->queued > 0; run->k++) {
        int k = run->k;
        unsigned id;
        while ((id = bq_pop(run, k)) != NIL) {
            int x = (int)(id % FRAY_GRID_MAX), y = (int)(id / FRAY_GRID_MAX);
            settle(run, id, k, may_stop(mv, x, y));
            if (id == run->stop)
                return true;
            /* Steps that would cost more than max_cost are never taken:
             * none at all past kmax - KEY_ORTH, no diagonal (DIRS 4..7)
             * past kmax - KEY_DIAG. */
            int kd = mv->diag_one ? KEY_ORTH : KEY_DIAG;
            int n_dirs = k + kd <= kmax ? 8 : k + KEY_ORTH <= kmax ? 4 : 0;
            if (n_dirs < 8)
                run->cut = true;
            /* A space off the edges has no neighbour off the map: no
             * bounds to test. */
            bool inner = x > 0 && y > 0 && x < xmax && y < ymax;
            for (int d = 0; d < n_dirs; d++) {
                int dx = DIRS[d][0], dy = DIRS[d][1];
                int nx = x + dx, ny = y + dy;
                /* Unsigned: a negative coordinate is above the limit. */
                if (!inner && ((unsigned)nx > (unsigned)xmax ||
                               (unsigned)ny > (unsigned)ymax))
                    continue;
                /* Finished spaces have keys <= k, so this also skips
                 * them without weighing the step (unsigned: -1, not yet
                 * reached, is above every key). */
                unsigned nid = id + (unsigned)(dy * FRAY_GRID_MAX + dx);
                int cur = run->key[nid], least = k + (d >= 4 ? kd : KEY_ORTH);
                if ((unsigned)cur <= (unsigned)least)
                    continue;
                int wgt = step_weight(mv, x, y, dx, dy);
                if (wgt < 0)
                    continue;
                if (d >= 4 && mv->diag_one)
                    wgt -= KEY_DIAG - KEY_ORTH; /* a diagonal is one square */
                int nk = k + wgt;
                if (nk > kmax) {
                    run->cut = true;
                    continue;
                }
                if (cur >= 0 && nk >= cur)
                    continue;
                if (cur >= 0)
                    bq_unlink(run, nid, cur);
                else
                    run->queued++;
                run->key[nid] = (int16_t)nk;
                run->out->prev_x[ny][nx] = (int16_t)x;
                run->out->prev_y[ny][nx] = (int16_t)y;
                bq_link(run, nid, nk);
            }
        }
    }
    return false;
}

/* The search's start (fray_grid_reach, fray__grid_run_start): out cleared,
 * who stands where painted in the box of spaces the search can look at,
 * the start queued. A one-space mover among painted occupants takes its
 * steps from the table `steps`. */
static void run_start(fray__reach_run *run, const fray_grid *g,
                      fray_footprint from, int start_parity, int max_cost,
                      fray_occupant_fn occ, void *ctx,
                      const fray_footprint *occ_fp, const uint8_t *occ_kind,
                      int n_occ, fray_reach_map *out, unsigned stop,
                      const uint8_t (*steps)[FRAY_GRID_MAX][8]) {
    int n = side_of(from);
    from.side = (int8_t)n;
    out->from = from;
    run->mv.diag_one = false;
    int w = clamp_int(g->w, 0, FRAY_GRID_MAX), h = clamp_int(g->h, 0, FRAY_GRID_MAX);
    out->w = (int16_t)w;
    out->h = (int16_t)h;
    run->out = out;
    run->stop = stop;
    run->cut = false;
    run->queued = 0;
    run->k = 0;
    run->kmax = -1;
    run->settled = -1;
    run->shown = -1;
    run->fixed = NULL;
    /* The rows cleared 16 spaces at a time on a map at most 16 wide (the
     * stores of a fixed size, without a call; issue 16): the rows' spaces
     * past the map's width are cleared too, which nothing reads. */
    if (w <= 16)
        for (int y = 0; y < h; y++) {
            memset(out->cost[y], 0xff, 16 * sizeof out->cost[y][0]);
            memset(out->can_stop[y], 0, 16 * sizeof out->can_stop[y][0]);
            memset(&run->key[y * FRAY_GRID_MAX], 0xff, 16 * sizeof run->key[0]);
        }
    else
        for (int y = 0; y < h; y++) {
            memset(out->cost[y], 0xff, (size_t)w * sizeof out->cost[y][0]);
            memset(out->can_stop[y], 0, (size_t)w * sizeof out->can_stop[y][0]);
            memset(&run->key[y * FRAY_GRID_MAX], 0xff, (size_t)w * sizeof run->key[0]);
        }
    for (int i = 0; i < KEY_RING; i++)
        run->head[i] = NIL;
    int fx = from.at.x, fy = from.at.y;
    int xmax = w - n, ymax = h - n; /* the last top-left that fits */
    if (fx < 0 || fy < 0 || fx > xmax || fy > ymax)
        return;
    max_cost = clamp_int(max_cost, 0, COST_CAP);
    run->kmax = 2 * max_cost + 1;

    /* Every space the search can look at lies within max_cost of the
     * start's footprint. */
    mover *mv = &run->mv;
    mv->g = g;
    mv->occ = occ;
    mv->ctx = ctx;
    mv->n = n;
    int r = max_cost < FRAY_GRID_MAX ? max_cost : FRAY_GRID_MAX;
    int bx0 = fx - r > 0 ? fx - r : 0, by0 = fy - r > 0 ? fy - r : 0;
    int bx1 = fx + r + n < w ? fx + r + n : w;
    int by1 = fy + r + n < h ? fy + r + n : h;
    run->bx0 = (int16_t)bx0;
    run->by0 = (int16_t)by0;
    run->bx1 = (int16_t)bx1;
    run->by1 = (int16_t)by1;
    if (occ_fp)
        paint(mv, bx0, by0, bx1, by1, occ_fp, occ_kind, n_occ);
    else
        for (int y = by0; y < by1; y++)
            memset(&mv->cell[y][bx0], 0, (size_t)(bx1 - bx0));
    if (steps && n == 1 && occ_fp) {
        mark_near_enemies(mv, bx0, by0, bx1, by1, occ_fp, occ_kind, n_occ);
        run->fixed = &steps[0][0][0];
    }

    int k0 = start_parity ? 1 : 0;
    run->k = k0;
    run->key[fy * FRAY_GRID_MAX + fx] = (int16_t)k0;
    out->prev_x[fy][fx] = -1;
    out->prev_y[fy][fx] = -1;
    bq_link(run, (unsigned)(fy * FRAY_GRID_MAX + fx), k0);
    run->queued = 1;
}

/* Finishes the buckets up to key `until` (at most kmax); true when the
 * stop space was finished. */
static bool run_until_key(fray__reach_run *run, int until) {
    if (until > run->kmax)
        until = run->kmax;
    return run->fixed ? search_steps(run, until) : search_map(run, until);
}

/* fray_grid_reach; with stop != NIL (a space id) the search ends as soon
 * as that space is finished: its cost, parity, can_stop and path are then
 * final, the rest of out is not meaningful. */
static void reach(const fray_grid *g, fray_footprint from, int start_parity,
                  int max_cost, fray_occupant_fn occ, void *ctx,
                  const fray_footprint *occ_fp, const uint8_t *occ_kind,
                  int n_occ, fray_reach_map *out, unsigned stop,
                  const uint8_t (*steps)[FRAY_GRID_MAX][8]) {
    fray__reach_run run;
    run_start(&run, g, from, start_parity, max_cost, occ, ctx, occ_fp,
              occ_kind, n_occ, out, stop, steps);
    run_until_key(&run, run.kmax);
}

void fray__grid_run_start(fray__reach_run *run, const fray_grid *g,
                          const uint8_t (*steps)[FRAY_GRID_MAX][8],
                          fray_footprint from, int start_parity, int max_cost,
                          const fray_footprint *occ_fp,
                          const uint8_t *occ_kind, int n_occ,
                          fray_reach_map *out) {
    run_start(run, g, from, start_parity, max_cost, NULL, NULL, occ_fp,
              occ_kind, n_occ, out, NIL, steps);
}

/* A space's cost c has keys 2c and 2c + 1: finishing the buckets up to
 * 2 * cost + 1 finishes every space that costs at most `cost`, and
 * nothing the search with max_cost = cost would not (a lower limit leaves
 * out only steps past it: the spaces within it are finished in the same
 * order, with the same keys and previous steps, as the keys past the
 * limit lie in other buckets of the ring). */
bool fray__grid_run_until(fray__reach_run *run, int cost) {
    /* A cost shown without its steps (fray__grid_run_show) takes them
     * now, so that the answer below is exact. */
    if (cost < run->shown)
        cost = run->shown;
    if (cost > run->settled) {
        run_until_key(run, 2 * clamp_int(cost, 0, COST_CAP) + 1);
        run->settled = cost < (run->kmax - 1) / 2 ? cost : (run->kmax - 1) / 2;
        if (run->shown < run->settled)
            run->shown = run->settled;
    }
    return run->queued > 0;
}

/* Writes what settle writes for every space queued with key `key`
 * (without taking it out of its bucket: it is finished, with the same
 * values, when the run gets to it). */
static void show_bucket(fray__reach_run *run, int key) {
    mover *mv = &run->mv;
    for (unsigned id = run->head[(unsigned)key % KEY_RING]; id != NIL;
         id = run->next[id]) {
        assert(run->key[id] == key);
        bool can_stop;
        if (run->fixed) {
            unsigned o = (&mv->cell[0][0])[id] >> 1 & 7u;
            can_stop = o == FRAY_OCC_EMPTY || o == FRAY_OCC_SELF;
        } else
            can_stop = may_stop(mv, (int)(id % FRAY_GRID_MAX),
                                (int)(id / FRAY_GRID_MAX));
        settle(run, id, key, can_stop);
    }
}

/* The keys of a space costing c are 2c and 2c + 1, and a step weighs at
 * least 2: once every key up to 2c - 1 is finished, nothing found later
 * can give a space key 2c or 2c + 1, or a cheaper previous step, so the
 * spaces queued with those keys are exactly those costing c, with their
 * final keys and previous steps. Writing them out shows what finishing
 * them shows, without taking the steps from them (issue 16: the last
 * cost a caller asks for is the widest ring of the search, and its steps
 * are wanted only if the caller goes on). */
bool fray__grid_run_show(fray__reach_run *run, int cost) {
    assert(run->stop == NIL);
    cost = clamp_int(cost, 0, COST_CAP);
    if (cost <= run->shown)
        return run->queued > 0;
    if (2 * cost + 1 >= run->kmax)
        return fray__grid_run_until(run, cost);
    if (2 * cost - 1 >= run->k)
        run_until_key(run, 2 * cost - 1);
    assert(run->queued == 0 || run->k >= 2 * cost);
    /* (Keys queued lie within the heaviest step of the last key finished:
     * KEY_RING holds each in a bucket of its own.) */
    if (run->k <= 2 * cost)
        show_bucket(run, 2 * cost);
    show_bucket(run, 2 * cost + 1);
    run->shown = cost;
    return run->queued > 0;
}

bool fray__grid_run_may_stop(const fray__reach_run *run, fray_pos at) {
    int n = run->mv.n;
    /* (kmax < 0: the start is off the map, nothing is ever finished.) */
    if (run->kmax < 0 || at.x < 0 || at.y < 0 || at.x > run->out->w - n ||
        at.y > run->out->h - n)
        return false;
    /* Every space a finished position covers lies in the painted box;
     * outside it the occupants are not known here: it may. */
    if (at.x < run->bx0 || at.y < run->by0 || at.x + n > run->bx1 ||
        at.y + n > run->by1)
        return true;
    /* may_stop without asking a callback: a space not painted (0, a
     * search without a list) has no occupant the search knows of yet, and
     * one with a callback may have anyone: it may. */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            unsigned v = run->mv.cell[at.y + j][at.x + i], o = v >> 1 & 7u;
            if (v == 0)
                return true;
            if (o != FRAY_OCC_EMPTY && o != FRAY_OCC_SELF)
                return false;
        }
    return true;
}

static unsigned stop_index(fray_pos to);

/* fray_grid_reach by a metric (the one-space-per-diagonal search goes
 * through search_map, never the tabled steps). */
static void reach_m(const fray_grid *g, fray_footprint from, int start_parity,
                    int max_cost, fray_occupant_fn occ, void *ctx,
                    fray_area_metric metric, fray_reach_map *out, unsigned stop) {
    fray__reach_run run;
    run_start(&run, g, from, metric == FRAY_AREA_SQUARE ? 0 : start_parity, max_cost,
              occ, ctx, NULL, NULL, 0, out, stop, NULL);
    run.mv.diag_one = metric == FRAY_AREA_SQUARE;
    run_until_key(&run, run.kmax);
}

void fray_grid_reach_m(const fray_grid *g, fray_footprint from, int start_parity,
                       int max_cost, fray_occupant_fn occ, void *ctx,
                       fray_area_metric metric, fray_reach_map *out) {
    reach_m(g, from, start_parity, max_cost, occ, ctx, metric, out, NIL);
}

void fray__grid_reach_to_m(const fray_grid *g, fray_footprint from, int start_parity,
                           int max_cost, fray_occupant_fn occ, void *ctx,
                           fray_area_metric metric, fray_pos to, fray_reach_map *out) {
    reach_m(g, from, start_parity, max_cost, occ, ctx, metric, out, stop_index(to));
}

void fray_grid_reach(const fray_grid *g, fray_footprint from, int start_parity,
                     int max_cost, fray_occupant_fn occ, void *ctx,
                     fray_reach_map *out) {
    reach(g, from, start_parity, max_cost, occ, ctx, NULL, NULL, 0, out, NIL,
          NULL);
}

/* The space a search stops at once it is settled; NIL (the whole search)
 * for a space off the map. */
static unsigned stop_index(fray_pos to) {
    if (to.x >= 0 && to.y >= 0 && to.x < FRAY_GRID_MAX && to.y < FRAY_GRID_MAX)
        return (unsigned)(to.y * FRAY_GRID_MAX + to.x);
    return NIL;
}

void fray__grid_reach_to(const fray_grid *g, fray_footprint from,
                         int start_parity, int max_cost, fray_occupant_fn occ,
                         void *ctx, fray_pos to, fray_reach_map *out) {
    unsigned stop = stop_index(to);
    reach(g, from, start_parity, max_cost, occ, ctx, NULL, NULL, 0, out, stop,
          NULL);
}

void fray__grid_reach_occ(const fray_grid *g, fray_footprint from,
                          int start_parity, int max_cost,
                          const fray_footprint *occ_fp,
                          const uint8_t *occ_kind, int n_occ, fray_pos to,
                          fray_reach_map *out) {
    unsigned stop = stop_index(to);
    reach(g, from, start_parity, max_cost, NULL, NULL, occ_fp, occ_kind,
          n_occ, out, stop, NULL);
}

void fray__grid_reach_steps(const fray_grid *g,
                            const uint8_t (*steps)[FRAY_GRID_MAX][8],
                            fray_footprint from, int start_parity,
                            int max_cost, const fray_footprint *occ_fp,
                            const uint8_t *occ_kind, int n_occ, fray_pos to,
                            fray_reach_map *out) {
    unsigned stop = stop_index(to);
    reach(g, from, start_parity, max_cost, NULL, NULL, occ_fp, occ_kind,
          n_occ, out, stop, steps);
}

int fray__grid_step_key(const fray_grid *g, fray_footprint from, int dx, int dy,
                        const fray_footprint *occ_fp, const uint8_t *occ_kind,
                        int n_occ, bool *can_stop) {
    *can_stop = false;
    int n = side_of(from);
    int w = clamp_int(g->w, 0, FRAY_GRID_MAX), h = clamp_int(g->h, 0, FRAY_GRID_MAX);
    int x = from.at.x, y = from.at.y, nx = x + dx, ny = y + dy;
    if ((dx == 0 && dy == 0) || dx < -1 || dx > 1 || dy < -1 || dy > 1 ||
        x < 0 || y < 0 || x + n > w || y + n > h || nx < 0 || ny < 0 ||
        nx + n > w || ny + n > h)
        return -1;
    /* Who stands where, painted in the box the step touches. */
    mover mv;
    mv.g = g;
    mv.occ = NULL;
    mv.ctx = NULL;
    mv.n = n;
    mv.diag_one = false;
    int x0 = (x < nx ? x : nx), y0 = (y < ny ? y : ny);
    paint(&mv, x0, y0, x0 + n + 1 < w ? x0 + n + 1 : w,
          y0 + n + 1 < h ? y0 + n + 1 : h, occ_fp, occ_kind, n_occ);
    int wgt = step_weight(&mv, x, y, dx, dy);
    if (wgt >= 0)
        *can_stop = may_stop(&mv, nx, ny);
    return wgt;
}

int fray_grid_path(const fray_reach_map *m, fray_pos to, fray_pos *out, int max) {
    int w = clamp_int(m->w, 0, FRAY_GRID_MAX), h = clamp_int(m->h, 0, FRAY_GRID_MAX);
    if (to.x < 0 || to.y < 0 || to.x >= w || to.y >= h || m->cost[to.y][to.x] < 0)
        return 0;
    /* Count the steps back to the start; the bound and the checks keep a
     * damaged map from looping. */
    int len = 0, x = to.x, y = to.y;
    while (x != m->from.at.x || y != m->from.at.y) {
        int px = m->prev_x[y][x], py = m->prev_y[y][x];
        if (px < 0 || py < 0 || px >= w || py >= h || m->cost[py][px] < 0 ||
            ++len > FRAY_GRID_MAX * FRAY_GRID_MAX)
            return 0;
        x = px;
        y = py;
    }
    int n = len < max ? len : max;
    if (n <= 0)
        return 0;
    x = to.x;
    y = to.y;
    for (int i = len - 1; i >= 0; i--) {
        if (i < n)
            out[i] = P(x, y);
        int px = m->prev_x[y][x], py = m->prev_y[y][x];
        x = px;
        y = py;
    }
    return n;
}

/* ---- ASCII art ------------------------------------------------------------------ */

/* The length of the line starting at s (without "\n" or "\r\n") and where
 * the next one starts (NULL after the last line). */
static size_t line_len(const char *s, const char **next) {
    const char *e = strchr(s, '\n');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    *next = e && e[1] ? e + 1 : NULL;
    if (len > 0 && s[len - 1] == '\r')
        len--;
    return len;
}

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static fray_status parse_error(fray_diag *diag, fray_status st, int line,
                               int column, const char *fmt, ...) {
    if (diag) {
        diag->line = line;
        diag->column = column;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(diag->message, sizeof diag->message, fmt, ap);
        va_end(ap);
    }
    return st;
}

/* The built-in symbols; false for any other. */
static bool builtin_symbol(char c, unsigned *terrain, int *elevation) {
    *elevation = 0;
    switch (c) {
    case '.':
    case ' ':
        *terrain = FRAY_TERRAIN_OPEN;
        return true;
    case '#':
        *terrain = FRAY_TERRAIN_WALL;
        return true;
    case '~':
        *terrain = FRAY_TERRAIN_DIFFICULT;
        return true;
    case '=':
        *terrain = FRAY_TERRAIN_WINDOW;
        return true;
    case 'v':
        *terrain = FRAY_TERRAIN_PIT;
        return true;
    default:
        if (c >= '1' && c <= '9') {
            *terrain = FRAY_TERRAIN_OPEN;
            *elevation = c - '0';
            return true;
        }
        return false;
    }
}

fray_status fray_grid_parse(const char *art, const fray_grid_legend_entry *legend,
                            int n_legend, fray_grid *g,
                            fray_grid_placement *out_placements,
                            int max_placements, int *out_n_placements,
                            fray_diag *diag) {
    if (out_n_placements)
        *out_n_placements = 0;
    if (!art || !g)
        return FRAY_ERR_INVALID;
    /* First the size, so that an oversized map is reported as such. */
    int w = 0, h = 0, wide_line = 0;
    for (const char *s = *art ? art : NULL, *next; s; s = next) {
        int len = (int)line_len(s, &next);
        h++;
        if (len > FRAY_GRID_MAX && !wide_line)
            wide_line = h;
        if (len > w)
            w = len;
    }
    if (h > FRAY_GRID_MAX)
        return parse_error(diag, FRAY_ERR_RANGE, FRAY_GRID_MAX + 1, 1,
                           "the map is %d rows tall; at most %d", h,
                           FRAY_GRID_MAX);
    if (wide_line)
        return parse_error(diag, FRAY_ERR_RANGE, wide_line, FRAY_GRID_MAX + 1,
                           "the map is %d spaces wide; at most %d", w,
                           FRAY_GRID_MAX);
    if (w == 0)
        return parse_error(diag, FRAY_ERR_PARSE, 1, 1,
                           "the map is empty (%d rows of %d spaces)", h, w);
    fray_grid_init(g, w, h);
    int n_placed = 0, y = 0;
    for (const char *s = art, *next; s; s = next, y++) {
        int len = (int)line_len(s, &next);
        for (int x = 0; x < len; x++) {
            char c = s[x];
            const fray_grid_legend_entry *e = NULL;
            for (int i = 0; i < n_legend && !e; i++)
                if (legend[i].symbol == c)
                    e = &legend[i];
            unsigned terrain;
            int elevation;
            if (e && e->is_placement) {
                if (n_placed >= max_placements)
                    return parse_error(diag, FRAY_ERR_RANGE, y + 1, x + 1,
                                       "more than %d placement spaces (at "
                                       "'%c')",
                                       max_placements, c);
                out_placements[n_placed].placement_id = e->placement_id;
                out_placements[n_placed].at = P(x, y);
                n_placed++;
                terrain = FRAY_TERRAIN_OPEN;
                elevation = 0;
            } else if (e) {
                terrain = (unsigned)e->terrain < FRAY_TERRAIN_COUNT
                              ? (unsigned)e->terrain
                              : FRAY_TERRAIN_OPEN;
                elevation = e->elevation;
            } else if (!builtin_symbol(c, &terrain, &elevation)) {
                if (isprint((unsigned char)c))
                    return parse_error(diag, FRAY_ERR_PARSE, y + 1, x + 1,
                                       "unknown map symbol '%c' (not in the "
                                       "legend)",
                                       c);
                return parse_error(diag, FRAY_ERR_PARSE, y + 1, x + 1,
                                   "unknown map symbol 0x%02X (not in the "
                                   "legend)",
                                   (unsigned)(unsigned char)c);
            }
            g->terrain[y][x] = (uint8_t)terrain;
            g->elevation[y][x] = (int8_t)elevation;
        }
    }
    if (out_n_placements)
        *out_n_placements = n_placed;
    return FRAY_OK;
}

/* snprintf-style output: counts everything, stores what fits. */
typedef struct text_out {
    char *buf;
    size_t size, len;
} text_out;

static void put(text_out *o, char c) {
    if (o->len + 1 < o->size)
        o->buf[o->len] = c;
    o->len++;
}

static void put_row_label(text_out *o, int digits, int row) {
    char t[8];
    int n = 0;
    do {
        t[n++] = (char)('0' + row % 10);
        row /= 10;
    } while (row > 0);
    for (int i = n; i < digits; i++)
        put(o, ' ');
    while (n > 0)
        put(o, t[--n]);
    put(o, ' ');
}

static char terrain_char(const fray_grid *g, int x, int y) {
    switch (g->terrain[y][x]) {
    case FRAY_TERRAIN_WALL:
        return '#';
    case FRAY_TERRAIN_DIFFICULT:
        return '~';
    case FRAY_TERRAIN_WINDOW:
        return '=';
    case FRAY_TERRAIN_PIT:
        return 'v';
    default: {
        int e = g->elevation[y][x];
        return e <= 0 ? '.' : (char)('0' + (e > 9 ? 9 : e));
    }
    }
}

size_t fray_grid_draw(const fray_grid *g, const fray_grid_token *tokens,
                      int n_tokens, char *buf, size_t size) {
    text_out o = {buf, size, 0};
    int w = clamp_int(g->w, 1, FRAY_GRID_MAX), h = clamp_int(g->h, 1, FRAY_GRID_MAX);
    int digits = h - 1 >= 10 ? 2 : 1;
    if (w > 10) {
        for (int i = 0; i <= digits; i++)
            put(&o, ' ');
        for (int x = 0; x < w; x++)
            put(&o, (char)(x < 10 ? ' ' : '0' + x / 10 % 10));
        put(&o, '\n');
    }
    for (int i = 0; i <= digits; i++)
        put(&o, ' ');
    for (int x = 0; x < w; x++)
        put(&o, (char)('0' + x % 10));
    put(&o, '\n');
    for (int y = 0; y < h; y++) {
        char row[FRAY_GRID_MAX];
        for (int x = 0; x < w; x++)
            row[x] = terrain_char(g, x, y);
        for (int t = 0; t < n_tokens; t++) {
            fray_footprint fp = tokens[t].fp;
            int n = side_of(fp);
            if (y < fp.at.y || y >= fp.at.y + n)
                continue;
            for (int x = fp.at.x; x < fp.at.x + n; x++)
                if (x >= 0 && x < w)
                    row[x] = tokens[t].symbol;
        }
        put_row_label(&o, digits, y);
        for (int x = 0; x < w; x++)
            put(&o, row[x]);
        put(&o, '\n');
    }
    if (size > 0)
        buf[o.len < size ? o.len : size - 1] = '\0';
    return o.len;
}
