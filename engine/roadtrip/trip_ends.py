"""A road trip's ends and corridor, resolved once per trip (the corridor's OpenStreetMap outline,
the booking's placing and every plan of the run — re-plans on measured roads included — share
them): the named route in its direction of travel, an imported track, a loop from home
(:mod:`.loop`), or the direct corridor bent round the sea (:mod:`.land_route`); and the places
the trip names (stops, visits, rest towns), each resolved once along that corridor.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import InputError
from engine.geocode.dominance import is_shared_name_note
from engine.geocode.models import GeocodeRequest
from engine.geocode.trust import EUROPE_COUNTRIES, check_point

from .corridor import TrackCorridor, track_corridor
from .land_route import land_corridor
from .loop import booked_via, home_loop
from .plan import Town
from .resolve import MEANT_ELSEWHERE, PlaceResolver
from .routes import find_route

EUROPE = EUROPE_COUNTRIES


SHARED_NAME_LOG = "Planning "  # the log line of a shared name ("Planning San Francisco, United States — …")


def _region_or_none(c) -> str | None:
    return "us" if c.country == "US" else "europe" if c.country in EUROPE else None


def region_of(place: Town, field: str) -> str:
    if place.country == "US":
        return "us"
    if place.country in EUROPE:
        return "europe"
    raise InputError(field, f"{place.label} ({place.country}): road trips cover the continental US and Europe")


def ends_key(intent) -> tuple:
    """What the ends and corridor depend on: intents equal here share them (a loop from home goes
    round by a booked night: its point too)."""
    via, out = booked_via(intent, intent.days)
    return (intent.origin, intent.terminus, intent.route, intent.route_track, intent.route_track_name,
            intent.trip_type, intent.days, intent.max_daily_miles, intent.corridor_max_deviation_miles,
            via.point if via else None, out)


@dataclass
class TripEnds:
    corridor: object
    origin: Town
    terminus: Town
    region: str
    key: tuple
    loop_turn: Town | None = None  # a loop from home: where it turns round
    log: tuple[str, ...] = ()  # what resolving decided ("Driving Route 66 from …")
    resolver: PlaceResolver | None = None
    places: dict[tuple[str, bool], Town] = field(default_factory=dict)  # each name resolved once

    def resolve(self, name: str, field: str, *, detour: bool = True) -> Town:
        """``name`` along the corridor (a requested detour allowed), resolved once per trip."""
        key = (name.casefold(), detour)
        if key not in self.places:
            self.places[key] = self.resolver.resolve(name, field=field, allow_detour=detour)
        return self.places[key]

    def resolve_all(self, names, field: str) -> list[Town]:
        return [self.resolve(name, f"{field}[{n}]") for n, name in enumerate(names)]

    def outline(self, intent) -> list[tuple[float, float]]:
        """Points the trip's OpenStreetMap cells must cover: its corridor every 10 miles, its ends,
        the stops and visits it was asked for."""
        extra = [p.point for p in self.resolve_all(intent.stops, "stops") + self.resolve_all(intent.visits, "visits")]
        length = self.corridor.length_miles()
        steps = max(1, int(length // 10))
        return ([self.corridor.point_at(length * k / steps) for k in range(steps + 1)]
                + [self.origin.point, self.terminus.point, *extra])


def resolve_ends(intent, geocoder) -> TripEnds:
    """``intent``: the days that drive (:func:`.rest_days.driving_intent`) — a loop is sized by them."""
    log: list[str] = []
    corridor, origin, terminus, region, turn = _ends(intent, geocoder, log)
    for town in (origin, terminus):
        _say_shared(town, log)
    log[:] = list(dict.fromkeys(log))
    return TripEnds(corridor, origin, terminus, region, ends_key(intent), loop_turn=turn, log=tuple(log),
                    resolver=corridor_resolver(geocoder, corridor, region, intent.corridor_max_deviation_miles))


def corridor_resolver(geocoder, corridor, region: str, width: float) -> PlaceResolver:
    towns = corridor.towns_in_corridor(width) if hasattr(corridor, "towns_in_corridor") else []
    return PlaceResolver(geocoder, region=region, corridor=corridor, corridor_miles=width, route_towns=towns)


def _ends(i, geocoder, log: list[str]):
    if i.route:
        route = find_route(i.route)
        resolver = corridor_resolver(geocoder, route, route.region, i.corridor_max_deviation_miles)
        origin = resolver.resolve(i.origin, field="origin")
        same = i.origin.casefold() == i.terminus.casefold()
        terminus = origin if same else resolver.resolve(i.terminus, field="terminus")
        if not same and route.progress_miles(*terminus.point) < route.progress_miles(*origin.point):
            route = route.reversed()
            log.append(f"Driving {route.name} from {origin.label} to {terminus.label}, the other way from its "
                       "usual direction")  # in words: the route's endpoints are ids ("santa_monica")
        return route, origin, terminus, route.region, None
    plain = PlaceResolver(geocoder, region=None)
    origin = plain.resolve(i.origin, field="origin")
    _say_shared(origin, log)  # the region's own resolution below no longer sees the namesakes
    region = region_of(origin, "origin")
    if i.route_track:
        return (*_track_ends(i, geocoder, region), region, None)
    origin = PlaceResolver(geocoder, region=region).resolve(i.origin, field="origin")
    if i.origin.casefold() == i.terminus.casefold():  # a loop from home
        via, out = booked_via(i, i.days)  # a booked night off the loop drawn: the loop goes round by it
        loop = home_loop(origin, region, geocoder, days=i.days, cap=i.max_daily_miles, via=via, via_out=out,
                         width=i.corridor_max_deviation_miles)
        log.append(f"round trip from home: {loop.describe()}")
        return loop, origin, origin, region, loop.turn
    _no_ocean_crossing(i.terminus, geocoder, origin, region)
    # No ``near`` here: it would turn "Atlanta to Dallas" into Dallas, Georgia.
    terminus = PlaceResolver(geocoder, region=region).resolve(i.terminus, field="terminus")
    corridor = land_corridor(origin, terminus, region, geocoder)
    if getattr(corridor, "via", ()):
        log.append("the straight line crosses the sea: the corridor goes round by "
                   + ", ".join(p.label for p in corridor.via))
    return corridor, origin, terminus, region, None


def _say_shared(town: Town, log: list[str]) -> None:
    """A shared name: which place is planned and how to ask for the other, in plain words."""
    if is_shared_name_note(town.note):
        log.append(f"{SHARED_NAME_LOG}{town.note}.")


def _track_ends(i, geocoder, region: str):
    """An imported track: both ends resolved near it (a town on the way, not its namesake)."""
    rough = TrackCorridor(list(i.route_track), i.route_track_name or "imported route")
    resolver = PlaceResolver(geocoder, region=region, corridor=rough, corridor_miles=i.corridor_max_deviation_miles)
    origin = resolver.resolve(i.origin, field="origin")
    same = i.origin.casefold() == i.terminus.casefold()
    terminus = origin if same else resolver.resolve(i.terminus, field="terminus")
    corridor = track_corridor(i.route_track, i.route_track_name, origin.point, terminus.point)
    return corridor, origin, terminus


def _no_ocean_crossing(query: str, geocoder, origin: Town, region: str) -> None:
    """"New York to Paris" means Paris, France: no road gets there, so say so rather than
    drive to Paris, Texas. A qualified name ("Paris, TX") is taken as written."""
    if "," in query:
        return
    cands = geocoder.candidates(GeocodeRequest(query=query, limit=25))
    if not cands:
        return
    top = max(cands, key=lambda c: c.confidence)
    if _region_or_none(top) == region:
        return
    local = [c for c in cands if _region_or_none(c) == region and not check_point(c.lat, c.lon, region)]
    best_local = max(local, key=lambda c: c.confidence, default=None)
    if best_local is not None and best_local.confidence >= MEANT_ELSEWHERE * top.confidence:
        return
    why = (f"no road crosses the ocean from {origin.label}" if _region_or_none(top) is not None
           else "outside the continental US and Europe that road trips cover")
    hint = f"; for {best_local.label} write it with its state or country" if best_local is not None else ""
    raise InputError("terminus", f"{query!r} is {top.label} (confidence {top.confidence:.2f}): {why}{hint}")
