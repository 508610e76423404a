"""`slim.nets`: TF-Slim's model zoo of TF 1.15 (alexnet, overfeat, vgg, inception v1-v3,
resnet v1/v2), built from slim layers; end_points, variable names and shapes as TF's."""

# ruff: noqa: F401
from tf1compat.contrib.slim.nets import (alexnet, inception, inception_v1, inception_v2,
                                         inception_v3, overfeat, resnet_utils, resnet_v1,
                                         resnet_v2, vgg)
