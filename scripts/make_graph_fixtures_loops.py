"""TF-written training graphs of nested control flow (the cases of make_graph_fixtures.py's
format): tf.scan/tf.map_fn/tf.foldl over a run-time length inside a tf.while_loop, loops
nested three deep with conds in their bodies, loops in a cond in a cond in a loop,
TensorArrays read after writes at computed indices in a loop, top-level loops
writing TensorArrays that enter them with elements, arrays split before a nested
loop, arrays a nested loop writes read after it by read/gather/concat/size, and arrays
written in a tf.cond of a loop body (at indices computed outside or inside the branches).
Each saves the graph with TF's train op (its stacks and backward loops) and records two
training steps from the file and TF's minimize of the imported loss.

Run with the TensorFlow venv (never in CI):

    TF_USE_LEGACY_KERAS=1 /tmp/tf/bin/python scripts/make_graph_fixtures_loops.py [case ...]
"""

from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from make_graph_fixtures import ROOT, Recorder, main, tf  # noqa: E402

sys.path.insert(0, ROOT)
from tests import (graph_loop_array_cases, graph_loop_nested_cases,  # noqa: E402
                   graph_loop_run_time_cases)

ROWS = np.cos(np.arange(5 * 3, dtype=np.float32) * 0.7).reshape(5, 3)


def _train_case(rec: Recorder, case, minimize: bool = True) -> dict:
    """A training case of tests/graph_loop_nested_cases.py (the graphs tf1compat writes
    too), built by TF with its own gradients and train op ("train"), recorded as
    `Recorder.train_from_file` does, wrt the variables `w` and `v` (then, with
    `minimize`, TF's minimize of the imported loss); returns the case's spec."""
    spec = case(tf)
    graph = tf.get_default_graph()
    variables = [graph.get_tensor_by_name(name) for name in ("w:0", "v:0")]
    feed = spec["runs"][0]["feeds"]
    rec.train_from_file(graph.get_tensor_by_name("loss:0"), graph.get_operation_by_name(
        "train"), variables, feed, ["w:0", "v:0"])
    if minimize:
        rec.minimize("loss:0", feed, ["w:0", "v:0"])
    return spec


def case_scan_in_loop_run_time_length(rec: Recorder) -> None:
    """tf.scan (from an initializer and from the first element), tf.map_fn and tf.foldl
    over the rows of a fed [None, 3] input (a length known only at run time) inside a
    tf.while_loop of three passes; Adam from the file."""
    _train_case(rec, graph_loop_nested_cases.case_train_scan_map_fold_run_time_length_in_loop)


def case_tensor_array_computed_indices(rec: Recorder) -> None:
    """A loop writing a TensorArray at its counter and reading it back after the write at
    computed indices (`i // 2`, `(i + 1) // 2`), and writing a second one at `(2 * i) %
    5` stacked after the loop; GradientDescent from the file."""
    _train_case(rec, graph_loop_nested_cases.case_train_tensor_array_computed_indices)


def case_three_level_loops_with_conds(rec: Recorder) -> None:
    """Loops nested three deep whose bodies hold conds, and, in the outer body, a loop
    inside a tf.cond inside a tf.cond (a fed flag, the parity of the outer counter:
    `graph_loop_nested_cases.three_level_loops`). GradientDescent from the file; the
    flag fed both ways."""
    flag = tf.placeholder(tf.bool, [], name="flag")
    h = graph_loop_nested_cases.three_level_loops(tf, flag)
    loss = tf.reduce_mean(tf.square(h - 0.2), name="loss")
    graph = tf.get_default_graph()
    variables = [graph.get_tensor_by_name(name) for name in ("w:0", "v:0")]
    feed = {"x:0": ROWS[:4], "n:0": np.int32(2), "flag:0": True}
    rec.train_from_file(loss, tf.train.GradientDescentOptimizer(0.1), variables, feed,
                        ["w:0", "v:0"])
    _flag_off(rec, loss.name, feed)


def _flag_off(rec: Recorder, loss: str, feed: dict) -> None:
    """After the steps `train_from_file` recorded: the loss and gradients with the fed
    flag off, a step from the file that way, the variables and loss; then TF's minimize
    of the imported loss with the flag on."""
    with tf.Session() as sess:
        tf.train.Saver().restore(sess, os.path.join(rec.dir, "ckpt"))
        for _ in range(2):                # the test's session has trained two steps
            sess.run(tf.get_collection("train_op"), feed)
        flipped = dict(feed, **{"flag:0": False})
        rec.run(sess, [loss, "grad_0:0", "grad_1:0"], flipped)
        rec.run(sess, [], flipped, targets=[tf.get_collection("train_op")[0].name])
        rec.run(sess, ["w:0", "v:0", loss], flipped)
    rec.minimize("loss:0", feed, ["w:0", "v:0"])


def case_tensor_array_entering_with_elements(rec: Recorder) -> None:
    """Top-level loops writing TensorArrays that already hold elements written before
    them (read back in the body, stacked, gathered and read after the loop) and
    tf.scan without an initializer, forward and reversed; GradientDescent from the
    file."""
    _train_case(rec, graph_loop_nested_cases.case_train_tensor_array_entering_with_elements)


def case_tensor_arrays_split_before_nested_loop(rec: Recorder) -> None:
    """TensorArrays split and unstacked in a loop body before a nested loop of a fed trip
    count that reads them; Momentum from the file."""
    _train_case(rec, graph_loop_nested_cases.case_train_tensor_arrays_split_before_nested_loop)


def case_nested_loop_cond_random_and_stop(rec: Recorder) -> None:
    """A loop of a run-time trip count in a loop body whose tf.cond draws random numbers,
    stops a gradient and takes an erf; GradientDescent from the file."""
    _train_case(rec, graph_loop_nested_cases.case_train_nested_loop_cond_random_and_stop)


def case_loop_in_cond_in_nested_loop(rec: Recorder) -> None:
    """A loop in a tf.cond in a loop of a run-time trip count in a loop body;
    GradientDescent from the file, the flag fed both ways."""
    spec = _train_case(rec, graph_loop_nested_cases.case_train_loop_in_cond_in_nested_loop,
                       minimize=False)
    _flag_off(rec, "loss:0", spec["runs"][0]["feeds"])


def case_loop_in_cond_reading_branch_values(rec: Recorder) -> None:
    """A loop of a run-time trip count in a tf.cond in a loop body, starting from and
    capturing values the branch computes; GradientDescent from the file, the flag fed
    both ways."""
    spec = _train_case(rec, graph_loop_nested_cases.case_train_loop_in_cond_reading_branch_values,
                       minimize=False)
    _flag_off(rec, "loss:0", spec["runs"][0]["feeds"])


def case_loop_in_cond_reading_branch_values_without_gradient(rec: Recorder) -> None:
    """As `case_loop_in_cond_reading_branch_values`, the branch values computed with
    ops TF gives no gradient (floor, one-hot of an arg max, a gradient stop);
    GradientDescent from the file, the flag fed both ways."""
    spec = _train_case(rec, graph_loop_nested_cases.
                       case_train_loop_in_cond_reading_branch_values_without_gradient,
                       minimize=False)
    _flag_off(rec, "loss:0", spec["runs"][0]["feeds"])


def case_loop_in_three_conds_in_loop_v2(rec: Recorder) -> None:
    """A loop in a tf.cond in a tf.cond in a tf.cond in a loop body, built with TF's
    control flow v2 (functional While/If and their gradients: TF 1.x's own gradient of
    this nesting fails, "Stack[...] is empty when calling Pop()"); GradientDescent from
    the file, the flags fed all ways."""
    tf.enable_control_flow_v2()
    try:
        spec = _train_case(rec, graph_loop_nested_cases.case_train_loop_in_three_conds_in_loop,
                           minimize=False)
        feed = spec["runs"][0]["feeds"]
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, os.path.join(rec.dir, "ckpt"))
            for _ in range(2):            # the test's session has trained two steps
                sess.run(tf.get_collection("train_op"), feed)
            for run in spec["runs"][len(spec["runs"]) - 4:]:
                rec.run(sess, run["fetches"], run["feeds"], targets=run.get("targets", []))
        rec.minimize("loss:0", feed, ["w:0", "v:0"])
    finally:
        tf.disable_control_flow_v2()


def case_tensor_arrays_read_after_nested_loop(rec: Recorder) -> None:
    """Arrays a loop of a fed trip count in a loop body writes, read after it in the
    body by read(1), gather, size and concat; Momentum from the file."""
    _train_case(rec, graph_loop_array_cases.case_train_tensor_arrays_read_after_nested_loop)


def case_tensor_array_read_after_unrolled_nested_loop(rec: Recorder) -> None:
    """An array a loop of 3 steps in a loop body writes, read after it in the body by
    read(1), gather, size and concat; Momentum from the file."""
    _train_case(rec, graph_loop_array_cases.
                case_train_tensor_array_read_after_unrolled_nested_loop)


def case_tensor_array_written_in_cond_in_loop(rec: Recorder) -> None:
    """An array entering a loop with two elements, its element i written in a tf.cond
    of the body, stacked and read after the loop; GradientDescent from the file."""
    _train_case(rec, graph_loop_array_cases.case_train_tensor_array_written_in_cond_in_loop)


def case_tensor_arrays_written_at_indices_computed_in_branches(rec: Recorder) -> None:
    """Arrays a loop writes in tf.conds of its body at indices computed inside the
    branches (`2 * i` / `2 * i + 1`, `i + 5` beside a branch writing none), stacked
    after the loop; GradientDescent from the file."""
    _train_case(rec, graph_loop_array_cases.
                case_train_tensor_arrays_written_at_indices_computed_in_branches)


def case_tensor_array_read_after_its_write_in_nested_loop(rec: Recorder) -> None:
    """An array a loop of a fed trip count in a loop body writes and reads in its body
    after the write (the element just written, the previous one), stacked after it;
    Momentum from the file."""
    _train_case(rec, graph_loop_array_cases.
                case_train_tensor_array_read_after_its_write_in_nested_loop)


def case_tensor_array_read_after_its_write_in_nested_loop_not_stacked(rec: Recorder
                                                                       ) -> None:
    """Arrays a loop of a fed trip count in a loop body writes and reads in its body
    after the write, not stacked after it (one of the fed size, one of a constant size
    written at `2 * j` and read(2) after it); Momentum from the file."""
    _train_case(rec, graph_loop_array_cases.
                case_train_tensor_array_read_after_its_write_in_nested_loop_not_stacked)


def case_tensor_array_of_run_time_shape_read_in_loop_not_stacked(rec: Recorder) -> None:
    """An array of elements of a fed batch's run-time shape a loop writes and reads in
    its body after the write, not stacked after it (read(2) only); GradientDescent from
    the file."""
    _train_case(rec, graph_loop_array_cases.
                case_train_tensor_array_of_run_time_shape_read_in_loop_not_stacked)


def case_tensor_array_of_run_time_shape_written_in_cond_read_in_loop(rec: Recorder) -> None:
    """An array of elements of a fed batch's run-time shape, written before a loop and
    in a tf.cond of its body, read in the body, stacked and read after it;
    GradientDescent from the file."""
    _train_case(rec, graph_loop_array_cases.
                case_train_tensor_array_of_run_time_shape_written_in_cond_read_in_loop)


def case_tensor_arrays_written_at_branch_indices_in_nested_loop(rec: Recorder) -> None:
    """Arrays a loop of a fed trip count in a loop body writes in tf.conds of its body,
    one at indices computed inside the branches, stacked after it; Momentum from the
    file."""
    _train_case(rec, graph_loop_array_cases.
                case_train_tensor_arrays_written_at_branch_indices_in_nested_loop)


def case_tensor_array_loops_in_cond_in_loop(rec: Recorder) -> None:
    """A tf.cond in a loop body between a loop writing a TensorArray stacked after it in
    the branch and a dynamic_rnn whose outputs are read; GradientDescent from the file,
    the flag fed both ways."""
    spec = _train_case(rec, graph_loop_array_cases.case_train_tensor_array_loops_in_cond_in_loop,
                       minimize=False)
    _flag_off(rec, "loss:0", spec["runs"][0]["feeds"])


def case_run_time_length_loops_in_cond_in_loop(rec: Recorder) -> None:
    """As the case above over rows of a length known only at run time (the stack()
    transposed and scaled by random draws of its shape, the dynamic_rnn's outputs);
    GradientDescent from the file, the flag fed both ways."""
    spec = _train_case(rec, graph_loop_array_cases.
                       case_train_run_time_length_loops_in_cond_in_loop, minimize=False)
    _flag_off(rec, "loss:0", spec["runs"][0]["feeds"])

def case_run_time_length_rnn_outputs_reshaped_in_cond_in_loop(rec: Recorder) -> None:
    """A dynamic_rnn over a run-time length in a tf.cond of a loop body, its outputs
    flattened, projected, reshaped back and concatenated along the last axis;
    GradientDescent from the file, the flag fed both ways."""
    spec = _train_case(rec, graph_loop_array_cases.
                       case_train_run_time_length_rnn_outputs_reshaped_in_cond_in_loop,
                       minimize=False)
    _flag_off(rec, "loss:0", spec["runs"][0]["feeds"])


def case_run_time_length_rnn_outputs_read_at_rows_in_cond_in_loop(rec: Recorder) -> None:
    """A dynamic_rnn over a run-time length in a tf.cond of a loop body, its outputs read
    at row 2 and, concatenated along time, at a row of the outer counter;
    GradientDescent from the file, the flag fed both ways."""
    _flag_both_ways_case(rec, graph_loop_run_time_cases.
                         case_train_run_time_length_rnn_outputs_read_at_rows_in_cond_in_loop)


def case_run_time_length_rnn_outputs_regrouped_in_cond_in_loop(rec: Recorder) -> None:
    """A dynamic_rnn over a run-time length in a tf.cond of a loop body, its outputs
    reshaped to pairs of steps and to the fed length; GradientDescent from the file, the
    flag fed both ways."""
    _flag_both_ways_case(rec, graph_loop_run_time_cases.
                         case_train_run_time_length_rnn_outputs_regrouped_in_cond_in_loop)


def case_run_time_length_rnn_outputs_beside_inputs_in_cond_in_loop(rec: Recorder) -> None:
    """A dynamic_rnn over a run-time length in a tf.cond of a loop body, its outputs
    concatenated with its inputs; GradientDescent from the file, the flag fed both
    ways."""
    _flag_both_ways_case(rec, graph_loop_run_time_cases.
                         case_train_run_time_length_rnn_outputs_beside_inputs_in_cond_in_loop)


def case_run_time_length_rnn_outputs_attending_in_cond_in_loop(rec: Recorder) -> None:
    """A dynamic_rnn over a run-time length in a tf.cond of a loop body, its outputs
    attending over its inputs; GradientDescent from the file, the flag fed both ways."""
    _flag_both_ways_case(rec, graph_loop_run_time_cases.
                         case_train_run_time_length_rnn_outputs_attending_in_cond_in_loop)


def case_run_time_length_rnn_outputs_read_at_rows_in_cond_in_cond_in_loop(
        rec: Recorder) -> None:
    """A dynamic_rnn over a run-time length in a tf.cond in a tf.cond of a loop body,
    its outputs read at row 2 and regrouped; GradientDescent from the file, the flag fed
    both ways."""
    _flag_both_ways_case(
        rec, graph_loop_run_time_cases.
        case_train_run_time_length_rnn_outputs_read_at_rows_in_cond_in_cond_in_loop)


def case_run_time_length_rnn_outputs_projected_and_masked_in_cond_in_loop(
        rec: Recorder) -> None:
    """A dynamic_rnn over a run-time length in a tf.cond of a loop body, its outputs
    projected by tf.tensordot and masked by tf.sequence_mask of their run-time length;
    GradientDescent from the file, the flag fed both ways."""
    _flag_both_ways_case(
        rec, graph_loop_run_time_cases.
        case_train_run_time_length_rnn_outputs_projected_and_masked_in_cond_in_loop)


def case_run_time_length_birnn_outputs_in_cond_in_loop(rec: Recorder) -> None:
    """A bidirectional_dynamic_rnn over a run-time length in a tf.cond of a loop body;
    GradientDescent from the file, the flag fed both ways."""
    _flag_both_ways_case(rec, graph_loop_run_time_cases.
                         case_train_run_time_length_birnn_outputs_in_cond_in_loop)


def case_run_time_length_loop_result_in_cond_in_loop(rec: Recorder) -> None:
    """A loop over the fed rows in a tf.cond of a loop body whose state has a row per
    fed row, the branch returning a value of the loop's run-time shape; GradientDescent
    from the file, the flag fed both ways."""
    _flag_both_ways_case(rec, graph_loop_run_time_cases.
                         case_train_run_time_length_loop_result_in_cond_in_loop)


def case_run_time_length_loop_results_in_both_branches_in_loop(rec: Recorder) -> None:
    """As the case above with such a loop in each branch."""
    _flag_both_ways_case(rec, graph_loop_run_time_cases.
                         case_train_run_time_length_loop_results_in_both_branches_in_loop)


def _flag_both_ways_case(rec: Recorder, case) -> None:
    """`case` recorded from the file (GradientDescent), the flag fed both ways."""
    spec = _train_case(rec, case, minimize=False)
    _flag_off(rec, "loss:0", spec["runs"][0]["feeds"])


def case_tensor_array_entering_loop_through_cond(rec: Recorder) -> None:
    """A top-level loop writing an array that enters it with an element written in both
    branches of a tf.cond before it; GradientDescent from the file, the flag fed both
    ways."""
    spec = _train_case(rec, graph_loop_array_cases.
                       case_train_tensor_array_entering_loop_through_cond, minimize=False)
    _flag_off(rec, "loss:0", spec["runs"][0]["feeds"])

def case_tensor_arrays_entering_loop_through_conds_writing_apart(rec: Recorder) -> None:
    """Top-level loops writing arrays that enter them through a tf.cond before them whose
    branches write different rows, or whose else branch alone writes; GradientDescent
    from the file, the flag fed both ways."""
    spec = _train_case(rec, graph_loop_array_cases.
                       case_train_tensor_arrays_entering_loop_through_conds_writing_apart,
                       minimize=False)
    _flag_off(rec, "loss:0", spec["runs"][0]["feeds"])


def case_tensor_arrays_entering_loop_through_cond_in_cond(rec: Recorder) -> None:
    """As the case above, row 1 written in a tf.cond in the then branch of the tf.cond
    before the loops; GradientDescent from the file, the flag fed both ways."""
    spec = _train_case(rec, graph_loop_array_cases.
                       case_train_tensor_arrays_entering_loop_through_cond_in_cond,
                       minimize=False)
    _flag_off(rec, "loss:0", spec["runs"][0]["feeds"])


def case_tensor_arrays_entering_loop_through_cond_in_cond_apart(rec: Recorder) -> None:
    """As the case above, the tf.cond in the branch writing different rows by a
    predicate computed before the conds; GradientDescent from the file, the flag fed
    both ways."""
    spec = _train_case(rec, graph_loop_array_cases.
                       case_train_tensor_arrays_entering_loop_through_cond_in_cond_apart,
                       minimize=False)
    _flag_off(rec, "loss:0", spec["runs"][0]["feeds"])


def case_tensor_arrays_entering_loop_through_cond_in_cond_apart_inside(rec: Recorder) -> None:
    """As the case above, the inner tf.cond's predicate computed in the outer branch;
    GradientDescent from the file, the flag fed both ways."""
    _flag_both_ways_case(
        rec, graph_loop_array_cases.
        case_train_tensor_arrays_entering_loop_through_cond_in_cond_apart_inside)


def case_tensor_arrays_entering_loop_through_conds_read_in_body(rec: Recorder) -> None:
    """Top-level loops reading in their bodies rows of arrays that enter them through a
    tf.cond (its branches writing different rows, or one alone writing);
    GradientDescent from the file, the flag fed both ways."""
    spec = _train_case(rec, graph_loop_array_cases.
                       case_train_tensor_arrays_entering_loop_through_conds_read_in_body,
                       minimize=False)
    _flag_off(rec, "loss:0", spec["runs"][0]["feeds"])


def case_dynamic_size_tensor_array_read_after_its_write_in_nested_loop(rec: Recorder
                                                                        ) -> None:
    """An array of a dynamic size a loop of a fed trip count in a loop body writes at its
    counter and reads in its body after the write, read(0) after it; Momentum from the
    file."""
    _train_case(rec, graph_loop_array_cases.
                case_train_dynamic_size_tensor_array_read_after_its_write_in_nested_loop)


def case_dynamic_size_tensor_array_size_after_nested_loop(rec: Recorder) -> None:
    """As the case above, the array read after the inner loop by read(0) and size();
    Momentum from the file."""
    _train_case(rec, graph_loop_array_cases.
                case_train_dynamic_size_tensor_array_size_after_nested_loop)

def case_loop_in_cond_reading_outer_branch_values(rec: Recorder) -> None:
    """A loop of a run-time trip count in a tf.cond in a tf.cond in a loop body, starting
    from and capturing values the outer branch computes; GradientDescent from the file,
    the flag fed both ways."""
    spec = _train_case(rec, graph_loop_nested_cases.
                       case_train_loop_in_cond_reading_outer_branch_values, minimize=False)
    _flag_off(rec, "loss:0", spec["runs"][0]["feeds"])


CASES = [case_scan_in_loop_run_time_length, case_three_level_loops_with_conds,
         case_tensor_array_computed_indices, case_tensor_array_entering_with_elements,
         case_tensor_arrays_split_before_nested_loop, case_nested_loop_cond_random_and_stop,
         case_loop_in_cond_in_nested_loop, case_loop_in_three_conds_in_loop_v2,
         case_loop_in_cond_reading_branch_values,
         case_loop_in_cond_reading_branch_values_without_gradient,
         case_tensor_arrays_read_after_nested_loop,
         case_tensor_array_read_after_unrolled_nested_loop,
         case_tensor_array_written_in_cond_in_loop,
         case_tensor_arrays_written_at_indices_computed_in_branches,
         case_tensor_array_read_after_its_write_in_nested_loop,
         case_tensor_array_read_after_its_write_in_nested_loop_not_stacked,
         case_tensor_array_of_run_time_shape_read_in_loop_not_stacked,
         case_tensor_array_of_run_time_shape_written_in_cond_read_in_loop,
         case_tensor_arrays_written_at_branch_indices_in_nested_loop,
         case_tensor_array_loops_in_cond_in_loop,
         case_run_time_length_loops_in_cond_in_loop,
         case_run_time_length_rnn_outputs_reshaped_in_cond_in_loop,
         case_run_time_length_rnn_outputs_read_at_rows_in_cond_in_loop,
         case_run_time_length_rnn_outputs_regrouped_in_cond_in_loop,
         case_run_time_length_rnn_outputs_beside_inputs_in_cond_in_loop,
         case_run_time_length_rnn_outputs_attending_in_cond_in_loop,
         case_run_time_length_rnn_outputs_read_at_rows_in_cond_in_cond_in_loop,
         case_run_time_length_rnn_outputs_projected_and_masked_in_cond_in_loop,
         case_run_time_length_birnn_outputs_in_cond_in_loop,
         case_run_time_length_loop_result_in_cond_in_loop,
         case_run_time_length_loop_results_in_both_branches_in_loop,
         case_tensor_array_entering_loop_through_cond,
         case_tensor_arrays_entering_loop_through_conds_writing_apart,
         case_tensor_arrays_entering_loop_through_cond_in_cond,
         case_tensor_arrays_entering_loop_through_cond_in_cond_apart,
         case_tensor_arrays_entering_loop_through_cond_in_cond_apart_inside,
         case_tensor_arrays_entering_loop_through_conds_read_in_body,
         case_dynamic_size_tensor_array_read_after_its_write_in_nested_loop,
         case_dynamic_size_tensor_array_size_after_nested_loop,
         case_loop_in_cond_reading_outer_branch_values]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], CASES))
