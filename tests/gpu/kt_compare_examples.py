#!/usr/bin/env python3
"""Kernel Tuner 1.5.0 on its own examples (examples/kernels/kt, issue 34):
each set up as the example's .py does (its kernel, sizes, numpy inputs,
space and restrictions, its answer and tolerance where it has one), tuned
cold (a fresh CuPy kernel cache) with the cupy backend by a random sample
of the whole space under a time limit, for configurations per second
beside autotune's. With --ours DIR (tests/gpu/kt_examples.sh's KT_OUT:
NAME.json), both winners are then timed again in one harness, Kernel
Tuner's (32 iterations each, one process).

Kernel Tuner is not a dependency of the project; its kit (wheels, no
network on the GPU machine):
  python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 \\
      --implementation cp --platform manylinux_2_28_x86_64 \\
      --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 -d .kt \\
      kernel_tuner==1.5.0 python-constraint2 packaging xmltodict jsonschema \\
      jsonschema-specifications referencing attrs rpds-py typing-extensions
  python3 -m pip install -q --no-index --no-deps --target /tmp/kt .kt/*.whl
  PYTHONPATH=/tmp/kt python3 tests/gpu/kt_compare_examples.py --seconds 20 \\
      [--ours DIR] [NAME ...]
numpy and cupy come from the system. One line an example:
  kt NAME configs=N valid=V wall_s=W configs_per_s=R best=PARAMS best_ms=T
  retime NAME ours=PARAMS ours_ms=T kt=PARAMS kt_ms=T
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections import OrderedDict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KT = os.path.join(ROOT, "examples", "kernels", "kt")


def src(name, file):
    with open(os.path.join(KT, name, file)) as f:
        return f.read()


def convolution(np, kt):
    fs, ps = (17, 17), (4096, 4096)
    out = np.zeros(np.prod(ps)).astype(np.float32)
    inp = np.random.randn((ps[0] + 16) * (ps[1] + 16)).astype(np.float32)
    filt = np.random.randn(17 * 17).astype(np.float32)
    tp = OrderedDict(filter_width=[17], filter_height=[17],
                     block_size_x=[16 * i for i in range(1, 9)],
                     block_size_y=[2 ** i for i in range(1, 6)],
                     tile_size_x=[1, 2, 4], tile_size_y=[1, 2, 4],
                     use_padding=[0, 1], read_only=[0, 1])
    code = src("convolution", "convolution.cu")
    args = [out, inp, filt]
    ref = kt.run_kernel("convolution_naive", code, ps, args,
                        {"block_size_x": 16, "block_size_y": 16},
                        grid_div_y=["block_size_y"], grid_div_x=["block_size_x"],
                        lang="cupy")
    return dict(kernel_name="convolution_kernel", kernel_source=code,
                problem_size=ps, arguments=args, tune_params=tp,
                grid_div_x=["block_size_x", "tile_size_x"],
                grid_div_y=["block_size_y", "tile_size_y"],
                cmem_args={"d_filter": filt}, answer=[ref[0], None, None])


def pnpoly(np, kt):
    size = np.int32(2e7)
    pts = np.random.randn(2 * size).astype(np.float32)
    bitmap = np.zeros(size).astype(np.int32)
    v = np.load(os.path.join(KT, "pnpoly", "vertices.npy")).reshape(600, 2)
    k = np.roll(v, 1, axis=0)  # the edge from j - 1 to j, as pnpoly_host.cu
    slopes = ((k[:, 0] - v[:, 0]) / (k[:, 1] - v[:, 1])).astype(np.float32)
    tp = OrderedDict(block_size_x=[32 * i for i in range(1, 32)],
                     tile_size=[1] + [2 * i for i in range(1, 11)],
                     between_method=[0, 1, 2, 3], use_precomputed_slopes=[0, 1],
                     use_method=[0, 1])
    return dict(kernel_name="cn_pnpoly", kernel_source=src("pnpoly", "pnpoly.cu"),
                problem_size=(int(size), 1), arguments=[bitmap, pts, size],
                tune_params=tp, grid_div_x=["block_size_x", "tile_size"],
                cmem_args={"d_vertices": v.astype(np.float32).ravel(),
                           "d_slopes": slopes})


def expdist(np, kt):
    tp = OrderedDict(block_size_x=[2 ** i for i in range(5, 10)],
                     block_size_y=[2 ** i for i in range(6)],
                     tile_size_x=[2 ** i for i in range(4)],
                     tile_size_y=[2 ** i for i in range(4)], use_shared_mem=[0, 1])
    alloc, size = 3000, np.int32(2000)
    A = np.random.randn(alloc * 2).astype(np.float64)
    B = A + 0.00001 * np.random.randn(alloc * 2).astype(np.float64)
    sA = np.absolute(0.01 * np.random.randn(alloc).astype(np.float64))
    sB = np.absolute(0.01 * np.random.randn(alloc).astype(np.float64))
    cost = np.zeros(63 * 2000).astype(np.float64)
    return dict(kernel_name="ExpDist", kernel_source=src("expdist", "expdist.cu"),
                problem_size=(size, size),
                arguments=[A, B, size, size, sA, sB, cost], tune_params=tp,
                grid_div_x=["block_size_x", "tile_size_x"],
                grid_div_y=["block_size_y", "tile_size_y"])


def reduction(np, kt):
    tp = OrderedDict(block_size_x=[2 ** i for i in range(5, 11)],
                     vector=[2 ** i for i in range(3)],
                     num_blocks=[2 ** i for i in range(5, 16)],
                     loop_unroll_factor_0=[0, 1, 8, 16, 32, 64], use_shuffle=[0, 1])
    x = np.random.rand(800000000).astype(np.float32)
    sum_x = np.zeros(32768).astype(np.float32)

    def verify(cpu, gpu, atol=None):
        return np.isclose(cpu[0], np.sum(gpu[0]), atol=atol)
    return dict(kernel_name="sum_floats",
                kernel_source=src("reduction", "reduction.cu"),
                problem_size="num_blocks", arguments=[sum_x, x, np.int32(x.size)],
                tune_params=tp, grid_div_x=[], answer=[np.sum(x), None, None],
                verify=verify)


def spmv(np, kt):
    # spmv.py's int(numpy.int32(nrows) * ncols * 0.001) overflows in
    # numpy 2 (an int32 times a Python int stays int32: nnz came out 0 on
    # the H100 with numpy 2.5.2); the product it means, in Python ints.
    nrows, ncols = np.int32(128 * 1024), 64 * 1024
    nnz = int(int(nrows) * ncols * 0.001)
    rows = np.asarray([0] + sorted(np.random.rand(nrows - 1) * nnz) + [nnz]).astype(np.int32)
    cols = (np.random.rand(nnz) * ncols).astype(np.int32)
    vals = np.random.randn(nnz).astype(np.float32)
    x = np.random.randn(ncols).astype(np.float32)
    y = np.zeros(nrows).astype(np.float32)
    # scipy.sparse's product, in numpy: each row's sum of values * x.
    row = np.repeat(np.arange(nrows), np.diff(rows))
    want = np.bincount(row, weights=vals.astype(np.float64) * x[cols],
                       minlength=nrows).astype(np.float32)
    tp = OrderedDict(block_size_x=[32 * i for i in range(1, 33)],
                     threads_per_row=[1, 32], read_only=[0, 1])
    return dict(kernel_name="spmv_kernel", kernel_source=src("spmv", "spmv.cu"),
                problem_size=nrows, arguments=[y, rows, cols, vals, x, nrows],
                tune_params=tp, grid_div_x=["block_size_x/threads_per_row"],
                answer=[want, None, None, None, None, None], atol=1e-4)


def stencil(np, kt):
    ps = (4096, 2048)
    old = np.random.randn(np.prod(ps)).astype(np.float32)
    tp = OrderedDict(block_size_x=[32 * i for i in range(1, 9)],
                     block_size_y=[2 ** i for i in range(6)])
    return dict(kernel_name="stencil_kernel", kernel_source=src("stencil", "stencil.cu"),
                problem_size=ps, arguments=[np.copy(old), old], tune_params=tp,
                grid_div_x=["block_size_x"], grid_div_y=["block_size_y"])


def zeromean(np, kt, vertical):
    h, w = np.int32(4391), np.int32(3539)
    image = np.random.randn(h * w).astype(np.float32)
    tp = OrderedDict(block_size_x=[32 * i for i in range(1, 9)],
                     block_size_y=[2 ** i for i in range(6)])
    code = src("zeromeanfilter", "zeromeanfilter.cu")
    if vertical:
        return dict(kernel_name="computeMeanVertically", kernel_source=code,
                    problem_size=(w, 1), arguments=[h, w, image], tune_params=tp,
                    grid_div_x=["block_size_x"], grid_div_y=[])
    return dict(kernel_name="computeMeanHorizontally", kernel_source=code,
                problem_size=(1, h), arguments=[h, w, image], tune_params=tp,
                grid_div_x=[], grid_div_y=["block_size_y"])


def matmul(np, kt):
    ps = (4096, 4096)
    A = np.random.randn(*ps).astype(np.float32)
    B = np.random.randn(*ps).astype(np.float32)
    tp = OrderedDict(block_size_x=[16 * 2 ** i for i in range(3)],
                     block_size_y=[2 ** i for i in range(6)],
                     tile_size_x=[2 ** i for i in range(4)],
                     tile_size_y=[2 ** i for i in range(4)])
    return dict(kernel_name="matmul_kernel", kernel_source=src("matmul", "matmul.cu"),
                problem_size=ps, arguments=[np.zeros_like(A), A, B], tune_params=tp,
                grid_div_x=["block_size_x", "tile_size_x"],
                grid_div_y=["block_size_y", "tile_size_y"],
                restrictions=["block_size_x==block_size_y*tile_size_y"],
                iterations=32)


EXAMPLES = OrderedDict(
    convolution=convolution, pnpoly=pnpoly, expdist=expdist, reduction=reduction,
    spmv=spmv, stencil=stencil,
    vertical=lambda np, kt: zeromean(np, kt, True),
    horizontal=lambda np, kt: zeromean(np, kt, False), matmul=matmul)


def params_of(text):
    return {k: int(v) for k, v in (w.split("=") for w in text.split())}


def retime(kt, setup, name, ours, theirs):
    """Both winners by Kernel Tuner, one after the other, 32 iterations."""
    if not ours or not theirs:
        return
    tp = OrderedDict((k, sorted({ours[k], theirs[k]})) for k in setup["tune_params"])
    both = [ours, theirs]
    keep = lambda p: any(all(p[k] == b[k] for k in b) for b in both)
    # Kernel Tuner takes a lambda first in a list of restrictions.
    s = dict(setup, tune_params=tp, iterations=32, quiet=True, lang="cupy",
             restrictions=[keep] + list(setup.get("restrictions", [])))
    s.pop("answer", None)
    s.pop("verify", None)
    res, _ = kt.tune_kernel(**s)
    t = {}
    for r in res:
        if "__error__" in r or not isinstance(r.get("time"), float):
            continue
        t["ours" if all(r[k] == ours[k] for k in ours) else "kt"] = r["time"]
    fmt = lambda p: ",".join(f"{k}={v}" for k, v in p.items())
    print(f"retime {name} ours={fmt(ours)} ours_ms={t.get('ours', '-')} "
          f"kt={fmt(theirs)} kt_ms={t.get('kt', '-')}", flush=True)


def run(kt, np, name, seconds, ours_dir):
    np.random.seed(34)
    setup = EXAMPLES[name](np, kt)
    t0 = time.perf_counter()
    res, _ = kt.tune_kernel(**setup, strategy="random_sample", quiet=True,
                            lang="cupy",
                            strategy_options={"fraction": 1.0, "time_limit": seconds})
    wall = time.perf_counter() - t0
    ok = [r for r in res if "__error__" not in r and isinstance(r.get("time"), float)]
    best = min(ok, key=lambda r: r["time"]) if ok else None
    bp = {k: best[k] for k in setup["tune_params"]} if best else None
    errors = sorted({str(r.get("__error__"))[:60] for r in res if "__error__" in r})
    print(f"kt {name} configs={len(res)} valid={len(ok)} wall_s={wall:.1f} "
          f"configs_per_s={len(res) / wall:.3f} "
          f"best={','.join(f'{k}={v}' for k, v in bp.items()) if bp else '-'} "
          f"best_ms={best['time']:.4f}" if best else
          f"kt {name} configs={len(res)} valid=0 wall_s={wall:.1f} errors={errors[:2]}",
          flush=True)
    if ours_dir and bp:
        path = os.path.join(ours_dir, name + ".json")
        if os.path.exists(path):
            retime(kt, setup, name, params_of(json.load(open(path))["params"]), bp)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("examples", nargs="*")
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--ours", help="kt_examples.sh's KT_OUT (NAME.json)")
    a = ap.parse_args()
    names = a.examples or list(EXAMPLES)
    for n in names:
        if n not in EXAMPLES:
            ap.error(f"unknown example {n!r} (known: {' '.join(EXAMPLES)})")
    tmp = os.environ["CUPY_CACHE_DIR"] = tempfile.mkdtemp(prefix="kt_cupy_")
    try:
        import numpy as np
        import cupy as cp
        import kernel_tuner as kt
        print(f"# kernel_tuner {kt.__version__} numpy {np.__version__} "
              f"cupy {cp.__version__} (fresh CuPy cache)", flush=True)
        cp.zeros(1).sum().item()
        for n in names:
            try:
                run(kt, np, n, a.seconds, a.ours)
            except Exception as e:  # one example's failure is its own
                print(f"kt {n} FAILED {type(e).__name__}: {str(e)[:300]}", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
