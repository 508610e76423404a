"""Golden cases: `tensorflow.python.framework.function.Defun` graph functions.

One call op whose type is the function's name, the FunctionDef in the graph's library,
output dtypes and shapes (`shape_func`), values; gradients through `python_grad_func`,
`grad_func` (a GradientDef) and TF's symbolic gradient of the body; captured tensors (by
reference and by value), overloaded functions, nested Defuns, a `.meta` round trip; the
pass-through / clip-gradient ops of sonnet v1 and tensor2tensor built on it.

A name TF makes up is `<python name>_<hash of TF's FunctionDef>`: tf1compat writes the
FunctionDef TF does and hashes it as TF does, so cases return the whole name.
"""

import importlib

import numpy as np

X = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -0.25]], np.float32)


def _function(tf):
    if tf.__name__.startswith("tf1compat"):
        from tf1compat.shim import INTERNAL_PATHS
        return importlib.import_module(INTERNAL_PATHS["tensorflow.python.framework.function"])
    return importlib.import_module("tensorflow.python.framework.function")


def _library(graph):
    """The library of `graph.as_graph_def()`: each function's signature and the
    GradientDefs, sorted by name."""
    library = graph.as_graph_def().library
    out = []
    for f in sorted(library.function, key=lambda f: f.signature.name):
        sig = f.signature
        out.append([sig.name, [(a.name, int(a.type)) for a in sig.input_arg],
                    [(a.name, int(a.type)) for a in sig.output_arg],
                    sorted(f.attr), sorted(n.op for n in f.node_def)])
    grads = sorted((g.function_name, g.gradient_func) for g in library.gradient)
    return out, grads


def case_call_op_and_library(tf):
    function = _function(tf)

    @function.Defun(tf.float32, tf.float32, func_name="MulAdd")
    def mul_add(x, y):
        return x * y + 1.0

    a = tf.constant(X[0], name="a")
    b = tf.placeholder(tf.float32, [None, 3], name="b")
    c = mul_add(a, b)
    c2 = mul_add(a, a, name="second")
    graph = tf.get_default_graph()
    nodes = [(n.name, n.op, sorted(n.attr)) for n in graph.as_graph_def().node]
    with tf.Session() as sess:
        values = sess.run([c, c2], {b: X})
    return {"names": [c.name, c2.name, c.op.type, c2.op.type, mul_add.name],
            "shapes": [str(c.shape), str(c2.shape)], "dtypes": [c.dtype.name],
            "inputs": [t.name for t in c.op.inputs], "nodes": nodes,
            "library": _library(graph), "values": values}


def case_hashed_names(tf):
    function = _function(tf)

    @function.Defun(tf.float32)
    def Square(x):
        return x * x

    @function.Defun(tf.float32)
    def Cube(x):
        return x * x * x

    y = Square(tf.constant(3.0))
    z = Cube(tf.constant(2.0))
    with tf.Session() as sess:
        values = sess.run([y, z])
    return {"square": Square.name, "cube": Cube.name,
            "differ": Square.name != Cube.name, "op_is_name": y.op.type == Square.name,
            "op_name": y.op.name == Square.name, "values": values}


def case_symbolic_gradient(tf):
    function = _function(tf)

    @function.Defun(tf.float32, tf.float32, func_name="Body")
    def body(x, w):
        return tf.tanh(tf.matmul(x, w)), tf.reduce_sum(x * x)

    x = tf.constant(X, name="x")
    w = tf.constant(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4), name="w")
    h, s = body(x, w)
    loss = tf.reduce_sum(h * h) + s
    gx, gw = tf.gradients(loss, [x, w])
    with tf.Session() as sess:
        values = sess.run([h, s, gx, gw])
    return {"names": [gx.name, gw.name], "shapes": [str(gx.shape), str(gw.shape)],
            "values": values}


def _grad_func_case(tf, func_name):
    function = _function(tf)

    @function.Defun(tf.float32, tf.float32, func_name=func_name + "Grad")
    def square_grad(x, dy):
        return dy * 3.0 * x

    @function.Defun(tf.float32, grad_func=square_grad, func_name=func_name)
    def square(x):
        return x * x

    x = tf.constant(X, name="x")
    y = square(x)
    library = _library(tf.get_default_graph())
    g = tf.gradients(tf.reduce_sum(y * y), x)[0]
    with tf.Session() as sess:
        values = sess.run([y, g])
    return {"names": [y.name, g.name, square.grad_func_name], "library": library,
            "shape": str(g.shape), "values": values}


def case_grad_func(tf):
    return _grad_func_case(tf, "Sq")


def case_function_named_as_an_op(tf):
    return _grad_func_case(tf, "Square")


def case_grad_func_hashed_name(tf):
    function = _function(tf)

    @function.Defun(tf.float32, tf.float32)
    def FooGrad(x, dy):
        return dy * 2.0

    @function.Defun(tf.float32, grad_func=FooGrad)
    def Foo(x):
        return x + 1.0

    y = Foo(tf.constant([1.0, 2.0]))
    name = Foo.name
    # `<python name>_<gradient function's name>_<hash>`
    prefix = name[:-len(name.rpartition("_")[2]) - 1]
    return {"prefix": prefix == "Foo_" + FooGrad.name, "grad": FooGrad.name, "name": name,
            "op": y.op.type == name}


def case_python_grad_func_pass_through(tf):
    """sonnet v1's pass-through op: identity forward, the gradient passed on unchanged
    (its MovingAverage) or scaled (optimization constraints)."""
    function = _function(tf)

    def _pass_through_grad(unused_op, grad):
        return 2.0 * grad

    @function.Defun(tf.float32, python_grad_func=_pass_through_grad,
                    func_name="PassThrough")
    def pass_through(x):
        return tf.identity(x)

    x = tf.constant(X, name="x")
    v = tf.Variable(np.ones_like(X), name="v")
    y = pass_through(x * v)
    g = tf.gradients(tf.reduce_sum(y * y), [x, v])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([y] + g)
    return {"names": [y.name, g[0].name, g[1].name], "values": values}


def case_clip_gradient(tf):
    """The clip-gradient op (tensor2tensor's / many GAN repos'): identity forward, the
    gradient clipped to [-0.1, 0.1] in the backward pass."""
    function = _function(tf)

    def _clip_grad(op, grad):
        del op
        return tf.clip_by_value(grad, -0.1, 0.1)

    @function.Defun(tf.float32, python_grad_func=_clip_grad, func_name="ClipGradient")
    def clip_gradient(x):
        return x

    x = tf.constant(X, name="x")
    y = clip_gradient(x) * 3.0
    g = tf.gradients(tf.reduce_sum(y * y), x)[0]
    with tf.Session() as sess:
        values = sess.run([y, g])
    return {"names": [g.name], "values": values}


def case_convert_gradient_to_tensor(tf):
    """tensor2tensor's common_layers.convert_gradient_to_tensor: identity forward, the
    (IndexedSlices) gradient converted to a dense tensor."""
    function = _function(tf)

    @function.Defun(tf.float32, python_grad_func=lambda x, dy: tf.convert_to_tensor(dy),
                    shape_func=lambda op: [op.inputs[0].get_shape()])
    def convert_gradient_to_tensor(x):
        return x

    table = tf.constant(np.arange(15, dtype=np.float32).reshape(5, 3), name="table")
    dense = convert_gradient_to_tensor(table)
    rows = tf.gather(dense, [0, 3, 3])
    # TF's gradient is dense; tf1compat's passes the gather's IndexedSlices on (its
    # Python gradient functions see a dense stand-in for the incoming gradient).
    g = tf.convert_to_tensor(tf.gradients(tf.reduce_sum(rows * rows), table)[0])
    with tf.Session() as sess:
        values = sess.run([rows, g])
    return {"shape": str(dense.shape), "values": values}


def case_shape_func_out_names_noinline(tf):
    function = _function(tf)

    @function.Defun(tf.float32, tf.float32, out_names=["total", "diff"],
                    shape_func=lambda op: [op.inputs[0].shape, op.inputs[1].shape],
                    func_name="SumDiff")
    def sum_diff(a, b):
        return a + b, a - b

    x = tf.constant(X, name="x")
    s, d = sum_diff(x, x * 2.0, noinline=True)
    node = [n for n in tf.get_default_graph().as_graph_def().node if n.op == "SumDiff"][0]
    with tf.Session() as sess:
        values = sess.run([s, d])
    return {"names": [s.name, d.name], "shapes": [str(s.shape), str(d.shape)],
            "attrs": sorted(node.attr), "noinline": node.attr["_noinline"].b,
            "library": _library(tf.get_default_graph()), "values": values}


def case_captured_tensors(tf):
    function = _function(tf)
    w = tf.constant(2.0, name="w")
    bias = tf.placeholder(tf.float32, [], name="bias")

    @function.Defun(tf.float32, func_name="Affine")
    def affine(a):
        return a * w + bias

    @function.Defun(tf.float32, capture_by_value=True, func_name="Scaled")
    def scaled(a):
        return a * w

    x = tf.constant(X, name="x")
    y = affine(x)
    z = scaled(x)
    g = tf.gradients(tf.reduce_sum(y), [x, bias])
    with tf.Session() as sess:
        values = sess.run([y, z] + g, {bias: 0.5})
    return {"inputs": [[t.name for t in y.op.inputs], [t.name for t in z.op.inputs]],
            "captured": [t.name for t in affine.captured_inputs],
            "grads": [t.name for t in g], "library": _library(tf.get_default_graph()),
            "values": values}


def case_capture_placeholder_by_value(tf):
    function = _function(tf)
    p = tf.placeholder(tf.float32, [], name="p")

    @function.Defun(tf.float32, capture_by_value=True)
    def f(a):
        return a * p

    return f(tf.constant(1.0))


def case_overloaded(tf):
    function = _function(tf)

    @function.Defun(func_name="Add2")
    def add2(a, b):
        return a + b

    @function.Defun()
    def Plus(a, b):
        return a + b

    f = add2(tf.constant(X), tf.constant(X))
    i = add2(tf.constant([1, 2]), tf.constant([3, 4]))
    p = Plus(tf.constant(1.0), tf.constant(2.0))
    with tf.Session() as sess:
        values = sess.run([f, i, p])
    return {"names": [f.name, i.name, f.op.type, i.op.type],
            "plus": p.op.type, "dtypes": [f.dtype.name, i.dtype.name],
            "values": values}


def case_nested_and_repeated(tf):
    function = _function(tf)

    @function.Defun(tf.float32, func_name="Inner")
    def inner(x):
        return tf.sin(x) * 2.0

    @function.Defun(tf.float32, func_name="Outer")
    def outer(x):
        return inner(x) + inner(x * x)

    x = tf.constant(X, name="x")
    ys = [outer(x), outer(x + 1.0), inner(x)]
    library = _library(tf.get_default_graph())
    g = tf.gradients(tf.add_n(ys), x)[0]
    with tf.Session() as sess:
        values = sess.run(ys + [g])
    return {"names": [y.name for y in ys] + [g.name], "library": library,
            "values": values}


def case_no_arguments_and_multiple_outputs(tf):
    function = _function(tf)

    @function.Defun(func_name="Consts")
    def consts():
        return tf.constant([1, 2], name="ints"), tf.constant(2.5, name="half")

    a, b = consts()
    with tf.Session() as sess:
        values = sess.run([a, b])
    return {"names": [a.name, b.name], "dtypes": [a.dtype.name, b.dtype.name],
            "library": _library(tf.get_default_graph()), "values": values}


def case_wrong_argument_count(tf):
    function = _function(tf)

    @function.Defun(tf.float32, tf.float32)
    def f(a, b):
        return a + b

    return f(tf.constant(1.0))


def case_too_many_input_types(tf):
    function = _function(tf)

    @function.Defun(tf.float32, tf.float32)
    def f(a):
        return a

    return f


def case_returns_none(tf):
    function = _function(tf)

    @function.Defun(tf.float32)
    def f(a):
        return [a, None]

    return f(tf.constant(1.0))


def case_defaults_refused(tf):
    function = _function(tf)

    def f(a, b=1.0):
        return a + b

    return function.Defun(tf.float32)(f)


def case_meta_graph_round_trip(tf):
    function = _function(tf)
    graph = tf.Graph()
    with graph.as_default():
        @function.Defun(tf.float32, tf.float32, func_name="Gate")
        def gate(x, y):
            return tf.sigmoid(x) * y

        x = tf.placeholder(tf.float32, [None, 3], name="x")
        y = gate(x, x * 2.0, name="gated")
        tf.identity(y, name="out")
        meta = tf.train.export_meta_graph()
    with tf.Graph().as_default() as imported:
        tf.train.import_meta_graph(meta)
        op = imported.get_operation_by_name("gated")
        with tf.Session() as sess:
            value = sess.run("out:0", {"x:0": X})
        return {"type": op.type, "inputs": [t.name for t in op.inputs],
                "library": _library(imported), "value": value}


def case_captured_variables(tf):
    """A body reading a ref variable and a resource variable (captured: extra inputs of
    the call), their gradients and a GradientDescent step through the call."""
    function = _function(tf)
    w = tf.Variable(np.linspace(-1, 1, 6, dtype=np.float32).reshape(3, 2), name="w")
    r = tf.get_variable("r", initializer=np.full((3, 2), 0.5, np.float32),
                        use_resource=True)

    @function.Defun(tf.float32, func_name="TwoWeights")
    def two_weights(x):
        return tf.tanh(tf.matmul(x, w) + tf.matmul(x * x, r))

    x = tf.constant(X * 0.2, name="x")
    loss = tf.reduce_sum(tf.square(two_weights(x)))
    g = tf.gradients(loss, [w, r])
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([loss] + g)
        sess.run(train)
        after = sess.run([w, r, loss])
    return {"names": [t.name for t in g], "values": values, "after": after}


def _variables(tf):
    """Each global variable's name, class, trainability and op type (TF hoists the
    variables a body creates into the outer graph)."""
    trainable = set(v.name for v in tf.trainable_variables())
    return [(v.name, type(v).__name__, v.name in trainable, v.op.type,
             v.graph is tf.get_default_graph()) for v in tf.global_variables()]


def _first_line(error):
    return str(error).split("\n")[0]


def case_get_variable_in_body(tf):
    """`tf.get_variable` in a body: made in the outer graph in the variable scope the
    function was defined in (a scope opened inside the body adds to it), trainable or
    not; the call captures each variable's snapshot; gradients reach the variables."""
    function = _function(tf)
    with tf.variable_scope("s"):
        @function.Defun(tf.float32, func_name="Affine")
        def affine(x):
            w = tf.get_variable("w", [3], initializer=tf.constant_initializer([2., 3., 4.]))
            with tf.variable_scope("inner"):
                b = tf.get_variable("b", [], initializer=tf.constant_initializer(1.0),
                                    trainable=False)
            return x * w + b

        name = affine.name
    with tf.name_scope("call"):
        y = affine(tf.constant(X[0], name="x"))
    y2 = affine(y, name="again")
    grads = tf.gradients(tf.reduce_sum(y2 * y2), tf.global_variables())
    graph = tf.get_default_graph()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([y, y2] + grads)
    return {"name": name, "variables": _variables(tf),
            "ops": [(op.name, op.type) for op in graph.get_operations()
                    if not op.name.startswith("gradients")],
            "inputs": [[t.name for t in op.inputs] for op in (y.op, y2.op)],
            "signature": [[a.name for a in affine.definition.signature.input_arg],
                          sorted(n.op for n in affine.definition.node_def)],
            "values": values}


def case_resource_variable_in_body(tf):
    """A resource variable made in a body is read outside it: the call takes the value
    (TF's capture_resource_var_by_value); trained with GradientDescent."""
    function = _function(tf)

    @function.Defun(tf.float32, func_name="Scaled")
    def scaled(x):
        w = tf.get_variable("w", [3], initializer=tf.constant_initializer([2., 3., 4.]),
                            use_resource=True)
        return x * w

    y = scaled(tf.constant(X[0], name="x"))
    loss = tf.reduce_sum(y * y)
    grads = tf.gradients(loss, tf.trainable_variables())
    train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
    graph = tf.get_default_graph()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([y] + grads)
        sess.run(train)
        after = sess.run(tf.global_variables())
    return {"variables": _variables(tf),
            "ops": [(op.name, op.type) for op in graph.get_operations()][:8],
            "inputs": [t.op.type for t in y.op.inputs], "values": values, "after": after}


def case_tf_variable_in_body(tf):
    """`tf.Variable` in a body: its ops are made in the outer graph (TF's init_scope), in
    the body's name scope; trained through the call."""
    function = _function(tf)

    @function.Defun(tf.float32, func_name="WithVariable")
    def with_variable(x):
        with tf.name_scope("layer"):
            v = tf.Variable([2.0, -1.0, 0.5], name="v")
        return tf.reduce_sum(tf.square(x * v))

    loss = with_variable(tf.constant(X[1], name="x"))
    train = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
    graph = tf.get_default_graph()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        before = sess.run(loss)
        sess.run(train)
        after = sess.run([loss] + tf.global_variables())
    return {"variables": _variables(tf),
            "ops": [(op.name, op.type) for op in graph.get_operations()][:7],
            "values": [before] + after}


def case_variable_reuse_in_body(tf):
    """A body's `get_variable` asks the defining scope with the body's own `reuse` (False):
    a second function making the same variable fails even under `reuse=True` or
    AUTO_REUSE outside; `reuse=True` inside the body gets the existing one."""
    function = _function(tf)

    def body(x):
        return x * tf.get_variable("w", [3], initializer=tf.constant_initializer(2.0))

    out = {}
    with tf.variable_scope("s"):
        function.Defun(tf.float32, func_name="First")(body)(tf.constant(X[0]))
    for label, reuse in (("reuse", True), ("auto", tf.AUTO_REUSE)):
        try:
            with tf.variable_scope("s", reuse=reuse):
                function.Defun(tf.float32, func_name=f"Again_{label}")(body)(
                    tf.constant(X[0]))
            out[label] = "ok"
        except ValueError as e:
            out[label] = _first_line(e)

    @function.Defun(tf.float32, func_name="Shared")
    def shared(x):
        with tf.variable_scope("s", reuse=True):
            return x * tf.get_variable("w", [3])

    y = shared(tf.constant(X[0]))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out["value"] = sess.run(y)
    out["variables"] = _variables(tf)
    return out


def case_variables_in_nested_bodies(tf):
    """A Defun called in another's body makes its variable in the outermost graph, in the
    variable scope open in the calling body; both calls capture the snapshots."""
    function = _function(tf)

    @function.Defun(tf.float32, func_name="Inner")
    def inner(x):
        return x * tf.get_variable("w", [3], initializer=tf.constant_initializer([2., 3., 4.]))

    @function.Defun(tf.float32, func_name="Outer")
    def outer(x):
        with tf.variable_scope("o"):
            return inner(x) + tf.get_variable("b", [], initializer=tf.constant_initializer(1.))

    y = outer(tf.constant(X[0], name="x"))
    grads = tf.gradients(tf.reduce_sum(y * y), tf.global_variables())
    graph = tf.get_default_graph()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([y] + grads)
    return {"variables": _variables(tf),
            "ops": [(op.name, op.type) for op in graph.get_operations()][:10],
            "inputs": [t.name for t in y.op.inputs], "library": _library(graph),
            "values": values}


def case_hashed_names_of_bodies(tf):
    """TF's made-up names of several bodies: TF's hash of its FunctionDef (results named
    by their ops, nodes renamed beside them, a docstring, a stateful body, string and
    integer constants, a captured tensor, two results of one op, an argument named as a
    node, a nested call)."""
    function = _function(tf)
    c = tf.constant(2.0, name="c")

    @function.Defun(tf.float32, tf.float32)
    def affine(x, y):
        """Affine map."""
        return tf.tanh(tf.matmul(x, y)) + 3.0, tf.reduce_sum(x, [0])

    @function.Defun(tf.int32)
    def strings(x):
        return tf.strings.as_string(x), tf.random_uniform([2]), tf.constant(["a", "bc"])

    @function.Defun(tf.float32)
    def captured(x):
        return x * c

    @function.Defun(tf.float32)
    def twice(x):
        y = tf.identity(x)
        return y, y, x

    @function.Defun(tf.float32, tf.float32)
    def Identity(Identity, y):  # noqa: N802, N803 - an argument named as the body's node
        return tf.identity(Identity) * y

    @function.Defun(tf.float32, tf.float32)
    def outer(x, w):
        return affine(x, w)[1] * captured(x)

    x = tf.constant(X, name="x")
    out = [affine(x, tf.transpose(x))[0], strings(tf.constant([1, 2]))[0], captured(x),
           twice(x)[1], Identity(x, x), outer(x, tf.transpose(x))]
    functions = (affine, strings, captured, twice, Identity, outer)
    names = [f.name for f in functions]
    graph = tf.get_default_graph()
    signatures = {f.signature.name: ([a.name for a in f.signature.input_arg],
                                     [a.name for a in f.signature.output_arg],
                                     sorted(n.name for n in f.node_def))
                  for f in graph.as_graph_def().library.function}
    with tf.Session() as sess:
        values = sess.run([t for k, t in enumerate(out) if k != 1])
    return {"names": names, "types": [t.op.type for t in out],
            "stateful": [f.definition.signature.is_stateful for f in functions],
            "signatures": signatures, "values": values}


def case_overloaded_grad_func(tf):
    """tensor2tensor's shake-shake form: an overloaded Defun (no input types) whose
    gradient function is overloaded too; the instance's name leaves the gradient function
    out (named before it is known), its GradientDef differentiates the calls."""
    function = _function(tf)

    @function.Defun()
    def equal_grad(x1, x2, dy):
        return dy * 0.5, dy * 0.5

    @function.Defun(grad_func=equal_grad)
    def mix(x1, x2):
        return 0.3 * x1 + 0.7 * x2

    a = tf.constant(X[0], name="a")
    b = tf.constant(X[1], name="b")
    y = mix(a, b)
    grads = tf.gradients(tf.reduce_sum(y * y), [a, b])
    library = _library(tf.get_default_graph())
    with tf.Session() as sess:
        values = sess.run([y] + grads)
    return {"type": y.op.type, "library": library, "values": values}


def case_t2t_recompute_grad(tf):
    """tensor2tensor's `fn_with_custom_grad` / `recompute_grad` (common_layers.py, without
    contrib's arg_scope): an identity Defun over the inputs, the variables the function made
    and its outputs, whose Python gradient recomputes the function under `reuse=True`
    and differentiates it with tf.gradients."""
    function = _function(tf)
    built = []

    def layer(x):
        w = tf.get_variable("w", initializer=np.linspace(-1, 1, 12, dtype=np.float32)
                            .reshape(3, 4))
        return tf.tanh(tf.matmul(x, w))

    def grad_fn(inputs, variables, outputs, output_grads):
        with tf.control_dependencies(output_grads):
            with tf.variable_scope(built[0], reuse=True):
                outputs = [layer(*inputs)]
        grads = tf.gradients(outputs, inputs + variables, output_grads)
        return grads[:len(inputs)], grads[len(inputs):]

    def recompute(x):
        vs = tf.get_variable_scope()
        before = len(vs.trainable_variables())
        built.append(vs)
        outputs = [layer(x)]
        train_vars = vs.trainable_variables()[before:]
        nested = [[x], train_vars, outputs]

        def custom_grad_fn(op, *dys):
            fn_inputs, fn_vars, fn_outputs = tf.nest.pack_sequence_as(nested, list(op.inputs))
            grad_inputs, grad_vars = grad_fn(fn_inputs, fn_vars, fn_outputs, list(dys))
            return tuple(grad_inputs + grad_vars + [None] * len(fn_outputs))

        @function.Defun(*[t.dtype for t in tf.nest.flatten(nested)],
                        func_name="identity_custom_grad1", python_grad_func=custom_grad_fn,
                        shape_func=lambda _: [t.get_shape() for t in outputs])
        def identity(*args):
            return tuple(tf.identity(t) for t in tf.nest.pack_sequence_as(nested, args)[2])

        return identity(*tf.nest.flatten(nested))

    x = tf.constant(X, name="x")
    with tf.variable_scope("rc"):
        y = recompute(x)
    loss = tf.reduce_sum(y * y)
    grads = tf.gradients(loss, [x] + tf.trainable_variables())
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([y] + grads)
        sess.run(train)
        after = sess.run(tf.trainable_variables())
    return {"type": y.op.type, "shape": str(y.shape), "variables": _variables(tf),
            "values": values, "after": after}


def cond_bodies(tf, function):
    """Defuns named by hash whose bodies hold tf.conds (one returns an outside tensor from
    a branch, one captures `scale`, one nests conds and calls a Defun in a branch; also
    tests/graph_export_cases.py)."""
    scale = tf.constant(3.0, name="scale")

    @function.Defun(tf.float32)
    def Branchy(x):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: -x)

    @function.Defun(tf.float32, tf.float32)
    def TwoConds(x, y):
        a, b = tf.cond(x[0] > y[0], lambda: (x + y, x * scale), lambda: (x - y, y))
        c = tf.cond(tf.reduce_max(a) > 1.0, lambda: a * b, lambda: tf.constant([7.0, 8.0]))
        return c, b

    @function.Defun(tf.float32)
    def Inner(x):
        return x * 3.0

    @function.Defun(tf.float32)
    def Nested(x):
        # a cond in a branch, a Defun called in it (TF gates the call on the pivot)
        return tf.cond(x[0] > 0, lambda: tf.cond(x[1] > 0, lambda: Inner(x),
                                                 lambda: x - 1.0),
                       lambda: tf.identity(x))
    return Branchy, TwoConds, Nested


def case_cond_in_body(tf):
    # TF builds a tf.cond in a Defun body as Switch/Merge (control flow v1) and hashes
    # those nodes: the made-up names depend on them.
    Branchy, TwoConds, Nested = cond_bodies(tf, _function(tf))
    x = tf.placeholder(tf.float32, [None], name="x")
    y = Branchy(x)
    z = Nested(tf.constant([1.0, -2.0]))
    u, v = TwoConds(tf.constant([1.0, 2.0]), tf.constant([0.5, -1.0]))
    u2, v2 = TwoConds(tf.constant([-1.0, 0.25]), tf.constant([0.5, -1.0]))
    library = tf.get_default_graph().as_graph_def().library
    bodies = {f.signature.name.split("_")[0]: sorted((n.name, n.op) for n in f.node_def)
              for f in library.function}
    with tf.Session() as sess:
        values = [sess.run(y, {x: [1.0, 2.0]}), sess.run(y, {x: [-1.0, -2.0]})]
        values += sess.run([u, v, u2, v2, z])
    return {"names": [Branchy.name, TwoConds.name, Nested.name], "bodies": bodies,
            "library": _library(tf.get_default_graph()), "values": values}
