"""`EagerTensor`: a concrete value (a torch tensor) with TF's eager Tensor protocol.

It subclasses `tf.Tensor` so `isinstance(x, tf.Tensor)` checks in wrappers keep working,
but it has no op, graph or name (those raise AttributeError with TF's messages). The
value lives in `_value`: a torch tensor, a numpy object array of bytes (strings), a bytes
object (a scalar string) or, for resource handles, the variable's key in the eager
variable store. Operators dispatch through `OPERATORS` like graph tensors, so they run
through the eager executor. As in TF 2.x's EagerTensor, instances are unhashable and `==`
is identity (the TF1 behaviour that `disable_v2_behavior` keeps).
"""

from __future__ import annotations

from typing import Any, Iterator, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape

__all__ = ["EagerTensor", "EagerResourceHandle", "EagerSlicedVariable", "device_name",
           "to_numpy", "const_reads", "is_eager"]

# Kernel factories may read small integer inputs (shapes, axes, perms) with
# constant_value; while the executor builds a kernel it lists the tensors read here, so
# the cached kernel is keyed by their values (see executor.py).
const_reads: List[Optional[list]] = [None]

_STATIC_DTYPES = frozenset({torch.int32, torch.int64, torch.bool, torch.int16, torch.int8,
                            torch.uint8})
_STATIC_LIMIT = 64

_DEVICE_NAMES: dict = {}
_new_shape = object.__new__


def device_name(device: torch.device) -> str:
    """A torch device as TF names it: '/job:localhost/replica:0/task:0/device:CPU:0'."""
    name = _DEVICE_NAMES.get(device)
    if name is None:
        kind = "GPU" if device.type == "cuda" else "CPU"
        index = device.index or 0
        name = _DEVICE_NAMES[device] = \
            f"/job:localhost/replica:0/task:0/device:{kind}:{index}"
    return name


def to_numpy(value: Any) -> Any:
    """An eager value as numpy, without copying CPU storage (0-d arrays stay arrays)."""
    if isinstance(value, torch.Tensor):
        if value.dtype == torch.bfloat16:
            try:
                import ml_dtypes
                return value.detach().float().cpu().numpy().astype(ml_dtypes.bfloat16)
            except ImportError:  # pragma: no cover - ml_dtypes absent
                return value.detach().float().cpu().numpy()
        return value.numpy(force=True) if (value.requires_grad or
                                           value.device.type != "cpu") else value.numpy()
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, bytes):
        return np.array(value, dtype=object)
    return np.asarray(value)


def is_eager(x: Any) -> bool:
    return getattr(x, "_is_eager_tensor", False)


def _eager_only(what: str) -> AttributeError:
    return AttributeError(f"Tensor.{what} is undefined when eager execution is enabled.")


class EagerTensor(Tensor):
    """A tensor holding its value (what ops return when eager execution is enabled)."""

    # _np: the value on the host, memoized for small integer tensors (shapes, axes) that
    # kernels bake in, so keying a cached kernel by them never waits for a GPU.
    __slots__ = ("_value", "_tensor_shape", "_np")
    _is_eager_tensor = True

    def __init__(self, value: Any, dtype: D.DType):
        self._value = value
        self._dtype = dtype

    # -- what eager tensors do not have ------------------------------------------------
    @property
    def op(self) -> Any:
        raise _eager_only("op")

    @property
    def graph(self) -> Any:
        raise _eager_only("graph")

    @property
    def name(self) -> str:
        raise _eager_only("name")

    @property
    def value_index(self) -> int:
        raise _eager_only("value_index")

    # (internal spellings of the same, for code written against graph tensors)
    _op = op
    _name = name
    _value_index = value_index

    def consumers(self) -> list:
        raise NotImplementedError("Tensor.consumers is undefined when eager execution is "
                                  "enabled.")

    def _as_node_def_input(self) -> str:
        raise NotImplementedError("_as_node_def_input not supported when eager execution "
                                  "is enabled.")

    def _as_tf_output(self) -> Any:
        raise NotImplementedError("_as_tf_output not supported when eager execution is "
                                  "enabled.")

    def eval(self, feed_dict: Any = None, session: Any = None) -> Any:
        raise NotImplementedError("eval is not supported when eager execution is enabled, "
                                  "is .numpy() what you're looking for?")

    # -- shape, dtype, device -----------------------------------------------------------
    def _shape_tuple(self) -> tuple:
        value = self._value
        shape = getattr(value, "shape", None)
        return () if shape is None else tuple(shape)

    @property
    def shape(self) -> TensorShape:
        try:
            return self._tensor_shape        # computed on first use
        except AttributeError:
            # (dims of an actual value are known ints: no per-dim checks to run)
            shape = self._tensor_shape = _new_shape(TensorShape)
            shape._dims = self._shape_tuple()
            return shape

    _shape = shape

    def get_shape(self) -> TensorShape:
        return self.shape

    def set_shape(self, shape: Any) -> None:
        """Checks `shape` against the actual shape (ValueError if incompatible), as TF."""
        shape = as_shape(shape)
        if shape.rank is None:
            return
        mine = self._shape_tuple()
        dims = shape.as_list()
        if len(dims) != len(mine) or any(d is not None and d != m for d, m in zip(dims, mine)):
            raise ValueError(f"Tensor's shape {self.shape} is not compatible with supplied "
                             f"shape {shape}.")

    def _shape_as_list(self) -> list:
        return list(self._shape_tuple())

    def _rank(self) -> int:
        return len(self._shape_tuple())

    def _num_elements(self) -> int:
        return int(np.prod(self._shape_tuple(), dtype=np.int64))

    @property
    def ndim(self) -> int:
        return self._rank()

    @property
    def device(self) -> str:
        value = self._value
        if isinstance(value, torch.Tensor):
            return device_name(value.device)
        return device_name(torch.device("cpu"))

    backing_device = device

    def cpu(self) -> "EagerTensor":
        """A copy on the host (deprecated in TF; tf.identity under tf.device instead)."""
        value = self._value
        if isinstance(value, torch.Tensor) and value.device.type != "cpu":
            return EagerTensor(value.cpu(), self._dtype)
        return self

    def gpu(self, gpu_index: int = 0) -> "EagerTensor":
        value = self._value
        if not torch.cuda.is_available() or gpu_index >= torch.cuda.device_count():
            raise RuntimeError(f"GPU:{gpu_index} unknown device.")
        return EagerTensor(value.to(torch.device("cuda", gpu_index)), self._dtype)

    # -- values ------------------------------------------------------------------------------
    def _numpy(self) -> Any:
        """The value as numpy (no copy of CPU storage); scalars as numpy scalars."""
        if self._dtype == D.resource:
            raise errors.InvalidArgumentError(
                None, None, "Cannot convert a Tensor of dtype resource to a NumPy array.")
        arr = to_numpy(self._value)
        return arr[()] if arr.ndim == 0 else arr

    def numpy(self) -> Any:
        """A copy of the value: a numpy array, or a numpy scalar for rank 0."""
        value = self._numpy()
        return value.copy() if isinstance(value, np.ndarray) else value

    def _static_value(self) -> Optional[np.ndarray]:
        """The value for constant folding: small integer tensors only (see const_reads)."""
        try:
            host = self._np
        except AttributeError:
            value = self._value
            if not isinstance(value, torch.Tensor) or value.dtype not in _STATIC_DTYPES or \
                    value.numel() > _STATIC_LIMIT:
                return None
            host = self._np = to_numpy(value)
        reads = const_reads[0]
        if reads is not None:
            reads.append(self)
        return host

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        if self._dtype == D.resource:
            return np.asarray(self._numpy())        # raises TF's InvalidArgumentError
        # The array itself, not np.asarray of _numpy()'s scalar: a string scalar stays an
        # object array of bytes (as TF gives), not a fixed-width `|S` array.
        arr = to_numpy(self._value)
        if dtype is not None:
            return arr.astype(dtype)
        return arr.copy() if copy else arr

    # -- python protocol ------------------------------------------------------------------
    def __repr__(self) -> str:
        return f"<tf.Tensor: shape={self.shape}, dtype={self._dtype.name}, " \
               f"{_value_text(self, True)}>"

    def __str__(self) -> str:
        return f"tf.Tensor({_value_text(self, False)}, shape={self.shape}, " \
               f"dtype={self._dtype.name})"

    def __format__(self, format_spec: str) -> str:
        if self._dtype == D.resource:
            return "<unprintable>".__format__(format_spec)
        return self._numpy().__format__(format_spec)

    def __hash__(self) -> int:
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def __bool__(self) -> bool:
        value = self._numpy()
        if isinstance(value, np.ndarray):
            return bool(value.size > 0 and value)
        return bool(value)

    def __int__(self) -> int:
        return int(self._numpy())

    def __float__(self) -> float:
        return float(self._numpy())

    def __complex__(self) -> complex:
        return complex(self._numpy())

    def __index__(self) -> int:
        return self._numpy().__index__()

    def __len__(self) -> int:
        shape = self._shape_tuple()
        if not shape:
            raise TypeError("Scalar tensor has no `len()`")
        return shape[0]

    def __iter__(self) -> Iterator["EagerTensor"]:
        shape = self._shape_tuple()
        if not shape:
            raise TypeError("Cannot iterate over a scalar tensor.")
        getitem = type(self).__getitem__
        return (getitem(self, i) for i in range(shape[0]))

    def __reduce__(self) -> Any:
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        return convert_to_tensor, (self._numpy(),)

    def __copy__(self) -> "EagerTensor":
        return self       # immutable, as TF's

    def __deepcopy__(self, memo: Any) -> "EagerTensor":
        return self

    # -- apply_op protocol: a single-output op's result is the tensor itself ------------------
    @property
    def _outputs(self) -> list:
        return [self]


class EagerResourceHandle(EagerTensor):
    """A resource variable's handle: `_value` is its key in the eager variable store."""

    __slots__ = ("_handle_shape", "_handle_dtype")

    def __init__(self, key: str, dtype: D.DType, shape: TensorShape):
        super().__init__(key, D.resource)
        self._handle_dtype = dtype
        self._handle_shape = shape

    def _shape_tuple(self) -> tuple:
        return ()

    @property
    def device(self) -> str:
        return device_name(torch.device("cpu"))

    def _summary(self) -> str:
        return (f'<ResourceHandle(name="{self._value}", device="{self.device}", '
                f'container="Anonymous", type="tensorflow::Var", dtype and shapes : '
                f'"[ DType enum: {self._handle_dtype.as_datatype_enum}, Shape: '
                f'{list(self._handle_shape.as_list())} ]")>')


class EagerSlicedVariable(EagerTensor):
    """`v[1:3]` of an eager variable: the slice's value, which can also be assigned to."""

    __slots__ = ("_var", "_slice_inputs", "_masks")

    def __init__(self, value: EagerTensor, var: Any, slice_inputs: tuple, masks: dict):
        super().__init__(value._value, value._dtype)
        self._var = var
        self._slice_inputs = slice_inputs
        self._masks = masks

    def assign(self, val: Any, name: Optional[str] = None) -> Any:
        """Writes `val` into the slice of the variable; returns the updated variable."""
        from tf1compat.framework.graph import apply_op
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        var = self._var
        value = convert_to_tensor(val, dtype=var.dtype)
        op = apply_op("ResourceStridedSliceAssign",
                      [var.handle, *self._slice_inputs, value], dict(self._masks), name=name)
        return var._lazy_read(op)


def _value_text(t: EagerTensor, is_repr: bool) -> str:
    """TF's numpy_text: repr or str of the numpy value, newline-prefixed when multi-line."""
    if isinstance(t, EagerResourceHandle):
        text = t._summary()
        return "value=" + text if is_repr else text
    value = t._numpy()
    if is_repr:
        if np.isscalar(value) and not isinstance(value, bytes):
            text = repr(value.item())
        else:
            text = repr(value)
    else:
        text = str(value)
    if "\n" in text:
        text = "\n" + text
    return "numpy=" + text if is_repr else text
