/*
 * layer.h - the shared encounter layer's own insides, for its files
 * (rulesets.c, setup.c, fight.c) and for a ruleset's wrappers that keep
 * its older public API (99 Towers' fray_towers_fight_*: thin wrappers
 * over fray_fight). Not public.
 */
#ifndef FRAY_LAYER_H
#define FRAY_LAYER_H

#include "ruleset.h"

/* What fray_setup is: a ruleset's table and its own loaded setup. */
struct fray_setup {
    const fray__ruleset *rs;
    void *data;          /* the ruleset's setup */
    bool owned;          /* freed with the fray_setup (not when borrowed) */
    fray_allocator alloc;
    struct fray__files *files; /* the files its load read (NULL: not known) */
};

/* The ruleset whose `rules:` word the file at path has (the first of the
 * registry when it has none); FRAY_ERR_PARSE with file:line:column for a
 * word that names no ruleset built (did you mean, the ones there are). */
fray_status fray__ruleset_for(const char *path, const fray__ruleset **out,
                              fray_diag *diag);

/* A fray_setup over a ruleset's setup it does not own (the fight that
 * holds it must not outlive `data`). */
void fray__setup_borrow(fray_setup *out, const fray__ruleset *rs,
                        const void *data);

/* fray_fight_new for a ruleset's own setup (borrowed) at trial `trial`:
 * the fight holds its own fray_setup over it. */
fray_status fray__fight_new_on(const fray__ruleset *rs, const void *data,
                               uint64_t seed, uint64_t trial,
                               const fray_fight_options *opts,
                               const atomic_bool *cancel,
                               const fray_allocator *alloc, fray_fight **out);
/* Begins the fight again at (seed, trial); the journal is emptied. */
fray_status fray__fight_reset_trial(fray_fight *f, uint64_t seed,
                                    uint64_t trial);
/* Runs apply(rf, ctx), a ruleset's own way of making one event (its
 * tests' direct commands), as a table command: room in the journal first,
 * the event packed after; a refusal changes nothing and is not a failed
 * step. */
fray_status fray__fight_apply(fray_fight *f,
                              fray_status (*apply)(void *rf, void *ctx),
                              void *ctx);
/* The ruleset's part of the fight. */
void *fray__fight_rf(const fray_fight *f);
uint64_t fray__fight_trial(const fray_fight *f);
/* FRAY_OK, or the error of the step that failed (the fight refuses to go
 * on until an undo or a reset). */
fray_status fray__fight_failed(const fray_fight *f);
/* Recorded event i (0 <= i < fray_fight_recorded) packed; NULL when none. */
const uint8_t *fray__fight_event(const fray_fight *f, int i, size_t *out_len);

#endif
