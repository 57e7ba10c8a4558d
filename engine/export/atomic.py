"""Crash-safe file writes: readers see the old file or the new one, never half of either."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

# O_BINARY exists only on Windows; without it text-mode translation would alter bytes there.
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` (str as UTF-8) to ``path`` via a same-directory temp file and ``os.replace``.

    On any error, KeyboardInterrupt included, the target is left as it was and the temp removed.
    """
    # Resolve symlinks so we replace the file a link points to, not the link itself.
    target = Path(os.path.realpath(path))
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    try:
        _write_synced(tmp, payload, _mode_of(target))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(target.parent)


def _mode_of(target: Path) -> int | None:
    """Permission bits to keep when overwriting, so an export does not loosen or tighten access."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        return None


def _write_synced(tmp: Path, payload: bytes, mode: int | None) -> None:
    # 0o666 lets the umask decide for new files, as a plain open() would (mkstemp forces 0o600).
    fd = os.open(tmp, _FLAGS, 0o666)
    with os.fdopen(fd, "wb") as fh:
        if mode is not None and hasattr(os, "fchmod"):
            os.fchmod(fh.fileno(), mode)
        fh.write(payload)
        fh.flush()
        os.fsync(fh.fileno())


def _fsync_dir(directory: Path) -> None:
    """Make the rename itself durable. Best effort: the new content is already in place."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
