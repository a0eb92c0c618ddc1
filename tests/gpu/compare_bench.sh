#!/bin/sh
# Two builds' `autotune bench FAMILY` on the same problems: a sweep drawn
# from one seed, each tuned by the same seeded search, one build after the
# other from empty caches. Prints each problem's winner and its share of
# the copy under both builds, then how many winners differ and the
# largest gap in points of the copy. For a change that must not move
# them (issue 37: 1.0's refactor): the same winners but near ties, the
# figures within 1 point. Needs a GPU.
# N of "suite" runs the bench's own suite (`make gpu-bench`'s problems),
# each tuned by its default search seeded with SEED. ORDER="new old" runs
# the new build first (a build's place in the run must not be what
# favours it); KEEP=DIR keeps both builds' CSVs and logs there.
# Usage: tests/gpu/compare_bench.sh OLD NEW FAMILY N|suite SEED [flags]
# (default flags for a sweep: --strategy random --budget 60)
[ $# -ge 5 ] || { echo "usage: $0 OLD NEW FAMILY N|suite SEED [flags]" >&2; exit 2; }
OLD=$1 NEW=$2 FAM=$3 N=$4 SEED=$5
shift 5
if [ "$N" = suite ]; then
    draw="--seed $SEED"
else
    draw="--sweep $N --seed $SEED"
    [ $# -gt 0 ] || set -- --strategy random --budget 60
fi
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
for b in ${ORDER:-old new}; do
    bin=$OLD
    [ $b = new ] && bin=$NEW
    AUTOTUNE_CACHE="$T/$b.db" AUTOTUNE_CUBIN_CACHE="$T/$b-cubins.db" \
    AUTOTUNE_WORKER="$(readlink -f "$bin")" \
        "$bin" bench "$FAM" $draw --csv "$T/$b.csv" \
        "$@" > "$T/$b.log" 2>&1 || { cat "$T/$b.log"; exit 1; }
done
if [ -n "$KEEP" ]; then
    mkdir -p "$KEEP" && cp "$T"/old.csv "$T"/new.csv "$T"/old.log \
        "$T"/new.log "$KEEP"/
fi
python3 - "$T" "$FAM" <<'PY'
import csv, re, sys, os
d, fam = sys.argv[1], sys.argv[2]
def load(b):
    rows = [r for r in csv.DictReader(open(os.path.join(d, b + ".csv")))
            if r["kernel"] == "tuned"]
    pts = re.findall(r"^\[\d+/\d+\] [^:]*: (\S+)", open(os.path.join(d, b + ".log")).read(), re.M)
    return rows, pts
(o, op), (n, np_) = load("old"), load("new")
if len(o) != len(n):
    sys.exit(f"old has {len(o)} problems, new {len(n)}")
diff = gap = 0
print(f"{fam}: problem | old point | new point | old % of copy | new % | gap")
for i, (a, b) in enumerate(zip(o, n)):
    fa, fb = 100 * float(a["frac_copy"]), 100 * float(b["frac_copy"])
    pa = op[i] if i < len(op) else "?"
    pb = np_[i] if i < len(np_) else "?"
    diff += pa != pb
    gap = max(gap, abs(fa - fb))
    print(f"{b['type']} {i} | {pa} | {pb} | {fa:.1f} | {fb:.1f} | {fb - fa:+.1f}")
print(f"{fam}: {len(o)} problems, {diff} winners differ, largest gap {gap:.1f} points")
PY
