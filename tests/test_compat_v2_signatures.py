"""`inspect.signature` of tf.compat.v2's functions against TF 2.21's parameter lists
(tests/fixtures/compat_v2/tf_v2_signatures.json, scripts/record_v2_signatures.py):
libraries compare v2 argspecs (TFP's prefer_static) and bind arguments by position."""

from __future__ import annotations

import inspect
import json
import os

import numpy as np

import tf1compat as tf
from tf1compat.api import compat_v2

_FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "compat_v2",
                        "tf_v2_signatures.json")

# Arguments TF added to v2 functions after TF 1.15 (DTensor layouts, the scatter/gather
# bad-index policy, Keras' serialization format, ...): tf1compat's v2 is TF 1.15's.
_ADDED_AFTER_TF115 = {
    "fill", "ones", "ones_like", "zeros", "zeros_like", "gather_nd", "scatter_nd",
    "tensor_scatter_nd_add", "tensor_scatter_nd_sub", "matmul", "linalg.matmul", "linspace",
    "math.bincount", "sparse.segment_mean", "sparse.segment_sqrt_n", "sparse.segment_sum",
    "nn.embedding_lookup_sparse", "nn.safe_embedding_lookup_sparse", "function",
    "feature_column.categorical_column_with_vocabulary_file",
    "keras.Input", "keras.layers.Input", "keras.backend.sparse_categorical_crossentropy",
    "keras.estimator.model_to_estimator",
    *(f"keras.{ns}.{fn}" for ns in ("activations", "constraints", "initializers", "layers",
                                    "losses", "metrics", "optimizers", "regularizers",
                                    "optimizers.schedules")
      for fn in ("serialize", "deserialize")),
}
# Functions whose TF 2.21 parameters tf1compat's (v1) function does not have yet.
_OTHER_KNOWN = {
    # argument names tf-keras renamed after 1.15
    "keras.utils.serialize_keras_object", "keras.utils.deserialize_keras_object",
    "keras.models.load_model", "keras.models.save_model",
    # v1 forms with other parameters than TF 2.21's v1 (TF 1.15's top_k took `name`
    # fourth, before TF added index_type; tf1compat's own with_space_to_batch options)
    "nn.top_k", "math.top_k", "nn.with_space_to_batch",
    # (*args, **kwargs) forwarders; applications tf1compat does not build (they raise
    # NotImplementedError when called); the ResNets, where tf-keras 2.21's ResNet50/101/152
    # take classifier_activation through **kwargs and its V2s take no **kwargs
    "config.experimental_connect_to_cluster", "config.experimental_connect_to_host",
    *(f"keras.applications.{n}" for n in (
        "InceptionResNetV2", "NASNetLarge", "NASNetMobile", "ResNet50", "ResNet101",
        "ResNet152", "ResNet50V2", "ResNet101V2", "ResNet152V2",
        "inception_resnet_v2.InceptionResNetV2", "nasnet.NASNetLarge", "nasnet.NASNetMobile",
        "resnet.ResNet50", "resnet.ResNet101", "resnet.ResNet152", "resnet50.ResNet50",
        "resnet_v2.ResNet50V2", "resnet_v2.ResNet101V2", "resnet_v2.ResNet152V2")),
    # not implemented (raise UnimplementedAPIError naming them)
    "experimental.function_executor_type", "load_library", "load_op_library",
    "quantization.dequantize", "quantization.quantize", "quantization.quantized_concat",
    "saved_model.load", "saved_model.save", "strings.unicode_script",
    "test.compute_gradient", "tpu.experimental.initialize_tpu_system",
}


def _ours(path: str):
    obj = compat_v2
    for part in path.split("."):
        obj = getattr(obj, part)
    return [p.name for p in inspect.signature(obj).parameters.values()]


def test_v2_parameter_names_are_tf_2_21s():
    with open(_FIXTURE) as f:
        recorded = json.load(f)
    differ = set()
    for path, params in recorded.items():
        if params is None:
            continue     # a class or a value in TF 2.21, or a name TF 2.21 dropped
        try:
            if _ours(path) != [p[0] for p in params]:
                differ.add(path)
        except (AttributeError, NotImplementedError):
            differ.add(path)
    assert differ == _ADDED_AFTER_TF115 | _OTHER_KNOWN


def test_v2_forms_without_v1s_deprecated_arguments():
    """v2's softmax/squeeze/norm have no `dim`/`squeeze_dims`/`keep_dims` (v1's do), and
    bind positionally as TF's: the third argument of v2's norm is `axis`."""
    v2 = tf.compat.v2
    assert list(inspect.signature(v2.nn.softmax).parameters) == ["logits", "axis", "name"]
    assert list(inspect.signature(v2.squeeze).parameters) == ["input", "axis", "name"]
    assert inspect.getfullargspec(v2.norm).args == ["tensor", "ord", "axis", "keepdims",
                                                    "name"]
    assert "dim" in inspect.signature(tf.nn.softmax).parameters
    with tf.Graph().as_default():
        x = tf.constant([[3.0, 4.0], [6.0, 8.0]])
        outs = [v2.nn.softmax(x, 0), v2.squeeze(tf.zeros([1, 2]), 0),
                v2.norm(x, "euclidean", 1), v2.nn.l2_normalize(x, dim=1)]
        with tf.Session() as sess:
            soft, squeezed, norm, normalized = sess.run(outs)
    np.testing.assert_allclose(soft[:, 0], [0.04742587, 0.95257413], rtol=1e-6)
    assert squeezed.shape == (2,)
    np.testing.assert_allclose(norm, [5.0, 10.0])
    np.testing.assert_allclose(normalized, [[0.6, 0.8], [0.6, 0.8]], rtol=1e-6)
    try:
        v2.nn.softmax(x, dim=0)
    except TypeError as e:
        assert "dim" in str(e)
    else:
        raise AssertionError("v2's softmax took v1's `dim`")


def test_io_gfile_walk_hands_an_unlistable_directory_to_onerror(tmp_path):
    """TF's walk calls `onerror` with a NotFoundError (TF 2.21 then fails on its own
    unbound listing; tf1compat stops, as TF does without `onerror`)."""
    errors = []
    assert list(tf.io.gfile.walk(str(tmp_path / "missing"), onerror=errors.append)) == []
    assert [type(e) for e in errors] == [tf.errors.NotFoundError]
    assert list(tf.compat.v2.io.gfile.walk(str(tmp_path / "missing"))) == []
