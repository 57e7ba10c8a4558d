"""Destination notes (seed §11, issue 13): import, PII stripping, chunking, retrieval and ask.

Qt-free and light to import: the pipeline imports only ``engine.notes.hints`` (the
``NotesLookup`` protocol); the store, tokenizer, parsers and numpy load when used.
"""
