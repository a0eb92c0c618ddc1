#!/bin/bash
# Shifted vector loads (AT_SHIFT_IN: aligned vectors realigned in
# registers) against shifted word loads. A: r11's programs, word loads
# (gpurun/ed, cb29ebc's template) and vector loads (gpurun/ed2, the
# tree's), alternated. B: cold tunes (`autotune bench`), cb29ebc
# (gpurun/bins/autotune-cb29) against the tree (build/autotune), back to
# back on 1- and 2-byte problems whose input rows are off the vector.
# Carry build/autotune, gpurun/ed, gpurun/ed2, gpurun/bins/autotune-cb29.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
S1="19200 22784 22784 19200"; S2="19194 22735 22784 19200"; S3="19194 22735 22735 19194"
for v in a110 a111 b110 b111; do
  for d in ed ed2; do
    for s in S1 S2 S3; do
      [ $s = S3 ] && [ ${v#???} != 1 ] && continue
      echo "$d $v $s $(gpurun/$d/$v ${!s} 2>&1 | grep -o 'tuned.*' | sed 's/tuned [0-9.]* ms [0-9.]* GB\/s //' | cut -c1-40)"
    done
  done
done | tee /tmp/r12a.txt
W=/tmp/r12; mkdir -p $W && chmod 700 $W
export HOME=$W
P="i8 19194 22735 22735 19194
u8 22119 17643 17643 22119
f16 579 380071 380071 579
bf16 2253 126819 126819 2253
u8 100636 7554 7554 100636
i8 1298299 153 153 1298299"
echo "$P" | while read -r t r c li lo; do
  for side in old new; do
    B=$PWD/build/autotune; [ $side = old ] && B=$PWD/gpurun/bins/autotune-cb29
    s0=$SECONDS; rm -f $W/x.csv
    AUTOTUNE_WORKER=$B AUTOTUNE_CACHE=$W/$side.db timeout 120 $B bench transpose --type $t \
      --rows $r --cols $c --ld-in $li --ld-out $lo --csv $W/x.csv > $W/x.log 2>&1
    rc=$?
    pt=$(sed -n 's/^\[1\/1\] [^:]*: \([^ ]*\) .*/\1/p' $W/x.log | head -1)
    fr=$(awk -F, '$11=="tuned"{printf "%.1f", $14*100}' $W/x.csv 2>/dev/null)
    echo "$t ${r}x$c ld $li/$lo $side rc=$rc $((SECONDS - s0))s tuned $fr% $pt"
    [ $rc = 0 ] || tail -5 $W/x.log
  done
done | tee /tmp/r12b.txt
echo "== table"; cat /tmp/r12a.txt /tmp/r12b.txt
