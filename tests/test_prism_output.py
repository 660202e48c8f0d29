"""Windows and macOS screen readers through Prism (prismatoid), with a fake of its module (the
real readers need NVDA, JAWS or VoiceOver running). The fake keeps prismatoid's shape:
`Context()` with `backends_count`, `id_of(index)` (best first) and `create(id)`, which
initializes the backend and raises when its reader is not running; a backend has `name`,
`features`, `speak(text, interrupt=...)`, `braille(text)` and `stop()`; `BackendId` names the
known backends. The packaged Windows game finds the real library and its DLL under Wine
(tools/windows_build.py checks that it says no screen reader is running, rather than that the
library is missing or the readers could not be asked)."""

from __future__ import annotations

import enum
import time
from types import SimpleNamespace
from typing import Any

import pytest
from recording import RecordingSpeaker

from sudden_death.audio.prism_output import (
    BRISK_WORDS_PER_SECOND,
    MISSING,
    NONE_RUNNING,
    PrismReader,
)
from sudden_death.audio.protocols import Priority
from sudden_death.audio.reader_base import NoScreenReader
from sudden_death.audio.speech_output import SCREEN_READER, SpeechOutput


class BackendId(enum.IntEnum):  # a few of prismatoid's own, with its values
    SAPI = 0x1D6DF72422CEEE66
    NVDA = 0x89CC19C5C4AC1A56
    JAWS = 0xAC3D60E9BD84B53E
    ONE_CORE = 0x6797D32F0D994CB4
    UIA = 0x6238F019DB678F8E
    ZDSR = 0x3D93C56C9E7F2A2E


class PrismSpeakError(OSError):
    pass


class FakeBackend:
    def __init__(self, name: str, braille: bool = True, stop: bool = True) -> None:
        self.name = name
        self.features = SimpleNamespace(is_supported_at_runtime=True, supports_braille=braille,
                                        supports_stop=stop)
        self.calls: list[tuple[Any, ...]] = []

    def speak(self, text: str, interrupt: bool = False) -> None:
        if not text:
            raise PrismSpeakError("Text MUST NOT be empty")
        self.calls.append(("speak", text, interrupt))

    def braille(self, text: str) -> None:
        self.calls.append(("braille", text))

    def stop(self) -> None:
        self.calls.append(("stop",))
        raise PrismSpeakError("not speaking")  # Prism's answer when nothing is being said


def prism_module(*registry: tuple[BackendId, FakeBackend | None]) -> Any:
    """A stand-in for `prism`: the registry best first; None is a reader not running (its
    initialization fails, as Prism's does)."""
    created: list[BackendId] = []

    class Context:
        backends_count = len(registry)

        def id_of(self, index: int) -> BackendId:
            return registry[index][0]

        def create(self, backend_id: BackendId) -> FakeBackend:
            created.append(backend_id)
            backend = dict(registry)[backend_id]
            if backend is None:
                raise PrismSpeakError("Backend not available")
            return backend

    return SimpleNamespace(Context=Context, BackendId=BackendId, created=created)


def test_the_first_running_screen_reader_is_chosen_never_a_system_voice() -> None:
    prism = prism_module((BackendId.UIA, FakeBackend("UIA")), (BackendId.JAWS, None),
                         (BackendId.NVDA, FakeBackend("NVDA")),
                         (BackendId.SAPI, FakeBackend("SAPI")))
    reader = PrismReader.find(prism)
    assert reader.name == "NVDA"
    assert prism.created == [BackendId.JAWS, BackendId.NVDA]  # UIA and SAPI never created


def test_only_system_voices_means_no_screen_reader() -> None:
    prism = prism_module((BackendId.NVDA, None), (BackendId.SAPI, FakeBackend("SAPI")),
                         (BackendId.ONE_CORE, FakeBackend("OneCore")))
    with pytest.raises(NoScreenReader, match=NONE_RUNNING):
        PrismReader.find(prism)
    assert prism.created == [BackendId.NVDA]


def test_a_reader_prism_does_not_find_running_is_skipped() -> None:
    idle = FakeBackend("ZDSR")
    idle.features.is_supported_at_runtime = False
    prism = prism_module((BackendId.ZDSR, idle), (BackendId.NVDA, FakeBackend("NVDA")))
    assert PrismReader.find(prism).name == "NVDA"


def test_a_registry_that_cannot_be_asked_is_said_so_and_logged(
        caplog: pytest.LogCaptureFixture) -> None:
    def fails() -> Any:
        raise RuntimeError("Prism could not be initialized")

    with pytest.raises(NoScreenReader, match=r"^the screen readers could not be asked$"):
        PrismReader.find(SimpleNamespace(Context=fails, BackendId=BackendId))
    assert "Prism could not be initialized" in caplog.text


def test_without_prismatoid_installed_the_reason_is_given() -> None:
    try:
        import prism  # noqa: F401
    except Exception:
        with pytest.raises(NoScreenReader, match=r"prismatoid\) is not available"):
            PrismReader.find()
        assert "prismatoid" in MISSING
    else:
        pytest.skip("prismatoid is installed here")


def test_speech_braille_and_the_rule_for_results() -> None:
    nvda = FakeBackend("NVDA")
    output = SpeechOutput(RecordingSpeaker(),
                          lambda: PrismReader.find(prism_module((BackendId.NVDA, nvda))))
    output.set_output(SCREEN_READER)
    assert output.wait_settled() and output.poll()[0].reader == "NVDA"
    output.say("Touchdown, Hawks!", priority=Priority.ALERT, category="result")
    output.say("Play again, 1 of 2")  # a focus move right after: queued, not cutting
    assert output.wait_settled()
    assert nvda.calls == [("speak", "Touchdown, Hawks!", True), ("braille", "Touchdown, Hawks!"),
                          ("speak", "Play again, 1 of 2", False),
                          ("braille", "Play again, 1 of 2")]
    output.silence()  # Prism's "not speaking" error on stop is not a failure
    assert output.wait_settled() and nvda.calls[-1] == ("stop",)
    output.say("Quit, 2 of 2")  # after a silence, focus moves cut again
    assert output.wait_settled() and nvda.calls[-2] == ("speak", "Quit, 2 of 2", True)


def test_a_result_counts_as_speaking_for_its_length_at_a_brisk_rate() -> None:
    reader = PrismReader(None, FakeBackend("NVDA", braille=False, stop=False))
    words = "one two three four five"
    reader.speak(words, interrupt=True, alert=True)
    assert reader.alert_speaking()
    time.sleep(len(words.split()) / BRISK_WORDS_PER_SECOND + 0.05)
    assert not reader.alert_speaking()
    reader.braille("no braille on this reader: nothing happens")
    reader.cancel()  # no stop on this reader: nothing is called


def test_empty_words_are_not_sent_since_prism_refuses_them() -> None:
    nvda = FakeBackend("NVDA")
    reader = PrismReader(None, nvda)
    reader.speak("  ", interrupt=True, alert=False)
    reader.braille("")
    assert nvda.calls == []


def test_a_reader_without_a_name_is_called_a_screen_reader() -> None:
    assert PrismReader(None, FakeBackend(" ")).name == "screen reader"


def test_a_closed_reader_takes_words_without_failing() -> None:
    nvda = FakeBackend("NVDA")
    reader = PrismReader(None, nvda)
    reader.close()
    reader.speak("after closing", interrupt=False, alert=False)
    reader.braille("after closing")
    reader.cancel()
    assert nvda.calls == []
