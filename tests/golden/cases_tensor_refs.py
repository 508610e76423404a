"""Golden cases: `Tensor.ref()` / `Variable.ref()` (TF's hashable reference wrapper, which
TF1 code under TF 2's compat.v1 keys dicts and sets by) and TF's internal
`session._FetchHandler`, which libraries import to split fetches as `Session.run` does
(tensorpack's dependency_of_fetches; found by session realcode-z).
"""

from tests.golden.cases_thirdparty_realcode_o import _internal


def case_tensor_and_variable_refs(tf):
    """Hash and equality by identity, deref, experimental_ref, the repr."""
    a = tf.constant(1.0, name="a")
    b = tf.identity(a, name="b")
    v = tf.Variable(2.0, name="v")
    keyed = {a.ref(): "a", b.ref(): "b", v.ref(): "v"}
    return {
        "lookup": [keyed[a.ref()], keyed[b.ref()], keyed[v.ref()]],
        "distinct": len({a.ref(), a.ref(), b.ref(), a.experimental_ref()}),
        "deref": [a.ref().deref() is a, v.ref().deref() is v],
        "equal": [a.ref() == a.ref(), a.ref() == b.ref(), a.experimental_ref() == a.ref()],
        "repr": [repr(a.ref()), repr(v.ref())],
    }


def case_fetch_handler_splits_and_rebuilds(tf):
    """Tensors to fetch (a fed one excluded), ops to run, the structure rebuilt."""
    session = _internal(tf, "client.session")
    a = tf.placeholder(tf.float32, [], name="a")
    b = tf.add(a, 1.0, name="b")
    c = tf.multiply(b, 2.0, name="c")
    op = tf.no_op(name="n")
    handler = session._FetchHandler(tf.get_default_graph(),
                                    {"x": [b, c], "y": op, "z": (a, b, "c:0")},
                                    {a.ref(): 3.0})
    names = [[t.name for t in handler.fetches()], [o.name for o in handler.targets()]]
    with tf.Session() as sess:
        values = sess.run(handler.fetches(), {a: 3.0})
        return names, handler.build_results(sess, values)
