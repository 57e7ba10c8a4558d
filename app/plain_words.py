"""Messages in the traveller's words (issue 22 §2.8): the engine's errors name fields and settings
the way the code does ("origin_airport: …", "stops[0]: …", "day_index: …", "TRIPWRIGHT_OFFLINE=1");
the window shows them as a traveller would say them. The technical wording stays in Diagnostics,
the logs and the CLI."""

from __future__ import annotations

import re

from widgets.intent_fields import LABELS

# Engine and form field names → the label the traveller sees (None: the message says enough).
FIELD_WORDS: dict[str, str | None] = {
    **LABELS, "date_window": "Dates", "start_date": "Start", "budget_usd_cents": "Budget", "airport": "Home airport",
    "corridor_max_deviation_miles": "Corridor width", "travellers": "Travellers", "rooms": "Rooms",
    "prefs": "Preferences", "intent": None, "day_index": None, "choice_id": None, "activity_id": None,
    "venue_id": None, "places": "Places", "bookings": "Bookings", "llm_endpoint": "Model endpoint",
    "llm_model": "Model", "api_key": "API key", "home_airport": "Home airport",
}
# Whole phrases the code uses for settings and switches.
PHRASES = (
    ("TRIPWRIGHT_OFFLINE=1: only a model on this machine (localhost) is asked",
     "Offline mode is on: only a model running on this computer can be used"),
    (" (TRIPWRIGHT_MAX_VERSIONS)", ""),
    ("TRIPWRIGHT_OFFLINE=1", "offline mode"),
    ("TRIPWRIGHT_OFFLINE", "offline mode"),
)
_NAMED = re.compile(r"(^|: |; |\. )([a-z][a-z0-9_]*)((?:\[\d+\])*)(?:\.[a-z0-9_\[\]]+)*: ")


def _ordinal(index: str) -> str:
    number = int(index.strip("[]").split("][")[0]) + 1
    return f" {number}"


def in_plain_words(text: str) -> str:
    """``text`` with its code field names as labels ("stops[0]: …" → "Stops 1: …") and switches
    in words; the first letter capitalised."""
    for code, words in PHRASES:
        text = text.replace(code, words)

    def label(match: re.Match) -> str:
        before, field, index = match.group(1), match.group(2), match.group(3)
        if field not in FIELD_WORDS and "_" not in field:
            return match.group(0)  # an ordinary word before a colon ("Attempt 1: …")
        words = FIELD_WORDS.get(field, field.replace("_", " ").capitalize())
        if words is None:
            return before
        return f"{before}{words}{_ordinal(index) if index else ''}: "

    text = _NAMED.sub(label, text)
    return text[:1].upper() + text[1:]
