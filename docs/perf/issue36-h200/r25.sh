#!/bin/bash
# Input not chosen: problems drawn on the GPU machine at run time (the
# seed printed first), each tuned cold, its emitted .cu in the nvcc
# program through the file's cubin and as nvcc builds it (XC_SOURCE=1),
# then autotune bench: four transposes of 64 to 400 MiB (any type, odd
# sides, a quarter with padded leading dimensions) and two reductions
# down columns. Carry build/autotune. About 7 minutes.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r25; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune XC_SOURCE=1
seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "seed $seed"
read -r -a T <<< "$(awk -v s="$seed" 'BEGIN { srand(s);
  split("i8 u8 f16 bf16 f32 f64 c64 c128", ty, " "); split("1 1 2 2 4 8 8 16", sz, " ");
  for (k = 0; k < 4; k++) {
    i = 1 + int(rand() * 8); b = (64 + rand() * 336) * 1048576 / sz[i];
    a = exp(rand() * log(4096)); r = int(sqrt(b / a)); c = int(b / r);
    if (rand() < 0.5) { t = r; r = c; c = t }
    li = c; lo = r;
    if (rand() < 0.25) { li = c + 1 + int(rand() * 64); lo = r + 1 + int(rand() * 64) }
    printf "%s:%dx%d:%d:%d ", ty[i], r, c, li, lo } }')"
read -r -a R <<< "$(awk -v s="$seed" 'BEGIN { srand(s + 1);
  split("f32 f16 bf16 f64 i32", ty, " "); split("4 2 2 8 4", sz, " ");
  split("sum min max sumsq amax", op, " ");
  for (k = 0; k < 2; k++) {
    i = 1 + int(rand() * 5); b = (64 + rand() * 336) * 1048576 / sz[i];
    c = int(exp(log(16) + rand() * (log(4096) - log(16)))); r = int(b / c);
    printf "%s:%s rows %d %d ", ty[i], op[1 + int(rand() * 5)], r, c } }')"
echo "transposes ${T[*]}"
echo "reductions ${R[*]}"
timeout 330 sh tests/gpu/crosscheck.sh "${T[@]}" > "$O/xc.txt" 2>&1
timeout 170 sh tests/gpu/crosscheck_reduce.sh "${R[@]}" > "$O/xcr.txt" 2>&1
cat "$O/xc.txt" "$O/xcr.txt" | grep -E "emitted|crosscheck|source:|autotune bench" | cut -c1-240
