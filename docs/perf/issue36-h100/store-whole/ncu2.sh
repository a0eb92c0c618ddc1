#!/bin/bash
# Per-SASS-instruction counts of tuned transposes (ncu source page).
set -u
export HOME=/tmp/home; mkdir -p $HOME
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
export AUTOTUNE_WORKER=$PWD/build/autotune
for pr in "$@"; do
  n=$(echo $pr | tr ':' '_')
  XC_RUN="$NCU -k regex:autotune_transpose_.*_kernel\$ --launch-skip 5 --launch-count 1 --section SourceCounters --section InstructionStats --section WarpStateStats --print-details all -o /tmp/rep-$n" timeout 200 sh tests/gpu/crosscheck.sh $pr > $OUT/run-$n.txt 2>&1
  echo "== $pr rc=$?"
  $NCU -i /tmp/rep-$n.ncu-rep --page source --csv --print-source sass > $OUT/sass-$n.csv 2>&1
  $NCU -i /tmp/rep-$n.ncu-rep --page details --print-details all > $OUT/details-$n.txt 2>&1
  wc -l $OUT/sass-$n.csv; head -3 $OUT/sass-$n.csv | cut -c1-600
done
echo END
