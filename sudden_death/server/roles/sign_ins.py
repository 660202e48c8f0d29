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
- While strangers have spent a name's count (issue 71), a password from a clean address (no
  try counted against it in the window: nothing wrong, no sign-up) is still checked: right,
  it signs in and costs the name's count nothing; wrong, it counts against the name and the
  address, which is then no longer clean. So an owner at a new address (a reinstall, a
  friend's house) signs in with their password during a guessing storm, at the price of
  one checked guess a minute per address beyond the name's count: a guesser with A
  addresses gets `failed_tries` + A guesses a minute at a name, where A addresses already
  buy A x `failed_tries` tries a minute in all. Its hash is bounded like any stranger's.

The usual addresses are kept in memory only (an address is personal data the file need not
hold): after a restart an owner's address is new until their first sign-in.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from ..lines.limits import Addresses

KNOWN_PER_NAME = 8  # usual addresses kept per name (home, work, phone...)
KNOWN_NAMES = 100_000  # names whose usual addresses are kept; past it, the least recent go


@dataclass(frozen=True)
class Try:
    """A try `ask` answered: `wait` > 0, refused for that long (and not counted); else
    counted against the address, and against the name when `counted` (a stranger's while
    the name's count had room) or once it is wrong when `clean` (checked past the count)."""

    name: str
    address: str
    wait: float = 0.0
    counted: bool = False
    clean: bool = False


@dataclass
class SignIns:
    """The tries counted per address (`addresses`) and per name from strangers (`names`)."""

    addresses: Addresses
    names: Addresses
    known: OrderedDict[str, OrderedDict[str, None]] = field(default_factory=OrderedDict)

    def usual(self, name: str, address: str) -> bool:
        """Whether `address` has signed in to (or signed up) `name` before."""
        return address in self.known.get(name, ())

    async def ask(self, name: str, address: str, *, token: bool = False) -> Try:
        """A try at `name` from `address`, counted now unless it must wait first. `name` is
        the name's key (`wire/names.py` `alike`)."""
        wait = await self.addresses.waiting(address)
        stranger = not token and not self.usual(name, address)
        held = await self.names.waiting(name) if stranger else 0.0
        if wait > 0:
            return Try(name, address, wait)
        elsewhere = await self.addresses.tried_elsewhere(address)
        # No await from here on: tries from one address asked at once are counted in turn,
        # so only the first of them finds it clean.
        clean = held > 0 and self.addresses.tried(address) + elsewhere == 0
        if held > 0 and not clean:
            return Try(name, address, held)
        self.addresses.failed(address)
        if stranger and not clean:
            self.names.failed(name)
        return Try(name, address, counted=stranger and not clean, clean=clean)

    def answered(self, tried: Try, *, right: bool) -> None:
        """The try's outcome: a right one is the owner's, whose address is usual from now on,
        and its counts go back; a wrong one checked past the name's count counts there now."""
        if not right:
            if tried.clean:
                self.names.failed(tried.name)
            return
        self.addresses.refund(tried.address)
        if tried.counted:
            self.names.refund(tried.name)
        self.remember(tried.name, tried.address)

    def untried(self, tried: Try) -> None:
        """A try counted by `ask` that was never made (the hashing was refused): given back."""
        if tried.counted:
            self.names.refund(tried.name)
        self.addresses.refund(tried.address)

    def remember(self, name: str, address: str) -> None:
        addresses = self.known.setdefault(name, OrderedDict())
        self.known.move_to_end(name)
        addresses[address] = None
        addresses.move_to_end(address)
        while len(addresses) > KNOWN_PER_NAME:
            addresses.popitem(last=False)
        while len(self.known) > KNOWN_NAMES:
            self.known.popitem(last=False)
