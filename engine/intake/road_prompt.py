"""Rule-based parser for one-line road-trip prompts.

    "LA to Chicago via Route 66, 7 days from 2027-05-03"
    "Drive the PCH from San Francisco to Los Angeles in 4 days starting June 3 2027"
    "Round trip from Chicago on Route 66, 10 days from 2027-06-01"

Like the city parser (whose text cleaning and date rules it reuses) this is regular expressions
only: nothing in the prompt is executed, the same text always yields the same trip, and every
failure is an InputError naming the field to fix.

The text is scanned in a fixed order and each recognised piece is blanked out of a working copy,
so later rules cannot misread it: daily distance ("350 miles a day" is no trip length), named
routes ("Route 66" is no place), dates, trip length, trip-type words ("round trip", "and back"),
then places -- origin and terminus, the way back, forced stops -- and last the preferences,
read from what is left so "Palm Springs" is no outdoor theme and "historic Route 66" no history.

Place names are taken verbatim (NFKC-folded, whitespace collapsed), so "Kingman, AZ",
"Würzburg" and "Rothenburg ob der Tauber" come through as typed; only a few nicknames are
expanded (LA, SF, NYC, Vegas, Philly, NOLA). Markup is not interpreted: a name never contains
"<", ">" or control characters because those are not part of a place word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from engine.errors import InputError
from engine.models.road_trip import MAX_ROAD_DAYS, MIN_ROAD_DAYS

from .party import take_party
from .preferences import themes_in, wants_kid_friendly
from .prompt_text import (DATE_PATTERNS, MONTH_ONLY, DateMention, MonthMention, Scan, clean_prompt, date_mention,
                          explicit_span, month_mention, month_start)
from .road_classifier import looks_like_road_trip
from .road_places import PlaceFinder, PlaceMention
from .road_route_names import find_route_name, unknown_route
from .road_words import (TENS, UNITS, NUMBER_WORDS, DAILY_PATTERNS, LENGTH, ROUND_TRIP, ONE_WAY, ROAD_TRIP_WORDS,
                         TERMINUS_CUE)

__all__ = ["RoadPromptResult", "looks_like_road_trip", "parse_road_prompt"]

TripType = Literal["one_way", "round_trip"]

TRIP_LENGTH_TEXT = f"a road trip lasts {MIN_ROAD_DAYS}-{MAX_ROAD_DAYS} days"
MAX_DAILY_MILES = 1000.0
_KM_PER_MILE = 1.609344
_EXAMPLE = "'LA to Chicago via Route 66, 7 days from 2027-05-03'"


@dataclass(frozen=True)
class RoadPromptResult:
    origin: str
    terminus: str                  # the turnaround of a round trip; the origin if none is named
    days: int
    start_date: date
    trip_type: TripType
    route: str | None              # canonical name from `routes`
    stops: list[str]               # forced waypoints, in the order written
    themes: list[str]
    kid_friendly: bool
    max_daily_miles: float | None  # None: the user did not say (the intent's default applies)
    travellers: int | None = None  # None: the prompt did not say
    rest_days: list[str] = field(default_factory=list)  # a rest day in each (named twice: two there)
    # What the text left out and the reading chose (the first full week of a month named without a
    # day), one line each in the traveller's words: said by both front ends.
    assumed: tuple[str, ...] = ()


def _route_ends(route: str, terminus, round_trip: bool):
    """"Romantic Road, 3 days": a named route with no ends named runs between its own ends; a
    loop ("North Coast 500, 5 days") starts and ends at its one end, a round trip. Returns
    (origin, terminus, is_loop); a round trip on a route that is no loop names no ends."""
    from engine.roadtrip.routes import find_route  # fixtures are read only when a prompt needs them
    try:
        found = find_route(route)
        first, last = (PlaceMention(t.name, (t.admin1,), -1, -1) for t in (found.origin, found.terminus))
    except (InputError, KeyError):
        return None, terminus, False
    if found.is_loop:
        return first, terminus or first, True
    if round_trip:
        return None, terminus, False
    if terminus is None:
        return first, last, False
    ends = (last, terminus) if terminus.main.casefold() == first.main.casefold() else (first, terminus)
    return (*ends, False)


def parse_road_prompt(text: str, *, routes: Mapping[str, Sequence[str]],
                      today: date) -> RoadPromptResult:
    """Parse a free-text road-trip request; raise InputError naming the first bad field.

    `routes` maps each canonical route name to its aliases ("Route 66": ["route 66", "us 66",
    "mother road", ...]). Errors come in field order: prompt, origin, terminus, days,
    start_date, route, max_daily_miles.
    """
    clean = _clean_road(text)
    scan = Scan(clean)
    daily, daily_problem = _daily_miles(scan)
    route, route_problem = find_route_name(scan, routes)
    dates = sorted((date_mention(m) for p in DATE_PATTERNS for m in scan.take(p)),
                   key=lambda d: d.position)
    months = [month_mention(m) for m in scan.take(MONTH_ONLY)]
    lower_prompt = not any(c.isupper() for c in clean)
    places = PlaceFinder(scan, lower_prompt)
    rests = places.rests()  # before the trip's length: "two nights in Moab" is no length
    lengths = scan.take(LENGTH)
    length = _trip_length(lengths)
    travellers, party_kids = take_party(scan)
    round_trip = bool(scan.take(ROUND_TRIP))
    scan.take(ONE_WAY)
    scan.take(ROAD_TRIP_WORDS)
    route_problem = route_problem or unknown_route(scan, routes)

    origin, terminus, stops = places.ends()
    if origin is not None and places.returns_to(origin):
        round_trip = True
    turnaround = places.turnaround()
    if turnaround is not None:
        round_trip = True
        terminus = terminus or turnaround
    if terminus is None:
        terminus = places.after(TERMINUS_CUE)
    stops += places.stops()

    if origin is None and route is not None and not route_problem:
        origin, terminus, loop = _route_ends(route, terminus, round_trip)
        round_trip = round_trip or loop
    if origin is None:
        raise InputError("origin", "no starting point found; say where you start, e.g. "
                                   "'Los Angeles to Chicago'")
    if terminus is None:
        if not round_trip:
            raise InputError("terminus", "no destination found; say where you end, e.g. "
                                         "'Los Angeles to Chicago', or ask for a round trip")
        terminus = origin
    month = months[0] if months and not dates else None
    weekend = bool(lengths) and bool(min(lengths, key=lambda m: m.start())["long"])
    start, days, assumed = _resolve_dates(dates, length, today, month, weekend)
    if route_problem:
        raise InputError("route", route_problem)
    if daily_problem:
        raise InputError("max_daily_miles", daily_problem)
    return RoadPromptResult(
        origin=origin.name, terminus=terminus.name, days=days, start_date=start,
        trip_type="round_trip" if round_trip else "one_way", route=route,
        stops=_unique(p.name for p in stops), rest_days=[p.name for p in rests], themes=themes_in(scan.text),
        kid_friendly=party_kids or wants_kid_friendly(scan.text), max_daily_miles=daily, travellers=travellers,
        assumed=assumed)


def _clean_road(text: str) -> str:
    """The shared cleaning (type, length, NFKC, control characters out), with a
    road-trip example when nothing is left."""
    try:
        return clean_prompt(text)
    except InputError as err:
        if err.message.startswith("is empty"):
            raise InputError("prompt", f"is empty; describe the drive, e.g. {_EXAMPLE}") from None
        raise


def _unique(names: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for name in names:
        if name.casefold() not in seen:
            seen.add(name.casefold())
            out.append(name)
    return out


# --------------------------------------------------------------------------- distance
def _daily_miles(scan: Scan) -> tuple[float | None, str | None]:
    """(miles, problem) from the first "max 350 miles a day" / "500 km per day"."""
    mentions = sorted((m for p in DAILY_PATTERNS for m in scan.take(p)), key=lambda m: m.start())
    if not mentions:
        return None, None
    m = mentions[0]
    value = float(m["num"].replace(",", ""))
    if m["unit"].lower().startswith("k"):
        value = round(value / _KM_PER_MILE, 1)
    if not 0 < value <= MAX_DAILY_MILES:
        return None, (f"{' '.join(m.group(0).split())!r} is not a usable daily limit; give more "
                      f"than 0 and at most {MAX_DAILY_MILES:g} miles a day")
    return value, None


# --------------------------------------------------------------------------- dates
def _trip_length(matches: list[re.Match[str]]) -> int | None:
    """Days implied by the first length phrase: N nights is N+1 days, a fortnight 14."""
    if not matches:
        return None
    first = min(matches, key=lambda m: m.start())
    if first["fortnight"]:
        return 14
    if first["long"]:
        return 4
    n = _number(first["n"])
    unit = first["unit"].lower()
    return n + 1 if unit.startswith("night") else n * 7 if unit.startswith("week") else n


def _number(raw: str) -> int:
    if raw.isdigit():
        return int(raw)
    words = re.split(r"[\s-]+", raw.lower())
    if words[0] in TENS:
        return TENS[words[0]] + (UNITS[words[1]] if len(words) > 1 else 0)
    return NUMBER_WORDS[words[0]]


def _resolve_dates(dates: list[DateMention], length: int | None, today: date, month: MonthMention | None = None,
                   weekend: bool = False) -> tuple[date, int, tuple[str, ...]]:
    """Start date, trip length and what was assumed. An explicit end ("June 3-9", "2027-05-01 to
    2027-05-09") fixes the length, as in the city parser; otherwise the length phrase does. A month
    without a day ("7 days in May") starts the month's first full week, and says so."""
    start = end = None
    if dates:
        try:
            start, end = explicit_span(dates, today)
        except InputError as err:  # the city parser says "date_window"
            raise InputError("start_date", err.message) from None
    if end is not None and start is not None:
        if end < start:
            raise InputError("days", f"end date {end} is before start date {start}")
        length = (end - start).days + 1
    if length is None:
        raise InputError("days", f"no trip length found; add e.g. '7 days' ({TRIP_LENGTH_TEXT})")
    if not MIN_ROAD_DAYS <= length <= MAX_ROAD_DAYS:
        raise InputError("days", f"the trip is {length} days; {TRIP_LENGTH_TEXT}")
    if start is None and month is not None:
        start, said = month_start(month, length, weekend, today)
        return start, length, (said,)
    if start is None:
        raise InputError("start_date", "no start date found; add e.g. 'from 2027-05-03' or "
                                       "'starting June 3 2027'")
    return start, length, ()
