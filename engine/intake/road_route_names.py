"""Named routes in a road-trip prompt: the known one it names ("Route 66", "the PCH"), or the
route-like phrase it names that is not known (an input error listing the known routes)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from .prompt_text import Scan
from .road_words import (IGNORECASE, ROUTEISH, VIA, PHRASE_STOP, NAMED_ROAD)


def find_route_name(scan: Scan, routes: Mapping[str, Sequence[str]]) -> tuple[str | None,
                                                                           str | None]:
    """(canonical route, problem): every alias mention is blanked; two different routes is
    a problem (an intent follows one named route)."""
    hits = route_hits(scan.text, routes)
    for start, end, _ in hits:
        scan.blank(start, end)
    names = []
    for _, _, canonical in sorted(hits):
        if canonical not in names:
            names.append(canonical)
    if len(names) > 1:
        return names[0], (f"the prompt names several routes ({', '.join(names)}); "
                          "a road trip follows one")
    return (names[0] if names else None), None


def route_hits(text: str, routes: Mapping[str, Sequence[str]]) -> list[tuple[int, int, str]]:
    hits = []
    for canonical, aliases in routes.items():
        for alias in {canonical, *aliases}:
            words = [w for w in re.split(r"[\s-]+", alias.strip()) if w]
            if not words:
                continue
            pattern = r"(?<!\w)" + r"[\s-]*".join(map(re.escape, words)) + r"(?!\w)"
            hits += [(m.start(), m.end(), canonical) for m in re.finditer(pattern, text, IGNORECASE)]
    return [h for h in hits
            if not any(o[0] <= h[0] and h[1] <= o[1] and o[1] - o[0] > h[1] - h[0] for o in hits)]


def known_routes(routes: Mapping[str, Sequence[str]]) -> str:
    return ", ".join(sorted(routes)) or "(none configured)"


def unknown_route(scan: Scan, routes: Mapping[str, Sequence[str]]) -> str | None:
    """A road-shaped name the route table does not know ("via I-80", "take the Lincoln
    Highway"); "via Tulsa" is a stop and is left for the place rules."""
    text = scan.text
    for cue in VIA.finditer(text):
        rest = text[cue.end():]
        cut = PHRASE_STOP.search(rest)
        phrase = rest[:cut.start() if cut else len(rest)].strip()
        phrase = re.sub(r"^the\s+", "", phrase, flags=IGNORECASE)
        if phrase and ROUTEISH.search(phrase):
            return _unknown(phrase, routes)
    named = NAMED_ROAD.search(text)
    if named is not None:
        return _unknown(named["x"], routes)
    return None


def _unknown(phrase: str, routes: Mapping[str, Sequence[str]]) -> str:
    phrase = " ".join(phrase.split())
    if len(phrase) > 60:
        phrase = phrase[:57] + "..."
    return f"unknown route {phrase!r}; known routes: {known_routes(routes)}"
