"""Who may try a name's password now: a guesser is slowed down, the name's owner is not.

Before issue 59 every wrong password counted against the name, and past `failed_tries` a
minute the name refused everyone, its owner's right password and kept token too, for as
long as a stranger kept guessing. And the count came after the hash, so N addresses asking
at once each got their guesses in. Now:

- A try is counted before its hash (and given back if it was right), so tries asked at once
  are counted at once.
- A sign-in token (144 random bits) is never limited by its name: nobody guesses one, so the
  owner's kept token always opens (a wrong one still counts against its address).
- A password from an address that has signed in to (or signed up) that name before is the
  owner's usual address: it counts against that address only, never the name's strangers'
  count. A password from any other address counts against the name as well, so strangers
  together get `failed_tries` guesses a minute at a name, however many addresses they use.
- Each sign-up, and each sign-in until it turns out right, counts against its address. A
  right one is given back: a player signing in often is no guesser, and what their hashes
  cost is bounded by `hashing.py` (a few at once per address, right ones too).

The trade-off: an owner at a new address while a stranger guesses their name waits, with
their password, for the minute to pass; their kept token works meanwhile, and the game keeps
one. The usual addresses are kept in memory only (an address is personal data the file need
not hold): after a restart an owner's address is new until their first sign-in.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from .limits import Addresses

KNOWN_PER_NAME = 8  # usual addresses kept per name (home, work, phone...)
KNOWN_NAMES = 100_000  # names whose usual addresses are kept; past it, the least recent go


@dataclass
class SignIns:
    """The tries counted per address (`addresses`) and per name from strangers (`names`)."""

    addresses: Addresses
    names: Addresses
    known: OrderedDict[str, OrderedDict[str, None]] = field(default_factory=OrderedDict)

    def usual(self, name: str, address: str) -> bool:
        """Whether `address` has signed in to (or signed up) `name` before."""
        return address in self.known.get(name, ())

    async def ask(self, name: str, address: str, *, token: bool = False) -> float:
        """A try at `name` from `address`, counted now: 0, or how long it must wait first
        (and then it is not counted). `name` is the name's key (`wire/names.py` `alike`)."""
        wait = await self.addresses.waiting(address)
        stranger = not token and not self.usual(name, address)
        if stranger:
            wait = max(wait, await self.names.waiting(name))
        if wait > 0:
            return wait
        self.addresses.failed(address)
        if stranger:
            self.names.failed(name)
        return 0.0

    def answered(self, name: str, address: str, *, right: bool, token: bool = False) -> None:
        """The try's outcome: a right one is the owner's, whose address is usual from now on,
        and its counts against the name and the address go back."""
        if not right:
            return
        stranger = not token and not self.usual(name, address)
        self.addresses.refund(address)
        if stranger:
            self.names.refund(name)
        self.remember(name, address)

    def untried(self, name: str, address: str, *, token: bool = False) -> None:
        """A try counted by `ask` that was never made (the hashing was refused): given back."""
        if not token and not self.usual(name, address):
            self.names.refund(name)
        self.addresses.refund(address)

    def remember(self, name: str, address: str) -> None:
        addresses = self.known.setdefault(name, OrderedDict())
        self.known.move_to_end(name)
        addresses[address] = None
        addresses.move_to_end(address)
        while len(addresses) > KNOWN_PER_NAME:
            addresses.popitem(last=False)
        while len(self.known) > KNOWN_NAMES:
            self.known.popitem(last=False)
