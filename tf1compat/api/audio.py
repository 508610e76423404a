"""`tf.audio`: WAV decoding and encoding (tf1compat/ops/audio_ops.py)."""

# ruff: noqa: F401
from tf1compat.ops.audio_ops import decode_wav, encode_wav


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('audio', globals())
