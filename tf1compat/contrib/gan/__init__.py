"""`tf.contrib.gan` (TFGAN): GAN model tuples and builders, losses (`losses`,
`losses.wargs`), `features` (weight clipping, conditioning, virtual batch norm, tensor
pools), `eval` (image grids, summaries, classifier score / Frechet distance with a user
classifier) and `estimator.GANEstimator`. TF 1.15 no longer ships it (it became the
tensorflow-gan package); the reference is TF 1.14's tensorflow/contrib/gan."""

# ruff: noqa: F401
from tf1compat.contrib.gan import features, losses, namedtuples, train
from tf1compat.contrib.gan import eval  # noqa: A004 - TF's submodule name
from tf1compat.contrib.gan.namedtuples import ACGANModel, CycleGANLoss, CycleGANModel, \
    GANLoss, GANModel, GANTrainOps, GANTrainSteps, InfoGANModel, StarGANModel
from tf1compat.contrib.gan.train import RunTrainOpsHook, acgan_model, cyclegan_loss, \
    cyclegan_model, gan_loss, gan_model, gan_train, gan_train_ops, get_joint_train_hooks, \
    get_sequential_train_hooks, get_sequential_train_steps, infogan_model, stargan_loss, \
    stargan_model
from tf1compat.contrib._missing import missing as _missing

import importlib as _importlib

__getattr_missing = _missing("tf.contrib.gan")


def __getattr__(name: str):
    # The estimator imports the Estimator stack: loaded on first use.
    if name == "estimator":
        module = _importlib.import_module("tf1compat.contrib.gan.estimator")
        globals()[name] = module
        return module
    return __getattr_missing(name)
