#!/usr/bin/env python3
"""Kernel Tuner on the convolution and matmul example specs (docs/SPEC.md):
the same space, restrictions, sizes and launch geometry as the .yaml, tuned
by brute force, for a configurations-per-second comparison with autotune.

Offline install of the kit (Kernel Tuner 1.5.0 and the wheels it imports):
  python3 -m pip install --no-index --no-deps --target .gpu8/kt/site .gpu8/kt/wheels/*.whl
--no-deps, not `--find-links .gpu8/kt/wheels kernel_tuner`: --target makes
pip ignore the installed numpy, and Kernel Tuner's metadata also requires
scipy, pandas, scikit-learn and pymoo, which brute_force never imports (none
are in the kit). Without pip, unzip instead:
  for w in .gpu8/kt/wheels/*.whl; do python3 -m zipfile -e "$w" .gpu8/kt/site; done
Run from the repository root (numpy and cupy come from the system):
  PYTHONPATH=.gpu8/kt/site python3 tests/gpu/kt_compare.py [convolution|matmul ...]
    --size WxH       another problem size (matmul needs W == H, as its spec)
    --max-configs N  only the first N valid configurations, in KT's order
    --dry-run        space sizes only, by itertools: imports neither KT nor cupy
    --kt-space       with --dry-run: also Kernel Tuner's own count (no GPU used)
CuPy's kernel cache goes to a fresh empty folder (cold compiles, as a first
tuning) unless CUPY_CACHE_DIR is set.
"""
import argparse
import itertools
import os
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_THREADS = 1024  # the specs' max_threads on an H100 (and every GPU since sm_20)


def f32(n, rng=None):
    import numpy as np
    return rng.random(n, dtype=np.float32) if rng else np.zeros(n, np.float32)


def i32(v):
    import numpy as np
    return np.int32(v)


# Each spec by hand. Restrictions are Python strings (what KT's restriction
# parser takes): C's && is `and`; {sx}, {sy}, {mt} are size_x, size_y and
# max_threads, filled in before use. Defines go in as -D options: KT's own
# `defines=` argument would replace the tune parameters' #defines. Neither
# spec has options; KT's cupy backend adds --std=c++11 (autotune's NVRTC
# runs use --std=c++17).
EXAMPLES = {
    "convolution": dict(
        size=(4096, 4096),
        tune_params={
            "block_size_x": [16, 32, 64, 128],
            "block_size_y": [1, 2, 4, 8, 16],
            "tile_size_x": [1, 2, 4],
            "tile_size_y": [1, 2, 4],
        },
        restrictions=[
            "block_size_x * block_size_y >= 64",
            "block_size_x * block_size_y <= {mt}",
        ],
        grid_div_x=["block_size_x", "tile_size_x"],
        grid_div_y=["block_size_y", "tile_size_y"],
        defines={"FW": 7, "FH": 7},
        options=[],
        # out (zeros), in with its 6-wide halo (random), w, h
        args=lambda sx, sy, rng: [f32(sx * sy), f32((sx + 6) * (sy + 6), rng),
                                  i32(sx), i32(sy)],
        cmem=lambda sx, sy, rng: {"d_filter": f32(49, rng)},
    ),
    "matmul": dict(
        size=(2048, 2048),
        tune_params={
            "block_size_x": [16, 32, 64],
            "block_size_y": [1, 2, 4, 8, 16, 32],
            "tile_size_y": [1, 2, 4, 8, 16, 32],
        },
        restrictions=[
            "block_size_x == block_size_y * tile_size_y",
            "block_size_x * block_size_y <= {mt}",
            "{sx} % block_size_x == 0 and {sy} == {sx}",
            "(2 * block_size_x * block_size_x + block_size_x) * 4 <= 48 * 1024",
        ],
        grid_div_x=["block_size_x"],
        grid_div_y=["block_size_y", "tile_size_y"],
        defines={},
        options=[],
        # C (zeros), A, B (random), n = size_x
        args=lambda sx, sy, rng: [f32(sx * sx), f32(sx * sx, rng),
                                  f32(sx * sx, rng), i32(sx)],
        cmem=None,
    ),
}


def restrictions(ex, sx, sy):
    return [r.format(sx=sx, sy=sy, mt=MAX_THREADS) for r in ex["restrictions"]]


def valid_points(ex, sx, sy):
    """The space after restrictions, last parameter fastest (the spec's and
    KT's order), by plain itertools and eval."""
    names = list(ex["tune_params"])
    code = [compile(r, "<restriction>", "eval") for r in restrictions(ex, sx, sy)]
    total, out = 0, []
    for vals in itertools.product(*ex["tune_params"].values()):
        total += 1
        p = dict(zip(names, vals))
        if all(eval(c, {"__builtins__": {}}, p) for c in code):
            out.append(vals)
    return total, out


class Prefix:
    """brute_force's tune() on the first n configurations (--max-configs)."""

    def __init__(self, n):
        self.n = n

    def tune(self, searchspace, runner, tuning_options):
        return runner.run(searchspace.sorted_list()[: self.n], tuning_options)


def tune(name, ex, sx, sy, max_configs):
    import numpy as np
    from kernel_tuner import tune_kernel

    with open(os.path.join(ROOT, "examples", "kernels", name, name + ".cu")) as f:
        source = f.read()
    rng = np.random.default_rng(1)
    args = ex["args"](sx, sy, rng)
    cmem = ex["cmem"](sx, sy, rng) if ex["cmem"] else None
    options = ex["options"] + ["-D%s=%d" % kv for kv in ex["defines"].items()]
    t0 = time.perf_counter()
    # No answer/verify: the outputs are not checked, so KT pays no
    # verification time (autotune's reference check is extra work there).
    results, env = tune_kernel(
        name, source, (sx, sy), args, ex["tune_params"],
        grid_div_x=ex["grid_div_x"], grid_div_y=ex["grid_div_y"],
        restrictions=restrictions(ex, sx, sy), cmem_args=cmem,
        compiler_options=options or None, lang="cupy",
        strategy=Prefix(max_configs) if max_configs else "brute_force",
        quiet=True)  # iterations: the default 7
    wall = time.perf_counter() - t0
    ok = [r for r in results if r and "__error__" not in r]
    best = min(ok, key=lambda r: r["time"]) if ok else None
    bp = ",".join("%s=%s" % (k, best[k]) for k in ex["tune_params"]) if best else "-"
    print("kt %s configs=%d valid=%d wall_s=%.3f configs_per_s=%.2f best=%s best_ms=%s"
          % (name, len(results), len(ok), wall, len(results) / wall, bp,
             "%.6f" % best["time"] if best else "-"), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("examples", nargs="*", help=" ".join(EXAMPLES) + " (default: all)")
    ap.add_argument("--size", help="WxH, the problem size (default: the spec's)")
    ap.add_argument("--max-configs", type=int, default=0, help="tune only the first N")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--kt-space", action="store_true")
    a = ap.parse_args()
    a.examples = a.examples or list(EXAMPLES)
    for name in a.examples:
        if name not in EXAMPLES:
            ap.error("unknown example %r (known: %s)" % (name, " ".join(EXAMPLES)))
    size = None
    if a.size:
        try:
            size = tuple(int(v) for v in a.size.lower().split("x"))
            assert len(size) == 2 and min(size) > 0
        except (ValueError, AssertionError):
            ap.error("--size: expected WxH, got %r" % a.size)
    if a.max_configs < 0:
        ap.error("--max-configs: expected N >= 0")

    if a.dry_run:
        for name in a.examples:
            ex = EXAMPLES[name]
            sx, sy = size or ex["size"]
            total, pts = valid_points(ex, sx, sy)
            n = min(len(pts), a.max_configs) if a.max_configs else len(pts)
            line = "dry %s size=%dx%d points=%d space=%d run=%d" % (name, sx, sy, total, len(pts), n)
            if a.kt_space:
                from kernel_tuner.searchspace import Searchspace
                s = Searchspace(ex["tune_params"], restrictions(ex, sx, sy), MAX_THREADS)
                same = s.sorted_list() == pts
                line += " kt_space=%d kt_order=%s" % (s.size, "same" if same else "DIFFERENT")
            print(line, flush=True)
        return 0

    # A fresh CuPy kernel cache unless one is given: every config compiles.
    tmp = None
    if "CUPY_CACHE_DIR" not in os.environ:
        tmp = os.environ["CUPY_CACHE_DIR"] = tempfile.mkdtemp(prefix="kt_cupy_")
    try:
        import numpy as np
        import cupy as cp
        import kernel_tuner
        print("# kernel_tuner %s numpy %s cupy %s cupy_cache=%s%s"
              % (kernel_tuner.__version__, np.__version__, cp.__version__,
                 os.environ["CUPY_CACHE_DIR"], " (fresh)" if tmp else ""), flush=True)
        if int(np.__version__.split(".")[0]) < 2:
            print("# note: Kernel Tuner 1.5 declares numpy>=2.0", flush=True)
        # The CUDA context and KT's lazily imported modules first, outside
        # the timed calls, so that the examples' order does not matter.
        cp.zeros(1).sum().item()
        import kernel_tuner.backends.cupy  # noqa: F401
        import kernel_tuner.runners.sequential  # noqa: F401
        import kernel_tuner.strategies.brute_force  # noqa: F401
        for name in a.examples:
            ex = EXAMPLES[name]
            sx, sy = size or ex["size"]
            if not valid_points(ex, sx, sy)[1]:
                print("kt %s: no configuration passes the restrictions at %dx%d" % (name, sx, sy))
                continue
            tune(name, ex, sx, sy, a.max_configs)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
