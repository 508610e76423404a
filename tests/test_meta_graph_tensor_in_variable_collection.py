"""A tensor put by hand in a variable collection (Kyubyong's TF 1.2 Transformer puts its
step tensor in `global_step`): exporting the meta graph skips that collection with TF's
warning, which names the missing `to_proto` (TF asks each item for it)."""

import logging

import tf1compat as tf


def test_tensor_in_global_step_collection_warns_as_tf(caplog) -> None:
    with tf.Graph().as_default():
        step = tf.constant(0, name="step")
        tf.add_to_collection(tf.GraphKeys.GLOBAL_STEP, step)
        tf.Variable(1.0, name="v")
        with caplog.at_level(logging.WARNING):
            meta = tf.train.export_meta_graph()
    assert tf.GraphKeys.GLOBAL_STEP not in meta.collection_def
    assert tf.GraphKeys.GLOBAL_VARIABLES in meta.collection_def
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "Issue encountered when serializing global_step." in text
    assert "'Tensor' object has no attribute 'to_proto'" in text
