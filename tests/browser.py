"""A real browser for the tests of pages the table server serves: Debian's Chromium
(/usr/bin/chromium), driven through Playwright's Python package, and read the way a screen
reader reads it (roles, names and states from Chromium's accessibility tree).

Playwright never downloads a browser here: `browser_page` launches the system's Chromium with
`executable_path`, and nothing in the tests runs `playwright install`. The Debian package
`chromium` comes from apt only when SUDDEN_DEATH_REQUIRE_CHROMIUM is set (CI, as root); then a
missing browser fails the test. Elsewhere the tests that need it skip and say why, so a
developer's machine is never changed behind their back.

Each `browser_page` is its own Chromium process with its own temporary profile, so two
pytest-xdist workers never share one; the browser is closed on the way out whatever the test
did, and any process of it still running after that is killed and reported.

Playwright's sync API refuses to run inside a running asyncio event loop (it runs its own on a
greenlet). A test that also needs an asyncio server (the table server) runs that server in a
thread of its own or in a subprocess, and drives the browser from the test's own thread.
"""

from __future__ import annotations

import json
import os
import re
import signal
import tempfile
import time
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pytest
from apt_install import ensure_packages, install_requested
from playwright.sync_api import Page, sync_playwright

REQUIRE_ENV = "SUDDEN_DEATH_REQUIRE_CHROMIUM"
CHROMIUM = Path("/usr/bin/chromium")  # Debian's launcher: it reads /etc/chromium.d, then execs
PACKAGES = ("chromium",)
# Playwright passes most of these itself today; they are listed so that the harness does not
# depend on its defaults. Without the network ones Chromium keeps calling Google's services,
# which on a closed network (this machine's, CI's) is a stream of refused connections.
CHROMIUM_ARGS = (
    "--no-sandbox",  # CI runs as root, and Chromium's sandbox refuses root
    "--disable-gpu",  # no GPU on the test machines: software drawing, the same on each
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-breakpad",
)
# A page that does not answer fails its test in this time rather than Playwright's 30 s.
ACTION_TIMEOUT_MS = 15_000
# How long the browser's processes get to go after it is closed before they are killed.
EXIT_GRACE = 5.0


def _runnable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def ensure_chromium(path: Path = CHROMIUM) -> Path | None:
    """The Chromium binary, installing Debian's `chromium` with apt first when
    SUDDEN_DEATH_REQUIRE_CHROMIUM is set (and not "0") and we run as root; None when it is
    still missing."""
    ensure_packages(PACKAGES, REQUIRE_ENV, lambda: _runnable(path))
    return path if _runnable(path) else None


def require_chromium(path: Path = CHROMIUM) -> Path:
    """The Chromium binary; skip the calling test without it, or fail when CI requires it."""
    binary = ensure_chromium(path)
    if binary is None:
        if install_requested(REQUIRE_ENV):
            pytest.fail(f"Chromium is required ({REQUIRE_ENV}) but {path} is still missing "
                        "after apt-get install chromium (apt needs root)")
        pytest.skip(f"Chromium is not installed: no {path} (Debian's chromium package; "
                    f"{REQUIRE_ENV}=1 installs it with apt as root)")
    return binary


def browser_processes(profile: Path) -> list[int]:
    """The live processes of the browser started with this profile: every Chromium process
    (browser, zygotes, renderers, GPU and utility processes) carries its --user-data-dir."""
    marker = f"--user-data-dir={profile}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            arguments = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue  # gone meanwhile, or not ours to read
        if marker in arguments and state not in ("Z", "X"):  # a zombie is already dead
            found.append(int(entry.name))
    return found


def _stop_leftovers(profile: Path) -> list[int]:
    """Wait a moment for the browser's processes to go; kill those that do not, and return
    them."""
    deadline = time.monotonic() + EXIT_GRACE
    while (left := browser_processes(profile)) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in left:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return left


@contextmanager
def browser_page(width: int = 1280, height: int = 800, *, executable: Path | None = None,
                 folder: Path | None = None,
                 service_workers: Literal["allow", "block"] = "allow") -> Iterator[Page]:
    """A page of a fresh headless Chromium whose viewport is `width` by `height` CSS pixels at
    one device pixel each (so a screenshot is that many pixels), closed on the way out.

    The browser comes from `launch_persistent_context` on a profile in a temporary folder of
    ours rather than from `launch`, whose profile Playwright makes where it likes: ours holds
    the profile and Chromium's other files (XDG_CONFIG_HOME, XDG_CACHE_HOME: the crash
    database, caches), is deleted even if the browser dies, and names the browser's processes
    (their --user-data-dir) so that none can outlive the test. Skips or fails as
    `require_chromium` says when there is no Chromium.

    `folder`: those files in this folder instead, kept after: a browser opened again on the
    same folder is the same browser started again, its caches and service workers kept
    (benchmarks/web_load.py: a page opened a second time)."""
    binary = require_chromium() if executable is None else executable
    with ExitStack() as temporary:
        if folder is None:
            folder = Path(temporary.enter_context(tempfile.TemporaryDirectory(
                prefix="sudden-death-chromium-", ignore_cleanup_errors=True)))
        profile = Path(folder, "profile")
        env: dict[str, str | float | bool] = {
            **os.environ, "XDG_CONFIG_HOME": str(Path(folder, "config")),
            "XDG_CACHE_HOME": str(Path(folder, "cache"))}
        try:
            with sync_playwright() as playwright:
                context = playwright.chromium.launch_persistent_context(
                    profile,
                    executable_path=binary,
                    headless=True,
                    args=list(CHROMIUM_ARGS),
                    env=env,
                    viewport={"width": width, "height": height},
                    device_scale_factor=1,
                    locale="en-US",
                    service_workers=service_workers,
                    timeout=60_000,  # starting: a cold start on a busy CI machine
                )
                try:
                    page = context.pages[0] if context.pages else context.new_page()
                    page.set_default_timeout(ACTION_TIMEOUT_MS)
                    yield page
                finally:
                    context.close()
        finally:
            left = _stop_leftovers(profile)
        if left:
            raise RuntimeError(f"Chromium left {len(left)} processes running after it was "
                               f"closed (killed): {left}")


@dataclass
class AriaNode:
    """One node of the accessibility tree: its role ("text" for plain text), accessible name,
    states such as {"checked": "true", "level": "2"}, the text it holds when it has no
    children, properties such as {"url": "/"}, and its children."""

    role: str
    name: str = ""
    states: dict[str, str] = field(default_factory=dict)
    text: str = ""
    properties: dict[str, str] = field(default_factory=dict)
    children: list[AriaNode] = field(default_factory=list)


_ITEM = re.compile(r"(?P<indent> *)- (?P<rest>.*)")
_ROLE = re.compile(r"/?[A-Za-z][\w-]*")
_DECODER = json.JSONDecoder()


def _single_quoted(text: str) -> tuple[str, str]:
    """A YAML single-quoted scalar at the start of `text` (quotes doubled inside), and what
    follows it."""
    end = 1
    while True:
        end = text.index("'", end)
        if text.startswith("''", end):
            end += 2
            continue
        return text[1:end].replace("''", "'"), text[end + 1:]


def _scalar(text: str) -> str:
    text = text.strip()
    if text.startswith('"'):
        return str(json.loads(text))
    if text.startswith("'"):
        return _single_quoted(text)[0]
    return text


def _parse_key(key: str) -> tuple[str, str, dict[str, str]]:
    """`heading "Rules" [level=2]` as its role, name and states."""
    match = _ROLE.match(key)
    if match is None:
        raise ValueError(f"not a role in the accessibility snapshot: {key!r}")
    role, position = match.group(), match.end()
    name = ""
    if key.startswith(' "', position):
        name, position = _DECODER.raw_decode(key, position + 1)
    states = {}
    while key.startswith(" [", position):
        close = key.index("]", position)
        state, _, value = key[position + 2:close].partition("=")
        states[state] = value or "true"
        position = close + 1
    if key[position:].strip():
        raise ValueError(f"unexpected {key[position:]!r} in the accessibility snapshot")
    return role, str(name), states


def parse_aria_snapshot(snapshot: str) -> list[AriaNode]:
    """Playwright's ARIA snapshot (YAML: `- role "name" [state]: text`, children indented
    under their parent, `- /url: ...` lines for properties) as a tree of AriaNode."""
    top: list[AriaNode] = []
    open_nodes: list[tuple[int, AriaNode]] = []  # the nodes that may still get children
    for line in snapshot.splitlines():
        match = _ITEM.fullmatch(line)
        if match is None:
            if line.strip():
                raise ValueError(f"unexpected line in the accessibility snapshot: {line!r}")
            continue
        indent, rest = len(match["indent"]), match["rest"]
        if rest.startswith("'"):
            key, tail = _single_quoted(rest)
        else:
            # An unquoted key holds no ": " (YAML would have quoted it), but its name may
            # hold a colon: the key ends at the first ":" outside the quoted name.
            role_match = _ROLE.match(rest)
            name_end = role_match.end() if role_match else 0
            if rest.startswith(' "', name_end):
                name_end = _DECODER.raw_decode(rest, name_end + 1)[1]
            colon = rest.find(":", name_end)
            key, tail = (rest, "") if colon < 0 else (rest[:colon], rest[colon:])
        value = _scalar(tail.removeprefix(":"))
        while open_nodes and open_nodes[-1][0] >= indent:
            open_nodes.pop()
        parent = open_nodes[-1][1] if open_nodes else None
        if key.startswith("/"):  # a property of the enclosing node, such as a link's /url
            if parent is not None:
                parent.properties[key[1:]] = value
            continue
        role, name, states = _parse_key(key)
        node = AriaNode(role, name, states, value)
        (parent.children if parent is not None else top).append(node)
        open_nodes.append((indent, node))
    return top


def aria_snapshot(page: Page, selector: str = "body") -> str:
    """Chromium's accessibility tree under `selector`, as Playwright's YAML ARIA snapshot:
    what a screen reader is given, without the layout (good for failure messages)."""
    return page.locator(selector).aria_snapshot()


def accessible_tree(page: Page, selector: str = "body") -> list[AriaNode]:
    """The accessibility tree under `selector` as a screen reader sees it: roles, accessible
    names, states and text, parsed from `aria_snapshot` (Playwright removed the older
    `page.accessibility.snapshot()`)."""
    return parse_aria_snapshot(aria_snapshot(page, selector))


def walk(nodes: Iterable[AriaNode]) -> Iterator[AriaNode]:
    """Every node, in document order (the order a screen reader reads them)."""
    for node in nodes:
        yield node
        yield from walk(node.children)


def roles(page: Page, selector: str = "body") -> list[tuple[str, str]]:
    """(role, accessible name) of every element with a role, in reading order; plain text,
    which has no role, is left out."""
    return [(node.role, node.name) for node in walk(accessible_tree(page, selector))
            if node.role != "text"]


def focused(page: Page) -> AriaNode | None:
    """The element with the keyboard focus, as a screen reader announces it (role, name,
    states); None when nothing on the page has it."""
    element = page.locator(":focus")
    if element.count() == 0:
        return None
    nodes = parse_aria_snapshot(element.aria_snapshot())
    return nodes[0] if nodes else None


def complaints(page: Page) -> list[str]:
    """The console's errors and the page's uncaught ones, from now on: a page test ends
    with this empty (the policy refused nothing the page needs, and no script failed)."""
    found: list[str] = []
    page.on("console", lambda message: found.append(message.text)
            if message.type == "error" else None)
    page.on("pageerror", lambda error: found.append(str(error)))
    return found
