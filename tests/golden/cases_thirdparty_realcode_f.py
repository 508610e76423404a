"""Golden cases: patterns of tensorflow/models' TF1 tutorials (CIFAR-10, PTB) and of
ibab/tensorflow-wavenet, restated small: the reader-queue input pipelines, local response
normalization with its gradient, the PTB LSTM language model's training step, mu-law
companding and WaveNet's dilated causal convolution.
"""

import os
import tempfile

import numpy as np


def _cifar_binary_file() -> str:
    """Five CIFAR-10 binary records (1 label byte + 3x32x32 bytes, channel-major)."""
    labels = np.arange(5, dtype=np.uint8)[:, None] * 2
    pixels = (np.arange(5 * 3072, dtype=np.int64) * 37 % 256).astype(np.uint8).reshape(5, 3072)
    path = os.path.join(tempfile.mkdtemp(), "data_batch_1.bin")
    np.concatenate([labels, pixels], axis=1).tofile(path)
    return path


def case_cifar10_reader_pipeline(tf):
    """cifar10_input.inputs(): FixedLengthRecordReader over the binary file, decode_raw,
    label and depth-major image cut with strided_slice, transposed to HWC, cropped to 24,
    per-image standardization, tf.train.batch (one thread, in order)."""
    queue = tf.train.string_input_producer([_cifar_binary_file()], shuffle=False)
    reader = tf.FixedLengthRecordReader(record_bytes=1 + 3072)
    key, value = reader.read(queue)
    record = tf.decode_raw(value, tf.uint8)
    label = tf.cast(tf.strided_slice(record, [0], [1]), tf.int32)
    depth_major = tf.reshape(tf.strided_slice(record, [1], [3073]), [3, 32, 32])
    image = tf.cast(tf.transpose(depth_major, [1, 2, 0]), tf.float32)
    image = tf.image.per_image_standardization(
        tf.image.resize_image_with_crop_or_pad(image, 24, 24))
    label.set_shape([1])
    images, labels = tf.train.batch([image, label], batch_size=3, num_threads=1,
                                    capacity=20)
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord=coord)
        out = [sess.run([images, tf.reshape(labels, [3])]) for _ in range(2)]
        coord.request_stop()
        coord.join(threads)
    return {"images": [o[0][:, ::5, ::5, :] for o in out], "labels": [o[1] for o in out],
            "key": key.dtype.name, "image_shape": images.shape.as_list()}


def case_cifar10_lrn_gradient(tf):
    """tf.nn.lrn as the CIFAR-10 model uses it (after pool1, before pool2) and its
    gradient through a convolution, with two radii (one wider than the depth)."""
    tf.set_random_seed(4)
    x = tf.constant(np.sin(np.arange(2 * 5 * 5 * 6, dtype=np.float32)).reshape(2, 5, 5, 6))
    kernel = tf.get_variable("k", [3, 3, 6, 7],
                             initializer=tf.truncated_normal_initializer(stddev=0.5))
    h = tf.nn.relu(tf.nn.conv2d(x, kernel, [1, 1, 1, 1], padding="SAME"))
    norm1 = tf.nn.lrn(h, 4, bias=1.0, alpha=0.001 / 9.0, beta=0.75, name="norm1")
    norm2 = tf.nn.local_response_normalization(h, depth_radius=9, bias=0.5, alpha=0.3,
                                               beta=0.5)
    loss = tf.reduce_sum(norm1 * norm1) + tf.reduce_sum(norm2 * tf.sin(h))
    grads = tf.gradients(loss, [kernel, h])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        n1, n2, gk, gh = sess.run([norm1, norm2] + grads)
    return {"norm1": n1, "norm2": n2, "grad_kernel": gk, "grad_h": gh,
            "name": norm1.op.name, "type": norm1.op.type}


def case_ptb_producer_queue(tf):
    """ptb reader's ptb_producer: the id list as a [batch, len] matrix, a
    range_input_producer (no shuffle) of the step index, strided_slice windows for x and
    the shifted y, set_shape."""
    raw = [4, 3, 2, 1, 0, 5, 6, 1, 1, 1, 1, 0, 3, 4, 1, 7, 2]
    batch_size, num_steps = 3, 2
    with tf.name_scope("PTBProducer"):
        data = tf.convert_to_tensor(raw, name="raw_data", dtype=tf.int32)
        batch_len = tf.size(data) // batch_size
        matrix = tf.reshape(data[0: batch_size * batch_len], [batch_size, batch_len])
        epoch_size = (batch_len - 1) // num_steps
        checked = tf.assert_positive(epoch_size, message="epoch_size == 0")
        with tf.control_dependencies([checked]):
            epoch_size = tf.identity(epoch_size, name="epoch_size")
        i = tf.train.range_input_producer(epoch_size, shuffle=False).dequeue()
        x = tf.strided_slice(matrix, [0, i * num_steps], [batch_size, (i + 1) * num_steps])
        x.set_shape([batch_size, num_steps])
        y = tf.strided_slice(matrix, [0, i * num_steps + 1],
                             [batch_size, (i + 1) * num_steps + 1])
        y.set_shape([batch_size, num_steps])
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord=coord)
        out = [sess.run([x, y]) for _ in range(3)]
        coord.request_stop()
        coord.join(threads)
    return {"batches": out, "x_name": x.op.name, "epoch_size": epoch_size.op.name}


def case_ptb_lstm_training_step(tf):
    """The PTB model's graph in small: embedding lookup, a two-layer BasicLSTMCell
    MultiRNNCell unrolled with static_rnn over unstacked steps, the softmax projection,
    the per-step cross-entropy averaged over the batch and summed over time, gradients clipped by
    global norm, SGD with an assignable learning rate, the final state fed back."""
    tf.set_random_seed(11)
    batch, steps, hidden, vocab = 2, 3, 4, 9
    ids = tf.placeholder(tf.int32, [batch, steps], name="ids")
    targets = tf.placeholder(tf.int32, [batch, steps], name="targets")
    init = tf.random_uniform_initializer(-0.1, 0.1)
    with tf.variable_scope("Model", initializer=init):
        embedding = tf.get_variable("embedding", [vocab, hidden])
        inputs = tf.nn.embedding_lookup(embedding, ids)
        cell = tf.nn.rnn_cell.MultiRNNCell(
            [tf.nn.rnn_cell.BasicLSTMCell(hidden, forget_bias=0.0, state_is_tuple=True)
             for _ in range(2)], state_is_tuple=True)
        initial = cell.zero_state(batch, tf.float32)
        outputs, state = tf.nn.static_rnn(cell, tf.unstack(inputs, num=steps, axis=1),
                                          initial_state=initial)
        output = tf.reshape(tf.concat(outputs, 1), [-1, hidden])
        w = tf.get_variable("softmax_w", [hidden, vocab])
        b = tf.get_variable("softmax_b", [vocab])
        logits = tf.reshape(tf.nn.xw_plus_b(output, w, b), [batch, steps, vocab])
        # contrib's sequence_loss with unit weights, averaged over the batch only.
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=targets, logits=logits), axis=0)
        cost = tf.reduce_sum(loss)
        lr = tf.Variable(0.0, trainable=False)
        grads, _ = tf.clip_by_global_norm(tf.gradients(cost, tf.trainable_variables()), 1.0)
        train = tf.train.GradientDescentOptimizer(lr).apply_gradients(
            zip(grads, tf.trainable_variables()),
            global_step=tf.train.get_or_create_global_step())
        new_lr = tf.placeholder(tf.float32, [])
        set_lr = tf.assign(lr, new_lr)
    data = np.arange(batch * (steps + 1) * 2).reshape(batch, -1) % vocab
    costs = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(set_lr, {new_lr: 1.0})
        values = sess.run(initial)
        for k in range(2):
            feed = {ids: data[:, k * steps:(k + 1) * steps],
                    targets: data[:, k * steps + 1:(k + 1) * steps + 1]}
            for i, (c, h) in enumerate(initial):
                feed[c], feed[h] = values[i].c, values[i].h
            c_value, values, _ = sess.run([cost, state, train], feed)
            costs.append(c_value)
        weights = sess.run(w)
    return {"costs": costs, "softmax_w": weights, "state_h": values[1].h,
            "variables": sorted(v.op.name for v in tf.global_variables())}


def case_wavenet_mu_law_and_causal_conv(tf):
    """WaveNet's ops: mu-law encode (sign * log1p(mu |x|) / log1p(mu), rounded to
    int32 bins) and decode; time_to_batch / batch_to_time (pad, reshape, transpose) and a
    dilated causal conv1d built from them."""
    mu = 255
    audio = tf.constant(np.linspace(-1, 1, 41, dtype=np.float32))
    safe = tf.minimum(tf.abs(audio), 1.0)
    magnitude = tf.log1p(mu * safe) / tf.log1p(float(mu))
    encoded = tf.to_int32((tf.sign(audio) * magnitude + 1) / 2 * mu + 0.5)
    signal = 2 * (tf.to_float(encoded) / mu) - 1
    decoded = tf.sign(signal) * (1 / mu) * ((1 + mu) ** abs(signal) - 1)

    def time_to_batch(value, dilation):
        shape = tf.shape(value)
        pad = tf.mod(dilation - tf.mod(shape[1], dilation), dilation)
        padded = tf.pad(value, [[0, 0], [0, pad], [0, 0]])
        reshaped = tf.reshape(padded, [-1, dilation, shape[2]])
        return tf.reshape(tf.transpose(reshaped, [1, 0, 2]), [shape[0] * dilation, -1,
                                                                 shape[2]])

    def batch_to_time(value, dilation):
        shape = tf.shape(value)
        prepared = tf.reshape(value, [dilation, -1, shape[2]])
        return tf.reshape(tf.transpose(prepared, [1, 0, 2]),
                          [tf.div(shape[0], dilation), -1, shape[2]])

    x = tf.reshape(tf.to_float(tf.range(20)) / 10.0, [1, 20, 1])
    kernel = tf.constant(np.array([[[1.0, -0.5]], [[0.25, 2.0]]], np.float32))
    transformed = time_to_batch(x, 4)
    conv = tf.nn.conv1d(transformed, kernel, stride=1, padding="VALID")
    restored = batch_to_time(conv, 4)
    causal = tf.slice(restored, [0, 0, 0], [-1, 20 - 4, -1])
    with tf.Session() as sess:
        enc, dec, out = sess.run([encoded, decoded, causal])
    return {"encoded": enc, "decoded": dec, "causal": out}
