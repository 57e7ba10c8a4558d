"""Org scoping by construction: one Session per org context, filtered and stamped automatically.

Why each guard exists (PLATFORM_NOTES: the global criteria alone are not enough):
- ``do_orm_execute`` adds ``org_id = :org`` to every ORM SELECT/UPDATE/DELETE of an
  :class:`OrgScoped` class, aliases and joins included, and refuses what the criteria cannot
  cover: ``text()``, Core statements on org tables, ``from_statement`` and ORM bulk INSERT.
- ``before_flush`` stamps ``org_id`` on new rows and rejects rows of another org, edits of
  immutable rows (versions, audit) and org changes.
- the ``load`` hook and :meth:`OrgSession.get` re-check every object handed out, which catches an
  identity-map hit after someone tampered with the session's org.
- no context, no access: a session without an org raises :class:`TenancyError` (fail closed).
The *system* session (first run, login lookup, retention) is the one deliberate exception and
lives only inside ``engine/store``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, Table, event, inspect
from sqlalchemy.orm import ORMExecuteState, Session, with_loader_criteria
from sqlalchemy.sql import visitors
from sqlalchemy.sql.elements import TextClause

from ..errors import StoreError, TenancyError
from .schema import AuditEntry, ItineraryVersion, Org, OrgScoped

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


class OrgSession(Session):
    """A Session bound to one org for its whole life (never switch it: open another)."""

    def __init__(self, bind: Engine, org: OrgContext | None, *, system: bool = False) -> None:
        super().__init__(bind=bind, expire_on_commit=False, autoflush=True)
        self.org = org
        self.info[ORG_KEY] = org.org_id if org else None
        self.info[SYSTEM_KEY] = system

    def connection(self, *args: Any, **kw: Any) -> Any:  # type: ignore[override]
        """The raw Connection would run any SQL unscoped: only the system session may have it."""
        if not self.info.get(SYSTEM_KEY):
            raise TenancyError("an org session does not hand out its raw connection")
        return super().connection(*args, **kw)

    def get(self, entity: Any, ident: Any, **kw: Any) -> Any:  # type: ignore[override]
        obj = super().get(entity, ident, **kw)
        if obj is not None:
            _check_row(self, obj)
        return obj


def _session_org(session: Session) -> str | None:
    if session.info.get(SYSTEM_KEY):
        return None
    org = session.info.get(ORG_KEY)
    if not org:
        raise TenancyError("no org context: open a session with Store.org(ctx)")
    return org


def _check_row(session: Session, obj: Any) -> None:
    if session.info.get(SYSTEM_KEY) or not isinstance(obj, OrgScoped):
        return
    if obj.org_id != _session_org(session):
        raise TenancyError(f"a {type(obj).__name__} row of another org reached this session")


def _raw_org_tables(statement: Any) -> bool:
    """Whether ``statement`` uses an org table that no mapped class brings in (a Core ``Table`` or
    column), which the loader criteria never see. Mapped classes reach the statement annotated by
    the ORM; raw pieces of *their* tables also show up (a column's table, the primary key in
    ``Session.get``) and are scoped with them. Limit: a raw alias of a table whose class is also
    in the statement is not detected — repositories never build one."""
    mapped: set[str] = set()
    raw: set[str] = set()
    for elem in visitors.iterate(statement):
        table = elem if isinstance(elem, Table) else getattr(elem, "table", None)
        if isinstance(table, Table) and "org_id" in table.c:
            (mapped if getattr(elem, "_annotations", None) else raw).add(table.name)
    return bool(raw - mapped)


@event.listens_for(OrgSession, "do_orm_execute")
def _scope_statement(state: ORMExecuteState) -> None:
    org = _session_org(state.session)
    if org is None:  # system session
        return
    stmt = state.statement
    if isinstance(stmt, TextClause):
        raise TenancyError("raw SQL (text()) cannot be org-scoped; use the repositories")
    if _raw_org_tables(stmt):
        raise TenancyError("Core tables in a statement bypass org scoping; use the mapped classes")
    if not state.is_orm_statement:
        return  # no org table involved (e.g. SELECT 1)
    if state.is_from_statement:
        raise TenancyError("from_statement() bypasses org scoping")
    if state.is_insert:
        raise TenancyError("ORM bulk INSERT bypasses org stamping; use session.add()")
    if state.is_column_load or state.is_relationship_load:
        return  # refreshing an object already checked on load
    state.statement = stmt.options(with_loader_criteria(
        OrgScoped, lambda cls: cls.org_id == org, include_aliases=True))


@event.listens_for(OrgSession, "before_flush")
def _stamp_and_guard(session: Session, _ctx: Any, _instances: Any) -> None:
    org = _session_org(session)
    for obj in session.new:
        _guard_new(obj, org)
    for obj in session.dirty:
        if session.is_modified(obj, include_collections=False):
            _guard_changed(obj, org)
    for obj in session.deleted:
        if isinstance(obj, AuditEntry):
            raise StoreError("the audit log is append-only")
        _check_owner(obj, org)


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
def _check_loaded(obj: Any, context: Any) -> None:
    _check_row(context.session, obj)


def org_session(engine: Engine, ctx: OrgContext | None) -> OrgSession:
    if ctx is None:
        raise TenancyError("no org context: log in or run the first-run setup first")
    return OrgSession(engine, ctx)


def system_session(engine: Engine) -> OrgSession:
    """Unscoped: for the account service, first run and retention only (never handed out)."""
    return OrgSession(engine, None, system=True)
