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
"""

from tests.golden.harness import catch


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
    import numpy as np
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
