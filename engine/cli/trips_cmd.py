"""``tripwright trips list|show|delete``: the org's stored trips."""

from __future__ import annotations

import structlog

from engine.errors import InputError
from engine.models import format_usd

from .run_store import org_scope

log = structlog.get_logger("tripwright.cli")


def run_trips(args) -> int:
    with org_scope() as repo:
        if args.action == "list":
            trips = repo.trips.list()
            log.info("trips_listed", count=len(trips))
            for t in trips:
                print(f"{t.trip_id}  {t.mode:9}  v{t.version_count:<3} {t.updated_at:%Y-%m-%d %H:%M}  {t.name}")
            print(f"{len(trips)} trip(s)")
            return 0
        if not args.trip_id:
            raise InputError("trip_id", f"'trips {args.action}' needs a trip id (see 'tripwright trips list')")
        if args.action == "show":
            detail = repo.trips.open(args.trip_id)
            log.info("trip_shown", trip_id=detail.trip.trip_id, versions=len(detail.versions))
            print(f"{detail.trip.name} ({detail.trip.mode}), {len(detail.versions)} version(s)")
            for v in detail.versions:
                total = format_usd(v.total_usd_cents) if v.total_usd_cents is not None else "—"
                print(f"  v{v.number}  {v.created_at:%Y-%m-%d %H:%M}  {v.status:5}  {total:>12}  "
                      f"{v.day_count} days, {v.blocking_count} blocking, {v.advisory_count} advisory")
            return 0
        trip = repo.trips.delete(args.trip_id)
        log.info("trip_deleted", trip_id=trip.trip_id)
        print(f"deleted {trip.name} ({trip.trip_id}); its versions are kept for 90 days")
        return 0
