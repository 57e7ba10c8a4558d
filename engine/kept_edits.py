"""The traveller's edits kept on top of a new plan for their trip (issue 32 §1).

An import (saved places, bookings) or a model's draft changes the trip, so the planner plans it
again from the new intent; :class:`OnTopOfEdits` then puts back what the traveller did on the
plan they were looking at (``base``):

- each **locked** visit or meal, and each one they **placed** (moved to another day or time, or
  replaced by another place: ``Slot.placed``), at its date and time — what the new plan had there
  gives way, unless it is locked itself (a booking: the booking stays and the edit is not kept);
- each **removal**: the place stays out, whatever the new plan chose.

Verification and repair then settle the rest, as for any edit. :func:`edits_not_kept` says, in
one line, which of the traveller's edits the new plan could not keep and which new places it
could not fit around them.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.models import DayPlan, PlanV1, Slot

VISITS = ("activity", "meal")


def mark_placed(plan: PlanV1, choice_id: str) -> PlanV1:
    """``plan`` with the slot of ``choice_id`` marked as placed by the traveller (unchanged if absent)."""
    found = plan.find(choice_id)
    if found is None:
        return plan
    di, si = found
    slot = plan.days[di].slots[si]
    return plan if slot.placed else plan.with_slot(di, si, slot.model_copy(update={"placed": True}))


def marks(plan: PlanV1) -> list[tuple[int, Slot]]:
    """The visits and meals the traveller locked or placed, with their day index."""
    return [(di, s) for di, _si, s in plan.slots() if s.role in VISITS and (s.locked or s.placed)]


@dataclass(frozen=True)
class OnTopOfEdits:
    """A new plan for the trip with the traveller's edits on the plan ``base`` put back."""

    base: PlanV1

    def __call__(self, plan: PlanV1, facts) -> PlanV1:
        by_date = {plan.days[i].date: i for i in range(len(plan.days))}
        mine: dict[int, list[Slot]] = {}
        for di, slot in marks(self.base):
            dj = by_date.get(self.base.days[di].date)
            if dj is not None:
                mine.setdefault(dj, []).append(slot)
        gone = {r.ref for r in self.base.removed} | {s.selected.option_ref for _di, s in marks(self.base)}
        days = []
        for di, day in enumerate(plan.days):
            fixed = [s for s in day.slots if s.role not in VISITS or s.locked]  # flights, hotel, bookings
            kept_marks = [m for m in mine.get(di, []) if not any(_overlap(m, f) for f in fixed)]
            rest = [s for s in day.slots if not (s.role not in VISITS or s.locked) and s.selected.option_ref not in gone
                    and not any(_overlap(s, m) for m in kept_marks)]
            days.append(DayPlan(date=day.date, slots=[*fixed, *kept_marks, *rest]))
        removed = [*self.base.removed, *(r for r in plan.removed if r not in self.base.removed)]
        return plan.model_copy(update={"days": days, "removed": removed})


def edits_not_kept(base: PlanV1, after: PlanV1, wanted: dict[str, str] | None = None) -> str | None:
    """One line naming the traveller's edits on ``base`` that ``after`` lost and the ``wanted``
    places (ref → name: what an import added) it could not fit; None when everything holds."""
    placed = {(s.selected.option_ref, after.days[di].date) for di, _si, s in after.slots()}
    in_after = {ref for ref, _day in placed}
    lost = [f"{s.selected.label} ({'locked' if s.locked else 'your choice'}, {base.days[di].date:%a %d %b})"
            for di, s in marks(base) if (s.selected.option_ref, base.days[di].date) not in placed]
    back = [r.ref for r in base.removed if r.ref in in_after]
    unfit = [name for ref, name in (wanted or {}).items() if ref not in in_after]
    parts = []
    if lost:
        parts.append("could not keep " + ", ".join(lost))
    if back:
        parts.append(f"{len(back)} removed place{'s' if len(back) != 1 else ''} came back")
    if unfit:
        parts.append("could not fit " + ", ".join(unfit) + " around your edits")
    if not parts:
        return None
    line = "; ".join(parts)
    return line[0].upper() + line[1:] + "."


def _overlap(a: Slot, b: Slot) -> bool:
    return a.window.start < b.window.end and b.window.start < a.window.end


__all__ = ["OnTopOfEdits", "edits_not_kept", "mark_placed", "marks"]
