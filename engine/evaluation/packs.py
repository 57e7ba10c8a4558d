"""City packs for eval scenarios: a scenario's ``pack: lisbon_pt`` plans a city no fixture covers.

``tripwright eval`` runs offline, so a scenario cannot fetch a pack; it names one of the packs
shipped beside the scenarios (``tests/eval/packs/<slug>.json.gz``), and the runner joins it to the
session's catalog before planning — as ``PlanningSession.use_city_pack`` does with a cached pack.

The shipped packs are built from the hand-made OSM test data (``tests/data/osm/``, *not* travel
facts) through the real path — the client's Overpass query, answered by the test stand-in's
interpreter, parsed and ranked by ``engine.places`` — by ``python -m tests.eval.build_packs``;
``tests/eval/test_pack_scenarios.py`` checks each shipped file still equals what that builds.
They are written and read by ``PackStore`` (the data dir's cache format: gzip JSON, validated),
only pointed at this folder.
"""

from __future__ import annotations

import re
from pathlib import Path

from engine.errors import InputError
from engine.places.pack import CityPack
from engine.places.pack_store import PackStore

PACK_DIR = Path(__file__).resolve().parents[2] / "tests" / "eval" / "packs"
SLUG = re.compile(r"^[a-z0-9_]{2,64}$")


def pack_store(folder: Path | None = None) -> PackStore:
    """A ``PackStore`` over ``folder`` itself (default: the shipped eval packs), not ``<home>/city-packs``."""
    store = PackStore(folder or PACK_DIR, keep_copies=False)  # the repository's files: nothing written beside them
    store.folder = Path(folder or PACK_DIR)
    return store


def shipped_packs(folder: Path | None = None) -> list[str]:
    return [e.slug for e in pack_store(folder).entries()]


def load_eval_pack(slug: str, folder: Path | None = None) -> CityPack:
    """The shipped pack ``slug``; an ``InputError`` on field ``pack`` when there is none (or it is damaged)."""
    if not SLUG.match(slug or ""):
        raise InputError("pack", f"{slug!r} is not a pack slug (like 'lisbon_pt')")
    pack = pack_store(folder).load(slug)
    if pack is None:
        known = ", ".join(shipped_packs(folder)) or "none"
        raise InputError("pack", f"no eval pack {slug!r} in {folder or PACK_DIR} (shipped: {known}); "
                                 "build them with 'python -m tests.eval.build_packs'")
    return pack


__all__ = ["PACK_DIR", "load_eval_pack", "pack_store", "shipped_packs"]
