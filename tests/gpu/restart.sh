#!/bin/bash
# GPU: a variant's own failure never restarts a tune from the beginning
# (issue 34). In tests/data/specs/restart.yaml's 103 points, one at 10%
# of the space cannot launch (128 registers a thread, 1024 threads: the
# driver refuses), one at 50% writes to an illegal address, one at 90%
# never finishes. The tune finishes; the refused launch fails in the same
# GPU worker; the fault and the hang each end theirs, and the next one
# resumes: every point is evaluated exactly once (counted from the
# record), the report says which failed and why, and each restart costs
# under a second plus the fault's own time. TAP; skips without a GPU.
cd "$(dirname "$0")/../.." || exit 1
. tests/gpu/tap.sh
BIN=$PWD/build/autotune
T=${AT_GPU_TMP:-$(mktemp -d)}/restart
rm -rf "$T" && mkdir -p -m 700 "$T"
export AUTOTUNE_CACHE=$T/cache.db
SPEC=tests/data/specs/restart.yaml

t0=$(date +%s.%N)
$BIN kernel $SPEC --arch auto --kernel-limit 1 --seed 5 --record "$T/rec.csv" \
    -o "$T/r.cu" >"$T/out" 2>"$T/err"
rc=$?
t1=$(date +%s.%N)
skip_without_gpu $rc "$(cat "$T/err")"
plan 6
report $rc "the tune finishes past a refused launch, a fault and a hang" \
    "$(grep -E "tuned in|best:|also:|restart" "$T/out" "$T/err")"

# Every point once: 103 rows, 103 distinct points, each status as planted.
counts=$(python3 - "$T/rec.csv" <<'EOF'
import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
pts = collections.Counter(r["point"] for r in rows)
st = {r["point"]: r["status"] for r in rows}
print(len(rows), len(pts), max(pts.values()), st.get("a1_b0_mode1"),
      st.get("a5_b0_mode2"), st.get("a9_b0_mode3"),
      sum(1 for s in st.values() if s == "ok"))
EOF
)
set -- $counts
report $(test "$1" = 103 -a "$2" = 103 -a "$3" = 1; echo $?) \
    "every point evaluated exactly once: $1 rows, $2 points, at most $3 each" \
    "$counts"
report $(test "$4" = launch_failed -a "$5" = faulted -a "$6" = faulted \
         -a "$7" = 100; echo $?) \
    "the record says how each planted point failed ($4, $5, $6), 100 ok" ""

# Restarts: two (the fault, the hang), none for the refused launch.
restarts=$(grep -c "a new GPU worker goes on" "$T/err")
report $(test "$restarts" = 2; echo $?) \
    "two GPU workers ended (the fault and the hang); the refused launch did not end one" \
    "$(grep -E "goes on|restart" "$T/err")"

# The report says which failed and why.
report $(grep -q "cannot launch: 1024 threads a block, the kernel allows" "$T/out" &&
         grep -q "CUDA_ERROR_ILLEGAL_ADDRESS" "$T/out" &&
         grep -q "hung" "$T/out" &&
         grep -q "1 could not launch" "$T/out" &&
         grep -q "2 faulted or hung" "$T/out"; echo $?) \
    "the report names each failed variant and why" \
    "$(grep -E "failed|also:" "$T/out")"

# A restart's cost: the next worker's first new point within a second of
# the fault (the hang's own time, its kernel limit, comes before).
cost=$(sed -n 's/.*at most \([0-9.]*\) s after the fault.*/\1/p' "$T/err")
report $(python3 -c "import sys; sys.exit(0 if 0 < float('${cost:-9}') < 1.0 else 1)"; echo $?) \
    "each restart: the next worker's first new point ${cost:-?} s after the fault (under 1 s)" \
    "whole tune $(python3 -c "print(f'{$t1-$t0:.1f}')") s"
