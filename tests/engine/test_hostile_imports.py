"""Hostile imports (issue 25 §2): notes, chat exports and their PII pass — bounded, linear, refused
in one line — through the real readers and the real ``tripwright`` executable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.notes.pii import EMAIL_MARK, PHONE_MARK, strip_pii

EXE = Path(sys.executable).with_name("tripwright")


# -- the PII pass -------------------------------------------------------------------------------
@pytest.mark.parametrize("written", [
    "john @ example.com", "john at example dot com", "john[at]example[dot]com", "john＠example.com",
    "john{at}example.com", "john (at) example (dot) com", "JOHN@EXAMPLE.COM", "j.doe+trip@mail.example.co.uk",
])
def test_obfuscated_email_addresses_are_removed(written) -> None:
    clean = strip_pii(f"Write to {written} before Friday.").text
    assert clean == f"Write to {EMAIL_MARK} before Friday.", clean


@pytest.mark.parametrize(("written", "region"), [
    ("1-800-FLOWERS", "US"), ("1-800-356-9377", "US"), ("(212) 736-3100", "US"), ("+1 212-736-3100", "FR"),
    ("+33 6 12 34 56 78", "US"), ("06.12.34.56.78", "FR"), ("0033 6 12 34 56 78", "FR"), ("03-3822-1111", "JP"),
    ("+44 20 7946 0958", "US"), ("020 7946 0958", "GB"), ("+49 30 901820", "US"), ("+39 06 6988 4676", "IT"),
])
def test_phone_numbers_in_real_world_formats_are_removed(written, region) -> None:
    clean = strip_pii(f"Call {written} to book.", region=region).text
    assert clean == f"Call {PHONE_MARK} to book.", clean


@pytest.mark.parametrize("kept", [
    "2027-06-15 09:00", "2027-06-15T09:00", "15/06/2027 14:30", "15.06.2027", "06/15/2027 at 9.30",
    "open 09:00-18:00", "from 9h30 to 18h", "order #2125551234", "booking ref 4155552671", "tickets 17.50 EUR",
    "Ticket no. 3128675309", "ISBN 978-2-07-036822-8", "meet at the museum. Then lunch", "open at 9.30 daily",
    "1 2 3 4 5 6 7 8 9 10 11 12",
])
def test_dates_times_prices_and_references_survive(kept) -> None:
    assert strip_pii(f"Note: {kept}.", region="US").text == f"Note: {kept}.", kept


PII_IN_A_CHILD = """
import sys
from engine.notes.pii import strip_pii
text = {text}
out = strip_pii(text)
print(len(out.text))
"""


@pytest.mark.parametrize("text", ['"a" * 5_000_000', '"a." * 2_500_000', '("x" * 64 + "@") * 77_000',
                                  '"a@" * 2_500_000', '"1 " * 2_500_000', '"(at) " * 1_000_000',
                                  '"+1 212-736-3100 " * 300_000', '"9" * 5_000_000'])
def test_the_pii_pass_finishes_on_5_mb_of_hostile_text(text) -> None:
    """Before: a 16,000-character word took 21 s and 64 KB never finished (backtracking)."""
    done = subprocess.run([sys.executable, "-c", PII_IN_A_CHILD.format(text=text)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-300:]
    assert int(done.stdout) > 0
