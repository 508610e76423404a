"""Parsing serialized `tf.train.Example` protos: `tf.parse_example`, `tf.parse_single_example`
with `FixedLenFeature`, `VarLenFeature`, `FixedLenSequenceFeature` and `SparseFeature`
(SequenceExamples: parsing_sequence_ops.py, on the helpers here).

The wrappers build TF's graph: features sorted by key into sparse and dense keys, TF's
default-value constants (`key_<name>`, `padding_<name>`, `Const`), one `ParseExampleV2`
op with TF's attrs, SparseTensors from its outputs. The
kernels decode the protos with serialization/example_decode.py and build the outputs with
TF's layout (VarLen: indices [batch, position], dense_shape [batch, max length]; dense
FixedLenSequence: rows padded to the longest with the default) and TF's error messages.
Ragged features are not supported.
"""

from __future__ import annotations

import collections
import re
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch
from google.protobuf.message import DecodeError

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.op_def import Int, Type, TypeList, declare
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape
from tf1compat.ops._parse_batch import to_value
from tf1compat.ops.array_ops import rank
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.logging_ops import Assert
from tf1compat.ops.math_ops import equal

__all__ = ["VarLenFeature", "FixedLenFeature", "FixedLenSequenceFeature", "SparseFeature",
           "parse_example", "parse_single_example"]

KIND_BYTES, KIND_FLOAT, KIND_INT64 = 1, 2, 3
_KIND_OF = {D.string: KIND_BYTES, D.float32: KIND_FLOAT, D.int64: KIND_INT64}
_TYPE_TEXT = {KIND_BYTES: "string", KIND_FLOAT: "float", KIND_INT64: "int64"}


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A variable-length feature, parsed to a SparseTensor."""


class FixedLenFeature(collections.namedtuple(
        "FixedLenFeature", ["shape", "dtype", "default_value"])):
    """A fixed-shape feature, parsed to a dense Tensor (`default_value` when missing)."""

    def __new__(cls, shape: Any, dtype: Any, default_value: Any = None) -> "FixedLenFeature":
        return super().__new__(cls, shape, dtype, default_value)


class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """A sequence of fixed-shape items, parsed to a dense Tensor [length] + shape."""

    def __new__(cls, shape: Any, dtype: Any, allow_missing: bool = False,
                default_value: Any = None) -> "FixedLenSequenceFeature":
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


class SparseFeature(collections.namedtuple(
        "SparseFeature", ["index_key", "value_key", "dtype", "size", "already_sorted"])):
    """A sparse feature from an index feature and a value feature."""

    def __new__(cls, index_key: Any, value_key: Any, dtype: Any, size: Any,
                already_sorted: bool = False) -> "SparseFeature":
        return super().__new__(cls, index_key, value_key, dtype, size, already_sorted)


# -- parameters (TF's _ParseOpParams) ----------------------------------------------------------

class _Params:
    def __init__(self) -> None:
        self.sparse_keys: List[str] = []
        self.sparse_types: List[D.DType] = []
        self.dense_keys: List[str] = []
        self.dense_types: List[D.DType] = []
        self.dense_shapes: List[TensorShape] = []
        self.dense_defaults: Dict[str, Any] = {}
        self.missing_assumed_empty: List[str] = []

    @classmethod
    def from_features(cls, features: Dict[str, Any], allowed: tuple) -> "_Params":
        params = cls()
        for key in sorted(features):
            feature = features[key]
            if not isinstance(feature, allowed):
                raise ValueError(f"Unsupported {type(feature).__name__} {feature} for key "
                                 f"'{key}'")
            params._add(key, feature)
        return params

    @property
    def num_features(self) -> int:
        return len(self.sparse_keys) + len(self.dense_keys)

    def _add_sparse_key(self, key: str, dtype: Any) -> None:
        dtype = D.as_dtype(dtype)
        if key in self.sparse_keys:
            original = self.sparse_types[self.sparse_keys.index(key)]
            if original != dtype:
                raise ValueError(f"Conflicting type {original} vs {dtype} for feature {key}.")
        else:
            self.sparse_keys.append(key)
            self.sparse_types.append(dtype)

    def _add(self, key: str, feature: Any) -> None:
        if isinstance(feature, VarLenFeature):
            if not feature.dtype:
                raise ValueError(f"Missing type for feature {key}. Received feature="
                                 f"{feature}")
            self._add_sparse_key(key, feature.dtype)
        elif isinstance(feature, SparseFeature):
            index_keys = [feature.index_key] if isinstance(feature.index_key, str) \
                else list(feature.index_key)
            if len(index_keys) != 1:
                raise NotImplementedError("SparseFeature with several index keys is not "
                                          "supported by tf1compat.")
            for index_key in sorted(index_keys):
                self._add_sparse_key(index_key, D.int64)
            self._add_sparse_key(feature.value_key, feature.dtype)
        elif isinstance(feature, FixedLenFeature):
            if not feature.dtype:
                raise ValueError(f"Missing type for feature {key}. Received feature="
                                 f"{feature}.")
            if feature.shape is None:
                raise ValueError(f"Missing shape for feature {key}. Received feature="
                                 f"{feature}.")
            shape = as_shape(feature.shape)
            if shape.rank and shape.as_list()[0] is None:
                raise ValueError(f"First dimension of shape for feature {key} unknown. "
                                 "Consider using FixedLenSequenceFeature. Received "
                                 f"feature={feature}.")
            if not shape.is_fully_defined():
                raise ValueError(f"All dimensions of shape for feature {key} need to be "
                                 f"known but received {feature.shape!s}.")
            self.dense_keys.append(key)
            self.dense_shapes.append(shape)
            self.dense_types.append(D.as_dtype(feature.dtype))
            if feature.default_value is not None:
                self.dense_defaults[key] = feature.default_value
        elif isinstance(feature, FixedLenSequenceFeature):
            if not feature.dtype:
                raise ValueError(f"Missing type for feature {key}. Received feature="
                                 f"{feature}.")
            if feature.shape is None:
                raise ValueError(f"Missing shape for feature {key}. Received feature="
                                 f"{feature}.")
            self.dense_keys.append(key)
            self.dense_shapes.append(as_shape(feature.shape))
            self.dense_types.append(D.as_dtype(feature.dtype))
            if feature.allow_missing:
                self.missing_assumed_empty.append(key)
            if feature.default_value is not None:
                self.dense_defaults[key] = feature.default_value
        else:
            raise ValueError(f"Invalid feature {key}:{feature}.")
        for dtype in self.sparse_types + self.dense_types:
            if dtype not in _KIND_OF:
                raise ValueError(f"Unsupported dtype {dtype.name} for feature {key}: only "
                                 "tf.float32, tf.int64 and tf.string can be parsed.")

    def dense_defaults_vec(self) -> List[Tensor]:
        from tf1compat.ops.array_ops import reshape
        out = []
        for key, shape, dtype in zip(self.dense_keys, self.dense_shapes, self.dense_types):
            default = self.dense_defaults.get(key)
            safe = re.sub(r"[^A-Za-z0-9_.\-/]", "_", key)
            if shape.rank and shape.as_list()[0] is None:
                if default is None:
                    default = convert_to_tensor("" if dtype == D.string else 0, dtype=dtype)
                else:
                    default = reshape(convert_to_tensor(default, dtype=dtype,
                                                        name="padding_" + safe), [])
            elif default is None:
                default = constant([], dtype=dtype)
            elif not isinstance(default, Tensor):
                default = reshape(convert_to_tensor(default, dtype=dtype, name="key_" + safe),
                                  shape)
            out.append(default)
        return out


def _prepend_none_dimension(features: Dict[str, Any]) -> Dict[str, Any]:
    out = dict(features)
    for key, feature in features.items():
        if isinstance(feature, FixedLenSequenceFeature):
            if not feature.allow_missing:
                raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing "
                                 "to be True.")
            out[key] = FixedLenSequenceFeature([None] + list(as_shape(feature.shape).as_list()),
                                               feature.dtype, feature.allow_missing,
                                               feature.default_value)
    return out


# -- run time ----------------------------------------------------------------------------------

def _strings(value: Any) -> List[bytes]:
    if isinstance(value, bytes):
        return [value]
    return [bytes(v) for v in np.asarray(value, dtype=object).reshape(-1)]


def _decode(serialized: bytes) -> Dict[str, Tuple[int, Any]]:
    """{feature name: (kind, values)} of a serialized Example; TF's error if it is
    malformed."""
    from tf1compat.serialization.example_decode import decode_features
    try:
        return decode_features(serialized)
    except (DecodeError, ValueError, IndexError, UnicodeDecodeError):
        raise _malformed(serialized) from None


def _malformed(serialized: bytes) -> errors.OpError:
    return errors.InvalidArgumentError(None, None, f"Could not parse example input, value: "
                                                   f"'{serialized!r:.200}'")


def _values_array(kind: int, values: Any, dtype: D.DType) -> Any:
    """Feature values as a numpy array of the output dtype (object array of bytes)."""
    if kind == KIND_BYTES:
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out
    if kind == KIND_FLOAT:
        return np.asarray(values, dtype=np.float32)
    return np.asarray(values, dtype=np.int64)


def _check_kind(kind: int, dtype: D.DType, name: Optional[str], key: str,
                index: int) -> None:
    """TF's type mismatch error (`name` None: the single-example message form)."""
    want = _KIND_OF[dtype]
    if kind != want:
        where = f"Key: {key}." if name is None else f"Name: {name}, Key: {key}, Index: {index}."
        raise errors.InvalidArgumentError(
            None, None, f"{where}  Data types don't match. Data type: {_TYPE_TEXT[kind]} but "
                        f"expected type: {_TYPE_TEXT[want]}")


_LIST_NAMES = {KIND_BYTES: "bytes_list", KIND_FLOAT: "float_list", KIND_INT64: "int64_list"}


def _default_array(value: Any, dtype: D.DType) -> np.ndarray:
    if dtype == D.string:
        return np.asarray(value if isinstance(value, np.ndarray) else [value], dtype=object)
    if isinstance(value, torch.Tensor):
        return value.detach().cpu().numpy()
    return np.asarray(value)


def _sparse_output(per_example: List[np.ndarray], batched: bool, dtype: D.DType
                   ) -> Tuple[Any, Any, Any]:
    counts = [len(v) for v in per_example]
    total = sum(counts)
    longest = max(counts) if counts else 0
    if batched:
        rows = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
        cols = np.concatenate([np.arange(c, dtype=np.int64) for c in counts]) if counts \
            else np.zeros(0, np.int64)
        indices = np.stack([rows, cols], 1) if total else np.zeros((0, 2), np.int64)
        shape = np.asarray([len(counts), longest], np.int64)
    else:
        indices = np.arange(total, dtype=np.int64).reshape(-1, 1)
        shape = np.asarray([longest], np.int64)
    if dtype == D.string:
        values = np.empty(total, dtype=object)
        if total:
            values[:] = [v for arr in per_example for v in arr]
    else:
        values = np.concatenate(per_example) if per_example else \
            np.zeros(0, dtype.as_numpy_dtype)
        values = values.astype(dtype.as_numpy_dtype)
    return torch.from_numpy(indices), to_value(values, dtype), torch.from_numpy(shape)


def _parse_example_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    from tf1compat.framework.constant_value import constant_value
    return parse_example_function(node, constant_value(node.inputs[3]))


def parse_example_function(node: Any, static_dense_keys: Any) -> Callable[..., Any]:
    """ParseExampleV2's kernel for `node`'s attrs (also serves TF 1.x's ParseExample and
    ParseSingleExample, ops/legacy_ops.py); `static_dense_keys`, the dense keys when known
    at graph build, enables the one-Example fast path."""
    num_sparse = node.attrs["num_sparse"]
    sparse_types = [D.as_dtype(t) for t in node.attrs["sparse_types"]]
    dense_types = [D.as_dtype(t) for t in node.attrs["Tdense"]]
    dense_shapes = [as_shape(s) for s in node.attrs["dense_shapes"]]

    single_example = _single_example_fast_path(node, static_dense_keys, num_sparse,
                                               dense_types, dense_shapes)

    def run(serialized: Any, names: Any, sparse_keys: Any, dense_keys: Any, ragged_keys: Any,
            *defaults: Any) -> tuple:
        if single_example is not None and isinstance(serialized, bytes):
            out = single_example(serialized, defaults)
            if out is not None:
                return out
        batched = not isinstance(serialized, bytes) and np.ndim(serialized) > 0
        batch_shape = tuple(np.shape(serialized)) if batched else ()
        records = _strings(serialized)
        example_names = _strings(names) if not isinstance(names, bytes) and np.size(names) \
            else []
        s_keys = [k.decode() for k in _strings(sparse_keys)] if num_sparse else []
        d_keys = [k.decode() for k in _strings(dense_keys)] if dense_types else []
        parsed = []
        for i, record in enumerate(records):
            name = example_names[i].decode() if i < len(example_names) else "<unknown>"
            # A single example's errors do not name it (TF's FastParseSingleExample).
            parsed.append((name if batched else None, _decode(record)))
        outputs: List[Any] = []
        sparse_parts = []
        for key, dtype in zip(s_keys, sparse_types):
            per_example = []
            for i, (name, features) in enumerate(parsed):
                found = features.get(key)
                if found is None or found[0] == 0:
                    per_example.append(_values_array(_KIND_OF[dtype], [], dtype))
                    continue
                _check_kind(found[0], dtype, name, key, i)
                per_example.append(_values_array(found[0], found[1], dtype))
            sparse_parts.append(_sparse_output(per_example, batched, dtype))
        outputs.extend(p[0] for p in sparse_parts)
        outputs.extend(p[1] for p in sparse_parts)
        outputs.extend(p[2] for p in sparse_parts)
        for key, dtype, shape, default in zip(d_keys, dense_types, dense_shapes, defaults):
            fast = None if batched else _single_dense(parsed[0][1], key, dtype, shape, default)
            outputs.append(fast if fast is not None else
                           _dense_output(parsed, key, dtype, shape, default, batch_shape))
        return tuple(outputs) if len(outputs) != 1 else outputs[0]
    return run


def _single_example_fast_path(node: Any, keys: Any, num_sparse: int,
                              dense_types: List[D.DType],
                              dense_shapes: List[TensorShape]
                              ) -> Optional[Callable[[bytes, tuple], Optional[tuple]]]:
    """parse_single_example's common case, with what the general path works out per run
    (key names, shapes, kinds) worked out once: one Example, only fixed-length dense
    features with constant keys, each present with the right type and size. It returns
    None for anything else, which then takes the general path (and its errors)."""
    from tf1compat.serialization.example_decode import FixedFeatureDecoder
    if num_sparse or not dense_types or any(s.rank is None or not s.is_fully_defined()
                                            for s in dense_shapes):
        return None
    if keys is None:
        return None
    specs = []
    for key, dtype, shape in zip(np.asarray(keys, dtype=object).reshape(-1), dense_types,
                                 dense_shapes):
        dims = tuple(shape.as_list())
        if dims and int(np.prod(dims)) == 0:
            return None
        name = key.decode() if isinstance(key, bytes) else str(key)
        specs.append((name, _KIND_OF[dtype], dims))
    decoder = FixedFeatureDecoder(specs)
    # Numeric values become tensors, unless only queue enqueues read them: a queue keeps
    # numpy arrays as they are (ops/_queues.py) and stacks them the cheapest way, and a
    # numpy array is several times cheaper to make and free than a tensor (an input
    # pipeline makes one per feature per record).
    as_tensors = not _only_enqueued(node)
    numeric = [kind != KIND_BYTES and as_tensors for _, kind, _ in specs]
    from_numpy = torch.from_numpy

    def run(serialized: bytes, defaults: tuple) -> Optional[tuple]:
        try:
            values = decoder.decode(serialized)
        except (DecodeError, ValueError, IndexError, UnicodeDecodeError):
            raise _malformed(serialized) from None
        if values is None:
            return None
        out = [from_numpy(v) if n else v for v, n in zip(values, numeric)]
        return out[0] if len(out) == 1 else tuple(out)
    return run


_ENQUEUE_TYPES = frozenset(["QueueEnqueueV2", "QueueEnqueueManyV2"])


def _only_enqueued(node: Any) -> bool:
    """Whether every reader of the op's outputs is a queue enqueue (a graph op's outputs
    know their consumers; other nodes say nothing, hence False)."""
    readers = []
    for output in node.outputs:
        consumers = getattr(output, "consumers", None)
        if consumers is None:
            return False
        readers.extend(consumers())
    return bool(readers) and all(op.type in _ENQUEUE_TYPES for op in readers)


def _single_dense(features: Dict[str, Any], key: str, dtype: D.DType, shape: TensorShape,
                  default: Any) -> Any:
    """A present, well-formed fixed-length feature of one example, built directly (the
    common case, without numpy staging); None sends everything else the general way."""
    dims = shape.as_list()
    if dims and dims[0] is None:
        return None
    found = features.get(key)
    if found is None or found[0] != _KIND_OF[dtype]:
        return None
    values = found[1]
    size = 1
    for d in dims:
        size *= d
    if len(values) != size or size == 0:
        return None
    if dtype == D.string:
        if not dims:
            return values[0]
        out = np.empty(size, dtype=object)
        out[:] = values
        return out.reshape(dims)
    if dtype == D.float32:
        return torch.from_numpy(np.array(values, dtype=np.float32).reshape(dims))
    # (numpy then from_numpy: several times faster than torch.tensor on a Python list)
    return torch.from_numpy(np.array(values[0] if not dims else values,
                                     dtype=np.int64).reshape(dims))


def _dense_output(parsed: list, key: str, dtype: D.DType, shape: TensorShape, default: Any,
                  batch_shape: tuple) -> Any:
    dims = shape.as_list()
    variable = bool(dims) and dims[0] is None
    default_arr = _default_array(default, dtype)
    rows = []
    if variable:
        stride = int(np.prod(dims[1:])) if len(dims) > 1 else 1
        for i, (name, features) in enumerate(parsed):
            found = features.get(key)
            if found is None or found[0] == 0:
                rows.append(_values_array(_KIND_OF[dtype], [], dtype).reshape([0] + dims[1:]))
                continue
            _check_kind(found[0], dtype, name, key, i)
            values = _values_array(found[0], found[1], dtype)
            if len(values) % stride:
                raise errors.InvalidArgumentError(
                    None, None, f"Name: {name}, Key: {key}, Index: {i}.  Number of values "
                                f"is not a multiple of stride length. Saw {len(values)} "
                                f"values but output shape is: {_shape_text(dims)}")
            rows.append(values.reshape([len(values) // stride] + dims[1:]))
        longest = max((len(r) for r in rows), default=0)
        pad = default_arr.reshape(-1)[0] if default_arr.size else \
            (b"" if dtype == D.string else 0)
        out = np.empty([len(rows), longest] + dims[1:],
                       dtype=object if dtype == D.string else dtype.as_numpy_dtype)
        out[...] = pad
        for i, r in enumerate(rows):
            out[i, :len(r)] = r
        return to_value(out.reshape(batch_shape + out.shape[1:]), dtype)
    size = int(np.prod(dims)) if dims else 1
    for i, (name, features) in enumerate(parsed):
        found = features.get(key)
        if found is None or found[0] == 0 or (found[1] is not None and len(found[1]) == 0):
            if default_arr.size == 0:
                where = "" if name is None else f"Name: {name}, "
                raise errors.InvalidArgumentError(
                    None, None, f"{where}Feature: {key} (data type: "
                                f"{_TYPE_TEXT[_KIND_OF[dtype]]}) is required but could not "
                                "be found.")
            rows.append(default_arr.reshape(dims))
            continue
        _check_kind(found[0], dtype, name, key, i)
        values = _values_array(found[0], found[1], dtype)
        if len(values) != size and name is None:
            raise errors.InvalidArgumentError(
                None, None, f"Key: {key}.  Can't parse serialized Example: Some "
                            f"{_LIST_NAMES[found[0]]} slice was not parsed.")
        if len(values) != size:
            raise errors.InvalidArgumentError(
                None, None, f"Name: {name}, Key: {key}, Index: {i}.  Number of "
                            f"{_TYPE_TEXT[found[0]]} values != expected.  Values size: "
                            f"{len(values)} but output shape: {_shape_text(dims)}")
        rows.append(values.reshape(dims))
    out = stack_rows(rows, dims, dtype)
    return to_value(out.reshape(batch_shape + tuple(dims)), dtype)


def stack_rows(rows: List[np.ndarray], dims: List[int], dtype: D.DType) -> np.ndarray:
    """Rows of one dense feature, each of shape `dims`, as one [len(rows)] + dims array
    (an object array for strings)."""
    if dtype == D.string:
        out = np.empty([len(rows)] + dims, dtype=object)
        for i, r in enumerate(rows):
            out[i] = r
        return out
    return np.stack(rows).astype(dtype.as_numpy_dtype) if rows else \
        np.zeros([0] + dims, dtype.as_numpy_dtype)


def _shape_text(dims: Sequence[Any]) -> str:
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def _parse_example_shape(ctx: Any) -> List[TensorShape]:
    serialized = ctx.shape(0)
    batch = serialized.as_list() if serialized.rank is not None else None
    n = ctx.attrs["num_sparse"]
    out: List[TensorShape] = []
    rank = None if batch is None else len(batch) + 1
    out += [TensorShape([None, rank]) for _ in range(n)]
    out += [TensorShape([None]) for _ in range(n)]
    out += [TensorShape([rank]) for _ in range(n)]
    for shape in ctx.attrs["dense_shapes"]:
        shape = as_shape(shape)
        out.append(TensorShape(None) if batch is None else TensorShape(batch).concatenate(shape))
    return out


declare("ParseExampleV2",
        inputs=["serialized: string", "names: string", "sparse_keys: string",
                "dense_keys: string", "ragged_keys: string", "dense_defaults: Tdense"],
        outputs=["sparse_indices: num_sparse * int64", "sparse_values: sparse_types",
                 "sparse_shapes: num_sparse * int64", "dense_values: Tdense"],
        attrs={"Tdense": TypeList(), "num_sparse": Int(0), "sparse_types": TypeList(),
               "ragged_value_types": [], "ragged_split_types": [], "dense_shapes": []},
        shape=_parse_example_shape, kernel=_parse_example_kernel, grad="unregistered",
        cpu_only=True, doc="Parses a batch (or one) of serialized tf.train.Example protos.")


def _parse_example_raw(serialized: Any, names: Any, params: _Params,
                       name: Optional[str]) -> Dict[str, Any]:
    if params.num_features == 0:
        raise ValueError("Must provide at least one feature key.")
    with name_scope(name, "ParseExample", [serialized, names]):
        names = [] if names is None else names
        serialized = convert_to_tensor(serialized, name="serialized")
        defaults = params.dense_defaults_vec()
        op = apply_op("ParseExampleV2",
                      [serialized, names, params.sparse_keys, params.dense_keys, [], defaults],
                      {"num_sparse": len(params.sparse_keys),
                       "sparse_types": params.sparse_types,
                       "Tdense": params.dense_types, "dense_shapes": params.dense_shapes},
                      name=name)
    n = len(params.sparse_keys)
    outs = op._outputs
    sparse = [SparseTensor(outs[i], outs[n + i], outs[2 * n + i]) for i in range(n)]
    return dict(zip(params.sparse_keys + params.dense_keys, sparse + list(outs[3 * n:])))


def _composite(features: Dict[str, Any], outputs: Dict[str, Any]) -> Dict[str, Any]:
    """SparseFeatures from their index and value SparseTensors (TF's sparse_merge)."""
    out = dict(outputs)
    for key, feature in features.items():
        if isinstance(feature, SparseFeature):
            index_key = feature.index_key if isinstance(feature.index_key, str) \
                else feature.index_key[0]
            ids, values = outputs[index_key], outputs[feature.value_key]
            op = apply_op("_SparseFeatureMerge",
                          [ids.indices, ids.values, ids.dense_shape, values.values],
                          {"size": int(feature.size),
                           "already_sorted": bool(feature.already_sorted)},
                          name="SparseMerge")
            merged = SparseTensor(*op._outputs)
            merged._dense_shape_default = TensorShape(
                [ids.shape.as_list()[0] if ids.shape.rank else None, int(feature.size)]) \
                if ids.shape.rank == 2 else TensorShape([int(feature.size)])
            out[key] = merged
    for key, feature in features.items():
        if isinstance(feature, SparseFeature):
            for k in (feature.index_key, feature.value_key):
                if isinstance(k, str) and k not in features:
                    out.pop(k, None)
    return out


def _sparse_merge_kernel(node: Any, kctx: Any) -> Callable[..., tuple]:
    size = node.attrs["size"]
    presorted = node.attrs["already_sorted"]

    def run(indices: Any, ids: Any, shape: Any, values: Any) -> tuple:
        idx = indices.numpy()
        ids_np = ids.numpy()
        batched = idx.shape[1] == 2
        rows = idx[:, 0] if batched else np.zeros(len(ids_np), np.int64)
        order = np.arange(len(ids_np)) if presorted else np.lexsort((ids_np, rows))
        new_indices = np.stack([rows[order], ids_np[order]], 1) if batched else \
            ids_np[order].reshape(-1, 1)
        new_values = values[torch.from_numpy(order)] if isinstance(values, torch.Tensor) \
            else np.asarray(values, dtype=object)[order]
        dense = [int(shape[0]), size] if batched else [size]
        return (torch.from_numpy(new_indices.copy()), new_values,
                torch.tensor(dense, dtype=torch.int64))
    return run


declare("_SparseFeatureMerge",
        inputs=["indices: int64", "ids: int64", "shape: int64", "values: T"],
        outputs=["output_indices: int64", "output_values: T", "output_shape: int64"],
        attrs={"T": Type(), "size": 0, "already_sorted": False},
        shape=lambda ctx: [TensorShape([None, None]), TensorShape([None]),
                           TensorShape([None])],
        kernel=_sparse_merge_kernel, grad="none", cpu_only=True,
        doc="A SparseFeature's SparseTensor from its index and value features "
            "(TF builds it with sparse_merge).")


def parse_example(serialized: Any, features: Dict[str, Any], name: Optional[str] = None,
                  example_names: Any = None) -> Dict[str, Any]:
    """`tf.parse_example`: a batch of serialized Examples -> {key: Tensor/SparseTensor}."""
    if not features:
        raise ValueError(f"Argument `features` cannot be None or falsy. Got {features}")
    features = _prepend_none_dimension(features)
    params = _Params.from_features(features, (VarLenFeature, SparseFeature, FixedLenFeature,
                                              FixedLenSequenceFeature))
    return _composite(features, _parse_example_raw(serialized, example_names, params, name))


def parse_single_example(serialized: Any, features: Dict[str, Any],
                         name: Optional[str] = None, example_names: Any = None
                         ) -> Dict[str, Any]:
    """`tf.parse_single_example`: one serialized Example -> {key: Tensor/SparseTensor}."""
    if not features:
        raise ValueError("Invalid argument: features cannot be None.")
    with name_scope(name, "ParseSingleExample", [serialized, example_names]):
        serialized = assert_scalar(convert_to_tensor(serialized, name="serialized"),
                                   "serialized")
        return parse_example(serialized, features, None, example_names)


def assert_scalar(value: Tensor, name: str) -> Tensor:
    """TF's `parsing_ops._assert_scalar`: a tensor of unknown rank (a dequeued record, a
    placeholder without shape) gets a run-time rank check and a scalar static shape, so
    the parsed context features are scalars; a known rank other than 0 is a ValueError."""
    if value.shape.rank == 0:
        return value
    if value.shape.rank is not None:
        raise ValueError(f"Input {name} must be a scalar")
    check = Assert(equal(rank(value), 0), [f"Input {name} must be a scalar"],
                   name=f"{name.capitalize()}IsScalar")
    result = with_dependencies([check], value, name=f"{name}Dependencies")
    result.set_shape([])
    return result
