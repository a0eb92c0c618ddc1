"""``autotune.transpose(x)`` and ``autotune.reduce(x, op, axis)``: the
output allocated by the input's library (CuPy, PyTorch, Numba), the
kernel asked for once per problem on a context per device."""
from __future__ import annotations

import threading
from typing import Any, Dict, Optional, Tuple

from . import arrays, shapes
from .context import Context, Kernel

_lock = threading.Lock()
_contexts: Dict[int, Context] = {}
_kernels: Dict[Tuple, Kernel] = {}


def default_context(device: int = 0) -> Context:
    """The context the conveniences use for a device (made on first use:
    the default cache, exhaustive effort)."""
    with _lock:
        if device not in _contexts:
            _contexts[device] = Context(device)
        return _contexts[device]


def _kernel(ctx: Context, family: str, dtype: str, fields: Dict) -> Kernel:
    key = (id(ctx), family, dtype, tuple(sorted(fields.items())))
    with _lock:
        k = _kernels.get(key)
    if k is None or not k._h:
        k = ctx.get(family, dtype, **fields)
        with _lock:
            _kernels[key] = k
    return k


def _device_of(a: arrays.DeviceArray) -> int:
    dev = a.ordinal()
    if dev is None:
        raise ValueError("input: not device memory")
    return dev


def transpose(x: Any, out: Any = None, *, ctx: Optional[Context] = None,
              stream: Any = None) -> Any:
    """The transpose of a matrix (rows, cols), or of each of a batch
    (batch, rows, cols), into a new contiguous array of x's library (or
    ``out``). Rows and matrices of x may be padded (its strides become
    ld_in and stride_in); its last dimension must be contiguous."""
    a = arrays.describe(x, "input")
    if not a.ndim_ok(2, 3):
        raise ValueError(f"input: shape {a.shape}: a matrix or a batch of "
                         f"them (2 or 3 dimensions)")
    b, (r, c) = (a.shape[0] if len(a.shape) == 3 else 1), a.shape[-2:]
    if c > 1 and a.strides[-1] != 1:
        raise ValueError(f"input: strides {a.strides}: its last dimension "
                         f"must be contiguous (stride 1)")
    fields = {"rows": r, "cols": c, "batch": b,
              "ld_in": a.strides[-2] if r > 1 else c}
    if b > 1:
        fields["stride_in"] = a.strides[0]
    ctx = ctx or default_context(_device_of(a))
    shape = (b, c, r) if len(a.shape) == 3 else (c, r)
    if out is None:
        out = arrays.empty_like_lib(x, shape, a.dtype)
    _kernel(ctx, "transpose", a.dtype, fields)(x, out, stream=stream)
    return out


_AXES = {None: "all", 1: "cols", -1: "cols", 0: "rows", -2: "rows"}


def reduce(x: Any, op: str = "sum", axis: Optional[int] = None,
           out: Any = None, *, deterministic: bool = False,
           ctx: Optional[Context] = None, stream: Any = None) -> Any:
    """``op`` ("sum", "min", "max", "sumsq", "amax") over the whole of a
    contiguous x (axis None: an array of one element), or along an axis of
    a matrix (axis 1: one result per row; axis 0: one per column; rows may
    be padded). The result's type: float32 for float16, bfloat16 and
    float32, float64 for float64, int64 for int32."""
    a = arrays.describe(x, "input")
    if axis not in _AXES:
        raise ValueError(f"axis {axis!r}: None, 0 or 1 (-1, -2)")
    fields: Dict[str, Any] = {"op": op, "axis": _AXES[axis],
                              "deterministic": bool(deterministic)}
    if axis is None:
        if not a.contiguous():
            raise ValueError(f"input: strides {a.strides}: axis None takes "
                             f"a contiguous array")
        fields["n"] = a.size
        shape: Tuple[int, ...] = (1,)
    else:
        if len(a.shape) != 2 or (a.shape[1] > 1 and a.strides[1] != 1):
            raise ValueError(f"input: shape {a.shape}, strides {a.strides}: "
                             f"an axis takes a matrix with contiguous rows")
        r, c = a.shape
        fields.update(rows=r, cols=c, ld=a.strides[0] if r > 1 else c)
        shape = (r,) if fields["axis"] == "cols" else (c,)
    acc = shapes.ACC.get(a.dtype)
    if acc is None:
        raise ValueError(f"input: dtype {a.dtype}: reduce takes f16, bf16, "
                         f"f32, f64 and i32")
    ctx = ctx or default_context(_device_of(a))
    if out is None:
        out = arrays.empty_like_lib(x, shape, acc)
    _kernel(ctx, "reduce", a.dtype, fields)(x, out, stream=stream)
    return out
