"""The way out of TF: a TF1 graph computation as native PyTorch.

    import tf1compat.export as tfx
    module = tfx.to_module(logits, feeds=[x], session=sess)   # a torch.nn.Module
    module(torch.randn(8, 784))                                # no Session, no graph
    torch.export.export(module, (torch.randn(8, 784),), strict=False)  # where it can
    tfx.to_fx(module)                                           # a readable GraphModule
    dense = tfx.torch_state_dict(module, mapping)               # weights for torch layers

See docs/migrating.md for the whole path (run unchanged -> `tf1compat check` -> export).
"""

from tf1compat.export.api import to_module, to_fx, torch_state_dict
from tf1compat.export.layout import LAYOUTS
from tf1compat.export.module import ExportedModule
from tf1compat.export.problems import ExportError

__all__ = ["to_module", "to_fx", "torch_state_dict", "ExportedModule", "ExportError",
           "LAYOUTS"]
