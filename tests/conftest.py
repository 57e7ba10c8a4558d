"""Shared test setup. Engine tests must also run where PySide6 is not installed."""

import atexit
import os
import shutil
import tempfile

# The suite never writes into the user's real data dir: one throwaway TRIPWRIGHT_HOME per run,
# shared with the CLI subprocesses (the gazetteer index is built there once, on first use).
if "TRIPWRIGHT_HOME" not in os.environ:
    _home = tempfile.mkdtemp(prefix="tripwright-test-home-")
    os.environ["TRIPWRIGHT_HOME"] = _home
    atexit.register(shutil.rmtree, _home, ignore_errors=True)

# No test reaches the internet: the real adapters (Open-Meteo, Nominatim) make no attempt unless a
# test points their URLs at its own 127.0.0.1 server and clears this (monkeypatch.delenv). The CLI
# subprocesses inherit it.
os.environ["TRIPWRIGHT_OFFLINE"] = "1"
# A second fence: a test (or a CLI subprocess) that drops TRIPWRIGHT_OFFLINE without pointing a URL
# at its own server meets a closed port on this machine, never the public service.
CLOSED_LOCAL_PORT = "http://127.0.0.1:9"
for _url in ("TRIPWRIGHT_OPEN_METEO_URL", "TRIPWRIGHT_NOMINATIM_URL", "TRIPWRIGHT_ROUTING_URL",
             "TRIPWRIGHT_OPENWEATHERMAP_URL", "TRIPWRIGHT_OVERPASS_URL", "TRIPWRIGHT_WIKIDATA_URL"):
    os.environ[_url] = CLOSED_LOCAL_PORT
os.environ.pop("OPENWEATHERMAP_API_KEY", None)  # a developer's own key never reaches a test

# Before any Qt import: render offscreen, and let QtWebEngine start as root.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")

# Property tests assert properties, not speed: no per-example deadline and no "too slow" health
# check, which a busy machine (xdist workers beside each other, issue 34 §5) trips at random.
# A test's own @settings still sets the rest (max_examples, ...).
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("tripwright", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tripwright")

try:
    # QtWebEngine must be imported before pytest-qt creates the QApplication.
    import PySide6.QtWebEngineWidgets  # noqa: F401
except ImportError:
    pass
