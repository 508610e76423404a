"""`tf.compat.v1.estimator.tpu.experimental`: TPU embeddings are not supported."""

from __future__ import annotations

from typing import Any

__all__ = ["EmbeddingConfigSpec"]


class EmbeddingConfigSpec:
    """`tf.estimator.tpu.experimental.EmbeddingConfigSpec`: raises NotImplementedError
    (TPU embeddings need a TPU)."""

    def __init__(self, *args: Any, **kwargs: Any):
        raise NotImplementedError("tf.estimator.tpu.experimental.EmbeddingConfigSpec: TPU "
                                  "embeddings are not supported by tf1compat.")
