"""Eval scenarios on an OSM city pack (``pack: lisbon_pt``): the shipped pack is what the builder
makes from the hand-made Lisbon data now, ``tripwright eval`` plans it offline, and each scenario's
predicates fail when the behaviour they check is taken away."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.evaluation import SafeExpression, load_scenario, main, run_scenario
from engine.evaluation.packs import PACK_DIR, load_eval_pack, shipped_packs
from engine.evaluation.runner import build_session, city_data, namespace
from engine.errors import InputError
from tests.eval.build_packs import SOURCES, build_eval_pack
from tests.eval.build_packs import main as build_main

SCENARIO_DIR = Path(__file__).parent / "scenarios"
PACK_SCENARIOS = sorted(p for p in SCENARIO_DIR.glob("*.yaml") if load_scenario(p).pack is not None)
JERONIMOS, BELEM_TOWER, AZULEJO = "osm_w9000000001", "osm_w9000000002", "osm_w9000000014"


# -- the shipped pack ----------------------------------------------------------------------------
def test_the_shipped_packs_are_what_the_builder_makes_now():
    assert shipped_packs() == sorted(SOURCES)
    for slug in SOURCES:
        assert load_eval_pack(slug) == build_eval_pack(slug), (
            f"{PACK_DIR / slug}.json.gz is out of date: run .venv/bin/python -m tests.eval.build_packs")
    assert build_main(["--check"]) == 0


def test_the_lisbon_pack_holds_the_cases_the_scenarios_need():
    pack = load_eval_pack("lisbon_pt")
    assert pack.slug == "lisbon_pt" and pack.name == "Lisbon" and pack.tz == "Europe/Lisbon"
    assert [a.iata for a in pack.airports][:1] == ["LIS"]
    by_ref = {p.ref: p for p in pack.places}
    for ref in (JERONIMOS, BELEM_TOWER, AZULEJO):
        assert "Mo off" in by_ref[ref].tags["opening_hours"]
    assert sum(1 for p in pack.places if p.kind == "food" and "opening_hours" not in p.tags) >= 10
    assert (PACK_DIR / "lisbon_pt.json.gz").stat().st_size < 16 * 1024


def test_a_scenario_naming_a_missing_pack_or_another_city_cannot_run(tmp_path):
    data = yaml.safe_load((SCENARIO_DIR / "pack_unknown_hours.yaml").read_text(encoding="utf-8"))
    missing = tmp_path / "missing.yaml"
    missing.write_text(yaml.safe_dump({**data, "pack": "atlantis_zz"}), encoding="utf-8")
    outcome = run_scenario(missing)
    assert outcome.status == "invalid" and "(pack)" in outcome.failures[0] and "atlantis_zz" in outcome.failures[0]
    elsewhere = tmp_path / "elsewhere.yaml"
    elsewhere.write_text(yaml.safe_dump({**data, "intent": {**data["intent"], "city": "Porto"}}), encoding="utf-8")
    outcome = run_scenario(elsewhere)
    assert outcome.status == "invalid" and "intent.city" in outcome.failures[0] and "lisbon_pt" in outcome.failures[0]
    with pytest.raises(InputError):
        load_scenario(_dump(tmp_path, {**data, "pack": "Not A Slug"}))


def test_a_damaged_pack_file_is_an_input_error_not_a_crash(tmp_path):
    (tmp_path / "lisbon_pt.json.gz").write_bytes(b"not gzip")
    with pytest.raises(InputError) as err:
        load_eval_pack("lisbon_pt", tmp_path)
    assert err.value.field == "pack"


def _dump(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "case.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


# -- the scenarios, through ``tripwright eval``'s entry point -----------------------------------
def test_the_pack_scenarios_are_the_four_cases():
    assert {p.stem for p in PACK_SCENARIOS} == {"pack_monday_closure", "pack_unknown_hours", "pack_budget_repair",
                                               "pack_estimated_labels"}
    for path in PACK_SCENARIOS:
        assert load_scenario(path).pack == "lisbon_pt"
        assert len(load_scenario(path).must_satisfy) >= 8, path.name


def test_eval_passes_the_pack_scenarios_offline(capsys):
    assert main([str(p) for p in PACK_SCENARIOS]) == 0
    out = capsys.readouterr().out
    assert "Scenario pass rate:    100.0% (4/4" in out
    assert "First-repair success:  100.0% (2/2" in out


# -- the predicates bite ---------------------------------------------------------------------------
def _in_paris(start: str, end: str) -> dict:
    return {"city": "Paris", "airports": ["CDG"], "date_window": {"start": start, "end": end, "tz": "Europe/Paris"}}


def _variant(name: str, **changes):
    scenario = load_scenario(SCENARIO_DIR / f"{name}.yaml")
    intent = {**scenario.intent, **changes.pop("intent", {})}
    return scenario.model_copy(update={"intent": intent, **changes})


@pytest.mark.parametrize("name, changes, failing", [
    ("pack_monday_closure", {"edits": []}, "repair acted on Jerónimos"),
    ("pack_budget_repair", {"intent": {"budget_usd_cents": 300000}}, "downgraded the hotel"),
    # the same trip in a fixture city: nothing unknown, nothing estimated
    ("pack_unknown_hours", {"pack": None, "intent": _in_paris("2027-05-18", "2027-05-21")},
     "at least one place without published hours"),
    ("pack_estimated_labels", {"pack": None, "intent": _in_paris("2027-05-11", "2027-05-14")},
     "every flight is labelled estimated"),
])
def test_predicates_detect_the_missing_behaviour(name, changes, failing):
    outcome = run_scenario(_variant(name, **changes))
    assert not outcome.passed, f"{name} still passes without the behaviour it is meant to check"
    assert any(failing in f for f in outcome.failures), outcome.explain()


def _failing_on(name: str, doctor) -> list[str]:
    """The scenario's predicates that fail once ``doctor`` has changed its real itinerary."""
    scenario = load_scenario(SCENARIO_DIR / f"{name}.yaml")
    outcome = run_scenario(scenario)
    assert outcome.passed, outcome.explain()
    itinerary = outcome.result.itinerary
    names = namespace(outcome.result, itinerary.intent, city_data(build_session(scenario), itinerary.intent))
    names["itinerary"] = doctor(itinerary)
    return [p.label for p in scenario.must_satisfy if not SafeExpression(p.predicate).evaluate(names)]


def _activities(itinerary, change):
    return itinerary.model_copy(update={"days": [
        d.model_copy(update={"activities": [change(a) for a in d.activities]}) for d in itinerary.days]})


def test_unknown_hours_predicates_catch_a_silent_guess():
    no_advisory = _failing_on("pack_unknown_hours", lambda it: it.model_copy(update={
        "violations": [v for v in it.violations if v.kind != "venue_hours_unknown"]}))
    assert any("own non-blocking venue_hours_unknown advisory" in f for f in no_advisory)
    assert any("advisories name exactly" in f for f in no_advisory)
    confident = _failing_on("pack_unknown_hours", lambda it: _activities(it, lambda a: a.model_copy(
        update={"confidence": "high"})))
    assert any("low confidence" in f for f in confident)


def test_estimate_predicates_catch_an_unlabelled_price():
    def unlabelled(a):
        if a.kind == "attraction" or a.role == "checkin":
            return a.model_copy(update={"notes": a.notes.replace(" (estimated)", "")})
        return a
    failing = _failing_on("pack_estimated_labels", lambda it: _activities(it, unlabelled))
    assert any("says estimated exactly when it is" in f for f in failing)
    assert any("nightly price is labelled estimated" in f for f in failing)
