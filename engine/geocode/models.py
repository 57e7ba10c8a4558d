"""Geocoding values: a request and its ranked candidates (shared by every geocoder backend)."""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.errors import InputError

__all__ = ["AMBIGUOUS_BELOW", "HIGH_AT", "MAX_QUERY_CHARS", "GeoCandidate", "GeocodeRequest",
           "Source", "check_query", "check_request"]

Source = Literal["gazetteer", "route_fixture", "nominatim"]

#: A candidate below this confidence is ambiguous: callers must apply INV-AMBIG-01/02 (pick by
#: corridor / interpolated position, else interpolate and mark ``confidence: LOW``).
AMBIGUOUS_BELOW = 0.5
#: At or above this a candidate is a single strong match.
HIGH_AT = 0.8
MAX_QUERY_CHARS = 200
MAX_LIMIT = 100


class GeoCandidate(BaseModel):
    """One place a query may mean, with how sure the geocoder is that it is *the* one."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    admin1: str | None = None        # state / province code: "AZ" in the US, the GeoNames code elsewhere
    admin1_name: str | None = None   # "Arizona"; None when the gazetteer has no name for the code
    country: str = Field(pattern=r"^[A-Z]{2}$")  # ISO 3166-1 alpha-2
    population: int | None = Field(default=None, ge=0)
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    confidence: float = Field(ge=0.0, le=1.0)
    source: Source
    feature_id: str  # "geonames:5301067", "route:route_66:seligman", "osm:node:123"

    @property
    def label(self) -> str:
        """``"Kingman, AZ, US"`` (admin1 omitted when it is a bare numeric code)."""
        parts = [self.name]
        if self.admin1_name and not (self.country == "US" and self.admin1):
            parts.append(self.admin1_name)
        elif self.admin1 and not self.admin1.isdigit():
            parts.append(self.admin1)
        parts.append(self.country)
        return ", ".join(parts)

    @property
    def level(self) -> Literal["HIGH", "MEDIUM", "LOW"]:
        if self.confidence >= HIGH_AT:
            return "HIGH"
        return "MEDIUM" if self.confidence >= AMBIGUOUS_BELOW else "LOW"

    @property
    def is_ambiguous(self) -> bool:
        return self.confidence < AMBIGUOUS_BELOW


class GeocodeRequest(BaseModel):
    """What to look up. ``near`` is ``(lat, lon)`` — e.g. the interpolated position between the
    adjacent days (INV-AMBIG-01) — and pulls nearby candidates up."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    query: str
    country_hint: str | None = None   # "US", "USA", "United States", "DE", "Germany"
    admin1_hint: str | None = None    # "AZ", "Arizona", "Bavaria"
    near: tuple[float, float] | None = None
    limit: int = 10


# Markup, HTML entities, and code points that are not text (controls, format/bidi characters,
# surrogates, private use, unassigned, line/paragraph separators).
_MARKUP = re.compile(r"[<>]|&#?[A-Za-z0-9]+;")
_NOT_TEXT = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def check_query(query: object, field: str = "place") -> str:
    """The stripped query, or :class:`InputError` naming ``field``."""
    if not isinstance(query, str):
        raise InputError(field, "must be text")
    if len(query) > MAX_QUERY_CHARS:
        raise InputError(field, f"too long ({len(query)} characters; at most {MAX_QUERY_CHARS})")
    if _MARKUP.search(query):
        raise InputError(field, "markup is not allowed in a place name")
    if any(unicodedata.category(ch) in _NOT_TEXT for ch in query):
        raise InputError(field, "control or invisible characters are not allowed in a place name")
    text = query.strip()
    if not text:
        raise InputError(field, "is empty")
    if not any(ch.isalnum() for ch in text):
        raise InputError(field, "has no letters or digits")
    return text


def check_request(request: GeocodeRequest) -> None:
    """Raise :class:`InputError` for anything a geocoder must not be asked."""
    check_query(request.query)
    for field, value in (("country", request.country_hint), ("admin1", request.admin1_hint)):
        if value is not None:
            check_query(value, field)
    if request.near is not None:
        lat, lon = request.near
        if not (math.isfinite(lat) and math.isfinite(lon) and -90 <= lat <= 90 and -180 <= lon <= 180):
            raise InputError("near", f"({lat}, {lon}) is not a (lat, lon) point")
    if not 1 <= request.limit <= MAX_LIMIT:
        raise InputError("limit", f"must be between 1 and {MAX_LIMIT}")
