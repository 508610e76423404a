"""The cross-entropy's TF gradient under torch.compile (ops/_grad_formulas.py
`_xent_traced`) and AOTAutograd's cache for training graphs (runtime/direct_graphs.py):
the traced formula is plain torch ops (no autograd.Function, which makes AOTAutograd
bypass its cache) with `_XentApply`'s values and gradients bit for bit."""

import numpy as np
import pytest
import torch

from tf1compat.ops import _grad_formulas, nn_losses  # noqa: F401  (declares the ops)
from tf1compat.ops._grad_formulas import _xent_traced, _XentApply
from tf1compat.runtime import direct_graphs


class _Ctx:
    device = torch.device("cpu")


def _kernel(sparse):
    return (nn_losses._sparse_xent_kernel if sparse else nn_losses._xent_kernel)(None, _Ctx)


def _case(sparse, seed, labels_from_logits=False):
    gen = torch.Generator().manual_seed(seed)
    logits = (torch.randn(6, 7, generator=gen) * 4).requires_grad_()
    if sparse:
        labels = torch.randint(0, 7, (6,), generator=gen)
    elif labels_from_logits:
        # TF's gradient is then softmax - softmax: exactly 0, autograd's is not.
        labels = torch.softmax(logits.detach(), -1).requires_grad_()
    else:
        labels = torch.softmax(torch.randn(6, 7, generator=gen), -1).requires_grad_()
    grads = (torch.randn(6, generator=gen), torch.randn(6, 7, generator=gen))
    return logits, labels, grads


def _values(apply, sparse, logits, labels, grads):
    loss, backprop = apply(_kernel(sparse), sparse, logits, labels)
    inputs = [logits] if sparse else [logits, labels]
    first = torch.autograd.grad(loss, inputs, grads[0], retain_graph=True)
    both = torch.autograd.grad((loss, backprop), inputs, grads)
    return (loss, backprop) + first + both


@pytest.mark.parametrize("sparse,from_logits", [(True, False), (False, False), (False, True)])
def test_traced_formula_is_xent_apply_bit_for_bit(sparse, from_logits):
    for seed in range(5):
        case = _case(sparse, seed, from_logits)
        want = _values(_XentApply.apply, sparse, *case)
        got = _values(_xent_traced, sparse, *case)
        for w, g in zip(want, got):
            assert torch.equal(w, g) and torch.equal(w.signbit(), g.signbit())


def test_infinite_logits_keep_the_loss():
    logits = torch.tensor([[0.0, -np.inf, 1.0]], requires_grad=True)
    labels = torch.tensor([2])
    loss, backprop = _xent_traced(_kernel(True), True, logits, labels)
    want_loss, want_backprop = _kernel(True)(logits.detach(), labels)
    assert torch.equal(loss, want_loss) and torch.equal(backprop, want_backprop)
    (grad,) = torch.autograd.grad(loss, logits)
    assert torch.equal(grad, want_backprop)


def test_compiled_graph_has_no_autograd_function():
    kernel = _kernel(True)
    formula = _grad_formulas.xent_formula(type("N", (), {"type": "SparseSoftmax"
                                                       "CrossEntropyWithLogits"}), kernel, None)
    targets = []

    def backend(gm, inputs):
        targets.extend(str(n.target) for n in gm.graph.nodes if n.op == "call_function")
        return gm.forward

    def step(logits, labels):
        loss, _ = formula(logits, labels)
        return torch.autograd.grad(loss.sum(), logits)[0]
    logits, labels, _ = _case(True, 0)
    # As a compiled gradient plan runs (runtime/hot_plans.py `_tracing_autograd`).
    with torch._dynamo.config.patch(trace_autograd_ops=True):
        got = torch.compile(step, backend=backend, fullgraph=True)(logits, labels)
    assert targets and not any("autograd_function_apply" in t for t in targets)
    assert torch.equal(got, _kernel(True)(logits.detach(), labels)[1])


@pytest.mark.parametrize("requires_grad,grad_mode,want", [
    (True, True, True), (False, True, False), (True, False, False)])
def test_autograd_cache_only_for_training_graphs(monkeypatch, requires_grad, grad_mode, want):
    import torch._inductor.compile_fx as compile_fx_module
    from torch._functorch import config as functorch_config
    seen = []

    def fake_compile_fx(gm, example_inputs, inner_compile):
        seen.append(functorch_config.enable_autograd_cache)
        return gm
    monkeypatch.setattr(compile_fx_module, "compile_fx", fake_compile_fx)
    x = torch.ones(3, requires_grad=requires_grad)
    with torch.set_grad_enabled(grad_mode):
        direct_graphs._inductor_recording(torch.fx.symbolic_trace(lambda t: t * 2), [x], [])
    assert seen == [want]
