#!/bin/sh
# autotune bench --resume FILE (cli/bench_resume.c), no GPU needed: a
# sweep whose every problem is in the file is summed up from it alone
# (the same CSV written again, the summary's figures the file's); one
# with problems left says how many it took and goes on to need a GPU;
# a file of other problems takes none; a file that is not a benchmark
# CSV of this family and GPU is refused, naming the line. The figures are
# made up here (halves and quarters, exact in binary and in %.17g).
cd "$(dirname "$0")/.." || exit 1
BIN=${AUTOTUNE_BIN:-$PWD/build/autotune}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
echo "1..13"
n=0
ok_if() { # DESCRIPTION COMMAND...
    d=$1; shift
    n=$((n + 1))
    if "$@"; then echo "ok $n - $d"; else echo "not ok $n - $d"; fi
}
has() { grep -q -- "$2" "$1"; }

# The sweep's 3 problems (seed 9): f64 8336x8148 (518 MiB), f64 30x9858
# ld 9877/73, c128 96911x9. Tuned at 0.75, 1.25, 1.5 of the copy.
"$BIN" bench transpose --sweep 3 --seed 9 --list --json > list.json 2>/dev/null
python3 - <<'EOF' || exit 1
import json
probs = json.load(open("list.json"))["problems"]
names = list(probs[0]["fields"])
head = "gpu,family,type," + ",".join(names) + ",kernel,ms,gbps,frac_copy\n"
def rows(p, frac, gpu="Made-up GPU, 80GB"):
    key = "transpose,%s,%s" % (p["type"], ",".join(str(p["fields"][k]) for k in names))
    g = '"%s"' % gpu  # a name with a comma, quoted as the benchmark does
    return "".join("%s,%s,%s,%s,%s,%s\n" % (g, key, k, ms, gbps, f)
                   for k, ms, gbps, f in [("memcpy", 2, 3000, 1),
                                          ("tuned", 3, int(3000 * frac), frac),
                                          ("cublas", 4, 1500, 0.5)])
fr = [0.75, 1.25, 1.5]
open("full.csv", "w").write(head + "".join(rows(p, f) for p, f in zip(probs, fr)))
# A stopped run's file: two problems, and the third's first line cut short.
open("part.csv", "w").write(head + "".join(rows(p, f) for p, f in zip(probs[:2], fr))
                            + rows(probs[2], 1.5)[:40])
open("two-gpus.csv", "w").write(head + rows(probs[0], 0.5) + rows(probs[1], 0.5, "Another GPU"))
open("bad-kernel.csv", "w").write(head + rows(probs[0], 0.5).replace("cublas", "nosuch"))
open("bad-number.csv", "w").write(head + rows(probs[0], 0.5).replace(",2,3000,", ",2,fast,"))
open("not-a-bench.csv", "w").write("seed,point,ms\n1,x,2\n")
EOF

"$BIN" bench transpose --sweep 3 --seed 9 --resume full.csv --csv out.csv \
    > all.out 2> all.err
rc=$?
ok_if "every problem in the file: exit $rc without a GPU, the three taken" \
    sh -c "[ $rc = 0 ] && grep -q '3 of the 3 problems from full.csv (Made-up GPU, 80GB)' all.err &&
           grep -q 'every problem from full.csv' all.out"
ok_if "the CSV written again is the file, row for row" cmp -s full.csv out.csv
ok_if "the summary is the file's: 1 problem of 64 MiB or more at 75.0%, 2 under at 137.5%" \
    sh -c "grep -q 'all: 1, median 75.0% of the copy' all.out &&
           grep -q 'all: 2, median 137.5% of the copy' all.out &&
           grep -q 'against cublas (3 problems): tuned / cublas median 2.500' all.out"

"$BIN" bench transpose --sweep 3 --seed 9 --resume part.csv --csv p.csv \
    --device 99 > part.out 2> part.err
rc=$?
ok_if "two of three in a stopped run's file (its last line cut): said, then the third needs a GPU (exit $rc)" \
    sh -c "[ $rc = 1 ] && grep -q '2 of the 3 problems from part.csv' part.err && [ ! -e p.csv ]"

"$BIN" bench transpose --sweep 3 --seed 10 --resume full.csv --csv q.csv \
    --device 99 > other.out 2> other.err
ok_if "another seed's problems: none taken, said" \
    has other.err "0 of the 3 problems from full.csv: none of its rows are this run's"

refused() { # FILE FAMILY WHAT: exit 1 saying WHAT, no CSV written
    "$BIN" bench "$2" --sweep 3 --seed 9 --resume "$1" --csv r.csv \
        > bad.out 2> bad.err
    rc=$?
    [ $rc = 1 ] && has bad.err "$3" && [ ! -e r.csv ]
}
ok_if "rows of two GPUs: refused, naming the line" \
    refused two-gpus.csv transpose "two-gpus.csv:5: rows of two GPUs"
ok_if "a kernel the benchmark does not have: refused" \
    refused bad-kernel.csv transpose \
    "bad-kernel.csv:4: kernel 'nosuch' is not one of bench transpose's"
ok_if "a figure that is not a number: refused" \
    refused bad-number.csv transpose "bad-number.csv:2: not a benchmark row"
ok_if "another family's CSV: refused" \
    refused full.csv reduce \
    "full.csv:2: a row of another family (transpose), this is bench reduce"
ok_if "no benchmark CSV at all: refused" \
    refused not-a-bench.csv transpose "not-a-bench.csv: not a benchmark CSV"
ok_if "a file that is not there, or not a file: refused, naming it" \
    sh -c "refused() { '$BIN' bench transpose --sweep 3 --seed 9 --resume \"\$1\" \
               --csv r.csv 2>&1 | grep -q \"\$2\"; }
           refused nosuch.csv '^autotune: --resume: cannot read nosuch.csv' &&
           refused . '^autotune: --resume: cannot read .: not a regular file'"
"$BIN" bench transpose --sweep 3 --seed 9 --resume '' > e.out 2> e.err
rc=$?
ok_if "--resume '': a usage error (exit $rc)" \
    sh -c "[ $rc = 2 ] && grep -q -- \"--resume needs a path, got ''\" e.err"
"$BIN" bench transpose --sweep 3 --seed 9 --resume full.csv --json > j.out 2> j.err
rc=$?
ok_if "--resume with --json: a usage error (exit $rc)" \
    sh -c "[ $rc = 2 ] && grep -q 'no tuned point or seed' j.err"
