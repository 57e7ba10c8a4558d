"""Destination notes (seed §11, issue 13): import, PII stripping, chunking, retrieval and ask.

Qt-free and light to import: the pipeline imports only ``engine.notes.hints`` (the
``NotesLookup`` protocol); the store, tokenizer, parsers and numpy load when used.

destination notes (seed §11, issue 13), Qt-free: `reading.py` (Markdown via markdown-it-py, HTML via
BeautifulSoup, PDF via pypdf, text; binary, empty, > 20 MB, non-UTF-8, a control character anywhere, a pipe
or device, a PDF over 2,000 pages or past pypdf's decompression limit → one-line `InputError`; through
`engine/imports/untrusted.py`), `pii.py` (linear in the text: e-mail addresses from their "at" — `@`, `＠`,
`(at)`, `[at]`, `{at}`, ` at … dot …` — with bounded local part and domain; phone numbers by `phonenumbers`
on digit runs of ≤ 32 characters with dates and times set aside and numbers after `#`/order/ref kept, vanity
numbers read; the destination's country first, then common regions; past 5,000 candidates in one text a
7–15-digit run is removed unasked — replaced before anything is stored or embedded), `tokens.py`
(cl100k_base offline through `bpe-openai`), `chunking.py` (balanced 900–1,100-token chunks, 150-token
overlap, sentence ends: a 5,000-token document is 6 chunks of ~960, since 5 chunks of ≤ 1,100 with four
overlaps cover only 4,900 tokens), `destinations.py` (a fixture city, a named route or a gazetteer place →
one slug), `embeddings.py` (the OpenAI-compatible `/v1/embeddings` of `OPENAI_BASE_URL` with the model from
Settings/`TRIPWRIGHT_EMBEDDING_MODEL`; explicit timeout, one retry; `make_embedder`: unset or
`TRIPWRIGHT_OFFLINE=1` = the local model), `local_model.py` (issue 24: WordLlama's 256-d static embeddings
read from the installed wheel — no download — on the first embed, under a lock, off the GUI thread;
`TRIPWRIGHT_LOCAL_EMBEDDINGS=0` = words only), `passages.py` (a chunk's windows of whole sentences ≤ 300
characters under their heading — headings are context, never a window; what the local model embeds and what
a plan cites), `vector_index.py` (stored vectors — one row per chunk for an endpoint, one per window for the
local model, under a model name carrying its dimension — the numpy search with its per-destination cache,
and per-model calibrated thresholds `MODEL_TAUS` mapping each model's cosine onto the one τ 0.70),
`terms.py` (folding, Snowball stemming, the calibrated lexical confidence), `retrieval.py` (`Retriever.ask`:
lexical always, vectors too = hybrid, fused by the higher confidence (`FUSION = "max"`; RRF gave the same
answers on the labelled set, a weighted sum far fewer) — cosine in numpy, or by pgvector in PostgreSQL where
migration 0009 added the column; top-8 → MMR λ 0.5 → top-3; below τ 0.70 → `unknown` with no passages;
`SIMULATE_EMPTY_RAG=1` → unknown), `library.py` (`NotesLibrary`: import file/pasted text in one transaction
per file after the vectors are made; `reembed` — before a question, the destination's chunks with no vector
of the current model are embedded again in batches with progress, once per destination state; list,
delete/restore, ask, Tripwright's own notes from `fixtures/notes/*.md` seeded once per org — taken already
stripped and chunked from `fixtures/notes/builtin_pack.json` (`builtin_pack.py`, rebuilt with `python -m
engine.notes.builtin_pack`, checked by a test) when the file is the one packed, so a fresh data dir loads
neither the tokenizer nor libphonenumber), `prepared.py` (strip → chunk: what the store keeps of a note),
`hints.py` (the `NotesLookup` protocol the synthesizer sees; `NO_NOTES` by default) and `lookup.py`
(`StoreNotesLookup`: per place, lexical, in memory for ≤ 400 chunks, hints remembered per destination
generation)
"""
