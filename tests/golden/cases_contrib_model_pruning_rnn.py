"""Golden cases: `tf.contrib.model_pruning`'s masked LSTM cells (TF 1.15
layers/rnn_cells.py) and its training loop `train` (learning.py: slim's
`learning.train` with the mask update run after each step). The oracle is TF 1.15's
sources run under TF 2.21 (tests/golden/cases_contrib_model_pruning.py's loader, with
TF 2.21's legacy rnn_cell), and for `train` tf_slim (the maintained port of TF 1.15's
contrib.slim) as its `contrib.slim`:

    PYTHONPATH=scripts:/tmp/realcode-n/tfslim_pkg /tmp/tf/bin/python \\
        scripts/record_goldens.py cases_contrib_model_pruning_rnn

TF 1.15's `train` unpacks slim's returned loss (one number) into two names, so once
training has finished it raises TypeError: the case records that and the checkpoint the
loop wrote before it."""

import tempfile

import numpy as np

from tests.golden.cases_contrib_model_pruning import _collections, _graph_ops, _pruning, \
    _train_with_pruning


def _cells(tf):
    mp = _pruning(tf)
    if getattr(tf, "contrib", None) is not None:
        return mp
    import oracle_contrib
    return oracle_contrib.tf115_absolute_package(
        "contrib.model_pruning.python.layers", ["rnn_cells"]).rnn_cells


def _train(tf):
    mp = _pruning(tf)
    if getattr(tf, "contrib", None) is not None:
        return mp.train, tf.contrib.slim.learning.create_train_op
    import sys

    import oracle_contrib
    import tf_slim
    sys.modules["tensorflow.contrib"].slim = tf_slim
    learning = oracle_contrib.tf115_absolute_package("contrib.model_pruning.python",
                                                     ["learning"]).learning
    return learning.train, tf_slim.learning.create_train_op


def _sequence(tf, cell, steps=3):
    rng = np.random.RandomState(3)
    inputs = [tf.constant(rng.randn(2, 4).astype(np.float32)) for _ in range(steps)]
    outputs, state = tf.nn.static_rnn(cell, inputs, dtype=tf.float32)
    return outputs, state


def _prune_and_run(tf, outputs, state, steps=3):
    """A pruning step at global steps 0..steps-1 (target sparsity 0.5 from step 0), the
    outputs after each."""
    mp = _pruning(tf)
    return _train_with_pruning(
        tf, mp, "begin_pruning_step=0,end_pruning_step=10,pruning_frequency=1,"
        "target_sparsity=0.5,initial_sparsity=0.25,sparsity_function_begin_step=0,"
        "sparsity_function_end_step=4", steps, build=lambda rng: None,
        fetch=lambda p: {"outputs": outputs, "state": list(state), "masks": mp.get_masks(),
                         "thresholds": mp.get_thresholds()})


def case_masked_basic_lstm_cell(tf):
    rnn_cells = _cells(tf)
    tf.set_random_seed(4)
    cell = rnn_cells.MaskedBasicLSTMCell(5, forget_bias=0.5)
    outputs, state = _sequence(tf, cell)
    graph = tf.get_default_graph()
    return {"ops": [op for op in _graph_ops(graph) if "Initializer" not in op[0]],
            "collections": _collections(tf, _pruning(tf)),
            "sizes": [cell.state_size, cell.output_size],
            "run": _prune_and_run(tf, outputs, state)}


def case_masked_lstm_cell_peepholes_clip(tf):
    rnn_cells = _cells(tf)
    cell = rnn_cells.MaskedLSTMCell(4, use_peepholes=True, cell_clip=0.8,
                                    initializer=tf.random_uniform_initializer(-0.6, 0.6,
                                                                              seed=5),
                                    forget_bias=0.0, state_is_tuple=False)
    outputs, state = _sequence(tf, cell)
    graph = tf.get_default_graph()
    return {"ops": [op for op in _graph_ops(graph) if "Initializer" not in op[0]],
            "collections": _collections(tf, _pruning(tf)),
            "run": _prune_and_run(tf, outputs, [state])}


def case_pruning_train(tf):
    mp = _pruning(tf)
    train, create_train_op = _train(tf)
    rng = np.random.RandomState(0)
    x = tf.constant(rng.randn(8, 6).astype(np.float32))
    y = tf.constant(rng.randn(8, 3).astype(np.float32))
    pred = mp.masked_fully_connected(
        x, 3, activation_fn=None, scope="fc",
        weights_initializer=tf.constant_initializer(rng.randn(6, 3).astype(np.float32)))
    loss = tf.losses.mean_squared_error(y, pred)
    global_step = tf.train.get_or_create_global_step()
    p = mp.Pruning(mp.get_pruning_hparams().parse(
        "begin_pruning_step=1,end_pruning_step=10,pruning_frequency=1,target_sparsity=0.5,"
        "initial_sparsity=0.2,sparsity_function_begin_step=1,sparsity_function_end_step=4"),
        global_step=global_step)
    mask_update = p.conditional_mask_update_op()
    train_op = create_train_op(loss, tf.train.GradientDescentOptimizer(0.1))
    logdir = tempfile.mkdtemp()
    try:
        result = {"loss": train(train_op, logdir, mask_update, number_of_steps=4,
                                save_summaries_secs=3600, save_interval_secs=3600)}
    except TypeError:
        result = {"raised": "TypeError"}
    reader = tf.train.NewCheckpointReader(tf.train.latest_checkpoint(logdir))
    result["checkpoint"] = {name: reader.get_tensor(name)
                            for name in sorted(reader.get_variable_to_shape_map())}
    return result
