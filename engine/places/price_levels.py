"""Each country's price level relative to the United States (US = 1.0), for labelled estimates.

The figures are the World Bank's "Price level ratio of PPP conversion factor (GDP) to market
exchange rate" (PA.NUS.PPPC.RF, International Comparison Program) for 2023, rounded to 0.05, in
``fixtures/places/price_levels.json`` (its README says where they come from). A GDP-wide price level
is only a proxy for what a visitor pays; it scales the US base figures of ``estimates.py`` for
cities that have no fixture prices, and every such price is labelled an estimate.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from engine.catalog import fixtures_dir
from engine.errors import FixtureError


@lru_cache(maxsize=4)
def _levels_file(path: Path) -> dict:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        levels = {str(code).upper(): float(level) for code, level in doc["levels"].items()}
        default = float(doc["default"]["level"])
        basis = str(doc["default"]["basis"])
        admissions = {str(code).upper(): (str(row["currency"]), {str(k): float(v) for k, v in row.items()
                                                                 if k != "currency"})
                      for code, row in doc.get("admissions", {}).items() if code != "note"}
    except FileNotFoundError as exc:
        raise FixtureError(f"missing fixture file {path}") from exc
    except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise FixtureError(f"invalid fixture file {path}: {exc}") from exc
    if not levels or min(levels.values(), default=0.0) <= 0 or default <= 0:
        raise FixtureError(f"invalid fixture file {path}: price levels must be positive")
    if any(amount < 0 for _, kinds in admissions.values() for amount in kinds.values()):
        raise FixtureError(f"invalid fixture file {path}: an admission cannot be negative")
    return {"levels": levels, "default": default, "basis": basis, "year": doc.get("year"), "admissions": admissions}


def price_levels() -> dict[str, float]:
    """ISO 3166-1 alpha-2 code → price level (US = 1.0)."""
    return dict(_levels_file(fixtures_dir() / "places" / "price_levels.json")["levels"])


def price_level(country: str | None) -> tuple[float, str]:
    """(level, where it came from) for a country; the documented default when there is no figure."""
    doc = _levels_file(fixtures_dir() / "places" / "price_levels.json")
    code = (country or "").strip().upper()
    level = doc["levels"].get(code)
    if level is not None:
        return level, f"World Bank price level ratio {doc['year']} for {code} (PA.NUS.PPPC.RF)"
    return doc["default"], f"{doc['basis']}; no figure for {code or 'an unknown country'}"


def published_admission(country: str | None, kind: str) -> tuple[float, str] | None:
    """(amount, currency) of the published adult ticket for ``kind`` of place ("temple",
    "cathedral", "national_museum", "museum", ...) in ``country``, in its own currency — a
    typical level for that kind (``price_levels.json`` "admissions"), or None when there is none."""
    doc = _levels_file(fixtures_dir() / "places" / "price_levels.json")
    found = doc["admissions"].get((country or "").strip().upper())
    if found is None or kind not in found[1]:
        return None
    return found[1][kind], found[0]
