"""Local accounts inside orgs (SPEC_DECISIONS §1: JWT → local accounts).

- First run on the default SQLite file creates a personal org and user with no password, so the
  app just works; once a password is set, or on a shared PostgreSQL database, login is required.
- Passwords: Argon2id (argon2-cffi). A hash costs ~150 ms, so the GUI calls :meth:`alogin`
  (a worker thread), never :meth:`login` on its own thread.
- Lockout (seed §10.2): 5 failures lock the account for 5 minutes; while locked the password is
  not even checked and the error carries the seconds left (the 429 + Retry-After equivalent).
- Nothing secret is logged or audited: messages never include the password, a hash or a token.
"""

from __future__ import annotations

import asyncio
import functools
import getpass
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import structlog
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select

from ..errors import AuthError, InputError
from . import audit
from .columns import utcnow
from .remember import RememberTokens
from .schema import Org, User
from .secret_store import SecretStore
from .tenancy import OrgContext

MAX_FAILURES = 5
LOCKOUT = timedelta(minutes=5)
MIN_PASSWORD = 8
WRONG = "wrong email or password"
log = structlog.get_logger("tripwright.store.accounts")


@dataclass(frozen=True)
class Login:
    ctx: OrgContext
    remembered: bool = False  # a remember-me token was issued (or used) for this login
    keyring_warning: str | None = None  # set when the token could only be kept in memory


@dataclass(frozen=True)
class Identity:
    """Who is signed in where, as the status bar says it (no ORM row leaves the store)."""

    email: str
    display_name: str
    org_name: str


def _email(email: str) -> str:
    email = (email or "").strip().lower()
    if not email or "@" not in email or len(email) > 320:
        raise InputError("email", "expected an email address")
    return email


def _wait_text(seconds: int) -> str:
    minutes, secs = divmod(max(seconds, 1), 60)
    return f"{minutes} min {secs} s" if minutes else f"{secs} s"


class Accounts:
    def __init__(self, store, secrets: SecretStore | None = None, *,  # noqa: ANN001 (Store; import cycle)
                 hasher: PasswordHasher | None = None, clock: Callable[[], datetime] = utcnow) -> None:
        self.store = store
        self.secrets = secrets or SecretStore()
        self.hasher = hasher or PasswordHasher()  # argon2id by default
        self.clock = clock
        self.tokens = RememberTokens(store, self.secrets, clock)

    @functools.cached_property
    def _dummy_hash(self) -> str:
        """Verified for an unknown email so it takes as long as a wrong password (equal timing).
        Made on first use, not with every Accounts: an Argon2 hash (~0.15 s) that `trips list`
        and every other CLI start paid for nothing."""
        return self.hasher.hash("not a real password")

    # -- orgs and users ----------------------------------------------------------------------
    def first_run(self) -> OrgContext | None:
        """Create the personal org and user on an empty SQLite database; return its context when
        no login is needed (personal user without a password), else None."""
        if not self.store.is_sqlite:
            return None
        with self.store.system() as s:
            if s.scalars(select(Org.org_id).limit(1)).first() is None:
                name = getpass.getuser() or "me"
                org = Org(name=f"{name} (personal)", personal=True, created_at=self.clock())
                s.add(org)
                s.flush()
                s.add(User(org_id=org.org_id, email=f"{name}@localhost".lower(), display_name=name,
                           failed_logins=0, created_at=self.clock()))
            user = s.execute(select(User).join(Org, Org.org_id == User.org_id)
                             .where(Org.personal.is_(True)).limit(1)).scalar_one_or_none()
            if user is None or user.password_hash is not None:
                return None
            return OrgContext(user.org_id, user.user_id)

    def create_org(self, name: str, email: str, password: str | None) -> OrgContext:
        """A new org with its first user (a team on PostgreSQL, or tests)."""
        if not name or not name.strip():
            raise InputError("org", "an org needs a name")
        with self.store.system() as s:
            org = Org(name=name.strip(), personal=False, created_at=self.clock())
            s.add(org)
            s.flush()
            user = self._new_user(s, org.org_id, email, password)
            return OrgContext(org.org_id, user.user_id)

    def add_user(self, ctx: OrgContext, email: str, password: str | None) -> OrgContext:
        with self.store.org(ctx) as scope:
            user = self._new_user(scope.session, ctx.org_id, email, password)
            audit.record(scope.session, org_id=ctx.org_id, user_id=ctx.user_id, action="user_added",
                         target_type="user", target_id=user.user_id)
            return OrgContext(ctx.org_id, user.user_id)

    def _new_user(self, session, org_id: str, email: str, password: str | None) -> User:  # noqa: ANN001
        user = User(org_id=org_id, email=_email(email), display_name=_email(email).split("@")[0],
                    password_hash=self._hash(password) if password is not None else None,
                    failed_logins=0, created_at=self.clock())
        session.add(user)
        session.flush()
        return user

    def _hash(self, password: str) -> str:
        if not isinstance(password, str) or len(password) < MIN_PASSWORD:
            raise InputError("password", f"a password has at least {MIN_PASSWORD} characters")
        return self.hasher.hash(password)

    def set_password(self, ctx: OrgContext, password: str) -> None:
        """Set or change the acting user's password; from now on this account needs a login."""
        hashed = self._hash(password)
        with self.store.org(ctx) as scope:
            user = scope.session.get(User, ctx.user_id)
            if user is None:
                raise InputError("user", "no such user in this org")
            user.password_hash, user.failed_logins, user.locked_until = hashed, 0, None
            audit.record(scope.session, org_id=ctx.org_id, user_id=ctx.user_id, action=audit.PASSWORD_SET,
                         target_type="user", target_id=ctx.user_id)

    def login_required(self) -> bool:
        return self.first_run() is None

    # -- login --------------------------------------------------------------------------------
    async def alogin(self, email: str, password: str, **kw) -> Login:  # noqa: ANN003
        """:meth:`login` on a worker thread: Argon2 must never block the GUI loop."""
        return await asyncio.to_thread(self.login, email, password, **kw)

    def login(self, email: str, password: str, *, remember: bool = False, org_name: str | None = None) -> Login:
        dummy = self._dummy_hash  # made before the look-up: a first login costs the same either way
        user = self._find(_email(email), org_name)
        if user is None:
            self._verify(dummy, password)
            log.info("login_failed", reason="unknown account")
            raise AuthError(WRONG)
        self._refuse_if_locked(user)
        if user.password_hash is None or not self._verify(user.password_hash, password):
            self._failed(user)  # raises
        ctx = self._succeeded(user, password)
        if not remember:
            return Login(ctx)
        kept = self.tokens.issue(ctx)
        return Login(ctx, remembered=True, keyring_warning=None if kept else self.secrets.warning)

    def resume(self) -> Login | None:
        """Log in with the remembered token from the keyring (rotating it), or None."""
        ctx = self.tokens.resume()
        return Login(ctx, remembered=True, keyring_warning=self.secrets.warning) if ctx else None

    def identity(self, ctx: OrgContext) -> Identity:
        """The signed-in user's email and name and their org's name (empty when a row is gone)."""
        with self.store.org(ctx) as scope:
            user = scope.session.get(User, ctx.user_id)
            org = scope.session.get(Org, ctx.org_id)
            return Identity(email=user.email if user else "", display_name=user.display_name if user else "",
                            org_name=org.name if org else "")

    def logout(self, ctx: OrgContext) -> None:
        """Forget and revoke this device's remembered login."""
        self.tokens.revoke_local(ctx)

    def _find(self, email: str, org_name: str | None) -> User | None:
        with self.store.system() as s:
            stmt = select(User).where(User.email == email)
            if org_name:
                stmt = stmt.join(Org, Org.org_id == User.org_id).where(Org.name == org_name)
            users = list(s.scalars(stmt).all())
        if len(users) > 1:
            raise AuthError("this email belongs to several orgs; choose the org to log in to")
        return users[0] if users else None

    def _verify(self, hashed: str, password: str) -> bool:
        try:
            return self.hasher.verify(hashed, password)
        except (VerificationError, InvalidHashError):
            return False

    def _refuse_if_locked(self, user: User) -> None:
        now = self.clock()
        if user.locked_until is not None and user.locked_until > now:
            left = int((user.locked_until - now).total_seconds()) + 1
            log.info("login_refused_locked", user_id=user.user_id, retry_after_s=left)
            raise AuthError(f"too many failed logins: the account is locked; try again in {_wait_text(left)}",
                            retry_after_s=left)

    def _failed(self, user: User) -> None:
        now = self.clock()
        with self.store.system() as s:
            row = s.get(User, user.user_id)
            row.failed_logins += 1
            locked = row.failed_logins >= MAX_FAILURES
            action = audit.LOCKED_OUT if locked else audit.LOGIN_FAILED
            if locked:
                row.failed_logins, row.locked_until = 0, now + LOCKOUT
            audit.record(s, org_id=row.org_id, user_id=row.user_id, action=action, target_type="user",
                         target_id=row.user_id, attempt=MAX_FAILURES if locked else row.failed_logins)
        log.info(action, user_id=user.user_id)
        if locked:
            secs = int(LOCKOUT.total_seconds())
            raise AuthError(f"{WRONG}; the account is now locked for {_wait_text(secs)}", retry_after_s=secs)
        raise AuthError(WRONG)

    def _succeeded(self, user: User, password: str) -> OrgContext:
        with self.store.system() as s:
            row = s.get(User, user.user_id)
            row.failed_logins, row.locked_until = 0, None
            if self.hasher.check_needs_rehash(row.password_hash):
                row.password_hash = self.hasher.hash(password)
            audit.record(s, org_id=row.org_id, user_id=row.user_id, action=audit.LOGIN, target_type="user",
                         target_id=row.user_id, method="password")
        log.info("login", user_id=user.user_id)
        return OrgContext(user.org_id, user.user_id)
