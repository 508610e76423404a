"""Denormals flushed to zero inside runs, as TF's executor does (runtime/denormals.py);
TF's values are the goldens of tests/golden/cases_denormals.py."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import torch

import tf1compat as tf
from tf1compat.runtime import denormals

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DENORMAL = np.float32(1e-40)


def test_the_callers_own_mode_is_restored_after_a_run():
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [])
        product = a * 1.0
        with tf.Session() as sess:
            assert not denormals.flushing()
            assert sess.run(product, {a: DENORMAL}) == 0.0
            assert not denormals.flushing()
            assert DENORMAL * np.float32(1.0) != 0        # numpy between runs: IEEE
            torch.set_flush_denormal(True)                # the program's own choice
            try:
                assert sess.run(product, {a: DENORMAL}) == 0.0
                assert denormals.flushing()
            finally:
                torch.set_flush_denormal(False)


def test_a_run_inside_a_run_leaves_flushing_on_for_the_outer_one():
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [])
        inner = a * 1.0
        sess = tf.Session()

        def nested(x):
            sess.run(inner, {a: DENORMAL})
            return np.float32(x * np.float32(1.0))       # py_func's numpy: flushed, as TF
        outer = tf.py_func(nested, [a], tf.float32)
        assert sess.run(outer, {a: DENORMAL}) == 0.0
        assert not denormals.flushing()


def test_eager_ops_flush_and_numpy_does_not():
    script = textwrap.dedent("""
        import numpy as np, tf1compat as tf
        tf.enable_eager_execution()
        x = tf.constant(np.float32(1e-38))
        print(float((x * 0.01).numpy()), np.float32(1e-38) * np.float32(0.01) != 0)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0.0", "True"]


def test_every_intra_op_thread_flushes():
    # Two threads fixed: the product's second half runs on an OpenMP worker thread, made
    # (by the parallel sum) before any run: a thread inherits its creator's mode.
    script = textwrap.dedent("""
        import numpy as np, torch, tf1compat as tf
        torch.ones(1 << 22).sum()
        x = tf.placeholder(tf.float32, [1 << 20])
        with tf.Session() as sess:
            y = sess.run(x * 1.0, {x: np.full(1 << 20, np.float32(1e-40))})
        print(int(np.count_nonzero(y)))
    """)
    env = dict(os.environ, TF1COMPAT_THREADS="2")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=ROOT, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "0"


def test_workers_made_outside_runs_flush_when_the_count_changes():
    # libgomp releases the workers beyond a smaller team and makes new ones for a larger
    # team; made outside a run (the program's own torch code), they start with IEEE
    # denormals. A run at a count other than its thread's last one flushes them again.
    script = textwrap.dedent("""
        import numpy as np, torch, tf1compat as tf
        x = tf.placeholder(tf.float32, [1 << 20])
        y = x * 1.0
        feed = {x: np.full(1 << 20, np.float32(1e-40))}
        sess = tf.Session()

        def outside(n):
            torch.set_num_threads(n)
            torch.ones(1 << 22).sum()

        def run(n):
            torch.set_num_threads(n)
            return int(np.count_nonzero(sess.run(y, feed)))
        outside(4)
        first = run(4)
        outside(2)                       # releases two workers
        outside(3)                       # one new worker, IEEE
        second = run(3)
        outside(2)
        outside(4)                       # two new workers, IEEE
        print(first, second, run(4))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0", "0", "0"]
