"""TF 1.1's "Creating Estimators in tf.contrib.learn" tutorial (the abalone age regressor):
a model_fn(features, targets, mode, params) returning tf.contrib.learn.ModelFnOps, run by
tf.contrib.learn.Estimator's fit/evaluate/predict on input_fns. The abalone CSVs are
replaced by seeded synthetic rows (7 features, age = a noisy linear function), the
tf.contrib.layers.relu layers by tf.layers.dense with fixed initial values, and
optimize_loss(optimizer="SGD") by the GradientDescentOptimizer it builds."""
import shutil
import tempfile

import numpy as np
import tensorflow as tf

tf.logging.set_verbosity(tf.logging.ERROR)
LEARNING_RATE = 0.001


def make_data(seed, rows):
    rng = np.random.RandomState(seed)
    x = rng.uniform(0, 1, size=(rows, 7)).astype(np.float32)
    y = (x @ np.arange(1, 8, dtype=np.float32) + rng.normal(0, 0.1, rows)).astype(np.float32)
    return x, y


def input_fn(x, y, epochs):
    def _fn():
        return tf.estimator.inputs.numpy_input_fn(
            {"x": x}, y, batch_size=32, num_epochs=epochs, shuffle=False)()
    return _fn


def model_fn(features, targets, mode, params):
    """Model function for Estimator."""
    rng = np.random.RandomState(5)
    first_hidden_layer = tf.layers.dense(
        features["x"], 10, activation=tf.nn.relu,
        kernel_initializer=tf.constant_initializer(rng.uniform(-0.5, 0.5, (7, 10))))
    second_hidden_layer = tf.layers.dense(
        first_hidden_layer, 10, activation=tf.nn.relu,
        kernel_initializer=tf.constant_initializer(rng.uniform(-0.5, 0.5, (10, 10))))
    output_layer = tf.layers.dense(
        second_hidden_layer, 1,
        kernel_initializer=tf.constant_initializer(rng.uniform(-0.5, 0.5, (10, 1))))
    predictions = tf.reshape(output_layer, [-1])
    predictions_dict = {"ages": predictions}
    if mode == tf.contrib.learn.ModeKeys.INFER:
        return tf.contrib.learn.ModelFnOps(mode=mode, predictions=predictions_dict)
    loss = tf.losses.mean_squared_error(targets, predictions)
    eval_metric_ops = {
        "rmse": tf.metrics.root_mean_squared_error(tf.cast(targets, tf.float64),
                                                   tf.cast(predictions, tf.float64))}
    train_op = tf.train.GradientDescentOptimizer(params["learning_rate"]).minimize(
        loss, global_step=tf.train.get_global_step())
    return tf.contrib.learn.ModelFnOps(
        mode=mode, predictions=predictions_dict, loss=loss, train_op=train_op,
        eval_metric_ops=eval_metric_ops)


def main(unused_argv):
    training_x, training_y = make_data(0, 256)
    test_x, test_y = make_data(1, 64)
    prediction_x, _ = make_data(2, 5)
    model_dir = tempfile.mkdtemp()
    model_params = {"learning_rate": LEARNING_RATE * 10}
    nn = tf.contrib.learn.Estimator(model_fn=model_fn, params=model_params,
                                    model_dir=model_dir)
    nn.fit(input_fn=input_fn(training_x, training_y, None), steps=200)
    ev = nn.evaluate(input_fn=input_fn(test_x, test_y, 1), steps=1)
    print("Loss: %s" % ev["loss"])
    print("Root Mean Squared Error: %s" % ev["rmse"])
    print("global_step: %s" % ev["global_step"])
    predictions = nn.predict(input_fn=input_fn(prediction_x, None, 1), as_iterable=True)
    for i, p in enumerate(predictions):
        print("Prediction %s: %s" % (i + 1, p["ages"]))
    shutil.rmtree(model_dir)


if __name__ == "__main__":
    tf.app.run()
