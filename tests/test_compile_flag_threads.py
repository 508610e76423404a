"""Kernels running op by op while another thread compiles: torch's `is_compiling()` flag
is process-wide, and a background compile (runtime/hot_plans.py) holds it for seconds.
The user's runs must keep their own semantics meanwhile (here: TF's error for an
out-of-range index, not the traced program's assertion)."""

import numpy as np
import pytest
import torch

import tf1compat as tf


@pytest.fixture
def another_thread_compiling(monkeypatch):
    monkeypatch.setattr(torch.compiler, "_is_compiling_flag", True)


def test_validation_raises_tfs_error(another_thread_compiling):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        taken = tf.gather(x, [7])
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"indices\[0\] = 7 is not in \[0, 1\)"):
                sess.run(taken, {x: np.ones((1, 3), np.float32)})
