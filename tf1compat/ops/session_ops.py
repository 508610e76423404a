"""Tensors kept in a session between runs: `tf.get_session_handle`,
`tf.get_session_tensor`, `tf.delete_session_tensor` (TF's GetSessionHandle,
GetSessionTensor and DeleteSessionTensor ops).

A run that fetches `get_session_handle(t)` stores t's value in the session and hands back
a `TensorHandle` whose `handle` string ("<op name>;<id>;<device>", as TF writes it) later
runs of the same session feed to `get_session_tensor`'s placeholder to use the value
without copying it out; `delete_session_tensor` (or `TensorHandle.delete()`, or the
TensorHandle being garbage-collected) frees it. The values live in the session's
resources, so another session (or a closed one) knows none of them.
"""

from __future__ import annotations

import itertools
import threading
import weakref
from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1, get_default_graph
from tf1compat.framework.hooks import FETCHED_VALUES
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops.array_ops import placeholder

__all__ = ["get_session_handle", "get_session_tensor", "delete_session_tensor",
           "TensorHandle"]


class _HandleStore:
    """A session's stored tensors, by handle string."""

    def __init__(self) -> None:
        self.values: Dict[str, Any] = {}
        self.ids = itertools.count()
        self.lock = threading.Lock()


_STORE_KEY = ("session_ops", "handles")


def _store(kctx: Any) -> _HandleStore:
    return kctx.runtime.op_resource(_STORE_KEY, _HandleStore)


def _device_name(device: torch.device) -> str:
    kind = "GPU" if device.type == "cuda" else "CPU"
    return f"/job:localhost/replica:0/task:0/device:{kind}:{device.index or 0}"


def _handle_text(value: Any) -> str:
    value = value[()] if isinstance(value, np.ndarray) else value
    return value.decode() if isinstance(value, bytes) else str(value)


def _get_handle_kernel(node: Any, kctx: Any) -> Callable[[Any], bytes]:
    store, device = _store(kctx), _device_name(kctx.device)

    def run(value: Any) -> bytes:
        with store.lock:
            handle = f"{node.name};{next(store.ids)};{device}"
            store.values[handle] = value
        return handle.encode()
    return run


def _lookup(store: _HandleStore, handle: str) -> Any:
    try:
        return store.values[handle]
    except KeyError:
        raise errors.InvalidArgumentError(
            None, None, f"The tensor with handle '{handle}' is not in the session "
            "store.") from None


def _get_tensor_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    store = _store(kctx)
    return lambda handle: _lookup(store, _handle_text(handle))


def _delete_kernel(node: Any, kctx: Any) -> Callable[[Any], None]:
    store = _store(kctx)

    def run(handle: Any) -> None:
        text = _handle_text(handle)
        with store.lock:
            _lookup(store, text)
            del store.values[text]
    return run


declare("GetSessionHandle", inputs=["value: T"], outputs=["handle: string"],
        attrs={"T": Type()}, shape=lambda ctx: [TensorShape([])],
        kernel=_get_handle_kernel, grad="unregistered", cpu_only=True, stateful=True)
declare("GetSessionTensor", inputs=["handle: string"], outputs=["value: dtype"],
        attrs={"dtype": Type()}, shape=lambda ctx: [unknown_shape()],
        kernel=_get_tensor_kernel, grad="unregistered", cpu_only=True, stateful=True)
declare("DeleteSessionTensor", inputs=["handle: string"], outputs=[],
        shape=lambda ctx: [], kernel=_delete_kernel, grad="unregistered", cpu_only=True,
        stateful=True)


class TensorHandle:
    """What `Session.run` returns for a `tf.get_session_handle` tensor: the handle of a
    value the session keeps (`handle`), readable with `eval()` and freed with `delete()`
    (or when this object is garbage-collected, as TF does)."""

    def __init__(self, handle: bytes, dtype: D.DType, session: Any):
        self._handle = handle.decode() if isinstance(handle, bytes) else str(handle)
        self._dtype = dtype
        self._session = session
        self._deleted = False

    def __str__(self) -> str:
        return self._handle

    def __repr__(self) -> str:
        return self._handle

    @property
    def handle(self) -> str:
        """The handle string to feed to a `get_session_tensor` placeholder."""
        return self._handle

    def get_raw_handle(self) -> str:
        return self._handle

    def eval(self) -> Any:
        """The stored value, as `Session.run` would return it (TypeError once deleted,
        as TF)."""
        if self._deleted:
            raise TypeError(f"TensorHandle {self._handle} has been deleted")
        holder, value = _session_ops(self._session, self._dtype, lambda: get_session_tensor(
            self._handle, self._dtype))
        return self._session.run(value, {holder: self._handle})

    def to_numpy_array(self) -> Any:
        return self.eval()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        # feeding a TensorHandle feeds its value, as TF does
        value = np.asarray(self.eval())
        return value if dtype is None else value.astype(dtype)

    def delete(self) -> None:
        """Frees the stored value (later reads of the handle fail)."""
        if self._deleted:
            return
        self._deleted = True
        holder, deleter = _session_ops(self._session, "delete",
                                       lambda: delete_session_tensor(self._handle))
        self._session.run(deleter, {holder: self._handle})

    def __del__(self) -> None:
        # Freed straight from the session's store: no ops are added to the graph (TF
        # defers this to the session's next run, with the same effect).
        session = getattr(self, "_session", None)
        if session is None or getattr(self, "_deleted", True) or session._closed:
            return
        self._deleted = True
        store = session._runtime.op_resource(_STORE_KEY, _HandleStore)
        with store.lock:
            store.values.pop(self._handle, None)


def _wrap_fetched_handle(value: Any, tensor: Tensor, session: Any) -> TensorHandle:
    return TensorHandle(value, tensor.op.inputs[0].dtype, session)


FETCHED_VALUES["GetSessionHandle"] = _wrap_fetched_handle


def get_session_handle(data: Any, name: Optional[str] = None) -> Tensor:
    """`tf.get_session_handle`: a string tensor whose fetched value is a `TensorHandle`
    to `data`'s value, kept in the session for later runs."""
    if not isinstance(data, Tensor):
        raise TypeError("`data` must be of type Tensor.")
    return apply_op1("GetSessionHandle", [data], {"T": data.dtype.base_dtype}, name=name)


def _device_of(handle: Any) -> str:
    """The device part of a handle string (TF places the reader/deleter there)."""
    return _handle_text(handle).split(";")[-1]


def get_session_tensor(handle: Any, dtype: Any,
                       name: Optional[str] = None) -> Tuple[Tensor, Tensor]:
    """`tf.get_session_tensor`: (a string placeholder to feed `handle` to, the tensor of
    `dtype` the handle stands for) on the handle's device."""
    with get_default_graph().device(_device_of(handle)):
        holder = placeholder(D.string)
        value = apply_op1("GetSessionTensor", [holder], {"dtype": D.as_dtype(dtype)},
                          name=name)
    return holder, value


def delete_session_tensor(handle: Any, name: Optional[str] = None) -> Tuple[Tensor, Any]:
    """`tf.delete_session_tensor`: (a string placeholder to feed `handle` to, the op that
    frees the value it stands for) on the handle's device."""
    with get_default_graph().device(_device_of(handle)):
        holder = placeholder(D.string)
        deleter = apply_op("DeleteSessionTensor", [holder], {}, name=name)
    return holder, deleter


# A session's own reader and deleter graphs for TensorHandle.eval/delete, built once.
_HANDLE_OPS: "weakref.WeakKeyDictionary[Any, Dict[Any, Tuple[Tensor, Any]]]" = \
    weakref.WeakKeyDictionary()


def _session_ops(session: Any, key: Any, build: Callable[[], Tuple[Tensor, Any]]
                 ) -> Tuple[Tensor, Any]:
    cache = _HANDLE_OPS.setdefault(session, {})
    if key not in cache:
        with session.graph.as_default():
            cache[key] = build()
    return cache[key]
