"""Eager golden cases: iterating tf.data datasets in Python under eager execution."""

import os
import tempfile

from tests.golden.harness import catch


def _values(element):
    if isinstance(element, dict):
        return {k: _values(v) for k, v in element.items()}
    if isinstance(element, (tuple, list)):
        return [_values(v) for v in element]
    return element.numpy()


def case_for_loop_map_batch(tf):
    ds = tf.data.Dataset.from_tensor_slices(([1.0, 2.0, 3.0], [4, 5, 6]))
    ds = ds.map(lambda a, b: (a * 2.0, b + 1)).batch(2)
    return [_values(x) for x in ds]


def case_dict_elements_filter_repeat(tf):
    ds = tf.data.Dataset.from_tensor_slices({"x": [1, 2, 3, 4], "y": [b"a", b"b", b"c", b"d"]})
    ds = ds.filter(lambda e: e["x"] % 2 == 0).repeat(2)
    return [_values(x) for x in ds]


def case_iterate_twice_restarts(tf):
    ds = tf.data.Dataset.range(3)
    first = [int(x) for x in ds]
    second = [int(x) for x in ds]
    return {"first": first, "second": second, "dtype": next(iter(ds)).dtype.name}


def case_one_shot_iterator_end(tf):
    it = tf.data.Dataset.range(2).make_one_shot_iterator()
    got = [int(it.get_next()), int(it.get_next())]
    return {"got": got, "end": catch(it.get_next)}


def case_seeded_shuffle_batch(tf):
    ds = tf.data.Dataset.range(10).shuffle(5, seed=3).batch(4)
    return [_values(x) for x in ds]


def case_map_captures_eager_variable(tf):
    v = tf.Variable(10.0)
    ds = tf.data.Dataset.from_tensor_slices([1.0, 2.0]).map(lambda x: x + v)
    return [_values(x) for x in ds]


def case_tfrecord_round_trip(tf):
    path = os.path.join(tempfile.mkdtemp(), "r.tfrecord")
    with tf.python_io.TFRecordWriter(path) as w:
        for i in range(3):
            ex = tf.train.Example(features=tf.train.Features(feature={
                "v": tf.train.Feature(int64_list=tf.train.Int64List(value=[i, i * i]))}))
            w.write(ex.SerializeToString())
    ds = tf.data.TFRecordDataset(path).map(
        lambda s: tf.parse_single_example(s, {"v": tf.FixedLenFeature([2], tf.int64)}))
    return [_values(x) for x in ds]


def case_training_loop(tf):
    xs = [[1.0], [2.0], [3.0], [4.0]]
    ys = [[2.0], [4.0], [6.0], [8.0]]
    ds = tf.data.Dataset.from_tensor_slices((xs, ys)).batch(2).repeat(3)
    w = tf.Variable([[0.0]])
    opt = tf.train.GradientDescentOptimizer(0.05)
    losses = []
    for x, y in ds:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
        grads = tape.gradient(loss, [w])
        opt.apply_gradients(zip(grads, [w]))
        losses.append(loss.numpy())
    return {"losses": losses, "w": w.numpy()}


def case_map_error_then_continue(tf):
    ds = tf.data.Dataset.from_tensor_slices([1.0, 0.0, 2.0]).map(
        lambda x: tf.check_numerics(1.0 / x, "bad"))
    it = iter(ds)
    first = next(it).numpy()
    err = catch(lambda: next(it))
    return {"first": first, "error": err, "third": next(it).numpy()}


def case_map_captures_eager_tensor(tf):
    c = tf.constant([1.0, 2.0])
    ds = tf.data.Dataset.from_tensor_slices([[1.0, 1.0], [2.0, 2.0]]).map(lambda x: x * c + c)
    return [_values(x) for x in ds]


def case_as_numpy_iterator(tf):
    ds = tf.data.Dataset.from_tensor_slices(({"a": [1, 2]}, [b"x", b"y"]))
    it = ds.as_numpy_iterator()
    first = next(it)
    rows = list(tf.data.Dataset.from_tensor_slices([[1.0, 2.0], [3.0, 4.0]])
                .as_numpy_iterator())
    return {"first": [first[0]["a"], first[1]], "rest": [[e[0]["a"], e[1]] for e in it],
            "type": type(it).__name__, "rows": rows,
            "writeable": [bool(r.flags.writeable) for r in rows],
            "scalar_types": [type(first[0]["a"]).__name__, type(first[1]).__name__]}
