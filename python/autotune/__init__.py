"""autotune for Python: CUDA kernels tuned for this GPU, called on
CuPy, PyTorch, Numba or JAX arrays.

    import autotune, cupy
    x = cupy.random.rand(4096, 8192, dtype=cupy.float32)
    y = autotune.transpose(x)            # tuned on first use, then cached
    s = autotune.reduce(x, "sum", axis=1)

    with autotune.Context(device=0, effort="measure") as ctx:
        k = ctx.get("transpose", "float32", rows=4096, cols=8192)
        k(x, y)                            # on CuPy's current stream
        print(k.point, k.figures.frac_copy)

Importing needs no GPU and no library; the C library (bundled) is loaded
on first use. docs/PYTHON.md has an example per family and one for a
spec."""
from .cli import emit, space
from .context import (EFFORTS, Context, Figures, Kernel, load_spec, problem,
                      version)
from .errors import (Error, InvalidError, NoDeviceError, NotFoundError,
                     RangeError)
from .ops import default_context, reduce, transpose

__version__ = "1.0.0"

__all__ = ["Context", "Kernel", "Figures", "EFFORTS", "Error",
           "InvalidError", "RangeError", "NotFoundError", "NoDeviceError",
           "transpose", "reduce", "default_context", "load_spec", "problem",
           "space", "emit", "version", "__version__"]
