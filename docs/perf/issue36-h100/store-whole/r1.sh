#!/bin/bash
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export HOME=/tmp/home; mkdir -p $HOME
export LD_LIBRARY_PATH=$PWD/build/tests/lib:${LD_LIBRARY_PATH:-}
timeout 330 bash gpurun/occ.sh i8:19194x22735 bf16:1106153x165 u8:22119x17643 2>&1 | tee $OUT/occ.txt
KEEP=$OUT/ab timeout 250 sh gpurun/ab.sh gpurun/list-store.txt gpurun/bins/autotune-84ac69c build/autotune 2>&1 | tail -10
