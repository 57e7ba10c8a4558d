"""The Group dock's link to the store: one trip's ideas, chat, feedback and reactions, and what
a model run needs from them (seed 001). Qt-free and synchronous like ``app/workspace.py``: every
method is one short org-scoped transaction through the same ``GroupPlanning`` service the CLI's
``ideas``/``chat``/``feedback``/``react`` use; the window calls them through ``asyncio.to_thread``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.models import ItineraryV1
from engine.store.group import ChatRecord, FeedbackRecord, IdeaRecord, RevisionStatus

CHAT_SHOWN = 200  # the newest messages the dock lists
PLAN_IDEAS = 10  # the v1 prompt takes the top 10 ideas (5, 3 when too long)


@dataclass(frozen=True)
class GroupSnapshot:
    """What the dock shows for one trip, read in one transaction."""

    trip_id: str
    version: int | None  # the version feedback and reactions are shown for
    latest: int | None
    ideas: list[IdeaRecord]
    chat: list[ChatRecord]
    feedback: list[FeedbackRecord]
    reactions: dict[str, int]
    status: RevisionStatus
    llm_left: int  # model-made versions the trip may still have (TRIPWRIGHT_MAX_VERSIONS)
    marker: tuple[int, ...]


@dataclass(frozen=True)
class ChatImport:
    source: str
    added: int
    known: int
    people: int


class GroupRoom:
    def __init__(self, workspace) -> None:
        self.workspace = workspace

    def _scope(self, write: bool = False):
        ws = self.workspace
        if ws is None or ws.ctx is None:
            from engine.errors import StoreError
            raise StoreError("sign in to plan together")
        return ws.store.org(ws.ctx, write=write)

    def snapshot(self, trip_id: str, version: int | None = None) -> GroupSnapshot:
        with self._scope() as repo:
            g = repo.group
            latest = g.latest_version(trip_id)
            shown = version if version is not None else (latest[0] if latest else None)
            feedback = g.feedback(trip_id, shown) if shown is not None else []
            reactions = g.reactions(trip_id, shown) if shown is not None else {}
            return GroupSnapshot(trip_id, shown, latest[0] if latest else None, g.ideas(trip_id),
                                 g.chat(trip_id, limit=CHAT_SHOWN, include_system=True), feedback, reactions,
                                 g.revision_status(trip_id), repo.versions.llm_revisions_left(trip_id),
                                 g.change_marker(trip_id))

    def marker(self, trip_id: str) -> tuple[int, ...]:
        with self._scope() as repo:
            return repo.group.change_marker(trip_id)

    def add_idea(self, trip_id: str, title: str, priority: int) -> IdeaRecord:
        with self._scope(write=True) as repo:
            return repo.group.add_idea(trip_id, title, priority=priority)

    def react_to_idea(self, trip_id: str, idea_id: str, emoji: str) -> bool:
        with self._scope(write=True) as repo:
            return repo.group.react_to_idea(trip_id, idea_id, emoji)

    def post(self, trip_id: str, text: str, author: str = "") -> ChatRecord:
        with self._scope(write=True) as repo:
            return repo.group.post(trip_id, text, author=author)

    def import_chat(self, trip_id: str, path: str | Path) -> ChatImport:
        """A WhatsApp .txt or Telegram JSON export, parsed whole before anything is stored."""
        from engine.llm.chat_import import read_export
        source, messages = read_export(path)
        with self._scope(write=True) as repo:
            added, known = repo.group.import_messages(trip_id, messages, source)
        return ChatImport(source, added, known, len({m.author for m in messages if m.kind == "user"}))

    def add_feedback(self, trip_id: str, text: str, rating: int | None, version: int | None) -> FeedbackRecord:
        with self._scope(write=True) as repo:
            return repo.group.add_feedback(trip_id, text, rating=rating, version=version)

    def react(self, trip_id: str, emoji: str, version: int | None) -> tuple[int, bool]:
        with self._scope(write=True) as repo:
            return repo.group.react(trip_id, emoji, version=version)

    # -- what model runs read ------------------------------------------------------------------
    def revision(self, trip_id: str):
        """(intent, RevisionMaterial) of the latest version, as ``tripwright revise`` reads them."""
        from engine.llm.revision import revision_material
        with self._scope() as repo:
            return revision_material(repo, trip_id)

    def plan_material(self, trip_id: str, chat_limit: int) -> tuple[list[tuple[str, int]], list[ChatRecord], int]:
        """(top ideas by priority, the newest chat for the brief, model versions left)."""
        with self._scope() as repo:
            ideas = [(i.title, i.priority) for i in repo.group.ideas(trip_id)][:PLAN_IDEAS]
            return ideas, repo.group.chat(trip_id, limit=chat_limit), repo.versions.llm_revisions_left(trip_id)

    def previous(self, trip_id: str, number: int) -> tuple[int, ItineraryV1, ItineraryV1] | None:
        """(parent number, parent itinerary, this itinerary) for the diff view: the version it
        was made from (else the one before); None for a first version or a road trip."""
        with self._scope() as repo:
            shown = repo.versions.get(trip_id, number)
            parent = shown.based_on or (number - 1)
            if parent < 1 or shown.intent.get("mode") == "road_trip":
                return None
            before = repo.versions.get(trip_id, parent)
            return parent, before.itinerary_v1(), shown.itinerary_v1()
