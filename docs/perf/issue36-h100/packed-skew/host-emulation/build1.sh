#!/bin/sh
# build1.sh E TX TY BX BY V SMEM EDGE SHIFTIN
E=$1 TX=$2 TY=$3 BX=$4 BY=$5 V=$6 S=$7 ED=$8 SH=$9
P=${PK:-$((4 / E))}
n=bin/${TAG}p${P}e${E}_${TX}x${TY}_${BX}x${BY}_v${V}_s${S}_edge${ED}_sh${SH}
g++ -std=c++17 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -w \
  -DAT_STRIP=0 -DAT_ELEM_BYTES=$E -DAT_TILE_X=$TX -DAT_TILE_Y=$TY -DAT_BLOCK_X=$BX -DAT_BLOCK_Y=$BY \
  -DAT_PACK=$P -DAT_VEC=$V -DAT_SMEM=$S -DAT_TILES=1 -DAT_LDG=1 -DAT_RESTRICT=0 -DAT_SKEW=1 -DAT_THIN=0 \
  -DAT_WIDE=0 -DAT_EDGE=$ED -DAT_SHIFT_IN=$SH -DAT_KERNEL=k -DTEMPLATE="\"${TPL:-/work/main/templates/transpose.cu}\"" -I/work/main/tests/host /work/main/tests/host/transpose_tiles.cpp -o $n 2>&1 | grep -E "error" | head -5
