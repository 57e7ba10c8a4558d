"""Turning what the traveller typed into structured trip requests."""

from .city_prompt import CityPromptResult, parse_city_prompt
from .prompt_text import MAX_PROMPT_CHARS
from .road_prompt import RoadPromptResult, looks_like_road_trip, parse_road_prompt

__all__ = ["MAX_PROMPT_CHARS", "CityPromptResult", "parse_city_prompt", "RoadPromptResult",
           "looks_like_road_trip", "parse_road_prompt"]
