"""Golden cases: contrib modules that are thin layers over core TF 1.15 code, recorded
from the same code in TF 2.21 (which still ships it outside the public API):
`tf.contrib.deprecated`'s summaries (tensorflow.python.ops.logging_ops) and
`tf.contrib.staging.StagingArea` (tensorflow.python.ops.data_flow_ops)."""

import numpy as np

from tests.golden.harness import catch


def _deprecated(tf):
    """tf.contrib.deprecated under tf1compat; TF 1.15's source of it under TF 2.21."""
    if hasattr(tf, "contrib"):
        return tf.contrib.deprecated
    from tensorflow.python.ops import logging_ops
    return logging_ops


def _values(tf, serialized):
    out = []
    for v in tf.Summary.FromString(serialized).value:
        kind = v.WhichOneof("value")
        row = [v.tag, kind]
        if kind == "simple_value":
            row.append(v.simple_value)
        elif kind == "histo":
            row += [v.histo.min, v.histo.max, v.histo.num, v.histo.sum]
        elif kind == "image":
            row += [v.image.height, v.image.width, v.image.colorspace]
        elif kind == "audio":
            row += [v.audio.sample_rate, v.audio.num_channels, v.audio.length_frames]
        out.append(row)
    return out


def case_deprecated_summaries(tf):
    dep = _deprecated(tf)
    x = tf.constant([1.5, -2.0, 3.0])
    with tf.name_scope("scope"):
        s1 = dep.scalar_summary(["a", "b", "c"], x)
        s2 = dep.scalar_summary("loss", tf.reduce_sum(x), name="named")
        s3 = dep.histogram_summary("weights", x)
        s4 = dep.image_summary("pics", tf.zeros([2, 4, 5, 3]), max_images=1)
        s5 = dep.audio_summary("clip", tf.zeros([3, 16]), 8000, max_outputs=2)
    other = dep.scalar_summary("extra", tf.constant(4.0), collections=["mine"])
    merged = dep.merge_all_summaries()
    merged_mine = dep.merge_all_summaries("mine")
    pair = dep.merge_summary([s1, s2])
    ops = [s1, s2, s3, s4, s5, other, merged, merged_mine, pair]
    with tf.Session() as sess:
        results = sess.run(ops)
    return {
        "names": [t.name for t in ops],
        "types": [t.op.type for t in ops],
        "summaries_collection": [t.name for t in tf.get_collection(tf.GraphKeys.SUMMARIES)],
        "values": [_values(tf, r) for r in results],
        "empty": dep.merge_all_summaries("nothing_here") is None,
    }


def case_deprecated_summary_errors(tf):
    dep = _deprecated(tf)
    tags = tf.placeholder(tf.string, [None])
    vals = tf.placeholder(tf.float32, [None])
    s = dep.scalar_summary(tags, vals)
    dup = dep.merge_summary([dep.scalar_summary("same", tf.constant(1.0)),
                             dep.scalar_summary("same", tf.constant(2.0))])
    with tf.Session() as sess:
        return {
            "shape_mismatch": catch(lambda: sess.run(s, {tags: ["a"], vals: [1., 2.]}),
                                    message=True),
            "duplicate": catch(lambda: sess.run(dup)),
            "ok": _values(tf, sess.run(s, {tags: ["p", "q"], vals: [1., 2.]})),
        }


def _staging(tf):
    if hasattr(tf, "contrib"):
        return tf.contrib.staging.StagingArea
    from tensorflow.python.ops.data_flow_ops import StagingArea
    return StagingArea


def case_staging_area_put_get(tf):
    area = _staging(tf)(dtypes=[tf.float32, tf.int32], shapes=[[2], []], capacity=3)
    x = tf.placeholder(tf.float32, [2])
    i = tf.placeholder(tf.int32, [])
    put = area.put([x, i])
    got = area.get()
    peek = area.peek(1)
    size = area.size()
    clear = area.clear()
    with tf.Session() as sess:
        for k in range(3):
            sess.run(put, {x: [k, k + 0.5], i: k})
        sizes = [sess.run(size)]
        peeked = sess.run(peek)
        first = sess.run(got)
        sizes.append(sess.run(size))
        sess.run(clear)
        sizes.append(sess.run(size))
        sess.run(put, {x: [7., 8.], i: 9})
        last = sess.run(got)
    return {"sizes": sizes, "peeked": peeked, "first": first, "last": last,
            "names": [put.name, got[0].name, got[1].name, peek[0].name, size.name,
                      clear.name],
            "types": [put.type, got[0].op.type, peek[0].op.type, size.op.type, clear.type],
            "static_shapes": [t.shape.as_list() for t in got],
            "dtypes": [t.dtype.name for t in got]}


def case_staging_area_names_and_dict(tf):
    area = _staging(tf)(dtypes=[tf.float32, tf.string], names=["value", "label"],
                        shared_name="shared")
    put = area.put({"value": tf.constant(2.5), "label": tf.constant("two")})
    got = area.get()
    with tf.Session() as sess:
        sess.run(put)
        out = sess.run(got)
    return {"keys": sorted(got), "value": out["value"], "label": out["label"],
            "name": area.name,
            "bad_put": catch(lambda: area.put({"value": 1.0, "other": 2.0}), message=True),
            "bad_list": catch(lambda: area.put([1.0, "a"]), message=True)}


def case_staging_area_pipeline(tf):
    """The staging pattern of tf_cnn_benchmarks: put the next batch while the step
    consumes the one staged before (`tf.group(train, put)` each run)."""
    data = tf.data.Dataset.range(6).map(lambda v: tf.cast(v, tf.float32) * 2.0)
    nxt = tf.data.make_one_shot_iterator(data).get_next()
    area = _staging(tf)(dtypes=[tf.float32], shapes=[[]])
    put = area.put([nxt])
    staged, = area.get()
    acc = tf.Variable(0.0)
    step = tf.group(tf.assign_add(acc, staged), put)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(put)
        seen = []
        for _ in range(5):
            sess.run(step)
            seen.append(sess.run(acc))
    return {"acc": np.array(seen)}


def case_contrib_nn_against_core(tf):
    """tf.contrib.nn's nth_element (with its gradient: ties share it) and the flipped
    cross entropies, against the core ops TF 1.15 builds them from."""
    x = tf.constant([[3., 1., 2., 1.], [0., 5., 5., -1.]])
    logits = tf.constant([[1., 2., 0.5], [0.1, -1., 3.]])
    probs = tf.constant([[0.2, 0.5, 0.3], [1., 0., 0.]])
    ids = tf.constant([1, 2])
    if hasattr(tf, "contrib"):
        nn = tf.contrib.nn
        low = nn.nth_element(x, 1)
        high = nn.nth_element(x, 0, reverse=True)
        soft = nn.deprecated_flipped_softmax_cross_entropy_with_logits(logits, probs)
        sparse = nn.deprecated_flipped_sparse_softmax_cross_entropy_with_logits(logits, ids)
        sig = nn.deprecated_flipped_sigmoid_cross_entropy_with_logits(logits, probs)
    else:
        low = tf.raw_ops.NthElement(input=x, n=1)
        high = tf.raw_ops.NthElement(input=x, n=0, reverse=True)
        soft = tf.nn.softmax_cross_entropy_with_logits(labels=probs, logits=logits)
        sparse = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=ids, logits=logits)
        sig = tf.nn.sigmoid_cross_entropy_with_logits(labels=probs, logits=logits)
    grads = tf.gradients(tf.reduce_sum(low * [1., 2.]) + tf.reduce_sum(high * [3., 4.]), x)
    with tf.Session() as sess:
        out = sess.run({"low": low, "high": high, "grad": grads[0], "soft": soft,
                        "sparse": sparse, "sig": sig})
    out["shapes"] = [low.shape.as_list(), high.shape.as_list()]
    return out
