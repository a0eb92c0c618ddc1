#!/bin/bash
# For the next session (not run yet): next/thin_tiles.patch lets tiles
# compete where strips alone served, for short input rows end to end: a
# tile under twice as wide as the rows, of 32 bytes or more (u8 Nx32:
# tile 32, a sector wide; f16 Nx21: 32; f16 Nx12: 16; f32 Nx20: 32; f64
# Nx5: 8), its input one run (flat). r89 drew u8 3114778x32 at 67.4% of
# the copy (a strip) and earlier sweeps f16 3052271x21 at 76.7%; the
# patch adds 138, 336 and 496 tile points to the spaces of u8 Nx32, f16
# Nx21 and f32 Nx20 (158, 104 and 92 points before). Transpose abi 14. On the build machine: test_space (a case
# that fails without it), test_sweep's new thin_tiles (every 8th tile
# point of u8 Nx32 and f16 Nx21; a one-off run compiled all 1010 tile
# points of those and of f32 Nx20), tests/template_host.sh on u8
# 32x64/256/512 and f16 32x128 tiles (12 of 12).
# Build (from a clean tree at the commit that added this file):
#   make build/autotune && cp build/autotune build/at-head &&
#   git apply docs/perf/issue36-h200/next/thin_tiles.patch &&
#   make build/autotune build/tests/gpu_variants-rel &&
#   cp build/autotune build/at-thin
# then carry build/at-head, build/at-thin, build/tests/gpu_variants-rel
# and build/tests/lib. `bash thin_tiles.sh` (about 560 s): gpu_variants'
# new thin_tile_points tests (every tile point of 100003x32, x21,
# 60013x12 batch 3 and 100003x5 on every type; AT_GPU_SAMPLE=2 if the
# time is short), memcheck on a sample, then short-input-row transposes
# of 64 to 192 MiB drawn here, each tuned cold by both builds in turn.
# From the repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/thin; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/at-thin
AT_GPU_TESTS='thin_tile_points_*' timeout 150 \
    build/tests/gpu_variants-rel > "$O/variants.txt" 2>&1
echo "== variants rc=$? $SECONDS s: $(grep -cE '^ok' "$O/variants.txt") ok, $(grep -cE '^not ok' "$O/variants.txt") not ok"
grep -E "^(not )?ok|FAILED|verified" "$O/variants.txt" | cut -c1-150 | head -20
AT_GPU_SAMPLE=40 AT_GPU_TESTS='thin_tile_points_[12]_bytes' timeout 90 \
    sh tests/gpu/sanitize.sh gpu_variants > "$O/sanitize.txt" 2>&1
echo "== sanitize rc=$? $SECONDS s"; grep -E "^(not )?ok|SUMMARY" "$O/sanitize.txt"
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "== seed $S"
python3 - "$S" > "$O/problems.txt" <<'PY'
import random, sys
r = random.Random(int(sys.argv[1]))
# short input rows end to end: cols from what the patch serves
cols = {"u8": (17, 32), "i8": (17, 32), "f16": (9, 31), "bf16": (9, 31),
        "f32": (5, 31), "f64": (5, 9)}
size = {"u8": 1, "i8": 1, "f16": 2, "bf16": 2, "f32": 4, "f64": 8}
for k in range(10):
    t = r.choice(["u8", "u8", "i8", "f16", "bf16", "f32", "f64"])
    c = r.randint(*cols[t]) if k % 2 else max(cols[t])
    rows = int(r.uniform(64, 192) * 2**20) // (size[t] * c)
    print(t, rows, c, c, rows)
PY
cat "$O/problems.txt"
bash docs/perf/issue36-h200/tools/ab_tunes.sh "$O/problems.txt" \
    $((565 - SECONDS)) "$W" at-head at-thin
(cd "$W" && tar -cJf "$O/bench.tar.xz" b-*.csv b-*.log)
python3 docs/perf/issue36-h200/tools/ab_table.py "$W" at-head at-thin
