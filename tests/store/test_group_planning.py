"""Group planning in the store (migration 0006): an upgrade keeps what 0004 held, every row is
org-scoped, and the revision rule counts feedback and reactions on the latest version only."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from engine.errors import InputError
from engine.llm.chat_import import ImportedMessage
from engine.store import Store, migrate

from .conftest import planned
from .test_migrations import _at_revision, _inserting, _rows_of_0003


def test_upgrading_a_0004_database_with_ideas_keeps_them(db_url):
    result = planned()
    engine = _at_revision(db_url, "0004")
    now = datetime(2026, 11, 21, 9, 0, tzinfo=timezone.utc)
    with engine.begin() as conn:
        ctx = _rows_of_0003(conn, result)
        _inserting(conn)("idea", org_id="o-3", idea_id="i-old", trip_id="t-3", user_id="u-3", source="user",
                         title="Night at the Orsay", body="", created_at=now)
    engine.dispose()
    with Store.open(db_url) as store:
        assert store.schema_revision() == migrate.head()
        with store.org(ctx) as repo:
            [old] = repo.group.ideas("t-3")
            assert (old.idea_id, old.title, old.priority) == ("i-old", "Night at the Orsay", 0)
            repo.group.add_idea("t-3", "Picnic", priority=1)
            assert [i.title for i in repo.group.ideas("t-3")] == ["Picnic", "Night at the Orsay"]
            assert repo.group.revision_status("t-3").label == "Waiting for feedback or reactions"
            repo.group.react("t-3", "👍", version=1)  # an older version's reaction enables nothing
            assert repo.group.revision_status("t-3").label == "Waiting for feedback or reactions"
            repo.group.react("t-3", "👍")
            assert repo.group.revision_status("t-3").label == "0 feedback, 1 reactions since v2"
            repo.group.add_feedback("t-3", "more food", rating=4)
            assert repo.group.revision_status("t-3").label == "1 feedback, 1 reactions since v2"


def test_group_rows_stay_in_their_org(store, org_a, org_b, itinerary):
    with store.org(org_a) as repo:
        trip = repo.trips.create("A's trip")
        repo.versions.save(trip.trip_id, itinerary)
        repo.group.add_idea(trip.trip_id, "Louvre at night", priority=2)
        repo.group.post(trip.trip_id, "hello")
        sent = datetime(2026, 11, 1, tzinfo=timezone.utc)
        added = repo.group.import_messages(trip.trip_id, [ImportedMessage(sent, "Tom", "hi"),
                                                          ImportedMessage(sent + timedelta(minutes=1), "", "x joined", "system")],
                                           "whatsapp")
        assert added == (2, 0)
        assert [m.body for m in repo.group.chat(trip.trip_id)] == ["hi", "hello"]
        repo.group.react(trip.trip_id, "🎉")
    with store.org(org_b) as repo:
        for call in (lambda: repo.group.ideas(trip.trip_id), lambda: repo.group.chat(trip.trip_id),
                     lambda: repo.group.react(trip.trip_id, "👍"),
                     lambda: repo.group.add_feedback(trip.trip_id, "sneaky")):
            with pytest.raises(InputError, match="no trip"):
                call()
    with store.org(org_a) as repo:
        assert repo.group.reactions(trip.trip_id) == {"🎉": 1}
        assert repo.group.feedback(trip.trip_id) == []


def test_a_teammate_sees_additions_by_polling_without_reopening(db_url, accounts_for):
    """Two stores on one database (two computers): the second one's poll changes after the first
    adds something, with no restart (the app polls change_marker every ≤ 5 s)."""
    from engine.store import Store
    first, ctx = accounts_for(db_url)
    with first.org(ctx) as repo:
        trip = repo.trips.create("Team trip")
    with Store.open(db_url) as second:
        with second.org(ctx) as repo:
            before = repo.group.change_marker(trip.trip_id)
        with first.org(ctx) as repo:
            repo.group.add_idea(trip.trip_id, "Boat tour", priority=2)
            repo.group.post(trip.trip_id, "who books the boat?")
        with second.org(ctx) as repo:
            after = repo.group.change_marker(trip.trip_id)
            assert after != before and after[:2] == (before[0] + 1, before[1] + 1)
            assert [i.title for i in repo.group.ideas(trip.trip_id)] == ["Boat tour"]


def test_reactions_on_ideas_count_once_per_person_and_move_the_marker(store, org_a, org_b, itinerary):
    with store.org(org_a) as repo:
        trip = repo.trips.create("A's trip")
        idea = repo.group.add_idea(trip.trip_id, "Boat tour", priority=2)
        before = repo.group.change_marker(trip.trip_id)
        assert repo.group.react_to_idea(trip.trip_id, idea.idea_id, "👍") is True
        assert repo.group.react_to_idea(trip.trip_id, idea.idea_id, "👍") is False
        assert repo.group.react_to_idea(trip.trip_id, idea.idea_id, "❤️") is True
        assert repo.group.change_marker(trip.trip_id)[-1] == before[-1] + 2
        [listed] = repo.group.ideas(trip.trip_id)
        assert listed.reactions == {"👍": 1, "❤️": 1}
        with pytest.raises(InputError, match="emoji"):
            repo.group.react_to_idea(trip.trip_id, idea.idea_id, "ok")
        with pytest.raises(InputError, match="no idea"):
            repo.group.react_to_idea(trip.trip_id, "nope", "👍")
    with store.org(org_b) as repo:
        with pytest.raises(InputError, match="no trip"):
            repo.group.react_to_idea(trip.trip_id, idea.idea_id, "👍")


def test_a_large_chat_export_is_stored_whole_in_batches_and_once(store, org_a, itinerary):
    """Issue 35 §4: a 19 MB export is stored in batches (a flush per message took 386 s; the time
    is bench/chat_import_bench.py's): every message kept in order, a message the export repeats
    and a second import add nothing, and the rows are the org's."""
    from engine.store import group
    sent = datetime(2026, 11, 1, tzinfo=timezone.utc)
    messages = [ImportedMessage(sent + timedelta(seconds=i), f"P{i % 3}", f"message {i}", "system" if i % 7 == 0 else "user")
                for i in range(2 * group.IMPORT_BATCH + 501)]
    with store.org(org_a) as repo:
        trip = repo.trips.create("A's trip")
        repo.versions.save(trip.trip_id, itinerary)
        assert repo.group.import_messages(trip.trip_id, messages + messages[:10], "whatsapp") == (len(messages), 10)
    with store.org(org_a) as repo:
        stored = repo.group.chat(trip.trip_id, include_system=True)
        assert [(m.body, m.author, m.kind) for m in stored] == [(m.body, m.author, m.kind) for m in messages]
        assert repo.group.import_messages(trip.trip_id, messages, "whatsapp") == (0, len(messages))
        assert len(repo.group.chat(trip.trip_id, include_system=True)) == len(messages)


def test_a_bulk_chat_row_is_the_models_row() -> None:
    """The import's rows come from ChatMessage itself: every column with a default is filled as a
    flush would (a fresh id per row), and a name that is not a column is refused."""
    from engine.store.group import model_row
    from engine.store.schema_social import ChatMessage

    sent = datetime(2026, 11, 1, tzinfo=timezone.utc)
    first, second = (model_row(ChatMessage, org_id="o", trip_id="t", user_id="u", body="hi", sent_at=sent,
                               fingerprint=str(n)) for n in range(2))
    assert set(first) == set(ChatMessage.__table__.columns.keys())
    assert (first["author"], first["kind"], first["source"]) == ("", "user", "app")
    assert first["message_id"] and first["message_id"] != second["message_id"] and first["created_at"].tzinfo
    with pytest.raises(TypeError, match="no column texte"):
        model_row(ChatMessage, texte="hi")
