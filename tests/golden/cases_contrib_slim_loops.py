"""Golden cases: slim's training loop (`slim.learning.train`), its evaluation
(`slim.evaluation.evaluate_once` / `evaluation_loop`), `slim.summaries` and the data layer
(`tfexample_decoder`, `DatasetDataProvider`, `parallel_reader`, `prefetch_queue`).

Recorded with `tf_slim` 1.1.0 (the maintained port of TF 1.15's contrib.slim) on top of
real TF 2.21:

    PYTHONPATH=/tmp/slim/src /tmp/tf/bin/python scripts/record_goldens.py \\
        cases_contrib_slim_loops
"""

import os
import tempfile

import numpy as np

from tests.golden.cases_contrib_slim_zoo import _slim
from tests.golden.harness import catch


def _module(tf, name):
    """slim's submodule `name` ("learning", "data.tfexample_decoder", ...)."""
    slim = _slim(tf)
    if getattr(tf, "contrib", None) is not None:
        module = slim
        for part in name.split("."):
            module = getattr(module, part)
        return module
    import importlib
    return importlib.import_module("tf_slim." + name)


def _regression(tf, seed=0):
    """A linear model on fixed data; its loss is a mean squared error."""
    slim = _slim(tf)
    rng = np.random.RandomState(seed)
    x = tf.constant(rng.randn(16, 4).astype(np.float32))
    y = tf.constant(rng.randn(16, 1).astype(np.float32))
    pred = slim.fully_connected(x, 1, activation_fn=None,
                                weights_initializer=tf.constant_initializer(0.5),
                                scope="fc")
    return y, pred, tf.losses.mean_squared_error(y, pred)


def _checkpoint_values(tf, path):
    reader = tf.train.NewCheckpointReader(path)
    return {name: reader.get_tensor(name)
            for name in sorted(reader.get_variable_to_shape_map())}


def case_learning_train(tf):
    learning = _module(tf, "learning")
    logdir = tempfile.mkdtemp()
    tf.set_random_seed(1)
    _, _, loss = _regression(tf)
    tf.summary.scalar("loss", loss)
    train_op = learning.create_train_op(loss, tf.train.GradientDescentOptimizer(0.1))
    final_loss = learning.train(train_op, logdir, number_of_steps=6, log_every_n_steps=2,
                                save_summaries_secs=3600, save_interval_secs=3600)
    latest = tf.train.latest_checkpoint(logdir)
    # Read now: the resumed run's checkpoint service rewrites model.ckpt-6 (when its thread
    # gets to run is a race in TF).
    values = _checkpoint_values(tf, latest)
    # The Supervisor finalized the graph: a second train() cannot add its init ops.
    again = catch(lambda: learning.train(train_op, logdir, number_of_steps=7))
    # In a new graph, train() resumes from the checkpoint: two more steps to reach 8.
    with tf.Graph().as_default():
        _, _, loss = _regression(tf)
        train_op = learning.create_train_op(loss, tf.train.GradientDescentOptimizer(0.1))
        resumed = learning.train(train_op, logdir, number_of_steps=8,
                                 save_summaries_secs=3600, save_interval_secs=3600)
    return {"final_loss": final_loss, "latest": os.path.basename(latest),
            "values": values, "resumed": resumed, "again": again,
            "resumed_latest": os.path.basename(tf.train.latest_checkpoint(logdir)),
            "events": any(f.startswith("events.") for f in os.listdir(logdir)),
            "graph": os.path.exists(os.path.join(logdir, "graph.pbtxt"))}


def case_learning_train_until_input_ends(tf):
    learning = _module(tf, "learning")
    slim = _slim(tf)
    logdir = tempfile.mkdtemp()
    rng = np.random.RandomState(3)
    data = tf.data.Dataset.from_tensor_slices(
        (rng.randn(12, 3).astype(np.float32), rng.randn(12, 1).astype(np.float32)))
    x, y = tf.data.make_one_shot_iterator(data.batch(4)).get_next()
    pred = slim.fully_connected(x, 1, activation_fn=None,
                                weights_initializer=tf.constant_initializer(-0.25))
    loss = tf.losses.absolute_difference(y, pred)
    train_op = learning.create_train_op(loss, tf.train.MomentumOptimizer(0.05, 0.9))
    final_loss = learning.train(train_op, logdir, save_summaries_secs=3600,
                                save_interval_secs=3600)
    latest = tf.train.latest_checkpoint(logdir)
    return {"final_loss": final_loss, "latest": os.path.basename(latest),
            "values": _checkpoint_values(tf, latest)}


def case_learning_train_no_logdir_and_errors(tf):
    learning = _module(tf, "learning")
    _, _, loss = _regression(tf, seed=5)
    train_op = learning.create_train_op(loss, tf.train.AdamOptimizer(0.01))
    seen = []

    def step_fn(sess, op, global_step, kwargs):
        loss_value, stop = learning.train_step(sess, op, global_step, kwargs)
        seen.append(float(loss_value))
        return loss_value, stop
    final = learning.train(train_op, None, train_step_fn=step_fn, number_of_steps=3)
    return {"final": final, "seen": seen,
            "none_op": catch(lambda: learning.train(None, None), message=True),
            "bad_steps": catch(lambda: learning.train(train_op, "/tmp/x", number_of_steps=0),
                               message=True),
            "saver_no_logdir": catch(lambda: learning.train(
                train_op, None, saver=tf.train.Saver()), message=True),
            "summary_no_logdir": catch(lambda: learning.train(
                train_op, None, summary_op=None), message=True)}


def _trained_checkpoint(tf):
    """Trains the regression 4 steps in its own graph; the logdir."""
    learning = _module(tf, "learning")
    logdir = tempfile.mkdtemp()
    with tf.Graph().as_default():
        _, _, loss = _regression(tf)
        train_op = learning.create_train_op(loss, tf.train.GradientDescentOptimizer(0.05))
        learning.train(train_op, logdir, number_of_steps=4, save_summaries_secs=3600,
                       save_interval_secs=3600)
    return logdir


def case_evaluation(tf):
    evaluation = _module(tf, "evaluation")
    logdir = _trained_checkpoint(tf)
    y, pred, loss = _regression(tf)
    tf.train.get_or_create_global_step()
    mse, mse_update = tf.metrics.mean_squared_error(y, pred)
    mean_pred, mean_update = tf.metrics.mean(pred)
    tf.summary.scalar("eval/mse", mse)
    eval_dir = os.path.join(logdir, "eval")
    once = evaluation.evaluate_once("", tf.train.latest_checkpoint(logdir), eval_dir,
                                    num_evals=3, eval_op=[mse_update, mean_update],
                                    final_op={"mse": mse, "mean": mean_pred})
    looped = evaluation.evaluation_loop("", logdir, eval_dir, num_evals=2,
                                        eval_op=mse_update, final_op=[mse, loss],
                                        eval_interval_secs=0, max_number_of_evaluations=1)
    waited = evaluation.wait_for_new_checkpoint(logdir, timeout=0.1)
    none_new = evaluation.wait_for_new_checkpoint(logdir, last_checkpoint=waited,
                                                  seconds_to_sleep=0.05, timeout=0.1)
    summaries = []
    for name in sorted(os.listdir(eval_dir)):
        for event in tf.train.summary_iterator(os.path.join(eval_dir, name)):
            for value in event.summary.value:
                summaries.append((event.step, value.tag, round(float(value.simple_value), 5)))
    return {"once": once, "looped": looped, "waited": os.path.basename(waited),
            "none_new": none_new, "summaries": sorted(summaries)}


def case_summaries(tf):
    summaries = _module(tf, "summaries")
    x = tf.constant([[0.0, 1.5], [0.0, -2.0]], name="activations")
    ops = [summaries.add_scalar_summary(tf.reduce_mean(x), "mean", prefix="stats"),
           summaries.add_zero_fraction_summary(x, prefix="sparsity"),
           summaries.add_histogram_summary(x),
           summaries.add_scalar_summary(tf.reduce_max(x), print_summary=True)]
    ops += summaries.add_scalar_summaries([tf.reduce_min(x)], prefix="more")
    ops += summaries.add_zero_fraction_summaries([x], prefix="all")
    with tf.Session() as sess:
        values = sess.run(ops)
    parsed = []
    for value in values:
        summary = tf.Summary.FromString(value)
        parsed.append([(v.tag, round(float(v.simple_value), 5)) for v in summary.value])
    return {"names": [op.name for op in ops], "parsed": parsed,
            "collection": [op.name for op in tf.get_collection(tf.GraphKeys.SUMMARIES)]}


def _example(tf, image_bytes, fmt, label, boxes, text):
    def floats(values):
        return tf.train.Feature(float_list=tf.train.FloatList(value=values))

    def ints(values):
        return tf.train.Feature(int64_list=tf.train.Int64List(value=values))

    def bytes_(values):
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
    feature = {"image/encoded": bytes_([image_bytes]), "image/format": bytes_([fmt]),
               "image/class/label": ints([label]), "image/shape": ints([2, 3, 3]),
               "image/object/bbox/ymin": floats([b[0] for b in boxes]),
               "image/object/bbox/xmin": floats([b[1] for b in boxes]),
               "image/object/bbox/ymax": floats([b[2] for b in boxes]),
               "image/object/bbox/xmax": floats([b[3] for b in boxes]),
               "image/object/class/text": bytes_(text),
               "matrix": floats([float(i) for i in range(6)]), "matrix/shape": ints([3, 2])}
    if text:
        feature["ids"] = ints(list(range(len(text))))
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


def _decoder(tf, table=None):
    decoder_lib = _module(tf, "data.tfexample_decoder")
    keys_to_features = {
        "image/encoded": tf.FixedLenFeature((), tf.string, default_value=""),
        "image/format": tf.FixedLenFeature((), tf.string, default_value="png"),
        "image/class/label": tf.FixedLenFeature([1], tf.int64),
        "image/shape": tf.FixedLenFeature([3], tf.int64),
        "image/object/bbox/ymin": tf.VarLenFeature(tf.float32),
        "image/object/bbox/xmin": tf.VarLenFeature(tf.float32),
        "image/object/bbox/ymax": tf.VarLenFeature(tf.float32),
        "image/object/bbox/xmax": tf.VarLenFeature(tf.float32),
        "image/object/class/text": tf.VarLenFeature(tf.string),
        "ids": tf.VarLenFeature(tf.int64),
        "matrix": tf.FixedLenFeature([2, 3], tf.float32),
        "matrix/shape": tf.FixedLenFeature([2], tf.int64)}
    handlers = {
        "image": decoder_lib.Image(channels=3),
        "raw": decoder_lib.Image(shape=[2, 3, 3], channels=3),
        "label": decoder_lib.Tensor("image/class/label", shape=[]),
        "boxes": decoder_lib.BoundingBox(prefix="image/object/bbox/"),
        "text": decoder_lib.Tensor("image/object/class/text", default_value="none"),
        "matrix": decoder_lib.Tensor("matrix", shape_keys="matrix/shape"),
        "sparse": decoder_lib.SparseTensor(indices_key="ids", values_key="image/object/class/text",
                                           shape=[3], densify=True, default_value="?"),
        "callback": decoder_lib.ItemHandlerCallback(
            ["image/shape", "matrix"], lambda t: tf.reduce_sum(t["matrix"]) +
            tf.cast(tf.reduce_prod(t["image/shape"]), tf.float32)),
    }
    if table is not None:
        handlers["looked_up"] = decoder_lib.BackupHandler(
            decoder_lib.LookupTensor("image/object/class/text", table),
            decoder_lib.Tensor("image/class/label"))
    return decoder_lib.TFExampleDecoder(keys_to_features, handlers)


def _images(tf):
    pixels = np.arange(18, dtype=np.uint8).reshape(2, 3, 3) * 13
    with tf.Session() as sess:
        png = sess.run(tf.image.encode_png(pixels))
    return pixels, png


def case_tfexample_decoder(tf):
    decoder_lib = _module(tf, "data.tfexample_decoder")
    pixels, png = _images(tf)
    table = tf.contrib.lookup.index_table_from_tensor(tf.constant(["cat", "dog"])) \
        if getattr(tf, "contrib", None) is not None else \
        tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
            tf.constant(["cat", "dog"]), tf.constant([0, 1], tf.int64)), -1)
    decoder = _decoder(tf, table)
    serialized = tf.placeholder(tf.string, [])
    items = sorted(decoder.list_items())
    decoded = decoder.decode(serialized, items)
    records = {"png": _example(tf, png, b"png", 7, [(0.1, 0.2, 0.5, 0.6)], [b"dog", b"cat"]),
               "raw": _example(tf, pixels.tobytes(), b"RAW", 2,
                               [(0.0, 0.0, 1.0, 1.0), (0.2, 0.3, 0.4, 0.5)], [])}
    out = {"items": items, "shapes": [str(t.shape) for t in decoded
                                      if not hasattr(t, "dense_shape")]}
    with tf.Session() as sess:
        sess.run(tf.tables_initializer())
        for name, record in records.items():
            values = sess.run(decoded, {serialized: record})
            out[name] = dict(zip(items, values))
            out[name].pop("raw" if name == "png" else "image")
    out["bad_box"] = catch(lambda: decoder_lib.BoundingBox(keys=["a", "b"]), message=True)
    out["both_shapes"] = catch(lambda: decoder_lib.Tensor("a", shape_keys="b", shape=[1]),
                               message=True)
    out["bad_backup"] = catch(lambda: decoder_lib.BackupHandler(1, 2))
    return out


def case_dataset_data_provider(tf):
    dataset_lib = _module(tf, "data.dataset")
    provider_lib = _module(tf, "data.dataset_data_provider")
    reader_lib = _module(tf, "data.parallel_reader")
    prefetch_lib = _module(tf, "data.prefetch_queue")
    queues = _module(tf, "queues")
    pixels, png = _images(tf)
    directory = tempfile.mkdtemp()
    for shard in range(2):
        with tf.python_io.TFRecordWriter(os.path.join(directory, f"d-{shard}.tfrecord")) as w:
            for i in range(3):
                w.write(_example(tf, png, b"png", 10 * shard + i, [(0.1, 0.1, 0.2, 0.2)],
                                 [b"cat"]))
    pattern = os.path.join(directory, "d-*.tfrecord")
    dataset = dataset_lib.Dataset(data_sources=pattern, reader=tf.TFRecordReader,
                                  decoder=_decoder(tf), num_samples=6,
                                  items_to_descriptions={"label": "a label"}, num_classes=20)
    provider = provider_lib.DatasetDataProvider(dataset, num_readers=1, shuffle=False,
                                                num_epochs=1, common_queue_capacity=8,
                                                common_queue_min=2)
    label, key, image = provider.get(["label", "record_key", "image"])
    batch_queue = prefetch_lib.prefetch_queue({"label": tf.reshape(label, [1]),
                                               "image": tf.reshape(image, [2, 3, 3])},
                                              capacity=2)
    fetched = batch_queue.dequeue()
    labels, keys = [], []
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        with queues.QueueRunners(sess):
            for _ in range(6):
                got = sess.run(fetched)
                labels.append(int(got["label"][0]))
    out = {"labels": sorted(labels), "num_samples": provider.num_samples(),
           "items": sorted(provider.list_items()), "num_classes": dataset.num_classes,
           "files": [os.path.basename(f) for f in sorted(reader_lib.get_data_files(pattern))],
           "no_files": catch(lambda: reader_lib.get_data_files(
               os.path.join(directory, "none-*"))),
           "bad_item": catch(lambda: provider.get(["nope"])),
           "not_list": catch(lambda: provider.get("label"), message=True),
           "queue_summaries": sorted(op.name for op in tf.get_collection(
               tf.GraphKeys.SUMMARIES))}
    return out


def case_assign_from_checkpoint(tf):
    slim = _slim(tf)
    directory = tempfile.mkdtemp()
    with tf.Graph().as_default():
        tf.get_variable("a", initializer=np.arange(6, dtype=np.float32).reshape(2, 3))
        parts = tf.get_variable("b", [4], partitioner=tf.fixed_size_partitioner(2))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for i, part in enumerate(parts):
                sess.run(part.assign([10.0 * i, 10.0 * i + 1]))
            path = tf.train.Saver().save(sess, os.path.join(directory, "m"))
    out = {}
    with tf.Graph().as_default():
        a = tf.get_variable("a", [2, 3])
        b = tf.get_variable("b", [4], partitioner=tf.fixed_size_partitioner(2))
        c = tf.get_variable("c", [1], initializer=tf.zeros_initializer())
        # (a partitioned variable here would trip tf_slim on numpy 2: it indexes with a
        # list of slices)
        op, feed = slim.assign_from_checkpoint(path, [a, c], ignore_missing_vars=True)
        out["placeholders"] = sorted(t.op.name for t in feed)
        restore = slim.assign_from_checkpoint_fn(path, {"a": a, "c": c, "b": list(b)},
                                                 ignore_missing_vars=True)
        values_op, values_feed = slim.assign_from_values({"c": np.array([7.0], np.float32)})
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(op, feed)
            out["restored"] = sess.run([a, c])
            sess.run(values_op, values_feed)
            sess.run(a.assign(tf.zeros([2, 3])))
            sess.run([part.assign(tf.zeros([2])) for part in b])
            restore(sess)
            out["fn_restored"] = sess.run([a, c, tf.convert_to_tensor(b)])
        out["missing"] = catch(lambda: slim.assign_from_checkpoint(path, [c]), message=True)
        out["empty"] = catch(lambda: slim.assign_from_checkpoint_fn(path, []), message=True)
        out["none_left"] = slim.assign_from_checkpoint_fn(path, [c], ignore_missing_vars=True)
        out["unknown"] = catch(lambda: slim.assign_from_values({"zz": np.zeros(1)}),
                               message=True)
    return out
