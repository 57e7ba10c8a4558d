"""Issue 30 §3, one front door: the same prompt gives the same intent and the same error through
the app's path (the intent form reads the prompt, Plan sends ``current_intent``) and the CLI's
(``tripwright plan --prompt``, run here as the real command in this process). Offline: no test
reaches the internet, and a city without a cached pack stops at the run's city_pack node in both."""

from __future__ import annotations

import asyncio
import json
from datetime import date
from decimal import Decimal

import pytest

from engine.catalog import default_catalog
from engine.cli import main as cli_main
from engine.errors import InputError
from engine.frontend import PENDING_AIRPORT, PENDING_TZ, intent_from_prompt
from engine.models import IntentV1
from engine.pipeline import PlanningSession
from engine.roadtrip.routes import load_routes
from engine.tools.requests import FXRequest
from widgets.intent_form import IntentForm

TODAY = date(2026, 11, 23)
HOME = "JFK"

SAME_INTENT = [
    "5 days in Paris from 2027-06-15, flying from JFK, budget 4000 USD, art and food, for 1 traveller",
    "4 days in Rome from 2027-05-10, budget 3000 EUR, with kids, family of 4",
    "5 days in Tokyo from 2027-04-02, flying from SFO, budget 5000 USD, 2 people, no red-eye",
    "4 days in Paris, Texas from 2027-05-10, budget 3000 USD, 2 travellers",  # not the fixture Paris
    "4 days in Rome, Italy from 2027-05-10, budget 3000 USD, 2 travellers",  # the fixture Rome
    "4 days in Lisbon from 2027-05-10, budget 3000 USD, 2 travellers",  # no fixture: its pack in the run
    "LA to Chicago via Route 66, 7 days from 2027-05-03, 2 travellers",
    "5 days in Paris from 2027-06-15",  # no budget: the form's default (issue 32 §6)
    "a week in Paris in May, flying from JFK",  # a month, no day: its first full week
    "LA to Chicago via Route 66, 7 days in May",
]
SAME_ERROR = [
    "",
    "Paris in May, budget 4000 USD",  # a month without a length
    "60 days in Paris from 2027-06-15, budget 4000 USD",  # too long
    "5 days in Paris from 2027-06-15, flying from ZZZ, budget 4000 USD",  # no such airport
    "5 days in Paris from 2025-06-15 to 2025-06-01, budget 4000 USD",  # dates the wrong way round
]


@pytest.fixture(scope="module")
def session():
    return PlanningSession(default_catalog(), today=TODAY)


@pytest.fixture
def form(qtbot, session):
    def convert(amount: Decimal, currency: str) -> int:  # as the window converts (app/main_window.py)
        rate = session.toolbox.rate_now(FXRequest(from_currency=currency, as_of=session.today)).rate
        return int(amount * 100 * Decimal(str(rate)))
    widget = IntentForm(default_catalog(), load_routes(), home_airport=HOME, fx_to_usd=convert, today=TODAY)
    qtbot.addWidget(widget)
    return widget


@pytest.fixture
def cli(tmp_path, monkeypatch, capsys):
    """``tripwright ARGS`` in this process, offline, in a fresh data dir: (exit code, stderr)."""
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TRIPWRIGHT_OFFLINE", "1")

    def run(*args: str) -> tuple[int, str]:
        capsys.readouterr()
        code = cli_main(list(args))
        return code, capsys.readouterr().err
    return run


def app_intent(form, text: str):
    form.prompt_edit.setPlainText(text)
    assert form.read_prompt(), form.field_errors()
    return form.current_intent()


@pytest.mark.parametrize("text", SAME_INTENT)
def test_a_prompt_makes_the_same_intent_in_the_app_and_the_cli(form, session, text) -> None:
    assert app_intent(form, text) == intent_from_prompt(text, session, HOME)


@pytest.mark.parametrize("text", SAME_INTENT[-3:])
def test_what_a_prompt_leaves_out_is_said_alike_in_the_app_and_the_cli(form, session, text) -> None:
    heard: list[str] = []
    intent_from_prompt(text, session, HOME, say=heard.append)
    app_intent(form, text)
    assert heard and form.prompt_note.text().splitlines() == [line[0].upper() + line[1:] for line in heard]


def test_a_city_named_elsewhere_or_unknown_waits_for_the_run_in_both(form, session) -> None:
    texas = app_intent(form, SAME_INTENT[3])
    assert (texas.city, texas.airports, texas.date_window.tz) == ("Paris, Texas", [PENDING_AIRPORT], PENDING_TZ)
    rome = app_intent(form, SAME_INTENT[4])
    assert rome.city == "Rome" and PENDING_AIRPORT not in rome.airports


def test_the_cli_plans_the_intent_the_form_sends(form, cli, tmp_path) -> None:
    """End to end: the itinerary ``plan --prompt`` writes carries the intent the form makes."""
    text = SAME_INTENT[0]
    out = tmp_path / "paris.json"
    code, err = cli("plan", "--prompt", text, "--from", HOME, "--today", TODAY.isoformat(), "--out", str(out))
    assert code == 0, err
    planned = IntentV1.model_validate(json.loads(out.read_text())["intent"])
    assert planned == app_intent(form, text)


@pytest.mark.parametrize("text", SAME_ERROR)
def test_a_bad_prompt_is_the_same_error_in_the_app_and_the_cli(form, cli, text) -> None:
    code, err = cli("plan", "--prompt", text, "--from", HOME, "--today", TODAY.isoformat())
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    field, message = err.removeprefix("tripwright: ").rstrip("\n").split(": ", 1)
    form.prompt_edit.setPlainText(text)
    assert not form.read_prompt()
    # the same message, the part of the trip it is about in the form's words, never the engine's
    # field name ("(date_window)", issue 32 §5)
    said = {"prompt": "", "budget": "Budget \u2014 ", "date_window": "Dates \u2014 ",
            "origin_airport": "Home airport \u2014 "}[field]
    assert form.field_errors() == {"prompt": f"Prompt: {said}{message}"}


def test_a_city_with_no_pack_offline_is_the_same_error_from_the_run(form, session, cli, monkeypatch) -> None:
    """"Paris, Texas" offline: the CLI's one line is the city_pack node's error, which the app's
    run of the form's intent raises too (the app words it for a window: app/trip_controller.py)."""
    text = SAME_INTENT[3]
    code, err = cli("plan", "--prompt", text, "--from", HOME, "--today", TODAY.isoformat())
    assert code == 2 and "Paris, TX, US needs one online fetch" in err, err
    intent = app_intent(form, text)
    with pytest.raises(InputError) as raised:
        asyncio.run(PlanningSession(default_catalog(), today=TODAY).plan(intent))
    assert err == f"tripwright: {raised.value.field}: {raised.value.message}\n"
