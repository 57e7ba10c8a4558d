"""The offline gazetteer first; Nominatim answers what it cannot (SPEC_DECISIONS §1).

The road-trip planner is synchronous, so the online answers are fetched before it runs
(:func:`prefetch`, through the executor, concurrently) for the places the gazetteer does not know
or knows only ambiguously; :class:`LayeredGeocoder` then serves both. Every candidate still goes
through the resolver's seed 000 trust checks, whichever source it came from.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from engine.errors import InputError, ToolError

from .models import GeoCandidate, GeocodeRequest
from .normalize import normalise

ONLINE_LIMIT = 10


@dataclass
class OnlineAnswers:
    by_query: dict[str, list[GeoCandidate]] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)  # queries the online geocoder could not answer


class LayeredGeocoder:
    def __init__(self, gazetteer: Any, online: OnlineAnswers) -> None:
        self._gazetteer = gazetteer
        self._online = online

    def candidates(self, request: GeocodeRequest) -> list[GeoCandidate]:
        found = self._gazetteer.candidates(request)
        extra = self._online.by_query.get(normalise(request.query))
        if not extra or (found and not found[0].is_ambiguous):
            return found
        merged = {c.feature_id: c for c in [*found, *extra]}
        return sorted(merged.values(), key=lambda c: -c.confidence)[: request.limit]

    def __getattr__(self, name: str) -> Any:  # nearby(), lookup() …: the gazetteer's
        return getattr(self._gazetteer, name)


def needs_online(gazetteer: Any, query: str) -> bool:
    try:
        found = gazetteer.candidates(GeocodeRequest(query=query, limit=3))
    except InputError:
        return False  # the resolver reports the bad name itself
    return not found or found[0].is_ambiguous


async def prefetch(gazetteer: Any, queries: list[str], executor: Any, online: Any) -> OnlineAnswers:
    """Ask ``online`` (through ``executor``) for each query the gazetteer cannot answer."""
    answers = OnlineAnswers()
    wanted = list(dict.fromkeys(q for q in queries if needs_online(gazetteer, q)))

    async def one(query: str) -> None:
        request = GeocodeRequest(query=query, limit=ONLINE_LIMIT)
        try:
            found, _ = await executor.call("geocode", online.candidates, request, result_type=list[GeoCandidate],
                                           turn=getattr(online, "turn", None))  # the timeout: the request's, not the queue's
        except ToolError:
            answers.failed.append(query)
            return
        answers.by_query[normalise(query)] = found

    await asyncio.gather(*(one(q) for q in wanted))
    return answers
