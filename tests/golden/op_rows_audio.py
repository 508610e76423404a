"""Op rows: the WAV codec ops (DecodeWav, EncodeWav), fed hand-built 16-bit PCM files, and the
speech feature ops (AudioSpectrogram, Mfcc) on a chirp."""

import struct

import numpy as np

from tests.golden.op_harness import err, row, strings


def _wav(channels: int, samples: list, fmt_size: int = 16, bits: int = 16) -> np.ndarray:
    pcm = struct.pack(f"<{len(samples)}h", *samples)
    fmt = struct.pack("<HHIIHH", 1, channels, 8000, 8000 * channels * 2, channels * 2, bits)
    fmt += b"\0" * (fmt_size - 16)
    body = (b"WAVE" + b"fmt " + struct.pack("<I", fmt_size) + fmt + b"data" +
            struct.pack("<I", len(pcm)) + pcm)
    return strings(b"RIFF" + struct.pack("<I", len(body)) + body, shape=[])


_STEREO = _wav(2, [0, 32767, -32768, 16384, 1, -1, 100, -200])
_CHIRP = (0.6 * np.sin(np.linspace(0, 90, 600) ** 1.5)).astype(np.float32).reshape(-1, 1)
_SPECTROGRAM = np.abs(np.fft.rfft(_CHIRP[:512, 0].reshape(4, 128), n=256)).astype(
    np.float32).reshape(1, 4, 129) ** 2
_AUDIO = np.array([[0.0, 1.0], [-1.0, 0.5], [2.0, -2.0], [1.5e-5, -1.6e-5], [0.25, -0.75]],
                  np.float32)

ROWS = [
    row("DecodeWav", contents=_STEREO),
    row("DecodeWav", contents=_STEREO, desired_channels=3, desired_samples=6),
    row("DecodeWav", contents=_STEREO, desired_channels=1, desired_samples=2),
    row("DecodeWav", contents=_wav(1, [5, -5, 7], fmt_size=18), desired_channels=2),
    err("DecodeWav", contents=_wav(1, [5, -5], bits=8)),
    err("DecodeWav", contents=strings(b"RIFX", shape=[])),
    err("DecodeWav", contents=_STEREO, desired_channels=-2),
    row("EncodeWav", audio=_AUDIO, sample_rate=np.int32(16000)),
    row("EncodeWav", audio=np.zeros([0, 3], np.float32), sample_rate=np.int32(44100)),
    err("EncodeWav", audio=_AUDIO, sample_rate=np.int32(0)),
    err("EncodeWav", audio=np.zeros([3], np.float32), sample_rate=np.int32(8000)),
    row("AudioSpectrogram", input=_CHIRP, window_size=160, stride=80),
    row("AudioSpectrogram", input=np.concatenate([_CHIRP, -_CHIRP], 1), window_size=64,
        stride=100, magnitude_squared=True),
    row("AudioSpectrogram", input=_CHIRP[:10], window_size=16, stride=4),
    err("AudioSpectrogram", input=_CHIRP[:, 0], window_size=16, stride=4),
    row("Mfcc", spectrogram=_SPECTROGRAM, sample_rate=np.int32(8000)),
    row("Mfcc", spectrogram=_SPECTROGRAM, sample_rate=np.int32(16000),
        upper_frequency_limit=6000.0, lower_frequency_limit=100.0,
        filterbank_channel_count=16, dct_coefficient_count=16),
    err("Mfcc", spectrogram=_SPECTROGRAM, sample_rate=np.int32(8000),
        filterbank_channel_count=8, dct_coefficient_count=9),
]
