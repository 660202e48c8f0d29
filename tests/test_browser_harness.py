"""The real-browser harness (tests/browser.py) works: Debian's Chromium opens a small page of
our own served over HTTP on 127.0.0.1, is moved by the keyboard alone, and is read back as a
screen reader reads it (roles, names, states, a live region's words); a screenshot at 320 CSS
pixels wide is a 320-pixel PNG with nothing scrolled off to the side.

Chromium is needed: CI sets SUDDEN_DEATH_REQUIRE_CHROMIUM=1 (tests/browser.py then installs it
with apt and a missing one fails); elsewhere these tests skip without it.
"""

from __future__ import annotations

import struct
import sys
import tempfile
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import browser
import pytest
from browser import (
    REQUIRE_ENV,
    AriaNode,
    accessible_tree,
    aria_snapshot,
    browser_page,
    browser_processes,
    focused,
    parse_aria_snapshot,
    require_chromium,
    roles,
    walk,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="Debian's Chromium is Linux's")

# A heading, a labelled checkbox and a button that writes into a polite live region: what a
# page of the table server will be made of, small enough to check by hand.
PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Harness check</title>
<style>body { font: 18px sans-serif; margin: 1em; } p, label { overflow-wrap: anywhere; }</style>
</head>
<body>
<main>
<h2>Before the kick-off</h2>
<p><label><input type="checkbox" id="mute"> Mute the crowd</label></p>
<p><button type="button" id="say">Say the score</button></p>
<p id="said" role="status" aria-live="polite">Nothing said yet.</p>
</main>
<script>
document.getElementById("say").addEventListener("click", () => {
  const muted = document.getElementById("mute").checked;
  document.getElementById("said").textContent =
    muted ? "Home 7, Away 3. The crowd is muted." : "Home 7, Away 3.";
});
</script>
</body>
</html>
"""


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """No access log on the test's stderr."""


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    """PAGE served from a temporary folder by http.server on 127.0.0.1 in a thread (the
    browser is driven from the test's own thread); yields the page's URL."""
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "index.html").write_text(PAGE, encoding="utf-8")
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 partial(_QuietHandler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, name="test-http", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's header, which must be a PNG's."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.timeout(120)
def test_a_page_is_used_by_keyboard_and_read_as_a_screen_reader_reads_it(site: str) -> None:
    with browser_page() as page:
        page.goto(site)
        assert page.title() == "Harness check"
        assert roles(page) == [
            ("main", ""),
            ("heading", "Before the kick-off"),
            ("paragraph", ""),
            ("checkbox", "Mute the crowd"),
            ("paragraph", ""),
            ("button", "Say the score"),
            ("status", ""),
        ], aria_snapshot(page)
        heading = next(node for node in walk(accessible_tree(page)) if node.role == "heading")
        assert heading.states == {"level": "2"}
        status = page.get_by_role("status")
        expect(status).to_have_text("Nothing said yet.")

        assert focused(page) is None  # nothing has the focus before the first Tab
        page.keyboard.press("Tab")
        assert focused(page) == AriaNode("checkbox", "Mute the crowd")
        page.keyboard.press("Space")
        assert focused(page) == AriaNode("checkbox", "Mute the crowd", {"checked": "true"})
        expect(page.get_by_role("checkbox", name="Mute the crowd")).to_be_checked()

        page.keyboard.press("Tab")
        assert focused(page) == AriaNode("button", "Say the score")
        page.keyboard.press("Enter")
        expect(status).to_have_text("Home 7, Away 3. The crowd is muted.")
        said = next(node for node in walk(accessible_tree(page)) if node.role == "status")
        assert said.text == "Home 7, Away 3. The crowd is muted."
        assert page.get_by_role("status").get_attribute("aria-live") == "polite"

        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Space")  # unchecked again
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        expect(status).to_have_text("Home 7, Away 3.")


@pytest.mark.timeout(120)
def test_a_screenshot_at_320_pixels_is_a_320_pixel_png_with_nothing_off_the_side(
        site: str, tmp_path: Path) -> None:
    shot = tmp_path / "narrow.png"
    with browser_page(320, 640) as page:
        page.goto(site)
        expect(page.get_by_role("button", name="Say the score")).to_be_visible()
        # WCAG 1.4.10 (reflow): at 320 CSS pixels nothing needs scrolling sideways.
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
        page.screenshot(path=shot)
    assert png_size(shot) == (320, 640)


@pytest.mark.timeout(120)
def test_no_browser_process_outlives_its_page(site: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The browser's processes are found while it runs (so the check after can see them),
    and none is left, nor its temporary folder, once the page is closed."""
    temporary = tmp_path / "temporary"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))  # where the harness makes its own
    with browser_page() as page:
        page.goto(site)
        [folder] = temporary.iterdir()
        profile = folder / "profile"
        assert profile.is_dir()
        assert browser_processes(profile), "the running browser's processes were not found"
    assert browser_processes(profile) == []
    assert not folder.exists()


def test_without_chromium_the_tests_skip_and_say_how_to_get_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Unless CI asks for Chromium, a missing one skips (no apt run) with a reason that names
    the binary, the package and the variable."""
    missing = tmp_path / "no-chromium-here"
    for value in (None, "0"):
        if value is None:
            monkeypatch.delenv(REQUIRE_ENV, raising=False)
        else:
            monkeypatch.setenv(REQUIRE_ENV, value)
        with pytest.raises(pytest.skip.Exception) as skipped:
            require_chromium(missing)
        reason = str(skipped.value)
        assert str(missing) in reason
        assert "chromium package" in reason
        assert f"{REQUIRE_ENV}=1" in reason


def test_when_ci_requires_chromium_a_missing_one_fails_after_asking_apt(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With SUDDEN_DEATH_REQUIRE_CHROMIUM=1 the package is asked of apt (stubbed here: the
    real install is what CI does) and a browser still missing fails the test, never skips."""
    missing = tmp_path / "no-chromium-here"
    asked: list[tuple[tuple[str, ...], str]] = []

    def apt(packages: tuple[str, ...], require_env: str, present: object) -> bool:
        asked.append((packages, require_env))
        return False

    monkeypatch.setenv(REQUIRE_ENV, "1")
    monkeypatch.setattr(browser, "ensure_packages", apt)
    with pytest.raises(pytest.fail.Exception) as failed:
        require_chromium(missing)
    assert asked == [(("chromium",), REQUIRE_ENV)]
    assert REQUIRE_ENV in str(failed.value) and str(missing) in str(failed.value)


def test_the_snapshot_reader_keeps_names_with_quotes_and_colons() -> None:
    """Names YAML has to quote (a colon and a space), JSON escapes, states, properties and
    nesting, as Playwright writes them."""
    snapshot = "\n".join([
        "- 'heading \"Game: settings\" [level=2]'",
        '- checkbox "Mute \\"sounds\\" it\'s" [checked]',
        "- text: Mute \"sounds\" it's",
        "- 'link \"Link: one\"':",
        "  - /url: /x",
        '- paragraph: "Some text: here"',
        '- list "Links":',
        "  - listitem: one",
        "  - 'listitem \"It''s: two\"'",
        '- checkbox "Half" [checked=mixed] [disabled]',
    ])
    tree = parse_aria_snapshot(snapshot)
    assert [(node.role, node.name) for node in walk(tree)] == [
        ("heading", "Game: settings"), ("checkbox", 'Mute "sounds" it\'s'),
        ("text", ""), ("link", "Link: one"), ("paragraph", ""), ("list", "Links"),
        ("listitem", ""), ("listitem", "It's: two"), ("checkbox", "Half")]
    assert tree[0].states == {"level": "2"}
    assert tree[1].states == {"checked": "true"}
    assert tree[2].text == "Mute \"sounds\" it's"
    assert tree[3].properties == {"url": "/x"} and tree[3].children == []
    assert tree[4].text == "Some text: here"
    assert [child.text for child in tree[5].children] == ["one", ""]
    assert tree[6].states == {"checked": "mixed", "disabled": "true"}
