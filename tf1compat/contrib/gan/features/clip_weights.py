"""Weight clipping for WGAN discriminators (TF 1.14's clip_weights_impl.py): an
optimizer whose every step is followed by clipping the variables' norms."""

from __future__ import annotations

from typing import Any, Sequence

from tf1compat.contrib.opt.wrappers import VariableClippingOptimizer

__all__ = ["clip_variables", "clip_discriminator_weights"]


def clip_discriminator_weights(optimizer: Any, model: Any, weight_clip: float) -> Any:
    """`optimizer` wrapped so the model's discriminator variables are clipped to
    `weight_clip` after each update."""
    return clip_variables(optimizer, model.discriminator_variables, weight_clip)


def clip_variables(optimizer: Any, variables: Sequence[Any], weight_clip: float) -> Any:
    """A VariableClippingOptimizer clipping each of `variables` (as a whole: no clip
    dims) to norm `weight_clip`, with locking and the clip ops on the variables' devices."""
    if weight_clip < 0:
        # TF passes the value as a second exception argument instead of formatting it.
        raise ValueError("`discriminator_weight_clip` must be positive. Instead, was %s",
                         weight_clip)
    return VariableClippingOptimizer(opt=optimizer, vars_to_clip_dims={v: [] for v in variables},
                                     max_norm=weight_clip, use_locking=True,
                                     colocate_clip_ops_with_vars=True)
