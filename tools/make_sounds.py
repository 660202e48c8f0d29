"""Make every sound cue into sounds/<name>.wav (44.1 kHz, 16-bit; mono but for the
crowds, which are stereo: the bed and the two touchdown crowds).

Almost everything is synthesized from sine waves and seeded noise with the standard library
alone. Where a real recording serves better (the referee's whistle, the boot on the ball), the
cue is made from a freely licensed one committed in tools/recordings/ (fetched and checked by
tools/fetch_recordings.py; RECORDED below names each, and sounds/LICENSES.md its licence).
Anyone can re-run this and get byte-identical output, with no network:

    python tools/make_sounds.py            # writes sounds/*.wav
    python tools/make_sounds.py --check    # exits 1 if a committed file differs from a fresh one

Each cue is loudness-matched (the RMS of its audible part is brought to TARGET_DBFS, then peaks are
softly limited), short (under 1.5 s; the end-of-game phrases up to 2.5 s, the touchdown cheer up
to 3 s) and distinct from the others.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import math
import random
import sys
import wave
import zlib
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import Any

RATE = 44100  # the mixer's own rate: nothing is resampled when the cues load
TARGET_DBFS = -18.0
PEAK = 0.97
ROOT = Path(__file__).resolve().parent.parent
SOUNDS = ROOT / "sounds"  # the package sudden_death.sounds (pyproject.toml package-dir)
RECORDINGS = ROOT / "tools" / "recordings"

Samples = list[float]


# --- building blocks --------------------------------------------------------------------------


def silence(seconds: float) -> Samples:
    return [0.0] * int(seconds * RATE)


def tone(
    freq: float | Callable[[float], float],
    seconds: float,
    shape: str = "sine",
    attack: float = 0.005,
    decay: float | None = None,
) -> Samples:
    """A tone whose frequency may glide (freq as a function of time), with an envelope:
    linear attack, then exponential decay with time constant `decay` (None: flat, short release)."""
    n = int(seconds * RATE)
    out: Samples = []
    phase = 0.0
    for i in range(n):
        t = i / RATE
        f = freq(t) if callable(freq) else freq
        phase += 2 * math.pi * f / RATE
        if shape == "sine":
            v = math.sin(phase)
        elif shape == "square":
            v = 1.0 if math.sin(phase) >= 0 else -1.0
            v *= 0.5
        elif shape == "saw":
            v = ((phase / (2 * math.pi)) % 1.0) * 2 - 1
            v *= 0.6
        else:
            raise ValueError(shape)
        env = min(1.0, t / attack) if attack > 0 else 1.0
        if decay is not None:
            env *= math.exp(-t / decay)
        else:
            env *= min(1.0, (seconds - t) / 0.01)  # 10 ms release: no click at the end
        out.append(v * env)
    return out


def noise(rng: random.Random, seconds: float, decay: float | None = None) -> Samples:
    n = int(seconds * RATE)
    out = [rng.uniform(-1, 1) for _ in range(n)]
    if decay is not None:
        out = [v * math.exp(-(i / RATE) / decay) for i, v in enumerate(out)]
    return out


def lowpass(samples: Samples, cutoff: float) -> Samples:
    """One-pole low-pass filter."""
    a = math.exp(-2 * math.pi * cutoff / RATE)
    out: Samples = []
    y = 0.0
    for v in samples:
        y = (1 - a) * v + a * y
        out.append(y)
    return out


def highpass(samples: Samples, cutoff: float) -> Samples:
    low = lowpass(samples, cutoff)
    return [v - lv for v, lv in zip(samples, low, strict=True)]


def bandpass(samples: Samples, low: float, high: float) -> Samples:
    return lowpass(highpass(samples, low), high)


def band_limit(samples: Samples, cutoff: float = 10000.0) -> Samples:
    """Two cascaded RBJ biquad low-passes (Q 0.707; 24 dB an octave past `cutoff`). The cues
    were designed at 22.05 kHz, whose resampling to the mixer's 44.1 kHz cut them off near
    11 kHz; made at 44.1 kHz, the noise in them would carry hiss up to 22 kHz that the
    one-pole filters barely touch, so each cue is limited as it was heard before, unless it
    limits itself (LIMITS_ITSELF)."""
    w0 = 2 * math.pi * cutoff / RATE
    alpha = math.sin(w0) / (2 * 0.7071)
    cos = math.cos(w0)
    a0 = 1 + alpha
    b0 = b2 = (1 - cos) / 2 / a0
    b1 = (1 - cos) / a0
    a1, a2 = -2 * cos / a0, (1 - alpha) / a0
    out = samples
    for _ in range(2):
        x1 = x2 = y1 = y2 = 0.0
        filtered: Samples = []
        for x in out:
            y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
            x2, x1, y2, y1 = x1, x, y1, y
            filtered.append(y)
        out = filtered
    return out


def envelope(samples: Samples, shape: Callable[[float], float]) -> Samples:
    return [v * shape(i / RATE) for i, v in enumerate(samples)]


def mix(parts: list[tuple[float, Samples, float]], seconds: float | None = None) -> Samples:
    """Sum (start seconds, samples, gain) parts into one track."""
    end = max(int(start * RATE) + len(s) for start, s, _ in parts)
    if seconds is not None:
        end = int(seconds * RATE)
    out = [0.0] * end
    for start, samples, gain in parts:
        offset = int(start * RATE)
        for i, v in enumerate(samples):
            if offset + i < end:
                out[offset + i] += v * gain
    return out


def fade_out(samples: Samples, seconds: float) -> Samples:
    n = min(len(samples), int(seconds * RATE))
    out = list(samples)
    for i in range(n):
        out[len(out) - n + i] *= 1 - i / n
    return out


def brass(freq: float, seconds: float, attack: float = 0.03, decay: float | None = None) -> Samples:
    """A brass-like note: two slightly detuned saws through two low-passes, bright but not buzzy;
    the 40 ms scoop up into the pitch is what makes it read as a horn rather than an organ."""

    def scoop(t: float, f: float) -> float:
        return f * (1 - 0.03 * max(0.0, 1 - t / 0.04))

    a = tone(lambda t: scoop(t, freq), seconds, shape="saw", attack=attack, decay=decay)
    b = tone(lambda t: scoop(t, freq * 1.004), seconds, shape="saw", attack=attack, decay=decay)
    return lowpass(lowpass(mix([(0, a, 0.5), (0, b, 0.5)]), 2400), 3200)


def bell(freq: float, seconds: float, decay: float = 0.5) -> Samples:
    """A soft struck bell: a sine with two faint inharmonic partials, so it shimmers over a pad."""
    partials = [(1.0, 1.0), (2.76, 0.25), (5.4, 0.08)]
    return mix([(0, tone(freq * r, seconds, decay=decay / r), g) for r, g in partials])


def chord(freqs: list[float], seconds: float, voice: Callable[[float, float], Samples]) -> Samples:
    """One voice (frequency, seconds -> samples) on several pitches, summed at equal level."""
    return mix([(0, voice(f, seconds), 1.0 / len(freqs)) for f in freqs])


# --- loudness ---------------------------------------------------------------------------------


def active_rms(samples: Samples, window: float = 0.02) -> float:
    """RMS over the 20 ms windows within 30 dB of the loudest: the part a listener hears."""
    size = max(1, int(window * RATE))
    energies = []
    for start in range(0, len(samples), size):
        chunk = samples[start : start + size]
        energies.append(sum(v * v for v in chunk) / len(chunk))
    loudest = max(energies)
    if loudest <= 0:
        return 0.0
    active = [e for e in energies if e >= loudest * 10 ** (-30 / 10)]
    return math.sqrt(sum(active) / len(active))


def loudness_match(samples: Samples, dbfs: float = TARGET_DBFS) -> Samples:
    """Scale to `dbfs` active RMS, soft-limit peaks, and repeat once to undo the limiter."""
    target = 10 ** (dbfs / 20)
    out = samples
    for _ in range(3):
        gain = target / active_rms(out)
        out = [PEAK * math.tanh(v * gain / PEAK) for v in out]
    return out


def to_wav_bytes(samples: Samples, channels: int = 1) -> bytes:
    """16-bit WAV bytes of `samples` (interleaved when `channels` is 2)."""
    pcm = array("h", (max(-32767, min(32767, round(v * 32767))) for v in samples))
    if sys.byteorder == "big":
        pcm.byteswap()
    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(channels)
        wav.setsampwidth(2)
        wav.setframerate(RATE)
        wav.writeframes(pcm.tobytes())
    return out.getvalue()


# --- recordings -------------------------------------------------------------------------------


def recording_sources() -> dict[str, dict[str, Any]]:
    """tools/recordings/sources.json: each package's origin and licence, and its files'
    checksums (written with tools/fetch_recordings.py)."""
    sources: dict[str, dict[str, Any]] = json.loads(
        (RECORDINGS / "sources.json").read_text(encoding="utf-8"))
    return sources


def recording(package: str, filename: str) -> Samples:
    """A committed recording (tools/recordings/<package>/<filename>) as samples, its DC offset
    taken out. It must be the file sources.json records, byte for byte, so that a cue made from
    it is what LICENSES.md says; and 16-bit at the mixer's rate, so nothing here resamples."""
    data = (RECORDINGS / package / filename).read_bytes()
    entry = recording_sources()[package]
    if hashlib.sha256(data).hexdigest() != entry["files"][filename]["sha256"]:
        raise ValueError(f"tools/recordings/{package}/{filename} is not the recorded file; "
                         "run tools/fetch_recordings.py")
    with wave.open(io.BytesIO(data)) as wav:
        if (wav.getframerate(), wav.getsampwidth()) != (RATE, 2):
            raise ValueError(f"{filename}: {wav.getframerate()} Hz, "
                             f"{8 * wav.getsampwidth()}-bit; the cues need {RATE} Hz, 16-bit")
        channels = wav.getnchannels()
        pcm = array("h", wav.readframes(wav.getnframes()))
    if sys.byteorder == "big":
        pcm.byteswap()
    mono = [sum(pcm[i : i + channels]) / channels / 32768 for i in range(0, len(pcm), channels)]
    return highpass(mono, 30.0)


# --- the cues ---------------------------------------------------------------------------------


def coin(rng: random.Random) -> Samples:
    """A flipped coin: a bright metallic ping that bounces three times."""

    def ping(level: float) -> Samples:
        partials = [(2093, 1.0), (3520, 0.6), (5274, 0.4), (7040, 0.2)]
        return mix([(0, tone(f, 0.35, decay=0.09), g * level) for f, g in partials])

    return mix([(0.0, ping(1.0), 1), (0.22, ping(0.6), 1), (0.36, ping(0.35), 1)], 0.8)


def reveal(rng: random.Random) -> Samples:
    """A card turned over: a quick rising swish of noise, then a soft two-note chime."""
    swish = bandpass(noise(rng, 0.22), 1500, 5000)
    swish = envelope(swish, lambda t: math.sin(math.pi * t / 0.22) ** 2)
    chime = mix([(0, tone(1318.5, 0.3, decay=0.1), 1), (0.07, tone(1975.5, 0.3, decay=0.1), 0.8)])
    return mix([(0, swish, 1.0), (0.18, chime, 0.6)])


def click(rng: random.Random, pitch: float = 1.0) -> Samples:
    """A die hitting the table: a 25 ms knock of filtered noise over a woody resonance."""
    knock = bandpass(noise(rng, 0.03, decay=0.006), 800 * pitch, 6000)
    body = tone(600 * pitch, 0.03, attack=0.0005, decay=0.008)
    return mix([(0, knock, 1.0), (0, body, 0.8)])


def dice(rng: random.Random) -> Samples:
    """Dice shaken and thrown: a rattle of irregular clicks that slows to a stop."""
    parts = []
    t = 0.0
    gap = 0.03
    while t < 0.6:
        parts.append((t, click(rng, rng.uniform(0.8, 1.4)), rng.uniform(0.5, 1.0)))
        t += gap * rng.uniform(0.6, 1.4)
        gap *= 1.12
    return mix(parts)


def die_click(rng: random.Random) -> Samples:
    """The single click play_dice repeats once per die (pitched by the pips at run time)."""
    return click(rng, 1.2)


def whistle(rng: random.Random) -> Samples:
    """A referee's whistle: one real short blast, near 2.1 kHz, and its echo."""
    blast = recording("tuxfootball", "refwhistleshort.wav")[: int(0.7 * RATE)]
    return fade_out(blast, 0.12)


def touchdown(rng: random.Random) -> Samples:
    """A crowd cheer: a swelling roar of noise with many voices shouting at random pitches,
    and hands clapping all through it."""
    length = 2.6
    roar = bandpass(noise(rng, length), 300, 2500)
    parts: list[tuple[float, Samples, float]] = [(0, roar, 1.0)]
    # Claps: short bright bursts reaching past 11 kHz (which only a 44.1 kHz file carries),
    # scattered more thickly as the cheer swells.
    claps: list[tuple[float, Samples, float]] = []
    for _ in range(160):
        start = length * 0.9 * math.sqrt(rng.random())
        clap = bandpass(noise(rng, 0.015, decay=0.003), 2000, 14000)
        claps.append((start, clap, rng.uniform(0.25, 0.5)))
    for _ in range(40):
        start = rng.uniform(0.0, 1.6)
        base = rng.uniform(220, 520)
        dur = rng.uniform(0.4, 0.9)
        wobble = rng.uniform(4, 7)
        voice = tone(
            lambda t, b=base, w=wobble: b * (1 + 0.3 * t) + 12 * math.sin(2 * math.pi * w * t),
            dur,
            shape="saw",
            attack=0.06,
        )
        parts.append((start, lowpass(voice, 1800), 0.12))
    crowd = mix([(0, band_limit(mix(parts, length)), 1.0), *claps], length)
    return envelope(crowd, lambda t: min(1.0, t / 0.35) * min(1.0, (length - t) / 0.9))


def field_goal_good(rng: random.Random) -> Samples:
    """Kick is good: a bright rising major arpeggio."""
    notes = [523.25, 659.25, 783.99, 1046.5]
    parts = [(i * 0.11, tone(f, 0.45, decay=0.18), 1.0) for i, f in enumerate(notes)]
    return mix(parts)


def field_goal_no_good(rng: random.Random) -> Samples:
    """Kick is no good: a sagging 'wah-wah' that slides down."""
    parts = []
    for i, f in enumerate([392.0, 370.0, 349.2]):
        parts.append((i * 0.25, tone(f, 0.25, shape="square", attack=0.02), 1.0))
    parts.append((0.75, tone(lambda t: 329.6 - 90 * t, 0.5, shape="square", attack=0.02), 1.0))
    return lowpass(mix(parts), 1500)


def punt(rng: random.Random) -> Samples:
    """A punt: a real boot on the ball, then the ball whooshing away and falling in pitch."""
    thump = fade_out(recording("tuxfootball", "kick.wav")[: int(0.3 * RATE)], 0.1)
    smack = bandpass(noise(rng, 0.05, decay=0.01), 500, 4000)
    whoosh = bandpass(noise(rng, 0.6), 600, 1800)
    whoosh = envelope(whoosh, lambda t: math.sin(math.pi * t / 0.6) * 0.5)
    glide = tone(lambda t: 900 - 700 * t, 0.6, decay=0.3)
    return mix([(0, thump, 1.0), (0, smack, 0.7), (0.05, whoosh, 0.6), (0.05, glide, 0.25)])


def sack(rng: random.Random) -> Samples:
    """A sack: a heavy body crunch, low thud under a burst of grinding noise."""
    thud = tone(lambda t: 75 - 40 * t, 0.45, attack=0.002, decay=0.12)
    crunch = lowpass(noise(rng, 0.3, decay=0.07), 1200)
    grunt = tone(lambda t: 160 - 60 * t, 0.25, shape="saw", attack=0.01, decay=0.1)
    return mix([(0, thud, 1.0), (0, crunch, 0.9), (0.03, lowpass(grunt, 700), 0.5)])


def interception(rng: random.Random) -> Samples:
    """An interception: an urgent two-tone siren, high-low three times."""
    parts = []
    for i in range(6):
        f = 1046.5 if i % 2 == 0 else 784.0
        parts.append((i * 0.13, tone(f, 0.12, shape="square", attack=0.003), 1.0))
    return lowpass(mix(parts), 3000)


def fumble(rng: random.Random) -> Samples:
    """A fumble: the ball bouncing loose, thuds at uneven pitch coming faster and softer."""
    parts = []
    t = 0.0
    gap = 0.28
    level = 1.0
    for _ in range(7):
        f = rng.uniform(180, 320)
        parts.append((t, tone(lambda x, f=f: f - 150 * x, 0.12, attack=0.001, decay=0.035), level))
        t += gap
        gap *= 0.72
        level *= 0.8
    return mix(parts)


def safety(rng: random.Random) -> Samples:
    """A safety: two low horn blasts, the second lower."""
    horn1 = lowpass(tone(233.1, 0.35, shape="saw", attack=0.02), 1200)
    horn2 = lowpass(tone(174.6, 0.5, shape="saw", attack=0.02), 1200)
    return mix([(0, horn1, 1.0), (0.42, horn2, 1.0)])


def big_play(rng: random.Random) -> Samples:
    """A gain of 15+ yards: a quick brass pickup ripping up into a D major stab over a short
    crowd swell. Brass and a one-second swell keep it apart from field_goal_good's sine arpeggio
    and touchdown's long cheer."""
    pickup = brass(293.7, 0.09, attack=0.01)
    lift = brass(440.0, 0.09, attack=0.01)
    stab = chord([587.3, 740.0, 880.0, 1174.7], 0.6, lambda f, s: brass(f, s, 0.015, 0.3))
    swell = bandpass(noise(rng, 0.95), 400, 2500)
    swell = envelope(swell, lambda t: math.sin(math.pi * min(1.0, t / 0.95)) ** 2)
    out = mix([(0, pickup, 0.8), (0.08, lift, 0.8), (0.16, stab, 1.6), (0.12, swell, 0.3)], 1.1)
    return fade_out(out, 0.12)


def turnover(rng: random.Random) -> Samples:
    """Possession changes: a dramatic low hit whose boom falls away, under a minor 'uh-oh' of two
    brass stabs a minor third apart, the second sagging. Chords over a boom set it apart from
    interception's siren, fumble's bounces, field_goal_no_good's lone square voice and safety's
    low single horns."""
    boom = tone(lambda t: 110 * 2 ** (-t / 0.35), 0.9, attack=0.002, decay=0.3)
    crack = bandpass(noise(rng, 0.15, decay=0.04), 200, 3000)
    uh = chord([587.3, 698.5, 880.0], 0.24, lambda f, s: brass(f, s, attack=0.008))

    def sag(f: float, s: float) -> Samples:
        glide = tone(lambda t: f * (1 - 0.06 * t), s, shape="saw", attack=0.008, decay=0.3)
        return lowpass(lowpass(glide, 2400), 3200)

    oh = chord([493.9, 587.3, 740.0], 0.6, sag)
    out = mix([(0, boom, 1.0), (0, crack, 0.5), (0, uh, 1.4), (0.3, oh, 1.4)])
    return fade_out(out, 0.12)


def touchdown_theirs(rng: random.Random) -> Samples:
    """The other team scores: the home crowd's groan, a dark murmur that starts at once and
    dies away under low voices sliding down, and a thin, far-off cheer from the visitors'
    corner. Dark and falling where the player's own touchdown is a bright swelling roar."""
    length = 1.9
    murmur = envelope(bandpass(noise(rng, length), 150, 650), lambda t: math.exp(-t / 0.8))
    parts: list[tuple[float, Samples, float]] = [(0, murmur, 1.0)]
    for _ in range(18):
        start = rng.uniform(0.0, 0.15)
        base = rng.uniform(170, 300)
        voice = tone(lambda t, b=base: b * (1 - 0.3 * t), 1.5, shape="saw", attack=0.05,
                     decay=0.7)
        parts.append((start, lowpass(voice, 650), 0.12))
    far = envelope(bandpass(noise(rng, 1.0), 1500, 3000),
                   lambda t: 0.5 * math.sin(math.pi * t / 1.0))
    parts.append((0.5, far, 0.2))
    crowd = mix(parts, length)
    return envelope(crowd, lambda t: min(1.0, t / 0.05) * min(1.0, (length - t) / 0.5))


def field_goal_theirs(rng: random.Random) -> Samples:
    """The other team's kick is good: the player's rising arpeggio turned upside down and
    darkened, four muted notes falling through C minor."""
    notes = [1046.5, 783.99, 622.25, 523.25]
    parts = [(i * 0.13, lowpass(tone(f, 0.45, decay=0.2), 1400), 1.0)
             for i, f in enumerate(notes)]
    return mix(parts)


def big_play_theirs(rng: random.Random) -> Samples:
    """The other team's gain of 15+ yards: low brass falling onto a D minor stab an octave
    under the player's, over a crowd that gasps rather than swells."""
    pickup = brass(440.0, 0.09, attack=0.01)
    drop = brass(293.7, 0.09, attack=0.01)
    stab = chord([146.8, 174.6, 220.0, 293.7], 0.6, lambda f, s: brass(f, s, 0.015, 0.3))
    gasp = bandpass(noise(rng, 0.5, decay=0.15), 300, 1200)
    out = mix([(0, pickup, 0.8), (0.08, drop, 0.8), (0.16, stab, 1.6), (0.16, gasp, 0.35)], 1.1)
    return fade_out(out, 0.12)


def turnover_won(rng: random.Random) -> Samples:
    """The player's side takes the ball away: a sharp crack, a brass whoop rising an octave
    and a bright, high B major stab with the crowd's shout. High, rising and major where
    `turnover` (the player losing it) is a low boom sagging into minor; a rising glide sets
    it apart from big_play's stepped pickup."""
    crack = bandpass(noise(rng, 0.08, decay=0.02), 1500, 6000)
    whoop = lowpass(tone(lambda t: 523.3 * 2 ** (t / 0.22), 0.22, shape="saw", attack=0.01),
                    3000)
    stab = chord([987.8, 1244.5, 1480.0, 1975.5], 0.5, lambda f, s: brass(f, s, 0.01, 0.25))
    shout = envelope(bandpass(noise(rng, 0.45), 900, 3000),
                     lambda t: math.sin(math.pi * t / 0.45))
    out = mix([(0, crack, 0.7), (0.03, whoop, 0.8), (0.25, stab, 1.5), (0.25, shout, 0.3)],
              1.0)
    return fade_out(out, 0.12)


CROWD_LOOP_S = 8.0  # the stadium bed's length; it loops without a seam
CROWD_SEAM_S = 1.0  # the crossfade that hides the join


def crowd(rng: random.Random) -> Samples:
    """The stadium bed under the game: a crowd's murmur (band-limited noise swelling and
    settling slowly) with many far voices at random pitches, made to loop without a seam: it
    is rendered a second longer than the loop, and that second is crossfaded (equal power, as
    the two halves are unrelated noise) into the loop's start, so its last sample runs on into
    its first as any two neighbours do."""
    length = CROWD_LOOP_S + CROWD_SEAM_S
    hum = bandpass(noise(rng, length), 180, 1400)
    swell = [rng.uniform(0.0, 2 * math.pi) for _ in range(2)]
    hum = envelope(hum, lambda t: 0.8 + 0.1 * math.sin(2 * math.pi * t / 4.5 + swell[0])
                   + 0.1 * math.sin(2 * math.pi * t / 3 + swell[1]))
    parts: list[tuple[float, Samples, float]] = [(0, hum, 1.0)]
    for _ in range(36):
        start = rng.uniform(0.0, length - 0.6)
        base = rng.uniform(140, 420)
        wobble = rng.uniform(3, 6)
        voice = tone(lambda t, b=base, w=wobble: b + 8 * math.sin(2 * math.pi * w * t),
                     rng.uniform(0.3, 0.6), shape="saw", attack=0.08)
        parts.append((start, lowpass(lowpass(voice, 900), 1200), 0.05))
    rendered = band_limit(mix(parts, length))
    loop, seam = int(CROWD_LOOP_S * RATE), int(CROWD_SEAM_S * RATE)
    out = rendered[:loop]
    for i in range(seam):
        share = i / seam
        out[i] = rendered[i] * math.sqrt(share) + rendered[loop + i] * math.sqrt(1 - share)
    return out


def game_won(rng: random.Random) -> Samples:
    """The player won: a IV-V-I cadence in brass over a timpani roll, the tonic held with a low
    boom so it lands as final and triumphant."""

    def horn(f: float, s: float) -> Samples:
        return brass(f, s, attack=0.02)

    four = chord([349.2, 440.0, 523.3], 0.3, horn)
    five = chord([392.0, 493.9, 587.3], 0.3, horn)
    one = chord([261.6, 523.3, 659.3, 784.0, 1046.5], 1.45, lambda f, s: brass(f, s, 0.02, 0.9))
    roll = mix([(i * 0.045, tone(98.0, 0.2, attack=0.002, decay=0.08), 0.5) for i in range(12)])
    boom = tone(65.4, 1.2, attack=0.002, decay=0.35)
    out = mix(
        [(0, four, 1.0), (0.31, five, 1.0), (0.62, one, 1.3), (0.08, roll, 0.7), (0.62, boom, 0.9)]
    )
    return fade_out(out, 0.4)


def game_lost(rng: random.Random) -> Samples:
    """The player lost: a slow, muted line stepping down the A minor scale onto a low A minor
    chord; soft sines with a slight vibrato, so it is somber rather than a buzzer."""

    def muted(f: float, s: float) -> Samples:
        vib = tone(lambda t: f * (1 + 0.004 * math.sin(2 * math.pi * 5 * t)), s, attack=0.05)
        return lowpass(mix([(0, vib, 1.0), (0, tone(2 * f, s, attack=0.05), 0.3)]), 900)

    line = [(i * 0.34, muted(f, 0.36), 1.0) for i, f in enumerate([329.6, 293.7, 261.6, 246.9])]
    rest = chord([110.0, 220.0, 261.6, 329.6], 0.95, muted)
    return fade_out(mix([*line, (1.36, rest, 2.2)]), 0.6)


def game_tied(rng: random.Random) -> Samples:
    """A tie: a held Dsus4 pad that never resolves, with bells swinging between the suspended G
    and the A above it, leaving the ear hanging: neither bright nor dark."""

    def pad_voice(f: float, s: float) -> Samples:
        return tone(lambda t: f * (1 + 0.003 * math.sin(2 * math.pi * 0.8 * t)), s, attack=0.25)

    pad = chord([146.8, 293.7, 392.0, 440.0], 2.3, pad_voice)
    pad = envelope(pad, lambda t: 0.75 + 0.25 * math.sin(2 * math.pi * 3 * t))
    bells = [(i * 0.5, bell(f, 0.8), 0.6) for i, f in enumerate([880.0, 784.0, 880.0, 784.0])]
    return fade_out(mix([(0, pad, 1.0), *bells], 2.3), 0.5)


def menu_move(rng: random.Random) -> Samples:
    """Focus moved: a tiny, neutral tick."""
    return tone(1200, 0.04, attack=0.001, decay=0.01)


def menu_edge(rng: random.Random) -> Samples:
    """Focus hit the end of the list: a dull low bump."""
    return tone(lambda t: 220 - 400 * t, 0.1, attack=0.002, decay=0.035)


def menu_select(rng: random.Random) -> Samples:
    """A choice confirmed: two quick rising notes."""
    return mix([(0, tone(660, 0.08, decay=0.04), 1.0), (0.07, tone(990, 0.12, decay=0.05), 1.0)])


def menu_error(rng: random.Random) -> Samples:
    """Not allowed: a short low buzz."""
    return lowpass(tone(140, 0.25, shape="square", attack=0.005), 2000)


def chat(rng: random.Random) -> Samples:
    """A friend's message: a soft rounded 'pop-pop', two woody notes a fourth apart, unlike
    any menu sound or the game's own news."""
    return mix([(0, bell(587.3, 0.25, decay=0.08), 1.0), (0.09, bell(784.0, 0.3, decay=0.1),
                                                             0.9)])


def waiting(rng: random.Random) -> Samples:
    """The friend is still choosing: one muted low pulse, a soft heartbeat that does not
    call for attention."""
    return lowpass(tone(196.0, 0.18, attack=0.02, decay=0.07), 700)


CUES: dict[str, Callable[[random.Random], Samples]] = {
    "coin": coin,
    "reveal": reveal,
    "dice": dice,
    "die_click": die_click,
    "whistle": whistle,
    "touchdown": touchdown,
    "field_goal_good": field_goal_good,
    "field_goal_no_good": field_goal_no_good,
    "punt": punt,
    "sack": sack,
    "interception": interception,
    "fumble": fumble,
    "safety": safety,
    "big_play": big_play,
    "turnover": turnover,
    "touchdown_theirs": touchdown_theirs,
    "field_goal_theirs": field_goal_theirs,
    "big_play_theirs": big_play_theirs,
    "turnover_won": turnover_won,
    "game_won": game_won,
    "game_lost": game_lost,
    "game_tied": game_tied,
    "menu_move": menu_move,
    "menu_edge": menu_edge,
    "menu_select": menu_select,
    "menu_error": menu_error,
    "chat": chat,
    "waiting": waiting,
    "crowd": crowd,
}
# Beds play under everything else, so they are made quieter than the cues.
BED_DBFS = {"crowd": -26.0}
# Stereo where it adds something: a crowd is all around the field, the bed and the two
# touchdown crowds (the home cheer, the home groan). The other cues stay mono (the field tone
# and the sweep are panned when they are made, in the game); the mono setting folds these.
STEREO = {"crowd", "touchdown", "touchdown_theirs"}
# Cues that band-limit themselves: the cheer, whose claps are meant to reach past 11 kHz, and
# the bed, which must be limited before its ends are joined (a filter run over the joined loop
# would start afresh at its first sample and open a seam). Every other cue is band-limited as
# a whole once it is made (band_limit).
LIMITS_ITSELF = {"touchdown", "crowd"}


def render(name: str) -> bytes:
    """One cue as WAV bytes; the noise seed comes from the name, so the output never varies.
    A stereo sound is made twice, each side from its own seed (a crowd all around: two takes
    of it, unrelated, left and right), and both sides get the same gain."""
    dbfs = BED_DBFS.get(name, TARGET_DBFS)

    def take(seed: str) -> Samples:
        made = CUES[name](random.Random(zlib.crc32(seed.encode())))
        return made if name in LIMITS_ITSELF else band_limit(made)

    if name not in STEREO:
        return to_wav_bytes(loudness_match(take(name), dbfs))
    left, right = (take(f"{name}/{side}") for side in ("left", "right"))
    both = loudness_match([v for pair in zip(left, right, strict=True) for v in pair], dbfs)
    return to_wav_bytes(both, channels=2)


# The cues made from a recording, and which: sounds/LICENSES.md gives each its source and
# licence, and the GPL's text goes beside them (GPL_TEXT).
RECORDED = {
    "whistle": ("tuxfootball", "refwhistleshort.wav"),
    "punt": ("tuxfootball", "kick.wav"),
}
GPL_TEXT = "GPL-2.txt"

LICENSES_HEAD = """# The game's sounds: where each comes from, and its licence

`python tools/make_sounds.py` makes every file in this folder (and this file) again byte for
byte, with no network, and `--check` fails if a committed file differs from a fresh one.

Most are synthesized there from sine waves and seeded noise with Python's standard library
alone. They are the project's own work, under its MIT licence (`LICENSE` at the top of the
repository).

Where a real recording serves better than synthesis, the cue is made from one, and the row says
which. Those recordings come from the free game Tux Football, as Debian packages it, under the
GNU GPL version 2 or later. The cues made from them are under that licence too, and its text is
beside them: `GPL-2.txt`. The recordings are committed in `tools/recordings/`, with the
package's address and each file's checksum (`tools/recordings/sources.json`).
`python tools/fetch_recordings.py` downloads them again and checks every byte.

Crowds are still synthesized. The recorded crowds found in Debian's games (Tux Football's cheer
and boo, Eat the Whistle's crowd loops, Circus Linux's and Scorched 3D's cheering) are all 8-bit
or 11 kHz mono, duller and noisier than the 44.1 kHz stereo crowds made here.

| file | length, format | source |
|---|---|---|
"""


def licenses_text(rendered: dict[str, bytes]) -> str:
    """sounds/LICENSES.md: each file with its length, format and source (its maker here, and
    the recording it is made from, with that recording's copyright and licence)."""
    sources = recording_sources()
    rows = []
    for name, data in rendered.items():
        with wave.open(io.BytesIO(data)) as wav:
            seconds = wav.getnframes() / wav.getframerate()
            layout = "mono" if wav.getnchannels() == 1 else "stereo"
            rate = wav.getframerate()
        summary = (CUES[name].__doc__ or "").strip().split("\n")[0]
        origin = ""
        if name in RECORDED:
            package, filename = RECORDED[name]
            source = sources[package]
            origin = (f" Made from the recording `{filename}` of {source['title']} "
                      f"({source['package']}), (c) {source['copyright']}, "
                      f"{source['licence']} (`{GPL_TEXT}`).")
        rows.append(f"| `{name}.wav` | {seconds:.2f} s, {rate} Hz, {layout} | "
                    f"`{CUES[name].__name__}()`: {summary}{origin} |")
    return LICENSES_HEAD + "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--out", type=Path, default=SOUNDS,
                        help="folder to write (sounds/)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    stale = []
    rendered = {name: render(name) for name in CUES}
    files = {f"{name}.wav": data for name, data in rendered.items()}
    files["LICENSES.md"] = licenses_text(rendered).encode("utf-8")
    files[GPL_TEXT] = (RECORDINGS / GPL_TEXT).read_bytes()
    for filename, data in files.items():
        path = args.out / filename
        if args.check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(filename)
        else:
            path.write_bytes(data)
            print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: "
                  f"{len(data)} bytes")
    if stale:
        print("out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
