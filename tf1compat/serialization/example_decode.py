"""Decoding serialized `tf.train.Example` / `SequenceExample` records for the parsing ops.

parse_example runs once per record, so it reads the parsed protobuf message straight
into {feature name: (kind, values)}: kind 1 bytes (a list of bytes), 2 float (a
float32 array), 3 int64 (a list of ints), 0 a Feature with no list set. Float lists are
taken from the packed bytes of the list (one numpy view instead of a Python float per
value).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from tf1compat.serialization.messages import (Example, ExampleFloatList, Feature,
                                              SequenceExample)

__all__ = ["decode_features", "FixedFeatureDecoder", "decode_sequence_example", "KIND_BYTES",
           "KIND_FLOAT", "KIND_INT64", "KIND_NONE"]

KIND_BYTES, KIND_FLOAT, KIND_INT64, KIND_NONE = 1, 2, 3, 0
_LITTLE_FLOAT32 = np.dtype("<f4")      # the wire's floats (a dtype object: no parsing per use)


def _floats(float_list: Any) -> np.ndarray:
    """The values of a FloatList as a float32 array, from its packed serialization."""
    data = float_list.SerializeToString()    # tag 0x0a, varint byte length, the floats
    if not data:
        return np.zeros(0, np.float32)
    pos = 1
    while data[pos] & 0x80:
        pos += 1
    return np.frombuffer(data, "<f4", offset=pos + 1)


def _feature(feature: Feature) -> Tuple[int, Any]:
    kind = feature.WhichOneof("kind")
    if kind == "float_list":
        return KIND_FLOAT, _floats(feature.float_list)
    if kind == "int64_list":
        return KIND_INT64, list(feature.int64_list.value)
    if kind == "bytes_list":
        return KIND_BYTES, list(feature.bytes_list.value)
    return KIND_NONE, None


def decode_features(serialized: bytes) -> Dict[str, Tuple[int, Any]]:
    """{feature name: (kind, values)} of a serialized Example (DecodeError if malformed)."""
    example = Example.FromString(serialized)
    return {key: _feature(feature) for key, feature in example.features.feature.items()}


class FixedFeatureDecoder:
    """parse_single_example's common case, decoded with the least work per record: the
    named features of one Example, each a list of the given kind and exactly `size`
    values (`size` > 0). `decode` returns one value per feature - a writable float32 or
    int64 numpy array of shape `dims`, or for bytes the bytes object itself (`dims` ())
    or an object array - or None when any feature is absent or of another kind or size
    (the caller's general path then reports it). A malformed record raises DecodeError.

    Nothing is copied through Python objects: a feature's list is read as the other
    kinds' lists are empty (no WhichOneof), a FloatList from its packed serialization,
    whose header (tag and byte length) is known in advance for the expected size.
    """

    def __init__(self, specs: Sequence[Tuple[str, int, Tuple[int, ...]]]):
        self._specs = []
        for key, kind, dims in specs:
            size = int(np.prod(dims)) if dims else 1
            if size <= 0:
                raise ValueError("FixedFeatureDecoder needs features with values")
            # A FloatList of `size` values serializes as this header and the floats.
            header = ExampleFloatList(value=[0.0] * size).SerializeToString()[:-4 * size] \
                if kind == KIND_FLOAT else b""
            self._specs.append((key, kind, tuple(dims), size, header))

    def decode(self, serialized: bytes) -> Optional[List[Any]]:
        features = Example.FromString(serialized).features.feature
        out: List[Any] = []
        append = out.append
        for key, kind, dims, size, header in self._specs:
            if key not in features:
                return None
            feature = features[key]
            if kind == KIND_FLOAT:
                data = feature.float_list.SerializeToString()
                if len(data) != len(header) + 4 * size or not data.startswith(header):
                    return None
                values = np.frombuffer(data, _LITTLE_FLOAT32, offset=len(header))
                values = values.astype(np.float32)     # a writable, native-order copy
                append(values if len(dims) == 1 else values.reshape(dims))
                continue
            values = feature.int64_list.value if kind == KIND_INT64 else \
                feature.bytes_list.value
            if len(values) != size:
                return None
            if kind == KIND_INT64:
                append(np.array(values[0], np.int64) if not dims else
                       np.fromiter(values, np.int64, size).reshape(dims))
            elif not dims:
                append(values[0])
            else:
                strings = np.empty(size, dtype=object)
                strings[:] = list(values)
                append(strings.reshape(dims))
        return out


def decode_sequence_example(serialized: bytes
                            ) -> Tuple[Dict[str, Tuple[int, Any]],
                                       Dict[str, List[Tuple[int, Any]]]]:
    """(context features, feature lists) of a serialized SequenceExample."""
    example = SequenceExample.FromString(serialized)
    context = {key: _feature(f) for key, f in example.context.feature.items()}
    lists = {key: [_feature(f) for f in feature_list.feature]
             for key, feature_list in example.feature_lists.feature_list.items()}
    return context, lists
