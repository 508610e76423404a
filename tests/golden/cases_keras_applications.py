"""Golden cases: `tf.keras.applications` against tf-keras 2.21.

Each architecture is built with `weights=None` at a small input size; every weight is then
set by a seeded rule (tf-keras and tf1compat list a model's weights in the same order), so
the recorded logits of a seeded, preprocessed input check the whole network without
storing any weights file. Layer names, parameter counts and output shapes are recorded
as they are; weight names and shapes as a digest (hundreds of them per model).
"""

import hashlib
import os
import tempfile

import numpy as np

from tests.golden.harness import catch, tolerance


def _deterministic_weights(model):
    values = []
    for i, w in enumerate(model.weights):
        shape = tuple(int(d) for d in w.shape)
        u = np.random.RandomState(i).uniform(-1, 1, size=shape)
        name = w.name
        if "moving_variance" in name:
            v = 1.0 + 0.5 * np.abs(u)
        elif "gamma" in name:
            v = 1.0 + 0.1 * u
        elif len(shape) == 1:
            v = 0.1 * u
        else:
            fan_in = np.prod(shape[:2]) if "depthwise" in name else np.prod(shape[:-1])
            v = u * np.sqrt(3.0 / fan_in)
        values.append(v.astype(np.float32))
    model.set_weights(values)


def _digest(model):
    text = ";".join(f"{w.name}{tuple(int(d) for d in w.shape)}" for w in model.weights)
    return hashlib.md5(text.encode()).hexdigest()


def _summary(model):
    trainable = int(sum(np.prod(w.shape) for w in model.trainable_weights))
    return {"name": model.name, "layers": [layer.name for layer in model.layers],
            "params": int(model.count_params()), "trainable": trainable,
            "output_shape": list(model.output_shape), "weights": len(model.weights),
            "weight_digest": _digest(model)}


def _image_batch(size, seed=0):
    return np.random.RandomState(seed).uniform(0, 255, size=(2, size, size, 3))


def _check(tf, module, ctor, size, **kwargs):
    apps = tf.keras.applications
    build = getattr(getattr(apps, module), ctor)
    model = build(weights=None, input_shape=(size, size, 3), classes=7,
                  classifier_activation=None, **kwargs)
    out = _summary(model)
    _deterministic_weights(model)
    x = getattr(apps, module).preprocess_input(_image_batch(size).astype(np.float32))
    out["logits"] = model.predict(x, batch_size=2)
    for pooling in ("avg", "max", None):
        headless = build(weights=None, include_top=False, pooling=pooling, **kwargs)
        out[f"notop_{pooling}"] = {"output_shape": list(headless.output_shape),
                                   "params": int(headless.count_params()),
                                   "name": headless.name}
    return out


@tolerance(rtol=2e-3, atol=2e-4)
def case_vgg(tf):
    return {"vgg16": _check(tf, "vgg16", "VGG16", 32),
            "vgg19": _check(tf, "vgg19", "VGG19", 32)}


@tolerance(rtol=2e-3, atol=2e-4)
def case_resnet_v1(tf):
    return {"resnet50": _check(tf, "resnet50", "ResNet50", 32),
            "resnet101": _check(tf, "resnet", "ResNet101", 32)}


@tolerance(rtol=2e-3, atol=2e-4)
def case_resnet_v2(tf):
    return {"resnet50v2": _check(tf, "resnet_v2", "ResNet50V2", 32)}


@tolerance(rtol=2e-3, atol=2e-4)
def case_mobilenets(tf):
    return {"mobilenet": _check(tf, "mobilenet", "MobileNet", 32),
            "mobilenet_half_dm2": _check(tf, "mobilenet", "MobileNet", 40, alpha=0.5,
                                         depth_multiplier=2, dropout=0.2),
            "mobilenet_v2": _check(tf, "mobilenet_v2", "MobileNetV2", 33),
            "mobilenet_v2_035": _check(tf, "mobilenet_v2", "MobileNetV2", 32, alpha=0.35),
            "mobilenet_v2_13": _check(tf, "mobilenet_v2", "MobileNetV2", 32, alpha=1.3)}


@tolerance(rtol=2e-3, atol=2e-4)
def case_inception_xception(tf):
    return {"inception_v3": _check(tf, "inception_v3", "InceptionV3", 75),
            "xception": _check(tf, "xception", "Xception", 71)}


@tolerance(rtol=2e-3, atol=2e-4)
def case_densenets(tf):
    return {"densenet121": _check(tf, "densenet", "DenseNet121", 32),
            "densenet169": _check(tf, "densenet", "DenseNet169", 32)}


def case_full_size_shapes(tf):
    """The default (ImageNet) configurations: names, parameter counts, input shapes."""
    apps = tf.keras.applications
    out = {}
    for ctor in ("MobileNet", "MobileNetV2", "ResNet50", "InceptionV3", "Xception",
                 "DenseNet121"):
        model = getattr(apps, ctor)(weights=None)
        out[ctor] = {"name": model.name, "params": int(model.count_params()),
                     "input_shape": list(model.input_shape),
                     "output_shape": list(model.output_shape)}
    notop = apps.ResNet50V2(weights=None, include_top=False)
    out["resnet50v2_notop"] = {"input_shape": list(notop.input_shape),
                               "output_shape": list(notop.output_shape)}
    mobile = apps.MobileNetV2(weights=None, input_shape=(160, 160, 3), include_top=False)
    out["mobilenetv2_160"] = {"name": mobile.name, "params": int(mobile.count_params())}
    return out


@tolerance(rtol=1e-5, atol=1e-5)
def case_weights_file_and_input_tensor(tf):
    apps = tf.keras.applications
    model = apps.MobileNetV2(weights=None, input_shape=(32, 32, 3), alpha=0.35, classes=4)
    _deterministic_weights(model)
    x = apps.mobilenet_v2.preprocess_input(_image_batch(32, 1))
    out = {"direct": model.predict(x)}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "w.h5")
        model.save_weights(path)
        loaded = apps.MobileNetV2(weights=path, input_shape=(32, 32, 3), alpha=0.35,
                                  classes=4)
        out["loaded"] = loaded.predict(x)
        # (no message: it shows the activation function's repr, with its address)
        out["wrong_activation"] = catch(lambda: apps.MobileNetV2(
            weights=path, input_shape=(32, 32, 3), alpha=0.35, classes=4,
            classifier_activation="relu"))
    inp = tf.keras.Input(shape=(48, 48, 3))
    base = apps.ResNet50(weights=None, include_top=False, input_tensor=inp, pooling="avg")
    out["input_tensor"] = {"input_shape": list(base.input_shape),
                           "output_shape": list(base.output_shape),
                           "same_input": base.inputs[0] is inp}
    head = tf.keras.layers.Dense(3, name="head")(base.output)
    out["transfer_layers"] = len(tf.keras.Model(inp, head).layers)
    return out


def case_argument_errors(tf):
    apps = tf.keras.applications
    return {
        "bad_weights": catch(lambda: apps.VGG16(weights="/no/such/file.h5")),
        "imagenet_classes": catch(lambda: apps.ResNet50(weights="imagenet", classes=10)),
        "top_needs_static": catch(lambda: apps.VGG19(weights=None,
                                                     input_shape=(None, None, 3)),
                                  message=True),
        "too_small": catch(lambda: apps.InceptionV3(weights=None, input_shape=(60, 60, 3)),
                           message=True),
        "rank": catch(lambda: apps.DenseNet121(weights=None, input_shape=(32, 32)),
                      message=True),
        "imagenet_shape": catch(lambda: apps.Xception(weights="imagenet",
                                                      input_shape=(100, 100, 3)),
                                message=True),
        "imagenet_channels": catch(lambda: apps.ResNet50V2(
            weights="imagenet", include_top=False, input_shape=(64, 64, 1)), message=True),
        "mobilenet_alpha": catch(lambda: apps.MobileNet(weights="imagenet", alpha=0.3),
                                 message=True),
        "mobilenet_dm": catch(lambda: apps.MobileNet(weights="imagenet",
                                                     depth_multiplier=2), message=True),
        "mobilenet_v2_alpha": catch(lambda: apps.MobileNetV2(weights="imagenet",
                                                             alpha=0.6), message=True),
        "unknown_kwarg": catch(lambda: apps.ResNet50(weights=None, foo=1), message=True),
    }


def case_preprocess_input(tf):
    apps = tf.keras.applications
    rgb = np.arange(2 * 2 * 3 * 2, dtype=np.float32).reshape(2, 2, 3, 2).transpose(0, 1, 3, 2)
    out = {}
    for mode in ("caffe", "tf", "torch"):
        out[f"{mode}_last"] = apps.imagenet_utils.preprocess_input(np.copy(rgb), mode=mode)
        out[f"{mode}_first"] = apps.imagenet_utils.preprocess_input(
            np.transpose(rgb, (0, 3, 1, 2)).copy(), data_format="channels_first", mode=mode)
        out[f"{mode}_first_single"] = apps.imagenet_utils.preprocess_input(
            np.transpose(rgb[0], (2, 0, 1)).copy(), data_format="channels_first",
            mode=mode)
    out["uint8"] = apps.vgg16.preprocess_input(np.full((1, 1, 3), 200, dtype=np.uint8))
    in_place = np.ones((1, 1, 1, 3), dtype=np.float32) * 255
    apps.mobilenet.preprocess_input(in_place)
    out["in_place"] = in_place
    for module in ("vgg19", "resnet", "resnet50", "resnet_v2", "mobilenet_v2",
                   "inception_v3", "densenet", "xception", "nasnet", "inception_resnet_v2",
                   "efficientnet", "convnext", "regnet", "resnet_rs", "mobilenet_v3",
                   "efficientnet_v2"):
        out[module] = getattr(apps, module).preprocess_input(np.copy(rgb))
    with tf.Session() as sess:
        for mode in ("caffe", "tf", "torch"):
            for fmt, data in (("channels_last", rgb), ("channels_first",
                                                       np.transpose(rgb, (0, 3, 1, 2)))):
                t = tf.constant(np.ascontiguousarray(data))
                out[f"tensor_{mode}_{fmt}"] = sess.run(
                    apps.imagenet_utils.preprocess_input(t, data_format=fmt, mode=mode))
    out["bad_mode"] = catch(lambda: apps.imagenet_utils.preprocess_input(rgb, mode="x"),
                            message=True)
    out["bad_format"] = catch(lambda: apps.imagenet_utils.preprocess_input(
        rgb, data_format="nhwc"), message=True)
    out["decode_shape"] = catch(lambda: apps.imagenet_utils.decode_predictions(
        np.zeros((2, 10))), message=True)
    return out
