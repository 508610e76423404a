"""Process-wide mixed-precision switches, read by Session at construction (as TF's
mixed_precision_global_state): whether `enable_mixed_precision_graph_rewrite` is on,
whether a Session was created without it, and whether a Keras mixed-precision policy is
set (the two ways of enabling mixed precision exclude each other).

TF's graph rewrite converts numerically safe ops to float16 on NVIDIA GPUs only; on the
CPU the numerics stay float32. tf1compat's equivalent: a Session created while the rewrite
is enabled (or whose ConfigProto sets `graph_options.rewrite_options.auto_mixed_precision`
to ON) whose default device is CUDA runs its plans under `torch.autocast("cuda",
torch.float16)`, and fetched values come back in the graph's declared dtypes.
"""

from __future__ import annotations

from typing import Any, Callable, ContextManager, Optional

import torch

__all__ = ["is_graph_rewrite_enabled", "set_graph_rewrite_enabled",
           "non_mixed_precision_session_created", "is_using_mixed_precision_policy",
           "set_using_mixed_precision_policy", "session_autocast"]

_REWRITE_ON = 1          # RewriterConfig.Toggle.ON

_graph_rewrite_enabled = False
_non_mixed_precision_session_created = False
_using_mixed_precision_policy = False


def is_graph_rewrite_enabled() -> bool:
    return _graph_rewrite_enabled


def set_graph_rewrite_enabled(enabled: bool) -> None:
    global _graph_rewrite_enabled
    _graph_rewrite_enabled = enabled


def non_mixed_precision_session_created() -> bool:
    return _non_mixed_precision_session_created


def is_using_mixed_precision_policy() -> bool:
    return _using_mixed_precision_policy


def set_using_mixed_precision_policy(is_using: bool) -> None:
    global _using_mixed_precision_policy
    _using_mixed_precision_policy = is_using


def _config_asks_for_rewrite(config: Any) -> bool:
    try:
        return config.graph_options.rewrite_options.auto_mixed_precision == _REWRITE_ON
    except AttributeError:
        return False


def session_autocast(config: Any, device: torch.device
                     ) -> Optional[Callable[[], ContextManager[Any]]]:
    """For a Session being created with `config` on default `device`: a factory of the
    autocast context its runs enter, or None when its numerics stay as declared."""
    global _non_mixed_precision_session_created
    if not (_graph_rewrite_enabled or _config_asks_for_rewrite(config)):
        _non_mixed_precision_session_created = True
        return None
    if device.type != "cuda":
        return None       # TF's rewrite only converts ops placed on GPUs
    return lambda: torch.autocast("cuda", dtype=torch.float16)

