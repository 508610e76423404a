"""`to_module`, `to_fx`, `torch_state_dict`: the public entry points of tf1compat.export."""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Union

import torch

from tf1compat.export.fx_graph import graph_module
from tf1compat.export.layout import convert_state_dict
from tf1compat.export.module import ExportedModule, module_class
from tf1compat.export.spec import initial_values, resolve

__all__ = ["to_module", "to_fx", "torch_state_dict"]


def to_module(fetches: Any, feeds: Any = None, session: Any = None,
              variables: Optional[Sequence[Any]] = None,
              device: Union[str, torch.device, None] = None,
              random_ops: str = "tf") -> ExportedModule:
    """A `torch.nn.Module` computing `fetches` from `feeds`, as `session.run` would.

    Args:
      fetches: a tensor, op or variable, or a list / tuple / dict / namedtuple of them
        (names as `Session.run` accepts them); `forward` returns the same structure,
        tensors as torch tensors (ops as None).
      feeds: the tensors `forward` takes, in order (by their op names as keywords), or
        a dict {argument name: tensor}. Placeholders the fetches need must be here;
        an unfed `placeholder_with_default` is its default.
      session: where the variables' values come from (default: the default session
        when it runs this graph, else the variables' initializers run in a private
        session, giving the values a fresh `tf.Session` would start from).
      variables: the tf.Variables that become module state (default: every variable
        the computation reads). A variable the computation reads but this list leaves
        out becomes a constant (a non-persistent buffer) with its current value.
      device: where the module starts (default: the CPU); move it with `.to()`.
      random_ops: "tf" (default): random ops draw TF's Philox streams, the numbers a fresh
        Session draws; "torch": they sample from torch's generator (the same
        distributions; traceable by torch.export, no host round trip on a GPU).

    Trainable variables become `nn.Parameter`s, the others persistent buffers, named
    after TF's variable names (`hidden1/weights` -> `hidden1.weights`); values and
    gradients equal `Session.run` and `tf.gradients` on the same inputs. Assignments in
    the computation (moving averages) update buffers in place.

    Calling the module raises TF's error classes naming the op (InvalidArgumentError for
    bad indices, ...); an op that assigns a trainable variable (a train op among the
    fetches) raises UnimplementedError: train the parameters with torch.optim.

    Raises:
      InvalidArgumentError: a placeholder the fetches need is not in `feeds`.
      NotImplementedError: the computation contains `tf.gradients` or a Python gradient
        function the module cannot run.
    """
    if random_ops not in ("tf", "torch"):
        raise ValueError(f"random_ops must be 'tf' or 'torch', got {random_ops!r}")
    spec = resolve(fetches, feeds, variables, ExportedModule.reserved_names())
    spec.torch_random = random_ops == "torch"
    values = initial_values(spec, session)
    target = torch.device(device) if device is not None else torch.device("cpu")
    return module_class(spec.arg_names)(spec, values, target)


def to_fx(module_or_fetches: Any, feeds: Any = None, session: Any = None,
          variables: Optional[Sequence[Any]] = None,
          random_ops: str = "tf") -> torch.fx.GraphModule:
    """A readable `torch.fx.GraphModule` of an exported computation: one node per TF op
    (named after its tensor, calling the op's kernel named after its op type), the
    variables as `get_attr` nodes of the module's parameters and buffers (shared with
    the ExportedModule it comes from). Takes an ExportedModule, or the arguments of
    `to_module`."""
    module = module_or_fetches if isinstance(module_or_fetches, ExportedModule) else \
        to_module(module_or_fetches, feeds, session, variables, random_ops=random_ops)
    return graph_module(module)


def torch_state_dict(module: ExportedModule, mapping: Dict[str, Any],
                     strict: bool = True) -> Dict[str, torch.Tensor]:
    """The module's variables converted to the layouts of hand-written torch layers.

    `mapping` is {torch prefix: (layout, TF scope)}, e.g.
    `{"conv1": ("conv2d", "conv1"), "fc": ("dense", "dense"), "lstm": ("lstm", "rnn/lstm_cell")}`;
    see `LAYOUTS` (tf1compat/export/layout.py) for the layouts and what each converts.
    With `strict`, every variable of the module must be used by the mapping.
    """
    return convert_state_dict(module, mapping, strict)
