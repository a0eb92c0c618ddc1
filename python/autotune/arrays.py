"""Device arrays of any library, read through ``__cuda_array_interface__``
(CuPy, PyTorch, Numba) or DLPack (JAX and the rest): pointer, shape,
strides in elements, dtype and device, checked before a launch, and the
caller's stream. Nothing here imports CuPy or PyTorch: an array's own
module is asked only for what it has."""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any, Optional, Tuple

# Our type names, NumPy's typestr (CAI) and DLPack's (code, bits, lanes).
TYPES = {
    "i8": ("|i1", (0, 8, 1)), "u8": ("|u1", (1, 8, 1)),
    "f16": ("<f2", (2, 16, 1)), "bf16": ("<V2", (4, 16, 1)),
    "f32": ("<f4", (2, 32, 1)), "f64": ("<f8", (2, 64, 1)),
    "c64": ("<c8", (5, 64, 1)), "c128": ("<c16", (5, 128, 1)),
    "i32": ("<i4", (0, 32, 1)), "i64": ("<i8", (0, 64, 1)),
    "f32x4": (None, (2, 32, 4)),
}
SIZES = {"i8": 1, "u8": 1, "f16": 2, "bf16": 2, "f32": 4, "f64": 8,
         "c64": 8, "c128": 16, "i32": 4, "i64": 8, "f32x4": 16}
# What a user may call a type (NumPy's and PyTorch's names).
ALIASES = {"int8": "i8", "uint8": "u8", "float16": "f16", "half": "f16",
           "bfloat16": "bf16", "float32": "f32", "float": "f32",
           "float64": "f64", "double": "f64", "complex64": "c64",
           "complex128": "c128", "int32": "i32", "int64": "i64"}


def type_name(dtype: Any, strict: bool = True) -> str:
    """Our name for a dtype given as ours ("f32"), NumPy's or PyTorch's
    name, a NumPy dtype or a torch.dtype; an unknown name as it is where
    not strict (the library then says which types the family takes)."""
    text = str(dtype).replace("torch.", "")
    if text in SIZES:
        return text
    if text in ALIASES:
        return ALIASES[text]
    if not strict and isinstance(dtype, str):
        return dtype
    raise ValueError(f"dtype {dtype!r}: not one autotune takes (one of "
                     f"{', '.join(SIZES)}, or NumPy's names)")


@dataclass
class DeviceArray:
    """What a launch needs of an array, strides in elements."""

    ptr: int
    shape: Tuple[int, ...]
    strides: Tuple[int, ...]
    dtype: str
    device: Optional[int]
    owner: Any  # keeps a DLPack capsule (and so the data) alive

    @property
    def size(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    def ordinal(self) -> Optional[int]:
        """The device the memory is on: as the array says, else as the
        driver knows its pointer; None for memory no device holds."""
        return self.device if self.device is not None \
            else pointer_device(self.ptr)

    def ndim_ok(self, *ndims: int) -> bool:
        return len(self.shape) in ndims

    def contiguous(self) -> bool:
        expect = 1
        for dim, st in zip(reversed(self.shape), reversed(self.strides)):
            if dim != 1 and st != expect:
                return False
            expect *= dim
        return True


def _dense(shape: Tuple[int, ...]) -> Tuple[int, ...]:
    """A C-contiguous array's strides, in elements."""
    out, acc = [], 1
    for d in reversed(shape):
        out.append(acc)
        acc *= d
    return tuple(reversed(out))


# A typestr's type, byte order marks aside (looked up at every launch).
_BY_TYPESTR = {t.lstrip("<|"): name for name, (t, _) in TYPES.items() if t}
_BY_TYPESTR["V2"] = "bf16"


def _from_typestr(ts: str) -> str:
    name = _BY_TYPESTR.get(ts.lstrip("<|="))
    if name is not None:
        return name
    raise ValueError(f"an array of typestr {ts!r}: not a type autotune "
                     f"takes")


def _cai(obj: Any, cai: dict, what: str) -> DeviceArray:
    ptr = int(cai["data"][0] or 0)
    shape = tuple(int(s) for s in cai["shape"])
    ts = cai["typestr"]
    # PyTorch's bfloat16 tensors say <V2 (or refuse the interface).
    dtype = "bf16" if "bfloat16" in str(getattr(obj, "dtype", "")) else \
        _from_typestr(ts)
    size = SIZES[dtype]
    if cai.get("strides") is None:
        strides = _dense(shape)
    else:
        bs = cai["strides"]
        if any(b % size for b in bs):
            raise ValueError(f"{what}: strides {tuple(bs)} bytes are not "
                             f"whole elements of {size} bytes")
        strides = tuple(int(b) // size for b in bs)
    return DeviceArray(ptr, shape, strides, dtype, None, obj)


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


_DL_CUDA, _DL_CUDA_MANAGED = 2, 13


def _dlpack(obj: Any, what: str) -> DeviceArray:
    capsule = obj.__dlpack__()
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object,
                                                  ctypes.c_char_p]
    t = _DLTensor.from_address(get(capsule, b"dltensor"))
    if t.device.device_type not in (_DL_CUDA, _DL_CUDA_MANAGED):
        raise ValueError(f"{what}: DLPack device type "
                         f"{t.device.device_type}, not CUDA memory")
    code = (t.dtype.code, t.dtype.bits, t.dtype.lanes)
    dtype = next((n for n, (_, c) in TYPES.items() if c == code), None)
    if dtype is None:
        raise ValueError(f"{what}: DLPack dtype {code}: not a type autotune "
                         f"takes")
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = tuple(t.strides[i] for i in range(t.ndim)) if t.strides \
        else _dense(shape)
    ptr = (t.data or 0) + t.byte_offset
    return DeviceArray(ptr, shape, strides, dtype, t.device.device_id,
                       (obj, capsule))


def describe(obj: Any, what: str) -> DeviceArray:
    """The array's pointer, shape, strides, dtype (and, where it says so,
    device); a ValueError naming ``what`` if it is no device array."""
    try:  # asked once: CuPy builds the interface's dict at every ask
        cai = getattr(obj, "__cuda_array_interface__", None)
    except (AttributeError, RuntimeError, TypeError):
        cai = None  # PyTorch refuses the interface for some dtypes
    if cai is not None:
        try:
            a: Optional[DeviceArray] = _cai(obj, cai, what)
        except (AttributeError, RuntimeError, TypeError):
            a = None
        if a is not None:
            a.device = _device_of_obj(obj)
            return a
    if hasattr(obj, "__dlpack__"):
        return _dlpack(obj, what)
    raise ValueError(f"{what}: a {type(obj).__name__} is not a device array "
                     f"(one with __cuda_array_interface__ or __dlpack__: "
                     f"CuPy, PyTorch, Numba, JAX)")


def _device_of_obj(obj: Any) -> Optional[int]:
    dev = getattr(obj, "device", None)
    for attr in ("id", "index"):  # CuPy's Device.id, torch.device.index
        v = getattr(dev, attr, None)
        if isinstance(v, int):
            return v
    return None


_cuda = None


def pointer_device(ptr: int) -> Optional[int]:
    """The device ordinal a pointer's memory is on (the driver's
    cuPointerGetAttribute), or None where the driver does not know it as
    device memory (host memory, or a pointer of no allocation)."""
    global _cuda
    if ptr == 0:
        return None
    if _cuda is None:
        _cuda = ctypes.CDLL("libcuda.so.1")
        _cuda.cuPointerGetAttribute.argtypes = [ctypes.c_void_p, ctypes.c_int,
                                                ctypes.c_uint64]
    ordinal, mtype = ctypes.c_int(-1), ctypes.c_uint(0)
    # CU_POINTER_ATTRIBUTE_MEMORY_TYPE (2): CU_MEMORYTYPE_DEVICE (2) or
    # managed; CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL (9).
    if _cuda.cuPointerGetAttribute(ctypes.byref(mtype), 2, ptr) != 0:
        return None
    if mtype.value not in (2, 4):
        return None
    if _cuda.cuPointerGetAttribute(ctypes.byref(ordinal), 9, ptr) != 0:
        return None
    return ordinal.value


def stream_of(arrays: list, stream: Any) -> int:
    """The stream handle to launch on: the one given (an int, CuPy's
    Stream, torch.cuda.Stream, Numba's stream), else the current stream of
    the first array's library (CuPy's, PyTorch's), else 0 (the default
    stream)."""
    if stream is not None:
        return _handle(stream)
    for a in arrays:
        mod = type(a).__module__.split(".")[0]
        if mod == "cupy":
            import cupy
            return int(cupy.cuda.get_current_stream().ptr)
        if mod == "torch":
            import torch
            return int(torch.cuda.current_stream(a.device).cuda_stream)
    return 0


def _handle(stream: Any) -> int:
    if isinstance(stream, int):
        return stream
    for attr in ("ptr", "cuda_stream"):
        v = getattr(stream, attr, None)
        if isinstance(v, int):
            return v
    h = getattr(stream, "handle", None)  # Numba: a ctypes c_void_p
    if h is not None:
        return int(getattr(h, "value", h) or 0)
    raise ValueError(f"stream: a {type(stream).__name__} is not a stream "
                     f"(an int handle, CuPy's, PyTorch's or Numba's)")


def empty_like_lib(like: Any, shape: Tuple[int, ...], dtype: str) -> Any:
    """A new contiguous array of the same library (and device) as ``like``."""
    mod = type(like).__module__.split(".")[0]
    np_name = {"f16": "float16", "bf16": "bfloat16", "f32": "float32",
               "f64": "float64", "c64": "complex64", "c128": "complex128",
               "i8": "int8", "u8": "uint8", "i32": "int32",
               "i64": "int64"}.get(dtype)
    if np_name is None:
        raise ValueError(f"cannot allocate a {dtype} result: pass out=")
    if mod == "cupy" and dtype != "bf16":
        import cupy
        with cupy.cuda.Device(like.device.id):
            return cupy.empty(shape, dtype=np_name)
    if mod == "torch":
        import torch
        return torch.empty(shape, dtype=getattr(torch, np_name),
                           device=like.device)
    if mod == "numba" and dtype != "bf16":
        from numba import cuda
        return cuda.device_array(shape, dtype=np_name)
    raise ValueError(f"cannot allocate a {dtype} result like a "
                     f"{type(like).__name__}: pass out= (CuPy, PyTorch and "
                     f"Numba arrays are allocated for you)")
