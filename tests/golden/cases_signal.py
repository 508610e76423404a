"""Golden cases: tf.signal (frame, overlap_and_add, windows, stft/inverse_stft, mdct,
dct/idct, mel matrix, MFCCs, fftshift, n-dimensional FFTs) and tf.spectral."""

import numpy as np

from tests.golden.harness import catch, describe, tolerance

SIG = np.sin(np.arange(40, dtype=np.float32) * 0.37) + np.arange(40, dtype=np.float32) * 0.01


def _run(tf, fetches, feed=None):
    with tf.Session() as sess:
        out = sess.run(fetches, feed)
    return _widen(out)


def _widen(v):
    if isinstance(v, dict):
        return {k: _widen(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_widen(x) for x in v]
    if isinstance(v, np.ndarray) and v.dtype == np.complex64:
        return v.astype(np.complex128)
    return v


@tolerance(rtol=1e-4, atol=1e-5)
def case_frame_overlap_add(tf):
    x = tf.constant(SIG.reshape(2, 20))
    p = tf.placeholder(tf.float32, [None, None])
    out = {
        "frame": tf.signal.frame(x, 5, 3), "pad": tf.signal.frame(x, 6, 4, pad_end=True,
                                                                  pad_value=-1.0),
        "axis0": tf.signal.frame(tf.transpose(x), 4, 4, axis=0),
        "dyn": tf.signal.frame(p, 4, 2),
        "oa": tf.signal.overlap_and_add(tf.reshape(x, [2, 4, 5]), 3),
        "oa_fast": tf.signal.overlap_and_add(tf.reshape(x, [2, 4, 5]), 5),
        "oa3": tf.signal.overlap_and_add(tf.reshape(tf.range(24.0), [2, 3, 4]), 1),
    }
    vals = _run(tf, out, {p: SIG.reshape(4, 10)})
    return {"vals": vals, "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "bad_step": catch(lambda: tf.signal.overlap_and_add(x[None], 1.5))}


@tolerance(rtol=1e-4, atol=1e-5)
def case_windows(tf):
    out = {
        "hann": tf.signal.hann_window(8), "hann_sym": tf.signal.hann_window(7, periodic=False),
        "hamming": tf.signal.hamming_window(10, dtype=tf.float64),
        "one": tf.signal.hann_window(1),
        "kaiser": tf.signal.kaiser_window(9, beta=5.0),
        "kbd": tf.signal.kaiser_bessel_derived_window(8),
        "vorbis": tf.signal.vorbis_window(12),
        "dyn": tf.signal.hann_window(tf.placeholder_with_default(6, [])),
    }
    return {"vals": _run(tf, out), "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "int": catch(lambda: tf.signal.hann_window(4, dtype=tf.int32), message=True)}


@tolerance(rtol=1e-3, atol=1e-4)
def case_stft(tf):
    x = tf.constant(SIG.reshape(2, 20))
    s = tf.signal.stft(x, 8, 4)
    s2 = tf.signal.stft(x, 6, 2, fft_length=16, pad_end=True, window_fn=None)
    inv = tf.signal.inverse_stft(s, 8, 4,
                                 window_fn=tf.signal.inverse_stft_window_fn(4))
    inv2 = tf.signal.inverse_stft(s2, 6, 2, fft_length=16, window_fn=None)
    mag = tf.abs(s)
    g = tf.gradients(tf.reduce_sum(mag), x)[0]
    vals = _run(tf, [s, s2, inv, inv2, g])
    return {"vals": vals, "shapes": [describe(t) for t in (s, s2, inv, inv2)]}


@tolerance(rtol=1e-3, atol=1e-4)
def case_dct_mdct(tf):
    x = tf.constant(SIG[:24].reshape(3, 8))
    out = {f"dct{t}": tf.signal.dct(x, type=t) for t in (1, 2, 3, 4)}
    out.update({f"ortho{t}": tf.signal.dct(x, type=t, norm="ortho") for t in (2, 3, 4)})
    out.update({f"idct{t}": tf.signal.idct(x, type=t) for t in (1, 2, 3)})
    out["n"] = tf.signal.dct(x, n=5)
    out["n_pad"] = tf.signal.dct(x, n=11, norm="ortho")
    out["spectral"] = tf.spectral.dct(x)
    out["ispectral"] = tf.spectral.idct(x, norm="ortho")
    m = tf.signal.mdct(tf.constant(SIG), 8)
    mo = tf.signal.mdct(tf.constant(SIG), 8, norm="ortho", window_fn=None)
    out.update({"mdct": m, "mdct_o": mo, "imdct": tf.signal.inverse_mdct(m),
                "imdct_o": tf.signal.inverse_mdct(mo, norm="ortho", window_fn=None)})
    return {"vals": _run(tf, out), "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "bad_type": catch(lambda: tf.signal.dct(x, type=5), message=True),
            "bad_norm": catch(lambda: tf.signal.dct(x, type=1, norm="ortho"), message=True),
            "bad_axis": catch(lambda: tf.signal.dct(x, axis=0), message=True),
            "mdct4": catch(lambda: tf.signal.mdct(tf.constant(SIG), 6), message=True)}


@tolerance(rtol=1e-4, atol=1e-5)
def case_mel_mfcc(tf):
    mel = tf.signal.linear_to_mel_weight_matrix(8, 17, 16000, 20.0, 4000.0)
    mel64 = tf.signal.linear_to_mel_weight_matrix(num_mel_bins=4, num_spectrogram_bins=9,
                                                  sample_rate=tf.constant(8000.0),
                                                  dtype=tf.float64)
    spec = tf.abs(tf.signal.stft(tf.constant(SIG.reshape(2, 20)), 8, 4, fft_length=32))
    log_mel = tf.log(tf.tensordot(spec, mel, 1) + 1e-6)
    mfcc = tf.signal.mfccs_from_log_mel_spectrograms(log_mel)
    return {"vals": _run(tf, [mel, mel64, mfcc]),
            "shapes": [describe(t) for t in (mel, mel64, mfcc)],
            "bad_edges": catch(lambda: tf.signal.linear_to_mel_weight_matrix(
                lower_edge_hertz=500.0, upper_edge_hertz=100.0), message=True),
            "nyquist": catch(lambda: tf.signal.linear_to_mel_weight_matrix(
                sample_rate=4000, upper_edge_hertz=3000.0), message=True)}


@tolerance(rtol=1e-4, atol=1e-4)
def case_fftshift(tf):
    x = tf.reshape(tf.range(12.0), [3, 4])
    out = {
        "shift": tf.signal.fftshift(x), "ishift": tf.signal.ifftshift(x),
        "shift1": tf.signal.fftshift(x, axes=1), "shift_list": tf.signal.fftshift(x, [0, -1]),
        "rfft_pad": tf.signal.rfft(tf.constant([1.0, 2.0, 3.0]), [6]),
        "irfft_default": tf.spectral.irfft(tf.complex(tf.ones([5]), tf.zeros([5]))),
    }
    return {"vals": _run(tf, out), "shapes": {k: describe(v) for k, v in sorted(out.items())}}


def case_fftnd_graph(tf):
    # TF 2.21 registers the FFTND family for GPUs only (a CPU graph holding one cannot
    # run at all), so only the graph is recorded; tf1compat computes them on any device.
    x = tf.reshape(tf.range(12.0), [3, 4])
    c = tf.complex(x, -x)
    out = {
        "fftnd": tf.signal.fftnd(c), "ifftnd_all": tf.signal.ifftnd(c),
        "ifftnd": tf.signal.ifftnd(c, fft_length=[4], axes=[1], norm="ortho"),
        "rfftnd": tf.signal.rfftnd(x, fft_length=[4, 6], axes=[0, 1]),
        "irfftnd": tf.signal.irfftnd(c, fft_length=[3, 6], norm="forward"),
    }
    return {"shapes": {k: describe(v) for k, v in sorted(out.items())},
            "types": {k: v.op.type for k, v in sorted(out.items())}}
