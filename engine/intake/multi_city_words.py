"""The words and patterns of multi-city prompts (:mod:`.multi_city_prompt` reads with them): how a stay's
length is written next to its city, what joins one stay to the next, the mode a leg is asked for in, and
the open-jaw phrases ("fly into Paris, home from London", "back from the first")."""

from __future__ import annotations

import re

from .city_prompt import CAPITALISED
from .prompt_text import BLANK, FLAGS
from .road_words import KEYWORDS, REGION_NAMES, STOPWORDS
from .vocabulary import THEMES, WORD_NUMBERS

N = rf"(?P<n>\d{{1,2}}|{'|'.join(WORD_NUMBERS)})"
UNIT = r"(?P<unit>days?|nights?|weeks?)"
_GAP = rf"[\s{BLANK}]*"

# A stay's own length, written before its city ("3 nights in Lisbon", "2 more in Porto") or after it
# ("Lisbon 3 days", "Porto (2 nights)", "Porto for 2 nights", "Faro: 2 nights"; after a comma, when no other
# city has a length, it is the whole trip's: "Rome to Venice via Florence, 9 nights").
LENGTH_BEFORE = re.compile(rf"\b{N}\s+(?:more\s+)?(?:{UNIT}\s+)?(?:in|at)\s+$", FLAGS)
LENGTH_AFTER = re.compile(rf"^\s*(?:\(|(?P<comma>,)|:|-|\u2013|for)?\s*{N}\s+(?:more\s+)?{UNIT}\b\)?", FLAGS)
# The whole trip's length where no city owns it ("a week in Lisbon and Porto", "10 days: Rome, Florence").
TOTAL_LENGTH = re.compile(rf"\b{N}[\s-]+{UNIT}\b", FLAGS)
# Stays listed without "then" ("Rome, Florence and Venice", "Rome–Florence–Venice"): one length beside the list is the whole trip's.
LIST_GAP = re.compile(rf"^(?:[\s,&\u2013\u2014{BLANK}]|\band\b|\s-\s)*$", re.IGNORECASE)

# Cues a first stay may follow; the others follow their stay before (see `JOINING_WORDS`).
FIRST_CUE = re.compile(rf"(?:^|\b(?:in|at|to|into|visit(?:ing)?|see(?:ing)?|explor(?:e|ing))){_GAP}$",
                       re.IGNORECASE)
# What may stand between one stay and the next: chain words, the leg's mode, the next stay's length.
CHAIN_WORDS = re.compile(r"\b(?:then|and|via|to|followed|after|on(?:ward)?s?|continu(?:e|ing)|next|finally|"
                         r"head(?:ing)?|mov(?:e|ing)|go(?:ing)?|take|taking|the)\b|[,;&\u2192\u2013\u2014]|->|=>|\s-\s",
                         re.IGNORECASE)
JOINING_WORDS = frozenset("""
    then and via back followed by after that on onward onwards to continue continuing next finally head heading
    move moving go going take taking the a for more in at into with train trains rail bus coach fly flying
    flight plane air drive driving car ferry boat high speed
""".split())

MODES = (  # (mode, pattern): the words that ask for a leg's mode
    ("train", re.compile(r"\b(?:by\s+)?(?:(?:high[\s-]speed\s+)?trains?|rail|tgv|shinkansen|eurostar)\b",
                         re.IGNORECASE)),
    ("bus", re.compile(r"\b(?:by\s+)?(?:bus|coach)\b", re.IGNORECASE)),
    ("drive", re.compile(r"\b(?:driv(?:e|ing)|by\s+car|self[\s-]drive)\b", re.IGNORECASE)),
    ("ferry", re.compile(r"\b(?:by\s+)?(?:ferry|boat)\b", re.IGNORECASE)),
    # not the flights home or out ("flying from JFK", "fly home from London", "fly into Paris")
    ("flight", re.compile(r"\b(?:fly|flying|flights?|by\s+(?:air|plane)|plane)\b"
                          rf"(?!{_GAP}(?:from|out|home|back|in|into)\b)", re.IGNORECASE)),
)
# The hotel tier asked for in one city ("a mid-range hotel in Porto", "Lisbon 3 nights, luxury").
TIERS = (
    ("luxury", re.compile(r"\b(?:luxury|luxurious|five[\s-]star|5[\s-]star|splurge|upscale)\b", re.IGNORECASE)),
    ("mid", re.compile(r"\b(?:mid[\s-]?range|mid[\s-]tier|three[\s-]star|3[\s-]star|moderate)\b", re.IGNORECASE)),
    ("budget", re.compile(r"\b(?:(?:budget|cheap|inexpensive)\s+(?:hotels?|stays?|rooms?|places?)|hostels?)\b",
                          re.IGNORECASE)),
)
# One mode for every leg: "all by train", "by train throughout", "travelling by train".
ALL_LEGS = re.compile(r"\b(?:all|everywhere|always|only)\s+by\s+(?P<w>\w+)|\bby\s+(?P<w2>\w+)\s+"
                      r"(?:throughout|all\s+the\s+way|everywhere|between\s+(?:the\s+)?(?:cities|stays))\b"
                      r"|\btravel(?:l?ing)?\s+by\s+(?P<w3>\w+)", re.IGNORECASE)

# Open jaw: where the outbound flight lands and where the flight home leaves.
FLY_INTO = re.compile(r"\b(?:fly(?:ing)?|arriv(?:e|ing))\s+in(?:to)?\s+", re.IGNORECASE)
HOME_FROM = re.compile(r"\b(?:(?:fly(?:ing)?|head(?:ing)?|com(?:e|ing)|return(?:ing)?)\s+)?(?:home|back)\s+from\s+"
                       r"|\breturn(?:ing)?\s+(?:flight\s+)?from\s+", re.IGNORECASE)
FROM_FIRST = re.compile(r"^(?:the\s+)?(?:first|start|beginning)(?:\s+(?:city|stay|one|place))?\b", re.IGNORECASE)
FROM_LAST = re.compile(r"^(?:the\s+)?(?:last|final)(?:\s+(?:city|stay|one|place))?\b", re.IGNORECASE)

_REGION = "|".join(re.escape(r) for r in sorted(REGION_NAMES, key=len, reverse=True))
# A capitalised name of up to three words, and the region after a comma that is part of it ("Paris, Texas").
CAPITALISED_NAME = rf"{CAPITALISED}(?: {CAPITALISED}){{0,2}}"
REGION_AFTER = re.compile(rf"^,\s*(?P<region>(?i:{_REGION}))(?![\w-])")
# Capitalised words that are never a city here (a sentence's first word, themes, months are checked apart).
NOT_A_NAME = frozenset(KEYWORDS | STOPWORDS | set(THEMES) | {
    "budget", "fly", "flying", "flight", "flights", "train", "trains", "bus", "coach", "ferry", "boat", "car",
    "home", "back", "first", "last", "eurostar", "tgv", "shinkansen", "rail", "airport", "hotel", "hotels", "usd", "eur", "gbp", "jpy", "no", "not",
    "kids", "adults", "people", "travellers", "travelers", "museums", "food", "art", "then", "and", "via"})
