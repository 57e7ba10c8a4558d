"""``tripwright screenshot --out FILE.png [--trip city|road] [--size WxH]``: the main window,
rendered offscreen with a demo trip planned, saved once the map has painted.

Exit codes: 0 written, 1 the demo failed to plan or render, 2 bad arguments (one line).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

EXIT_OK, EXIT_FAILED, EXIT_INPUT = 0, 1, 2
PAINT_SETTLE_S = 0.3  # a grab right after the markers appear can miss the last paint
TILES_TIMEOUT_S = 10.0  # the street tiles of the view, when the street map shows
WELCOME_SETTLE_S = 0.6


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2
        print(f"tripwright screenshot: {message}", file=sys.stderr)
        raise SystemExit(EXIT_INPUT)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(p) for p in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT, got {text!r}") from None
    if not (400 <= w <= 4000 and 300 <= h <= 3000):
        raise argparse.ArgumentTypeError(f"{text} is outside 400x300..4000x3000")
    return w, h


def parse(argv: list[str]) -> argparse.Namespace:
    parser = _Parser(prog="tripwright screenshot", description="Save a screenshot of the main window.")
    parser.add_argument("--out", required=True, help="PNG file to write")
    parser.add_argument("--trip", choices=("city", "road", "none"), default="city",
                        help="demo trip to plan first (none: the first-launch welcome)")
    parser.add_argument("--size", type=_size, default=(1400, 900), help="window size, e.g. 1400x900")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    try:
        args = parse(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    out = Path(args.out).expanduser().absolute()
    if out.suffix.lower() != ".png":
        print(f"tripwright screenshot: --out must be a .png file, got {out.name!r}", file=sys.stderr)
        return EXIT_INPUT
    if not out.parent.is_dir() or not os.access(out.parent, os.W_OK):
        print(f"tripwright screenshot: cannot write {out}: folder {out.parent} does not exist or is not writable",
              file=sys.stderr)
        return EXIT_INPUT
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from app.gui import run_gui

    return run_gui(lambda window: _shoot(window, args.trip, out), size=args.size)


async def _shoot(window, trip: str, out: Path) -> int:
    from app.map_probe import street_tiles_settled, wait_for_markers

    await _until(lambda: window.map_view.is_ready, 30.0)
    if trip == "none":
        await asyncio.sleep(WELCOME_SETTLE_S)  # the basemap paints after the page says ready
        return _save(window, out)
    window.open_example(trip)
    await _until(lambda: window.trip.current is not None or window.message_bar.text(), 60.0)
    if window.trip.current is None:
        print(f"tripwright screenshot: the demo trip did not plan: {window.message_bar.text()}", file=sys.stderr)
        return EXIT_FAILED
    await wait_for_markers(window.map_view)
    await asyncio.sleep(PAINT_SETTLE_S)
    await street_tiles_settled(window.map_view, TILES_TIMEOUT_S)  # online: the street map under the trip
    return _save(window, out)


def _save(window, out: Path) -> int:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    from engine.atomic import write_atomic

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not window.grab().toImage().save(buffer, "PNG"):
        print("tripwright screenshot: could not encode the PNG", file=sys.stderr)
        return EXIT_FAILED
    buffer.close()
    write_atomic(out, bytes(data.data()))
    print(out)
    return EXIT_OK


async def _until(condition, timeout: float, poll: float = 0.05) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise TimeoutError(f"gave up after {timeout:.0f} s")
        await asyncio.sleep(poll)
