"""Token guards (seed 001): estimate ``ceil(chars / 4)``; over ``ITINERARY_MAX_PROMPT_TOKENS``
(12000) the prompt is rebuilt with less — v1 ideas 10 → 5 → 3 then a friendly error; v2+ new
ideas 5 → 3 → 0, then feedback capped at 10. The current itinerary is never cut."""

from __future__ import annotations

import math
import os
from typing import Callable, Sequence

from engine.errors import InputError

DEFAULT_MAX_PROMPT_TOKENS = 12000
V1_IDEAS = (10, 5, 3)
V2_STEPS = ((5, None), (3, None), (0, None), (0, 10))  # (new ideas, feedback cap)


def estimate(messages: list[dict]) -> int:
    return math.ceil(sum(len(m["content"]) for m in messages) / 4)


def max_prompt_tokens() -> int:
    text = (os.environ.get("ITINERARY_MAX_PROMPT_TOKENS") or "").strip()
    try:
        value = int(text) if text else DEFAULT_MAX_PROMPT_TOKENS
    except ValueError:
        raise InputError("ITINERARY_MAX_PROMPT_TOKENS", f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise InputError("ITINERARY_MAX_PROMPT_TOKENS", "must be at least 1")
    return value


def fit(build: Callable, steps: Sequence, limit: int, what: str) -> tuple[list[dict], object, int]:
    """The first step whose prompt fits: (messages, step, estimate); else a friendly InputError."""
    tokens = 0
    for step in steps:
        messages = build(step)
        tokens = estimate(messages)
        if tokens <= limit:
            return messages, step, tokens
    raise InputError("prompt", f"the {what} prompt needs about {tokens} tokens even at its smallest, over the "
                               f"{limit} allowed (ITINERARY_MAX_PROMPT_TOKENS); remove some ideas or feedback")
