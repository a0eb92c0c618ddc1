/* libpq, loaded when a store names PostgreSQL (dlopen of libpq.so.5, as
 * the driver is loaded): a build or a run without PostgreSQL works, and
 * only AUTOTUNE_CACHE=postgresql://... needs the library. The few calls
 * the shared store makes, declared here from libpq's stable ABI (its
 * enums' values have not changed since PostgreSQL 7.4), each checked:
 * a failure names the statement, PostgreSQL's SQLSTATE and message, and
 * the store (the connection string with its password hidden). */
#ifndef AT_PQ_H
#define AT_PQ_H

#include <stddef.h>

#include "base/error.h"

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

/* libpq's ConnStatusType and ExecStatusType values we test. */
enum { AT_PQ_CONNECTION_OK = 0 };
enum { AT_PQ_COMMAND_OK = 1, AT_PQ_TUPLES_OK = 2 };

typedef struct at_pq_api {
    PGconn *(*PQconnectdb)(const char *conninfo);
    int (*PQstatus)(const PGconn *conn);
    char *(*PQerrorMessage)(const PGconn *conn);
    void (*PQfinish)(PGconn *conn);
    PGresult *(*PQexecParams)(PGconn *conn, const char *command, int n,
                              const unsigned *types,
                              const char *const *values, const int *lengths,
                              const int *formats, int result_format);
    int (*PQresultStatus)(const PGresult *res);
    char *(*PQresultErrorField)(const PGresult *res, int field);
    int (*PQntuples)(const PGresult *res);
    char *(*PQgetvalue)(const PGresult *res, int row, int col);
    int (*PQgetlength)(const PGresult *res, int row, int col);
    int (*PQgetisnull)(const PGresult *res, int row, int col);
    void (*PQclear)(PGresult *res);
    void *(*PQsetNoticeProcessor)(PGconn *conn,
                                  void (*fn)(void *arg, const char *msg),
                                  void *arg);
} at_pq_api;

extern at_pq_api at_pq;

/* Loads libpq once ($AUTOTUNE_LIBPQ, else libpq.so.5): 0, or
 * AUTOTUNE_ESTORE saying what is missing and how to install it. */
int at_pq_load(at_err *e);

/* Whether a cache path names a PostgreSQL store (a libpq URI:
 * postgresql://... or postgres://...). */
int at_pq_is_uri(const char *path);
/* The URI for messages, its password (user:PASSWORD@) shown as ***. */
void at_pq_shown(const char *uri, char *buf, size_t n);

/* Connects (notices silenced): 0, or AUTOTUNE_ESTORE with libpq's
 * message. */
int at_pq_connect(const char *uri, PGconn **out, at_err *e);

/* One statement with text parameters (NULL: SQL NULL; lengths[i] > 0
 * with binary[i]: that many bytes sent as binary, for bytea): *res on
 * success (PQclear it), else AUTOTUNE_ESTORE naming what (the statement's
 * short name), the SQLSTATE, PostgreSQL's message and the store. */
int at_pq_exec(PGconn *c, const char *shown, const char *what,
               const char *sql, int n, const char *const *values,
               const int *lengths, const int *binary, PGresult **res,
               at_err *e);
/* The same for a statement whose rows are not wanted. */
int at_pq_run(PGconn *c, const char *shown, const char *what,
              const char *sql, int n, const char *const *values,
              at_err *e);
/* A statement's first value copied to out: 1, 0 no row, < 0 the
 * statement's failure. */
int at_pq_value(PGconn *c, const char *shown, const char *what,
                const char *sql, int n, const char *const *values, char *out,
                size_t cap, at_err *e);
/* The SQLSTATE of the last failure at_pq_exec saw in this thread ("" if
 * none): "40P01" deadlock, "08006" connection lost, ... */
const char *at_pq_last_state(void);

/* A bytea column in text form ("\x0a1b...") decoded: *out malloc'd. */
int at_pq_bytea(const char *text, void **out, size_t *n);

#endif
