"""`tf.contrib.gan.features`."""
