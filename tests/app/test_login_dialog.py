"""The login dialog over a real SQLite store and real Accounts: refusals shown inline, lockout
with the time left, success, the keyring warning, cancel, and a GUI that keeps running while
Argon2 checks the password."""

from __future__ import annotations

import time

import keyring
import pytest
import shiboken6
from argon2 import PasswordHasher
from keyring.backends import fail
from PySide6.QtCore import Qt, QTimer

from app.login_dialog import LoginDialog
from engine.store import Accounts, Login, SecretStore, Store
from engine.store.columns import utcnow
from tests.app.conftest import wait_task
from tests.store.conftest import FAST_HASHER, PASSWORD, memory_keyring  # noqa: F401 (a fixture)

EMAIL = "alice@a.example"


@pytest.fixture
def store(tmp_path):
    with Store.open(f"sqlite:///{tmp_path}/t.db") as opened:
        yield opened


@pytest.fixture
def now():
    return utcnow()


@pytest.fixture
def accounts(store, memory_keyring, now):  # noqa: F811 (the imported fixture)
    accounts = Accounts(store, SecretStore(), hasher=FAST_HASHER, clock=lambda: now)
    accounts.create_org("Org A", EMAIL, PASSWORD)
    return accounts


@pytest.fixture
def make_dialog(qtbot, gui_loop):
    dialogs = []

    def make(accounts, **kw):
        dialog = LoginDialog(accounts, **kw)
        dialogs.append(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        return dialog

    yield make
    for dialog in dialogs:  # WA_DeleteOnClose: most are gone already
        if shiboken6.isValid(dialog):
            dialog.close()


def attempt(qtbot, dialog, password, email=EMAIL, remember=False):
    dialog.email_edit.setText(email)
    dialog.password_edit.setText(password)
    dialog.remember_check.setChecked(remember)
    return wait_task(qtbot, dialog.try_login(), timeout=10_000)


def test_fields_and_labels(make_dialog, accounts):
    dialog = make_dialog(accounts, email=EMAIL)
    assert dialog.password_edit.echoMode() == dialog.password_edit.EchoMode.Password
    assert dialog.remember_check.text() == "Remember me on this computer"
    assert dialog.login_button.text() == "Log in" and not dialog.isModal()
    assert dialog.email_edit.text() == EMAIL
    assert all(label.textFormat() == Qt.TextFormat.PlainText
               for label in (dialog.error_label, dialog.warning_label, dialog.status_label))


def test_wrong_password_shows_the_message_and_stays_open(qtbot, make_dialog, accounts):
    dialog = make_dialog(accounts)
    with qtbot.assertNotEmitted(dialog.logged_in):
        assert attempt(qtbot, dialog, "not the password") is None
    assert dialog.isVisible()
    assert dialog.error_label.isVisible() and dialog.error_label.text() == "Wrong email or password."
    assert dialog.password_edit.text() == "" and dialog.login_button.isEnabled()
    assert not dialog.status_label.isVisible()


def test_an_unknown_email_gets_the_same_message(qtbot, make_dialog, accounts):
    dialog = make_dialog(accounts)
    attempt(qtbot, dialog, PASSWORD, email="mallory@a.example")
    assert dialog.error_label.text() == "Wrong email or password."


def test_a_malformed_email_is_named(qtbot, make_dialog, accounts):
    dialog = make_dialog(accounts)
    attempt(qtbot, dialog, PASSWORD, email="alice")
    assert dialog.error_label.text() == "Email: expected an email address."
    assert dialog.isVisible()


def test_five_failures_lock_the_account_and_say_for_how_long(qtbot, make_dialog, accounts):
    dialog = make_dialog(accounts)
    for _ in range(4):
        attempt(qtbot, dialog, "wrong password")
        assert dialog.error_label.text() == "Wrong email or password."
    attempt(qtbot, dialog, "wrong password")
    assert dialog.error_label.text() == "Wrong email or password; the account is now locked for 5 min 0 s."
    with qtbot.assertNotEmitted(dialog.logged_in):
        assert attempt(qtbot, dialog, PASSWORD) is None  # even the right password waits
    assert dialog.error_label.text() == \
        "Too many failed logins: the account is locked; try again in 5 min 1 s."
    assert dialog.isVisible()


def test_the_right_password_emits_logged_in_and_closes(qtbot, make_dialog, accounts):
    dialog = make_dialog(accounts)
    dialog.email_edit.setText(EMAIL.upper())
    dialog.password_edit.setText(PASSWORD)
    with qtbot.waitSignal(dialog.logged_in, timeout=10_000) as signal:
        qtbot.mouseClick(dialog.login_button, Qt.MouseButton.LeftButton)
    login = signal.args[0]
    assert isinstance(login, Login) and not login.remembered and login.keyring_warning is None
    assert login.ctx.org_id and login.ctx.user_id
    qtbot.waitUntil(lambda: not shiboken6.isValid(dialog) or not dialog.isVisible())


def test_remember_me_issues_a_token_in_the_keyring(qtbot, make_dialog, accounts, memory_keyring):  # noqa: F811
    dialog = make_dialog(accounts)
    login = attempt(qtbot, dialog, PASSWORD, remember=True)
    assert login.remembered and login.keyring_warning is None
    assert any(service == "tripwright" for service, _name in memory_keyring.items)


def test_without_a_keyring_the_warning_is_shown_after_login(qtbot, make_dialog, accounts):
    keyring.set_keyring(fail.Keyring())  # the memory_keyring fixture puts the previous one back
    dialog = make_dialog(accounts)
    with qtbot.waitSignal(dialog.logged_in, timeout=10_000):
        login = attempt(qtbot, dialog, PASSWORD, remember=True)
    assert login.keyring_warning
    assert dialog.isVisible() and dialog.warning_label.isVisible()
    assert login.keyring_warning in dialog.warning_label.text()
    assert dialog.warning_label.text().startswith("Logged in.")
    assert dialog.login_button.text() == "Continue" and not dialog.password_edit.isEnabled()
    with qtbot.assertNotEmitted(dialog.cancelled):
        qtbot.mouseClick(dialog.login_button, Qt.MouseButton.LeftButton)
    assert not shiboken6.isValid(dialog) or not dialog.isVisible()


@pytest.mark.parametrize("how", ["escape", "button"])
def test_escape_or_cancel_emits_cancelled(qtbot, make_dialog, accounts, how):
    dialog = make_dialog(accounts)
    with qtbot.waitSignal(dialog.cancelled, timeout=2_000), qtbot.assertNotEmitted(dialog.logged_in):
        if how == "escape":
            qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        else:
            qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)


def test_the_gui_keeps_running_while_argon2_checks(qtbot, make_dialog, store, memory_keyring):  # noqa: F811
    """A real-cost hash (~0.3 s here): a 10 ms timer keeps ticking meanwhile, and the button is
    disabled until the answer comes."""
    slow = PasswordHasher(time_cost=6, memory_cost=64 * 1024, parallelism=1)
    accounts = Accounts(store, SecretStore(), hasher=slow)
    accounts.create_org("Org S", "slow@s.example", PASSWORD)
    dialog = make_dialog(accounts)
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(10)
    dialog.email_edit.setText("slow@s.example")
    dialog.password_edit.setText(PASSWORD)
    started = time.perf_counter()
    task = dialog.try_login()
    qtbot.waitUntil(lambda: dialog.status_label.isVisible(), timeout=2_000)
    assert not dialog.login_button.isEnabled() and dialog.status_label.text() == "Checking\u2026"
    login = wait_task(qtbot, task, timeout=20_000)
    elapsed = time.perf_counter() - started
    timer.stop()
    assert isinstance(login, Login)
    assert elapsed > 0.1, "the hash was too cheap for this test to mean anything"
    during = [t for t in ticks if started <= t]
    gaps = [b - a for a, b in zip([started, *during], during)]
    # Relative, not a speed target: a login on the GUI thread would be one gap as long as the
    # whole check; a loaded machine slows the hash and the timer alike.
    assert len(during) >= 3, (len(during), elapsed)
    assert max(gaps) < elapsed / 2, f"the GUI thread stalled for {max(gaps):.3f} s of {elapsed:.3f} s"
