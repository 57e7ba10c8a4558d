"""The workspace reopening a stored trip (Qt-free): the undo history the user had, rebuilt from
the versions' parent links, with only the shown version read from the database."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import event

from app.trip_session import TripVersion, UnloadedVersion
from app.workspace import Workspace
from engine.pipeline import PlanningSession
from tests.app.conftest import TODAY
from tests.app.test_main_window import ROUTE66
from tests.store.conftest import memory_keyring  # noqa: F401 (a fixture)

KINGMAN_STOP = ROUTE66.model_copy(update={"stops": ["Kingman, AZ"]})
AMARILLO_STOP = ROUTE66.model_copy(update={"stops": ["Amarillo, TX"]})


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    """One data dir for the module: the first road trip builds the gazetteer index there."""
    return tmp_path_factory.mktemp("home")


@pytest.fixture
def workspace(home, tmp_path, monkeypatch, memory_keyring):  # noqa: F811 (the imported fixture)
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(home))
    opened = Workspace.start(f"sqlite:///{tmp_path / 'trips.db'}")
    yield opened
    opened.close()


def _saved(workspace: Workspace, intent, *, trip_id: str | None, based_on: int | None, note: str) -> str:
    """Plan ``intent`` for real and record it as the app does (events live, then the version)."""
    recorder = workspace.recorder
    ticket = recorder.begin(intent, trip_id=trip_id)
    result = asyncio.run(PlanningSession(today=TODAY).plan(intent, on_event=lambda e: recorder.event(ticket, e)))
    assert recorder.finish(ticket, result, note=note, based_on=based_on) is not None
    return ticket.trip_id


@pytest.fixture
def dragged_undone_then_added(workspace) -> str:
    """The issue's steps: v1 planned, v2 a dragged stop, undo, v3 a stop added to v1."""
    trip_id = _saved(workspace, ROUTE66, trip_id=None, based_on=None, note="Planned")
    _saved(workspace, KINGMAN_STOP, trip_id=trip_id, based_on=1, note="Moved an overnight stop to Kingman, AZ")
    _saved(workspace, AMARILLO_STOP, trip_id=trip_id, based_on=1, note="Added a stop in Amarillo, TX")
    return trip_id


def test_reopening_gives_back_the_history_and_reads_only_the_shown_version(workspace, dragged_undone_then_added):
    trip_id = dragged_undone_then_added
    sent: list[str] = []
    event.listen(workspace.store._engine, "before_cursor_execute", lambda *a: sent.append(a[2]))  # noqa: SLF001
    opened = workspace.open_trip(trip_id)
    session = opened.session
    assert opened.numbers == [1, 3] and session.pointer == 1 and session.label() == "v3/3"
    assert session.trip_id == trip_id and session.name == opened.summary.name
    assert session.versions[0] == UnloadedVersion(1, "Planned")
    shown = session.current
    assert isinstance(shown, TripVersion) and shown.number == 3 and shown.intent == AMARILLO_STOP
    assert shown.events and shown.edit == "Added a stop in Amarillo, TX"
    assert len([s for s in sent if "itinerary_z" in s]) == 1  # one version read in full, not three

    back = workspace.load_version(trip_id, 1)  # what undo reads when it reaches v1
    assert back.number == 1 and back.intent == ROUTE66 and back.events and back.edit == "Planned"
    session.fill(0, back)
    assert session.undo() is back and session.redo() is shown


def test_reopening_on_an_undone_version_keeps_what_redo_reached(workspace, dragged_undone_then_added):
    trip_id = dragged_undone_then_added
    at_v1 = workspace.open_trip(trip_id, 1)  # the app closed with v1 on screen
    assert at_v1.numbers == [1, 3] and at_v1.session.pointer == 0 and at_v1.session.can_redo
    assert at_v1.session.versions[1] == UnloadedVersion(3, "Added a stop in Amarillo, TX")
    at_v2 = workspace.open_trip(trip_id, 2)  # another window left the drag on screen
    assert at_v2.numbers == [1, 2] and at_v2.session.current.intent == KINGMAN_STOP
    assert workspace.open_trip(trip_id, 42).numbers == [1, 3]  # an unknown number: the latest
