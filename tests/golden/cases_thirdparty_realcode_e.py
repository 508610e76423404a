"""Golden cases: patterns from TF's own example programs (tensorflow/examples/speech_commands)
and aymericdamien's TensorFlow-Examples that failed or differed on tf1compat, restated small.

The speech_commands fingerprint graph imports its ops from TF's internal module
`tensorflow.python.ops.gen_audio_ops`: through the shim's table under tf1compat, directly
under TF.
"""

import importlib

import numpy as np

from tests.golden.harness import catch, describe


def _internal(tf, path):
    if tf.__name__.startswith("tf1compat"):
        from tf1compat.shim import INTERNAL_PATHS
        return importlib.import_module(INTERNAL_PATHS[path])
    return importlib.import_module(path)


def _tone(samples, rate=16000, seed=0):
    """A chirp plus noise in [-1, 1): speech-like energy across the spectrum."""
    rng = np.random.RandomState(seed)
    t = np.arange(samples) / float(rate)
    wave = 0.5 * np.sin(2 * np.pi * (300 + 1500 * t) * t) + 0.1 * rng.randn(samples)
    return np.clip(wave, -1, 0.99).astype(np.float32).reshape(-1, 1)


def case_speech_commands_fingerprint(tf):
    """speech_commands' input graph: WAV bytes decoded to a fixed length, volume-scaled,
    time-shifted by pad + slice, background noise mixed and clipped, then a squared
    magnitude spectrogram and its MFCC fingerprint (the 'mfcc' preprocess)."""
    audio_ops = _internal(tf, "tensorflow.python.ops.gen_audio_ops")
    rate, clip = 16000, 8000
    wav = tf.placeholder(tf.string, [])
    volume = tf.placeholder(tf.float32, [])
    padding = tf.placeholder(tf.int32, [2, 2])
    offset = tf.placeholder(tf.int32, [2])
    noise = tf.placeholder(tf.float32, [clip, 1])
    noise_volume = tf.placeholder(tf.float32, [])
    decoded = audio_ops.decode_wav(wav, desired_channels=1, desired_samples=clip)
    scaled = tf.multiply(decoded.audio, volume)
    padded = tf.pad(scaled, padding, mode="CONSTANT")
    shifted = tf.slice(padded, offset, [clip, -1])
    mixed = tf.clip_by_value(tf.add(noise * noise_volume, shifted), -1.0, 1.0)
    spectrogram = audio_ops.audio_spectrogram(mixed, window_size=480, stride=160,
                                              magnitude_squared=True)
    fingerprint = audio_ops.mfcc(spectrogram, decoded.sample_rate,
                                 dct_coefficient_count=40)
    encoded = audio_ops.encode_wav(tf.constant(_tone(7000)), rate)
    with tf.Session() as sess:
        wav_bytes = sess.run(encoded)
        feed = {wav: wav_bytes, volume: 0.8, padding: [[100, 0], [0, 0]], offset: [0, 0],
                noise: _tone(clip, seed=1) * 0.3, noise_volume: 0.1}
        spec, feats, sr = sess.run([spectrogram, fingerprint, decoded.sample_rate], feed)
    return {"spectrogram": describe(spectrogram), "fingerprint": describe(fingerprint),
            "op_types": [spectrogram.op.type, fingerprint.op.type],
            "spec_value": spec, "mfcc": feats, "rate": sr}


def case_audio_spectrogram_windows(tf):
    """Windows that are not powers of two (FFT padded up), |X| and |X|^2, several channels,
    a clip shorter than one window (no frames), unknown lengths, and tf.raw_ops."""
    audio_ops = _internal(tf, "tensorflow.python.ops.gen_audio_ops")
    stereo = np.concatenate([_tone(900), _tone(900, seed=3) * 0.5], axis=1)
    x = tf.placeholder(tf.float32, [900, 2])
    unknown = tf.placeholder(tf.float32, [None, None])
    outs = {
        "w100_s50": audio_ops.audio_spectrogram(x, window_size=100, stride=50),
        "w256_s256_sq": audio_ops.audio_spectrogram(x, 256, 256, magnitude_squared=True),
        "w3_s1": tf.raw_ops.AudioSpectrogram(input=x[:20], window_size=3, stride=1),
        "short": audio_ops.audio_spectrogram(x[:40], window_size=64, stride=8),
        "unknown": audio_ops.audio_spectrogram(unknown, window_size=100, stride=33),
    }
    with tf.Session() as sess:
        values = sess.run(outs, {x: stereo, unknown: stereo[:500]})
    return {name: {"static": describe(t), "value": values[name]}
            for name, t in sorted(outs.items())}


def case_mfcc_filterbank_settings(tf):
    """Mfcc's attrs: band limits, more filterbank channels than the FFT resolves well, as many
    coefficients as channels, a sample rate fed at run time, and an upper limit above the
    spectrogram's last bin (TF gives all zeros)."""
    audio_ops = _internal(tf, "tensorflow.python.ops.gen_audio_ops")
    x = tf.placeholder(tf.float32, [None, 1])
    rate = tf.placeholder(tf.int32, [])
    spectrogram = audio_ops.audio_spectrogram(x, window_size=400, stride=200,
                                              magnitude_squared=True)
    settings = {
        "default": {},
        "narrow": dict(upper_frequency_limit=3000.0, lower_frequency_limit=300.0,
                       filterbank_channel_count=12, dct_coefficient_count=12),
        "dense": dict(upper_frequency_limit=7600.0, lower_frequency_limit=0.0,
                      filterbank_channel_count=80, dct_coefficient_count=5),
        "above_nyquist": dict(upper_frequency_limit=9000.0),
    }
    outs = {name: audio_ops.mfcc(spectrogram, rate, **kw) for name, kw in settings.items()}
    outs["raw_ops"] = tf.raw_ops.Mfcc(spectrogram=spectrogram, sample_rate=rate,
                                      dct_coefficient_count=20)
    with tf.Session() as sess:
        values = sess.run(outs, {x: _tone(4000), rate: 16000})
        low_rate = sess.run(outs["narrow"], {x: _tone(4000), rate: 8000})
    result = {name: {"static": describe(t), "value": values[name]}
              for name, t in sorted(outs.items())}
    result["narrow_8k"] = low_rate
    return result


def case_audio_feature_errors(tf):
    """Bad settings and inputs: build-time rank checks (ValueError), run-time
    InvalidArgumentError for a too-small window, zero stride, more coefficients than
    filterbank channels, a bad sample rate, a non-scalar rate."""
    audio_ops = _internal(tf, "tensorflow.python.ops.gen_audio_ops")
    x = tf.placeholder(tf.float32, [None, 1])
    spec_in = tf.placeholder(tf.float32)
    rate = tf.placeholder(tf.int32)
    data = _tone(1000)
    good = audio_ops.audio_spectrogram(x, window_size=256, stride=128,
                                       magnitude_squared=True)

    def run(t, feed):
        with tf.Session() as sess:
            return sess.run(t, feed)

    return {
        "rank1_input": catch(lambda: audio_ops.audio_spectrogram(
            tf.zeros([10]), window_size=4, stride=2)),
        "rank2_spectrogram": catch(lambda: audio_ops.mfcc(tf.zeros([3, 4]), 16000)),
        "vector_rate_static": catch(lambda: audio_ops.mfcc(good, [16000, 8000])),
        "window_1": catch(lambda: run(audio_ops.audio_spectrogram(x, 1, 1), {x: data}),
                          message=True),
        "stride_0": catch(lambda: run(audio_ops.audio_spectrogram(x, 8, 0), {x: data}),
                          message=True),
        "too_many_coefficients": catch(lambda: run(audio_ops.mfcc(
            good, 16000, filterbank_channel_count=10, dct_coefficient_count=11), {x: data}),
            message=True),
        "zero_rate": catch(lambda: run(audio_ops.mfcc(good, 0), {x: data}), message=True),
        "low_limit_above_high": catch(lambda: run(audio_ops.mfcc(
            good, 16000, lower_frequency_limit=5000.0, upper_frequency_limit=4000.0),
            {x: data}), message=True),
        "fed_rank2_spectrogram": catch(lambda: run(audio_ops.mfcc(spec_in, 16000),
                                                   {spec_in: np.ones((3, 4), np.float32)}),
                                       message=True),
        "fed_vector_rate": catch(lambda: run(audio_ops.mfcc(good, rate),
                                             {x: data, rate: [16000]}), message=True),
    }


def case_constant_snapshots_numpy_arrays(tf):
    """tf.constant / convert_to_tensor copy the caller's array into the graph (later writes
    to it are not seen), and read-only arrays (np.frombuffer, as MNIST loaders build their
    labels) become constants and dataset slices without complaint."""
    weights = np.arange(6, dtype=np.float32).reshape(2, 3)
    frozen = np.frombuffer(bytes([3, 1, 4, 1, 5]), dtype=np.uint8)
    c = tf.constant(weights)
    t = tf.convert_to_tensor(weights)
    labels = tf.constant(frozen)
    batches = tf.data.Dataset.from_tensor_slices(frozen).batch(2)
    batch = tf.data.make_one_shot_iterator(batches).get_next()
    weights[0, 0] = 100.0
    with tf.Session() as sess:
        values = sess.run([c, t, labels])
        seen = [sess.run(batch).tolist() for _ in range(3)]
    return {"constant": values[0], "converted": values[1], "labels": values[2],
            "batches": seen}


def _png_pixels(tf, summary_bytes):
    import io
    from PIL import Image
    summary = tf.Summary()
    summary.ParseFromString(summary_bytes)
    return [(v.tag, np.array(Image.open(io.BytesIO(v.image.encoded_image_string))).tolist())
            for v in summary.value]


def case_image_summary_of_spectrogram_pixels(tf):
    """speech_commands writes its spectrogram / MFCC as image summaries: float images are
    scaled in their own precision and truncated (a value at the maximum can land on 254),
    maxima under 1e-6 count as zero, non-finite pixels are painted red; half and double."""
    audio_ops = _internal(tf, "tensorflow.python.ops.gen_audio_ops")
    x = tf.placeholder(tf.float32, [4000, 1])
    spectrogram = audio_ops.audio_spectrogram(x, window_size=200, stride=100,
                                              magnitude_squared=True)
    spec_image = tf.summary.image("spectrogram", tf.expand_dims(spectrogram, -1))
    mfcc_image = tf.summary.image("mfcc", tf.expand_dims(
        audio_ops.mfcc(spectrogram, 16000, dct_coefficient_count=13), -1))
    odd = {
        "nonfinite": np.array([[[1.0], [np.nan]], [[np.inf], [0.5]]], np.float32)[None],
        "tiny": np.full((1, 2, 2, 1), 5e-7, np.float32),
        "tiny_negative": np.array([[[-5e-7], [1e-7]], [[0.0], [2e-7]]], np.float32)[None],
        "rgb_nonfinite": np.array([[[0.2, np.nan, 0.4], [0.9, 0.1, 0.3]]], np.float32)[None],
        "half": np.arange(12, dtype=np.float16).reshape(1, 2, 2, 3) / np.float16(7),
        "double": np.arange(12, dtype=np.float64).reshape(1, 2, 2, 3) / 7 - 0.5,
        "third": np.arange(1, 7, dtype=np.float32).reshape(1, 2, 3, 1) / 3,
    }
    odd_images = {name: tf.summary.image(name, tf.constant(value))
                  for name, value in odd.items()}
    with tf.Session() as sess:
        spec_bytes, mfcc_bytes = sess.run([spec_image, mfcc_image], {x: _tone(4000)})
        odd_bytes = sess.run(odd_images)
    result = {"spectrogram": _png_pixels(tf, spec_bytes), "mfcc": _png_pixels(tf, mfcc_bytes)}
    result.update({name: _png_pixels(tf, value) for name, value in odd_bytes.items()})
    return result


def case_io_ops_read_and_write_file(tf):
    """speech_commands loads and saves clips through TF's internal io_ops module:
    io_ops.read_file / io_ops.write_file next to its reader classes."""
    import os
    import tempfile
    io_ops = _internal(tf, "tensorflow.python.ops.io_ops")
    path = os.path.join(tempfile.mkdtemp(), "clip.bin")
    name = tf.placeholder(tf.string, [])
    payload = tf.placeholder(tf.string, [])
    write = io_ops.write_file(name, payload)
    read = io_ops.read_file(name)
    with tf.Session() as sess:
        sess.run(write, {name: path, payload: b"RIFF\x00\x01wave"})
        back = sess.run(read, {name: path})
    return {"read": back, "op_types": [write.type, read.op.type],
            "readers": [hasattr(io_ops, n) for n in ("TFRecordReader", "WholeFileReader")]}
