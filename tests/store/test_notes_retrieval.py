"""Retrieval details on a real store (SQLite file, and PostgreSQL when configured): lexical
statistics leave deleted notes out, the three methods, and SQLite's planner statistics (0008)."""

from __future__ import annotations

import math

import pytest
from sqlalchemy import text

from engine.errors import InputError
from engine.notes.library import NotesLibrary

from tests.notes.documents import HOURS_SENTENCE, paris_guide

from .test_notes_store import embedder, server  # noqa: F401 (the fixture)

GELATO = "Gelato near the Pantheon: skip the neon places, try the side streets of Zanzibarro."


def test_deleted_notes_are_not_counted_in_the_lexical_statistics(store, org_a):
    notes = NotesLibrary(store, org_a)
    kept = notes.import_text(GELATO, "rome", title="kept")
    dropped = [notes.import_text(GELATO + f" Copy {i}.", "rome", title=f"copy {i}") for i in range(3)]
    with store.org(org_a) as repo:
        assert repo.knowledge.document_frequency("rome", "zanzibarro") == 4
    for item in dropped:
        notes.delete(item.item_id)
    with store.org(org_a) as repo:
        assert repo.knowledge.document_frequency("rome", "zanzibarro") == 1
        n = repo.knowledge.generation("rome")[0]
        weights = notes.retriever.weights(repo.knowledge, "rome", ["zanzibarro"])
    # the IDF is the one of a destination where the deleted copies never existed
    assert weights["zanzibarro"] == pytest.approx(math.log(1 + (n - 1 + 0.5) / 1.5))
    notes.restore(dropped[0].item_id)
    with store.org(org_a) as repo:
        assert repo.knowledge.document_frequency("rome", "zanzibarro") == 2
    assert notes.ask("Zanzibarro gelato", "rome").passages[0].item_id in {kept.item_id, dropped[0].item_id}


def test_lexical_vector_and_hybrid_are_each_asked_for(store, org_a, server):  # noqa: F811
    notes = NotesLibrary(store, org_a, embedder=embedder(server))
    notes.import_text(paris_guide(), "paris", title="Long Paris guide")
    for method in ("lexical", "vector", "hybrid"):
        answer = notes.ask("Eiffel Tower hours", "paris", method=method)
        assert answer.method == method and answer.status == "found"
        assert HOURS_SENTENCE in answer.passages[0].text
    with store.org(org_a) as repo:  # SQLite and PostgreSQL without pgvector: numpy (0009 added nothing)
        in_database = repo.knowledge.in_database_vectors()
    assert in_database == (store.url.get_backend_name() == "postgresql" and _offers_pgvector(store))
    assert notes.retriever.vector_search == ("pgvector" if in_database else "numpy")
    # "timetable" is no word of the notes: only the vectors (the server's synonyms) find it
    assert notes.ask("Eiffel timetable", "paris", method="vector").status == "found"
    assert {p.method for p in notes.ask("Eiffel timetable", "paris", method="vector").passages} == {"vector"}
    with pytest.raises(InputError, match="method"):
        NotesLibrary(store, org_a).ask("Eiffel Tower hours", "paris", method="vector")
    with pytest.raises(InputError, match="method"):
        notes.ask("Eiffel Tower hours", "paris", method="semantic")


def _offers_pgvector(store) -> bool:
    with store._engine.connect() as conn:
        return conn.execute(text("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).first() is not None


def test_sqlite_looks_chunks_up_by_their_key(store, org_a):
    if store.url.get_backend_name() != "sqlite":
        pytest.skip("SQLite's planner statistics")
    with store._engine.connect() as conn:
        plan = " ".join(str(r) for r in conn.execute(text(
            "EXPLAIN QUERY PLAN SELECT text FROM knowledge_chunk WHERE org_id = 'o' AND destination = 'paris' "
            "AND chunk_id IN ('a', 'b', 'c')")))
    assert "sqlite_autoindex_knowledge_chunk_1" in plan, plan
