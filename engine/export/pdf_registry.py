"""Where ``tripwright export --pdf`` finds its renderer (engine/cli/verify_cmd.py asks here).

The engine never imports Qt, and a PDF with the trip's map needs QtWebEngine. The desktop layer
registers a renderer here (``app/entry.py``, lazily: nothing Qt is loaded unless ``--pdf`` is
given); run without it (``python -m engine.cli``), ``--pdf`` says the desktop app is needed.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.errors import InputError
from engine.models import ItineraryV1

PdfRenderer = Callable[[ItineraryV1], bytes]
_renderer: PdfRenderer | None = None


def register_pdf_renderer(renderer: PdfRenderer | None) -> None:
    global _renderer
    _renderer = renderer


def pdf_renderer() -> PdfRenderer:
    """The registered renderer, or an ``InputError`` naming ``--pdf`` (checked before any work)."""
    if _renderer is None:
        raise InputError("--pdf", "PDF export needs the desktop app (run it as `tripwright export`)")
    return _renderer
