"""`tensorflow.python.ops.gen_audio_ops` (and TF 1.x's `tensorflow.contrib.framework.python
.ops.audio_ops`, TF 2's `tensorflow.python.ops.audio_ops`, which re-export it): the audio
ops under their generated names, as the speech_commands example imports them."""

# ruff: noqa: F401
from tf1compat.ops.audio_feature_ops import audio_spectrogram, mfcc
from tf1compat.ops.audio_ops import decode_wav, encode_wav

__all__ = ["audio_spectrogram", "mfcc", "decode_wav", "encode_wav"]
