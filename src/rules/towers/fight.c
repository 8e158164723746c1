/* fight.c - STUB */
#include "towers_int.h"

fray_status ft_fight_apply(fray_towers_fight *f, const ft_command *cmd, const fray_card *cards, size_t n_cards, fray_diag *diag) {
    (void)f;
    (void)cmd;
    (void)cards;
    (void)n_cards;
    (void)diag;
    return FRAY_ERR_INVALID;
}

FRAY_API fray_status fray_towers_fight_new(const fray_towers_setup *setup, uint64_t seed, const fray_towers_fight_options *opts, const fray_allocator *alloc, fray_towers_fight **out) {
    (void)setup;
    (void)seed;
    (void)opts;
    (void)alloc;
    (void)out;
    return FRAY_ERR_INVALID;
}

FRAY_API void fray_towers_fight_reset(fray_towers_fight *fight, uint64_t seed) {
    (void)fight;
    (void)seed;

}

FRAY_API void fray_towers_fight_free(fray_towers_fight *fight) {
    (void)fight;

}

FRAY_API bool fray_towers_fight_over(const fray_towers_fight *fight) {
    (void)fight;
    return false;
}

FRAY_API int fray_towers_fight_winner(const fray_towers_fight *fight) {
    (void)fight;
    return 0;
}

FRAY_API int fray_towers_fight_phase(const fray_towers_fight *fight) {
    (void)fight;
    return 0;
}

FRAY_API fray_status fray_towers_fight_step(fray_towers_fight *fight) {
    (void)fight;
    return FRAY_ERR_INVALID;
}

FRAY_API fray_status fray_towers_fight_run(fray_towers_fight *fight) {
    (void)fight;
    return FRAY_ERR_INVALID;
}

FRAY_API fray_status fray_towers_fight_command(fray_towers_fight *fight, const char *command, const fray_card *cards, size_t n_cards, fray_diag *diag) {
    (void)fight;
    (void)command;
    (void)cards;
    (void)n_cards;
    (void)diag;
    return FRAY_ERR_INVALID;
}

FRAY_API int fray_towers_fight_events(const fray_towers_fight *fight) {
    (void)fight;
    return 0;
}

FRAY_API fray_status fray_towers_fight_undo(fray_towers_fight *fight) {
    (void)fight;
    return FRAY_ERR_INVALID;
}

FRAY_API fray_status fray_towers_fight_redo(fray_towers_fight *fight) {
    (void)fight;
    return FRAY_ERR_INVALID;
}

FRAY_API size_t fray_towers_event_narrate(const fray_towers_fight *fight, int i, char *buf, size_t size) {
    (void)fight;
    (void)i;
    (void)buf;
    (void)size;
    return 0;
}

FRAY_API size_t fray_towers_event_json(const fray_towers_fight *fight, int i, char *buf, size_t size) {
    (void)fight;
    (void)i;
    (void)buf;
    (void)size;
    return 0;
}

FRAY_API size_t fray_towers_draw_clock(const fray_towers_fight *fight, char *buf, size_t size) {
    (void)fight;
    (void)buf;
    (void)size;
    return 0;
}

FRAY_API size_t fray_towers_draw_map(const fray_towers_fight *fight, char *buf, size_t size) {
    (void)fight;
    (void)buf;
    (void)size;
    return 0;
}

FRAY_API size_t fray_towers_summary(const fray_towers_fight *fight, char *buf, size_t size) {
    (void)fight;
    (void)buf;
    (void)size;
    return 0;
}

FRAY_API fray_status fray_towers_fight_replay(fray_towers_fight *fight, const char *jsonl, fray_diag *diag) {
    (void)fight;
    (void)jsonl;
    (void)diag;
    return FRAY_ERR_INVALID;
}

FRAY_API bool fray_towers_fight_same(const fray_towers_fight *a, const fray_towers_fight *b) {
    (void)a;
    (void)b;
    return false;
}
