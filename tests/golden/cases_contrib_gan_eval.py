"""Golden cases: `tf.contrib.gan.eval`: image_grid / image_reshaper, the GAN summaries
(tags, grids), and the classifier metrics with a user classifier_fn (classifier score,
Frechet distances, KID). Oracle: TF 1.14's contrib/gan under TF 2.21
(scripts/oracle_contrib_gan.py). The Inception variants need TF's downloaded graph and
are covered by tests/test_contrib_gan.py."""

import numpy as np

from tests.golden.cases_contrib_gan import gan_of
from tests.golden.harness import catch, describe


def _images(n, h=2, w=3, c=1, seed=0):
    return np.random.RandomState(seed).uniform(0, 1, (n, h, w, c)).astype(np.float32)


def _summary_names(tf):
    return [t.op.name for t in tf.get_collection(tf.GraphKeys.SUMMARIES)]


def case_image_grid_and_reshaper(tf):
    gan = gan_of(tf)
    E = gan.eval
    four = tf.constant(_images(6, c=3))
    flat = tf.reshape(four, [6, -1])
    grid4 = E.image_grid(four, (2, 3), image_shape=(2, 3), num_channels=3)
    grid2 = E.image_grid(flat, (3, 2), image_shape=(2, 3), num_channels=3)
    mosaic = E.image_reshaper(tf.constant(_images(5, seed=1)))
    listed = E.image_reshaper(tf.unstack(four)[:3], num_cols=2)
    errors = {"count": catch(lambda: E.image_grid(four, (2, 2), (2, 3), 3), message=True),
              "flat": catch(lambda: E.image_grid(flat, (2, 3), (2, 2), 3), message=True),
              "shape": catch(lambda: E.image_grid(four, (2, 3), (3, 3), 3), message=True),
              "rank": catch(lambda: E.image_grid(tf.zeros([6, 2, 3]), (2, 3)), message=True),
              "channels": catch(lambda: E.image_reshaper(tf.zeros([2, 2, 2, 2])),
                                message=True)}
    with tf.Session() as sess:
        values = sess.run([grid4, grid2, mosaic, listed])
    return {"values": values, "shapes": [describe(t) for t in (grid4, grid2, mosaic, listed)],
            "errors": errors}


def _image_gan(tf, gan):
    real = tf.constant(_images(4, seed=2))

    def gen(noise):
        w = tf.get_variable("w", [3, 6], initializer=tf.constant_initializer(0.1))
        return tf.reshape(tf.matmul(noise, w), [4, 2, 3, 1])

    def dis(data, unused_inputs):
        w = tf.get_variable("w", [6, 1], initializer=tf.constant_initializer(0.2),
                            regularizer=lambda t: tf.reduce_sum(t))
        return tf.matmul(tf.reshape(data, [4, 6]), w)
    noise = tf.constant(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3))
    return gan.gan_model(gen, dis, real, noise)


def case_gan_model_summaries(tf):
    gan = gan_of(tf)
    model = _image_gan(tf, gan)
    gan.eval.add_gan_model_image_summaries(model, grid_size=2)
    with tf.name_scope("reg"):
        gan.eval.add_regularization_loss_summaries(model)
    too_big = catch(lambda: gan.eval.add_gan_model_image_summaries(model, grid_size=3))
    flat_model = gan.gan_model(lambda z: z * 2.0, lambda x, z: x, tf.zeros([4, 3]),
                               tf.zeros([4, 3]), generator_scope="G2",
                               discriminator_scope="D2")
    not_image = catch(lambda: gan.eval.add_gan_model_image_summaries(flat_model))
    grid_inputs = [op.inputs[1] for op in tf.get_default_graph().get_operations()
                   if op.type == "ImageSummary"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        grids = sess.run(grid_inputs)
        summary = tf.Summary()
        summary.ParseFromString(sess.run(tf.summary.merge_all()))
    return {"summaries": _summary_names(tf), "grids": grids, "too_big": too_big,
            "not_image": not_image,
            "tags": sorted(v.tag for v in summary.value),
            "scalars": sorted((v.tag, round(v.simple_value, 5)) for v in summary.value
                              if v.WhichOneof("value") == "simple_value")}


def case_comparison_summaries(tf):
    gan = gan_of(tf)
    images = tf.constant(_images(3, h=2, w=2, c=3, seed=3))

    def gen(x):
        w = tf.get_variable("w", [], initializer=tf.constant_initializer(0.5))
        return x * w
    model = gan.gan_model(gen, lambda x, z: tf.reduce_mean(x, [1, 2, 3]),
                          images[::-1], images)
    gan.eval.add_image_comparison_summaries(model, num_comparisons=2, display_diffs=True)
    cyc = gan.cyclegan_model(gen, lambda x, z: tf.reduce_mean(x, [1, 2, 3]), images,
                             images * 0.5)
    gan.eval.add_cyclegan_image_summaries(cyc)
    gan.eval.add_gan_model_summaries(cyc)
    wrong = catch(lambda: gan.eval.add_cyclegan_image_summaries(model))
    cyc_grid = catch(lambda: gan.eval.add_gan_model_image_summaries(cyc))
    grid_inputs = [op.inputs[1] for op in tf.get_default_graph().get_operations()
                   if op.type == "ImageSummary"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        grids = sess.run(grid_inputs)
    return {"summaries": _summary_names(tf), "grids": grids, "wrong": wrong,
            "cyc_grid": cyc_grid}


def case_stargan_summaries(tf):
    gan = gan_of(tf)
    tf.set_random_seed(4)
    images = tf.constant(_images(3, h=2, w=2, c=1, seed=5))

    def gen(x, target):
        w = tf.get_variable("w", [2], initializer=tf.constant_initializer([0.5, -1.0]))
        return x + tf.reshape(tf.reduce_sum(target * w, 1), [-1, 1, 1, 1])

    def dis(x, num_domains):
        flat = tf.reshape(x, [-1, 4])
        return flat[:, 0], flat[:, :num_domains]
    model = gan.stargan_model(gen, dis, images, tf.one_hot([0, 1, 1], 2))
    gan.eval.add_stargan_image_summaries(model, num_images=2, display_diffs=True)
    grid_inputs = [op.inputs[1] for op in tf.get_default_graph().get_operations()
                   if op.type == "ImageSummary"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        grids = sess.run(grid_inputs)
    return {"summaries": _summary_names(tf), "grids": grids}


def _classifier(tf):
    weights = np.random.RandomState(9).randn(12, 4).astype(np.float32)

    def classifier_fn(images):
        return tf.matmul(tf.reshape(images, [-1, 12]), weights)
    return classifier_fn


def case_classifier_metrics(tf):
    gan = gan_of(tf)
    E = gan.eval
    real = tf.constant(_images(6, h=2, w=2, c=3, seed=6))
    fake = tf.constant(_images(6, h=2, w=2, c=3, seed=7) * 0.8 + 0.1)
    fn = _classifier(tf)
    logits = fn(real)
    metrics = {
        "score": E.classifier_score(real, fn, num_batches=2),
        "score_logits": E.classifier_score_from_logits(logits),
        "score_logits64": E.classifier_score_from_logits(tf.cast(logits, tf.float64)),
        "fid": E.frechet_classifier_distance(real, fake, fn, num_batches=3),
        "fid_act": E.frechet_classifier_distance_from_activations(fn(real), fn(fake)),
        "mean_only": E.mean_only_frechet_classifier_distance_from_activations(
            fn(real), fn(fake)),
        "diag_only": E.diagonal_only_frechet_classifier_distance_from_activations(
            fn(real), fn(fake)),
        "kid": E.kernel_classifier_distance(real, fake, fn),
        "kid_std": E.kernel_classifier_distance_and_std(real, fake, fn, max_block_size=2,
                                                        dtype=tf.float64),
        "kid_act": E.kernel_classifier_distance_and_std_from_activations(
            fn(real), fn(fake)[:5], max_block_size=3),
        "kid_act_mean": E.kernel_classifier_distance_from_activations(fn(real), fn(fake)),
    }
    errors = {"rank": catch(lambda: E.classifier_score_from_logits(tf.zeros([3]))),
              "fid_rank": catch(lambda: E.frechet_classifier_distance_from_activations(
                  tf.zeros([3]), tf.zeros([3])))}
    with tf.Session() as sess:
        values = sess.run(metrics)
    return {"values": values, "dtypes": {k: (v.dtype.name if hasattr(v, "dtype") else
                                             [t.dtype.name for t in v])
                                         for k, v in metrics.items()},
            "errors": errors}


def case_preprocess_image(tf):
    gan = gan_of(tf)
    images = tf.constant((_images(2, h=3, w=4, c=3, seed=8) * 255).astype(np.uint8))
    batch = gan.eval.preprocess_image(images, height=5, width=6)
    single = gan.eval.preprocess_image(tf.cast(images[0], tf.float32), 4, 4, scope="one")
    with tf.Session() as sess:
        values = sess.run([batch, single])
    return {"values": values, "shapes": [describe(batch), describe(single)],
            "default": gan.eval.INCEPTION_DEFAULT_IMAGE_SIZE}
