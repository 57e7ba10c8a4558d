"""Accounts: first run, Argon2id passwords, lockout, remember-me tokens, logout, no secret in clear."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta, timezone
from pathlib import Path

import keyring
import pytest
import structlog
from argon2 import PasswordHasher
from keyring.backends import fail
from sqlalchemy import select

from engine.errors import AuthError, InputError
from engine.store import Accounts, SecretStore, Store
from engine.store.schema import RememberToken, User

from .conftest import FAST_HASHER, PASSWORD


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2027, 1, 10, 9, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def timed(store, memory_keyring, clock) -> Accounts:
    return Accounts(store, SecretStore(), hasher=FAST_HASHER, clock=clock)


def test_first_run_creates_a_personal_org_without_a_prompt(store, accounts):
    ctx = accounts.first_run()
    if not store.is_sqlite:  # a shared PostgreSQL database always requires login
        assert ctx is None and accounts.login_required()
        return
    assert ctx is not None and accounts.first_run() == ctx and not accounts.login_required()
    with store.org(ctx) as repo:
        repo.trips.create("Just works")
    accounts.set_password(ctx, PASSWORD)
    assert accounts.first_run() is None and accounts.login_required()
    with store.system() as s:
        email = s.get(User, ctx.user_id).email
    assert accounts.login(email, PASSWORD).ctx == ctx


def test_passwords_are_argon2id_and_login_works(store, memory_keyring):
    accounts = Accounts(store, SecretStore())  # the real default cost, on purpose, once
    ctx = accounts.create_org("Team", "Ann@Team.example ", PASSWORD)
    with store.system() as s:
        assert s.get(User, ctx.user_id).password_hash.startswith("$argon2id$")
    assert accounts.login("ann@team.example", PASSWORD).ctx == ctx
    with pytest.raises(AuthError, match="wrong email or password"):
        accounts.login("ann@team.example", "not the password")
    with pytest.raises(AuthError, match="wrong email or password"):
        accounts.login("nobody@team.example", PASSWORD)  # same answer as a wrong password


async def test_alogin_runs_off_the_calling_thread(accounts, org_a):
    login = await accounts.alogin("alice@a.example", PASSWORD)
    assert login.ctx == org_a


def test_bad_passwords_and_emails_are_input_errors(accounts, org_a):
    with pytest.raises(InputError) as err:
        accounts.set_password(org_a, "short")
    assert err.value.field == "password"
    with pytest.raises(InputError):
        accounts.login("not-an-email", PASSWORD)


def test_five_failures_lock_the_account_for_five_minutes(store, timed, clock):
    ctx = timed.create_org("Org", "lee@x.example", PASSWORD)
    for attempt in range(1, 5):
        with pytest.raises(AuthError) as err:
            timed.login("lee@x.example", f"wrong {attempt}")
        assert err.value.retry_after_s is None
    with pytest.raises(AuthError) as err:
        timed.login("lee@x.example", "wrong 5")
    assert err.value.retry_after_s == 300 and "locked" in str(err.value)
    clock.advance(seconds=30)
    with pytest.raises(AuthError) as err:  # the right password does not help while locked
        timed.login("lee@x.example", PASSWORD)
    assert err.value.retry_after_s == 271 and "try again in 4 min 31 s" in str(err.value)
    clock.advance(minutes=4, seconds=31)
    assert timed.login("lee@x.example", PASSWORD).ctx == ctx
    with store.org(ctx) as repo:
        actions = [e.action for e in reversed(repo.audit_log())]
    assert actions == ["login_failed"] * 4 + ["locked_out", "login"]


def test_same_email_in_two_orgs_needs_the_org_name(accounts):
    one = accounts.create_org("One", "sam@x.example", PASSWORD)
    two = accounts.create_org("Two", "sam@x.example", PASSWORD)
    with pytest.raises(AuthError, match="several orgs"):
        accounts.login("sam@x.example", PASSWORD)
    assert accounts.login("sam@x.example", PASSWORD, org_name="Two").ctx == two != one


def test_remember_me_rotates_on_every_use(store, timed, memory_keyring, clock):
    ctx = timed.create_org("Org", "rae@x.example", PASSWORD)
    login = timed.login("rae@x.example", PASSWORD, remember=True)
    assert login.remembered and login.keyring_warning is None
    first = memory_keyring.items[("tripwright", timed.tokens.secret_name)]
    clock.advance(days=3)
    assert timed.resume().ctx == ctx
    second = memory_keyring.items[("tripwright", timed.tokens.secret_name)]
    assert second != first
    with store.system() as s:
        rows = s.scalars(select(RememberToken).order_by(RememberToken.created_at)).all()
        assert [r.token_hash for r in rows] == [hashlib.sha256(t.encode()).hexdigest() for t in (first, second)]
        assert rows[0].used_at is not None and rows[1].used_at is None and len({r.chain_id for r in rows}) == 1
        assert rows[1].expires_at == clock.now + timedelta(days=7)


def test_reusing_an_old_token_revokes_the_whole_chain(store, timed, memory_keyring):
    ctx = timed.create_org("Org", "kim@x.example", PASSWORD)
    timed.login("kim@x.example", PASSWORD, remember=True)
    key = ("tripwright", timed.tokens.secret_name)
    stolen = memory_keyring.items[key]
    timed.resume()  # the real user rotates it
    current = memory_keyring.items[key]
    memory_keyring.items[key] = stolen  # the thief replays the old one
    with pytest.raises(AuthError, match="already used"):
        timed.resume()
    memory_keyring.items[key] = current  # and now the victim's current token is dead too
    with pytest.raises(AuthError):
        timed.resume()
    with store.system() as s:
        assert all(r.revoked for r in s.scalars(select(RememberToken)))
    with store.org(ctx) as repo:
        assert repo.audit_log(action="remember_token_reuse")


def test_expired_token_is_ignored_and_forgotten(timed, memory_keyring, clock):
    timed.create_org("Org", "eve@x.example", PASSWORD)
    timed.login("eve@x.example", PASSWORD, remember=True)
    clock.advance(days=7, seconds=1)
    assert timed.resume() is None
    assert memory_keyring.items == {}


def test_logout_revokes_the_remembered_login(store, timed, memory_keyring):
    ctx = timed.create_org("Org", "max@x.example", PASSWORD)
    timed.login("max@x.example", PASSWORD, remember=True)
    token = memory_keyring.items[("tripwright", timed.tokens.secret_name)]
    timed.logout(ctx)
    assert memory_keyring.items == {} and timed.resume() is None
    memory_keyring.items[("tripwright", timed.tokens.secret_name)] = token
    with pytest.raises(AuthError):
        timed.resume()
    with store.org(ctx) as repo:
        assert repo.audit_log(action="logout")


def test_without_an_os_keyring_the_token_stays_in_memory_with_a_warning(store):
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        accounts = Accounts(store, SecretStore(), hasher=FAST_HASHER)
        ctx = accounts.create_org("Org", "noa@x.example", PASSWORD)
        login = accounts.login("noa@x.example", PASSWORD, remember=True)
        assert login.remembered and login.keyring_warning and "memory" in login.keyring_warning
        assert accounts.resume().ctx == ctx  # same process: memory holds it
        assert Accounts(store, SecretStore(), hasher=FAST_HASHER).resume() is None  # next start: log in again
    finally:
        keyring.set_keyring(previous)


def test_no_secret_in_the_database_file_or_the_logs(tmp_path, memory_keyring):
    path = tmp_path / "tripwright.db"
    secret_password = "Pa55word-that-must-not-leak"
    with structlog.testing.capture_logs() as logs, Store.open(f"sqlite:///{path}") as store:
        accounts = Accounts(store, SecretStore(), hasher=PasswordHasher(time_cost=1, memory_cost=256, parallelism=1))
        ctx = accounts.first_run()
        accounts.set_password(ctx, secret_password)
        with store.system() as s:
            email = s.get(User, ctx.user_id).email
        with pytest.raises(AuthError):
            accounts.login(email, secret_password + "x")
        accounts.login(email, secret_password, remember=True)
        accounts.resume()
        token = memory_keyring.items[("tripwright", accounts.tokens.secret_name)]
        accounts.logout(ctx)
    raw = b"".join(p.read_bytes() for p in Path(tmp_path).glob("tripwright.db*"))
    for secret in (secret_password, secret_password + "x", token):
        assert secret.encode() not in raw
        assert secret not in repr(logs)
    assert hashlib.sha256(token.encode()).hexdigest().encode() in raw  # only the hash is stored
    assert any(entry["event"] == "login" for entry in logs)
