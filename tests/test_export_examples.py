"""Round trips over the migration examples: each legacy program builds its graph unchanged,
is exported with tf1compat.export.to_module, and then

* the module's loss and its parameters' gradients equal a fresh Session's loss and
  `tf.gradients` (the variables start from the same seeded initializers);
* one step of a plain torch.optim optimizer equals one run of the program's own TF1-style
  train op (GradientDescent, Momentum, Adam, or tf.gradients + tf.assign_sub);
* torch.export captures the MLP, CNN and RNN examples, and names the op that stops it
  where the graph cannot be captured (a loop bound that depends on the data).

The programs run up to their first `tf.Session()`, where the graph is complete.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Tuple

import numpy as np
import pytest
import torch

import tf1compat
import tf1compat.export as tfx
from tests.migration import EXAMPLES


class _GraphBuilt(Exception):
    """Raised by the first tf.Session() a program creates: its graph is complete."""


def _stop(*args: Any, **kwargs: Any) -> Any:
    raise _GraphBuilt()


def build(name: str) -> Dict[str, Any]:
    """Runs migration_examples/<name>/main.py up to its first tf.Session(); its globals."""
    folder = os.path.join(EXAMPLES, name)
    path = os.path.join(folder, "main.py")
    namespace: Dict[str, Any] = {"__name__": "__main__", "__file__": path}
    installed = sys.modules.get("tensorflow") is tf1compat
    tf1compat.install()
    saved = tf1compat.Session
    cwd = os.getcwd()
    tf1compat.Session = _stop
    try:
        os.chdir(folder)
        with contextlib.redirect_stdout(io.StringIO()), tf1compat.Graph().as_default():
            exec(compile(open(path).read(), path, "exec"), namespace)  # noqa: S102
    except _GraphBuilt:
        pass
    else:
        raise AssertionError(f"{name} never created a tf.Session")
    finally:
        tf1compat.Session = saved
        os.chdir(cwd)
        if not installed:
            tf1compat.uninstall()
    return namespace


@dataclass
class Case:
    """What to export from a program and how it trains."""
    fetch: Callable[[Dict[str, Any]], Any]            # the loss (or [loss, update ops])
    feeds: Callable[[Dict[str, Any]], List[Tuple[Any, Any]]]   # (tensor, value) pairs
    train_op: str                                      # the program's TF1-style step
    optimizer: Callable[[Any], torch.optim.Optimizer]  # the same step in plain torch
    rtol: float = 1e-5


def _cnn_feeds(g):
    return [(g["x"], g["images"][:32]), (g["y"], g["labels"][:32]), (g["training"], True)]


def _batch_norm_feeds(g):
    rng = np.random.RandomState(5)
    xb = (rng.randn(16, 6, 6, 2) * 1.5 + 0.5).astype(np.float32)
    return [(g["x"], xb), (g["labels"], xb.mean(axis=(1, 2, 3)).reshape(-1, 1)),
            (g["is_training"], True)]


def _input_pipeline_feeds(g):
    rng = np.random.RandomState(6)
    return [(g["features"], rng.randn(32, g["n_features"]).astype(np.float32)),
            (g["labels"], rng.randint(0, g["n_classes"], 32).astype(np.int64))]


def _word2vec_feeds(g):
    batch, labels = g["generate_batch"](g["batch_size"], g["num_skips"], g["skip_window"])
    return [(g["train_inputs"], batch), (g["train_labels"], labels)]


CASES = {
    "mlp_raw_variables": Case(
        lambda g: g["loss"],
        lambda g: [(g["x"], g["X_data"][:50]), (g["y"], g["Y_data"][:50])],
        "train_op", lambda params: torch.optim.SGD(params, lr=0.1)),
    # training=True: dropout draws TF's stream, the same masks a fresh Session draws
    "tf_layers_cnn_mnist": Case(
        lambda g: g["loss"], _cnn_feeds, "train_op",
        lambda params: torch.optim.SGD(params, lr=0.01)),
    "char_rnn_lm": Case(
        lambda g: g["loss"],
        lambda g: list(zip([g["inputs"], g["targets"]], g["batches"](0))),
        "train_op", lambda params: torch.optim.SGD(params, lr=2.0)),
    "birnn_sequence_classifier": Case(
        lambda g: g["loss"],
        lambda g: [(g["x"], g["values"]), (g["seq_len"], g["lengths"]), (g["y"], g["labels"])],
        "train_op", lambda params: torch.optim.SGD(params, lr=0.5)),
    # the moving statistics update as the train op's control dependencies update them
    "batch_norm_moving_stats": Case(
        lambda g: [g["loss"], g["update_ops"]], _batch_norm_feeds, "train_op",
        lambda params: torch.optim.SGD(params, lr=0.01, momentum=0.9)),
    # TF's Adam adds epsilon to sqrt(v) before the bias correction: equal to 1e-7 here
    "effective_tf_quadratic_fit": Case(
        lambda g: g["loss"],
        lambda g: list(zip([g["x"], g["y"]], g["generate_data"]())),
        "train_op", lambda params: torch.optim.Adam(params, lr=0.1), rtol=1e-6),
    # the iterator's outputs are fed, as a Session can feed them
    "tf_data_input_pipeline": Case(
        lambda g: g["loss"], _input_pipeline_feeds, "train_op",
        lambda params: torch.optim.SGD(params, lr=0.5)),
    # NCE's negative samples come from TF's stream: the same classes as a fresh Session
    "word2vec_basic": Case(
        lambda g: g["loss"], _word2vec_feeds, "optimizer",
        lambda params: torch.optim.SGD(params, lr=1.0)),
}


def _first(values):
    return values[0] if isinstance(values, list) else values


@pytest.mark.parametrize("name", sorted(CASES))
def test_round_trip(name: str) -> None:
    case = CASES[name]
    g = build(name)
    fetch = case.fetch(g)
    pairs = case.feeds(g)
    feed = dict(pairs)
    values = [value for _, value in pairs]
    graph = _first(fetch).graph
    with graph.as_default():
        tf = tf1compat
        module = tfx.to_module(fetch, [t for t, _ in pairs])
        state = module.tf_variables()
        params = [v for v in tf.trainable_variables() if v.op.name in state]
        assert params and all(isinstance(state[v.op.name], torch.nn.Parameter)
                              for v in params)
        grads = [tf.convert_to_tensor(t) for t in tf.gradients(_first(fetch), params)]
        # The Session on the CPU, where the module runs: on a GPU, TF32 convolutions and
        # reductions in another order round differently.
        with tf.Session(config=tf.ConfigProto(device_count={"GPU": 0})) as sess:
            sess.run(tf.global_variables_initializer())
            fetched, expected_grads = sess.run([fetch, grads], feed)
            loss = _first(fetched)
            sess.run(g[case.train_op], feed)
            after = {key: sess.run(graph.get_tensor_by_name(key + ":0")) for key in state}

    got = _first(module(*values))
    np.testing.assert_allclose(got.item(), loss, rtol=case.rtol)
    got.backward()
    for v, expected in zip(params, expected_grads):
        np.testing.assert_allclose(state[v.op.name].grad.numpy(), expected, rtol=case.rtol,
                                   atol=1e-6, err_msg=f"{name}: gradient of {v.op.name}")
    # The train op ran in a second Session.run, whose random ops drew again: so does
    # the module's second forward.
    optimizer = case.optimizer(module.parameters())
    optimizer.zero_grad()
    _first(module(*values)).backward()
    optimizer.step()
    for key, expected in after.items():
        np.testing.assert_allclose(state[key].detach().numpy(), expected, rtol=case.rtol,
                                   atol=1e-6, err_msg=f"{name}: {key} after one step")


def _exported(name, fetch, feeds, random_ops="tf"):
    g = build(name)
    graph = g[fetch].graph
    with graph.as_default():
        module = tfx.to_module(g[fetch], [g[f] for f in feeds], random_ops=random_ops)
    return g, module


@pytest.mark.parametrize("name,fetch,feeds,random_ops", [
    ("mlp_raw_variables", "loss", ["x", "y"], "tf"),
    ("tf_layers_cnn_mnist", "logits", ["x"], "tf"),          # dropout off: its default
    ("char_rnn_lm", "logits", ["inputs"], "torch"),          # DropoutWrapper samples
])
def test_torch_export_of_the_mlp_cnn_and_rnn(name, fetch, feeds, random_ops):
    g, module = _exported(name, fetch, feeds, random_ops)
    if name == "mlp_raw_variables":
        inputs = (g["X_data"][:20], g["Y_data"][:20])
    elif name == "tf_layers_cnn_mnist":
        inputs = (g["images"][:8],)
    else:
        inputs = (g["batches"](1)[0],)
    args = tuple(torch.from_numpy(np.asarray(a)) for a in inputs)
    program = torch.export.export(module, args, strict=False)
    np.testing.assert_allclose(program.module()(*args).detach().numpy(),
                               module(*args).detach().numpy(), rtol=1e-5, atol=1e-6)


def test_torch_export_names_the_data_dependent_op():
    g, module = _exported("birnn_sequence_classifier", "logits", ["x", "seq_len"])
    args = (torch.from_numpy(g["values"]), torch.from_numpy(g["lengths"]))
    # The first op in execution order whose shapes depend on the sequence lengths: the
    # backward direction's ReverseSequence (or, ordered otherwise, the forward loop).
    with pytest.raises(tfx.ExportError, match=r"(ReverseSequence op 'encoder/bidirectional_"
                                              r"rnn/bw/ReverseSequence'|While op 'encoder/"
                                              r"bidirectional_rnn/fw/fw/while/While')"
                                              r".*data-dependent"):
        torch.export.export(module, args, strict=False)
