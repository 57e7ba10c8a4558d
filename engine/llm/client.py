"""The OpenAI-compatible client: one ``AsyncOpenAI`` per config, explicit timeout, SDK retries off.

Every chat call runs under the shared tool executor's policy (engine/tools/executor.py) as the tool
``llm``: its breaker, exactly one retry after 200–500 ms of jitter on a timeout, a 429, a 5xx or a
dropped connection (``Retry-After`` honoured when it fits the budget), never on a refusal (401, 404,
a 400) or an answer that is not a chat completion; ``tool_latency_ms{tool="llm"}`` and
``tool_errors_total{tool="llm",reason}``. There is no cache: a model's answer is never replayed.
Everything that means "this endpoint cannot be used" becomes ``ModelUnavailable`` with a one-line
reason. The SDK's own retries are 0 (its defaults are 600 s and 2 retries)."""

from __future__ import annotations

import functools
import json
import time
from typing import Any

from pydantic import BaseModel

from engine.errors import ModelUnavailable, ToolError, ToolResponseError, ToolTimeout, ToolUnavailable
from engine.tools.executor import log_tool_call

from engine.net import bounded_http

from .config import LLMConfig
from .usage import CallUsage, UsageMeter, call_usage

TOOL = "llm"  # the executor's name for model calls (breaker, stats, metric labels)
SOFT_SHARE = 0.8  # a model call slower than this share of the timeout is logged as slow
MAX_REPLY_BYTES = 10 * 1024 * 1024  # decompressed; a plan draft is a few KB


@functools.cache
def tls_context():
    """The system's CA bundle, read once per process: each SDK client would read it again
    (~80 ms, most of a run's overhead outside the model call)."""
    try:
        from httpx2 import create_ssl_context  # the openai SDK's HTTP stack (3.x)
    except ImportError:  # pragma: no cover - older SDKs run on httpx
        from httpx import create_ssl_context
    return create_ssl_context()


def response_format(schema: type[BaseModel]) -> dict:
    """Structured outputs: the pydantic model's JSON schema, strict (ids are enums there)."""
    return {"type": "json_schema",
            "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema(), "strict": True}}


class LLMClient:
    def __init__(self, config: LLMConfig, meter: UsageMeter | None = None, executor=None) -> None:
        self.config = config
        self.meter = meter or UsageMeter()
        self.on_call = None  # called with each call's CallUsage (the pipeline turns it into an event)
        self.executor = executor  # engine.tools.executor.ToolExecutor: the session's, else one of its own
        self.schema_mode = True  # False once the server refused json_schema: JSON mode + validation
        self._sdk = None

    def _client(self):
        if self._sdk is None:
            import httpx2
            from openai import AsyncOpenAI, DefaultAsyncHttpxClient  # lazy: ~1 s to import
            # The reply capped (decompressed size, total time) and redirects kept on the endpoint.
            transport = bounded_http.async_transport(httpx2, cap=MAX_REPLY_BYTES, total_s=self.config.timeout_s,
                                                     verify=tls_context())
            http = DefaultAsyncHttpxClient(transport=transport,
                                           event_hooks={"response": [bounded_http.redirect_guard]})
            self._sdk = AsyncOpenAI(base_url=self.config.base_url, api_key=self.config.api_key,
                                    timeout=self.config.timeout_s, max_retries=0, http_client=http)
        return self._sdk

    def _executor(self):
        if self.executor is None:
            from engine.tools.executor import ToolExecutor
            self.executor = ToolExecutor()
        self.executor.quiet_tools.add(TOOL)  # ModelUnavailable's one line says what failed
        return self.executor

    async def ask_json(self, node: str, messages: list[dict], schema: type[BaseModel]) -> tuple[str, CallUsage]:
        """The model's raw JSON text for ``messages`` (validated by the caller), and its usage."""
        if self.meter.cost_usd >= self.config.max_cost_usd:
            raise ModelUnavailable(f"this run's model cost reached the ${self.config.max_cost_usd:g} limit")
        self._client()  # the SDK's import (~1 s) is not the endpoint's latency
        started = time.perf_counter()
        tries = [0]
        timeout = self.config.timeout_s
        try:
            # The executor's own timer is a backstop just past the SDK's, which names the wait.
            answer, text = await self._executor().call_uncached(
                TOOL, self._attempt, (messages, schema, tries),
                soft_timeout_s=timeout * SOFT_SHARE, hard_timeout_s=timeout + 1.0, log_call=False)
        except ToolError as exc:
            after = f", after {tries[0]} tries" if tries[0] > 1 else ""
            if exc.kind == "circuit_open":
                raise ModelUnavailable(f"the model endpoint keeps failing ({exc.reason})") from None
            raise ModelUnavailable(f"{exc.reason}{after}") from None
        usage = call_usage(node, self.config.model, getattr(answer, "usage", None),
                           int((time.perf_counter() - started) * 1000))
        self.meter.count_call(node)
        self.meter.record(usage)
        log_tool_call(TOOL, usage.duration_ms, retries=max(tries[0] - 1, 0), cache_hit=False,
                      tokens_in=usage.prompt_tokens, tokens_out=usage.completion_tokens, cost_usd=usage.cost_usd,
                      model=usage.model, prompt_tokens=usage.prompt_tokens,
                      completion_tokens=usage.completion_tokens)
        if self.on_call is not None:
            self.on_call(usage)
        return text, usage

    async def _attempt(self, request: tuple[list[dict], type[BaseModel], list[int]]) -> tuple[Any, str]:
        """One request, its failures as the executor's error kinds (which decide the retry)."""
        import openai
        messages, schema, tries = request
        tries[0] += 1
        try:
            answer = await self._create(messages, schema)
        except bounded_http.ReplyRefused as exc:
            raise _labelled(exc.tool_error(TOOL), "reply_refused") from None
        except (openai.RateLimitError, openai.InternalServerError) as exc:
            raise _labelled(ToolUnavailable(TOOL, f"HTTP {exc.status_code} from the model endpoint",
                                            retry_after_s=_retry_after(exc)),
                            "rate_limited" if exc.status_code == 429 else "http_5xx") from None
        except openai.APITimeoutError:
            raise ToolTimeout(TOOL, f"the model did not answer within {self.config.timeout_s:g} s") from None
        except openai.APIConnectionError as exc:
            raise _labelled(ToolUnavailable(TOOL, f"the model endpoint is unreachable ({_cause(exc)})"),
                            "unreachable") from None
        except openai.APIStatusError as exc:
            raise _labelled(ToolResponseError(TOOL, _status_reason(exc, self.config)), f"http_{exc.status_code}") from None
        except (ValueError, TypeError, AttributeError):  # HTTP 200 whose body is no JSON or no completion
            raise _labelled(ToolResponseError(TOOL, "the endpoint's answer is not a JSON chat completion"),
                            "bad_answer") from None
        return answer, _content(answer)

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
        except bounded_http.ReplyRefused as exc:
            raise ModelUnavailable(exc.reason) from None
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
        raise ToolResponseError(TOOL, "the endpoint's answer is not an OpenAI chat completion") from None
    if not isinstance(content, str):
        raise ToolResponseError(TOOL, "the endpoint's answer holds no message content")
    return content


def _labelled(exc: ToolError, kind: str) -> ToolError:
    """The error with its own label in ``tool_errors_total{tool="llm",reason}``."""
    exc.kind = kind
    return exc


def _status_reason(exc, config: LLMConfig) -> str:
    code = exc.status_code
    if code == 401:
        return "HTTP 401 unauthorized: the API key was refused (OPENAI_API_KEY or the key in Settings)"
    if code == 403:
        return "HTTP 403 forbidden: the API key may not use this model"
    if code == 404:
        return f"HTTP 404 not found: no model {config.model!r} or no /chat/completions at {_public(config.base_url)}"
    return f"HTTP {code} from the model endpoint"


def _retry_after(exc) -> float | None:
    try:
        value = float(exc.response.headers.get("retry-after", ""))
    except (AttributeError, ValueError):
        return None
    return max(value, 0.0)  # the executor waits for it only when it fits its retry budget


def _cause(exc: BaseException) -> str:
    cause = exc.__cause__ or exc.__context__
    return type(cause).__name__ if cause is not None else "connection error"


def parse_json(text: str) -> Any:
    """JSON from an answer; models sometimes wrap it in a ```json fence."""
    body = text.strip()
    if body.startswith("```"):
        body = body.strip("`").removeprefix("json").strip()
    return json.loads(body)


def _public(url: str) -> str:
    """``url`` without its user:password part: a message may be shown and logged."""
    from engine.log_setup import redact_text
    return redact_text(url)
