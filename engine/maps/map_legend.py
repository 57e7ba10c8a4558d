"""The map's legend as data (issue 32 §4): day colours, the marker kinds on the map, the ring
colours of the data sources, and the two marks (low confidence, locked). The renderer
(``resources/trip_map.js``) draws each entry with the same pin the map uses."""

from __future__ import annotations

from .trip_map import ALWAYS_LISTED_SOURCES, KIND_GLYPHS, KIND_TEXT, SOURCE_COLOURS, SOURCE_TEXT

MARKS = ({"what": "low", "text": "Dashed ring and !: low confidence"},
         {"what": "locked", "text": "Locked (re-plans keep it)"})


def _hint(mode: str, editable: bool) -> str:
    if not editable:
        return "Hover a stop for details (and why it is uncertain); click a row of the list to find it."
    edit = ("Right-click it to edit; drag an overnight stop to move it; click the map to add a stop."
            if mode == "road_trip" else "Right-click it to edit.")
    return "Hover a stop for details (and why it is uncertain). " + edit


def legend(mode: str, days: list[dict], markers: list[dict], corridor: dict | None, editable: bool) -> dict:
    """The legend's entries for a document's ``days``, ``markers`` and ``corridor``."""
    kinds = {m["kind"] for m in markers}
    used = {m["data_source"] for m in markers}
    return {
        "days": [{"colour": d["colour"], "label": d["label"]} for d in days],
        "corridor": f"{corridor['name']} corridor, {corridor['width_label']}" if corridor else None,
        "kinds": [{"kind": kind, "mark": KIND_GLYPHS[kind] or ("1" if kind in ("attraction", "meal") else ""),
                   "text": text} for kind, text in KIND_TEXT.items() if not kinds or kind in kinds],
        "sources": [{"source": s, "colour": SOURCE_COLOURS[s], "text": SOURCE_TEXT[s]}
                    for s in SOURCE_COLOURS if s in ALWAYS_LISTED_SOURCES or s in used],
        "marks": list(MARKS),
        "hint": _hint(mode, editable),
    }
