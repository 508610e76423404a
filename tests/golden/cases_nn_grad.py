"""Golden cases: gradients of tf.nn ops against real TF's registered gradients.

Real TF computes them with `tf.gradients`. Where the `tf` under test has no
`tf.gradients` yet, the same graph runs through tf1compat's plan with torch autograd
on the fed placeholders (`_torch_gradients`), which is what tf.gradients will use.
"""

import numpy as np

from tests.golden.harness import tolerance


def _x(shape, seed=0, scale=1.0):
    return (np.random.RandomState(seed).randn(*shape) * scale).astype(np.float32)


def _torch_gradients(tf, ys, xs, feed):
    """d sum(ys) / d xs through tf1compat's compiled plan and torch autograd."""
    import torch
    sess = tf.Session()
    tensors, pairs = sess._process_feeds(feed)
    values = [v for _, v in pairs]
    plan = sess._plan_for(list(ys), tensors)
    if plan.error is not None:
        raise plan.error
    wanted = [any(t is x for x in xs) for t in tensors]
    values = [v.detach().clone().requires_grad_(w and v.is_floating_point())
              if isinstance(v, torch.Tensor) else v for w, v in zip(wanted, values)]
    with torch.enable_grad():
        outs = plan.fn(values, sess._runtime.state)
        total = sum(o.sum() for o in outs)
        sources = [next(v for t, v in zip(tensors, values) if t is x) for x in xs]
        grads = torch.autograd.grad(total, sources, allow_unused=True)
    return [np.zeros(s.shape, np.float32) if g is None else g.detach().cpu().numpy()
            for g, s in zip(grads, sources)]


def _grads(tf, ys, xs, feed):
    ys = ys if isinstance(ys, (list, tuple)) else [ys]
    if hasattr(tf, "gradients"):
        grads = [g if g is None else tf.convert_to_tensor(g)    # IndexedSlices -> dense
                 for g in tf.gradients(ys, xs)]
        with tf.Session() as sess:
            got = sess.run([g for g in grads if g is not None], feed)
        got = iter(got)
        # A None gradient (no path, e.g. through stop_gradient) reads as zeros.
        return [np.zeros(np.shape(feed[x]), np.float32) if g is None else next(got)
                for g, x in zip(grads, xs)]
    return _torch_gradients(tf, ys, xs, feed)


@tolerance(1e-5, 1e-5)
def case_activation_grads(tf):
    xv = _x([3, 6], 0, 3.0)
    xv[0, :4] = [0.0, 6.0, -20.0, 30.0]
    x = tf.placeholder(tf.float32, [None, 6], name="x")
    out = {}
    for name, fn in (("relu", tf.nn.relu), ("relu6", tf.nn.relu6), ("elu", tf.nn.elu),
                     ("selu", tf.nn.selu), ("softplus", tf.nn.softplus),
                     ("softsign", tf.nn.softsign), ("leaky", tf.nn.leaky_relu),
                     ("crelu", tf.nn.crelu), ("swish", tf.nn.swish),
                     ("log_sigmoid", tf.log_sigmoid)):
        out[name] = _grads(tf, fn(x) * tf.constant(_x([1, 12 if name == "crelu" else 6], 1)),
                           [x], {x: xv})[0]
    w = tf.constant(_x([3, 6], 2))
    out["softmax"] = _grads(tf, tf.nn.softmax(x) * w, [x], {x: xv})[0]
    out["softmax_ax0"] = _grads(tf, tf.nn.softmax(x, axis=0) * w, [x], {x: xv})[0]
    out["log_softmax"] = _grads(tf, tf.nn.log_softmax(x) * w, [x], {x: xv})[0]
    b = tf.placeholder(tf.float32, [6], name="b")
    out["bias_add"] = _grads(tf, tf.nn.bias_add(x, b) * w, [x, b], {x: xv, b: _x([6], 3)})
    out["l2_loss"] = _grads(tf, tf.nn.l2_loss(x), [x], {x: xv})[0]
    out["l2_normalize"] = _grads(tf, tf.nn.l2_normalize(x, 1) * w, [x], {x: xv})[0]
    out["top_k"] = _grads(tf, tf.nn.top_k(x, 3).values * tf.constant(_x([1, 3], 4)), [x],
                          {x: np.round(xv)})[0]
    return out


@tolerance(1e-4, 1e-4)
def case_conv_grads(tf):
    xv = _x([2, 7, 6, 3])
    x = tf.placeholder(tf.float32, [None, 7, 6, 3], name="x")
    w = tf.placeholder(tf.float32, [3, 3, 3, 4], name="w")
    wv = _x([3, 3, 3, 4], 1)
    out = {}
    for label, kwargs in (("same_s2", dict(strides=[1, 2, 2, 1], padding="SAME")),
                          ("valid", dict(strides=[1, 1, 2, 1], padding="VALID")),
                          ("explicit", dict(strides=[1, 2, 1, 1],
                                            padding=[[0, 0], [1, 2], [0, 1], [0, 0]]))):
        y = tf.nn.conv2d(x, w, **kwargs)
        out[label] = _grads(tf, y * y, [x, w], {x: xv, w: wv})
    wt = tf.placeholder(tf.float32, [3, 3, 2, 3], name="wt")
    yt = tf.nn.conv2d_transpose(x, wt, [2, 14, 11, 2], [1, 2, 2, 1], "SAME")
    out["transpose"] = _grads(tf, yt * yt, [x, wt], {x: xv, wt: _x([3, 3, 2, 3], 2)})
    dw = tf.placeholder(tf.float32, [3, 3, 3, 2], name="dw")
    yd = tf.nn.depthwise_conv2d(x, dw, [1, 1, 1, 1], "SAME", rate=[2, 2])
    out["depthwise_rate"] = _grads(tf, yd * yd, [x, dw], {x: xv, dw: _x([3, 3, 3, 2], 3)})
    ya = tf.nn.atrous_conv2d(x, w, 2, "SAME")
    out["atrous"] = _grads(tf, ya * ya, [x, w], {x: xv, w: wv})
    x1 = tf.placeholder(tf.float32, [None, 9, 3], name="x1")
    y1 = tf.nn.conv1d(x1, tf.constant(_x([3, 3, 2], 4)), 2, "SAME")
    out["conv1d"] = _grads(tf, y1 * y1, [x1], {x1: _x([2, 9, 3], 5)})[0]
    return out


@tolerance(1e-4, 1e-5)
def case_pool_grads(tf):
    xv = np.round(_x([2, 7, 6, 3], 0, 2.0))      # rounded: ties inside windows
    x = tf.placeholder(tf.float32, [None, 7, 6, 3], name="x")
    out = {}
    for pad in ("SAME", "VALID"):
        for k, s in ((2, 2), (3, 2), (3, 1)):
            w = tf.constant(_x([1, 1, 1, 3], k + s))
            out[f"max_{pad}_{k}_{s}"] = _grads(tf, tf.nn.max_pool(x, k, s, pad) * w, [x],
                                               {x: xv})[0]
            out[f"avg_{pad}_{k}_{s}"] = _grads(tf, tf.nn.avg_pool(x, k, s, pad) * w, [x],
                                               {x: xv})[0]
    x3 = tf.placeholder(tf.float32, [None, 5, 4, 3, 2], name="x3")
    x3v = _x([2, 5, 4, 3, 2], 1)
    out["max3d"] = _grads(tf, tf.nn.max_pool3d(x3, 2, 2, "SAME") * 1.5, [x3], {x3: x3v})[0]
    out["avg3d"] = _grads(tf, tf.nn.avg_pool3d(x3, 3, 2, "SAME") * 1.5, [x3], {x3: x3v})[0]
    out["argmax_out"] = _grads(tf, tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1],
                                                              "SAME")[0] * 2.0, [x], {x: xv})[0]
    return out


@tolerance(1e-4, 1e-4)
def case_norm_grads(tf):
    xv = _x([3, 4, 5, 2], 0, 2.0)
    x = tf.placeholder(tf.float32, [None, 4, 5, 2], name="x")
    scale = tf.placeholder(tf.float32, [2], name="scale")
    offset = tf.placeholder(tf.float32, [2], name="offset")
    feed = {x: xv, scale: [1.5, 0.5], offset: [0.1, -0.2]}
    w = tf.constant(_x([1, 4, 5, 2], 1))
    out = {}
    y, m, v = tf.nn.fused_batch_norm(x, scale, offset)
    out["fused_train"] = _grads(tf, y * w, [x, scale, offset], feed)
    mean, var = tf.constant([0.3, -0.1]), tf.constant([2.0, 0.5])
    y2, _, _ = tf.nn.fused_batch_norm(x, scale, offset, mean, var, is_training=False)
    out["fused_infer"] = _grads(tf, y2 * w, [x, scale, offset], feed)
    mu, sig = tf.nn.moments(x, [0, 1, 2])
    out["moments"] = _grads(tf, [mu * 2.0, sig * 3.0], [x], feed)[0]
    out["batch_normalization"] = _grads(
        tf, tf.nn.batch_normalization(x, mu, sig, offset, scale, 1e-3) * w,
        [x, scale, offset], feed)
    out["lrn"] = _grads(tf, tf.nn.lrn(x, 1, 1.0, 0.5, 0.75) * w, [x], feed)[0]
    return out


@tolerance(1e-4, 1e-5)
def case_loss_grads(tf):
    lv = _x([3, 5], 0, 2.0)
    yv = np.abs(_x([3, 5], 1))
    yv /= yv.sum(1, keepdims=True)
    logits = tf.placeholder(tf.float32, [None, 5], name="logits")
    labels = tf.placeholder(tf.float32, [None, 5], name="labels")
    feed = {logits: lv, labels: yv}
    out = {
        "xent_v2": _grads(tf, tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels,
                                                                         logits=logits),
                          [logits, labels], feed),
        "xent_v1": _grads(tf, tf.nn.softmax_cross_entropy_with_logits(labels=labels,
                                                                      logits=logits),
                          [logits, labels], feed),
        "sparse": _grads(tf, tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=tf.constant([1, 0, 4]), logits=logits), [logits], feed)[0],
        "sigmoid": _grads(tf, tf.nn.sigmoid_cross_entropy_with_logits(labels=labels,
                                                                      logits=logits),
                          [logits, labels], feed),
        "weighted": _grads(tf, tf.nn.weighted_cross_entropy_with_logits(
            labels=labels, logits=logits, pos_weight=2.0), [logits, labels], feed),
        "poisson": _grads(tf, tf.nn.log_poisson_loss(labels, logits), [logits], feed)[0],
    }
    x = tf.placeholder(tf.float32, [4, 2, 5], name="x")
    lab = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]],
                          tf.constant([1, 2, 3, 3, 0]), [2, 3])
    ctc = tf.nn.ctc_loss(lab, x, tf.constant([4, 3]))
    out["ctc"] = _grads(tf, ctc * tf.constant([1.0, 2.0]), [x], {x: _x([4, 2, 5], 2)})[0]
    table = tf.placeholder(tf.float32, [6, 3], name="table")
    emb = tf.nn.embedding_lookup(table, tf.constant([[0, 2], [2, 5]]))
    out["embedding"] = _grads(tf, emb * tf.constant(_x([2, 2, 3], 3)), [table],
                              {table: _x([6, 3], 4)})[0]
    shard0 = tf.placeholder(tf.float32, [3, 3], name="shard0")
    shard1 = tf.placeholder(tf.float32, [3, 3], name="shard1")
    emb2 = tf.nn.embedding_lookup([shard0, shard1], tf.constant([0, 5, 1, 1]), max_norm=0.7)
    out["embedding_shards"] = _grads(tf, emb2 * tf.constant(_x([4, 3], 5)), [shard0, shard1],
                                     {shard0: _x([3, 3], 6), shard1: _x([3, 3], 7)})
    return out
