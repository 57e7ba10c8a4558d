"""``tripwright bookings import|list|delete --trip`` and ``tripwright places import --trip``: the
traveller's bookings and saved places kept with a saved trip (in its latest version's intent) and
used by its re-plans, each change a new version saved the way ``plan --save --trip`` saves one —
through the real executable, against a store in a throwaway TRIPWRIGHT_HOME."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXE = Path(sys.executable).with_name("tripwright")
ROOT = Path(__file__).resolve().parents[2]
INTENT = ROOT / "docs" / "examples" / "paris.json"
MY_MAPS = ROOT / "tests" / "data" / "places" / "paris_my_maps.kml"
MOTEL_MAIL = Path(__file__).parents[1] / "data" / "bookings" / "blue_swallow_route66.eml"
AF_MAIL = ROOT / "tests" / "data" / "bookings" / "af_jfk_cdg.eml"  # AF 23 JFK→CDG 06-15, AF 22 CDG→JFK 06-19
TODAY = "2026-11-23"
CODE = "QX7K2M"


def tw(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TRIPWRIGHT_DATABASE_URL"} | {"TRIPWRIGHT_HOME": str(home)}
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, env=env, timeout=120)


def saved_trip(home: Path) -> str:
    done = tw(home, "plan", "--intent", str(INTENT), "--save", "--today", TODAY)
    assert done.returncode == 0, done.stderr
    return tw(home, "trips", "list").stdout.split()[0]


def activities(path: Path) -> list[dict]:
    return [a for day in json.loads(path.read_text(encoding="utf-8"))["days"] for a in day["activities"]]


def flights(path: Path) -> list[str]:
    return [a["name"] for a in activities(path) if a["kind"] == "flight"]


def versions(home: Path, trip: str) -> int:
    shown = tw(home, "trips", "show", trip).stdout
    return int(shown.split(" version(s)")[0].rsplit(" ", 1)[1])


def one_line_exit_2(done: subprocess.CompletedProcess, *words: str) -> None:
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("tripwright: ") and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr and all(w in done.stderr for w in words), done.stderr


# The tests below share one trip and run in order, as a traveller would: v1 planned, v2 with the
# saved places, v3 with the bookings, v4 without the first booking.
@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("home")


@pytest.fixture(scope="module")
def trip(home) -> str:
    return saved_trip(home)


def test_places_import_saves_a_version_with_the_saved_places(home, trip, tmp_path) -> None:
    out = tmp_path / "v2.json"
    done = tw(home, "places", "import", str(MY_MAPS), "--trip", trip, "--today", TODAY, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert f"saved as version 2 of trip {trip}" in done.stderr
    assert "Shakespeare and Company" in {a["name"] for a in activities(out)}
    again = tw(home, "places", "import", str(MY_MAPS), "--trip", trip, "--today", TODAY)
    assert again.returncode == 0 and "nothing new: version 2" in again.stderr  # the places are kept already
    assert versions(home, trip) == 2


def test_bookings_import_list_delete(home, trip, tmp_path) -> None:
    out = tmp_path / "v3.json"
    done = tw(home, "bookings", "import", str(AF_MAIL), "--trip", trip, "--today", TODAY, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert f"saved as version 3 of trip {trip}" in done.stderr
    assert flights(out) == ["AF 23 JFK→CDG", "AF 22 CDG→JFK"]  # planned around the bookings
    booked = [a for a in activities(out) if a["kind"] == "flight"]
    assert all(a["provenance"]["data_source"] == "user" and f"confirmation {CODE}" in a["notes"] for a in booked)
    assert "Shakespeare and Company" in {a["name"] for a in activities(out)}  # the saved places stay kept
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert [f["flight_number"] for f in saved["intent"]["bookings"]["flights"]] == ["AF 23", "AF 22"]

    listed = tw(home, "bookings", "list", "--trip", trip)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0].split()[:5] == ["1", "flight", "AF", "23", "JFK→CDG"]
    assert lines[1].split()[:5] == ["2", "flight", "AF", "22", "CDG→JFK"]
    assert all("confirmation QX••••" in line for line in lines[:2])
    assert CODE not in listed.stdout + listed.stderr  # masked on the terminal
    assert lines[-1] == f"2 booking(s) in version 3 of trip {trip}"

    again = tw(home, "bookings", "import", str(AF_MAIL), "--trip", trip, "--today", TODAY)
    assert again.returncode == 0 and "nothing new: version 3" in again.stderr and versions(home, trip) == 3

    after = tmp_path / "v4.json"
    deleted = tw(home, "bookings", "delete", "1", "--trip", trip, "--today", TODAY, "--out", str(after))
    assert deleted.returncode == 0, deleted.stderr
    assert f"saved as version 4 of trip {trip}" in deleted.stderr
    assert "AF 23 JFK→CDG" not in flights(after) and flights(after)[-1] == "AF 22 CDG→JFK"
    assert [f["flight_number"] for f in json.loads(after.read_text())["intent"]["bookings"]["flights"]] == ["AF 22"]
    relisted = tw(home, "bookings", "list", "--trip", trip).stdout.splitlines()
    assert len(relisted) == 2 and "AF 22" in relisted[0] and relisted[-1].startswith("1 booking(s) in version 4")


def test_a_ticket_is_kept_with_the_trip_listed_and_deleted(home, trip, tmp_path) -> None:
    ticket = ROOT / "tests" / "data" / "bookings" / "garnier_giselle.eml"
    out = tmp_path / "v5.json"
    done = tw(home, "bookings", "import", str(ticket), "--trip", trip, "--today", TODAY, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "Giselle at Palais Garnier" in {a["name"] for a in activities(out)}
    lines = tw(home, "bookings", "list", "--trip", trip).stdout.splitlines()
    assert lines[1].split()[:3] == ["2", "event", "Giselle"] and "confirmation OP•••••••" in lines[1]
    assert "OP5527193" not in "\n".join(lines)
    gone = tmp_path / "v6.json"
    assert tw(home, "bookings", "delete", "2", "--trip", trip, "--today", TODAY, "--out", str(gone)).returncode == 0
    assert "Giselle at Palais Garnier" not in {a["name"] for a in activities(gone)}


def test_each_change_is_a_recorded_run_based_on_the_latest_version(home, trip) -> None:
    """The re-plan goes through ``plan --save --trip``'s path: its run is recorded (completed,
    holding the version) and the version is made from the one before it."""
    from engine.store import Accounts, Store
    store = Store.open(f"sqlite:///{home / 'tripwright.db'}")
    try:
        ctx = Accounts(store).first_run()
        with store.org(ctx) as repo:
            latest = repo.versions.get(trip)
            runs = [r for r in repo.runs.recent(20) if r.run_id == latest.run_id]
        assert latest.run_id and runs and runs[0].status == "completed" and runs[0].trip_id == trip
        assert latest.based_on == latest.number - 1
    finally:
        store.close()


def test_errors_are_one_line_exit_2(home, trip, tmp_path) -> None:
    one_line_exit_2(tw(home, "bookings", "list", "--trip", "no-such-trip"), "no trip")
    one_line_exit_2(tw(home, "bookings", "import", str(AF_MAIL), "--trip", "no-such-trip"), "no trip")
    one_line_exit_2(tw(home, "places", "import", str(MY_MAPS), "--trip", "no-such-trip"), "no trip")
    one_line_exit_2(tw(home, "bookings", "list"), "--trip")
    one_line_exit_2(tw(home, "bookings", "delete", "9", "--trip", trip, "--today", TODAY), "booking")
    one_line_exit_2(tw(home, "bookings", "delete", "0", "--trip", trip, "--today", TODAY), "booking")
    one_line_exit_2(tw(home, "bookings", "delete", "first", "--trip", trip), "not a booking number")
    one_line_exit_2(tw(home, "bookings", "import", "--trip", trip), "at least one")
    one_line_exit_2(tw(home, "bookings", "import", str(tmp_path / "missing.eml"), "--trip", trip, "--today", TODAY))


def test_a_trip_without_bookings_and_a_road_trip_are_refused(tmp_path) -> None:
    home = tmp_path / "home"
    trip = saved_trip(home)
    listed = tw(home, "bookings", "list", "--trip", trip)
    assert listed.returncode == 0 and listed.stdout.splitlines() == [f"0 booking(s) in version 1 of trip {trip}"]
    one_line_exit_2(tw(home, "bookings", "delete", "1", "--trip", trip, "--today", TODAY), "has no bookings")
    one_line_exit_2(tw(home, "places", "import", str(MY_MAPS), "--trip", _road_trip(home), "--today", TODAY),
                    "road trip")


def _road_trip(home: Path) -> str:
    done = tw(home, "plan", "--prompt", "LA to Chicago via Route 66, 7 days from 2027-05-03", "--save",
              "--name", "Route 66", "--today", TODAY)
    assert done.returncode == 0, done.stderr
    return next(line.split()[0] for line in tw(home, "trips", "list").stdout.splitlines() if "Route 66" in line)


def test_a_road_trip_keeps_its_booked_motel(tmp_path) -> None:
    """A saved Route 66 trip takes the Blue Swallow Motel's confirmation (its third night, in
    Tucumcari) as a new version; a flight is refused; deleting the booking plans without it."""
    home = tmp_path / "home"
    road = _road_trip(home)
    out = tmp_path / "v2.json"
    done = tw(home, "bookings", "import", str(MOTEL_MAIL), "--trip", road, "--today", TODAY, "--out", str(out))
    assert done.returncode == 0, done.stderr
    third = json.loads(out.read_text(encoding="utf-8"))["days"][2]
    assert third["anchor"]["name"] == "Tucumcari, NM" and third["anchor"]["source"] == "user"
    listed = tw(home, "bookings", "list", "--trip", road).stdout.splitlines()
    assert listed == ["  1  hotel   Blue Swallow Motel  2027-05-05 → 2027-05-06  confirmation BS••••••  $129.00",
                      f"1 booking(s) in version 2 of trip {road}"]
    one_line_exit_2(tw(home, "bookings", "import", str(AF_MAIL), "--trip", road, "--today", TODAY),
                    "a road trip plans no flights")
    assert versions(home, road) == 2
    assert tw(home, "bookings", "delete", "1", "--trip", road, "--today", TODAY).returncode == 0
    assert tw(home, "bookings", "list", "--trip", road).stdout.splitlines() == [
        f"0 booking(s) in version 3 of trip {road}"]
