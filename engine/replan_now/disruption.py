"""The one thing that changed, as the traveller says it: the kinds of "Something changed" and
their values, read and checked once for the CLI, the app and the eval suite.

``late`` MINUTES (the next flight arrives late), ``closed`` PLACE (closed today, from now),
``rain_from`` HH:MM (outdoor visits after it), ``done_for_today``, ``skip`` PLACE, ``at``
LAT,LON (start from a point), ``bookings`` FILE (a confirmation imported mid-trip).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import time

from engine.errors import InputError

KINDS = ("late", "closed", "rain_from", "done_for_today", "skip", "at", "bookings")
MAX_LATE_MINUTES = 24 * 60
WORDS = {"late": "a delay", "closed": "a closure", "rain_from": "rain", "done_for_today": "done for today",
         "skip": "skip a place", "at": "start from a point", "bookings": "a new booking"}


@dataclass(frozen=True)
class Disruption:
    kind: str
    minutes: int = 0  # late
    place: str = ""  # closed, skip
    rain_from: time | None = None  # rain_from
    lat: float = 0.0  # at
    lon: float = 0.0
    path: str = ""  # bookings

    def words(self) -> str:
        """What happened, in a line: "the flight lands 240 min late"."""
        return {"late": f"{self.minutes} min late", "closed": f"{self.place} closed",
                "rain_from": f"rain from {self.rain_from:%H:%M}" if self.rain_from else "rain",
                "done_for_today": "done for today", "skip": f"skip {self.place}",
                "at": f"at {self.lat:.5f},{self.lon:.5f}", "bookings": "new booking"}[self.kind]


def parse_disruption(kind: str, value: str | int | None, *, field: str | None = None) -> Disruption:
    """``kind`` with its value as typed (a string from the CLI or a dialog; an int for ``late``);
    an ``InputError`` naming ``field`` (default ``--kind``) in the traveller's words."""
    name = field or "--" + kind.replace("_", "-")
    if kind not in KINDS:
        raise InputError("disruption", f"unknown change {kind!r}; one of: {', '.join(KINDS)}")
    text = "" if value is None else str(value).strip()
    if kind == "done_for_today":
        return Disruption(kind)
    if not text:
        raise InputError(name, f"{WORDS[kind]} needs a value")
    if kind == "late":
        if not re.fullmatch(r"\d{1,5}", text) or not 1 <= int(text) <= MAX_LATE_MINUTES:
            raise InputError(name, f"minutes late: a whole number from 1 to {MAX_LATE_MINUTES}, got {text!r}")
        return Disruption(kind, minutes=int(text))
    if kind in ("closed", "skip"):
        if len(text) > 200:
            raise InputError(name, "a place's name is at most 200 characters")
        return Disruption(kind, place=text)
    if kind == "rain_from":
        found = re.fullmatch(r"([01]?\d|2[0-3]):([0-5]\d)", text)
        if not found:
            raise InputError(name, f"a time of day as HH:MM (e.g. 14:00), got {text!r}")
        return Disruption(kind, rain_from=time(int(found[1]), int(found[2])))
    if kind == "at":
        found = re.fullmatch(r"\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*", text)
        if not found or not (-90 <= float(found[1]) <= 90 and -180 <= float(found[2]) <= 180):
            raise InputError(name, f"a point as LAT,LON in degrees (e.g. 48.8606,2.3376), got {text!r}")
        return Disruption(kind, lat=float(found[1]), lon=float(found[2]))
    return Disruption(kind, path=text)


__all__ = ["KINDS", "Disruption", "parse_disruption"]
