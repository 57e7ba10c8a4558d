"""Text from other people on the terminal (issue 25 §2): control characters (escape sequences can
set the window title or rewrite the screen) and bidi controls (the right-to-left override turns a
line around) are shown visibly, as ``\\x1b`` / ``\\u202e``, never sent raw. A message's own line
breaks are shown as ``\\n``, so one message stays one line."""

from __future__ import annotations

import re

_HIDDEN = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def visible(text: str, *, keep_lines: bool = False) -> str:
    """``keep_lines``: a passage printed as a block keeps its line breaks."""
    if keep_lines:
        return "\n".join(_HIDDEN.sub(_shown, line) for line in text.split("\n"))
    return _HIDDEN.sub(_shown, text)


def _shown(m: re.Match) -> str:
    c = m.group()
    return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
