"""Golden cases: patterns from tensorflow/tpu's models/official/efficientnet and mnasnet
(main.py / mnasnet_main.py under TPUEstimator(use_tpu=False) on seeded fake images: three
RMSProp steps with EMA, then eval; losses, top-1/top-5, the 1049 checkpoint variables and
the v2 summary events matched TF to float rounding), restated small:

* the host_call's TF 2 summaries: `import tensorflow.compat.v2 as tf2`,
  `tf2.summary.create_file_writer(model_dir).as_default()`, `tf2.summary.record_if(True)`,
  `tf2.summary.scalar(name, value, step=gs)` and `tf.summary.all_v2_summary_ops()`, the
  "scalars" plugin tensors read back from the events file;
* `tf.tpu.bfloat16_scope()` around the model builder: bfloat16 variables kept as float32
  and read cast, a float32 model untouched;
* utils.TpuBatchNormalization: `tpu_function.get_tpu_context().number_of_shards` (None off
  a TPU) choosing the single-replica `_moments`.
"""

import glob
import os
import shutil
import tempfile

import numpy as np

from tests.golden.harness import catch, tolerance

# TF 2.15 (with tensorflow-estimator and TensorBoard, which TF 2's tf.summary.scalar needs);
# the TF 2.21 oracle has no TensorBoard.
TF_VERSION = "2.15"


def _events(tf, logdir):
    """(step, tag, plugin, value) of every summary value in logdir's events files."""
    out = []
    for path in sorted(glob.glob(os.path.join(logdir, "events.out.tfevents.*"))):
        for event in tf.train.summary_iterator(path):
            for v in event.summary.value:
                value = tf.make_ndarray(v.tensor) if v.HasField("tensor") else v.simple_value
                out.append([int(event.step), v.tag, v.metadata.plugin_data.plugin_name,
                            v.metadata.summary_description, np.asarray(value).tolist()])
    return sorted(out, key=lambda r: (r[0], r[1]))


def case_tf2_summary_host_call(tf):
    """efficientnet's host_call_fn: a v2 writer as default, record_if(True), two scalars
    at the step fed in; the ops are all_v2_summary_ops; the writer's init op created the
    file; a step that is a Python int and a description too."""
    tf2 = tf.compat.v2
    logdir = tempfile.mkdtemp()
    try:
        gs = tf.placeholder(tf.int64, [1])
        lr = tf.placeholder(tf.float32, [1])
        writer = tf2.summary.create_file_writer(logdir, max_queue=3)
        with writer.as_default():
            with tf2.summary.record_if(True):
                a = tf2.summary.scalar("learning_rate", lr[0], step=gs[0])
                b = tf2.summary.scalar("current_epoch", lr[0] * 2, step=gs[0],
                                       description="epochs")
                ops = tf.summary.all_v2_summary_ops()
        init = tf.get_collection("_SUMMARY_WRITER_V2")
        with tf.Session() as sess:
            sess.run(init)
            wrote = [sess.run(ops, {gs: [s], lr: [0.5 * s]}) for s in range(3)]
            no_op = sess.run(tf2.summary.flush())  # no default writer outside the block
            sess.run(writer.flush())
        return {"ops": [o.name for o in ops], "a": a.name, "b": b.name,
                "types": sorted({o.op.type for o in ops}), "n_init": len(init),
                "wrote": wrote, "no_op": no_op, "events": _events(tf, logdir)}
    finally:
        shutil.rmtree(logdir, ignore_errors=True)


def case_tf2_summary_recording_conditions(tf):
    """Without a writer a summary is a constant False; record_if(False) writes nothing;
    a tensor condition; set_step as the default step; a missing step raises ValueError
    when recording; tag under enclosing name scopes."""
    tf2 = tf.compat.v2
    logdir = tempfile.mkdtemp()
    try:
        no_writer = tf2.summary.scalar("x", 1.0, step=0)
        flag = tf.placeholder(tf.bool, [])
        writer = tf2.summary.create_file_writer(logdir)
        with writer.as_default():
            with tf2.summary.record_if(False):
                off = tf2.summary.scalar("off", 1.0, step=1)
            with tf2.summary.record_if(flag):
                maybe = tf2.summary.scalar("maybe", 2.0, step=2)
            tf2.summary.experimental.set_step(7)
            with tf.name_scope("outer"):
                stepped = tf2.summary.scalar("stepped", 3.0)
            tf2.summary.experimental.set_step(None)
            missing = catch(lambda: tf2.summary.scalar("nostep", 4.0))
            text = tf2.summary.text("note", "hello", step=3)
        with tf.Session() as sess:
            sess.run(writer.init())
            got = [sess.run(no_writer), sess.run(off), sess.run(maybe, {flag: False}),
                   sess.run(maybe, {flag: True}), sess.run(stepped), sess.run(text)]
            sess.run(writer.flush())
        events = _events(tf, logdir)
        return {"got": got, "missing": missing, "stepped": stepped.name,
                "events": [e if e[2] != "text" else e[:4] + [str(e[4])] for e in events]}
    finally:
        shutil.rmtree(logdir, ignore_errors=True)


@tolerance(rtol=1e-6, atol=1e-6)
def case_bfloat16_scope(tf):
    """main.py's `with tf.tpu.bfloat16_scope(): logits = tf.cast(build_model(), tf.float32)`:
    a bfloat16 get_variable is stored float32 and read as a bfloat16 cast; float32
    layers in the scope are plain; the scope's name prefixes nothing by default."""
    x = tf.constant(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3))
    with tf.tpu.bfloat16_scope() as scope:
        w16 = tf.get_variable("w16", [3, 2], tf.bfloat16,
                              initializer=tf.constant_initializer(0.3))
        y = tf.layers.dense(x, 2, kernel_initializer=tf.constant_initializer(0.1),
                            name="dense")
        y16 = tf.matmul(tf.cast(x, tf.bfloat16), w16)
    with tf.tpu.bfloat16_scope("named"):
        v = tf.get_variable("v", [2], tf.bfloat16, initializer=tf.zeros_initializer())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out, out16 = sess.run([y, tf.cast(y16, tf.float32)])
    return {"scope": scope.name, "w16": [w16.op.type, w16.dtype.name, w16.name],
            "v": v.name,
            "vars": [(g.name, g.dtype.base_dtype.name) for g in tf.global_variables()],
            "y": out, "y16": out16}


def _tpu_function(tf):
    """`tensorflow.python.tpu.tpu_function`: TF's module, or the one tf1compat's shim maps
    that path to."""
    if getattr(tf, "contrib", None) is not None:
        import importlib
        from tf1compat.shim import INTERNAL_PATHS
        return importlib.import_module(INTERNAL_PATHS["tensorflow.python.tpu.tpu_function"])
    from tensorflow.python.tpu import tpu_function
    return tpu_function


def case_tpu_batch_norm_single_replica(tf):
    """TpuBatchNormalization._moments asks the TPU context for the shard count: None off
    a TPU, so `num_shards or 1` takes the per-shard moments."""
    tpu_function = _tpu_function(tf)
    ctx = tpu_function.get_tpu_context()
    before = ctx.number_of_shards
    with tpu_function.tpu_shard_context(4):
        inside = tpu_function.get_tpu_context().number_of_shards
        nested = catch(lambda: tpu_function.tpu_shard_context(2).__enter__())
    return {"before": before, "inside": inside, "after": ctx.number_of_shards,
            "nested": nested}


def _estimator_module(tf):
    """TF's `tensorflow.python.estimator.estimator` (main.py imports it for
    `_load_global_step_from_checkpoint_dir`), or tf1compat's."""
    if getattr(tf, "contrib", None) is not None:
        from tf1compat.estimator import estimator
        return estimator
    from tensorflow.python.estimator import estimator
    return estimator


def case_tpu_estimator_host_call_v2_summaries(tf):
    """main.py's shape: TPUEstimator(use_tpu=False), a host_call writing tf2 scalars of the
    global step and learning rate into model_dir (its writer initialized and flushed by the
    host-call hook), eval_metrics; the checkpoint's step read back the way main.py
    resumes, before and after training."""
    from tests.golden.estimator_util import model_dir
    tf2 = tf.compat.v2
    x = np.linspace(-1, 1, 24, dtype=np.float32).reshape(8, 3)
    y = np.eye(2, dtype=np.float32)[[0, 1, 1, 0, 1, 0, 0, 1]]

    def model_fn(features, labels, mode, params):
        logits = tf.layers.dense(features, 2,
                                 kernel_initializer=tf.glorot_uniform_initializer(seed=4))
        loss = tf.losses.softmax_cross_entropy(onehot_labels=labels, logits=logits)
        gs = tf.train.get_global_step()
        lr = tf.train.exponential_decay(0.1, gs, 2, 0.5)
        train_op = tf.train.RMSPropOptimizer(lr, momentum=0.9, epsilon=1.0).minimize(
            loss, gs)

        def host_call_fn(gs, lr):
            with tf2.summary.create_file_writer(params["model_dir"],
                                                max_queue=2).as_default():
                with tf2.summary.record_if(True):
                    tf2.summary.scalar("learning_rate", lr[0], step=gs[0])
                    return tf.summary.all_v2_summary_ops()

        def metric_fn(labels, logits):
            return {"top_1_accuracy": tf.metrics.accuracy(tf.argmax(labels, 1),
                                                          tf.argmax(logits, 1))}
        is_training = mode == tf.estimator.ModeKeys.TRAIN
        return tf.estimator.tpu.TPUEstimatorSpec(
            mode, loss=loss, train_op=train_op if is_training else None,
            host_call=(host_call_fn, [tf.reshape(gs, [1]), tf.reshape(lr, [1])])
            if is_training else None,
            eval_metrics=None if is_training else (metric_fn, [labels, logits]))

    def input_fn(params):
        return tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(
            params["batch_size"], drop_remainder=True)

    estimator = _estimator_module(tf)
    with model_dir() as d:
        config = tf.estimator.tpu.RunConfig(
            model_dir=d, tf_random_seed=1, save_checkpoints_steps=100,
            tpu_config=tf.estimator.tpu.TPUConfig(iterations_per_loop=1))
        est = tf.estimator.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                            train_batch_size=4, eval_batch_size=4,
                                            params={"model_dir": d})
        before = estimator._load_global_step_from_checkpoint_dir(d)
        est.train(input_fn, max_steps=3)
        after = estimator._load_global_step_from_checkpoint_dir(d)
        metrics = est.evaluate(input_fn, steps=2)
        events = [e for e in _events(tf, d) if e[1] == "learning_rate"]
    return {"before": int(before), "after": int(after),
            "metrics": {k: float(v) for k, v in metrics.items()}, "events": events}


def _lars_apply(tf, grads_and_vars, lr, momentum, weight_decay, eeta, exclude):
    """simclr's LARSOptimizer.apply_gradients (classic momentum): a "<var>/Momentum"
    get_variable per parameter, weight decay and the layer trust ratio
    eeta * |w| / |g| through nested tf.where on scalars, then assigns."""
    assignments = []
    for grad, param in grads_and_vars:
        name = param.op.name
        v = tf.get_variable(name=name + "/Momentum", shape=param.shape.as_list(),
                            dtype=tf.float32, trainable=False,
                            initializer=tf.zeros_initializer())
        use = not any(e in name for e in exclude)
        if use:
            grad += weight_decay * param
        trust_ratio = 1.0
        if use:
            w_norm = tf.norm(param, ord=2)
            g_norm = tf.norm(grad, ord=2)
            trust_ratio = tf.where(tf.greater(w_norm, 0),
                                   tf.where(tf.greater(g_norm, 0), eeta * w_norm / g_norm,
                                            1.0), 1.0)
        scaled_lr = lr * trust_ratio
        next_v = tf.multiply(momentum, v) + scaled_lr * grad
        assignments.extend([param.assign(param - next_v), v.assign(next_v)])
    return tf.group(*assignments)


@tolerance(rtol=1e-5, atol=1e-6)
def case_simclr_lars_and_summaries(tf):
    """google-research/simclr (TF1) model.py's training step, small: a projection head,
    its NT-Xent contrastive loss over two views (l2-normalized, masked self-logits), LARS
    (biases and batch norm excluded), and tf2 scalars under
    `control_dependencies([writer.init()])` and `record_if(global_step % 2 == 0)` made
    control deps of the train op (the run matched TF: losses, summaries per step, 191
    checkpoint variables)."""
    tf2 = tf.compat.v2
    rng = np.random.RandomState(5)
    x = tf.constant(rng.normal(size=(8, 6)).astype(np.float32))
    hidden = tf.layers.dense(x, 4, kernel_initializer=tf.constant_initializer(
        rng.normal(0, 0.5, (6, 4))), name="head_contrastive")
    hidden = tf.math.l2_normalize(hidden, -1)
    h1, h2 = tf.split(hidden, 2, 0)
    batch = tf.shape(h1)[0]
    labels = tf.one_hot(tf.range(batch), batch * 2)
    masks = tf.one_hot(tf.range(batch), batch)
    logits_aa = tf.matmul(h1, h1, transpose_b=True) / 0.5 - masks * 1e9
    logits_ab = tf.matmul(h1, h2, transpose_b=True) / 0.5
    loss = tf.losses.softmax_cross_entropy(labels, tf.concat([logits_ab, logits_aa], 1))
    gs = tf.train.get_or_create_global_step()
    logdir = tempfile.mkdtemp()
    try:
        writer = tf2.summary.create_file_writer(logdir)
        with tf.control_dependencies([writer.init()]):
            with writer.as_default():
                should = tf.math.equal(tf.math.floormod(gs, 2), 0)
                with tf2.summary.record_if(should):
                    tf2.summary.scalar("train_contrast_loss", loss, step=gs)
        deps = tf.summary.all_v2_summary_ops()
        with tf.control_dependencies(deps):
            grads = tf.gradients(loss, tf.trainable_variables())
            train = _lars_apply(tf, list(zip(grads, tf.trainable_variables())), 0.3, 0.9,
                                1e-4, 1e-3, ["bias"])
            with tf.control_dependencies([train]):
                train = tf.assign_add(gs, 1)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            losses = [sess.run([loss, train])[0] for _ in range(4)]
            sess.run(writer.flush())
            kernel = sess.run(tf.trainable_variables()[0])
        names = sorted(v.op.name for v in tf.global_variables())
        return {"losses": losses, "kernel": kernel, "names": names,
                "events": _events(tf, logdir)}
    finally:
        shutil.rmtree(logdir, ignore_errors=True)
