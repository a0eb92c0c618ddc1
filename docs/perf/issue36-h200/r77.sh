#!/bin/bash
# Session of 2026-11-29 (second): f5be202's gathered strips on the GPU
# (its review was not run on one), then where f16 2777x107525 (86% in
# r75) loses: the odd input side (shifted word loads) or the odd output
# side (skewed stores). Four shapes, each side odd or on 16 bytes, tuned
# cold with every point's time recorded, then benched from that cache;
# the odd one's winner under Nsight Compute, per SASS instruction.
# Carry build/autotune and build/tests/gpu_variants-rel; from the
# repository root.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/r77; mkdir -p "$W" && chmod 700 "$W"
O=${OUT:-$W}
export HOME=$W AUTOTUNE_WORKER=$PWD/build/autotune
AT_GPU_GATHERED=1 AT_GPU_TESTS='strip_points_*' timeout 150 \
    build/tests/gpu_variants-rel > "$O/gathered.txt" 2>&1
echo "== gathered rc=$? $SECONDS s: $(grep -cE '^ok' "$O/gathered.txt") ok, $(grep -cE '^not ok' "$O/gathered.txt") not ok"
tail -3 "$O/gathered.txt"
for s in 2777x107525 2777x107528 2784x107525 2784x107528; do
    left=$((420 - SECONDS)); [ "$left" -gt 30 ] || break
    r=${s%x*} c=${s#*x}
    export AUTOTUNE_CACHE=$W/c-$s.db
    timeout "$left" build/autotune transpose --type f16 --rows "$r" --cols "$c" \
        --record "$W/rec-$s.csv" -o "$W/k-$s.cu" > "$W/tune-$s.log" 2>&1
    echo "== tune $s rc=$? $SECONDS s: $(grep -A1 '^  best:' "$W/tune-$s.log" | tr '\n' ' ' | cut -c1-150)"
    timeout 60 build/autotune bench transpose --type f16 --rows "$r" --cols "$c" \
        --quiet --csv "$W/b-$s.csv" > "$W/b-$s.log" 2>&1
    echo "== bench $s rc=$?: $(grep '^\[1/1\]' "$W/b-$s.log" | sed 's/^.*: //' | cut -c1-110)"
done
unset AUTOTUNE_CACHE
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
"$NCU" --version | tail -1
left=$((540 - SECONDS))
if [ "$left" -gt 40 ]; then
    XC_RUN="$NCU -k regex:_kernel\$ -s 3 -c 1 --section SourceCounters --section InstructionStats --section WarpStateStats --import-source no -f -o $W/odd" \
        timeout "$left" sh tests/gpu/crosscheck.sh f16:2777x107525 > "$W/ncu.log" 2>&1
    echo "== ncu rc=$? $SECONDS s"
    "$NCU" -i "$W/odd.ncu-rep" --page source --csv --print-source sass > "$W/sass.csv" 2> "$W/sass.err"
    echo "== sass rc=$? $(wc -l < "$W/sass.csv") lines; $(head -c 300 "$W/sass.err")"
    "$NCU" -i "$W/odd.ncu-rep" --page details > "$W/details.txt" 2>&1
fi
(cd "$W" && tar -cJf "$O/r77.tar.xz" rec-*.csv tune-*.log b-*.csv b-*.log k-*.cu ncu.log sass.csv details.txt 2>/dev/null)
ls -la "$O"
