#!/bin/bash
# The second sweep's seed again with tiles in the grid's shorter direction
# first (against docs/perf/issue36-h100/sweeps/sweep-1545186368.*).
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME /tmp/cutensor
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W
python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" .cutensor/libcutensor.so.2.sm90.xz /tmp/cutensor/libcutensor.so.2
S=1545186368
AUTOTUNE_CACHE=$W/c.db AUTOTUNE_CUTENSOR=/tmp/cutensor/libcutensor.so.2 timeout 560 build/autotune bench transpose --sweep 100 --seed $S --csv $OUT/sweep-$S-order.csv > $OUT/sweep-$S-order.log 2>&1
echo "rc=$?"
sed -n '/^against cublas/,$p' $OUT/sweep-$S-order.log | head -60
echo END
