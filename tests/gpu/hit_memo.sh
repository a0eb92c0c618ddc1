#!/bin/sh
# TAP: the host's memo of its GPUs (runtime/driver/device_memo.c) on a
# real GPU, kernel module and driver. A cold tune writes the memo (this
# GPU's UUID, as nvidia-smi names it); a hit from it says it did not
# start the driver and writes the same .cu as a hit that starts it
# (CUDA_VISIBLE_DEVICES set: the memo does not answer), each timed whole
# five times, alternated; a miss with the memo tunes (the driver started
# then, the device checked); a memo made wrong (an SM count no GPU has)
# fails the next tune with a message, is corrected, and the run after is
# a hit again. Skips without a GPU.
cd "$(dirname "$0")/../.." || exit 1
. tests/gpu/tap.sh
T=$(mktemp -d "${AT_GPU_TMP:-/tmp}/hit_memo.XXXXXX") || exit 1
export XDG_CACHE_HOME="$T/xdg" AUTOTUNE_CACHE="$T/cache.db"
unset CUDA_VISIBLE_DEVICES
A=$(readlink -f "${AUTOTUNE:-build/autotune}")
cd "$T" || exit 1
out=$("$A" transpose --arch auto --rows 2048 --cols 2048 -o cold.cu 2>&1)
rc=$?
skip_without_gpu $rc "$out"
plan 5

uuid=$(nvidia-smi --query-gpu=uuid --format=csv,noheader -i 0 2>/dev/null)
MEMO=$(ls "$XDG_CACHE_HOME"/autotune/devices-*.txt 2>/dev/null | head -1)
ok=$rc
[ -s "$MEMO" ] && grep -q "^$uuid " "$MEMO" || ok=1
report $ok "a cold tune remembers this GPU ($uuid)" "$out
$(cat "$MEMO" 2>&1)"

# Each hit writes hit.cu in a folder of its own (the file's header
# names the command, -o included); files are compared without their
# "emitted:" line, the time they were written.
mkdir m d a
same() {
    grep -v "emitted:" "$1" > "$1.x" && grep -v "emitted:" "$2" > "$2.x" &&
        cmp -s "$1.x" "$2.x"
}
# Milliseconds around the whole command (sh has no `time` of its own).
ms() {
    t0=$(date +%s%N)
    sh -c "$1" >/dev/null 2>&1 || return 1
    echo $(( ($(date +%s%N) - t0) / 1000000 ))
}
t_memo="" t_driver="" ok=0
for i in 1 2 3 4 5; do
    s=$(ms "cd m && '$A' transpose --arch auto --rows 2048 --cols 2048 \
        -o hit.cu") || ok=1
    t_memo="$t_memo $s"
    s=$(ms "cd d && CUDA_VISIBLE_DEVICES=0 '$A' transpose --arch auto \
        --rows 2048 --cols 2048 -o hit.cu") || ok=1
    t_driver="$t_driver $s"
done
[ -s m/hit.cu ] && same m/hit.cu d/hit.cu || ok=1
# The memo answered: the hit says it did not start the driver.
said=$(cd m && "$A" transpose --arch auto --rows 2048 --cols 2048 \
       -o hit.cu 2>&1)
printf '%s\n' "$said" | grep -q "the driver not started" || ok=1
report $ok "hits from the memo and through the driver write the same .cu" \
    "wall ms, from the memo:$t_memo
wall ms, through the driver:$t_driver
$said"

out=$("$A" transpose --arch auto --rows 1024 --cols 3000 -o miss.cu 2>&1)
rc=$?
printf '%s\n' "$out" | grep -q "tuned in" || rc=1
report $rc "a miss with the memo tunes" "$out"

# Every GPU's line with another SM count (UUID BUILD LIBRARY
# DRIVER_VERSION CC_MAJOR CC_MINOR SMS ...): the key a hit computes is
# then another's, so the next run tunes, and the device's check refuses.
sed -i "s/^\(GPU-[^ ]* [^ ]* [^ ]* [^ ]* [^ ]* [^ ]*\) \([0-9]*\) /\1 7 /" \
    "$MEMO"
out=$("$A" transpose --arch auto --rows 2048 --cols 2048 -o wrong.cu 2>&1)
rc=$?
ok=1
[ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q "corrected: run again" &&
    ! grep -q "^$uuid [^ ]* [^ ]* [^ ]* [^ ]* [^ ]* 7 " "$MEMO" && ok=0
report $ok "a memo made wrong fails the tune, said, and is corrected" "$out
$(cat "$MEMO")"

out=$(cd a && "$A" transpose --arch auto --rows 2048 --cols 2048 -o hit.cu \
      2>&1)
rc=$?
printf '%s\n' "$out" | grep -q "from the cache" || rc=1
same a/hit.cu m/hit.cu || rc=1
report $rc "the run after is a hit again" "$out"
cd / && rm -rf "$T"
