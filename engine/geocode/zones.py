"""The time zone at a point: timezonefinder's answer, remembered in ``<data dir>/zones-v1.json``.

Why: importing timezonefinder (numpy, its cffi kernel) and opening its polygon files is ~80 ms of a
~0.9 s ``tripwright plan`` process, while a road trip asks about the same anchor towns and stops
every time it is planned again. Answers are keyed by the exact coordinates (``repr`` of both
floats): a remembered zone is reused only for that very point, so a plan reads the same zones
with or without the file. The file is only a cache: unreadable or malformed, it is ignored and
rewritten; a failed write is ignored too.
"""

from __future__ import annotations

import json
import threading
from functools import lru_cache
from pathlib import Path

from engine.atomic import write_atomic

from .index_build import data_dir

ZONES_FILE = "zones-v1.json"
MAX_REMEMBERED = 50_000  # ~2 MB of JSON; past it new answers are still given, just not kept


@lru_cache(maxsize=1)
def _finder():
    from timezonefinder import TimezoneFinder  # lazy: only a point not seen before pays for it
    return TimezoneFinder(in_memory=False)  # polygons read on demand: less start-up, lookups as fast


class ZoneBook:
    """The zones remembered in one data dir."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._zones = self._read(path)
        self._unsaved = False

    @staticmethod
    def _read(path: Path) -> dict[str, str]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        ok = isinstance(data, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in data.items())
        return data if ok else {}

    def zone_at(self, lat: float, lon: float) -> str:
        key = f"{lat!r},{lon!r}"
        with self._lock:
            zone = self._zones.get(key)
            if zone is None:
                zone = _finder().timezone_at(lng=lon, lat=lat) or "UTC"
                if len(self._zones) < MAX_REMEMBERED:
                    self._zones[key], self._unsaved = zone, True
            return zone

    def save(self) -> None:
        with self._lock:
            if not self._unsaved:
                return
            try:
                write_atomic(self.path, json.dumps(self._zones, separators=(",", ":"), sort_keys=True))
                self._unsaved = False
            except OSError:
                pass  # a cache that cannot be written costs time, never the plan


@lru_cache(maxsize=8)
def _book(path: Path) -> ZoneBook:
    return ZoneBook(path)


def zone_book() -> ZoneBook:
    """The book of the current data dir (``TRIPWRIGHT_HOME`` is read each time: tests switch it)."""
    return _book(data_dir() / ZONES_FILE)


def zone_at(lat: float, lon: float) -> str:
    return zone_book().zone_at(lat, lon)
