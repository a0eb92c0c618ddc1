#!/bin/sh
# Nearest-size reuse, measured (issue 12): 30 transpose f32 sizes drawn
# log-uniform (rows and cols 256..16384, odd and even alike; seed fixed
# so runs compare), each tuned over its whole space with a record; then
# build/bench/near_quality says, leave one out, how the point estimate
# would reuse for each size (the one runtime/plan/near_pick.h weighs best over
# the nearest other sizes' profiles) does against that size's optimum,
# from the records; and build/bench/near_retime
# times it as a user would see it: for each size, AUTOTUNE_ESTIMATE's
# kernel from the cache without that size against the tuned kernel,
# back to back through the API (about a minute or two more). The status
# is the first of the two to fail.
# Usage: sh tests/gpu/near_sweep.sh [OUTDIR] [N] [SEED]
cd "$(dirname "$0")/../.." || exit 1
out=${1:-${AT_GPU_TMP:-/tmp}/near_sweep}
n=${2:-30}
seed=${3:-12}
mkdir -p "$out" || exit 1
export AUTOTUNE_CACHE="$out/cache.db"
sizes=$(python3 - "$n" "$seed" <<'PY'
import random, sys
r = random.Random(int(sys.argv[2]))
for _ in range(int(sys.argv[1])):
    print(int(2 ** r.uniform(8, 14)), int(2 ** r.uniform(8, 14)))
PY
)
echo "$sizes" | while read -r rows cols; do
    t0=$(date +%s.%N)
    build/autotune transpose --type f32 --rows "$rows" --cols "$cols" \
        --record "$out/t_${rows}x${cols}.csv" --quiet -o "$out/t.cu" ||
        echo "tune of ${rows}x${cols} failed"
    awk -v a="$t0" -v b="$(date +%s.%N)" -v s="${rows}x${cols}" \
        'BEGIN { printf "%s tuned in %.1f s\n", s, b - a }'
done
build/bench/near_quality "$out"/t_*.csv
q=$?
build/bench/near_retime "$AUTOTUNE_CACHE"
r=$?
[ "$q" -ne 0 ] && exit "$q"
exit "$r"
