"""Embedded fixtures: on-disk schema, loader and the read-only Catalog.

the embedded fixtures (`fixtures/README.md`): on-disk schema (`schema.py`, human-friendly: local prices,
venue and restaurant hours as one OSM `opening_hours` rule each — `Su[-1]`, `PH off` by the city's country,
seasons, renovations — parsed once at load, with `verified_on` and a provenance `note` per row), loader
validated once per process, `Catalog` (cities, aliases, airports). `python -m engine.catalog` validates and
summarises
"""

from .catalog import Catalog, City, default_catalog, parse_window
from .loader import fixtures_dir, load_raw

__all__ = ["Catalog", "City", "default_catalog", "fixtures_dir", "load_raw", "parse_window"]
