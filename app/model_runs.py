""""Plan with AI" and "Revise" (seed 001): the same engine path as ``tripwright plan --llm`` and
``tripwright revise``, run by the trip controller on the planner's engine loop (never the GUI
thread). The model proposes, the engine schedules, verifies and repairs; a model that cannot be
used degrades "Plan with AI" to the rule-based plan with a banner naming the reason, while
"Revise" (which has nothing to do without it) says why and changes nothing."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import structlog
from PySide6.QtCore import QObject
from qasync import asyncSlot

from engine.errors import InputError, ModelUnavailable

log = structlog.get_logger("tripwright.app.model")


def fallback_text(reason: str) -> str:
    return f"The model could not be used ({reason}): this plan is rule-based."


class ModelRuns(QObject):
    def __init__(self, window, group) -> None:  # noqa: ANN001
        super().__init__(window)
        self.w, self.group = window, group
        self.last_warning: str | None = None  # the last fallback's reason (tests and the bench read it)
        group.panel.plan_ai_requested.connect(self.plan_with_ai)
        group.panel.revise_requested.connect(self.revise)

    def client(self):
        """The configured endpoint's client (settings, environment, the keyring's key), or
        ``ModelUnavailable`` with the reason: the same as ``plan --llm``'s."""
        from engine.llm.prompt_reading import configured_client
        return configured_client(self.w.settings, self.w.secrets)

    # -- Plan with AI ------------------------------------------------------------------------------
    @asyncSlot()
    async def plan_with_ai(self):
        form = self.w.intent_form
        try:
            client = self.client()
        except ModelUnavailable as exc:
            client, unavailable = None, exc.reason
        if client is not None and form.unread_prompt() is not None:
            intent = await self._read_prompt(client, form.unread_prompt())
        else:
            intent = self._form_intent()
        if intent is None:
            if client is not None:
                await self.w.controller.service.on_engine(client.close())
            return None
        kept = self.w.controller.kept_edits(intent)  # the trip on screen, its locks and removals
        same = self.w.controller.continues(intent) and (self.group.trip_id is not None or kept is not None)
        key = f"ai:{uuid.uuid4().hex}"  # a model's answer differs run to run: never reused
        if client is None:  # the rule-based plan, keeping the traveller's edits as a re-plan does
            before = self.w.trip.current
            version = await self.w.controller.run(intent, edits=kept, description="Planned", new_trip=not same,
                                                  request_key=key)
            self._fell_back(unavailable, unchanged=version is not None and version is before)
            return version
        if intent.mode == "road_trip":  # as plan --llm: nights and stops among the corridor's towns
            from engine.llm.road_drafting import RoadDrafter
            drafter = RoadDrafter(client)
        else:
            drafter = await self._drafter(client, self.group.trip_id if same else None)
        if drafter is None:
            self.w.controller.service.session.take_early_events()  # no run follows
            await self.w.controller.service.on_engine(client.close())
            return None
        before = self.w.trip.current
        version = await self._run(intent, client, drafter, description="Planned with AI", new_trip=not same,
                                  request_key=key, meta_of=lambda _r: _plan_meta(drafter),
                                  edits=[IfFellBack(drafter, kept)] if kept else None)
        if drafter.warning:  # the model failed midway: the rule-based plan, with the traveller's edits
            self._fell_back(drafter.warning, unchanged=version is not None and version is before)
        return version

    def _form_intent(self):
        """The form's request; an unread prompt is read by the rule-based parsers first."""
        form = self.w.intent_form
        if form.unread_prompt() is not None and not form.read_prompt():
            self.w.show_message("Check the prompt: " + "; ".join(form.field_errors().values()), "error")
            return None
        try:
            return form.current_intent()
        except InputError as exc:
            self.w.show_message(f"Check the form: {' '.join(str(exc).split())}", "error")
            return None

    async def _read_prompt(self, client, text: str):
        """The model reads the prompt (an ``extract`` row in the run's progress, as ``plan --llm``)
        and the form shows what it read; the rule-based parsers when the model cannot."""
        from engine.errors import ModelOutputError
        from engine.llm.prompt_reading import read_with_model
        from engine.settings import effective_home_airport
        service = self.w.controller.service
        assumed: list[str] = []  # what the reading chose that the text left out (the default budget)
        try:
            intent = await service.on_engine(read_with_model(client, text, service.session,
                                                              effective_home_airport(self.w.settings), assumed.append))
        except ModelOutputError as exc:
            service.session.take_early_events()  # no run follows
            self.w.show_message(f"The model's reading of the prompt was invalid: {exc}", "error")
            return None
        except InputError as exc:
            service.session.take_early_events()
            self.w.show_message(f"Check the prompt: {' '.join(str(exc).split())}", "error")
            return None
        except ModelUnavailable:
            intent = None  # the extract row names the reason; the drafter's banner follows
        if intent is None:
            return self._form_intent()
        self.w.intent_form.set_intent(intent)
        self.w.intent_form.mark_prompt_read()
        self.w.intent_form.show_assumed(assumed)  # under the prompt, as the rules' reading says it
        return intent

    async def _drafter(self, client, trip_id: str | None):
        """The Drafter with the trip's top ideas and, under the flag, the chat brief (as the CLI);
        None when the trip has no model-made version left."""
        from engine.llm import chat_brief
        from engine.llm.drafting import Drafter
        ideas, brief, brief_meta = [], None, {}
        if trip_id is not None:
            window = chat_brief.window_from_env()
            found = await self.group.call(self.group.room.plan_material, trip_id, window.max_messages)
            if found is None:
                return None
            ideas, messages, left = found
            if left == 0:
                self.w.show_message("This trip has as many model-made versions as allowed "
                                    "(TRIPWRIGHT_MAX_VERSIONS): nothing was planned.", "warning")
                return None
            if chat_brief.enabled() and messages:
                from engine.llm.early_nodes import brief_with_events
                service = self.w.controller.service  # the brief's row opens the run's progress
                brief, meta = await service.on_engine(
                    brief_with_events(service.session.early_events, client, messages, window=window))
                brief_meta = {**meta, "chatMessageCount": meta["chatBriefMessageCount"]}
        return Drafter(client, ideas=ideas, brief=brief, brief_meta=brief_meta)

    # -- Revise ------------------------------------------------------------------------------------
    @asyncSlot()
    async def revise(self):
        from engine.llm.revision import Reviser
        trip_id = self.group.trip_id
        if trip_id is None:
            return None
        found = await self.group.call(self.group.room.revision, trip_id)  # the reason when refused
        if found is None:
            return None
        intent, material = found
        try:
            client = self.client()
        except ModelUnavailable as exc:
            self.w.show_message(f"Revise needs the model: {exc.reason}", "error")
            return None
        reviser = Reviser(client, material)
        key = f";revise-from=v{material.version};fb={len(material.feedback)};rx={sum(material.reactions.values())}"
        return await self._run(intent, client, reviser, description=f"Revised v{material.version} with AI",
                               new_trip=False, request_key=key,
                               meta_of=lambda _r: {**reviser.meta, **client.meter.summary()} if reviser.meta else None)

    # -- running -----------------------------------------------------------------------------------
    async def _run(self, intent, client, drafter, *, description: str, new_trip: bool, request_key: str, meta_of,
                   edits=None):
        self.group.busy = True
        self.group.update_ai_state()
        controller = self.w.controller
        try:
            version = await controller.run(intent, description=description, new_trip=new_trip, edits=edits,
                                           request_key=request_key, drafter=drafter, meta_of=meta_of)
        finally:
            self.group.busy = False
            self.group.update_ai_state()
            try:
                await controller.service.on_engine(client.close())
            except Exception:  # noqa: BLE001 — closing is tidiness; the run's outcome stands
                log.debug("model_client_close_failed", exc_info=True)
            self.group.trip_shown()
        if version is not None:
            self.w.show_group_changes()
        return version

    def _fell_back(self, reason: str, *, unchanged: bool = False) -> None:
        self.last_warning = reason
        text = fallback_text(reason)
        if unchanged:
            text += f" Nothing changed: still {self.w.trip.label()}, with your locks and removals."
        self.w.show_message(text, "warning")


@dataclass(frozen=True)
class IfFellBack:
    """The run's edit when the trip on screen has the traveller's edits: if the model failed
    before proposing anything (``drafter.warning``, known once the draft node ran, before edits
    are applied), the rule-based plan is the plan on screen re-planned (``kept``: its locks and
    removals kept); a model that answered has its own plan, with the traveller's locks and
    removals, moves and replacements put back into it (``engine.kept_edits.OnTopOfEdits``)."""

    drafter: object
    kept: list

    def __call__(self, plan, facts):
        if not self.drafter.warning:
            from engine.kept_edits import OnTopOfEdits

            from .map_edits import Rebased
            base = next((e.base for e in self.kept if isinstance(e, Rebased)), None)
            return OnTopOfEdits(base)(plan, facts) if base is not None else plan
        for edit in self.kept:
            plan = edit(plan, facts)
        return plan


def _plan_meta(drafter) -> dict | None:
    """Seed 001 llmMeta of a v1 plan, exactly as ``plan --llm --save`` writes it."""
    if not drafter.meta:
        return None
    from engine.llm.prompt_reading import llm_meta
    return llm_meta(drafter, extracted=False)
