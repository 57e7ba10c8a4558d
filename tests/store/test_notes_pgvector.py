"""Notes vectors on PostgreSQL with pgvector (``TRIPWRIGHT_TEST_PGVECTOR_URL``, the second server
``.ci/postgres.sh`` starts from the pgserver wheel's binaries): migration 0009 adds and fills the
vector column, imports write it, questions are ranked in the database — with the same cosines the
numpy path computes — and one org never sees another's chunks. Each test gets a fresh database
(the extension's type lives in one schema of a database; a fresh database keeps tests apart)."""

from __future__ import annotations

import os
import uuid
from datetime import datetime, timezone

import numpy as np
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from engine.notes.library import NotesLibrary
from engine.notes.retrieval import CANDIDATES
from engine.store import Accounts, SecretStore, Store, migrate

from tests.notes.documents import HOURS_SENTENCE, paris_guide

from .conftest import FAST_HASHER, PASSWORD
from .test_migrations import _at_revision, _inserting, _rows_of_0002
from .test_notes_store import embedder, server  # noqa: F401 (the fixture)

PGVECTOR_URL = os.environ.get("TRIPWRIGHT_TEST_PGVECTOR_URL")
pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(not PGVECTOR_URL, reason="TRIPWRIGHT_TEST_PGVECTOR_URL is not set")]


@pytest.fixture
def pgvector_url():
    name = f"tw_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PGVECTOR_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    yield make_url(PGVECTOR_URL).set(database=name).render_as_string(hide_password=False)
    with admin.connect() as conn:
        conn.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
    admin.dispose()


@pytest.fixture
def pg_store(pgvector_url):
    with Store.open(pgvector_url) as opened:
        yield opened


def _org(store: Store, name: str):
    return Accounts(store, SecretStore(), hasher=FAST_HASHER).create_org(name, f"owner@{name}.example", PASSWORD)


def _column(store: Store) -> dict[str, str]:
    """chunk id -> the pgvector column as text, for the chunks that have a float32 vector."""
    with store._engine.connect() as conn:
        return dict(conn.execute(text("SELECT chunk_id, embedding_vector::text FROM knowledge_chunk "
                                      "WHERE embedding IS NOT NULL")).all())


def _numpy_cosines(store: Store, ctx, destination: str, question: np.ndarray) -> dict[str, float]:
    """Every chunk's cosine as the numpy path computes it, from the stored float32 bytes."""
    with store.org(ctx) as repo:
        found = repo.knowledge.vectors(destination, "test-embed")
    matrix = np.frombuffer(b"".join(found.blobs), dtype=np.float32).reshape(len(found.blobs), -1)
    return dict(zip(found.chunk_ids, (matrix @ question).tolist(), strict=True))


def test_import_writes_the_column_and_questions_are_ranked_by_pgvector(pg_store, memory_keyring, server):  # noqa: F811
    ctx = _org(pg_store, "a")
    notes = NotesLibrary(pg_store, ctx, embedder=embedder(server))
    notes.import_text(paris_guide(), "paris", title="Long Paris guide")
    column = _column(pg_store)
    assert column and all(v.startswith("[") for v in column.values())
    with pg_store._engine.connect() as conn:  # in the row, not TOAST (0009: read by every search)
        assert conn.execute(text("SELECT attstorage FROM pg_attribute WHERE attname = 'embedding_vector' "
                                 "AND attrelid = 'knowledge_chunk'::regclass")).scalar() == "m"
    answer = notes.ask("Eiffel timetable", "paris", method="vector")  # no word of the notes: vectors only
    assert notes.retriever.vector_search == "pgvector"
    assert answer.status == "found" and HOURS_SENTENCE in answer.passages[0].text
    question = embedder(server).embed(["Eiffel timetable"])[0]
    with pg_store.org(ctx) as repo:
        in_database = repo.knowledge.nearest("paris", "test-embed", question, CANDIDATES)
    expected = _numpy_cosines(pg_store, ctx, "paris", question)
    # the same cosines, and the best ones (chunks of equal cosine may come in either order)
    assert all(abs(cos - expected[cid]) < 1e-5 for cid, cos in in_database.items())
    assert np.allclose(list(in_database.values()), sorted(expected.values(), reverse=True)[:CANDIDATES], atol=1e-5)


def test_one_org_never_gets_another_orgs_chunks(pg_store, memory_keyring, server):  # noqa: F811
    a, b = _org(pg_store, "a"), _org(pg_store, "b")
    NotesLibrary(pg_store, a, embedder=embedder(server)).import_text(paris_guide(), "paris", title="A's guide")
    notes_b = NotesLibrary(pg_store, b, embedder=embedder(server))
    mine = notes_b.import_text("Canal Saint-Martin picnic spots by the locks.", "paris", title="B's tip")
    question = embedder(server).embed(["Eiffel Tower hours"])[0]
    with pg_store.org(b) as repo:
        found = repo.knowledge.nearest("paris", "test-embed", question, CANDIDATES)
        own = {c.chunk_id for c in repo.knowledge.destination_chunks("paris") if c.item_id == mine.item_id}
    assert found and set(found) == own
    answer = notes_b.ask("Eiffel Tower hours", "paris", method="vector")
    assert notes_b.retriever.vector_search == "pgvector"
    b_items = {item.item_id for item in notes_b.list("paris")}  # B's tip and Tripwright's own notes
    assert all(p.item_id in b_items and HOURS_SENTENCE not in p.text for p in answer.passages)
    notes_b.delete(mine.item_id)  # deleted notes drop out of the database's ranking at once
    with pg_store.org(b) as repo:
        assert not own & set(repo.knowledge.nearest("paris", "test-embed", question, CANDIDATES))


def test_a_0008_database_with_notes_is_migrated_and_its_vectors_filled(pgvector_url, itinerary, server):  # noqa: F811
    texts = ["Eiffel Tower hours are 09:30 to 23:45 in summer.", "The Louvre closes on Tuesdays."]
    vectors = embedder(server).embed(texts)
    engine = _at_revision(pgvector_url, "0008")
    now = datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)
    with engine.begin() as conn:
        ctx = _rows_of_0002(conn, itinerary)
        insert = _inserting(conn)
        insert("knowledge_item", org_id=ctx.org_id, item_id="i-old", destination="paris", title="Old note",
               source_kind="pasted", source_name="Old note", content=" ".join(texts), chunk_count=2,
               metadata={"format": "pasted"}, created_by=ctx.user_id, created_at=now)
        for i, chunk in enumerate(texts):
            insert("knowledge_chunk", org_id=ctx.org_id, chunk_id=f"c-old-{i}", item_id="i-old", destination="paris",
                   ordinal=i, text=chunk, token_count=12, embedding=vectors[i].tobytes(),
                   embedding_model="test-embed", created_at=now)
    engine.dispose()
    with Store.open(pgvector_url) as store:
        assert store.schema_revision() == migrate.HEAD == "0009"
        column = _column(store)
        assert set(column) == {"c-old-0", "c-old-1"}
        for i in range(2):
            stored = np.array([float(x) for x in column[f"c-old-{i}"].strip("[]").split(",")], dtype=np.float32)
            assert np.allclose(stored, vectors[i], atol=1e-6)
        notes = NotesLibrary(store, ctx, embedder=embedder(server))
        answer = notes.ask("Eiffel timetable", "paris", method="vector")
        assert notes.retriever.vector_search == "pgvector"
        assert answer.status == "found" and answer.passages[0].chunk_id == "c-old-0"
        with store.org(ctx) as repo:
            assert repo.versions.get("t-old", 1).itinerary_v1() == itinerary  # the rest of the data kept



def test_vectors_of_another_size_are_left_out_not_an_error(pg_store, memory_keyring, server):  # noqa: F811
    from tests.notes.embedding_server import EmbeddingServer

    ctx = _org(pg_store, "a")
    guide = NotesLibrary(pg_store, ctx, embedder=embedder(server)).import_text(paris_guide(), "paris", title="Guide")
    with EmbeddingServer(dims=64) as smaller:  # the same model name, resized between imports
        notes = NotesLibrary(pg_store, ctx, embedder=embedder(smaller))
        tip = notes.import_text("Eiffel Tower hours: the top closes at 22:30.", "paris", title="Tip")
        answer = notes.ask("Eiffel timetable", "paris", method="vector")
        question = embedder(smaller).embed(["Eiffel timetable"])[0]
    assert notes.retriever.vector_search == "pgvector" and answer.status == "found"
    assert {p.item_id for p in answer.passages} == {tip.item_id}
    with pg_store.org(ctx) as repo:
        found = repo.knowledge.nearest("paris", "test-embed", question, CANDIDATES)
        by_item = [(c.item_id, c.chunk_id) for c in repo.knowledge.destination_chunks("paris")]
    assert {cid for item, cid in by_item if item == tip.item_id} <= set(found)  # and Tripwright's own notes,
    assert not {cid for item, cid in by_item if item == guide.item_id} & set(found)  # embedded at 64 too
