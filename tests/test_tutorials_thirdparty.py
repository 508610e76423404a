"""Third-party tutorial features goldens cannot record: `tf.contrib.tensorboard`'s
embedding projector (TF 2 has no contrib) and the two text forms of protos."""

from __future__ import annotations

import os

import pytest

import tf1compat as tf
from tf1compat import shim
from tf1compat.serialization.messages import AttrValue, NodeDef, to_text


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def test_projector_config_written_as_text_format(tmp_path):
    """CS20 word2vec_visualize: one embedding with metadata and a sprite."""
    projector = tf.contrib.tensorboard.plugins.projector
    emb = tf.Variable(tf.zeros([5, 3]), name="embedding")
    config = projector.ProjectorConfig()
    embedding = config.embeddings.add()
    embedding.tensor_name = emb.name
    embedding.metadata_path = "vocab_5.tsv"
    embedding.sprite.image_path = "sprite.png"
    embedding.sprite.single_image_dim.extend([28, 28])
    writer = tf.summary.FileWriter(str(tmp_path))
    projector.visualize_embeddings(writer, config)
    writer.close()
    with open(os.path.join(str(tmp_path), "projector_config.pbtxt")) as f:
        text = f.read()
    assert text == ('embeddings {\n  tensor_name: "embedding:0"\n'
                    '  metadata_path: "vocab_5.tsv"\n  sprite {\n'
                    '    image_path: "sprite.png"\n    single_image_dim: 28\n'
                    '    single_image_dim: 28\n  }\n}\n')
    again = projector.ProjectorConfig.FromString(config.SerializeToString())
    assert again.embeddings[0].sprite.single_image_dim == [28, 28]


def test_projector_import_path_through_shim():
    shim.install()
    try:
        from tensorflow.contrib.tensorboard.plugins import projector  # noqa: PLC0415
        assert projector.ProjectorConfig is \
            tf.contrib.tensorboard.plugins.projector.ProjectorConfig
    finally:
        shim.uninstall()


def test_projector_unknown_name_is_explicit():
    with pytest.raises(AttributeError, match="not provided by tf1compat"):
        tf.contrib.tensorboard.plugins.nonexistent  # noqa: B018


@pytest.mark.skipif(__import__("google.protobuf.internal.api_implementation",
                               fromlist=["Type"]).Type() != "upb",
                    reason="str() prints maps in upb's order with protobuf's upb runtime "
                           "(the default since protobuf 4.21), as TF 2.x does")
def test_str_uses_upb_map_order_files_use_ascending_order():
    """TF 2.x `str(node_def)` lists map keys by upb's sorter (common prefix compared in
    reverse, shorter key first); text_format.MessageToString sorts ascending and leaves
    default scalars out of map entries."""
    node = NodeDef(name="n", op="Sum")
    for key in ("T", "Tidx", "keep_dims", "_class", "Ta", ""):
        node.attr[key].CopyFrom(AttrValue(i=1))
    printed = [line.split('"')[1] for line in str(node).splitlines() if "key:" in line]
    assert printed == ["", "keep_dims", "_class", "T", "Tidx", "Ta"]
    filed = [line.split('"')[1] for line in to_text(node).splitlines() if "key:" in line]
    # the empty (default) key is left out of its entry
    assert filed == ["T", "Ta", "Tidx", "_class", "keep_dims"]
    assert to_text(node).count("attr {") == 6
