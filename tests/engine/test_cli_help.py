"""``tripwright --help`` lists every command (screenshot too), and every argument says what it is
for (issue 23 §1)."""

from __future__ import annotations

import argparse

from engine.cli import build_parser


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_command_is_listed_and_every_argument_has_help() -> None:
    parser = build_parser()
    commands = _subparsers(parser)
    assert {"plan", "verify", "export", "cities", "screenshot", "notes", "bench"} <= set(commands)
    assert "screenshot" in parser.format_help()
    missing = []
    for name, sub in commands.items():
        nested = [a for a in sub._actions if isinstance(a, argparse._SubParsersAction)]
        parsers = [(name, sub)] + [(f"{name} {k}", p) for a in nested for k, p in a.choices.items()]
        for label, p in parsers:
            for action in p._actions:
                if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                    continue
                if not action.help or action.help == argparse.SUPPRESS:
                    missing.append(f"{label}: {action.option_strings or action.dest}")
    assert not missing, missing
