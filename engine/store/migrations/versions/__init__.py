"""Alembic revision scripts (a package only so that wheels ship them)."""
