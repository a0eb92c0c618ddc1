#include "runtime/store/pq.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/dl.h"

at_pq_api at_pq;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static at_err load_err;
static _Thread_local char last_state[8];

#define AT_PQ_FUNCS(X)                                                       \
    X(PQconnectdb) X(PQstatus) X(PQerrorMessage) X(PQfinish)                \
    X(PQexecParams) X(PQresultStatus) X(PQresultErrorField) X(PQntuples)   \
    X(PQgetvalue) X(PQgetlength) X(PQgetisnull) X(PQclear)                 \
    X(PQsetNoticeProcessor)

static void load(void)
{
    const char *env = getenv("AUTOTUNE_LIBPQ");
    const char *path = env && *env ? env : "libpq.so.5";
    char why[1024];
    void *h = at_dl_open_first(&path, 1, why, sizeof why);
    if (!h) {
        at_fail(&load_err, AUTOTUNE_ESTORE, "a PostgreSQL store needs "
                "libpq: %s (Debian: apt-get install libpq5)", why);
        return;
    }
#define AT_PQ_SYM_(fn)                                                       \
    if (!(*(void **)&at_pq.fn = at_dl_sym(h, #fn))) {                       \
        at_fail(&load_err, AUTOTUNE_ESTORE, "libpq %s lacks %s", path, #fn); \
        return;                                                              \
    }
    AT_PQ_FUNCS(AT_PQ_SYM_)
#undef AT_PQ_SYM_
}

int at_pq_load(at_err *e)
{
    pthread_once(&once, load);
    if (load_err.code)
        return at_fail(e, load_err.code, "%s", load_err.msg);
    return 0;
}

int at_pq_is_uri(const char *path)
{
    return path && (strncmp(path, "postgresql://", 13) == 0 ||
                    strncmp(path, "postgres://", 11) == 0);
}

void at_pq_shown(const char *uri, char *buf, size_t n)
{
    /* scheme://user:password@host...: the password is between the first
     * ':' after "//" and the '@' that ends the user part. */
    const char *auth = strstr(uri, "//");
    const char *at = auth ? strchr(auth + 2, '@') : NULL;
    const char *slash = auth ? strchr(auth + 2, '/') : NULL;
    const char *colon = auth ? strchr(auth + 2, ':') : NULL;
    if (at && (!slash || at < slash) && colon && colon < at)
        snprintf(buf, n, "%.*s***%s", (int)(colon + 1 - uri), uri, at);
    else
        snprintf(buf, n, "%s", uri);
}

static void quiet(void *arg, const char *msg)
{
    (void)arg; /* NOTICEs ("relation ... already exists, skipping") */
    (void)msg;
}

int at_pq_connect(const char *uri, PGconn **out, at_err *e)
{
    *out = NULL;
    int rc = at_pq_load(e);
    if (rc)
        return rc;
    char shown[1024];
    at_pq_shown(uri, shown, sizeof shown);
    PGconn *c = at_pq.PQconnectdb(uri);
    if (!c)
        return at_fail(e, AUTOTUNE_ENOMEM, "PQconnectdb [store %s]", shown);
    if (at_pq.PQstatus(c) != AT_PQ_CONNECTION_OK) {
        char msg[600];
        snprintf(msg, sizeof msg, "%s", at_pq.PQerrorMessage(c));
        msg[strcspn(msg, "\n")] = '\0';
        at_pq.PQfinish(c);
        return at_fail(e, AUTOTUNE_ESTORE, "PQconnectdb: %s [store %s]",
                       msg, shown);
    }
    at_pq.PQsetNoticeProcessor(c, quiet, NULL);
    /* What reading rows relies on, whatever the server's defaults: bytea
     * as hex, doubles printed to round-trip (servers before 12 print 15
     * digits by default). */
    int rc2 = at_pq_run(c, shown, "setting bytea_output and "
                        "extra_float_digits", "SELECT set_config("
                        "'bytea_output', 'hex', false), set_config("
                        "'extra_float_digits', '3', false)", 0, NULL, e);
    if (rc2) {
        at_pq.PQfinish(c);
        return rc2;
    }
    *out = c;
    return 0;
}

int at_pq_exec(PGconn *c, const char *shown, const char *what,
               const char *sql, int n, const char *const *values,
               const int *lengths, const int *binary, PGresult **res,
               at_err *e)
{
    last_state[0] = '\0';
    PGresult *r = at_pq.PQexecParams(c, sql, n, NULL, values, lengths,
                                     binary, 0);
    int st = r ? at_pq.PQresultStatus(r) : -1;
    if (st == AT_PQ_COMMAND_OK || st == AT_PQ_TUPLES_OK) {
        *res = r;
        return 0;
    }
    /* PG_DIAG_SQLSTATE 'C', PG_DIAG_MESSAGE_PRIMARY 'M' */
    const char *state = r ? at_pq.PQresultErrorField(r, 'C') : NULL;
    const char *msg = r ? at_pq.PQresultErrorField(r, 'M') : NULL;
    char text[512];
    snprintf(text, sizeof text, "%s",
             msg ? msg : at_pq.PQerrorMessage(c));
    text[strcspn(text, "\n")] = '\0';
    snprintf(last_state, sizeof last_state, "%s", state ? state : "");
    at_fail(e, AUTOTUNE_ESTORE, "%s: SQLSTATE %s: %s [store %s]", what,
            state ? state : "none (no answer)", text, shown);
    if (r)
        at_pq.PQclear(r);
    *res = NULL;
    return AUTOTUNE_ESTORE;
}

int at_pq_run(PGconn *c, const char *shown, const char *what,
              const char *sql, int n, const char *const *values, at_err *e)
{
    PGresult *r = NULL;
    int rc = at_pq_exec(c, shown, what, sql, n, values, NULL, NULL, &r, e);
    if (!rc)
        at_pq.PQclear(r);
    return rc;
}

int at_pq_value(PGconn *c, const char *shown, const char *what,
                const char *sql, int n, const char *const *values, char *out,
                size_t cap, at_err *e)
{
    PGresult *r = NULL;
    int rc = at_pq_exec(c, shown, what, sql, n, values, NULL, NULL, &r, e);
    if (rc)
        return rc;
    int found = at_pq.PQntuples(r) > 0;
    if (found)
        snprintf(out, cap, "%s", at_pq.PQgetvalue(r, 0, 0));
    at_pq.PQclear(r);
    return found;
}

const char *at_pq_last_state(void) { return last_state; }

static int hex(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int at_pq_bytea(const char *text, void **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (strncmp(text, "\\x", 2) != 0)
        return -1;
    size_t len = strlen(text + 2);
    if (len % 2 || len == 0)
        return -1;
    unsigned char *b = malloc(len / 2);
    if (!b)
        return -1;
    for (size_t i = 0; i < len / 2; ++i) {
        int hi = hex(text[2 + 2 * i]), lo = hex(text[3 + 2 * i]);
        if (hi < 0 || lo < 0) {
            free(b);
            return -1;
        }
        b[i] = (unsigned char)(hi << 4 | lo);
    }
    *out = b;
    *n = len / 2;
    return 0;
}
