"""`slim.data.data_decoder`: the interface of slim's decoders (a serialized record ->
tensors, one per item)."""

from __future__ import annotations

import abc
from typing import Any, List, Optional, Sequence

__all__ = ["DataDecoder"]


class DataDecoder(abc.ABC):
    """Decodes one serialized record into the requested items' tensors."""

    @abc.abstractmethod
    def decode(self, data: Any, items: Optional[Sequence[str]] = None) -> List[Any]:
        """The tensors of `items` (all items when None), in that order."""

    @abc.abstractmethod
    def list_items(self) -> List[str]:
        """The names of the items this decoder can produce."""
