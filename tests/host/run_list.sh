# Sourced by tests/template_host.sh and tests/strip_host.sh: run_list
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
