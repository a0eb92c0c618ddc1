"""What each argument of a launch must be, checked before the launch:
a transpose's and a reduction's arrays from the problem's fields, a
spec's from its arguments (types and counts, where the spec can be read
here). A wrong one is a ValueError naming the argument and what it
should be; the launch never sees it."""
from __future__ import annotations

import ast
import json
import operator
from typing import Any, Dict, List, Optional, Tuple

from . import arrays

_SPECS: Dict[str, str] = {}  # a loaded spec's family -> its path
# A spec's arguments as its file lists them, read once a load (parsing
# YAML each launch cost a millisecond a call).
_ARGS: Dict[str, Optional[list]] = {}
# A reduction's result type, by input type (i32: 64-bit for every op).
ACC = {"f16": "f32", "bf16": "f32", "f32": "f32", "f64": "f64", "i32": "i64"}


def remember_spec(family: str, path: str) -> None:
    _SPECS[family] = path
    _ARGS.pop(family, None)  # read again at the next launch


def spec_path(family: str) -> Optional[str]:
    """The spec file a family was loaded from (None: not a loaded spec's)."""
    return _SPECS.get(family)


def _ints(fields: Dict[str, str]) -> Dict[str, int]:
    out = {}
    for k, v in fields.items():
        try:
            out[k] = int(v)
        except ValueError:
            pass
    return out


def transpose_layout(f: Dict[str, int]) -> Dict[str, int]:
    """A transpose's fields, the derived ones ("0" until set) filled."""
    g = dict(f)
    g["ld_in"] = g.get("ld_in") or g["cols"]
    g["ld_out"] = g.get("ld_out") or g["rows"]
    g["stride_in"] = g.get("stride_in") or g["rows"] * g["ld_in"]
    g["stride_out"] = g.get("stride_out") or g["cols"] * g["ld_out"]
    return g


def _check(a: arrays.DeviceArray, what: str, dtype: str,
           shape: Tuple[int, ...], strides: Tuple[int, ...]) -> None:
    """a has dtype and, dimensions of 1 aside, this shape and strides."""
    if a.dtype != dtype:
        raise ValueError(f"{what}: dtype {a.dtype}, the kernel's is {dtype}")
    have = [(d, s) for d, s in zip(a.shape, a.strides) if d != 1]
    want = [(d, s) for d, s in zip(shape, strides) if d != 1]
    if [d for d, _ in have] != [d for d, _ in want]:
        raise ValueError(f"{what}: shape {a.shape}, the kernel's is {shape}")
    if [s for _, s in have] != [s for _, s in want]:
        raise ValueError(f"{what}: strides {a.strides} (elements), the "
                         f"kernel's are {strides}: make it contiguous or "
                         f"ask for a kernel of its layout (ld_in, ...)")


def _vector(a: arrays.DeviceArray, dtype: str) -> arrays.DeviceArray:
    """An f32 array whose last dimension is 4 contiguous lanes, read as
    f32x4 elements."""
    if dtype == "f32x4" and a.dtype == "f32" and a.shape and \
            a.shape[-1] == 4 and a.strides[-1] == 1:
        return arrays.DeviceArray(a.ptr, a.shape[:-1],
                                  tuple(s // 4 for s in a.strides[:-1]),
                                  "f32x4", a.device, a.owner)
    return a


def _transpose(k: Any, a: List[arrays.DeviceArray]) -> None:
    f = transpose_layout(_ints(k.fields))
    b, r, c = f["batch"], f["rows"], f["cols"]
    x, y = (_vector(v, k.dtype) for v in a)
    _check(x, "input", k.dtype, (b, r, c), (f["stride_in"], f["ld_in"], 1))
    _check(y, "output", k.dtype, (b, c, r),
           (f["stride_out"], f["ld_out"], 1))


def _reduce(k: Any, a: List[arrays.DeviceArray]) -> None:
    f, x, y = _ints(k.fields), a[0], a[1]
    acc, axis = ACC[k.dtype], k.fields.get("axis", "all")
    if x.dtype != k.dtype:
        raise ValueError(f"input: dtype {x.dtype}, the kernel's is {k.dtype}")
    if axis == "all":
        if not x.contiguous() or x.size != f["n"]:
            raise ValueError(f"input: {x.size} elements, shape {x.shape}, "
                             f"the kernel's are {f['n']} contiguous ones")
        n_out = 1
    else:
        ld = f.get("ld") or f["cols"]
        _check(x, "input", k.dtype, (f["rows"], f["cols"]), (ld, 1))
        n_out = f["rows"] if axis == "cols" else f["cols"]
    if not y.contiguous() or y.size != n_out:
        raise ValueError(f"output: shape {y.shape}, the kernel's is "
                         f"({n_out},) contiguous")
    if y.dtype != acc:
        raise ValueError(f"output: dtype {y.dtype}, the kernel's is {acc} "
                         f"(the reduction's result type)")


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.floordiv, ast.FloorDiv: operator.floordiv,
        ast.Mod: operator.mod}


def _eval(expr: Any, names: Dict[str, int]) -> Optional[int]:
    """A spec's count: a number, or +-*/% of numbers and fields (integer
    division, as the spec's); None where it names anything else."""
    def ev(n: ast.AST) -> int:
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.Name) and n.id in names:
            return names[n.id]
        if isinstance(n, ast.BinOp) and type(n.op) in _OPS:
            return _OPS[type(n.op)](ev(n.left), ev(n.right))
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        raise KeyError
    try:
        return ev(ast.parse(str(expr), mode="eval").body)
    except (KeyError, SyntaxError, ZeroDivisionError, ValueError):
        return None


def _spec_args(family: str) -> Optional[list]:
    if family not in _ARGS:
        _ARGS[family] = _read_spec_args(family)
    return _ARGS[family]


def _read_spec_args(family: str) -> Optional[list]:
    path = spec_path(family)
    if not path:
        return None
    try:
        text = open(path, encoding="utf-8").read()
        if text.lstrip().startswith("{"):
            doc = json.loads(text)
        else:
            import yaml  # type: ignore  # optional: without it, none checked
            doc = yaml.safe_load(text)
        args = doc.get("arguments")
        return args if isinstance(args, list) else None
    except Exception:
        return None


def _host_pointer(obj: Any, what: str) -> Tuple[int, Any]:
    """A host buffer (NumPy, bytes, array.array) for a __constant__ one."""
    import ctypes
    try:
        mv = memoryview(obj)
    except TypeError:
        raise ValueError(f"{what}: a __constant__ argument takes host data "
                         f"(NumPy, bytes), not a {type(obj).__name__}")
    if not mv.c_contiguous:
        raise ValueError(f"{what}: host data must be contiguous")
    buf = (ctypes.c_char * mv.nbytes).from_buffer_copy(mv)
    return ctypes.addressof(buf), (buf, mv.nbytes)


def _spec_plan(k: Any, n: int) -> list:
    """Each argument's name for messages, its description from the spec
    (empty where the spec cannot be read here) and its count over the
    kernel's fields: worked out at a kernel's first launch, kept on it."""
    desc = _spec_args(k.family)
    if desc is not None and len(desc) != n:
        desc = None
    names = _ints(k.fields)
    plan = []
    for i in range(n):
        d = desc[i] if desc else {}
        what = f"argument {i + 1} ({d.get('name', '?')})" if d else \
            f"argument {i + 1}"
        count = _eval(d.get("count"), names) if d else None
        plan.append((what, d, count))
    return plan


def _spec(k: Any, args: tuple) -> Tuple[List[Optional[int]], list]:
    if k._plan is None:
        k._plan = _spec_plan(k, len(args))
    ptrs: List[Optional[int]] = []
    keep: list = []
    for obj, (what, d, count) in zip(args, k._plan):
        if obj is None:
            if d and "value" not in d:
                raise ValueError(f"{what}: a buffer, not None (None is for "
                                 f"a scalar, which the spec computes)")
            ptrs.append(None)
            continue
        if d and "value" in d:
            raise ValueError(f"{what}: a scalar the spec computes: pass None")
        if d.get("constant"):
            p, buf = _host_pointer(obj, what)
            nbytes = buf[1]
            size = arrays.SIZES.get(str(d.get("type")), 0)
            if count is not None and size and nbytes < count * size:
                raise ValueError(f"{what}: {nbytes} bytes of host data, the "
                                 f"kernel's __constant__ needs {count * size}")
            ptrs.append(p)
            keep.append(buf)
            continue
        a = arrays.describe(obj, what)
        _device(k, a, what)
        if not a.contiguous():
            raise ValueError(f"{what}: not contiguous (strides {a.strides})")
        t = str(d.get("type", ""))
        v = _vector(a, t)
        if t and t in arrays.SIZES and v.dtype != t:
            raise ValueError(f"{what}: dtype {a.dtype}, the kernel's is {t}")
        if count is not None and v.size < count:
            raise ValueError(f"{what}: {a.size} elements, the kernel's "
                             f"count is {count}")
        ptrs.append(a.ptr)
        keep.append(a)
    return ptrs, keep


def _device(k: Any, a: arrays.DeviceArray, what: str) -> None:
    dev = a.ordinal()
    if dev is None:
        raise ValueError(f"{what}: not device memory (the driver does not "
                         f"know its pointer)")
    if dev != k._ctx.device:
        raise ValueError(f"{what}: on device {dev}, the kernel's context is "
                         f"on device {k._ctx.device}")


def check_args(k: Any, args: tuple) -> Tuple[List[Optional[int]], list]:
    """The launch's pointers, each argument checked; and what must stay
    alive until the launch is queued."""
    if k.family not in ("transpose", "reduce"):
        return _spec(k, args)
    a = [arrays.describe(obj, name)
         for obj, name in zip(args, ("input", "output"))]
    for v, name in zip(a, ("input", "output")):
        _device(k, v, name)
    (_transpose if k.family == "transpose" else _reduce)(k, a)
    return [v.ptr for v in a], a
