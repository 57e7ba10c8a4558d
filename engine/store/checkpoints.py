"""A run's last checkpoints, stored once each (``agent_run.checkpoints_z``, revision 0004).

The pipeline's last three checkpoints (selector, verifier, responder) usually hold the same
PlanV1, which is also the plan the run's version keeps. So the stored form lists each distinct
snapshot once, and a snapshot equal to that version's plan is not stored at all but named
``VERSION_PLAN``, read back from the version (``itinerary_version.run_id`` = the run)::

    {"snapshots": [<doc>, ...],
     "checkpoints": [{"node": "selector", "digest": "...", "snapshot": 0 | "version_plan"}, ...]}

Runs written before 0004 keep their plain ``checkpoints`` list; readers take either.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic_core import to_jsonable_python

CHECKPOINTS_KEPT = 3
VERSION_PLAN = "version_plan"


def _jsonable(value: Any) -> Any:
    return to_jsonable_python(value, fallback=str)


def checkpoint_docs(checkpoints: Any) -> list[dict[str, Any]]:
    """The pipeline's ``Checkpoints`` (or a list of checkpoint-like objects) as JSON, last 3 only."""
    items = checkpoints.all() if hasattr(checkpoints, "all") else list(checkpoints or [])
    return [{"node": c.node, "digest": c.digest, "snapshot": _jsonable(c.snapshot)}
            for c in items[-CHECKPOINTS_KEPT:]]


def pack_checkpoints(checkpoints: Any, version_plan: Any = None) -> dict[str, Any]:
    """The stored form: distinct snapshots once, the version's plan (a PlanV1 or its JSON) by name."""
    plan_doc = _jsonable(version_plan) if version_plan is not None else None
    snapshots: list[Any] = []
    packed = []
    for doc in checkpoint_docs(checkpoints):
        snapshot = doc["snapshot"]
        if plan_doc is not None and snapshot == plan_doc:
            ref: int | str = VERSION_PLAN
        else:
            ref = next((i for i, seen in enumerate(snapshots) if seen == snapshot), len(snapshots))
            if ref == len(snapshots):
                snapshots.append(snapshot)
        packed.append({"node": doc["node"], "digest": doc["digest"], "snapshot": ref})
    return {"snapshots": snapshots, "checkpoints": packed}


def unpack_checkpoints(packed: dict[str, Any], version_plan: Callable[[], Any]) -> list[dict[str, Any]]:
    """The checkpoints as :func:`checkpoint_docs` gave them; ``version_plan()`` reads the plan of
    the run's version (called once, and only when a checkpoint refers to it; None when the
    version is gone, e.g. purged with its trip)."""
    snapshots = packed.get("snapshots") or []
    items = packed.get("checkpoints") or []
    plan = version_plan() if any(item["snapshot"] == VERSION_PLAN for item in items) else None
    return [{"node": item["node"], "digest": item["digest"],
             "snapshot": plan if item["snapshot"] == VERSION_PLAN else snapshots[item["snapshot"]]}
            for item in items]
