"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-ll).

* google-research/bert (HEAD eedf571; run before in session realcode-j): its own tests
  (tokenization_test, optimization_test, modeling_test: 15, one the skipped
  `test_session` helper) pass unchanged under TF 2.21, TF 2.15 and tf1compat.
  run_classifier.py with a tiny BertConfig (2 layers, hidden 32, 2 heads, 60-word vocab),
  fake MRPC and CoLA dirs of 12/6/5 rows, --do_train/--do_eval/--do_predict, 5 steps through
  TPUEstimator(use_tpu=False), RunConfig given tf_random_seed (dropout 0.1 and the
  shuffle on) and init_checkpoint written by TF (MRPC) or by tf1compat (CoLA; the two
  seeded initial checkpoints are equal): the final loss, eval_accuracy / eval_loss and
  every prediction are TF's to the printed digits (probabilities within 3e-8), and all 124
  trained variables agree to 1.2e-7. create_pretraining_data.py writes the same 36
  examples (equal protos; the bytes differ only in the features map's order, which
  protobuf 7's upb draws per process: TF 2.21 differs from itself run to run);
  run_pretraining.py (5 steps, then 3 eval batches) prints TF's masked LM and next-sentence
  accuracies and losses exactly and ends within 6e-8 on all 139 variables;
  extract_features.py's JSON (layers -1, -2) has TF's tokens and values, 241 of 3200
  rounded values one unit off in the 6th decimal (float rounding).
* google-research/albert (HEAD b772393): modeling_test, optimization_test and
  tokenization_test (16, one skipped) pass under both. tokenization.py imports
  tensorflow_hub at the top (the 0.7 of its requirements.txt for TF 1.15; 0.15 under the
  TF 2.15 oracle, where 0.7 cannot import): on tf1compat `import tensorflow_hub` failed on
  `tensorflow.python.framework.op_def_registry`, `.smart_cond`,
  `tensorflow.python.training.tracking.data_structures` and
  `feature_column._DenseColumn` (hub's generated protos also need
  PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python with protobuf >= 4, as under TF). Fixed,
  hub 0.7's TF1 modules work: a module built with `hub.create_module_spec`, called,
  exported after assigning its variable and loaded back gives TF's outputs (hub 0.15 on
  TF 2.15), and each side loads the other's export with the assigned values.
  run_pretraining_test (`python -m run_pretraining_test --output_dir=... --do_train
  ...`, as run_trivial_model_test.sh) stopped at unittest's argument parser: tf1compat's
  `tf.test.main` handed all of sys.argv to unittest, where TF 1.x runs absltest inside
  `tf.app.run`, which takes the script's flags out first. Fixed; the test then trains,
  evaluates and fails its own `model.ckpt-best` check under both (its best-accuracy
  threshold starts at 0 and a 1-step model's masked LM accuracy is 0.0).
  run_classifier.py then ran unchanged on MRPC-shaped data (a 60-piece SentencePiece
  model, a 2-layer ALBERT config with dropout 0.1, 5 seeded steps, its eval loop over the
  step-0 and step-5 checkpoints and its best-checkpoint copy): the cached feature
  TFRecords are byte-identical, the final loss, both evaluations and best_trial.txt are
  TF's to the printed digits, and the 82 variables of model.ckpt-best agree to 1.2e-7.
"""

import os
import subprocess
import sys
import tempfile

_OPS = ("VariableV2", "VarHandleOp", "HashTableV2", "FIFOQueueV2", "Placeholder", "Const",
        "RandomUniform", "Assign", "MatMul", "AddN", "ConcatV2", "IdentityN", "NoOp")


def _op_def_registry(tf):
    import importlib
    if tf.__name__.startswith("tf1compat"):
        from tf1compat.shim import INTERNAL_PATHS
        return importlib.import_module(
            INTERNAL_PATHS["tensorflow.python.framework.op_def_registry"])
    return importlib.import_module("tensorflow.python.framework.op_def_registry")


def case_op_def_registry_signatures(tf):
    """`op_def_registry.get(name)` as tensorflow_hub reads it: which op types are
    stateful and take no inputs (a module's state graph), their argument names and
    kinds, the attr names and minimums; None for an unknown type."""
    registry = _op_def_registry(tf)
    out = {}
    for name in _OPS:
        op_def = registry.get(name)
        out[name] = {
            "name": op_def.name,
            "is_stateful": op_def.is_stateful,
            "stateful_without_inputs": op_def.is_stateful and not op_def.input_arg,
            "inputs": [(a.name, a.type, a.type_attr, a.number_attr, a.type_list_attr,
                        a.is_ref) for a in op_def.input_arg],
            "outputs": [(a.name, a.type, a.type_attr, a.is_ref) for a in op_def.output_arg],
            "attrs": [a.name for a in op_def.attr],
            "minimums": [(a.name, a.minimum) for a in op_def.attr
                         if a.has_minimum and a.type == "int"],
        }
    out["unknown"] = registry.get("NoSuchOpType") is None
    registry.sync()
    out["after_sync"] = registry.get("MatMul").name
    return out


def case_internal_dense_column_subclass(tf):
    """A library's own dense column (tensorflow_hub's text_embedding_column pattern): a
    namedtuple subclassing `feature_column._DenseColumn` from the internal module, fed
    through `tf.feature_column.input_layer`."""
    import collections
    import importlib
    if tf.__name__.startswith("tf1compat"):
        from tf1compat.shim import INTERNAL_PATHS
        fc = importlib.import_module(
            INTERNAL_PATHS["tensorflow.python.feature_column.feature_column"])
    else:
        fc = importlib.import_module("tensorflow.python.feature_column.feature_column")

    class _Doubled(fc._DenseColumn, collections.namedtuple("_Doubled", ["key"])):
        @property
        def name(self):
            return self.key + "_doubled"

        @property
        def _parse_example_spec(self):
            return {self.key: tf.FixedLenFeature([2], tf.float32)}

        def _transform_feature(self, inputs):
            return inputs.get(self.key) * 2.0

        @property
        def _variable_shape(self):
            return tf.TensorShape([2])

        def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
            return inputs.get(self)

    column = _Doubled("x")
    features = {"x": tf.constant([[1.0, 2.0], [3.0, -1.0]])}
    net = tf.feature_column.input_layer(features, [column, tf.feature_column.numeric_column(
        "x", shape=[2])])
    with tf.Session() as sess:
        value = sess.run(net)
    return {"value": value, "is_dense": isinstance(column, fc._DenseColumn),
            "spec": sorted(tf.feature_column.make_parse_example_spec([column]))}


_TEST_SCRIPT = """
{prelude}
tf.flags.DEFINE_integer("steps", 1, "a flag of the script")
tf.flags.DEFINE_string("name", "none", "another")
FLAGS = tf.flags.FLAGS


class FlagTest(tf.test.TestCase):
    def test_flags_seen(self):
        print("steps=%d name=%s" % (FLAGS.steps, FLAGS.name))
        self.assertEqual(FLAGS.steps, 3)

    def test_other(self):
        print("other ran")


if __name__ == "__main__":
    tf.test.main()
"""


def case_test_main_takes_script_flags(tf):
    """`python foo_test.py --steps=3 --name=x [TestName]` with `tf.test.main()` (ALBERT's
    run_pretraining_test): the script's flags are parsed, not handed to unittest, and a
    test name left over selects the test."""
    if tf.__name__.startswith("tf1compat"):
        import tf1compat
        prelude = "import tf1compat\ntf1compat.install()\nimport tensorflow as tf"
        path = os.path.dirname(os.path.dirname(tf1compat.__file__))
    else:
        prelude = "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()"
        path = ""
    env = dict(os.environ, PYTHONPATH=path, TF_CPP_MIN_LOG_LEVEL="3")
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "flag_test.py")
        with open(script, "w") as f:
            f.write(_TEST_SCRIPT.format(prelude=prelude))
        for key, args in (("all", ["--steps=3", "--name=x"]),
                          ("one", ["--steps=3", "--name=y", "FlagTest.test_flags_seen"]),
                          ("wrong", ["--steps=4"])):
            proc = subprocess.run([sys.executable, script] + args, capture_output=True,
                                  text=True, env=env, cwd=tmp, timeout=300)
            printed = [line for line in proc.stdout.splitlines()
                       if line.startswith(("steps=", "other"))]
            ran = [line.split()[1] for line in proc.stderr.splitlines()
                   if line.startswith("Ran ")]     # the count, not the time
            out[key] = {"rc": proc.returncode, "printed": sorted(printed), "ran": ran}
    return out
