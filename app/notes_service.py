"""The Notes dock's link to the engine: the signed-in org's destination notes.

Every engine call (reading and chunking files, the store, an embeddings endpoint) runs through
``asyncio.to_thread``, so the GUI thread never waits. When a store is signed in, the planning
session also gets a ``StoreNotesLookup``: the itinerary then cites what the notes say about each
place; selecting such an activity opens its passage here.
"""

from __future__ import annotations

import asyncio

import structlog
from PySide6.QtCore import QObject, Signal
from qasync import asyncSlot

from engine.errors import TripwrightError
from engine.notes.hints import NO_NOTES

from .ui_state import last_folder, remember

log = structlog.get_logger("tripwright.app.notes")
CITIES = (("paris", "Paris"), ("rome", "Rome"), ("new_york", "New York"), ("tokyo", "Tokyo"))


class NotesService(QObject):
    # a model change: the notes embedded again before an answer (done, total), emitted from the
    # worker thread and shown on the GUI thread (a queued connection)
    reembedding = Signal(int, int)

    def __init__(self, window, panel, dock) -> None:  # noqa: ANN001
        super().__init__(window)
        self.w, self.panel, self.dock = window, panel, dock
        self._notes = None  # engine.notes.library.NotesLibrary of the signed-in org
        panel.import_requested.connect(self.import_files)
        panel.delete_requested.connect(self.delete)
        panel.restore_requested.connect(self.restore)
        panel.ask_requested.connect(self.ask)
        panel.destination_changed.connect(self.refresh)
        panel.import_folder = last_folder("notes")  # the import dialog opens where it was left
        panel.import_folder_changed.connect(lambda folder: remember(notes_folder=folder))
        window.library.state_changed.connect(self.store_changed)
        window.itinerary_panel.activity_selected.connect(self.open_citation)
        dock.visibilityChanged.connect(lambda shown: shown and self.refresh())
        panel.set_destinations(self.destinations(), "paris")
        self.reembedding.connect(lambda done, total: panel.show_status(
            f"Embedding the notes for the current model: {done}/{total} chunk(s)\u2026"))

    # -- wiring ----------------------------------------------------------------------------------
    def destinations(self) -> list[tuple[str, str]]:
        from engine.roadtrip.routes import load_routes

        shown = self.w.itinerary_panel.itinerary()
        trip = [(shown.intent.city.lower().replace(" ", "_"), shown.intent.city)] if shown is not None \
            and getattr(shown.intent, "city", None) else []
        routes = [(r.slug, r.name) for r in load_routes().values()]
        return trip + [d for d in (*CITIES, *routes) if d not in trip]

    def store_changed(self) -> None:
        workspace = self.w.library.workspace
        if workspace is None or not workspace.signed_in:
            self._notes = None
            self.w.planning.notes = NO_NOTES
            self.panel.show_status("Notes are kept in the trip store: sign in to use them.")
            return
        from engine.notes.embeddings import embedding_config, make_embedder
        from engine.notes.library import NotesLibrary
        from engine.notes.lookup import StoreNotesLookup

        config = embedding_config(settings=getattr(self.w, "settings", None))
        # no endpoint: the local model, read by the first question's worker thread, never here
        self._notes = NotesLibrary(workspace.store, workspace.ctx, embedder=make_embedder(config),
                                   progress=self.reembedding.emit)
        self.w.planning.notes = StoreNotesLookup(workspace.store, workspace.ctx)
        self.refresh()

    def settings_changed(self) -> None:
        """Settings were saved: the embedding model (or endpoint) may have changed, so imports
        and questions from now on use the new one (or words only)."""
        if self._notes is not None:
            self.store_changed()

    @property
    def embedding_model(self) -> str | None:
        """The model imports and questions are embedded with now (the local one without an
        endpoint); None = words only."""
        embedder = self._notes.embedder if self._notes is not None else None
        return embedder.model if embedder is not None else None

    def detach(self) -> None:
        self._notes = None
        self.w.planning.notes = NO_NOTES

    # -- flows -------------------------------------------------------------------------------------
    @asyncSlot()
    async def refresh(self, *_args) -> None:
        if self._notes is None:
            return
        destination = self.panel.destination()
        try:
            items = await asyncio.to_thread(self._notes.list, destination or None)
        except TripwrightError as exc:
            return self.panel.show_error(_line(exc))
        self.panel.set_items(items)
        self.panel.show_status(f"{len(items)} note(s) for {destination}" if destination else "")

    @asyncSlot(list, str)
    async def import_files(self, paths: list, destination: str) -> None:
        if self._notes is None:
            return self.panel.show_error("Notes are kept in the trip store: sign in to import.")
        self.panel.set_busy(True)
        done, failed = 0, ""
        for path in paths:
            self.panel.show_status(f"Importing {path}\u2026")
            try:
                await asyncio.to_thread(self._notes.import_file, path, destination)
                done += 1
            except TripwrightError as exc:
                failed = _line(exc)
                break
        self.panel.set_busy(False)
        await self.refresh()
        if failed:
            self.panel.show_error(f"{failed} ({done} of {len(paths)} imported)")
        else:
            self.panel.show_status(f"Imported {done} file(s); e-mail addresses and phone numbers removed.")

    @asyncSlot(str)
    async def delete(self, item_id: str) -> None:
        try:
            item = await asyncio.to_thread(self._notes.delete, item_id)
        except TripwrightError as exc:
            return self.panel.show_error(_line(exc))
        await self.refresh()
        self.panel.show_deleted(item.item_id, item.title)

    @asyncSlot(str)
    async def restore(self, item_id: str) -> None:
        try:
            await asyncio.to_thread(self._notes.restore, item_id)
        except TripwrightError as exc:
            return self.panel.show_error(_line(exc))
        await self.refresh()

    @asyncSlot(str, str)
    async def ask(self, question: str, destination: str) -> None:
        if self._notes is None:
            return self.panel.show_error("Notes are kept in the trip store: sign in to ask them.")
        self.panel.set_busy(True)
        try:
            answer = await asyncio.to_thread(self._notes.ask, question, destination)
        except TripwrightError as exc:
            self.panel.show_error(_line(exc))
        else:
            self.panel.show_answer(answer)
            self.panel.show_status(f"{len(answer.passages)} passage(s) at confidence \u2265 0.70"
                                   if answer.passages else "Information not available.")
        finally:
            self.panel.set_busy(False)

    @asyncSlot(str)
    async def open_citation(self, activity_id: str) -> None:
        """An activity whose notes cite a passage: show that passage in the dock."""
        shown = self.w.itinerary_panel.itinerary()
        if shown is None or self._notes is None:
            return
        activity = next((a for d in shown.days for a in d.activities if a.id == activity_id), None)
        cited = next((c for c in shown.citations if c.provenance.source == "rag" and activity is not None
                      and c.claim in activity.notes), None)
        if cited is None or not cited.provenance.ref_id:
            return
        chunk_id = cited.provenance.ref_id.split("/")[-1]
        workspace = self.w.library.workspace
        chunks = await asyncio.to_thread(_chunks, workspace.store, workspace.ctx, chunk_id)
        if chunks:
            self.panel.show_passage(chunks[0].text, cited.provenance.source_url or chunks[0].title)
            # Shown in the Notes dock, never raised: a click on a row must not switch the side panel
            # away from the itinerary (or the form) to another tab.
            self.w.show_status("Your notes mention this place: see the Notes tab.", 8000)


def _chunks(store, ctx, chunk_id: str) -> list:  # noqa: ANN001
    with store.org(ctx) as repo:
        return repo.knowledge.chunks([chunk_id])


def _line(exc: BaseException) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0]
