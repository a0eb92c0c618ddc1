"""Launch overhead through Python: a tuned kernel's call (``k(c, a, b,
None)``, every argument checked) against CuPy's RawKernel launching the
same kernel from a cubin nvcc builds of the emitted .cu, and against
autotune's C launch (bench/launch_overhead in the C benchmarks). The
kernel is vector_add on 1024 elements: the launch is all there is.
Prints microseconds a launch, host side (launches queued, then one
synchronize), the median of 7 runs of 2000 launches. Needs a GPU, CuPy
and nvcc."""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import cupy as cp

import autotune

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SPEC = os.path.join(ROOT, "examples", "kernels", "vector_add",
                    "vector_add.yaml")
N, LAUNCHES, RUNS = 1024, 2000, 7


def per_launch_us(launch):
    times = []
    for _ in range(RUNS):
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        for _ in range(LAUNCHES):
            launch()
        cp.cuda.Device().synchronize()
        times.append((time.perf_counter() - t0) / LAUNCHES * 1e6)
    return statistics.median(times)


def main():
    d = tempfile.mkdtemp()
    ctx = autotune.Context(cache=os.path.join(d, "c.db"), effort="estimate")
    fam = ctx.load_spec(SPEC)
    k = ctx.get(fam, size_x=N)
    a = cp.random.rand(N, dtype=cp.float32)
    b = cp.random.rand(N, dtype=cp.float32)
    c = cp.zeros(N, cp.float32)
    # The same point, emitted and built by nvcc into a cubin for CuPy.
    m = re.search(r"block_size_x(\d+)_tile_size_x(\d+)", k.point)
    bx, tx = int(m.group(1)), int(m.group(2))
    cu = os.path.join(d, "v.cu")
    subprocess.check_call([autotune._native.cli_path(), "kernel", SPEC,
                           "--size-x", str(N), "--arch", "sm_90", "-o", cu,
                           "--quiet", "--effort", "estimate"],
                          env=dict(os.environ,
                                   AUTOTUNE_CACHE=os.path.join(d, "c.db")))
    if k.point not in open(cu).read():
        sys.exit(f"the emitted .cu is not of point {k.point}")
    cubin = os.path.join(d, "v.cubin")
    subprocess.check_call(["nvcc", "-cubin", "-arch=sm_90", cu, "-o",
                           cubin])
    # The emitted .cu renames the spec's kernel (#define AT_KERNEL name)
    # so that it cannot clash with a user's symbol of the same name.
    name = re.search(r"#define AT_KERNEL (\w+)", open(cu).read()).group(1)
    raw = cp.RawModule(path=cubin).get_function(name)
    grid = ((N + bx * tx - 1) // (bx * tx),)
    n32 = cp.int32(N)
    k(c, a, b, None)
    raw(grid, (bx,), (c, a, b, n32))
    cp.cuda.Device().synchronize()
    assert bool(cp.all(c == a + b))
    ours = per_launch_us(lambda: k(c, a, b, None))
    pc, pa, pb = c.data.ptr, a.data.ptr, b.data.ptr
    st = cp.cuda.get_current_stream().ptr
    bare = per_launch_us(lambda: k.launch(pc, pa, pb, None, stream=st))
    theirs = per_launch_us(lambda: raw(grid, (bx,), (c, a, b, n32)))
    print(f"point {k.point}; {LAUNCHES} launches x {RUNS} runs, median")
    print(f"autotune Kernel call (checked)   {ours:7.2f} us a launch")
    print(f"autotune Kernel.launch (bare)    {bare:7.2f} us a launch")
    print(f"CuPy RawKernel, same kernel      {theirs:7.2f} us a launch")
    print(f"ratio, checked / RawKernel       {ours / theirs:7.2f}x")
    print(f"ratio, bare / RawKernel          {bare / theirs:7.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
