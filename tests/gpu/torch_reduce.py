#!/usr/bin/env python3
"""PyTorch as a reduce contender, for the problems of an `autotune bench
reduce` CSV (one line per distinct problem; what a user would call: sum
with an f32 accumulator and output for f16/bf16, amin, amax, the 2-norm
squared, the inf-norm), timed with the bench's protocol: samples of at
least 2 ms of back-to-back calls between CUDA events, inputs rotated so a
round moves three L2 caches, the median of 21 samples, interleaved with a
device-to-device copy of the same bytes. GB/s count bytes read plus
bytes written; the copy's, twice the input's bytes. Prints a row per
problem and, with --csv FILE, appends rows with kernel "pytorch" and
"pytorch-memcpy".

    python3 tests/gpu/torch_reduce.py docs/perf/h100-reduce-sweep.csv
"""
import csv
import sys

import torch

TYPES = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16,
         "bf16": torch.bfloat16, "i32": torch.int32}


def call(op, x, dim):
    kw = {} if dim is None else {"dim": dim}
    if op == "sum":
        acc = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) \
            else None
        return torch.sum(x, dtype=acc, **kw)
    if op == "min":
        return torch.amin(x, **kw) if dim is not None else torch.min(x)
    if op == "max":
        return torch.amax(x, **kw) if dim is not None else torch.max(x)
    if x.dtype == torch.int32 and op in ("sumsq", "amax"):
        raise TypeError("no one-kernel PyTorch call for i32 " + op)
    if op == "sumsq":  # one kernel: the 2-norm (squared on the host side)
        return torch.linalg.vector_norm(x, 2, **kw)
    if op == "amax":
        return torch.linalg.vector_norm(x, float("inf"), **kw)
    raise ValueError(op)


def inputs(t, rows, cols, ld, sets):
    """The views a reduction reads, and flat buffers of as many elements
    (the copy's sources: contiguous, as the bench's memcpy)."""
    xs, flat = [], []
    for _ in range(sets):
        if t == "i32":
            base = torch.randint(-1000, 1000, (rows, ld), dtype=torch.int32,
                                 device="cuda")
        else:
            base = torch.randn(rows, ld, device="cuda").to(TYPES[t])
        xs.append(base[:, :cols])
        flat.append(base.view(-1)[:rows * cols])
    return xs, flat


def sample_ms(fn, sets, per):
    s = torch.cuda.Event(enable_timing=True)
    e = torch.cuda.Event(enable_timing=True)
    s.record()
    for i in range(per):
        fn(i % sets)
    e.record()
    e.synchronize()
    return s.elapsed_time(e) / per


def measure(t, op, axis, rows, cols, ld):
    esize = torch.tensor([], dtype=TYPES[t]).element_size()
    inb = rows * cols * esize
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    sets = min(3 * l2 // inb + 1, 256)
    xs, flat = inputs(t, rows, cols, ld, sets)
    dst = torch.empty_like(flat[0])
    dim = None if axis == "all" else (1 if axis == "cols" else 0)
    fns = [lambda i: dst.copy_(flat[i]), lambda i: call(op, xs[i], dim)]
    out = call(op, xs[0], dim)
    outb = out.numel() * out.element_size()
    per = []
    for fn in fns:
        one = sample_ms(fn, sets, sets)
        per.append(max(sets, int(2.0 / max(one, 1e-6)) + 1))
    ms = [[], []]
    for _ in range(21):
        for k, fn in enumerate(fns):
            ms[k].append(sample_ms(fn, sets, per[k]))
    med = [sorted(m)[len(m) // 2] for m in ms]
    copy = 2 * inb / med[0] / 1e6
    mine = (inb + outb) / med[1] / 1e6
    return med, copy, mine


def main():
    args = sys.argv[1:]
    out = None
    if "--csv" in args:
        i = args.index("--csv")
        out = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        sys.exit(__doc__)
    seen, rows_out = set(), []
    gpu = torch.cuda.get_device_name(0)
    for r in csv.DictReader(open(args[0])):
        if r["family"] != "reduce":
            continue
        # (the bench's CSV names it ld; older ones ld_in)
        key = (r["type"], r["op"], r["axis"], r["rows"], r["cols"],
               r.get("ld") or r.get("ld_in") or "")
        if key in seen:
            continue
        seen.add(key)
        t, op, axis = key[:3]
        rows, cols, ld = int(key[3]), int(key[4]), int(key[5] or key[4])
        try:
            med, copy, mine = measure(t, op, axis, rows, cols, ld)
        except TypeError as e:
            print(f"pytorch {t} {op} {axis} {rows}x{cols}: skipped ({e})")
            continue
        print(f"pytorch {t} {op} {axis} {rows}x{cols} ld={ld}: memcpy "
              f"{copy:.0f} GB/s | pytorch {med[1]:.4f} ms {mine:.0f} GB/s "
              f"{100 * mine / copy:.1f}% of copy", flush=True)
        for k, gb in (("pytorch-memcpy", copy), ("pytorch", mine)):
            # the bench's columns: gpu, family, type, op, axis, n, rows,
            # cols, ld, deterministic, kernel, ms, gbps, frac_copy
            rows_out.append([gpu, "reduce", t, op, axis,
                             cols if axis == "all" else 0, rows, cols, ld,
                             "no", k,
                             med[0] if k.endswith("memcpy") else med[1],
                             gb, gb / copy])
    if out:
        with open(out, "a", newline="") as f:
            csv.writer(f).writerows(rows_out)


if __name__ == "__main__":
    main()
