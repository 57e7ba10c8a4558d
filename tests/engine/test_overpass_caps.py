"""Issue 35 §3: an Overpass answer is read element by element and holds only what a pack keeps —
at most ``CAP_FACTOR`` × the query's limit of each kind, the best by the pack's own rank — and the
pack and the plan's decision say how many were left out. (A 46 MB answer's memory is measured by
bench/overpass_memory_bench.py, not here.)"""

from __future__ import annotations

import asyncio
import json

import pytest

from engine.errors import ToolResponseError
from engine.places import overpass
from engine.places.fetch import PackFetcher, city_box
from engine.places.pack_city import pack_city, pack_decision
from engine.places.pack_store import PackStore
from engine.tools.executor import ToolExecutor
from engine.net.network import NetworkState
from tests.overpass_standin import OverpassStandIn, Reply, load_lisbon

from .test_city_packs import lisbon


def _element(n: int, kind: str, tags: dict) -> dict:
    return {"type": kind, "id": n, "lat": 38.70 + n % 97 * 1e-4, "lon": -9.14 - n % 89 * 1e-4, "tags": tags}


def test_elements_past_a_kinds_cap_are_left_out_by_rank_and_counted() -> None:
    body = json.dumps({"version": 0.6, "osm3s": {"timestamp_osm_base": "2026-11-20T10:00:00Z"},
                       "elements": [_element(n, "node", {"name": f"P{n}", "kind": "sight" if n % 3 else "food"})
                                    for n in range(1, 31)], "remark": None}).encode()

    def keep(element):  # rank: the id; elements named P7 and P8 are not places at all
        if element.tags["name"] in ("P7", "P8"):
            return "not_for_travellers"
        return element.tags["kind"], float(element.id)
    answer = overpass.parse_answer(bytearray(body), keep=keep, caps={"sight": 5, "food": 3})
    sights = [e.id for e in answer.elements if e.tags["kind"] == "sight"]
    food = [e.id for e in answer.elements if e.tags["kind"] == "food"]
    assert sights == [23, 25, 26, 28, 29] and food == [24, 27, 30]  # the best, in the answer's order
    assert answer.dropped == {"not_for_travellers": 2, "over_the_cap": 30 - 2 - 8}
    assert answer.osm3s.timestamp_osm_base == "2026-11-20T10:00:00Z"
    whole = overpass.parse_answer(body)  # without a keeper: every element, as before
    assert [e.id for e in whole.elements] == list(range(1, 31)) and whole.dropped == {}


@pytest.mark.parametrize("body, where", [
    (b'{"elements": [{"type": "node", "id": "x"}]}', "elements.0.id"),
    (b'{"elements": [{"type": "node", "id": 1}, {"type": "area", "id": 2}]}', "elements.1.type"),
    (b'{"osm3s": {}}', "elements"),
    (b'{"elements": {"type": "node"}}', "'elements' is not one list"),
    (b'{"elements": [{"type": "node", "id": 1},]}', "unexpected answer"),
    (b'{"elements": []} trailing', "extra data"),
    (b'[1, 2]', "not a JSON object"),
    (b'{"elements": [], "osm3s": {"timestamp_osm_base": 5}}', "osm3s"),
    (b'\xff{"elements": []}', "not UTF-8"),
])
def test_a_malformed_answer_is_one_tool_error_naming_where(body, where) -> None:
    with pytest.raises(ToolResponseError, match="unexpected answer") as info:
        overpass.parse_answer(body, keep=lambda element: ("sight", 0.0))  # read element by element
    assert where in info.value.reason, info.value.reason


def test_a_server_that_ignores_the_querys_limits_gives_a_capped_pack_that_says_so(monkeypatch, tmp_path) -> None:
    """A lying server answers Lisbon with 5,300 more sights than asked (each a named attraction
    with nothing else tagged): the pack holds at most 2 × 2,500 sights, Lisbon's own museums among
    them, and the plan's decision says how many were left out."""
    spec = lisbon()
    box = city_box(spec)
    extra = [{"type": "node", "id": 8_000_000 + n, "lat": box.south + (box.north - box.south) * (n % 211) / 211,
              "lon": box.west + (box.east - box.west) * (n % 199) / 199,
              "tags": {"tourism": "attraction", "name": f"Plaque {n}"}} for n in range(5300)]
    elements = load_lisbon() + extra
    body = json.dumps({"version": 0.6, "osm3s": {"timestamp_osm_base": "2026-11-20T10:00:00Z"},
                       "elements": elements}).encode()
    server = OverpassStandIn(elements=load_lisbon()).start()
    try:
        monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
        monkeypatch.setenv("TRIPWRIGHT_OVERPASS_URL", server.interpreter_url)
        monkeypatch.setenv("TRIPWRIGHT_OVERPASS_TIMEOUT_S", "20")
        server.then(Reply(body=body))
        outcome = asyncio.run(PackFetcher(PackStore(tmp_path), NetworkState(), ToolExecutor()).ensure(spec))
    finally:
        server.stop()
    pack = outcome.pack
    cap = overpass.CAP_FACTOR * overpass.LIMITS["sight"]
    assert 300 <= pack.dropped["over_the_cap"] <= len(elements) - cap
    assert len(pack.of_kind("sight")) <= cap
    names = {p.name for p in pack.of_kind("sight")}
    assert {"Mosteiro dos Jerónimos", "Torre de Belém", "Oceanário de Lisboa"} <= names  # ranked above plaques
    decision = pack_decision(pack_city(pack, name="Lisbon", rates_to_usd={"USD": 1.0, "EUR": 1.1}))
    said = f"the {pack.dropped['over_the_cap']:,} ranked lowest of their kind were left out"
    assert said in decision.rationale, decision.rationale
