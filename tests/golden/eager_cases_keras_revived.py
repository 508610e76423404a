"""Eager golden cases: a subclassed model revived from tf-keras's SavedModel without its
class (tests/fixtures/keras/saved_model_tf_subclassed, traced functions), used under
TF 1.x-style eager execution: called, predicted, evaluated, fitted (SGD, the training
config's optimizer) and trained on a batch, as tf-keras does it."""

import os

import numpy as np

from tests.golden.harness import catch, tolerance
from tests.golden.keras_util import nested_layers

_DIRECTORY = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "fixtures", "keras", "saved_model_tf_subclassed")
_INPUT = np.array([[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.5, 1.0]], np.float32)


def _load(tf):
    tf.keras.backend.clear_session()
    return tf.keras.models.load_model(_DIRECTORY)


@tolerance(rtol=1e-5, atol=1e-6)
def case_revived_call_and_predict(tf):
    model = _load(tf)
    return {"class": type(model).__name__, "name": model.name,
            "weights": [w.name for w in model.weights],
            "trainable": [w.name for w in model.trainable_weights],
            "call": np.asarray(model(_INPUT)),
            "call_tensor": np.asarray(model(tf.constant(_INPUT))),
            "predict": model.predict(_INPUT, verbose=0),
            "evaluate": model.evaluate(_INPUT, np.ones((2, 1), np.float32), verbose=0),
            "other_shape": catch(lambda: model(np.ones((3, 5), np.float32)))}


@tolerance(rtol=1e-5, atol=1e-6)
def case_revived_fit(tf):
    model = _load(tf)
    history = model.fit(_INPUT, np.ones((2, 1), np.float32), epochs=3, verbose=0).history
    return {"history": history, "weights": model.get_weights(),
            "predict": model.predict(_INPUT, verbose=0),
            "train_on_batch": model.train_on_batch(_INPUT, np.zeros((2, 1), np.float32)),
            "after_batch": model.get_weights()}


@tolerance(rtol=1e-5, atol=1e-6)
def case_revived_gradient_tape(tf):
    model = _load(tf)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(_INPUT) ** 2)
    grads = tape.gradient(loss, model.trainable_weights)
    return {"loss": np.asarray(loss), "grads": [np.asarray(g) for g in grads]}


@tolerance(rtol=1e-5, atol=1e-6)
def case_revived_inner_layers(tf):
    """The revived model's inner layers (rebuilt from their configs) own its variables;
    each is callable alone, and fitting the model moves their weights."""
    model = _load(tf)
    inner = _INPUT[:, :3]
    out = {"layers": [[type(layer).__name__, layer.name, [w.name for w in layer.weights]]
                      for layer in model.layers],
           "same": [w is v for w, v in zip(model.weights,
                                           [w for layer in model.layers for w in layer.weights])],
           "inner_call": np.asarray(model.layers[1](inner)),
           "wrong_shape": catch(lambda: model.layers[0](inner))}
    model.fit(_INPUT, np.ones((2, 1), np.float32), epochs=1, verbose=0)
    out["after_fit"] = [np.asarray(w) for w in model.layers[0].weights]
    return out


_NESTED = os.path.join(os.path.dirname(_DIRECTORY), "saved_model_tf_subclassed_nested")


def _class(layer):
    # (tf-keras's functional models are of class Functional, tf1compat's Model)
    name = type(layer).__name__
    return "Model" if name == "Functional" else name


@tolerance(rtol=1e-5, atol=1e-6)
def case_revived_nested_models(tf):
    """A revived model holding a Sequential and a functional model (and a Dense): each is
    rebuilt from its config with its layers, owns the model's variables of its names and
    calls alone; the model predicts and trains through them."""
    tf.keras.backend.clear_session()
    model = tf.keras.models.load_model(_NESTED)
    layers = [[_class(layer), layer.name, [w.name for w in layer.weights],
               [[_class(inner), inner.name, [w.name for w in inner.weights]]
                for inner in getattr(layer, "layers", [])],
               [any(w is m for m in model.weights) for w in layer.weights]]
              for layer in model.layers]
    block, head = model.layers[0], model.layers[1]
    out = {"weights": [w.name for w in model.weights], "layers": layers,
           "predict": model.predict(_INPUT, verbose=0),
           "block": np.asarray(block(_INPUT)),
           "head": np.asarray(head(np.ones((2, 3), np.float32))),
           "block_wrong_shape": catch(lambda: block(np.ones((2, 3), np.float32)))}
    history = model.fit(_INPUT, np.ones((2, 1), np.float32), epochs=2, verbose=0).history
    out.update(history=history, after_fit=model.get_weights(),
               block_after_fit=np.asarray(block(_INPUT)))
    return out


_INNER = os.path.join(os.path.dirname(_DIRECTORY), "saved_model_tf_subclassed_inner")


def nested_subclassed_view(tf, model, evaluate):
    """What a revived model holding a revived subclassed model shows: classes, names,
    weights, the inner layers (attribute, weights, the model's own variables), its
    predictions, the nested model and its first layer called alone (`evaluate` reads a
    tensor) and a call with another input shape."""
    inner = model.layers[0]
    return {"class": type(model).__name__, "weights": [w.name for w in model.weights],
            "layers": nested_layers(model),
            "predict": model.predict(_INPUT, verbose=0),
            "inner": evaluate(inner(tf.constant(_INPUT))),
            "inner_first": evaluate(inner.layers[0](tf.constant(_INPUT))),
            "inner_wrong_shape": catch(lambda: inner(tf.constant(np.ones((2, 3),
                                                                         np.float32))))}


@tolerance(rtol=1e-5, atol=1e-6)
def case_revived_nested_subclassed(tf):
    """A subclassed model holding a subclassed model (tests/fixtures/keras/
    saved_model_tf_subclassed_inner), revived without either class: the nested model is a
    revived model of its class name with its own layers, owning the model's variables,
    called through its traced function; the model fits through it."""
    tf.keras.backend.clear_session()
    model = tf.keras.models.load_model(_INNER)
    out = nested_subclassed_view(tf, model, np.asarray)
    history = model.fit(_INPUT, np.ones((2, 1), np.float32), epochs=2, verbose=0).history
    out.update(history=history, after_fit=model.get_weights(),
               inner_after_fit=np.asarray(model.layers[0](tf.constant(_INPUT))))
    return out
