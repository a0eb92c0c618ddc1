#!/bin/bash
# r15.sh's part B, cut to fit the call: cold tunes, cb29ebc (the tile order
# before 488ad1c; gpurun/bins/autotune-cb29) against the tree, back to
# back, on odd shapes of several element sizes (any tile with the element
# path has a cut line). Carry build/autotune, gpurun/bins/autotune-cb29.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r21; mkdir -p $W && chmod 700 $W
export HOME=$W
P="i8 19194 22735 22735 19194
u8 22119 17643 17643 22119
bf16 49063 1855 1855 49063
f32 8191 8209 8209 8191
f64 5313 7403 7403 5313
c64 5871 13933 13933 5871"
echo "$P" | while read -r t r c li lo; do
  for side in old new; do
    [ $SECONDS -lt 250 ] || { echo "$t ${r}x$c $side skipped: time"; continue; }
    B=$PWD/build/autotune; [ $side = old ] && B=$PWD/gpurun/bins/autotune-cb29
    s0=$SECONDS; rm -f $W/x.csv
    AUTOTUNE_WORKER=$B AUTOTUNE_CACHE=$W/$side-$t.db timeout 60 $B bench transpose --type $t \
      --rows $r --cols $c --ld-in $li --ld-out $lo --csv $W/x.csv > $W/x.log 2>&1
    rc=$?
    pt=$(sed -n 's/^\[1\/1\] [^:]*: \([^ ]*\) .*/\1/p' $W/x.log | head -1)
    fr=$(awk -F, '$11=="tuned"{printf "%.1f", $14*100}' $W/x.csv 2>/dev/null)
    echo "$t ${r}x$c $side rc=$rc $((SECONDS - s0))s tuned $fr% $pt"
  done
done
echo "== end at $SECONDS s"
