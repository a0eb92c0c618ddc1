#!/bin/bash
# Tiles compete with strips where runs are apart (strips_alone now needs
# runs end to end): HEAD against the change on the sweep's two losing
# thin shapes, then a second sweep of 100 with a seed drawn now.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME /tmp/cutensor
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W/old $W/new
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .cutensor/libcutensor.so.2.sm90.xz /tmp/cutensor/libcutensor.so.2
export AUTOTUNE_CUTENSOR=/tmp/cutensor/libcutensor.so.2
run() { # name bin args...
  local n=$1 b=$2; shift 2; local f=$W/$n/$(echo "$*" | tr ' -' '__')
  AUTOTUNE_CACHE=$W/$n/c.db timeout 25 $b bench transpose --csv $f.csv "$@" > $f.txt 2>&1
  echo "$n rc=$? $*: $(grep -E '^\[[0-9]+/[0-9]+\] .*of copy' $f.txt | head -1 | cut -c1-220)"
  grep -E "^ *(cublas|cutensor|classic)" $f.txt | head -3
}
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "seed $S"
AUTOTUNE_CACHE=$W/c.db timeout 520 build/autotune bench transpose --sweep 100 --seed $S --csv $OUT/sweep-$S.csv > $OUT/sweep-$S.log 2>&1
echo "rc=$?"
sed -n '/^against cublas/,$p' $OUT/sweep-$S.log | head -60
for P in "--type f64 --rows 15 --cols 131743 --ld-in 131782 --ld-out 67" \
         "--type f64 --rows 8 --cols 6285 --ld-in 6291 --ld-out 15 --batch 128"; do
  run old gpurun/autotune-head $P
  run new build/autotune $P
done
for n in old new; do for f in $W/$n/*.txt; do cp $f $OUT/$n-$(basename $f); done; done
echo END
