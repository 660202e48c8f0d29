"""The player's names on table servers, kept so that later starts sign in by themselves.

One small JSON file, `sign-in.json`, in the data folder: for each server's address the name
and the last sign-in token it gave. Never the password: the server renews the token at each
sign-in, so a copied file stops working once the player signs in again. Written atomically;
a file that does not read as one is renamed aside (`.damaged`), named in the log, and the
player types the password once more.
"""

from __future__ import annotations

import contextlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path

from .files import keep_json
from .folders import data_folder

FILE_NAME = "sign-in.json"
LOG = logging.getLogger("sudden_death.sign_in")
MAX_BYTES = 64 * 1024
MAX_SERVERS = 20  # the servers remembered; the oldest goes first


@dataclass(frozen=True)
class SignIn:
    """A name on one server, and the token to sign in with next time."""

    name: str
    token: str


def _path(folder: Path | None) -> Path:
    return data_folder(folder) / FILE_NAME


def _load_all(folder: Path | None) -> dict[str, SignIn]:
    try:
        path = _path(folder)
        if not path.is_file():
            return {}
        text = path.read_text(encoding="utf-8")[:MAX_BYTES]
    except (OSError, RuntimeError, UnicodeDecodeError):
        return {}
    try:
        data = json.loads(text)
        found = {str(url): SignIn(str(kept["name"]), str(kept["token"]))
                 for url, kept in data["servers"].items()}
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
        LOG.warning("%s is damaged (%s): set aside as %s.damaged", path, error, FILE_NAME)
        with contextlib.suppress(OSError):
            path.replace(path.with_name(FILE_NAME + ".damaged"))
        return {}
    return found


def load_sign_in(folder: Path | None, url: str) -> SignIn | None:
    """The name and token kept for the server at `url`, if any."""
    return _load_all(folder).get(url)


def save_sign_in(folder: Path | None, url: str, kept: SignIn) -> None:
    """Keep `kept` for `url` (the newest last); a folder that cannot be written only means
    the password is asked again next time."""
    servers = _load_all(folder)
    servers.pop(url, None)
    servers[url] = kept
    _keep_all(folder, dict(list(servers.items())[-MAX_SERVERS:]))


def forget_sign_in(folder: Path | None, url: str) -> None:
    """The token for `url` no longer works (refused): forget it, keep the others."""
    servers = _load_all(folder)
    if servers.pop(url, None) is not None:
        _keep_all(folder, servers)


def _keep_all(folder: Path | None, servers: dict[str, SignIn]) -> None:
    """Written like every kept file (storage/files.py), whose temporary file is the owner's
    alone (mode 0600): the renamed file keeps that, so other users cannot read the tokens."""
    data = {"servers": {url: {"name": one.name, "token": one.token}
                        for url, one in servers.items()}}
    keep_json(lambda: _path(folder), data, ".sign-in-", "the sign-in", LOG)
