"""The planning session: ``PlanningSession.plan`` runs one trip, a city's (:mod:`.city_run`),
a road trip's (:mod:`.road_run`) or a multi-city trip's (:mod:`.multi_city_run`), on one run skeleton (:mod:`.skeleton`): events,
cancellation, checkpoints and node memoisation.

A ``PlanningSession`` keeps its tools and node memo across runs, so a re-plan after an edit
re-runs only the nodes whose inputs changed.
"""

from __future__ import annotations

import uuid
from datetime import date

import structlog

from engine.cancel import CancelToken
from engine.catalog import default_catalog
from engine.catalog.catalog import Catalog
from engine.facts import TripFacts
from engine.models import IntentV1, RoadTripIntent
from engine.notes.hints import NO_NOTES, NotesLookup
from engine.tools.toolbox import ToolOverrides, Toolbox, build_toolbox

from .city_run import CityRun, PlanEdit
from .control import NodeMemo
from .events import EarlyEvent, EventCallback
from .skeleton import PlanResult

__all__ = ["PlanEdit", "PlanResult", "PlanningSession"]


class PlanningSession:
    def __init__(self, catalog: Catalog | None = None, *, today: date | None = None,
                 overrides: ToolOverrides | None = None, toolbox: Toolbox | None = None,
                 geocoder=None, notes: NotesLookup | None = None) -> None:
        self._geocoder = geocoder
        self.notes = notes or NO_NOTES  # destination notes for the synthesizer (NO_NOTES: none)
        self.catalog = catalog or default_catalog()
        self.today = today or date.today()
        self._overrides = overrides
        self._packs = None
        # city name → what the traveller is told of a name other places share (city_pack_stage)
        self.place_notes: dict[str, str] = {}
        self.toolbox = toolbox or build_toolbox(self.catalog, today=self.today, overrides=overrides)
        self.memo = NodeMemo()
        self.last_facts: TripFacts | None = None
        self.last_intent: IntentV1 | RoadTripIntent | None = None  # a run of the same intent is a re-plan
        self.org_id: str | None = None  # who plans: set by the caller that signed in (log context)
        self.user_id: str | None = None
        self.early_events: list[EarlyEvent] = []  # model nodes run before the next plan (extraction, brief)
        self.heartbeat_s: float | None = 1.0  # a heartbeat event this often while a run goes (seed §8.2)
        self.event_tap: EventCallback | None = None  # sees every event of every run (the CLI's --events)

    def city_packs(self):
        """The OSM city packs (``engine.places.fetch.PackFetcher``) over this session's network
        and executor: the data dir's cache, else one Overpass query."""
        if self._packs is None:
            from engine.places.fetch import PackFetcher
            from engine.places.pack_store import PackStore
            self._packs = PackFetcher(PackStore(), self.toolbox.network, self.toolbox.executor)
        return self._packs

    def use_city_pack(self, pack) -> str:
        """Plan ``pack``'s city (an OSM city pack) from now on; the city's name in the catalog.
        The tools are rebuilt over the larger catalog; the executor (breakers, caches, stats)
        and the network state carry over."""
        from engine.places.catalog_link import PACK_RATE_CURRENCIES, catalog_with
        rates = self.toolbox.known_rates(PACK_RATE_CURRENCIES)  # FX asked once, handed on (issue 30 §2)
        catalog, name = catalog_with(self.catalog, pack, today=self.today, rates_to_usd=rates)
        if catalog is not self.catalog:
            self.catalog = catalog
            self.toolbox = build_toolbox(catalog, today=self.today, overrides=self._overrides,
                                         executor=self.toolbox.executor, network=self.toolbox.network,
                                         fx_answers=self.toolbox.fx_answers)
        return name

    def take_early_events(self) -> list[EarlyEvent]:
        """The events of the nodes run before this plan; the next run's stream starts with them."""
        early, self.early_events = self.early_events, []
        return early

    async def plan(self, intent: IntentV1 | RoadTripIntent, *, on_event: EventCallback | None = None,
                   cancel: CancelToken | None = None, edits: list[PlanEdit] | None = None,
                   run_id: str | None = None, drafter=None) -> PlanResult:
        """Plan ``intent``; ``drafter`` (engine.llm.drafting.Drafter) lets a model propose the
        choices the builder then schedules (``plan --llm``); ``edits`` are user edits applied to the selected plan before it is
        verified and repaired (the map's drag/remove/retime actions and eval perturbations).
        ``run_id``: the id the store already gave this run (events and itinerary carry it)."""
        run_id = run_id or str(uuid.uuid4())
        trace_id = uuid.uuid4().hex
        # Every log line of the run carries these (seed §13.1); nodes bind ``node`` as they run.
        with structlog.contextvars.bound_contextvars(trace_id=trace_id, run_id=run_id, org_id=self.org_id,
                                                     user_id=self.user_id, node="intent_extractor"):
            args = (self, intent, on_event, cancel or CancelToken(), run_id, trace_id)
            if intent.mode == "multi_city":
                from .multi_city_run import MultiCityRun
                run = MultiCityRun(*args, edits=edits or [])
            elif intent.mode == "road_trip":
                from .road_run import RoadRun  # the road stack (numpy, pyproj): not for a city's plan
                run = RoadRun(*args, drafter=drafter)
            else:
                run = CityRun(*args, drafter=drafter, edits=edits or [])
            return await run.execute()

    def geocoder(self):
        """The offline gazetteer by default (built once into the data dir); injectable."""
        if self._geocoder is None:
            from engine.geocode import default_gazetteer
            self._geocoder = default_gazetteer()
        return self._geocoder


