"""Golden cases: RaggedTensor elements in tf.data (TF1 graph mode): datasets sliced from
or holding a RaggedTensor, map functions taking and returning one, batching ragged
elements and variable-length dense ones into RaggedTensors (`batch`, `ragged_batch`,
`dense_to_ragged_batch`), `unbatch`, what TF refuses (`padded_batch` of ragged elements),
the element_spec and the legacy output_types/output_shapes/output_classes TF reports,
and the RaggedTensorValues Session.run gives for one-shot and initializable iterators
(`to_list()`, `flat_values`, `row_splits`)."""

import numpy as np


def _value(v):
    """A fetched element: a RaggedTensorValue as its class, list, flat values and splits."""
    if hasattr(v, "to_list"):
        return {"class": type(v).__name__, "list": v.to_list(), "flat_values": v.flat_values,
                "nested_row_splits": list(v.nested_row_splits), "ragged_rank": v.ragged_rank}
    if isinstance(v, tuple):
        return [_value(x) for x in v]
    if isinstance(v, dict):
        return {k: _value(x) for k, x in v.items()}
    return v


def _run_all(tf, nxt, n=None, init=None):
    """Session.run of `nxt` until OutOfRange (or n times)."""
    out = []
    with tf.Session() as sess:
        if init is not None:
            sess.run(init)
        while n is None or len(out) < n:
            try:
                out.append(_value(sess.run(nxt)))
            except tf.errors.OutOfRangeError:
                break
    return out


def _fetch(tf, dataset, n=None):
    nxt = tf.data.make_one_shot_iterator(dataset).get_next()
    kinds = [type(x).__name__.replace("SymbolicTensor", "Tensor")
             for x in (nxt if isinstance(nxt, tuple) else (nxt,))]
    return {"next_types": kinds, "values": _run_all(tf, nxt, n)}


def _class(c):
    return c.__name__ if isinstance(c, type) else repr(c)


def _describe(tf, dataset):
    classes = tf.data.get_output_classes(dataset)
    return {"spec": repr(dataset.element_spec),
            "types": repr(tf.data.get_output_types(dataset)),
            "shapes": repr(tf.data.get_output_shapes(dataset)),
            "classes": [_class(c) for c in tf.nest.flatten(classes)]}


def _both(tf, dataset, n=None):
    return {**_describe(tf, dataset), **_fetch(tf, dataset, n)}


def case_from_tensor_slices_ragged(tf):
    rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    return _both(tf, tf.data.Dataset.from_tensor_slices(rt))


def case_from_tensor_slices_ragged_rank_2(tf):
    rt = tf.ragged.constant([[[1.0], [2.0, 3.0]], [], [[4.0, 5.0, 6.0]]])
    return _both(tf, tf.data.Dataset.from_tensor_slices(rt))


def case_from_tensor_slices_ragged_value(tf):
    value = tf.ragged.RaggedTensorValue(np.array([1.5, 2.5, 3.5], np.float32),
                                        np.array([0, 2, 2, 3], np.int64))
    return _both(tf, tf.data.Dataset.from_tensor_slices(value))


def case_from_tensors_ragged(tf):
    rt = tf.ragged.constant([[1.5, 2.5], [], [3.5]])
    return _both(tf, tf.data.Dataset.from_tensors(rt))


def case_from_tensors_int32_splits(tf):
    rt = tf.RaggedTensor.from_row_splits(tf.constant([1, 2, 3]),
                                         tf.constant([0, 1, 3], tf.int32))
    return _both(tf, tf.data.Dataset.from_tensors(rt).repeat(2))


def case_map_returns_ragged(tf):
    dataset = tf.data.Dataset.range(1, 4).map(
        lambda x: tf.RaggedTensor.from_row_lengths(tf.range(x * 2), [x, x]))
    return _both(tf, dataset)


def case_map_over_ragged_elements(tf):
    rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    doubled = tf.data.Dataset.from_tensor_slices(rt).map(lambda r: r * 2)
    summed = tf.data.Dataset.from_tensor_slices(rt).map(lambda r: tf.reduce_sum(r))
    return {**_both(tf, doubled), "summed": _fetch(tf, summed)["values"]}


def case_map_ragged_to_ragged(tf):
    rt = tf.ragged.constant([[1, 2], [], [3]])
    dataset = tf.data.Dataset.from_tensors(rt).repeat(2).map(
        lambda r: (r + 1, r.row_lengths(), r.flat_values))
    return _both(tf, dataset)


def case_filter_and_take_ragged(tf):
    rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6], []])
    dataset = tf.data.Dataset.from_tensor_slices(rt).filter(
        lambda r: tf.size(r) > 1).repeat().take(3)
    return _both(tf, dataset)


def case_batch_of_ragged_slices(tf):
    rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6], [], [7]])
    return _both(tf, tf.data.Dataset.from_tensor_slices(rt).batch(2))


def case_batch_of_ragged_elements(tf):
    rt = tf.ragged.constant([[[1], [2, 3]], [[4, 5, 6]], [[7], [], [8]]])
    return _both(tf, tf.data.Dataset.from_tensor_slices(rt).batch(2))


def case_batch_drop_remainder(tf):
    rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    return _both(tf, tf.data.Dataset.from_tensors(rt).repeat(3).batch(2, drop_remainder=True))


def case_dense_to_ragged_batch(tf):
    dataset = tf.data.Dataset.range(1, 6).map(lambda x: tf.range(x))
    return _both(tf, dataset.apply(tf.data.experimental.dense_to_ragged_batch(2)))


def case_dense_to_ragged_batch_mixed(tf):
    dataset = tf.data.Dataset.range(1, 4).map(
        lambda x: (tf.fill([x, 2], x), tf.reshape(tf.range(x * x), [x, x]), x))
    return _both(tf, dataset.apply(tf.data.experimental.dense_to_ragged_batch(3)))


def case_dense_to_ragged_batch_int32_splits(tf):
    dataset = tf.data.Dataset.range(1, 4).map(lambda x: tf.fill([x, 2], x))
    return _both(tf, dataset.apply(tf.data.experimental.dense_to_ragged_batch(
        2, row_splits_dtype=tf.int32)))


def case_dense_to_ragged_batch_int32_splits_rank_1_fails(tf):
    """TF encodes a [None, None] element with int64 splits whatever row_splits_dtype says:
    decoding the batch as int32 splits fails."""
    dataset = tf.data.Dataset.range(1, 4).map(lambda x: tf.reshape(tf.range(x * x), [x, x]))
    return _both(tf, dataset.apply(tf.data.experimental.dense_to_ragged_batch(
        3, row_splits_dtype=tf.int32)))


def case_ragged_batch_method(tf):
    dataset = tf.data.Dataset.range(4).map(lambda x: {"ids": tf.range(x), "n": x})
    return _both(tf, dataset.ragged_batch(3, drop_remainder=True))


def case_unbatch_ragged(tf):
    rt = tf.ragged.constant([[[1], [2, 3]], [[4, 5, 6]]])
    dataset = tf.data.Dataset.from_tensors(rt).unbatch()
    return _both(tf, dataset)


def case_ragged_batch_then_unbatch(tf):
    dataset = tf.data.Dataset.range(1, 5).map(lambda x: tf.range(x)).ragged_batch(3)
    return _both(tf, dataset.unbatch())


def case_padded_batch_of_ragged_refused(tf):
    rt = tf.ragged.constant([[1, 2], [3]])
    try:
        tf.data.Dataset.from_tensor_slices(rt).padded_batch(2)
    except Exception as e:      # noqa: BLE001 - the class TF raises is the record
        return {"error": type(e).__name__}
    return {"error": None}


def case_padded_batch_of_variable_length(tf):
    dataset = tf.data.Dataset.range(1, 5).map(lambda x: tf.range(x)).padded_batch(3)
    return _both(tf, dataset)


def case_ragged_in_a_tuple_with_dense(tf):
    rt = tf.ragged.constant([[1, 2], [3]])
    return _both(tf, tf.data.Dataset.from_tensor_slices((rt, tf.constant([10, 20]))))


def case_ragged_in_a_dict(tf):
    rt = tf.ragged.constant([[[1, 2]], [[3], [4]]])
    dataset = tf.data.Dataset.from_tensor_slices({"r": rt, "d": tf.constant([1.0, 2.0])})
    return _both(tf, dataset.batch(2))


def case_zip_ragged(tf):
    a = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1], [2, 3]]))
    b = tf.data.Dataset.from_tensors(tf.ragged.constant([[1.0], []])).repeat()
    return _both(tf, tf.data.Dataset.zip((a, b)))


def case_initializable_iterator(tf):
    dataset = tf.data.Dataset.from_tensor_slices(
        tf.ragged.constant([[1, 2], [3], [4, 5, 6]])).batch(2)
    iterator = tf.data.make_initializable_iterator(dataset)
    nxt = iterator.get_next()
    return {"next_type": type(nxt).__name__, "shape": str(nxt.shape),
            "ragged_rank": nxt.ragged_rank, "dtype": repr(nxt.dtype),
            "values": _run_all(tf, nxt, init=iterator.initializer)}


def case_iterator_static_shapes(tf):
    rt = tf.ragged.constant([[1.0, 2.0], [3.0]])
    nxt = tf.data.make_one_shot_iterator(tf.data.Dataset.from_tensors(rt)).get_next()
    return {"shape": str(nxt.shape), "flat_values": str(nxt.flat_values.shape),
            "row_splits": str(nxt.row_splits.shape),
            "row_splits_dtype": repr(nxt.row_splits.dtype)}


def case_ragged_tensor_structure(tf):
    spec = tf.data.experimental.RaggedTensorStructure(tf.int32, [None, None], 1)
    return {"repr": repr(spec)}


def case_iterator_from_structure_and_string_handle(tf):
    dataset = tf.data.Dataset.from_tensor_slices(
        tf.ragged.constant([[1, 2], [3], [4, 5, 6]])).batch(2)
    types, shapes = tf.data.get_output_types(dataset), tf.data.get_output_shapes(dataset)
    classes = tf.data.get_output_classes(dataset)
    iterator = tf.data.Iterator.from_structure(types, shapes, output_classes=classes)
    nxt = iterator.get_next()
    handle = tf.placeholder(tf.string, [])
    by_handle = tf.data.Iterator.from_string_handle(handle, types, shapes,
                                                    output_classes=classes).get_next()
    one_shot = tf.data.make_one_shot_iterator(dataset)
    with tf.Session() as sess:
        sess.run(iterator.make_initializer(dataset))
        first = _value(sess.run(nxt))
        value = sess.run(one_shot.string_handle())
        second = _value(sess.run(by_handle, {handle: value}))
    return {"next_type": type(nxt).__name__, "first": first, "by_handle": second}


def case_make_initializer_needs_the_same_spec_object(tf):
    """TF compares output classes with `is`: a RaggedTensorSpec equal to the iterator's
    but of another dataset is refused."""
    def batched(rows):
        return tf.data.Dataset.from_tensor_slices(tf.ragged.constant(rows)).batch(2)
    a, b = batched([[1, 2], [3]]), batched([[7], []])
    iterator = tf.data.Iterator.from_structure(
        tf.data.get_output_types(a), tf.data.get_output_shapes(a),
        output_classes=tf.data.get_output_classes(a))
    iterator.make_initializer(a)
    iterator.make_initializer(b)
    return "made"


def case_type_spec_reduce_and_single_element(tf):
    rt = tf.ragged.constant([[1, 2], [3]])
    dataset = tf.data.Dataset.from_tensor_slices(rt).batch(2)
    total = dataset.reduce(tf.constant(0, tf.int64),
                           lambda s, r: s + tf.cast(tf.reduce_sum(r), tf.int64))
    single = tf.data.experimental.get_single_element(tf.data.Dataset.from_tensors(rt))
    with tf.Session() as sess:
        total, single = sess.run([total, single])
    return {"spec": repr(tf.type_spec_from_value(rt)),
            "structure": repr(tf.data.experimental.get_structure(dataset)),
            "total": total, "single": _value(single)}


def case_more_transformations(tf):
    def rt():
        return tf.ragged.constant([[1, 2], [], [3]])

    def slices():
        return tf.data.Dataset.from_tensor_slices(rt())
    pipelines = {
        "experimental_unbatch": tf.data.Dataset.from_tensors(rt()).apply(
            tf.data.experimental.unbatch()),
        "sample_from_datasets": tf.data.experimental.sample_from_datasets(
            [slices(), slices()], seed=1),
        "window_flat_map": slices().window(2).flat_map(lambda w: w.batch(2)),
        "scan": slices().apply(tf.data.experimental.scan(
            tf.constant(0), lambda s, r: (s + tf.size(r), r * s))),
        "take_while": slices().apply(tf.data.experimental.take_while(
            lambda r: tf.size(r) > 0)),
        "enumerate": slices().enumerate(),
        "shard": slices().shard(2, 0),
    }
    return {name: {"spec": repr(ds.element_spec), **_fetch(tf, ds)}
            for name, ds in pipelines.items()}


def case_bucket_by_sequence_length_of_ragged_refused(tf):
    dataset = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [], [3]]))
    return dataset.apply(tf.data.experimental.bucket_by_sequence_length(
        lambda r: tf.size(r), [2], [2, 2])).element_spec
