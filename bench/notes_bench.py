"""Destination-notes performance figures (issue 13) on a fresh SQLite file, or any URL given:

    .venv/bin/python bench/notes_bench.py [--quick] [--json] [--url postgresql://...]

Targets (warm, in-process, 2 cores): ``notes ask`` over 10,000 chunks of one destination p50
≤ 50 ms, lexical (FTS5 BM25 + calibration), vector and hybrid (the query embedded by a local
OpenAI-compatible server on 127.0.0.1 and a brute-force numpy cosine over 10,000 × 1,536 float32
vectors, or pgvector's ``<=>`` in the database on PostgreSQL with the extension — ``vector_search``
says which); importing a 100-page PDF ≤ 10 s without embedding calls (read, PII, chunk, store); a
5-day Paris plan with the org's notes looked up ≤ 10 ms slower than without (median of the
differences of alternating fresh runs). Issue 24, the local model (WordLlama, no endpoint):
embedding 1,000 chunks of ~1,000 tokens (their passage windows) ≤ 2 s, and a hybrid question over
10,000 chunks (~15 window vectors of 256 dimensions each) p50 ≤ 50 ms.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import numpy as np
from argon2 import PasswordHasher

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from engine.models import IntentV1  # noqa: E402
from engine.notes.chunking import chunk_text  # noqa: E402
from engine.notes.embeddings import Embedder, EmbeddingConfig  # noqa: E402
from engine.notes.library import NotesLibrary  # noqa: E402
from engine.notes.local_model import MODEL as LOCAL_MODEL, LocalEmbedder  # noqa: E402
from engine.notes.lookup import StoreNotesLookup  # noqa: E402
from engine.notes.passages import windows  # noqa: E402
from engine.notes.vector_index import chunk_vectors  # noqa: E402
from engine.pipeline import PlanningSession  # noqa: E402
from engine.pipeline.control import NodeMemo  # noqa: E402
from engine.store import Accounts, SecretStore, Store  # noqa: E402
from bench.timing import p50_ms  # noqa: E402
from tests.notes.embedding_server import EmbeddingServer  # noqa: E402

PARIS = {"city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
         "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK",
         "prefs": {"themes": ["art", "food"]}}
TARGETS = {"embed_1000_chunks_local_s": 2, "ask_local_hybrid_10k_ms": 50, "ask_lexical_10k_ms": 50, "ask_vector_10k_ms": 50, "ask_hybrid_10k_ms": 50, "import_100_page_pdf_s": 10,
           "plan_notes_overhead_ms": 10}
QUESTIONS = ["Eiffel Tower hours", "Louvre entrance", "quiet cafe near the canal", "metro night hours",
             "best bakery croissant", "museum pass price"]
DIMS = 1536  # the test server adds one shared component to its hashed words


VOCAB = [f"w{i}" for i in range(6000)]
CUM_WEIGHTS = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(VOCAB))))  # Zipf
TOPICAL = ["The Eiffel Tower hours are 09:30 to 23:45.", "Use the Porte des Lions entrance at the Louvre.",
           "A quiet cafe near the canal opens early.", "The metro runs later on Saturday night.",
           "The best bakery croissant is warm at eight.", "A museum pass price covers two days."]


def _words(rng: random.Random, n: int) -> str:
    """~n words of Zipf-distributed filler; 3% of the texts carry one topical sentence."""
    sentences, left = [], n
    while left > 0:
        k = min(left, rng.randint(8, 24))
        sentences.append(" ".join(rng.choices(VOCAB, cum_weights=CUM_WEIGHTS, k=k)).capitalize() + ".")
        left -= k
    if rng.random() < 0.03:
        sentences.insert(rng.randrange(len(sentences)), rng.choice(TOPICAL))
    return " ".join(sentences)


def _fill(store: Store, ctx, chunks: int) -> None:
    """``chunks`` chunks of ~700 words for "paris" (each with a random 1,536-d vector), 100 per item."""
    rng = random.Random(13)
    vectors = np.random.default_rng(13).standard_normal((chunks, DIMS)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    for start in range(0, chunks, 100):
        rows = [(_words(rng, 700), 900, vectors[i].tobytes()) for i in range(start, min(start + 100, chunks))]
        with store.org(ctx) as repo:
            repo.knowledge.add(destination="paris", title=f"Bench {start}", source_kind="pasted",
                               source_name="bench", content="", chunks=rows, embedding_model="bench-embed",
                               metadata={})


def _fill_local(store: Store, ctx, chunks: int, destination: str = "rome") -> int:
    """``chunks`` chunks for ``destination`` with one random 256-d vector per passage window, as the
    local model stores them (random rows: the search costs the same); returns the window count."""
    rng = random.Random(17)
    vectors = np.random.default_rng(17)
    rows_total = 0
    for start in range(0, chunks, 100):
        rows = []
        for _ in range(start, min(start + 100, chunks)):
            text = _words(rng, 700)
            n = len(windows(text))
            block = vectors.standard_normal((n, 256)).astype(np.float32)
            block /= np.linalg.norm(block, axis=1, keepdims=True)
            rows.append((text, 900, block.tobytes()))
            rows_total += n
        with store.org(ctx) as repo:
            repo.knowledge.add(destination=destination, title=f"Local bench {start}", source_kind="pasted",
                               source_name="bench", content="", chunks=rows, embedding_model=LOCAL_MODEL,
                               metadata={}, in_database=False)
    return rows_total


def _embed_local(chunks: int) -> tuple[float, int]:
    """Seconds to embed ``chunks`` chunk texts of ~1,000 cl100k tokens with the local model (its
    passage windows, as an import does), the model already read; and the window count."""
    from engine.notes.chunking import sentences
    from engine.notes.local_model import _model
    from engine.notes.reading import read_note_file
    from engine.notes.tokens import count_tokens
    from tests.notes.documents import TOPICS
    from tests.notes.labelled import NOTES

    rng = random.Random(5)
    pool = [s for topic in TOPICS.values() for s in topic] + TOPICAL + [
        s.strip() for text in [t for _, t in NOTES.values()] + [read_note_file(p).text for p in
                                                              sorted(Path("fixtures/notes").glob("*.md"))]
        for s in sentences(text) if len(s.strip()) > 40]
    texts = []
    for _ in range(chunks):  # English sentences in paragraphs of three under a heading, ~1,000 tokens
        picked = rng.choices(pool, k=45)
        texts.append("\n\n".join(f"{rng.choice(list(TOPICS)).title()} tips\n\n" + " ".join(picked[i:i + 3])
                                  for i in range(0, 45, 3)))
    tokens = count_tokens(texts[0])
    assert 800 <= tokens <= 1300, tokens  # a chunk's size
    embedder = LocalEmbedder()
    embedder.embed(["warm up"])  # reading the model is a one-off, on the first question
    _model()._words.clear()  # every word of these chunks is tokenized within the time measured
    started = time.perf_counter()
    blobs = chunk_vectors(embedder, texts)
    return time.perf_counter() - started, sum(len(b) // (4 * 256) for b in blobs)


def _pdf(path: Path, pages: int) -> None:
    from fpdf import FPDF

    rng = random.Random(7)
    pdf = FPDF()
    pdf.set_font("helvetica", size=10)
    for _ in range(pages):
        pdf.add_page()
        pdf.multi_cell(0, 5, _words(rng, 450) + " Call +33 1 40 20 50 50 or write to guide@example.com.")
    pdf.output(str(path))


def _plan_overhead(store: Store, ctx, reps: int) -> tuple[float, float, float]:
    intent = IntentV1.model_validate(PARIS)
    plain = PlanningSession(today=date(2026, 11, 23))
    noted = PlanningSession(today=date(2026, 11, 23), notes=StoreNotesLookup(store, ctx))
    times: dict[str, list[float]] = {"plain": [], "notes": []}
    for i in range(reps + 1):
        for name, session in (("plain", plain), ("notes", noted)):
            session.memo = NodeMemo()  # a fresh run each time, as a first plan of a trip
            started = time.perf_counter()
            asyncio.run(session.plan(intent))
            if i:  # the first round warms both
                times[name].append((time.perf_counter() - started) * 1000)
    # runs alternate, so the median of each pair's difference cancels most of the machine's drift
    paired = statistics.median(b - a for a, b in zip(times["plain"], times["notes"]))
    return round(statistics.median(times["plain"]), 2), round(statistics.median(times["notes"]), 2), round(paired, 2)


def run(url: str | None = None, quick: bool = False) -> dict:
    chunks = 2_000 if quick else 10_000
    reps = 10 if quick else 30
    with tempfile.TemporaryDirectory() as tmp, EmbeddingServer(dims=DIMS - 1) as server:
        with Store.open(url or f"sqlite:///{Path(tmp) / 'bench.db'}") as store:
            accounts = Accounts(store, SecretStore(), hasher=PasswordHasher(time_cost=1, memory_cost=256, parallelism=1))
            ctx = accounts.create_org(f"bench-{time.time_ns()}", "bench@example.com", None)
            started = time.perf_counter()
            _fill(store, ctx, chunks)
            fill_s = time.perf_counter() - started
            lexical = NotesLibrary(store, ctx)
            embedder = Embedder(EmbeddingConfig(base_url=server.base_url, api_key="bench", model="bench-embed",
                                                timeout_s=5))
            hybrid = NotesLibrary(store, ctx, embedder=embedder)
            lexical_questions, vector_questions = itertools.cycle(QUESTIONS), itertools.cycle(QUESTIONS)
            hybrid_questions = itertools.cycle(QUESTIONS)
            ask_lex = p50_ms(lambda: lexical.ask(next(lexical_questions), "paris"), reps)
            ask_vec = p50_ms(lambda: hybrid.ask(next(vector_questions), "paris", method="vector"), reps)
            ask_hyb = p50_ms(lambda: hybrid.ask(next(hybrid_questions), "paris"), reps)
            local_windows = _fill_local(store, ctx, chunks)
            local = NotesLibrary(store, ctx, embedder=LocalEmbedder())
            local_questions = itertools.cycle(QUESTIONS)
            local.ask(QUESTIONS[0], "rome")  # the model read and the matrix loaded: warm, as the other figures
            ask_local = p50_ms(lambda: local.ask(next(local_questions), "rome"), reps)
            embed_s, embed_windows = _embed_local(1000)
            pdf = Path(tmp) / "guide.pdf"
            _pdf(pdf, 100)
            started = time.perf_counter()
            item = lexical.import_file(pdf, "rome")
            import_s = time.perf_counter() - started
            plain_ms, notes_ms, overhead_ms = _plan_overhead(store, ctx, 5 if quick else 25)
            return {"engine": store.url.get_backend_name(), "vector_search": hybrid.retriever.vector_search,
                    "chunks": chunks, "fill_s": round(fill_s, 1),
                    "ask_lexical_10k_ms": ask_lex, "ask_vector_10k_ms": ask_vec, "ask_hybrid_10k_ms": ask_hyb,
                    "embed_1000_chunks_local_s": round(embed_s, 2), "embed_1000_chunks_windows": embed_windows,
                    "ask_local_hybrid_10k_ms": ask_local, "local_window_vectors": local_windows,
                    "import_100_page_pdf_s": round(import_s, 2), "pdf_chunks": item.chunk_count,
                    "pdf_phones_removed": item.metadata["phones_removed"],
                    "plan_p50_ms": plain_ms, "plan_with_notes_p50_ms": notes_ms,
                    "plan_notes_overhead_ms": overhead_ms}


def main(argv: list[str]) -> int:
    url = argv[argv.index("--url") + 1] if "--url" in argv else None
    figures = run(url, quick="--quick" in argv)
    if "--json" in argv:
        print(json.dumps(figures, indent=2))
        return 0
    for key, value in figures.items():
        target = TARGETS.get(key)
        print(f"{key:26} {value}" + (f"  (target ≤ {target}{'' if value <= target else ', MISSED'})"
                                     if target else ""))
    return 0


if __name__ == "__main__":
    from engine.log_setup import configure
    configure(0)  # warnings only, to stderr: a run logs each node and tool call at INFO
    raise SystemExit(main(sys.argv[1:]))
