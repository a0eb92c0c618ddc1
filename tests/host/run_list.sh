# shellcheck shell=sh
# Sourced by tests/template_host.sh, tests/strip_host.sh and
# tests/reduce_host.sh: run_list
# SUMMARY LABEL runs the caller's one N LINE (build and run line N of
# $T/list, its output in $T/N.out and its status in $T/N.rc) for every
# line, as many at once as there are processors, then prints TAP for each
# in list order: the output's last line matching SUMMARY, or "not ok"
# with LABEL = the line and the output's head. Returns 1 on any failure.
run_list() {
    jobs=$(nproc 2>/dev/null || echo 2)
    i=0
    while read -r c; do
        i=$((i + 1))
        one "$i" "$c" &
        [ $((i % jobs)) -ne 0 ] || wait
    done < "$T/list"
    wait
    i=0
    rc=0
    while read -r c; do
        i=$((i + 1))
        r=$(cat "$T/$i.rc" 2>/dev/null || echo 3)
        summary=$(grep -E "$1" "$T/$i.out" | tail -1)
        if [ "$r" = 0 ] && [ -n "$summary" ]; then
            echo "ok $i - $summary"
        else
            echo "not ok $i - $2 = $c (exit $r)"
            sed 's/^/# /' "$T/$i.out" | head -20
            rc=1
        fi
    done < "$T/list"
    return $rc
}

# host_setup: $CXX (default g++) and a temporary folder $T, removed on
# exit.
host_setup() {
    CXX=${CXX:-g++}
    T=$(mktemp -d) || exit 1
    trap 'rm -rf "$T"' EXIT
}

# need_cxx20: a TAP skip, and the caller's exit, where $CXX builds no
# C++20 with <barrier> (the strips' warps and blocks need it).
need_cxx20() {
    if ! printf '#include <barrier>\nint main(){}\n' |
        "$CXX" -std=c++20 -x c++ - -o "$T/probe" >/dev/null 2>&1; then
        echo "1..0 # SKIP no C++20 compiler with <barrier> ($CXX)"
        exit 0
    fi
}

# ran N STATUS: after line N's build into $T/N (its log in $T/N.out)
# exited with STATUS, run it under a time limit (a thread left out of its
# warp's or block's barrier would wait for ever), its status in $T/N.rc
# (2: the build failed), and remove it.
ran() {
    if [ "$2" = 0 ]; then
        timeout 300 "$T/$1" > "$T/$1.out" 2>&1
        echo $? > "$T/$1.rc"
    else
        echo 2 > "$T/$1.rc"
    fi
    rm -f "$T/$1"
}
