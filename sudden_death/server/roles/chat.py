"""Chat lines in the lobby and among a table's spectators: what a line may say, and how often
one player may speak.

One player is one voice: the rate is kept per player (a folded name, else the address),
however many lines they open. It never sends anything: the lobby and the gallery say the
refusals and deliver the lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...wire import protocol as p
from ...wire.names import spaced
from ..lines.limits import Bucket

CHAT_PER_S, CHAT_BURST = 1.0, 5  # lobby and gallery chat lines, per player on all lines
CHATTERS_KEPT = 10_000  # chat rates kept before a sweep of the idle ones


def chat_text(message: p.Chat) -> str | None:
    """A chat line as it is said (runs of spaces made one); None when it cannot be one. The
    one check for a table's, the lobby's and a gallery's."""
    text = spaced(message.text)
    if text and len(text) <= p.MAX_CHAT and text.isprintable():
        return text
    return None


def bad_chat() -> p.Refused:
    return p.Refused(p.BAD_MESSAGE, f"a chat line has 1 to {p.MAX_CHAT} printable characters")


def too_fast() -> p.Refused:
    return p.Refused(p.TOO_FAST, f"at most {CHAT_PER_S:g} chat line a second from one player")


def said(rates: ChatRates, who: str, name: str, message: p.Chat) -> p.Said | p.Refused:
    """A lobby or gallery chat line from `name` (rated as `who`: a folded name, else the
    address) as the others hear it, or the sender's refusal: too fast, or not a chat line."""
    if not rates.allowed(who):
        return too_fast()
    text = chat_text(message)
    return bad_chat() if text is None else p.Said(name, text)


@dataclass
class ChatRates:
    """Each player's chat bucket, shared by the lobby and every gallery."""

    chatters: dict[str, Bucket] = field(default_factory=dict)

    def allowed(self, who: str) -> bool:
        """Whether `who` may say one more line now (and it is counted)."""
        bucket = self.chatters.get(who)
        if bucket is None:
            if len(self.chatters) > CHATTERS_KEPT:
                self.chatters = {key: kept for key, kept in self.chatters.items()
                                 if not kept.full()}
            bucket = self.chatters[who] = Bucket(CHAT_PER_S, CHAT_BURST)
        return bucket.take()
