/* The caches' SQLite files, opened only when they are the user's own and
 * ours:
 *
 *   - the directory and the file (and its -wal, -shm) must belong to this
 *     user and be writable by no one else; a new file is made 0600 with
 *     O_EXCL|O_NOFOLLOW (directories 0700);
 *   - a database with tables not ours, or another application_id, is
 *     refused before anything is written to it;
 *   - setting up (journal mode, application_id, schema) happens in one
 *     IMMEDIATE transaction, retried while another process holds the
 *     lock, so many processes may open a fresh cache at once. */
#ifndef AT_SQLITE_FILE_H
#define AT_SQLITE_FILE_H

#include "base/error.h"

struct sqlite3;

typedef struct at_sqlite_spec {
    const char *what;          /* "cache", "compiled-variant cache" */
    const char *schema;        /* CREATE ... IF NOT EXISTS statements */
    const char *const *tables; /* the tables schema makes, NULL-ended */
    const char *env;           /* the variable that chooses the file */
    /* A query whose one value is 1 where a file without our
     * application_id is still ours (made before autotune set the id,
     * 2026-11-23): our main table with its own columns. */
    const char *older_ours;
} at_sqlite_spec;

/* 'attu': PRAGMA application_id of every autotune database. */
#define AT_SQLITE_APP_ID 0x61747475

int at_sqlite_open(const char *path, const at_sqlite_spec *s,
                   struct sqlite3 **db, at_err *e);
int at_sql_fail(at_err *e, struct sqlite3 *db, int rc, const char *call,
                const char *path);
/* sqlite3_exec, retried for up to 30 s while the database is busy or
 * locked (which the busy handler does not cover for every statement). */
int at_sql_exec_retry(struct sqlite3 *db, const char *sql, char **msg);
/* Every directory leading to path, made 0700 where missing. */
int at_mkdirs(char *path, at_err *e);
/* Why path (a file that may not exist yet, in a directory that must) is
 * not the user's own: 0 if it is, else AUTOTUNE_EIO saying why. */
int at_sqlite_trust(const char *path, const char *what, at_err *e);

#endif
