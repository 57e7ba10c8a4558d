"""The app's link to the trip store: who is signed in, the org's trips, and the open trip's
versions going to and coming from the database.

Qt-free and synchronous on purpose: every method is a short transaction, and the window calls
them through ``asyncio.to_thread`` so the GUI thread never waits on SQLite, PostgreSQL or
Argon2. Nothing here keeps a Session between calls (``Store.org`` opens one per call), so any
thread may call any method.

Start-up (``Workspace.start``): open the store (check, back up, migrate), prune what the
retention policy says is old (``TripLibrary`` prunes again daily while the app runs), sign in
without a prompt when the store allows it (first run's personal user, or a remembered login from
the keyring), and, once signed in, mark runs left ``running`` by a killed process as failed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import structlog
from pydantic import TypeAdapter

from engine.errors import InputError, StoreError
from engine.atomic import write_atomic
from engine.models import AnyIntent, ItineraryV1, StreamEvent
from engine.store import Store
from engine.store.accounts import Accounts, Identity, Login
from engine.store.lineage import undo_line
from engine.store.recorder import PlanRecorder
from engine.store.records import RunStatus, TripSummary, Version, VersionSummary
from engine.store.retention import PruneReport, prune
from engine.store.secret_store import SecretStore
from engine.store.sqlite_file import data_dir
from engine.store.tenancy import OrgContext

from .trip_session import RunSummary, TripSession, TripVersion, UnloadedVersion

log = structlog.get_logger("tripwright.app.workspace")
SESSION_FILE = "open-trip-{database}.json"  # one per database: a team server and the local file apart
_INTENT = TypeAdapter(AnyIntent)


@dataclass(frozen=True)
class TripListing:
    trips: list[TripSummary]
    latest: dict[str, VersionSummary] = field(default_factory=dict)


@dataclass(frozen=True)
class OpenedTrip:
    summary: TripSummary
    session: TripSession
    numbers: list[int]  # the store's version number of each session version (the undo line), in order


class Workspace:
    def __init__(self, store: Store, accounts: Accounts | None = None) -> None:
        self.store = store
        self.accounts = accounts or Accounts(store)
        self.ctx: OrgContext | None = None
        self.recorder: PlanRecorder | None = None
        self.identity: Identity | None = None
        self.keyring_warning: str | None = None
        self.can_sign_out = False
        self.maintenance: str = ""

    # -- start-up and accounts -----------------------------------------------------------------
    @classmethod
    def start(cls, url: str | None = None, secrets: SecretStore | None = None) -> "Workspace":
        """Open the store and sign in without a prompt when possible (``ctx`` stays None when a
        login is needed). Raises StoreError (one line) when the database cannot be used."""
        store = Store.open(url)
        workspace = cls(store, Accounts(store, secrets))
        try:
            workspace.prune()  # at start-up, signed in or not; then daily (TripLibrary)
            ctx = workspace.accounts.first_run()
            if ctx is not None:
                workspace.sign_in(Login(ctx))
            else:
                remembered = workspace.accounts.resume()
                if remembered is not None:
                    workspace.sign_in(remembered)
        except BaseException:
            workspace.close()
            raise
        return workspace

    @property
    def signed_in(self) -> bool:
        return self.ctx is not None

    def sign_in(self, login: Login) -> None:
        self.ctx = login.ctx
        self.recorder = PlanRecorder(self.store, login.ctx)
        self.keyring_warning = login.keyring_warning
        self.identity = self.accounts.identity(login.ctx)
        # Signing out makes sense only for accounts that can sign in again with a password.
        self.can_sign_out = not self.store.is_sqlite or self.accounts.first_run() is None
        self.maintenance = self._maintain(login.ctx)

    def sign_out(self) -> None:
        if self.ctx is not None:
            self.accounts.logout(self.ctx)
        self.ctx, self.identity, self.recorder = None, None, None

    def _maintain(self, ctx: OrgContext) -> str:
        """Runs a killed process left ``running`` become errors."""
        with self.store.org(ctx) as scope:
            orphans = scope.runs.fail_orphans()
        log.info("store_maintenance", orphaned_runs=orphans)
        return f"{orphans} interrupted run(s) marked failed" if orphans else ""

    def prune(self) -> PruneReport:
        """The retention policy (``engine.store.retention``): old logs, runs, keys and purged trips."""
        report = prune(self.store)
        log.info("store_pruned", pruned=str(report))
        return report

    def _scope(self):
        if self.ctx is None:
            raise StoreError("sign in to use saved trips")
        return self.store.org(self.ctx)

    # -- trips ------------------------------------------------------------------------------
    def list_trips(self) -> TripListing:
        with self._scope() as scope:
            trips = scope.trips.list()
            latest = scope.versions.latest_summaries([t.trip_id for t in trips])
        return TripListing(trips, latest)

    def rename(self, trip_id: str, name: str) -> TripSummary:
        with self._scope() as scope:
            return scope.trips.rename(trip_id, name)

    def delete(self, trip_id: str) -> TripSummary:
        with self._scope() as scope:
            return scope.trips.delete(trip_id)

    def restore(self, trip_id: str) -> TripSummary:
        with self._scope() as scope:
            return scope.trips.restore(trip_id)

    def open_trip(self, trip_id: str, number: int | None = None) -> OpenedTrip:
        """The trip's undo history as the user had it with version ``number`` shown (the latest
        when None or unknown): the versions it was made from, and those an undo stepped back
        over (``engine.store.lineage``). Only the shown version is read in full, with its run's
        events (while retention keeps them); the others are labels until :meth:`load_version`."""
        with self._scope() as scope:
            summary = scope.trips.get(trip_id)
            stored = scope.versions.links(trip_id)
            numbers, pointer = undo_line(stored, number)
            shown = scope.versions.get(trip_id, numbers[pointer]) if numbers else None
            events = _replay(scope, shown.run_id) if shown is not None and shown.run_id else ()
        labels = {v.number: v.note or f"Version {v.number}" for v in stored}
        session = TripSession(versions=[UnloadedVersion(n, labels[n]) for n in numbers], pointer=pointer,
                              trip_id=summary.trip_id, name=summary.name, stored_count=summary.version_count)
        if shown is not None:
            session.versions[pointer] = trip_version(shown, events)
        return OpenedTrip(summary, session, numbers)

    def last_run(self, trip_id: str) -> tuple[RunStatus, datetime | None] | None:
        """The trip's latest run and when it last reported progress (None: never planned here)."""
        with self._scope() as scope:
            run = scope.runs.latest(trip_id)
            return (run, scope.runs.last_event_at(run.run_id)) if run is not None else None

    def load_version(self, trip_id: str, number: int) -> TripVersion:
        """One stored version in full, with its run's events (undo/redo reached it)."""
        with self._scope() as scope:
            version = scope.versions.get(trip_id, number)
            events = _replay(scope, version.run_id) if version.run_id else ()
        return trip_version(version, events)

    def audit(self, action: str, **detail: Any) -> None:
        if self.ctx is not None:
            with self.store.org(self.ctx) as scope:
                scope.audit(action, **detail)

    # -- the trip open when the app closed --------------------------------------------------------
    def remember_open(self, trip_id: str | None, number: int | None) -> None:
        """Written on every change of the shown version, so even a killed app reopens it."""
        doc = {"database": self.store.identity, "org_id": self.ctx.org_id if self.ctx else None,
               "trip_id": trip_id, "version": number}
        try:
            write_atomic(self._session_path(), json.dumps(doc))
        except OSError as exc:  # a read-only data dir: the store said so already at start
            log.warning("open_trip_not_remembered", error=str(exc))

    def last_open(self) -> tuple[str, int | None] | None:
        """(trip_id, shown version number) of this database and org, if any."""
        try:
            doc = json.loads(self._session_path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(doc, dict) or self.ctx is None:
            return None
        if doc.get("database") != self.store.identity or doc.get("org_id") != self.ctx.org_id:
            return None
        trip_id, number = doc.get("trip_id"), doc.get("version")
        if not isinstance(trip_id, str) or not trip_id:
            return None
        return trip_id, number if isinstance(number, int) else None

    def _session_path(self) -> Path:
        return data_dir() / SESSION_FILE.format(database=self.store.identity)

    def close(self) -> None:
        self.store.close()


def trip_version(version: Version, events: tuple[StreamEvent, ...] | list[StreamEvent] = ()) -> TripVersion:
    """A stored version as the app's TripVersion (the intent by its mode, the plan when kept)."""
    itinerary = ItineraryV1.model_validate(version.itinerary)
    summary = RunSummary(run_id=version.run_id or "", status="completed", events=len(events),
                         total_usd_cents=itinerary.cost_breakdown.total_usd_cents,
                         violations=len(itinerary.violations), reuse=0.0)
    return TripVersion(intent=_INTENT.validate_python(version.intent), itinerary=itinerary,
                       plan=version.plan_v1(), summary=summary, edit=version.note or f"Version {version.number}",
                       number=version.number,
                       events=tuple(events))


def _replay(scope, run_id: str) -> tuple[StreamEvent, ...]:
    try:
        return tuple(scope.runs.replay(run_id))
    except InputError:  # pruned after 30 days: the version stays, its events go
        return ()

