"""Asking for a pydantic-shaped answer, with the seed's invalid-output path (002 §5.5):
schema-reject → the caller rolls back → one re-ask with the schema, an example and the errors →
a second invalid answer raises ``ModelOutputError`` (the run stops: ``invalid_model_output``)."""

from __future__ import annotations

import json
from typing import Callable, TypeVar

from pydantic import BaseModel, ValidationError

from engine.errors import ModelOutputError

from .client import LLMClient, parse_json

M = TypeVar("M", bound=BaseModel)
MAX_ERRORS_SHOWN = 8


def answer_errors(schema: type[M], text: str) -> tuple[M | None, list[str]]:
    """The validated answer, or the errors that reject it (ids outside the enums included)."""
    try:
        data = parse_json(text)
    except ValueError as exc:
        return None, [f"not JSON: {exc}"]
    try:
        return schema.model_validate(data), []
    except ValidationError as exc:
        return None, [_error_line(e) for e in exc.errors()[:MAX_ERRORS_SHOWN]]


def _error_line(e: dict) -> str:
    """One rejection, short: an enum error lists every id, so say only what was given."""
    where = ".".join(str(p) for p in e["loc"]) or "answer"
    if e["type"] == "literal_error":
        return f"{where}: {str(e.get('input'))[:80]!r} is not one of the allowed ids"
    return f"{where}: {e['msg'][:200]}"


def reask_message(schema: type[BaseModel], example: dict, errors: list[str]) -> dict:
    return {"role": "user", "content": (
        f"Your answer was rejected. You must return valid JSON matching {schema.__name__}, and "
        f"nothing else.\nErrors:\n- " + "\n- ".join(errors)
        + f"\nSchema:\n{json.dumps(schema.model_json_schema(), separators=(',', ':'))}"
        + f"\nExample of a valid answer:\n{json.dumps(example)}")}


async def ask_valid(client: LLMClient, node: str, messages: list[dict], schema: type[M], *, example: dict,
                    on_reject: Callable[[list[str]], None] | None = None,
                    check: Callable[[M], list[str]] | None = None) -> M:
    """``check``: rules a schema cannot say (a road trip's driving order); a valid first answer
    that breaks them is re-asked once with the problems too (not counted invalid). The second
    answer is returned when it is valid, whatever ``check`` says: the caller absorbs the rest."""
    text, _ = await client.ask_json(node, messages, schema)
    answer, errors = answer_errors(schema, text)
    first_invalid = answer is None
    if answer is not None:
        errors = check(answer) if check is not None else []
        if not errors:
            return answer
    else:
        client.meter.count_invalid(node)
    if on_reject is not None:
        on_reject(errors)
    retry = [*messages, {"role": "assistant", "content": text[:4000]}, reask_message(schema, example, errors)]
    text, _ = await client.ask_json(node, retry, schema)
    answer, errors = answer_errors(schema, text)
    if answer is not None:
        return answer
    client.meter.count_invalid(node)
    how = "twice" if check is None or first_invalid else "after a re-ask"
    raise ModelOutputError(f"the model's {node} answer was invalid {how}: " + "; ".join(errors[:3]),
                           node=node, errors=errors)
