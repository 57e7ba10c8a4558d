"""``tripwright notes import|list|delete|ask`` (SPEC_DECISIONS §3): destination notes from the CLI.

Every file is read and checked before the first one is stored, and each file is stored in its own
transaction after its vectors are made, so a bad file or a failing endpoint leaves nothing half
imported (files already stored are named in the message)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from engine.cli.terminal import visible
from engine.errors import InputError, ToolError

STDIN_CAP_BYTES = 8 * 2**20  # the pasted-text cap (2,000,000 characters) in UTF-8, at most


def add_notes_parser(command) -> None:  # noqa: ANN001 (the CLI's subcommand factory)
    notes = command("notes", "destination notes: import, list, delete, ask")
    notes.add_argument("action", choices=["import", "list", "delete", "ask"], help="what to do")
    notes.add_argument("args", nargs="*", help="import: files (- = text on stdin); delete: note id; "
                                               "ask: the question")
    notes.add_argument("--destination", help="a city (paris), a named route (route66) or a place name")
    notes.add_argument("--title", help="import -: the pasted note's title")
    notes.add_argument("--json", action="store_true", help="ask: print the answer as JSON")


def run_notes(args) -> int:  # noqa: ANN001
    from engine.notes.embeddings import embedding_config, make_embedder
    from engine.notes.library import NotesLibrary

    from .run_store import signed_in

    config = embedding_config()
    with signed_in() as (store, ctx):
        library = NotesLibrary(store, ctx, embedder=make_embedder(config), progress=_progress)
        try:
            return _ACTIONS[args.action](library, args)
        except ToolError as exc:
            raise InputError("embeddings", f"{exc.reason}; nothing of this file was stored") from None


def _import(library, args) -> int:  # noqa: ANN001
    from engine.notes.reading import read_note_file

    if not args.args:
        raise InputError("path", "name at least one file to import (or - for text on stdin)")
    destination = _destination(args)
    files = [Path(p) for p in args.args if p != "-"]
    for path in files:
        read_note_file(path)  # every file checked before anything is stored
    done = []
    for given in args.args:
        try:
            item = (library.import_text(_stdin_text(), destination, title=args.title or "Pasted note")
                    if given == "-" else library.import_file(Path(given), destination))
        except (InputError, ToolError) as exc:
            if done:
                print(f"imported before the error: {', '.join(done)}", file=sys.stderr)
            raise exc
        done.append(item.item_id)
        meta = item.metadata
        print(f"{item.item_id}  {item.destination}  {item.chunk_count} chunk(s)  {visible(item.title)}  "
              f"(removed {meta.get('emails_removed', 0)} e-mail(s), {meta.get('phones_removed', 0)} phone(s))")
    return 0


def _stdin_text() -> str:
    """At most the pasted-text cap in bytes read (``< /dev/zero`` is refused there), strict UTF-8,
    no control characters."""
    from engine.imports.untrusted import read_stdin, strict_text
    return strict_text(read_stdin(STDIN_CAP_BYTES, "stdin"), "stdin")


def _list(library, args) -> int:  # noqa: ANN001
    items = library.list(args.destination)
    for it in items:
        origin = "Tripwright" if it.source_kind == "tripwright" else it.source_kind
        print(f"{it.item_id}  {it.destination:14} {it.chunk_count:3} chunk(s)  {origin:10}  {visible(it.title)}")
    print(f"{len(items)} note(s)")
    return 0


def _delete(library, args) -> int:  # noqa: ANN001
    if len(args.args) != 1:
        raise InputError("id", "'notes delete' needs one note id (see 'tripwright notes list')")
    item = library.delete(args.args[0])
    print(f"deleted {item.item_id}  {visible(item.title)}")
    return 0


def _ask(library, args) -> int:  # noqa: ANN001
    question = " ".join(args.args).strip()
    if not question:
        raise InputError("question", 'ask a question, e.g. notes ask "Eiffel Tower hours" --destination paris')
    answer = library.ask(question, _destination(args))
    if args.json:
        print(json.dumps(answer.as_json(), ensure_ascii=False, indent=2))
        return 0
    if answer.status == "unknown":
        print("Information not available.")
        return 0
    for p in answer.passages:  # the passage that answers; the whole chunk is in --json
        print(f"[{p.score:.2f}] {visible(p.source)} ({p.item_id})\n{visible(p.passage or p.text, keep_lines=True)}\n")
    return 0


def _progress(done: int, total: int) -> None:
    """A model change: the destination's notes are embedded again before the first answer."""
    print(f"embedding notes for the current model: {done}/{total} chunk(s)", file=sys.stderr)


def _destination(args) -> str:  # noqa: ANN001
    if not args.destination:
        raise InputError("destination", f"'notes {args.action}' needs --destination (e.g. paris)")
    return args.destination


_ACTIONS = {"import": _import, "list": _list, "delete": _delete, "ask": _ask}
