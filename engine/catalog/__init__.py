"""Embedded fixtures: on-disk schema, loader and the read-only Catalog."""

from .catalog import Catalog, City, default_catalog, parse_window
from .loader import fixtures_dir, load_raw

__all__ = ["Catalog", "City", "default_catalog", "fixtures_dir", "load_raw", "parse_window"]
