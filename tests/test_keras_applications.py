"""tf.keras.applications and keras.utils.get_file beyond the goldens: the ImageNet class
index and weights through the Keras cache (offline: a clear error, nothing left behind),
and the architectures tf1compat does not provide."""

import hashlib
import json
import os
import subprocess
import sys
import textwrap
import urllib.error
import urllib.request

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.keras.applications import imagenet_utils
from tests.child_env import child_env


@pytest.fixture
def keras_home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(imagenet_utils, "_class_index", None)
    # tf-keras falls back to /tmp/.keras when ~/.keras is missing or not writable.
    (tmp_path / ".keras").mkdir()
    return tmp_path / ".keras"


def _offline(monkeypatch):
    calls = []

    def refuse(url, filename, *args):
        calls.append(url)
        with open(filename, "wb") as f:
            f.write(b"partial")
        raise urllib.error.URLError(OSError(101, "Network is unreachable"))
    monkeypatch.setattr(urllib.request, "urlretrieve", refuse)
    return calls


def test_decode_predictions_reads_the_cached_class_index(keras_home, monkeypatch):
    calls = _offline(monkeypatch)
    index = {str(i): [f"n{i:08d}", f"class_{i}"] for i in range(1000)}
    (keras_home / "models").mkdir()
    cached = keras_home / "models" / "imagenet_class_index.json"
    cached.write_text(json.dumps(index))
    preds = np.zeros((2, 1000), dtype=np.float32)
    preds[0, [5, 7, 9]] = [0.2, 0.5, 0.3]
    preds[1, 999] = 1.0
    # A cached file whose md5 differs from tf-keras's is fetched again (here: offline).
    with pytest.raises(Exception, match="URL fetch failure"):
        tf.keras.applications.resnet50.decode_predictions(preds, top=3)
    assert calls == [imagenet_utils.CLASS_INDEX_PATH]
    assert cached.exists()
    monkeypatch.setattr(imagenet_utils, "_CLASS_INDEX_MD5",
                        hashlib.md5(cached.read_bytes()).hexdigest())
    decoded = tf.keras.applications.resnet50.decode_predictions(preds, top=3)
    assert [entry[:2] for entry in decoded[0]] == [("n00000007", "class_7"),
                                                   ("n00000009", "class_9"),
                                                   ("n00000005", "class_5")]
    assert decoded[0][0][2] == pytest.approx(0.5)
    assert decoded[1][0][:2] == ("n00000999", "class_999")
    assert len(calls) == 1


def test_offline_download_fails_clearly_and_leaves_nothing(keras_home, monkeypatch):
    calls = _offline(monkeypatch)
    with pytest.raises(Exception, match="URL fetch failure on https://storage.googleapis"
                                        ".com/tensorflow/keras-applications/resnet/"
                                        "resnet50_weights_tf_dim_ordering_tf_kernels_"
                                        "notop.h5") as info:
        tf.keras.applications.ResNet50(weights="imagenet", include_top=False)
    assert "place it at" in str(info.value)
    assert len(calls) == 1
    assert os.listdir(keras_home / "models") == []


def test_imagenet_weights_come_from_the_cache(keras_home, monkeypatch, tmp_path):
    calls = _offline(monkeypatch)
    model = tf.keras.applications.MobileNet(weights=None, include_top=False, alpha=0.25,
                                            input_shape=(128, 128, 3))
    model.set_weights([np.full(w.shape, 0.01 * (i + 1), dtype=np.float32)
                       for i, w in enumerate(model.get_weights())])
    (keras_home / "models").mkdir()
    model.save_weights(str(keras_home / "models" / "mobilenet_2_5_128_tf_no_top.h5"))
    tf.reset_default_graph()
    loaded = tf.keras.applications.MobileNet(weights="imagenet", include_top=False,
                                             alpha=0.25, input_shape=(128, 128, 3))
    assert calls == []
    for w in loaded.get_weights():
        assert np.unique(w).size == 1


def test_get_file_downloads_through_a_temporary_file(keras_home, monkeypatch, tmp_path):
    payload = b"hello keras"
    source = tmp_path / "src.txt"
    source.write_bytes(payload)
    path = tf.keras.utils.get_file("hello.txt", source.as_uri(),
                                   file_hash=hashlib.sha256(payload).hexdigest())
    assert path == str(keras_home / "datasets" / "hello.txt")
    assert open(path, "rb").read() == payload
    with pytest.raises(ValueError, match="Incomplete or corrupted file"):
        tf.keras.utils.get_file("other.txt", source.as_uri(), md5_hash="0" * 32)
    assert sorted(os.listdir(keras_home / "datasets")) == ["hello.txt"]


@pytest.mark.parametrize("name", ["EfficientNetB0", "NASNetMobile", "MobileNetV3Small",
                                  "InceptionResNetV2", "ConvNeXtTiny", "RegNetX002",
                                  "ResNetRS50", "EfficientNetV2S"])
def test_unprovided_architectures_say_so(name):
    with pytest.raises(NotImplementedError, match=f"tf.keras.applications.{name} is not"):
        getattr(tf.keras.applications, name)(weights=None)


def test_unprovided_modules_keep_their_preprocessing():
    with pytest.raises(NotImplementedError, match="EfficientNetB3"):
        tf.keras.applications.efficientnet.EfficientNetB3()
    x = np.ones((1, 2, 2, 3), dtype=np.float32)
    assert tf.keras.applications.efficientnet.preprocess_input(x) is x


def test_tutorial_style_imports_through_the_shim():
    code = textwrap.dedent("""
        import tf1compat; tf1compat.install()
        from tensorflow.keras.applications.resnet50 import ResNet50, preprocess_input
        from tensorflow.keras.applications import vgg16
        import tensorflow.keras.applications.mobilenet_v2 as mobilenet_v2
        from tensorflow.keras.preprocessing.image import ImageDataGenerator, load_img
        from tensorflow.keras.preprocessing.text import Tokenizer
        from tensorflow.keras.preprocessing.sequence import pad_sequences
        from tensorflow.keras.utils import get_file, img_to_array
        assert vgg16.VGG16.__name__ == "VGG16" and mobilenet_v2.MobileNetV2
        print("ok")
    """)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=root, env=child_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"
