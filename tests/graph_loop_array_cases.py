"""Training graphs whose TensorArrays are written in a nested loop and read after it by
read(i), gather, concat and size (not stack()), and whose arrays enter a loop holding
elements and are written in a tf.cond of its body. scripts/make_graph_fixtures_loops.py
records TF's own graphs of these cases (tests/test_graph_import.py runs and trains them).

Real TF trains from the file tf1compat writes where the nested loop's trip count is
fixed or known only at run time (`LOOP_ARRAY_CASES`, scripts/check_tf_reads_graphs.py).
Arrays written in a tf.cond of the body (read after the loop, and in the body before and
after the cond; elements of float64, float16 and bfloat16, of a run-time shape) are too
(`case_train_tensor_array_written_in_cond`, `..._until_finished`, `..._in_cond_in_loop`,
`..._of_float64_...`, `..._of_float16_...`, `..._read_after_its_write_in_cond`: the body
function's element is the cond's Select; `..._written_at_branch_indices`: each write's
element the Select of it and zeros, `..._written_at_indices_computed_in_branches` too, the
indices pushed through the cond's Merge; `..._written_in_cond_in_nested_loop`: both in a
nested loop of a run-time trip count, `..._at_branch_indices_in_nested_loop` with indices
computed in the branches); `..._read_after_its_write_in_nested_loop`: an array a
nested loop reads in its body after writing it, stacked after it, `..._not_stacked`:
not stacked after it, of a fixed size); `..._of_run_time_shape_read_in_loop_not_stacked`:
a top-level loop's array of a run-time shape read in its body, not stacked after it);
`..._loops_in_cond_in_loop`: a loop stacking its array and a dynamic_rnn, one in each
branch of a tf.cond in a loop body.
"""

from __future__ import annotations

import numpy as np

from tests.graph_loop_nested_cases import (
    ROWS,
    _fed_and_weights,
    _flag_both_ways,
    _train_outer_loop,
    _weights,
)
from tests.graph_training_cases import _training_spec


def case_train_tensor_arrays_read_after_nested_loop(tf):
    """An outer loop whose body runs a loop of a fed trip count `n` writing one array
    row by row and another of rows of two lengths; after that inner loop the body reads
    the first by read(1), gather([2, 0]) and size(), the second by concat(); Momentum."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    w, v = _weights(tf, 0.4, [0.5, -0.3, 0.2])

    def body(i, h):
        rows = tf.TensorArray(tf.float32, n, clear_after_read=False, element_shape=[1, 3])
        pieces = tf.TensorArray(tf.float32, n, infer_shape=False)

        def inner(j, g, rows, pieces):
            g = tf.tanh(tf.matmul(g, w) + x[j] * v)
            piece = tf.concat([g, g * v], 0)[:1 + j % 2]
            return j + 1, g, rows.write(j, g), pieces.write(j, piece)
        _, g, rows, pieces = tf.while_loop(lambda j, *_: j < n, inner,
                                           [tf.constant(0), h, rows, pieces])
        size = tf.cast(rows.size(), tf.float32)
        picked = rows.gather([2, 0])
        joined = tf.reshape(pieces.concat(), [-1, 3])
        h = (g * 0.5 + rows.read(1) * v + tf.reduce_sum(picked, 0) * 0.3 +
             tf.reduce_mean(joined, 0, keepdims=True) * 0.2) / size
        return i + 1, h

    _train_outer_loop(tf, body, 2, 0.3, tf.train.MomentumOptimizer(0.1, 0.5))
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS[:4], "n:0": 3},
                          ["loss:0", "w:0", "v:0"])


def case_train_tensor_array_read_after_unrolled_nested_loop(tf):
    """An outer loop whose body runs a loop of 3 steps (a fixed trip count: unrolled in
    the outer body's gradient function, graphdef/loop_unrolling.py) writing an array,
    then reads it by read(1), gather([2, 0]), size() and concat(); Momentum."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    w, v = _weights(tf, 0.4, [0.5, -0.3, 0.2])

    def body(i, h):
        rows = tf.TensorArray(tf.float32, 3, clear_after_read=False, element_shape=[1, 3])

        def inner(j, g, rows):
            g = tf.tanh(tf.matmul(g, w) + x[j] * v)
            return j + 1, g, rows.write(j, g)
        _, g, rows = tf.while_loop(lambda j, *_: j < 3, inner, [tf.constant(0), h, rows])
        size = tf.cast(rows.size(), tf.float32)
        h = (g * 0.5 + rows.read(1) * v + tf.reduce_sum(rows.gather([2, 0]), 0) * 0.3 +
             tf.reduce_mean(rows.concat() * v, 0, keepdims=True) * 0.2) / size
        return i + 1, h

    _train_outer_loop(tf, body, 2, 0.3, tf.train.MomentumOptimizer(0.1, 0.5))
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS[:4]}, ["loss:0", "w:0", "v:0"])


def case_train_tensor_array_written_in_cond_in_loop(tf):
    """A TensorArray holding two elements written before a loop, whose body writes
    element i in a tf.cond on i's parity (different values per branch) after reading
    the two before it; stacked and read(3) after the loop; GradientDescent."""
    x = tf.placeholder(tf.float32, [5, 3], name="x")
    w, v = _weights(tf, 0.5, [0.3, -0.4, 0.2])
    ta = tf.TensorArray(tf.float32, 5, clear_after_read=False, element_shape=[1, 3])
    ta = ta.write(0, tf.tanh(tf.matmul(x[:1], w))).write(1, x[1:2] * v)

    _train_array_written_in_cond_read_in_loop(tf, ta, x, w, v, 2, lambda i, ta: ta.read(
        i - 2) * 0.5)
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS}, ["loss:0", "w:0", "v:0"])


def _train_array_written_in_cond_read_in_loop(tf, ta, x, w, v, start: int, more) -> None:
    """A loop from `start` to 5 whose body reads the previous element of `ta` and
    writes element i in a tf.cond on i's parity (`more(i, ta)` added to the new
    value unless None); stacked and read(3) after the loop into "loss"; GradientDescent."""
    def body(i, ta):
        prev = ta.read(i - 1)
        e = tf.tanh(tf.matmul(prev, w) + x[i] * v)
        e = e if more is None else e + more(i, ta)
        ta = tf.cond(tf.equal(i % 2, 0), lambda: ta.write(i, e * v),
                     lambda: ta.write(i, tf.sin(e) + prev * 0.2))
        return i + 1, ta

    _, ta = tf.while_loop(lambda i, _: i < 5, body, [tf.constant(start), ta])
    loss = tf.identity(tf.reduce_sum(tf.square(ta.stack() - 0.1)) +
                       tf.reduce_sum(ta.read(3) * v), name="loss")
    tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    tf.global_variables_initializer()


def case_train_tensor_array_written_in_cond(tf):
    """A decoder-like loop: its state runs every step, its output is written to an array
    the loop carries in a tf.cond of its body, the output while the step is below a fed
    length `n`, zeros once finished; stacked after the loop; Momentum. tf1compat's
    gradient: the body function computes the written element as the cond's Select of
    the branches' elements (loop_array_plan.cond_write)."""
    x = tf.placeholder(tf.float32, [5, 3], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    w, v = _weights(tf, 0.5, [0.3, -0.4, 0.2])

    def body(i, h, ta):
        h = tf.tanh(tf.matmul(h, w) + x[i] * v)
        ta = tf.cond(i < n, lambda: ta.write(i, tf.sin(h) * v),
                     lambda: ta.write(i, tf.zeros_like(h)))
        return i + 1, h, ta

    _, h, ta = tf.while_loop(lambda i, *_: i < 5, body, [
        tf.constant(0), tf.zeros([1, 3]),
        tf.TensorArray(tf.float32, 5, element_shape=[1, 3])])
    loss = tf.identity(tf.reduce_sum(tf.square(ta.stack() - 0.1)) +
                       tf.reduce_sum(h * v), name="loss")
    tf.train.MomentumOptimizer(0.1, 0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS, "n:0": 3},
                          ["loss:0", "w:0", "v:0"])


def case_train_tensor_array_written_until_finished(tf):
    """A decoder that writes its output only while not finished: the body's tf.cond
    writes element i where the step is below a fed length `n` and returns the array
    unchanged otherwise (the unwritten elements stack() as zeros); GradientDescent."""
    x = tf.placeholder(tf.float32, [5, 3], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    w, v = _weights(tf, 0.4, [0.5, 0.3, -0.2])

    def body(i, h, ta):
        h = tf.tanh(tf.matmul(h, w) + x[i] * v)
        ta = tf.cond(i >= n, lambda: ta, lambda: ta.write(i, h * v + tf.square(h)))
        return i + 1, h, ta

    _, h, ta = tf.while_loop(lambda i, *_: i < 5, body, [
        tf.constant(0), tf.zeros([1, 3]),
        tf.TensorArray(tf.float32, 5, element_shape=[1, 3])])
    loss = tf.identity(tf.reduce_sum(tf.square(ta.stack() - 0.2)) +
                       tf.reduce_sum(h * v) * 0.5, name="loss")
    tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS, "n:0": 3},
                          ["loss:0", "w:0", "v:0"])


def _decoder_of_cast_elements(tf, dtype, batch: bool):
    """A decoder-like loop writing, in a tf.cond of its body, its output cast to `dtype`
    while the step is below a fed length `n` and half its state after; `batch`: rows of a
    batch fed at run time (elements of a run-time shape). The loss of the stack() cast
    back; Momentum."""
    x = tf.placeholder(tf.float32, [5, None, 3] if batch else [5, 3], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    w, v = _weights(tf, 0.5, [0.3, -0.4, 0.2])
    half = tf.constant(0.5, dtype)

    def body(i, h, ta):
        h = tf.tanh(tf.matmul(h, w) + x[i] * v)
        ta = tf.cond(i < n, lambda: ta.write(i, tf.cast(tf.sin(h) * v, dtype)),
                     lambda: ta.write(i, tf.cast(h, dtype) * half))
        return i + 1, h, ta

    start = tf.zeros_like(x[0]) if batch else tf.zeros([1, 3])
    _, h, ta = tf.while_loop(lambda i, *_: i < 5, body, [
        tf.constant(0), start,
        tf.TensorArray(dtype, 5, element_shape=None if batch else [1, 3])])
    stacked = tf.cast(ta.stack(), tf.float32)
    loss = tf.identity(tf.reduce_sum(tf.square(stacked - 0.1)) + tf.reduce_sum(h * v),
                       name="loss")
    tf.train.MomentumOptimizer(0.1, 0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    rows = np.stack([ROWS, ROWS[::-1] * 0.5], 1) if batch else ROWS
    return _training_spec(tf, tf.train.Saver(), {"x:0": rows, "n:0": 3},
                          ["loss:0", "w:0", "v:0"])


def case_train_tensor_array_of_float64_written_in_cond(tf):
    """`_decoder_of_cast_elements`: float64 elements of a run-time shape (a fed batch of
    two rows per step)."""
    return _decoder_of_cast_elements(tf, tf.float64, True)


def case_train_tensor_array_of_float16_written_in_cond(tf):
    """`_decoder_of_cast_elements`: float16 elements of a static shape."""
    return _decoder_of_cast_elements(tf, tf.float16, False)


def case_train_tensor_array_read_after_its_write_in_cond(tf):
    """A TensorArray holding element 0 written before a loop whose body writes element i
    in a tf.cond (different values per branch, the branch from a fed length `n`), then
    reads it back and the element before it (`ta.read(i)`, `ta.read(i - 1)` after the
    cond) into its state and writes element i + 5 from them; stacked; Momentum."""
    x = tf.placeholder(tf.float32, [5, 3], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    w, v = _weights(tf, 0.5, [0.3, -0.4, 0.2])
    ta = tf.TensorArray(tf.float32, 10, clear_after_read=False, element_shape=[1, 3])
    ta = ta.write(0, x[:1] * v)

    def body(i, h, ta):
        h = tf.tanh(tf.matmul(h, w) + x[i] * v)
        ta = tf.cond(i < n, lambda: ta.write(i, tf.sin(h) * v),
                     lambda: ta.write(i, h * 0.5))
        back = ta.read(i)
        h = h + back * 0.3 + ta.read(i - 1) * 0.2
        ta = ta.write(i + 5, back * h)
        return i + 1, h, ta

    _, h, ta = tf.while_loop(lambda i, *_: i < 5, body, [tf.constant(1), tf.zeros([1, 3]), ta])
    loss = tf.identity(tf.reduce_sum(tf.square(ta.stack() - 0.1)) + tf.reduce_sum(h * v),
                       name="loss")
    tf.train.MomentumOptimizer(0.1, 0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS, "n:0": 3},
                          ["loss:0", "w:0", "v:0"])


def _train_two_arrays_written_in_conds(tf, body, v):
    """Five iterations of `body(i, h, ta, tb)` writing two arrays of 10 elements [1, 3],
    both stacked after the loop into the loss; GradientDescent."""
    arrays = [tf.TensorArray(tf.float32, 10, element_shape=[1, 3]) for _ in range(2)]
    _, h, ta, tb = tf.while_loop(lambda i, *_: i < 5, body,
                                 [tf.constant(0), tf.zeros([1, 3])] + arrays)
    loss = tf.identity(tf.reduce_sum(tf.square(ta.stack() - 0.1)) +
                       tf.reduce_sum(tb.stack() * v) + tf.reduce_sum(h * v) * 0.5,
                       name="loss")
    tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS, "n:0": 3},
                          ["loss:0", "w:0", "v:0"])


def case_train_tensor_arrays_written_at_branch_indices(tf):
    """A loop whose body writes two arrays in tf.conds on a fed length `n`: the first at
    index i in one branch and i + 5 in the other, the second twice in one branch (i and
    i + 5) and not in the other; both stacked after the loop (the elements never written
    stack as zeros); GradientDescent. tf1compat's gradient: each write's element is the
    Select of it and zeros (loop_array_plan.cond_write)."""
    x = tf.placeholder(tf.float32, [5, 3], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    w, v = _weights(tf, 0.4, [0.5, 0.3, -0.2])

    def body(i, h, ta, tb):
        h = tf.tanh(tf.matmul(h, w) + x[i] * v)
        later = i + 5
        ta = tf.cond(i < n, lambda: ta.write(i, tf.sin(h) * v),
                     lambda: ta.write(later, h * h))
        tb = tf.cond(i >= n - 1, lambda: tb.write(i, h * v).write(later, tf.cos(h)),
                     lambda: tb)
        return i + 1, h, ta, tb

    return _train_two_arrays_written_in_conds(tf, body, v)


def case_train_tensor_arrays_written_in_cond_in_nested_loop(tf):
    """An outer loop whose body runs a loop of a fed trip count `n` writing two arrays in
    tf.conds of its body: one at index j in both branches (different values), the other
    at j in one branch and j + 4 in the other; stacked after the inner loop into the
    outer state; Momentum."""
    return _arrays_written_in_cond_in_nested_loop(tf, False)


def case_train_tensor_arrays_written_at_branch_indices_in_nested_loop(tf):
    """As `case_train_tensor_arrays_written_in_cond_in_nested_loop`, the second array's
    indices computed inside the branches (`2 * j` and `2 * j + 1`): the nested loop
    pushes them through the cond's Merge."""
    return _arrays_written_in_cond_in_nested_loop(tf, True)


def _arrays_written_in_cond_in_nested_loop(tf, in_branch: bool):
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    w, v = _weights(tf, 0.4, [0.5, -0.3, 0.2])

    def body(i, h):
        rows = tf.TensorArray(tf.float32, n, element_shape=[1, 3])
        spread = tf.TensorArray(tf.float32, 8, element_shape=[1, 3])

        def inner(j, g, rows, spread):
            g = tf.tanh(tf.matmul(g, w) + x[j] * v)
            later = None if in_branch else j + 4
            rows = tf.cond(j % 2 < 1, lambda: rows.write(j, tf.sin(g) * v),
                           lambda: rows.write(j, g * g))
            spread = tf.cond(j < 1 + i, lambda: spread.write(j * 2 if in_branch else j, g * v),
                             lambda: spread.write(j * 2 + 1 if in_branch else later,
                                                  tf.cos(g)))
            return j + 1, g, rows, spread
        _, g, rows, spread = tf.while_loop(lambda j, *_: j < n, inner,
                                           [tf.constant(0), h, rows, spread])
        h = g * 0.5 + tf.reduce_mean(rows.stack(), 0) * 0.3 + \
            tf.reduce_sum(spread.stack(), 0) * 0.2
        return i + 1, h

    _train_outer_loop(tf, body, 2, 0.3, tf.train.MomentumOptimizer(0.1, 0.5))
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS[:4], "n:0": 3},
                          ["loss:0", "w:0", "v:0"])


def case_train_tensor_arrays_read_after_conds_writing_in_one_branch(tf):
    """A decoder writing its output to one array only while the step is below a fed
    length `n` (`lambda: ta` otherwise) and to another at i or i + 5 by the same test,
    reading both back after the conds at i // 2 (this iteration's element at i = 0, an
    earlier one after) into its state; stacked; GradientDescent. The function reads
    the written element where the indices are equal and the writing branch ran."""
    x = tf.placeholder(tf.float32, [5, 3], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    w, v = _weights(tf, 0.5, [0.4, -0.2, 0.3])

    def body(i, h, ta, tb):
        h = tf.tanh(tf.matmul(h, w) + x[i] * v)
        later, half = i + 5, i // 2
        ta = tf.cond(i < n, lambda: ta.write(i, tf.sin(h) * v), lambda: ta)
        tb = tf.cond(i < n, lambda: tb.write(i, h * v), lambda: tb.write(later, h * h))
        h = h + ta.read(half) * 0.3 + tb.read(half) * 0.2
        return i + 1, h, ta, tb

    arrays = [tf.TensorArray(tf.float32, 10, clear_after_read=False, element_shape=[1, 3])
              for _ in range(2)]
    _, h, ta, tb = tf.while_loop(lambda i, *_: i < 5, body,
                                 [tf.constant(0), tf.zeros([1, 3])] + arrays)
    loss = tf.identity(tf.reduce_sum(tf.square(ta.stack() - 0.1)) +
                       tf.reduce_sum(tb.stack() * v) + tf.reduce_sum(h * v), name="loss")
    tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS, "n:0": 3},
                          ["loss:0", "w:0", "v:0"])


def case_train_tensor_array_of_bfloat16_written_in_cond(tf):
    """`_decoder_of_cast_elements`: bfloat16 elements of a static shape."""
    return _decoder_of_cast_elements(tf, tf.bfloat16, False)


def case_train_tensor_arrays_written_at_indices_computed_in_branches(tf):
    """A loop whose body writes two arrays in tf.conds on a fed length `n`, each write
    index computed inside its branch: the first at `2 * i` in one branch and `2 * i + 1`
    in the other, the second at `i + 5` in one branch (beside one that returns it
    unchanged); both stacked after the loop (elements never written stack as zeros);
    GradientDescent. TF 1.x pushes the index inside the branch; tf1compat pushes it
    through the cond's Merge (a stand-in where the branch did not run, whose row the
    Select of the element and zeros drops)."""
    x = tf.placeholder(tf.float32, [5, 3], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    w, v = _weights(tf, 0.4, [0.5, 0.3, -0.2])

    def body(i, h, ta, tb):
        h = tf.tanh(tf.matmul(h, w) + x[i] * v)
        ta = tf.cond(i < n, lambda: ta.write(i * 2, tf.sin(h) * v),
                     lambda: ta.write(i * 2 + 1, h * h))
        tb = tf.cond(i >= n - 1, lambda: tb.write(tf.add(i, 5), h * v), lambda: tb)
        return i + 1, h, ta, tb

    return _train_two_arrays_written_in_conds(tf, body, v)


def case_train_tensor_array_read_after_its_write_in_nested_loop(tf):
    """An outer loop whose body runs a loop of a fed trip count `n` writing an array
    row by row and reading it in its body after the write: the element it just wrote
    (`ta.read(j)`) and the one of the previous iteration (`ta.read(j - 1)`, row 0 at
    first); the array stacked after the inner loop into the outer state; Momentum.
    The nested backward loop carries the gradients of all the array's elements (zeros
    of its stack()'s gradient)."""
    return _train_rows_read_after_write(
        tf, lambda n: tf.TensorArray(tf.float32, n, clear_after_read=False,
                                     element_shape=[1, 3]),
        lambda g, rows: g + tf.reduce_mean(rows.stack(), 0) * 0.3)


def _train_rows_read_after_write(tf, make_rows, after):
    """An outer loop whose body runs a loop of a fed trip count `n` writing the array
    `make_rows(n)` row by row and reading back the element it just wrote and the
    previous one; the outer state `after(g, rows)` of the inner loop's results;
    Momentum."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    w, v = _weights(tf, 0.4, [0.5, -0.3, 0.2])

    def body(i, h):
        rows = make_rows(n)

        def inner(j, g, rows):
            g = tf.tanh(tf.matmul(g, w) + x[j] * v)
            rows = rows.write(j, g * v + 0.1)
            g = g * rows.read(j) + rows.read(tf.maximum(j - 1, 0)) * 0.5
            return j + 1, g, rows
        _, g, rows = tf.while_loop(lambda j, *_: j < n, inner, [tf.constant(0), h, rows])
        return i + 1, after(g, rows)

    _train_outer_loop(tf, body, 2, 0.3, tf.train.MomentumOptimizer(0.1, 0.5))
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS[:4], "n:0": 3},
                          ["loss:0", "w:0", "v:0"])


def case_train_tensor_array_read_after_its_write_in_nested_loop_not_stacked(tf):
    """As `case_train_tensor_array_read_after_its_write_in_nested_loop`, the array (of
    the fed size `n`) not read after the inner loop: only the inner loop's state goes on;
    a second array of a constant size (8) written at `2 * j` and read back at `2 * j`
    and at the previous iteration's index, read after the inner loop by read(2) only;
    Momentum. The nested
    backward loop's gradients of all the arrays' elements start from zeros of their
    sizes (the outer loop pushes or captures them)."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    n = tf.placeholder(tf.int32, [], name="n")
    w, v = _weights(tf, 0.4, [0.5, -0.3, 0.2])

    def body(i, h):
        rows = tf.TensorArray(tf.float32, n, clear_after_read=False, element_shape=[1, 3])
        wide = tf.TensorArray(tf.float32, 8, clear_after_read=False, element_shape=[1, 3])

        def inner(j, g, rows, wide):
            g = tf.tanh(tf.matmul(g, w) + x[j] * v)
            rows = rows.write(j, g * v + 0.1)
            g = g * rows.read(j) + rows.read(tf.maximum(j - 1, 0)) * 0.5
            wide = wide.write(2 * j, g * 0.5 - h * 0.2)
            g = g + wide.read(2 * j) * wide.read(2 * tf.maximum(j - 1, 0)) * 0.3
            return j + 1, g, rows, wide
        _, g, _, wide = tf.while_loop(lambda j, *_: j < n, inner,
                                      [tf.constant(0), h, rows, wide])
        return i + 1, g + wide.read(2) * 0.2

    _train_outer_loop(tf, body, 2, 0.3, tf.train.MomentumOptimizer(0.1, 0.5))
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS[:4], "n:0": 3},
                          ["loss:0", "w:0", "v:0"])


def case_train_tensor_array_of_run_time_shape_read_in_loop_not_stacked(tf):
    """A loop over a fed batch's rows of a run-time batch size writing elements of a
    run-time shape [batch, 3] and reading, after the write, the element just written
    and the previous one; the array not stacked after the loop (read(2) only);
    GradientDescent. The backward loop's gradients of all elements start from zeros
    of the array's elements gathered after the loop (their shape known at run time)."""
    xs = tf.placeholder(tf.float32, [5, None, 3], name="xs")
    w, v = _weights(tf, 0.5, [0.3, -0.4, 0.2])
    ta = tf.TensorArray(tf.float32, 5, clear_after_read=False)

    def body(i, h, ta):
        ta = ta.write(i, tf.tanh(tf.matmul(h, w) + xs[i] * v))
        h = h * 0.5 + ta.read(i) * ta.read(tf.maximum(i - 1, 0)) + ta.read(i) * v
        return i + 1, h, ta

    _, h, ta = tf.while_loop(lambda i, *_: i < 5, body, [tf.constant(0), xs[0] * 0.1, ta])
    loss = tf.identity(tf.reduce_sum(tf.square(h - 0.1)) + tf.reduce_sum(ta.read(2) * v),
                       name="loss")
    tf.train.GradientDescentOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    batch = np.concatenate([ROWS, ROWS[::-1] * 0.5], 1).reshape(5, 2, 3)
    return _training_spec(tf, tf.train.Saver(), {"xs:0": batch}, ["loss:0", "w:0", "v:0"])


def case_train_tensor_array_of_run_time_shape_written_in_cond_read_in_loop(tf):
    """As `case_train_tensor_array_written_in_cond_in_loop` over a fed batch: elements
    of a run-time shape [batch, 3], one written before the loop, the body reading the
    previous element and writing element i in a tf.cond on i's parity; stacked and
    read(3) after the loop; GradientDescent. The backward loop's gradients of all
    elements start from zeros of the stack()'s gradient (their shape known at run time)."""
    xs = tf.placeholder(tf.float32, [5, None, 3], name="xs")
    w, v = _weights(tf, 0.5, [0.3, -0.4, 0.2])
    ta = tf.TensorArray(tf.float32, 5, clear_after_read=False)
    ta = ta.write(0, tf.tanh(tf.matmul(xs[0], w)))

    _train_array_written_in_cond_read_in_loop(tf, ta, xs, w, v, 1, None)
    batch = np.concatenate([ROWS, ROWS[::-1] * 0.5], 1).reshape(5, 2, 3)
    return _training_spec(tf, tf.train.Saver(), {"xs:0": batch}, ["loss:0", "w:0", "v:0"])


def case_train_tensor_array_loops_in_cond_in_loop(tf):
    """An outer loop whose body picks by a fed flag between a loop writing a TensorArray
    row by row (4 rows, the element read at `j` of the outer counter's rows), stacked
    after it in the branch,
    and a dynamic_rnn (BasicRNNCell, its weights made before the outer loop) over the
    rows, its outputs averaged; GradientDescent; the flag fed both ways. Each branch's
    loop gets a nested backward loop; the stack()s and outputs are the body function's
    inputs, pushed through the cond's Merge."""
    x, flag, w, v = _fed_and_weights(tf, "flag")
    cell = tf.nn.rnn_cell.BasicRNNCell(3, name="cell")
    cell(tf.zeros([1, 3]), tf.zeros([1, 3]))        # its weights, outside the loops

    def body(i, h):
        def looped():
            rows = tf.TensorArray(tf.float32, 4, element_shape=[1, 3])

            def inner(j, g, rows):
                g = tf.tanh(tf.matmul(g, w) + x[tf.minimum(j, i)] * v)
                return j + 1, g, rows.write(j, g * v + 0.1)
            _, g, rows = tf.while_loop(lambda j, *_: j < 4, inner,
                                       [tf.constant(0), h, rows])
            return g * 0.5 + tf.reduce_mean(rows.stack(), 0)

        def rnn():
            out, state = tf.nn.dynamic_rnn(cell, tf.reshape(x * v + h, [1, 4, 3]),
                                           initial_state=h)
            return state * 0.5 + tf.reduce_mean(out, 1)
        return i + 1, tf.cond(flag, looped, rnn) * 0.9 + h * 0.1

    _train_outer_loop(tf, body, 3, 0.2)
    return _flag_both_ways(tf, fed_n=False)


def _run_time_rows_and_cell(tf) -> tuple:
    """The fed rows `x` ([None, 3]: a length known only at run time), a fed bool
    `flag`, the variables `w` and `v`, and a BasicRNNCell of 3 units whose weights are
    made here, outside the loops."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    flag = tf.placeholder(tf.bool, [], name="flag")
    w, v = _weights(tf, 0.3, [0.4, -0.2, 0.3])
    cell = tf.nn.rnn_cell.BasicRNNCell(3, name="cell")
    cell(tf.zeros([1, 3]), tf.zeros([1, 3]))
    return x, flag, w, v, cell


def case_train_run_time_length_loops_in_cond_in_loop(tf):
    """As `case_train_tensor_array_loops_in_cond_in_loop` over rows of a length known
    only at run time (`x` of shape [None, 3]): the branch's loop writes an array of
    tf.shape(x)[0] rows, stacked, transposed and scaled by random draws of its run-time
    shape (uniform in [1, 1]: the same values in TF and tf1compat), its last row taken;
    the other branch's dynamic_rnn runs over the rows (its outputs pass its Transpose).
    GradientDescent; the flag fed both ways. The untaken branch's stand-ins for the
    loops' outputs are zeros of 1 in each dim known only at run time."""
    x, flag, w, v, cell = _run_time_rows_and_cell(tf)

    def body(i, h):
        def looped():
            n = tf.shape(x)[0]
            rows = tf.TensorArray(tf.float32, n, element_shape=[1, 3])

            def inner(j, g, rows):
                g = tf.tanh(tf.matmul(g, w) + x[j] * v)
                return j + 1, g, rows.write(j, g * v + 0.1)
            _, g, rows = tf.while_loop(lambda j, *_: j < n, inner,
                                       [tf.constant(0), h, rows])
            stacked = tf.transpose(rows.stack(), [1, 0, 2])
            scaled = stacked * tf.random_uniform(tf.shape(stacked), 1.0, 1.0)
            return g * 0.5 + tf.reduce_mean(scaled, 1) + scaled[:, -1] * 0.2

        def rnn():
            out, state = tf.nn.dynamic_rnn(cell, tf.expand_dims(x * v + h, 0),
                                           initial_state=h)
            return state * 0.5 + tf.reduce_mean(tf.tanh(out), 1)
        return i + 1, tf.cond(flag, looped, rnn) * 0.9 + h * 0.1

    _train_outer_loop(tf, body, 3, 0.2)
    return _flag_both_ways(tf, fed_n=False)

def case_train_run_time_length_rnn_outputs_reshaped_in_cond_in_loop(tf):
    """A dynamic_rnn over rows of a length known only at run time in a tf.cond of a loop
    body, its outputs flattened (`reshape(out, [-1, 3])`), projected by `w`, reshaped
    back (`[1, -1, 3]`) and concatenated with themselves along the last axis before
    the mean over time; the other branch without a loop. GradientDescent; the flag fed
    both ways. The untaken branch's stand-in for the outputs (1 in the run-time dim)
    keeps its shape through the Reshapes and the ConcatV2."""
    x, flag, w, v, cell = _run_time_rows_and_cell(tf)

    def body(i, h):
        def rnn():
            out, state = tf.nn.dynamic_rnn(cell, tf.expand_dims(x * v + h, 0),
                                           initial_state=h)
            projected = tf.reshape(tf.matmul(tf.reshape(out, [-1, 3]), w), [1, -1, 3])
            both = tf.reduce_mean(tf.concat([out, tf.tanh(projected)], 2), 1)
            return state * 0.5 + both[:, :3] + both[:, 3:] * 0.5
        return i + 1, tf.cond(flag, rnn, lambda: tf.tanh(tf.matmul(h, w))) * 0.9 + h * 0.1

    _train_outer_loop(tf, body, 3, 0.2)
    return _flag_both_ways(tf, fed_n=False)


def case_train_tensor_array_entering_loop_through_cond(tf):
    """A top-level loop writing rows 2..4 of an array that enters it with row 0 written
    before a tf.cond and row 1 written in both branches of it (by a fed flag: different
    values per branch); stacked after the loop; GradientDescent, the flag fed both ways.
    Row 1's gradient is that of the Select of the branches' elements."""
    x, flag, w, v = _fed_and_weights(tf, "flag")
    ta = tf.TensorArray(tf.float32, 5, element_shape=[1, 3]).write(
        0, tf.tanh(tf.matmul(x[:1], w)))
    ta = tf.cond(flag, lambda: ta.write(1, x[1:2] * v),
                 lambda: ta.write(1, tf.matmul(x[2:3], w) * 0.5))

    def body(j, h, ta):
        h = tf.tanh(tf.matmul(h, w) + x[j] * v)
        return j + 1, h, ta.write(j + 2, h)
    _, _, ta = tf.while_loop(lambda j, *_: j < 3, body, [tf.constant(0), x[3:4], ta])
    loss = tf.reduce_mean(tf.square(ta.stack() - 0.2), name="loss")
    tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _flag_both_ways(tf, fed_n=False)

def _loss_of_arrays_entering_loops(tf, arrays, x, w, v, read=None) -> dict:
    """Top-level loops writing rows 2..4 of each of `arrays` (of 6 rows of [1, 3]; the
    body adds `read(ta)` where given), their stack()s concatenated (the second and
    later halved) into "loss"; GradientDescent; the flag fed both ways."""
    def written(ta):
        def body(j, h, ta):
            h = tf.matmul(h, w) + x[j] * v
            h = tf.tanh(h if read is None else h + read(ta))
            return j + 1, h, ta.write(j + 2, h)
        return tf.while_loop(lambda j, *_: j < 3, body, [tf.constant(0), x[3:4], ta])[2]
    stacked = tf.concat([written(arrays[0]).stack()] + [
        written(ta).stack() * 0.5 for ta in arrays[1:]], 0)
    loss = tf.reduce_mean(tf.square(stacked - 0.2), name="loss")
    tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _flag_both_ways(tf, fed_n=False)


def _arrays_written_apart(tf, x, flag, w, v, **kwargs) -> list:
    """Arrays of 6 rows of [1, 3] (TensorArray `kwargs`) through a tf.cond on `flag`:
    one whose branches write row 1 / row 5 (after row 0 written before it), one whose
    else branch alone writes row 1."""
    apart = tf.TensorArray(tf.float32, 6, element_shape=[1, 3], **kwargs).write(
        0, tf.tanh(tf.matmul(x[:1], w)))
    apart = tf.cond(flag, lambda: apart.write(1, x[1:2] * v),
                    lambda: apart.write(5, tf.matmul(x[2:3], w) * 0.5))
    one = tf.TensorArray(tf.float32, 6, element_shape=[1, 3], **kwargs)
    one = tf.cond(flag, lambda: one, lambda: one.write(1, tf.sin(x[1:2] * v)))
    return [apart, one]


def case_train_tensor_arrays_entering_loop_through_conds_writing_apart(tf):
    """Top-level loops writing rows 2..4 of arrays of 6 rows that enter them through a
    tf.cond before them: one whose branches write different rows (1 / 5), one whose
    else branch alone writes (row 1; the then branch returns the array unchanged);
    stacked after the loops (an unwritten row of a full element shape stacks as zeros,
    in TF too); GradientDescent, the flag fed both ways. Each branch's element gets its
    own row of the backward loop's gradient where its branch ran (the Select of
    the branches' rows)."""
    x, flag, w, v = _fed_and_weights(tf, "flag")
    return _loss_of_arrays_entering_loops(tf, _arrays_written_apart(tf, x, flag, w, v),
                                          x, w, v)


def case_train_tensor_arrays_entering_loop_through_cond_in_cond(tf):
    """As the case above, the arrays' row 1 written in a tf.cond inside the then branch
    of the tf.cond before the loops (its predicate computed in the branch, true for
    one array, false for the other; for the second its else branch writes none), the
    outer else branch writing row 1 too; GradientDescent, the flag fed both ways. The
    row's gradient is the backward loop's, the forward function's element the Selects
    of the branches' elements."""
    x, flag, w, v = _fed_and_weights(tf, "flag")

    def entering(sign, inner_else):
        ta = tf.TensorArray(tf.float32, 6, element_shape=[1, 3])

        def nested():
            positive = tf.reduce_sum(x[1:2] * v) * sign > 0.0
            return tf.cond(positive, lambda: ta.write(1, tf.tanh(x[1:2] * v)),
                           lambda: inner_else(ta))
        return tf.cond(flag, nested, lambda: ta.write(1, tf.matmul(x[2:3], w) * 0.5))
    return _loss_of_arrays_entering_loops(tf, [
        entering(1.0, lambda ta: ta.write(1, tf.matmul(x[1:2], w))),
        entering(-1.0, lambda ta: ta)], x, w, v)


def case_train_tensor_arrays_entering_loop_through_cond_in_cond_apart(tf):
    """As `case_train_tensor_arrays_entering_loop_through_cond_in_cond`, the tf.cond in
    the then branch writing row 1 or row 0 by a predicate computed before the conds
    (true for one array, false for the other), the outer else branch row 5;
    GradientDescent, the flag fed both ways. The rows' gradients pass a Select per
    predicate."""
    x, flag, w, v = _fed_and_weights(tf, "flag")

    def entering(sign):
        ta = tf.TensorArray(tf.float32, 6, element_shape=[1, 3])
        positive = tf.reduce_sum(x[1:2] * v) * sign > 0.0
        return tf.cond(flag, lambda: tf.cond(
            positive, lambda: ta.write(1, tf.tanh(x[1:2] * v)),
            lambda: ta.write(0, tf.matmul(x[1:2], w))),
            lambda: ta.write(5, tf.matmul(x[2:3], w) * 0.5))
    return _loss_of_arrays_entering_loops(tf, [entering(1.0), entering(-1.0)], x, w, v)


def case_train_tensor_arrays_entering_loop_through_cond_in_cond_apart_inside(tf):
    """As `case_train_tensor_arrays_entering_loop_through_cond_in_cond_apart`, the
    inner tf.cond's predicate computed in the outer then branch (from the element it
    writes); GradientDescent, the flag fed both ways. The Select of the rows' gradients
    reads it through a Merge with a stand-in from the outer else branch."""
    x, flag, w, v = _fed_and_weights(tf, "flag")

    def entering(sign):
        ta = tf.TensorArray(tf.float32, 6, element_shape=[1, 3])

        def then():
            element = tf.tanh(x[1:2] * v)
            return tf.cond(tf.reduce_sum(element) * sign > 0.0, lambda: ta.write(1, element),
                           lambda: ta.write(0, tf.matmul(x[1:2], w)))
        return tf.cond(flag, then, lambda: ta.write(5, tf.matmul(x[2:3], w) * 0.5))
    return _loss_of_arrays_entering_loops(tf, [entering(1.0), entering(-1.0)], x, w, v)


def case_train_tensor_arrays_entering_loop_through_conds_read_in_body(tf):
    """As `case_train_tensor_arrays_entering_loop_through_conds_writing_apart`, the
    loops' bodies reading rows 1 and 5 of the arrays (an unwritten row of a full element
    shape reads as zeros, in TF too); GradientDescent, the flag fed both ways. The
    rows' gradients include their rows of the gradients the backward loop sums for the
    body's reads."""
    x, flag, w, v = _fed_and_weights(tf, "flag")
    return _loss_of_arrays_entering_loops(
        tf, _arrays_written_apart(tf, x, flag, w, v, clear_after_read=False), x, w, v,
        lambda ta: ta.read(1) + ta.read(5) * 0.5)


def case_train_dynamic_size_tensor_array_read_after_its_write_in_nested_loop(tf):
    """As `case_train_tensor_array_read_after_its_write_in_nested_loop_not_stacked`, the
    array of a dynamic size (from 0), written at the inner counter and read back at it
    and at the previous index, read after the inner loop by read(0) only;
    Momentum. The nested backward loop's gradients of all its elements start from zeros
    of its size after the loop (the larger of its size input and the trip count)."""
    return _train_rows_read_after_write(
        tf, lambda n: tf.TensorArray(tf.float32, 0, dynamic_size=True,
                                     clear_after_read=False, element_shape=[1, 3]),
        lambda g, rows: g + rows.read(0) * 0.2)



def case_train_dynamic_size_tensor_array_size_after_nested_loop(tf):
    """As `case_train_dynamic_size_tensor_array_read_after_its_write_in_nested_loop`, the
    array read after the inner loop by read(0) and size() (TensorArraySizeV3 of its
    handle: off the gradient path, pushed by the outer loop as a gradient stop is);
    Momentum."""
    return _train_rows_read_after_write(
        tf, lambda n: tf.TensorArray(tf.float32, 0, dynamic_size=True,
                                     clear_after_read=False, element_shape=[1, 3]),
        lambda g, rows: (g + rows.read(0) * 0.2) / tf.cast(rows.size(), tf.float32))

# The cases whose files real TF trains from (tests/graph_export_cases.py).
LOOP_ARRAY_CASES = [case_train_tensor_array_read_after_unrolled_nested_loop,
                    case_train_tensor_arrays_read_after_nested_loop,
                    case_train_tensor_array_written_in_cond,
                    case_train_tensor_array_written_until_finished,
                    case_train_tensor_array_written_in_cond_in_loop,
                    case_train_tensor_array_of_float64_written_in_cond,
                    case_train_tensor_array_of_float16_written_in_cond,
                    case_train_tensor_array_read_after_its_write_in_cond,
                    case_train_tensor_arrays_written_at_branch_indices,
                    case_train_tensor_arrays_written_in_cond_in_nested_loop,
                    case_train_tensor_array_of_bfloat16_written_in_cond,
                    case_train_tensor_arrays_read_after_conds_writing_in_one_branch,
                    case_train_tensor_arrays_written_at_indices_computed_in_branches,
                    case_train_tensor_array_read_after_its_write_in_nested_loop,
                    case_train_tensor_array_read_after_its_write_in_nested_loop_not_stacked,
                    case_train_tensor_array_of_run_time_shape_read_in_loop_not_stacked,
                    case_train_tensor_array_of_run_time_shape_written_in_cond_read_in_loop,
                    case_train_tensor_arrays_written_at_branch_indices_in_nested_loop,
                    case_train_tensor_array_loops_in_cond_in_loop,
                    case_train_run_time_length_loops_in_cond_in_loop,
                    case_train_run_time_length_rnn_outputs_reshaped_in_cond_in_loop,
                    case_train_tensor_array_entering_loop_through_cond,
                    case_train_tensor_arrays_entering_loop_through_conds_writing_apart,
                    case_train_tensor_arrays_entering_loop_through_cond_in_cond,
                    case_train_tensor_arrays_entering_loop_through_cond_in_cond_apart,
                    case_train_tensor_arrays_entering_loop_through_cond_in_cond_apart_inside,
                    case_train_tensor_arrays_entering_loop_through_conds_read_in_body,
                    case_train_dynamic_size_tensor_array_read_after_its_write_in_nested_loop,
                    case_train_dynamic_size_tensor_array_size_after_nested_loop]
