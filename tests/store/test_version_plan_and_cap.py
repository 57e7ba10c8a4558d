"""Versions keep their PlanV1 (a reopened city trip is edited again from it) and an undo label;
LLM revisions are capped per trip (SPEC_DECISIONS §2.8), deterministic re-plans never are."""

from __future__ import annotations

import threading

import pytest

from engine.errors import InputError, VersionCapError
from engine.models import PlanV1
from engine.store.versions import DEFAULT_MAX_VERSIONS, MAX_VERSIONS_ENV

from .conftest import planned

LLM = {"model": "gpt-4o-mini", "prompt_tokens": 812}


def _trip(store, ctx, name="Paris"):
    with store.org(ctx) as repo:
        return repo.trips.create(name).trip_id


def test_a_real_plan_round_trips_exactly_through_json_and_the_database(store, org_a):
    result = planned()
    doc = result.plan.model_dump(mode="json")
    assert PlanV1.model_validate(doc) == result.plan  # the contract itself
    trip = _trip(store, org_a)
    with store.org(org_a) as repo:
        repo.versions.save(trip, result.itinerary, plan=result.plan, note="Planned")
    with store.org(org_a) as repo:
        got = repo.versions.get(trip, 1)
    assert got.plan == doc and got.note == "Planned" and not got.llm_revision
    back = got.plan_v1()
    assert back == result.plan and back.model_dump_json() == result.plan.model_dump_json()


def test_plan_may_be_json_or_absent_and_must_be_an_object(store, org_a, itinerary):
    trip = _trip(store, org_a)
    with store.org(org_a) as repo:
        repo.versions.save(trip, itinerary, plan=planned().plan.model_dump(mode="json"))
        repo.versions.save(trip, itinerary)  # road trips and older callers: no plan
    with store.org(org_a) as repo:
        assert repo.versions.get(trip, 1).plan_v1() == planned().plan
        second = repo.versions.get(trip, 2)
        assert second.plan is None and second.plan_v1() is None and second.note == ""
    for bad, field in (([1, 2], "plan"), ({"days": "none"}, "plan"), (itinerary, "plan"), ("x" * 201, "note")):
        kwargs = {"plan": bad} if field == "plan" else {"note": bad}
        with pytest.raises(InputError) as err, store.org(org_a) as repo:
            repo.versions.save(trip, itinerary, **kwargs)
        assert err.value.field == field
    with store.org(org_a) as repo:
        repo.versions.save(trip, itinerary, note="  Locked\n  Louvre ")
        assert repo.versions.get(trip).note == "Locked Louvre"


def test_the_fourth_llm_revision_is_refused_deterministic_versions_are_not(store, org_a, itinerary, monkeypatch):
    monkeypatch.delenv(MAX_VERSIONS_ENV, raising=False)
    trip = _trip(store, org_a)
    left = []
    for _ in range(DEFAULT_MAX_VERSIONS):
        with store.org(org_a) as repo:
            left.append(repo.versions.llm_revisions_left(trip))
            repo.versions.save(trip, itinerary, llm_meta=LLM)
    with pytest.raises(VersionCapError) as err, store.org(org_a) as repo:
        repo.versions.save(trip, itinerary, llm_meta=LLM)
    message = str(err.value)
    assert isinstance(err.value, InputError) and err.value.cap == 3 and "\n" not in message
    assert "3 LLM revision" in message and MAX_VERSIONS_ENV in message
    with store.org(org_a) as repo:
        assert left == [3, 2, 1] and repo.versions.llm_revisions_left(trip) == 0
        for _ in range(4):  # map edits: deterministic re-plans, never capped
            repo.versions.save(trip, itinerary, llm_meta={})
        numbers = [v.number for v in repo.versions.list(trip)]
    assert numbers == list(range(1, 8))  # the refused save left no gap


def test_a_refused_revision_caught_inside_the_transaction_leaves_nothing(store, org_a, itinerary, monkeypatch):
    monkeypatch.setenv(MAX_VERSIONS_ENV, "1")
    trip = _trip(store, org_a)
    with store.org(org_a) as repo:
        repo.versions.save(trip, itinerary, llm_meta=LLM)
        with pytest.raises(VersionCapError):
            repo.versions.save(trip, itinerary, llm_meta=LLM)
        after = repo.versions.save(trip, itinerary)  # same transaction carries on and commits
    with store.org(org_a) as repo:
        assert after.number == 2 and repo.trips.get(trip).version_count == 2


@pytest.mark.parametrize("value, cap", [("0", 0), ("1", 1), (" 5 ", 5), ("", DEFAULT_MAX_VERSIONS)])
def test_the_cap_comes_from_the_environment(store, org_a, itinerary, monkeypatch, value, cap):
    monkeypatch.setenv(MAX_VERSIONS_ENV, value)
    trip = _trip(store, org_a)
    with store.org(org_a) as repo:
        assert repo.versions.llm_revisions_left(trip) == cap
        for _ in range(cap):
            repo.versions.save(trip, itinerary, llm_meta=LLM)
        with pytest.raises(VersionCapError):
            repo.versions.save(trip, itinerary, llm_meta=LLM)


@pytest.mark.parametrize("value", ["three", "-1", "2.5"])
def test_a_bad_cap_setting_names_the_variable(store, org_a, itinerary, monkeypatch, value):
    trip = _trip(store, org_a)
    monkeypatch.setenv(MAX_VERSIONS_ENV, value)
    with pytest.raises(InputError) as err, store.org(org_a) as repo:
        repo.versions.save(trip, itinerary, llm_meta=LLM)
    assert err.value.field == MAX_VERSIONS_ENV and value in str(err.value)
    with store.org(org_a) as repo:
        repo.versions.save(trip, itinerary)  # deterministic saves do not read the setting
        with pytest.raises(InputError):
            repo.versions.llm_revisions_left(trip)


def test_revisions_left_of_an_unknown_trip_is_an_input_error(store, org_a, org_b):
    trip = _trip(store, org_a)
    for ctx, trip_id in ((org_a, "no-such-trip"), (org_b, trip)):
        with pytest.raises(InputError) as err, store.org(ctx) as repo:
            repo.versions.llm_revisions_left(trip_id)
        assert err.value.field == "trip"


def test_concurrent_llm_revisions_never_pass_the_cap(store, org_a, itinerary, monkeypatch):
    """Eight saves at once: the cap is counted under the trip's write lock, so exactly 3 win."""
    monkeypatch.delenv(MAX_VERSIONS_ENV, raising=False)
    trip = _trip(store, org_a)
    outcomes: list[str] = []
    barrier = threading.Barrier(8)

    def save() -> None:
        barrier.wait()
        try:
            with store.org(org_a) as repo:
                repo.versions.save(trip, itinerary, llm_meta=LLM)
            outcomes.append("saved")
        except VersionCapError:
            outcomes.append("capped")
        except Exception as exc:  # noqa: BLE001 (reported by the assert)
            outcomes.append(repr(exc))

    threads = [threading.Thread(target=save) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(outcomes) == ["capped"] * 5 + ["saved"] * 3
    with store.org(org_a) as repo:
        assert [v.number for v in repo.versions.list(trip)] == [1, 2, 3]


def test_latest_summaries_of_many_trips_in_one_call(store, org_a, org_b, itinerary):
    paris, empty = _trip(store, org_a), _trip(store, org_a, "Empty")
    theirs = _trip(store, org_b, "Theirs")
    with store.org(org_a) as repo:
        repo.versions.save(paris, itinerary)
        repo.versions.save(paris, itinerary, note="second")
    with store.org(org_b) as repo:
        repo.versions.save(theirs, itinerary)
    with store.org(org_a) as repo:
        latest = repo.versions.latest_summaries([paris, empty, theirs])
        assert repo.versions.latest_summaries([]) == {}
    assert list(latest) == [paris] and latest[paris].number == 2  # another org's trip is invisible
