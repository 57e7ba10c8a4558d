"""A cached pack's indexed copy (engine/places/pack_rows.py): the same pack, byte for byte, as its
``.json.gz``; made on save and on the first read of a pack without one; never trusted when it is
not the copy of the file beside it; never written into a folder that keeps no copies; and the
shortlist that reads a big pack's best rows picks what it always picked."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from engine.evaluation.packs import PACK_DIR, pack_store
from engine.places import pack_store as pack_store_module
from engine.places.osm_reader import PlaceRow
from engine.places.pack_city import SPREAD_PENALTY, _cell, shortlist
from engine.places.pack_rows import copy_path, read_copy
from engine.places.pack_store import PackStore

SHIPPED = sorted(p.name.removesuffix(".json.gz") for p in PACK_DIR.glob("*.json.gz"))


def _cached(tmp_path: Path, slug: str) -> PackStore:
    """The shipped pack in a data dir of its own, as an older build left it: no copy."""
    store = PackStore(tmp_path)
    store.folder.mkdir(parents=True)
    shutil.copy(PACK_DIR / f"{slug}.json.gz", store.path(slug))
    pack_store_module.clear_read_cache()
    return store


@pytest.mark.parametrize("slug", SHIPPED)
def test_the_copy_reads_as_the_pack_itself(tmp_path, slug) -> None:
    store = _cached(tmp_path, slug)
    from_json = store.load(slug)  # the first read makes the copy: a migration on read
    assert from_json is not None and copy_path(store.path(slug)).is_file()
    pack_store_module.clear_read_cache()
    stat = store.path(slug).stat()
    from_copy = read_copy(store.path(slug), stat.st_size, stat.st_mtime_ns)
    assert from_copy is not None
    assert from_copy.model_dump_json() == from_json.model_dump_json()  # tags and names in their order too
    assert from_copy == from_json
    assert [p.place() for p in from_copy.places] == [p.place() for p in from_json.places]


def test_a_saved_pack_brings_its_copy_and_a_rewritten_one_is_not_read_from_the_old(tmp_path) -> None:
    slug = SHIPPED[0]
    pack = pack_store(PACK_DIR).load(slug)
    store = PackStore(tmp_path)
    store.save(pack)
    assert copy_path(store.path(slug)).is_file()
    renamed = pack.model_copy(update={"label": "Renamed, XX", "places": pack.places[:3]})
    old_copy = copy_path(store.path(slug)).read_bytes()
    store.save(renamed)
    copy_path(store.path(slug)).write_bytes(old_copy)  # a copy left from before the pack was rewritten
    pack_store_module.clear_read_cache()
    loaded = store.load(slug)
    assert loaded is not None and loaded.label == "Renamed, XX" and len(loaded.places) == 3
    assert store.delete(slug) and not copy_path(store.path(slug)).exists()


def test_a_damaged_copy_reads_as_absent_and_is_made_again(tmp_path) -> None:
    slug = SHIPPED[0]
    store = _cached(tmp_path, slug)
    good = store.load(slug)
    copy_path(store.path(slug)).write_bytes(b"SQLite format 3\x00" + os.urandom(2000))
    pack_store_module.clear_read_cache()
    assert store.load(slug) == good
    stat = store.path(slug).stat()
    assert read_copy(store.path(slug), stat.st_size, stat.st_mtime_ns) == good  # written again


def test_the_shipped_packs_folder_gets_no_copies(tmp_path) -> None:
    folder = tmp_path / "packs"
    shutil.copytree(PACK_DIR, folder, ignore=shutil.ignore_patterns("*.sqlite3"))
    pack_store_module.clear_read_cache()
    assert pack_store(folder).load(SHIPPED[0]) is not None
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{s}.json.gz" for s in SHIPPED)


def _shortlist_as_before(places: list[PlaceRow], limit: int) -> list[PlaceRow]:
    """The shortlist as it was written before big packs (every row sorted, removed by value)."""
    remaining = sorted(places, key=lambda p: (-p.rank, p.osm_id))
    taken: list[PlaceRow] = []
    per_cell: dict[tuple[int, int], int] = {}
    while remaining and len(taken) < limit:
        best = max(remaining, key=lambda p: p.rank - SPREAD_PENALTY * per_cell.get(_cell(p), 0))
        remaining.remove(best)
        taken.append(best)
        per_cell[_cell(best)] = per_cell.get(_cell(best), 0) + 1
        if len(remaining) > 4 * limit:
            remaining = remaining[:4 * limit]
    return taken


def test_the_shortlist_picks_what_it_picked_before() -> None:
    rng = random.Random(3)
    for trial in range(120):
        count, limit = rng.choice([0, 1, 7, 60, 700]), rng.choice([1, 4, 12, 48])
        rows = [PlaceRow("node", rng.randrange(10**6), "sight", "tourism", "museum", f"Place {i}",
                         41.8 + rng.random() * rng.choice([0.004, 0.1]), -87.6 + rng.random() * 0.05, {},
                         round(rng.choice([rng.random(), 0.5, 1.0]) * 3, 1)) for i in range(count)]
        if rows and trial % 3 == 0:
            rows.append(rows[0].replace())  # an equal twin: ties are broken as before
        assert [id(p) for p in shortlist(list(rows), limit)] == \
            [id(p) for p in _shortlist_as_before(list(rows), limit)], (trial, count, limit)


def test_a_copy_that_cannot_be_written_leaves_the_pack_read_once_from_its_json(tmp_path) -> None:
    slug = SHIPPED[0]
    store = _cached(tmp_path, slug)
    copy_path(store.path(slug)).mkdir()  # in the copy's way (root ignores a read-only folder)
    first = store.load(slug)
    hits = pack_store_module._read_pack.cache_info().hits
    assert store.load(slug) == first and first is not None
    assert pack_store_module._read_pack.cache_info().hits == hits + 1  # not parsed again
    assert not [p for p in store.folder.iterdir() if p.name.endswith(".tmp")]
