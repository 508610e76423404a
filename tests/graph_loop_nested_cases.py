"""Training graphs with while loops nested in a loop body whose trip count is known only
at run time, which real TensorFlow trains from the file tf1compat writes (nested
backward loops, graphdef/loop_gradient_export.py; recorded by
scripts/check_tf_reads_graphs.py as tests/graph_loop_training_cases.py).
"""

from __future__ import annotations

import numpy as np

from tests.graph_training_cases import _training_spec

ROWS = np.cos(np.arange(5 * 3, dtype=np.float32) * 0.7).reshape(5, 3)


def _weights(tf, diagonal: float, v: list):
    """The variables `w` (3x3: `diagonal` on the diagonal + 0.1) and `v` (3)."""
    w = tf.get_variable("w", [3, 3], initializer=tf.constant_initializer(
        np.eye(3, dtype=np.float32) * diagonal + 0.1))
    return w, tf.get_variable("v", [3], initializer=tf.constant_initializer(v))


def _flag_both_ways(tf, fed_n: bool = True) -> dict:
    """The training spec of a case with a fed `flag` (and `n`, with `fed_n`): the steps
    with it on, then one with it off."""
    feeds = {"x:0": ROWS[:4], **({"n:0": 2} if fed_n else {}), "flag:0": True}
    spec = _training_spec(tf, tf.train.Saver(), feeds, ["loss:0", "w:0", "v:0"])
    flipped = dict(feeds, **{"flag:0": False})
    spec["runs"] += [{"feeds": flipped, "fetches": [], "targets": ["train"]},
                     {"feeds": flipped, "fetches": ["loss:0", "w:0", "v:0"]}]
    return spec


def case_train_nested_loop_run_time_trip_count(tf):
    """An outer loop over the rows whose body runs an inner tf.while_loop as many times
    as the outer counter says (0, 1, 2, ... refinement steps: a trip count known only at
    run time), reading a captured weight, the outer step's row and the outer state; a
    second inner loop of a fed trip count after it; Momentum."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    w, v = _weights(tf, 0.4, [0.5, -0.3, 0.2])

    def body(i, h):
        row = x[i]

        def refine(j, g):
            return j + 1, tf.tanh(tf.matmul(g, w) + row * v) * 0.7 + h * 0.3
        _, g = tf.while_loop(lambda j, g: j < i, refine, [tf.constant(0), h + row])
        _, g = tf.while_loop(lambda k, g: k < n, lambda k, g: [k + 1, g * v + 0.1],
                             [tf.constant(0), g])
        return i + 1, g

    _, h = tf.while_loop(lambda i, h: i < 4, body, [tf.constant(0), tf.zeros([1, 3])])
    loss = tf.reduce_mean(tf.square(h - 0.3), name="loss")
    tf.train.MomentumOptimizer(0.1, 0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS[:4], "n:0": 2},
                          ["loss:0", "w:0", "v:0"])


def case_train_loop_in_cond_in_loop(tf):
    """An outer loop over the rows whose body picks, by a fed flag and by the parity of
    the outer counter, between an inner tf.while_loop (a trip count from the outer
    counter, a captured weight and the outer step's row) and a plain update; the
    predicates fed all ways; Adam."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    flag = tf.placeholder(tf.bool, [], name="flag")
    w, v = _weights(tf, 0.3, [0.4, -0.2, 0.3])

    def body(i, h):
        row = x[i]

        def looped():
            return tf.while_loop(lambda j, g: j < i + 1, lambda j, g: (
                j + 1, tf.tanh(tf.matmul(g, w) + row * v)), [tf.constant(0), h])[1]
        take = tf.logical_and(flag, tf.equal(tf.floormod(i, 2), 0))
        g = tf.cond(take, looped, lambda: h * v + row)
        return i + 1, g * 0.9 + h * 0.1

    _, h = tf.while_loop(lambda i, h: i < 4, body, [tf.constant(0), tf.zeros([1, 3])])
    loss = tf.reduce_mean(tf.square(h - 0.2), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    feeds = {"x:0": ROWS[:4], "flag:0": True}
    spec = _training_spec(tf, tf.train.Saver(), feeds, ["loss:0", "w:0", "v:0"])
    flipped = dict(feeds, **{"flag:0": False})
    spec["runs"] += [{"feeds": flipped, "fetches": [], "targets": ["train"]},
                     {"feeds": flipped, "fetches": ["loss:0", "w:0", "v:0"]}]
    return spec


def case_train_dynamic_rnn_run_time_length_in_loop(tf):
    """A `dynamic_rnn` (BasicRNNCell) over sequences of a length known only at run time
    (fed: 4 steps) inside a `tf.while_loop` of two passes, its outputs stacked from its
    TensorArray after the inner loop; Adam."""
    x = tf.placeholder(tf.float32, [2, None, 2], name="x")
    cell = tf.nn.rnn_cell.BasicRNNCell(2, name="cell")

    def passes(i, h):
        out, _ = tf.nn.dynamic_rnn(cell, h, dtype=tf.float32)
        return i + 1, h * 0.5 + out

    _, h = tf.while_loop(lambda i, h: i < 2, passes, [tf.constant(0), x])
    loss = tf.identity(tf.reduce_mean(tf.square(h - 0.1)), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    data = np.sin(np.arange(16, dtype=np.float32) * 0.6).reshape(2, 4, 2)
    return _training_spec(tf, tf.train.Saver(), {"x:0": data},
                          ["loss:0", "rnn/cell/kernel:0", "rnn/cell/bias:0"])


def case_train_scan_map_fold_run_time_length_in_loop(tf):
    """tf.scan from an initializer, from the first element (written into its array
    before its loop) and reversed from the last (at a run-time index), tf.map_fn over
    the states and tf.foldl (from the first element) over a fed [None, 3] input (a
    length known only at run time) inside a tf.while_loop of three passes, reading a
    captured weight and the outer state; Adam."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w, v = _weights(tf, 0.4, [0.5, -0.3, 0.2])

    def body(i, h):
        states = tf.scan(lambda acc, e: tf.tanh(tf.matmul(acc, w) + e * v), x[:, None, :],
                         initializer=h)
        firsts = tf.scan(lambda acc, e: tf.tanh(acc * v + e), x[:, None, :] + h)
        lasts = tf.scan(lambda acc, e: acc * 0.5 + e * v, x[:, None, :] - h, reverse=True)
        mapped = tf.map_fn(lambda s: tf.sin(s) * v, states)
        total = tf.foldl(lambda acc, s: acc * 0.5 + s, mapped)
        return i + 1, h * 0.2 + states[-1] * 0.5 + total * 0.3 + \
            (firsts[-1] + firsts[0] + lasts[0]) * 0.2

    _, h = tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), tf.zeros([1, 3])])
    loss = tf.reduce_mean(tf.square(h - 0.3), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS[:4]}, ["loss:0", "w:0", "v:0"])


def case_train_tensor_array_computed_indices(tf):
    """A loop writing a TensorArray at its counter and reading it back after the write at
    computed indices (`i // 2`, `(i + 1) // 2`: the element just written or an earlier
    one; clear_after_read off), and writing a second one at a computed index
    `(2 * i) % 5` (a permutation of the rows) stacked after the loop and weighted per
    row; GradientDescent."""
    x = tf.placeholder(tf.float32, [5, 3], name="x")
    w, v = _weights(tf, 0.5, [0.3, -0.4, 0.2])
    seen = tf.TensorArray(tf.float32, 5, clear_after_read=False, element_shape=[1, 3])
    spread = tf.TensorArray(tf.float32, 5, element_shape=[1, 3])

    def body(i, h, seen, spread):
        e = tf.tanh(tf.matmul(h, w) + x[i])
        seen = seen.write(i, e)
        back = seen.read(tf.floordiv(i, 2)) + seen.read(tf.floordiv(i + 1, 2)) * v
        spread = spread.write(tf.floormod(2 * i, 5), back * e)
        return i + 1, e * 0.5 + back * 0.4, seen, spread

    _, h, _, spread = tf.while_loop(lambda i, *_: i < 5, body,
                                    [tf.constant(0), tf.zeros([1, 3]), seen, spread])
    weights = tf.constant(np.arange(1, 6, dtype=np.float32).reshape(5, 1, 1) / 5)
    loss = tf.identity(tf.reduce_mean(tf.square(h - 0.1)) +
                       tf.reduce_sum(spread.stack() * weights), name="loss")
    tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS}, ["loss:0", "w:0", "v:0"])


def case_train_tensor_array_read_between_writes(tf):
    """A loop writing two elements of a TensorArray per iteration (`2 * i`, `2 * i + 1`),
    the second computed from a read between the writes at a computed index (`2 * i`, not
    the first write's index tensor: the element just written) and at `i` (an earlier
    iteration's element, or the one just written at i = 0), stacked after the loop;
    GradientDescent."""
    x = tf.placeholder(tf.float32, [3, 2], name="x")
    w = tf.get_variable("w", [2], initializer=tf.constant_initializer([0.7, -0.4]))
    ta = tf.TensorArray(tf.float32, 6, clear_after_read=False)

    def body(i, ta):
        ta = ta.write(2 * i, tf.tanh(x[i] * w))
        return i + 1, ta.write(2 * i + 1, ta.read(2 * i) * w + ta.read(i) * 0.5)

    _, ta = tf.while_loop(lambda i, ta: i < 3, body, [tf.constant(0), ta])
    weights = tf.constant(np.arange(1, 7, dtype=np.float32).reshape(6, 1) / 6)
    loss = tf.identity(tf.reduce_sum(tf.square(ta.stack() * weights - 0.2)), name="loss")
    tf.train.GradientDescentOptimizer(0.2).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS[:3, :2]}, ["loss:0", "w:0"])


def three_level_loops(tf, flag=None):
    """`h` of loops nested three deep: an outer loop over the rows of `x` whose body runs
    a loop of `i + 1` steps (a trip count known only at run time) whose body holds a
    tf.cond on the parity of its counter (a MatMul with the captured weight `w` one way,
    the outer step's row the other) and a third loop of a fed trip count `n` reading the
    outer step's row. With a bool tensor `flag`, the outer body also runs a loop inside a
    tf.cond (on the parity of the outer counter) inside a tf.cond on `flag`."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    w, v = _weights(tf, 0.3, [0.4, -0.2, 0.3])

    def body(i, h):
        row = x[i]

        def middle(j, g):
            g = tf.cond(tf.equal(tf.floormod(j, 2), 0), lambda: tf.tanh(tf.matmul(g, w)),
                        lambda: g * v + row)
            _, g = tf.while_loop(lambda k, f: k < n,
                                 lambda k, f: (k + 1, tf.sin(f) * 0.9 + row * 0.1),
                                 [tf.constant(0), g])
            return j + 1, g

        _, g = tf.while_loop(lambda j, g: j < i + 1, middle, [tf.constant(0), h])
        if flag is not None:
            def looped():
                return tf.while_loop(lambda j, f: j < i, lambda j, f: (
                    j + 1, tf.tanh(tf.matmul(f, w) + row * v)), [tf.constant(0), g])[1]
            g = tf.cond(flag, lambda: tf.cond(tf.equal(tf.floormod(i, 2), 0), looped,
                                              lambda: g * v),
                        lambda: g + row)
        return i + 1, g * 0.8 + h * 0.2

    return tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), tf.zeros([1, 3])])[1]


def case_train_three_level_loops_with_cond(tf):
    """`three_level_loops` (a cond in the middle body); GradientDescent."""
    h = three_level_loops(tf)
    loss = tf.reduce_mean(tf.square(h - 0.2), name="loss")
    tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS[:4], "n:0": 2},
                          ["loss:0", "w:0", "v:0"])


def case_train_loop_in_cond_in_cond_in_loop(tf):
    """`three_level_loops` with a loop in a tf.cond (the outer counter's parity) in a
    tf.cond on a fed flag in the outer body; GradientDescent; the flag fed both ways
    (the model TF writes in scripts/make_graph_fixtures_loops.py)."""
    flag = tf.placeholder(tf.bool, [], name="flag")
    h = three_level_loops(tf, flag)
    loss = tf.reduce_mean(tf.square(h - 0.2), name="loss")
    tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _flag_both_ways(tf)


def case_train_tensor_array_entering_with_elements(tf):
    """A loop writing a TensorArray that already holds two elements written before it,
    reading the two before each write (`ta.read(i - 1)`, `ta.read(i - 2)`), stacked
    after it; a second array entering with an element, read after the loop by gather()
    and read(1); a top-level tf.scan without an initializer (its first element written
    before its loop) and a reversed one; GradientDescent."""
    x = tf.placeholder(tf.float32, [5, 3], name="x")
    w, v = _weights(tf, 0.5, [0.3, -0.4, 0.2])
    ta = tf.TensorArray(tf.float32, 5, clear_after_read=False, element_shape=[1, 3])
    ta = ta.write(0, tf.tanh(tf.matmul(x[:1], w))).write(1, x[1:2] * v)
    tb = tf.TensorArray(tf.float32, 5, clear_after_read=False).write(0, x[:1] * w[0])

    def body(i, ta, tb):
        e = tf.tanh(tf.matmul(ta.read(i - 1), w) + x[i] * v) + ta.read(i - 2) * 0.5
        return i + 1, ta.write(i, e), tb.write(i - 1, e * v)

    _, ta, tb = tf.while_loop(lambda i, *_: i < 5, body, [tf.constant(2), ta, tb])
    firsts = tf.scan(lambda acc, e: tf.tanh(tf.matmul(acc, w) + e), x[:, None, :])
    lasts = tf.scan(lambda acc, e: acc * v + e, x[:, None, :] * v, reverse=True)
    weights = tf.constant(np.arange(1, 6, dtype=np.float32).reshape(5, 1, 1) / 5)
    loss = tf.identity(tf.reduce_sum(tf.square(ta.stack() * weights - 0.1)) +
                       tf.reduce_sum(tb.gather([3, 0, 1]) * weights[:3]) +
                       tf.reduce_sum(tb.read(1) * v) + tf.reduce_mean(firsts * weights) +
                       tf.reduce_mean(tf.square(lasts)), name="loss")
    tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS}, ["loss:0", "w:0", "v:0"])


def _fed_and_weights(tf, *names: str) -> tuple:
    """The fed rows `x` ([4, 3]), a fed int32 `n` or bool scalar per other name, then
    the variables `w` and `v`."""
    fed = [tf.placeholder(tf.float32, [4, 3], name="x")] + [
        tf.placeholder(tf.int32 if name == "n" else tf.bool, [], name=name) for name in names]
    return (*fed, *_weights(tf, 0.3, [0.4, -0.2, 0.3]))


def _train_outer_loop(tf, body, passes: int, target: float, optimizer=None) -> None:
    """An outer loop of `passes` steps of `body` from a [1, 3] state of 0.1s, the mean
    squared distance of its result from `target` as "loss", its "train" op
    (GradientDescent unless `optimizer`) and "init"."""
    _, h = tf.while_loop(lambda i, h: i < passes, body,
                         [tf.constant(0), tf.ones([1, 3]) * 0.1])
    loss = tf.reduce_mean(tf.square(h - target), name="loss")
    (optimizer or tf.train.GradientDescentOptimizer(0.1)).minimize(loss, name="train")
    tf.global_variables_initializer()


def case_train_tensor_arrays_split_before_nested_loop(tf):
    """An outer loop whose body splits a value it computes into a TensorArray (rows of
    lengths 1 and 3: `TensorArray.split`) and unstacks another, then runs a loop of a fed
    trip count reading both at its counter; Momentum."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    w, v = _weights(tf, 0.4, [0.5, -0.3, 0.2])

    def body(i, h):
        rows = tf.tanh(x * h + tf.matmul(x, w))
        parts = tf.TensorArray(tf.float32, 2, infer_shape=False).split(rows, [1, 3])
        each = tf.TensorArray(tf.float32, 4).unstack(rows * v)

        def inner(j, g):
            part = tf.reshape(tf.reduce_sum(parts.read(j), 0), [1, 3])
            return j + 1, g * 0.6 + part * v + each.read(j) * 0.3
        _, g = tf.while_loop(lambda j, g: j < n, inner, [tf.constant(0), h])
        return i + 1, g

    _train_outer_loop(tf, body, 3, 0.3, tf.train.MomentumOptimizer(0.1, 0.5))
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS[:4], "n:0": 2},
                          ["loss:0", "w:0", "v:0"])


def case_train_nested_loop_cond_random_and_stop(tf):
    """An outer loop whose body runs a loop of `i + 1` steps (a run-time trip count)
    whose body holds a tf.cond on its counter's parity: one branch multiplies by random
    numbers (uniform in [1, 1]: the same values in TF and tf1compat) of the state's
    run-time shape and adds a gradient stop, the other reads the outer step's row and
    takes an erf (an op expanded around its value); GradientDescent."""
    tf.set_random_seed(51)
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    w, v = _weights(tf, 0.3, [0.4, -0.2, 0.3])

    def body(i, h):
        row = x[i]

        def middle(j, g):
            return j + 1, tf.cond(
                tf.equal(tf.floormod(j, 2), 0),
                lambda: tf.tanh(tf.matmul(g, w)) * tf.random_uniform(tf.shape(g), 1.0, 1.0) +
                tf.stop_gradient(g * v) * 0.5,
                lambda: g * v + row + tf.math.erf(g) * 0.1)

        _, g = tf.while_loop(lambda j, g: j < i + 1, middle, [tf.constant(0), h])
        return i + 1, g * 0.8 + h * 0.2

    _train_outer_loop(tf, body, 3, 0.3)
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS[:4]}, ["loss:0", "w:0", "v:0"])


def case_train_loop_in_cond_in_nested_loop(tf):
    """An outer loop whose body runs a loop of `i + 1` steps (a run-time trip count)
    whose body holds a tf.cond (a fed flag and its counter's parity) with a loop of a
    fed trip count in one branch; GradientDescent; the flag fed both ways."""
    x, n, flag, w, v = _fed_and_weights(tf, "n", "flag")

    def body(i, h):
        row = x[i]

        def middle(j, g):
            def looped():
                return tf.while_loop(lambda k, f: k < n, lambda k, f: (
                    k + 1, tf.tanh(tf.matmul(f, w) + row * v)), [tf.constant(0), g])[1]
            take = tf.logical_and(flag, tf.equal(tf.floormod(j, 2), 0))
            return j + 1, tf.cond(take, looped, lambda: g * v + row)

        _, g = tf.while_loop(lambda j, g: j < i + 1, middle, [tf.constant(0), h])
        return i + 1, g * 0.8 + h * 0.2

    _train_outer_loop(tf, body, 3, 0.3)
    return _flag_both_ways(tf)


def case_train_loop_in_three_conds_in_loop(tf):
    """An outer loop whose body runs a loop of a run-time trip count (the outer counter)
    in a tf.cond (a fed `other`) in a tf.cond (the counter's parity) in a tf.cond (a fed
    `flag`); GradientDescent; the flags fed all ways."""
    x, flag, other, w, v = _fed_and_weights(tf, "flag", "other")

    def body(i, h):
        row = x[i]

        def looped():
            return tf.while_loop(lambda j, f: j < i, lambda j, f: (
                j + 1, tf.tanh(tf.matmul(f, w) + row * v)), [tf.constant(0), h])[1]
        g = tf.cond(flag, lambda: tf.cond(tf.equal(tf.floormod(i, 2), 0),
                                          lambda: tf.cond(other, looped, lambda: h * w[0]),
                                          lambda: h * v),
                    lambda: h + row)
        return i + 1, g * 0.8 + h * 0.2

    _train_outer_loop(tf, body, 4, 0.2)
    feeds = {"x:0": ROWS[:4], "flag:0": True, "other:0": True}
    spec = _training_spec(tf, tf.train.Saver(), feeds, ["loss:0", "w:0", "v:0"])
    for flags in ({"other:0": False}, {"flag:0": False}):
        changed = dict(feeds, **flags)
        spec["runs"] += [{"feeds": changed, "fetches": [], "targets": ["train"]},
                         {"feeds": changed, "fetches": ["loss:0", "w:0", "v:0"]}]
    return spec


def _train_loop_in_cond_reading_branch_values(tf, more_start=None, more_scale=None):
    """An outer loop whose body runs, in a tf.cond (a fed flag and the counter's
    parity), a loop of a run-time trip count starting from and capturing values the
    branch computes (`tanh(h * v + row)`, `row * w[0] + 0.5`, plus `more_start(h)` and
    `more_scale(h)` unless None); GradientDescent; the flag fed both ways."""
    x, flag, w, v = _fed_and_weights(tf, "flag")

    def body(i, h):
        row = x[i]

        def looped():
            start = tf.tanh(h * v + row)
            start = start if more_start is None else start + more_start(h)
            scale = row * w[0]
            scale = (scale if more_scale is None else scale + more_scale(h)) + 0.5
            return tf.while_loop(lambda j, g: j < i + 1, lambda j, g: (
                j + 1, tf.tanh(tf.matmul(g, w)) * scale + start * 0.1),
                [tf.constant(0), start])[1]
        take = tf.logical_and(flag, tf.equal(tf.floormod(i, 2), 0))
        return i + 1, tf.cond(take, looped, lambda: h * v + row) * 0.9 + h * 0.1

    _train_outer_loop(tf, body, 4, 0.2)
    return _flag_both_ways(tf, fed_n=False)


def case_train_loop_in_cond_reading_branch_values(tf):
    """A loop in a tf.cond in a loop body starting from and capturing values the branch
    computes (`_train_loop_in_cond_reading_branch_values`)."""
    return _train_loop_in_cond_reading_branch_values(tf)


def case_train_loop_in_cond_reading_branch_values_without_gradient(tf):
    """As `case_train_loop_in_cond_reading_branch_values`, the values the branch computes
    for the nested loop holding ops TF gives no gradient (`tf.floor(h * 4)`, a one-hot of
    `tf.argmax(h)`, a `tf.stop_gradient`): their values are pushed through the cond as
    inputs of the branch's function, their gradients dropped."""
    return _train_loop_in_cond_reading_branch_values(
        tf, lambda h: tf.floor(h * 4.0) * 0.05,
        lambda h: tf.one_hot(tf.argmax(h, -1), 3) * 0.3 + tf.stop_gradient(h) * 0.2)


def case_train_nested_loops_reading_resource_variables(tf):
    """Resource variables read inside a loop nested in a loop body (trip count: the outer
    counter) and inside a loop nested in that one (a fed trip count), and in the outer
    body itself: each read once outside all loops for the backward loops, its gradients
    summed by every backward loop it is read in; Adam."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    w = tf.get_variable("w", [3, 3], use_resource=True, initializer=tf.constant_initializer(
        np.eye(3, dtype=np.float32) * 0.4 + 0.1))
    v = tf.get_variable("v", [3], use_resource=True,
                        initializer=tf.constant_initializer([0.5, -0.3, 0.2]))

    def body(i, h):
        row = x[i] * v

        def refine(j, g):
            _, g = tf.while_loop(lambda k, g: k < n, lambda k, g: [k + 1, g * v + 0.1],
                                 [tf.constant(0), g])
            return j + 1, tf.tanh(tf.matmul(g, w) + row) * 0.7 + h * 0.3
        _, g = tf.while_loop(lambda j, g: j < i, refine, [tf.constant(0), h + row])
        return i + 1, g

    _, h = tf.while_loop(lambda i, h: i < 4, body, [tf.constant(0), tf.zeros([1, 3])])
    loss = tf.reduce_mean(tf.square(h - 0.3), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS[:4], "n:0": 2},
                          ["loss:0", "w/Read/ReadVariableOp:0", "v/Read/ReadVariableOp:0"])


def case_train_loop_in_cond_reading_outer_branch_values(tf):
    """An outer loop whose body runs, in a tf.cond (the counter's parity) in a tf.cond
    (a fed flag), a loop of a run-time trip count starting from a value its own branch
    computes from one the outer branch computes (`tanh(h * v + row)`) and capturing
    outer-branch values (that one, `row * w[0] + 0.5`); GradientDescent; the flag fed
    both ways. The function of the branches' ops carries the nested backward loop's
    gradients through both branches."""
    x, flag, w, v = _fed_and_weights(tf, "flag")

    def body(i, h):
        row = x[i]

        def outer_branch():
            start = tf.tanh(h * v + row)
            scale = row * w[0] + 0.5

            def looped():
                return tf.while_loop(lambda j, g: j < i + 1, lambda j, g: (
                    j + 1, tf.tanh(tf.matmul(g, w)) * scale + start * 0.1),
                    [tf.constant(0), start * 0.8 + h * 0.1])[1]
            return tf.cond(tf.equal(tf.floormod(i, 2), 0), looped, lambda: start * v)
        return i + 1, tf.cond(flag, outer_branch, lambda: h * v + row) * 0.9 + h * 0.1

    _train_outer_loop(tf, body, 4, 0.2)
    return _flag_both_ways(tf, fed_n=False)


LOOP_NESTED_CASES = [case_train_nested_loop_run_time_trip_count,
                     case_train_loop_in_cond_in_loop,
                     case_train_dynamic_rnn_run_time_length_in_loop,
                     case_train_scan_map_fold_run_time_length_in_loop,
                     case_train_tensor_array_computed_indices,
                     case_train_tensor_array_read_between_writes,
                     case_train_three_level_loops_with_cond,
                     case_train_loop_in_cond_in_cond_in_loop,
                     case_train_tensor_array_entering_with_elements,
                     case_train_tensor_arrays_split_before_nested_loop,
                     case_train_nested_loop_cond_random_and_stop,
                     case_train_loop_in_cond_in_nested_loop,
                     case_train_loop_in_three_conds_in_loop,
                     case_train_loop_in_cond_reading_branch_values,
                     case_train_nested_loops_reading_resource_variables,
                     case_train_loop_in_cond_reading_branch_values_without_gradient,
                     case_train_loop_in_cond_reading_outer_branch_values]
