"""Org scoping by construction: one Session per org context, filtered and stamped automatically.

Why each guard exists (docs/PLATFORM_NOTES.md: the global criteria alone are not enough):
- ``do_orm_execute`` adds ``org_id = :org`` to every ORM SELECT/UPDATE/DELETE of an
  :class:`OrgScoped` class (and of ``Org``: a session sees its own org only), aliases and joins
  included, after grouping the user's WHERE so ``OR`` cannot outrank it; ``org_statements``
  refuses what the criteria cannot cover (raw SQL statements and FROMs, ``table()``, Core
  tables, statements the ORM does not compile, ``from_statement``, ORM bulk INSERT), and bulk
  UPDATE/DELETE of immutable rows or DELETE of trips.
- ``before_flush`` stamps ``org_id`` on new rows and rejects rows of another org, edits and
  deletes of immutable rows (versions, audit), deleting a trip that has versions (the database
  would cascade them away) and org changes.
- the ``load`` hook and :meth:`OrgSession.get` re-check every object handed out.
- the org is fixed for the session's life: kept outside ``session.info`` (whose org keys are
  read-only), and the session's ``bind`` connects for the session itself only, never for a caller
  (``session.bind.connect()`` would be an unscoped connection).
- no context, no access: a session without an org raises :class:`TenancyError` (fail closed).
The *system* session (first run, login lookup, retention) is the one deliberate exception and
lives only inside ``engine/store``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, event, inspect, select
from sqlalchemy.orm import ORMExecuteState, Session, with_loader_criteria
from sqlalchemy.sql.elements import TextClause

from ..errors import StoreError, TenancyError
from .org_statements import grouped_criteria, refuse_unscoped
from .schema import AuditEntry, ItineraryVersion, Org, OrgScoped, Trip

ORG_KEY = "tripwright.org_id"
SYSTEM_KEY = "tripwright.system"
IMMUTABLE = (ItineraryVersion, AuditEntry)


@dataclass(frozen=True)
class OrgContext:
    """Who is acting and in which org; every repository call needs one."""

    org_id: str
    user_id: str

    def __post_init__(self) -> None:
        if not self.org_id or not self.user_id:
            raise TenancyError("an org context needs both an org and a user")


class _ReadOnlyOrgInfo(dict):
    """``session.info`` of an org session: free for callers, except the org keys (informational
    copies; the session's org lives outside ``info``)."""

    def _refuse(self, key: Any) -> None:
        if key in (ORG_KEY, SYSTEM_KEY):
            raise TenancyError("a session's org cannot be changed: open a session for the other org")

    def __setitem__(self, key: Any, value: Any) -> None:
        self._refuse(key)
        super().__setitem__(key, value)

    def __delitem__(self, key: Any) -> None:
        self._refuse(key)
        super().__delitem__(key)

    def pop(self, key: Any, *default: Any) -> Any:
        self._refuse(key)
        return super().pop(key, *default)

    def update(self, *args: Any, **kw: Any) -> None:
        for key in dict(*args, **kw):
            self._refuse(key)
        super().update(*args, **kw)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        self._refuse(key)
        return super().setdefault(key, default)

    def clear(self) -> None:
        self._refuse(ORG_KEY)

    def popitem(self) -> Any:
        self._refuse(ORG_KEY)


class _SessionOnlyBind:
    """An org session's ``bind``: the engine's ``connect`` for the session's own transaction,
    opened once in :meth:`OrgSession.begin`; anyone else asking gets a TenancyError (an unscoped
    Connection runs any SQL). The dialect is public: the ORM reads it."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._opening = False

    @property
    def dialect(self) -> Any:
        return self._engine.dialect

    # The session files its connection under the engine: the bind must find it there.
    def __hash__(self) -> int:
        return hash(self._engine)

    def __eq__(self, other: object) -> bool:
        return other is self or other is self._engine

    def connect(self) -> Any:
        if not self._opening:
            raise TenancyError("an org session does not hand out its engine or connections")
        return self._engine.connect()


FIXED = ("org", "_org_id", "_system")


class OrgSession(Session):
    """A Session bound to one org for its whole life (never switch it: open another)."""

    def __init__(self, bind: Engine, org: OrgContext | None, *, system: bool = False) -> None:
        gated = None if system else _SessionOnlyBind(bind)
        super().__init__(bind=gated or bind, expire_on_commit=False, autoflush=True, autobegin=system)
        object.__setattr__(self, "org", org)
        object.__setattr__(self, "_org_id", org.org_id if org else None)
        object.__setattr__(self, "_system", system)
        object.__setattr__(self, "_gated", gated)
        info = _ReadOnlyOrgInfo()
        dict.update(info, {ORG_KEY: self._org_id, SYSTEM_KEY: system})
        self.__dict__["info"] = info

    def __setattr__(self, name: str, value: Any) -> None:
        if name in FIXED and name in self.__dict__:
            raise TenancyError("a session's org cannot be changed: open a session for the other org")
        super().__setattr__(name, value)

    def begin(self, nested: bool = False) -> Any:  # type: ignore[override]
        """Org sessions begin explicitly (no autobegin) and take their connection here, once:
        afterwards the bind refuses every ``connect``."""
        transaction = super().begin(nested=nested)
        if not nested and self._gated is not None:
            self._gated._opening = True
            try:
                Session.connection(self)
            finally:
                self._gated._opening = False
        return transaction

    def connection(self, *args: Any, **kw: Any) -> Any:  # type: ignore[override]
        """The raw Connection would run any SQL unscoped: only the system session may have it."""
        if not self._system:
            raise TenancyError("an org session does not hand out its raw connection")
        return super().connection(*args, **kw)

    def get(self, entity: Any, ident: Any, **kw: Any) -> Any:  # type: ignore[override]
        obj = super().get(entity, ident, **kw)
        if obj is not None:
            _check_row(self, obj)
        return obj


def _session_org(session: Session) -> str | None:
    if getattr(session, "_system", False):
        return None
    org = getattr(session, "_org_id", None)
    if not org:
        raise TenancyError("no org context: open a session with Store.org(ctx)")
    return org


def _check_row(session: Session, obj: Any) -> None:
    if getattr(session, "_system", False) or not isinstance(obj, (OrgScoped, Org)):
        return
    if obj.org_id != _session_org(session):
        from engine.metrics import METRICS
        METRICS.cross_org_reads.inc()  # seed §9: alert when above 0
        raise TenancyError(f"a {type(obj).__name__} row of another org reached this session")


@event.listens_for(OrgSession, "do_orm_execute")
def _scope_statement(state: ORMExecuteState) -> None:
    org = _session_org(state.session)
    if org is None:  # system session
        return
    stmt = state.statement
    if isinstance(stmt, TextClause):
        raise TenancyError("raw SQL (text()) cannot be org-scoped; use the repositories")
    refuse_unscoped(stmt, orm_compiled=state.is_orm_statement)
    if not state.is_orm_statement:
        return  # no org table involved (e.g. SELECT 1)
    if state.is_from_statement:
        raise TenancyError("from_statement() bypasses org scoping")
    if state.is_insert:
        _check_bulk_insert(state, org)
        return
    if state.is_column_load or state.is_relationship_load:
        return  # refreshing an object already checked on load
    _refuse_bulk_history_change(state)
    state.statement = grouped_criteria(stmt).options(
        with_loader_criteria(OrgScoped, lambda cls: cls.org_id == org, include_aliases=True),
        with_loader_criteria(Org, lambda cls: cls.org_id == org, include_aliases=True))


def _check_bulk_insert(state: ORMExecuteState, org: str) -> None:
    """An ORM bulk INSERT skips ``before_flush``'s stamping, so it is taken only in one shape: rows
    of values passed to ``session.execute(insert(Model), rows)`` for an org-scoped model, every
    row naming this session's org (a large import stamps its rows itself). Values written into the
    statement, INSERT … SELECT, and a row with no org or another org's are refused."""
    stmt, rows = state.statement, state.parameters
    target = state.bind_mapper.class_ if state.bind_mapper is not None else None
    inline = (getattr(stmt, "_values", None) or getattr(stmt, "_multi_values", None)
              or getattr(stmt, "select", None) is not None)
    if target is None or not issubclass(target, OrgScoped) or inline or not isinstance(rows, list) or not rows:
        raise TenancyError("ORM bulk INSERT bypasses org stamping; use session.add() or rows that name the org")
    if any(not isinstance(row, dict) or row.get("org_id") != org for row in rows):
        raise TenancyError(f"a bulk INSERT of {target.__name__} rows names no org or another org")


def _refuse_bulk_history_change(state: ORMExecuteState) -> None:
    """Bulk UPDATE/DELETE never touches history: versions and the audit log are immutable, and
    a trip is soft-deleted (a hard DELETE would cascade its versions away)."""
    if not (state.is_update or state.is_delete) or state.bind_mapper is None:
        return
    target = state.bind_mapper.class_
    if issubclass(target, IMMUTABLE):
        raise StoreError(f"{target.__name__} rows are immutable; save a new version instead")
    if state.is_delete and issubclass(target, Trip):
        raise StoreError("trips are deleted with Trips.delete (soft delete), never in bulk")


@event.listens_for(OrgSession, "before_flush")
def _stamp_and_guard(session: Session, _ctx: Any, _instances: Any) -> None:
    org = _session_org(session)
    for obj in session.new:
        _guard_new(obj, org)
    for obj in session.dirty:
        if session.is_modified(obj, include_collections=False):
            _guard_changed(obj, org)
    for obj in session.deleted:
        _guard_deleted(session, obj, org)


def _guard_deleted(session: Session, obj: Any, org: str | None) -> None:
    if isinstance(obj, AuditEntry):
        raise StoreError("the audit log is append-only")
    if isinstance(obj, ItineraryVersion):
        raise StoreError("ItineraryVersion rows are immutable; versions go only with their purged trip")
    if isinstance(obj, Trip) and org is not None and _has_versions(session, obj.trip_id):
        raise StoreError("a trip with versions is soft-deleted (Trips.delete), never removed")
    _check_owner(obj, org)


def _has_versions(session: Session, trip_id: str) -> bool:
    with session.no_autoflush:
        found = session.execute(select(ItineraryVersion.version_id).where(ItineraryVersion.trip_id == trip_id)
                                .limit(1)).first()
    return found is not None


def _guard_new(obj: Any, org: str | None) -> None:
    if isinstance(obj, Org) and org is not None:
        raise TenancyError("only the account service creates orgs")
    if not isinstance(obj, OrgScoped) or org is None:
        return
    if obj.org_id is None:
        obj.org_id = org
    elif obj.org_id != org:
        raise TenancyError(f"refusing to write a {type(obj).__name__} into another org")


def _guard_changed(obj: Any, org: str | None) -> None:
    if isinstance(obj, IMMUTABLE):
        raise StoreError(f"{type(obj).__name__} rows are immutable; save a new version instead")
    if isinstance(obj, OrgScoped) and inspect(obj).attrs.org_id.history.has_changes():
        raise TenancyError("a row cannot move to another org")
    _check_owner(obj, org)


def _check_owner(obj: Any, org: str | None) -> None:
    if org is None:
        return
    owner = obj.org_id if isinstance(obj, (OrgScoped, Org)) else org
    if owner != org:
        raise TenancyError(f"refusing to change a {type(obj).__name__} of another org")


@event.listens_for(OrgScoped, "load", propagate=True)
@event.listens_for(Org, "load")
def _check_loaded(obj: Any, context: Any) -> None:
    _check_row(context.session, obj)


def org_session(engine: Engine, ctx: OrgContext | None) -> OrgSession:
    if ctx is None:
        raise TenancyError("no org context: log in or run the first-run setup first")
    return OrgSession(engine, ctx)


def system_session(engine: Engine) -> OrgSession:
    """Unscoped: for the account service, first run and retention only (never handed out)."""
    return OrgSession(engine, None, system=True)
