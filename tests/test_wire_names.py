"""When two team names are one to a listener (wire/names.py), for the server's seats and the
game's own naming."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sudden_death.ui.screens.welcome import other_default
from sudden_death.wire.names import folded, same_name


@given(st.text(min_size=1, max_size=24))
def test_case_accents_and_spaces_never_make_two_names(name: str) -> None:
    assert same_name(name, name.upper().replace("a", "á"))
    assert same_name(name, f" {name} ".replace("e", "e\u0301"))
    assert folded(name) == folded(folded(name))


def test_different_letters_are_different_names() -> None:
    assert not same_name("Hawks", "Hawk")
    assert not same_name("Bears", "Beers")


@given(st.text(min_size=1, max_size=24))
def test_the_other_default_is_never_the_first_teams_name(name: str) -> None:
    assert not same_name(other_default(name), name)
    assert other_default("bears") == "Hawks" and other_default("Eagles") == "Bears"
