"""Checkpoint I/O ops: SaveV2, RestoreV2, MergeV2Checkpoints and the filename helpers
(ShardedFilename, ShardedFilespec, StringJoin, StaticRegexFullMatch).

`tf.train.Saver` builds TF's graph of these ops (`save/SaveV2`, `save/RestoreV2`, ...) and
runs them with Session.run, so a Saver restores through Assign ops into the session's
variable store exactly as TF does, and `saver_def.restore_op_name` can be run by hand.

The kernels speak TF's checkpoint layout (serialization/bundle_writer.py): SaveV2 writes
`<prefix>.index` + `<prefix>.data-00000-of-00001` (a data shard that is also a
safetensors file), atomically; RestoreV2 reads that, TF's own checkpoints and earlier
tf1compat `.safetensors` files through serialization/checkpoint_reader.py;
MergeV2Checkpoints merges the shards of a sharded save as TF does. Slices of a
partitioned variable (shape_and_slices "10 3 0,4:0,3") are stored as the full tensor
when one SaveV2 gets all of them and TF can read slices back from it; otherwise (a shard
of a sharded save holding some slices, or dtypes TF only reads as stored slices) as TF's
stored slices.
"""

from __future__ import annotations

import errno

import os
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1
from tf1compat.framework.op_def import TypeList, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.serialization import bundle_writer, tensor_codec, v1_checkpoint
from tf1compat.serialization import object_graph as og
from tf1compat.serialization import safetensors_checkpoint as legacy
from tf1compat.serialization.checkpoint_reader import FORMAT_SAFETENSORS, NewCheckpointReader
from tf1compat.serialization.tensor_slice import SliceSpec, covers, parse_slice_spec

__all__ = ["save_v2", "restore_v2", "merge_v2_checkpoints", "sharded_filename",
           "sharded_filespec", "string_join", "regex_full_match", "parse_slice_spec",
           "SliceSpec", "dtype_text", "write_checkpoint", "write_error", "PARTIAL_SLICES_KEY"]

# Metadata key of an earlier tf1compat `.safetensors` shard file holding only some slices
# of a tensor: {name: [spec, ...]} (read to refuse slices such a file lacks).
PARTIAL_SLICES_KEY = "partial_slices"

# TF1COMPAT_CHECKPOINT_VERIFY=0 skips checking the stored checksums on restore and leaves
# restored values mapped from the file (read when first used, as safetensors' own
# load_file does), so the file must not be truncated in place meanwhile. (Checksums are
# always written: TensorFlow checks them.)
VERIFY_CHECKSUMS = os.environ.get("TF1COMPAT_CHECKPOINT_VERIFY", "1") not in ("0", "false")

# The dtypes TF's reader copies a slice out of a whole stored tensor for (its LookupSlice);
# partitioned variables of other dtypes are stored as TF's stored slices.
_WHOLE_SLICEABLE = frozenset({D.float32, D.float64, D.int32, D.uint8, D.int16, D.int8,
                              D.complex64, D.complex128, D.int64, D.bool, D.qint32,
                              D.quint8, D.qint8, D.bfloat16})


def dtype_text(dtype: D.DType) -> str:
    """TF's DataTypeString: "float", "double", "int32", "half", ..."""
    name = tensor_codec.DT_NAMES.get(dtype.base_dtype.as_datatype_enum)
    return name[3:].lower() if name else dtype.name


def _text(value: Any) -> str:
    if isinstance(value, np.ndarray):
        value = value.reshape(-1)[0] if value.size == 1 else value
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    return str(value)


def _texts(value: Any) -> List[str]:
    return [_text(v) for v in np.asarray(value, dtype=object).reshape(-1)]


# -- SaveV2 --------------------------------------------------------------------------------------

def _check_lengths(names: Sequence[str], slices: Sequence[str], count: int) -> None:
    if len(names) != count or len(slices) != count:
        raise errors.InvalidArgumentError(
            None, None, f"Expected {count} tensor names and shape_and_slices, got "
                        f"{len(names)} and {len(slices)}")


def _as_torch(value: Any) -> torch.Tensor:
    return value.detach() if isinstance(value, torch.Tensor) else torch.as_tensor(value)


def _add_sliced(writer: bundle_writer.BundleWriter, name: str, dtype: D.DType,
                parts: List[Tuple[SliceSpec, Any]]) -> None:
    """Stores the slices one SaveV2 got of a partitioned variable."""
    specs = [spec for spec, _ in parts]
    full_shape = specs[0].full_shape
    for spec, value in parts:
        if spec.full_shape != full_shape:
            raise errors.InvalidArgumentError(
                None, None, f"Slices of tensor {name} disagree on its full shape: "
                            f"{full_shape} vs {spec.full_shape}")
        if list(np.shape(value)) != spec.lengths:
            raise errors.InvalidArgumentError(
                None, None, f"Shape of slice {spec.text!r} of tensor {name} is "
                            f"{spec.lengths}, but the value has shape {list(np.shape(value))}")
    if dtype.base_dtype in _WHOLE_SLICEABLE and covers(specs):
        # All of it: one whole tensor, which safetensors readers see under the variable's
        # name and TF reads the partitions back from.
        full = torch.zeros(full_shape, dtype=_as_torch(parts[0][1]).dtype)
        for spec, value in parts:
            full[spec.index] = _as_torch(value).to("cpu")
        writer.add(name, full, dtype)
        return
    if dtype.base_dtype == D.string:
        raise NotImplementedError(f"saving slices of string tensor {name} is not supported "
                                  "by tf1compat")
    for spec, value in parts:
        writer.add_slice(name, spec, value, dtype)


def write_tensors(prefix: str, names: Sequence[str], slices: Sequence[str],
                  values: Sequence[Any], dtypes: Sequence[D.DType]) -> str:
    """SaveV2's work: one checkpoint `prefix` of the tensors (slices of partitioned
    variables grouped by name), with TF's errors for unwritable places."""
    writer = bundle_writer.BundleWriter(prefix)
    sliced: Dict[str, List[Tuple[SliceSpec, Any]]] = {}
    sliced_dtype: Dict[str, D.DType] = {}
    whole = set()
    for name, spec_text, value, dtype in zip(names, slices, values, dtypes):
        spec = parse_slice_spec(spec_text, name)
        if (spec is None and name in sliced) or (spec is not None and name in whole):
            raise errors.InvalidArgumentError(
                None, None, f"Tensor {name} is saved both whole and as slices")
        if spec is None:
            if name in whole:
                raise errors.InvalidArgumentError(None, None,
                                                  f"Duplicate tensor name {name} in SaveV2")
            if name == og.OBJECT_GRAPH_KEY:
                _check_object_graph(value)
            whole.add(name)
            writer.add(name, value, dtype)
        else:
            sliced.setdefault(name, []).append((spec, value))
            sliced_dtype[name] = dtype
    for name, parts in sliced.items():
        _add_sliced(writer, name, sliced_dtype[name], parts)
    return _finish(writer, prefix)


# errno of a failed checkpoint write -> TF's error class (TF's posix file system mapping).
_WRITE_ERRORS = {errno.ENOENT: errors.NotFoundError,
                 errno.ENOTDIR: errors.FailedPreconditionError,
                 errno.EACCES: errors.PermissionDeniedError,
                 errno.EPERM: errors.PermissionDeniedError,
                 errno.EROFS: errors.PermissionDeniedError,
                 errno.ENOSPC: errors.ResourceExhaustedError,
                 errno.EDQUOT: errors.ResourceExhaustedError,
                 errno.EFBIG: errors.ResourceExhaustedError}


def write_error(e: OSError) -> Exception:
    """TF's file-system error for a failed checkpoint write: "<file>; <strerror>", the
    class from the errno (`e` itself where TF has no class for it)."""
    cls = _WRITE_ERRORS.get(e.errno)
    return e if cls is None else cls(None, None, f"{e.filename}; {os.strerror(e.errno)}")


def _finish(writer: bundle_writer.BundleWriter, prefix: str) -> str:
    try:
        path = writer.finish()
    except OSError as e:
        error = write_error(e)
        if error is e:
            raise
        raise error from None
    # A file of the earlier layout under the same prefix is stale now.
    try:
        os.remove(legacy.checkpoint_file(prefix))
    except OSError:
        pass
    return path


def write_checkpoint(prefix: str, values: Dict[str, Any], kinds: Dict[str, D.DType],
                     object_graph: Optional[Dict[str, Any]] = None) -> str:
    """A checkpoint of whole tensors (eager object-based saves): `values` by key, their
    TF dtypes, and the object graph (object_graph.py's structure) if object-based."""
    writer = bundle_writer.BundleWriter(prefix)
    if object_graph is not None:
        writer.add(og.OBJECT_GRAPH_KEY, og.serialize_object_graph(object_graph), D.string)
    for key, value in values.items():
        writer.add(key, value, kinds.get(key))
    return _finish(writer, prefix)


def _save_v2_kernel(node: Any, kctx: Any) -> Callable[..., None]:
    dtypes = list(node.attrs["dtypes"])

    def save(prefix: Any, tensor_names: Any, shape_and_slices: Any, *tensors: Any) -> None:
        names = _texts(tensor_names)
        slices = _texts(shape_and_slices)
        _check_lengths(names, slices, len(tensors))
        write_tensors(_text(prefix), names, slices, tensors, dtypes)
    return save


def _check_object_graph(value: Any) -> None:
    """The object graph tensor of an object-based save must parse (nothing is written
    otherwise)."""
    data = value.reshape(-1)[0] if isinstance(value, np.ndarray) else value
    try:
        og.parse_object_graph(bytes(data))
    except og.ObjectGraphError as e:
        raise errors.InvalidArgumentError(None, None, f"Cannot save checkpoint: the "
                                                      f"{og.OBJECT_GRAPH_KEY} tensor is not "
                                                      f"an object graph ({e})") from None


declare("SaveV2", inputs=["prefix: string", "tensor_names: string",
                          "shape_and_slices: string", "tensors: dtypes"],
        attrs={"dtypes": TypeList()}, shape=lambda ctx: [], kernel=_save_v2_kernel,
        grad="none", stateful=True, cpu_only=True,
        doc="Writes tensors to the checkpoint <prefix> (<prefix>.index + data shard).")


def save_v2(prefix: Any, tensor_names: Sequence[str], shape_and_slices: Sequence[str],
            tensors: Sequence[Any], name: Optional[str] = None) -> Any:
    """TF's `io_ops.save_v2`: the SaveV2 op (its `tensor_names`/`shape_and_slices` Consts
    are named after the arguments, in the op's scope)."""
    return apply_op("SaveV2", [prefix, list(tensor_names), list(shape_and_slices),
                               list(tensors)], name=name)


# -- RestoreV2 -----------------------------------------------------------------------------------

def _restore_shape(ctx: Any) -> List[TensorShape]:
    # As TF: a constant, non-empty slice spec gives the slice's shape, otherwise unknown.
    n = len(ctx.attrs["dtypes"])
    specs = ctx.const(2)
    if specs is None:
        return [unknown_shape()] * n
    out = []
    for text in _texts(specs):
        try:
            spec = parse_slice_spec(text)
        except errors.InvalidArgumentError:
            spec = None
        out.append(unknown_shape() if spec is None else TensorShape(spec.lengths))
    return out


class _Source:
    """An open checkpoint for one RestoreV2 run (any layout the reader knows)."""

    def __init__(self, prefix: str):
        self.reader = NewCheckpointReader(prefix)
        self.partial = dict(self.reader.user_metadata.get(PARTIAL_SLICES_KEY) or {})
        self.dtypes = self.reader.get_variable_to_dtype_map()

    def read(self, name: str, spec_text: str, dtype: D.DType) -> Any:
        if not self.reader.has_tensor(name):
            raise errors.NotFoundError(None, None, f"Key {name} not found in checkpoint")
        stored = self.dtypes[name]
        if stored.base_dtype != dtype.base_dtype:
            raise errors.InvalidArgumentError(
                None, None, f"tensor_name = {name}; expected dtype {dtype_text(dtype)} does "
                            f"not equal original dtype {dtype_text(stored)}")
        spec = parse_slice_spec(spec_text, name)
        if name in self.partial and (spec is None or not any(
                spec.within(parse_slice_spec(t, name)) for t in self.partial[name])):
            raise errors.NotFoundError(
                None, None, f"Key {name} (slice {spec_text!r}) not found in checkpoint: the "
                            f"checkpoint holds only slices {self.partial[name]}")
        return self.reader.read_torch(name, spec=spec, verify=VERIFY_CHECKSUMS,
                                      copy=VERIFY_CHECKSUMS)


def read_checkpoint_tensors(prefix: str, names: Sequence[str], slices: Sequence[str],
                            dtypes: Sequence[D.DType]) -> List[Any]:
    """RestoreV2's work: every requested tensor read and checked before any is returned
    (from V1 checkpoint files where `prefix` names them, as TF's RestoreV2 falls back)."""
    if v1_checkpoint.is_v1_checkpoint(prefix):
        return v1_checkpoint.read_v1_tensors(prefix, names, slices, dtypes)
    source = _Source(prefix)
    specs = list(zip(names, slices, dtypes))
    if source.reader.format != FORMAT_SAFETENSORS:
        return [source.read(*spec) for spec in specs]
    # Checksums and copies of a memory-mapped file release the GIL: read on threads.
    shapes = source.reader.get_variable_to_shape_map()
    total = sum(4 * int(np.prod(shapes.get(n) or [1], dtype=np.int64)) for n, _, _ in specs)
    return legacy.parallel_map(lambda spec: source.read(*spec), specs, total)


def _restore_v2_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    dtypes = list(node.attrs["dtypes"])
    single = len(dtypes) == 1

    def restore(prefix: Any, tensor_names: Any, shape_and_slices: Any) -> Any:
        names = _texts(tensor_names)
        slices = _texts(shape_and_slices)
        _check_lengths(names, slices, len(dtypes))
        values = read_checkpoint_tensors(_text(prefix), names, slices, dtypes)
        return values[0] if single else tuple(values)
    return restore


declare("RestoreV2", inputs=["prefix: string", "tensor_names: string",
                             "shape_and_slices: string"],
        outputs=["tensors: dtypes"], attrs={"dtypes": TypeList()}, shape=_restore_shape,
        kernel=_restore_v2_kernel, grad="none", stateful=True, cpu_only=True,
        doc="Reads tensors from a checkpoint (TF's V2 layout or an earlier .safetensors).")


def restore_v2(prefix: Any, tensor_names: Sequence[str], shape_and_slices: Sequence[str],
               dtypes: Sequence[Any], name: Optional[str] = None) -> List[Tensor]:
    """TF's `io_ops.restore_v2`: the RestoreV2 op's outputs."""
    return apply_op("RestoreV2", [prefix, list(tensor_names), list(shape_and_slices)],
                    {"dtypes": [D.as_dtype(d).base_dtype for d in dtypes]},
                    name=name).outputs


# -- MergeV2Checkpoints --------------------------------------------------------------------------

def _merge_kernel(node: Any, kctx: Any) -> Callable[..., None]:
    delete_old_dirs = bool(node.attrs["delete_old_dirs"])
    allow_missing = bool(node.attrs["allow_missing_files"])

    def merge(checkpoint_prefixes: Any, destination_prefix: Any) -> None:
        bundle_writer.merge_bundles(_texts(checkpoint_prefixes), _text(destination_prefix),
                                    delete_old_dirs, allow_missing)
    return merge


declare("MergeV2Checkpoints", inputs=["checkpoint_prefixes: string",
                                      "destination_prefix: string"],
        attrs={"delete_old_dirs": True, "allow_missing_files": False},
        shape=lambda ctx: [], kernel=_merge_kernel, grad="none", stateful=True,
        cpu_only=True, doc="Merges the shard files of a sharded save into one checkpoint.")


def merge_v2_checkpoints(checkpoint_prefixes: Any, destination_prefix: Any,
                         delete_old_dirs: bool = True, allow_missing_files: bool = False,
                         name: Optional[str] = None) -> Any:
    return apply_op("MergeV2Checkpoints", [checkpoint_prefixes, destination_prefix],
                    {"delete_old_dirs": delete_old_dirs,
                     "allow_missing_files": allow_missing_files}, name=name)


# -- filename helpers ----------------------------------------------------------------------------

def _scalar_int(value: Any) -> int:
    return int(value.item() if isinstance(value, torch.Tensor) else np.asarray(value).item())


def _sharded_filename_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def run(basename: Any, shard: Any, num_shards: Any) -> bytes:
        text = "%s-%05d-of-%05d" % (_text(basename), _scalar_int(shard), _scalar_int(num_shards))
        return text.encode("utf-8", "surrogateescape")
    return run


def _sharded_filespec_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def run(basename: Any, num_shards: Any) -> bytes:
        text = "%s-?????-of-%05d" % (_text(basename), _scalar_int(num_shards))
        return text.encode("utf-8", "surrogateescape")
    return run


declare("ShardedFilename", inputs=["basename: string", "shard: int32", "num_shards: int32"],
        outputs=["filename: string"], shape=lambda ctx: [TensorShape([])],
        kernel=_sharded_filename_kernel, grad="none", cpu_only=True)
declare("ShardedFilespec", inputs=["basename: string", "num_shards: int32"],
        outputs=["filename: string"], shape=lambda ctx: [TensorShape([])],
        kernel=_sharded_filespec_kernel, grad="none", cpu_only=True)


def sharded_filename(basename: Any, shard: Any, num_shards: Any,
                     name: Optional[str] = None) -> Tensor:
    return apply_op1("ShardedFilename", [basename, shard, num_shards], name=name)


def sharded_filespec(basename: Any, num_shards: Any, name: Optional[str] = None) -> Tensor:
    return apply_op1("ShardedFilespec", [basename, num_shards], name=name)


# StringJoin and StaticRegexFullMatch (used by the Saver for temporary checkpoint paths) are
# declared with the other string ops in ops/string_ops.py and ops/regex_ops.py.
from tf1compat.ops.regex_ops import regex_full_match  # noqa: E402
from tf1compat.ops.string_ops import string_join  # noqa: E402
