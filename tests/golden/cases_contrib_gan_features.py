"""Golden cases: `tf.contrib.gan.features` (clip_discriminator_weights / clip_variables,
condition_tensor(_from_onehot), VBN, tensor_pool). Oracle: TF 1.14's contrib/gan under
TF 2.21 (scripts/oracle_contrib_gan.py)."""

import numpy as np

from tests.golden.cases_contrib_gan import build_gan, gan_of
from tests.golden.harness import catch, describe


def case_clip_discriminator_weights(tf):
    gan = gan_of(tf)
    model = build_gan(tf, gan)
    loss = gan.gan_loss(model, add_summaries=False)
    opt = gan.features.clip_discriminator_weights(tf.train.GradientDescentOptimizer(1.0),
                                                  model, 0.3)
    train = opt.minimize(loss.discriminator_loss, var_list=model.discriminator_variables)
    negative = catch(lambda: gan.features.clip_variables(
        tf.train.GradientDescentOptimizer(1.0), model.discriminator_variables, -1.0))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        after = sess.run(model.discriminator_variables)
    return {"type": type(opt).__name__, "after": after,
            "norms": [float(np.linalg.norm(v)) for v in after], "negative": negative}


def case_condition_tensor(tf):
    gan = gan_of(tf)
    x = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10.0)
    cond = tf.constant([[1.0, 0.5], [-1.0, 2.0]])
    out = gan.features.condition_tensor(x, cond)
    with tf.variable_scope("onehot"):
        out2 = gan.features.condition_tensor_from_onehot(x, tf.one_hot([1, 0], 3),
                                                         embedding_size=5)
    errors = {"rank": catch(lambda: gan.features.condition_tensor(x, tf.constant([1.0])),
                            message=True),
              "unknown": catch(lambda: gan.features.condition_tensor(
                  tf.placeholder(tf.float32, [2, None]), cond)),
              "onehot_rank": catch(lambda: gan.features.condition_tensor_from_onehot(
                  x, tf.constant([1.0, 0.0])))}
    variables = tf.global_variables()
    with tf.Session() as sess:
        for v in variables:
            size = int(np.prod(v.shape.as_list()))
            sess.run(v.assign(np.linspace(-1, 1, size, dtype=np.float32).reshape(
                v.shape.as_list())))
        values = sess.run([out, out2])
    return {"values": values, "outputs": [describe(out), describe(out2)],
            "variables": [(v.name, v.shape.as_list()) for v in variables],
            "errors": errors}


def case_virtual_batchnorm(tf):
    gan = gan_of(tf)
    rng = np.random.RandomState(3)
    ref = tf.constant(rng.randn(4, 3, 2).astype(np.float32))
    inputs = tf.constant(rng.randn(5, 3, 2).astype(np.float32))
    vbn = gan.features.VBN(ref, gamma_initializer=tf.constant_initializer(1.5),
                           beta_initializer=tf.constant_initializer(0.25))
    out = vbn(inputs)
    ref_out = vbn.reference_batch_normalization()
    vbn_axis1 = gan.features.VBN(ref, axis=1, name="other")
    out_axis1 = vbn_axis1(inputs)
    single = vbn(inputs[:1])
    errors = {"same_axis": catch(lambda: gan.features.VBN(ref, axis=0), message=True),
              "out_of_range": catch(lambda: gan.features.VBN(ref, axis=3), message=True),
              "unknown_rank": catch(lambda: gan.features.VBN(tf.placeholder(tf.float32)),
                                    message=True),
              "bad_call": catch(lambda: vbn(tf.zeros([2, 3, 5]))),
              # TF reshapes the Python 0 that stands for a missing beta: an error.
              "no_center_broadcast": catch(lambda: gan.features.VBN(
                  ref, axis=1, center=False, name="nc")(inputs))}
    grads = tf.gradients(tf.reduce_sum(out * out_axis1), [inputs])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([out, ref_out, out_axis1, single, grads])
    return {"values": values, "names": [describe(t) for t in (out, ref_out, out_axis1)],
            "variables": [v.name for v in tf.global_variables()], "errors": errors}


def case_tensor_pool(tf):
    gan = gan_of(tf)
    x = tf.placeholder(tf.float32, [2])
    y = tf.placeholder(tf.int32, [])
    keep_old = gan.features.tensor_pool((x, y), pool_size=1, pooling_probability=1.0)
    keep_new = gan.features.tensor_pool(x, pool_size=1, pooling_probability=0.0,
                                        name="fresh")
    same = gan.features.tensor_pool(x, pool_size=0)
    with tf.Session() as sess:
        old, new = [], []
        for i in range(3):
            feed = {x: [i, i + 0.5], y: i}
            old.append(sess.run(keep_old, feed))
            new.append(sess.run(keep_new, feed))
    return {"old": old, "new": new, "same_is_input": same is x,
            "shapes": [describe(t) for t in list(keep_old) + [keep_new]],
            "negative": catch(lambda: gan.features.tensor_pool(x, pool_size=-1),
                              message=True)}
