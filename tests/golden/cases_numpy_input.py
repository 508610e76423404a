"""Golden cases: `tf.estimator.inputs.numpy_input_fn`'s queue pipeline (recorded under
TF 2.15 + tensorflow-estimator): the graph it builds, batches in order, shuffled batches
under a graph seed, epochs and the partial last batch, dict features and labels, feeder
threads, and an Estimator's model_dir (`graph.pbtxt` and `.meta` files) on top.

TF's shuffled order: a feeder starts at a row drawn from Python's unseeded `random`, so the
queue holds the rows rotated by that start; when every row is in the queue before the
first dequeue (here: all epochs fit under `min_after_dequeue`, so dequeues wait for the
close), the RandomShuffleQueue's seeded draws fix which queue slot comes out when. The
cases record that order with the rotation taken out (`_unrotated`), which pins the seeded
permutation itself."""

import numpy as np

from tests.golden.estimator_util import drain, listing, model_dir
from tests.golden.harness import catch

TF_VERSION = "2.15"


def _unrotated(rows, n):
    """`rows` (row numbers) shifted by the start row that makes them smallest: equal for two
    runs exactly when they differ only by the feeder's random start row."""
    return min([(r - shift) % n for r in rows] for shift in range(n))


def case_numpy_input_fn_graph(tf):
    out = {}
    for shuffle, epochs in ((False, 1), (True, None)):
        with tf.Graph().as_default() as g:
            features, labels = tf.estimator.inputs.numpy_input_fn(
                {"b": np.zeros([6, 2], np.float32), "a": np.arange(6)}, np.arange(6.),
                batch_size=4, num_epochs=epochs, shuffle=shuffle, queue_capacity=40)()
            out[f"ops_{shuffle}_{epochs}"] = [[op.name, op.type] for op in g.get_operations()]
            out[f"tensors_{shuffle}_{epochs}"] = [
                [t.name, t.dtype.name, t.shape.as_list()]
                for t in (features["a"], features["b"], labels)]
            out[f"summaries_{shuffle}_{epochs}"] = [
                t.name for t in g.get_collection(tf.GraphKeys.SUMMARIES)]
            runners = g.get_collection(tf.GraphKeys.QUEUE_RUNNERS)
            out[f"runners_{shuffle}_{epochs}"] = [
                [r.queue.name, [op.name for op in r.enqueue_ops]] for r in runners]
            out[f"meta_collections_{shuffle}_{epochs}"] = sorted(
                tf.train.export_meta_graph().collection_def)
    return out


def case_numpy_input_fn_order_epochs_partial_batch(tf):
    out = {}
    x = {"a": np.arange(11), "s": np.array([f"r{i}" for i in range(11)])}
    y = {"y": np.arange(11) * 10., "z": np.arange(11) % 3}
    for epochs, batch in ((1, 4), (3, 5), (2, 11), (1, 20)):
        with tf.Graph().as_default():
            features, labels = tf.estimator.inputs.numpy_input_fn(
                x, y, batch_size=batch, num_epochs=epochs, shuffle=False)()
            out[f"batches_{epochs}_{batch}"] = drain(tf, [features, labels])
    with tf.Graph().as_default():
        values = tf.estimator.inputs.numpy_input_fn(
            np.arange(12.).reshape(6, 2), batch_size=4, num_epochs=None, shuffle=False)()
        out["array_no_epochs"] = [values.shape.as_list(), drain(tf, values, limit=4)]
    with tf.Graph().as_default():
        values = tf.estimator.inputs.numpy_input_fn(
            np.arange(3), batch_size=2, num_epochs=1, shuffle=False)()
        with tf.Session() as sess:
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord)
            got = [sess.run(values), sess.run(values)]
            out["end_of_input"] = [got, catch(lambda: sess.run(values))]
            coord.request_stop()
            coord.join(threads)
    return out


def case_numpy_input_fn_shuffled_order(tf):
    out = {}
    for seed, n, epochs, batch in ((1, 10, 2, 4), (7, 10, 2, 4), (3, 30, 3, 7),
                                   (11, 16, 1, 16)):
        with tf.Graph().as_default():
            tf.set_random_seed(seed)
            features, labels = tf.estimator.inputs.numpy_input_fn(
                {"a": np.arange(n), "b": np.arange(n) * 2.}, np.arange(n) * 10,
                batch_size=batch, num_epochs=epochs, shuffle=True,
                queue_capacity=4 * n * epochs)()
            batches = drain(tf, [features, labels])
        rows = [int(r) for f, _ in batches for r in f["a"]]
        out[f"seed_{seed}_n_{n}_epochs_{epochs}_batch_{batch}"] = {
            "sizes": [len(f["a"]) for f, _ in batches],
            "aligned": all((f["b"] == 2 * f["a"]).all() and (lab == 10 * f["a"]).all()
                           for f, lab in batches),
            "unrotated": _unrotated(rows, n)}
    # No epochs: a static batch dimension; which rows come out depends on thread timing.
    with tf.Graph().as_default():
        tf.set_random_seed(5)
        values = tf.estimator.inputs.numpy_input_fn(
            np.arange(20), batch_size=6, num_epochs=None, shuffle=True, queue_capacity=12)()
        got = drain(tf, values, limit=10)
        out["no_epochs"] = [values.shape.as_list(), [len(b) for b in got],
                            all(0 <= r < 20 for b in got for r in b)]
    return out


def case_numpy_input_fn_threads(tf):
    out = {}
    # Each feeder runs its own num_epochs: two threads give every row twice.
    for shuffle in (False, True):
        with tf.Graph().as_default():
            values = tf.estimator.inputs.numpy_input_fn(
                np.arange(9), batch_size=4, num_epochs=1, shuffle=shuffle, num_threads=2)()
            got = drain(tf, values)
            out[f"rows_{shuffle}"] = sorted(int(r) for b in got for r in b)
            out[f"placeholders_{shuffle}"] = sorted(
                op.name for op in tf.get_default_graph().get_operations()
                if op.type == "Placeholder")
    return out


def case_numpy_input_fn_estimator_model_dir(tf):
    out = {}

    def model_fn(features, labels, mode):
        w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer(0.25))
        pred = tf.matmul(features["x"], w)
        loss = tf.losses.mean_squared_error(labels, pred)
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(
            loss, global_step=tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

    x = (np.arange(16, dtype=np.float32).reshape(8, 2) / 16.)
    y = x.sum(1, keepdims=True)
    with model_dir() as d:
        est = tf.estimator.Estimator(model_fn, model_dir=d)
        est.train(tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=3, num_epochs=2,
                                                     shuffle=False))
        out["files"] = listing(d)
        out["step"] = est.get_variable_value("global_step")
        out["w"] = est.get_variable_value("w")
        graph = tf.Graph()
        with graph.as_default():
            tf.train.import_meta_graph(est.latest_checkpoint() + ".meta")
            out["meta_queue_ops"] = sorted(op.name for op in graph.get_operations()
                                           if op.type.endswith("QueueV2"))
            out["meta_runners"] = len(graph.get_collection(tf.GraphKeys.QUEUE_RUNNERS))
    return out
