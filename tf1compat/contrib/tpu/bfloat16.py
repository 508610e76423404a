"""`tf.tpu.bfloat16_scope` (TF 1.15: `tf.contrib.tpu.bfloat16_scope`, from
tensorflow/python/tpu/bfloat16.py): a variable scope whose custom getter keeps a variable
requested in bfloat16 as float32 and hands the model its bfloat16 cast, so that bfloat16
activations train float32 weights. It does not cast anything itself: a float32 model
built inside it (tensorflow/tpu's efficientnet under use_tpu=False, fed float32 images)
runs in float32.
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator

from tf1compat.framework import dtypes as D
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["bfloat16_scope"]


def _custom_getter() -> Callable[..., Any]:
    def inner_custom_getter(getter: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        from tf1compat.ops.math_ops import cast
        cast_to_bfloat16 = False
        if kwargs["dtype"] == D.bfloat16:
            kwargs["dtype"] = D.float32
            cast_to_bfloat16 = True
        var = getter(*args, **kwargs)
        return cast(var, D.bfloat16) if cast_to_bfloat16 else var
    return inner_custom_getter


@contextlib.contextmanager
def bfloat16_scope(name: str = "") -> Iterator[Any]:
    """A variable scope (named `name`, "" for none) creating bfloat16 variables as float32
    and reading them cast to bfloat16."""
    with variable_scope(name, custom_getter=_custom_getter()) as varscope:
        yield varscope
