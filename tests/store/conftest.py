"""Store test fixtures: real databases only.

Every ``db_url``-based test runs on a fresh SQLite file in ``tmp_path`` and, when
``TRIPWRIGHT_TEST_PG_URL`` is set (``.ci/postgres.sh`` sets it), again on PostgreSQL inside a
fresh schema (``search_path``) that is dropped afterwards.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from datetime import date
from typing import Any

import keyring
import pytest
from argon2 import PasswordHasher
from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from engine.models import IntentV1, ItineraryV1
from tests.engine.conftest import PARIS_DEMO
from engine.store import Accounts, SecretStore, Store

PG_URL = os.environ.get("TRIPWRIGHT_TEST_PG_URL")
# Argon2id with small costs: the same code path, ~1 ms instead of ~150 ms per hash.
FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=256, parallelism=1)
PASSWORD = "correct horse battery staple"

ENGINES = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=[
        pytest.mark.postgres, pytest.mark.skipif(not PG_URL, reason="TRIPWRIGHT_TEST_PG_URL is not set")]),
]


class MemoryKeyring(KeyringBackend):
    """An in-process keyring (docs/PLATFORM_NOTES.md: tests use keyring.set_keyring, never keyrings.alt)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[tuple[str, str], str] = {}

    def set_password(self, service: str, username: str, password: str) -> None:
        self.items[(service, username)] = password

    def get_password(self, service: str, username: str) -> str | None:
        return self.items.get((service, username))

    def delete_password(self, service: str, username: str) -> None:
        if self.items.pop((service, username), None) is None:
            raise PasswordDeleteError(username)


@pytest.fixture
def memory_keyring():
    previous = keyring.get_keyring()
    ring = MemoryKeyring()
    keyring.set_keyring(ring)
    yield ring
    keyring.set_keyring(previous)


def pg_schema_url(schema: str) -> str:
    url = make_url(PG_URL).update_query_dict({"options": f"-csearch_path={schema}"})
    return url.render_as_string(hide_password=False)


@pytest.fixture
def pg_schema():
    """A fresh PostgreSQL schema; yields its URL and drops it afterwards."""
    schema = f"tw_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    yield pg_schema_url(schema)
    with admin.begin() as conn:
        conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    admin.dispose()


@pytest.fixture(params=ENGINES)
def db_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tripwright.db'}"
    return request.getfixturevalue("pg_schema")


@pytest.fixture
def store(db_url):
    with Store.open(db_url, busy_timeout_s=2.0) as opened:
        yield opened


@pytest.fixture
def accounts(store, memory_keyring) -> Accounts:
    return Accounts(store, SecretStore(), hasher=FAST_HASHER)


@pytest.fixture
def org_a(accounts):
    return accounts.create_org("Org A", "alice@a.example", PASSWORD)


@pytest.fixture
def org_b(accounts):
    return accounts.create_org("Org B", "bob@b.example", PASSWORD)


_PLANNED: dict[str, Any] = {}


PARIS: dict[str, Any] = PARIS_DEMO  # the engine suite's demo trip


def paris_intent() -> IntentV1:
    return IntentV1.model_validate(PARIS)


def planned():
    """One real pipeline run (a PlanResult), made once per test process (~0.1 s)."""
    if "result" not in _PLANNED:
        from engine.pipeline import PlanningSession
        session = PlanningSession(today=date(2026, 11, 23))
        _PLANNED["result"] = asyncio.run(session.plan(paris_intent()))
    return _PLANNED["result"]


@pytest.fixture
def itinerary() -> ItineraryV1:
    return planned().itinerary


@pytest.fixture
def accounts_for(memory_keyring):
    """Open a store at a given URL (with options) and create one org in it: (store, ctx)."""
    opened: list[Store] = []

    def make(url: str, **options: Any):
        store = Store.open(url, **options)
        opened.append(store)
        ctx = Accounts(store, SecretStore(), hasher=FAST_HASHER).create_org("Org", "me@x.example", PASSWORD)
        return store, ctx

    yield make
    for store in opened:
        store.close()


def run_together(action, count: int, timeout_s: float = 60) -> list[BaseException]:
    """Run ``action`` on ``count`` threads released at the same moment; what they raised."""
    import threading

    barrier = threading.Barrier(count)
    errors: list[BaseException] = []

    def released() -> None:
        barrier.wait()
        try:
            action()
        except BaseException as exc:  # noqa: BLE001 (collected for the caller's assert)
            errors.append(exc)

    threads = [threading.Thread(target=released) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout_s)
    return errors
