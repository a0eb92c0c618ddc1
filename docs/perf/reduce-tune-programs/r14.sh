#!/bin/bash
# A program compiles each distinct source once (reduce's points that differ
# in chunk share theirs): cold tunes, 8ab2653 against the tree,
# alternated, NVRTC's disk cache off; then the GPU suites that tune
# (gpu_api, gpu_runtime) with the tree.
set -u
nvidia-smi -L
export HOME=/tmp/home; mkdir -p $HOME
export CUDA_CACHE_DISABLE=1
W=/tmp/w; rm -rf $W; mkdir -p -m 700 $W
tune() { # label bin args
  local l=$1 b=$2; shift 2
  rm -rf $W/c; mkdir -p $W/c
  local t0=$(date +%s.%N)
  AUTOTUNE_WORKER=$PWD/$b AUTOTUNE_CACHE=$W/c/c.db AUTOTUNE_CUBIN_CACHE=$W/c/cubins.db timeout 90 $b reduce --arch auto "$@" -o $W/c/r.cu --json --quiet > $W/c/t.json 2>$W/c/err.txt
  local rc=$? t1=$(date +%s.%N)
  python3 - "$l" "$rc" "$t0" "$t1" "$W/c/t.json" "$*" <<'PY'
import json,sys
l,rc,t0,t1,f,a=sys.argv[1:]
try: j=json.load(open(f))
except Exception as x: print(l,"rc",rc,"no json",x); sys.exit()
def g(*ks):
    for k in ks:
        if k in j: return j[k]
    return None
print(f"{l:4} rc={rc} wall={float(t1)-float(t0):6.1f}s nvrtc={g('nvrtc_cpu_s')} compiled={g('compiled')} evaluated={g('evaluated')} best={g('best_ms','median_ms')} point={g('point','best')} :: {a}")
PY
  cp $W/c/t.json $OUT/$l-$(echo "$*" | tr -cd 'a-z0-9' | cut -c1-40).json 2>/dev/null
}
while read -r P; do
  tune old gpurun/autotune-8ab $P
  tune new build/autotune $P
  tune new build/autotune $P
  tune old gpurun/autotune-8ab $P
done < gpurun/list8.txt
AT_GPU_TMP=$W ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp" AUTOTUNE_WORKER=$PWD/build/autotune timeout 150 build/tests/gpu_api > $OUT/gpu_api.tap 2>&1
echo "== gpu_api rc=$? ok=$(grep -c '^ok' $OUT/gpu_api.tap) notok=$(grep -c '^not ok' $OUT/gpu_api.tap)"
AT_GPU_TMP=$W ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp" AUTOTUNE_WORKER=$PWD/build/autotune timeout 120 build/tests/gpu_runtime > $OUT/gpu_runtime.tap 2>&1
echo "== gpu_runtime rc=$? ok=$(grep -c '^ok' $OUT/gpu_runtime.tap) notok=$(grep -c '^not ok' $OUT/gpu_runtime.tap)"
grep -h "^not ok" $OUT/gpu_api.tap $OUT/gpu_runtime.tap | head
echo END
