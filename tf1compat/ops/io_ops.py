"""Checkpoint I/O ops: SaveV2, RestoreV2, MergeV2Checkpoints and the filename helpers
(ShardedFilename, ShardedFilespec, StringJoin, StaticRegexFullMatch).

`tf.train.Saver` builds TF's graph of these ops (`save/SaveV2`, `save/RestoreV2`, ...) and
runs them with Session.run, so a Saver restores through Assign ops into the session's
variable store exactly as TF does, and `saver_def.restore_op_name` can be run by hand.

The kernels speak tf1compat's checkpoint format: SaveV2 writes `<prefix>.safetensors`
(training/checkpoint_format.py, atomically); RestoreV2 reads that or a TF V2 bundle
(`<prefix>.index` + data shards) through training/checkpoint_reader.py. Slices of
partitioned variables (shape_and_slices "10 3 0,4:0,3") are assembled into the full
tensor on save, as docs/checkpoints.md specifies; a file holding only some slices of a
tensor (a shard of a sharded save) lists the ones it holds in its metadata so
MergeV2Checkpoints can combine shards and RestoreV2 never hands out unwritten values.
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
from tf1compat.training import checkpoint_format, tensor_codec
from tf1compat.training import object_graph as og

__all__ = ["save_v2", "restore_v2", "merge_v2_checkpoints", "sharded_filename",
           "sharded_filespec", "string_join", "regex_full_match", "parse_slice_spec",
           "SliceSpec", "dtype_text", "PARTIAL_SLICES_KEY"]

# user metadata key of a file holding only some slices of a tensor: {name: [spec, ...]}
PARTIAL_SLICES_KEY = "partial_slices"

# SaveV2 stores each tensor's CRC-32; RestoreV2 checks it and copies the tensor into
# memory. TF1COMPAT_CHECKPOINT_VERIFY=0 skips all three: files are written without
# checksums, and restored values stay mapped from the file (read when first used, as
# safetensors' own load_file does), so the file must not be truncated in place meanwhile.
VERIFY_CHECKSUMS = os.environ.get("TF1COMPAT_CHECKPOINT_VERIFY", "1") not in ("0", "false")


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


# -- slice specs ---------------------------------------------------------------------------------

class SliceSpec:
    """A parsed "full shape + slice" spec: "4 3 0,2:0,3" (TF's TensorSlice text form)."""

    __slots__ = ("full_shape", "starts", "lengths", "text")

    def __init__(self, full_shape: List[int], starts: List[int], lengths: List[int],
                 text: str):
        self.full_shape = full_shape
        self.starts = starts
        self.lengths = lengths
        self.text = text

    @property
    def index(self) -> Tuple[slice, ...]:
        return tuple(slice(s, s + n) for s, n in zip(self.starts, self.lengths))

    def within(self, other: "SliceSpec") -> bool:
        """Whether this slice lies inside `other` (both of one full shape)."""
        return all(o <= s and s + n <= o + m for s, n, o, m in
                   zip(self.starts, self.lengths, other.starts, other.lengths))


def parse_slice_spec(text: str, name: str = "") -> Optional[SliceSpec]:
    """None for "" (the whole tensor); else the parsed spec (InvalidArgumentError if bad)."""
    if not text:
        return None
    parts = text.split(" ")
    try:
        full = [int(p) for p in parts[:-1]]
        starts, lengths = [], []
        extents = parts[-1].split(":")
        if len(extents) != len(full):
            raise ValueError
        for dim, extent in zip(full, extents):
            if extent == "-":
                starts.append(0)
                lengths.append(dim)
                continue
            start, length = (int(x) for x in extent.split(","))
            if start < 0 or length < 0 or start + length > dim:
                raise ValueError
            starts.append(start)
            lengths.append(length)
    except ValueError:
        raise errors.InvalidArgumentError(
            None, None, f"Unable to parse slice spec {text!r} of tensor {name}") from None
    return SliceSpec(full, starts, lengths, text)


# -- SaveV2 --------------------------------------------------------------------------------------

def _check_lengths(names: Sequence[str], slices: Sequence[str], count: int) -> None:
    if len(names) != count or len(slices) != count:
        raise errors.InvalidArgumentError(
            None, None, f"Expected {count} tensor names and shape_and_slices, got "
                        f"{len(names)} and {len(slices)}")


def collect_tensors(names: Sequence[str], slices: Sequence[str], values: Sequence[Any],
                    dtypes: Sequence[D.DType]
                    ) -> Tuple[Dict[str, Any], Dict[str, D.DType], Dict[str, List[str]]]:
    """The tensors SaveV2 writes: full tensors by name, their dtypes, and partial slices.

    Slices of one name are copied into one tensor of the full shape; names whose slices
    do not cover the whole tensor are returned in the third dict with the specs held.
    """
    out: Dict[str, Any] = {}
    kinds: Dict[str, D.DType] = {}
    sliced: Dict[str, List[SliceSpec]] = {}
    for name, spec_text, value, dtype in zip(names, slices, values, dtypes):
        spec = parse_slice_spec(spec_text, name)
        if spec is None:
            if name in out:
                raise errors.InvalidArgumentError(None, None,
                                                  f"Duplicate tensor name {name} in SaveV2")
            out[name] = value
            kinds[name] = dtype
            continue
        if name in out and name not in sliced:
            raise errors.InvalidArgumentError(
                None, None, f"Tensor {name} is saved both whole and as slices")
        if dtype == D.string:
            raise NotImplementedError(f"saving slices of string tensor {name} is not "
                                      "supported by tf1compat")
        if name not in out:
            like = value if isinstance(value, torch.Tensor) else torch.as_tensor(value)
            out[name] = torch.zeros(spec.full_shape, dtype=like.dtype, device="cpu")
            kinds[name] = dtype
            sliced[name] = []
        full = out[name]
        if list(full.shape) != spec.full_shape:
            raise errors.InvalidArgumentError(
                None, None, f"Slices of tensor {name} disagree on its full shape: "
                            f"{list(full.shape)} vs {spec.full_shape}")
        part = value if isinstance(value, torch.Tensor) else torch.as_tensor(value)
        if list(part.shape) != spec.lengths:
            raise errors.InvalidArgumentError(
                None, None, f"Shape of slice {spec_text!r} of tensor {name} is "
                            f"{list(spec.lengths)}, but the value has shape "
                            f"{list(part.shape)}")
        full[spec.index] = part.detach().to("cpu")
        sliced[name].append(spec)
    partial = {}
    for name, specs in sliced.items():
        if not _covers(specs):
            partial[name] = [s.text for s in specs]
    return out, kinds, partial


def _covers(specs: List[SliceSpec]) -> bool:
    """Whether the (disjoint, as partitioners make them) slices fill the full shape."""
    full = specs[0].full_shape
    total = int(np.prod(full, dtype=np.int64))
    held = sum(int(np.prod(s.lengths, dtype=np.int64)) for s in specs)
    return held >= total


def _save_v2_kernel(node: Any, kctx: Any) -> Callable[..., None]:
    dtypes = list(node.attrs["dtypes"])

    def save(prefix: Any, tensor_names: Any, shape_and_slices: Any, *tensors: Any) -> None:
        names = _texts(tensor_names)
        slices = _texts(shape_and_slices)
        _check_lengths(names, slices, len(tensors))
        graph = None
        if og.OBJECT_GRAPH_KEY in names:
            # TF saves an object-based checkpoint's object graph as this string tensor;
            # tf1compat's file keeps it (validated) as JSON metadata instead.
            i = names.index(og.OBJECT_GRAPH_KEY)
            graph = _object_graph_from_tensor(tensors[i])
            names, slices = names[:i] + names[i + 1:], slices[:i] + slices[i + 1:]
            tensors, kinds_in = tensors[:i] + tensors[i + 1:], dtypes[:i] + dtypes[i + 1:]
        else:
            kinds_in = dtypes
        values, kinds, partial = collect_tensors(names, slices, tensors, kinds_in)
        write_checkpoint(_text(prefix), values, kinds,
                         {PARTIAL_SLICES_KEY: partial} if partial else None, graph)
    return save


def _object_graph_from_tensor(value: Any) -> Dict[str, Any]:
    data = value.reshape(-1)[0] if isinstance(value, np.ndarray) else value
    try:
        return og.parse_object_graph(bytes(data))
    except og.ObjectGraphError as e:
        raise errors.InvalidArgumentError(None, None, f"Cannot save checkpoint: the "
                                                      f"{og.OBJECT_GRAPH_KEY} tensor is not "
                                                      f"an object graph ({e})") from None


def write_checkpoint(prefix: str, values: Dict[str, Any], kinds: Dict[str, D.DType],
                     user: Optional[Dict[str, Any]] = None,
                     object_graph: Optional[Dict[str, Any]] = None) -> str:
    """`<prefix>.safetensors` atomically, with TF's errors for unwritable places."""
    try:
        return checkpoint_format.save_tensors(prefix, values, dtype_overrides=kinds,
                                              object_graph=object_graph,
                                              user_metadata=user,
                                              checksums=VERIFY_CHECKSUMS)
    except OSError as e:
        cls = _WRITE_ERRORS.get(e.errno)
        if cls is None:
            raise
        # TF's file-system errors: "<file>; <strerror>", the class from the errno.
        raise cls(None, None, f"{e.filename}; {os.strerror(e.errno)}") from None


# errno of a failed checkpoint write -> TF's error class (TF's posix file system mapping).
_WRITE_ERRORS = {errno.ENOENT: errors.NotFoundError,
                 errno.ENOTDIR: errors.FailedPreconditionError,
                 errno.EACCES: errors.PermissionDeniedError,
                 errno.EPERM: errors.PermissionDeniedError,
                 errno.EROFS: errors.PermissionDeniedError,
                 errno.ENOSPC: errors.ResourceExhaustedError,
                 errno.EDQUOT: errors.ResourceExhaustedError,
                 errno.EFBIG: errors.ResourceExhaustedError}


declare("SaveV2", inputs=["prefix: string", "tensor_names: string",
                          "shape_and_slices: string", "tensors: dtypes"],
        attrs={"dtypes": TypeList()}, shape=lambda ctx: [], kernel=_save_v2_kernel,
        grad="none", stateful=True, cpu_only=True,
        doc="Writes tensors to <prefix>.safetensors (tf1compat's checkpoint file).")


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
    """An open checkpoint for one RestoreV2 run (ours or TF's)."""

    def __init__(self, prefix: str):
        from tf1compat.training.checkpoint_reader import NewCheckpointReader
        self.reader = NewCheckpointReader(prefix)
        st = getattr(self.reader, "_st", None)
        user = st.user_metadata if st is not None else {}
        self.partial = dict(user.get(PARTIAL_SLICES_KEY) or {})
        self.dtypes = self.reader.get_variable_to_dtype_map()
        self.shapes = self.reader.get_variable_to_shape_map()

    def read(self, name: str, spec_text: str, dtype: D.DType) -> Any:
        if not self.reader.has_tensor(name):
            raise errors.NotFoundError(None, None, f"Key {name} not found in checkpoint")
        stored = self.dtypes[name]
        if stored.base_dtype != dtype.base_dtype:
            raise errors.InvalidArgumentError(
                None, None, f"tensor_name = {name}; expected dtype {dtype_text(dtype)} does "
                            f"not equal original dtype {dtype_text(stored)}")
        # Our files are memory-mapped: verified values are copied (in the checksum's
        # pass), so a variable never depends on a file another program might truncate.
        value = self.reader.read_torch(name, verify=VERIFY_CHECKSUMS, copy=VERIFY_CHECKSUMS)
        spec = parse_slice_spec(spec_text, name)
        if name in self.partial and (spec is None or not any(
                spec.within(parse_slice_spec(t, name)) for t in self.partial[name])):
            raise errors.NotFoundError(
                None, None, f"Key {name} (slice {spec_text!r}) not found in checkpoint: the "
                            f"checkpoint holds only slices {self.partial[name]}")
        if spec is None:
            return value
        shape = list(value.shape)
        if shape != spec.full_shape:
            raise errors.InvalidArgumentError(
                None, None, f"tensor_name = {name}; shape in shape_and_slice spec "
                            f"{spec.full_shape} does not match the shape stored in "
                            f"checkpoint: {shape}")
        part = value[spec.index]
        return part.contiguous() if isinstance(part, torch.Tensor) else part.copy()


def read_checkpoint_tensors(prefix: str, names: Sequence[str], slices: Sequence[str],
                            dtypes: Sequence[D.DType]) -> List[Any]:
    """RestoreV2's work: every requested tensor read and checked before any is returned."""
    source = _Source(prefix)
    specs = list(zip(names, slices, dtypes))
    if source.reader.format != "tf1compat":
        return [source.read(*spec) for spec in specs]
    # Checksums and copies of a memory-mapped file release the GIL: read on threads.
    total = sum(4 * int(np.prod(source.shapes.get(n) or [1], dtype=np.int64)) for n, _, _ in specs)
    return checkpoint_format.parallel_map(lambda spec: source.read(*spec), specs, total)


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
        doc="Reads tensors from a checkpoint: tf1compat's .safetensors or a TF V2 bundle.")


def restore_v2(prefix: Any, tensor_names: Sequence[str], shape_and_slices: Sequence[str],
               dtypes: Sequence[Any], name: Optional[str] = None) -> List[Tensor]:
    """TF's `io_ops.restore_v2`: the RestoreV2 op's outputs."""
    return apply_op("RestoreV2", [prefix, list(tensor_names), list(shape_and_slices)],
                    {"dtypes": [D.as_dtype(d).base_dtype for d in dtypes]},
                    name=name).outputs


# -- MergeV2Checkpoints --------------------------------------------------------------------------

def merge_files(sources: Sequence[str], destination: str, delete_old_dirs: bool = True,
                allow_missing_files: bool = False) -> None:
    """Combines the shard files `<p>.safetensors` into `<destination>.safetensors`."""
    values: Dict[str, Any] = {}
    kinds: Dict[str, D.DType] = {}
    partial: Dict[str, List[str]] = {}
    found = []
    graph = None
    for prefix in sources:
        path = checkpoint_format.checkpoint_file(prefix)
        if not os.path.exists(path):
            if allow_missing_files:
                continue
            raise errors.NotFoundError(None, None, f"{path}; No such file or directory")
        found.append(prefix)
        reader = checkpoint_format.SafetensorsReader(path)
        held = dict(reader.user_metadata.get(PARTIAL_SLICES_KEY) or {})
        if reader.object_graph is not None:
            graph = reader.object_graph
        for key in reader.keys():
            if key == og.OBJECT_GRAPH_KEY and reader.object_graph is not None:
                continue   # presented by the reader, kept as metadata
            dtype, storage = reader.read(key)
            value = tensor_codec.to_torch(dtype, storage)
            if key in held and key in values:
                for text in held[key]:
                    spec = parse_slice_spec(text, key)
                    values[key][spec.index] = value[spec.index]
                partial[key] = partial.get(key, []) + held[key]
                continue
            if key in values:
                raise errors.InvalidArgumentError(
                    None, None, f"Tensor {key} appears in more than one shard")
            values[key] = value
            kinds[key] = dtype
            if key in held:
                partial[key] = list(held[key])
        reader.close()
    if not found and not allow_missing_files:
        raise errors.InvalidArgumentError(None, None, "No checkpoint shards to merge")
    partial = {k: v for k, v in partial.items()
               if not _covers([parse_slice_spec(t, k) for t in v])}
    write_checkpoint(destination, values, kinds, {PARTIAL_SLICES_KEY: partial}
                     if partial else None, graph)
    for prefix in found:
        checkpoint_format_path = checkpoint_format.checkpoint_file(prefix)
        try:
            os.remove(checkpoint_format_path)
        except FileNotFoundError:
            pass
    if delete_old_dirs and found:
        # As TF: the shards' directory (`<prefix>_temp`) goes once it is empty.
        try:
            os.rmdir(os.path.dirname(checkpoint_format.checkpoint_file(found[0])))
        except OSError:
            pass


def _merge_kernel(node: Any, kctx: Any) -> Callable[..., None]:
    delete_old_dirs = bool(node.attrs["delete_old_dirs"])
    allow_missing = bool(node.attrs["allow_missing_files"])

    def merge(checkpoint_prefixes: Any, destination_prefix: Any) -> None:
        merge_files(_texts(checkpoint_prefixes), _text(destination_prefix),
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
