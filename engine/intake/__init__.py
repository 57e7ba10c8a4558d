"""Turning what the traveller typed into structured trip requests."""

from .city_prompt import MAX_PROMPT_CHARS, CityPromptResult, parse_city_prompt

__all__ = ["MAX_PROMPT_CHARS", "CityPromptResult", "parse_city_prompt"]
