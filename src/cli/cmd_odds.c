/* cmd_odds.c - `fray odds`: exact odds of flips, attacks, opposed flips,
 * dice rolls and 99 Towers duels. */
#include "cli.h"

#include "fray/duel.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char HELP[] =
    "usage: fray odds flip N [--aspect A] [--shift S] [--dtn T]\n"
    "       fray odds attack A D [--attack-shift S] [--defense-shift S]\n"
    "                        [--shared-deck] [--damage X --resilience R]\n"
    "                        [--susceptible | --immune]\n"
    "       fray odds attack --encounter F --attacker ID --defender ID\n"
    "                        [--weapon W] [--power-attack] [-C DIR]\n"
    "       fray odds opposed A B [--aspect X] [--opposing-aspect Y]\n"
    "                        [--shift S] [--opposing-shift S] [--shared-deck]\n"
    "       fray odds roll EXPR [--vs T] [--weapon W] [--vs-roll EXPR]\n"
    "                        [--report FILE.svg|FILE.html]\n"
    "       fray odds roll d20+B --attack --vs DEFENSE [--damage EXPR]\n"
    "                        [--crit-dice EXPR] [--crit-min N] [--weapon W]\n"
    "       fray odds d6 CODE [--vs T | --vs-roll CODE] [--modifiers M] ...\n"
    "       fray odds d6 --damage CODE --resistance CODE [--health H] ...\n"
    "       fray odds duel ENCOUNTER.yaml [--max-states N] [-C DIR]\n"
    "                        [--no-hand-of-fate] [--no-chips] [--exact]\n"
    "       fray odds duel A.yaml B.yaml [--a NAME] [--b NAME]\n"
    "                        [--tactics-a PRESET] [--tactics-b PRESET]\n"
    "                        [--max-states N] [-C DIR]\n"
    "\n"
    "Exact odds, computed by counting every equally likely outcome (never by\n"
    "sampling). Card commands also take --aces high|low, --jokers 0-2,\n"
    "--joker-value V and --min-one-card. Every command takes --json, which\n"
    "gives each probability exactly as {\"num\": .., \"den\": .., \"p\": ..}.\n"
    "\n"
    "  flip     the kept card, the total, the Hearts and success against a DTN\n"
    "           for a flip of N cards (a rank plus its flip mods)\n"
    "  attack   an attack flip of A cards against a defense flip of D cards:\n"
    "           hit, critical hit (a hit with a Heart), Hearts on a hit, and\n"
    "           with --damage the STUN and LETHAL dealt. Each side flips from\n"
    "           its own fresh deck unless --shared-deck. With --encounter\n"
    "           the ranks, every modifier (named), the damage and the\n"
    "           Resilience come from the file, at the fight's start; an Alloy\n"
    "           file gives the d20 attack's table (as odds roll --attack).\n"
    "  opposed  an opposed skill flip of A cards (the initiator) against B\n"
    "           cards, each adding its Aspect; ties go to the higher Aspect,\n"
    "           then the initiator\n"
    "  roll     a dice expression's distribution (exactly, at least, at most),\n"
    "           mean, standard deviation and P(total >= T), counted exactly\n"
    "           however many outcomes (\"100d6\"); --vs-roll puts a second\n"
    "           expression beside it with P(A > B); --report draws the chart;\n"
    "           with --attack a d20 attack: a natural 1 misses, a natural 20\n"
    "           hits, a critical hit deals the damage's maximum\n"
    "  d6       a D6 die code against a difficulty, a defense roll or GM-rolled\n"
    "           modifiers, or damage against resistance (fray odds d6 --help)\n"
    "  duel     who wins a duel of two combatants toe to toe, and how long\n"
    "           it lasts (99 Towers: in phases, by a Markov chain over their\n"
    "           STUN, LETHAL and places on the Combat Clock; Alloy: in\n"
    "           rounds, by a chain driven by their tactics). Either an\n"
    "           encounter of exactly two combatants, or two stat-block files\n"
    "           (--a / --b name the stat block when a file holds several;\n"
    "           tactics presets default to attack). Each flip comes from a\n"
    "           fresh deck; no Hand of Fate (a file that gives one is\n"
    "           refused: the chain cannot count every hand; --no-hand-of-fate\n"
    "           leaves it out and says so), no chips (likewise: --no-chips),\n"
    "           no movement, no formal\n"
    "           duel (a file's duel: key is refused). A duel\n"
    "           whose chain would pass --max-states states (default\n"
    "           100000000: about a minute) is refused with its size.\n"
    "           The chain sums doubles; --exact counts it again\n"
    "           with exact fractions, which only a small chain allows\n"
    "           (default bound 50000 states); --json gives them whenever\n"
    "           the chain is that small, and says why not when it is not.\n";

/* Labels a card value as the rules name it: "13 (K)". */
static const char *value_label(int v, const fray_deck_options *deck,
                               char buf[16]) {
    const char *face = NULL;
    if (v == 11)
        face = "J";
    else if (v == 12)
        face = "Q";
    else if (v == 13)
        face = "K";
    else if ((v == 14 && !deck->aces_low) || (v == 1 && deck->aces_low))
        face = "A";
    if (deck->jokers > 0 && v == deck->joker_value)
        face = face ? "K/Jkr" : "Joker";
    if (face)
        snprintf(buf, 16, "%d %s", v, face);
    else
        snprintf(buf, 16, "%d", v);
    return buf;
}

static void describe_deck(const fray_deck_options *deck,
                          const fray_flip_rules *rules) {
    printf("(%d-card deck, aces %s", fray_deck_options_size(deck),
           deck->aces_low ? "low" : "high");
    if (deck->jokers)
        printf(", Jokers worth %d", deck->joker_value);
    if (rules->min_one_card)
        printf(", min-one-card");
    printf(")\n");
}

static void json_deck(json_out *j, const fray_deck_options *deck,
                      const fray_flip_rules *rules) {
    json_key(j, "deck");
    json_begin_object(j);
    json_kv_int(j, "cards", fray_deck_options_size(deck));
    json_kv_string(j, "aces", deck->aces_low ? "low" : "high");
    json_kv_int(j, "jokers", deck->jokers);
    json_kv_int(j, "joker_value", deck->joker_value);
    json_kv_bool(j, "min_one_card", rules->min_one_card);
    json_end_object(j);
}

static void json_entry(json_out *j, const char *key, long long v,
                       fray_ratio r) {
    json_begin_object(j);
    json_key(j, key);
    json_int(j, v);
    json_ratio_fields(j, r);
    json_end_object(j);
}

static bool ratio_is_zero(fray_ratio r) {
    return r.num.hi == 0 && r.num.lo == 0;
}

/* Explains why the card odds could not be worked out. The options were
 * checked when read, so FRAY_ERR_RANGE means the flips need more cards
 * than the deck holds: say how many. n2 < 0 for a single flip. */
static int odds_error(cli_args *args, fray_status st, int n1, int n2,
                      bool shared, const fray_deck_options *deck,
                      const fray_flip_rules *rules) {
    int c1, c2 = 0, size = fray_deck_options_size(deck);
    bool low;
    fray_flip_plan(n1, rules, &c1, &low);
    if (n2 >= -FRAY_CARDS_MAX)
        fray_flip_plan(n2, rules, &c2, &low);
    if (st != FRAY_ERR_RANGE)
        cli_error(args, "cannot work out these odds: %s", fray_strerror(st));
    else if (shared)
        cli_error(args, "the two flips turn over %d + %d = %d cards, more "
                        "than one shared %d-card deck holds", c1, c2, c1 + c2,
                  size);
    else
        cli_error(args, "a flip of %d cards needs more than the %d cards of "
                        "a deck", c1 > c2 ? c1 : c2, size);
    return EXIT_USAGE;
}

/* ---- odds flip ---------------------------------------------------------- */

static int odds_flip(int argc, char **argv) {
    cli_opt opts[] = {
        {"aspect", true, NULL, false},       {"shift", true, NULL, false},
        {"dtn", true, NULL, false},          {"aces", true, NULL, false},
        {"jokers", true, NULL, false},       {"joker-value", true, NULL, false},
        {"min-one-card", false, NULL, false},
    };
    cli_args args = {"fray odds flip", opts,
                     (int)(sizeof opts / sizeof opts[0]), {0}, 0, false, false};
    int rc = cli_start(&args, argc, argv, HELP, 1,
                       "exactly one number of cards, N");
    if (rc >= 0)
        return rc;
    cli_flip_args fa;
    if (!cli_flip_args_read(&args, &fa))
        return EXIT_USAGE;
    long n = fa.n, aspect = fa.aspect, shift = fa.shift, dtn = fa.dtn;
    bool has_dtn = fa.has_dtn;
    fray_deck_options deck = fa.deck;
    fray_flip_rules rules = fa.rules;
    fray_flip_odds odds;
    fray_status st = fray_odds_flip(&deck, (int)n, &rules, &odds);
    if (st != FRAY_OK)
        return odds_error(&args, st, (int)n, INT_MIN, false, &deck, &rules);
    int bonus = (int)(aspect + shift);
    int max_hearts = odds.n_cards < FRAY_HEARTS_MAX ? odds.n_cards : FRAY_HEARTS_MAX;
    char buf[16], rbuf[84];

    if (args.json) {
        json_out j;
        json_init(&j, stdout);
        json_begin_object(&j);
        json_kv_int(&j, "n", n);
        json_kv_int(&j, "cards", odds.n_cards);
        json_kv_string(&j, "keep", odds.keep_lowest ? "lowest" : "highest");
        json_kv_int(&j, "aspect", aspect);
        json_kv_int(&j, "shift", shift);
        json_deck(&j, &deck, &rules);
        json_key(&j, "kept");
        json_begin_array(&j);
        for (int v = 0; v <= FRAY_CARD_VALUE_MAX; v++) {
            fray_ratio r = fray_flip_odds_value(&odds, v);
            if (!ratio_is_zero(r))
                json_entry(&j, "value", v, r);
        }
        json_end_array(&j);
        json_key(&j, "total");
        json_begin_array(&j);
        for (int v = 0; v <= FRAY_CARD_VALUE_MAX; v++) {
            fray_ratio r = fray_flip_odds_value(&odds, v);
            if (!ratio_is_zero(r))
                json_entry(&j, "total", v + bonus, r);
        }
        json_end_array(&j);
        json_key(&j, "hearts");
        json_begin_array(&j);
        for (int h = 0; h <= max_hearts; h++)
            json_entry(&j, "hearts", h, fray_flip_odds_hearts(&odds, h));
        json_end_array(&j);
        json_key(&j, "joint");
        json_begin_array(&j);
        for (int v = 0; v <= FRAY_CARD_VALUE_MAX; v++)
            for (int h = 0; h <= max_hearts; h++) {
                fray_ratio r = fray_flip_odds_joint(&odds, v, h);
                if (ratio_is_zero(r))
                    continue;
                json_begin_object(&j);
                json_kv_int(&j, "value", v);
                json_kv_int(&j, "hearts", h);
                json_ratio_fields(&j, r);
                json_end_object(&j);
            }
        json_end_array(&j);
        if (has_dtn) {
            json_kv_int(&j, "dtn", dtn);
            json_kv_ratio(&j, "p_success",
                          fray_flip_odds_success(&odds, bonus, (int)dtn));
        }
        json_end_object(&j);
        json_finish(&j);
        return EXIT_OK;
    }

    printf("Flip %ld: %d card%s, keep the %s ", n, odds.n_cards,
           odds.n_cards == 1 ? "" : "s", odds.keep_lowest ? "lowest" : "highest");
    describe_deck(&deck, &rules);
    printf("Total = kept card");
    if (aspect)
        printf(" + Aspect %ld", aspect);
    if (shift)
        printf(" %s shift %ld", shift < 0 ? "-" : "+", shift < 0 ? -shift : shift);
    printf("\n\n");
    double top = 0;
    for (int v = 0; v <= FRAY_CARD_VALUE_MAX; v++) {
        double p = fray_ratio_to_double(fray_flip_odds_value(&odds, v));
        if (p > top)
            top = p;
    }
    printf("  %-9s %5s %24s %7s  %8s\n", "kept", "total", "exactly", "",
           "at least");
    for (int v = 0; v <= FRAY_CARD_VALUE_MAX; v++) {
        fray_ratio r = fray_flip_odds_value(&odds, v);
        if (ratio_is_zero(r))
            continue;
        printf("  %-9s %5d %24s ", value_label(v, &deck, buf), v + bonus,
               fray_ratio_format(r, rbuf));
        out_percent(stdout, fray_ratio_to_double(r));
        printf("  ");
        out_percent(stdout, fray_ratio_to_double(fray_flip_odds_success(
                                &odds, bonus, v + bonus)));
        printf("  ");
        out_bar(stdout, top > 0 ? fray_ratio_to_double(r) / top : 0, 30);
        printf("\n");
    }
    printf("\nHearts among the %d card%s\n", odds.n_cards,
           odds.n_cards == 1 ? "" : "s");
    for (int h = 0; h <= max_hearts; h++) {
        fray_ratio r = fray_flip_odds_hearts(&odds, h);
        printf("  %-15d ", h);
        out_prob_row(stdout, r, 1.0);
    }
    printf("\nKept card and Hearts together (percent)\n  %-9s", "kept");
    for (int h = 0; h <= max_hearts; h++)
        printf(" %6d\xe2\x99\xa5", h);
    printf("\n");
    for (int v = 0; v <= FRAY_CARD_VALUE_MAX; v++) {
        if (ratio_is_zero(fray_flip_odds_value(&odds, v)))
            continue;
        printf("  %-9s", value_label(v, &deck, buf));
        for (int h = 0; h <= max_hearts; h++) {
            double p = fray_ratio_to_double(fray_flip_odds_joint(&odds, v, h));
            if (p == 0)
                printf(" %7s", "-");
            else
                printf(" %7.3f", p * 100);
        }
        printf("\n");
    }
    if (has_dtn) {
        fray_ratio s = fray_flip_odds_success(&odds, bonus, (int)dtn);
        printf("\nSuccess against DTN %ld (total >= %ld): %s = %.2f%%\n", dtn,
               dtn, fray_ratio_format(s, rbuf), 100 * fray_ratio_to_double(s));
    }
    return EXIT_OK;
}

/* ---- odds attack ------------------------------------------------------- */

static int attack_table(cli_args *argsp, const fray_attack_query *qp,
                        bool has_damage, long damage, long resilience,
                        fray_towers_affinity affinity,
                        const fray_enc_attack *enc, const fray_setup *setup);

/* An encounter's attack: who strikes whom with what, each modifier with
 * its reason, the damage's parts. */
static void enc_print(const fray_enc_attack *e, const fray_setup *setup) {
    printf("%s attacks %s with %s%s (%s, at the fight's start)\n",
           fray_setup_combatant_name(setup, e->attacker),
           fray_setup_combatant_name(setup, e->defender), e->weapon_name,
           e->power ? ", a Power Attack" : "", fray_setup_name(setup));
    for (int def = 0; def < 2; def++) {
        int n = 0;
        printf("%s flip: %s %d", def ? "Defense" : "Attack",
               def ? e->defense_rank_name : e->attack_rank_name,
               def ? e->defense_rank : e->attack_rank);
        for (int i = 0; i < e->n_mods; i++) {
            const fray_enc_mod *m = &e->mods[i];
            if (m->defense != (def == 1))
                continue;
            printf("%s", n++ ? "\n" : "\n");
            printf("  %-20s", m->why);
            if (m->flip)
                printf(" (flip%+d)", m->flip);
            if (m->shift)
                printf(" (shift%+d)", m->shift);
        }
        if (!n)
            printf(", no modifiers");
        printf("\n");
    }
    if (e->has_damage) {
        printf("Damage %d =", e->damage);
        for (int i = 0; i < e->n_damage_parts; i++)
            printf("%s%d %s", i ? " + " : " ", e->damage_parts[i].value,
                   e->damage_parts[i].why);
        printf("; against %s %d\n", e->resilience_name, e->resilience);
    } else
        printf("Damage: not shown, it depends on the GM's call (an improvised "
               "weapon's strength)\n");
    printf("Not counted: the Hand of Fate and chips; %s.\n\n",
           e->query.shared_deck ? "both flip from one deck (the defense from "
                                  "what the attack left)"
                                : "each flip from a fresh deck");
}

static void enc_json(json_out *j, const fray_enc_attack *e,
                     const fray_setup *setup) {
    json_kv_string(j, "encounter", fray_setup_name(setup));
    for (int k = 0; k < 2; k++) {
        int c = k ? e->defender : e->attacker;
        json_key(j, k ? "defender" : "attacker");
        json_begin_object(j);
        json_kv_string(j, "id", fray_setup_combatant_id(setup, c));
        json_kv_string(j, "name", fray_setup_combatant_name(setup, c));
        json_kv_string(j, "rank", k ? e->defense_rank_name : e->attack_rank_name);
        json_kv_int(j, "rank_value", k ? e->defense_rank : e->attack_rank);
        json_end_object(j);
    }
    json_kv_string(j, "weapon", e->weapon_name);
    json_kv_bool(j, "power_attack", e->power);
    json_key(j, "modifiers");
    json_begin_array(j);
    for (int i = 0; i < e->n_mods; i++) {
        json_begin_object(j);
        json_kv_string(j, "flip", e->mods[i].defense ? "defense" : "attack");
        json_kv_string(j, "why", e->mods[i].why);
        json_kv_int(j, "flip_mod", e->mods[i].flip);
        json_kv_int(j, "shift", e->mods[i].shift);
        json_end_object(j);
    }
    json_end_array(j);
    if (e->has_damage) {
        json_key(j, "damage_parts");
        json_begin_array(j);
        for (int i = 0; i < e->n_damage_parts; i++) {
            json_begin_object(j);
            json_kv_string(j, "why", e->damage_parts[i].why);
            json_kv_int(j, "value", e->damage_parts[i].value);
            json_end_object(j);
        }
        json_end_array(j);
        json_kv_string(j, "resilience_kind", e->resilience_name);
    }
    json_kv_string(j, "assumed", e->query.shared_deck
                                     ? "no Hand of Fate or chips; one shared deck"
                                     : "no Hand of Fate or chips; each flip from "
                                       "a fresh deck");
}

static void print_dist(const fray_dist *dist);
static void json_dist(json_out *j, const fray_dist *dist);

/* Alloy's attack from an encounter: the line and its modifiers by name,
 * then the d20 attack's odds as `fray odds roll d20+B --attack --vs D
 * --damage X` gives them. */
static int alloy_attack_encounter(cli_args *args, fray_setup *setup,
                                  const int who[2]) {
    const void *as = fray_setup_ruleset_data(setup);
    int weapon = -1;
    cli_opt *ow = cli_get(args, "weapon");
    if (ow->present) {
        weapon = fray_alloy_enc_weapon(as, who[0], ow->value);
        if (weapon < 0) {
            cli_error(args, "%s has no weapon called '%s'",
                      fray_setup_combatant_name(setup, who[0]), ow->value);
            return EXIT_USAGE;
        }
    }
    if (cli_get(args, "power-attack")->present) {
        cli_error(args, "--power-attack is 99 Towers'; %s has none",
                  fray_setup_title(setup));
        return EXIT_USAGE;
    }
    fray_alloy_enc_attack e;
    fray_diag diag;
    fray_status st = fray_alloy_attack_from(as, who[0], who[1], weapon, &e, &diag);
    if (st != FRAY_OK) {
        cli_error(args, "%s", diag.message[0] ? diag.message : fray_strerror(st));
        return EXIT_USAGE;
    }
    fray_dice *damage = NULL, *crit = NULL;
    memset(&diag, 0, sizeof diag);
    if (e.damage[0])
        st = fray_dice_parse(e.damage, NULL, NULL, &damage, &diag);
    if (st == FRAY_OK && e.crit_dice[0])
        st = fray_dice_parse(e.crit_dice, NULL, NULL, &crit, &diag);
    fray_d20_attack_query q;
    q.bonus = e.bonus;
    q.defense = e.defense;
    q.crit_min = e.crit_min;
    q.damage = damage;
    q.crit_dice = crit;
    fray_d20_attack_odds odds;
    memset(&odds, 0, sizeof odds);
    if (st == FRAY_OK)
        st = fray_odds_d20_attack(&q, NULL, &odds);
    if (st != FRAY_OK) {
        fray_dice_free(damage);
        fray_dice_free(crit);
        cli_error(args, "cannot work out this attack: %s", fray_strerror(st));
        return EXIT_USAGE;
    }
    const char *an = fray_setup_combatant_name(setup, who[0]);
    const char *dn = fray_setup_combatant_name(setup, who[1]);
    if (args->json) {
        json_out j;
        json_init(&j, stdout);
        json_begin_object(&j);
        json_kv_string(&j, "encounter", fray_setup_name(setup));
        json_kv_string(&j, "attacker", fray_setup_combatant_id(setup, who[0]));
        json_kv_string(&j, "defender", fray_setup_combatant_id(setup, who[1]));
        json_kv_string(&j, "weapon", e.weapon_name);
        json_kv_int(&j, "line_bonus", e.line_bonus);
        json_kv_int(&j, "bonus", q.bonus);
        json_kv_string(&j, "defense_kind", e.defense_name);
        json_kv_int(&j, "base_defense", e.base_defense);
        json_kv_int(&j, "defense", e.defense);
        json_key(&j, "modifiers");
        json_begin_array(&j);
        for (int i = 0; i < e.n_mods; i++) {
            json_begin_object(&j);
            json_kv_string(&j, "on", e.mods[i].defense ? "defense" : "attack");
            json_kv_string(&j, "why", e.mods[i].why);
            json_kv_int(&j, "value", e.mods[i].value);
            json_end_object(&j);
        }
        json_end_array(&j);
        json_kv_int(&j, "crit_min", q.crit_min);
        json_kv_ratio(&j, "p_hit", odds.p_hit);
        json_kv_ratio(&j, "p_crit", odds.p_crit);
        if (odds.has_damage) {
            json_kv_string(&j, "damage_expression", e.damage);
            json_key(&j, "damage");
            json_dist(&j, &odds.damage);
            json_kv_ratio(&j, "mean_damage", odds.damage.mean);
        }
        json_end_object(&j);
        json_finish(&j);
    } else {
        printf("%s attacks %s with %s (%s, at the fight's start)\n", an, dn,
               e.weapon_name[0] ? e.weapon_name : "an unarmed strike",
               fray_setup_name(setup));
        printf("Attack: d20%+d", e.line_bonus);
        for (int i = 0; i < e.n_mods; i++)
            if (!e.mods[i].defense)
                printf("\n  %-24s %+d", e.mods[i].why, e.mods[i].value);
        if (e.proficiency_lost)
            printf("\n  (not proficient: without the weapon's %+d)",
                   e.proficiency_lost);
        printf("\n%s: %d", e.defense_name, e.base_defense);
        for (int i = 0; i < e.n_mods; i++)
            if (e.mods[i].defense)
                printf("\n  %-24s %+d", e.mods[i].why, e.mods[i].value);
        printf("\n\nd20%+d against %s %d\n", q.bonus, e.defense_name, q.defense);
        printf("(a natural 1 misses, a natural 20 hits; a natural ");
        if (q.crit_min < 20)
            printf("%d-20", q.crit_min);
        else
            printf("20");
        printf(" that would hit anyway is a critical hit)\n\n");
        printf("  %-15s ", "hit");
        out_prob_row(stdout, odds.p_hit, 1.0);
        printf("  %-15s ", "critical hit");
        out_prob_row(stdout, odds.p_crit, 1.0);
        printf("  %-15s ", "miss");
        out_prob_row(stdout, fray_ratio_one_minus(odds.p_hit), 1.0);
        if (odds.has_damage) {
            char rbuf[84];
            printf("\nDamage per attack (%s; a miss deals 0, a critical hit "
                   "the maximum)\n", e.damage);
            print_dist(&odds.damage);
            printf("  mean %.4f (%s)\n", fray_ratio_to_double(odds.damage.mean),
                   fray_ratio_format(odds.damage.mean, rbuf));
        }
    }
    fray_d20_attack_odds_free(&odds);
    fray_dice_free(damage);
    fray_dice_free(crit);
    return EXIT_OK;
}

/* fray odds attack --encounter F --attacker ID --defender ID [--weapon W]
 * [--power-attack]. */
static int odds_attack_encounter(cli_args *args) {
    static const char *const by_hand[] = {
        "attack-shift", "defense-shift", "shared-deck", "damage",
        "resilience",   "susceptible",   "immune",      "aces",
        "jokers",       "joker-value",   "min-one-card"};
    for (size_t i = 0; i < sizeof by_hand / sizeof by_hand[0]; i++)
        if (cli_get(args, by_hand[i])->present) {
            cli_error(args, "--%s is for numbers given by hand; with "
                            "--encounter the file gives it", by_hand[i]);
            return EXIT_USAGE;
        }
    if (args->n_pos != 0) {
        cli_error(args, "with --encounter the file gives the ranks: no A D "
                        "(got '%s')", args->pos[0]);
        return EXIT_USAGE;
    }
    cli_opt *oa = cli_get(args, "attacker"), *od = cli_get(args, "defender");
    if (!oa->present || !od->present) {
        cli_error(args, "--encounter needs --attacker ID and --defender ID");
        return EXIT_USAGE;
    }
    fray_setup *setup = NULL;
    int rc = cli_load_encounter(args, cli_get(args, "encounter")->value, &setup);
    if (rc >= 0)
        return rc;
    bool alloy = strcmp(fray_setup_rules(setup), "alloy") == 0;
    if (!alloy && strcmp(fray_setup_rules(setup), "towers") != 0) {
        cli_error(args, "odds of an attack from an encounter are built for 99 "
                        "Towers and Alloy; this file is %s",
                  fray_setup_title(setup));
        fray_setup_free(setup);
        return EXIT_USAGE;
    }
    int who[2] = {-1, -1};
    const char *ids[2] = {oa->value, od->value};
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < fray_setup_combatants(setup); i++)
            if (strcmp(fray_setup_combatant_id(setup, i), ids[k]) == 0)
                who[k] = i;
        if (who[k] < 0) {
            fprintf(stderr, "%s: no combatant '%s' in %s (", args->command,
                    ids[k], fray_setup_name(setup));
            for (int i = 0; i < fray_setup_combatants(setup); i++)
                fprintf(stderr, "%s%s", i ? ", " : "",
                        fray_setup_combatant_id(setup, i));
            fprintf(stderr, ")\n");
            fray_setup_free(setup);
            return EXIT_USAGE;
        }
    }
    if (alloy) {
        rc = alloy_attack_encounter(args, setup, who);
        fray_setup_free(setup);
        return rc;
    }
    const fray_towers_setup *ts = fray_setup_ruleset_data(setup);
    int weapon = -1;
    cli_opt *ow = cli_get(args, "weapon");
    if (ow->present) {
        weapon = fray_towers_enc_weapon(ts, who[0], ow->value);
        if (weapon < 0) {
            cli_error(args, "%s has no weapon called '%s'",
                      fray_setup_combatant_name(setup, who[0]), ow->value);
            fray_setup_free(setup);
            return EXIT_USAGE;
        }
    }
    fray_enc_attack *e = malloc(sizeof *e);
    if (!e) {
        fray_setup_free(setup);
        cli_error(args, "out of memory");
        return EXIT_USAGE;
    }
    fray_diag diag;
    fray_status st = fray_towers_enc_attack(
        ts, who[0], who[1], weapon, cli_get(args, "power-attack")->present, e,
        &diag);
    if (st != FRAY_OK) {
        cli_error(args, "%s", diag.message[0] ? diag.message : fray_strerror(st));
        free(e);
        fray_setup_free(setup);
        return EXIT_USAGE;
    }
    rc = attack_table(args, &e->query, e->has_damage, e->damage, e->resilience,
                      e->affinity, e, setup);
    free(e);
    fray_setup_free(setup);
    return rc;
}

static int odds_attack(int argc, char **argv) {
    cli_opt opts[] = {
        {"attack-shift", true, NULL, false}, {"defense-shift", true, NULL, false},
        {"shared-deck", false, NULL, false}, {"damage", true, NULL, false},
        {"resilience", true, NULL, false},   {"susceptible", false, NULL, false},
        {"immune", false, NULL, false},      {"aces", true, NULL, false},
        {"jokers", true, NULL, false},       {"joker-value", true, NULL, false},
        {"min-one-card", false, NULL, false},
        {"encounter", true, NULL, false},    {"attacker", true, NULL, false},
        {"defender", true, NULL, false},     {"weapon", true, NULL, false},
        {"power-attack", false, NULL, false}, {"C", true, NULL, false},
    };
    cli_args args = {"fray odds attack", opts,
                     (int)(sizeof opts / sizeof opts[0]), {0}, 0, false, false};
    for (int i = 0; i < argc; i++)
        if (strncmp(argv[i], "--encounter", 11) == 0 &&
            (argv[i][11] == '\0' || argv[i][11] == '=')) {
            if (!cli_parse(&args, argc, argv))
                return EXIT_USAGE;
            if (args.help) {
                fputs(HELP, stdout);
                return EXIT_OK;
            }
            return odds_attack_encounter(&args);
        }
    int rc = cli_start(&args, argc, argv, HELP, 2,
                       "the attack's and the defense's number of cards, "
                       "A and D");
    if (rc >= 0)
        return rc;
    if (cli_get(&args, "attacker")->present ||
        cli_get(&args, "defender")->present ||
        cli_get(&args, "weapon")->present ||
        cli_get(&args, "power-attack")->present ||
        cli_get(&args, "C")->present) {
        cli_error(&args, "--attacker, --defender, --weapon, --power-attack "
                         "and -C need --encounter FILE");
        return EXIT_USAGE;
    }
    long a = 0, d = 0, as = 0, ds = 0, damage = 0, resilience = 0;
    if (!cli_int(&args, "A", args.pos[0], -50, FRAY_CARDS_MAX, &a) ||
        !cli_int(&args, "D", args.pos[1], -50, FRAY_CARDS_MAX, &d) ||
        !cli_int_opt(&args, "attack-shift", -50, 50, &as) ||
        !cli_int_opt(&args, "defense-shift", -50, 50, &ds) ||
        !cli_int_opt(&args, "damage", -100, 1000, &damage) ||
        !cli_int_opt(&args, "resilience", -100, 1000, &resilience))
        return EXIT_USAGE;
    bool has_damage = cli_get(&args, "damage")->present;
    if (!has_damage && (cli_get(&args, "resilience")->present ||
                        cli_get(&args, "susceptible")->present ||
                        cli_get(&args, "immune")->present)) {
        cli_error(&args, "--resilience, --susceptible and --immune need "
                         "--damage X (the weapon's damage)");
        return EXIT_USAGE;
    }
    fray_towers_affinity affinity = FRAY_TOWERS_NORMAL;
    if (cli_get(&args, "susceptible")->present && cli_get(&args, "immune")->present) {
        cli_error(&args, "a target cannot be both --susceptible and --immune");
        return EXIT_USAGE;
    }
    if (cli_get(&args, "susceptible")->present)
        affinity = FRAY_TOWERS_SUSCEPTIBLE;
    if (cli_get(&args, "immune")->present)
        affinity = FRAY_TOWERS_IMMUNE;

    fray_attack_query q;
    fray_attack_query_init(&q, (int)a, (int)d);
    q.attack_shift = (int)as;
    q.defense_shift = (int)ds;
    q.shared_deck = cli_get(&args, "shared-deck")->present;
    if (!cli_deck_options(&args, &q.deck, &q.rules))
        return EXIT_USAGE;
    return attack_table(&args, &q, has_damage, damage, resilience, affinity,
                        NULL, NULL);
}

/* The table of `fray odds attack` for query q (and with --damage, the
 * damage); from an encounter (enc, setup), the modifiers by name first and
 * their JSON. */
static int attack_table(cli_args *argsp, const fray_attack_query *qp,
                        bool has_damage, long damage, long resilience,
                        fray_towers_affinity affinity,
                        const fray_enc_attack *enc, const fray_setup *setup) {
    cli_args args = *argsp;
    fray_attack_query q = *qp;
    long a = q.attack_n, d = q.defense_n, as = q.attack_shift,
         ds = q.defense_shift;
    fray_attack_odds odds;
    fray_status st = fray_odds_attack(&q, &odds);
    if (st != FRAY_OK)
        return odds_error(&args, st, (int)a, (int)d, q.shared_deck, &q.deck,
                          &q.rules);
    int a_cards, d_cards;
    bool a_low, d_low;
    fray_flip_plan((int)a, &q.rules, &a_cards, &a_low);
    fray_flip_plan((int)d, &q.rules, &d_cards, &d_low);
    int max_hearts = a_cards < FRAY_HEARTS_MAX ? a_cards : FRAY_HEARTS_MAX;
    fray_ratio p_hit = fray_attack_odds_hit(&odds);
    fray_ratio p_crit = fray_attack_odds_crit(&odds);
    fray_towers_damage_odds dmg;
    if (has_damage)
        fray_odds_towers_damage(&odds, (int)damage, (int)resilience, affinity,
                                &dmg);
    static const char *const affinity_name[] = {"normal", "immune",
                                                "susceptible"};

    if (args.json) {
        json_out j;
        json_init(&j, stdout);
        json_begin_object(&j);
        if (enc)
            enc_json(&j, enc, setup);
        json_key(&j, "attack");
        json_begin_object(&j);
        json_kv_int(&j, "n", a);
        json_kv_int(&j, "cards", a_cards);
        json_kv_string(&j, "keep", a_low ? "lowest" : "highest");
        json_kv_int(&j, "shift", as);
        json_end_object(&j);
        json_key(&j, "defense");
        json_begin_object(&j);
        json_kv_int(&j, "n", d);
        json_kv_int(&j, "cards", d_cards);
        json_kv_string(&j, "keep", d_low ? "lowest" : "highest");
        json_kv_int(&j, "shift", ds);
        json_end_object(&j);
        json_kv_bool(&j, "shared_deck", q.shared_deck);
        json_deck(&j, &q.deck, &q.rules);
        json_kv_ratio(&j, "p_hit", p_hit);
        json_kv_ratio(&j, "p_crit", p_crit);
        json_key(&j, "hit_hearts");
        json_begin_array(&j);
        for (int k = 0; k <= max_hearts; k++)
            json_entry(&j, "hearts", k, fray_attack_odds_hit_hearts(&odds, k));
        json_end_array(&j);
        json_key(&j, "hearts_given_hit");
        json_begin_array(&j);
        for (int k = 0; k <= max_hearts; k++)
            json_entry(&j, "hearts", k,
                       fray_attack_odds_hearts_given_hit(&odds, k));
        json_end_array(&j);
        if (has_damage) {
            json_key(&j, "damage");
            json_begin_object(&j);
            json_kv_int(&j, "damage", damage);
            json_kv_int(&j, "resilience", resilience);
            json_kv_string(&j, "affinity", affinity_name[affinity]);
            json_key(&j, "outcomes");
            json_begin_array(&j);
            for (int i = 0; i < dmg.n_rows; i++) {
                json_begin_object(&j);
                json_kv_bool(&j, "hit", dmg.rows[i].hit);
                json_kv_int(&j, "stun", dmg.rows[i].dealt.stun);
                json_kv_int(&j, "lethal", dmg.rows[i].dealt.lethal);
                json_ratio_fields(&j, fray_towers_damage_odds_row(&dmg, i));
                json_end_object(&j);
            }
            json_end_array(&j);
            json_kv_ratio(&j, "mean_stun", dmg.mean_stun);
            json_kv_ratio(&j, "mean_lethal", dmg.mean_lethal);
            json_end_object(&j);
        }
        json_end_object(&j);
        json_finish(&j);
        return EXIT_OK;
    }

    if (enc)
        enc_print(enc, setup);
    printf("Attack %ld (%d card%s, keep the %s", a, a_cards,
           a_cards == 1 ? "" : "s", a_low ? "lowest" : "highest");
    if (as)
        printf(", shift %+ld", as);
    printf(") against Defense %ld (%d card%s, keep the %s", d, d_cards,
           d_cards == 1 ? "" : "s", d_low ? "lowest" : "highest");
    if (ds)
        printf(", shift %+ld", ds);
    printf(")\n%s ", q.shared_deck ? "one shared deck" : "separate decks");
    describe_deck(&q.deck, &q.rules);
    printf("\n");
    printf("  %-15s ", "hit");
    out_prob_row(stdout, p_hit, 1.0);
    printf("  %-15s ", "critical hit");
    out_prob_row(stdout, p_crit, 1.0);
    printf("  %-15s ", "miss");
    fray_ratio p_miss = fray_ratio_one_minus(p_hit);
    out_prob_row(stdout, p_miss, 1.0);
    printf("\nHearts in the attack flip, given a hit (each Heart: +1 STUN, 1 "
           "LETHAL)\n");
    for (int k = 0; k <= max_hearts; k++) {
        printf("  %-15d ", k);
        out_prob_row(stdout, fray_attack_odds_hearts_given_hit(&odds, k), 1.0);
    }
    if (has_damage) {
        char rbuf[84], rbuf2[84];
        printf("\nDamage %ld against Resilience %ld%s\n", damage, resilience,
               affinity == FRAY_TOWERS_IMMUNE ? " (immune)"
               : affinity == FRAY_TOWERS_SUSCEPTIBLE ? " (susceptible)" : "");
        for (int i = 0; i < dmg.n_rows; i++) {
            char label[48];
            if (!dmg.rows[i].hit)
                snprintf(label, sizeof label, "miss");
            else if (dmg.rows[i].dealt.lethal)
                snprintf(label, sizeof label, "%d STUN %d LETHAL",
                         dmg.rows[i].dealt.stun, dmg.rows[i].dealt.lethal);
            else
                snprintf(label, sizeof label, "%d STUN", dmg.rows[i].dealt.stun);
            printf("  %-15s ", label);
            out_prob_row(stdout, fray_towers_damage_odds_row(&dmg, i), 1.0);
        }
        printf("  expected per attack: %.3f STUN (%s), %.3f LETHAL (%s)\n",
               fray_ratio_to_double(dmg.mean_stun),
               fray_ratio_format(dmg.mean_stun, rbuf),
               fray_ratio_to_double(dmg.mean_lethal),
               fray_ratio_format(dmg.mean_lethal, rbuf2));
    }
    return EXIT_OK;
}

/* ---- odds opposed ------------------------------------------------------- */

static int odds_opposed(int argc, char **argv) {
    cli_opt opts[] = {
        {"aspect", true, NULL, false},        {"opposing-aspect", true, NULL, false},
        {"shift", true, NULL, false},         {"opposing-shift", true, NULL, false},
        {"shared-deck", false, NULL, false},  {"aces", true, NULL, false},
        {"jokers", true, NULL, false},        {"joker-value", true, NULL, false},
        {"min-one-card", false, NULL, false},
    };
    cli_args args = {"fray odds opposed", opts,
                     (int)(sizeof opts / sizeof opts[0]), {0}, 0, false, false};
    int rc = cli_start(&args, argc, argv, HELP, 2,
                       "the initiator's and the opponent's number of "
                       "cards, A and B");
    if (rc >= 0)
        return rc;
    long a = 0, b = 0, asp = 0, osp = 0, sh = 0, osh = 0;
    if (!cli_int(&args, "A", args.pos[0], -50, FRAY_CARDS_MAX, &a) ||
        !cli_int(&args, "B", args.pos[1], -50, FRAY_CARDS_MAX, &b) ||
        !cli_int_opt(&args, "aspect", -50, 50, &asp) ||
        !cli_int_opt(&args, "opposing-aspect", -50, 50, &osp) ||
        !cli_int_opt(&args, "shift", -50, 50, &sh) ||
        !cli_int_opt(&args, "opposing-shift", -50, 50, &osh))
        return EXIT_USAGE;
    fray_opposed_query q;
    memset(&q, 0, sizeof q);
    q.initiator_n = (int)a;
    q.opponent_n = (int)b;
    q.initiator_aspect = (int)asp;
    q.opponent_aspect = (int)osp;
    q.initiator_bonus = (int)(asp + sh);
    q.opponent_bonus = (int)(osp + osh);
    q.shared_deck = cli_get(&args, "shared-deck")->present;
    if (!cli_deck_options(&args, &q.deck, &q.rules))
        return EXIT_USAGE;
    fray_opposed_odds odds;
    fray_status st = fray_odds_opposed(&q, &odds);
    if (st != FRAY_OK)
        return odds_error(&args, st, (int)a, (int)b, q.shared_deck, &q.deck,
                          &q.rules);
    fray_ratio pi = fray_opposed_odds_initiator(&odds);
    fray_ratio po = fray_opposed_odds_opponent(&odds);
    fray_ratio pt = fray_opposed_odds_tie(&odds);
    const char *tie_to = asp > osp    ? "the initiator (higher Aspect)"
                         : asp < osp ? "the opponent (higher Aspect)"
                                     : "the initiator (equal Aspects)";
    if (args.json) {
        json_out j;
        json_init(&j, stdout);
        json_begin_object(&j);
        json_key(&j, "initiator");
        json_begin_object(&j);
        json_kv_int(&j, "n", a);
        json_kv_int(&j, "aspect", asp);
        json_kv_int(&j, "shift", sh);
        json_end_object(&j);
        json_key(&j, "opponent");
        json_begin_object(&j);
        json_kv_int(&j, "n", b);
        json_kv_int(&j, "aspect", osp);
        json_kv_int(&j, "shift", osh);
        json_end_object(&j);
        json_kv_bool(&j, "shared_deck", q.shared_deck);
        json_deck(&j, &q.deck, &q.rules);
        json_kv_ratio(&j, "p_initiator_wins", pi);
        json_kv_ratio(&j, "p_opponent_wins", po);
        json_kv_ratio(&j, "p_tied_totals", pt);
        json_kv_string(&j, "ties_go_to", asp >= osp ? "initiator" : "opponent");
        json_end_object(&j);
        json_finish(&j);
        return EXIT_OK;
    }
    printf("Opposed skill flip: initiator %ld cards + Aspect %ld", a, asp);
    if (sh)
        printf(" (shift %+ld)", sh);
    printf(" against opponent %ld cards + Aspect %ld", b, osp);
    if (osh)
        printf(" (shift %+ld)", osh);
    printf("\n%s ", q.shared_deck ? "one shared deck" : "separate decks");
    describe_deck(&q.deck, &q.rules);
    printf("\n  %-16s ", "initiator wins");
    out_prob_row(stdout, pi, 1.0);
    printf("  %-16s ", "opponent wins");
    out_prob_row(stdout, po, 1.0);
    printf("  %-16s ", "totals tie");
    out_prob_row(stdout, pt, 1.0);
    printf("  ties go to %s\n", tie_to);
    return EXIT_OK;
}

/* ---- odds roll ---------------------------------------------------------- */

/* Prints a distribution as a table; rows far out in the tails are folded
 * when the table would be long (JSON always has every row). */
static void print_dist(const fray_dist *dist) {
    double top = 0;
    for (size_t i = 0; i < dist->n; i++) {
        fray_ratio r = fray_dist_eq(dist, dist->lo + (int64_t)i);
        double p = fray_ratio_to_double(r);
        if (p > top)
            top = p;
    }
    bool fold = dist->n > 40;
    size_t folded = 0;
    printf("  %-8s %24s %7s   %s\n", "total", "exactly", "", "at least");
    for (size_t i = 0; i < dist->n; i++) {
        int64_t t = dist->lo + (int64_t)i;
        fray_ratio r = fray_dist_eq(dist, t);
        double p = fray_ratio_to_double(r);
        bool last = dist->tail && i + 1 == dist->n;
        if (ratio_is_zero(r))
            continue;
        if (fold && p < 0.0005 && !last) {
            folded++;
            continue;
        }
        char label[32];
        snprintf(label, sizeof label, last ? "%lld+" : "%lld", (long long)t);
        char buf[84];
        printf("  %-8s %24s ", label, fray_ratio_format(r, buf));
        out_percent(stdout, p);
        printf("  ");
        out_percent(stdout, fray_ratio_to_double(fray_dist_at_least(dist, t)));
        printf("  ");
        out_bar(stdout, top > 0 ? p / top : 0, 30);
        printf("\n");
    }
    if (folded)
        printf("  (%zu totals each under 0.05%% not shown; --json lists all)\n",
               folded);
}

static void json_dist(json_out *j, const fray_dist *dist) {
    json_begin_array(j);
    for (size_t i = 0; i < dist->n; i++) {
        int64_t t = dist->lo + (int64_t)i;
        fray_ratio r = fray_dist_eq(dist, t);
        if (ratio_is_zero(r))
            continue;
        json_begin_object(j);
        json_kv_int(j, "total", (long long)t);
        if (dist->tail && i + 1 == dist->n) {
            json_kv_bool(j, "or_more", true);
        }
        json_ratio_fields(j, r);
        json_end_object(j);
    }
    json_end_array(j);
}

static int odds_roll_attack(cli_args *args, const fray_dice *dice,
                            long defense) {
    cli_opt *dmg_opt = cli_get(args, "damage");
    cli_opt *crit_opt = cli_get(args, "crit-dice");
    long crit_min = 20;
    if (!cli_int_opt(args, "crit-min", 2, 20, &crit_min))
        return EXIT_USAGE;
    if (!fray_dice_is_d20(dice)) {
        cli_error(args, "--attack needs a d20 roll plus constants, like "
                        "d20+5");
        return EXIT_USAGE;
    }
    fray_dice *damage = NULL, *crit = NULL;
    if (dmg_opt->present &&
        !cli_dice(args, "--damage", dmg_opt->value, true, &damage))
        return EXIT_USAGE;
    if (crit_opt->present &&
        !cli_dice(args, "--crit-dice", crit_opt->value, false, &crit)) {
        fray_dice_free(damage);
        return EXIT_USAGE;
    }
    fray_d20_attack_query q;
    q.bonus = (int)(fray_dice_min(dice) - 1);
    q.defense = (int)defense;
    q.crit_min = (int)crit_min;
    q.damage = damage;
    q.crit_dice = crit;
    fray_d20_attack_odds odds;
    fray_status st = fray_odds_d20_attack(&q, NULL, &odds);
    if (st != FRAY_OK) {
        fray_dice_free(damage);
        fray_dice_free(crit);
        if (st == FRAY_ERR_INVALID)
            cli_error(args, "the damage has no maximum (a Wild Die), so a "
                            "critical hit cannot maximize it");
        else
            cli_error(args, "cannot work out this attack: %s",
                      fray_strerror(st));
        return EXIT_USAGE;
    }
    char *canon = cli_dice_text(dice);
    char *dcanon = odds.has_damage ? cli_dice_text(damage) : NULL;
    if (!canon || (odds.has_damage && !dcanon)) {
        cli_error(args, "out of memory");
        free(canon);
        fray_d20_attack_odds_free(&odds);
        fray_dice_free(damage);
        fray_dice_free(crit);
        return EXIT_USAGE;
    }
    if (args->json) {
        json_out j;
        json_init(&j, stdout);
        json_begin_object(&j);
        json_kv_string(&j, "attack", canon);
        json_kv_int(&j, "bonus", q.bonus);
        json_kv_int(&j, "defense", defense);
        json_kv_int(&j, "crit_min", crit_min);
        json_kv_ratio(&j, "p_hit", odds.p_hit);
        json_kv_ratio(&j, "p_crit", odds.p_crit);
        if (odds.has_damage) {
            json_kv_string(&j, "damage_expression", dcanon);
            json_key(&j, "damage");
            json_dist(&j, &odds.damage);
            json_kv_ratio(&j, "mean_damage", odds.damage.mean);
        }
        json_end_object(&j);
        json_finish(&j);
    } else {
        printf("d20 attack %s against Defense %ld\n", canon, defense);
        printf("(a natural 1 misses, a natural 20 hits; a natural ");
        if (crit_min < 20)
            printf("%ld-20", crit_min);
        else
            printf("20");
        printf(" that would hit anyway is a critical hit)\n\n");
        printf("  %-15s ", "hit");
        out_prob_row(stdout, odds.p_hit, 1.0);
        printf("  %-15s ", "critical hit");
        out_prob_row(stdout, odds.p_crit, 1.0);
        printf("  %-15s ", "miss");
        out_prob_row(stdout, fray_ratio_one_minus(odds.p_hit), 1.0);
        if (odds.has_damage) {
            char rbuf[84];
            printf("\nDamage per attack (%s; a miss deals 0, a critical hit "
                   "the maximum)\n", dcanon);
            print_dist(&odds.damage);
            printf("  mean %.4f (%s)\n", fray_ratio_to_double(odds.damage.mean),
                   fray_ratio_format(odds.damage.mean, rbuf));
        }
    }
    free(canon);
    free(dcanon);
    fray_d20_attack_odds_free(&odds);
    fray_dice_free(damage);
    fray_dice_free(crit);
    return EXIT_OK;
}

static int odds_roll(int argc, char **argv) {
    cli_opt opts[] = {
        {"vs", true, NULL, false},        {"weapon", true, NULL, false},
        {"attack", false, NULL, false},   {"damage", true, NULL, false},
        {"crit-dice", true, NULL, false}, {"crit-min", true, NULL, false},
        {"vs-roll", true, NULL, false},   {"report", true, NULL, false},
    };
    cli_args args = {"fray odds roll", opts,
                     (int)(sizeof opts / sizeof opts[0]), {0}, 0, false, false};
    int rc = cli_start(&args, argc, argv, HELP, 1,
                       "exactly one dice expression");
    if (rc >= 0)
        return rc;
    long vs = 0;
    if (!cli_int_opt(&args, "vs", -1000000, 1000000, &vs))
        return EXIT_USAGE;
    bool has_vs = cli_get(&args, "vs")->present;
    bool attack = cli_get(&args, "attack")->present;
    if (!attack && (cli_get(&args, "damage")->present ||
                    cli_get(&args, "crit-dice")->present ||
                    cli_get(&args, "crit-min")->present)) {
        cli_error(&args, "--damage, --crit-dice and --crit-min need --attack");
        return EXIT_USAGE;
    }
    if (attack && !has_vs) {
        cli_error(&args, "--attack needs --vs DEFENSE");
        return EXIT_USAGE;
    }
    if (attack && (cli_get(&args, "vs-roll")->present ||
                   cli_get(&args, "report")->present)) {
        cli_error(&args, "--vs-roll and --report do not go with --attack");
        return EXIT_USAGE;
    }
    fray_dice *dice = NULL;
    if (!cli_dice(&args, NULL, args.pos[0], true, &dice))
        return EXIT_USAGE;
    if (attack) {
        rc = odds_roll_attack(&args, dice, vs);
        fray_dice_free(dice);
        return rc;
    }
    /* odds_roll.c: the distribution, side by side, the chart */
    rc = cli_odds_roll(&args, dice, args.pos[0], has_vs, vs);
    fray_dice_free(dice);
    return rc;
}

/* ---- odds duel ----------------------------------------------------------- */

/* "  Sir Aldric wins  123/456", or the digits' count when too long to read. */
static void out_fraction_line(FILE *f, const char *who, const char *what,
                              const fray_bigratio *r, int width) {
    size_t n = strlen(r->num), d = strlen(r->den);
    fprintf(f, "  %-*s %-7s ", width, who, what);
    if (n + d < 60)
        fprintf(f, "%s/%s\n", r->num, r->den);
    else
        fprintf(f, "a fraction of %zu / %zu digits (in --json)\n", n, d);
}

static const char HELP_D6[] =
    "usage: fray odds d6 CODE [--vs T | --vs-roll CODE [--full-defense]]\n"
    "                     [--modifiers \"+2D -1D +6\"] [--modifier-wild-die]\n"
    "                     [--wild-one cancel-highest|complication] [--no-wild]\n"
    "                     [--beats] [--json]\n"
    "       fray odds d6 --damage CODE --resistance CODE\n"
    "                     [--health wounds|body-points] [--wild-one W] [--no-wild]\n"
    "\n"
    "Exact odds of D6 rolls (docs/rules/dice.md, \"D6 odds\"), counted, never sampled.\n"
    "\n"
    "A D6 die code (4D+2), with a Wild Die unless --no-wild, against a\n"
    "difficulty (--vs T; default 10, the passive defense), a defense roll\n"
    "(--vs-roll 3D+1; + 10 with --full-defense) and difficulty modifiers the\n"
    "GM rolls (--modifiers; no Wild Die on them unless --modifier-wild-die);\n"
    "a combat difficulty never goes below 3. Success meets or beats the\n"
    "difficulty (--beats: only above it, as for a Disarm). --wild-one: a Wild\n"
    "Die's first 1 cancels itself and the highest die (default) or adds\n"
    "normally (a complication follows). With --damage and --resistance: the\n"
    "chance of each Wound level, or of each number of Body Points lost\n"
    "(--health body-points); add Strength Damage to the damage code.\n"
    "\n"
    "A die code is written 4D+2 (3 pips make 1D); a modifier +2D, -1D or a\n"
    "number (+6, the standard value). --json gives every probability exactly\n"
    "as {\"num\": .., \"den\": .., \"p\": ..}.\n";

static int odds_d6(int argc, char **argv) {
    cli_opt opts[] = {
        {"vs", true, NULL, false},           {"vs-roll", true, NULL, false},
        {"full-defense", false, NULL, false}, {"modifiers", true, NULL, false},
        {"modifier-wild-die", false, NULL, false}, {"wild-one", true, NULL, false},
        {"no-wild", false, NULL, false},     {"beats", false, NULL, false},
        {"damage", true, NULL, false},       {"resistance", true, NULL, false},
        {"health", true, NULL, false},
    };
    cli_args args = {"fray odds d6", opts, (int)(sizeof opts / sizeof opts[0]),
                     {0}, 0, false, false};
    if (!cli_parse(&args, argc, argv))
        return EXIT_USAGE;
    if (args.help) {
        fputs(HELP_D6, stdout);
        return EXIT_OK;
    }
    /* odds_roll.c: the roll against its difficulty, or the damage */
    return cli_odds_d6(&args);
}

static int odds_duel(int argc, char **argv) {
    cli_opt opts[] = {
        {"a", true, NULL, false},         {"b", true, NULL, false},
        {"tactics-a", true, NULL, false}, {"tactics-b", true, NULL, false},
        {"C", true, NULL, false},         {"max-states", true, NULL, false},
        {"no-hand-of-fate", false, NULL, false},
        {"no-chips", false, NULL, false},
        {"exact", false, NULL, false},
    };
    cli_args args = {"fray odds duel", opts,
                     (int)(sizeof opts / sizeof opts[0]), {0}, 0, false, false};
    if (!cli_parse(&args, argc, argv))
        return EXIT_USAGE;
    if (args.help) {
        fputs(HELP, stdout);
        return EXIT_OK;
    }
    if (args.n_pos != 1 && args.n_pos != 2) {
        cli_error(&args, "needs an encounter file, or two stat-block files "
                         "(see --help)");
        return EXIT_USAGE;
    }
    long max_states = FRAY_DUEL_MAX_STATES;
    if (!cli_int_opt(&args, "max-states", 1, 2000000000L, &max_states))
        return EXIT_USAGE;
    bool want_exact = cli_get(&args, "exact")->present;
    long max_exact = cli_get(&args, "max-states")->present
                         ? max_states
                         : FRAY_DUEL_EXACT_MAX_STATES;
    bool files = args.n_pos == 2;
    if (!files && (cli_get(&args, "a")->present || cli_get(&args, "b")->present ||
                   cli_get(&args, "tactics-a")->present ||
                   cli_get(&args, "tactics-b")->present)) {
        cli_error(&args, "--a, --b and --tactics-a/-b are for two stat-block "
                         "files; an encounter names its combatants and tactics");
        return EXIT_USAGE;
    }
    fray_setup *setup = NULL;
    if (!files) {
        int rc = cli_load_encounter(&args, args.pos[0], &setup);
        if (rc >= 0)
            return rc;
    } else {
        cli_opt *dir = cli_get(&args, "C");
        if (dir->present && chdir(dir->value) != 0) {
            cli_error(&args, "cannot go to '%s': %s", dir->value, strerror(errno));
            return EXIT_USAGE;
        }
        fray_diag diag;
        memset(&diag, 0, sizeof diag);
        cli_opt *na = cli_get(&args, "a"), *nb = cli_get(&args, "b");
        cli_opt *ta = cli_get(&args, "tactics-a"), *tb = cli_get(&args, "tactics-b");
        fray_status st = fray_setup_duel(
            args.pos[0], na->present ? na->value : NULL, args.pos[1],
            nb->present ? nb->value : NULL, ta->present ? ta->value : NULL,
            tb->present ? tb->value : NULL, NULL, &setup, &diag);
        if (st != FRAY_OK) {
            const char *msg = diag.message[0] ? diag.message : fray_strerror(st);
            const char *file = fray_diag_file(&diag);
            if (file && diag.line > 0)
                fprintf(stderr, "%s:%d:%d: %s\n", file, diag.line,
                        diag.column > 0 ? diag.column : 1, msg);
            else if (file)
                fprintf(stderr, "%s: %s\n", file, msg);
            else
                cli_error(&args, "%s", msg);
            return EXIT_USAGE;
        }
    }
    /* --no-hand-of-fate, --no-chips: what the chain cannot count left
     * out of the file (a copy), and said so below. */
    bool no_fate = cli_get(&args, "no-hand-of-fate")->present;
    bool no_chips = cli_get(&args, "no-chips")->present;
    bool towers = strcmp(fray_setup_rules(setup), "towers") == 0;
    if ((no_fate || no_chips) && !towers) {
        cli_error(&args, "--no-hand-of-fate and --no-chips are for 99 Towers; "
                         "%s has neither", fray_setup_title(setup));
        fray_setup_free(setup);
        return EXIT_USAGE;
    }
    if (fray_setup_combatants(setup) != 2) {
        cli_error(&args, "exact duel odds need exactly two combatants; this "
                         "encounter has %d", fray_setup_combatants(setup));
        fray_setup_free(setup);
        return EXIT_USAGE;
    }
    unsigned leave = (no_fate ? FRAY_DUEL_LEAVE_HAND_OF_FATE : 0u) |
                     (no_chips ? FRAY_DUEL_LEAVE_CHIPS : 0u);
    fray_duel_odds *o = malloc(sizeof *o);
    if (!o) {
        fray_setup_free(setup);
        cli_error(&args, "out of memory");
        return EXIT_USAGE;
    }
    fray_diag diag;
    /* Exact fractions (issue 15): with --exact, or for --json when the
     * chain is small enough; otherwise JSON says why not. */
    fray_duel_exact ex;
    memset(&ex, 0, sizeof ex);
    bool exact = false;
    char exact_why[512] = "";
    fray_status st = FRAY_OK;
    if (want_exact || args.json) {
        st = towers ? fray_towers_duel_odds_exact(fray_setup_ruleset_data(setup),
                                                  0, 1, max_exact, leave, o,
                                                  &ex, &diag)
                    : fray_setup_duel_exact(setup, 0, 1, max_exact, o, &ex,
                                            &diag);
        exact = st == FRAY_OK;
        /* JSON without --exact: a chain too big for fractions, or one the
         * exact count refuses (no phase limit), is summed in doubles and
         * the JSON says why. */
        if (!exact && !want_exact &&
            (st == FRAY_ERR_TOO_LARGE || st == FRAY_ERR_INVALID)) {
            snprintf(exact_why, sizeof exact_why, "%s", diag.message);
            st = FRAY_OK;
        }
    }
    if (st == FRAY_OK && !exact)
        st = leave ? fray_towers_duel_odds_leaving(fray_setup_ruleset_data(setup),
                                                   0, 1, max_states, leave, o,
                                                   &diag)
                   : fray_setup_duel_odds(setup, 0, 1, max_states, o, &diag);
    if (st != FRAY_OK) {
        cli_error(&args, "%s%s",
                  diag.message[0] ? diag.message : fray_strerror(st),
                  st == FRAY_ERR_TOO_LARGE ? ", or raise --max-states"
                  : strstr(diag.message, "the Hand of Fate")
                      ? ", or leave it out with --no-hand-of-fate (the odds "
                        "then assume neither side holds one)"
                  : strstr(diag.message, "do not model chips")
                      ? ", or leave them out with --no-chips"
                      : "");
        fray_duel_exact_free(&ex);
        free(o);
        fray_setup_free(setup);
        return EXIT_USAGE;
    }
    const char *name[2] = {fray_setup_combatant_name(setup, 0),
                           fray_setup_combatant_name(setup, 1)};
    double nobody = o->p_both_out + o->p_unfinished;
    /* The length in the ruleset's time (99 Towers: phases, shown by
     * rounds of 10 phases; Alloy: rounds, one by one); the last bin: that
     * time or later. */
    const char *unit = fray_setup_time_unit(setup);
    const char *assumed = fray_setup_duel_assumed(setup);
    int group = strcmp(unit, "phase") == 0 ? 10 : 1;
    enum { ROUNDS = FRAY_DUEL_LENGTH_BINS };
    double rounds[ROUNDS] = {0};
    int last_round = 0;
    for (int i = 0; i < FRAY_DUEL_LENGTH_BINS; i++) {
        rounds[i / group] += o->length[i];
        if (o->length[i] >= 0.0005 && i / group > last_round)
            last_round = i / group;
    }
    char limit_key[32];
    snprintf(limit_key, sizeof limit_key, "%s_limit", unit);

    if (args.json) {
        json_out j;
        json_init(&j, stdout);
        json_begin_object(&j);
        json_kv_string(&j, "encounter", fray_setup_name(setup));
        json_key(&j, "combatants");
        json_begin_array(&j);
        for (int k = 0; k < 2; k++) {
            json_begin_object(&j);
            json_kv_string(&j, "name", name[k]);
            json_kv_string(&j, "id", fray_setup_combatant_id(setup, k));
            json_key(&j, "p_win");
            json_double(&j, o->p_win[k]);
            json_key(&j, "p_first");
            json_double(&j, o->p_first[k]);
            json_end_object(&j);
        }
        json_end_array(&j);
        json_key(&j, "p_both_out");
        json_double(&j, o->p_both_out);
        json_key(&j, "p_unfinished");
        json_double(&j, o->p_unfinished);
        json_key(&j, "p_left");
        json_double(&j, o->p_left);
        json_key(&j, "mean_length");
        json_double(&j, o->mean_length);
        json_key(&j, "sd_length");
        json_double(&j, o->sd_length);
        json_kv_int(&j, limit_key, o->phase_limit);
        json_key(&j, "length");
        json_begin_array(&j);
        for (int i = 0; i < FRAY_DUEL_LENGTH_BINS; i++) {
            if (o->length[i] <= 0)
                continue;
            json_begin_object(&j);
            json_kv_int(&j, unit, i);
            json_key(&j, "p");
            json_double(&j, o->length[i]);
            json_end_object(&j);
        }
        json_end_array(&j);
        json_kv_int(&j, "states", o->states);
        json_kv_int(&j, "outcomes", o->transitions);
        json_key(&j, "mass_error");
        json_double(&j, o->mass_error);
        json_kv_string(&j, "precision", exact ? "exact" : "double");
        {
            /* issue 15: the same odds as fractions, or why not */
            json_key(&j, "exact");
            if (exact) {
                json_begin_object(&j);
                json_key(&j, "p_win");
                json_begin_array(&j);
                for (int k = 0; k < 2; k++) {
                    json_begin_object(&j);
                    json_big_fields(&j, &ex.p_win[k]);
                    json_end_object(&j);
                }
                json_end_array(&j);
                json_key(&j, "p_first");
                json_begin_array(&j);
                for (int k = 0; k < 2; k++) {
                    json_begin_object(&j);
                    json_big_fields(&j, &ex.p_first[k]);
                    json_end_object(&j);
                }
                json_end_array(&j);
                json_big(&j, "p_both_out", &ex.p_both_out);
                json_big(&j, "p_unfinished", &ex.p_unfinished);
                json_big(&j, "mean_length", &ex.mean_length);
                json_kv_int(&j, "digits", ex.digits);
                json_end_object(&j);
            } else {
                json_null(&j);
                json_kv_string(&j, "exact_why", exact_why);
            }
        }
        json_kv_string(&j, "assumed", assumed);
        if (strcmp(fray_setup_rules(setup), "towers") == 0) {
            json_kv_bool(&j, "hand_of_fate_left_out", no_fate);
            json_kv_bool(&j, "chips_left_out", no_chips);
        }
        json_end_object(&j);
        json_finish(&j);
    } else {
        printf("Duel: %s against %s (%s)\n\n", name[0], name[1],
               fray_setup_name(setup));
        int w = (int)(strlen(name[0]) > strlen(name[1]) ? strlen(name[0])
                                                        : strlen(name[1]));
        if (w < 6)
            w = 6;
        for (int k = 0; k < 2; k++) {
            printf("  %-*s wins  ", w, name[k]);
            out_percent(stdout, o->p_win[k]);
            printf("  ");
            out_bar(stdout, o->p_win[k], 40);
            printf("\n");
        }
        printf("  %-*s       ", w, "nobody");
        out_percent(stdout, nobody);
        printf("  ");
        out_bar(stdout, nobody, 40);
        printf("\n");
        if (o->p_both_out > 0)
            printf("  (both out at once: %.3g)\n", o->p_both_out);
        if (o->p_unfinished > 0)
            printf("  (the %s limit %d comes first: %.3g)\n", unit,
                   o->phase_limit, o->p_unfinished);
        printf("\nActs first: %s ", name[0]);
        out_percent(stdout, o->p_first[0]);
        printf(", %s ", name[1]);
        out_percent(stdout, o->p_first[1]);
        printf("\nExpected length: %.2f %ss (sd %.2f)", o->mean_length, unit,
               o->sd_length);
        if (o->phase_limit > 0)
            printf("; %s limit %d", unit, o->phase_limit);
        if (group > 1)
            printf("\n\nIt ends in round (%d %ss each)\n", group, unit);
        else
            printf("\n\nIt ends in %s\n", unit);
        double top = 0;
        for (int r = 0; r <= last_round; r++)
            top = rounds[r] > top ? rounds[r] : top;
        for (int r = 0; r <= last_round; r++) {
            char label[32];
            if (group > 1)
                snprintf(label, sizeof label, "%ss %d-%d", unit, group * r,
                         group * r + group - 1);
            else
                snprintf(label, sizeof label, "%s %d", unit, r);
            printf("  %-14s ", label);
            out_percent(stdout, rounds[r]);
            printf("  ");
            out_bar(stdout, top > 0 ? rounds[r] / top : 0, 30);
            printf("\n");
        }
        if (no_fate || no_chips)
            printf("\nLeft out of the file: %s%s%s.", no_fate ? "the Hand of Fate (--no-hand-of-fate)" : "",
                   no_fate && no_chips ? " and " : "", no_chips ? "chips (--no-chips)" : "");
        if (assumed[0])
            printf("\nAssumed: %s.\n", assumed);
        if (exact) {
            printf("Exactly (%ld chain states, %ld outcomes followed; "
                   "denominators up to %ld digits):\n",
                   o->states, o->transitions, ex.digits);
            for (int k = 0; k < 2; k++)
                out_fraction_line(stdout, name[k], "wins", &ex.p_win[k], w);
            out_fraction_line(stdout, "nobody", "(limit)", &ex.p_unfinished, w);
        } else
            printf("Double precision (rounding and cut-off < %.0e): %ld chain states, "
                   "%ld outcomes followed.\n",
                   o->mass_error + o->p_left > 1e-15 ? o->mass_error + o->p_left
                                                      : 1e-15,
                   o->states, o->transitions);
    }
    fray_duel_exact_free(&ex);
    free(o);
    fray_setup_free(setup);
    return EXIT_OK;
}

int cmd_odds(int argc, char **argv) {
    if (argc < 1) {
        fputs(HELP, stderr);
        return EXIT_USAGE;
    }
    const char *what = argv[0];
    if (strcmp(what, "flip") == 0)
        return odds_flip(argc - 1, argv + 1);
    if (strcmp(what, "attack") == 0)
        return odds_attack(argc - 1, argv + 1);
    if (strcmp(what, "opposed") == 0)
        return odds_opposed(argc - 1, argv + 1);
    if (strcmp(what, "roll") == 0)
        return odds_roll(argc - 1, argv + 1);
    if (strcmp(what, "duel") == 0)
        return odds_duel(argc - 1, argv + 1);
    if (strcmp(what, "d6") == 0)
        return odds_d6(argc - 1, argv + 1);
    if (strcmp(what, "--help") == 0 || strcmp(what, "-h") == 0 ||
        strcmp(what, "help") == 0) {
        fputs(HELP, stdout);
        return EXIT_OK;
    }
    fprintf(stderr, "fray odds: unknown kind of odds '%s' (flip, attack, "
                    "opposed, roll, duel or d6)\n", what);
    return EXIT_USAGE;
}
