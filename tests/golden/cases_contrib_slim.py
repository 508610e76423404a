"""Golden cases: tf.contrib.slim / tf.contrib.layers pieces research code uses (issue 12):
separable_conv2d, slim.losses, slim.model_analyzer, slim.utils / contrib.layers.utils.

Real TF 2.21 has no tf.contrib: these cases are recorded with `tf_slim` (tf-slim 1.1.0, the
maintained port of TF 1.15's contrib.slim) on top of real TF, e.g.

    pip download --no-deps tf-slim==1.1.0 -d /tmp/slim && unzip -d /tmp/slim/src \\
        /tmp/slim/tf_slim-1.1.0-py2.py3-none-any.whl
    PYTHONPATH=/tmp/slim/src /tmp/tf/bin/python scripts/record_goldens.py cases_contrib_slim
"""

import contextlib
import io

import numpy as np

from tests.golden.harness import catch, describe


def _slim(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:             # tf1compat
        return contrib.slim
    import tf_slim                      # real TF: the recorder needs tf-slim on the path
    return tf_slim


def case_separable_conv2d(tf):
    slim = _slim(tf)
    tf.set_random_seed(3)
    x = tf.placeholder(tf.float32, [None, 8, 8, 3])
    y = slim.separable_conv2d(x, 4, [3, 3], depth_multiplier=2, scope="sep",
                              outputs_collections="ends")
    z = slim.separable_conv2d(x, None, [3, 3], depth_multiplier=2, stride=2, scope="dw",
                              outputs_collections="ends")
    n = slim.separable_conv2d(x, 5, 3, normalizer_fn=lambda t: t * 2.0, activation_fn=None,
                              scope="bn")
    w = tf.ones([3, 3, 3, 2])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for v in tf.global_variables():
            if "weights" in v.op.name:
                sess.run(v.assign(tf.ones_like(v) * 0.1))
        feed = {x: np.arange(2 * 8 * 8 * 3, dtype=np.float32).reshape(2, 8, 8, 3) / 100.0}
        values = sess.run([y, z, n], feed)
    del w
    return {"outputs": [describe(t) for t in (y, z, n)],
            "variables": [(v.name, v.shape.as_list()) for v in tf.global_variables()],
            "model_variables": [v.name for v in tf.model_variables()],
            "ends": list(slim.utils.convert_collection_to_dict("ends").keys()),
            "values": values,
            "bad_format": catch(lambda: slim.separable_conv2d(x, 4, 3, data_format="HWCN"))}


def case_slim_losses(tf):
    slim = _slim(tf)
    logits = tf.constant([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0]])
    labels = tf.constant([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    probs = tf.nn.sigmoid(logits)
    losses = [
        slim.losses.softmax_cross_entropy(logits, labels, weights=[1.0, 2.0],
                                          label_smoothing=0.1),
        slim.losses.sigmoid_cross_entropy(logits, labels, label_smoothing=0.2),
        slim.losses.sparse_softmax_cross_entropy(logits, tf.constant([1, 2])),
        slim.losses.mean_squared_error(logits, labels, weights=0.5),
        slim.losses.absolute_difference(logits, labels, weights=[[1.0], [0.0]]),
        slim.losses.log_loss(probs, labels),
        slim.losses.mean_pairwise_squared_error(logits, labels),
        slim.losses.cosine_distance(tf.nn.l2_normalize(logits, 1), labels, axis=1),
        slim.losses.compute_weighted_loss(tf.constant([[1.0, 2.0], [3.0, 4.0]]),
                                          weights=tf.constant([[1.0, 0.0], [1.0, 1.0]])),
    ]
    hinge = slim.losses.hinge_loss(logits, labels)
    total = slim.losses.get_total_loss()
    out = {"names": [t.name for t in losses + [hinge, total]],
           "collected": [t.name for t in slim.losses.get_losses()],
           "no_axis": catch(lambda: slim.losses.cosine_distance(logits, labels))}
    with tf.Session() as sess:
        out["values"] = sess.run(losses + [hinge, total])
    return out


def case_slim_model_analyzer(tf):
    slim = _slim(tf)
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    h = slim.fully_connected(x, 3, scope="fc1")
    slim.fully_connected(h, 2, scope="fc2")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        sizes = slim.model_analyzer.analyze_vars(tf.trainable_variables(), print_info=True)
        total_ops = slim.model_analyzer.analyze_ops(tf.get_default_graph(), print_info=False)
    return {"sizes": list(sizes), "vars_text": printed.getvalue(),
            "description": slim.model_analyzer.tensor_description(h),
            "ops_total_is_int": isinstance(total_ops, int)}


def case_layers_utils(tf):
    slim = _slim(tf)
    utils = slim.utils
    x = tf.placeholder(tf.float32, [None, 5, 7])
    a = tf.identity(x, name="a")
    b = tf.identity(x, name="b")
    utils.collect_named_outputs("outs", "block/a/", a)
    utils.collect_named_outputs("outs", "alias_b", b)
    utils.append_tensor_alias(b, "second")
    split = tf.split(x, 2, axis=0)
    return {
        "dict": [(k, v.name) for k, v in utils.convert_collection_to_dict("outs").items()],
        "aliases": [utils.get_tensor_aliases(a), utils.get_tensor_aliases(b),
                    utils.get_tensor_aliases(split[1]), utils.get_tensor_aliases(x)],
        "gathered": utils.gather_tensors_aliases([a, b]),
        "last": utils.last_dimension(x.get_shape(), min_rank=3),
        "channel": [utils.channel_dimension(x.get_shape(), "channels_first"),
                    utils.channel_dimension(x.get_shape(), "channels_last")],
        "last_unknown": catch(lambda: utils.last_dimension(tf.TensorShape([3, None])),
                              message=True),
        "low_rank": catch(lambda: utils.last_dimension(tf.TensorShape([3]), min_rank=2),
                          message=True),
        "two": [utils.two_element_tuple(3), utils.two_element_tuple([2, 5])],
        "n_positive": [utils.n_positive_integers(3, 2), utils.n_positive_integers(2, (4, 5))],
        "n_bad": catch(lambda: utils.n_positive_integers(2, [1, 0]), message=True),
        "cleared": [len(utils.convert_collection_to_dict("outs", clear_collection=True)),
                    len(tf.get_collection("outs"))],
    }
