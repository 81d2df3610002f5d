"""A least-recently-used cache bounded by memory, not by its number of entries.

A cache of dice distributions bounded by entries could hold 256 tiny ``2d6`` tables or 256
tables of 20,000 big fractions each (about 7.5 MiB apiece, nearly 2 GiB): the number of
entries says nothing about the memory a reader's typing can make a kernel keep. Each entry
here carries its estimated size in bytes, and the oldest entries go once the total passes the
stated bound.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

MIB = 1 << 20


class SizedCache(Generic[K, V]):
    """Least-recently-used entries, evicted once their estimated sizes add up past *mib* MiB.

    An entry larger than the whole bound is not kept at all (it would only evict everything
    else and then itself)."""

    def __init__(self, mib: float) -> None:
        self.limit = int(mib * MIB)
        self.bytes = 0
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: K) -> V | None:
        """The value stored under *key* (now the most recently used), or None."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._entries.move_to_end(key)
        return entry[0]

    def put(self, key: K, value: V, size: int) -> None:
        """Store *value* under *key*, counted as *size* bytes, then evict the oldest entries
        until the total is within the bound."""
        old = self._entries.pop(key, None)
        if old is not None:
            self.bytes -= old[1]
        if size > self.limit:
            return
        self._entries[key] = (value, size)
        self.bytes += size
        while self.bytes > self.limit:
            _, (_, dropped) = self._entries.popitem(last=False)
            self.bytes -= dropped

    def clear(self) -> None:
        self._entries.clear()
        self.bytes = 0
