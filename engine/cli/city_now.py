"""``plan --places`` and ``--bookings`` of a city no fixture covers: the files are matched to the
city's venues and checked against its airports before the run, so its pack is joined now (cached,
else fetched) — everything else about a city's pack happens in the run's city_pack node."""

from __future__ import annotations

import sys

from engine.frontend import resolve_city


def say(line: str) -> None:
    print(f"tripwright: {line}", file=sys.stderr)


def with_city_loaded(intent, session, *, verbose: bool):
    """A city ``intent`` whose places must be read before the run (saved places matched to its
    venues, bookings checked against its airports): its pack joined now and the intent settled
    to the pack city (name, airports, zone), as the run's city_pack node would."""
    if intent.mode != "city" or session.catalog.has_city(intent.city):
        return intent
    from engine.pipeline.city_pack_stage import fit_to_pack_city
    name = resolve_city(session, intent.city, say=say if verbose else None)
    return fit_to_pack_city(intent, session.catalog.city(name))
