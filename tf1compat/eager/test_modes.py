"""TF's `test_util.run_in_graph_and_eager_modes`: a test method run twice, graph then eager.

TF 1.x test files (Sonnet v1's, through `tf.contrib.eager.run_all_tests_in_graph_and_eager_modes`)
decorate a `tf.test.TestCase` class or method so that each test body runs first in graph
mode inside the test's session, then, after `tearDown`/`setUp`, eagerly in a fresh graph;
a test that calls `skipTest` in graph mode still gets its eager run, as in TF.
"""

from __future__ import annotations

import functools
import unittest
from typing import Any, Callable, Optional

from tf1compat.eager.context import eager_mode, graph_mode
from tf1compat.framework.graph import Graph, device

__all__ = ["run_in_graph_and_eager_modes", "run_all_in_graph_and_eager_modes"]


def run_in_graph_and_eager_modes(func: Optional[Callable] = None, config: Any = None,
                                 use_gpu: bool = True, reset_test: bool = True,
                                 assert_no_eager_garbage: bool = False) -> Callable:
    """Decorates a test method to run in graph mode (in `self.test_session`) and then
    eagerly (on CPU when `use_gpu` is False); with `reset_test` the test's
    tearDown/setUp run between the two. Not for classes: use
    `run_all_in_graph_and_eager_modes`."""
    del assert_no_eager_garbage  # TF's reference-cycle check; Python's GC is not checked

    def decorator(f: Callable) -> Callable:
        if isinstance(f, type):
            raise ValueError("`run_in_graph_and_eager_modes` only supports test methods. "
                             "Did you mean to use `run_all_in_graph_and_eager_modes`?")

        @functools.wraps(f)
        def decorated(self: Any, *args: Any, **kwargs: Any) -> None:
            try:
                with graph_mode(), self.test_session(use_gpu=use_gpu, config=config):
                    f(self, *args, **kwargs)
            except unittest.case.SkipTest:
                pass
            if reset_test:
                self.tearDown()
            with Graph().as_default(), eager_mode():
                if reset_test:
                    self.setUp()
                if use_gpu:
                    f(self, *args, **kwargs)
                else:
                    with device("/device:CPU:0"):
                        f(self, *args, **kwargs)
        return decorated

    return decorator if func is None else decorator(func)


def run_all_in_graph_and_eager_modes(cls: type) -> type:
    """Applies `run_in_graph_and_eager_modes` to every test method of a TestCase class,
    inherited ones included (names with unittest's `test` prefix, except the
    `test_session` helper and TF's `testSkipEager` / `test_skip_eager` graph-only tests)."""
    for name in dir(cls):
        if not name.startswith(unittest.TestLoader.testMethodPrefix) or \
                name.startswith(("testSkipEager", "test_skip_eager")) or name == "test_session":
            continue
        value = getattr(cls, name, None)
        if callable(value):
            setattr(cls, name, run_in_graph_and_eager_modes(value))
    return cls
