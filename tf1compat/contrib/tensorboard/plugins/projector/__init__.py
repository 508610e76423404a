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

from tf1compat.training.proto_messages import Field, Message

__all__ = ["ProjectorConfig", "EmbeddingInfo", "SpriteMetadata", "visualize_embeddings",
           "PROJECTOR_FILENAME"]

# The file name TensorBoard's projector plugin looks for in a log directory.
PROJECTOR_FILENAME = "projector_config.pbtxt"


class SpriteMetadata(Message):
    """One sprite image holding a thumbnail per embedding row."""
    FULL_NAME = "tensorflow.SpriteMetadata"
    FIELDS = (Field(1, "image_path", "string"),
              Field(2, "single_image_dim", "uint32", "rep"))


class EmbeddingInfo(Message):
    """One embedding: the tensor (variable) name and files describing its rows."""
    FULL_NAME = "tensorflow.EmbeddingInfo"
    FIELDS = (Field(1, "tensor_name", "string"),
              Field(2, "metadata_path", "string"),
              Field(3, "bookmarks_path", "string"),
              Field(4, "tensor_shape", "uint32", "rep"),
              Field(5, "sprite", SpriteMetadata),
              Field(6, "tensor_path", "string"))


class ProjectorConfig(Message):
    """The projector plugin's configuration for one log directory."""
    FULL_NAME = "tensorflow.ProjectorConfig"
    FIELDS = (Field(1, "model_checkpoint_path", "string"),
              Field(2, "embeddings", EmbeddingInfo, "rep"),
              Field(3, "model_checkpoint_dir", "string"))


def visualize_embeddings(summary_writer: Any, config: ProjectorConfig) -> None:
    """Writes `config` as text to `projector_config.pbtxt` in the writer's log directory."""
    logdir = summary_writer.get_logdir()
    if logdir is None:
        raise ValueError("Summary writer must have a logdir")
    from tf1compat.util import gfile
    with gfile.GFile(os.path.join(logdir, PROJECTOR_FILENAME), "w") as f:
        f.write(config.text_format_string())
