"""One error hierarchy for the whole engine.

    TripwrightError
    ├── InputError            bad user input; names the field (CLI exit 2)
    │   ├── UnknownCityError  a city the fixtures do not cover
    │   ├── AmbiguousCityError several places share a city's name (``candidates``, best first)
    │   ├── AmbiguousPlaceError a road trip's place is a near tie nothing decides (``candidates``)
    │   ├── CityPackMissing   offline, and the city has no cached OSM pack yet
    │   └── VersionCapError   a trip already has MAX_VERSIONS LLM revisions
    ├── FixtureError          an embedded data file is missing or invalid (a bug, not user input)
    ├── InfeasiblePlan        bounded repair ran out; carries the best plan and what is left (exit 3)
    ├── PlanCancelled         the caller cancelled a run
    ├── ToolError             a tool adapter failed (``reason`` is a short metric label)
    │   ├── ToolTimeout       no answer within the hard timeout (retried once)
    │   ├── ToolUnavailable   breaker open, 5xx/429 or no network; ``retry_after_s`` when known
    │   └── ToolResponseError garbage, wrong content type, 200 with an error body (never retried)
    ├── ModelOutputError      an LLM answered something that is not valid for its schema
    ├── ModelUnavailable      the LLM endpoint cannot be used (unreachable, slow, 401, 404, cost cap)
    ├── TenancyError          an operation without (or across) an org context
    ├── StoreError            the database cannot be opened or written (locked, corrupt, unreachable, too new)
    └── AuthError             a failed login or a locked account (``retry_after_s`` when locked)

the one error hierarchy (tree in its docstring): `InputError` → exit 2, `InfeasiblePlan` → exit 3,
`ToolError`, `PlanCancelled`, `FixtureError`, `ModelOutputError`, `TenancyError`; `one_line(exc)` is how the
app and the CLI show any of them in one line
"""

from __future__ import annotations

from typing import Any


class TripwrightError(Exception):
    """Base of every error the engine raises on purpose. No error here subclasses a built-in error
    class, so an ``except`` meant for a library's ``ValueError``/``OSError``/``KeyError`` never
    catches one of ours (tests/engine/test_hostile_leftovers.py checks it)."""


class InputError(TripwrightError):
    """Invalid user input. ``field`` names what is wrong, for a one-line message. Not a
    ``ValueError`` (issue 35): an ``except ValueError`` around a library call would swallow it and
    word it as something else (a 5,000-page PDF refused as "unreadable PDF (InputError)")."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")

    @classmethod
    def from_validation(cls, exc, prefix: str = "", default: str = "input") -> InputError:  # noqa: ANN001
        """A pydantic ``ValidationError`` as field and message: its first error's field path
        (under ``prefix``; ``default`` when the error has no location) and message, with
        "(and N more)" when there are more. The one place validation errors become ours."""
        from engine.models.common import field_path  # engine.models is heavy: only when needed
        errors = exc.errors(include_url=False)
        field = field_path(errors[0]["loc"]) or prefix or default
        if prefix and field != prefix and not field.startswith(prefix):
            field = f"{prefix}.{field}"
        message = str(errors[0]["msg"]).removeprefix("Value error, ")
        if len(errors) > 1:
            message += f" (and {len(errors) - 1} more)"
        return cls(field, message)


class UnknownCityError(InputError):
    def __init__(self, city: str, supported: list[str], query: str | None = None) -> None:
        self.city = city
        self.query = query  # the words around the name that may say where it is ("Córdoba, Spain")
        super().__init__("city", f"unknown city {city!r}; supported: {', '.join(supported)}")


class AmbiguousCityError(InputError):
    """Several places share the name; ``candidates`` (engine.places.CitySpec) lists them, best first."""

    def __init__(self, query: str, candidates: list) -> None:
        self.query = query
        self.candidates = candidates
        listed = "; ".join(c.label for c in candidates)
        super().__init__("city", f"{query!r} could mean {listed}: say which (e.g. {candidates[0].label!r})")


class AmbiguousPlaceError(InputError):
    """A road trip's place name whose best candidates are near-tied ("Springfield": MO 0.14, MA
    0.13) and that nothing (a qualifier, the corridor, a nearby point) decides; ``candidates``
    are their labels, best first."""

    def __init__(self, field: str, query: str, candidates: list[str]) -> None:
        self.query = query
        self.candidates = candidates
        super().__init__(field, f"{query!r} could mean {'; '.join(candidates)}: write it with its state or "
                                f"country (e.g. {candidates[0].split(' (')[0]!r})")


class CityPackMissing(InputError):
    """Offline (or the fetch was refused), and no pack of the city is cached yet."""

    def __init__(self, label: str, why: str = "offline") -> None:
        self.label = label
        super().__init__("city", f"{label} needs one online fetch of its OpenStreetMap places first ({why}); "
                                 f"run 'tripwright cities fetch \"{label}\"' while online")


class VersionCapError(InputError):
    """A trip has used up its LLM revisions (SPEC_DECISIONS §2.8: at most ``MAX_VERSIONS``, default
    3). Deterministic re-plans from map edits are never capped, so the trip stays editable."""

    def __init__(self, cap: int, setting: str = "TRIPWRIGHT_MAX_VERSIONS") -> None:
        self.cap = cap
        super().__init__("version", f"this trip already has {cap} LLM revision(s), the most allowed; "
                                    f"edit it on the map instead, or raise {setting}")


class FixtureError(TripwrightError):
    """An embedded fixture file failed to load or validate."""


class InfeasiblePlan(TripwrightError):
    """Bounded repair could not remove every blocking violation."""

    def __init__(self, message: str, *, best: Any = None, violations: list[Any] | None = None,
                 attempts: list[Any] | None = None) -> None:
        self.message = message
        self.best = best
        self.violations = violations or []
        self.attempts = attempts or []
        super().__init__(message)


class PlanCancelled(TripwrightError):
    """The run was cancelled through its CancelToken."""


class PdfRenderFailed(TripwrightError):
    """The PDF renderer (the desktop layer's offscreen map) could not draw the trip."""


class ToolError(TripwrightError):
    """A tool failed. ``reason`` is the human line; ``kind`` the label for ``tool_errors_total``."""

    kind = "error"

    def __init__(self, tool: str, reason: str) -> None:
        self.tool = tool
        self.reason = reason
        super().__init__(f"{tool}: {reason}")


class ToolTimeout(ToolError):
    """No answer in time. ``retryable=False``: the attempt already used the request's whole time
    (a server dripping its reply), so the executor sends no second one."""

    kind = "timeout"

    def __init__(self, tool: str, reason: str, *, retryable: bool = True) -> None:
        self.retryable = retryable
        super().__init__(tool, reason)


class ToolUnavailable(ToolError):
    """Breaker open, a 5xx/429 answer, or no network. Retried once unless the breaker is open."""

    kind = "unavailable"

    def __init__(self, tool: str, reason: str, *, retry_after_s: float | None = None,
                 retryable: bool = True) -> None:
        self.retry_after_s = retry_after_s
        self.retryable = retryable
        super().__init__(tool, reason)


class ToolResponseError(ToolError):
    """The service answered, but not with what we asked for: retrying would get the same."""

    kind = "bad_response"


class ModelOutputError(TripwrightError):
    """An LLM returned output that failed schema validation (twice: the re-ask failed too)."""

    reason = "invalid_model_output"

    def __init__(self, message: str, *, node: str = "", errors: list[str] | None = None) -> None:
        self.node = node
        self.errors = errors or []
        super().__init__(message)


class ModelUnavailable(TripwrightError):
    """The model cannot be asked; callers fall back to the rule-based path. ``reason`` is one
    line for the warning (never holds the key or the prompt)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class TenancyError(TripwrightError):
    """A data access without an org context, or across orgs."""


class StoreError(TripwrightError):
    """The database cannot be used; the message is one line and the data is left untouched."""


class AuthError(TripwrightError):
    """Login refused. ``retry_after_s`` is set while the account is locked (the 429 equivalent)."""

    def __init__(self, message: str, *, retry_after_s: int | None = None) -> None:
        self.retry_after_s = retry_after_s
        super().__init__(message)


def one_line(exc: BaseException, *, sentence: bool = False) -> str:
    """An error as the one line a window or a terminal shows: whitespace folded, the type's name
    when the message is empty; ``sentence`` capitalises it and ends it with a full stop."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    if sentence:
        text = text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
    return text
