/*
 * test_odds_enc.c - the odds of one attack taken from an encounter file
 * (include/fray/duel.h "One attack's odds from an encounter file"; issue
 * 15, section 2; `fray odds attack --encounter`). Seed 000 "Combat
 * Modifiers", "Attacking and Defending", "Damage": the file's knights of
 * examples/towers/duel.yaml, their modifiers named one by one, the query
 * equal to the one given by hand, and its odds checked against a count of
 * every set of cards made here, independently of odds.c.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "fray/duel.h"
#include "fray/fray.h"

#define EXAMPLES FRAY_SOURCE_DIR "/examples/towers/"
#define DATA FRAY_SOURCE_DIR "/tests/data/towers/"

static fray_towers_setup *load(const char *path) {
    fray_towers_setup *s = NULL;
    fray_diag d;
    fray_status rc = fray_towers_load(path, NULL, &s, &d);
    cr_assert_eq(rc, FRAY_OK, "%s:%d: %s", d.file ? d.file : path, d.line,
                 d.message);
    return s;
}

/* The modifier called `why` on the attack (def false) or defense flip. */
static const fray_enc_mod *find_mod(const fray_enc_attack *e, bool def,
                                    const char *why) {
    for (int i = 0; i < e->n_mods; i++)
        if (e->mods[i].defense == def && strcmp(e->mods[i].why, why) == 0)
            return &e->mods[i];
    return NULL;
}

static void expect_mod(const fray_enc_attack *e, bool def, const char *why,
                       int flip, int shift) {
    const fray_enc_mod *m = find_mod(e, def, why);
    cr_assert(m, "no modifier '%s' on the %s flip", why, def ? "defense" : "attack");
    cr_expect_eq(m->flip, flip, "%s: flip %d", why, m->flip);
    cr_expect_eq(m->shift, shift, "%s: shift %d", why, m->shift);
}

/*
 * An independent count of an attack of `an` cards (keep the highest)
 * against a defense flip from one shared 52-card deck, aces high: every
 * set of the attack's cards, and for each, the defense's sets counted by
 * their lowest (keep_lowest, two cards) or highest (one card) card. Hits
 * by the attack's Hearts. Seed 000 "Attacking and Defending": a tie hits.
 */
static void brute_shared(int an, int ash, int dcards, bool dlow, int dsh,
                         unsigned long long hit[14], unsigned long long *den) {
    memset(hit, 0, 14 * sizeof hit[0]);
    *den = 0;
    int idx[8];
    for (int i = 0; i < an; i++)
        idx[i] = i;
    for (;;) {
        int top = 0, hearts = 0;
        bool used[52] = {false};
        for (int i = 0; i < an; i++) {
            fray_card c = (fray_card)idx[i];
            int v = fray_card_rank(c);
            if (v > top)
                top = v;
            hearts += fray_card_is_heart(c);
            used[idx[i]] = true;
        }
        /* Defense cards left, by value: those it beats the attack with. */
        int left = 0, beats = 0;
        for (int c = 0; c < 52; c++) {
            if (used[c])
                continue;
            left++;
            if (fray_card_rank((fray_card)c) + dsh > top + ash)
                beats++;
        }
        unsigned long long sets, win;
        if (dcards == 1) {
            sets = (unsigned long long)left;
            win = (unsigned long long)(left - beats);
        } else {
            cr_assert(dcards == 2 && dlow);
            /* The lowest of two beats the attack only if both do. */
            sets = (unsigned long long)left * (unsigned long long)(left - 1) / 2;
            win = sets - (unsigned long long)beats * (unsigned long long)(beats - 1) / 2;
        }
        *den += sets;
        hit[hearts] += win;
        int k = an - 1;
        while (k >= 0 && idx[k] == 52 - an + k)
            k--;
        if (k < 0)
            break;
        idx[k]++;
        for (int i = k + 1; i < an; i++)
            idx[i] = idx[i - 1] + 1;
    }
}

/* fray_odds_attack's counts, reduced, against the brute count's. */
static void expect_same_odds(const fray_attack_query *q,
                             const unsigned long long hit[14],
                             unsigned long long den) {
    fray_attack_odds o;
    cr_assert_eq(fray_odds_attack(q, &o), FRAY_OK);
    for (int k = 0; k <= 4; k++) {
        fray_ratio a = fray_attack_odds_hit_hearts(&o, k);
        /* a == hit[k] / den: cross-multiplied (both small enough). */
        unsigned long long an = (unsigned long long)a.num.lo,
                           ad = (unsigned long long)a.den.lo;
        cr_expect_eq((unsigned __int128)an * den, (unsigned __int128)hit[k] * ad,
                     "hits with %d Hearts: %llu/%llu, counted %llu/%llu", k, an,
                     ad, hit[k], den);
    }
}

/* 000 "Combat Modifiers": Sir Aldric's Longblade on the Black Knight at the
 * duel's start, each modifier by its name, and the odds counted by hand. */
Test(odds_enc, aldric_on_the_black_knight_modifiers_named_and_counted) {
    fray_towers_setup *s = load(EXAMPLES "duel.yaml");
    fray_enc_attack e;
    fray_diag d;
    cr_assert_eq(fray_towers_enc_attack(s, 0, 1, -1, false, &e, &d), FRAY_OK,
                 "%s", d.message);
    cr_expect_str_eq(e.weapon_name, "Longblade");
    cr_expect_str_eq(e.attack_rank_name, "PA");
    cr_expect_str_eq(e.defense_rank_name, "PD");
    /* The weapon's (flip+1), Knightly Training's (shift+1); the Black
     * Knight flat-footed (flip-1, RULINGS 10), in his aggressive stance
     * (flip-1) and Arrogant (shift-1). */
    expect_mod(&e, false, "Longblade +1", 1, 0);
    expect_mod(&e, false, "Knightly Training", 0, 1);
    expect_mod(&e, true, "flat-footed", -1, 0);
    expect_mod(&e, true, "aggressive stance", -1, 0);
    expect_mod(&e, true, "Arrogant", 0, -1);
    cr_expect_eq(e.n_mods, 5);
    /* The query is the hand's: `fray odds attack 4 0 --attack-shift 1
     * --defense-shift -1 --shared-deck` (both of the GM's deck). */
    cr_expect_eq(e.query.attack_n, e.attack_rank + 1);
    cr_expect_eq(e.query.defense_n, e.defense_rank - 2);
    cr_expect_eq(e.query.attack_n, 4);
    cr_expect_eq(e.query.defense_n, 0);
    cr_expect_eq(e.query.attack_shift, 1);
    cr_expect_eq(e.query.defense_shift, -1);
    cr_expect(e.query.shared_deck);
    /* 000 "Damage": 4 + [PX] 2 against ER 5 (armor included). */
    cr_expect(e.has_damage);
    cr_expect_eq(e.damage, 6);
    cr_expect_eq(e.resilience, 5);
    cr_expect_str_eq(e.resilience_name, "ER");
    unsigned long long hit[14], den;
    /* A flip of 0: two cards, keep the lowest (RULINGS 3). */
    brute_shared(4, 1, 2, true, -1, hit, &den);
    expect_same_odds(&e.query, hit, den);
    fray_towers_setup_free(s);
}

/* 000 "Power Attack": (flip-1) named, +2 damage; the defender flat-footed
 * loses two cards here (its shield's and the rule's). Counted by hand. */
Test(odds_enc, black_knight_power_attack_named_and_counted) {
    fray_towers_setup *s = load(EXAMPLES "duel.yaml");
    fray_enc_attack e;
    fray_diag d;
    cr_assert_eq(fray_towers_enc_attack(s, 1, 0, -1, true, &e, &d), FRAY_OK,
                 "%s", d.message);
    expect_mod(&e, false, "Power Attack", -1, 0);
    expect_mod(&e, false, "aggressive stance", 1, 0);
    cr_expect_eq(e.query.attack_n, 4);
    cr_expect_eq(e.query.defense_n, 1);
    cr_expect_eq(e.damage, 9);
    int power = 0;
    for (int i = 0; i < e.n_damage_parts; i++)
        if (strcmp(e.damage_parts[i].why, "Power Attack") == 0)
            power = e.damage_parts[i].value;
    cr_expect_eq(power, 2);
    unsigned long long hit[14], den;
    brute_shared(4, e.query.attack_shift, 1, false, e.query.defense_shift, hit,
                 &den);
    expect_same_odds(&e.query, hit, den);
    /* The same query without Power Attack has one card more and no +2. */
    fray_enc_attack plain;
    cr_assert_eq(fray_towers_enc_attack(s, 1, 0, -1, false, &plain, &d), FRAY_OK);
    cr_expect_eq(plain.query.attack_n, e.query.attack_n + 1);
    cr_expect_eq(plain.damage, e.damage - 2);
    cr_expect_null(find_mod(&plain, false, "Power Attack"));
    fray_towers_setup_free(s);
}

/* fresh-decks: true (docs/file-formats.md): each flip from its own fresh
 * deck, so the query is not a shared deck; the modifiers stay. */
Test(odds_enc, fresh_decks_are_separate) {
    fray_towers_setup *s = load(DATA "duel_knights.yaml");
    fray_enc_attack e;
    fray_diag d;
    cr_assert_eq(fray_towers_enc_attack(s, 0, 1, -1, false, &e, &d), FRAY_OK,
                 "%s", d.message);
    cr_expect_not(e.query.shared_deck);
    cr_expect_eq(e.query.attack_n, 4);
    cr_expect_eq(e.query.defense_n, 0);
    fray_towers_setup_free(s);
}

/* The weapon by name, any case; an unknown one is -1; bad calls refused
 * in rules words. */
Test(odds_enc, weapon_names_and_refusals) {
    fray_towers_setup *s = load(EXAMPLES "duel.yaml");
    cr_expect_eq(fray_towers_enc_weapon(s, 0, "longblade"), 0);
    cr_expect_eq(fray_towers_enc_weapon(s, 0, "Halberd of Nowhere"), -1);
    fray_enc_attack e;
    fray_diag d;
    cr_expect_eq(fray_towers_enc_attack(s, 0, 0, -1, false, &e, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "cannot attack itself"), "%s", d.message);
    cr_expect_eq(fray_towers_enc_attack(s, 0, 7, -1, false, &e, &d),
                 FRAY_ERR_INVALID);
    fray_towers_setup_free(s);
}

/* 000 "Melee Attacks": out of reach at the start is refused with why. */
Test(odds_enc, out_of_reach_refused) {
    fray_towers_setup *s = load(EXAMPLES "skirmish.yaml");
    fray_enc_attack e;
    fray_diag d;
    /* Sir Aldric (1) and the sellsword Brenna (4) start 7 spaces apart. */
    cr_expect_eq(fray_towers_enc_attack(s, 1, 4, -1, false, &e, &d),
                 FRAY_ERR_INVALID);
    cr_expect(strstr(d.message, "out of range"), "%s", d.message);
    fray_towers_setup_free(s);
}

/* Issue 15: `fray odds attack --encounter` prints the very table `fray
 * odds attack` prints for the same numbers given by hand: the two golden
 * outputs (tests/cli/cases.txt odds_attack_enc, odds_attack_enc_by_hand)
 * agree from the table's first line on. */
static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    cr_assert(f, "cannot open %s", path);
    static char buf[2][16384];
    static int which = 0;
    char *b = buf[which++ % 2];
    size_t n = fread(b, 1, sizeof buf[0] - 1, f);
    b[n] = '\0';
    fclose(f);
    return b;
}

Test(odds_enc, the_table_from_the_file_is_the_table_by_hand) {
    const char *enc = slurp(FRAY_SOURCE_DIR "/tests/cli/golden/odds_attack_enc.out");
    const char *hand =
        slurp(FRAY_SOURCE_DIR "/tests/cli/golden/odds_attack_enc_by_hand.out");
    const char *table = strstr(enc, "\nAttack 4 ");
    cr_assert(table, "no table in the encounter's output");
    cr_expect_str_eq(table + 1, hand);
    /* and its modifiers are named before it */
    cr_expect(strstr(enc, "flat-footed") && strstr(enc, "Knightly Training"));
}
