"""``python -m engine.catalog [FILE ...]``: validate fixture files and print a summary."""

from __future__ import annotations

import sys
from pathlib import Path

from engine.errors import FixtureError

from .loader import load_raw, read_model
from .schema import RawCity, RawFlights, RawFX, RawWeather

_BY_NAME = {"flights.json": RawFlights, "weather.json": RawWeather, "fx.json": RawFX}


def main(argv: list[str]) -> int:
    try:
        for arg in argv:
            path = Path(arg)
            model = _BY_NAME.get(path.name, RawCity)
            obj = read_model(path, model)
            print(f"ok {path}: {type(obj).__name__}")
        if not argv:
            raw = load_raw()
            for slug, c in raw.cities.items():
                newest = max(r.verified_on for r in [*c.venues, *c.restaurants, c.transit])
                checked = sum(r.verified_on == newest for r in [*c.venues, *c.restaurants, c.transit])
                print(f"{slug}: {len(c.venues)} venues, {len(c.restaurants)} restaurants, "
                      f"{len(c.hotels)} hotels, airports {c.airports}; {checked} row(s) verified on {newest}")
            print(f"{len(raw.airports)} airports, {len(raw.flights.flights)} flights, "
                  f"fx {sorted(raw.fx.weekly)}")
    except FixtureError as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
