"""The zone book (engine/geocode/zones.py): a road plan's zones are remembered in the data dir
and read back for the very same points only; a broken file is ignored and rewritten."""

from __future__ import annotations

import json

from engine.geocode.zones import ZONES_FILE, ZoneBook

POINTS = [(35.1983, -111.6513), (41.8781, -87.6298), (34.0522, -118.2437), (48.8566, 2.3522)]


def test_zones_are_remembered_and_read_back_unchanged(tmp_path) -> None:
    first = ZoneBook(tmp_path / ZONES_FILE)
    zones = [first.zone_at(*p) for p in POINTS]
    assert zones == ["America/Phoenix", "America/Chicago", "America/Los_Angeles", "Europe/Paris"]
    first.save()
    saved = json.loads((tmp_path / ZONES_FILE).read_text())
    assert saved["35.1983,-111.6513"] == "America/Phoenix" and len(saved) == 4
    again = ZoneBook(tmp_path / ZONES_FILE)
    assert [again.zone_at(*p) for p in POINTS] == zones


def test_only_the_very_same_point_is_read_from_the_file(tmp_path) -> None:
    (tmp_path / ZONES_FILE).write_text(json.dumps({"35.1983,-111.6513": "Europe/Paris"}))
    book = ZoneBook(tmp_path / ZONES_FILE)
    assert book.zone_at(35.1983, -111.6513) == "Europe/Paris"  # the file is trusted for its own key
    assert book.zone_at(35.19831, -111.6513) == "America/Phoenix"  # a neighbour is looked up


def test_a_broken_file_is_ignored_and_rewritten(tmp_path) -> None:
    path = tmp_path / ZONES_FILE
    for junk in ("{not json", "[1, 2]", json.dumps({"1,2": 3})):
        path.write_text(junk)
        book = ZoneBook(path)
        assert book.zone_at(*POINTS[1]) == "America/Chicago"
        book.save()
        assert json.loads(path.read_text()) == {"41.8781,-87.6298": "America/Chicago"}


def test_an_unwritable_data_dir_still_gives_zones(tmp_path) -> None:
    book = ZoneBook(tmp_path / "missing-dir" / ZONES_FILE)
    assert book.zone_at(*POINTS[0]) == "America/Phoenix"
    book.save()  # the write fails (no such folder); the plan does not
    assert not (tmp_path / "missing-dir").exists()


def test_a_replanned_road_trip_reads_its_zones_back_and_keeps_its_clocks(tmp_path) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    exe = Path(sys.executable).with_name("tripwright")
    env = {**os.environ, "TRIPWRIGHT_HOME": str(tmp_path / "home"), "TRIPWRIGHT_OFFLINE": "1"}
    days = []
    for n in (1, 2):
        out = tmp_path / f"plan{n}.json"
        done = subprocess.run([str(exe), "plan", "--prompt", "Route 66, 12 days from 2027-05-03", "--out", str(out),
                               "--today", "2027-04-01"], capture_output=True, text=True, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        days.append([(d["tz"], [(a["start_tz"], a["end_tz"]) for a in d["activities"]])
                     for d in json.loads(out.read_text())["days"]])
    zones = json.loads((tmp_path / "home" / ZONES_FILE).read_text())
    assert {"America/Chicago", "America/Denver", "America/Phoenix", "America/Los_Angeles"} <= set(zones.values())
    assert days[0] == days[1] and len(days[0]) == 12
