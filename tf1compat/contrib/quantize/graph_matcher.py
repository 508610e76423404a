"""Tree patterns over a graph's ops, as contrib.quantize matches layers: a pattern names
op types (`"Add|AddV2"`, `"*"`) and, optionally, patterns for the op's inputs, in order
or in any order. A match maps each pattern it used to the op it matched and the tensor
through which the parent pattern reached that op.

The matching keeps TF 1.15's bookkeeping exactly, because `quantize` reads the result:
the first alternative (or input permutation) that matches wins, and the partial matches
of permutations that failed stay in the result.
"""

from __future__ import annotations

import itertools
from typing import Dict, Iterator, List, Optional, Sequence, Tuple, Union

from tf1compat.framework.graph import Graph
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor

_Entry = Tuple[Operation, Optional[Tensor]]


class MatchResult:
    """The ops and tensors a successful match bound, keyed by pattern."""

    def __init__(self) -> None:
        self._bound: Dict[int, _Entry] = {}

    def add(self, pattern: "Pattern", op: Operation, tensor: Optional[Tensor]) -> None:
        self._bound[id(pattern)] = (op, tensor)

    def merge(self, other: "MatchResult") -> None:
        self._bound.update(other._bound)

    def get_op(self, pattern: "Pattern") -> Optional[Operation]:
        """The op `pattern` matched, or None where the match did not use it."""
        entry = self._bound.get(id(pattern))
        return entry[0] if entry else None

    def get_tensor(self, pattern: "Pattern") -> Optional[Tensor]:
        """The tensor through which `pattern`'s op was reached (None for the root)."""
        entry = self._bound.get(id(pattern))
        return entry[1] if entry else None


class Pattern:
    """Base of the patterns: `match(op, tensor)` returns a MatchResult or None."""

    def match(self, op: Operation, tensor: Optional[Tensor]) -> Optional[MatchResult]:
        raise NotImplementedError


class OpTypePattern(Pattern):
    """An op of one of the `|`-separated types (`*`: any); with `inputs`, the op has
    exactly that many inputs and they match those patterns (strings are op types), in
    order or, with `ordered_inputs=False`, in the first permutation that matches."""

    def __init__(self, op_type: str, inputs: Optional[Sequence[Union[str, Pattern]]] = None,
                 ordered_inputs: bool = True) -> None:
        self._types = None if op_type == "*" else frozenset(op_type.split("|"))
        self._inputs: List[Pattern] = [p if isinstance(p, Pattern) else OpTypePattern(p)
                                       for p in inputs or []]
        self._ordered = ordered_inputs

    def match(self, op: Operation, tensor: Optional[Tensor]) -> Optional[MatchResult]:
        if self._types is not None and op.type not in self._types:
            return None
        result = MatchResult()
        result.add(self, op, tensor)
        if not self._inputs:
            return result
        if len(op.inputs) != len(self._inputs):
            return None
        orders = [self._inputs] if self._ordered else itertools.permutations(self._inputs)
        for patterns in orders:
            for operand, pattern in zip(op.inputs, patterns):
                sub = pattern.match(operand.op, operand)
                if sub is None:
                    break
                result.merge(sub)
            else:
                return result
        return None


class OneofPattern(Pattern):
    """The first of `alternatives` that matches."""

    def __init__(self, alternatives: Sequence[Pattern]) -> None:
        self._alternatives = list(alternatives)

    def match(self, op: Operation, tensor: Optional[Tensor]) -> Optional[MatchResult]:
        for pattern in self._alternatives:
            result = pattern.match(op, tensor)
            if result is not None:
                return result
        return None


def match_graph(pattern: Pattern, graph: Graph) -> Iterator[MatchResult]:
    """The matches of `pattern` rooted at each of `graph`'s ops, in creation order."""
    for op in graph.get_operations():
        result = pattern.match(op, None)
        if result is not None:
            yield result
