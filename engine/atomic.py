"""Crash-safe file writes: readers see the old file or the new one, never half of either, and a
set of files is written as one: all new, or all as they were.

``write_all`` stages every file to a temp file beside its target, then renames them all into
place. A failure while staging (a full disk, a read-only mount) removes every staged file and
leaves every target untouched. A failure while renaming (rare: each folder took a staged file a
moment before) puts back the targets already replaced, from hard links taken just before.
The ``OSError`` raised names the target (``filename``), never a temp file.

This is the project's one atomic writer (issue 30 §4): every file Tripwright keeps — settings,
caches, packs, offline maps, exports — goes through it, so each is fsync-ed, renamed into place
and its folder synced the same way. ``write_atomic`` takes the bytes at once; ``atomic_file``
yields a handle for streaming writes (a zip, a tile archive); ``atomic_path`` yields a temp path
for writers that open the file by name themselves (SQLite).
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

# O_BINARY exists only on Windows; without it text-mode translation would alter bytes there.
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)

StrPath = str | os.PathLike[str]


@dataclass(frozen=True)
class _Staged:
    given: str       # the path as the caller gave it, for error messages
    target: Path     # symlinks resolved: we replace the file a link points to, not the link
    tmp: Path


def write_atomic(path: StrPath, data: str | bytes) -> None:
    """Write ``data`` (str as UTF-8) to ``path`` via a same-directory temp file and ``os.replace``.

    On any error, KeyboardInterrupt included, the target is left as it was and the temp removed.
    """
    write_all([(path, data)])


def write_all(outputs: Iterable[tuple[StrPath, str | bytes]]) -> None:
    """Write every ``(path, data)`` or none: on any error each target is left as it was."""
    staged: list[_Staged] = []
    try:
        for path, data in outputs:
            staged.append(_stage(path, data))
        _commit(staged)
    except BaseException:
        for item in staged:
            with contextlib.suppress(OSError):
                os.unlink(item.tmp)
        raise
    for directory in dict.fromkeys(item.target.parent for item in staged):
        _fsync_dir(directory)


@contextlib.contextmanager
def atomic_path(path: StrPath) -> Iterator[Path]:
    """A temp path beside ``path`` for a writer that opens files by name (SQLite, zipfile):
    when the block ends without error the file is fsync-ed and renamed onto ``path``; on any
    error (KeyboardInterrupt included) it is removed and ``path`` is left as it was."""
    given = os.fspath(path)
    target = Path(os.path.realpath(given))
    tmp = temp_name(target, "tmp")
    try:
        yield tmp
        _fsync_file(tmp, _mode_of(target))
        try:
            os.replace(tmp, target)
        except OSError as exc:
            raise _naming(exc, given) from exc
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(target.parent)


@contextlib.contextmanager
def atomic_file(path: StrPath, mode: str = "wb", *, encoding: str | None = None) -> Iterator[IO[Any]]:
    """A handle (``"wb"`` or ``"w"``) whose content replaces ``path`` only when the block ends
    without error: streamed writes, the same guarantees as :func:`write_atomic`."""
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_file writes a new file: mode 'w' or 'wb', not {mode!r}")
    with atomic_path(path) as tmp:
        fd = os.open(tmp, _FLAGS, 0o666)
        with os.fdopen(fd, mode, encoding=encoding or ("utf-8" if mode == "w" else None)) as handle:
            yield handle


def temp_name(target: Path, suffix: str) -> Path:
    """A hidden, unique sibling of ``target`` (same folder, so a rename never crosses devices)."""
    return target.with_name(f".{target.name}.{secrets.token_hex(6)}.{suffix}")


def _stage(path: StrPath, data: str | bytes) -> _Staged:
    given = os.fspath(path)
    target = Path(os.path.realpath(given))
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    tmp = temp_name(target, "tmp")
    try:
        _write_synced(tmp, payload, _mode_of(target))
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _naming(exc, given) from exc
        raise
    return _Staged(given, target, tmp)


def _commit(staged: list[_Staged]) -> None:
    backups = [_hard_link_backup(item.target) for item in staged]
    done: list[int] = []
    try:
        for i, item in enumerate(staged):
            try:
                os.replace(item.tmp, item.target)
            except OSError as exc:
                raise _naming(exc, item.given) from exc
            done.append(i)
    except BaseException:
        for i in done:
            _put_back(staged[i].target, backups[i])
        raise
    finally:
        for backup in backups:
            if backup is not None:
                with contextlib.suppress(OSError):
                    os.unlink(backup)


def _hard_link_backup(target: Path) -> Path | None:
    """A second name for the file about to be replaced; ``None`` when there is none (or the file
    system has no hard links, where a failed rename cannot be undone)."""
    backup = temp_name(target, "bak")
    try:
        os.link(target, backup)
    except OSError:
        return None
    return backup


def _put_back(target: Path, backup: Path | None) -> None:
    with contextlib.suppress(OSError):
        if backup is None:
            os.unlink(target)  # the set created it
        else:
            os.replace(backup, target)


def _naming(exc: OSError, given: str) -> OSError:
    """The same error, naming the target the caller asked for rather than a temp file."""
    return OSError(exc.errno, exc.strerror or str(exc), given)


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


def _fsync_file(path: Path, mode: int | None) -> None:
    """Flush a file written by name to disk, with the permissions of the file it replaces."""
    fd = os.open(path, os.O_RDWR | getattr(os, "O_BINARY", 0))
    try:
        if mode is not None and hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
        os.fsync(fd)
    finally:
        os.close(fd)


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
