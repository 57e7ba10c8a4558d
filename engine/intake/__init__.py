"""Turning what the traveller typed into structured trip requests."""

from .city_prompt import MAX_PROMPT_CHARS, CityPromptResult, parse_city_prompt
from .road_prompt import RoadPromptResult, looks_like_road_trip, parse_road_prompt

__all__ = ["MAX_PROMPT_CHARS", "CityPromptResult", "parse_city_prompt", "RoadPromptResult",
           "looks_like_road_trip", "parse_road_prompt"]
