"""Golden cases: the rest of `tf.contrib.data` (`sliding_window_batch`,
`assert_element_shape`, `reduce_dataset`, `sloppy_interleave`, `read_batch_features`,
`parse_example_dataset`, `AUTOTUNE`).

TF 2.x has no contrib: under the oracle the functions are TF 1.15's own
contrib/data/python/ops sources (sliding.py, batching.py, get_single_element.py,
interleave_ops.py, readers.py) run under TF 2.21's tf.compat.v1 graph mode
(scripts/oracle_contrib.py, `tf115_package`)."""

import os
import tempfile

import numpy as np


def _data(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.data
    import types
    import oracle_contrib
    from tensorflow.python.data.ops import dataset_ops
    stubs = {"tensorflow.contrib.framework": {"with_shape": oracle_contrib.tf115_package(
        "contrib.framework.python.framework", ["tensor_util"]).with_shape}}
    ops = oracle_contrib.tf115_package("contrib.data.python.ops",
                                       ["sliding", "batching", "get_single_element",
                                        "interleave_ops", "readers", "grouping"],
                                       stubs=stubs)
    return types.SimpleNamespace(
        sliding_window_batch=ops.sliding_window_batch,
        assert_element_shape=ops.assert_element_shape, reduce_dataset=ops.reduce_dataset,
        Reducer=ops.Reducer, sloppy_interleave=ops.sloppy_interleave,
        read_batch_features=ops.read_batch_features,
        parse_example_dataset=tf.data.experimental.parse_example_dataset,
        AUTOTUNE=dataset_ops.AUTOTUNE)


def _all(tf, dataset):
    next_element = tf.data.make_one_shot_iterator(dataset).get_next()
    out = []
    with tf.Session() as sess:
        try:
            while True:
                out.append(sess.run(next_element))
        except tf.errors.OutOfRangeError:
            return out


def case_sliding_window_batch(tf):
    data = _data(tf)
    with tf.Graph().as_default():
        base = tf.data.Dataset.range(10)
        pairs = tf.data.Dataset.zip((base, base.map(lambda x: tf.fill([2], x * 10))))
        out = {
            "default": _all(tf, base.apply(data.sliding_window_batch(3))),
            "shift": _all(tf, base.apply(data.sliding_window_batch(3, window_shift=4))),
            "old_stride": _all(tf, base.apply(data.sliding_window_batch(2, stride=3))),
            "strided": _all(tf, base.apply(data.sliding_window_batch(
                3, window_shift=2, window_stride=2))),
            "big_shift": _all(tf, base.apply(data.sliding_window_batch(2, window_shift=12))),
            "tuple": _all(tf, pairs.apply(data.sliding_window_batch(4, window_shift=3))),
            "shapes": [s.as_list() for s in tf.data.get_output_shapes(
                pairs.apply(data.sliding_window_batch(4)))]}
        try:
            data.sliding_window_batch(2, stride=1, window_shift=1)
        except ValueError as e:
            out["both"] = str(e)
        bad = base.apply(data.sliding_window_batch(0))
        try:
            _all(tf, bad)
        except tf.errors.InvalidArgumentError as e:
            out["zero"] = "Window size must be greater than zero." in e.message
    return out


def _dims(shape):
    return None if shape.ndims is None else shape.as_list()


def case_assert_element_shape_and_reduce(tf):
    data = _data(tf)
    with tf.Graph().as_default():
        ds = tf.data.Dataset.from_tensor_slices(np.arange(12, dtype=np.float32).reshape(
            3, 2, 2)).map(lambda x: (tf.reshape(x, [-1]), tf.shape(x)))
        ds = ds.map(lambda a, b: (tf.py_func(lambda v: v, [a], tf.float32), b))
        checked = ds.apply(data.assert_element_shape(([4], None)))
        wrong = ds.apply(data.assert_element_shape(([3], None)))
        out = {"before": [_dims(s) for s in tf.data.get_output_shapes(ds)],
               "after": [_dims(s) for s in tf.data.get_output_shapes(checked)],
               "values": _all(tf, checked)}
        try:
            _all(tf, wrong)
        except tf.errors.InvalidArgumentError as e:
            out["wrong"] = type(e).__name__
        try:
            tf.data.Dataset.range(3).apply(data.assert_element_shape([2, 2]))
        except ValueError as e:
            out["static"] = type(e).__name__
        reducer = data.Reducer(init_func=lambda key: (tf.constant(0, tf.int64), key),
                               reduce_func=lambda state, x: (state[0] + x * x,
                                                             state[1] + 1),
                               finalize_func=lambda state: state)
        total = data.reduce_dataset(tf.data.Dataset.range(5), reducer)
        with tf.Session() as sess:
            out["reduced"] = sess.run(total)
        try:
            data.reduce_dataset([1, 2], reducer)
        except TypeError as e:
            out["not_dataset"] = str(e)
        out["autotune"] = data.AUTOTUNE
    return out


def case_read_batch_features_and_interleave(tf):
    data = _data(tf)
    directory = tempfile.mkdtemp()
    paths = []
    for shard in range(2):
        path = os.path.join(directory, f"part-{shard}.tfrecord")
        with tf.python_io.TFRecordWriter(path) as writer:
            for i in range(3):
                example = tf.train.Example(features=tf.train.Features(feature={
                    "x": tf.train.Feature(float_list=tf.train.FloatList(
                        value=[shard * 10.0 + i])),
                    "id": tf.train.Feature(int64_list=tf.train.Int64List(
                        value=[shard * 100 + i]))}))
                writer.write(example.SerializeToString())
        paths.append(path)
    features = {"x": tf.FixedLenFeature([1], tf.float32),
                "id": tf.FixedLenFeature([], tf.int64)}
    with tf.Graph().as_default():
        batch = data.read_batch_features(os.path.join(directory, "part-*"), 4, features,
                                         randomize_input=False, num_epochs=1)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            first = sess.run(batch)
        interleaved = tf.data.Dataset.from_tensor_slices(paths).apply(
            data.sloppy_interleave(tf.data.TFRecordDataset, cycle_length=2))
        parsed = _all(tf, interleaved.batch(6).apply(data.parse_example_dataset(features)))
    return {"first_ids": sorted(first["id"].tolist()), "first_shape": list(first["x"].shape),
            "interleaved_ids": sorted(parsed[0]["id"].tolist())}
