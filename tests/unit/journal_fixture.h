/* journal_fixture.h - a fight's journal as the tests read it: every event
 * of the fight in JSON (fray_event_json), one a line, as `fray play`
 * writes a journal and fray_fight_replay_journal reads one back. Shared by
 * the ruleset fixtures (d6_fixture.h, winter_fixture.h) and their tests. */
#ifndef JOURNAL_FIXTURE_H
#define JOURNAL_FIXTURE_H

#include <criterion/criterion.h>
#include <stdlib.h>

#include "fray/fight.h"

/* The fight's journal, one JSON line an event (malloc'd, the caller frees
 * it; `cap` bytes at most, a longer journal fails the test); its length
 * in *len. */
static inline char *fx_journal(const fray_fight *f, size_t cap, size_t *len) {
    size_t n = 0;
    char *text = malloc(cap);
    cr_assert_not_null(text);
    for (int i = 0; i < fray_fight_events(f); i++) {
        size_t w = fray_event_json(f, i, text + n, cap - n - 1);
        cr_assert_lt(n + w + 2, cap, "the journal is longer than %zu bytes", cap);
        n += w;
        text[n++] = '\n';
    }
    text[n] = '\0';
    *len = n;
    return text;
}

#endif
