"""The OpenAI-compatible client: one ``AsyncOpenAI`` per config, explicit timeout and retries.

Retries follow the seed's ``fetchWithRetry``: 429, 5xx and a dropped connection are tried again
(``max_retries`` times, jittered exponential backoff, ``Retry-After`` honoured up to a cap); a
timeout is not (a slow server stays slow: the caller falls back at once). Everything that means
"this endpoint cannot be used" becomes ``ModelUnavailable`` with a one-line reason. The SDK's own
retries are off (its defaults are 600 s and 2 retries). Later this policy should run through the
shared tool executor (engine/tools) so breaker state and metrics are shared."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

from pydantic import BaseModel

from engine.errors import ModelUnavailable

from .config import LLMConfig
from .usage import CallUsage, UsageMeter, call_usage

BACKOFF_S = 0.25
MAX_RETRY_AFTER_S = 2.0


def response_format(schema: type[BaseModel]) -> dict:
    """Structured outputs: the pydantic model's JSON schema, strict (ids are enums there)."""
    return {"type": "json_schema",
            "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema(), "strict": True}}


class LLMClient:
    def __init__(self, config: LLMConfig, meter: UsageMeter | None = None) -> None:
        self.config = config
        self.meter = meter or UsageMeter()
        self.on_call = None  # called with each call's CallUsage (the pipeline turns it into an event)
        self.schema_mode = True  # False once the server refused json_schema: JSON mode + validation
        self._sdk = None

    def _client(self):
        if self._sdk is None:
            from openai import AsyncOpenAI  # lazy: ~1 s to import
            self._sdk = AsyncOpenAI(base_url=self.config.base_url, api_key=self.config.api_key,
                                    timeout=self.config.timeout_s, max_retries=0)
        return self._sdk

    async def ask_json(self, node: str, messages: list[dict], schema: type[BaseModel]) -> tuple[str, CallUsage]:
        """The model's raw JSON text for ``messages`` (validated by the caller), and its usage."""
        if self.meter.cost_usd >= self.config.max_cost_usd:
            raise ModelUnavailable(f"this run's model cost reached the ${self.config.max_cost_usd:g} limit")
        started = time.perf_counter()
        answer = await self._with_retries(messages, schema)
        usage = call_usage(node, self.config.model, getattr(answer, "usage", None),
                           int((time.perf_counter() - started) * 1000))
        self.meter.count_call()
        self.meter.record(usage)
        if self.on_call is not None:
            self.on_call(usage)
        return _content(answer), usage

    async def _with_retries(self, messages: list[dict], schema: type[BaseModel]) -> Any:
        import openai
        attempt = 0
        while True:
            try:
                return await self._create(messages, schema)
            except (openai.RateLimitError, openai.InternalServerError) as exc:
                reason = f"HTTP {exc.status_code} from the model endpoint"
                delay = _retry_after(exc)
            except openai.APITimeoutError:
                raise ModelUnavailable(f"the model did not answer within {self.config.timeout_s:g} s") from None
            except openai.APIConnectionError as exc:
                reason, delay = f"the model endpoint is unreachable ({_cause(exc)})", None
            except openai.APIStatusError as exc:
                raise ModelUnavailable(_status_reason(exc, self.config)) from None
            attempt += 1
            if attempt > self.config.max_retries:
                raise ModelUnavailable(f"{reason}, after {attempt} tries")
            await asyncio.sleep(delay if delay is not None else BACKOFF_S * 2 ** (attempt - 1) * random.uniform(0.8, 1.2))

    async def _create(self, messages: list[dict], schema: type[BaseModel]) -> Any:
        import openai
        fmt = response_format(schema) if self.schema_mode else {"type": "json_object"}
        try:
            return await self._client().chat.completions.create(
                model=self.config.model, messages=messages, response_format=fmt, temperature=0)
        except openai.BadRequestError as exc:
            if not self.schema_mode or "response_format" not in str(exc) and "json_schema" not in str(exc):
                raise
        self.schema_mode = False  # the server refuses schemas: JSON mode, validated here
        return await self._client().chat.completions.create(
            model=self.config.model, messages=messages, response_format={"type": "json_object"}, temperature=0)

    async def list_models(self) -> list[str]:
        """What "Test connection" shows: the endpoint's models, or ``ModelUnavailable``."""
        import openai
        try:
            page = await self._client().models.list()
            return sorted(m.id for m in page.data)
        except openai.APITimeoutError:
            raise ModelUnavailable(f"the model endpoint did not answer within {self.config.timeout_s:g} s") from None
        except openai.APIConnectionError as exc:
            raise ModelUnavailable(f"the model endpoint is unreachable ({_cause(exc)})") from None
        except openai.APIStatusError as exc:
            raise ModelUnavailable(_status_reason(exc, self.config)) from None
        except (AttributeError, TypeError) as exc:
            raise ModelUnavailable(f"the endpoint is not OpenAI-compatible ({type(exc).__name__})") from None

    async def close(self) -> None:
        """Close the SDK client; the next call makes a new one (on the loop then running)."""
        if self._sdk is not None:
            sdk, self._sdk = self._sdk, None
            await sdk.close()


def _content(answer: Any) -> str:
    try:
        content = answer.choices[0].message.content
    except (AttributeError, IndexError, TypeError):
        raise ModelUnavailable("the endpoint's answer is not an OpenAI chat completion") from None
    if not isinstance(content, str):
        raise ModelUnavailable("the endpoint's answer holds no message content")
    return content


def _status_reason(exc, config: LLMConfig) -> str:
    code = exc.status_code
    if code == 401:
        return "HTTP 401 unauthorized: the API key was refused (OPENAI_API_KEY or the key in Settings)"
    if code == 403:
        return "HTTP 403 forbidden: the API key may not use this model"
    if code == 404:
        return f"HTTP 404 not found: no model {config.model!r} or no /chat/completions at {config.base_url}"
    return f"HTTP {code} from the model endpoint"


def _retry_after(exc) -> float | None:
    try:
        value = float(exc.response.headers.get("retry-after", ""))
    except (AttributeError, ValueError):
        return None
    return min(max(value, 0.0), MAX_RETRY_AFTER_S)


def _cause(exc: BaseException) -> str:
    cause = exc.__cause__ or exc.__context__
    return type(cause).__name__ if cause is not None else "connection error"


def parse_json(text: str) -> Any:
    """JSON from an answer; models sometimes wrap it in a ```json fence."""
    body = text.strip()
    if body.startswith("```"):
        body = body.strip("`").removeprefix("json").strip()
    return json.loads(body)
