"""Where a road-trip prompt names places: origin, terminus, the way back, turnaround and stops,
each read once and blanked from the scan (:class:`PlaceFinder`); a name runs over capitalised words
and the connectors between them ("Rothenburg ob der Tauber") and keeps a ", AZ" / ", Germany"."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .preferences import themes_in, wants_kid_friendly
from .prompt_text import Scan, is_calendar_word
from .road_words import (NICKNAMES, KEYWORDS, STOPWORDS, CONNECTORS, US_STATE_CODES, REGION_NAMES,
                         MAX_PLACE_WORDS, MAX_LOWER_WORDS, TOKEN, WORD_TAIL, GAP, COMMA, TOKEN_START, ARROW,
                         LIST_SEP, VIA_LIST, ORIGIN_CUE, TURNAROUND_CUE, RETURN_CUE, STOP_CUE, AFTER_STOP_CUE,
                         REST_CUE, NIGHT_WORDS)


@dataclass(frozen=True)
class PlaceMention:
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
    m = TOKEN.match(text, pos)
    if m is None or (m.end() < len(text) and WORD_TAIL.match(text, m.end())):
        return None
    return m


def _is_preference_word(token: str) -> bool:
    return bool(themes_in(token)) or wants_kid_friendly(token)


def _next_token(text: str, end: int) -> re.Match[str] | None:
    gap = GAP.match(text, end)
    return _token_at(text, gap.end()) if gap else None


def _read_place(text: str, pos: int, *, allow_lower: bool, qualify: bool = True) -> PlaceMention | None:
    """The place name starting at `pos` (after spaces and an article), or None.

    A capitalised name runs over capitalised words and lower-case connectors between them
    ("Landsberg am Lech"); a lower-case name (only where `allow_lower`) runs for a few words
    up to a keyword. Either way it stops at punctuation, blanks and keywords ("to", "via").
    A ", AZ" / ", Texas" / ", Germany" after it is kept as part of the name.
    """
    gap = GAP.match(text, pos)
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
    if token.casefold() in STOPWORDS or is_calendar_word(token):
        return None
    capitalised = _capitalised(token)
    if not capitalised and not allow_lower:
        return None
    words = [first]
    while len(words) < (MAX_PLACE_WORDS if capitalised else MAX_LOWER_WORDS):
        nxt = _next_token(text, words[-1].end())
        if nxt is None or _ends_name(nxt.group(0)):
            break
        if capitalised and not _capitalised(nxt.group(0)):
            bridge = _connector_run(text, nxt)
            if not bridge:
                break
            words += bridge
            continue
        if not capitalised and (nxt.group(0).casefold() in STOPWORDS
                                or _is_preference_word(nxt.group(0))):
            break
        words.append(nxt)
    end = words[-1].end()
    qualifiers: list[str] = []
    while qualify and len(qualifiers) < 2:
        comma = COMMA.match(text, end)
        region = comma and _read_place(text, comma.end(), allow_lower=False, qualify=False)
        if not region or not (region.main in US_STATE_CODES
                              or region.main.casefold() in REGION_NAMES):
            break
        qualifiers.append(region.main)
        end = region.end
    return PlaceMention(text[words[0].start():words[-1].end()], tuple(qualifiers), words[0].start(),
                  end)


def _ends_name(token: str) -> bool:
    return token.casefold() in KEYWORDS or is_calendar_word(token)


def _connector_run(text: str, token: re.Match[str]) -> list[re.Match[str]]:
    """Lower-case connectors followed by a capitalised word ("ob der Tauber"), else []."""
    run = []
    while token is not None and not _capitalised(token.group(0)):
        if token.group(0).casefold() not in CONNECTORS or len(run) >= 3:
            return []
        run.append(token)
        token = _next_token(text, token.end())
    if token is None or _ends_name(token.group(0)):
        return []
    return [*run, token]


class PlaceFinder:
    """Finds origin, terminus and stops in the scan, blanking each place once used."""

    def __init__(self, scan: Scan, lower_prompt: bool) -> None:
        self.scan = scan
        self.lower_prompt = lower_prompt

    def _use(self, *places: PlaceMention) -> None:
        for p in places:
            self.scan.blank(p.start, p.end)

    def ends(self) -> tuple[PlaceMention | None, PlaceMention | None, list[PlaceMention]]:
        """(origin, terminus, stops named between them): "X [via A, B] to Y" first, else a
        "from X" / "starting in X" cue with a separate "to Y" / "ending in Y"."""
        pair = self.pair()
        if pair is not None:
            origin, stops, terminus = pair
            self._use(origin, *stops, terminus)
            return origin, terminus, stops
        origin = self.after(ORIGIN_CUE)
        return origin, None, []

    def pair(self) -> tuple[PlaceMention, list[PlaceMention], PlaceMention] | None:
        text = self.scan.text
        for m in TOKEN_START.finditer(text):
            if AFTER_STOP_CUE.search(text[max(0, m.start() - 40):m.start()]):
                continue  # "via Tulsa to ..." names a stop, not the start
            origin = _read_place(text, m.start(), allow_lower=self.lower_prompt)
            if origin is None or origin.start != m.start():
                continue
            end, stops = origin.end, []
            via = VIA_LIST.match(text, end)
            if via is not None:
                stops = self._list(via.end())
                end = stops[-1].end if stops else end
            arrow = ARROW.match(text, end)
            if arrow is None:
                continue
            terminus = _read_place(text, arrow.end(), allow_lower=True)
            if terminus is None:
                continue
            # "Chicago -> Memphis -> New Orleans": the places in between are stops.
            while (arrow := ARROW.match(text, terminus.end)) is not None:
                further = _read_place(text, arrow.end(), allow_lower=True)
                if further is None or len(stops) >= 50:
                    break
                stops, terminus = [*stops, terminus], further
            return origin, stops, terminus
        return None

    def after(self, cue: re.Pattern[str]) -> PlaceMention | None:
        """The first place right after `cue`, blanked."""
        text = self.scan.text
        for m in cue.finditer(text):
            place = _read_place(text, m.end(), allow_lower=self.lower_prompt)
            if place is not None:
                self._use(place)
                return place
        return None

    def returns_to(self, origin: PlaceMention) -> bool:
        """True for "returning home" or "back to <origin>" (that phrase is then blanked)."""
        text = self.scan.text
        for m in RETURN_CUE.finditer(text):
            if m["home"]:
                self.scan.blank(m.start(), m.end())
                return True
            place = _read_place(text, m.end(), allow_lower=self.lower_prompt)
            if place is not None and place.name.casefold() == origin.name.casefold():
                self.scan.blank(m.start(), place.end)
                return True
        return False

    def turnaround(self) -> PlaceMention | None:
        return self.after(TURNAROUND_CUE)

    def rests(self) -> list[PlaceMention]:
        """Rest days: "a rest day in X" is one more night there, "three nights in X" two more;
        each extra night once in the list (read first, so the place is no stop or end)."""
        found = []
        for cue in REST_CUE.finditer(self.scan.text):
            place = _read_place(self.scan.text, cue.end(), allow_lower=self.lower_prompt)
            if place is None:
                continue
            self._use(place)
            nights = NIGHT_WORDS[cue.group("n").lower()] if cue.group("n") else 2
            found += [place] * (nights - 1)
        return found

    def stops(self) -> list[PlaceMention]:
        found = []
        for cue in STOP_CUE.finditer(self.scan.text):
            places = self._list(cue.end())
            self._use(*places)
            found += places
        return found

    def _list(self, pos: int) -> list[PlaceMention]:
        """ "Tulsa, Amarillo and Kingman, AZ" -> three places."""
        text = self.scan.text
        place = _read_place(text, pos, allow_lower=self.lower_prompt)
        places = []
        while place is not None and len(places) < 50:
            places.append(place)
            sep = LIST_SEP.match(text, place.end)
            place = _read_place(text, sep.end(), allow_lower=self.lower_prompt) if sep else None
        return places
