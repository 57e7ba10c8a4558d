"""Reading a group's chat export (groups plan in their messenger): a WhatsApp ``.txt`` export
(Android ``31/12/2023, 21:41 - Name: text`` or iOS ``[31/12/2023, 21:41:05] Name: text``, 12- or
24-hour, multi-line messages) or a Telegram Desktop JSON export of one chat (``result.json``).

Everything is parsed before anything is stored, so a bad file changes nothing. The file is read
as ``engine/imports/untrusted.py`` reads one (regular files only, at most 20 MB + 1 byte, strict
UTF-8, no control characters — raw or written as a JSON escape); a JSON nested too deep to parse
is refused in one line. WhatsApp writes
the phone's local time without a zone: it is read as UTC (the order of messages is what matters).
Lines without a "Name:" (encryption notices, "X added Y") and media placeholders are ``system``."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from engine.errors import InputError
from engine.imports.untrusted import check_controls, read_regular, strict_text

MAX_BYTES = 20 * 1024 * 1024

_WA = re.compile(r"^\u200e?\[?(?P<d>\d{1,4})[/.\-](?P<m>\d{1,2})[/.\-](?P<y>\d{2,4}),?\s+"
                 r"(?P<H>\d{1,2}):(?P<M>\d{2})(?::(?P<S>\d{2}))?\s*(?P<ampm>[AaPp]\.?\s?[Mm]\.?)?\]?"
                 r"\s*(?:-\s+)?(?P<rest>.*)$")
_AUTHOR = re.compile(r"^(?P<author>[^:]{1,80}):\s(?P<body>.*)$", re.S)
_MEDIA = ("<Media omitted>", "<attached:", "image omitted", "video omitted", "sticker omitted",
          "This message was deleted", "audio omitted", "document omitted")


@dataclass(frozen=True)
class ImportedMessage:
    sent_at: datetime
    author: str
    body: str
    kind: str = "user"  # user | system


def read_export(path: str | Path) -> tuple[str, list[ImportedMessage]]:
    """(source, messages) of a chat export; ``InputError`` naming the file when it is not one."""
    p = Path(path)
    field = f"FILE {p.name}"
    raw = read_regular(p, MAX_BYTES, field)  # a pipe or device refused; at most the cap + 1 read
    text = strict_text(raw, field, what="text (export the chat again as text or JSON)")
    if text.lstrip().startswith("{"):
        return "telegram", parse_telegram(text, p.name)
    return "whatsapp", parse_whatsapp(text, p.name)


# -- WhatsApp ----------------------------------------------------------------------------------
def parse_whatsapp(text: str, name: str = "chat.txt") -> list[ImportedMessage]:
    lines = text.splitlines()
    heads = [(i, m) for i, line in enumerate(lines) if (m := _WA.match(line))]
    if not heads:
        raise InputError("FILE", f"{name} is neither a WhatsApp .txt export nor a Telegram JSON export")
    day_first = _day_first([m for _, m in heads])
    out: list[ImportedMessage] = []
    for n, (i, m) in enumerate(heads):
        end = heads[n + 1][0] if n + 1 < len(heads) else len(lines)
        body = "\n".join([m["rest"], *lines[i + 1:end]]).strip()
        out.append(_wa_message(m, body, day_first, name, i + 1))
    return out


def _day_first(matches) -> bool:
    """Exports do not say: a first number above 12 means day first, a second above 12 month first;
    ambiguous files are read day first (most locales)."""
    if any(int(m["d"]) > 12 for m in matches if len(m["d"]) <= 2):
        return True
    if any(int(m["m"]) > 12 for m in matches):
        return False
    return True


def _wa_message(m, body: str, day_first: bool, name: str, line_no: int) -> ImportedMessage:
    a, b, y = int(m["d"]), int(m["m"]), int(m["y"])
    if len(m["d"]) == 4:  # 2024-01-05
        year, month, day = a, b, y
    else:
        year = y + 2000 if y < 100 else y
        day, month = (a, b) if day_first else (b, a)
    hour = int(m["H"]) % 12 + (12 if m["ampm"] and m["ampm"].lower().startswith("p") else 0) if m["ampm"] \
        else int(m["H"])
    try:
        sent = datetime(year, month, day, hour, int(m["M"]), int(m["S"] or 0), tzinfo=timezone.utc)
    except ValueError:
        raise InputError("FILE", f"{name} line {line_no}: not a date and time WhatsApp writes") from None
    said = _AUTHOR.match(body)
    if said is None:
        return ImportedMessage(sent, "", body, "system")
    text = said["body"].strip()
    kind = "system" if any(marker in text for marker in _MEDIA) else "user"
    return ImportedMessage(sent, said["author"].strip(), text, kind)


# -- Telegram ----------------------------------------------------------------------------------
def parse_telegram(text: str, name: str = "result.json") -> list[ImportedMessage]:
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise InputError("FILE", f"{name} is not valid JSON (line {getattr(exc, 'lineno', '?')})") from None
    except RecursionError:
        raise InputError("FILE", f"{name} nests its JSON too deeply to be a Telegram export") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("messages"), list):
        if isinstance(doc, dict) and "chats" in doc:
            raise InputError("FILE", f"{name} is a whole-account export: export the one group chat instead")
        raise InputError("FILE", f"{name} is not a Telegram chat export (no \"messages\" list)")
    out = []
    for n, item in enumerate(doc["messages"]):
        if not isinstance(item, dict):
            raise InputError("FILE", f"{name}: messages[{n}] is not an object")
        message = _tg_message(item, name, n)
        for text in (message.author, message.body):  # JSON escapes ("\u0000") pass the byte check
            check_controls(text, f"FILE {name}: messages[{n}]")
        out.append(message)
    return out


def _tg_message(item: dict, name: str, n: int) -> ImportedMessage:
    sent = _tg_time(item, name, n)
    body = _tg_text(item.get("text", ""))
    if item.get("type") != "message":
        action = str(item.get("action", item.get("type", "service"))).replace("_", " ")
        return ImportedMessage(sent, str(item.get("actor") or ""), body or action, "system")
    kind = "user" if body.strip() else "system"  # a photo or sticker without a caption
    return ImportedMessage(sent, str(item.get("from") or ""), body.strip() or str(item.get("media_type", "media")), kind)


def _tg_time(item: dict, name: str, n: int) -> datetime:
    unix = item.get("date_unixtime")
    try:
        if unix is not None:
            return datetime.fromtimestamp(int(unix), tz=timezone.utc)
        local = datetime.fromisoformat(str(item["date"]))
        return local if local.tzinfo else local.replace(tzinfo=timezone.utc)
    except (KeyError, ValueError, TypeError, OverflowError, OSError):
        raise InputError("FILE", f"{name}: messages[{n}] has no readable date") from None


def _tg_text(text) -> str:
    """Telegram stores formatted text as a list of strings and {"type", "text"} pieces."""
    if isinstance(text, str):
        return text
    if isinstance(text, list):
        return "".join(p if isinstance(p, str) else str(p.get("text", "")) for p in text if isinstance(p, (str, dict)))
    return ""
