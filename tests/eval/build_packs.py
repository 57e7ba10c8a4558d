"""Build the city packs the eval scenarios plan (``tests/eval/packs/<slug>.json.gz``).

    .venv/bin/python -m tests.eval.build_packs            # rewrite the shipped packs
    .venv/bin/python -m tests.eval.build_packs --check    # exit 1 if a shipped pack is out of date

Each pack goes through the path a real fetch takes, minus the HTTP transport: the city resolved by
the offline gazetteer, its box (``fetch.city_box``), the client's own Overpass query
(``overpass.city_query``) answered by the test stand-in's interpreter over the hand-made OSM data
(``tests/data/osm/``), the answer parsed (``overpass.parse_answer``) and built, ranked and
de-duplicated (``pack_build.build_pack``) with the zone, currency and airports ``PackFetcher``
gives. Only ``fetched_at`` and ``source_url`` are fixed, so the file is reproducible. The data is
test data, not travel facts (tests/data/osm/README.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime, timezone
from typing import Callable

from engine.evaluation.packs import PACK_DIR, pack_store
from engine.places.pack import CityPack

FETCHED_AT = datetime(2026, 11, 20, 10, 0, tzinfo=timezone.utc)  # the stand-in's timestamp_osm_base


def _lisbon_elements() -> list[dict]:
    from tests.overpass_standin import load_lisbon
    return load_lisbon()


# slug -> (the name the gazetteer resolves, the OSM elements the stand-in serves, where they come from)
def _data(name: str) -> Callable[[], list[dict]]:
    from pathlib import Path
    return lambda: json.loads((Path(__file__).resolve().parents[1] / "data" / "osm" / name).read_text(encoding="utf-8"))


SOURCES: dict[str, tuple[str, Callable[[], list[dict]], str]] = {
    "lisbon_pt": ("Lisbon", _lisbon_elements, "tests/data/osm/lisbon.json via the Overpass stand-in"),
    # the plan-quality cities (issue 31 §6, tests/data/osm/quality.json): tests/eval/quality_scenarios/
    "barcelona_es": ("Barcelona, Spain", _data("barcelona.json"), "tests/data/osm/barcelona.json via the Overpass stand-in"),
    "kyoto_jp": ("Kyoto", _data("kyoto.json"), "tests/data/osm/kyoto.json via the Overpass stand-in"),
}


def build_eval_pack(slug: str) -> CityPack:
    from engine.geocode import default_gazetteer
    from engine.places.city_spec import resolve_city
    from engine.places.fetch import airports_near, city_box, currency_of
    from engine.places.overpass import city_query, parse_answer
    from engine.places.pack_build import build_pack
    from engine.geocode.zones import zone_at
    from tests.overpass_standin import OverpassStandIn

    city, elements, source = SOURCES[slug]
    spec = resolve_city(city, default_gazetteer())
    if spec.slug != slug:
        raise SystemExit(f"{city!r} resolves to {spec.slug}, not {slug}")
    box = city_box(spec)
    standin = OverpassStandIn(elements())  # its interpreter only: no server thread is started
    try:
        document = standin.answer(city_query(box))
    finally:
        standin.stop()
    answer = parse_answer(json.dumps(document, ensure_ascii=False).encode())
    return build_pack(spec, answer, box=box, tz=zone_at(spec.lat, spec.lon), currency=currency_of(spec.country),
                      airports=airports_near(spec), fetched_at=FETCHED_AT, source_url=source)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.eval.build_packs", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 when a shipped pack differs")
    args = parser.parse_args(argv)
    store, stale = pack_store(), []
    for slug in SOURCES:
        built = build_eval_pack(slug)
        if args.check:
            if store.load(slug) != built:
                stale.append(slug)
            continue
        path = store.save(built)
        path.chmod(0o644)  # a file in the repository, not a private cache entry (PackStore's mkstemp: 0600)
        counts = built.counts()
        print(f"{path}: {counts['sight']} sights, {counts['food']} food, {counts['bed']} beds, "
              f"{path.stat().st_size} bytes")
    if stale:
        print(f"out of date: {', '.join(stale)} (run python -m tests.eval.build_packs)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
