"""The map's browser profile: online tiles are fetched the way the OpenStreetMap tile usage
policy asks — an identifying User-Agent with a contact URL (the page is a local file: it sends no
Referer, which the policy asks for only "if known"), and a disk cache that honours the servers' cache headers
(Chromium's HTTP cache), so tiles already seen are not fetched again. Leaflet loads only the
tiles in view (no bulk prefetch).

One named profile per process, owned by the QApplication so it outlives every page that uses it.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWebEngineCore import QWebEngineProfile

from engine.net.network import PROJECT_URL

PROFILE_NAME = "tripwright-map"
CACHE_BYTES = 200 * 1024 * 1024
_profile: QWebEngineProfile | None = None


def user_agent(base: str) -> str:
    try:
        ours = f"Tripwright/{version('tripwright')}"
    except PackageNotFoundError:
        ours = "Tripwright"
    return f"{ours} (+{PROJECT_URL}; desktop trip planner) {base}"


def map_profile() -> QWebEngineProfile:
    global _profile
    if _profile is None:
        from engine.store.sqlite_file import data_dir

        root = Path(data_dir()) / "web"
        profile = QWebEngineProfile(PROFILE_NAME, QCoreApplication.instance())
        profile.setPersistentStoragePath(str(root / "storage"))
        profile.setCachePath(str(root / "cache"))
        profile.setHttpCacheType(QWebEngineProfile.HttpCacheType.DiskHttpCache)
        profile.setHttpCacheMaximumSize(CACHE_BYTES)
        profile.setPersistentCookiesPolicy(QWebEngineProfile.PersistentCookiesPolicy.NoPersistentCookies)
        profile.setHttpUserAgent(user_agent(profile.httpUserAgent()))
        _profile = profile
    return _profile
