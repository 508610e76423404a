"""`tf.raw_ops` (tf1compat/api/raw_ops.py): TF's calling conventions, messages and output
structures, and the op declarations checked against TF's recorded raw op table.

Values of every op through tf.raw_ops are checked against real TF by the op rows
(tests/test_op_goldens.py, graph and eager); the messages here were read from TF 2.21.
"""

from __future__ import annotations

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.api._tf_raw_ops import RAW_OPS
from tf1compat.framework.missing import MissingAPIError, UnimplementedAPIError
from tf1compat.framework.op_def import REQUIRED, Int, Type, TypeList, get_op_def
from tests.golden.op_harness import declared_op_types


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()


def test_keyword_only_with_tfs_message():
    a = tf.constant([[1.0]])
    with pytest.raises(TypeError) as e:
        tf.raw_ops.MatMul(a, a)
    assert str(e.value) == (
        "mat_mul only takes keyword args (possible keys: ['a', 'b', 'transpose_a', "
        "'transpose_b', 'grad_a', 'grad_b', 'name']). Please pass these args as kwargs "
        "instead.")


def test_missing_and_unknown_keywords_as_python_says():
    a = tf.constant([[1.0]])
    with pytest.raises(TypeError, match=r"^mat_mul\(\) missing 1 required positional "
                                        r"argument: 'b'$"):
        tf.raw_ops.MatMul(a=a)
    with pytest.raises(TypeError, match=r"^split\(\) missing 2 required positional "
                                        r"arguments: 'axis' and 'num_split'$"):
        tf.raw_ops.Split(value=a)
    with pytest.raises(TypeError, match=r"^mat_mul\(\) got an unexpected keyword "
                                        r"argument 'c'$"):
        tf.raw_ops.MatMul(a=a, b=a, c=a)


def test_renamed_arguments_and_name():
    x = tf.ones([2, 3])
    s = tf.raw_ops.Sum(input=x, axis=[1], keep_dims=True, name="total")
    assert s.name == "total:0" and s.op.type == "Sum"
    assert [t.name for t in s.op.inputs][1].startswith("total/")
    squeezed = tf.raw_ops.Squeeze(input=tf.ones([1, 2]), axis=[0])
    assert squeezed.op.get_attr("squeeze_dims") == [0]


def test_output_structures():
    x = tf.constant([3, 1, 3])
    unique = tf.raw_ops.Unique(x=x)
    assert type(unique).__name__ == "Unique" and unique._fields == ("y", "idx")
    assert unique.idx.name == "Unique:1"
    parts = tf.raw_ops.Split(axis=0, value=tf.ones([4]), num_split=2)
    assert isinstance(parts, list) and [p.name for p in parts] == ["Split:0", "Split:1"]
    one = tf.raw_ops.Split(axis=0, value=tf.ones([4]), num_split=1)
    assert isinstance(one, list) and len(one) == 1
    sparse = tf.raw_ops.SparseSplit(split_dim=np.int64(0), indices=[[0, 0], [1, 1]],
                                    values=[1.0, 2.0], shape=np.array([2, 2], np.int64),
                                    num_split=2)
    assert sparse._fields == ("output_indices", "output_values", "output_shape")
    assert all(isinstance(f, list) and len(f) == 2 for f in sparse)
    noop = tf.raw_ops.NoOp()
    assert isinstance(noop, tf.Operation) and noop.type == "NoOp"
    with tf.Session() as sess:
        assert sess.run(unique).idx.tolist() == [0, 1, 0]


def test_attr_checks_as_tfs_op_helper():
    a = tf.constant([[1.0]])
    cases = [
        (lambda: tf.raw_ops.MatMul(a=a, b=a, transpose_a=1), TypeError,
         "Expected bool for argument 'transpose_a' not 1."),
        (lambda: tf.raw_ops.Split(axis=0, value=a, num_split="2"), TypeError,
         "Expected int for argument 'num_split' not '2'."),
        (lambda: tf.raw_ops.Cast(x=a, DstT="floaty"), TypeError,
         "Expected DataType for argument 'DstT' not 'floaty'."),
        (lambda: tf.raw_ops.Split(axis=0, value=a, num_split=0), ValueError,
         "Attr 'num_split' of 'Split' Op passed 0 less than minimum 1."),
        (lambda: tf.raw_ops.Conv2D(input=tf.ones([1, 2, 2, 1]), filter=tf.ones([1, 1, 1, 1]),
                                   strides=[1, 1, 1, 1], padding="FULL"), ValueError,
         "Attr 'padding' of 'Conv2D' Op passed string 'FULL' not in: \"SAME\", \"VALID\", "
         "\"EXPLICIT\"."),
        (lambda: tf.raw_ops.Conv2D(input=tf.ones([1, 2, 2, 1]), filter=tf.ones([1, 1, 1, 1]),
                                   strides=3, padding="SAME"), TypeError,
         "Expected list for 'strides' argument to 'conv2d' Op, not 3."),
        (lambda: tf.raw_ops.AddN(inputs=a), TypeError,
         "Expected list for 'inputs' argument to 'add_n' Op, not "),
        (lambda: tf.raw_ops.Const(value=[1.0], dtype=tf.float32), TypeError,
         "Don't know how to convert [1.0] to a TensorProto for argument 'value'."),
    ]
    for call, cls, message in cases:
        with pytest.raises(cls) as e:
            call()
        assert str(e.value).startswith(message), str(e.value)


def test_attrs_tf1compat_lacks_only_at_tfs_default():
    components = [tf.ones([2])]
    dataset = tf.raw_ops.TensorDataset(components=components, output_shapes=[[2]],
                                       metadata="")
    assert dataset.dtype == tf.variant
    with pytest.raises(NotImplementedError, match="supports only the default value of attr "
                                                  "'metadata'"):
        tf.raw_ops.TensorDataset(components=components, output_shapes=[[2]], metadata="m")


def test_names_tf1compat_cannot_call():
    with pytest.raises(UnimplementedAPIError, match="tf.raw_ops.Abort is a TensorFlow op "
                                                    "that tf1compat does not implement"):
        tf.raw_ops.Abort
    assert not hasattr(tf.raw_ops, "Abort")
    assert issubclass(UnimplementedAPIError, NotImplementedError)
    with pytest.raises(UnimplementedAPIError, match="use tf.cond instead"):
        tf.raw_ops.If
    with pytest.raises(UnimplementedAPIError, match="tf.data"):
        tf.raw_ops.MapDataset
    with pytest.raises(MissingAPIError, match="Did you mean tf.raw_ops.MatMul"):
        tf.raw_ops.MatMull
    with pytest.raises(AttributeError):
        tf.raw_ops._Arg                     # tf1compat's own op types are not TF raw ops
    with pytest.raises(NotImplementedError, match=r"^Op MatrixExponential is not available "
                                                  r"in GraphDef version \d+\. It has been "
                                                  r"removed in version 27\."):
        tf.raw_ops.MatrixExponential(input=tf.ones([2, 2]))


def test_dir_lists_callable_ops():
    names = dir(tf.raw_ops)
    assert "MatMul" in names and "StridedSliceAssign" in names
    assert "_Arg" not in names and "If" not in names and "Abort" not in names
    assert set(names) <= set(RAW_OPS)


def test_installed_as_tensorflow_raw_ops():
    import subprocess
    import sys
    code = ("import tf1compat; tf1compat.install(); import tensorflow as tf; "
            "from tensorflow.raw_ops import MatMul; "
            "import tensorflow.compat.v1 as v1; assert v1.raw_ops.MatMul is MatMul; "
            "print(MatMul(a=[[2.0]], b=[[3.0]]).name)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "MatMul:0"


# -- the declarations against TF's table ---------------------------------------------------

# Where a declaration knowingly differs from TF's raw op, and why.
KNOWN_DIFFERENCES = {
    "ParseExampleV2": "no ragged outputs (tf1compat takes no ragged keys)",
    "ParseSequenceExampleV2": "no ragged outputs (tf1compat takes no ragged keys)",
    "SymbolicGradient": "tf1compat's gradient op (ys, xs, grad_ys; autograd), not TF's "
                        "function-call op",
    "While": "tf1compat's region op (Python body; captures as inputs)",
    "IgnoreErrorsDataset": "extra metadata attr",
    "RewriteDataset": "extra metadata attr",
}


def _declared_tf_ops():
    return [t for t in declared_op_types() if t in RAW_OPS and t not in KNOWN_DIFFERENCES]


def test_declarations_use_tfs_argument_and_output_names():
    wrong = {}
    for op_type in _declared_tf_ops():
        op_def = get_op_def(op_type)
        _, inputs, _, _, outputs = RAW_OPS[op_type]
        tf_inputs = [i.rstrip("*").split("=")[-1] for i in inputs]
        tf_outputs = [o.rstrip("*") for o in outputs]
        if [a.name for a in op_def.inputs] != tf_inputs or \
                [a.name for a in op_def.outputs] != tf_outputs:
            wrong[op_type] = ([a.name for a in op_def.inputs], tf_inputs)
    assert not wrong, wrong


def test_declarations_use_tfs_attrs_and_defaults():
    from tf1compat.api._raw_op_builder import _tf_default
    wrong = {}
    for op_type in _declared_tf_ops():
        op_def = get_op_def(op_type)
        _, _, attrs, inferred, _ = RAW_OPS[op_type]
        tf_attrs = {a[0].split("=")[-1]: a[1] for a in attrs}
        for name, kind in op_def.attrs.items():
            if name not in tf_attrs and name not in inferred:
                wrong[f"{op_type}.{name}"] = "not a TF attr"
                continue
            tf_default = tf_attrs.get(name, ...)
            mine = kind.default if isinstance(kind, (Type, TypeList, Int)) else kind
            if tf_default is ... or mine is REQUIRED or mine is None:
                continue            # required by TF: a raw op call always gives it
            expected = _tf_default(tf_default)
            if isinstance(expected, tuple):
                continue            # a TensorProto default (ImageSummary's bad_color)
            if isinstance(expected, tf.DType):
                same = tf.as_dtype(mine) == expected
            elif isinstance(expected, list):
                same = list(mine) == expected
            elif hasattr(mine, "as_list"):      # shapes
                same = expected is None and mine.rank is None
            else:
                same = mine == expected
            if not same:
                wrong[f"{op_type}.{name}"] = (mine, expected)
    assert not wrong, wrong
