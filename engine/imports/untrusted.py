"""Reading a file or stdin the traveller hands us (issue 25 §2): regular files only (a FIFO or a
device is refused, opened without blocking), at most ``cap`` + 1 bytes read whatever the source
claims, decoded as strict UTF-8, NUL and other control characters refused before anything is
stored (SQLite would keep a NUL; PostgreSQL refuses one mid-transaction). Every refusal is one
``InputError`` naming the field."""

from __future__ import annotations

import os
import re
import stat
import sys
from pathlib import Path
from typing import BinaryIO

from engine.errors import InputError

# C0 controls but tab, newline, carriage return and form feed; DEL; C1 controls.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")


def read_regular(path: str | os.PathLike[str], cap: int, field: str) -> bytes:
    """A regular file's bytes, refused over ``cap`` (at most ``cap`` + 1 are read)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise InputError(field, "no such file") from None
    except IsADirectoryError:
        raise InputError(field, "is a folder, not a file") from None
    except OSError as exc:
        raise InputError(field, f"cannot be read ({exc.strerror or type(exc).__name__})") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise InputError(field, "is a folder, not a file" if stat.S_ISDIR(info.st_mode)
                         else "is not a regular file (a pipe or a device); give a saved file")
    with os.fdopen(fd, "rb") as fh:
        try:
            return _capped(fh, cap, field)
        except OSError as exc:
            raise InputError(field, f"cannot be read ({exc.strerror or type(exc).__name__})") from None


def read_stdin(cap: int, field: str, stream: BinaryIO | None = None) -> bytes:
    """Standard input's bytes, at most ``cap`` + 1 read (``/dev/zero`` is refused at the cap)."""
    return _capped(stream or sys.stdin.buffer, cap, field)


def _capped(fh: BinaryIO, cap: int, field: str) -> bytes:
    data = fh.read(cap + 1)
    if len(data) > cap:
        raise InputError(field, f"is larger than {_size(cap)}")
    return data


def _size(n: int) -> str:
    return f"{n // 2**20} MB" if n >= 2**20 else f"{n // 1024} KB"


def strict_text(data: bytes, field: str, *, what: str = "text") -> str:
    """``data`` as UTF-8 (a BOM allowed), with no control characters."""
    if b"\x00" in data[:8192]:
        raise InputError(field, f"a binary file, not {what}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(field, f"not UTF-8 {what} (invalid byte at offset {exc.start})") from None
    check_controls(text, field)
    return text


def check_controls(text: str, field: str) -> None:
    bad = CONTROL.search(text)
    if bad:
        raise InputError(field, f"holds a control character (U+{ord(bad.group()):04X} at character "
                                f"{bad.start() + 1:,}); nothing was stored")


def without_controls(text: str) -> str:
    """Text derived from a document (a PDF's extracted text): control characters dropped."""
    return CONTROL.sub("", text)


def label(path: str | os.PathLike[str]) -> str:
    return Path(path).name or os.fspath(path)
