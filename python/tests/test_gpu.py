"""On a GPU (make gpu-check): the package's kernels give what CuPy and
PyTorch give, on random data of every type the families take, through
the conveniences and through a context; wrong arrays are refused before
a launch; streams, specs, background tunes and figures. Skips without a
GPU, CuPy or PyTorch."""
import tempfile

import numpy as np
import pytest

import autotune

try:
    with tempfile.TemporaryDirectory() as _d:
        autotune.Context(cache=_d + "/probe.db").close()
except autotune.NoDeviceError as exc:
    pytest.skip(f"no GPU here: {exc}", allow_module_level=True)
cp = pytest.importorskip("cupy")
torch = pytest.importorskip("torch")
from conftest import repo  # noqa: E402


@pytest.fixture(scope="module")
def ctx(tmp_path_factory):
    """Estimate effort: one verified variant a problem, no search (the
    search itself is test_a_measured_tune's)."""
    d = tmp_path_factory.mktemp("cache")
    with autotune.Context(cache=str(d / "c.db"), effort="estimate") as c:
        yield c


RNG = np.random.default_rng(39)


def host(shape, dtype):
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return RNG.integers(max(info.min, -1000), min(info.max, 1000),
                            size=shape, dtype=dtype)
    x = RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(dtype)


CUPY_TYPES = ["int8", "uint8", "float16", "float32", "float64", "complex64",
              "complex128"]


@pytest.mark.parametrize("dtype", CUPY_TYPES)
@pytest.mark.parametrize("shape", [(333, 517), (3, 64, 100), (1, 4099)])
def test_transpose_equals_cupys(ctx, dtype, shape):
    x = cp.asarray(host(shape, dtype))
    y = autotune.transpose(x, ctx=ctx)
    assert isinstance(y, cp.ndarray) and y.dtype == x.dtype
    want = cp.swapaxes(x, -1, -2)
    assert y.shape == want.shape
    assert bool(cp.all(y == want))


def test_transpose_of_padded_rows_and_bf16_torch(ctx):
    base = cp.asarray(host((300, 530), "float32"))
    x = base[:, :517]  # rows 530 apart: ld_in
    assert bool(cp.all(autotune.transpose(x, ctx=ctx) == x.T))
    t = torch.randn(257, 129, device="cuda").to(torch.bfloat16)
    y = autotune.transpose(t, ctx=ctx)
    assert isinstance(y, torch.Tensor) and y.dtype == torch.bfloat16
    assert torch.equal(y, t.T)


def _torch_reduce(t, op, axis):
    d = t.double() if t.is_floating_point() else t.long()
    f = {"sum": lambda v, **k: v.sum(**k),
         "sumsq": lambda v, **k: (v * v).sum(**k),
         "min": lambda v, **k: v.amin(**k), "max": lambda v, **k: v.amax(**k),
         "amax": lambda v, **k: v.abs().amax(**k)}[op]
    return f(d) if axis is None else f(d, dim=axis)


@pytest.mark.parametrize("dtype,ops", [
    (torch.float32, ["sum", "min", "max", "sumsq", "amax"]),
    (torch.float16, ["sum", "max"]), (torch.bfloat16, ["sum", "amax"]),
    (torch.float64, ["sum", "min"]), (torch.int32, ["sum", "max"])])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_reduce_equals_torchs(ctx, dtype, ops, axis):
    shape = (1000, 333) if axis is not None else (123457,)
    if dtype == torch.int32:
        t = torch.randint(-1000, 1000, shape, device="cuda", dtype=dtype)
    else:
        t = torch.randn(shape, device="cuda").to(dtype)
    for op in ops:
        got = autotune.reduce(t, op, axis=axis, ctx=ctx)
        want = _torch_reduce(t, op, axis)
        if axis is None:
            got = got.reshape(())
        if dtype == torch.int32 or op in ("min", "max", "amax"):
            assert torch.equal(got.double(), want.double()), op
        else:
            n = t.numel() if axis is None else t.shape[1 - axis]
            tol = {torch.float64: 1e-12}.get(dtype, 1e-5) * n ** 0.5
            scale = _torch_reduce(t.abs(), "sum" if op == "sum" else op,
                                  axis).clamp(min=1)
            assert torch.all((got.double() - want).abs() <= tol * scale), op


def test_wrong_arrays_are_refused_before_the_launch(ctx):
    k = ctx.get("transpose", "float32", rows=64, cols=32)
    x = cp.zeros((64, 32), cp.float32)
    y = cp.full((32, 64), 7, cp.float32)
    with pytest.raises(ValueError, match="output: shape"):
        k(x, cp.zeros((64, 32), cp.float32))
    with pytest.raises(ValueError, match="input: dtype f64"):
        k(cp.zeros((64, 32), cp.float64), y)
    with pytest.raises(ValueError, match="input: .*CUDA memory|input: a"):
        k(np.zeros((64, 32), np.float32), y)
    with pytest.raises(ValueError, match="input: .*CUDA memory"):
        k(torch.zeros(64, 32), y)
    with pytest.raises(ValueError, match="1 argument given, the kernel takes 2"):
        k(x)
    cp.cuda.Device().synchronize()
    assert bool(cp.all(y == 7))  # nothing was launched
    k(x, y)
    assert bool(cp.all(y == 0))


def test_launches_on_the_callers_stream(ctx):
    x = cp.asarray(host((2048, 1024), "float32"))
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        y = autotune.transpose(x, ctx=ctx)  # CuPy's current stream: s
        z = y * 2
    s.synchronize()
    assert bool(cp.all(z == 2 * x.T))
    t = torch.randn(512, 256, device="cuda")
    ts = torch.cuda.Stream()
    with torch.cuda.stream(ts):
        u = autotune.transpose(t, ctx=ctx)
    ts.synchronize()
    assert torch.equal(u, t.T)


def test_a_specs_kernel(ctx):
    fam = ctx.load_spec(repo("examples", "kernels", "vector_add",
                             "vector_add.yaml"))
    n = 1 << 20
    k = ctx.get(fam, size_x=n)
    a, b = cp.asarray(host(n, "float32")), cp.asarray(host(n, "float32"))
    c = cp.zeros(n, cp.float32)
    assert k.arg_count == 4
    k(c, a, b, None)
    assert bool(cp.all(c == a + b))
    with pytest.raises(ValueError, match=r"argument 2 \(a\): 1048575"):
        k(c, a[1:], b, None)
    c2 = cp.zeros(n, cp.float32)
    k.launch(c2.data.ptr, a.data.ptr, b.data.ptr, None,
             stream=cp.cuda.get_current_stream().ptr)
    assert bool(cp.all(c2 == a + b))
    with pytest.raises(ValueError, match="3 pointers given"):
        k.launch(c2.data.ptr, a.data.ptr, b.data.ptr)


def test_a_measured_tune_then_the_cache(tmp_path):
    with autotune.Context(cache=str(tmp_path / "m.db"),
                          effort="measure") as c:
        k = c.get("transpose", "f32", rows=4096, cols=4096)
        f = k.figures
        assert f.how == "tuned" and f.effort == "measure"
        assert f.median_ms > 0 and 0.3 < f.frac_copy < 2.0
        k2 = c.get("transpose", "f32", rows=4096, cols=4096)
        assert k2.figures.how == "cached" and k2.point == k.point
        x = cp.asarray(host((4096, 4096), "float32"))
        y = cp.empty_like(x)
        k2(x, y)
        assert bool(cp.all(y == x.T))


def test_background_tune(tmp_path):
    """A background tune beside the answer already given: the GPU worker
    opens the compiled-variant cache the foreground has written to (a
    write transaction left open there made this fail with 'database is
    locked' after 30 s)."""
    with autotune.Context(cache=str(tmp_path / "b.db"),
                          effort="measure") as c:
        k = c.get("transpose", "f16", rows=1000, cols=3000, background=True)
        assert k.figures.how in ("default", "reused")
        c.wait()
        assert k.refresh() in (True, False)
        x = cp.asarray(host((1000, 3000), "float16"))
        y = cp.empty((3000, 1000), cp.float16)
        k(x, y)
        assert bool(cp.all(y == x.T))


def test_jax_arrays_through_dlpack(ctx):
    jax = pytest.importorskip("jax")
    x = jax.numpy.asarray(host((300, 200), "float32"))
    x.block_until_ready()
    k = ctx.get("transpose", "float32", rows=300, cols=200)
    y = cp.empty((200, 300), cp.float32)
    k(x, y)  # read through __dlpack__ (JAX has no __cuda_array_interface__)
    cp.cuda.Device().synchronize()
    assert np.array_equal(cp.asnumpy(y), np.asarray(x).T)


def test_a_dropped_kernel_is_freed(ctx):
    """Asking again and again does not pile up modules: a kernel nobody
    holds is destroyed; the context's own stay usable."""
    import gc
    gc.collect()
    before = len(ctx._kernels)
    for _ in range(20):
        k = ctx.get("transpose", "float32", rows=64, cols=32)
    del k
    gc.collect()
    assert len(ctx._kernels) == before
    x = cp.asarray(host((64, 32), "float32"))
    assert bool(cp.all(autotune.transpose(x, ctx=ctx) == x.T))
