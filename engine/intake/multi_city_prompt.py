"""Rule-based reading of multi-city prompts (issue 33 §4):

    "Lisbon 3 days then Porto 2 days from 2027-05-10, flying from JFK"
    "3 nights in Lisbon, 2 in Porto by train from May 10"
    "a week in Rome, Florence and Venice by train from 2027-06-01"
    "fly into Paris, home from London, 6 nights from 2027-09-03"

The same scan as a city prompt (dates, party, origin, budget, themes are read alike and blanked), then the
stays: every city name in the text with the length written next to it ("3 nights in Lisbon", "Porto 2
days"), the first one after "in"/"to"/the start, each next one joined to the one before by chain words only
("then", "and", ",", "via", "→", a leg's mode, its own length). Fewer than two stays: ``None``, and the
prompt is a one-city prompt read exactly as before. A city is named as the one-city parser names it: a
known city's canonical name, any other as the words that named it (the run finds or fetches its places
and settles a shared name by the same rule as for one city).

"N days in A" is N nights in A (the trip is the nights plus one day: the flight home); a length for the
whole trip ("a week", "May 10-16") is shared among the stays that have none, the earlier ones first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from engine.errors import InputError
from engine.models.multi_city import MAX_STAY_NIGHTS, MAX_TRIP_DAYS, MIN_STAY_NIGHTS

from .city_prompt import budget_or_default, city_hits, find_origin
from .party import take_party_size
from .preferences import avoids_overnight, pace_in, themes_in, wants_kid_friendly
from .prompt_text import (BLANK, DATE_PATTERNS, MONTH_ONLY, Scan, clean_prompt, date_mention, explicit_span,
                          is_calendar_word, month_mention, month_start)
from .multi_city_words import (ALL_LEGS, CAPITALISED_NAME, CHAIN_WORDS, FIRST_CUE, FLY_INTO, FROM_FIRST,
                               FROM_LAST, HOME_FROM, JOINING_WORDS, LENGTH_AFTER, LENGTH_BEFORE, MODES, NOT_A_NAME,
                               LIST_GAP, REGION_AFTER, TIERS, TOTAL_LENGTH)
from .vocabulary import WORD_NUMBERS

STAYS_EXAMPLE = "e.g. '3 nights in Lisbon then 2 in Porto'"


@dataclass(frozen=True)
class StayReading:
    city: str
    nights: int
    tier: str | None = None  # the hotel tier asked for in this city ("a mid-range hotel in Porto")


@dataclass(frozen=True)
class MultiCityPromptResult:
    stays: tuple[StayReading, ...]
    modes: tuple[str, ...]  # one per leg ("best" where the text names none); see `return_from`
    return_from: str  # "last" (home from the last city) or "first" (one more leg back to the first)
    start: date
    origin_airport: str | None
    budget_amount: Decimal
    budget_currency: str
    themes: list[str]
    kid_friendly: bool
    avoid_overnight: bool
    travellers: int | None = None
    pace: str = "balanced"
    assumed: tuple[str, ...] = ()
    own_lengths: int = 0  # how many stays have their own length in the text ("3 nights in Lisbon")

    @property
    def nights(self) -> int:
        return sum(s.nights for s in self.stays)

    @property
    def end(self) -> date:
        return self.start + timedelta(days=self.nights)


@dataclass
class _Mention:
    city: str
    start: int  # where the mention begins: its length when written before the city
    end: int  # where it ends: its length when written after the city
    n: int | None = None
    unit: str | None = None
    comma: bool = False  # its length follows a comma ("Florence, 9 nights")
    via: bool = False  # named after "via": it comes before the stay named just before it ("Rome to Venice via Florence")


def parse_multi_city_prompt(text: str, *, cities: Mapping[str, Sequence[str]], airports: Mapping[str, str],
                            today: date, known_airport: Callable[[str], object] | None = None,
                            ) -> MultiCityPromptResult | None:
    """The prompt as a multi-city trip, or None when it names fewer than two stays. Raises InputError
    naming the first bad field of a prompt that is a multi-city trip."""
    clean = clean_prompt(text)
    scan = Scan(clean)
    dates = sorted((date_mention(m) for p in DATE_PATTERNS for m in scan.take(p)), key=lambda d: d.position)
    months = [month_mention(m) for m in scan.take(MONTH_ONLY)]
    travellers = take_party_size(scan)
    into, home = _open_jaw(scan, cities)
    origin = find_origin(scan, airports, cities, known_airport)
    mentions = _stays(scan.text, cities)
    if into is not None and (not mentions or mentions[0].city != into):
        named = [m for m in mentions if m.city == into]
        mentions = named[:1] + [m for m in mentions if m.city != into] if named else [_Mention(into, -1, -1), *mentions]
    return_from = "last"
    if home is not None:
        if home == "first" or (mentions and home == mentions[0].city and len({m.city for m in mentions}) > 1):
            return_from = "first"
        elif home != "last" and (not mentions or mentions[-1].city != home):
            named = [m for m in mentions if m.city == home]
            mentions = [m for m in mentions if m.city != home] + (named[:1] or [_Mention(home, len(scan.text),
                                                                                           len(scan.text))])
    if len(mentions) > 2 and mentions[-1].city == mentions[0].city and mentions[-1].n is None:
        mentions.pop()  # "... then back to Lisbon": the flight home leaves from the first city
        return_from = "first"
    if len(mentions) < 2:
        return None
    listed = _listed(scan.text, mentions)
    own_lengths = sum(m.n is not None for m in mentions)
    total = _list_length(scan.text, mentions) or _total_length(scan, mentions)
    assumed: list[str] = []
    start, end = _window(dates, months, total, today, assumed)
    nights = _nights(mentions, total, end and (end - start).days, assumed)
    amount, currency = budget_or_default(scan, assumed)
    if origin is not None and origin.problem:
        raise InputError("origin_airport", origin.problem)
    return MultiCityPromptResult(
        stays=tuple(StayReading(m.city, n, t) for m, n, t in zip(mentions, nights, _tiers(scan.text, mentions))),
        modes=_modes(scan.text, mentions, return_from, listed), return_from=return_from, start=start,
        origin_airport=origin.code if origin else None, budget_amount=amount, budget_currency=currency,
        themes=themes_in(clean), kid_friendly=wants_kid_friendly(clean), avoid_overnight=avoids_overnight(clean),
        travellers=travellers, pace=pace_in(clean), assumed=tuple(assumed), own_lengths=own_lengths)


# --------------------------------------------------------------------------- cities
def _names(text: str, cities: Mapping[str, Sequence[str]]) -> list[tuple[int, int, str]]:
    """(start, end, city) for each city name in ``text``: a known city's aliases in any case, else a
    capitalised name (its leading words that are never a name dropped: "Then Porto" is Porto)."""
    hits = []
    for s, e, c in city_hits(text, cities):
        region = REGION_AFTER.match(text[e:])
        if region and not any(e + region.end() <= e2 for s2, e2, _ in city_hits(text[s:], cities) if s2 == 0):
            c, e = f"{text[s:e]}, {region['region']}", e + region.end()  # "Paris, Texas": the words, not the fixture
        if not _inside_word(text, s, e):
            hits.append((s, e, c))
    for m in re.finditer(rf"(?<![\w'’-]){CAPITALISED_NAME}(?![\w'’-])", text):
        words, start = m.group(0).split(" "), m.start()
        while words and (words[0].lower() in NOT_A_NAME or is_calendar_word(words[0])):
            start += len(words.pop(0)) + 1
        while words and words[-1].lower() in NOT_A_NAME:
            words.pop()
        if not words or any(s < start + len(" ".join(words)) and start < e for s, e, _ in hits):
            continue
        name, end = " ".join(words), start + len(" ".join(words))
        region = REGION_AFTER.match(text[end:])
        if region:  # "Paris, Texas": the region is part of the name
            name, end = f"{name}, {region['region']}", end + region.end()
        hits.append((start, end, name))
    return sorted(hits)


def _inside_word(text: str, start: int, end: int) -> bool:
    """"Paris-style": a name glued to a word by a hyphen is not the city."""
    return (start > 0 and text[start - 1] in "-'’") or (end < len(text) and text[end] in "-'’")


def _open_jaw(scan: Scan, cities: Mapping[str, Sequence[str]]) -> tuple[str | None, str | None]:
    """("fly into" city, "home from" city or "first"/"last"); the cues are blanked (no origin cue reads
    "home from London"), the names stay for the stays to read with their lengths ("fly into Paris, 3 nights")."""
    into = home = None
    for cue in list(FLY_INTO.finditer(scan.text)):
        name = _name_at(scan.text, cue.end(), cities)
        if name is not None:
            into = name[2]
            scan.blank(cue.start(), cue.end())
            break
    for cue in list(HOME_FROM.finditer(scan.text)):
        rest = scan.text[cue.end():]
        which = FROM_FIRST.match(rest) or FROM_LAST.match(rest)
        if which is not None:
            home = "first" if which.re is FROM_FIRST else "last"
            scan.blank(cue.start(), cue.end() + which.end())
            break
        name = _name_at(scan.text, cue.end(), cities)
        if name is not None:
            home = name[2]
            scan.blank(cue.start(), cue.end())
            break
    return into, home


def _name_at(text: str, at: int, cities: Mapping[str, Sequence[str]]) -> tuple[int, int, str] | None:
    return next((h for h in _names(text, cities) if h[0] == at), None)


def _stays(text: str, cities: Mapping[str, Sequence[str]]) -> list[_Mention]:
    """The stays in text order: the first after a destination cue (or with its own length), each next
    one joined to the one before by chain words only, or with its own length."""
    taken_until = 0
    stays: list[_Mention] = []
    for start, end, city in _names(text, cities):
        if start < taken_until:
            continue
        mention = _Mention(city, start, end)
        before = LENGTH_BEFORE.search(text[taken_until:start])
        if before is not None:
            mention.start = taken_until + before.start()
            mention.n, mention.unit = _number(before["n"]), before["unit"]
        else:
            after = LENGTH_AFTER.match(text[end:])
            if after is not None and not _owned_by_next(text, end + after.end(), cities):
                mention.end = end + after.end()
                mention.n, mention.unit, mention.comma = _number(after["n"]), after["unit"], bool(after["comma"])
        if stays:
            joined = _joined(text[stays[-1].end:mention.start])
            if mention.n is None and not joined:
                continue
            if not joined and all(m.n is None for m in stays):
                stays = []  # "Shakespeare and Company in Paris for 3 days": names before the first real stay
        elif mention.n is None and not FIRST_CUE.search(text[:start]):
            continue
        if stays and stays[-1].city == city:
            continue
        mention.via = bool(re.search(r"\bvia\W*$", text[:start], re.IGNORECASE))
        if mention.via and len(stays) >= 2 and re.search(r"\bto\W*$", text[stays[-2].end:stays[-1].start]):
            stays.insert(len(stays) - 1, mention)  # "Rome to Venice via Florence": Florence before Venice
        else:
            stays.append(mention)
        taken_until = mention.end
    # "Barcelona, Venezuela", "Santa Rosa, NM": a name after a bare comma ends no list, so it says where
    # the city before it is; "Rome, Florence and Venice" goes on.
    while len(stays) > 1 and stays[-1].n is None and not stays[-1].via and _bare_comma(
            text[stays[-2].end:stays[-1].start]):
        stays.pop()
    return stays


def _bare_comma(gap: str) -> bool:
    return gap.replace(BLANK, " ").strip() == ","


def _listed(text: str, mentions: list[_Mention]) -> bool:
    """Stays listed without "then" or modes between them ("Rome, Florence and Venice")."""
    return all(LIST_GAP.match(text[a.end:b.start]) for a, b in zip(mentions, mentions[1:]) if a.end >= 0 <= b.start)


def _list_length(text: str, mentions: list[_Mention]) -> int | None:
    """One length beside the stays is the whole trip's nights when they are listed ("a week in Rome,
    Florence and Venice", "Lisbon and Porto for a week") or when it follows the last one after a comma
    ("Rome to Venice via Florence, 9 nights")."""
    own = [m for m in mentions if m.n is not None]
    if len(own) != 1 or len(mentions) < 2:
        return None
    m, last = own[0], max(mentions, key=lambda x: x.start)
    before = m is mentions[0] and m.start < text.find(m.city, max(m.start, 0))
    if not ((m is last and m.comma) or ((before or m is last) and _listed(text, mentions))):
        return None
    unit = (m.unit or "nights").lower()
    nights = m.n * 7 - 1 if unit.startswith("week") else m.n if unit.startswith("night") else m.n - 1  # type: ignore[operator]
    m.n = m.unit = None
    return nights


def _owned_by_next(text: str, at: int, cities: Mapping[str, Sequence[str]]) -> bool:
    """"3 nights in Lisbon, 2 nights in Porto": the "2 nights" after Lisbon is Porto's (not so in
    "Madrid for 2 nights at a luxury hotel")."""
    cue = re.match(r"\s*(?:in|at)\s+", text[at:], re.IGNORECASE)
    return cue is not None and _name_at(text, at + cue.end(), cities) is not None


def _joined(gap: str) -> bool:
    """Whether the text between two stays holds only chain words (and at least one)."""
    gap = gap.replace(BLANK, " ")
    if not CHAIN_WORDS.search(gap) and not any(p.search(gap) for _, p in MODES):
        return False
    for _, p in MODES:
        gap = p.sub(" ", gap)
    return all(w.lower() in JOINING_WORDS for w in re.findall(r"[^\W\d_]+", gap))


def _number(raw: str) -> int:
    return WORD_NUMBERS.get(raw.lower()) or int(raw)


# --------------------------------------------------------------------------- lengths
def _total_length(scan: Scan, mentions: list[_Mention]) -> int | None:
    """The nights of the whole trip when a length is written apart from any city ("a week": 6 nights)."""
    owned = [(m.start, m.end) for m in mentions]
    for m in TOTAL_LENGTH.finditer(scan.text):
        if any(s <= m.start() < e for s, e in owned):
            continue
        n = _number(m["n"])
        unit = m["unit"].lower()
        scan.blank(m.start(), m.end())
        return n if unit.startswith("night") else (n * 7 if unit.startswith("week") else n) - 1
    return None


def _window(dates, months, total: int | None, today: date, assumed: list[str]) -> tuple[date, date | None]:
    if dates:
        return explicit_span(dates, today)
    if months:
        start, said = month_start(months[0], (total or 6) + 1, False, today)
        assumed.append(said)
        return start, None
    raise InputError("date_window", "no travel dates found; give the day the trip starts, e.g. "
                                    f"'from 2027-05-10' ({STAYS_EXAMPLE} from 2027-05-10)")


def _nights(mentions: list[_Mention], total: int | None, dated: int | None, assumed: list[str]) -> list[int]:
    """Each stay's nights: its own length, else a share of the trip's length."""
    own = [None if m.n is None else m.n * (7 if m.unit and m.unit.lower().startswith("week") else 1)
           for m in mentions]
    if dated is not None and dated <= 0:
        raise InputError("date_window", "the trip must end after it starts")
    whole = dated if dated is not None else total
    said_days = [m for m in mentions if m.unit and m.unit.lower().startswith("day")]
    if whole is not None and None not in own and sum(own) == whole + 1 and said_days:  # type: ignore[arg-type]
        own[-1] -= 1  # "Lisbon 3 days then Porto 2 days, May 10-14": five days, four nights
    if None in own:
        if whole is None:
            missing = ", ".join(m.city for m, n in zip(mentions, own) if n is None)
            raise InputError("stays", f"say how many nights in {missing}, or how long the whole trip is "
                                      f"({STAYS_EXAMPLE})")
        left, empty = whole - sum(n for n in own if n is not None), [i for i, n in enumerate(own) if n is None]
        if left < len(empty):
            raise InputError("stays", f"{whole} night(s) leave too few for {len(empty)} more stay(s); "
                                      f"give each city its nights ({STAYS_EXAMPLE})")
        for k, i in enumerate(empty):
            own[i] = left // len(empty) + (1 if k < left % len(empty) else 0)
        assumed.append("nights shared among the cities: " + ", ".join(
            f"{n} in {m.city}" for m, n in zip(mentions, own)) + f"; write e.g. {STAYS_EXAMPLE[5:]} to choose")
    elif whole is not None and sum(own) != whole:  # type: ignore[arg-type]
        raise InputError("stays", f"the stays add up to {sum(own)} nights but the dates give {whole}")  # type: ignore[arg-type]
    elif said_days and dated is None:
        assumed.append(f"read '{said_days[0].n} days in {said_days[0].city}' as {said_days[0].n} nights there; "
                       "write nights to choose exactly")
    for m, n in zip(mentions, own):
        if not MIN_STAY_NIGHTS <= n <= MAX_STAY_NIGHTS:  # type: ignore[operator]
            raise InputError("stays", f"{n} nights in {m.city}; a stay lasts {MIN_STAY_NIGHTS}-{MAX_STAY_NIGHTS} nights")
    if sum(own) + 1 > MAX_TRIP_DAYS:  # type: ignore[arg-type]
        raise InputError("stays", f"these stays make a {sum(own) + 1}-day trip; a trip lasts at most "  # type: ignore[arg-type]
                                  f"{MAX_TRIP_DAYS} days")
    return own  # type: ignore[return-value]


# --------------------------------------------------------------------------- legs
def _modes(text: str, mentions: list[_Mention], return_from: str, listed: bool) -> tuple[str, ...]:
    """Each leg's mode: the mode words in the clause of the stay it goes to, from the end of the clause
    before to the next "then", comma or stay ("Lisbon 3 days, then by train to Porto", "2 in Porto by
    train"); one for every other leg in "all by train" or after the stays ("Rome, Florence and Venice by
    train", "..., by train"); "best" where none is named."""
    begins, ends = _clauses(text, mentions)
    tail = text[max(ends.values()):]
    every = ALL_LEGS.search(text)
    default = _mode_in(next(w for w in every.groups() if w)) if every else None
    if default is None and listed:
        default = _mode_in(text[max(mentions[-1].end, 0):])
    if default is None and tail.lstrip(f" {BLANK}").startswith((",", ";")):
        default = _mode_in(tail)
    modes = [_mode_in(text[begins[i]:ends[i]]) or default or "best" for i in range(1, len(mentions))]
    if return_from == "first":
        modes.append(_mode_in(tail) or default or "best")
    return tuple(modes)


def _clauses(text: str, mentions: list[_Mention]) -> tuple[dict[int, int], dict[int, int]]:
    """Where each stay's clause begins and ends (by mention): from the end of the clause before to the next
    "then", comma or semicolon after its name and length, or the next stay."""
    order = sorted(range(len(mentions)), key=lambda i: mentions[i].start)
    ends: dict[int, int] = {}
    begins: dict[int, int] = {}
    for k, i in enumerate(order):
        end = max(mentions[i].end, 0)
        nxt = mentions[order[k + 1]].start if k + 1 < len(order) else len(text)
        stop = re.search(r"\bthen\b|[;,]", text[end:nxt]) if nxt > end else None
        ends[i] = end + stop.start() if stop else max(nxt, end)
        begins[i] = ends[order[k - 1]] if k else 0
    return begins, ends


def _tiers(text: str, mentions: list[_Mention]) -> list[str | None]:
    """Each stay's hotel tier when its clause asks for one ("3 nights in Lisbon, then a mid-range hotel in
    Porto for 2"): a tier word between the clause's start and the stay's own name counts too."""
    begins, ends = _clauses(text, mentions)
    tiers = []
    for i in range(len(mentions)):
        clause = text[begins[i]:ends[i]]
        found = [(m.start(), tier) for tier, p in TIERS for m in [p.search(clause)] if m]
        tiers.append(min(found)[1] if found else None)
    return tiers


def _mode_in(text: str) -> str | None:
    found = [(m.start(), mode) for mode, p in MODES for m in [p.search(text)] if m]
    return min(found)[1] if found else None
