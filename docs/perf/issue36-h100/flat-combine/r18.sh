#!/bin/bash
# nvcc crosscheck of flat winners (emitted .cu in a plain program against
# the bench), the tree.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
export AUTOTUNE_WORKER=$PWD/build/autotune
timeout 400 sh tests/gpu/crosscheck_reduce.sh f32 rows 2000003 37 f16 rows 1015457 47 bf16 rows 1071940 464 > $OUT/crosscheck.txt 2>&1
echo "rc=$?"
grep -vE "^\[ +[0-9.]+s\]" $OUT/crosscheck.txt | cut -c1-220 | tail -40
echo END
