"""Road-trip planner: overnight anchors that always progress along the corridor, under the daily
cap, with at least two substantive activities a day and a stop before any long stint.

Deterministic: anchors are route towns chosen by distance to each day's even-split target;
gaps fall back to gazetteer towns near the corridor, then to an interpolated point marked low
confidence (the caller is told, FB-06).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import timedelta

from engine.errors import InputError
from engine.geocode.trust import geodesic_miles
from engine.models import RoadTripIntent

from .anchors import FILL_SPACING_MILES, Node, Stretch, choose_anchors
from .booked_night import BookedNights, Pin, booked_night, booked_nights
from .corridor import DirectCorridor, gazetteer_towns, road_factor
from .day_stops import DayStopPicker
from .rest_days import driving_intent, rests_after
from .detours import day_points, detour_miles
from .loop import AWAY_FROM_HOME_MILES
from .osm_stops import osm_stops_for
from .plan import RoadDay, RoadPlan, Town
from .proposal import RoadCandidates, RoadDraft, road_candidates
from .road_measure import RoadMeasure
from .trip_ends import TripEnds, ends_key, resolve_ends

MIN_STEP_SHARE = 0.45  # an anchor covers at least 45% of the day's even share
MAX_STEP_SHARE = 1.35
OUTBOUND_REUSE_COST = 1.0  # round trips come back through other towns when they can
LOOP_START_MILES = 20.0  # a loop is driven once round when the trip starts this near its end town
STOPS_SHARE = 0.02  # of the daily cap, left by the nights for the detours to the day's stops
SPEED_MPH = {"us": 55.0, "europe": 45.0}  # average driving speed by region (hours = miles / speed)
NO_BED_COST = 0.6  # a night in a town where OpenStreetMap maps no bed: only when no town with one fits


@dataclass
class _Leg:
    """A stretch of days between two fixed points (origin, forced stops, turnaround, terminus)."""

    start: Town
    start_p: float
    end: Town | None
    end_p: float
    days: int
    forced_end: bool
    returning: bool = False


class RoadTripPlanner(BookedNights):
    def __init__(self, intent: RoadTripIntent, geocoder, *, avoid: frozenset = frozenset(),
                 road_pieces: tuple = (), osm=None, ends: TripEnds | None = None) -> None:
        self.asked = intent
        self.booked = None  # the traveller's booked lodging, a fixed night: placed by :meth:`prepare`
        self.intent = driving_intent(intent, extra_rest=max(0, booked_nights(intent) - 1))
        self.osm = osm  # the corridor's OpenStreetMap cells (osm_stops), fetched once by the run
        self.geocoder = geocoder
        self.avoid = avoid  # (lat, lon) of overnight points no road reaches (:mod:`.driving`)
        self.road_pieces = road_pieces  # stretches whose real road miles routing measured (:mod:`.road_measure`)
        self.log: list[str] = []
        self.loop_turn: Town | None = None
        self.pin: Pin | None = None  # the booked night, once the corridor is known
        # the ends and corridor, resolved once per trip (:mod:`.trip_ends`): a fork shares them
        self._trip = ends if ends is not None and ends.key == ends_key(self.intent) else None

    def ends(self) -> TripEnds:
        """The trip's ends and corridor, resolved on first use."""
        if self._trip is None:
            self._trip = resolve_ends(self.intent, self.geocoder)
        return self._trip

    def fork(self, intent: RoadTripIntent | None = None, **kw) -> "RoadTripPlanner":
        """A new planner of the same trip (its booking placed, nights no road reaches, measured
        roads: ``avoid``, ``road_pieces``, ``osm``) on the corridor this one resolved."""
        return RoadTripPlanner(intent or self.asked, self.geocoder, ends=self.ends(), **kw)

    def outline(self) -> list[tuple[float, float]] | None:
        """Points the trip's OpenStreetMap cells must cover (:meth:`.trip_ends.TripEnds.outline`);
        None when its places do not resolve (the plan then says why)."""
        try:
            return self.ends().outline(self.intent)
        except InputError:
            return None

    # -- set-up --------------------------------------------------------------------------------
    def prepare(self) -> RoadCandidates:
        """Resolve the ends and the corridor once; the towns and sights a model may choose from
        (``plan --llm``). :meth:`plan` calls it when nobody did."""
        e = self.ends()
        corridor, origin, terminus, region = e.corridor, e.origin, e.terminus, e.region
        self.corridor, self.region, self.loop_turn, self.log = corridor, region, e.loop_turn, [*e.log, *self.log]
        self.factor = road_factor(corridor)
        self.road = RoadMeasure(self.factor, self.road_pieces)
        self.speed = SPEED_MPH[region]
        towns = None
        if isinstance(corridor, DirectCorridor):
            towns = gazetteer_towns(corridor, self.geocoder, self.intent.corridor_max_deviation_miles)
            what = "the direct corridor" if corridor.name == "direct" else f"the imported route {corridor.name!r}"
            self.log.append(f"{len(towns)} gazetteer towns along {what}")
        self.stops = DayStopPicker(corridor, self.intent.corridor_max_deviation_miles, self.speed, self.factor,
                                   towns=towns, home=origin.point, geocoder=self.geocoder)
        self.stops.used |= set(self.intent.skip_stops)  # removed on the map: never picked again
        self.stops.cap_miles = self.intent.max_daily_miles
        self.stops.start_date = self.intent.start_date  # a stop's published hours are read on its own date
        self.stops.required = self._visits()
        self.stops.osm = osm_stops_for(self.osm, corridor, self.intent, home=origin.point, pois=self.stops.pois)
        self.origin, self.terminus, self.slept_in = origin, terminus, set()
        p0 = corridor.progress_miles(*origin.point)
        self.booked = booked_night(self.asked)
        self.booked_rests = self._booked_rests()
        self.pin = self._pin(p0)
        self.outbound_end = (self._turnaround(origin, terminus, p0, max(1, math.ceil(self.intent.days / 2)))
                             if self.intent.trip_type != "one_way" else
                             (terminus, corridor.progress_miles(*terminus.point)))
        return road_candidates(self, p0)

    def plan(self, draft: RoadDraft | None = None) -> RoadPlan:
        """The plan; ``draft``: a model's overnight towns (fixed nights, already checked by
        :func:`.proposal.absorb`) and preferred stops — the days around them are still chosen here."""
        if not hasattr(self, "corridor"):
            self.prepare()
        self.drafted = list(draft.overnights) if draft else []
        self.stops.preferred = set(draft.stops) if draft else set()
        legs = self._legs(self.origin, self.terminus)
        days: list[RoadDay] = []
        resting = self._rest_places() + ([self.pin.place] * self.booked_rests if self.pin else [])
        for leg in legs:
            days += self._plan_leg(leg, len(days))
            self.slept_in |= {d.anchor.name for d in days}
            days += [self._past_booking(d) for d in rests_after(days[-1], resting, self.stops)]
        if resting:
            raise InputError("rest_days", f"{resting[0].label} is not a night of this trip; "
                                          "a rest day needs a night there")
        return RoadPlan(origin=self.origin, terminus=self.terminus, days=tuple(days), corridor=self.corridor,
                        corridor_miles=self.intent.corridor_max_deviation_miles, region=self.region,
                        trip_type=self.intent.trip_type, max_daily_miles=self.intent.max_daily_miles,
                        log=tuple(self.log), booked=self.booked)

    # -- legs between fixed points -------------------------------------------------------------
    def _legs(self, origin: Town, terminus: Town) -> list[_Leg]:
        i = self.intent
        pin = self.pin
        if self._on_loop(origin, terminus):  # a circuit: once round, from its start to its end
            return self._split(origin, 0.0, self._unpinned(self._forced(0.0)), terminus, self.corridor.length_miles(),
                               i.days, pin)
        p0 = self.corridor.progress_miles(*origin.point)
        fixed = sorted(self._unpinned(self._forced(p0) + self.drafted), key=lambda f: f[1])
        if i.trip_type == "one_way":
            return self._split(origin, p0, fixed, terminus, self.corridor.progress_miles(*terminus.point), i.days,
                               pin)
        out_days = max(1, math.ceil(i.days / 2))
        turn, turn_p = self.outbound_end
        legs = self._split(origin, p0, fixed, turn, turn_p, out_days, pin)
        if i.days > out_days and pin is not None and pin.index >= out_days:  # booked on the way back
            legs += self._split(turn, turn_p, [], origin, p0, i.days - out_days, pin.shifted(out_days),
                                returning=True)
        elif i.days > out_days:
            legs.append(_Leg(turn, turn_p, origin, p0, i.days - out_days, True, returning=True))
            self._check_cap(legs[-1:])
        return legs

    def _on_loop(self, origin: Town, terminus: Town) -> bool:
        """A round trip on a loop route (North Coast 500) that starts and ends at the loop's own end."""
        route = self.corridor
        if not (getattr(route, "is_loop", False) and self.intent.trip_type == "round_trip" and origin is terminus):
            return False
        return geodesic_miles(origin.point, (route.origin.lat, route.origin.lon)) <= LOOP_START_MILES

    def _forced(self, p0: float) -> list[tuple[Town, float]]:
        out = []
        for n, place in enumerate(self._trip.resolve_all(self.intent.stops, "stops")):
            p = self.corridor.progress_miles(*place.point)
            if p < p0:
                raise InputError(f"stops[{n}]", f"{place.label} is behind the start along {self.corridor.name}")
            out.append((replace(place, source="user"), p))
        return sorted(out, key=lambda t: t[1])

    def _rest_places(self) -> list[Town]:
        """Each rest day's town: the place its night was resolved as (:func:`driving_intent` made
        it a stop)."""
        return self._trip.resolve_all(self.asked.rest_days, "rest_days")

    def _visits(self) -> list[tuple[Town, float]]:
        """Places to visit on the way (not to sleep in), each on the day whose drive passes it."""
        return [(replace(place, source="user"), self.corridor.progress_miles(*place.point))
                for place in self._trip.resolve_all(self.intent.visits, "visits")]

    def _split(self, start: Town, p0: float, fixed, end: Town, p1: float, days: int, pin: Pin | None = None,
               *, returning: bool = False) -> list[_Leg]:
        """Legs between the fixed points from ``start`` to ``end`` over ``days``; a booked night
        among those days (``pin``) ends its day there: the stretches before and after it are split
        apart, each over its own days."""
        lo, hi = sorted((p0, p1))
        fixed = sorted((f for f in fixed if lo < f[1] < hi), key=lambda f: f[1], reverse=p1 < p0)
        if pin is None or not 0 <= pin.index < days:
            return self._split_run([(start, p0), *fixed, (end, p1)], days, returning)
        if pin.index == days - 1:  # booked for the night this stretch ends: its end must be the booking
            if geodesic_miles(pin.place.point, end.point) > 5:
                raise pin.refuse(f"the trip is at {end.label} that night; plan the trip to end its "
                                 "day there, or move the booking")
            return self._split_run([(start, p0), *fixed, (end, p1)], days, returning)
        if not lo < pin.progress < hi:
            raise pin.refuse(f"it is not on the way from {start.label} to {end.label}")
        ahead = [f for f in fixed if (f[1] < pin.progress) == (p1 > p0)]
        after = [f for f in fixed if f not in ahead]
        head = self._split_run([(start, p0), *ahead, (pin.place, pin.progress)], pin.index + 1, returning, pin,
                               f"from {start.label} to it")
        return head + self._split_run([(pin.place, pin.progress), *after, (end, p1)], days - pin.index - 1,
                                      returning, pin, f"from it to {end.label}")

    def _split_run(self, points, days: int, returning: bool, pin: Pin | None = None, side: str = "") -> list[_Leg]:
        pairs = list(zip(points, points[1:]))
        shares = self._shares([self._stretch_miles(a, pa, b, pb) for (a, pa), (b, pb) in pairs], days, pin, side,
                              [town.label for town, _p in points[1:-1] if pin is None or town is not pin.place])
        legs = [_Leg(a, pa, b, pb, n, True, returning=returning) for ((a, pa), (b, pb)), n in zip(pairs, shares)]
        self._check_cap(legs, pin)
        return legs

    def _shares(self, miles: list[float], days: int, pin: Pin | None = None, side: str = "",
                stops: list[str] | None = None) -> list[int]:
        """Days per stretch between fixed stops: each gets what the daily cap needs, the rest goes
        where the days are longest (largest remaining miles per day first). ``stops``: the
        traveller's requested (locked) stops between them, named when they are what does not fit."""
        cap = self.intent.max_daily_miles
        shares = [max(1, math.ceil(m / cap - 1e-9)) for m in miles]
        if sum(shares) > days:
            via = f" with {len(miles) - 1} requested stop(s)" if len(miles) > 1 else ""
            if pin is not None and stops and math.ceil(sum(miles) / cap - 1e-9) <= days:
                named = ", ".join(stops)
                raise pin.refuse(f"your locked stop{'s' if len(stops) > 1 else ''} at {named} leave"
                                 f"{'' if len(stops) > 1 else 's'} too few days to get there under the "
                                 f"{cap:.0f}-mile daily cap ({sum(shares)} needed, {days} given); unlock "
                                 f"{named} on the map or move the booking")
            if pin is not None:
                raise pin.refuse(f"about {sum(miles):.0f} road miles {side}{via} need at least {sum(shares)} "
                                 f"day(s) under the {cap:.0f}-mile daily cap; {days} given")
            raise InputError("days", f"about {sum(miles):.0f} road miles{via} need at least {sum(shares)} "
                                     f"day(s) under the {cap:.0f}-mile daily cap; {days} given")
        for _ in range(days - sum(shares)):
            k = max(range(len(miles)), key=lambda i: (miles[i] / shares[i], -i))
            shares[k] += 1
        return shares

    def _stretch_miles(self, a: Town, pa: float, b: Town, pb: float) -> float:
        """Road miles between two fixed points, with the detours off the corridor to reach them."""
        return self.road.between(pa, pb) + max(detour_miles(self.corridor, [a.point, b.point]),
                                               self._spur(a) + self._spur(b))

    def _check_cap(self, legs: list[_Leg], pin: Pin | None = None) -> None:
        cap = self.intent.max_daily_miles
        for leg in legs:
            miles = self._stretch_miles(leg.start, leg.start_p, leg.end, leg.end_p)
            if miles / leg.days > cap + 0.5:
                need = math.ceil(miles / cap)
                if pin is not None:
                    raise pin.refuse(f"{leg.start.name} to {leg.end.name} is about {miles:.0f} road miles, over "
                                     f"the {cap:.0f}-mile cap in {leg.days} day(s)")
                raise InputError("days", f"{leg.start.name} to {leg.end.name} is about {miles:.0f} road miles: "
                                         f"{miles / leg.days:.0f} a day over {leg.days} day(s) exceeds the "
                                         f"{cap:.0f}-mile cap; allow at least {need} day(s) for it")

    def _turnaround(self, origin: Town, terminus: Town, p0: float, out_days: int) -> tuple[Town, float]:
        if self.loop_turn is not None:
            return self.loop_turn, self.corridor.progress_miles(*self.loop_turn.point)
        if self.pin is not None and self.pin.index == out_days - 1 and terminus is origin:
            return self.pin.place, self.pin.progress  # booked for the night the trip turns round
        if terminus is not origin:
            return terminus, self.corridor.progress_miles(*terminus.point)
        reach = min(self.corridor.length_miles() - p0, out_days * self.intent.max_daily_miles * 0.6 / self.factor)
        target = p0 + reach
        town = self.stops.town_near(target, lo=p0 + reach * 0.5, hi=p0 + reach,
                                    prefer=lambda t: self._has_bed(t) is not False)  # a night with a bed
        place = town or Town(name=f"Mile {target:.0f}", lat=self.corridor.point_at(target)[0],
                              lon=self.corridor.point_at(target)[1], confidence="low", source="interpolated",
                              note="no town near the turnaround point")
        self.log.append(f"round trip turns around at {place.label}")
        return place, self.corridor.progress_miles(*place.point)

    # -- days ----------------------------------------------------------------------------------
    def _plan_leg(self, leg: _Leg, first_index: int) -> list[RoadDay]:
        nights = self._nights(leg)
        out = []
        start, start_p = leg.start, leg.start_p
        for k, (anchor, anchor_p) in enumerate(nights):
            last = k == leg.days - 1
            forced = last and leg.forced_end and leg.end.source == "user"
            out.append(self._day(first_index + k, start, start_p, anchor, anchor_p, forced, leg.returning))
            start, start_p = anchor, anchor_p
        return out

    def _nights(self, leg: _Leg) -> list[tuple[Town, float]]:
        """Every night of the leg, chosen together (:mod:`.anchors`); the greedy per-day pick is
        only the fallback when no path fits the cap."""
        stretch = Stretch(start=self._node(leg.start, leg.start_p), end=self._node(leg.end, leg.end_p),
                          days=leg.days, cap_road=self.intent.max_daily_miles * (1 - STOPS_SHARE),
                          factor=self.factor, directed=not leg.returning,
                          one_way=self.intent.trip_type == "one_way")
        candidates = self._candidates(leg)
        chosen = choose_anchors(stretch, candidates)
        if chosen is None:  # at the edge of the cap: the nights may use it all (stops then keep to the road)
            chosen = choose_anchors(replace(stretch, cap_road=self.intent.max_daily_miles), candidates)
        if chosen is None:
            self.log.append(f"no balanced set of nights from {leg.start.name} to {leg.end.name}: day-by-day pick")
            return self._greedy_nights(leg)
        for node in chosen:
            if node.interpolated:
                self.log.append(f"no town within the corridor near mile {node.progress:.0f}: interpolated overnight point")
        return [(n.place, n.progress) for n in chosen] + [(leg.end, leg.end_p)]

    def _node(self, place: Town, progress: float, population: int = 0, *, interpolated=False, extra=0.0) -> Node:
        return Node(place=place, progress=progress, road=self.road.at(progress), population=population,
                    interpolated=interpolated,
                    from_origin=geodesic_miles(self.origin.point, place.point),
                    to_end=geodesic_miles(place.point, self.terminus.point), extra_cost=extra,
                    on_corridor=self.corridor.point_at(progress), spur=self._spur(place))

    def _candidates(self, leg: _Leg) -> list[Node]:
        lo, hi = sorted((leg.start_p, leg.end_p))
        out = []
        for t in self.stops.towns:
            home = geodesic_miles(self.origin.point, (t.town.lat, t.town.lon)) <= AWAY_FROM_HOME_MILES
            if lo + 0.5 < t.progress_miles < hi - 0.5 and not home:
                place = self.stops.place_of(t)
                if place.point in self.avoid:
                    continue
                extra = OUTBOUND_REUSE_COST if leg.returning and place.name in self.slept_in else 0.0
                extra += NO_BED_COST * (self._has_bed(place) is False)
                out.append(self._node(place, t.progress_miles, t.town.population or 0, extra=extra))
        steps = int((hi - lo) // FILL_SPACING_MILES)
        for k in range(1, steps + 1):
            out.append(self._interpolated(lo + (hi - lo) * k / (steps + 1)))
        # The even split itself: a day-length path always exists when the leg fits the cap.
        out += [self._interpolated(leg.start_p + (leg.end_p - leg.start_p) * k / leg.days)
                for k in range(1, leg.days)]
        out = [n for n in out if n.place.point not in self.avoid]
        return sorted(out, key=lambda n: n.progress if leg.end_p >= leg.start_p else -n.progress)

    def _has_bed(self, place: Town) -> bool | None:
        """A bed mapped near the town (None: OpenStreetMap not asked there, or no data at all)."""
        osm = self.stops.osm
        return osm.beds.has_bed(place) if osm is not None and osm.active else None

    def _interpolated(self, p: float) -> Node:
        lat, lon = self.corridor.point_at(p)
        place = Town(name=f"{self.corridor.name} mile {p:.0f}", lat=lat, lon=lon, confidence="low",
                      source="interpolated", note="no town found near the day's target; interpolated")
        return self._node(place, p, interpolated=True)

    def _greedy_nights(self, leg: _Leg) -> list[tuple[Town, float]]:
        out, start_p = [], leg.start_p
        for k in range(leg.days):
            if k == leg.days - 1:
                out.append((leg.end, leg.end_p))
                break
            target = start_p + (leg.end_p - start_p) / (leg.days - k)
            out.append(self._anchor(start_p, target, leg))
            start_p = out[-1][1]
        return out

    def _anchor(self, start_p: float, target: float, leg: _Leg) -> tuple[Town, float]:
        step = target - start_p
        lo, hi = sorted((start_p + step * MIN_STEP_SHARE, start_p + step * MAX_STEP_SHARE))
        cap_p = self.intent.max_daily_miles / self.factor
        lo, hi = max(lo, min(start_p, start_p + step) + 0.5 if step > 0 else lo), hi
        if step > 0:
            hi = min(hi, start_p + cap_p, leg.end_p - 1)
        else:
            lo = max(lo, start_p - cap_p, leg.end_p + 1)
        town = self.stops.town_near(target, lo=lo, hi=hi)
        if town is not None:
            return town, self.corridor.progress_miles(*town.point)
        lat, lon = self.corridor.point_at(target)
        self.log.append(f"no town within the corridor near mile {target:.0f}: interpolated overnight point")
        place = Town(name=f"{self.corridor.name} mile {target:.0f}", lat=lat, lon=lon, confidence="low",
                      source="interpolated", note="no town found near the day's target; interpolated")
        return place, target

    def _day(self, index: int, start: Town, start_p: float, anchor: Town, anchor_p: float,
             forced: bool, returning: bool) -> RoadDay:
        stops, depart, arrive = self.stops.pick(start_p, anchor_p, anchor, index, start)
        miles = self.road.between(start_p, anchor_p)
        if miles < 1 and geodesic_miles(start.point, anchor.point) > 1:
            miles = geodesic_miles(start.point, anchor.point) * 1.3
        else:  # off the corridor: last night's town, tonight's, and each stop on the way
            miles += max(detour_miles(self.corridor, day_points(start.point, stops, anchor.point, start_p)),
                         self._spur(start) + self._spur(anchor))
        osm = self.stops.osm.day_facts(index, anchor, last=index == self.asked.days - 1) if self.stops.osm else {}
        night = self.intent.start_date + timedelta(days=index)
        if self.booked is not None and self.booked.covers(night):  # the traveller's own bed, wherever the data
            osm = {**osm, "bed": self.booked.bed(), "bed_note": ""}
        return RoadDay(index=index, date=self.intent.start_date + timedelta(days=index), start=start,
                       anchor=anchor, start_progress=start_p, anchor_progress=anchor_p,
                       anchor_offset=self.corridor.offset_miles(*anchor.point), drive_miles=round(miles, 1),
                       drive_hours=round(miles / self.speed, 2), depart_min=depart, arrive_min=arrive,
                       stops=tuple(stops), forced=forced, returning=returning,
                       exemption=self.stops.exemption, **_travel_note(self.stops.exemption, osm))


def _travel_note(exemption: str | None, osm: dict) -> dict:
    if exemption != "travel_only":
        return osm
    said = "a travel day: no town or sight within 30 mi of this drive"
    return {**osm, "note": "; ".join(n for n in (osm.get("note"), said) if n)}


def plan_road_trip(intent: RoadTripIntent, geocoder=None, *, avoid: frozenset = frozenset(),
                   road_pieces: tuple = (), osm=None) -> RoadPlan:
    """``osm``: the corridor's OpenStreetMap cells (``engine.places.corridor.CorridorData``)."""
    if geocoder is None:
        from engine.geocode import default_gazetteer
        geocoder = default_gazetteer()
    return RoadTripPlanner(intent, geocoder, avoid=avoid, road_pieces=road_pieces, osm=osm).plan()
