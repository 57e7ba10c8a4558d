"""Issue 32 §1 in the window: an import is an edit on top of the traveller's edits. A Paris plan
gets a lock, a removal, a move to another day and a replacement on the map; importing saved places
(KML) and then a ticket (an e-mail) re-plans the trip around them — every edit is still there after
each import, and the message bar says in one line what the import held."""

from __future__ import annotations

from tests.app.conftest import PLAN_TIMEOUT_MS, wait_task
from tests.app.test_main_window import PARIS, plan
from tests.app.test_trip_imports import DATA, MY_MAPS


def visits(itinerary, day: int) -> list:
    return [a for a in itinerary.days[day].activities if a.role == "activity"]


def where(itinerary, ref: str) -> list[tuple[int, bool]]:
    return [(di, a.locked) for di, d in enumerate(itinerary.days) for a in d.activities if a.ref == ref]


def test_locks_moves_replacements_and_removals_survive_every_import(qtbot, make_window, tmp_path):
    window = make_window(size=(1800, 1000))
    first = plan(qtbot, window, PARIS)
    locked, removed = visits(first.itinerary, 1)[0], visits(first.itinerary, 1)[1]
    moving, replaced = visits(first.itinerary, 3)[0], visits(first.itinerary, 2)[0]
    control = window.controller
    assert wait_task(qtbot, control.marker_action(locked.id, "lock")) is not None
    assert wait_task(qtbot, control.marker_action(removed.id, "remove")) is not None
    moved = wait_task(qtbot, control.marker_action(moving.id, "move:1"))
    assert moved is not None and 1 in [d for d, _ in where(moved.itinerary, moving.ref)]
    from app.map_edits import alternatives
    version = window.trip.current
    option = alternatives(version.plan, replaced.id, control._facts(version))[0]  # the Replace chooser's first
    swapped = wait_task(qtbot, control.replace_with(replaced.id, option.venue_id))
    assert swapped is not None and where(swapped.itinerary, option.venue_id)
    edited = window.trip.current
    chosen_day = [d for d, _ in where(edited.itinerary, option.venue_id)]  # where the re-plan settled it

    def holds(version) -> None:
        it = version.itinerary
        assert where(it, locked.ref) == [(1, True)]  # the lock: same day, still locked …
        kept = next(a for a in it.days[1].activities if a.ref == locked.ref)
        assert kept.window == locked.window  # … at its time
        assert where(it, removed.ref) == []  # the removal
        assert [d for d, _ in where(it, moving.ref)] == [1]  # the move
        assert [d for d, _ in where(it, option.venue_id)] == chosen_day  # the replacement …
        assert where(it, replaced.ref) == []  # … and not the place it replaced

    holds(edited)
    wait_task(qtbot, window.imports.import_places(str(MY_MAPS)))
    qtbot.waitUntil(lambda: window.trip.current is not edited, timeout=PLAN_TIMEOUT_MS)
    with_places = window.trip.current
    assert with_places.edit.startswith("Added") and "saved place" in with_places.edit
    holds(with_places)
    names = {a.name for d in with_places.itinerary.days for a in d.activities}
    assert "Shakespeare and Company" in names  # what the file added is planned too
    line = window.message_bar.text()
    assert line.startswith("paris_my_maps.kml:") and "\n" not in line

    wait_task(qtbot, window.imports.import_bookings(str(DATA / "bookings" / "garnier_giselle.eml")))
    qtbot.waitUntil(lambda: window.trip.current is not with_places, timeout=PLAN_TIMEOUT_MS)
    with_ticket = window.trip.current
    holds(with_ticket)
    assert any(a.ref.startswith("booked_event_") and a.locked for d in with_ticket.itinerary.days
               for a in d.activities)
    assert window.message_bar.text().startswith("garnier_giselle.eml:")
    window.grab().save(str(tmp_path / "edits-after-imports.png"))
