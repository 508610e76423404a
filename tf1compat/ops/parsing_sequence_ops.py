"""Parsing serialized `tf.train.SequenceExample` protos: `tf.io.parse_single_sequence_example`
and `tf.io.parse_sequence_example` (one `ParseSequenceExampleV2` op with TF's attrs).

The Example family's shared pieces (feature kinds and checks, TF's sparse and dense output
layouts, `_Params`) are in parsing_ops.py; the batched layout in _parse_batch.py.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Tuple

import numpy as np
import torch
from google.protobuf.message import DecodeError

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.op_def import Int, TypeList, declare
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape
from tf1compat.ops._parse_batch import (batch_dense_context, batch_dense_list, batch_lengths,
                                        batch_sparse, combine_batch, to_value)
from tf1compat.ops.parsing_ops import (_KIND_OF, _TYPE_TEXT, FixedLenFeature,
                                       FixedLenSequenceFeature, VarLenFeature, _check_kind,
                                       _dense_output, _Params, _shape_text, _sparse_output,
                                       _strings, _values_array, assert_scalar, stack_rows)

__all__ = ["parse_single_sequence_example", "parse_sequence_example"]


def _sequence_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    a = node.attrs
    c_sparse_types = [D.as_dtype(t) for t in a["context_sparse_types"]]
    c_dense_types = [D.as_dtype(t) for t in a["Tcontext_dense"]]
    c_dense_shapes = [as_shape(s) for s in a["context_dense_shapes"]]
    f_sparse_types = [D.as_dtype(t) for t in a["feature_list_sparse_types"]]
    f_dense_types = [D.as_dtype(t) for t in a["feature_list_dense_types"]]
    f_dense_shapes = [as_shape(s) for s in a["feature_list_dense_shapes"]]

    def keys(value: Any, n: int) -> List[str]:
        return [k.decode() for k in _strings(value)] if n else []

    def run_one(serialized: Any, debug_name: Any, c_sparse: Any, c_dense: Any, c_ragged: Any,
                f_sparse: Any, f_dense: Any, f_ragged: Any, assumed_empty: Any,
                *c_defaults: Any) -> List[Any]:
        from tf1compat.serialization.example_decode import decode_sequence_example
        names = _strings(debug_name) if not isinstance(debug_name, bytes) and \
            np.size(debug_name) else []
        name = names[0].decode() if names else "<unknown>"
        try:
            context, lists = decode_sequence_example(serialized)
        except (DecodeError, ValueError, IndexError, UnicodeDecodeError):
            raise errors.InvalidArgumentError(None, None, "Could not parse example input, "
                                                          f"value: '{serialized!r:.200}'") \
                from None
        flags = assumed_empty.reshape(-1).tolist() if isinstance(assumed_empty, torch.Tensor) \
            else list(np.asarray(assumed_empty).reshape(-1))
        empty_ok = {k for k, flag in zip(keys(f_dense, len(f_dense_types)), flags) if flag}
        outputs: List[Any] = []
        parsed = [(name, context)]
        parts = []
        for key, dtype in zip(keys(c_sparse, len(c_sparse_types)), c_sparse_types):
            found = context.get(key)
            if found is None or found[0] == 0:
                per = _values_array(_KIND_OF[dtype], [], dtype)
            else:
                _check_kind(found[0], dtype, name, key, 0)
                per = _values_array(found[0], found[1], dtype)
            parts.append(_sparse_output([per], False, dtype))
        outputs += [p[0] for p in parts] + [p[1] for p in parts] + [p[2] for p in parts]
        for key, dtype, shape, default in zip(keys(c_dense, len(c_dense_types)), c_dense_types,
                                              c_dense_shapes, c_defaults):
            outputs.append(_dense_output(parsed, key, dtype, shape, default, ()))
        parts = []
        for key, dtype in zip(keys(f_sparse, len(f_sparse_types)), f_sparse_types):
            steps = lists.get(key, [])
            per = []
            for kind, values in steps:
                if kind == 0:
                    per.append(_values_array(_KIND_OF[dtype], [], dtype))
                    continue
                _check_kind(kind, dtype, name, key, 0)
                per.append(_values_array(kind, values, dtype))
            parts.append(_sparse_output(per, True, dtype))
        outputs += [p[0] for p in parts] + [p[1] for p in parts] + [p[2] for p in parts]
        lengths = []
        for key, dtype, shape in zip(keys(f_dense, len(f_dense_types)), f_dense_types,
                                     f_dense_shapes):
            dims = shape.as_list()
            size = int(np.prod(dims)) if dims else 1
            steps = lists.get(key)
            if steps is None:
                if key not in empty_ok:
                    raise errors.InvalidArgumentError(
                        None, None, f"Name: {name}, Feature list '{key}' is required but "
                                    "could not be found.  Did you mean to include it in "
                                    "feature_list_dense_missing_assumed_empty or "
                                    "feature_list_dense_defaults?")
                steps = []
            rows = []
            for t, (kind, values) in enumerate(steps):
                if kind != 0:
                    _check_kind(kind, dtype, name, key, t)
                arr = _values_array(kind if kind else _KIND_OF[dtype],
                                    [] if values is None else values, dtype)
                if len(arr) != size:
                    raise errors.InvalidArgumentError(
                        None, None, f"Name: {name}, Key: {key}, Index: {t}.  Number of "
                                    f"{_TYPE_TEXT[_KIND_OF[dtype]]} values != expected.  "
                                    f"values size: {len(arr)} but output shape: "
                                    f"{_shape_text(dims)}")
                rows.append(arr.reshape(dims))
            outputs.append(to_value(stack_rows(rows, dims, dtype), dtype))
            lengths.append(torch.tensor(len(rows), dtype=torch.int64))
        outputs += lengths
        return outputs

    groups = [(batch_sparse, c_sparse_types, [1] * len(c_sparse_types)),
              (batch_dense_context, c_dense_types, c_dense_shapes),
              (batch_sparse, f_sparse_types, [2] * len(f_sparse_types)),
              (batch_dense_list, f_dense_types, f_dense_shapes),
              (batch_lengths, f_dense_types, f_dense_shapes)]

    def run(serialized: Any, debug_name: Any, *rest: Any) -> Any:
        records = None if isinstance(serialized, bytes) else np.asarray(serialized, dtype=object)
        if records is None or records.ndim == 0:
            one = serialized if records is None else bytes(records[()])
            outputs = run_one(one, debug_name, *rest)
        else:
            # A batch (tf.io.parse_sequence_example): each example parsed alone, then
            # TF's batched layout (a leading batch index, lists padded to the longest).
            names = [] if isinstance(debug_name, bytes) or not np.size(debug_name) else \
                _strings(debug_name)
            per = [run_one(bytes(r), names[i:i + 1] if len(names) else [], *rest)
                   for i, r in enumerate(records.reshape(-1))]
            outputs = combine_batch(per, groups)
        return tuple(outputs) if len(outputs) != 1 else outputs[0]
    return run


def _sequence_shape(ctx: Any) -> List[TensorShape]:
    a = ctx.attrs
    # A vector of examples (parse_sequence_example) adds a leading batch dimension.
    batch = [] if ctx.rank(0) == 0 else [ctx.shape(0).as_list()[0] if ctx.rank(0) else None]
    k = len(batch)
    out: List[TensorShape] = []
    nc, nf = a["Ncontext_sparse"], a["Nfeature_list_sparse"]
    out += [TensorShape([None, 1 + k])] * nc + [TensorShape([None])] * nc + \
        [TensorShape([1 + k])] * nc
    out += [TensorShape(batch).concatenate(as_shape(s)) for s in a["context_dense_shapes"]]
    out += [TensorShape([None, 2 + k])] * nf + [TensorShape([None])] * nf + \
        [TensorShape([2 + k])] * nf
    out += [TensorShape(batch + [None]).concatenate(as_shape(s))
            for s in a["feature_list_dense_shapes"]]
    out += [TensorShape(batch)] * a["Nfeature_list_dense"]
    return out


declare("ParseSequenceExampleV2",
        inputs=["serialized: string", "debug_name: string", "context_sparse_keys: string",
                "context_dense_keys: string", "context_ragged_keys: string",
                "feature_list_sparse_keys: string", "feature_list_dense_keys: string",
                "feature_list_ragged_keys: string",
                "feature_list_dense_missing_assumed_empty: bool",
                "context_dense_defaults: Tcontext_dense"],
        outputs=["context_sparse_indices: Ncontext_sparse * int64",
                 "context_sparse_values: context_sparse_types",
                 "context_sparse_shapes: Ncontext_sparse * int64",
                 "context_dense_values: Tcontext_dense",
                 "feature_list_sparse_indices: Nfeature_list_sparse * int64",
                 "feature_list_sparse_values: feature_list_sparse_types",
                 "feature_list_sparse_shapes: Nfeature_list_sparse * int64",
                 "feature_list_dense_values: feature_list_dense_types",
                 "feature_list_dense_lengths: Nfeature_list_dense * int64"],
        attrs={"Ncontext_sparse": Int(0), "Tcontext_dense": TypeList(),
               "context_sparse_types": TypeList(), "context_ragged_value_types": [],
               "context_ragged_split_types": [], "context_dense_shapes": [],
               "Nfeature_list_sparse": Int(0), "Nfeature_list_dense": Int(0),
               "feature_list_dense_types": TypeList(), "feature_list_sparse_types": TypeList(),
               "feature_list_ragged_value_types": [], "feature_list_ragged_split_types": [],
               "feature_list_dense_shapes": []},
        shape=_sequence_shape, kernel=_sequence_kernel, grad="unregistered", cpu_only=True,
        doc="Parses one serialized tf.train.SequenceExample.")


def _sequence_params(context_features: Any, sequence_features: Any) -> Tuple[Any, Any]:
    if not (context_features or sequence_features):
        raise ValueError("Both `context_features` and `sequence_features` argument are None, "
                         "but at least one should have values.")
    return (_Params.from_features(context_features or {}, (VarLenFeature, FixedLenFeature)),
            _Params.from_features(sequence_features or {},
                                  (VarLenFeature, FixedLenSequenceFeature)))


def _parse_sequence(serialized: Tensor, debug_name: Any, context: Any, lists: Any,
                    name: Optional[str] = None) -> tuple:
    """One ParseSequenceExampleV2 (under the caller's scope; TF names the inner scope and
    the op `name` too) -> (context dict, sequence dict, lengths of the dense lists)."""
    with name_scope(name, "ParseSequenceExample", [serialized, debug_name]):
        empty = [k in lists.missing_assumed_empty for k in lists.dense_keys]
        # TF's order and names: the dense defaults first in this scope, then the op's
        # own inputs (debug_name and the keys) converted in the op's scope.
        defaults = context.dense_defaults_vec()
        op = apply_op("ParseSequenceExampleV2", [
            serialized, debug_name, context.sparse_keys, context.dense_keys, [],
            lists.sparse_keys, lists.dense_keys, [], empty, defaults], {
            "Ncontext_sparse": len(context.sparse_keys),
            "context_sparse_types": context.sparse_types,
            "Tcontext_dense": context.dense_types,
            "context_dense_shapes": context.dense_shapes,
            "Nfeature_list_sparse": len(lists.sparse_keys),
            "Nfeature_list_dense": len(lists.dense_keys),
            "feature_list_sparse_types": lists.sparse_types,
            "feature_list_dense_types": lists.dense_types,
            "feature_list_dense_shapes": lists.dense_shapes}, name=name)
    outs = list(op.outputs)
    nc, nd = len(context.sparse_keys), len(context.dense_keys)
    ctx_sparse = [SparseTensor(outs[i], outs[nc + i], outs[2 * nc + i]) for i in range(nc)]
    pos = 3 * nc
    ctx_dense = outs[pos:pos + nd]
    pos += nd
    nf, nfd = len(lists.sparse_keys), len(lists.dense_keys)
    fl_sparse = [SparseTensor(outs[pos + i], outs[pos + nf + i], outs[pos + 2 * nf + i])
                 for i in range(nf)]
    pos += 3 * nf
    fl_dense = outs[pos:pos + nfd]
    lengths = outs[pos + nfd:pos + 2 * nfd]
    context_out = dict(zip(context.sparse_keys + context.dense_keys, ctx_sparse + ctx_dense))
    lists_out = dict(zip(lists.sparse_keys + lists.dense_keys, fl_sparse + fl_dense))
    return context_out, lists_out, dict(zip(lists.dense_keys, lengths))


def parse_single_sequence_example(serialized: Any, context_features: Any = None,
                                  sequence_features: Any = None, example_name: Any = None,
                                  name: Optional[str] = None) -> tuple:
    """`tf.io.parse_single_sequence_example` -> (context dict, sequence dict)."""
    context, lists = _sequence_params(context_features, sequence_features)
    with name_scope(name, "ParseSingleSequenceExample", [serialized, example_name]):
        # TF 2.x's compat.v1 wrapper calls the v2 function, whose scope holds the check.
        with name_scope(None, "ParseSingleExample", [serialized, example_name]):
            serialized = assert_scalar(convert_to_tensor(serialized, name="serialized"),
                                       "serialized")
        debug_name = [] if example_name is None else [example_name]
        context_out, lists_out, _ = _parse_sequence(serialized, debug_name, context, lists)
    return context_out, lists_out


def parse_sequence_example(serialized: Any, context_features: Any = None,
                           sequence_features: Any = None, example_names: Any = None,
                           name: Optional[str] = None) -> tuple:
    """`tf.io.parse_sequence_example`: a vector of serialized SequenceExamples ->
    (context dict, sequence dict, lengths of the dense feature lists); sequences are
    padded to the longest in the batch, sparse outputs gain a leading batch index (a
    scalar input parses as parse_single_sequence_example does, as in TF)."""
    context, lists = _sequence_params(context_features, sequence_features)
    with name_scope(name, "ParseSequenceExample", [serialized, example_names]):
        serialized = convert_to_tensor(serialized, name="serialized")
        debug_name = [] if example_names is None else example_names
        return _parse_sequence(serialized, debug_name, context, lists, name)
