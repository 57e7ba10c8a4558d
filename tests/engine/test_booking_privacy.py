"""The traveller's details stay where they belong (issue 21): "names, e-mail addresses, phone numbers
and full confirmation codes are not written to logs, diagnostics bundles or exports other than the
itinerary itself". A plan with bookings keeps its codes in the itinerary JSON and the calendar (the
traveller's own), and nowhere else: not the log file, the diagnostics bundle, GPX, KML or HTML."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import structlog

from engine.export import itinerary_to_gpx, itinerary_to_html, itinerary_to_kml
from engine.log_setup import configure, redact_text
from tests.engine.test_ics_bookings import booked_itinerary

EXE = Path(sys.executable).with_name("tripwright")
ROOT = Path(__file__).resolve().parents[2]
AF_MAIL = ROOT / "tests" / "data" / "bookings" / "af_jfk_cdg.eml"
TODAY = "2026-11-23"
FLIGHT_CODE, HOTEL_CODE = "QX7K2M", "HJ-88213"
# what the e-mail says of the passenger (tests/data/bookings/af_jfk_cdg.eml): none of it is kept
PERSONAL = ("Camille Ostrander", "camille.ostrander@mail.example", "555 0163", "0572409876543")
HOTEL = {"name": "Hôtel Jeanne d'Arc Le Marais", "address": "3 Rue de Jarente, 75004 Paris",
         "geo": {"lat": 48.85604, "lon": 2.36289}, "checkin": "2027-06-15", "checkout": "2027-06-19",
         "confirmation": HOTEL_CODE, "price_usd_cents": 98000, "paid": True, "source": "email"}


def tw(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TRIPWRIGHT_DATABASE_URL"} | {"TRIPWRIGHT_HOME": str(home)}
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, env=env, timeout=120)


def test_a_booked_plan_writes_its_codes_only_to_the_itinerary_and_the_calendar(tmp_path) -> None:
    home, out = tmp_path / "home", tmp_path / "out"
    out.mkdir()
    intent = tmp_path / "intent.json"
    intent.write_text(json.dumps(json.loads((ROOT / "docs" / "examples" / "paris.json").read_text())
                                 | {"bookings": {"hotel": HOTEL}}))
    it = out / "it.json"
    planned = tw(home, "plan", "--intent", str(intent), "--bookings", str(AF_MAIL), "--save", "--today", TODAY,
                 "-vv", "--out", str(it), "--gpx", str(out / "it.gpx"), "--ics", str(out / "it.ics"))
    assert planned.returncode == 0, planned.stderr
    exported = tw(home, "export", str(it), "--kml", str(out / "it.kml"), "--html", str(out / "it.html"),
                  "--gpx", str(out / "again.gpx"), "--gpx-per-day", "-v")
    bundled = tw(home, "diagnostics", "--bundle", str(out / "diag.zip"), "-v")
    listed = tw(home, "bookings", "list", "--trip", tw(home, "trips", "list").stdout.split()[0], "-v")
    assert exported.returncode == bundled.returncode == listed.returncode == 0, exported.stderr + bundled.stderr

    itinerary, calendar = it.read_text(encoding="utf-8"), (out / "it.ics").read_text(encoding="utf-8")
    assert FLIGHT_CODE in itinerary and HOTEL_CODE in itinerary  # the itinerary itself keeps them
    assert f"Confirmation {FLIGHT_CODE}" in calendar and f"Confirmation {HOTEL_CODE}" in calendar
    logs = sorted((home / "logs").glob("*.log*"))
    assert logs and "bookings_read" in logs[0].read_text(encoding="utf-8")  # the read was logged, masked
    with zipfile.ZipFile(out / "diag.zip") as zf:
        bundle = {f"diag.zip:{n}": zf.read(n).decode("utf-8") for n in zf.namelist()}
    assert any(name.startswith("diag.zip:logs/") for name in bundle)
    files = [*logs, *out.glob("*.gpx"), out / "it.kml", out / "it.html"]
    shared = {p.name: p.read_text(encoding="utf-8") for p in files}
    shared |= bundle | {"stderr": planned.stderr + exported.stderr + bundled.stderr + listed.stderr,
                        "list": listed.stdout}
    assert len([n for n in shared if n.endswith(".gpx")]) >= 3  # the whole trip, again, and its days
    for name, text in shared.items():
        assert FLIGHT_CODE not in text and HOTEL_CODE not in text, name
    assert "QX••••" in shared["it.gpx"] and "QX••••" in shared["it.kml"]  # the masked form tells them apart
    for name, text in {**shared, "it.json": itinerary, "it.ics": calendar}.items():
        assert not any(p in text for p in PERSONAL), name


def test_gpx_kml_and_html_mask_every_code_the_itinerary_says():
    itin = booked_itinerary()
    codes = [FLIGHT_CODE, HOTEL_CODE, FLIGHT_CODE, HOTEL_CODE, FLIGHT_CODE]
    days = [d.model_copy(update={"activities": [a.model_copy(update={"notes": f"{a.notes}; confirmation {c}"})
                                                for a in d.activities]}) for d, c in zip(itin.days, codes)]
    itin = itin.model_copy(update={"days": days})
    for text in (itinerary_to_gpx(itin), itinerary_to_kml(itin), itinerary_to_html(itin)):
        assert FLIGHT_CODE not in text and HOTEL_CODE not in text
    assert "HJ••••••" in itinerary_to_kml(itin)
    assert json.loads(itin.model_dump_json())["intent"]["bookings"]["hotel"]["confirmation"] == HOTEL_CODE  # untouched


@pytest.fixture()
def log_file(tmp_path):
    configure(0, stream=io.StringIO(), log_dir=tmp_path / "logs")
    yield tmp_path / "logs" / "tripwright.log"
    configure(0)  # back to stderr only (closes the file)


def test_a_confirmation_key_or_a_code_in_text_is_masked_in_the_log(log_file) -> None:
    log = structlog.get_logger("tripwright.test")
    log.info("booked", confirmation=FLIGHT_CODE, confirmations=[FLIGHT_CODE, None],
             booking={"confirmation_code": HOTEL_CODE, "reservationNumber": "ZK3P8Q"},
             note=f"your booking: AF 23, confirmation {FLIGHT_CODE}", to="camille.ostrander@mail.example")
    logging.getLogger("tripwright.stdlib").warning("Booking reference: %s for %s", HOTEL_CODE, "c.o@mail.example")
    try:
        raise ValueError(f"no such booking: confirmation {FLIGHT_CODE}")
    except ValueError:
        log.exception("booking_failed")  # the traceback is redacted as text too
    text = log_file.read_text(encoding="utf-8")
    for secret in (FLIGHT_CODE, HOTEL_CODE, "ZK3P8Q", "camille.ostrander", "c.o@"):
        assert secret not in text
    line = json.loads(text.splitlines()[0])
    assert line["confirmation"] == "QX••••" and line["booking"] == {"confirmation_code": "HJ••••••",
                                                                     "reservationNumber": "ZK••••"}
    assert line["note"] == "your booking: AF 23, confirmation QX••••" and line["to"] == "***@mail.example"
    assert line["confirmations"] == ["QX••••", None]


def test_redact_text_masks_codes_after_their_words_only():
    said = redact_text("Confirmation QX7K2M; booking reference: 4F7K2Q")
    assert said == "Confirmation QX••••; booking reference: 4F••••"
    assert redact_text('"confirmation": "HJ-88213"') == '"confirmation": "HJ••••••"'
    said = "confirmation codes are masked; 2 flights: AF 23 JFK→CDG [QX••••]"
    assert redact_text(said) == said
