# TAP helpers for the GPU suite's shell tests (sourced).
#   skip_without_gpu RC OUTPUT: the whole file skips, with the reason, when
#     the first command failed for want of a GPU.
#   plan N; report RC DESCRIPTION OUTPUT: a numbered result, the output as
#     diagnostics.
skip_without_gpu() {
    if [ "$1" -ne 0 ] && printf '%s\n' "$2" | grep -q "no CUDA"; then
        echo "1..0 # SKIP $(printf '%s\n' "$2" | grep "no CUDA" | head -1)"
        exit 0
    fi
}
plan() {
    echo "1..$1"
    n=0
}
report() {
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
    printf '%s\n' "$3" | sed 's/^/# /'
}
