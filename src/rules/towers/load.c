/* load.c - STUB: replaced by the real module. */
#include "towers_int.h"

fray_status ft_load_files(const char *const *paths, int n, ft_setup *out, fray_diag *diag) {
    (void)paths;
    (void)n;
    (void)out;
    (void)diag;
    return FRAY_ERR_INVALID;
}

void ft_options_default(ft_options *o) {
    (void)o;

}

FRAY_API fray_status fray_towers_load(const char *path, const fray_allocator *alloc, fray_towers_setup **out, fray_diag *diag) {
    (void)path;
    (void)alloc;
    (void)out;
    (void)diag;
    return FRAY_ERR_INVALID;
}

FRAY_API fray_status fray_towers_check(const char *path, fray_diag *diag) {
    (void)path;
    (void)diag;
    return FRAY_ERR_INVALID;
}

FRAY_API void fray_towers_setup_free(fray_towers_setup *setup) {
    (void)setup;

}

FRAY_API bool fray_towers_setup_seed(const fray_towers_setup *setup, uint64_t *out_seed) {
    (void)setup;
    (void)out_seed;
    return false;
}

FRAY_API const char *fray_towers_setup_name(const fray_towers_setup *setup) {
    (void)setup;
    return NULL;
}

