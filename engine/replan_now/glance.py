"""What a re-plan from now changed, in one line a traveller reads at a glance:
"Musée du Louvre moved to Thu 09:30; Musée d'Orsay replaces Musée Carnavalet today at 14:50;
Le Procope now at 13:20; the rest unchanged". Built on ``engine/itinerary_diff.py`` (what is the
same booking, what moved days) plus the times that changed on the same day, which that diff
leaves out on purpose (a version diff) but a traveller on the day needs."""

from __future__ import annotations

from engine.itinerary_diff import booked, diff_itineraries
from engine.models import ItineraryV1

from .past import Moment

MAX_RETIMED = 4


def when(day: int, start: str, at: Moment, itinerary: ItineraryV1) -> str:
    if day == at.day:
        return f"today at {start}"
    if day == at.day + 1:
        return f"tomorrow at {start}"
    return f"{itinerary.days[day].date:%a} {start}"


def at_a_glance(before: ItineraryV1, after: ItineraryV1, at: Moment) -> str:
    diff = diff_itineraries(before, after)
    parts = [f"{m.name} moved to {when(m.to_day, m.to_start, at, after)}" for m in diff.moved]
    for day in diff.days:
        removed = sorted(day.removed, key=lambda b: b.start)
        added = sorted(day.added, key=lambda b: b.start)
        for group in dict.fromkeys(_group(b) for b in (*removed, *added)):  # a visit for a visit, a flight for a flight
            gone = [b for b in removed if _group(b) == group]
            came = [b for b in added if _group(b) == group]
            for old, new in zip(gone, came):
                parts.append(f"{new.name} replaces {old.name} {when(new.day, new.start, at, after)}")
            parts += [f"{old.name} dropped ({when(old.day, old.start, at, before)})" for old in gone[len(came):]]
            parts += [f"{new.name} added {when(new.day, new.start, at, after)}" for new in came[len(gone):]]
    retimed = _retimed(before, after)
    parts += [f"{name} now {span}" for name, span in retimed[:MAX_RETIMED]]
    if len(retimed) > MAX_RETIMED:
        parts.append(f"{len(retimed) - MAX_RETIMED} more retimed")
    if not parts:
        return "Nothing changed: the plan from now on still holds."
    return "; ".join(parts) + "; the rest unchanged."


def _group(b) -> str:
    """What may stand in for what in the one line: a visit or meal for another, else the same role."""
    return "visit" if b.key[0] in ("activity", "meal", "attraction") else b.key[0]


def _retimed(before: ItineraryV1, after: ItineraryV1) -> list[tuple[str, str]]:
    """(name, "at 14:20-15:50" | "lands 13:50") of each booking kept on its day at another time (a flight: landing
    or leaving time), in plan order."""
    def spans(itin: ItineraryV1) -> dict[tuple, str]:
        out = {}
        for di, day in enumerate(itin.days):
            for a in day.activities:
                if a.role in ("transfer", "omitted") or (not a.role and a.kind.value == "transit"):
                    continue
                span = (f"lands {a.window.end:%H:%M}" if a.role == "arrival" else
                        f"leaves {a.window.start:%H:%M}" if a.role == "departure" else f"at {a.window.label()}")
                out.setdefault((a.role or a.kind.value, a.ref or a.name, di), span)
        return out
    old, new = spans(before), spans(after)
    names = {(b.key[0], b.key[1], b.day): b.name for b in booked(after)}
    return [(names.get(k, k[1]), span) for k, span in new.items() if k in old and old[k] != span]


__all__ = ["at_a_glance", "when"]
