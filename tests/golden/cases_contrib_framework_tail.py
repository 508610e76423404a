"""Golden cases: `tf.contrib.framework`'s deprecation decorators (`deprecated`,
`deprecated_args`, `deprecated_arg_values`), `smart_case` and `BoundedTensorSpec`.

TF 1.15 re-exported these from core TF (python/util/deprecation.py,
framework/smart_cond.py, framework/tensor_spec.py); under the oracle they are TF 2.21's."""

import logging

import numpy as np


def _framework(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.framework
    import types
    from tensorflow.python.framework import smart_cond, tensor_spec
    from tensorflow.python.util import deprecation
    return types.SimpleNamespace(
        deprecated=deprecation.deprecated, deprecated_args=deprecation.deprecated_args,
        deprecated_arg_values=deprecation.deprecated_arg_values,
        smart_case=smart_cond.smart_case, BoundedTensorSpec=tensor_spec.BoundedTensorSpec)


class _Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        # The caller's file is this module (under the oracle and here alike): keep its
        # base name and the line.
        message = record.getMessage()
        head, _, rest = message.partition(": ")
        self.messages.append(head.rsplit("/", 1)[-1] + ": " + rest)


def _logged(calls):
    logger = logging.getLogger("tensorflow")
    handler = _Records()
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.WARNING)
    try:
        results = [call() for call in calls]
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    return results, handler.messages


def case_deprecated_function_and_class(tf):
    framework = _framework(tf)

    @framework.deprecated("2030-01-02", "Use g instead.")
    def f(x, y=2):
        """Adds.

        Args:
          x: a number.
        """
        return x + y

    @framework.deprecated(None, "Call it less.", warn_once=False)
    def no_doc(a):
        return a * 3

    @framework.deprecated(None, "Use New.")
    class Old:
        """An old class."""

        def __init__(self, v):
            self.v = v

    results, messages = _logged([lambda: f(1), lambda: f(2, y=5), lambda: no_doc(2),
                                 lambda: no_doc(3), lambda: Old(4).v, lambda: Old(5).v])
    return {"results": results, "messages": messages, "f_doc": f.__doc__,
            "no_doc_doc": no_doc.__doc__, "class_doc": Old.__doc__, "name": f.__name__,
            "init_doc": Old.__init__.__doc__}


def case_deprecated_args(tf):
    framework = _framework(tf)

    @framework.deprecated_args(None, "Drop `b`.", "b", ("c", 0))
    def g(a, b=None, c=0, **kwargs):
        """Computes g."""
        return (a, b, c)

    @framework.deprecated_args("2031-05-06", "No extras.", "extra", warn_once=False)
    def h(x, *extra):
        return x + sum(extra)

    calls = [lambda: g(1), lambda: g(1, 2), lambda: g(1, b=3), lambda: g(1, c=0),
             lambda: g(1, c=4), lambda: g(1, c=4), lambda: h(1), lambda: h(1, 2, 3),
             lambda: h(1, 2)]
    results, messages = _logged(calls)
    return {"results": results, "messages": messages, "g_doc": g.__doc__, "h_doc": h.__doc__}


def case_deprecated_arg_values(tf):
    framework = _framework(tf)

    @framework.deprecated_arg_values(None, "Use mode='new'.", mode="old", flag=None)
    def k(x, mode="new", flag=1):
        """K.

        More text.
        """
        return [x, mode, flag]

    calls = [lambda: k(1), lambda: k(1, "old"), lambda: k(2, mode="old"),
             lambda: k(3, flag=None)]
    results, messages = _logged(calls)
    return {"results": results, "messages": messages, "doc": k.__doc__}


def case_deprecation_errors(tf):
    framework = _framework(tf)
    attempts = [
        lambda: framework.deprecated("2030-1-2", "x"),
        lambda: framework.deprecated(None, ""),
        lambda: framework.deprecated_args(None, "x"),
        lambda: framework.deprecated_args(None, "x", "a", other=1),
        lambda: framework.deprecated_args(None, "x", "zz")(lambda a: a),
        lambda: framework.deprecated_arg_values(None, "x"),
        lambda: framework.deprecated(None, "x")(3),
    ]
    out = []
    for attempt in attempts:
        try:
            attempt()
            out.append(None)
        except ValueError as e:
            out.append(str(e).replace("<lambda>", "L"))
    return out


def case_smart_case(tf):
    framework = _framework(tf)
    x = tf.placeholder(tf.int32, [])
    calls = []

    def branch(value):
        def fn():
            calls.append(value)
            return tf.constant(value)
        return fn
    static = framework.smart_case([(False, branch(1)), (True, branch(2))],
                                  default=branch(3))
    const = framework.smart_case([(tf.constant(False), branch(4))], default=branch(5))
    dynamic = framework.smart_case([(x > 0, branch(6)), (x < -5, branch(7))],
                                   default=branch(8), exclusive=True)
    with tf.Session() as sess:
        values = [sess.run(dynamic, {x: v}) for v in (3, -9, 0)]
    return {"static": [static.op.type, tf.get_default_graph().get_operations()[0].type],
            "const_type": const.op.type, "calls": calls, "values": values,
            "dynamic_type": dynamic.dtype.name}


def case_bounded_tensor_spec(tf):
    framework = _framework(tf)
    spec = framework.BoundedTensorSpec([2, 3], tf.int32, 0, [1, 2, 3], name="s")
    out = {"min": spec.minimum, "max": spec.maximum, "shape": spec.shape.as_list(),
           "dtype": spec.dtype.name, "name": spec.name, "writeable": spec.minimum.flags.writeable,
           "eq": spec == framework.BoundedTensorSpec([2, 3], tf.int32, 0, [1, 2, 3], "s"),
           "ne": spec == framework.BoundedTensorSpec([2, 3], tf.int32, 0, [1, 2, 4], "s")}
    plain = tf.TensorSpec([4], tf.uint8, name="p") if hasattr(tf, "TensorSpec") else None
    if plain is not None:
        converted = framework.BoundedTensorSpec.from_spec(plain)
        out["from_spec"] = [converted.minimum, converted.maximum, converted.name]
        out["from_bounded"] = [framework.BoundedTensorSpec.from_spec(spec).maximum]
    errors = []
    for args in [([2, 3], tf.float32, None, 1.0), ([2, 3], tf.float32, 0.0, None),
                 ([2, 3], tf.float32, [0.0, 1.0], 1.0), ([2], tf.float32, 0.0, [[1.0, 2.0, 3.0]])]:
        try:
            framework.BoundedTensorSpec(*args)
            errors.append(None)
        except ValueError as e:
            errors.append(str(e))
    out["errors"] = errors
    out["float_bounds"] = framework.BoundedTensorSpec([], tf.float64, -np.inf, 2).minimum
    return out
