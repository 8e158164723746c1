/* alloy_crowd.h - the crowd of the tests that hold Alloy's speed work to
 * the long way (test_alloy_occgrid.c, test_alloy_speed.c,
 * test_alloy_crowd_speed.c): 20 combatants placed at scattered free
 * squares by a fixed sequence, one Large and one Huge among them, and the
 * map with walls, a window, low walls, wall edges, difficult ground and
 * narrow squares. Include after alloy_fixture.h. */
#ifndef ALLOY_CROWD_H
#define ALLOY_CROWD_H

/* The walls of a map at least 14 squares each way: a wall line with a
 * window, difficult ground, low walls, two wall edges, narrow squares. */
static inline void ac_features(fixture *f) {
    fray_grid *g = &f->s.map;
    for (int y = 2; y < 9; y++)
        g->terrain[y][6] = FRAY_TERRAIN_WALL;
    g->terrain[4][6] = FRAY_TERRAIN_WINDOW;
    for (int x = 8; x < 12; x++) {
        g->terrain[3][x] = FRAY_TERRAIN_DIFFICULT;
        g->terrain[10][x - 6] = FRAY_TERRAIN_DIFFICULT;
    }
    for (int y = 9; y < 13; y++) {
        g->edge_e[y][9] = FRAY_EDGE_LOW;
        g->edge_s[y - 8][2] = FRAY_EDGE_LOW;
    }
    g->edge_e[11][4] = FRAY_EDGE_WALL;
    g->edge_s[12][10] = FRAY_EDGE_WALL;
    for (int y = 5; y < 8; y++)
        fray_area_add(&f->s.narrow, (fray_pos){11, (int16_t)y});
    fray_area_add(&f->s.narrow, (fray_pos){3, 12});
}

/* 20 combatants c0..c19 (side i % 2) at scattered squares of the map
 * (map x map), drawn from the sequence seq, never on a wall, a window or
 * another's square: c5 Large (2x2), c10 Huge (3x3), the rest Medium
 * (stat blocks trooper, ogre, giant). Before af_go. */
static inline void ac_place(fixture *f, int map, unsigned seq) {
    const fray_grid *g = &f->s.map;
    bool used[FRAY_GRID_MAX][FRAY_GRID_MAX];
    for (int y = 0; y < map; y++)
        for (int x = 0; x < map; x++)
            used[y][x] = g->terrain[y][x] == FRAY_TERRAIN_WALL ||
                         g->terrain[y][x] == FRAY_TERRAIN_WINDOW;
    int med = af_block(f, "trooper", 6, 0, 20);
    int large = af_block(f, "ogre", 6, 0, 40);
    f->s.sb[large].size = FA_SIZE_LARGE;
    int huge = af_block(f, "giant", 6, 0, 60);
    f->s.sb[huge].size = FA_SIZE_HUGE;
    for (int i = 0; i < 20; i++) {
        int sb = i == 5 ? large : i == 10 ? huge : med;
        int side_len = sb == large ? 2 : sb == huge ? 3 : 1;
        for (;;) {
            seq = seq * 1103515245u + 12345u;
            int x = (int)((seq >> 16) % (unsigned)(map - side_len + 1));
            seq = seq * 1103515245u + 12345u;
            int y = (int)((seq >> 16) % (unsigned)(map - side_len + 1));
            bool free_sq = true;
            for (int dy = 0; dy < side_len; dy++)
                for (int dx = 0; dx < side_len; dx++)
                    free_sq = free_sq && !used[y + dy][x + dx];
            if (!free_sq)
                continue;
            for (int dy = 0; dy < side_len; dy++)
                for (int dx = 0; dx < side_len; dx++)
                    used[y + dy][x + dx] = true;
            char name[16];
            snprintf(name, sizeof name, "c%d", i);
            int c = af_add(f, name, sb, i % 2, x, y);
            f->s.c[c].side_len = (int8_t)side_len;
            break;
        }
    }
}

#endif
