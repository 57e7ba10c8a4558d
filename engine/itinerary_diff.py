"""What a revision changed against the version before it (the version diff view), Qt-free.

Compares two ``ItineraryV1`` by what the traveller books: each visit, meal, flight and hotel
is keyed by its role and ``ref`` (the name when there is none), so a venue that changes days is
one *move*, not a removal and an addition. Transfers follow from the rest and are left out.
Occurrences are matched on the same day first, then across days (a restaurant may be booked on
two days of both versions); a new start time on the same day is not reported (one swap shifts
every later start).

what a version changed against the one it was made from (the Group dock's Changes tab): visits, meals,
flights and the hotel keyed by role + `ref`, matched on the same day first (a new start time there is no
change: one swap shifts every later start), then across days (a move); per day added/removed/moved in, the
hotel, the cost and its parts
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from engine.models import ItineraryV1, format_usd

COST_PARTS = (("flights", "flights_usd_cents"), ("lodging", "lodging_usd_cents"),
              ("attractions", "attractions_usd_cents"), ("meals", "meals_usd_cents"),
              ("transit", "transit_usd_cents"), ("daily spend", "daily_spend_usd_cents"))


@dataclass(frozen=True)
class Booked:
    """One activity of a version: where it sits (0-based day, start) and what it is."""

    key: tuple[str, str]
    name: str
    day: int
    start: str


@dataclass(frozen=True)
class Moved:
    name: str
    from_day: int
    to_day: int
    from_start: str
    to_start: str


@dataclass
class DayDiff:
    day: int  # 0-based
    added: list[Booked] = field(default_factory=list)
    removed: list[Booked] = field(default_factory=list)
    moved_in: list[Moved] = field(default_factory=list)  # arrived on this day from another

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.moved_in)


@dataclass(frozen=True)
class ItineraryDiff:
    days: tuple[DayDiff, ...]  # only the days that changed, in order
    moved: tuple[Moved, ...]
    hotel_before: str | None
    hotel_after: str | None
    cost_delta_cents: int
    cost_parts: tuple[tuple[str, int], ...]  # (part, delta) for the parts that changed
    day_count_before: int
    day_count_after: int
    locks_lost: tuple[str, ...] = ()  # locked before, unlocked or gone now (a re-plan must say so)
    locks_added: tuple[str, ...] = ()

    @property
    def hotel_changed(self) -> bool:
        return self.hotel_before != self.hotel_after

    @property
    def unchanged(self) -> bool:
        return not self.days and not self.hotel_changed and not self.cost_delta_cents \
            and self.day_count_before == self.day_count_after and not self.locks_lost and not self.locks_added

    def lock_lines(self) -> list[str]:
        return ([f"Lock lost: {name}" for name in self.locks_lost]
                + [f"Locked: {name}" for name in self.locks_added])

    def lines(self) -> list[str]:
        """The diff as short sentences, hotel and cost first."""
        out: list[str] = []
        if self.day_count_before != self.day_count_after:
            out.append(f"Days: {self.day_count_before} \u2192 {self.day_count_after}")
        if self.hotel_changed:
            out.append(f"Hotel: {self.hotel_before or 'none'} \u2192 {self.hotel_after or 'none'}")
        parts = ", ".join(f"{name} {signed_usd(delta)}" for name, delta in self.cost_parts)
        out.append(f"Cost: {signed_usd(self.cost_delta_cents)}" + (f" ({parts})" if parts else ""))
        out.extend(self.lock_lines())
        for day in self.days:
            out.extend(f"Day {day.day + 1}: {text}" for text in day_lines(day))
        if self.unchanged:
            out.append("Nothing the traveller books changed.")
        return out


def day_lines(day: DayDiff) -> list[str]:
    lines = [f"+ {b.name} ({b.start})" for b in day.added]
    lines += [f"\u2212 {b.name} ({b.start})" for b in day.removed]
    lines += [f"\u21c4 {m.name} from day {m.from_day + 1} ({m.to_start})" for m in day.moved_in]
    return lines


def signed_usd(cents: int) -> str:
    if cents == 0:
        return "\u00b1$0"
    return ("+" if cents > 0 else "\u2212") + format_usd(abs(cents))


def booked(itinerary: ItineraryV1) -> list[Booked]:
    items = []
    for index, day in enumerate(itinerary.days):
        for a in day.activities:
            if a.role == "transfer" or (not a.role and a.kind.value == "transit"):
                continue
            items.append(Booked((a.role or a.kind.value, a.ref or a.name), a.name, index, a.window.start.strftime("%H:%M")))
    return items


def _match(before: list[Booked], after: list[Booked]):
    """(removed, added, moved): the same key on the same day first (a new start time there is
    no move: one swap shifts every later start), then on any day (a move)."""
    left: dict[tuple, list[Booked]] = defaultdict(list)
    for b in before:
        left[b.key].append(b)
    moved: list[Moved] = []
    pending = after
    for rule in (lambda o, n: o.day == n.day, lambda o, n: True):
        unmatched = []
        for new in pending:
            old = next((o for o in left[new.key] if rule(o, new)), None)
            if old is None:
                unmatched.append(new)
                continue
            left[new.key].remove(old)
            if old.day != new.day:
                moved.append(Moved(new.name, old.day, new.day, old.start, new.start))
        pending = unmatched
    removed = [o for olds in left.values() for o in olds]
    return removed, pending, moved


def _locked(itinerary: ItineraryV1) -> dict[tuple[str, str], str]:
    """What the traveller locked, by what it books (role and ref), with its name."""
    return {(a.role or a.kind.value, a.ref or a.name): a.name
            for d in itinerary.days for a in d.activities if a.locked}


def _hotel(itinerary: ItineraryV1) -> str | None:
    return next((a.name for d in itinerary.days for a in d.activities if a.role == "checkin"), None)


def diff_itineraries(before: ItineraryV1, after: ItineraryV1) -> ItineraryDiff:
    """What going from ``before`` to ``after`` changed, day by day, in the hotel and in cost."""
    removed, added, moved = _match(booked(before), booked(after))
    days: dict[int, DayDiff] = {}

    def day(index: int) -> DayDiff:
        return days.setdefault(index, DayDiff(index))

    for b in added:
        day(b.day).added.append(b)
    for b in removed:
        day(b.day).removed.append(b)
    for m in moved:
        day(m.to_day).moved_in.append(m)
    cb, ca = before.cost_breakdown, after.cost_breakdown
    parts = tuple((name, getattr(ca, attr) - getattr(cb, attr)) for name, attr in COST_PARTS
                  if getattr(ca, attr) != getattr(cb, attr))
    locked_before, locked_after = _locked(before), _locked(after)
    return ItineraryDiff(days=tuple(days[k] for k in sorted(days)), moved=tuple(moved),
                         locks_lost=tuple(name for key, name in locked_before.items() if key not in locked_after),
                         locks_added=tuple(name for key, name in locked_after.items() if key not in locked_before),
                         hotel_before=_hotel(before), hotel_after=_hotel(after),
                         cost_delta_cents=ca.total_usd_cents - cb.total_usd_cents, cost_parts=parts,
                         day_count_before=len(before.days), day_count_after=len(after.days))
