"""The closing program of 'Effective TensorFlow' ("Building a neural network training
framework with learn API"): an Estimator wrapped in a tf.contrib.learn.Experiment, run by
learn_runner with flags, tf.app.run and HParams parsed from a flag."""
import shutil
import tempfile

import numpy as np
import tensorflow as tf

tf.flags.DEFINE_string("output_dir", "", "Optional output dir.")
tf.flags.DEFINE_string("schedule", "train_and_evaluate", "Schedule.")
tf.flags.DEFINE_string("hparams", "learning_rate=0.05,hidden_units=[8,6]",
                       "Hyper parameters.")

FLAGS = tf.flags.FLAGS
learn = tf.contrib.learn

HPARAMS = {
    "optimizer": "Adam",
    "learning_rate": 0.001,
    "hidden_units": [4],
    "batch_size": 16,
    "train_steps": 60,
}


def make_data(mode):
    rng = np.random.RandomState(0 if mode == tf.estimator.ModeKeys.TRAIN else 1)
    x = rng.uniform(-1, 1, size=(160, 2)).astype(np.float32)
    y = (x[:, 0] * x[:, 1] > 0).astype(np.int64)
    return x, y


def make_input_fn(mode, params):
    def _input_fn():
        x, y = make_data(mode)
        dataset = tf.data.Dataset.from_tensor_slices(({"x": x}, {"label": y}))
        if mode == tf.estimator.ModeKeys.TRAIN:
            dataset = dataset.repeat()
        dataset = dataset.batch(params.batch_size)
        return dataset.make_one_shot_iterator().get_next()
    return _input_fn


def model_fn(features, labels, mode, params):
    net = features["x"]
    for i, units in enumerate(params.hidden_units):
        net = tf.layers.dense(
            net, units, activation=tf.nn.relu, name="hidden_%d" % i,
            kernel_initializer=tf.glorot_uniform_initializer(seed=10 + i))
    logits = tf.layers.dense(net, 2, name="logits",
                             kernel_initializer=tf.glorot_uniform_initializer(seed=20))
    predictions = {"class": tf.argmax(logits, axis=1), "probs": tf.nn.softmax(logits)}
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions=predictions)
    label = labels["label"]
    loss = tf.losses.sparse_softmax_cross_entropy(labels=label, logits=logits)
    tf.summary.scalar("loss/loss", loss)
    global_step = tf.train.get_or_create_global_step()
    optimizer = {"Adam": tf.train.AdamOptimizer,
                 "SGD": tf.train.GradientDescentOptimizer}[params.optimizer]
    train_op = optimizer(params.learning_rate).minimize(loss, global_step=global_step)
    metrics = {"accuracy": tf.metrics.accuracy(label, predictions["class"])}
    return tf.estimator.EstimatorSpec(mode, predictions=predictions, loss=loss,
                                      train_op=train_op, eval_metric_ops=metrics)


def experiment_fn(run_config, hparams):
    estimator = tf.estimator.Estimator(
        model_fn=model_fn, config=run_config, params=hparams)
    return learn.Experiment(
        estimator=estimator,
        train_input_fn=make_input_fn(tf.estimator.ModeKeys.TRAIN, hparams),
        eval_input_fn=make_input_fn(tf.estimator.ModeKeys.EVAL, hparams),
        train_steps=hparams.train_steps,
        eval_steps=None,
        min_eval_frequency=0)


def main(unused_argv):
    model_dir = FLAGS.output_dir or tempfile.mkdtemp()
    run_config = learn.RunConfig(model_dir=model_dir, save_checkpoints_steps=20,
                                 save_summary_steps=20, tf_random_seed=1)
    hparams = tf.contrib.training.HParams(**HPARAMS)
    hparams.parse(FLAGS.hparams)
    print("hparams:", sorted(hparams.values().items()))

    eval_result, export_results = learn.learn_runner.run(
        experiment_fn=experiment_fn,
        run_config=run_config,
        schedule=FLAGS.schedule,
        hparams=hparams)
    for key in sorted(eval_result):
        print("eval %s: %.5f" % (key, eval_result[key]))
    print("exports:", export_results)
    print("checkpoint:", tf.train.latest_checkpoint(model_dir).split("/")[-1])
    if not FLAGS.output_dir:
        shutil.rmtree(model_dir)


if __name__ == "__main__":
    tf.app.run()
