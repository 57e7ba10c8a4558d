"""User edits on a PlanV1: the map's drag / retime / remove / swap / pin actions.

Every edit is a small frozen dataclass that is called like a function::

    plan = Retime("d2-activity-musee_orsay", TimeWindow.of_minutes(600, 780))(plan, facts)

and returns a new, valid PlanV1 (the input is never mutated). The same callables can be passed
to ``PlanningSession.plan(intent, edits=[...])``, which applies them to the selected plan before
verification and repair.

Rules shared by all edits:

* ``choice_id`` names a slot by its selected choice (``slot.choices[0].choice_id``); an unknown
  id is an :class:`~engine.errors.InputError` naming the field (``edits[i].choice_id`` once the
  edit has been :func:`numbered`, else ``choice_id``).
* A locked slot can only be unlocked: any other edit of it is an InputError (``Lock`` on an
  already locked slot is a no-op).
* Flights keep their schedule (no retime/move/remove/replace); hotel desks (check-in/out) can be
  retimed and locked but not removed, replaced or moved.
* The result must be a valid plan: a window that overlaps another slot of its day is an
  InputError naming the window field.
* Choice ids stay stable across Retime/MoveToDay/Lock/Unlock (the map keeps following the same
  marker); Replace creates the new venue's id ``d{day}-{role}-{venue_id}``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Iterable, Sequence

from engine.costs import venue_cost
from engine.errors import InputError
from engine.facts import TripFacts
from engine.models import Attraction, Choice, ChoiceFeatures, ChoiceKind, DayPlan, PlanV1, Removal, Slot, TimeWindow

_VISITS = ("activity", "meal")
MAX_CHOICES = 4


@dataclass(frozen=True)
class _Edit:
    """Shared lookup and validation. ``index`` is the edit's position in an edit list (for the
    error's field name); it does not take part in equality."""

    choice_id: str
    index: int | None = dataclasses.field(default=None, kw_only=True, compare=False)

    # -- helpers -----------------------------------------------------------------------------
    def _field(self, name: str) -> str:
        return f"edits[{self.index}].{name}" if self.index is not None else name

    def _error(self, name: str, message: str) -> InputError:
        return InputError(self._field(name), message)

    def _locate(self, plan: PlanV1) -> tuple[int, int, Slot]:
        if not isinstance(self.choice_id, str) or not self.choice_id:
            raise self._error("choice_id", "must be a non-empty choice id")
        pos = plan.find(self.choice_id)
        if pos is None:
            raise self._error("choice_id", f"no slot with choice {self.choice_id!r} in the plan")
        di, si = pos
        return di, si, plan.days[di].slots[si]

    def _unlocked(self, slot: Slot, what: str) -> None:
        if slot.locked:
            raise self._error("choice_id", f"{slot.selected.label} is locked; unlock it before you {what} it")

    def _roles(self, slot: Slot, allowed: tuple[str, ...], what: str) -> None:
        if slot.role not in allowed:
            raise self._error("choice_id", f"cannot {what} the {slot.role} slot ({slot.selected.label})")

    def _window(self, window: TimeWindow, name: str = "window") -> TimeWindow:
        if isinstance(window, TimeWindow):
            return window
        try:
            return TimeWindow.model_validate(window)
        except ValueError as exc:
            raise self._error(name, _first_error(exc)) from None

    def _day(self, plan: PlanV1, di: int, slots: list[Slot], placed: Slot, name: str = "window") -> DayPlan:
        """The day with ``slots``; ``placed`` must not overlap any other slot."""
        for other in slots:
            if other is not placed and other.window.overlaps(placed.window):
                raise self._error(name, f"{placed.selected.label} {placed.window.label()} overlaps "
                                        f"{other.selected.label} {other.window.label()} on "
                                        f"{plan.days[di].date.isoformat()}")
        return DayPlan(date=plan.days[di].date, slots=slots)

    def _with_day(self, plan: PlanV1, di: int, day: DayPlan) -> PlanV1:
        days = list(plan.days)
        days[di] = day
        return plan.model_copy(update={"days": days})

    def _replace_slot(self, plan: PlanV1, di: int, si: int, new: Slot, name: str = "window") -> PlanV1:
        slots = list(plan.days[di].slots)
        slots[si] = new
        return self._with_day(plan, di, self._day(plan, di, slots, new, name))


@dataclass(frozen=True)
class Retime(_Edit):
    """Give a slot a new window on the same day (and optionally pin it)."""

    window: TimeWindow
    lock: bool = False

    def __call__(self, plan: PlanV1, facts: TripFacts) -> PlanV1:
        di, si, slot = self._locate(plan)
        self._unlocked(slot, "retime")
        self._roles(slot, _VISITS + ("checkin", "checkout"), "retime")
        window = self._window(self.window)
        new = slot.model_copy(update={"window": window, "locked": slot.locked or bool(self.lock), "placed": True})
        return self._replace_slot(plan, di, si, new)


@dataclass(frozen=True)
class Remove(_Edit):
    """Drop a visit or meal; the plan remembers it (``PlanV1.removed``), so the re-plan fills the
    time with another place of the city (engine/repair/fill.py), never with this one."""

    def __call__(self, plan: PlanV1, facts: TripFacts) -> PlanV1:
        di, si, slot = self._locate(plan)
        self._unlocked(slot, "remove")
        self._roles(slot, _VISITS, "remove")
        slots = [s for i, s in enumerate(plan.days[di].slots) if i != si]
        plan = self._with_day(plan, di, DayPlan(date=plan.days[di].date, slots=slots))
        removal = Removal(day=di, ref=slot.selected.option_ref, role=slot.role)  # re-plans never bring it back
        return plan.model_copy(update={"removed": [*plan.removed, removal]})


@dataclass(frozen=True)
class Replace(_Edit):
    """Put another venue (from ``facts.venues``) in the slot, keeping its window; the venue it
    replaces is remembered as removed (``PlanV1.removed``), so no re-plan puts it back."""

    venue_id: str

    def __call__(self, plan: PlanV1, facts: TripFacts) -> PlanV1:
        di, si, slot = self._locate(plan)
        self._unlocked(slot, "replace")
        self._roles(slot, _VISITS, "replace")
        venue = facts.venue(self.venue_id) if isinstance(self.venue_id, str) else None
        if venue is None:
            raise self._error("venue_id", f"unknown venue {self.venue_id!r} in {facts.city}")
        kind = slot.selected.kind
        if (kind is ChoiceKind.meal) != (venue.provenance.tool == "dining"):
            wanted = "a restaurant" if kind is ChoiceKind.meal else "an attraction"
            raise self._error("venue_id", f"{venue.name} is not {wanted}")
        if venue.id == slot.selected.option_ref:
            return plan
        for dj, _, other in plan.slots():
            if other.selected.option_ref == venue.id:
                raise self._error("venue_id", f"{venue.name} is already in the plan on day {dj}")
        choice = venue_choice(di, slot.role, venue, kind, plan.assumptions.travellers)
        rest = [c for c in slot.choices if c.option_ref != venue.id]
        new = Slot(window=slot.window, role=slot.role, choices=[choice, *rest][:MAX_CHOICES], locked=False, placed=True)
        plan = self._replace_slot(plan, di, si, new)
        # the place it replaced is taken out as a removal is: a re-plan never brings it back
        removal = Removal(day=di, ref=slot.selected.option_ref, role=slot.role)
        return plan.model_copy(update={"removed": [*plan.removed, removal]})


@dataclass(frozen=True)
class Lock(_Edit):
    """Pin a slot: repair will work around it and never change it."""

    def __call__(self, plan: PlanV1, facts: TripFacts) -> PlanV1:
        di, si, slot = self._locate(plan)
        if slot.locked:
            return plan
        return self._replace_slot(plan, di, si, slot.model_copy(update={"locked": True}))


@dataclass(frozen=True)
class Unlock(_Edit):
    """Release a pinned slot (the only edit a locked slot accepts): the planner may change it again."""

    def __call__(self, plan: PlanV1, facts: TripFacts) -> PlanV1:
        di, si, slot = self._locate(plan)
        if not slot.locked:
            return plan
        return self._replace_slot(plan, di, si, slot.model_copy(update={"locked": False, "placed": False}))


@dataclass(frozen=True)
class MoveToDay(_Edit):
    """Move a visit or meal to another day (0-based ``day_index``) at ``window``."""

    day_index: int
    window: TimeWindow

    def __call__(self, plan: PlanV1, facts: TripFacts) -> PlanV1:
        di, si, slot = self._locate(plan)
        self._unlocked(slot, "move")
        self._roles(slot, _VISITS, "move")
        dj = self.day_index
        if isinstance(dj, bool) or not isinstance(dj, int) or not 0 <= dj < len(plan.days):
            raise self._error("day_index", f"must be a day of the trip (0-{len(plan.days) - 1}), got {dj!r}")
        window = self._window(self.window)
        moved = slot.model_copy(update={"window": window, "placed": True})
        if dj == di:
            return self._replace_slot(plan, di, si, moved)
        source = [s for i, s in enumerate(plan.days[di].slots) if i != si]
        target = [*plan.days[dj].slots, moved]
        plan = self._with_day(plan, dj, self._day(plan, dj, target, moved))
        return self._with_day(plan, di, DayPlan(date=plan.days[di].date, slots=source))


Edit = Retime | Remove | Replace | Lock | Unlock | MoveToDay


def venue_choice(di: int, role: str, venue: Attraction, kind: ChoiceKind, travellers: int = 1) -> Choice:
    """A choice for ``venue`` as the planner writes it (admission or meal for the whole party)."""
    cost = venue_cost(venue, travellers)
    return Choice(choice_id=f"d{di}-{role}-{venue.id}", kind=kind, option_ref=venue.id, label=venue.name,
                  geo=venue.location, features=ChoiceFeatures(cost_usd_cents=cost, indoor=venue.indoor,
                                                              themes=list(venue.themes)),
                  provenance=venue.provenance)


def numbered(edits: Iterable[_Edit]) -> list[_Edit]:
    """The edits with their list position set, so errors name ``edits[i].<field>``."""
    return [dataclasses.replace(e, index=i) if isinstance(e, _Edit) else e for i, e in enumerate(edits)]


def apply_edits(plan: PlanV1, facts: TripFacts, edits: Sequence) -> PlanV1:
    """Apply ``edits`` in order (numbering them first)."""
    for edit in numbered(edits):
        plan = edit(plan, facts)
    return plan


def _first_error(exc: ValueError) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
            return str(first.get("msg", exc)).removeprefix("Value error, ")
        except (IndexError, TypeError):
            pass
    return str(exc)


__all__ = ["Edit", "Lock", "MoveToDay", "Remove", "Replace", "Retime", "Unlock", "apply_edits", "numbered",
           "venue_choice"]
