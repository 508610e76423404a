"""Golden cases: patterns from standalone Keras 2.2.4's TensorFlow backend
(keras/backend/tensorflow_backend.py), run unchanged on tf1compat with the real `keras`
package (`tf1compat.install(keras=False)`; keras-team/keras 2.2.4's backend_test.py and
examples matched TF), restated small without Keras:

* the TF-internal modules the backend imports at the top: `ops.is_dense_tensor_like` and
  `ops._as_graph_element` (K.is_tensor, K.function's feed conversion),
  `functional_ops.scan` (K.cumsum-style scans), `ctc_ops` (K.ctc_batch_cost,
  K.ctc_decode);
* `Graph._apply_device_functions(stand_in)`, through which `_get_current_tf_device` reads
  the current device scope (Keras 2.3.1's stand-in has `_set_device_from_string`; 2.2.4's
  lacks it, so 2.2.4 fails inside an explicit device scope on TF 1.15 as on tf1compat);
* `tf.nn.atrous_conv2d_transpose` with an output_shape built by `tf.stack` of a dynamic
  batch size (K.conv2d_transpose with dilation_rate).
"""

import numpy as np

from tests.golden.cases_thirdparty_realcode_o import _internal
from tests.golden.harness import catch, tolerance


def case_keras_backend_tensor_predicates(tf):
    """is_dense_tensor_like and _as_graph_element on a tensor, a variable, a sparse
    tensor, an array and a number."""
    ops = _internal(tf, "framework.ops")
    t = tf.constant([1.0, 2.0], name="t")
    v = tf.Variable([3.0], name="v")
    sp = tf.SparseTensor([[0, 0]], [1.0], [2, 2])
    things = {"tensor": t, "variable": v, "sparse": sp, "array": np.ones(2), "number": 3.0}
    out = {}
    for key, x in things.items():
        element = ops._as_graph_element(x)
        out[key] = [ops.is_dense_tensor_like(x),
                    None if element is None else element.name]
    return out


@tolerance(rtol=1e-5, atol=1e-5)
def case_keras_backend_functional_and_ctc_modules(tf):
    """functional_ops.scan and ctc_ops (loss, greedy and beam-search decoders) through
    the internal module paths the backend imports."""
    functional_ops = _internal(tf, "ops.functional_ops")
    ctc = _internal(tf, "ops.ctc_ops")
    rs = np.random.RandomState(0)
    cum = functional_ops.scan(lambda a, x: a + x, tf.constant([[1., 2.], [3., 4.], [5., 6.]]))
    logits = tf.constant(rs.randn(6, 2, 4).astype(np.float32))       # time-major
    seq_len = tf.constant([6, 5], tf.int32)
    labels = tf.SparseTensor(np.array([[0, 0], [0, 1], [1, 0]], np.int64),
                             np.array([1, 2, 2], np.int32), np.array([2, 2], np.int64))
    loss = ctc.ctc_loss(labels, logits, seq_len)
    (greedy,), greedy_lp = ctc.ctc_greedy_decoder(logits, seq_len)
    beams, beam_lp = ctc.ctc_beam_search_decoder(logits, seq_len, beam_width=4,
                                                 top_paths=2)
    with tf.Session() as sess:
        res = sess.run({"cum": cum, "loss": loss, "greedy": greedy, "greedy_lp": greedy_lp,
                        "beams": beams, "beam_lp": beam_lp})
    out = {k: res[k] for k in ("cum", "loss", "greedy_lp", "beam_lp")}
    out["greedy"] = [res["greedy"].indices, res["greedy"].values]
    out["beams"] = [[b.indices, b.values] for b in res["beams"]]
    return out


class _DeviceCapture:
    """Keras 2.3.1's _TfDeviceCaptureOp, recording each call."""

    def __init__(self):
        self.device = None
        self.calls = []

    def _set_device(self, device):
        self.calls.append(["_set_device", str(device)])
        self.device = device

    def _set_device_from_string(self, device_str):
        self.calls.append(["_set_device_from_string", device_str])
        self.device = device_str


def case_keras_current_device_capture(tf):
    """What `_apply_device_functions` hands the stand-in: nothing outside a scope; merged
    strings innermost first (an inner partial spec merged with the outer); a reset by
    device(None); device("") skipped; a device function's result."""
    g = tf.get_default_graph()

    def capture():
        op = _DeviceCapture()
        g._apply_device_functions(op)
        return op.calls

    out = {"none": capture()}
    with tf.device("/cpu:0"):
        out["cpu"] = capture()
        with tf.device("/job:worker"):
            out["nested"] = capture()
        with tf.device(None):
            out["reset"] = capture()
        with tf.device(""):
            out["null_merge"] = capture()
    with tf.device(lambda op: "/device:GPU:1"):
        out["function"] = capture()
    with tf.device("/gpu:0"):
        plain = catch(lambda: g._apply_device_functions(object()))
    out["no_setter"] = plain
    return out


def case_atrous_conv2d_transpose_dynamic_output_shape(tf):
    """output_shape = tf.stack([tf.shape(x)[0], h, w, c]) with rate 2, SAME and VALID."""
    rs = np.random.RandomState(0)
    x = tf.placeholder(tf.float32, [None, 5, 6, 3])
    w = tf.constant(rs.rand(3, 3, 2, 3).astype(np.float32))
    feed = {x: rs.rand(2, 5, 6, 3).astype(np.float32)}
    out = {}
    for padding, (h, wd) in (("SAME", (5, 6)), ("VALID", (9, 10))):
        shape = tf.stack([tf.shape(x)[0], h, wd, 2])
        y = tf.nn.atrous_conv2d_transpose(x, w, shape, rate=2, padding=padding)
        with tf.Session() as sess:
            out[padding] = sess.run(y, feed)
    return out


def case_run_metadata_partition_graphs(tf):
    """K.function(..., options=RunOptions(output_partition_graphs=True), run_metadata=md):
    one CPU partition of the pruned ops (a fed tensor an _Arg node, a fetch a _Retval);
    every run rewrites the RunMetadata, so a later run without options leaves it empty.
    (Inputs sorted: TF's graph optimizer reorders a commutative op's inputs.)"""
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.placeholder(tf.float32, [], name="y")
    v = tf.Variable(2.0, name="v")
    z = tf.add(x * v, y, name="z")
    tf.sin(x, name="unused")
    options = tf.RunOptions(output_partition_graphs=True)
    md = tf.RunMetadata()

    def nodes():
        return [[sorted([n.name, n.op, n.device] + [f"in:{i}" for i in n.input]
                        + [f"{k}={n.attr[k].type or n.attr[k].i}" for k in ("T", "index")
                           if k in n.attr and n.op in ("_Arg", "_Retval")])
                 for n in sorted(g.node, key=lambda n: n.name)] for g in md.partition_graphs]

    with tf.Session() as sess:
        sess.run(v.initializer)
        out = {"value": sess.run(z, {x: 1.0, y: 2.0}, options=options, run_metadata=md),
               "graphs": nodes()}
        md.step_stats.dev_stats.add(device="stale")
        sess.run(z, {x: 1.0, y: 2.0}, run_metadata=md)
        out["after_plain_run"] = [len(md.partition_graphs), len(md.step_stats.dev_stats)]
    return out
