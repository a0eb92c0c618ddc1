#!/usr/bin/env python3
# A sweep's summary from its CSV, complete or not (a run stopped part way
# leaves its rows in the temporary file, which this reads as well):
# problems of 64 MiB or more apart from smaller ones, by element size, and
# each large problem with its contenders' fractions of the copy.
# Usage: sweep_summary.py CSV
import csv, sys, statistics as st
size = {"i8":1,"u8":1,"f16":2,"bf16":2,"f32":4,"f64":8,"c64":8,"c128":16,"f32x4":16}
rows = list(csv.DictReader(open(sys.argv[1])))
probs = {}
for r in rows:
    k = (r["type"], r["rows"], r["cols"], r["ld_in"], r["ld_out"], r["batch"])
    probs.setdefault(k, {})[r["kernel"]] = float(r["frac_copy"])
big, small = [], []
for k, v in probs.items():
    t, R, C, li, lo, b = k
    by = int(R) * int(C) * int(b) * size[t]
    if "tuned" not in v: continue
    (big if by >= 64 * 2**20 else small).append((v["tuned"], t, k, v))
for name, g in (("64 MiB or more", big), ("under 64 MiB", small)):
    print(name, len(g), "median %.1f" % (100 * st.median([x[0] for x in g])) if g else "")
    for e in (1, 2, 4, 8, 16):
        s = sorted([x for x in g if size[x[1]] == e])
        if s:
            print("  %2d-byte %2d median %.1f min %.1f (%s)" % (e, len(s), 100 * st.median([x[0] for x in s]), 100 * s[0][0], " ".join(s[0][2][:3])))
print("contenders:", sorted({kk for v in probs.values() for kk in v}))
for x in sorted(big):
    k = x[2]; v = x[3]
    print("%-5s %9sx%-9s ld %s/%s b%s  %.1f%%  %s" % (k[0], k[1], k[2], k[3], k[4], k[5], 100*x[0], " ".join("%s=%.3f" % (a, b) for a, b in v.items() if a not in ("memcpy","tuned"))))
