"""Golden cases: tf.estimator.Estimator with a custom model_fn (recorded under TF 2.15 +
tensorflow-estimator): training logs, model_dir contents, resume, evaluation, predict,
SavedModel export, EstimatorSpec/RunConfig validation, input_fn forms."""

import os

import numpy as np

from tests.golden.estimator_util import (as_py, capture_logs, listing, model_dir,
                                         saved_model_signatures)
from tests.golden.harness import catch

TF_VERSION = "2.15"

_X = (np.arange(36, dtype=np.float32).reshape(12, 3) / 36.) - 0.3
_Y = (_X.sum(1, keepdims=True) * 2. + 0.5).astype(np.float32)


def _linear_model_fn(tf):
    def model_fn(features, labels, mode, params):
        w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer(0.1))
        b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
        pred = tf.matmul(features["x"], w) + b
        if mode == tf.estimator.ModeKeys.PREDICT:
            return tf.estimator.EstimatorSpec(mode, predictions={"y": pred, "w_sum": pred * 0 +
                                                                 tf.reduce_sum(w)})
        loss = tf.losses.mean_squared_error(labels, pred)
        train_op = tf.train.GradientDescentOptimizer(params["lr"]).minimize(
            loss, global_step=tf.train.get_global_step())
        metrics = {"mae": tf.metrics.mean_absolute_error(labels, pred),
                   "rmse": tf.metrics.root_mean_squared_error(labels, pred)}
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                          eval_metric_ops=metrics)
    return model_fn


def _train_input(tf, epochs=None, batch=4):
    return tf.estimator.inputs.numpy_input_fn({"x": _X}, _Y, batch_size=batch,
                                              num_epochs=epochs, shuffle=False)


def _dataset_input(tf, epochs=None, batch=4):
    """A tf.data input_fn: its graph serializes, so `graph.pbtxt` and `.meta` files are
    written."""
    def input_fn():
        dataset = tf.data.Dataset.from_tensor_slices(({"x": _X}, _Y))
        return dataset.repeat(epochs).batch(batch)
    return input_fn


def case_train_evaluate_predict_resume(tf):
    out = {}
    with model_dir() as d:
        config = tf.estimator.RunConfig(save_summary_steps=2, log_step_count_steps=3,
                                        save_checkpoints_steps=5)
        est = tf.estimator.Estimator(_linear_model_fn(tf), model_dir=d, params={"lr": 0.1},
                                     config=config)
        with capture_logs(tf) as logs:
            est.train(_dataset_input(tf), steps=7)
        out["train_logs"] = logs
        out["variables"] = sorted(est.get_variable_names())
        out["w"] = est.get_variable_value("w")
        out["latest"] = os.path.basename(est.latest_checkpoint())
        out["files"] = listing(d)
        with capture_logs(tf) as logs:
            out["eval"] = as_py(est.evaluate(_dataset_input(tf, epochs=1)))
        out["eval_logs"] = logs
        with capture_logs(tf) as logs:
            out["eval_steps"] = as_py(est.evaluate(_dataset_input(tf), steps=2, name="two"))
        out["eval_steps_logs"] = logs
        out["files_after_eval"] = listing(d)
        preds = est.predict(tf.estimator.inputs.numpy_input_fn({"x": _X[:5]}, batch_size=2,
                                                               shuffle=False))
        out["predict"] = as_py(list(preds))
        batches = est.predict(tf.estimator.inputs.numpy_input_fn({"x": _X[:5]}, batch_size=2,
                                                                 shuffle=False),
                              predict_keys=["y"], yield_single_examples=False)
        out["predict_batches"] = as_py(list(batches))
        with capture_logs(tf) as logs:
            est.train(_dataset_input(tf), max_steps=7)
            est.train(_dataset_input(tf), max_steps=9)
        out["resume_logs"] = logs
        out["step_after_resume"] = est.get_variable_value("global_step")
        out["files_after_resume"] = listing(d)
    return out


def case_train_until_input_ends(tf):
    with model_dir() as d:
        est = tf.estimator.Estimator(_linear_model_fn(tf), model_dir=d, params={"lr": 0.05},
                                     config=tf.estimator.RunConfig(log_step_count_steps=1))
        with capture_logs(tf) as logs:
            est.train(_train_input(tf, epochs=2, batch=5))
        return {"logs": logs, "step": est.get_variable_value("global_step"),
                "b": est.get_variable_value("b")}


def case_model_fn_signatures_and_dataset_input(tf):
    def model_fn_features_labels_mode(features, labels, mode):
        w = tf.get_variable("w", [3, 1], initializer=tf.ones_initializer())
        pred = tf.matmul(features, w)
        if mode == tf.estimator.ModeKeys.PREDICT:
            return tf.estimator.EstimatorSpec(mode, predictions=pred)
        loss = tf.reduce_mean(tf.square(pred - labels))
        step = tf.train.get_global_step()
        return tf.estimator.EstimatorSpec(
            mode, loss=loss, predictions=pred,
            train_op=tf.train.AdagradOptimizer(0.1).minimize(loss, global_step=step))

    def input_fn():
        return tf.data.Dataset.from_tensor_slices((_X, _Y)).batch(6)

    def model_fn_with_config(features, labels, mode, config):
        assert config.tf_random_seed == 7
        return model_fn_features_labels_mode(features, labels, mode)
    out = {}
    with model_dir() as d:
        est = tf.estimator.Estimator(model_fn_features_labels_mode, model_dir=d)
        est.train(input_fn)
        out["step"] = est.get_variable_value("global_step")
        out["w"] = est.get_variable_value("w")
        out["predict"] = as_py(list(est.predict(
            lambda: tf.data.Dataset.from_tensor_slices(_X[:3]).batch(2))))
    with model_dir() as d:
        est = tf.estimator.Estimator(model_fn_with_config, model_dir=d,
                                     config=tf.estimator.RunConfig(tf_random_seed=7))
        est.train(input_fn, steps=1)
        out["eval"] = as_py(est.evaluate(input_fn))
    with model_dir() as d:
        out["params_without_arg"] = catch(lambda: tf.estimator.Estimator(
            model_fn_features_labels_mode, model_dir=d, params={"a": 1}), message=False)
        out["bad_arg"] = catch(lambda: tf.estimator.Estimator(
            lambda features, labels, foo: None, model_dir=d), message=False)
        out["no_features"] = catch(lambda: tf.estimator.Estimator(
            lambda labels, mode: None, model_dir=d), message=False)
    return out


def case_estimator_spec_validation(tf):
    out = {}
    g = tf.Graph()
    with g.as_default():
        loss = tf.constant(1.0)
        vec_loss = tf.constant([1.0, 2.0])
        op = tf.no_op()
        out["missing_train_op"] = catch(lambda: tf.estimator.EstimatorSpec(
            tf.estimator.ModeKeys.TRAIN, loss=loss), message=True)
        out["missing_loss"] = catch(lambda: tf.estimator.EstimatorSpec(
            tf.estimator.ModeKeys.EVAL), message=True)
        out["missing_predictions"] = catch(lambda: tf.estimator.EstimatorSpec(
            tf.estimator.ModeKeys.PREDICT), message=True)
        out["vector_loss"] = catch(lambda: tf.estimator.EstimatorSpec(
            tf.estimator.ModeKeys.EVAL, loss=vec_loss), message=False)
        out["bad_metrics"] = catch(lambda: tf.estimator.EstimatorSpec(
            tf.estimator.ModeKeys.EVAL, loss=loss, eval_metric_ops={"m": loss}),
            message=False)
        out["bad_hooks"] = catch(lambda: tf.estimator.EstimatorSpec(
            tf.estimator.ModeKeys.TRAIN, loss=loss, train_op=op, training_hooks=[1]),
            message=True)
        spec = tf.estimator.EstimatorSpec(tf.estimator.ModeKeys.PREDICT,
                                          predictions={"p": loss})
        out["export_keys"] = sorted(spec.export_outputs)
        out["export_type"] = type(spec.export_outputs["serving_default"]).__name__
        out["mode_change"] = catch(lambda: spec._replace(mode="train"), message=True)
        out["reshaped_loss"] = tf.estimator.EstimatorSpec(
            tf.estimator.ModeKeys.EVAL, loss=tf.constant([[2.0]])).loss.shape.as_list()
    with tf.Graph().as_default():
        out["other_graph"] = catch(lambda: tf.estimator.EstimatorSpec(
            tf.estimator.ModeKeys.EVAL, loss=loss), message=False)
    out["modes"] = [tf.estimator.ModeKeys.TRAIN, tf.estimator.ModeKeys.EVAL,
                    tf.estimator.ModeKeys.PREDICT]
    return out


def case_run_config(tf):
    c = tf.estimator.RunConfig()
    out = {"defaults": [c.model_dir, c.tf_random_seed, c.save_summary_steps,
                        c.save_checkpoints_steps, c.save_checkpoints_secs,
                        c.keep_checkpoint_max, c.keep_checkpoint_every_n_hours,
                        c.log_step_count_steps, c.is_chief, c.num_ps_replicas,
                        c.num_worker_replicas, c.task_type, c.task_id, c.master,
                        c.session_config is None]}
    r = c.replace(save_checkpoints_steps=50, model_dir="/tmp/x", tf_random_seed=3)
    out["replaced"] = [r.save_checkpoints_steps, r.save_checkpoints_secs, r.model_dir,
                       r.tf_random_seed, c.save_checkpoints_steps]
    out["both_ckpt"] = catch(lambda: tf.estimator.RunConfig(save_checkpoints_steps=1,
                                                            save_checkpoints_secs=1),
                             message=True)
    out["bad_replace"] = catch(lambda: c.replace(foo=1), message=False)
    out["negative"] = catch(lambda: tf.estimator.RunConfig(save_summary_steps=-1),
                            message=True)
    out["bad_seed"] = catch(lambda: tf.estimator.RunConfig(tf_random_seed=1.5), message=True)
    out["empty_dir"] = catch(lambda: tf.estimator.RunConfig(model_dir=""), message=True)
    with model_dir() as d:
        out["mismatch"] = catch(lambda: tf.estimator.Estimator(
            _linear_model_fn(tf), model_dir=d, config=tf.estimator.RunConfig(model_dir="/x"),
            params={"lr": 1.}), message=False)
        est = tf.estimator.Estimator(_linear_model_fn(tf), params={"lr": 1.},
                                     config=tf.estimator.RunConfig(model_dir=d))
        out["config_dir_used"] = est.model_dir == d
        out["session_config_filled"] = est.config.session_config is not None
        out["params_copy"] = est.params
        out["eval_dir"] = os.path.relpath(est.eval_dir("x"), d)
    return out


def case_train_argument_errors(tf):
    with model_dir() as d:
        est = tf.estimator.Estimator(_linear_model_fn(tf), model_dir=d, params={"lr": 0.1})
        inp = _train_input(tf)
        return {
            "both": catch(lambda: est.train(inp, steps=1, max_steps=2), message=True),
            "zero_steps": catch(lambda: est.train(inp, steps=0), message=True),
            "zero_max": catch(lambda: est.train(inp, max_steps=0), message=True),
            "bad_hook": catch(lambda: est.train(inp, steps=1, hooks=[3]), message=False),
            "no_checkpoint_values": catch(lambda: est.get_variable_names(), message=False),
            "eval_zero_steps": catch(lambda: est.evaluate(inp, steps=0), message=True),
            "latest_none": est.latest_checkpoint() is None,
        }


def case_numpy_input_fn_batches(tf):
    x = {"a": np.arange(10, dtype=np.int64), "b": np.arange(20, dtype=np.float32).reshape(10, 2)}
    y = np.arange(10, dtype=np.int32) * 10
    out = {}
    for epochs, batch in ((1, 4), (2, 3), (None, 4)):
        features, labels = tf.estimator.inputs.numpy_input_fn(
            x, y, batch_size=batch, num_epochs=epochs, shuffle=False)()
        out[f"shapes_{epochs}_{batch}"] = [features["a"].shape.as_list(),
                                          features["b"].shape.as_list(),
                                          labels.shape.as_list(), labels.dtype.name]
        batches = []
        with tf.train.MonitoredSession() as sess:
            for _ in range(8):
                if sess.should_stop():
                    break
                batches.append(sess.run([features["a"], labels]))
        out[f"batches_{epochs}_{batch}"] = batches
    # Shuffled: TF's order is random; what is fixed is each epoch's rows, once each, with
    # labels and string features kept aligned, and the batch sizes.
    x["s"] = np.array([f"r{i}" for i in range(10)])
    for epochs, batch in ((2, 4), (None, 3)):
        features, labels = tf.estimator.inputs.numpy_input_fn(
            x, y, batch_size=batch, num_epochs=epochs, shuffle=True)()
        rows = []
        with tf.train.MonitoredSession() as sess:
            for _ in range(7):
                if sess.should_stop():
                    break
                rows.append(sess.run([features["a"], features["b"], features["s"], labels]))
        out[f"shuffled_{epochs}_{batch}"] = {
            "shapes": [features["s"].shape.as_list(), features["s"].dtype.name],
            "sizes": [len(r[0]) for r in rows],
            "aligned": all((r[3] == r[0] * 10).all() and (r[1][:, 0] == 2 * r[0]).all()
                           and [s.decode() for s in r[2]] == [f"r{a}" for a in r[0]]
                           for r in rows),
            "rows": sorted(int(a) for r in rows for a in r[0]) if epochs else None}
    out["array_x"] = tf.estimator.inputs.numpy_input_fn(
        np.ones([4, 2]), batch_size=2, shuffle=False)().shape.as_list()
    out["shuffle_required"] = catch(lambda: tf.estimator.inputs.numpy_input_fn(x), message=True)
    out["bad_x"] = catch(lambda: tf.estimator.inputs.numpy_input_fn([1, 2], shuffle=False)(),
                         message=True)
    out["mismatch"] = catch(lambda: tf.estimator.inputs.numpy_input_fn(
        x, np.arange(3), shuffle=False)(), message=True)
    out["dup"] = catch(lambda: tf.estimator.inputs.numpy_input_fn(
        x, {"a": y}, shuffle=False)(), message=True)
    return out


def case_export_saved_model(tf):
    out = {}
    with model_dir() as d:
        est = tf.estimator.Estimator(_linear_model_fn(tf), model_dir=d, params={"lr": 0.1})
        out["no_model"] = catch(lambda: est.export_saved_model(
            os.path.join(d, "export"), lambda: None), message=False)
        est.train(_train_input(tf), steps=3)
        receiver = tf.estimator.export.build_raw_serving_input_receiver_fn(
            {"x": tf.placeholder(tf.float32, [None, 3], name="x")})
        path = est.export_saved_model(os.path.join(d, "export"), receiver)
        out["path_type"] = type(path).__name__
        out["files"] = listing(os.path.join(d, "export"))
        out["signatures"] = saved_model_signatures(tf, path, ["serve"])
        with tf.Graph().as_default(), tf.Session() as sess:
            meta = tf.saved_model.loader.load(sess, ["serve"], path)
            sig = meta.signature_def["serving_default"]
            out["served"] = sess.run(sig.outputs["y"].name, {sig.inputs["x"].name: _X[:2]})
        feature_spec = {"x": tf.FixedLenFeature([3], tf.float32)}
        parsing = tf.estimator.export.build_parsing_serving_input_receiver_fn(feature_spec)
        path2 = est.export_savedmodel(os.path.join(d, "export2"), parsing)
        out["parsing_signatures"] = saved_model_signatures(tf, path2, ["serve"])
    return out


def case_export_outputs_and_receivers(tf):
    out = {}
    with tf.Graph().as_default():
        s = tf.placeholder(tf.string, [None])
        f = tf.placeholder(tf.float32, [None, 2])
        scores = tf.placeholder(tf.float32, [None, 3])
        classes = tf.placeholder(tf.string, [None, 3])
        out["classification"] = catch(
            lambda: (lambda o: [o.scores is f, o.classes is None])(
                tf.estimator.export.ClassificationOutput(scores=f)), message=False)
        out["bad_classes"] = catch(
            lambda: tf.estimator.export.ClassificationOutput(classes=f), message=True)
        out["empty"] = catch(lambda: tf.estimator.export.ClassificationOutput(), message=True)
        out["regression_int"] = catch(lambda: tf.estimator.export.RegressionOutput(
            tf.placeholder(tf.int32, [None])), message=True)
        sig = tf.estimator.export.ClassificationOutput(scores=scores, classes=classes
                                                       ).as_signature_def({"in": s})
        out["class_sig"] = [sig.method_name, sorted(sig.inputs), sorted(sig.outputs)]
        out["class_sig_multi"] = catch(lambda: tf.estimator.export.ClassificationOutput(
            scores=scores).as_signature_def({"a": s, "b": s}), message=False)
        pred = tf.estimator.export.PredictOutput(f)
        out["predict_single"] = sorted(pred.outputs)
        receiver = tf.estimator.export.ServingInputReceiver(f, s)
        out["receiver"] = [sorted(receiver.features), sorted(receiver.receiver_tensors)]
        out["bad_receiver"] = catch(lambda: tf.estimator.export.ServingInputReceiver(
            {"a": 1}, s), message=True)
        tensor_receiver = tf.estimator.export.TensorServingInputReceiver(f, {"in": f})
        out["tensor_receiver"] = tensor_receiver.features.name
    return out


def case_add_metrics_and_stop_hook(tf):
    out = {}
    with model_dir() as d:
        est = tf.estimator.Estimator(_linear_model_fn(tf), model_dir=d, params={"lr": 0.1})
        est.train(_train_input(tf), steps=3)

        def metric_fn(labels, predictions, features):
            # the spec's predictions: {} here (EVAL spec without predictions)
            return {"mean_x": tf.metrics.mean(features["x"]),
                    "mae": tf.metrics.mean(tf.abs(labels)),
                    "n_predictions": tf.metrics.mean(float(len(predictions)))}
        wrapped = tf.estimator.add_metrics(est, metric_fn)
        out["same_dir"] = wrapped.model_dir == est.model_dir
        out["eval"] = as_py(wrapped.evaluate(_train_input(tf, epochs=1)))
        out["bad_fn"] = catch(lambda: tf.estimator.add_metrics(est, lambda mode: {}),
                              message=False)
        hook = tf.estimator.experimental.make_stop_at_checkpoint_step_hook(est, 5)
        out["hook"] = type(hook).__name__
        est.train(_train_input(tf), hooks=[hook])
        out["step"] = int(est.get_variable_value("global_step"))
    return out
