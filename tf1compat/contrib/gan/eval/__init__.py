"""`tf.contrib.gan.eval`."""
