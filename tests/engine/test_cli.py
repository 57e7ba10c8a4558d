"""The CLI contract (SPEC_DECISIONS §3) through the real ``tripwright`` executable."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXE = Path(sys.executable).with_name("tripwright")
XSD = Path(__file__).resolve().parents[1] / "data" / "reference" / "gpx-1.1.xsd"
TODAY = "2026-11-23"
INTENT = {"city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
          "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK",
          "prefs": {"themes": ["art", "food"]}}


def tw(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.fixture()
def intent_file(tmp_path: Path):
    def write(**changes) -> Path:
        data = json.loads(json.dumps(INTENT)) | changes
        path = tmp_path / "intent.json"
        path.write_text(json.dumps(data))
        return path
    return write


def test_plan_writes_itinerary_gpx_ics_and_events(tmp_path, intent_file) -> None:
    out, gpx, ics, events = (tmp_path / n for n in ("it.json", "it.gpx", "it.ics", "ev.jsonl"))
    done = tw("plan", "--intent", str(intent_file()), "--out", str(out), "--gpx", str(gpx), "--ics", str(ics),
              "--events", str(events), "--today", TODAY)
    assert done.returncode == 0, done.stderr
    itinerary = json.loads(out.read_text())
    assert itinerary["status"] == "ok" and itinerary["schema_version"] == "1.0"
    assert itinerary["cost_breakdown"]["total_usd_cents"] <= INTENT["budget_usd_cents"]
    lines = [json.loads(line) for line in events.read_text().splitlines()]
    assert (lines[0]["node"], lines[0]["status"]) == ("intent_extractor", "started")
    assert (lines[-1]["node"], lines[-1]["status"]) == ("responder", "done")
    assert [e["seq"] for e in lines] == list(range(len(lines)))
    import gpxpy
    import icalendar
    parsed = gpxpy.parse(gpx.read_text())
    assert len(parsed.tracks) == 5 and parsed.waypoints
    calendar = icalendar.Calendar.from_ical(ics.read_bytes())
    assert len(list(calendar.walk("VEVENT"))) >= 15
    from lxml import etree
    etree.XMLSchema(etree.parse(str(XSD))).assertValid(etree.parse(str(gpx)))


def test_verify_passes_a_fresh_plan_and_fails_a_tampered_one(tmp_path, intent_file) -> None:
    out = tmp_path / "it.json"
    assert tw("plan", "--intent", str(intent_file()), "--out", str(out), "--today", TODAY).returncode == 0
    ok = tw("verify", str(out))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "0 blocking" in ok.stdout
    data = json.loads(out.read_text())
    tuesday = next(d for d in data["days"] if d["date"] == "2027-06-15")  # a Tuesday: the Louvre is closed
    visit = next(a for a in data["days"][1]["activities"] if a["role"] == "activity")
    tuesday["activities"].append({**visit, "id": "d0-activity-louvre", "ref": "louvre", "name": "Musée du Louvre",
                                  "window": {"start": "22:00:00", "end": "23:00:00"}})
    out.write_text(json.dumps(data))
    bad = tw("verify", str(out))
    assert bad.returncode == 1
    assert "venue_closed at d0-activity-louvre" in bad.stdout


@pytest.mark.parametrize("changes, field", [
    ({"budget_usd_cents": -5}, "budget_usd_cents"),
    ({"city": "Atlantis"}, "city"),
    ({"date_window": {"start": "2027-06-19", "end": "2027-06-15", "tz": "Europe/Paris"}}, "date_window"),
    ({"date_window": {"start": "2027-06-01", "end": "2027-06-19", "tz": "Europe/Paris"}}, "date_window"),
    ({"airports": ["ZZZ"]}, "airports"),
    ({"origin_airport": "QQQ"}, "origin_airport"),
    ({"prefs": {"themes": [], "locked_slots": [{"day_offset": 9, "activity_id": "louvre",
                                                "window": {"start": "10:00", "end": "12:00"}}]}}, "locked_slots"),
    ({"prefs": {"tier": "palace"}}, "prefs.tier"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, intent_file, changes, field) -> None:
    out = tmp_path / "never.json"
    done = tw("plan", "--intent", str(intent_file(**changes)), "--out", str(out), "--today", TODAY)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert field in done.stderr
    assert not out.exists()


def test_malformed_json_and_missing_file(tmp_path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"city": "Paris",')
    done = tw("plan", "--intent", str(broken))
    assert done.returncode == 2 and "intent: malformed JSON" in done.stderr
    missing = tw("plan", "--intent", str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


def test_impossible_budget_exits_3_with_the_attempts(tmp_path, intent_file) -> None:
    out = tmp_path / "failure.json"
    done = tw("plan", "--intent", str(intent_file(budget_usd_cents=100000)), "--out", str(out), "--today", TODAY)
    assert done.returncode == 3
    assert done.stderr.startswith("tripwright: Unable to meet budget constraint")
    failure = json.loads(out.read_text())
    assert failure["status"] == "error" and failure["itinerary"] is None
    assert 1 <= len(failure["attempts"]) <= 3
    assert all(len(a["moves"]) <= 2 for a in failure["attempts"])


def test_prompt_plans_and_names_what_is_missing() -> None:
    done = tw("plan", "--prompt", "5 days in Rome from 2027-05-10, flying from LHR, budget 3000 EUR, history",
              "--today", TODAY)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Rome: 5 days")
    nohome = tw("plan", "--prompt", "5 days in Rome from 2027-05-10, budget 3000 EUR")
    assert nohome.returncode == 2 and "origin_airport" in nohome.stderr
    markup = tw("plan", "--prompt", "<img src=x onerror=alert(1)> 5 days from 2027-05-10")
    assert markup.returncode == 2 and "city" in markup.stderr


def test_a_prompt_without_budget_or_day_plans_the_default_and_the_first_week_and_says_so(tmp_path) -> None:
    out = tmp_path / "trip.json"
    done = tw("plan", "--prompt", "a week in Paris in May, flying from JFK", "--today", "2026-12-08", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Paris: 7 days") and "of $3,000.00" in done.stdout.splitlines()[0]
    said = done.stderr.splitlines()
    assert said == ["tripwright: no day given in May: planned Mon 3 \u2013 Sun 9 May 2027, the first full week of May; "
                    "write a start date (e.g. 'from 2027-05-10') to choose other days",
                    "tripwright: no budget given: planned with the default budget of $3,000; add e.g. 'budget 2500 USD' "
                    "to change it"]
    intent = json.loads(out.read_text())["intent"]
    assert intent["date_window"]["start"] == "2027-05-03" and intent["date_window"]["end"] == "2027-05-09"
    assert intent["budget_usd_cents"] == 300000


def test_export_from_a_saved_itinerary(tmp_path, intent_file) -> None:
    out = tmp_path / "it.json"
    assert tw("plan", "--intent", str(intent_file()), "--out", str(out), "--today", TODAY).returncode == 0
    done = tw("export", str(out), "--gpx", str(tmp_path / "x.gpx"), "--ics", str(tmp_path / "x.ics"))
    assert done.returncode == 0 and (tmp_path / "x.gpx").stat().st_size > 1000
    nothing = tw("export", str(out))
    assert nothing.returncode == 2


def test_unknown_command_is_exit_2() -> None:
    done = tw("fly")
    assert done.returncode == 2 and done.stderr.startswith("tripwright:")


ROAD = {"mode": "road_trip", "origin": "Los Angeles", "terminus": "Chicago", "days": 7,
        "start_date": "2027-05-03", "route": "Route 66"}


def test_road_trip_plan_report_gpx_and_verify(tmp_path) -> None:
    intent = tmp_path / "road.json"
    intent.write_text(json.dumps(ROAD))
    out, gpx = tmp_path / "road_out.json", tmp_path / "road.gpx"
    done = tw("plan", "--intent", str(intent), "--report", "--out", str(out), "--gpx", str(gpx), "--today", TODAY)
    assert done.returncode == 0, done.stderr
    assert "ROAD_TRIP Validation Report" in done.stdout and "Result: PASS" in done.stdout
    data = json.loads(out.read_text())
    assert data["intent"]["mode"] == "road_trip" and len(data["days"]) == 7
    assert all(d["anchor"]["route_progress_miles"] is not None and d["drive"]["miles"] <= 400 for d in data["days"])
    import gpxpy
    parsed = gpxpy.parse(gpx.read_text())
    assert len(parsed.tracks) == 7 and all(len(t.segments[0].points) > 20 for t in parsed.tracks)
    from lxml import etree
    etree.XMLSchema(etree.parse(str(XSD))).assertValid(etree.parse(str(gpx)))
    assert tw("verify", str(out)).returncode == 0


@pytest.mark.parametrize("changes, field", [
    ({"days": 0}, "days"), ({"days": 31}, "days"), ({"days": 2}, "days"),
    ({"origin": "<img src=x onerror=alert(1)>"}, "origin"),
    ({"route": "Route 67"}, "route"),
    ({"origin": "Seattle"}, "origin"),
    ({"origin": "Xyzzyville Qwerty"}, "origin"),
    ({"terminus": "Los Angeles"}, "terminus"),
])
def test_bad_road_input_is_exit_2(tmp_path, changes, field) -> None:
    intent = tmp_path / "road.json"
    intent.write_text(json.dumps(ROAD | changes))
    done = tw("plan", "--intent", str(intent), "--out", str(tmp_path / "never.json"))
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and field in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "never.json").exists()


def test_road_prompt_is_recognised_and_planned() -> None:
    done = tw("plan", "--prompt", "LA to Chicago via Route 66, 7 days from 2027-05-03", "--today", TODAY)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Los Angeles → Chicago: 7 days")
    assert "→ Chicago, IL" in done.stdout
    unknown = tw("plan", "--prompt", "Atlantis to Chicago via Route 66, 7 days from 2027-05-03")
    assert unknown.returncode == 2 and unknown.stderr.startswith("tripwright: origin:")


# -- logging (engine/log_setup.py): stderr only, levels from -v, JSON, secrets redacted ------------
@pytest.fixture()
def restore_logging():
    import logging

    import structlog
    config, root = structlog.get_config(), logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    structlog.configure(**config)
    root.handlers[:] = handlers
    root.setLevel(level)


def test_secrets_never_reach_the_log(capsys, restore_logging) -> None:
    import logging

    import structlog

    from engine.log_setup import configure
    secrets = ["hunter2-pw", "sk-live-123", "tok-abc", "5f4dcc3b5aa765d6", "nested-s3cret", "std-key-9"]
    for as_json in (False, True):
        configure(2, json=as_json)
        structlog.get_logger("tripwright.test").warning(
            "login_failed", email="me@example.com", password=secrets[0], api_key=secrets[1], access_token=secrets[2],
            password_hash=secrets[3], request={"headers": [{"client_secret": secrets[4]}]}, prompt_tokens=812)
        logging.getLogger("tripwright.stdlib").warning("stdlib record", extra={"apiKey": secrets[5]})
        captured = capsys.readouterr()
        assert captured.out == ""
        assert not [s for s in secrets if s in captured.err], captured.err
        assert captured.err.count("***") >= 6 and "812" in captured.err
        assert "me@example.com" not in captured.err and "***@example.com" in captured.err  # issue 21: no addresses
        if as_json:
            lines = [json.loads(line) for line in captured.err.splitlines()]
            assert lines[0]["password"] == "***" and lines[0]["request"]["headers"][0]["client_secret"] == "***"
            assert lines[1]["apiKey"] == "***" and lines[1]["message"] == "stdlib record"


@pytest.mark.parametrize("verbosity, shown", [(0, {"warning"}), (1, {"warning", "info"}),
                                              (2, {"warning", "info", "debug"}), (5, {"warning", "info", "debug"})])
def test_verbosity_selects_the_level(capsys, restore_logging, verbosity, shown) -> None:
    import structlog

    from engine.log_setup import configure
    configure(verbosity, json=True)
    log = structlog.get_logger("tripwright.test")
    log.debug("d")
    log.info("i")
    log.warning("w")
    err = capsys.readouterr().err
    assert {json.loads(line)["level"] for line in err.splitlines()} == shown


def test_cli_logs_go_to_stderr_and_stdout_stays_clean(tmp_path, intent_file) -> None:
    import os
    env = os.environ | {"TRIPWRIGHT_DATABASE_URL": f"sqlite:///{tmp_path / 'trips.sqlite3'}"}
    quiet = subprocess.run([str(EXE), "plan", "--intent", str(intent_file()), "--save", "--today", TODAY],
                           capture_output=True, text=True, env=env, timeout=120)
    chatty = subprocess.run([str(EXE), "-v", "--log-json", "plan", "--intent", str(intent_file()), "--save",
                             "--today", "2026-11-24", "-v"], capture_output=True, text=True, env=env, timeout=120)
    listed = subprocess.run([str(EXE), "trips", "list", "-vv"], capture_output=True, text=True, env=env, timeout=120)
    assert quiet.returncode == chatty.returncode == listed.returncode == 0, chatty.stderr
    assert quiet.stderr.splitlines() == [next(l for l in quiet.stderr.splitlines() if l.startswith("saved as"))]
    assert chatty.stdout.splitlines()[0] == quiet.stdout.splitlines()[0]  # the same summary, no log lines
    records = [json.loads(line) for line in chatty.stderr.splitlines() if line.startswith("{")]
    assert {"plan_run_started", "plan_run_saved"} <= {r["message"] for r in records}
    assert listed.stdout.splitlines()[-1] == "2 trip(s)" and "level=" in listed.stderr  # key=value by default
    assert "level=" not in listed.stdout and "level" not in chatty.stdout


def test_log_options_work_before_or_after_the_command() -> None:
    from engine.cli import build_parser
    parse = build_parser().parse_args
    assert (parse(["trips", "list"]).verbose, parse(["trips", "list"]).log_json) == (0, False)
    assert parse(["-vv", "trips", "list"]).verbose == 2
    assert parse(["trips", "list", "-v", "--log-json"]).verbose == 1
    assert parse(["--log-json", "bench"]).log_json is True
