"""One identity key in every script (issue 30 §1): two different places with non-Latin names, of
one kind and a few metres apart, are two places — in a city pack and in a corridor chunk; the same
place mapped twice (a node and a building way) is still kept once; Latin names fold as before."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.places.corridor import _twins_once
from engine.places.identity import name_key
from engine.places.osm_reader import PlaceRow
from engine.places.pack_build import dedupe

# (script, two different museums' names, the first written another way that names it too)
SCRIPTS = [
    ("japanese", "京都国立近代美術館", "京都市京セラ美術館", "京都国立近代美術館"),
    ("chinese", "北京故宫博物院", "中国国家博物馆", "北京故宫博物院"),
    ("korean", "국립중앙박물관", "국립한글박물관", "국립중앙박물관"),
    ("cyrillic", "Государственный Эрмитаж", "Русский музей", "ГОСУДАРСТВЕННЫЙ ЭРМИТАЖ"),
    ("greek", "Μουσείο Ακρόπολης", "Εθνικό Αρχαιολογικό Μουσείο", "ΜΟΥΣΕΊΟ ΑΚΡΌΠΟΛΗΣ"),
    ("arabic", "المتحف المصري", "متحف الفن الإسلامي", "المتحف  المصري"),
]


@pytest.mark.parametrize(("script", "one", "other", "same"), SCRIPTS, ids=[s[0] for s in SCRIPTS])
def test_a_non_latin_name_has_its_own_key(script: str, one: str, other: str, same: str) -> None:
    assert name_key(one), f"{script}: the key of {one!r} is empty"
    assert name_key(one) != name_key(other)
    assert name_key(same) == name_key(one)  # case, width and spacing fold in every script


@pytest.mark.parametrize(("script", "one", "other", "same"), SCRIPTS, ids=[s[0] for s in SCRIPTS])
def test_two_museums_side_by_side_are_two_places_in_a_city_pack(script: str, one: str, other: str,
                                                                 same: str) -> None:
    a = _pack_place(1, one, 35.0)
    b = _pack_place(2, other, 35.0005)  # ~55 m apart
    twin = _pack_place(3, same, 35.0002, osm_type="way", extra={"building": "yes"})
    dropped: Counter = Counter()
    kept = dedupe([a, b, twin], dropped)
    assert sorted(p.osm_id for p in kept) == [2, 3], script  # the twin with more tags stands for the first
    assert dropped["duplicate"] == 1


@pytest.mark.parametrize(("script", "one", "other", "same"), SCRIPTS, ids=[s[0] for s in SCRIPTS])
def test_two_museums_side_by_side_are_two_places_in_a_corridor_chunk(script: str, one: str, other: str,
                                                                      same: str) -> None:
    a = PlaceRow("node", 1, "sight", "tourism", "museum", one, 35.0, 135.0, {"tourism": "museum"}, road=True)
    b = PlaceRow("node", 2, "sight", "tourism", "museum", other, 35.0005, 135.0, {"tourism": "museum"}, road=True)
    twin = PlaceRow("way", 3, "sight", "tourism", "museum", same, 35.0002, 135.0,
                    {"tourism": "museum", "building": "yes"}, road=True)
    assert sorted(p.osm_id for p in _twins_once([a, b, twin])) == [2, 3], script


def test_latin_names_fold_as_before() -> None:
    assert name_key("Musée d'Orsay") == "musee d orsay"
    assert name_key("Sacré-Cœur") == "sacre cur"  # œ was dropped by ASCII folding; it still is
    assert name_key("Café  de Flore!") == name_key("cafe de flore") == "cafe de flore"
    assert name_key("Straße–Brücke") == "straebrucke"  # ß and the dash were dropped, not spaced
    assert name_key("Ｍｕｓｅｕｍ ２") == "museum 2"  # full-width Latin folds to ASCII
    assert name_key("!!!") == ""


def test_a_mixed_name_keeps_both_scripts() -> None:
    assert name_key("Café 東京") == "cafe 東京"
    assert name_key("Café 東京") != name_key("Café 大阪")


def _pack_place(osm_id: int, name: str, lat: float, *, osm_type: str = "node",
                extra: dict[str, str] | None = None) -> PlaceRow:
    return PlaceRow(osm_type=osm_type, osm_id=osm_id, kind="sight", key="tourism", category="museum",
                    name=name, lat=lat, lon=135.0, tags={"tourism": "museum", **(extra or {})})
