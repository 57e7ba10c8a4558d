"""What an edit changed between two itineraries: which days, the cost, the violations (Qt-free)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.models import ItineraryV1, format_usd


@dataclass(frozen=True)
class Change:
    days_changed: tuple[int, ...]  # 0-based
    cost_delta_cents: int
    violations_delta: int

    def text(self) -> str:
        """One line, e.g. ``"days 2, 3 changed · cost +$12.00 · violations −1"``."""
        if not self.days_changed:
            days = "no day changed"
        else:
            numbers = ", ".join(str(d + 1) for d in self.days_changed)
            days = f"day{'s' if len(self.days_changed) > 1 else ''} {numbers} changed"
        return f"{days} \u00b7 cost {signed_usd(self.cost_delta_cents)} \u00b7 violations {signed(self.violations_delta)}"


def describe_change(before: ItineraryV1 | None, after: ItineraryV1) -> Change:
    if before is None:
        return Change(tuple(range(len(after.days))), after.cost_breakdown.total_usd_cents, len(after.violations))
    changed = tuple(i for i in range(max(len(before.days), len(after.days)))
                    if _day_key(before, i) != _day_key(after, i))
    return Change(changed, after.cost_breakdown.total_usd_cents - before.cost_breakdown.total_usd_cents,
                  len(after.violations) - len(before.violations))


def _day_key(itinerary: ItineraryV1, index: int):
    if index >= len(itinerary.days):
        return None
    day = itinerary.days[index]
    anchor = day.anchor.name if day.anchor is not None else None
    return anchor, tuple((a.id, a.window.label(), a.locked) for a in day.activities if a.role != "transfer")


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "\u00b10"


def signed_usd(cents: int) -> str:
    if cents == 0:
        return "\u00b1$0"
    return ("+" if cents > 0 else "\u2212") + format_usd(abs(cents))
