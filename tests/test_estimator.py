"""Estimator-area behaviour the TF 2.15 goldens cannot show: tf.contrib.training.HParams,
tf.contrib.learn (RunConfig.uid, learn_runner, Experiment schedules, ValidationMonitor),
numpy_input_fn outside an Estimator, the TPU stand-ins, import paths and unsupported
corners (TF 1.15 behaviour from its sources)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.contrib.learn import experiment as learn_experiment
from tests.child_env import child_env

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HParams = tf.contrib.training.HParams
learn = tf.contrib.learn

_X = (np.arange(48, dtype=np.float32).reshape(16, 3) / 48.) - 0.3
_Y = (_X.sum(1, keepdims=True) * 2. + 0.5).astype(np.float32)


# -- HParams (TF 1.15 contrib/training/python/training/hparam.py) ----------------------------

def test_hparams_types_and_values():
    hp = HParams(lr=0.1, steps=10, name="adam", flag=True, layers=[64, 32])
    assert (hp.lr, hp.steps, hp.name, hp.flag, hp.layers) == (0.1, 10, "adam", True, [64, 32])
    assert hp.values() == {"lr": 0.1, "steps": 10, "name": "adam", "flag": True,
                           "layers": [64, 32]}
    assert "lr" in hp and "nope" not in hp
    assert str(hp) == "lr=0.1,steps=10,name=adam,flag=True,layers=[64, 32]"
    assert repr(hp) == ("HParams([('flag', True), ('layers', [64, 32]), ('lr', 0.1), "
                        "('name', 'adam'), ('steps', 10)])")
    assert json.loads(hp.to_json()) == hp.values()
    assert hp.to_json(sort_keys=True).startswith('{"flag": true')


def test_hparams_parse():
    hp = HParams(lr=0.1, steps=10, name="adam", flag=True, layers=[64, 32], rates=[0.5])
    assert hp.parse("lr=0.3, steps=20,name=sgd,flag=false,layers=[8,4,2],rates=[1, 2.5]") is hp
    assert hp.values() == {"lr": 0.3, "steps": 20, "name": "sgd", "flag": False,
                           "layers": [8, 4, 2], "rates": [1.0, 2.5]}
    assert isinstance(hp.steps, int) and isinstance(hp.rates[0], float)
    hp.parse("flag=1")
    assert hp.flag is True
    hp.parse("lr=3")                      # an int is a valid float hparam
    assert hp.lr == 3.0 and isinstance(hp.lr, float)


@pytest.mark.parametrize("values,message", [
    ("steps=1.5", "Could not parse hparam 'steps' of type 'int' with value '1.5' in "
                  "steps=1.5"),
    ("flag=maybe", "Could not parse hparam 'flag' of type 'bool' with value 'maybe' in "
                   "flag=maybe"),
    ("nope=1", "Unknown hyperparameter type for nope"),
    ("steps=1,steps=2", "Multiple assignments to variable 'steps' in steps=1,steps=2"),
    ("steps", "Malformed hyperparameter value: steps"),
    ("layers[0]=[1,2]", "Assignment of a list to a list index."),
    ("layers=3", "Must pass a list for multi-valued parameter: layers."),
    ("steps=[1,2]", "Must not pass a list for single-valued parameter: steps"),
    # TF's parse produces {index: value} for `name[i]=v`, which HParams then rejects.
    ("layers[1]=3", "Must pass a list for multi-valued parameter: layers."),
])
def test_hparams_parse_errors(values, message):
    hp = HParams(steps=10, flag=True, layers=[64, 32])
    with pytest.raises(ValueError) as e:
        hp.parse(values)
    assert str(e.value) == message


def test_hparams_set_add_del_get_override():
    hp = HParams(lr=0.1, steps=10, name="adam", layers=[1, 2])
    hp.set_hparam("lr", 1)
    assert hp.lr == 1.0 and isinstance(hp.lr, float)
    with pytest.raises(ValueError, match=r"Could not cast hparam 'steps' of type "
                                         r"'<class 'int'>' from value 0.5"):
        hp.set_hparam("steps", 0.5)
    with pytest.raises(ValueError, match="Could not cast hparam 'name'"):
        hp.set_hparam("name", 3)
    with pytest.raises(ValueError, match="Could not cast hparam 'steps'"):
        hp.set_hparam("steps", True)
    with pytest.raises(KeyError):
        hp.set_hparam("nope", 1)
    with pytest.raises(KeyError):
        hp.override_from_dict({"nope": 1})
    hp.add_hparam("extra", "x")
    assert hp.extra == "x"
    with pytest.raises(ValueError, match="Hyperparameter name is reserved: values"):
        hp.add_hparam("values", 1)
    with pytest.raises(ValueError, match="Multi-valued hyperparameters cannot be empty: e"):
        hp.add_hparam("e", [])
    hp.del_hparam("extra")
    hp.del_hparam("absent")
    assert "extra" not in hp
    assert hp.get("steps", 3) == 10 and hp.get("absent", 7) == 7
    with pytest.raises(ValueError, match="Hparam 'steps' of type .* is incompatible with "
                                         "default=x"):
        hp.get("steps", "x")
    with pytest.raises(ValueError, match="incompatible with default=1"):
        hp.get("layers", 1)
    assert hp.override_from_dict({"steps": 5, "layers": [3]}) is hp
    assert (hp.steps, hp.layers) == (5, [3])
    hp.parse_json('{"lr": 0.5, "name": "sgd"}')
    assert (hp.lr, hp.name) == (0.5, "sgd")
    with pytest.raises(AssertionError):     # TF 1.15 asserts the type of an HParamDef
        HParams(hparam_def=object())


# -- contrib.learn RunConfig and learn_runner ------------------------------------------------

def test_contrib_run_config_uid():
    config = learn.RunConfig(model_dir="/tmp/x", tf_random_seed=3, num_cores=2)
    assert isinstance(config, tf.estimator.RunConfig)
    assert config.tf_config.intra_op_parallelism_threads == 2
    assert config.save_checkpoints_secs == 600 and config.environment == "local"
    same = learn.RunConfig(model_dir="/tmp/x", tf_random_seed=99, num_cores=2)
    assert config.uid() == same.uid()    # tf_random_seed is whitelisted
    other = learn.RunConfig(model_dir="/tmp/y", num_cores=2)
    assert config.uid() != other.uid()
    assert config.uid(whitelist=[]) != same.uid(whitelist=[])
    replaced = config.replace(save_checkpoints_steps=5, save_checkpoints_secs=None)
    assert replaced.save_checkpoints_steps == 5 and replaced.model_dir == "/tmp/x"


def _model_fn(features, labels, mode, params):
    w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer(0.1))
    pred = tf.matmul(features["x"], w)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"y": pred})
    loss = tf.losses.mean_squared_error(labels, pred)
    train_op = tf.train.GradientDescentOptimizer(params.get("lr", 0.1) if params else 0.1) \
        .minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(
        mode, loss=loss, train_op=train_op, predictions={"y": pred},
        eval_metric_ops={"mae": tf.metrics.mean_absolute_error(labels, pred)},
        export_outputs={"y": tf.estimator.export.PredictOutput({"y": pred})})


def _input(epochs=None, batch=4):
    return tf.estimator.inputs.numpy_input_fn({"x": _X}, _Y, batch_size=batch,
                                              num_epochs=epochs, shuffle=False)


def _serving():
    return tf.estimator.export.build_raw_serving_input_receiver_fn(
        {"x": tf.placeholder(tf.float32, [None, 3])})


def _experiment(model_dir, config=None, **kwargs):
    config = config or learn.RunConfig(model_dir=model_dir, save_checkpoints_steps=5,
                                       save_checkpoints_secs=None, log_step_count_steps=1000)
    est = tf.estimator.Estimator(_model_fn, config=config)
    kwargs.setdefault("train_steps", 10)
    kwargs.setdefault("eval_steps", None)
    return learn.Experiment(est, train_input_fn=_input(), eval_input_fn=_input(epochs=1),
                            **kwargs)


def test_learn_runner_errors(tmp_path):
    config = learn.RunConfig(model_dir=str(tmp_path))
    with pytest.raises(ValueError, match="Cannot provide both `output_dir` and `run_config`"):
        learn.learn_runner.run(lambda c, h: None, output_dir="x", run_config=config)
    with pytest.raises(ValueError, match="Must set value for `output_dir` or `run_config`"):
        learn.learn_runner.run(lambda c, h: None)
    with pytest.raises(TypeError, match="is not callable"):
        learn.learn_runner.run(3, run_config=config)
    with pytest.raises(ValueError, match="must be `tf.contrib.learn.RunConfig` instance"):
        learn.learn_runner.run(lambda c, h: None,
                               run_config=tf.estimator.RunConfig(model_dir=str(tmp_path)))
    with pytest.raises(ValueError, match="Must specify a model directory"):
        learn.learn_runner.run(lambda c, h: None, run_config=learn.RunConfig())
    with pytest.raises(ValueError, match="`hparams` must be `HParams` instance"):
        learn.learn_runner.run(lambda c, h: None, run_config=config, hparams={"a": 1})
    with pytest.raises(TypeError, match="did not return an Experiment instance"):
        learn.learn_runner.run(lambda c, h: 3, run_config=config)
    # The Estimator must get the run_config learn_runner passed (same uid).
    other = learn.RunConfig(model_dir=str(tmp_path / "other"))
    with pytest.raises(RuntimeError, match="`RunConfig` instance is expected to be used"):
        learn.learn_runner.run(lambda c, h: _experiment(str(tmp_path), config=other),
                               run_config=config)
    with pytest.raises(ValueError, match="Schedule references non-existent task nope"):
        learn.learn_runner.run(lambda c, h: _experiment(str(tmp_path), config=c),
                               run_config=config, schedule="nope")
    with pytest.raises(TypeError, match="Schedule references non-callable member "
                                        "train_steps"):
        learn.learn_runner.run(lambda c, h: _experiment(str(tmp_path), config=c),
                               run_config=config, schedule="train_steps")
    with pytest.raises(ValueError, match="Must set `hparams` as None"):
        learn.learn_runner.run(lambda output_dir: None, output_dir=str(tmp_path),
                               hparams=HParams(a=1))


def test_learn_runner_train_and_evaluate_with_export(tmp_path):
    seen = {}

    def experiment_fn(run_config, hparams):
        seen["hparams"] = hparams
        strategy = learn.make_export_strategy(_serving(), exports_to_keep=1)
        return _experiment(str(tmp_path), config=run_config, export_strategies=[strategy],
                           min_eval_frequency=None)
    config = learn.RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=5,
                             save_checkpoints_secs=None)
    hparams = HParams(lr=0.1)
    metrics, exports = learn.learn_runner.run(experiment_fn, run_config=config,
                                              hparams=hparams)
    assert seen["hparams"] is hparams
    assert metrics["global_step"] == 10 and set(metrics) == {"loss", "mae", "global_step"}
    assert len(exports) == 1
    export_dir = exports[0].decode() if isinstance(exports[0], bytes) else exports[0]
    assert os.path.exists(os.path.join(export_dir, "saved_model.pb"))
    assert os.path.dirname(export_dir) == str(tmp_path / "export" / "Servo")
    assert os.path.isdir(tmp_path / "eval")


def test_learn_runner_output_dir_form_and_schedules(tmp_path, monkeypatch):
    def experiment_fn(output_dir):
        return _experiment(output_dir, train_steps=4)
    out = learn.learn_runner.run(experiment_fn, output_dir=str(tmp_path), schedule="train")
    assert isinstance(out, tf.estimator.Estimator)
    assert tf.train.load_variable(str(tmp_path), "global_step") == 4
    # The "evaluate" schedule first waits eval_delay_secs (TF's default: 120 s).
    slept = []
    monkeypatch.setattr(learn_experiment.time, "sleep", slept.append)
    result = learn.learn_runner.run(experiment_fn, output_dir=str(tmp_path),
                                    schedule="evaluate")
    assert result["global_step"] == 4 and slept[0] == 120
    assert os.path.isdir(tmp_path / "eval_one_pass")


def test_experiment_test_and_continuous_train_and_eval(tmp_path):
    exp = _experiment(str(tmp_path / "a"), train_steps=6, train_steps_per_iteration=2)
    seen = []

    def predicate(eval_result):
        seen.append(None if eval_result is None else int(eval_result["global_step"]))
        return True
    result, _ = exp.continuous_train_and_eval(continuous_eval_predicate_fn=predicate)
    assert result["global_step"] == 6 and seen == [None, 2, 4, 6]
    with pytest.raises(ValueError, match="must be a callable"):
        exp.continuous_train_and_eval(continuous_eval_predicate_fn=3)
    exp = _experiment(str(tmp_path / "b"))
    assert exp.test()["global_step"] == 1


def test_experiment_train_and_evaluate_validation_monitor(tmp_path):
    # min_eval_frequency: a ValidationMonitor evaluates new checkpoints during training.
    exp = _experiment(str(tmp_path), train_steps=12, min_eval_frequency=5)
    exp._check_interval_secs = 0  # noqa: SLF001 - evaluate at each due step
    metrics, exports = exp.train_and_evaluate()
    assert metrics["global_step"] == 12 and exports == []
    events = [f for f in os.listdir(tmp_path / "eval") if f.startswith("events")]
    steps = set()
    for name in events:
        for event in tf.train.summary_iterator(str(tmp_path / "eval" / name)):
            if event.HasField("summary"):
                steps.add(event.step)
    assert steps == {5, 10, 12}


def test_experiment_checkpoint_and_export(tmp_path):
    strategy = learn.make_export_strategy(_serving(), exports_to_keep=None)
    exp = _experiment(str(tmp_path), train_steps=10, checkpoint_and_export=True,
                      export_strategies=strategy)
    metrics, exports = exp.train_and_evaluate()
    assert metrics["global_step"] == 10 and len(exports) == 1
    # one export per saved checkpoint (steps 1, 5, 10)
    assert len(os.listdir(tmp_path / "export" / "Servo")) == 3


def test_experiment_argument_errors(tmp_path):
    est = tf.estimator.Estimator(_model_fn, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match="`estimator` must implement"):
        learn.Experiment(object(), _input(), _input())
    with pytest.raises(ValueError, match="`eval_metrics` must be `None`"):
        learn.Experiment(est, _input(), _input(), eval_metrics={"a": 1})
    with pytest.raises(ValueError, match="`export_strategies` must be an ExportStrategy"):
        learn.Experiment(est, _input(), _input(), export_strategies=[3])
    with pytest.raises(ValueError, match="`train_steps_per_iteration` must be an integer"):
        learn.Experiment(est, _input(), _input(), train_steps_per_iteration=1.5)
    with pytest.raises(NotImplementedError, match="run_std_server"):
        learn.Experiment(est, _input(), _input()).run_std_server()


def test_validation_monitor_early_stopping(tmp_path):
    config = tf.estimator.RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=2,
                                    log_step_count_steps=1000)
    est = tf.estimator.Estimator(_model_fn, config=config, params={"lr": 0.0})
    monitor = learn.monitors.ValidationMonitor(
        input_fn=_input(epochs=1), every_n_steps=2, early_stopping_rounds=4,
        early_stopping_metric="loss", check_interval_secs=0, estimator=est)
    est.train(_input(), steps=50, hooks=[monitor])
    # lr=0: the loss never improves after the first evaluation (step 2)
    assert monitor.early_stopped and monitor.best_step == 2
    assert 6 <= tf.train.load_variable(str(tmp_path), "global_step") <= 8
    bad = learn.monitors.ValidationMonitor(input_fn=_input(epochs=1), every_n_steps=1,
                                           early_stopping_rounds=1,
                                           early_stopping_metric="nope",
                                           check_interval_secs=0, estimator=est)
    with pytest.raises(ValueError, match="Metric nope missing from outputs"):
        est.train(_input(), steps=2, hooks=[bad])
    with pytest.raises(NotImplementedError, match="ValidationMonitor"):
        learn.monitors.ValidationMonitor(x=_X, y=_Y)


# -- numpy_input_fn outside an Estimator -----------------------------------------------------

def test_numpy_input_fn_in_a_plain_session():
    with tf.Graph().as_default():
        features, labels = tf.estimator.inputs.numpy_input_fn(
            {"x": _X}, _Y, batch_size=5, num_epochs=1, shuffle=False)()
        with tf.Session() as sess:
            coord = tf.train.Coordinator()
            tf.train.start_queue_runners(sess, coord)
            sizes = []
            with pytest.raises(tf.errors.OutOfRangeError):
                while True:
                    x, y = sess.run([features["x"], labels])
                    np.testing.assert_allclose(y, _Y[sum(sizes):sum(sizes) + len(y)])
                    sizes.append(len(x))
            assert sizes == [5, 5, 5, 1]


def _shuffled_rows(seed, capacity):
    with tf.Graph().as_default():
        tf.set_random_seed(seed)
        x = tf.estimator.inputs.numpy_input_fn(np.arange(40), batch_size=8, num_epochs=2,
                                               shuffle=True, queue_capacity=capacity)()
        rows = []
        with tf.train.MonitoredSession() as sess:
            while not sess.should_stop():
                rows.extend(sess.run(x).tolist())
    return rows


def _rotation_free(rows, n=40):
    return min([(r - shift) % n for r in rows] for shift in range(n))


def test_numpy_input_fn_shuffle_epochs_and_graph_seed():
    # A small queue: dequeues run while the feeder enqueues (the order depends on timing).
    rows = _shuffled_rows(1, capacity=16)
    assert sorted(rows) == sorted(list(range(40)) * 2)
    assert rows != sorted(rows)
    # Every row in the queue before the first dequeue (80 <= capacity / 4): the seeded
    # queue fixes the order up to the feeder's random start row, as in TF.
    assert _rotation_free(_shuffled_rows(1, 320)) == _rotation_free(_shuffled_rows(1, 320))
    assert _rotation_free(_shuffled_rows(1, 320)) != _rotation_free(_shuffled_rows(2, 320))


def test_numpy_input_fn_feeder_start_row_and_epoch_ends():
    from tf1compat.estimator.inputs.feeding import next_batch_indices

    def rows(*args):
        found, epochs = next_batch_indices(*args)
        return found.tolist(), epochs
    assert rows(8, 4, 7, 10, 0, 2) == ([8, 9, 0, 1], 0)
    assert rows(6, 4, 7, 10, 0, 2) == ([6, 7, 8, 9], 1)
    assert rows(6, 4, 7, 10, 1, 2) == ([6, 7], 2)       # the last epoch's end
    assert rows(0, 25, 9, 10, 0, 2) == (list(range(10)) * 2, 2)
    with pytest.raises(tf.errors.OutOfRangeError, match="Already emitted 2 epochs"):
        next_batch_indices(0, 4, 9, 10, 2, 2)


def test_numpy_input_fn_zero_batch_size_and_errors():
    # As TF: dequeue_up_to(0) gives empty batches; the feeder thread fails (IndexError in
    # TF) and the coordinator raises its error when the session closes.
    with tf.Graph().as_default():
        x = tf.estimator.inputs.numpy_input_fn(np.arange(4.), batch_size=0, shuffle=False)()
        with pytest.raises(IndexError, match="batch_size 0"):
            with tf.train.MonitoredSession() as sess:
                assert sess.run(x).shape == (0,)
    with tf.Graph().as_default(), pytest.raises(ValueError, match="batch_size"):
        tf.estimator.inputs.numpy_input_fn(np.arange(4.), batch_size=-1, shuffle=False)()


def _feeder(capacity, feed):
    """numpy_input_fn's queue with one feeder whose feed function is `feed` (a list of
    chunks, one per enqueue), and that feeder's enqueue callable in a session."""
    import collections
    from tf1compat.estimator.inputs.feeding import enqueue_data
    data = collections.OrderedDict(x=np.arange(8, dtype=np.float32))
    queue = enqueue_data(data, capacity, enqueue_size=4)
    runner = tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)[0]
    chunks = iter(feed)
    runner._feeds = [(runner._feeds[0][0], lambda: next(chunks))]
    sess = tf.Session()
    return queue, sess, runner._enqueue_callable(sess, runner.enqueue_ops[0])


def test_numpy_input_fn_feeder_enqueues_without_a_session_run():
    # After its first run the feeder hands arrays of the placeholders' dtypes to the queue
    # itself; other chunks (a float64 column, mismatched lengths) take the session's run,
    # with its conversion and its error naming the op, as every chunk did before.
    rows = np.arange(4, dtype=np.int64)
    good = [rows, np.arange(4, dtype=np.float32)]
    feed = [good, good, [rows, np.arange(4.)], [rows, np.zeros(3, np.float32)]]
    with tf.Graph().as_default():
        queue, sess, enqueue = _feeder(100, feed)
        with sess:
            for _ in range(3):
                enqueue()
            assert enqueue._direct
            assert sess.run(queue.size()) == 12
            ids, x = sess.run(queue.dequeue_many(12))
            np.testing.assert_array_equal(x, np.tile(np.arange(4), 3).astype(np.float32))
            assert x.dtype == np.float32 and ids.dtype == np.int64
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match="(?s)EnqueueMany.*Shape mismatch in tuple component 1"):
                enqueue()


def test_numpy_input_fn_feeder_closed_queue_and_session():
    # The direct enqueue fails as the session's run does: CancelledError naming the op on
    # a closed queue, CancelledError when the session closes under a blocked enqueue.
    import threading
    chunk = [np.arange(4, dtype=np.int64), np.arange(4, dtype=np.float32)]
    with tf.Graph().as_default():
        queue, sess, enqueue = _feeder(8, [chunk] * 4)
        enqueue()
        enqueue()                   # full
        assert enqueue._direct
        failures = []

        def blocked():
            try:
                enqueue()
            except tf.errors.CancelledError as e:
                failures.append(e)
        thread = threading.Thread(target=blocked)
        thread.start()
        sess.close()
        thread.join(10)
        assert len(failures) == 1 and "cancelled" in failures[0].message
    with tf.Graph().as_default():
        queue, sess, enqueue = _feeder(100, [chunk] * 2)
        with sess:
            enqueue()
            sess.run(queue.close())
            with pytest.raises(tf.errors.CancelledError, match="is closed") as info:
                enqueue()
            assert info.value.op is not None and info.value.op.type == "QueueEnqueueManyV2"


def test_pandas_input_fn_without_pandas():
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="needs pandas"):
            tf.estimator.inputs.pandas_input_fn(None, shuffle=False)
    else:
        pytest.skip("pandas is installed")


def test_pandas_input_fn_extension_dtypes():
    # pandas 3 stores text as StringDtype; nullable ints/bools are extension dtypes too.
    pd = pytest.importorskip("pandas")
    x = pd.DataFrame({"s": pd.array(["a", "b", "c"], dtype="string"),
                      "i": pd.array([1, 2, 3], dtype="Int64"),
                      "f": pd.array([True, False, True], dtype="boolean")})
    with tf.Graph().as_default():
        features = tf.estimator.inputs.pandas_input_fn(x, batch_size=3, num_epochs=1,
                                                       shuffle=False)()
        assert {k: t.dtype for k, t in features.items()} == {
            "s": tf.string, "i": tf.int64, "f": tf.bool}
        with tf.train.MonitoredSession() as sess:
            got = sess.run(features)
    assert got["s"].tolist() == [b"a", b"b", b"c"]
    assert got["i"].tolist() == [1, 2, 3] and got["f"].tolist() == [True, False, True]


# -- TPU stand-ins, unsupported corners, import paths ----------------------------------------

def test_cross_shard_optimizer_is_the_wrapped_optimizer_on_one_shard():
    with tf.Graph().as_default():
        w = tf.Variable([1.0, 2.0])
        loss = tf.reduce_sum(w * w)
        opt = tf.contrib.tpu.CrossShardOptimizer(tf.train.GradientDescentOptimizer(0.25))
        train = opt.minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train)
            np.testing.assert_allclose(sess.run(w), [0.5, 1.0])
    with pytest.raises(ValueError, match="Unsupported reduction: mean."):
        tf.contrib.tpu.CrossShardOptimizer(tf.train.GradientDescentOptimizer(0.1), "mean")


def test_tpu_estimator_requires_use_tpu_false(tmp_path):
    config = tf.contrib.tpu.RunConfig(model_dir=str(tmp_path))
    with pytest.raises(NotImplementedError, match="use_tpu"):
        tf.contrib.tpu.TPUEstimator(model_fn=_model_fn, config=config, use_tpu=True,
                                    train_batch_size=4)


@pytest.mark.parametrize("make", [
    lambda d: tf.estimator.BoostedTreesClassifier([], 1),
    lambda d: tf.estimator.experimental.InMemoryEvaluatorHook(None, None),
    lambda d: tf.estimator.Estimator(
        _model_fn, model_dir=d,
        config=tf.estimator.RunConfig(experimental_distribute=object())),
])
def test_unsupported_corners_raise_not_implemented(make, tmp_path):
    with pytest.raises(NotImplementedError):
        make(str(tmp_path))


def test_cluster_training_needs_this_process_server(tmp_path, monkeypatch):
    """A worker's Estimator.train without a tf.train.Server in the process (what
    train_and_evaluate starts; tests/test_estimator_distributed.py runs a cluster)."""
    monkeypatch.setenv("TF_CONFIG", json.dumps({
        "cluster": {"chief": ["localhost:1"], "worker": ["localhost:2"]},
        "task": {"type": "worker", "index": 0}}))
    config = tf.estimator.RunConfig(model_dir=str(tmp_path))
    assert config.task_type == "worker" and not config.is_chief
    est = tf.estimator.Estimator(_model_fn, config=config)
    with pytest.raises(tf.errors.FailedPreconditionError, match="no tf.train.Server"):
        est.train(_input(), steps=1)


def test_stop_at_checkpoint_step_hook_on_a_worker(tmp_path):
    est = tf.estimator.Estimator(_model_fn, model_dir=str(tmp_path))
    est.train(_input(), steps=3)
    hook = tf.estimator.experimental.make_stop_at_checkpoint_step_hook(est, 3)
    assert type(hook).__name__ == "StopAtStepHook"
    from tf1compat.estimator.stop_hooks import _StopAtCheckpointStepHook
    worker_hook = _StopAtCheckpointStepHook(str(tmp_path), last_step=4,
                                            wait_after_file_check_secs=0)
    est.train(_input(), hooks=[worker_hook], steps=10)
    # stops once step >= 4 and the checkpoint (written at the end of the first call: 3)
    # reaches 4: only the final checkpoint of this call does, so all 10 steps run
    assert tf.train.load_variable(str(tmp_path), "global_step") == 13
    with pytest.raises(ValueError, match="last_step must be specified"):
        _StopAtCheckpointStepHook(str(tmp_path), None)


def test_import_paths_legacy_code_uses():
    code = """
import tf1compat
tf1compat.install()
import tensorflow as tf
from tensorflow_estimator.python.estimator import estimator as est_lib
from tensorflow_estimator.python.estimator.canned import dnn
from tensorflow.python.estimator.estimator import Estimator
from tensorflow.contrib.learn.python.learn import learn_runner
from tensorflow.contrib.training import HParams
from tensorflow.contrib.tpu.python.tpu import tpu_estimator
import tensorflow_estimator as tfe
assert est_lib.Estimator is tf.estimator.Estimator is Estimator
assert dnn.DNNClassifier is tf.estimator.DNNClassifier
assert learn_runner.run is tf.contrib.learn.learn_runner.run
assert HParams is tf.contrib.training.HParams
assert tpu_estimator.TPUEstimator is tf.contrib.tpu.TPUEstimator
assert tfe.estimator.Estimator is Estimator
print("ok")
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=child_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "ok"


# -- shared-module fixes made for the Estimator ----------------------------------------------

def test_string_equal_gives_bool_tensor():
    with tf.Graph().as_default():
        a = tf.constant([b"a", b"b", b""])
        eq, ne = tf.equal(a, b"b"), tf.not_equal(a, "")
        assert eq.dtype == tf.bool
        with tf.Session() as sess:
            e, n = sess.run([eq, ne])
    assert e.dtype == np.bool_ and e.tolist() == [False, True, False]
    assert n.tolist() == [True, True, False]
    with tf.Session(graph=tf.Graph()) as sess:
        with sess.graph.as_default():
            assert sess.run(tf.reduce_any(tf.equal(tf.constant(["x"]), "x")))


def test_logging_tensor_hook_formats_numpy_scalars_as_tf(caplog):
    with tf.Graph().as_default():
        tf.train.get_or_create_global_step()
        value = tf.constant(np.float32(0.5))
        hook = tf.train.LoggingTensorHook({"v": value}, every_n_iter=1)
        with tf.train.MonitoredSession(hooks=[hook]) as sess:
            with caplog.at_level("INFO", logger="tensorflow"):
                sess.run(value)
    assert any(r.getMessage() == "v = 0.5" for r in caplog.records)


def test_replace_monitors_with_hooks_keeps_hooks_and_names_old_monitors():
    """tensor2tensor's trainer passes its hooks through
    `tf.contrib.learn.monitors.replace_monitors_with_hooks` (TF 1.15 returns the
    SessionRunHooks as they are); an old-style monitor is not implemented."""
    from tf1compat.contrib.learn.monitors import replace_monitors_with_hooks
    hooks = [tf.train.StepCounterHook(every_n_steps=1), tf.train.StopAtStepHook(last_step=3)]
    assert replace_monitors_with_hooks(hooks, estimator=None) == hooks
    assert replace_monitors_with_hooks(None, estimator=None) == []
    with pytest.raises(NotImplementedError, match="BaseMonitor"):
        replace_monitors_with_hooks([object()], estimator=None)
