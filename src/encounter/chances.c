/*
 * chances.c - the odds at the table through the layer (issue 19;
 * include/fray/chances.h): the ruleset's `chances` hook for one command
 * or every option, ranked here.
 */
#include "fray/chances.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "layer.h"

/* The options fray_chances_all makes room for first. */
enum { FRAY_CHANCES_FIRST = 32 };

static bool same_word(const char *a, const char *b) {
    while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b)) {
        a++;
        b++;
    }
    return !*a && !*b;
}

FRAY_API int fray_fight_combatant_index(const fray_fight *fight,
                                        const char *word) {
    if (!fight || !word)
        return -1;
    const fray_setup *s = fray_fight_setup(fight);
    int n = fray_setup_combatants(s);
    for (int i = 0; i < n; i++)
        if (same_word(word, fray_setup_combatant_id(s, i)))
            return i;
    for (int i = 0; i < n; i++)
        if (same_word(word, fray_setup_combatant_name(s, i)))
            return i;
    return -1;
}

static fray_status ready(const fray_fight *fight, int who, fray_diag *diag) {
    if (diag)
        memset(diag, 0, sizeof *diag);
    if (!fight)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no fight");
    const fray_setup *s = fray_fight_setup(fight);
    if (!s->rs->chances)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "the chances of actions are not counted for %s",
                              s->rs->title);
    if (who < 0 || who >= fray_setup_combatants(s))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0,
                              "no such combatant in this fight");
    if (fray_fight_over(fight))
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "the fight is over");
    return FRAY_OK;
}

FRAY_API fray_status fray_action_chances(const fray_fight *fight, int who,
                                         const char *command,
                                         fray_chances *out, fray_diag *diag) {
    fray_status rc = ready(fight, who, diag);
    if (rc != FRAY_OK)
        return rc;
    if (!command || !out)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no command to count");
    int n = 0;
    return fray_fight_setup(fight)->rs->chances(fray__fight_rf(fight), who,
                                                command, out, 1, &n, diag);
}

/* Best first: the chance to drop the target, the expected damage, the
 * command's words; what deals no damage (p_drop -1) after, by its chance
 * of success (p_success, -1 when not counted: last). */
static int rank(const void *pa, const void *pb) {
    const fray_chances *a = pa, *b = pb;
    if (a->p_drop != b->p_drop)
        return a->p_drop > b->p_drop ? -1 : 1;
    if (a->p_drop < 0 && a->p_success != b->p_success)
        return a->p_success > b->p_success ? -1 : 1;
    double ea = a->expected[0] + a->expected[1];
    double eb = b->expected[0] + b->expected[1];
    if (ea != eb)
        return ea > eb ? -1 : 1;
    return strcmp(a->command, b->command);
}

FRAY_API fray_status fray_chances_all(const fray_fight *fight, int who,
                                      const fray_allocator *alloc,
                                      fray_chances_list *out,
                                      fray_diag *diag) {
    if (!out)
        return fray__diag_set(diag, FRAY_ERR_INVALID, 0, "no list to fill");
    memset(out, 0, sizeof *out);
    if (alloc)
        out->alloc = *alloc;
    fray_status rc = ready(fight, who, diag);
    if (rc != FRAY_OK)
        return rc;
    /* Room for the first FRAY_CHANCES_FIRST options (every example's
     * list fits); a list that fills it is counted again with room for
     * FRAY_CHANCES_LIST. Each item is about 60 KB: 64 of them were 3.8 MB
     * a call, 32 are 1.9 MB. (Cut to the n items by realloc, the memory
     * given back to the system is taken again and paged in at the next
     * call: 0.2 to 0.9 ms more for the brawl's 19 options, measured by
     * bench/bench_chances; so the room is kept with the list.) */
    int cap = FRAY_CHANCES_FIRST;
    fray_chances *items = NULL;
    int n = 0;
    for (;;) {
        items = fray__alloc(&out->alloc, sizeof(fray_chances) * (size_t)cap);
        if (!items)
            return FRAY_ERR_NOMEM;
        n = 0;
        rc = fray_fight_setup(fight)->rs->chances(fray__fight_rf(fight), who,
                                                  NULL, items, cap, &n, diag);
        if (rc != FRAY_OK || n < cap || cap >= FRAY_CHANCES_LIST)
            break;
        fray__free(&out->alloc, items, sizeof(fray_chances) * (size_t)cap);
        cap = FRAY_CHANCES_LIST;
    }
    if (rc != FRAY_OK) {
        fray__free(&out->alloc, items, sizeof(fray_chances) * (size_t)cap);
        return rc;
    }
    /* What deals no damage and cannot succeed is no option (p_success 0;
     * -1: not counted, kept). */
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (!(items[i].p_drop < 0 && items[i].p_success == 0)) {
            if (kept != i)
                items[kept] = items[i];
            kept++;
        }
    n = kept;
    qsort(items, (size_t)n, sizeof *items, rank);
    out->capacity = cap;
    out->items = items;
    out->n = n;
    return FRAY_OK;
}

FRAY_API void fray_chances_list_free(fray_chances_list *list) {
    if (!list || !list->items)
        return;
    int cap = list->capacity > 0 ? list->capacity : FRAY_CHANCES_LIST;
    fray__free(&list->alloc, list->items, sizeof(fray_chances) * (size_t)cap);
    list->items = NULL;
    list->n = 0;
}
