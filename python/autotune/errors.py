"""The library's errors as exceptions, each carrying its code."""
from __future__ import annotations

# The codes of include/autotune.h's AUTOTUNE_ERRORS, by value.
NAMES = {
    0: "OK", -1: "INVALID", -2: "NOMEM", -3: "NO_DRIVER", -4: "NO_DEVICE",
    -5: "CUDA", -6: "NO_NVRTC", -7: "NVRTC", -8: "COMPILE", -9: "WRONG",
    -10: "SQLITE", -11: "IO", -12: "NOT_FOUND", -13: "NO_VARIANT",
    -14: "RANGE", -15: "FAULT", -16: "LAUNCH", -17: "STORE",
}


class Error(Exception):
    """A failed call of the library: ``code`` (negative, as in C),
    ``name`` (``"NOT_FOUND"``) and the library's message, which names the
    call, the CUDA/NVRTC/SQLite code and the variant."""

    def __init__(self, code: int, name: str, message: str):
        super().__init__(f"{message} (AUTOTUNE_E{name})")
        self.code = code
        self.name = name
        self.message = message


class InvalidError(Error, ValueError):
    """AUTOTUNE_EINVALID: an argument the library refused."""


class RangeError(Error, ValueError):
    """AUTOTUNE_ERANGE: a size out of its range."""


class NotFoundError(Error, LookupError):
    """AUTOTUNE_ENOT_FOUND: no such family, type, field or entry."""


class NoDeviceError(Error, RuntimeError):
    """AUTOTUNE_ENO_DRIVER / ENO_DEVICE: no CUDA driver or GPU here."""


_CLASSES = {-1: InvalidError, -14: RangeError, -12: NotFoundError,
            -3: NoDeviceError, -4: NoDeviceError}


def error(code: int, message: str) -> Error:
    """The exception for a code and its message."""
    cls = _CLASSES.get(code, Error)
    return cls(code, NAMES.get(code, str(code)), message)
