"""``tripwright trips list|show|delete``: the org's stored trips. ``list`` on the personal SQLite
file reads its rows with the standard library (engine/store/trip_rows.py) when the full open would
only read, so it loads neither SQLAlchemy nor the models; otherwise it opens the store as the rest do."""

from __future__ import annotations

import os

import structlog

from engine.errors import InputError

log = structlog.get_logger("tripwright.cli")


def run_trips(args) -> int:
    if args.action == "list" and (trips := _quick_list()) is not None:
        return _print_list(trips)
    from engine.models import format_usd

    from .run_store import org_scope
    with org_scope() as repo:
        if args.action == "list":
            return _print_list(repo.trips.list())
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


def _quick_list():
    """The personal file's trips without opening the store (None: open it)."""
    if os.environ.get("TRIPWRIGHT_DATABASE_URL"):
        return None
    from engine.store.sqlite_file import default_path
    from engine.store.trip_rows import personal_trips
    return personal_trips(default_path())


def _print_list(trips) -> int:  # noqa: ANN001 (TripSummary or TripRow: the same five fields)
    log.info("trips_listed", count=len(trips))
    for t in trips:
        print(f"{t.trip_id}  {t.mode:9}  v{t.version_count:<3} {t.updated_at:%Y-%m-%d %H:%M}  {t.name}")
    print(f"{len(trips)} trip(s)")
    return 0
