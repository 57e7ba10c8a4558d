"""The notes of one org: import (file or pasted text), list, delete/restore, ask, and
Tripwright's own notes seeded on first use.

Import order matters (seed §10.4, §11.1): read → strip PII → chunk → embed (when configured) →
store item + chunks in ONE transaction. The endpoint is called before the transaction opens, so
an endpoint failing mid-import leaves nothing behind, and nothing un-stripped is ever stored or
sent.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np

from engine.errors import InputError, ToolError

from .chunking import chunk_text
from .destinations import Destination, resolve_destination
from .embeddings import Embedder
from .pii import strip_pii
from .reading import ReadNote, read_note_file
from .retrieval import Answer, Retriever

BUILTIN_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "notes"
MAX_PASTED_CHARS = 2_000_000
_SEEDED: set[tuple[str, str]] = set()  # (database, org) seeded in this process
_SEED_LOCK = threading.Lock()


class NotesLibrary:
    def __init__(self, store, ctx, *, embedder: Embedder | None = None) -> None:  # noqa: ANN001
        self.store, self.ctx, self.embedder = store, ctx, embedder
        self.retriever = Retriever(store, ctx, embedder)

    # -- import ----------------------------------------------------------------------------------
    def import_file(self, path: Path, destination: str):  # noqa: ANN201 (NoteItem)
        dest = resolve_destination(destination)
        note = read_note_file(Path(path))
        return self._store(note, dest, source_kind="file", source_name=Path(path).name)

    def import_text(self, text: str, destination: str, *, title: str = "Pasted note"):  # noqa: ANN201
        dest = resolve_destination(destination)
        if not isinstance(text, str) or not text.strip():
            raise InputError("text", "nothing to import: the text is empty")
        if len(text) > MAX_PASTED_CHARS:
            raise InputError("text", f"pasted text is limited to {MAX_PASTED_CHARS:,} characters")
        note = ReadNote(title=(title or "Pasted note").strip()[:200], text=text, kind="pasted")
        return self._store(note, dest, source_kind="pasted", source_name=note.title)

    def _store(self, note: ReadNote, dest: Destination, *, source_kind: str, source_name: str,
               embed: bool = True):  # noqa: ANN202
        clean = strip_pii(note.text, region=dest.country)
        title = strip_pii(note.title, region=dest.country).text
        source_name = strip_pii(source_name, region=dest.country).text  # "mail-from-john@x.org.txt"
        chunks = chunk_text(clean.text)
        if not chunks:
            raise InputError(f"file {source_name}", "the file holds no text")
        vectors = self._vectors([c.text for c in chunks]) if embed else None
        meta = {"format": note.kind, "tokens": sum(c.tokens for c in chunks), "pages": note.pages,
                "emails_removed": clean.emails, "phones_removed": clean.phones, "destination_name": dest.name}
        rows = [(c.text, c.tokens, vectors[i].tobytes() if vectors is not None else None)
                for i, c in enumerate(chunks)]
        with self.store.org(self.ctx, write=True) as repo:
            return repo.knowledge.add(destination=dest.slug, title=title, source_kind=source_kind,
                                      source_name=source_name, content=clean.text, chunks=rows,
                                      embedding_model=self.embedder.model if vectors is not None else None,
                                      metadata=meta)

    def _vectors(self, texts: list[str]) -> np.ndarray | None:
        if self.embedder is None:
            return None
        return self.embedder.embed(texts)

    # -- the rest --------------------------------------------------------------------------------
    def list(self, destination: str | None = None):  # noqa: ANN201 (list[NoteItem])
        self.ensure_builtin()
        slug = resolve_destination(destination).slug if destination else None
        with self.store.org(self.ctx) as repo:
            return repo.knowledge.items(slug)

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
        return self.retriever.ask(question, slug, method=method)

    # -- Tripwright's own notes --------------------------------------------------------------------
    def ensure_builtin(self) -> int:
        """Import the shipped notes (``fixtures/notes/<destination>.md``) the org has never had;
        once per process per org. Lexical only at first launch: they need no endpoint."""
        key = (self.store.identity, self.ctx.org_id)
        with _SEED_LOCK:
            if key in _SEEDED:
                return 0
            added = 0
            for path in sorted(BUILTIN_DIR.glob("*.md")):
                with self.store.org(self.ctx) as repo:
                    if repo.knowledge.has_source("tripwright", path.name):
                        continue
                note = read_note_file(path)  # its title is the file's first heading
                try:
                    self._store(note, resolve_destination(path.stem), source_kind="tripwright",
                                source_name=path.name, embed=self.embedder is not None)
                except ToolError:  # the endpoint is down: keep them lexical rather than absent
                    self._store(note, resolve_destination(path.stem), source_kind="tripwright",
                                source_name=path.name, embed=False)
                added += 1
            _SEEDED.add(key)
            return added
