"""Golden cases: Grappler's rewrites that change float bits (tf1compat/ops/
grappler_rewrites.py). A Session runs `x / c` with a constant `c` as `x * (1 / c)`
(constant folding's ReduceDivToReciprocalMul), one ulp off the true quotient for about a
third of float32 values when c = 3; a fed, variable or placeholder_with_default divisor,
DivNoNan and constant-only quotients keep the division. And it adds AddN's inputs in the
order of their names (the canonical form of commutative ops). Compared bit for bit.
"""

import numpy as np

from tests.golden.harness import tolerance

_N = 257        # not a multiple of 8: the last elements take Eigen's scalar path


def _bits(a):
    a = np.asarray(a)
    return a.view({2: np.int16, 4: np.int32, 8: np.int64}[a.dtype.itemsize])


def _data(seed=0, n=_N):
    return np.random.RandomState(seed).uniform(-10, 10, n).astype(np.float32)


@tolerance(rtol=0, atol=0)
def case_division_forms(tf):
    """The spellings of a division by a constant (rewritten), and the divisors TF leaves
    alone: placeholder_with_default, a variable, a fed Const, DivNoNan; a quotient of
    constants is folded as a division."""
    xs = _data()
    x = tf.placeholder(tf.float32, [None], name="x")
    v = tf.Variable(xs, name="v")
    c_var = tf.Variable(3.0, name="c_var")
    fed_c = tf.constant(3.0, name="fed_c")
    exprs = {
        "python_float": x / 3.,
        "const": x / tf.constant(3.),
        "truediv": tf.truediv(x, 7.),
        "div": tf.div(x, 3.),
        "realdiv": tf.realdiv(x, 3.),
        "cast_int": x / tf.cast(tf.constant(3), tf.float32),
        "folded_sum": x / (tf.constant(1.) + tf.constant(2.)),
        "broadcast_vector": tf.reshape(x, [-1, 1]) / tf.constant([3., 7., 255.]),
        "variable_numerator": v / 255.,
        "xdivy": tf.math.xdivy(x, 3.),
        "then_add": x / 3. + 1.,
        "scaled": 2. * (x / 255.) - 1.,
        "twice": (x / 3.) / 5.,
        "int_truediv": tf.cast(x * 100., tf.int32) / tf.constant(3),
        "with_default": x / tf.placeholder_with_default(3., []),
        "variable_divisor": x / c_var,
        "fed_const": x / fed_c,
        "div_no_nan": tf.div_no_nan(x, 3.),
        "constants_only": tf.constant(xs) / 3.,
    }
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out = sess.run(exprs, {x: xs, fed_c: 3.0})
    return {k: _bits(val) for k, val in out.items()}


@tolerance(rtol=0, atol=0)
def case_dtypes(tf):
    """half, bfloat16 and double quotients by a constant."""
    xs = _data(1)
    x = tf.placeholder(tf.float32, [None])
    exprs = {"half": tf.cast(x, tf.float16) / tf.constant(3., tf.float16),
             "bfloat16": tf.cast(tf.cast(x, tf.bfloat16) / tf.constant(3., tf.bfloat16),
                                 tf.float32),
             "double": tf.cast(x, tf.float64) / 3.}
    with tf.Session() as sess:
        out = sess.run(exprs, {x: xs})
    return {k: _bits(val) for k, val in out.items()}


@tolerance(rtol=0, atol=0)
def case_control_flow(tf):
    """Inside cond branches and while bodies: a constant made in the region is rewritten;
    one captured from outside is rewritten in a loop (TF copies it into the frame) but not
    in a cond branch (it arrives through a Switch)."""
    xs = _data(2)
    x = tf.placeholder(tf.float32, [None])
    pred = tf.placeholder_with_default(True, [])
    c = tf.constant(3.)
    exprs = {
        "cond_inner": tf.cond(pred, lambda: x / 3., lambda: x),
        "cond_outer": tf.cond(pred, lambda: x / c, lambda: x),
        "while_inner": tf.while_loop(lambda i, y: i < 2,
                                     lambda i, y: (i + 1, y / 3.), [0, x])[1],
        "while_outer": tf.while_loop(lambda i, y: i < 2,
                                     lambda i, y: (i + 1, y / c), [0, x])[1],
    }
    with tf.Session() as sess:
        out = sess.run(exprs, {x: xs})
    return {k: _bits(val) for k, val in out.items()}


@tolerance(rtol=0, atol=0)
def case_gradients(tf):
    """Gradients through a division by a constant (TF's gradient divides by it again,
    rewritten as well; a broadcast divisor's too), and a few steps of SGD on a loss
    scaled by a constant. (Not where TF's arithmetic optimizer regroups a chain of
    products of more than two factors, MinimizeBroadcasts, which tf1compat does not
    replay: e.g. the gradient with respect to the constant itself.)"""
    xs, gs = _data(3), _data(4)
    x = tf.placeholder(tf.float32, [_N])
    g = tf.placeholder(tf.float32, [_N])
    m = tf.reshape(x, [-1, 1])
    gm = tf.reshape(g, [-1, 1])
    grad_x = tf.gradients(x / 3., x, grad_ys=g)[0]
    grad_m = tf.gradients(m / tf.constant([3., 7.]), m,
                          grad_ys=tf.concat([gm, gm * 0.5], 1))[0]
    w = tf.Variable(np.linspace(-1, 1, _N).astype(np.float32), name="w")
    loss = tf.reduce_sum(tf.square(w * x - 1.) / 7.)
    train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
    out = {}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out["grad_x"], out["grad_broadcast"] = sess.run([grad_x, grad_m], {x: xs, g: gs})
        for _ in range(3):
            sess.run(train, {x: xs})
        out["w"] = sess.run(w)
    return {k: _bits(val) for k, val in out.items()}


@tolerance(rtol=0, atol=0)
def case_imported_graph(tf):
    """A GraphDef imported into a new graph runs rewritten too: plain ops, and a
    while loop whose divisor is a constant captured from outside it."""
    xs = _data(4)
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None], name="x")
        c = tf.constant(7., name="c")
        tf.identity(x / 255., name="scaled")
        tf.identity(tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, y / c),
                                  [0, x])[1], name="looped")
    graph_def = g.as_graph_def()
    with tf.Graph().as_default() as g2:
        tf.import_graph_def(graph_def, name="")
        with tf.Session(graph=g2) as sess:
            scaled, looped = sess.run(["scaled:0", "looped:0"], {"x:0": xs})
    return {"scaled": _bits(scaled), "looped": _bits(looped)}


def _spread(seed, n=_N):
    """Values over six decades, so that the order of a sum shows in its last bits."""
    rng = np.random.RandomState(seed)
    return (rng.randn(n) * 10.0 ** rng.uniform(-3, 3, n)).astype(np.float32)


@tolerance(rtol=0, atol=0)
def case_add_n_order(tf):
    """AddN adds its inputs sorted by name: named terms given out of order, outputs of a
    split ("split:1" after "split"), an Add among the terms (kept as one term when the
    sum is fetched), and AddNs in a cond branch and a while body of values made there.
    (Not a loop variable or a captured value among the terms: TF names those after its
    control-flow lowering, an order tf1compat does not replay.)"""
    names = "eadbc"
    feeds = {}
    terms = {}
    for i, n in enumerate(names):
        p = tf.placeholder(tf.float32, [_N], name="p" + n)
        feeds[p] = _spread(i)
        terms[n] = tf.identity(p, name=n)
    parts = tf.split(tf.concat([terms["b"], terms["e"], terms["a"]], 0), 3)
    pred = tf.placeholder_with_default(True, [])
    exprs = {
        "named": tf.add_n([terms[n] for n in names]),
        "split": tf.add_n([parts[2], parts[0], terms["d"], parts[1]]),
        "nested_add": tf.add_n([terms["e"] + terms["a"], terms["d"], terms["b"], terms["c"]]),
        "in_cond": tf.cond(pred, lambda: tf.add_n([terms[n] * 1.5 for n in names]),
                           lambda: terms["a"]),
        "in_while": tf.while_loop(
            lambda i, y: i < 2,
            lambda i, y: (i + 1, tf.add_n([tf.multiply(y, 3., name="z"),
                                           tf.multiply(y, .5, name="b"),
                                           tf.multiply(y, 1.25, name="m")])),
            [0, terms["e"]])[1],
    }
    with tf.Session() as sess:
        out = sess.run(exprs, feeds)
    return {k: _bits(val) for k, val in out.items()}
