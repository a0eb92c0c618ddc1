#!/bin/sh
# A throwaway PostgreSQL server for the shared store's tests: initdb into
# DIR, listening on a Unix socket in DIR only (no TCP port, nothing
# shared with the machine's own server), as the unprivileged user
# "postgres" (or nobody) when run as root, since PostgreSQL refuses to run
# as root. Two databases: "autotune" (empty, the store's) and "other" (a
# table of another program's). Debian's postgresql package
# (.ci/deps.sh installs it), or the one in $PG_BIN (its libraries in
# $PG_LIBS).
#   tests/pg_server.sh start DIR   prints the store's URI, then the other's
#   tests/pg_server.sh stop DIR    stops it (immediately) and removes DIR
#   tests/pg_server.sh kill DIR    kills the server at once (-9), DIR kept
#   tests/pg_server.sh restart DIR starts a killed server again
set -u
cmd=${1:-} dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop|kill|restart DIR" >&2; exit 2; }
# A server carried to a machine without one: its libraries in $PG_LIBS.
[ -n "${PG_LIBS:-}" ] && LD_LIBRARY_PATH=$PG_LIBS && export LD_LIBRARY_PATH
bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "no PostgreSQL server here (Debian: apt-get install postgresql)" >&2
    exit 3
fi
as() {
    if [ "$(id -u)" = 0 ]; then
        u=postgres
        id "$u" >/dev/null 2>&1 || u=nobody
        runuser -u "$u" -- "$@"
    else
        "$@"
    fi
}
port=54329
case $cmd in
start)
    mkdir -p "$dir" && chmod 700 "$dir" || exit 1
    if [ "$(id -u)" = 0 ]; then
        u=postgres
        id "$u" >/dev/null 2>&1 || u=nobody
        chown "$u" "$dir"
    fi
    as "$bin/initdb" -D "$dir/data" -U autotune -A trust -E UTF8 \
        --locale=C --no-sync > "$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-k $dir -p $port -c listen_addresses= -c fsync=off" start \
        > /dev/null || { cat "$dir/server.log" >&2; exit 1; }
    as "$bin/createdb" -h "$dir" -p $port -U autotune autotune &&
    as "$bin/createdb" -h "$dir" -p $port -U autotune other &&
    as "$bin/psql" -q -h "$dir" -p $port -U autotune -d other -c \
        "CREATE TABLE customers(id INT PRIMARY KEY, name TEXT);
         INSERT INTO customers VALUES (1, 'kept')" || exit 1
    echo "postgresql:///autotune?host=$dir&port=$port&user=autotune"
    echo "postgresql:///other?host=$dir&port=$port&user=autotune"
    ;;
stop)
    as "$bin/pg_ctl" -D "$dir/data" -m immediate stop > /dev/null 2>&1
    rm -rf "$dir"
    ;;
kill)
    pid=$(head -1 "$dir/data/postmaster.pid" 2>/dev/null)
    [ -n "$pid" ] && kill -9 "$pid"
    # The backends go when they see their postmaster gone.
    sleep 1
    ;;
restart)
    # What the killed server left: its pid file and its socket's lock (a
    # killed postmaster may linger as a zombie where nothing reaps it, and
    # would pass for a live one).
    rm -f "$dir/data/postmaster.pid" "$dir/.s.PGSQL.$port" \
        "$dir/.s.PGSQL.$port.lock"
    as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-k $dir -p $port -c listen_addresses= -c fsync=off" start \
        > /dev/null || { cat "$dir/server.log" >&2; exit 1; }
    ;;
*) echo "usage: $0 start|stop|kill|restart DIR" >&2; exit 2 ;;
esac
