#!/usr/bin/env python3
"""The share of the copy of each problem under each build, from the CSVs
tools/ab_tunes.sh leaves (b-BUILD-TYPE-RxC.csv, or the same inside a
bench.tar.xz), and each build's difference from the first named:
ab_table.py DIR_OR_TAR BUILD... (BUILD names without their "b-")."""
import csv
import io
import os
import sys
import tarfile


def csv_files(where):
    if os.path.isdir(where):
        for name in sorted(os.listdir(where)):
            if name.endswith(".csv"):
                with open(os.path.join(where, name), newline="") as f:
                    yield name, f.read()
        return
    with tarfile.open(where) as tar:
        for m in tar.getmembers():
            if m.name.endswith(".csv"):
                yield os.path.basename(m.name), tar.extractfile(m).read().decode()


def main():
    where, builds = sys.argv[1], sys.argv[2:]
    share = {}  # problem -> build -> % of the copy
    for name, text in csv_files(where):
        for b in builds:
            prefix = "b-" + b + "-"
            if name.startswith(prefix):
                problem = name[len(prefix):-4].replace("-", " ", 1)
                for row in csv.DictReader(io.StringIO(text)):
                    if row["kernel"] == "tuned":
                        share.setdefault(problem, {})[b] = 100 * float(row["frac_copy"])
    diffs = {b: [] for b in builds[1:]}
    print("problem".ljust(24) + "".join(b.rjust(12) for b in builds))
    for problem, by in sorted(share.items()):
        cells = []
        for b in builds:
            cell = "%.1f" % by[b] if b in by else "-"
            if b != builds[0] and b in by and builds[0] in by:
                d = by[b] - by[builds[0]]
                diffs[b].append(d)
                cell += " %+.1f" % d
            cells.append(cell.rjust(12))
        print(problem.ljust(24) + "".join(cells))
    for b, d in diffs.items():
        if d:
            print("%s against %s: mean %+.2f over %d, %+.1f to %+.1f" %
                  (b, builds[0], sum(d) / len(d), len(d), min(d), max(d)))


main()
