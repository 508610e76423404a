"""`tf.keras.experimental` (compat.v1): the cosine schedules (the classes of
`tf.keras.optimizers.schedules`), the premade LinearModel and WideDeepModel, and the
SequenceFeatures layer."""

# ruff: noqa: F401
from tf1compat.keras.layers.sequence_features import SequenceFeatures
from tf1compat.keras.optimizers.schedules import CosineDecay, CosineDecayRestarts
from tf1compat.keras.premade_models import LinearModel, WideDeepModel

from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('keras.experimental', globals())
