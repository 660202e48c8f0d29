"""A bounded store of synthesized phrases: menu items repeat constantly, synthesis need not."""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

Key = tuple[str, str | None, int | None]  # (text, voice id, rate): what the audio depends on
T = TypeVar("T")

# Counted as the mixer holds it (22 kHz stereo, about 88 KB a second): about 35 s of speech, a
# dozen or more menu items and card names (1-4 s each); long one-off sentences are not kept (see
# speech.MAX_CACHED_SECONDS), so this is enough, and a long session's memory stays flat.
DEFAULT_CACHE_BYTES = 3 * 1024 * 1024


class PhraseCache(Generic[T]):
    """Least-recently-used cache bounded by the total size of the audio it holds."""

    def __init__(self, max_bytes: int = DEFAULT_CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._items: OrderedDict[Key, tuple[T, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Key) -> T | None:
        entry = self._items.get(key)
        if entry is None:
            return None
        self._items.move_to_end(key)
        return entry[0]

    def put(self, key: Key, value: T, size: int) -> None:
        if size > self.max_bytes:
            return  # one huge utterance must not flush everything else
        old = self._items.pop(key, None)
        if old is not None:
            self.size -= old[1]
        self._items[key] = (value, size)
        self.size += size
        while self.size > self.max_bytes:
            _, (_, dropped) = self._items.popitem(last=False)
            self.size -= dropped

    def clear(self) -> None:
        self._items.clear()
        self.size = 0
