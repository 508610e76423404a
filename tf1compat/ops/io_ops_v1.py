"""The checkpoint ops of TF 0.x graphs, in TF's V1 checkpoint format
(serialization/v1_checkpoint.py): `Save` and `SaveSlices` write one file (a `.meta` of
a V1 Saver holds `save/save`: SaveSlices of every variable), `Restore` and
`RestoreSlice` read a tensor from the files a pattern matches (`save/restore_slice`).
The files are TF's byte for byte, so TF reads what these ops write and they read TF's.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import Type, TypeList, declare
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops.io_ops import write_error
from tf1compat.serialization.tensor_slice import parse_slice_spec
from tf1compat.serialization.v1_checkpoint import read_v1_tensors, write_v1_checkpoint

__all__ = ["save_slices"]


def _text(value: Any) -> str:
    if isinstance(value, np.ndarray):
        value = value.reshape(-1)[0]
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else str(value)


def _texts(value: Any) -> List[str]:
    return [_text(v) for v in np.asarray(value, dtype=object).reshape(-1)]


def _numpy(value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return value.detach().cpu().numpy() if value.dtype != torch.bfloat16 else \
            value.detach().cpu().float().numpy()
    return np.asarray(value, dtype=object) if isinstance(value, (bytes, np.ndarray)) and \
        np.asarray(value).dtype.kind in "OS" else np.asarray(value)


def _save_kernel(node: Any, kctx: Any) -> Callable[..., None]:
    dtypes = list(node.attrs["T"])
    sliced = node.type == "SaveSlices"

    def save(filename: Any, tensor_names: Any, *rest: Any) -> None:
        names = _texts(tensor_names)
        specs_text = _texts(rest[0]) if sliced else [""] * len(names)
        data = rest[1:] if sliced else rest
        if len(names) != len(data) or len(specs_text) != len(data):
            raise errors.InvalidArgumentError(
                None, None, f"Expected {len(data)} tensor names and shapes_and_slices, got "
                            f"{len(names)} and {len(specs_text)}")
        entries = []
        for name, text, value, dtype in zip(names, specs_text, data, dtypes):
            value = _numpy(value)
            spec = parse_slice_spec(text, name)
            if spec is not None and list(value.shape) != spec.lengths:
                raise errors.InvalidArgumentError(
                    None, None, f"Slice in shape_and_slice specification does not match the "
                                f"shape of the tensor to  save: {text}, tensor: "
                                f"[{','.join(str(d) for d in value.shape)}]")
            entries.append((name, value, dtype, spec))
        try:
            write_v1_checkpoint(_text(filename), entries)
        except OSError as e:
            error = write_error(e)
            if error is e:
                raise
            raise error from None
    return save


def _restore_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    dtype = node.attrs["dt"]
    device = kctx.device

    def restore(file_pattern: Any, tensor_name: Any, shape_and_slice: Any = b"") -> Any:
        return read_v1_tensors(_text(file_pattern), [_text(tensor_name)],
                               [_text(shape_and_slice)], [dtype], device)[0]
    return restore


def _save_shape(ctx: Any) -> List[TensorShape]:
    n = len(ctx.attrs["T"])
    names = ctx.shape(1)
    if names.rank is not None and names.rank != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {names.rank} {node_desc(ctx)}")
    if names.rank == 1 and names.dims[0] is not None and names.dims[0] != n:
        raise ValueError(f"Dimension must be {n} but is {names.dims[0]} {node_desc(ctx)}")
    return []


def _restore_slice_shape(ctx: Any) -> List[TensorShape]:
    text = ctx.const(2)
    if text is None:
        return [unknown_shape()]
    try:
        spec = parse_slice_spec(_text(text))
    except errors.InvalidArgumentError:
        return [unknown_shape()]
    return [unknown_shape() if spec is None else TensorShape(spec.lengths)]


declare("Save", inputs=["filename: string", "tensor_names: string", "data: T"],
        attrs={"T": TypeList()}, shape=_save_shape, kernel=_save_kernel, grad="none",
        stateful=True, cpu_only=True,
        doc="Writes whole tensors to a V1 checkpoint file (TF 0.x).")
declare("SaveSlices", inputs=["filename: string", "tensor_names: string",
                              "shapes_and_slices: string", "data: T"],
        attrs={"T": TypeList()}, shape=_save_shape, kernel=_save_kernel, grad="none",
        stateful=True, cpu_only=True,
        doc="Writes tensors or slices of them to a V1 checkpoint file (a V1 Saver's save).")
declare("Restore", inputs=["file_pattern: string", "tensor_name: string"],
        outputs=["tensor: dt"], attrs={"dt": Type(), "preferred_shard": -1},
        shape=lambda ctx: [unknown_shape()], kernel=_restore_kernel, grad="none",
        stateful=True, cpu_only=True,
        doc="Reads a tensor from the V1 checkpoint files a pattern matches.")
declare("RestoreSlice", inputs=["file_pattern: string", "tensor_name: string",
                                "shape_and_slice: string"],
        outputs=["tensor: dt"], attrs={"dt": Type(), "preferred_shard": -1},
        shape=_restore_slice_shape, kernel=_restore_kernel, grad="none", stateful=True,
        cpu_only=True, doc="Reads a slice of a tensor from V1 checkpoint files (a V1 "
                           "Saver's restore).")


def save_slices(filename: Any, tensor_names: Sequence[str], shapes_and_slices: Sequence[str],
                data: Sequence[Any], name: Optional[str] = "save") -> Any:
    """TF's `io_ops._save` of a V1 Saver: the SaveSlices op (named "save", its
    `tensor_names`/`shapes_and_slices` Consts in its scope)."""
    return apply_op("SaveSlices", [filename, list(tensor_names), list(shapes_and_slices),
                                   list(data)], name=name)
