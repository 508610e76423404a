"""Golden cases: TF1 mixed precision — tf.train.experimental / tf.mixed_precision loss
scales (FixedLossScale, DynamicLossScale: update rule, variables, checkpoint keys),
MixedPrecisionLossScaleOptimizer (skipped steps on non-finite gradients, global_step),
enable/disable_mixed_precision_graph_rewrite (on the CPU numerics stay float32)."""

import os
import tempfile

import numpy as np

from tests.golden.harness import catch

W0 = np.array([[0.5, -1.0], [1.5, 0.25]], np.float32)
X = np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)


def _loss_scale_steps(tf, loss_scale, finite_pattern):
    """Runs `loss_scale.update` with finite or infinite gradients per step; returns the
    loss scale and good-step count after each and `should_apply_gradients`."""
    g = tf.placeholder(tf.float32, [2], name="g")
    update_op, should_apply = loss_scale.update([g, None])
    scale = loss_scale()
    out = {"scale": {"name": scale.name, "dtype": scale.dtype.name},
           "variables": sorted(v.name for v in tf.global_variables()),
           "trainable": [v.name for v in tf.trainable_variables()],
           "config": loss_scale.get_config(), "repr": repr(loss_scale),
           "should_apply_is_bool": isinstance(should_apply, bool)}
    steps = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for finite in finite_pattern:
            feed = {g: [1.0, 2.0] if finite else [1.0, np.inf if finite is False else np.nan]}
            fetches = [update_op] + ([] if isinstance(should_apply, bool) else [should_apply])
            ran = sess.run(fetches, feed)
            steps.append([bool(ran[1]) if len(ran) > 1 else should_apply,
                          float(sess.run(scale))] + [
                              int(sess.run(v)) for v in tf.global_variables()
                              if "good_steps" in v.name])
    out["steps"] = steps
    return out


def case_dynamic_loss_scale_rule(tf):
    ls = tf.train.experimental.DynamicLossScale(initial_loss_scale=8, increment_period=3,
                                                multiplier=4.)
    return _loss_scale_steps(tf, ls, [True, True, True, True, False, None, True, True, True,
                                      False, False, False])


def case_dynamic_loss_scale_defaults(tf):
    ls = tf.mixed_precision.DynamicLossScale()
    out = {"initial": ls.initial_loss_scale, "period": ls.increment_period,
           "multiplier": ls.multiplier}
    out.update(_loss_scale_steps(tf, ls, [True, False, True]))
    return out


def case_dynamic_loss_scale_floor_one(tf):
    ls = tf.mixed_precision.experimental.DynamicLossScale(initial_loss_scale=2,
                                                          increment_period=1)
    return _loss_scale_steps(tf, ls, [False, False, False, True, True])


def case_dynamic_loss_scale_no_overflow_to_inf(tf):
    ls = tf.train.experimental.DynamicLossScale(initial_loss_scale=3e38,
                                                increment_period=1, multiplier=2.)
    return _loss_scale_steps(tf, ls, [True, True])


def case_fixed_loss_scale(tf):
    ls = tf.train.experimental.FixedLossScale(128)
    out = _loss_scale_steps(tf, ls, [True, False])
    out["errors"] = [catch(lambda: tf.train.experimental.FixedLossScale(0.5), message=True),
                     catch(lambda: tf.train.experimental.FixedLossScale("8"), message=True)]
    return out


def case_loss_scale_names_in_scopes(tf):
    with tf.name_scope("outer"):
        a = tf.train.experimental.DynamicLossScale()
    b = tf.train.experimental.DynamicLossScale()
    with tf.variable_scope("vs"):
        c = tf.train.experimental.DynamicLossScale()
    return {"names": [v.name for v in tf.global_variables()],
            "types": [type(v).__name__ for v in tf.global_variables()][:1],
            "local": [v.name for v in tf.local_variables()],
            "a": a().name, "b": b().name, "c": c().name}


def _train(tf, loss_scale, feeds, global_step=True, opt_name="GradientDescent"):
    w = tf.get_variable("w", initializer=tf.constant(W0))
    factor = tf.placeholder(tf.float32, [], name="factor")
    loss = tf.reduce_sum(tf.square(tf.matmul(tf.constant(X), w))) * factor
    gs = tf.train.get_or_create_global_step() if global_step else None
    opt = tf.train.experimental.MixedPrecisionLossScaleOptimizer(
        tf.train.MomentumOptimizer(0.01, 0.9, name=opt_name), loss_scale)
    grads_and_vars = opt.compute_gradients(loss)
    train_op = opt.apply_gradients(grads_and_vars, global_step=gs)
    out = {"train_op": [train_op.name, train_op.type], "opt_name": opt.get_name(),
           "grad": grads_and_vars[0][0].name,
           "variables": [v.name for v in opt.variables()],
           "globals": [v.name for v in tf.global_variables()]}
    history = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for f in feeds:
            grad = sess.run(grads_and_vars[0][0], {factor: f})
            sess.run(train_op, {factor: f})
            row = {"grad": grad, "w": sess.run(w)}
            if gs is not None:
                row["gs"] = sess.run(gs)
            row["vars"] = sess.run([v for v in opt.variables()
                                    if "loss_scale" in v.name or "good_steps" in v.name])
            history.append(row)
    out["history"] = history
    return out


def case_optimizer_dynamic(tf):
    return _train(tf, "dynamic", [1.0, np.inf, 0.5, np.nan, 1.0])


def case_optimizer_dynamic_small_period(tf):
    ls = tf.train.experimental.DynamicLossScale(initial_loss_scale=4., increment_period=2)
    return _train(tf, ls, [1.0, 1.0, 1.0, np.inf, 1.0, 1.0], global_step=False)


def case_optimizer_fixed(tf):
    return _train(tf, 1024, [1.0, np.inf, 2.0])


def case_optimizer_minimize_and_checkpoint(tf):
    w = tf.get_variable("w", initializer=tf.constant(W0))
    loss = tf.reduce_sum(tf.square(tf.matmul(tf.constant(X), w)))
    gs = tf.train.get_or_create_global_step()
    opt = tf.mixed_precision.MixedPrecisionLossScaleOptimizer(
        tf.train.AdamOptimizer(0.01), "dynamic")
    train_op = opt.minimize(loss, global_step=gs)
    saver = tf.train.Saver()
    out = {}
    with tempfile.TemporaryDirectory() as d, tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train_op)
        prefix = saver.save(sess, os.path.join(d, "model.ckpt"))
        out["saver_keys"] = sorted(n for n, _ in tf.train.list_variables(prefix))
        ckpt = tf.train.Checkpoint(optimizer=opt, w=w)
        path = ckpt.save(os.path.join(d, "obj"), session=sess)
        out["object_keys"] = sorted(n for n, _ in tf.train.list_variables(path)
                                    if "OBJECT_CONFIG" not in n)
        out["w"] = sess.run(w)
    return out


def case_optimizer_errors(tf):
    w = tf.get_variable("w", initializer=tf.constant(W0))
    del w
    return [catch(lambda: tf.train.experimental.MixedPrecisionLossScaleOptimizer(
                "sgd", "dynamic")),
            catch(lambda: tf.train.experimental.MixedPrecisionLossScaleOptimizer(
                tf.train.GradientDescentOptimizer(0.1), None), message=True),
            catch(lambda: tf.train.experimental.MixedPrecisionLossScaleOptimizer(
                tf.train.GradientDescentOptimizer(0.1), "static"), message=True)]


def case_graph_rewrite_cpu_float32(tf):
    """On the CPU the rewrite leaves numerics float32 (TF only converts on GPUs)."""
    x = tf.constant(np.array([[1.0 / 3.0, 2.0 / 3.0], [1e-5, 7.123456]], np.float32))
    w = tf.get_variable("w", initializer=tf.constant(
        np.array([[1.000123, -0.333333], [3.14159265, 2.7182818]], np.float32)))
    y = tf.nn.relu(tf.matmul(x, w)) + 1e-7
    loss = tf.reduce_mean(tf.square(y))
    opt = tf.train.experimental.enable_mixed_precision_graph_rewrite(
        tf.train.GradientDescentOptimizer(0.5))
    train_op = opt.minimize(loss)
    out = {"type": type(opt).__name__, "inner": type(opt._optimizer).__name__,
           "dtype": y.dtype.name}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out["y"] = sess.run(y)
        sess.run(train_op)
        out["w"] = sess.run(w)
    tf.train.experimental.disable_mixed_precision_graph_rewrite()
    out["double_wrap"] = catch(
        lambda: tf.mixed_precision.enable_mixed_precision_graph_rewrite(opt), message=True)
    tf.mixed_precision.disable_mixed_precision_graph_rewrite()
    out["not_optimizer"] = catch(
        lambda: tf.mixed_precision.enable_mixed_precision_graph_rewrite(3), message=True)
    tf.mixed_precision.disable_mixed_precision_graph_rewrite()
    return out


def case_graph_rewrite_fixed_scale(tf):
    opt = tf.train.experimental.enable_mixed_precision_graph_rewrite(
        tf.train.GradientDescentOptimizer(0.5), loss_scale=64)
    tf.train.experimental.disable_mixed_precision_graph_rewrite()
    return {"type": type(opt).__name__, "scale": type(opt._loss_scale).__name__,
            "repr": repr(opt._loss_scale)}


# -- tf.keras.mixed_precision.LossScaleOptimizer (tf-keras 2.21, v1 training loop) ----------

def _keras_model(tf):
    model = tf.keras.Sequential([tf.keras.layers.Dense(
        2, input_shape=(2,), kernel_initializer=tf.keras.initializers.Constant(W0))])
    return model


def case_keras_loss_scale_optimizer_fit(tf):
    opt = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(0.05),
                                                      initial_scale=8.,
                                                      dynamic_growth_steps=2)
    model = _keras_model(tf)
    model.compile(opt, "mse")
    y = np.array([[1.0, 0.0], [0.0, 1.0]], np.float32)
    x_bad = np.array([[1.0, np.inf], [3.0, -1.0]], np.float32)
    sess = tf.keras.backend.get_session()
    out = {"props": [opt.dynamic, opt.initial_scale, opt.dynamic_growth_steps,
                     type(opt.inner_optimizer).__name__],
           "config": opt.get_config()["dynamic_growth_steps"]}
    history = []
    for x in [X, X, X, x_bad, X]:
        loss = model.train_on_batch(x, y)
        history.append([float(loss), sess.run(opt.loss_scale),
                        int(sess.run(opt.dynamic_counter)),
                        int(sess.run(opt.iterations)), model.get_weights()[0]])
    out["history"] = history
    out["globals"] = sorted(v.name for v in tf.global_variables())
    out["weights"] = [w.name for w in opt.weights]
    return out


def case_keras_loss_scale_optimizer_fixed_and_scaling(tf):
    opt = tf.keras.mixed_precision.LossScaleOptimizer(
        tf.keras.optimizers.SGD(0.1), dynamic=False, initial_scale=16)
    loss = tf.constant(2.0)
    g = tf.constant([32.0, 64.0])
    with tf.Session() as sess:
        values = sess.run([opt.get_scaled_loss(loss), opt.get_unscaled_gradients([g, None])[0],
                           opt.loss_scale])
    return {"values": values, "dynamic": opt.dynamic, "counter": opt.dynamic_counter,
            "config": opt.get_config()["initial_scale"],
            "errors": [catch(lambda: tf.keras.mixed_precision.LossScaleOptimizer(
                           tf.train.GradientDescentOptimizer(0.1))),
                       catch(lambda: tf.keras.mixed_precision.LossScaleOptimizer(
                           tf.keras.optimizers.SGD(), dynamic=False), message=True),
                       catch(lambda: tf.keras.mixed_precision.LossScaleOptimizer(
                           tf.keras.optimizers.SGD(), dynamic=1), message=True),
                       catch(lambda: tf.keras.mixed_precision.LossScaleOptimizer(opt))]}


def case_graph_rewrite_keras_optimizer(tf):
    wrapped = [tf.train.experimental.enable_mixed_precision_graph_rewrite(
        tf.keras.optimizers.SGD(0.1), loss_scale=ls) for ls in
        ["dynamic", 128, tf.train.experimental.DynamicLossScale(4., 10)]]
    tf.train.experimental.disable_mixed_precision_graph_rewrite()
    err = catch(lambda: tf.train.experimental.enable_mixed_precision_graph_rewrite(
        tf.keras.optimizers.SGD(0.1),
        loss_scale=tf.train.experimental.DynamicLossScale(multiplier=3.)), message=True)
    tf.train.experimental.disable_mixed_precision_graph_rewrite()
    return {"types": [type(w).__name__ for w in wrapped],
            "props": [[w.dynamic, w.initial_scale, w.dynamic_growth_steps] for w in wrapped],
            "error": err}
