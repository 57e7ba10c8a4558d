"""A multi-city trip's run (issue 33): intent → places (each stay's city: a fixture city or its
OpenStreetMap pack, cached or fetched) → legs (each leg between stays: booked, or the mode a
traveller would take, estimated and labelled) → stays (each planned by the city run's own stages
as a one-city trip whose ends are the legs: its pack, bookings, saved places, tools, branches,
selector, transfers, verifier ⇄ repair, synthesizer) → home (the flight home from the first city
when the trip goes back there) → chain (the stays stitched into one itinerary, checked as one
chain) → responder. Every stay's stages stream their events inside the stays stage's share of
the bar, on this run's one emitter."""

from __future__ import annotations

import dataclasses

from engine.canonical import digest
from engine.errors import CityPackMissing, InfeasiblePlan, InputError
from engine.models import Decision, EventStatus, MultiCityIntent, PlanFailure, RepairDiff, Tier
from engine.repair.chain_moves import ChainDraft, StayFigures, chain_move_rationale, propose_chain
from engine.verify import blocking

from .city_pack_stage import join_city_pack
from .city_run import CityRun
from .skeleton import Run, Stage, bar_spans, logged_verification

SKIPPED_CITY_STAGES = frozenset({"city_pack", "draft"})  # the pack joins in the places stage; no model drafts a stay
MAX_CHAIN_CYCLES = 3  # bounded like a city plan's repair (seed §7.2)
MAX_CHAIN_MOVES = 2  # per cycle


class MultiCityRun(Run):
    MEMO_SPACE = "multi."

    def __init__(self, *args, edits: list | None = None, **kw) -> None:
        super().__init__(*args, replan=bool(edits), **kw)
        self.edits = list(edits or [])  # the traveller's edits on the stitched itinerary, routed to stays
        self.places: list = []  # StayPlace per stay
        self.subs: list[CityRun] = []  # the city run of each stay
        self.legs: list = []  # PlannedLeg per leg
        self.plans: list = []  # StayPlan per stay
        self.home = None  # HomeFromFirst when the trip flies home from the first city
        self.violations: list = []
        self.draft = ChainDraft(intent=self.intent)  # the stays and legs to plan, as chain repair leaves them
        self.diffs: list[RepairDiff] = []

    # -- the stages ------------------------------------------------------------------------------
    async def _intent(self) -> None:
        intent: MultiCityIntent = self.intent
        route = " → ".join(f"{s.city} ({s.nights} night{'s' if s.nights > 1 else ''})" for s in intent.stays)
        self.emitter.emit("intent_extractor", EventStatus.completed, args_digest=digest(intent), duration_ms=0,
                          cache_hit=False, note=f"{route}, {intent.days} days")

    async def _places(self) -> None:
        from engine.multicity.provisional import provisional_intent, stay_place
        missing: list[str] = []  # offline: every stay whose city needs a fetch, said in one line
        for k in range(len(self.intent.stays)):
            sub = CityRun(self.s, provisional_intent(self.intent, k, self.s.catalog), None, self.cancel, self.run_id,
                          self.trace_id, edits=[], emitter=self.emitter)
            try:
                sub.intent = await join_city_pack(sub)
            except CityPackMissing as exc:
                missing.append(exc.label)
                continue
            self.subs.append(sub)
            self.places.append(stay_place(k, sub.intent, self.s.catalog, self.intent))
        if not missing:
            from engine.multicity.stays import check_stay_places
            check_stay_places(self.intent, self.places)
        if missing:
            fetch = " and ".join(f"'tripwright cities fetch \"{label}\"'" for label in missing)
            raise InputError("stays", f"{' and '.join(missing)} need{'s' if len(missing) == 1 else ''} one online fetch "
                                      f"of {'its' if len(missing) == 1 else 'their'} OpenStreetMap places first "
                                      f"(offline); run {fetch} while online")

    async def _legs(self) -> None:
        await self._plan_legs()
        await self._legs_in_time()

    def _leg_planner(self):
        """(memo key part, planner of one leg): the transit and road routers when configured and
        online (``engine.legs.plan_leg_online`` through the session's executor), else the offline
        estimate — one ask per leg, keyed apart so an estimate is never reused once online."""
        from engine.legs import plan_leg, plan_leg_online, road_router, transit_router
        toolbox = self.s.toolbox
        transit, roads = transit_router(toolbox.network), road_router(toolbox.network)
        if transit is None and roads is None:
            return (), plan_leg
        from engine.tools.motis import transit_base
        from engine.tools.osrm import routing_base
        bases = (transit_base() if transit is not None else None, routing_base() if roads is not None else None)
        return ("online", *bases), lambda q: plan_leg_online(q, toolbox.executor, transit, roads)

    async def _plan_legs(self) -> None:
        from engine.multicity.legs_plan import leg_query
        online, plan_leg = self._leg_planner()
        intent, places = self.draft.intent, self.places
        count = len(intent.leg_requests())
        for i in range(count):
            q = leg_query(intent, i, places)
            if i in self.draft.departures:  # chain repair moved it
                q = dataclasses.replace(q, earliest=self.draft.departures[i])
            key = digest(["leg", repr(q), *online])
            leg = await self.node("legs", key, lambda q=q: plan_leg(q),
                                  lambda leg: f"{leg.from_city} → {leg.to_city}: {leg.mode} {leg.departure:%H:%M}–"
                                              f"{leg.arrival:%H:%M} ({leg.source}); {leg.why}")
            asked = self.intent.leg_requests()[i].mode
            if asked not in ("best", leg.mode) and leg.source != "booked":  # chain repair changed the mode
                times = leg.why.split("; ", 1)[1] if "; " in leg.why else ""
                leg = leg.model_copy(update={"why": f"{leg.mode} instead of the {asked} asked: the {asked} would "
                                                    f"arrive after the last connections" + (f"; {times}" if times else "")})
            if i == count - 1 and intent.return_from == "first" and leg.source != "booked":
                leg = await self._back_in_time(q, leg)
            self.legs.append(self._at_airports(leg) if leg.mode == "flight" and leg.source == "estimated" else leg)

    async def _legs_in_time(self) -> None:
        """Legs arriving after the last connections are moved (earlier, or flown) before any stay
        is planned around them: chain repair cycles of their own, with their diffs. A leg that
        still arrives the next day cannot be planned around (the stays are day by day): said."""
        await self._move_late_legs()
        for leg in self.legs:
            if leg.arrival.date() > leg.departure.date():
                hours = (leg.arrival - leg.departure).total_seconds() / 3600
                raise InfeasiblePlan(f"The {leg.mode} from {leg.from_city} to {leg.to_city} takes about {hours:.0f} h "
                                     f"and cannot arrive the day it leaves; choose another way, or add a stay "
                                     f"between them")

    async def _move_late_legs(self) -> None:
        from engine.verify.chain import late_legs
        found = late_legs(self.legs)
        while found and len(self.diffs) < MAX_CHAIN_CYCLES:
            legs = {f"leg_{leg.index}": leg for leg in self.legs}
            moves, draft = [], self.draft
            for v in found[:MAX_CHAIN_MOVES]:
                made = next((m for m in (make(draft) for make in propose_chain(v, legs, draft, [])) if m), None)
                if made is not None:
                    draft, move = made
                    moves.append(move)
            if not moves:
                return
            self.draft = draft
            self.emitter.emit("repair", EventStatus.running, note="; ".join(chain_move_rationale(m) for m in moves))
            cost = sum(leg.fare_usd_cents for leg in self.legs)
            self.legs = []
            await self._plan_legs()
            after = late_legs(self.legs)
            self.diffs.append(RepairDiff(cycle=len(self.diffs) + 1, moves=moves,
                                         delta_usd_cents=sum(leg.fare_usd_cents for leg in self.legs) - cost,
                                         delta_minutes=0, violations_before=len(found), violations_after=len(after)))
            found = after

    async def _back_in_time(self, q, leg):
        """The leg back to the first city, early enough for a flight home that day."""
        from engine.multicity.home import earliest_back
        if q.index in self.draft.departures:
            return leg  # chain repair chose its time
        earliest = earliest_back(self.s.toolbox, leg, self.places[0], self.intent.origin_airport, self._booked())
        if earliest is None:
            return leg
        q = dataclasses.replace(q, earliest=earliest)
        online, plan_leg = self._leg_planner()
        return await self.node("legs", digest(["leg", repr(q), *online]), lambda: plan_leg(q),
                               lambda leg: f"{leg.from_city} → {leg.to_city} moved to {leg.departure:%H:%M}: "
                                           "the flight home leaves from there the same day")

    def _at_airports(self, leg):
        """An estimated flight leg between the airports the stays' plans use (their transfers stand)."""
        from engine.multicity.legs_plan import leg_ends, plan_airport
        a, b = (self.places[i] for i in leg_ends(self.intent, leg.index))
        ends = [self.s.catalog.airport(plan_airport(p, self.intent.origin_airport)) for p in (a, b)]
        return leg.model_copy(update={"from_name": ends[0].iata, "to_name": ends[1].iata,
                                      "from_geo": ends[0].geo, "to_geo": ends[1].geo})

    async def _stays(self) -> None:
        from engine.multicity.legs_plan import leg_cost_cents, leg_ends, pseudo_flight, pseudo_flight_id
        from engine.multicity.stays import stay_budget, stay_intent
        from engine.multicity.stitch import StayPlan
        intent, places, legs = self.draft.intent, self.places, self.legs
        start, share = dict(zip((s.name for s in self.STAGES), bar_spans(self.STAGES, self)))["stays"]
        from engine.multicity.edits_route import EditLedger, check_applied, route_edits
        legs_cents, spent = leg_cost_cents(legs), 0
        n = len(intent.stays)
        ledger = EditLedger()
        routed = route_edits(self.edits, intent, ledger)
        for k in range(n):
            inbound = next((pseudo_flight(leg, places[leg_ends(intent, leg.index)[0]], places[k], intent.origin_airport)
                            for leg in legs if leg_ends(intent, leg.index)[1] == k and leg.index != n - 1), None)
            out_leg = legs[k] if k < len(legs) else None
            outbound = (pseudo_flight(out_leg, places[k], places[leg_ends(intent, k)[1]], intent.origin_airport,
                                      leaving=True)
                        if out_leg is not None else None)
            sub = self.subs[k]
            sub.edits = list(routed[k])
            sub.intent = stay_intent(intent, k, places, budget=stay_budget(intent, k, legs_cents, spent),
                                     inbound=inbound, outbound=outbound)
            await self._run_stay(sub, k, start + share * k / n, share / n)
            itinerary = sub.itinerary
            spent += itinerary.cost_breakdown.total_usd_cents
            self.plans.append(StayPlan(itinerary=itinerary,
                                       inbound_id=pseudo_flight_id(inbound) if inbound is not None else None,
                                       outbound_id=pseudo_flight_id(outbound) if outbound is not None else None))
        check_applied(self.edits, ledger)

    async def _run_stay(self, sub: CityRun, k: int, start: float, share: float) -> None:
        """Stay ``k``'s city run, stage by stage, in its slice of the bar."""
        stages = tuple(s for s in sub.STAGES if s.name not in SKIPPED_CITY_STAGES)
        tier = self.draft.intent.stays[k].tier
        for stage, (s0, sh) in zip(stages, bar_spans(stages, sub)):
            self.cancel.raise_if_cancelled()
            self.emitter.enter(start + share * s0 / 100, share * sh / 100)
            try:
                await stage.step(sub)
            except InfeasiblePlan as exc:
                if stage.name != "repair" or not _over_its_share_only(exc):
                    raise
                # over its share of the budget only: the whole trip's budget is the chain's to check
                from engine.repair import RepairResult
                sub.fixed = RepairResult(plan=exc.best, violations=exc.violations, diffs=exc.attempts)
            if stage.name == "tools" and tier is not None:  # the hotel tier the traveller asked for here
                kept = [h for h in sub.inputs.lodgings if h.tier == tier]
                if kept:
                    sub.inputs = dataclasses.replace(sub.inputs, lodgings=kept)
                    sub.plan_key = digest([sub.plan_key, "tier", tier])  # the branches are this tier's

    async def _home(self) -> None:
        if self.intent.return_from != "first":
            return
        from engine.multicity.home import flight_home
        leg = self.legs[-1]
        self.home = flight_home(self.s.toolbox, leg, self.places[0], self.intent.origin_airport,
                                self.intent.travellers, self.intent.days - 1, self._booked())

    def _booked(self) -> list:
        """The traveller's booked flights (the flight home from the first city among them)."""
        return list(self.intent.bookings.flights) if self.intent.bookings is not None else []

    async def _stitched(self):
        """The stays and legs as one itinerary, and what the chain verifiers find in it."""
        from engine.multicity.stitch import stitch
        from engine.verify.chain import verify_chain
        itinerary = stitch(self.draft.intent, self.places, self.plans, self.legs, home=self.home,
                           trace_id=self.trace_id, run_id=self.run_id)
        key = digest(["chain", self.draft.intent, [p.itinerary.itinerary_id for p in self.plans], self.legs,
                      self.home.activities if self.home is not None else None])
        found = await self.node("verifier", key,
                                lambda: logged_verification(verify_chain(itinerary)),
                                lambda v: f"chain: {len(blocking(v))} blocking, {len(v) - len(blocking(v))} advisory")
        return itinerary, found

    async def _chain(self) -> None:
        itinerary, found = await self._stitched()
        while blocking(found) and len(self.diffs) < MAX_CHAIN_CYCLES:
            moves = self._chain_moves(itinerary, found)
            if not moves:
                break
            before = itinerary
            self.emitter.emit("repair", EventStatus.running, note="; ".join(chain_move_rationale(m) for m in moves))
            await self._replan()
            itinerary, after = await self._stitched()
            self.diffs.append(RepairDiff(cycle=len(self.diffs) + 1, moves=moves,
                                         delta_usd_cents=itinerary.cost_breakdown.total_usd_cents
                                         - before.cost_breakdown.total_usd_cents,
                                         delta_minutes=0, violations_before=len(blocking(found)),
                                         violations_after=len(blocking(after))))
            found = after
        said = [Decision(node="repair", selected=m.new_value, alternatives_considered=1,
                         rationale=chain_move_rationale(m)) for d in self.diffs for m in d.moves]
        itinerary = itinerary.model_copy(update={"violations": [*itinerary.violations, *found],
                                                 "repairs": [*itinerary.repairs, *self.diffs],
                                                 "decisions": [*itinerary.decisions, *said],
                                                 "planning_date": self.s.today})
        self.violations = found
        if blocking(found):
            raise InfeasiblePlan("Unable to plan the trip as one chain: "
                                 + "; ".join(v.details.get("message", v.reason) for v in blocking(found)[:3]),
                                 best=itinerary, violations=found, attempts=self.diffs)
        self.itinerary = itinerary
        self.checkpoints.save("responder", digest(itinerary.legs), itinerary)

    def _chain_moves(self, itinerary, found) -> list:
        """At most two moves for the blocking findings, the first that applies for each."""
        figures = [StayFigures(tier=_planned_tier(p.itinerary),
                               nightly_cents=p.itinerary.cost_breakdown.lodging_usd_cents // max(1, stay.nights))
                   for p, stay in zip(self.plans, self.draft.intent.stays)]
        legs = {f"leg_{leg.index}": leg for leg in itinerary.legs}
        moves, draft = [], self.draft
        for v in blocking(found):
            # one move a finding; the budget of everything may take two (two stays down a tier)
            wanted = MAX_CHAIN_MOVES if v.kind.value == "budget_exceeded" else 1
            took = 0
            for make in propose_chain(v, legs, draft, figures):
                made = make(draft)
                if made is not None and all(m.node_ref != made[1].node_ref for m in moves):
                    draft, move = made
                    moves.append(move)
                    took += 1
                    if took >= wanted or len(moves) >= MAX_CHAIN_MOVES:
                        break
            if len(moves) >= MAX_CHAIN_MOVES:
                break
        self.draft = draft
        return moves

    async def _replan(self) -> None:
        """The legs and stays again, after a chain move (unchanged stays come from the memo)."""
        self.legs, self.plans, self.home = [], [], None
        await self._legs()
        await self._stays()
        await self._home()

    STAGES = (Stage("intent", 1, _intent),
              Stage("places", lambda run: 3 if run.s.toolbox.network.offline() else 20, _places),
              Stage("legs", 4, _legs), Stage("stays", 70, _stays), Stage("home", 2, _home),
              Stage("chain", 5, _chain))

    # -- the outcome -----------------------------------------------------------------------------
    def failure(self, exc: InfeasiblePlan) -> PlanFailure:
        said = [v.model_copy(update={"details": {**v.details, "message": self._said(str(v.details["message"]))}})
                if "message" in v.details else v for v in exc.violations]
        return PlanFailure(message=self._said(exc.message), intent=self.intent, violations=said,
                           attempts=exc.attempts, trace_id=self.trace_id, run_id=self.run_id)

    def _said(self, message: str) -> str:
        """A stay's message with its stand-in flights named as the legs they are ("LG2 FCO→CDG":
        "the flight to Paris")."""
        import re
        legs = {leg.index + 1: leg for leg in self.legs}

        def leg_words(m: re.Match) -> str:
            leg = legs.get(int(m.group(1)))
            return f"the {leg.mode} to {leg.to_city}" if leg is not None else m.group(0)
        return re.sub(r"\bLG(\d+) [A-Z]{3}→[A-Z]{3}", leg_words, message)

    def completed_extra(self) -> dict:
        return {"stays": [p.itinerary for p in self.plans],
                "stay_plans": [(sub.fixed.plan, sub.intent, sub.inputs.facts) for sub in self.subs
                               if sub.fixed is not None and sub.inputs is not None]}


def _over_its_share_only(exc: InfeasiblePlan) -> bool:
    """A stay's plan whose only blocking finding is its share of the budget."""
    left = blocking(exc.violations)
    return exc.best is not None and bool(left) and all(v.kind.value == "budget_exceeded" for v in left)


def _planned_tier(itinerary) -> Tier:
    """The hotel tier a stay was planned at (its selector's "CDG/mid"), "budget" when unsaid."""
    chosen = next((d.selected for d in itinerary.decisions if d.node == "selector"), "")
    tier = chosen.rsplit("/", 1)[-1]
    return Tier(tier) if tier in {t.value for t in Tier} else Tier.budget
