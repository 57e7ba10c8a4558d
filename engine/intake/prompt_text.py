"""What both prompt parsers read the same way: cleaned text, a scan that blanks what it has
read, and dates ("June 3 2027", "3 June", "2027-06-03", "June 3-7", a missing year).

Shared on purpose: a city trip and a road trip must understand a date identically. Date errors
name ``date_window`` (the city field); the road parser renames them to ``start_date``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date, timedelta

from engine.errors import InputError

from .vocabulary import MONTH_NUMBERS, WEEKDAYS

FLAGS = re.IGNORECASE | re.ASCII  # ASCII: "\d" must not accept Arabic-Indic or other digits

MAX_PROMPT_CHARS = 2000

# Blanked-out text is replaced by this character: it is neither a word character nor
# whitespace, so a blank never glues its neighbours together into something new.
BLANK = "\x00"


# --------------------------------------------------------------------------- dates
_MONTH = (r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?"
          r"|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![a-z])\.?")
_DAY = r"(?P<day>[0-3]?\d)(?!\d)(?:st|nd|rd|th)?"
_DAY2 = _DAY.replace("<day>", "<day2>")
_CURRENCY_WORD = r"(?:k\b|usd|eur|gbp|jpy|dollars?|euros?|yen|pounds?)"
_YEAR = rf"(?:,?\s*(?P<year>20\d\d)\b(?!\s*{_CURRENCY_WORD}))?"
_RANGE_SEP = r"\s*(?:-|\u2013|\u2014|to|until|till|through|thru)\s*"
_NOT_A_LENGTH = r"(?![\s-]*(?:days?|nights?|weeks?)\b)"  # "June 15 - 4 nights" is no range

# Most specific first: once "June 3-7 2027" is taken, "June 3" cannot be read on its own.
DATE_PATTERNS = tuple(re.compile(p, FLAGS) for p in (
    r"\b(?P<year>\d{4})[-/.](?P<mon>\d{1,2})[-/.](?P<day>\d{1,2})\b",
    rf"\b{_MONTH}\s*{_DAY}{_RANGE_SEP}{_DAY2}\b{_NOT_A_LENGTH}{_YEAR}",
    rf"\b{_DAY}{_RANGE_SEP}{_DAY2}\s+(?:of\s+)?{_MONTH}{_YEAR}",
    rf"\b{_MONTH}\s*{_DAY}\b{_NOT_A_LENGTH}{_YEAR}",
    rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}{_YEAR}",
))

# A month with no day ("a week in Paris in May", "during June 2028"): a cue word first, so the
# verb "may" is never a month. Read only when the text has no date.
MONTH_ONLY = re.compile(rf"\b(?:in|during|this|next|for|early)\s+{_MONTH}{_YEAR}", FLAGS)


_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December")  # not strftime's: the locale's names would vary
_DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


@dataclass(frozen=True)
class MonthMention:
    text: str
    month: int
    year: int | None

    @property
    def name(self) -> str:
        return _MONTH_NAMES[self.month - 1]


def month_mention(m: re.Match[str]) -> MonthMention:
    return MonthMention(text=m.group(0), month=MONTH_NUMBERS[m["mon"][:3].lower()],
                        year=int(m["year"]) if m["year"] else None)


def month_start(mention: MonthMention, days: int, weekend: bool, today: date) -> tuple[date, str]:
    """A month named without a day: the start of its first full week (its Monday; a weekend's: its
    first Friday) in the written year, else in the coming one (the first not before ``today``), and
    the line that says so to the traveller."""
    weekday = 4 if weekend else 0

    def first(year: int) -> date:
        day1 = date(year, mention.month, 1)
        return day1 + timedelta(days=(weekday - day1.weekday()) % 7)
    start = first(mention.year if mention.year is not None else today.year)
    if mention.year is None and start < today:
        start = first(today.year + 1)
    end = start + timedelta(days=days - 1)
    which = f"the first {'weekend' if weekend else 'full week'} of {mention.name}"
    span = f"{_DAY_NAMES[start.weekday()]} {start.day}"
    if end.month != start.month:
        span += f" {_MONTH_NAMES[start.month - 1]}"
    span += f" \u2013 {_DAY_NAMES[end.weekday()]} {end.day} {_MONTH_NAMES[end.month - 1]} {end.year}"
    return start, (f"no day given in {mention.name}: planned {span}, {which}; write a start date "
                   f"(e.g. 'from {start + timedelta(days=7)}') to choose other days")


@dataclass(frozen=True)
class DateMention:
    position: int
    text: str
    year: int | None
    month: int
    day: int
    end_day: int | None  # set for "June 3-7"


class Scan:
    """The prompt with every recognised piece blanked out, so later rules cannot misread it."""

    def __init__(self, text: str) -> None:
        self.text = text

    def take(self, pattern: re.Pattern[str]) -> list[re.Match[str]]:
        matches = list(pattern.finditer(self.text))
        for m in matches:
            self.blank(m.start(), m.end())
        return matches

    def blank(self, start: int, end: int) -> None:
        self.text = self.text[:start] + BLANK * (end - start) + self.text[end:]


def clean_prompt(text: str) -> str:
    """Plain single-line text: compatibility forms folded, control/format characters dropped."""
    if not isinstance(text, str):
        raise InputError("prompt", "must be text")
    if len(text) > MAX_PROMPT_CHARS:
        raise InputError("prompt", f"is {len(text)} characters long; keep it under "
                                   f"{MAX_PROMPT_CHARS}")
    # NFKC turns full-width digits and currency signs ("２０２７", "￥") into the ASCII forms.
    folded = unicodedata.normalize("NFKC", text)
    visible = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in folded)
    clean = " ".join(visible.split())
    if not clean:
        raise InputError("prompt", "is empty; describe the trip, e.g. "
                                   "'5 days in Paris from 2027-06-15, budget 3000 USD'")
    return clean


def date_mention(m: re.Match[str]) -> DateMention:
    month, year, day2 = m["mon"], m["year"], m.groupdict().get("day2")
    return DateMention(
        position=m.start(), text=m.group(0), year=int(year) if year else None,
        month=int(month) if month.isdigit() else MONTH_NUMBERS[month[:3].lower()],
        day=int(m["day"]), end_day=int(day2) if day2 else None)


def is_calendar_word(word: str) -> bool:
    return bool(re.fullmatch(_MONTH, word, re.IGNORECASE)) or word.lower() in WEEKDAYS


def date_pair(first: DateMention, second: DateMention, today: date) -> tuple[date, date]:
    """Start and end from two dates; a year written on only one of them applies to both."""
    if first.year is None and second.year is not None:
        end = calendar_date(second.year, second.month, second.day, second.text)
        return occurrence(first, end, -1), end
    start = occurrence(first, today, +1)
    return start, occurrence(second, start, +1)


def calendar_date(year: int, month: int, day: int, text: str) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        raise InputError("date_window", f"{text!r} is not a valid calendar date") from None


def occurrence(mention: DateMention, anchor: date, direction: int) -> date:
    """The written date; without a year, its first occurrence from `anchor` on, going
    forward (+1, "June 15" means the next June 15) or backward (-1)."""
    if mention.year is not None:
        return calendar_date(mention.year, mention.month, mention.day, mention.text)
    # Any nine consecutive years include a 29 February, so every real month/day turns up.
    for offset in range(9):
        candidate = _valid_date(anchor.year + direction * offset, mention.month, mention.day)
        if candidate is not None and (candidate - anchor).days * direction >= 0:
            return candidate
    raise InputError("date_window", f"{mention.text!r} is not a valid calendar date")


def _valid_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def explicit_span(dates: list[DateMention], today: date) -> tuple[date, date | None]:
    """Start, and the end when the text fixes one ("June 3-7", or two dates); ``dates`` in text
    order, at least one."""
    first = dates[0]
    if first.end_day is not None:
        start = occurrence(first, today, +1)
        return start, calendar_date(start.year, first.month, first.end_day, first.text)
    if len(dates) > 1:
        # Explicit end dates beat length words: people say "a week" for 7 nights as often
        # as for 7 days.
        return date_pair(first, dates[1], today)
    return occurrence(first, today, +1), None
