/* alloy_longway.h - the long way of Alloy's movement rules for the tests
 * that hold the engine's faster ways to it (test_alloy_occgrid.c,
 * test_alloy_speed.c): each square asked of every combatant. Include
 * after alloy_fixture.h. */
#ifndef ALLOY_LONGWAY_H
#define ALLOY_LONGWAY_H

static inline bool t_covers(fray_footprint fp, fray_pos p) {
    int side = fp.side > 0 ? fp.side : 1;
    return p.x >= fp.at.x && p.x < fp.at.x + side && p.y >= fp.at.y &&
           p.y < fp.at.y + side;
}

static inline bool t_overlap(fray_footprint a, fray_footprint b) {
    int sa = a.side > 0 ? a.side : 1, sb = b.side > 0 ? b.side : 1;
    return a.at.x < b.at.x + sb && b.at.x < a.at.x + sa &&
           a.at.y < b.at.y + sb && b.at.y < a.at.y + sa;
}

static inline bool t_helpless(const fa_cstate *c) {
    return (c->flags & FA_F_OUT) || fa_has(c, FA_C_DEAD) ||
           fa_has(c, FA_C_DYING) || fa_has(c, FA_C_HELPLESS) ||
           fa_has(c, FA_C_UNCONSCIOUS);
}

typedef struct long_way {
    const fixture *f;
    int who;
} long_way;

/* Asked of every combatant for the square: the mover's own first; a
 * narrow square none may enter unless squeezing (004:713); allies may be
 * passed through, enemies only when helpless or two size categories
 * apart, the dead are passable (004:818-820). */
static inline fray_occupant long_occ(void *ctx, fray_pos p) {
    const long_way *lw = ctx;
    const fixture *f = lw->f;
    if (t_covers(f->st.c[lw->who].fp, p))
        return FRAY_OCC_SELF;
    if (!fa_has(&f->st.c[lw->who], FA_C_SQUEEZING) && f->s.opt.narrow != FA_NARROW_OPEN &&
        fray_area_has(&f->s.narrow, p))
        return FRAY_OCC_ENEMY;
    bool ally = false, passable = false;
    int mine = f->s.sb[f->s.c[lw->who].sb].size;
    for (int j = 0; j < f->st.n; j++) {
        if (j == lw->who || !t_covers(f->st.c[j].fp, p))
            continue;
        const fa_cstate *c = &f->st.c[j];
        int d = f->s.sb[f->s.c[j].sb].size - mine;
        if (fa_has(c, FA_C_DEAD))
            passable = true;
        else if (f->s.c[j].side == f->s.c[lw->who].side)
            ally = true;
        else if (t_helpless(c) || d >= 2 || d <= -2)
            passable = true;
        else
            return FRAY_OCC_ENEMY;
    }
    return passable ? FRAY_OCC_PASSABLE : ally ? FRAY_OCC_ALLY : FRAY_OCC_EMPTY;
}

/* 004:824: a move may end in an ally's square only if the ally is prone,
 * in an enemy's only if the enemy is helpless (nobody here is Tiny). */
static inline bool long_may_end(const fixture *f, int who, fray_footprint fp) {
    for (int j = 0; j < f->st.n; j++) {
        const fa_cstate *c = &f->st.c[j];
        if (j == who || !t_overlap(fp, c->fp) || fa_has(c, FA_C_DEAD))
            continue;
        bool ok = f->s.c[j].side == f->s.c[who].side ? fa_has(c, FA_C_PRONE)
                                                     : t_helpless(c);
        if (!ok)
            return false;
    }
    return true;
}

#endif
