"""Notes searched by meaning with the local model — no key, no network (issue 24): the Louvre
question, the labelled set against words alone, a model change re-embedding, and the model read
only when a question needs it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from sqlalchemy import select

from bench.notes_calibration import scores
from engine.notes.embeddings import make_embedder
from engine.notes.library import NotesLibrary
from engine.notes.local_model import DIMS, MODEL, LocalEmbedder
from engine.store.schema_notes import KnowledgeChunk

from tests.notes.labelled import NOTES, QUESTIONS

from .test_notes_store import embedder, server  # noqa: F401 (the fixture)

ROOT = Path(__file__).resolve().parents[2]


def _library(store, ctx, **kw) -> NotesLibrary:
    notes = NotesLibrary(store, ctx, embedder=make_embedder(None), **kw)
    assert isinstance(notes.embedder, LocalEmbedder)  # no endpoint configured: the local model
    return notes


def test_the_louvre_question_is_answered_from_the_note_without_a_key_or_network(store, org_a):
    notes = _library(store, org_a)
    title, text = NOTES["paris"]
    mine = notes.import_text(text, "paris", title=title)
    question = "Which Louvre entrance avoids the queue?"
    assert notes.ask(question, "paris", method="lexical").status == "unknown"  # the words alone miss it
    answer = notes.ask(question, "paris")
    assert answer.status == "found" and answer.method == "hybrid"
    assert {p.item_id for p in answer.passages} >= {mine.item_id}
    for p in answer.passages:  # each passage names the window that answers, not a heading
        assert "Porte des Lions" in p.passage and len(p.passage) <= 300
    assert notes.ask("Where can I rent a bicycle?", "paris").status == "unknown"


def test_the_labelled_set_is_answered_by_meaning_where_words_alone_miss(store, org_a):
    notes = _library(store, org_a)
    for destination, (title, text) in NOTES.items():
        notes.import_text(text, destination, title=title)
    words = [notes.ask(q, d, method="lexical") for d, q, _ in QUESTIONS]
    meaning = [notes.ask(q, d) for d, q, _ in QUESTIONS]
    for (_, question, expected), answer in zip(QUESTIONS, meaning):
        if expected is None:
            assert answer.status == "unknown", question  # no answer in the notes: never a guess
    found_only_by_meaning = {q for (_, q, e), w, m in zip(QUESTIONS, words, meaning)
                             if e and w.status == "unknown" and m.status == "found" and e in m.passages[0].text}
    assert found_only_by_meaning >= {
        "Which Louvre entrance avoids the queue?", "Louvre entrance without the long wait",
        "Where to buy croisants in the morning?",                     # a typo
        "How far ahead should I book the Sagrada Família?",            # accents as written in the note
        "Which Sagrada Familia tower has the best view?",              # accents left out
        "Is the Vaticn free on some days?", "Which transport card should I buy?"}
    before, after = scores(words), scores(meaning)
    assert after["found_precision"] >= 0.9 and after["found_recall"] >= 0.75
    assert after["found_recall"] > before["found_recall"] and after["unknown_recall"] == 1.0


def test_a_model_change_embeds_the_notes_again_once(store, org_a, server):  # noqa: F811
    title, text = NOTES["rome"]
    endpoint = NotesLibrary(store, org_a, embedder=embedder(server))
    item = endpoint.import_text(text, "rome", title=title)
    endpoint.ask("Colosseum ticket", "rome")  # Tripwright's own Rome notes get the endpoint's vectors too
    seen: list[tuple[int, int]] = []
    local = _library(store, org_a, progress=lambda done, total: seen.append((done, total)))
    assert local.ask("Where can I drink water for free?", "rome").status == "found"
    assert seen and seen[-1][0] == seen[-1][1] == 2  # the traveller's note and Tripwright's
    with store.org(org_a) as repo:
        rows = repo.session.execute(select(KnowledgeChunk.embedding_model, KnowledgeChunk.embedding)
                                    .where(KnowledgeChunk.destination == "rome")).all()
    assert {m for m, _ in rows} == {MODEL} and all(len(b) % (4 * DIMS) == 0 and len(b) > 4 * DIMS for _, b in rows)
    seen.clear()
    local.ask("Vatican dress code", "rome")
    assert seen == []  # already current
    calls = len(server.requests)
    assert endpoint.ask("Colosseum ticket", "rome").passages[0].item_id in {item.item_id} | {
        i.item_id for i in endpoint.list("rome")}
    assert len(server.requests) > calls  # back to the endpoint's model: embedded again


def test_the_model_is_read_on_the_first_question_only(tmp_path):
    script = textwrap.dedent(f"""
        import asyncio
        from datetime import date
        from argon2 import PasswordHasher
        from engine.notes import local_model
        from engine.notes.embeddings import make_embedder
        from engine.notes.library import NotesLibrary
        from engine.notes.lookup import StoreNotesLookup
        from engine.pipeline import PlanningSession
        from engine.store import Accounts, SecretStore, Store
        from tests.store.conftest import paris_intent

        with Store.open("sqlite:///{tmp_path / 'notes.db'}") as store:
            ctx = Accounts(store, SecretStore(), hasher=PasswordHasher(time_cost=1, memory_cost=256,
                           parallelism=1)).create_org("o", "o@example.com", None)
            notes = NotesLibrary(store, ctx, embedder=make_embedder(None))
            notes.list("paris")
            session = PlanningSession(today=date(2026, 11, 23), notes=StoreNotesLookup(store, ctx))
            asyncio.run(session.plan(paris_intent()))
            print("after plan", local_model.loaded())
            notes.ask("Which Louvre entrance avoids the queue?", "paris")
            print("after ask", local_model.loaded())
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=180,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "after plan False" in done.stdout and "after ask True" in done.stdout


def test_a_very_long_note_is_stored_at_once_and_embedded_by_its_first_question(store, org_a, monkeypatch):
    """Issue 25: a note of thousands of chunks imports within seconds — stored without vectors,
    embedded (with progress) when a question first needs them. The threshold is lowered here so a
    short note stands in for a 20 MB one."""
    import engine.notes.library as library
    monkeypatch.setattr(library, "EMBED_AT_IMPORT_MAX_CHUNKS", 0)
    notes = _library(store, org_a)
    title, text = NOTES["paris"]
    notes.import_text(text, "paris", title=title)
    with store.org(org_a) as repo:
        assert repo.knowledge.unembedded("paris", MODEL, 100)  # nothing embedded at import
    answer = notes.ask("Which Louvre entrance avoids the queue?", "paris")
    assert answer.status == "found" and "Porte des Lions" in answer.passages[0].passage
    with store.org(org_a) as repo:
        assert not repo.knowledge.unembedded("paris", MODEL, 100)  # the question embedded them
