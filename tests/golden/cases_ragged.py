"""Golden cases: tf.RaggedTensor and tf.ragged (factories, properties, conversions,
indexing, validation, Session.run fetch/feed, elementwise math): values, dtypes, static
shapes, error classes and TF's build-time messages."""

from tests.golden.harness import catch


def _run(tf, fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def _shape(rt):
    return None if rt.shape.ndims is None else rt.shape.as_list()


def _value(tf, rt):
    v = _run(tf, rt)
    return {"list": v.to_list(), "splits": list(v.nested_row_splits), "flat": v.flat_values,
            "ragged_rank": v.ragged_rank, "static": _shape(rt), "dtype": rt.dtype.name,
            "splits_dtype": rt.row_splits.dtype.name}


def case_factories(tf):
    RT = tf.RaggedTensor
    vals = [1, 2, 3, 4, 5]
    out = {
        "splits": RT.from_row_splits(vals, [0, 2, 2, 5]),
        "splits32": RT.from_row_splits(vals, tf.constant([0, 2, 2, 5], tf.int32)),
        "lengths": RT.from_row_lengths(vals, [2, 0, 3, 0]),
        "rowids": RT.from_value_rowids(vals, [0, 0, 2, 2, 2]),
        "rowids_nrows": RT.from_value_rowids(vals, [0, 0, 2, 2, 2], nrows=5),
        "starts": RT.from_row_starts(vals, [0, 1, 1]),
        "limits": RT.from_row_limits(vals, [1, 3, 5]),
        "nested": RT.from_nested_row_splits([1., 2., 3., 4., 5.], [[0, 2, 3], [0, 1, 3, 5]]),
        "nested_lengths": RT.from_nested_row_lengths(vals, [[1, 2], [2, 1, 2]]),
        "matrix_values": RT.from_row_splits([[1, 2], [3, 4], [5, 6]], [0, 1, 3]),
        "strings": RT.from_row_lengths(["a", "bc", "d"], [1, 0, 2]),
    }
    return {k: _value(tf, v) for k, v in sorted(out.items())}


def case_from_tensor_and_sparse(tf):
    RT = tf.RaggedTensor
    dense = [[1, 0, 0], [2, 3, 0], [0, 0, 0]]
    out = {
        "padding": RT.from_tensor(dense, padding=0),
        "lengths": RT.from_tensor(dense, lengths=[1, 5, 0]),
        "inner_padding": RT.from_tensor([[[1, 2], [0, 0]], [[3, 0], [0, 0]]], padding=[0, 0]),
        "int32": RT.from_tensor(dense, padding=0, row_splits_dtype=tf.int32),
        "sparse": RT.from_sparse(tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1., 2., 3.],
                                                 [4, 3])),
    }
    plain = [_run(tf, RT.from_tensor(dense)).to_list(),
             _run(tf, RT.from_tensor([[[1, 2], [3, 0]], [[5, 0], [0, 0]]],
                                     ragged_rank=2)).to_list(),
             _run(tf, RT.from_tensor([[[1, 2], [3, 0]], [[5, 0], [0, 0]]], padding=0,
                                     ragged_rank=2)).to_list()]
    errors = {
        "both": catch(lambda: RT.from_tensor(dense, lengths=[1], padding=0), message=True),
        "rank0": catch(lambda: RT.from_tensor(dense, ragged_rank=0), message=True),
        "sparse3": catch(lambda: RT.from_sparse(tf.SparseTensor([[0, 0, 0]], [1.], [1, 1, 1])),
                         message=True),
    }
    return {"values": {k: _value(tf, v) for k, v in sorted(out.items())}, "errors": errors,
            "plain": plain}


def case_properties(tf):
    rt = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    nested = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    props = [rt.values, rt.flat_values, rt.row_splits, rt.row_lengths(), rt.value_rowids(),
             rt.nrows(), rt.nrows(out_type=tf.int32), rt.row_starts(), rt.row_limits(),
             rt.bounding_shape(), rt.bounding_shape(axis=1),
             nested.flat_values, list(nested.nested_row_splits), nested.bounding_shape(),
             list(nested.nested_row_lengths())]
    return {"vals": _run(tf, props), "ragged_rank": [rt.ragged_rank, nested.ragged_rank],
            "shapes": [_shape(rt), _shape(nested)],
            "dtypes": [t.dtype.name for t in (rt.row_lengths(), rt.value_rowids(), rt.nrows(),
                                              rt.bounding_shape())],
            "row_lengths2": _value(tf, nested.row_lengths(axis=2)),
            "empty_bounding": _run(tf, tf.ragged.constant([[], []]).bounding_shape())}


def case_to_tensor_and_sparse(tf):
    rt = tf.ragged.constant([[1, 2], [], [3, 4, 5]])
    nested = tf.ragged.constant([[[1., 2.], [3.]], [], [[4., 5., 6.]]])
    strings = tf.ragged.constant([["a"], ["b", "c"]])
    inner = tf.RaggedTensor.from_row_splits([[1, 2], [3, 4], [5, 6]], [0, 1, 3])
    dense = [rt.to_tensor(), rt.to_tensor(default_value=-1), nested.to_tensor(),
             strings.to_tensor(), strings.to_tensor("?"), inner.to_tensor(),
             inner.to_tensor(default_value=[7, 8])]
    sparse = [rt.to_sparse(), nested.to_sparse(), inner.to_sparse()]
    return {"dense": _run(tf, dense), "sparse": _run(tf, sparse),
            "dense_ranks": [t.shape.ndims for t in dense],
            "dense_dtypes": [t.dtype.name for t in dense],
            "sparse_dtypes": [s.values.dtype.name for s in sparse]}


def case_getitem(tf):
    rt = tf.ragged.constant([[1, 2, 3], [], [4, 5], [6]])
    nested = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6], [7]]])
    inner = tf.RaggedTensor.from_row_splits([[1, 2], [3, 4], [5, 6]], [0, 1, 3])
    dense = {"row": rt[0], "row_neg": rt[-2], "elem": rt[2, 1],
             "nested_elem": nested[2, 0], "inner_row": inner[1], "inner_elem": inner[1, 0, 1]}
    ragged = {"rows": rt[1:3], "rows_neg": rt[-2:], "step": rt[::2], "head": rt[:, :2],
              "tail": rt[:, 1:], "last": rt[:, -1:], "mid": rt[:, 1:2], "all": rt[:, :],
              "nested_row": nested[0], "nested_cols": nested[:, :1],
              "inner_rows": inner[1:], "inner_slice": inner[:, :, 1:]}
    return {"dense": _run(tf, dense),
            "ragged": {k: _value(tf, v) for k, v in sorted(ragged.items())},
            "column": catch(lambda: rt[1:, 0], message=True),
            "inner_column": catch(lambda: inner[:, 0, 1], message=True),
            "too_many": catch(lambda: rt[0, 0, 0]),
            "inner_ragged": _value(tf, nested[:, 1:, :1])}


def case_validation(tf):
    RT = tf.RaggedTensor
    vals = [1, 2, 3, 4, 5]
    bad = {
        "splits_not_zero": lambda: _run(tf, RT.from_row_splits(vals, [1, 3, 5])),
        "splits_decreasing": lambda: _run(tf, RT.from_row_splits(vals, [0, 3, 2, 5])),
        "splits_short": lambda: _run(tf, RT.from_row_splits(vals, [0, 2, 4])),
        "lengths_negative": lambda: _run(tf, RT.from_row_lengths(vals, [1, 5, -1])),
        "lengths_sum": lambda: _run(tf, RT.from_row_lengths(vals, [1, 2])),
        "rowids_unsorted": lambda: _run(tf, RT.from_value_rowids(vals, [0, 1, 1, 0, 2])),
        "rowids_count": lambda: _run(tf, RT.from_value_rowids(vals, [0, 1])),
        "starts": lambda: _run(tf, RT.from_row_starts(vals, [0, 3, 2])),
        "limits": lambda: _run(tf, RT.from_row_limits(vals, [2, 1, 5])),
    }
    messages = {
        "nrows_static": lambda: RT.from_value_rowids(vals, [0, 0, 1, 2, 5], nrows=3),
        "splits_rank": lambda: RT.from_row_splits([1, 2, 3], [[0, 1]]),
        "splits_dtype": lambda: RT.from_row_splits([1, 2, 3], [0., 1.]),
        "private": lambda: RT(tf.constant([1]), tf.constant([0, 1], tf.int64)),
        "to_list_graph": lambda: RT.from_row_splits([1], [0, 1]).to_list(),
    }
    return {"run": {k: catch(f) for k, f in sorted(bad.items())},
            "build": {k: catch(f, message=True) for k, f in sorted(messages.items())},
            "unchecked": _value(tf, RT.from_row_splits(vals, [0, 2, 5], validate=False))}


def case_session_feed(tf):
    p = tf.ragged.placeholder(tf.float32, ragged_rank=1, value_shape=[2])
    p2 = tf.ragged.placeholder(tf.int64, ragged_rank=2, value_shape=[])
    value = tf.ragged.constant_value([[[1., 2.]], [], [[3., 4.], [5., 6.]]], ragged_rank=1)
    value2 = tf.ragged.constant_value([[[1], [2, 3]], [[4]]], dtype=tf.int64)
    fetched = _run(tf, [p, p.to_tensor(), p2 * 2], {p: value, p2: value2})
    flat = tf.placeholder(tf.int32, [None])
    splits = tf.placeholder(tf.int64, [None])
    rt = tf.RaggedTensor.from_row_splits(flat, splits)
    by_parts = _run(tf, rt.row_lengths(), {flat: [1, 2, 3], splits: [0, 3, 3]})
    return {"fetched": [fetched[0].to_list(), fetched[1], fetched[2].to_list()],
            "types": [type(fetched[0]).__name__, type(fetched[2]).__name__],
            "shapes": [_shape(p), _shape(p2), _shape(rt)], "by_parts": by_parts,
            "value": [value.to_list(), value.ragged_rank, str(value.dtype),
                      value2.to_list(), list(value2.shape)],
            "value_str": str(tf.ragged.constant_value([[1, 2], [3]]))}


def case_constant(tf):
    out = {
        "ints": tf.ragged.constant([[1, 2], [3]]),
        "floats": tf.ragged.constant([[1.5], [], [2.5, 3.5]]),
        "dtype": tf.ragged.constant([[1, 2], [3]], dtype=tf.float64),
        "nested": tf.ragged.constant([[[1, 2], [3]], [[4]]]),
        "rank1_inner": tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1),
        "inner_shape": tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], inner_shape=(2,)),
        "empty": tf.ragged.constant([[], []]),
        "strings": tf.ragged.constant([["a", "b"], ["c"]]),
        "int32_splits": tf.ragged.constant([[1], [2, 3]], row_splits_dtype=tf.int32),
    }
    dense = tf.ragged.constant([1, 2, 3])
    return {"values": {k: _value(tf, v) for k, v in sorted(out.items())},
            "dense": [isinstance(dense, tf.Tensor), _run(tf, dense)],
            "mixed_depth": catch(lambda: tf.ragged.constant([[1, [2]]]), message=True),
            "value": tf.ragged.constant_value([[1, 2], [3]]).to_list(),
            "value_dtype": str(tf.ragged.constant_value([[1.0], []]).flat_values.dtype)}


def case_range_and_segments(tf):
    out = {"vec": tf.ragged.range([3, 0, 5], [5, 3, 6]), "limit_only": tf.ragged.range(4),
           "deltas": tf.ragged.range([0, 10], [7, 4], [3, -2]),
           "floats": tf.ragged.range([0., 1.], [1., 2.], 0.5),
           "empty_row": tf.ragged.range([5, 1], [2, 3]),
           "int64": tf.ragged.range([1, 2], 4, dtype=tf.int64)}
    ids = [tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5]),
           tf.ragged.row_splits_to_segment_ids([0, 1, 3], out_type=tf.int32),
           tf.ragged.segment_ids_to_row_splits([0, 0, 2]),
           tf.ragged.segment_ids_to_row_splits([0, 0, 2], num_segments=5),
           tf.ragged.segment_ids_to_row_splits([1, 1], out_type=tf.int32)]
    return {"range": {k: _value(tf, v) for k, v in sorted(out.items())},
            "ids": _run(tf, ids), "id_dtypes": [t.dtype.name for t in ids]}


def case_elementwise(tf):
    a = tf.ragged.constant([[1., 2.], [], [3.]])
    b = tf.ragged.constant([[10., 20.], [], [30.]])
    c = tf.ragged.constant([[1., 2., 3.]])
    out = {"add": a + b, "radd": 1. + a, "sub": a - 1., "mul": a * b, "div": b / a,
           "neg": -a, "abs": abs(-a), "pow": a ** 2., "lt": a < 2., "map":
           tf.ragged.map_flat_values(tf.multiply, a, b),
           "map_fn": tf.ragged.map_flat_values(tf.nn.relu, a - 2.),
           "map_kw": tf.ragged.map_flat_values(tf.cast, a, dtype=tf.int32)}
    return {"values": {k: _value(tf, v) for k, v in sorted(out.items())},
            "mismatch": catch(lambda: _run(tf, a + c))}


def case_strings_split(tf):
    out = {"v1": tf.strings.split(["a b c", "d", ""], result_type="RaggedTensor"),
           "sep": tf.strings.split(["a,b,,c", "d"], sep=",", result_type="RaggedTensor"),
           "string_split": tf.string_split(["a b", "c"], result_type="RaggedTensor"),
           "v2": tf.compat.v2.strings.split(["a b", "c d e"])}
    scalar = tf.strings.split("x y", result_type="RaggedTensor")
    return {"values": {k: _value(tf, v) for k, v in sorted(out.items())},
            "scalar": _run(tf, scalar),
            "maxsplit": _run(tf, tf.strings.split(["a b c"], maxsplit=1,
                                                  result_type="RaggedTensor")).to_list(),
            "bad_type": catch(lambda: tf.strings.split(["a"], result_type="Dense"))}
