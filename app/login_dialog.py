"""The login dialog: email, password, optional org, "Remember me on this computer".

Non-modal (``show()``/``open()``, never ``exec()``). Log in runs :meth:`Accounts.alogin` from an
``asyncSlot``: Argon2 (~150 ms a try) runs on a worker thread while the window keeps painting, and
the button is disabled meanwhile so a double click is one attempt, not two failures towards the
lockout. A refusal (wrong email or password, a lockout with the time left, a malformed email) is
one line under the fields and the dialog stays open; success emits ``logged_in(Login)``. When the
remember-me token could only be kept in memory, the dialog says so and stays open until the user
has read it (``logged_in`` has already been emitted). Escape, Cancel or closing emit ``cancelled``.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QPushButton,
                               QVBoxLayout, QWidget)
from qasync import asyncSlot

from engine.errors import AuthError, InputError, StoreError, TripwrightError, one_line
from engine.store.accounts import Accounts, Login

ERROR_STYLE = "color: #c62828;"
WARNING_STYLE = ("background: #fff3cd; color: #5d4200; border: 1px solid #e0c36c; border-radius: 3px;"
                 " padding: 4px 6px;")
NOTE_STYLE = "color: #616161;"
CHECKING = "Checking\u2026"


class LoginDialog(QDialog):
    """``LoginDialog(accounts, email="", org_name="")``: emits ``logged_in(Login)`` or ``cancelled()``."""

    logged_in = Signal(object)
    cancelled = Signal()

    def __init__(self, accounts: Accounts, *, email: str = "", org_name: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.accounts = accounts
        self.login: Login | None = None
        self._task: asyncio.Task | None = None
        self._closed = False  # set on cancel: the attempt's cleanup must not touch deleted widgets
        self.setWindowTitle("Log in to Tripwright")
        self.setModal(False)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self._build(email, org_name)
        (self.password_edit if email else self.email_edit).setFocus()

    # -- building -------------------------------------------------------------------------------
    def _build(self, email: str, org_name: str) -> None:
        self.email_edit = QLineEdit(email)
        self.email_edit.setPlaceholderText("you@example.com")
        self.password_edit = QLineEdit()
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.org_edit = QLineEdit(org_name)
        self.org_edit.setPlaceholderText("only if your email is in several orgs")
        self.remember_check = QCheckBox("Remember me on this computer")
        self.remember_check.setToolTip("Keeps a login token in the OS keyring for 7 days")
        form = QFormLayout()
        form.addRow(_plain("Email"), self.email_edit)
        form.addRow(_plain("Password"), self.password_edit)
        form.addRow(_plain("Org (optional)"), self.org_edit)
        form.addRow(_plain(""), self.remember_check)
        self.status_label = _plain("", "login_status", NOTE_STYLE)
        self.error_label = _plain("", "login_error", ERROR_STYLE)
        self.warning_label = _plain("", "keyring_warning", WARNING_STYLE)
        buttons = QDialogButtonBox()
        self.login_button = QPushButton("Log in")
        self.login_button.setDefault(True)
        self.cancel_button = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.addButton(self.login_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.login_button.clicked.connect(self._on_login_clicked)
        self.cancel_button.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        for label in (self.status_label, self.error_label, self.warning_label):
            layout.addWidget(label)
        layout.addStretch(1)
        layout.addWidget(buttons)
        self.setMinimumWidth(440)

    # -- logging in -----------------------------------------------------------------------------
    def _on_login_clicked(self) -> None:
        if self.login is not None:  # the keyring warning was read: "Continue" closes
            self.accept()
            return
        self.try_login()

    @asyncSlot()
    async def try_login(self) -> Login | None:
        """One attempt; returns the Login, or None when refused (the reason is shown)."""
        if self._task is not None and not self._task.done():
            return None  # already checking
        self._task = asyncio.current_task()
        self._set_busy(True)
        try:
            outcome = await self._attempt()
        finally:
            self._task = None
            if not self._closed:
                self._set_busy(False)
        if isinstance(outcome, Login):
            self._succeeded(outcome)
            return outcome
        self._refused(outcome)
        return None

    async def _attempt(self) -> Login | TripwrightError:
        try:
            return await self.accounts.alogin(self.email_edit.text(), self.password_edit.text(),
                                              remember=self.remember_check.isChecked(),
                                              org_name=self.org_edit.text().strip() or None)
        except (AuthError, InputError, StoreError) as exc:  # a locked database is one line too
            return exc

    def _set_busy(self, busy: bool) -> None:
        for widget in (self.login_button, self.email_edit, self.password_edit, self.org_edit, self.remember_check):
            widget.setEnabled(not busy)
        self.status_label.setText(CHECKING if busy else "")
        self.status_label.setVisible(busy)
        if busy:
            self.error_label.hide()

    def _refused(self, exc: TripwrightError) -> None:
        self.error_label.setText(one_line(exc, sentence=True))
        self.error_label.show()
        self.password_edit.clear()
        field = self.email_edit if isinstance(exc, InputError) and exc.field == "email" else self.password_edit
        field.setFocus()

    def _succeeded(self, login: Login) -> None:
        self.login = login
        self.password_edit.clear()
        self.logged_in.emit(login)
        if login.keyring_warning:
            self._show_keyring_warning(login.keyring_warning)
        else:
            self.accept()

    def _show_keyring_warning(self, warning: str) -> None:
        self.warning_label.setText(f"Logged in. \u201cRemember me\u201d ends when Tripwright closes ({warning}).")
        self.warning_label.show()
        for widget in (self.email_edit, self.password_edit, self.org_edit, self.remember_check):
            widget.setEnabled(False)
        self.cancel_button.hide()
        self.login_button.setText("Continue")
        self.login_button.setFocus()

    # -- leaving --------------------------------------------------------------------------------
    def reject(self) -> None:
        """Escape, Cancel or the close button. After a login there is nothing to cancel."""
        if self.login is not None:
            self.accept()
            return
        self._closed = True
        if self._task is not None:
            self._task.cancel()  # the attempt may still finish in its thread; its result is dropped
        super().reject()
        self.cancelled.emit()


def _plain(text: str, name: str = "", style: str = "") -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    if name:
        label.setObjectName(name)
        label.setWordWrap(True)
        label.setStyleSheet(style)
        label.hide()
    return label
