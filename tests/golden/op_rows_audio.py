"""Op rows: the WAV codec ops (DecodeWav, EncodeWav), fed hand-built 16-bit PCM files."""

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
]
