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
from dataclasses import dataclass
from datetime import date
from typing import Literal

from engine.errors import InputError
from engine.models.road_trip import MAX_ROAD_DAYS, MIN_ROAD_DAYS

from .prompt_text import (BLANK, DATE_PATTERNS, MAX_PROMPT_CHARS, DateMention, Scan, clean_prompt, date_mention,
                          explicit_span, is_calendar_word)
from .party import take_party
from .preferences import themes_in, wants_kid_friendly
from .vocabulary import WORD_NUMBERS

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


# --------------------------------------------------------------------------- small words
_TENS = {"twenty": 20, "thirty": 30}
_UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9}
_NUMBER_WORDS = {**WORD_NUMBERS, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
                 "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
                 **_TENS}
_NUMBER_WORD = (rf"(?:{'|'.join(_TENS)})(?:[\s-](?:{'|'.join(_UNITS)}))?"
                rf"|{'|'.join(sorted(_NUMBER_WORDS, key=len, reverse=True))}")

# Nicknames expanded to the name a gazetteer knows; everything else is kept as typed.
NICKNAMES = {"la": "Los Angeles", "l.a.": "Los Angeles", "sf": "San Francisco",
             "s.f.": "San Francisco", "nyc": "New York", "n.y.c.": "New York",
             "vegas": "Las Vegas", "philly": "Philadelphia", "nola": "New Orleans"}

# Words that end a place name wherever they appear (prepositions, trip verbs, length words).
_KEYWORDS = frozenset("""
    to from via and or in on for with without at by into onto through thru until till then
    than but also plus starting start starts leaving leave departing depart returning return
    stopping stop stops along around over visiting visit seeing see taking take following
    follow arriving arrive ending finishing turning back as drive drives driving drove trip
    trips roadtrip road route routes highway hwy interstate day days night nights week weeks
    weekend fortnight max maximum is are was please
""".split())
# Words that cannot begin a place name ("I want to ...", "Heading to ...", "a week ...").
_STOPWORDS = _KEYWORDS | frozenset("""
    i we my our me us you your it this that these those a an some any let lets let's let’s
    plan planning want wanna need would like love go going head heading get getting make
    help can could should will shall do take kids kid children family next last early late
    mid summer winter autumn holiday holidays vacation vacay one two three four five six
    seven eight nine ten
""".split())
# Lower-case words inside capitalised names: "Landsberg am Lech", "Rothenburg ob der Tauber".
_CONNECTORS = frozenset("""
    am an der die das den dem des de del della dei di da do dos du la le les lès sur sous
    upon ob im zum zur of y e en et von van vom
""".split())
US_STATE_CODES = frozenset("""
    AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ
    NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR
""".split())
# What may follow a place after a comma: "Kingman, AZ", "Paris, Texas", "Füssen, Germany".
_REGION_NAMES = frozenset(name.casefold() for name in """
    Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia
    |Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland
    |Massachusetts|Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada
    |New Hampshire|New Jersey|New Mexico|New York|North Carolina|North Dakota|Ohio|Oklahoma
    |Oregon|Pennsylvania|Rhode Island|South Carolina|South Dakota|Tennessee|Texas|Utah
    |Vermont|Virginia|Washington|West Virginia|Wisconsin|Wyoming|D.C.|USA|U.S.|U.S.A.
    |United States|Canada|Mexico|UK|U.K.|United Kingdom|England|Scotland|Wales|Ireland
    |Germany|Deutschland|Bavaria|Bayern|Austria|Switzerland|France|Italy|Spain|Portugal
    |Netherlands|Belgium|Luxembourg|Denmark|Norway|Sweden|Finland|Poland|Czechia
    |Czech Republic|Hungary|Croatia|Slovenia|Greece""".replace("\n", "").split("|"))
_MAX_PLACE_WORDS = 7
_MAX_LOWER_WORDS = 4  # an all-lower-case name has no capitals to tell where it ends

# --------------------------------------------------------------------------- patterns
_I = re.IGNORECASE

_NUM = r"(?P<num>[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+(?:\.[0-9]+)?)"
_DIST_UNIT = r"(?P<unit>miles?|mi|kilomet(?:er|re)s?|kms?)"
_PER_DAY = r"(?:(?:a|per|each|every)\s+day\b|/\s*day\b|/\s*d\b|daily\b)"
_LIMIT = (r"(?:max(?:imum)?\.?|at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to|under"
          r"|below|less\s+than|limit(?:ed)?\s+(?:to|of)|cap(?:ped)?\s+(?:at|of)|around|about)")
_DAILY_PATTERNS = tuple(re.compile(p, _I) for p in (
    rf"(?:\b{_LIMIT}\s*(?:of\s+)?)?(?<![\w.,]){_NUM}\s*{_DIST_UNIT}\b\s*"
    rf"(?:(?:of\s+)?driving\s+|drive\s+)?(?:max(?:imum)?\s+)?{_PER_DAY}",
    rf"\b(?:daily|per[\s-]day|a[\s-]day)\s+(?:driving\s+|drive\s+|distance\s+|mileage\s+)?"
    rf"(?:limit|max(?:imum)?|cap)\s*(?:of|is|:|=)?\s*{_NUM}\s*{_DIST_UNIT}\b",
))

_LENGTH = re.compile(
    rf"\b(?P<n>[0-9]{{1,4}}|{_NUMBER_WORD})[\s-]+(?P<unit>days?|nights?|weeks?)\b"
    r"|\b(?:a\s+|one\s+)?(?P<fortnight>fortnight)\b|\b(?P<long>long)[\s-]+weekend\b", _I)

_ROUND_TRIP = re.compile(r"\bround[\s-]?trips?\b|\broundtrips?\b|\b(?:there\s+)?and\s+back\b"
                         r"|\bloop(?:\s+trip)?\b", _I)
_ONE_WAY = re.compile(r"\bone[\s-]?way\b", _I)
_ROAD_TRIP_WORDS = re.compile(r"\broad[\s-]?trips?\b", _I)

# "via <something>" is a route when the something is road-shaped, else a list of stops.
_ROUTEISH = re.compile(
    r"(?i:\b(?:route|road|highway|parkway|hwy|interstate|freeway|turnpike|byway|rte|motorway"
    r"|autobahn|strasse|straße)s?\b|\bi-?\s?[0-9]+\b|\bu\.?s\.?[\s-]?[0-9]+\b"
    r"|\b(?:sr|ca|state\s+route)[\s-]?[0-9]+\b)|\bUS\b|\bU\.S\.|\bI-")
_VIA = re.compile(r"\bvia\s+", _I)
_PHRASE_STOP = re.compile(  # where the name after "via" ends; BLANK marks text already read
    rf"[,;:!?()\[\]|{BLANK}]|(?<![A-Z])\.(?=\s|$)"
    r"|\s(?i:to|from|for|starting|leaving|departing|with|then|in|on|stopping|through|and)\s")
# "take the Lincoln Highway", "on Route 9", "along I-80": a road, so it must be a known route.
_NAMED_ROAD = re.compile(
    r"\b(?i:along|on|take|taking|drive|driving|follow|following|down|up|via)\s+(?:(?i:the)\s+)?"
    r"(?P<x>(?:[A-Z][\w'’.-]*\s+){1,4}(?:Highway|Parkway|Road|Route|Byway|Turnpike|Freeway"
    r"|Trail|Hwy)\b|(?i:route|highway|hwy|interstate|us|u\.s\.|i|sr|state\s+route)[\s-]?[0-9]+"
    r"\b)")

_TOKEN = re.compile(r"(?:[^\W\d_]\.){2,}|(?:St|Ste|Mt|Ft|Pt|Sta)\.|[^\W\d_]+(?:['’-][^\W\d_]+)*")
_WORD_TAIL = re.compile(r"[\w'’-]")
_GAP = re.compile(r" +")
_COMMA = re.compile(r" ?, ?")
_TOKEN_START = re.compile(r"(?<![\w'’.-])[^\W\d_]")
_ARROW = re.compile(r"\s+to\s+|\s*(?:→|->|=>|⟶|–|—)\s*|\s+-\s+", _I)
_LIST_SEP = re.compile(r"\s*(?:,\s*(?:and\s+|then\s+|&\s+)?|\s+(?:and|then|&)\s+|\s*&\s*)", _I)
_VIA_LIST = re.compile(r"\s+via\s+", _I)

_ORIGIN_CUE = re.compile(
    r"\b(?:from|start(?:ing)?\s+(?:in|at|from|out\s+of)|leaving(?:\s+from)?|leave\s+from"
    r"|depart(?:ing)?(?:\s+from)?|out\s+of|begin(?:ning)?\s+(?:in|at))\s+", _I)
_TERMINUS_CUE = re.compile(
    r"\b(?:to|end(?:ing)?(?:\s+up)?\s+(?:in|at)|finish(?:ing)?\s+(?:in|at)"
    r"|arriv(?:e|ing)\s+(?:in|at)|as\s+far\s+as)\s+", _I)
_TURNAROUND_CUE = re.compile(r"\b(?:turn(?:ing)?\s+around|turnaround(?:\s+point)?)\s+(?:is\s+)?"
                             r"(?:in|at)?\s*", _I)
_RETURN_CUE = re.compile(r"\b(?:return(?:ing)?|com(?:e|ing)\s+back|head(?:ing)?\s+back"
                         r"|driv(?:e|ing)\s+back|back)\s+(?:(?P<home>home)\b|to\s+)", _I)
_STOP_CUE = re.compile(
    r"\b(?:via|through|thru|passing\s+through|by\s+way\s+of"
    r"|(?:with\s+(?:a\s+|an\s+)?(?:overnight\s+)?)?stops?(?:\s+over)?\s+(?:in|at)"
    r"|stopping(?:\s+over)?\s+(?:in|at|by)|overnight(?:ing)?\s+in|visit(?:ing)?|see(?:ing)?)\s+",
    _I)
_AFTER_STOP_CUE = re.compile(r"\b(?:via|through|thru|stopping\s+(?:in|at|by)|stops?\s+(?:in|at)"
                             r"|overnight(?:ing)?\s+in|visit(?:ing)?|see(?:ing)?)\s+$", _I)


# --------------------------------------------------------------------------- parsing
def _route_ends(route: str, terminus, round_trip: bool):
    """"Romantic Road, 3 days": a named route with no ends named runs between its own ends; a
    loop ("North Coast 500, 5 days") starts and ends at its one end, a round trip. Returns
    (origin, terminus, is_loop); a round trip on a route that is no loop names no ends."""
    from engine.roadtrip.routes import find_route  # fixtures are read only when a prompt needs them
    try:
        found = find_route(route)
        first, last = (_Place(t.name, (t.admin1,), -1, -1) for t in (found.origin, found.terminus))
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
    route, route_problem = _find_route(scan, routes)
    dates = sorted((date_mention(m) for p in DATE_PATTERNS for m in scan.take(p)),
                   key=lambda d: d.position)
    length = _trip_length(scan.take(_LENGTH))
    travellers, party_kids = take_party(scan)
    round_trip = bool(scan.take(_ROUND_TRIP))
    scan.take(_ONE_WAY)
    scan.take(_ROAD_TRIP_WORDS)
    route_problem = route_problem or _unknown_route(scan, routes)

    lower_prompt = not any(c.isupper() for c in clean)
    places = _Places(scan, lower_prompt)
    origin, terminus, stops = places.ends()
    if origin is not None and places.returns_to(origin):
        round_trip = True
    turnaround = places.turnaround()
    if turnaround is not None:
        round_trip = True
        terminus = terminus or turnaround
    if terminus is None:
        terminus = places.after(_TERMINUS_CUE)
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
    start, days = _resolve_dates(dates, length, today)
    if route_problem:
        raise InputError("route", route_problem)
    if daily_problem:
        raise InputError("max_daily_miles", daily_problem)
    return RoadPromptResult(
        origin=origin.name, terminus=terminus.name, days=days, start_date=start,
        trip_type="round_trip" if round_trip else "one_way", route=route,
        stops=_unique(p.name for p in stops), themes=themes_in(scan.text),
        kid_friendly=party_kids or wants_kid_friendly(scan.text), max_daily_miles=daily, travellers=travellers)


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
    mentions = sorted((m for p in _DAILY_PATTERNS for m in scan.take(p)), key=lambda m: m.start())
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


# --------------------------------------------------------------------------- routes
def _find_route(scan: Scan, routes: Mapping[str, Sequence[str]]) -> tuple[str | None,
                                                                           str | None]:
    """(canonical route, problem): every alias mention is blanked; two different routes is
    a problem (an intent follows one named route)."""
    hits = _route_hits(scan.text, routes)
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


def _route_hits(text: str, routes: Mapping[str, Sequence[str]]) -> list[tuple[int, int, str]]:
    hits = []
    for canonical, aliases in routes.items():
        for alias in {canonical, *aliases}:
            words = [w for w in re.split(r"[\s-]+", alias.strip()) if w]
            if not words:
                continue
            pattern = r"(?<!\w)" + r"[\s-]*".join(map(re.escape, words)) + r"(?!\w)"
            hits += [(m.start(), m.end(), canonical) for m in re.finditer(pattern, text, _I)]
    return [h for h in hits
            if not any(o[0] <= h[0] and h[1] <= o[1] and o[1] - o[0] > h[1] - h[0] for o in hits)]


def _known_routes(routes: Mapping[str, Sequence[str]]) -> str:
    return ", ".join(sorted(routes)) or "(none configured)"


def _unknown_route(scan: Scan, routes: Mapping[str, Sequence[str]]) -> str | None:
    """A road-shaped name the route table does not know ("via I-80", "take the Lincoln
    Highway"); "via Tulsa" is a stop and is left for the place rules."""
    text = scan.text
    for cue in _VIA.finditer(text):
        rest = text[cue.end():]
        cut = _PHRASE_STOP.search(rest)
        phrase = rest[:cut.start() if cut else len(rest)].strip()
        phrase = re.sub(r"^the\s+", "", phrase, flags=_I)
        if phrase and _ROUTEISH.search(phrase):
            return _unknown(phrase, routes)
    named = _NAMED_ROAD.search(text)
    if named is not None:
        return _unknown(named["x"], routes)
    return None


def _unknown(phrase: str, routes: Mapping[str, Sequence[str]]) -> str:
    phrase = " ".join(phrase.split())
    if len(phrase) > 60:
        phrase = phrase[:57] + "..."
    return f"unknown route {phrase!r}; known routes: {_known_routes(routes)}"


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
    if words[0] in _TENS:
        return _TENS[words[0]] + (_UNITS[words[1]] if len(words) > 1 else 0)
    return _NUMBER_WORDS[words[0]]


def _resolve_dates(dates: list[DateMention], length: int | None,
                   today: date) -> tuple[date, int]:
    """Start date and trip length. An explicit end ("June 3-9", "2027-05-01 to 2027-05-09")
    fixes the length, as in the city parser; otherwise the length phrase does."""
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
    if start is None:
        raise InputError("start_date", "no start date found; add e.g. 'from 2027-05-03' or "
                                       "'starting June 3 2027'")
    return start, length


# --------------------------------------------------------------------------- places
@dataclass(frozen=True)
class _Place:
    main: str
    qualifiers: tuple[str, ...]
    start: int
    end: int

    @property
    def name(self) -> str:
        main = NICKNAMES.get(self.main.casefold(), self.main)
        return ", ".join((main, *self.qualifiers))


def _capitalised(token: str) -> bool:
    return token[0].isupper() or (len(token) > 2 and token[1] in "'’" and token[2].isupper())


def _token_at(text: str, pos: int) -> re.Match[str] | None:
    """A whole place word starting exactly at `pos` (not the middle of a word or a number)."""
    if pos > 0 and (text[pos - 1].isalnum() or text[pos - 1] in "_'’-."):
        return None
    m = _TOKEN.match(text, pos)
    if m is None or (m.end() < len(text) and _WORD_TAIL.match(text, m.end())):
        return None
    return m


def _is_preference_word(token: str) -> bool:
    return bool(themes_in(token)) or wants_kid_friendly(token)


def _next_token(text: str, end: int) -> re.Match[str] | None:
    gap = _GAP.match(text, end)
    return _token_at(text, gap.end()) if gap else None


def _read_place(text: str, pos: int, *, allow_lower: bool, qualify: bool = True) -> _Place | None:
    """The place name starting at `pos` (after spaces and an article), or None.

    A capitalised name runs over capitalised words and lower-case connectors between them
    ("Landsberg am Lech"); a lower-case name (only where `allow_lower`) runs for a few words
    up to a keyword. Either way it stops at punctuation, blanks and keywords ("to", "via").
    A ", AZ" / ", Texas" / ", Germany" after it is kept as part of the name.
    """
    gap = _GAP.match(text, pos)
    pos = gap.end() if gap else pos
    first = _token_at(text, pos)
    if first is not None and first.group(0).casefold() == "the":
        following = _next_token(text, first.end())
        if following is None:
            return None
        if not (_capitalised(first.group(0)) and _capitalised(following.group(0))):
            first = following  # "the Grand Canyon" -> "Grand Canyon"; "The Dalles" stays
    if first is None:
        return None
    token = first.group(0)
    if token.casefold() in _STOPWORDS or is_calendar_word(token):
        return None
    capitalised = _capitalised(token)
    if not capitalised and not allow_lower:
        return None
    words = [first]
    while len(words) < (_MAX_PLACE_WORDS if capitalised else _MAX_LOWER_WORDS):
        nxt = _next_token(text, words[-1].end())
        if nxt is None or _ends_name(nxt.group(0)):
            break
        if capitalised and not _capitalised(nxt.group(0)):
            bridge = _connector_run(text, nxt)
            if not bridge:
                break
            words += bridge
            continue
        if not capitalised and (nxt.group(0).casefold() in _STOPWORDS
                                or _is_preference_word(nxt.group(0))):
            break
        words.append(nxt)
    end = words[-1].end()
    qualifiers: list[str] = []
    while qualify and len(qualifiers) < 2:
        comma = _COMMA.match(text, end)
        region = comma and _read_place(text, comma.end(), allow_lower=False, qualify=False)
        if not region or not (region.main in US_STATE_CODES
                              or region.main.casefold() in _REGION_NAMES):
            break
        qualifiers.append(region.main)
        end = region.end
    return _Place(text[words[0].start():words[-1].end()], tuple(qualifiers), words[0].start(),
                  end)


def _ends_name(token: str) -> bool:
    return token.casefold() in _KEYWORDS or is_calendar_word(token)


def _connector_run(text: str, token: re.Match[str]) -> list[re.Match[str]]:
    """Lower-case connectors followed by a capitalised word ("ob der Tauber"), else []."""
    run = []
    while token is not None and not _capitalised(token.group(0)):
        if token.group(0).casefold() not in _CONNECTORS or len(run) >= 3:
            return []
        run.append(token)
        token = _next_token(text, token.end())
    if token is None or _ends_name(token.group(0)):
        return []
    return [*run, token]


class _Places:
    """Finds origin, terminus and stops in the scan, blanking each place once used."""

    def __init__(self, scan: Scan, lower_prompt: bool) -> None:
        self.scan = scan
        self.lower_prompt = lower_prompt

    def _use(self, *places: _Place) -> None:
        for p in places:
            self.scan.blank(p.start, p.end)

    def ends(self) -> tuple[_Place | None, _Place | None, list[_Place]]:
        """(origin, terminus, stops named between them): "X [via A, B] to Y" first, else a
        "from X" / "starting in X" cue with a separate "to Y" / "ending in Y"."""
        pair = self._pair()
        if pair is not None:
            origin, stops, terminus = pair
            self._use(origin, *stops, terminus)
            return origin, terminus, stops
        origin = self.after(_ORIGIN_CUE)
        return origin, None, []

    def _pair(self) -> tuple[_Place, list[_Place], _Place] | None:
        text = self.scan.text
        for m in _TOKEN_START.finditer(text):
            if _AFTER_STOP_CUE.search(text[max(0, m.start() - 40):m.start()]):
                continue  # "via Tulsa to ..." names a stop, not the start
            origin = _read_place(text, m.start(), allow_lower=self.lower_prompt)
            if origin is None or origin.start != m.start():
                continue
            end, stops = origin.end, []
            via = _VIA_LIST.match(text, end)
            if via is not None:
                stops = self._list(via.end())
                end = stops[-1].end if stops else end
            arrow = _ARROW.match(text, end)
            if arrow is None:
                continue
            terminus = _read_place(text, arrow.end(), allow_lower=True)
            if terminus is None:
                continue
            # "Chicago -> Memphis -> New Orleans": the places in between are stops.
            while (arrow := _ARROW.match(text, terminus.end)) is not None:
                further = _read_place(text, arrow.end(), allow_lower=True)
                if further is None or len(stops) >= 50:
                    break
                stops, terminus = [*stops, terminus], further
            return origin, stops, terminus
        return None

    def after(self, cue: re.Pattern[str]) -> _Place | None:
        """The first place right after `cue`, blanked."""
        text = self.scan.text
        for m in cue.finditer(text):
            place = _read_place(text, m.end(), allow_lower=self.lower_prompt)
            if place is not None:
                self._use(place)
                return place
        return None

    def returns_to(self, origin: _Place) -> bool:
        """True for "returning home" or "back to <origin>" (that phrase is then blanked)."""
        text = self.scan.text
        for m in _RETURN_CUE.finditer(text):
            if m["home"]:
                self.scan.blank(m.start(), m.end())
                return True
            place = _read_place(text, m.end(), allow_lower=self.lower_prompt)
            if place is not None and place.name.casefold() == origin.name.casefold():
                self.scan.blank(m.start(), place.end)
                return True
        return False

    def turnaround(self) -> _Place | None:
        return self.after(_TURNAROUND_CUE)

    def stops(self) -> list[_Place]:
        found = []
        for cue in _STOP_CUE.finditer(self.scan.text):
            places = self._list(cue.end())
            self._use(*places)
            found += places
        return found

    def _list(self, pos: int) -> list[_Place]:
        """ "Tulsa, Amarillo and Kingman, AZ" -> three places."""
        text = self.scan.text
        place = _read_place(text, pos, allow_lower=self.lower_prompt)
        places = []
        while place is not None and len(places) < 50:
            places.append(place)
            sep = _LIST_SEP.match(text, place.end)
            place = _read_place(text, sep.end(), allow_lower=self.lower_prompt) if sep else None
        return places


# --------------------------------------------------------------------------- classifier
_STRONG_ROAD = re.compile(
    r"\broad[\s-]?trips?\b|\bdriv(?:e|es|ing|en)\b|\bmiles?\s*(?:a|per|each|every|/)\s*day\b"
    r"|\bmi\s*/\s*day\b|\bkm\s*(?:a|per|/)\s*day\b|\broute\s*[0-9]+\b|\bhighway\s*[0-9]+\b"
    r"|\bhwy\b|\binterstate\b|\bi-[0-9]+\b|\bus[\s-]?[0-9]+\b|\bpch\b|\bpacific\s+coast\s+highway"
    r"|\bmother\s+road\b|\bromantic\s+road\b|\bromantische\s+stra(?:ss|ß)e\b|\bparkway\b"
    r"|\bbyway\b|\bvia\s+(?:the\s+)?(?:route|highway|hwy|interstate|us\b|i-)"
    r"|\b(?:rv|campervan|motorhome)\b|\brental\s+car\b", _I)
_MEDIUM_ROAD = re.compile(
    r"\bround[\s-]?trips?\b|\broundtrips?\b|\bloop\s+(?:trip\s+)?from\b|\band\s+back\b"
    r"|\bone[\s-]?way\b|\bstopping\s+(?:in|at|over)\b"
    r"|\bovernight\s+stops?\b|\bto\s+\S.*\bvia\s+\S|\bturn(?:ing)?\s+around\b"
    r"|\breturn(?:ing)?\s+(?:home|to)\b", _I)
_CITY_SIGNS = re.compile(
    r"\b(?:fly|flying|flights?|flew|airport|airfare|red[\s-]?eyes?|budget|hotels?)\b"
    r"|[$€£¥]|\b(?:usd|eur|gbp|jpy|dollars?|euros?|yen)\b", _I)


def looks_like_road_trip(text: str, *, routes: Mapping[str, Sequence[str]] | None = None) -> bool:
    """Cheap guess whether a prompt asks for a road trip (True) or a city trip (False).

    Driving words, named routes and "miles a day" always mean a road trip; softer hints ("and
    back", "one way", "X to Y via Z", "X to Y") count only when no flight or budget words point
    to a city trip. Never raises.
    """
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_PROMPT_CHARS:
        return False
    try:
        clean = clean_prompt(text)
    except InputError:
        return False
    if _STRONG_ROAD.search(clean) or (routes and _route_hits(clean, routes)):
        return True
    if _CITY_SIGNS.search(clean):
        return False
    if _MEDIUM_ROAD.search(clean):
        return True
    scan = Scan(clean)
    for p in DATE_PATTERNS:
        scan.take(p)
    scan.take(_LENGTH)
    places = _Places(scan, lower_prompt=False)
    return places._pair() is not None or (places.after(_ORIGIN_CUE) is not None
                                          and places.after(_TERMINUS_CUE) is not None)
