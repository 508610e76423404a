"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-jj).

* tensorflow/models im2txt (Show and Tell: slim's inception_v3 image encoder, an LSTM
  caption decoder, ops/inputs.py's prefetch_input_data queues over TFRecord
  SequenceExamples, inference_wrapper + caption_generator's beam search). The stored
  tensorflow/models snapshot is too large to fetch, so the code is the 2016 im2txt of a
  demo repository (QiyunC/im2txt_demo) with its pre-1.0 calls put back to the TF 1.x
  upstream forms (`tf.losses`, `tf.summary.*`, `tf.contrib.rnn`, keyword
  `sparse_softmax_cross_entropy_with_logits`, `tf.subtract`, the package imports).
  Its caption_generator_test.py and ops/image_embedding_test.py pass under both; in
  show_and_tell_model_test.py the three build tests stop, under both, at the project's
  Python 2 `dict.keys()` fetch (TF's TypeError), and pass under both (full 299x299
  batch-32 graphs, parameter counts and output shapes) once `list(...)` is put there. With
  a fake shard (8 SequenceExamples of random 64x64 JPEGs, captions over a 20-word
  vocabulary), a 150x150 ModelConfig (batch 4, 32 LSTM units) and
  `tf.set_random_seed(1)`, the randomly initialised Inception checkpoint of each side is
  identical (376 variables); train.py's main (optimize_loss SGD with clipping and
  staircase decay, slim.learning.train from the shared Inception checkpoint) trains 4
  steps on both (losses 3.01 -> 2.86 under TF, 2.99 -> 2.74 here: the queues' order,
  random crops, colour distortions and LSTM dropout are not reproducible run to run), and
  inference_wrapper + beam search (beam 3) from either side's trained checkpoint give the
  same captions and log-probabilities on both sides (to 1e-6).
  Fixed in tf1compat: `tf.GraphKeys.VARIABLES` was a method, not TF's deprecated class
  property naming "variables" (so the 2016 code's `tf.get_collection(
  tf.GraphKeys.VARIABLES, ...)` found nothing and its global step was in no variable
  collection); `parse_single_sequence_example` / `parse_single_example` of a tensor of
  unknown rank (a dequeued record) gave context features a leading `?` dimension where
  TF adds its run-time `SerializedIsScalar` check and a scalar shape (`decode_jpeg` then
  refused the rank-1 image); Shape / Size / Rank of a fed `bytes` scalar failed; and
  contrib's summarize_activation named its casts `Cast`, where TF 1.15's `to_float` makes
  `ToFloat` (the test's fetched `ToFloat_5:0` was `ToFloat:0` here).
"""

import numpy as np


def _sequence_examples(tf, n):
    out = []
    for i in range(n):
        ex = tf.train.SequenceExample()
        ex.context.feature["image/data"].bytes_list.value.append(b"img%d" % i)
        ids = ex.feature_lists.feature_list["image/caption_ids"]
        for t in [0] + [2 + (i * 3 + j) % 5 for j in range(2 + i % 3)] + [1]:
            ids.feature.add().int64_list.value.append(t)
        out.append(ex.SerializeToString())
    return out


def case_graphkeys_variables_alias(tf):
    """2016 code: the global step in `[GLOBAL_STEP, GraphKeys.VARIABLES]`, a scope's
    variables from `get_collection(GraphKeys.VARIABLES, scope=...)`."""
    with tf.variable_scope("InceptionV3"):
        tf.get_variable("w", [2], initializer=tf.zeros_initializer())
    tf.get_variable("other", [3], initializer=tf.zeros_initializer())
    step = tf.Variable(initial_value=0, name="global_step", trainable=False,
                       collections=[tf.GraphKeys.GLOBAL_STEP, tf.GraphKeys.VARIABLES])
    return {"alias": tf.GraphKeys.VARIABLES, "on_instance": tf.GraphKeys().VARIABLES,
            "is_str": isinstance(tf.GraphKeys.VARIABLES, str),
            "scope": [v.op.name for v in tf.get_collection(tf.GraphKeys.VARIABLES,
                                                           scope="InceptionV3")],
            "all": [v.op.name for v in tf.global_variables()],
            "step": [v.op.name for v in tf.get_collection(tf.GraphKeys.GLOBAL_STEP)],
            "step_is": tf.train.get_global_step() is step}


def case_parse_sequence_example_from_queue(tf):
    """inputs.py: records through a string queue without shapes (unknown rank), parsed
    by parse_single_sequence_example: the context image is a scalar, the caption [?]."""
    q = tf.FIFOQueue(10, dtypes=[tf.string])
    records = _sequence_examples(tf, 3)
    enq = q.enqueue_many([records])
    serialized = q.dequeue()
    context, sequence = tf.parse_single_sequence_example(
        serialized,
        context_features={"image/data": tf.FixedLenFeature([], dtype=tf.string)},
        sequence_features={"image/caption_ids": tf.FixedLenSequenceFeature([], tf.int64)})
    image, caption = context["image/data"], sequence["image/caption_ids"]
    example = tf.parse_single_example(q.dequeue(), {
        "image/data": tf.FixedLenFeature([], tf.string, default_value=b"")})
    out = {"dequeued_rank": serialized.shape.ndims, "image_shape": str(image.shape),
           "caption_shape": str(caption.shape),
           "example_shape": str(example["image/data"].shape),
           "len": str(tf.shape(caption)[0].shape)}
    with tf.Session() as sess:
        sess.run(enq)
        out["first"] = list(sess.run([image, caption]))
        out["second"] = sess.run(example)
    return out


def case_parse_single_sequence_example_rank_check(tf):
    """The run-time scalar check (an unshaped placeholder fed a vector) and the ops it
    adds; a statically non-scalar input is TF's ValueError."""
    from tests.golden.harness import catch
    s = tf.placeholder(tf.string)
    context, _ = tf.parse_single_sequence_example(
        s, context_features={"image/data": tf.FixedLenFeature([], dtype=tf.string)})
    ops = [op.type for op in tf.get_default_graph().get_operations()]
    record = _sequence_examples(tf, 1)[0]
    with tf.Session() as sess:
        ok = sess.run(context["image/data"], {s: record})
        bad = catch(lambda: sess.run(context["image/data"], {s: [record]}))
    vec = tf.placeholder(tf.string, [2])
    static = catch(lambda: tf.parse_single_sequence_example(
        vec, context_features={"a": tf.FixedLenFeature([], tf.string)}), message=True)
    return {"ok": ok, "bad": bad, "static": static,
            "ops": sorted(set(ops) & {"Rank", "Equal", "Assert", "Identity"})}


def case_shape_size_rank_of_fed_string_scalar(tf):
    """Shape / Size / Rank kernels on a string scalar fed as bytes."""
    s = tf.placeholder(tf.string)
    with tf.Session() as sess:
        return sess.run([tf.shape(s), tf.size(s), tf.rank(s), tf.shape_n([s, s])],
                        {s: b"record"})


def case_im2txt_caption_batch_and_lstm_loss(tf):
    """ops/inputs.py's batch_with_dynamic_pad (caption split into input/target with a
    ones indicator, batch_join with dynamic_pad) feeding show_and_tell_model's decoder:
    the image embedding steps a BasicLSTMCell once for the initial state, dynamic_rnn over
    the embedded inputs with sequence_length from the mask, the masked mean
    cross-entropy; then the inference graph's concatenated state feed/fetch."""
    q = tf.FIFOQueue(10, dtypes=[tf.string])
    enq = q.enqueue_many([_sequence_examples(tf, 4)])
    _, sequence = tf.parse_single_sequence_example(
        q.dequeue(),
        sequence_features={"image/caption_ids": tf.FixedLenSequenceFeature([], tf.int64)})
    caption = sequence["image/caption_ids"]
    input_length = tf.expand_dims(tf.subtract(tf.shape(caption)[0], 1), 0)
    pieces = [tf.slice(caption, [0], input_length), tf.slice(caption, [1], input_length),
              tf.ones(input_length, dtype=tf.int32)]
    input_seqs, target_seqs, mask = tf.train.batch_join(
        [pieces], batch_size=2, capacity=8, dynamic_pad=True, name="batch_and_pad")
    rng = np.random.RandomState(0)
    init = tf.random_uniform_initializer(-0.08, 0.08, seed=3)
    image_embeddings = tf.constant(rng.randn(2, 6).astype(np.float32))
    with tf.variable_scope("seq_embedding"):
        embedding_map = tf.get_variable("map", [8, 6], initializer=init)
        seq_embeddings = tf.nn.embedding_lookup(embedding_map, input_seqs)
    cell = tf.nn.rnn_cell.BasicLSTMCell(num_units=5, state_is_tuple=True)
    with tf.variable_scope("lstm", initializer=init) as lstm_scope:
        zero_state = cell.zero_state(batch_size=image_embeddings.get_shape()[0],
                                     dtype=tf.float32)
        _, initial_state = cell(image_embeddings, zero_state)
        lstm_scope.reuse_variables()
        outputs, _ = tf.nn.dynamic_rnn(cell=cell, inputs=seq_embeddings,
                                       sequence_length=tf.reduce_sum(mask, 1),
                                       initial_state=initial_state, dtype=tf.float32,
                                       scope=lstm_scope)
        concat = tf.concat(axis=1, values=initial_state, name="initial_state")
        state_feed = tf.placeholder(tf.float32, [None, sum(cell.state_size)],
                                    name="state_feed")
        step_out, step_state = cell(inputs=tf.squeeze(seq_embeddings[:, :1], axis=[1]),
                                    state=tf.split(value=state_feed, num_or_size_splits=2,
                                                   axis=1))
        state = tf.concat(axis=1, values=step_state, name="state")
    logits = tf.layers.dense(tf.reshape(outputs, [-1, cell.output_size]), 8,
                             kernel_initializer=init)
    weights = tf.to_float(tf.reshape(mask, [-1]))
    losses = tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.reshape(target_seqs, [-1]), logits=logits)
    batch_loss = tf.div(tf.reduce_sum(tf.multiply(losses, weights)), tf.reduce_sum(weights),
                        name="batch_loss")
    tf.losses.add_loss(batch_loss)
    total = tf.losses.get_total_loss()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(enq)
        sess.run(q.close())     # the runner then ends at OutOfRange, after 4 records
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        ins, tgt, m, loss, c = sess.run([input_seqs, target_seqs, mask, total, concat])
        step = sess.run([step_out, state], {state_feed: c, input_seqs: ins})
        coord.request_stop()
        coord.join(threads)
    return {"inputs": ins, "targets": tgt, "mask": m, "loss": loss, "state": c,
            "step": step, "names": [concat.name, state.name, batch_loss.name],
            "shapes": [str(input_seqs.shape), str(outputs.shape)]}


def case_contrib_summarize_activation_op_names(tf):
    """image_embedding.py summarizes Inception's end points: TF 1.15's summarize_activation
    casts ReLU-like pre-activations with `to_float` (ops named ToFloat, ToFloat_1, ...), so
    the model's own later `tf.to_float` is `ToFloat_<n>` in TF."""
    from tests.golden.cases_contrib_layers_tail import _layers
    layers = _layers(tf)
    x = tf.constant([[-1.0, 2.0, 7.0]])
    for act in [tf.nn.relu(x, name="a"), tf.nn.relu6(x, name="b"), tf.tanh(x, name="c")]:
        layers.summarize_activation(act)
    mask = tf.to_float(tf.constant([1, 0]))
    casts = [(op.name, op.type) for op in tf.get_default_graph().get_operations()
             if op.type == "Cast"]
    return {"casts": casts, "later": mask.name}
