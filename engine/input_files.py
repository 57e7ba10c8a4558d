"""Reading a file the traveller named: its bytes or its JSON, or one ``InputError`` naming the
argument or field that named it (never a traceback, and "--intent /dev/zero" cannot eat memory).
The CLI's arguments and the app's imports read through here alike."""

from __future__ import annotations

import json
from typing import Any

from engine.errors import InputError

# Intents and itineraries are small; the cap keeps "--intent /dev/zero" from eating memory.
MAX_INPUT_BYTES = 32 * 1024 * 1024


def shown(path: str) -> str:
    """The path as it reads in a one-line message (quoted when it holds control characters)."""
    return path if path.isprintable() else repr(path)


def read_input(arg: str, path: str) -> bytes:
    """The bytes of the file ``arg`` names, or an ``InputError`` naming ``arg``."""
    if not path.strip():
        raise InputError(arg, "empty path; give a file name")
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise InputError(arg, f"no such file {shown(path)}") from None
    except IsADirectoryError:
        raise InputError(arg, f"{shown(path)} is a folder, not a file") from None
    except OSError as exc:
        raise InputError(arg, f"cannot read {shown(path)}: {exc.strerror or exc}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(arg, f"{shown(path)} is larger than {MAX_INPUT_BYTES // 2**20} MiB")
    return data


def read_json_input(arg: str, path: str) -> Any:
    """The JSON document in the file ``arg`` names (UTF-8, a leading BOM allowed)."""
    raw = read_input(arg, path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(arg, f"{shown(path)} is not UTF-8 text (bad byte at offset {exc.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(arg, f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise InputError(arg, f"{shown(path)} nests JSON too deeply to be an intent") from None
    except ValueError as exc:  # e.g. an integer longer than Python converts (4300 digits)
        raise InputError(arg, f"unreadable JSON: {exc}") from None
