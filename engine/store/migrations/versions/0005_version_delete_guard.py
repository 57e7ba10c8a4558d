"""Saved versions cannot be deleted while their trip exists.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24

Why: 0002 refuses UPDATE on ``itinerary_version``, but a DELETE typed by hand (or a bulk ORM
delete from a session that slipped past the session-layer guard) still removed history. A version
goes only with its trip: the retention purge deletes the trip row and ON DELETE CASCADE removes its
versions, which is allowed because by then the trip row is gone. Both engines run the cascade after
the parent row is deleted, so the trigger sees no trip and lets it through.

Additive: one trigger (and, on PostgreSQL, its function); nothing is rewritten.
"""
from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

MESSAGE = "itinerary_version rows cannot be changed: a version goes only with its trip"


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE FUNCTION tripwright_refuse_version_delete() RETURNS trigger LANGUAGE plpgsql AS $$ "
                   "BEGIN IF EXISTS (SELECT 1 FROM trip WHERE trip_id = OLD.trip_id) THEN "
                   f"RAISE EXCEPTION '{MESSAGE}'; END IF; RETURN OLD; END $$")
        op.execute("CREATE TRIGGER itinerary_version_no_delete BEFORE DELETE ON itinerary_version "
                   "FOR EACH ROW EXECUTE FUNCTION tripwright_refuse_version_delete()")
        return
    op.execute("CREATE TRIGGER itinerary_version_no_delete BEFORE DELETE ON itinerary_version "
               "WHEN EXISTS (SELECT 1 FROM trip WHERE trip_id = OLD.trip_id) "
               f"BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END")


def downgrade() -> None:
    raise NotImplementedError("migrations are additive only: restore a backup instead")
