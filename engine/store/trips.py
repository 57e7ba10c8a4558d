"""Trips: create, list, open, rename, soft-delete, restore — inside one org session.

Soft delete keeps the versions (undo, audit); retention purges a trip 90 days after deletion.
"""

from __future__ import annotations

from sqlalchemy import select, update

from ..errors import InputError
from . import audit
from .columns import utcnow
from .records import MAX_NAME, TripDetail, TripMode, TripSummary, Version, VersionSummary
from .schema import TRIP_MODES, AgentRun, ItineraryVersion, Trip, TripMember
from .tenancy import OrgContext, OrgSession

SUMMARY_COLUMNS = (ItineraryVersion.trip_id, ItineraryVersion.number, ItineraryVersion.status,
                   ItineraryVersion.total_usd_cents, ItineraryVersion.day_count,
                   ItineraryVersion.blocking_count, ItineraryVersion.advisory_count,
                   ItineraryVersion.run_id, ItineraryVersion.created_by, ItineraryVersion.created_at,
                   ItineraryVersion.note, ItineraryVersion.based_on)


def clean_name(name: str) -> str:
    """Names are free text (quotes, SQL, emoji are stored as-is, always parameterised); one line,
    no control characters (PostgreSQL cannot store NUL), bounded size."""
    if not isinstance(name, str) or not name.strip():
        raise InputError("name", "a trip needs a name")
    name = name.strip()
    if any(ord(c) < 32 and c not in "\t" for c in name):
        raise InputError("name", "a trip name is one line of printable text")
    if len(name) > MAX_NAME:
        raise InputError("name", f"a trip name is at most {MAX_NAME} characters")
    return name


def trip_summary(t: Trip) -> TripSummary:
    return TripSummary(trip_id=t.trip_id, name=t.name, mode=t.mode, created_by=t.created_by,  # type: ignore[arg-type]
                       created_at=t.created_at, updated_at=t.updated_at, deleted=t.deleted_at is not None,
                       version_count=t.version_count)


def version_summary(row) -> VersionSummary:  # noqa: ANN001 (a Row of SUMMARY_COLUMNS)
    return VersionSummary.model_validate(dict(row._mapping) | {"note": row.note or ""})


def version_record(v: ItineraryVersion) -> Version:
    """The version with its documents: the compressed columns (0004 on), else the JSON ones."""
    return Version(trip_id=v.trip_id, number=v.number, status=v.status, total_usd_cents=v.total_usd_cents,
                   day_count=v.day_count, blocking_count=v.blocking_count, advisory_count=v.advisory_count,
                   run_id=v.run_id, created_by=v.created_by, created_at=v.created_at, intent=v.intent,
                   itinerary=v.itinerary_z if v.itinerary_z is not None else v.itinerary,
                   repairs=list(v.repairs or []), llm_meta=dict(v.llm_meta or {}),
                   plan=v.plan_z if v.plan_z is not None else v.plan, note=v.note or "", based_on=v.based_on)


class Trips:
    def __init__(self, session: OrgSession, ctx: OrgContext) -> None:
        self._s = session
        self._ctx = ctx

    def create(self, name: str, mode: TripMode = "city") -> TripSummary:
        if mode not in TRIP_MODES:
            raise InputError("mode", f"a trip is one of {', '.join(TRIP_MODES)}")
        now = utcnow()
        trip = Trip(name=clean_name(name), mode=mode, created_by=self._ctx.user_id, created_at=now,
                    updated_at=now, version_count=0)
        self._s.add(trip)
        self._s.flush()
        self._s.add(TripMember(trip_id=trip.trip_id, user_id=self._ctx.user_id, role="owner"))
        self._audit(audit.TRIP_CREATED, trip.trip_id, mode=mode)
        return trip_summary(trip)

    def list(self, *, include_deleted: bool = False, limit: int | None = None) -> list[TripSummary]:
        """Most recently changed first."""
        stmt = select(Trip).order_by(Trip.updated_at.desc(), Trip.trip_id)
        if not include_deleted:
            stmt = stmt.where(Trip.deleted_at.is_(None))
        if limit:
            stmt = stmt.limit(limit)
        return [trip_summary(t) for t in self._s.scalars(stmt)]

    def get(self, trip_id: str, *, include_deleted: bool = False) -> TripSummary:
        return trip_summary(self.row(trip_id, include_deleted=include_deleted))

    def open(self, trip_id: str) -> TripDetail:
        trip = self.row(trip_id, include_deleted=True)
        rows = self._s.execute(select(*SUMMARY_COLUMNS).where(ItineraryVersion.trip_id == trip_id)
                               .order_by(ItineraryVersion.number)).all()
        latest = None
        if rows:
            latest_row = self._s.scalars(select(ItineraryVersion).where(
                ItineraryVersion.trip_id == trip_id, ItineraryVersion.number == rows[-1].number)).one()
            latest = version_record(latest_row)
        members = self._s.scalars(select(TripMember.user_id).where(TripMember.trip_id == trip_id)).all()
        return TripDetail(trip=trip_summary(trip), versions=[version_summary(r) for r in rows],
                          latest=latest, members=list(members))

    def rename(self, trip_id: str, name: str) -> TripSummary:
        trip = self.row(trip_id)
        old, trip.name, trip.updated_at = trip.name, clean_name(name), utcnow()
        self._audit(audit.TRIP_RENAMED, trip_id, old_name=old, new_name=trip.name)
        self._s.flush()
        return trip_summary(trip)

    def delete(self, trip_id: str) -> TripSummary:
        trip = self.row(trip_id)
        trip.deleted_at = utcnow()  # updated_at is the trip's last change; a delete undone keeps it
        self._audit(audit.TRIP_DELETED, trip_id, name=trip.name)
        self._s.flush()
        return trip_summary(trip)

    def restore(self, trip_id: str) -> TripSummary:
        trip = self.row(trip_id, include_deleted=True)
        trip.deleted_at = None
        self._audit("trip_restored", trip_id, name=trip.name)
        self._s.flush()
        return trip_summary(trip)

    def discard_if_empty(self, trip_id: str) -> bool:
        """Remove a trip that never got a version: a new trip whose first plan failed or was
        cancelled should not linger as an empty entry (nor pile up on retries). Its runs stay,
        detached, for diagnostics; the audit log keeps that it existed. Returns whether it went."""
        trip = self.row(trip_id, include_deleted=True)
        if trip.version_count:
            return False
        self._s.execute(update(AgentRun).where(AgentRun.trip_id == trip_id).values(trip_id=None)
                        .execution_options(synchronize_session=False))
        self._audit(audit.TRIP_DISCARDED, trip_id, name=trip.name)
        self._s.delete(trip)
        self._s.flush()
        return True

    def row(self, trip_id: str, *, include_deleted: bool = False) -> Trip:
        """The ORM row (store-internal): an unknown id and another org's id look the same."""
        trip = self._s.get(Trip, trip_id) if isinstance(trip_id, str) else None
        if trip is None or (trip.deleted_at is not None and not include_deleted):
            raise InputError("trip", f"no trip {trip_id!r} in this org")
        return trip

    def _audit(self, action: str, trip_id: str, **detail: object) -> None:
        audit.record(self._s, org_id=self._ctx.org_id, user_id=self._ctx.user_id, action=action,
                     target_type="trip", target_id=trip_id, **detail)
