"""Freeze a trained model and serve the frozen graph (TF1's deployment recipe).

A small conv net with batch normalization is trained for a few steps with
tf.train.MomentumOptimizer and checkpointed with tf.train.Saver; its inference graph
(training=False) is written with tf.train.write_graph. Then, as a deployment script
would, it is frozen with `tensorflow.python.tools.freeze_graph`, slimmed with
`strip_unused_lib` and `optimize_for_inference_lib` (batch norms folded into the
convolution), written as a binary .pb, and served: the .pb is read back into a fresh
graph with tf.import_graph_def and run in a Session. The served predictions must equal
the trained model's.
"""
import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.python.tools import freeze_graph, optimize_for_inference_lib, strip_unused_lib

rng = np.random.RandomState(0)
IMAGES = rng.rand(16, 6, 6, 1).astype(np.float32)
LABELS = (IMAGES.mean(axis=(1, 2, 3)) > 0.5).astype(np.int64)
workdir = tempfile.mkdtemp()

# --- training -------------------------------------------------------------------------
def model(images, training):
    """conv -> batch norm -> relu -> global average -> dense -> "probabilities"."""
    net = tf.layers.conv2d(images, 4, 3, padding="same", use_bias=False, name="conv")
    net = tf.layers.batch_normalization(net, training=training, fused=True, name="bn")
    net = tf.reduce_mean(tf.nn.relu(net), [1, 2])
    logits = tf.layers.dense(net, 2, name="logits")
    return logits, tf.nn.softmax(logits, name="probabilities")


with tf.Graph().as_default():
    tf.set_random_seed(1)
    images = tf.placeholder(tf.float32, [None, 6, 6, 1], name="images")
    labels = tf.placeholder(tf.int64, [None], name="labels")
    logits, _ = model(images, training=True)
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train_op = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss)
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(8):
            _, value = sess.run([train_op, loss], {images: IMAGES, labels: LABELS})
            print("step %d loss %.5f" % (step, value))
        checkpoint = saver.save(sess, os.path.join(workdir, "model.ckpt"))

# The inference graph (batch norm on its moving statistics), restored and written out.
with tf.Graph().as_default() as inference_graph:
    images = tf.placeholder(tf.float32, [None, 6, 6, 1], name="images")
    _, probabilities = model(images, training=False)
    with tf.Session() as sess:
        tf.train.Saver().restore(sess, checkpoint)
        trained = sess.run(probabilities, {images: IMAGES[:4]})
    tf.train.write_graph(inference_graph, workdir, "graph.pbtxt", as_text=True)
print("trained predictions", np.round(trained, 5).tolist())

# --- freezing (what `python -m tensorflow.python.tools.freeze_graph` does) -------------
frozen_path = os.path.join(workdir, "frozen.pb")
frozen = freeze_graph.freeze_graph(
    input_graph=os.path.join(workdir, "graph.pbtxt"), input_saver="", input_binary=False,
    input_checkpoint=checkpoint, output_node_names="probabilities",
    restore_op_name="save/restore_all", filename_tensor_name="save/Const:0",
    output_graph=frozen_path, clear_devices=True, initializer_nodes="")
print("frozen ops", sorted(set(n.op for n in frozen.node)))
print("variables left", [n.name for n in frozen.node if "Variable" in n.op])

stripped = strip_unused_lib.strip_unused(frozen, ["images"], ["probabilities"],
                                         tf.float32.as_datatype_enum)
optimized = optimize_for_inference_lib.optimize_for_inference(
    stripped, ["images"], ["probabilities"], tf.float32.as_datatype_enum)
optimize_for_inference_lib.ensure_graph_is_valid(optimized)
print("optimized nodes", len(optimized.node), "of", len(frozen.node))
print("batch norm left", any("BatchNorm" in n.op for n in optimized.node))
with open(os.path.join(workdir, "optimized.pb"), "wb") as f:
    f.write(optimized.SerializeToString())

# --- serving ---------------------------------------------------------------------------
for name in ("frozen.pb", "optimized.pb"):
    graph_def = tf.GraphDef()
    with open(os.path.join(workdir, name), "rb") as f:
        graph_def.ParseFromString(f.read())
    with tf.Graph().as_default() as serve_graph:
        tf.import_graph_def(graph_def, name="served")
        with tf.Session(graph=serve_graph) as sess:
            served = sess.run("served/probabilities:0", {"served/images:0": IMAGES[:4]})
    print(name, "predictions", np.round(served, 5).tolist())
    print(name, "matches trained", bool(np.allclose(served, trained, atol=1e-5)))
shutil.rmtree(workdir)
