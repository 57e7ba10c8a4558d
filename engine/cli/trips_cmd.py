"""``tripwright trips list|show|delete`` and ``plan --save``: the org-scoped store from the CLI."""

from __future__ import annotations

import sys
from contextlib import contextmanager

from engine.errors import InputError
from engine.models import format_usd


@contextmanager
def org_scope():
    """The signed-in org: the personal user on a local file, else a remembered login."""
    from engine.store import Accounts, Store
    store = Store.open()
    try:
        accounts = Accounts(store)
        ctx = accounts.first_run()
        if ctx is None:
            login = accounts.resume()
            if login is None:
                raise InputError("login", "this database needs a sign-in: open the app once and choose "
                                          "'remember me', then run the command again")
            ctx = login.ctx
        with store.org(ctx) as repo:
            yield repo
    finally:
        store.close()


def run_trips(args) -> int:
    with org_scope() as repo:
        if args.action == "list":
            trips = repo.trips.list()
            for t in trips:
                print(f"{t.trip_id}  {t.mode:9}  v{t.version_count:<3} {t.updated_at:%Y-%m-%d %H:%M}  {t.name}")
            print(f"{len(trips)} trip(s)")
            return 0
        if not args.trip_id:
            raise InputError("trip_id", f"'trips {args.action}' needs a trip id (see 'tripwright trips list')")
        if args.action == "show":
            detail = repo.trips.open(args.trip_id)
            print(f"{detail.trip.name} ({detail.trip.mode}), {len(detail.versions)} version(s)")
            for v in detail.versions:
                total = format_usd(v.total_usd_cents) if v.total_usd_cents is not None else "—"
                print(f"  v{v.number}  {v.created_at:%Y-%m-%d %H:%M}  {v.status:5}  {total:>12}  "
                      f"{v.day_count} days, {v.blocking_count} blocking, {v.advisory_count} advisory")
            return 0
        trip = repo.trips.delete(args.trip_id)
        print(f"deleted {trip.name} ({trip.trip_id}); its versions are kept for 90 days")
        return 0


def save_result(result, intent, *, trip_id: str | None, name: str | None) -> str:
    """Store a plan as a new version of ``trip_id`` (or of a new trip named ``name``)."""
    with org_scope() as repo:
        if trip_id is None:
            mode = "road_trip" if intent.mode == "road_trip" else "city"
            default = intent.city if intent.mode == "city" else f"{intent.origin} → {intent.terminus}"
            trip_id = repo.trips.create(name or default, mode=mode).trip_id
        repo.runs.record_result(result, intent=intent, trip_id=trip_id)
        if result.itinerary is not None:
            version = repo.versions.save(trip_id, result.itinerary, intent=intent, run_id=result.run_id)
            print(f"saved as version {version.number} of trip {trip_id}", file=sys.stderr)
    return trip_id
