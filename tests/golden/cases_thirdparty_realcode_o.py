"""Golden cases: patterns from deepmind/sonnet v1.36, deepmind/trfl and deepmind/graph_nets,
restated small.

Sonnet v1 registers a to_proto/from_proto pair for its "sonnet" graph collection
(`ops.register_proto_function`), reads argument specs through `tf_inspect`, re-exports
`tf.contrib.framework.nest`'s "up to" family and lists a graph's collections through
`Graph.collections`; trfl's distribution_ops compares the factorised KL of two diagonal
Gaussians whose means coincide, whose gradient TF 1.15 keeps finite, and its tests build
MultivariateNormalDiagPlusLowRank scales from random (indefinite) diagonals, which TF
solves by Woodbury with an LU-factored capacitance. Each of those failed on tf1compat
before this change; the last cases pin trfl's and Sonnet's everyday patterns (reverse
discounted scans, batched index, templates with a custom getter, BatchApply's reshapes,
graph_nets' TPU-friendly repeat and segment aggregations).

TF 2.21 has no tf.contrib: contrib's nest is TF's `tensorflow.python.util.nest` (the same
module in TF 1.15) and contrib.distributions is TF 1.15's, run from its sources
(cases_contrib_distributions).
"""

import functools

from tests.golden.cases_contrib_distributions import _lib as _distributions


def _internal(tf, path):
    """`tensorflow.python.<path>`: real TF's module under the oracle, tf1compat's own
    (through its import table) under tf1compat."""
    import importlib
    if getattr(tf, "contrib", None) is not None:
        from tf1compat.shim import INTERNAL_PATHS
        return importlib.import_module(INTERNAL_PATHS[f"tensorflow.python.{path}"])
    return importlib.import_module(f"tensorflow.python.{path}")


class _Note:
    """A Python object kept in a graph collection (Sonnet keeps ModuleInfo there)."""

    def __init__(self, text):
        self.text = text


def case_collection_proto_functions_round_trip(tf):
    """`ops.register_proto_function(key, proto_type, to_proto, from_proto)`: a meta graph
    writes the collection's objects as serialized protos and importing it rebuilds them
    through from_proto (Sonnet's "sonnet" collection of ModuleInfo)."""
    ops = _internal(tf, "framework.ops")

    def to_proto(note, export_scope=None):
        example = tf.train.Example()
        example.features.feature["text"].bytes_list.value.append(note.text.encode())
        return example

    def from_proto(example, import_scope=None):
        return _Note(example.features.feature["text"].bytes_list.value[0].decode()
                     + f"|{import_scope}")

    ops.register_proto_function("realcode_o_notes", proto_type=tf.train.Example,
                                to_proto=to_proto, from_proto=from_proto)
    tf.constant(1.0, name="c")
    tf.add_to_collection("realcode_o_notes", _Note("first"))
    tf.add_to_collection("realcode_o_notes", _Note("second"))
    meta = tf.train.export_meta_graph()
    col = meta.collection_def["realcode_o_notes"]
    with tf.Graph().as_default():
        tf.train.import_meta_graph(meta, import_scope="imported")
        notes = [n.text for n in tf.get_collection("realcode_o_notes")]
    return {"kind": col.WhichOneof("kind"), "n": len(col.bytes_list.value), "notes": notes,
            "registered": ops.get_to_proto_function("realcode_o_notes") is to_proto,
            "type": ops.get_collection_proto_type("realcode_o_notes") is tf.train.Example,
            "unregistered": ops.get_from_proto_function("realcode_o_none") is None}


def case_contrib_nest_up_to(tf):
    """contrib.framework.nest's (TF's util.nest) shallow-structure functions, as Sonnet's
    nest.map_up_to / flatten_up_to use them, paths, and their errors."""
    contrib = getattr(tf, "contrib", None)
    nest = contrib.framework.nest if contrib is not None else _internal(tf, "util.nest")
    shallow = {"a": 0, "b": (0, 0)}
    deep = {"a": [1, 2], "b": ([3], {"x": 4, "y": 5}), }
    out = {
        "flatten_up_to": nest.flatten_up_to(shallow, deep),
        "map_up_to": nest.map_structure_up_to(shallow, lambda x: str(x), deep),
        "map_up_to_two": nest.map_structure_up_to((0, 0), lambda x, y: x + y,
                                                  ([1], [2]), ([3], [4])),
        "tuple_paths": nest.flatten_with_tuple_paths({"a": [1, 2], "b": 3}),
        "joined": nest.flatten_with_joined_string_paths({"a": [1, {"c": 2}], "b": 3}),
        "with_paths": nest.map_structure_with_paths(lambda p, x: f"{p}={x}",
                                                    {"k": [1, 2]}),
        "flat_paths": list(nest.yield_flat_paths([{"a": 1}, 2])),
        "traverse": nest.get_traverse_shallow_structure(
            lambda s: not isinstance(s, tuple), {"a": (1, 2), "b": [3, (4,)]}),
        "dict_items": sorted(nest.flatten_dict_items({(1, 2): (3, 4), 5: 6}).items()),
        "is_sequence": [bool(nest.is_nested(x)) for x in ([], (1,), {"a": 1}, 1, "s")],
    }
    errors = []
    for shallow_tree, input_tree in (((1, 2), 5), ((1, 2), (1, 2, 3)), ({"a": 1}, {"b": 1}),
                                     ((1, 2), [1, 2])):
        try:
            nest.assert_shallow_structure(shallow_tree, input_tree)
            errors.append(None)
        except (TypeError, ValueError) as e:
            errors.append(type(e).__name__)
    out["errors"] = errors
    return out


def case_tf_inspect_sees_through_decorators(tf):
    """`tf_inspect.getargspec` (Sonnet's supports_kwargs): a TFDecorator's target spec,
    TF's four-field ArgSpec, partials with bound keywords, callable objects."""
    tf_inspect = _internal(tf, "util.tf_inspect")
    tf_decorator = _internal(tf, "util.tf_decorator")

    def target(a, b=2, *args, **kwargs):
        return a

    def wrapper(*args, **kwargs):
        return target(*args, **kwargs)

    decorated = tf_decorator.make_decorator(target, wrapper)

    class Callable_:
        def __call__(self, x, y=1):
            return x

    def spec(s):
        return [list(s.args), s.varargs, s.keywords, list(s.defaults or [])]

    def three(a, b, c=3):
        return a

    return {"decorated": spec(tf_inspect.getargspec(decorated)),
            "partial": spec(tf_inspect.getargspec(functools.partial(three, 1, c=5))),
            "object": spec(tf_inspect.getargspec(Callable_())),
            "full": list(tf_inspect.getfullargspec(decorated).args),
            "callargs": sorted(tf_inspect.getcallargs(three, 1, 2).items()),
            "fields": list(tf_inspect.ArgSpec._fields)}


def case_graph_collections_property(tf):
    """`Graph.collections` (Sonnet's format_variables walks it): every collection key."""
    g = tf.Graph()
    with g.as_default():
        tf.get_variable("v", [2])
        tf.add_to_collection("mine", 1)
    return sorted(k for k in g.collections if isinstance(k, str))


def case_low_rank_update_indefinite_solve(tf):
    """LinearOperatorLowRankUpdate over an indefinite diagonal with a positive-definite
    hint (MultivariateNormalDiagPlusLowRank's scale from random scale_diag): solve,
    log|det|, determinant by Woodbury, as TF."""
    base = tf.linalg.LinearOperatorDiag([-0.7, 0.9, 1.5])
    u = tf.constant([[0.5, 0.1], [0.2, -0.3], [-0.4, 0.6]])
    op = tf.linalg.LinearOperatorLowRankUpdate(base, u, diag_update=[0.8, -0.3],
                                               is_diag_update_positive=False,
                                               is_non_singular=True, is_self_adjoint=True,
                                               is_positive_definite=True, is_square=True)
    rhs = tf.constant([[1.0, 0.0], [0.5, 2.0], [-1.0, 1.0]])
    with tf.Session() as sess:
        return sess.run({"solve": op.solve(rhs), "solve_adj": op.solve(rhs, adjoint=True),
                         "logdet": op.log_abs_determinant(), "dense": op.to_dense(),
                         "matmul": op.matmul(rhs)})


def case_mvn_kl_gradient_with_equal_means(tf):
    """trfl's factorised KL: KL(N(mu, S1) || N(mu, S2)) for MultivariateNormalDiag with the
    same (stop-gradient) mean; its gradient w.r.t. both scales is finite in TF 1.15."""
    tfd = _distributions(tf)
    mu = tf.constant([0.1, -0.2, 0.3])
    s1 = tf.constant([0.5, -1.2, 0.8])
    s2 = tf.constant([-0.7, 0.9, 1.5])
    a = tfd.MultivariateNormalDiag(tf.stop_gradient(mu), s1)
    b = tfd.MultivariateNormalDiag(tf.stop_gradient(mu), s2)
    kl = tfd.kl_divergence(a, b)
    with tf.Session() as sess:
        return sess.run({"kl": kl, "grads": tf.gradients(kl, [s1, s2])})


def case_trfl_discounted_scan_and_batched_index(tf):
    """trfl's sequence_ops.scan_discounted_sum (reverse tf.scan over time with a reset
    per step) and indexing_ops.batched_index (one_hot * values summed), as in td_lambda."""
    rewards = tf.constant([[1.0, 0.0], [0.5, 1.0], [0.0, 2.0], [1.0, 1.0]])
    discounts = tf.constant([[0.9, 0.9], [0.9, 0.0], [0.9, 0.9], [0.9, 0.9]])
    bootstrap = tf.constant([0.5, -1.0])
    returns = tf.scan(lambda acc, elems: elems[0] + elems[1] * acc, (rewards, discounts),
                      initializer=bootstrap, reverse=True, back_prop=True)
    q = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    actions = tf.constant([2, 0])
    chosen = tf.reduce_sum(q * tf.one_hot(actions, 3, dtype=q.dtype), axis=[-1])
    loss = 0.5 * tf.reduce_sum(tf.square(tf.stop_gradient(returns[0]) - chosen))
    with tf.Session() as sess:
        return sess.run({"returns": returns, "chosen": chosen, "loss": loss,
                         "grad": tf.gradients(loss, q)[0],
                         "grad_r": tf.gradients(tf.reduce_sum(returns), rewards)[0]})


def case_sonnet_template_custom_getter_batch_apply(tf):
    """Sonnet's module pattern: a make_template'd build with a variable_scope custom getter
    (non-trainable w), called twice (shared), applied BatchApply-style by merging the two
    leading dimensions and splitting them back."""
    def custom_getter(getter, *args, **kwargs):
        if kwargs["name"].endswith("/w"):
            kwargs["trainable"] = False
        return getter(*args, **kwargs)

    def build(x):
        w = tf.get_variable("w", [3, 2], initializer=tf.constant_initializer(0.5))
        b = tf.get_variable("b", [2], initializer=tf.constant_initializer(0.1))
        return tf.matmul(x, w) + b

    template = tf.make_template("linear", build, custom_getter_=custom_getter)
    x = tf.reshape(tf.range(12, dtype=tf.float32), [2, 2, 3])
    merged = tf.reshape(x, tf.concat([[-1], tf.shape(x)[2:]], 0))
    y = template(merged)
    y = tf.reshape(y, tf.concat([tf.shape(x)[:2], tf.shape(y)[1:]], 0))
    y2 = template(merged)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run({"y": y, "y2": y2})
    values["trainable"] = [v.name for v in tf.trainable_variables()]
    values["global"] = [v.name for v in tf.global_variables()]
    values["template_vars"] = [v.name for v in template.variables]
    values["scope"] = template.variable_scope.name
    return values


def case_graph_nets_repeat_and_segment_aggregation(tf):
    """graph_nets' utils_tf.repeat (scatter_nd of block starts, cumsum, gather: globals
    broadcast to the edges of each graph, empty graphs included) and blocks' aggregations
    (unsorted_segment_sum of edges onto receivers; unsorted_segment_max with empty segments
    set to zero), with the gradient through them."""
    n_edge = tf.constant([2, 0, 3])
    globals_ = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, -6.0]])
    sum_repeats = tf.reduce_sum(n_edge)
    starts = tf.cumsum(n_edge, exclusive=True)
    indicators = tf.scatter_nd(tf.expand_dims(starts, 1), tf.ones_like(n_edge),
                               tf.expand_dims(sum_repeats + 1, 0))[:-1]
    gather_indices = tf.cumsum(indicators) - 1
    per_edge = tf.gather(globals_, gather_indices)
    edges = tf.constant([[0.5, 1.0], [-1.0, 2.0], [3.0, 0.0], [1.0, 1.0], [2.0, -2.0]])
    receivers = tf.constant([1, 1, 3, 3, 0])
    senders = tf.constant([0, 2, 2, 4, 4])
    nodes = tf.reshape(tf.range(10, dtype=tf.float32), [5, 2])
    features = tf.concat([edges * per_edge, tf.gather(nodes, senders),
                          tf.gather(nodes, receivers)], axis=-1)
    summed = tf.unsorted_segment_sum(features, receivers, 5)
    maxed = tf.unsorted_segment_max(features, receivers, 5)
    present = tf.unsorted_segment_max(tf.ones_like(features), receivers, 5) > 0
    max_or_zero = tf.where(present, maxed, tf.zeros_like(maxed))
    loss = tf.reduce_sum(summed ** 2) + tf.reduce_sum(max_or_zero)
    with tf.Session() as sess:
        return sess.run({"gather_indices": gather_indices, "per_edge": per_edge,
                         "summed": summed, "max_or_zero": max_or_zero,
                         "grads": tf.gradients(loss, [globals_, edges, nodes])})
