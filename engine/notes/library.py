"""The notes of one org: import (file or pasted text), list, delete/restore, ask, and
Tripwright's own notes seeded on first use.

Import order matters (seed §10.4, §11.1): read → strip PII → chunk → embed (the endpoint's model,
else the local one) → store item + chunks in ONE transaction. The endpoint is called before the
transaction opens, so an endpoint failing mid-import leaves nothing behind, and nothing
un-stripped is ever stored or sent.

Vectors are stored under the model that made them; a question first embeds again the
destination's chunks that have no vector of the current model (Tripwright's own notes, seeded
words-only; notes imported under another model or none), in batches, each its own transaction,
reporting progress — so a model change re-embeds, once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import structlog

from engine.errors import InputError, ToolError
from engine.imports.untrusted import check_controls, without_controls

from .builtin_pack import packed_note
from .destinations import Destination, resolve_destination
from .embeddings import Embedder
from .prepared import PreparedNote, prepare_note
from .reading import ReadNote, read_note_file
from .retrieval import Answer, Retriever
from .vector_index import chunk_vectors, forget

log = structlog.get_logger("tripwright.notes")
BUILTIN_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "notes"
MAX_PASTED_CHARS = 2_000_000
_SEEDED: set[tuple[str, str]] = set()  # (database, org) seeded in this process
_SEED_LOCK = threading.Lock()
_FRESH: set[tuple] = set()  # (database, org, destination, generation, model) whose vectors are all current
REEMBED_BATCH = 256
EMBED_AT_IMPORT_MAX_CHUNKS = 1_000  # ~1.4 s with the local model; a longer note is embedded on its first question
Progress = Callable[[int, int], None]  # (chunks embedded so far, chunks to embed in all)


class NotesLibrary:
    def __init__(self, store, ctx, *, embedder: Embedder | None = None,  # noqa: ANN001
                 progress: Progress | None = None) -> None:
        self.store, self.ctx, self.embedder = store, ctx, embedder
        self.retriever = Retriever(store, ctx, embedder)
        self.progress = progress  # told of a re-embedding's progress (a model change)

    # -- import ----------------------------------------------------------------------------------
    def import_file(self, path: Path, destination: str):  # noqa: ANN201 (NoteItem)
        dest = resolve_destination(destination)
        note = read_note_file(Path(path))
        return self._store(note, dest, source_kind="file", source_name=without_controls(Path(path).name))

    def import_text(self, text: str, destination: str, *, title: str = "Pasted note"):  # noqa: ANN201
        dest = resolve_destination(destination)
        if not isinstance(text, str) or not text.strip():
            raise InputError("text", "nothing to import: the text is empty")
        if len(text) > MAX_PASTED_CHARS:
            raise InputError("text", f"pasted text is limited to {MAX_PASTED_CHARS:,} characters")
        check_controls(text, "text")  # a NUL or an escape is never stored (PostgreSQL refuses NUL)
        note = ReadNote(title=(title or "Pasted note").strip()[:200], text=text, kind="pasted")
        return self._store(note, dest, source_kind="pasted", source_name=note.title)

    def _store(self, note: ReadNote, dest: Destination, *, source_kind: str, source_name: str,
               embed: bool = True):  # noqa: ANN202
        return self._save(prepare_note(note, dest, source_name), dest, source_kind=source_kind, embed=embed)

    def _save(self, note: PreparedNote, dest: Destination, *, source_kind: str, embed: bool):  # noqa: ANN202
        # A very long note (thousands of chunks) is stored at once and embedded by its first
        # question (:meth:`reembed`, with progress): the import stays within seconds (issue 25).
        embed = embed and len(note.chunks) <= EMBED_AT_IMPORT_MAX_CHUNKS
        vectors = self._vectors([text for text, _ in note.chunks]) if embed else None
        meta = {**note.meta, "destination_name": dest.name}
        rows = [(text, tokens, vectors[i] if vectors is not None else None)
                for i, (text, tokens) in enumerate(note.chunks)]
        with self.store.org(self.ctx, write=True) as repo:
            return repo.knowledge.add(destination=dest.slug, title=note.title, source_kind=source_kind,
                                      source_name=note.source_name, content=note.content, chunks=rows,
                                      embedding_model=self.embedder.model if vectors is not None else None,
                                      metadata=meta, in_database=not self._windows)

    @property
    def _windows(self) -> bool:
        return bool(getattr(self.embedder, "windows", False))

    def _vectors(self, texts: list[str]) -> list[bytes] | None:
        if self.embedder is None:
            return None
        return chunk_vectors(self.embedder, texts)

    # -- a model change ----------------------------------------------------------------------------
    def reembed(self, destination: str, progress: Progress | None = None) -> int:
        """Embed with the current model every active chunk of ``destination`` (a slug) that has no
        vector of it; returns how many. Once per destination state and model per process."""
        if self.embedder is None:
            return 0
        model = self.embedder.model
        with self.store.org(self.ctx) as repo:
            key = (self.store.identity, self.ctx.org_id, destination, repo.knowledge.generation(destination), model)
        if key in _FRESH:
            return 0
        done, total = 0, None
        while True:
            with self.store.org(self.ctx) as repo:
                stale = repo.knowledge.unembedded(destination, model, REEMBED_BATCH)
            if not stale:
                break
            total = total if total is not None else self._stale_count(destination, model, len(stale))
            blobs = chunk_vectors(self.embedder, [text for _, text in stale])
            with self.store.org(self.ctx, write=True) as repo:
                repo.knowledge.set_vectors(model, {cid: blob for (cid, _), blob in zip(stale, blobs)},
                                           in_database=not self._windows)
            done += len(stale)
            if progress is not None:
                progress(done, max(total, done))
        if done:
            forget(destination)
            log.info("notes_reembedded", destination=destination, model=model, chunks=done)
        _FRESH.add(key)
        return done

    def _stale_count(self, destination: str, model: str, first: int) -> int:
        if first < REEMBED_BATCH:
            return first
        with self.store.org(self.ctx) as repo:
            return len(repo.knowledge.unembedded(destination, model, 1_000_000))

    # -- the rest --------------------------------------------------------------------------------
    def list(self, destination: str | None = None):  # noqa: ANN201 (list[NoteItem])
        self.ensure_builtin()
        slug = resolve_destination(destination).slug if destination else None
        with self.store.org(self.ctx) as repo:
            return repo.knowledge.items(slug)

    def digest(self) -> str:
        """Changes whenever a note the org's plans may cite is imported, deleted or restored (any
        destination: a road trip cites the notes of towns found while planning). Part of a saved
        plan's idempotency key; Tripwright's own notes are seeded first, so seeding them during
        the first plan does not change the key of the next one."""
        import hashlib

        self.ensure_builtin()
        with self.store.org(self.ctx) as repo:
            ids = sorted(item.item_id for item in repo.knowledge.items())
        return hashlib.sha256(",".join(ids).encode()).hexdigest()[:16]

    def delete(self, item_id: str):  # noqa: ANN201
        with self.store.org(self.ctx, write=True) as repo:
            return repo.knowledge.delete(item_id)

    def restore(self, item_id: str):  # noqa: ANN201
        with self.store.org(self.ctx, write=True) as repo:
            return repo.knowledge.restore(item_id)

    def ask(self, question: str, destination: str, *, method: str | None = None) -> Answer:
        """``method``: lexical, vector or hybrid (default: hybrid with an endpoint, else lexical)."""
        if not isinstance(question, str) or not question.strip():
            raise InputError("question", "ask a question, e.g. \"Eiffel Tower hours\"")
        slug = resolve_destination(destination).slug
        self.ensure_builtin()
        if self.embedder is not None and method != "lexical":
            try:
                self.reembed(slug, self.progress)
            except ToolError as exc:  # the endpoint is down: answer from the vectors there are
                log.warning("notes_reembed_failed", destination=slug, error=exc.reason)
        return self.retriever.ask(question, slug, method=method)

    # -- Tripwright's own notes --------------------------------------------------------------------
    def ensure_builtin(self) -> int:
        """Import the shipped notes (``fixtures/notes/<destination>.md``) the org has never had;
        once per process per org. Lexical only at first launch: they need no endpoint, and the local
        model embeds them when first asked (``reembed``), not while the first plan runs. Each is
        taken already stripped and chunked from ``fixtures/notes/builtin_pack.json`` when the file
        is the one packed (no tokenizer or phone metadata to load on a fresh data dir: about a
        second of CPU beside the first plan), else prepared here."""
        key = (self.store.identity, self.ctx.org_id)
        with _SEED_LOCK:
            if key in _SEEDED:
                return 0
            added = 0
            for path in sorted(BUILTIN_DIR.glob("*.md")):
                with self.store.org(self.ctx) as repo:
                    if repo.knowledge.has_source("tripwright", path.name):
                        continue
                dest = resolve_destination(path.stem)
                note = packed_note(path) or prepare_note(read_note_file(path), dest, path.name)
                try:
                    self._save(note, dest, source_kind="tripwright",
                               embed=self.embedder is not None and not self.embedder.local)
                except ToolError:  # the endpoint is down: keep them lexical rather than absent
                    self._save(note, dest, source_kind="tripwright", embed=False)
                added += 1
            _SEEDED.add(key)
            return added
