"""What the synthesizer may ask of destination notes — and nothing more (seed §11.2).

A lookup returns a short passage as *data* for one activity's notes; it cannot call tools or
change the plan, and the pipeline never sees the store. The default, :data:`NO_NOTES`, is
inactive, so a plan without notes is exactly what it was before.

What a traveller reads (seed §11.3 "Information not available", without the noise): a place the
notes say nothing about gets no line at all; a place the traveller's own notes name but do not
answer with confidence (nothing at τ), or every place when retrieval is down
(``SIMULATE_EMPTY_RAG``), gets "From your notes: information not available" (:data:`UNANSWERED`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Protocol

from engine.models import Provenance


@dataclass(frozen=True)
class NoteHint:
    text: str       # the sentence the notes hold about the place
    item_id: str
    chunk_id: str
    score: float    # calibrated confidence, ≥ τ
    source: str     # "Tripwright's notes: Paris", "tips.pdf", ...
    builtin: bool   # Tripwright's own notes (else the user's)
    confident: bool = True  # False: the notes name the place but nothing reached τ

    def cited(self) -> tuple[str, Provenance]:
        """The sentence as the itinerary states it and its ``source="rag"`` provenance."""
        provenance = Provenance(source="rag", tool="notes", call_ts=datetime.now(timezone.utc),
                                response_digest=hashlib.sha256(self.text.encode()).hexdigest()[:16],
                                ref_id=f"{self.item_id}/{self.chunk_id}", source_url=self.source,
                                data_source="fixture" if self.builtin else "user")
        whose = "Tripwright's notes" if self.builtin else "your notes"
        return f"From {whose}: {self.text}", provenance


UNKNOWN_TEXT = "From your notes: information not available"
UNANSWERED = NoteHint(text="", item_id="", chunk_id="", score=0.0, source="", builtin=False, confident=False)


class NotesLookup(Protocol):
    active: bool

    def about(self, destination: str, place: str) -> NoteHint | None:
        """What the notes say about ``place`` in ``destination``: a hint, :data:`UNANSWERED`, or
        None when they say nothing about it (or the destination is unknown)."""

    def revision(self, destination: str) -> str:
        """Changes when the destination's notes change (part of the synthesizer's memo key)."""


class NoNotes:
    active = False

    def about(self, destination: str, place: str) -> NoteHint | None:
        return None

    def revision(self, destination: str) -> str:
        return ""


NO_NOTES = NoNotes()
