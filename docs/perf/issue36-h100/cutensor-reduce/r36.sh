#!/bin/bash
# cuTENSOR's reduction as a contender: bench_smoke (7 tests, reductions
# with and without CUB/cuTENSOR), the crosscheck owed (i32 amax, f32
# sumsq), then the problems and 8 random ones cold, each with
# the tuned kernel, CUB where it runs and cuTENSOR.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME /tmp/cutensor
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .cutensor/libcutensor.so.2.sm90.xz /tmp/cutensor/libcutensor.so.2
export AUTOTUNE_CUTENSOR=/tmp/cutensor/libcutensor.so.2
export AUTOTUNE_WORKER=$PWD/build/autotune
t0=$(date +%s)
sh tests/gpu/bench_smoke.sh > $OUT/bench_smoke.tap 2>&1; echo "bench_smoke rc=$? $(grep -c '^ok' $OUT/bench_smoke.tap) ok, $(grep -c '^not ok' $OUT/bench_smoke.tap) not ok ($(( $(date +%s) - t0 )) s)"
grep '^not ok' -A12 $OUT/bench_smoke.tap | head -60
t0=$(date +%s)
timeout 150 sh tests/gpu/crosscheck_reduce.sh i32:amax rows 133253 172 f32:sumsq all 1 268435456 > $OUT/crosscheck.txt 2>&1; echo "crosscheck rc=$? ($(( $(date +%s) - t0 )) s)"
tail -8 $OUT/crosscheck.txt
python3 gpurun/randreduce.py "" 8 >> gpurun/list-ct.txt 2> $OUT/seed.txt
cat $OUT/seed.txt; cp gpurun/list-ct.txt $OUT/
t0=$(date +%s)
LIMIT=45 LOG=$OUT/ct.log timeout 380 sh tests/gpu/bench_reduce_builds.sh gpurun/list-ct.txt head=build/autotune; echo "list rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E '^(sum|min|max|sumsq|amax) (cols|rows|n=)' $OUT/ct.log | head -40
gzip -9 $OUT/ct.log
echo END
