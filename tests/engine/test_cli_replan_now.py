"""``tripwright replan-now TRIP_ID --now ...``: a saved trip re-planned from now on around one
change and saved as its next version — the real executable against a SQLite store in a
throwaway TRIPWRIGHT_HOME. Bad input is one line, exit 2, and nothing is saved."""

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
GISELLE = ROOT / "tests" / "data" / "bookings" / "garnier_giselle.eml"
AF_MAIL = ROOT / "tests" / "data" / "bookings" / "af_jfk_cdg.eml"
AF_CHANGED = ROOT / "tests" / "data" / "bookings" / "af_cdg_jfk_changed.eml"  # a new flight home, 13:10
HOTEL_MAIL = ROOT / "tests" / "data" / "bookings" / "britania_microdata.eml"


def tw(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TRIPWRIGHT_DATABASE_URL"} | {"TRIPWRIGHT_HOME": str(home)}
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, env=env, timeout=120)


def versions(home: Path, trip: str) -> int:
    shown = tw(home, "trips", "show", trip).stdout
    return int(shown.split(" version(s)")[0].rsplit(" ", 1)[1])


def one_line_exit_2(done: subprocess.CompletedProcess, *words: str) -> None:
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("tripwright: ") and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr and all(w in done.stderr for w in words), done.stderr


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("home")


@pytest.fixture(scope="module")
def trip(home) -> str:
    done = tw(home, "plan", "--intent", str(INTENT), "--save", "--today", "2026-11-23", "--out", str(home / "v1.json"))
    assert done.returncode == 0, done.stderr
    return tw(home, "trips", "list").stdout.split()[0]


def noted(itinerary: dict) -> dict[str, str]:
    """Each place whose notes cite the destination notes, with that line."""
    return {a["ref"]: line for d in itinerary["days"] for a in d["activities"]
            for line in a["notes"].split("; ") if line.startswith(("From Tripwright's notes:", "From your notes:"))}


def test_a_closure_saves_a_new_version_and_prints_the_change(home, trip, tmp_path) -> None:
    out = tmp_path / "v2.json"
    done = tw(home, "replan-now", trip, "--now", "2027-06-16T11:00", "--closed", "Louvre", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert f"saved as version 2 of trip {trip}" in done.stderr
    assert "replaces Musée du Louvre today at 14:25" in done.stdout and done.stdout.count("\n") == 1
    day = json.loads(out.read_text(encoding="utf-8"))["days"][1]
    assert "louvre" not in {a["ref"] for a in day["activities"]}
    assert versions(home, trip) == 2
    verified = tw(home, "verify", str(out))  # the new version's facts still check out
    assert verified.returncode == 0, verified.stdout + verified.stderr
    # the destination notes the plan cited are cited again for every place still planned
    before, after = noted(json.loads((home / "v1.json").read_text(encoding="utf-8"))), noted(json.loads(out.read_text()))
    kept = {ref for d in json.loads(out.read_text())["days"] for a in d["activities"] for ref in [a["ref"]]}
    assert after and {r: n for r, n in before.items() if r in kept} == after and "louvre" in before
    rag = [c for c in json.loads(out.read_text())["citations"] if c["provenance"]["source"] == "rag"]
    assert len(rag) == len(after)


def test_a_booked_event_mid_trip_then_done_for_today(home, trip) -> None:
    done = tw(home, "replan-now", trip, "--now", "2027-06-17T12:00", "--bookings", str(GISELLE))
    assert done.returncode == 0, done.stderr
    assert "Giselle at Palais Garnier replaces Café de Flore today at 19:30" in done.stdout  # dinner overlapped it
    ended = tw(home, "replan-now", trip, "--now", "2027-06-18T15:00", "--done-for-today")
    assert ended.returncode == 0 and "dropped" in ended.stdout, ended.stderr
    assert versions(home, trip) == 4


def test_a_late_flight_is_kept_in_the_saved_version_and_verifies_as_the_replan_did(tmp_path) -> None:
    home = tmp_path / "home"
    assert tw(home, "plan", "--intent", str(INTENT), "--save", "--today", "2026-11-23").returncode == 0
    trip = tw(home, "trips", "list").stdout.split()[0]
    out, back = tmp_path / "late.json", tmp_path / "late_home.json"
    done = tw(home, "replan-now", trip, "--now", "2027-06-15T08:00", "--late", "240", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "N0701 JFK→CDG now lands 13:50" in done.stdout  # the same flight retimed, not another one
    verified = tw(home, "verify", str(out))  # the catalog still has 09:50; the saved intent has the delay
    assert verified.returncode == 0 and "0 blocking" in verified.stdout, verified.stdout + verified.stderr
    saved = json.loads(out.read_text(encoding="utf-8"))
    kept = saved["intent"]["bookings"]["flights"]
    assert [(f["flight_number"], f["source"], f["arrival"]) for f in kept] == [
        ("N0701", "delay", "2027-06-15T13:50:00+02:00")]
    arrival = next(a for a in saved["days"][0]["activities"] if a["role"] == "arrival")
    assert arrival["ref"] == "booked-n0701-20270615" and arrival["window"]["end"] == "13:50:00"
    today = tw(home, "today", trip, "--now", "2027-06-15T12:00", "--json")  # the saved version, at the new time
    assert today.returncode == 0, today.stderr
    shown = json.loads(today.stdout)
    assert shown["now"]["role"] == "arrival" and shown["now"]["window"]["end"] == "13:50:00"
    assert shown["bookings"] == []  # kept late, not a booking the traveller holds: no code to show
    # the next re-plan starts from the saved version (the delay in it) and its own delay holds too
    home_late = tw(home, "replan-now", trip, "--now", "2027-06-19T08:00", "--late", "60", "--out", str(back))
    assert home_late.returncode == 0 and "N0702 CDG→JFK now leaves 18:05" in home_late.stdout, home_late.stderr
    verified = tw(home, "verify", str(back))
    assert verified.returncode == 0 and "0 blocking" in verified.stdout, verified.stdout + verified.stderr
    flights = json.loads(back.read_text(encoding="utf-8"))["intent"]["bookings"]["flights"]
    assert [f["flight_number"] for f in flights] == ["N0701", "N0702"]


def test_a_new_flight_home_imported_mid_trip_lengthens_then_shortens_the_last_day(tmp_path) -> None:
    home = tmp_path / "home"
    planned = tmp_path / "v1.json"
    assert tw(home, "plan", "--intent", str(INTENT), "--save", "--today", "2026-11-23",
              "--out", str(planned)).returncode == 0
    trip = tw(home, "trips", "list").stdout.split()[0]
    last = json.loads(planned.read_text(encoding="utf-8"))["days"][-1]["activities"]
    visits = [a["ref"] for a in last if a["role"] in ("activity", "meal")]
    later = tmp_path / "af_later.eml"  # the same mail, the flight moved to the evening
    later.write_text(AF_CHANGED.read_text(encoding="utf-8").replace("13:10", "20:30").replace("15:25", "22:45"),
                     encoding="utf-8")
    out = tmp_path / "later.json"
    done = tw(home, "replan-now", trip, "--now", "2027-06-18T10:00", "--bookings", str(later), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "AF 1145 CDG→JFK replaces N0702 CDG→JFK tomorrow at 20:30" in done.stdout, done.stdout
    day = json.loads(out.read_text(encoding="utf-8"))["days"][-1]["activities"]
    assert [a["ref"] for a in day if a["role"] == "departure"] == ["booked-af1145-20270619"]
    more = [a["ref"] for a in day if a["role"] in ("activity", "meal")]
    assert more[:len(visits)] == visits and len(more) == len(visits) + 1  # the longer day took one more sight
    verified = tw(home, "verify", str(out))
    assert verified.returncode == 0 and "0 blocking" in verified.stdout, verified.stdout + verified.stderr

    out = tmp_path / "earlier.json"  # then the flight home moves to 13:10: the morning is all that is left
    done = tw(home, "replan-now", trip, "--now", "2027-06-18T10:00", "--bookings", str(AF_CHANGED), "--out", str(out))
    assert done.returncode == 0, done.stderr
    saved = json.loads(out.read_text(encoding="utf-8"))
    day = saved["days"][-1]["activities"]
    departure = next(a for a in day if a["role"] == "departure")
    assert departure["window"]["start"] == "13:10:00" and "confirmation QX7K2M" in departure["notes"]
    checkout = next(a for a in day if a["role"] == "checkout")
    assert checkout["window"]["start"] <= "10:00:00"
    assert not [a for a in day if a["role"] in ("activity", "meal")]  # no time left before the airport
    assert [f["flight_number"] for f in saved["intent"]["bookings"]["flights"]] == ["AF 1145"]  # one way home
    verified = tw(home, "verify", str(out))
    assert verified.returncode == 0 and "0 blocking" in verified.stdout, verified.stdout + verified.stderr
    assert versions(home, trip) == 3


@pytest.mark.parametrize("args, words", [
    (["--now", "2027-06-16T11:00", "--late", "soon"], ["--late", "whole number"]),
    (["--now", "tomorrow", "--skip", "Louvre"], ["--now", "ISO 8601"]),
    (["--now", "2027-08-01T11:00", "--skip", "Louvre"], ["--now", "not during the trip"]),
    (["--now", "2027-06-16T11:00", "--skip", "Big Ben"], ["--skip", "no visit to 'Big Ben'"]),
    (["--now", "2027-06-16T11:00", "--rain-from", "2pm"], ["--rain-from", "HH:MM"]),
    (["--now", "2027-06-16T11:00", "--at", "here"], ["--at", "LAT,LON"]),
    (["--now", "2027-06-16T11:00", "--bookings", "/nonexistent/mail.eml"], ["--bookings"]),
    (["--now", "2027-06-16T11:00", "--bookings", str(AF_MAIL)], ["--bookings", "not a flight home", "bookings import"]),
    (["--now", "2027-06-16T11:00", "--bookings", str(HOTEL_MAIL)], ["--bookings", "new hotel", "bookings import"]),
    (["--now", "2027-06-16T11:00", "--skip", "Louvre", "--late", "30"], ["not allowed with"]),
    (["--now", "2027-06-16T11:00"], ["one of the arguments"]),
])
def test_bad_input_is_one_line_exit_2_and_saves_nothing(home, trip, args, words) -> None:
    before = versions(home, trip)
    one_line_exit_2(tw(home, "replan-now", trip, *args), *words)
    assert versions(home, trip) == before


def test_an_unknown_trip_is_one_line(home) -> None:
    one_line_exit_2(tw(home, "replan-now", "no-such-trip", "--now", "2027-06-16T11:00", "--done-for-today"), "trip")


ROUTE66 = {"mode": "road_trip", "origin": "Los Angeles", "terminus": "Chicago", "route": "Route 66", "days": 7,
           "start_date": "2027-05-03"}


def test_a_late_start_on_a_road_trip_pushes_the_nights_stop(tmp_path) -> None:
    home = tmp_path / "home"
    intent = tmp_path / "route66.json"
    intent.write_text(json.dumps(ROUTE66), encoding="utf-8")
    assert tw(home, "plan", "--intent", str(intent), "--save", "--today", "2026-11-23").returncode == 0
    trip = tw(home, "trips", "list").stdout.split()[0]
    out = tmp_path / "late.json"
    done = tw(home, "replan-now", trip, "--now", "2027-05-04T08:00", "--late", "150", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "Overnight in Holbrook, AZ now at 19:18-19:48" in done.stdout
    day = json.loads(out.read_text(encoding="utf-8"))["days"][1]
    assert [a["window"]["start"] for a in day["activities"]][0] == "11:00:00"  # left 08:30 + 2.5 h
    assert tw(home, "verify", str(out)).returncode == 0
    one_line_exit_2(tw(home, "replan-now", trip, "--now", "2027-05-04T08:00", "--rain-from", "14:00"),
                    "--rain-from", "road trip")
    assert versions(home, trip) == 2
    closed = tmp_path / "closed.json"  # the observatory on the way is closed today: it gives way, the drives join
    done = tw(home, "replan-now", trip, "--now", "2027-05-04T08:00", "--closed", "Lowell", "--out", str(closed))
    assert done.returncode == 0 and "Lowell Observatory dropped (today at" in done.stdout, done.stderr
    day = json.loads(closed.read_text(encoding="utf-8"))["days"][1]["activities"]
    assert "lowell_observatory" not in {a["ref"] for a in day}
    drives = [a["name"] for a in day if a["role"] == "transfer"]
    assert "Drive to Lowell Observatory" not in drives and "Drive to Holbrook" in drives
    verified = tw(home, "verify", str(closed))
    assert verified.returncode == 0 and "0 blocking" in verified.stdout, verified.stdout + verified.stderr
    assert versions(home, trip) == 3
    # no beds in Needles tonight: the night moves on to the next route town within the daily cap
    night = tmp_path / "night.json"
    done = tw(home, "replan-now", trip, "--now", "2027-05-03T07:00", "--closed", "Needles", "--out", str(night))
    assert done.returncode == 0 and "Overnight in Oatman, AZ replaces Overnight in Needles, CA today" in done.stdout, \
        done.stdout + done.stderr
    saved = json.loads(night.read_text(encoding="utf-8"))
    first, second = saved["days"][0], saved["days"][1]
    assert first["anchor"]["name"] == "Oatman, AZ" and second["drive"]["from_name"] == "Oatman, AZ"
    assert first["drive"]["miles"] <= saved["intent"]["max_daily_miles"]
    assert [a["name"] for a in first["activities"] if a["role"] == "checkin"] == ["Overnight in Oatman, AZ"]
    verified = tw(home, "verify", str(night))
    assert verified.returncode == 0 and "0 blocking" in verified.stdout, verified.stdout + verified.stderr
    # the next towns after Holbrook are all past the day's 400 mi: said in one line, nothing saved
    one_line_exit_2(tw(home, "replan-now", trip, "--now", "2027-05-04T08:00", "--closed", "Holbrook"),
                    "--closed", "no town with beds after Holbrook, AZ within the daily 400 mi")
    assert versions(home, trip) == 4
