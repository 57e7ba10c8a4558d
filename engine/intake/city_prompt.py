"""Rule-based parser for one-line city-trip prompts.

    "5 days in Paris from 2027-06-15, flying from JFK, budget 4000 USD, art and food, with kids"

Regular expressions only, no LLM: the same text always yields the same trip, nothing in the
prompt is executed, and every failure names the field the user has to fix.

The text is scanned in a fixed order -- dates, trip length, origin airport, city, budget --
and each recognised piece is blanked out of a working copy, so later patterns cannot misread
it (a year is never taken for a budget, "from New York" is never taken for the destination).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from engine.errors import InputError, UnknownCityError
from engine.models.intent import MAX_CITY_DAYS, MIN_CITY_DAYS

from .party import take_party_size
from .preferences import avoids_overnight, pace_in, themes_in, wants_kid_friendly
from .prompt_text import (DATE_PATTERNS, FLAGS, MONTH_ONLY, DateMention, MonthMention, Scan, clean_prompt,
                          date_mention, explicit_span, is_calendar_word, month_mention, month_start)
from .vocabulary import (CURRENCY_CODES, CURRENCY_NAMES, CURRENCY_SYMBOLS, DEFAULT_BUDGET_USD, NO_BUDGET_GIVEN,
                         UNKNOWN_MONEY_WORDS, WORD_NUMBERS)

TRIP_LENGTH_TEXT = f"a city trip lasts {MIN_CITY_DAYS}-{MAX_CITY_DAYS} days"

_LENGTH = re.compile(
    rf"\b(?P<n>\d{{1,3}}|{'|'.join(WORD_NUMBERS)})[\s-]+(?P<unit>days?|nights?|weeks?)\b", FLAGS)
_LONG_WEEKEND = re.compile(r"\blong[\s-]+weekend\b", re.IGNORECASE)
_WEEKEND = re.compile(r"(?<!long )(?<!long-)\bweekend\b", re.IGNORECASE)  # Friday to Sunday: 3 days

# --------------------------------------------------------------------------- money
_SYMBOL = r"(?P<sym>us\$|\$|\u20ac|\u00a3|\u00a5)"
_CODE = rf"(?P<code>{'|'.join(CURRENCY_CODES + tuple(CURRENCY_NAMES))})\b"
_NUMBER = r"(?P<neg>-\s*)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s?(?P<k>k)\b)?"
_MONEY_PATTERNS = tuple(re.compile(p, FLAGS) for p in (
    rf"(?P<pre>-\s*)?{_SYMBOL}\s*{_NUMBER}(?!\d)",
    rf"\b{_CODE}\s*{_NUMBER}(?!\d)",
    rf"(?<![\w.,]){_NUMBER}\s*(?:{_CODE}|{_SYMBOL})",
))
_BUDGET_WORD = (r"\bbudget(?:\s+(?:of|is|around|about|roughly|approx(?:imately)?|up\s+to|max"
                r"(?:imum)?|total))*\s*[:=]?\s*")
_AFTER_BUDGET_WORD = re.compile(rf"{_BUDGET_WORD}$", FLAGS)
_BUDGET_ONLY_NUMBER = re.compile(rf"{_BUDGET_WORD}{_NUMBER}(?!\d)", FLAGS)
# After an amount: an exponent ("1e30") means the digits read so far are not the amount, and a
# code-like word ("500 BTC") or a money word we do not know is a currency, never a silent USD.
_EXPONENT = re.compile(r"e[+-]?\d", re.IGNORECASE)
_TOKEN = re.compile(r"[\w.,+-]+")
_CODE_LIKE = re.compile(r"\s*(?P<code>[A-Z]{3})(?![\w-])")
_MONEY_WORD = re.compile(rf"\s*(?P<code>{'|'.join(UNKNOWN_MONEY_WORDS)})(?![\w-])", FLAGS)

# --------------------------------------------------------------------------- places
_ORIGIN_CUE = re.compile(
    r"\b(?:(?P<strong>(?:flying|fly|flights?|departing)\s+(?:out\s+of|from)|out\s+of"
    r"|departing|home\s+airport(?:\s+is)?)|from)\s+", re.IGNORECASE)
_PLACE_WORDS = re.compile(r"[A-Za-z][A-Za-z']*(?: [A-Za-z][A-Za-z']*){0,3}")
_DESTINATION_CUE = re.compile(r"\b(?:in|to|visit(?:ing)?|explor(?:e|ing)|around)\s+$",
                              re.IGNORECASE)
CAPITALISED = r"[A-Z\u00c0-\u00d6\u00d8-\u00de][^\W\d_]*(?:[-'\u2019][^\W\d_]+)*"
_UNKNOWN_CITY = re.compile(r"(?i:\b(?:in|to|visit(?:ing)?|explor(?:e|ing))\s+)"
                           rf"(?P<name>{CAPITALISED}(?: {CAPITALISED}){{0,2}})"
                           rf"(?:,\s*(?P<where>{CAPITALISED}(?: {CAPITALISED}){{0,2}}))?")


@dataclass(frozen=True)
class CityPromptResult:
    city: str                   # canonical city name as given in `cities`
    start: date
    end: date                   # inclusive
    origin_airport: str | None  # IATA, None if the text did not say
    budget_amount: Decimal      # in major units of `budget_currency`
    budget_currency: str        # ISO 4217, upper case
    themes: list[str]
    kid_friendly: bool
    avoid_overnight: bool
    travellers: int | None = None  # None: the prompt did not say
    pace: str = "balanced"  # relaxed / balanced / packed (engine/models/visit_time.py)
    # What the text left out and the reading chose, one line each in the traveller's words (the
    # default budget; the first full week of a month named without a day): said by both front ends.
    assumed: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Origin:
    code: str | None
    problem: str | None  # reported only after city, dates and budget, in field order


def parse_city_prompt(text: str, *, cities: Mapping[str, Sequence[str]],
                      airports: Mapping[str, str], today: date,
                      known_airport: Callable[[str], object] | None = None) -> CityPromptResult:
    """Parse a free-text city-trip request; raise InputError naming the first bad field.
    ``known_airport`` answers for IATA codes beyond ``airports`` ("flying from BOS")."""
    clean = clean_prompt(text)
    scan = Scan(clean)
    dates = [date_mention(m) for p in DATE_PATTERNS for m in scan.take(p)]
    months = [month_mention(m) for m in scan.take(MONTH_ONLY)]
    lengths = scan.take(_LENGTH) + scan.take(_LONG_WEEKEND) + scan.take(_WEEKEND)
    length = _trip_length(lengths)
    travellers = take_party_size(scan)
    origin = find_origin(scan, airports, cities, known_airport)
    city = _find_city(scan.text, cities)
    assumed: list[str] = []
    if dates or not months:
        start, end = _resolve_window(sorted(dates, key=lambda d: d.position), length, today)
    else:
        start, end, said = _month_window(months[0], length, _is_weekend(lengths), today)
        assumed.append(said)
    amount, currency = budget_or_default(scan, assumed)
    if origin is not None and origin.problem:
        raise InputError("origin_airport", origin.problem)
    return CityPromptResult(
        city=city, start=start, end=end, origin_airport=origin.code if origin else None,
        budget_amount=amount, budget_currency=currency, themes=themes_in(clean),
        kid_friendly=wants_kid_friendly(clean), avoid_overnight=avoids_overnight(clean), travellers=travellers,
        pace=pace_in(clean), assumed=tuple(assumed))


# --------------------------------------------------------------------------- dates
def _trip_length(matches: list[re.Match[str]]) -> int | None:
    """Days implied by the first length phrase: N nights is N+1 days, a long weekend is 4, a
    weekend 3."""
    if not matches:
        return None
    first = min(matches, key=lambda m: m.start())
    if first.re is _LONG_WEEKEND:
        return 4
    if first.re is _WEEKEND:
        return 3
    raw = first["n"].lower()
    n = WORD_NUMBERS.get(raw) or int(raw)
    unit = first["unit"].lower()
    return n + 1 if unit.startswith("night") else n * 7 if unit.startswith("week") else n


def _is_weekend(matches: list[re.Match[str]]) -> bool:
    """Whether the first length phrase is a weekend or a long weekend (they start on a Friday)."""
    return bool(matches) and min(matches, key=lambda m: m.start()).re in (_LONG_WEEKEND, _WEEKEND)


def _month_window(month: MonthMention, length: int | None, weekend: bool, today: date) -> tuple[date, date, str]:
    """A month named without a day ("a week in Paris in May"): the coming such month's first full
    week from its Monday (a weekend: its first Friday), and the line that says so."""
    if length is None:
        raise InputError("date_window", f"found the month ({month.name}) but no trip length; add e.g. "
                         f"'a week in {month.name}' or '5 days' ({TRIP_LENGTH_TEXT})")
    _check_length(length, "the trip")
    start, said = month_start(month, length, weekend, today)
    return start, _shift(start, length - 1), said


def _resolve_window(dates: list[DateMention], length: int | None,
                    today: date) -> tuple[date, date]:
    if not dates:
        raise InputError("date_window", "no travel dates found; give a start date and a length,"
                         f" e.g. '5 days from 2027-06-15' ({TRIP_LENGTH_TEXT})")
    start, end = explicit_span(dates, today)
    if end is None:
        if length is None:
            raise InputError("date_window", f"found a start date ({dates[0].text}) but no end date or "
                             f"trip length; add e.g. '5 days' ({TRIP_LENGTH_TEXT})")
        _check_length(length, "the trip")
        end = _shift(start, length - 1)
    if end < start:
        raise InputError("date_window", f"end date {end} is before start date {start}")
    _check_length((end - start).days + 1, f"{start} to {end}")
    return start, end


def _check_length(days: int, what: str) -> None:
    if not MIN_CITY_DAYS <= days <= MAX_CITY_DAYS:
        raise InputError("date_window", f"{what} is {days} days; {TRIP_LENGTH_TEXT}")


def _shift(start: date, days: int) -> date:
    try:
        return start + timedelta(days=days)
    except OverflowError:
        raise InputError("date_window", f"{start} is too far in the future") from None


# --------------------------------------------------------------------------- places
def find_origin(scan: Scan, airports: Mapping[str, str], cities: Mapping[str, Sequence[str]],
                 known_airport: Callable[[str], object] | None = None) -> _Origin | None:
    """The first origin cue ("from", "flying from", "out of", ...) that names an airport."""
    for cue in _ORIGIN_CUE.finditer(scan.text):
        place = _PLACE_WORDS.match(scan.text, cue.end())
        if place is None:
            continue
        words = place.group(0).split(" ")
        head = words[0]
        if known_airport is not None and len(head) == 3 and head.isupper() and known_airport(head):
            scan.blank(place.start(), place.start() + 3)  # any airport with scheduled service
            return _Origin(head, None)
        origin, used = _origin_from_words(words, bool(cue["strong"]), airports, cities)
        if origin is not None:
            # Blank the airport's name so "from New York" is never read as the destination.
            scan.blank(place.start(), place.start() + len(" ".join(words[:used])))
            return origin
    return None


def _origin_from_words(words: list[str], strong_cue: bool, airports: Mapping[str, str],
                       cities: Mapping[str, Sequence[str]]) -> tuple[_Origin | None, int]:
    """(origin, words used) for the place after a cue; (None, 0) when it is not an airport."""
    head = words[0]
    if len(head) == 3 and head.upper() in airports:  # "from JFK", also typed as "from jfk"
        return _Origin(head.upper(), None), 1
    for n in range(len(words), 0, -1):
        codes = _airports_named(" ".join(words[:n]).lower(), airports, cities)
        if len(codes) == 1:
            return _Origin(codes[0], None), n
        if codes:
            return _Origin(None, f"{' '.join(words[:n])!r} matches several airports "
                                 f"({', '.join(codes)}); give the IATA code"), n
    looks_like_code = len(head) == 3 and head.isupper() and head.lower() not in CURRENCY_CODES
    # After a bare "from" an unknown name may be anything ("from Monday"); only flight
    # words make it certain the user meant an airport we do not know.
    named = strong_cue and head[0].isupper() and not is_calendar_word(head)
    if looks_like_code or named:
        return _Origin(None, f"{head!r} is not a known airport; use one of "
                             f"{_some_codes(airports)}"), 1
    return None, 0


def _airports_named(phrase: str, airports: Mapping[str, str],
                    cities: Mapping[str, Sequence[str]]) -> list[str]:
    """Codes whose name is `phrase` (or its canonical city), else whose name starts with it."""
    names = {phrase} | {c.lower() for c, aliases in cities.items()
                        if phrase in {a.lower() for a in aliases}}
    exact = sorted(code for code, name in airports.items() if name.lower() in names)
    if exact:
        return exact
    return sorted(code for code, name in airports.items()
                  if any(name.lower().startswith(n + " ") for n in names))


def _some_codes(airports: Mapping[str, str], limit: int = 12) -> str:
    codes = sorted(airports)
    shown = ", ".join(codes[:limit])
    return shown + (", ..." if len(codes) > limit else "") if codes else "(none configured)"


def _find_city(text: str, cities: Mapping[str, Sequence[str]]) -> str:
    hits = city_hits(text, cities)
    names = sorted({canonical for _, _, canonical in hits})
    if len(names) > 1:
        # "3 days in Rome ... Paris-style cafes": the city after "in"/"to" is the destination.
        cued = {c for s, _, c in hits if _DESTINATION_CUE.search(text[:s])}
        if len(cued) == 1:
            return cued.pop()
        raise InputError("city", f"the prompt names several cities ({', '.join(names)}); to visit them all, "
                                 "give each its nights, e.g. '3 nights in Lisbon then 2 in Porto'")
    if names:
        return names[0]
    supported = sorted(cities)
    guess = next((m for m in _UNKNOWN_CITY.finditer(text) if not is_calendar_word(m["name"].split(" ")[0])), None)
    if guess is not None:
        where = f"{guess['name']}, {guess['where']}" if guess["where"] else guess["name"]
        raise UnknownCityError(guess["name"], supported, query=where)
    raise InputError("city", "no destination found: name the city you are going to, e.g. '5 days in Lisbon "
                             "from 2027-06-15' (any city can be planned; for several, '3 nights in Lisbon then 2 in "
                             "Porto')")


def city_hits(text: str, cities: Mapping[str, Sequence[str]]) -> list[tuple[int, int, str]]:
    """(start, end, canonical) for every alias, minus hits inside a longer alias's hit."""
    hits = []
    for canonical, aliases in cities.items():
        for alias in {canonical.lower(), *(a.lower() for a in aliases)}:
            words = alias.split()
            if not words:
                continue
            pattern = r"(?<!\w)" + r"\s+".join(map(re.escape, words)) + r"(?!\w)"
            hits += [(m.start(), m.end(), canonical)
                     for m in re.finditer(pattern, text, re.IGNORECASE)]
    return [h for h in hits
            if not any(o[0] <= h[0] and h[1] <= o[1] and o[1] - o[0] > h[1] - h[0] for o in hits)]


# --------------------------------------------------------------------------- budget
def budget_or_default(scan: Scan, assumed: list[str]) -> tuple[Decimal, str]:
    """The prompt's budget, or the default one with the sentence that says so added to ``assumed``."""
    found = find_budget(scan)
    if found is None:
        assumed.append(NO_BUDGET_GIVEN)
        return Decimal(DEFAULT_BUDGET_USD), "USD"
    return found


def find_budget(scan: Scan) -> tuple[Decimal, str] | None:
    """The budget the text gives; None when it names none (the caller plans with the default)."""
    mentions = sorted((m for p in _MONEY_PATTERNS for m in scan.take(p)), key=lambda m: m.start())
    # Several amounts ("hotels under $200, budget $4,000"): the one right after "budget"
    # wins, then the first; a bare number counts only right after "budget".
    budgeted = [m for m in mentions if _AFTER_BUDGET_WORD.search(scan.text[:m.start()])]
    chosen = next(iter(budgeted + mentions), None) or _BUDGET_ONLY_NUMBER.search(scan.text)
    if chosen is None:
        return None
    _check_amount_text(chosen)
    amount, currency = _money(chosen)
    if amount <= 0:
        raise InputError("budget", f"must be greater than zero, got {amount} {currency}")
    return amount, currency


def _check_amount_text(m: re.Match[str]) -> None:
    """Refuse an amount that reads as something else: an exponent, or an unknown currency.

    Reads ``m.string``, the text as it was when matched (the scan has blanked the match since).
    """
    text = m.string
    after = text[m.end("num"):]
    if _EXPONENT.match(after):
        written = _TOKEN.match(text, m.start("num")).group(0)
        raise InputError("budget", f"cannot read {written!r} as an amount; write plain digits, "
                                   "e.g. 'budget 3000 USD'")
    if any(m.groupdict().get(g) for g in ("code", "sym", "k")):
        return
    other = _CODE_LIKE.match(after) or _MONEY_WORD.match(after)
    if other:
        raise InputError("budget", f"unknown currency {other['code']!r}; give the budget in a currency "
                                   "such as USD, EUR, GBP or JPY")


def _money(m: re.Match[str]) -> tuple[Decimal, str]:
    groups = m.groupdict()
    amount = Decimal(m["num"].replace(",", "")) * (1000 if groups.get("k") else 1)
    if amount == amount.to_integral_value():
        amount = amount.to_integral_value()  # "3.5k" -> 3500, not 3500.0
    if groups.get("neg") or groups.get("pre"):
        amount = -amount
    symbol, code = groups.get("sym"), groups.get("code")
    if symbol:
        return amount, CURRENCY_SYMBOLS[symbol.lower()]
    if code:
        return amount, CURRENCY_NAMES.get(code.lower(), code.upper())
    return amount, "USD"  # a bare "budget 3000" is in the planner's home currency
