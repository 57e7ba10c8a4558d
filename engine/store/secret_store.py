"""Secrets (the remember-me token, later API keys) in the OS keyring, never in the database.

Without a desktop secret service keyring picks its ``fail`` backend and raises
``NoKeyringError`` (docs/PLATFORM_NOTES.md). Then the secret lives in this process's memory only and
:attr:`SecretStore.warning` says so, so the UI can tell the user "you will have to log in again".
We never fall back to a plaintext file (no ``keyrings.alt``). keyring (and its backends' discovery)
is imported on first use: opening the store for ``trips list`` never reads a secret.
"""

from __future__ import annotations

from typing import Any

SERVICE = "tripwright"
NO_KEYRING = "no OS keyring available: the secret is kept in memory for this session only"


class SecretStore:
    def __init__(self, service: str = SERVICE) -> None:
        self.service = service
        self._memory: dict[str, str] = {}
        self.warning: str | None = None

    def set(self, name: str, value: str) -> bool:
        """Store ``value``; returns False (and sets :attr:`warning`) when only memory holds it."""
        self._memory[name] = value
        keyring, errors = _keyring()
        try:
            keyring.set_password(self.service, name, value)
        except (errors.KeyringError, RuntimeError):
            self.warning = NO_KEYRING
            return False
        return True

    def get(self, name: str) -> str | None:
        keyring, errors = _keyring()
        try:
            value = keyring.get_password(self.service, name)
        except (errors.KeyringError, RuntimeError):
            self.warning = NO_KEYRING
            value = None
        return value if value is not None else self._memory.get(name)

    def delete(self, name: str) -> None:
        self._memory.pop(name, None)
        keyring, errors = _keyring()
        try:
            keyring.delete_password(self.service, name)
        except errors.PasswordDeleteError:
            pass  # nothing stored under that name
        except (errors.KeyringError, RuntimeError):
            self.warning = NO_KEYRING


def _keyring() -> tuple[Any, Any]:
    """(keyring, keyring.errors), imported on first use."""
    import keyring
    import keyring.errors
    return keyring, keyring.errors
