"""Group planning (seed 001): ideas, notes, feedback, reactions on ideas and on versions, chat.

They exist now so that issue needs no destructive migration; they follow the same tenancy rules
(org-scoped, composite keys to the trip and the user).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .columns import ID_LENGTH, UTCDateTime, new_id
from .schema_base import Base, OrgScoped, _created, _parent


def _id(**kw):  # local copy: keeps this module importable on its own terms
    return mapped_column(String(ID_LENGTH), **kw)


class Idea(OrgScoped, Base):
    __tablename__ = "idea"
    __table_args__ = (UniqueConstraint("org_id", "idea_id"),
                      _parent(["org_id", "trip_id"], "trip", ["org_id", "trip_id"], "CASCADE"),
                      _parent(["org_id", "user_id"], "user", ["org_id", "user_id"]))
    idea_id: Mapped[str] = _id(primary_key=True, default=new_id)
    trip_id: Mapped[str] = _id()
    user_id: Mapped[str] = _id()
    source: Mapped[str] = mapped_column(String(16), default="user")  # user | llm
    title: Mapped[str] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text, default="")
    priority: Mapped[int | None] = mapped_column(Integer, nullable=True)  # 1 (highest) .. 5; 0006
    created_at: Mapped[datetime] = _created()


class Note(OrgScoped, Base):
    __tablename__ = "note"
    __table_args__ = (_parent(["org_id", "trip_id"], "trip", ["org_id", "trip_id"], "CASCADE"),
                      _parent(["org_id", "user_id"], "user", ["org_id", "user_id"]))
    note_id: Mapped[str] = _id(primary_key=True, default=new_id)
    trip_id: Mapped[str] = _id()
    version_number: Mapped[int | None] = mapped_column(Integer)
    user_id: Mapped[str] = _id()
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = _created()


class Feedback(OrgScoped, Base):
    __tablename__ = "feedback"
    __table_args__ = (_parent(["org_id", "trip_id"], "trip", ["org_id", "trip_id"], "CASCADE"),
                      _parent(["org_id", "user_id"], "user", ["org_id", "user_id"]))
    feedback_id: Mapped[str] = _id(primary_key=True, default=new_id)
    trip_id: Mapped[str] = _id()
    version_number: Mapped[int | None] = mapped_column(Integer)
    user_id: Mapped[str] = _id()
    rating: Mapped[int] = mapped_column(Integer)  # 1..5; 0 = text without a rating
    comment: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = _created()


class Reaction(OrgScoped, Base):
    __tablename__ = "reaction"
    __table_args__ = (UniqueConstraint("idea_id", "user_id", "kind"),
                      _parent(["org_id", "idea_id"], "idea", ["org_id", "idea_id"], "CASCADE"),
                      _parent(["org_id", "user_id"], "user", ["org_id", "user_id"]))
    reaction_id: Mapped[str] = _id(primary_key=True, default=new_id)
    idea_id: Mapped[str] = _id()
    user_id: Mapped[str] = _id()
    kind: Mapped[str] = mapped_column(String(32))  # like | dislike | an emoji name
    created_at: Mapped[datetime] = _created()


class VersionReaction(OrgScoped, Base):
    """A quick reaction (an emoji) on one version of a trip (0006; ``reaction`` is for ideas)."""

    __tablename__ = "version_reaction"
    __table_args__ = (UniqueConstraint("org_id", "trip_id", "version_number", "user_id", "emoji"),
                      _parent(["org_id", "trip_id"], "trip", ["org_id", "trip_id"], "CASCADE"),
                      _parent(["org_id", "user_id"], "user", ["org_id", "user_id"]))
    reaction_id: Mapped[str] = _id(primary_key=True, default=new_id)
    trip_id: Mapped[str] = _id()
    version_number: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[str] = _id()
    emoji: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = _created()


class ChatMessage(OrgScoped, Base):
    """A planning-chat message: posted in the app or imported from an export (0006).
    ``fingerprint`` makes a re-import of the same export add nothing."""

    __tablename__ = "chat_message"
    __table_args__ = (UniqueConstraint("org_id", "trip_id", "fingerprint"),
                      Index("ix_chat_message_trip_sent", "trip_id", "sent_at"),
                      _parent(["org_id", "trip_id"], "trip", ["org_id", "trip_id"], "CASCADE"),
                      _parent(["org_id", "user_id"], "user", ["org_id", "user_id"]))
    message_id: Mapped[str] = _id(primary_key=True, default=new_id)
    trip_id: Mapped[str] = _id()
    user_id: Mapped[str] = _id()  # who posted or imported it
    author: Mapped[str] = mapped_column(String(200), default="")  # the name in the chat
    body: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(16), default="user")  # user | system
    source: Mapped[str] = mapped_column(String(16), default="app")  # app | whatsapp | telegram
    sent_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    fingerprint: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = _created()
