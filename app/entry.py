"""`tripwright` console script: command-line arguments go to the CLI, none opens the app;
`tripwright screenshot ...` renders the app offscreen (app/screenshot.py), and so does
`tripwright export ... --pdf` (app/pdf_render.py, registered with the engine's CLI here).

Imports stay inside the functions so CLI calls never load Qt.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] == "screenshot":
        from app.screenshot import main as screenshot_main

        return screenshot_main(args[1:])
    if args:
        return _run_cli(args)
    from app.desktop_libs import applies, check, xcb_plugin

    if applies() and check(xcb_plugin()) != 0:
        return 1  # the install command is printed; Qt would abort naming the wrong library
    from app.gui import run_gui

    return run_gui()


def _run_cli(args: list[str]) -> int:
    try:
        from engine.cli import main as cli_main
    except ImportError as exc:
        # Only a missing engine.cli is "not available"; a broken import inside it is a bug.
        if exc.name not in ("engine", "engine.cli"):
            raise
        print("tripwright: command line not available", file=sys.stderr)
        return 2
    if "export" in args:
        _register_pdf_renderer()
    return int(cli_main(args) or 0)


def _register_pdf_renderer() -> None:
    """``export --pdf`` draws the trip's map with QtWebEngine, which the engine may not import."""
    from engine.export.pdf_registry import register_pdf_renderer

    def render(itinerary) -> bytes:
        from app.pdf_render import itinerary_pdf_offscreen

        return itinerary_pdf_offscreen(itinerary)

    register_pdf_renderer(render)
