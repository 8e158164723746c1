/* cmd_flip.c - `fray flip`: one flip of cards (99 Towers, seed 001). */
#include "cli.h"

#include <string.h>

static const char HELP[] =
    "usage: fray flip N [--aspect A] [--shift S] [--dtn T] [--cards \"KH 4S\"]\n"
    "                 [--seed N] [--aces high|low] [--jokers 0-2]\n"
    "                 [--joker-value V] [--min-one-card] [--json]\n"
    "\n"
    "Flips N cards (a rank plus its flip mods) and keeps the highest. When N\n"
    "is below 1 it flips 2 - N cards and keeps the LOWEST (--min-one-card:\n"
    "flip one card instead). The total is the kept card plus the Aspect (for\n"
    "a skill flip) plus shifts; with --dtn the flip succeeds when the total\n"
    "is at least the DTN.\n"
    "\n"
    "  --aspect A     Aspect added to the kept card (skill flips)\n"
    "  --shift S      flip shift, (shift+S)\n"
    "  --dtn T        Difficulty Target Number; exit status 1 on a failure\n"
    "  --cards LIST   cards flipped by hand at the table: \"KH 10S 4d\"\n"
    "  --seed N       shuffle with this seed (the same seed, the same cards)\n"
    "  --aces low     aces count 1 (default: high, 14)\n"
    "  --jokers K     put K Jokers in the deck (default 0)\n"
    "  --joker-value V  what a Joker is worth (default 15)\n"
    "  --min-one-card   below 1, flip a single card (house rule)\n"
    "  --json         print the flip as JSON\n";

int cmd_flip(int argc, char **argv) {
    cli_opt opts[] = {
        {"aspect", true, NULL, false},    {"shift", true, NULL, false},
        {"dtn", true, NULL, false},       {"cards", true, NULL, false},
        {"seed", true, NULL, false},      {"aces", true, NULL, false},
        {"jokers", true, NULL, false},    {"joker-value", true, NULL, false},
        {"min-one-card", false, NULL, false},
    };
    cli_args args = {"fray flip", opts, (int)(sizeof opts / sizeof opts[0]),
                     {0}, 0, false, false};
    int rc = cli_start(&args, argc, argv, HELP, 1,
                       "exactly one number of cards, N");
    if (rc >= 0)
        return rc;
    cli_flip_args fa;
    if (!cli_flip_args_read(&args, &fa))
        return EXIT_USAGE;
    long n = fa.n, aspect = fa.aspect, shift = fa.shift, dtn = fa.dtn;
    bool has_dtn = fa.has_dtn;
    fray_deck_options deck_opts = fa.deck;
    fray_flip_rules rules = fa.rules;

    fray_deck *deck = NULL;
    if (fray_deck_new(&deck_opts, NULL, &deck) != FRAY_OK) {
        cli_error(&args, "could not make the deck");
        return EXIT_USAGE;
    }
    int n_cards;
    bool keep_lowest;
    fray_flip_plan((int)n, &rules, &n_cards, &keep_lowest);
    if (n_cards > fray_deck_options_size(&deck_opts)) {
        cli_error(&args, "a flip of %ld needs %d cards; the deck has %d", n,
                  n_cards, fray_deck_options_size(&deck_opts));
        fray_deck_free(deck);
        return EXIT_USAGE;
    }

    fray_flip flip;
    uint64_t seed = 0;
    bool seed_given = false;
    cli_opt *cards_opt = cli_get(&args, "cards");
    if (cards_opt->present) {
        fray_card cards[FRAY_CARDS_MAX];
        size_t n_given;
        fray_diag diag = {0};
        if (fray_card_parse_list(cards_opt->value, cards, FRAY_CARDS_MAX,
                                 &n_given, &diag) != FRAY_OK ||
            fray_flip_from_cards(deck, &deck_opts, cards, n_given, (int)n,
                                 &rules, &flip, &diag) != FRAY_OK) {
            if (diag.column > 0)
                cli_error(&args, "--cards, column %d: %s", diag.column,
                          diag.message);
            else
                cli_error(&args, "--cards: %s", diag.message);
            fray_deck_free(deck);
            return EXIT_USAGE;
        }
    } else {
        if (!cli_seed(&args, &seed, &seed_given)) {
            fray_deck_free(deck);
            return EXIT_USAGE;
        }
        fray_rng rng;
        fray_rng_seed(&rng, seed, 0);
        fray_deck_reset(deck, &rng);
        if (fray_flip_draw(deck, &rng, (int)n, &rules, &flip) != FRAY_OK) {
            cli_error(&args, "not enough cards in the deck");
            fray_deck_free(deck);
            return EXIT_USAGE;
        }
    }
    fray_deck_free(deck);

    int total = flip.kept_value + (int)aspect + (int)shift;
    bool success = total >= dtn;
    char buf[16];
    if (args.json) {
        json_out j;
        json_init(&j, stdout);
        json_begin_object(&j);
        json_kv_int(&j, "n", n);
        json_kv_string(&j, "keep", flip.keep_lowest ? "lowest" : "highest");
        json_key(&j, "cards");
        json_begin_array(&j);
        for (int i = 0; i < flip.n_cards; i++)
            json_string(&j,
                        fray_card_format(flip.cards[i], FRAY_CARD_PLAIN, buf));
        json_end_array(&j);
        json_kv_string(&j, "kept", fray_card_format(flip.cards[flip.kept],
                                                    FRAY_CARD_PLAIN, buf));
        json_kv_int(&j, "kept_value", flip.kept_value);
        json_kv_int(&j, "aspect", aspect);
        json_kv_int(&j, "shift", shift);
        json_kv_int(&j, "total", total);
        json_kv_int(&j, "hearts", flip.hearts);
        if (has_dtn) {
            json_kv_int(&j, "dtn", dtn);
            json_kv_bool(&j, "success", success);
        }
        if (!cards_opt->present) {
            json_kv_u64(&j, "seed", seed);
        }
        json_end_object(&j);
        json_finish(&j);
    } else {
        printf("Flip %ld: %d card%s, keep the %s\n", n, flip.n_cards,
               flip.n_cards == 1 ? "" : "s",
               flip.keep_lowest ? "lowest" : "highest");
        printf("  cards   ");
        for (int i = 0; i < flip.n_cards; i++)
            printf("%s%s", i ? "  " : "",
                   fray_card_format(flip.cards[i], FRAY_CARD_PRETTY, buf));
        printf("\n  kept    %s (%d)\n",
               fray_card_format(flip.cards[flip.kept], FRAY_CARD_PRETTY, buf),
               flip.kept_value);
        printf("  total   %d", flip.kept_value);
        if (aspect)
            printf(" + Aspect %ld", aspect);
        if (shift)
            printf(" %s shift %ld", shift < 0 ? "-" : "+", shift < 0 ? -shift : shift);
        if (aspect || shift)
            printf(" = %d", total);
        printf("\n");
        printf("  Hearts  %d\n", flip.hearts);
        if (has_dtn)
            printf("  DTN %ld  %s (by %d)\n", dtn,
                   success ? "success" : "FAILURE",
                   success ? total - (int)dtn : (int)dtn - total);
        if (!cards_opt->present) {
            if (seed_given)
                printf("  seed    %llu\n", (unsigned long long)seed);
            else
                printf("  seed    %llu (repeat with --seed %llu)\n",
                       (unsigned long long)seed, (unsigned long long)seed);
        }
    }
    return has_dtn && !success ? EXIT_CHECK_FAILED : EXIT_OK;
}
