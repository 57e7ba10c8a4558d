"""Issue 35 §2: the offline-map download no longer trusts the archive. Lying archives built here
and served by the range server on 127.0.0.1: lengths no sane archive needs are refused before
they are asked for, gzip parts inflate within a bound, directories claiming millions of entries,
a root directory that is not gzip, empty, or ends in a varint that never ends — each is one
``ToolResponseError`` line (a ``TripwrightError``: what the app's window shows), never a
``BadGzipFile``/``EOFError`` escaping ``plan_area``."""

from __future__ import annotations

import asyncio
import gzip
import os
from pathlib import Path

import pytest
from pmtiles.tile import Compression, Entry, TileType, serialize_directory, serialize_header

from engine.errors import ToolResponseError, TripwrightError
from engine.maps import archive_bounds
from engine.maps.offline_area import RangeReader, new_client, plan_area, trip_bbox
from tests.engine.range_server import RangeServer
from tests.widgets.pmtiles_build import varint, write_archive

TRIP = [(48.855, 2.340), (48.860, 2.350)]
HEAD = 127


def lying_archive(path: Path, *, root: bytes, metadata: bytes = gzip.compress(b"{}"), leaves: bytes = b"",
                  metadata_length: int | None = None) -> Path:
    """A PMTiles v3 archive: header, ``root``, ``metadata``, ``leaves``, a few tile bytes."""
    tiles = b"\x1f\x8b" + b"t" * 64
    meta_at = HEAD + len(root)
    leaf_at = meta_at + len(metadata)
    data_at = leaf_at + len(leaves)
    header = {"root_offset": HEAD, "root_length": len(root), "metadata_offset": meta_at,
              "metadata_length": len(metadata) if metadata_length is None else metadata_length,
              "leaf_directory_offset": leaf_at, "leaf_directory_length": len(leaves), "tile_data_offset": data_at,
              "tile_data_length": len(tiles), "addressed_tiles_count": 1, "tile_entries_count": 1,
              "tile_contents_count": 1, "clustered": True, "internal_compression": Compression.GZIP,
              "tile_compression": Compression.GZIP, "tile_type": TileType.MVT, "min_zoom": 0, "max_zoom": 15}
    path.write_bytes(serialize_header(header) + root + metadata + leaves + tiles)
    return path


def leaf_pointer(length: int) -> bytes:
    """A root directory of one entry: every tile id is in a leaf directory of ``length`` bytes."""
    return serialize_directory([Entry(0, 0, length, 0)])


@pytest.fixture
def online(monkeypatch):
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)


def planned(path: Path) -> tuple[BaseException | None, list[tuple[int, int]]]:
    """What ``plan_area`` (as the app and the CLI call it) raises for the archive, and the ranges asked."""
    server = RangeServer(path)

    async def plan():
        async with new_client() as client:
            return await plan_area(RangeReader(server.url, client), trip_bbox(TRIP))
    try:
        asyncio.run(plan())
        return None, server.seen
    except BaseException as exc:  # noqa: BLE001 - the test asserts the type
        return exc, server.seen
    finally:
        server.stop()


def one_line(exc: BaseException | None, *words: str) -> str:
    assert isinstance(exc, ToolResponseError) and isinstance(exc, TripwrightError), repr(exc)
    line = str(exc)
    assert line.startswith("offline map: http://127.0.0.1:") and "\n" not in line, line
    assert all(w in line for w in words), line
    return line


def test_a_10_gb_metadata_length_is_refused_before_it_is_asked_for(tmp_path, online) -> None:
    exc, seen = planned(lying_archive(tmp_path / "a.pmtiles", root=leaf_pointer(10), metadata_length=10 * 10**9))
    one_line(exc, "its metadata claims 10,000 MB")
    assert seen == [(0, 16384)]  # the head only


def test_a_5_gb_leaf_directory_is_refused_before_it_is_asked_for(tmp_path, online) -> None:
    exc, seen = planned(lying_archive(tmp_path / "a.pmtiles", root=leaf_pointer(5 * 10**9)))
    one_line(exc, "its leaf directory claims 5,000 MB")
    assert all(length < 10**6 for _, length in seen), seen


def test_metadata_inflating_past_its_bound_is_refused(tmp_path, online) -> None:
    bomb = gzip.compress(b'{"a": "' + b" " * (50 * 10**6) + b'"}')  # 50 MB of JSON in ~50 kB
    exc, _ = planned(lying_archive(tmp_path / "a.pmtiles", root=leaf_pointer(10), metadata=bomb))
    one_line(exc, "its metadata inflates past 4 MB")


def test_a_leaf_directory_claiming_50_million_entries_is_refused(tmp_path, online) -> None:
    leaf = gzip.compress(varint(50_000_000) + b"\x00" * 4000)
    exc, _ = planned(lying_archive(tmp_path / "a.pmtiles", root=leaf_pointer(len(leaf)), leaves=leaf))
    one_line(exc, "its leaf directory claims 50,000,000 entries")


def test_a_16_kb_root_inflating_to_millions_of_entries_is_refused(tmp_path, online) -> None:
    root = gzip.compress(varint(4_100_000) + b"\x01" * (16 * 10**6), compresslevel=9)
    assert len(root) < 16384 - HEAD
    exc, _ = planned(lying_archive(tmp_path / "a.pmtiles", root=root))
    one_line(exc, "its root directory")


@pytest.mark.parametrize("root, words", [
    (b"\x00not gzip at all" * 4, ("root directory is not gzip data",)),
    (gzip.compress(b"\xff" * 40), ("root directory holds a number longer than 10 bytes",)),
    (gzip.compress(varint(3) + b"\x01\x01"), ("root directory", "claims 3 entries")),
    (gzip.compress(varint(1) + b"\x01\x00\x05\x80"), ("root directory ends in the middle of a number",)),
    (b"", ("root directory is empty",)),
    (gzip.compress(varint(1) + b"\x01\x00\x05\x01")[:-6], ("root directory is cut short",)),
], ids=["not-gzip", "endless-number", "fewer-entries", "number-cut", "empty", "cut-short"])  # gzip stamps the time
def test_a_malformed_root_directory_is_one_line(tmp_path, online, root, words) -> None:
    exc, _ = planned(lying_archive(tmp_path / "a.pmtiles", root=root))
    one_line(exc, *words)


def test_the_bounds_are_far_above_a_real_archives_directories() -> None:
    entries = [Entry(i * 4, i * 100, 100, 4) for i in range(20_000)]  # a dense leaf of a planet build
    raw = serialize_directory(entries)
    read = archive_bounds.read_directory(raw, "u", "leaf directory")
    assert [(e.tile_id, e.offset, e.length, e.run_length) for e in read] == \
        [(e.tile_id, e.offset, e.length, e.run_length) for e in entries]
    assert len(raw) < archive_bounds.MAX_DIRECTORY_BYTES // 10


# -- one huge tile: fetched and copied in pieces ------------------------------------------------------
def archive_with_a_huge_tile(path: Path, size: int) -> dict[int, bytes]:
    """Zooms 0–2 over the trip; zoom 0's one tile is ``size`` random bytes, the others small."""
    import os

    from pmtiles.tile import zxy_to_tileid

    from engine.maps.offline_area import tiles_in
    bbox = trip_bbox(TRIP)
    tiles = {zxy_to_tileid(z, x, y): (os.urandom(size) if z == 0 else f"tile {z}/{x}/{y}".encode())
             for z in range(3) for x, y in tiles_in(bbox, z)}
    write_archive(path, sorted(tiles.items()), compression=Compression.NONE, max_zoom=2,
                  bounds=(bbox.west, bbox.south, bbox.east, bbox.north), center=(0.0, 0.0), metadata={"name": "huge"})
    return tiles


def test_a_tile_larger_than_a_request_is_fetched_and_copied_in_pieces(tmp_path, online) -> None:
    from pmtiles.reader import MemorySource, all_tiles
    from pmtiles.tile import zxy_to_tileid

    from engine.maps.offline_download import download_area

    piece = 1_000_000
    tiles = archive_with_a_huge_tile(tmp_path / "huge.pmtiles", 3 * piece + 12_345)
    server = RangeServer(tmp_path / "huge.pmtiles")
    dest = tmp_path / "out" / "trip.pmtiles"

    async def download():
        async with new_client() as client:
            reader = RangeReader(server.url, client)
            plan = await plan_area(reader, trip_bbox(TRIP))
            await download_area(plan, reader, dest, cap_mb=200, chunk_bytes=piece)
    try:
        asyncio.run(download())
    finally:
        server.stop()
    assert max(length for _, length in server.seen) <= piece  # no request larger than a piece
    copied = {zxy_to_tileid(*zxy): data for zxy, data in all_tiles(MemorySource(dest.read_bytes()))}
    assert copied == tiles
    assert not (tmp_path / "out" / "trip.pmtiles.part").exists()


# -- tripwright maps download -----------------------------------------------------------------------
def tw(home: Path, *args: str) -> "subprocess.CompletedProcess":
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k not in ("TRIPWRIGHT_DATABASE_URL", "TRIPWRIGHT_OFFLINE",
                                                             "TRIPWRIGHT_PMTILES_URL")}
    return subprocess.run([str(Path(sys.executable).with_name("tripwright")), *args], capture_output=True, text=True,
                          env=env | {"TRIPWRIGHT_HOME": str(home)}, timeout=300)


def test_maps_download_a_box_and_a_lying_archive_from_the_command_line(tmp_path) -> None:
    from pmtiles.reader import MemorySource, all_tiles
    from pmtiles.tile import zxy_to_tileid

    tiles = archive_with_a_huge_tile(tmp_path / "area.pmtiles", 2000)
    box = trip_bbox(TRIP)
    server = RangeServer(tmp_path / "area.pmtiles")
    out = tmp_path / "box.pmtiles"
    try:
        done = tw(tmp_path / "home", "maps", "download", "--bbox", f"{box.south},{box.west},{box.north},{box.east}",
                  "--out", str(out), "--url", server.url)
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wrote {out} (") and "zoom 0–2" in done.stdout, done.stdout
    assert {zxy_to_tileid(*zxy): d for zxy, d in all_tiles(MemorySource(out.read_bytes()))} == tiles
    lying = RangeServer(lying_archive(tmp_path / "lying.pmtiles", root=b"\x00not gzip at all" * 4))
    try:
        bad = tw(tmp_path / "home", "maps", "download", "--bbox", f"{box.south},{box.west},{box.north},{box.east}",
                 "--out", str(tmp_path / "bad.pmtiles"), "--url", lying.url)
    finally:
        lying.stop()
    assert bad.returncode == 3 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr, bad.stderr
    assert "root directory is not gzip data" in bad.stderr and not (tmp_path / "bad.pmtiles").exists()


@pytest.mark.parametrize("args, words", [
    (["maps", "download"], "give a trip id or --bbox"),
    (["maps", "download", "--bbox", "1,2,3", "--out", "x.pmtiles", "--url", "http://127.0.0.1:9/a.pmtiles"],
     "expected four numbers"),
    (["maps", "download", "--bbox", "48.9,2.3,48.8,2.4", "--out", "x.pmtiles", "--url", "http://127.0.0.1:9/a"],
     "south < north"),
    (["maps", "download", "--bbox", "48.8,2.3,48.9,2.4", "--out", "x.pmtiles"], "no offline map source"),
    (["maps", "download", "--bbox", "48.8,2.3,48.9,2.4", "--url", "http://127.0.0.1:9/a.pmtiles"], "--out"),
    (["maps", "download", "no-such-trip", "--url", "http://127.0.0.1:9/a.pmtiles"], "no-such-trip"),
])
def test_maps_download_bad_arguments_are_one_line_exit_2(tmp_path, args, words) -> None:
    done = tw(tmp_path / "home", *args)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("tripwright: ") and words in done.stderr, done.stderr


def test_maps_download_checks_its_out_path_as_every_command_does(tmp_path) -> None:
    """The CLI's one output check (engine/cli/paths.Outputs), before any request: a missing folder,
    a folder, a read-only folder — one line, exit 2, nothing written."""
    folder = tmp_path / "a.pmtiles"
    folder.mkdir()
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    box = ["--bbox", "48.8,2.3,48.9,2.4", "--url", "http://127.0.0.1:9/a.pmtiles"]
    try:
        for out, words in ((tmp_path / "none" / "x.pmtiles", "does not exist"), (folder, "is a folder"),
                           (locked / "x.pmtiles", "cannot write in")):
            if words == "cannot write in" and os.geteuid() == 0:
                continue  # root writes in a read-only folder: nothing to refuse
            done = tw(tmp_path / "home", "maps", "download", *box, "--out", str(out))
            assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
            assert done.stderr.startswith("tripwright: --out") and words in done.stderr, done.stderr
    finally:
        locked.chmod(0o700)
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file() and "home" not in p.parts) == []


def test_maps_download_a_stored_trip_goes_where_the_app_looks(tmp_path) -> None:
    from engine.maps.offline_download import offline_map_path

    home = tmp_path / "home"
    root = Path(__file__).resolve().parents[2]
    saved = tw(home, "plan", "--intent", str(root / "docs" / "examples" / "paris.json"), "--save", "--today", "2026-11-23")
    assert saved.returncode == 0, saved.stderr
    trip = tw(home, "trips", "list").stdout.split()[0]
    archive_with_a_huge_tile(tmp_path / "area.pmtiles", 2000)
    server = RangeServer(tmp_path / "area.pmtiles")
    try:
        done = tw(home, "maps", "download", trip, "--url", server.url)
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr
    assert offline_map_path(home, trip).is_file() and str(offline_map_path(home, trip)) in done.stdout, done.stdout
