"""`tf.contrib.learn.Estimator.export_savedmodel` with its heads' output alternatives:
signature keys, kinds and errors as TF 1.15's contrib/learn (estimators/estimator.py,
utils/saved_model_export_utils.py, estimators/head.py) builds them."""

import os

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.contrib.learn.estimator import NotFittedError

learn = tf.contrib.learn
X = np.random.RandomState(0).rand(8, 3).astype(np.float32)
Y = {"a": (X[:, 0] * 3).astype(np.int64), "r": X.sum(1)}


def _estimator(model_dir, head):
    def model_fn(features, labels, mode):
        return head.create_model_fn_ops(
            features, mode, labels, logits_input=features["x"],
            train_op_fn=lambda loss: tf.train.GradientDescentOptimizer(.1).minimize(
                loss, global_step=tf.train.get_global_step()))
    return learn.Estimator(model_fn=model_fn, model_dir=str(model_dir))


def _train(est, labels):
    est.fit(input_fn=lambda: ({"x": tf.constant(X)}, labels()), steps=1)


def _serving_fn():
    return learn.build_parsing_serving_input_fn(
        {"x": tf.FixedLenFeature([3], tf.float32)})


def _signatures(export_dir):
    tf.reset_default_graph()
    with tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], export_dir)
        return {k: (v.method_name, sorted(v.inputs), sorted(v.outputs))
                for k, v in meta.signature_def.items()}


def _example(row):
    return tf.train.Example(features=tf.train.Features(feature={
        "x": tf.train.Feature(float_list=tf.train.FloatList(value=row))})).SerializeToString()


def _two_heads():
    return learn.multi_head([learn.multi_class_head(3, label_name="a", head_name="a"),
                             learn.regression_head(label_name="r", head_name="r")])


def test_multi_head_export_has_a_signature_per_head(tmp_path):
    est = _estimator(tmp_path / "model", _two_heads())
    _train(est, lambda: {k: tf.constant(v) for k, v in Y.items()})
    export_dir = est.export_savedmodel(str(tmp_path / "export"), _serving_fn(),
                                       default_output_alternative_key="a")
    assert os.path.basename(os.fsdecode(export_dir)).isdigit()
    signatures = _signatures(export_dir)
    classify = ("tensorflow/serving/classify", ["inputs"], ["classes", "scores"])
    assert signatures == {
        "default_input_alternative:a": classify,
        "default_input_alternative:r": ("tensorflow/serving/regress", ["inputs"],
                                        ["outputs"]),
        "serving_default": classify}
    expected = list(est.predict(x={"x": X[:2]}))
    tf.reset_default_graph()
    with tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], export_dir)
        sig = meta.signature_def["default_input_alternative:a"]
        classes, scores = sess.run(
            [sig.outputs["classes"].name, sig.outputs["scores"].name],
            {sig.inputs["inputs"].name: [_example(X[0]), _example(X[1])]})
        assert classes.tolist() == [[b"0", b"1", b"2"]] * 2
        np.testing.assert_allclose(scores, [e[("a", "probabilities")] for e in expected],
                                   rtol=1e-5)
        regress = meta.signature_def["default_input_alternative:r"]
        out = sess.run(regress.outputs["outputs"].name,
                       {regress.inputs["inputs"].name: [_example(X[0])]})
        assert out == pytest.approx(float(expected[0][("r", "scores")]), rel=1e-5)
    with pytest.raises(ValueError, match="Please specify a default_output_alternative."):
        est.export_savedmodel(str(tmp_path / "export"), _serving_fn())
    with pytest.raises(ValueError, match=r"Requested default_output_alternative: b, but "
                                         r"available output_alternatives are: \['a', 'r'\]"):
        est.export_savedmodel(str(tmp_path / "export"), _serving_fn(),
                              default_output_alternative_key="b")


def test_unnamed_head_and_raw_feature_inputs(tmp_path):
    est = _estimator(tmp_path / "model", learn.multi_class_head(2))
    _train(est, lambda: tf.constant((X[:, 0] > .5).astype(np.int64)))
    serving = learn.utils.build_default_serving_input_fn(
        {"x": tf.constant(X), "k": tf.constant(X[:, :1])})
    export_dir = est.export_savedmodel(str(tmp_path / "export"), serving)
    # Two fed inputs: a predict signature of the head's export outputs.
    predict = ("tensorflow/serving/predict", ["k", "x"], ["classes", "probabilities"])
    assert _signatures(export_dir) == {"default_input_alternative:None": predict,
                                       "serving_default": predict}
    # One float input with a classification head: TF's classification signature wants
    # serialized tf.Examples.
    with pytest.raises(ValueError, match="Classification"):
        est.export_savedmodel(str(tmp_path / "export"),
                              learn.utils.build_default_serving_input_fn({"x": tf.constant(X)}))
    assert os.listdir(tmp_path / "export") == [os.path.basename(os.fsdecode(export_dir))]


def test_model_fn_without_output_alternatives_and_not_fitted(tmp_path):
    def model_fn(features, labels, mode):
        w = tf.Variable(1.0)
        loss = tf.constant(0.0) if labels is None else tf.reduce_mean(labels * w)
        return learn.ModelFnOps(mode, predictions={"y": features["x"] * w}, loss=loss,
                                train_op=tf.assign_add(tf.train.get_global_step(), 1))

    est = learn.Estimator(model_fn=model_fn, model_dir=str(tmp_path / "model"))
    with pytest.raises(NotFittedError, match="Couldn't find trained model at"):
        est.export_savedmodel(str(tmp_path / "export"), _serving_fn())
    est.fit(input_fn=lambda: ({"x": tf.constant(X)}, tf.constant(X)), steps=1)
    export_dir = est.export_savedmodel(str(tmp_path / "export"), _serving_fn())
    predict = ("tensorflow/serving/predict", ["examples"], ["y"])
    assert _signatures(export_dir) == {
        "default_input_alternative:default_output_alternative": predict,
        "serving_default": predict}
    with pytest.raises(ValueError, match="Requested default_output_alternative: a, but "
                                         r"available output_alternatives are: \[\]"):
        est.export_savedmodel(str(tmp_path / "export"), _serving_fn(),
                              default_output_alternative_key="a")


def test_graph_rewrite_specs_add_meta_graphs_under_other_tags(tmp_path):
    """Specs after the first, without transforms, add the served graph again under their
    tags (TF 1.15's meta_graph_transform with no transforms); transforms need TF's Graph
    Transform Tool."""
    from tf1compat.contrib.learn.estimator import GraphRewriteSpec
    est = _estimator(tmp_path / "model", _two_heads())
    _train(est, lambda: {k: tf.constant(v) for k, v in Y.items()})
    specs = (GraphRewriteSpec(["serve"], ()), GraphRewriteSpec(["serve", "tpu"], []),
             GraphRewriteSpec(["eval_graph"], ()))
    export_dir = est.export_savedmodel(str(tmp_path / "export"), _serving_fn(),
                                       default_output_alternative_key="a",
                                       graph_rewrite_specs=specs)
    graphs = []
    for tags in (["serve"], ["serve", "tpu"], ["eval_graph"]):
        tf.reset_default_graph()
        with tf.Session() as sess:
            meta = tf.saved_model.loader.load(sess, tags, export_dir)
            outputs = meta.signature_def["serving_default"].outputs
            scores = sess.run(outputs["scores"].name,
                              {"input_example_tensor:0": [_example(X[0])]})
            graphs.append((list(meta.meta_info_def.tags), sorted(meta.signature_def),
                           meta.graph_def.SerializeToString(), scores.tolist()))
    assert [g[0] for g in graphs] == [["serve"], ["serve", "tpu"], ["eval_graph"]]
    assert all(g[1:] == graphs[0][1:] for g in graphs)
    with pytest.raises(NotImplementedError, match=r"transforms \['strip_unused_nodes'\] need "
                                                  "TF's Graph Transform Tool"):
        est.export_savedmodel(str(tmp_path / "export"), _serving_fn(),
                              default_output_alternative_key="a",
                              graph_rewrite_specs=specs + (GraphRewriteSpec(
                                  ["x"], ["strip_unused_nodes"]),))
