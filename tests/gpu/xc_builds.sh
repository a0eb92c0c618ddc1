# shellcheck shell=sh
# Sourced by the crosscheck scripts: the emitted file again as nvcc
# builds it (XC_SOURCE=1: -DAT_FROM_SOURCE, not the tuned cubin it
# carries) and, XC_UNBOUND=1, that build without its occupancy bounds
# (AT_MIN_BLOCKS, AT_MAX_REGS; docs/PERFORMANCE.md, "Registers held by
# the blocks alone"), each timed with a line of its own.
# xc_builds FILE BUILD ARGS...: BUILD FILE PROGRAM FLAGS builds the
# script's program around a file; ARGS are the program's. Returns 2
# where a build fails, 1 where a run does.
xc_builds() {
    xb_file=$1 xb_build=$2 xb_rc=0
    shift 2
    if [ -n "${XC_SOURCE:-}" ]; then
        "$xb_build" "$xb_file" "$xb_file.xs" -DAT_FROM_SOURCE || return 2
        printf 'source: '
        "$xb_file.xs" "$@" || xb_rc=1
    fi
    if [ -n "${XC_UNBOUND:-}" ] && grep -q '^#define AT_MIN_BLOCKS' "$xb_file"
    then
        sed -n 's/^ \* occupancy: */occupancy: /p' "$xb_file"
        sed -e '/^#define AT_MIN_BLOCKS /d' -e '/^#define AT_MAX_REGS /d' \
            "$xb_file" > "$xb_file.u.cu"
        "$xb_build" "$xb_file.u.cu" "$xb_file.xu" -DAT_FROM_SOURCE || return 2
        printf 'unbounded: '
        "$xb_file.xu" "$@" || xb_rc=1
    fi
    return $xb_rc
}
