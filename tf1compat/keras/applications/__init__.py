"""`tf.keras.applications`: tf-keras 2.21's image classification networks VGG16/19,
ResNet50/101/152 (v1 and V2), MobileNet, MobileNetV2, InceptionV3, DenseNet121/169/201
and Xception (same layer names, shapes and parameter counts; weights None, an `.h5` path
or "imagenet"), and per-architecture `preprocess_input` / `decode_predictions`.

The other architectures of TF's list (ConvNeXt, EfficientNet(V2), InceptionResNetV2,
MobileNetV3, NASNet, RegNet, ResNetRS) raise NotImplementedError naming the one called;
their modules' `preprocess_input` and `decode_predictions` work.
"""

from __future__ import annotations

import types
from typing import Any, Callable, Optional

from tf1compat.keras.applications import (imagenet_utils, nets_densenet, nets_inception,
                                          nets_mobilenet, nets_resnet, nets_vgg,
                                          nets_xception)
from tf1compat.keras.applications.nets_densenet import DenseNet121, DenseNet169, DenseNet201
from tf1compat.keras.applications.nets_inception import InceptionV3
from tf1compat.keras.applications.nets_mobilenet import MobileNet, MobileNetV2
from tf1compat.keras.applications.nets_resnet import (ResNet50, ResNet50V2, ResNet101,
                                                      ResNet101V2, ResNet152, ResNet152V2)
from tf1compat.keras.applications.nets_vgg import VGG16, VGG19
from tf1compat.keras.applications.nets_xception import Xception

_decode = imagenet_utils.decode_predictions


def _identity_preprocess(x: Any, data_format: Optional[str] = None) -> Any:
    """A no-op kept for API compatibility: these models rescale their inputs in-graph."""
    return x


def _not_provided(name: str) -> Callable:
    def build(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f"tf.keras.applications.{name} is not provided by tf1compat (its applications "
            "are VGG16/19, ResNet50/101/152 and their V2, MobileNet, MobileNetV2, "
            "InceptionV3, DenseNet121/169/201 and Xception)")
    build.__name__ = build.__qualname__ = name
    build.__doc__ = f"Not provided: raises NotImplementedError ({name})."
    return build


def _module(name: str, preprocess: Callable, *models: Any) -> types.ModuleType:
    """`tf.keras.applications.<name>`: its models, preprocess_input, decode_predictions."""
    module = types.ModuleType(f"{__name__}.{name}",
                              f"tf.keras.applications.{name}: models and preprocessing")
    for model in models:
        setattr(module, model if isinstance(model, str) else model.__name__,
                _not_provided(model) if isinstance(model, str) else model)
    module.preprocess_input = preprocess
    module.decode_predictions = _decode
    return module


_EFFICIENTNETS = [f"EfficientNetB{i}" for i in range(8)]
_EFFICIENTNETS_V2 = [f"EfficientNetV2{s}" for s in ("B0", "B1", "B2", "B3", "L", "M", "S")]
_REGNETS = [f"RegNet{kind}{size}" for kind in "XY" for size in
            ("002", "004", "006", "008", "016", "032", "040", "064", "080", "120", "160",
             "320")]
_RESNET_RS = [f"ResNetRS{d}" for d in (50, 101, 152, 200, 270, 350, 420)]
_CONVNEXTS = [f"ConvNeXt{s}" for s in ("Base", "Large", "Small", "Tiny", "XLarge")]

_caffe_preprocess = nets_resnet.preprocess_input
_tf_preprocess = nets_mobilenet.preprocess_input
vgg16 = _module("vgg16", nets_vgg.preprocess_input, VGG16)
vgg19 = _module("vgg19", nets_vgg.preprocess_input, VGG19)
resnet = _module("resnet", _caffe_preprocess, ResNet50, ResNet101, ResNet152)
resnet50 = _module("resnet50", _caffe_preprocess, ResNet50)
resnet_v2 = _module("resnet_v2", nets_resnet.preprocess_input_v2, ResNet50V2, ResNet101V2,
                    ResNet152V2)
mobilenet = _module("mobilenet", _tf_preprocess, MobileNet)
mobilenet_v2 = _module("mobilenet_v2", _tf_preprocess, MobileNetV2)
inception_v3 = _module("inception_v3", nets_inception.preprocess_input, InceptionV3)
densenet = _module("densenet", nets_densenet.preprocess_input, DenseNet121, DenseNet169, DenseNet201)
xception = _module("xception", nets_xception.preprocess_input, Xception)
convnext = _module("convnext", _identity_preprocess, *_CONVNEXTS)
efficientnet = _module("efficientnet", _identity_preprocess, *_EFFICIENTNETS)
efficientnet_v2 = _module("efficientnet_v2", _identity_preprocess, *_EFFICIENTNETS_V2)
inception_resnet_v2 = _module("inception_resnet_v2", _tf_preprocess, "InceptionResNetV2")
mobilenet_v3 = _module("mobilenet_v3", _identity_preprocess)
nasnet = _module("nasnet", _tf_preprocess, "NASNetLarge", "NASNetMobile")
regnet = _module("regnet", _identity_preprocess, *_REGNETS)
resnet_rs = _module("resnet_rs", _identity_preprocess, *_RESNET_RS)

_UNPROVIDED = (_CONVNEXTS + _EFFICIENTNETS + _EFFICIENTNETS_V2 + _REGNETS + _RESNET_RS +
               ["InceptionResNetV2", "MobileNetV3Large", "MobileNetV3Small", "NASNetLarge",
                "NASNetMobile"])
globals().update({name: _not_provided(name) for name in _UNPROVIDED})

__all__ = (["VGG16", "VGG19", "ResNet50", "ResNet101", "ResNet152", "ResNet50V2",
            "ResNet101V2", "ResNet152V2", "MobileNet", "MobileNetV2", "InceptionV3",
            "DenseNet121", "DenseNet169", "DenseNet201", "Xception", "imagenet_utils",
            "vgg16", "vgg19", "resnet", "resnet50", "resnet_v2", "mobilenet",
            "mobilenet_v2", "inception_v3", "densenet", "xception", "convnext",
            "efficientnet", "efficientnet_v2", "inception_resnet_v2", "mobilenet_v3",
            "nasnet", "regnet", "resnet_rs"] + _UNPROVIDED)
