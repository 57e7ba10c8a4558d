"""What the synthesizer may ask of destination notes — and nothing more (seed §11.2).

A lookup returns a short passage as *data* for one activity's notes; it cannot call tools or
change the plan, and the pipeline never sees the store. The default, :data:`NO_NOTES`, is
inactive, so a plan without notes is exactly what it was before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class NoteHint:
    text: str       # the sentence the notes hold about the place
    item_id: str
    chunk_id: str
    score: float    # calibrated confidence, ≥ τ
    source: str     # "Tripwright's notes: Paris", "tips.pdf", ...
    builtin: bool   # Tripwright's own notes (else the user's)


class NotesLookup(Protocol):
    active: bool

    def about(self, destination: str, place: str) -> NoteHint | None:
        """What the notes say about ``place`` in ``destination``; None = unknown (below τ)."""

    def revision(self, destination: str) -> str:
        """Changes when the destination's notes change (part of the synthesizer's memo key)."""


class NoNotes:
    active = False

    def about(self, destination: str, place: str) -> NoteHint | None:
        return None

    def revision(self, destination: str) -> str:
        return ""


NO_NOTES = NoNotes()
