"""Property: two orgs doing random things through the repositories never see each other's rows.

A hypothesis state machine keeps a model of what each org created; after every step each org
must see exactly its own trips, versions, runs and cache entries, and every attempt to touch the
other org's trip must fail exactly like an unknown id, changing nothing.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
import pytest
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, rule, run_state_machine_as_test
from sqlalchemy import text

from engine.errors import InputError

from .conftest import PASSWORD

NAMES = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=24).filter(str.strip)
CACHE_KEYS = ["flights:JFK-CDG", "fx:EUR", "' OR 1=1 --", "weather:Paris"]
KEYS = st.sampled_from(CACHE_KEYS)
DOC = {"intent": {"city": "Paris"}, "days": [{"date": "2027-06-15", "activities": []}],
       "cost_breakdown": {"total_usd_cents": 1000}}


def test_random_operations_in_two_orgs_never_leak(store, accounts):
    class TwoOrgs(RuleBasedStateMachine):
        trips = Bundle("trips")

        def __init__(self) -> None:
            super().__init__()
            tag = uuid.uuid4().hex[:8]
            self.orgs = [accounts.create_org(f"{side}-{tag}", f"{side}-{tag}@x.example", PASSWORD)
                         for side in ("a", "b")]
            self.model: list[dict[str, dict]] = [{}, {}]
            self.runs: list[set[str]] = [set(), set()]
            self.cache: list[dict[str, dict]] = [{}, {}]

        @rule(target=trips, side=st.integers(0, 1), name=NAMES)
        def create(self, side, name):
            with store.org(self.orgs[side]) as repo:
                trip = repo.trips.create(name)
            self.model[side][trip.trip_id] = {"name": name.strip(), "deleted": False, "versions": 0}
            return side, trip.trip_id

        @rule(t=trips, name=NAMES)
        def rename(self, t, name):
            side, trip_id = t
            with store.org(self.orgs[side]) as repo:
                if self.model[side][trip_id]["deleted"]:
                    with pytest.raises(InputError):
                        repo.trips.rename(trip_id, name)
                    return
                repo.trips.rename(trip_id, name)
            self.model[side][trip_id]["name"] = name.strip()

        @rule(t=trips, deleted=st.booleans())
        def delete_or_restore(self, t, deleted):
            side, trip_id = t
            with store.org(self.orgs[side]) as repo:
                (repo.trips.delete if deleted and not self.model[side][trip_id]["deleted"] else repo.trips.restore)(trip_id)
            self.model[side][trip_id]["deleted"] = deleted and not self.model[side][trip_id]["deleted"]

        @rule(t=trips)
        def save_version(self, t):
            side, trip_id = t
            if self.model[side][trip_id]["deleted"]:
                return
            with store.org(self.orgs[side]) as repo:
                saved = repo.versions.save(trip_id, DOC)
            self.model[side][trip_id]["versions"] += 1
            assert saved.number == self.model[side][trip_id]["versions"]

        @rule(t=trips)
        def record_run(self, t):
            side, trip_id = t
            run_id = str(uuid.uuid4())
            with store.org(self.orgs[side]) as repo:
                repo.runs.start(intent={"city": "Paris"}, trace_id="t", run_id=run_id, trip_id=trip_id)
            self.runs[side].add(run_id)

        @rule(side=st.integers(0, 1), key=KEYS, value=st.integers())
        def cache_put(self, side, key, value):
            with store.org(self.orgs[side]) as repo:
                repo.tool_cache.put(key, "fx", {"v": value}, timedelta(hours=1))
            self.cache[side][key] = {"v": value}

        @rule(t=trips, name=NAMES)
        def trespass(self, t, name):
            side, trip_id = t
            other = self.orgs[1 - side]
            attempts = [lambda r: r.trips.open(trip_id), lambda r: r.trips.rename(trip_id, name),
                        lambda r: r.trips.delete(trip_id), lambda r: r.versions.save(trip_id, DOC),
                        lambda r: r.versions.get(trip_id)]
            for attempt in attempts:
                with pytest.raises(InputError), store.org(other) as repo:
                    attempt(repo)

        @invariant()
        def each_org_sees_exactly_its_own(self):
            for side, ctx in enumerate(self.orgs):
                with store.org(ctx) as repo:
                    trips = {t.trip_id: t for t in repo.trips.list(include_deleted=True)}
                    assert set(trips) == set(self.model[side])
                    for trip_id, expect in self.model[side].items():
                        got = trips[trip_id]
                        assert (got.name, got.deleted, got.version_count) == (
                            expect["name"], expect["deleted"], expect["versions"])
                    assert {r.run_id for r in repo.runs.running()} == self.runs[side]
                    for key in CACHE_KEYS:
                        assert repo.tool_cache.get(key) == self.cache[side].get(key)

    run_state_machine_as_test(TwoOrgs, settings=settings(
        max_examples=20, stateful_step_count=12, deadline=None, database=None,
        suppress_health_check=[HealthCheck.too_slow]))
    with store._engine.connect() as conn:  # and the database agrees (seed §9.2 audit queries)
        for sql in ("SELECT COUNT(*) FROM itinerary_version v JOIN trip t ON v.trip_id = t.trip_id "
                    "WHERE v.org_id != t.org_id",
                    "SELECT COUNT(*) FROM agent_run r JOIN trip t ON r.trip_id = t.trip_id WHERE r.org_id != t.org_id"):
            assert conn.execute(text(sql)).scalar() == 0
