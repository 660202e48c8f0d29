"""Windows and macOS screen readers through accessible_output2, with fakes of its outputs (the
real ones need NVDA, JAWS or VoiceOver running). The fakes keep accessible_output2's shape:
`outputs.Auto().outputs`, each with `name`, `system_output`, `is_active()`, `speak(text,
interrupt=...)`, `braille(text)` and `silence()`. The packaged Windows game finds the real
module and its DLLs under Wine (tools/windows_build.py checks it says no screen reader is
running, rather than that none could be asked)."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import pytest
from recording import RecordingSpeaker

from sudden_death.audio.accessible_output import (
    BRISK_WORDS_PER_SECOND,
    MISSING,
    NONE_RUNNING,
    AccessibleOutput,
)
from sudden_death.audio.protocols import Priority
from sudden_death.audio.reader_base import NoScreenReader
from sudden_death.audio.speech_output import SCREEN_READER, SpeechOutput


class FakeOutput:
    def __init__(self, name: str, active: bool, system: bool = False,
                 braille: bool = True) -> None:
        self.name = name
        self.system_output = system
        self.active = active
        self.calls: list[tuple[Any, ...]] = []
        if braille:
            self.braille = lambda text: self.calls.append(("braille", text))

    def is_active(self) -> bool:
        return self.active

    def speak(self, text: str, interrupt: bool = False) -> None:
        self.calls.append(("speak", text, interrupt))

    def silence(self) -> None:
        self.calls.append(("silence",))


def outputs_module(*outputs: FakeOutput) -> Any:
    """A stand-in for `accessible_output2.outputs.auto`."""
    return SimpleNamespace(Auto=lambda: SimpleNamespace(outputs=list(outputs)))


def test_the_first_running_screen_reader_is_chosen_never_a_system_voice() -> None:
    sapi = FakeOutput("SAPI5", active=True, system=True)
    jaws = FakeOutput("JAWS", active=False)
    nvda = FakeOutput("NVDA", active=True)
    reader = AccessibleOutput.find(outputs_module(sapi, jaws, nvda))
    assert reader.name == "NVDA"


def test_only_system_voices_means_no_screen_reader() -> None:
    with pytest.raises(NoScreenReader, match=NONE_RUNNING):
        AccessibleOutput.find(outputs_module(FakeOutput("SAPI5", active=True, system=True),
                                             FakeOutput("NVDA", active=False)))


def test_an_output_that_fails_to_answer_is_skipped() -> None:
    broken = FakeOutput("Dolphin", active=True)
    broken.is_active = lambda: (_ for _ in ()).throw(OSError("no DLL"))  # type: ignore[method-assign]
    nvda = FakeOutput("NVDA", active=True)
    assert AccessibleOutput.find(outputs_module(broken, nvda)).name == "NVDA"


def test_outputs_that_cannot_be_asked_are_said_so_and_the_library_is_logged(
        caplog: pytest.LogCaptureFixture) -> None:
    def fails() -> Any:
        raise OSError("cannot load nvdaControllerClient64.dll")

    with pytest.raises(NoScreenReader, match=r"^the screen readers could not be asked$"):
        AccessibleOutput.find(SimpleNamespace(Auto=fails))
    assert "nvdaControllerClient64.dll" in caplog.text


def test_without_accessible_output2_installed_the_reason_is_given() -> None:
    try:
        import accessible_output2  # noqa: F401
    except ImportError:
        with pytest.raises(NoScreenReader, match=MISSING):
            AccessibleOutput.find()
    else:
        pytest.skip("accessible_output2 is installed here")


def test_speech_braille_and_the_rule_for_results() -> None:
    nvda = FakeOutput("NVDA", active=True)
    output = SpeechOutput(RecordingSpeaker(), lambda: AccessibleOutput.find(outputs_module(nvda)))
    output.set_output(SCREEN_READER)
    assert output.wait_settled() and output.poll()[0].reader == "NVDA"
    output.say("Touchdown, Hawks!", priority=Priority.ALERT, category="result")
    output.say("Play again, 1 of 2")  # a focus move right after: queued, not cutting
    assert output.wait_settled()
    assert nvda.calls == [("speak", "Touchdown, Hawks!", True), ("braille", "Touchdown, Hawks!"),
                          ("speak", "Play again, 1 of 2", False),
                          ("braille", "Play again, 1 of 2")]
    output.silence()
    assert output.wait_settled() and nvda.calls[-1] == ("silence",)
    output.say("Quit, 2 of 2")  # after a silence, focus moves cut again
    assert output.wait_settled() and nvda.calls[-2] == ("speak", "Quit, 2 of 2", True)


def test_a_result_counts_as_speaking_for_its_length_at_a_brisk_rate() -> None:
    reader = AccessibleOutput(FakeOutput("NVDA", active=True, braille=False))
    words = "one two three four five"
    reader.speak(words, interrupt=True, alert=True)
    assert reader.alert_speaking()
    time.sleep(len(words.split()) / BRISK_WORDS_PER_SECOND + 0.05)
    assert not reader.alert_speaking()
    reader.braille("no braille method: nothing happens")


def test_a_closed_reader_takes_words_without_failing() -> None:
    nvda = FakeOutput("NVDA", active=True)
    reader = AccessibleOutput(nvda)
    reader.close()
    reader.speak("after closing", interrupt=False, alert=False)
    assert nvda.calls == []
