#!/bin/sh
# one line of pts.txt + variant -> build and run
one() {
  E=$1 TX=$2 TY=$3 BX=$4 BY=$5 V=$6 S=$7 ED=$8 SH=$9
  ./build1.sh $E $TX $TY $BX $BY $V $S $ED $SH
  n=bin/e${E}_${TX}x${TY}_${BX}x${BY}_v${V}_s${S}_edge${ED}_sh${SH}
  if [ -x $n ]; then $n ${SEED:-7} 2>&1 | grep -E "FAIL|ERROR|SUMMARY|problems" | head -4; rm -f $n; else echo "BUILD FAIL $n"; fi
}
one "$@"
