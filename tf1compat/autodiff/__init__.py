"""Automatic differentiation: tf.gradients on torch autograd, custom gradients, checkers.

Importing this package installs the grad-mode kernel rewriter for the plan builder
(framework/hooks.GRAD_MODE); see gradients.py for the design.
"""

from tf1compat.autodiff import grad_mode as _grad_mode
from tf1compat.framework.hooks import GRAD_MODE

GRAD_MODE["rewriter"] = _grad_mode.GradModeRewriter

# Declares SymbolicGradient and GradientInput.
from tf1compat.autodiff import gradients as _gradients  # noqa: E402,F401
from tf1compat.autodiff import custom_gradient as _custom_gradient  # noqa: E402,F401
