"""A trip's undo history, rebuilt from which version each version was made from.

An editor's history is a line: undo walks back, and a new version made after an undo replaces
the undone ones. The store keeps every version, and each one names the version it was made from
(``VersionLink.parent``), so the line the user had is recovered from the links rather than
from the version numbers (numbers in order would bring back an undone edit):

- back from the shown version: its parent, that one's parent, ... down to the first version;
- forward (redo): the newest version made from the shown one, then the newest made from that,
  ... — the versions an undo had stepped back over, unless a newer edit replaced them.
"""

from __future__ import annotations

from collections.abc import Iterable

from .records import VersionLink, VersionSummary


def undo_line(versions: Iterable[VersionLink | VersionSummary], shown: int | None = None) -> tuple[list[int], int]:
    """(version numbers oldest first, index of ``shown`` in them). ``shown`` None or unknown: the
    latest version. No versions: ([], -1)."""
    by_number = {v.number: v for v in versions}
    if not by_number:
        return [], -1
    if shown not in by_number:
        shown = max(by_number)
    back: list[int] = []
    number: int | None = shown
    while number is not None and number in by_number and (not back or number < back[-1]):
        back.append(number)
        number = by_number[number].parent
    back.reverse()
    return back + _redo_line(by_number.values(), shown), len(back) - 1


def _redo_line(versions: Iterable[VersionLink | VersionSummary], shown: int) -> list[int]:
    newest_child: dict[int, int] = {}
    for v in versions:
        parent = v.parent
        if parent is not None and parent < v.number and v.number > newest_child.get(parent, 0):
            newest_child[parent] = v.number
    line: list[int] = []
    number = shown
    while number in newest_child:
        number = newest_child[number]
        line.append(number)
    return line
