"""A miniature of BERT's run_classifier.py: a one-layer Transformer encoder (modeling.py's
embeddings, attention, layer norm, gelu, pooler) fine-tuned for classification with
BERT's AdamWeightDecayOptimizer (warmup + polynomial decay, global-norm clipping),
driven by TPUEstimator with use_tpu=False, as BERT is run on CPUs/GPUs."""
import math
import re
import shutil
import tempfile

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_bool("use_tpu", False, "Whether to use TPU or GPU/CPU.")
flags.DEFINE_integer("train_batch_size", 8, "Total batch size for training.")
flags.DEFINE_integer("eval_batch_size", 8, "Total batch size for eval.")
flags.DEFINE_integer("predict_batch_size", 4, "Total batch size for predict.")
flags.DEFINE_float("learning_rate", 5e-3, "The initial learning rate for Adam.")
flags.DEFINE_integer("num_train_steps", 24, "Training steps.")
flags.DEFINE_integer("num_warmup_steps", 4, "Warmup steps.")
flags.DEFINE_integer("iterations_per_loop", 4, "How many steps per estimator call.")
flags.DEFINE_integer("save_checkpoints_steps", 12, "How often to save.")
FLAGS = flags.FLAGS

VOCAB, HIDDEN, HEADS, INTERMEDIATE, SEQ, LABELS = 30, 16, 2, 32, 8, 3


def gelu(x):
    cdf = 0.5 * (1.0 + tf.tanh((np.sqrt(2 / np.pi) * (x + 0.044715 * tf.pow(x, 3)))))
    return x * cdf


def layer_norm(input_tensor, name):
    with tf.variable_scope(name):
        beta = tf.get_variable("beta", [HIDDEN], initializer=tf.zeros_initializer())
        gamma = tf.get_variable("gamma", [HIDDEN], initializer=tf.ones_initializer())
        mean, variance = tf.nn.moments(input_tensor, [-1], keep_dims=True)
        return (input_tensor - mean) * tf.rsqrt(variance + 1e-12) * gamma + beta


def dropout(input_tensor, prob):
    if prob is None or prob == 0.0:
        return input_tensor
    return tf.nn.dropout(input_tensor, 1.0 - prob)


def init():
    return tf.truncated_normal_initializer(stddev=0.02)


def attention_layer(x, mask, dropout_prob):
    size = HIDDEN // HEADS

    def heads(t):
        t = tf.reshape(t, [-1, SEQ, HEADS, size])
        return tf.transpose(t, [0, 2, 1, 3])
    query = heads(tf.layers.dense(x, HIDDEN, name="query", kernel_initializer=init()))
    key = heads(tf.layers.dense(x, HIDDEN, name="key", kernel_initializer=init()))
    value = heads(tf.layers.dense(x, HIDDEN, name="value", kernel_initializer=init()))
    scores = tf.matmul(query, key, transpose_b=True) * (1.0 / math.sqrt(float(size)))
    adder = (1.0 - tf.cast(mask[:, None, None, :], tf.float32)) * -10000.0
    probs = dropout(tf.nn.softmax(scores + adder), dropout_prob)
    context = tf.transpose(tf.matmul(probs, value), [0, 2, 1, 3])
    return tf.reshape(context, [-1, SEQ, HIDDEN])


def bert_model(input_ids, input_mask, segment_ids, is_training):
    drop = 0.1 if is_training else 0.0
    with tf.variable_scope("bert"):
        with tf.variable_scope("embeddings"):
            table = tf.get_variable("word_embeddings", [VOCAB, HIDDEN], initializer=init())
            out = tf.gather(table, input_ids)
            types = tf.get_variable("token_type_embeddings", [2, HIDDEN], initializer=init())
            out += tf.gather(types, segment_ids)
            positions = tf.get_variable("position_embeddings", [SEQ, HIDDEN],
                                        initializer=init())
            out += positions[None, :, :]
            out = dropout(layer_norm(out, "LayerNorm"), drop)
        with tf.variable_scope("encoder/layer_0"):
            with tf.variable_scope("attention"):
                with tf.variable_scope("self"):
                    attention = attention_layer(out, input_mask, drop)
                with tf.variable_scope("output"):
                    attention = tf.layers.dense(attention, HIDDEN, kernel_initializer=init())
                    attention = layer_norm(dropout(attention, drop) + out, "LayerNorm")
            with tf.variable_scope("intermediate"):
                inter = tf.layers.dense(attention, INTERMEDIATE, activation=gelu,
                                        kernel_initializer=init())
            with tf.variable_scope("output"):
                out = tf.layers.dense(inter, HIDDEN, kernel_initializer=init())
                out = layer_norm(dropout(out, drop) + attention, "LayerNorm")
        with tf.variable_scope("pooler"):
            return tf.layers.dense(tf.squeeze(out[:, 0:1, :], axis=1), HIDDEN,
                                   activation=tf.tanh, kernel_initializer=init())


class AdamWeightDecayOptimizer(tf.train.Optimizer):
    """BERT's Adam with decoupled weight decay (no bias correction)."""

    def __init__(self, learning_rate, weight_decay_rate=0.0, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-6, exclude_from_weight_decay=None,
                 name="AdamWeightDecayOptimizer"):
        super(AdamWeightDecayOptimizer, self).__init__(False, name)
        self.learning_rate = learning_rate
        self.weight_decay_rate = weight_decay_rate
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon
        self.exclude_from_weight_decay = exclude_from_weight_decay

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        assignments = []
        for (grad, param) in grads_and_vars:
            if grad is None or param is None:
                continue
            param_name = re.match("^(.*):\\d+$", param.name).group(1)
            m = tf.get_variable(name=param_name + "/adam_m", shape=param.shape.as_list(),
                                dtype=tf.float32, trainable=False,
                                initializer=tf.zeros_initializer())
            v = tf.get_variable(name=param_name + "/adam_v", shape=param.shape.as_list(),
                                dtype=tf.float32, trainable=False,
                                initializer=tf.zeros_initializer())
            next_m = tf.multiply(self.beta_1, m) + tf.multiply(1.0 - self.beta_1, grad)
            next_v = (tf.multiply(self.beta_2, v) +
                      tf.multiply(1.0 - self.beta_2, tf.square(grad)))
            update = next_m / (tf.sqrt(next_v) + self.epsilon)
            if self._do_use_weight_decay(param_name):
                update += self.weight_decay_rate * param
            next_param = param - self.learning_rate * update
            assignments.extend([param.assign(next_param), m.assign(next_m),
                                v.assign(next_v)])
        return tf.group(*assignments, name=name)

    def _do_use_weight_decay(self, param_name):
        if not self.weight_decay_rate:
            return False
        for r in self.exclude_from_weight_decay or []:
            if re.search(r, param_name) is not None:
                return False
        return True


def create_optimizer(loss, init_lr, num_train_steps, num_warmup_steps):
    global_step = tf.train.get_or_create_global_step()
    learning_rate = tf.constant(value=init_lr, shape=[], dtype=tf.float32)
    learning_rate = tf.train.polynomial_decay(learning_rate, global_step, num_train_steps,
                                              end_learning_rate=0.0, power=1.0, cycle=False)
    global_steps_int = tf.cast(global_step, tf.int32)
    warmup_steps_int = tf.constant(num_warmup_steps, dtype=tf.int32)
    warmup_percent_done = (tf.cast(global_steps_int, tf.float32) /
                           tf.cast(warmup_steps_int, tf.float32))
    warmup_learning_rate = init_lr * warmup_percent_done
    is_warmup = tf.cast(global_steps_int < warmup_steps_int, tf.float32)
    learning_rate = (1.0 - is_warmup) * learning_rate + is_warmup * warmup_learning_rate
    optimizer = AdamWeightDecayOptimizer(
        learning_rate=learning_rate, weight_decay_rate=0.01,
        exclude_from_weight_decay=["LayerNorm", "layer_norm", "bias"])
    tvars = tf.trainable_variables()
    grads = tf.gradients(loss, tvars)
    (grads, _) = tf.clip_by_global_norm(grads, clip_norm=1.0)
    train_op = optimizer.apply_gradients(zip(grads, tvars), global_step=global_step)
    new_global_step = global_step + 1
    return tf.group(train_op, [global_step.assign(new_global_step)])


def model_fn_builder(num_train_steps, num_warmup_steps):
    def model_fn(features, labels, mode, params):
        is_training = mode == tf.estimator.ModeKeys.TRAIN
        pooled = bert_model(features["input_ids"], features["input_mask"],
                            features["segment_ids"], is_training)
        output_weights = tf.get_variable("output_weights", [LABELS, HIDDEN],
                                         initializer=init())
        output_bias = tf.get_variable("output_bias", [LABELS],
                                      initializer=tf.zeros_initializer())
        with tf.variable_scope("loss"):
            if is_training:
                pooled = tf.nn.dropout(pooled, keep_prob=0.9)
            logits = tf.nn.bias_add(tf.matmul(pooled, output_weights, transpose_b=True),
                                    output_bias)
            probabilities = tf.nn.softmax(logits, axis=-1)
            log_probs = tf.nn.log_softmax(logits, axis=-1)
            label_ids = features["label_ids"]
            one_hot = tf.one_hot(label_ids, depth=LABELS, dtype=tf.float32)
            per_example_loss = -tf.reduce_sum(one_hot * log_probs, axis=-1)
            total_loss = tf.reduce_mean(per_example_loss)
        if mode == tf.estimator.ModeKeys.TRAIN:
            train_op = create_optimizer(total_loss, FLAGS.learning_rate, num_train_steps,
                                        num_warmup_steps)
            return tf.estimator.tpu.TPUEstimatorSpec(mode=mode, loss=total_loss,
                                                     train_op=train_op)
        if mode == tf.estimator.ModeKeys.EVAL:
            def metric_fn(per_example_loss, label_ids, logits, is_real_example):
                predictions = tf.argmax(logits, axis=-1, output_type=tf.int32)
                accuracy = tf.metrics.accuracy(labels=label_ids, predictions=predictions,
                                               weights=is_real_example)
                loss = tf.metrics.mean(values=per_example_loss, weights=is_real_example)
                return {"eval_accuracy": accuracy, "eval_loss": loss}
            eval_metrics = (metric_fn, [per_example_loss, label_ids, logits,
                                        features["is_real_example"]])
            return tf.estimator.tpu.TPUEstimatorSpec(mode=mode, loss=total_loss,
                                                     eval_metrics=eval_metrics)
        return tf.estimator.tpu.TPUEstimatorSpec(
            mode=mode, predictions={"probabilities": probabilities})
    return model_fn


def make_features(n, seed):
    rng = np.random.RandomState(seed)
    ids = rng.randint(1, VOCAB, size=(n, SEQ)).astype(np.int32)
    lengths = rng.randint(4, SEQ + 1, size=n)
    mask = (np.arange(SEQ)[None, :] < lengths[:, None]).astype(np.int32)
    ids *= mask
    segments = (np.arange(SEQ)[None, :] >= (lengths[:, None] // 2)).astype(np.int32) * mask
    labels = (ids.sum(1) % LABELS).astype(np.int32)
    return {"input_ids": ids, "input_mask": mask, "segment_ids": segments,
            "label_ids": labels, "is_real_example": np.ones(n, np.float32)}


def input_fn_builder(features, is_training, drop_remainder):
    def input_fn(params):
        d = tf.data.Dataset.from_tensor_slices(features)
        if is_training:
            d = d.repeat()
        return d.batch(batch_size=params["batch_size"], drop_remainder=drop_remainder)
    return input_fn


def main(_):
    tf.logging.set_verbosity(tf.logging.WARN)
    output_dir = tempfile.mkdtemp()
    run_config = tf.estimator.tpu.RunConfig(
        cluster=None, master=None, model_dir=output_dir,
        save_checkpoints_steps=FLAGS.save_checkpoints_steps, tf_random_seed=12345,
        tpu_config=tf.estimator.tpu.TPUConfig(
            iterations_per_loop=FLAGS.iterations_per_loop, num_shards=8,
            per_host_input_for_training=tf.estimator.tpu.InputPipelineConfig.PER_HOST_V2))
    estimator = tf.estimator.tpu.TPUEstimator(
        use_tpu=FLAGS.use_tpu,
        model_fn=model_fn_builder(FLAGS.num_train_steps, FLAGS.num_warmup_steps),
        config=run_config, train_batch_size=FLAGS.train_batch_size,
        eval_batch_size=FLAGS.eval_batch_size, predict_batch_size=FLAGS.predict_batch_size)
    estimator.train(input_fn=input_fn_builder(make_features(48, 0), True, True),
                    max_steps=FLAGS.num_train_steps)
    names = estimator.get_variable_names()
    print("variables:", len(names), [n for n in names if "layer_0/attention" in n][:4])
    result = estimator.evaluate(input_fn=input_fn_builder(make_features(16, 1), False, True),
                                steps=None)
    for key in sorted(result.keys()):
        print("  %s = %.5f" % (key, result[key]))
    predictions = estimator.predict(input_fn=input_fn_builder(
        {k: v for k, v in make_features(4, 2).items()}, False, False))
    for prediction in predictions:
        print("  probabilities:", np.round(prediction["probabilities"], 5).tolist())
    shutil.rmtree(output_dir)


if __name__ == "__main__":
    tf.app.run()
