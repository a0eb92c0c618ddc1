#!/bin/sh
# The list benchmark (issue 38, docs/PERFORMANCE.md "A list on every
# GPU"): one list of problems (default tests/gpu/list16.txt) tuned with
# `autotune tune-list` on one GPU and on two, each run on caches of its
# own:
#   cold  nothing cached (no tuned entry, no compiled variant)
#   warm  compiled variants cached (from the cold one-GPU run), no entry
# then, where a PostgreSQL server can be started (tests/pg_server.sh,
# PG_BIN for one carried along), the same list through a store: one
# "host" (a process on GPU 0) against two (one on each GPU, sharing the
# list through the jobs table). Each run's table is kept in $KEEP (default
# a temporary folder); a summary table is printed last: wall seconds,
# speedup, problems tuned, and the winners of one GPU and two compared
# (differing names with their % of the copy). Needs two GPUs for the
# two-GPU rows.
cd "$(dirname "$0")/../.." || exit 1
A=${AUTOTUNE:-$PWD/build/autotune}
LIST=${1:-tests/gpu/list16.txt}
K=${KEEP:-$(mktemp -d)}
SEED=${SEED:-38}
mkdir -p "$K"
export CUDA_CACHE_DISABLE=1
unset AUTOTUNE_CACHE AUTOTUNE_CUBIN_CACHE

# run NAME DEVICES [env...]: one tune-list, its wall time in NAME.s
run() {
    name=$1 devs=$2
    shift 2
    t0=$(date +%s.%N)
    env "$@" "$A" tune-list "$LIST" --devices "$devs" --seed "$SEED" \
        > "$K/$name.out" 2> "$K/$name.err"
    echo $? > "$K/$name.rc"
    t1=$(date +%s.%N)
    awk "BEGIN { printf \"%.1f\", $t1 - $t0 }" > "$K/$name.s"
    echo "$name: $(cat "$K/$name.s") s, rc $(cat "$K/$name.rc")" >&2
}

# RUNS: which of cold, warm and store to run (default all three).
RUNS=${RUNS:-cold warm store}
for c in cold1 cold2 warm1 warm2; do rm -rf "$K/$c.home"; mkdir -p "$K/$c.home"; done
run cold2 0,1 XDG_CACHE_HOME="$K/cold2.home"
run cold1 0 XDG_CACHE_HOME="$K/cold1.home"
CUBINS="$K/cold1.home/autotune/cache-cubins.db"
for w in warm1 warm2; do cp "$CUBINS" "$K/$w.cubins.db"; done
case $RUNS in *warm*)
run warm1 0 XDG_CACHE_HOME="$K/warm1.home" AUTOTUNE_CUBIN_CACHE="$K/warm1.cubins.db"
run warm2 0,1 XDG_CACHE_HOME="$K/warm2.home" AUTOTUNE_CUBIN_CACHE="$K/warm2.cubins.db"
esac

# Through a store: one host, then two (a process a GPU).
P=$(mktemp -d /tmp/autotune-pg.XXXXXX)
chmod 711 "$P"
case $RUNS in *store*) uris=$(sh tests/pg_server.sh start "$P/pg" 2>"$P/err") ;;
*) false ;; esac
if [ $? -eq 0 ]; then
    URI=$(printf '%s\n' "$uris" | sed -n 1p)
    for h in host1 hostA hostB; do cp "$CUBINS" "$K/$h.cubins.db"; done
    run host1 0 AUTOTUNE_CACHE="$URI" AUTOTUNE_CUBIN_CACHE="$K/host1.cubins.db"
    AUTOTUNE_CACHE="$URI" "$A" cache clear > /dev/null
    t0=$(date +%s.%N)
    run hostA 0 CUDA_VISIBLE_DEVICES=0 AUTOTUNE_CACHE="$URI" AUTOTUNE_CUBIN_CACHE="$K/hostA.cubins.db" &
    run hostB 0 CUDA_VISIBLE_DEVICES=1 AUTOTUNE_CACHE="$URI" AUTOTUNE_CUBIN_CACHE="$K/hostB.cubins.db"
    wait
    t1=$(date +%s.%N)
    awk "BEGIN { printf \"%.1f\", $t1 - $t0 }" > "$K/hosts2.s"
    sh tests/pg_server.sh stop "$P/pg"
else
    echo "no store runs: $(head -2 "$P/err" 2>/dev/null)" >&2
fi
rm -rf "$P"

tuned() { sed -n 's/^  \([0-9]*\) tuned here.*/\1/p' "$K/$1.out"; }
# The winners of two runs compared: "same" or the differing ones.
winners() {
    awk -v a="$K/$1.out" -v b="$K/$2.out" 'BEGIN {
        while ((getline l < a) > 0) if (l ~ /^  [a-z]/ && l !~ /^  problem/) {
            split(l, f, /  +/); p = f[2]; w[p] = l }
        same = 0; diff = ""
        while ((getline l < b) > 0) if (l ~ /^  [a-z]/ && l !~ /^  problem/) {
            split(l, f, /  +/); p = f[2]
            n = split(w[p], g, " "); m = split(l, h, " ")
            if (g[n] == h[m]) same++
            else diff = diff sprintf("\n    %s: %s %s%% / %s %s%%", p, g[n], g[n-1], h[m], h[m-1])
        }
        printf "%d same%s", same, diff }'
}
echo
echo "list $LIST ($(grep -c '^[a-z]' "$LIST") problems), seed $SEED, $(nproc) cores"
nvidia-smi --query-gpu=index,name --format=csv,noheader 2>/dev/null | sed 's/^/  GPU /'
printf '%-34s %8s %8s %6s\n' "run" "wall s" "speedup" "tuned"
for pair in "cold1 cold2" "warm1 warm2"; do
    one=${pair% *} two=${pair#* }
    [ -f "$K/$two.s" ] || continue
    printf '%-34s %8s %8s %6s\n' "$one (one GPU)" "$(cat "$K/$one.s")" "" "$(tuned $one)"
    printf '%-34s %8s %8s %6s\n' "$two (two GPUs)" "$(cat "$K/$two.s")" \
        "$(awk "BEGIN { printf \"%.2fx\", $(cat "$K/$one.s") / $(cat "$K/$two.s") }")" "$(tuned $two)"
    echo "  winners: $(winners $one $two)"
done
if [ -f "$K/hosts2.s" ]; then
    printf '%-34s %8s %8s %6s\n' "store, one host (GPU 0)" "$(cat "$K/host1.s")" "" "$(tuned host1)"
    printf '%-34s %8s %8s %6s\n' "store, two hosts (a GPU each)" "$(cat "$K/hosts2.s")" \
        "$(awk "BEGIN { printf \"%.2fx\", $(cat "$K/host1.s") / $(cat "$K/hosts2.s") }")" \
        "$(($(tuned hostA) + $(tuned hostB)))"
    echo "  host A tuned $(tuned hostA), host B $(tuned hostB); other host's answers seen: A $(grep -c ' other host  *[0-9]' "$K/hostA.out"), B $(grep -c ' other host  *[0-9]' "$K/hostB.out")"
    echo "  winners (one host vs two): $(winners host1 hostA)"
fi
