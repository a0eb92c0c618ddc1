#!/bin/bash
# The tuned kernel of each problem built by nvcc at several blocks-per-SM
# bounds (AT_MIN_BLOCKS), timed in the crosscheck program.
set -u
export HOME=/tmp/home; mkdir -p $HOME
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
export AUTOTUNE_WORKER=$PWD/build/autotune
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
T=$(mktemp -d)
export AUTOTUNE_CACHE=$T/cache.db
for pr in "$@"; do
  IFS=: read -r t shape li lo <<<"$pr"
  r=${shape%x*} c=${shape#*x}; li=${li:-$c}; lo=${lo:-$r}
  build/autotune transpose --arch auto --type $t --rows $r --cols $c --ld-in $li --ld-out $lo -o $T/t.cu --quiet > $T/tune.log 2>&1 || { cat $T/tune.log; continue; }
  pt=$(sed -n 's/^ \* point: *\([^ ]*\).*/\1/p' $T/t.cu)
  bx=$(echo $pt | sed 's/.*blk\([0-9]*\)x\([0-9]*\).*/\1/'); by=$(echo $pt | sed 's/.*blk\([0-9]*\)x\([0-9]*\).*/\2/')
  th=$((bx*by))
  emb=$(grep -m1 '^#define AT_MIN_BLOCKS' $T/t.cu | awk '{print $3}')
  echo "== $pr point $pt threads $th emitted min_blocks ${emb:-none}"
  $NVCC -O2 -arch=native -DAT_XC_TYPE="$t" -c tests/gpu/crosscheck.cu -o $T/xc.o || continue
  for mb in 0 1 2 3 4 5 6 8; do
    [ $((th*mb)) -gt 2048 ] && continue
    sed '/^#define AT_MIN_BLOCKS/d' $T/t.cu > $T/m.cu
    [ $mb -gt 0 ] && sed -i "0,/^#define AT_KERNEL/s//#define AT_MIN_BLOCKS $mb\n&/" $T/m.cu
    regs=$($NVCC -O2 -arch=native -c $T/m.cu -o $T/m.o -Xptxas -v 2>&1 | grep -A1 "_kernel" | grep -o 'Used [0-9]* registers' | head -1)
    $NVCC -arch=native $T/xc.o $T/m.o -lcublas -o $T/xc || continue
    for k in 1 2; do
      res=$($T/xc $r $c $li $lo 2>&1 | grep -o 'tuned [^|]*' | head -1)
      echo "  mb=$mb ($regs) $res"
    done
  done
done
echo END
