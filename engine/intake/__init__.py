"""Turning what the traveller typed into structured trip requests.

The city and road parsers load on first use (their word lists and patterns take ~50-100 ms each to
build), so reading a road-trip prompt never builds the city parser's.

rule-based free-text parsing: city-trip prompts, multi-city prompts (`multi_city_prompt.py`, its words in
`multi_city_words.py`: stays and the legs between them), road-trip prompts (`road_prompt.py` the parse,
`road_words.py` its words and patterns, `road_places.py` origin/terminus/stops, `road_route_names.py` named
routes, `road_classifier.py` road or city), and the classifier between them; `party.py` reads the party size
("for 2 people", "family of 4", "2 adults and 3 kids", "with 2 kids" = the writer plus the children) and
blanks it so it is never a length or a budget; `prompt_text.py` holds what both read the same way (cleaning,
the blanking scan, dates and `explicit_span`)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .prompt_text import MAX_PROMPT_CHARS

if TYPE_CHECKING:
    from .city_prompt import CityPromptResult, parse_city_prompt
    from .multi_city_prompt import MultiCityPromptResult, parse_multi_city_prompt
    from .road_prompt import RoadPromptResult, looks_like_road_trip, parse_road_prompt

__all__ = ["MAX_PROMPT_CHARS", "CityPromptResult", "parse_city_prompt", "MultiCityPromptResult",
           "parse_multi_city_prompt", "RoadPromptResult",
           "looks_like_road_trip", "parse_road_prompt"]

_WHERE = {"CityPromptResult": "city_prompt", "parse_city_prompt": "city_prompt",
          "MultiCityPromptResult": "multi_city_prompt", "parse_multi_city_prompt": "multi_city_prompt",
          "RoadPromptResult": "road_prompt", "parse_road_prompt": "road_prompt",
          "looks_like_road_trip": "road_classifier"}


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
