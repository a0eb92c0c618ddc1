#!/bin/sh
# TAP: a list of problems on every GPU here (issue 38): `autotune
# tune-list FILE --devices all` tunes each problem once per GPU model and
# stores it (a repeat is all cache hits), --sizes with --devices emits
# from what the devices tuned, and, where a PostgreSQL server can be
# started (tests/pg_server.sh), two processes as two hosts share one
# list through the store's jobs table: every problem tuned once between
# them, each seeing every answer, and a host killed in the middle of a
# job has its job taken again by the other once its lease ran out.
# Skips without a GPU.
cd "$(dirname "$0")/../.." || exit 1
. tests/gpu/tap.sh
T=${AT_GPU_TMP:-$(mktemp -d)}/tune_list
rm -rf "$T"
mkdir -p "$T"
A=${AUTOTUNE:-$PWD/build/autotune}
export AUTOTUNE_CACHE="$T/cache.db"
cat > "$T/list.txt" <<'EOF'
# three problems, one twice
transpose --type f32 --size 512x512
transpose --type f16 --size 300x700   # odd sides
reduce --type f32 --n 1000000
transpose --type f32 --size 512x512
EOF

out=$($A tune-list "$T/list.txt" --devices all --seed 5 2>&1)
rc=$?
skip_without_gpu $rc "$out"
plan 7
answers=$(printf '%s\n' "$out" | sed -n 's/.*: \([0-9]*\) answers\{0,1\} on.*/\1/p')
tuned=$(printf '%s\n' "$out" | sed -n 's/^  \([0-9]*\) tuned here.*/\1/p')
[ $rc -eq 0 ] && [ "${answers:-0}" -ge 3 ] && [ "$tuned" = "$answers" ]
report $? "tune-list --devices all: 3 problems (one listed twice), each tuned once per GPU model ($tuned of $answers)" "$out"

out=$($A tune-list "$T/list.txt" --devices all 2>&1)
rc=$?
printf '%s\n' "$out" | grep -q "^  0 tuned here, $answers from the cache"
report $(( rc || $? )) "the list again: every answer from the cache" "$out"

out=$($A transpose --sizes 512x512,300x700 --type f32 --devices all \
      -o "$T/multi.cu" 2>&1)
rc=$?
[ $rc -eq 0 ] && [ -s "$T/multi.cu" ] &&
    printf '%s\n' "$out" | grep -q "from the cache"
report $(( rc || $? )) "--sizes with --devices: tuned on the devices, emitted from the cache" "$out"

# Two hosts on one store.
P=$(mktemp -d /tmp/autotune-pg.XXXXXX)
chmod 711 "$P"
if ! uris=$(sh tests/pg_server.sh start "$P/pg" 2>"$P/err"); then
    for k in 4 5 6 7; do
        echo "ok $k # SKIP no PostgreSQL server: $(head -1 "$P/err")"
    done
    rm -rf "$P"
    exit 0
fi
trap 'sh tests/pg_server.sh stop "$P/pg" 2>/dev/null; rm -rf "$P"' EXIT
AUTOTUNE_CACHE=$(printf '%s\n' "$uris" | sed -n 1p)
export AUTOTUNE_CACHE
psql() { env ${PG_LIBS:+LD_LIBRARY_PATH=$PG_LIBS} \
    "${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}/psql" \
    -X -A -t -h "$P/pg" -p 54329 -U autotune -d autotune -c "$1"; }
cat > "$T/hosts.txt" <<'EOF'
transpose --type f32 --size 1024x1024
transpose --type f32 --size 2000x3000
transpose --type f64 --size 1024x768
transpose --type u8 --size 4096x4096
transpose --type f16 --size 2048x2048
transpose --type bf16 --size 1500x1500
EOF
count=$(grep -c . "$T/hosts.txt")
$A tune-list "$T/hosts.txt" --devices 0 --seed 9 > "$T/a.out" 2>&1 &
a=$!
$A tune-list "$T/hosts.txt" --devices 0 --seed 9 > "$T/b.out" 2>&1
rb=$?
wait $a
ra=$?
ta=$(sed -n 's/^  \([0-9]*\) tuned here.*/\1/p' "$T/a.out")
tb=$(sed -n 's/^  \([0-9]*\) tuned here.*/\1/p' "$T/b.out")
[ $ra -eq 0 ] && [ $rb -eq 0 ] && [ $((ta + tb)) -eq "$count" ]
report $? "two hosts, one list of $count: tuned once between them ($ta + $tb)" "$(cat "$T/a.out" "$T/b.out")"
oa=$(grep -c " other host  *[0-9]" "$T/a.out")
ob=$(grep -c " other host  *[0-9]" "$T/b.out")
[ "$oa" -eq "$tb" ] && [ "$ob" -eq "$ta" ]
report $? "each host sees every answer: the other's read from the store ($oa, $ob)" ""

# A host killed in the middle of a job: its lease runs out, the other
# takes the job again.
$A cache clear > /dev/null 2>&1 # the jobs with the entries
export AUTOTUNE_JOB_LEASE=4
$A tune-list "$T/hosts.txt" --devices 0 --seed 9 > "$T/dead.out" 2>&1 &
d=$!
for i in $(seq 1 300); do
    [ "$(psql "SELECT count(*) FROM autotune.jobs WHERE state = 'running'")" = 1 ] && break
    sleep 0.1
done
kill -9 $d
wait $d 2>/dev/null
job=$(psql "SELECT problem FROM autotune.jobs WHERE state = 'running'")
t0=$(date +%s.%N)
out=$($A tune-list "$T/hosts.txt" --devices 0 --seed 9 2>&1)
rc=$?
t1=$(date +%s.%N)
left=$(psql "SELECT count(*) FROM autotune.jobs WHERE state <> 'done'")
tries=$(psql "SELECT tries FROM autotune.jobs WHERE problem = '$job'")
[ $rc -eq 0 ] && [ -n "$job" ] && [ "$left" = 0 ] && [ "$tries" = 2 ]
report $? "a host killed holding '$job': the other took it again (tries $tries), every job done" "$out"
entries=$(psql "SELECT count(*) FROM autotune.wisdom")
[ "$entries" -ge "$count" ]
report $? "the store holds every answer ($entries entries for $count problems; $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s for the survivor, lease 4 s)" ""
