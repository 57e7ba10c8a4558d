"""The traveller's edits of a multi-city trip (the map's remove / retime / lock / move-to-day on the
stitched itinerary) handed to the stay they are in: an edit names an activity by its trip-wide id
(``d5-activity-colosseum``); the stay whose days hold day 5 gets it with the stay's own id
(``d2-activity-colosseum``), and a move to another day stays inside that stay. On a leg day both
stays are asked; the one whose plan has the activity applies it. An edit no stay applies is one
``InputError`` naming it, as for a one-city trip."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from engine.errors import InputError
from engine.models import MultiCityIntent

from .stays import stay_offsets

_DAY = re.compile(r"^d(\d+)-")


@dataclass
class EditLedger:
    """Which of the trip's edits a stay applied (each must be applied once)."""

    applied: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class InStay:
    """Edit ``index`` of the trip as stay-local ``edit``: applied when the stay's plan has it."""

    edit: object
    index: int
    ledger: EditLedger

    def __call__(self, plan, facts):
        choice_id = getattr(self.edit, "choice_id", "")
        if plan.find(choice_id) is None:
            return plan  # the other stay of a leg day has it
        self.ledger.applied.add(self.index)
        return self.edit(plan, facts)  # type: ignore[operator]


def _local(choice_id: str, offset: int) -> str:
    return _DAY.sub(lambda m: f"d{int(m.group(1)) - offset}-", choice_id, count=1)


def route_edits(edits: list, intent: MultiCityIntent, ledger: EditLedger) -> list[list[InStay]]:
    """Per stay, the edits that may be its own, in stay-local terms."""
    offsets = stay_offsets(intent)
    out: list[list[InStay]] = [[] for _ in intent.stays]
    for i, edit in enumerate(edits):
        choice_id = getattr(edit, "choice_id", None)
        found = _DAY.match(choice_id) if isinstance(choice_id, str) else None
        if found is None:
            raise InputError(f"edits[{i}].choice_id", f"{choice_id!r} names no activity of the trip")
        day = int(found.group(1))
        for k, stay in enumerate(intent.stays):
            first, last = offsets[k], offsets[k] + stay.nights
            if not first <= day <= last:
                continue
            update: dict = {"choice_id": _local(choice_id, first)}
            if hasattr(edit, "day_index"):
                target = edit.day_index
                if not isinstance(target, int) or not first <= target <= last:
                    continue  # another city's day: a move stays inside its stay
                update["day_index"] = target - first
            out[k].append(InStay(dataclasses.replace(edit, **update), i, ledger))  # type: ignore[type-var]
    return out


def check_applied(edits: list, ledger: EditLedger) -> None:
    for i, edit in enumerate(edits):
        if i not in ledger.applied:
            what = "move it to a day of the same city" if hasattr(edit, "day_index") else "no stay has it"
            raise InputError(f"edits[{i}].choice_id", f"{getattr(edit, 'choice_id', '')!r}: {what}")
