"""Remember-me tokens with the refresh-token rules (seed §10.1, SPEC_DECISIONS §1).

The random token lives in the OS keyring (:class:`SecretStore`); the database holds only its
SHA-256. Each use rotates it: the used row is marked, a new token of the same *chain* is issued.
Presenting a token that was already used (or revoked) means it was copied: the whole chain is
revoked, so the thief and the victim are both logged out. Expiry: 7 days from issue.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta

import structlog
from sqlalchemy import select, update

from ..errors import AuthError
from . import audit
from .columns import new_id
from .schema import RememberToken
from .secret_store import SecretStore
from .tenancy import OrgContext

TOKEN_LIFETIME = timedelta(days=7)
REUSED = "reused"
log = structlog.get_logger("tripwright.store.remember")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class RememberTokens:
    def __init__(self, store, secret_store: SecretStore, clock: Callable[[], datetime]) -> None:  # noqa: ANN001
        self.store = store
        self.secrets = secret_store
        self.clock = clock

    @property
    def secret_name(self) -> str:
        """One remembered login per database (a laptop may use a personal and a team database)."""
        return f"remember-token:{self.store.identity}"

    def issue(self, ctx: OrgContext, chain_id: str | None = None) -> bool:
        """New token for ``ctx``; returns whether the OS keyring (not just memory) holds it."""
        token = secrets.token_urlsafe(32)
        with self.store.org(ctx) as scope:
            scope.session.add(RememberToken(user_id=ctx.user_id, chain_id=chain_id or new_id(),
                                            token_hash=token_hash(token), revoked=False,
                                            created_at=self.clock(), expires_at=self.clock() + TOKEN_LIFETIME))
        return self.secrets.set(self.secret_name, token)

    def resume(self) -> OrgContext | None:
        token = self.secrets.get(self.secret_name)
        if not token:
            return None
        with self.store.system() as s:
            outcome = self._claim(s, token)
        if not isinstance(outcome, tuple):
            self.secrets.delete(self.secret_name)
            if outcome == REUSED:
                raise AuthError("this remembered login was already used elsewhere; every remembered "
                                "login of the account was revoked — log in again")
            return None
        ctx, chain = outcome
        self.issue(ctx, chain_id=chain)
        self._audit_login(ctx)
        return ctx

    def _claim(self, session, token: str) -> tuple[OrgContext, str] | str | None:  # noqa: ANN001
        """Mark the token used in one atomic UPDATE, so two processes cannot both rotate it."""
        row = session.scalars(select(RememberToken).where(RememberToken.token_hash == token_hash(token))).first()
        if row is None or row.expires_at <= self.clock():
            return None
        claimed = session.execute(
            update(RememberToken).where(RememberToken.token_id == row.token_id, RememberToken.used_at.is_(None),
                                        RememberToken.revoked.is_(False))
            .values(used_at=self.clock()).returning(RememberToken.token_id)
            .execution_options(synchronize_session=False)).first()
        if claimed is None:
            self._revoke_chain(session, row, audit.TOKEN_REUSE)
            return REUSED
        return OrgContext(row.org_id, row.user_id), row.chain_id

    def revoke_local(self, ctx: OrgContext) -> None:
        """Logout: revoke the chain of this device's token and forget the token."""
        token = self.secrets.get(self.secret_name)
        self.secrets.delete(self.secret_name)
        with self.store.org(ctx) as scope:
            if token:
                row = scope.session.scalars(select(RememberToken).where(
                    RememberToken.token_hash == token_hash(token))).first()
                if row is not None:
                    self._revoke_chain(scope.session, row, None)
            audit.record(scope.session, org_id=ctx.org_id, user_id=ctx.user_id, action=audit.LOGOUT,
                         target_type="user", target_id=ctx.user_id)

    def _revoke_chain(self, session, row: RememberToken, action: str | None) -> None:  # noqa: ANN001
        session.execute(update(RememberToken).where(RememberToken.chain_id == row.chain_id)
                        .values(revoked=True).execution_options(synchronize_session=False))
        if action:
            audit.record(session, org_id=row.org_id, user_id=row.user_id, action=action,
                         target_type="user", target_id=row.user_id, chain=row.chain_id)
            log.warning(action, user_id=row.user_id)

    def _audit_login(self, ctx: OrgContext) -> None:
        with self.store.org(ctx) as scope:
            audit.record(scope.session, org_id=ctx.org_id, user_id=ctx.user_id, action=audit.LOGIN,
                         target_type="user", target_id=ctx.user_id, method="remembered")
        log.info("login", user_id=ctx.user_id, method="remembered")
