"""`tf.audio`: WAV decoding and encoding (tf1compat/ops/audio_ops.py)."""

# ruff: noqa: F401
from tf1compat.ops.audio_ops import decode_wav, encode_wav
# AudioSpectrogram and Mfcc are raw ops only (tf.raw_ops, gen_audio_ops), not tf.audio names.
from tf1compat.ops import audio_feature_ops as _audio_feature_ops


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('audio', globals())
