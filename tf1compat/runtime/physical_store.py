"""Variables held in another layout than TF's between the runs of one plan.

The fused LSTM (rnn/fused.py) wants its kernel in torch's layout; re-laying TF's kernel
forward and its gradient back costs a step ~0.35 ms (docs/performance.md "## lstm11").
A training plan whose only uses of such a variable (and of its optimizer slots) are the
fused loop, the gradient and an elementwise Apply (runtime/plan_rewrites.py
`held_layouts`) keeps them in the layout the kernel reads across its runs: the
variable's gradient comes out in that layout and the elementwise update runs on it
unchanged (the same values, permuted: bit-identical).

Invariant: a key has ONE representation, TF's tensor in the store's dict or the held
one in `held` (its dict entry popped). `hold` converts (TF -> held), `release` goes back
(and drops the held one); every reader that does not ask for the held form - `[]`
through `__missing__`, `get`, `in`, iteration, `dict(store)` - sees TF's value,
released on first touch; every writer (`[]=`, `pop`, `update`, ...) replaces it. So
Assign, restore, initializers and saver snapshots act on TF's tensor as before.
`Session._execute` holds a plan's keys before its run and releases all before a run of
any other plan. The store's class becomes `HeldStore` when it first holds a key: every
other workload keeps the plain `VariableStore`.
"""

from __future__ import annotations

import threading
from typing import Any, Dict, Iterable, Iterator, Optional

from tf1compat.runtime.session_state import VariableStore

__all__ = ["HeldStore", "hold"]

_BECOMING = threading.Lock()      # a store's first `hold`, once


def hold(store: VariableStore, layouts: Dict[str, Any]) -> None:
    """Holds `layouts`' keys in their layouts (a plan's run is about to start), taking
    their locks; the store becomes a `HeldStore` on its first call."""
    if type(store) is not HeldStore:
        with _BECOMING:
            if type(store) is not HeldStore:     # (complete before the class says so)
                store._held = {}
                store._layouts = {}
                store._router = Router(store)
                store.__class__ = HeldStore
    store._layouts.update(layouts)
    for key in layouts:
        if key not in store._held:
            with store.lock(key):
                store.convert(key)


class HeldStore(VariableStore):
    """A `VariableStore` some of whose keys are held in another layout (module doc)."""

    _held: Dict[str, Any]
    _layouts: Dict[str, Any]
    _router: "Router"

    # -- moving between the representations (callers hold the key's lock) -------------
    def convert(self, key: str) -> bool:
        """TF's tensor of `key` -> its held form; False (unchanged) when it is absent or
        not what the layout takes (another shape, not on the CPU)."""
        if key in self._held:
            return True
        value = dict.get(self, key)
        layout = self._layouts.get(key)
        if value is None or layout is None or value.dim() != layout.tf_rank or \
                value.device.type != "cpu" or value.requires_grad:
            return False
        self._held[key] = layout.to_physical(value)
        dict.pop(self, key)
        return True

    def release(self, key: str) -> None:
        """The held form of `key` -> TF's tensor in the dict."""
        held = self._held.get(key)
        if held is not None:
            # TF's tensor first, the held one dropped after: a reader that takes no lock
            # (`__contains__`: "is it initialized?") always finds one of the two.
            dict.__setitem__(self, key, self._layouts[key].to_tf(held))
            self._held.pop(key, None)

    def release_all(self) -> None:
        """Every held key back in TF's layout (a run of another plan is about to start)."""
        for key in list(self._held):
            with self.lock(key):
                self.release(key)

    def held_value(self, key: str) -> Any:
        """The held tensor of `key` (converted now if another run released it), else
        TF's: what a plan that holds `key` makes its gradient leaf."""
        held = self._held.get(key)
        if held is not None:
            return held
        with self.lock(key):
            self.convert(key)
        held = self._held.get(key)
        return held if held is not None else self[key]

    def align(self, keys: Iterable[str], grad: Any) -> Any:
        """For an update of `keys` (a variable and its slots, their locks held) by
        `grad`: puts them in the layout `grad` has (a run of a holding plan made a held
        gradient; another plan may have released the keys since) and returns the
        `Router` the update reads and writes them through."""
        layouts = self._layouts
        for key in keys:
            layout = layouts.get(key)
            if layout is None:
                continue
            if grad.dim() != layout.tf_rank:
                self.convert(key)
            else:
                self.release(key)
        return self._router

    # -- every dict access sees TF's value ---------------------------------------------
    def __missing__(self, key: str) -> Any:
        if key in self._held:
            with self.lock(key):
                self.release(key)
            if dict.__contains__(self, key):
                return dict.__getitem__(self, key)
        return super().__missing__(key)

    def __setitem__(self, key: str, value: Any) -> None:
        self._held.pop(key, None)
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        if self._held.pop(key, None) is None:
            dict.__delitem__(self, key)

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or key in self._held

    def get(self, key: str, default: Any = None) -> Any:
        if key in self._held:
            return self[key]
        return dict.get(self, key, default)

    def pop(self, key: str, *default: Any) -> Any:
        if key in self._held:
            self[key]
        return dict.pop(self, key, *default)

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key in self:
            return self[key]
        self[key] = default
        return default

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def popitem(self) -> Any:
        self._release_every()
        return dict.popitem(self)

    def clear(self) -> None:
        self._held.clear()
        dict.clear(self)

    def _release_every(self) -> None:
        for key in list(self._held):
            self[key]

    def keys(self) -> Any:
        self._release_every()
        return dict.keys(self)

    def values(self) -> Any:
        self._release_every()
        return dict.values(self)

    def items(self) -> Any:
        self._release_every()
        return dict.items(self)

    def __iter__(self) -> Iterator[str]:
        self._release_every()
        return dict.__iter__(self)

    def __len__(self) -> int:
        return dict.__len__(self) + len(self._held)

    def copy(self) -> Dict[str, Any]:
        self._release_every()
        return dict(dict.items(self))


class Router:
    """What an update reads and writes a `HeldStore`'s keys through after `align`: the
    held tensors of held keys, the dict's of the others (the update code's store
    protocol: `get`, `[]`, `[]=`, the gradient leaves, the exclusivity count)."""

    __slots__ = ("held", "store")

    def __init__(self, store: HeldStore):
        self.store = store
        self.held = store._held

    def get(self, key: str, default: Any = None) -> Any:
        held = self.held.get(key)
        return held if held is not None else self.store.get(key, default)

    def __getitem__(self, key: str) -> Any:
        held = self.held.get(key)
        return held if held is not None else self.store[key]

    def __setitem__(self, key: str, value: Any) -> None:
        if key in self.held:
            self.held[key] = value
            self.store.updated(key)
        else:
            self.store[key] = value

    def own_leaf(self, key: str) -> Any:
        return self.store.own_leaf(key)

    def own_leaves(self) -> Optional[Dict[str, Any]]:
        return self.store.own_leaves()

    def try_exclusive(self) -> bool:
        return self.store.try_exclusive()

    def end_exclusive(self) -> None:
        self.store.end_exclusive()
