#!/usr/bin/env python3
"""A kernel's time by phase from Nsight Compute's per-instruction page.

Input: the CSV of `ncu -i REPORT --page source --csv --print-source sass`
for a report taken with `--section SourceCounters` (r77, r80). Prints the
stall samples and warp instructions of each stretch of SASS between
changes of memory operation (LDG loads, STS puts, LDS reads, STG stores,
BAR barriers); the first stretch is the block's setup up to its first
load. With --ranges "A-B:NAME;..." (hex offsets from the kernel's first
instruction) it sums those ranges instead, as r77/phases.txt did.
"""
import csv
import sys

MEM = ("LDG", "STS", "LDS", "STG", "BAR")


def load(path):
    rows = list(csv.reader(open(path)))
    head, data = rows[1], rows[2:]
    ix = {k: i for i, k in enumerate(head)}
    base = int(data[0][0], 16)
    out = []
    for r in data:
        out.append((int(r[0], 16) - base, r[1].strip(),
                    int(r[ix["Instructions Executed"]] or 0),
                    int(r[ix["Warp Stall Sampling (All Samples)"]] or 0)))
    return out


def by_ranges(ins, spec):
    for part in spec.split(";"):
        span, name = part.split(":", 1)
        a, b = (int(x, 16) for x in span.split("-"))
        yield name, [x for x in ins if a <= x[0] < b]


def by_memory_ops(ins):
    seg, last = [], None
    for x in ins:
        op = next((m for m in MEM if m in x[1]), None)
        if not seg or (op and op != last):
            seg.append((f"{x[0]:5x} {op or ''}", []))
            last = op or last
        seg[-1][1].append(x)
    return seg


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    ins = load(args[0])
    total_n = sum(x[2] for x in ins) or 1
    total_s = sum(x[3] for x in ins) or 1
    groups = (by_ranges(ins, args[2]) if len(args) > 2 and
              args[1] == "--ranges" else by_memory_ops(ins))
    print(f"{'phase':24s} {'stall samples':>15s} {'warp instructions':>20s}")
    for name, xs in groups:
        n, s = sum(x[2] for x in xs), sum(x[3] for x in xs)
        if n or s:
            print(f"{name:24s} {s:7d} {100 * s / total_s:5.1f}% "
                  f"{n:12d} {100 * n / total_n:5.1f}%")
    print(f"{'all':24s} {total_s:7d}        {total_n:12d}")


if __name__ == "__main__":
    main()
