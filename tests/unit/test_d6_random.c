/* test_d6_random.c - D6 commands at random (issue 18, "no silent wrong
 * answer"): random table commands, valid or not, with dice given by hand
 * or drawn, mixed with the tactics' steps, on the three fixtures; every
 * refusal leaves the fight as it was (the journal read back gives the
 * same state), and every fight read back from its journal is the same. */
#include "d6_fixture.h"

static d6_setup S;

Test(d6_random, commands_keep_the_journal_true) {
    static const char *const verbs[] = {"attack", "defend", "defend full", "defend parry",
                                        "move", "wait", "aim", "fly", ""};
    for (int k = 0; k < 30; k++) {
        if (k % 3 == 0)
            d6_fx_duel(&S);
        else if (k % 3 == 1)
            d6_fx_brawl(&S);
        else
            d6_fx_firefight(&S);
        S.o.initiative = (uint8_t)(k % 3);
        S.o.health = (uint8_t)(k / 3 % 2);
        S.o.modifiers_roll = k / 6 % 2;
        fray_setup fs = d6_fx_setup(&S);
        fray_rng rng;
        fray_rng_seed(&rng, (uint64_t)k, 5);
        fray_fight_options o = {.journal = true, .facts = true, .until = 0};
        fray_fight *f = NULL, *g = NULL;
        cr_assert_eq(fray_fight_new(&fs, (uint64_t)k, &o, NULL, NULL, &f), FRAY_OK);
        for (int n = 0; n < 300 && !fray_fight_over(f); n++) {
            uint32_t pick = fray_rng_below(&rng, 10);
            if (pick < 3) {
                cr_assert_eq(fray_fight_step(f), FRAY_OK);
                continue;
            }
            char cmd[128];
            int a = (int)fray_rng_below(&rng, (uint32_t)S.n);
            int t = (int)fray_rng_below(&rng, (uint32_t)S.n);
            const char *v = verbs[fray_rng_below(&rng, sizeof verbs / sizeof verbs[0])];
            if (pick == 3)
                snprintf(cmd, sizeof cmd, "next");
            else if (strcmp(v, "attack") == 0)
                snprintf(cmd, sizeof cmd, "%s attack %s actions %u%s", S.c[a].id, S.c[t].id,
                         1 + fray_rng_below(&rng, 5), fray_rng_below(&rng, 2) ? " defend" : "");
            else if (strcmp(v, "move") == 0)
                snprintf(cmd, sizeof cmd, "%s move %d,%d", S.c[a].id,
                         S.c[a].x + (int)fray_rng_below(&rng, 25) - 12,
                         (int)fray_rng_below(&rng, 25) - 12);
            else if (strcmp(v, "aim") == 0)
                snprintf(cmd, sizeof cmd, "%s aim %s", S.c[a].id, S.c[t].id);
            else
                snprintf(cmd, sizeof cmd, "%s %s", S.c[a].id, v);
            int dice[16];
            size_t nd = fray_rng_below(&rng, 2) ? 0 : fray_rng_below(&rng, 16);
            for (size_t i = 0; i < nd; i++)
                dice[i] = (int)fray_rng_below(&rng, 20) == 0 ? 7 : 1 + (int)fray_rng_below(&rng, 6);
            int before = fray_fight_events(f);
            fray_diag diag;
            memset(&diag, 0, sizeof diag);
            fray_status rc = d6_fx_cmd(f, cmd, dice, nd, &diag);
            if (rc != FRAY_OK) {
                cr_assert(diag.message[0], "%s refused without words", cmd);
                cr_assert_eq(fray_fight_events(f), before, "%s", cmd);
            }
        }
        size_t len;
        char *text = fx_journal(f, 1 << 22, &len);
        cr_assert_eq(fray_fight_new(&fs, (uint64_t)k, &o, NULL, NULL, &g), FRAY_OK);
        fray_diag diag;
        memset(&diag, 0, sizeof diag);
        cr_assert_eq(fray_fight_replay_journal(g, text, len, NULL, &diag), FRAY_OK,
                     "fight %d: %s", k, diag.message);
        cr_assert(fray_fight_same(f, g), "fight %d", k);
        free(text);
        fray_fight_free(f);
        fray_fight_free(g);
    }
}
