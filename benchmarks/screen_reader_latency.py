"""How long the game's words take to reach the player's screen reader on Linux.

A private speech-dispatcher (tests/speech_servers.py: its own socket and log, speech to ALSA's
null device) receives lines from `SpeechOutput.say` the way key presses send them: each one
interrupting the one before. For each line this prints, in milliseconds:

- say: how long `say()` itself takes (the game's loop waits for it);
- queued: from the call to speech-dispatcher logging "Queueing message" for it;
- synthesizer: from the call to speech-dispatcher handing it to its eSpeak NG module.

What it does not measure: the screen reader's own synthesis and audio, which are the player's
(Orca, speech-dispatcher's module, the sound server) and can dwarf these. The log's time stamps
are wall-clock microseconds written by the server; the call times are `time.time()` here, on
the same machine.

    .venv/bin/python benchmarks/screen_reader_latency.py [--lines 40]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from recording import RecordingSpeaker  # noqa: E402
from speech_servers import ensure_speech_servers, speech_dispatcher  # noqa: E402

from sudden_death.audio.screen_reader import find_screen_reader  # noqa: E402
from sudden_death.audio.speech_output import SCREEN_READER, SpeechOutput  # noqa: E402

STAMP = re.compile(r"^\[(\w{3} \w{3} +\d+ [\d:]+ \d{4}) : (\d+)\] speechd: +(.*)$")


def stamped(log: Path) -> list[tuple[float, str]]:
    """(wall-clock seconds, text) of every line the server logged."""
    found = []
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        match = STAMP.match(line)
        if match:
            when = datetime.strptime(match[1], "%a %b %d %H:%M:%S %Y").timestamp()
            found.append((when + int(match[2]) / 1e6, match[3]))
    return found


def median_ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.2f} ms, max {max(values) * 1000:.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=40)
    args = parser.parse_args()
    if not sys.platform.startswith("linux") or not ensure_speech_servers():
        print("needs Linux with speech-dispatcher and python3-speechd installed", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder, speech_dispatcher(Path(folder)) as server:
        os.environ["SPEECHD_ADDRESS"] = server.address
        output = SpeechOutput(RecordingSpeaker(), find_screen_reader)
        output.set_output(SCREEN_READER)
        sent: list[tuple[str, float, float]] = []
        for number in range(args.lines):
            text = f"Line {number}: Scatback, {number % 4 + 1} of 4"
            started = time.time()
            output.say(text, interrupt=True)
            sent.append((text, started, time.time() - started))
            time.sleep(0.15)  # a brisk key rate
        server.wait_for(lambda: f"Line {args.lines - 1}:" in " ".join(server.spoken()))
        output.close_reader()
        log = stamped(server.log)
    queued, synthesizer = [], []
    for text, started, _took in sent:
        queued += [when - started for when, line in log
                   if line == f"Queueing message |{text}| with priority 2"][:1]
        synthesizer += [when - started for when, line in log
                        if line.startswith(f"Command sent to output module: |<speak>{text}")][:1]
    print(f"lines: {len(sent)}, each interrupting the one before")
    print(f"say(): {median_ms([took for _text, _started, took in sent])}")
    print(f"to queued: {median_ms(queued)} ({len(queued)} lines)")
    print(f"to the synthesizer: {median_ms(synthesizer)} ({len(synthesizer)} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
