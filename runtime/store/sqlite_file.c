#include "runtime/store/sqlite_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/safefile.h"

int at_sql_fail(at_err *e, sqlite3 *db, int rc, const char *call,
                const char *path)
{
    return at_fail(e, AUTOTUNE_ESQLITE, "%s: %s (%d): %s [cache %s]", call,
                   sqlite3_errstr(rc), rc, db ? sqlite3_errmsg(db) : "",
                   path);
}

int at_mkdirs(char *path, at_err *e)
{
    for (char *s = path + 1; *s; ++s) {
        if (*s != '/')
            continue;
        *s = '\0';
        int r = mkdir(path, 0700); /* XDG: user only */
        int err = errno;
        *s = '/';
        if (r && err != EEXIST) {
            *s = '\0';
            at_fail(e, AUTOTUNE_EIO, "cannot create cache directory %s: %s",
                    path, strerror(err));
            *s = '/';
            return AUTOTUNE_EIO;
        }
    }
    return 0;
}

/* Owned by this user and writable by no one else (at_stat_mine_alone),
 * or the message saying which not. */
static int owned(const char *what, const char *path, const struct stat *st,
                 at_err *e)
{
    if (at_stat_mine_alone(st))
        return 0;
    if (st->st_uid != geteuid())
        return at_fail(e, AUTOTUNE_EIO, "%s %s belongs to user %u, not to "
                       "you (%u): not trusted; use a path of your own",
                       what, path, (unsigned)st->st_uid,
                       (unsigned)geteuid());
    return at_fail(e, AUTOTUNE_EIO, "%s %s is writable by others (mode "
                   "%04o): anyone could plant or change cached kernels; "
                   "chmod go-w it, or use a path of your own", what, path,
                   (unsigned)(st->st_mode & 07777));
}

int at_sqlite_trust(const char *path, const char *what, at_err *e)
{
    char dir[1024], label[96];
    at_path_dir(path, dir, sizeof dir);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) /* a common slip */
        return at_fail(e, AUTOTUNE_EIO, "%s %s is a folder: name the file "
                       "(%s/cache.db, say)", what, path, path);
    snprintf(label, sizeof label, "%s directory", what);
    if (stat(dir, &st) != 0)
        return at_fail(e, AUTOTUNE_EIO, "%s %s: %s", label, dir,
                       strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return at_fail(e, AUTOTUNE_EIO, "%s %s: not a directory", label, dir);
    int rc = owned(label, dir, &st, e);
    if (rc)
        return rc;
    if (access(dir, W_OK | X_OK) != 0)
        return at_fail(e, AUTOTUNE_EIO, "%s %s: not writable (%s)", label,
                       dir, strerror(errno));
    static const char *const suffix[] = {"", "-wal", "-shm"};
    for (int i = 0; i < 3; ++i) {
        char f[1100];
        snprintf(f, sizeof f, "%s%s", path, suffix[i]);
        if (stat(f, &st) != 0) {
            if (errno == ENOENT)
                continue;
            return at_fail(e, AUTOTUNE_EIO, "%s file %s: %s", what, f,
                           strerror(errno));
        }
        snprintf(label, sizeof label, "%s file", what);
        if (!S_ISREG(st.st_mode))
            return at_fail(e, AUTOTUNE_EIO, "%s %s: not a regular file",
                           label, f);
        if ((rc = owned(label, f, &st, e)) != 0)
            return rc;
        /* -wal and -shm come and go with other processes' connections:
         * one removed since the stat above is no obstacle. */
        if (access(f, R_OK | W_OK) != 0 && !(i > 0 && errno == ENOENT))
            return at_fail(e, AUTOTUNE_EIO, "%s %s: not writable (%s)",
                           label, f, strerror(errno));
    }
    return 0;
}

/* A new file, 0600, never through a planted link. */
static int create_private(const char *path, const char *what, at_err *e)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                  0600);
    if (fd >= 0)
        return close(fd), 0;
    if (errno == EEXIST) /* another process made it first: check it */
        return at_sqlite_trust(path, what, e);
    return at_fail(e, AUTOTUNE_EIO, "cannot create %s %s: %s", what, path,
                   strerror(errno));
}

static int busy(int rc)
{
    return (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
}

/* While another process holds the database: 1 if tried for 30 s since t0,
 * else waits 1-10 ms (spread apart by *seed) and returns 0. */
static int given_up(double t0, unsigned *seed)
{
    if (at_now_s() - t0 > 30)
        return 1;
    *seed = *seed * 1103515245u + 12345u;
    usleep(1000 + (*seed >> 16) % 9000);
    return 0;
}

int at_sql_exec_retry(sqlite3 *db, const char *sql, char **msg)
{
    double t0 = at_now_s();
    unsigned seed = (unsigned)getpid();
    for (;;) {
        if (msg) {
            sqlite3_free(*msg);
            *msg = NULL;
        }
        int rc = sqlite3_exec(db, sql, NULL, NULL, msg);
        if (!busy(rc))
            return rc;
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL); /* if one is open */
        if (given_up(t0, &seed))
            return rc;
    }
}

/* 1 if spec's query finds the file ours from before the id, 0 if not, -1
 * on an SQLite error. */
static int older_ours(sqlite3 *db, const at_sqlite_spec *s)
{
    sqlite3_stmt *st = NULL;
    if (!s->older_ours)
        return 0;
    int rc = sqlite3_prepare_v2(db, s->older_ours, -1, &st, NULL);
    int ours_too = 0;
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
        ours_too = sqlite3_column_int(st, 0) == 1;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? ours_too : -1;
}

/* Whether every table and index spec's schema makes is in the file
 * (names read from its CREATE ... IF NOT EXISTS statements): 1, 0, or
 * -1 on an SQLite error. */
static int complete(sqlite3 *db, const at_sqlite_spec *s)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE name = ?1",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    int all = 1;
    for (const char *c = s->schema; all && (c = strstr(c, "IF NOT EXISTS "));) {
        c += strlen("IF NOT EXISTS ");
        int len = (int)strcspn(c, " (;");
        sqlite3_bind_text(st, 1, c, len, SQLITE_TRANSIENT);
        int rc = sqlite3_step(st);
        all = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    return all;
}

/* Refuses a database that is not ours: another application_id, or a table
 * that our schema does not make. Nothing is written before this passes.
 * *done: ours with everything its schema makes (no setup to write). */
static int ours(sqlite3 *db, const char *path, const at_sqlite_spec *s,
                int *done, at_err *e)
{
    *done = 0;
    /* The tables first: another process's setup commits tables and id
     * together, so tables seen here come with the id read next. */
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE "
                                "type = 'table' AND name NOT LIKE "
                                "'sqlite_%'", -1, &st, NULL);
    char foreign[256] = "", first[256] = "";
    while (rc == SQLITE_OK || rc == SQLITE_ROW) {
        if ((rc = sqlite3_step(st)) != SQLITE_ROW)
            break;
        const char *t = (const char *)sqlite3_column_text(st, 0);
        int known = 0;
        for (const char *const *k = s->tables; *k && t; ++k)
            known |= strcmp(t, *k) == 0;
        if (!known && !foreign[0])
            snprintf(foreign, sizeof foreign, "%s", t ? t : "?");
        if (!first[0])
            snprintf(first, sizeof first, "%s", t ? t : "?");
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return at_sql_fail(e, db, rc, "reading sqlite_master", path);
    rc = sqlite3_prepare_v2(db, "PRAGMA application_id", -1, &st, NULL);
    long long app = 0;
    if (rc == SQLITE_OK)
        while ((rc = sqlite3_step(st)) == SQLITE_ROW)
            app = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return at_sql_fail(e, db, rc, "PRAGMA application_id", path);
    if (app != 0 && app != AT_SQLITE_APP_ID)
        return at_fail(e, AUTOTUNE_EIO, "%s %s belongs to another program "
                       "(application_id 0x%llx): not modified; set "
                       "%s to a file of its own", s->what, path,
                       (unsigned long long)app, s->env);
    /* Ours carry the id from their first transaction: tables without it
     * are another program's, whatever they are called, unless they are
     * ours from before the id, columns and all. */
    if (app == 0 && first[0] && !foreign[0] &&
        (rc = older_ours(db, s)) != 0)
        return rc < 0 ? at_sql_fail(e, db, sqlite3_errcode(db),
                                    "reading the tables' columns", path)
                      : 0;
    if (app == 0 && first[0])
        return at_fail(e, AUTOTUNE_EIO, "%s %s is not an autotune database "
                       "(tables such as '%.64s' but no application_id "
                       "'attu'): not modified; set %s to a file of its own",
                       s->what, path, first, s->env);
    if (foreign[0])
        return at_fail(e, AUTOTUNE_EIO, "%s %s is not an autotune database "
                       "(it has a table '%.64s'): not modified; set "
                       "%s to a file of its own", s->what, path, foreign,
                       s->env);
    if (app == AT_SQLITE_APP_ID && (rc = complete(db, s)) < 0)
        return at_sql_fail(e, db, sqlite3_errcode(db), "reading the schema",
                           path);
    *done = app == AT_SQLITE_APP_ID && rc == 1;
    return 0;
}

static int setup(sqlite3 *db, const char *path, const at_sqlite_spec *s,
                 at_err *e)
{
    char *msg = NULL;
    int rc = at_sql_exec_retry(db, "PRAGMA journal_mode=WAL", &msg);
    char *sql = NULL;
    if (rc == SQLITE_OK) {
        sql = sqlite3_mprintf("BEGIN IMMEDIATE; PRAGMA application_id = %d; "
                              "%s COMMIT;", AT_SQLITE_APP_ID, s->schema);
        rc = sql ? at_sql_exec_retry(db, sql, &msg) : SQLITE_NOMEM;
    }
    sqlite3_free(sql);
    if (rc != SQLITE_OK) {
        at_fail(e, AUTOTUNE_ESQLITE, "sqlite3_exec(schema): %s (%d): %s "
                "[cache %s]", sqlite3_errstr(rc), rc, msg ? msg : "", path);
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    }
    sqlite3_free(msg);
    return rc == SQLITE_OK ? 0 : AUTOTUNE_ESQLITE;
}

int at_sqlite_open(const char *path, const at_sqlite_spec *s, sqlite3 **out,
                   at_err *e)
{
    *out = NULL;
    struct stat st;
    int rc = at_sqlite_trust(path, s->what, e);
    if (!rc && lstat(path, &st) != 0)
        rc = create_private(path, s->what, e);
    if (rc)
        return rc;
    sqlite3 *db = NULL;
    rc = sqlite3_open_v2(path, &db,
                         SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, NULL);
    if (rc != SQLITE_OK) {
        rc = at_sql_fail(e, db, rc, "sqlite3_open_v2", path);
        sqlite3_close(db);
        return rc;
    }
    /* Several processes may tune at once: wait for each other's writes. */
    sqlite3_busy_timeout(db, 30000);
    /* Reading what the file holds may meet another process's setup
     * (SQLITE_BUSY without the busy handler, as in WAL recovery): retry
     * as setup does. */
    double t0 = at_now_s();
    unsigned seed = (unsigned)getpid();
    int done = 0;
    while ((rc = ours(db, path, s, &done, e)) == AUTOTUNE_ESQLITE &&
           busy(sqlite3_extended_errcode(db)) && !given_up(t0, &seed))
        ;
    /* A file set up already is only read here: opening it takes no write
     * lock, so no process waits on another's writes to open (two devices'
     * GPU workers open the caches while each other's tunes write). */
    if (!rc && !done)
        rc = setup(db, path, s, e);
    if (rc) {
        sqlite3_close(db);
        return rc;
    }
    *out = db;
    return 0;
}
