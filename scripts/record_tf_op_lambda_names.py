"""Records the names tf-keras gives the TFOpLambda layers of raw TF functions called on
eager Keras inputs (run with a TF venv, TF_USE_LEGACY_KERAS=1):

    TF_USE_LEGACY_KERAS=1 /tmp/tf/bin/python scripts/record_tf_op_lambda_names.py

tf-keras names the layer after the TF function that the dispatch reached: the API symbol's
canonical (TF 2) name, or `compat.v1.<path>` for a TF1-only symbol, except where the v1
function hands its arguments to a TF 2 function that dispatches first (`tf.reduce_mean`
is `math.reduce_mean`). Each TF1-only function of the namespaces below is called on a
Keras input (`fn(x)`, then `fn(x, 1)`) and the created layer's function name recorded;
one that neither call accepts is tried again after all the others (so their state is the
same) with `fn(x, [1, 1])` and on a boolean input (`tile`, the logical reductions); one
that no call accepts, or whose call reaches a function of another name, gets its
canonical name. Where the layer's node records every argument by name (`{"name": None}`
for `tf.nn.relu(x)`), so are the argument names (ALL_ARGUMENTS). Output:
tf1compat/keras/engine/op_lambda_names.py.
"""

from __future__ import annotations

import os
import pprint
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAMESPACES = ("", "math", "nn", "linalg", "image", "bitwise", "signal", "strings")


def main() -> int:
    warnings.simplefilter("ignore")
    import tensorflow.compat.v1 as tf
    from tensorflow.python.util import tf_export
    tf.disable_v2_behavior()
    tf.enable_eager_execution()
    names = {}
    all_arguments = {}
    retry = []
    for ns in NAMESPACES:
        module = tf
        for part in ns.split(".") if ns else ():
            module = getattr(module, part)
        for attr in sorted(dir(module)):
            if attr.startswith("_"):
                continue
            fn = getattr(module, attr)
            if not callable(fn) or isinstance(fn, type):
                continue
            path = f"{ns}.{attr}" if ns else attr
            canonical = tf_export.get_canonical_name_for_symbol(
                fn, add_prefix_to_v1_names=True)
            if canonical is None:
                continue
            names[path] = canonical
            dispatched, keys = _dispatched_call(tf, fn, _FIRST_CALLS)
            if not dispatched:
                retry.append((path, attr, fn, canonical))
            _record(path, attr, canonical, dispatched, keys, names, all_arguments)
    for path, attr, fn, canonical in retry:
        dispatched, keys = _dispatched_call(tf, fn, _MORE_CALLS)
        _record(path, attr, canonical, dispatched, keys, names, all_arguments)
    target = os.path.join(ROOT, "tf1compat", "keras", "engine", "op_lambda_names.py")
    with open(target, "w") as f:
        f.write('"""The function names of tf-keras\'s TFOpLambda layers, keyed by the path of '
                'the\nTF 1 symbol called on a Keras input (recorded by '
                'scripts/record_tf_op_lambda_names.py\nfrom tf-keras 2.21)."""\n\n')
        f.write("OP_LAMBDA_NAMES = ")
        f.write(pprint.pformat(names, width=95, compact=True))
        f.write("\n\n# The functions whose layers record every call argument after the "
                "first, by name\n# (defaults included): path -> those names.\n")
        f.write("ALL_ARGUMENTS = ")
        f.write(pprint.pformat(all_arguments, width=95, compact=True))
        f.write("\n")
    print(f"{len(names)} names -> {os.path.relpath(target, ROOT)}")
    return 0


def _record(path, attr, canonical, dispatched, keys, names, all_arguments) -> None:
    # (only a v1 function handing over to its TF 2 namesake counts: a call such as
    # `tf.concat(x, 1)` may reach another function entirely)
    if dispatched.split(".")[-1] != attr:
        return
    if canonical.startswith("compat.v1."):
        names[path] = dispatched
    if "name" in keys:
        # The dispatch got every argument by name (a generated op's, or a v1 function's
        # hand-over): tf-keras records them all, defaults included.
        all_arguments[path] = keys


# (input dtype, the arguments after the input)
_FIRST_CALLS = (("float32", ()), ("float32", (1,)))
_MORE_CALLS = (("float32", ([1, 1],)), ("bool", ()), ("bool", (1,)))


def _dispatched_call(tf, fn, calls) -> tuple:
    """(the function name of the layer the first of `calls` that `fn` accepts makes, the
    names of the call arguments its node records) or ("", ())."""
    for dtype, args in calls:
        x = tf.keras.Input((4,), dtype=dtype)
        try:
            with open(os.devnull, "w") as null:
                saved, sys.stderr = sys.stderr, null
                try:
                    y = fn(x, *args)
                finally:
                    sys.stderr = saved
        except Exception:  # noqa: BLE001 - this call shape does not fit the function
            continue
        history = getattr(y, "_keras_history", None)
        layer = getattr(history, "layer", None)
        function = getattr(layer, "symbol", None) if layer is not None else None
        if function:
            node = layer._inbound_nodes[history.node_index]
            spec = layer._call_spec
            _, args, kwargs = spec.split_out_first_arg(node.call_args, node.call_kwargs)
            return function, tuple(spec.arg_names[1:len(args) + 1]) + tuple(kwargs)
    return "", ()


if __name__ == "__main__":
    sys.exit(main())
