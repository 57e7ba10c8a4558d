"""A phone in a test: a QtWebEngine page at 360×740 whose clock is fixed to a given moment.

``clock_script(iso)`` replaces the page's ``Date`` before any of its scripts runs (``new Date()``
and ``Date.now()`` give that moment; ``Date`` with arguments and ``Date.parse`` are the real ones),
as the device's clock set to a trip day would. ``STATE`` reads what the page shows.

Run as a program it opens one file and writes a screenshot, for the dark scheme too (Chromium
reads ``--blink-settings=preferredColorScheme=0`` only when it starts, so that is a process of its
own)::

    python -m tests.widgets.phone_browser PAGE.html 2027-06-16T14:40:00+02:00 OUT.png [--dark]

It prints the page's STATE as JSON on its last line.
"""

from __future__ import annotations

import json
import os
import sys

PHONE_SIZE = (360, 740)
DARK_FLAG = "--blink-settings=preferredColorScheme=0"

STATE = """JSON.stringify((function () {
  function text(selector) { var n = document.querySelector(selector); return n ? n.textContent : null; }
  function texts(selector) { return Array.from(document.querySelectorAll(selector)).map(function (n) { return n.textContent; }); }
  var phone = window.tripwrightPhone, map = phone && phone.map();
  var days = Array.from(document.querySelectorAll('.tw-day'));
  var pins = map ? Array.from(document.querySelectorAll('.tw-map .leaflet-marker-icon.tw-icon'))
    .map(function (n) { return n.textContent; }) : [];
  return {now: text('.tw-card-now .tw-card-name'), now_time: text('.tw-card-now .tw-card-time'),
          next: text('.tw-card-next .tw-card-name'), next_time: text('.tw-card-next .tw-card-time'),
          leave: text('.tw-card-next .tw-leave'), state: texts('.tw-trip-state'), clock: text('#tw-clock'),
          codes: texts('#tw-now .tw-code-value'),
          today: days.map(function (d, i) { return d.querySelector('.tw-today').hidden ? null : i; })
            .filter(function (i) { return i !== null; }),
          open: days.map(function (d) { return d.open; }),
          map_day: map ? days.findIndex(function (d) { return d.querySelector('.tw-map'); }) : null,
          pins: pins, row_now: text('.tw-is-now .tw-row-name'), row_next: text('.tw-is-next .tw-row-name'),
          past: document.querySelectorAll('.tw-is-past').length,
          dark: matchMedia('(prefers-color-scheme: dark)').matches,
          width: document.documentElement.scrollWidth, viewport: window.innerWidth,
          pwned: window.__pwned === undefined ? null : String(window.__pwned)};
})())"""


def clock_script(moment: str):
    """A script run at document creation, before the page's: the phone's clock stands at ``moment``."""
    from PySide6.QtWebEngineCore import QWebEngineScript

    script = QWebEngineScript()
    script.setName("fixed-clock")
    script.setInjectionPoint(QWebEngineScript.InjectionPoint.DocumentCreation)
    script.setWorldId(QWebEngineScript.ScriptWorldId.MainWorld)
    script.setRunsOnSubFrames(False)
    script.setSourceCode("""(function () {
  var fixed = Date.parse(%s), Real = Date;
  class PhoneDate extends Real {
    constructor() { if (arguments.length) super(...arguments); else super(fixed); }
    static now() { return fixed; }
  }
  window.Date = PhoneDate;
})();""" % json.dumps(moment))
    return script


def main(argv: list[str]) -> int:
    """Open ``argv[0]`` at phone size with the clock at ``argv[1]``; save ``argv[2]``; print the STATE."""
    page_path, moment, png = argv[0], argv[1], argv[2]
    if "--dark" in argv:
        os.environ["QTWEBENGINE_CHROMIUM_FLAGS"] = (os.environ.get("QTWEBENGINE_CHROMIUM_FLAGS", "") + " " + DARK_FLAG).strip()
    from PySide6.QtCore import QTimer, QUrl
    from PySide6.QtWebEngineCore import QWebEngineProfile, QWebEnginePage
    from PySide6.QtWebEngineWidgets import QWebEngineView
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    profile = QWebEngineProfile()
    profile.scripts().insert(clock_script(moment))
    page = QWebEnginePage(profile)
    view = QWebEngineView()
    view.setPage(page)
    view.resize(*PHONE_SIZE)
    result: dict = {}

    def read_state(text: str) -> None:
        result.update(json.loads(text))
        # A grab right after loading can be blank (docs/PLATFORM_NOTES.md): give it time to paint.
        QTimer.singleShot(1500, lambda: (view.grab().save(png), app.quit()))

    view.loadFinished.connect(lambda ok: QTimer.singleShot(500, lambda: page.runJavaScript(STATE, 0, read_state)))
    QTimer.singleShot(30_000, app.quit)
    view.load(QUrl.fromLocalFile(os.path.abspath(page_path)))
    view.show()
    app.exec()
    from PySide6.QtCore import QEvent
    view.close()
    page.deleteLater()
    view.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    profile.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    print(json.dumps(result))
    return 0 if result else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
