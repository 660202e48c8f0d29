"""Draw the game's icon, a high-contrast football, into packaging/sudden-death.ico.

The ball is geometry, drawn here with the standard library alone (4 x 4 supersampled, PNG by
zlib), so anyone can run this and get the same bytes, and there is no licence question:

    python tools/make_icon.py            # writes packaging/sudden-death.ico (and a 256 px PNG)
    python tools/make_icon.py --check    # exits 1 if the committed files differ from fresh ones

A dark brown lens (two circles' overlap, as a ball seen from the side) turned 45 degrees, with
a thick white rim and white laces, on a transparent ground: the brown reads on light taskbars,
the white on dark ones. The .ico holds each size Windows asks for (16 to 256) as PNG.
"""

from __future__ import annotations

import argparse
import math
import struct
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICON = ROOT / "packaging" / "sudden-death.ico"
PREVIEW = ROOT / "packaging" / "sudden-death.png"
SIZES = (16, 24, 32, 48, 64, 128, 256)
SAMPLES = 4  # per side: 16 samples a pixel
BROWN = (0x5C, 0x30, 0x12)
WHITE = (0xFF, 0xFF, 0xFF)
TURN = math.radians(45)
# The lens: two circles of radius RADIUS whose centres are OFFSET either side of the middle
# (in units of the icon's half-width); the ball's long axis is then 2 * sqrt(R^2 - O^2).
RADIUS, OFFSET = 1.55, 1.0
RIM = 0.09  # the white rim's width
LACE = 0.045  # half the width of a lace


def _paint(x: float, y: float) -> tuple[tuple[int, int, int], float] | None:
    """The colour at (x, y) in [-1, 1]^2 (y down), and its coverage; None outside the ball."""
    # Into the ball's frame: u along its long axis, v across it.
    u = x * math.cos(TURN) + y * math.sin(TURN)
    v = -x * math.sin(TURN) + y * math.cos(TURN)
    inside = min(RADIUS - math.hypot(u, v - OFFSET), RADIUS - math.hypot(u, v + OFFSET))
    if inside < 0:
        return None
    if inside < RIM:
        return WHITE, 1.0
    on_seam = abs(v) < LACE and abs(u) < 0.42
    on_lace = any(abs(u - at) < LACE and abs(v) < 0.16 for at in (-0.3, -0.1, 0.1, 0.3))
    return (WHITE if on_seam or on_lace else BROWN), 1.0


def render(size: int) -> bytes:
    """The icon at `size` pixels square, as RGBA rows."""
    rows = bytearray()
    step = 2.0 / (size * SAMPLES)
    for py in range(size):
        rows.append(0)  # PNG filter type: none
        for px in range(size):
            red = green = blue = alpha = 0.0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = -1 + (px * SAMPLES + sx + 0.5) * step
                    y = -1 + (py * SAMPLES + sy + 0.5) * step
                    found = _paint(x, y)
                    if found is not None:
                        colour, cover = found
                        red += colour[0] * cover
                        green += colour[1] * cover
                        blue += colour[2] * cover
                        alpha += cover
            if alpha:
                rows += bytes((round(red / alpha), round(green / alpha), round(blue / alpha),
                               round(255 * alpha / SAMPLES**2)))
            else:
                rows += b"\0\0\0\0"
    return bytes(rows)


def png(size: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(render(size), 9)) + chunk(b"IEND", b""))


def ico(images: dict[int, bytes]) -> bytes:
    """An .ico of PNG images (Windows Vista and later read PNG entries of any size)."""
    out = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    blobs = b""
    for size, data in images.items():
        side = 0 if size >= 256 else size  # 0 means 256
        out += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(data), offset + len(blobs))
        blobs += data
    return out + blobs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    images = {size: png(size) for size in SIZES}
    wanted = {ICON: ico(images), PREVIEW: images[256]}
    if args.check:
        stale = [path.name for path, data in wanted.items()
                 if not path.is_file() or path.read_bytes() != data]
        if stale:
            print("out of date: " + ", ".join(stale), file=sys.stderr)
            return 1
        return 0
    for path, data in wanted.items():
        path.write_bytes(data)
        print(f"{path.relative_to(ROOT)}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
