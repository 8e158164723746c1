/*
 * store.h - the server's store (docs/server.md "Nothing acknowledged is
 * lost"): fights, the files each began with, and every journal line, in
 * SQLite (WAL, synchronous=FULL: a call that returned FRAY_OK is on disk).
 *
 * Not part of the library: the `fray serve` command's own code
 * (src/server/), linked into the fray program and its tests.
 *
 * Every call checks SQLite's answer; a failure is FRAY_ERR_IO (the disk,
 * a busy or corrupt store) or FRAY_ERR_NOMEM, with SQLite's message in
 * diag, and leaves the store as it was (one transaction per call).
 */
#ifndef FRAY_SERVER_STORE_H
#define FRAY_SERVER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fray/common.h"
#include "fray/fight.h"

typedef struct fs_store fs_store;

/* One file of a fight: its name (no folder: "duel.yaml") and its text. */
typedef struct fs_file {
    char *name;
    char *text;
    size_t len;
} fs_file;

/* A fight as the list of fights shows it. */
typedef struct fs_fight_row {
    int64_t id;
    char title[128];
    char rules[16];
    char encounter[128]; /* the file it began from (the first of its files) */
    uint64_t seed;
    bool archived;
    int64_t lines;       /* journal lines kept */
    bool players_play;   /* the GM lets players play their own turns */
    bool players_forecast; /* the GM lets players see the forecast (issue 19) */
} fs_fight_row;

/* A player's token: the fight it opens, the player's name, the ids of the
 * combatants it controls (separated by spaces), its view's options
 * (fray_view_scope). */
typedef struct fs_player_row {
    char token[72];
    int64_t fight;
    char name[64];
    char combatants[1024];
    bool enemy_numbers;
    bool show_unnoticed;
} fs_player_row;

/* Opens (creating when missing) the store at path. */
FRAY_MUST_CHECK fray_status fs_open(const char *path, fs_store **out,
                                    fray_diag *diag);
/* Closes it; FRAY_ERR_IO when SQLite cannot (the store is freed anyway). */
FRAY_MUST_CHECK fray_status fs_close(fs_store *s, fray_diag *diag);

/* A new fight with its files (files[0] the encounter file); *out_id its id. */
FRAY_MUST_CHECK fray_status fs_fight_add(fs_store *s, const char *title,
                                         const char *rules, uint64_t seed,
                                         const fs_file *files, int n_files,
                                         int64_t *out_id, fray_diag *diag);
/* Appends journal line number n (0, 1, 2 ... in order: any other number is
 * FRAY_ERR_INVALID) of fight id; committed when it returns FRAY_OK. */
FRAY_MUST_CHECK fray_status fs_line_add(fs_store *s, int64_t id, int64_t n,
                                        const char *line, size_t len,
                                        fray_diag *diag);
/* Appends lines n .. n + count - 1 in one transaction: all are kept or
 * none (as fs_line_add). */
FRAY_MUST_CHECK fray_status fs_lines_add(fs_store *s, int64_t id, int64_t n,
                                         const char *const *lines,
                                         const size_t *lens, int count,
                                         fray_diag *diag);
/* Every line of fight id in order, each ending in '\n', in one malloc'd
 * text (*out NULL and *out_len 0 when there is none); *out_n the lines. */
FRAY_MUST_CHECK fray_status fs_lines(fs_store *s, int64_t id, char **out,
                                     size_t *out_len, int64_t *out_n,
                                     fray_diag *diag);
/* The files of fight id (malloc'd; fs_files_free). */
FRAY_MUST_CHECK fray_status fs_files(fs_store *s, int64_t id, fs_file **out,
                                     int *out_n, fray_diag *diag);
void fs_files_free(fs_file *files, int n);
/* Every fight, newest first (malloc'd). */
FRAY_MUST_CHECK fray_status fs_fights(fs_store *s, fs_fight_row **out,
                                      int *out_n, fray_diag *diag);
/* Marks fight id archived (FRAY_ERR_INVALID when there is no such fight). */
FRAY_MUST_CHECK fray_status fs_archive(fs_store *s, int64_t id,
                                       fray_diag *diag);
/* Whether players may play their own combatants' turns in fight id. */
FRAY_MUST_CHECK fray_status fs_players_play_set(fs_store *s, int64_t id,
                                                bool allow, fray_diag *diag);
/* Whether players may see the forecast of fight id (issue 19). */
FRAY_MUST_CHECK fray_status fs_players_forecast_set(fs_store *s, int64_t id,
                                                    bool allow, fray_diag *diag);
/* Keeps a player's token (its fight must exist). */
FRAY_MUST_CHECK fray_status fs_player_add(fs_store *s, const fs_player_row *p,
                                          fray_diag *diag);
/* Every player's token, oldest first (malloc'd). */
FRAY_MUST_CHECK fray_status fs_players(fs_store *s, fs_player_row **out,
                                       int *out_n, fray_diag *diag);
/* A value kept by key (the GM's token ...); *found false when none. */
FRAY_MUST_CHECK fray_status fs_meta_get(fs_store *s, const char *key,
                                        char *buf, size_t size, bool *found,
                                        fray_diag *diag);
FRAY_MUST_CHECK fray_status fs_meta_set(fs_store *s, const char *key,
                                        const char *value, fray_diag *diag);

/* Rebuilds fight id as it was at its last kept line: writes its files to
 * dir/ID/ (dir must exist; ID's folder is made), loads the first, begins a
 * fight with its seed (journal and facts kept) and replays its lines.
 * *out_setup must outlive *out_fight (free the fight first). */
FRAY_MUST_CHECK fray_status fs_resume(fs_store *s, int64_t id,
                                      const char *dir, fray_setup **out_setup,
                                      fray_fight **out_fight, fray_diag *diag);

#endif
