"""Itinerary versions: immutable, numbered per trip, saved in one short transaction.

The number comes from ``UPDATE trip SET version_count = version_count + 1 ... RETURNING``: the
update takes the trip's write lock first, so two saves of the same trip can never pick the same
number (SQLite serialises writers; PostgreSQL row-locks), and a crash mid-save rolls back both.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from sqlalchemy import select, update

from ..errors import InputError
from . import audit
from .columns import utcnow
from .diff import diff_itineraries
from .records import Version, VersionDiff, VersionSummary
from .schema import ItineraryVersion, Trip
from .tenancy import OrgContext, OrgSession
from .trips import SUMMARY_COLUMNS, version_record, version_summary


def _doc(value: Any, field: str) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if value is None or isinstance(value, (dict, list)):
        return value
    raise InputError(field, "expected a pydantic model or JSON data")


def _counts(doc: dict[str, Any]) -> dict[str, Any]:
    violations = doc.get("violations") or []
    blocking = sum(1 for v in violations if isinstance(v, dict) and v.get("blocking"))
    total = (doc.get("cost_breakdown") or {}).get("total_usd_cents")
    return {"status": str(doc.get("status") or "ok")[:16], "day_count": len(doc.get("days") or []),
            "total_usd_cents": total if isinstance(total, int) else None,
            "blocking_count": blocking, "advisory_count": len(violations) - blocking}


class Versions:
    def __init__(self, session: OrgSession, ctx: OrgContext) -> None:
        self._s = session
        self._ctx = ctx

    def save(self, trip_id: str, itinerary: BaseModel | dict[str, Any], *, intent: Any = None,
             repairs: Any = None, llm_meta: dict[str, Any] | None = None, run_id: str | None = None) -> VersionSummary:
        """Store ``itinerary`` (ItineraryV1, a road-trip itinerary or its JSON) as the next version."""
        doc = _doc(itinerary, "itinerary")
        if not isinstance(doc, dict):
            raise InputError("itinerary", "expected an itinerary object")
        intent_doc = _doc(intent, "intent") if intent is not None else doc.get("intent")
        if not isinstance(intent_doc, dict):
            raise InputError("intent", "a version needs the intent it was planned from")
        number = self._next_number(trip_id)
        row = ItineraryVersion(trip_id=trip_id, number=number, intent=intent_doc, itinerary=doc,
                               repairs=_doc(repairs, "repairs") if repairs is not None else doc.get("repairs") or [],
                               llm_meta=dict(llm_meta or {}), run_id=run_id or doc.get("run_id") or None,
                               created_by=self._ctx.user_id, created_at=utcnow(), **_counts(doc))
        self._s.add(row)
        audit.record(self._s, org_id=self._ctx.org_id, user_id=self._ctx.user_id, action=audit.VERSION_SAVED,
                     target_type="trip", target_id=trip_id, number=number)
        self._s.flush()
        return VersionSummary(**{f: getattr(row, f) for f in VersionSummary.model_fields})

    def _next_number(self, trip_id: str) -> int:
        stmt = (update(Trip).where(Trip.trip_id == trip_id, Trip.deleted_at.is_(None))
                .values(version_count=Trip.version_count + 1, updated_at=utcnow())
                .returning(Trip.version_count).execution_options(synchronize_session=False))
        number = self._s.execute(stmt).scalar_one_or_none()
        if number is None:
            raise InputError("trip", f"no trip {trip_id!r} in this org")
        return number

    def list(self, trip_id: str) -> list[VersionSummary]:
        rows = self._s.execute(select(*SUMMARY_COLUMNS).where(ItineraryVersion.trip_id == trip_id)
                               .order_by(ItineraryVersion.number)).all()
        return [version_summary(r) for r in rows]

    def get(self, trip_id: str, number: int | None = None) -> Version:
        """Version ``number`` of the trip, or its latest when ``number`` is None."""
        stmt = select(ItineraryVersion).where(ItineraryVersion.trip_id == trip_id)
        stmt = (stmt.where(ItineraryVersion.number == number) if number is not None
                else stmt.order_by(ItineraryVersion.number.desc()).limit(1))
        row = self._s.scalars(stmt).first()
        if row is None:
            what = f"version {number}" if number is not None else "any version"
            raise InputError("version", f"trip {trip_id!r} has no {what} in this org")
        return version_record(row)

    def diff(self, trip_id: str, a: int, b: int) -> VersionDiff:
        va, vb = self.get(trip_id, a), self.get(trip_id, b)
        return diff_itineraries(trip_id, a, va.itinerary, b, vb.itinerary)
