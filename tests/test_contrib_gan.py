"""tf.contrib.gan pieces without a golden recording: the Inception metrics, which need
TF's downloaded frozen Inception graph, and the parts of TFGAN tf1compat leaves out."""

import os

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.framework.missing import UnimplementedAPIError

gan = tf.contrib.gan


@pytest.mark.parametrize("metric", ["inception_score", "frechet_inception_distance",
                                    "kernel_inception_distance",
                                    "kernel_inception_distance_and_std"])
def test_inception_metrics_name_the_graph_they_need(metric, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with tf.Graph().as_default():
        images = tf.zeros([2, 299, 299, 3])
        args = (images,) if metric == "inception_score" else (images, images)
        with pytest.raises(NotImplementedError, match="inceptionv1_for_inception_score.pb"):
            getattr(gan.eval, metric)(*args)


def test_run_inception_with_a_graph_def_imports_it():
    with tf.Graph().as_default() as classifier:
        x = tf.placeholder(tf.float32, [None, 4, 4, 3], name="Mul")
        tf.reduce_mean(x, [1, 2], name="pool_3")
    graph_def = classifier.as_graph_def()
    with tf.Graph().as_default():
        images = tf.constant(np.arange(96, dtype=np.float32).reshape(2, 4, 4, 3))
        out = gan.eval.run_inception(images, graph_def=graph_def, image_size=4,
                                     output_tensor="pool_3:0")
        with tf.Session() as sess:
            value = sess.run(out)
    np.testing.assert_allclose(value, np.arange(96, dtype=np.float32).reshape(2, 16, 3)
                               .mean(1))
    assert out.shape.as_list() == [2, 3]


def test_graph_def_helpers(tmp_path):
    with tf.Graph().as_default() as graph:
        tf.constant(1.0, name="c")
    path = os.path.join(tmp_path, "g.pb")
    with open(path, "wb") as f:
        f.write(graph.as_graph_def().SerializeToString())
    names = [n.name for n in gan.eval.get_graph_def_from_disk(path).node]
    assert names == ["c"]
    with pytest.raises(NotImplementedError, match="does not download"):
        gan.eval.get_graph_def_from_url_tarball("http://example.com/x.tgz", "g.pb")
    with pytest.raises(NotImplementedError, match="get_graph_def_from_disk"):
        gan.eval.get_graph_def_from_resource("g.pb")


def test_missing_parts_raise():
    with pytest.raises((AttributeError, UnimplementedAPIError), match="tf.contrib.gan"):
        gan.features.spectral_norm  # noqa: B018
    with pytest.raises((AttributeError, UnimplementedAPIError), match="tf.contrib.gan"):
        gan.estimator.LatentGanEstimator  # noqa: B018
