"""What an org session may execute, judged from the statement before it runs.

The loader criteria (``tenancy.py``) scope mapped classes only when the ORM compiles the
statement. Everything that escapes that compile path is refused here, and what the criteria do
cover is made precedence-proof:

- user WHERE / JOIN ON clauses are wrapped in one parenthesised group, so a ``text("1=1 OR
  1=1")`` (or ``literal_column``) cannot swallow the appended ``AND org_id = :org``;
- raw SQL as a FROM (``select_from(text(...))``, ``text().columns()``), lightweight
  ``table(...)`` clauses and Core ``Table`` objects of org tables are refused;
- a statement the ORM does not compile (e.g. ``select(exists().where(Trip.x == 1))``, whose
  outer SELECT has no entity) is refused when it touches any org table, since no criteria
  would be added to it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table, and_
from sqlalchemy.sql import visitors
from sqlalchemy.sql.elements import Grouping, TextClause
from sqlalchemy.sql.selectable import Alias, Select, TableClause, TextualSelect

from ..errors import TenancyError


def refuse_unscoped(statement: Any, *, orm_compiled: bool) -> None:
    """Raise TenancyError when ``statement`` would reach an org table without the org filter."""
    mapped: set[str] = set()
    raw: set[str] = set()
    elements = list(visitors.iterate(statement))
    entity_aliases = {id(_entity_selectable(e)) for e in elements if getattr(e, "_annotations", None)}
    for elem in elements:
        if isinstance(elem, TextualSelect):
            raise TenancyError("text().columns() is raw SQL and cannot be org-scoped; use the mapped classes")
        if isinstance(elem, TableClause) and not isinstance(elem, Table):
            raise TenancyError(f"table({elem.name!r}) bypasses org scoping; use the mapped classes")
        if isinstance(elem, Select) and any(isinstance(f, TextClause) for f in elem._from_obj):
            raise TenancyError("raw SQL in FROM (select_from(text(...))) cannot be org-scoped")
        table = _org_table(elem)
        if isinstance(elem, Alias) and table is not None and not elem._annotations \
                and id(elem) not in entity_aliases:
            raise TenancyError("a Core alias of an org table bypasses org scoping; use aliased(Class)")
        if table is not None:
            (mapped if getattr(elem, "_annotations", None) else raw).add(table.name)
    if not orm_compiled and (mapped or raw):
        raise TenancyError("this statement is not compiled by the ORM, so no org filter would reach "
                           "its org tables; build it from a mapped select (e.g. select(Trip).exists())")
    if raw - mapped:
        raise TenancyError("Core tables in a statement bypass org scoping; use the mapped classes")


def _entity_selectable(elem: Any) -> Any:
    """The FROM of the ORM entity an annotated element belongs to (an ``aliased()`` class: its Alias)."""
    entity = elem._annotations.get("parententity")
    return getattr(entity, "selectable", None)


def _org_table(elem: Any) -> Table | None:
    """The org table behind ``elem`` (a Table, or a column of one or of an alias of one)."""
    table = elem if isinstance(elem, (Table, Alias)) else getattr(elem, "table", None)
    while isinstance(table, Alias):
        table = table.element
    return table if isinstance(table, Table) and "org_id" in table.c else None


def grouped_criteria(statement: Any) -> Any:
    """The statement with its WHERE criteria (and explicit JOIN ON clauses) each in one group,
    so the org criteria appended by the ORM are AND-ed with the whole user clause."""
    where = getattr(statement, "_where_criteria", ())
    joins = getattr(statement, "_setup_joins", ())
    if not where and not any(_groupable(j[1]) for j in joins):
        return statement
    statement = statement._generate()
    if where:
        statement._where_criteria = (Grouping(and_(*where)),)
    if joins:
        statement._setup_joins = tuple((target, Grouping(on) if _groupable(on) else on, *rest)
                                       for target, on, *rest in joins)
    return statement


def _groupable(onclause: Any) -> bool:
    """An explicit SQL expression (not a relationship attribute, not absent)."""
    return onclause is not None and not hasattr(onclause, "property") and hasattr(onclause, "self_group")
