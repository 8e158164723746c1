/* policy.c - STUB: replaced by the real module. */
#include "towers_int.h"

void ft_policy_choose(const ft_setup *s, const ft_state *st, int actor, ft_command *out) {
    (void)s;
    (void)st;
    (void)actor;
    (void)out;

}
const ft_hooks ft_policy_hooks = {NULL, NULL, NULL};
