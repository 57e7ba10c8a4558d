"""The offline copy of a trip's area (issue 22 §1), against a real HTTP server on 127.0.0.1 that
honours Range and serves a small vector archive built here (zooms 0–16 over a part of Paris, so
both the bbox and the zoom-15 limit really filter)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from pmtiles.reader import MemorySource, Reader, all_tiles
from pmtiles.tile import zxy_to_tileid
from shapely.geometry import LineString, box

from engine.errors import InputError, PlanCancelled, ToolResponseError, ToolUnavailable
from engine.maps.offline_area import MAX_ZOOM, RangeReader, check_cap, new_client, plan_area, tiles_in, trip_bbox
from engine.maps.offline_download import coalesce, download_area, part_dir
from engine.cancel import CancelToken
from tests.engine.range_server import RangeServer
from tests.widgets.pmtiles_build import write_pmtiles
from widgets.tile_archives import open_archive

REGION = (2.30, 48.84, 2.40, 48.88)
TRIP = [(48.855, 2.340), (48.860, 2.350)]  # two stops inside the region's western half


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    roads = [(LineString([(2.30 + i * 0.004, 48.84), (2.30 + i * 0.004 + 0.01, 48.88)]), {"kind": "minor_road"})
             for i in range(25)]
    layers = {"earth": [(box(*REGION), {"kind": "earth"})],
              "water": [(box(2.33, 48.853, 2.37, 48.857), {"kind": "water"})],
              "roads": roads}
    return write_pmtiles(tmp_path_factory.mktemp("src") / "paris.pmtiles", layers, REGION, max_zoom=16)


@pytest.fixture
def online(monkeypatch):
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)


@pytest.fixture
def server(archive, online):
    running = RangeServer(archive)
    yield running
    running.stop()


def expected_tiles(archive: Path, bbox) -> dict[int, bytes]:
    source = archive.read_bytes()
    reader = Reader(MemorySource(source))
    out = {}
    for z in range(MAX_ZOOM + 1):
        for x, y in tiles_in(bbox, z):
            data = reader.get(z, x, y)
            if data is not None:
                out[zxy_to_tileid(z, x, y)] = data
    return out


def copy_tiles(path: Path) -> dict[int, bytes]:
    data = path.read_bytes()
    return {zxy_to_tileid(*zxy): tile for zxy, tile in all_tiles(MemorySource(data))}


async def _plan(url: str):
    async with new_client() as client:
        reader = RangeReader(url, client)
        return await plan_area(reader, trip_bbox(TRIP)), reader


async def _download(url: str, dest: Path, **kwargs):
    async with new_client() as client:
        reader = RangeReader(url, client)
        plan = await plan_area(reader, trip_bbox(TRIP))
        await download_area(plan, reader, dest, cap_mb=kwargs.pop("cap_mb", 200), **kwargs)
        return plan, reader


def test_the_copy_holds_exactly_the_trip_area_to_zoom_15(server, archive, tmp_path):
    dest = tmp_path / "offline_maps" / "trip-1.pmtiles"
    seen: list[tuple[int, int]] = []
    plan, reader = asyncio.run(_download(server.url, dest, progress=lambda d, t: seen.append((d, t))))
    bbox = trip_bbox(TRIP)
    want = expected_tiles(archive, bbox)
    source_ids = {zxy_to_tileid(*zxy) for zxy, _ in all_tiles(MemorySource(archive.read_bytes()))}
    assert len(want) < len(source_ids) / 2  # the bbox and zoom 15 leave most of the source out
    assert copy_tiles(dest) == want
    assert plan.max_zoom == 15 and plan.tile_count == len(want)
    # readable by the app's own reader and by pmtiles' Reader
    copy = open_archive(dest)
    try:
        assert copy.kind == "vector" and copy.max_zoom == 15
        z, x, y = 15, *next(iter(tiles_in(bbox, 15)))
        assert copy.tile(z, x, y)  # decompressed MVT bytes
    finally:
        copy.close()
    assert Reader(MemorySource(dest.read_bytes())).header()["max_zoom"] == 15
    # the estimate is the tile bytes written; the rest is the header, directories and metadata
    written = dest.stat().st_size
    assert plan.total_bytes <= written <= plan.total_bytes + 16384
    assert seen[-1] == (plan.total_bytes, plan.total_bytes)
    assert not part_dir(dest).exists() and [p.name for p in dest.parent.iterdir()] == ["trip-1.pmtiles"]
    assert all(ua.startswith("Tripwright/") for ua in server.user_agents)


def test_the_estimate_needs_no_tile_data(server, archive):
    plan, reader = asyncio.run(_plan(server.url))
    tile_data_start = plan.header["tile_data_offset"]
    assert all(offset < tile_data_start for offset, _len in reader.requests)
    distinct = {(offset, length) for _tid, offset, length in plan.tiles}  # deduplicated tiles share bytes
    assert plan.total_bytes == sum(length for _offset, length in distinct) > 0
    assert f"{plan.tile_count:,} tiles, zoom 0–15" in plan.summary()


def test_adjacent_ranges_are_fetched_together(server, tmp_path):
    dest = tmp_path / "t.pmtiles"
    plan, reader = asyncio.run(_download(server.url, dest))
    data_requests = [r for r in reader.requests if r[0] >= plan.header["tile_data_offset"]]
    assert len(data_requests) == len(coalesce(plan.ranges)) < len(plan.ranges)


def test_cancel_leaves_no_final_file_and_resume_fetches_only_the_rest(server, archive, tmp_path):
    dest = tmp_path / "t.pmtiles"
    token = CancelToken()

    def progress(done, total):
        if done:  # after the first chunk
            token.cancel()

    with pytest.raises(PlanCancelled):
        asyncio.run(_download(server.url, dest, progress=progress, cancel=token, chunk_bytes=2048))
    assert not dest.exists() and part_dir(dest).is_dir()
    kept = {p.name for p in part_dir(dest).glob("*.bin")}
    assert kept
    plan, reader = asyncio.run(_download(server.url, dest, chunk_bytes=2048))
    base = plan.header["tile_data_offset"]
    fetched = {f"{o - base}-{n}.bin" for o, n in reader.requests if o >= base}
    assert fetched and not fetched & kept
    assert copy_tiles(dest) == expected_tiles(archive, trip_bbox(TRIP))


def test_resume_after_the_server_dies_mid_download(archive, online, tmp_path):
    dest = tmp_path / "t.pmtiles"
    dying = RangeServer(archive, die_after=6)  # header, metadata, then a few chunks
    url = dying.url
    with pytest.raises(ToolUnavailable, match="cannot reach 127.0.0.1"):
        asyncio.run(_download(url, dest, chunk_bytes=2048))
    assert not dest.exists()
    kept = sorted(part_dir(dest).glob("*.bin"))
    assert kept
    dying.stop()
    again = RangeServer(archive, port=dying.port)
    try:
        plan, reader = asyncio.run(_download(url, dest, chunk_bytes=2048))
    finally:
        again.stop()
    base = plan.header["tile_data_offset"]
    data_requests = [r for r in again.seen if r[0] >= base]
    all_chunks = coalesce(plan.ranges, 2048)
    assert len(data_requests) == len(all_chunks) - len(kept)
    assert copy_tiles(dest) == expected_tiles(archive, trip_bbox(TRIP))


def test_an_estimate_above_the_cap_is_refused_with_both_figures(server, tmp_path):
    plan, _reader = asyncio.run(_plan(server.url))
    check_cap(plan, 1)  # a few kB: under a 1 MB cap
    with pytest.raises(InputError) as caught:
        check_cap(plan, 0)
    line = str(caught.value)
    assert "0 MB cap" in line and "kB" in line and "smaller area" in line and "\n" not in line
    dest = tmp_path / "t.pmtiles"
    before = len(server.seen)
    with pytest.raises(InputError, match="cap"):
        asyncio.run(_download(server.url, dest, cap_mb=0))
    assert len(server.seen) - before == 2 and not dest.exists()  # header and metadata, no tile


def test_a_server_without_range_support_is_one_clear_line(archive, online, tmp_path):
    plain = RangeServer(archive, ranges=False)
    try:
        with pytest.raises(ToolResponseError, match=r"does not serve byte ranges \(HTTP 200 instead of 206\)"):
            asyncio.run(_plan(plain.url))
    finally:
        plain.stop()


def test_a_file_that_is_not_pmtiles_is_named(tmp_path, online):
    fake = tmp_path / "fake.pmtiles"
    fake.write_bytes(b"<html>not found</html>" * 2000)
    bad = RangeServer(fake)
    try:
        with pytest.raises(ToolResponseError, match="is not a PMTiles v3 archive"):
            asyncio.run(_plan(bad.url))
    finally:
        bad.stop()


def test_offline_is_refused_at_once_without_a_request(archive, tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPWRIGHT_OFFLINE", "1")
    quiet = RangeServer(archive)
    try:
        with pytest.raises(ToolUnavailable, match="offline"):
            asyncio.run(_download(quiet.url, tmp_path / "t.pmtiles"))
        assert quiet.seen == [] and quiet.user_agents == []
    finally:
        quiet.stop()


def test_a_trip_with_no_points_is_an_input_error():
    with pytest.raises(InputError, match="no places"):
        trip_bbox([])


def test_a_network_that_is_down_is_one_line(online, tmp_path):
    with pytest.raises(ToolUnavailable) as caught:
        asyncio.run(_plan("http://127.0.0.1:9/area.pmtiles"))  # nothing listens there
    line = str(caught.value)
    assert line.startswith("offline map: cannot reach 127.0.0.1") and "\n" not in line


def test_a_coast_to_coast_area_is_refused_before_any_request(server):
    async def plan_wide():
        async with new_client() as client:
            return await plan_area(RangeReader(server.url, client), trip_bbox([(34.05, -118.24), (41.88, -87.63)]))

    with pytest.raises(InputError, match=r"to zoom 15 is [\d,]+ tiles .*smaller area or a lower zoom"):
        asyncio.run(plan_wide())
    assert server.seen == []


def test_tiles_are_counted_as_they_are_listed():
    from engine.maps.offline_area import count_tiles
    bbox = trip_bbox(TRIP)
    assert count_tiles(bbox, 0, 15) == sum(len(list(tiles_in(bbox, z))) for z in range(16))
