"""Contexts, problems and tuned kernels over the C API (include/autotune.h)."""
from __future__ import annotations

import ctypes
import weakref
from dataclasses import dataclass
from typing import Any, Dict, Optional, Sequence

from . import _native, arrays, shapes
from .errors import error

EFFORTS = {"default": 0, "estimate": 1, "measure": 2, "exhaustive": 3,
           "wisdom_only": 4}
_HOWS = {0: "tuned", 1: "cached", 2: "default", 3: "reused"}
_BACKGROUND = 0x100


def _effort(effort: Optional[str]) -> int:
    if effort is None:
        return 0
    key = str(effort).lower().replace("-", "_")
    if key not in EFFORTS:
        raise ValueError(f"effort {effort!r}: one of {', '.join(EFFORTS)}")
    return EFFORTS[key]


def _text(b: Optional[bytes]) -> str:
    return b.decode("utf-8", "replace") if b else ""


def _fail(rc: int, handle: Optional[ctypes.c_void_p]) -> None:
    if rc:
        raise error(rc, _text(_native.lib().autotune_last_error(handle)))


def _value_text(name: str, value: Any) -> bytes:
    if isinstance(value, bool):
        return b"yes" if value else b"no"
    if isinstance(value, (int, float, str)):
        return str(value).encode()
    raise TypeError(f"field {name}: a {type(value).__name__}, not a number "
                    f"or a choice's name")


def version() -> str:
    """The C library's version, as loaded ("1.0.0")."""
    return _text(_native.lib().autotune_version())


class _Problem:
    """A problem handle: created, its fields set, read back, destroyed."""

    def __init__(self, ctx: Optional[ctypes.c_void_p], family: str,
                 dtype: Any, fields: Dict[str, Any]):
        L = _native.lib()
        self.family = family
        self.dtype = (arrays.type_name(dtype, strict=False)
                      if dtype is not None else None)
        self.h = ctypes.c_void_p()
        _fail(L.autotune_problem_create(
            ctx, family.encode(), self.dtype.encode() if self.dtype else None,
            ctypes.byref(self.h)), ctx)
        try:
            for name, value in fields.items():
                if value is None:
                    continue
                rc = L.autotune_problem_set(self.h, name.encode(),
                                            _value_text(name, value))
                _fail(rc, ctx)
            self.fields = self._read()
        except BaseException:
            self.close()
            raise

    def _read(self) -> Dict[str, str]:
        L, out, buf = _native.lib(), {}, ctypes.create_string_buffer(512)
        for i in range(64):
            name = L.autotune_problem_field(self.h, i, buf, len(buf))
            if not name:
                break
            out[_text(name)] = _text(buf.value)
        return out

    def close(self) -> None:
        if self.h:
            _native.lib().autotune_problem_destroy(self.h)
            self.h = ctypes.c_void_p()


def problem(family: str, dtype: Any = None, **fields: Any) -> Dict[str, Any]:
    """A problem checked without a GPU: every field of the family, the
    ones given set (a wrong name, value or range raises the library's
    error), as a dict of text ("8192", "max"; a field derived from others
    reads "0" until a kernel is asked for)."""
    p = _Problem(None, family, dtype, fields)
    try:
        return dict(p.fields)
    finally:
        p.close()


def load_spec(path: str) -> str:
    """Loads a spec file (docs/SPEC.md) as a family for this process and
    returns its name; needs no GPU. A bad spec raises the library's error,
    naming its file and line."""
    name = ctypes.c_char_p()
    rc = _native.lib().autotune_family_load(None, str(path).encode(),
                                            ctypes.byref(name))
    _fail(rc, None)
    fam = _text(name.value)
    shapes.remember_spec(fam, str(path))
    return fam


@dataclass
class Figures:
    """How a kernel was obtained and how fast it ran (autotune_figures)."""

    median_ms: float
    gbps: float
    copy_gbps: float
    frac_copy: float
    registers: int
    shared_bytes: int
    local_bytes: int
    from_cache: bool
    how: str          # "tuned", "cached", "default" or "reused"
    effort: str       # of the search that found it ("" if none)
    from_problem: str  # "reused": the tuned problem whose point this is


class Context:
    """A CUDA device (its primary context, so CuPy's, PyTorch's and
    Numba's pointers work) and a tuning cache.

    ``effort`` is how hard :meth:`get` works on a cache miss: "estimate"
    (no search), "measure" (a budgeted search), "exhaustive" (default) or
    "wisdom_only" (the cache's entry or ``NotFoundError``). ``cache`` is
    the cache file (default: $AUTOTUNE_CACHE, else the XDG default)."""

    def __init__(self, device: int = 0, cache: Optional[str] = None,
                 effort: str = "exhaustive", verbose: bool = False):
        L = _native.lib()
        opts = _native.Options(int(device),
                               str(cache).encode() if cache else None,
                               int(bool(verbose)), _effort(effort))
        h = ctypes.c_void_p()
        rc = L.autotune_create(ctypes.byref(h), ctypes.byref(opts))
        _fail(rc, None)
        self._h: Optional[ctypes.c_void_p] = h
        self.device = int(device)
        # The kernels alive: closed with the context (a kernel dropped
        # before is destroyed then, its module unloaded).
        self._kernels: "weakref.WeakSet[Kernel]" = weakref.WeakSet()

    def close(self) -> None:
        """Frees the context and its kernels' handles (their kernels can
        no longer be launched)."""
        if getattr(self, "_h", None):
            for k in list(self._kernels):
                k._close()
            _native.lib().autotune_destroy(self._h)
            self._h = None

    def __enter__(self) -> "Context":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def _handle(self) -> ctypes.c_void_p:
        if not self._h:
            raise ValueError("this Context is closed")
        return self._h

    def get(self, family: str, dtype: Any = None, *,
            effort: Optional[str] = None, background: bool = False,
            **fields: Any) -> "Kernel":
        """The tuned kernel for a problem: a family ("transpose", "reduce"
        or a loaded spec's), an element type (NumPy's or our name; none
        for a spec's) and the family's fields by keyword. Tunes on a cache
        miss, loads the cubin on a hit. ``background=True`` answers at
        once (as "estimate") and tunes in a thread: :meth:`Kernel.refresh`
        swaps the tuned kernel in."""
        h = self._handle()
        p = _Problem(h, family, dtype, fields)
        try:
            k = ctypes.c_void_p()
            eff = _effort(effort) | (_BACKGROUND if background else 0)
            _fail(_native.lib().autotune_get_with(h, p.h, eff,
                                                  ctypes.byref(k)), h)
            kern = Kernel(self, k, family, p.dtype, p.fields)
        finally:
            p.close()
        self._kernels.add(kern)
        return kern

    def load_spec(self, path: str) -> str:
        """:func:`load_spec` (a spec's family is the process's)."""
        return load_spec(path)

    def wait(self) -> None:
        """Waits for this context's background tunes."""
        _fail(_native.lib().autotune_wait(self._handle()), self._h)


class Kernel:
    """A tuned kernel, callable on device arrays: ``k(x, out)`` for a
    transpose or a reduction, a spec's kernel with its arguments in order
    (a device array for a buffer, a host buffer (NumPy) for a
    ``__constant__`` one, None for a scalar). Shapes, dtypes, strides and
    devices are checked before the launch (a wrong one raises ValueError
    naming it); it runs on ``stream`` or the arrays' library's current
    stream."""

    def __init__(self, ctx: Context, h: ctypes.c_void_p, family: str,
                 dtype: Optional[str], fields: Dict[str, str]):
        self._ctx = ctx
        self._h: Optional[ctypes.c_void_p] = h
        self.family, self.dtype = family, dtype
        self.fields = dict(fields)
        # Asked once: a launch should cost little more than the driver's.
        self._n = _native.lib().autotune_kernel_arg_count(h)
        self._plan: Optional[list] = None  # shapes.py's, at the first call
        self._argv = ctypes.c_void_p * self._n

    def _close(self) -> None:
        if self._h:
            _native.lib().autotune_kernel_destroy(self._h)
            self._h = None

    def close(self) -> None:
        """Frees the kernel now (also done when it is dropped, or when its
        context closes)."""
        self._close()

    def __del__(self) -> None:
        try:
            self._close()
        except Exception:
            pass

    def _handle(self) -> ctypes.c_void_p:
        if not self._h:
            raise ValueError("this Kernel's Context is closed")
        return self._h

    @property
    def point(self) -> str:
        """The variant's name (its point in the space)."""
        return _text(_native.lib().autotune_kernel_point(self._handle()))

    @property
    def arg_count(self) -> int:
        """How many arguments a launch takes."""
        self._handle()  # a closed kernel says so
        return self._n

    @property
    def figures(self) -> Figures:
        """Time, bandwidth, resources and how the kernel was obtained."""
        f = _native.Figures()
        rc = _native.lib().autotune_kernel_figures(self._handle(),
                                                   ctypes.byref(f))
        _fail(rc, self._ctx._h)
        effort = {v: k for k, v in EFFORTS.items()}.get(f.effort, "")
        return Figures(f.median_ms, f.gbps, f.copy_gbps, f.frac_copy,
                       f.registers, f.shared_bytes, f.local_bytes,
                       bool(f.from_cache), _HOWS.get(f.how, str(f.how)),
                       "" if effort == "default" else effort,
                       _text(f.from_))

    def refresh(self) -> bool:
        """True when a background tune's kernel has replaced this one
        (call it between launches, from the launching thread)."""
        rc = _native.lib().autotune_kernel_refresh(self._handle())
        if rc < 0:
            _fail(rc, self._ctx._h)
        return rc == 1

    def __call__(self, *args: Any, stream: Any = None) -> None:
        n = self._n
        if len(args) != n:
            given = f"{len(args)} argument" + ("" if len(args) == 1 else "s")
            raise ValueError(f"{self.family}: {given} given, the kernel "
                             f"takes {n}")
        ptrs, keep = shapes.check_args(self, args)
        handle = arrays.stream_of([a for a in args if a is not None], stream)
        argv = self._argv(*ptrs)
        rc = _native.lib().autotune_launch(self._handle(), argv, n,
                                           ctypes.c_void_p(handle))
        del keep
        _fail(rc, self._ctx._h)

    def launch(self, *ptrs: Optional[int], stream: int = 0) -> None:
        """The launch without the checks, for a hot loop whose arrays were
        checked once by a call: each argument as the C API takes it (a
        device pointer as an int, a host pointer for a ``__constant__``
        one, None for a scalar), ``stream`` an int handle. Nothing checks
        them: a wrong pointer is a bad launch, as in C."""
        if len(ptrs) != self._n:
            raise ValueError(f"{self.family}: {len(ptrs)} pointers given, "
                             f"the kernel takes {self._n}")
        rc = _native.lib().autotune_launch(self._handle(), self._argv(*ptrs),
                                           self._n, ctypes.c_void_p(stream))
        _fail(rc, self._ctx._h)

    def __repr__(self) -> str:
        shown = " ".join(f"{k}={v}" for k, v in self.fields.items())
        return f"<autotune.Kernel {self.family} {self.dtype or ''} {shown}: " \
               f"{self.point if self._h else 'closed'}>"
