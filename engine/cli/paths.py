"""Every file a command reads or writes, checked in one place: a bad path is one line naming
its argument (exit 2), and the check runs before any planning, so nothing is written.

Outputs are written as one set through ``engine.export.write_all``: each atomically, and none
left behind (nor any existing file changed) when a later one fails.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from engine.errors import InputError
from engine.atomic import temp_name, write_all
from engine.input_files import read_input, read_json_input, shown  # noqa: F401 (the commands' readers)


# -- outputs --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outputs:
    """The output files a command was given (argument → path), checked before any work."""

    paths: dict[str, str]

    @classmethod
    def check(cls, given: Mapping[str, str | None], *,
              inputs: Mapping[str, str | None] | None = None) -> "Outputs":
        """Refuse an empty path, a folder, a missing or read-only folder, a non-regular file,
        an output that is one of the inputs, and two outputs that are one file."""
        paths = {arg: path for arg, path in given.items() if path is not None}
        for arg, path in paths.items():
            _check_output(arg, path)
        _check_distinct(paths, {a: p for a, p in (inputs or {}).items() if p})
        return cls(paths)

    def write(self, renders: Mapping[str, Callable[[], str | bytes]]) -> None:
        """Render each given output, then write them all as one set; a failure names its argument."""
        chosen = [(arg, self.paths[arg], render()) for arg, render in renders.items() if arg in self.paths]
        try:
            write_all([(path, data) for _, path, data in chosen])
        except OSError as exc:
            arg, path = next(((a, p) for a, p, _ in chosen if p == exc.filename), ("output", str(exc.filename)))
            raise InputError(arg, f"cannot write {shown(path)}: {exc.strerror or exc}; nothing was written") from None


def _check_output(arg: str, path: str) -> None:
    if not path.strip():
        raise InputError(arg, "empty path; give a file name")
    target = Path(os.path.realpath(path))
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise InputError(arg, f"cannot use {shown(path)}: {exc.strerror or exc}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise InputError(arg, f"{shown(path)} is a folder; give a file name")
    if mode is not None and not stat.S_ISREG(mode):
        # An atomic rename would replace a device or pipe with a plain file.
        raise InputError(arg, f"{shown(path)} is not a regular file")
    folder = target.parent
    if not folder.exists():
        raise InputError(arg, f"folder {shown(str(folder))} does not exist")
    if not folder.is_dir():
        raise InputError(arg, f"{shown(str(folder))} is not a folder")
    problem = _write_probe(target)
    if problem:
        raise InputError(arg, f"cannot write in {shown(str(folder))}: {problem}")


def _write_probe(target: Path) -> str | None:
    """Why a file cannot be written beside ``target``, found by writing one: permission bits do
    not stop root, while a read-only mount or a full disk stops everyone."""
    probe = temp_name(target, "probe")
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        return exc.strerror or str(exc)
    try:
        os.write(fd, b"\n")
    except OSError as exc:
        return exc.strerror or str(exc)
    finally:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(probe)
    return None


def _check_distinct(outputs: dict[str, str], inputs: dict[str, str]) -> None:
    seen: dict[str, str] = {}
    for arg, path in inputs.items():
        seen.setdefault(os.path.realpath(path), arg)
    for arg, path in outputs.items():
        real = os.path.realpath(path)
        other = seen.get(real) or next((a for p, a in seen.items() if _same_file(p, real)), None)
        if other is not None:
            raise InputError(arg, f"{shown(path)} is the same file as {other}; choose another name")
        seen[real] = arg


def _same_file(a: str, b: str) -> bool:
    """Hard links to one file count as one file."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
