"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-dd).

* NVlabs/stylegan (v1, rerun for what realcode-s left out): G_style / D_basic at 8x8 with
  tiny fmaps built through dnnlib.tflib's Network under `tf.device('/gpu:0')` on a CPU
  (soft placement), a clone Gs kept by `setup_as_moving_average_of`, the non-saturating
  G loss and D's R1 penalty through tflib.Optimizer (G with loss scaling), three steps with
  Adam and with plain SGD, then `pickle.dumps((G, D, Gs))` / `pickle.loads` and `Gs.run`
  on random latents (truncation, uint8 output transform), and `print_layers`. It failed at
  its first network: the synthesis network's noise variables have the shape
  `[1, use_noise, 2**res, 2**res]` with a bool `use_noise`, and tf1compat's Dimension
  refused bools (TF 1.x takes int(True); TF 2.21's TensorShape keeps the bool, though its
  variable op then rejects it, so the oracle ran with get_variable's bool dims cast to int
  as TF 1.15 does). Fixed, the run matched TF: losses to 6 digits (SGD: 3e-6 at most;
  Adam: 7e-6 at step 1, 5e-6 at step 2), Gs outputs to 3e-5, the uint8 images and the
  layer table equal, and the unpickled Gs reproduced its outputs exactly. One difference
  left: when one session.run evaluates two G outputs at once, both update `dlatent_avg`
  from the same stale read and the last writer wins; TF's executor happened to apply the
  other assign last (an ordering TF does not promise), so the comparison runs the G and D
  losses in separate runs.
* PetarV-/GAT: its Cora training loop (models.GAT and SpGAT, hid_units [8], heads [4, 1],
  Adam with L2, masked softmax cross entropy / accuracy, contrib bias_add) on a random
  30-node graph for 6 epochs ran unchanged and printed TF's training and validation
  losses and accuracies to 1e-6, with dropout 0 and with seeded dropout 0.6, dense and
  sparse. Nothing to fix; the case pins the dense attention head with seeded dropout.
* williamleif/GraphSAGE: not run. Its utils need networkx 1.x / <= 2.3 (`G.node`,
  `G.nodes()[0]`); 1.11 and 2.3 do not import on Python 3.11 with NumPy 2 (`fractions.gcd`,
  `np.float_`), so its data loading cannot run here on either side.
"""

import numpy as np

from tests.golden.harness import catch, tolerance


def case_bool_dimensions_are_ints(tf):
    """StyleGAN's `shape = [1, use_noise, 4, 4]` with a bool `use_noise`: TensorShape,
    Dimension, tf.zeros, random_normal and reshape take True as 1 (and False as 0); a
    float dimension is still a TypeError. (TF 2.21's placeholder and variable ops reject
    a bool in their shape attr, which TF 1.x takes as int; not pinned here.)"""
    shape = [1, True, 4, 4]
    ts = tf.TensorShape(shape)
    zeros = tf.zeros(shape)
    noise = tf.random_normal(shape, seed=3)
    flat = tf.reshape(tf.range(8.0), [True, 8])
    empty = tf.zeros([2, False])
    with tf.Session() as sess:
        z, n, f, e = sess.run([zeros, noise, flat, empty])
    return {
        "as_list_equals": ts.as_list() == [1, 1, 4, 4],
        "num_elements": ts.num_elements(),
        "dimension": tf.Dimension(True).value == 1,
        "zeros": z, "noise": n, "flat": f, "empty_shape": list(e.shape),
        "float_dim": catch(lambda: tf.TensorShape([1, 2.5])),
    }


def case_stylegan_dlatent_avg_tracked_through_control_dependency(tf):
    """G_style's dlatent_avg: `assign(avg, lerp(batch_avg, avg, beta))` tied to the
    output by `control_dependencies` + `identity`, so each run of the output moves the
    average once; Gs's moving-average copy of it with beta 0 then reads the new value."""
    x = tf.placeholder(tf.float32, [None, 3])
    avg = tf.get_variable("dlatent_avg", shape=[3], initializer=tf.initializers.zeros(),
                          trainable=False)
    batch_avg = tf.reduce_mean(x, axis=0)
    update = tf.assign(avg, batch_avg + (avg - batch_avg) * 0.9)
    with tf.control_dependencies([update]):
        out = tf.identity(x)
    copy = tf.get_variable("gs_avg", shape=[3], initializer=tf.initializers.zeros(),
                           trainable=False)
    ema = tf.group(tf.assign(copy, avg + (copy - avg) * 0.0))
    feeds = np.arange(12, dtype=np.float32).reshape(4, 3)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        seen = []
        for i in range(3):
            sess.run(out, {x: feeds + i})
            sess.run(ema)
            seen.append(sess.run([avg, copy]))
    return {"seen": seen}


@tolerance(rtol=1e-5, atol=1e-6)
def case_gat_dense_attention_head_seeded_dropout_adam(tf):
    """PetarV-/GAT's attn_head: 1x1 `tf.layers.conv1d` features and logits,
    `f_1 + transpose(f_2)` under leaky_relu, softmax with the -1e9 adjacency bias, seeded
    `tf.nn.dropout(keep_prob)` on coefficients and features, elu; masked softmax
    cross entropy and Adam with L2 over non-bias variables, three steps."""
    rs = np.random.RandomState(0)
    n, f, c = 12, 5, 3
    adj = (rs.rand(n, n) < 0.2).astype(np.float32)
    bias = (-1e9 * (1.0 - ((np.maximum(adj, adj.T) + np.eye(n)) > 0)))[None].astype(np.float32)
    tf.set_random_seed(1)
    x = tf.constant(rs.rand(1, n, f).astype(np.float32))
    labels = tf.constant(np.eye(c, dtype=np.float32)[rs.randint(0, c, n)])
    mask = tf.constant((np.arange(n) < 8).astype(np.float32))
    seq = tf.nn.dropout(x, 1.0 - 0.4)
    fts = tf.layers.conv1d(seq, 4, 1, use_bias=False)
    f_1, f_2 = tf.layers.conv1d(fts, 1, 1), tf.layers.conv1d(fts, 1, 1)
    coefs = tf.nn.softmax(tf.nn.leaky_relu(f_1 + tf.transpose(f_2, [0, 2, 1])) + bias)
    coefs = tf.nn.dropout(coefs, 1.0 - 0.4)
    vals = tf.matmul(coefs, tf.nn.dropout(fts, 1.0 - 0.4))
    logits = tf.reshape(tf.layers.conv1d(tf.nn.elu(vals), c, 1), [-1, c])
    loss = tf.nn.softmax_cross_entropy_with_logits_v2(logits=logits, labels=labels)
    loss = tf.reduce_mean(loss * mask / tf.reduce_mean(mask))
    l2 = tf.add_n([tf.nn.l2_loss(v) for v in tf.trainable_variables()
                   if v.name not in ["bias", "gamma", "b", "g", "beta"]]) * 0.0005
    train = tf.train.AdamOptimizer(0.005).minimize(loss + l2)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = [sess.run([train, loss])[1] for _ in range(3)]
        return {"losses": losses, "kernel": sess.run(tf.trainable_variables()[0])}
