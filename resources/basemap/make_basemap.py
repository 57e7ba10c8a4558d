"""Rebuild countries.geojson and admin1.geojson from Natural Earth (see README.md here).

Not part of the app: a one-off tool, run in a throwaway venv with ``rdata``, ``shapely`` and
``numpy``, on the data directory of Debian's ``r-cran-rnaturalearthdata`` package::

    apt-get download r-cran-rnaturalearthdata && dpkg -x r-cran-rnaturalearthdata_*.deb deb
    python make_basemap.py deb/usr/lib/R/site-library/rnaturalearthdata/data .

The package stores R objects in a lazy-load database (``Rdata.rdx`` index, gzip; ``Rdata.rdb``
records: 4-byte length, type byte ``Z``, raw LZMA2 stream), each an ``sp`` SpatialPolygonsDataFrame.
"""

from __future__ import annotations

import gzip
import json
import lzma
import struct
import sys
import warnings
from pathlib import Path

import rdata
from rdata import parser
from shapely.geometry import MultiPolygon, Polygon, mapping
from shapely.validation import make_valid

TOLERANCE_DEG = 0.05
DECIMALS = 4
ADMIN1_COUNTRIES = {"United States of America", "Canada"}


def load_objects(data_dir: Path) -> dict:
    index = parser.parse_data(gzip.decompress((data_dir / "Rdata.rdx").read_bytes()))
    variables = rdata.conversion.convert(index)["variables"]
    rdb = (data_dir / "Rdata.rdb").read_bytes()
    objects = {}
    for name in ("countries50", "states50"):
        offset, length = (int(x) for x in variables[name])
        record = rdb[offset:offset + length]
        size, kind = struct.unpack(">I", record[:4])[0], record[4:5]
        assert kind == b"Z", kind
        raw = lzma.decompress(record[5:], format=lzma.FORMAT_RAW,
                              filters=[{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME}])
        assert len(raw) == size
        objects[name] = rdata.conversion.SimpleConverter().convert(parser.parse_data(raw))
    return objects


def shape_of(sp_polygons) -> MultiPolygon | Polygon:
    """sp Polygons (rings flagged as holes) -> shapely; each hole goes into the shell containing it."""
    shells, holes = [], []
    for ring in sp_polygons.Polygons:
        (holes if bool(ring.hole[0]) else shells).append([tuple(p) for p in ring.coords.tolist()])
    polys = []
    for shell in shells:
        outer = Polygon(shell)
        inner = [h for h in holes if outer.contains(Polygon(h).representative_point())]
        polys.append(Polygon(shell, inner))
    return make_valid(MultiPolygon(polys) if len(polys) > 1 else polys[0])


def rounded(geometry) -> dict:
    def walk(coords):
        if isinstance(coords[0], (int, float)):
            return [round(coords[0], DECIMALS), round(coords[1], DECIMALS)]
        return [walk(c) for c in coords]
    geo = mapping(geometry)
    return {"type": geo["type"], "coordinates": walk(json.loads(json.dumps(geo["coordinates"])))}


def polygonal(geometry):
    """Only the (multi)polygon part of a make_valid result (drops stray lines and points)."""
    if geometry.geom_type in ("Polygon", "MultiPolygon"):
        return geometry
    parts = [g for g in getattr(geometry, "geoms", []) if g.geom_type in ("Polygon", "MultiPolygon")]
    flat = [p for g in parts for p in (g.geoms if g.geom_type == "MultiPolygon" else [g])]
    return MultiPolygon(flat) if flat else None


def features(sp, keep, props) -> list[dict]:
    out = []
    for i, polygons in enumerate(sp.polygons):
        row = sp.data.iloc[i]
        if not keep(row):
            continue
        shape = polygonal(shape_of(polygons).simplify(TOLERANCE_DEG, preserve_topology=True))
        if shape is None or shape.is_empty:
            continue
        out.append({"type": "Feature", "properties": props(row), "geometry": rounded(shape)})
    return out


def write(path: Path, feats: list[dict]) -> None:
    doc = {"type": "FeatureCollection", "features": feats}
    path.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    print(f"{path.name}: {len(feats)} features, {path.stat().st_size / 1024:.0f} KiB")


def main(data_dir: str, out_dir: str) -> None:
    warnings.simplefilter("ignore")
    objects = load_objects(Path(data_dir))
    out = Path(out_dir)
    countries = objects["countries50"]
    write(out / "countries.geojson", features(
        countries, lambda r: True, lambda r: {"name": str(r["name"]), "iso_a3": str(r["iso_a3"])}))
    states = objects["states50"]
    write(out / "admin1.geojson", features(
        states, lambda r: str(r["admin"]) in ADMIN1_COUNTRIES,
        lambda r: {"name": str(r["name"]), "postal": str(r["postal"]), "country": str(r["admin"])}))


if __name__ == "__main__":
    main(*sys.argv[1:3])
