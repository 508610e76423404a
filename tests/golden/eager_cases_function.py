"""Eager golden cases: tf.function (traced once per input signature, run as a graph)."""

from tests.golden.harness import catch


def case_traces_per_signature(tf):
    traces = []

    @tf.function
    def f(x, y):
        traces.append(1)
        return x * y + 1.0

    out = [f(tf.constant(2.0), tf.constant(3.0)).numpy(),
           f(tf.constant(4.0), tf.constant(5.0)).numpy(),
           f(tf.constant([1.0, 2.0]), tf.constant(3.0)).numpy(),
           f(tf.constant([3.0, 4.0]), tf.constant(3.0)).numpy(),
           f(tf.constant(2.0, tf.float64), tf.constant(3.0, tf.float64)).numpy()]
    return {"values": out, "traces": len(traces)}


def case_python_arguments_retrace(tf):
    traces = []

    @tf.function
    def f(x, n):
        traces.append(n)
        return x * n

    out = [f(tf.constant(2.0), 2).numpy(), f(tf.constant(3.0), 2).numpy(),
           f(tf.constant(3.0), 3).numpy()]
    return {"values": out, "traces": traces}


def case_variables_inside(tf):
    v = tf.Variable(2.0)

    @tf.function
    def read(x):
        return x * v

    @tf.function
    def update(x):
        v.assign_add(x)
        return v.read_value()

    @tf.function
    def side_effect_only(x):
        v.assign(x)

    out = {"read": read(tf.constant(3.0)).numpy()}
    v.assign(10.0)
    out["read_after_assign"] = read(tf.constant(3.0)).numpy()
    out["update"] = [update(tf.constant(1.0)).numpy(), update(tf.constant(1.0)).numpy()]
    out["returns_none"] = side_effect_only(tf.constant(7.0)) is None
    out["after_side_effect"] = v.numpy()
    return out


def case_variable_created_on_first_call(tf):
    class Scale:
        def __init__(self):
            self.w = None

        @tf.function
        def __call__(self, x):
            if self.w is None:
                self.w = tf.Variable(tf.ones([2]) * 2.0, name="w")
            return x * self.w

    m = Scale()
    first = m(tf.constant([1.0, 2.0])).numpy()
    second = m(tf.constant([3.0, 4.0])).numpy()
    m.w.assign([1.0, 0.0])
    third = m(tf.constant([3.0, 4.0])).numpy()
    return {"values": [first, second, third], "name": m.w.name, "w": m.w.numpy()}


def case_structures(tf):
    @tf.function
    def f(x):
        return {"double": x * 2.0, "pair": (x + 1.0, [x - 1.0]), "const": 5}

    r = f(tf.constant([1.0, 2.0]))
    return {"double": r["double"].numpy(), "pair0": r["pair"][0].numpy(),
            "pair1": r["pair"][1][0].numpy(), "const": r["const"].numpy()}


def case_input_signature(tf):
    traces = []

    @tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
    def f(x):
        traces.append(1)
        return tf.reduce_sum(x) * 2.0

    out = [f(tf.constant([1.0, 2.0])).numpy(), f(tf.constant([1.0, 2.0, 3.0])).numpy(),
           f([4.0]).numpy()]
    return {"values": out, "traces": len(traces),
            "wrong_dtype": catch(lambda: f(tf.constant([1, 2]))),
            "wrong_rank": catch(lambda: f(tf.constant([[1.0]])))}


def case_gradients_through_function(tf):
    v = tf.Variable(3.0)

    @tf.function
    def f(x):
        return x * x * v

    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x)
    gx, gv = t.gradient(y, [x, v])
    return {"y": y.numpy(), "gx": gx.numpy(), "gv": gv.numpy()}


def case_control_flow_inside(tf):
    @tf.function
    def f(x):
        c = tf.cond(x > 0.0, lambda: x * 10.0, lambda: -x)
        _, acc = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a + c), [0, 0.0])
        return acc

    return [f(tf.constant(2.0)).numpy(), f(tf.constant(-2.0)).numpy()]


def case_nested_functions(tf):
    @tf.function
    def inner(x):
        return x * 3.0

    @tf.function
    def outer(x):
        return inner(x) + inner(x * 2.0)

    return outer(tf.constant(1.0)).numpy()


def case_function_in_graph_mode(tf):
    @tf.function
    def f(x):
        return x * 4.0

    with tf.Graph().as_default():
        y = f(tf.constant(2.0))
        with tf.Session() as sess:
            graph_value = sess.run(y)
    return {"graph": graph_value, "eager": f(tf.constant(2.0)).numpy()}


def case_random_inside(tf):
    @tf.function
    def f():
        return tf.random_uniform([2], seed=3)

    tf.set_random_seed(1)
    return [f().numpy(), f().numpy()]


def case_errors_inside(tf):
    @tf.function
    def f(x):
        return tf.reshape(x, [5])

    return {"reshape": catch(lambda: f(tf.constant([1.0, 2.0])))}


def case_concrete_function_of_the_input_signature(tf):
    """`get_concrete_function()` of a function with an input signature (or of
    TensorSpecs) traces it there; the concrete function is called with tensors."""
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def row_sums(x):
        return tf.reduce_sum(x, axis=1)

    @tf.function
    def scaled(x, factor=2.0):
        return x * factor

    by_signature = row_sums.get_concrete_function()
    by_spec = scaled.get_concrete_function(tf.TensorSpec([3], tf.float32))
    return {"signature": by_signature(tf.ones([2, 2])).numpy(),
            "spec": by_spec(tf.constant([1.0, 2.0, 3.0])).numpy(),
            "outputs": [t.shape.as_list() for t in by_signature.outputs]}
