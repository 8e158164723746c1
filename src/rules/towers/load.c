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
