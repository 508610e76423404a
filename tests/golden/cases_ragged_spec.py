"""Golden cases: tf.RaggedTensorSpec (TF 2.21: shape, dtype, ragged_rank defaulting to
rank - 1, row_splits_dtype, equality and hashing, is_compatible_with specs and values,
most_specific_compatible_type, from_value, value_type, argument errors), a RaggedTensor's
`_type_spec`, and tf.data refusing RaggedTensor elements."""

from tests.golden.harness import catch


def case_spec(tf):
    S = tf.RaggedTensorSpec
    spec = S([2, None, 3], tf.int32, 1, tf.int32)
    rt = tf.ragged.constant([[1, 2], [3]])
    return {"repr": catch(lambda: repr(S([2, None], tf.float32, 1))),
            "str": catch(lambda: str(spec)),
            "props": catch(lambda: [spec.shape.as_list(), spec.dtype.name, spec.ragged_rank,
                                    spec.row_splits_dtype.name]),
            "default_rr": catch(lambda: S([2, None, None], tf.string).ragged_rank),
            "rank_1": catch(lambda: S([2], tf.float32).ragged_rank),
            "rr_0": catch(lambda: repr(S([2, 3], tf.int32, 0))),
            "eq": catch(lambda: S([2, None], tf.float32) == S([2, None], tf.float32)),
            "ne_shape": catch(lambda: S([2, None], tf.float32) == S([3, None], tf.float32)),
            "ne_dtype": catch(lambda: S([2, None], tf.float32) != S([2, None], tf.int32)),
            "ne_splits": catch(lambda: S([2, None]) == S([2, None], row_splits_dtype=tf.int32)),
            "hash": catch(lambda: hash(S([2, None])) == hash(S([2, None]))),
            "compat": catch(lambda: S([None, None], tf.float32).is_compatible_with(
                S([2, None], tf.float32))),
            "compat_rr": catch(lambda: S([None, None, None], tf.float32, 1).is_compatible_with(
                S([2, None, None], tf.float32, 2))),
            "compat_value": catch(lambda: S([None, None], tf.int32).is_compatible_with(rt)),
            "compat_value_shape": catch(lambda: S([3, None], tf.int32).is_compatible_with(rt)),
            "compat_dtype": catch(lambda: S([None, None], tf.float32).is_compatible_with(
                S([None, None], tf.int32))),
            "compat_rr0_tensor": catch(lambda: S([2, 3], tf.int32, 0).is_compatible_with(
                tf.zeros([2, 3], tf.int32))),
            "compat_dense_spec": catch(lambda: S([None, None], tf.int32).is_compatible_with(
                tf.TensorSpec([2, 2], tf.int32))),
            "most_specific": catch(lambda: repr(S([2, None, 3], tf.int32)
                                                .most_specific_compatible_type(
                                                    S([4, None, 3], tf.int32)))),
            "from_value": catch(lambda: repr(S.from_value(rt))),
            "from_value_nested": catch(lambda: repr(S.from_value(tf.ragged.constant(
                [[[1, 2], [3]]], row_splits_dtype=tf.int32)))),
            "type_spec": catch(lambda: repr(rt._type_spec)),
            "value_type": catch(lambda: S([2, None]).value_type.__name__),
            "value_type_rr0": catch(lambda: S([2], ragged_rank=0).value_type.__name__)}


def case_spec_errors(tf):
    S = tf.RaggedTensorSpec
    return {"no_rank": catch(lambda: S()), "unknown_rank": catch(lambda: S(None, tf.int32)),
            "rr_too_big": catch(lambda: S([2, None], tf.float32, 2)),
            "rr_not_int": catch(lambda: S([2, None], tf.float32, 1.5)),
            "incompatible": catch(lambda: S([2, None], tf.int32).most_specific_compatible_type(
                S([2, None], tf.float32)))}
