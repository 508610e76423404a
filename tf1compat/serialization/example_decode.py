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

from tf1compat.serialization.messages import Example, Feature, SequenceExample

__all__ = ["decode_features", "decode_named_features", "decode_sequence_example", "KIND_BYTES", "KIND_FLOAT",
           "KIND_INT64", "KIND_NONE"]

KIND_BYTES, KIND_FLOAT, KIND_INT64, KIND_NONE = 1, 2, 3, 0


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


def decode_named_features(serialized: bytes,
                          keys: Sequence[str]) -> List[Optional[Tuple[int, Any]]]:
    """(kind, values) of the named features of a serialized Example, None where one is
    absent: parse_single_example's fast path reads only the features it outputs."""
    features = Example.FromString(serialized).features.feature
    return [_feature(features[key]) if key in features else None for key in keys]


def decode_sequence_example(serialized: bytes
                            ) -> Tuple[Dict[str, Tuple[int, Any]],
                                       Dict[str, List[Tuple[int, Any]]]]:
    """(context features, feature lists) of a serialized SequenceExample."""
    example = SequenceExample.FromString(serialized)
    context = {key: _feature(f) for key, f in example.context.feature.items()}
    lists = {key: [_feature(f) for f in feature_list.feature]
             for key, feature_list in example.feature_lists.feature_list.items()}
    return context, lists
