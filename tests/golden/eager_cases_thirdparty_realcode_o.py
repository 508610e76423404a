"""Eager golden cases: Sonnet v1's test files run every test in graph mode and then eagerly
(`tf.contrib.eager.run_all_tests_in_graph_and_eager_modes`); its modules are
`make_template` templates, which TF makes EagerTemplates under eager execution. These
cases pin what that needs: template variables created once and reused, kept in the
template's own store and (as TF does for store-kept eager variables) in the graph
collections Sonnet's `get_variables` reads; `assign_moving_average(...).op` (BatchNorm's
update) being None eagerly; `tf.nn.dynamic_rnn` under eager execution (Sonnet's LSTM
tests)."""

import functools

import numpy as np


def _dense(tf, x):
    w = tf.get_variable("w", [2, 3], initializer=tf.constant_initializer(0.5))
    b = tf.get_variable("b", [3], initializer=tf.zeros_initializer())
    return tf.matmul(x, w) + b


def case_eager_template_shares_its_variables(tf):
    template = tf.make_template("dense", functools.partial(_dense, tf))
    before = [v.name for v in template.variables]
    x = tf.constant([[1.0, 2.0]])
    first = template(x).numpy()
    [w] = [v for v in template.variables if v.name.endswith("/w:0")]
    w.assign_add(tf.ones([2, 3]))
    second = template(x).numpy()
    other = tf.make_template("dense", functools.partial(_dense, tf))
    other(x)
    return {"before": before, "first": first, "second": second,
            "names": [v.name for v in template.variables],
            "trainable": [v.name for v in template.trainable_variables],
            "other": [v.name for v in other.variables],
            "collection": [v.name for v in tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES,
                                                             "dense/")],
            "scope": template.variable_scope.name}


def case_eager_template_nested_and_reuse_errors(tf):
    def outer(x):
        inner = tf.make_template("inner", functools.partial(_dense, tf))
        return inner(x) + inner(x)

    template = tf.make_template("outer", outer)
    y = template(tf.constant([[1.0, -1.0]])).numpy()

    def bad(x):
        # a tf.Variable on every call: eagerly it is in no template store, so TF's
        # EagerTemplate does not count it as a new trainable variable (no ValueError)
        return x * tf.Variable(1.0, name="plain")

    leaky = tf.make_template("leaky", bad)
    leaky(tf.constant(2.0))
    try:
        leaky(tf.constant(2.0))
        error = None
    except ValueError as e:
        error = str(e).split("\n")[0][:60]
    return {"y": y, "names": sorted(v.name for v in template.variables), "error": error}


def _moving_averages(tf):
    """`tensorflow.python.training.moving_averages`: real TF's, or tf1compat's own."""
    import importlib
    if getattr(tf, "contrib", None) is not None:
        from tf1compat.shim import INTERNAL_PATHS
        return importlib.import_module(
            INTERNAL_PATHS["tensorflow.python.training.moving_averages"])
    return importlib.import_module("tensorflow.python.training.moving_averages")


def case_eager_moving_average_update_op(tf):
    moving_averages = _moving_averages(tf)
    v = tf.get_variable("mean", [2], initializer=tf.zeros_initializer(), use_resource=True)
    update = moving_averages.assign_moving_average(v, tf.constant([1.0, 3.0]), 0.9,
                                                   zero_debias=False)
    return {"op_is_none": update.op is None, "value": update.numpy(), "read": v.numpy()}


def case_eager_dynamic_rnn(tf):
    tf.set_random_seed(3)
    cell = tf.nn.rnn_cell.LSTMCell(3, initializer=tf.constant_initializer(0.1))
    inputs = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 4, 3) / 10)
    outputs, state = tf.nn.dynamic_rnn(cell, inputs, dtype=tf.float32,
                                       sequence_length=[4, 2])
    return {"outputs": outputs.numpy(), "c": state.c.numpy(), "h": state.h.numpy()}
