"""The C library, loaded with ctypes on first use (never at import).

Where it comes from, first found wins: $AUTOTUNE_LIBRARY (a path to
libautotune.so), the copy bundled in this package (_native/, put there
when the package was built), then the system's (``make install``). The
GPU worker the library starts for a tune is the ``autotune`` binary
bundled beside it, unless $AUTOTUNE_WORKER names another.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import threading
from pathlib import Path
from typing import Optional

_HERE = Path(__file__).resolve().parent / "_native"
_lock = threading.Lock()
_lib: Optional[ctypes.CDLL] = None

c_void_p = ctypes.c_void_p
c_char_p = ctypes.c_char_p
c_int = ctypes.c_int


class Options(ctypes.Structure):
    """autotune_options."""

    _fields_ = [("device", c_int), ("cache_path", c_char_p),
                ("verbose", c_int), ("effort", c_int)]


class Figures(ctypes.Structure):
    """autotune_figures."""

    _fields_ = [("median_ms", ctypes.c_double), ("gbps", ctypes.c_double),
                ("copy_gbps", ctypes.c_double),
                ("frac_copy", ctypes.c_double), ("registers", c_int),
                ("shared_bytes", c_int), ("local_bytes", c_int),
                ("from_cache", c_int), ("how", c_int), ("effort", c_int),
                ("from_", ctypes.c_char * 512)]


# name: (restype, argtypes)
_PROTOTYPES = {
    "autotune_version": (c_char_p, []),
    "autotune_strerror": (c_char_p, [c_int]),
    "autotune_create": (c_int, [ctypes.POINTER(c_void_p),
                                ctypes.POINTER(Options)]),
    "autotune_destroy": (None, [c_void_p]),
    "autotune_last_error": (c_char_p, [c_void_p]),
    "autotune_problem_create": (c_int, [c_void_p, c_char_p, c_char_p,
                                        ctypes.POINTER(c_void_p)]),
    "autotune_problem_set": (c_int, [c_void_p, c_char_p, c_char_p]),
    "autotune_problem_field": (c_char_p, [c_void_p, c_int, c_char_p,
                                          ctypes.c_size_t]),
    "autotune_problem_destroy": (None, [c_void_p]),
    "autotune_get_with": (c_int, [c_void_p, c_void_p, c_int,
                                  ctypes.POINTER(c_void_p)]),
    "autotune_kernel_refresh": (c_int, [c_void_p]),
    "autotune_wait": (c_int, [c_void_p]),
    "autotune_launch": (c_int, [c_void_p, ctypes.POINTER(c_void_p), c_int,
                                c_void_p]),
    "autotune_launch_ws": (c_int, [c_void_p, ctypes.POINTER(c_void_p), c_int,
                                   c_void_p, c_void_p]),
    "autotune_kernel_arg_count": (c_int, [c_void_p]),
    "autotune_kernel_workspace_bytes": (ctypes.c_size_t, [c_void_p]),
    "autotune_family_load": (c_int, [c_void_p, c_char_p,
                                     ctypes.POINTER(c_char_p)]),
    "autotune_kernel_point": (c_char_p, [c_void_p]),
    "autotune_kernel_figures": (c_int, [c_void_p, ctypes.POINTER(Figures)]),
    "autotune_kernel_destroy": (None, [c_void_p]),
}


def bundled(name: str) -> Optional[Path]:
    """A file bundled in the package's _native/ folder, if there."""
    p = _HERE / name
    return p if p.exists() else None


def cli_path() -> str:
    """The autotune command: $AUTOTUNE_CLI, the bundled one, else PATH's."""
    for p in (os.environ.get("AUTOTUNE_CLI"), bundled("autotune"),
              shutil.which("autotune")):
        if p:
            return str(p)
    from .errors import error
    raise error(-12, "the autotune command was not found: set "
                "AUTOTUNE_CLI, or install the package built from the "
                "repository (pip install ./python)")


def _candidates() -> list:
    out = []
    if os.environ.get("AUTOTUNE_LIBRARY"):
        out.append(os.environ["AUTOTUNE_LIBRARY"])
    so = sorted(_HERE.glob("libautotune.so*")) if _HERE.exists() else []
    out += [str(p) for p in so]
    out.append("libautotune.so.1")
    found = ctypes.util.find_library("autotune")
    return out + ([found] if found else [])


def lib() -> ctypes.CDLL:
    """The loaded library, its prototypes declared (loaded once)."""
    global _lib
    with _lock:
        if _lib is not None:
            return _lib
        tried = []
        for path in _candidates():
            try:
                handle = ctypes.CDLL(path)
                break
            except OSError as exc:
                tried.append(f"{path}: {exc}")
        else:
            from .errors import error
            raise error(-12, "libautotune.so was not found "
                        "(tried " + "; ".join(tried or ["nothing"]) +
                        "): set AUTOTUNE_LIBRARY or pip install ./python")
        for name, (res, args) in _PROTOTYPES.items():
            fn = getattr(handle, name)
            fn.restype, fn.argtypes = res, args
        worker = bundled("autotune")
        if worker and "AUTOTUNE_WORKER" not in os.environ:
            os.environ["AUTOTUNE_WORKER"] = str(worker)
        _lib = handle
        return _lib
