"""`op_def_registry.get(name).attr` against TF 2.21's OpDefs for every op type tf1compat
declares (tests/fixtures/op_def/tf_op_def_attrs.json, scripts/record_op_def_attrs.py):
the attr types libraries read (tensorflow_hub, graph tools), "list(int)" for strides,
"func" for a dataset's map function, "tensor" for Const's value, ..."""

from __future__ import annotations

import json
import os

from tf1compat.internal import op_def_registry

_FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "op_def",
                        "tf_op_def_attrs.json")

# StringToHashBucketStrong's `key` is a list(int) where 7 of TF's ops name a string attr
# `key`; its declaration gives no kind, so the view says "string".
_KNOWN_TYPE_DIFFERENCES = {("StringToHashBucketStrong", "key")}


def _tf_attrs() -> dict:
    with open(_FIXTURE) as f:
        return json.load(f)


def test_attr_types_are_tfs_for_every_declared_op_type():
    wrong = []
    for name, tf_attrs in _tf_attrs().items():
        if tf_attrs is None:
            continue    # not a TF op type (contrib, Horovod, tf1compat's own)
        ours = {a.name: a.type for a in op_def_registry.get(name).attr}
        for attr_name, attr_type, _, _ in tf_attrs:
            if attr_name in ours and ours[attr_name] != attr_type and \
                    (name, attr_name) not in _KNOWN_TYPE_DIFFERENCES:
                wrong.append((name, attr_name, ours[attr_name], attr_type))
    assert wrong == []


def test_untyped_declarations_read_as_tf_does():
    """Attrs declared as None take TF's kind: the ones tensorflow_hub and graph tools
    read first."""
    tf_attrs = _tf_attrs()
    for name in ("Conv2D", "MaxPool", "Const", "MapDataset", "IteratorV2", "FIFOQueueV2",
                 "If", "While", "Squeeze", "TopK", "VarHandleOp", "DepthToSpace",
                 "ParseExample", "TensorArrayV3", "PartitionedCall"):
        expected = {a[0]: a[1] for a in tf_attrs[name]}
        ours = {a.name: a.type for a in op_def_registry.get(name).attr}
        assert {k: ours[k] for k in expected if k in ours} == \
            {k: v for k, v in expected.items() if k in ours}, name
    conv = {a.name: a.type for a in op_def_registry.get("Conv2D").attr}
    assert (conv["strides"], conv["padding"], conv["T"]) == ("list(int)", "string", "type")


def test_attr_names_are_tfs_but_for_the_known_extensions():
    """Ops whose attr sets differ from TF's (tf1compat's own While/SymbolicGradient
    attrs, attrs newer TF added) are exactly these."""
    differ = set()
    for name, tf_attrs in _tf_attrs().items():
        if tf_attrs is not None and \
                {a.name for a in op_def_registry.get(name).attr} != {a[0] for a in tf_attrs}:
            differ.add(name)
    assert differ == {"BatchMatMul", "IgnoreErrorsDataset", "MaxPoolGrad",
                      "ParallelMapDatasetV2", "RewriteDataset", "SymbolicGradient",
                      "TensorDataset", "TensorListGetItem", "While", "_Arg"}


def test_count_attr_minimums_are_tfs():
    """Count attrs (`N: int >= 0`, `N: int >= 1`) carry TF's bound, 0 included."""
    from tf1compat.framework import op_def as _op_def
    wrong = []
    for name, tf_attrs in _tf_attrs().items():
        if tf_attrs is None:
            continue
        declared = _op_def.get_op_def(name).attrs
        ours = {a.name: (a.has_minimum, a.minimum) for a in op_def_registry.get(name).attr}
        for attr_name, _, has_minimum, minimum in tf_attrs:
            if isinstance(declared.get(attr_name), _op_def.Int) and \
                    ours[attr_name] != (has_minimum, minimum):
                wrong.append((name, attr_name, ours[attr_name], (has_minimum, minimum)))
    assert wrong == []
    parse = {a.name: a for a in op_def_registry.get("ParseExample").attr}
    assert (parse["Ndense"].has_minimum, parse["Ndense"].minimum) == (True, 0)
