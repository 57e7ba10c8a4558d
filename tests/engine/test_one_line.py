"""engine.errors.one_line: the one way the app and the CLI show an error in one line."""

from __future__ import annotations


def test_one_line_is_how_every_error_is_shown():
    from engine.errors import InputError, one_line

    assert one_line(InputError("visits[0]", "could not find\n  'X'")) == "visits[0]: could not find 'X'"
    assert one_line(RuntimeError()) == "RuntimeError"
    assert one_line(ValueError("wrong email or password"), sentence=True) == "Wrong email or password."
