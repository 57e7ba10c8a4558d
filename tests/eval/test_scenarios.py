"""The YAML scenario suite (seed §14): every scenario passes, the predicates really discriminate,
the predicate evaluator is safe, and the suite prints the seed §1.3 correctness figures."""

from __future__ import annotations

from datetime import date, time
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from engine.errors import InputError
from engine.evaluation import (DEFAULT_SCENARIOS, PredicateError, SafeExpression, UnsafeExpression, check,
                               load_scenario, main, run_scenario, run_scenario_async, run_suite)
from engine.evaluation.runner import build_session, citation_counts, scenario_intent
from engine.tools.requests import FXRequest

SCENARIO_DIR = Path(__file__).parent / "scenarios"
SCENARIOS = sorted(SCENARIO_DIR.glob("*.yaml"))
SEED_CASES = {"budget_pinch", "overnight_flight", "venue_closed_monday", "rainy_saturday", "toddler_amenity",
              "dst_spring_forward", "last_train_cutoff", "fx_shock", "partial_day_arrival", "locked_slot_edit",
              "multi_airport_choice", "repair_exhaustion", "negative_budget"}
# Cities planned from an OSM city pack shipped beside the scenarios (tests/eval/test_pack_scenarios.py)
PACK_CASES = {"pack_monday_closure", "pack_unknown_hours", "pack_budget_repair", "pack_estimated_labels"}
# Multi-city trips (issue 33 §5): stays of fixture cities and shipped packs joined by legs
MULTI_CASES = {"multi_two_city_train", "multi_three_city", "multi_open_jaw", "multi_booked_train", "multi_budget_tier"}


def test_the_suite_covers_the_seed_cases():
    assert {p.stem for p in SCENARIOS} == SEED_CASES | PACK_CASES | MULTI_CASES
    assert DEFAULT_SCENARIOS.resolve() == SCENARIO_DIR.resolve()
    for path in SCENARIOS:
        scenario = load_scenario(path)
        assert scenario.scenario_id == path.stem
        assert len(scenario.must_satisfy) >= 4, f"{path.name}: too few predicates to mean anything"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path):
    outcome = run_scenario(path)
    assert outcome.passed, outcome.explain()


# -- the predicates bite: each scenario fails when the behaviour it checks is taken away ----------
def _variant(name: str, **changes):
    scenario = load_scenario(SCENARIO_DIR / f"{name}.yaml")
    intent = dict(scenario.intent)
    for key, value in changes.pop("intent", {}).items():
        intent[key] = value
    return scenario.model_copy(update={"intent": intent, **changes})


def _prefs(name: str, **prefs):
    scenario = load_scenario(SCENARIO_DIR / f"{name}.yaml")
    return {"prefs": {**scenario.intent.get("prefs", {}), **prefs}}


@pytest.mark.parametrize("name, changes, failing", [
    ("budget_pinch", {"intent": {"budget_usd_cents": 400000}}, "downgraded"),
    ("overnight_flight", {"intent": _prefs("overnight_flight", avoid_overnight=False)}, "overnight"),
    ("toddler_amenity", {"intent": _prefs("toddler_amenity", kid_friendly=False)}, "20:00"),
    ("venue_closed_monday", {"edits": []}, "needed repair"),
    ("rainy_saturday", {"overrides": load_scenario(SCENARIO_DIR / "rainy_saturday.yaml").overrides.model_copy(
        update={"weather": {}})}, "rainy Saturday"),
    ("last_train_cutoff", {"edits": []}, "last-train"),
    ("locked_slot_edit", {"intent": {"budget_usd_cents": 500000}}, "repair had to act"),
    ("fx_shock", {"overrides": load_scenario(SCENARIO_DIR / "fx_shock.yaml").overrides.model_copy(
        update={"fx": {}})}, "$3,000.00"),
    ("negative_budget", {"intent": {"budget_usd_cents": 400000}}, "expected status error"),
])
def test_predicates_detect_the_missing_behaviour(name, changes, failing):
    outcome = run_scenario(_variant(name, **changes))
    assert not outcome.passed, f"{name} still passes without the behaviour it is meant to check"
    assert any(failing in f for f in outcome.failures), outcome.explain()


# -- loading -------------------------------------------------------------------------------------
def _write(tmp_path: Path, data: dict, name: str = "case.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


BASE = {"scenario_id": "tiny", "intent": {
    "city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
    "budget_usd_cents": 400000, "airports": ["CDG"], "prefs": {"themes": ["art"]}},
    "must_satisfy": ["itinerary is not None"]}


def test_scenario_defaults_and_budget_in_a_currency(tmp_path):
    data = {**BASE, "intent": {**BASE["intent"], "budget": {"amount": 1000, "currency": "eur"}}}
    del data["intent"]["budget_usd_cents"]
    scenario = load_scenario(_write(tmp_path, {**data, "overrides": {"fx": {"EUR": 1.25}}}))
    assert scenario.today == date(2026, 11, 23)
    session = build_session(scenario)
    intent = scenario_intent(scenario, session)
    assert intent.budget_usd_cents == 125000 and intent.origin_airport == "JFK"
    # without an override the fixture rate as-of T-1 is used
    plain = load_scenario(_write(tmp_path, data, "plain.yaml"))
    session = build_session(plain)
    rate = session.toolbox.fx.rate(FXRequest(from_currency="EUR", as_of=plain.today)).rate
    assert rate != 1.25 and scenario_intent(plain, session).budget_usd_cents == int(1000 * rate * 100 + 0.5)


def test_scenario_edit_times_accept_yaml_base60(tmp_path):
    text = (SCENARIO_DIR / "last_train_cutoff.yaml").read_text(encoding="utf-8")
    path = tmp_path / "unquoted.yaml"
    path.write_text(text.replace('start: "22:00", end: "23:45"', "start: 22:00, end: 23:45"), encoding="utf-8")
    assert yaml.safe_load(path.read_text())["edits"][0]["retime"]["end"] == 23 * 60 + 45
    edit = load_scenario(path).edits[0]
    assert (edit.start, edit.end) == (time(22, 0), time(23, 45))


@pytest.mark.parametrize("change, field", [
    ({"edits": [{"teleport": {"choice": "louvre"}}]}, "edits"),
    ({"edits": [{"retime": {"choice": "louvre", "start": "10:00"}}]}, "edits"),
    ({"edits": [{"move": {"choice": "louvre", "start": "10:00", "end": "11:00"}}]}, "edits"),
    ({"budget": {"amount": 10, "currency": "EUR"}}, "scenario"),
    ({"expect": {"status": "maybe"}}, "expect"),
    ({"scenario_id": "Bad Id!"}, "scenario_id"),
    ({"surprise": 1}, "surprise"),
])
def test_malformed_scenarios_are_input_errors(tmp_path, change, field):
    with pytest.raises(InputError) as err:
        load_scenario(_write(tmp_path, {**BASE, **change}))
    assert err.value.field.startswith("case.yaml") and (field in err.value.field or field == "scenario")


def test_an_edit_that_matches_nothing_fails_the_scenario(tmp_path):
    path = _write(tmp_path, {**BASE, "edits": [{"remove": {"choice": "colosseum", "day": 1}}]})
    outcome = run_scenario(path)
    assert not outcome.passed and outcome.status == "invalid"
    assert "edits[0].choice" in outcome.failures[0] and "colosseum" in outcome.failures[0]


def test_a_false_predicate_is_reported_with_its_text(tmp_path):
    path = _write(tmp_path, {**BASE, "must_satisfy": [
        {"predicate": "itinerary.cost_breakdown.total_usd_cents < 100", "description": "absurdly cheap"},
        "itinerary.nope > 1"]})
    outcome = run_scenario(path)
    assert outcome.status == "ok" and len(outcome.failures) == 2
    assert outcome.failures[0].startswith("absurdly cheap [itinerary.cost_breakdown.total_usd_cents < 100]")
    assert "error" in outcome.failures[1] and "nope" in outcome.failures[1]
    assert "FAIL" in outcome.explain()


# -- the suite and its figures -------------------------------------------------------------------
def test_run_suite_prints_the_figures(capsys):
    report = run_suite([SCENARIO_DIR])
    out = capsys.readouterr().out
    assert report.total == len(SCENARIOS)
    assert report.pass_rate >= 0.9, report.format()
    for label in ("Scenario pass rate:", "First-repair success:", "Repairs per success:", "Citation coverage:",
                  "Weather cache hit rate:"):
        assert label in out
    figures = report.figures()
    assert set(figures) == {"scenario_pass_rate", "first_repair_success", "repairs_per_success",
                            "citation_coverage", "weather_cache_hit_rate"}
    assert figures["weather_cache_hit_rate"] >= 0.8
    assert figures["first_repair_success"] is not None and figures["first_repair_success"] >= 0.7
    assert figures["repairs_per_success"] is not None and figures["repairs_per_success"] <= 1.0
    assert figures["citation_coverage"] is not None and figures["citation_coverage"] >= 0.99
    for o in report.outcomes:
        assert o.scenario_id in out


def test_main_exit_codes(tmp_path, capsys):
    assert main([str(SCENARIO_DIR / "fx_shock.yaml")]) == 0
    bad = _write(tmp_path, {**BASE, "must_satisfy": ["itinerary is None"]}, "bad.yaml")
    assert main([str(bad)]) == 1
    assert main([str(tmp_path / "missing.yaml")]) == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main([str(empty)]) == 1
    capsys.readouterr()


def test_citation_coverage_counts_uncited_claims():
    outcome = run_scenario(SCENARIO_DIR / "fx_shock.yaml")
    it = outcome.result.itinerary
    claims, cited = citation_counts(it)
    assert claims == cited > 20
    stripped = it.model_copy(update={"citations": it.citations[: len(it.citations) // 2]})
    claims2, cited2 = citation_counts(stripped)
    assert claims2 == claims and cited2 < cited
    assert citation_counts(None) == (0, 0)


# -- the safe predicate evaluator ---------------------------------------------------------------
NS = {
    "itinerary": SimpleNamespace(citations=[1, 2, 3], days=[SimpleNamespace(date=date(2027, 6, 14), notes="Budget tier")],
                                 cost=SimpleNamespace(total=900)),
    "intent": SimpleNamespace(budget=1000, name="Paris"),
    "failure": None,
    "result": {"status": "ok", "n": 3},
}


@pytest.mark.parametrize("expr, expected", [
    ("itinerary.cost.total <= intent.budget", True),
    ("itinerary.citations | length > 0", True),
    ("itinerary.citations | length == 3", True),
    ("len([d for d in itinerary.days if 'budget' in d.notes.lower()]) >= 1", True),
    ("any(d.date.weekday() == 0 for d in itinerary.days)", True),
    ("all(x > 0 for x in itinerary.citations) and not failure", True),
    ("failure is None and itinerary is not None", True),
    ("sum(itinerary.citations) == 6 and max(itinerary.citations) == 3 and min(itinerary.citations) == 1", True),
    ("sorted([3, 1, 2], reverse=True) == [3, 2, 1]", True),
    ("set([1, 1, 2]) == {1, 2}", True),
    ("{x * 2 for x in itinerary.citations} == {2, 4, 6}", True),
    ("str(intent.budget) + '!' == '1000!'", True),
    ("round(16 * 1.20 * 100) == 1920 and abs(-2) == 2", True),
    ("result['status'] == 'ok' and result.get('n') == 3", True),
    ("itinerary.citations[-1] == 3 and itinerary.citations[:2] == [1, 2]", True),
    ("1 < 2 < 3 and not (3 < 2 < 1)", True),
    ("'yes' if intent.name.startswith('Par') else 'no'", "yes"),
    ("[(a, b) for a, b in [(1, 2), (3, 4)] if a > 1]", [(3, 4)]),
    ("[x for row in [[1, 2], [3]] for x in row]", [1, 2, 3]),
    ("itinerary.days[0].date.isoformat() == '2027-06-14'", True),
    ("-intent.budget // 3 % 7", -334 % 7),
    ("max([], default=0)", 0),
])
def test_evaluator_accepts_the_safe_subset(expr, expected):
    assert check(expr, NS) == expected


@pytest.mark.parametrize("expr", [
    "__import__('os').system('true')",
    "().__class__.__bases__[0].__subclasses__()",
    "intent.__dict__",
    "itinerary._private",
    "_secret",
    "(lambda: 1)()",
    "eval('1')",
    "exec('x = 1')",
    "open('/etc/passwd').read()",
    "getattr(intent, 'budget')",
    "type(intent)",
    "intent.name.format(intent)",
    "'%s' % intent",
    "(x := 1)",
    "2 ** 10",
    "f'{intent}'",
    "len(*itinerary.citations)",
    "sorted(itinerary.citations, key=str)",
    "itinerary.days[0].notes.__len__()",
    "[x async for x in itinerary.citations]",
    "intent.budget.__class__",
    "import os",
    "x = 1",
    "",
])
def test_evaluator_rejects_everything_else(expr):
    with pytest.raises(UnsafeExpression):
        SafeExpression(expr).evaluate(NS)


def test_evaluator_never_calls_builtins_eval(monkeypatch):
    import ast
    import builtins

    real_compile = builtins.compile

    def forbidden(*_a, **_k):
        raise AssertionError("eval/exec must not be used")

    def parse_only(source, filename, mode, flags=0, *args, **kwargs):
        assert flags & ast.PyCF_ONLY_AST, "compile() may only build an AST (ast.parse)"
        return real_compile(source, filename, mode, flags, *args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(builtins, "eval", forbidden)
        patched.setattr(builtins, "exec", forbidden)
        patched.setattr(builtins, "compile", parse_only)
        value = check("len([c for c in itinerary.citations if c > 1]) == 2", NS)
    assert value is True


def test_methods_are_checked_on_the_runtime_type():
    # .get is allowed for dicts, not for arbitrary objects that happen to have one
    with pytest.raises(UnsafeExpression):
        check("intent.get('x')", {"intent": SimpleNamespace(get=lambda k: k)})
    # callables reachable by attribute cannot even be read unless they are whitelisted methods
    with pytest.raises(UnsafeExpression):
        check("obj.run", {"obj": SimpleNamespace(run=print)})
    # a comprehension variable cannot shadow a whitelisted function to smuggle a call
    with pytest.raises(UnsafeExpression):
        check("[len(1) for len in fns]", {"fns": [print]})


def test_runtime_failures_are_predicate_errors(monkeypatch):
    with pytest.raises(PredicateError, match="no attribute"):
        check("intent.missing", NS)
    with pytest.raises(PredicateError, match="unknown name"):
        check("nothing > 1", NS)
    with pytest.raises(PredicateError):
        check("itinerary.citations[10]", NS)
    with pytest.raises(PredicateError, match="too large"):
        check("'x' * 10000000", NS)
    from engine.evaluation import predicates
    monkeypatch.setattr(predicates, "MAX_STEPS", 5000)
    with pytest.raises(PredicateError, match="steps"):
        check("[1 for a in x for b in x for c in x if a > 1000]", {"x": list(range(100))})


async def test_scenarios_run_inside_an_event_loop():
    outcome = await run_scenario_async(load_scenario(SCENARIO_DIR / "budget_pinch.yaml"))
    assert outcome.passed, outcome.explain()
    assert outcome.needed_repair and outcome.first_repair_ok and outcome.cycles == 1


def test_an_engine_crash_fails_one_scenario_not_the_suite(tmp_path, monkeypatch, capsys):
    from engine.pipeline import PlanningSession

    async def boom(self, intent, **kwargs):
        raise KeyError("simulated engine bug")

    good = SCENARIO_DIR / "fx_shock.yaml"
    monkeypatch.setattr(PlanningSession, "plan", boom)
    report = run_suite([good])
    capsys.readouterr()
    (outcome,) = report.outcomes
    assert outcome.status == "crashed" and not outcome.passed
    assert "KeyError" in outcome.failures[0] and "simulated engine bug" in outcome.failures[0]
    assert "Traceback" in outcome.message
