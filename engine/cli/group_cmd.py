"""Group planning on the CLI (SPEC_DECISIONS §3): ``ideas``, ``chat``, ``feedback``, ``react``.
Each command is one transaction in the signed-in org; bad input names the field (exit 2) and
writes nothing."""

from __future__ import annotations

from .run_store import org_scope


def run_ideas(args) -> int:
    with org_scope() as repo:
        if args.action == "add":
            if not args.title:
                from engine.errors import InputError
                raise InputError("--title", "'ideas add' needs --title")
            idea = repo.group.add_idea(args.trip_id, args.title, priority=args.priority)
            print(f"added idea {idea.idea_id} (priority {idea.priority}): {idea.title}")
            return 0
        ideas = repo.group.ideas(args.trip_id)
        from engine.cli.terminal import visible
        for idea in ideas:
            print(f"P{idea.priority}  {idea.created_at:%Y-%m-%d %H:%M}  {visible(idea.title)}")
        print(f"{len(ideas)} idea(s)")
        return 0


def run_chat(args) -> int:
    if args.action == "import":
        from engine.llm.chat_import import read_export
        source, messages = read_export(args.text)  # parsed whole before anything is stored
        with org_scope() as repo:
            added, known = repo.group.import_messages(args.trip_id, messages, source)
        people = len({m.author for m in messages if m.kind == "user"})
        print(f"imported {added} {source} message(s) from {people} people"
              + (f"; {known} already there" if known else ""))
        return 0
    with org_scope() as repo:
        if args.action == "post":
            message = repo.group.post(args.trip_id, args.text or "")
            print(f"posted at {message.sent_at:%Y-%m-%d %H:%M}")
            return 0
        from engine.cli.terminal import visible
        for m in repo.group.chat(args.trip_id, include_system=True):
            print(f"{m.sent_at:%Y-%m-%d %H:%M}  {visible(m.author) or '—'}: {visible(m.body)}")
    return 0


def run_feedback(args) -> int:
    with org_scope() as repo:
        if args.action == "add":
            from engine.errors import InputError
            if not args.text:
                raise InputError("--text", "'feedback add' needs --text")
            fb = repo.group.add_feedback(args.trip_id, args.text, rating=args.rating, version=args.version)
            print(f"feedback on v{fb.version} saved; {repo.group.revision_status(args.trip_id).label}")
            return 0
        for fb in repo.group.feedback(args.trip_id, args.version):
            stars = f"{fb.rating}/5 " if fb.rating else ""
            print(f"v{fb.version}  {stars}{fb.text}")
    return 0


def run_react(args) -> int:
    with org_scope() as repo:
        number, added = repo.group.react(args.trip_id, args.emoji, version=args.version)
        counts = repo.group.reactions(args.trip_id, number)
        status = repo.group.revision_status(args.trip_id)
    shown = "  ".join(f"{e} {n}" for e, n in counts.items())
    print(f"v{number}: {shown}" + ("" if added else " (you had already reacted so)") + f"; {status.label}")
    return 0
