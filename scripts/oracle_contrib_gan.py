"""`tf.contrib.gan` (TFGAN) for the golden recorders: TF 1.14's contrib/gan sources
executed under the oracle's TF (recording only, never in CI).

TF 1.15's wheel no longer ships contrib/gan (it moved to the tensorflow-gan package), so
the reference is the last TF that had it, 1.14:

    pip download --no-deps --python-version 3.7 --only-binary=:all: \\
        --platform manylinux1_x86_64 tensorflow==1.14.0 -d /tmp/tf114whl
    unzip -q /tmp/tf114whl/tensorflow-1.14.0-*.whl \\
        'tensorflow-1.14.0.data/purelib/tensorflow/contrib/gan/*' -d /tmp/tf114whl
    mkdir -p /tmp/tf114src && cp -r /tmp/tf114whl/tensorflow-1.14.0.data/purelib/tensorflow \\
        /tmp/tf114src/
    PYTHONPATH=scripts /tmp/tf/bin/python scripts/record_goldens.py cases_contrib_gan

The modules are loaded under their TF 1.14 names (`tensorflow.contrib.gan.python...`);
the contrib modules they import are stand-ins: `contrib.framework`'s
get_trainable_variables (the TRAINABLE_VARIABLES collection filtered by scope),
`contrib.training` and `contrib.opt`'s VariableClippingOptimizer (TF 1.15's own sources
through oracle_contrib.tf115_package), `contrib.layers`' linear/flatten (a
`fully_connected` scope with `weights`/`biases`, as contrib.layers names them).
"""

import importlib.util
import os
import sys
import types

import oracle_contrib

_GAN = "tensorflow.contrib.gan.python"


def _module(name: str, **attrs) -> types.ModuleType:
    module = sys.modules.get(name)
    if module is None:
        module = types.ModuleType(name)
        module.__path__ = []
        sys.modules[name] = module
        parent, _, leaf = name.rpartition(".")
        if parent and parent in sys.modules:
            setattr(sys.modules[parent], leaf, module)
    vars(module).update(attrs)
    return module


def _load(relative: str) -> types.ModuleType:
    root = os.environ.get("TF114_SRC", "/tmp/tf114src/tensorflow")
    name = f"{_GAN}.{relative}"
    path = os.path.join(root, "contrib", "gan", "python", *relative.split(".")) + ".py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    parent, _, leaf = name.rpartition(".")
    _module(parent)
    setattr(sys.modules[parent], leaf, module)
    spec.loader.exec_module(module)
    return module


def _public(*modules) -> types.SimpleNamespace:
    out = {}
    for module in modules:
        out.update({k: getattr(module, k) for k in module.__all__})
    return types.SimpleNamespace(**out)


def _stand_ins(tf) -> None:
    oracle_contrib._restore_moved_tf_names()

    def get_trainable_variables(scope=None, suffix=None):
        name = getattr(scope, "name", scope)
        found = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, name)
        return [v for v in found if suffix is None or v.op.name.endswith(suffix)]

    def linear(inputs, num_outputs, scope=None):
        with tf.variable_scope(scope, "fully_connected", [inputs]):
            weights = tf.get_variable("weights", [inputs.shape[-1], num_outputs],
                                      initializer=tf.initializers.glorot_uniform())
            biases = tf.get_variable("biases", [num_outputs],
                                     initializer=tf.zeros_initializer())
            return tf.nn.bias_add(tf.matmul(inputs, weights), biases)

    def flatten(inputs):
        return tf.reshape(inputs, [tf.shape(inputs)[0], -1])

    for name in ("tensorflow.contrib", "tensorflow.contrib.framework",
                 "tensorflow.contrib.framework.python", "tensorflow.contrib.framework.python.ops",
                 "tensorflow.contrib.layers", "tensorflow.contrib.layers.python",
                 "tensorflow.contrib.layers.python.layers", "tensorflow.contrib.training",
                 "tensorflow.contrib.training.python",
                 "tensorflow.contrib.training.python.training", "tensorflow.contrib.opt",
                 "tensorflow.contrib.opt.python", "tensorflow.contrib.opt.python.training",
                 "tensorflow.contrib.slim", "tensorflow.contrib.slim.python",
                 "tensorflow.contrib.slim.python.slim", "tensorflow.contrib.gan", _GAN):
        _module(name)
    _module("tensorflow.contrib.framework.python.ops.variables",
            get_trainable_variables=get_trainable_variables)
    _module("tensorflow.contrib.layers.python.layers.layers", linear=linear, flatten=flatten)
    training = oracle_contrib.tf115_package("contrib.training.python.training", ["training"])
    _module("tensorflow.contrib.training.python.training.training", **vars(training))
    clipping = oracle_contrib.tf115_package("contrib.opt.python.training",
                                            ["variable_clipping_optimizer"])
    _module("tensorflow.contrib.opt.python.training.variable_clipping_optimizer",
            **vars(clipping))
    _module("tensorflow.contrib.slim.python.slim.learning")


def tf114_gan(tf) -> types.SimpleNamespace:
    """`tf.contrib.gan` as TF 1.14 defines it: gan_model & co., losses (and
    losses.wargs), features, eval (summaries, classifier metrics), train ops and hooks;
    `estimator` only under TF 2.15 (tensorflow-estimator)."""
    if f"{_GAN}.train" in sys.modules:
        return sys.modules[f"{_GAN}.__oracle__"].gan
    _stand_ins(tf)
    namedtuples = _load("namedtuples")
    losses_impl = _load("losses.python.losses_impl")
    tuple_losses = _load("losses.python.tuple_losses_impl")
    wargs = _public(losses_impl)
    losses = _public(tuple_losses)
    losses.wargs = wargs
    _module(f"{_GAN}.losses", **vars(losses))
    train = _load("train")
    spectral = _load("features.python.spectral_normalization_impl")
    # TF 2.21's tf.keras is tf-keras: its layers create weights through tf_keras's
    # make_variable, the one keras_spectral_normalization must wrap.
    try:
        from tf_keras.src.engine import base_layer_utils
    except ImportError:     # TF 2.15: tf.keras is Keras 2.15
        from keras.src.engine import base_layer_utils
    spectral.keras_base_layer_utils = base_layer_utils
    features = _public(spectral, *[_load(f"features.python.{m}") for m in (
        "clip_weights_impl", "conditioning_utils_impl", "random_tensor_pool_impl",
        "virtual_batchnorm_impl")])
    eval_utils = _load("eval.python.eval_utils_impl")
    _module(f"{_GAN}.eval.python.eval_utils", **vars(eval_utils))
    summaries = _load("eval.python.summaries_impl")
    _module(f"{_GAN}.eval.python.summaries", **vars(summaries))
    eval_ = _public(summaries, eval_utils, _load("eval.python.classifier_metrics_impl"),
                    _load("eval.python.sliced_wasserstein_impl"))
    gan = _public(namedtuples, train)
    gan.losses, gan.features, gan.eval = losses, features, eval_
    try:
        import tensorflow_estimator  # noqa: F401 - TF 2.15 only
    except ImportError:
        pass
    else:
        gan.estimator = _estimator()
    _module(f"{_GAN}.__oracle__", gan=gan)
    return gan


def _estimator() -> types.SimpleNamespace:
    """GANEstimator on tensorflow-estimator 2.15 (whose modules stand in for
    `tensorflow.python.estimator`)."""
    from tensorflow_estimator.python.estimator import estimator, model_fn
    from tensorflow_estimator.python.estimator.canned import head
    from tensorflow_estimator.python.estimator.export import export_output
    _module("tensorflow.python.estimator", estimator=estimator, model_fn=model_fn)
    sys.modules["tensorflow.python.estimator.estimator"] = estimator
    sys.modules["tensorflow.python.estimator.model_fn"] = model_fn
    _module("tensorflow.python.estimator.canned", head=head)
    sys.modules["tensorflow.python.estimator.canned.head"] = head
    _module("tensorflow.python.estimator.export", export_output=export_output)
    sys.modules["tensorflow.python.estimator.export.export_output"] = export_output
    # TF 1.14's estimator package imports StarGAN's names after GANEstimator's: its
    # SummaryType is the one tf.contrib.gan.estimator exports.
    stargan = _load("estimator.python.stargan_estimator_impl")
    # TPUGANEstimator's TPUEstimator and CrossShardOptimizer: tensorflow-estimator's and
    # TF's (on CPU, use_tpu=False).
    import tensorflow.compat.v1 as tf
    from tensorflow_estimator.python.estimator.tpu import tpu_estimator
    for parent in ("tensorflow.contrib.tpu", "tensorflow.contrib.tpu.python",
                   "tensorflow.contrib.tpu.python.tpu"):
        _module(parent)
    _module("tensorflow.contrib.tpu.python.tpu.tpu_estimator", **vars(tpu_estimator))
    _module("tensorflow.contrib.tpu.python.tpu.tpu_optimizer",
            CrossShardOptimizer=tf.tpu.CrossShardOptimizer)
    gan_estimator = _load("estimator.python.gan_estimator_impl")
    tpu_gan = _load("estimator.python.tpu_gan_estimator_impl")
    head = _load("estimator.python.head_impl")
    latent = _load("estimator.python.latent_gan_estimator_impl")
    out = _public(gan_estimator, stargan, tpu_gan, head, latent)
    out.stargan_estimator = stargan
    out.head, out.latent_gan_estimator = head, latent
    return out
