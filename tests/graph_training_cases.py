"""Training graphs tf1compat writes for real TensorFlow to train from the file
(scripts/check_tf_reads_graphs.py; cases like those of tests/graph_export_cases.py).

Each case builds a model with an optimizer's train op (a `tf.gradients` SymbolicGradient
op, written in TF's form: training/gradient_export.py) and a `tf.train.Saver`
(`spec["saver"]`). The script saves a checkpoint of the initial variables; the reader
imports graph.meta, restores the checkpoint and runs the TRAIN OP from the file for a few
steps (one run each), then fetches the loss and the variables.
"""

from __future__ import annotations

import numpy as np

X8 = np.linspace(-1, 1, 32, dtype=np.float32).reshape(8, 4)
LABELS8 = np.array([0, 1, 2, 1, 0, 2, 2, 1], np.int32)
IMAGES = np.cos(np.arange(4 * 6 * 6, dtype=np.float32) * 0.37).reshape(4, 6, 6, 1)
IDS = np.array([[1, 3], [3, 5], [0, 7], [5, 5]], np.int32)
STEPS = 3


def _training_spec(tf, saver, feeds: dict, fetches: list) -> dict:
    runs = [{"feeds": feeds, "fetches": [], "targets": ["train"]} for _ in range(STEPS)]
    runs.append({"feeds": feeds, "fetches": fetches})
    return {"init": "init", "checkpoint": "model", "saver": saver, "runs": runs}


def case_train_mlp_dropout(tf):
    """MLP (batch size unknown, Elu) with (seeded) dropout, sparse softmax cross-entropy,
    GradientDescent with a global step: the dropout mask is an input of the gradient's
    function, not redrawn."""
    tf.set_random_seed(5)
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    labels = tf.placeholder(tf.int32, [None], name="labels")
    h = tf.layers.dense(x, 6, activation=tf.nn.elu, name="hidden")
    h = tf.layers.dropout(h, 0.4, training=True)
    logits = tf.layers.dense(h, 3, name="logits")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=labels, logits=logits), name="loss")
    step = tf.train.get_or_create_global_step()
    tf.train.GradientDescentOptimizer(0.5).minimize(loss, global_step=step, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": X8, "labels:0": LABELS8},
                          ["loss:0", "global_step:0", "hidden/kernel:0", "hidden/bias:0",
                           "logits/kernel:0"])


def case_train_cnn_batch_norm(tf):
    """conv2d -> max_pool -> batch_normalization(training=True) -> dense, Momentum; the
    batch-norm updates run with the train op (UPDATE_OPS as control dependencies)."""
    tf.set_random_seed(6)
    images = tf.placeholder(tf.float32, [4, 6, 6, 1], name="images")
    labels = tf.placeholder(tf.float32, [4, 2], name="labels")
    h = tf.layers.conv2d(images, 3, 3, padding="same", activation=tf.nn.relu, name="conv")
    h = tf.layers.max_pooling2d(h, 2, 2, name="pool")
    h = tf.layers.batch_normalization(h, training=True, name="bn")
    logits = tf.layers.dense(tf.reshape(h, [4, 27]), 2, name="out")
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(
        labels=labels, logits=logits), name="loss")
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        tf.train.MomentumOptimizer(0.1, 0.9).minimize(
            loss, global_step=tf.train.get_or_create_global_step(), name="train")
    tf.global_variables_initializer()
    one_hot = np.eye(2, dtype=np.float32)[[0, 1, 1, 0]]
    return _training_spec(tf, tf.train.Saver(), {"images:0": IMAGES, "labels:0": one_hot},
                          ["loss:0", "conv/kernel:0", "bn/gamma:0", "bn/beta:0",
                           "bn/moving_mean:0", "bn/moving_variance:0", "out/kernel:0"])


def case_train_embedding(tf):
    """embedding_lookup (IndexedSlices gradient: ScatterSub updates rows) with a dense
    layer, GradientDescent."""
    tf.set_random_seed(8)
    ids = tf.placeholder(tf.int32, [4, 2], name="ids")
    target = tf.placeholder(tf.float32, [4, 1], name="target")
    table = tf.get_variable("embedding", [8, 3],
                            initializer=tf.random_normal_initializer(seed=2))
    vectors = tf.reduce_mean(tf.nn.embedding_lookup(table, ids), axis=1)
    out = tf.layers.dense(vectors, 1, name="out")
    loss = tf.reduce_mean(tf.square(out - target), name="loss")
    tf.train.GradientDescentOptimizer(0.3).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(),
                          {"ids:0": IDS, "target:0": np.array([[1.], [0.], [2.], [-1.]],
                                                              np.float32)},
                          ["loss:0", "embedding:0", "out/kernel:0"])


def case_train_adam(tf):
    """A tanh MLP with Adam and a global step (slots, beta powers) and an L2 penalty."""
    tf.set_random_seed(7)
    x = tf.placeholder(tf.float32, [8, 4], name="x")
    y = tf.placeholder(tf.float32, [8, 1], name="y")
    h = tf.layers.dense(x, 5, activation=tf.tanh, name="h")
    pred = tf.layers.dense(h, 1, name="pred")
    loss = tf.add(tf.reduce_mean(tf.squared_difference(pred, y)),
                  1e-3 * tf.nn.l2_loss(tf.trainable_variables()[0]), name="loss")
    step = tf.train.get_or_create_global_step()
    tf.train.AdamOptimizer(0.05).minimize(loss, global_step=step, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(),
                          {"x:0": X8, "y:0": np.sum(X8, 1, keepdims=True)},
                          ["loss:0", "global_step:0", "h/kernel:0", "pred/bias:0",
                           "h/kernel/Adam:0", "beta1_power:0"])


def case_train_keras_resource(tf):
    """tf.keras layers (resource variables: one function input per variable standing for
    its reads; the Embedding's ResourceGather gives IndexedSlices) trained by a tf.train
    optimizer (RMSProp)."""
    tf.set_random_seed(9)
    x = tf.placeholder(tf.float32, [4, 4], name="x")
    ids = tf.placeholder(tf.int32, [4, 2], name="ids")
    y = tf.placeholder(tf.float32, [4, 1], name="y")
    embedded = tf.reduce_mean(tf.keras.layers.Embedding(8, 3, name="emb")(ids), axis=1)
    hidden = tf.keras.layers.Dense(6, activation="sigmoid", name="k1")
    out = tf.keras.layers.Dense(1, name="k2")
    loss = tf.reduce_mean(tf.square(out(hidden(tf.concat([x, embedded], 1))) - y),
                          name="loss")
    tf.train.RMSPropOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(),
                          {"x:0": X8[:4], "ids:0": IDS,
                           "y:0": np.cos(np.sum(X8[:4], 1, keepdims=True))},
                          ["loss:0", "k1/kernel/Read/ReadVariableOp:0",
                           "k2/bias/Read/ReadVariableOp:0",
                           "emb/embeddings/Read/ReadVariableOp:0"])


def case_train_mnist_tutorial(tf):
    """TF 1.x's "Deep MNIST for experts" in small: tf.Variable weights, conv2d + max_pool,
    dropout with a keep_prob placeholder (unknown-shaped rate), v1 softmax cross-entropy,
    Adam."""
    tf.set_random_seed(10)
    x = tf.placeholder(tf.float32, [None, 64])
    y_ = tf.placeholder(tf.float32, [None, 10])
    keep_prob = tf.placeholder(tf.float32)
    w1 = tf.Variable(tf.truncated_normal([3, 3, 1, 4], stddev=0.1))
    b1 = tf.Variable(tf.constant(0.1, shape=[4]))
    h = tf.nn.relu(tf.nn.conv2d(tf.reshape(x, [-1, 8, 8, 1]), w1, [1, 1, 1, 1], "SAME") + b1)
    h = tf.reshape(tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "SAME"), [-1, 64])
    w2 = tf.Variable(tf.truncated_normal([64, 16], stddev=0.1))
    b2 = tf.Variable(tf.constant(0.1, shape=[16]))
    h = tf.nn.dropout(tf.nn.relu(tf.matmul(h, w2) + b2), keep_prob)
    w3 = tf.Variable(tf.truncated_normal([16, 10], stddev=0.1))
    logits = tf.matmul(h, w3)
    tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=logits),
                   name="cross_entropy")
    tf.train.AdamOptimizer(1e-2).minimize(tf.get_default_graph().get_tensor_by_name(
        "cross_entropy:0"), name="train")
    tf.global_variables_initializer()
    rs = np.random.RandomState(0)
    images = rs.rand(16, 64).astype(np.float32)
    labels = np.eye(10, dtype=np.float32)[rs.randint(0, 10, 16)]
    spec = _training_spec(tf, tf.train.Saver(),
                          {"Placeholder:0": images, "Placeholder_1:0": labels,
                           "Placeholder_2:0": np.float32(0.5)},
                          ["Variable:0", "Variable_4:0"])
    spec["runs"].append({"feeds": {"Placeholder:0": images, "Placeholder_1:0": labels,
                                   "Placeholder_2:0": np.float32(1.0)},
                         "fetches": ["cross_entropy:0"]})
    return spec


def case_train_separable_losses(tf):
    """separable_conv2d (depthwise) with relu6, average pooling, flatten, softplus and
    leaky_relu layers with l2 regularizers, tf.losses with the regularization loss
    (AddN, L2Loss), Nesterov momentum with a global step."""
    tf.set_random_seed(11)
    x = tf.placeholder(tf.float32, [None, 8, 8, 1], name="x")
    y = tf.placeholder(tf.int64, [None], name="y")
    reg = tf.contrib.layers.l2_regularizer(1e-3)
    h = tf.layers.separable_conv2d(x, 4, 3, depth_multiplier=2, activation=tf.nn.relu6,
                                   name="sep")
    h = tf.layers.flatten(tf.layers.average_pooling2d(h, 2, 2))
    h = tf.layers.dense(h, 8, activation=tf.nn.softplus, kernel_regularizer=reg, name="f1")
    h = tf.layers.dense(h, 6, activation=tf.nn.leaky_relu, kernel_regularizer=reg,
                        name="f2")
    logits = tf.layers.dense(h, 3, name="f3")
    loss = tf.identity(tf.losses.sparse_softmax_cross_entropy(y, logits) +
                       tf.losses.get_regularization_loss(), name="loss")
    tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True).minimize(
        loss, global_step=tf.train.get_or_create_global_step(), name="train")
    tf.global_variables_initializer()
    rs = np.random.RandomState(1)
    return _training_spec(tf, tf.train.Saver(),
                          {"x:0": rs.rand(6, 8, 8, 1).astype(np.float32),
                           "y:0": rs.randint(0, 3, 6)},
                          ["loss:0", "sep/depthwise_kernel:0", "sep/pointwise_kernel:0",
                           "f1/kernel:0", "f3/bias:0"])


def _train_and_evaluate(tf, saver, feeds: dict, fetches: list, flag: str) -> dict:
    """Training steps with the tensor `flag` True, fetches; a training step with it False
    (the gradient through the other branches), fetches."""
    spec = _training_spec(tf, saver, dict(feeds, **{flag: True}), fetches)
    off = dict(feeds, **{flag: False})
    spec["runs"] += [{"feeds": off, "fetches": [], "targets": ["train"]},
                     {"feeds": off, "fetches": fetches}]
    return spec


def case_train_cond_dropout_batch_norm(tf):
    """The classic TF1 CNN with an `is_training` placeholder: batch_normalization (fused,
    NHWC) and dropout with training=is_training (tf.conds on the gradient path: written
    as both branches + Select; dropout's mask enters through a Merge), updates as
    control dependencies, Momentum; evaluated with is_training False."""
    tf.set_random_seed(12)
    images = tf.placeholder(tf.float32, [4, 6, 6, 1], name="images")
    labels = tf.placeholder(tf.int32, [4], name="labels")
    is_training = tf.placeholder(tf.bool, [], name="is_training")
    h = tf.layers.conv2d(images, 3, 3, padding="same", name="conv")
    h = tf.nn.relu(tf.layers.batch_normalization(h, training=is_training, name="bn"))
    h = tf.layers.dense(tf.layers.flatten(tf.layers.max_pooling2d(h, 2, 2)), 8,
                        activation=tf.nn.relu, name="fc")
    h = tf.layers.dropout(h, 0.3, training=is_training)
    logits = tf.layers.dense(h, 3, name="out")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=labels, logits=logits), name="loss")
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        tf.train.MomentumOptimizer(0.1, 0.9).minimize(
            loss, global_step=tf.train.get_or_create_global_step(), name="train")
    tf.global_variables_initializer()
    return _train_and_evaluate(
        tf, tf.train.Saver(), {"images:0": IMAGES, "labels:0": LABELS8[:4]},
        ["loss:0", "conv/kernel:0", "bn/gamma:0", "bn/moving_mean:0",
         "bn/moving_variance:0", "fc/kernel:0", "out/bias:0"], "is_training:0")


def case_train_batch_norm_nchw_half(tf):
    """Batch norm variants: tf.contrib.layers.batch_norm in NCHW with a tensor
    is_training (fused), and tf.layers.batch_normalization of a float16 tensor (fused,
    computed in float32) with training=True, Adam."""
    tf.set_random_seed(13)
    x = tf.placeholder(tf.float32, [4, 3, 2, 2], name="x")
    y = tf.placeholder(tf.float32, [4, 1], name="y")
    is_training = tf.placeholder_with_default(True, [], name="is_training")
    h = tf.contrib.layers.batch_norm(x, data_format="NCHW", is_training=is_training,
                                     scale=True, scope="cbn")
    h = tf.layers.dense(tf.reshape(h, [4, 12]), 4, activation=tf.tanh, name="h")
    half = tf.layers.batch_normalization(tf.reshape(tf.cast(h, tf.float16), [4, 1, 2, 2]),
                                         training=True, name="half_bn")
    pred = tf.layers.dense(tf.reshape(tf.cast(half, tf.float32), [4, 4]), 1, name="pred")
    loss = tf.reduce_mean(tf.square(pred - y), name="loss")
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    inputs = np.sin(np.arange(48, dtype=np.float32)).reshape(4, 3, 2, 2)
    return _train_and_evaluate(
        tf, tf.train.Saver(), {"x:0": inputs, "y:0": np.array([[1.], [0.], [2.], [-1.]],
                                                              np.float32)},
        ["loss:0", "cbn/gamma:0", "cbn/beta:0", "cbn/moving_mean:0", "h/kernel:0",
         "half_bn/gamma:0", "pred/kernel:0"], "is_training:0")


def case_train_prod_partitioned_embedding(tf):
    """An embedding table in 3 partitions (fixed_size_partitioner: DynamicPartition,
    gathers, ParallelDynamicStitch; sparse Adagrad updates per shard) and reduce_prod of
    sigmoid features (a Mul chain in the gradient's function), Adagrad."""
    tf.set_random_seed(14)
    ids = tf.placeholder(tf.int32, [4, 2], name="ids")
    target = tf.placeholder(tf.float32, [4, 1], name="target")
    table = tf.get_variable("embedding", [10, 3], partitioner=tf.fixed_size_partitioner(3),
                            initializer=tf.random_normal_initializer(seed=3))
    vectors = tf.reduce_mean(tf.nn.embedding_lookup(table, ids), axis=1)
    gates = tf.sigmoid(tf.layers.dense(vectors, 6, name="gates"))
    out = tf.reduce_prod(tf.reshape(gates, [4, 2, 3]), axis=2) * 4.0
    loss = tf.reduce_mean(tf.square(tf.reduce_sum(out, 1, keepdims=True) - target),
                          name="loss")
    tf.train.AdagradOptimizer(0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(),
                          {"ids:0": np.array([[1, 9], [3, 5], [0, 7], [5, 5]], np.int32),
                           "target:0": np.array([[1.], [0.], [2.], [-1.]], np.float32)},
                          ["loss:0", "embedding/part_0:0", "embedding/part_2:0",
                           "gates/kernel:0"])


def case_train_keras_dropout_learning_phase(tf):
    """tf.keras Dense, BatchNormalization and Dropout layers under the Keras learning
    phase (a tensor: tf.conds), trained by a tf.train optimizer (RMSProp) with the
    layers' updates."""
    tf.set_random_seed(15)
    x = tf.placeholder(tf.float32, [8, 4], name="x")
    y = tf.placeholder(tf.float32, [8, 1], name="y")
    h = tf.keras.layers.Dense(6, activation="relu", name="k1")(x)
    h = tf.keras.layers.BatchNormalization(name="kbn")(h)
    h = tf.keras.layers.Dropout(0.25, seed=4)(h)
    loss = tf.reduce_mean(tf.square(tf.keras.layers.Dense(1, name="k2")(h) - y), name="loss")
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        tf.train.RMSPropOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _train_and_evaluate(
        tf, tf.train.Saver(), {"x:0": X8, "y:0": np.cos(np.sum(X8, 1, keepdims=True))},
        ["loss:0", "k1/kernel/Read/ReadVariableOp:0", "k2/bias/Read/ReadVariableOp:0",
         "kbn/gamma/Read/ReadVariableOp:0", "kbn/moving_mean/Read/ReadVariableOp:0"],
        "keras_learning_phase:0")


def case_train_mlp_batch_norm_flag(tf):
    """An MLP with an unknown batch size: tf.layers.batch_normalization of a matrix (not
    fused: tf.conds pick the batch or the moving moments) and
    tf.contrib.layers.dropout, both under an `is_training` placeholder; the updates in
    UPDATE_OPS, GradientDescent with a global step."""
    tf.set_random_seed(16)
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    labels = tf.placeholder(tf.int32, [None], name="labels")
    is_training = tf.placeholder(tf.bool, [], name="is_training")
    h = tf.layers.dense(x, 6, name="hidden")
    h = tf.nn.relu(tf.layers.batch_normalization(h, training=is_training, name="bn"))
    h = tf.contrib.layers.dropout(h, keep_prob=0.7, is_training=is_training)
    logits = tf.layers.dense(h, 3, name="logits")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=labels, logits=logits), name="loss")
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        tf.train.GradientDescentOptimizer(0.3).minimize(
            loss, global_step=tf.train.get_or_create_global_step(), name="train")
    tf.global_variables_initializer()
    return _train_and_evaluate(
        tf, tf.train.Saver(), {"x:0": X8, "labels:0": LABELS8},
        ["loss:0", "global_step:0", "hidden/kernel:0", "bn/gamma:0", "bn/moving_mean:0",
         "bn/moving_variance:0", "logits/kernel:0"], "is_training:0")


def case_train_batch_norm_wrapper_tutorial(tf):
    """The batch-norm tutorial's hand-written wrapper: tf.cond(is_training, train, test)
    where `train` assigns the population moments and, under control dependencies on
    that, normalizes with tf.nn.moments' batch moments (a gradient stop inside the
    branch; rsqrt of variance + epsilon, provably positive); Adam."""
    tf.set_random_seed(17)
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    is_training = tf.placeholder(tf.bool, [], name="is_training")
    h = tf.matmul(x, tf.Variable(tf.truncated_normal([4, 5], stddev=0.5, seed=1), name="w1"))
    scale = tf.Variable(tf.ones([5]), name="scale")
    beta = tf.Variable(tf.zeros([5]), name="beta")
    pop_mean = tf.Variable(tf.zeros([5]), trainable=False, name="pop_mean")
    pop_var = tf.Variable(tf.ones([5]), trainable=False, name="pop_var")

    def train():
        batch_mean, batch_var = tf.nn.moments(h, [0])
        train_mean = tf.assign(pop_mean, pop_mean * 0.9 + batch_mean * 0.1)
        train_var = tf.assign(pop_var, pop_var * 0.9 + batch_var * 0.1)
        with tf.control_dependencies([train_mean, train_var]):
            return tf.nn.batch_normalization(h, batch_mean, batch_var, beta, scale, 1e-3)

    def test():
        return tf.nn.batch_normalization(h, pop_mean, pop_var, beta, scale, 1e-3)
    h = tf.nn.sigmoid(tf.cond(is_training, train, test))
    pred = tf.matmul(h, tf.Variable(tf.truncated_normal([5, 1], stddev=0.5, seed=2),
                                    name="w2"))
    loss = tf.reduce_mean(tf.square(pred - y), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _train_and_evaluate(
        tf, tf.train.Saver(), {"x:0": X8, "y:0": np.sum(X8, 1, keepdims=True)},
        ["loss:0", "w1:0", "scale:0", "beta:0", "pop_mean:0", "pop_var:0", "w2:0"],
        "is_training:0")


def case_train_keras_conv_noise_batch_norms(tf):
    """Under the Keras learning phase: a Conv2D, Keras' fused BatchNormalization
    (resource variables read in the tf.cond branches), SpatialDropout2D, GaussianNoise
    and contrib's batch_norm forcing its updates in the forward pass
    (updates_collections=None: assignments under control dependencies in a branch);
    Momentum with the Keras layers' updates."""
    tf.set_random_seed(18)
    phase = tf.keras.backend.learning_phase()
    images = tf.placeholder(tf.float32, [4, 6, 6, 1], name="images")
    y = tf.placeholder(tf.float32, [4, 1], name="y")
    layers = tf.keras.layers
    h = layers.Conv2D(3, 3, padding="same", name="conv")(images)
    h = layers.BatchNormalization(name="kbn")(h)
    h = layers.SpatialDropout2D(0.3)(layers.Activation("relu")(h))
    h = layers.GaussianNoise(0.1)(h)
    h = tf.contrib.layers.batch_norm(h, is_training=phase, updates_collections=None,
                                     scope="cbn")
    pred = layers.Dense(1, name="out")(layers.Flatten()(h))
    loss = tf.reduce_mean(tf.square(pred - y), name="loss")
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        tf.train.MomentumOptimizer(0.002, 0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _train_and_evaluate(
        tf, tf.train.Saver(), {"images:0": IMAGES, "y:0": np.array([[1.], [0.], [2.], [-1.]],
                                                                   np.float32)},
        ["loss:0", "conv/kernel/Read/ReadVariableOp:0", "kbn/gamma/Read/ReadVariableOp:0",
         "kbn/moving_mean/Read/ReadVariableOp:0", "cbn/beta:0", "cbn/moving_mean:0",
         "cbn/moving_variance:0", "out/bias/Read/ReadVariableOp:0"], "keras_learning_phase:0")


def case_train_cifar10_tutorial_lrn(tf):
    """The CIFAR-10 tutorial's model in small: conv, max pool, local response
    normalization (LRN: written in the gradient's function as a band-matrix product),
    conv, LRN, dense; weight decay as L2Loss in a 'losses' collection, GradientDescent
    with a global step."""
    tf.set_random_seed(15)
    images = tf.placeholder(tf.float32, [4, 6, 6, 1], name="images")
    labels = tf.placeholder(tf.int32, [4], name="labels")
    kernel = tf.get_variable("conv1/weights", [3, 3, 1, 5],
                             initializer=tf.truncated_normal_initializer(stddev=0.5))
    h = tf.nn.relu(tf.nn.conv2d(images, kernel, [1, 1, 1, 1], padding="SAME"))
    h = tf.nn.max_pool(h, [1, 3, 3, 1], [1, 2, 2, 1], padding="SAME")
    h = tf.nn.lrn(h, 4, bias=1.0, alpha=0.001 / 9.0, beta=0.75, name="norm1")
    h = tf.layers.conv2d(h, 4, 3, padding="same", activation=tf.nn.relu, name="conv2")
    h = tf.nn.lrn(h, 1, bias=0.5, alpha=0.2, beta=0.5, name="norm2")
    logits = tf.layers.dense(tf.reshape(h, [4, 36]), 3, name="logits")
    tf.add_to_collection("losses", tf.multiply(tf.nn.l2_loss(kernel), 0.004))
    tf.add_to_collection("losses", tf.reduce_mean(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)))
    loss = tf.add_n(tf.get_collection("losses"), name="loss")
    tf.train.GradientDescentOptimizer(0.5).minimize(
        loss, tf.train.get_or_create_global_step(), name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"images:0": IMAGES, "labels:0": LABELS8[:4]},
                          ["loss:0", "conv1/weights:0", "conv2/kernel:0", "logits/kernel:0"])


TRAINING_CASES = [case_train_mlp_dropout, case_train_cnn_batch_norm, case_train_embedding,
                  case_train_adam, case_train_keras_resource, case_train_mnist_tutorial,
                  case_train_separable_losses, case_train_cond_dropout_batch_norm,
                  case_train_batch_norm_nchw_half, case_train_prod_partitioned_embedding,
                  case_train_keras_dropout_learning_phase, case_train_mlp_batch_norm_flag,
                  case_train_batch_norm_wrapper_tutorial,
                  case_train_keras_conv_noise_batch_norms,
                  case_train_cifar10_tutorial_lrn]
