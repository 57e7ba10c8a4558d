"""Tenancy: no org reads or writes another's rows, and the known bypasses are refused.

docs/PLATFORM_NOTES.md: global criteria do not cover text(), Core select(table) or an identity-map get
after switching org — each of those is tried here and must raise TenancyError (or find nothing).
"""

from __future__ import annotations

import pytest
from sqlalchemy import event, insert, select, text, true, update

from engine.errors import InputError, StoreError, TenancyError
from engine.store import OrgContext
from engine.store.schema import AuditEntry, Base, ItineraryVersion, Org, OrgScoped, Trip, TripMember, User
from engine.store.tenancy import ORG_KEY, SYSTEM_KEY

from .conftest import paris_intent, planned

INJECTIONS = [
    "' OR org_id != org_id --",
    "'; DROP TABLE trip; --",
    'Robert"); DROP TABLE "user";--',
    "1' UNION SELECT password_hash FROM \"user\" --",
    "%s %(org_id)s ? :org_id $1",
    "\\'; -- /* */ `x`",
    "Zürich → 東京 🚗 'quoted'",
]


def _trip(store, ctx, name="Trip"):
    with store.org(ctx) as repo:
        return repo.trips.create(name)


def test_no_org_context_fails_closed(store):
    with pytest.raises(TenancyError), store.org(None):
        pass
    with pytest.raises(TenancyError):
        OrgContext("", "someone")


def test_other_orgs_rows_are_invisible_and_untouchable(store, org_a, org_b, itinerary):
    trip = _trip(store, org_a)
    with store.org(org_a) as repo:
        repo.versions.save(trip.trip_id, itinerary)
        repo.runs.start(intent={}, trace_id="t", run_id="run-a", trip_id=trip.trip_id)
    with store.org(org_b) as repo:
        assert repo.trips.list(include_deleted=True) == []
        # seed §9.2: query itinerary with org_id=A from a session of org B → empty set
        assert repo.session.scalars(select(ItineraryVersion).where(ItineraryVersion.org_id == org_a.org_id)).all() == []
        for call in (lambda: repo.trips.open(trip.trip_id), lambda: repo.trips.rename(trip.trip_id, "mine"),
                     lambda: repo.trips.delete(trip.trip_id), lambda: repo.versions.get(trip.trip_id, 1),
                     lambda: repo.versions.save(trip.trip_id, itinerary), lambda: repo.runs.status("run-a"),
                     lambda: repo.runs.replay("run-a")):
            with pytest.raises(InputError):  # the same answer as for an id that does not exist
                call()
        assert repo.versions.list(trip.trip_id) == [] and repo.runs.latest() is None
        assert repo.audit_log() == []
    with store.org(org_a) as repo:
        assert repo.trips.get(trip.trip_id).name == "Trip" and repo.trips.get(trip.trip_id).version_count == 1


def test_raw_sql_core_statements_and_from_statement_are_refused(store, org_a):
    _trip(store, org_a)
    attempts = [
        lambda s: s.execute(text("SELECT * FROM trip")),
        lambda s: s.execute(select(Trip.__table__)),
        lambda s: s.execute(select(Trip.__table__.join(User.__table__))),
        lambda s: s.execute(select(Trip.name, User.__table__.c.email).join(User.__table__, true())),
        lambda s: s.execute(select(Trip).where(Trip.created_by.in_(select(User.__table__.c.user_id)))),
        lambda s: s.execute(Trip.__table__.update().values(name="x")),
        lambda s: s.execute(insert(Trip).values(name="x", mode="city", created_by=org_a.user_id)),
        lambda s: s.scalars(select(Trip).from_statement(text("SELECT * FROM trip"))).all(),
        lambda s: s.connection(),
    ]
    for attempt in attempts:
        with pytest.raises(TenancyError), store.org(org_a) as repo:
            attempt(repo.session)


def test_a_sessions_org_cannot_be_switched(store, org_a, org_b):
    """Rewriting ``session.info`` (or the session's org attributes) once switched the org of the
    criteria: now the org lives outside ``info`` and every way of changing it is refused."""
    trip = _trip(store, org_a)
    _trip(store, org_b, "B's trip")
    with store.org(org_b) as repo:
        assert repo.session.get(Trip, trip.trip_id) is None  # a separate session per org finds nothing
    tamperings = [
        lambda s: s.info.__setitem__(ORG_KEY, org_b.org_id),
        lambda s: s.info.update({ORG_KEY: org_b.org_id}),
        lambda s: s.info.update({SYSTEM_KEY: True}),
        lambda s: s.info.pop(ORG_KEY),
        lambda s: s.info.clear(),
        lambda s: setattr(s, "_org_id", org_b.org_id),
        lambda s: setattr(s, "_system", True),
        lambda s: setattr(s, "org", org_b),
    ]
    for tamper in tamperings:
        with store.org(org_a) as repo:
            loaded = repo.session.get(Trip, trip.trip_id)  # held in A's identity map
            with pytest.raises(TenancyError):
                tamper(repo.session)
            assert repo.session.get(Trip, trip.trip_id) is loaded
            assert repo.session.scalars(select(Trip.name)).all() == ["Trip"]
            repo.session.info["mine"] = 1  # other keys stay free for callers


def test_flush_stamps_org_and_refuses_foreign_or_moved_rows(store, org_a, org_b):
    trip = _trip(store, org_a)
    with store.org(org_a) as repo:
        repo.session.add(Trip(name="stamped", mode="city", created_by=org_a.user_id, version_count=0))
    with store.org(org_a) as repo:
        stamped = repo.session.scalars(select(Trip).where(Trip.name == "stamped")).one()
        assert stamped.org_id == org_a.org_id
    bad_writes = [
        lambda s: s.add(Trip(org_id=org_b.org_id, name="x", mode="city", created_by=org_b.user_id, version_count=0)),
        lambda s: setattr(s.get(Trip, trip.trip_id), "org_id", org_b.org_id),
        lambda s: s.add(Org(name="new org")),
    ]
    for write in bad_writes:
        with pytest.raises(TenancyError), store.org(org_a) as repo:
            write(repo.session)
            repo.session.flush()
    with store.org(org_a) as repo:
        assert repo.trips.get(trip.trip_id).name == "Trip"


def test_composite_keys_refuse_cross_org_references(store, org_a, org_b):
    trip_b = _trip(store, org_b)
    with pytest.raises(StoreError), store.org(org_a) as repo:
        repo.session.add(TripMember(trip_id=trip_b.trip_id, user_id=org_a.user_id, role="viewer"))
    with pytest.raises(StoreError), store.org(org_a) as repo:
        repo.session.add(Trip(name="x", mode="city", created_by=org_b.user_id, version_count=0))


def test_every_org_table_is_covered_by_the_criteria(store, org_a):
    """Meta-test: every table with org_id is mapped by an OrgScoped class, and SELECT, UPDATE and
    DELETE through an org session all carry the org filter in the SQL actually sent."""
    mapped = {m.local_table.name: m.class_ for m in Base.registry.mappers}
    org_tables = {t.name for t in Base.metadata.tables.values() if "org_id" in t.c} - {"org"}
    assert org_tables and all(issubclass(mapped[name], OrgScoped) for name in org_tables)
    sent: list[str] = []
    listener = lambda *args: sent.append(args[2])  # noqa: E731 (conn, cursor, statement, ...)
    event.listen(store._engine, "before_cursor_execute", listener)
    try:
        for name in sorted(org_tables):
            cls = mapped[name]
            immutable = cls in (ItineraryVersion, AuditEntry)  # bulk UPDATE refused before any SQL
            with store.org(org_a) as repo:
                for stmt in (select(cls), *([] if immutable else [update(cls).values(org_id=cls.org_id)]),
                             select(cls).join(Org, Org.org_id == cls.org_id)):
                    sent.clear()
                    repo.session.execute(stmt)
                    assert any(f"{name}.org_id = " in s or "org_id = " in s.split("WHERE", 1)[-1]
                               for s in sent if "WHERE" in s), (name, sent)
    finally:
        event.remove(store._engine, "before_cursor_execute", listener)


@pytest.mark.parametrize("evil", INJECTIONS)
def test_injection_strings_round_trip_harmlessly(store, accounts, org_a, org_b, evil):
    owner = accounts.add_user(org_a, f"{evil.replace(' ', '')[:20]}@x.example", None)
    with store.org(owner) as repo:
        trip = repo.trips.create(evil)
        repo.trips.rename(trip.trip_id, evil + " 2")
        doc = {"intent": {"city": evil}, "days": [{"date": evil, "activities": [{"name": evil}]}], "message": evil}
        repo.versions.save(trip.trip_id, doc, llm_meta={"prompt": evil})
        repo.runs.start(intent={"city": evil}, trace_id=evil[:64], run_id="r-" + trip.trip_id[:30])
        repo.runs.finish("r-" + trip.trip_id[:30], "error", error_message=evil)
        repo.tool_cache.put(evil, evil[:32], {"q": evil}, __import__("datetime").timedelta(hours=1))
        repo.audit("settings_changed", target_id=evil, value=evil)
    with store.org(owner) as repo:
        assert repo.trips.get(trip.trip_id).name == evil + " 2"
        got = repo.versions.get(trip.trip_id, 1)
        assert got.itinerary == doc and got.llm_meta == {"prompt": evil}
        assert repo.runs.status("r-" + trip.trip_id[:30]).error_message == evil
        assert repo.tool_cache.get(evil) == {"q": evil}
        assert repo.audit_log(action="settings_changed")[0].detail == {"value": evil}
        assert len(repo.trips.list()) == 1
    with store.org(org_b) as repo:
        assert repo.trips.list(include_deleted=True) == [] and repo.tool_cache.get(evil) is None
    with store.system() as s:  # the tables are all still there
        assert s.scalars(select(User.email).where(User.org_id == org_a.org_id)).all()


def test_control_characters_in_names_are_input_errors(store, org_a):
    for name in ("nul\x00byte", "two\nlines"):
        with pytest.raises(InputError), store.org(org_a) as repo:
            repo.trips.create(name)


def test_seed_audit_query_finds_no_cross_org_rows(store, org_a, org_b, itinerary):
    """Seed §9.2's daily audit query, on the tables that reference a user: must be 0."""
    for ctx in (org_a, org_b):
        trip = _trip(store, ctx)
        with store.org(ctx) as repo:
            repo.versions.save(trip.trip_id, itinerary)
            repo.runs.record_result(planned(), intent=paris_intent(), trip_id=trip.trip_id) if ctx is org_a else None
    queries = [
        'SELECT COUNT(*) FROM itinerary_version i JOIN "user" u ON i.created_by = u.user_id WHERE i.org_id != u.org_id',
        'SELECT COUNT(*) FROM trip t JOIN "user" u ON t.created_by = u.user_id WHERE t.org_id != u.org_id',
        'SELECT COUNT(*) FROM agent_run r JOIN "user" u ON r.user_id = u.user_id WHERE r.org_id != u.org_id',
        "SELECT COUNT(*) FROM itinerary_version i JOIN trip t ON i.trip_id = t.trip_id WHERE i.org_id != t.org_id",
        "SELECT COUNT(*) FROM run_event e JOIN agent_run r ON e.run_id = r.run_id WHERE e.org_id != r.org_id",
    ]
    with store._engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM itinerary_version")).scalar() >= 2
        assert [conn.execute(text(q)).scalar() for q in queries] == [0] * len(queries)


def test_system_session_is_not_part_of_the_public_scope(store, org_a):
    with store.org(org_a) as repo:
        assert not hasattr(repo, "system") and repo.session.bind is not store._engine


def test_a_row_of_another_org_reaching_a_session_is_refused_and_counted(store, org_a, org_b):
    """Seed §9: ``cross_org_reads`` (alert above 0) counts every row the org check refuses."""
    from engine.metrics import METRICS
    from engine.store.tenancy import _check_row
    foreign = _trip(store, org_b)
    before = METRICS.cross_org_reads.get()  # noqa: SLF001
    with store.system() as s:
        row = s.get(Trip, foreign.trip_id)
    with pytest.raises(TenancyError, match="another org"), store.org(org_a) as repo:
        _check_row(repo.session, row)  # what loading it into org A's session would run
    assert METRICS.cross_org_reads.get() == before + 1


def test_a_bulk_insert_is_taken_only_as_rows_that_name_the_sessions_org(store, org_a, org_b):
    """A large import inserts rows of values stamped with its org (issue 35 §4: the chat import);
    the guard checks every row, and refuses every other shape of bulk INSERT."""
    from engine.store.columns import new_id, utcnow
    from engine.store.schema_social import ChatMessage
    trip = _trip(store, org_a)

    def row(org, **extra):
        return {"org_id": org.org_id, "message_id": new_id(), "trip_id": trip.trip_id, "user_id": org_a.user_id,
                "author": "Ana", "body": "hi", "kind": "user", "source": "whatsapp", "sent_at": utcnow(),
                "fingerprint": new_id(), "created_at": utcnow(), **extra}

    refused = [
        [row(org_b)],  # another org's
        [row(org_a), row(org_b)],  # one row of another org among good ones
        [{k: v for k, v in row(org_a).items() if k != "org_id"}],  # no org
    ]
    for rows in refused:
        with pytest.raises(TenancyError), store.org(org_a) as repo:
            repo.session.execute(insert(ChatMessage), rows)
    with pytest.raises(TenancyError), store.org(org_a) as repo:  # values in the statement
        repo.session.execute(insert(ChatMessage).values(**row(org_a)))
    with pytest.raises(TenancyError), store.org(org_a) as repo:  # INSERT … SELECT copies rows it cannot see
        repo.session.execute(insert(ChatMessage).from_select(list(row(org_a)), select(*[
            ChatMessage.__table__.c[k] for k in row(org_a)])))
    with store.org(org_a) as repo:
        repo.session.execute(insert(ChatMessage), [row(org_a), row(org_a)])
    with store.org(org_a) as repo:
        assert len(repo.session.scalars(select(ChatMessage)).all()) == 2
    with store.org(org_b) as repo:
        assert repo.session.scalars(select(ChatMessage)).all() == []
