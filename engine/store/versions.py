"""Itinerary versions: immutable, numbered per trip, saved in one short transaction.

The number comes from ``UPDATE trip SET version_count = version_count + 1 ... RETURNING``: the
update takes the trip's write lock first, so two saves of the same trip can never pick the same
number (SQLite serialises writers; PostgreSQL row-locks), and a crash mid-save rolls back both.

LLM revisions (a version saved with a non-empty ``llm_meta``) are capped per trip at
``TRIPWRIGHT_MAX_VERSIONS`` (default 3, SPEC_DECISIONS §2.8); deterministic re-plans from map
edits are versions too but never capped. The cap is counted under the same trip lock, so two
revisions saved at once cannot both squeeze past it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ValidationError
from sqlalchemy import and_, select, update

from ..errors import InputError, VersionCapError
from ..models import PlanV1
from . import audit
from .columns import utcnow
from .diff import diff_itineraries
from .records import Version, VersionDiff, VersionLink, VersionSummary
from .schema import ItineraryVersion, Trip
from .tenancy import OrgContext, OrgSession
from .trips import SUMMARY_COLUMNS, Trips, version_record, version_summary


MAX_VERSIONS_ENV = "TRIPWRIGHT_MAX_VERSIONS"
DEFAULT_MAX_VERSIONS = 3
MAX_NOTE = 200


def max_llm_revisions() -> int:
    """The cap on LLM revisions per trip, read on each use so a changed setting applies at once."""
    raw = os.environ.get(MAX_VERSIONS_ENV, "").strip()
    if not raw:
        return DEFAULT_MAX_VERSIONS
    try:
        cap = int(raw)
    except ValueError:
        cap = -1
    if cap < 0:
        raise InputError(MAX_VERSIONS_ENV, f"expected a whole number of LLM revisions (0 or more), got {raw!r}")
    return cap


def _doc(value: Any, field: str) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if value is None or isinstance(value, (dict, list)):
        return value
    raise InputError(field, "expected a pydantic model or JSON data")


def _plan_doc(plan: Any) -> dict[str, Any] | None:
    """A PlanV1 (or its JSON, checked now: a plan that cannot be read back would leave the
    reopened trip uneditable) as JSON."""
    if plan is None or isinstance(plan, PlanV1):
        return plan.model_dump(mode="json") if plan is not None else None
    if not isinstance(plan, dict):
        raise InputError("plan", "expected a PlanV1 or its JSON")
    try:
        PlanV1.model_validate(plan)
    except ValidationError as exc:
        where = ".".join(str(p) for p in exc.errors()[0]["loc"])
        raise InputError("plan", f"not a PlanV1 ({where}: {exc.errors()[0]['msg']})") from None
    return plan


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
             repairs: Any = None, llm_meta: dict[str, Any] | None = None, run_id: str | None = None,
             plan: PlanV1 | dict[str, Any] | None = None, note: str = "",
             based_on: int | None = None) -> VersionSummary:
        """Store ``itinerary`` (ItineraryV1, a road-trip itinerary or its JSON) as the next version,
        with the ``plan`` (PlanV1) it came from so the trip can be edited again after reopening.
        ``based_on``: the number of the version it was made from (an edit after an undo starts
        from an older one; a reopened trip's undo history follows these links); by default the
        trip's latest. A non-empty ``llm_meta`` makes it an LLM revision: VersionCapError past the cap."""
        doc = _doc(itinerary, "itinerary")
        if not isinstance(doc, dict):
            raise InputError("itinerary", "expected an itinerary object")
        intent_doc = _doc(intent, "intent") if intent is not None else doc.get("intent")
        if not isinstance(intent_doc, dict):
            raise InputError("intent", "a version needs the intent it was planned from")
        plan_doc = _plan_doc(plan)
        _check_based_on(based_on)
        number = self._next_number(trip_id, llm=bool(llm_meta))
        # The documents go compressed into the *_z columns; the old NOT NULL JSON column gets {}.
        row = ItineraryVersion(trip_id=trip_id, number=number, intent=intent_doc, itinerary={}, itinerary_z=doc,
                               repairs=_doc(repairs, "repairs") if repairs is not None else doc.get("repairs") or [],
                               llm_meta=dict(llm_meta or {}), plan=None, plan_z=plan_doc, note=_note(note) or None,
                               run_id=run_id or doc.get("run_id") or None, based_on=_parent(based_on, number),
                               created_by=self._ctx.user_id, created_at=utcnow(), **_counts(doc))
        self._s.add(row)
        audit.record(self._s, org_id=self._ctx.org_id, user_id=self._ctx.user_id, action=audit.VERSION_SAVED,
                     target_type="trip", target_id=trip_id, number=number, **({"llm": True} if llm_meta else {}))
        self._s.flush()
        return VersionSummary(**{f: getattr(row, f) for f in VersionSummary.model_fields} | {"note": row.note or ""})

    def _next_number(self, trip_id: str, *, llm: bool) -> int:
        if not llm:
            return self._bump(trip_id)
        cap = max_llm_revisions()
        with self._s.begin_nested():  # a refused revision leaves version_count as it was
            number = self._bump(trip_id)  # holds the trip's write lock while we count
            if self._llm_count(trip_id) >= cap:
                raise VersionCapError(cap, MAX_VERSIONS_ENV)
        return number

    def _bump(self, trip_id: str) -> int:
        stmt = (update(Trip).where(Trip.trip_id == trip_id, Trip.deleted_at.is_(None))
                .values(version_count=Trip.version_count + 1, updated_at=utcnow())
                .returning(Trip.version_count).execution_options(synchronize_session=False))
        number = self._s.execute(stmt).scalar_one_or_none()
        if number is None:
            raise InputError("trip", f"no trip {trip_id!r} in this org")
        return number

    def _llm_count(self, trip_id: str) -> int:
        """LLM revisions saved so far (``llm_meta`` is JSON, so "non-empty" is judged here, the
        same way on SQLite and PostgreSQL; a trip has tens of versions, not thousands)."""
        metas = self._s.scalars(select(ItineraryVersion.llm_meta).where(ItineraryVersion.trip_id == trip_id))
        return sum(1 for meta in metas if meta)

    def llm_revisions_left(self, trip_id: str) -> int:
        """How many more LLM revisions the trip may have (0 when the cap is reached)."""
        Trips(self._s, self._ctx).row(trip_id)  # an unknown trip is an InputError, not "3 left"
        return max(max_llm_revisions() - self._llm_count(trip_id), 0)

    def list(self, trip_id: str) -> list[VersionSummary]:
        rows = self._s.execute(select(*SUMMARY_COLUMNS).where(ItineraryVersion.trip_id == trip_id)
                               .order_by(ItineraryVersion.number)).all()
        return [version_summary(r) for r in rows]

    def links(self, trip_id: str) -> list[VersionLink]:
        """Number, parent link and note of every version (oldest first): what a reopened trip's
        undo history is built from. One covering index answers it without reading the rows."""
        rows = self._s.execute(select(ItineraryVersion.number, ItineraryVersion.based_on, ItineraryVersion.note)
                               .where(ItineraryVersion.trip_id == trip_id).order_by(ItineraryVersion.number))
        return [VersionLink(number=r.number, based_on=r.based_on, note=r.note or "") for r in rows]

    def latest_summaries(self, trip_ids: Iterable[str]) -> dict[str, VersionSummary]:
        """The latest version of each trip (the trip list's totals) in one query: the latest
        number is the trip's ``version_count``."""
        ids = list(trip_ids)
        if not ids:
            return {}
        latest = and_(Trip.trip_id == ItineraryVersion.trip_id, Trip.version_count == ItineraryVersion.number)
        stmt = select(*SUMMARY_COLUMNS).join(Trip, latest).where(ItineraryVersion.trip_id.in_(ids))
        return {r.trip_id: version_summary(r) for r in self._s.execute(stmt).all()}

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


def _check_based_on(based_on: Any) -> None:
    if based_on is not None and (isinstance(based_on, bool) or not isinstance(based_on, int) or based_on < 1):
        raise InputError("based_on", f"expected a version number (1 or more), got {based_on!r}")


def _parent(based_on: int | None, number: int) -> int | None:
    """The version a new one (``number``) was made from: an earlier one of the same trip. Numbers
    run 1..version_count without gaps (versions are never deleted alone), so "earlier" is enough."""
    if based_on is None:
        return number - 1 or None
    if based_on >= number:
        raise InputError("based_on", f"version {based_on} is not an earlier version of this trip "
                                     f"(the new one is version {number})")
    return based_on


def _note(note: str) -> str:
    """One line of text, bounded (it is a label in the undo history, not a document)."""
    if not isinstance(note, str):
        raise InputError("note", "a version note is text")
    line = " ".join(note.split())
    if len(line) > MAX_NOTE:
        raise InputError("note", f"a version note is at most {MAX_NOTE} characters")
    return line
