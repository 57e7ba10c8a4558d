"""The Overpass stand-in itself: a real HTTP server on 127.0.0.1 that interprets the city-pack
client's Overpass QL over the hand-made Lisbon data and the synthetic city, driven with httpx."""

from __future__ import annotations

import re
import time

import httpx
import pytest

from tests.data.osm.synthetic import synthetic_city
from tests.overpass_standin import OverpassStandIn, Reply, load_lisbon

CLIENT_QUERY = """[out:json][timeout:25][maxsize:67108864][bbox:38.69,-9.23,38.80,-9.09];
(
  nwr["tourism"~"^(museum|gallery|attraction|viewpoint|zoo|aquarium)$"];
  nwr["historic"~"^(monument|castle|memorial|ruins|fort)$"]["name"];
  nwr["amenity"="place_of_worship"]["wikidata"];
  nwr["leisure"~"^(park|garden)$"]["name"]["access"!="private"];
  node["amenity"="marketplace"](38.70,-9.20,38.75,-9.10);
);
out center tags 1500;
(
  nwr["amenity"~"^(restaurant|cafe|food_court)$"]["name"];
);
out center tags 1200;
"""
LISBON = "[out:json][timeout:25][bbox:38.69,-9.23,38.80,-9.09];"


@pytest.fixture()
def overpass():
    with OverpassStandIn(elements=load_lisbon()) as server:
        yield server


@pytest.fixture()
def client():
    with httpx.Client(timeout=5.0, headers={"User-Agent": "Tripwright-test/1.0"}) as c:
        yield c


def ask(client: httpx.Client, server: OverpassStandIn, ql: str) -> httpx.Response:
    return client.post(server.interpreter_url, data={"data": ql})


def names(elements: list[dict]) -> set[str]:
    return {e["tags"]["name"] for e in elements if "name" in e.get("tags", {})}


def test_the_client_query_returns_sights_then_food_in_the_overpass_format(overpass, client):
    overpass.timestamp_osm_base = "2026-11-21T08:00:00Z"
    answer = ask(client, overpass, CLIENT_QUERY)
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
    body = answer.json()
    assert body["version"] == 0.6 and "stand-in" in body["generator"]
    assert body["osm3s"]["timestamp_osm_base"] == "2026-11-21T08:00:00Z"
    sights_block, food_block = CLIENT_QUERY.split("out center tags 1500;")
    sights = ask(client, overpass, sights_block + "out center tags 1500;").json()["elements"]
    food = ask(client, overpass, sights_block.split(";")[0] + ";" + food_block).json()["elements"]
    assert body["elements"] == sights + food  # each block's out, in order
    assert {"Mosteiro dos Jerónimos", "Oceanário de Lisboa", "Sé de Lisboa", "Museu Nacional do Azulejo",
            "Castelo de São Jorge", "Feira da Ladra", "Jardim da Estrela"} <= names(sights)
    assert not names(sights) & {"Igreja de São Roque",  # a church without wikidata or tourism tag
                                "Jardim do Palácio de Belém",  # access=private
                                "Santuário de Cristo Rei",  # Almada: south of the bbox
                                "Cervejaria Ramiro", "Hotel Mundial"}
    assert all(e["tags"].get("amenity") not in ("restaurant", "cafe") for e in sights)
    assert {"Pastéis de Belém", "Cervejaria Ramiro", "Manteigaria"} <= names(food)
    assert not names(food) & {"A Ginjinha", "Pastelaria Suíça"}  # a bar; disused:amenity=cafe


def test_out_center_places_ways_and_out_tags_alone_does_not(overpass, client):
    centred = ask(client, overpass, LISBON + 'nwr["tourism"="aquarium"]; out center tags;').json()["elements"]
    assert centred == [{"type": "way", "id": centred[0]["id"], "center": {"lat": 38.7635, "lon": -9.0937},
                        "tags": centred[0]["tags"]}]
    bare = ask(client, overpass, LISBON + 'nwr["tourism"="aquarium"]; out tags;').json()["elements"]
    assert "center" not in bare[0] and bare[0]["tags"]["name"] == "Oceanário de Lisboa"
    node = ask(client, overpass, LISBON + 'node["name"="Feira da Ladra"];out tags;').json()["elements"][0]
    assert "lat" not in node  # Overpass prints coordinates for nodes only with body/skel/center
    node = ask(client, overpass, LISBON + 'node["name"="Feira da Ladra"];out;').json()["elements"][0]
    assert (node["lat"], node["lon"]) == (38.71545, -9.1256)


def test_the_out_limit_keeps_the_first_n_in_overpass_order(overpass, client):
    everything = ask(client, overpass, LISBON + 'nwr["tourism"="viewpoint"];out center tags;').json()["elements"]
    three = ask(client, overpass, LISBON + 'nwr["tourism"="viewpoint"];out center tags 3;').json()["elements"]
    assert len(everything) == 7 and three == everything[:3]
    assert [e["type"] for e in everything] == sorted((e["type"] for e in everything), key=["node", "way"].index)


def test_a_bbox_excludes_and_a_statement_bbox_overrides_the_global_one(overpass, client):
    assert ask(client, overpass, LISBON + 'node["name"="Santuário de Cristo Rei"];out;').json()["elements"] == []
    almada = LISBON + 'node["name"="Santuário de Cristo Rei"](38.60,-9.30,38.70,-9.10);out;'
    assert names(ask(client, overpass, almada).json()["elements"]) == {"Santuário de Cristo Rei"}


def test_negated_absent_and_case_insensitive_filters(overpass, client):
    parks = ask(client, overpass, LISBON + 'nwr["leisure"~"^(park|garden)$"]["access"!="private"];out center;')
    assert "Jardim do Palácio de Belém" not in names(parks.json()["elements"])
    not_museu = ask(client, overpass, LISBON + 'nwr[tourism=museum]["name"!~"^Museu"];out center;')
    assert names(not_museu.json()["elements"]) == {"MAAT – Museu de Arte, Arquitetura e Tecnologia"}
    unknown = ask(client, overpass, LISBON + 'nwr["tourism"="museum"][!"opening_hours"];out center;').json()
    assert {(e["type"], e["tags"]["name"]) for e in unknown["elements"]} == {
        ("node", "Museu do Aljube – Resistência e Liberdade"), ("node", "Museu da Marioneta"),
        ("way", "Museu Nacional de Arte Antiga")}  # the building twin of the museum's node
    gardens = ask(client, overpass, LISBON + 'nwr["name"~"^jardim",i]["access"!="private"];out center;')
    assert names(gardens.json()["elements"]) == {"Jardim Botânico de Lisboa", "Jardim da Estrela"}


@pytest.mark.parametrize("ql, says", [('[out:json];nwr["tourism"="museum"', "parse error"),
                                      ('[out:json];nodes["a"];out;', 'Unknown type "nodes"'),
                                      ('[out:xml];node["a"];out;', "only [out:json]"),
                                      ('[out:json];node["a"];out geom(1,2,3,4);', "an output mode or ';' expected")])
def test_a_query_it_cannot_parse_is_a_loud_400(overpass, client, ql, says):
    answer = ask(client, overpass, ql)
    assert answer.status_code == 400 and answer.headers["content-type"].startswith("text/html")
    text = re.sub(r"<[^>]+>", "", answer.text)  # Overpass wraps "Error" in <strong>
    assert "Error: line 1: " in text and says in text


def test_get_with_data_answers_too(overpass, client):
    answer = client.get(overpass.interpreter_url, params={"data": LISBON + 'way["historic"="fort"];out center;'})
    assert names(answer.json()["elements"]) == {"Torre de Belém"}


def test_a_scripted_429_with_retry_after_then_the_real_answer_and_every_request_seen(overpass, client):
    overpass.then(Reply(status=429, headers={"Retry-After": "1"}))
    first, second = ask(client, overpass, CLIENT_QUERY), ask(client, overpass, CLIENT_QUERY)
    assert first.status_code == 429 and first.headers["retry-after"] == "1" and "rate_limited" in first.text
    assert second.status_code == 200 and second.json()["elements"]
    assert [(s.method, s.path, s.ql) for s in overpass.seen] == [("POST", "/api/interpreter", CLIENT_QUERY)] * 2
    assert overpass.seen[0].header("user-agent") == "Tripwright-test/1.0" and overpass.seen[0].at <= overpass.seen[1].at


def test_gzip_drip_garbage_and_a_stall_the_client_gives_up_on(overpass, client):
    overpass.then(Reply(gzip=True), Reply(body=b"x" * 300, drip_bytes_per_s=2000), Reply(body=b"<html>garbage"),
                  Reply(delay_s=30))
    zipped = ask(client, overpass, LISBON + 'nwr["tourism"="aquarium"];out center;')
    assert zipped.headers["content-encoding"] == "gzip" and zipped.json()["elements"][0]["type"] == "way"
    started = time.monotonic()
    assert ask(client, overpass, LISBON + "node[a];out;").content == b"x" * 300
    assert time.monotonic() - started >= 0.1  # headers at once, the body trickled
    with pytest.raises(ValueError):
        ask(client, overpass, LISBON + "node[a];out;").json()
    with pytest.raises(httpx.ReadTimeout):
        client.post(overpass.interpreter_url, data={"data": LISBON + "node[a];out;"}, timeout=0.2)


def test_the_synthetic_city_is_3000_deterministic_elements_the_stand_in_serves():
    city = synthetic_city()
    assert len(city) == 3000 and len({e["id"] for e in city}) == 3000 and city == synthetic_city()
    assert city != synthetic_city(seed=8)
    assert sum(e["tags"].get("tourism") == "hotel" for e in city) == 240
    food = 'nwr["amenity"~"^(restaurant|cafe|food_court)$"]["name"];out center tags 1200;'
    with OverpassStandIn(elements=city) as server, httpx.Client() as client:
        elements = ask(client, server, "[out:json][bbox:41.80,-87.75,41.96,-87.50];" + food).json()["elements"]
    assert len(elements) == 1200 and all(e["tags"]["name"].startswith("Synthetic ") for e in elements)
