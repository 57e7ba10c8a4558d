"""Group planning in one org (seed 001): ideas with priority, the planning chat, feedback and
quick reactions per version, and whether a revision is possible ("X feedback, Y reactions since
vN" / "Waiting for feedback or reactions").

group planning per org (migration 0006: `idea.priority`, `version_reaction`, `chat_message` with an import
fingerprint): ideas by priority with their emoji reactions (the `reaction` table; `react_to_idea`, once per
person and emoji), chat post/import/list (delta since a version, non-system), feedback (rating 0 = none) and
emoji reactions per version, `revision_status` ("X feedback, Y reactions since vN" / "Waiting for feedback
or reactions"); `change_marker` (row counts; the app's Group dock polls it every 3 s so a teammate's
additions appear without a restart, on PostgreSQL or a shared SQLite file)
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError

from ..errors import InputError
from .columns import utcnow
from .schema import ItineraryVersion
from .schema_social import ChatMessage, Feedback, Idea, Reaction, VersionReaction
from .tenancy import OrgContext, OrgSession
from .trips import Trips

MAX_TITLE, MAX_TEXT, MAX_EMOJI, MAX_AUTHOR = 200, 4000, 32, 200


@dataclass(frozen=True)
class IdeaRecord:
    idea_id: str
    title: str
    priority: int
    created_at: datetime
    reactions: dict[str, int] = field(default_factory=dict)  # emoji → how many people


@dataclass(frozen=True)
class ChatRecord:
    message_id: str
    author: str
    body: str
    kind: str
    source: str
    sent_at: datetime


@dataclass(frozen=True)
class FeedbackRecord:
    version: int
    text: str
    rating: int | None
    created_at: datetime


@dataclass(frozen=True)
class RevisionStatus:
    latest: int | None
    feedback: int
    reactions: int

    @property
    def enabled(self) -> bool:
        return self.latest is not None and (self.feedback + self.reactions) > 0

    @property
    def label(self) -> str:
        if self.latest is None:
            return "No version yet: plan the trip first"
        if not self.enabled:
            return "Waiting for feedback or reactions"
        return f"{self.feedback} feedback, {self.reactions} reactions since v{self.latest}"


def _line(field: str, text: str, limit: int) -> str:
    if not isinstance(text, str) or not text.strip():
        raise InputError(field, "must not be empty")
    text = text.strip()
    if len(text) > limit:
        raise InputError(field, f"at most {limit} characters")
    if "\x00" in text:
        raise InputError(field, "holds a NUL character")
    return text


def check_priority(priority: int) -> int:
    if isinstance(priority, bool) or not isinstance(priority, int) or not 1 <= priority <= 5:
        raise InputError("priority", f"expected 1 (highest) to 5, got {priority!r}")
    return priority


def check_rating(rating: int | None) -> int:
    if rating is None:
        return 0
    if isinstance(rating, bool) or not isinstance(rating, int) or not 1 <= rating <= 5:
        raise InputError("rating", f"expected 1 to 5, got {rating!r}")
    return rating


def check_emoji(emoji: str) -> str:
    emoji = _line("emoji", emoji, MAX_EMOJI)
    if any(c.isspace() for c in emoji) or emoji.isascii() and not (emoji.startswith(":") and emoji.endswith(":")):
        raise InputError("emoji", f"expected one emoji (👍) or a :name:, got {emoji!r}")
    return emoji


IMPORT_BATCH = 2000  # chat messages inserted together


def fingerprint(source: str, sent_at: datetime, author: str, body: str) -> str:
    return hashlib.sha256(f"{source}|{sent_at.isoformat()}|{author}|{body}".encode()).hexdigest()


class GroupPlanning:
    def __init__(self, session: OrgSession, ctx: OrgContext) -> None:
        self._s = session
        self._ctx = ctx

    def _trip(self, trip_id: str) -> None:
        Trips(self._s, self._ctx).row(trip_id)

    # -- ideas -----------------------------------------------------------------------------
    def add_idea(self, trip_id: str, title: str, *, priority: int = 3) -> IdeaRecord:
        self._trip(trip_id)
        row = Idea(trip_id=trip_id, user_id=self._ctx.user_id, source="user", title=_line("title", title, MAX_TITLE),
                   body="", priority=check_priority(priority), created_at=utcnow())
        self._s.add(row)
        self._s.flush()
        return IdeaRecord(row.idea_id, row.title, row.priority, row.created_at)

    def ideas(self, trip_id: str, *, since: datetime | None = None) -> list[IdeaRecord]:
        """By priority (1 first; unset last), then oldest first."""
        self._trip(trip_id)
        stmt = select(Idea).where(Idea.trip_id == trip_id)
        if since is not None:
            stmt = stmt.where(Idea.created_at > since)
        rows = self._s.scalars(stmt).all()
        rows = sorted(rows, key=lambda r: (r.priority or 6, r.created_at, r.idea_id))
        counts = self._idea_reactions([r.idea_id for r in rows])
        return [IdeaRecord(r.idea_id, r.title, r.priority or 0, r.created_at, counts.get(r.idea_id, {}))
                for r in rows]

    def _idea_reactions(self, idea_ids: list[str]) -> dict[str, dict[str, int]]:
        if not idea_ids:
            return {}
        rows = self._s.execute(select(Reaction.idea_id, Reaction.kind, func.count())
                               .where(Reaction.idea_id.in_(idea_ids))
                               .group_by(Reaction.idea_id, Reaction.kind).order_by(Reaction.kind)).all()
        counts: dict[str, dict[str, int]] = {}
        for idea_id, kind, n in rows:
            counts.setdefault(idea_id, {})[kind] = n
        return counts

    def react_to_idea(self, trip_id: str, idea_id: str, emoji: str) -> bool:
        """True when added: the same person's same emoji on an idea counts once."""
        self._trip(trip_id)
        if self._s.scalar(select(Idea.idea_id).where(Idea.trip_id == trip_id, Idea.idea_id == idea_id)) is None:
            raise InputError("idea", f"trip {trip_id!r} has no idea {idea_id!r}")
        emoji = check_emoji(emoji)
        try:
            with self._s.begin_nested():
                self._s.add(Reaction(idea_id=idea_id, user_id=self._ctx.user_id, kind=emoji, created_at=utcnow()))
        except IntegrityError:
            return False
        return True

    # -- chat ------------------------------------------------------------------------------
    def post(self, trip_id: str, text: str, *, author: str = "") -> ChatRecord:
        self._trip(trip_id)
        now = utcnow()
        return self._add_message(trip_id, _line("text", text, MAX_TEXT), author, "user", "app", now,
                                 uuid.uuid4().hex)

    def import_messages(self, trip_id: str, messages, source: str) -> tuple[int, int]:
        """(added, already there): a re-import of the same export adds nothing."""
        self._trip(trip_id)
        known = set(self._s.scalars(select(ChatMessage.fingerprint).where(ChatMessage.trip_id == trip_id)))
        added, batch, now = 0, [], utcnow()
        for m in messages:
            mark = fingerprint(source, m.sent_at, m.author, m.body)
            if mark in known:
                continue
            known.add(mark)
            batch.append(model_row(ChatMessage, org_id=self._ctx.org_id, trip_id=trip_id, user_id=self._ctx.user_id,
                                   author=m.author[:MAX_AUTHOR], body=m.body[:MAX_TEXT], kind=m.kind, source=source,
                                   sent_at=m.sent_at, fingerprint=mark, created_at=now))
            added += 1
            if len(batch) == IMPORT_BATCH:
                self._insert_batch(batch)
        self._insert_batch(batch)
        return added, len(messages) - added

    def _insert_batch(self, rows: list[dict]) -> None:
        """Rows inserted together as values, each stamped with the org (the tenancy guard checks
        every one): a 19 MB export is 267,000 messages, and an ORM object each made the import
        2.3× a note import of the same bytes."""
        if rows:
            self._s.execute(insert(ChatMessage), rows)
        rows.clear()

    def _add_message(self, trip_id, body, author, kind, source, sent_at, mark) -> ChatRecord:
        row = ChatMessage(trip_id=trip_id, user_id=self._ctx.user_id, author=author, body=body, kind=kind,
                          source=source, sent_at=sent_at, fingerprint=mark, created_at=utcnow())
        self._s.add(row)
        self._s.flush()
        return _chat(row)

    def chat(self, trip_id: str, *, since: datetime | None = None, limit: int | None = None,
             include_system: bool = False) -> list[ChatRecord]:
        """Oldest first; with ``limit``, the newest ``limit`` messages."""
        self._trip(trip_id)
        stmt = select(ChatMessage).where(ChatMessage.trip_id == trip_id)
        if since is not None:
            stmt = stmt.where(ChatMessage.sent_at > since)
        if not include_system:
            stmt = stmt.where(ChatMessage.kind != "system")
        stmt = stmt.order_by(ChatMessage.sent_at.desc(), ChatMessage.message_id.desc())
        if limit is not None:
            stmt = stmt.limit(limit)
        return [_chat(r) for r in reversed(self._s.scalars(stmt).all())]

    # -- feedback and reactions per version ------------------------------------------------
    def latest_version(self, trip_id: str) -> tuple[int, datetime] | None:
        row = self._s.execute(select(ItineraryVersion.number, ItineraryVersion.created_at)
                              .where(ItineraryVersion.trip_id == trip_id)
                              .order_by(ItineraryVersion.number.desc()).limit(1)).first()
        return (row.number, row.created_at) if row else None

    def _version(self, trip_id: str, number: int | None) -> int:
        self._trip(trip_id)
        latest = self.latest_version(trip_id)
        if latest is None:
            raise InputError("version", f"trip {trip_id!r} has no version yet: plan it first")
        if number is None:
            return latest[0]
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= latest[0]:
            raise InputError("version", f"trip {trip_id!r} has versions 1 to {latest[0]}, not {number!r}")
        return number

    def add_feedback(self, trip_id: str, text: str, *, rating: int | None = None,
                     version: int | None = None) -> FeedbackRecord:
        number = self._version(trip_id, version)
        row = Feedback(trip_id=trip_id, version_number=number, user_id=self._ctx.user_id,
                       rating=check_rating(rating), comment=_line("text", text, MAX_TEXT), created_at=utcnow())
        self._s.add(row)
        self._s.flush()
        return FeedbackRecord(number, row.comment, row.rating or None, row.created_at)

    def feedback(self, trip_id: str, version: int | None = None) -> list[FeedbackRecord]:
        number = self._version(trip_id, version)
        rows = self._s.scalars(select(Feedback).where(Feedback.trip_id == trip_id, Feedback.version_number == number)
                               .order_by(Feedback.created_at, Feedback.feedback_id)).all()
        return [FeedbackRecord(number, r.comment, r.rating or None, r.created_at) for r in rows]

    def react(self, trip_id: str, emoji: str, *, version: int | None = None) -> tuple[int, bool]:
        """(version, added): the same person's same emoji on a version counts once."""
        number = self._version(trip_id, version)
        emoji = check_emoji(emoji)
        try:
            with self._s.begin_nested():
                self._s.add(VersionReaction(trip_id=trip_id, version_number=number, user_id=self._ctx.user_id,
                                            emoji=emoji, created_at=utcnow()))
        except IntegrityError:
            return number, False
        return number, True

    def reactions(self, trip_id: str, version: int | None = None) -> dict[str, int]:
        number = self._version(trip_id, version)
        rows = self._s.execute(select(VersionReaction.emoji, func.count()).where(
            VersionReaction.trip_id == trip_id, VersionReaction.version_number == number)
            .group_by(VersionReaction.emoji).order_by(VersionReaction.emoji)).all()
        return {emoji: count for emoji, count in rows}

    def change_marker(self, trip_id: str) -> tuple[int, ...]:
        """A cheap fingerprint of the trip's group activity (ideas, chat, feedback, reactions,
        versions) for a teammate's app to poll (≤ 5 s): a different value means reload the dock.
        Counts only; rows are never edited in place, so a count is enough to see an addition."""
        self._trip(trip_id)
        counted = (Idea, ChatMessage, Feedback, VersionReaction, ItineraryVersion)
        counts = tuple(int(self._s.scalar(select(func.count()).select_from(t).where(t.trip_id == trip_id)) or 0)
                       for t in counted)
        on_ideas = self._s.scalar(select(func.count()).select_from(Reaction).join(
            Idea, (Idea.org_id == Reaction.org_id) & (Idea.idea_id == Reaction.idea_id)).where(Idea.trip_id == trip_id))
        return (*counts, int(on_ideas or 0))

    def revision_status(self, trip_id: str) -> RevisionStatus:
        self._trip(trip_id)
        latest = self.latest_version(trip_id)
        if latest is None:
            return RevisionStatus(None, 0, 0)
        number = latest[0]
        fb = self._s.scalar(select(func.count()).select_from(Feedback).where(
            Feedback.trip_id == trip_id, Feedback.version_number == number))
        rx = self._s.scalar(select(func.count()).select_from(VersionReaction).where(
            VersionReaction.trip_id == trip_id, VersionReaction.version_number == number))
        return RevisionStatus(number, int(fb or 0), int(rx or 0))


def _chat(r: ChatMessage) -> ChatRecord:
    return ChatRecord(r.message_id, r.author, r.body, r.kind, r.source, r.sent_at)


def model_row(model, **values) -> dict:
    """One row of ``model``'s table for a bulk INSERT, derived from the model: ``values`` by column
    name (a name that is not a column is refused), every other column its Python-side default
    (``message_id``'s ``new_id``…), as a flush of ``model(**values)`` would fill it."""
    columns = model.__table__.columns
    unknown = set(values) - set(columns.keys())
    if unknown:
        raise TypeError(f"{model.__name__} has no column {', '.join(sorted(unknown))}")
    row = dict(values)
    for column in columns:
        default = column.default
        if column.key in row or default is None:
            continue
        if default.is_callable:
            row[column.key] = default.arg(None)
        elif default.is_scalar:
            row[column.key] = default.arg
    return row
