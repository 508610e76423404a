"""The GAN pattern of Keras's examples (mnist_acgan, and most Keras GAN scripts): the
discriminator is compiled, then frozen (`trainable = False`) inside the compiled combined
model, and both are trained step after step. tf-keras warns about the discrepancy once
per process (`log_first_n(WARN, ..., 1)`), not at every `train_on_batch`."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from tests.child_env import child_env

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_discrepancy_warning_is_logged_once():
    code = textwrap.dedent("""
        import numpy as np
        import tf1compat as tf
        keras = tf.keras
        tf.set_random_seed(0)
        discriminator = keras.Sequential([keras.layers.Dense(1, activation="sigmoid",
                                                             input_shape=(4,))])
        discriminator.compile("sgd", "binary_crossentropy")
        generator = keras.Sequential([keras.layers.Dense(4, input_shape=(2,))])
        discriminator.trainable = False
        noise = keras.layers.Input((2,))
        combined = keras.Model(noise, discriminator(generator(noise)))
        combined.compile("sgd", "binary_crossentropy")
        x, z, y = np.ones((8, 4)), np.ones((8, 2)), np.ones((8, 1))
        for _ in range(5):
            discriminator.train_on_batch(x, y)
            combined.train_on_batch(z, y)
        print("done")
        """)
    env = child_env()
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().endswith("done")
    assert proc.stderr.count("Discrepancy between trainable weights") == 1, proc.stderr
