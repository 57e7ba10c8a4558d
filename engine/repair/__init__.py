"""Bounded, deterministic repair: four moves (seed §7.1) and the cycle loop; then the time a
removal freed is filled (``fill.py``)."""

from .fill import repair_and_fill
from .loop import MAX_CYCLES, MAX_MOVES_PER_CYCLE, RepairResult, repair
from .moves import RepairContext

__all__ = ["MAX_CYCLES", "MAX_MOVES_PER_CYCLE", "RepairContext", "RepairResult", "repair", "repair_and_fill"]
