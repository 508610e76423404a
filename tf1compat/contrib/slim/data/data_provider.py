"""`slim.data.data_provider`: the interface of slim's data providers (named items ->
tensors)."""

from __future__ import annotations

import abc
from typing import Any, Dict, List, Sequence

__all__ = ["DataProvider"]


class DataProvider(abc.ABC):
    """Holds a dict of item name -> tensor; `get` returns them by name."""

    def __init__(self, items_to_tensors: Dict[str, Any], num_samples: int):
        self._items_to_tensors = items_to_tensors
        self._num_samples = num_samples

    def get(self, items: Sequence[str]) -> List[Any]:
        """The tensors of `items`, in order; an unknown item raises ValueError."""
        self._validate_items(items)
        return [self._items_to_tensors[item] for item in items]

    def list_items(self) -> Any:
        """The names of the items provided."""
        return self._items_to_tensors.keys()

    def num_samples(self) -> int:
        """The number of samples of the underlying data set."""
        return self._num_samples

    def _validate_items(self, items: Sequence[str]) -> None:
        if not isinstance(items, (list, tuple)):
            raise ValueError("items must be a list or tuple")
        valid_items = self.list_items()
        for item in items:
            if item not in valid_items:
                raise ValueError("Item [%s] is invalid. Valid entries include: %s" %
                                 (item, valid_items))
