/*
 * view.c - a fight's state as data, the part every ruleset shares
 * (include/fray/view.h; docs/architecture.md "A fight as data"): the
 * view's memory, what the layer knows of any fight, who sees what (the
 * filter), and the JSON (docs/journal.md "A fight as JSON"). The
 * rulesets fill the rest through their `view` hook (ruleset.h):
 * src/rules/towers/view.c, src/rules/alloy/view.c.
 */
#include "view_build.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "layer.h"

/* ---- Memory: blocks owned by the view ------------------------------------ */

typedef struct view_block {
    struct view_block *next;
    size_t size;    /* of the whole block, this header included */
    size_t used;
} view_block;

struct fray_view_internal {
    fray_allocator alloc;
    bool has_alloc;
    view_block *blocks;
};

enum { VIEW_BLOCK = 8192, VIEW_ALIGN = 16 };

void *fray__view_alloc(fray_fight_view *v, size_t size) {
    fray_view_internal *in = v->internal_;
    size = (size + VIEW_ALIGN - 1) & ~(size_t)(VIEW_ALIGN - 1);
    if (size == 0)
        size = VIEW_ALIGN;
    const size_t head = (sizeof(view_block) + VIEW_ALIGN - 1) &
                        ~(size_t)(VIEW_ALIGN - 1);
    view_block *b = in->blocks;
    if (!b || b->size - b->used < size) {
        size_t want = head + size > VIEW_BLOCK ? head + size : VIEW_BLOCK;
        b = fray__alloc(in->has_alloc ? &in->alloc : NULL, want);
        if (!b)
            return NULL;
        b->next = in->blocks;
        b->size = want;
        b->used = head;
        in->blocks = b;
    }
    void *p = (char *)b + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

const char *fray__view_str(fray_fight_view *v, const char *s) {
    if (!s)
        s = "";
    size_t n = strlen(s);
    char *p = fray__view_alloc(v, n + 1);
    if (p)
        memcpy(p, s, n + 1);
    return p;
}

const char *fray__view_strf(fray_fight_view *v, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return fray__view_str(v, buf);
}

const char *fray__view_word(fray_fight_view *v, const char *name) {
    char *p = (char *)fray__view_str(v, name);
    for (char *q = p; q && *q; q++)
        if (*q == ' ')
            *q = '-';
    return p;
}

fray_view_option *fray__view_option(fray_fight_view *v, fray_view_action *a,
                                    int cap, const char *word,
                                    const char *name, const int *targets,
                                    int n_targets) {
    if (!a->options) {
        a->options = fray__view_alloc(v, (size_t)(cap > 0 ? cap : 1) *
                                             sizeof *a->options);
        if (!a->options)
            return NULL;
        a->n_options = 0;
    }
    if (a->n_options >= cap)
        return NULL;
    fray_view_option *op = (fray_view_option *)&a->options[a->n_options];
    op->word = word ? word : fray__view_word(v, name);
    op->title = fray__view_str(v, name);
    if (!op->word || !op->title)
        return NULL;
    op->needs_target = n_targets > 0;
    op->targets = targets;
    op->n_targets = n_targets;
    a->n_options++;
    return op;
}

const char *fray__view_descriptor(int value, int max) {
    if (value <= 0)
        return "out";
    if (max <= 0 || value >= max)
        return "unhurt";
    if (2 * value <= max)
        return "badly hurt";
    return "hurt";
}

/* A space a creature could stand in (not a wall, a window or a pit). */
static bool standable(const fray_grid *g, int x, int y) {
    unsigned t = g->terrain[y][x];
    return t == FRAY_TERRAIN_OPEN || t == FRAY_TERRAIN_DIFFICULT;
}

fray_status fray__view_reach(fray_fight_view *v, const fray_grid *map,
                             fray_footprint fc, int reach,
                             fray__reaches_fn reaches, const void *ctx,
                             fray_view_combatant *o) {
    o->n_reach = 0;
    o->reach = NULL;
    if (reach <= 0)
        return FRAY_OK;
    int side = fc.side < 1 ? 1 : fc.side;
    int x0 = fc.at.x - reach, x1 = fc.at.x + side - 1 + reach;
    int y0 = fc.at.y - reach, y1 = fc.at.y + side - 1 + reach;
    if (x0 < 0)
        x0 = 0;
    if (y0 < 0)
        y0 = 0;
    if (x1 >= map->w)
        x1 = map->w - 1;
    if (y1 >= map->h)
        y1 = map->h - 1;
    if (x1 < x0 || y1 < y0)
        return FRAY_OK;
    size_t cap = (size_t)(x1 - x0 + 1) * (size_t)(y1 - y0 + 1);
    fray_view_seen *sp = fray__view_alloc(v, cap * sizeof *sp);
    if (!sp)
        return FRAY_ERR_NOMEM;
    int n = 0;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            if (x >= fc.at.x && x < fc.at.x + side && y >= fc.at.y &&
                y < fc.at.y + side)
                continue; /* its own spaces */
            if (!standable(map, x, y))
                continue;
            fray_footprint p = {{(int16_t)x, (int16_t)y}, 1};
            if (reaches(ctx, fc, p))
                sp[n++] = (fray_view_seen){x, y};
        }
    o->n_reach = n;
    o->reach = sp;
    return FRAY_OK;
}

static fray_status view_make(const fray_allocator *alloc,
                             fray_fight_view **out) {
    fray_view_internal *in = fray__alloc(alloc, sizeof *in);
    if (!in)
        return FRAY_ERR_NOMEM;
    memset(in, 0, sizeof *in);
    if (alloc) {
        in->alloc = *alloc;
        in->has_alloc = true;
    }
    fray_fight_view tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.internal_ = in;
    fray_fight_view *v = fray__view_alloc(&tmp, sizeof *v);
    if (!v) {
        fray__free(alloc, in, sizeof *in);
        return FRAY_ERR_NOMEM;
    }
    v->internal_ = in;
    v->turn = -1;
    v->winner = -1;
    v->turn_words = "";
    *out = v;
    return FRAY_OK;
}

FRAY_API void fray_fight_view_free(fray_fight_view *view) {
    if (!view)
        return;
    fray_view_internal *in = view->internal_;
    const fray_allocator *a = in->has_alloc ? &in->alloc : NULL;
    view_block *b = in->blocks;
    while (b) { /* the view itself lies in one of them */
        view_block *next = b->next;
        fray__free(a, b, b->size);
        b = next;
    }
    fray__free(a, in, sizeof *in);
}

FRAY_API const char *fray_view_ends_word(fray_view_ends ends) {
    static const char *const words[] = {
        "until-removed", "start-of-turn", "end-of-turn", "until-saved",
        "while-sustained", "end-of-round", "when-used"};
    return (unsigned)ends < sizeof words / sizeof words[0] ? words[ends] : "?";
}

/* ---- The map from a grid (both rulesets' maps are fray_grids) -------------- */

fray_status fray__view_map_grid(fray_fight_view *v, const fray_grid *g) {
    static const char codes[FRAY_TERRAIN_COUNT] = {'.', '#', '~', '=', 'v'};
    int w = g->w < FRAY_GRID_MAX ? g->w : FRAY_GRID_MAX;
    int h = g->h < FRAY_GRID_MAX ? g->h : FRAY_GRID_MAX;
    if (w < 0 || h < 0)
        return FRAY_ERR_INVALID;
    char *cells = fray__view_alloc(v, (size_t)w * (size_t)h + 1);
    fray_view_legend *legend =
        fray__view_alloc(v, (FRAY_TERRAIN_COUNT + 1) * sizeof *legend);
    if (!cells || !legend)
        return FRAY_ERR_NOMEM;
    bool seen[FRAY_TERRAIN_COUNT] = {false};
    bool raised = false;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int t = g->terrain[y][x];
            int e = g->elevation[y][x];
            char c = '?';
            if (t == FRAY_TERRAIN_OPEN && e > 0) {
                c = (char)('0' + (e > 9 ? 9 : e));
                raised = true;
            } else if (t >= 0 && t < FRAY_TERRAIN_COUNT) {
                c = codes[t];
                seen[t] = true;
            }
            cells[y * w + x] = c;
        }
    int n = 0;
    for (int t = 0; t < FRAY_TERRAIN_COUNT; t++)
        if (seen[t])
            legend[n++] = (fray_view_legend){codes[t],
                                             fray_terrain_name((fray_terrain)t)};
    if (raised)
        legend[n++] = (fray_view_legend){'1', "high ground (levels 1-9)"};
    v->map.present = true;
    v->map.width = w;
    v->map.height = h;
    v->map.cells = cells;
    v->map.n_legend = n;
    v->map.legend = legend;
    return FRAY_OK;
}

fray_status fray__view_map_area(fray_fight_view *v, const char *name,
                                const fray_area *area) {
    int n = 0;
    for (int y = 0; y < v->map.height; y++)
        for (int x = 0; x < v->map.width; x++)
            n += fray_area_has(area, (fray_pos){(int16_t)x, (int16_t)y});
    if (n == 0)
        return FRAY_OK;
    fray_view_seen *sp = fray__view_alloc(v, (size_t)n * sizeof *sp);
    fray_view_area *as =
        fray__view_alloc(v, (size_t)(v->map.n_areas + 1) * sizeof *as);
    if (!sp || !as)
        return FRAY_ERR_NOMEM;
    int k = 0;
    for (int y = 0; y < v->map.height; y++)
        for (int x = 0; x < v->map.width; x++)
            if (fray_area_has(area, (fray_pos){(int16_t)x, (int16_t)y}))
                sp[k++] = (fray_view_seen){x, y};
    for (int j = 0; j < v->map.n_areas; j++)
        as[j] = v->map.areas[j];
    as[v->map.n_areas] = (fray_view_area){name, n, sp};
    v->map.areas = as;
    v->map.n_areas++;
    return FRAY_OK;
}

/* ---- Making a view of a fight ------------------------------------------------ */

FRAY_API fray_status fray_fight_view_new(const fray_fight *fight,
                                         const fray_allocator *alloc,
                                         fray_fight_view **out) {
    if (!out)
        return FRAY_ERR_INVALID;
    *out = NULL;
    if (!fight)
        return FRAY_ERR_INVALID;
    const fray_setup *su = fray_fight_setup(fight);
    const fray__ruleset *rs = su->rs;
    if (!rs->view)
        return FRAY_ERR_INVALID;
    fray_fight_view *v = NULL;
    fray_status rc = view_make(alloc, &v);
    if (rc != FRAY_OK)
        return rc;
    v->rules = rs->name;
    v->title = rs->title;
    v->time_unit = rs->time_unit;
    v->now = fray_fight_now(fight);
    v->over = fray_fight_over(fight);
    v->winner = fray_fight_winner(fight);
    char when[128] = "";
    if (fray_fight_turn(fight, when, sizeof when))
        v->turn_words = fray__view_str(v, when);
    int ns = fray_setup_sides(su), nc = fray_setup_combatants(su);
    const char **sides = fray__view_alloc(v, (size_t)(ns > 0 ? ns : 1) * sizeof *sides);
    fray_view_combatant *cs =
        fray__view_alloc(v, (size_t)(nc > 0 ? nc : 1) * sizeof *cs);
    if (!sides || !cs || !v->turn_words) {
        fray_fight_view_free(v);
        return FRAY_ERR_NOMEM;
    }
    for (int k = 0; k < ns; k++)
        if (!(sides[k] = fray__view_str(v, fray_setup_side_name(su, k)))) {
            fray_fight_view_free(v);
            return FRAY_ERR_NOMEM;
        }
    for (int i = 0; i < nc; i++) {
        cs[i].index = i;
        cs[i].id = fray__view_str(v, fray_setup_combatant_id(su, i));
        cs[i].name = fray__view_str(v, fray_setup_combatant_name(su, i));
        cs[i].side = fray_setup_combatant_side(su, i);
        cs[i].status = "standing";
        cs[i].time_words = "";
        cs[i].hand = -1;
        if (!cs[i].id || !cs[i].name) {
            fray_fight_view_free(v);
            return FRAY_ERR_NOMEM;
        }
    }
    v->n_sides = ns;
    v->sides = sides;
    v->n_combatants = nc;
    v->combatants = cs;
    rc = rs->view(fray__fight_rf(fight), v);
    if (rc != FRAY_OK) {
        fray_fight_view_free(v);
        return rc;
    }
    *out = v;
    return FRAY_OK;
}

/* ---- Who sees what ---------------------------------------------------------------- */

FRAY_API fray_view_scope fray_view_scope_gm(void) {
    fray_view_scope s = {true, 0, NULL, true, true};
    return s;
}

FRAY_API fray_view_scope fray_view_scope_player(const int *controls,
                                                int n_controls) {
    fray_view_scope s = {false, n_controls, controls, true, false};
    return s;
}

static bool controls(const fray_view_scope *sc, int index) {
    for (int k = 0; k < sc->n_controls; k++)
        if (sc->controls && sc->controls[k] == index)
            return true;
    return false;
}

static bool is_gm(const fray_view_scope *sc) { return !sc || sc->gm; }

FRAY_API bool fray_view_sees_combatant(const fray_fight_view *view,
                                       const fray_view_scope *scope, int k) {
    if (!view || k < 0 || k >= view->n_combatants)
        return false;
    if (is_gm(scope))
        return true;
    const fray_view_combatant *c = &view->combatants[k];
    if (controls(scope, c->index))
        return true;
    if (c->gm_only)
        return false;
    return !c->unnoticed || scope->show_unnoticed;
}

FRAY_API bool fray_view_sees_hand(const fray_fight_view *view,
                                  const fray_view_scope *scope, int h) {
    if (!view || h < 0 || h >= view->n_hands)
        return false;
    if (is_gm(scope))
        return true;
    const fray_view_hand *hd = &view->hands[h];
    for (int u = 0; u < hd->n_users; u++)
        if (controls(scope, hd->users[u]))
            return true;
    return false;
}

/* The position in view->combatants of fight index `index`, -1 none. */
static int pos_of(const fray_fight_view *v, int index) {
    for (int k = 0; k < v->n_combatants; k++)
        if (v->combatants[k].index == index)
            return k;
    return -1;
}

/* A reference to a combatant as the scope may see it: -1 when hidden. */
static int ref(const fray_fight_view *v, const fray_view_scope *sc, int index) {
    if (index < 0 || is_gm(sc))
        return index;
    return fray_view_sees_combatant(v, sc, pos_of(v, index)) ? index : -1;
}

/* The sides the scope's combatants are on (bit per side). */
static uint32_t own_sides(const fray_fight_view *v, const fray_view_scope *sc) {
    uint32_t m = 0;
    for (int k = 0; k < v->n_combatants; k++)
        if (controls(sc, v->combatants[k].index) && v->combatants[k].side >= 0 &&
            v->combatants[k].side < 32)
            m |= 1u << v->combatants[k].side;
    return m;
}

/* The scope sees combatant k's exact numbers (health, resources). */
static bool sees_numbers(const fray_fight_view *v, const fray_view_scope *sc,
                         int k) {
    if (is_gm(sc) || sc->enemy_numbers)
        return true;
    const fray_view_combatant *c = &v->combatants[k];
    return controls(sc, c->index) ||
           (c->side >= 0 && c->side < 32 && ((own_sides(v, sc) >> c->side) & 1));
}

/* The scope sees the actions of combatant k: the GM all, a player only
 * those of its own combatants. */
static bool sees_actions(const fray_fight_view *v, const fray_view_scope *sc,
                         int k) {
    return is_gm(sc) || controls(sc, v->combatants[k].index);
}

/* Where the scope sees combatant k on the map: where it is (the GM, its
 * own side, or nobody loses track of it), else where the first of the
 * player's sides last saw it (Alloy's total concealment). */
static void place_for(const fray_fight_view *v, const fray_view_scope *sc,
                      int k, int *x, int *y) {
    const fray_view_combatant *c = &v->combatants[k];
    *x = c->x;
    *y = c->y;
    if (is_gm(sc) || c->n_seen == 0 || controls(sc, c->index))
        return;
    uint32_t own = own_sides(v, sc);
    if (c->side >= 0 && c->side < 32 && ((own >> c->side) & 1))
        return;
    for (int s = 0; s < c->n_seen && s < 32; s++)
        if ((own >> s) & 1) {
            *x = c->seen[s].x;
            *y = c->seen[s].y;
            return;
        }
}

/* Whether the scope sees combatant k's reach: only where it sees the
 * combatant where it is (the reach would tell the place). */
static bool sees_reach(const fray_fight_view *v, const fray_view_scope *sc,
                       int k) {
    const fray_view_combatant *c = &v->combatants[k];
    if (!c->on_map)
        return false;
    int x, y;
    place_for(v, sc, k, &x, &y);
    return x == c->x && y == c->y;
}

/* Hand h's number among those the scope sees; -1 when hidden. */
static int hand_ref(const fray_fight_view *v, const fray_view_scope *sc, int h) {
    if (h < 0 || !fray_view_sees_hand(v, sc, h))
        return -1;
    int n = 0;
    for (int j = 0; j < h; j++)
        n += fray_view_sees_hand(v, sc, j);
    return n;
}

/* A mark the scope sees: its maker and its target seen. */
static bool sees_mark(const fray_fight_view *v, const fray_view_scope *sc,
                      const fray_view_mark *m) {
    if (is_gm(sc))
        return true;
    return ref(v, sc, m->by) >= 0 && (m->target < 0 || ref(v, sc, m->target) >= 0);
}

/* ---- The filter: a new view with what the scope sees ----------------------------- */

#define DUP(dst, src)                                                          \
    do {                                                                       \
        if (!((dst) = fray__view_str(o, (src))))                               \
            return FRAY_ERR_NOMEM;                                             \
    } while (0)

/* The targets the scope sees (of n at src), copied into o. */
static fray_status copy_targets(fray_fight_view *o, const fray_fight_view *v,
                                const fray_view_scope *sc, const int *src,
                                int n, const int **out, int *n_out) {
    int *tg = fray__view_alloc(o, (size_t)(n + 1) * sizeof *tg);
    if (!tg)
        return FRAY_ERR_NOMEM;
    int m = 0;
    for (int t = 0; t < n; t++)
        if (ref(v, sc, src[t]) >= 0)
            tg[m++] = src[t];
    *out = tg;
    *n_out = m;
    return FRAY_OK;
}

static fray_status copy_combatant(fray_fight_view *o, const fray_fight_view *v,
                                  const fray_view_scope *sc, int k,
                                  fray_view_combatant *d) {
    const fray_view_combatant *c = &v->combatants[k];
    *d = *c;
    DUP(d->id, c->id);
    DUP(d->name, c->name);
    DUP(d->status, c->status);
    DUP(d->time_words, c->time_words);
    bool numbers = sees_numbers(v, sc, k);
    for (int t = 0; t < c->n_tracks && t < FRAY_VIEW_MAX_TRACKS; t++) {
        DUP(d->tracks[t].name, c->tracks[t].name);
        DUP(d->tracks[t].descriptor, c->tracks[t].descriptor);
        if (!numbers) {
            d->tracks[t].exact = false;
            d->tracks[t].value = d->tracks[t].max = d->tracks[t].temporary = -1;
        }
    }
    fray_view_condition *cond =
        fray__view_alloc(o, (size_t)(c->n_conditions + 1) * sizeof *cond);
    if (!cond)
        return FRAY_ERR_NOMEM;
    for (int j = 0; j < c->n_conditions; j++) {
        cond[j] = c->conditions[j];
        DUP(cond[j].name, c->conditions[j].name);
        DUP(cond[j].until, c->conditions[j].until);
        cond[j].whose = ref(v, sc, cond[j].whose);
        cond[j].source = ref(v, sc, cond[j].source);
    }
    d->conditions = cond;
    d->n_resources = numbers ? c->n_resources : 0;
    fray_view_resource *res =
        fray__view_alloc(o, (size_t)(d->n_resources + 1) * sizeof *res);
    if (!res)
        return FRAY_ERR_NOMEM;
    for (int j = 0; j < d->n_resources; j++) {
        res[j].value = c->resources[j].value;
        DUP(res[j].name, c->resources[j].name);
    }
    d->resources = res;
    const char **wp = fray__view_alloc(o, (size_t)(c->n_weapons + 1) * sizeof *wp);
    if (!wp)
        return FRAY_ERR_NOMEM;
    for (int j = 0; j < c->n_weapons; j++)
        DUP(wp[j], c->weapons[j]);
    d->weapons = wp;
    d->hand = hand_ref(v, sc, c->hand);
    place_for(v, sc, k, &d->x, &d->y);
    if (is_gm(sc)) {
        fray_view_seen *seen =
            fray__view_alloc(o, (size_t)(c->n_seen + 1) * sizeof *seen);
        if (!seen)
            return FRAY_ERR_NOMEM;
        for (int j = 0; j < c->n_seen; j++)
            seen[j] = c->seen[j];
        d->seen = seen;
    } else {
        d->n_seen = 0;
        d->seen = NULL;
    }
    d->n_actions = sees_actions(v, sc, k) ? c->n_actions : 0;
    fray_view_action *acts =
        fray__view_alloc(o, (size_t)(d->n_actions + 1) * sizeof *acts);
    if (!acts)
        return FRAY_ERR_NOMEM;
    for (int j = 0; j < d->n_actions; j++) {
        const fray_view_action *a = &c->actions[j];
        acts[j] = *a;
        DUP(acts[j].word, a->word);
        DUP(acts[j].title, a->title);
        fray_status rc = copy_targets(o, v, sc, a->targets, a->n_targets,
                                      &acts[j].targets, &acts[j].n_targets);
        if (rc != FRAY_OK)
            return rc;
        fray_view_option *op =
            fray__view_alloc(o, (size_t)(a->n_options + 1) * sizeof *op);
        if (!op)
            return FRAY_ERR_NOMEM;
        for (int q = 0; q < a->n_options; q++) {
            const fray_view_option *so = &a->options[q];
            op[q] = *so;
            DUP(op[q].word, so->word);
            DUP(op[q].title, so->title);
            rc = copy_targets(o, v, sc, so->targets, so->n_targets,
                              &op[q].targets, &op[q].n_targets);
            if (rc != FRAY_OK)
                return rc;
        }
        acts[j].options = op;
    }
    d->actions = acts;
    d->n_reach = sees_reach(v, sc, k) ? c->n_reach : 0;
    fray_view_seen *reach =
        fray__view_alloc(o, (size_t)(d->n_reach + 1) * sizeof *reach);
    if (!reach)
        return FRAY_ERR_NOMEM;
    for (int j = 0; j < d->n_reach; j++)
        reach[j] = c->reach[j];
    d->reach = reach;
    return FRAY_OK;
}

static fray_status filter_into(fray_fight_view *o, const fray_fight_view *v,
                               const fray_view_scope *sc) {
    DUP(o->rules, v->rules);
    DUP(o->title, v->title);
    DUP(o->time_unit, v->time_unit);
    DUP(o->turn_words, v->turn_words);
    o->now = v->now;
    o->over = v->over;
    o->winner = v->winner;
    o->turn = ref(v, sc, v->turn);
    if (o->turn < 0)
        o->turn_words = "";
    const char **sides = fray__view_alloc(o, (size_t)(v->n_sides + 1) * sizeof *sides);
    if (!sides)
        return FRAY_ERR_NOMEM;
    for (int k = 0; k < v->n_sides; k++)
        DUP(sides[k], v->sides[k]);
    o->n_sides = v->n_sides;
    o->sides = sides;
    fray_view_combatant *cs =
        fray__view_alloc(o, (size_t)(v->n_combatants + 1) * sizeof *cs);
    if (!cs)
        return FRAY_ERR_NOMEM;
    int n = 0;
    for (int k = 0; k < v->n_combatants; k++)
        if (fray_view_sees_combatant(v, sc, k)) {
            fray_status rc = copy_combatant(o, v, sc, k, &cs[n++]);
            if (rc != FRAY_OK)
                return rc;
        }
    o->n_combatants = n;
    o->combatants = cs;
    fray_view_hand *hs = fray__view_alloc(o, (size_t)(v->n_hands + 1) * sizeof *hs);
    if (!hs)
        return FRAY_ERR_NOMEM;
    int nh = 0;
    for (int h = 0; h < v->n_hands; h++) {
        if (!fray_view_sees_hand(v, sc, h))
            continue;
        const fray_view_hand *s = &v->hands[h];
        fray_view_hand *d = &hs[nh++];
        *d = *s;
        DUP(d->deck, s->deck);
        int *users = fray__view_alloc(o, (size_t)(s->n_users + 1) * sizeof *users);
        const char **cards =
            fray__view_alloc(o, (size_t)(s->n_cards + 1) * sizeof *cards);
        if (!users || !cards)
            return FRAY_ERR_NOMEM;
        int nu = 0;
        for (int u = 0; u < s->n_users; u++)
            if (ref(v, sc, s->users[u]) >= 0)
                users[nu++] = s->users[u];
        for (int j = 0; j < s->n_cards; j++)
            DUP(cards[j], s->cards[j]);
        d->users = users;
        d->n_users = nu;
        d->cards = cards;
    }
    o->n_hands = nh;
    o->hands = hs;
    o->map = v->map;
    if (v->map.present) {
        size_t cells = (size_t)v->map.width * (size_t)v->map.height;
        char *c = fray__view_alloc(o, cells + 1);
        fray_view_legend *lg =
            fray__view_alloc(o, (size_t)(v->map.n_legend + 1) * sizeof *lg);
        fray_view_mark *mk =
            fray__view_alloc(o, (size_t)(v->map.n_marks + 1) * sizeof *mk);
        if (!c || !lg || !mk)
            return FRAY_ERR_NOMEM;
        memcpy(c, v->map.cells, cells);
        for (int j = 0; j < v->map.n_legend; j++) {
            lg[j].code = v->map.legend[j].code;
            DUP(lg[j].name, v->map.legend[j].name);
        }
        int nm = 0;
        for (int j = 0; j < v->map.n_marks; j++)
            if (sees_mark(v, sc, &v->map.marks[j])) {
                mk[nm] = v->map.marks[j];
                DUP(mk[nm].kind, v->map.marks[j].kind);
                nm++;
            }
        fray_view_area *ar =
            fray__view_alloc(o, (size_t)(v->map.n_areas + 1) * sizeof *ar);
        if (!ar)
            return FRAY_ERR_NOMEM;
        for (int j = 0; j < v->map.n_areas; j++) {
            const fray_view_area *a = &v->map.areas[j];
            fray_view_seen *sp =
                fray__view_alloc(o, (size_t)(a->n_spaces + 1) * sizeof *sp);
            if (!sp)
                return FRAY_ERR_NOMEM;
            for (int q = 0; q < a->n_spaces; q++)
                sp[q] = a->spaces[q];
            DUP(ar[j].name, a->name);
            ar[j].n_spaces = a->n_spaces;
            ar[j].spaces = sp;
        }
        o->map.areas = ar;
        o->map.cells = c;
        o->map.legend = lg;
        o->map.marks = mk;
        o->map.n_marks = nm;
    }
    return FRAY_OK;
}
#undef DUP

FRAY_API fray_status fray_fight_view_filter(const fray_fight_view *view,
                                            const fray_view_scope *scope,
                                            const fray_allocator *alloc,
                                            fray_fight_view **out) {
    if (!out)
        return FRAY_ERR_INVALID;
    *out = NULL;
    if (!view || !scope)
        return FRAY_ERR_INVALID;
    fray_fight_view *o = NULL;
    fray_status rc = view_make(alloc, &o);
    if (rc != FRAY_OK)
        return rc;
    rc = filter_into(o, view, scope);
    if (rc != FRAY_OK) {
        fray_fight_view_free(o);
        return rc;
    }
    *out = o;
    return FRAY_OK;
}

/* ---- JSON (docs/journal.md "A fight as JSON") ------------------------------------ */

static void js_str(fray__text *t, const char *s) {
    fray__text_s(t, "\"");
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\') {
            char e[2] = {'\\', (char)*p};
            fray__text_put(t, e, 2);
        } else if (*p < 0x20) {
            fray__text_f(t, "\\u%04x", *p);
        } else {
            fray__text_put(t, (const char *)p, 1);
        }
    }
    fray__text_s(t, "\"");
}

static void js_key(fray__text *t, bool *first, const char *key) {
    if (!*first)
        fray__text_s(t, ",");
    *first = false;
    js_str(t, key);
    fray__text_s(t, ":");
}

static void js_kstr(fray__text *t, bool *first, const char *key, const char *v) {
    js_key(t, first, key);
    js_str(t, v);
}

static void js_kint(fray__text *t, bool *first, const char *key, int v) {
    js_key(t, first, key);
    fray__text_f(t, "%d", v);
}

static void js_kbool(fray__text *t, bool *first, const char *key, bool v) {
    js_key(t, first, key);
    fray__text_s(t, v ? "true" : "false");
}

/* A list of combatant indexes, those the scope does not see left out. */
static void js_targets(fray__text *t, const fray_fight_view *v,
                       const fray_view_scope *sc, const int *tg, int n) {
    fray__text_s(t, "[");
    bool tf = true;
    for (int x = 0; x < n; x++) {
        if (ref(v, sc, tg[x]) < 0)
            continue;
        fray__text_f(t, tf ? "%d" : ",%d", tg[x]);
        tf = false;
    }
    fray__text_s(t, "]");
}

static void js_combatant(fray__text *t, const fray_fight_view *v,
                         const fray_view_scope *sc, int k) {
    const fray_view_combatant *c = &v->combatants[k];
    bool f = true;
    fray__text_s(t, "{");
    js_kint(t, &f, "index", c->index);
    js_kstr(t, &f, "id", c->id);
    js_kstr(t, &f, "name", c->name);
    js_kint(t, &f, "side", c->side);
    js_kstr(t, &f, "status", c->status);
    js_kbool(t, &f, "out", c->out);
    js_kbool(t, &f, "gm_only", c->gm_only);
    js_kbool(t, &f, "unnoticed", c->unnoticed);
    bool numbers = sees_numbers(v, sc, k);
    js_key(t, &f, "health");
    fray__text_s(t, "[");
    for (int j = 0; j < c->n_tracks && j < FRAY_VIEW_MAX_TRACKS; j++) {
        const fray_view_track *tr = &c->tracks[j];
        bool g = true;
        fray__text_s(t, j ? ",{" : "{");
        js_kstr(t, &g, "name", tr->name);
        if (numbers && tr->exact) {
            js_kint(t, &g, "value", tr->value);
            js_kint(t, &g, "max", tr->max);
            js_kint(t, &g, "temporary", tr->temporary);
        }
        js_kstr(t, &g, "descriptor", tr->descriptor);
        fray__text_s(t, "}");
    }
    fray__text_s(t, "]");
    js_key(t, &f, "time");
    {
        bool g = true;
        fray__text_s(t, "{");
        js_kbool(t, &g, "on", c->on_time);
        js_kint(t, &g, "at", c->time);
        js_kint(t, &g, "order", c->order);
        js_kbool(t, &g, "holding", c->holding);
        js_kbool(t, &g, "acted", c->acted);
        js_kstr(t, &g, "words", c->time_words);
        fray__text_s(t, "}");
    }
    js_key(t, &f, "place");
    if (c->on_map) {
        int x, y;
        place_for(v, sc, k, &x, &y);
        fray__text_f(t, "{\"x\":%d,\"y\":%d,\"size\":%d}", x, y, c->size);
    } else {
        fray__text_s(t, "null");
    }
    js_key(t, &f, "seen");
    fray__text_s(t, "[");
    for (int j = 0; is_gm(sc) && j < c->n_seen; j++)
        fray__text_f(t, j ? ",{\"x\":%d,\"y\":%d}" : "{\"x\":%d,\"y\":%d}",
                     c->seen[j].x, c->seen[j].y);
    fray__text_s(t, "]");
    js_key(t, &f, "conditions");
    fray__text_s(t, "[");
    for (int j = 0; j < c->n_conditions; j++) {
        const fray_view_condition *cd = &c->conditions[j];
        bool g = true;
        fray__text_s(t, j ? ",{" : "{");
        js_kstr(t, &g, "name", cd->name);
        js_kint(t, &g, "value", cd->value);
        js_kstr(t, &g, "ends", fray_view_ends_word(cd->ends));
        js_kint(t, &g, "whose", ref(v, sc, cd->whose));
        js_kint(t, &g, "count", cd->count);
        js_kint(t, &g, "round", cd->round);
        js_kint(t, &g, "source", ref(v, sc, cd->source));
        js_kstr(t, &g, "until", cd->until);
        fray__text_s(t, "}");
    }
    fray__text_s(t, "]");
    js_key(t, &f, "resources");
    fray__text_s(t, "[");
    for (int j = 0; numbers && j < c->n_resources; j++) {
        fray__text_s(t, j ? ",{\"name\":" : "{\"name\":");
        js_str(t, c->resources[j].name);
        fray__text_f(t, ",\"value\":%d}", c->resources[j].value);
    }
    fray__text_s(t, "]");
    js_key(t, &f, "weapons");
    fray__text_s(t, "[");
    for (int j = 0; j < c->n_weapons; j++) {
        if (j)
            fray__text_s(t, ",");
        js_str(t, c->weapons[j]);
    }
    fray__text_s(t, "]");
    js_kint(t, &f, "hand", hand_ref(v, sc, c->hand));
    js_key(t, &f, "actions");
    fray__text_s(t, "[");
    for (int j = 0; sees_actions(v, sc, k) && j < c->n_actions; j++) {
        const fray_view_action *a = &c->actions[j];
        bool g = true;
        fray__text_s(t, j ? ",{" : "{");
        js_kstr(t, &g, "word", a->word);
        js_kstr(t, &g, "title", a->title);
        js_kbool(t, &g, "needs_target", a->needs_target);
        js_kbool(t, &g, "needs_space", a->needs_space);
        js_kbool(t, &g, "checked", a->checked);
        js_key(t, &g, "targets");
        js_targets(t, v, sc, a->targets, a->n_targets);
        if (a->n_options > 0) { /* (only when it takes a choice) */
            js_key(t, &g, "options");
            fray__text_s(t, "[");
            for (int q = 0; q < a->n_options; q++) {
                const fray_view_option *op = &a->options[q];
                bool h = true;
                fray__text_s(t, q ? ",{" : "{");
                js_kstr(t, &h, "word", op->word);
                js_kstr(t, &h, "title", op->title);
                js_kbool(t, &h, "needs_target", op->needs_target);
                js_kbool(t, &h, "needs_space", op->needs_space);
                js_key(t, &h, "targets");
                js_targets(t, v, sc, op->targets, op->n_targets);
                fray__text_s(t, "}");
            }
            fray__text_s(t, "]");
        }
        fray__text_s(t, "}");
    }
    fray__text_s(t, "]");
    js_key(t, &f, "reach");
    fray__text_s(t, "[");
    for (int j = 0; sees_reach(v, sc, k) && j < c->n_reach; j++)
        fray__text_f(t, j ? ",[%d,%d]" : "[%d,%d]", c->reach[j].x,
                     c->reach[j].y);
    fray__text_s(t, "]}");
}

FRAY_API size_t fray_fight_view_json(const fray_fight_view *view,
                                     const fray_view_scope *scope, char *buf,
                                     size_t size) {
    fray__text tx;
    fray__text *t = &tx;
    fray__text_init(t, buf, size);
    if (!view)
        return 0;
    const fray_fight_view *v = view;
    const fray_view_scope *sc = scope;
    bool f = true;
    fray__text_s(t, "{");
    js_kint(t, &f, "view", 1);
    js_kstr(t, &f, "scope", is_gm(sc) ? "gm" : "player");
    js_kstr(t, &f, "rules", v->rules);
    js_kstr(t, &f, "title", v->title);
    js_kstr(t, &f, "time_unit", v->time_unit);
    js_kint(t, &f, "now", v->now);
    js_kbool(t, &f, "over", v->over);
    js_kint(t, &f, "winner", v->winner);
    int turn = ref(v, sc, v->turn);
    js_kint(t, &f, "turn", turn);
    js_kstr(t, &f, "turn_words", turn >= 0 ? v->turn_words : "");
    js_key(t, &f, "sides");
    fray__text_s(t, "[");
    for (int k = 0; k < v->n_sides; k++) {
        if (k)
            fray__text_s(t, ",");
        js_str(t, v->sides[k]);
    }
    fray__text_s(t, "]");
    js_key(t, &f, "combatants");
    fray__text_s(t, "[");
    bool cf = true;
    for (int k = 0; k < v->n_combatants; k++) {
        if (!fray_view_sees_combatant(v, sc, k))
            continue;
        if (!cf)
            fray__text_s(t, ",");
        cf = false;
        js_combatant(t, v, sc, k);
    }
    fray__text_s(t, "]");
    js_key(t, &f, "hands");
    fray__text_s(t, "[");
    bool hf = true;
    for (int h = 0; h < v->n_hands; h++) {
        if (!fray_view_sees_hand(v, sc, h))
            continue;
        const fray_view_hand *hd = &v->hands[h];
        bool g = true;
        fray__text_s(t, hf ? "{" : ",{");
        hf = false;
        js_kstr(t, &g, "deck", hd->deck);
        js_kbool(t, &g, "gm_deck", hd->gm_deck);
        js_key(t, &g, "users");
        fray__text_s(t, "[");
        bool uf = true;
        for (int u = 0; u < hd->n_users; u++) {
            if (ref(v, sc, hd->users[u]) < 0)
                continue;
            fray__text_f(t, uf ? "%d" : ",%d", hd->users[u]);
            uf = false;
        }
        fray__text_s(t, "]");
        js_key(t, &g, "cards");
        fray__text_s(t, "[");
        for (int j = 0; j < hd->n_cards; j++) {
            if (j)
                fray__text_s(t, ",");
            js_str(t, hd->cards[j]);
        }
        fray__text_s(t, "]}");
    }
    fray__text_s(t, "]");
    js_key(t, &f, "map");
    if (!v->map.present) {
        fray__text_s(t, "null");
    } else {
        bool g = true;
        fray__text_s(t, "{");
        js_kint(t, &g, "width", v->map.width);
        js_kint(t, &g, "height", v->map.height);
        js_key(t, &g, "rows");
        fray__text_s(t, "[");
        for (int y = 0; y < v->map.height; y++) {
            fray__text_s(t, y ? ",\"" : "\"");
            fray__text_put(t, v->map.cells + (size_t)y * (size_t)v->map.width,
                           (size_t)v->map.width);
            fray__text_s(t, "\"");
        }
        fray__text_s(t, "]");
        js_key(t, &g, "legend");
        fray__text_s(t, "[");
        for (int j = 0; j < v->map.n_legend; j++) {
            char code[2] = {v->map.legend[j].code, '\0'};
            fray__text_s(t, j ? ",{\"code\":" : "{\"code\":");
            js_str(t, code);
            fray__text_s(t, ",\"name\":");
            js_str(t, v->map.legend[j].name);
            fray__text_s(t, "}");
        }
        fray__text_s(t, "]");
        js_key(t, &g, "marks");
        fray__text_s(t, "[");
        bool mf = true;
        for (int j = 0; j < v->map.n_marks; j++) {
            const fray_view_mark *m = &v->map.marks[j];
            if (!sees_mark(v, sc, m))
                continue;
            bool h = true;
            fray__text_s(t, mf ? "{" : ",{");
            mf = false;
            js_kint(t, &h, "by", m->by);
            js_kstr(t, &h, "kind", m->kind);
            js_kint(t, &h, "target", m->target);
            js_kint(t, &h, "x", m->x);
            js_kint(t, &h, "y", m->y);
            fray__text_s(t, "}");
        }
        fray__text_s(t, "]");
        js_key(t, &g, "areas");
        fray__text_s(t, "[");
        for (int j = 0; j < v->map.n_areas; j++) {
            const fray_view_area *a = &v->map.areas[j];
            fray__text_s(t, j ? ",{\"name\":" : "{\"name\":");
            js_str(t, a->name);
            fray__text_s(t, ",\"spaces\":[");
            for (int q = 0; q < a->n_spaces; q++)
                fray__text_f(t, q ? ",[%d,%d]" : "[%d,%d]", a->spaces[q].x,
                             a->spaces[q].y);
            fray__text_s(t, "]}");
        }
        fray__text_s(t, "]}");
    }
    fray__text_s(t, "}");
    return t->len;
}
