"""Where the map's online street tiles come from: OpenStreetMap's raster tiles (their tile usage
policy: an identifying User-Agent, a disk cache honouring the servers' cache headers, only the
tiles in view — see ``widgets/web_profile.py``), or the server ``TRIPWRIGHT_TILE_URL`` names (a
self-hosted tile server, a test's local one).

A bad ``TRIPWRIGHT_TILE_URL`` is one line naming the variable, and OpenStreetMap's tiles are used.
Qt-free, so the check is plain to test.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import NamedTuple
from urllib.parse import urlsplit

TILE_URL_ENV = "TRIPWRIGHT_TILE_URL"
OSM_TILE_URL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
OSM_ATTRIBUTION = "\u00a9 OpenStreetMap contributors"
MAX_ZOOM = 19
# No characters that could leave a URL in the page's Content-Security-Policy or a JS string.
_SAFE = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&()*+,=%{}]+")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


class TileSource(NamedTuple):
    url: str  # a Leaflet {z}/{x}/{y} template
    origin: str  # scheme://host[:port], what the page may load images from
    warning: str | None  # one line when the environment named a URL that cannot be used


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def check_tile_url(url: str) -> str:
    """``url`` when it is an http(s) ``{z}/{x}/{y}`` template; ValueError saying why not."""
    url = url.strip()
    try:
        parts = urlsplit(url)
        host, _port = parts.hostname, parts.port
    except ValueError:
        raise ValueError("not a URL") from None
    if parts.scheme not in ("http", "https") or not host:
        raise ValueError("expected an http:// or https:// URL")
    if not _SAFE.fullmatch(url) or parts.username or parts.password:
        raise ValueError("has characters a tile URL cannot contain (spaces, quotes, a user name)")
    names = _PLACEHOLDER.findall(url)
    if sorted(names) != ["x", "y", "z"] or url.count("{") != 3 or url.count("}") != 3:
        raise ValueError("expected {z}, {x} and {y} once each, e.g. https://tiles.example.org/{z}/{x}/{y}.png")
    if "{" in parts.netloc:
        raise ValueError("{z}, {x} and {y} belong in the path, not the host")
    return url


def tile_source(environ: Mapping[str, str] | None = None) -> TileSource:
    environ = os.environ if environ is None else environ
    wanted = (environ.get(TILE_URL_ENV) or "").strip()
    if not wanted:
        return TileSource(OSM_TILE_URL, origin_of(OSM_TILE_URL), None)
    try:
        url = check_tile_url(wanted)
    except ValueError as exc:
        warning = f"{TILE_URL_ENV}: {exc}; using OpenStreetMap's tiles."
        return TileSource(OSM_TILE_URL, origin_of(OSM_TILE_URL), warning)
    return TileSource(url, origin_of(url), None)
