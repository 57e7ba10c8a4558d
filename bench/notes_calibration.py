"""Calibrate each embedding model's answer threshold on the labelled set (issue 24) and print the
precision and recall of "found" and of "unknown", before (words only) and after (hybrid), for the
local model (WordLlama) and for the stand-in endpoint model of the tests:

    .venv/bin/python bench/notes_calibration.py [--json]

"found" is right when the first passage holds the words the label names (its cited window too,
for the local model); a found answer to a question the notes do not answer, or with the wrong
passage, is a false "found". ``HELD_OUT`` questions are scored apart, at the shipped threshold
only (they choose nothing). Every fusion (max, rrf, weighted) is swept over thresholds; the
threshold shipped in ``engine.notes.vector_index.MODEL_TAUS`` is the one of best F1 among those
whose "found" precision is at least 0.9 (an answer must not be a guess), for the fusion shipped.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from argon2 import PasswordHasher

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from engine.notes import vector_index as V  # noqa: E402
from engine.notes.embeddings import Embedder, EmbeddingConfig  # noqa: E402
from engine.notes.library import NotesLibrary  # noqa: E402
from engine.notes.local_model import LocalEmbedder  # noqa: E402
from engine.store import Accounts, SecretStore, Store  # noqa: E402
from tests.notes.embedding_server import EmbeddingServer  # noqa: E402
from tests.notes.labelled import HELD_OUT, NOTES, QUESTIONS  # noqa: E402

TAUS = [round(float(x), 2) for x in np.arange(0.10, 0.91, 0.02)]
PRECISION = 0.9
FUSIONS = (("max", None), ("rrf", None), ("weighted", 0.3), ("weighted", 0.5))


def scores(answers: list, cases=QUESTIONS) -> dict:
    """Precision/recall of found and unknown over the labelled questions."""
    tp = fp = fn = tn = 0
    for (_, _, expected), answer in zip(cases, answers):
        right = answer.status == "found" and expected is not None and expected in answer.passages[0].text
        if answer.status == "found":
            tp, fp = tp + right, fp + (not right)
            fn += expected is not None and not right
        elif expected is None:
            tn += 1
        else:
            fn += 1
    found_p = tp / (tp + fp) if tp + fp else 1.0
    found_r = tp / (tp + fn) if tp + fn else 1.0
    unknown_total = sum(1 for c in cases if c[2] is None)
    unknown_said = sum(1 for a in answers if a.status == "unknown")
    unknown_p = tn / unknown_said if unknown_said else 1.0
    unknown_r = tn / unknown_total if unknown_total else 1.0
    f1 = 2 * found_p * found_r / (found_p + found_r) if found_p + found_r else 0.0
    return {"found_precision": round(found_p, 3), "found_recall": round(found_r, 3),
            "unknown_precision": round(unknown_p, 3), "unknown_recall": round(unknown_r, 3), "f1": round(f1, 3)}


def ask_all(library: NotesLibrary, method: str | None, cases=QUESTIONS) -> list:
    return [library.ask(q, dest, method=method) for dest, q, _ in cases]


def _org(store: Store):  # noqa: ANN202
    accounts = Accounts(store, SecretStore(), hasher=PasswordHasher(time_cost=1, memory_cost=256, parallelism=1))
    return accounts.create_org(f"calibration-{time.time_ns()}", "calibration@example.com", None)


def calibrate(store: Store, embedder) -> dict:  # noqa: ANN001
    ctx = _org(store)
    library = NotesLibrary(store, ctx, embedder=embedder)
    for dest, (title, text) in NOTES.items():
        library.import_text(text, dest, title=title)
    before = scores(ask_all(library, "lexical"))
    shipped = V.MODEL_TAUS.get(embedder.model)
    sweeps = {}
    try:
        for fusion, weight in FUSIONS:
            library.retriever.fusion, library.retriever.weight = fusion, weight or 0.5
            rows = []
            for tau in TAUS:
                V.MODEL_TAUS[embedder.model] = tau
                rows.append((tau, scores(ask_all(library, "hybrid"))))
            precise = [r for r in rows if r[1]["found_precision"] >= PRECISION] or rows
            best_f1 = max(r[1]["f1"] for r in precise)
            plateau = [r[0] for r in precise if r[1]["f1"] == best_f1]
            middle = plateau[len(plateau) // 2]  # the middle of the best range: the least fragile
            name = fusion if weight is None else f"{fusion}({weight})"
            sweeps[name] = {"best_taus": f"{plateau[0]}–{plateau[-1]}", "tau": middle,
                            **next(r[1] for r in rows if r[0] == middle),
                            "curve": {r[0]: (r[1]["found_precision"], r[1]["found_recall"]) for r in rows}}
        library.retriever.fusion = "max"
        if shipped is None:
            V.MODEL_TAUS.pop(embedder.model, None)
        else:
            V.MODEL_TAUS[embedder.model] = shipped
        after = scores(ask_all(library, "hybrid"))
        held_out = {"words_only": scores(ask_all(library, "lexical", HELD_OUT), HELD_OUT),
                    "hybrid_shipped": scores(ask_all(library, "hybrid", HELD_OUT), HELD_OUT)}
    finally:
        library.retriever.fusion = "max"
        if shipped is None:
            V.MODEL_TAUS.pop(embedder.model, None)
        else:
            V.MODEL_TAUS[embedder.model] = shipped
    return {"model": embedder.model, "shipped_tau": V.model_tau(embedder.model), "words_only": before,
            "hybrid_shipped": after, "held_out": held_out, "sweeps": sweeps}


def run() -> dict:
    out = {}
    with tempfile.TemporaryDirectory() as tmp, EmbeddingServer() as server:
        with Store.open(f"sqlite:///{Path(tmp) / 'calibration.db'}") as store:
            out["local"] = calibrate(store, LocalEmbedder())
            endpoint = Embedder(EmbeddingConfig(base_url=server.base_url, api_key="x", model="stand-in-embed",
                                                timeout_s=5))
            out["stand_in_endpoint"] = calibrate(store, endpoint)
    return out


def main(argv: list[str]) -> int:
    figures = run()
    if "--json" in argv:
        print(json.dumps(figures, indent=2))
        return 0
    for name, f in figures.items():
        print(f"{name}: {f['model']} (shipped τ_m {f['shipped_tau']})")
        print(f"  words only      {f['words_only']}")
        print(f"  hybrid, shipped {f['hybrid_shipped']}")
        print(f"  held out ({len(HELD_OUT)} questions not used to choose τ_m): words only {f['held_out']['words_only']}")
        print(f"  held out, hybrid shipped {f['held_out']['hybrid_shipped']}")
        for fusion, row in f["sweeps"].items():
            curve = row.pop("curve")
            print(f"  sweep {fusion:13} {row}")
            print("      τ_m: found precision/recall  " + "  ".join(
                f"{tau}:{p:.2f}/{r:.2f}" for tau, (p, r) in curve.items() if 0.14 <= tau <= 0.76))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
