"""No file outside the page's folder is ever served, whatever its type (issue 71, Deliver 8):
the earlier path tests asked only for names the site never serves (.toml, .py), so a site that
served a .json, .html, .js, .css, .svg or (under /sounds/) .wav file by a `../` path passed
them. Here a Site is made on a temporary folder with a file of every served type planted one
level up from its page folder and from its sounds folder, and each is asked for, through a
real server and raw sockets, by every traversal form a path can take (../, %2e%2e, ..%2f,
double-encoded, backslashes, absolute paths). Each must be 404 and never the planted bytes.

The same probe run against a deliberately broken Site (`JoiningSite`, which joins the path
to its folder as a careless server would) finds a planted file of every type: the probe can
fail, and fails for each type on its own.
"""

from __future__ import annotations

import os
from http import HTTPStatus
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from raw_http import answers, exchange, request
from server_lab import run, server
from websockets.http11 import Request, Response

from sudden_death.server.lines.limits import Limits
from sudden_death.web.site import SOUNDS_PATH, TYPES, WAV, CueFiles, Site, response

SERVED = tuple(TYPES)  # the cues' .wav among them


class JoiningSite(Site):
    """A broken site: a path not in its table is joined to its folder (decoded twice,
    backslashes as slashes) and served when a file is there."""

    def answer(self, line: object, request: Request) -> Response | None:
        path = unquote(unquote(urlsplit(request.path).path)).replace("\\", "/")
        folder = self.folder
        if path.startswith(SOUNDS_PATH) and self.cues.folder is not None:
            folder, path = self.cues.folder, path.removeprefix(SOUNDS_PATH[:-1])
        found = folder / path[1:]  # an absolute rest ("//tmp/x") replaces the folder
        if found.suffix in SERVED and found.is_file():
            return response(HTTPStatus.OK, found.read_bytes(), TYPES.get(found.suffix, WAV))
        return super().answer(line, request)


def planted_site(root: Path, kind: type[Site] = Site) -> tuple[Site, dict[str, bytes]]:
    """A site on `root`/page with its sounds in `root`/page/sounds, its own files of each type
    there, and a secret file of each served type in `root` and in `root`/page (beside the
    sounds folder): {path from root: its bytes}."""
    page, sounds = root / "page", root / "page" / "sounds"
    sounds.mkdir(parents=True)
    for suffix in TYPES:
        (page / f"own{suffix}").write_bytes(b"own page file")
    (page / "index.html").write_bytes(b"<!doctype html><title>own</title>")
    (sounds / "cue.wav").write_bytes(b"RIFF own cue")
    planted = {}
    for folder in (root, page):
        for suffix in SERVED:
            if folder == page:
                continue  # the page's own folder (a build's too): its files are served
            secret = f"secret{suffix}"
            data = f"PLANTED {suffix} {os.urandom(8).hex()}".encode()
            (folder / secret).write_bytes(data)
            planted[str((folder / secret).relative_to(root))] = data
    return kind(folder=page, cues=CueFiles(folder=sounds)), planted


def forms(root: Path, relative: str) -> list[str]:
    """Request targets that, decoded or joined carelessly, reach `root`/`relative` from the
    page folder or from the sounds folder."""
    name = Path(relative).name
    up = "" if "/" in relative else "../"  # a file in root is one level above the page
    ups = [f"{up}{name}", f"../{up}{name}"]
    found = []
    for base in ("/", SOUNDS_PATH):
        for rest in ups:
            dotted = rest.split("/")
            found += [
                base + rest,
                base + rest.replace("..", "%2e%2e"),
                base + rest.replace("..", "%2E%2E"),
                base + rest.replace("..", ".%2e"),
                base + rest.replace("../", "..%2f"),
                base + rest.replace("../", "..%2F"),
                base + rest.replace("../", "%2e%2e%2f"),
                base + rest.replace("../", "%252e%252e%252f"),
                base + rest.replace("../", "..%252f"),
                base + rest.replace("/", "\\"),
                base + rest.replace("../", "..%5c"),
                base + rest.replace("../", "..%255c"),
                base + "./" + rest,
                base + "/".join(dotted),
                base + rest.replace("../", "....//"),
                base + rest.replace("../", "..;/"),
                base + quote(rest, safe=""),
            ]
    absolute = str(root / relative)
    found += ["/" + absolute, "/" + quote(absolute, safe=""), SOUNDS_PATH[:-1] + absolute,
              absolute, "http://x" + absolute, f"file://{absolute}",
              "/" + absolute.replace("/", "\\"), "/%2f" + quote(absolute.lstrip("/"), safe="")]
    return found


async def leaks(where: tuple[str, int], root: Path, planted: dict[str, bytes]) -> set[str]:
    """The planted files (by type) some form reached: answered other than 404, or with their
    bytes anywhere in the answer."""
    reached = set()
    for relative, data in planted.items():
        for target in forms(root, relative):
            got = await exchange(where, request("GET", target))
            statuses = [status for status, _, _ in answers(got)]
            if data in got or statuses != [404]:
                reached.add(Path(relative).suffix)
    return reached


async def probe(root: Path, kind: type[Site]) -> set[str]:
    site, planted = planted_site(root, kind)
    async with server(site=site, limits=Limits(connects_per_s=100_000,
                                               connect_burst=100_000)) as lab:
        host, port = lab.url.removeprefix("ws://").rsplit(":", 1)
        where = (host, int(port))
        for path, data in (("/own.json", b"own page file"), ("/", b"<title>own"),
                           ("/sounds/cue.wav", b"RIFF own cue")):
            (status, _, body), = answers(await exchange(where, request("GET", path)))
            assert status == 200 and data in body, path  # the site serves its own
        return await leaks(where, root, planted)


def test_no_file_of_any_type_served_is_reached_outside_the_page_folder(tmp_path: Path) -> None:
    assert run(lambda: probe(tmp_path, Site)) == set()


def test_the_probe_finds_every_type_a_site_that_joins_paths_would_leak(tmp_path: Path) -> None:
    assert run(lambda: probe(tmp_path, JoiningSite)) == set(SERVED)
