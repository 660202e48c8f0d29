"""sign-in.json: a name and token per server, the owner's alone, a damaged file set aside."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sudden_death.storage.sign_in_file import (
    FILE_NAME,
    MAX_SERVERS,
    SignIn,
    forget_sign_in,
    load_sign_in,
    save_sign_in,
)


def test_each_server_keeps_its_own_name_and_forgetting_one_keeps_the_rest(
        tmp_path: Path) -> None:
    save_sign_in(tmp_path, "ws://a:1", SignIn("Anna", "token-a"))
    save_sign_in(tmp_path, "ws://b:2", SignIn("Ben", "token-b"))
    save_sign_in(tmp_path, "ws://a:1", SignIn("Anna", "renewed"))  # the server renewed it
    assert load_sign_in(tmp_path, "ws://a:1") == SignIn("Anna", "renewed")
    forget_sign_in(tmp_path, "ws://a:1")
    assert load_sign_in(tmp_path, "ws://a:1") is None
    assert load_sign_in(tmp_path, "ws://b:2") == SignIn("Ben", "token-b")
    assert (tmp_path / FILE_NAME).stat().st_mode & 0o077 == 0


def test_only_the_newest_servers_are_kept(tmp_path: Path) -> None:
    for number in range(MAX_SERVERS + 3):
        save_sign_in(tmp_path, f"ws://host{number}:1", SignIn("Anna", f"t{number}"))
    assert load_sign_in(tmp_path, "ws://host0:1") is None
    assert load_sign_in(tmp_path, f"ws://host{MAX_SERVERS + 2}:1") is not None


@settings(max_examples=30, deadline=None)
@given(st.binary(max_size=300))
def test_a_damaged_file_is_set_aside_and_asks_for_the_password_again(junk: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        (where / FILE_NAME).write_bytes(junk)
        assert load_sign_in(where, "ws://a:1") is None  # never a traceback
        save_sign_in(where, "ws://a:1", SignIn("Anna", "t"))  # and a new one can be kept
        assert load_sign_in(where, "ws://a:1") == SignIn("Anna", "t")
