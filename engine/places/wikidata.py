"""How well known a place is, online: the number of sites linking its Wikidata entry (issue 31 §1).

A world-famous basilica is linked from well over a hundred Wikipedias and sister sites; a district
museum from a handful. When a city pack is fetched, the Wikidata ids of its best-ranked sights are
sent to the Wikidata API once (``action=wbgetentities&props=sitelinks``, at most
:data:`BATCH` ids a request, one request at a time, :data:`INTERVAL_S` apart after each answer,
the project's User-Agent, ``maxlag`` so a busy server may say no). The counts land in each place's
``Fame.sitelinks`` and the pack says it asked (``CityPack.sitelinks``), so a pack is never asked
for twice. Offline, or when Wikidata does not answer at once, the pack keeps its offline signals:
no wait, no second try for that pack.

``TRIPWRIGHT_WIKIDATA_URL`` is the full ``api.php`` URL (tests point it at a stand-in).
"""

from __future__ import annotations

import asyncio
import os
import re
from dataclasses import dataclass
from typing import Iterable

import structlog

from engine.errors import ToolError, ToolResponseError

DEFAULT_URL = "https://www.wikidata.org/w/api.php"
TOOL = "wikidata"
BATCH = 50  # the API's limit of ids per wbgetentities request for a client without bot rights
MAX_IDS = 200  # a pack's best-ranked sights asked about: four requests at most
INTERVAL_S = 1.0  # between one answer and the next request
ATTEMPT_TIMEOUT_S = 6.0  # one request's whole time: a slow Wikidata is not waited for
MAXLAG_S = 5  # Wikimedia's etiquette: a lagging server answers "maxlag" instead of working
_QID = re.compile(r"^Q[1-9][0-9]{0,11}$")

log = structlog.get_logger(__name__)


def wikidata_url() -> str:
    return os.environ.get("TRIPWRIGHT_WIKIDATA_URL", DEFAULT_URL)


@dataclass(frozen=True)
class Sitelinks:
    """What Wikidata said: links per asked id (an id it does not know is left out), or why not."""

    counts: dict[str, int]
    failed: str | None = None  # why the counts stopped (offline, a timeout, an error answer)


def item_ids(values: Iterable[str | None], limit: int = MAX_IDS) -> list[str]:
    """The distinct well-formed item ids among ``values`` in their order, at most ``limit``
    (OSM's ``wikidata`` tag may hold ``Q1;Q2`` or a typo: the first valid id counts)."""
    out: list[str] = []
    for value in values:
        qid = next((part.strip() for part in (value or "").split(";") if _QID.match(part.strip())), None)
        if qid and qid not in out:
            out.append(qid)
            if len(out) == limit:
                break
    return out


async def sitelink_counts(network, ids: list[str], *, url: str | None = None,
                          interval_s: float = INTERVAL_S, timeout_s: float = ATTEMPT_TIMEOUT_S) -> Sitelinks:
    """Each id's sitelink count, asked in batches of :data:`BATCH`. The first failure ends the
    asking (what was answered is kept): the pack is built on what it has, without waiting."""
    counts: dict[str, int] = {}
    if not ids:
        return Sitelinks(counts)
    if network.offline():
        return Sitelinks(counts, "offline")
    where = url or wikidata_url()
    for n, start in enumerate(range(0, len(ids), BATCH)):
        if n:
            await asyncio.sleep(interval_s)
        batch = ids[start:start + BATCH]
        params = {"action": "wbgetentities", "ids": "|".join(batch), "props": "sitelinks", "format": "json",
                  "maxlag": str(MAXLAG_S)}
        try:
            body = await asyncio.wait_for(network.get_json(TOOL, where, params), timeout_s)
            counts.update(read_counts(body, batch))
        except (ToolError, asyncio.TimeoutError) as exc:
            why = exc.reason if isinstance(exc, ToolError) else f"no answer within {timeout_s:.0f} s"
            log.info("wikidata_unanswered", asked=len(batch), reason=why)
            return Sitelinks(counts, why)
    return Sitelinks(counts)


def read_counts(body: object, asked: list[str]) -> dict[str, int]:
    """The documented answer: ``{"entities": {"Q…": {"id": "Q…", "sitelinks": {"enwiki": {…}, …}}}}``;
    an unknown id comes back as ``{"id": "Q…", "missing": ""}``, a redirected one under its target
    with ``redirects: {from, to}``. An ``error`` object (``maxlag``, a bad id) is a refusal."""
    if not isinstance(body, dict) or not isinstance(body.get("entities"), dict):
        raise ToolResponseError(TOOL, "an answer without 'entities'")
    wanted = set(asked)
    out: dict[str, int] = {}
    for key, entity in body["entities"].items():
        if not isinstance(entity, dict) or "missing" in entity:
            continue
        links = entity.get("sitelinks")
        if not isinstance(links, dict):
            continue
        redirect = entity.get("redirects")
        source = redirect.get("from") if isinstance(redirect, dict) else None
        qid = next((q for q in (source, key, entity.get("id")) if q in wanted), None)
        if qid is not None:
            out[qid] = len(links)
    return out
