#!/bin/bash
# Session start: check last session's two unmeasured commits (bench_smoke
# for the cuTENSOR refactor e180e7a; the f16 amax crosscheck for the
# occupancy bound 108c333), then diagnose the padded narrow columns:
# the same problems at ld = cols and padded, with DRAM bytes from ncu.
set -u
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
mkdir -p /tmp/cutensor
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .cutensor/libcutensor.so.2.sm90.xz /tmp/cutensor/libcutensor.so.2
export AUTOTUNE_CUTENSOR=/tmp/cutensor/libcutensor.so.2
t0=$(date +%s)
timeout 200 sh tests/gpu/run.sh tests/gpu/bench_smoke.sh > $OUT/bench_smoke.tap 2>&1
echo "== bench_smoke rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "^(ok|not ok)" $OUT/bench_smoke.tap | cut -c1-160
t0=$(date +%s)
timeout 120 sh tests/gpu/crosscheck_reduce.sh f16:amax rows 1015457 47 > $OUT/crosscheck.txt 2>&1
echo "== crosscheck rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "emitted point|occupancy|crosscheck rows|autotune bench|tuned" $OUT/crosscheck.txt | cut -c1-220
W=$(mktemp -d)
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
cat > $W/list <<'L'
--type f64 --op min --axis rows --rows 132920 --cols 61 --ld 89
--type f64 --op min --axis rows --rows 132920 --cols 61
--type f64 --op min --axis rows --rows 193920 --cols 61
--type bf16 --op amax --axis rows --rows 354052 --cols 150 --ld 167
--type bf16 --op amax --axis rows --rows 354052 --cols 150
--type bf16 --op sum --axis cols --rows 311518 --cols 127
--type bf16 --op sum --axis cols --rows 311518 --cols 128
L
i=0
while read -r P; do
  i=$((i+1))
  rm -f $W/c.db*
  AUTOTUNE_CACHE=$W/c.db timeout 60 build/autotune bench reduce $P --csv $OUT/b$i.csv > $OUT/b$i.txt 2>&1
  echo "[$i] $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $OUT/b$i.txt | sed 's/, input seed.*//' | cut -c1-200)"
  if [ $i -le 5 ] && [ $(( $(date +%s) - T0 )) -lt 420 ]; then
  AUTOTUNE_CACHE=$W/c.db timeout 60 $NCU --target-processes all -k regex:at_kernel --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
    --metrics dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum \
    build/autotune bench reduce $P > $OUT/ncu_$i.txt 2>&1
  echo "    ncu rc=$? $(grep -E 'dram__bytes_read.sum|lts__t_sectors_srcunit_tex_op_read.sum |lookup_miss|Duration|DRAM Throughput|Grid Size|Block Size' $OUT/ncu_$i.txt | tr -s ' ' | tr '\n' ';' | cut -c1-400)"
  fi
done < $W/list
echo "END $(( $(date +%s) - T0 )) s"
