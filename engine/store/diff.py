"""Comparing two saved itineraries (the version diff view): pure functions over their JSON.

Works on the stored documents rather than ``ItineraryV1`` so city and road-trip itineraries (and
versions saved by older builds) compare the same way: days are keyed by ``date`` (else position).
"""

from __future__ import annotations

from typing import Any

from .records import DayChange, VersionDiff


def _day_key(day: dict[str, Any], index: int) -> str:
    return str(day.get("date") or day.get("day") or f"day {index + 1}")


def _days(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {_day_key(d, i): d for i, d in enumerate(doc.get("days") or [])}


def _activity_names(day: dict[str, Any]) -> list[str]:
    return [f"{a.get('window', {}).get('start', '')} {a.get('name', '')}".strip()
            for a in day.get("activities") or []]


def _describe_change(old: dict[str, Any], new: dict[str, Any]) -> str:
    before, after = _activity_names(old), _activity_names(new)
    gone = [a for a in before if a not in after]
    came = [a for a in after if a not in before]
    parts = [f"+{a}" for a in came] + [f"-{a}" for a in gone]
    return "; ".join(parts) if parts else "details changed"


def _total(doc: dict[str, Any]) -> int | None:
    total = (doc.get("cost_breakdown") or {}).get("total_usd_cents")
    return total if isinstance(total, int) else None


def _violations(doc: dict[str, Any]) -> set[str]:
    return {f"{v.get('kind')}@{v.get('node_ref')}" for v in doc.get("violations") or []}


def diff_itineraries(trip_id: str, a_number: int, a: dict[str, Any], b_number: int,
                     b: dict[str, Any]) -> VersionDiff:
    """What changed going from version ``a`` to version ``b``."""
    old, new = _days(a), _days(b)
    changed = [DayChange(date=k, change="changed", detail=_describe_change(old[k], new[k]))
               for k in old if k in new and old[k] != new[k]]
    ta, tb = _total(a), _total(b)
    va, vb = _violations(a), _violations(b)
    return VersionDiff(trip_id=trip_id, from_number=a_number, to_number=b_number,
                       days_added=[k for k in new if k not in old], days_removed=[k for k in old if k not in new],
                       days_changed=changed, cost_delta_usd_cents=None if ta is None or tb is None else tb - ta,
                       violations_added=sorted(vb - va), violations_removed=sorted(va - vb))
