"""Golden cases: tf.estimator in a TF_CONFIG cluster (recorded under TF 2.15 +
tensorflow-estimator): RunConfig's cluster values, default session configs (device filters)
and errors per task type; the errors of Estimator.train / train_and_evaluate for tasks
that cannot train. The cluster itself runs in tests/test_estimator_distributed.py."""

import contextlib
import json
import os

import numpy as np

from tests.golden.estimator_util import model_dir
from tests.golden.harness import catch

TF_VERSION = "2.15"

_CLUSTER = {"chief": ["host0:2222"], "worker": ["host1:2222", "host2:2222"],
            "ps": ["host3:2222", "host4:2222"]}


@contextlib.contextmanager
def _tf_config(config):
    previous = os.environ.get("TF_CONFIG")
    os.environ["TF_CONFIG"] = json.dumps(config)
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("TF_CONFIG", None)
        else:
            os.environ["TF_CONFIG"] = previous


def _describe(tf, config=None, **kwargs):
    def describe():
        r = tf.estimator.RunConfig(**kwargs)
        sc = r.session_config
        return {"cluster": r.cluster_spec.as_dict(), "task": [r.task_type, r.task_id],
                "master": r.master, "evaluation_master": r.evaluation_master,
                "is_chief": r.is_chief, "num_ps": r.num_ps_replicas,
                "num_workers": r.num_worker_replicas, "global_id": r.global_id_in_cluster,
                "session_config": None if sc is None else [
                    list(sc.device_filters), sc.allow_soft_placement,
                    sc.graph_options.rewrite_options.meta_optimizer_iterations],
                "bool_cluster": bool(r.cluster_spec)}
    with _tf_config(config):
        return catch(describe, message=True)


def case_run_config_cluster_tasks(tf):
    out = {}
    for task_type, count in (("chief", 1), ("worker", 2), ("ps", 2), ("evaluator", 1)):
        for index in range(count):
            out[f"{task_type}{index}"] = _describe(
                tf, {"cluster": _CLUSTER, "task": {"type": task_type, "index": index}})
    master = {"master": ["m:1"], "worker": ["w:1"], "ps": ["p:1"]}
    out["master"] = _describe(tf, {"cluster": master, "task": {"type": "master", "index": 0}})
    out["master_worker"] = _describe(tf, {"cluster": master,
                                          "task": {"type": "worker", "index": 0}})
    out["chief_only"] = _describe(tf, {"cluster": {"chief": ["c:1"]},
                                       "task": {"type": "chief", "index": 0}})
    out["session_master"] = _describe(tf, {"cluster": _CLUSTER,
                                           "task": {"type": "worker", "index": 1},
                                           "session_master": "grpc://elsewhere:1",
                                           "eval_session_master": "grpc://eval:1"})
    out["eval_session_master"] = _describe(tf, {"cluster": _CLUSTER,
                                                "task": {"type": "evaluator", "index": 0},
                                                "eval_session_master": "grpc://eval:1"})
    out["given_session_config"] = _describe(
        tf, {"cluster": _CLUSTER, "task": {"type": "worker", "index": 0}},
        session_config=tf.ConfigProto(log_device_placement=True))
    return out


def case_run_config_cluster_errors(tf):
    def task(t, i, cluster=_CLUSTER):
        return {"cluster": cluster, "task": {"type": t, "index": i}}
    return {
        "bad_index": _describe(tf, task("worker", 2)),
        "bad_type": _describe(tf, task("trainer", 0)),
        "negative": _describe(tf, task("worker", -1)),
        "no_type": _describe(tf, {"cluster": _CLUSTER, "task": {"index": 0}}),
        "no_index": _describe(tf, {"cluster": _CLUSTER, "task": {"type": "worker"}}),
        "no_chief": _describe(tf, task("worker", 0, {"worker": ["w:1"], "ps": ["p:1"]})),
        "two_chiefs": _describe(tf, task("chief", 0, {"chief": ["c:1", "c:2"]})),
        "master_and_chief": _describe(tf, task("master", 0, {"master": ["m:1"],
                                                             "chief": ["c:1"]})),
        "no_cluster_ps": _describe(tf, {"task": {"type": "ps", "index": 0}}),
        "no_cluster_index": _describe(tf, {"task": {"type": "worker", "index": 1}}),
    }


def _model_fn(tf):
    def model_fn(features, labels, mode):
        w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
        loss = tf.reduce_mean(tf.square(tf.matmul(features["x"], w) - labels))
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=tf.train.GradientDescentOptimizer(
            0.1).minimize(loss, global_step=tf.train.get_global_step()))
    return model_fn


def case_tasks_that_cannot_train(tf):
    x = {"x": np.ones([4, 3], np.float32)}
    y = np.ones([4, 1], np.float32)
    out = {}
    for name, task in (("ps", {"type": "ps", "index": 0}),
                       ("evaluator", {"type": "evaluator", "index": 0}),
                       ("evaluator1", {"type": "evaluator", "index": 1})):
        with _tf_config({"cluster": _CLUSTER, "task": task}), model_dir() as d:
            est = tf.estimator.Estimator(_model_fn(tf), model_dir=d)
            inp = tf.estimator.inputs.numpy_input_fn(x, y, batch_size=2, shuffle=False)
            out[name] = {"train": catch(lambda: est.train(inp, max_steps=2), message=False)}
            if name == "evaluator1":
                out[name]["train_and_evaluate"] = catch(
                    lambda: tf.estimator.train_and_evaluate(
                        est, tf.estimator.TrainSpec(inp, max_steps=2),
                        tf.estimator.EvalSpec(inp)), message=True)
    return out


def case_evaluator_task(tf):
    """The evaluator task needs no server: it evaluates the newest checkpoint, exports, and
    stops once a checkpoint reached TrainSpec.max_steps."""
    x = {"x": np.arange(12, dtype=np.float32).reshape(4, 3) / 12.}
    y = np.ones([4, 1], np.float32)
    calls = []

    class Recorder(tf.estimator.Exporter):
        name = "recorder"

        def export(self, estimator, export_path, checkpoint_path, eval_result,
                   is_the_final_export):
            calls.append([os.path.basename(checkpoint_path), bool(is_the_final_export),
                          {k: float(v) for k, v in sorted(eval_result.items())},
                          os.path.relpath(export_path, estimator.model_dir)])
            return "exported"

    with model_dir() as d:
        inp = tf.estimator.inputs.numpy_input_fn(x, y, batch_size=2, num_epochs=None,
                                                 shuffle=False)
        ev = tf.estimator.inputs.numpy_input_fn(x, y, batch_size=4, num_epochs=1,
                                                shuffle=False)
        tf.estimator.Estimator(_model_fn(tf), model_dir=d).train(inp, max_steps=3)
        with _tf_config({"cluster": _CLUSTER, "task": {"type": "evaluator", "index": 0}}):
            est = tf.estimator.Estimator(_model_fn(tf), model_dir=d)
            result = tf.estimator.train_and_evaluate(
                est, tf.estimator.TrainSpec(inp, max_steps=3),
                tf.estimator.EvalSpec(ev, steps=None, exporters=[Recorder()],
                                      start_delay_secs=0, throttle_secs=0))
        return {"result": result, "calls": calls, "eval_dir": os.path.isdir(
            os.path.join(d, "eval"))}
