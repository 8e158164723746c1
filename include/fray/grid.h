/*
 * fray/grid.h - the tactical map: spaces, terrain, counting, ranges, line of
 * sight, cover from terrain, movement costs and paths, and maps as ASCII art
 * (seed 000 "Tactical Map", "Cover", "Opportunity Attacks").
 *
 * The map is a fixed-size value (no allocation): at most FRAY_GRID_MAX x
 * FRAY_GRID_MAX spaces, each a 5-foot cube. Positions are (x, y) with x the
 * column from 0 at the left and y the row from 0 at the top. Walls can fill a
 * space (terrain WALL) or run along the side between two spaces (an edge).
 *
 * The module is ruleset-neutral geometry: who may attack whom, what counts
 * as an ally and what the cover grants are the ruleset's business. For
 * Opportunity Attacks, a creature with reach r threatens every footprint for
 * which fray_grid_within(its footprint, other, r) holds; whether it "could
 * make a melee attack" there (no wall in between) is fray_grid_cover() !=
 * FRAY_COVER_TOTAL.
 *
 * Exactness: every geometric test is done in integers (positions in quarter
 * spaces), never in floating point, so results are identical everywhere.
 * Elevation is stored and drawn but not yet used by sight, cover or
 * movement.
 *
 * Thread-safety: the grid is a plain value; every function here reads or
 * writes only the objects passed in (and calls the occupant callback on the
 * calling thread), so different grids may be used from different threads
 * and one grid may be read from many threads at once.
 */
#ifndef FRAY_GRID_H
#define FRAY_GRID_H

#include "fray/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FRAY_GRID_MAX 64 /* max width and height in spaces */

/* A space: x column from 0 (left), y row from 0 (top). */
typedef struct fray_pos {
    int16_t x, y;
} fray_pos;

/* Terrain of a whole space (seed "Terrain Types"). One X-macro list feeds
 * the enum, fray_terrain_name() and fray_terrain_parse(). What each blocks:
 *   open       nothing;
 *   wall       movement, sight and line of effect;
 *   difficult  nothing (+1 to enter);
 *   window     movement and line of effect, not sight (seed 000 "Line of
 *              Sight": windows "with gaps large enough to see through";
 *              an effect does not pass a pane or bars);
 *   pit        movement only (cannot be entered; sight and effects pass
 *              over a hole in the floor). */
#define FRAY_TERRAIN_LIST(X)                                                  \
    X(FRAY_TERRAIN_OPEN, "open")                                              \
    X(FRAY_TERRAIN_WALL, "wall")                                              \
    X(FRAY_TERRAIN_DIFFICULT, "difficult")                                    \
    X(FRAY_TERRAIN_WINDOW, "window")                                          \
    X(FRAY_TERRAIN_PIT, "pit")

typedef enum fray_terrain {
#define FRAY__TERRAIN_ENUM(name, text) name,
    FRAY_TERRAIN_LIST(FRAY__TERRAIN_ENUM)
#undef FRAY__TERRAIN_ENUM
    FRAY_TERRAIN_COUNT
} fray_terrain;

/* The terrain's name ("open", "wall", ...); "?" for an unknown value. Static
 * string, never NULL. */
FRAY_API const char *fray_terrain_name(fray_terrain t);
/* Reads a terrain name (exact, lower case). FRAY_ERR_PARSE when unknown
 * (*out_terrain untouched). */
FRAY_API FRAY_MUST_CHECK fray_status fray_terrain_parse(const char *name,
                                        fray_terrain *out_terrain);

/* A feature on the side between two orthogonally adjacent spaces. */
typedef enum fray_edge {
    FRAY_EDGE_NONE,
    FRAY_EDGE_WALL, /* blocks movement, sight and effect */
    FRAY_EDGE_LOW   /* a short wall: +1 to cross (difficult), blocks neither
                       sight nor effect, hides part of a target (cover) */
} fray_edge;

/*
 * The map. Arrays are indexed [y][x]; only x < w, y < h are meaningful.
 * edge_e[y][x] is the edge between (x, y) and (x + 1, y); edge_s[y][x] the
 * edge between (x, y) and (x, y + 1). Callers may write the arrays directly
 * (the values must be valid fray_terrain / fray_edge) or use the functions
 * below.
 */
typedef struct fray_grid {
    int16_t w, h;
    uint8_t terrain[FRAY_GRID_MAX][FRAY_GRID_MAX];   /* fray_terrain */
    int8_t elevation[FRAY_GRID_MAX][FRAY_GRID_MAX];  /* levels of high ground,
                                                        0 = floor */
    uint8_t edge_e[FRAY_GRID_MAX][FRAY_GRID_MAX];    /* fray_edge, east side */
    uint8_t edge_s[FRAY_GRID_MAX][FRAY_GRID_MAX];    /* fray_edge, south side */
} fray_grid;

/*
 * A creature's footprint: its top-left space and its side in spaces (seed
 * "Creature Sizes": 1 for Tiny..Medium, 2 Large, 3 Huge, 4 Gargantuan, 5
 * Colossal). Functions treat a side below 1 as 1 and above 5 as 5.
 */
typedef struct fray_footprint {
    fray_pos at;
    int8_t side;
} fray_footprint;

/* Makes every space open floor at elevation 0 with no edges (the whole
 * 64x64 arrays are cleared). w and h are clamped to 1..FRAY_GRID_MAX. */
FRAY_API void fray_grid_init(fray_grid *g, int w, int h);
/* true when p is on the map (0 <= x < w, 0 <= y < h). */
FRAY_API bool fray_grid_in(const fray_grid *g, fray_pos p);
/* The side of a creature's footprint for a size rank (-4 Minuscule .. 0
 * Medium .. 4 Colossal): rank <= 0 -> 1, 1 -> 2, 2 -> 3, 3 -> 4, >= 4 -> 5. */
FRAY_API int fray_grid_side_for_size(int size_rank);

/* ---- Counting, ranges, adjacency ------------------------------------------ */

/*
 * The count of spaces from a to b (seed "Counting Spaces"): orthogonal steps
 * count 1, diagonal steps alternate 1, 2, 1, 2 ...; the shortest count is
 * max(dx, dy) + min(dx, dy) / 2 (rounded down). Pure diagonals 1..6 count
 * 1, 3, 4, 6, 7, 9. a and b need not be on any map.
 */
FRAY_API int fray_grid_count(fray_pos a, fray_pos b);
/*
 * The range between two footprints (seed "Determining Ranges": counting from
 * a space adjacent to the attacker and ending in one of the target's
 * spaces): the least fray_grid_count between a space of a and a space of b.
 * Adjacent creatures are at range 1 whatever their sizes; overlapping
 * footprints at range 0.
 */
FRAY_API int fray_grid_range(fray_footprint a, fray_footprint b);
/* true when a side or corner of a space of a touches a space of b (seed
 * "Tactical Map") and the two do not overlap. */
FRAY_API bool fray_grid_adjacent(fray_footprint a, fray_footprint b);
/* true when fray_grid_range(a, b) <= reach: reach 1 is "adjacent" (the
 * spaces a creature threatens, seed "Opportunity Attacks"), reach 2 a Reach
 * weapon. Overlapping footprints are within any reach >= 0. Pure geometry:
 * walls are not considered. */
FRAY_API bool fray_grid_within(fray_footprint a, fray_footprint b, int reach);

/* ---- Line of sight ----------------------------------------------------------- */

/*
 * Line of sight (seed "Line of Sight") from the centre of space a to the
 * centre of space b. The straight segment is blocked when
 *   - it passes through the inside of a WALL space other than a and b, or
 *   - it crosses a WALL edge, or
 *   - it passes exactly through a corner point where blocking things meet on
 *     BOTH sides of the line. Four spaces meet at the point: the one the line
 *     leaves (s), the one it enters (t) and the two it only touches (l and
 *     r). The l side is blocked when l is a WALL space or the edge s|l or
 *     l|t is a WALL edge; likewise the r side. The line is blocked only when
 *     both sides are. So a line grazing the corner of a single wall space,
 *     or the end of a single wall edge, is NOT blocked; a line squeezing
 *     between two diagonally touching wall spaces, crossing a straight run
 *     of wall edges at a corner point, or leaving through the corner where
 *     two walls of a space meet, IS blocked.
 * WINDOW and PIT spaces and LOW edges never block sight. Returns false when
 * a or b is off the map; true when a == b.
 */
FRAY_API bool fray_grid_sight(const fray_grid *g, fray_pos a, fray_pos b);
/* Sight between creatures: true when fray_grid_sight holds from some space
 * of a to some space of b (seed: from the centre of any space a large
 * creature occupies). Spaces off the map are skipped. */
FRAY_API bool fray_grid_sight_fp(const fray_grid *g, fray_footprint a,
                                 fray_footprint b);
/*
 * The spaces whose inside the centre-to-centre segment from a to b passes
 * through, excluding a and b, in order from a (spaces only touched at a
 * corner point are not included). Used to find intervening creatures (soft
 * cover, seed "Cover"). Writes at most max positions to out (out may be
 * NULL when max is 0) and returns the number written. No map is needed; the
 * positions may be anywhere with 0 <= x, y < FRAY_GRID_MAX (otherwise 0).
 */
FRAY_API int fray_grid_line_spaces(fray_pos a, fray_pos b, fray_pos *out,
                                   int max);

/* ---- Line of effect ---------------------------------------------------------- */

/*
 * Line of effect (seed 004 "Close Attacks", "Area Attacks", "Degree of
 * Cover"): whether an effect can travel from the centre of space a to the
 * centre of space b. The line is traced exactly as fray_grid_sight traces
 * it (corner points included), with one difference: a WINDOW space blocks
 * it as a WALL space does. So, by kind:
 *   WALL space, WALL edge   block (as for sight);
 *   WINDOW space            blocks (sight passes, an effect does not);
 *   PIT space               does not block (an effect passes over a hole);
 *   DIFFICULT, OPEN         do not block;
 *   LOW edge                does not block (it gives cover, fray_grid_cover).
 * The spaces a and b themselves never block. Returns false when a or b is
 * off the map; true when a == b. Whatever blocks effect blocks sight too,
 * except windows.
 */
FRAY_API bool fray_grid_effect(const fray_grid *g, fray_pos a, fray_pos b);
/* Line of effect between footprints: true when fray_grid_effect holds from
 * some space of a to some space of b (spaces off the map are skipped), as
 * fray_grid_sight_fp does for sight. */
FRAY_API bool fray_grid_effect_fp(const fray_grid *g, fray_footprint a,
                                  fray_footprint b);

/* ---- Cover from terrain --------------------------------------------------- */

#define FRAY_COVER_LIST(X)                                                    \
    X(FRAY_COVER_NONE, "none")                                                \
    X(FRAY_COVER_SOFT, "soft")   /* part blocked, more than half seen */     \
    X(FRAY_COVER_HARD, "hard")   /* more than half blocked */                \
    X(FRAY_COVER_TOTAL, "total") /* no line at all */

typedef enum fray_cover {
#define FRAY__COVER_ENUM(name, text) name,
    FRAY_COVER_LIST(FRAY__COVER_ENUM)
#undef FRAY__COVER_ENUM
} fray_cover;

/* "none", "soft", "hard" or "total"; "?" for an unknown value. */
FRAY_API const char *fray_cover_name(fray_cover c);

/*
 * The cover terrain gives `target` against `attacker` (seed "Cover"; the seed
 * leaves the details to the Tactical Map section, which never gives them, so
 * this is fray's ruling).
 *
 * For each attacker space s and each target space t (both on the map):
 *   1. the centre line s -> t is traced with the rules of fray_grid_sight;
 *      if it is blocked, the pair (s, t) gives no view;
 *   2. otherwise four lines are traced from the centre of s to the corners
 *      of t moved a quarter space inwards, i.e. the points (tx + 1/4,
 *      ty + 1/4), (tx + 3/4, ty + 1/4), (tx + 1/4, ty + 3/4), (tx + 3/4,
 *      ty + 3/4) in space units. A corner line is blocked by what blocks
 *      sight (WALL spaces other than s and t, WALL edges, corner points as
 *      in fray_grid_sight) and also by LOW edges, except LOW edges that
 *      border a space of the attacker's own footprint (a creature standing
 *      at a low wall shoots over it).
 * The pair with the fewest blocked corner lines decides:
 *   no pair gives a view   -> FRAY_COVER_TOTAL
 *   0 corner lines blocked -> FRAY_COVER_NONE
 *   1 or 2 blocked         -> FRAY_COVER_SOFT (part hidden, more than half
 *                             seen)
 *   3 or 4 blocked         -> FRAY_COVER_HARD (more than half hidden)
 * So a target peeking past one wall's corner has at most SOFT cover; walls
 * give HARD cover only when they close in from both sides of the centre line
 * (seen through a narrow gap), while a low wall right in front of the target
 * gives HARD. Elevation is ignored.
 * Creatures in the way (soft cover from a non-ally, seed "Cover") are not
 * considered here: see fray_grid_line_spaces. Overlapping footprints give
 * NONE. No space of either footprint on the map gives TOTAL.
 */
FRAY_API fray_cover fray_grid_cover(const fray_grid *g, fray_footprint attacker,
                                    fray_footprint target);

/* ---- Areas of effect ----------------------------------------------------------- */

/*
 * A set of spaces: bit x of rows[y] is the space (x, y). A plain value
 * (512 bytes) the caller owns; zero it (fray_area_clear or = {0}) before
 * use. Shapes are built by the functions below, always clipped to the map
 * they are given; the helpers ignore positions outside 0..FRAY_GRID_MAX-1.
 * Seed 004 "Area Types" (blast, burst, wall) and seed 000 "Areas" (Aura,
 * Burst, Cone, Line) are all sets of spaces.
 */
typedef struct fray_area {
    uint64_t rows[FRAY_GRID_MAX];
} fray_area;

/* Empties the set. */
FRAY_API void fray_area_clear(fray_area *a);
/* Adds / removes one space (nothing for a position outside the 64x64
 * range). */
FRAY_API void fray_area_add(fray_area *a, fray_pos p);
FRAY_API void fray_area_remove(fray_area *a, fray_pos p);
/* Adds / removes every space of a footprint (side clamped to 1..5). */
FRAY_API void fray_area_add_fp(fray_area *a, fray_footprint fp);
FRAY_API void fray_area_remove_fp(fray_area *a, fray_footprint fp);
/* true when p is in the set (false outside the 64x64 range). */
FRAY_API bool fray_area_has(const fray_area *a, fray_pos p);
/* true when some space of fp is in the set. */
FRAY_API bool fray_area_has_fp(const fray_area *a, fray_footprint fp);
/* The number of spaces in the set. */
FRAY_API int fray_area_count(const fray_area *a);
/*
 * Walks the set in reading order (rows from the top, each left to right).
 * *io_cursor starts at 0; each call that returns true writes the next space
 * to *out_p and moves the cursor past it; false when there is none left.
 *     int cur = 0; fray_pos p;
 *     while (fray_area_next(&area, &cur, &p)) ...
 */
FRAY_API bool fray_area_next(const fray_area *a, int *io_cursor,
                             fray_pos *out_p);

/* How distances are measured for bursts, auras and cones (Alloy's option
 * `burst: counted|square`, rulesets-checklists L7 item 9). */
typedef enum fray_area_metric {
    FRAY_AREA_COUNTED, /* fray_grid_count: diagonals 1, 2, 1, 2 ... (the
                          default of both rulesets; seed 000 "Burst 2 would
                          be the 21 squares") */
    FRAY_AREA_SQUARE   /* every diagonal counts 1 (Chebyshev): a burst N is
                          a (2N + 1)-square */
} fray_area_metric;

/* fray_grid_count, fray_grid_range and fray_grid_within by a metric:
 * FRAY_AREA_COUNTED is exactly those (1-2-1-2 diagonals);
 * FRAY_AREA_SQUARE counts every diagonal 1 (the larger of |dx|, |dy|). */
FRAY_API int fray_grid_count_m(fray_pos a, fray_pos b, fray_area_metric metric);
FRAY_API int fray_grid_range_m(fray_footprint a, fray_footprint b,
                               fray_area_metric metric);
FRAY_API bool fray_grid_within_m(fray_footprint a, fray_footprint b, int reach,
                                 fray_area_metric metric);

/*
 * A burst N (seed 004 "Burst Areas", seed 000 "Burst X") into *out: every
 * space of the map whose distance from `origin` (by metric) is at most n,
 * the origin included (0 <= n; n < 0 gives the empty set, n = 0 the origin
 * alone). Counted: Burst 1 is 9 spaces, Burst 2 is 21 (the 5x5 square less
 * its corners), Burst 5 (Alloy's 25-ft grenade) 89 on open ground. Line of
 * effect is not applied here (fray_area_keep_effect). The origin need not
 * be on the map; spaces off it are left out. Whether the user is affected
 * (a close burst does not affect its user; an area burst does, 004:131) is
 * the caller's: fray_area_remove_fp.
 */
FRAY_API void fray_area_burst(const fray_grid *g, fray_pos origin, int n,
                              fray_area_metric metric, fray_area *out);

/*
 * An aura N around a creature (seed 000 "Aura X") into *out: every space of
 * the map whose distance (by metric) to the nearest space of `source` is at
 * most n, i.e. fray_grid_range-style counting from the footprint's edge;
 * the footprint itself is left out unless include_source ("Unless
 * specified, an aura does not include the square containing the source").
 * Counted, around a Medium creature: Aura 1 is 8 spaces, Aura 2 is 20 (21
 * with the source); around a Large one: 12 and 28.
 */
FRAY_API void fray_area_aura(const fray_grid *g, fray_footprint source, int n,
                             fray_area_metric metric, bool include_source,
                             fray_area *out);

/*
 * Blasts (seed 004 "Blast Areas"): an n x n square of spaces touching the
 * origin footprint at a side or a corner, never overlapping it ("The origin
 * space is not affected by the blast"). A flamethrower's blast 25 ft is
 * n = 5. A placement is named by its top-left space `corner`: legal when
 * the square [corner, corner + n) on both axes does not overlap the origin
 * footprint and some space of it is adjacent (side or corner) to a space of
 * the origin.
 *
 * fray_area_blast: the placement at `corner` into *out, clipped to the map.
 * FRAY_ERR_INVALID (and *out empty) when n < 1, n > FRAY_GRID_MAX or the
 * placement is not legal.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_area_blast(const fray_grid *g, fray_footprint origin,
                                     int n, fray_pos corner, fray_area *out);
/*
 * Every legal placement of an n x n blast around `origin`, as the corners
 * fray_area_blast takes, in reading order of the corners. There are 4 (n +
 * side) of them (side the origin's, clamped to 1..5): 24 for a 5x5 blast
 * around a Medium user. When g is not NULL, only placements with at least
 * one space on the map are kept. Writes at most max corners (out may be
 * NULL when max is 0) and returns how many placements there are in all
 * (like snprintf); 0 when n < 1 or n > FRAY_GRID_MAX.
 */
FRAY_API int fray_area_blast_placements(const fray_grid *g,
                                        fray_footprint origin, int n,
                                        fray_pos *out, int max);

/* Why a list of spaces is not a wall (fray_area_wall_check). */
#define FRAY_WALL_FAULT_LIST(X)                                               \
    X(FRAY_WALL_OK, "a wall")                                                 \
    X(FRAY_WALL_LENGTH, "the wall does not have the length asked")            \
    X(FRAY_WALL_OFF_MAP, "a space of the wall is off the map")                \
    X(FRAY_WALL_REPEATED, "a space is in the wall twice")                     \
    X(FRAY_WALL_DETACHED, "a space shares no side with another wall space")   \
    X(FRAY_WALL_BRANCHED, "a space has more than two wall spaces beside it")  \
    X(FRAY_WALL_SPLIT, "the wall is in separate pieces")

typedef enum fray_wall_fault {
#define FRAY__WALL_FAULT_ENUM(name, text) name,
    FRAY_WALL_FAULT_LIST(FRAY__WALL_FAULT_ENUM)
#undef FRAY__WALL_FAULT_ENUM
} fray_wall_fault;

/* A static English sentence for a wall fault; "?" for an unknown value. */
FRAY_API const char *fray_wall_fault_name(fray_wall_fault f);

/*
 * Checks n_spaces spaces (borrowed) as a wall of `length` spaces (seed 004
 * "Wall Areas": "a specified length of contiguous spaces ... Each space
 * must be fully adjacent to at least one other space (for battle mats,
 * squares have to share a side, not just a corner). Generally, wall spaces
 * only have two adjacent spaces occupied by the same wall"). The faults, in
 * the order they are looked for:
 *   LENGTH    n_spaces != length, or length < 1;
 *   OFF_MAP   a space is not on the map;
 *   REPEATED  a space is listed twice;
 *   DETACHED  (length >= 2) a space shares a side with no other;
 *   BRANCHED  a space shares a side with three or four others;
 *   SPLIT     the spaces, joined by shared sides, are not one piece.
 * The first fault found is returned and, when out_index is not NULL, the
 * index in `spaces` of the space at fault (-1 for LENGTH and SPLIT).
 * When out is not NULL it receives the spaces (whatever the answer). The
 * order of the list does not matter; a closed ring (each space with two
 * neighbours) is a wall. Range from the user to the origin is the
 * ruleset's to check.
 */
FRAY_API fray_wall_fault fray_area_wall_check(const fray_grid *g,
                                              const fray_pos *spaces,
                                              int n_spaces, int length,
                                              int *out_index, fray_area *out);

/*
 * A line N (seed 000 "Line X": "a sequence of spaces adjacent either
 * orthogonally or diagonally") into *out: the n spaces a Bresenham walk
 * takes from `origin` in the direction of `toward` (one space per step
 * along the longer axis; on the shorter axis the nearest space to the
 * exact centre line, a tie going towards the origin's row or column), the
 * walk going on past `toward` as far as needed. The origin is the first of
 * the n spaces when include_origin (seed 000: "The target square is at one
 * end of the line"), otherwise the line starts beside it. Spaces off the
 * map end the line. Returns the number of spaces in *out (n or fewer); 0
 * when n < 1, or toward == origin and not include_origin.
 */
FRAY_API int fray_area_line(const fray_grid *g, fray_pos origin,
                            fray_pos toward, int n, bool include_origin,
                            fray_area *out);

/*
 * A cone N (seed 000 "Cone X": "A cone shoots out from a point to a
 * distance of X. Because of alignment to a square grid, cones are often
 * more difficult to determine"; the seed gives no shape, so this is fray's
 * reading, with no option): every space s of the map other than origin
 * with distance(origin, s) <= n (by metric) whose direction from the
 * origin's centre is within 45 degrees of the aim, the direction from
 * origin's centre to toward's centre (boundary included: a quarter-turn
 * wedge). Tested exactly in integers (v.a >= 0 and 2 (v.a)^2 >= |v|^2
 * |a|^2). Aimed straight along a row, a counted Cone 3 holds 11 spaces
 * (3, 5, 3 by column); aimed along a diagonal, the quarter of the burst
 * between the row and the column (12 spaces for a counted Cone 3). *out is
 * empty when toward == origin or n < 1.
 */
FRAY_API void fray_area_cone(const fray_grid *g, fray_pos origin,
                             fray_pos toward, int n, fray_area_metric metric,
                             fray_area *out);

/*
 * Keeps only the spaces of *io_area that an effect from `origin` reaches:
 * a space s stays when fray_grid_effect holds from some space of origin
 * to s (seed 004: "A blast affects a target only if the target is in the
 * blast's area and if there is line of effect from the origin to the
 * target"; likewise a burst). For a blast or a close burst the origin is
 * the user's footprint; for an area burst, the origin space as a 1x1
 * footprint. Spaces off the map are removed. The terrain of the space
 * itself is not judged (a WALL space the line reaches stays).
 */
FRAY_API void fray_area_keep_effect(const fray_grid *g, fray_footprint origin,
                                    fray_area *io_area);
/* Whether an effect over `area` from `origin` affects a creature: some space
 * of target is in the area and has line of effect from some space of
 * origin (the whole footprint counts, so a Large target half behind a wall
 * is still affected). */
FRAY_API bool fray_area_affects(const fray_grid *g, const fray_area *area,
                                fray_footprint origin, fray_footprint target);

/* ---- Flanking ----------------------------------------------------------------- */

/*
 * Whether a and b flank `enemy` (seed 004 "Flanking": "you and an ally must
 * be adjacent to the enemy and on opposite sides or corners of the enemy's
 * space ... trace an imaginary line between the centers of the characters'
 * squares. If the line passes through opposite sides or corners of the
 * enemy's space, the enemy is flanked"; "If there's no line of effect
 * between your enemy and either you or your ally, you don't flank"; "Big
 * Opponents: ... all the area it takes up counts"). True when
 *   - a and b are each adjacent to enemy (fray_grid_adjacent), and
 *   - each has line of effect to enemy (fray_grid_effect_fp), and
 *   - for some space of a and some space of b, each adjacent to the enemy's
 *     footprint, the segment between their centres passes through the
 *     inside of the enemy's whole footprint (the n x n square), entering
 *     and leaving through opposite sides: it enters through a side or a
 *     corner and leaves through the side opposite one it entered by (a
 *     corner is on two sides). Touching a corner only is not passing
 *     through.
 * Around a Medium enemy exactly the four opposite pairs of neighbours
 * (west-east, north-south and the two diagonals) flank; at right angles
 * they do not. Worked in half spaces with integers. Whether either can
 * take opportunity actions, and who is an ally, are the ruleset's.
 * Overlapping footprints never flank.
 */
FRAY_API bool fray_grid_flanks(const fray_grid *g, fray_footprint enemy,
                               fray_footprint a, fray_footprint b);

/* ---- Movement ------------------------------------------------------------------ */

/* What stands in a space, as the mover sees it. */
typedef enum fray_occupant {
    FRAY_OCC_EMPTY,    /* nobody */
    FRAY_OCC_ALLY,     /* allied creature(s): may pass through, not stop */
    FRAY_OCC_PASSABLE, /* incapacitated or unconscious non-ally: may pass
                          through (seed "Moving Through Spaces"), ignored for
                          cutting corners; may not stop */
    FRAY_OCC_ENEMY,    /* non-ally: may not enter (Acrobatics is not modelled
                          here); blocks corner cutting */
    FRAY_OCC_SELF,     /* the mover itself */
    FRAY_OCC_TUMBLE    /* a non-ally the mover tumbles past (99 Towers, seed
                          000 "Moving Through Spaces": Acrobatics): may pass
                          through, may not stop; blocks corner cutting as
                          ENEMY does */
} fray_occupant;

/* Tells what is in space p (always on the map). ctx is the caller's.
 * fray_grid_reach asks at most once per space and call, only about spaces
 * within max_cost of the start. Must not modify the grid or the reach map
 * being filled. */
typedef fray_occupant (*fray_occupant_fn)(void *ctx, fray_pos p);

/*
 * The result of fray_grid_reach. Only entries with x < w and y < h are
 * written; for those, cost is -1 when the footprint cannot stand (or pass)
 * with its top-left there within max_cost, and parity, prev_x/prev_y and
 * can_stop are meaningful only where cost >= 0 (can_stop is false wherever
 * cost is -1).
 */
typedef struct fray_reach_map {
    fray_footprint from;
    int16_t w, h;                                 /* the grid's size */
    int16_t cost[FRAY_GRID_MAX][FRAY_GRID_MAX];   /* cheapest cost to stand
                                                     with top-left here, -1
                                                     unreachable */
    uint8_t parity[FRAY_GRID_MAX][FRAY_GRID_MAX]; /* diagonal parity on
                                                     arrival along the
                                                     cheapest path (1: the
                                                     next diagonal costs 2) */
    int16_t prev_x[FRAY_GRID_MAX][FRAY_GRID_MAX]; /* previous top-left on the */
    int16_t prev_y[FRAY_GRID_MAX][FRAY_GRID_MAX]; /* cheapest path; -1 at from */
    bool can_stop[FRAY_GRID_MAX][FRAY_GRID_MAX];  /* the move may end here */
} fray_reach_map;

/*
 * Every place a footprint can move to for at most max_cost (seed "Counting
 * Spaces", "Moving Through Spaces", "Cutting Corners", "Terrain Types"),
 * written into *out (owned by the caller; about 33 KB). A negative max_cost
 * counts as 0. A step moves the footprint's top-left to one of the 8
 * neighbouring positions; it costs
 *   - 1 orthogonally; diagonally 1 or 2 alternately along the whole move
 *     (start_parity 1 means the first diagonal costs 2: a Shift Position
 *     combined with a move counts as one move, seed "Shift Position");
 *   - +1 when any space of the footprint after the step is DIFFICULT (every
 *     space of the creature moves, so a Large creature pays while any part
 *     of it moves into difficult ground; once per step, never more);
 *   - +1 when any space of the creature crosses a LOW edge (once per step).
 *     A diagonal move of one space crosses an edge only when both L-shaped
 *     routes around its corner do (the cheaper unblocked route is taken).
 * A step is forbidden when
 *   - the footprint would leave the map, cover a WALL, WINDOW or PIT space
 *     or a space whose occupant is ENEMY, or straddle a WALL edge;
 *   - a space of the creature crosses a WALL edge orthogonally;
 *   - a space of the creature moves diagonally between two blocked L-routes
 *     (seed "Cutting Corners"): a route via the orthogonal neighbour m is
 *     blocked when m is WALL/WINDOW/PIT or ENEMY (ALLY and PASSABLE do not
 *     block) or when either side it crosses is a WALL edge. Two diagonal
 *     walls, a wall and a non-ally, two non-allies, or a straight wall of
 *     edges all stop the diagonal.
 * Passing through ALLY, PASSABLE and TUMBLE spaces is allowed (a TUMBLE
 * space blocks a corner as an ENEMY one does); can_stop is true
 * where no space of the footprint is ALLY, PASSABLE or ENEMY (SELF is fine).
 * occ may be NULL (every space EMPTY). Spaces further than max_cost are not
 * explored (cost -1). The start footprint has cost 0 and parity
 * start_parity (0 or 1; any nonzero value counts as 1). When `from` does not
 * fit on the map, every cost is -1.
 * Bad terrain values count as OPEN. Cost: a bucket queue over the spaces
 * within max_cost only, plus clearing w x h entries; about 30 KB of stack.
 */
FRAY_API void fray_grid_reach(const fray_grid *g, fray_footprint from,
                              int start_parity, int max_cost,
                              fray_occupant_fn occ, void *ctx,
                              fray_reach_map *out);
/* fray_grid_reach by a metric: FRAY_AREA_COUNTED is fray_grid_reach;
 * FRAY_AREA_SQUARE makes every diagonal step cost 1 (start_parity is
 * then ignored and every parity is 0). */
FRAY_API void fray_grid_reach_m(const fray_grid *g, fray_footprint from,
                                int start_parity, int max_cost,
                                fray_occupant_fn occ, void *ctx,
                                fray_area_metric metric, fray_reach_map *out);
/*
 * The cheapest path to `to` in a reach map: the top-left positions from the
 * first step to `to` inclusive. Writes at most max positions (the first
 * ones) and returns how many it wrote: 0 when `to` is unreachable, off the
 * map or the start itself.
 */
FRAY_API int fray_grid_path(const fray_reach_map *m, fray_pos to,
                            fray_pos *out, int max);

/* ---- ASCII art ------------------------------------------------------------------- */

/* One symbol of a map's legend. */
typedef struct fray_grid_legend_entry {
    char symbol;          /* the character */
    bool is_placement;    /* true: a creature starts here (open floor) */
    int placement_id;     /* the caller's id for that creature */
    fray_terrain terrain; /* when not a placement */
    int8_t elevation;     /* when not a placement: elevation of that space */
} fray_grid_legend_entry;

typedef struct fray_grid_placement {
    int placement_id;
    fray_pos at;
} fray_grid_placement;

/*
 * Reads a map drawn as text into *g. Each line is a row, each character a
 * space; lines may be ragged (missing spaces at the end are open floor): w is
 * the longest line, h the number of lines (a final newline adds no row; a
 * "\r" before a newline is ignored). The legend (borrowed, n_legend entries,
 * may be NULL when n_legend is 0) is searched first; then the built-in
 * symbols: '.' and ' ' open, '#' wall, '~' difficult, '=' window, 'v' pit,
 * '1'..'9' open floor at that elevation (the symbols fray_grid_draw
 * writes). Placement symbols may appear once or several times: every space
 * is reported, in reading order, into out_placements (at most
 * max_placements; may be NULL when that is 0); *out_n_placements (may be
 * NULL) is the number reported.
 * Errors (diag may be NULL; its line and column are 1-based, relative to the
 * art's first line, and its file is left alone):
 *   FRAY_ERR_PARSE  an unknown symbol ("unknown map symbol 'Q' (not in the
 *                   legend)"), or an empty map;
 *   FRAY_ERR_RANGE  more than FRAY_GRID_MAX columns or rows ("the map is 70
 *                   spaces wide; at most 64"), or more placement spaces than
 *                   max_placements;
 *   FRAY_ERR_INVALID art or g NULL.
 * On error *g and the placements are unspecified.
 */
FRAY_API FRAY_MUST_CHECK fray_status fray_grid_parse(const char *art,
                                     const fray_grid_legend_entry *legend,
                                     int n_legend, fray_grid *g,
                                     fray_grid_placement *out_placements,
                                     int max_placements, int *out_n_placements,
                                     fray_diag *diag);
/* Sets the edge between two orthogonally adjacent spaces on the map.
 * FRAY_ERR_INVALID when they are not, or e is not a fray_edge. */
FRAY_API FRAY_MUST_CHECK fray_status fray_grid_set_edge(fray_grid *g, fray_pos a, fray_pos b,
                                        fray_edge e);
/* The edge between two spaces; NONE if they are not orthogonally adjacent
 * spaces of the map. */
FRAY_API fray_edge fray_grid_edge(const fray_grid *g, fray_pos a, fray_pos b);

/* A creature drawn on the map: every space of its footprint shows symbol. */
typedef struct fray_grid_token {
    fray_footprint fp;
    char symbol;
} fray_grid_token;

/*
 * Draws the map as text into buf (size bytes, NUL-terminated when size > 0;
 * buf may be NULL when size is 0) and returns the length the whole drawing
 * needs, not counting the NUL (like snprintf). Layout: a header row with the
 * units digit of every column number (preceded, when w > 10, by a row with
 * the tens digit of columns >= 10 and blanks before them); then one line per
 * row: the row number right-aligned to the width of h - 1, a blank, and one
 * character per space: '.' open ('1'..'9' when open and raised; 9 and above
 * show '9'), '#' wall, '~' difficult, '=' window, 'v' pit. Tokens (n_tokens
 * of them, borrowed) are drawn over the terrain in order, on every space of
 * their footprint that is on the map. Every line ends with '\n'.
 * Edges are not drawn.
 */
FRAY_API size_t fray_grid_draw(const fray_grid *g, const fray_grid_token *tokens,
                               int n_tokens, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
