"""`tf.contrib.tensorboard.plugins.projector`: TensorBoard's embedding projector config.

Word2vec tutorials fill a `ProjectorConfig` (one `EmbeddingInfo` per embedding variable:
its tensor name, a metadata TSV, an optional sprite image) and call
`visualize_embeddings(writer, config)`, which writes the config's text form to
`<logdir>/projector_config.pbtxt`, where TensorBoard's projector plugin reads it next to
the checkpoint holding the variable.
"""

from __future__ import annotations

import os
from typing import Any

from tf1compat.serialization.messages import (EmbeddingInfo, ProjectorConfig, SpriteMetadata,
                                              to_text)

__all__ = ["ProjectorConfig", "EmbeddingInfo", "SpriteMetadata", "visualize_embeddings",
           "PROJECTOR_FILENAME"]

# The file name TensorBoard's projector plugin looks for in a log directory.
PROJECTOR_FILENAME = "projector_config.pbtxt"


def visualize_embeddings(summary_writer: Any, config: ProjectorConfig) -> None:
    """Writes `config` as text to `projector_config.pbtxt` in the writer's log directory."""
    logdir = summary_writer.get_logdir()
    if logdir is None:
        raise ValueError("Summary writer must have a logdir")
    from tf1compat.util import gfile
    with gfile.GFile(os.path.join(logdir, PROJECTOR_FILENAME), "w") as f:
        f.write(to_text(config))
