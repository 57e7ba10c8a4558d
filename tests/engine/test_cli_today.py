"""``tripwright today`` (issue 36 §1) through the real executable against a real SQLite store
holding a trip saved by ``plan --save`` (the Paris example with its booked flights and hotel)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

EXE = Path(sys.executable).with_name("tripwright")
BOOKED = Path(__file__).resolve().parents[2] / "docs" / "examples" / "paris-booked.json"


def tw(db: Path, *args: str) -> subprocess.CompletedProcess:
    env = os.environ | {"TRIPWRIGHT_DATABASE_URL": f"sqlite:///{db}", "TRIPWRIGHT_OFFLINE": "1"}
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, env=env, timeout=180)


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> tuple[Path, str, dict]:
    home = tmp_path_factory.mktemp("today")
    db, out = home / "trips.sqlite3", home / "paris.json"
    done = tw(db, "plan", "--intent", str(BOOKED), "--save", "--name", "Paris", "--out", str(out),
              "--today", "2026-11-23")
    assert done.returncode == 0, done.stderr
    trip_id = tw(db, "trips", "list").stdout.split()[0]
    return db, trip_id, json.loads(out.read_text(encoding="utf-8"))


def _stored(db: Path) -> str:
    from engine.store import Accounts, Store
    store = Store.open(f"sqlite:///{db}")
    try:
        with store.org(Accounts(store).first_run()) as repo:
            version = repo.versions.get(repo.trips.list()[0].trip_id)
        return json.dumps(version.itinerary, sort_keys=True)
    finally:
        store.close()


def test_json_names_now_next_and_when_to_leave(saved) -> None:
    db, trip_id, itinerary = saved
    before = _stored(db)
    day = itinerary["days"][1]
    acts = day["activities"]
    visits = [a for a in acts if a["role"] in ("activity", "meal")]
    start, end = datetime.fromisoformat(visits[0]["start"]), datetime.fromisoformat(visits[0]["end"])
    now = start + (end - start) / 2
    done = tw(db, "today", trip_id, "--now", now.isoformat(), "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["under_way"] is True and answer["day_index"] == 1
    assert answer["now"]["id"] == visits[0]["id"]
    following = next(a for a in acts if datetime.fromisoformat(a["start"]) > now
                     and a["role"] not in ("transfer", "omitted"))
    transfer = acts[acts.index(following) - 1]
    assert answer["next"]["id"] == following["id"] and transfer["role"] == "transfer"
    minutes = (datetime.fromisoformat(transfer["end"]) - datetime.fromisoformat(transfer["start"])).seconds // 60
    leave = datetime.fromisoformat(following["start"]) - timedelta(minutes=minutes)
    assert answer["leave_at"] == f"{leave:%H:%M}" and answer["how"]["name"] == transfer["name"]
    assert answer["weather"]["source"] == "plan" and day["date"] in answer["weather"]["said"]
    assert [b["kind"] for b in answer["bookings"]] == ["hotel"]
    assert answer["bookings"][0]["confirmation"] == itinerary["intent"]["bookings"]["hotel"]["confirmation"]
    assert _stored(db) == before  # reading the trip changed nothing


def test_text_on_the_last_day_shows_the_flight_code_and_the_map_day(saved) -> None:
    db, trip_id, itinerary = saved
    last = itinerary["days"][-1]
    ride = next(a for a in last["activities"] if a["role"] == "transfer")  # on the way somewhere
    local = (datetime.fromisoformat(ride["start"]) + timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M")
    done = tw(db, "today", trip_id, "--now", local)  # no offset: the trip's local clock
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    days = len(itinerary["days"])
    assert lines[0].startswith(f"Paris \u2014 day {days} of {days}") and f"{local[11:]} (Europe/Paris)" in lines[0]
    assert lines[1] == f"Now:      {ride['start'][11:16]}\u2013{ride['end'][11:16]}  On the way: {ride['name']}"
    labels = [line.split(":", 1)[0] for line in lines[1:]]
    assert labels[:4] == ["Now", "Next", "Leave at", "How"] and "Weather" in labels
    flight = next(f for f in itinerary["intent"]["bookings"]["flights"] if f["departure"].startswith(last["date"]))
    assert any(line.startswith("Booking:") and flight["flight_number"] in line and flight["confirmation"] in line
               for line in lines)
    assert f"Map:      day {days}" in lines


def test_not_under_way_is_one_line_and_exit_0(saved) -> None:
    db, trip_id, itinerary = saved
    done = tw(db, "today", trip_id, "--now", "2027-05-01T12:00:00+02:00")
    assert done.returncode == 0 and done.stdout == "Your trip to Paris starts on 15 June 2027\n"
    after = tw(db, "today", trip_id, "--now", "2027-07-01T12:00:00+02:00", "--json")
    answer = json.loads(after.stdout)
    assert after.returncode == 0 and answer["under_way"] is False
    assert answer["now"] is None and answer["next"] is None and answer["leave_at"] is None


@pytest.mark.parametrize("args, words", [
    (("no-such-trip",), "no trip"),
    (("{trip}", "--now", "next tuesday"), "--now"),
    (("{trip}", "--now", "2027-13-40T10:00"), "--now"),
])
def test_a_bad_trip_or_clock_is_one_line_exit_2(saved, args, words) -> None:
    db, trip_id, _ = saved
    done = tw(db, "today", *(a.format(trip=trip_id) for a in args))
    assert done.returncode == 2 and words in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr and done.stdout == ""


def test_a_road_trip_reads_each_day_on_its_own_zone(tmp_path) -> None:
    db, out = tmp_path / "trips.sqlite3", tmp_path / "road.json"
    done = tw(db, "plan", "--prompt", "Route 66 from Chicago to Santa Monica, 8 days from 2027-05-03", "--save",
              "--out", str(out), "--today", "2026-11-23")
    assert done.returncode == 0, done.stderr
    trip_id = tw(db, "trips", "list").stdout.split()[0]
    itinerary = json.loads(out.read_text(encoding="utf-8"))
    days = itinerary["days"]
    di = next(i for i, d in enumerate(days) if d["tz"] != days[0]["tz"])  # a day in another zone
    local = f"{days[di]['date']}T00:30"  # the trip's clock that day: that day's own zone
    answer = json.loads(tw(db, "today", trip_id, "--now", local, "--json").stdout)
    assert answer["under_way"] is True and answer["day_index"] == di and answer["tz"] == days[di]["tz"]
    first = next(a for a in days[di]["activities"] if a["role"] not in ("transfer", "omitted"))
    assert answer["next"]["id"] == first["id"] and answer["how"]["mode"] == "drive"
    before = tw(db, "today", trip_id, "--now", "2027-04-30T12:00:00-05:00")
    assert before.returncode == 0
    intent = itinerary["intent"]
    assert before.stdout == f"Your road trip from {intent['origin']} to {intent['terminus']} starts on 3 May 2027\n"
