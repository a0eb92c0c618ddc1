#!/bin/sh
# The tuning store's conformance (build/tests/test_store, or the test
# binary given: tests/jobs.sh's) against both backends: a throwaway
# PostgreSQL server started for it
# (tests/pg_server.sh: initdb into a temporary folder, a private socket,
# an unprivileged user where the tests run as root), then stopped. Where
# no PostgreSQL server is installed, the SQLite half runs and the
# PostgreSQL half says it was not run. TAP (under prove).
cd "$(dirname "$0")/.." || exit 1
P=$(mktemp -d /tmp/autotune-pg.XXXXXX) || exit 1
chmod 711 "$P" # the server's user reaches its folder inside
trap 'sh tests/pg_server.sh stop "$P/pg" 2>/dev/null; rm -rf "$P"' EXIT
if uris=$(sh tests/pg_server.sh start "$P/pg" 2>"$P/start.err"); then
    AUTOTUNE_TEST_PG=$(printf '%s\n' "$uris" | sed -n 1p)
    AUTOTUNE_TEST_PG_OTHER=$(printf '%s\n' "$uris" | sed -n 2p)
    AUTOTUNE_TEST_PG_CTL=$PWD/tests/pg_server.sh
    AUTOTUNE_TEST_PG_DIR=$P/pg
    export AUTOTUNE_TEST_PG AUTOTUNE_TEST_PG_OTHER AUTOTUNE_TEST_PG_CTL \
        AUTOTUNE_TEST_PG_DIR
else
    echo "# no PostgreSQL server for the test: $(head -3 "$P/start.err")"
fi
"${1:-build/tests/test_store}"
