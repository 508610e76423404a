"""Golden cases: real Estimator programs, restated small with random data in place of their
downloads - tensorflow/models' samples/core/get_started (`premade_estimator.py`: a
DNNClassifier over numeric columns fed by `iris_data`'s tf.data input_fns;
`custom_estimator.py`: the same with a model_fn of `input_layer`, `tf.layers.dense`,
`tf.losses.softmax_cross_entropy`, a named accuracy metric and Adagrad) and
official/r1/mnist/mnist.py (a Keras Sequential CNN built inside the model_fn, reusing one
pooling layer, Adam, tensors named for a LoggingTensorHook, a Dataset returned from the
input_fn, `export_savedmodel` with a raw serving input receiver).

Both sample programs read iris from pandas DataFrames: `dict(frame)` gives Series, which TF
converts through `np.array(series)` (float64 columns); `case_array_like_values` pins that
with a plain object that has `__array__` (CI has no pandas)."""

import os

import numpy as np

from tests.golden.estimator_util import as_py, capture_logs, model_dir
from tests.golden.harness import catch, tolerance

TF_VERSION = "2.15"

_COLUMNS = ["SepalLength", "SepalWidth", "PetalLength", "PetalWidth"]
_PREDICT_X = {"SepalLength": [5.1, 5.9, 6.9], "SepalWidth": [3.3, 3.0, 3.1],
              "PetalLength": [1.7, 4.2, 5.4], "PetalWidth": [0.5, 1.5, 2.1]}


def _iris(n, seed):
    """Random iris-shaped data: float64 feature columns and int labels in [0, 3)."""
    rng = np.random.RandomState(seed)
    x = rng.uniform(0, 7, (n, 4))
    return {k: x[:, i] for i, k in enumerate(_COLUMNS)}, rng.randint(0, 3, n)


def _train_input_fn(tf, features, labels, batch_size):
    dataset = tf.data.Dataset.from_tensor_slices((dict(features), labels))
    dataset = dataset.shuffle(1000).repeat().batch(batch_size)
    return dataset.make_one_shot_iterator().get_next()


def _eval_input_fn(tf, features, labels, batch_size):
    features = dict(features)
    inputs = features if labels is None else (features, labels)
    dataset = tf.data.Dataset.from_tensor_slices(inputs).batch(batch_size)
    return dataset.make_one_shot_iterator().get_next()


def _iris_program(tf, make_classifier, steps=30, batch_size=32):
    """The get_started programs' main: train, evaluate on the test split, predict three
    flowers; evaluation results, predictions and the `loss = ...` log lines."""
    (train_x, train_y), (test_x, test_y) = _iris(120, 0), _iris(30, 1)
    columns = [tf.feature_column.numeric_column(key=key) for key in train_x]
    out = {}
    with model_dir() as directory:
        classifier = make_classifier(columns, tf.estimator.RunConfig(
            model_dir=directory, tf_random_seed=1))
        with capture_logs(tf) as logs:
            classifier.train(lambda: _train_input_fn(tf, train_x, train_y, batch_size),
                             steps=steps)
        out["loss_lines"] = [r for r in logs if r[0] == "loss"]
        out["eval"] = as_py(classifier.evaluate(
            lambda: _eval_input_fn(tf, test_x, test_y, batch_size)))
        out["predictions"] = as_py(list(classifier.predict(
            lambda: _eval_input_fn(tf, _PREDICT_X, None, batch_size))))
        out["variables"] = sorted(classifier.get_variable_names())
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def case_premade_estimator(tf):
    """samples/core/get_started/premade_estimator.py: DNNClassifier([10, 10], 3 classes)."""
    return _iris_program(tf, lambda columns, config: tf.estimator.DNNClassifier(
        feature_columns=columns, hidden_units=[10, 10], n_classes=3, config=config))


def _custom_model(tf):
    def my_model(features, labels, mode, params):
        net = tf.feature_column.input_layer(features, params["feature_columns"])
        for units in params["hidden_units"]:
            net = tf.layers.dense(net, units=units, activation=tf.nn.relu)
        logits = tf.layers.dense(net, params["n_classes"], activation=None)
        predicted_classes = tf.argmax(logits, 1)
        if mode == tf.estimator.ModeKeys.PREDICT:
            predictions = {"class_ids": predicted_classes[:, tf.newaxis],
                           "probabilities": tf.nn.softmax(logits), "logits": logits}
            return tf.estimator.EstimatorSpec(mode, predictions=predictions)
        onehot_labels = tf.one_hot(labels, 3, 1, 0)
        loss = tf.losses.softmax_cross_entropy(onehot_labels=onehot_labels, logits=logits)
        accuracy = tf.metrics.accuracy(labels=labels, predictions=predicted_classes,
                                       name="acc_op")
        tf.summary.scalar("accuracy", accuracy[1])
        if mode == tf.estimator.ModeKeys.EVAL:
            return tf.estimator.EstimatorSpec(mode, loss=loss,
                                              eval_metric_ops={"accuracy": accuracy})
        train_op = tf.train.AdagradOptimizer(learning_rate=0.1).minimize(
            loss, global_step=tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)
    return my_model


@tolerance(rtol=1e-4, atol=1e-5)
def case_custom_estimator(tf):
    """samples/core/get_started/custom_estimator.py: the model_fn with `params`."""
    return _iris_program(tf, lambda columns, config: tf.estimator.Estimator(
        model_fn=_custom_model(tf), config=config,
        params={"feature_columns": columns, "hidden_units": [10, 10], "n_classes": 3}))


def _mnist_model_fn(tf):
    def create_model(data_format):
        layers = tf.keras.layers
        max_pool = layers.MaxPooling2D((2, 2), (2, 2), padding="same", data_format=data_format)
        return tf.keras.Sequential([
            layers.Reshape(target_shape=[28, 28, 1], input_shape=(28 * 28,)),
            layers.Conv2D(32, 5, padding="same", data_format=data_format,
                          activation=tf.nn.relu),
            max_pool,
            layers.Conv2D(64, 5, padding="same", data_format=data_format,
                          activation=tf.nn.relu),
            max_pool,
            layers.Flatten(),
            layers.Dense(1024, activation=tf.nn.relu),
            layers.Dropout(0.4),
            layers.Dense(10)])

    def model_fn(features, labels, mode, params):
        model = create_model(params["data_format"])
        image = features["image"] if isinstance(features, dict) else features
        if mode == tf.estimator.ModeKeys.PREDICT:
            logits = model(image, training=False)
            predictions = {"classes": tf.argmax(logits, axis=1),
                           "probabilities": tf.nn.softmax(logits)}
            return tf.estimator.EstimatorSpec(
                mode=mode, predictions=predictions,
                export_outputs={"classify": tf.estimator.export.PredictOutput(predictions)})
        logits = model(image, training=mode == tf.estimator.ModeKeys.TRAIN)
        loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
        accuracy = tf.compat.v1.metrics.accuracy(labels=labels,
                                                 predictions=tf.argmax(logits, axis=1))
        if mode == tf.estimator.ModeKeys.EVAL:
            return tf.estimator.EstimatorSpec(mode=mode, loss=loss,
                                              eval_metric_ops={"accuracy": accuracy})
        tf.identity(1e-4, "learning_rate")
        tf.identity(loss, "cross_entropy")
        tf.identity(accuracy[1], name="train_accuracy")
        tf.summary.scalar("train_accuracy", accuracy[1])
        optimizer = tf.compat.v1.train.AdamOptimizer(learning_rate=1e-4)
        return tf.estimator.EstimatorSpec(mode=mode, loss=loss, train_op=optimizer.minimize(
            loss, tf.compat.v1.train.get_or_create_global_step()))
    return model_fn


@tolerance(rtol=1e-4, atol=1e-5)
def case_official_r1_mnist(tf):
    """official/r1/mnist/mnist.py's run loop, two rounds of one epoch over 16 random
    images (batches of 8), each followed by evaluate; then `export_savedmodel` of a
    [None, 784] image placeholder (the program's own [None, 28, 28] one fails TF 2.15's
    Keras input check)."""
    rng = np.random.RandomState(0)
    x = rng.rand(16, 784).astype(np.float32)
    y = rng.randint(0, 10, 16).astype(np.int32)

    def train_input_fn():
        ds = tf.data.Dataset.from_tensor_slices((x, y))
        return ds.cache().shuffle(buffer_size=50000).batch(8).repeat(1)

    def eval_input_fn():
        return tf.data.Dataset.from_tensor_slices((x, y)).batch(8) \
            .make_one_shot_iterator().get_next()
    out = {"evals": [], "logs": []}
    with model_dir() as directory:
        session_config = tf.compat.v1.ConfigProto(
            inter_op_parallelism_threads=0, intra_op_parallelism_threads=0,
            allow_soft_placement=True)
        config = tf.estimator.RunConfig(train_distribute=None, session_config=session_config,
                                        tf_random_seed=1)
        classifier = tf.estimator.Estimator(
            model_fn=_mnist_model_fn(tf), model_dir=directory, config=config,
            params={"data_format": "channels_last"})
        hook = tf.estimator.LoggingTensorHook(
            {"learning_rate": "learning_rate", "cross_entropy": "cross_entropy",
             "train_accuracy": "train_accuracy"}, every_n_iter=1)
        for _ in range(2):
            with capture_logs(tf) as logs:
                classifier.train(input_fn=train_input_fn, hooks=[hook])
            out["logs"].append(logs)
            out["evals"].append(as_py(classifier.evaluate(input_fn=eval_input_fn)))
        image = tf.compat.v1.placeholder(tf.float32, [None, 784])
        serving = tf.estimator.export.build_raw_serving_input_receiver_fn({"image": image})
        exported = classifier.export_savedmodel(os.path.join(directory, "export"), serving,
                                                strip_default_attrs=True)
        out["export_files"] = sorted(os.fsdecode(f) for f in os.listdir(exported))
        out["variables"] = [(name, list(classifier.get_variable_value(name).shape))
                            for name in classifier.get_variable_names()]
    return out


class _ArrayLike:
    """Has `__array__` and nothing else TF knows (a pandas Series' way in)."""

    def __init__(self, values):
        self._values = np.asarray(values)

    def __array__(self, dtype=None, copy=None):
        return self._values if dtype is None else self._values.astype(dtype)

    def __len__(self):
        return len(self._values)


def case_array_like_values(tf):
    """`tf.constant`/`convert_to_tensor` of an object with `__array__` keep its dtype
    (float64, int64); `from_tensor_slices` of a dict of them, as `dict(data_frame)` is."""
    floats, ints = _ArrayLike([1.5, 2.5, 3.5]), _ArrayLike(np.array([1, 2, 3], np.int64))
    c = tf.constant(floats)
    d = tf.convert_to_tensor(ints)
    e = tf.constant(floats, dtype=tf.float32)
    data = tf.data.Dataset.from_tensor_slices(({"a": floats}, ints)).batch(2)
    features, labels = data.make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        values = sess.run([c, d, e, features["a"], labels])
    return {"dtypes": [t.dtype.name for t in (c, d, e, features["a"], labels)],
            "values": values}


# -- official/r1/resnet: cifar10_main.py with resnet_size=8 -----------------------------------

def _batch_norm(tf, inputs, training):
    return tf.compat.v1.layers.batch_normalization(
        inputs=inputs, axis=3, momentum=0.997, epsilon=1e-5, center=True, scale=True,
        training=training, fused=True)


def _conv2d_fixed_padding(tf, inputs, filters, kernel_size, strides):
    if strides > 1:
        pad_beg = (kernel_size - 1) // 2
        pad_end = kernel_size - 1 - pad_beg
        inputs = tf.pad(tensor=inputs, paddings=[[0, 0], [pad_beg, pad_end],
                                                 [pad_beg, pad_end], [0, 0]])
    return tf.compat.v1.layers.conv2d(
        inputs=inputs, filters=filters, kernel_size=kernel_size, strides=strides,
        padding=("SAME" if strides == 1 else "VALID"), use_bias=False,
        kernel_initializer=tf.compat.v1.variance_scaling_initializer(),
        data_format="channels_last")


def _building_block_v2(tf, inputs, filters, training, projection_shortcut, strides):
    shortcut = inputs
    inputs = tf.nn.relu(_batch_norm(tf, inputs, training))
    if projection_shortcut is not None:
        shortcut = projection_shortcut(inputs)
    inputs = _conv2d_fixed_padding(tf, inputs, filters, 3, strides)
    inputs = tf.nn.relu(_batch_norm(tf, inputs, training))
    inputs = _conv2d_fixed_padding(tf, inputs, filters, 3, 1)
    return inputs + shortcut


def _resnet8(tf, inputs, training, num_classes=10):
    """resnet_model.Model for cifar10_main's Cifar10Model(resnet_size=8): v2 building
    blocks, one per block layer, 16/32/64 filters, strides 1/2/2, fp32 custom getter."""
    def getter(getter, name, shape=None, dtype=tf.float32, *args, **kwargs):
        return getter(name, shape, dtype, *args, **kwargs)
    with tf.compat.v1.variable_scope("resnet_model", custom_getter=getter):
        inputs = _conv2d_fixed_padding(tf, inputs, 16, 3, 1)
        inputs = tf.identity(inputs, "initial_conv")
        for i, strides in enumerate([1, 2, 2]):
            filters = 16 * (2 ** i)

            def projection_shortcut(x, filters=filters, strides=strides):
                return _conv2d_fixed_padding(tf, x, filters, 1, strides)
            inputs = _building_block_v2(tf, inputs, filters, training, projection_shortcut,
                                        strides)
            inputs = tf.identity(inputs, f"block_layer{i + 1}")
        inputs = tf.nn.relu(_batch_norm(tf, inputs, training))
        inputs = tf.reduce_mean(input_tensor=inputs, axis=[1, 2], keepdims=True)
        inputs = tf.identity(inputs, "final_reduce_mean")
        inputs = tf.squeeze(inputs, [1, 2])
        inputs = tf.compat.v1.layers.dense(inputs=inputs, units=num_classes)
        return tf.identity(inputs, "final_dense")


def _resnet_model_fn(tf, batch_size, num_images):
    """resnet_run_loop.resnet_model_fn with cifar10_main's learning-rate schedule
    (learning_rate_with_decay: 0.1 * batch / 128, decayed at epochs 1 and 2 here),
    weight decay 2e-4 on the non-batch-norm variables, momentum 0.9."""
    batches_per_epoch = num_images / batch_size
    boundaries = [int(batches_per_epoch * epoch) for epoch in [1, 2]]
    values = [0.1 * batch_size / 128 * decay for decay in [1, 0.1, 0.01]]

    def model_fn(features, labels, mode, params):
        tf.compat.v1.summary.image("images", features, max_outputs=6)
        features = tf.cast(features, tf.float32)
        logits = tf.cast(_resnet8(tf, features, mode == tf.estimator.ModeKeys.TRAIN),
                         tf.float32)
        predictions = {"classes": tf.argmax(input=logits, axis=1),
                       "probabilities": tf.nn.softmax(logits, name="softmax_tensor")}
        if mode == tf.estimator.ModeKeys.PREDICT:
            return tf.estimator.EstimatorSpec(
                mode=mode, predictions=predictions,
                export_outputs={"predict": tf.estimator.export.PredictOutput(predictions)})
        cross_entropy = tf.compat.v1.losses.sparse_softmax_cross_entropy(logits=logits,
                                                                         labels=labels)
        tf.identity(cross_entropy, name="cross_entropy")
        tf.compat.v1.summary.scalar("cross_entropy", cross_entropy)
        l2_loss = 2e-4 * tf.add_n(
            [tf.nn.l2_loss(tf.cast(v, tf.float32))
             for v in tf.compat.v1.trainable_variables() if "batch_normalization" not in v.name])
        tf.compat.v1.summary.scalar("l2_loss", l2_loss)
        loss = cross_entropy + l2_loss
        train_op = None
        if mode == tf.estimator.ModeKeys.TRAIN:
            global_step = tf.compat.v1.train.get_or_create_global_step()
            learning_rate = tf.compat.v1.train.piecewise_constant(global_step, boundaries,
                                                                  values)
            tf.identity(learning_rate, name="learning_rate")
            tf.compat.v1.summary.scalar("learning_rate", learning_rate)
            optimizer = tf.compat.v1.train.MomentumOptimizer(learning_rate=learning_rate,
                                                             momentum=0.9)
            minimize_op = optimizer.apply_gradients(optimizer.compute_gradients(loss),
                                                    global_step)
            update_ops = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS)
            train_op = tf.group(minimize_op, update_ops)
        accuracy = tf.compat.v1.metrics.accuracy(labels, predictions["classes"])
        accuracy_top_5 = tf.compat.v1.metrics.mean(
            tf.nn.in_top_k(predictions=logits, targets=labels, k=5, name="top_5_op"))
        metrics = {"accuracy": accuracy, "accuracy_top_5": accuracy_top_5}
        tf.identity(accuracy[1], name="train_accuracy")
        tf.identity(accuracy_top_5[1], name="train_accuracy_top_5")
        tf.compat.v1.summary.scalar("train_accuracy", accuracy[1])
        tf.compat.v1.summary.scalar("train_accuracy_top_5", accuracy_top_5[1])
        return tf.estimator.EstimatorSpec(mode=mode, predictions=predictions, loss=loss,
                                          train_op=train_op, eval_metric_ops=metrics)
    return model_fn


@tolerance(rtol=2e-3, atol=2e-4)
def case_official_r1_resnet_cifar10(tf):
    """official/r1/resnet/cifar10_main.py, resnet_size=8, on 8 random 32x32 images: its
    record preprocessing (pad to 40, random crop, random flip, per-image standardization)
    in a Dataset map, training in two rounds of one epoch (batches of 4, decaying learning
    rate), evaluation after each, then predict."""
    rng = np.random.RandomState(0)
    images = rng.randint(0, 256, (8, 32, 32, 3)).astype(np.float32)
    labels = rng.randint(0, 10, 8).astype(np.int32)
    batch_size = 4

    def preprocess_image(image, is_training):
        if is_training:
            image = tf.image.resize_image_with_crop_or_pad(image, 40, 40)
            image = tf.image.random_crop(image, [32, 32, 3])
            image = tf.image.random_flip_left_right(image)
        return tf.image.per_image_standardization(image)

    def input_fn(is_training):
        dataset = tf.data.Dataset.from_tensor_slices((images, labels))
        if is_training:
            dataset = dataset.shuffle(buffer_size=8)
        dataset = dataset.map(lambda image, label: (preprocess_image(image, is_training),
                                                    label))
        return dataset.batch(batch_size, drop_remainder=False).prefetch(1)
    out = {"evals": [], "logs": []}
    with model_dir() as directory:
        config = tf.estimator.RunConfig(tf_random_seed=1, save_checkpoints_secs=60 * 60 * 24)
        classifier = tf.estimator.Estimator(
            model_fn=_resnet_model_fn(tf, batch_size, len(images)), model_dir=directory,
            config=config, params={"batch_size": batch_size})
        for _ in range(2):
            with capture_logs(tf) as logs:
                classifier.train(input_fn=lambda: input_fn(True))
            out["logs"].append(logs)
            out["evals"].append(as_py(classifier.evaluate(input_fn=lambda: input_fn(False))))
        out["predictions"] = as_py(list(classifier.predict(
            input_fn=lambda: input_fn(False), predict_keys=["classes"])))
        out["variables"] = [(name, list(classifier.get_variable_value(name).shape))
                            for name in classifier.get_variable_names()]
    return out


def case_keras_graph_network_input_check(tf):
    """official/r1/mnist's export feeds a [None, 28, 28] image into its Sequential built for
    (784,): TF 2.15's Keras checks a graph network's inputs against its Input shapes
    (batch dimension free, a trailing 1 optional, dict inputs by name); a Sequential built
    on its first call checks nothing."""
    layers = tf.keras.layers

    def call(model, *shapes):
        def run():
            with tf.Graph().as_default():
                inputs = [tf.placeholder(tf.float32, s) for s in shapes]
                out = model(inputs[0] if len(inputs) == 1 else inputs)
                return out.shape.as_list()
        return catch(run, message=True)
    out = {}
    with tf.Graph().as_default():
        seq = tf.keras.Sequential([layers.Reshape([28, 28, 1], input_shape=(784,)),
                                   layers.Flatten()])
        deferred = tf.keras.Sequential([layers.Flatten()])
        a = tf.keras.Input((3,), name="a")
        b = tf.keras.Input((2, 1), name="b")
        two = tf.keras.Model([a, b], layers.Concatenate()([a, layers.Flatten()(b)]))
        named = tf.keras.Model({"a": a, "b": b},
                               layers.Concatenate()([a, layers.Flatten()(b)]))
    out["seq_ok"] = call(seq, [None, 784])
    out["seq_wrong_rank"] = call(seq, [None, 28, 28])
    out["seq_wrong_dim"] = call(seq, [None, 783])
    out["seq_trailing_one"] = call(seq, [None, 784, 1])
    out["deferred_any"] = call(deferred, [None, 4, 5])
    out["two_ok"] = call(two, [None, 3], [None, 2, 1])
    out["two_squeezed"] = call(two, [None, 3], [None, 2])
    out["two_wrong"] = call(two, [None, 4], [None, 2, 1])
    out["specs"] = [(s.shape, s.name, s.allow_last_axis_squeeze) for s in two.input_spec]
    out["named_specs"] = [(s.shape, s.name) for s in named.input_spec]
    out["seq_spec"] = [s.shape for s in seq.input_spec]
    out["deferred_spec"] = deferred.input_spec
    return out
