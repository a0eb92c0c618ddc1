#!/bin/bash
# Issue 36 item 3: a sweep of 100 transpose problems, the seed drawn now.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME /tmp/cutensor
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .cutensor/libcutensor.so.2.sm90.xz /tmp/cutensor/libcutensor.so.2
S=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "seed $S"
AUTOTUNE_CACHE=$W/c.db AUTOTUNE_CUTENSOR=/tmp/cutensor/libcutensor.so.2 timeout 575 build/autotune bench transpose --sweep 100 --seed $S --csv $OUT/sweep-$S.csv > $OUT/sweep-$S.log 2>&1
echo "rc=$?"
gzip -k $OUT/sweep-$S.log
sed -n '/problems of 64 MiB or more/,$p' $OUT/sweep-$S.log | head -30
echo END
