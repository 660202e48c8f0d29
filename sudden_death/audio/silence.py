"""Trimming the silence a synthesizer puts around each utterance.

eSpeak starts an utterance with 10-50 ms of silence and, asked to pause at the end, closes it with
300 ms more. Both are heard as waiting: the first after every key, the second between every two
queued lines. Keeping a few milliseconds before the first sound (so its attack is not cut) and a
short natural pause after the last leaves the words themselves untouched.
"""

from __future__ import annotations

import io
import sys
import wave
from array import array

THRESHOLD = 32  # |sample| above this is sound: -60 dBFS of 16-bit full scale (32768)
LEAD_KEEP_S = 0.002
TAIL_KEEP_S = 0.12


def trim_pcm(samples: array, rate: int, channels: int = 1) -> array:
    """`samples` (16-bit, interleaved) without the silence before the first sound and after the
    last, keeping LEAD_KEEP_S before and TAIL_KEEP_S after. Silence alone is returned as is."""
    # Scanned from each end, so only the silence is looked at: this runs before every line.
    first = next((i for i in range(len(samples)) if abs(samples[i]) > THRESHOLD), None)
    if first is None:
        return samples
    last = next(i for i in range(len(samples) - 1, -1, -1) if abs(samples[i]) > THRESHOLD)
    first, last = first // channels, last // channels
    start = max(0, first - int(LEAD_KEEP_S * rate))
    end = min(len(samples) // channels, last + 1 + int(TAIL_KEEP_S * rate))
    return samples[start * channels : end * channels]


def trim_wav(data: bytes) -> bytes:
    """A WAV file's silence trimmed (see `trim_pcm`); anything but 16-bit PCM WAV (an AIFF from
    macOS, say) comes back unchanged, since playing it untrimmed beats not playing it."""
    try:
        with wave.open(io.BytesIO(data), "rb") as wav:
            if wav.getsampwidth() != 2 or wav.getcomptype() != "NONE":
                return data
            channels, rate = wav.getnchannels(), wav.getframerate()
            samples = array("h", wav.readframes(wav.getnframes()))
    except (wave.Error, EOFError):
        return data
    if sys.byteorder == "big":
        samples.byteswap()
    trimmed = trim_pcm(samples, rate, channels)
    if len(trimmed) == len(samples):
        return data
    if sys.byteorder == "big":
        trimmed.byteswap()
    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(channels)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(trimmed.tobytes())
    return out.getvalue()
