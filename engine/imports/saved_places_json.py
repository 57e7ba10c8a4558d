"""GeoJSON places: a FeatureCollection (or one Feature) of Point features, as Google Takeout
writes "Saved Places.json" — the 2019 shape (``Title``, ``Location.Address``/``Business Name``,
``Google Maps URL``) and the 2023 shape (``location.name``/``address``, ``google_maps_url``),
and plain GeoJSON (``name``, ``description``/``notes``). Other geometries are counted and left
out, and so are Takeout's places saved without a location (a ``[0, 0]`` point).
"""

from __future__ import annotations

import json
from typing import Any

from .collect import Collector, fail, html_to_text
from .model import PlacesImport

_NAME_KEYS = ("title", "name", "business name")
_NOTES_KEYS = ("comment", "description", "notes", "note")
_ID_KEYS = ("google_maps_url", "google maps url", "url")


def read_geojson(data: bytes, label: str) -> PlacesImport:
    doc = _loaded(data, label)
    features = _features(doc, label)
    sink = Collector("geojson", label)
    for index, feature in enumerate(features, start=1):
        _one(sink, feature, index)
    return sink.result()


def _loaded(data: bytes, label: str) -> Any:
    try:
        return json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        fail(label, f"is not UTF-8 text (bad byte at offset {exc.start})")
    except json.JSONDecodeError as exc:
        fail(label, f"is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})")
    except RecursionError:
        fail(label, "nests JSON too deeply to be GeoJSON")
    except ValueError as exc:  # an integer too long to convert
        fail(label, f"is not readable JSON ({' '.join(str(exc).split())[:80]})")


def _features(doc: Any, label: str) -> list[Any]:
    kind = doc.get("type") if isinstance(doc, dict) else None
    if kind == "FeatureCollection" and isinstance(doc.get("features"), list):
        return doc["features"]
    if kind == "Feature":
        return [doc]
    fail(label, "is JSON but not a GeoJSON FeatureCollection of places")


def _one(sink: Collector, feature: Any, index: int) -> None:
    geometry = feature.get("geometry") if isinstance(feature, dict) else None
    if not isinstance(geometry, dict) or geometry.get("type") != "Point":
        sink.skip("not a point")
        return
    props = _folded(feature.get("properties"))
    location = _folded(props.get("location"))
    coords = geometry.get("coordinates")
    lon, lat = (coords[0], coords[1]) if isinstance(coords, list) and len(coords) >= 2 else (None, None)
    if _takeout_placeholder(lon, lat):
        sink.skip("no location")
        return
    notes = [location.get("address"), *(props.get(key) for key in _NOTES_KEYS)]
    sink.add(name=_text(_first(props, _NAME_KEYS) or _first(location, _NAME_KEYS)), lat=lat, lon=lon,
             where=f"feature {index}", notes="\n".join(html_to_text(n) for n in notes if isinstance(n, str)),
             source_id=_first(props, _ID_KEYS) or feature.get("id"))


def _takeout_placeholder(lon: Any, lat: Any) -> bool:
    """Takeout writes ``[0, 0]`` for a place saved without a location (with a "Comment" saying so)."""
    return isinstance(lon, int | float) and isinstance(lat, int | float) and lon == 0 and lat == 0


def _folded(value: Any) -> dict[str, Any]:
    return {str(k).casefold(): v for k, v in value.items()} if isinstance(value, dict) else {}


def _first(mapping: dict[str, Any], keys: tuple[str, ...]) -> Any:
    return next((mapping[k] for k in keys if isinstance(mapping.get(k), str) and mapping[k].strip()), None)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""
