"""Hostile input and output paths through the real ``tripwright`` executable (issue 9, part 1):
every file-system, decoding or value failure is exit 2 with one stderr line naming the argument,
no traceback, and nothing written.

Full disks and read-only mounts are real: each such run happens inside a private mount namespace
(``unshare -m``), where a size-capped tmpfs fills up and a read-only bind mount refuses writes even
to root (a 0o555 folder does not stop root, so permission bits would prove nothing here). The
namespace dies with the process, leaving the host's mounts alone. Without root or ``unshare``
those tests skip and say why.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXE = Path(sys.executable).with_name("tripwright")
TODAY = "2026-11-23"
INTENT = {"city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
          "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK",
          "prefs": {"themes": ["art", "food"]}}
ROAD = {"mode": "road_trip", "origin": "Los Angeles", "terminus": "Chicago", "days": 7,
        "start_date": "2027-05-03", "route": "Route 66"}
PROMPT = "5 days in Rome from 2027-05-10, flying from LHR, "


def tw(*args: str, env: dict | None = None, wrap: list[str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*(wrap or []), str(EXE), *args], capture_output=True, text=True, timeout=180,
                          env=env)


def snapshot(root: Path) -> dict[str, str]:
    """Every file under ``root`` (hidden temp files included) with a digest of its content."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(root.rglob("*"))}


def assert_one_clean_line(done: subprocess.CompletedProcess, field: str) -> None:
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"tripwright: {field}: "), done.stderr


@pytest.fixture(scope="module")
def saved_itinerary(tmp_path_factory) -> Path:
    """A real itinerary, planned once for the verify and export cases."""
    folder = tmp_path_factory.mktemp("saved")
    (folder / "intent.json").write_text(json.dumps(INTENT))
    out = folder / "it.json"
    done = tw("plan", "--intent", str(folder / "intent.json"), "--out", str(out), "--today", TODAY)
    assert done.returncode == 0, done.stderr
    return out


# -- the table ------------------------------------------------------------------------------------
def _intent(**changes) -> bytes:
    return json.dumps(INTENT | changes).encode()


def _budget(raw: str) -> bytes:
    """An intent whose budget is written as raw JSON (true, NaN, 1e400 ...)."""
    text = json.dumps(INTENT | {"budget_usd_cents": 0})
    return text.replace('"budget_usd_cents": 0', f'"budget_usd_cents": {raw}').encode()


# Files each case finds in its folder: name → bytes (a "/" suffix makes a folder).
GOOD = {"intent.json": _intent()}
PLAN = ["plan", "--intent", "{dir}/intent.json"]   # a good intent, then the hostile part
BUDGET = ["plan", "--intent", "{dir}/b.json"]   # an intent whose budget is hostile
HOSTILE = [
    # --intent: what it names cannot be read as an intent
    ("intent-is-folder", ["plan", "--intent", "{dir}/sub"], {"sub/": b""}, "--intent"),
    ("intent-not-utf8", ["plan", "--intent", "{dir}/latin1.json"], {"latin1.json": b'{"city": "Par\xeds"}'},
     "--intent"),
    ("intent-utf16", ["plan", "--intent", "{dir}/u16.json"], {"u16.json": json.dumps(INTENT).encode("utf-16")},
     "--intent"),
    ("intent-nested-arrays", ["plan", "--intent", "{dir}/deep.json"], {"deep.json": b"[" * 100_000}, "--intent"),
    ("intent-nested-objects", ["plan", "--intent", "{dir}/deep.json"], {"deep.json": b'{"a":' * 100_000}, "--intent"),
    ("intent-missing", ["plan", "--intent", "{dir}/nope.json"], {}, "--intent"),
    ("intent-empty-path", ["plan", "--intent", ""], {}, "--intent"),
    ("intent-empty-file", ["plan", "--intent", "{dir}/empty.json"], {"empty.json": b""}, "--intent"),
    ("intent-huge-integer", ["plan", "--intent", "{dir}/big.json"], {"big.json": b'{"days": ' + b"9" * 5000 + b"}"},
     "--intent"),
    ("intent-top-level-array", ["plan", "--intent", "{dir}/arr.json"], {"arr.json": b"[1, 2]"}, "--intent"),
    ("intent-dev-null", ["plan", "--intent", "/dev/null"], {}, "--intent"),
    # budgets that are no amount of money
    ("budget-boolean", BUDGET, {"b.json": _budget("true")}, "budget_usd_cents"),
    ("budget-infinite", BUDGET, {"b.json": _budget("1e400")}, "budget_usd_cents"),
    ("budget-nan", BUDGET, {"b.json": _budget("NaN")}, "budget_usd_cents"),
    ("budget-minus-infinity", BUDGET, {"b.json": _budget("-Infinity")}, "budget_usd_cents"),
    ("budget-over-ten-million", BUDGET, {"b.json": _budget("1000000001")}, "budget_usd_cents"),
    ("budget-as-string", BUDGET, {"b.json": _budget('"400000"')}, "budget_usd_cents"),
    ("budget-fraction", BUDGET, {"b.json": _budget("400000.5")}, "budget_usd_cents"),
    ("budget-null", BUDGET, {"b.json": _budget("null")}, "budget_usd_cents"),
    ("prompt-budget-exponent", ["plan", "--prompt", PROMPT + "budget 1e30 USD"], {}, "budget"),
    ("prompt-budget-symbol-exponent", ["plan", "--prompt", PROMPT + "budget $2E5"], {}, "budget"),
    ("prompt-budget-btc", ["plan", "--prompt", PROMPT + "budget 500 BTC"], {}, "budget"),
    ("prompt-budget-bitcoin", ["plan", "--prompt", PROMPT + "budget 500 bitcoin"], {}, "budget"),
    ("prompt-budget-no-fx-rate", ["plan", "--prompt", PROMPT + "budget 500 THB"], {}, "budget"),
    ("prompt-budget-absurd", ["plan", "--prompt", PROMPT + "budget 99999999999999999999 USD"], {}, "budget"),
    # trips that start before --today
    ("intent-in-the-past", PLAN + ["--today", "2027-07-01"], GOOD, "start"),
    ("road-in-the-past", ["plan", "--intent", "{dir}/road.json", "--today", "2027-05-04"],
     {"road.json": json.dumps(ROAD).encode()}, "start"),
    ("prompt-in-the-past", ["plan", "--prompt", "5 days in Rome from 2020-05-10, flying from LHR, budget 3000 USD"],
     {}, "start"),
    ("today-not-a-date", PLAN + ["--today", "2026-13-40"], GOOD, "today"),
    # plan's outputs
    ("out-missing-folder", PLAN + ["--out", "{dir}/nowhere/it.json"], GOOD, "--out"),
    ("out-onto-folder", PLAN + ["--out", "{dir}/sub"], GOOD | {"sub/": b""}, "--out"),
    ("out-empty", PLAN + ["--out", ""], GOOD, "--out"),
    ("out-is-intent", PLAN + ["--out", "{dir}/intent.json"], GOOD, "--out"),
    ("out-is-intent-by-another-name", PLAN + ["--out", "{dir}/./sub/../intent.json"],
     GOOD | {"sub/": b""}, "--out"),
    ("out-under-a-file", PLAN + ["--out", "{dir}/intent.json/it.json"], GOOD, "--out"),
    ("out-device", PLAN + ["--out", "/dev/null"], GOOD, "--out"),
    ("out-newline-in-name", PLAN + ["--out", "{dir}/no\nwhere/it.json"], GOOD, "--out"),
    ("gpx-missing-folder", PLAN + ["--gpx", "{dir}/nowhere/it.gpx"], GOOD, "--gpx"),
    ("gpx-same-as-out", PLAN + ["--out", "{dir}/a", "--gpx", "{dir}/a"], GOOD, "--gpx"),
    ("ics-onto-folder", PLAN + ["--ics", "{dir}/sub"], GOOD | {"sub/": b""}, "--ics"),
    ("ics-empty", PLAN + ["--ics", " "], GOOD, "--ics"),
    ("events-missing-folder", PLAN + ["--events", "{dir}/nowhere/ev.jsonl"], GOOD,
     "--events"),
    ("events-is-intent", PLAN + ["--events", "{dir}/intent.json"], GOOD, "--events"),
    ("prompt-out-onto-folder", ["plan", "--prompt", PROMPT + "budget 3000 EUR", "--out", "{dir}/sub"],
     {"sub/": b""}, "--out"),
    # verify and export read the itinerary the same way
    ("verify-folder", ["verify", "{dir}/sub"], {"sub/": b""}, "itinerary"),
    ("verify-not-utf8", ["verify", "{dir}/it.json"], {"it.json": b"\xff\xfe{\x00"}, "itinerary"),
    ("verify-nested", ["verify", "{dir}/it.json"], {"it.json": b"[" * 100_000}, "itinerary"),
    ("verify-missing", ["verify", "{dir}/nope.json"], {}, "itinerary"),
    ("verify-empty-path", ["verify", ""], {}, "itinerary"),
    ("export-itinerary-folder", ["export", "{dir}/sub", "--gpx", "{dir}/x.gpx"], {"sub/": b""}, "itinerary"),
    ("export-itinerary-nested", ["export", "{dir}/it.json", "--ics", "{dir}/x.ics"], {"it.json": b"{\"a\":" * 50_000},
     "itinerary"),
    ("export-html-missing-folder", ["export", "{saved}", "--html", "{dir}/nowhere/map.html"], {}, "--html"),
    ("export-html-onto-folder", ["export", "{saved}", "--html", "{dir}/sub"], {"sub/": b""}, "--html"),
    ("export-json-is-itinerary", ["export", "{saved}", "--json", "{saved}"], {}, "--json"),
    ("export-gpx-empty", ["export", "{saved}", "--gpx", ""], {}, "--gpx"),
    ("export-ics-device", ["export", "{saved}", "--ics", "/dev/null"], {}, "--ics"),
    ("export-ics-same-as-gpx", ["export", "{saved}", "--gpx", "{dir}/x", "--ics", "{dir}/x"], {}, "--ics"),
]


def test_the_table_is_large_and_its_ids_unique() -> None:
    assert len(HOSTILE) >= 40 and len({case[0] for case in HOSTILE}) == len(HOSTILE)


@pytest.mark.parametrize("argv, files, field", [case[1:] for case in HOSTILE], ids=[case[0] for case in HOSTILE])
def test_hostile_input_is_one_line_exit_2_and_writes_nothing(tmp_path, saved_itinerary, argv, files, field) -> None:
    folder = tmp_path / "case"
    folder.mkdir()
    for name, content in files.items():
        if name.endswith("/"):
            (folder / name).mkdir()
        else:
            (folder / name).write_bytes(content)
    before, saved_before = snapshot(tmp_path), snapshot(saved_itinerary.parent)
    done = tw(*(a.format(dir=folder, saved=saved_itinerary) for a in argv))
    assert done.returncode == 2, done.stderr
    assert_one_clean_line(done, field)
    assert done.stdout == ""
    assert snapshot(tmp_path) == before
    assert snapshot(saved_itinerary.parent) == saved_before


# -- real full disks and read-only mounts, in a private mount namespace ----------------------------
def _namespace_problem() -> str | None:
    if shutil.which("unshare") is None:
        return "unshare is not installed"
    if os.name != "posix" or os.geteuid() != 0:
        return "mounting a tmpfs needs root"
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=4k tmpfs /mnt"],
                           capture_output=True, text=True)
    return None if probe.returncode == 0 else f"no private mount namespace here: {probe.stderr.strip()}"


NAMESPACE_PROBLEM = _namespace_problem()
needs_namespace = pytest.mark.skipif(NAMESPACE_PROBLEM is not None, reason=str(NAMESPACE_PROBLEM))


def in_namespace(script: str, *args: str) -> list[str]:
    """A command prefix: ``script`` runs as root in a fresh mount namespace, then execs the rest."""
    return ["unshare", "-m", "sh", "-c", f"{script} && exec \"$@\"", "sh", *args]


@needs_namespace
def test_full_disk_during_the_write_leaves_every_file_as_it_was(tmp_path, saved_itinerary) -> None:
    """--ics lands on an 8 KiB tmpfs (the calendar is ~11 KB): the planning runs, the writer stages
    --out and --gpx fine, then --ics hits ENOSPC, and the whole set is taken back."""
    ok, full = tmp_path / "ok", tmp_path / "full"
    ok.mkdir()
    full.mkdir()
    (tmp_path / "intent.json").write_text(json.dumps(INTENT))
    (ok / "it.json").write_text("old itinerary")
    listing = tmp_path / "full-listing.txt"
    before = snapshot(ok)
    # The tmpfs vanishes with the namespace, so its listing is taken inside, after the run.
    script = (f'mount -t tmpfs -o size=8k tmpfs "{full}" && "$@"; rc=$?; '
              f'ls -A "{full}" > "{listing}"; df -k "{full}" >> "{listing}"; exit $rc')
    done = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", str(EXE), "plan",
                           "--intent", str(tmp_path / "intent.json"), "--today", TODAY,
                           "--out", str(ok / "it.json"), "--gpx", str(ok / "it.gpx"),
                           "--ics", str(full / "it.ics"), "--events", str(ok / "ev.jsonl")],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 2, done.stderr
    assert_one_clean_line(done, "--ics")
    assert "No space left on device" in done.stderr and "nothing was written" in done.stderr
    assert snapshot(ok) == before  # the old --out kept, no --gpx or --events, no temp file
    assert listing.read_text().splitlines()[0].startswith("Filesystem")  # nothing in the tmpfs


@needs_namespace
def test_a_disk_already_full_is_refused_before_planning(tmp_path) -> None:
    full = tmp_path / "full"
    full.mkdir()
    (tmp_path / "intent.json").write_text(json.dumps(INTENT))
    fill = f'mount -t tmpfs -o size=16k tmpfs "{full}" && {{ dd if=/dev/zero of="{full}/fill" bs=4k 2>/dev/null; true; }}'
    done = tw("plan", "--intent", str(tmp_path / "intent.json"), "--today", TODAY, "--events", str(full / "ev.jsonl"),
              wrap=in_namespace(fill))
    assert done.returncode == 2, done.stderr
    assert_one_clean_line(done, "--events")
    assert f"cannot write in {full}: No space left on device" in done.stderr  # the check, not the writer


@needs_namespace
def test_a_read_only_mount_is_refused_before_planning(tmp_path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    (folder / "it.json").write_text("old itinerary")
    (tmp_path / "intent.json").write_text(json.dumps(INTENT))
    before = snapshot(folder)
    read_only = f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}"'
    for arg, name in (("--out", "it.json"), ("--gpx", "new.gpx"), ("--events", "ev.jsonl")):
        done = tw("plan", "--intent", str(tmp_path / "intent.json"), "--today", TODAY, arg, str(folder / name),
                  wrap=in_namespace(read_only))
        assert done.returncode == 2, done.stderr
        assert_one_clean_line(done, arg)
        assert "Read-only file system" in done.stderr
    assert snapshot(folder) == before


@needs_namespace
def test_export_onto_a_read_only_mount(tmp_path, saved_itinerary) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    read_only = f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}"'
    done = tw("export", str(saved_itinerary), "--gpx", str(tmp_path / "ok.gpx"), "--html", str(folder / "map.html"),
              wrap=in_namespace(read_only))
    assert done.returncode == 2, done.stderr
    assert_one_clean_line(done, "--html")
    assert list(tmp_path.iterdir()) == [folder] and list(folder.iterdir()) == []


@needs_namespace
def test_road_trip_with_a_read_only_data_dir_and_no_index(tmp_path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "road.json").write_text(json.dumps(ROAD))
    read_only = f'mount --bind "{home}" "{home}" && mount -o remount,bind,ro "{home}"'
    env = os.environ | {"TRIPWRIGHT_HOME": str(home)}
    done = tw("plan", "--intent", str(tmp_path / "road.json"), "--today", TODAY, "--out", str(tmp_path / "out.json"),
              env=env, wrap=in_namespace(read_only))
    assert done.returncode == 2, done.stderr
    assert_one_clean_line(done, "data_dir")
    assert "Read-only file system" in done.stderr and "TRIPWRIGHT_HOME" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "road.json"] and not list(home.iterdir())


# -- a reader that stops reading ------------------------------------------------------------------
def _with_closed_stdout(*args: str) -> subprocess.CompletedProcess:
    """Run with stdout a pipe whose reader is already gone: every write to it fails with EPIPE."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([str(EXE), *args], stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=180)
    finally:
        os.close(write_end)


def test_broken_pipe_exits_quietly_and_still_writes_the_files(tmp_path) -> None:
    (tmp_path / "intent.json").write_text(json.dumps(INTENT))
    out = tmp_path / "it.json"
    done = _with_closed_stdout("plan", "--intent", str(tmp_path / "intent.json"), "--today", TODAY,
                               "--gpx", str(tmp_path / "it.gpx"))
    assert (done.returncode, done.stderr) == (0, "")
    assert (tmp_path / "it.gpx").stat().st_size > 1000 and not out.exists()


def test_broken_pipe_keeps_verify_s_own_exit_code(tmp_path, saved_itinerary) -> None:
    ok = _with_closed_stdout("verify", str(saved_itinerary))
    assert (ok.returncode, ok.stderr) == (0, "")
    data = json.loads(saved_itinerary.read_text())
    tuesday = next(d for d in data["days"] if d["date"] == "2027-06-15")  # the Louvre is closed on Tuesdays
    visit = next(a for a in data["days"][1]["activities"] if a["role"] == "activity")
    tuesday["activities"].append({**visit, "id": "d0-activity-louvre", "ref": "louvre", "name": "Musée du Louvre",
                                  "window": {"start": "22:00:00", "end": "23:00:00"}})
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data))
    bad = _with_closed_stdout("verify", str(tampered))
    assert (bad.returncode, bad.stderr) == (1, "")


def test_plan_piped_into_head_prints_one_line() -> None:
    shell = subprocess.run(f'"{EXE}" plan --prompt "{PROMPT}budget 3000 EUR" --today {TODAY} | head -1; '
                           'echo "status=${PIPESTATUS[0]}"', shell=True, executable="/bin/bash",
                           capture_output=True, text=True, timeout=180)
    assert shell.stdout.splitlines()[0].startswith("Rome: 5 days")
    assert shell.stdout.splitlines()[-1] == "status=0" and shell.stderr == ""


def test_eval_reports_unreadable_scenario_files_and_never_crashes(tmp_path) -> None:
    """A scenario file that is not UTF-8 or nests absurdly is an invalid scenario, named, not a traceback."""
    (tmp_path / "binary.yaml").write_bytes(b"scenario_id: x\n\xff\xfe bad\n")
    (tmp_path / "deep.yaml").write_text("[" * 100_000)
    done = tw("eval", str(tmp_path / "binary.yaml"), str(tmp_path / "deep.yaml"))
    assert done.returncode == 1 and "Traceback" not in done.stderr + done.stdout
    assert "binary.yaml: not UTF-8 text (bad byte at offset 15)" in done.stdout
    assert "deep.yaml: nests too deeply to be a scenario" in done.stdout
