#!/usr/bin/env python3
"""Plain loads against read-only ones in exhaustive transpose tunes.

For each record (an `autotune transpose --record` CSV of every point), each
tile point with ldg=1 restrict=1 is paired with the same point with ldg=0
restrict=0: the ratio of their median times, its median and spread; the best
of each half against the record's best; and, for two records of one problem,
the correlation of the pair's ratio between them (a real effect of the loads
repeats; noise does not).
Usage: pair.py RECORD.csv [RECORD.csv ...] [--twin A.csv B.csv ...]
The records used: ../code-per-point/fast-compile-min-records.tgz."""
import csv
import statistics
import sys


def load(fn):
    d = {}
    for r in csv.DictReader(open(fn)):
        if r["status"] == "ok":
            d[r["point"]] = float(r["median_ms"])
    return d


def ratios(d):
    """read-only time / plain time, per point with both."""
    out = {}
    for p, t in d.items():
        if "ldg1_rst1" in p:
            q = p.replace("ldg1_rst1", "ldg0_rst0")
            if q in d:
                out[p] = t / d[q]
    return out


def corr(a, b):
    k = [p for p in a if p in b]
    x, y = [a[p] for p in k], [b[p] for p in k]
    mx, my = statistics.mean(x), statistics.mean(y)
    cov = sum((i - mx) * (j - my) for i, j in zip(x, y)) / len(k)
    return cov / statistics.pstdev(x) / statistics.pstdev(y), len(k)


args = sys.argv[1:]
twins = []
if "--twin" in args:
    i = args.index("--twin")
    twins = args[i + 1:]
    args = args[:i]
print("record | pairs | read-only/plain p10 median p90 | best plain | best read-only")
for fn in args:
    d = load(fn)
    r = sorted(ratios(d).values())
    n = len(r)
    best = min(d.values())
    b0 = min(t for p, t in d.items() if "ldg0_rst0" in p) / best
    b1 = min(t for p, t in d.items() if "ldg1_rst1" in p) / best
    print(f"{fn} | {n} | {r[n // 10]:.4f} {r[n // 2]:.4f} {r[9 * n // 10]:.4f}"
          f" | {b0:.4f} | {b1:.4f}")
for a, b in zip(twins[::2], twins[1::2]):
    c, n = corr(ratios(load(a)), ratios(load(b)))
    print(f"correlation of the ratio, {a} against {b}: {c:.3f} ({n} pairs)")
