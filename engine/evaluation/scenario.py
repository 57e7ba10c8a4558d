"""The YAML scenario format (seed §14.1 plus Tripwright's additions) and its loading.

.. code-block:: yaml

    scenario_id: fx_shock
    description: EUR/USD pinned at 1.20; a budget given in EUR is converted with that rate
    today: 2026-11-23                # planning date (FX as-of T-1); default 2026-11-23
    intent:                          # IntentV1 (seed §3.1); two conveniences:
      city: Paris
      date_window: {start: 2027-06-15, end: 2027-06-19, tz: Europe/Paris}
      budget: {amount: 2500, currency: EUR}   # instead of budget_usd_cents
      airports: [CDG]
      origin_airport: JFK            # optional, default JFK (SPEC_DECISIONS §2.4)
      prefs: {themes: [art]}
    overrides:                       # pinned tool facts (ToolOverrides)
      weather: {"2027-06-19": {precip_prob: 0.8}}
      fx: {EUR: 1.20}
    edits:                           # user edits applied to the selected plan before verify/repair
      - retime: {choice: visit, day: 3, nth: -1, start: "21:30", end: "23:45"}
    pack: lisbon_pt                  # optional: plan an OSM city pack's city (engine.evaluation.packs)
    expect: {status: ok}             # ok | error
    must_satisfy:
      - predicate: "itinerary.cost_breakdown.total_usd_cents <= intent.budget_usd_cents"
        description: within budget

``budget`` and ``origin_airport`` may also be given at the top level. A multi-city trip's intent
says ``mode: multi_city`` (a MultiCityIntent) and names the packs of its stays in ``packs``. ``pack`` names a city pack
shipped for the suite (``tests/eval/packs/<slug>.json.gz``): the session plans with it joined to the
catalog, as a cached pack is joined, so the scenario runs offline; ``intent.city`` is then the
pack's city ("Lisbon"). Edits are one-key mappings:

* ``retime: {choice, day?, nth?, start, end, lock?}``
* ``remove: {choice, day?, nth?}``
* ``replace: {choice, day?, nth?, venue}``
* ``lock`` / ``unlock: {choice, day?, nth?}``
* ``move: {choice, day?, nth?, to_day, start, end}``

Predicates (see :mod:`engine.evaluation.predicates`) see ``itinerary`` (ItineraryV1 or None),
``intent`` (the IntentV1 that was planned, budget already in USD cents), ``failure``
(PlanFailure or None), ``result`` (the PlanResult: ``status``, ``events``, ``inputs``, …) and two
conveniences: ``plan`` (the final PlanV1 — repaired, or the best attempt on failure) and ``facts``
(the TripFacts the plan was checked against: ``facts.venues[id]``, ``facts.flights``, ``facts.weather``;
a venue's hours by date: ``facts.venues[id].is_open(date, window)``, ``.closed_reason(date)``), and
``city``: the catalog's rows of the planned city (``city.venues``, ``city.restaurants``,
``city.hotels`` — for a pack each with ``hours_known``, ``price_estimated``, ``data_source``), every
place the planner could have chosen, not only those it did.
For a scenario whose ``pack`` is named by a row of the plan-quality registry
(``tests/data/osm/quality.json``, key ``pack``), ``quality`` holds the plan's quality scores
(``engine.evaluation.quality_suite.score_plan``: ``quality['coverage']``, ``['largest_hole_h']``,
``['route_ratio']``, ``['meals_at_restaurants']``, ``['nights_at_bed']``, ``['fastest_mph']``, …);
otherwise it is None. The quality scenarios live in ``tests/eval/quality_scenarios/``.

``choice`` is resolved against the selected plan when the edit runs: a slot matches when its
choice id, its venue/option id (``option_ref``) or its role (``activity``, ``meal``, ``checkin``,
…; ``visit`` = activity or meal) equals ``choice``. ``day`` (0-based, like ``day_offset``)
restricts the search to one day; ``nth`` picks among several matches in time order (default 0,
``-1`` = the last). Times are ``"HH:MM"`` (quote them: unquoted ``21:30`` is a YAML 1.1 base-60
integer, which is accepted as minutes after midnight too).
"""

from __future__ import annotations

from datetime import date, time
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from engine.edits import Lock, MoveToDay, Remove, Replace, Retime, Unlock
from engine.errors import InputError
from engine.facts import TripFacts
from engine.models.common import iso_currency
from engine.models import PlanV1, TimeWindow

DEFAULT_TODAY = date(2026, 11, 23)
DEFAULT_ORIGIN = "JFK"
EDIT_OPS = ("retime", "remove", "replace", "lock", "unlock", "move")


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BudgetSpec(_Spec):
    amount: float = Field(gt=0)
    currency: str = "USD"

    _iso = field_validator("currency")(lambda v: iso_currency(v))


class OverridesSpec(_Spec):
    weather: dict[date, dict[str, float]] = Field(default_factory=dict)
    fx: dict[str, float] = Field(default_factory=dict)


class PredicateSpec(_Spec):
    predicate: str
    description: str = ""

    @property
    def label(self) -> str:
        return self.description or self.predicate


class Expect(_Spec):
    status: Literal["ok", "error"] = "ok"


class EditSpec(_Spec):
    op: Literal["retime", "remove", "replace", "lock", "unlock", "move"]
    choice: str
    day: int | None = Field(default=None, ge=0)
    nth: int = 0
    start: time | None = None
    end: time | None = None
    lock: bool = False
    venue: str | None = None
    to_day: int | None = Field(default=None, ge=0)

    @field_validator("start", "end", mode="before")
    @classmethod
    def _time(cls, v: Any) -> Any:
        if isinstance(v, bool):
            raise ValueError("expected a time 'HH:MM'")
        if isinstance(v, int):  # YAML 1.1 reads unquoted 21:30 as 1290 (base 60) = minutes
            if not 0 <= v < 24 * 60:
                raise ValueError(f"{v} minutes is not a time of day")
            return time(v // 60, v % 60)
        if isinstance(v, str) and v.strip() in ("24:00", "23:60"):
            return time(23, 59)
        return v

    @model_validator(mode="after")
    def _fields(self) -> "EditSpec":
        needs_window = self.op in ("retime", "move")
        if needs_window and (self.start is None or self.end is None):
            raise ValueError(f"{self.op} needs start and end")
        if self.op == "replace" and not self.venue:
            raise ValueError("replace needs venue")
        if self.op == "move" and self.to_day is None:
            raise ValueError("move needs to_day")
        return self

    @property
    def window(self) -> TimeWindow:
        return TimeWindow(start=self.start, end=self.end)


class Scenario(_Spec):
    scenario_id: str = Field(pattern=r"^[a-z0-9_]{1,64}$")
    description: str = ""
    today: date = DEFAULT_TODAY
    intent: dict[str, Any]
    budget: BudgetSpec | None = None
    origin_airport: str | None = None
    overrides: OverridesSpec = Field(default_factory=OverridesSpec)
    edits: list[EditSpec] = Field(default_factory=list)
    expect: Expect = Field(default_factory=Expect)
    must_satisfy: list[PredicateSpec] = Field(default_factory=list)
    pack: str | None = Field(default=None, pattern=r"^[a-z0-9_]{2,64}$")  # a shipped OSM city pack's slug
    # more shipped packs (a multi-city trip's stays: "packs: [barcelona_es, lisbon_pt]")
    packs: list[Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]{2,64}$")]] = Field(default_factory=list,
                                                                                       max_length=8)
    path: str | None = None

    @field_validator("edits", mode="before")
    @classmethod
    def _edits(cls, v: Any) -> Any:
        if v is None:
            return []
        if not isinstance(v, list):
            raise ValueError("edits must be a list")
        out = []
        for i, item in enumerate(v):
            if not isinstance(item, dict) or len(item) != 1:
                raise ValueError(f"edits[{i}] must be a one-key mapping like {{retime: {{...}}}}")
            (op, body), = item.items()
            if op not in EDIT_OPS:
                raise ValueError(f"edits[{i}]: unknown edit {op!r}; use one of {', '.join(EDIT_OPS)}")
            if not isinstance(body, dict):
                raise ValueError(f"edits[{i}].{op} must be a mapping")
            out.append({"op": op, **body})
        return out

    @field_validator("must_satisfy", mode="before")
    @classmethod
    def _predicates(cls, v: Any) -> Any:
        if v is None:
            return []
        return [{"predicate": p} if isinstance(p, str) else p for p in v]

    @model_validator(mode="after")
    def _budget_once(self) -> "Scenario":
        inner = self.intent.get("budget")
        given = [k for k, present in (("intent.budget_usd_cents", "budget_usd_cents" in self.intent),
                                      ("intent.budget", inner is not None),
                                      ("budget", self.budget is not None)) if present]
        if len(given) != 1:
            raise ValueError("give exactly one of intent.budget_usd_cents, intent.budget or budget "
                             f"(found: {', '.join(given) or 'none'})")
        if self.origin_airport and self.intent.get("origin_airport"):
            raise ValueError("origin_airport given both at the top level and in intent")
        return self

    @property
    def budget_spec(self) -> BudgetSpec | None:
        inner = self.intent.get("budget")
        return BudgetSpec.model_validate(inner) if inner is not None else self.budget

    def intent_data(self, budget_usd_cents: int | None) -> dict[str, Any]:
        """The IntentV1 payload: ``budget`` replaced by cents, ``origin_airport`` defaulted."""
        data = {k: v for k, v in self.intent.items() if k != "budget"}
        if budget_usd_cents is not None:
            data["budget_usd_cents"] = budget_usd_cents
        data.setdefault("origin_airport", self.origin_airport or DEFAULT_ORIGIN)
        return data


def load_scenario(path: str | Path) -> Scenario:
    """Parse one YAML file; a malformed file is an InputError naming the file and field."""
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise InputError(str(path), f"cannot read scenario: {' '.join(str(exc).split())}") from None
    except UnicodeDecodeError as exc:
        raise InputError(str(path), f"not UTF-8 text (bad byte at offset {exc.start})") from None
    except RecursionError:
        raise InputError(str(path), "nests too deeply to be a scenario") from None
    if not isinstance(raw, dict):
        raise InputError(str(path), "a scenario file must hold a mapping")
    try:
        return Scenario.model_validate({**raw, "path": str(path)})
    except ValueError as exc:
        errors = getattr(exc, "errors", lambda: [])()
        if errors:
            first = errors[0]
            where = ".".join(str(p) for p in first.get("loc", ())) or "scenario"
            raise InputError(f"{path.name}: {where}", str(first.get("msg", exc)).removeprefix("Value error, ")) from None
        raise InputError(path.name, str(exc)) from None


class ResolvedEdit:
    """A scenario edit that finds its slot in the selected plan when it runs (a PlanEdit)."""

    def __init__(self, spec: EditSpec, index: int) -> None:
        self.spec = spec
        self.index = index

    def __repr__(self) -> str:
        return f"ResolvedEdit(edits[{self.index}]={self.spec.op} {self.spec.choice})"

    def resolve(self, plan: PlanV1) -> str:
        s = self.spec
        if s.day is not None and s.day >= len(plan.days):
            raise InputError(f"edits[{self.index}].day", f"the trip has days 0-{len(plan.days) - 1}")
        matches = []
        for di, _, slot in plan.slots():
            if s.day is not None and di != s.day:
                continue
            c = slot.selected
            role_match = slot.role == s.choice or (s.choice == "visit" and slot.role in ("activity", "meal"))
            if s.choice in (c.choice_id, c.option_ref) or role_match:
                matches.append(c.choice_id)
        where = f" on day {s.day}" if s.day is not None else ""
        if not matches:
            raise InputError(f"edits[{self.index}].choice", f"no slot matches {s.choice!r}{where}")
        try:
            return matches[s.nth]
        except IndexError:
            raise InputError(f"edits[{self.index}].nth",
                             f"only {len(matches)} slot(s) match {s.choice!r}{where}") from None

    def concrete(self, plan: PlanV1):
        s, cid, i = self.spec, self.resolve(plan), self.index
        if s.op == "retime":
            return Retime(cid, window=s.window, lock=s.lock, index=i)
        if s.op == "remove":
            return Remove(cid, index=i)
        if s.op == "replace":
            return Replace(cid, venue_id=s.venue, index=i)
        if s.op == "lock":
            return Lock(cid, index=i)
        if s.op == "unlock":
            return Unlock(cid, index=i)
        return MoveToDay(cid, day_index=s.to_day, window=s.window, index=i)

    def __call__(self, plan: PlanV1, facts: TripFacts) -> PlanV1:
        return self.concrete(plan)(plan, facts)


def resolved_edits(scenario: Scenario) -> list[ResolvedEdit]:
    return [ResolvedEdit(spec, i) for i, spec in enumerate(scenario.edits)]


__all__ = ["BudgetSpec", "DEFAULT_ORIGIN", "DEFAULT_TODAY", "EditSpec", "Expect", "OverridesSpec",
           "PredicateSpec", "ResolvedEdit", "Scenario", "load_scenario", "resolved_edits"]
