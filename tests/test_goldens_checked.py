"""Replays the golden cases through the checking interpreter: each op's real output must
agree with its static shape rule and declared dtype, and results must match the record."""

from __future__ import annotations

import pytest

import tf1compat
import tf1compat.runtime.session as session_mod
from tf1compat.runtime.interpreter import CheckingInterpreter
from tests import test_goldens as _goldens

# Whole architectures (ResNet-152, DenseNet-201, ...) built from the convolution, batch
# norm, pooling and activation ops that the other cases already replay here: checking
# them again would add two minutes of CPU to CI and no op whose shape rule is unchecked.
_NOT_REPLAYED = {"cases_keras_applications"}


@pytest.mark.parametrize("module,name,fn", [param for param in _goldens._params()
                                            if param.values[0] not in _NOT_REPLAYED])
def test_golden_checked(module, name, fn, monkeypatch):
    monkeypatch.setattr(session_mod, "_USE_INTERPRETER", True)
    monkeypatch.setattr(session_mod, "_INTERPRETER_CLASS", CheckingInterpreter)
    _goldens.test_golden(module, name, fn)
