"""Golden cases: `tf.contrib.learn`'s canned Estimators and `tf.contrib.layers`' feature
columns, against the core equivalents where TF 1.15 computed the same math.

TF 1.15 (which had contrib) is not installable, so the oracle is TF 2.15's core
Estimator: each case runs contrib's API under tf1compat (`hasattr(tf, "contrib")`) and the
core API with the same math under TF 2.15 - a linear model (zero-initialized, FTRL at
min(0.2, 1/sqrt(#columns))), a DNN warm-started from fixed weights (Adagrad 0.05), both
combined (contrib's learning rates given to core, whose defaults differ), the loss
reduced as contrib's heads reduce it (`SUM_OVER_BATCH_SIZE`), full-batch training so the
order of rows does not matter. Contrib's variable names are mapped to core's (contrib
`linear/x/weight` = core `linear/linear_model/x/weights`, `dnn/hiddenlayer_0/weights` =
`dnn/hiddenlayer_0/kernel`, ...); contrib-only names and metric keys are tested against the
TF 1.15 sources in tests/test_contrib_learn_canned.py.
"""

import numpy as np

from tests.golden.estimator_util import as_py, model_dir
from tests.golden.harness import tolerance

TF_VERSION = "2.15"

_RNG = np.random.RandomState(11)
_X = _RNG.rand(16, 3).astype(np.float32)
_S = np.array([[b"a"], [b"b"], [b"c"], [b"z"]] * 4, dtype=object)
_CLS = (_X.sum(1) > 1.5).astype(np.int64)
_CLS3 = (_X[:, 0] * 3).astype(np.int64)
_REG = (_X @ np.array([1., -2., 0.5], np.float32) + 0.3).astype(np.float32)
# Initial DNN weights (hidden [4, 3], 3 classes), core names.
_DNN_INIT = {
    "dnn/hiddenlayer_0/kernel": _RNG.uniform(-.5, .5, (3, 4)).astype(np.float32),
    "dnn/hiddenlayer_0/bias": _RNG.uniform(-.1, .1, (4,)).astype(np.float32),
    "dnn/hiddenlayer_1/kernel": _RNG.uniform(-.5, .5, (4, 3)).astype(np.float32),
    "dnn/hiddenlayer_1/bias": _RNG.uniform(-.1, .1, (3,)).astype(np.float32),
    "dnn/logits/kernel": _RNG.uniform(-.5, .5, (3, 3)).astype(np.float32),
    "dnn/logits/bias": _RNG.uniform(-.1, .1, (3,)).astype(np.float32),
}


def _contrib(tf):
    return hasattr(tf, "contrib")


def _full_batch(tf, features, y, epochs=None):
    return tf.estimator.inputs.numpy_input_fn(features, y, batch_size=len(_X),
                                              num_epochs=epochs, shuffle=False)


def _core_name(name):
    """A contrib variable name as core's."""
    if name.startswith("dnn/"):
        return name.replace("/weights", "/kernel").replace("/biases", "/bias")
    if name == "linear/bias_weight":
        return "linear/linear_model/bias_weights"
    column = name[len("linear/"):].rsplit("/", 1)[0]
    return f"linear/linear_model/{column}/weights"


def _values(tf, est, names):
    """{core name: value} of `names` (contrib names under tf1compat)."""
    rename = _core_name if _contrib(tf) else (lambda n: n)
    return {rename(n): est.get_variable_value(n) for n in names}


@tolerance(rtol=1e-4, atol=1e-5)
def case_linear_regressor(tf):
    with model_dir() as d:
        if _contrib(tf):
            est = tf.contrib.learn.LinearRegressor(
                feature_columns=[tf.contrib.layers.real_valued_column("x", dimension=3)],
                model_dir=d)
            est.fit(x={"x": _X}, y=_REG, steps=5)
            names = ["linear/x/weight", "linear/bias_weight"]
            result = est.evaluate(x={"x": _X}, y=_REG)
            preds = list(est.predict(x={"x": _X[:4]}))
        else:
            est = tf.estimator.LinearRegressor(
                feature_columns=[tf.feature_column.numeric_column("x", shape=[3])],
                model_dir=d, loss_reduction=tf.losses.Reduction.SUM_OVER_BATCH_SIZE)
            est.train(_full_batch(tf, {"x": _X}, _REG), steps=5)
            names = ["linear/linear_model/x/weights", "linear/linear_model/bias_weights"]
            result = est.evaluate(_full_batch(tf, {"x": _X}, _REG, epochs=1))
            preds = [p["predictions"][0] for p in est.predict(
                _full_batch(tf, {"x": _X[:4]}, None, epochs=1))]
        return {"variables": as_py(_values(tf, est, names)), "loss": as_py(result["loss"]),
                "global_step": as_py(result["global_step"]), "predictions": as_py(preds)}


@tolerance(rtol=1e-4, atol=1e-5)
def case_linear_classifier_sparse_and_dense(tf):
    features = {"x": _X, "s": _S}
    with model_dir() as d:
        if _contrib(tf):
            layers = tf.contrib.layers
            columns = [layers.real_valued_column("x", dimension=3),
                       layers.sparse_column_with_keys("s", ["a", "b", "c"])]
            est = tf.contrib.learn.LinearClassifier(feature_columns=columns, model_dir=d)
            est.fit(x=features, y=_CLS, steps=4)
            names = ["linear/x/weight", "linear/s/weights", "linear/bias_weight"]
            got = est.evaluate(x=features, y=_CLS)
            renamed = {"labels/prediction_mean": "prediction/mean",
                       "labels/actual_label_mean": "label/mean"}
            result = {renamed.get(k, k): v for k, v in got.items()}
            proba = list(est.predict_proba(x=features))[:4]
            classes = list(est.predict_classes(x=features))[:4]
        else:
            fc = tf.feature_column
            columns = [fc.numeric_column("x", shape=[3]),
                       fc.categorical_column_with_vocabulary_list("s", ["a", "b", "c"])]
            est = tf.estimator.LinearClassifier(
                feature_columns=columns, model_dir=d,
                loss_reduction=tf.losses.Reduction.SUM_OVER_BATCH_SIZE)
            est.train(_full_batch(tf, features, _CLS), steps=4)
            names = ["linear/linear_model/x/weights", "linear/linear_model/s/weights",
                     "linear/linear_model/bias_weights"]
            result = est.evaluate(_full_batch(tf, features, _CLS, epochs=1))
            preds = list(est.predict(_full_batch(tf, features, None, epochs=1)))[:4]
            proba = [p["probabilities"] for p in preds]
            classes = [p["class_ids"][0] for p in preds]
        keys = ["loss", "accuracy", "auc", "auc_precision_recall", "prediction/mean",
                "label/mean", "global_step"]
        return {"variables": as_py(_values(tf, est, names)),
                "metrics": as_py({k: result[k] for k in keys}),
                "probabilities": as_py(proba), "classes": as_py(classes)}


def _write_contrib_dnn_checkpoint(tf, directory):
    """A step-0 checkpoint of the contrib DNNClassifier's variables holding _DNN_INIT
    (Adagrad slots at their initial 0.1), so fit() starts from those weights."""
    graph = tf.Graph()
    with graph.as_default():
        variables = [tf.Variable(0, dtype=tf.int64, name="global_step")]
        prefix = "dnn/multi_class_head/dnn/"
        variables.append(tf.Variable(0.05, name=prefix + "learning_rate"))
        for core, value in _DNN_INIT.items():
            name = core.replace("/kernel", "/weights").replace("/bias", "/biases")
            variables.append(tf.Variable(value, name=name))
            variables.append(tf.Variable(np.full(value.shape, 0.1, np.float32),
                                         name=prefix + name + "/Adagrad"))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            tf.train.Saver(variables).save(sess, directory + "/model.ckpt", global_step=0)


@tolerance(rtol=1e-4, atol=1e-5)
def case_dnn_classifier_multiclass_from_fixed_weights(tf):
    with model_dir() as d:
        if _contrib(tf):
            _write_contrib_dnn_checkpoint(tf, d)
            est = tf.contrib.learn.DNNClassifier(
                hidden_units=[4, 3], n_classes=3, model_dir=d,
                feature_columns=[tf.contrib.layers.real_valued_column("", dimension=3)])
            est.fit(x=_X, y=_CLS3, steps=6)
            names = [n.replace("/kernel", "/weights").replace("/bias", "/biases")
                     for n in _DNN_INIT]
            result = est.evaluate(x=_X, y=_CLS3, steps=1)
            proba = list(est.predict_proba(x=_X[:4]))
        else:
            with model_dir() as init:
                with tf.Graph().as_default():
                    variables = [tf.Variable(v, name=k) for k, v in _DNN_INIT.items()]
                    with tf.Session() as sess:
                        sess.run(tf.global_variables_initializer())
                        tf.train.Saver(variables).save(sess, init + "/init.ckpt")
                est = tf.estimator.DNNClassifier(
                    hidden_units=[4, 3], n_classes=3, model_dir=d,
                    feature_columns=[tf.feature_column.numeric_column("", shape=[3])],
                    loss_reduction=tf.losses.Reduction.SUM_OVER_BATCH_SIZE,
                    warm_start_from=init + "/init.ckpt")
                est.train(_full_batch(tf, {"": _X}, _CLS3), steps=6)
            names = list(_DNN_INIT)
            result = est.evaluate(_full_batch(tf, {"": _X}, _CLS3, epochs=1), steps=1)
            proba = [p["probabilities"] for p in est.predict(
                _full_batch(tf, {"": _X[:4]}, None, epochs=1))]
        return {"variables": as_py(_values(tf, est, names)), "loss": as_py(result["loss"]),
                "accuracy": as_py(result["accuracy"]),
                "global_step": as_py(result["global_step"]), "probabilities": as_py(proba)}


_FEATURES = {
    "s": np.array([[b"a", b"c"], [b"b", b""], [b"z", b"a"]], dtype=object),
    "h": np.array([[b"q"], [b"w"], [b"e"]], dtype=object),
    "r": np.array([[0.5, 2.0], [-1.0, 0.0], [1.5, 0.7]], np.float32),
    "i": np.array([[1], [3], [0]], np.int64),
}
_TABLE = np.arange(12, dtype=np.float32).reshape(4, 3) / 10.


def _dense_outputs_core(tf):
    fc = tf.feature_column
    vocab = fc.categorical_column_with_vocabulary_list("s", ["a", "b", "c"])
    r = fc.numeric_column("r", shape=[2])
    init = tf.constant_initializer(_TABLE[:3])
    columns = {
        "s_embedding": fc.embedding_column(vocab, 3, initializer=init),
        "s_sqrtn_embedding": fc.embedding_column(vocab, 3, combiner="sqrtn",
                                                 initializer=init),
        "h_one_hot": fc.indicator_column(fc.categorical_column_with_hash_bucket("h", 7)),
        "i_one_hot": fc.indicator_column(fc.categorical_column_with_identity("i", 4)),
        "r": r,
        "r_bucketized": fc.bucketized_column(r, [0., 1.]),
        "h_X_s_one_hot": fc.indicator_column(fc.crossed_column(["h", "s"], 9)),
    }
    out = {}
    for name, column in columns.items():
        with tf.variable_scope(name):
            out[name] = fc.input_layer(_FEATURES, [column])
    return out


def _dense_outputs_contrib(tf):
    layers = tf.contrib.layers
    keys = layers.sparse_column_with_keys("s", ["a", "b", "c"])
    r = layers.real_valued_column("r", dimension=2)
    hashed = layers.sparse_column_with_hash_bucket("h", 7)
    init = tf.constant_initializer(_TABLE[:3])
    columns = {
        "s_embedding": layers.embedding_column(keys, 3, initializer=init),
        "s_sqrtn_embedding": layers.embedding_column(keys, 3, combiner="sqrtn",
                                                     initializer=init),
        "h_one_hot": layers.one_hot_column(hashed),
        "i_one_hot": layers.one_hot_column(
            layers.sparse_column_with_integerized_feature("i", 4)),
        "r": r,
        "r_bucketized": layers.bucketized_column(r, [0., 1.]),
        "h_X_s_one_hot": layers.one_hot_column(layers.crossed_column(
            [hashed, keys], 9, hash_key=layers.SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY)),
    }
    out = {}
    for name, column in columns.items():
        with tf.variable_scope(name):
            out[name] = layers.input_from_feature_columns(_FEATURES, [column])
    return out


@tolerance(rtol=1e-6, atol=1e-6)
def case_feature_columns_dense_values(tf):
    with tf.Graph().as_default():
        out = (_dense_outputs_contrib if _contrib(tf) else _dense_outputs_core)(tf)
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
            return as_py(sess.run(out))


def _write_initial_checkpoint(tf, directory, names, learning_rates):
    """A step-0 checkpoint of the given contrib variables: DNN weights from _DNN_INIT,
    optimizer slots at their initial values (Adagrad and FTRL accumulators 0.1, FTRL's
    linear term 0), `learning_rate` variables as optimize_loss creates them, the rest
    (linear weights, biases, global step) zeros."""
    contrib_init = {k.replace("/kernel", "/weights").replace("/bias", "/biases"): v
                    for k, v in _DNN_INIT.items()}
    with tf.Graph().as_default():
        variables = []
        for name, shape in names.items():
            if name in contrib_init:
                value = contrib_init[name]
            elif name.endswith("learning_rate"):
                value = np.float32(learning_rates[name])
            elif name.endswith(("/Adagrad", "/Ftrl")):
                value = np.full(shape, 0.1, np.float32)
            elif name == "global_step":
                value = np.int64(0)
            else:
                value = np.zeros(shape, np.float32)
            variables.append(tf.Variable(value, name=name))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            tf.train.Saver(variables).save(sess, directory + "/model.ckpt", global_step=0)


@tolerance(rtol=1e-4, atol=1e-5)
def case_dnn_linear_combined_classifier(tf):
    with model_dir() as d:
        if _contrib(tf):
            def build(directory):
                return tf.contrib.learn.DNNLinearCombinedClassifier(
                    n_classes=3, model_dir=directory, dnn_hidden_units=[4, 3],
                    linear_feature_columns=[tf.contrib.layers.real_valued_column(
                        "", dimension=3)],
                    dnn_feature_columns=[tf.contrib.layers.real_valued_column(
                        "", dimension=3)],
                    fix_global_step_increment_bug=True)
            with model_dir() as scratch:  # learns the variables' names and shapes
                probe = build(scratch)
                probe.fit(x=_X, y=_CLS3, steps=1)
                names = {n: probe.get_variable_value(n).shape
                         for n in probe.get_variable_names()}
                rates = {n: probe.get_variable_value(n) for n in names
                         if n.endswith("learning_rate")}
            _write_initial_checkpoint(tf, d, names, rates)
            est = build(d)
            est.fit(x=_X, y=_CLS3, steps=4)
            names = [n.replace("/kernel", "/weights").replace("/bias", "/biases")
                     for n in _DNN_INIT] + ["linear//weight", "linear/bias_weight"]
            result = est.evaluate(x=_X, y=_CLS3, steps=1)
            proba = list(est.predict_proba(x=_X[:4]))
        else:
            with model_dir() as init:
                with tf.Graph().as_default():
                    variables = [tf.Variable(v, name=k) for k, v in _DNN_INIT.items()]
                    with tf.Session() as sess:
                        sess.run(tf.global_variables_initializer())
                        tf.train.Saver(variables).save(sess, init + "/init.ckpt")
                est = tf.estimator.DNNLinearCombinedClassifier(
                    n_classes=3, model_dir=d, dnn_hidden_units=[4, 3],
                    linear_feature_columns=[tf.feature_column.numeric_column("", shape=[3])],
                    dnn_feature_columns=[tf.feature_column.numeric_column("", shape=[3])],
                    loss_reduction=tf.losses.Reduction.SUM_OVER_BATCH_SIZE,
                    # contrib's defaults (core's are Adagrad 0.001 and FTRL 0.005).
                    dnn_optimizer=lambda: tf.train.AdagradOptimizer(0.05),
                    linear_optimizer=lambda: tf.train.FtrlOptimizer(0.2),
                    warm_start_from=tf.estimator.WarmStartSettings(
                        init + "/init.ckpt", vars_to_warm_start="dnn/.*"))
                est.train(_full_batch(tf, {"": _X}, _CLS3), steps=4)
            names = list(_DNN_INIT) + ["linear/linear_model//weights",
                                       "linear/linear_model/bias_weights"]
            result = est.evaluate(_full_batch(tf, {"": _X}, _CLS3, epochs=1), steps=1)
            proba = [p["probabilities"] for p in est.predict(
                _full_batch(tf, {"": _X[:4]}, None, epochs=1))]
        return {"variables": as_py(_values(tf, est, names)), "loss": as_py(result["loss"]),
                "accuracy": as_py(result["accuracy"]),
                "global_step": as_py(result["global_step"]), "probabilities": as_py(proba)}
