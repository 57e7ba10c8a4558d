"""A note made ready to store: PII stripped (seed §10.4), then chunked (§11.1). What the store
keeps of a note is exactly this plus the destination and, when configured, the embeddings."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InputError

from .chunking import chunk_text
from .destinations import Destination
from .pii import strip_pii
from .reading import ReadNote


@dataclass(frozen=True)
class PreparedNote:
    title: str
    source_name: str
    content: str  # the stripped text
    chunks: tuple[tuple[str, int], ...]  # (text, cl100k_base tokens)
    meta: dict  # format, tokens, pages, emails_removed, phones_removed

    def as_json(self) -> dict:
        return {"title": self.title, "source_name": self.source_name, "content": self.content,
                "chunks": [list(c) for c in self.chunks], "meta": self.meta}

    @classmethod
    def from_json(cls, data: dict) -> "PreparedNote":
        return cls(title=data["title"], source_name=data["source_name"], content=data["content"],
                   chunks=tuple((str(text), int(tokens)) for text, tokens in data["chunks"]), meta=dict(data["meta"]))


def prepare_note(note: ReadNote, dest: Destination, source_name: str) -> PreparedNote:
    clean = strip_pii(note.text, region=dest.country)
    title = strip_pii(note.title, region=dest.country).text
    source_name = strip_pii(source_name, region=dest.country).text  # "mail-from-john@x.org.txt"
    chunks = chunk_text(clean.text)
    if not chunks:
        raise InputError(f"file {source_name}", "the file holds no text")
    meta = {"format": note.kind, "tokens": sum(c.tokens for c in chunks), "pages": note.pages,
            "emails_removed": clean.emails, "phones_removed": clean.phones}
    return PreparedNote(title=title, source_name=source_name, content=clean.text,
                        chunks=tuple((c.text, c.tokens) for c in chunks), meta=meta)
