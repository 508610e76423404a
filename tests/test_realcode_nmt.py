"""float32 Pow as TF's CPU kernel and Grappler run it (ops/_eigen_pow.py; TF's values are
pinned in tests/golden/cases_thirdparty_realcode_nmt.py): which path each form takes."""

import ctypes
import ctypes.util

import numpy as np
import torch

import tf1compat as tf
from tf1compat.ops import _eigen_pow


def _bits(a):
    return np.asarray(a, np.float32).view(np.int32)


_X = np.random.RandomState(3).uniform(0.1, 7.0, 203).astype(np.float32)


def _session_pows(exponent):
    """Pow by a constant exponent and by the same exponent fed."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None])
        fed = tf.placeholder(tf.float32, [])
        const_pow, fed_pow = tf.pow(x, exponent), tf.pow(x, fed)
        with tf.Session() as sess:
            return sess.run([const_pow, fed_pow], {x: _X, fed: exponent})


def test_constant_exponents_take_grapplers_ops():
    # TF runs Pow(x, 2.0) as Square and Pow(x, 3.0) as Mul(x, Square(x)); a fed
    # exponent runs Eigen's generic_pow, whose results differ in the last bit.
    square, fed_square = _session_pows(2.0)
    cube, fed_cube = _session_pows(3.0)
    assert np.array_equal(_bits(square), _bits(_X * _X))
    assert np.array_equal(_bits(cube), _bits(_X * (_X * _X)))
    assert np.array_equal(_bits(fed_square), _bits(_eigen_pow.eigen_pow_float32(
        torch.from_numpy(_X), torch.tensor(2.0)).numpy()))
    assert not np.array_equal(_bits(cube), _bits(fed_cube))


def test_other_constant_exponents_run_generic_pow():
    const_pow, fed_pow = _session_pows(1.5)
    assert np.array_equal(_bits(const_pow), _bits(fed_pow))


def test_eager_pow_sees_no_grappler():
    from tf1compat.eager.context import eager_mode
    with eager_mode():
        eager = tf.pow(tf.constant(_X), 3.0).numpy()
    _, fed_cube = _session_pows(3.0)
    assert np.array_equal(_bits(eager), _bits(fed_cube))


def test_scalar_tail_and_flushed_subnormals():
    x = torch.tensor([2.0, 1e-40, 0.5, 3.0, 1.7, 1.5, 2.5, 0.9, 1.1, 1e-20], dtype=torch.float32)
    y = torch.tensor([0.5, 2.0, 3.0, -1.0, 2.2, -230.0, 1.0, 2.0, 7.0, 2.0], dtype=torch.float32)
    out = _eigen_pow.eigen_pow_float32(x, y).numpy()
    assert out[1] == 0.0 and out[9] == 0.0          # denormal in / out: 0 under FTZ/DAZ
    assert out[5] == 0.0                            # 1.5 ** -230 is subnormal: flushed
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    libm.powf.restype, libm.powf.argtypes = ctypes.c_float, [ctypes.c_float, ctypes.c_float]
    # 10 elements: one packet of 8, then Eigen's scalar path (the C library's powf).
    assert out[8] == np.float32(libm.powf(float(x[8]), 7.0))


def test_large_powers_keep_torch():
    n = _eigen_pow.MAX_ELEMENTS + 1
    x = torch.rand(n) + 0.5
    assert not _eigen_pow.emulated(x, x)
    assert torch.equal(_eigen_pow.tf_pow(x, x), torch.pow(x, x))
    assert not _eigen_pow.emulated(x.double(), x.double())
