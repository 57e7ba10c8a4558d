""""Plan with AI" and "Revise" (seed 001): the same engine path as ``tripwright plan --llm`` and
``tripwright revise``, run by the trip controller on the planner's engine loop (never the GUI
thread). The model proposes, the engine schedules, verifies and repairs; a model that cannot be
used degrades "Plan with AI" to the rule-based plan with a banner naming the reason, while
"Revise" (which has nothing to do without it) says why and changes nothing."""

from __future__ import annotations

import os
import uuid

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
        ``ModelUnavailable`` with the reason."""
        from engine.llm.client import LLMClient
        from engine.llm.config import config_from_env
        from engine.settings import apply_env, endpoint_or_default, stored_api_key
        settings = apply_env(self.w.settings)
        key = None
        if not os.environ.get("OPENAI_API_KEY", "").strip():
            endpoint = os.environ.get("OPENAI_BASE_URL", "").strip() or settings.llm_endpoint
            key = stored_api_key(endpoint_or_default(endpoint), self.w.secrets)
        return LLMClient(config_from_env(settings=settings, api_key=key))

    def _continues(self, intent) -> bool:
        current = self.w.trip.current
        if current is None or current.mode != intent.mode:
            return False
        if intent.mode == "road_trip":
            return (current.intent.origin, current.intent.terminus) == (intent.origin, intent.terminus)
        return current.intent.city == intent.city

    # -- Plan with AI ------------------------------------------------------------------------------
    @asyncSlot()
    async def plan_with_ai(self):
        try:
            intent = self.w.intent_form.current_intent()
        except InputError as exc:
            self.w.show_message(f"Check the form: {' '.join(str(exc).split())}", "error")
            return None
        same = self._continues(intent) and self.group.trip_id is not None
        key = f"ai:{uuid.uuid4().hex}"  # a model's answer differs run to run: never reused
        try:
            client = self.client()
        except ModelUnavailable as exc:
            version = await self.w.controller.run(intent, description="Planned", new_trip=not same, request_key=key)
            self._fell_back(exc.reason)
            return version
        if intent.mode == "road_trip":  # as plan --llm: the model does not draft road trips yet
            await self.w.controller.service.on_engine(client.close())
            version = await self.w.controller.run(intent, description="Planned", new_trip=not same, request_key=key)
            self.w.show_message("The model does not draft road trips yet: this plan is rule-based.", "info")
            return version
        drafter = await self._drafter(client, self.group.trip_id if same else None)
        if drafter is None:
            await self.w.controller.service.on_engine(client.close())
            return None
        version = await self._run(intent, client, drafter, description="Planned with AI", new_trip=not same,
                                  request_key=key, meta_of=lambda _r: _plan_meta(drafter))
        if drafter.warning:
            self._fell_back(drafter.warning)
        return version

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
                brief, meta = await self.w.controller.service.on_engine(
                    chat_brief.summarize_planning_chat(client, messages, window=window))
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
    async def _run(self, intent, client, drafter, *, description: str, new_trip: bool, request_key: str, meta_of):
        self.group.busy = True
        self.group.update_ai_state()
        controller = self.w.controller
        try:
            version = await controller.run(intent, description=description, new_trip=new_trip,
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

    def _fell_back(self, reason: str) -> None:
        self.last_warning = reason
        self.w.show_message(fallback_text(reason), "warning")


def _plan_meta(drafter) -> dict | None:
    """Seed 001 llmMeta of a v1 plan, exactly as ``plan --llm --save`` writes it."""
    if not drafter.meta:
        return None
    from engine.cli.llm_plan import llm_meta
    return llm_meta(drafter, extracted=False)
