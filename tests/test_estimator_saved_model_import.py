"""A SavedModel exported by TF 2.15's Estimator for serving (serialized Examples in:
ParseExampleV2, embedding columns, resource variables with DisableCopyOnRead), loaded by
tf1compat's `tf.saved_model.loader.load`: every signature gives TF's outputs
(scripts/record_estimator_saved_model.py records the fixture)."""

import json
import os

import numpy as np
import pytest

import tf1compat as tf

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "tf_saved_model",
                       "estimator_parsing")


def _expected():
    with open(os.path.join(FIXTURE, "expected.json")) as f:
        return json.load(f)


@pytest.mark.parametrize("signature", sorted(_expected()["signatures"]))
def test_signature_gives_tf_outputs(signature):
    expected = _expected()
    examples = [bytes.fromhex(h) for h in expected["examples"]]
    want = expected["signatures"][signature]
    with tf.Session(graph=tf.Graph()) as sess:
        meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING],
                                          os.path.join(FIXTURE, "model"))
        sig = meta.signature_def[signature]
        assert sig.method_name == want["method_name"]
        (input_name,) = [t.name for t in sig.inputs.values()]
        got = sess.run({k: t.name for k, t in sig.outputs.items()}, {input_name: examples})
    assert sorted(got) == sorted(want["outputs"])
    for key, value in got.items():
        value = np.asarray(value)
        if value.dtype == object:
            assert [[v.decode() for v in row] for row in value.tolist()] == \
                want["outputs"][key], key
        else:
            np.testing.assert_allclose(value, np.asarray(want["outputs"][key]), rtol=1e-5,
                                       atol=1e-6, err_msg=key)
