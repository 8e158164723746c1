/* cmd_roll.c - `fray roll`: roll a dice expression. */
#include "cli.h"

#include <stdlib.h>

static const char HELP[] =
    "usage: fray roll EXPR [--weapon W] [--vs T] [--seed N] [--json]\n"
    "\n"
    "Rolls a dice expression and shows every die (docs/rules/dice.md).\n"
    "\n"
    "  3d6, d20+5      N dice of S sides, plus or minus constants\n"
    "  4d6kh3, 2d20kl1 keep the highest (kh) or lowest (kl) dice\n"
    "  4d6dl1, 4d6dh1  drop the lowest (dl) or highest (dh) dice\n"
    "  1d6!, 1d6!5     an exploding die: its highest face rolls again and\n"
    "                  adds, at most 2 more rolls (or the number after !)\n"
    "  2d6r1, 2d6r<3   reroll once a die that shows 1 (that is below 3)\n"
    "  5d10>=8         count the dice showing 8 or more (also > < <= =)\n"
    "  4dF, d%         Fudge dice (-1, 0, +1), a d100\n"
    "  (1d6+1)*2, 3d6/2  products, divisions (rounding toward zero) and\n"
    "                  parentheses\n"
    "  1d20+5>=15, (2d6)>7  a comparison of totals: 1 when it holds, else 0\n"
    "  4D+2            a D6 die code with pips\n"
    "  4D!+2           the same with a Wild Die: a 6 adds and rolls again,\n"
    "                  a first 1 removes itself and the highest other die\n"
    "  2{W}+3          weapon dice rolled twice, then +3 (with --weapon 1d8)\n"
    "  2{1d8}+3        the same with the weapon written inline\n"
    "\n"
    "  --weapon W      what W stands for in X{W}\n"
    "  --vs T          succeed when the total is at least T (exit status 1\n"
    "                  when it is not)\n"
    "  --seed N        roll with this seed (the same seed, the same dice)\n"
    "  --json          print the roll as JSON\n";

static void print_die(const fray_die_roll *d) {
    if (d->flags & FRAY_DIE_NEGATIVE)
        printf("-");
    if (d->flags & FRAY_DIE_EXPLODED)
        printf("+"); /* added to the die before it */
    if (d->flags & FRAY_DIE_REROLLED)
        printf("(%d rerolled)", d->value);
    else if ((d->flags & FRAY_DIE_SUCCESS) && (d->flags & FRAY_DIE_DROPPED))
        printf("[%d]", d->value);
    else if (d->flags & FRAY_DIE_SUCCESS)
        printf("%d\u2713", d->value);
    else if (d->flags & FRAY_DIE_REMOVED)
        printf("(%d%s removed)", d->value, d->flags & FRAY_DIE_WILD ? "*" : "");
    else if (d->flags & FRAY_DIE_DROPPED)
        printf("[%d]", d->value);
    else if (d->flags & FRAY_DIE_WILD)
        printf("%d*", d->value);
    else
        printf("%d", d->value);
}

int cmd_roll(int argc, char **argv) {
    cli_opt opts[] = {
        {"weapon", true, NULL, false},
        {"vs", true, NULL, false},
        {"seed", true, NULL, false},
    };
    cli_args args = {"fray roll", opts, (int)(sizeof opts / sizeof opts[0]),
                     {0}, 0, false, false};
    int rc = cli_start(&args, argc, argv, HELP, 1,
                       "exactly one dice expression (quote it if it has "
                       "spaces)");
    if (rc >= 0)
        return rc;
    long vs = 0;
    if (!cli_int_opt(&args, "vs", -1000000000L, 1000000000L, &vs))
        return EXIT_USAGE;
    bool has_vs = cli_get(&args, "vs")->present;
    fray_dice *dice = NULL;
    if (!cli_dice(&args, NULL, args.pos[0], true, &dice))
        return EXIT_USAGE;
    uint64_t seed;
    bool seed_given;
    if (!cli_seed(&args, &seed, &seed_given)) {
        fray_dice_free(dice);
        return EXIT_USAGE;
    }
    fray_rng rng;
    fray_rng_seed(&rng, seed, 0);
    fray_roll roll;
    fray_roll_init(&roll, NULL);
    if (fray_dice_roll(dice, &rng, &roll) != FRAY_OK) {
        cli_error(&args, "out of memory");
        fray_roll_free(&roll);
        fray_dice_free(dice);
        return EXIT_USAGE;
    }
    char *canon = cli_dice_text(dice);
    if (!canon) {
        cli_error(&args, "out of memory");
        fray_roll_free(&roll);
        fray_dice_free(dice);
        return EXIT_USAGE;
    }
    bool is_d20 = fray_dice_is_d20(dice);
    bool success = roll.total >= vs;

    if (args.json) {
        json_out j;
        json_init(&j, stdout);
        json_begin_object(&j);
        json_kv_string(&j, "expression", canon);
        json_kv_int(&j, "total", (long long)roll.total);
        json_key(&j, "dice");
        json_begin_array(&j);
        for (size_t i = 0; i < roll.n_dice; i++) {
            const fray_die_roll *d = &roll.dice[i];
            json_begin_object(&j);
            json_kv_int(&j, "sides", d->sides);
            json_kv_int(&j, "value", d->value);
            json_kv_bool(&j, "kept", !(d->flags & (FRAY_DIE_DROPPED | FRAY_DIE_REMOVED |
                                                   FRAY_DIE_REROLLED)));
            json_kv_bool(&j, "wild", (d->flags & FRAY_DIE_WILD) != 0);
            json_kv_bool(&j, "removed", (d->flags & FRAY_DIE_REMOVED) != 0);
            json_kv_bool(&j, "subtracted", (d->flags & FRAY_DIE_NEGATIVE) != 0);
            /* issue 15's notation: only the keys its dice can have */
            if (d->flags & FRAY_DIE_REROLLED)
                json_kv_bool(&j, "rerolled", true);
            if (d->flags & FRAY_DIE_EXPLODED)
                json_kv_bool(&j, "exploded", true);
            if (d->flags & FRAY_DIE_SUCCESS)
                json_kv_bool(&j, "success", true);
            json_end_object(&j);
        }
        json_end_array(&j);
        if (is_d20) {
            json_kv_int(&j, "natural", roll.natural);
        }
        if (fray_dice_has_wild(dice)) {
            json_kv_bool(&j, "wild_one", roll.wild_one);
            json_kv_int(&j, "wild_explosions", roll.wild_explosions);
        }
        if (has_vs) {
            json_kv_int(&j, "vs", vs);
            json_kv_bool(&j, "success", success);
        }
        json_kv_u64(&j, "seed", seed);
        json_end_object(&j);
        json_finish(&j);
    } else {
        printf("%s = %lld\n", canon, (long long)roll.total);
        printf("  dice    ");
        for (size_t i = 0; i < roll.n_dice; i++) {
            if (i)
                printf(" ");
            print_die(&roll.dice[i]);
        }
        printf("\n");
        if (is_d20 && (roll.natural == 1 || roll.natural == 20))
            printf("  natural %d\n", roll.natural);
        if (fray_dice_has_wild(dice)) {
            if (roll.wild_one)
                printf("  Wild Die (*): a 1 - it and the highest other die are "
                       "removed\n");
            else if (roll.wild_explosions > 0)
                printf("  Wild Die: %d six%s, rolled again (* marks its rolls)\n",
                       roll.wild_explosions,
                       roll.wild_explosions == 1 ? "" : "es");
        }
        if (has_vs)
            printf("  vs %ld   %s\n", vs, success ? "success" : "FAILURE");
        if (seed_given)
            printf("  seed    %llu\n", (unsigned long long)seed);
        else
            printf("  seed    %llu (repeat with --seed %llu)\n",
                   (unsigned long long)seed, (unsigned long long)seed);
    }
    free(canon);
    fray_roll_free(&roll);
    fray_dice_free(dice);
    return has_vs && !success ? EXIT_CHECK_FAILED : EXIT_OK;
}
