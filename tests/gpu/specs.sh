#!/bin/sh
# TAP: users' kernels from spec files (issue 15) on a GPU. Every example in
# examples/kernels is tuned (each point verified against the spec's
# reference kernel), its winner verified again at a second size (a tune
# there verifies every point), and its emitted .cu built with nvcc; a spec
# with planted faults must lose exactly its wrong points; a kernel of C++
# linkage is found by its lowered name; arguments that do not match the
# kernel's parameters are refused; points far behind the leaders are raced
# on their check's run. Skips without a GPU.
cd "$(dirname "$0")/../.." || exit 1
. tests/gpu/tap.sh
T=${AT_GPU_TMP:-$(mktemp -d)}
export AUTOTUNE_CACHE="$T/specs_cache.db"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
A=build/autotune

out=$($A kernel examples/kernels/vector_add/vector_add.yaml --arch auto \
      -o "$T/vector_add.cu" 2>&1)
rc=$?
skip_without_gpu $rc "$out"
plan 19
report $rc "vector_add: tuned, its leaders verified" "$out"
# The second size: odd, so no tile divides it.
for k in "convolution 1000x777" "matmul 1024x1024" "stencil 1000x777" \
         "avg_matvec 333"; do
    set -- $k
    out=$($A kernel examples/kernels/$1/$1.yaml --arch auto \
          -o "$T/$1.cu" 2>&1)
    report $? "$1: tuned, its leaders verified" "$out"
done
for k in "vector_add 1000003" "convolution 1000x777" "matmul 1024x1024" \
         "stencil 1000x777" "avg_matvec 333"; do
    set -- $k
    out=$($A kernel examples/kernels/$1/$1.yaml --arch auto --size "$2" --verify-all \
          -o "$T/$1_2.cu" 2>&1)
    report $? "$1: tuned again at $2, every point verified there" "$out"
done
for k in vector_add convolution matmul stencil avg_matvec; do
    out=$("$NVCC" -arch=sm_90 -c "$T/$k.cu" -o "$T/$k.o" 2>&1 &&
          grep -A1 ' \* measured:' "$T/$k.cu")
    report $? "$k: the emitted .cu builds with nvcc" "$out"
done
out=$($A kernel tests/data/specs/planted.yaml --arch auto --verify-all \
      -o "$T/planted.cu" 2>&1)
rc=$?
# Each wrong variant once (its progress line and the summary's list both
# name it).
wrong=$(printf '%s\n' "$out" | grep -o 'wrong answer \[variant [^]]*\]' |
        sort -u | wc -l)
point=$(grep -m1 ' \* point:' "$T/planted.cu" 2>/dev/null)
printf '%s\n' "$point" | grep -q fault0 && [ "$rc" -eq 0 ] &&
    [ "$wrong" -eq 8 ]
report $? "planted faults: 8 wrong points rejected ($wrong), a right one won" \
    "$(printf '%s\n' "$out" | grep 'wrong answer' | head -3; echo "$point")"
# A spec's family has no check shapes: every point runs on the problem
# for its check, and that run races it (no --verify-all needed).
$A kernel tests/data/specs/slow.yaml --arch auto --json -o "$T/slow.cu" \
    >"$T/slow.json" 2>"$T/slow.log"
rc=$?
fig=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["raced_on_check"], d["evaluated"], d["wrong"])' "$T/slow.json" 2>&1)
set -- $fig x x x
point=$(grep -m1 ' \* point:' "$T/slow.cu" 2>/dev/null)
[ "$rc" -eq 0 ] && [ "$1" -ge 1 ] && [ "$2" -eq 16 ] && [ "$3" -eq 0 ] &&
    printf '%s\n' "$point" | grep -q 'delay0_'
report $? "far slower points raced on their check's run ($1 of 16), none wrong, delay 0 won" \
    "$(echo "$fig"; tail -3 "$T/slow.log"; echo "$point")"
out=$($A kernel tests/data/specs/cxx.yaml --arch auto --verify-all \
      -o "$T/cxx.cu" 2>&1)
report $? "a kernel of C++ linkage (no extern \"C\"): tuned, every point verified" \
    "$(printf '%s\n' "$out" | grep -E 'tuned in|best:')"
out=$($A kernel tests/data/specs/bad_signature.yaml --arch auto \
      -o "$T/bad.cu" 2>&1)
rc=$?
[ "$rc" -ne 0 ] && printf '%s\n' "$out" | grep -q "the kernel takes 4 arguments" &&
    [ ! -e "$T/bad.cu" ]
report $? "one argument more than the kernel takes: refused (exit $rc), nothing written" \
    "$(printf '%s\n' "$out" | tail -2)"
