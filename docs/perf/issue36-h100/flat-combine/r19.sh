#!/bin/bash
# The any-input test after the review: sums of whole numbers, 0xFF around
# the input (every 12th point here; the suite's default is every 8th).
set -u
nvidia-smi -L
AT_GPU_SAMPLE=12 AT_GPU_ONLY='reduce_any_input_*' timeout 300 build/tests/gpu_reduce-rel > $OUT/any_input_sums.tap 2>&1
echo "== any input rc=$? ok=$(grep -c '^ok' $OUT/any_input_sums.tap) notok=$(grep -c '^not ok' $OUT/any_input_sums.tap)"
grep -E "^# (any input|FAILED)" $OUT/any_input_sums.tap | cut -c1-160
echo END
