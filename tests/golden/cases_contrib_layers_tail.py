"""Golden cases: `tf.contrib.layers` summarize_*, embed_sequence, embedding_lookup_unique,
dense_to_sparse_tensor. TF 2.x has no contrib: the oracle is TF 1.15's summaries.py,
encoders.py, embedding_ops.py and sparse_ops.py run under TF 2.21's tf.compat.v1 graph
mode (scripts/oracle_contrib.py, `tf115_package`; contrib's model_variable stood in by
get_variable into MODEL_VARIABLES, as it is)."""

import numpy as np


def _layers(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.layers
    import oracle_contrib

    def model_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                       trainable=True, **kwargs):
        return tf.get_variable(name, shape, dtype or tf.float32, initializer=initializer,
                               regularizer=regularizer, trainable=trainable,
                               collections=[tf.GraphKeys.GLOBAL_VARIABLES,
                                            tf.GraphKeys.MODEL_VARIABLES])
    import sys
    ops = oracle_contrib.tf115_package("contrib.layers.python.ops", ["sparse_ops"])
    stubs = {"tensorflow.contrib.framework.python.ops.variables":
             {"model_variable": model_variable},
             "tensorflow.contrib.layers.python.ops": {"sparse_ops": ops,
                                                      "sparse_feature_cross_op": None},
             "tensorflow.contrib.framework.python.framework.tensor_util": {}}
    first = oracle_contrib.tf115_package("contrib.layers.python.layers",
                                         ["summaries", "embedding_ops"], stubs=stubs)
    embedding_ops = sys.modules["tf115.contrib.layers.python.layers.embedding_ops"]
    stubs["tensorflow.contrib.layers.python.layers"] = {"embedding_ops": embedding_ops}
    second = oracle_contrib.tf115_package("contrib.layers.python.layers", ["encoders"],
                                          stubs=stubs)
    for key, value in vars(second).items():
        if not key.startswith("_"):
            setattr(first, key, value)
    first.dense_to_sparse_tensor = ops.dense_to_sparse_tensor
    return first


def case_summaries(tf):
    layers = _layers(tf)
    with tf.Graph().as_default() as g:
        x = tf.constant([[-1.0, 2.0, 7.0]])
        acts = [tf.nn.relu(x, name="r"), tf.nn.relu6(x, name="r6"), tf.tanh(x, name="t")]
        for a in acts:
            tf.add_to_collection(tf.GraphKeys.ACTIVATIONS, a)
        tf.get_variable("w", [2], initializer=tf.ones_initializer())
        tf.get_variable("s", [], initializer=tf.ones_initializer())
        made = {"activations": [t.name for t in layers.summarize_activations()],
                "filtered": [t.name for t in layers.summarize_activations("r6")],
                "variables": [t.name for t in layers.summarize_variables()],
                "tensors": [None if t is None else t.name for t in layers.summarize_tensors(
                    [tf.constant(1.0), tf.constant(["a"]), tf.constant([1, 2])])]}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            made["zeros"] = sess.run(g.get_tensor_by_name("r/zeros:0"))
            made["sixes"] = sess.run(g.get_tensor_by_name("r6/sixes:0"))
        made["collection"] = [t.name for t in g.get_collection(tf.GraphKeys.SUMMARIES)]
        return made


def case_embed_sequence_and_lookups(tf):
    layers = _layers(tf)
    ids = np.array([[1, 2, 0], [3, 3, 1]], np.int32)
    init = tf.constant_initializer(np.arange(20, dtype=np.float32).reshape(5, 4) / 10)
    with tf.Graph().as_default():
        e = layers.embed_sequence(tf.constant(ids), vocab_size=5, embed_dim=4,
                                  initializer=init)
        u = layers.embed_sequence(tf.constant(ids), vocab_size=5, embed_dim=4, unique=True,
                                  initializer=init, scope="uniq")
        again = layers.embed_sequence(tf.constant(ids), scope="uniq", reuse=True,
                                      embed_dim=4)
        sp = layers.dense_to_sparse_tensor(tf.constant(ids))
        sp_str = layers.dense_to_sparse_tensor(tf.constant([["a", ""], ["", "b"]]))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out = sess.run({"e": e, "u": u, "again": again, "sp": sp, "sp_str": sp_str})
        out["names"] = sorted(v.name for v in tf.global_variables())
        out["model"] = sorted(v.name for v in tf.model_variables())
        out["e_name"] = e.name
    try:
        layers.embed_sequence(tf.constant(ids))
    except ValueError as err:
        out["error"] = str(err)
    return out
