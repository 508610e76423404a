"""Keras SavedModel directories both ways between tf-keras and tf1compat, recorded.

    python scripts/record_keras_saved_models.py            # needs /tmp/tf (tf-keras 2.21)
    python scripts/record_keras_saved_models.py --tf PYTHON_OF_A_TF_VENV

Step 1 (the TF venv, a subprocess): real tf-keras 2.21 under TF1 behaviour trains a small
model and writes it with `model.save(dir, save_format="tf")` to
tests/fixtures/keras/saved_model_tf/ (with its predictions and optimizer state), and a
subclassed model to saved_model_tf_subclassed/.
Step 2 (this interpreter, tf1compat): the same model, trained the same way, is written by
tf1compat to tests/fixtures/keras/saved_model_tf1compat/, and a DenseFeatures model
(vocabulary lookup tables) to saved_model_tf1compat_features/. Step 3 (the TF venv): real
TF opens tf1compat's directories with the TF1 loader `tf.saved_model.loader.load` and runs
their "serving_default" signatures, and tf-keras's own `tf.keras.models.load_model` (TF2
behaviour: tf-keras 2.21 under `disable_v2_behavior` cannot load even its own SavedModels)
and `tf.saved_model.load` read them (and run their "serving_default" signatures as TF2
concrete functions): predictions, weight names and the object graph, Keras
metadata and checkpoint keys as TF parsed them. Everything TF saw goes to
tests/fixtures/keras/saved_models.json; tests/test_keras_saved_model.py replays it without
TensorFlow.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from typing import Any, Dict

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "keras")
TF_PYTHON = "/tmp/tf/bin/python"
INPUT = np.array([[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.5, 1.0]], np.float32)


def build_and_train(tf: Any) -> Any:
    """A Dense/Dropout/Dense classifier with seeded weights, one epoch of Adam."""
    init = tf.keras.initializers.glorot_uniform
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(5, activation="relu", input_shape=(4,), name="hidden",
                              kernel_initializer=init(seed=1)),
        tf.keras.layers.Dropout(0.5, seed=3, name="drop"),
        tf.keras.layers.Dense(3, activation="softmax", name="probs",
                              kernel_initializer=init(seed=2))])
    model.compile(tf.keras.optimizers.Adam(0.05), "sparse_categorical_crossentropy",
                  metrics=["acc"])
    x = np.random.RandomState(0).randn(8, 4).astype(np.float32)
    y = np.arange(8) % 3
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    return model


def build_functional(tf: Any) -> Any:
    """A functional LSTM -> Dense model (an RNN cell nested in a layer), not compiled."""
    init = tf.keras.initializers.glorot_uniform
    inputs = tf.keras.Input((5, 3), name="seq")
    hidden = tf.keras.layers.LSTM(4, name="lstm", kernel_initializer=init(seed=4),
                                  recurrent_initializer=init(seed=5))(inputs)
    outputs = tf.keras.layers.Dense(2, name="out", kernel_initializer=init(seed=6))(hidden)
    return tf.keras.Model(inputs, outputs, name="recurrent")


def build_nested(tf: Any) -> Any:
    """Two outputs; a Bidirectional GRU, Conv1D, a nested Sequential with BatchNormalization
    and a Concatenate; compiled and trained one step (moving statistics move)."""
    init = tf.keras.initializers.glorot_uniform
    layers = tf.keras.layers
    inner = tf.keras.Sequential([
        layers.Dense(4, input_shape=(6,), name="inner_dense", kernel_initializer=init(seed=9)),
        layers.BatchNormalization(name="bn")], name="inner")
    inputs = tf.keras.Input((5, 3), name="seq")
    gru = layers.GRU(3, return_sequences=True, kernel_initializer=init(seed=10),
                     recurrent_initializer=init(seed=11))
    x = layers.Bidirectional(gru, name="bi")(inputs)
    x = layers.Flatten(name="flat")(layers.Conv1D(2, 2, name="conv",
                                                  kernel_initializer=init(seed=12))(x))
    x = layers.Dense(6, name="d6", kernel_initializer=init(seed=13))(x)
    side = inner(x)
    head = layers.Dense(1, name="head", kernel_initializer=init(seed=14))(
        layers.Concatenate(name="cat")([side, x]))
    model = tf.keras.Model(inputs, [head, side], name="nested")
    model.compile(tf.keras.optimizers.RMSprop(0.01), ["mse", "mae"])
    model.fit(SEQUENCE, [np.ones((2, 1), np.float32), np.ones((2, 4), np.float32)],
              batch_size=2, verbose=0)
    return model


def subclassed_class(tf: Any) -> Any:
    """A subclassed model with get_config (Dense -> relu -> Dense), for `custom_objects`."""
    init = tf.keras.initializers.glorot_uniform

    class Sub(tf.keras.Model):
        def __init__(self, units: int = 2, **kwargs: Any):
            super().__init__(**kwargs)
            self.units = units
            self.hidden = tf.keras.layers.Dense(units, kernel_initializer=init(seed=7))
            self.out = tf.keras.layers.Dense(1, kernel_initializer=init(seed=8))

        def call(self, x: Any) -> Any:
            return self.out(tf.nn.relu(self.hidden(x)))

        def get_config(self) -> Dict[str, Any]:
            return {"units": self.units}
    return Sub


def build_subclassed(tf: Any) -> Any:
    """The subclassed model, called on INPUT (its weights are built) and compiled."""
    model = subclassed_class(tf)(units=3, name="sub")
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    model.predict(INPUT)
    return model


SEQUENCE = (np.arange(30, dtype=np.float32).reshape(2, 5, 3) / 30.0 - 0.4)

# tf1compat's directories that tf-keras's TF2 loader reads, with the input to predict on.
TF2_LOADED = (("saved_model_tf1compat", INPUT), ("saved_model_tf1compat_functional", SEQUENCE),
              ("saved_model_tf1compat_subclassed", INPUT),
              ("saved_model_tf1compat_nested", SEQUENCE),
              ("saved_model_tf1compat_features", None))   # (the feature dict)


def _listed(value: Any) -> Any:
    return np.asarray(value).tolist()


def _loss_names(loss: Any) -> Any:
    """A compiled loss (or list of them) by name."""
    if isinstance(loss, (list, tuple)) or type(loss).__name__ == "ListWrapper":
        return [_loss_names(one) for one in loss]
    return getattr(loss, "__name__", loss)


def _predicted(model: Any, x: Any) -> Any:
    """`model.predict(x)` as lists (one per output of a multi-output model)."""
    out = model.predict(x, verbose=0)
    return [_listed(o) for o in out] if isinstance(out, list) else _listed(out)


def tf_write(out_dir: str) -> Dict[str, Any]:
    """tf-keras writes its SavedModel (run under TensorFlow)."""
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    model = build_and_train(tf)
    shutil.rmtree(out_dir, ignore_errors=True)
    model.save(out_dir, save_format="tf")
    # (fingerprint.pb changes with every write and nothing reads it here)
    os.remove(os.path.join(out_dir, "fingerprint.pb"))
    subclassed = build_subclassed(tf)
    sub_dir = out_dir + "_subclassed"
    shutil.rmtree(sub_dir, ignore_errors=True)
    subclassed.save(sub_dir, save_format="tf")
    os.remove(os.path.join(sub_dir, "fingerprint.pb"))
    return {"tf_written.predict": _listed(model.predict(INPUT)),
            "tf_written.optimizer": [_listed(w) for w in model.optimizer.get_weights()],
            "tf_written_subclassed.predict": _listed(subclassed.predict(INPUT)),
            "tensorflow": tf.__version__}


def build_features_model(tf: Any) -> Any:
    """The DenseFeatures golden cases' model (numeric, bucketized, vocabulary columns)."""
    from tests.golden.cases_keras_dense_features_saving import _model
    return _model(tf)


def tf_read(directory: str) -> Dict[str, Any]:
    """Real TF's TF1 loader opens tf1compat's directories and runs their signatures."""
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    from tests.golden.keras_features_util import features_and_labels
    features, _ = features_and_labels()
    result = {}
    for name, subdir, feeds in (
            ("tf1compat_written", "saved_model_tf1compat", {"hidden_input": INPUT}),
            ("tf1compat_written_subclassed", "saved_model_tf1compat_subclassed",
             {"input_1": INPUT}),
            ("tf1compat_written_features", "saved_model_tf1compat_features", features)):
        with tf.Graph().as_default(), tf.Session() as sess:
            meta = tf.saved_model.loader.load(sess, ["serve"], os.path.join(directory, subdir))
            signature = meta.signature_def["serving_default"]
            out = sess.run({k: v.name for k, v in signature.outputs.items()},
                           {signature.inputs[k].name: v for k, v in feeds.items()})
        result[f"{name}.tf_loader"] = {k: _listed(v) for k, v in out.items()}
        result[f"{name}.signature"] = {
            "inputs": sorted(signature.inputs), "outputs": sorted(signature.outputs),
            "method_name": signature.method_name}
        result[f"{name}.tags"] = list(meta.meta_info_def.tags)
    return result


def directory_structure(directory: str, saved_model_cls: Any, metadata_cls: Any,
                        object_graph_cls: Any, reader: Any) -> Dict[str, Any]:
    """What a TF2 loader reads from a Keras SavedModel directory, as plain data: the
    SavedObjectGraph's nodes, keras_metadata.pb's entries and the checkpoint's keys and
    object graph (proto classes and checkpoint reader from TF or from tf1compat)."""
    saved_model = saved_model_cls()
    with open(os.path.join(directory, "saved_model.pb"), "rb") as f:
        saved_model.ParseFromString(f.read())
    nodes = []
    for node in saved_model.meta_graphs[0].object_graph_def.nodes:
        kind = node.WhichOneof("kind")
        entry = {"kind": kind, "children": [[c.local_name, c.node_id] for c in node.children],
                 "slots": [[s.original_variable_node_id, s.slot_name, s.slot_variable_node_id]
                           for s in node.slot_variables]}
        if kind == "user_object":
            entry["identifier"] = node.user_object.identifier
            entry["version"] = [node.user_object.version.producer,
                                node.user_object.version.min_consumer]
        elif kind == "bare_concrete_function":
            function = node.bare_concrete_function
            entry["function"] = [function.concrete_function_name,
                                 list(function.argument_keywords)]
        elif kind == "variable":
            entry["variable"] = [node.variable.name, int(node.variable.dtype),
                                 [d.size for d in node.variable.shape.dim],
                                 node.variable.trainable]
        nodes.append(entry)
    object_graph = saved_model.meta_graphs[0].object_graph_def
    functions = {name: list(f.bound_inputs) for name, f in object_graph.concrete_functions.items()}
    library = sorted(f.signature.name for f in saved_model.meta_graphs[0].graph_def.library.function)
    metadata = metadata_cls()
    with open(os.path.join(directory, "keras_metadata.pb"), "rb") as f:
        metadata.ParseFromString(f.read())
    keras_nodes = []
    for node in metadata.nodes:
        parsed = json.loads(node.metadata)
        keras_nodes.append({"node_id": node.node_id, "node_path": node.node_path,
                            "identifier": node.identifier,
                            "version": [node.version.producer, node.version.min_consumer],
                            "class_name": parsed.get("class_name"), "name": parsed.get("name"),
                            "build_input_shape": parsed.get("build_input_shape")})
    ckpt = reader(os.path.join(directory, "variables", "variables"))
    graph = object_graph_cls()
    graph.ParseFromString(ckpt.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH"))
    checkpoint_nodes = [{"children": [[c.local_name, c.node_id] for c in node.children],
                         "attributes": [[a.name, a.full_name, a.checkpoint_key]
                                        for a in node.attributes]} for node in graph.nodes]
    return {"object_graph": nodes, "keras_metadata": keras_nodes,
            "concrete_functions": functions, "library": library,
            "checkpoint_keys": sorted(ckpt.get_variable_to_shape_map()),
            "checkpoint_object_graph": checkpoint_nodes}


def _revived_variables(tf: Any, root: Any) -> Dict[str, Any]:
    """Checkpoint-key path -> value of every variable `tf.saved_model.load` revived under
    `root`."""
    found: Dict[str, Any] = {}
    queue = [("", root)]
    seen = set()
    while queue:
        path, obj = queue.pop(0)
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, tf.Variable):
            found[path] = _listed(obj.numpy())
            continue
        for name, child in obj._trackable_children().items():
            escaped = name.replace(".", "..").replace("/", ".S")   # as checkpoint keys
            queue.append((f"{path}/{escaped}" if path else escaped, child))
    return found


def tf2_load(directory: str) -> Dict[str, Any]:
    """tf-keras's own loaders (TF2 behaviour) read tf1compat's directories."""
    import tensorflow as tf
    from tensorflow.core.protobuf import saved_model_pb2, trackable_object_graph_pb2
    from tf_keras.protobuf import saved_metadata_pb2
    result = {}
    from tests.golden.keras_features_util import features_and_labels
    for subdir, x in TF2_LOADED:
        path = os.path.join(directory, subdir)
        x = features_and_labels()[0] if x is None else x
        custom = ({"Sub": subclassed_class(tf)} if subdir.endswith("subclassed") else None)
        model = tf.keras.models.load_model(path, custom_objects=custom)
        optimizer = model.optimizer
        result[f"{subdir}.tf_keras_load_model"] = {
            "class": type(model).__name__, "layers": [layer.name for layer in model.layers],
            "weights": [w.name for w in model.weights],
            "values": [_listed(w) for w in model.get_weights()],
            "predict": _predicted(model, x),
            "optimizer": None if optimizer is None else type(optimizer).__name__,
            "loss": None if optimizer is None else _loss_names(model.loss)}
        loaded = tf.saved_model.load(path)
        result[f"{subdir}.tf_saved_model_load"] = _revived_variables(tf, loaded)
        signatures = getattr(loaded, "signatures", {})
        result[f"{subdir}.signatures"] = sorted(signatures.keys())
        if "serving_default" in signatures:
            function = signatures["serving_default"]
            (key,) = function.structured_input_signature[1]
            result[f"{subdir}.serving_default"] = {
                k: _listed(v) for k, v in function(**{key: tf.constant(x)}).items()}
        result[f"{subdir}.structure"] = directory_structure(
            path, saved_model_pb2.SavedModel, saved_metadata_pb2.SavedMetadata,
            trackable_object_graph_pb2.TrackableObjectGraph, tf.train.load_checkpoint)
    return result


def _run_tf(python: str, mode: str, directory: str) -> Dict[str, Any]:
    env = dict(os.environ, TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([python, os.path.abspath(__file__), mode, directory],
                          capture_output=True, text=True, env=env)
    if proc.returncode:
        sys.stderr.write(proc.stderr[-5000:])
        raise SystemExit(proc.returncode)
    return json.loads(proc.stdout)


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tf", default=TF_PYTHON, help="python of a TensorFlow venv")
    parser.add_argument("--tf-write", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--tf-read", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--tf2-load", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sys.path.insert(0, ROOT)
    if args.tf_write or args.tf_read or args.tf2_load:
        result = (tf_write(args.tf_write) if args.tf_write else
                  tf_read(args.tf_read) if args.tf_read else tf2_load(args.tf2_load))
        json.dump(result, sys.stdout, sort_keys=True)
        return 0
    record = _run_tf(args.tf, "--tf-write", os.path.join(FIXTURES, "saved_model_tf"))
    import tf1compat as tf
    model = build_and_train(tf)
    model.save(os.path.join(FIXTURES, "saved_model_tf1compat"), save_format="tf")
    record["tf1compat_written.predict"] = _listed(model.predict(INPUT))
    tf.reset_default_graph()
    tf.keras.backend.clear_session()
    model, features, _ = build_features_model(tf)
    model.save(os.path.join(FIXTURES, "saved_model_tf1compat_features"), save_format="tf")
    record["tf1compat_written_features.predict"] = _listed(model.predict(features))
    tf.reset_default_graph()
    tf.keras.backend.clear_session()
    model = build_functional(tf)
    model.save(os.path.join(FIXTURES, "saved_model_tf1compat_functional"), save_format="tf")
    record["tf1compat_written_functional.predict"] = _listed(model.predict(SEQUENCE))
    tf.reset_default_graph()
    tf.keras.backend.clear_session()
    model = build_subclassed(tf)
    model.save(os.path.join(FIXTURES, "saved_model_tf1compat_subclassed"), save_format="tf")
    record["tf1compat_written_subclassed.predict"] = _listed(model.predict(INPUT))
    tf.reset_default_graph()
    tf.keras.backend.clear_session()
    model = build_nested(tf)
    model.save(os.path.join(FIXTURES, "saved_model_tf1compat_nested"), save_format="tf")
    record["tf1compat_written_nested.predict"] = _predicted(model, SEQUENCE)
    record.update(_run_tf(args.tf, "--tf-read", FIXTURES))
    record.update(_run_tf(args.tf, "--tf2-load", FIXTURES))
    with open(os.path.join(FIXTURES, "saved_models.json"), "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"TensorFlow {record['tensorflow']} wrote and read Keras SavedModels; recorded "
          f"{os.path.join(FIXTURES, 'saved_models.json')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
