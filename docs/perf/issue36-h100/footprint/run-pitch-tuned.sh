#!/bin/sh
# The tuned kernel, cuBLAS geam and cuTENSOR's permute on f64 and f32
# 8192 x 8192 transposes whose row pitch alone changes (each tuned cold).
# From the repository root on the GPU machine, with .cutensor/ prepared by
# shared/tools/cutensor-for-device; writes $OUT/pitch-tuned.txt.
set -u
mkdir -p /tmp/cutensor /tmp/fph && chmod 700 /tmp/fph
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" \
    .cutensor/libcutensor.so.2.sm90.xz /tmp/cutensor/libcutensor.so.2 || exit 1
export AUTOTUNE_CUTENSOR=/tmp/cutensor/libcutensor.so.2
export AUTOTUNE_WORKER=$PWD/build/autotune HOME=/tmp/fph AUTOTUNE_CACHE=/tmp/fph/cache.db
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/pitch-tuned.txt"
for p in "f64 8192" "f64 8200" "f64 9600" "f64 10000" "f64 10240" "f64 12288" "f64 16384" \
         "f32 16384" "f32 19200" "f32 20000"; do
    set -- $p
    sh tests/gpu/bench_rows.sh transpose --type $1 --rows 8192 --cols 8192 --ld-in $2 --ld-out $2 |
        tee -a "$OUT/pitch-tuned.txt"
done
