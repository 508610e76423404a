"""Writes a SavedModel that TF 2.15's Estimator exports for serving (parsing input receiver:
serialized tf.train.Examples in, ParseExampleV2, resource variables with TF >= 2.12's
DisableCopyOnRead ops), with the outputs TF's own loader computes from it.

    /tmp/tf215/bin/python scripts/record_estimator_saved_model.py

Writes tests/fixtures/tf_saved_model/estimator_parsing/: the SavedModel (`model/`) and
`expected.json` (the serialized examples, hex, and each signature's outputs);
tests/test_estimator_saved_model_import.py loads it with tf1compat's loader.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "tf_saved_model", "estimator_parsing")

import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_v2_behavior()
tf.get_logger().setLevel("ERROR")


def _examples() -> list:
    out = []
    for i in range(3):
        features = {
            "x": tf.train.Feature(float_list=tf.train.FloatList(value=[0.1 * i, 0.2, 0.3])),
            "c": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"abc"[i:i + 1]]))}
        out.append(tf.train.Example(
            features=tf.train.Features(feature=features)).SerializeToString())
    return out


def main() -> int:
    cols = [tf.feature_column.numeric_column("x", shape=[3]),
            tf.feature_column.embedding_column(
                tf.feature_column.categorical_column_with_vocabulary_list("c", ["a", "b", "c"]),
                2)]
    work = tempfile.mkdtemp()
    est = tf.estimator.DNNClassifier([4], cols, n_classes=3, config=tf.estimator.RunConfig(
        tf_random_seed=3, model_dir=os.path.join(work, "model_dir")))
    rng = np.random.RandomState(0)

    def train_input():
        features = {"x": rng.rand(30, 3).astype(np.float32),
                    "c": np.array(["a", "b", "c"] * 10)}
        return tf.data.Dataset.from_tensor_slices(
            (features, rng.randint(0, 3, 30))).batch(10).repeat()
    est.train(train_input, steps=5)
    receiver = tf.estimator.export.build_parsing_serving_input_receiver_fn(
        tf.feature_column.make_parse_example_spec(cols))
    exported = est.export_saved_model(os.path.join(work, "export"), receiver).decode()
    shutil.rmtree(OUT, ignore_errors=True)
    shutil.copytree(exported, os.path.join(OUT, "model"))
    examples = _examples()
    expected = {"examples": [e.hex() for e in examples], "signatures": {}}
    with tf.Session(graph=tf.Graph()) as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], os.path.join(OUT, "model"))
        for key, sig in sorted(meta.signature_def.items()):
            (input_name,) = [t.name for t in sig.inputs.values()]
            names = {k: t.name for k, t in sig.outputs.items()}
            values = sess.run(names, {input_name: examples})
            expected["signatures"][key] = {
                "method_name": sig.method_name,
                "outputs": {k: (v.astype(str).tolist() if v.dtype == object else v.tolist())
                            for k, v in values.items()}}
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
    shutil.rmtree(work)
    print(f"estimator_parsing: {len(expected['signatures'])} signatures -> "
          f"{os.path.relpath(OUT, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
