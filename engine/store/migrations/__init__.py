"""Alembic scripts for the store (additive only). Run through ``engine.store.migrate``."""
