/*
 * setup.c - fray_setup (include/fray/fight.h): a file's ruleset found by
 * its `rules:` word (rulesets.c), and everything asked of a setup through
 * that ruleset's table.
 */
#include "layer.h"

#include <string.h>

#include "internal.h"
#include "yaml_read.h"

/* The list of files of a setup freed (the list and its paths). */
static void files_drop(const fray_allocator *a, fray__files *l) {
    if (!l)
        return;
    l->alloc = a;
    fray__files_free(l);
    fray__free(a, l, sizeof *l);
}

FRAY_API fray_status fray_setup_load(const char *path,
                                     const fray_allocator *alloc,
                                     fray_setup **out, fray_diag *diag) {
    if (out)
        *out = NULL;
    if (!out)
        return FRAY_ERR_INVALID;
    if (diag)
        memset(diag, 0, sizeof *diag);
    const fray__ruleset *rs = NULL;
    fray_status rc = fray__ruleset_for(path, &rs, diag);
    if (rc != FRAY_OK)
        return rc;
    fray_setup *s = fray__alloc(alloc, sizeof *s);
    if (!s) {
        if (diag)
            diag->file = path;
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    }
    memset(s, 0, sizeof *s);
    if (alloc)
        s->alloc = *alloc;
    s->rs = rs;
    s->owned = true;
    fray__files *files = NULL;
    if (rs->load_files) {
        files = fray__alloc(alloc, sizeof *files);
        if (!files) {
            fray__free(alloc, s, sizeof *s);
            if (diag)
                diag->file = path;
            return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
        }
        memset(files, 0, sizeof *files);
        files->alloc = alloc;
        rc = rs->load_files(path, alloc, &s->data, files, diag);
    } else {
        rc = rs->load(path, alloc, &s->data, diag);
    }
    if (rc != FRAY_OK) {
        files_drop(alloc, files);
        fray__free(alloc, s, sizeof *s);
        return rc;
    }
    if (files)
        files->alloc = s->alloc.realloc ? &s->alloc : NULL;
    s->files = files;
    *out = s;
    return FRAY_OK;
}

FRAY_API fray_status fray_setup_check(const char *path, fray_diag *diag) {
    if (diag)
        memset(diag, 0, sizeof *diag);
    const fray__ruleset *rs = NULL;
    fray_status rc = fray__ruleset_for(path, &rs, diag);
    if (rc != FRAY_OK)
        return rc;
    return rs->check(path, diag);
}

void fray__setup_borrow(fray_setup *out, const fray__ruleset *rs,
                        const void *data) {
    memset(out, 0, sizeof *out);
    out->rs = rs;
    out->data = (void *)(uintptr_t)data; /* (never changed: borrowed) */
    out->owned = false;
}

FRAY_API void fray_setup_free(fray_setup *s) {
    if (!s)
        return;
    fray_allocator a = s->alloc;
    if (s->owned && s->data)
        s->rs->setup_free(s->data);
    files_drop(a.realloc ? &a : NULL, s->files);
    fray__free(a.realloc ? &a : NULL, s, sizeof *s);
}

FRAY_API fray_status fray_setup_copy(const fray_setup *src,
                                     const fray_allocator *alloc,
                                     fray_setup **out) {
    *out = NULL;
    fray_setup *s = fray__alloc(alloc, sizeof *s);
    if (!s)
        return FRAY_ERR_NOMEM;
    memset(s, 0, sizeof *s);
    if (alloc)
        s->alloc = *alloc;
    s->rs = src->rs;
    s->owned = true;
    fray_status rc = src->rs->setup_copy(src->data, alloc, &s->data);
    if (rc != FRAY_OK) {
        fray__free(alloc, s, sizeof *s);
        return rc;
    }
    if (src->files) {
        /* The same files listed (from the copy's own memory). */
        const fray_allocator *a = s->alloc.realloc ? &s->alloc : NULL;
        fray__files *files = fray__alloc(a, sizeof *files);
        if (files) {
            memset(files, 0, sizeof *files);
            files->alloc = a;
        }
        for (int i = 0; files && rc == FRAY_OK && i < src->files->n; i++)
            rc = fray__files_add(files, src->files->path[i]);
        if (!files || rc != FRAY_OK) {
            files_drop(a, files);
            s->rs->setup_free(s->data);
            fray__free(a, s, sizeof *s);
            return FRAY_ERR_NOMEM;
        }
        s->files = files;
    }
    *out = s;
    return FRAY_OK;
}

FRAY_API fray_status fray_setup_vary(fray_setup *s, const char *key,
                                     const char *value, fray_diag *diag) {
    if (!s->owned)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "only a copy of a setup may be changed");
    return s->rs->vary(s->data, key, value, diag);
}

FRAY_API const char *fray_setup_rules(const fray_setup *s) {
    return s->rs->name;
}

FRAY_API const char *fray_setup_title(const fray_setup *s) {
    return s->rs->title;
}

FRAY_API const char *fray_setup_time_unit(const fray_setup *s) {
    return s->rs->time_unit;
}

FRAY_API const char *fray_setup_randomness(const fray_setup *s) {
    return s->rs->randomness ? s->rs->randomness : "random numbers";
}

FRAY_API const char *fray_setup_duel_assumed(const fray_setup *s) {
    return s->rs->duel_assumed ? s->rs->duel_assumed : "";
}

FRAY_API const char *fray_setup_name(const fray_setup *s) {
    return s->rs->setup_name(s->data);
}

FRAY_API bool fray_setup_seed(const fray_setup *s, uint64_t *out_seed) {
    return s->rs->setup_seed(s->data, out_seed);
}

FRAY_API int fray_setup_sides(const fray_setup *s) {
    return s->rs->sides(s->data);
}

FRAY_API const char *fray_setup_side_name(const fray_setup *s, int side) {
    return s->rs->side_name(s->data, side);
}

FRAY_API int fray_setup_combatants(const fray_setup *s) {
    return s->rs->combatants(s->data);
}

FRAY_API const char *fray_setup_combatant_name(const fray_setup *s, int i) {
    return s->rs->combatant_name(s->data, i);
}

FRAY_API const char *fray_setup_combatant_id(const fray_setup *s, int i) {
    return s->rs->combatant_id(s->data, i);
}

FRAY_API int fray_setup_combatant_side(const fray_setup *s, int i) {
    return s->rs->combatant_side(s->data, i);
}

FRAY_API const void *fray_setup_ruleset_data(const fray_setup *s) {
    return s->data;
}

/* ---- Exact duel odds ---------------------------------------------------------- */

FRAY_API fray_status fray_setup_duel_odds(const fray_setup *s, int a, int b,
                                          long max_states,
                                          struct fray_duel_odds *out,
                                          fray_diag *diag) {
    if (diag)
        memset(diag, 0, sizeof *diag);
    if (!s->rs->duel_odds)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "exact duel odds are not built for %s",
                              s->rs->title);
    return s->rs->duel_odds(s->data, a, b, max_states, out, diag);
}

FRAY_API fray_status fray_setup_duel_exact(const fray_setup *s, int a, int b,
                                           long max_states,
                                           struct fray_duel_odds *out,
                                           struct fray_duel_exact *exact,
                                           fray_diag *diag) {
    if (diag)
        memset(diag, 0, sizeof *diag);
    if (!s->rs->duel_exact)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "exact fractions of a duel are not built for %s",
                              s->rs->title);
    return s->rs->duel_exact(s->data, a, b, max_states, out, exact, diag);
}

FRAY_API fray_status fray_setup_duel(const char *path_a, const char *name_a,
                                     const char *path_b, const char *name_b,
                                     const char *tactics_a,
                                     const char *tactics_b,
                                     const fray_allocator *alloc,
                                     fray_setup **out, fray_diag *diag) {
    *out = NULL;
    if (diag)
        memset(diag, 0, sizeof *diag);
    const fray__ruleset *rs = NULL;
    fray_status rc = fray__ruleset_for(path_a, &rs, diag);
    if (rc != FRAY_OK)
        return rc;
    if (!rs->duel_setup)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "exact duel odds are not built for %s",
                              rs->title);
    fray_setup *s = fray__alloc(alloc, sizeof *s);
    if (!s)
        return fray__diag_set(diag, FRAY_ERR_NOMEM, 0, "out of memory");
    memset(s, 0, sizeof *s);
    if (alloc)
        s->alloc = *alloc;
    s->rs = rs;
    s->owned = true;
    rc = rs->duel_setup(path_a, name_a, path_b, name_b, tactics_a, tactics_b,
                        alloc, &s->data, diag);
    if (rc != FRAY_OK) {
        fray__free(alloc, s, sizeof *s);
        return rc;
    }
    *out = s;
    return FRAY_OK;
}

FRAY_API int fray_setup_file_count(const fray_setup *s) {
    return s->files ? s->files->n : -1;
}

FRAY_API const char *fray_setup_file_path(const fray_setup *s, int i) {
    if (!s->files || i < 0 || i >= s->files->n)
        return NULL;
    return s->files->path[i];
}
