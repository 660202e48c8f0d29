"""When does a sound become audible? A probe on the mixed output of pygame's own SDL_mixer.

Timing `say()` -> `Channel.play()` misses what comes after the play call (waiting for the next
mixer buffer, the leading silence eSpeak puts before the first phoneme) and what comes before
`say()` (the key waiting in the loop, the work done for it). This probe watches what the mixer
really produces:

    import pygame
    pygame.mixer.init(frequency=22050, size=-16, channels=2, buffer=512)
    probe = AudibleProbe.install()          # raises unless the hook is actually called
    probe.wait_quiet(0.3, timeout=10)       # nothing is sounding now
    t0 = probe.mark()                       # e.g. right before posting a KEYDOWN
    ...
    delay = probe.first_audible_after(t0, timeout=3.0)   # seconds, or None

How it works
------------
`install()` finds the SDL_mixer library pygame has already loaded (from `/proc/self/maps`, else
pygame-ce's bundled `site-packages/pygame_ce.libs/libSDL2_mixer-*.so*`) and opens that same file
with `ctypes.CDLL`; dlopen of a loaded library returns the loaded instance, so `Mix_SetPostMix`
sets the hook of the mixer pygame mixes with. `install()` then waits until the hook has been
called (and raises if it is not), which proves it. SDL_mixer calls the hook on SDL's audio thread
with every buffer it has just mixed (all channels, after volumes and effects), right before the
buffer goes to the driver. For each buffer the hook records the time (`time.perf_counter()`'s
clock, CLOCK_MONOTONIC), the largest |sample|, and the frame index of the first sample above the
threshold (-60 dBFS: |sample| > 32 of 32768; 16-bit signed, mono or stereo as
`pygame.mixer.get_init()` says).

The time of the first audible sample is approximated as

    t_audible = t_callback + first_frame / frequency

as if the buffer began to play the moment it was mixed. SDL asks for a buffer when the previous
one is used up, so that is right for an ideal device; a real device adds a constant output
latency of its own (typically one or two more buffers), which this does not include. A sound
started by `Channel.play()` at time t is first mixed at the next callback, 0 to one buffer
(512 frames at 22050 Hz = 23.2 ms) later.

Two hooks, same records
-----------------------
- backend "c" (the default when a C compiler is found): a 40-line C hook, compiled once into the
  temp folder, stamps and scans each buffer without touching Python, into a ring the probe reads.
  No GIL is involved, so the timestamp is exact and the game is not perturbed. The same
  library can stamp when each buffer's mixing begins (`time_mixing`, through the music hook)
  and run GIL-free wakers pinned to each CPU (`start_wakers`): what `speech_latency.py --gaps`
  explains underruns with.
- backend "python": a ctypes Python callback. Before it runs, SDL's audio thread must take the
  GIL, so its timestamp is late by that wait, and while it waits the audio thread waits too (on a
  real device: an underrun; with the dummy driver every later buffer shifts). Measured against the
  C hook on the same buffers (`python benchmarks/audible.py --gil [--busy]`; 2 cores, Python
  3.11): idle interpreter median 0.08 ms, max 0.17 ms; another thread running pure Python flat
  out: median 5.2 ms, max 6 ms per buffer (the 5 ms GIL switch interval), and the buffers then
  come every ~28 ms instead of 23.2, so a sound that starts a few buffers into the stream is
  timed up to ~25-50 ms late (`--backend python --busy` self-test). A C call that holds the GIL
  (font rendering, decoding a large `Sound`) delays it by as long as it lasts. Python-backend
  onsets are upper bounds, good to a fraction of a ms only when the process is otherwise idle;
  the hook costs ~30-50 us of GIL time per buffer. pygame itself already takes the GIL on the
  audio thread (its `Mix_ChannelFinished` callback) and releases the GIL around every mixer call
  that locks the device, so this hook adds no new deadlock.

SDL's `dummy` audio driver (what the tests use) paces its buffers in real time in SDL 2.28
(measured: one 512-frame buffer every 23.3 ms), so no sound card is needed. If a driver does not,
use `SDL_AUDIODRIVER=disk` with `SDL_DISKAUDIOFILE=/dev/null`; `probe.period_s` (measured at
install) shows the pacing. Everything on every channel counts: a cue sounds as soon as speech
would, so silence the cues to time speech alone.

`python benchmarks/audible.py` verifies the probe: silence + tone with a known lead, measured
onset vs the expected one (see `self_test`).
"""

from __future__ import annotations

import argparse
import atexit
import ctypes
import glob
import hashlib
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from typing import Any, NamedTuple

DEFAULT_THRESHOLD_DBFS = -60.0
DEFAULT_CAPACITY = 250_000  # buffers kept: about 21 minutes at 196 buffers a second
POLL_S = 0.002  # how often a waiting call looks for new buffers

_POSTMIX = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)

_C_SOURCE = r"""
#define _GNU_SOURCE
#include <stdint.h>
#include <time.h>
typedef struct { double t, start; int32_t frames, first, peak, pad; } rec_t;
#define CAP 65536
static rec_t recs[CAP];
static uint64_t count = 0;
static int channels = 2, limit = 32;
typedef void (*chain_t)(void *, uint8_t *, int);
static chain_t chain = 0;
static double mix_start = 0.0;
/* Set as SDL_mixer's music hook, which it calls first in every buffer: when mixing began. */
void probe_premix(void *udata, uint8_t *stream, int len) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    mix_start = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
    (void)udata; (void)stream; (void)len;
}
void probe_config(int ch, int lim, chain_t next) { channels = ch; limit = lim; chain = next; }
uint64_t probe_count(void) { return __atomic_load_n(&count, __ATOMIC_ACQUIRE); }
rec_t *probe_records(void) { return recs; }
int probe_capacity(void) { return CAP; }
void probe_postmix(void *udata, uint8_t *stream, int len) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    const int16_t *s = (const int16_t *)stream;
    int n = len / 2, first = -1, peak = 0;
    for (int i = 0; i < n; i++) {
        int v = s[i] < 0 ? -(int)s[i] : s[i];
        if (v > peak) peak = v;
        if (first < 0 && v > limit) first = i / channels;
    }
    uint64_t k = count;
    rec_t *r = &recs[k % CAP];
    r->t = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
    r->start = mix_start;
    r->frames = n / channels; r->first = first; r->peak = peak;
    __atomic_store_n(&count, k + 1, __ATOMIC_RELEASE);
    if (chain) chain(udata, stream, len);
}
/* Wakers that never take the GIL: a thread per CPU, pinned to it and (where allowed) at the
   audio thread's priority, that asks to wake every wake_us microseconds and keeps each wake
   more than late_us late as (asked, woke, cpu) on the same clock: a CPU a top-priority thread
   could not get (the hypervisor took it, or an interrupt). */
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
typedef struct { double asked, woke; int32_t cpu, pad; } stall_t;
#define STALLS 4096
static stall_t stalls[STALLS];
static uint64_t stall_count = 0;
static long wake_ns = 1000000, late_ns = 6000000;
static int niced = 1;
static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
static void *wake(void *arg) {
    int cpu = (int)(long)arg;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), -20) != 0) niced = 0;
    struct timespec pause = {0, wake_ns};
    double last = now_s();
    for (;;) {
        nanosleep(&pause, 0);
        double t = now_s();
        if (t - last > late_ns * 1e-9) {
            uint64_t k = __atomic_fetch_add(&stall_count, 1, __ATOMIC_ACQ_REL);
            stalls[k % STALLS].asked = last; stalls[k % STALLS].woke = t;
            stalls[k % STALLS].cpu = cpu;
        }
        last = t;
    }
    return 0;
}
/* One waker on each CPU this process may use; returns how many started. */
int probe_waker_start(int wake_us, int late_us) {
    cpu_set_t mine;
    int started = 0;
    wake_ns = wake_us * 1000L; late_ns = late_us * 1000L;
    if (sched_getaffinity(0, sizeof mine, &mine) != 0) return 0;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        pthread_t thread;
        if (CPU_ISSET(cpu, &mine) && pthread_create(&thread, 0, wake, (void *)(long)cpu) == 0) {
            pthread_detach(thread);
            started++;
        }
    }
    return started;
}
int probe_waker_niced(void) { return niced; }
uint64_t probe_stall_count(void) { return __atomic_load_n(&stall_count, __ATOMIC_ACQUIRE); }
stall_t *probe_stalls(void) { return stalls; }
int probe_stall_capacity(void) { return STALLS; }
"""


class _Rec(ctypes.Structure):
    _fields_ = [("t", ctypes.c_double), ("start", ctypes.c_double), ("frames", ctypes.c_int32),
                ("first", ctypes.c_int32),
                ("peak", ctypes.c_int32), ("pad", ctypes.c_int32)]


class _Stall(ctypes.Structure):
    _fields_ = [("asked", ctypes.c_double), ("woke", ctypes.c_double), ("cpu", ctypes.c_int32),
                ("pad", ctypes.c_int32)]


class Buffer(NamedTuple):
    """One mixed buffer: when the hook saw it, its length, and its first audible frame.

    A tuple, not a dataclass: a tuple of numbers drops out of the garbage collector's tracking,
    so hundreds of thousands of them do not make the game's process pause for tens of
    milliseconds in a collection (which stalled the mixer: its channel-finished callback needs
    the GIL)."""

    t_callback: float  # time.perf_counter() clock, at the hook
    frames: int
    first_frame: int | None  # index of the first frame with a sample above the threshold
    peak: int  # largest |sample| in the buffer (0..32768)
    t_start: float = 0.0  # when mixing it began, if `time_mixing()` is on (C backend)

    @property
    def audible(self) -> bool:
        return self.first_frame is not None


def find_mixer_library() -> str:
    """Path of the SDL_mixer shared library already loaded in this process (pygame's).

    Looks in /proc/self/maps first (exactly what is loaded); falls back to pygame's bundled copy
    in site-packages/pygame_ce.libs (pygame.libs for pygame itself). Raises RuntimeError if
    neither is found.
    """
    loaded: list[str] = []
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            for line in maps:
                parts = line.split(maxsplit=5)
                if len(parts) == 6 and "libSDL2_mixer" in os.path.basename(parts[5].strip()):
                    path = parts[5].strip()
                    if path not in loaded:
                        loaded.append(path)
    except OSError:
        pass
    if loaded:
        bundled = [path for path in loaded if "pygame_ce.libs" in path or "pygame.libs" in path]
        return (bundled or loaded)[0]
    import pygame

    site = os.path.dirname(os.path.dirname(pygame.__file__))
    found = sorted(glob.glob(os.path.join(site, "pygame*.libs", "libSDL2_mixer-*.so*")))
    if found:
        return found[0]
    raise RuntimeError("no SDL_mixer library is loaded; call pygame.mixer.init() first")


def amplitude(dbfs: float) -> float:
    """A level in dBFS as a 16-bit sample magnitude (full scale 32768)."""
    return 32768.0 * 10.0 ** (dbfs / 20.0)


def build_c_hook() -> ctypes.CDLL | None:
    """Compile (once, cached in the temp folder) and load the C hook; None without a compiler."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    digest = hashlib.sha256(_C_SOURCE.encode()).hexdigest()[:12]
    target = os.path.join(tempfile.gettempdir(), f"audible-probe-{digest}.so")
    if not os.path.exists(target):
        source = target[:-3] + ".c"
        with open(source, "w", encoding="utf-8") as handle:
            handle.write(_C_SOURCE)
        partial = f"{target}.{os.getpid()}"
        result = subprocess.run(
            [compiler, "-O2", "-shared", "-fPIC", "-pthread", "-o", partial, source],
            capture_output=True, text=True, check=False)
        if result.returncode != 0:
            return None
        os.replace(partial, target)
    lib = ctypes.CDLL(target)
    lib.probe_config.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
    lib.probe_config.restype = None
    lib.probe_count.restype = ctypes.c_uint64
    lib.probe_records.restype = ctypes.c_void_p
    lib.probe_capacity.restype = ctypes.c_int
    lib.probe_waker_start.argtypes = [ctypes.c_int, ctypes.c_int]
    lib.probe_waker_start.restype = ctypes.c_int
    lib.probe_stall_count.restype = ctypes.c_uint64
    lib.probe_stalls.restype = ctypes.c_void_p
    lib.probe_stall_capacity.restype = ctypes.c_int
    lib.probe_waker_niced.restype = ctypes.c_int
    return lib


class AudibleProbe:
    """A postmix hook that timestamps every mixed buffer and finds its first audible sample.

    Make one with `install()` after `pygame.mixer.init()`. Methods may be called from any
    thread. With the C backend the hook never takes the GIL; see the module notes.
    """

    def __init__(self, mixer: ctypes.CDLL, path: str, frequency: int, channels: int,
                 threshold_dbfs: float, capacity: int, hook: ctypes.CDLL | None) -> None:
        self.library_path = path
        self.frequency = frequency
        self.channels = channels
        self.threshold_dbfs = threshold_dbfs
        self.limit = math.floor(amplitude(threshold_dbfs))  # audible: |sample| > limit
        self.backend = "c" if hook is not None else "python"
        self.period_s: float | None = None  # measured time between buffers, set by install()
        self.buffers: deque[Buffer] = deque(maxlen=capacity)
        self._mixer = mixer
        self._hook = hook
        self._lock = threading.Lock()
        self._py_calls = 0
        self._read = 0  # C ring: records already copied into self.buffers
        self._ring: Any = None
        self._ring_cap = 0
        self._callback = _POSTMIX(self._on_mix)  # kept referenced while installed
        self._installed = False
        self._timing = False  # the music hook stamps each buffer's start (time_mixing)
        if hook is not None:
            hook.probe_config(channels, self.limit, None)
            self._ring_cap = hook.probe_capacity()
            self._ring = (_Rec * self._ring_cap).from_address(hook.probe_records())
            self._read = hook.probe_count()

    # -- installing ------------------------------------------------------------------------

    @classmethod
    def install(cls, threshold_dbfs: float = DEFAULT_THRESHOLD_DBFS,
                capacity: int = DEFAULT_CAPACITY, confirm_timeout: float = 2.0,
                backend: str = "auto") -> AudibleProbe:
        """Hook pygame's mixer; raises RuntimeError unless the hook is called within
        `confirm_timeout` seconds (proof that it is the SDL_mixer instance pygame mixes with).

        backend: "c" (GIL-free C hook, needs a C compiler), "python" (ctypes callback), or
        "auto" (C when it can be built, else Python).
        """
        import pygame

        init = pygame.mixer.get_init()
        if init is None:
            raise RuntimeError("pygame.mixer is not initialised")
        frequency, size, channels = init
        if size != -16:
            raise RuntimeError(f"only 16-bit signed mixers are supported, not size {size}")
        hook = None
        if backend in ("auto", "c"):
            hook = build_c_hook()
            if hook is None and backend == "c":
                raise RuntimeError("the C hook could not be built (no working C compiler)")
        path = find_mixer_library()
        mixer = ctypes.CDLL(path)
        mixer.Mix_SetPostMix.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        mixer.Mix_SetPostMix.restype = None
        probe = cls(mixer, path, frequency, channels, threshold_dbfs, capacity, hook)
        probe._set_hook(True)
        atexit.register(probe.uninstall)  # no Python callback may run during finalisation
        if not probe.wait_calls(3, confirm_timeout):
            probe.uninstall()
            raise RuntimeError(
                f"the postmix hook on {path} was never called: not the mixer pygame uses, "
                "or the audio driver does not mix"
            )
        times = [buffer.t_callback for buffer in list(probe.buffers)[-3:]]
        probe.period_s = (times[-1] - times[0]) / (len(times) - 1)
        return probe

    def _set_hook(self, on: bool) -> None:
        pointer: int | None = None
        if on:
            source = self._hook.probe_postmix if self._hook is not None else self._callback
            pointer = ctypes.cast(source, ctypes.c_void_p).value
        self._mixer.Mix_SetPostMix(pointer, None)  # CDLL: called with the GIL released
        self._installed = on

    def uninstall(self) -> None:
        """Remove the hook (safe to call twice). Do it before pygame.mixer.quit()."""
        if self._installed:
            self._set_hook(False)
            if self._hook is not None:
                if self._timing:
                    self._mixer.Mix_HookMusic(None, None)
                    self._timing = False
                self._hook.probe_config(self.channels, self.limit, None)

    # -- the Python hook (SDL's audio thread, with the GIL) --------------------------------

    def _on_mix(self, _udata: Any, stream: int, length: int) -> None:
        now = time.perf_counter()  # first thing: the GIL wait before this is the only bias
        try:
            samples = memoryview(ctypes.string_at(stream, length)).cast("h")
            peak = max(max(samples), -min(samples))
            first: int | None = None
            if peak > self.limit:
                limit = self.limit
                for index, value in enumerate(samples):
                    if value > limit or value < -limit:
                        first = index // self.channels
                        break
            record = Buffer(now, len(samples) // self.channels, first, peak)
            with self._lock:
                self.buffers.append(record)
                self._py_calls += 1
        except Exception:  # never let an exception escape into SDL's thread
            pass

    def time_mixing(self) -> bool:
        """Also stamp when the mixer begins each buffer (`Buffer.t_start`), through SDL_mixer's
        music hook, which it calls before it mixes the channels: a buffer that began late was
        held before mixing (the device lock), one that took long was held while mixing (a
        channel-finished callback waiting for the GIL). Takes the music hook, which the game
        does not use (it plays no pygame.mixer.music). False with the Python backend."""
        if self._hook is None:
            return False
        self._mixer.Mix_HookMusic.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        self._mixer.Mix_HookMusic.restype = None
        self._mixer.Mix_HookMusic(ctypes.cast(self._hook.probe_premix, ctypes.c_void_p), None)
        self._timing = True
        return True

    # -- a GIL-free waker -------------------------------------------------------------------

    def start_wakers(self, wake_s: float, late_s: float) -> int:
        """Start the C library's wakers (no GIL), one pinned to each CPU at the audio thread's
        priority where the system allows it (`wakers_niced`): each asks to wake every
        `wake_s` and keeps each wake more than `late_s` late. Returns how many started (0 with
        the Python backend)."""
        if self._hook is None:
            return 0
        return int(self._hook.probe_waker_start(round(wake_s * 1e6), round(late_s * 1e6)))

    @property
    def wakers_niced(self) -> bool:
        """Whether every waker got the top priority (-20), as SDL gives its audio thread."""
        return self._hook is not None and bool(self._hook.probe_waker_niced())

    def waker_stalls(self) -> list[tuple[float, float, int]]:
        """The C wakers' late wakes so far, as (asked, woke, cpu) on the probe's clock."""
        if self._hook is None:
            return []
        count = int(self._hook.probe_stall_count())
        capacity = int(self._hook.probe_stall_capacity())
        ring = (_Stall * capacity).from_address(self._hook.probe_stalls())
        return [(float(ring[k % capacity].asked), float(ring[k % capacity].woke),
                 int(ring[k % capacity].cpu)) for k in range(max(0, count - capacity), count)]

    # -- reading ---------------------------------------------------------------------------

    def _sync(self) -> int:
        """Copy new C-ring records into `buffers`; returns the number of buffers seen so far."""
        if self._hook is None:
            return self._py_calls
        with self._lock:
            count = int(self._hook.probe_count())
            start = max(self._read, count - self._ring_cap)
            for index in range(start, count):
                rec = self._ring[index % self._ring_cap]
                first = None if rec.first < 0 else int(rec.first)
                self.buffers.append(Buffer(float(rec.t), int(rec.frames), first, int(rec.peak),
                                           float(rec.start)))
            self._read = count
            return count

    @property
    def calls(self) -> int:
        """Buffers mixed since install."""
        return self._sync()

    def snapshot(self) -> list[Buffer]:
        """All buffers recorded so far (oldest first)."""
        self._sync()
        with self._lock:
            return list(self.buffers)

    # -- measuring -------------------------------------------------------------------------

    @staticmethod
    def mark() -> float:
        """The current time on the probe's clock (time.perf_counter)."""
        return time.perf_counter()

    def audible_time(self, buffer: Buffer) -> float:
        """perf_counter time of the buffer's first audible sample (see the module notes)."""
        assert buffer.first_frame is not None
        return buffer.t_callback + buffer.first_frame / self.frequency

    def wait_calls(self, count: int, timeout: float) -> bool:
        """Wait until `count` more buffers have been mixed; False on timeout."""
        deadline = time.perf_counter() + timeout
        target = self._sync() + count
        while self._sync() < target:
            if time.perf_counter() > deadline:
                return False
            time.sleep(POLL_S)
        return True

    def first_buffer_after(self, t0: float, timeout: float) -> Buffer | None:
        """The first audible buffer mixed at or after `t0`. Waits until `t0 + timeout` at most
        (and until a buffer mixed after that is seen, so a late callback is not missed)."""
        end = t0 + timeout
        while True:
            self._sync()
            with self._lock:
                found = None
                latest = 0.0
                for buffer in reversed(self.buffers):
                    if buffer.t_callback < t0:
                        break
                    latest = max(latest, buffer.t_callback)
                    if buffer.audible:
                        found = buffer  # keeps the earliest, scanning backwards
            if found is not None:
                return found if found.t_callback <= end else None
            if latest > end or time.perf_counter() > end + 1.0:  # or the driver stopped
                return None
            time.sleep(POLL_S)

    def first_audible_after(self, t0: float, timeout: float = 3.0) -> float | None:
        """Seconds from `t0` to the first audible sample mixed after it; None if nothing became
        audible within `timeout` seconds of `t0`."""
        buffer = self.first_buffer_after(t0, timeout)
        return None if buffer is None else self.audible_time(buffer) - t0

    def quiet_since(self) -> float | None:
        """Time since which every mixed buffer has been silent (None if the last was audible)."""
        self._sync()
        with self._lock:
            since = None
            for buffer in reversed(self.buffers):
                if buffer.audible:
                    break
                since = buffer.t_callback
            return since

    def wait_quiet(self, quiet_s: float, timeout: float) -> bool:
        """Wait until the output has been silent for `quiet_s` seconds; False on timeout."""
        deadline = time.perf_counter() + timeout
        while True:
            since = self.quiet_since()
            now = time.perf_counter()
            if since is not None and now - since >= quiet_s:
                return True
            if now > deadline:
                return False
            time.sleep(0.01)

    def silent_since(self, t0: float) -> bool:
        """True if every buffer mixed since `t0` was silent (so far)."""
        return not any(b.audible for b in self.snapshot() if b.t_callback >= t0)


# -- verification ------------------------------------------------------------------------------


def _tone(seconds_silence: float, seconds_tone: float, frequency: int, channels: int,
          level: float = 0.25) -> bytes:
    """16-bit PCM: silence, then a 440 Hz tone, in the mixer's format."""
    import array

    out = array.array("h")
    lead = round(seconds_silence * frequency)
    total = lead + round(seconds_tone * frequency)
    for frame in range(total):
        value = 0 if frame < lead else int(level * 32767 * math.sin(
            2 * math.pi * 440 * (frame - lead) / frequency))
        out.extend([value] * channels)
    return out.tobytes()


class _Spinner:
    """Pure-Python load on another thread, so the GIL is contended."""

    def __init__(self, on: bool) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._spin, daemon=True) if on else None
        if self._thread is not None:
            self._thread.start()

    def _spin(self) -> None:
        while not self._stop.is_set():
            sum(range(1000))

    def stop(self) -> None:
        self._stop.set()


def self_test(runs: int = 20, leads: tuple[float, ...] = (0.0, 0.037, 0.100),
              busy: bool = False, backend: str = "auto") -> int:
    """Play silence then a tone with a known lead; check the measured onset.

    The tone enters the first buffer mixed after `play()` (at t_mix; or the one after, if play()
    had to wait for a mix in progress to finish), so its first sample is audible at t_mix + lead.
    The check: |onset - (t_mix - t0 + lead)| is within 1 ms plus the drift of the driver's
    pacing over the lead, and 0 <= onset - lead <= one buffer period (+ slack).
    Returns 0 if every run passes.
    """
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.mixer.init(frequency=22050, size=-16, channels=2, buffer=512)
    probe = AudibleProbe.install(backend=backend)
    init = pygame.mixer.get_init()
    assert init is not None
    frequency, _, channels = init
    channel = pygame.mixer.Channel(0)
    period = probe.period_s or 0.0
    print(f"library: {probe.library_path} (backend {probe.backend})")
    print(f"mixer: {frequency} Hz, {channels} channel(s); buffer period {period * 1000:.2f} ms;"
          f" threshold {probe.threshold_dbfs} dBFS (|sample| > {probe.limit})")
    spinner = _Spinner(busy)
    ok = True
    for lead in leads:
        sound = pygame.mixer.Sound(buffer=_tone(lead, 0.15, frequency, channels))
        errors: list[float] = []
        waits: list[float] = []
        failed = 0
        for run in range(runs):
            probe.wait_quiet(0.05, 5)
            time.sleep(0.002 + (run % 9) * 0.0025)  # spread play() over a buffer period
            t0 = probe.mark()
            channel.play(sound)
            buffer = probe.first_buffer_after(t0, 2.0)
            if buffer is None:
                failed += 1
                continue
            onset = probe.audible_time(buffer) - t0
            mixes = [b.t_callback for b in probe.snapshot() if b.t_callback >= t0][:2]
            errors.append(min((onset - (t - t0 + lead) for t in mixes), key=abs))
            waits.append(onset - lead)
        worst = max(abs(e) for e in errors) if errors else math.inf
        passed = (failed == 0 and worst < 0.001 + 0.002 * lead / 0.1
                  and min(waits) >= -0.0005 and max(waits) <= period + 0.003)
        ok = ok and passed
        print(f"lead {lead * 1000:5.1f} ms: onset - lead = wait for the next mix: "
              f"median {statistics.median(waits) * 1000:5.2f} ms, range "
              f"{min(waits) * 1000:5.2f}..{max(waits) * 1000:5.2f} (expect 0..{period * 1000:.1f});"
              f" onset vs expected: max |err| {worst * 1000:.3f} ms; "
              f"{'ok' if passed else 'FAIL'}")
    spinner.stop()
    probe.uninstall()
    pygame.mixer.quit()
    print("self-test", "passed" if ok else "FAILED", "(another thread spinning)" if busy else "")
    return 0 if ok else 1


def gil_delay(seconds: float = 3.0, busy: bool = False) -> list[float]:
    """How late a Python postmix callback is: the C hook stamps each buffer, then calls a
    Python callback that stamps it again. Returns the per-buffer delays in seconds."""
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.mixer.init(frequency=22050, size=-16, channels=2, buffer=512)
    probe = AudibleProbe.install(backend="c")
    assert probe._hook is not None
    stamps: list[float] = []

    def chained(_udata: Any, _stream: int, _length: int) -> None:
        stamps.append(time.perf_counter())

    callback = _POSTMIX(chained)
    probe._sync()
    base = probe.calls
    spinner = _Spinner(busy)
    probe._hook.probe_config(probe.channels, probe.limit, ctypes.cast(callback, ctypes.c_void_p))
    time.sleep(seconds)
    probe._hook.probe_config(probe.channels, probe.limit, None)
    spinner.stop()
    time.sleep(0.1)
    buffers = probe.snapshot()
    probe.uninstall()
    pygame.mixer.quit()
    c_times = [b.t_callback for b in buffers][-(probe.calls - base):]
    # The chain was switched on between two buffers: pair each Python stamp with the latest
    # C stamp before it.
    delays = []
    for stamp in stamps:
        before = [t for t in c_times if t <= stamp]
        if before:
            delays.append(stamp - before[-1])
    return delays


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=20, help="tones per lead")
    parser.add_argument("--busy", action="store_true", help="load the GIL from another thread")
    parser.add_argument("--backend", default="auto", choices=("auto", "c", "python"))
    parser.add_argument("--gil", action="store_true",
                        help="measure how late a Python hook is compared with the C hook")
    args = parser.parse_args(argv)
    if args.gil:
        delays = sorted(gil_delay(3.0, args.busy))
        if not delays:
            print("no buffers")
            return 1
        p95 = delays[min(len(delays) - 1, round(0.95 * (len(delays) - 1)))]
        print(f"python hook delay vs C hook over {len(delays)} buffers"
              f"{' (another thread spinning)' if args.busy else ''}: median "
              f"{statistics.median(delays) * 1000:.3f} ms, p95 {p95 * 1000:.3f} ms, "
              f"max {delays[-1] * 1000:.3f} ms")
        return 0
    return self_test(args.runs, busy=args.busy, backend=args.backend)


if __name__ == "__main__":
    sys.exit(main())
